"""NCC dominance: the exact pairwise test of the naive credal classifier.

Class ``c'`` dominates ``c''`` on an instance ``f`` when ``inf_t P_t(c', f) /
P_t(c'', f) > 1`` over the prior proportions ``t`` of the imprecise Dirichlet model
(optionally epsilon-contaminated).  The log of the ratio is a strictly convex function
``psi`` of one class share ``tau`` in ``[0, 1]`` (:func:`ncc_log_infimum`).  Its end
values and tangents, gathered from per-(class, feature, category) tables
(:func:`ncc_end_tables`, :func:`ncc_end_apply`), decide most problems without
iterating (:func:`ncc_certify`); the others are minimised by a safeguarded Newton
iteration (:func:`newton_increasing`, which :mod:`credal.likelihood` uses too).
Everything is vectorised over independent problems (rows times class pairs).
:class:`credal.naive.NCC` runs these on its fitted count tables; the derivation is in
the book's Algorithms appendix.
"""

from __future__ import annotations

import numpy as np

from ._tables import joint_sum, joint_tables

__all__ = ["LOG_TIE", "newton_increasing", "ncc_log_infimum", "ncc_end_terms", "ncc_end_tables",
           "ncc_end_apply", "ncc_certify"]

#: Margin of the dominance decisions, taken in log space. A margin this small only matters at an
#: exact tie up to rounding (NCC: an infimum ratio of 1; LNCC: ``alpha*`` equal to ``alpha``; CMA:
#: a minimum log ratio of 0), and then the class is kept: no dominance.
LOG_TIE = 1e-11


def newton_increasing(fun, lo, hi, x, xtol=1e-14, rtol=1e-14, maxiter=200):
    """Root of increasing functions by safeguarded Newton, one per problem.

    Parameters
    ----------
    fun : callable ``fun(sel, x) -> (f, df)``
        Values and derivatives of the functions of problems ``sel`` (int array) at
        ``x`` (same shape as ``sel``).
    lo, hi : ndarray, shape (q,)
        Brackets with ``f(lo) <= 0 <= f(hi)`` (as limits); modified in place.
    x : ndarray, shape (q,)
        Starting points inside the brackets; overwritten by the roots.
    xtol, rtol : float
        The iteration stops once the Newton correction is below ``xtol + rtol |x|``. Rounding noise
        in ``f`` (about 1e-15 relative to its terms) bounds the attainable accuracy; the callers
        only need the value of a smooth function at its root or minimiser, which this tolerance
        changes by far less than the rounding of that value.

    Returns
    -------
    x : ndarray, shape (q,)
    """
    act = np.arange(len(x))
    dx = hi - lo  # last step (inf while the bracket is unbounded)
    dxold = dx.copy()  # step before the last (rtsafe's dxold)
    for _ in range(maxiter):
        if act.size == 0:
            break
        xa = x[act]
        # all problems still active: a slice lets callers take views, not copies
        f, df = fun(slice(None) if act.size == len(x) else act, xa)
        pos = f > 0
        lo_a = np.where(pos, lo[act], xa)
        hi_a = np.where(pos, xa, hi[act])
        lo[act], hi[act] = lo_a, hi_a
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            newton = f / df
        xn = xa - newton
        tol = xtol + rtol * np.abs(xa)
        # a Newton correction below the tolerance ends the iteration at once
        small = np.abs(newton) <= tol
        # Newton is used while it stays inside the bracket and its step is at most half the step
        # before last (rtsafe's rule) or already tiny; otherwise bisect.
        ok = (xn > lo_a) & (xn < hi_a) & np.isfinite(xn)
        ok &= (np.abs(newton) <= 0.5 * np.abs(dxold[act])) | (np.abs(newton) <= 16 * tol)
        mid = lo_a + 0.5 * (hi_a - lo_a)
        xn = np.where(ok, xn, mid)
        dxold[act] = dx[act]
        dx[act] = np.abs(xn - xa)
        done = (f == 0) | small | (hi_a - lo_a <= tol)
        final = np.clip(xa - np.where(small, newton, 0.0), lo_a, hi_a)
        x[act] = np.where((f == 0) | small, final, xn)
        act = act[~done]
    return x


