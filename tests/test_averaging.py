"""Tests for credal.averaging: MANB (Dash & Cooper) and CMA (Corani & Zaffalon).

The reference computations here are deliberately independent of the library:
family marginal likelihoods are scored with ``math.lgamma`` from raw codes, and
model averaging is done by explicit enumeration of all 2**N naive structures
(and, for CMA, of all 2**N vertices of the box of inclusion priors, checked in
turn against scipy's bounded optimiser).
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.special import logsumexp
from sklearn.base import clone

import credal.averaging as averaging
from credal.averaging import CMA, ModelAveragedNaiveBayes
from conftest import read_conformance

CONF = Path(__file__).resolve().parent / "conformance"  # copy of ../shared/conformance


def _conformance(name):
    Xtr, ytr = read_conformance(name, "train")
    Xte, yte = read_conformance(name, "test")
    return Xtr, ytr, Xte, yte


def _expected(ref, name, prefix):
    e = pd.read_csv(CONF / "expected" / ref / f"{name}.csv")
    return e, e[[c for c in e.columns if c.startswith(prefix)]].to_numpy()


# --------------------------------------------------------------------------------------
# Brute force: explicit enumeration of the 2**N naive structures
# --------------------------------------------------------------------------------------


def _cells(prior, alpha, K, r):
    """(class cell, conditional cell, marginal cell) Dirichlet counts."""
    if prior == "k2":
        return alpha, alpha, alpha
    return alpha / K, alpha / (K * r), alpha / r


def _family(child, r, parent, q, a):
    """Log BD marginal likelihood and posterior-mean CPT (q, r) from raw codes.

    Rows where the child is missing are skipped (available-case counts).
    """
    obs = child >= 0
    ch = child[obs]
    pa = parent[obs] if parent is not None else np.zeros(len(ch), dtype=int)
    lml, cpt = 0.0, np.empty((q, r))
    for j in range(q):
        cnt = [int(np.sum((pa == j) & (ch == k))) for k in range(r)]
        tot = sum(cnt)
        lml += math.lgamma(r * a) - math.lgamma(r * a + tot)
        lml += sum(math.lgamma(a + c) - math.lgamma(a) for c in cnt)
        cpt[j] = [(a + c) / (r * a + tot) for c in cnt]
    return lml, cpt


class BruteForce:
    """Bayesian model averaging over every naive structure, by enumeration."""

    def __init__(self, X, y, r, K, prior="k2", alpha=1.0):
        self.N = X.shape[1]
        self.K = K
        ac, _, _ = _cells(prior, alpha, K, 2)
        _, self.log_class = _family(y, K, None, 1, ac)
        self.log_class = np.log(self.log_class[0])
        self.sC, self.s0, self.tC, self.t0 = [], [], [], []
        for i in range(self.N):
            _, acond, amarg = _cells(prior, alpha, K, r[i])
            lc, tc = _family(X[:, i], r[i], y, K, acond)
            l0, t0 = _family(X[:, i], r[i], None, 1, amarg)
            self.sC.append(lc)
            self.s0.append(l0)
            self.tC.append(tc)
            self.t0.append(t0[0])
        self.sC, self.s0 = np.array(self.sC), np.array(self.s0)
        self.S = np.array(list(itertools.product([False, True], repeat=self.N)), dtype=bool)
        if self.N == 0:
            self.S = np.zeros((1, 0), dtype=bool)

    def structure_log_posterior(self, incl):
        incl = np.broadcast_to(np.asarray(incl, dtype=float), (self.N,))
        with np.errstate(divide="ignore"):
            lp = np.where(self.S, np.log(incl), np.log1p(-incl)).sum(axis=1)
        lw = lp + np.where(self.S, self.sC, self.s0).sum(axis=1)
        return lw - logsumexp(lw)

    def log_posterior(self, x, incl):
        """log P(c | x, D), shape (K,), averaging over all 2**N structures."""
        LC = np.zeros((self.N, self.K))
        L0 = np.zeros(self.N)
        for i in range(self.N):
            if x[i] >= 0:  # a missing feature sums out to 1 in every structure
                LC[i] = np.log(self.tC[i][:, x[i]])
                L0[i] = np.log(self.t0[i][x[i]])
        joint = self.log_class + np.where(self.S[:, :, None], LC[None], L0[None, :, None]).sum(1)
        lw = self.structure_log_posterior(incl)
        with np.errstate(invalid="ignore"):
            tot = logsumexp(lw[:, None] + joint, axis=0)
        return tot - logsumexp(tot)

    def map_log_posterior(self, x, incl):
        s = self.S[np.argmax(self.structure_log_posterior(incl))]
        out = self.log_class.copy()
        for i in range(self.N):
            if x[i] >= 0:
                out += np.log(self.tC[i][:, x[i]]) if s[i] else np.log(self.t0[i][x[i]])
        return out - logsumexp(out)


def _random_problem(rng, n_feat, K, n_rows, r_max=4, p_missing=0.0):
    r = rng.integers(2, r_max + 1, size=n_feat)
    y = rng.integers(0, K, size=n_rows)
    y[:K] = np.arange(K)[: min(K, n_rows)]  # every class observed (classes_ from labels)
    # class-dependent feature distributions so that some arcs are probable
    X = np.empty((n_rows, n_feat), dtype=np.int64)
    for i in range(n_feat):
        tab = rng.dirichlet(np.full(r[i], rng.choice([0.3, 1.0, 5.0])), size=K)
        u = rng.random(n_rows)
        X[:, i] = (u[:, None] > np.cumsum(tab[y], axis=1)[:, :-1]).sum(1)
    X[:, :][rng.random(X.shape) < p_missing] = -1
    X[0] = np.maximum(X[0], 0)
    X[1, :] = r - 1  # every category observed at least once for int-code input
    return X, y, r


def _frame(X, r):
    return pd.DataFrame(
        {f"f{i}": pd.Categorical.from_codes(X[:, i], categories=list(range(r[i])))
         for i in range(X.shape[1])}
    )


def _y(y, K):
    return pd.Series(pd.Categorical.from_codes(y, categories=list(range(K))))


# --------------------------------------------------------------------------------------
# MANB
# --------------------------------------------------------------------------------------


def test_reference_vector_from_notes():
    """The worked example of the shared algorithm notes (item 5), K2, uniform prior."""
    rows = np.array([[0, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 1, 1],
                     [0, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 0], [1, 0, 1, 1]])
    m = ModelAveragedNaiveBayes().fit(rows[:, :3], rows[:, 3])
    np.testing.assert_allclose(
        m.arc_posterior_, [0.961832061069, 0.611650485437, 0.411764705882], atol=1e-12)
    np.testing.assert_allclose(
        np.exp(m.feature_log_prob_[0]),
        [[0.820610687023, 0.179389312977], [0.179389312977, 0.820610687023]], atol=1e-12)
    np.testing.assert_allclose(np.exp(m.feature_log_prob_[2]), 0.5, atol=1e-15)
    np.testing.assert_allclose(
        m.predict_proba([[0, 1, 0]])[0], [0.873697319263, 0.126302680737], atol=1e-12)
    bf = BruteForce(rows[:, :3], rows[:, 3], [2, 2, 2], 2)
    np.testing.assert_allclose(
        np.exp(bf.log_posterior(np.array([0, 1, 0]), 0.5)), m.predict_proba([[0, 1, 0]])[0],
        atol=1e-14)


@pytest.mark.parametrize("seed", range(40))
def test_manb_equals_enumeration_of_all_structures(seed):
    """theta* reproduces averaging over all 2**N structures, N <= 12, to 1e-12."""
    rng = np.random.default_rng(seed)
    n_feat = int(rng.integers(1, 13)) if seed % 4 else 12
    K = int(rng.integers(2, 5))
    prior = "k2" if seed % 2 == 0 else "bdeu"
    alpha = 1.0 if seed % 3 == 0 else float(rng.choice([0.3, 2.0, 7.5]))
    p = 0.5 if seed % 5 == 0 else float(rng.uniform(0.02, 0.98))
    n_rows = int(rng.choice([6, 40, 400, 2000]))
    X, y, r = _random_problem(rng, n_feat, K, n_rows, p_missing=0.1 if seed % 3 == 1 else 0.0)
    model = ModelAveragedNaiveBayes(alpha=alpha, arc_prior=p, prior=prior).fit(X, y)
    bf = BruteForce(X, y, r, K, prior=prior, alpha=alpha)
    Xte, _, _ = _random_problem(rng, n_feat, K, 6, p_missing=0.2)
    Xte = np.minimum(Xte, r - 1)
    Xte[rng.random(Xte.shape) < 0.15] = -1
    got = model.predict_proba(Xte)
    want = np.exp([bf.log_posterior(x, p) for x in Xte])
    np.testing.assert_allclose(got, want, atol=1e-12, rtol=0)
    np.testing.assert_allclose(model.predict_log_proba(Xte), np.log(want), atol=1e-9, rtol=1e-9)
    # arc posteriors are the marginals of the structure posterior
    lw = bf.structure_log_posterior(p)
    np.testing.assert_allclose(
        model.arc_posterior_, (np.exp(lw)[:, None] * bf.S).sum(0), atol=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_map_and_full_structures(seed):
    rng = np.random.default_rng(100 + seed)
    n_feat, K = int(rng.integers(1, 9)), int(rng.integers(2, 4))
    X, y, r = _random_problem(rng, n_feat, K, int(rng.choice([8, 60, 300])), p_missing=0.05)
    p = float(rng.uniform(0.1, 0.9))
    bf = BruteForce(X, y, r, K)
    Xte = np.minimum(_random_problem(rng, n_feat, K, 5)[0], r - 1)
    m_map = ModelAveragedNaiveBayes(arc_prior=p, structure="map").fit(X, y)
    want = np.exp([bf.map_log_posterior(x, p) for x in Xte])
    np.testing.assert_allclose(m_map.predict_proba(Xte), want, atol=1e-12)
    # "full": the naive Bayes with every arc; equals averaging with arc_prior = 1
    full = ModelAveragedNaiveBayes(arc_prior=p, structure="full").fit(X, y)
    w1 = ModelAveragedNaiveBayes(arc_prior=1.0).fit(X, y)
    np.testing.assert_allclose(full.predict_proba(Xte), w1.predict_proba(Xte), atol=1e-14)
    lp = bf.log_class + sum(np.log(bf.tC[i][:, Xte[:, i]]).T for i in range(n_feat))
    want = np.exp(lp - logsumexp(lp, 1, keepdims=True))
    np.testing.assert_allclose(full.predict_proba(Xte), want, atol=1e-12)
    # arc_prior = 0: no feature is ever used -> the class prior alone
    none = ModelAveragedNaiveBayes(arc_prior=0.0).fit(X, y)
    np.testing.assert_allclose(none.predict_proba(Xte), np.exp(bf.log_class)[None].repeat(5, 0),
                               atol=1e-14)


def test_large_sample_log_space():
    """20000 records: marginal likelihoods far below exp underflow, still exact."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 20000)
    X = np.column_stack([(rng.random(20000) < np.where(y, 0.9, 0.2)).astype(int),
                         (rng.random(20000) < 0.5).astype(int),
                         (rng.random(20000) < np.where(y, 0.55, 0.5)).astype(int)])
    m = ModelAveragedNaiveBayes().fit(X, y)
    assert np.all(m.log_marginal_likelihood_no_arc_ < -13000)
    bf = BruteForce(X, y, [2, 2, 2], 2)
    Xte = np.array(list(itertools.product([0, 1], repeat=3)))
    np.testing.assert_allclose(m.predict_proba(Xte), np.exp([bf.log_posterior(x, .5) for x in Xte]),
                               atol=1e-12)
    assert m.arc_posterior_[0] == 1.0 and 0 < m.arc_posterior_[1] < 0.5


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_bnclassify_manb_conformance(name):
    """R bnclassify 0.4.8 MANB: K2 (alpha = 1), arc prior 0.5, Laplace class prior."""
    Xtr, ytr, Xte, yte = _conformance(name)
    m = ModelAveragedNaiveBayes(alpha=1.0, arc_prior=0.5, prior="k2").fit(Xtr, ytr)
    e, want = _expected("bnclassify_manb", name, "p")
    assert len(e) == len(Xte)
    np.testing.assert_array_equal(e["true_class"], yte.cat.codes)
    np.testing.assert_allclose(m.predict_proba(Xte), want, atol=1e-12, rtol=0)
    np.testing.assert_array_equal(m.predict(Xte), np.asarray(ytr.cat.categories)[want.argmax(1)])


