"""Tests of credal.naive: naive Bayes, NCC / NCC-epsilon and LNCC.

Every dominance computation is checked against an independent slow computation:

* NCC: minimisation of the dominance ratio over the whole credal set (all class
  proportions, every feature cell), by a zooming grid over the two class
  proportions that matter combined with enumeration of the cell vertices, by
  L-BFGS-B over all variables, and by random points of the set;
* LNCC: the profile likelihood of Theorem 2 written out directly and maximised
  on a dense grid refined by a bounded scalar optimiser, and Theorem 2 itself
  (random parameter vectors never exceed the profile, which is attained);
* JNCC2, Weka's NaiveBayes and Weka's imprecise-probability plugin on the
  conformance data sets.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize, minimize_scalar
from scipy.special import xlogy
from sklearn.base import clone

import credal.dominance as dominance
import credal.likelihood as likelihood
import credal.naive as naive
from conftest import expected, read_conformance
from credal import _tables, datasets
from credal.dominance import ncc_log_infimum
from credal.likelihood import LnccPairs, lncc_log_threshold
from credal.naive import LNCC, LOG_TIE, NCC, NaiveBayes

HERE = Path(__file__).resolve().parent
CONF = HERE / "conformance"  # copy of ../shared/conformance
NAMES = ["iris", "vote", "zoo"]


# ---------------------------------------------------------------------------
# conformance files: a small private ARFF reader (nominal attributes only)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module", params=NAMES)
def conformance(request):
    name = request.param
    Xtr, ytr = read_conformance(name, "train")
    Xte, yte = read_conformance(name, "test")
    return name, Xtr, ytr, Xte


def test_ncc_sets_equal_jncc2_on_every_row(conformance):
    name, Xtr, ytr, Xte = conformance
    sets = NCC().fit(Xtr, ytr).predict_set(Xte)
    ref = expected("jncc2_ncc_mar", name, "ncc_").astype(bool)
    assert sets.shape == ref.shape
    np.testing.assert_array_equal(sets, ref)
    ref_weka = expected("weka_ip_ncc_eps0", name, "set_").astype(bool)
    np.testing.assert_array_equal(sets, ref_weka)


def test_nbc_laplace_equals_weka_and_jncc2(conformance):
    name, Xtr, ytr, Xte = conformance
    nb = NaiveBayes(prior="laplace").fit(Xtr, ytr)
    p = nb.predict_proba(Xte)
    np.testing.assert_allclose(p, expected("weka_naivebayes", name, "p"), rtol=0, atol=1e-12)
    np.testing.assert_allclose(p, expected("jncc2_ncc_mar", name, "nbc_p"), rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.exp(nb.predict_log_proba(Xte)), p, rtol=1e-12)


def test_ncc_dominance_matrix_gives_the_same_sets(conformance):
    """The ordered visit of predict_set agrees with testing all ordered pairs."""
    name, Xtr, ytr, Xte = conformance
    for eps in (0.0, 0.01, 0.3):
        model = NCC(epsilon=eps).fit(Xtr, ytr)
        lr = model.dominance_log_ratio(Xte)
        np.testing.assert_array_equal(model.predict_set(Xte), ~np.any(lr > LOG_TIE, axis=1))


# ---------------------------------------------------------------------------
# NCC: reference vectors and brute force over the whole credal set
# ---------------------------------------------------------------------------


def _one(n1, n2, n1j, n2j, *, s=1.0, eps=0.0, K=2, nv=None, o1j=None, o2j=None):
    n1j, n2j = np.atleast_2d(np.asarray(n1j, float)), np.atleast_2d(np.asarray(n2j, float))
    nv = np.full(n1j.shape[1], 2) if nv is None else np.asarray(nv)
    o1j = np.full_like(n1j, n1) if o1j is None else np.atleast_2d(o1j).astype(float)
    o2j = np.full_like(n2j, n2) if o2j is None else np.atleast_2d(o2j).astype(float)
    v, t = ncc_log_infimum([n1], [n2], n1j, n2j, o1j, o2j, np.ones_like(n1j, bool),
                            nv, s, eps, K)
    return np.exp(v[0]), t[0]


@pytest.mark.parametrize(
    "args, kw, inf, tau",
    [
        ((10, 5, [8, 6], [1, 2]), {}, 4.8, 1.0),
        ((10, 5, [8, 6], [4, 4]), {}, 1.152, 1.0),
        ((10, 5, [8, 0], [1, 2]), {}, 0.0, None),
        ((10, 5, [8, 0], [1, 2]), {"eps": 0.05}, 0.0102674727624, None),
        ((3, 5, [3, 2, 3], [2, 4, 2]), {}, 1.56733981527, 0.692238487958),
        ((3, 5, [3, 2, 3], [2, 4, 2]), {"eps": 0.05}, 1.60943499398, 0.711903713166),
        ((3, 0, [2, 3, 1], [0, 0, 0]), {"s": 2.0, "K": 3, "nv": [2, 3, 2]}, 0.324, 5 / 6),
        ((7, 9, [5, 6, 7, 2], [3, 8, 1, 4]), {"eps": 0.1, "K": 4, "nv": [2, 2, 3, 3]},
         3.66243902879, 1.0),
        ((50, 50, [50, 0], [1, 1]), {"eps": 0.05}, 0.165401477119, None),
        ((50, 50, [50, 0], [1, 1]), {"eps": 0.25}, 0.96668851059, None),
    ],
)
def test_ncc_reference_vectors(args, kw, inf, tau):
    got, t = _one(*args, **kw)
    assert got == pytest.approx(inf, rel=1e-10, abs=1e-300)
    if tau is not None:
        assert t == pytest.approx(tau, abs=1e-9)


def test_ncc_epsilon_threshold_of_paper_example_3():
    """c dominates not-c in Example 3 exactly when epsilon > 0.2571202769."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if _one(50, 50, [50, 0], [1, 1], eps=mid)[0] > 1 else (mid, hi)
    assert hi == pytest.approx(0.2571202769, abs=1e-9)


def _random_ncc_problem(rng):
    K = int(rng.integers(2, 5))
    m = int(rng.integers(1, 5))
    nv = rng.integers(1, 4, m)

    def side(n):
        o = np.array([rng.integers(0, n + 1) if rng.random() < 0.3 else n for _ in range(m)])
        nj = np.array([rng.choice([0, oo, rng.integers(0, oo + 1)]) if oo else 0 for oo in o])
        return np.where(nv == 1, o, nj).astype(float), o.astype(float)

    n1, n2 = (float(v) for v in rng.integers(0, 12, 2))
    n1j, o1j = side(int(n1))
    n2j, o2j = side(int(n2))
    return dict(K=K, nv=nv, n1=n1, n2=n2, n1j=n1j, o1j=o1j, n2j=n2j, o2j=o2j,
                mask=rng.random(m) < 0.85, s=float(rng.choice([0.5, 1.0, 2.0])),
                eps=float(rng.choice([0.0, 0.0, 0.05, rng.random()])))


def _ratio(p, a, b, v1, v2):
    """ln P(c', f)/P(c'', f) at t(c') = (1-e) a + e/K, t(c'') = (1-e) b + e/K and
    t(c, f_j) = (1-e) v_j t0(c) + e/(K |F_j|) (v_j = share of t0(c) on f_j).

    a, b: shape (G,); v1, v2: shape (G, m) or broadcastable.
    """
    K, s, e, nv = p["K"], p["s"], p["eps"], p["nv"]
    tp, tpp = (1 - e) * a + e / K, (1 - e) * b + e / K
    t1 = (1 - e) * v1 * a[:, None] + e / (K * nv)
    t2 = (1 - e) * v2 * b[:, None] + e / (K * nv)
    with np.errstate(divide="ignore", invalid="ignore"):
        cls = np.log(p["n1"] + s * tp) - np.log(p["n2"] + s * tpp)
        f = (np.log(p["n1j"] + s * t1) - np.log(p["o1j"] + s * tp[:, None])
             + np.log(p["o2j"] + s * tpp[:, None]) - np.log(p["n2j"] + s * t2))
    val = cls + np.sum(np.where(p["mask"], f, 0.0), axis=1)
    return np.where(np.isnan(val), np.inf, val)


def _vertex_min(p, a, b):
    """Minimum over every vertex of the cell box for fixed class proportions.

    Each cell ``t(c, f_j)`` ranges over ``[e_j, t(c) - (|F_j| - 1) e_j]`` (share
    ``v_j`` of ``t0(c)`` in [0, 1]; fixed at 1 when ``|F_j| = 1``).  The objective
    is a sum of one term per cell, so taking each cell's two end values
    enumerates all vertices.  a, b: shape (G,).
    """
    K, s, e, nv = p["K"], p["s"], p["eps"], p["nv"]
    tp, tpp = (1 - e) * a + e / K, (1 - e) * b + e / K
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.log(p["n1"] + s * tp) - np.log(p["n2"] + s * tpp)
        for j in np.nonzero(p["mask"])[0]:
            ends = (0.0, 1.0) if nv[j] > 1 else (1.0,)
            e_j = e / (K * nv[j])
            num = [np.log(p["n1j"][j] + s * ((1 - e) * v * a + e_j))
                   - np.log(p["o1j"][j] + s * tp) for v in ends]
            den = [np.log(p["o2j"][j] + s * tpp)
                   - np.log(p["n2j"][j] + s * ((1 - e) * v * b + e_j)) for v in ends]
            total = total + np.min(num, axis=0) + np.min(den, axis=0)
    return np.where(np.isnan(total), np.inf, total)


