"""Naive Bayes and the naive credal classifiers: NBC, NCC, NCC-epsilon and LNCC.

All of them learn one sufficient statistic, the count tables of a naive model
(missing-at-random, as in JNCC2): ``n(c)``, ``n(c, f_j)`` and ``n_j(c)``.
``NaiveBayes`` is the precise model (Perks or Laplace prior); ``NCC`` applies
maximality over the imprecise Dirichlet model (optionally epsilon-contaminated) with an
exact dominance test per class pair; ``LNCC`` keeps the naive models whose likelihood
is at least ``alpha`` times the maximum (Antonucci, Cattaneo & Corani). Dominance tests
are vectorised over rows and class pairs, certified by closed-form bounds, and solved
exactly (Newton) only where the bounds do not decide. The derivations are in the
book's Algorithms appendix.
"""

from __future__ import annotations

import functools
import numbers

import numpy as np
from scipy.special import xlog1py

from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._tables import _DerivedTables, _joint_sum, _joint_tables
from ._validation import (
    check_fit_input,
    check_in_range,
    check_positive,
)

__all__ = [
    "NaiveBayes",
    "NCC",
    "LNCC",
]

# Upper bound on the elements of the (rows x pairs x features) work arrays of one
# prediction chunk; keeps peak memory at a few tens of MB whatever n_samples is.
_CHUNK_ELEMENTS = 1 << 20
# Decisions are taken in log space; a margin this small only matters at an exact
# tie up to rounding (NCC: an infimum ratio of 1; LNCC: alpha* equal to alpha), and
# then the class is kept: no dominance.
_LOG_TIE = 1e-11
# LNCC cell certification: [0, 1] starts as _N_CELLS cells; a cell still
# uncertified after _MAX_DEPTH bisections (width 2^-33) adds its end points to
# the candidate maxima instead (ln L is Lipschitz on [0, 1], so at most a
# negligible error; never observed in the tests).
_MAX_DEPTH = 30
_N_CELLS = 8
# ... and the open cells number at most _MAX_CELLS per problem on average.
_MAX_CELLS = 64
# NCC: decide dominance by the convexity certificates of _ncc_certify where they
# apply (tests switch this off to compare with the exact minimisation alone).
_CERTIFY = True


# ---------------------------------------------------------------------------
# safeguarded Newton iteration, vectorised over independent problems
# ---------------------------------------------------------------------------


def _newton_increasing(fun, lo, hi, x, xtol=1e-14, rtol=1e-14, maxiter=200):
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
        The iteration stops once the Newton correction is below
        ``xtol + rtol |x|``.  Rounding noise in ``f`` (about 1e-15 relative to
        its terms) bounds the attainable accuracy; the callers only need the
        value of a smooth function at its root or minimiser, which this
        tolerance changes by far less than the rounding of that value.

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
        # Newton is used while it stays inside the bracket and its step is at
        # most half the step before last (rtsafe's rule) or already tiny;
        # otherwise bisect.
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


# ---------------------------------------------------------------------------
# NCC: the one-dimensional infimum of the dominance ratio
# ---------------------------------------------------------------------------


def _ncc_shares(eps, K, nv, model):
    """``(w, kap, e_j, dl_j)``: class shares ``t' = w (1 - tau) + kap``, ``t'' = w tau + kap``,
    cells ``n(c', f_j) + s e_j`` and ``n(c'', f_j) + s (t'' - dl_j)`` (see :class:`NCC`)."""
    if model == "simple":
        return 1.0 - 2.0 * eps, eps, np.full(nv.shape, eps), np.zeros(nv.shape)
    return 1.0 - eps, eps / K, eps / (K * nv), eps * (nv - 1.0) / (K * nv)


def _ncc_log_infimum(n1, n2, n1j, n2j, o1j, o2j, mask, n_values, s, epsilon, n_classes,
                     model="contamination"):
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
                val = (
                    np.log(a) - np.log(b) + const[sel]
                    - np.sum(np.where(mm, np.log(np.where(mm, c, 1.0)), 0.0), axis=1)
                    + np.sum(
                        np.where(mm2, np.log(np.where(mm2, d, 1.0))
                                 - np.log(np.where(mm2, g, 1.0)), 0.0),
                        axis=1,
                    )
                )
                return val, None
            d1 = (
                -1.0 / a - 1.0 / b
                + np.sum(np.where(mm, 1.0 / c, 0.0), axis=1)
                + np.sum(np.where(mm2, 1.0 / d - 1.0 / g, 0.0), axis=1)
            )
            if order == 1:
                return w * s * d1, None
            d2 = (
                -1.0 / a**2 + 1.0 / b**2
                + np.sum(np.where(mm, 1.0 / c**2, 0.0), axis=1)
                + np.sum(np.where(mm2, 1.0 / g**2 - 1.0 / d**2, 0.0), axis=1)
            )
            return w * s * d1, (w * s) ** 2 * d2

    tau = np.full(q, 0.5)
    solve = np.nonzero(~zero)[0] if w > 0 else np.empty(0, int)
    if solve.size:
        dp0, _ = parts(solve, np.zeros(solve.size), 1)
        dp1, _ = parts(solve, np.ones(solve.size), 1)
        at0 = dp0 >= 0
        at1 = dp1 <= 0
        tau[solve[at0]] = 0.0
        tau[solve[at1 & ~at0]] = 1.0
        inner = solve[~at0 & ~at1]
        if inner.size:
            lo, hi = np.zeros(inner.size), np.ones(inner.size)
            x = np.full(inner.size, 0.5)

            def fun(sel, t):
                return parts(inner[sel], t, 2)

            tau[inner] = _newton_increasing(fun, lo, hi, x)
    out = np.full(q, -np.inf)
    ok = np.nonzero(~zero)[0]
    if ok.size:
        out[ok] = parts(ok, tau[ok], 0)[0]
    return out, tau


def _ncc_end_terms(class_count, flat, observed, n_values, codes, s, epsilon,
                   log_tables=None):
    """Per row and class, the parts of ``psi`` and ``psi'`` at ``tau = 0`` and 1.

    ``psi(tau) = Fa(c', t') - Fb(c'', t'')`` splits into one term per class (see
    :func:`_ncc_log_infimum`), and at the end points of ``[0, 1]`` each class
    share takes one of two values, ``u0 = (1 - eps) + eps/|C|`` or
    ``u1 = eps/|C|``.  So the end values and slopes of every class pair come
    from per-(class, feature, category) tables gathered once per row.

    This is :func:`_ncc_end_tables` (built once per fitted model and parameters)
    followed by :func:`_ncc_end_apply`.

    Parameters
    ----------
    class_count, flat, observed, n_values
        The fitted count tables (see :class:`_NaiveCounts`).
    codes : int array, shape (n, m)
    s, epsilon : float
    log_tables : tuple (lp, lt), optional
        Log prior (K,) and flat log conditional table (K, S) of a naive Bayes;
        when given, its joint log-likelihood is accumulated in the same pass
        (equal to :meth:`_NaiveCounts._joint_log_likelihood` up to the order of
        the additions; the caller only ranks classes with it).

    Returns
    -------
    terms : ndarray, shape (8, n, K)
        ``Fa(tau=0), Fa(tau=1), Fb(tau=0), Fb(tau=1)`` and the matching slope
        parts ``Da, Da, Db, Db``, so that for classes ``(a, b)`` of a row
        ``psi(e) = Fa_e[a] - Fb_e[b]`` and
        ``psi'(e) = (1 - eps) s (Da_e[a] - Db_e[b])``.
    zero : bool ndarray, shape (n, K)
        A zero count ``n(c, x_j) + s e_j = 0``: as ``c'`` the infimum is 0.
    scale : float
        Upper bound on the absolute value of any one table entry (finite ones),
        which sizes the rounding margin of the certificates.
    jll : ndarray, shape (n, K), or None
        The joint log-likelihood when ``log_tables`` is given.
    """
    tables = _ncc_end_tables(class_count, flat, observed, n_values, s, epsilon, log_tables)
    return _ncc_end_apply(tables, codes)


def _ncc_end_tables(class_count, flat, observed, n_values, s, epsilon, log_tables=None):
    """The per-cell tables of :func:`_ncc_end_terms`, grouped (:func:`_joint_tables`).

    Returns
    -------
    tuple ``(init, joint_tables, K, with_jll, scale)`` for :func:`_ncc_end_apply`.
    """
    K = len(class_count)
    m = len(n_values)
    nv = np.asarray(n_values, float)
    span = np.repeat(np.arange(m), np.asarray(n_values, np.int64))
    w, kap, e, dl = _ncc_shares(float(epsilon), K, nv, "contamination")
    e, dl = e[span], dl[span]  # lower share of a category cell, denominator offset
    o = observed[:, span]
    F = flat
    S = F.shape[1]
    use = (nv > 1)[span]
    zero_tab = (F + s * e <= 0) & use
    cancel = (F == o) & (dl == 0)  # ln(o + s u) - ln(n + s u) vanishes exactly
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
            g = F + s * (u - dl)
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
    return init, _joint_tables(tab, n_values), K, log_tables is not None, scale


