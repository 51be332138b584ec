"""The leaderboard chapter's code (credal.chapters.leaderboard).

* the registry: counterparts, scopes, estimators; each credal classifier's ``predict``
  is its registered counterpart's choice (checked against the fitted counterpart);
* the protocol runner (``run``): counterpart accuracies read across classifiers, precise
  rows, RBC only on incomplete data, determinism;
* ``tables`` built from the fold table, ``numbers`` of the text, the figures.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

import credal
from credal.chapters import leaderboard as lb
from credal.experiments import cross_validate

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["labor", "haberman", "postoperative"]


# --------------------------------------------------------------------------- registry

def test_registry_is_consistent():
    reg = {e.name: e for e in lb.REGISTRY}
    credal_names = [e.name for e in lb.REGISTRY if e.kind == "credal"]
    assert credal_names == ["NCC", "NCC-ε", "LNCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT",
                            "CDT-double", "RBC"]
    for e in lb.REGISTRY:
        assert e.kind in ("credal", "precise") and e.scope in ("all", "incomplete")
        assert e.missing and e.reference
        if e.kind == "credal":
            cp = reg[e.counterpart]
            assert cp.kind == "precise"
            # the counterpart's row is read from the classifier the entry names (NCC-ε's
            # own predict is the same naive Bayes as NCC's: see the next tests)
            assert cp.source == (e.source or e.name) or e.name == "NCC-ε"
        else:
            assert reg[e.source].kind == "credal"
    est = lb.classifiers()
    assert list(est) == credal_names
    assert [type(v).__name__ for v in est.values()] == [
        "NCC", "NCC", "LNCC", "CMA", "CredalBMAAODE", "CredalCompAODE", "CredalDecisionTree",
        "CredalDecisionTree", "RobustBayes"]
    # plain library classes: the engine's cache keys do not depend on the chapter module
    assert all(not type(v).__module__.startswith("credal.chapters") for v in est.values())
    assert est["CDT-double"].branching == "double" and est["NCC-ε"].epsilon == 0.05
    tab = lb._registry_table()
    assert list(tab.index) == [e.name for e in lb.REGISTRY]
    assert tab.loc["LNCC", "counterpart labels"] == "NCC's predict"
    assert "epsilon=0.05" in tab.loc["NCC-ε", "estimator"]
    with pytest.raises(ValueError, match="unknown classifier parameters"):
        lb.classifiers(params={"bogus": 1})


def test_entries_pull_in_counterparts_and_sources():
    names = [e.name for e in lb._entries(["LNCC"])]
    assert names == ["NCC", "LNCC", "NBC"]
    assert [e.name for e in lb._entries(["BMA-AODE"])] == ["BMA-AODE*", "BMA-AODE"]
    assert [e.name for e in lb._entries(["RBC"], kind="credal")] == ["NCC", "RBC"]
    # the line-up: the credal classifiers the names need
    assert list(lb.classifiers(["RBC"])) == ["NCC", "RBC"]
    assert list(lb.classifiers(["NBC"])) == ["NCC"]
    with pytest.raises(KeyError):
        lb._entries(["AODE+"])
    with pytest.raises(KeyError):
        lb.classifiers(["AODE+"])


def test_aode_epsilon_cap():
    assert lb._aode_epsilon(0.01, 30) == 0.01
    assert lb._aode_epsilon(0.01, 279) == pytest.approx(0.9 / 280)
    est = lb.classifiers(["BMA-AODE*", "COMP-AODE*"], n_features=279)
    assert est["BMA-AODE*"].epsilon < 1 / 280 and est["COMP-AODE*"].epsilon < 1 / 280


def _fold(name, seed=0):
    """The first of 5 folds, preprocessed as in the engine (MDL on the training part)."""
    from credal.experiments import default_preprocessing, fold_splits

    ds = credal.datasets.load(name)
    keep = ~ds.y.isna().to_numpy()
    X, y = ds.X.loc[keep].reset_index(drop=True), ds.y.loc[keep].reset_index(drop=True)
    _, _, tr, te = fold_splits(y, n_splits=5, n_repeats=1, random_state=seed)[0]
    prep = default_preprocessing().fit(X.iloc[tr], y.iloc[tr])
    return prep.transform(X.iloc[tr]), y.iloc[tr], prep.transform(X.iloc[te]), y.iloc[te]


@pytest.mark.parametrize("name", ["labor", "postoperative"])
def test_predict_is_the_registered_counterpart(name):
    """NCC, NCC-ε -> NBC; CMA -> BMA-NB; the AODE* -> their precise ensembles; CDT ->
    its frequency leaves; RBC's counterpart NBC equals NBC_m of Ramoni & Sebastiani."""
    Xtr, ytr, Xte, _ = _fold(name)
    p = lb.DEFAULT_PARAMS
    est = lb.classifiers(["NCC", "NCC-ε", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT",
                          "CDT-double"], n_features=Xtr.shape[1])
    nbc = credal.NaiveBayes(prior="perks", s=p["ncc_s"]).fit(Xtr, ytr).predict(Xte)
    pairs = {
        "NCC": nbc, "NCC-ε": nbc,
        "CMA": credal.ModelAveragedNaiveBayes(prior="bdeu", alpha=p["cma_alpha"],
                                              arc_prior=0.5).fit(Xtr, ytr).predict(Xte),
        "BMA-AODE*": credal.BMAAODE(s=p["aode_s"], prune_factor=p["aode_prune_factor"])
        .fit(Xtr, ytr).predict(Xte),
        "COMP-AODE*": credal.CompAODE(s=p["aode_s"], epsilon=p["aode_epsilon"])
        .fit(Xtr, ytr).predict(Xte),
        "CDT": credal.CredalDecisionTree(leaf="frequency").fit(Xtr, ytr).predict(Xte),
        "CDT-double": credal.CredalDecisionTree(branching="double", leaf="frequency")
        .fit(Xtr, ytr).predict(Xte),
    }
    for n, want in pairs.items():
        got = est[n].fit(Xtr, ytr).predict(Xte)
        np.testing.assert_array_equal(np.asarray(got).astype(str),
                                      np.asarray(want).astype(str), err_msg=n)
    nbm = credal.NaiveBayesMissing(strategy="ignore", alpha=p["rbc_alpha"],
                                   prior="perks").fit(Xtr, ytr)
    np.testing.assert_allclose(nbm.predict_proba(Xte),
                               credal.NaiveBayes(s=p["rbc_alpha"]).fit(Xtr, ytr)
                               .predict_proba(Xte), rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------------------- protocol

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    cache = tmp_path_factory.mktemp("lbcache")
    res = lb.run(SMALL, n_splits=3, n_repeats=2, random_state=1, n_jobs=1, cache_dir=cache)
    return res, cache


@pytest.fixture(scope="module")
def small_tables(small_run):
    return lb.tables(small_run[0], n_top=3, nsamples=500)


def test_run_fold_table(small_run):
    res, _ = small_run
    f = res.folds
    info = res.info
    assert list(info.index) == SMALL
    assert bool(info.loc["labor", "incomplete"]) and not bool(info.loc["haberman", "incomplete"])
    # RBC and RBC_u only where values are missing
    for clf in ("RBC", "RBC_u"):
        have = set(f.loc[f["classifier"] == clf, "dataset"])
        assert have == set(info.index[info["incomplete"]])
    # every other classifier everywhere, on 3 x 2 folds
    counts = f.groupby(["dataset", "classifier"]).size()
    assert (counts == 6).all()
    # precise rows: singletons, utilities equal the accuracy
    pre = f[~f["credal"].astype(bool)]
    assert set(pre["classifier"]) == {"NBC", "BMA-NB", "BMA-AODE", "COMP-AODE", "CDT-freq",
                                      "CDT-double-freq", "RBC_u"}
    assert (pre["determinacy"] == 1).all()
    np.testing.assert_allclose(pre["u65"], pre["precise_accuracy"])
    np.testing.assert_allclose(pre["u80"], pre["precise_accuracy"])
    # NBC's row is NCC's own predict; LNCC's and RBC's counterpart accuracy is NBC's
    key = ["dataset", "repeat", "fold"]
    nbc = f[f["classifier"] == "NBC"].set_index(key)["precise_accuracy"]
    for clf in ("NCC", "NCC-ε", "LNCC", "RBC"):
        sub = f[f["classifier"] == clf].set_index(key)["precise_accuracy"]
        np.testing.assert_allclose(sub, nbc.reindex(sub.index), err_msg=clf)


def test_counterpart_on_indeterminate_matches_predictions(small_run):
    """LNCC's counterpart accuracy on its indeterminate instances, recomputed here
    from the engine's per-instance table."""
    res, cache = small_run
    est = lb.classifiers(["LNCC"])
    cv = cross_validate(est, "postoperative", n_splits=3, n_repeats=2, random_state=1,
                        cache_dir=cache, progress=False)
    p = cv.predictions
    a = p[p["classifier"] == "LNCC"].set_index(["repeat", "fold", "row"])
    b = p[p["classifier"] == "NCC"].set_index(["repeat", "fold", "row"])
    ok = (b["y_pred"].astype(str) == a["y_true"].astype(str)).reindex(a.index)
    ind = a["set_size"] > 1
    want = ok[ind].groupby(level=["repeat", "fold"]).mean()
    f = res.folds
    got = f[(f["classifier"] == "LNCC") & (f["dataset"] == "postoperative")] \
        .set_index(["repeat", "fold"])["precise_on_indeterminate"]
    np.testing.assert_allclose(got.reindex(want.index), want)
    # own predict kept apart
    assert "own_accuracy" in f and f["own_accuracy"].notna().all()


def test_run_is_deterministic_and_cached(small_run):
    res, cache = small_run
    again = lb.run(SMALL, n_splits=3, n_repeats=2, random_state=1, n_jobs=1, cache_dir=cache)
    drop = ["fit_time", "predict_time", "prep_time"]
    pd.testing.assert_frame_equal(res.folds.drop(columns=drop), again.folds.drop(columns=drop))
    only = lb.run(["haberman"], classifiers=["NCC"], n_splits=3, n_repeats=1)
    assert set(only.folds["classifier"]) == {"NCC", "NBC"}


def test_summary_tables(small_run, small_tables):
    res, _ = small_run
    t = small_tables
    sc = t["dataset_scores"]
    assert "u80_se" in sc
    tab = t["leaderboard"]
    assert tab.loc["RBC", "data sets"] == int(res.info["incomplete"].sum())
    assert tab.loc["NCC", "data sets"] == len(SMALL)
    assert ((tab["determinacy"] > 0) & (tab["determinacy"] <= 100)).all()
    assert (tab.loc[tab["kind"] == "precise", "determinacy"] == 100).all()
    assert (tab["u80"] >= tab["u65"] - 1e-9).all()
    assert tab["u80 s.e."].notna().all()          # two repeats: Monte-Carlo errors
    ranks = t["friedman_ranks"]
    assert "RBC" not in ranks.columns and "NCC" in ranks.columns
    assert set(ranks.index) == {"u65", "u80"}
    k = len([c for c in ranks.columns if c in tab.index])
    row = ranks.loc["u65", [c for c in ranks.columns if c in tab.index]]
    assert row.sum() == pytest.approx(k * (k + 1) / 2)
    avg = t["average_ranks"]
    assert list(avg.columns) == ["u65", "u80"] and list(avg.index) == list(row.index)
    np.testing.assert_allclose(avg["u65"], row.astype(float))
    top = t["bayesian_top_pairs"]
    assert len(top) == 6
    assert np.allclose(top[["p_a_better", "p_rope", "p_b_better"]].sum(axis=1), 1)
    # the pairs are the three best-ranked under each utility
    best = set(avg["u80"].sort_values(kind="stable").index[:3])
    assert set(top.loc[top["label"] == "u80", ["a", "b"]].to_numpy().ravel()) == best
    wins = t["wins_u80"]
    clf = [c for c in wins.columns if c != "data sets"]
    assert wins.loc[("all", "all data sets"), clf].sum() == pytest.approx(len(SMALL))
    for factor in ("size", "classes", "missing"):
        assert wins.loc[factor, "data sets"].sum() == len(SMALL)
    inc = t["incomplete"]
    assert set(inc.index) == set(res.info.index[res.info["incomplete"]])
    assert "RBC" in t["friedman_ranks_incomplete"].columns
    assert "RBC" in t["average_ranks_incomplete"].index
    assert list(t["registry"].index) == [e.name for e in lb.REGISTRY]
    assert t["settings"].loc["n_repeats", "value"] == 2


def test_classes_that_never_occur_are_removed():
    # datasets.load already drops anneal's declared class that no row has; the
    # leaderboard's own check then finds nothing more to remove
    ds = credal.datasets.load("anneal")
    assert len(ds.y.cat.categories) == 5 == ds.y.nunique() and list(ds.dropped_classes) == ["4"]
    name, X, y = lb._observed_classes(ds)
    assert name == "anneal" and X is ds.X and list(y.cat.categories) == list(ds.y.cat.categories)
    info = lb._dataset_info([ds, "iris"])
    assert info.loc["anneal", "unused_classes"] == 0 and info.loc["iris", "unused_classes"] == 0


def test_anomaly_check():
    idx = pd.MultiIndex.from_product([["a", "b"], ["NCC", "NBC", "LNCC"]],
                                     names=["dataset", "classifier"])
    sc = pd.DataFrame({"single_accuracy": [0.9, 0.8, 0.9, 0.3, 0.8, 0.2],
                       "determinacy": [0.9, 1.0, 0.9, 0.5, 1.0, 0.9],
                       "accuracy": [0.85, 0.8, 0.8, 0.7, 0.8, 0.7]}, index=idx)
    info = pd.DataFrame({"min_class_count": [10, 1]}, index=["a", "b"])
    listed, cause = lb._anomaly_text(sc, info, n_splits=5)
    assert listed == "NCC on b (30 % against 80 %); LNCC on b (20 % against 80 %)"
    assert cause.startswith("The LNCC cases are LNCC") and "Not explained: NCC on b" in cause
    # a common class everywhere: nothing is explained away (NCC on b fine: LNCC alone)
    fine = sc.assign(single_accuracy=sc["single_accuracy"].where(sc.index != ("b", "NCC"), 0.9))
    listed, cause = lb._anomaly_text(fine, info.assign(min_class_count=10), n_splits=5)
    assert listed == "LNCC on b (20 % against 80 %)" and cause.startswith("Not explained: LNCC on b")
    # determinacy below 5 %: not an anomaly
    assert lb._anomaly_text(fine.assign(determinacy=0.01), info, 5) == (
        "none", "Every credal classifier passes this check.")


def test_lncc_returns_a_class_unseen_in_training_alone():
    """The mechanism behind the leaderboard's LNCC anomalies: with the instance in the
    likelihood, a declared class without training rows explains the instance perfectly
    and LNCC returns it alone, while NCC keeps it beside the observed classes."""
    rng = np.random.default_rng(0)
    n, m = 60, 12
    X = rng.integers(0, 3, size=(n, m))
    y = pd.Categorical(rng.choice(["a", "b"], size=n), categories=["a", "b", "new"])
    Xt = rng.integers(0, 3, size=(25, m))
    lncc = credal.LNCC(alpha=0.75).fit(X, y)
    sets = lncc.predict_set(Xt)
    assert list(lncc.classes_) == ["a", "b", "new"]
    assert (sets.sum(axis=1) == 1).all() and sets[:, 2].all()
    ncc_sets = credal.NCC().fit(X, y).predict_set(Xt)
    assert ncc_sets[:, 2].all() and (ncc_sets.sum(axis=1) > 1).all()


def test_bins():
    info = pd.DataFrame({"n": [50, 200, 201, 6000], "classes": [2, 3, 6, 5],
                         "pct_missing": [0.0, 0.5, 5.0, 7.0]}, index=list("abcd"))
    b = lb._bin_datasets(info)
    assert list(b["size"]) == ["n ≤ 200", "n ≤ 200", "200 < n ≤ 1000", "n > 5000"]
    assert list(b["classes"]) == ["2 classes", "3–5 classes", "6+ classes", "3–5 classes"]
    assert list(b["missing"]) == ["no missing", "0–5 % missing", "0–5 % missing",
                                  "> 5 % missing"]


def test_published_comparison_reads_the_papers(small_run, small_tables):
    res, _ = small_run
    sc = small_tables["dataset_scores"]
    # haberman is in Antonucci et al.'s Table 2, labor among their (reconstructed) nine;
    # all three are Corani & Antonucci data sets
    pub = small_tables["published_vs_ours"]
    assert set(pub["source"]) >= {"Antonucci et al. Sec. 5.2", "Corani & Antonucci Sec. 3.2"}
    row = pub[(pub["source"] == "Corani & Antonucci Sec. 3.2")
              & (pub["classifier"] == "BMA-AODE*") & (pub["quantity"] == "mean determinacy")]
    assert row["published"].iloc[0] == 94
    want = 100 * sc["determinacy"].xs("BMA-AODE*", level="classifier") \
        .reindex(SMALL).mean()
    assert row["ours"].iloc[0] == pytest.approx(want)
    np.testing.assert_allclose(pub["difference"], pub["ours"] - pub["published"])
    # a parameter that differs from the paper's drops the rows that depend on it
    other = lb._published_comparison(sc, res.folds, {"ncc_epsilon": 0.15})
    assert not ((other["classifier"] == "NCC-ε")
                & other["source"].str.startswith("Antonucci")).any()
    summ = small_tables["published_vs_ours_summary"]
    close = lb._close(pub)
    ok = pub["ours"].notna()
    assert int(close[ok].sum()) == int(summ["within 2 s.e. + 1"].sum())
    assert summ["rows"].sum() == len(pub.dropna(subset=["ours"]))


def test_numbers_cover_the_text(small_tables):
    nums = lb.numbers(small_tables)
    assert nums["inc_rbc_pos_u80"] != "n/a" and nums["best_u80"] != "n/a"
    assert nums["n_repeats"] == "2" and nums["n_folds"] == "3" and nums["rope_points"] == "1"
    text = (ROOT / "notebooks" / "leaderboard.md").read_text()
    import re

    used = set(re.findall(r"\{glue:text\}`([^`]+)`", text))
    assert not used - set(nums), used - set(nums)
    assert all(isinstance(v, str) for v in nums.values())


# ---------------------------------------------------------------------------- figures

def test_figures(small_run, small_tables):
    import matplotlib.pyplot as plt

    res, _ = small_run
    t = small_tables
    sc = t["dataset_scores"]
    figs = [lb.leaderboard_heatmap(sc, res.info),
            lb.leaderboard_determinacy(sc, res.info),
            lb.leaderboard_cd_diagrams(t["friedman_ranks"]),
            lb.leaderboard_wins(t["ranks_by_bin_u80"], t["wins_u80"]),
            lb.leaderboard_bayes_pairs(t["bayesian_top_pairs"]),
            lb.published_scatter(t["published_vs_ours"])]
    # a long heatmap is split into panels of at most max_rows data sets
    split = lb.leaderboard_heatmap(sc, res.info, max_rows=2)
    panels = [ax for ax in split.axes if ax.get_images()]
    assert len(panels) == int(np.ceil(len(res.info) / 2))
    assert sum(len(ax.get_yticks()) for ax in panels) == len(res.info)
    plt.close(split)
    # or drawn a third at a time, each its own figure (issue 28: figures fit the screen)
    thirds = [lb.leaderboard_heatmap(sc, res.info, part=(k, 3)) for k in range(3)]
    rows = [len(f.axes[0].get_yticks()) for f in thirds]
    assert sum(rows) == len(res.info) and max(rows) - min(rows) <= 1
    assert all(len([ax for ax in f.axes if ax.get_images()]) == 1 for f in thirds)
    for f in thirds:
        plt.close(f)
    for fig in figs:
        assert isinstance(fig, matplotlib.figure.Figure)
        shown = [ax for ax in fig.axes if ax.get_visible()]
        # CD diagrams draw their own rank axis (axes off) and say so in the titles
        assert any(ax.get_xlabel() for ax in shown) or all(ax.get_title() for ax in shown)
        assert any(ax.get_ylabel() for ax in shown) or all(ax.get_title() for ax in shown)
        plt.close(fig)
