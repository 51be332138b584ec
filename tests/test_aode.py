"""Tests of credal.aode: AODE, BMA-AODE, COMP-AODE and their credal versions.

Every quantity is checked against an independent computation: a slow loop-based
re-implementation of the SPODE estimates, Weka's and bnclassify's outputs
(../shared/conformance), scipy's LP solver (Charnes-Cooper form of BMA-AODE*) and
multi-start SLSQP on the COMP-AODE* problem (15) as written in the paper.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog, minimize
from scipy.special import logsumexp
from sklearn.base import clone

from conftest import read_conformance, read_nominal_arff
from credal import aode as aode_module
from credal.aode import (
    AODE,
    BMAAODE,
    CompAODE,
    CredalBMAAODE,
    CredalCompAODE,
    _pair_counts,
    bma_lower_log_ratio,
    comp_min_margin,
    comp_min_ratio,
)

CONF = Path(__file__).resolve().parent / "conformance"  # copy of ../shared/conformance
RAW = Path(__file__).resolve().parents[1] / "data" / "raw"


# --------------------------------------------------------------------------- ARFF fixture

def _frame(codes, values):
    return pd.DataFrame({f"a{j}": pd.Categorical.from_codes(codes[:, j], categories=values[j])
                         for j in range(codes.shape[1])})


def _conformance(name):
    Xtr, ytr = read_conformance(name, "train")
    Xte, _ = read_conformance(name, "test")
    return Xtr, ytr, Xte, len(ytr.cat.categories)


def _split(name, n_train, seed=0):
    X, y = read_nominal_arff(RAW / f"{name}.arff")
    codes = np.column_stack([X.apply(lambda c: c.cat.codes).to_numpy(), y.cat.codes.to_numpy()])
    perm = np.random.RandomState(seed).permutation(len(codes))
    X, y = codes[:, :-1], codes[:, -1]
    return X[perm[:n_train]], y[perm[:n_train]], X[perm[n_train:]], y[perm[n_train:]]


# --------------------------------------------------------------------------- slow reference


def _ref_log_joint(X, y, nv, K, row, j, c, prior, s, root):
    """ln P(c, row_obs | s_j) by direct counting, loops only; missing parent summed out."""
    if row[j] < 0:
        terms = []
        for u in range(nv[j]):
            r = row.copy()
            r[j] = u
            terms.append(_ref_log_joint(X, y, nv, K, r, j, c, prior, s, root))
        return logsumexp(terms)
    perks = prior == "perks"
    u = row[j]
    yc, obs_j = y == c, X[:, j] >= 0
    b = s / (K * nv[j]) if perks else 1.0
    n_cu = np.sum(yc & (X[:, j] == u))
    if root == "joint":
        out = np.log(n_cu + b) - np.log(obs_j.sum() + K * nv[j] * b)
    else:
        a = s / K if perks else 1.0
        out = (np.log(yc.sum() + a) - np.log(len(y) + K * a)
               + np.log(n_cu + b) - np.log(np.sum(yc & obs_j) + nv[j] * b))
    for l in range(len(row)):
        if l == j or row[l] < 0:
            continue
        cell = s / (K * nv[j] * nv[l]) if perks else 1.0
        base = yc & (X[:, j] == u)
        out += np.log(np.sum(base & (X[:, l] == row[l])) + cell)
        out -= np.log(np.sum(base & (X[:, l] >= 0)) + nv[l] * cell)
    return out


def _ref_joints(X, y, nv, K, rows, prior, s, root):
    return np.array([[[_ref_log_joint(X, y, nv, K, r, j, c, prior, s, root)
                       for c in range(K)] for j in range(X.shape[1])] for r in rows])


def _ref_nb(X, y, nv, K, row, prior, s):
    perks = prior == "perks"
    out = []
    for c in range(K):
        a = s / K if perks else 1.0
        v = np.log(np.sum(y == c) + a) - np.log(len(y) + K * a)
        for l in range(len(row)):
            if row[l] >= 0:
                b = s / (K * nv[l]) if perks else 1.0
                v += np.log(np.sum((y == c) & (X[:, l] == row[l])) + b)
                v -= np.log(np.sum((y == c) & (X[:, l] >= 0)) + nv[l] * b)
        out.append(v)
    return np.array(out)


def _class_index(model, labels):
    return np.array([list(model.classes_).index(v) for v in labels])


def _random_data(rng, n, k, K, max_v=3, p_missing=0.1):
    nv = rng.integers(1, max_v + 1, size=k)
    X = np.column_stack([rng.integers(0, v, size=n) for v in nv]) if k else np.zeros((n, 0), int)
    X = np.where(rng.random(X.shape) < p_missing, -1, X)
    y = rng.integers(0, K, size=n)
    y[:K] = np.arange(K)             # every class observed
    # declare the values through a DataFrame so that unseen ones still count
    cats = [list(range(v)) for v in nv]
    return X, y, nv, cats


def _as_frame(X, cats):
    return pd.DataFrame({f"f{j}": pd.Categorical.from_codes(X[:, j], categories=cats[j])
                         for j in range(X.shape[1])})


# --------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
@pytest.mark.parametrize("root,ref", [("joint", "weka_aode"), ("chain", "bnclassify_aode")])
def test_aode_matches_weka_and_bnclassify(name, root, ref):
    X, y, Xte, K = _conformance(name)
    model = AODE(prior="laplace", root_estimate=root).fit(X, y)
    got = model.predict_proba(Xte)
    exp = pd.read_csv(CONF / "expected" / ref / f"{name}.csv")
    pe = exp[[f"p{i}" for i in range(K)]].to_numpy(float)
    rows = ~np.isnan(pe).any(axis=1)          # bnclassify gives NA on rows with missing values
    assert rows.sum() >= 30
    np.testing.assert_allclose(got[rows], pe[rows], rtol=0, atol=1e-12)
    if root == "joint":                        # the other convention must differ on some set
        other = AODE(prior="laplace", root_estimate="chain").fit(X, y).predict_proba(Xte)
        assert name == "iris" or np.abs(other[rows] - pe[rows]).max() > 1e-6


# --------------------------------------------------------------------------- estimates


@pytest.mark.parametrize("prior", ["perks", "laplace"])
@pytest.mark.parametrize("root", ["chain", "joint"])
def test_spode_estimates_match_direct_counting(prior, root):
    rng = np.random.default_rng(11)
    for trial in range(6):
        n, k, K = int(rng.integers(8, 30)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
        X, y, nv, cats = _random_data(rng, n, k, K, p_missing=0.15)
        s = float(rng.choice([0.5, 1.0, 2.0]))
        Xte = np.column_stack([rng.integers(-1, v, size=12) for v in nv])
        kw = dict(prior=prior, s=s, root_estimate=root)
        ref_tr = _ref_joints(X, y, nv, K, X, prior, s, root)
        ref_te = _ref_joints(X, y, nv, K, Xte, prior, s, root)

        # BMA: likelihoods and posterior
        bma = BMAAODE(**kw, prune_factor=np.inf).fit(_as_frame(X, cats), y)
        post_tr = ref_tr - logsumexp(ref_tr, axis=2, keepdims=True)
        ll = post_tr[np.arange(n), :, y].sum(axis=0)
        np.testing.assert_allclose(bma.log_likelihoods_, ll, rtol=1e-12, atol=1e-10)
        post_te = ref_te - logsumexp(ref_te, axis=2, keepdims=True)
        w = np.exp(ll - ll.max())
        p_bma = np.einsum("njc,j->nc", np.exp(post_te), w)
        np.testing.assert_allclose(bma.predict_proba(_as_frame(Xte, cats)),
                                   p_bma / p_bma.sum(1, keepdims=True), atol=1e-12)

        # COMP: coefficients (6) with prior (5), feasible = LL_j > LL_0
        comp = CompAODE(**kw, epsilon=0.01).fit(_as_frame(X, cats), y)
        freq = np.bincount(y, minlength=K) / n
        ll0 = sum(n * f * np.log(f) for f in freq if f > 0)
        assert comp.null_log_likelihood_ == pytest.approx(ll0, rel=1e-12, abs=1e-12)
        pi = 1 - (ll + np.log(0.99 / k)) / (ll0 + np.log(0.01))
        np.testing.assert_allclose(comp.compression_, pi, rtol=1e-10)
        feas = ll > ll0
        if feas.any():
            p_comp = np.einsum("njc,j->nc", np.exp(post_te[:, feas]), pi[feas]) / pi[feas].sum()
        else:
            a = s / K if prior == "perks" else 1.0
            p_comp = np.tile((np.bincount(y, minlength=K) + a) / (n + K * a), (len(Xte), 1))
        np.testing.assert_allclose(comp.predict_proba(_as_frame(Xte, cats)), p_comp, atol=1e-12)

        # AODE: mean of the joints of the usable super-parents, naive Bayes otherwise
        aode = AODE(**kw).fit(_as_frame(X, cats), y)
        seen = [np.isin(np.arange(v), X[:, j]) for j, v in enumerate(nv)]
        expect = []
        for i, r in enumerate(Xte):
            use = [j for j in range(k) if r[j] >= 0 and seen[j][r[j]]]
            lj = (logsumexp(ref_te[i, use], axis=0) if use
                  else _ref_nb(X, y, nv, K, r, prior, s))
            expect.append(np.exp(lj - logsumexp(lj)))
        np.testing.assert_allclose(aode.predict_proba(_as_frame(Xte, cats)), expect,
                                   atol=1e-12)

        # AODE, aggregate="posterior": equal-weight mean of the SPODE posteriors
        for lim in (0, 1):
            aode = AODE(**kw, aggregate="posterior", frequency_limit=lim).fit(
                _as_frame(X, cats), y)
            expect = []
            for i, r in enumerate(Xte):
                use = [j for j in range(k) if r[j] >= 0 and (lim == 0 or seen[j][r[j]])]
                if use:
                    post = np.exp(ref_te[i, use] - logsumexp(ref_te[i, use], axis=1,
                                                               keepdims=True))
                    expect.append(post.mean(axis=0))
                else:
                    lj = _ref_nb(X, y, nv, K, r, prior, s)
                    expect.append(np.exp(lj - logsumexp(lj)))
            np.testing.assert_allclose(aode.predict_proba(_as_frame(Xte, cats)), expect,
                                       atol=1e-12)


def _floored(post, f):
    return post if f is None else np.maximum(post, f) / np.maximum(post, f).sum(-1, keepdims=True)


def test_probability_floors_match_direct_counting():
    rng = np.random.default_rng(21)
    for trial in range(8):
        n, k, K = int(rng.integers(10, 40)), int(rng.integers(1, 6)), int(rng.integers(2, 5))
        X, y, nv, cats = _random_data(rng, n, k, K, max_v=4, p_missing=0.1)
        Xte = np.column_stack([rng.integers(-1, v, size=10) for v in nv])
        s = float(rng.choice([0.1, 1.0]))
        # large floors so that they bind on these small data sets
        pf, lf = rng.choice([None, 1e-4, 0.05, 0.2]), rng.choice([None, 0.01, 0.3])
        fl = dict(posterior_floor=pf, likelihood_floor=lf)
        post_tr = _floored(np.exp(_ref_joints(X, y, nv, K, X, "perks", s, "chain")), None)
        post_tr = _floored(post_tr / post_tr.sum(-1, keepdims=True), pf)
        ref_te = np.exp(_ref_joints(X, y, nv, K, Xte, "perks", s, "chain"))
        post_te = _floored(ref_te / ref_te.sum(-1, keepdims=True), pf)
        true = post_tr[np.arange(n), :, y]
        ll = np.log(true if lf is None else np.maximum(true, lf)).sum(axis=0)

        bma = BMAAODE(s=s, prune_factor=np.inf, **fl).fit(_as_frame(X, cats), y)
        np.testing.assert_allclose(bma.log_likelihoods_, ll, rtol=1e-12, atol=1e-10)
        p = np.einsum("njc,j->nc", post_te, np.exp(ll - ll.max()))
        np.testing.assert_allclose(bma.predict_proba(_as_frame(Xte, cats)),
                                   p / p.sum(1, keepdims=True), atol=1e-12)
        comp = CompAODE(s=s, **fl).fit(_as_frame(X, cats), y)
        np.testing.assert_allclose(comp.log_likelihoods_, ll, rtol=1e-12, atol=1e-10)
        feas = comp.feasible_
        np.testing.assert_array_equal(feas, ll > comp.null_log_likelihood_)
        if feas.any():
            w = comp.compression_[feas]
            np.testing.assert_allclose(comp.predict_proba(_as_frame(Xte, cats)),
                                       np.einsum("njc,j->nc", post_te[:, feas], w / w.sum()),
                                       atol=1e-12)
        aode = AODE(s=s, aggregate="posterior", frequency_limit=0, posterior_floor=pf)
        got = aode.fit(_as_frame(X, cats), y).predict_proba(_as_frame(Xte, cats))
        for i, r in enumerate(Xte):
            use = r >= 0
            if use.any():
                np.testing.assert_allclose(got[i], post_te[i, use].mean(axis=0), atol=1e-12)
        if pf is not None:  # the floor binds and every SPODE posterior respects it
            lp = bma._spode_log_posterior(bma._predict_input(_as_frame(Xte, cats)))
            assert np.exp(lp).min() >= pf * (1 - 1e-12) / (1 + K * pf)


def test_credal_sets_with_floors_equal_solver_baselines():
    # the exact tests take the (floored) posteriors and likelihoods as given, so they
    # stay exact: compare with the LP / multi-start SLSQP baselines on the same model
    from credal.reference import bma_aode_baseline_sets, comp_aode_baseline_sets
    rng = np.random.default_rng(0)
    changed = indeterminate = 0
    for trial in range(4):
        X, y, nv, cats = _random_data(rng, 25, 4, 3, max_v=3, p_missing=0.1)
        Xte = np.column_stack([rng.integers(-1, v, size=30) for v in nv])
        kw = dict(posterior_floor=[0.05, 1e-4][trial % 2], likelihood_floor=[0.3, 0.01][trial % 2],
                  epsilon=0.05)
        for cls, ref in ((CredalBMAAODE, bma_aode_baseline_sets),
                         (CredalCompAODE, comp_aode_baseline_sets)):
            m = cls(**kw).fit(X, y)
            sets = m.predict_set(Xte)
            np.testing.assert_array_equal(sets, ref(m, Xte))
            pred = _class_index(m, m.predict(Xte))
            assert sets[np.arange(len(Xte)), pred].all()
            changed += (sets != cls(epsilon=0.05).fit(X, y).predict_set(Xte)).any(1).sum()
            indeterminate += (sets.sum(1) > 1).sum()
    assert changed > 0 and indeterminate > 0     # the floors matter, the test can fail


def test_pair_counts_every_blocking_matches_direct_counting():
    rng = np.random.default_rng(13)
    for trial in range(10):
        n, k, K = int(rng.integers(1, 60)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
        X, y, nv, _ = _random_data(rng, n, k, K, max_v=4, p_missing=0.2)
        y = rng.integers(0, K, size=n)
        w = rng.integers(1, 4, size=n).astype(float) if trial % 2 else None
        off = np.r_[0, np.cumsum(nv)[:-1]]
        g = np.where(X < 0, nv.sum(), X + off)
        ref = np.zeros((K, nv.sum(), nv.sum()))
        for i in range(n):
            obs = g[i][X[i] >= 0]
            ref[y[i]][np.ix_(obs, obs)] += 1 if w is None else w[i]
        np.testing.assert_array_equal(_pair_counts(X.T, y, w, nv, K), ref)


def test_spode_evaluations_agree():
    rng = np.random.default_rng(12)
    X = rng.integers(0, 4, size=(300, 6))
    X[rng.random(X.shape) < 0.2] = -1
    y = rng.integers(0, 3, 300)
    m = BMAAODE().fit(X, y)
    g = m._flat(X.T)
    full = m._spode_log_joint(g)
    for parents in ([4, 1], [5]):
        np.testing.assert_array_equal(m._spode_log_joint(g, parents), full[:, parents])
    # the slow reference (missing super-parents summed out) agrees
    ref = _ref_joints(X, y, m.n_values_, 3, X[:25], "perks", 1.0, "chain")
    np.testing.assert_allclose(m._spode_log_joint(g[:25]), ref, atol=1e-11)
    # duplicated rows are evaluated once and give the same answers
    Xd = np.concatenate([X, X[::-1], X[:7]])
    np.testing.assert_allclose(m.predict_proba(Xd)[:300], m.predict_proba(X), rtol=1e-15)


@pytest.mark.parametrize("limit", [1, 8, 256])
def test_spode_joints_every_blocking_match_direct_counting(monkeypatch, limit):
    # the compiled block tables and gathers (credal._compiled_spode) for blocks of one feature,
    # of a few, and of all features, missing children and super-parents included
    blocks = aode_module._blocks
    monkeypatch.setattr(aode_module, "_blocks", lambda sizes, cost: blocks(sizes, cost, (limit,)))
    rng = np.random.default_rng(21)
    X = rng.integers(0, 3, size=(120, 7))
    X[rng.random(X.shape) < 0.15] = -1
    y = rng.integers(0, 3, 120)
    m = BMAAODE().fit(X, y)
    ref = _ref_joints(X, y, m.n_values_, 3, X[:30], "perks", 1.0, "chain")
    np.testing.assert_allclose(m._spode_log_joint(m._flat(X[:30].T)), ref, atol=1e-11)


def _lse_by_slices(a, axis):
    """The former numpy log-sum-exp (a loop over slices): the compiled steps must equal it."""
    parts = np.moveaxis(a, axis, 0)
    top = np.array(parts[0])
    for p in parts[1:]:
        np.maximum(top, p, out=top)
    top = np.where(np.isfinite(top), top, 0.0)
    acc = np.exp(parts[0] - top)
    for p in parts[1:]:
        acc += np.exp(p - top)
    with np.errstate(divide="ignore"):
        return np.log(acc) + top


def test_lse_equals_the_sum_over_slices_bit_for_bit():
    rng = np.random.default_rng(5)
    a = rng.normal(scale=30, size=(7, 5, 4)).transpose(1, 0, 2)   # not C-contiguous
    a[0, 0] = -np.inf
    a[1, 2, 1] = -np.inf
    for axis in (0, 1, 2, -1):
        out = aode_module._lse(a, axis=axis)
        np.testing.assert_array_equal(out, _lse_by_slices(a, axis))
        with np.errstate(divide="ignore"):
            np.testing.assert_allclose(out, logsumexp(a, axis=axis), rtol=1e-13)
        assert aode_module._lse(a, axis=axis, keepdims=True).shape == np.expand_dims(out, axis).shape
    with np.errstate(invalid="ignore"):   # the row of -inf: nan, as before
        np.testing.assert_array_equal(aode_module._normalise(a),
                                      a - _lse_by_slices(a, -1)[..., None])


@pytest.mark.parametrize("block", [aode_module._BLOCK, 50])
def test_predict_outputs_equal_the_separate_predictions(monkeypatch, block):
    # one pass (rows in one block of _maximal_sets) or the separate calls (more rows)
    monkeypatch.setattr(aode_module, "_BLOCK", block)
    rng = np.random.default_rng(8)
    X, y, nv, cats = _random_data(rng, 150, 5, 3, p_missing=0.1)
    for est in (AODE(), BMAAODE(posterior_floor=1e-4), CompAODE(), CredalBMAAODE(epsilon=0.05),
                CredalCompAODE(epsilon=0.05, likelihood_floor=0.01)):
        m = est.fit(_as_frame(X, cats), y)
        pred, sets, proba = m.predict_outputs(_as_frame(X, cats))
        np.testing.assert_array_equal(pred, m.predict(_as_frame(X, cats)))
        if sets is None:
            np.testing.assert_array_equal(proba, m.predict_proba(_as_frame(X, cats)))
        else:
            np.testing.assert_array_equal(sets, m.predict_set(_as_frame(X, cats)))


def test_perks_chain_equals_joint_on_complete_data():
    rng = np.random.default_rng(3)
    X, y, nv, cats = _random_data(rng, 60, 4, 3, p_missing=0.0)
    for cls in (AODE, BMAAODE, CompAODE):
        a = cls(root_estimate="chain").fit(X, y).predict_proba(X)
        b = cls(root_estimate="joint").fit(X, y).predict_proba(X)
        np.testing.assert_allclose(a, b, atol=1e-13)


def test_unseen_super_parent_value():
    # value 2 of feature 0 is declared but never observed in training
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, size=(40, 3))
    y = rng.integers(0, 3, size=40)
    cats = [[0, 1, 2], [0, 1], [0, 1]]
    row = np.array([[2, 1, 0]])
    model = BMAAODE(prune_factor=np.inf).fit(_as_frame(X, cats), y)
    lp = model._spode_log_posterior(model._predict_input(_as_frame(row, cats)))
    np.testing.assert_allclose(np.exp(lp[0, 0]), 1 / 3, atol=1e-14)   # Perks: uninformative
    assert np.ptp(lp[0, 1]) > 1e-6                                     # the others are not
    # AODE skips that SPODE (frequency limit 1) and uses it with frequency_limit=0
    full = _ref_joints(X, y, np.array([3, 2, 2]), 3, row, "perks", 1.0, "chain")[0]
    for lim, use in [(1, [1, 2]), (0, [0, 1, 2])]:
        lj = logsumexp(full[use], axis=0)
        got = AODE(frequency_limit=lim).fit(_as_frame(X, cats), y).predict_proba(
            _as_frame(row, cats))
        np.testing.assert_allclose(got[0], np.exp(lj - logsumexp(lj)), atol=1e-13)


@pytest.mark.parametrize("aggregate,floor", [("joint", None), ("posterior", None),
                                              ("posterior", 1e-4)])
def test_aode_rows_beyond_the_floating_point_range(aggregate, floor):
    # AODE multiplies probabilities; rows whose class totals fall below 2**-900 are
    # redone in logarithms.  Here every row needs it: 100 copies of the class as
    # features and a prior of 1e-300 put the totals near exp(-757), below the smallest
    # normal double.  The reference is BMA-AODE's SPODE joints (sums of logarithms).
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 60)
    X = np.repeat(y[:, None], 100, axis=1)
    Xte = rng.integers(0, 2, size=(30, 100))
    Xte[:5] = 0
    Xte[rng.random(Xte.shape) < 0.1] = -1
    ref = BMAAODE(s=1e-300, prune_factor=np.inf).fit(X, y)
    lj = ref._spode_log_joint(ref._predict_input(Xte))             # (rows, SPODEs, K)
    if aggregate == "posterior":
        lj = lj - logsumexp(lj, axis=2, keepdims=True)
        if floor is not None:
            lj = np.maximum(lj, np.log(floor))
            lj -= logsumexp(lj, axis=2, keepdims=True)
    total = np.array([logsumexp(lj[i, r >= 0], axis=0) for i, r in enumerate(Xte)])
    if aggregate == "joint":
        assert (total.min(axis=1) < np.log(2.0 ** -1022)).all()  # subnormal or zero
    expect = total - logsumexp(total, axis=1, keepdims=True)
    got = AODE(s=1e-300, aggregate=aggregate, posterior_floor=floor).fit(X, y).predict_log_proba(Xte)
    np.testing.assert_allclose(got, expect, rtol=1e-12, atol=1e-12)


def test_single_value_feature_spode_is_naive_bayes():
    rng = np.random.default_rng(8)
    X = np.column_stack([np.zeros(50, int), rng.integers(0, 3, 50), rng.integers(0, 2, 50)])
    y = rng.integers(0, 2, 50)
    m = BMAAODE().fit(X, y)
    g = m._predict_input(X)
    nb = m._nb_log_joint(g)
    np.testing.assert_allclose(m._spode_log_posterior(g)[:, 0],
                               nb - logsumexp(nb, axis=1, keepdims=True), atol=1e-13)


# --------------------------------------------------------------------------- reference vectors


def test_bma_reference_vectors():
    cases = [((0.6, 0.3, 0.5), (0.3, 0.6, 0.4), (-10, -10.5, -11), 0.01, 0.515517748991),
             ((0.7, 0.4), (0.2, 0.5), (-100, -100), 0.01, 0.810865191147),
             ((0.6, 0.3), (0.3, 0.6), (-5000, -5000.7), 0.05, 0.575489771811),
             ((0.6, 0.5, 0.7), (0.3, 0.4, 0.2), (-200, -201, -203), 0.01, 1.26679499088)]
    for p1, p2, ll, eps, rho in cases:
        got = bma_lower_log_ratio(np.log(p1), np.log(p2), ll, eps)
        assert np.exp(got) == pytest.approx(rho, rel=1e-11)
    # the third case's model with LL = -5020 falls below L_max / 1e4 and is pruned
    assert -5020 < -5000 - np.log(1e4)


def test_comp_reference_vectors():
    a, b = np.array([0.6, 0.5, 0.2]), np.array([0.3, 0.4, 0.5])
    ll = np.array([-60.0, -62.0, -70.0])
    m, y = comp_min_margin(a, b, ll, -100.0, 0.01, 3)
    assert m == pytest.approx(0.0518864095991, rel=1e-10)
    np.testing.assert_allclose(y, [0.01, 0.01, 0.97], atol=1e-12)
    assert comp_min_ratio(a, b, ll, -100.0, 0.01, 3)[0] == pytest.approx(1.12200290727, rel=1e-10)
    a2 = np.array([0.6, 0.5, 0.35])
    m, y = comp_min_margin(a2, b, ll, -100.0, 0.01, 4)
    assert m == pytest.approx(0.10148014436, rel=1e-10)
    np.testing.assert_allclose(y, [0.01, 0.01, 0.96], atol=1e-12)
    assert comp_min_ratio(a2, b, ll, -100.0, 0.01, 4)[0] == pytest.approx(1.23864273694, rel=1e-10)
    a3, b3 = np.array([0.6, 0.2, 0.3, 0.5]), np.array([0.3, 0.5, 0.45, 0.49])
    ll3 = np.array([-40.0, -45.0, -50.0, -42.0])
    m, y = comp_min_margin(a3, b3, ll3, -69.3, 0.01, 5)
    assert m == pytest.approx(-0.0390977424605, rel=1e-10)
    np.testing.assert_allclose(y, [0.01, 0.64, 0.32, 0.01], atol=1e-12)
    assert comp_min_ratio(a3, b3, ll3, -69.3, 0.01, 5)[0] == pytest.approx(0.938039045706,
                                                                           rel=1e-10)


# --------------------------------------------------------------------------- brute force


def _lp_log_ratio(log_g, log_d, eps):
    """Charnes-Cooper LP of the BMA-AODE* test; numerator and denominator scaled apart."""
    sg, sd = log_g.max(), log_d.max()
    g, d = np.exp(log_g - sg), np.exp(log_d - sd)
    k = len(g)
    a_eq = np.array([np.r_[d, 0.0], np.r_[np.ones(k), -1.0]])
    a_ub = np.c_[-np.eye(k), np.full(k, eps)]
    res = linprog(np.r_[g, 0.0], A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1.0, 0.0],
                  bounds=[(0, None)] * (k + 1), method="highs")
    assert res.status == 0
    return np.log(res.fun) + sg - sd


def _random_bma_problem(rng):
    k = int(rng.integers(2, 41))
    lp1 = -rng.uniform(0, 23, k) * rng.random(k) ** 2          # ~10 decades of posteriors
    lp2 = np.minimum(lp1 + rng.normal(0, rng.choice([0.05, 0.5, 3.0]), k), 0.0)
    base = -rng.uniform(10, 1e4)
    ll = base - rng.exponential(rng.choice([0.5, 3.0, 30.0]), k)
    kept = ll >= ll.max() - np.log(1e4)
    kk = int(kept.sum())
    eps = 0.01 if rng.random() < 0.5 else rng.uniform(1e-4, 1.0 / kk)
    return lp1[kept], lp2[kept], ll[kept], eps


def test_bma_dominance_equals_charnes_cooper_lp():
    rng = np.random.default_rng(2024)
    n, close, dominated = 1000, 0, 0
    for _ in range(n):
        lp1, lp2, ll, eps = _random_bma_problem(rng)
        ours = float(bma_lower_log_ratio(lp1, lp2, ll, eps))
        lp = _lp_log_ratio(lp1 + ll, lp2 + ll, eps)
        assert lp >= ours - 1e-7                      # the LP never finds a lower value
        assert abs(lp - ours) <= 1e-7 * max(1.0, abs(ours))
        if abs(ours) < 1e-7:
            close += 1
        else:
            assert (ours > 0) == (lp > 0)
            dominated += ours > 0
        # random priors of the credal set are never below the minimum
        k = len(ll)
        x = eps + (1 - k * eps) * rng.dirichlet(np.ones(k), size=20)
        vals = logsumexp(lp1 + ll + np.log(x), axis=1) - logsumexp(lp2 + ll + np.log(x), axis=1)
        assert vals.min() >= ours - 1e-12
    assert close < 5 and 100 < dominated < n - 100    # both decisions well represented


def _slsqp_ratio(alpha, beta, ll, ll0, eps, k, rng, n_random=3):
    """Problem (15) as written (with the budget of (9)), multi-start SLSQP."""
    kt = len(alpha)
    budget = 1 - (k - kt + 1) * eps
    const = np.log(eps) + ll0 - ll
    a, b = alpha @ const, beta @ const

    def f(y):
        return (alpha @ np.log(y) - a) / (beta @ np.log(y) - b)

    def jac(y):
        num, den = alpha @ np.log(y) - a, beta @ np.log(y) - b
        return (alpha * den - beta * num) / (y * den**2)

    spare = budget - kt * eps
    starts = [np.full(kt, budget / kt)]
    starts += [eps + spare * rng.dirichlet(np.ones(kt)) for _ in range(n_random)]
    starts += [eps + spare * np.eye(kt)[rng.integers(kt)]]
    cons = {"type": "eq", "fun": lambda y: y.sum() - budget, "jac": lambda y: np.ones(kt)}
    best = np.inf
    for y0 in starts:
        res = minimize(f, y0, jac=jac, method="SLSQP", bounds=[(eps, None)] * kt,
                       constraints=[cons], options={"ftol": 1e-13, "maxiter": 400})
        y = np.maximum(res.x, eps)                       # project back onto the set
        y = eps + (y - eps) * spare / max((y - eps).sum(), 1e-300) if spare > 0 else y
        best = min(best, f(y), f(y0))
    return best


def _random_comp_problem(rng):
    k = int(rng.integers(1, 9))
    kt = int(rng.integers(max(1, k - 3), k + 1))
    ll0 = -rng.uniform(20, 5000)
    ll = ll0 * rng.uniform(0.02, 0.999, kt)
    eps = 0.01 if rng.random() < 0.6 else rng.uniform(1e-4, 1.0 / (k + 1))
    alpha = rng.random(kt)
    beta = np.clip(alpha + rng.normal(0, rng.choice([0.02, 0.1, 0.4]), kt), 1e-6, 1)
    if rng.random() < 0.2:                               # exact ties (w_j = 0)
        tie = rng.random(kt) < 0.4
        beta[tie] = alpha[tie]
    return alpha, beta, ll, ll0, eps, k


@pytest.mark.slow
def test_comp_dominance_equals_multistart_slsqp():
    rng = np.random.default_rng(7)
    n, close, dominated = 1000, 0, 0
    for _ in range(n):
        alpha, beta, ll, ll0, eps, k = _random_comp_problem(rng)
        margin, y = comp_min_margin(alpha, beta, ll, ll0, eps, k)
        ratio, y_r = comp_min_ratio(alpha, beta, ll, ll0, eps, k)
        brute = _slsqp_ratio(alpha, beta, ll, ll0, eps, k, rng)
        assert brute >= ratio - 1e-9 * ratio              # never beaten
        assert brute <= ratio + 1e-6 * ratio              # and reached
        budget = 1 - (k - len(ll) + 1) * eps
        for yy in (y, y_r):                                # minimisers are feasible
            assert yy.min() >= eps - 1e-15 and abs(yy.sum() - budget) < 1e-12
        if np.array_equal(alpha, beta):                   # identical classes: no dominance
            assert margin == 0 and ratio == pytest.approx(1, abs=1e-14)
        elif abs(ratio - 1) < 1e-6:
            close += 1
        else:
            assert (margin > 0) == (ratio > 1) == (brute > 1)
            dominated += margin > 0
    assert close < 5 and 100 < dominated < n - 100


def test_comp_margin_is_the_minimum_of_the_difference():
    rng = np.random.default_rng(9)
    for _ in range(300):
        alpha, beta, ll, ll0, eps, k = _random_comp_problem(rng)
        kt = len(ll)
        margin, _ = comp_min_margin(alpha, beta, ll, ll0, eps, k)
        z = -(ll0 + np.log(eps))
        budget = 1 - (k - kt + 1) * eps
        spare = budget - kt * eps
        y = eps + spare * rng.dirichlet(np.ones(kt) * rng.choice([0.1, 1.0]), size=200)
        y = np.vstack([y, eps + spare * np.eye(kt)])
        vals = ((alpha - beta) * (1 + (ll + np.log(y)) / z)).sum(axis=1)
        assert vals.min() >= margin - 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_dominance_is_asymmetric_and_contains_the_precise_point(seed):
    rng = np.random.default_rng(seed)
    lp1, lp2, ll, eps = _random_bma_problem(rng)
    r12, r21 = bma_lower_log_ratio(lp1, lp2, ll, eps), bma_lower_log_ratio(lp2, lp1, ll, eps)
    assert r12 + r21 <= 1e-12                       # rho*(1,2) rho*(2,1) <= 1
    at_uniform = logsumexp(lp1 + ll) - logsumexp(lp2 + ll)
    assert r12 <= at_uniform + 1e-12 and r21 <= -at_uniform + 1e-12
    alpha, beta, ll, ll0, eps, k = _random_comp_problem(rng)
    m12, _ = comp_min_margin(alpha, beta, ll, ll0, eps, k)
    m21, _ = comp_min_margin(beta, alpha, ll, ll0, eps, k)
    assert m12 + m21 <= 1e-12
    # COMP-AODE's prior (5) lies in the set with the infeasible models left free
    # (sum y <= T); its minimum equals m* when some weight is negative and is
    # sum_j w_j pi_j(eps) otherwise: positive whenever m* is (same decision)
    w = alpha - beta
    z = -(ll0 + np.log(eps))
    relaxed = m12 if (w < 0).any() else (w * (1 + (ll + np.log(eps)) / z)).sum()
    precise = (w * (1 + (ll + np.log((1 - eps) / k)) / z)).sum()
    assert precise >= relaxed - 1e-12
    assert m12 <= 0 or relaxed > 0


# --------------------------------------------------------------------------- real folds


def _brute_sets_bma(model, X):
    g = model._predict_input(X)
    lam = model._bma_terms(g)
    K = lam.shape[2]
    out = np.ones((len(g), K), bool)
    for i in range(len(g)):
        for c1 in range(K):
            for c2 in range(K):
                if c1 != c2 and _lp_log_ratio(lam[i, :, c1], lam[i, :, c2], model.epsilon_) > 1e-9:
                    out[i, c2] = False
    return out


def _brute_sets_comp(model, X, rng):
    g = model._predict_input(X)
    post = np.exp(model._comp_log_posteriors(g))
    ll = model.log_likelihoods_[model.feasible_]
    out = np.ones(post.shape[::2], bool)
    for i in range(len(g)):
        for c1 in range(post.shape[2]):
            for c2 in range(post.shape[2]):
                if c1 != c2 and _slsqp_ratio(post[i, :, c1], post[i, :, c2], ll,
                                             model.null_log_likelihood_, model.epsilon_,
                                             model.n_features_in_, rng, n_random=1) > 1 + 1e-9:
                    out[i, c2] = False
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name,n_train,n_rows,every,ll_below",
                         [("kr-vs-kp", 2400, 150, 75, -600), ("vote", 300, 135, 3, -100)])
def test_credal_sets_on_real_folds_equal_brute_force(name, n_train, n_rows, every, ll_below):
    Xtr, ytr, Xte, yte = _split(name, n_train)
    Xte = Xte[:n_rows]
    bma = CredalBMAAODE().fit(Xtr, ytr)
    assert bma.log_likelihoods_.min() < ll_below          # likelihoods far below 1
    sets = bma.predict_set(Xte)
    np.testing.assert_array_equal(sets, _brute_sets_bma(bma, Xte))
    comp = CredalCompAODE().fit(Xtr, ytr)
    sets_c = comp.predict_set(Xte)
    rows = np.arange(0, n_rows, every)                    # SLSQP is slow: a subsample
    np.testing.assert_array_equal(sets_c[rows],
                                  _brute_sets_comp(comp, Xte[rows], np.random.default_rng(0)))
    for model, s in ((bma, sets), (comp, sets_c)):
        pred = _class_index(model, model.predict(Xte))
        assert s[np.arange(len(Xte)), pred].all()


def test_credal_sets_multiclass_fold_equal_brute_force():
    X, y, Xte, K = _conformance("zoo")
    for eps in (0.01, 1e-4):
        bma = CredalBMAAODE(epsilon=eps).fit(X, y)
        sets = bma.predict_set(Xte)
        np.testing.assert_array_equal(sets, _brute_sets_bma(bma, Xte))
    assert (sets.sum(1) > 1).sum() >= 2 and (sets.sum(1) == 1).any()
    pred = _class_index(bma, bma.predict(Xte))
    assert sets[np.arange(len(Xte)), pred].all()
    comp = CredalCompAODE(epsilon=0.05).fit(X, y)
    rows = np.arange(0, len(Xte), 8)
    np.testing.assert_array_equal(comp.predict_set(Xte.iloc[rows]),
                                  _brute_sets_comp(comp, Xte.iloc[rows],
                                                   np.random.default_rng(1)))


def test_credal_sets_equal_full_pairwise_tests_when_often_indeterminate():
    # small noisy data and a small epsilon: many rows keep several classes
    rng = np.random.default_rng(21)
    X, y = rng.integers(0, 3, size=(25, 5)), rng.integers(0, 3, 25)
    Xte = rng.integers(0, 3, size=(200, 5))
    bma = CredalBMAAODE(epsilon=1e-3, prune_factor=np.inf).fit(X, y)
    comp = CredalCompAODE(epsilon=1e-3).fit(X, y)
    lam = bma._bma_terms(bma._predict_input(Xte))
    post = np.exp(comp._comp_log_posteriors(comp._predict_input(Xte)))
    ll = comp.log_likelihoods_[comp.feasible_]
    exp_b, exp_c = np.ones((200, 3), bool), np.ones((200, 3), bool)
    for c1 in range(3):
        for c2 in range(3):
            if c1 != c2:
                exp_b[:, c2] &= ~(bma_lower_log_ratio(lam[:, :, c1], lam[:, :, c2], 0.0,
                                                      1e-3) > 0)
                m, _ = comp_min_margin(post[:, :, c1], post[:, :, c2], ll,
                                       comp.null_log_likelihood_, 1e-3, 5)
                exp_c[:, c2] &= ~(m > 0)
    for model, expected in ((bma, exp_b), (comp, exp_c)):
        got = model.predict_set(Xte)
        np.testing.assert_array_equal(got, expected)
        assert 10 < (got.sum(1) > 1).sum() < 190
        assert got[np.arange(200), _class_index(model, model.predict(Xte))].all()


def test_huge_log_likelihoods_no_overflow():
    # 20000 rows with a weak signal: conditional log-likelihoods around -1.3e4
    rng = np.random.default_rng(4)
    # with an XOR class only SPODEs 0 and 1 see the signal: a spread of thousands of nats
    X = rng.integers(0, 2, size=(20000, 5))
    y = (X[:, 0] ^ X[:, 1]) ^ (rng.random(20000) < 0.25) + 2 * (rng.random(20000) < 0.1)
    Xte = rng.integers(0, 2, size=(300, 5))
    with warnings.catch_warnings(), np.errstate(over="raise", invalid="raise", divide="raise"):
        warnings.simplefilter("error")
        bma = CredalBMAAODE(prune_factor=np.inf).fit(X, y)
        assert bma.log_likelihoods_.max() < -1e4
        assert np.ptp(bma.log_likelihoods_) > 709       # Algorithm 1's shift would overflow
        sets = bma.predict_set(Xte)
        comp = CredalCompAODE().fit(X, y)
        sets_c = comp.predict_set(Xte)
        probas = [m.predict_proba(Xte) for m in (AODE(), BMAAODE(), CompAODE())
                  for m in [m.fit(X, y)]]
    for p in probas:
        assert np.isfinite(p).all()
        np.testing.assert_allclose(p.sum(1), 1, atol=1e-12)
    assert sets.any(1).all() and sets_c.any(1).all()
    np.testing.assert_array_equal(sets[:60], _brute_sets_bma(bma, Xte[:60]))
    np.testing.assert_array_equal(sets_c[:8], _brute_sets_comp(comp, Xte[:8],
                                                                np.random.default_rng(3)))


# --------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_invariants_on_random_data(seed):
    rng = np.random.default_rng(seed)
    n, k, K = int(rng.integers(1, 40)), int(rng.integers(1, 5)), int(rng.integers(1, 5))
    X, y, nv, cats = _random_data(rng, max(n, K), k, K, p_missing=rng.choice([0, 0.2]))
    Xf = _as_frame(X, cats)
    Xte = np.column_stack([rng.integers(-1, v, size=15) for v in nv])
    Xtef = _as_frame(Xte, cats)
    eps = float(rng.uniform(1e-3, 0.99 / (k + 1)))
    for cls in (AODE, BMAAODE, CompAODE):
        p = cls().fit(Xf, y).predict_proba(Xtef)
        assert p.shape == (15, K) and np.isfinite(p).all()
        np.testing.assert_allclose(p.sum(axis=1), 1, atol=1e-12)
    for cls in (CredalBMAAODE, CredalCompAODE):
        m = cls(epsilon=eps).fit(Xf, y)
        s = m.predict_set(Xtef)
        assert s.shape == (15, K) and s.any(axis=1).all()
        pred = _class_index(m, m.predict(Xtef))
        assert s[np.arange(15), pred].all()
    # BMA-AODE*'s credal sets shrink as epsilon grows (nested prior sets)
    small = CredalBMAAODE(epsilon=eps / 2).fit(Xf, y).predict_set(Xtef)
    big = CredalBMAAODE(epsilon=eps).fit(Xf, y).predict_set(Xtef)
    assert not (big & ~small).any()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_feature_and_class_order_do_not_matter(seed):
    rng = np.random.default_rng(seed)
    X, y, nv, cats = _random_data(rng, 50, 4, 3, p_missing=0.1)
    perm = rng.permutation(4)
    Xte = np.column_stack([rng.integers(-1, v, size=20) for v in nv])
    labels = np.array(["b", "c", "a"])             # relabelled classes sort differently
    for cls in (AODE, BMAAODE, CompAODE):
        p = cls().fit(_as_frame(X, cats), y).predict_proba(_as_frame(Xte, cats))
        cats_p = [cats[j] for j in perm]
        q = cls().fit(_as_frame(X[:, perm], cats_p), labels[y]).predict_proba(
            _as_frame(Xte[:, perm], cats_p))
        np.testing.assert_allclose(q, p[:, [2, 0, 1]], atol=1e-12)
    for cls in (CredalBMAAODE, CredalCompAODE):
        s = cls().fit(X, y).predict_set(Xte)
        t = cls().fit(X[:, perm], labels[y]).predict_set(Xte[:, perm])
        np.testing.assert_array_equal(t, s[:, [2, 0, 1]])


# --------------------------------------------------------------------------- edge cases


def test_single_class_single_feature_and_no_feature():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(30, 4))
    one = np.full(30, "only")
    for cls in (AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE):
        m = cls().fit(X, one)
        assert list(m.predict(X[:5])) == ["only"] * 5
        if hasattr(m, "predict_set"):
            assert m.predict_set(X[:5]).all()
        else:
            np.testing.assert_allclose(m.predict_proba(X[:5]), 1.0)
    y = (X[:, 0] > 0).astype(int)
    for cls in (AODE, BMAAODE, CompAODE):          # one feature: one SPODE (= its own NB)
        p = cls().fit(X[:, :1], y).predict_proba(X[:3, :1])
        np.testing.assert_allclose(p.sum(1), 1)
    for cls in (CredalBMAAODE, CredalCompAODE):
        m = cls().fit(X[:, :1], y)
        s = m.predict_set(X[:, :1])
        # a single SPODE makes the credal set a single prior: determinate
        assert (s.sum(1) == 1).all()
        assert (m.classes_[s.argmax(1)] == m.predict(X[:, :1])).all()
    # no feature at all: an error (issue 16), not the class prior
    for cls in (AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE):
        with pytest.raises(ValueError, match="0 features"):
            cls().fit(np.zeros((30, 0), int), np.array([0] * 20 + [1] * 10))


def test_unobserved_declared_class_and_categories():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(40, 3))
    cats = [[0, 1, 2]] * 3
    y = pd.Series(pd.Categorical.from_codes(rng.integers(0, 2, 40), categories=["x", "y", "z"]))
    for cls in (AODE, BMAAODE, CompAODE):
        p = cls().fit(_as_frame(X, cats), y).predict_proba(_as_frame(X[:5], cats))
        assert p.shape == (5, 3) and (p[:, 2] < p[:, :2].max(1)).all()
    s = CredalCompAODE().fit(_as_frame(X, cats), y).predict_set(_as_frame(X[:5], cats))
    assert not s[:, 2].any()


def test_bad_input():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(20, 4))
    y = rng.integers(0, 2, size=20)
    for eps in (0.0, -0.1, 0.2, 0.25, 1.0, np.nan, "0.01"):
        for cls in (CredalBMAAODE, CredalCompAODE):
            with pytest.raises(ValueError, match="epsilon"):
                cls(epsilon=eps).fit(X, y)
    CredalCompAODE(epsilon=0.199).fit(X, y)            # just inside (0, 1/(k+1))
    with pytest.raises(ValueError, match="epsilon"):
        CompAODE(epsilon=1.0).fit(X, y)
    with pytest.raises(ValueError, match="prior"):
        AODE(prior="dirichlet").fit(X, y)
    with pytest.raises(ValueError, match="root_estimate"):
        BMAAODE(root_estimate="product").fit(X, y)
    with pytest.raises(ValueError, match="s must"):
        CompAODE(s=0).fit(X, y)
    with pytest.raises(ValueError, match="prune_factor"):
        BMAAODE(prune_factor=0.5).fit(X, y)
    with pytest.raises(ValueError, match="frequency_limit"):
        AODE(frequency_limit=-1).fit(X, y)
    with pytest.raises(ValueError, match="aggregate"):
        AODE(aggregate="mean").fit(X, y)
    huge = X.copy()
    huge[0, 2] = 10**6
    for cls in (AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE):
        with pytest.raises(ValueError, match="feature 2 has 1000001 categories.*GiB"):
            cls().fit(huge, y)
    with pytest.raises(ValueError, match="posterior_floor needs"):
        AODE(posterior_floor=1e-4).fit(X, y)
    for name in ("posterior_floor", "likelihood_floor"):
        for bad in (0.0, 1.0, -0.1, np.nan, "0.01"):
            for cls in (BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE):
                with pytest.raises(ValueError, match=name):
                    cls(**{name: bad}).fit(X, y)
    with pytest.raises(AttributeError, match="not fitted"):
        CredalBMAAODE().predict_set(X)
    m = CredalCompAODE().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict_set(X[:, :3])
    with pytest.raises(ValueError, match="outside"):
        m.predict_set(X + 1)
    with pytest.raises(ValueError):
        comp_min_margin([0.5], [0.4], [-200.0], -100.0, 0.01, 1)   # LL_j <= LL_0
    with pytest.raises(ValueError):
        bma_lower_log_ratio([0.0, 0.0], [0.0, 0.0], [0.0, 0.0], 0.6)


def test_sklearn_conventions():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(30, 3))
    y = rng.integers(0, 2, size=30)
    for cls in (AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE):
        m = cls()
        assert m.fit(X, y) is m
        c = clone(m)
        assert c.get_params() == m.get_params() and not hasattr(c, "classes_")


def test_bma_pruning_and_weights():
    Xtr, ytr, Xte, _ = _split("kr-vs-kp", 1500)
    m = BMAAODE().fit(Xtr, ytr)
    ll = m.log_likelihoods_
    np.testing.assert_array_equal(m.kept_, ll >= ll.max() - np.log(1e4))
    assert 0 < m.kept_.sum() < len(ll)
    w = np.where(m.kept_, np.exp(ll - ll.max()), 0)
    np.testing.assert_allclose(m.weights_, w / w.sum(), rtol=1e-12)
