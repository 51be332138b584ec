"""LNCC dominance: the profile likelihood of a class pair and its exact threshold.

The likelihood-based naive credal classifier (Antonucci, Cattaneo & Corani) restricts the class of
the instance to a pair ``(c', c'')`` and profiles the likelihood ``L`` of the naive models over the
share ``x`` of ``c'``; ``g(x)`` is the ratio of the two classes' probabilities of the instance.
``c'`` dominates ``c''`` at level ``alpha`` iff ``alpha > alpha* = sup_{g <= 1} L / sup L``
(Theorems 1-2 of the paper). :class:`LnccPairs` computes ``alpha*`` exactly for many pairs at once
(the local maxima of ``L`` by certified cell splitting, then Newton,
:func:`credal.dominance.newton_increasing`); :func:`lncc_certify` and :func:`lncc_certify_outside`
decide most pairs at a given ``alpha`` from bounds gathered from per-(class, category) tables
(:func:`lncc_end_tables`, :func:`lncc_end_apply`). :class:`credal.naive.LNCC` runs these on its
fitted count tables; the derivation is in the book's Algorithms appendix.
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlog1py

from ._tables import joint_sum, joint_tables
from .dominance import LOG_TIE, newton_increasing

__all__ = ["N_CELLS", "LnccPairs", "lncc_log_threshold", "lncc_end_terms", "lncc_end_tables",
           "lncc_end_apply", "lncc_certify", "lncc_certify_outside"]

#: Cells that ``[0, 1]`` starts as in :meth:`LnccPairs.local_maxima` (its work per
#: problem is proportional to ``N_CELLS + 1``).
N_CELLS = 8
# A cell still uncertified after _MAX_DEPTH bisections (width 2^-33) adds its end
# points to the candidate maxima instead (ln L is Lipschitz on [0, 1], so at most a
# negligible error; never observed in the tests).
_MAX_DEPTH = 30
# The open cells number at most _MAX_CELLS per problem on average.
_MAX_CELLS = 64
_FLAT_ERROR = ("LNCC cannot certify the dominance thresholds: the profile likelihood is flat to "
               "within rounding, as with sample_weight far below 1 per row; use larger weights")

# Placeholder count for features that do not contribute: ln(PAD + z) - ln(PAD + z)
# and its derivative vanish exactly for every z of interest.
_PAD = 1e200


def _xlog1py(c, u):
    """``c log1p(u)``, 0 where ``c = 0`` (scipy's ``xlog1py``; numpy's log1p is faster)."""
    return np.where(c == 0, 0.0, c * np.log1p(u))


class _Side:
    """Counts of one class of an LNCC pair, as functions of its share ``z``.
    ``z = x`` for ``c'`` and ``z = 1 - x`` for ``c''``. Arrays have shape (q,) for the class count
    and (q, m) for the feature counts; ``k`` marks the features that contribute (observed, with
    ``n_j != n_oj``); the others are replaced by the neutral pair ``(_PAD, _PAD)``.
    ``d/dz [ln p(z) - ln z] = sum_g W_g / (C_g + z)`` is also kept with equal poles merged, split
    into its decreasing part ``(Wp, Cp)`` (``W > 0``) and its increasing part ``(Wn, Cn)``
    (``W < 0``). Merging makes the singular terms at ``z = 0`` cancel exactly, which the cell
    certification relies on."""

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
        ``sel`` is an index array or, for all problems, ``slice(None)`` (a view)."""
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
                1.0 / (self.nj[sel] + zz) - 1.0 / (self.oj[sel] + zz), axis=1)

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


