"""Tests of credal.missing: the deletion mechanisms (MCAR and informative).

Rates are exact in expectation (binomial bounds over many seeds), the informative mechanism
follows its declared logistic form in the value and the class (checked against a direct
computation of "typical of the class" and of the intercept), inputs are never modified,
seeds reproduce and bad arguments get clear errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import credal
from credal import datasets
from credal.missing import (delete_at_random, delete_informatively, deletion_probabilities,
                            typical_of_class)


def _toy(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = pd.Series(pd.Categorical(rng.choice(["a", "b", "c"], n)), name="class")
    X = pd.DataFrame({
        "colour": pd.Categorical(np.where(y == "a", "red", rng.choice(["red", "blue"], n)),
                                 categories=["red", "blue", "green"]),
        "size": rng.normal(size=n) + (y == "b"),
        "count": rng.integers(0, 5, n),
        "flag": rng.random(n) < 0.5})
    return X, y


def _binomial_ok(k, n, p, z=4.5):
    """``k`` successes of ``n`` draws with probability ``p`` within ``z`` binomial SEs."""
    return abs(k - n * p) <= z * np.sqrt(n * p * (1 - p))


@pytest.mark.parametrize("rate", [0.05, 0.1, 0.2, 0.3])
def test_rates_are_exact_in_expectation(rate):
    """Over 200 seeds (160,000 cells) the deleted share is within 4.5 binomial SEs of rate,
    for both mechanisms; each mechanism's probabilities average to rate exactly."""
    X, y = _toy()
    cells, seeds = X.size, range(200)
    for f in (lambda s: delete_at_random(X, rate, s),
              lambda s: delete_informatively(X, y, rate, 2.0, s)):
        k = sum(int(f(s).isna().to_numpy().sum()) for s in seeds)
        assert _binomial_ok(k, cells * len(seeds), rate), (k / (cells * len(seeds)), rate)
    for strength in (-3.0, 0.0, 0.5, 2.0, 8.0):
        assert deletion_probabilities(X, y, rate, strength).mean() == pytest.approx(
            rate, abs=1e-12)


def test_cells_already_missing_stay_missing_and_do_not_count():
    X, y = _toy()
    X.loc[:49, "size"] = np.nan
    obs = X.notna().to_numpy()
    p = deletion_probabilities(X, y, 0.2, 2.0)
    assert (p[~obs] == 0).all() and p[obs].mean() == pytest.approx(0.2, abs=1e-12)
    out = delete_at_random(X, 0.2, 0)
    assert out.loc[:49, "size"].isna().all()
    k = sum(int((delete_at_random(X, 0.2, s).isna().to_numpy() & obs).sum()) for s in range(100))
    assert _binomial_ok(k, 100 * obs.sum(), 0.2)


def test_typical_of_class_by_hand():
    X = pd.DataFrame({"v": ["x", "x", "y", "y", "y", None], "num": [1., 2., 3., 4., 5., 6.]})
    y = ["A", "A", "A", "B", "B", "B"]
    h = typical_of_class(X, y)
    # v observed in 5 rows: x 2/5, y 3/5; class A: x 2/3 (> 2/5, typical), y 1/3 (< 3/5);
    # class B (2 rows observed): y 2/2 (> 3/5, typical); row 5 missing: False
    np.testing.assert_array_equal(h[:, 0], [True, True, False, True, True, False])
    # num: quartile groups of 1..6 (edges 2.25, 3.5, 4.75): groups 0 0 1 2 3 3;
    # every group sits in one class only, so every cell is typical of its class
    assert h[:, 1].all()