def _brute_ncc(p):
    """min of the log ratio over the credal set: a zooming grid over the class
    proportions (a, b) of c', c'' (a + b <= 1, = 1 with two classes; the other
    classes take the rest) and vertex enumeration over the cells."""
    lo = 1e-12  # the IDM set is open; its closure only adds limits

    def feasible(a, b):
        a = np.clip(a, lo, 1 - lo)
        if p["K"] == 2:
            return a, 1 - a
        b = np.clip(b, lo, 1 - lo)
        tot = np.maximum(a + b, 1.0)
        return a / tot, b / tot

    g = np.linspace(0, 1, 41)
    if p["K"] == 2:
        A, B = feasible(g, None)
    else:
        A, B = feasible(*(x.ravel() for x in np.meshgrid(g, g)))
    vals = _vertex_min(p, A, B)
    i = int(np.argmin(vals))
    a0, b0, best, h = A[i], B[i], vals[i], 1 / 40
    for _ in range(9):
        u = np.linspace(-2 * h, 2 * h, 21)
        if p["K"] == 2:
            A, B = feasible(a0 + u, None)
        else:
            UA, UB = np.meshgrid(u, u)
            A, B = feasible(a0 + UA.ravel(), b0 + UB.ravel())
        vals = _vertex_min(p, A, B)
        i = int(np.argmin(vals))
        if vals[i] <= best:
            a0, b0, best = A[i], B[i], vals[i]
        h /= 10
    return best, (a0, b0)


@pytest.fixture(scope="module")
def ncc_problems():
    rng = np.random.default_rng(20240601)
    probs = [_random_ncc_problem(rng) for _ in range(1500)]
    ours = []
    for p in probs:
        v, _ = ncc_log_infimum([p["n1"]], [p["n2"]], p["n1j"][None], p["n2j"][None],
                                p["o1j"][None], p["o2j"][None], p["mask"][None],
                                p["nv"], p["s"], p["eps"], p["K"])
        ours.append(v[0])
    return probs, np.array(ours)


def test_ncc_infimum_equals_brute_force_over_credal_set(ncc_problems):
    probs, ours = ncc_problems
    assert len(probs) >= 1000
    zero_inf = decided = dominance = 0
    for p, v in zip(probs, ours):
        bf, _ = _brute_ncc(p)
        if np.isneginf(v):
            zero_inf += 1
            assert np.isneginf(bf) or np.exp(bf) < 1e-9, p  # 1e-12 from the open set
            continue
        # ours is attained (brute force reaches it) and nothing in the set is lower
        assert bf >= v - 1e-9, (p, v, bf)
        assert bf <= v + 1e-7, (p, v, bf)
        if abs(v) > 1e-6:
            decided += 1
            assert (v > 0) == (bf > 0)
            dominance += v > 0
    # zero counts, dominance and non-dominance all covered
    assert zero_inf >= 100 and decided >= 1000 and 100 <= dominance <= decided - 100


def test_ncc_infimum_is_a_lower_bound_on_random_points(ncc_problems):
    """Random points of the whole set (cells strictly inside their ranges)."""
    probs, ours = ncc_problems
    rng = np.random.default_rng(7)
    for p, v in zip(probs[:400], ours[:400]):
        m = len(p["nv"])
        w = rng.dirichlet(np.ones(p["K"]), size=300)
        a, b = w[:, 0], w[:, 1]
        v1 = np.where(p["nv"] > 1, rng.random((300, m)), 1.0)
        v2 = np.where(p["nv"] > 1, rng.random((300, m)), 1.0)
        vals = _ratio(p, a, b, v1, v2)
        assert np.all(vals >= v - 1e-9 * (1 + abs(v)))


def test_ncc_infimum_equals_lbfgsb_over_all_variables(ncc_problems):
    """Continuous cells too: L-BFGS-B over (a, b, v1, v2) never beats ours."""
    probs, ours = ncc_problems
    rng = np.random.default_rng(11)
    checked = 0
    for p, v in zip(probs[:100], ours[:100]):
        if not np.isfinite(v):
            continue
        m = len(p["nv"])
        free = p["nv"] > 1

        def unpack(z):
            if p["K"] == 2:
                a, b = z[0], 1 - z[0]
            else:
                a, b = z[0] * z[1], (1 - z[0]) * z[1]
            return (np.array([a]), np.array([b]), np.where(free, z[2:2 + m], 1.0)[None],
                    np.where(free, z[2 + m:], 1.0)[None])

        def fun(z):
            r = _ratio(p, *unpack(z))[0]
            return float(r) if np.isfinite(r) else 1e6

        best = np.inf
        for _ in range(2):
            z0 = rng.uniform(0.05, 0.95, 2 + 2 * m)
            res = minimize(fun, z0, method="L-BFGS-B", bounds=[(1e-12, 1 - 1e-12)] * (2 + 2 * m))
            best = min(best, res.fun)
        assert best >= v - 1e-8 * (1 + abs(v))
        checked += 1
    assert checked >= 50


def test_ncc_objective_is_convex_in_one_dimension():
    """The reduced objective psi(tau) is convex once a feature with two or more
    categories is observed (finite differences); without one it is monotone."""
    rng = np.random.default_rng(3)
    convex = 0
    for _ in range(300):
        p = _random_ncc_problem(rng)
        if not np.any(p["mask"] & (p["nv"] > 1)):
            continue
        convex += 1
        tau = np.linspace(1e-3, 1 - 1e-3, 201)
        m = len(p["nv"])
        free = p["nv"] > 1
        vals = _ratio(p, 1 - tau, tau, np.where(free, 0.0, 1.0) + np.zeros((201, m)),
                      np.ones((201, m)))
        if not np.all(np.isfinite(vals)):
            continue
        second = vals[2:] - 2 * vals[1:-1] + vals[:-2]
        assert np.all(second >= -1e-9 * (1 + np.abs(vals[1:-1])))
    assert convex >= 150


# ---------------------------------------------------------------------------
# LNCC: paper examples, dense grid, Theorem 2
# ---------------------------------------------------------------------------


def _certificate_cases(seed, n_cases=60):
    """Random fitted NCC models (zero counts, missing values, one-category
    features, several s and epsilon) with test rows."""
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        K, m = int(rng.integers(2, 5)), int(rng.integers(1, 7))
        nv = rng.integers(1, 4, m)
        n = int(rng.integers(3, 40))
        X = (rng.random((n, m)) * nv).astype(int)
        X[rng.random((n, m)) < 0.1] = -1
        y = rng.integers(0, K, n)
        X[0], y[0] = nv - 1, K - 1  # every category and the last class declared
        Xt = (rng.random((30, m)) * nv).astype(int)
        Xt[rng.random((30, m)) < 0.1] = -1
        s = float(rng.choice([0.1, 1.0, 2.0, 10.0]))
        eps = float(rng.choice([0.0, 0.0, 0.02, 0.3, 1.0]))
        yield NCC(s=s, epsilon=eps).fit(X, y), Xt


def _certificate_states(model, Xt):
    """State of every (row, a, b) by the certificates, shape (n, K, K)."""
    K = len(model.classes_)
    terms, zero, scale, _ = dominance.ncc_end_terms(
        model.class_count_, model._flat, model.observed_count_,
        model.n_values_, Xt, float(model.s), float(model.epsilon))
    rows, a, b = np.nonzero(np.broadcast_to(~np.eye(K, dtype=bool), (len(Xt), K, K)))
    st_ = dominance.ncc_certify(terms, zero, scale, Xt.shape[1],
                             (1 - model.epsilon) * model.s, a, b, rows)
    out = np.zeros((len(Xt), K, K), dtype=np.int8)
    out[rows, a, b] = st_
    return out


def test_ncc_certificates_agree_with_the_exact_minimum():
    """A certified pair has the sign of the exact infimum (safeguarded Newton,
    itself checked against brute force above) and of a dense scan of the convex
    objective; zero counts (infimum 0) are certified as non-dominance."""
    decided = total = zeros = 0
    for model, Xt in _certificate_cases(7):
        lr = model.dominance_log_ratio(Xt)
        state = _certificate_states(model, Xt)
        K = len(model.classes_)
        off = ~np.eye(K, dtype=bool)[None]
        assert np.all(lr[state == 1] > 0)
        assert np.all(lr[state == -1] <= 0)
        decided += int(np.sum(state != 0))
        total += int(np.sum(np.broadcast_to(off, state.shape)))
        zeros += int(np.sum(np.isneginf(lr) & (state == -1)))
        # brute force: the objective on 2001 points of [0, 1], for the certified pairs
        cnt, obs = model._gather(Xt)
        i, a, b = np.nonzero((state != 0) & ~np.isneginf(lr))
        tau = np.linspace(0.0, 1.0, 2001)
        eps, s, w = model.epsilon, model.s, 1 - model.epsilon
        kap = eps / K
        nv = model.n_values_.astype(float)
        msk = obs[i] & (nv > 1)[None]
        tp = w * (1 - tau)[None, :] + kap
        tpp = w * tau[None, :] + kap
        n1, n2 = model.class_count_[a][:, None], model.class_count_[b][:, None]
        val = np.log(n1 + s * tp) - np.log(n2 + s * tpp)
        with np.errstate(divide="ignore", invalid="ignore"):
            for j in range(Xt.shape[1]):
                e_j = eps / (K * nv[j])
                n1j, n2j = cnt[i, a, j][:, None], cnt[i, b, j][:, None]
                o1j = model.observed_count_[a, j][:, None]
                o2j = model.observed_count_[b, j][:, None]
                term = (np.log(n1j + s * e_j) - np.log(o1j + s * tp)
                        + np.log(o2j + s * tpp) - np.log(n2j + s * (tpp - (kap - e_j))))
                term = np.where((n2j == o2j) & (eps == 0),
                                np.log(n1j + s * e_j) - np.log(o1j + s * tp), term)
                val = val + np.where(msk[:, j:j + 1], term, 0.0)
        scan = np.nanmin(val, axis=1)
        st_ = state[i, a, b]
        # the scan includes both end points, where non-dominance is certified
        assert np.all(scan[st_ == -1] < 0)
        assert np.all(scan[st_ == 1] > 0)
    assert zeros > 0
    assert decided > 0.8 * total  # the certificates do decide most pairs


