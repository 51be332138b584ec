"""AODE and its weighted and credal ensembles of SPODEs (Corani & Antonucci).

A SPODE makes every feature depend on the class and on one super-parent feature;
with ``k`` features there are ``k`` SPODEs. ``AODE`` averages them (Webb et al.;
Weka), ``BMAAODE`` weights them by their conditional likelihoods, ``CompAODE`` by
compression coefficients with a null model, and the credal versions
``CredalBMAAODE`` / ``CredalCompAODE`` return the classes that are maximal over a
credal set of prior weights (epsilon-contamination), decided exactly for all rows
and class pairs in log space. The estimation choices, the exact dominance tests and
their derivations are in the book's Algorithms appendix.
"""

from __future__ import annotations

import numbers

import numpy as np

from credal.base import BaseClassifier, CredalMixin, PreciseMixin
from credal._validation import (
    check_fit_input,
    check_in_range,
    check_positive,
)

__all__ = [
    "AODE",
    "BMAAODE",
    "CompAODE",
    "CredalBMAAODE",
    "CredalCompAODE",
    "bma_lower_log_ratio",
    "comp_min_margin",
    "comp_min_ratio",
]

# Relative guard for dominance decisions (see the module docstring).
_TOL = 1e-12
# Target number of float64 elements in one temporary block (rows are chunked).
_BLOCK = 2_000_000


# --------------------------------------------------------------------------- exact tests


def _lse(a, axis, keepdims=False):
    """``log(sum(exp(a)))`` along ``axis``, shifted by the maximum (plain numpy: faster
    than scipy's array-API version on many small reductions)."""
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    out = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def bma_lower_log_ratio(log_p1, log_p2, log_lik, epsilon):
    """Log of the lower posterior odds of two classes under BMA-AODE*.

    Computes ``ln rho*`` with
    ``rho* = min_{x in P_eps} sum_j gamma_j x_j / sum_j delta_j x_j``,
    ``gamma_j = P(c'|a, s_j) L_j``, ``delta_j = P(c''|a, s_j) L_j`` and
    ``P_eps = {x_j >= eps, sum_j x_j = 1}``.  ``P_eps`` is the convex hull of the
    vertices ``eps + (1 - k eps) e_i``, and a ratio of linear forms over a polytope is
    minimised at a vertex (mediant inequality), so with ``N_i = eps sum(gamma) +
    (1 - k eps) gamma_i`` and ``D_i`` likewise, ``rho* = min_i N_i / D_i``.  Everything is
    evaluated with log-sum-exp, so log-likelihoods of any size are safe.

    Parameters
    ----------
    log_p1, log_p2 : array-like, shape (..., k)
        ``ln P(c'|a, s_j)`` and ``ln P(c''|a, s_j)`` of the ``k`` (kept) SPODEs.
    log_lik : array-like, shape (..., k)
        Conditional log-likelihoods ``LL_j`` (broadcast against the above); any common
        shift cancels.
    epsilon : float
        Lower bound of every prior probability; needs ``0 < k eps <= 1``.

    Returns
    -------
    ndarray, shape (...)
        ``ln rho*``; ``c'`` dominates ``c''`` iff it is positive.  Pruning is the
        caller's job: pass only the kept SPODEs.
    """
    lam = np.asarray(log_p1, dtype=float) + np.asarray(log_lik, dtype=float)
    mu = np.asarray(log_p2, dtype=float) + np.asarray(log_lik, dtype=float)
    lam, mu = np.broadcast_arrays(lam, mu)
    k = lam.shape[-1]
    if k == 0:
        raise ValueError("at least one model is needed")
    eps = float(epsilon)
    if not (eps > 0 and k * eps <= 1 + 1e-12):
        raise ValueError(f"epsilon must satisfy 0 < k*epsilon <= 1 (k={k}); got {epsilon!r}")
    return (_bma_log_vertex(lam, eps) - _bma_log_vertex(mu, eps)).min(axis=-1)


def _bma_log_vertex(lam, eps):
    """``ln(eps * sum_j exp(lam_j) + (1 - k eps) exp(lam_i))`` for every ``i``."""
    k = lam.shape[-1]
    rest = max(1.0 - k * eps, 0.0)
    total = _lse(lam, axis=-1, keepdims=True) + np.log(eps)
    with np.errstate(divide="ignore"):
        return np.logaddexp(total, np.log(rest) + lam)


