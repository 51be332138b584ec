"""Tests of credal.independence: scores, upper entropy, the imprecise score, decisions.

Reference values come from hand computation (exact fractions), from independent
slow implementations written here (loops over cells with math.lgamma, the way
pgmpy's K2Score / BDeuScore / BicScore compute local scores; pgmpy itself is not
installed) and from scipy (optimisers, chi2_contingency).  The slides' simulation and
the comparison with their published tables are tested with their chapter
(tests/chapters/test_chapter_independence_scores.py), with the slides' score names
(``score_decisions`` there); BDeu structure search in
tests/test_structure.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from credal.independence import (
    DEPENDENCE,
    INDEPENDENCE,
    UNDECIDED,
    aic_score,
    bde_score,
    bdmod_score,
    bic_score,
    chi_score,
    conditional_log_loss,
    decide,
    estimate_conditional,
    estimate_joint,
    g_statistic,
    imp_score,
    imprecise_decision,
    imprecise_score_interval,
    imprecise_score_rule,
    joint_log_loss,
    k2_score,
    kl_divergence,
    mutual_information,
    upper_entropy,
    upper_entropy_distribution,
)
from credal.reference import bisection_upper_entropy


# ----------------------------------------------------------------- upper entropy


def _maxent_slsqp(n, s, starts=4, seed=0):
    """Numerical max-entropy over the IDM set by SLSQP (brute force)."""
    n = np.asarray(n, float)
    k, N = len(n), n.sum()
    lo = n / (N + s)
    rng = np.random.default_rng(seed)

    def negH(p):
        p = np.clip(p, 1e-300, None)
        return float(np.sum(p * np.log(p)))

    best = np.inf
    for _ in range(starts):
        x0 = lo + rng.dirichlet(np.ones(k)) * (1 - lo.sum())
        res = optimize.minimize(
            negH,
            x0,
            method="SLSQP",
            bounds=[(l, 1) for l in lo],
            constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        if res.success or res.status == 8:
            p = res.x
            if np.all(p >= lo - 1e-9) and abs(p.sum() - 1) < 1e-9:
                best = min(best, negH(p))
    return -best


def test_upper_entropy_matches_numerical_solver_on_random_sets():
    rng = np.random.default_rng(1)
    for trial in range(150):
        k = int(rng.integers(2, 8))
        n = rng.integers(0, 12, size=k) * (rng.random(k) < 0.8)
        s = float(rng.choice([0.5, 1.0, 2.0, 5.0]))
        p = upper_entropy_distribution(n, s)
        H = upper_entropy(n, s)
        # The maximiser lies in the credal set ...
        assert np.all(p >= n / (n.sum() + s) - 1e-15)
        assert p.sum() == pytest.approx(1.0, abs=1e-14)
        assert H == pytest.approx(-np.sum(p * np.log(p)), abs=1e-14)
        # ... and a numerical optimiser neither beats nor misses its entropy.
        Hnum = _maxent_slsqp(n, s, seed=trial)
        assert Hnum <= H + 1e-9
        assert H == pytest.approx(Hnum, abs=1e-7)


def test_upper_entropy_reference_vectors():
    # Values from ../shared/notes/algorithms.md section 7 and the slides' examples.
    cases = [
        ((1, 2), 1, [0.5, 0.5], 0.693147180560),
        ((2, 4), 1, [3 / 7, 4 / 7], 0.682908104700),
        ((5, 0, 0, 1), 1, np.array([5, 0.5, 0.5, 1]) / 7, 0.895332665968),
        ((5, 0, 0, 1), 2, [0.625, 0.125, 0.125, 0.125], 1.073542846409),
        ((10, 3, 3, 0), 1, np.array([10, 3, 3, 1]) / 17, 1.091006011000),
    ]
    for n, s, p, H in cases:
        np.testing.assert_allclose(upper_entropy_distribution(n, s), p, atol=1e-12)
        assert upper_entropy(n, s) == pytest.approx(H, abs=1e-11)
    # Slides: the interval for (2, 4) is [2/7, 3/7] x [4/7, 5/7]; the maximiser is (3/7, 4/7).
    assert upper_entropy((2, 4), 1) == pytest.approx(-(3 / 7) * math.log(3 / 7) - (4 / 7) * math.log(4 / 7))
    # No data: the whole simplex, maximum entropy ln k.
    assert upper_entropy((0, 0, 0), 1) == pytest.approx(math.log(3))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=8),
    st.sampled_from([0.1, 0.5, 1.0, 2.0, 7.5]),
    st.integers(0, 2**31 - 1),
)
def test_upper_entropy_properties(n, s, seed):
    n = np.array(n)
    p = upper_entropy_distribution(n, s)
    H = upper_entropy(n, s)
    assert np.all(p >= n / (n.sum() + s) - 1e-15)
    assert p.sum() == pytest.approx(1.0)
    # Random members of the credal set never have more entropy.
    rng = np.random.default_rng(seed)
    lo = n / (n.sum() + s)
    q = lo + rng.dirichlet(np.ones(len(n)), size=50) * (1 - lo.sum())
    Hq = -np.sum(q * np.log(np.clip(q, 1e-300, None)), axis=1)
    assert np.all(Hq <= H + 1e-12)
    # Symmetric in the categories; more imprecision (larger s) never lowers it.
    perm = rng.permutation(len(n))
    assert upper_entropy(n[perm], s) == pytest.approx(H, abs=1e-12)
    assert upper_entropy(n, 2 * s) >= H - 1e-12
    assert H <= math.log(len(n)) + 1e-12


def test_upper_entropy_vectorised_equals_loop():
    rng = np.random.default_rng(2)
    n = rng.integers(0, 9, size=(7, 5, 4))
    H = upper_entropy(n, 1.5)
    assert H.shape == (7, 5)
    for i, j in itertools.product(range(7), range(5)):
        assert H[i, j] == upper_entropy(n[i, j], 1.5)


# -------------------------------------------------- classic scores: hand-computed


def _lnfrac(fr):
    return math.log(fr.numerator) - math.log(fr.denominator)


def test_k2_bde_hand_computed():
    f = math.factorial
    # [[1,0],[0,1]]: P(D|Dep) (Y|X part) = (1/2)(1/2); P(D|Ind) (Y part) = 1!1!/3! .
    t = np.array([[1, 0], [0, 1]])
    assert k2_score(t) == pytest.approx(_lnfrac(Fraction(1, 4) / Fraction(1, 6)))
    # [[2,0],[0,1]]: rows 1!2!0!/3! = 1/3 and 1!0!1!/2! = 1/2; column (2,1): 1!2!1!/4! = 1/12.
    t = np.array([[2, 0], [0, 1]])
    dep = Fraction(f(1) * f(2), f(3)) * Fraction(f(1) * f(1), f(2))
    indep = Fraction(f(1) * f(2) * f(1), f(4))
    assert k2_score(t) == pytest.approx(_lnfrac(dep / indep))
    # BDe S=2, [[1,0],[0,1]]: row factor G(1)/G(2) * G(1.5)/G(0.5) = 1/2 each;
    # Y: G(2)/G(4) * G(2)/G(1) * G(2)/G(1) = 1/6.
    assert bde_score([[1, 0], [0, 1]], 2) == pytest.approx(math.log(1.5))
    # BDe S=4, [[1,1],[0,0]]: row 0 G(2)/G(4) * (G(2)/G(1))^2 = 1/6; Y: G(4)/G(6) * (G(3)/G(2))^2 = 4/20.
    assert bde_score([[1, 1], [0, 0]], 4) == pytest.approx(math.log((1 / 6) / (4 / 20)))


def test_mi_bic_aic_g_hand_computed():
    t = np.array([[1, 0], [0, 1]])
    assert mutual_information(t) == pytest.approx(math.log(2))
    assert g_statistic(t) == pytest.approx(4 * math.log(2))
    assert bic_score(t) == pytest.approx(2 * math.log(2) - 0.5 * math.log(2))
    assert aic_score(t) == pytest.approx(2 * math.log(2) - 0.5)
    assert chi_score(t) == pytest.approx(stats.chi2.cdf(4 * math.log(2), 1))
    # Proportional rows: no association at all.
    t = np.array([[2, 4], [1, 2]])
    assert mutual_information(t) == 0.0
    assert chi_score(t) == 0.0
    assert bic_score(t) == pytest.approx(-0.5 * math.log(9))


def test_g_test_matches_scipy():
    rng = np.random.default_rng(3)
    for _ in range(60):
        r, c = rng.integers(2, 5, size=2)
        t = rng.integers(1, 30, size=(r, c))
        g, p, dof, _ = stats.chi2_contingency(t, correction=False, lambda_="log-likelihood")
        assert g_statistic(t) == pytest.approx(g, rel=1e-10)
        assert chi_score(t) == pytest.approx(1 - p, abs=1e-12)


def _cellwise_scores(t, S):
    """K2, BDeu(S) and BIC network-score differences computed cell by cell.

    Structures over (X, Y): G1 = X -> Y and G0 = X, Y unconnected.  Each local
    score is written out cell by cell (sum over parent configurations j and
    states k of lgamma terms; BIC = sum N_jk ln(N_jk/N_j) - 0.5 ln N (r-1) q);
    pgmpy's own scorers are the independent oracle in test_pgmpy_oracle.py.
    """
    r, c = t.shape
    N = int(t.sum())
    nx = [int(sum(t[i])) for i in range(r)]
    ny = [int(sum(t[:, j])) for j in range(c)]

    def k2_local(counts_by_parent):
        out = 0.0
        for cnts in counts_by_parent:
            k = len(cnts)
            out += math.lgamma(k) - math.lgamma(sum(cnts) + k)
            for n in cnts:
                out += math.lgamma(n + 1)
        return out

    def bdeu_local(counts_by_parent, ess):
        q = len(counts_by_parent)
        out = 0.0
        for cnts in counts_by_parent:
            k = len(cnts)
            a = ess / q
            out += math.lgamma(a) - math.lgamma(sum(cnts) + a)
            for n in cnts:
                out += math.lgamma(n + a / k) - math.lgamma(a / k)
        return out

    def bic_local(counts_by_parent):
        q = len(counts_by_parent)
        k = len(counts_by_parent[0])
        out = 0.0
        for cnts in counts_by_parent:
            tot = sum(cnts)
            for n in cnts:
                if n > 0:
                    out += n * math.log(n / tot)
        return out - 0.5 * math.log(N) * (k - 1) * q

    x_local = [nx]
    y_given_x = [list(map(int, t[i])) for i in range(r)]
    y_alone = [ny]
    k2 = (k2_local(x_local) + k2_local(y_given_x)) - (k2_local(x_local) + k2_local(y_alone))
    bdeu = (bdeu_local(x_local, S) + bdeu_local(y_given_x, S)) - (
        bdeu_local(x_local, S) + bdeu_local(y_alone, S)
    )
    bic = (bic_local(x_local) + bic_local(y_given_x)) - (bic_local(x_local) + bic_local(y_alone))
    return k2, bdeu, bic


def test_k2_bdeu_bic_match_cellwise_formulas():
    rng = np.random.default_rng(4)
    for _ in range(200):
        r, c = rng.integers(2, 5, size=2)
        t = rng.integers(0, 15, size=(r, c)) * (rng.random((r, c)) < 0.85)
        if t.sum() == 0:
            continue
        S = float(rng.choice([0.5, 1.0, 2.0, 4.0, 10.0]))
        k2, bdeu, bic = _cellwise_scores(t, S)
        assert k2_score(t) == pytest.approx(k2, abs=1e-9)
        assert bde_score(t, S) == pytest.approx(bdeu, abs=1e-9)
        assert bic_score(t) == pytest.approx(bic, abs=1e-9)


def test_imp_score_matches_slow_definition_and_slide_example():
    rng = np.random.default_rng(5)
    for _ in range(100):
        r, c = rng.integers(2, 5, size=2)
        t = rng.integers(0, 10, size=(r, c))
        if t.sum() == 0:
            continue
        N = t.sum()
        want = bisection_upper_entropy(t.sum(axis=0), 1.0) - sum(
            t[i].sum() / N * bisection_upper_entropy(t[i], 1.0) for i in range(r)
        )
        assert imp_score(t) == pytest.approx(want, abs=1e-9)
    # Slides' tree example (9 cases): IG(X) = IG(Y), but the imprecise gains
    # (bits) are 0.0536, 0.0354 and 0.0583 for X, Y and Z (algorithms.md, section 7).
    X = [1, 1, 0, 0, 0, 0, 0, 0, 0]
    Y = [1, 2, 0, 0, 0, 0, 0, 0, 0]
    Z = [1, 1, 1, 0, 1, 0, 0, 0, 0]
    C = [0, 0, 0, 0, 1, 1, 1, 1, 1]

    def table(v):
        t = np.zeros((max(v) + 1, 2), int)
        for a, b in zip(v, C):
            t[a, b] += 1
        return t

    gains = [imp_score(table(v)) / math.log(2) for v in (X, Y, Z)]
    np.testing.assert_allclose(gains, [0.0535967013, 0.0354402199, 0.0583020502], atol=1e-9)
    ig = [mutual_information(table(v)) / math.log(2) for v in (X, Y)]
    np.testing.assert_allclose(ig, [0.3197600621] * 2, atol=1e-9)


def test_bdmod_matches_slow_formula():
    rng = np.random.default_rng(6)
    for _ in range(100):
        t = rng.integers(0, 8, size=(2, 2))
        N = t.sum()
        S = 2.0
        # BDe (S=2) estimates written out for a 2x2 table.
        pd_ = [[(t[i, j] + 0.5) / (N + 2) for j in range(2)] for i in range(2)]
        px = [(t[i].sum() + 1) / (N + 2) for i in range(2)]
        py = [(t[:, j].sum() + 1) / (N + 2) for j in range(2)]
        cond = [[(t[i, j] + 0.5) / (t[i].sum() + 1) for j in range(2)] for i in range(2)]
        kl_dep = sum(pd_[i][j] * math.log(pd_[i][j] / (px[i] * py[j])) for i in range(2) for j in range(2))
        kl_ind = sum(px[i] * py[j] * math.log(px[i] * py[j] / pd_[i][j]) for i in range(2) for j in range(2))
        c_dep = sum(pd_[i][j] * math.log(cond[i][j] / py[j]) for i in range(2) for j in range(2))
        c_ind = sum(px[i] * py[j] * math.log(py[j] / cond[i][j]) for i in range(2) for j in range(2))
        bf = _cellwise_scores(t, S)[1] if N > 0 else 0.0
        if kl_dep > 1e-12 and kl_ind > 1e-12:
            assert bdmod_score(t, 2) == pytest.approx(bf + math.log(kl_dep) - math.log(kl_ind), abs=1e-9)
        if c_dep > 1e-12 and c_ind > 1e-12:
            assert bdmod_score(t, 2, "classification") == pytest.approx(
                bf + math.log(c_dep) - math.log(c_ind), abs=1e-9
            )


def test_decide_ties_count_as_independence():
    # At N = 3 many tables tie exactly (e.g. K2 of [[1,1],[0,1]] vs its transpose
    # structure); rounding must not turn a tie into dependence.
    t = np.array([[1, 0], [1, 1]])
    assert abs(k2_score(t)) < 1e-12
    assert decide(k2_score(t), n=3) == INDEPENDENCE
    assert decide(np.array([1e-14, -1e-14, 1e-3]), n=3).tolist() == [0, 0, 1]
    assert decide(0.96, 0.95, atol=0) == DEPENDENCE


# ---------------------------------------------------------- the imprecise score


def _lr_scalar(t, S, a0, p, q):
    lg = lambda a, n: math.lgamma(a + n) - math.lgamma(a)  # noqa: E731
    n00, n01, n10, n11 = t
    a1 = S - a0
    return (
        lg(p, n00) + lg(a0 - p, n01) - lg(a0, n00 + n01)
        + lg(q, n10) + lg(a1 - q, n11) - lg(a1, n10 + n11)
        + lg(S, n00 + n01 + n10 + n11) - lg(p + q, n00 + n10) - lg(S - p - q, n01 + n11)
    )


def _brute_interval(t, S, region, rng, starts=6):
    """min/max of ln R by multi-start L-BFGS-B plus a random sample and the corners."""
    d = 2 if region == "box" else 3

    def params(u):
        if region == "box":
            return S / 2, S / 8 + S / 4 * u[0], S / 8 + S / 4 * u[1]
        a0 = S / 4 + S / 2 * u[0]
        return a0, a0 * (0.25 + 0.5 * u[1]), (S - a0) * (0.25 + 0.5 * u[2])

    out = []
    for sign in (1, -1):
        f = lambda u: sign * _lr_scalar(t, S, *params(u))  # noqa: E731
        pts = list(itertools.product([0.0, 1.0], repeat=d)) + list(rng.random((300, d)))
        vals = [f(np.asarray(u)) for u in pts]
        best = min(vals)
        order = np.argsort(vals)[:starts]
        for k in order:
            res = optimize.minimize(f, np.asarray(pts[k]), method="L-BFGS-B", bounds=[(0, 1)] * d)
            best = min(best, res.fun)
        out.append(sign * best)
    return out


def test_imprecise_interval_reference_vectors():
    # algorithms.md section 7 (S = 2, slides' box; max by 2-D search there).
    T = np.array([[[3, 1], [0, 4]], [[2, 2], [1, 5]], [[10, 2], [3, 9]], [[1, 0], [0, 1]]])
    lo, hi = imprecise_score_interval(T, 2.0, "box")
    np.testing.assert_allclose(np.exp(lo), [1.054430008, 0.228215754, 4.329931047, 0.375], rtol=1e-8)
    np.testing.assert_allclose(np.exp(hi), [11.44423041, 0.6803102902, 19.89945258, 3.375], rtol=1e-8)
    rule = np.exp(imprecise_score_rule(T, 2.0))
    np.testing.assert_allclose(rule, [1.054430008, 0.4149504195, 4.329931047, 0.375], rtol=1e-8)
    # [[1,0],[0,1]] by hand: R = 6 a (1-b) / ((a+b)(2-a-b)), a, b in [1/4, 3/4].
    assert np.exp(lo[3]) == pytest.approx(6 * 0.25 * 0.25 / (1.0 * 1.0))


@pytest.mark.parametrize("region", ["box", "full"])
def test_imprecise_interval_equals_brute_force(region):
    rng = np.random.default_rng(7 if region == "box" else 8)
    tables, Ss = [], []
    for _ in range(12):
        n = int(rng.choice([3, 5, 10, 30, 200]))
        tables.append(rng.multinomial(n, rng.dirichlet([1, 1, 1, 1])))
        Ss.append(float(rng.choice([0.5, 2.0, 4.0])))
    for t, S in zip(tables, Ss):
        lo, hi = imprecise_score_interval(np.reshape(t, (2, 2)), S, region)
        blo, bhi = _brute_interval(t, S, region, rng)
        # Never worse than the brute force, and equal to it.
        assert lo <= blo + 1e-9 and hi >= bhi - 1e-9
        assert lo == pytest.approx(blo, abs=1e-7) and hi == pytest.approx(bhi, abs=1e-7)


def test_imprecise_interval_structure():
    rng = np.random.default_rng(9)
    T = rng.multinomial(20, rng.dirichlet([1, 1, 1, 1], size=200)).reshape(-1, 2, 2)
    blo, bhi = imprecise_score_interval(T, 2.0, "box")
    flo, fhi = imprecise_score_interval(T, 2.0, "full")
    rule = imprecise_score_rule(T, 2.0)
    # The full set contains the box; the rule is a point of the box.
    assert np.all(flo <= blo + 1e-10) and np.all(fhi >= bhi - 1e-10)
    assert np.all(rule >= blo - 1e-10) and np.all(rule <= bhi + 1e-10)
    # The BDe score with S is a point of the box (uniform cells S/4 = mid-box).
    bd = bde_score(T, 2.0)
    assert np.all(bd >= blo - 1e-10) and np.all(bd <= bhi + 1e-10)
    # Vectorised = one table at a time; shapes are kept.
    lo1, hi1 = imprecise_score_interval(T[:5], 2.0, "box")
    for i in range(5):
        a, b = imprecise_score_interval(T[i], 2.0, "box")
        assert a.shape == () and a == pytest.approx(lo1[i], abs=1e-12) and b == pytest.approx(hi1[i], abs=1e-12)
    # Transposing rows swaps nothing essential: relabelling X's values keeps the interval.
    lo2, hi2 = imprecise_score_interval(T[:, ::-1, :], 2.0, "box")
    np.testing.assert_allclose(lo2, blo, atol=1e-9)
    np.testing.assert_allclose(hi2, bhi, atol=1e-9)


def test_imprecise_decisions():
    lo = np.array([0.5, -0.2, -1.0, 0.0])
    hi = np.array([2.0, 0.3, -0.1, 0.0])
    assert imprecise_decision(lo, hi).tolist() == [DEPENDENCE, UNDECIDED, INDEPENDENCE, UNDECIDED]
    assert imprecise_decision(lo, prefer_independence=True).tolist() == [1, 0, 0, 0]
    with pytest.raises(ValueError, match="log_upper"):
        imprecise_decision(lo)


def test_rule_general_shape_and_slides_assignment():
    # 2x2 with a tied row: S/4 on both cells; computed by hand for S = 2.
    t = np.array([[1, 1], [3, 0]])
    a = np.array([[0.5, 0.5], [0.25, 0.75]])
    lg = lambda x, n: math.lgamma(x + n) - math.lgamma(x)  # noqa: E731
    dep = sum(lg(a[i, j], t[i, j]) for i in range(2) for j in range(2)) - lg(1, 2) - lg(1, 3)
    indep = lg(0.75, 4) + lg(1.25, 1) - lg(2, 5)
    assert imprecise_score_rule(t, 2.0) == pytest.approx(dep - indep)
    assert imprecise_score_rule(np.ones((3, 2, 4), int), 3.0).shape == (3,)


# ------------------------------------------------------------ estimates, losses


def test_estimates_and_losses():
    t = np.array([[3, 1], [0, 4]])
    pdep = estimate_joint(t, True)
    np.testing.assert_allclose(pdep, (t + 0.5) / 10)
    pind = estimate_joint(t, False)
    np.testing.assert_allclose(pind, np.outer([5 / 10, 5 / 10], [4 / 10, 6 / 10]))
    cdep = estimate_conditional(t, True)
    np.testing.assert_allclose(cdep, (t + 0.5) / (t.sum(1, keepdims=True) + 1))
    np.testing.assert_allclose(estimate_conditional(t, False), [[0.4, 0.6], [0.4, 0.6]])
    P = np.array([[0.3, 0.1], [0.2, 0.4]])
    H = -np.sum(P * np.log(P))
    assert joint_log_loss(P, pdep) == pytest.approx(kl_divergence(P, pdep) + H)
    assert kl_divergence(P, P) == pytest.approx(0.0, abs=1e-15)
    assert conditional_log_loss(P, cdep) == pytest.approx(-np.sum(P * np.log(cdep)))
    # Vectorised decisions select per table.
    both = estimate_joint(np.stack([t, t]), np.array([True, False]))
    np.testing.assert_allclose(both[0], pdep)
    np.testing.assert_allclose(both[1], pind)


# ------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "func", [k2_score, bic_score, aic_score, chi_score, g_statistic, imp_score, mutual_information]
)
def test_bad_counts_raise(func):
    with pytest.raises(ValueError, match="negative"):
        func([[1, -1], [2, 3]])
    with pytest.raises(ValueError, match="non-integer"):
        func([[1, 0.5], [2, 3]])
    with pytest.raises(ValueError, match="NaN"):
        func([[1, np.nan], [2, 3]])
    with pytest.raises(ValueError, match="shape"):
        func([1, 2, 3])
    with pytest.raises(ValueError, match="empty table dimension"):
        func(np.zeros((0, 2)))


def test_bad_parameters_raise():
    t = [[1, 2], [3, 4]]
    for S in (0, -1, np.nan, "2"):
        with pytest.raises(ValueError, match="S"):
            bde_score(t, S)
        with pytest.raises(ValueError, match="S"):
            imprecise_score_interval(t, S)
    with pytest.raises(ValueError, match="s must"):
        upper_entropy([1, 2], 0)
    with pytest.raises(ValueError, match="s must"):
        imp_score(t, -1)
    with pytest.raises(ValueError, match="negative"):
        upper_entropy([1, -2])
    with pytest.raises(ValueError, match="region"):
        imprecise_score_interval(t, 2, "nope")
    with pytest.raises(ValueError, match="2x2"):
        imprecise_score_interval(np.ones((3, 2)), 2)
    with pytest.raises(ValueError, match="kind"):
        bdmod_score(t, 2, "nope")


def test_empty_table_has_defined_result():
    z = np.zeros((2, 2), int)
    for f in (k2_score, bic_score, aic_score, chi_score, imp_score, mutual_information, g_statistic):
        assert f(z) == 0.0
    assert bde_score(z, 2) == 0.0 and bdmod_score(z, 2) == 0.0
    lo, hi = imprecise_score_interval(z, 2.0)
    assert lo == 0.0 and hi == 0.0
    assert imprecise_decision(lo, hi, n=0) == UNDECIDED
    np.testing.assert_allclose(estimate_joint(z, True), 0.25)


# ------------------------------------------------------------- prior odds, BDMOD


def test_prior_odds_decision_and_registry():
    from credal.independence import prior_odds_decision

    T = np.random.default_rng(20).multinomial(12, [0.3, 0.2, 0.1, 0.4], size=300).reshape(-1, 2, 2)
    bf = bde_score(T, 2.0)
    n = T.sum(axis=(1, 2))
    # Odds 1 is the equal-prior rule; odds k moves the threshold to ln k.
    np.testing.assert_array_equal(prior_odds_decision(bf, 1.0, n=n), decide(bf, n=n))
    odds5 = prior_odds_decision(bf, 5.0, n=n)
    np.testing.assert_array_equal(odds5, (bf > math.log(5) + 1e-9 * n).astype(int))
    # A larger prior weight on independence never adds dependence decisions.
    assert np.all(odds5 <= decide(bf, n=n))
    with pytest.raises(ValueError, match="odds"):
        prior_odds_decision(bf, 0.0)


def test_bdmod_coinciding_estimates_give_zero():
    # (N + S/4) proportional to the product of the smoothed margins: both estimates
    # coincide, both losses are 0 mathematically; the score must be 0, not +-inf.
    t = np.array([[10, 2], [31, 7]])
    np.testing.assert_allclose(estimate_joint(t, True), estimate_joint(t, False), rtol=1e-12)
    assert bdmod_score(t, 2.0) == 0.0
    assert bdmod_score(t, 2.0, "classification") == 0.0
    # The estimation and classification versions coincide for BDe estimates.
    T = np.random.default_rng(21).multinomial(30, [0.4, 0.1, 0.2, 0.3], size=200).reshape(-1, 2, 2)
    np.testing.assert_allclose(bdmod_score(T, 2.0), bdmod_score(T, 2.0, "classification"), atol=1e-9)


# ------------------------------------------------------------ readings of IMP


def _h(*p):
    """Entropy (nats) of explicit probabilities."""
    return -sum(x * math.log(x) for x in p if x > 0)


def test_imp_variants_hand_computed_table():
    from credal.independence import imp_variant_score

    # N = [[2, 0], [1, 1]], s = 1: H*(Y) from (3, 1) -> (3, 2)/5; rows (2, 0) -> (2, 1)/3
    # and (1, 1) -> uniform; X's IDM: P(x = 0) in [2/5, 3/5].
    t = np.array([[2, 0], [1, 1]])
    hy, h0, h1 = _h(0.6, 0.4), _h(2 / 3, 1 / 3), math.log(2)
    base = hy - (h0 + h1) / 2
    want = {
        "GE": base,
        "HALF": base,
        "WSMOOTH": base,  # (2 + 1/2)/5 = 1/2: the same weights
        "UPEXP": hy - (2 * h0 + 2 * h1 + max(h0, h1)) / 5,
        "LOEXP": hy - (2 * h0 + 2 * h1 + min(h0, h1)) / 5,
        # s/2 per row: (2, 0) + 1/2 -> (2, 1/2)/(5/2); (1, 1) stays uniform.
        "ROWS": hy - (_h(0.8, 0.2) + h1) / 2,
        # Non-specificity s ln 2 / (n + s) added to every upper entropy.
        "NS": hy + math.log(2) / 5 - (h0 + math.log(2) / 3 + h1 + math.log(2) / 3) / 2,
        # Interior optimum of H(p) + p h0 + (1 - p) h1: ln(e^h0 + e^h1); H*(X) = ln 2.
        "CREDAL": math.log(2) + hy - math.log(math.exp(h0) + math.exp(h1)),
        # Transpose [[2, 1], [0, 1]]: H*(X) from (2, 2) = ln 2, rows (2, 1) and (0, 1)
        # both saturate at ln 2.
        "SWAP": 0.0,
        # Joint IDM: (2, 0, 1, 1) + 1 -> level 1: (2, 1, 1, 1)/5; H*(X) = ln 2.
        "JOINT": math.log(2) + hy - _h(0.4, 0.2, 0.2, 0.2),
    }
    want["SYM"] = base + want["SWAP"]
    for variant, value in want.items():
        assert imp_variant_score(t, variant) == pytest.approx(value, abs=1e-12), variant
    assert imp_score(t) == pytest.approx(base, abs=1e-12)


def test_imp_credal_and_jointcond_match_brute_force():
    from credal.independence import imp_variant_score

    rng = np.random.default_rng(11)
    grid = np.linspace(0.0, 1.0, 2001)
    for _ in range(40):
        r = int(rng.integers(2, 4))
        t = rng.integers(0, 7, size=(r, 2))
        if t.sum() == 0:
            continue
        N, s = t.sum(), float(rng.choice([0.5, 1.0, 2.0]))
        nx = t.sum(axis=1)
        h = upper_entropy(t, s)
        hy = upper_entropy(t.sum(axis=0), s)
        # CREDAL: maximise H(p) + p.h over p_x >= n_x/(N + s) by SLSQP.
        low = nx / (N + s)
        obj = lambda p: -(stats.entropy(p) + p @ h)  # noqa: E731
        res = optimize.minimize(obj, np.full(r, 1.0 / r), method="SLSQP", bounds=[(l, 1) for l in low],
                                constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                                options={"ftol": 1e-14, "maxiter": 500})
        want = upper_entropy(nx, s) + hy - (-res.fun)
        assert imp_variant_score(t, "CREDAL", s) == pytest.approx(want, abs=1e-7)
        if r == 2:
            # JOINTCOND: mass w to row 0, s - w to row 1, each row at its own IDM optimum.
            f = [((nx[0] + w) * (upper_entropy(t[0], w) if w > 0 else _h(*(t[0] / max(nx[0], 1))))
                  + (nx[1] + s - w) * (upper_entropy(t[1], s - w) if w < s else _h(*(t[1] / max(nx[1], 1)))))
                 / (N + s) for w in s * grid]
            got = imp_variant_score(t, "JOINTCOND", s)
            assert got <= hy - max(f) + 1e-12
            assert got == pytest.approx(hy - max(f), abs=1e-6)


def test_imp_variants_agree_with_base_and_order():
    from credal.independence import imp_variant_score

    # Every 2 x 2 table of 12 cases.
    T = np.array([(a, b, c, 12 - a - b - c) for a in range(13) for b in range(13 - a)
                  for c in range(13 - a - b)]).reshape(-1, 2, 2)
    base = imp_score(T)
    # Rows with equal upper entropies: the IDM expectation of X changes nothing.
    h = upper_entropy(T, 1.0)
    same = np.isclose(h[:, 0], h[:, 1], rtol=0, atol=1e-14) & np.all(T.sum(axis=2) > 0, axis=1)
    assert same.any()
    for v in ("UPEXP", "LOEXP", "CREDAL"):
        np.testing.assert_allclose(imp_variant_score(T[same], v), base[same], atol=1e-12)
    # IPD ordering: H*(X) + max E[h] >= max[H(p) + E_p h] >= H(p_maxent) + E_maxent h.
    up, cr, me = (imp_variant_score(T, v) for v in ("UPEXP", "CREDAL", "WMAXENT"))
    assert np.all(up <= cr + 1e-12) and np.all(cr <= me + 1e-12)
    assert np.all(imp_variant_score(T, "LOEXP") >= up - 1e-12)
    # SYM is the sum of the two directions; SWAP is the transposed table.
    np.testing.assert_allclose(imp_variant_score(T, "SYM"), base + imp_score(np.swapaxes(T, 1, 2)), atol=1e-12)
    np.testing.assert_allclose(imp_variant_score(T, "SWAP"), imp_score(np.swapaxes(T, 1, 2)), atol=1e-12)
    # Empty table scores 0 under every variant.
    for v in ("UPEXP", "CREDAL", "JOINT", "JOINTCOND", "NS", "ROWS", "WMAXENT"):
        assert imp_variant_score(np.zeros((2, 2)), v) == 0.0


def test_imp_variant_bad_names():
    tie = np.array([[1, 1], [1, 0]])  # H*(Y) and both rows saturate at ln 2: IMP = 0
    assert imp_score(tie) == pytest.approx(0.0, abs=1e-15)
    strong = np.array([[5, 0], [0, 5]])
    from credal.independence import imp_variant_score

    with pytest.raises(ValueError):
        imp_variant_score(strong, "FOO")
    with pytest.raises(ValueError):
        imp_variant_score(np.ones((3, 2)), "JOINTCOND")