def _sets_without_certificates(model, codes):
    """NCC sets of ``codes`` from the exact minimisation alone (certificates off)."""
    old = naive._CERTIFY
    naive._CERTIFY = False
    try:
        return model._predict_set_codes(codes)
    finally:
        naive._CERTIFY = old


def test_ncc_certified_sets_on_random_models_and_fused_nbc():
    """Certified predict_set equals the exact-only one; the naive Bayes
    log-likelihood accumulated with the certificates equals _joint_log_likelihood
    up to the order of the additions."""
    for model, Xt in _certificate_cases(11, 40):
        got = model._predict_set_codes(Xt)
        np.testing.assert_array_equal(got, _sets_without_certificates(model, Xt))
        lt = model._log_tables("perks", float(model.s))
        *_, jll = dominance.ncc_end_terms(
            model.class_count_, model._flat, model.observed_count_,
            model.n_values_, Xt, float(model.s), float(model.epsilon), lt)
        np.testing.assert_allclose(jll, model._joint_log_likelihood(Xt, "perks", model.s),
                                   rtol=1e-13, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_table_sum_equals_the_feature_by_feature_sum(seed):
    """_joint_sum of _joint_tables (features grouped) = init + one row per observed
    feature, added one feature at a time; -inf and +inf columns stay infinite;
    features wider than a group table are a group of their own."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 40))
    nv = rng.choice([1, 2, 3, 5, 17, 300], size=m, p=[.1, .4, .2, .15, .1, .05])
    off = np.concatenate([[0], np.cumsum(nv)]).astype(np.int64)
    ncol = int(rng.integers(1, 9))
    tab = rng.normal(size=(int(off[-1]), ncol)) * 10.0
    tab[rng.random(tab.shape) < 0.05] = 0.0
    neg = rng.random(tab.shape) < 0.03
    tab[neg & (np.arange(ncol) % 2 == 0)] = -np.inf  # one sign per column
    tab[neg & (np.arange(ncol) % 2 == 1)] = np.inf
    init = rng.normal(size=ncol)
    n = int(rng.integers(0, 500))
    codes = (rng.random((n, m)) * nv).astype(np.int64)
    codes[rng.random((n, m)) < 0.2] = -1
    got = _tables.joint_sum(init, _tables.joint_tables(tab, nv), codes)
    ref = np.broadcast_to(init, (n, ncol)).copy()
    for j in range(m):
        rows = codes[:, j] >= 0
        ref[rows] += tab[off[j] + codes[rows, j]]
    assert got.shape == (n, ncol)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(ref))
    np.testing.assert_array_equal(np.sign(got[np.isinf(got)]), np.sign(ref[np.isinf(ref)]))
    fin = np.isfinite(ref)
    np.testing.assert_allclose(got[fin], ref[fin], rtol=1e-12, atol=1e-11)


def test_lncc_side_merges_equal_poles_like_a_dictionary():
    """_Side's merged (W, C): per problem, the sum of weights of each distinct
    pole, zero sums dropped, poles increasing (a plain dictionary as reference)."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        q, m = int(rng.integers(1, 20)), int(rng.integers(0, 7))
        n = rng.integers(0, 8, q).astype(float)
        oj = np.minimum(rng.integers(0, 8, (q, m)), n[:, None]).astype(float)
        nj = np.floor(oj * rng.random((q, m)) * rng.choice([0, 1, 1], (q, m)))
        k = (rng.random((q, m)) < 0.8) & (nj != oj)
        side = likelihood._Side(n, nj, oj, k)
        for r in range(q):
            ref = {n[r]: 1.0}
            ref[0.0] = ref.get(0.0, 0.0) - 1.0
            for j in np.nonzero(k[r])[0]:
                ref[nj[r, j]] = ref.get(nj[r, j], 0.0) + 1.0
                ref[oj[r, j]] = ref.get(oj[r, j], 0.0) - 1.0
            ref = sorted((c, w) for c, w in ref.items() if w != 0)
            got = [(c, w) for c, w in zip(side.C[r], side.W[r]) if w != 0]
            assert got == ref
            np.testing.assert_array_equal(side.Wp[r] + side.Wn[r], side.W[r])
            assert np.all(side.Wp[r] >= 0) and np.all(side.Wn[r] <= 0)


def _lncc_one(n1, n1j, n2, n2j, grid=None):
    n1j, n2j = np.atleast_2d(np.asarray(n1j, float)), np.atleast_2d(np.asarray(n2j, float))
    out = lncc_log_threshold([n1], n1j, np.full_like(n1j, n1), [n2], n2j,
                              np.full_like(n2j, n2), np.ones_like(n1j, bool), grid=grid)
    return np.exp(out[0][0]), np.exp(out[1][0])


def _example_data(counts_pos, counts_neg, m):
    """Two classes, binary features; ``nj[j]`` rows of the class have feature j = 0
    (the value of the instance to classify), the others 1."""
    X, y = [], []
    for label, (n, nj) in enumerate((counts_pos, counts_neg)):
        rows = np.ones((n, m), dtype=int)
        for j, k in enumerate(nj):
            rows[:k, j] = 0
        X.append(rows)
        y += [label] * n
    return np.vstack(X), np.array(y)


def test_lncc_example_2_threshold_is_3_6_over_5_5():
    X, y = _example_data((6, [5]), (2, [1]), 1)
    model = LNCC().fit(X, y)
    assert model.category_count_[0][:, 0].tolist() == [5, 1]
    thr = model.dominance_threshold(np.array([[0]]))[0]
    assert thr[0, 1] == pytest.approx(3**6 / 5**5, rel=1e-12)
    assert thr[1, 0] == 1.0  # not-c never dominates
    # the paper: no dominance at alpha = 0.2, dominance at 0.75
    assert LNCC(alpha=0.2).fit(X, y).predict_set(np.array([[0]])).tolist() == [[True, True]]
    assert LNCC(alpha=0.75).fit(X, y).predict_set(np.array([[0]])).tolist() == [[True, False]]


def test_lncc_example_3_exact_threshold():
    """n(c)=50, n(c,f1)=50, n(c,f2)=0; n(~c)=50, n(~c,f1)=n(~c,f2)=1.

    With x = 1/2 + t and y = 1 - x the profile is l' = 1, p' = x,
    l'' = (1+y)^2/(50+y)^50, p'' = (1+y)^2/(50+y), so the exact threshold is
    max(L(a), L(t0))/L(t_hat) with x0 the root of 2x^2 - 55x + 4 = 0.
    """
    X, y = _example_data((50, [50, 0]), (50, [1, 1]), 2)
    model = LNCC().fit(X, y)
    assert model.category_count_[0][:, 0].tolist() == [50, 1]
    assert model.category_count_[1][:, 0].tolist() == [0, 1]

    def lnL(x):
        yy = 1 - x
        return 2 * np.log1p(yy) - 50 * np.log(50 + yy) + np.log(x + (1 + yy) ** 2 / (50 + yy))

    x0 = (55 - np.sqrt(2993)) / 4
    res = minimize_scalar(lambda x: -lnL(x), bounds=(x0, 1.0), method="bounded",
                          options={"xatol": 1e-12})
    assert res.x - 0.5 == pytest.approx(23 / 48, abs=1e-6)
    top = lnL(23 / 48 + 0.5)
    assert top >= -res.fun - 1e-12
    exact = np.exp(max(lnL(0.0), lnL(x0)) - top)
    assert exact == pytest.approx(0.2117763992, abs=1e-10)
    thr = model.dominance_threshold(np.array([[0, 0]]))[0]
    assert thr[0, 1] == pytest.approx(exact, rel=1e-10)
    # the paper's "alpha >= 0.22" is its 250-point grid rounded up: the grid's
    # switch is lower than the exact threshold, and alpha = 0.2114 separates them
    # the paper's grid: 250 points on [a, b] = [-1/2, 3/2], i.e. x in [0, 2]
    xs = np.linspace(0.0, 2.0, 250)
    with np.errstate(divide="ignore", invalid="ignore"):
        yy = 1 - xs
        lg = np.log(xs) + np.log(50 + yy) - 2 * np.log(np.abs(1 + yy))
        lL = np.array([lnL(x) if x < 2 else -np.inf for x in xs])
    ref_grid = np.exp(np.max(lL[lg <= 0]) - np.max(lL))
    grid_thr = LNCC(grid=250).fit(X, y).dominance_threshold(np.array([[0, 0]]))[0, 0, 1]
    assert grid_thr == pytest.approx(ref_grid, rel=1e-10)
    assert grid_thr == pytest.approx(0.2109, abs=5e-5)  # the notes' value
    assert grid_thr < exact < 0.22
    between = 0.5 * (grid_thr + exact)
    assert LNCC(alpha=between).fit(X, y).predict_set(np.array([[0, 0]])).tolist() == [
        [True, True]]
    assert LNCC(alpha=between, grid=250).fit(X, y).predict_set(np.array([[0, 0]])).tolist() == [
        [True, False]]


@pytest.mark.parametrize(
    "n1, n1j, n2, n2j, t0, alpha",
    [
        (20, [15, 12, 18], 10, [3, 6, 2], -5.974291929, 2.499209339e-4),
        (8, [0, 5], 12, [6, 7], 2.37903248, 1.0),
        (5, [5, 5], 3, [0, 3], -2.5, 0.03125),
    ],
)
def test_lncc_reference_vectors(n1, n1j, n2, n2j, t0, alpha):
    n1j_, n2j_ = np.atleast_2d(np.asarray(n1j, float)), np.atleast_2d(np.asarray(n2j, float))
    pairs = LnccPairs([n1], n1j_, np.full_like(n1j_, n1), [n2], n2j_, np.full_like(n2j_, n2),
                       np.ones_like(n1j_, bool))
    la, _, x0 = pairs.log_threshold()
    assert x0[0] - 0.5 == pytest.approx(t0, abs=1e-8)
    assert np.exp(la[0]) == pytest.approx(alpha, rel=1e-8)


def _random_lncc_problem(rng, m_max=5, n_max=25):
    m = int(rng.integers(1, m_max + 1))

    def side():
        n = int(rng.integers(0, n_max))
        o = np.array([rng.integers(0, n + 1) if rng.random() < 0.3 else n for _ in range(m)])
        nj = np.array([rng.choice([0, oo, rng.integers(0, oo + 1)]) if oo else 0 for oo in o])
        return float(n), nj.astype(float), o.astype(float)

    n1, n1j, o1j = side()
    n2, n2j, o2j = side()
    return n1, n1j, o1j, n2, n2j, o2j, rng.random(m) < 0.85


def _direct_profile(prob):
    """Theorem 2 written out: ln g(t) and ln L(t) on [a, b] (available-case counts)."""
    n1, n1j, o1j, n2, n2j, o2j, mask = prob
    k1, k2 = mask & (n1j != o1j), mask & (n2j != o2j)
    a = -0.5 - min([n1] + list(n1j[k1]))
    b = 0.5 + min([n2] + list(n2j[k2]))

    def parts(t):
        t = np.atleast_1d(np.asarray(t, float))
        x, y = 0.5 + t[:, None], 0.5 - t[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            lp1 = np.log(n1 + x[:, 0]) + np.sum(np.where(k1, np.log(n1j + x) - np.log(o1j + x), 0), 1)
            lp2 = np.log(n2 + y[:, 0]) + np.sum(np.where(k2, np.log(n2j + y) - np.log(o2j + y), 0), 1)
            ll = (xlogy(n1, n1 + x[:, 0]) + xlogy(n2, n2 + y[:, 0])
                  + np.sum(np.where(k1, xlogy(n1j, n1j + x) - xlogy(o1j, o1j + x), 0), 1)
                  + np.sum(np.where(k2, xlogy(n2j, n2j + y) - xlogy(o2j, o2j + y), 0), 1))
        return lp1 - lp2, ll + np.logaddexp(lp1, lp2)

    return a, b, parts


def _dense_threshold(prob, n=4001):
    """(ln alpha* of c' over c'', same of c'' over c') by dense grid + refinement."""
    a, b, parts = _direct_profile(prob)
    t0 = brentq(lambda t: parts(t)[0][0], np.nextafter(a, b), np.nextafter(b, a),
                xtol=1e-14, rtol=1e-15)

    def sup(lo, hi):
        T = np.linspace(lo, hi, n)
        v = parts(T)[1]
        i = int(np.argmax(v))
        best = v[i]
        lo2, hi2 = T[max(i - 1, 0)], T[min(i + 1, n - 1)]
        if hi2 > lo2:
            r = minimize_scalar(lambda t: -parts(t)[1][0], bounds=(lo2, hi2), method="bounded",
                                options={"xatol": 1e-13})
            best = max(best, -r.fun)
        return best

    left, right = sup(a, t0), sup(t0, b)
    top = max(left, right)
    return left - top, right - top


def test_lncc_threshold_equals_dense_grid_search():
    rng = np.random.default_rng(2024)
    probs = [_random_lncc_problem(rng) for _ in range(300)]
    m = max(len(p[1]) for p in probs)

    def pad(i, fill):
        return np.array([np.concatenate([p[i], np.full(m - len(p[i]), fill)]) for p in probs])

    n1 = np.array([p[0] for p in probs])
    n2 = np.array([p[3] for p in probs])
    fwd, rev = lncc_log_threshold(n1, pad(1, 0), pad(2, 0), n2, pad(4, 0), pad(5, 0),
                                   pad(6, False).astype(bool))
    # mirrored problems give the reverse direction
    rev2, fwd2 = lncc_log_threshold(n2, pad(4, 0), pad(5, 0), n1, pad(1, 0), pad(2, 0),
                                     pad(6, False).astype(bool))
    np.testing.assert_allclose(np.exp(fwd), np.exp(fwd2), atol=1e-10)
    np.testing.assert_allclose(np.exp(rev), np.exp(rev2), atol=1e-10)
    worst = 0.0
    for i, p in enumerate(probs):
        lf, lr = _dense_threshold(p)
        worst = max(worst, abs(np.exp(fwd[i]) - np.exp(lf)), abs(np.exp(rev[i]) - np.exp(lr)))
    assert worst < 1e-8
    assert np.all(fwd <= 0) and np.all(rev <= 0)
    assert np.all(np.maximum(fwd, rev) == 0)  # one side holds the maximum


@pytest.mark.parametrize("scale", [1.0, 0.3, 1e-3])
def test_lncc_compiled_threshold_equals_the_numpy_one(scale):
    """lncc_log_threshold (compiled, credal._compiled_likelihood) against
    LnccPairs.log_threshold (numpy, vectorised over problems): the same algorithm, equal up
    to the rounding of sums and logarithms, on random problems with missing features and
    (scale < 1) fractional counts."""
    rng = np.random.default_rng(31)
    probs = [_random_lncc_problem(rng) for _ in range(400)]
    m = max(len(p[1]) for p in probs)

    def pad(i, fill):
        return np.array([np.concatenate([p[i], np.full(m - len(p[i]), fill)]) for p in probs])

    args = (scale * np.array([p[0] for p in probs]), scale * pad(1, 0), scale * pad(2, 0),
            scale * np.array([p[3] for p in probs]), scale * pad(4, 0), scale * pad(5, 0),
            pad(6, False).astype(bool))
    fwd, rev = lncc_log_threshold(*args)
    ref_f, ref_r, _ = LnccPairs(*args).log_threshold()
    np.testing.assert_allclose(fwd, ref_f, rtol=0, atol=1e-11)
    np.testing.assert_allclose(rev, ref_r, rtol=0, atol=1e-11)
    assert np.array_equal(np.isneginf(fwd), np.isneginf(ref_f))


def test_lncc_grid_option_is_the_papers_method():
    """grid=n evaluates the profile on n equally spaced points of [a, b]: equal
    to a direct implementation, and close to the exact threshold."""
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(300):
        p = _random_lncc_problem(rng)
        a, b, parts = _direct_profile(p)
        lg, lL = parts(np.linspace(a, b, 250))
        ref_fwd = np.max(lL[lg <= 0]) - np.max(lL)
        ref_rev = np.max(lL[lg >= 0]) - np.max(lL)
        args = (np.array([p[0]]), p[1][None], p[2][None], np.array([p[3]]), p[4][None],
                p[5][None], p[6][None])
        fwd, rev = lncc_log_threshold(*args, grid=250)
        assert np.exp(fwd[0]) == pytest.approx(np.exp(ref_fwd), rel=1e-9, abs=1e-300)
        assert np.exp(rev[0]) == pytest.approx(np.exp(ref_rev), rel=1e-9, abs=1e-300)
        exact = np.exp(lncc_log_threshold(*args)[0][0])
        worst = max(worst, abs(np.exp(fwd[0]) - exact))
    assert worst < 0.05


def test_lncc_profile_is_theorem_2():
    """Random naive models never beat the profile, which theta_hat(t) attains.

    Two classes, binary features, complete data: lik = l_d (pi' + pi'').
    """
    rng = np.random.default_rng(9)
    for _ in range(40):
        m = int(rng.integers(1, 4))
        n = int(rng.integers(4, 30))
        X = rng.integers(0, 2, (n, m))
        y = rng.integers(0, 2, n)
        if len(np.unique(y)) < 2:
            continue
        n1, n2 = float(np.sum(y == 0)), float(np.sum(y == 1))
        n1j = np.sum((X == 0) & (y[:, None] == 0), axis=0).astype(float)
        n2j = np.sum((X == 0) & (y[:, None] == 1), axis=0).astype(float)
        pairs = LnccPairs([n1], n1j[None], np.full((1, m), n1), [n2], n2j[None],
                           np.full((1, m), n2), np.ones((1, m), bool))

        def log_lik(tc, t1, t2):
            ld = (xlogy(n1, tc) + xlogy(n2, 1 - tc)
                  + np.sum(xlogy(n1j, t1) + xlogy(n1 - n1j, 1 - t1)
                           + xlogy(n2j, t2) + xlogy(n2 - n2j, 1 - t2), axis=-1))
            lp1 = np.log(tc) + np.sum(np.log(t1), axis=-1)
            lp2 = np.log(1 - tc) + np.sum(np.log(t2), axis=-1)
            return ld + np.logaddexp(lp1, lp2), lp1 - lp2

        # theta_hat(t) of the paper's proof, at interior points t
        ts = np.linspace(pairs.x_lo[0], pairs.x_hi[0], 9)[1:-1] - 0.5
        consts = []
        for t in ts:
            x = 0.5 + t
            tc = (n1 + x) / (n + 1)
            t1 = np.where(n1j == n1, 1.0, (n1j + x) / (n1 + x))
            t2 = np.where(n2j == n2, 1.0, (n2j + 1 - x) / (n2 + 1 - x))
            ll, lr = log_lik(tc, t1, t2)
            assert lr == pytest.approx(pairs.log_g(np.array([0]), np.array([x]))[0], abs=1e-9)
            consts.append(ll - pairs.log_L(np.array([0]), np.array([x]))[0])
        assert np.ptp(consts) < 1e-8
        c = float(np.mean(consts))
        tc = rng.uniform(0.01, 0.99, 100)
        t1 = rng.uniform(0.01, 0.99, (100, m))
        t2 = rng.uniform(0.01, 0.99, (100, m))
        ll, lr = log_lik(tc, t1, t2)
        for v, r in zip(ll, lr):
            x = brentq(lambda xx: pairs.log_g(np.array([0]), np.array([xx]))[0] - r,
                       np.nextafter(pairs.x_lo[0], 1), np.nextafter(pairs.x_hi[0], 0),
                       xtol=1e-13)
            assert v <= pairs.log_L(np.array([0]), np.array([x]))[0] + c + 1e-8


def test_estimators_count_available_cases_like_the_brute_force():
    """Estimator plumbing on incomplete data: counts taken by hand, thresholds
    and infima from the independent slow computations above."""
    rng = np.random.default_rng(17)
    n, m, K = 40, 3, 3
    nv = np.array([2, 3, 1])
    X = (rng.random((n, m)) * nv).astype(int)
    X[rng.random((n, m)) < 0.25] = -1
    y = rng.integers(0, K, n)
    Xt = (rng.random((6, m)) * nv).astype(int)
    Xt[1, 0] = -1
    lncc = LNCC().fit(_frame(X, nv), _labels(y, K))
    ncc = NCC(s=2.0, epsilon=0.1).fit(_frame(X, nv), _labels(y, K))
    thr = lncc.dominance_threshold(_frame(Xt, nv))
    lr = ncc.dominance_log_ratio(_frame(Xt, nv))
    for i, row in enumerate(Xt):
        obs = row >= 0
        for a in range(K):
            for b in range(K):
                if a == b:
                    continue
                cnt = {}
                for c, key in ((a, 1), (b, 2)):
                    rows = y == c
                    cnt[f"n{key}"] = float(rows.sum())
                    cnt[f"n{key}j"] = np.array([np.sum(rows & (X[:, j] == row[j]))
                                                for j in range(m)], float)
                    cnt[f"o{key}j"] = np.array([np.sum(rows & (X[:, j] >= 0))
                                                for j in range(m)], float)
                prob = (cnt["n1"], cnt["n1j"], cnt["o1j"], cnt["n2"], cnt["n2j"], cnt["o2j"], obs)
                assert thr[i, a, b] == pytest.approx(np.exp(_dense_threshold(prob)[0]),
                                                     abs=1e-8)
                p = dict(cnt, K=K, nv=nv, mask=obs, s=2.0, eps=0.1)
                assert lr[i, a, b] == pytest.approx(_brute_ncc(p)[0], abs=1e-7)


# ---------------------------------------------------------------------------
# estimators: properties (hypothesis)
# ---------------------------------------------------------------------------


def _frame(X, nv):
    return pd.DataFrame({
        f"f{j}": pd.Categorical.from_codes(X[:, j], categories=list(range(int(nv[j]))))
        for j in range(X.shape[1])
    }, index=pd.RangeIndex(X.shape[0]))


def _labels(y, K):
    return pd.Series(pd.Categorical.from_codes(y, categories=[f"c{k}" for k in range(K)]))


@st.composite
def small_data(draw, min_classes=1, max_classes=4, max_features=4):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(1, 25))
    m = draw(st.integers(1, max_features))  # 0 features: an error since issue 16
    K = draw(st.integers(min_classes, max_classes))
    miss = draw(st.sampled_from([0.0, 0.0, 0.25]))
    rng = np.random.default_rng(seed)
    nv = rng.integers(1, 4, m)
    X = (rng.random((n, m)) * nv).astype(int)
    X[rng.random((n, m)) < miss] = -1
    y = rng.integers(0, K, n)
    Xt = (rng.random((8, m)) * nv).astype(int)
    Xt[rng.random((8, m)) < miss] = -1
    return _frame(X, nv), _labels(y, K), _frame(Xt, nv)


PROPS = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPS
@given(small_data(), st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from([0.0, 0.05, 0.5]))
def test_nbc_class_in_ncc_set_and_predict_is_nbc(data, s, eps):
    X, y, Xt = data
    model = NCC(s=s, epsilon=eps).fit(X, y)
    sets = model.predict_set(Xt)
    nbc = NaiveBayes(prior="perks", s=s).fit(X, y)
    top = np.argmax(nbc.predict_log_proba(Xt), axis=1)
    assert sets.shape == (len(Xt), len(model.classes_))
    assert np.all(sets[np.arange(len(Xt)), top])
    np.testing.assert_array_equal(model.predict(Xt), nbc.predict(Xt))
    np.testing.assert_array_equal(sets, ~np.any(model.dominance_log_ratio(Xt) > LOG_TIE, axis=1))


@PROPS
@given(small_data(min_classes=2))
def test_ncc_eps_sets_shrink_and_reach_nbc(data):
    X, y, Xt = data
    prev = None
    for eps in (0.0, 0.01, 0.2, 0.6, 1.0):
        sets = NCC(epsilon=eps).fit(X, y).predict_set(Xt)
        if prev is not None:
            assert np.all(sets <= prev)
        prev = sets
    lp = NaiveBayes().fit(X, y).predict_log_proba(Xt)
    margin = np.sort(lp, axis=1)
    unique = margin[:, -1] - margin[:, -2] > 1e-9
    np.testing.assert_array_equal(prev[unique], (lp == lp.max(axis=1, keepdims=True))[unique])


@PROPS
@given(small_data(min_classes=2))
def test_lncc_sets_shrink_as_alpha_grows(data):
    X, y, Xt = data
    prev = None
    for alpha in (0.0, 0.1, 0.4, 0.75, 0.95, 1.0):
        model = LNCC(alpha=alpha).fit(X, y)
        sets = model.predict_set(Xt)
        assert np.all(sets.any(axis=1))
        if alpha == 0.0:
            assert np.all(sets)
        if prev is not None:
            assert np.all(sets <= prev)
        prev = sets
        pred = model.predict(Xt)
        assert np.all(sets[np.arange(len(Xt)), np.searchsorted(model.classes_, pred)])


@PROPS
@given(small_data(min_classes=2), st.sampled_from([0.3, 1.0, 4.0]),
       st.sampled_from([0.0, 0.05, 1.0]))
def test_ncc_sets_with_and_without_certificates_are_equal(data, s, eps):
    X, y, Xt = data
    model = NCC(s=s, epsilon=eps).fit(X, y)
    codes = model._predict_input(Xt)
    got = model._predict_set_codes(codes)
    np.testing.assert_array_equal(got, _sets_without_certificates(model, codes))
    np.testing.assert_array_equal(got, ~np.any(model.dominance_log_ratio(Xt) > LOG_TIE, axis=1))


def _permute(X, y, Xt, perm_c, perm_f, K):
    inv = np.argsort(perm_c)
    y2 = _labels(perm_c[y.cat.codes.to_numpy()], K)
    cols = list(X.columns)
    return X[[cols[i] for i in perm_f]], y2, Xt[[cols[i] for i in perm_f]], inv


@PROPS
@given(small_data(min_classes=2), st.integers(0, 1000))
def test_permuting_classes_and_features_permutes_outputs(data, seed):
    X, y, Xt = data
    K = len(y.cat.categories)
    rng = np.random.default_rng(seed)
    perm_c, perm_f = rng.permutation(K), rng.permutation(X.shape[1])
    X2, y2, Xt2, _ = _permute(X, y, Xt, perm_c, perm_f, K)
    for est in (NCC(), NCC(epsilon=0.1), LNCC(), LNCC(alpha=0.3)):
        a = clone(est).fit(X, y).predict_set(Xt)
        b = clone(est).fit(X2, y2).predict_set(Xt2)
        np.testing.assert_array_equal(b[:, perm_c], a)
    pa = NaiveBayes().fit(X, y).predict_proba(Xt)
    pb = NaiveBayes().fit(X2, y2).predict_proba(Xt2)
    np.testing.assert_allclose(pb[:, perm_c], pa, rtol=1e-10, atol=1e-15)


@PROPS
@given(small_data())
def test_duplicated_training_set_equals_doubled_counts(data):
    X, y, Xt = data
    XX = pd.concat([X, X], ignore_index=True)
    yy = pd.concat([y, y], ignore_index=True)
    w = np.full(len(X), 2.0)
    for est in (NCC(), NCC(epsilon=0.2), LNCC(), LNCC(alpha=0.5)):
        a = clone(est).fit(XX, yy)
        b = clone(est).fit(X, y, sample_weight=w)
        np.testing.assert_array_equal(a.class_count_, b.class_count_)
        np.testing.assert_array_equal(a.predict_set(Xt), b.predict_set(Xt))
    np.testing.assert_allclose(NaiveBayes().fit(XX, yy).predict_proba(Xt),
                               NaiveBayes().fit(X, y, sample_weight=w).predict_proba(Xt),
                               rtol=1e-12)


@PROPS
@given(small_data(max_features=3), st.integers(0, 2))
def test_missing_test_feature_drops_out(data, j):
    X, y, Xt = data
    if X.shape[1] < 2:  # the model without feature j needs one left (issue 16)
        return
    j = j % X.shape[1]
    col = X.columns[j]
    Xt = Xt.copy()
    Xt[col] = pd.Categorical.from_codes(np.full(len(Xt), -1), categories=X[col].cat.categories)
    rest = [c for c in X.columns if c != col]
    for est in (NCC(), LNCC(), NCC(epsilon=0.3)):
        a = clone(est).fit(X, y).predict_set(Xt)
        b = clone(est).fit(X[rest], y).predict_set(Xt[rest])
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(NaiveBayes().fit(X, y).predict_proba(Xt),
                               NaiveBayes().fit(X[rest], y).predict_proba(Xt[rest]), rtol=1e-12)


@settings(max_examples=15, deadline=None)
@given(small_data(min_classes=2))
def test_results_do_not_depend_on_chunk_size(data):
    X, y, Xt = data
    ref = [LNCC().fit(X, y).predict_set(Xt), NCC().fit(X, y).predict_set(Xt),
           NCC().fit(X, y).dominance_log_ratio(Xt)]
    old = naive._CHUNK_ELEMENTS
    naive._CHUNK_ELEMENTS = 1
    try:
        got = [LNCC().fit(X, y).predict_set(Xt), NCC().fit(X, y).predict_set(Xt),
               NCC().fit(X, y).dominance_log_ratio(Xt)]
    finally:
        naive._CHUNK_ELEMENTS = old
    for a, b in zip(ref, got):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------
# estimators: behaviour and bad input
# ---------------------------------------------------------------------------


def test_perks_and_laplace_formulas():
    X = np.array([[0, 1], [1, 1], [0, 0], [2, -1], [0, 1]])
    y = np.array(["a", "a", "b", "b", "b"])
    x = np.array([[0, 1]])
    # Perks, s = 2: P(c) = (n + s/K)/(N + s), P(f|c) = (n(c,f) + s/(K|F|))/(n_j(c) + s/K)
    pa = (2 + 1) / 7 * (1 + 2 / 6) / (2 + 1) * (2 + 2 / 4) / (2 + 1)
    pb = (3 + 1) / 7 * (2 + 2 / 6) / (3 + 1) * (1 + 2 / 4) / (2 + 1)
    got = NaiveBayes(prior="perks", s=2.0).fit(X, y).predict_proba(x)[0]
    np.testing.assert_allclose(got, [pa / (pa + pb), pb / (pa + pb)], rtol=1e-13)
    # Laplace, s = 1: (n + 1)/(N + K), (n(c,f) + 1)/(n_j(c) + |F|)
    la = 3 / 7 * 2 / 5 * 3 / 4
    lb = 4 / 7 * 3 / 6 * 2 / 4
    got = NaiveBayes(prior="laplace").fit(X, y).predict_proba(x)[0]
    np.testing.assert_allclose(got, [la / (la + lb), lb / (la + lb)], rtol=1e-13)


def test_single_class_and_unobserved_classes():
    X = np.array([[0, 1], [1, 0], [1, 1]])
    for est in (NCC(), LNCC(), NCC(epsilon=0.5)):
        model = est.fit(X, ["only"] * 3)
        assert model.predict_set(X).tolist() == [[True]] * 3
        assert model.predict(X).tolist() == ["only"] * 3
    assert NaiveBayes().fit(X, ["only"] * 3).predict_proba(X).tolist() == [[1.0]] * 3
    # a declared class never seen in training is kept and cannot dominate
    y = pd.Series(pd.Categorical(["a", "a", "b"], categories=["a", "b", "z"]))
    for est in (NCC(), LNCC()):
        model = est.fit(X, y)
        assert list(model.classes_) == ["a", "b", "z"]
        lr = NCC().fit(X, y).dominance_log_ratio(X)
        assert np.all(lr[:, 2, :2] < 0)
    p = NaiveBayes().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)