class LnccPairs:
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
        return (self.a.ll(sel, t) + self.b.ll(sel, -t) + np.logaddexp(self.a.lp(sel, x),
                                                                      self.b.lp(sel, 1.0 - x)))

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
        def fun(sel, xs):
            return self.log_g(sel, xs), self.dlog_g(sel, xs)

        return newton_increasing(fun, self.x_lo.copy(), self.x_hi.copy(), np.full(self.q, 0.5))

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
        q, G = self.q, N_CELLS
        grid = np.arange(G + 1) / G
        flat = ~np.any(self.a.W != 0, axis=1) & ~np.any(self.b.W != 0, axis=1)
        live = np.nonzero(~flat)[0]
        ql = live.size
        vals = self.point(slice(None) if ql == q else live,
                          np.broadcast_to(grid, (ql, G + 1)))  # (5, ql, G+1)
        cq = np.repeat(live, G)
        x1, x2 = np.tile(grid[:-1], ql), np.tile(grid[1:], ql)
        v1, v2 = vals[:, :, :-1].reshape(5, -1), vals[:, :, 1:].reshape(5, -1)
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
                raise ValueError(_FLAT_ERROR)
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

            xs = newton_increasing(fun, lo, hi, x)
        prob = np.concatenate([rp] + extra_p).astype(int)
        xs = np.concatenate([xs] + extra_x)
        return prob, xs, flat

    def log_threshold(self):
        """``ln alpha*`` of both directions of each pair.

        The pair ``(c'', c')`` has the same profile likelihood mirrored (``x -> 1 - x``), so its
        threshold is the supremum on the other side of ``x0``.

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
        idx = np.arange(self.q)
        u = np.linspace(0.0, 1.0, n_points)
        x = self.x_lo[:, None] + (self.x_hi - self.x_lo)[:, None] * u[None, :]
        x[:, 0], x[:, -1] = self.x_lo, self.x_hi
        lL, lg = self.log_L(idx, x), self.log_g(idx, x)
        top = lL.max(axis=1)
        below = np.where(lg <= 0, lL, -np.inf).max(axis=1)
        above = np.where(lg >= 0, lL, -np.inf).max(axis=1)
        return below - top, above - top


def lncc_log_threshold(n1, n1j, o1j, n2, n2j, o2j, mask, grid=None):
    """``ln alpha*`` of LNCC dominance problems (see :class:`credal.naive.LNCC`).

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
    if grid is not None:
        return LnccPairs(n1, n1j, o1j, n2, n2j, o2j, mask).log_threshold_grid(grid)
    from ._compiled_likelihood import log_thresholds  # LnccPairs.log_threshold, compiled
    f = [np.ascontiguousarray(v, dtype=float) for v in (n1, n1j, o1j, n2, n2j, o2j)]
    fwd, rev, status = log_thresholds(*f, np.ascontiguousarray(mask, dtype=bool), N_CELLS,
                                      _MAX_DEPTH, _MAX_CELLS * f[0].shape[0] + 4096)
    if status < 0:
        raise ValueError(_FLAT_ERROR)
    return fwd, rev


def lncc_end_terms(class_count, flat, observed, offsets, codes):
    """Per row and class, ``ln p`` at ``z = 0, 1/2, 1`` and ``ln l`` at ``z = 0, 1``.

    Each is a sum of one term per class and per observed feature, so, as in :func:`ncc_end_terms`,
    the terms come from per-(class, category) tables gathered once per row. ``ln l(z)`` is written
    as in :meth:`_Side.ll` (relative to ``z = 1/2``); factors with ``n_j = n_oj`` are exactly 0.

    This is :func:`lncc_end_tables` (built once per fitted model) followed by
    :func:`lncc_end_apply`.

    Returns
    -------
    terms : ndarray, shape (5, n, K)
        ``ln p(0), ln p(1/2), ln p(1), ln l(0), ln l(1)``.
    scale : float
        Upper bound on the absolute value of any finite table entry.
    """
    return lncc_end_apply(lncc_end_tables(class_count, flat, observed, offsets), codes)


def lncc_end_tables(class_count, flat, observed, offsets):
    """The per-cell tables of :func:`lncc_end_terms`, grouped: ``(init,
    joint_tables, K, scale)`` for :func:`lncc_end_apply`."""
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
    return init, joint_tables(tab, np.diff(offsets)), K, scale


def lncc_end_apply(tables, codes):
    """:func:`lncc_end_terms` of ``codes`` from :func:`lncc_end_tables`."""
    init, joint, K, scale = tables
    acc = joint_sum(init, joint, codes)
    return acc.reshape(codes.shape[0], 5, K).transpose(1, 0, 2), scale


