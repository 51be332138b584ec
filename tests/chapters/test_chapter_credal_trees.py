"""Tests of the credal-trees chapter (credal.chapters.credal_trees).

The slides' train/test design, the run and the tables built from the engine's results,
the numbers the text quotes, the headline rows (from synthetic runs), the figure and the
notebook's parameters.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from conftest import notebook_parameters

from credal import datasets
from credal.chapters import _display
from credal.chapters import credal_trees as chapter
from credal.chapters._verdicts import HEADLINE_COLUMNS, verdicts

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "credal-trees"

# The profile sections proposed for notebooks/params/{paper,smoke}.yml.
PROFILES = {
    "paper": {"n_repeats": 10, "n_jobs": 2},
    "smoke": {"n_repeats": 1, "n_jobs": 2},
}


# --------------------------------------------------------------------- the parameters


_parameters = notebook_parameters


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_proposed_profiles_name_existing_parameters(profile):
    known = _parameters(NOTEBOOK)
    params = PROFILES[profile]
    assert set(params) <= set(known), set(params) - set(known)
    for k, v in params.items():
        assert type(v) is type(known[k]), k


def test_defaults_are_the_slides_scale():
    t = _parameters(NOTEBOOK)
    assert t["s"] == 1.0 and t["n_repeats"] >= 1 and t["names"] == []


# ------------------------------------------------------------- the design and the run


def test_design_sizes_and_policies():
    items, design = chapter._design(["hepatitis", "vote1", "monks1", "heart_c5"], 3, 5)
    d = design.set_index("name")
    # Hepatitis: the slides' 59 + 21 = 80 rows are the complete rows.
    assert d.loc["hepatitis", "rows_used"] == "complete rows"
    assert (d.loc["hepatitis", "n_train"], d.loc["hepatitis", "n_test"]) == (59, 21)
    # Vote1 keeps its incomplete rows (300 + 135 = 435 = all rows).
    assert d.loc["vote1", "rows_used"] == "all rows" and d.loc["vote1", "n_test"] == 135
    # Monks1: the data set's own split, used once.
    assert d.loc["monks1", "split"].startswith("fixed") and d.loc["monks1", "n_train"] == 124
    # Cleveland: UCI's 5-grade file (data/added), whose 297 complete rows are the slides'
    # 200 + 97, with the slides' 5 classes.
    assert (d.loc["heart_c5", "n_train"], d.loc["heart_c5", "n_test"]) == (200, 97)
    assert d.loc["heart_c5", "n_classes"] == 5 and d.loc["heart_c5", "paper_n_classes"] == 5
    names = [it[0] for it in items]
    assert len(names) == 2 * (3 + 3 + 1 + 3) and len(set(names)) == len(names)
    by = {it[0]: it for it in items}
    # Train items evaluate on the training part itself; splits differ between repeats
    # and are stratified; a second call gives the same splits.
    name, X, y, split = by["hepatitis|0|train"]
    assert (split == "train").sum() == 59 and (split == "test").sum() == 59
    pd.testing.assert_frame_equal(X[split == "train"].reset_index(drop=True),
                                  X[split == "test"].reset_index(drop=True))
    _, X0, y0, s0 = by["hepatitis|0|test"]
    _, X1, y1, s1 = by["hepatitis|1|test"]
    assert not X0.equals(X1)
    frac = y0[s0 == "test"].value_counts(normalize=True).sort_index()
    full = y0.value_counts(normalize=True).sort_index()
    np.testing.assert_allclose(frac, full, atol=0.06)
    again, _ = chapter._design(["hepatitis"], 3, 5)
    pd.testing.assert_frame_equal(again[0][1], by["hepatitis|0|test"][1])
    with pytest.raises(ValueError, match="n_repeats"):
        chapter._design(["hepatitis"], 0, 0)
    with pytest.raises(ValueError, match="slides"):
        chapter._design(["iris"], 1, 0)


@pytest.fixture(scope="module")
def small_run():
    """The chapter's run on two data sets, two splits each, and its tables."""
    results = chapter.run(chapter.classifiers(), ["soybean_small", "hepatitis"], n_repeats=2)
    return results, chapter.tables(results)


