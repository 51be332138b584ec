"""AODE and its weighted and credal ensembles of SPODEs (Corani & Antonucci).

A SPODE (super-parent one-dependence estimator) ``s_j`` makes every feature depend
on the class and on one *super-parent* feature ``A_j``:
``P(c, a | s_j) = P(c, a_j) * prod_{l != j} P(a_l | c, a_j)``.  With ``k`` features
there are ``k`` SPODEs, and this module combines them in five ways:

==================  ====================================================================
``AODE``            mean of the SPODE joints (Webb et al. 2005; Weka's AODE)
``BMAAODE``         Bayesian model averaging with the conditional likelihoods ``L_j``
``CompAODE``        compression-coefficient weights (Boulle 2007) with a null model
``CredalBMAAODE``   BMA-AODE* : maximality over the prior credal set (4) of the paper
``CredalCompAODE``  COMP-AODE*: maximality over the prior credal set (9) of the paper
==================  ====================================================================

Parameter estimates
-------------------
All counts are *available-case*: a training row adds to ``n(c, a_j)`` when ``A_j`` is
observed and to ``n(c, a_j, a_l)`` when both features are observed, so every
conditional table is normalised over the rows on which it is defined (missing at
random, as in JNCC2 and Weka).  ``prior`` selects the Dirichlet prior:

* ``"perks"`` (default, the paper's "Dirichlet priors with equivalent sample size
  1"): the BDeu prior of strength ``s`` spread uniformly over each family's joint
  cells, i.e. ``s/K`` per class, ``s/(K|A_j|)`` per cell of ``(C, A_j)`` and
  ``s/(K|A_j||A_l|)`` per cell of ``(C, A_j, A_l)``:
  ``P(a_l | c, a_j) = (n(c,a_j,a_l) + s/(K|A_j||A_l|)) / (n_l(c,a_j) + s/(K|A_j|))``
  where ``n_l(c, a_j)`` counts the rows of ``(c, a_j)`` with ``A_l`` observed;
* ``"laplace"``: one pseudo-count per cell (``s`` is then unused):
  ``P(a_l | c, a_j) = (n(c,a_j,a_l) + 1) / (n_l(c,a_j) + |A_l|)``.

``root_estimate`` selects how the factor of the class and the super-parent is
estimated:

* ``"chain"`` (default; the factorisation printed in the paper and bnclassify's):
  ``P(c) P(a_j | c)`` with ``P(c) = (n_c + a)/(N + K a)`` and
  ``P(a_j | c) = (n(c,a_j) + b)/(n_j(c) + |A_j| b)``; ``(a, b) = (s/K, s/(K|A_j|))``
  for Perks, ``(1, 1)`` for Laplace;
* ``"joint"`` (Weka): one Dirichlet over the cells of ``(C, A_j)``,
  ``P(c, a_j) = (n(c,a_j) + b)/(N_j + K|A_j| b)`` with ``N_j`` the rows where ``A_j``
  is observed; ``b = s/(K|A_j|)`` for Perks, ``1`` for Laplace.

With the Perks prior and complete data the two coincide exactly.  ``prior="laplace",
root_estimate="joint"`` reproduces Weka 3.6's AODE and ``prior="laplace",
root_estimate="chain"`` bnclassify's (both checked to 1e-12 in the tests).

Missing values and unseen values at prediction
----------------------------------------------
A missing *child* feature is left out of the product, which is exact marginalisation
in a SPODE.  A missing *super-parent*:

* ``AODE`` (Weka's rule) skips that SPODE; it also skips a SPODE whose super-parent
  value was seen fewer than ``frequency_limit`` times in training (Weka's frequency
  limit, default 1, so values never seen in training are skipped).  When no SPODE is
  left, the prediction is naive Bayes with the same prior.
* the BMA and compression families need every SPODE's prediction on every row (the
  weights are fixed in training), so the missing super-parent is marginalised
  exactly: ``P(c, a_obs | s_j) = sum_v P(c, v) prod_l P(a_l | c, v)``.  The same rule
  is used for the training rows that enter the conditional likelihoods.  A super-parent
  value never seen in training is used as it is: its estimates are the prior's, so the
  SPODE predicts the uniform distribution over classes (exactly with
  ``root_estimate="joint"`` or with Perks and complete data; nearly with Laplace and
  ``"chain"``, whose ``P(c)`` still counts).

Features with a single value are handled: their SPODE equals naive Bayes.  (The
compendium's pipeline usually removes them beforehand.)  With no feature at all,
every classifier predicts the smoothed class frequencies.

Weights and credal sets
-----------------------
``LL_j = sum_i ln P(c_i | a_i, s_j)`` is the conditional log-likelihood of SPODE ``j``
on its own training data (eq. 2), ``LL_0 = -n H(C)`` that of the null model (the
empirical class frequencies; natural logs).

* BMA keeps SPODE ``j`` iff ``L_j >= L_max / prune_factor`` (``prune_factor = 1e4`` in
  the paper) and weights the kept ones by ``L_j / k`` (uniform prior).  Likelihoods are
  exponentiated after subtracting the *largest* log-likelihood; Algorithm 1 of the
  paper subtracts the smallest, which overflows once the spread exceeds ~709 nats.
  After pruning every kept weight lies in ``[1/prune_factor, 1]``.
* COMP keeps SPODE ``j`` iff ``LL_j > LL_0`` (it predicts its training classes better
  than the null model) and weights it by the raw compression coefficient (6)
  ``pi_j = 1 - (LL_j + ln((1-eps)/k)) / (LL_0 + ln eps)``.  The paper's rules keep
  ``j`` iff ``pi_j > 0`` (COMP-AODE) or its upper coefficient (10) is positive
  (COMP-AODE*); both also admit SPODEs *worse* than the null model, whose coefficient
  can then be negative for some priors of (9) (so the normaliser of (12) is not
  positive "by definition"), and the two rules differ, which can put COMP-AODE's class
  outside COMP-AODE*'s set (the paper's footnote 3).  One common rule ``LL_j > LL_0``
  removes both problems (recommendation of the project's algorithm notes); it differs
  from the paper only for SPODEs no better than the null model.  With no SPODE kept,
  the prediction is the smoothed class frequencies.
* BMA-AODE*: ``c'`` dominates ``c''`` iff
  ``min_{P in P_eps} sum_j P(c'|a,s_j) L_j P(s_j) / sum_j P(c''|a,s_j) L_j P(s_j) > 1``
  over ``P_eps = {P(s_j) >= eps, sum = 1}`` on the kept SPODEs.  The minimum of this
  linear-fractional program is attained at a vertex of ``P_eps``, which gives the
  closed form of :func:`bma_lower_log_ratio` (``O(k)`` per pair, no LP solver).
* COMP-AODE*: over the credal set (9) with the infeasible SPODEs pinned at ``eps`` the
  kept priors satisfy ``P(s_j) >= eps``, ``sum_j P(s_j) = T = 1 - (k - k~ + 1) eps``.
  (The paper prints the budget ``1 - (k - k~ - 1) eps`` in (15) and ``sum = 1`` in
  (12); both contradict (9), we follow (9).)  Because every kept ``pi_j`` is positive
  on the whole set, ``c'`` dominates ``c''`` iff
  ``min_y sum_j (P(c'|a,s_j) - P(c''|a,s_j)) pi_j(y) > 0``, solved exactly by
  water-filling in :func:`comp_min_margin` (``O(k log k)`` per pair, no NLP solver).

With ``0 < eps < 1/(k+1)`` (checked in ``fit``; ``ValueError`` otherwise) the
precise counterpart's prior belongs to the credal set (for COMP-AODE*, to the set in
which the infeasible SPODEs' mass is left free, ``sum_j y_j <= T``; its minimum equals
``m*`` when some weight is negative and is positive whenever ``m*`` is, because all
kept ``pi_j(eps) > 0``).  Hence a dominated class is never the counterpart's choice:
``predict`` is always inside ``predict_set``, which is never empty.  Decisions are
taken in floating point with a guard of ``1e-12`` relative to the size of the
compared quantities: a pair whose exact criterion lies within rounding of the boundary
counts as *not* dominated, so exact ties never remove a class.

Storage and cost
----------------
The pair counts ``n(c, u, w)`` are one dense array of shape ``(K, V+1, V+1)``, where
``V = sum_j |A_j|`` indexes all feature values in one flat range and the last index
stands for "missing"; this is the paper's ``O(l k^2 v^2)`` memory.  Counting takes
``O(n k^2)`` time; the conditional likelihoods of the BMA and compression families take
``O(n k^2 K)`` (each SPODE's posterior needs every child of every class; the paper's
Table 1 states ``O(n (l + k) k)``).  Classification is ``O(K k k')`` per row for the
posteriors of the ``k'`` kept (BMA) or feasible (COMP) SPODEs -- pruned ones are never
evaluated -- plus ``O(K^2 k')`` (BMA*) or ``O(K^2 k' log k')`` (COMP*) for maximality.
The SPODE log-joints are summed either by gathering table entries or, when the value
space is small, by one matrix product of the rows' one-hot value vectors with the
tables (same numbers, BLAS speed).  Everything is vectorised over rows, SPODEs and
class pairs, in log space.

The chapter
-----------
The end of the module serves the book chapter ``credal-aode``:
:func:`paper_classifiers` builds the paper's eight classifiers under its names,
:data:`PAPER_COMPARISONS` lists every paired comparison its Section 3 makes together
with the published statement, and :func:`wilcoxon_table`, :func:`headline_table`,
:func:`friedman_tables`, :func:`per_dataset_table` and :func:`settings_table` put our
results (from :func:`credal.comparisons.dataset_scores` of the engine's fold table)
beside the published ones; the ``display_*`` functions make them readable.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from credal._validation import (
    check_fit_input,
    check_in_range,
    check_positive,
    check_predict_input,
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
    # the chapter (Corani & Antonucci's experiments)
    "PAPER_CLASSIFIERS",
    "PAPER_COUNTERPARTS",
    "PAPER_COMPARISONS",
    "FRIEDMAN_CLASSIFIERS",
    "paper_classifiers",
    "dataset_sizes",
    "wilcoxon_table",
    "headline_statistics",
    "headline_table",
    "friedman_tables",
    "per_dataset_table",
    "settings_table",
    "reference_check",
    "counterpart_gap",
    "chapter_numbers",
    "chapter_examples",
    "check_numbers",
    "report_headline",
    "PAPER",
    "display_wilcoxon",
    "display_bayesian",
    "display_headline",
    "display_friedman",
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


class _SPODEEnsemble(ClassifierMixin, BaseEstimator):
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

    def _predict_codes(self, X):
        return self._flat(check_predict_input(self, X))

    def _prior_log_proba(self, n):
        """Smoothed class frequencies for every row: the fall-back without SPODEs."""
        return np.tile(self._log_prior, (n, 1))

    def _label(self, log_proba):
        return self.classes_[np.argmax(log_proba, axis=1)]


class _PreciseMixin:
    """``predict_proba`` and friends from the subclass's ``_log_proba(g)``."""

    def predict_log_proba(self, X):
        """Log posterior class probabilities.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes), columns in ``classes_`` order
        """
        return self._log_proba(self._predict_codes(X))

    def predict_proba(self, X):
        """Posterior class probabilities, shape (n_samples, n_classes); rows sum to 1."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """Most probable class of every row, shape (n_samples,)."""
        return self._label(self.predict_log_proba(X))


def _normalise(lj):
    return lj - _lse(lj, axis=1, keepdims=True)


# --------------------------------------------------------------------------- AODE


class AODE(_PreciseMixin, _SPODEEnsemble):
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


class BMAAODE(_BMAFit, _PreciseMixin, _SPODEEnsemble):
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


class CredalBMAAODE(_BMAFit, _SPODEEnsemble):
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

    def predict(self, X):
        """BMA-AODE's class of every row (always inside ``predict_set``)."""
        return self._label(self._bma_log_proba(self._predict_codes(X)))

    def predict_set(self, X):
        """Non-dominated classes, bool array (n_samples, n_classes)."""
        g = self._predict_codes(X)
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