def _ncc_shares(eps, K, nv, model):
    """``(w, kap, e_j, dl_j)``: class shares ``t' = w (1 - tau) + kap``, ``t'' = w tau + kap``,
    cells ``n(c', f_j) + s e_j`` and ``n(c'', f_j) + s (t'' - dl_j)`` (see
    :class:`credal.naive.NCC`)."""
    if model == "simple":
        return 1.0 - 2.0 * eps, eps, np.full(nv.shape, eps), np.zeros(nv.shape)
    return 1.0 - eps, eps / K, eps / (K * nv), eps * (nv - 1.0) / (K * nv)


def ncc_log_infimum(n1, n2, n1j, n2j, o1j, o2j, mask, n_values, s, epsilon, n_classes,
                    model="contamination", lo=None, hi=None):
    """Log of ``inf_t P_t(c', f)/P_t(c'', f)`` for many independent problems.

    Parameters
    ----------
    n1, n2 : array, shape (q,)
        Class counts ``n(c')``, ``n(c'')``.
    n1j, n2j : array, shape (q, m)
        Counts ``n(c', f_j)``, ``n(c'', f_j)`` of the instance's values.
    o1j, o2j : array, shape (q, m)
        Counts ``n_j(c')``, ``n_j(c'')`` of rows with feature ``j`` observed.
    mask : bool array, shape (q, m)
        Feature ``j`` observed in the instance.
    n_values : array, shape (m,)
        Numbers of categories ``|F_j|``.
    s : float
        Prior strength (> 0).
    epsilon : float
        Contamination in [0, 1] (0 = NCC).
    n_classes : int
        ``|C|``.
    model : {"contamination", "simple"}
        The epsilon model (:func:`_ncc_shares`).
    lo, hi : array, shape (q,), optional
        Minimise over ``tau`` in ``[lo, hi]`` instead of ``[0, 1]`` (NCC2's pieces).

    Returns
    -------
    log_inf : ndarray, shape (q,)
        ``-inf`` when the infimum is 0.
    tau : ndarray, shape (q,)
        Minimiser (``t'' = w tau + kap``, :func:`_ncc_shares`).
    """
    n1 = np.asarray(n1, float)
    n2 = np.asarray(n2, float)
    q = n1.shape[0]
    nv = np.asarray(n_values, float)
    m = np.asarray(mask, bool) & (nv > 1)[None, :]
    n1j, n2j = np.asarray(n1j, float), np.asarray(n2j, float)
    o1j, o2j = np.asarray(o1j, float), np.asarray(o2j, float)
    w, kap, e, dl = _ncc_shares(float(epsilon), float(n_classes), nv, model)  # (m,) arrays
    num = n1j + s * e
    zero = np.any(m & (num <= 0), axis=1)
    # the pair ln(n''_oj + s t'') - ln(n''_j + s t''_j) cancels exactly when equal
    m2 = m & ((n2j != o2j) | (dl > 0))
    with np.errstate(divide="ignore"):
        const = np.sum(np.where(m, np.log(np.where(m, num, 1.0)), 0.0), axis=1)

    def parts(sel, tau, order):
        tp = w * (1.0 - tau) + kap
        tpp = w * tau + kap
        a = n1[sel] + s * tp
        b = n2[sel] + s * tpp
        mm, mm2 = m[sel], m2[sel]
        c = o1j[sel] + s * tp[:, None]
        d = o2j[sel] + s * tpp[:, None]
        g = n2j[sel] + s * (tpp[:, None] - dl)
        with np.errstate(divide="ignore", invalid="ignore"):
            if order == 0:
                val = (np.log(a) - np.log(b) + const[sel]
                       - np.sum(np.where(mm, np.log(np.where(mm, c, 1.0)), 0.0), axis=1)
                       + np.sum(np.where(mm2, np.log(np.where(mm2, d, 1.0))
                                         - np.log(np.where(mm2, g, 1.0)), 0.0), axis=1))
                return val, None
            d1 = (-1.0 / a - 1.0 / b + np.sum(np.where(mm, 1.0 / c, 0.0), axis=1) + np.sum(
                np.where(mm2, 1.0 / d - 1.0 / g, 0.0), axis=1))
            if order == 1:
                return w * s * d1, None
            d2 = (-1.0 / a**2 + 1.0 / b**2 + np.sum(np.where(mm, 1.0 / c**2, 0.0), axis=1)
                  + np.sum(np.where(mm2, 1.0 / g**2 - 1.0 / d**2, 0.0), axis=1))
            return w * s * d1, (w * s) ** 2 * d2

    lo = np.zeros(q) if lo is None else np.asarray(lo, float)
    hi = np.ones(q) if hi is None else np.asarray(hi, float)
    tau = 0.5 * (lo + hi)
    solve = np.nonzero(~zero)[0] if w > 0 else np.empty(0, int)
    if solve.size:
        dp0, _ = parts(solve, lo[solve], 1)
        dp1, _ = parts(solve, hi[solve], 1)
        at0 = dp0 >= 0
        at1 = dp1 <= 0
        tau[solve[at0]] = lo[solve[at0]]
        tau[solve[at1 & ~at0]] = hi[solve[at1 & ~at0]]
        inner = solve[~at0 & ~at1]
        if inner.size:
            def fun(sel, t):
                return parts(inner[sel], t, 2)

            tau[inner] = newton_increasing(fun, lo[inner], hi[inner], tau[inner].copy())
    out = np.full(q, -np.inf)
    ok = np.nonzero(~zero)[0]
    if ok.size:
        out[ok] = parts(ok, tau[ok], 0)[0]
    return out, tau