def _weka_gammaln(xx):
    """The Lanczos approximation the Weka plugin uses for log Gamma (accurate to ~1e-10)."""
    xx = np.asarray(xx, dtype=float)
    x = xx - 1.0
    tmp = x + 5.5
    tmp = tmp - (x + 0.5) * np.log(tmp)
    ser = np.ones_like(xx)
    for c in (76.18009173, -86.50532033, 24.01409822, -1.231739516, 0.120858003e-2, -0.536382e-5):
        x = x + 1.0
        ser = ser + c / x
    return -tmp + np.log(2.50662827465 * ser)


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_weka_bma_conformance(name, monkeypatch):
    """Weka imprecise-probability plugin's BMA: BDeu s = 1, inclusion 0.5, available case.

    With the exact log Gamma our probabilities differ from the plugin's by the error
    of its approximate log Gamma (a few 1e-12); with that approximation swapped in,
    everything else agrees to 1e-12.
    """
    Xtr, ytr, Xte, _ = _conformance(name)
    _, want = _expected("weka_ip_bma", name, "p")
    exact = ModelAveragedNaiveBayes(alpha=1.0, prior="bdeu").fit(Xtr, ytr).predict_proba(Xte)
    np.testing.assert_allclose(exact, want, atol=5e-12, rtol=0)
    monkeypatch.setattr(averaging, "gammaln", _weka_gammaln)
    approx = ModelAveragedNaiveBayes(alpha=1.0, prior="bdeu").fit(Xtr, ytr).predict_proba(Xte)
    np.testing.assert_allclose(approx, want, atol=1e-12, rtol=0)


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_weka_cma_conformance(name):
    """Weka plugin's CMA: BDeu s = 1, inclusion in [0.1, 0.9], missing test values ignored."""
    Xtr, ytr, Xte, _ = _conformance(name)
    _, want = _expected("weka_ip_cma", name, "set_")
    model = CMA(alpha=1.0, inclusion_lower=0.1, inclusion_upper=0.9, prior="bdeu").fit(Xtr, ytr)
    np.testing.assert_array_equal(model.predict_set(Xte), want.astype(bool))