class CompAODE(_CompFit, _PreciseMixin, _SPODEEnsemble):
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


class CredalCompAODE(_CompFit, _SPODEEnsemble):
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

    def predict(self, X):
        """COMP-AODE's class of every row (always inside ``predict_set``)."""
        return self._label(self._comp_log_proba(self._predict_codes(X)))

    def predict_set(self, X):
        """Non-dominated classes, bool array (n_samples, n_classes)."""
        g = self._predict_codes(X)
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


# --------------------------------------------------------------------------- the chapter
#
# Corani & Antonucci's experiments (book chapter ``credal-aode``): the classifiers under
# the paper's names, the comparisons its text makes, and the tables that put our numbers
# beside the published ones.  Generic table assembly lives in :mod:`credal.comparisons`.

#: the chapter's classifiers, in display order
PAPER_CLASSIFIERS = ("AODE", "BMA-AODE", "COMP-AODE", "BMA-AODE*", "COMP-AODE*",
                     "NCC", "CMA", "CDT")
#: precise counterpart of each credal AODE
PAPER_COUNTERPARTS = {"BMA-AODE*": "BMA-AODE", "COMP-AODE*": "COMP-AODE"}


def paper_classifiers(epsilon=0.01, prune_factor=1e4, s=1.0, ncc_s=1.0, cma_alpha=1.0,
                      cdt_s=1.0, laplace_aode=False):
    """The eight classifiers of the chapter, keyed by the paper's names.

    Parameters
    ----------
    epsilon : float
        The paper's ``epsilon`` (all occurrences: BMA-AODE*'s and COMP-AODE*'s prior
        lower bound, COMP-AODE's null-model prior); paper: 0.01.
    prune_factor : float
        BMA keeps SPODEs with ``L_j >= L_max / prune_factor``; paper: 1e4.
    s : float
        Equivalent sample size of the Dirichlet priors of the SPODE tables; paper: 1.
    ncc_s : float
        IDM hyperparameter of NCC.
    cma_alpha : float
        Equivalent sample size of CMA.
    cdt_s : float
        IDM hyperparameter of the credal decision tree.
    laplace_aode : bool
        Add ``"AODE (Laplace)"``, Weka's AODE (one pseudo-count per cell, joint
        estimate of class and super-parent), to check how much the comparison with
        AODE depends on its parameter estimates.

    Returns
    -------
    dict of str -> estimator
        ``AODE``, ``BMA-AODE``, ``COMP-AODE`` (precise), ``BMA-AODE*``,
        ``COMP-AODE*`` (credal; ``predict`` gives the precise counterpart's class),
        ``NCC`` (:class:`credal.naive.NCC`), ``CMA`` and ``CDT`` (and
        ``AODE (Laplace)``).
    """
    from credal.averaging import CMA
    from credal.naive import NCC
    from credal.trees import CredalDecisionTree

    return {
        "AODE": AODE(s=s),
        "BMA-AODE": BMAAODE(s=s, prune_factor=prune_factor),
        "COMP-AODE": CompAODE(s=s, epsilon=epsilon),
        "BMA-AODE*": CredalBMAAODE(s=s, prune_factor=prune_factor, epsilon=epsilon),
        "COMP-AODE*": CredalCompAODE(s=s, epsilon=epsilon),
        "NCC": NCC(s=ncc_s),
        "CMA": CMA(alpha=cma_alpha),
        "CDT": CredalDecisionTree(s=cdt_s),
    } | ({"AODE (Laplace)": AODE(prior="laplace", root_estimate="joint")}
         if laplace_aode else {})