def _ncc_end_apply(tables, codes):
    """:func:`_ncc_end_terms` of ``codes`` from :func:`_ncc_end_tables`."""
    init, joint, K, with_jll, scale = tables
    n = codes.shape[0]
    acc = _joint_sum(init, joint, codes)
    nb = 9 * K if with_jll else 8 * K
    terms = acc[:, :8 * K].reshape(n, 8, K).transpose(1, 0, 2)
    zero = acc[:, nb:] > 0
    jll = acc[:, 8 * K:9 * K] if with_jll else None
    return terms, zero, scale, jll


def _ncc_certify(terms, zero, scale, m, w_s, a_idx, b_idx, rows):
    """Exact sign certificates of ``min psi`` for pairs ``a`` over ``b`` of ``rows``.

    ``psi`` is convex on ``[0, 1]``: its tangents at 0 and 1 bound it from below
    and its end values bound its minimum from above.  A pair is decided when the
    bound clears zero by a margin far above the rounding of either computation
    (this one or :func:`_ncc_log_infimum`), so the decision is the one the exact
    minimisation would take.

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
    state = np.zeros(len(rows), dtype=np.int8)
    state[lower > tol] = 1
    state[(upper < -tol) | zero[rows, a_idx]] = -1
    return state


# ---------------------------------------------------------------------------
# LNCC: profile likelihood and the exact alpha threshold
# ---------------------------------------------------------------------------


# Placeholder count for features that do not contribute: ln(PAD + z) - ln(PAD + z)
# and its derivative vanish exactly for every z of interest.
_PAD = 1e200


def _xlog1py(c, u):
    """``c log1p(u)``, 0 where ``c = 0`` (scipy's ``xlog1py``; numpy's log1p is faster)."""
    return np.where(c == 0, 0.0, c * np.log1p(u))


class _Side:
    """Counts of one class of an LNCC pair, as functions of its share ``z``.

    ``z = x`` for ``c'`` and ``z = 1 - x`` for ``c''``.  Arrays have shape (q,) for
    the class count and (q, m) for the feature counts; ``k`` marks the features
    that contribute (observed, with ``n_j != n_oj``); the others are replaced by
    the neutral pair ``(_PAD, _PAD)``.

    ``d/dz [ln p(z) - ln z] = sum_g W_g / (C_g + z)`` is also kept with equal poles
    merged, split into its decreasing part ``(Wp, Cp)`` (``W > 0``) and its
    increasing part ``(Wn, Cn)`` (``W < 0``).  Merging makes the singular terms
    at ``z = 0`` cancel exactly, which the cell certification relies on.
    """

    def __init__(self, n, nj, oj, k):
        self.n = np.asarray(n, float)
        self.nj = np.where(k, nj, _PAD)
        self.oj = np.where(k, oj, _PAD)
        big = np.where(k, nj, np.inf)
        self.low = np.minimum(self.n, big.min(axis=1) if big.shape[1] else np.inf)
        self._k = k
        self._poles = None

    # the merged poles are only needed by the cell certification (local maxima);
    # x0 and the values of p, l and L use n, nj, oj directly
    W = property(lambda self: self._merged()[0])
    C = property(lambda self: self._merged()[1])
    Wp = property(lambda self: self._merged()[2])
    Cp = property(lambda self: self._merged()[3])
    Wn = property(lambda self: self._merged()[4])
    Cn = property(lambda self: self._merged()[5])

    def _merged(self):
        if self._poles is None:
            self._poles = self._merge(self._k)
        return self._poles

    def _merge(self, k):
        """``(W, C, Wp, Cp, Wn, Cn)``: the poles of ``d/dz [ln p - ln z]``, merged."""
        q = self.n.shape[0]
        C = np.concatenate([self.n[:, None], np.where(k, self.nj, 1.0),
                            np.where(k, self.oj, 1.0), np.zeros((q, 1))], axis=1)
        kf = k.astype(float)
        W = np.concatenate([np.ones((q, 1)), kf, -kf, -np.ones((q, 1))], axis=1)
        order = np.argsort(C, axis=1, kind="stable")
        C = np.take_along_axis(C, order, axis=1)
        W = np.take_along_axis(W, order, axis=1)
        # total weight of each run of equal poles, read at the run's last entry
        # (weights are small integers: the cumulative sums are exact)
        end = np.ones_like(C, bool)
        end[:, :-1] = C[:, 1:] != C[:, :-1]
        cs = np.cumsum(W, axis=1)
        last = np.maximum.accumulate(np.where(end, np.arange(C.shape[1]), -1), axis=1)
        prev = np.zeros_like(cs)  # cumulative weight before the run
        le = last[:, :-1]
        prev[:, 1:] = np.where(le >= 0, np.take_along_axis(cs, np.maximum(le, 0), axis=1), 0.0)
        tot = np.where(end, cs - prev, 0.0)
        # keep the runs with a non-zero weight, compacted to the left in pole order
        nz = tot != 0
        pos = np.cumsum(nz, axis=1) - 1
        width = max(int(np.max(pos[:, -1], initial=-1)) + 1, 1) if pos.shape[1] else 1
        Wm = np.zeros((q, width))
        Cm = np.ones((q, width))
        r_, c_ = np.nonzero(nz)
        Wm[r_, pos[r_, c_]] = tot[r_, c_]
        Cm[r_, pos[r_, c_]] = C[r_, c_]
        # zero weights get C = 1 so that no 0 * inf or 0/0 appears
        return (Wm, np.where(Wm != 0, Cm, 1.0),
                np.where(Wm > 0, Wm, 0.0), np.where(Wm > 0, Cm, 1.0),
                np.where(Wm < 0, Wm, 0.0), np.where(Wm < 0, Cm, 1.0))

    @staticmethod
    def _ex(a, sel, z):
        """``a[sel]`` shaped to broadcast against ``z[..., None]``.

        ``sel`` is an index array or, for all problems, ``slice(None)`` (a view).
        """
        a = a[sel]
        return a.reshape(a.shape[:1] + (1,) * (z.ndim - 1) + a.shape[1:])

    def lp(self, sel, z):
        """``ln p(z)``; z shape (len(sel),) or (len(sel), G)."""
        z = np.asarray(z, float)
        zz = z[..., None]
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.log(self._ex(self.n, sel, z) + z)
            nj, oj = self._ex(self.nj, sel, z), self._ex(self.oj, sel, z)
            return v + np.sum(np.log(nj + zz) - np.log(oj + zz), axis=-1)

    def dlp(self, sel, z):
        """``d ln p / dz``; z shape (len(sel),)."""
        zz = z[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            return 1.0 / (self.n[sel] + z) + np.sum(
                1.0 / (self.nj[sel] + zz) - 1.0 / (self.oj[sel] + zz), axis=1
            )

    def ll(self, sel, t):
        """``ln l(1/2 + t) - ln l(1/2)``, accurate: ``c log1p(t/(c + 1/2))`` per factor."""
        t = np.asarray(t, float)
        tt = t[..., None]
        n = self._ex(self.n, sel, t)
        nj, oj = self._ex(self.nj, sel, t), self._ex(self.oj, sel, t)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = _xlog1py(n, t / (n + 0.5))
            return v + np.sum(_xlog1py(nj, tt / (nj + 0.5)) - _xlog1py(oj, tt / (oj + 0.5)),
                              axis=-1)

    def logsum(self, sel, z):
        """``sum_g W_g ln(C_g + z)``; z shape (len(sel),) or (len(sel), G)."""
        z = np.asarray(z, float)
        W, C = self._ex(self.W, sel, z), self._ex(self.C, sel, z)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.sum(W * np.log(C + z[..., None]), axis=-1)

    def parts(self, sel, z):
        """``logsum`` and a decreasing and an increasing part of its derivative
        ``sum_g W_g / (C_g + z)``.

        Poles below 1 enter as ``W/(C+z) - W/z = -W C / (z (C+z))`` plus ``W/z``
        summed over them: when tiny counts (sample weights far below 1) cluster at
        ``z = 0`` their ``W`` sum to 0 and the parts stay small, so cell enclosures
        certify in a few bisections instead of a number growing with 1/weight.
        """
        z = np.asarray(z, float)
        W, C = self._ex(self.W, sel, z), self._ex(self.C, sel, z)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = C + z[..., None]
            v = np.sum(W * np.log(y), axis=-1)
            small = C < 1.0
            r = np.where(small, np.where(C == 0, 0.0, -W * C / (z[..., None] * y)), W / y)
            lead = np.sum(np.where(small, W, 0.0), axis=-1)
            t = np.where(lead == 0, 0.0, lead / z)
            pos = np.sum(np.where(r > 0, r, 0.0), axis=-1) + np.maximum(t, 0.0)
            neg = np.sum(np.where(r < 0, r, 0.0), axis=-1) + np.minimum(t, 0.0)
        return v, pos, neg


class _LnccPairs:
    """Profile-likelihood quantities of many LNCC dominance problems ``c' vs c''``."""

    def __init__(self, n1, n1j, o1j, n2, n2j, o2j, mask):
        mask = np.asarray(mask, bool)
        n1j, o1j = np.asarray(n1j, float), np.asarray(o1j, float)
        n2j, o2j = np.asarray(n2j, float), np.asarray(o2j, float)
        self.a = _Side(n1, n1j, o1j, mask & (n1j != o1j))
        self.b = _Side(n2, n2j, o2j, mask & (n2j != o2j))
        self.q = self.a.n.shape[0]
        self.x_lo = -self.a.low  # g(x_lo) = 0
        self.x_hi = 1.0 + self.b.low  # g(x_hi) = infinity

    def log_g(self, sel, x):
        return self.a.lp(sel, x) - self.b.lp(sel, 1.0 - np.asarray(x))

    def log_L(self, sel, x):
        """``ln L(x) - ln L(1/2)`` up to a constant common to all x of a problem."""
        x = np.asarray(x, float)
        t = x - 0.5
        return (
            self.a.ll(sel, t) + self.b.ll(sel, -t)
            + np.logaddexp(self.a.lp(sel, x), self.b.lp(sel, 1.0 - x))
        )

    def D(self, sel, x):
        """``ln g(x) - ln x + ln(1 - x)``; sign of ``d ln L/dx`` on [0, 1]."""
        x = np.asarray(x, float)
        return self.a.logsum(sel, x) - self.b.logsum(sel, 1.0 - x)

    def point(self, sel, x):
        """``D`` and the four monotone parts of ``D'`` at ``x``, shape (5, len(sel)).

        ``D' = Pa(x) + Na(x) + Pb(1 - x) + Nb(1 - x)`` with ``Pa, Pb`` decreasing
        and ``Na, Nb`` increasing in their arguments.
        """
        x = np.asarray(x, float)
        y = 1.0 - x
        da, pa, na = self.a.parts(sel, x)
        db, pb, nb = self.b.parts(sel, y)
        return np.stack([da - db, pa, na, pb, nb])

    def dlog_g(self, sel, x):
        """``d ln g / dx`` (positive)."""
        return self.a.dlp(sel, x) + self.b.dlp(sel, 1.0 - x)

    def x0(self):
        """Root of ``g(x) = 1`` in ``(x_lo, x_hi)``."""
        lo, hi = self.x_lo.copy(), self.x_hi.copy()
        x = np.full(self.q, 0.5)

        def fun(sel, xs):
            return self.log_g(sel, xs), self.dlog_g(sel, xs)

        return _newton_increasing(fun, lo, hi, x)

    def local_maxima(self):
        """Local maxima of ``L`` in (0, 1], found by certified cell splitting.

        A cell ``[x1, x2]`` is *certified* when the enclosure
        ``[Pa(x2) + Na(x1) + Pb(1-x1) + Nb(1-x2), Pa(x1) + Na(x2) + Pb(1-x2) +
        Nb(1-x1)]`` of ``D'`` excludes 0 (``D`` monotone: at most one crossing,
        read off the end signs) or the resulting bound on ``D`` excludes 0 (no
        crossing).  Other cells are bisected, up to ``_MAX_DEPTH`` times.

        Returns
        -------
        prob : ndarray of int
            Problem index of each candidate point.
        xs : ndarray of float
            Candidate abscissae: the down-crossings of ``D`` (local maxima of
            ``L``) and the ends of cells left uncertified.
        flat : ndarray of bool, shape (q,)
            Problems whose ``D`` is constant (all merged weights zero).
        """
        q = self.q
        G = _N_CELLS
        grid = np.arange(G + 1) / G
        flat = ~np.any(self.a.W != 0, axis=1) & ~np.any(self.b.W != 0, axis=1)
        live = np.nonzero(~flat)[0]
        ql = live.size
        vals = self.point(slice(None) if ql == q else live,
                          np.broadcast_to(grid, (ql, G + 1)))  # (5, ql, G+1)
        cq = np.repeat(live, G)
        x1 = np.tile(grid[:-1], ql)
        x2 = np.tile(grid[1:], ql)
        v1 = vals[:, :, :-1].reshape(5, -1)
        v2 = vals[:, :, 1:].reshape(5, -1)
        roots_p, roots_lo, roots_hi = [np.empty(0, int)], [np.empty(0)], [np.empty(0)]
        extra_p, extra_x = [], []
        for depth in range(_MAX_DEPTH + 1):
            if cq.size == 0:
                break
            D1, D2 = v1[0], v2[0]
            dlo = v2[1] + v1[2] + v1[3] + v2[4]
            dhi = v1[1] + v2[2] + v2[3] + v1[4]
            wdt = x2 - x1
            with np.errstate(invalid="ignore"):
                low = np.fmax(D1 + np.minimum(dlo, 0.0) * wdt, D2 - np.maximum(dhi, 0.0) * wdt)
                up = np.fmin(D1 + np.maximum(dhi, 0.0) * wdt, D2 - np.minimum(dlo, 0.0) * wdt)
            sign_def = (low > 0) | (up < 0)
            resolved = (dlo > 0) | (dhi < 0) | sign_def
            down = (D1 > 0) & (D2 <= 0)
            r = resolved & down & ~sign_def
            roots_p.append(cq[r]), roots_lo.append(x1[r]), roots_hi.append(x2[r])
            open_ = ~resolved
            if depth == _MAX_DEPTH:
                # give up: the cell is tiny; its ends and any crossing join the candidates
                extra_p += [cq[open_], cq[open_]]
                extra_x += [x1[open_], x2[open_]]
                rr = open_ & down
                roots_p.append(cq[rr]), roots_lo.append(x1[rr]), roots_hi.append(x2[rr])
                break
            cq, x1, x2 = cq[open_], x1[open_], x2[open_]
            v1, v2 = v1[:, open_], v2[:, open_]
            if cq.size == 0:
                break
            if cq.size > _MAX_CELLS * ql + 4096:  # bounded work, or a clear error
                raise ValueError(
                    "LNCC cannot certify the dominance thresholds: the profile likelihood "
                    "is flat to within rounding, as with weighted counts far below 1 "
                    "(sample_weight much smaller than 1 per row); use larger weights")
            xm = 0.5 * (x1 + x2)
            vm = self.point(cq, xm)
            cq = np.concatenate([cq, cq])
            x1, x2 = np.concatenate([x1, xm]), np.concatenate([xm, x2])
            v1, v2 = np.concatenate([v1, vm], axis=1), np.concatenate([vm, v2], axis=1)
        rp = np.concatenate(roots_p).astype(int)
        xs = np.empty(0)
        if rp.size:
            lo, hi = np.concatenate(roots_lo), np.concatenate(roots_hi)
            x = 0.5 * (lo + hi)

            def fun(sel, xv):  # -D increases across a certified down-crossing
                v = self.point(rp[sel], xv)
                return -v[0], -(v[1] + v[2] + v[3] + v[4])

            xs = _newton_increasing(fun, lo, hi, x)
        prob = np.concatenate([rp] + extra_p).astype(int)
        xs = np.concatenate([xs] + extra_x)
        return prob, xs, flat

    def log_threshold(self):
        """``ln alpha*`` of both directions of each pair.

        The pair ``(c'', c')`` has the same profile likelihood mirrored
        (``x -> 1 - x``), so its threshold is the supremum on the other side of
        ``x0``.

        Returns
        -------
        log_alpha : ndarray, shape (q,)
            ``c'`` dominates ``c''`` iff ``ln alpha > log_alpha``.
        log_alpha_rev : ndarray, shape (q,)
            ``c''`` dominates ``c'`` iff ``ln alpha > log_alpha_rev``.
        x0 : ndarray, shape (q,)
        """
        q = self.q
        idx = slice(None)  # every problem (views, not copies)
        x0 = self.x0()
        prob, xs, flat = self.local_maxima()
        # fixed candidates: both ends of [0, 1] and x0 itself
        ends = np.zeros(q), np.ones(q)
        left = self.log_L(idx, x0)
        right = left.copy()
        for xe in ends:
            v = self.log_L(idx, xe)
            left = np.where(xe <= x0, np.fmax(left, v), left)
            right = np.where(xe >= x0, np.fmax(right, v), right)
        if prob.size:
            v = self.log_L(prob, xs)
            on_left = xs <= x0[prob]
            np.fmax.at(left, prob[on_left], v[on_left])
            on_right = xs >= x0[prob]
            np.fmax.at(right, prob[on_right], v[on_right])
        top = np.fmax(left, right)
        out, rev = left - top, right - top
        # L constant on [0, 1] (D identically 0): x0 = 1/2 lies inside, alpha* = 1
        if flat.any():
            d_half = self.D(np.nonzero(flat)[0], np.full(flat.sum(), 0.5))
            tie = np.nonzero(flat)[0][np.abs(d_half) <= 1e-12]
            out[tie] = rev[tie] = 0.0
        return np.minimum(out, 0.0), np.minimum(rev, 0.0), x0

    def log_threshold_grid(self, n_points):
        """The paper's method: ``L`` and ``g`` on ``n_points`` equally spaced points."""
        q = self.q
        idx = np.arange(q)
        u = np.linspace(0.0, 1.0, n_points)
        x = self.x_lo[:, None] + (self.x_hi - self.x_lo)[:, None] * u[None, :]
        x[:, 0], x[:, -1] = self.x_lo, self.x_hi
        lL = self.log_L(idx, x)
        lg = self.log_g(idx, x)
        top = lL.max(axis=1)
        below = np.where(lg <= 0, lL, -np.inf).max(axis=1)
        above = np.where(lg >= 0, lL, -np.inf).max(axis=1)
        return below - top, above - top