def _comp_argmin(w, eps, budget):
    """Minimiser of ``sum_j w_j ln y_j`` over ``{y_j >= eps, sum_j y_j = budget}``.

    Water-filling: mass above ``eps`` only goes to negative weights, where the problem
    is convex and KKT gives ``y_j = max(eps, |w_j| / lam)``; with no negative weight
    the objective is concave and the vertex giving the spare mass to the smallest
    weight is optimal.
    """
    kt = w.shape[-1]
    a = np.where(w < 0, -w, 0.0)
    a_sorted = -np.sort(-a, axis=-1)
    cum = np.cumsum(a_sorted, axis=-1)
    r = np.arange(1, kt + 1)
    lam = cum / (budget - (kt - r) * eps)
    # {r : a_(r) >= eps lam_r} is a prefix (a_(r) (T-(k-r)eps) - eps S_r is non-increasing).
    ok = (a_sorted > 0) & (a_sorted >= eps * lam)
    has_neg = ok[..., 0]
    last = kt - 1 - np.argmax(ok[..., ::-1], axis=-1)
    lam_star = np.take_along_axis(lam, last[..., None], axis=-1)
    lam_star = np.where(has_neg[..., None], lam_star, 1.0)
    y_neg = np.where(w < 0, np.maximum(eps, a / lam_star), eps)
    y_pos = np.full(w.shape, eps)
    np.put_along_axis(y_pos, np.argmin(w, axis=-1)[..., None],
                      budget - (kt - 1) * eps, axis=-1)
    return np.where(has_neg[..., None], y_neg, y_pos)


def _comp_setup(alpha, beta, log_lik, null_log_lik, epsilon, n_models):
    alpha, beta = np.broadcast_arrays(np.asarray(alpha, dtype=float),
                                      np.asarray(beta, dtype=float))
    ll = np.asarray(log_lik, dtype=float)
    kt = alpha.shape[-1]
    eps = float(epsilon)
    if kt == 0:
        raise ValueError("at least one model is needed")
    if not 0 < eps < 1:
        raise ValueError(f"epsilon must lie in (0, 1); got {epsilon!r}")
    if n_models < kt or (n_models + 1) * eps > 1 + 1e-12:
        raise ValueError(
            f"need k~ <= k and (k+1)*epsilon <= 1; got k~={kt}, k={n_models}, "
            f"epsilon={epsilon!r}")
    if np.any(ll <= null_log_lik):
        raise ValueError("every model must have log_lik > null_log_lik (feasibility)")
    z = -(float(null_log_lik) + np.log(eps))
    budget = 1.0 - (n_models - kt + 1) * eps
    return alpha, beta, ll, eps, z, budget


def comp_min_margin(alpha, beta, log_lik, null_log_lik, epsilon, n_models):
    """Exact minimum of the COMP-AODE* dominance margin over the credal set (9).

    With ``pi_j(y) = 1 + (LL_j + ln y_j) / Z``, ``Z = -(LL_0 + ln eps)``, computes
    ``m* = min_y sum_j (alpha_j - beta_j) pi_j(y)`` over
    ``Y = {y_j >= eps, sum_j y_j = 1 - (k - k~ + 1) eps}`` (the null model and the
    ``k - k~`` infeasible SPODEs hold ``eps`` each).  When every ``LL_j > LL_0`` all
    ``pi_j`` are positive on ``Y``, and ``c'`` dominates ``c''`` (the ratio (15) exceeds
    one for every prior) iff ``m* > 0``.  Since ``sum_j w_j pi_j`` equals a constant plus
    ``sum_j w_j ln y_j / Z``, the minimiser is the water-filling solution of
    :func:`_comp_argmin`.

    Parameters
    ----------
    alpha, beta : array-like, shape (..., k~)
        ``P(c'|a, s_j)`` and ``P(c''|a, s_j)`` of the feasible SPODEs (any common
        positive scale).
    log_lik : array-like, shape (k~,)
        Their conditional log-likelihoods ``LL_j`` (all ``> null_log_lik``).
    null_log_lik : float
        ``LL_0`` of the null model.
    epsilon : float
        Prior probability of the null model and lower bound of the others.
    n_models : int
        Total number ``k`` of SPODEs, feasible or not.

    Returns
    -------
    margin : ndarray, shape (...)
    y : ndarray, shape (..., k~)
        A minimising prior of the feasible SPODEs.
    """
    alpha, beta, ll, eps, z, budget = _comp_setup(alpha, beta, log_lik, null_log_lik,
                                                  epsilon, n_models)
    w = alpha - beta
    y = _comp_argmin(w, eps, budget)
    pi = 1.0 + (ll + np.log(y)) / z
    return (w * pi).sum(axis=-1), y