# --------------------------------------------------------------------------------------
# CMA: exact dominance against vertex enumeration and scipy
# --------------------------------------------------------------------------------------


def _cma_problem(seed):
    rng = np.random.default_rng(seed)
    n_feat = int(rng.integers(1, 6))
    K = int(rng.integers(2, 5))
    X, y, r = _random_problem(rng, n_feat, K, int(rng.integers(4, 41)), r_max=3,
                              p_missing=0.1 if seed % 2 else 0.0)
    kind = seed % 5
    if kind == 0:
        lo, hi = 0.1, 0.9
    elif kind == 1:
        lo, hi = 0.0, 1.0
    elif kind == 2:
        lo = hi = float(rng.uniform(0.05, 0.95))
    else:
        lo, hi = np.sort(rng.uniform(0, 1, 2))
    prior = "bdeu" if seed % 3 else "k2"
    alpha = float(rng.choice([0.5, 1.0, 2.0]))
    x = np.minimum(_random_problem(rng, n_feat, K, 3)[0][2], r - 1)
    x[rng.random(n_feat) < 0.15] = -1
    return X, y, r, K, float(lo), float(hi), prior, alpha, x


def _vertex_min(bf, lo, hi, K):
    """min over the 2**N vertices of the prior box of log P(a|x)/P(b|x), (K, K)."""
    best = np.full((K, K), np.inf)
    for v in itertools.product([lo, hi], repeat=bf.N):
        post = bf.log_posterior(bf._x, np.array(v))
        best = np.minimum(best, post[:, None] - post[None, :])
    return best