def _lncc_log_threshold(n1, n1j, o1j, n2, n2j, o2j, mask, grid=None):
    """``ln alpha*`` of LNCC dominance problems (see :class:`LNCC`).

    Parameters
    ----------
    n1, n2 : array, shape (q,)
    n1j, o1j, n2j, o2j : array, shape (q, m)
    mask : bool array, shape (q, m)
    grid : int or None
        None for the exact threshold, else the paper's number of grid points.

    Returns
    -------
    log_alpha_star : ndarray, shape (q,)
        ``c'`` dominates ``c''`` iff ``ln alpha`` exceeds it.
    log_alpha_star_rev : ndarray, shape (q,)
        The same for ``c''`` over ``c'``.
    """
    pairs = _LnccPairs(n1, n1j, o1j, n2, n2j, o2j, mask)
    if grid is None:
        return pairs.log_threshold()[:2]
    return pairs.log_threshold_grid(grid)


def _lncc_end_terms(class_count, flat, observed, offsets, codes):
    """Per row and class, ``ln p`` at ``z = 0, 1/2, 1`` and ``ln l`` at ``z = 0, 1``.

    Each is a sum of one term per class and per observed feature, so, as in
    :func:`_ncc_end_terms`, the terms come from per-(class, category) tables
    gathered once per row.  ``ln l(z)`` is written as in :meth:`_Side.ll`
    (relative to ``z = 1/2``); factors with ``n_j = n_oj`` are exactly 0.

    This is :func:`_lncc_end_tables` (built once per fitted model) followed by
    :func:`_lncc_end_apply`.

    Returns
    -------
    terms : ndarray, shape (5, n, K)
        ``ln p(0), ln p(1/2), ln p(1), ln l(0), ln l(1)``.
    scale : float
        Upper bound on the absolute value of any finite table entry.
    """
    return _lncc_end_apply(_lncc_end_tables(class_count, flat, observed, offsets), codes)