def test_dataframe_with_unobserved_categories_and_string_labels():
    X = pd.DataFrame({
        "u": pd.Categorical(["x", "y", "x", "x"], categories=["x", "y", "w"]),
        "v": pd.Categorical(["p", None, "q", "q"], categories=["p", "q"]),
    })
    y = np.array(["no", "yes", "yes", "no"])
    Xt = pd.DataFrame({
        "u": pd.Categorical(["w", "y"], categories=["x", "y", "w"]),
        "v": pd.Categorical([None, "p"], categories=["p", "q"]),
    })
    for est in (NaiveBayes(), NCC(), LNCC()):
        model = est.fit(X, y)
        assert list(model.classes_) == ["no", "yes"]
        assert model.n_values_.tolist() == [3, 2]
        out = model.predict(Xt)
        assert set(out) <= {"no", "yes"}
    # an unseen category has zero counts: NCC keeps both classes, NBC is uniform
    assert NCC().fit(X, y).predict_set(Xt)[0].tolist() == [True, True]


def test_clone_and_params():
    est = LNCC(alpha=0.3, grid=250)
    assert clone(est).get_params() == {"alpha": 0.3, "grid": 250}
    assert NCC(s=2.0, epsilon=0.1).get_params() == {"epsilon": 0.1, "epsilon_model": "contamination", "s": 2.0}
    assert NaiveBayes(prior="laplace", s=1.0).get_params() == {"prior": "laplace", "s": 1.0}
    X = np.array([[0], [1]])
    for e in (NaiveBayes(), NCC(), LNCC()):
        assert e.fit(X, [0, 1]) is e