def test_cma_matches_vertex_enumeration_1000_problems():
    n_checked = n_dominances = n_sets_indeterminate = 0
    for seed in range(1000):
        X, y, r, K, lo, hi, prior, alpha, x = _cma_problem(seed)
        p = 0.5 if lo <= 0.5 <= hi else (lo + hi) / 2
        model = CMA(alpha=alpha, inclusion_lower=lo, inclusion_upper=hi, arc_prior=p,
                    prior=prior).fit(X, y)
        got = model.min_log_ratio(x[None])[0]
        bf = BruteForce(X, y, r, K, prior=prior, alpha=alpha)
        bf._x = x
        want = _vertex_min(bf, lo, hi, K)
        np.fill_diagonal(want, 0.0)
        np.testing.assert_allclose(got, want, atol=1e-9, rtol=1e-9)
        clear = np.abs(want) > 1e-9
        assert np.array_equal((got > 0)[clear], (want > 0)[clear])
        s = model.predict_set(x[None])[0]
        assert s.any()
        # the precise counterpart's choice is never dominated
        assert s[np.searchsorted(model.classes_, model.predict(x[None])[0])]
        n_checked += 1
        n_dominances += int((want > 1e-9).sum())
        n_sets_indeterminate += int(s.sum() > 1)
    assert n_checked == 1000
    # the sample exercises both outcomes
    assert n_dominances > 500 and n_sets_indeterminate > 100


