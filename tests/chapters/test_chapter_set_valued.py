"""The set-valued chapter (issue 26): its run on a few small data sets, checked against
the leaderboard's folds, the engine's predictions and the notebook's glue names."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from credal.chapters import leaderboard
from credal.chapters import set_valued as chapter

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[2]
DATA = ["iris", "labor", "haberman"]


@pytest.fixture(scope="module")
def run():
    results = chapter.run(DATA, sweep_data=["iris"], n_jobs=1, cache_dir=None)
    return results, chapter.tables(results, nsamples=500)


def test_the_interface():
    assert set(chapter.__all__) >= {"classifiers", "run", "tables", "numbers"}
    lineup = chapter.classifiers(0.1)
    assert set(list(lineup)[:5]) == set(chapter.CREDAL)
    assert set(lineup) == set(chapter.FAMILIES)


def test_the_credal_folds_are_the_leaderboards(run):
    results, _ = run
    ours = results.folds.query("classifier == 'NCC' and dataset == 'iris' and alpha == 0.1")
    theirs = leaderboard.run(["iris"], classifiers=["NCC"], n_repeats=1, cache_dir=None).folds
    theirs = theirs[theirs["classifier"] == "NCC"]
    for c in ("n_test", "determinacy", "coverage", "u65", "u80"):
        np.testing.assert_allclose(ours[c].to_numpy(dtype=float), theirs[c].to_numpy(dtype=float))


def test_scores_pool_the_predictions(run):
    results, t = run
    s = t["dataset_scores"].set_index(["alpha", "dataset", "classifier"])
    p = results.predictions
    for clf in ("NCC", "LAC (NB)", "nested NCC"):
        g = p[(p["dataset"] == "iris") & (p["classifier"] == clf)]
        row = s.loc[(0.1, "iris", clf)]
        assert row["coverage"] == pytest.approx(g["in_set"].mean())
        assert row["set_size"] == pytest.approx(g["set_size"].mean())
        assert row["determinacy"] == pytest.approx((g["set_size"] == 1).mean())
        assert row["empty_sets"] == pytest.approx((g["set_size"] == 0).mean())


def test_alpha_needs_enough_calibration_rows(run):
    results, t = run
    info = t["datasets"]
    # labor: 57 rows, 14 calibration rows in the smallest fold: 0.1 only (MAPIE needs 20)
    assert info.loc["labor", "alphas calibrated"] == "0.1"
    assert info.loc["iris", "alphas calibrated"] == "0.1, 0.05"
    at05 = t["dataset_scores"].query("alpha == 0.05")
    assert "labor" not in set(at05["dataset"]) and len(at05) == 2 * len(chapter.FAMILIES)
    # haberman has two classes: its APS rows are LAC
    assert info.loc["haberman", "APS"] == "LAC"
    s = t["dataset_scores"].set_index(["alpha", "dataset", "classifier"])
    assert s.loc[(0.1, "haberman", "APS (NB)"), "u65"] == s.loc[(0.1, "haberman", "LAC (NB)"),
                                                                 "u65"]


def test_the_summary_and_the_comparison(run):
    _, t = run
    s, scores = t["summary"], t["dataset_scores"]
    for (alpha, clf), g in scores.groupby(["alpha", "classifier"]):
        row = s[(s["alpha"] == alpha) & (s["classifier"] == clf)].iloc[0]
        assert row["u80"] == pytest.approx(g["u80"].mean())
        assert row["covered data sets"] == (g["coverage"] >= 1 - alpha - 1e-12).sum()
    b = t["bayes"]
    assert len(b) == 4 and set(b["a"]) <= set(chapter.CREDAL)
    assert np.allclose(b[["p_a_better", "p_rope", "p_b_better"]].sum(axis=1), 1)


def test_the_disagreement_against_the_predictions(run):
    results, t = run
    p = results.predictions.query("dataset == 'iris'")
    key = ["repeat", "fold", "row"]
    ncc = p[p["classifier"] == "NCC"].set_index(key)
    lac = p[p["classifier"] == "LAC (NB)"].set_index(key).reindex(ncc.index)
    ind = ncc["set_size"] > 1
    d = t["disagreement"].query("dataset == 'iris' and other == 'LAC (NB)'").iloc[0]
    assert d["ncc_ind"] == pytest.approx(ind.mean())
    assert d["other_cov_on_ncc_ind"] == pytest.approx(lac["in_set"][ind].mean())


def test_numbers_cover_the_notebook(run):
    _, t = run
    n = chapter.numbers(t)
    assert all(isinstance(v, str) for v in n.values())
    text = (ROOT / "notebooks" / "set-valued.md").read_text()
    quoted = set(re.findall(r"\{glue:text\}`([a-z0-9_]+)`", text))
    assert quoted and quoted <= set(n), sorted(quoted - set(n))


def test_figures_fit_the_page(run):
    import matplotlib.pyplot as plt

    _, t = run
    for fig in (chapter.coverage_figure(t["dataset_scores"]), chapter.sweep_figure(t["sweep"]),
                chapter.disagreement_figure(t["disagreement"])):
        w, h = fig.get_size_inches()
        assert h * 100 <= 600 and w <= 6.8 + 1e-9
        legends = [a.get_legend() for a in fig.axes if a.get_legend()] + fig.legends
        assert legends and all(len(lg.get_texts()) <= 8 for lg in legends)
        plt.close(fig)
    assert isinstance(t["sweep"], pd.DataFrame) and set(t["sweep"]["method"]) == set(chapter.SWEEPS)
