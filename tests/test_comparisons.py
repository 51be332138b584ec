"""Tests of credal.comparisons (the chapter tables built on it are tested in
tests/chapters/test_chapter_credal_aode.py).

Pooled scores are checked against the metrics recomputed on the concatenated test
instances of synthetic folds; the paired and Friedman comparisons against scipy and
credal.stats on the same data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scipy import stats as st

from credal import comparisons, metrics
from credal import stats as cstats

from conftest import SYNTHETIC_CLASSIFIERS as CLASSIFIERS
from conftest import scores_table as _scores
from conftest import synthetic_cv as _synthetic


def _pooled(inst, dataset, classifier):
    sel = [i for i in inst if i["dataset"] == dataset and i["classifier"] == classifier]
    y = np.concatenate([i["y"] for i in sel])
    s = np.concatenate([i["sets"] for i in sel])
    p = np.concatenate([i["pred"] for i in sel])
    return y, s, p, sel


@pytest.fixture(scope="module")
def synthetic():
    return _synthetic()


def test_dataset_scores_equal_metrics_on_pooled_instances(synthetic):
    res, inst = synthetic
    sc = comparisons.dataset_scores(res.folds)
    for d in ("d0", "d3"):
        for c in ("BMA-AODE*", "AODE", "CDT"):
            y, s, p, sel = _pooled(inst, d, c)
            row = sc.loc[(d, c)]
            size = s.sum(1)
            det, ind = size == 1, size > 1
            x = s[np.arange(len(y)), y] / size
            u65 = metrics.utility_function(0.65)(x)
            u80 = metrics.utility_function(0.8)(x)
            assert row["n_test"] == len(y) and row["n_indeterminate"] == ind.sum()
            assert row["n_folds"] == len(sel)
            np.testing.assert_allclose(row["accuracy"], np.mean(p == y))
            np.testing.assert_allclose(row["determinacy"], det.mean())
            np.testing.assert_allclose(row["u65"], u65.mean())
            np.testing.assert_allclose(row["u80"], u80.mean())
            np.testing.assert_allclose(row["single_accuracy"], s[det, y[det]].mean())
            np.testing.assert_allclose(row["precise_on_determinate"], np.mean(p[det] == y[det]))
            if ind.any():
                np.testing.assert_allclose(row["set_accuracy"], s[ind, y[ind]].mean())
                np.testing.assert_allclose(row["indeterminate_size"], size[ind].mean())
                np.testing.assert_allclose(row["precise_on_indeterminate"],
                                           np.mean(p[ind] == y[ind]))
                np.testing.assert_allclose(row["u65_on_indeterminate"], u65[ind].mean())
                np.testing.assert_allclose(row["u80_on_indeterminate"], u80[ind].mean())
            else:
                assert np.isnan(row["set_accuracy"]) and np.isnan(row["u65_on_indeterminate"])
            if c == "AODE":
                pr = np.concatenate([i["proba"] for i in sel])
                np.testing.assert_allclose(row["brier"], metrics.brier_loss(pr, y))
            else:
                assert np.isnan(row["brier"])


def test_dataset_scores_standard_errors(synthetic):
    res, _ = synthetic
    sc = comparisons.dataset_scores(res.folds, se=True)
    per = comparisons.dataset_scores(res.folds, by=("dataset", "classifier", "repeat"))
    acc = per["accuracy"].xs(("d2", "AODE"), level=("dataset", "classifier"))
    np.testing.assert_allclose(sc.loc[("d2", "AODE"), "accuracy_se"],
                               acc.std(ddof=1) / np.sqrt(len(acc)))
    assert list(sc.columns[:2]) == ["accuracy", "accuracy_se"]
    # no indeterminate instance anywhere: the standard error is undefined
    assert np.isnan(sc.loc[("d0", "CDT"), "set_accuracy_se"])
    with pytest.raises(ValueError, match="repeat"):
        comparisons.dataset_scores(res.folds.drop(columns="repeat"), se=True)


def test_dataset_scores_rejects_bad_input():
    with pytest.raises(TypeError):
        comparisons.dataset_scores([1, 2])
    with pytest.raises(ValueError, match="lacks"):
        comparisons.dataset_scores(pd.DataFrame({"dataset": ["a"]}))


def test_score_matrix(synthetic):
    res, _ = synthetic
    sc = comparisons.dataset_scores(res.folds)
    m = comparisons.score_matrix(sc, "u65", ["CDT", "AODE"])
    assert list(m.columns) == ["CDT", "AODE"] and len(m) == 6
    assert m.loc["d1", "CDT"] == sc.loc[("d1", "CDT"), "u65"]
    with pytest.raises(KeyError, match="metric"):
        comparisons.score_matrix(sc, "nope")
    with pytest.raises(KeyError, match="classifier"):
        comparisons.score_matrix(sc, "u65", ["nope"])


def test_repeat_standard_error(synthetic):
    res, _ = synthetic

    def stat(sc):
        return float(sc["u65"].xs("CMA", level="classifier").mean())

    value, se = comparisons.repeat_standard_error(res.folds, stat)
    reps = [stat(comparisons.dataset_scores(res.folds[res.folds["repeat"] == r]))
            for r in range(3)]
    assert value == stat(comparisons.dataset_scores(res.folds))
    np.testing.assert_allclose(se, np.std(reps, ddof=1) / np.sqrt(3))
    v2, se2 = comparisons.repeat_standard_error(
        res.folds, lambda sc: sc["u65"].groupby("classifier").mean())
    assert isinstance(se2, pd.Series) and set(se2.index) == set(CLASSIFIERS)
    one = res.folds[res.folds["repeat"] == 0]
    assert np.isnan(comparisons.repeat_standard_error(one, stat)[1])


def test_paired_comparisons_against_direct_tests():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 0.9, 12)
    b = a - rng.normal(0.02, 0.02, 12)
    ind = np.where(np.arange(12) < 3, np.nan, b - 0.2)
    sc = _scores({"A": {"accuracy": a, "brier": 1 - a, "on_ind": ind},
                  "B": {"accuracy": b, "brier": 1 - b, "on_ind": ind}})
    comps = [dict(id="acc", a="A", b="B", metric="accuracy"),
             dict(id="loss", a="A", b="B", metric="brier", higher_is_better=False),
             dict(id="sub", a="A", metric_a="accuracy", b="A", metric_b="on_ind",
                  label="A on two subsets")]
    t = comparisons.paired_comparisons(sc, comps, rope=0.01, nsamples=2000)
    acc, loss, sub = (t.set_index("id").loc[k] for k in ("acc", "loss", "sub"))
    np.testing.assert_allclose(acc["wilcoxon_p"], st.wilcoxon(a, b).pvalue)
    np.testing.assert_allclose(acc["mean_difference"], np.mean(a - b))
    assert acc["a_better"] == np.sum(a > b) and acc["b_better"] == np.sum(a < b)
    # a loss: A better where its loss is lower, which is where its accuracy is higher
    assert loss["a_better"] == acc["a_better"]
    np.testing.assert_allclose(loss["wilcoxon_p"], acc["wilcoxon_p"])
    np.testing.assert_allclose(loss["p_a_better"], acc["p_a_better"])
    # the posterior sample depends on the order of the data sets (sorted by name)
    order = np.argsort([f"d{i}" for i in range(12)])
    ref = cstats.bayesian_signed_rank(a[order], b[order], rope=0.01, nsamples=2000,
                                      random_state=0)
    np.testing.assert_allclose(acc[["p_a_better", "p_rope", "p_b_better"]].to_numpy(float),
                               ref.as_tuple())
    assert sub["n_datasets"] == 9 and sub["label"] == "A on two subsets"
    np.testing.assert_allclose(sub["wilcoxon_p"], st.wilcoxon(a[3:], ind[3:]).pvalue)
    assert 0 < acc["bayes_mc_se"] <= 0.5 / np.sqrt(2000)


def test_paired_comparisons_errors_and_empty():
    sc = _scores({"A": {"x": [1.0, np.nan]}, "B": {"x": [np.nan, 2.0]}})
    t = comparisons.paired_comparisons(sc, [dict(a="A", b="B", metric="x")], nsamples=10)
    assert t.loc[0, "n_datasets"] == 0 and np.isnan(t.loc[0, "wilcoxon_p"])
    with pytest.raises(ValueError, match="'a' and 'b'"):
        comparisons.paired_comparisons(sc, [dict(a="A", metric="x")])
    with pytest.raises(ValueError, match="metric"):
        comparisons.paired_comparisons(sc, [dict(a="A", b="B")])
    with pytest.raises(KeyError, match="classifier"):
        comparisons.paired_comparisons(sc, [dict(a="A", b="Z", metric="x")])
    with pytest.raises(ValueError, match="nsamples"):
        comparisons.paired_comparisons(sc, [], nsamples=0)


def test_friedman_comparison_and_significant_pairs():
    rng = np.random.default_rng(1)
    base = rng.uniform(0.6, 0.8, 30)
    m = pd.DataFrame({"X": base + 0.05, "Y": base + rng.normal(0, 0.03, 30), "Z": base - 0.05})
    ranks, pairs = comparisons.friedman_comparison({"u65": m, "u80": m.iloc[:20]},
                                                   alphas=(0.05, 0.10))
    ref = cstats.friedman(m)
    np.testing.assert_allclose(ranks.loc["u65", ["X", "Y", "Z"]].to_numpy(float),
                               ref.avg_ranks.to_numpy())
    np.testing.assert_allclose(ranks.loc["u65", "friedman_p"], ref.pvalue)
    np.testing.assert_allclose(ranks.loc["u65", "cd_95%"], cstats.nemenyi_cd(3, 30, 0.05))
    np.testing.assert_allclose(ranks.loc["u80", "cd_90%"], cstats.nemenyi_cd(3, 20, 0.10))
    assert ranks.loc["u80", "n_datasets"] == 20
    p = pairs[pairs["scores"] == "u65"].set_index(["better", "worse"])
    assert ("X", "Z") in p.index and bool(p.loc[("X", "Z"), "significant_95%"])
    for (b, w), r in p.iterrows():
        diff = ref.avg_ranks[w] - ref.avg_ranks[b]
        np.testing.assert_allclose(r["rank_difference"], diff)
        assert r["significant_90%"] == (diff > cstats.nemenyi_cd(3, 30, 0.10))
    sig = comparisons.significant_pairs(ref.avg_ranks, cstats.nemenyi_cd(3, 30, 0.05))
    assert sig[0][:2] == ("X", "Z")
    assert comparisons.significant_pairs(pd.Series({"a": 1.0, "b": 1.5}), 0.6) == []
    with pytest.raises(ValueError):
        comparisons.friedman_comparison({"u": m}, alphas=())