def comp_min_ratio(alpha, beta, log_lik, null_log_lik, epsilon, n_models, *, max_iter=100):
    """Exact minimum of the COMP-AODE* ratio (15) by Dinkelbach's method.

    Iterates ``r <- R(y)``, ``y = argmin_Y sum_j (alpha_j - r beta_j) pi_j(y)`` (the
    water-filling oracle of :func:`comp_min_margin`), which decreases ``r`` to the
    minimum in a few steps.  Arguments as in :func:`comp_min_margin`; ``beta`` must not
    be identically zero.

    Returns
    -------
    ratio : ndarray, shape (...)
        ``min_Y sum_j alpha_j pi_j(y) / sum_j beta_j pi_j(y)``.
    y : ndarray, shape (..., k~)
        A minimiser.
    """
    alpha, beta, ll, eps, z, budget = _comp_setup(alpha, beta, log_lik, null_log_lik,
                                                  epsilon, n_models)
    if np.any(beta.sum(axis=-1) <= 0):
        raise ValueError("beta must have a positive entry in every problem")
    kt = alpha.shape[-1]
    y = np.full(alpha.shape, budget / kt)

    def ratio(y):
        pi = 1.0 + (ll + np.log(y)) / z
        return (alpha * pi).sum(-1) / (beta * pi).sum(-1)

    r = ratio(y)
    for _ in range(max_iter):
        y_new = _comp_argmin(alpha - r[..., None] * beta, eps, budget)
        r_new = ratio(y_new)
        improved = r_new < r
        y = np.where(improved[..., None], y_new, y)
        done = ~improved | (r - r_new <= 1e-15 * np.abs(r))
        r = np.minimum(r, r_new)
        if np.all(done):
            break
    return r, y


# --------------------------------------------------------------------------- estimation


def _check_choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}; got {value!r}")
    return value


