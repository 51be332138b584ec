"""Tests of credal.comparisons and of the chapter tables built on it in credal.aode.

Pooled scores are checked against the metrics recomputed on the concatenated test
instances of synthetic folds; the tests against published statements use the
transcribed tables in data/published.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from credal import aode, comparisons, metrics
from credal import stats as cstats
from credal.experiments import CVResult

CREDAL = {"BMA-AODE*", "COMP-AODE*", "NCC", "CMA", "CDT"}


def _synthetic(seed=0, n_datasets=6, n_repeats=3, n_splits=2, classifiers=aode.PAPER_CLASSIFIERS,
               sizes=None):
    """Random sets and predictions, summarised per fold exactly as the engine does.

    Returns (CVResult, instances) where ``instances`` holds the per-instance arrays
    (dataset, classifier, repeat, y, sets, pred, proba) for brute-force checks.
    """
    rng = np.random.default_rng(seed)
    rows, inst, classes = [], [], {}
    for d in range(n_datasets):
        name = f"d{d}"
        K = int(rng.integers(2, 5))
        n = int(sizes[d]) if sizes is not None else int(rng.integers(20, 60))
        classes[name] = np.array([f"c{k}" for k in range(K)], dtype=object)
        # per-classifier indeterminacy rate; some data sets fully determinate
        for c in classifiers:
            p_ind = 0.0 if (c in CREDAL and d == 0) else (rng.uniform(0.05, 0.4) if c in CREDAL else 0)
            for r in range(n_repeats):
                perm = rng.permutation(n)
                for f in range(n_splits):
                    te = perm[f::n_splits]
                    m = len(te)
                    y = rng.integers(0, K, m)
                    pred = np.where(rng.random(m) < 0.7, y, rng.integers(0, K, m))
                    sets = np.zeros((m, K), bool)
                    sets[np.arange(m), pred] = True
                    ind = rng.random(m) < p_ind
                    sets[ind] |= rng.random((int(ind.sum()), K)) < 0.5
                    proba = None
                    if c not in CREDAL:
                        proba = rng.dirichlet(np.ones(K), m)
                    summ = metrics.summary(sets, y, precise_pred=pred, proba=proba)
                    rows.append({"dataset": name, "classifier": c, "repeat": r, "fold": f,
                                 "n_train": n - m, "n_test": m, **summ})
                    inst.append({"dataset": name, "classifier": c, "repeat": r, "y": y,
                                 "sets": sets, "pred": pred, "proba": proba})
    folds = pd.DataFrame(rows)
    return CVResult(predictions=pd.DataFrame(), folds=folds, classes=classes), inst


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
    assert isinstance(se2, pd.Series) and set(se2.index) == set(aode.PAPER_CLASSIFIERS)
    one = res.folds[res.folds["repeat"] == 0]
    assert np.isnan(comparisons.repeat_standard_error(one, stat)[1])


def _scores(values):
    """scores table from {classifier: {metric: [per data set values]}}."""
    frames = []
    for c, mets in values.items():
        df = pd.DataFrame(mets)
        df["dataset"] = [f"d{i}" for i in range(len(df))]
        df["classifier"] = c
        frames.append(df)
    return pd.concat(frames).set_index(["dataset", "classifier"]).sort_index()


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


@pytest.mark.parametrize("p, text, expected", [
    (0.004, "<0.01", True), (0.02, "<0.01", False), (0.02, "<0.05", True),
    (0.2, "n.s.", True), (0.01, "n.s.", False), (np.nan, "<0.01", None),
    (0.01, "about 3", None), (0.01, "<x", None)])
def test_meets_published(p, text, expected):
    assert comparisons.meets_published(p, text) is expected


# ------------------------------------------------------------------ the chapter's tables


@pytest.fixture(scope="module")
def chapter_scores(synthetic):
    res, _ = synthetic
    return res, comparisons.dataset_scores(res.folds)


def test_every_paper_comparison_names_one_published_row():
    pub = pd.read_csv(aode.__file__.replace("credal/aode.py", "data/published/"
                                            "corani_headline_numbers.csv"))
    wilcoxon_rows = pub["quantity"].str.startswith("Wilcoxon") | pub["value"].eq("n.s.")
    used = set()
    for c in aode.PAPER_COMPARISONS:
        if c["published"] is not None:
            assert aode._published_value(pub, c["published"]) in ("<0.01", "<0.05", "n.s.")
            used.add(c["published"])
    # every significance statement of the paper is one of the comparisons (the
    # Friedman statements are checked by friedman_tables)
    stated = {(q, c) for q, c in zip(pub.loc[wilcoxon_rows, "quantity"],
                                     pub.loc[wilcoxon_rows, "classifier"])}
    assert stated == used


def test_wilcoxon_table_reads_the_published_statements(chapter_scores):
    _, sc = chapter_scores
    t = aode.wilcoxon_table(sc, nsamples=500).set_index("id")
    assert len(t) == len(aode.PAPER_COMPARISONS) == 16
    assert t.loc["acc_aode_bma", "published_p"] == "<0.01"
    assert t.loc["acc_comp_aode", "published_p"] == "n.s."
    assert t.loc["u65_comp_bma_star", "published_p"] == "<0.05"
    assert t.loc["brier_aode_bma", "published_p"] == "" and \
        t.loc["brier_aode_bma", "meets_published"] is None
    assert t.loc["safe_bma", "claimed_better"] == "BMA-AODE (safe)"
    assert t.loc["acc_comp_aode", "same_direction"] is None
    for k, r in t.iterrows():
        if r["published_p"]:
            assert r["meets_published"] == comparisons.meets_published(r["wilcoxon_p"],
                                                                       r["published_p"])
        if r["same_direction"] is not None:
            sign = 1 if r["higher_is_better"] else -1
            assert r["same_direction"] == (sign * r["mean_difference"] > 0)
    d = aode.display_wilcoxon(t.reset_index())
    assert "p (paper)" in d and d.index.name == "comparison (a vs b)"
    b = aode.display_bayesian(t.reset_index())
    np.testing.assert_allclose(b[["P(a better)", "P(equivalent)", "P(b better)"]].sum(axis=1), 1,
                               atol=2e-3)


def test_headline_statistics_by_hand():
    ds = ["d0", "d1", "d2", "d3"]
    nan = np.nan
    vals = {
        "AODE": {"accuracy": [.8, .7, .9, .6], "brier": [.2, .4, .1, .5]},
        "BMA-AODE": {"accuracy": [.7, .7, .9, .6], "brier": [.22, .44, .11, .55]},
        "COMP-AODE": {"accuracy": [.8, .8, .9, .6], "brier": [.18, .36, .09, .45]},
    }
    for c in ("BMA-AODE*", "COMP-AODE*"):
        vals[c] = {"determinacy": [1.0, .9, .8, .95], "set_accuracy": [nan, 1.0, .8, .9],
                   "indeterminate_size": [nan, 2.0, 3.0, 2.5],
                   "precise_on_determinate": [.8, .75, .95, .62],
                   "precise_on_indeterminate": [nan, .5, 0.0, .25],
                   "u65": [.8, .72, .92, .63], "u80": [.8, .74, .94, .64],
                   "u65_on_indeterminate": [nan, .6, .3, .5],
                   "u80_on_indeterminate": [nan, .7, .4, .6]}
    sc = _scores(vals)
    n = pd.Series([100, 200, 50, 1000], index=ds)
    h = aode.headline_statistics(sc, n, n_classes=[2, 3, 4, 3])
    np.testing.assert_allclose(h["brier_increase_bma"], 10.0)
    np.testing.assert_allclose(h["brier_reduction_comp"], 10.0)
    np.testing.assert_allclose(h["n_classes"], 3.0)
    np.testing.assert_allclose(h["det_bma"], 100 * np.mean([1, .9, .8, .95]))
    assert h["fully_det_bma"] == 1 and h["near_det_bma"] == 1
    np.testing.assert_allclose(h["rho_n_bma"], st.spearmanr([1, .9, .8, .95], n).statistic)
    r = st.pearsonr([1, .9, .8, .95], n)
    np.testing.assert_allclose([h["r_n_bma"], h["r_n_p_bma"]], [r.statistic, r.pvalue])
    np.testing.assert_allclose(h["set_acc_bma"], 90.0)
    np.testing.assert_allclose(h["size_bma"], 2.5)
    np.testing.assert_allclose(h["prior_dep_bma"], 25.0)
    np.testing.assert_allclose(h["share_bma"], 100 - h["det_bma"])
    rel65 = np.array([.8, .72, .92, .63]) / np.array([.7, .7, .9, .6]) - 1
    np.testing.assert_allclose(h["rel_u65_bma"], 100 * rel65.mean())
    rel80 = np.array([.8, .74, .94, .64]) / np.array([.7, .7, .9, .6]) - 1
    np.testing.assert_allclose(h["rel_high_bma"],
                               100 * np.quantile(np.r_[rel65, rel80], 0.9))
    # prior-dependent gains: d2 has precise accuracy 0 there and is left out
    gain = np.r_[np.array([.6, .5]) / [.5, .25], np.array([.7, .6]) / [.5, .25]] - 1
    np.testing.assert_allclose(h["ind_low_bma"], 100 * np.quantile(gain, 0.1))
    np.testing.assert_allclose(h["ind_high_comp"], 100 * np.quantile(gain, 0.9))


def test_headline_table_and_numbers(chapter_scores):
    res, sc = chapter_scores
    h = aode.headline_table(res)
    assert h.loc["det_bma", "published"] == "94" and h.loc["fully_det_comp", "published"] == "18"
    assert h.loc["r_n_comp", "published"] == "" and h.loc["r_n_bma", "published"] == "0.3"
    assert np.isnan(h.loc["fully_det_bma", "se"]) and np.isfinite(h.loc["det_bma", "se"])
    sizes = aode.dataset_sizes(res)
    assert sizes.loc["d0", "classes"] == len(res.classes["d0"])
    stats_all = aode.headline_statistics(sc, sizes["n"], sizes["classes"])
    np.testing.assert_allclose(h["ours"].to_numpy(float), stats_all[h.index].to_numpy(float))
    d = aode.display_headline(h)
    assert d.loc[("average determinacy", "BMA-AODE*"), "paper"] == "94"
    w = aode.wilcoxon_table(sc, nsamples=200)
    ranks, pairs = aode.friedman_tables(sc)
    num = aode.chapter_numbers(h, w, ranks, pairs)
    assert num["pub_det_comp"] == "99" and num["h_fully_det_bma"].isdigit()
    assert num["pub_acc_aode_bma"] == "<0.01" and num["pub_brier_aode_bma"] == "—"
    assert int(num["claims_total"]) == 15 and 0 <= int(num["claims_held"]) <= 15
    assert num["best_u65"] in aode.FRIEDMAN_CLASSIFIERS
    assert "sig90_u80" in num and all(isinstance(v, str) for v in num.values())


def test_friedman_tables_published_statements(chapter_scores):
    _, sc = chapter_scores
    ranks, pairs = aode.friedman_tables(sc)
    assert list(ranks.index) == ["u65", "u80"]
    assert (ranks["best_published"] == "COMP-AODE*").all()
    assert (pairs["published_95%"] == "no").all()
    pub90 = {(u, frozenset({b, w})): v for u, b, w, v in
             zip(pairs["scores"], pairs["better"], pairs["worse"], pairs["published_90%"])}
    assert pub90[("u65", frozenset({"COMP-AODE*", "CMA"}))] == "COMP-AODE*"
    assert pub90[("u80", frozenset({"COMP-AODE*", "CDT"}))] == "COMP-AODE*"
    assert pub90[("u65", frozenset({"CDT", "CMA"}))] == "no"
    r, p = aode.display_friedman(ranks, pairs)
    assert "CD 95%" in r.columns and "paper: significant at 90%" in p.columns


def test_per_dataset_tables_and_settings(chapter_scores):
    res, _ = chapter_scores
    sc = comparisons.dataset_scores(res.folds, se=True)
    sizes = aode.dataset_sizes(res)
    t = aode.per_dataset_table(sc, sizes, "determinate")
    assert list(t.columns[:4]) == ["n", "classes", "accuracy AODE", "accuracy AODE s.e."]
    assert t["n"].is_monotonic_increasing and len(t) == 6
    u = aode.per_dataset_table(sc, sizes, "utilities")
    assert "u80 CDT" in u and "u65 NCC s.e." in u
    with pytest.raises(ValueError, match="part"):
        aode.per_dataset_table(sc, sizes, "nope")
    s = aode.settings_table(39, 10, 5, 0.01, 1e4, 1.0)
    assert s.loc["data sets", "paper"] == "40" and s.loc["epsilon", "ours"] == "0.01"
    assert s.loc["BMA keeps SPODEs with L >= L_max x", "ours"] == "0.0001"


def test_report_headline_rows(chapter_scores):
    from credal import report

    res, sc = chapter_scores
    h = aode.headline_table(res)
    w = aode.wilcoxon_table(sc, nsamples=200)
    ranks, pairs = aode.friedman_tables(sc)
    rep = aode.report_headline(h, w, ranks, pairs)
    assert list(rep.columns) == report.HEADLINE_COLUMNS + ["verdict"]
    assert (rep["chapter"] == "credal-aode").all() and (rep["paper"] == aode.PAPER).all()
    det = rep[rep["quantity"] == "average determinacy (BMA-AODE*)"].iloc[0]
    se = h.loc["det_bma", "se"]
    assert det["published"] == 94.0 and det["ours"] == h.loc["det_bma", "ours"]
    np.testing.assert_allclose(det["tolerance"], 0.5 + 1.96 * np.sqrt(2) * se)
    size = rep[rep["quantity"] == "average indeterminate output size (BMA-AODE*)"].iloc[0]
    np.testing.assert_allclose(size["tolerance"],
                               0.05 + 1.96 * np.sqrt(2) * h.loc["size_bma", "se"])
    count = rep[rep["quantity"] == "data sets with determinacy 100% (COMP-AODE*)"].iloc[0]
    assert count["tolerance"] == 0 and count["published"] == 18
    # one row per printed significance statement, coded 1 / 0
    sig = rep[rep["quantity"].str.startswith("significant:")]
    assert len(sig) == 15 and set(sig["published"]) == {0.0, 1.0}
    ns = sig[sig["quantity"].str.contains("COMP-AODE vs AODE \\(paper: n.s.")].iloc[0]
    p_acc = w.set_index("id").loc["acc_comp_aode", "wilcoxon_p"]
    assert ns["published"] == 0 and ns["ours"] == float(p_acc < 0.05)
    fr = rep[rep["quantity"].str.contains("at 90%")]
    assert len(fr) == 2 and (fr["published"] == 1).all()
    assert rep["verdict"].isin(["reproduced", "differs", "not comparable"]).all()


def test_reference_check_examples_and_gap():
    res, _ = _synthetic(seed=4, n_datasets=7, classifiers=aode.PAPER_CLASSIFIERS
                        + ("AODE (Laplace)",))
    sc = comparisons.dataset_scores(res.folds)
    chk = aode.reference_check(sc)
    assert list(chk.index) == ["AODE", "AODE (Laplace)"]
    b = comparisons.score_matrix(sc, "brier")
    np.testing.assert_allclose(chk.loc["AODE (Laplace)", "Brier COMP-AODE / reference"],
                               (b["COMP-AODE"] / b["AODE (Laplace)"]).mean())
    np.testing.assert_allclose(chk.loc["AODE", "p Brier COMP-AODE"],
                               st.wilcoxon(b["COMP-AODE"], b["AODE"]).pvalue)
    num = aode.check_numbers(chk)
    assert num["check_ratio"] == f"{chk.iloc[1, 2]:.3f}"
    assert aode.check_numbers(pd.DataFrame())["check_p_u65"] == "n/a"
    # the synthetic credal classifiers draw their own predictions: a gap exists
    assert aode.counterpart_gap(sc) > 0
    w = aode.wilcoxon_table(sc, nsamples=200)
    ex = aode.chapter_examples(sc, w)
    ratio = (b["BMA-AODE"] / b["AODE"]).sort_values(ascending=False)
    assert ex["brier_worst_bma"].split(", ")[0] == ratio.index[0]
    n_ind = sc["n_indeterminate"].xs("COMP-AODE*", level="classifier")
    assert ex["median_ind_comp"] == f"{n_ind[n_ind > 0].median():.0f}"
    failed = w[[m is not None and (not m or s is False)
                for m, s in zip(w["meets_published"], w["same_direction"])]]
    assert ex["claims_failed"] == ("; ".join(failed["label"]) or "none")
    assert set(ex) >= {"bayes_equivalent", "bayes_decisive", "setacc_low_comp",
                       "brier_best_comp", "brier_worst_comp", "median_ind_bma"}