_W = "Wilcoxon p-value, "
#: every paired comparison of the paper's Section 3, with the row of
#: ``corani_headline_numbers.csv`` that states its outcome (None: the paper gives no
#: p-value) and the classifier the paper says is better (None: no direction claimed)
PAPER_COMPARISONS = (
    dict(id="acc_aode_bma", section="3.1", label="accuracy: AODE vs BMA-AODE",
         a="AODE", b="BMA-AODE", metric="accuracy", claim="a",
         published=(_W + "accuracy, AODE higher than BMA-AODE", "AODE vs BMA-AODE")),
    dict(id="brier_aode_bma", section="3.1", label="Brier loss: AODE vs BMA-AODE",
         a="AODE", b="BMA-AODE", metric="brier", higher_is_better=False, claim="a",
         published=None),
    dict(id="acc_comp_aode", section="3.1", label="accuracy: COMP-AODE vs AODE",
         a="COMP-AODE", b="AODE", metric="accuracy", claim=None,
         published=("accuracy difference COMP-AODE vs AODE", "COMP-AODE vs AODE")),
    dict(id="brier_comp_aode", section="3.1", label="Brier loss: COMP-AODE vs AODE",
         a="COMP-AODE", b="AODE", metric="brier", higher_is_better=False, claim="a",
         published=(_W + "Brier loss, COMP-AODE lower than AODE", "COMP-AODE vs AODE")),
    dict(id="safe_bma", section="3.2",
         label="BMA-AODE accuracy: safe vs prior-dependent (split by BMA-AODE*)",
         a="BMA-AODE*", metric_a="precise_on_determinate",
         b="BMA-AODE*", metric_b="precise_on_indeterminate", claim="a",
         published=(_W + "accuracy drop on prior-dependent vs safe instances",
                    "BMA-AODE (instances split by BMA-AODE*)")),
    dict(id="safe_comp", section="3.2",
         label="COMP-AODE accuracy: safe vs prior-dependent (split by COMP-AODE*)",
         a="COMP-AODE*", metric_a="precise_on_determinate",
         b="COMP-AODE*", metric_b="precise_on_indeterminate", claim="a",
         published=(_W + "accuracy drop on prior-dependent vs safe instances",
                    "COMP-AODE (instances split by COMP-AODE*)")),
)


def _utility_comparisons():
    """The utility comparisons of Sections 3.3-3.4, u65 then u80 for each pair."""
    pairs = (("bma_star", "3.3", "BMA-AODE*", "BMA-AODE"),
             ("comp_star", "3.3", "COMP-AODE*", "COMP-AODE"),
             ("comp_bma_star", "3.3", "COMP-AODE*", "BMA-AODE*"),
             ("comp_aode", "3.3", "COMP-AODE*", "AODE"),
             ("comp_ncc", "3.4", "COMP-AODE*", "NCC"))
    out = []
    for key, section, a, b in pairs:
        for u in ("u65", "u80"):
            quantity = _W + f"utility {u}, {a} higher"
            claim = "a"
            if key == "comp_bma_star" and u == "u80":
                quantity, claim = "utility u80 difference", None
            out.append(dict(id=f"{u}_{key}", section=section, label=f"{u}: {a} vs {b}",
                            a=a, b=b, metric=u, claim=claim,
                            published=(quantity, f"{a} vs {b}")))
    return tuple(out)


PAPER_COMPARISONS = PAPER_COMPARISONS + _utility_comparisons()


def _published_value(table, key):
    if key is None:
        return ""
    quantity, classifier = key
    hit = table[(table["quantity"] == quantity) & (table["classifier"] == classifier)]
    if len(hit) != 1:
        raise KeyError(f"{len(hit)} published rows match {key!r}")
    return str(hit["value"].iloc[0])


def wilcoxon_table(scores, rope=0.01, nsamples=50000, random_state=0, published=None):
    """Every comparison of :data:`PAPER_COMPARISONS`, ours beside the paper's.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` of the chapter's run.
    rope, nsamples, random_state
        Of the Bayesian signed-rank test (:func:`credal.comparisons.paired_comparisons`).
    published : DataFrame, optional
        ``corani_headline_numbers`` (read with :func:`credal.datasets.published` when
        None).

    Returns
    -------
    DataFrame
        The columns of :func:`credal.comparisons.paired_comparisons` plus ``section``,
        ``published_p`` (as printed: ``<0.01``, ``<0.05``, ``n.s.`` or empty),
        ``claimed_better`` (the classifier the paper says is better, or empty),
        ``meets_published`` (our p satisfies the printed bound; None without one) and
        ``same_direction`` (the side with the better mean is the claimed one; None
        without a claim).
    """
    from credal.comparisons import meets_published, paired_comparisons
    from credal.datasets import published as _published

    pub = _published("corani_headline_numbers") if published is None else published
    table = paired_comparisons(scores, PAPER_COMPARISONS, rope=rope, nsamples=nsamples,
                               random_state=random_state)
    specs = {c["id"]: c for c in PAPER_COMPARISONS}
    table.insert(1, "section", [specs[i]["section"] for i in table["id"]])
    table["published_p"] = [_published_value(pub, specs[i]["published"]) for i in table["id"]]
    table["claimed_better"] = [
        "" if specs[i]["claim"] is None else _side_name(specs[i]) for i in table["id"]]
    table["meets_published"] = [meets_published(p, q) if q else None
                                for p, q in zip(table["wilcoxon_p"], table["published_p"])]
    same = []
    for _, r in table.iterrows():
        if specs[r["id"]]["claim"] is None or r["n_datasets"] == 0:
            same.append(None)
        else:
            better = r["mean_difference"] * (1 if r["higher_is_better"] else -1)
            same.append(bool(better > 0))
    table["same_direction"] = same
    return table