def test_informative_mechanism_depends_on_value_and_class_as_declared():
    """Probabilities take exactly two values, ``expit(b + strength)`` on the cells typical of
    their class and ``expit(b)`` elsewhere (odds ratio ``exp(strength)``); the same value is
    typical in one class and atypical in another; the empirical deletion frequencies of the
    two groups match the declared probabilities (binomial bounds over 300 seeds)."""
    X, y = _toy()
    h = typical_of_class(X, y)
    strength, rate = 2.0, 0.2
    p = deletion_probabilities(X, y, rate, strength)
    p1, p0 = np.unique(p[h]), np.unique(p[~h])
    assert len(p1) == 1 == len(p0)
    odds = (p1[0] / (1 - p1[0])) / (p0[0] / (1 - p0[0]))
    assert odds == pytest.approx(np.exp(strength), rel=1e-10)
    # "red" is typical of class a (always red) but not of classes b and c
    red = (X["colour"] == "red").to_numpy()
    assert h[red & (y == "a").to_numpy(), 0].all() and not h[red & (y != "a").to_numpy(), 0].any()
    hits, n = np.zeros(2), 300
    for s in range(n):
        gone = delete_informatively(X, y, rate, strength, s).isna().to_numpy()
        hits += gone[h].sum(), gone[~h].sum()
    assert _binomial_ok(hits[0], n * h.sum(), p1[0]) and _binomial_ok(hits[1], n * (~h).sum(), p0[0])
    # strength 0 is MCAR: every cell at rate
    np.testing.assert_allclose(deletion_probabilities(X, y, rate, 0.0), rate, rtol=0, atol=1e-12)
    # the class enters: shuffling y changes which cells are typical
    assert (typical_of_class(X, y.sample(frac=1, random_state=0).to_numpy()) != h).any()


def test_input_untouched_and_types_kept():
    X, y = _toy()
    before, y_before = X.copy(deep=True), y.copy()
    for out in (delete_at_random(X, 0.3, 1), delete_informatively(X, y, 0.3, 2.0, 1)):
        assert out is not X
        pd.testing.assert_frame_equal(X, before)
        pd.testing.assert_series_equal(y, y_before)
        assert out.isna().to_numpy().any()
        assert list(out.columns) == list(X.columns) and out.index.equals(X.index)
        assert isinstance(out["colour"].dtype, pd.CategoricalDtype)
        assert list(out["colour"].cat.categories) == ["red", "blue", "green"]
        kept = out.notna()
        for c in X.columns:
            assert (out.loc[kept[c], c].astype(object) == X.loc[kept[c], c].astype(object)).all()
    arr = np.arange(20.0).reshape(5, 4)
    out = delete_at_random(arr, 0.5, 0)
    assert isinstance(out, pd.DataFrame) and arr[0, 0] == 0.0 and not np.isnan(arr).any()
    assert delete_at_random(X, 0.0, 0).equals(X)
    assert delete_informatively(X, y, 1.0, 2.0, 0).isna().all().all()


def test_seeds_reproduce():
    X, y = _toy()
    for f in (lambda s: delete_at_random(X, 0.2, s),
              lambda s: delete_informatively(X, y, 0.2, 1.5, s)):
        pd.testing.assert_frame_equal(f(3), f(3))
        assert not f(3).isna().equals(f(4).isna())
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    pd.testing.assert_frame_equal(delete_at_random(X, 0.2, g1), delete_at_random(X, 0.2, g2))


def test_bad_arguments_get_clear_errors():
    X, y = _toy()
    for bad in (-0.1, 1.5, np.nan, "0.1", True):
        with pytest.raises(ValueError, match="rate"):
            delete_at_random(X, bad, 0)
        with pytest.raises(ValueError, match="rate"):
            delete_informatively(X, y, bad, 1.0, 0)
    for bad in (np.inf, np.nan, 31.0, "strong", None):
        with pytest.raises(ValueError, match="strength"):
            delete_informatively(X, y, 0.1, bad, 0)
    with pytest.raises(ValueError, match="rows"):
        delete_informatively(X, y[:10], 0.1, 1.0, 0)
    with pytest.raises(ValueError, match="missing labels"):
        delete_informatively(X, y.cat.add_categories("z").where(y != "a"), 0.1, 1.0, 0)
    with pytest.raises(ValueError, match="2-D"):
        delete_at_random(np.zeros(5), 0.1, 0)
    with pytest.raises(ValueError, match="no observed cell"):
        delete_at_random(pd.DataFrame({"a": [np.nan, np.nan]}), 0.1, 0)


def test_on_a_catalogue_data_set_and_exported():
    d = datasets.load("zoo")
    out = delete_informatively(d.X, d.y, 0.1, 2.0, 0)
    assert out.shape == d.X.shape and 0 < out.isna().to_numpy().mean() < 0.2
    assert credal.missing.delete_at_random is delete_at_random
    assert "missing" in credal.__all__
