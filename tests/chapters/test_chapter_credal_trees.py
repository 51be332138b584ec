"""Tests of the credal-trees chapter (credal.chapters.credal_trees).

The slides' train/test design and the tables built from the engine's results, the
headline rows (from synthetic runs), the figure and the notebook's parameters.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from conftest import notebook_parameters

from credal import datasets, experiments
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


def test_moral_tree_design_sizes_and_policies():
    items, design = chapter.moral_tree_design(["hepatitis", "vote1", "monks1", "heart_c"], n_repeats=3,
                                              random_state=5)
    d = design.set_index("name")
    # Hepatitis: the slides' 59 + 21 = 80 rows are the complete rows.
    assert d.loc["hepatitis", "rows_used"] == "complete rows"
    assert (d.loc["hepatitis", "n_train"], d.loc["hepatitis", "n_test"]) == (59, 21)
    # Vote1 keeps its incomplete rows (300 + 135 = 435 = all rows).
    assert d.loc["vote1", "rows_used"] == "all rows" and d.loc["vote1", "n_test"] == 135
    # Monks1: the data set's own split, used once.
    assert d.loc["monks1", "split"].startswith("fixed") and d.loc["monks1", "n_train"] == 124
    # Cleveland: 296 complete rows here, so the test part has 96 (slides: 97); the
    # unobserved declared classes are dropped.
    assert (d.loc["heart_c", "n_train"], d.loc["heart_c", "n_test"]) == (200, 96)
    assert d.loc["heart_c", "n_classes"] == 2 and d.loc["heart_c", "paper_n_classes"] == 5
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
    again, _ = chapter.moral_tree_design(["hepatitis"], n_repeats=3, random_state=5)
    pd.testing.assert_frame_equal(again[0][1], by["hepatitis|0|test"][1])
    with pytest.raises(ValueError, match="n_repeats"):
        chapter.moral_tree_design(["hepatitis"], n_repeats=0)
    with pytest.raises(ValueError, match="slides"):
        chapter.moral_tree_design(["iris"])


def test_moral_tree_tables_from_the_engine():
    items, design = chapter.moral_tree_design(["soybean_small", "hepatitis"], n_repeats=2, random_state=0)
    res = experiments.cross_validate(chapter.moral_tree_estimators(), items, use_predefined_split=True,
                                     progress=False)
    runs = chapter.moral_tree_runs(res)
    assert set(runs.classifier) == {"NB", "C4.5", "TU2 simple", "TU2 double"}
    assert len(runs) == 2 * 2 * 2 * 4
    # Precise classifiers are always determinate.
    assert np.all(runs[runs.classifier.isin(["NB", "C4.5"])].unclassified == 0)
    hep = runs[(runs.name == "hepatitis") & (runs.part == "test")]
    assert np.all(hep.n_eval == 21)
    classic = chapter.moral_tree_table(runs, design, "classic")
    row = classic[(classic.dataset == "Hepatitis") & (classic.column == "NB test")].iloc[0]
    v = hep[hep.classifier == "NB"].accuracy
    assert row.ours == pytest.approx(v.mean()) and row.sd == pytest.approx(v.std(ddof=1))
    assert row.published == 81.5
    assert row.z == pytest.approx((v.mean() - 81.5) / (v.std(ddof=1) * math.sqrt(1.5)))
    credal_tab = chapter.moral_tree_table(runs, design, "credal")
    assert credal_tab[credal_tab.column.str.startswith("double")].published.isna().all()
    freq = chapter.moral_tree_table(runs, design, "frequency")
    assert set(freq.column) == {"TU2 simple", "TU2 double", "NB", "C4.5"}
    disp = chapter.display_tree_table(classic)
    assert list(disp.index) == ["Soybean-small", "Hepatitis"] and " ± " in disp.iloc[0, 0]
    assert chapter.display_tree_design(design).shape[0] == 2
    s = chapter.tree_table_summary(classic, exclude=["Soybean-small"])
    assert s["cells"] == 4
    gap = chapter.train_test_gap(classic, "C4.5 train", "C4.5 test")
    assert gap["n"] == 2
    assert gap["published"] == pytest.approx(((100 - 100) + (96.2 - 85.2)) / 2)
    with pytest.raises(ValueError, match="which"):
        chapter.moral_tree_table(runs, design, "nope")


# ------------------------------------------------- other protocols, hepatitis split


def test_moral_protocol_runs_build_each_protocol():
    items, design = chapter.moral_tree_design(["hepatitis", "soybean_small"], n_repeats=2, random_state=0)
    line_up = chapter.moral_tree_estimators()
    est = {k: line_up[k] for k in ("NB", "TU2 simple")}
    pr = chapter.moral_protocol_runs(items, est)
    assert set(pr.protocol) == {"10-fold CV", "MDL on all rows", "equal-frequency bins", "learned on train+test"}
    hep = pr[pr.name == "hepatitis"]
    # 10-fold CV of the 80 complete rows, once; the hold-out variants score the 21 test cases.
    cv = hep[hep.protocol == "10-fold CV"]
    assert cv.n_eval.sum() == 2 * 80 and set(cv.n_eval) <= {8}
    for p in ("MDL on all rows", "equal-frequency bins", "learned on train+test"):
        assert set(hep[hep.protocol == p].n_eval) == {21} and len(hep[hep.protocol == p]) == 2 * 2
    # Learning on the test rows too can only help the frequency tree on them (in-sample).
    res = experiments.cross_validate(est, items, use_predefined_split=True, progress=False)
    runs = chapter.moral_tree_runs(res)
    tab = chapter.moral_protocol_table(runs, pr, design=design)
    assert list(tab.index) == ["slides"] + list(chapter.PROTOCOLS)
    # Soybean-small is the only set with a published NB figure here besides Hepatitis.
    assert tab.loc["slides", "NB"] == pytest.approx((81.5 + 93.8) / 2)
    hold = runs[(runs.part == "test") & (runs.classifier == "NB")].groupby("name").accuracy.mean()
    assert tab.loc["hold-out", "NB"] == pytest.approx(hold.mean())
    assert tab.loc["hold-out", "gap: NB"] == pytest.approx(hold.mean() - (81.5 + 93.8) / 2)
    assert np.isnan(tab.loc["hold-out", "C4.5"])  # no C4.5 runs here
    assert (tab["data sets"] == 2).all()
    with pytest.raises(ValueError, match="hold-out"):
        chapter.moral_protocol_runs([it for it in items if it[0].endswith("train")], est)


def test_consistent_case_counts_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(5, 60))
        k = int(rng.integers(0, n + 1))
        v = round(100 * k / n, 1)
        got = chapter.consistent_case_counts(v, range(1, 61))
        want = [m for m in range(1, 61) if any(abs(round(100 * j / m, 1) - v) < 1e-9 for j in range(m + 1))]
        assert got == want and n in got
    # determinate accuracy with a printed unclassified share: 18 of 19, 2 of 21 unclassified
    assert 21 in chapter.consistent_case_counts(94.7, [21], unclassified=9.5)
    assert chapter.consistent_case_counts(94.7, [27], unclassified=9.5) == []


def test_hepatitis_split_arithmetic():
    t = chapter.hepatitis_split_arithmetic().set_index("figure")
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


@pytest.mark.parametrize("n_repeats", [1, 5])
def test_trees_headline_from_synthetic_runs(n_repeats):
    design = pd.DataFrame({"dataset": ["Australian", "Heart", "Pima", "Cleveland"],
                           "name": ["australian", "heart", "pima", "cleveland"],
                           "n_train": [460, 180, 512, 200], "n_test": [230, 90, 256, 97]})
    runs = _tree_runs(design["name"], n_repeats)
    tabs = [chapter.moral_tree_table(runs, design, w) for w in ("classic", "credal", "frequency")]
    h = chapter.headline(*tabs, design)
    _check_headline(h, "credal-trees")
    assert len(h) == 12
    row = h.set_index("quantity")
    pub = datasets.published("moral_classic_methods").set_index("dataset")
    # Means over the three comparable data sets (Cleveland left out by default).
    assert row.loc["NB: mean test accuracy", "published"] == pytest.approx(
        pub.loc[["Australian", "Heart", "Pima"], "NB_test"].mean())
    assert h["note"].str.contains("mean over 3 data sets").sum() == 10
    binomial = h["note"].str.contains("binomial")
    assert binomial.all() if n_repeats == 1 else not binomial.any()
    # Without the spread (one split, no design) the tolerance is unknown, not zero.
    if n_repeats == 1:
        assert np.isnan(chapter.headline(*tabs)["tolerance"]).all()


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


def test_glance_box_cites_the_slides_and_the_method():
    h = pd.DataFrame({"verdict": ["reproduced", "differs", "differs"]})
    html = chapter.glance_box(h).data
    assert "Discovering independence" in html and "Abellán" in html and "(2003) 1215-1225" in html
    assert "2 differs" in html and "make notebook NB=credal-trees" in html