def _lncc_end_tables(class_count, flat, observed, offsets):
    """The per-cell tables of :func:`_lncc_end_terms`, grouped: ``(init,
    joint_tables, K, scale)`` for :func:`_lncc_end_apply`."""
    K = len(class_count)
    m = len(offsets) - 1
    S = flat.shape[1]
    span = np.repeat(np.arange(m), np.diff(offsets))
    o = observed[:, span]
    keep = flat != o  # the factor of a feature with n_j = n_oj is 1
    tab = np.zeros((S, 5 * K))
    init = np.empty(5 * K)
    n_c = np.asarray(class_count, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        for r, z in enumerate((0.0, 0.5, 1.0)):
            v = np.where(keep, np.log(flat + z) - np.log(o + z), 0.0)
            tab[:, r * K:(r + 1) * K] = v.T
            init[r * K:(r + 1) * K] = np.log(n_c + z)
        for r, t in enumerate((-0.5, 0.5)):
            v = np.where(keep, xlog1py(flat, t / (flat + 0.5)) - xlog1py(o, t / (o + 0.5)), 0.0)
            tab[:, (3 + r) * K:(4 + r) * K] = v.T
            init[(3 + r) * K:(4 + r) * K] = xlog1py(n_c, t / (n_c + 0.5))
    vals = np.abs(np.concatenate([tab.ravel(), init]))
    scale = float(vals[np.isfinite(vals)].max(initial=0.0))
    return init, _joint_tables(tab, np.diff(offsets)), K, scale


def _lncc_end_apply(tables, codes):
    """:func:`_lncc_end_terms` of ``codes`` from :func:`_lncc_end_tables`."""
    init, joint, K, scale = tables
    acc = _joint_sum(init, joint, codes)
    return acc.reshape(codes.shape[0], 5, K).transpose(1, 0, 2), scale


def _lncc_certify(terms, scale, m, log_alpha, a_idx, b_idx, rows):
    """Dominance decisions of LNCC pairs ``(a, b)`` of ``rows`` at one level, from bounds.

    With ``La = sup l_d P(a)`` and ``Lb = sup l_d P(b)`` the likelihoods with the
    instance given class ``a`` or ``b`` (maximum-likelihood values, in closed form:
    ``La = l'(1) l''(0) p'(1)``), the profile satisfies ``L(1) >= La``,
    ``L(0) >= Lb`` and ``sup L <= La + Lb``; on the side ``P(a) <= P(b)``,
    ``l_d (P(a) + P(b)) <= Lb + min(La, Lb)`` (and symmetrically).  Hence
    ``alpha*`` of ``a`` over ``b`` lies below ``(Lb + min(La, Lb)) / max L(x_i)``
    and above ``max_{x_i <= x0} L(x_i) / (La + Lb)`` for the points
    ``x_i = 0, 1/2, 1``, whose side of ``x0`` is read off the sign of ``ln g``.
    Since ``max(alpha*_ab, alpha*_ba) = 1``, a certified dominance of one direction
    certifies the other's absence.  A decision is taken only when a bound clears
    ``ln alpha`` (shifted by ``_LOG_TIE``) by a margin far above the rounding of
    these sums and of the exact thresholds, so it is the exact decision.

    Returns
    -------
    fwd, rev : ndarray of int8
        For ``a`` over ``b`` and ``b`` over ``a``: 1 dominance, -1 none, 0 undecided.
    bounds : ndarray, shape (4, len(rows))
        ``ln g(0)``, ``ln g(1)``, and the lower and upper bounds on ``ln sup L``
        (for :func:`_lncc_certify_outside`).
    tol : float
        The rounding margin used.
    """
    pa, pb = terms[:, rows, a_idx], terms[:, rows, b_idx]
    tol = 1e-10 * (m + 4) * max(scale, 1.0)
    with np.errstate(invalid="ignore"):
        base1 = pa[4] + pb[3]  # ln l'(1) + ln l''(0)
        base0 = pa[3] + pb[4]
        LA, LB = base1 + pa[2], base0 + pb[2]
        L1 = base1 + np.logaddexp(pa[2], pb[0])
        L0 = base0 + np.logaddexp(pa[0], pb[2])
        Lh = np.logaddexp(pa[1], pb[1])  # ln l(1/2) = 0 by construction
        g1, g0, gh = pa[2] - pb[0], pa[0] - pb[2], pa[1] - pb[1]
        top_lo = np.fmax(np.fmax(L0, L1), Lh)
        top_hi = np.logaddexp(LA, LB)
        small = np.fmin(LA, LB)
        ub_f = np.logaddexp(LB, small) - top_lo
        ub_r = np.logaddexp(LA, small) - top_lo
        lb_f = np.fmax(np.fmax(np.where(g0 < -tol, L0, -np.inf), np.where(g1 < -tol, L1, -np.inf)),
                       np.where(gh < -tol, Lh, -np.inf)) - top_hi
        lb_r = np.fmax(np.fmax(np.where(g0 > tol, L0, -np.inf), np.where(g1 > tol, L1, -np.inf)),
                       np.where(gh > tol, Lh, -np.inf)) - top_hi
        thr = log_alpha - _LOG_TIE  # dominance iff ln alpha* < thr
        dom_f, dom_r = ub_f < thr - tol, ub_r < thr - tol
        no_f = (lb_f > thr + tol) | dom_r
        no_r = (lb_r > thr + tol) | dom_f
    fwd = np.zeros(len(rows), dtype=np.int8)
    rev = np.zeros(len(rows), dtype=np.int8)
    fwd[dom_f], fwd[no_f] = 1, -1
    rev[dom_r], rev[no_r] = 1, -1
    return fwd, rev, np.stack([g0, g1, top_lo, top_hi]), tol


def _lncc_certify_outside(pairs, g0, g1, top_lo, top_hi, log_alpha, tol):
    """Decide ``a`` over ``b`` at one level for pairs whose ``x0`` lies left of 0.

    With ``ln g(0) > 0`` the root ``x0`` of ``g = 1`` is negative; ``L`` increases
    on ``x <= 0``, so ``sup_{x <= x0} L = L(x0)`` and ``alpha* = L(x0) / sup L``,
    where ``sup L`` (reached in ``[0, 1]``) lies between the bounds ``top_lo`` and
    ``top_hi`` of :func:`_lncc_certify`.  ``x0`` is found by Newton and then
    bracketed, ``x_l <= x0 <= x_h <= 0`` with ``ln g(x_l) < 0 < ln g(x_h)`` by the
    margin ``tol``, so ``L(x_l) <= L(x0) <= L(x_h)`` whatever the rounding of
    ``x0`` (in this computation or in the exact one).  The bracket's half-width is
    chosen from the slope of ``ln g`` so that the margin is met.  In the other
    direction ``alpha* = 1`` (``L(x0) < L(0)``): never a dominance.  A pair whose
    ``x0`` exceeds 1 is the mirror image: pass it with its classes swapped.

    Parameters
    ----------
    pairs : _LnccPairs
        ``q`` problems; ``a`` is the class that may dominate.
    g0, g1 : ndarray, shape (q,)
        ``ln g(0)`` (above ``tol``) and ``ln g(1)``, from the tables.
    top_lo, top_hi : ndarray, shape (q,)
        Bounds on ``ln sup L``.
    log_alpha, tol : float

    Returns
    -------
    state : ndarray of int8, shape (q,)
        1: ``a`` dominates ``b``; -1: it does not; 0: undecided.
    """
    q = pairs.q
    lo = pairs.x_lo
    every = slice(None)
    with np.errstate(divide="ignore", invalid="ignore"):
        x0 = -g0 / (g1 - g0)  # secant through x = 0 and 1: close to x0 in practice
        x0 = np.where(np.isfinite(x0) & (x0 > lo) & (x0 < 0), x0, 0.5 * lo)
        # x0 need not be accurate, it is bracketed below: a few Newton steps, kept
        # inside (x_lo, 0]; a problem whose estimate is poor fails the bracket test
        for _ in range(3):
            f, df = pairs.log_g(every, x0), pairs.dlog_g(every, x0)
            x1 = np.minimum(x0 - f / df, 0.0)
            x0 = np.where(np.isfinite(x1), np.where(x1 > lo, x1, 0.5 * (x0 + lo)), x0)
        half = np.fmax(4.0 * tol / df, 1e-12 * (1.0 + np.abs(x0)))
        xs = np.stack([x0 - half, np.minimum(x0 + half, 0.0)], axis=1)
        inside = xs[:, 0] > pairs.x_lo
        xs[:, 0] = np.where(inside, xs[:, 0], 0.5 * (pairs.x_lo + x0))  # any point of the domain
        lpa, lpb = pairs.a.lp(every, xs), pairs.b.lp(every, 1.0 - xs)
        t = xs - 0.5
        lL = pairs.a.ll(every, t) + pairs.b.ll(every, -t) + np.logaddexp(lpa, lpb)
    lg = lpa - lpb
    # x_l is left of x0 (or x_l <= x_lo, where g = 0); x_h right of it or at 0
    ok = ((lg[:, 0] < -tol) | ~inside) & ((lg[:, 1] > tol) | (xs[:, 1] == 0.0))
    left_lo = np.where(inside, lL[:, 0], -np.inf)
    left_hi = lL[:, 1]
    thr = log_alpha - _LOG_TIE  # dominance iff ln alpha* < thr
    state = np.zeros(q, dtype=np.int8)
    with np.errstate(invalid="ignore"):
        state[ok & (left_hi - top_lo < thr - tol)] = 1
        state[ok & (left_lo - top_hi > thr + tol)] = -1
    return state


# ---------------------------------------------------------------------------
# prediction on distinct rows
# ---------------------------------------------------------------------------

def _unique_rows(codes, n_values):
    """Distinct rows of a code matrix.

    Parameters
    ----------
    codes : int array, shape (n, m)
        Category codes, -1 = missing.
    n_values : int array, shape (m,)

    Returns
    -------
    rows : ndarray, shape (u, m)
        The distinct rows, in increasing order of their mixed-radix integer key,
        when that key fits in 62 bits; otherwise ``codes`` itself (no search for
        repeats).
    inverse : ndarray of int, shape (n,)
        ``rows[inverse]`` equals ``codes``.
    """
    n, m = codes.shape
    if n < 2 or m == 0:
        inv = np.zeros(n, dtype=np.int64) if m == 0 else np.arange(n)
        return codes[: min(n, 1)] if m == 0 else codes, inv
    radix = np.asarray(n_values, dtype=np.float64) + 1.0
    bits = np.sum(np.log2(radix))
    if bits < 62:
        mult = np.ones(m, dtype=np.int64)
        mult[1:] = np.cumprod(radix[:-1].astype(np.int64))
        key = (codes + 1) @ mult
        if 2.0**bits <= 8 * n + 4096:  # few possible rows: a presence table, O(n)
            present = np.zeros(int(round(2.0**bits)) + 1, dtype=bool)
            present[key] = True
            slot = np.cumsum(present) - 1
            inv = slot[key]
            first = np.empty(int(present.sum()), dtype=np.int64)
            first[inv[::-1]] = np.arange(n - 1, -1, -1)
            return codes[first], inv
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        return codes[first], inv.reshape(-1)
    # too many possible rows for an integer key: repeated rows are then rare, and
    # sorting whole rows would cost more than it saves
    return codes, np.arange(n)


def _check_sample_weight(sample_weight, n):
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"sample_weight must have shape ({n},); got {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must hold finite non-negative numbers")
    with np.errstate(over="ignore"):
        total = w.sum()
    if total <= 0:
        raise ValueError("sample_weight sums to zero: no training data")
    # LNCC's profile likelihood pads unused factors with counts of 1e200 (_PAD)
    if not total < 1e150:
        raise ValueError(f"sample_weight sums to {total:.3g}; weighted counts must stay "
                         "below 1e150 (divide the weights by a constant)")
    return w


