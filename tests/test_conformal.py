"""Conformal sets, credible sets and nested conformal calibration (issue 26).

ConformalClassifier against MAPIE run by hand on the same split; its two refusals and
its empty sets through the metrics and the engine; CredibleSet against brute force over
every subset; NestedConformal: NCC's sets nested in s, finite-sample coverage on
simulated data (binomial bound), the union for a family that is not nested, and the
pooled coverage on real data sets.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from mapie.classification import SplitConformalClassifier
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin

import credal
from credal import experiments, metrics
from credal.conformal import SmallCalibrationWarning


def _naive_data(seed, n, k=3, m=5, strength=1.2):
    """Rows of a naive-Bayes model: k classes, m features of 3 values."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = strength * (np.arange(3)[None, None, :] == (y[:, None, None] + np.arange(m)[None, :, None]) % 3)
    p = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
    X = (rng.random((n, m, 1)) > np.cumsum(p, axis=2)).sum(axis=2)
    return X, y


# ------------------------------------------------------------- ConformalClassifier

@pytest.mark.parametrize("method", ["lac", "aps", "raps"])
@pytest.mark.parametrize("alpha", [0.1, 0.25])
def test_sets_equal_mapies_own_on_the_same_split(method, alpha):
    X, y = _naive_data(0, 400, k=4)
    labels = np.array(["d", "b", "a", "c"])[y]  # MAPIE sorts labels; so does classes_
    Xt, _ = _naive_data(1, 300, k=4)
    model = credal.ConformalClassifier(credal.NaiveBayes(), alpha=alpha, method=method,
                                       random_state=3).fit(X, labels)
    cal = model.calibration_
    train = np.setdiff1d(np.arange(len(y)), cal)
    nb = credal.NaiveBayes().fit(X[train], labels[train])
    mapie = SplitConformalClassifier(nb, confidence_level=1 - alpha, conformity_score=method,
                                     prefit=True, random_state=3).conformalize(X[cal], labels[cal])
    pred, sets = mapie.predict_set(Xt)
    np.testing.assert_array_equal(model.classes_, nb.classes_)
    np.testing.assert_array_equal(model.predict_set(Xt), sets[:, :, 0])
    np.testing.assert_array_equal(model.predict(Xt), pred)
    np.testing.assert_allclose(model.predict_proba(Xt), nb.predict_proba(Xt))
    # the split: each class sends round(0.3 n_k) rows to calibration
    for k in np.unique(labels):
        assert np.isin(cal, np.flatnonzero(labels == k)).sum() == round(0.3 * (labels == k).sum())


def test_unsorted_categories_keep_their_columns():
    """Declared categories in a non-sorted order: the sets follow ``classes_`` (MAPIE
    itself assumes sorted classes, hence the codes inside)."""
    X, y = _naive_data(2, 300)
    names = np.array(["zeta", "alpha", "mid"])
    cat = pd.Series(pd.Categorical(names[y], categories=names))
    Xt, _ = _naive_data(3, 100)
    a = credal.ConformalClassifier(credal.NaiveBayes(), random_state=0).fit(X, cat)
    b = credal.ConformalClassifier(credal.NaiveBayes(), random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.classes_, names)
    np.testing.assert_array_equal(a.predict_set(Xt), b.predict_set(Xt))
    np.testing.assert_array_equal(a.predict(Xt), names[b.predict(Xt)])


def _lac_with_empty_sets():
    X, y = _naive_data(4, 300, k=4, strength=0.6)
    Xt, yt = _naive_data(5, 400, k=4, strength=0.6)
    model = credal.ConformalClassifier(credal.NaiveBayes(), alpha=0.5, random_state=0)
    return model.fit(X, y), X, y, Xt, yt


def test_empty_lac_sets_are_kept_and_counted_as_errors():
    model, X, y, Xt, yt = _lac_with_empty_sets()
    sets = model.predict_set(Xt)
    empty = ~sets.any(axis=1)
    assert empty.any() and not empty.all()
    with pytest.raises(ValueError, match="empty row"):
        metrics.coverage(sets, yt)
    m = metrics.summary(sets, yt, allow_empty=True)
    hit = sets[np.arange(len(yt)), yt]
    size = sets.sum(axis=1)
    assert m["empty_sets"] == pytest.approx(empty.mean())
    assert m["coverage"] == pytest.approx(hit.mean())
    assert m["set_size"] == pytest.approx(size.mean())
    assert m["determinacy"] == pytest.approx((size == 1).mean())
    x = np.where(size > 0, hit / np.maximum(size, 1), 0.0)
    assert m["u65"] == pytest.approx(np.mean(1.6 * x - 0.6 * x ** 2))
    # the engine scores them the same way and keeps them in its predictions
    res = experiments.holdout({"LAC": model}, (X, y), (Xt, yt), progress=False)
    row = res.folds.iloc[0]
    assert 0 < row["empty_sets"] < 1 and row["coverage"] <= 1 - row["empty_sets"]
    assert (res.predictions["set"] == "").sum() == round(row["empty_sets"] * len(yt))
    assert not res.sets("data", "LAC")[res.predictions["set"] == ""].any()


