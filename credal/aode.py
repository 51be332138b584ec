"""AODE and its weighted and credal ensembles of SPODEs (Corani & Antonucci).

A SPODE makes every feature depend on the class and on one super-parent feature;
with ``k`` features there are ``k`` SPODEs. ``AODE`` averages them (Webb et al.;
Weka), ``BMAAODE`` weights them by their conditional likelihoods, ``CompAODE`` by
compression coefficients with a null model, and the credal versions
``CredalBMAAODE`` / ``CredalCompAODE`` return the classes that are maximal over a
credal set of prior weights (epsilon-contamination), decided exactly for all rows
and class pairs in log space. ``AODE`` classifies row by row in compiled code with
products of probabilities (:func:`credal._compiled_aode.aode_log_proba`). The estimation
choices, the exact dominance tests and their derivations are in the book's Algorithms
appendix.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from credal.base import BaseClassifier, CredalMixin, Outputs, PreciseMixin
from credal._validation import (check_choice, check_fit_input, check_in_range, check_int,
                                check_positive)

__all__ = ["AODE", "BMAAODE", "CompAODE", "CredalBMAAODE", "CredalCompAODE",
           "bma_lower_log_ratio", "comp_min_margin", "comp_min_ratio"]

# Relative guard for dominance decisions (see the module docstring).
_TOL = 1e-12
# Target number of float64 elements in one temporary block (rows are chunked).
_BLOCK = 2_000_000
# Largest class x value x value table fitted (2**28 float64 = 2 GiB).
_MAX_CELLS = 2**28


# --------------------------------------------------------------------------- exact tests
def _lse(a, axis, keepdims=False):
    """``log(sum(exp(a)))`` along ``axis``, shifted by the maximum, the terms added in order
    (:mod:`credal._compiled_spode`: exp and log numpy's, the rest compiled)."""
    a = np.moveaxis(np.asarray(a, dtype=float), axis, -1)
    out = _lse_rows(np.ascontiguousarray(a).reshape(-1, a.shape[-1])).reshape(a.shape[:-1])
    return np.expand_dims(out, axis) if keepdims else out


def _lse_rows(a):
    from ._compiled_spode import row_sums, shift_by_max

    d, top = shift_by_max(a)
    with np.errstate(divide="ignore"):
        return np.log(row_sums(np.exp(d, out=d))) + top


def bma_lower_log_ratio(log_p1, log_p2, log_lik, epsilon):
    """Log of the lower posterior odds of two classes under BMA-AODE*.

    Computes ``ln rho*`` with
    ``rho* = min_{x in P_eps} sum_j gamma_j x_j / sum_j delta_j x_j``,
    ``gamma_j = P(c'|a, s_j) L_j``, ``delta_j = P(c''|a, s_j) L_j`` and
    ``P_eps = {x_j >= eps, sum_j x_j = 1}``: the minimum is at a vertex
    ``eps + (1 - k eps) e_i`` of ``P_eps`` (mediant inequality), evaluated in log space.

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
    """Minimiser of ``sum_j w_j ln y_j`` over ``{y_j >= eps, sum_j y_j = budget}`` by
    water-filling: KKT ``y_j = max(eps, |w_j| / lam)`` on the negative weights; without
    one, the vertex giving the spare mass to the smallest weight."""
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
    np.put_along_axis(y_pos, np.argmin(w, axis=-1)[..., None], budget - (kt - 1) * eps, axis=-1)
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
        raise ValueError(f"need k~ <= k and (k+1)*epsilon <= 1; got k~={kt}, k={n_models}, "
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
    ``k - k~`` infeasible SPODEs hold ``eps`` each).  With every ``LL_j > LL_0``, ``c'``
    dominates ``c''`` iff ``m* > 0``; the minimiser is the water-filling solution of
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
def _distinct(codes, n_values, y=None, n_classes=1):
    """Distinct columns of codes (k, n) (``-1`` = missing), with their classes ``y`` if
    given: ``(first, inverse)``, ``codes[:, first][:, inverse] == codes``; None when a
    row does not fit one exact key (2**53).  A product and hashing, no sort."""
    sizes = np.append(np.asarray(n_values, dtype=float) + 1, n_classes)
    if np.prod(sizes) >= 2.0 ** 53:
        return None
    radix = np.cumprod(np.append(1, sizes[:-1]).astype(np.int64))
    # the key feature by feature: no int64 copy of the whole (k, n) codes (what
    # ``radix @ codes`` makes of narrow codes), temporaries of one row of codes
    key = np.zeros(codes.shape[1], dtype=np.int64)
    for f, row in enumerate(codes):
        key += radix[f] * row.astype(np.int64, copy=False)
    inverse, uniq = pd.factorize(key if y is None else key + y * radix[-1])
    first = np.empty(len(uniq), dtype=np.int64)
    first[inverse] = np.arange(len(inverse))      # any row of each group will do
    return first, inverse


def _blocks(sizes, cost, limits=(1, 8, 16, 32, 64, 128, 256)):
    """Features in consecutive blocks of at most ``limit`` joint values (``sizes``: values
    per feature), for the limit of lowest ``cost(cuts, widths)``: boundaries ``cuts`` and
    ``stride`` (a block's code is ``sum_l stride_l * value_l``; ``widths``: codes per block)."""
    found = []
    for limit in limits:
        cuts, size = [0], 1
        for l, v in enumerate(sizes):
            if l > cuts[-1] and size * v > limit:
                cuts, size = [*cuts, l], 1
            size *= v
        cuts.append(len(sizes))
        widths = [math.prod(sizes[a:e]) for a, e in zip(cuts, cuts[1:])]
        found.append((cost(cuts, widths), cuts))
    cuts, sizes = min(found, key=lambda c: c[0])[1], np.asarray(sizes, dtype=np.int64)
    stride = np.ones(len(sizes), dtype=np.int64)
    for a, e in zip(cuts, cuts[1:]):
        stride[a:e - 1] = np.cumprod(sizes[e - 1:a:-1])[::-1]
    return np.asarray(cuts, dtype=np.int64), stride


def _pair_counts(codes, y_idx, weight, nv, n_classes):
    """``counts[c, u, w]``: weight of the rows of class ``c`` with flat values ``u`` and ``w``
    (both observed; same-feature ``u != w``: 0), shape (K, V, V), from the codes ``(k, n)`` (``-1``
    = missing): one pass over the rows in compiled code (:func:`credal._compiled_aode.pair_counts`;
    no (pairs, rows) temporaries). Integers (int32) for unit weights, floats otherwise."""
    from ._compiled import code_dtype  # numba compiles (or loads) the kernels on first use
    from ._compiled_aode import pair_counts

    # narrow codes as they are (one compiled version per width), others converted
    if codes.dtype not in (np.int8, np.int16, np.int32) or not codes.flags.c_contiguous:
        codes = np.ascontiguousarray(codes, dtype=code_dtype(nv))
    V = int(np.sum(nv))
    unit = weight is None and codes.shape[1] < 2**31
    out = np.zeros((int(n_classes), V, V), dtype=np.int32 if unit else float)
    w = np.zeros(0) if weight is None else np.asarray(weight, dtype=float)
    return pair_counts(codes, np.asarray(y_idx, dtype=np.int64), w,
                       np.asarray(nv, dtype=np.int64), out)


class _SPODEEnsemble(BaseClassifier):
    """Shared estimation of the ``k`` SPODEs (see the module docstring)."""

    # ----- fitting
    def _check_common(self):
        check_choice("prior", self.prior, {"perks", "laplace"})
        check_choice("root_estimate", self.root_estimate, {"chain", "joint"})
        check_positive("s", self.s)
        # the authors' optional floors (None = off); classes without one get None
        self._floors = [None if getattr(self, f, None) is None else
                        np.log(check_in_range(f, getattr(self, f), 0.0, 1.0, closed="neither"))
                        for f in ("posterior_floor", "likelihood_floor")]

    def _fit_tables(self, X, y, distinct=True, log=True, rows=True):
        """Count the training rows and build the tables: children ``_log_child`` and
        roots ``_log_root`` in logarithms (``log``), else ``_child`` and ``_root`` in
        probabilities (super-parent value first).  Returns the codes (k, n'), class
        indices and weights of the counted rows (distinct ones with ``distinct``), or
        Nones without ``rows`` (their memory freed before the tables are built)."""
        self._check_common()
        cols, y_idx = check_fit_input(self, X, y, as_columns=True)
        codes = np.stack(cols)                                    # (k, n), narrow
        nv = np.asarray(self.n_values_, dtype=np.int64)  # each >= 1 (check_fit_input)
        K, k = len(self.classes_), len(codes)
        if self._floors[0] is not None and self.posterior_floor * K >= 1:  # flat posteriors
            raise ValueError(f"posterior_floor must be < 1/K = {1 / K:.6g} for the {K} "
                             f"classes; got {self.posterior_floor!r}")
        cells = K * (int(nv.sum()) + 1) ** 2
        if cells > _MAX_CELLS:       # checked before any table is allocated
            j = int(np.argmax(nv))
            raise ValueError(
                f"feature {self._feature_name(j)!r} has {nv[j]} categories ({nv.sum()} over all "
                f"features; integer codes declare 0..max code): the SPODE tables would need "
                f"{cells:.3g} cells ({cells * 8 / 2**30:.3g} GiB, limit {_MAX_CELLS:.3g})")
        self._off = off = np.concatenate([[0], np.cumsum(nv)[:-1]]).astype(np.int64)
        self._V = V = int(nv.sum())
        feat = np.repeat(np.arange(k), nv)  # feature of each flat value
        n_cls = np.bincount(y_idx, minlength=K).astype(float)
        N = float(len(y_idx))
        # each distinct (row, class) once, with its multiplicity as weight: worth it
        # for the likelihoods (a prediction per row), not for the counts alone
        d = _distinct(codes, nv, y_idx, K) if distinct else None
        weight = None
        if d is not None and len(d[0]) < len(y_idx):
            weight = np.bincount(d[1]).astype(float)
            codes, y_idx = codes[:, d[0]], y_idx[d[0]]
        counts = _pair_counts(codes, y_idx, weight, nv, K)
        if not rows:
            codes = y_idx = weight = None

        perks = self.prior == "perks"
        s = float(self.s)
        n_cu = np.einsum("cuu->cu", counts).copy()                # n(c, u) (not a view)
        n_cj = np.add.reduceat(n_cu, off, axis=1)                 # n_j(c)
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

        from ._compiled_aode import child_table

        # children P(w | c, u), the slot V of a missing value neutral (0 in logarithms,
        # 1 in probabilities), as is a pair of values of one feature; layout (w, u, c)
        # for the gathers of the block tables, (u, w, c) for AODE's compiled rows
        child = child_table(counts, nv, s, perks, log, not log)
        del counts
        self._log_nb = lnb = np.zeros((V + 1, K))                 # (u, c), u = V: 0
        lnb[:V] = log_cond.T
        root = np.zeros((V + 1, K))
        root[:V] = log_root.T
        if log:
            self._log_child, self._log_root = child, root
        else:
            self._child, self._root = child, np.exp(root)
        self._log_prior = log_prior
        self._value_freq = np.append(n_cu.sum(axis=0), 0.0)       # training frequency of u
        self._tables, self._n_fit = {}, int(N)
        return codes, y_idx, weight

    def _feature_name(self, j):
        return self.feature_names_in_[j] if hasattr(self, "feature_names_in_") else int(j)

    def _flat(self, codes):
        """Flat value index of every cell of the codes ``(k, n)``, ``V`` for missing;
        shape (n, k) stored feature-major (``g.T``, the layout every evaluation reads)."""
        gT = np.add(codes, self._off[:, None], dtype=np.int32)   # small values: int32
        gT[codes < 0] = self._V
        return gT.T

    # ----- SPODE joints and posteriors
    def _spode_log_joint(self, g, parents=None):
        """``ln P(c, a_obs | s_j)`` for the super-parents ``parents``, shape (n, p, K);
        a missing super-parent is marginalised over its values."""
        gT = g.T
        out = self._log_joints(gT if parents is None else gT[parents], gT)
        for p, j in enumerate(range(g.shape[1]) if parents is None else parents):
            rows = np.flatnonzero(gT[j] == self._V)
            if rows.size:
                u = np.arange(self._off[j], self._off[j] + self.n_values_[j])
                t = self._log_joints(np.broadcast_to(u[:, None], (u.size, rows.size)),
                                     np.take(gT, rows, axis=1))
                out[rows, p] = _lse(t, axis=1)
        return out

    def _log_joints(self, parent, gT):
        """``ln P(u, c) + sum_l ln P(a_l | c, u)`` over the children ``l`` of each row (0
        for a missing ``a_l`` and for ``l`` = the parent's feature), ``u`` = ``parent``
        (flat values, (p, n)); ``gT`` the rows' flat values, (k, n).  Shape (n, p, K),
        stored parent-major.  One gather per block of children (:meth:`_child_tables`),
        compiled (:func:`credal._compiled_spode.spode_log_joints`)."""
        from ._compiled_spode import spode_log_joints

        missing = (gT == self._V).any(axis=1)
        tab, cuts, stride, sizes = self._child_tables(missing)
        return spode_log_joints(np.ascontiguousarray(parent), np.ascontiguousarray(gT), cuts,
                                stride, sizes, self._off, tab, self._log_root).transpose(1, 0, 2)

    def _child_tables(self, missing):
        """Children in blocks (:func:`_blocks`, a slot for missing where ``missing``): the
        table of :func:`credal._compiled_spode.block_tables` and its ``cuts``, ``stride``,
        ``sizes``.  Blocks trade table size for gathers (k x training rows x blocks).
        Cached per ``missing``."""
        from ._compiled_spode import block_tables

        key = missing.tobytes()
        if key not in self._tables:
            nv, V, k = np.asarray(self.n_values_, dtype=np.int64), self._V, len(self.n_values_)
            sizes = nv + missing
            cuts, stride = _blocks(sizes.tolist(), lambda c, w: (
                (V + 1) * sum(w) * max(b - a for a, b in zip(c, c[1:]))
                + k * self._n_fit * len(w)))
            tab = block_tables(self._log_child, cuts, stride, sizes, nv, self._off)
            self._tables[key] = tab, cuts, stride, sizes
        return self._tables[key]

    def _spode_log_posterior(self, g, parents=None):
        return self._posterior(self._spode_log_joint(g, parents))

    def _posterior(self, lj):
        """SPODE log posteriors from log joints; with ``posterior_floor`` f, each
        probability is raised to at least f and the row renormalised (authors' code)."""
        lp = _normalise(lj.transpose(1, 0, 2))   # (p, n, K) in memory, as lj
        if self._floors[0] is not None:
            lp = _normalise(np.maximum(lp, self._floors[0]))
        return lp.transpose(1, 0, 2)

    def _nb_log_joint(self, g):
        """Naive Bayes ``ln P(c, a_obs)`` with the same prior, shape (n, K)."""
        return self._log_prior[None, :] + self._log_nb[g].sum(axis=1)

    def _conditional_log_likelihoods(self, g, y_idx, weight):
        """``LL_j`` of every SPODE on the training rows (distinct rows with their
        multiplicities ``weight``, None = 1), and ``LL_0``."""
        lp = self._spode_log_posterior(g)[np.arange(len(y_idx)), :, y_idx]
        if self._floors[1] is not None:       # likelihood_floor on the true class
            lp = np.maximum(lp, self._floors[1])
        ll = lp.sum(axis=0) if weight is None else np.einsum("i,ij->j", weight, lp)
        n_cls = np.bincount(y_idx, weight, minlength=len(self.classes_))
        freq = n_cls[n_cls > 0] / n_cls.sum()
        ll0 = float(n_cls.sum() * np.sum(freq * np.log(freq)))      # -n H(C)
        return ll, ll0

    _as_columns = True

    def _predict_input(self, X):
        return self._flat(np.stack(super()._predict_input(X)))

    def _prior_log_proba(self, n):
        """Smoothed class frequencies for every row: the fall-back without SPODEs."""
        return np.tile(self._log_prior, (n, 1))


def _precise_outputs(self, X):
    """``predict_outputs``: the log posteriors computed once, for the class and the
    probabilities."""
    lp = self._log_proba(self._predict_input(X))
    return Outputs(self._label(lp), None, np.exp(lp))


def _normalise(lj):
    """``lj - _lse(lj, axis=-1, keepdims=True)``, C-contiguous."""
    from ._compiled_spode import subtract_rows

    a = np.ascontiguousarray(lj, dtype=float).reshape(-1, lj.shape[-1])
    return subtract_rows(a, _lse_rows(a)).reshape(lj.shape)


# --------------------------------------------------------------------------- AODE
class AODE(PreciseMixin, _SPODEEnsemble):
    """Averaged one-dependence estimators: the mean of the SPODE joints or posteriors.

    ``aggregate="joint"`` (Webb et al.; Weka): ``P(c | a) ∝ sum_{j in J} P(c, a | s_j)``;
    ``aggregate="posterior"`` (Corani & Antonucci, Sec. 2.1, and their code):
    ``P(c | a) = (1/|J|) sum_{j in J} P(c | a, s_j)``.  ``J`` holds the usable
    super-parents of the row: observed, with a training frequency of at least
    ``frequency_limit``.  With none usable, naive Bayes with the same prior is used.
    On complete data with ``frequency_limit=0`` every SPODE is used, as in the
    authors' code, and ``"posterior"`` is COMP-AODE with equal weights.

    Counting and classification run in compiled code (numba,
    :mod:`credal._compiled_aode`; the first use in a new environment compiles it, a
    few seconds, then it is cached).

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
    aggregate : {"joint", "posterior"}
        Average the SPODE joints or their posteriors (see above).
    posterior_floor : float in (0, 1/K) or None (K classes)
        With ``aggregate="posterior"``: raise every SPODE posterior probability to at
        least this value and renormalise, as the authors' code does (1e-4); None: off.

    Attributes
    ----------
    classes_, n_values_, n_features_in_ : as set by :func:`credal._validation.check_fit_input`
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", frequency_limit=1,
                 aggregate="joint", posterior_floor=None):
        self.prior, self.s, self.root_estimate = prior, s, root_estimate
        self.frequency_limit, self.aggregate = frequency_limit, aggregate
        self.posterior_floor = posterior_floor

    def fit(self, X, y):
        """Count the training data and build every SPODE's tables; returns self."""
        check_int("frequency_limit", self.frequency_limit, 0)
        check_choice("aggregate", self.aggregate, {"joint", "posterior"})
        if self.posterior_floor is not None and self.aggregate == "joint":
            raise ValueError('posterior_floor needs aggregate="posterior"')
        self._fit_tables(X, y, distinct=False, log=False, rows=False)
        return self

    def _predict_input(self, X):
        # the narrow code columns (k, n): the compiled kernel reads them row by row
        return np.stack(BaseClassifier._predict_input(self, X))

    predict_outputs = _precise_outputs

    def _log_proba(self, codes):
        from ._compiled_aode import aode_log_proba  # numba compiles (or loads) it on first use

        # a SPODE is usable when its super-parent value is observed and frequent enough
        usable = self._value_freq >= self.frequency_limit
        usable[self._V] = False
        floor = self.posterior_floor if self.aggregate == "posterior" else None
        out = aode_log_proba(codes, self._off, self._child, self._root, usable,
                             self.aggregate == "posterior", float(floor or 0.0))
        none = np.flatnonzero(np.isneginf(out[:, 0]))  # no usable super-parent: naive Bayes
        if none.size:
            out[none] = _normalise(self._nb_log_joint(self._flat(codes[:, none])))
        return out


# --------------------------------------------------------------------------- BMA
def _check_prune_factor(value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value >= 1:
        raise ValueError(f"prune_factor must be a number >= 1 (np.inf: no pruning); got {value!r}")
    return float(value)


class _BMAFit:
    def fit(self, X, y):
        """Build the SPODEs and their likelihood weights; returns self."""
        if isinstance(self, CredalMixin):       # checked before any counting
            self.epsilon_ = _check_epsilon(self.epsilon, X, credal=True)
        prune = _check_prune_factor(self.prune_factor)
        codes, y_idx, weight = self._fit_tables(X, y)
        ll, _ = self._conditional_log_likelihoods(self._flat(codes), y_idx, weight)
        # robust exponentiation: subtract the largest log-likelihood (not the smallest)
        shifted = ll - (ll.max() if ll.size else 0.0)
        kept = shifted >= -np.log(prune)
        w = np.where(kept, np.exp(shifted), 0.0)
        self.log_likelihoods_, self.kept_ = ll, kept
        self.weights_ = w / w.sum() if ll.size else w
        return self

    def _bma_terms(self, g):
        """Per-row log posteriors of the kept SPODEs plus their shifted LL, (n, k', K)."""
        lp = self._spode_log_posterior(g, np.flatnonzero(self.kept_))
        ll = self.log_likelihoods_[self.kept_]
        return lp + (ll - ll.max())[None, :, None]

    def _bma_log_proba(self, g, terms=None):
        if not self.kept_.any():
            return self._prior_log_proba(len(g))
        return _normalise(_lse(self._bma_terms(g) if terms is None else terms, axis=1))


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
    posterior_floor : float in (0, 1/K) or None (K classes)
        The authors' code raises every SPODE posterior probability to at least 1e-4
        and renormalises (in prediction and in ``L_j``); None (default): off.
    likelihood_floor : float in (0, 1) or None
        The authors' code raises each training row's true-class probability to at
        least 0.01 inside ``L_j``; None (default): off.

    Attributes
    ----------
    log_likelihoods_ : ndarray, shape (n_features,)
        Conditional log-likelihood ``LL_j`` of every SPODE on the training data.
    kept_ : ndarray of bool, shape (n_features,)
    weights_ : ndarray, shape (n_features,)
        Posterior model weights (0 for pruned SPODEs).
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", prune_factor=1e4,
                 posterior_floor=None, likelihood_floor=None):
        self.prior, self.s, self.root_estimate = prior, s, root_estimate
        self.prune_factor = prune_factor
        self.posterior_floor, self.likelihood_floor = posterior_floor, likelihood_floor

    predict_outputs = _precise_outputs

    def _log_proba(self, g):
        return self._bma_log_proba(g)


def _check_epsilon(value, X, *, credal):
    """``epsilon`` in ``(0, 1/(k+1))`` (credal) or ``(0, 1)``, ``k`` = columns of ``X``.
    Checked before any counting; ``X`` that is not 2-D is left to the input checks."""
    shape = np.shape(X)
    k = shape[1] if len(shape) == 2 else 0
    high = 1.0 / (k + 1) if credal else 1.0
    return check_in_range("epsilon", value, 0.0, high, closed="neither")


def _prior_sets(log_prior, n):
    """Sets of a model without SPODEs: the most probable classes of the prior."""
    return np.broadcast_to(log_prior >= log_prior.max() - _TOL, (n, log_prior.size)).copy()


def _rows_per_block(k, n_classes):
    return max(1, _BLOCK // max(4 * k * n_classes * n_classes, 1))


class _OnePass:
    """``predict_outputs`` of the credal ensembles: the model terms of rows that fit one
    block of :func:`_maximal_sets` computed once, for the set and for the class."""

    def predict_outputs(self, X):
        g = self._predict_input(X)
        use = self._models()
        if use.any() and len(g) <= _rows_per_block(int(use.sum()), len(self.classes_)):
            terms = self._terms(g)
            sets, scores = self._sets(g, terms), self._scores(g, terms)
        else:
            sets, scores = self._sets(g), self._scores(g)
        return Outputs(self._label(scores, sets), sets, None)


def _maximal_sets(g, terms, dominates, k, n_classes, log_weights=None):
    """Maximality over rows and class pairs: ``terms(g_chunk)`` gives the model terms,
    (m, K, k), ``dominates(t1, t2)`` decides for broadcastable terms.  The precise
    choice (never dominated) is tested first against every class; the ``K x K`` test
    runs only on rows where it leaves more than one class."""
    out = np.empty((len(g), n_classes), dtype=bool)
    step = _rows_per_block(k, n_classes)
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


class CredalBMAAODE(_OnePass, _BMAFit, CredalMixin, _SPODEEnsemble):
    """BMA-AODE*: BMA over SPODEs with the prior credal set (4).

    ``c'`` dominates ``c''`` iff its posterior is larger for every prior
    ``P(s_j) >= epsilon`` (on the SPODEs kept by the ``L_max / prune_factor`` rule);
    ``predict_set`` returns the non-dominated classes (maximality), decided exactly by
    :func:`bma_lower_log_ratio`.  ``predict`` returns BMA-AODE's class.

    Parameters
    ----------
    prior, s, root_estimate, prune_factor, posterior_floor, likelihood_floor :
        see :class:`BMAAODE`
    epsilon : float
        Lower bound of each SPODE's prior probability, in ``(0, 1/(k+1))``.

    Attributes
    ----------
    log_likelihoods_, kept_, weights_ : as in :class:`BMAAODE`
    epsilon_ : float
        The checked ``epsilon``.
    """

    def __init__(self, prior="perks", s=1.0, root_estimate="chain", prune_factor=1e4,
                 epsilon=0.01, posterior_floor=None, likelihood_floor=None):
        self.prior, self.s, self.root_estimate = prior, s, root_estimate
        self.prune_factor, self.epsilon = prune_factor, epsilon
        self.posterior_floor, self.likelihood_floor = posterior_floor, likelihood_floor

    def _models(self):
        return self.kept_

    def _terms(self, g):
        return self._bma_terms(g)

    def _scores(self, g, terms=None):
        # the counterpart, BMA-AODE: its class is always inside the set
        return self._bma_log_proba(g, terms)

    def _sets(self, g, terms=None):
        if not self.kept_.any():
            return _prior_sets(self._log_prior, len(g))
        eps = self.epsilon_

        def dominates(lam1, lam2):
            # ln rho* = min_i (ln N_i - ln D_i), see bma_lower_log_ratio
            diff = _bma_log_vertex(lam1, eps) - _bma_log_vertex(lam2, eps)
            return diff.min(axis=-1) > _TOL

        return _maximal_sets(g, lambda rows: np.moveaxis(
            self._bma_terms(rows) if terms is None else terms, 1, 2),   # terms: one block
            dominates, int(self.kept_.sum()), len(self.classes_))


# --------------------------------------------------------------------------- compression
class _CompFit:
    # shared by CompAODE and CredalCompAODE (scikit-learn reads this signature)
    def __init__(self, prior="perks", s=1.0, root_estimate="chain", epsilon=0.01,
                 posterior_floor=None, likelihood_floor=None):
        self.prior, self.s, self.root_estimate = prior, s, root_estimate
        self.epsilon = epsilon
        self.posterior_floor, self.likelihood_floor = posterior_floor, likelihood_floor

    def fit(self, X, y):
        """Build the SPODEs and their compression weights; returns self."""
        eps = _check_epsilon(self.epsilon, X, credal=isinstance(self, CredalMixin))
        codes, y_idx, weight = self._fit_tables(X, y)
        ll, ll0 = self._conditional_log_likelihoods(self._flat(codes), y_idx, weight)
        k, self.epsilon_ = self.n_features_in_, eps
        z = -(ll0 + np.log(eps))
        feasible = ll > ll0
        pi = 1.0 + (ll + np.log((1.0 - eps) / max(k, 1))) / z     # eq. (6), prior (5)
        self.log_likelihoods_, self.null_log_likelihood_ = ll, ll0
        self.compression_, self.feasible_ = pi, feasible
        w = np.where(feasible, pi, 0.0)
        self.weights_ = w / w.sum() if feasible.any() else w
        return self

    def _comp_log_posteriors(self, g):
        return self._spode_log_posterior(g, np.flatnonzero(self.feasible_))

    def _comp_log_proba(self, g, terms=None):
        if not self.feasible_.any():
            return self._prior_log_proba(len(g))
        lw = np.log(self.weights_[self.feasible_])
        lp = self._comp_log_posteriors(g) if terms is None else terms
        return _normalise(_lse(lp + lw[None, :, None], axis=1))


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
    posterior_floor, likelihood_floor : see :class:`BMAAODE`

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

    predict_outputs = _precise_outputs

    def _log_proba(self, g):
        return self._comp_log_proba(g)


class CredalCompAODE(_OnePass, _CompFit, CredalMixin, _SPODEEnsemble):
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
    posterior_floor, likelihood_floor : see :class:`BMAAODE`

    Attributes
    ----------
    log_likelihoods_, null_log_likelihood_, compression_, feasible_, weights_ :
        as in :class:`CompAODE`
    epsilon_ : float
        The checked ``epsilon``.
    """

    def _models(self):
        return self.feasible_

    def _terms(self, g):
        return self._comp_log_posteriors(g)

    def _scores(self, g, terms=None):
        # the counterpart, COMP-AODE: its class is always inside the set
        return self._comp_log_proba(g, terms)

    def _sets(self, g, terms=None):
        if not self.feasible_.any():
            return _prior_sets(self._log_prior, len(g))
        eps = self.epsilon_
        ll = self.log_likelihoods_[self.feasible_]
        z = -(self.null_log_likelihood_ + np.log(eps))
        budget = 1.0 - (self.n_features_in_ - ll.size + 1) * eps
        log_w = np.log(self.weights_[self.feasible_])

        def block(rows):    # ``terms``: the one block's
            return np.moveaxis(self._comp_log_posteriors(rows) if terms is None else terms, 1, 2)

        def dominates(lp1, lp2):
            lp1, lp2 = np.broadcast_arrays(lp1, lp2)
            # scale each pair by its largest posterior so tiny posteriors keep precision
            top = np.maximum(lp1.max(axis=-1), lp2.max(axis=-1))[..., None]
            a, b = np.exp(lp1 - top), np.exp(lp2 - top)
            w = a - b
            pi = 1.0 + (ll + np.log(_comp_argmin(w, eps, budget))) / z
            return (w * pi).sum(axis=-1) > _TOL * np.maximum(a, b).sum(axis=-1)

        return _maximal_sets(g, block, dominates, ll.size, len(self.classes_), log_weights=log_w)
