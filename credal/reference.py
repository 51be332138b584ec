"""Slow reference implementations, kept in one place for tests, benchmarks and chapters.

* ``*_baseline_sets`` and :data:`BASELINES`: each credal classifier's dominance
  decided one instance and one ordered class pair at a time by a general-purpose
  scipy routine applied to the problem as the papers state it (the performance
  chapter's "solver baselines"); they share the fitted model's counts with ours.
* :func:`bisection_upper_entropy`: the IDM upper entropy by bisection on the water
  level (not the library's sorting algorithm).

The tests, ``benchmarks/`` and :mod:`credal.chapters.performance` import this copy. Frozen copies
of earlier implementations (the trees before their rewrites) live in ``tests/reference/``.
"""

from __future__ import annotations

import math

import numpy as np

from credal._validation import check_predict_input

__all__ = ["ncc_baseline_sets", "lncc_baseline_sets", "cma_baseline_sets",
           "bma_aode_baseline_sets", "comp_aode_baseline_sets", "cdt_baseline_sets",
           "rbc_baseline_sets", "BASELINES", "bisection_upper_entropy"]


# --------------------------------- solver baselines of the credal classifiers
def ncc_baseline_sets(model, X):
    """NCC / NCC-ε sets by bounded scalar minimisation, one ordered pair at a time.

    For classes ``c'``, ``c''`` the lower log-ratio is the minimum over ``τ`` in ``[0, 1]`` of
    ``ψ(τ)`` (:func:`credal.dominance.ncc_log_infimum`, written for the ε-contaminated credal set);
    :func:`scipy.optimize.minimize_scalar` (bounded) finds it and the end points are checked.
    ``c''`` is dropped iff some ``c'`` has ``min ψ > 0``.

    Parameters
    ----------
    model : credal.NCC
        Fitted.
    X : array-like or DataFrame
        Instances.

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize_scalar
    codes = check_predict_input(model, X)
    K = len(model.classes_)
    s, eps = float(model.s), float(model.epsilon)
    nv = np.asarray(model.n_values_)
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        j = np.flatnonzero((row >= 0) & (nv > 1))
        F = nv[j].astype(float)
        e = eps / (K * F)
        delta = eps * (F - 1) / (K * F)
        for a in range(K):
            n1 = float(model.class_count_[a])
            n1j = np.array([model.category_count_[k][a, row[k]] for k in j], float)
            o1j = model.observed_count_[a, j].astype(float)
            for b in range(K):
                if a == b or not out[i, b]:
                    continue
                n2 = float(model.class_count_[b])
                n2j = np.array([model.category_count_[k][b, row[k]] for k in j], float)
                o2j = model.observed_count_[b, j].astype(float)
                if eps == 0 and np.any(n1j == 0):
                    continue  # the infimum of the ratio is 0

                def psi(tau):
                    t2 = (1 - eps) * tau + eps / K
                    t1 = (1 - eps) * (1 - tau) + eps / K
                    with np.errstate(divide="ignore"):
                        return (np.log(n1 + s * t1) - np.log(n2 + s * t2)
                                + np.sum(np.log(n1j + s * e) - np.log(o1j + s * t1)
                                         + np.log(o2j + s * t2) - np.log(n2j + s * (t2 - delta))))

                res = minimize_scalar(psi, bounds=(0.0, 1.0), method="bounded",
                                      options={"xatol": 1e-12})
                low = min(float(res.fun), psi(0.0), psi(1.0))
                if low > 1e-9:
                    out[i, b] = False
    return out


def lncc_baseline_sets(model, X):
    """LNCC sets by root finding and bounded maximisation, one ordered pair at a time.

    For each ordered pair the profile likelihood of the paper's Theorems 1-2 is handled directly:
    :func:`scipy.optimize.brentq` finds the point where the probability ratio equals 1, and two
    bounded :func:`scipy.optimize.minimize_scalar` calls find the likelihood's maximum left of it
    and overall (after ``benchmarks/bench_naive.py``). ``c''`` is dropped iff some ``c'`` dominates
    it; with two classes, or without cycles of dominance, this is LNCC's set.

    Parameters
    ----------
    model : credal.LNCC
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import brentq, minimize_scalar
    from scipy.special import xlogy
    codes = check_predict_input(model, X)
    K = len(model.classes_)
    alpha = float(model.alpha)
    nv = np.asarray(model.n_values_)
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        j = np.flatnonzero((row >= 0) & (nv > 1))
        for a in range(K):
            for b in range(K):
                if a == b:
                    continue
                n1, n2 = float(model.class_count_[a]), float(model.class_count_[b])
                n1j = np.array([model.category_count_[k][a, row[k]] for k in j], float)
                n2j = np.array([model.category_count_[k][b, row[k]] for k in j], float)
                o1j = model.observed_count_[a, j].astype(float)
                o2j = model.observed_count_[b, j].astype(float)
                k1, k2 = n1j != o1j, n2j != o2j
                lo = -0.5 - min([n1] + list(n1j[k1]))
                hi = 0.5 + min([n2] + list(n2j[k2]))

                def parts(t):
                    x, y = 0.5 + t, 0.5 - t
                    with np.errstate(divide="ignore", invalid="ignore"):
                        lp1 = np.log(n1 + x) + np.sum(np.log(n1j[k1] + x) - np.log(o1j[k1] + x))
                        lp2 = np.log(n2 + y) + np.sum(np.log(n2j[k2] + y) - np.log(o2j[k2] + y))
                        ll = (xlogy(n1, n1 + x) + xlogy(n2, n2 + y)
                              + np.sum(xlogy(n1j[k1], n1j[k1] + x) - xlogy(o1j[k1], o1j[k1] + x))
                              + np.sum(xlogy(n2j[k2], n2j[k2] + y) - xlogy(o2j[k2], o2j[k2] + y)))
                    return lp1 - lp2, ll + np.logaddexp(lp1, lp2)

                # the log ratio increases in t; with large counts it can keep one sign
                # on every float of (lo, hi) (the root within one spacing of an end)
                a_, b_ = np.nextafter(lo, hi), np.nextafter(hi, lo)
                if parts(a_)[0] >= 0:
                    t0 = a_
                elif parts(b_)[0] <= 0:
                    t0 = b_
                else:
                    t0 = brentq(lambda t: parts(t)[0], a_, b_, xtol=1e-13)
                left = (-minimize_scalar(lambda t: -parts(t)[1], bounds=(lo, t0),
                                         method="bounded").fun if t0 > a_ else -np.inf)
                full = minimize_scalar(lambda t: -parts(t)[1], bounds=(lo, hi), method="bounded")
                best_left = max(left, parts(lo)[1], parts(t0)[1])
                best = max(-full.fun, best_left, parts(hi)[1])
                if np.log(alpha) > best_left - best + 1e-11:
                    out[i, b] = False
    return out


