"""Tests of the independence-scores chapter (credal.chapters.independence_scores).

The slides' score names and the decisions they name (moved here from credal.independence),
the chapter's interface (classifiers, run, tables, numbers, HEADLINE), the slides' simulation, its exact expectation, the comparison with the published tables,
the readings the chapter identifies, BDeu networks learned from independent data, the
headline rows, the figures and the notebook's parameters.  The chapter claims that the
slides' "Dir(0.5, 0.5)" experiment was run with Dirichlet parameters 0.25 and that their
"PRIOR" column is BDe with prior odds 5 : 1 for independence; both are checked here on
the small sample sizes (exact expectations, no simulation noise).
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

from credal.chapters import independence_scores as chapter
from credal.chapters import _display
from credal.chapters._verdicts import HEADLINE_COLUMNS, verdicts
from credal.independence import (
    DEPENDENCE,
    INDEPENDENCE,
    UNDECIDED,
    aic_score,
    bde_score,
    chi_score,
    decide,
    estimate_joint,
    imp_score,
    imprecise_decision,
    imprecise_score_rule,
    k2_score,
    kl_divergence,
)

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "data" / "published"
NOTEBOOK = "independence-scores"

# The profile sections proposed for notebooks/params/{paper,smoke}.yml.
PROFILES = {
    "paper": {"n_pairs": 10000, "n_pairs_s": 100000, "network_repeats": 100},
    "smoke": {
        "n_pairs": 1000, "sizes": [3, 10, 100, 1000], "variant_sizes": [3, 10, 100],
        "n_pairs_s": 2000, "exact_sizes": [3, 5, 10], "alphas": [0.25, 0.5],
        "odds_values": [1.0, 5.0], "imp_variants": ["IMP1", "IMP1.25"],
        "network_repeats": 5, "network_S_values": [1.0, 10.0]},
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
    p = _parameters(NOTEBOOK)
    assert p["n_pairs"] == 10000 and p["n_pairs_s"] == 100000
    assert p["sizes"] == [3, 5, 10, 20, 50, 100, 1000, 10000]
    assert p["s_scores"] == ["BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD2", "BD4", "BD16"]
    assert (p["network_vars"], p["network_cases"]) == (12, 4)


# ------------------------------------------------------- the slides' score vocabulary


def test_score_decisions_match_individual_functions():
    rng = np.random.default_rng(10)
    T = rng.multinomial(15, rng.dirichlet([1, 1, 1, 1], size=300)).reshape(-1, 2, 2)
    n = T.sum(axis=(1, 2))
    d = chapter._score_decisions(T, ["CHI0.05", "CHI0.20", "K2", "BD4", "BIC", "AKA", "IMP", "BD2MOD", "NEW"])
    chi = chi_score(T)
    assert np.array_equal(d["CHI0.05"], (chi > 0.95).astype(int))
    assert np.array_equal(d["CHI0.20"], (chi > 0.80).astype(int))
    assert np.array_equal(d["K2"], decide(k2_score(T), n=n))
    assert np.array_equal(d["BD4"], decide(bde_score(T, 4), n=n))
    assert np.array_equal(d["AKA"], decide(aic_score(T), n=n))
    assert np.array_equal(d["NEW"], imprecise_decision(imprecise_score_rule(T, 2), prefer_independence=True, n=n))
    # the line-up applies the same rules, one score at a time
    lineup = chapter.classifiers(["K2", "NEW", "BD2_ODDS5", "IMP_UPEXP", "NEW_BOX_PI"])
    assert np.array_equal(lineup["K2"](T), d["K2"]) and np.array_equal(lineup["NEW"](T), d["NEW"])
    assert "prior odds 5 : 1" in repr(lineup["BD2_ODDS5"]) and "preferring" in repr(lineup["NEW_BOX_PI"])
    assert list(chapter.classifiers()) == ["CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP"]


def test_score_names_prior_odds_and_bad_names():
    T = np.random.default_rng(20).multinomial(12, [0.3, 0.2, 0.1, 0.4], size=300).reshape(-1, 2, 2)
    bf = bde_score(T, 2.0)
    n = T.sum(axis=(1, 2))
    got = chapter._score_decisions(T, ["BD2_ODDS5", "BD2"])
    np.testing.assert_array_equal(got["BD2_ODDS5"], (bf > math.log(5) + 1e-9 * n).astype(int))
    # A larger prior weight on independence never adds dependence decisions.
    assert np.all(got["BD2_ODDS5"] <= got["BD2"])
    t = [[1, 2], [3, 4]]
    for bad, match in (("FOO", "unknown score"), ("CHI1.5", "CHI"), ("BD2_ODDS", "unknown score")):
        with pytest.raises(ValueError, match=match):
            chapter._score_decisions(t, [bad])
    with pytest.raises(ValueError, match="unknown score"):
        chapter.classifiers(["XYZ"])


def test_empty_table_and_imp_tie_rules():
    z = np.zeros((2, 2), int)
    dec = chapter._score_decisions(z, ["K2", "BIC", "CHI0.05", "IMP", "NEW", "NEW_BOX"])
    assert all(int(v) == INDEPENDENCE for k, v in dec.items() if k != "NEW_BOX")
    assert int(dec["NEW_BOX"]) == UNDECIDED
    tie = np.array([[1, 1], [1, 0]])  # H*(Y) and both rows saturate at ln 2: IMP = 0
    assert imp_score(tie) == pytest.approx(0.0, abs=1e-15)
    d = chapter._score_decisions(tie, ["IMP", "IMP_GE", "IMP_HALF", "IMP_T0", "IMP_UPEXP", "IMP_ROWS2"])
    assert (d["IMP"], d["IMP_GE"], d["IMP_HALF"], d["IMP_T0"]) == (INDEPENDENCE, DEPENDENCE, UNDECIDED,
                                                                   INDEPENDENCE)
    strong = np.array([[5, 0], [0, 5]])
    d = chapter._score_decisions(strong, ["IMP_GE", "IMP_HALF", "IMP_T0.1", "IMP_T1"])
    assert (d["IMP_GE"], d["IMP_HALF"], d["IMP_T0.1"], d["IMP_T1"]) == (DEPENDENCE, DEPENDENCE,
                                                                        DEPENDENCE, INDEPENDENCE)
    for bad in ("IMP_FOO", "IMP_UPEXP0", "IMP_"):
        with pytest.raises(ValueError):
            chapter._score_decisions(strong, [bad])


# --------------------------------------------------------------------- the simulation


def test_simulation_structure_and_reproducibility():
    kw = dict(sizes=[3, 20], n_pairs=500, scores=["CHI0.05", "K2", "BD2", "NEW", "NEW_BOX"], random_state=3)
    a = chapter._simulate_independence(**kw)
    b = chapter._simulate_independence(**kw)
    pd.testing.assert_frame_equal(a.errors, b.errors)
    pd.testing.assert_frame_equal(a.losses, b.losses)
    e = a.errors
    assert len(e) == 2 * 2 * 5
    assert np.all(e.n_dependence + e.n_independence + e.n_undecided == 500)
    dep = e.true_model == "dependence"
    assert np.all(e.errors[dep] == 500 - e.n_dependence[dep])
    assert np.all(e.errors[~dep] == 500 - e.n_independence[~dep])
    # At N = 3 the G statistic never reaches chi2_0.95(1) = 3.84: CHI0.05 always
    # says independence (the slides' 10000 / 0 row).
    row = e[(e.score == "CHI0.05") & (e["size"] == 3)].set_index("true_model")
    assert row.loc["dependence", "errors"] == 500 and row.loc["independence", "errors"] == 0
    # Losses: KL >= 0 and the cross-entropy is KL + H(P).
    L = a.losses
    assert np.all(L.kl_joint >= 0) and np.all(L.joint_log_loss > L.kl_joint)
    # One size of one model, recomputed from the same draws: decisions, errors and losses.
    P = np.random.default_rng(0).dirichlet([1, 1, 1, 1], size=400).reshape(-1, 2, 2)
    (err, loss), = chapter._simulate_size(P, "independence", 20, ["K2"], np.random.default_rng(7))
    flat = P.reshape(-1, 4)
    counts = np.random.default_rng(7).multinomial(20, flat / flat.sum(1, keepdims=True)).reshape(-1, 2, 2)
    d = decide(k2_score(counts), n=20) == DEPENDENCE
    assert err["errors"] == int(np.sum(d)) and err["n_pairs"] == 400
    kl = kl_divergence(P, estimate_joint(counts, d))
    assert loss["kl_joint"] == pytest.approx(np.mean(kl), rel=1e-12)
    assert loss["kl_joint_se"] == pytest.approx(np.std(kl, ddof=1) / 20, rel=1e-9)
    w = a.wide("errors", "total")
    assert list(w.columns) == kw["scores"] and list(w.index) == [3, 20]


def test_simulation_agrees_with_published_counts():
    """Statistical agreement with the slides' error counts (10 000 pairs per model).

    Scores whose definition is unambiguous (CHI, K2, BDe, BIC, AKA, and the new
    score's approximate method) must fall within 4.5 binomial standard errors of the
    published counts; IMP is checked only where it coincides with K2 (N <= 5).
    """
    res = chapter._simulate_independence(
        sizes=[3, 10, 100, 1000],
        n_pairs=10000,
        scores=["CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP", "NEW"],
        random_state=2024,
    )
    for model in ("dependence", "independence"):
        pub = pd.read_csv(f"{PUBLISHED}/moral_errors_{model}.csv", index_col="size")
        ours = res.wide("errors", model)
        for size in [3, 10, 100, 1000]:
            for col in ["CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA"]:
                p = pub.loc[size, col] / 10000
                se = math.sqrt(10000 * max(p * (1 - p), 1e-4))
                assert abs(ours.loc[size, col] - pub.loc[size, col]) <= 4.5 * se + 1, (model, size, col)
        assert ours.loc[3, "IMP"] == ours.loc[3, "K2"]
    # NEW (S = 2): the slides count out of 100 000 distributions.
    pub = pd.read_csv(f"{PUBLISHED}/moral_prior_new.csv")
    for _, row in pub[pub["size"].isin([3, 10, 100, 1000])].iterrows():
        ours = res.wide("errors", row.true_model).loc[row["size"], "NEW"]
        p = row.NEW / 100000
        se = math.sqrt(10000 * max(p * (1 - p), 1e-4))
        assert abs(ours - row.NEW / 10) <= 4.5 * se + 1


def test_simulation_bad_arguments():
    with pytest.raises(ValueError, match="sizes"):
        chapter._simulate_independence(sizes=[0])
    with pytest.raises(ValueError, match="n_pairs"):
        chapter._simulate_independence(n_pairs=0)
    with pytest.raises(ValueError, match="a must be > 0"):
        chapter._simulate_independence(a=-1.0)
    with pytest.raises(ValueError, match="unknown score"):
        chapter._simulate_independence(scores=["XYZ"])


def test_simulation_standard_errors():
    res = chapter._simulate_independence(sizes=[5, 50], n_pairs=400, scores=["K2", "BD2"], random_state=4)
    e = res.errors
    p = e.errors / 400
    np.testing.assert_allclose(e.errors_se, np.sqrt(400 * p * (1 - p)))
    tot = res.wide("errors", "total", "errors_se")
    dep = res.wide("errors", "dependence", "errors_se")
    ind_ = res.wide("errors", "independence", "errors_se")
    np.testing.assert_allclose(tot, np.sqrt(dep**2 + ind_**2))


# ----------------------------------------------------------------- exact expectations


def test_all_tables_and_exact_probabilities():
    T = chapter._all_tables(4)
    assert T.shape == (math.comb(7, 3), 2, 2)
    assert np.all(T.sum(axis=(1, 2)) == 4) and len({tuple(t.ravel()) for t in T}) == len(T)
    assert chapter._all_tables(0).shape == (1, 2, 2)
    for a in (None, 0.25, 2.0):
        pdep, pind = chapter._table_probabilities(T, a)
        assert pdep.sum() == pytest.approx(1.0) and pind.sum() == pytest.approx(1.0)
    # One table by numerical integration over the Dirichlet draws: the integral
    # factorises into one-dimensional Beta moments, each integrated by quadrature
    # (algebraic end-point weights for the Beta(0.5, 0.5) singularities).
    from scipy import integrate

    def moment(a, b, x, y):
        w = 1.0 / math.exp(math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
        return w * integrate.quad(lambda u: u**x * (1 - u) ** y, 0, 1, weight="alg",
                                  wvar=(a - 1, b - 1))[0]

    t = np.array([[2, 1], [0, 1]])
    coef = math.factorial(4) / (math.factorial(2) * math.factorial(1) * math.factorial(0) * math.factorial(1))
    pdep, pind = chapter._table_probabilities(t[None])
    want_dep = coef * moment(1, 1, 3, 1) * moment(0.5, 0.5, 2, 1) * moment(0.5, 0.5, 0, 1)
    want_ind = coef * moment(1, 1, 3, 1) * moment(1, 1, 2, 2)
    assert pdep[0] == pytest.approx(want_dep, rel=1e-8)
    assert pind[0] == pytest.approx(want_ind, rel=1e-8)


def test_exact_errors_agree_with_simulation():
    ex = chapter._exact_errors([3, 10], ["K2", "BD2", "IMP"], n_pairs=20000)
    sim = chapter._simulate_independence(sizes=[3, 10], n_pairs=20000, scores=["K2", "BD2", "IMP"],
                                        random_state=5)
    m = ex.merge(sim.errors, on=["true_model", "size", "score"], suffixes=("_exact", "_sim"))
    z = (m.errors_sim - m.errors_exact) / m.errors_se_exact
    assert np.all(np.abs(z) < 4.5), m
    # The slides' IMP differs from its stated definition at N = 10 (see the chapter);
    # K2 and BDe agree with the published counts' exact expectation.
    pub = chapter._published_table("moral_errors_dependence")
    exact = chapter._exact_errors([3, 10], ["K2", "BD2", "IMP"])
    ag = chapter._agreement_by_score([chapter._exact_agreement(pub, exact, "dependence")])
    assert ag.loc["K2", "max_abs_z"] < 3 and ag.loc["BD2", "max_abs_z"] < 3
    assert ag.loc["IMP", "max_abs_z"] > 5 and ag.loc["IMP", "worst_size"] == 10


def test_exact_errors_count_a_coin_on_ties_as_half_an_error():
    # IMP_HALF leaves ties undecided; a coin settles them: half the tie probability is
    # an error under each model.
    full = chapter._exact_errors([3], ["IMP_HALF"])
    half = chapter._exact_errors([3], ["IMP_HALF"], undecided_error=0.5)
    ge, plain = chapter._exact_errors([3], ["IMP_GE"]), chapter._exact_errors([3], ["IMP"])
    for model in ("dependence", "independence"):
        pick = lambda df: float(df.loc[df.true_model == model, "errors"].iloc[0])  # noqa: E731
        assert pick(half) == pytest.approx((pick(ge) + pick(plain)) / 2, rel=1e-12)
        assert pick(full) > pick(half)


# --------------------------------------------------------- comparison with the slides


def test_compare_with_published_scaling_and_z():
    res = chapter._simulate_independence(sizes=[3, 10], n_pairs=1000, scores=["K2", "BD2"], random_state=6)
    ours = res.wide("errors", "dependence")
    pub = pd.DataFrame({"K2": ours["K2"] * 100, "BD2": ours["BD2"] * 100 + 5000}, index=ours.index)
    c = chapter._compare_with_published(res, pub, true_model="dependence", n_pairs_published=100000)
    k2 = c[c.score == "K2"]
    np.testing.assert_allclose(k2.ours, k2.published)  # rescaled to 100 000 pairs
    assert np.all(k2.z == 0)
    se = res.wide("errors", "dependence", "errors_se")["BD2"].to_numpy()
    want_sd = np.sqrt((se * 100) ** 2 + (se * 10) ** 2)
    np.testing.assert_allclose(c[c.score == "BD2"].se_difference, want_sd)
    s = chapter._summary({"c": c}, "x", "c")
    assert s["x_cells"] == 4 and s["x_beyond"] == 2 and s["x_flagged"] == "BD2@3, BD2@10"
    # Printed means: rounding of the last printed digit enters the SE.
    assert chapter._printed_resolution(0.00016) == pytest.approx(1e-5)
    assert chapter._printed_resolution(2.678415) == pytest.approx(1e-6)
    assert chapter._printed_resolution(10000.0) == 1.0


# -------------------------------------- readings of the slides the chapter identifies


def test_dir0505_table_is_explained_by_parameters_one_quarter():
    scan = chapter._scan_symmetric_priors([0.2, 0.25, 0.3, 0.5], [3, 5, 10, 20])
    assert scan["rms_z"].idxmin() == 0.25
    assert scan.loc[0.25, "max_abs_z"] < 3 and scan.loc[0.5, "beyond_3_se"] > 10


def test_prior_column_is_bde_with_prior_odds_five():
    scan = chapter._scan_prior_odds([1.0, 4.0, 5.0, 6.0], [5, 10, 20])
    assert scan["rms_z"].idxmin() == 5.0 and scan.loc[5.0, "max_abs_z"] < 3
    assert scan.loc[5.0, "p_dependence"] == pytest.approx(1 / 6)


def test_imp_swap_is_identical_in_expectation():
    # The generating models are exchangeable in X and Y (Dir(1,1) x Dir(1/2,1/2)^2 is
    # Dir(1/2,1/2,1/2,1/2) on the joint), so exchanging the roles cannot matter.
    T = chapter._all_tables(10)
    pd_, pi_ = chapter._table_probabilities(T)
    pdt, pit = chapter._table_probabilities(np.swapaxes(T, 1, 2))
    np.testing.assert_allclose(pdt, pd_, rtol=1e-12)
    np.testing.assert_allclose(pit, pi_, rtol=1e-12)
    ex = chapter._exact_errors([10, 20], ["IMP", "IMP_SWAP"])
    a = ex[ex.score == "IMP"]["errors"].to_numpy()
    b = ex[ex.score == "IMP_SWAP"]["errors"].to_numpy()
    np.testing.assert_allclose(a, b, rtol=1e-10)
    # ... although the two decide differently on many single tables.
    d = chapter._score_decisions(T, ["IMP", "IMP_SWAP"])
    assert np.mean(d["IMP"] != d["IMP_SWAP"]) > 0.05


def test_imp_variant_check_and_threshold_fit():
    names = ["IMP", "IMP_SWAP", "IMP_GE", "IMP_HALF", "IMP_UPEXP"]
    chk = chapter._imp_variant_check(names, [3, 5, 10])
    assert list(chk.index) == names and chk["cells"].eq(6).all()
    assert chk.loc["IMP", "rms_z"] == pytest.approx(chk.loc["IMP_SWAP", "rms_z"], rel=1e-9)
    # Ties decided as dependence, or by a coin, contradict the counts at N = 3.
    assert chk.loc["IMP_GE", "max_abs_z"] > 50 and chk.loc["IMP_HALF", "max_abs_z"] > 30
    assert chk.loc["IMP", "worst_size"] == 10
    assert chk.loc["IMP_UPEXP", "max_abs_z"] < chk.loc["IMP", "max_abs_z"]
    assert chk.loc["IMP", "reading"] == "as stated, s = 1"
    fit = chapter._imp_threshold_fit([3, 10])
    assert fit.loc[3, "threshold"] == 0.0
    t = fit.loc[10, "threshold"]
    assert t > 0
    # The fitted threshold reproduces its own dependence count (checked through the
    # IMP_T<t> score) but not the independence count.
    ex = chapter._exact_errors([10], [f"IMP_T{float(t)!r}"])
    assert float(ex.loc[ex.true_model == "dependence", "errors"].iloc[0]) == pytest.approx(
        fit.loc[10, "dependence_expected"], rel=1e-12)
    assert abs(fit.loc[10, "dependence_z"]) < 3 and abs(fit.loc[10, "independence_z"]) > 5


def test_published_table_helpers():
    eff = chapter._published_table("moral_effect_of_S_dependence", rename=lambda c: "BD" + c[2:])
    assert list(eff.columns) == ["BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD2", "BD4", "BD16"]
    new = chapter._published_table("moral_prior_new", "independence", {"BDe_S2": "BD2", "PRIOR": "BD2_ODDS5"})
    assert list(new.columns) == ["BD2", "BD2_ODDS5", "NEW"] and new.loc[3, "BD2"] == 33397


# --------------------------------------------- networks learned from independent data


def test_learning_from_independent_data():
    runs, first = chapter._learn_from_independent_data(12, 4, S=10.0, n_repeats=8, random_state=1)
    again, _ = chapter._learn_from_independent_data(12, 4, S=10.0, n_repeats=8, random_state=1)
    pd.testing.assert_frame_equal(runs, again)
    # The slides' warning: with 4 cases the learned graph is dense although the true
    # graph is empty, and it scores better than the truth.
    assert runs.n_arcs.mean() > 10
    assert np.all(runs.score > runs.empty_score)
    assert len(first.edges) == runs.n_arcs.iloc[0] and first.n_isolated == runs.n_isolated.iloc[0]
    summ = chapter._summarise_learned_networks(runs)
    assert summ.loc["arcs", "mean"] == pytest.approx(runs.n_arcs.mean())
    by = chapter._learned_networks_by_S([1.0, 10.0], n_repeats=4, random_state=1)
    assert list(by.index) == [1.0, 10.0] and by.loc[1.0, "same_skeleton"] == 1.0


# ---------------------------------------------------------------------- headline rows


SMALL_RUN = dict(n_pairs=300, sizes=[10, 100, 1000], variant_sizes=[10, 100], n_pairs_s=300,
                 exact_sizes=[3, 5], imp_variants=["IMP1"], alphas=[0.25, 0.5], odds_values=[5.0],
                 network_vars=6, network_repeats=3, network_S_values=[10.0], seed=1)


@pytest.fixture(scope="module")
def small_tables():
    return chapter.tables(chapter.run(**SMALL_RUN))


def test_tables_and_numbers_of_a_small_run(small_tables):
    t = small_tables
    # every CSV the notebook writes, computed once
    saved = {"errors_dependence", "errors_independence", "errors_total", "exact_check_errors",
             "exact_check_imp_variants", "imp_threshold_fit", "kl_dependence", "kl_independence",
             "kl_total", "loglik_dir22", "errors_dir0505_as_stated", "dir0505_prior_scan",
             "errors_dir0505_read_as_best_a", "loglik_dir0505_ours", "effect_of_S_independence",
             "effect_of_S_dependence", "exact_check_effect_of_S", "bd2mod_estimation",
             "bd2mod_classification", "prior_odds_scan", "imprecise_score_independence",
             "imprecise_score_dependence", "network_summary", "network_by_S"}
    assert saved <= set(t) and all(isinstance(v, pd.DataFrame) for v in t.values())
    n = chapter.numbers(t)
    assert all(isinstance(v, str) for v in n.values())
    # every name the notebook's prose quotes is there
    text = (ROOT / "notebooks" / f"{NOTEBOOK}.md").read_text()
    quoted = set(re.findall(r"\{glue:text\}`(\w+)`", text))
    assert quoted and quoted <= set(n), quoted - set(n)
    assert n["n_pairs"] == "300" and n["best_a"] == "0.25" and n["imp_n_variants"] == "2"
    assert n["network_S"] == "10" and n["net_repeats"] == "3"


def _check_headline(h, name):
    assert list(h.columns) == HEADLINE_COLUMNS + ["verdict"]
    assert (h["paper"] == "Moral (slides)").all() and (h["chapter"] == name).all()
    assert 5 <= len(h) <= 20 and h["quantity"].is_unique
    assert np.isfinite(h["published"]).all()
    assert np.isfinite(h["ours"]).all() and (h["tolerance"] >= 0).all()
    assert set(h["verdict"]) <= {"reproduced", "differs", "not comparable", "fitted"}
    pd.testing.assert_series_equal(h["verdict"], verdicts(h))
    assert h["note"].str.contains("tolerance|count test").all()


def test_headline_declarations_obey_the_rule():
    """Issue 24: the declarations pass check(); counts of errors are compared as counts,
    PRIOR is fitted to its own table, the isolated variables have their range."""
    chapter.HEADLINE.check()
    rows = {h.quantity: h for h in chapter.HEADLINE}
    counts = [q for q, h in rows.items() if "errors" in q]
    assert len(counts) == 15 and all(rows[q].kind == "count" for q in counts)
    assert all(h.kind == "value" for q, h in rows.items() if q not in counts)
    assert [q for q, h in rows.items() if h.fitted] == [q for q in rows if q.startswith("PRIOR")]
    iso = [h for q, h in rows.items() if q.startswith("isolated")]
    assert iso[0].bounds == (0, 12)
    assert not any(h.extra or h.not_comparable for h in rows.values())


def test_headline_of_a_small_run(small_tables):
    t = small_tables
    chapter.HEADLINE.check()
    h = chapter.HEADLINE.judge(t)
    _check_headline(h, "independence-scores")
    assert len(h) == len(chapter.HEADLINE) == 19
    row = h.set_index("quantity")
    # Published values are the slides' cells; PRIOR and NEW add the two true models.
    assert row.loc["BD2: total errors at N = 100", "published"] == 3611
    assert row.loc["NEW (imprecise BDe score): total errors at N = 100", "published"] == 4024 + 33210
    assert row.loc["BDe: fewest total errors over S at N = 100", "published"] == 7448 + 28335
    assert row.loc["isolated variables in a BDeu network learned from 4 cases of 12 independent "
                   "variables", "published"] == 3
    # Counts of errors are compared as counts: ours of our pairs (600: two models of 300)
    # against the slides' of theirs, by Fisher's exact test, not through a tolerance.
    c = t["errors_total"].set_index(["size", "score"]).loc[(100, "BD2")]
    bd2 = row.loc["BD2: total errors at N = 100"]
    assert bd2["ours"] == round(c["ours"] * 600 / 20000) and bd2["ours"] == int(bd2["ours"])
    assert f"ours {bd2['ours']:g} of 600, the paper's 3611 of 20000" in bd2["note"]
    assert "count test (Fisher's exact)" in bd2["note"]
    assert "of 200000" in row.loc["NEW (imprecise BDe score): total errors at N = 100", "note"]
    # Means keep the tolerance of 3 SE of the difference, stated in words (no appended parts).
    kl = t["kl_total"].set_index(["size", "score"]).loc[(100, "BD2")]
    assert row.loc["BD2: total KL divergence at N = 100", "tolerance"] == 3 * kl["se_difference"]
    assert not h["note"].str.contains("sqrt").any()
    # The prior odds of PRIOR were fitted to the PRIOR column it is judged against (issue 24).
    prior = row.loc[[q for q in row.index if q.startswith("PRIOR")][0]]
    assert prior["verdict"] == "fitted" and "prior_odds_scan" in prior["note"]
    # A size this run did not simulate: the row is left out.
    t2 = dict(t, errors_total=t["errors_total"][t["errors_total"]["size"] != 1000])
    h2 = chapter.HEADLINE.judge(t2)
    assert len(h2) == 17 and not h2["quantity"].str.contains("N = 1000").any()


# ---------------------------------------------------------------------------- figures


def _labelled(fig):
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":  # a colour bar has one label, along its length
            assert ax.get_xlabel() or ax.get_ylabel()
        elif ax.get_visible() and ax.axison:
            assert ax.get_xlabel() and ax.get_ylabel()


def test_independence_figures(tmp_path):
    res = chapter._simulate_independence(sizes=[3, 10, 100], n_pairs=300, random_state=0)
    dep = chapter._compare_with_published(res, chapter._published_table("moral_errors_dependence"),
                                         true_model="dependence")
    fig = chapter.score_errors_figure([dep, dep], titles=["a", "b"])
    _labelled(fig)
    assert len(fig.axes) == 2
    resS = chapter._simulate_independence(sizes=[3, 10], n_pairs=300, scores=["BD0.2", "BD2", "BD16"],
                                         random_state=0)
    eff = chapter._compare_with_published(resS, chapter._published_table("moral_effect_of_S_dependence",
                                                                       rename=lambda c: "BD" + c[2:]),
                                         true_model="dependence", n_pairs_published=100000)
    fig2 = chapter.effect_of_s_figure([eff])
    _labelled(fig2)
    fig3 = chapter.network_figure([(), (0,), (0, 1), ()], title="t")
    # a circle layout: no axes, the counts in the title
    assert not fig3.axes[0].axison and "3 arcs; 1 isolated" in fig3.axes[0].get_title()
    dep_ind = chapter._compare_with_published(res, chapter._published_table("moral_errors_independence"),
                                             true_model="independence")
    fig4 = chapter.zscore_heatmap([dep, dep_ind, dep], titles=["a", "b", "c"])
    _labelled(fig4)
    # at most two panels per row, the third panel's slot left empty; one annotation per cell
    shown = [ax for ax in fig4.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    assert len(shown) == 3 and len({round(ax.get_position().x0, 3) for ax in shown}) == 2
    assert len(shown[0].texts) == len(dep)
    z0 = dep.set_index(["score", "size"])["z"]
    cell = shown[0].texts[0]
    assert cell.get_text() == chapter._fmt_z(z0.iloc[0]).replace("−", "−")
    assert chapter._fmt_z(-0.04) == "0.0" and chapter._fmt_z(float("inf")) == "+∞"
    for i, f in enumerate((fig, fig2, fig3, fig4)):
        f.savefig(tmp_path / f"{i}.png")
    with pytest.raises(ValueError, match="comparison"):
        chapter.score_errors_figure([])
    with pytest.raises(ValueError, match="comparison"):
        chapter.zscore_heatmap([])
    with pytest.raises(ValueError, match="titles"):
        chapter.zscore_heatmap([dep], titles=["a", "b"])
    with pytest.raises(ValueError, match="no node"):
        chapter.network_figure([])


def test_comparison_layout_verdicts_are_the_z_rule():
    # the notebook shows a comparison as _display.comparison_layout with the tolerance of
    # three standard errors of the difference: reproduced iff |z| <= 3
    res = chapter._simulate_independence(sizes=[3, 10], n_pairs=300, random_state=1)
    dep = chapter._compare_with_published(res, chapter._published_table("moral_errors_dependence"),
                                          true_model="dependence")
    bad = dep.assign(ours=dep["published"] + 10 * dep["se_difference"] + 1)
    bad["z"] = (bad["ours"] - bad["published"]) / bad["se_difference"]
    for c, want in ((dep, dep["z"].abs() <= 3), (bad, False)):
        view = c.assign(N=c["size"], tolerance=3 * c["se_difference"])
        layout = _display.comparison_layout(view, label=["N", "score"], max_decimals=6)
        assert ((layout["verdict"] == "reproduced") == want).all()


def test_claim_box_cites_the_slides():
    h = pd.DataFrame({"quantity": [r.quantity for r in chapter.HEADLINE], "verdict": "reproduced",
                      "cause": ""})
    html = _display.claim_box(NOTEBOOK, h, cite="moral2005discovering",
                              mapping=chapter.SLIDES_MAP).data
    assert "Discovering independence" in html and "Moral" in html
    assert "make notebook NB=independence-scores" in html
