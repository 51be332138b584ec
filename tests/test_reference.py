"""The slow solver baselines of credal.reference decide the same sets as the library's
vectorised code (on real folds, with the leaderboard's classifier settings)."""

from __future__ import annotations

import numpy as np
import pytest

from credal import datasets
from credal.chapters.leaderboard import REGISTRY, classifiers
from credal.experiments import default_preprocessing, fold_splits
from credal.reference import BASELINES


def _prepared_fold(name):
    """The first of 5 folds (seed 0), preprocessed as in the engine."""
    ds = datasets.load(name)
    keep = ~ds.y.isna().to_numpy()
    X, y = ds.X.loc[keep].reset_index(drop=True), ds.y.loc[keep].reset_index(drop=True)
    _, _, tr, te = fold_splits(y, n_splits=5, n_repeats=1, random_state=0)[0]
    prep = default_preprocessing().fit(X.iloc[tr], y.iloc[tr])
    return prep.transform(X.iloc[tr]), y.iloc[tr], prep.transform(X.iloc[te]), y.iloc[te]


def _check_baseline(name, clf, rows=None, n_features=None, **params):
    Xtr, ytr, Xte, _ = _prepared_fold(name)
    model = classifiers([clf], params or None,
                        n_features=n_features or Xtr.shape[1])[clf].fit(Xtr, ytr)
    X = Xte if rows is None else Xte.iloc[:rows]
    fast = model.predict_set(X)
    base = BASELINES[clf][0](model, X)
    np.testing.assert_array_equal(base, fast, err_msg=f"{clf} on {name}")
    return fast


@pytest.mark.parametrize("clf", ["NCC", "NCC-ε"])
def test_ncc_baseline_agrees(clf):
    sets = _check_baseline("labor", clf)
    _check_baseline("postoperative", clf)
    assert sets.shape[1] == 2


def test_lncc_baseline_agrees():
    _check_baseline("labor", "LNCC")
    _check_baseline("hepatitis", "LNCC", rows=20)
    # counts in the hundreds: for some pairs the log ratio keeps one sign on every float
    # of the bracket (brentq's end points had the same sign on pendigits' fourth row)
    _check_baseline("pendigits", "LNCC", rows=5)


def test_cma_baseline_agrees():
    _check_baseline("labor", "CMA", rows=6)
    _check_baseline("iris", "CMA", rows=6)
    # log marginal-likelihood terms in the thousands (overflow in a naive gradient)
    _check_baseline("nursery", "CMA", rows=4)


def test_aode_baselines_agree():
    _check_baseline("labor", "BMA-AODE*")
    _check_baseline("iris", "BMA-AODE*", rows=15)
    _check_baseline("labor", "COMP-AODE*", rows=4)


@pytest.mark.parametrize("clf", ["CDT", "CDT-double"])
def test_cdt_baseline_agrees(clf):
    _check_baseline("labor", clf)
    _check_baseline("iris", clf, rows=15)


def test_rbc_baseline_agrees():
    sets = _check_baseline("labor", "RBC")
    assert (sets.sum(axis=1) > 1).any()           # missing values make it indeterminate
    _check_baseline("postoperative", "RBC")


def test_every_credal_entry_has_a_baseline():
    assert set(BASELINES) == {e.name for e in REGISTRY if e.kind == "credal"}
