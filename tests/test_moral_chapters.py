"""The two Moral chapters: the readings they identify, their figures and parameters.

The chapters (notebooks/independence-scores.md and notebooks/credal-trees.md) claim
that the slides' "Dir(0.5, 0.5)" experiment was run with Dirichlet parameters 0.25
and that their "PRIOR" column is BDe with prior odds 5 : 1 for independence; both are
checked here on the small sample sizes (exact expectations, no simulation noise).
"""

from __future__ import annotations

import ast
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import jupytext
import numpy as np
import pandas as pd
import pytest

from credal import datasets, plotting
from credal import independence as ind

ROOT = Path(__file__).resolve().parents[1]

# The profile sections proposed for notebooks/params/{paper,smoke}.yml.
PROFILES = {
    "paper": {
        "independence-scores": {"n_pairs": 10000, "n_pairs_s": 100000, "network_repeats": 100},
        "credal-trees": {"n_repeats": 10, "n_jobs": 2},
    },
    "smoke": {
        "independence-scores": {
            "n_pairs": 1000, "sizes": [3, 10, 100, 1000], "variant_sizes": [3, 10, 100],
            "n_pairs_s": 2000, "exact_sizes": [3, 5, 10], "alphas": [0.25, 0.5],
            "odds_values": [1.0, 5.0], "imp_variants": ["IMP1", "IMP1.25"],
            "network_repeats": 5, "network_S_values": [1.0, 10.0]},
        "credal-trees": {"n_repeats": 1, "n_jobs": 2},
    },
}


def _parameters(name):
    nb = jupytext.read(ROOT / "notebooks" / f"{name}.md")
    first = [c for c in nb.cells if c.cell_type == "code"][0]
    out = {}
    for node in ast.parse(first.source).body:
        out[node.targets[0].id] = ast.literal_eval(node.value)
    return out


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_proposed_profiles_name_existing_parameters(profile):
    for nb, params in PROFILES[profile].items():
        known = _parameters(nb)
        assert set(params) <= set(known), (nb, set(params) - set(known))
        for k, v in params.items():
            assert type(v) is type(known[k]), (nb, k)


def test_defaults_are_the_slides_scale():
    p = _parameters("independence-scores")
    assert p["n_pairs"] == 10000 and p["n_pairs_s"] == 100000
    assert p["sizes"] == [3, 5, 10, 20, 50, 100, 1000, 10000]
    assert p["s_scores"] == ["BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD2", "BD4", "BD16"]
    assert (p["network_vars"], p["network_cases"]) == (12, 4)
    t = _parameters("credal-trees")
    assert t["s"] == 1.0 and t["n_repeats"] >= 1 and t["names"] == []


def test_dir0505_table_is_explained_by_parameters_one_quarter():
    pub = ind.published_table("moral_errors_dir0505")
    scan = ind.scan_symmetric_priors(pub, [0.2, 0.25, 0.3, 0.5], [3, 5, 10, 20])
    assert scan["rms_z"].idxmin() == 0.25
    assert scan.loc[0.25, "max_abs_z"] < 3 and scan.loc[0.5, "beyond_3_se"] > 10


def test_prior_column_is_bde_with_prior_odds_five():
    scan = ind.scan_prior_odds(datasets.published("moral_prior_new"), [1.0, 4.0, 5.0, 6.0], [5, 10, 20])
    assert scan["rms_z"].idxmin() == 5.0 and scan.loc[5.0, "max_abs_z"] < 3
    assert scan.loc[5.0, "p_dependence"] == pytest.approx(1 / 6)


def test_published_table_helpers():
    eff = ind.published_table("moral_effect_of_S_dependence", rename=lambda c: "BD" + c[2:])
    assert list(eff.columns) == ["BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD2", "BD4", "BD16"]
    new = ind.published_table("moral_prior_new", "independence", {"BDe_S2": "BD2", "PRIOR": "BD2_ODDS5"})
    assert list(new.columns) == ["BD2", "BD2_ODDS5", "NEW"] and new.loc[3, "BD2"] == 33397
    rep = ind.published_column_as(ind.published_table("moral_errors_dependence"), "IMP", ["IMP1", "IMP2"])
    assert (rep["IMP1"] == rep["IMP2"]).all()


def _labelled(fig):
    for ax in fig.axes:
        if ax.get_visible() and ax.axison:
            assert ax.get_xlabel() and ax.get_ylabel()


def test_independence_figures(tmp_path):
    res = ind.simulate_independence(sizes=[3, 10, 100], n_pairs=300, random_state=0)
    dep = ind.compare_with_published(res, ind.published_table("moral_errors_dependence"), true_model="dependence")
    fig = plotting.score_errors_figure([dep, dep], titles=["a", "b"])
    _labelled(fig)
    assert len(fig.axes) == 2
    resS = ind.simulate_independence(sizes=[3, 10], n_pairs=300, scores=["BD0.2", "BD2", "BD16"], random_state=0)
    eff = ind.compare_with_published(resS, ind.published_table("moral_effect_of_S_dependence",
                                                               rename=lambda c: "BD" + c[2:]),
                                     true_model="dependence", n_pairs_published=100000)
    fig2 = plotting.effect_of_s_figure([eff])
    _labelled(fig2)
    fig3 = plotting.network_figure([(), (0,), (0, 1), ()], names=list("ABCD"), title="t")
    _labelled(fig3)
    assert "3 arcs; 1 isolated" in fig3.axes[0].get_xlabel()
    for i, f in enumerate((fig, fig2, fig3)):
        f.savefig(tmp_path / f"{i}.png")
    with pytest.raises(ValueError, match="comparison"):
        plotting.score_errors_figure([])
    with pytest.raises(ValueError, match="names"):
        plotting.network_figure([(), ()], names=["a"])


def test_trees_figure(tmp_path):
    tab = pd.DataFrame({"dataset": ["A", "B", "A", "B"], "column": ["x", "x", "y", "y"],
                        "ours": [80.0, 90.0, 70.0, 60.0], "se": [1.0, 2.0, 1.0, 0.5],
                        "published": [82.0, np.nan, 75.0, 61.0]})
    fig = plotting.ours_vs_published_figure([tab, tab], titles=["p", "q"])
    _labelled(fig)
    fig.savefig(tmp_path / "t.png")
    # The cell without a published value is not drawn.
    ax = fig.axes[0]
    assert sum(len(c.get_children()[0].get_xdata()) for c in ax.containers) == 3