def ncc_end_terms(class_count, flat, observed, n_values, codes, s, epsilon, log_tables=None):
    """Per row and class, the parts of ``psi`` and ``psi'`` at ``tau = 0`` and 1.

    ``psi(tau) = Fa(c', t') - Fb(c'', t'')`` splits into one term per class (see
    :func:`ncc_log_infimum`), and at the end points of ``[0, 1]`` each class share takes one of two
    values, ``u0 = (1 - eps) + eps/|C|`` or ``u1 = eps/|C|``. So the end values and slopes of every
    class pair come from per-(class, feature, category) tables gathered once per row.

    This is :func:`ncc_end_tables` (built once per fitted model and parameters)
    followed by :func:`ncc_end_apply`.

    Parameters
    ----------
    class_count, flat, observed, n_values
        The fitted count tables of a :class:`credal.naive.NCC`.
    codes : int array, shape (n, m)
    s, epsilon : float
    log_tables : tuple (lp, lt), optional
        Log prior (K,) and flat log conditional table (K, S) of a naive Bayes; when given, its
        joint log-likelihood is accumulated in the same pass (equal to the classifier's joint
        log-likelihood up to the order of the additions; the caller only ranks classes with it).

    Returns
    -------
    terms : ndarray, shape (8, n, K)
        ``Fa(tau=0), Fa(tau=1), Fb(tau=0), Fb(tau=1)`` and the matching slope parts
        ``Da, Da, Db, Db``, so that for classes ``(a, b)`` of a row ``psi(e) = Fa_e[a] - Fb_e[b]``
        and ``psi'(e) = (1 - eps) s (Da_e[a] - Db_e[b])``.
    zero : bool ndarray, shape (n, K)
        A zero count ``n(c, x_j) + s e_j = 0``: as ``c'`` the infimum is 0.
    scale : float
        Upper bound on the absolute value of any one table entry (finite ones),
        which sizes the rounding margin of the certificates.
    jll : ndarray, shape (n, K), or None
        The joint log-likelihood when ``log_tables`` is given.
    """
    tables = ncc_end_tables(class_count, flat, observed, n_values, s, epsilon, log_tables)
    return ncc_end_apply(tables, codes)