def _side_name(spec):
    a = spec["a"]
    if "metric_a" in spec:  # one classifier's precise accuracy on two subsets
        return f"{PAPER_COUNTERPARTS.get(a, a)} ({_SUBSET[spec['metric_a']]})"
    return a


_SUBSET = {"precise_on_determinate": "safe", "precise_on_indeterminate": "prior-dependent"}


def display_wilcoxon(table):
    """A readable copy of :func:`wilcoxon_table` for the book (rounded, named columns)."""
    out = pd.DataFrame({
        "section": table["section"],
        "comparison (a vs b)": table["label"],
        "data sets": table["n_datasets"],
        "mean a": table["mean_a"].round(4),
        "mean b": table["mean_b"].round(4),
        "a better / ties / b better": [
            "" if pd.isna(w) else f"{int(w)} / {int(t)} / {int(l)}"
            for w, t, l in zip(table["a_better"], table["ties"], table["b_better"])],
        "p (ours)": table["wilcoxon_p"].map(_fmt_p),
        "p (paper)": table["published_p"].replace("", "—"),
        "paper's claim holds": [_verdict(m, s) for m, s in
                                zip(table["meets_published"], table["same_direction"])],
    })
    return out.set_index("comparison (a vs b)")


def display_bayesian(table):
    """The Bayesian signed-rank view of :func:`wilcoxon_table` (probabilities)."""
    out = pd.DataFrame({
        "comparison (a vs b)": table["label"],
        "P(a better)": table["p_a_better"].round(3),
        "P(equivalent)": table["p_rope"].round(3),
        "P(b better)": table["p_b_better"].round(3),
        "MC s.e.": table["bayes_mc_se"].round(4),
        "p Wilcoxon": table["wilcoxon_p"].map(_fmt_p),
    })
    return out.set_index("comparison (a vs b)")


def _fmt_p(p):
    if p is None or not np.isfinite(p):
        return "—"
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


def _verdict(meets, same):
    if meets is None and same is None:
        return "—"
    parts = []
    if meets is not None:
        parts.append("p: yes" if meets else "p: no")
    if same is not None:
        parts.append("direction: yes" if same else "direction: no")
    return ", ".join(parts)


def _headline_rows():
    """Rows of the headline table: (id, label, classifier as published, unit,
    published (quantity, classifier) or None, whether a standard error is meaningful)."""
    rows = [
        ("brier_increase_bma", "average increase of the Brier loss relative to AODE",
         "BMA-AODE", "percent",
         ("average increase in Brier loss relative to AODE", "BMA-AODE"), True),
        ("brier_reduction_comp", "average reduction of the Brier loss relative to AODE",
         "COMP-AODE", "percent",
         ("approx. average reduction in Brier loss relative to AODE", "COMP-AODE"), True),
        ("n_classes", "average number of classes of the data sets", "all data sets",
         "classes", ("average number of classes in the data set collection",
                     "all data sets"), False),
    ]
    for c, p in PAPER_COUNTERPARTS.items():
        k = "bma" if c == "BMA-AODE*" else "comp"
        bma = k == "bma"
        split = f"{p} (instances split by {c})"
        pair = f"{c} vs {p}"
        rows += [
            (f"det_{k}", "average determinacy", c, "percent", ("average determinacy", c),
             True),
            (f"fully_det_{k}", "data sets with determinacy 100%", c, "count",
             ("data sets on which completely determinate", c), False),
            (f"near_det_{k}", "data sets with determinacy >= 99.5% (100% when rounded)",
             c, "count", None, False),
            (f"r_n_{k}", "Pearson correlation of determinacy with n", c, "r",
             ("correlation of determinacy with sample size n (stated significant)", c)
             if bma else None, True),
            (f"r_n_p_{k}", "p-value of that correlation", c, "p-value", None, False),
            (f"rho_n_{k}", "Spearman rank correlation of determinacy with n", c, "r",
             None, True),
            (f"set_acc_{k}", "average set-accuracy", c, "percent",
             ("average set-accuracy", c), True),
            (f"size_{k}", "average indeterminate output size", c, "classes",
             ("average indeterminate output size", c), True),
            (f"safe_{k}", "average accuracy on safe instances", split, "percent",
             ("average accuracy on safe instances", split), True),
            (f"prior_dep_{k}", "average accuracy on prior-dependent instances", split,
             "percent", ("average accuracy on prior-dependent instances", split), True),
            (f"share_{k}", "average share of prior-dependent instances", c, "percent",
             ("average share of instances that are prior-dependent", c) if bma else None,
             True),
            (f"rel_u65_{k}", f"average relative utility u65 / accuracy of {p}, minus 1",
             c, "percent",
             ("approx. average utility improvement over BMA-AODE accuracy, u65", c)
             if bma else None, True),
            (f"rel_u80_{k}", f"average relative utility u80 / accuracy of {p}, minus 1",
             c, "percent",
             ("approx. average utility improvement over BMA-AODE accuracy, u80", c)
             if bma else None, True),
            (f"rel_high_{k}", "relative utility gain, 90th percentile over data sets and "
             "both utilities", pair, "percent",
             None if bma else ("utility increase over COMP-AODE accuracy, generally under",
                               pair), True),
            (f"ind_low_{k}", "utility gain on the prior-dependent instances, "
             "10th percentile", pair, "percent",
             ("utility increase on prior-dependent instances, generally at least "
              "(range low end)", pair) if bma else
             ("utility increase on indeterminate instances, range low end", pair), True),
            (f"ind_high_{k}", "utility gain on the prior-dependent instances, "
             "90th percentile", pair, "percent",
             ("utility increase on prior-dependent instances, generally at most "
              "(range high end)", pair) if bma else
             ("utility increase on indeterminate instances, range high end", pair), True),
        ]
    return tuple(rows)


_HEADLINE = _headline_rows()


def _by_dataset(scores, classifier, metric):
    return scores[metric].xs(classifier, level="classifier")


