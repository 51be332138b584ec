"""Scores for deciding whether two discrete variables are independent.

Everything here works on contingency tables of counts ``N[x, y]`` (rows = values of
``X``, columns = values of ``Y``) and is vectorised over any number of tables: a
``counts`` argument has shape ``(..., r, c)`` and a score comes back with shape
``(...)``.  Natural logarithms throughout.

The scores follow Moral's slides ("Discovering independence"); every score is
oriented so that a *positive* value favours dependence:

=================  ============================================================
``g_statistic``    ``G = 2 N MI`` (likelihood-ratio statistic), MI the sample
                   mutual information
``chi_score``      CHI = 1 - p-value of the G test (chi-square, ``(r-1)(c-1)`` df)
``k2_score``       ln P(D|Dep) - ln P(D|Ind), K2 priors (every Dirichlet
                   parameter 1); ``X -> Y`` under dependence
``bde_score``      the same with BDe (likelihood-equivalent) priors of
                   equivalent sample size ``S``: BD2 is ``S=2``, BD4 ``S=4``
``bic_score``      ``N MI - (df/2) ln N``
``aic_score``      ``N MI - df/2`` (the slides' "AKA": half the usual AIC penalty
                   difference, 1/2 for a 2x2 table)
``imp_score``      upper entropy of the IDM (``s=1``): ``H*(Y) - sum_x (N_x/N) H*(Y|x)``
``bdmod_score``    the slides' modified BDe score (estimation or classification)
=================  ============================================================

and :func:`decide` turns a score into a decision with exact-tie handling;
:func:`imp_variant_score` computes other readings of IMP (:data:`IMP_VARIANTS`).

The *imprecise* (new) score bounds ``R = P(D|Dep)/P(D|Ind)`` over a set of Dirichlet
parameters (:func:`imprecise_score_interval`, :func:`imprecise_score_rule`,
:func:`imprecise_decision`); :func:`estimate_joint`, :func:`estimate_conditional`
and the loss functions reproduce the slides' error measures; and
:func:`simulate_independence` runs the slides' simulation study.

For the chapter that reproduces the slides: :func:`exact_errors` gives the exact
expected error counts of the simulation by enumerating every table
(:func:`all_tables`, :func:`table_probabilities`); :func:`compare_with_published`,
:func:`exact_agreement` and :func:`display_comparison` set our numbers beside the
published ones with z-scores; :func:`scan_symmetric_priors` and
:func:`scan_prior_odds` identify the settings behind two published tables
(:func:`prior_odds_decision` is the "PRIOR" rule);
:func:`imp_variant_check` and :func:`imp_threshold_fit` test readings of IMP
against its published column; and :func:`hill_climb_bdeu`
(greedy BDeu structure search, checked against :func:`exhaustive_bdeu` over
:func:`all_dags`) with :func:`learn_from_independent_data` repeats the slides'
example of a network learned from four cases of independent variables.

Bad input.  Counts must be finite non-negative integers (``ValueError`` otherwise);
``S <= 0`` or ``s <= 0`` raises ``ValueError``; a table with no rows or no columns
(shape ``(..., 0, c)``) raises ``ValueError``.  An all-zero table (``N = 0``) is
allowed and gives a *defined* result: no evidence either way, so every score is 0
(CHI is 0, the imprecise interval of ``ln R`` is ``[0, 0]``) and every decision is
independence (undecided for the three-way imprecise rule).
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from ._validation import check_positive

__all__ = [
    "DEFAULT_SCORES",
    "DEPENDENCE",
    "INDEPENDENCE",
    "UNDECIDED",
    "upper_entropy",
    "upper_entropy_distribution",
    "mutual_information",
    "g_statistic",
    "chi_score",
    "k2_score",
    "bde_score",
    "bic_score",
    "aic_score",
    "imp_score",
    "IMP_VARIANTS",
    "imp_variant_score",
    "bdmod_score",
    "decide",
    "prior_odds_decision",
    "imprecise_score_interval",
    "imprecise_score_rule",
    "imprecise_decision",
    "estimate_joint",
    "estimate_conditional",
    "joint_log_loss",
    "kl_divergence",
    "conditional_log_loss",
    "score_decisions",
    "SimulationResult",
    "simulate_independence",
    "all_tables",
    "table_probabilities",
    "exact_errors",
    "exact_agreement",
    "imp_threshold_fit",
    "imp_variant_check",
    "agreement_by_score",
    "published_column_as",
    "display_agreement",
    "scan_symmetric_priors",
    "scan_prior_odds",
    "compare_with_published",
    "published_table",
    "display_comparison",
    "comparison_summary",
    "headline",
    "bdeu_local_score",
    "bdeu_network_score",
    "is_acyclic",
    "all_dags",
    "StructureResult",
    "hill_climb_bdeu",
    "exhaustive_bdeu",
    "independent_sample",
    "learn_from_independent_data",
    "summarise_learned_networks",
    "learned_networks_by_S",
]

#: Decision codes used by :func:`decide`, :func:`imprecise_decision` and the simulation.
DEPENDENCE = 1
INDEPENDENCE = 0
UNDECIDED = -1

# Relative tolerance under which two log-likelihood-type quantities count as equal.
# Ties are frequent and exact at small N (e.g. K2 and BIC on 3 cases), and floating
# point turns them into +-1e-16 noise that would flip decisions at random.
_TIE_RTOL = 1e-9
# Absolute tie tolerance of the IMP scores: entropies of tables of at most a few
# hundred cases are O(1), and a saturated upper entropy (ln 2) makes exact zeros.
_IMP_TIE = 1e-10


# --------------------------------------------------------------------------- input


def _check_counts(counts, name="counts", *, min_ndim=2, integer=True):
    """Return ``counts`` as a float array after checking it holds counts."""
    arr = np.asarray(counts)
    if arr.dtype == object:
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be numeric counts") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric counts; got dtype {arr.dtype}")
    if arr.ndim < min_ndim:
        shape = "(..., r, c)" if min_ndim == 2 else "(..., k)"
        raise ValueError(f"{name} must have shape {shape}; got shape {arr.shape}")
    if any(d == 0 for d in arr.shape[-min_ndim:]):
        raise ValueError(f"{name} has an empty table dimension: shape {arr.shape}")
    a = arr.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(a < 0):
        raise ValueError(f"{name} contains negative values; counts must be >= 0")
    if integer and np.any(a != np.round(a)):
        raise ValueError(f"{name} contains non-integer values; counts must be integers")
    return a


def _check_S(S, name="S"):
    return check_positive(name, S)


def _lg(alpha, n):
    """ln Gamma(alpha + n) - ln Gamma(alpha): log rising factorial, 0 when n = 0."""
    return special.gammaln(alpha + n) - special.gammaln(alpha)


def _margins(a):
    nx = a.sum(axis=-1)  # (..., r)
    my = a.sum(axis=-2)  # (..., c)
    n = nx.sum(axis=-1)  # (...)
    return nx, my, n


def _df(a):
    r, c = a.shape[-2:]
    return (r - 1) * (c - 1)


def _tie_tol(n):
    return _TIE_RTOL * np.maximum(1.0, n)


# ------------------------------------------------------------------ upper entropy


def _water_level(n, s):
    """Level L of the maximum-entropy IDM distribution: sum_i max(0, L - n_i) = s."""
    k = n.shape[-1]
    ns = np.sort(n, axis=-1)
    levels = (s + np.cumsum(ns, axis=-1)) / np.arange(1, k + 1)
    nxt = np.concatenate([ns[..., 1:], np.full(ns.shape[:-1] + (1,), np.inf)], axis=-1)
    # First r whose level does not reach the next count; the last r always qualifies.
    r = np.argmax(levels <= nxt, axis=-1)
    return np.take_along_axis(levels, r[..., None], axis=-1)


def _upper_entropy_unchecked(n, s):
    """Upper entropy (nats) of the IDM set of counts ``n`` (..., k); no checks."""
    level = _water_level(n, s)
    p = np.maximum(n, level) / (n.sum(axis=-1, keepdims=True) + s)
    return -np.sum(special.xlogy(p, p), axis=-1)


def upper_entropy_distribution(counts, s=1.0):
    """The maximum-entropy distribution of the imprecise Dirichlet model.

    The IDM with hyperparameter ``s`` after observing counts ``n`` is the set
    ``{p : p_i >= n_i/(N+s), sum p = 1}``.  Its entropy maximiser gives the mass
    ``s`` to the smallest counts, levelling them: ``p_i = max(n_i, L)/(N+s)`` where
    ``sum_i max(0, L - n_i) = s`` (Abellán & Moral), found exactly by sorting.

    Parameters
    ----------
    counts : array-like of int, shape (..., k)
        Non-negative integer counts; the last axis indexes the categories.
    s : float
        IDM hyperparameter, ``> 0``.

    Returns
    -------
    p : ndarray, shape (..., k)
    """
    s = _check_S(s, "s")
    n = _check_counts(counts, min_ndim=1)
    level = _water_level(n, s)
    return np.maximum(n, level) / (n.sum(axis=-1, keepdims=True) + s)


def upper_entropy(counts, s=1.0):
    """Upper (maximum) entropy, in nats, of the IDM credal set of ``counts``.

    Parameters
    ----------
    counts : array-like of int, shape (..., k)
        Non-negative integer counts; the last axis indexes the categories.
    s : float
        IDM hyperparameter, ``> 0`` (the slides use ``s = 1``).

    Returns
    -------
    H : ndarray, shape (...)
        ``max{H(p) : p_i >= n_i/(N+s), sum p = 1}``; for ``N = 0`` this is ``ln k``.
    """
    p = upper_entropy_distribution(counts, s)
    return -np.sum(special.xlogy(p, p), axis=-1)


# ------------------------------------------------------------------- classic scores


def mutual_information(counts):
    """Sample mutual information (nats) of each table; 0 for an empty table.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    mi : ndarray, shape (...)
    """
    a = _check_counts(counts)
    return _nmi(a) / np.maximum(a.sum(axis=(-2, -1)), 1.0)


def _nmi(a):
    """N times the sample mutual information, clipped at 0 (rounding)."""
    nx, my, n = _margins(a)
    v = (
        special.xlogy(a, a).sum(axis=(-2, -1))
        - special.xlogy(nx, nx).sum(axis=-1)
        - special.xlogy(my, my).sum(axis=-1)
        + special.xlogy(n, n)
    )
    # Independent-looking tables give exact zeros that rounding can push below 0.
    return np.where(v > 1e-12 * np.maximum(1.0, n * np.log(np.maximum(n, 2.0))), v, 0.0)


def g_statistic(counts):
    """Likelihood-ratio statistic ``G = 2 N MI`` of each table.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    G : ndarray, shape (...)
    """
    return 2.0 * _nmi(_check_counts(counts))


def chi_score(counts):
    """CHI: one minus the p-value of the G test of independence.

    ``G`` is referred to a chi-square distribution with ``(r-1)(c-1)`` degrees of
    freedom (1 for the slides' 2x2 tables); the nominal degrees of freedom are used
    even when a row or column of the table is empty.  The decision rules
    ``CHI^0.05`` and ``CHI^0.20`` of the slides are ``decide(chi, 0.95)`` and
    ``decide(chi, 0.80)`` (dependence iff CHI exceeds the threshold).

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    chi : ndarray, shape (...), values in [0, 1)
    """
    a = _check_counts(counts)
    df = _df(a)
    g = 2.0 * _nmi(a)
    if df == 0:
        return np.zeros(g.shape)
    return stats.chi2.cdf(g, df)


def _bd_parts(a, alpha_cell, alpha_row, alpha_y, S_y):
    """ln P(D|Dep) - ln P(D|Ind) without the X factor (identical in both)."""
    nx, my, n = _margins(a)
    dep = np.sum(_lg(alpha_cell, a), axis=(-2, -1)) - np.sum(_lg(alpha_row, nx), axis=-1)
    ind = np.sum(_lg(alpha_y, my), axis=-1) - _lg(S_y, n)
    return dep - ind


def k2_score(counts):
    """K2 log Bayes factor ``ln P(D|Dep) - ln P(D|Ind)`` (Cooper & Herskovits).

    Every Dirichlet parameter is 1: ``X`` and ``Y`` uniform under independence;
    ``X`` and each ``Y | X = x`` uniform under dependence (``X -> Y``; the score is
    not symmetric in ``X`` and ``Y``).  The ``X`` factor cancels.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    a = _check_counts(counts)
    c = a.shape[-1]
    return _bd_parts(a, 1.0, float(c), 1.0, float(c))


def bde_score(counts, S=2.0):
    """BDe (likelihood-equivalent Bayesian Dirichlet) log Bayes factor.

    Equivalent sample size ``S`` spread uniformly over the joint: cell parameters
    ``S/(rc)``, row parameters ``S/r`` under dependence, ``Y`` parameters ``S/c``
    under independence (BDeu).  BS2 / BD2 is ``S = 2``, BS4 / BD4 is ``S = 4``.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    S : float
        Equivalent sample size, ``> 0``.

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    S = _check_S(S)
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    return _bd_parts(a, S / (r * c), S / r, S / c, S)


def bic_score(counts):
    """BIC score difference ``N MI - ((r-1)(c-1)/2) ln N``; 0 for an empty table.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    a = _check_counts(counts)
    n = a.sum(axis=(-2, -1))
    pen = 0.5 * _df(a) * np.log(np.maximum(n, 1.0))
    return _nmi(a) - pen


def aic_score(counts):
    """Akaike score as on the slides ("AKA"): ``N MI - (r-1)(c-1)/2``.

    The slides penalise the extra parameter of a 2x2 table by 1/2, half of the usual
    AIC difference (which would compare ``N MI`` with 1).  An empty table scores 0.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    a = _check_counts(counts)
    n = a.sum(axis=(-2, -1))
    return np.where(n > 0, _nmi(a) - 0.5 * _df(a), 0.0)


def imp_score(counts, s=1.0):
    """IMP: upper-entropy score of the imprecise Dirichlet model.

    ``IMP = IPI - IPD = H*(Y) - sum_x (N_x/N) H*(Y | X = x)``, where ``H*`` is the
    upper entropy of the IDM (:func:`upper_entropy`) on the column totals and on
    each row.  ``H*(X)`` appears in both and cancels.  It is the imprecise
    information gain of ``X`` about ``Y`` and is not symmetric.  Empty rows carry
    weight 0; an empty table scores 0.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    s : float
        IDM hyperparameter (the slides use 1).

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    s = _check_S(s, "s")
    a = _check_counts(counts)
    nx, my, n = _margins(a)
    h_rows = _upper_entropy_unchecked(a, s)  # (..., r)
    h_y = _upper_entropy_unchecked(my, s)
    cond = np.sum(nx * h_rows, axis=-1) / np.maximum(n, 1.0)
    return np.where(n > 0, h_y - cond, 0.0)


#: Readings of IMP tried against the slides' counts (see :func:`imp_variant_score`).
IMP_VARIANTS = {
    "SWAP": "roles of X and Y exchanged: H*(X) - sum_y (N_y/N) H*(X | Y = y)",
    "GE": "the stated score, but an exact tie (IMP = 0) counts as dependence",
    "HALF": "the stated score, an exact tie decided by a fair coin",
    "ROWS": "IDM parameter s split over the rows (s/r per conditional, BDe-like)",
    "JOINT": "IPD = upper entropy of the joint IDM: H*(X) + H*(Y) - H*(X, Y)",
    "JOINTCOND": "conditional upper entropy over the joint IDM: H*(Y) - max H_P(Y | X)",
    "WSMOOTH": "conditional upper entropies weighted by (N_x + s/r)/(N + s)",
    "WMAXENT": "weighted by the maximum-entropy distribution of X's IDM",
    "SYM": "symmetric: IMP of the table plus IMP of its transpose",
    "NS": "total uncertainty: upper entropy plus the IDM non-specificity s ln(c)/(n + s)",
    "CREDAL": "IPD = upper entropy of the credal set {IDM of X} x {IDMs of Y | x}",
    "UPEXP": "IPD = H*(X) + upper expectation, over X's IDM, of the H*(Y | x)",
    "LOEXP": "IPD = H*(X) + lower expectation, over X's IDM, of the H*(Y | x)",
}


def _credal_ipd_gain(nx, h, s):
    """max over X's IDM of H(p) + sum_x p_x h_x, minus H*(X) (both on the same IDM).

    The maximiser is ``p_x = max(l_x, c e^{h_x})`` with ``l_x = n_x/(N + s)`` (KKT of
    a concave objective over a box-simplex), ``c`` solved exactly after sorting
    ``l_x e^{-h_x}``: a water level in the metric ``e^{h}``.
    """
    n = nx.sum(axis=-1, keepdims=True)
    low = nx / (n + s)
    e = np.exp(h - h.max(axis=-1, keepdims=True))  # rescaled: c absorbs the factor
    ratio = low / e
    order = np.argsort(ratio, axis=-1)
    rs = np.take_along_axis(ratio, order, axis=-1)
    es = np.take_along_axis(e, order, axis=-1)
    ls = np.take_along_axis(low, order, axis=-1)
    # c_m when the m smallest ratios are free: c sum_{j<=m} e_j + sum_{j>m} l_j = 1.
    free_e = np.cumsum(es, axis=-1)
    fixed_l = ls.sum(axis=-1, keepdims=True) - np.cumsum(ls, axis=-1)
    c = (1.0 - fixed_l) / free_e
    nxt = np.concatenate([rs[..., 1:], np.full(rs.shape[:-1] + (1,), np.inf)], axis=-1)
    m = np.argmax(c <= nxt, axis=-1)
    cm = np.take_along_axis(c, m[..., None], axis=-1)
    p = np.maximum(low, cm * e)
    val = -np.sum(special.xlogy(p, p), axis=-1) + np.sum(p * h, axis=-1)
    return val - _upper_entropy_unchecked(nx, s)


def _cond_upper_entropy_joint(a, s, iters=100):
    """max over the joint IDM (parameter s on the cells) of H_P(Y | X); two rows only.

    With mass ``w`` added to row 0 and ``s - w`` to row 1, each row's best split is
    its own IDM maximiser, so the objective is
    ``f(w) = [(n_0 + w) H*(row 0; w) + (n_1 + s - w) H*(row 1; s - w)] / (N + s)``,
    concave in ``w``; golden-section search to ``s * 0.618**iters``.
    """
    nx, _, n = _margins(a)

    def row_term(row, nrow, w):
        # (n_row + w) * upper entropy of the row with IDM parameter w (0 if empty).
        k = row.shape[-1]
        rs = np.sort(row, axis=-1)
        lev = (w[..., None] + np.cumsum(rs, axis=-1)) / np.arange(1, k + 1)
        nxt = np.concatenate([rs[..., 1:], np.full(rs.shape[:-1] + (1,), np.inf)], axis=-1)
        L = np.take_along_axis(lev, np.argmax(lev <= nxt, axis=-1)[..., None], axis=-1)
        q = np.maximum(row, L)  # unnormalised: q / (n_row + w)
        tot = nrow + w
        with np.errstate(divide="ignore", invalid="ignore"):
            v = special.xlogy(tot, tot) - np.sum(special.xlogy(q, q), axis=-1)
        return np.where(tot > 0, v, 0.0)

    def f(w):
        return (row_term(a[..., 0, :], nx[..., 0], w) + row_term(a[..., 1, :], nx[..., 1], s - w)) / (n + s)

    lo, hi = np.zeros(n.shape), np.full(n.shape, float(s))
    g = (np.sqrt(5.0) - 1.0) / 2.0
    for _ in range(iters):
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        left = f(x1) >= f(x2)
        hi, lo = np.where(left, x2, hi), np.where(left, lo, x1)
    return np.maximum.reduce([f(0.5 * (lo + hi)), f(np.zeros(n.shape)), f(np.full(n.shape, float(s)))])


def imp_variant_score(counts, variant, s=1.0):
    """Readings of the slides' IMP other than the stated one (see :data:`IMP_VARIANTS`).

    The slides define ``IMP = IPI - IPD`` with ``IPI = H*(X) + H*(Y)`` and
    ``IPD = H*(X) + sum_x P^(x) H*(Y | X = x)`` (:func:`imp_score`).  Each variant
    changes one ingredient, to test which reading reproduces the published counts:

    * ``"SWAP"``: the transposed table (``X`` and ``Y`` exchanged).
    * ``"GE"``, ``"HALF"``: the stated score (only the decision of an exact tie
      differs, see :func:`score_decisions`).
    * ``"ROWS"``: each conditional IDM gets ``s/r`` (``r`` rows), ``Y`` keeps ``s``.
    * ``"JOINT"``: ``H*(X) + H*(Y) - H*(X, Y)``, the last on the joint IDM (``s`` on
      the ``rc`` cells).
    * ``"JOINTCOND"``: ``H*(Y) - max_P H_P(Y | X)`` over the joint IDM (two-row tables).
    * ``"WSMOOTH"``: weights ``(N_x + s/r)/(N + s)`` instead of ``N_x/N``.
    * ``"WMAXENT"``: weights from the maximum-entropy member of ``X``'s IDM.
    * ``"SYM"``: ``IMP(N) + IMP(N^T)``.
    * ``"NS"``: every upper entropy ``H*`` of ``k`` categories and ``n`` counts is
      replaced by the total uncertainty ``H* + s ln(k)/(n + s)`` (the IDM's
      non-specificity: its Moebius mass ``s/(n + s)`` sits on the whole frame).
    * ``"CREDAL"``: ``IPD = max H(P_X) + sum_x P_X(x) H*(Y | x)`` over ``P_X`` in
      ``X``'s IDM, the upper entropy of the credal set that combines ``X``'s IDM with
      the conditional IDMs (``IPI`` is already the upper entropy of its product set).
    * ``"UPEXP"`` / ``"LOEXP"``: ``IPD = H*(X) + max`` (resp. ``min``) over ``P_X`` in
      ``X``'s IDM of ``sum_x P_X(x) H*(Y | x)``, i.e. ``P^(x)`` read from the IDM's
      upper (lower) expectation instead of the relative frequencies.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    variant : str
        A key of :data:`IMP_VARIANTS`.
    s : float
        IDM hyperparameter (the slides use 1).

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence, 0 for an empty table
    """
    s = _check_S(s, "s")
    if variant not in IMP_VARIANTS:
        raise ValueError(f"unknown IMP variant {variant!r}; known: {', '.join(IMP_VARIANTS)}")
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = _margins(a)
    if variant in ("GE", "HALF"):
        return imp_score(a, s)
    if variant == "SWAP":
        return imp_score(np.swapaxes(a, -1, -2), s)
    if variant == "SYM":
        return imp_score(a, s) + imp_score(np.swapaxes(a, -1, -2), s)
    if variant == "JOINTCOND":
        if r != 2:
            raise ValueError(f"variant 'JOINTCOND' is implemented for two-row tables; got {r} rows")
        val = _upper_entropy_unchecked(my, s) - _cond_upper_entropy_joint(a, s)
        return np.where(n > 0, val, 0.0)
    h_rows = _upper_entropy_unchecked(a, s / r if variant == "ROWS" else s)
    h_y = _upper_entropy_unchecked(my, s)
    if variant == "JOINT":
        h_xy = _upper_entropy_unchecked(a.reshape(a.shape[:-2] + (r * c,)), s)
        val = _upper_entropy_unchecked(nx, s) + h_y - h_xy
    elif variant == "CREDAL":
        val = h_y - _credal_ipd_gain(nx, h_rows, s)
    elif variant in ("UPEXP", "LOEXP"):
        ext = h_rows.max(axis=-1) if variant == "UPEXP" else h_rows.min(axis=-1)
        val = h_y - (np.sum(nx * h_rows, axis=-1) + s * ext) / (n + s)
    else:
        if variant == "NS":
            h_rows = h_rows + s * np.log(c) / (nx + s)
            h_y = h_y + s * np.log(c) / (n + s)
        if variant == "WSMOOTH":
            w = (nx + s / r) / (n + s)[..., None]
        elif variant == "WMAXENT":
            w = upper_entropy_distribution(nx, s)
        else:  # "ROWS", "NS": relative frequencies as stated
            w = nx / np.maximum(n, 1.0)[..., None]
        val = h_y - np.sum(w * h_rows, axis=-1)
    return np.where(n > 0, val, 0.0)


def _kl_tables(p, q, axes=(-2, -1)):
    return np.sum(special.xlogy(p, p) - special.xlogy(p, q), axis=axes)


def bdmod_score(counts, S=2.0, kind="estimation"):
    """The slides' modified BDe score ("BD2MOD" for ``S = 2``).

    Each hypothesis is weighted by what is lost if it is true but the other is
    chosen, using the BDe posterior-mean estimates of :func:`estimate_joint`:

    * ``kind="estimation"``: dependence value ``P(D|Dep) KL(P^e_dep, P^e_ind)``,
      independence value ``P(D|Ind) KL(P^e_ind, P^e_dep)`` (joint distributions);
    * ``kind="classification"``: dependence value
      ``P(D|Dep) sum_xy P^e_dep(x,y) ln(P^e(y|x)/P^e(y))``, independence value
      ``P(D|Ind) sum_xy P^e_X(x) P^e_Y(y) ln(P^e(y)/P^e(y|x))``.

    The score is the log of their ratio, so dependence is chosen when it is > 0.
    When both losses vanish (the two estimates coincide) the score is 0.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    S : float
        Equivalent sample size of the BDe priors and of the estimates.
    kind : {"estimation", "classification"}

    Returns
    -------
    score : ndarray, shape (...); may be +-inf when exactly one loss is 0
    """
    S = _check_S(S)
    if kind not in ("estimation", "classification"):
        raise ValueError(f"kind must be 'estimation' or 'classification'; got {kind!r}")
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    bf = _bd_parts(a, S / (r * c), S / r, S / c, S)
    pdep = estimate_joint(a, True, S)
    pind = estimate_joint(a, False, S)
    if kind == "estimation":
        loss_dep = _kl_tables(pdep, pind)  # lost by choosing Ind when Dep holds
        loss_ind = _kl_tables(pind, pdep)
    else:
        cdep = estimate_conditional(a, True, S)
        cind = estimate_conditional(a, False, S)
        loss_dep = np.sum(pdep * (np.log(cdep) - np.log(cind)), axis=(-2, -1))
        loss_ind = np.sum(pind * (np.log(cind) - np.log(cdep)), axis=(-2, -1))
    loss_dep = np.maximum(loss_dep, 0.0)
    loss_ind = np.maximum(loss_ind, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = bf + np.log(loss_dep) - np.log(loss_ind)
    # Tables whose two estimates coincide (e.g. N(x, y) + S/4 proportional to the
    # product of the smoothed margins) lose nothing either way; rounding would
    # otherwise turn their two zero losses into +-inf.
    same = np.all(np.abs(pdep - pind) <= 1e-12 * pdep, axis=(-2, -1))
    both_zero = same | ((loss_dep <= 1e-300) & (loss_ind <= 1e-300))
    return np.where(both_zero, 0.0, out)


def decide(score, threshold=0.0, *, n=None, atol=None):
    """Decision from a score: dependence iff ``score > threshold`` beyond a tie tolerance.

    Exact ties (frequent at small sample sizes) count as independence.  The
    tolerance is ``atol`` if given, else ``1e-9 * max(1, n)`` (``n`` the table size)
    or ``1e-9`` without ``n``.

    Parameters
    ----------
    score : array-like, shape (...)
    threshold : float
        ``0`` for log Bayes factors and penalised likelihoods; ``1 - alpha`` for
        :func:`chi_score` (0.95 for CHI^0.05, 0.80 for CHI^0.20).
    n : array-like, optional
        Table sizes, broadcastable to ``score``.
    atol : float, optional

    Returns
    -------
    decision : ndarray of int8, shape (...)
        :data:`DEPENDENCE` (1) or :data:`INDEPENDENCE` (0).
    """
    score = np.asarray(score, dtype=float)
    if atol is None:
        atol = _tie_tol(np.asarray(n, dtype=float)) if n is not None else _TIE_RTOL
    return np.where(score > threshold + atol, DEPENDENCE, INDEPENDENCE).astype(np.int8)


def prior_odds_decision(log_bayes_factor, odds, *, n=None):
    """Bayesian decision with unequal prior probabilities of the two hypotheses.

    With prior probabilities ``P(Ind) = k/(1+k)`` and ``P(Dep) = 1/(1+k)`` (prior
    odds ``k : 1`` in favour of independence), the posterior prefers dependence iff
    ``ln P(D|Dep) - ln P(D|Ind) > ln k``.  ``k = 1`` is the equal-prior rule of
    :func:`decide`.  The slides' "PRIOR" column of the imprecise-score table is
    reproduced by BDe (S = 2) with ``k = 5`` (``P(Dep) = 1/6``); the chapter shows
    how that value is identified from the published counts.

    Parameters
    ----------
    log_bayes_factor : array-like, shape (...)
        E.g. :func:`bde_score`.
    odds : float
        Prior odds ``P(Ind)/P(Dep)``, ``> 0``.
    n : array-like, optional
        Table sizes for the tie tolerance of :func:`decide`.

    Returns
    -------
    decision : ndarray of int8, shape (...)
    """
    odds = check_positive("odds", odds)
    return decide(log_bayes_factor, float(np.log(odds)), n=n)


# --------------------------------------------------------------- imprecise score


def _check_2x2(a, what):
    if a.shape[-2:] != (2, 2):
        raise ValueError(f"{what} is implemented for 2x2 tables; got tables of shape {a.shape[-2:]}")


def _log_ratio_2x2(t, S, a0, p, q):
    """ln R for 2x2 tables ``t`` (T, 4) at parameters (T, P) arrays a0, p, q.

    Dirichlet parameters: alpha_00 = p, alpha_01 = a0 - p, alpha_10 = q,
    alpha_11 = S - a0 - q; Y under independence gets (p + q, S - p - q).
    """
    n00, n01, n10, n11 = (t[:, i : i + 1] for i in range(4))
    a1 = S - a0
    b0 = p + q
    return (
        _lg(p, n00)
        + _lg(a0 - p, n01)
        - _lg(a0, n00 + n01)
        + _lg(q, n10)
        + _lg(a1 - q, n11)
        - _lg(a1, n10 + n11)
        + _lg(S, n00 + n01 + n10 + n11)
        - _lg(b0, n00 + n10)
        - _lg(S - b0, n01 + n11)
    )


def _box_params(U, S):
    # Slides' approximation: row sums S/2, alpha_x0 in [S/8, 3S/8].
    a0 = np.full(U.shape[:-1], S / 2)
    return a0, S / 8 + (S / 4) * U[..., 0], S / 8 + (S / 4) * U[..., 1]


def _full_params(U, S):
    # alpha_x. in [S/4, 3S/4]; each row's cells in [a_x/4, 3 a_x/4].
    a0 = S / 4 + (S / 2) * U[..., 0]
    a1 = S - a0
    return a0, a0 * (0.25 + 0.5 * U[..., 1]), a1 * (0.25 + 0.5 * U[..., 2])


def _pattern_search(fun, U, val, h, sign, max_iter=200, h_min=1e-9):
    """Vectorised compass search on [0, 1]^d from lattice optima.

    ``fun(U, idx)`` evaluates the objective of tables ``idx`` at points ``U``
    (len(idx), P, d).  ``sign = 1`` minimises, ``-1`` maximises.  The step halves
    whenever no stencil point improves; the search stops at ``h < h_min``.
    """
    T, d = U.shape
    offsets = np.array(list(itertools.product((-1.0, 0.0, 1.0), repeat=d)))
    offsets = offsets[np.any(offsets != 0, axis=1)]
    U, val, h = U.copy(), val.copy(), np.full(T, float(h))
    active = np.arange(T)
    for _ in range(max_iter):
        if active.size == 0:
            break
        cand = np.clip(U[active, None, :] + h[active, None, None] * offsets[None], 0.0, 1.0)
        v = fun(cand, active)
        k = np.argmin(sign * v, axis=1)
        best = v[np.arange(active.size), k]
        better = sign * best < sign * val[active] - 1e-15 * np.abs(val[active])
        idx = active[better]
        U[idx] = cand[better, k[better]]
        val[idx] = best[better]
        h[active[~better]] *= 0.5
        active = active[h[active] >= h_min]
    return val


def _box_lattice(t, S, m):
    """ln R on an (m+1)^2 lattice of the box, from 1-D pieces (cheap, separable)."""
    n00, n01, n10, n11 = (t[:, i : i + 1] for i in range(4))
    grid = S / 8 + (S / 4) * np.arange(m + 1) / m  # alpha_x0 values
    A = _lg(grid, n00) + _lg(S / 2 - grid, n01)  # (T, m+1)
    B = _lg(grid, n10) + _lg(S / 2 - grid, n11)
    u = 2 * grid[0] + (S / 4) * np.arange(2 * m + 1) / m  # column-0 sums
    C = -_lg(u, n00 + n10) - _lg(S - u, n01 + n11)  # (T, 2m+1)
    const = (
        _lg(S, n00 + n01 + n10 + n11) - _lg(S / 2, n00 + n01) - _lg(S / 2, n10 + n11)
    )
    # C[:, i + j] as a zero-copy (T, m+1, m+1) view.
    Cij = np.lib.stride_tricks.sliding_window_view(C, m + 1, axis=1)
    F = (A[:, :, None] + const[:, :, None]) + B[:, None, :] + Cij
    ii, jj = np.meshgrid(np.arange(m + 1), np.arange(m + 1), indexing="ij")
    pts = np.column_stack([ii.ravel(), jj.ravel()]) / m
    return F.reshape(len(t), -1), pts


def _interval_2x2(t, S, region, lattice):
    """(min, max) of ln R for 2x2 tables t (T, 4): lattice, then compass search."""
    T = t.shape[0]
    if region == "box":
        param = _box_params
        n_pts = (lattice + 1) ** 2
    else:
        param = _full_params
        g = np.linspace(0.0, 1.0, lattice + 1)
        pts = np.array(list(itertools.product(g, g, g)))
        n_pts = len(pts)
    lo_out, hi_out = np.empty(T), np.empty(T)
    chunk = max(1, 4_000_000 // n_pts)  # bounds the lattice's memory
    for start in range(0, T, chunk):
        tc = t[start : start + chunk]
        if region == "box":
            F, pts = _box_lattice(tc, S, lattice)
        else:
            U = np.broadcast_to(pts, (len(tc),) + pts.shape)
            F = _log_ratio_2x2(tc, S, *param(U, S))

        def fun(U, idx, tc=tc):
            return _log_ratio_2x2(tc[idx], S, *param(U, S))

        rows = np.arange(len(tc))
        for sign, out in ((1.0, lo_out), (-1.0, hi_out)):
            k = np.argmin(F, axis=1) if sign > 0 else np.argmax(F, axis=1)
            out[start : start + len(tc)] = _pattern_search(fun, pts[k], F[rows, k], 1.0 / lattice, sign)
    return lo_out, hi_out


def imprecise_score_interval(counts, S=2.0, region="box", *, lattice=None):
    """Bounds of ``ln R``, ``R = P(D|Dep)/P(D|Ind)``, over the imprecise Dirichlet priors.

    Moral's new score lets every Dirichlet parameter vary: for a distribution with
    ``k`` values and sample size ``S'`` the parameters satisfy ``sum = S'`` and
    ``alpha_i >= S'/(2k)`` (so ``alpha_i <= S'/(2k) + S'/2``).  For ``X -> Y`` the
    joint parameters ``alpha_xy`` have row sums ``alpha_x`` in this set for ``X``, and
    each row in this set for ``Y | x``; under independence ``Y`` gets the column sums.
    ``X``'s factor is the same under both hypotheses and cancels.

    region="box"
        The slides' approximate method: the row sums are fixed at ``S/2`` and only
        the split of each row varies, ``alpha_x0`` in ``[S/8, 3S/8]`` (2 free
        parameters).
    region="full"
        The whole constrained set: ``alpha_0.`` in ``[S/4, 3S/4]`` as well
        (3 free parameters).

    The optimum is located on a lattice (``lattice`` intervals per parameter:
    default 64 for "box", 12 for "full"; the lattice includes the boundary) and then
    polished by a compass search down to steps of 1e-9 of the parameter range.
    The result is verified against multi-start scipy optimisation in the tests; it
    is a numerical global optimisation, exact to about 1e-10 when the lattice lands
    in the basin of the global optimum (the objective is smooth and bounded away
    from its singularities, ``alpha >= S/8``).

    Parameters
    ----------
    counts : array-like of int, shape (..., 2, 2)
        2x2 tables ``N[x, y]``; only 2x2 tables are supported.
    S : float
        Global equivalent sample size, ``> 0`` (the slides use 2).
    region : {"box", "full"}
    lattice : int, optional

    Returns
    -------
    log_lower, log_upper : ndarray, shape (...)
        ``min ln R`` and ``max ln R``; both 0 for an empty table.
    """
    S = _check_S(S)
    if region not in ("box", "full"):
        raise ValueError(f"region must be 'box' or 'full'; got {region!r}")
    a = _check_counts(counts)
    _check_2x2(a, "imprecise_score_interval")
    if lattice is None:
        lattice = 64 if region == "box" else 12
    if not isinstance(lattice, numbers.Integral) or lattice < 2:
        raise ValueError(f"lattice must be an integer >= 2; got {lattice!r}")
    shape = a.shape[:-2]
    t = a.reshape(-1, 4)
    # Identical tables (frequent at small N) are solved once.
    uniq, inv = np.unique(t, axis=0, return_inverse=True)
    if len(uniq) == 0:
        return np.zeros(shape), np.zeros(shape)
    lo, hi = _interval_2x2(uniq, S, region, int(lattice))
    inv = inv.ravel()
    return lo[inv].reshape(shape), hi[inv].reshape(shape)


def imprecise_score_rule(counts, S=2.0):
    """The slides' closed-form rule for the lower value of ``ln R`` (approximate method).

    Each row's Dirichlet parameters sum to ``S/r``.  For the slides' 2x2 tables
    the rule is ``alpha_ij = S/8`` where ``N(i, j)`` is the row maximum (so the
    other cell gets ``3S/8``) and ``S/4`` for both cells of a tied row.  For other
    shapes it is generalised as: every cell gets the lowest value ``S/(2rc)`` and
    the remaining ``S/(2r)`` of the row goes to the row's smallest count (shared
    equally between tied smallest counts), the vertex that minimises the row's
    factor.
    ``Y`` under independence gets the column sums of these parameters.

    This minimises only the dependence factor: it equals the box minimum of
    :func:`imprecise_score_interval` in many tables and is never below it.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    S : float

    Returns
    -------
    log_lower : ndarray, shape (...)
    """
    S = _check_S(S)
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    row = S / r
    lo = row / (2 * c)
    # For c = 2 and r = 2 this is the slides' S/8 on the row maximum (3S/8 on the
    # other cell) and S/4 on both cells of a tied row.
    small = a == a.min(axis=-1, keepdims=True)
    share = small / small.sum(axis=-1, keepdims=True)
    alpha = lo + (row / 2) * share
    nx, my, n = _margins(a)
    ay = alpha.sum(axis=-2)
    dep = np.sum(_lg(alpha, a), axis=(-2, -1)) - np.sum(_lg(row, nx), axis=-1)
    ind = np.sum(_lg(ay, my), axis=-1) - _lg(S, n)
    return dep - ind


def imprecise_decision(log_lower, log_upper=None, *, prefer_independence=False, n=None):
    """Decision of the imprecise score from its interval ``[ln R_min, ln R_max]``.

    Three-way rule: dependence if ``R_min > 1``, independence if ``R_max < 1``,
    undecided otherwise.  With ``prefer_independence=True`` (the slides'
    alternative rule) independence is chosen unless ``R_min > 1``; ``log_upper`` is
    then not needed.  Comparisons use the tie tolerance of :func:`decide`.

    Parameters
    ----------
    log_lower : array-like, shape (...)
    log_upper : array-like, shape (...), optional
    prefer_independence : bool
    n : array-like, optional
        Table sizes for the tie tolerance.

    Returns
    -------
    decision : ndarray of int8, shape (...)
        :data:`DEPENDENCE`, :data:`INDEPENDENCE` or :data:`UNDECIDED`.
    """
    lo = np.asarray(log_lower, dtype=float)
    tol = _tie_tol(np.asarray(n, dtype=float)) if n is not None else _TIE_RTOL
    dep = lo > tol
    if prefer_independence:
        return np.where(dep, DEPENDENCE, INDEPENDENCE).astype(np.int8)
    if log_upper is None:
        raise ValueError("the three-way rule needs log_upper (or prefer_independence=True)")
    hi = np.asarray(log_upper, dtype=float)
    ind = hi < -tol
    return np.where(dep, DEPENDENCE, np.where(ind, INDEPENDENCE, UNDECIDED)).astype(np.int8)


# ------------------------------------------------------------- estimates and losses


def estimate_joint(counts, dependent, S=2.0):
    """Bayesian (BDe, sample size ``S``) estimate ``P^e`` of the joint of ``X, Y``.

    Dependence: ``P^e(x, y) = (N(x,y) + S/(rc)) / (N + S)`` (the slides'
    ``(N(i,j) + 0.5)/(N + 2)`` for 2x2 and ``S = 2``).  Independence:
    ``P^e(x, y) = P^e_X(x) P^e_Y(y)`` with ``P^e_X(x) = (N_X(x) + S/r)/(N + S)`` and
    ``P^e_Y(y) = (N_Y(y) + S/c)/(N + S)``.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    dependent : bool or array-like of bool, broadcastable to shape (...)
    S : float

    Returns
    -------
    P : ndarray, shape (..., r, c)
    """
    S = _check_S(S)
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = _margins(a)
    dep = (a + S / (r * c)) / (n[..., None, None] + S)
    px = (nx + S / r) / (n[..., None] + S)
    py = (my + S / c) / (n[..., None] + S)
    ind = px[..., :, None] * py[..., None, :]
    d = np.asarray(dependent, dtype=bool)[..., None, None]
    return np.where(d, dep, ind)


def estimate_conditional(counts, dependent, S=2.0):
    """Estimate ``P^e(y | x)`` used to classify ``Y`` from ``X``.

    Dependence: ``(N(x,y) + S/(rc)) / (N_X(x) + S/r)``; independence: ``P^e_Y(y)``
    for every ``x`` (see :func:`estimate_joint`).

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    dependent : bool or array-like of bool, broadcastable to shape (...)
    S : float

    Returns
    -------
    P : ndarray, shape (..., r, c); each row sums to 1
    """
    S = _check_S(S)
    a = _check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = _margins(a)
    dep = (a + S / (r * c)) / (nx[..., :, None] + S / r)
    py = (my + S / c) / (n[..., None] + S)
    ind = np.broadcast_to(py[..., None, :], a.shape)
    d = np.asarray(dependent, dtype=bool)[..., None, None]
    return np.where(d, dep, ind)


def _check_dist(P, name):
    P = np.asarray(P, dtype=float)
    if P.ndim < 2:
        raise ValueError(f"{name} must have shape (..., r, c); got {P.shape}")
    if not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ValueError(f"{name} must hold finite non-negative probabilities")
    return P


def joint_log_loss(P, P_est):
    """Opposite of the expected log-likelihood, ``-sum_xy P(x,y) ln P_est(x,y)``.

    Equals ``KL(P, P_est) + H(P)``.

    Parameters
    ----------
    P : array-like, shape (..., r, c)
        True joint distributions.
    P_est : array-like, shape (..., r, c)
        Estimates (e.g. from :func:`estimate_joint`).

    Returns
    -------
    loss : ndarray, shape (...)
    """
    P = _check_dist(P, "P")
    Q = _check_dist(P_est, "P_est")
    with np.errstate(divide="ignore"):
        return -np.sum(special.xlogy(P, Q), axis=(-2, -1))


def kl_divergence(P, P_est):
    """Kullback-Leibler divergence ``KL(P, P_est) = sum P ln(P/P_est)`` of joints.

    Parameters
    ----------
    P, P_est : array-like, shape (..., r, c)

    Returns
    -------
    kl : ndarray, shape (...)
    """
    P = _check_dist(P, "P")
    Q = _check_dist(P_est, "P_est")
    with np.errstate(divide="ignore"):
        return _kl_tables(P, Q)


def conditional_log_loss(P, P_cond):
    """Opposite of the expected conditional log-likelihood of ``Y`` given ``X``.

    ``-sum_xy P(x, y) ln P_cond(y | x)``: the slides' loss for classifying ``Y``.

    Parameters
    ----------
    P : array-like, shape (..., r, c)
        True joint distributions.
    P_cond : array-like, shape (..., r, c)
        Estimated conditionals (rows sum to 1), e.g. from :func:`estimate_conditional`.

    Returns
    -------
    loss : ndarray, shape (...)
    """
    P = _check_dist(P, "P")
    Q = _check_dist(P_cond, "P_cond")
    with np.errstate(divide="ignore"):
        return -np.sum(special.xlogy(P, Q), axis=(-2, -1))


# ------------------------------------------------------------------ score registry

_NUM = r"(\d+(?:\.\d+)?)"


def _parse_score(name):
    """Map a score name to (kind, parameter)."""
    if not isinstance(name, str):
        raise ValueError(f"score names must be strings; got {name!r}")
    fixed = {
        "K2": ("K2", None),
        "BIC": ("BIC", None),
        "AKA": ("AKA", None),
        "AIC": ("AKA", None),
        "IMP": ("IMP", 1.0),
    }
    if name in fixed:
        return fixed[name]
    patterns = [
        (rf"CHI{_NUM}", "CHI"),
        (rf"BD{_NUM}MOD", "BDMOD"),
        (rf"BD{_NUM}MOD_CLS", "BDMOD_CLS"),
        (rf"BD{_NUM}_ODDS{_NUM}", "BD_ODDS"),
        (rf"BD{_NUM}", "BD"),
        (rf"IMP{_NUM}", "IMP"),
        (rf"IMP_([A-Z]+){_NUM}?", "IMP_VARIANT"),
        (rf"IMP_T{_NUM}", "IMP_T"),
        (rf"NEW{_NUM}?", "NEW"),
        (rf"NEW{_NUM}?_BOX", "NEW_BOX"),
        (rf"NEW{_NUM}?_BOX_PI", "NEW_BOX_PI"),
        (rf"NEW{_NUM}?_FULL", "NEW_FULL"),
        (rf"NEW{_NUM}?_FULL_PI", "NEW_FULL_PI"),
    ]
    for pat, kind in patterns:
        m = re.fullmatch(pat, name)
        if m:
            val = m.group(1)
            if kind == "IMP_VARIANT":
                if val not in IMP_VARIANTS:
                    continue  # e.g. IMP_T0.01, matched below
                s = float(m.group(2)) if m.group(2) is not None else 1.0
                if s <= 0:
                    raise ValueError(f"score {name!r}: the IDM parameter must be > 0")
                return kind, (val, s)
            if kind.startswith("NEW"):
                return kind, float(val) if val is not None else 2.0
            v = float(val)
            if kind == "BD_ODDS":
                odds = float(m.group(2))
                if v <= 0 or odds <= 0:
                    raise ValueError(f"score {name!r}: S and the prior odds must be > 0")
                return kind, (v, odds)
            if kind == "CHI" and not 0 < v < 1:
                raise ValueError(f"score {name!r}: the CHI level must lie in (0, 1)")
            if v <= 0 and kind != "IMP_T":
                raise ValueError(f"score {name!r}: the parameter must be > 0")
            return kind, v
    raise ValueError(
        f"unknown score {name!r}; known: CHI<alpha> (e.g. CHI0.05), K2, BD<S> (e.g. BD2), "
        "BIC, AKA, IMP, IMP<s>, IMP_<VARIANT>[<s>] (variants: " + ", ".join(IMP_VARIANTS) + "), "
        "IMP_T<t>, BD<S>MOD, BD<S>MOD_CLS, BD<S>_ODDS<k>, NEW[<S>], NEW[<S>]_BOX, "
        "NEW[<S>]_BOX_PI, NEW[<S>]_FULL, NEW[<S>]_FULL_PI"
    )


DEFAULT_SCORES = ("CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP")


def score_decisions(counts, scores=DEFAULT_SCORES):
    """Decisions of several scores on many tables at once.

    Score names: ``CHI<alpha>`` (dependence iff CHI > 1 - alpha, e.g. ``CHI0.05``),
    ``K2``, ``BD<S>`` (BDe with sample size S, e.g. ``BD2``, ``BD0.02``),
    ``BD<S>_ODDS<k>`` (the same Bayes factor with prior odds ``k : 1`` in favour of
    independence, i.e. ``P(Dep) = 1/(1+k)``: dependence iff ``P(D|Dep)/P(D|Ind) > k``;
    the slides' "PRIOR" column, see :func:`prior_odds_decision`), ``BIC``,
    ``AKA`` (alias ``AIC``), ``IMP`` / ``IMP<s>`` (IDM upper entropy, s = 1 by
    default), ``IMP_<VARIANT>[<s>]`` (the readings of IMP of
    :func:`imp_variant_score`, e.g. ``IMP_UPEXP``, ``IMP_ROWS2``; ``IMP_GE`` decides an
    exact tie as dependence, ``IMP_HALF`` returns :data:`UNDECIDED` on an exact tie,
    to be counted as half an error by :func:`exact_errors`), ``IMP_T<t>`` (the stated
    IMP with the threshold ``t`` nats: dependence iff IMP > t), ``BD<S>MOD`` and ``BD<S>MOD_CLS`` (:func:`bdmod_score`, estimation and
    classification versions), and the imprecise score with sample size S (default
    2): ``NEW[<S>]`` = the slides' approximate method (rule lower value, independence
    unless the lower value exceeds 1), ``NEW[<S>]_BOX`` / ``NEW[<S>]_FULL`` = the
    three-way rule on the optimised interval of the box / full parameter set, and
    the same with ``_PI`` = preferring independence.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
        The imprecise interval scores need 2x2 tables.
    scores : sequence of str

    Returns
    -------
    dict of str -> ndarray of int8, shape (...)
        :data:`DEPENDENCE`, :data:`INDEPENDENCE` or (three-way only) :data:`UNDECIDED`.
    """
    a = _check_counts(counts)
    if isinstance(scores, str):
        scores = [scores]
    parsed = {name: _parse_score(name) for name in scores}
    n = a.sum(axis=(-2, -1))
    out = {}
    cache = {}
    for name, (kind, v) in parsed.items():
        if kind == "CHI":
            if "chi" not in cache:
                cache["chi"] = chi_score(a)
            out[name] = decide(cache["chi"], 1.0 - v, atol=0.0)
        elif kind == "K2":
            out[name] = decide(k2_score(a), n=n)
        elif kind == "BD":
            out[name] = decide(bde_score(a, v), n=n)
        elif kind == "BD_ODDS":
            out[name] = prior_odds_decision(bde_score(a, v[0]), v[1], n=n)
        elif kind == "BIC":
            out[name] = decide(bic_score(a), n=n)
        elif kind == "AKA":
            out[name] = decide(aic_score(a), n=n)
        elif kind == "IMP":
            out[name] = decide(imp_score(a, v), atol=_IMP_TIE)
        elif kind == "IMP_T":
            out[name] = decide(imp_score(a), v, atol=_IMP_TIE)
        elif kind == "IMP_VARIANT":
            variant, s = v
            sc = imp_variant_score(a, variant, s)
            if variant == "GE":
                out[name] = np.where(sc >= -_IMP_TIE, DEPENDENCE, INDEPENDENCE).astype(np.int8)
            elif variant == "HALF":
                tie = np.abs(sc) <= _IMP_TIE
                out[name] = np.where(tie, UNDECIDED, decide(sc, atol=_IMP_TIE)).astype(np.int8)
            else:
                out[name] = decide(sc, atol=_IMP_TIE)
        elif kind == "BDMOD":
            out[name] = decide(bdmod_score(a, v, "estimation"), n=n)
        elif kind == "BDMOD_CLS":
            out[name] = decide(bdmod_score(a, v, "classification"), n=n)
        elif kind == "NEW":
            out[name] = imprecise_decision(imprecise_score_rule(a, v), prefer_independence=True, n=n)
        else:
            region = "box" if "BOX" in kind else "full"
            key = ("interval", region, v)
            if key not in cache:
                cache[key] = imprecise_score_interval(a, v, region)
            lo, hi = cache[key]
            out[name] = imprecise_decision(lo, hi, prefer_independence=kind.endswith("_PI"), n=n)
    return out


# --------------------------------------------------------------------- simulation


@dataclass
class SimulationResult:
    """Output of :func:`simulate_independence`.

    Attributes
    ----------
    errors : DataFrame
        One row per (true_model, size, score): ``n_pairs``, ``n_dependence``,
        ``n_independence``, ``n_undecided`` (decisions made), ``errors`` (decisions
        other than the true model; undecided counts as an error) and ``errors_se``
        (its binomial Monte-Carlo standard error, ``sqrt(n p (1 - p))``).
    losses : DataFrame
        One row per (true_model, size, score): means over the pairs of ``kl_joint``
        (KL of the true joint to the estimate of the chosen model),
        ``joint_log_loss`` (``KL + H(P)``, the opposite of the expected
        log-likelihood) and ``conditional_log_loss`` (the same for ``Y | X``), each
        with its Monte-Carlo standard error in a ``<name>_se`` column (standard
        deviation over the pairs / sqrt(n_pairs)).  An undecided pair uses the
        independence estimate.
    tables : DataFrame or None
        With ``return_tables=True``: one row per (true_model, size, pair) with the
        counts ``n00, n01, ...``, the true probabilities ``p00, ...`` and one
        decision column per score.
    settings : dict
    """

    errors: pd.DataFrame
    losses: pd.DataFrame
    tables: pd.DataFrame | None
    settings: dict

    def wide(self, what="errors", true_model="dependence", value=None):
        """Pivot to the slides' layout: one row per size, one column per score.

        Parameters
        ----------
        what : {"errors", "losses"}
        true_model : {"dependence", "independence", "total"}
            ``"total"`` adds the two models (as the slides' total tables do); a
            standard-error column (``..._se``) is combined as the root of the sum
            of squares (the two models are simulated independently).
        value : str, optional
            Column to show; default ``"errors"`` or ``"kl_joint"``.
        """
        df = getattr(self, what)
        if value is None:
            value = "errors" if what == "errors" else "kl_joint"
        if true_model == "total":
            g = df.groupby(["size", "score"], sort=False)[value]
            if value.endswith("_se"):
                sub = g.apply(lambda v: float(np.sqrt(np.sum(np.square(v))))).reset_index()
            else:
                sub = g.sum().reset_index()
        else:
            sub = df[df["true_model"] == true_model]
        order = list(dict.fromkeys(df["score"]))
        return sub.pivot(index="size", columns="score", values=value)[order]


def _binomial_se(count, n):
    """Monte-Carlo standard error of a count of ``n`` Bernoulli trials."""
    p = count / n
    return float(np.sqrt(n * p * (1.0 - p)))


def _mean_se(values):
    """Standard error of a sample mean (0 for a single value)."""
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        return 0.0
    return float(np.std(v, ddof=1) / np.sqrt(v.size))


def _as_prior(p, name, k):
    arr = np.asarray(p, dtype=float)
    if arr.ndim == 0:
        arr = np.full(k, float(arr))
    if arr.shape != (k,) or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must be {k} positive Dirichlet parameters; got {p!r}")
    return arr


def simulate_independence(
    sizes=(3, 5, 10, 20, 50, 100, 1000, 10000),
    n_pairs=10000,
    *,
    prior_x=(1.0, 1.0),
    prior_y=(1.0, 1.0),
    prior_y_given_x=(0.5, 0.5),
    scores=DEFAULT_SCORES,
    estimate_S=2.0,
    random_state=None,
    return_tables=False,
):
    """The slides' simulation: how often each score recovers (in)dependence.

    For ``n_pairs`` independent and ``n_pairs`` dependent joint distributions of two
    variables ``X`` (``len(prior_x)`` values) and ``Y`` (``len(prior_y)`` values):

    * independence: ``P_X ~ Dir(prior_x)``, ``P_Y ~ Dir(prior_y)``, ``P = P_X P_Y``;
    * dependence: ``P_X ~ Dir(prior_x)``, each ``P(Y | X = x) ~ Dir(prior_y_given_x)``.

    The same distributions are used at every size; for each size a fresh sample of
    that many cases is drawn from each distribution (multinomial counts).  Each
    score decides on each table, and the decision's estimate (:func:`estimate_joint`
    with ``estimate_S``) is scored against the true distribution.  The defaults are
    the slides' first experiment (10 000 + 10 000 pairs; Dir(1,1) marginals,
    Dir(0.5,0.5) conditionals); their later experiments use ``prior_x = prior_y =
    prior_y_given_x = (2, 2)`` or ``(0.5, 0.5)`` and sizes up to 1000.

    Everything is vectorised over pairs; identical tables are scored once.

    Parameters
    ----------
    sizes : sequence of int
        Sample sizes (each >= 1).
    n_pairs : int
        Number of distributions per true model.
    prior_x, prior_y, prior_y_given_x : sequence of float
        Dirichlet parameters; ``prior_y`` and ``prior_y_given_x`` must have the same
        length (the number of values of ``Y``).
    scores : sequence of str
        Score names as in :func:`score_decisions`.
    estimate_S : float
        Sample size of the Bayesian estimates used in the losses (the slides use 2).
    random_state : int, numpy Generator or None
        Seed of the random draws.
    return_tables : bool
        Also return every simulated table (large for big runs).

    Returns
    -------
    SimulationResult
        ``errors`` and ``losses`` tidy DataFrames (see :class:`SimulationResult`).
    """
    if isinstance(sizes, numbers.Integral):
        sizes = [sizes]
    sizes = [int(s) for s in sizes]
    if not sizes or any(s < 1 for s in sizes):
        raise ValueError(f"sizes must be integers >= 1; got {sizes!r}")
    if not isinstance(n_pairs, numbers.Integral) or n_pairs < 1:
        raise ValueError(f"n_pairs must be an integer >= 1; got {n_pairs!r}")
    r = np.asarray(prior_x).size
    c = np.asarray(prior_y).size
    ax = _as_prior(prior_x, "prior_x", r)
    ay = _as_prior(prior_y, "prior_y", c)
    ayx = _as_prior(prior_y_given_x, "prior_y_given_x", c)
    if r < 2 or c < 2:
        raise ValueError("X and Y need at least two values each")
    estimate_S = _check_S(estimate_S, "estimate_S")
    if isinstance(scores, str):
        scores = [scores]
    scores = list(scores)
    for name in scores:
        _parse_score(name)
    rng = np.random.default_rng(random_state)

    px = rng.dirichlet(ax, size=(2, n_pairs))  # [independence, dependence]
    P_ind = px[0][:, :, None] * rng.dirichlet(ay, size=n_pairs)[:, None, :]
    P_dep = px[1][:, :, None] * rng.dirichlet(ayx, size=(n_pairs, r))
    truths = {"independence": P_ind, "dependence": P_dep}
    H_true = {k: -np.sum(special.xlogy(P, P), axis=(-2, -1)) for k, P in truths.items()}

    err_rows, loss_rows, table_parts = [], [], []
    for size in sizes:
        for model in ("dependence", "independence"):
            P = truths[model]
            flat = P.reshape(n_pairs, r * c)
            flat = flat / flat.sum(axis=1, keepdims=True)
            counts = rng.multinomial(size, flat).reshape(n_pairs, r, c)
            uniq, inv = np.unique(counts.reshape(n_pairs, -1), axis=0, return_inverse=True)
            inv = inv.ravel()
            uniq = uniq.reshape(-1, r, c)
            dec_u = score_decisions(uniq, scores)
            # Losses of both estimates, per pair.
            ce_dep = joint_log_loss(P, estimate_joint(uniq, True, estimate_S)[inv])
            ce_ind = joint_log_loss(P, estimate_joint(uniq, False, estimate_S)[inv])
            cl_dep = conditional_log_loss(P, estimate_conditional(uniq, True, estimate_S)[inv])
            cl_ind = conditional_log_loss(P, estimate_conditional(uniq, False, estimate_S)[inv])
            truth = DEPENDENCE if model == "dependence" else INDEPENDENCE
            decisions = {}
            for name in scores:
                d = dec_u[name][inv]
                decisions[name] = d
                chosen_dep = d == DEPENDENCE
                ce = np.where(chosen_dep, ce_dep, ce_ind)
                cl = np.where(chosen_dep, cl_dep, cl_ind)
                err_rows.append(
                    {
                        "true_model": model,
                        "size": size,
                        "score": name,
                        "n_pairs": n_pairs,
                        "n_dependence": int(np.sum(d == DEPENDENCE)),
                        "n_independence": int(np.sum(d == INDEPENDENCE)),
                        "n_undecided": int(np.sum(d == UNDECIDED)),
                        "errors": int(np.sum(d != truth)),
                        "errors_se": _binomial_se(int(np.sum(d != truth)), n_pairs),
                    }
                )
                loss_rows.append(
                    {
                        "true_model": model,
                        "size": size,
                        "score": name,
                        "kl_joint": float(np.mean(ce - H_true[model])),
                        "joint_log_loss": float(np.mean(ce)),
                        "conditional_log_loss": float(np.mean(cl)),
                        "kl_joint_se": _mean_se(ce - H_true[model]),
                        "joint_log_loss_se": _mean_se(ce),
                        "conditional_log_loss_se": _mean_se(cl),
                    }
                )
            if return_tables:
                part = {
                    "true_model": model,
                    "size": size,
                    "pair": np.arange(n_pairs),
                }
                for i in range(r):
                    for j in range(c):
                        part[f"n{i}{j}"] = counts[:, i, j]
                for i in range(r):
                    for j in range(c):
                        part[f"p{i}{j}"] = P[:, i, j]
                part.update(decisions)
                table_parts.append(pd.DataFrame(part))
    settings = {
        "sizes": sizes,
        "n_pairs": n_pairs,
        "prior_x": ax.tolist(),
        "prior_y": ay.tolist(),
        "prior_y_given_x": ayx.tolist(),
        "scores": scores,
        "estimate_S": estimate_S,
        "random_state": random_state if not isinstance(random_state, np.random.Generator) else "Generator",
    }
    tables = pd.concat(table_parts, ignore_index=True) if return_tables else None
    return SimulationResult(pd.DataFrame(err_rows), pd.DataFrame(loss_rows), tables, settings)


# ------------------------------------------------------------ exact expectations


def all_tables(size, r=2, c=2):
    """Every ``r x c`` table of non-negative integer counts that sums to ``size``.

    Parameters
    ----------
    size : int
        Total count ``N >= 0``.
    r, c : int
        Table shape.

    Returns
    -------
    tables : ndarray of int, shape (C(N + rc - 1, rc - 1), r, c)
        In lexicographic order of the flattened cells (the first cell varies slowest).
    """
    if not isinstance(size, numbers.Integral) or size < 0:
        raise ValueError(f"size must be an integer >= 0; got {size!r}")
    k = int(r) * int(c)
    if k < 1:
        raise ValueError("tables need at least one cell")
    # Stars and bars: the positions of k - 1 bars among N + k - 1 slots.
    bars = np.array(list(itertools.combinations(range(size + k - 1), k - 1)), dtype=np.int64)
    bars = bars.reshape(-1, k - 1)
    edges = np.concatenate(
        [np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), size + k - 1)], axis=1
    )
    return (np.diff(edges, axis=1) - 1).reshape(-1, r, c)


def _log_dm(counts, alpha):
    """ln of the Dirichlet-multinomial probability of an ordered sequence with these counts."""
    A = alpha.sum()
    n = counts.sum(axis=-1)
    return special.gammaln(A) - special.gammaln(A + n) + np.sum(_lg(alpha, counts), axis=-1)


def table_probabilities(tables, prior_x=(1.0, 1.0), prior_y=(1.0, 1.0), prior_y_given_x=(0.5, 0.5)):
    """Exact probability of each table under the two generating models of the simulation.

    Integrating the multinomial over the Dirichlet draws of
    :func:`simulate_independence` gives Dirichlet-multinomial probabilities:

    * dependence: ``P_X ~ Dir(prior_x)``, each ``P(Y | x) ~ Dir(prior_y_given_x)``;
    * independence: ``P_X ~ Dir(prior_x)``, ``P_Y ~ Dir(prior_y)``.

    Parameters
    ----------
    tables : array-like of int, shape (T, r, c)
        All tables of one size (e.g. :func:`all_tables`).
    prior_x, prior_y, prior_y_given_x : sequence of float

    Returns
    -------
    p_dependence, p_independence : ndarray, shape (T,)
        Each sums to 1 over all tables of a size.
    """
    t = _check_counts(tables)
    r, c = t.shape[-2:]
    ax = _as_prior(prior_x, "prior_x", r)
    ay = _as_prior(prior_y, "prior_y", c)
    ayx = _as_prior(prior_y_given_x, "prior_y_given_x", c)
    nx, my, n = _margins(t)
    lmult = special.gammaln(n + 1) - np.sum(special.gammaln(t + 1), axis=(-2, -1))
    lx = _log_dm(nx, ax)
    dep = lmult + lx + np.sum(_log_dm(t, ayx), axis=-1)
    ind = lmult + lx + _log_dm(my, ay)
    return np.exp(dep), np.exp(ind)


def exact_errors(
    sizes,
    scores=DEFAULT_SCORES,
    *,
    prior_x=(1.0, 1.0),
    prior_y=(1.0, 1.0),
    prior_y_given_x=(0.5, 0.5),
    n_pairs=10000,
    undecided_error=1.0,
):
    """Expected error counts of :func:`simulate_independence`, computed exactly.

    For 2x2 tables of a given size, every table is enumerated
    (:func:`all_tables`), decided once by each score and weighted by its exact
    probability under each generating model (:func:`table_probabilities`).  The
    result is what an infinitely long simulation would give, scaled to
    ``n_pairs`` distributions per model, with the binomial standard error a
    simulation of ``n_pairs`` pairs has.  Feasible up to a few hundred cases
    (176 851 tables at N = 100).

    Parameters
    ----------
    sizes : sequence of int
    scores : sequence of str
        As in :func:`score_decisions`.
    prior_x, prior_y, prior_y_given_x : sequence of float
        Dirichlet parameters of the simulation.
    n_pairs : int
        Distributions per model the counts refer to.
    undecided_error : float
        Share of an error charged for an :data:`UNDECIDED` decision: 1 (default) as in
        the simulation, 0.5 when a fair coin settles it (``IMP_HALF``).  Each pair is
        still right or wrong, so the count stays binomial.

    Returns
    -------
    DataFrame
        Columns ``true_model, size, score, errors, errors_se`` (same layout as
        :attr:`SimulationResult.errors`; ``errors`` is an expectation, not an integer).
    """
    if isinstance(sizes, numbers.Integral):
        sizes = [sizes]
    if isinstance(scores, str):
        scores = [scores]
    scores = list(scores)
    if not 0.0 <= float(undecided_error) <= 1.0:
        raise ValueError(f"undecided_error must lie in [0, 1]; got {undecided_error!r}")
    rows = []
    for size in sizes:
        T = all_tables(int(size))
        pdep, pind = table_probabilities(T, prior_x, prior_y, prior_y_given_x)
        dec = score_decisions(T, scores)
        for name in scores:
            und = dec[name] == UNDECIDED
            for model, p, wrong in (
                ("dependence", pdep, dec[name] != DEPENDENCE),
                ("independence", pind, dec[name] != INDEPENDENCE),
            ):
                w = np.where(und, float(undecided_error), wrong.astype(float))
                rate = float(np.clip(np.sum(p * w), 0.0, 1.0))
                rows.append({"true_model": model, "size": int(size), "score": name,
                             "errors": n_pairs * rate,
                             "errors_se": float(np.sqrt(n_pairs * rate * (1 - rate)))})
    return pd.DataFrame(rows)


def _exact_wide(df, true_model):
    """size x score table of expected errors and their SE (total = sum, SEs in quadrature)."""
    if true_model == "total":
        g = df.groupby(["size", "score"], sort=False)
        val = g["errors"].sum()
        se = g["errors_se"].apply(lambda v: float(np.sqrt(np.sum(np.square(v)))))
        sub = pd.DataFrame({"errors": val, "errors_se": se}).reset_index()
    else:
        sub = df[df["true_model"] == true_model]
    order = list(dict.fromkeys(df["score"]))
    wide = sub.pivot(index="size", columns="score", values="errors")[order]
    se = sub.pivot(index="size", columns="score", values="errors_se")[order]
    return wide, se


def exact_agreement(published, exact, true_model="total"):
    """Published counts against exact expectations: one z-score per cell.

    The expectation has no Monte-Carlo error; the published count does, with the
    binomial standard error of its simulation (``errors_se`` of
    :func:`exact_errors`, computed for the published number of pairs).

    Parameters
    ----------
    published : DataFrame
        Wide published table indexed by size, one column per score name of ``exact``.
    exact : DataFrame
        Output of :func:`exact_errors`.
    true_model : {"dependence", "independence", "total"}

    Returns
    -------
    DataFrame
        Columns ``size, score, expected, se, published, z`` for the cells present
        in both.
    """
    wide, se = _exact_wide(exact, true_model)
    rows = []
    for size in wide.index:
        if size not in published.index:
            continue
        for score in wide.columns:
            if score not in published.columns:
                continue
            e, s, p = float(wide.loc[size, score]), float(se.loc[size, score]), float(published.loc[size, score])
            rows.append({"size": int(size), "score": score, "expected": e, "se": s,
                         "published": p, "z": _z(p - e, s)})
    return pd.DataFrame(rows, columns=["size", "score", "expected", "se", "published", "z"])


def imp_threshold_fit(published_dependence, published_independence, sizes, *, s=1.0, column="IMP",
                      prior_x=(1.0, 1.0), prior_y=(1.0, 1.0), prior_y_given_x=(0.5, 0.5),
                      n_pairs=10000):
    """Can a decision threshold on the stated IMP reproduce a published IMP column?

    For each size the threshold ``t >= 0`` (nats; dependence iff ``IMP > t``) is
    chosen, among 0 and the distinct values IMP takes on the tables of that size, so
    that the exact expected errors under *dependence* come closest to the published
    count; the expected errors under *independence* at that threshold are then
    compared with the published count.  A threshold (or a penalty, or another base
    of logarithms with a threshold) can explain the column only if both agree.

    Parameters
    ----------
    published_dependence, published_independence : DataFrame
        Wide published tables indexed by size, with the column ``column``.
    sizes : sequence of int
    s : float
        IDM hyperparameter of :func:`imp_score`.
    column : str
    prior_x, prior_y, prior_y_given_x : sequence of float
        Dirichlet parameters of the simulation.
    n_pairs : int
        Pairs per model behind the published counts.

    Returns
    -------
    DataFrame
        Index ``size``; columns ``threshold`` (nats), ``dependence_expected``,
        ``dependence_published``, ``dependence_z``, ``independence_expected``,
        ``independence_published``, ``independence_z`` (z: published minus expected,
        in binomial standard errors).
    """
    rows = {}
    for size in sizes:
        T = all_tables(int(size))
        pdep, pind = table_probabilities(T, prior_x, prior_y, prior_y_given_x)
        v = imp_score(T, s)
        cand = np.unique(np.concatenate([[0.0], v[v > _IMP_TIE]]))
        # Dependence declared iff v > t + tol: errors under dependence grow with t.
        order = np.argsort(v)
        vs, cum = v[order], np.cumsum(pdep[order])
        k = np.searchsorted(vs, cand + _IMP_TIE, side="right")
        err_dep = n_pairs * np.where(k > 0, cum[np.maximum(k - 1, 0)], 0.0)
        target = float(published_dependence.loc[size, column])
        best = int(np.argmin(np.abs(err_dep - target)))
        t = float(cand[best])
        ed = float(err_dep[best])
        ei = float(n_pairs * pind[v > t + _IMP_TIE].sum())
        pub_i = float(published_independence.loc[size, column])
        rows[int(size)] = {
            "threshold": t,
            "dependence_expected": ed, "dependence_published": target,
            "dependence_z": _z(target - ed, _binomial_se(ed, n_pairs)),
            "independence_expected": ei, "independence_published": pub_i,
            "independence_z": _z(pub_i - ei, _binomial_se(ei, n_pairs)),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "size"
    return out


def imp_variant_check(published_dependence, published_independence, names, sizes, *, column="IMP",
                      n_pairs=10000):
    """Exact check of several readings of IMP against one published IMP column.

    Every name (``IMP<s>`` or ``IMP_<VARIANT>[<s>]``, see :func:`score_decisions`)
    gets its exact expected errors (:func:`exact_errors`; ``IMP_HALF``'s ties count as
    half an error, the expectation of a fair coin), compared with the published
    column under dependence and under independence (:func:`exact_agreement`).

    Parameters
    ----------
    published_dependence, published_independence : DataFrame
        Wide published tables indexed by size, with the column ``column``.
    names : sequence of str
    sizes : sequence of int
    column : str
    n_pairs : int
        Pairs per model behind the published counts.

    Returns
    -------
    DataFrame
        :func:`agreement_by_score` output (index ``score``) with a first column
        ``reading`` describing each variant.
    """
    names = list(names)
    parts = []
    for name in names:
        kind, v = _parse_score(name)
        if kind not in ("IMP", "IMP_VARIANT", "IMP_T"):
            raise ValueError(f"{name!r} is not a reading of IMP")
        half = kind == "IMP_VARIANT" and v[0] == "HALF"
        parts.append(exact_errors(sizes, [name], n_pairs=n_pairs, undecided_error=0.5 if half else 1.0))
    exact = pd.concat(parts, ignore_index=True)
    out = agreement_by_score([
        exact_agreement(published_column_as(published_dependence, column, names), exact, "dependence"),
        exact_agreement(published_column_as(published_independence, column, names), exact, "independence")])

    def reading(name):
        kind, v = _parse_score(name)
        if kind == "IMP":
            return f"as stated, s = {v:g}"
        if kind == "IMP_T":
            return f"as stated, threshold {v:g} nats"
        return IMP_VARIANTS[v[0]] + ("" if v[1] == 1.0 else f" (s = {v[1]:g})")

    out.insert(0, "reading", [reading(n) for n in out.index])
    return out


def published_column_as(published, column, names):
    """Repeat one published column under several of our score names.

    To compare variants of a score (e.g. ``IMP`` with other ``s``) with the one
    published column.

    Parameters
    ----------
    published : DataFrame
        Wide published table indexed by size.
    column : str
    names : sequence of str

    Returns
    -------
    DataFrame indexed by size with one column per name.
    """
    return pd.DataFrame({name: published[column] for name in names}, index=published.index)


def agreement_by_score(comparisons):
    """Per-score summary of one or more cell-by-cell comparisons.

    Parameters
    ----------
    comparisons : DataFrame or sequence of DataFrame
        Outputs of :func:`exact_agreement` or :func:`compare_with_published`
        (e.g. one under dependence and one under independence).

    Returns
    -------
    DataFrame
        Index ``score`` (in order of appearance); columns ``cells``, ``rms_z``,
        ``max_abs_z``, ``beyond_3_se`` and ``worst_size`` (the size of the largest ``|z|``).
    """
    if isinstance(comparisons, pd.DataFrame):
        comparisons = [comparisons]
    df = pd.concat(list(comparisons), ignore_index=True)
    rows = {}
    for score in dict.fromkeys(df["score"]):
        sub = df[df["score"] == score]
        summ = _agreement_summary(sub)
        summ["worst_size"] = int(sub["size"].iloc[int(np.argmax(np.abs(sub["z"].to_numpy(dtype=float))))])
        rows[score] = summ
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "score"
    return out


def _printed_resolution(x):
    """Last printed digit of a transcribed number, e.g. 1e-5 for 0.00016."""
    txt = np.format_float_positional(float(x), trim="-")
    decimals = len(txt.split(".")[1]) if "." in txt else 0
    return 10.0 ** (-decimals)


def _z(diff, se, tol=1e-9):
    if se > tol:
        return diff / se
    return 0.0 if abs(diff) <= 0.5 else float(np.sign(diff) * np.inf)


def _agreement_summary(df):
    z = np.abs(df["z"].to_numpy(dtype=float))
    return {"cells": int(len(z)), "rms_z": float(np.sqrt(np.mean(np.square(z)))),
            "max_abs_z": float(np.max(z)), "beyond_3_se": int(np.sum(z > 3))}


def scan_symmetric_priors(published, alphas, sizes, scores=DEFAULT_SCORES, *, true_model="total", n_pairs=10000):
    """Which symmetric Dirichlet prior ``Dir(a, a)`` best explains a published error table.

    For each ``a`` every Dirichlet of the simulation (``P_X``, ``P_Y`` and the
    conditionals) is ``Dir(a, a)``; the published counts are compared with the
    exact expectations (:func:`exact_agreement`).

    Parameters
    ----------
    published : DataFrame
        Wide published table (index size, columns score names).
    alphas : sequence of float
    sizes : sequence of int
        Sizes to use (small enough to enumerate, e.g. up to 100).
    scores : sequence of str
    true_model : {"dependence", "independence", "total"}
    n_pairs : int
        Pairs per model in the published simulation.

    Returns
    -------
    DataFrame
        Index ``a``; columns ``cells``, ``rms_z``, ``max_abs_z``, ``beyond_3_se``.
    """
    scores = [s for s in scores if s in published.columns]
    sizes = [s for s in sizes if s in published.index]
    rows = {}
    decided = {n: (all_tables(n), score_decisions(all_tables(n), scores)) for n in sizes}
    for a in alphas:
        rec = []
        for n, (T, dec) in decided.items():
            pdep, pind = table_probabilities(T, (a, a), (a, a), (a, a))
            for name in scores:
                for model, p, wrong in (("dependence", pdep, dec[name] != DEPENDENCE),
                                        ("independence", pind, dec[name] != INDEPENDENCE)):
                    rate = float(np.clip(p[wrong].sum(), 0.0, 1.0))
                    rec.append({"true_model": model, "size": n, "score": name,
                                "errors": n_pairs * rate,
                                "errors_se": float(np.sqrt(n_pairs * rate * (1 - rate)))})
        rows[float(a)] = _agreement_summary(exact_agreement(published, pd.DataFrame(rec), true_model))
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "a"
    return out


def scan_prior_odds(published, odds_values, sizes, *, S=2.0, column="PRIOR",
                    prior_x=(1.0, 1.0), prior_y=(1.0, 1.0), prior_y_given_x=(0.5, 0.5),
                    n_pairs=100000):
    """Which prior odds make BDe reproduce a published column (the slides' "PRIOR").

    For each odds value ``k`` the decisions of ``BD<S>_ODDS<k>``
    (:func:`prior_odds_decision`) are compared exactly with the published error
    counts under dependence and under independence.

    Parameters
    ----------
    published : DataFrame
        Long published table with columns ``true_model``, ``size`` and ``column``
        (e.g. ``moral_prior_new``).
    odds_values : sequence of float
    sizes : sequence of int
    S : float
    column : str
    prior_x, prior_y, prior_y_given_x : sequence of float
    n_pairs : int
        Pairs per model in the published simulation (100 000 on the slides).

    Returns
    -------
    DataFrame
        Index ``odds``; columns ``p_dependence`` (= 1/(1+k)), ``cells``, ``rms_z``,
        ``max_abs_z``, ``beyond_3_se``.
    """
    rows = {}
    for k in odds_values:
        name = f"BD{S:g}_ODDS{float(k):g}"
        ex = exact_errors(sizes, [name], prior_x=prior_x, prior_y=prior_y,
                          prior_y_given_x=prior_y_given_x, n_pairs=n_pairs)
        parts = []
        for model in ("dependence", "independence"):
            pub = (published[published["true_model"] == model]
                   .set_index("size")[[column]].rename(columns={column: name}))
            parts.append(exact_agreement(pub, ex, model))
        rows[float(k)] = {"p_dependence": 1.0 / (1.0 + float(k)),
                          **_agreement_summary(pd.concat(parts, ignore_index=True))}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "odds"
    return out


# ------------------------------------------------------- comparison with the slides


def compare_with_published(result, published, *, what="errors", true_model="dependence",
                           value=None, rename=None, n_pairs_published=10000, kind=None):
    """Our simulated table beside a published one, cell by cell, with z-scores.

    Parameters
    ----------
    result : SimulationResult
    published : DataFrame
        Wide published table indexed by ``size`` (columns = the slides' score names).
    what, true_model, value
        Which of our tables (see :meth:`SimulationResult.wide`).
    rename : dict, optional
        Our score name -> published column name (e.g. ``{"BD2": "S_2"}``).
    n_pairs_published : int
        Distributions per model behind the published table.  Our counts are
        rescaled to it.
    kind : {"count", "mean"}, optional
        ``"count"`` (default for ``what="errors"``): the published count is a
        binomial count with standard error ``sqrt(n p (1-p))``; ``"mean"``: a
        Monte-Carlo mean whose standard error is ours times
        ``sqrt(n_ours / n_published)``, plus the rounding of the printed value
        (uniform over its last printed digit, inferred from the transcription).

    Returns
    -------
    DataFrame
        Long form: ``size, score, ours, ours_se, published, difference, se_difference,
        z`` where ``z = difference / se_difference`` (``se_difference`` combines both
        Monte-Carlo errors).  Only cells present in both tables.
    """
    if value is None:
        value = "errors" if what == "errors" else "kl_joint"
    if kind is None:
        kind = "count" if what == "errors" else "mean"
    if kind not in ("count", "mean"):
        raise ValueError(f"kind must be 'count' or 'mean'; got {kind!r}")
    ours = result.wide(what, true_model, value)
    se = result.wide(what, true_model, value + "_se")
    if rename:
        ours = ours.rename(columns=rename)
        se = se.rename(columns=rename)
    n_ours = int(result.settings["n_pairs"])
    scale = n_pairs_published / n_ours if kind == "count" else 1.0
    pub_factor = np.sqrt(n_pairs_published / n_ours) if kind == "count" else np.sqrt(n_ours / n_pairs_published)
    rows = []
    for size in ours.index:
        if size not in published.index:
            continue
        for score in ours.columns:
            if score not in published.columns:
                continue
            o = float(ours.loc[size, score]) * scale
            s = float(se.loc[size, score]) * scale
            p = float(published.loc[size, score])
            # The published value's own Monte-Carlo error, estimated from ours, and
            # for printed means the rounding to the printed decimals (uniform error).
            sp = float(se.loc[size, score]) * pub_factor
            if kind == "mean":
                sp = float(np.hypot(sp, _printed_resolution(p) / np.sqrt(12.0)))
            sd = float(np.sqrt(s * s + sp * sp))
            rows.append({"size": int(size), "score": score, "ours": o, "ours_se": s,
                         "published": p, "difference": o - p, "se_difference": sd,
                         "z": _z(o - p, sd, tol=1e-12 if kind == "mean" else 1e-9)})
    return pd.DataFrame(rows, columns=["size", "score", "ours", "ours_se", "published",
                                       "difference", "se_difference", "z"])


def published_table(name, true_model=None, rename=None):
    """One of the slides' published tables, wide and indexed by sample size.

    Parameters
    ----------
    name : str
        File stem in ``data/published`` (e.g. ``"moral_errors_dependence"``).
    true_model : str, optional
        For the long ``moral_prior_new`` table: the rows of this model.
    rename : dict or callable, optional
        Published column -> our score name (as :meth:`pandas.DataFrame.rename`).

    Returns
    -------
    DataFrame indexed by ``size``.
    """
    from credal import datasets

    df = datasets.published(name)
    if true_model is not None:
        df = df[df["true_model"] == true_model].drop(columns="true_model")
    df = df.set_index("size")
    return df.rename(columns=rename) if rename else df


def display_comparison(comparison, decimals=0, z_flag=3.0):
    """A readable size x score table: "ours ± SE (published)", starred beyond ``z_flag`` SE.

    Parameters
    ----------
    comparison : DataFrame
        Output of :func:`compare_with_published` or :func:`exact_agreement`
        (``expected`` is then shown as ours).
    decimals : int
    z_flag : float

    Returns
    -------
    DataFrame of str, index "sample size", one column per score.
    """
    ours_col = "ours" if "ours" in comparison.columns else "expected"
    se = comparison["ours_se"] if "ours_se" in comparison.columns else None
    ours = [f"{o:.{decimals}f}" for o in comparison[ours_col]]
    if se is not None:
        ours = [f"{o} ± {s:.{decimals}f}" for o, s in zip(ours, se)]
    cells = comparison.assign(
        cell=[
            f"{o} ({p:.{decimals}f})" + (" *" if abs(z) > z_flag else "")
            for o, p, z in zip(ours, comparison["published"], comparison["z"])
        ]
    )
    order = list(dict.fromkeys(comparison["score"]))
    out = cells.pivot(index="size", columns="score", values="cell")[order]
    out.index.name = "sample size"
    out.columns.name = None
    return out


def comparison_summary(comparison, z_flag=3.0):
    """Counts for the text: cells, cells beyond ``z_flag`` SE, largest ``|z|``, where.

    Parameters
    ----------
    comparison : DataFrame
        Output of :func:`compare_with_published` or :func:`exact_agreement`.
    z_flag : float

    Returns
    -------
    dict
        ``cells``, ``beyond`` (number of cells with ``|z| > z_flag``), ``max_abs_z``,
        ``worst`` (``"score at N = size"`` of the largest ``|z|``) and ``flagged``
        (comma-separated ``score@size`` of the flagged cells).
    """
    z = np.abs(comparison["z"].to_numpy(dtype=float))
    if len(z) == 0:
        return {"cells": 0, "beyond": 0, "max_abs_z": 0.0, "worst": "", "flagged": ""}
    k = int(np.argmax(z))
    bad = comparison[z > z_flag]
    return {
        "cells": int(len(z)),
        "beyond": int(len(bad)),
        "max_abs_z": float(z[k]),
        "worst": f"{comparison['score'].iloc[k]} at N = {comparison['size'].iloc[k]}",
        "flagged": ", ".join(f"{s}@{n}" for s, n in zip(bad["score"], bad["size"])),
    }


# ------------------------------------------------- headline numbers for the report

_HEADLINE_SCORES = ("CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP")
_SLIDES_ISOLATED = 3  # "a complete structure, with only 3 isolated variables" (slides)


def _headline_cell(comp, size, score, published_name, true_model=None, rename=None):
    """``(ours, published, se_difference)`` of one cell of a comparison table.

    A cell missing from ``comp`` (size not simulated in this run) gives NaN for ours
    and its standard error, and the published value read from the slides' table.
    """
    if comp is not None and len(comp):
        m = comp[(comp["size"] == size) & (comp["score"] == score)]
        if len(m):
            r = m.iloc[0]
            return float(r["ours"]), float(r["published"]), float(r["se_difference"])
    try:
        pub = float(published_table(published_name, true_model, rename).loc[size, score])
    except KeyError:
        pub = np.nan
    return np.nan, pub, np.nan


def headline(*, errors_total, errors_dependence, kl_total, effect_of_S_independence,
             effect_of_S_dependence, new_independence, new_dependence, bd2mod_estimation,
             bd2mod_classification, errors_dir0505=None, errors_dir0505_best_a=None,
             best_a=None, network_summary=None, network_repeats=None, size=100, small_size=10,
             large_size=1000):
    """The slides' headline numbers beside ours, for the reproduction report.

    Rows (each from the chapter's comparison tables, so ours and the slides' value
    are the cell the chapter shows):

    * total errors (dependence + independence, of 20 000 pairs) of each of the
      eight scores at ``N = size`` (the main table), and of BD2 (the slides' best)
      and AKA (bad for large samples) at ``N = large_size``;
    * IMP's errors under dependence at ``N = small_size``, where the chapter finds
      that the slides' IMP departs from its stated definition;
    * BD2's total KL divergence at ``N = size`` (the slides' "BD2 is the best");
    * BD2's total errors at ``N = size`` in the Dir(0.5, 0.5) experiment, run as
      stated (the note gives the Dirichlet(0.25)-reading that reproduces it);
    * the effect of S: the fewest total errors of BDe over the seven values of S at
      ``N = size`` (of 200 000 pairs; the note says which S attains it);
    * the new imprecise score (NEW) and the slides' PRIOR column (our
      ``BD2_ODDS<k>``): total errors at ``N = size`` (of 200 000 pairs);
    * BD2MOD's expected joint log-loss and BD2MOD's conditional log-loss (its
      classification version) at ``N = small_size``;
    * the mean number of isolated variables in the network learned by BDeu from 4
      cases of 12 independent variables (the slides: 3, on one sample).

    Tolerances: three standard errors of the difference as the chapter computes them
    (:func:`compare_with_published`: our Monte-Carlo SE combined with the published
    value's own, estimated from ours, plus the rounding of the printed digits for
    means); sums over the two true models combine the two in quadrature (the models
    are simulated independently).  For the network, whose published value is one
    sample, three times the spread of one sample (sample SD, combined with the SE of
    our mean).

    Parameters
    ----------
    errors_total, errors_dependence, kl_total : DataFrame
        :func:`compare_with_published` output for the main experiment (total errors,
        errors under dependence, total KL divergence).
    effect_of_S_independence, effect_of_S_dependence : DataFrame
        The effect-of-S comparisons (scores ``BD<S>``, rescaled to 100 000 pairs).
    new_independence, new_dependence : DataFrame
        The comparisons of the "S = 2 / PRIOR / NEW" table (scores ``BD2``,
        ``BD2_ODDS<k>``, ``NEW``).
    bd2mod_estimation, bd2mod_classification : DataFrame
        The BD2MOD comparisons (scores ``BD2MOD`` and ``BD2MOD_CLS``).
    errors_dir0505, errors_dir0505_best_a : DataFrame, optional
        Total errors of the Dir(0.5, 0.5) experiment as stated, and under the
        reading the chapter identifies (Dirichlet parameters ``best_a``, 0.25 at the
        slides' scale).  Row left out when ``errors_dir0505`` is None.
    best_a : float, optional
        The Dirichlet parameter of ``errors_dir0505_best_a`` (for the note).
    network_summary : DataFrame, optional
        :func:`summarise_learned_networks` output; row left out when None.
    network_repeats : int, optional
        Number of samples behind ``network_summary`` (for the spread of one sample);
        required with ``network_summary``.
    size, small_size, large_size : int
        The sample sizes of the rows described above (must be sizes of the slides'
        tables; a size our run did not simulate gives NaN, "not comparable").

    Returns
    -------
    DataFrame
        :func:`credal.report.headline_table` layout, one row per headline number.
    """
    from credal.report import headline_table

    if network_summary is not None and (network_repeats is None or int(network_repeats) < 1):
        raise ValueError("network_repeats (>= 1) is required with network_summary")
    tol_txt = "tolerance: 3 SE of the difference (our Monte-Carlo SE and the slides', estimated from ours"
    tol_count = tol_txt + ")"
    tol_mean = tol_txt + ", plus the rounding of the printed value)"
    rows = []

    def add(quantity, published, ours, se, unit, note, why=""):
        tol = 3.0 * se if np.isfinite(se) else np.nan
        if not np.isfinite(ours):
            note += "; not simulated in this run"
        elif np.isfinite(published) and np.isfinite(tol) and abs(ours - published) > tol and why:
            note += "; " + why
        rows.append({"quantity": quantity, "published": published, "ours": ours,
                     "tolerance": tol, "unit": unit, "note": note})

    # -- the main table: total errors per score ---------------------------------------
    for score in _HEADLINE_SCORES:
        o, p, s = _headline_cell(errors_total, size, score, "moral_errors_total")
        add(f"{score}: total errors at N = {size}", p, o, s, "errors of 20 000 pairs", tol_count,
            "see the chapter's tables of errors")
    for score in ("BD2", "AKA"):
        o, p, s = _headline_cell(errors_total, large_size, score, "moral_errors_total")
        add(f"{score}: total errors at N = {large_size}", p, o, s, "errors of 20 000 pairs", tol_count,
            "see the chapter's tables of errors")

    o, p, s = _headline_cell(errors_dependence, small_size, "IMP", "moral_errors_dependence")
    add(f"IMP: errors under dependence at N = {small_size}", p, o, s, "errors of 10 000 pairs", tol_count,
        "not noise: the slides' count departs as much from the exact expected count (no Monte-Carlo "
        "error); the slides' IMP seems computed differently from its stated definition on small samples (the gap fades by "
        "N = 100); none of the readings the chapter tests (its exact check of IMP variants) fits every size")

    o, p, s = _headline_cell(kl_total, size, "BD2", "moral_kl_total")
    add(f"BD2: total KL divergence at N = {size}", p, o, s, "nats", tol_mean)

    # -- Dir(0.5, 0.5) everywhere --------------------------------------------------------
    if errors_dir0505 is not None:
        o, p, s = _headline_cell(errors_dir0505, size, "BD2", "moral_errors_dir0505")
        why = "the slides' table is not reproduced under the prior they state"
        if errors_dir0505_best_a is not None:
            oa, pa, sa = _headline_cell(errors_dir0505_best_a, size, "BD2", "moral_errors_dir0505")
            if np.isfinite(oa):
                ok = "within" if abs(oa - pa) <= 3 * sa else "not within"
                a = f"Dir({best_a:g}, {best_a:g})" if best_a is not None else "the best-fitting Dir(a, a)"
                why += (f"; with {a} everywhere, the prior the chapter's exact scan picks, ours is "
                        f"{oa:.0f} ({ok} 3 SE)")
        add(f"BD2: total errors at N = {size}, Dir(0.5, 0.5) everywhere (as stated)", p, o, s,
            "errors of 20 000 pairs", tol_count, why)

    # -- the effect of S: the best S at `size` ---------------------------------------------
    ren = lambda c: "BD" + c[2:]  # noqa: E731  (S_2 -> BD2, as in the chapter)
    s_scores = list(dict.fromkeys(
        [c for c in published_table("moral_effect_of_S_independence", rename=ren).columns]))
    tot = {}
    for sc in s_scores:
        oi, pi, si = _headline_cell(effect_of_S_independence, size, sc, "moral_effect_of_S_independence",
                                    rename=ren)
        od, pd_, sd = _headline_cell(effect_of_S_dependence, size, sc, "moral_effect_of_S_dependence",
                                     rename=ren)
        tot[sc] = (oi + od, pi + pd_, float(np.hypot(si, sd)))
    pub_best = min(tot, key=lambda k: tot[k][1])
    finite = [k for k in tot if np.isfinite(tot[k][0])]
    if finite:
        our_best = min(finite, key=lambda k: tot[k][0])
        o, s = tot[our_best][0], max(tot[our_best][2], tot[pub_best][2])
        where = f"minimum at S = {our_best[2:]} (slides: S = {pub_best[2:]})"
    else:
        o, s, where = np.nan, np.nan, f"slides' minimum at S = {pub_best[2:]}"
    add(f"BDe: fewest total errors over S at N = {size}", tot[pub_best][1], o, s,
        "errors of 200 000 pairs", f"{where}; {tol_count}, the larger of the two minima's",
        "see the chapter's effect-of-S tables")

    # -- the new imprecise score and PRIOR -----------------------------------------------
    names_new = {"BDe_S2": "BD2"}
    prior_scores = [c for c in pd.concat([new_independence, new_dependence])["score"].unique()
                    if str(c).startswith("BD2_ODDS")]
    prior_name = prior_scores[0] if prior_scores else "BD2_ODDS5"
    names_new["PRIOR"] = prior_name
    for sc, label in (("NEW", "NEW (imprecise BDe score)"),
                      (prior_name, f"PRIOR (ours: BDe with prior odds {prior_name[8:]} : 1)")):
        oi, pi, si = _headline_cell(new_independence, size, sc, "moral_prior_new", "independence", names_new)
        od, pd_, sd = _headline_cell(new_dependence, size, sc, "moral_prior_new", "dependence", names_new)
        add(f"{label}: total errors at N = {size}", pi + pd_, oi + od, float(np.hypot(si, sd)),
            "errors of 200 000 pairs", tol_count + "; the two models combined in quadrature",
            "see the chapter's table of the new score")

    # -- BD2MOD ----------------------------------------------------------------------------
    o, p, s = _headline_cell(bd2mod_estimation, small_size, "BD2MOD", "moral_bd2mod_estimation")
    add(f"BD2MOD: expected joint log-loss at N = {small_size}", p, o, s, "nats", tol_mean)
    o, p, s = _headline_cell(bd2mod_classification, small_size, "BD2MOD_CLS", "moral_bd2mod_classification",
                             rename={"BD2MOD": "BD2MOD_CLS"})
    add(f"BD2MOD (classification): expected conditional log-loss at N = {small_size}", p, o, s, "nats",
        tol_mean)

    # -- the network learned from four cases --------------------------------------------------
    if network_summary is not None:
        r = network_summary.loc["isolated variables"]
        n = int(network_repeats)
        spread = float(r["se"]) * np.sqrt(n)
        rows.append({
            "quantity": "isolated variables in a BDeu network learned from 4 cases of 12 independent "
                        "variables",
            "published": float(_SLIDES_ISOLATED), "ours": float(r["mean"]),
            "tolerance": 3.0 * float(np.hypot(spread, r["se"])),
            "unit": "variables (of 12)",
            "note": f"slides: one sample; ours: mean over {n} samples (range {r['min']:g} to {r['max']:g}); "
                    f"tolerance: 3 x the spread of one sample (SD {spread:.2f}) combined with the SE of "
                    f"our mean"})
    return headline_table(rows, paper="Moral (slides)", chapter="independence-scores")


# ------------------------------------------------ structure learning with BDeu


def _check_data(data, arities):
    d = np.asarray(data)
    if d.ndim != 2:
        raise ValueError(f"data must be a 2-D array (cases x variables); got shape {d.shape}")
    if d.shape[1] == 0:
        raise ValueError("data has no variables")
    if d.dtype.kind not in "biu" and not (d.dtype.kind == "f" and np.all(d == np.round(d))):
        raise ValueError("data must hold integer category codes 0, 1, ...")
    d = d.astype(np.int64)
    if d.size and d.min() < 0:
        raise ValueError("data must hold category codes >= 0 (no missing values)")
    if arities is None:
        ar = np.maximum(d.max(axis=0) + 1 if len(d) else np.ones(d.shape[1], int), 2)
    else:
        ar = np.asarray(arities, dtype=np.int64)
        if ar.shape != (d.shape[1],):
            raise ValueError(f"arities must have one entry per variable ({d.shape[1]}); got {ar.shape}")
        if np.any(ar < 1) or (len(d) and np.any(d.max(axis=0) >= ar)):
            raise ValueError("arities must be >= 1 and exceed every observed code")
    return d, ar


def bdeu_local_score(data, node, parents=(), *, arities=None, S=1.0):
    """ln P(column ``node`` | its parents) under the BDeu prior (family score).

    With ``q`` parent configurations and ``r`` values of the node, the Dirichlet
    parameters are ``S/q`` per configuration and ``S/(q r)`` per cell (Heckerman,
    Geiger & Chickering's likelihood-equivalent uniform prior; pgmpy's
    ``BDeuScore`` with ``equivalent_sample_size = S``).  Configurations never
    observed contribute 0.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
        Category codes ``0 .. r_j - 1`` (no missing values).
    node : int
    parents : sequence of int
    arities : sequence of int, optional
        Number of values of each variable (default: largest code + 1, at least 2).
    S : float
        Equivalent sample size, ``> 0``.

    Returns
    -------
    float
    """
    S = _check_S(S)
    d, ar = _check_data(data, arities)
    return _local_score(d, ar, int(node), tuple(sorted(int(p) for p in parents)), S)


def _local_score(d, ar, node, parents, S):
    r = int(ar[node])
    q = int(np.prod(ar[list(parents)])) if parents else 1
    if len(d) == 0:
        return 0.0
    if len(d) <= 64:
        # Few cases (the slides' example has 4): plain Python beats numpy's overhead.
        rows, cells = {}, {}
        for case in d.tolist():
            c = tuple(case[p] for p in parents)
            rows[c] = rows.get(c, 0) + 1
            cells[c, case[node]] = cells.get((c, case[node]), 0) + 1
        a_row, a_cell = S / q, S / (q * r)
        lg_cell = math.lgamma(a_cell)
        lg_row = math.lgamma(a_row)
        return float(sum(math.lgamma(a_cell + n) - lg_cell for n in cells.values())
                     - sum(math.lgamma(a_row + n) - lg_row for n in rows.values()))
    cfg = np.zeros(len(d), dtype=np.int64)
    for p in parents:
        cfg = cfg * int(ar[p]) + d[:, p]
    key = cfg * r + d[:, node]
    _, cell = np.unique(key, return_counts=True)
    _, row = np.unique(cfg, return_counts=True)
    a_row = S / q
    a_cell = S / (q * r)
    return float(np.sum(_lg(a_cell, cell)) - np.sum(_lg(a_row, row)))


def bdeu_network_score(data, parents, *, arities=None, S=1.0):
    """BDeu score (log marginal likelihood) of a whole DAG: the sum of its family scores.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    parents : sequence of sequences of int
        ``parents[j]`` are the parents of variable ``j``.
    arities : sequence of int, optional
    S : float

    Returns
    -------
    float
    """
    S = _check_S(S)
    d, ar = _check_data(data, arities)
    if len(parents) != d.shape[1]:
        raise ValueError(f"parents must list one parent set per variable ({d.shape[1]})")
    if not is_acyclic(parents):
        raise ValueError("the parent sets contain a directed cycle")
    return float(sum(_local_score(d, ar, j, tuple(sorted(p)), S) for j, p in enumerate(parents)))


def is_acyclic(parents):
    """Whether the directed graph given by parent sets has no directed cycle.

    Parameters
    ----------
    parents : sequence of sequences of int

    Returns
    -------
    bool
    """
    n = len(parents)
    indeg = np.array([len(set(p)) for p in parents])
    children = [[] for _ in range(n)]
    for v, ps in enumerate(parents):
        for u in set(ps):
            if not 0 <= u < n or u == v:
                return False
            children[u].append(v)
    stack = [v for v in range(n) if indeg[v] == 0]
    seen = 0
    while stack:
        u = stack.pop()
        seen += 1
        for v in children[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                stack.append(v)
    return seen == n


def all_dags(n_nodes):
    """Every DAG on ``n_nodes`` labelled nodes, as tuples of parent tuples.

    Brute force over all parent-set combinations (1, 3, 25, 543, 29 281 DAGs for 1
    to 5 nodes); meant for exhaustive checks on tiny problems.

    Parameters
    ----------
    n_nodes : int
        1 to 5.

    Returns
    -------
    list of tuple of tuple of int
    """
    if not isinstance(n_nodes, numbers.Integral) or not 1 <= n_nodes <= 5:
        raise ValueError(f"n_nodes must be an integer from 1 to 5; got {n_nodes!r}")
    choices = []
    for v in range(n_nodes):
        others = [u for u in range(n_nodes) if u != v]
        choices.append([c for k in range(len(others) + 1) for c in itertools.combinations(others, k)])
    return [ps for ps in itertools.product(*choices) if is_acyclic(ps)]


@dataclass
class StructureResult:
    """A learned Bayesian-network structure.

    Attributes
    ----------
    parents : list of tuple of int
        Parent set of each variable.
    score : float
        BDeu score of the structure.
    n_moves : int
        Moves applied by the search (0 for exhaustive search).
    history : list of tuple
        ``(move, u, v, gain)`` per applied move (``"add"``, ``"remove"``, ``"reverse"``
        of the arc ``u -> v``).
    """

    parents: list
    score: float
    n_moves: int = 0
    history: list = None

    @property
    def edges(self):
        """Arcs ``(u, v)`` meaning ``u -> v``, sorted."""
        return sorted((u, v) for v, ps in enumerate(self.parents) for u in ps)

    @property
    def n_isolated(self):
        """Variables with no arc in or out."""
        touched = {x for e in self.edges for x in e}
        return len(self.parents) - len(touched)


def _closure(adj):
    """Transitive closure (paths of length >= 1) of a boolean adjacency matrix."""
    reach = adj.copy()
    for k in range(len(adj)):
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    return reach


def _reaches(adj, src, dst):
    """Whether a directed path src -> ... -> dst exists in the boolean adjacency matrix."""
    seen = np.zeros(len(adj), dtype=bool)
    stack = [src]
    seen[src] = True
    while stack:
        u = stack.pop()
        if u == dst:
            return True
        nxt = np.flatnonzero(adj[u] & ~seen)
        seen[nxt] = True
        stack.extend(nxt.tolist())
    return False


def hill_climb_bdeu(data, *, arities=None, S=1.0, max_parents=None, random_state=None,
                    max_moves=10000, tol=1e-9):
    """Greedy hill-climbing search of a DAG maximising the BDeu score.

    Starts from the empty graph.  At each step every legal single-arc change is
    scored: adding an arc ``u -> v`` (if neither ``u -> v`` nor ``v -> u`` is present
    and no directed path ``v -> ... -> u`` exists), removing an arc, and reversing
    an arc (if no other path ``u -> ... -> v`` exists), subject to ``max_parents``.
    The change with the largest score gain is applied; changes whose gains are
    within ``tol`` of the best are equally good (BDeu gives Markov-equivalent
    graphs the same score, so such ties are common) and one of them is drawn with
    the seeded generator.  The search stops when no change improves the score by
    more than ``tol`` (no tabu list, no restarts): the moves of pgmpy's
    ``HillClimbSearch`` with ``BDeuScore``, without its tabu list.  Family scores are
    cached.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    arities : sequence of int, optional
    S : float
        Equivalent sample size of BDeu.
    max_parents : int, optional
        Largest parent set allowed.
    random_state : int, numpy Generator or None
        Seed of the tie-breaking.
    max_moves : int
        Safety bound on the number of moves.
    tol : float

    Returns
    -------
    StructureResult
    """
    S = _check_S(S)
    d, ar = _check_data(data, arities)
    if max_parents is not None and (not isinstance(max_parents, numbers.Integral) or max_parents < 0):
        raise ValueError(f"max_parents must be an integer >= 0; got {max_parents!r}")
    cap = d.shape[1] if max_parents is None else int(max_parents)
    rng = np.random.default_rng(random_state)
    p = d.shape[1]
    cache = {}

    def fam(v, ps):
        key = (v, ps)
        if key not in cache:
            cache[key] = _local_score(d, ar, v, ps, S)
        return cache[key]

    parents = [() for _ in range(p)]
    adj = np.zeros((p, p), dtype=bool)
    local = [fam(v, ()) for v in range(p)]
    history = []
    for _ in range(max_moves):
        reach = _closure(adj)  # reach[a, b]: a directed path a -> ... -> b exists
        moves = []
        for u in range(p):
            for v in range(p):
                if u == v:
                    continue
                if adj[u, v]:
                    without = tuple(x for x in parents[v] if x != u)
                    gain_v = fam(v, without) - local[v]
                    moves.append((gain_v, "remove", u, v))
                    # Reversal is legal unless another path u -> w -> ... -> v exists.
                    other = adj[u].copy()
                    other[v] = False
                    if len(parents[u]) < cap and not np.any(other & reach[:, v]):
                        with_u = tuple(sorted(parents[u] + (v,)))
                        moves.append((gain_v + fam(u, with_u) - local[u], "reverse", u, v))
                elif not adj[v, u] and len(parents[v]) < cap and not reach[v, u]:
                    moves.append((fam(v, tuple(sorted(parents[v] + (u,)))) - local[v], "add", u, v))
        if not moves:
            break
        gains = np.array([m[0] for m in moves])
        best = gains.max()
        if best <= tol:
            break
        tied = np.flatnonzero(gains >= best - tol)
        gain, kind, u, v = moves[int(tied[rng.integers(len(tied))])] if len(tied) > 1 else moves[int(tied[0])]
        if kind in ("remove", "reverse"):
            adj[u, v] = False
            parents[v] = tuple(x for x in parents[v] if x != u)
        if kind == "reverse":
            adj[v, u] = True
            parents[u] = tuple(sorted(parents[u] + (v,)))
        if kind == "add":
            adj[u, v] = True
            parents[v] = tuple(sorted(parents[v] + (u,)))
        for x in {u, v}:
            local[x] = fam(x, parents[x])
        history.append((kind, int(u), int(v), float(gain)))
    return StructureResult(parents=[tuple(int(x) for x in ps) for ps in parents],
                           score=float(sum(local)), n_moves=len(history), history=history)


def exhaustive_bdeu(data, *, arities=None, S=1.0):
    """The BDeu-optimal DAG by scoring every DAG (at most 5 variables).

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    arities : sequence of int, optional
    S : float

    Returns
    -------
    best : StructureResult
        One optimal DAG (the first in :func:`all_dags` order).
    scores : ndarray
        The score of every DAG, in :func:`all_dags` order.
    """
    S = _check_S(S)
    d, ar = _check_data(data, arities)
    dags = all_dags(d.shape[1])
    cache = {}

    def fam(v, ps):
        if (v, ps) not in cache:
            cache[(v, ps)] = _local_score(d, ar, v, ps, S)
        return cache[(v, ps)]

    scores = np.array([sum(fam(v, ps) for v, ps in enumerate(g)) for g in dags])
    k = int(np.argmax(scores))
    return StructureResult(parents=[tuple(ps) for ps in dags[k]], score=float(scores[k])), scores


def independent_sample(n_vars, n_cases, *, prior=(1.0, 1.0), random_state=None):
    """Cases of mutually independent binary variables with random marginals.

    Each variable's probability vector is drawn from ``Dir(prior)`` (as the
    marginals of the slides' simulation), then ``n_cases`` independent cases are
    drawn.

    Parameters
    ----------
    n_vars, n_cases : int
    prior : sequence of float
        Dirichlet parameters of each marginal (its length is the number of values).
    random_state : int, numpy Generator or None

    Returns
    -------
    data : ndarray of int, shape (n_cases, n_vars)
    """
    for name, v in (("n_vars", n_vars), ("n_cases", n_cases)):
        if not isinstance(v, numbers.Integral) or v < 1:
            raise ValueError(f"{name} must be an integer >= 1; got {v!r}")
    a = np.asarray(prior, dtype=float)
    a = _as_prior(a, "prior", a.size)
    rng = np.random.default_rng(random_state)
    probs = rng.dirichlet(a, size=n_vars)
    u = rng.random((n_cases, n_vars))
    return (u[:, :, None] > np.cumsum(probs, axis=1)[None, :, :-1]).sum(axis=2)


def learn_from_independent_data(n_vars=12, n_cases=4, *, S=1.0, n_repeats=100, prior=(1.0, 1.0),
                                max_parents=None, random_state=None):
    """The slides' warning: BDeu hill climbing on a few cases of independent variables.

    Repeats ``n_repeats`` times: draw ``n_cases`` cases of ``n_vars`` independent
    variables (:func:`independent_sample`) and learn a DAG with
    :func:`hill_climb_bdeu`.  The true graph has no arc at all.

    Parameters
    ----------
    n_vars, n_cases : int
    S : float
        BDeu equivalent sample size.
    n_repeats : int
    prior : sequence of float
    max_parents : int, optional
    random_state : int or None
        Seeds the data and the tie-breaking of every repetition.

    Returns
    -------
    runs : DataFrame
        One row per repetition: ``arcs`` (``"u>v"`` items, 0-based), ``skeleton``
        (the arcs without direction, ``"u-v"`` with ``u < v``), ``n_arcs``,
        ``n_isolated``, ``max_in_degree``,
        ``score``, ``empty_score`` (BDeu of the true, empty graph), ``n_moves``.
    first : StructureResult
        The network learned in the first repetition.
    first_data : ndarray
        Its data.
    """
    if not isinstance(n_repeats, numbers.Integral) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an integer >= 1; got {n_repeats!r}")
    seeds = np.random.SeedSequence(random_state).spawn(int(n_repeats))
    rows, first, first_data = [], None, None
    for i, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        data = independent_sample(n_vars, n_cases, prior=prior, random_state=rng)
        arities = np.full(n_vars, len(prior))
        res = hill_climb_bdeu(data, arities=arities, S=S, max_parents=max_parents, random_state=rng)
        empty = bdeu_network_score(data, [()] * n_vars, arities=arities, S=S)
        rows.append({"repeat": i, "arcs": " ".join(f"{u}>{v}" for u, v in res.edges),
                     "skeleton": " ".join(f"{u}-{v}" for u, v in sorted({tuple(sorted(e)) for e in res.edges})),
                     "n_arcs": len(res.edges), "n_isolated": res.n_isolated,
                     "max_in_degree": max(len(p) for p in res.parents),
                     "score": res.score, "empty_score": empty, "n_moves": res.n_moves})
        if i == 0:
            first, first_data = res, data
    return pd.DataFrame(rows), first, first_data


def summarise_learned_networks(runs):
    """Mean, standard error and range of the statistics of :func:`learn_from_independent_data`.

    Parameters
    ----------
    runs : DataFrame
        The ``runs`` table of :func:`learn_from_independent_data`.

    Returns
    -------
    DataFrame
        One row per statistic (arcs, isolated variables, largest parent set, BDeu
        gain of the learned graph over the true empty graph); columns ``mean``,
        ``se``, ``min``, ``max``.
    """
    stats_ = {
        "arcs": runs["n_arcs"],
        "isolated variables": runs["n_isolated"],
        "largest parent set": runs["max_in_degree"],
        "BDeu gain over the true (empty) graph": runs["score"] - runs["empty_score"],
    }
    out = pd.DataFrame({k: {"mean": float(v.mean()), "se": _mean_se(v), "min": float(v.min()),
                            "max": float(v.max())} for k, v in stats_.items()}).T
    out.index.name = "statistic"
    return out


def learned_networks_by_S(S_values, n_vars=12, n_cases=4, *, n_repeats=100, prior=(1.0, 1.0),
                          random_state=None):
    """:func:`learn_from_independent_data` for several BDeu sample sizes, same data.

    Every ``S`` sees the same data sets and tie-breaking seeds (common random
    numbers), so differences between rows are due to ``S`` alone.

    Parameters
    ----------
    S_values : sequence of float
    n_vars, n_cases, n_repeats : int
    prior : sequence of float
    random_state : int or None

    Returns
    -------
    DataFrame
        Index ``S``; columns ``arcs``, ``arcs_se``, ``isolated``, ``isolated_se``,
        ``gain`` (mean BDeu gain of the learned graph over the empty graph) and
        ``same_skeleton`` (share of repetitions whose learned arcs, ignoring their
        direction, are those learned with the first ``S``).
    """
    rows, ref = {}, None
    for S in S_values:
        runs, _, _ = learn_from_independent_data(n_vars, n_cases, S=S, n_repeats=n_repeats,
                                                 prior=prior, random_state=random_state)
        if ref is None:
            ref = runs["skeleton"].to_numpy()
        rows[float(S)] = {
            "arcs": float(runs["n_arcs"].mean()), "arcs_se": _mean_se(runs["n_arcs"]),
            "isolated": float(runs["n_isolated"].mean()), "isolated_se": _mean_se(runs["n_isolated"]),
            "gain": float((runs["score"] - runs["empty_score"]).mean()),
            "same_skeleton": float(np.mean(runs["skeleton"].to_numpy() == ref)),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "S"
    return out


def display_agreement(summary, decimals=2):
    """Readable copy of :func:`agreement_by_score`, :func:`scan_symmetric_priors` or
    :func:`scan_prior_odds` output (human column names, rounded).

    Parameters
    ----------
    summary : DataFrame
    decimals : int

    Returns
    -------
    DataFrame
    """
    names = {"cells": "cells", "rms_z": "RMS z", "max_abs_z": "largest |z|",
             "beyond_3_se": "cells beyond 3 SE", "worst_size": "N of largest |z|",
             "p_dependence": "prior P(dependence)"}
    out = summary.rename(columns=names).round(decimals)
    idx = {"score": "score", "a": "Dirichlet parameter a", "odds": "prior odds Ind : Dep"}
    out.index.name = idx.get(summary.index.name, summary.index.name)
    return out