def test_tables_from_the_engine(small_run):
    results, t = small_run
    runs, design = t["runs"], t["datasets"]
    assert runs is results["runs"] and design is results["design"]
    assert set(runs.classifier) == {"NB", "C4.5", "TU2 simple", "TU2 double"}
    assert len(runs) == 2 * 2 * 2 * 4
    # Precise classifiers are always determinate.
    assert np.all(runs[runs.classifier.isin(["NB", "C4.5"])].unclassified == 0)
    hep = runs[(runs.name == "hepatitis") & (runs.part == "test")]
    assert np.all(hep.n_eval == 21)
    classic = t["classic_methods"]
    row = classic[(classic.dataset == "Hepatitis") & (classic.column == "NB test")].iloc[0]
    v = hep[hep.classifier == "NB"].accuracy
    assert row.ours == pytest.approx(v.mean()) and row.sd == pytest.approx(v.std(ddof=1))
    assert row.published == 81.5
    assert row.z == pytest.approx((v.mean() - 81.5) / (v.std(ddof=1) * math.sqrt(1.5)))
    credal_tab = t["credal_trees_dominance"]
    assert credal_tab[credal_tab.column.str.startswith("double")].published.isna().all()
    assert set(t["frequency_criterion"].column) == {"TU2 simple", "TU2 double", "NB", "C4.5"}
    # the cells the book shows
    disp = t["classic_methods_cells"]
    assert list(disp.index) == ["Soybean-small", "Hepatitis"] and " ± " in disp.iloc[0, 0]
    assert list(t["credal_simple_cells"].columns) == ["train accuracy", "train UC %",
                                                      "test accuracy", "test UC %"]
    assert t["credal_double_cells"].iloc[0, 0].endswith("(–)")
    assert t["datasets_cells"].shape[0] == 2
    assert t["hepatitis_split"].shape[0] == 5 and list(t["tu1_published_only"].index) == ["TU1"]


def test_numbers_for_the_text(small_run):
    _, t = small_run
    n = chapter.numbers(t)
    assert all(isinstance(v, str) for v in n.values())
    text = (ROOT / "notebooks" / f"{NOTEBOOK}.md").read_text()
    quoted = set(re.findall(r"\{glue:text\}`([^`]+)`", text))
    assert quoted <= set(n), quoted - set(n)
    # Soybean-small and Hepatitis: 2 data sets x 4 columns with a published value.
    assert n["classic_cells"] == "8" and n["n_repeats"] == "2" and n["gap_n"] == "2"
    classic = t["classic_methods"].set_index(["dataset", "column"])
    drop = classic["published"].xs("C4.5 train", level="column") - classic["published"].xs(
        "C4.5 test", level="column")
    assert n["gap_c45_pub"] == f"{drop.mean():.1f}" == f"{((100 - 100) + (96.2 - 85.2)) / 2:.1f}"
    assert n["soy_nb"] == f"{classic.loc[('Soybean-small', 'NB test'), 'ours']:.1f}"
    assert n["monks_simple"] == "nan"  # Monks1 not run here


# ------------------------------------------------- other protocols, hepatitis split


def test_protocol_runs_build_each_protocol(small_run):
    results, t = small_run
    pr = results["protocol_runs"]
    assert set(pr.protocol) == {"10-fold CV", "MDL on all rows", "equal-frequency bins", "learned on train+test"}
    assert set(pr.classifier) == {"NB", "C4.5", "TU2 simple"}
    hep = pr[(pr.name == "hepatitis") & (pr.classifier == "NB")]
    # 10-fold CV of the 80 complete rows, once; the hold-out variants score the 21 test cases.
    cv = hep[hep.protocol == "10-fold CV"]
    assert cv.n_eval.sum() == 80 and set(cv.n_eval) <= {8}
    for p in ("MDL on all rows", "equal-frequency bins", "learned on train+test"):
        assert set(hep[hep.protocol == p].n_eval) == {21} and len(hep[hep.protocol == p]) == 2
    tab = t["protocols"]
    assert list(tab.index) == ["slides"] + list(chapter._PROTOCOLS)
    # Soybean-small is the only set with a published NB figure here besides Hepatitis.
    assert tab.loc["slides", "NB"] == pytest.approx((81.5 + 93.8) / 2)
    runs = t["runs"]
    hold = runs[(runs.part == "test") & (runs.classifier == "NB")].groupby("name").accuracy.mean()
    assert tab.loc["hold-out", "NB"] == pytest.approx(hold.mean())
    assert tab.loc["hold-out", "gap: NB"] == pytest.approx(hold.mean() - (81.5 + 93.8) / 2)
    assert (tab["data sets"] == 2).all()
    no_c45 = chapter._protocol_table(runs[runs.classifier != "C4.5"], pr[pr.classifier != "C4.5"],
                                     t["datasets"])
    assert np.isnan(no_c45.loc["hold-out", "C4.5"])  # no C4.5 runs
    assert t["protocols_cells"].loc["hold-out", "NB"].startswith(f"{hold.mean():.1f} (")
    items, _ = chapter._design(["hepatitis"], 1, 0)
    with pytest.raises(ValueError, match="hold-out"):
        chapter._protocol_runs([it for it in items if it[0].endswith("train")], chapter.classifiers())


