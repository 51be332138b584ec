"""Scores for deciding whether two discrete variables are independent (Moral).

Everything works on contingency tables of counts ``N[x, y]`` and is vectorised over any number of
tables (``counts`` of shape ``(..., r, c)``). Every score is oriented so that a positive value
favours dependence: the G and chi-square statistics, K2, BDe, BIC, AIC, the imprecise upper-entropy
score IMP and its variants, an imprecise BDe interval, and the decision rules that turn scores into
dependence / independence / undecided. Estimates and losses of the fitted joint or conditional
tables are here too. The definitions are in the book's Algorithms appendix.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy import special, stats

from ._validation import check_choice, check_counts, check_int, check_positive, check_S

__all__ = ["DEPENDENCE", "INDEPENDENCE", "UNDECIDED", "IMP_TIE", "log_rising_factorial",
           "table_margins", "upper_entropy", "upper_entropy_distribution", "mutual_information",
           "g_statistic", "chi_score", "k2_score", "bde_score", "bic_score", "aic_score",
           "imp_score", "IMP_VARIANTS", "imp_variant_score", "bdmod_score", "decide",
           "prior_odds_decision", "imprecise_score_interval", "imprecise_score_rule",
           "imprecise_decision", "estimate_joint", "estimate_conditional", "joint_log_loss",
           "kl_divergence", "conditional_log_loss"]

#: Decision codes used by :func:`decide`, :func:`imprecise_decision` and the simulation.
DEPENDENCE = 1
INDEPENDENCE = 0
UNDECIDED = -1

# Relative tolerance under which two log-likelihood-type quantities count as equal.
# Ties are frequent and exact at small N (e.g. K2 and BIC on 3 cases), and floating
# point turns them into +-1e-16 noise that would flip decisions at random.
_TIE_RTOL = 1e-9
#: Absolute tie tolerance of the IMP scores: entropies of tables of at most a few
#: hundred cases are O(1), and a saturated upper entropy (ln 2) makes exact zeros.
IMP_TIE = 1e-10


# --------------------------------------------------------------------------- input
def log_rising_factorial(alpha, n):
    """``ln Gamma(alpha + n) - ln Gamma(alpha)``, the log rising factorial (0 when n = 0).

    Parameters
    ----------
    alpha : float or ndarray
        Dirichlet parameters, > 0.
    n : float or ndarray
        Counts, broadcast against ``alpha``.

    Returns
    -------
    float or ndarray
    """
    return special.gammaln(alpha + n) - special.gammaln(alpha)


def table_margins(a):
    """Row sums, column sums and totals of contingency tables.

    Parameters
    ----------
    a : ndarray, shape (..., r, c)

    Returns
    -------
    nx : ndarray, shape (..., r)
    my : ndarray, shape (..., c)
    n : ndarray, shape (...)
    """
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
    s = check_S(s, "s")
    n = check_counts(counts, min_ndim=1)
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
    a = check_counts(counts)
    return _nmi(a) / np.maximum(a.sum(axis=(-2, -1)), 1.0)


def _nmi(a):
    """N times the sample mutual information, clipped at 0 (rounding)."""
    nx, my, n = table_margins(a)
    v = (special.xlogy(a, a).sum(axis=(-2, -1)) - special.xlogy(nx, nx).sum(axis=-1)
         - special.xlogy(my, my).sum(axis=-1) + special.xlogy(n, n))
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
    return 2.0 * _nmi(check_counts(counts))


def chi_score(counts):
    """CHI: one minus the p-value of the G test of independence.

    ``G`` is referred to a chi-square distribution with ``(r-1)(c-1)`` degrees of freedom (1 for
    the slides' 2x2 tables); the nominal degrees of freedom are used even when a row or column of
    the table is empty. The decision rules ``CHI^0.05`` and ``CHI^0.20`` of the slides are
    ``decide(chi, 0.95)`` and ``decide(chi, 0.80)`` (dependence iff CHI exceeds the threshold).

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)

    Returns
    -------
    chi : ndarray, shape (...), values in [0, 1)
    """
    a = check_counts(counts)
    df = _df(a)
    g = 2.0 * _nmi(a)
    if df == 0:
        return np.zeros(g.shape)
    return stats.chi2.cdf(g, df)


def _bd_parts(a, alpha_cell, alpha_row, alpha_y, S_y):
    """ln P(D|Dep) - ln P(D|Ind) without the X factor (identical in both)."""
    nx, my, n = table_margins(a)
    dep = (np.sum(log_rising_factorial(alpha_cell, a), axis=(-2, -1))
           - np.sum(log_rising_factorial(alpha_row, nx), axis=-1))
    ind = np.sum(log_rising_factorial(alpha_y, my), axis=-1) - log_rising_factorial(S_y, n)
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
    a = check_counts(counts)
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
    S = check_S(S)
    a = check_counts(counts)
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
    a = check_counts(counts)
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
    a = check_counts(counts)
    n = a.sum(axis=(-2, -1))
    return np.where(n > 0, _nmi(a) - 0.5 * _df(a), 0.0)


def imp_score(counts, s=1.0):
    """IMP: upper-entropy score of the imprecise Dirichlet model.

    ``IMP = IPI - IPD = H*(Y) - sum_x (N_x/N) H*(Y | X = x)``, where ``H*`` is the upper entropy of
    the IDM (:func:`upper_entropy`) on the column totals and on each row. ``H*(X)`` appears in both
    and cancels. It is the imprecise information gain of ``X`` about ``Y`` and is not symmetric.
    Empty rows carry weight 0; an empty table scores 0.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    s : float
        IDM hyperparameter (the slides use 1).

    Returns
    -------
    score : ndarray, shape (...); > 0 favours dependence
    """
    s = check_S(s, "s")
    a = check_counts(counts)
    nx, my, n = table_margins(a)
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
    "LOEXP": "IPD = H*(X) + lower expectation, over X's IDM, of the H*(Y | x)"}


def _credal_ipd_gain(nx, h, s):
    """max over X's IDM of H(p) + sum_x p_x h_x, minus H*(X) (both on the same IDM).
    The maximiser is ``p_x = max(l_x, c e^{h_x})`` with ``l_x = n_x/(N + s)`` (KKT of a concave
    objective over a box-simplex), ``c`` solved exactly after sorting ``l_x e^{-h_x}``: a water
    level in the metric ``e^{h}``."""
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
    With mass ``w`` added to row 0 and ``s - w`` to row 1, each row's best split is its own IDM
    maximiser, so the objective is
    ``f(w) = [(n_0 + w) H*(row 0; w) + (n_1 + s - w) H*(row 1; s - w)] / (N + s)``, concave in
    ``w``; golden-section search to ``s * 0.618**iters``."""
    nx, _, n = table_margins(a)
    sorted_rows = [np.sort(a[..., i, :], axis=-1) for i in (0, 1)]  # w does not change them
    rows = [(a[..., i, :], np.cumsum(rs, axis=-1), np.concatenate(
        [rs[..., 1:], np.full(rs.shape[:-1] + (1,), np.inf)], axis=-1))
        for i, rs in enumerate(sorted_rows)]

    def row_term(row, nrow, w):
        # (n_row + w) * upper entropy of the row with IDM parameter w (0 if empty).
        row, cum, nxt = row
        lev = (w[..., None] + cum) / np.arange(1, row.shape[-1] + 1)
        L = np.take_along_axis(lev, np.argmax(lev <= nxt, axis=-1)[..., None], axis=-1)
        q = np.maximum(row, L)  # unnormalised: q / (n_row + w)
        tot = nrow + w
        with np.errstate(divide="ignore", invalid="ignore"):
            v = special.xlogy(tot, tot) - np.sum(special.xlogy(q, q), axis=-1)
        return np.where(tot > 0, v, 0.0)

    def f(w):
        return (row_term(rows[0], nx[..., 0], w) + row_term(rows[1], nx[..., 1], s - w)) / (n + s)

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
      differs: as dependence, or left undecided; the independence-scores chapter's
      ``IMP_GE`` and ``IMP_HALF``).
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
    s = check_S(s, "s")
    if variant not in IMP_VARIANTS:
        raise ValueError(f"unknown IMP variant {variant!r}; known: {', '.join(IMP_VARIANTS)}")
    a = check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = table_margins(a)
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
    S = check_S(S)
    check_choice("kind", kind, ("estimation", "classification"))
    a = check_counts(counts)
    r, c = a.shape[-2:]
    bf = _bd_parts(a, S / (r * c), S / r, S / c, S)
    pdep, pind = estimate_joint(a, True, S), estimate_joint(a, False, S)
    if kind == "estimation":
        loss_dep = _kl_tables(pdep, pind)  # lost by choosing Ind when Dep holds
        loss_ind = _kl_tables(pind, pdep)
    else:
        cdep, cind = estimate_conditional(a, True, S), estimate_conditional(a, False, S)
        loss_dep = np.sum(pdep * (np.log(cdep) - np.log(cind)), axis=(-2, -1))
        loss_ind = np.sum(pind * (np.log(cind) - np.log(cdep)), axis=(-2, -1))
    loss_dep, loss_ind = np.maximum(loss_dep, 0.0), np.maximum(loss_ind, 0.0)
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

    Exact ties (frequent at small sample sizes) count as independence. The tolerance is ``atol`` if
    given, else ``1e-9 * max(1, n)`` (``n`` the table size) or ``1e-9`` without ``n``.

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

    With prior probabilities ``P(Ind) = k/(1+k)`` and ``P(Dep) = 1/(1+k)`` (prior odds ``k : 1`` in
    favour of independence), the posterior prefers dependence iff
    ``ln P(D|Dep) - ln P(D|Ind) > ln k``. ``k = 1`` is the equal-prior rule of :func:`decide`. The
    slides' "PRIOR" column of the imprecise-score table is reproduced by BDe (S = 2) with ``k = 5``
    (``P(Dep) = 1/6``); the chapter shows how that value is identified from the published counts.

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
    Dirichlet parameters: alpha_00 = p, alpha_01 = a0 - p, alpha_10 = q, alpha_11 = S - a0 - q; Y
    under independence gets (p + q, S - p - q)."""
    n00, n01, n10, n11 = (t[:, i : i + 1] for i in range(4))
    a1 = S - a0
    b0 = p + q
    return (log_rising_factorial(p, n00) + log_rising_factorial(a0 - p, n01)
            - log_rising_factorial(a0, n00 + n01) + log_rising_factorial(q, n10)
            + log_rising_factorial(a1 - q, n11) - log_rising_factorial(a1, n10 + n11)
            + log_rising_factorial(S, n00 + n01 + n10 + n11)
            - log_rising_factorial(b0, n00 + n10) - log_rising_factorial(S - b0, n01 + n11))


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
    ``fun(U, idx)`` evaluates the objective of tables ``idx`` at points ``U`` (len(idx), P, d).
    ``sign = 1`` minimises, ``-1`` maximises. The step halves whenever no stencil point improves;
    the search stops at ``h < h_min``."""
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
    A = log_rising_factorial(grid, n00) + log_rising_factorial(S / 2 - grid, n01)  # (T, m+1)
    B = log_rising_factorial(grid, n10) + log_rising_factorial(S / 2 - grid, n11)
    u = 2 * grid[0] + (S / 4) * np.arange(2 * m + 1) / m  # column-0 sums
    C = -log_rising_factorial(u, n00 + n10) - log_rising_factorial(S - u, n01 + n11)  # (T, 2m+1)
    const = (log_rising_factorial(S, n00 + n01 + n10 + n11)
             - log_rising_factorial(S / 2, n00 + n01) - log_rising_factorial(S / 2, n10 + n11))
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

    Moral's new score lets every Dirichlet parameter vary: for a distribution with ``k`` values and
    sample size ``S'`` the parameters satisfy ``sum = S'`` and ``alpha_i >= S'/(2k)`` (so
    ``alpha_i <= S'/(2k) + S'/2``). For ``X -> Y`` the joint parameters ``alpha_xy`` have row sums
    ``alpha_x`` in this set for ``X``, and each row in this set for ``Y | x``; under independence
    ``Y`` gets the column sums. ``X``'s factor is the same under both hypotheses and cancels.

    region="box"
        The slides' approximate method: the row sums are fixed at ``S/2`` and only the split of
        each row varies, ``alpha_x0`` in ``[S/8, 3S/8]`` (2 free parameters).
    region="full"
        The whole constrained set: ``alpha_0.`` in ``[S/4, 3S/4]`` as well (3 free parameters).

    The optimum is located on a lattice (``lattice`` intervals per parameter: default 64 for "box",
    12 for "full"; the lattice includes the boundary) and then polished by a compass search down to
    steps of 1e-9 of the parameter range. The result is verified against multi-start scipy
    optimisation in the tests; it is a numerical global optimisation, exact to about 1e-10 when the
    lattice lands in the basin of the global optimum (the objective is smooth and bounded away from
    its singularities, ``alpha >= S/8``).

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
    S = check_S(S)
    check_choice("region", region, ("box", "full"))
    a = check_counts(counts)
    _check_2x2(a, "imprecise_score_interval")
    default = 64 if region == "box" else 12
    lattice = check_int("lattice", default if lattice is None else lattice, 2)
    shape = a.shape[:-2]
    t = a.reshape(-1, 4)
    # Identical tables (frequent at small N) are solved once.
    uniq, inv = np.unique(t, axis=0, return_inverse=True)
    if len(uniq) == 0:
        return np.zeros(shape), np.zeros(shape)
    lo, hi = _interval_2x2(uniq, S, region, lattice)
    inv = inv.ravel()
    return lo[inv].reshape(shape), hi[inv].reshape(shape)