def headline_statistics(scores, n_rows, n_classes=None) -> pd.Series:
    """The numbers the paper's Section 3 quotes, computed from per-data-set scores.

    Averages are plain means over the data sets where the quantity is defined (e.g.
    set-accuracy over the data sets with some indeterminate instance).  "Generally"
    ranges of the paper are read as the 10th and 90th percentiles over the data sets
    (and both utilities); utility gains on the prior-dependent instances compare the
    credal classifier's utility with its precise counterpart's accuracy on the same
    instances (data sets where that accuracy is 0 are left out).

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` indexed by (dataset, classifier).
    n_rows : Series
        Number of instances of each data set.
    n_classes : Series, optional
        Number of classes of each data set (``n_classes`` is NaN without it).

    Returns
    -------
    Series indexed by the ids of the headline table (percentages in percent).
    """
    from scipy import stats as st

    out = {}
    ratio = (_by_dataset(scores, "BMA-AODE", "brier") / _by_dataset(scores, "AODE", "brier"))
    out["brier_increase_bma"] = 100 * (ratio.mean() - 1)
    ratio = (_by_dataset(scores, "COMP-AODE", "brier") / _by_dataset(scores, "AODE", "brier"))
    out["brier_reduction_comp"] = 100 * (1 - ratio.mean())
    out["n_classes"] = float(np.mean(n_classes)) if n_classes is not None else np.nan
    for c, p in PAPER_COUNTERPARTS.items():
        k = "bma" if c == "BMA-AODE*" else "comp"
        det = _by_dataset(scores, c, "determinacy")
        out[f"det_{k}"] = 100 * det.mean()
        out[f"fully_det_{k}"] = float((det >= 1).sum())
        out[f"near_det_{k}"] = float((det >= 0.995).sum())
        n = pd.Series(n_rows, dtype=float).reindex(det.index)
        if det.nunique() > 1 and len(det) > 2:
            r = st.pearsonr(det, n)
            out[f"r_n_{k}"], out[f"r_n_p_{k}"] = float(r.statistic), float(r.pvalue)
            out[f"rho_n_{k}"] = float(st.spearmanr(det, n).statistic)
        else:
            out[f"r_n_{k}"] = out[f"r_n_p_{k}"] = out[f"rho_n_{k}"] = np.nan
        out[f"set_acc_{k}"] = 100 * _by_dataset(scores, c, "set_accuracy").mean()
        out[f"size_{k}"] = _by_dataset(scores, c, "indeterminate_size").mean()
        out[f"safe_{k}"] = 100 * _by_dataset(scores, c, "precise_on_determinate").mean()
        acc_ind = _by_dataset(scores, c, "precise_on_indeterminate")
        out[f"prior_dep_{k}"] = 100 * acc_ind.mean()
        out[f"share_{k}"] = 100 * (1 - det.mean())
        acc = _by_dataset(scores, p, "accuracy")
        rel = {u: _by_dataset(scores, c, u) / acc - 1 for u in ("u65", "u80")}
        out[f"rel_u65_{k}"] = 100 * rel["u65"].mean()
        out[f"rel_u80_{k}"] = 100 * rel["u80"].mean()
        both = pd.concat(rel.values()).dropna()
        out[f"rel_high_{k}"] = 100 * _quantile(both, 0.9)
        gain = pd.concat([_by_dataset(scores, c, f"{u}_on_indeterminate")
                          / acc_ind.where(acc_ind > 0) - 1 for u in ("u65", "u80")]).dropna()
        out[f"ind_low_{k}"] = 100 * _quantile(gain, 0.1)
        out[f"ind_high_{k}"] = 100 * _quantile(gain, 0.9)
    return pd.Series(out, dtype=float)


def _quantile(values, q):
    v = np.asarray(values, dtype=float)
    return float(np.quantile(v, q)) if v.size else np.nan


def dataset_sizes(result):
    """Number of instances and of classes of each data set of an engine result.

    Parameters
    ----------
    result : credal.experiments.CVResult

    Returns
    -------
    DataFrame indexed by data set with columns ``n`` and ``classes``.
    """
    f = result.folds.drop_duplicates("dataset").set_index("dataset")
    n = (f["n_train"] + f["n_test"]).astype(int)
    classes = pd.Series({d: len(c) for d, c in result.classes.items()}).reindex(n.index)
    return pd.DataFrame({"n": n, "classes": classes.astype(int)}).sort_index()


def headline_table(result, published=None) -> pd.DataFrame:
    """The numbers of the paper's Section 3 text beside ours, with standard errors.

    Parameters
    ----------
    result : credal.experiments.CVResult
        The chapter's run (every classifier of :func:`paper_classifiers`).
    published : DataFrame, optional
        ``corani_headline_numbers`` (read when None).

    Returns
    -------
    DataFrame indexed by id with columns ``quantity``, ``classifier``, ``unit``,
    ``published`` (as printed, empty where the paper gives no number), ``ours`` and
    ``se`` (Monte-Carlo standard error from the spread over the cross-validation
    repeats; NaN for counts and p-values, and with a single repeat).
    """
    from credal.comparisons import repeat_standard_error
    from credal.datasets import published as _published

    pub = _published("corani_headline_numbers") if published is None else published
    sizes = dataset_sizes(result)
    value, se = repeat_standard_error(
        result.folds, lambda sc: headline_statistics(sc, sizes["n"], sizes["classes"]))
    rows = []
    for key, label, clf, unit, pkey, has_se in _HEADLINE:
        rows.append({"id": key, "quantity": label, "classifier": clf, "unit": unit,
                     "published": _published_value(pub, pkey),
                     "ours": value[key], "se": se[key] if has_se else np.nan})
    return pd.DataFrame(rows).set_index("id")


def display_headline(table):
    """A readable copy of :func:`headline_table` (rounded; '—' where nothing is printed)."""
    def fmt(v, unit):
        if not np.isfinite(v):
            return "—"
        if unit == "count":
            return f"{v:.0f}"
        if unit == "p-value":
            return _fmt_p(v)
        return f"{v:.2f}" if unit in ("r", "classes") else f"{v:.1f}"

    out = pd.DataFrame({
        "quantity": table["quantity"],
        "classifier": table["classifier"],
        "unit": table["unit"],
        "paper": table["published"].replace("", "—"),
        "ours": [fmt(v, u) for v, u in zip(table["ours"], table["unit"])],
        "± s.e.": [fmt(v, u) if np.isfinite(v) else "" for v, u in
                   zip(table["se"], table["unit"])],
    })
    return out.reset_index(drop=True).set_index(["quantity", "classifier"])


#: the credal classifiers of the paper's Figure 7 and its statements about them
FRIEDMAN_CLASSIFIERS = ("CDT", "CMA", "COMP-AODE*")
# the paper's Section 3.4: no pair differs at 95% confidence; at 90%, these two do
_FRIEDMAN_PUBLISHED_90 = {("u65", frozenset({"COMP-AODE*", "CMA"})): "COMP-AODE*",
                          ("u80", frozenset({"COMP-AODE*", "CDT"})): "COMP-AODE*"}