def _cma_slope(v, d):
    """``d/dv log(v e^d + 1 - v)``, without overflow for large ``|d|``."""
    e = np.exp(-np.abs(d))
    den = np.where(d > 0, v + (1 - v) * e, v * e + 1 - v)
    return np.sign(d) * -np.expm1(-np.abs(d)) / den


def cma_baseline_sets(model, X):
    """CMA sets by L-BFGS-B over the box of inclusion probabilities, per ordered pair.

    The log posterior ratio of ``c'`` and ``c''`` as a function of every feature's
    prior inclusion probability (in ``[inclusion_lower, inclusion_upper]``) is
    minimised by :func:`scipy.optimize.minimize` (L-BFGS-B, started at the centre of
    the box); ``c''`` is dropped iff some ``c'`` keeps the minimum above 0.

    Parameters
    ----------
    model : credal.CMA
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize
    codes = check_predict_input(model, X)
    lo, hi, _ = model._bounds
    K = len(model.classes_)
    A = model._log_rel_arc                     # (m, R + 1, K); index -1 = missing
    cp = model.class_log_prior_
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        obs = np.flatnonzero(row >= 0)
        a_rows = A[obs, row[obs]]               # (m_obs, K)
        v0 = np.full(len(obs), 0.5 * (lo + hi))  # lo itself when lo == hi
        for a in range(K):
            for b in range(K):
                if a == b or not out[i, b]:
                    continue
                da, db = a_rows[:, a], a_rows[:, b]

                def f(v, da=da, db=db):
                    lv, lq = np.log(v), np.log1p(-v)
                    ga, gb = np.logaddexp(lv + da, lq), np.logaddexp(lv + db, lq)
                    val = cp[a] - cp[b] + np.sum(ga - gb)
                    return val, _cma_slope(v, da) - _cma_slope(v, db)

                if len(obs) == 0:
                    low = cp[a] - cp[b]
                elif lo == hi:
                    low = f(v0)[0]
                else:
                    res = minimize(f, v0, jac=True, method="L-BFGS-B",
                                   bounds=[(lo, hi)] * len(obs),
                                   options={"ftol": 1e-14, "gtol": 1e-12})
                    low = float(res.fun)
                if low > 1e-9:
                    out[i, b] = False
    return out


def bma_aode_baseline_sets(model, X):
    """BMA-AODE* sets by linear programming, one LP per instance and ordered pair.

    The lower posterior odds over the credal set of SPODE priors (each at least ε)
    is a linear-fractional program; its Charnes-Cooper transformation is solved by
    :func:`scipy.optimize.linprog` (HiGHS), after ``benchmarks/bench_aode.py``.

    Parameters
    ----------
    model : credal.CredalBMAAODE
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import linprog
    lam = model._bma_terms(model._predict_input(X))
    n, k, K = lam.shape
    eps = model.epsilon_
    a_ub = np.c_[-np.eye(k), np.full(k, eps)]
    out = np.ones((n, K), dtype=bool)
    for i in range(n):
        for c1 in range(K):
            for c2 in range(K):
                if c1 == c2 or not out[i, c2]:
                    continue
                sg, sd = lam[i, :, c1].max(), lam[i, :, c2].max()
                g, d = np.exp(lam[i, :, c1] - sg), np.exp(lam[i, :, c2] - sd)
                res = linprog(np.r_[g, 0.0], A_ub=a_ub, b_ub=np.zeros(k),
                              A_eq=np.array([np.r_[d, 0.0], np.r_[np.ones(k), -1.0]]),
                              b_eq=[1.0, 0.0], bounds=[(0, None)] * (k + 1), method="highs")
                if res.status == 0 and res.fun > 0 and np.log(res.fun) + sg - sd > 1e-9:
                    out[i, c2] = False
    return out