@pytest.mark.parametrize(
    "est, word",
    [
        (NaiveBayes(s=0.0), "s"),
        (NaiveBayes(s=-1.0), "s"),
        (NaiveBayes(prior="uniform"), "prior"),
        (NCC(s=0.0), "s"),
        (NCC(epsilon=-0.1), "epsilon"),
        (NCC(epsilon=1.5), "epsilon"),
        (LNCC(alpha=-0.01), "alpha"),
        (LNCC(alpha=1.01), "alpha"),
        (LNCC(grid=1), "grid"),
        (LNCC(grid=2.5), "grid"),
    ],
)
def test_bad_parameters_raise_at_fit(est, word):
    with pytest.raises(ValueError, match=word):
        est.fit(np.array([[0], [1]]), [0, 1])


def test_bad_input_raises():
    X = np.array([[0, 1], [1, 0]])
    for est in (NaiveBayes(), NCC(), LNCC()):
        with pytest.raises(ValueError, match="empty|no class label"):
            est.fit(np.empty((0, 2), dtype=int), [])
        model = est.fit(X, [0, 1])
        with pytest.raises(ValueError, match="column 1"):
            getattr(model, "predict_set", model.predict)(np.array([[0, 2]]))
        with pytest.raises(ValueError, match="sample_weight"):
            est.fit(X, [0, 1], sample_weight=[1.0, -1.0])
    frame = pd.DataFrame({"a": pd.Categorical(["x", "y"]), "b": pd.Categorical(["p", "q"])})
    model = NCC().fit(frame, [0, 1])
    other = pd.DataFrame({"a": pd.Categorical(["x"], categories=["x", "y"]),
                          "b": pd.Categorical(["r"], categories=["p", "q", "r"])})
    with pytest.raises(ValueError, match="'b'"):
        model.predict_set(other)