def friedman_tables(scores, classifiers=FRIEDMAN_CLASSIFIERS, utilities=("u65", "u80"),
                    alphas=(0.05, 0.10)):
    """Friedman ranks and Nemenyi pairs of the paper's Figure 7, beside its statements.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    classifiers : sequence of str
    utilities : sequence of str
    alphas : sequence of float
        Levels of the critical differences (paper: 95% and 90% confidence).

    Returns
    -------
    ranks : DataFrame
        Per utility: average ranks, ``friedman_p``, ``iman_davenport_p``, critical
        differences ``cd_<level>``, ``best`` (ours) and ``best_published``
        (COMP-AODE*, Figure 7).
    pairs : DataFrame
        Per utility and pair: ``better`` (lower average rank), ``worse``,
        ``rank_difference``, ``significant_<level>`` (ours, Nemenyi) and
        ``published_<level>`` (the paper's statement at the 95% and 90% levels:
        the winner's name where it reports a significant difference, ``"no"``
        otherwise; empty at other levels).
    """
    from credal.comparisons import friedman_comparison, score_matrix

    mats = {u: score_matrix(scores, u, list(classifiers)) for u in utilities}
    ranks, pairs = friedman_comparison(mats, alphas=alphas)
    ranks["best"] = ranks[list(classifiers)].idxmin(axis=1)
    ranks["best_published"] = "COMP-AODE*"
    keys = [(u, frozenset({b, w})) for u, b, w in
            zip(pairs["scores"], pairs["better"], pairs["worse"])]
    for a in alphas:
        level = f"{100 * (1 - a):g}%"
        if level == "95%":
            pairs[f"published_{level}"] = "no"
        elif level == "90%":
            pairs[f"published_{level}"] = [_FRIEDMAN_PUBLISHED_90.get(k, "no") for k in keys]
        else:
            pairs[f"published_{level}"] = ""
    return ranks, pairs


def display_friedman(ranks, pairs):
    """Readable copies of :func:`friedman_tables` (ranks, pairs)."""
    r = ranks.copy()
    for c in r.columns:
        if c.endswith("_p"):
            r[c] = r[c].map(_fmt_p)
        elif r[c].dtype.kind == "f":
            r[c] = r[c].round(3)
    r = r.rename(columns={"n_datasets": "data sets", "friedman_p": "Friedman p",
                          "iman_davenport_p": "Iman-Davenport p", "best": "best rank (ours)",
                          "best_published": "best rank (paper)"})
    r = r.rename(columns=lambda c: c.replace("cd_", "CD ") if c.startswith("cd_") else c)
    r.index.name = "utility"
    p = pairs.copy()
    p["rank_difference"] = p["rank_difference"].round(3)
    for c in [c for c in p.columns if c.startswith("significant_")]:
        p[c] = np.where(p[c], p["better"], "no")
    p = p.rename(columns={"scores": "utility", "rank_difference": "rank difference"})
    p = p.rename(columns=lambda c: c.replace("significant_", "significant at ")
                 .replace("published_", "paper: significant at "))
    p["pair"] = p["better"] + " ahead of " + p["worse"]
    p = p.drop(columns=["better", "worse"]).set_index(["utility", "pair"])
    return r, p


_PER_DATASET = {
    "determinate": [("accuracy", c) for c in ("AODE", "BMA-AODE", "COMP-AODE")]
    + [("brier", c) for c in ("AODE", "BMA-AODE", "COMP-AODE")],
    "credal": [(m, c) for c in ("BMA-AODE*", "COMP-AODE*")
               for m in ("determinacy", "set_accuracy", "indeterminate_size",
                         "precise_on_determinate", "precise_on_indeterminate")],
    "utilities": [(u, c) for u in ("u65", "u80") for c in
                  ("AODE", "BMA-AODE", "BMA-AODE*", "COMP-AODE", "COMP-AODE*", "NCC",
                   "CMA", "CDT")],
}
_METRIC_NAMES = {
    "accuracy": "accuracy", "brier": "Brier", "determinacy": "determinacy",
    "set_accuracy": "set-acc.", "indeterminate_size": "size",
    "precise_on_determinate": "precise acc. safe",
    "precise_on_indeterminate": "precise acc. prior-dep.", "u65": "u65", "u80": "u80",
}


def per_dataset_table(scores, sizes, part):
    """Per-data-set scores of one part of the chapter, in Table 2's order (by n).

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` (optionally with ``<metric>_se``).
    sizes : DataFrame
        :func:`dataset_sizes`.
    part : {"determinate", "credal", "utilities"}
        Accuracy and Brier loss of AODE, BMA-AODE, COMP-AODE; determinacy,
        set-accuracy, indeterminate size and the precise counterpart's accuracy on
        the safe and prior-dependent instances of BMA-AODE* and COMP-AODE*; u65 and
        u80 of every classifier.

    Returns
    -------
    DataFrame indexed by data set, columns ``(metric, classifier)`` named for
    readers, plus ``n`` and ``classes``; ``<metric> s.e.`` columns follow each metric
    when ``scores`` has them.
    """
    if part not in _PER_DATASET:
        raise ValueError(f"part must be one of {sorted(_PER_DATASET)}; got {part!r}")
    cols = {}
    for metric, clf in _PER_DATASET[part]:
        name = f"{_METRIC_NAMES[metric]} {clf}"
        cols[name] = _by_dataset(scores, clf, metric)
        if f"{metric}_se" in scores:
            cols[f"{name} s.e."] = _by_dataset(scores, clf, f"{metric}_se")
    out = pd.DataFrame(cols)
    out.insert(0, "classes", sizes["classes"].reindex(out.index))
    out.insert(0, "n", sizes["n"].reindex(out.index))
    out = out.sort_values(["n"], kind="stable")
    out.index.name = "data set"
    return out


def settings_table(n_datasets, n_repeats, n_splits, epsilon, prune_factor, s,
                   published=None):
    """The paper's experimental settings beside this run's parameters.

    Returns
    -------
    DataFrame indexed by setting with columns ``paper`` and ``ours``.
    """
    from credal.datasets import published as _published

    pub = _published("corani_headline_numbers") if published is None else published

    def val(q):
        return str(pub.loc[pub["quantity"] == q, "value"].iloc[0])

    rows = [
        ("data sets", val("number of data sets"), f"{n_datasets} distinct"),
        ("cross-validation runs", val("cross-validation runs per data set"), str(n_repeats)),
        ("folds per run", val("cross-validation folds"), str(n_splits)),
        ("epsilon", val("epsilon (prior lower bound / null-model prior), all occurrences"),
         f"{epsilon:g}"),
        ("BMA keeps SPODEs with L >= L_max x",
         val("SPODE kept only if conditional likelihood >= L_max times this factor"),
         f"{1 / prune_factor:g}"),
        ("equivalent sample size of the SPODE priors",
         val("equivalent sample size of Dirichlet parameter priors"), f"{s:g}"),
    ]
    return pd.DataFrame(rows, columns=["setting", "paper", "ours"]).set_index("setting")


def counterpart_gap(scores):
    """Largest per-data-set accuracy difference between each credal AODE's ``predict``
    and its precise class (0 when, as designed, they return the same classes)."""
    return float(max(
        (_by_dataset(scores, c, "accuracy") - _by_dataset(scores, p, "accuracy")).abs().max()
        for c, p in PAPER_COUNTERPARTS.items()))