def _pair_counts(g, y_idx, n_classes, size):
    """``counts[c, u, w]`` = rows of class ``c`` with flat values ``u`` and ``w``."""
    n, k = g.shape
    cells = n_classes * size * size
    out = np.zeros(cells, dtype=np.int64)
    step = max(1, _BLOCK // max(k * k, 1))
    for start in range(0, n, step):
        gg = g[start:start + step]
        idx = (y_idx[start:start + step, None, None] * size + gg[:, :, None]) * size \
            + gg[:, None, :]
        out += np.bincount(idx.ravel(), minlength=cells)
    return out.reshape(n_classes, size, size).astype(float)


class _SPODEEnsemble(BaseClassifier):
    """Shared estimation of the ``k`` SPODEs (see the module docstring)."""

    # ----- fitting

    def _check_common(self):
        _check_choice("prior", self.prior, {"perks", "laplace"})
        _check_choice("root_estimate", self.root_estimate, {"chain", "joint"})
        check_positive("s", self.s)

    def _fit_tables(self, X, y):
        self._check_common()
        codes, y_idx = check_fit_input(self, X, y)
        nv = np.asarray(self.n_values_, dtype=np.int64)
        if np.any(nv < 1):
            j = int(np.argmin(nv))
            name = self.feature_names_in_[j] if hasattr(self, "feature_names_in_") else j
            raise ValueError(f"feature {name!r} declares no category")
        K, k = len(self.classes_), codes.shape[1]
        off = np.concatenate([[0], np.cumsum(nv)[:-1]]).astype(np.int64)
        V = int(nv.sum())
        self._off, self._V = off, V
        feat = np.repeat(np.arange(k), nv)  # feature of each flat value
        g = self._flat(codes)
        counts = _pair_counts(g, y_idx, K, V + 1)[:, :V, :V]

        perks = self.prior == "perks"
        s = float(self.s)
        n_cls = np.bincount(y_idx, minlength=K).astype(float)
        N = float(len(y_idx))
        n_cu = np.einsum("cuu->cu", counts)                       # n(c, u)
        n_cj = (np.add.reduceat(n_cu, off, axis=1) if k else np.zeros((K, 0)))  # n_j(c)
        # class prior and P(u | c), shared by "chain", naive Bayes and the fall-backs
        a_c = s / K if perks else 1.0
        log_prior = np.log(n_cls + a_c) - np.log(N + K * a_c)
        b = s / (K * nv[feat]) if perks else np.ones(V)          # pseudo-count per (c, u)
        log_cond = np.log(n_cu + b) - np.log(n_cj[:, feat] + nv[feat] * b)
        if self.root_estimate == "chain":
            log_root = log_prior[:, None] + log_cond
        else:
            n_j = n_cj.sum(axis=0)                                # rows with A_j observed
            log_root = np.log(n_cu + b) - np.log(n_j[feat] + K * nv[feat] * b)

        # children: P(w | c, u) for u in block j, w in block l != j
        n_l = (np.add.reduceat(counts, off, axis=2) if k else np.zeros((K, V, 0)))
        cell = (s / (K * np.outer(nv[feat], nv[feat])) if perks else np.ones((V, V)))
        denom_extra = nv[feat][None, :] * cell                    # |A_l| * cell
        log_child = np.log(counts + cell) - np.log(n_l[:, :, feat] + denom_extra)
        same = feat[:, None] == feat[None, :]
        log_child[:, same] = 0.0
        # (u, w, c) layout with a zero "missing" row and column at index V
        lc = np.zeros((V + 1, V + 1, K))
        lc[:V, :V] = log_child.transpose(1, 2, 0)
        lr = np.zeros((V + 1, K))
        lr[:V] = log_root.T
        lnb = np.zeros((V + 1, K))
        lnb[:V] = log_cond.T
        self._log_child, self._log_root = lc, lr
        self._log_nb, self._log_prior = lnb, log_prior
        self._value_freq = np.append(n_cu.sum(axis=0), 0.0)       # training frequency of u
        return g, y_idx

    def _flat(self, codes):
        """Flat value index of every cell, ``V`` for missing."""
        return np.where(codes < 0, self._V, codes + self._off[None, :])

    # ----- SPODE joints and posteriors

    def _spode_log_joint(self, g, parents=None, marginalise=True, method=None):
        """``ln P(c, a_obs | s_j)`` for the super-parents ``parents``, shape (n, p, K).

        Rows whose super-parent is missing are marginalised over its values when
        ``marginalise``; otherwise they hold a placeholder the caller must mask.
        Two equivalent evaluations: ``"gather"`` sums ``k`` table entries per SPODE
        (``O(p k K)`` per row); ``"matmul"`` multiplies the rows' one-hot value vectors
        by the child tables (``O(V V_p K)`` flops per row, but BLAS speed), which also
        gives every value of a missing super-parent at once.  ``None`` picks the
        cheaper one.
        """
        n, k = g.shape
        K = len(self.classes_)
        P = np.arange(k) if parents is None else np.asarray(parents, dtype=np.int64)
        V = self._V
        lc, lr = self._log_child, self._log_root
        blocks = [np.arange(self._off[j], self._off[j] + self.n_values_[j]) for j in P]
        vp = sum(len(b) for b in blocks)
        if method is None:
            # one gathered element costs roughly as much as ~30 multiply-adds in BLAS
            method = "matmul" if (V + 1) * vp <= 30 * len(P) * k else "gather"
        out = np.empty((n, len(P), K))
        if method == "matmul":
            U = np.concatenate(blocks) if blocks else np.zeros(0, np.int64)
            pos = np.full(V + 1, -1)
            pos[U] = np.arange(len(U))
            tab = lc[U].transpose(1, 0, 2).reshape(V + 1, len(U) * K)
            step = max(1, _BLOCK // max((V + 1 + len(U) * K), 1))
            bounds = np.cumsum([0] + [len(b) for b in blocks])
            for start in range(0, n, step):
                G = g[start:start + step]
                m = len(G)
                onehot = np.zeros((m, V + 1))
                onehot[np.arange(m)[:, None], G] = 1.0
                R = (onehot @ tab).reshape(m, len(U), K) + lr[U][None]
                idx = pos[G[:, P]]                                  # -1: missing parent
                sel = np.take_along_axis(R, np.maximum(idx, 0)[:, :, None], axis=1)
                out[start:start + step] = sel
                if marginalise:
                    for p in np.flatnonzero((idx < 0).any(axis=0)):
                        rows = np.flatnonzero(idx[:, p] < 0)
                        out[start + rows, p] = _lse(
                            R[rows, bounds[p]:bounds[p + 1]], axis=1)
            return out
        if method != "gather":
            raise ValueError(f"unknown method {method!r}")
        step = max(1, _BLOCK // max(len(P) * k * K, 1))
        for start in range(0, n, step):
            G = g[start:start + step]
            out[start:start + step] = (lc[G[:, P, None], G[:, None, :]].sum(axis=2)
                                       + lr[G[:, P]])
        if marginalise:
            for p, j in enumerate(P):
                rows = np.flatnonzero(g[:, j] == V)
                if rows.size == 0:
                    continue
                u = blocks[p]
                sub = max(1, _BLOCK // max(len(u) * k * K, 1))
                for start in range(0, rows.size, sub):
                    G = g[rows[start:start + sub]]
                    t = lc[u[None, :, None], G[:, None, :]].sum(axis=2) + lr[u][None]
                    out[rows[start:start + sub], p] = _lse(t, axis=1)
        return out

    def _spode_log_posterior(self, g, parents=None, method=None):
        lj = self._spode_log_joint(g, parents, marginalise=True, method=method)
        return lj - _lse(lj, axis=2, keepdims=True)

    def _nb_log_joint(self, g):
        """Naive Bayes ``ln P(c, a_obs)`` with the same prior, shape (n, K)."""
        return self._log_prior[None, :] + self._log_nb[g].sum(axis=1)

    def _conditional_log_likelihoods(self, g, y_idx):
        """``LL_j`` of every SPODE on the training rows, and ``LL_0``."""
        lp = self._spode_log_posterior(g)
        ll = lp[np.arange(len(y_idx)), :, y_idx].sum(axis=0)
        freq = np.bincount(y_idx, minlength=len(self.classes_)) / len(y_idx)
        nz = freq[freq > 0]
        ll0 = float(len(y_idx) * np.sum(nz * np.log(nz)))          # -n H(C)
        return ll, ll0

    def _predict_input(self, X):
        return self._flat(super()._predict_input(X))

    def _prior_log_proba(self, n):
        """Smoothed class frequencies for every row: the fall-back without SPODEs."""
        return np.tile(self._log_prior, (n, 1))


def _normalise(lj):
    return lj - _lse(lj, axis=1, keepdims=True)


# --------------------------------------------------------------------------- AODE


class AODE(PreciseMixin, _SPODEEnsemble):
    """Averaged one-dependence estimators: the mean of the SPODE joints.

    ``P(c | a) ∝ (1/|J|) sum_{j in J} P(c, a | s_j)`` over the usable super-parents
    ``J`` of the row: observed, with a training frequency of at least
    ``frequency_limit``.  With none usable, naive Bayes with the same prior is used.

    Parameters
    ----------
    prior : {"perks", "laplace"}
        Dirichlet prior of the tables (see the module docstring).
    s : float
        Equivalent sample size of the Perks prior (> 0).
    root_estimate : {"chain", "joint"}
        Estimate of the (class, super-parent) factor; ``"joint"`` with
        ``prior="laplace"`` is Weka's AODE, ``"chain"`` with ``"laplace"`` bnclassify's.
    frequency_limit : int
        A super-parent value seen fewer times than this in training does not make a
        SPODE usable (Weka's default 1 skips values never seen).

    Attributes
    ----------
    classes_, n_values_, n_features_in_ : as set by :func:`credal._validation.check_fit_input`
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", frequency_limit=1):
        self.prior = prior
        self.s = s
        self.root_estimate = root_estimate
        self.frequency_limit = frequency_limit

    def fit(self, X, y):
        """Count the training data and build every SPODE's tables; returns self."""
        lim = self.frequency_limit
        if isinstance(lim, bool) or not isinstance(lim, numbers.Integral) or lim < 0:
            raise ValueError(f"frequency_limit must be an integer >= 0; got {lim!r}")
        self._fit_tables(X, y)
        return self

    def _log_proba(self, g):
        usable = (g < self._V) & (self._value_freq[g] >= self.frequency_limit)
        lj = self._spode_log_joint(g, marginalise=False)
        lj = np.where(usable[:, :, None], lj, -np.inf)
        some = usable.any(axis=1)
        agg = np.empty((len(g), len(self.classes_)))
        if some.any():
            agg[some] = _lse(lj[some], axis=1)
        agg[~some] = self._nb_log_joint(g[~some])
        return _normalise(agg)


# --------------------------------------------------------------------------- BMA


def _check_prune_factor(value):
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or np.isnan(value) or value < 1):
        raise ValueError(
            f"prune_factor must be a number >= 1 (np.inf: no pruning); got {value!r}")
    return float(value)


class _BMAFit:
    def _fit_bma(self, X, y):
        prune = _check_prune_factor(self.prune_factor)
        g, y_idx = self._fit_tables(X, y)
        ll, _ = self._conditional_log_likelihoods(g, y_idx)
        # robust exponentiation: subtract the largest log-likelihood (not the smallest)
        shifted = ll - (ll.max() if ll.size else 0.0)
        kept = shifted >= -np.log(prune)
        w = np.where(kept, np.exp(shifted), 0.0)
        self.log_likelihoods_ = ll
        self.kept_ = kept
        self.weights_ = w / w.sum() if ll.size else w
        return g, y_idx

    def _bma_terms(self, g):
        """Per-row log posteriors of the kept SPODEs plus their shifted LL, (n, k', K)."""
        lp = self._spode_log_posterior(g, np.flatnonzero(self.kept_))
        ll = self.log_likelihoods_[self.kept_]
        return lp + (ll - ll.max())[None, :, None]

    def _bma_log_proba(self, g):
        if not self.kept_.any():
            return self._prior_log_proba(len(g))
        return _normalise(_lse(self._bma_terms(g), axis=1))


class BMAAODE(_BMAFit, PreciseMixin, _SPODEEnsemble):
    """Bayesian model averaging over SPODEs with conditional likelihoods (BMA-AODE).

    ``P(c | a) ∝ sum_j P(c | a, s_j) L_j / k`` over the SPODEs with
    ``L_j >= L_max / prune_factor``; ``L_j`` is the conditional likelihood (2).

    Parameters
    ----------
    prior, s, root_estimate : see :class:`AODE`
    prune_factor : float
        SPODEs whose conditional likelihood is below ``L_max / prune_factor`` are
        dropped (paper: 1e4); ``np.inf`` keeps all.

    Attributes
    ----------
    log_likelihoods_ : ndarray, shape (n_features,)
        Conditional log-likelihood ``LL_j`` of every SPODE on the training data.
    kept_ : ndarray of bool, shape (n_features,)
    weights_ : ndarray, shape (n_features,)
        Posterior model weights (0 for pruned SPODEs).
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", prune_factor=1e4):
        self.prior = prior
        self.s = s
        self.root_estimate = root_estimate
        self.prune_factor = prune_factor

    def fit(self, X, y):
        """Build the SPODEs and their likelihood weights; returns self."""
        self._fit_bma(X, y)
        return self

    def _log_proba(self, g):
        return self._bma_log_proba(g)


def _check_epsilon(value, X, *, credal):
    """``epsilon`` in ``(0, 1/(k+1))`` (credal) or ``(0, 1)``, ``k`` = columns of ``X``.

    Checked before any counting; ``X`` that is not 2-D is left to the input checks.
    """
    shape = np.shape(X)
    k = shape[1] if len(shape) == 2 else 0
    high = 1.0 / (k + 1) if credal else 1.0
    return check_in_range("epsilon", value, 0.0, high, closed="neither")


def _prior_sets(log_prior, n):
    """Sets of a model without SPODEs: the most probable classes of the prior."""
    return np.broadcast_to(log_prior >= log_prior.max() - _TOL, (n, log_prior.size)).copy()


def _maximal_sets(g, terms, dominates, k, n_classes, log_weights=None):
    """Maximality, vectorised over rows and class pairs.

    ``terms(g_chunk)`` gives the per-row, per-class model terms, shape (m, K, k);
    ``dominates(t1, t2)`` decides dominance for broadcastable term arrays.  The
    precise choice (arg max over classes of ``logsumexp(terms + log_weights)``) is
    never dominated, so it is tested first against every class; the full ``K x K``
    test runs only on the rows where it leaves more than one class undominated.
    """
    out = np.empty((len(g), n_classes), dtype=bool)
    step = max(1, _BLOCK // max(4 * k * n_classes * n_classes, 1))
    for start in range(0, len(g), step):
        t = terms(g[start:start + step])                              # (m, K, k)
        score = _lse(t if log_weights is None else t + log_weights, axis=-1)
        best = np.argmax(score, axis=1)
        sets = ~dominates(t[np.arange(len(t)), best][:, None, :], t)  # (m, K)
        hard = np.flatnonzero(sets.sum(axis=1) > 1)
        if hard.size:
            sub = t[hard]
            sets[hard] = ~dominates(sub[:, :, None, :], sub[:, None, :, :]).any(axis=1)
        out[start:start + step] = sets
    return out


class CredalBMAAODE(_BMAFit, CredalMixin, _SPODEEnsemble):
    """BMA-AODE*: BMA over SPODEs with the prior credal set (4).

    ``c'`` dominates ``c''`` iff its posterior is larger for every prior
    ``P(s_j) >= epsilon`` (on the SPODEs kept by the ``L_max / prune_factor`` rule);
    ``predict_set`` returns the non-dominated classes (maximality), decided exactly by
    :func:`bma_lower_log_ratio`.  ``predict`` returns BMA-AODE's class.

    Parameters
    ----------
    prior, s, root_estimate, prune_factor : see :class:`BMAAODE`
    epsilon : float
        Lower bound of each SPODE's prior probability, in ``(0, 1/(k+1))``.

    Attributes
    ----------
    log_likelihoods_, kept_, weights_ : as in :class:`BMAAODE`
    epsilon_ : float
        The checked ``epsilon``.
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", prune_factor=1e4,
                 epsilon=0.01):
        self.prior = prior
        self.s = s
        self.root_estimate = root_estimate
        self.prune_factor = prune_factor
        self.epsilon = epsilon

    def fit(self, X, y):
        """Build the SPODEs and their likelihoods; returns self."""
        eps = _check_epsilon(self.epsilon, X, credal=True)
        self._fit_bma(X, y)
        self.epsilon_ = eps
        return self

    def _scores(self, g):
        # the counterpart, BMA-AODE: its class is always inside the set
        return self._bma_log_proba(g)

    def _sets(self, g):
        if not self.kept_.any():
            return _prior_sets(self._log_prior, len(g))
        eps = self.epsilon_

        def dominates(lam1, lam2):
            # ln rho* = min_i (ln N_i - ln D_i), see bma_lower_log_ratio
            diff = _bma_log_vertex(lam1, eps) - _bma_log_vertex(lam2, eps)
            return diff.min(axis=-1) > _TOL

        return _maximal_sets(g, lambda rows: np.moveaxis(self._bma_terms(rows), 1, 2),
                             dominates, int(self.kept_.sum()), len(self.classes_))


# --------------------------------------------------------------------------- compression


class _CompFit:
    def _fit_comp(self, X, y, *, credal):
        eps = _check_epsilon(self.epsilon, X, credal=credal)
        g, y_idx = self._fit_tables(X, y)
        k = g.shape[1]
        self.epsilon_ = eps
        ll, ll0 = self._conditional_log_likelihoods(g, y_idx)
        z = -(ll0 + np.log(eps))
        feasible = ll > ll0
        pi = 1.0 + (ll + np.log((1.0 - eps) / max(k, 1))) / z     # eq. (6), prior (5)
        self.log_likelihoods_ = ll
        self.null_log_likelihood_ = ll0
        self.compression_ = pi
        self.feasible_ = feasible
        w = np.where(feasible, pi, 0.0)
        self.weights_ = w / w.sum() if feasible.any() else w
        return g, y_idx

    def _comp_log_posteriors(self, g):
        return self._spode_log_posterior(g, np.flatnonzero(self.feasible_))

    def _comp_log_proba(self, g):
        if not self.feasible_.any():
            return self._prior_log_proba(len(g))
        lw = np.log(self.weights_[self.feasible_])
        return _normalise(_lse(self._comp_log_posteriors(g) + lw[None, :, None], axis=1))


class CompAODE(_CompFit, PreciseMixin, _SPODEEnsemble):
    """SPODEs averaged with compression coefficients (COMP-AODE).

    ``P(c | a) = sum_j P(c | a, s_j) pi_j / sum_l pi_l`` over the feasible SPODEs
    (``LL_j > LL_0``), with the raw coefficients (6) under the prior (5):
    ``P(s_0) = epsilon`` for the null model and ``(1 - epsilon)/k`` for each SPODE.

    Parameters
    ----------
    prior, s, root_estimate : see :class:`AODE`
    epsilon : float
        Prior probability of the null model, in ``(0, 1)`` (paper: 0.01).

    Attributes
    ----------
    log_likelihoods_ : ndarray, shape (n_features,)
        ``LL_j`` of every SPODE.
    null_log_likelihood_ : float
        ``LL_0 = -n H(C)``.
    compression_ : ndarray, shape (n_features,)
        Raw compression coefficients ``pi_j`` of eq. (6).
    feasible_ : ndarray of bool, shape (n_features,)
    weights_ : ndarray, shape (n_features,)
        Normalised coefficients (7) (0 for infeasible SPODEs).
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", epsilon=0.01):
        self.prior = prior
        self.s = s
        self.root_estimate = root_estimate
        self.epsilon = epsilon

    def fit(self, X, y):
        """Build the SPODEs and their compression weights; returns self."""
        self._fit_comp(X, y, credal=False)
        return self

    def _log_proba(self, g):
        return self._comp_log_proba(g)


class CredalCompAODE(_CompFit, CredalMixin, _SPODEEnsemble):
    """COMP-AODE*: compression-based SPODE averaging with the prior credal set (9).

    The null model has prior ``epsilon``, every SPODE at least ``epsilon``; the
    infeasible SPODEs (``LL_j <= LL_0``) hold ``epsilon`` each.  ``predict_set`` returns
    the classes no other class dominates over this set (maximality), decided exactly by
    :func:`comp_min_margin`; ``predict`` returns COMP-AODE's class, which the set
    always contains.

    Parameters
    ----------
    prior, s, root_estimate : see :class:`AODE`
    epsilon : float
        In ``(0, 1/(k+1))`` (paper: 0.01).

    Attributes
    ----------
    log_likelihoods_, null_log_likelihood_, compression_, feasible_, weights_ :
        as in :class:`CompAODE`
    epsilon_ : float
        The checked ``epsilon``.
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", epsilon=0.01):
        self.prior = prior
        self.s = s
        self.root_estimate = root_estimate
        self.epsilon = epsilon

    def fit(self, X, y):
        """Build the SPODEs and their likelihoods; returns self."""
        self._fit_comp(X, y, credal=True)
        return self

    def _scores(self, g):
        # the counterpart, COMP-AODE: its class is always inside the set
        return self._comp_log_proba(g)

    def _sets(self, g):
        if not self.feasible_.any():
            return _prior_sets(self._log_prior, len(g))
        eps = self.epsilon_
        ll = self.log_likelihoods_[self.feasible_]
        z = -(self.null_log_likelihood_ + np.log(eps))
        budget = 1.0 - (self.n_features_in_ - ll.size + 1) * eps
        log_w = np.log(self.weights_[self.feasible_])

        def terms(rows):
            return np.moveaxis(self._comp_log_posteriors(rows), 1, 2)

        def dominates(lp1, lp2):
            lp1, lp2 = np.broadcast_arrays(lp1, lp2)
            # scale each pair by its largest posterior so tiny posteriors keep precision
            top = np.maximum(lp1.max(axis=-1), lp2.max(axis=-1))[..., None]
            a, b = np.exp(lp1 - top), np.exp(lp2 - top)
            w = a - b
            pi = 1.0 + (ll + np.log(_comp_argmin(w, eps, budget))) / z
            return (w * pi).sum(axis=-1) > _TOL * np.maximum(a, b).sum(axis=-1)

        return _maximal_sets(g, terms, dominates, ll.size, len(self.classes_),
                             log_weights=log_w)