def test_lncc_source_components_with_a_cycle(monkeypatch):
    """A dominance cycle keeps its classes (never an empty set)."""
    model = LNCC(alpha=0.5).fit(np.array([[0], [1], [0]]), [0, 1, 2])
    cyc = np.zeros((1, 3, 3), dtype=bool)
    cyc[0] = [[0, 1, 0], [0, 0, 1], [1, 0, 0]]  # 0>1, 1>2, 2>0
    monkeypatch.setattr(model, "_dominance_codes", lambda codes: cyc.copy())
    assert model.predict_set(np.array([[0]])).tolist() == [[True, True, True]]
    chain = np.zeros((1, 3, 3), dtype=bool)
    chain[0] = [[0, 1, 1], [0, 0, 1], [0, 0, 0]]  # 0 > 1 > 2
    monkeypatch.setattr(model, "_dominance_codes", lambda codes: chain.copy())
    assert model.predict_set(np.array([[0]])).tolist() == [[True, False, False]]


def _random_lncc_model(rng):
    """Random LNCC fit (K = 2..5, missing values, zero counts, some weights) and test codes."""
    K, m, n = int(rng.integers(2, 6)), int(rng.integers(1, 7)), int(rng.integers(3, 60))
    nv = rng.integers(1, 5, m)
    X = (rng.random((n, m)) * nv).astype(int)
    if rng.random() < 0.5:
        X[rng.random((n, m)) < 0.2] = -1
    y = rng.integers(0, K, n)
    w = rng.integers(0, 4, n).astype(float) if rng.random() < 0.2 else None
    if w is not None:
        w[0] = 1.0
    Xt = (rng.random((40, m)) * nv).astype(int)
    Xt[rng.random((40, m)) < 0.15] = -1
    model = LNCC().fit(_frame(X, nv), _labels(y, K), sample_weight=w)
    return model, np.unique(Xt, axis=0)


def _certificate_problems(model, codes, levels, n_near, near_floor=-np.inf):
    """Exact thresholds, end terms and the (row, a < b) problems of ``codes``, with
    ``levels`` extended by levels within 1e-6 relative of ``n_near`` thresholds."""
    lt = model._compute_log_threshold(codes)
    terms, scale = likelihood.lncc_end_terms(model.class_count_, model._flat,
                                         model.observed_count_, model._offsets, codes)
    a, b = model._pair_index(ordered=False)
    B, P = codes.shape[0], a.size
    rows, aa, bb = np.repeat(np.arange(B), P), np.tile(a, B), np.tile(b, B)
    v = lt[rows, aa, bb]
    near = v[(v < 0) & (v > near_floor)][:n_near]
    levels = list(levels) + list(np.exp(near) * (1 + 1e-6)) + list(np.exp(near) * (1 - 1e-6))
    return lt, terms, scale, rows, aa, bb, levels