def test_cma_vertex_optimum_confirmed_by_scipy():
    """L-BFGS-B over the box never goes below the vertex minimum and reaches it.

    The objective is evaluated by explicit enumeration of the 2**N structures.
    """
    rng = np.random.default_rng(1)
    n_done = 0
    for seed in range(3000, 3130):
        X, y, r, K, _, _, prior, alpha, x = _cma_problem(seed)
        # bounds away from 0 and 1: with a bound at 0 the objective can change only
        # within 1e-20 of the bound (a cliff a gradient method cannot see)
        lo, hi = np.sort(rng.uniform(0.02, 0.98, 2))
        if hi - lo < 0.05:
            continue
        bf = BruteForce(X, y, r, K, prior=prior, alpha=alpha)
        bf._x = x
        model = CMA(alpha=alpha, inclusion_lower=lo, inclusion_upper=hi,
                    arc_prior=min(max(0.5, lo), hi), prior=prior).fit(X, y)
        got = model.min_log_ratio(x[None])[0]
        a, b = rng.choice(K, 2, replace=False)

        def f(v):
            post = bf.log_posterior(x, np.clip(v, 0, 1))
            return post[a] - post[b]

        best = np.inf
        for _ in range(2):
            res = minimize(f, rng.uniform(lo, hi, bf.N), method="L-BFGS-B",
                           bounds=[(lo, hi)] * bf.N, options={"ftol": 1e-15, "gtol": 1e-12})
            best = min(best, res.fun)
        for v in rng.uniform(lo, hi, (30, bf.N)):
            assert f(v) >= got[a, b] - 1e-9
        assert best >= got[a, b] - 1e-9
        assert best <= got[a, b] + 1e-6
        n_done += 1
    assert n_done >= 100


def test_cma_degenerate_interval_is_precise_bma():
    for seed in range(30):
        rng = np.random.default_rng(500 + seed)
        X, y, r = _random_problem(rng, 4, 3, 30)
        p = float(rng.uniform(0.05, 0.95))
        cma = CMA(inclusion_lower=p, inclusion_upper=p, arc_prior=p).fit(X, y)
        bma = ModelAveragedNaiveBayes(arc_prior=p, prior="bdeu").fit(X, y)
        Xte = np.minimum(_random_problem(rng, 4, 3, 20)[0], r - 1)
        post = bma.predict_proba(Xte)
        sets = cma.predict_set(Xte)
        np.testing.assert_array_equal(sets, post >= post.max(1, keepdims=True) - 1e-12)
        np.testing.assert_allclose(cma.predict_proba(Xte), post, atol=1e-14)
        np.testing.assert_array_equal(cma.predict(Xte), bma.predict(Xte))


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------