def lncc_certify(terms, scale, m, log_alpha, a_idx, b_idx, rows):
    """Dominance decisions of LNCC pairs ``(a, b)`` of ``rows`` at one level, from bounds.

    With ``La = sup l_d P(a)`` and ``Lb = sup l_d P(b)`` the likelihoods with the instance given
    class ``a`` or ``b`` (maximum-likelihood values, in closed form: ``La = l'(1) l''(0) p'(1)``),
    the profile satisfies ``L(1) >= La``, ``L(0) >= Lb`` and ``sup L <= La + Lb``; on the side
    ``P(a) <= P(b)``, ``l_d (P(a) + P(b)) <= Lb + min(La, Lb)`` (and symmetrically). Hence
    ``alpha*`` of ``a`` over ``b`` lies below ``(Lb + min(La, Lb)) / max L(x_i)`` and above
    ``max_{x_i <= x0} L(x_i) / (La + Lb)`` for the points ``x_i = 0, 1/2, 1``, whose side of ``x0``
    is read off the sign of ``ln g``. Since ``max(alpha*_ab, alpha*_ba) = 1``, a certified
    dominance of one direction certifies the other's absence. A decision is taken only when a bound
    clears ``ln alpha`` (shifted by ``LOG_TIE``) by a margin far above the rounding of these sums
    and of the exact thresholds, so it is the exact decision.

    Returns
    -------
    fwd, rev : ndarray of int8
        For ``a`` over ``b`` and ``b`` over ``a``: 1 dominance, -1 none, 0 undecided.
    bounds : ndarray, shape (4, len(rows))
        ``ln g(0)``, ``ln g(1)``, and the lower and upper bounds on ``ln sup L``
        (for :func:`lncc_certify_outside`).
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
        thr = log_alpha - LOG_TIE  # dominance iff ln alpha* < thr
        dom_f, dom_r = ub_f < thr - tol, ub_r < thr - tol
        no_f = (lb_f > thr + tol) | dom_r
        no_r = (lb_r > thr + tol) | dom_f
    fwd, rev = np.zeros(len(rows), dtype=np.int8), np.zeros(len(rows), dtype=np.int8)
    fwd[dom_f], fwd[no_f] = 1, -1
    rev[dom_r], rev[no_r] = 1, -1
    return fwd, rev, np.stack([g0, g1, top_lo, top_hi]), tol


def lncc_certify_outside(pairs, g0, g1, top_lo, top_hi, log_alpha, tol):
    """Decide ``a`` over ``b`` at one level for pairs whose ``x0`` lies left of 0.

    With ``ln g(0) > 0`` the root ``x0`` of ``g = 1`` is negative; ``L`` increases on ``x <= 0``,
    so ``sup_{x <= x0} L = L(x0)`` and ``alpha* = L(x0) / sup L``, where ``sup L`` (reached in
    ``[0, 1]``) lies between the bounds ``top_lo`` and ``top_hi`` of :func:`lncc_certify`. ``x0``
    is found by Newton and then bracketed, ``x_l <= x0 <= x_h <= 0`` with
    ``ln g(x_l) < 0 < ln g(x_h)`` by the margin ``tol``, so ``L(x_l) <= L(x0) <= L(x_h)`` whatever
    the rounding of ``x0`` (in this computation or in the exact one). The bracket's half-width is
    chosen from the slope of ``ln g`` so that the margin is met. In the other direction
    ``alpha* = 1`` (``L(x0) < L(0)``): never a dominance. A pair whose ``x0`` exceeds 1 is the
    mirror image: pass it with its classes swapped.

    Parameters
    ----------
    pairs : LnccPairs
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
    lo, every = pairs.x_lo, slice(None)
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
    thr = log_alpha - LOG_TIE  # dominance iff ln alpha* < thr
    state = np.zeros(pairs.q, dtype=np.int8)
    with np.errstate(invalid="ignore"):
        state[ok & (left_hi - top_lo < thr - tol)] = 1
        state[ok & (left_lo - top_hi > thr + tol)] = -1
    return state