def test_lncc_certificates_agree_with_the_exact_threshold():
    """Every decision of _lncc_certify is the exact one, also at levels within
    1e-6 relative of alpha*, and most pairs are decided."""
    rng = np.random.default_rng(99)
    decided = total = 0
    for _ in range(150):
        model, codes = _random_lncc_model(rng)
        lt, terms, scale, rows, aa, bb, levels = _certificate_problems(
            model, codes, [0.05, 0.5, 0.75, 0.95, 0.999, 1.0], 3)
        for alpha in levels:
            la = np.log(alpha)
            fwd, rev, _, _ = likelihood.lncc_certify(terms, scale, codes.shape[1], la, aa, bb, rows)
            for st, x, z in ((fwd, aa, bb), (rev, bb, aa)):
                exact = la > lt[rows, x, z] + LOG_TIE
                assert np.all(exact[st == 1]) and not np.any(exact[st == -1])
                if alpha in (0.05, 0.5, 0.75, 0.95, 0.999):
                    decided += np.count_nonzero(st)
                    total += st.size
    assert decided > 0.7 * total


def _large_lncc_model(rng):
    """LNCC fit on a few hundred rows of a random naive model (so that the root x0
    of g = 1 often lies outside [0, 1]), sometimes with missing values; test codes."""
    K, m = int(rng.integers(2, 4)), int(rng.integers(3, 25))
    n = int(rng.integers(150, 1500))
    nv = rng.integers(2, 4, m)
    y = rng.integers(0, K, n)
    theta = [rng.dirichlet(np.ones(int(v)), size=K) for v in nv]
    X = np.column_stack([
        np.minimum((rng.random(n)[:, None] > np.cumsum(theta[j][y], axis=1)).sum(axis=1),
                   nv[j] - 1) for j in range(m)])
    if rng.random() < 0.3:
        X[rng.random((n, m)) < 0.1] = -1
    Xt = np.column_stack([rng.integers(0, int(v), 300) for v in nv])
    model = LNCC().fit(_frame(X, nv), _labels(y, K))
    return model, np.unique(Xt, axis=0)


def test_lncc_outside_certificate_agrees_with_the_exact_threshold():
    """Pairs whose x0 lies outside [0, 1] and that the first certificates leave open:
    every decision of _lncc_certify_outside is the exact one (also at levels within
    1e-6 relative of alpha*), it decides most of them, and L increases left of 0 as
    the certificate assumes."""
    rng = np.random.default_rng(17)
    decided = total = 0
    for _ in range(25):
        model, codes = _large_lncc_model(rng)
        lt, terms, scale, rows, aa, bb, levels = _certificate_problems(
            model, codes, [0.35, 0.55, 0.75, 0.95], 2, near_floor=-3.0)
        for alpha in levels:
            la = np.log(alpha)
            fwd, rev, bounds, tol = likelihood.lncc_certify(terms, scale, codes.shape[1], la,
                                                        aa, bb, rows)
            left = (fwd == 0) & (bounds[0] > tol)
            right = (rev == 0) & (bounds[1] < -tol)
            go = np.nonzero(left | right)[0]
            if not go.size:
                continue
            st = model._outside_states(codes, rows[go], aa[go], bb[go], right[go],
                                       bounds[:, go], np.full(go.size, tol), la)
            # the direction decided: a over b where x0 < 0, b over a where x0 > 1
            x = np.where(right[go], bb[go], aa[go])
            z = np.where(right[go], aa[go], bb[go])
            exact = la > lt[rows[go], x, z] + LOG_TIE
            assert np.all(exact[st == 1]) and not np.any(exact[st == -1])
            # where x0 is outside [0, 1], the other direction is never a dominance
            w = np.where(right[go], aa[go], bb[go])
            assert not np.any(la > lt[rows[go], w, np.where(right[go], bb[go], aa[go])]
                              + LOG_TIE)
            if alpha in (0.35, 0.55, 0.75, 0.95):
                decided += np.count_nonzero(st)
                total += st.size
        # L increases on [x_lo, 0] (checked on a grid, for the pairs with x0 < 0)
        cnt, obs = model._gather(codes[rows])
        k = np.arange(rows.size)
        cc, oc = model.class_count_, model.observed_count_
        pairs = LnccPairs(cc[aa], cnt[k, aa], oc[aa], cc[bb], cnt[k, bb], oc[bb], obs)
        grid = pairs.x_lo[:, None] * np.linspace(0.999, 0.0, 60)[None, :]
        lL = pairs.log_L(np.arange(pairs.q), grid)
        assert np.all(np.diff(lL, axis=1) >= -1e-9 * (1 + np.abs(lL[:, 1:])))
    assert total > 50
    assert decided > 0.8 * total


def test_lncc_certified_sets_equal_the_exact_thresholds_on_kr_vs_kp():
    """On kr-vs-kp (36 features, counts in the hundreds, where the second-stage
    certificate does most of the work) the certified sets at four levels equal the
    sets from the exact thresholds of every pair."""
    ds = datasets.load("kr_vs_kp")
    X, y = ds.X.iloc[::2], ds.y.iloc[::2]
    model = LNCC().fit(X, y)
    codes = model._predict_input(ds.X.iloc[1::4])
    codes = _tables.unique_rows(codes, model.n_values_)[0]
    lt = model._compute_log_threshold(codes)
    eye = np.eye(2, dtype=bool)
    for alpha in (0.35, 0.55, 0.75, 0.95):
        model.set_params(alpha=alpha)
        want = (np.log(alpha) > lt + LOG_TIE) & ~eye
        np.testing.assert_array_equal(model._dominance_codes(codes), want)