# Counting and scoring visit consecutive features in groups whose joint table
# (missing included) times the number of classes has at most this many cells: 1024
# was as fast as 4096 on kr-vs-kp, nursery and adult, with smaller tables (peak of a
# fit + predict on kr-vs-kp 0.14 -> 0.10 MB).
_COUNT_CELLS = 1024


@functools.lru_cache(maxsize=64)
def _count_plan(n_values, K):
    """Feature groups for :meth:`_NaiveCounts._fit_counts` and ``_joint_log_likelihood``.

    Returns a tuple of ``(features, place, start, P, M, rows)`` per group: the row of a
    group's joint table is ``sum_j (code_j + 1) place_j`` (``start = sum place``
    added apart, so the codes need no shift), ``P`` rows; ``M`` (0/1, shape
    (sum_j (n_values[j] + 1), P)) sums joint rows into each feature's table
    (row 0: missing), None for a group of one feature; ``rows`` is the slice of
    those tables in the features' stacked tables.
    """
    r = np.asarray(n_values, np.int64) + 1
    plan, j, row = [], 0, 0
    while j < len(r):
        g, P = [j], int(r[j])
        while j + 1 < len(r) and K * P * r[j + 1] <= _COUNT_CELLS:
            j += 1
            g.append(j)
            P *= int(r[j])
        j += 1
        place = [int(np.prod(r[k + 1:g[-1] + 1])) for k in g]
        p = np.arange(P)
        M = None if len(g) == 1 else np.concatenate(
            [(p // q % r[k] == np.arange(r[k])[:, None]) for k, q in zip(g, place)]).astype(float)
        size = int(r[g].sum())
        plan.append((g, place, sum(place), P, M, slice(row, row + size)))
        row += size
    return tuple(plan)


def _group_keys(codes, plan):
    """Row of each group's joint table, per row of a code matrix or list of columns
    (yielded one group at a time: only one group's keys are held)."""
    matrix = isinstance(codes, np.ndarray)
    n = codes.shape[0] if matrix else len(codes[0])
    for g, place, start, P, *_ in plan:
        dt = np.int16 if P < 2**15 else np.intp  # narrow keys when they fit
        key, term = np.full(n, start, dtype=dt), np.empty(n, dtype=dt)
        for j, q in zip(g, place):  # column by column: two key-sized arrays at most
            np.multiply(codes[:, j] if matrix else codes[j], dt(q), out=term, casting="unsafe")
            key += term
        yield key


class _NaiveCounts(_DerivedTables, BaseClassifier):
    """Shared count tables of the naive classifiers (not public)."""

    def _fit_counts(self, X, y, sample_weight):
        cols, y_idx = check_fit_input(self, X, y, as_columns=True)
        w = _check_sample_weight(sample_weight, len(y_idx))
        K = len(self.classes_)
        nv = np.asarray(self.n_values_, dtype=np.int64)
        m = len(cols)
        off = np.zeros(m + 1, dtype=np.int64)
        off[1:] = np.cumsum(nv)
        self._offsets = off
        self._plan = _count_plan(tuple(nv.tolist()), K)
        # per group one bincount of (joint row, class) keys, summed into each feature's
        # (missing, categories) x class table; unit weights count in integers (exact)
        tabs = []
        for key, (_, _, _, P, M, _) in zip(_group_keys(cols, self._plan), self._plan):
            key = key.astype(np.intp)
            key *= K
            key += y_idx
            jc = np.bincount(key, weights=w, minlength=K * P).reshape(P, K).astype(float)
            tabs.append(jc if M is None else M @ jc)
        tab = np.concatenate(tabs)  # (sum_j (nv_j + 1), K)
        self.class_count_ = tab[:nv[0] + 1].sum(axis=0)
        first = off[:-1] + np.arange(m)  # row of each feature's missing count
        flat = np.ascontiguousarray(np.delete(tab, first, axis=0).T)
        observed = self.class_count_[:, None] - tab[first].T
        # views of the flat table used for prediction (read-only in spirit)
        self.category_count_ = [flat[:, off[j]:off[j + 1]] for j in range(m)]
        self.observed_count_ = observed
        self._flat = flat
        self._reset_derived()  # tables derived from these counts

    def _gather(self, codes):
        """Counts ``n(c, x_ij)``, shape (n, K, m), and the observed mask (n, m)."""
        obs = codes >= 0
        idx = self._offsets[:-1][None, :] + np.where(obs, codes, 0)
        if self._flat.shape[1] == 0:
            return np.zeros((codes.shape[0], len(self.classes_), codes.shape[1])), obs
        cnt = self._flat[:, idx]  # (K, n, m)
        return np.transpose(cnt, (1, 0, 2)), obs

    def _log_tables(self, prior, s):
        """Log class prior (K,) and flat log conditional table (K, sum |F_j|)."""
        K = len(self.classes_)
        nv = np.asarray(self.n_values_, float)
        span = np.repeat(np.arange(len(nv)), np.asarray(self.n_values_, np.int64))
        nvf = nv[span]
        obs = self.observed_count_[:, span]
        N = self.class_count_.sum()
        if prior == "perks":
            lp = np.log(self.class_count_ + s / K) - np.log(N + s)
            lt = np.log(self._flat + s / (K * nvf)) - np.log(obs + s / K)
        else:  # laplace
            lp = np.log(self.class_count_ + s) - np.log(N + s * K)
            lt = np.log(self._flat + s) - np.log(obs + s * nvf)
        return lp, lt

    def _joint_log_likelihood(self, codes, prior, s):
        """Joint log-likelihood (n, K) of a code matrix or a list of code columns."""
        lp, tables = self._derived_tables(("jll", prior, s), lambda: self._jll_tables(prior, s))
        n = codes.shape[0] if isinstance(codes, np.ndarray) else len(codes[0])
        jll = np.broadcast_to(lp, (n, len(lp))).copy()
        for key, tab in zip(_group_keys(codes, self._plan), tables):
            jll += np.take(tab, key, axis=0)
        return jll

    def _jll_tables(self, prior, s):
        """Log prior and, per feature group, the summed log conditionals (P, K) of its
        joint rows (a missing feature adds nothing)."""
        lp, lt = self._log_tables(prior, s)
        pad = np.zeros((lt.shape[1] + len(self._offsets) - 1, lt.shape[0]))
        pad[np.delete(np.arange(len(pad)), self._offsets[:-1] + np.arange(len(self._offsets) - 1))] = lt.T
        return lp, [pad[rows] if M is None else M.T @ pad[rows] for *_, M, rows in self._plan]

    def _chunks(self, n, per_row):
        step = max(1, int(_CHUNK_ELEMENTS // max(per_row, 1)))
        for start in range(0, n, step):
            yield slice(start, min(n, start + step))


def _check_prior(prior):
    if prior not in ("perks", "laplace"):
        raise ValueError(f"prior must be 'perks' or 'laplace'; got {prior!r}")


class NaiveBayes(PreciseMixin, _NaiveCounts):
    """Naive Bayes classifier with a Dirichlet prior (Bayesian NBC).

    Parameters
    ----------
    prior : {"perks", "laplace"}, default "perks"
        ``"perks"``: Walley's parametrisation with ``t(c) = 1/|C|`` and
        ``t(c, f_j) = 1/(|C||F_j|)`` (eqs. 2-3 of Antonucci et al. 2011; BDe
        with equivalent sample size ``s``).  ``"laplace"``: ``s`` added to every
        cell, ``P(c) = (n(c) + s)/(N + s|C|)`` and ``P(f|c) = (n(c,f) + s)/(n_j(c)
        + s|F_j|)``; with ``s = 1`` this is the estimator of JNCC2 and Weka.
    s : float, default 1.0
        Prior strength (> 0).

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
    n_values_ : ndarray of int, shape (n_features,)
    class_count_ : ndarray, shape (n_classes,)
        Weighted training rows per class.
    category_count_ : list of ndarray, shape (n_classes, n_values_[j])
        Rows per class and category of each feature (missing entries skipped).
    observed_count_ : ndarray, shape (n_classes, n_features)
        Rows per class where each feature is observed.

    Notes
    -----
    Missing training entries are skipped (each conditional table uses the rows
    where its feature is observed); a missing test entry drops out of the
    product.  All computations are in log space.
    """

    _as_columns = True

    def __init__(self, prior="perks", s=1.0):
        self.prior = prior
        self.s = s

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables.

        Parameters
        ----------
        X : int array (n_samples, n_features), -1 = missing, or DataFrame of categoricals
        y : array-like, shape (n_samples,)
        sample_weight : array-like, shape (n_samples,), optional
            Non-negative row weights (a weight of 2 counts a row twice).

        Returns
        -------
        self
        """
        _check_prior(self.prior)
        check_positive("s", self.s)
        self._fit_counts(X, y, sample_weight)
        return self

    def _scores(self, codes):
        return self._joint_log_likelihood(codes, self.prior, float(self.s))

    def _log_proba(self, codes):
        jll = self._scores(codes)
        top = jll.max(axis=1, keepdims=True)
        return jll - (top + np.log(np.exp(jll - top).sum(axis=1, keepdims=True)))


class _CredalNaive(CredalMixin, _NaiveCounts):
    """Common prediction code of NCC and LNCC."""

    def _pair_index(self, ordered=True):
        K = len(self.classes_)
        if ordered:
            return np.nonzero(~np.eye(K, dtype=bool))
        return np.triu_indices(K, 1)

    def _pair_arrays(self, codes, ordered=True):
        """Per (row, class pair) counts, flattened to problems (row-major)."""
        cnt, obs = self._gather(codes)
        a, b = self._pair_index(ordered)
        B, m = codes.shape
        P = a.size
        n1 = np.broadcast_to(self.class_count_[a], (B, P)).reshape(-1)
        n2 = np.broadcast_to(self.class_count_[b], (B, P)).reshape(-1)
        n1j = cnt[:, a, :].reshape(B * P, m)
        n2j = cnt[:, b, :].reshape(B * P, m)
        o1j = np.broadcast_to(self.observed_count_[a], (B, P, m)).reshape(B * P, m)
        o2j = np.broadcast_to(self.observed_count_[b], (B, P, m)).reshape(B * P, m)
        mask = np.broadcast_to(obs[:, None, :], (B, P, m)).reshape(B * P, m)
        return n1, n2, n1j, n2j, o1j, o2j, mask

    def _pair_matrix(self, values, B, fill, values_rev=None):
        K = len(self.classes_)
        out = np.full((B, K, K), fill, dtype=float)
        a, b = self._pair_index(values_rev is None)
        out[:, a, b] = values.reshape(B, a.size)
        if values_rev is not None:
            out[:, b, a] = values_rev.reshape(B, a.size)
        return out

    def _scores(self, codes):
        """The counterpart: the Perks naive Bayes (``predict`` is its best class in the
        set; for NCC always its overall choice)."""
        return self._joint_log_likelihood(codes, "perks", self._nbc_s())

    def _sets(self, codes):
        # one computation per distinct row
        rows, inv = _unique_rows(codes, self.n_values_)
        return self._predict_set_codes(rows)[inv]


class NCC(_CredalNaive):
    """Naive credal classifier (IDM), optionally epsilon-contaminated (NCC-eps).

    Parameters
    ----------
    s : float, default 1.0
        Equivalent sample size of the imprecise Dirichlet model (> 0).
    epsilon : float, default 0.0
        Contamination in ``[0, 1]``: the prior proportions are ``(1 - eps) t0 +
        eps u`` with ``t0`` free and ``u`` the Perks proportions.  0 is the NCC,
        1 the Perks naive Bayes (the set is then its most probable classes).
    epsilon_model : {"contamination", "simple"}, default "contamination"
        ``"simple"`` is the NCC-eps of Weka's imprecise-probability plugin (for
        conformance): ``s t(c'')`` ranges over ``[s eps, s (1 - eps)]``, ``t(c') = 1 -
        t(c'')``, and each feature count of ``c'`` gets ``+ s eps``; ``epsilon`` is then
        in ``[0, 0.5]``.  That model is not a set of naive Bayes models containing the
        Perks one: ``predict_set`` tests every ordered pair, and ``predict`` (the naive
        Bayes's best class inside the set) may differ from the naive Bayes.

    Attributes
    ----------
    classes_, n_values_, class_count_, category_count_, observed_count_
        As in :class:`NaiveBayes`.

    Notes
    -----
    ``predict_set`` applies maximality with the exact pairwise dominance test
    described in the module docstring (minimum of a strictly convex function of
    one variable, solved for all rows and class pairs at once).  Classes are
    visited in the order of the Perks naive Bayes and each is tested only
    against the maximal classes found before it, which gives the same set as
    testing every ordered pair (:meth:`dominance_log_ratio`) because dominance
    is a strict partial order that the naive Bayes ranking extends.  Most tests
    are decided without iterating: the objective's end values and tangents,
    gathered from per-(class, category) tables, bound its minimum from above
    and below (:func:`_ncc_certify`); only pairs whose bounds straddle zero
    (up to a rounding margin) go to the Newton minimisation.
    ``predict`` returns the choice of ``NaiveBayes(prior="perks", s=s)``, which is
    always in the set (contamination model).  Missing values follow JNCC2's missing-at-random
    convention.
    """


    def __init__(self, s=1.0, epsilon=0.0, epsilon_model="contamination"):
        self.s = s
        self.epsilon = epsilon
        self.epsilon_model = epsilon_model

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables; see :meth:`NaiveBayes.fit`.  Returns self."""
        check_positive("s", self.s)
        if (model := self.epsilon_model) not in ("contamination", "simple"):
            raise ValueError(f"epsilon_model must be 'contamination' or 'simple'; got {model!r}")
        check_in_range("epsilon", self.epsilon, 0.0, 0.5 if model == "simple" else 1.0)
        self._fit_counts(X, y, sample_weight)
        return self

    def _nbc_s(self):
        return float(self.s)

    def _log_ratio_codes(self, codes):
        K = len(self.classes_)
        B, m = codes.shape
        out = np.zeros((B, K, K))
        if K < 2:
            return out
        P = K * (K - 1)
        for sl in self._chunks(B, P * max(m, 1) * 8):
            n1, n2, n1j, n2j, o1j, o2j, mask = self._pair_arrays(codes[sl])
            v, _ = _ncc_log_infimum(
                n1, n2, n1j, n2j, o1j, o2j, mask, self.n_values_, float(self.s),
                float(self.epsilon), K, self.epsilon_model,
            )
            out[sl] = self._pair_matrix(v, sl.stop - sl.start, 0.0)
        return out

    def dominance_log_ratio(self, X):
        """Log of the lower dominance ratio of every ordered class pair.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes, n_classes)
            ``[i, a, b] = ln inf_t P_t(a, x_i)/P_t(b, x_i)`` (``-inf`` for an
            infimum of 0; 0 on the diagonal).  Class ``a`` dominates ``b`` iff
            the entry exceeds ``1e-11``: a margin for rounding, so that an
            infimum ratio of exactly 1 (no dominance) computed as ``1 + 4e-16``
            does not count, whatever the order of the features.
        """
        codes = self._predict_input(X)
        return self._log_ratio_codes(codes)

    def _exact_dominates(self, codes, rows, a, b):
        """``a`` dominates ``b`` on ``codes[rows]``, by the exact minimisation."""
        K = len(self.classes_)
        m = codes.shape[1]
        out = np.zeros(rows.size, dtype=bool)
        for sl in self._chunks(rows.size, max(m, 1) * 16):
            r, aa, bb = rows[sl], a[sl], b[sl]
            cnt, obs = self._gather(codes[r])
            k = np.arange(r.size)
            v, _ = _ncc_log_infimum(
                self.class_count_[aa], self.class_count_[bb], cnt[k, aa], cnt[k, bb],
                self.observed_count_[aa], self.observed_count_[bb], obs,
                self.n_values_, float(self.s), float(self.epsilon), K, self.epsilon_model,
            )
            out[sl] = v > _LOG_TIE  # an infimum ratio of 1 up to rounding: no dominance
        return out

    def _predict_set_codes(self, codes, jll=None):
        """Maximal classes, testing only the dominators that can matter.

        Dominance is a strict partial order here and the Perks naive Bayes is
        one of the models, so a dominated class is dominated by a maximal class
        that the NBC ranks higher.  Classes are visited in NBC order; each is
        tested only against the maximal classes found before it (``K - 1``
        tests for a determinate row instead of ``K (K - 1)``).
        """
        K = len(self.classes_)
        B, m = codes.shape
        out = np.ones((B, K), dtype=bool)
        if K < 2 or B == 0:
            return out
        if self.epsilon_model == "simple":  # not ordered by the naive Bayes: every pair
            out = ~np.any(self._log_ratio_codes(codes) > _LOG_TIE, axis=1)
            return out | ~out.any(axis=1, keepdims=True)  # a dominance cycle: vacuous
        s, eps = float(self.s), float(self.epsilon)
        lt = None if jll is not None else self._log_tables("perks", s)
        if _CERTIFY:
            tables = self._derived_tables(
                ("ncc-end", s, eps, lt is not None),
                lambda: _ncc_end_tables(self.class_count_, self._flat, self.observed_count_,
                                        self.n_values_, s, eps, lt))
        for sl in self._chunks(B, 10 * K + m):
            c = codes[sl]
            if _CERTIFY:
                terms, zero, scale, jl = _ncc_end_apply(tables, c)
            else:
                jl = None if lt is None else self._joint_log_likelihood(c, "perks", s)
            o = np.argsort(-(jll[sl] if jl is None else jl), axis=1, kind="stable")
            nb = o.shape[0]
            idx = np.arange(nb)
            maximal = np.zeros((nb, K), dtype=bool)
            maximal[idx, o[:, 0]] = True
            for r in range(1, K):
                b = o[:, r]
                rows, a = np.nonzero(maximal)
                dominated = np.zeros(nb, dtype=bool)
                if _CERTIFY:
                    state = _ncc_certify(terms, zero, scale, m, (1.0 - eps) * s,
                                         a, b[rows], rows)
                    dominated[rows[state == 1]] = True
                    # exact minimisation only where no certificate decided and the
                    # row is not already dominated
                    keep = (state == 0) & ~dominated[rows]
                    rows, a = rows[keep], a[keep]
                if rows.size:
                    np.logical_or.at(dominated, rows, self._exact_dominates(c, rows, a, b[rows]))
                maximal[idx[~dominated], b[~dominated]] = True
            out[sl] = maximal
        return out


class LNCC(_CredalNaive):
    """Likelihood-based naive credal classifier (Antonucci, Cattaneo & Corani).

    Parameters
    ----------
    alpha : float, default 0.75
        Relative likelihood threshold in ``[0, 1]``: the naive models kept are
        those whose likelihood (training data plus the instance to classify, its
        class missing) is at least ``alpha`` times the maximum.  Larger ``alpha``
        gives smaller sets; ``alpha = 0`` returns every class.
    grid : int or None, default None
        None decides each dominance test exactly (see the module docstring).  An
        integer ``>= 2`` uses the paper's method instead: the profile likelihood
        on that many equally spaced points (the paper used 250).

    Attributes
    ----------
    classes_, n_values_, class_count_, category_count_, observed_count_
        As in :class:`NaiveBayes`.

    Notes
    -----
    Dominance of ``c'`` over ``c''`` is decided by the threshold
    ``alpha* = sup_{g <= 1} L / sup L`` of the pair's profile likelihood (Theorems
    1-2 of the paper; ``c'`` dominates iff ``alpha > alpha*``), available from
    :meth:`dominance_threshold`.  With more than two classes every ordered pair
    is tested with the pair's own likelihood (the instance's class restricted to
    the pair, as in the paper's Section 4) and the set is the union of the
    source components of the dominance graph, which is the set of undominated
    classes whenever dominance has no cycle.  Incomplete training data use the
    available-case likelihood (MAR), in which Theorems 1-2 hold with ``n(c)``
    replaced by ``n_j(c)`` in the factors of feature ``j``.  ``predict`` returns the
    class that the Perks naive Bayes (``s = 1``) ranks first among the set.

    ``predict_set`` computes ``alpha*`` only where it matters: most pairs are
    decided at the given ``alpha`` by bounds on ``alpha*`` from the likelihoods
    with the instance's class set to either class (:func:`_lncc_certify`, cheap
    table gathers); of the pairs left open, those whose ``x0`` lies outside
    ``[0, 1]`` (so that ``sup_{x <= x0} L = L(x0)``) are decided from ``L`` at a
    certified bracket of ``x0`` (:func:`_lncc_certify_outside`); the thresholds
    computed for the others are remembered for later calls at other levels.
    """


    def __init__(self, alpha=0.75, grid=None):
        self.alpha = alpha
        self.grid = grid

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables; see :meth:`NaiveBayes.fit`.  Returns self."""
        check_in_range("alpha", self.alpha, 0.0, 1.0)
        if self.grid is not None and (
            isinstance(self.grid, bool) or not isinstance(self.grid, numbers.Integral)
            or self.grid < 2
        ):
            raise ValueError(f"grid must be None or an integer >= 2; got {self.grid!r}")
        self._fit_counts(X, y, sample_weight)
        return self

    def _nbc_s(self):
        return 1.0

    def _pair_counts(self, codes, rows, a, b):
        """Arguments ``(n1, n1j, o1j, n2, n2j, o2j, mask)`` of the LNCC problems
        ``a`` vs ``b`` on ``codes[rows]`` (see :class:`_LnccPairs`)."""
        cnt, obs = self._gather(codes[rows])
        k = np.arange(rows.size)
        cc, oc = self.class_count_, self.observed_count_
        return cc[a], cnt[k, a], oc[a], cc[b], cnt[k, b], oc[b], obs

    def _exact_log_threshold(self, codes, rows, a, b):
        """``ln alpha*`` of ``a`` over ``b`` and of ``b`` over ``a`` on ``codes[rows]``."""
        m = codes.shape[1]
        fwd, rev = np.empty(rows.size), np.empty(rows.size)
        for sl in self._chunks(rows.size, (2 * m + 2) * (_N_CELLS + 1)):
            fwd[sl], rev[sl] = _lncc_log_threshold(*self._pair_counts(codes, rows[sl], a[sl],
                                                                      b[sl]))
        return fwd, rev

    def _outside_states(self, codes, rows, a, b, swap, bounds, tol, log_alpha):
        """:func:`_lncc_certify_outside` on pairs ``(a, b)`` of ``codes[rows]``.

        ``swap`` marks pairs with ``x0 > 1``: they are decided as ``(b, a)``, the
        mirror image (``ln g(0)`` and ``ln g(1)`` swap and change sign).
        """
        m = codes.shape[1]
        first, second = np.where(swap, b, a), np.where(swap, a, b)
        g0 = np.where(swap, -bounds[1], bounds[0])
        g1 = np.where(swap, -bounds[0], bounds[1])
        out = np.zeros(rows.size, dtype=np.int8)
        for sl in self._chunks(rows.size, 8 * (m + 1)):
            pairs = _LnccPairs(*self._pair_counts(codes, rows[sl], first[sl], second[sl]))
            out[sl] = _lncc_certify_outside(pairs, g0[sl], g1[sl], bounds[2, sl],
                                            bounds[3, sl], log_alpha, tol[sl].max())
        return out

    def _dominance_codes(self, codes):
        """Dominance matrix (B, K, K) at level ``alpha``, diagonal False.

        Exact path (``grid=None``): most pairs are decided by the bounds of
        :func:`_lncc_certify`, then, where ``x0`` lies outside ``[0, 1]``, by
        :func:`_lncc_certify_outside`; ``alpha*`` is computed only for the others.
        """
        with np.errstate(divide="ignore"):
            la = np.log(float(self.alpha))
        K = len(self.classes_)
        B, m = codes.shape
        if self.grid is not None or K < 2 or B == 0:
            lt = self._compute_log_threshold(codes)
            return (la > lt + _LOG_TIE) & ~np.eye(K, dtype=bool)
        dom = np.zeros((B, K, K), dtype=bool)
        a, b = self._pair_index(ordered=False)
        P = a.size
        thr = np.full((B, K, K), np.nan)
        thr[:, np.arange(K), np.arange(K)] = 0.0
        todo = []
        tables = self._derived_tables(
            "lncc-end", lambda: _lncc_end_tables(self.class_count_, self._flat,
                                                 self.observed_count_, self._offsets))
        for sl in self._chunks(B, P * 64 + 5 * K):
            terms, scale = _lncc_end_apply(tables, codes[sl])
            nb = sl.stop - sl.start
            rows = np.repeat(np.arange(nb), P)
            aa, bb = np.tile(a, nb), np.tile(b, nb)
            fwd, rev, bounds, tol = _lncc_certify(terms, scale, m, la, aa, bb, rows)
            rows = rows + sl.start
            dom[rows[fwd == 1], aa[fwd == 1], bb[fwd == 1]] = True
            dom[rows[rev == 1], bb[rev == 1], aa[rev == 1]] = True
            und = (fwd == 0) | (rev == 0)
            todo.append((rows[und], aa[und], bb[und], fwd[und], rev[und], bounds[:, und],
                         np.full(und.sum(), tol)))
        r, aa, bb, fwd, rev, bounds, tol = (np.concatenate(v, axis=-1) for v in zip(*todo))
        new = np.isnan(thr[r, aa, bb])
        # second stage, for pairs whose x0 lies outside [0, 1]: alpha* from L(x0)
        g0, g1 = bounds[0], bounds[1]
        left = new & (g0 > tol)  # x0 < 0: a may dominate b, b never dominates a
        right = new & (g1 < -tol)  # x0 > 1: the mirror image
        go = np.nonzero((left & (fwd == 0)) | (right & (rev == 0)))[0]
        if go.size:
            st = self._outside_states(codes, r[go], aa[go], bb[go], right[go],
                                      bounds[:, go], tol[go], la)
            fwd[go[left[go]]] = st[left[go]]
            rev[go[right[go]]] = st[right[go]]
        rev[left & (rev == 0)] = -1
        fwd[right & (fwd == 0)] = -1
        dom[r[fwd == 1], aa[fwd == 1], bb[fwd == 1]] = True
        dom[r[rev == 1], bb[rev == 1], aa[rev == 1]] = True
        new &= (fwd == 0) | (rev == 0)
        if new.any():
            f, v = self._exact_log_threshold(codes, r[new], aa[new], bb[new])
            thr[r[new], aa[new], bb[new]] = f
            thr[r[new], bb[new], aa[new]] = v
        # undecided directions from the exact thresholds, as the full computation decides
        d = la > thr[r, aa, bb] + _LOG_TIE
        dom[r, aa, bb] = np.where(fwd == 0, d, fwd == 1)
        d = la > thr[r, bb, aa] + _LOG_TIE
        dom[r, bb, aa] = np.where(rev == 0, d, rev == 1)
        return dom

    def _compute_log_threshold(self, codes):
        K = len(self.classes_)
        B, m = codes.shape
        out = np.zeros((B, K, K))
        if K < 2:
            return out
        P = K * (K - 1) // 2  # both directions of a pair come from one profile
        width = self.grid if self.grid is not None else _N_CELLS + 1
        for sl in self._chunks(B, P * (2 * m + 2) * width):
            n1, n2, n1j, n2j, o1j, o2j, mask = self._pair_arrays(codes[sl], ordered=False)
            v, v_rev = _lncc_log_threshold(n1, n1j, o1j, n2, n2j, o2j, mask, grid=self.grid)
            out[sl] = self._pair_matrix(v, sl.stop - sl.start, 0.0, v_rev)
        return out

    def dominance_threshold(self, X):
        """Likelihood level above which each ordered class pair is a dominance.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes, n_classes)
            ``[i, a, b] = alpha*``: class ``a`` dominates ``b`` on row ``i`` iff
            ``alpha > alpha*`` (1 on the diagonal).
        """
        codes = self._predict_input(X)
        rows, inv = _unique_rows(codes, self.n_values_)
        return np.exp(self._compute_log_threshold(rows))[inv]

    def _predict_set_codes(self, codes, jll=None):
        dom = self._dominance_codes(codes)
        K = dom.shape[1]
        # transitive closure (repeated squaring) to find the source components
        reach = dom.copy()
        for _ in range(int(np.ceil(np.log2(max(K, 2))))):
            r8 = reach.astype(np.uint8)
            reach |= (r8 @ r8) > 0
        return ~np.any(reach & ~np.transpose(reach, (0, 2, 1)), axis=1)