@st.composite
def problems(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    n_feat = draw(st.integers(1, 6))
    K = draw(st.integers(2, 4))
    n_rows = draw(st.integers(4, 60))
    rng = np.random.default_rng(seed)
    X, y, r = _random_problem(rng, n_feat, K, n_rows, r_max=3, p_missing=0.1)
    Xte = np.minimum(_random_problem(rng, n_feat, K, 8)[0], r - 1)
    Xte[rng.random(Xte.shape) < 0.2] = -1
    return X, y, r, K, Xte


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.floats(0.0, 0.5), st.floats(0.5, 1.0), st.floats(0.1, 5.0))
def test_cma_sets_properties(prob, lo, hi, alpha):
    X, y, r, K, Xte = prob
    model = CMA(alpha=alpha, inclusion_lower=lo, inclusion_upper=hi).fit(X, y)
    s = model.predict_set(Xte)
    assert s.shape == (len(Xte), K) and s.dtype == bool
    assert s.any(axis=1).all()
    chosen = np.searchsorted(model.classes_, model.predict(Xte))
    assert s[np.arange(len(Xte)), chosen].all()
    # the precise counterpart is BMA (MANB) at the same prior
    bma = ModelAveragedNaiveBayes(alpha=alpha, prior="bdeu").fit(X, y)
    # same choice up to exact ties, which the two computation paths may break differently
    lp = bma.predict_log_proba(Xte)
    np.testing.assert_allclose(lp[np.arange(len(Xte)), chosen], lp.max(axis=1), atol=1e-12)
    # a wider interval can only keep more classes
    wider = CMA(alpha=alpha, inclusion_lower=lo / 2, inclusion_upper=(1 + hi) / 2).fit(X, y)
    assert np.all(wider.predict_set(Xte) >= s)
    # dominance is a strict order: antisymmetric, transitive
    d = model.min_log_ratio(Xte) > 0
    assert not np.any(d & d.transpose(0, 2, 1))
    two = np.einsum("nab,nbc->nac", d.astype(int), d.astype(int)) > 0
    assert np.all(d[two])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.floats(0.0, 1.0), st.sampled_from(["k2", "bdeu"]))
def test_manb_properties(prob, p, prior):
    X, y, r, K, Xte = prob
    m = ModelAveragedNaiveBayes(arc_prior=p, prior=prior).fit(X, y)
    proba = m.predict_proba(Xte)
    np.testing.assert_allclose(proba.sum(1), 1.0, atol=1e-12)
    for lt in m.feature_log_prob_:
        np.testing.assert_allclose(np.exp(lt).sum(1), 1.0, atol=1e-12)
    assert np.all((m.arc_posterior_ >= 0) & (m.arc_posterior_ <= 1))
    # a missing test value is the same as a model that never saw the feature
    j = 0
    Xm = Xte.copy()
    Xm[:, j] = -1
    if X.shape[1] > 1:  # 0 features: an error (issue 16)
        without = ModelAveragedNaiveBayes(arc_prior=p, prior=prior).fit(np.delete(X, j, 1), y)
        np.testing.assert_allclose(m.predict_proba(Xm), without.predict_proba(np.delete(Xte, j, 1)),
                                   atol=1e-12)
    # feature order does not matter
    perm = np.random.default_rng(0).permutation(X.shape[1])
    mp = ModelAveragedNaiveBayes(arc_prior=p, prior=prior).fit(X[:, perm], y)
    np.testing.assert_allclose(mp.predict_proba(Xte[:, perm]), proba, atol=1e-12)


# --------------------------------------------------------------------------------------
# Input handling and errors
# --------------------------------------------------------------------------------------


def test_dataframe_input_and_unobserved_categories():
    rng = np.random.default_rng(3)
    X, y, r = _random_problem(rng, 3, 2, 30)
    r_decl = r + 1  # a declared category never observed
    frame = _frame(X, r_decl)
    yc = pd.Series(pd.Categorical.from_codes(y, categories=[0, 1, 2]))  # class 2 unobserved
    m = ModelAveragedNaiveBayes().fit(frame, yc)
    assert list(m.classes_) == [0, 1, 2]
    np.testing.assert_array_equal(m.n_values_, r_decl)
    bf = BruteForce(X, y, r_decl, 3)
    te = np.minimum(_random_problem(rng, 3, 2, 5)[0], r - 1)
    te[0] = r_decl - 1
    np.testing.assert_allclose(m.predict_proba(_frame(te, r_decl)),
                               np.exp([bf.log_posterior(x, .5) for x in te]), atol=1e-12)
    c = CMA().fit(frame, yc)
    assert c.predict_set(_frame(te, r_decl)).shape == (5, 3)
    assert clone(c).get_params() == c.get_params()