def test_lncc_dominance_from_certificates_equals_the_full_thresholds():
    """Certificates + partial thresholds decide exactly as the thresholds of every pair."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        model, codes = _random_lncc_model(rng)
        lt = model._compute_log_threshold(codes)
        eye = np.eye(len(model.classes_), dtype=bool)
        for alpha in (0.05, 0.5, 0.75, 0.95, 0.999, 1.0, 0.0):
            model.set_params(alpha=alpha)
            with np.errstate(divide="ignore"):
                want = (np.log(alpha) > lt + LOG_TIE) & ~eye
            np.testing.assert_array_equal(model._dominance_codes(codes), want)


# ---------------------------------------------------------------------------
# prediction on distinct rows; no state shared between calls or models
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n, m, nv", [(5000, 10, 2), (60, 4, 3), (300, 40, 2), (1, 3, 2),
                                      (0, 3, 2), (7, 0, 2)])
def test_unique_rows_rebuild_the_codes(n, m, nv):
    rng = np.random.default_rng(n + m)
    codes = rng.integers(-1, nv, (n, m))
    rows, inv = _tables.unique_rows(codes, np.full(m, nv))
    np.testing.assert_array_equal(rows[inv], codes)
    if m and n and m * np.log2(nv + 1) < 62:  # a key fits: rows are distinct
        assert len(rows) == len(np.unique(codes, axis=0))


def _dup_data(seed, n_test=400):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (30, 5))
    y = rng.integers(0, 3, 30)
    X[:3], y[:3] = 1, [0, 1, 2]  # every category and class observed
    Xt = rng.integers(-1, 2, (n_test, 5))  # many repeated rows, some missing values
    return X, y, Xt


@pytest.mark.parametrize("est", [NCC(epsilon=0.1), LNCC(alpha=0.6), LNCC(alpha=0.6, grid=50)])
def test_distinct_rows_do_not_change_results(est):
    X, y, Xt = _dup_data(3)
    model = clone(est).fit(X, y)
    direct = model._predict_set_codes(Xt)  # every row, no search for repeats
    sets = model.predict_set(Xt)
    np.testing.assert_array_equal(sets, direct)
    jll = model._joint_log_likelihood(Xt, "perks", model._nbc_s())
    want = model.classes_[np.argmax(np.where(direct, jll, -np.inf), axis=1)]
    np.testing.assert_array_equal(model.predict(Xt), want)
    out = model.predict_outputs(Xt)  # what the engine asks: one pass, same answers
    np.testing.assert_array_equal(out.sets, direct)
    np.testing.assert_array_equal(out.pred, want)
    assert out.proba is None
    sets[:] = False  # callers get their own array
    np.testing.assert_array_equal(model.predict_set(Xt), direct)


def test_no_module_level_memo():
    """Nothing is remembered between calls: the module keeps no cache of results."""
    assert not any(k.lower().startswith("_memo") for k in vars(naive))
    X, y, Xt = _dup_data(5)
    X2, y2, _ = _dup_data(6)
    for a in (0.2, 0.5, 0.9):
        m1, m2 = LNCC(alpha=a).fit(X, y), LNCC(alpha=a).fit(X2, y2)
        first = m1.predict_set(Xt)
        m2.predict_set(Xt)  # another model on the same rows in between
        np.testing.assert_array_equal(m1.predict_set(Xt), first)
        np.testing.assert_array_equal(LNCC(alpha=a).fit(X, y).predict_set(Xt), first)
    # the thresholds do not depend on the instances' order
    perm = np.random.default_rng(0).permutation(len(Xt))
    thr = LNCC().fit(X, y).dominance_threshold(Xt)
    np.testing.assert_array_equal(LNCC().fit(X, y).dominance_threshold(Xt[perm]), thr[perm])


def test_tables_derived_from_the_counts_follow_refits_and_parameters():
    """The end tables a fitted NCC/LNCC keeps between calls are rebuilt after a new
    fit and depend on s and epsilon: a refitted or re-parameterised model predicts
    what a fresh one does."""
    rng = np.random.default_rng(8)
    nv = np.array([2, 3, 2, 4])
    data = [((rng.random((80, 4)) * nv).astype(int), rng.integers(0, 3, 80)) for _ in range(2)]
    Xt = (rng.random((50, 4)) * nv).astype(int)
    for make, params in ((NCC, [{"s": 1.0, "epsilon": 0.0}, {"s": 3.0, "epsilon": 0.0},
                                {"s": 1.0, "epsilon": 0.3}]),
                         (LNCC, [{"alpha": 0.75}, {"alpha": 0.3}])):
        model = make()
        for X, y in data:
            model.fit(_frame(X, nv), _labels(y, 3))
            for p in params:
                model.set_params(**p)
                fresh = make(**p).fit(_frame(X, nv), _labels(y, 3))
                got = model.predict_set(Xt)
                np.testing.assert_array_equal(got, fresh.predict_set(Xt))


# ---------------------------------------------------------------------------
# NCC(epsilon_model="simple"): the Weka IP plugin's NCC-eps (issue 14)
# ---------------------------------------------------------------------------


def test_ncc_simple_epsilon_model_equals_weka_ip_plugin(conformance):
    """The plugin's NCC-eps with eps = 0.01 ("simple" model) on every test row; the
    default contamination model is a different credal set (it differs on iris and zoo)."""
    name, Xtr, ytr, Xte = conformance
    ref = expected("weka_ip_ncc_eps0.01", name, "set_").astype(bool)
    simple = NCC(epsilon=0.01, epsilon_model="simple").fit(Xtr, ytr)
    np.testing.assert_array_equal(simple.predict_set(Xte), ref)
    lr = simple.dominance_log_ratio(Xte)
    np.testing.assert_array_equal(~np.any(lr > LOG_TIE, axis=1), ref)
    contaminated = NCC(epsilon=0.01).fit(Xtr, ytr).predict_set(Xte)
    if name != "vote":
        assert np.any(contaminated != ref)


def _simple_log_ratio(p, x):
    """The plugin's objective written out: ln of
    (n1 + s - x)/(n2 + x) * prod_j (n1j + s eps)/(o1j + s - x) * (o2j + x)/(n2j + x)
    at x = s t(c''), over the observed features with two or more categories (a
    one-category cell equals its class share: its factor is 1)."""
    s, e = p["s"], p["eps"]
    x = np.atleast_1d(x)[:, None]
    use = p["mask"] & (p["nv"] > 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (np.log(p["n1j"] + s * e) - np.log(p["o1j"] + s - x)
             + np.log(p["o2j"] + x) - np.log(p["n2j"] + x))
        val = (np.log(p["n1"] + s - x[:, 0]) - np.log(p["n2"] + x[:, 0])
               + np.sum(np.where(use, f, 0.0), axis=1))
    return np.where(np.isnan(val), np.inf, val)


@pytest.fixture(scope="module")
def simple_problems():
    rng = np.random.default_rng(20250114)
    probs = []
    for _ in range(1500):
        p = _random_ncc_problem(rng)
        p["eps"] = float(rng.choice([0.0, 0.01, 0.1, 0.3, 0.5, rng.random() / 2]))
        probs.append(p)
    ours = np.array([
        ncc_log_infimum([p["n1"]], [p["n2"]], p["n1j"][None], p["n2j"][None],
                         p["o1j"][None], p["o2j"][None], p["mask"][None], p["nv"],
                         p["s"], p["eps"], p["K"], "simple")[0][0] for p in probs])
    return probs, ours


def test_ncc_simple_infimum_equals_grid_and_scipy(simple_problems):
    """Exactness of the "simple" mode: a dense grid over x in [s eps, s (1 - eps)]
    refined by scipy's bounded scalar minimiser reaches our infimum and never goes
    below it."""
    probs, ours = simple_problems
    zero_inf = decided = dominance = 0
    for p, v in zip(probs, ours):
        lo, hi = p["s"] * p["eps"], p["s"] * (1 - p["eps"])
        grid = np.linspace(lo, hi, 4001)
        if lo == 0:
            grid[0] = 1e-300  # the IDM set is open at eps = 0
        vals = _simple_log_ratio(p, grid)
        i = int(np.argmin(vals))
        best = vals[i]
        if hi > lo and np.isfinite(best):
            a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
            r = minimize_scalar(lambda t: float(_simple_log_ratio(p, t)[0]), bounds=(a, b),
                                method="bounded", options={"xatol": 1e-13})
            best = min(best, r.fun)
        if np.isneginf(v):
            zero_inf += 1
            assert np.isneginf(best) or best < -20, (p, best)
            continue
        assert best >= v - 1e-9 * (1 + abs(v)), (p, v, best)
        assert best <= v + 1e-8 * (1 + abs(v)), (p, v, best)
        if abs(v) > 1e-6:
            decided += 1
            dominance += v > 0
    assert zero_inf >= 50 and decided >= 1000 and 100 <= dominance <= decided - 100


def test_ncc_simple_at_eps_zero_is_the_ncc_and_checks_its_parameters():
    rng = np.random.default_rng(5)
    X, y = rng.integers(0, 3, (60, 4)), rng.integers(0, 3, 60)
    Xt = rng.integers(0, 3, (40, 4))
    np.testing.assert_array_equal(NCC(epsilon_model="simple").fit(X, y).predict_set(Xt),
                                  NCC().fit(X, y).predict_set(Xt))
    # the simple model's class share runs over [eps, 1 - eps]: eps = 0.5 is the
    # Perks-free point 1/2, beyond it the interval is empty
    NCC(epsilon=0.5, epsilon_model="simple").fit(X, y).predict_set(Xt)
    with pytest.raises(ValueError, match="epsilon"):
        NCC(epsilon=0.6, epsilon_model="simple").fit(X, y)
    with pytest.raises(ValueError, match="epsilon_model must be"):
        NCC(epsilon_model="plugin").fit(X, y)
    assert NCC(epsilon_model="simple").get_params()["epsilon_model"] == "simple"
    assert NCC().get_params()["epsilon_model"] == "contamination"


def test_ncc_simple_certified_sets_equal_the_exact_ones():
    """The certificates (end values and tangents of the convex objective) take the
    same decisions as the exact minimisation in the "simple" mode too, and the
    ordered visit of predict_set agrees with testing every ordered pair."""
    rng = np.random.default_rng(17)
    for _ in range(40):
        K, m = int(rng.integers(2, 5)), int(rng.integers(1, 7))
        nv = rng.integers(1, 4, m)
        n = int(rng.integers(3, 40))
        X = (rng.random((n, m)) * nv).astype(int)
        X[rng.random((n, m)) < 0.1] = -1
        y = rng.integers(0, K, n)
        X[0], y[0] = nv - 1, K - 1
        Xt = (rng.random((30, m)) * nv).astype(int)
        Xt[rng.random((30, m)) < 0.1] = -1
        model = NCC(s=float(rng.choice([0.1, 1.0, 2.0, 10.0])),
                    epsilon=float(rng.choice([0.0, 0.01, 0.2, 0.5])),
                    epsilon_model="simple").fit(X, y)
        got = model._predict_set_codes(Xt)
        np.testing.assert_array_equal(got, _sets_without_certificates(model, Xt))
        lr = model.dominance_log_ratio(Xt)
        np.testing.assert_array_equal(got, ~np.any(lr > LOG_TIE, axis=1))
        # every ordered pair, not only the sets: certified dominance is the exact one
        np.testing.assert_array_equal(model._all_pairs(Xt), lr > LOG_TIE)


def test_ncc_simple_certificates_decide_most_pairs_as_the_exact_test():
    """On larger random models (many rows, ties in the counts) the certificates of
    every ordered pair take the exact minimisation's decision and decide most pairs."""
    rng = np.random.default_rng(23)
    decided = total = 0
    for _ in range(12):
        K, m = int(rng.integers(2, 6)), int(rng.integers(1, 9))
        nv = rng.integers(2, 5, m)
        n = int(rng.integers(20, 400))
        X = (rng.random((n, m)) * nv).astype(int)
        y = np.minimum((X[:, 0] + rng.integers(0, 2, n)) % K, K - 1)
        y[:K] = np.arange(K)
        Xt = (rng.random((200, m)) * nv).astype(int)
        Xt[rng.random((200, m)) < 0.05] = -1
        model = NCC(s=float(rng.choice([0.5, 1.0, 2.0])),
                    epsilon=float(rng.choice([0.01, 0.1, 0.3])),
                    epsilon_model="simple").fit(X, y)
        lr = model.dominance_log_ratio(Xt)
        np.testing.assert_array_equal(model._all_pairs(Xt), lr > LOG_TIE)
        tables = dominance.ncc_end_tables(model.class_count_, model._flat, model.observed_count_,
                                          nv, model.s, model.epsilon, model="simple")
        terms, zero, scale, _ = dominance.ncc_end_apply(tables, Xt)
        a, b = np.arange(K)[:, None], np.arange(K)[None, :]
        state = dominance.ncc_certify(terms, zero, scale, m, (1 - 2 * model.epsilon) * model.s, a, b,
                            np.arange(len(Xt))[:, None, None])
        off = ~np.eye(K, dtype=bool)
        decided += int(np.sum((state != 0) & off))
        total += int(off.sum()) * len(Xt)
    assert decided > 0.8 * total