def imprecise_score_rule(counts, S=2.0):
    """The slides' closed-form rule for the lower value of ``ln R`` (approximate method).

    Each row's Dirichlet parameters sum to ``S/r``. For the slides' 2x2 tables the rule is
    ``alpha_ij = S/8`` where ``N(i, j)`` is the row maximum (so the other cell gets ``3S/8``) and
    ``S/4`` for both cells of a tied row. For other shapes it is generalised as: every cell gets
    the lowest value ``S/(2rc)`` and the remaining ``S/(2r)`` of the row goes to the row's smallest
    count (shared equally between tied smallest counts), the vertex that minimises the row's
    factor. ``Y`` under independence gets the column sums of these parameters.

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
    S = check_S(S)
    a = check_counts(counts)
    r, c = a.shape[-2:]
    row = S / r
    lo = row / (2 * c)
    # For c = 2 and r = 2 this is the slides' S/8 on the row maximum (3S/8 on the
    # other cell) and S/4 on both cells of a tied row.
    small = a == a.min(axis=-1, keepdims=True)
    share = small / small.sum(axis=-1, keepdims=True)
    alpha = lo + (row / 2) * share
    return _bd_parts(a, alpha, row, alpha.sum(axis=-2), S)


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

    Dependence: ``P^e(x, y) = (N(x,y) + S/(rc)) / (N + S)`` (the slides' ``(N(i,j) + 0.5)/(N + 2)``
    for 2x2 and ``S = 2``). Independence: ``P^e(x, y) = P^e_X(x) P^e_Y(y)`` with
    ``P^e_X(x) = (N_X(x) + S/r)/(N + S)`` and ``P^e_Y(y) = (N_Y(y) + S/c)/(N + S)``.

    Parameters
    ----------
    counts : array-like of int, shape (..., r, c)
    dependent : bool or array-like of bool, broadcastable to shape (...)
    S : float

    Returns
    -------
    P : ndarray, shape (..., r, c)
    """
    S = check_S(S)
    a = check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = table_margins(a)
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
    S = check_S(S)
    a = check_counts(counts)
    r, c = a.shape[-2:]
    nx, my, n = table_margins(a)
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
    P, Q = _check_dist(P, "P"), _check_dist(P_est, "P_est")
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
    P, Q = _check_dist(P, "P"), _check_dist(P_est, "P_est")
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
    P, Q = _check_dist(P, "P"), _check_dist(P_cond, "P_cond")
    with np.errstate(divide="ignore"):
        return -np.sum(special.xlogy(P, Q), axis=(-2, -1))