def test_consistent_case_counts_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(5, 60))
        k = int(rng.integers(0, n + 1))
        v = round(100 * k / n, 1)
        got = chapter._consistent_case_counts(v, range(1, 61))
        want = [m for m in range(1, 61) if any(abs(round(100 * j / m, 1) - v) < 1e-9 for j in range(m + 1))]
        assert got == want and n in got
    # determinate accuracy with a printed unclassified share: 18 of 19, 2 of 21 unclassified
    assert 21 in chapter._consistent_case_counts(94.7, [21], unclassified=9.5)
    assert chapter._consistent_case_counts(94.7, [27], unclassified=9.5) == []


def test_hepatitis_split():
    t = chapter._hepatitis_split().set_index("figure")
    precise = t.loc[["NB, test accuracy", "C4.5, test accuracy"]]
    trees = t.drop(precise.index)
    assert precise["27 cases"].all() and not precise["21 cases"].any()
    assert trees["21 cases"].all() and not trees["27 cases"].any()
    assert len(trees) == 3 and (precise["sizes"] == "27").all()


# ---------------------------------------------------------------------- headline rows


def _check_headline(h, name):
    assert list(h.columns) == HEADLINE_COLUMNS + ["verdict"]
    assert (h["paper"] == "Moral (slides)").all() and (h["chapter"] == name).all()
    assert 5 <= len(h) <= 20 and h["quantity"].is_unique
    assert np.isfinite(h["published"]).all()
    assert np.isfinite(h["ours"]).all() and (h["tolerance"] >= 0).all()
    assert set(h["verdict"]) <= {"reproduced", "differs", "not comparable"}
    pd.testing.assert_series_equal(h["verdict"], verdicts(h))
    assert h["note"].str.contains("tolerance").all()


def _tree_runs(names, n_repeats, shift=0.0, rng=None):
    rng = np.random.default_rng(0) if rng is None else rng
    rows = []
    for name in names:
        for clf in ("NB", "C4.5", "TU2 simple", "TU2 double"):
            for part in ("train", "test"):
                for rep in range(n_repeats):
                    acc = 80 + shift + rng.normal(0, 2)
                    rows.append({"name": name, "repeat": rep, "part": part, "classifier": clf,
                                 "n_eval": 100, "accuracy": acc, "single_accuracy": acc + 5,
                                 "unclassified": 10.0 + rng.normal(0, 1)})
    return pd.DataFrame(rows)


def _slides_design(names=None):
    """A design table (names and sizes) for synthetic runs on the slides' data sets."""
    names = list(datasets.names("moral-trees")) if names is None else names
    pub = datasets.published("moral_uci_datasets").set_index("dataset")
    paper = [datasets.spec(n)["papers"]["moral-trees"]["name"] for n in names]
    return pd.DataFrame({"dataset": paper, "name": names, "n_train": pub.loc[paper, "n_train"].to_numpy(),
                         "n_test": pub.loc[paper, "n_test"].to_numpy()})


def _synthetic_tables(design, n_repeats):
    runs = _tree_runs(design["name"], n_repeats)
    return {"runs": runs, "datasets": design,
            **{w: chapter._slides_table(runs, design, w) for w in chapter._SLIDES_TABLES}}