def chapter_numbers(headline, wilcoxon, ranks, pairs):
    """Formatted numbers the chapter's text quotes (for ``myst_nb.glue``).

    Parameters
    ----------
    headline : DataFrame
        :func:`headline_table`.
    wilcoxon : DataFrame
        :func:`wilcoxon_table`.
    ranks, pairs : DataFrame
        :func:`friedman_tables`.

    Returns
    -------
    dict of str -> str
        ``h_<id>`` (ours), ``h_<id>_se`` and ``pub_<id>`` for every headline row;
        ``p_<id>``, ``pub_<id>`` (the printed p-value statement), ``n_<id>`` (data
        sets), ``wins_<id>`` (``"x of n"``) and
        ``holds_<id>`` (whether the paper's statement holds for ours) for every
        comparison; ``claims_held`` / ``claims_total`` (published p-value statements
        that hold for our p-values and directions); ``friedman_p_<utility>``,
        ``best_<utility>``, ``sig90_<utility>`` / ``sig95_<utility>`` (pairs the
        Nemenyi test separates, or "none").
    """
    out = {}
    for key, r in headline.iterrows():
        v, se, unit = r["ours"], r["se"], r["unit"]
        digits = 0 if unit == "count" else 2 if unit in ("r", "classes") else 1
        out[f"h_{key}"] = _fmt_p(v) if unit == "p-value" else (
            f"{v:.{digits}f}" if np.isfinite(v) else "n/a")
        out[f"h_{key}_se"] = f"{se:.{max(digits, 1)}f}" if np.isfinite(se) else "n/a"
        out[f"pub_{key}"] = r["published"] or "—"
    held = total = 0
    for _, r in wilcoxon.iterrows():
        key = r["id"]
        out[f"p_{key}"] = _fmt_p(r["wilcoxon_p"])
        out[f"pub_{key}"] = r["published_p"] or "—"
        out[f"n_{key}"] = str(int(r["n_datasets"]))
        wins = r["a_better"]
        out[f"wins_{key}"] = ("n/a" if pd.isna(wins) else
                              f"{int(wins)} of {int(r['n_datasets'])}")
        if r["meets_published"] is not None:
            total += 1
            ok = bool(r["meets_published"]) and r["same_direction"] is not False
            held += ok
            out[f"holds_{key}"] = "holds" if ok else "does not hold"
        else:
            out[f"holds_{key}"] = "has no published p-value"
    out["claims_held"], out["claims_total"] = str(held), str(total)
    for u, r in ranks.iterrows():
        out[f"friedman_p_{u}"] = _fmt_p(r["friedman_p"])
        out[f"best_{u}"] = str(r["best"])
        for lev, short in (("95%", "sig95"), ("90%", "sig90")):
            col = f"significant_{lev}"
            if col not in pairs:
                continue
            sel = pairs[(pairs["scores"] == u) & pairs[col]]
            out[f"{short}_{u}"] = ("none" if sel.empty else "; ".join(
                f"{b} ahead of {w}" for b, w in zip(sel["better"], sel["worse"])))
    return out


def reference_check(scores, references=("AODE", "AODE (Laplace)"), challenger="COMP-AODE",
                    credal="COMP-AODE*"):
    """How the comparison with AODE depends on AODE's parameter estimates.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` of a run with every classifier named.
    references : sequence of str
        AODE variants (e.g. the chapter's and Weka's estimates).
    challenger, credal : str
        The precise and credal classifiers compared with each reference.

    Returns
    -------
    DataFrame indexed by reference: its mean accuracy and Brier loss, the mean ratio
    of the challenger's Brier loss to it, the Wilcoxon p-values of the Brier and
    accuracy comparisons with the challenger, and of the u65 and u80 comparisons with
    the credal classifier.
    """
    from credal import stats

    rows = []
    for ref in references:
        b_ref, b_ch = (_by_dataset(scores, c, "brier") for c in (ref, challenger))
        a_ref, a_ch = (_by_dataset(scores, c, "accuracy") for c in (ref, challenger))
        row = {"reference": ref, "accuracy": a_ref.mean(), "Brier": b_ref.mean(),
               f"Brier {challenger} / reference": (b_ch / b_ref).mean(),
               f"p Brier {challenger}": stats.wilcoxon(b_ch, b_ref).pvalue,
               f"p accuracy {challenger}": stats.wilcoxon(a_ch, a_ref).pvalue}
        for u in ("u65", "u80"):
            row[f"p {u} {credal}"] = stats.wilcoxon(_by_dataset(scores, credal, u),
                                                    _by_dataset(scores, ref, u)).pvalue
        rows.append(row)
    return pd.DataFrame(rows).set_index("reference")


def _names(index, k):
    return ", ".join(str(i).replace("_", " ") for i in list(index)[:k]) or "none"


def chapter_examples(scores, wilcoxon, k=4):
    """Data sets and comparisons the chapter's text names (for ``myst_nb.glue``).

    Returns
    -------
    dict of str -> str
        ``brier_worst_bma`` (data sets where BMA-AODE's Brier loss exceeds AODE's by the
        largest factor), ``brier_best_comp`` / ``brier_worst_comp`` (COMP-AODE's best and
        worst Brier ratios to AODE), ``setacc_low_comp`` (data sets where COMP-AODE*'s
        set-accuracy is below 50%, with their number of prior-dependent instances),
        ``median_ind_bma`` / ``median_ind_comp`` (median number of prior-dependent
        instances, over all folds, of the data sets that have some),
        ``claims_failed`` (comparisons whose published statement does not hold),
        ``bayes_equivalent`` (comparisons judged practically equivalent with posterior
        probability above 0.9) and ``bayes_decisive`` (one side better with probability
        above 0.95).
    """
    out = {}
    ref = _by_dataset(scores, "AODE", "brier")
    r_bma = (_by_dataset(scores, "BMA-AODE", "brier") / ref).sort_values(ascending=False)
    r_comp = (_by_dataset(scores, "COMP-AODE", "brier") / ref).sort_values()
    out["brier_worst_bma"] = _names(r_bma[r_bma > 1].index, k + 1)
    out["brier_best_comp"] = _names(r_comp[r_comp < 1].index, k - 1)
    out["brier_worst_comp"] = _names(r_comp[r_comp > 1].index[::-1], k)
    sa = _by_dataset(scores, "COMP-AODE*", "set_accuracy")
    n_ind = _by_dataset(scores, "COMP-AODE*", "n_indeterminate")
    low = sa[sa < 0.5].index
    for c, key in (("BMA-AODE*", "bma"), ("COMP-AODE*", "comp")):
        m = _by_dataset(scores, c, "n_indeterminate")
        out[f"median_ind_{key}"] = f"{m[m > 0].median():.0f}" if (m > 0).any() else "0"
    out["setacc_low_comp"] = ", ".join(
        f"{d.replace('_', ' ')} ({int(n_ind[d])} instances)" for d in low) or "none"
    lab = wilcoxon.set_index("id")["label"]
    failed = [lab[i] for i, m, s in zip(wilcoxon["id"], wilcoxon["meets_published"],
                                         wilcoxon["same_direction"])
              if m is not None and (not m or s is False)]
    out["claims_failed"] = "; ".join(failed) or "none"
    eq = wilcoxon[wilcoxon["p_rope"] > 0.9]["label"]
    dec = wilcoxon[(wilcoxon["p_a_better"] > 0.95) | (wilcoxon["p_b_better"] > 0.95)]["label"]
    out["bayes_equivalent"] = "; ".join(eq) or "none"
    out["bayes_decisive"] = "; ".join(dec) or "none"
    return out