def test_min_categories_for_int_codes():
    rng = np.random.default_rng(4)
    X, y, r = _random_problem(rng, 3, 2, 30)
    X[X == r - 1] = 0  # the last category of every feature never occurs in training
    te = np.array([r - 1, [0, 0, 0]])
    with pytest.raises(ValueError, match="outside"):
        ModelAveragedNaiveBayes().fit(X, y).predict(te)
    for est in (ModelAveragedNaiveBayes(), CMA()):
        by_codes = clone(est).set_params(min_categories=r).fit(X, y)
        by_frame = clone(est).fit(_frame(X, r), y)
        np.testing.assert_array_equal(by_codes.n_values_, r)
        np.testing.assert_allclose(by_codes.predict_proba(te),
                                   by_frame.predict_proba(_frame(te, r)), atol=1e-15)
    assert np.all(ModelAveragedNaiveBayes(min_categories=5).fit(X, y).n_values_ == 5)
    for bad in (0, 2.5, [2, 2], [[2, 2, 2]]):
        with pytest.raises(ValueError, match="min_categories"):
            ModelAveragedNaiveBayes(min_categories=bad).fit(X, y)


@pytest.mark.parametrize(
    "est, msg",
    [
        (ModelAveragedNaiveBayes(alpha=0), "alpha"),
        (ModelAveragedNaiveBayes(alpha=-1.0), "alpha"),
        (ModelAveragedNaiveBayes(arc_prior=1.5), "arc_prior"),
        (ModelAveragedNaiveBayes(prior="perks"), "prior"),
        (ModelAveragedNaiveBayes(structure="best"), "structure"),
        (CMA(inclusion_lower=0.6, inclusion_upper=0.4), "inclusion_lower"),
        (CMA(inclusion_upper=1.2), "inclusion_upper"),
        (CMA(inclusion_lower=0.6, inclusion_upper=0.9), "arc_prior"),
        (CMA(alpha=float("nan")), "alpha"),
        (CMA(prior=None), "prior"),
    ],
)
def test_bad_parameters(est, msg):
    X = np.array([[0, 1], [1, 0], [1, 1]])
    with pytest.raises(ValueError, match=msg):
        est.fit(X, [0, 1, 1])


def test_bad_predict_input():
    X = np.array([[0, 1], [1, 0], [1, 1]])
    m = ModelAveragedNaiveBayes().fit(X, [0, 1, 1])
    with pytest.raises(ValueError, match="features"):
        m.predict(np.array([[0, 1, 1]]))
    with pytest.raises(ValueError, match="outside"):
        m.predict(np.array([[0, 2]]))
    with pytest.raises(AttributeError, match="not fitted"):
        CMA().predict_set(X)
    assert m.fit(X, [0, 1, 1]) is m


@pytest.mark.parametrize("R", [2, 3, 8, 9, 12])
def test_family_counts_equal_bincount(R):
    """The counts (one bincount over every cell) agree with a loop."""
    rng = np.random.default_rng(R)
    n, m, K = 300, 7, 3
    codes = rng.integers(-1, R, (n, m))
    y = rng.integers(0, K, n)
    want = np.zeros((m, K, R))
    for r in range(n):
        for i in range(m):
            if codes[r, i] >= 0:
                want[i, y[r], codes[r, i]] += 1
    np.testing.assert_array_equal(averaging._family_counts(codes, y, K, R), want)
    assert averaging._family_counts(codes[:0], y[:0], K, R).shape == (m, K, R)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64])
def test_family_counts_match_brute_force(dtype):
    """The compiled counts (issue 27) against counting every (feature, class, category)."""
    from credal.averaging import naive_family_statistics

    rng = np.random.default_rng(int(np.dtype(dtype).itemsize))
    for _ in range(20):
        n, m, K = rng.integers(1, 60), rng.integers(1, 7), rng.integers(1, 4)
        nv = rng.integers(1, 5, m)
        codes = (rng.integers(0, 10**6, (n, m)) % nv).astype(dtype)
        codes[rng.random((n, m)) < 0.2] = -1
        y = rng.integers(0, K, n)
        N = naive_family_statistics(codes, y, nv, K)["counts"]
        assert N.shape == (m, K, nv.max())
        for i in range(m):
            for c in range(K):
                for k in range(nv.max()):
                    assert N[i, c, k] == np.sum((codes[:, i] == k) & (y == c))