def test_a_credal_classifiers_empty_set_is_still_refused_by_the_engine():
    class Broken(credal.NCC):
        def _sets(self, z):
            return np.zeros((len(z), len(self.classes_)), dtype=bool)

    X, y = _naive_data(6, 60)
    with pytest.raises(ValueError, match="empty set"):
        experiments.holdout({"b": Broken()}, (X, y), (X, y), progress=False)


def test_too_few_calibration_rows_give_the_vacuous_set_with_a_warning():
    X, y = _naive_data(7, 40)
    model = credal.ConformalClassifier(credal.NaiveBayes(), alpha=0.05, random_state=0)
    with pytest.warns(SmallCalibrationWarning, match=r"12 calibration rows .* alpha=0.05"):
        model.fit(X, y)
    assert model.conformal_ is None and model.predict_set(X).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        credal.ConformalClassifier(credal.NaiveBayes(), alpha=0.1, random_state=0).fit(X, y)


@pytest.mark.parametrize("method", ["aps", "raps"])
def test_aps_with_two_classes_in_calibration_is_a_clear_error(method):
    X, y = _naive_data(8, 200, k=2)
    with pytest.raises(ValueError, match=rf"method='{method}' is undefined .* 2 classes.*'lac'"):
        credal.ConformalClassifier(credal.NaiveBayes(), method=method).fit(X, y)
    # three classes declared, one too rare to reach calibration: the same error
    y3 = y.copy()
    y3[0] = 2
    with pytest.raises(ValueError, match="2 classes"):
        credal.ConformalClassifier(credal.NaiveBayes(), method=method).fit(X, y3)


def test_bad_parameters_are_named():
    X, y = _naive_data(9, 100)
    for kw, said in (({"alpha": 1.0}, "alpha must lie in"), ({"method": "top"}, "method must"),
                     ({"calibration_size": 0.0}, "calibration_size must lie")):
        with pytest.raises(ValueError, match=said):
            credal.ConformalClassifier(credal.NaiveBayes(), **kw).fit(X, y)
    with pytest.raises(TypeError, match="no predict_proba"):
        credal.ConformalClassifier(credal.NCC()).fit(X, y)
    with pytest.raises(ValueError, match="mass must lie"):
        credal.CredibleSet(credal.NaiveBayes(), mass=0.0).fit(X, y)
    with pytest.raises(ValueError, match="parameter must name"):
        credal.NestedConformal(credal.NCC(), "t", [1.0]).fit(X, y)
    with pytest.raises(ValueError, match="values must be"):
        credal.NestedConformal(credal.NCC(), "s", []).fit(X, y)


# --------------------------------------------------------------------- CredibleSet

class _Given(ClassifierMixin, BaseEstimator):
    """predict_proba returns X itself (rows of probabilities)."""

    def fit(self, X, y):
        self.classes_ = np.unique(np.asarray(y))
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=float)

    def predict(self, X):
        return self.classes_[np.argmax(X, axis=1)]


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("mass", [0.5, 0.8, 0.9, 0.95, 1.0])
def test_credible_set_against_every_subset(k, mass):
    rng = np.random.default_rng(k)
    P = rng.dirichlet(np.full(k, 0.7), 300)
    P[:20] = np.round(P[:20] * 4) / 4  # ties and exact sums
    P[:20] /= P[:20].sum(axis=1, keepdims=True)
    P[20:30] = 1.0 / k
    model = credal.CredibleSet(_Given(), mass=mass).fit(P[:k], np.arange(k))
    sets = model.predict_set(P)
    for p, s in zip(P, sets):
        reach = [len(c) for r in range(1, k + 1) for c in itertools.combinations(range(k), r)
                 if sum(p[list(c)]) >= mass - 1e-12]
        assert s.sum() == min(reach)  # the smallest set reaching the mass
        assert p[s].sum() >= mass - 1e-12
        assert p[s].min() >= p[~s].max(initial=-1)  # of the most probable classes
    assert sets[np.arange(len(P)), model.predict(P)].all()


# ----------------------------------------------------------------- NestedConformal

@pytest.mark.parametrize("seed", range(8))
def test_ncc_sets_are_nested_in_s(seed):
    X, y = _naive_data(seed, 30 + 20 * seed, k=2 + seed % 3, strength=0.5 + 0.2 * seed)
    Xt = np.random.default_rng(seed).integers(-1, 3, (200, X.shape[1]))
    previous = None
    for s in np.geomspace(1e-3, 1e3, 25):
        sets = credal.NCC(s=s).fit(X, y).predict_set(Xt)
        if previous is not None:
            assert not (previous & ~sets).any(), f"a class left NCC's set when s grew to {s}"
        previous = sets