def check_numbers(check, reference="AODE (Laplace)", challenger="COMP-AODE",
                  credal="COMP-AODE*"):
    """Formatted numbers of :func:`reference_check` for one reference ("n/a" without it)."""
    keys = {"ratio": f"Brier {challenger} / reference", "p_brier": f"p Brier {challenger}",
            "p_u65": f"p u65 {credal}", "p_u80": f"p u80 {credal}"}
    if check is None or reference not in getattr(check, "index", ()):
        return {f"check_{k}": "n/a" for k in keys}
    row = check.loc[reference]
    return {"check_ratio": f"{row[keys['ratio']]:.3f}",
            **{f"check_{k}": _fmt_p(row[c]) for k, c in keys.items() if k != "ratio"}}


#: the citation used in the reproduction report
PAPER = "Corani & Antonucci"
_Z95 = 1.96


def _half_unit(text):
    """Half a unit of the last printed digit of a published number ("2.3" -> 0.05)."""
    s = str(text).strip()
    return 0.5 * 10.0 ** -(len(s.split(".")[1]) if "." in s else 0)


_REPORT_NOTES = {
    "n_classes": "mean over our 39 distinct data sets; Table 2's 40 rows give {table2:.2f}",
    "fully_det": "strict count over all folds; with determinacy >= 99.5% (rounded to 100%): "
                 "{near:.0f}",
    "r_n": "Pearson correlation of per-data-set determinacy with n; Spearman's gives "
           "{rho:.2f}",
    "ind_low": "10th percentile over data sets and both utilities (reading of 'generally')",
    "ind_high": "90th percentile over data sets and both utilities (reading of "
                "'generally')",
    "rel_high": "90th percentile over data sets and both utilities (reading of "
                "'generally under')",
}


def report_headline(headline, wilcoxon, ranks, pairs, published_table2=None):
    """The chapter's rows of the reproduction report (:mod:`credal.report` layout).

    Three kinds of rows: every number of the paper's Section 3 (tolerance: half a unit
    of the printed digit plus 1.96 combined Monte-Carlo standard errors, the paper's
    taken equal to ours, i.e. ``1.96 sqrt(2) s.e.``; counts exact); every
    printed significance statement of a paired comparison, coded 1 (significant at the
    printed level, in the printed direction) or 0 (not significant at 5%), ours coded
    the same way from our Wilcoxon p-value (tolerance 0); and the Friedman/Nemenyi
    statements of Section 3.4, coded as counts or 0/1.

    Parameters
    ----------
    headline : DataFrame
        :func:`headline_table`.
    wilcoxon : DataFrame
        :func:`wilcoxon_table`.
    ranks, pairs : DataFrame
        :func:`friedman_tables` (levels 95% and 90%).
    published_table2 : DataFrame, optional
        ``corani_table2_datasets`` (read when None).

    Returns
    -------
    DataFrame
        :func:`credal.report.headline_table` output.
    """
    from credal.datasets import published as _published
    from credal.report import headline_table as _report_table

    t2 = _published("corani_table2_datasets") if published_table2 is None \
        else published_table2
    rows = []
    for key, r in headline.iterrows():
        if not r["published"]:
            continue
        pub = float(r["published"])
        se = r["se"] if np.isfinite(r["se"]) else 0.0
        count = r["unit"] == "count"
        tol = 0.0 if count else _half_unit(r["published"]) + _Z95 * np.sqrt(2) * se
        stem = key.rsplit("_", 1)[0] if key.endswith(("_bma", "_comp")) else key
        k = key.rsplit("_", 1)[-1]
        note = _REPORT_NOTES.get(stem, "")
        note = note.format(table2=float(t2["classes"].mean()),
                           near=headline["ours"].get(f"near_det_{k}", np.nan),
                           rho=headline["ours"].get(f"rho_n_{k}", np.nan))
        if not count:
            note = (note + "; " if note else "") + \
                "tolerance: printed rounding + 1.96 combined Monte-Carlo s.e."
        rows.append({"quantity": f"{r['quantity']} ({r['classifier']})", "published": pub,
                     "ours": float(r["ours"]), "tolerance": tol,
                     "unit": {"percent": "%", "count": "data sets"}.get(r["unit"], r["unit"]),
                     "note": note})
    for _, r in wilcoxon.iterrows():
        text = r["published_p"]
        if not text:
            continue
        p = r["wilcoxon_p"]
        if text == "n.s.":
            pub, ours = 0.0, float(p < 0.05)
        else:
            bound = float(text[1:])
            pub, ours = 1.0, float(p < bound and r["same_direction"] is not False)
        printed = "n.s." if text == "n.s." else f"p {text}"
        rows.append({"quantity": f"significant: {r['label']} (paper: {printed})",
                     "published": pub, "ours": ours, "tolerance": 0.0,
                     "unit": "1 = significant",
                     "note": f"our Wilcoxon p = {_fmt_p(p)}; mean difference a - b = "
                             f"{r['mean_difference']:.4f}"})
    for u in ranks.index:
        sel = pairs[pairs["scores"] == u]
        rows.append({"quantity": f"pairs of CDT, CMA, COMP-AODE* separated at 95%, {u}",
                     "published": 0.0, "ours": float(sel["significant_95%"].sum()),
                     "tolerance": 0.0, "unit": "pairs",
                     "note": f"Friedman p = {_fmt_p(ranks.loc[u, 'friedman_p'])}"})
        rows.append({"quantity": f"COMP-AODE* has the best average rank, {u}",
                     "published": 1.0, "ours": float(ranks.loc[u, "best"] == "COMP-AODE*"),
                     "tolerance": 0.0, "unit": "1 = yes",
                     "note": "average ranks: " + ", ".join(
                         f"{c} {ranks.loc[u, c]:.2f}" for c in FRIEDMAN_CLASSIFIERS)})
        claimed = sel[sel["published_90%"] != "no"]
        for _, q in claimed.iterrows():
            other = q["worse"] if q["better"] == "COMP-AODE*" else q["better"]
            ok = q["better"] == "COMP-AODE*" and bool(q["significant_90%"])
            rows.append({"quantity": f"COMP-AODE* ahead of {other} at 90%, {u}",
                         "published": 1.0, "ours": float(ok), "tolerance": 0.0,
                         "unit": "1 = significant",
                         "note": f"rank difference {q['rank_difference']:.3f}, critical "
                                 f"difference {ranks.loc[u, 'cd_90%']:.3f}"})
    return _report_table(rows, paper=PAPER, chapter="credal-aode")