def ncc_end_tables(class_count, flat, observed, n_values, s, epsilon, log_tables=None,
                   flat_b=None, model="contamination"):
    """The per-cell tables of :func:`ncc_end_terms`, grouped (:func:`joint_tables`).

    ``flat_b`` (default ``flat``): the counts of the dominated class ``c''`` (NCC2 adds
    the class's missing counts of the features not missing at random in training).
    ``model``: the epsilon model of :func:`ncc_log_infimum` (its shares at ``tau = 0`` and 1).

    Returns
    -------
    tuple ``(init, joint_tables, K, with_jll, scale)`` for :func:`ncc_end_apply`.
    """
    K, m = len(class_count), len(n_values)
    nv = np.asarray(n_values, float)
    span = np.repeat(np.arange(m), np.asarray(n_values, np.int64))
    w, kap, e, dl = _ncc_shares(float(epsilon), K, nv, model)
    e, dl = e[span], dl[span]  # lower share of a category cell, denominator offset
    o = observed[:, span]
    F, Fb = flat, (flat if flat_b is None else flat_b)
    S = F.shape[1]
    use = (nv > 1)[span]
    zero_tab = (F + s * e <= 0) & use
    cancel = (Fb == o) & (dl == 0)  # ln(o + s u) - ln(n + s u) vanishes exactly
    nb = 9 * K if log_tables is not None else 8 * K
    # one row per (feature, category) cell; columns: 8 blocks of K (a-role values
    # at u0, u1; b-role values at u1, u0; the slopes in the same order), the log
    # conditionals if asked, then K columns counting the zero cells
    tab = np.zeros((S, nb + K))
    init = np.zeros(nb + K)
    with np.errstate(divide="ignore", invalid="ignore"):
        lnum = np.log(np.where(zero_tab, 1.0, F + s * e))
        for r, u in enumerate((w + kap, kap)):
            lo_ = o + s * u
            tab[:, r * K:(r + 1) * K] = np.where(use & ~zero_tab, lnum - np.log(lo_), 0.0).T
            tab[:, (4 + r) * K:(5 + r) * K] = np.where(use & ~zero_tab, 1.0 / lo_, 0.0).T
        for r, u in enumerate((kap, w + kap)):
            g = Fb + s * (u - dl)
            lo_ = o + s * u
            keep = use & ~cancel
            tab[:, (2 + r) * K:(3 + r) * K] = np.where(keep, np.log(g) - np.log(lo_), 0.0).T
            tab[:, (6 + r) * K:(7 + r) * K] = np.where(keep, 1.0 / g - 1.0 / lo_, 0.0).T
        for r, u in enumerate((w + kap, kap, kap, w + kap)):
            init[r * K:(r + 1) * K] = np.log(class_count + s * u)
            init[(4 + r) * K:(5 + r) * K] = (-1.0 if r < 2 else 1.0) / (class_count + s * u)
    if log_tables is not None:
        init[8 * K:9 * K] = log_tables[0]
        tab[:, 8 * K:9 * K] = log_tables[1].T
    tab[:, nb:] = zero_tab.T
    vals = np.abs(np.concatenate([tab[:, :4 * K].ravel(), init[:4 * K]]))
    ders = np.abs(np.concatenate([tab[:, 4 * K:8 * K].ravel(), init[4 * K:8 * K]]))
    scale = max(float(vals[np.isfinite(vals)].max(initial=0.0)),
                w * s * float(ders[np.isfinite(ders)].max(initial=0.0)))
    return init, joint_tables(tab, n_values), K, log_tables is not None, scale


def ncc_end_apply(tables, codes):
    """:func:`ncc_end_terms` of ``codes`` from :func:`ncc_end_tables`."""
    init, joint, K, with_jll, scale = tables
    n = codes.shape[0]
    acc = joint_sum(init, joint, codes)
    nb = 9 * K if with_jll else 8 * K
    terms = acc[:, :8 * K].reshape(n, 8, K).transpose(1, 0, 2)
    zero = acc[:, nb:] > 0
    jll = acc[:, 8 * K:9 * K] if with_jll else None
    return terms, zero, scale, jll


def ncc_certify(terms, zero, scale, m, w_s, a_idx, b_idx, rows):
    """Exact sign certificates of ``min psi`` for pairs ``a`` over ``b`` of ``rows``
    (int arrays of one shape, or shapes that broadcast together: the result's shape).

    ``psi`` is convex on ``[0, 1]``: its tangents at 0 and 1 bound it from below and its end values
    bound its minimum from above. A pair is decided when the bound clears zero by a margin far
    above the rounding of either computation (this one or :func:`ncc_log_infimum`), so the decision
    is the one the exact minimisation would take.

    Returns
    -------
    state : ndarray of int8
        1: ``a`` dominates ``b``; -1: it does not; 0: undecided.
    """
    ta, tb = terms[:, rows, a_idx], terms[:, rows, b_idx]
    p0, p1 = ta[0] - tb[2], ta[1] - tb[3]
    d0, d1 = w_s * (ta[4] - tb[6]), w_s * (ta[5] - tb[7])
    # far above the ~1e-16 relative rounding of sums of m + 2 terms of size <= scale
    tol = 1e-11 * (m + 4) * max(scale, 1.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        upper = np.fmin(p0, p1)
        lb0 = p0 + np.minimum(d0, 0.0)
        lb1 = p1 - np.maximum(d1, 0.0)
        t = np.clip((p1 - d1 - p0) / (d0 - d1), 0.0, 1.0)
        cross = np.where((d0 < 0) & (d1 > 0), np.fmax(p0 + d0 * t, p1 - d1 * (1.0 - t)), -np.inf)
        lower = np.fmax(np.fmax(lb0, lb1), cross)
    state = np.zeros(lower.shape, dtype=np.int8)
    state[lower > tol] = 1
    state[(upper < -tol) | zero[rows, a_idx]] = -1
    return state
