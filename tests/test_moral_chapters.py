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


# -- headline numbers for the reproduction report ----------------------------------------


def _check_headline(h, chapter):
    from credal.report import HEADLINE_COLUMNS, verdicts

    assert list(h.columns) == HEADLINE_COLUMNS + ["verdict"]
    assert (h["paper"] == "Moral (slides)").all() and (h["chapter"] == chapter).all()
    assert 5 <= len(h) <= 20 and h["quantity"].is_unique
    assert np.isfinite(h["published"]).all()
    assert np.isfinite(h["ours"]).all() and (h["tolerance"] >= 0).all()
    assert set(h["verdict"]) <= {"reproduced", "differs", "not comparable"}
    pd.testing.assert_series_equal(h["verdict"], verdicts(h))
    assert h["note"].str.contains("tolerance").all()


def test_independence_headline_from_a_small_simulation():
    sc = ["CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP", "BD2MOD", "BD2MOD_CLS",
          "BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD16", "NEW", "BD2_ODDS5"]
    res = ind.simulate_independence([10, 100, 1000], 300, scores=sc, random_state=1)
    res05 = ind.simulate_independence([100], 300, prior_x=(0.5, 0.5), prior_y=(0.5, 0.5),
                                      prior_y_given_x=(0.5, 0.5), scores=["BD2"], random_state=2)
    S = lambda c: "BD" + c[2:]  # noqa: E731
    names_new = {"BDe_S2": "BD2", "PRIOR": "BD2_ODDS5"}
    cmp = ind.compare_with_published
    kw = dict(
        errors_total=cmp(res, ind.published_table("moral_errors_total"), true_model="total"),
        errors_dependence=cmp(res, ind.published_table("moral_errors_dependence")),
        kl_total=cmp(res, ind.published_table("moral_kl_total"), what="losses", true_model="total"),
        effect_of_S_independence=cmp(res, ind.published_table("moral_effect_of_S_independence", rename=S),
                                     true_model="independence", n_pairs_published=100000),
        effect_of_S_dependence=cmp(res, ind.published_table("moral_effect_of_S_dependence", rename=S),
                                   true_model="dependence", n_pairs_published=100000),
        new_independence=cmp(res, ind.published_table("moral_prior_new", "independence", names_new),
                             true_model="independence", n_pairs_published=100000),
        new_dependence=cmp(res, ind.published_table("moral_prior_new", "dependence", names_new),
                           true_model="dependence", n_pairs_published=100000),
        bd2mod_estimation=cmp(res, ind.published_table("moral_bd2mod_estimation"), what="losses",
                              true_model="total", value="joint_log_loss"),
        bd2mod_classification=cmp(res, ind.published_table("moral_bd2mod_classification",
                                                           rename={"BD2MOD": "BD2MOD_CLS"}),
                                  what="losses", true_model="total", value="conditional_log_loss"),
    )
    runs, _, _ = ind.learn_from_independent_data(6, 4, S=10.0, n_repeats=3, random_state=0)
    h = ind.headline(**kw, errors_dir0505=cmp(res05, ind.published_table("moral_errors_dir0505"),
                                              true_model="total"),
                     network_summary=ind.summarise_learned_networks(runs), network_repeats=3)
    _check_headline(h, "independence-scores")
    row = h.set_index("quantity")
    # Published values are the slides' cells; PRIOR and NEW add the two true models.
    assert row.loc["BD2: total errors at N = 100", "published"] == 3611
    assert row.loc["NEW (imprecise BDe score): total errors at N = 100", "published"] == 4024 + 33210
    assert row.loc["BDe: fewest total errors over S at N = 100", "published"] == 7448 + 28335
    assert row.loc["isolated variables in a BDeu network learned from 4 cases of 12 independent "
                   "variables", "published"] == 3
    # The tolerance is three of the chapter's standard errors of the difference.
    c = kw["errors_total"].set_index(["size", "score"]).loc[(100, "BD2")]
    assert row.loc["BD2: total errors at N = 100", "tolerance"] == pytest.approx(3 * c["se_difference"])
    # A size this run did not simulate: the slides' value, ours missing.
    h2 = ind.headline(**kw, size=20)
    r20 = h2.set_index("quantity").loc["BD2: total errors at N = 20"]
    assert r20["published"] == 5853 and np.isnan(r20["ours"]) and r20["verdict"] == "not comparable"
    with pytest.raises(ValueError, match="network_repeats"):
        ind.headline(**kw, network_summary=ind.summarise_learned_networks(runs))


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
    from credal import trees

    design = pd.DataFrame({"dataset": ["Australian", "Heart", "Pima", "Cleveland"],
                           "name": ["australian", "heart", "pima", "cleveland"],
                           "n_train": [460, 180, 512, 200], "n_test": [230, 90, 256, 97]})
    runs = _tree_runs(design["name"], n_repeats)
    tabs = [trees.moral_tree_table(runs, design, w) for w in ("classic", "credal", "frequency")]
    h = trees.headline(*tabs, design)
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
        assert np.isnan(trees.headline(*tabs)["tolerance"]).all()