@pytest.mark.parametrize("n_repeats", [1, 5])
def test_trees_headline_from_synthetic_runs(n_repeats):
    design = _slides_design()
    tabs = _synthetic_tables(design, n_repeats)
    h = chapter.HEADLINE.judge(tabs)
    _check_headline(h, "credal-trees")
    assert len(h) == 12
    row = h.set_index("quantity")
    pub = datasets.published("moral_classic_methods").set_index("dataset")
    # Means over the ten data sets with a figure (Monks1 has none).
    comparable = [d for d in design["dataset"] if d in pub.index and np.isfinite(pub.loc[d, "NB_test"])]
    assert len(comparable) == 10
    assert row.loc["NB: mean test accuracy", "published"] == pytest.approx(pub.loc[comparable, "NB_test"].mean())
    assert row.loc["C4.5: mean drop from training to test accuracy", "published"] == pytest.approx(
        (pub.loc[comparable, "C45_train"] - pub.loc[comparable, "C45_test"]).mean())
    nb = tabs["classic_methods"].set_index(["dataset", "column"]).loc[comparable]
    assert row.loc["NB: mean test accuracy", "ours"] == pytest.approx(
        nb.xs("NB test", level="column")["ours"].mean())
    assert h["note"].str.contains("mean over 10 data sets").sum() == 10
    binomial = h["note"].str.contains("binomial")
    assert binomial.all() if n_repeats == 1 else not binomial.any()
    # the tolerance: 3 SD of a mean of K single-split results (module comment)
    t = tabs["classic_methods"]
    t = t[(t.column == "NB test") & t.dataset.isin(comparable)]
    if n_repeats == 1:
        p = t["ours"].to_numpy() / 100
        n = design.set_index("dataset").loc[t["dataset"], "n_test"].to_numpy()
        var = 1e4 * p * (1 - p) / n
    else:
        var = t["sd"].to_numpy() ** 2 + t["se"].to_numpy() ** 2
    assert row.loc["NB: mean test accuracy", "tolerance"] == pytest.approx(
        3 * math.sqrt(var.sum() + 10 * 0.01 / 12) / 10)


def test_trees_headline_declarations_obey_the_rule():
    """Issue 24: the declarations pass check(); every row has its range (percent, or points
    of a drop); the rows of the trees' test figures name their cause, with its evidence."""
    chapter.HEADLINE.check()
    rows = {h.quantity: h for h in chapter.HEADLINE}
    assert all(h.bounds == ((-100, 100) if "drop" in q else (0, 100)) for q, h in rows.items())
    caused = [q for q, h in rows.items() if h.cause]
    assert len(caused) == 5 and all(rows[q].cause.startswith("protocol or data: ") for q in caused)
    assert "nb_discretisation" in rows["NB: mean training accuracy"].cause
    assert not any(h.extra or h.not_comparable or h.fitted for h in rows.values())


def test_trees_headline_needs_every_data_set():
    """A run without some of the slides' data sets gives no comparable mean."""
    h = chapter.HEADLINE.judge(_synthetic_tables(_slides_design(["australian", "heart_statlog"]), 2))
    assert len(h) == 12 and (h["verdict"] == "not comparable").all()
    assert h["note"].str.contains("lacks some of the slides' 10 data sets").all()


# ---------------------------------------------------------------------------- figures


def _labelled(fig):
    for ax in fig.axes:
        if ax.get_visible() and ax.axison:
            assert ax.get_xlabel() and ax.get_ylabel()


def test_trees_figure(tmp_path):
    tab = pd.DataFrame({"dataset": ["A", "B", "A", "B"], "column": ["x", "x", "y", "y"],
                        "ours": [80.0, 90.0, 70.0, 60.0], "se": [1.0, 2.0, 1.0, 0.5],
                        "published": [82.0, np.nan, 75.0, 61.0]})
    fig = chapter.ours_vs_published_figure([tab, tab], titles=["p", "q"])
    _labelled(fig)
    fig.savefig(tmp_path / "t.png")
    # The cell without a published value is not drawn.
    ax = fig.axes[0]
    assert sum(len(c.get_children()[0].get_xdata()) for c in ax.containers) == 3


def test_claim_box_cites_the_slides():
    h = pd.DataFrame({"quantity": [r.quantity for r in chapter.HEADLINE], "verdict": "reproduced",
                      "cause": ""})
    html = _display.claim_box(NOTEBOOK, h, cite="moral2005discovering").data
    assert "Discovering independence" in html and "make notebook NB=credal-trees" in html


def test_nb_discretisation_table(small_run):
    """Issue 24: NB's means by discretisation, one row per run, ours minus the slides'."""
    results, tabs = small_run
    nb = tabs["nb_discretisation"]
    assert list(nb.index) == ["slides", "MDL (main run)"] + [
        f"{b} equal-frequency bins" for b in chapter._NB_BINS]
    assert set(results["nb_bins_runs"]["bins"]) == set(chapter._NB_BINS)
    pub = datasets.published("moral_classic_methods").set_index("dataset").loc[
        ["Soybean-small", "Hepatitis"]].mean()  # the two data sets of this run
    for label in nb.index[1:]:
        assert nb.loc[label, "data sets"] == 2
        assert nb.loc[label, "gap: NB train"] == pytest.approx(nb.loc[label, "NB train"] - pub["NB_train"])
    assert nb.loc["slides", "NB test"] == pytest.approx(pub["NB_test"])
    assert chapter.numbers(tabs)["nb_10_train"] == f"{nb.loc['10 equal-frequency bins', 'NB train']:.1f}"