def test_nested_conformal_coverage_on_simulated_data():
    """One test row per repetition, so the covered count is binomial with success
    probability at least 1 - alpha; it must not fall below that law's 0.1 % quantile."""
    alpha, reps = 0.1, 300
    covered = 0
    family = np.geomspace(1e-2, 1e2, 9)
    for r in range(reps):
        X, y = _naive_data(1000 + r, 61, k=3, strength=0.8)
        model = credal.NestedConformal(credal.NCC(), "s", family, alpha=alpha, random_state=r)
        model.fit(X[:60], y[:60])
        covered += bool(model.predict_set(X[60:])[0, y[60]])
    assert covered >= stats.binom.ppf(0.001, reps, 1 - alpha)


class _Rotating(ClassifierMixin, BaseEstimator):
    """A family that is not nested: at ``shift`` the set is the single class
    ``(x0 + shift) mod K``."""

    def __init__(self, shift=0):
        self.shift = shift

    def fit(self, X, y):
        self.classes_ = np.unique(np.asarray(y))
        return self

    def predict_set(self, X):
        K = len(self.classes_)
        return (np.asarray(X)[:, :1] + self.shift) % K == np.arange(K)

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_set(X), axis=1)]


def test_the_union_makes_any_family_nested():
    rng = np.random.default_rng(0)
    K, alpha = 4, 0.2
    X, y = rng.integers(0, K, (200, 2)), rng.integers(0, K, 200)
    shifts = [0, 2, 1, 3]
    model = credal.NestedConformal(_Rotating(), "shift", shifts, alpha=alpha,
                                   random_state=0).fit(X, y)
    members = [_Rotating(s).fit(X, y) for s in shifts]
    cal = model.calibration_
    first = [next((j for j, e in enumerate(members) if e.predict_set(X[[i]])[0, y[i]]),
                  len(shifts)) for i in cal]
    np.testing.assert_array_equal(model.calibration_scores_, first)
    n = len(cal)
    assert model.index_ == sorted(first)[math.ceil((n + 1) * (1 - alpha)) - 1]
    Xt = rng.integers(0, K, (50, 2))
    union = np.zeros((50, K), dtype=bool)
    for e in members[: model.index_ + 1]:
        union |= e.predict_set(Xt)
    np.testing.assert_array_equal(model.predict_set(Xt), union)
    assert model.index_ > 0 and model.value_ == shifts[model.index_]
    assert model.predict_set(Xt).sum(axis=1).min() == model.index_ + 1  # not just the last


def test_nested_conformal_vacuous_with_too_few_rows():
    X, y = _naive_data(11, 12)
    with pytest.warns(SmallCalibrationWarning):
        model = credal.NestedConformal(credal.NCC(), "s", [0.1, 1.0], alpha=0.1,
                                       random_state=0).fit(X, y)
    assert model.value_ is None and model.predict_set(X).all()


SMALL = ["labor", "white_clover", "postoperative", "zoo", "lymph", "iris", "tae",
         "hepatitis", "grub_damage", "hayes_roth"]


@pytest.mark.slow
def test_pooled_coverage_over_20_repetitions_on_10_data_sets():
    """The issue's criterion: 20 train/test splits (4 x 5-fold CV) on each of 10 data
    sets of Corani & Antonucci; pooled coverage >= 1 - alpha - 0.02."""
    alpha = 0.1
    model = credal.NestedConformal(credal.NCC(), "s", np.geomspace(1e-3, 1e3, 25),
                                   alpha=alpha, random_state=0)
    res = experiments.cross_validate({"nested": model}, SMALL, n_splits=5, n_repeats=4,
                                     progress=False, keep_predictions=True, n_jobs=1)
    pooled = res.predictions["in_set"].mean()
    assert len(res.folds) == 200
    assert pooled >= 1 - alpha - 0.02, pooled


@pytest.mark.parametrize("make", [
    lambda: credal.NestedConformal(credal.NCC(), "s", [0.1, 1.0], alpha=0.1, random_state=31),
    lambda: credal.ConformalClassifier(credal.NaiveBayes(), alpha=0.25, random_state=31),
])
def test_integer_codes_seen_only_in_calibration_are_known(make):
    """A code that only the calibration part holds (column 1's code 2 with seed 31) is a
    category of the whole training data: the wrapped estimator, fitted on the proper
    training part, is given every code of the training data, and a code beyond them is
    refused at prediction with the library's message."""
    X, y = _naive_data(11, 12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallCalibrationWarning)
        model = make().fit(X, y)
    assert model.predict_set(X).shape == (12, 3)
    assert list(model.n_values_) == list(X.max(axis=0) + 1)
    with pytest.raises(ValueError, match="outside the .* categories seen in fit"):
        model.predict_set(X + 5)