def comp_aode_baseline_sets(model, X, n_starts=3, random_state=0):
    """COMP-AODE* sets by multi-start SLSQP on the paper's ratio, per ordered pair.

    The ratio of the two classes' compression-weighted scores is minimised over the credal set of
    SPODE priors with :func:`scipy.optimize.minimize` (SLSQP, the budget as an equality constraint;
    ``n_starts`` starts: the centre and random points), after ``benchmarks/bench_aode.py``.

    Parameters
    ----------
    model : credal.CredalCompAODE
        Fitted.
    X : array-like or DataFrame
    n_starts : int
    random_state : int

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize
    rng = np.random.default_rng(random_state)
    post = np.exp(model._comp_log_posteriors(model._predict_input(X)))
    ll = model.log_likelihoods_[model.feasible_]
    ll0, eps, k = model.null_log_likelihood_, model.epsilon_, model.n_features_in_
    n, kt, K = post.shape
    out = np.ones((n, K), dtype=bool)
    if kt == 0:
        return out
    budget = 1 - (k - kt + 1) * eps
    const = np.log(eps) + ll0 - ll
    cons = {"type": "eq", "fun": lambda y: y.sum() - budget, "jac": lambda y: np.ones(kt)}
    for i in range(n):
        for c1 in range(K):
            for c2 in range(K):
                if c1 == c2 or not out[i, c2]:
                    continue
                al, be = post[i, :, c1], post[i, :, c2]
                a, b = al @ const, be @ const

                def f(y, al=al, be=be, a=a, b=b):
                    return (al @ np.log(y) - a) / (be @ np.log(y) - b)

                def jac(y, al=al, be=be, a=a, b=b):
                    num, den = al @ np.log(y) - a, be @ np.log(y) - b
                    return (al * den - be * num) / (y * den ** 2)

                starts = [np.full(kt, budget / kt)]
                starts += [eps + (budget - kt * eps) * rng.dirichlet(np.ones(kt))
                           for _ in range(max(0, n_starts - 1))]
                best = min(minimize(f, y0, jac=jac, method="SLSQP",
                                    bounds=[(eps, None)] * kt, constraints=[cons],
                                    options={"ftol": 1e-12}).fun for y0 in starts)
                if best > 1 + 1e-9:
                    out[i, c2] = False
    return out


def cdt_baseline_sets(model, X):
    """Credal-tree sets by linear programming at the leaves, one row at a time.

    Each row walks down the tree (a missing split value follows every branch); at each leaf
    reached, class ``c`` is dropped iff for some class ``k`` the minimum of ``p_k - p_c`` over the
    leaf's IDM credal set ``{p : p_j >= n_j / (N + s)}`` is positive, solved by
    :func:`scipy.optimize.linprog`; the row's set is the union of the leaves' sets.

    Parameters
    ----------
    model : credal.CredalDecisionTree
        Fitted, ``leaf="dominance"``.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import linprog
    codes = check_predict_input(model, X)
    K = len(model.classes_)
    s = float(model.s)
    memo = {}

    def leaf_set(node):
        key = id(node)
        if key in memo:
            return memo[key]
        n = np.asarray(node.counts, dtype=float)
        N = n.sum()
        keep = np.ones(K, dtype=bool)
        if N > 0:
            low = n / (N + s)
            for c in range(K):
                for k in range(K):
                    if k == c:
                        continue
                    obj = np.zeros(K)
                    obj[k], obj[c] = 1.0, -1.0
                    res = linprog(obj, A_eq=np.ones((1, K)), b_eq=[1.0],
                                  bounds=list(zip(low, [1.0] * K)), method="highs")
                    if res.fun > 1e-9:
                        keep[c] = False
                        break
        memo[key] = keep
        return keep

    out = np.zeros((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        stack = [model.tree_]
        while stack:
            node = stack.pop()
            if node.is_leaf:
                out[i] |= leaf_set(node)
                continue
            v = row[node.feature]
            stack.extend(node.children if v < 0 else [node.children[v]])
    return out


def rbc_baseline_sets(model, X):
    """RBC_d sets from the posterior intervals computed case by case (Theorem 2).

    The interval of each class's posterior is computed per case and class with
    Python loops, the maximum over the other classes taken literally as printed in
    the paper (after ``benchmarks/bench_robust.py``); a class is dropped when another
    class's lower bound exceeds its upper bound (relative tolerance 1e-12, as the
    library).  No solver is needed: this is the direct implementation.

    Parameters
    ----------
    model : credal.RobustBayes
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    codes = check_predict_input(model, X)
    q = len(model.classes_)
    pl, pu = model.class_prob_lower_, model.class_prob_upper_
    out = np.ones((len(codes), q), dtype=bool)
    for t, row in enumerate(codes):
        xl, xu = np.ones(q), np.ones(q)
        for i, v in enumerate(row):
            if v >= 0:
                xl = xl * model.feature_prob_lower_[i][:, v]
                xu = xu * model.feature_prob_upper_[i][:, v]
        lo, up = np.empty(q), np.empty(q)
        for j in range(q):
            up[j] = pu[j] * xu[j] / (pu[j] * xu[j]
                                     + sum(pl[h] * xl[h] for h in range(q) if h != j))
            f = max((pu[g] * xu[g] + sum(pl[m] * xu[m] for m in range(q) if m not in (j, g))
                     for g in range(q) if g != j), default=0.0)
            lo[j] = pl[j] * xl[j] / (pl[j] * xl[j] + f)
        for j in range(q):
            for h in range(q):
                if h != j and lo[h] > up[j] * (1 + 1e-12):
                    out[t, j] = False
    return out


#: Credal entry -> (baseline function, short description of the method).
BASELINES = {
    "NCC": (ncc_baseline_sets, "bounded scalar minimisation (scipy) per ordered pair"),
    "NCC-ε": (ncc_baseline_sets, "bounded scalar minimisation (scipy) per ordered pair"),
    "LNCC": (lncc_baseline_sets, "brentq + two bounded maximisations per ordered pair"),
    "CMA": (cma_baseline_sets, "L-BFGS-B over the inclusion box per ordered pair"),
    "BMA-AODE*": (bma_aode_baseline_sets, "LP (HiGHS) per ordered pair"),
    "COMP-AODE*": (comp_aode_baseline_sets, "multi-start SLSQP (3 starts) per ordered pair"),
    "CDT": (cdt_baseline_sets, "LP (HiGHS) per leaf and ordered pair, tree walk per row"),
    "CDT-double": (cdt_baseline_sets, "LP (HiGHS) per leaf and ordered pair, tree walk per row"),
    "RBC": (rbc_baseline_sets, "Theorem 2 with loops over cases and classes (no solver)")}


# ----------------------------------------- the IDM upper entropy by bisection
def bisection_upper_entropy(counts, s, iters=200):
    """Upper entropy of the IDM by bisection on the water level, in plain Python.

    The maximum-entropy distribution raises the smallest counts to a common level ``L`` with
    ``sum(max(0, L - n_j)) = s``; ``iters`` halvings of ``[0, max n + s]`` find ``L``.

    Parameters
    ----------
    counts : sequence of float
    s : float
        IDM prior strength.
    iters : int

    Returns
    -------
    float
        In nats.
    """
    n = [float(v) for v in counts]
    lo, hi = 0.0, max(n) + s
    for _ in range(iters):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if sum(max(0.0, mid - v) for v in n) > s else (mid, hi)
    p = [max(v, lo) / (sum(n) + s) for v in n]
    return -sum(x * math.log(x) for x in p if x > 0)
