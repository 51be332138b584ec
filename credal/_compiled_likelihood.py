"""Compiled exact LNCC thresholds (:func:`credal.likelihood.lncc_log_threshold`), imported on
first use (see :mod:`credal._compiled`). The same computation as
:meth:`credal.likelihood.LnccPairs.log_threshold` (``x0`` by safeguarded Newton, the local maxima
of ``L`` by certified cell splitting, then Newton), written per problem: the numpy version
vectorises over problems, but a prediction leaves only tens of them open, and then the cost is
numpy's per-call overhead on tiny arrays, repeated for every Newton step and bisection. Only the
rounding of the sums (sequential here, pairwise in numpy) and of the logarithms differs.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["log_thresholds"]

_LOGE2 = math.log(2.0)


@njit(cache=True)
def _nmin(a, b):  # np.minimum: NaN propagates
    return a if (a < b or a != a) else b


@njit(cache=True)
def _nmax(a, b):  # np.maximum
    return a if (a > b or a != a) else b


@njit(cache=True)
def _fmax(a, b):  # np.fmax: NaN ignored
    if b != b:
        return a
    if a != a:
        return b
    return a if a >= b else b


@njit(cache=True, error_model="numpy")
def _logaddexp(x, y):  # numpy's npy_logaddexp
    if x == y:
        return x + _LOGE2
    d = x - y
    if d > 0:
        return x + math.log1p(math.exp(-d))
    if d <= 0:
        return y + math.log1p(math.exp(d))
    return d


@njit(cache=True, error_model="numpy")
def _xlog1p(c, u):
    return 0.0 if c == 0 else c * math.log1p(u)


@njit(cache=True, error_model="numpy")
def _lp(n, nj, oj, z):
    """``ln p(z)`` of one side (``nj``, ``oj``: its contributing features only)."""
    v = 0.0
    for j in range(nj.size):
        v += math.log(nj[j] + z) - math.log(oj[j] + z)
    return math.log(n + z) + v


@njit(cache=True, error_model="numpy")
def _dlp(n, nj, oj, z):
    v = 0.0
    for j in range(nj.size):
        v += 1.0 / (nj[j] + z) - 1.0 / (oj[j] + z)
    return 1.0 / (n + z) + v


@njit(cache=True, error_model="numpy")
def _ll(n, nj, oj, t):
    v = 0.0
    for j in range(nj.size):
        v += _xlog1p(nj[j], t / (nj[j] + 0.5)) - _xlog1p(oj[j], t / (oj[j] + 0.5))
    return _xlog1p(n, t / (n + 0.5)) + v


@njit(cache=True, error_model="numpy")
def _log_L(a, b, x):
    """``ln L(x) - ln L(1/2)`` (:meth:`LnccPairs.log_L`); ``a``, ``b``: (n, nj, oj)."""
    t = x - 0.5
    return (_ll(a[0], a[1], a[2], t) + _ll(b[0], b[1], b[2], -t)
            + _logaddexp(_lp(a[0], a[1], a[2], x), _lp(b[0], b[1], b[2], 1.0 - x)))


@njit(cache=True)
def _merge(n, nj, oj):
    """Poles ``(W, C)`` of ``d/dz [ln p - ln z]``, equal poles merged, zero weights dropped,
    in increasing order of ``C`` (``_Side._merge``; the weights are small integers)."""
    k = nj.size
    C = np.empty(2 * k + 2)
    W = np.empty(2 * k + 2)
    C[0], W[0] = n, 1.0
    C[1:k + 1], W[1:k + 1] = nj, 1.0
    C[k + 1:2 * k + 1], W[k + 1:2 * k + 1] = oj, -1.0
    C[2 * k + 1], W[2 * k + 1] = 0.0, -1.0
    order = np.argsort(C, kind="mergesort")
    Wm, Cm = np.empty(C.size), np.empty(C.size)
    w, i, u = 0, 0, C.size
    while i < u:
        c, tot = C[order[i]], 0.0
        while i < u and C[order[i]] == c:
            tot += W[order[i]]
            i += 1
        if tot != 0:
            Wm[w], Cm[w] = tot, c
            w += 1
    return Wm[:w], Cm[:w]


@njit(cache=True, error_model="numpy")
def _parts(W, C, z):
    """``_Side.parts`` at one ``z``: ``(logsum, decreasing part, increasing part)``."""
    v, pos, neg, lead = 0.0, 0.0, 0.0, 0.0
    for g in range(W.size):
        y = C[g] + z
        v += W[g] * math.log(y)
        if C[g] < 1.0:
            r = 0.0 if C[g] == 0 else -W[g] * C[g] / (z * y)
            lead += W[g]
        else:
            r = W[g] / y
        if r > 0:
            pos += r
        elif r < 0:
            neg += r
    t = 0.0 if lead == 0 else lead / z
    return v, pos + _nmax(t, 0.0), neg + _nmin(t, 0.0)


@njit(cache=True, error_model="numpy")
def _point(Wa, Ca, Wb, Cb, x, out):
    """``D`` and the four monotone parts of ``D'`` at ``x`` into ``out`` (5,)."""
    da, pa, na = _parts(Wa, Ca, x)
    db, pb, nb = _parts(Wb, Cb, 1.0 - x)
    out[0], out[1], out[2], out[3], out[4] = da - db, pa, na, pb, nb


@njit(cache=True, error_model="numpy")
def _newton_step(f, df, x, lo, hi, dx, dxold, xtol, rtol):
    """One step of :func:`credal.dominance.newton_increasing` for one problem.
    Returns ``(x, lo, hi, dx, dxold, done)``."""
    if f > 0:
        hi = x
    else:
        lo = x
    newton = f / df
    xn = x - newton
    tol = xtol + rtol * abs(x)
    small = abs(newton) <= tol
    ok = (xn > lo) and (xn < hi) and np.isfinite(xn)
    ok = ok and ((abs(newton) <= 0.5 * abs(dxold)) or (abs(newton) <= 16 * tol))
    if not ok:
        xn = lo + 0.5 * (hi - lo)
    dxold, dx = dx, abs(xn - x)
    done = (f == 0) or small or (hi - lo <= tol)
    if (f == 0) or small:
        final = x - (newton if small else 0.0)
        xn = _nmin(_nmax(final, lo), hi)
    return xn, lo, hi, dx, dxold, done


@njit(cache=True, error_model="numpy")
def _x0(a, b, lo, hi, maxiter=200):
    """Root of ``g = 1`` in ``(lo, hi)``, from 1/2."""
    x, dx = 0.5, hi - lo
    dxold = dx
    for _ in range(maxiter):
        f = _lp(a[0], a[1], a[2], x) - _lp(b[0], b[1], b[2], 1.0 - x)
        df = _dlp(a[0], a[1], a[2], x) + _dlp(b[0], b[1], b[2], 1.0 - x)
        x, lo, hi, dx, dxold, done = _newton_step(f, df, x, lo, hi, dx, dxold, 1e-14, 1e-14)
        if done:
            break
    return x


@njit(cache=True, error_model="numpy")
def _root(Wa, Ca, Wb, Cb, lo, hi, buf, maxiter=200):
    """The down-crossing of ``D`` in the certified cell ``[lo, hi]`` (Newton on ``-D``)."""
    x, dx = 0.5 * (lo + hi), hi - lo
    dxold = dx
    for _ in range(maxiter):
        _point(Wa, Ca, Wb, Cb, x, buf)
        f, df = -buf[0], -(buf[1] + buf[2] + buf[3] + buf[4])
        x, lo, hi, dx, dxold, done = _newton_step(f, df, x, lo, hi, dx, dxold, 1e-14, 1e-14)
        if done:
            break
    return x


@njit(cache=True, error_model="numpy")
def _cell_state(v1, v2, x1, x2):
    """0 certified without a down-crossing, 1 certified with one, 2 open (bisect), 3 open with
    ``D`` going down across it (:meth:`LnccPairs.local_maxima`)."""
    D1, D2 = v1[0], v2[0]
    dlo = v2[1] + v1[2] + v1[3] + v2[4]
    dhi = v1[1] + v2[2] + v2[3] + v1[4]
    wdt = x2 - x1
    low = _fmax(D1 + _nmin(dlo, 0.0) * wdt, D2 - _nmax(dhi, 0.0) * wdt)
    up = _fmin(D1 + _nmax(dhi, 0.0) * wdt, D2 - _nmin(dlo, 0.0) * wdt)
    sign_def = (low > 0) or (up < 0)
    resolved = (dlo > 0) or (dhi < 0) or sign_def
    down = (D1 > 0) and (D2 <= 0)
    if resolved:
        return 1 if (down and not sign_def) else 0
    return 3 if down else 2


@njit(cache=True)
def _fmin(a, b):  # np.fmin
    if b != b:
        return a
    if a != a:
        return b
    return a if a <= b else b


@njit(cache=True, error_model="numpy")
def _candidates(Wa, Ca, Wb, Cb, n_cells, max_depth, max_open, cells, xs):
    """Candidate maxima of ``L`` in [0, 1] (:meth:`LnccPairs.local_maxima`: the
    down-crossings of ``D`` and the ends of cells left open at ``max_depth``) into ``xs``.
    ``cells`` (c, 12) is work space: ``x1, x2`` and the :func:`_point` values at both. Returns
    ``(cells, xs, count)``; count -1 when more than ``max_open`` cells stay open."""
    for c in range(n_cells):
        cells[c, 0], cells[c, 1] = c / n_cells, (c + 1) / n_cells
        _point(Wa, Ca, Wb, Cb, cells[c, 0], cells[c, 2:7])
        _point(Wa, Ca, Wb, Cb, cells[c, 1], cells[c, 7:12])
    n_open, n_xs = n_cells, 0
    buf = np.empty(5)
    for depth in range(max_depth + 1):
        keep = 0
        for c in range(n_open):
            x1, x2 = cells[c, 0], cells[c, 1]
            st = _cell_state(cells[c, 2:7], cells[c, 7:12], x1, x2)
            if st == 1 or (st == 3 and depth == max_depth):
                xs = _push(xs, n_xs, _root(Wa, Ca, Wb, Cb, x1, x2, buf))
                n_xs += 1
            if st >= 2:
                if depth == max_depth:  # give up: the tiny cell's ends join the candidates
                    xs = _push(xs, n_xs, x1)
                    xs = _push(xs, n_xs + 1, x2)
                    n_xs += 2
                else:
                    cells[keep] = cells[c]
                    keep += 1
        if keep == 0 or depth == max_depth:
            break
        if keep > max_open:
            return cells, xs, -1
        if 2 * keep > cells.shape[0]:
            grown = np.empty((4 * keep, 12))
            grown[:keep] = cells[:keep]
            cells = grown
        for c in range(keep):  # bisect: the right halves go after the left ones
            xm = 0.5 * (cells[c, 0] + cells[c, 1])
            r = keep + c
            cells[r, 1], cells[r, 7:12] = cells[c, 1], cells[c, 7:12]
            _point(Wa, Ca, Wb, Cb, xm, cells[r, 2:7])
            cells[r, 0] = xm
            cells[c, 1], cells[c, 7:12] = xm, cells[r, 2:7]
        n_open = 2 * keep
    return cells, xs, n_xs


@njit(cache=True)
def _push(xs, i, x):
    if i >= xs.size:
        grown = np.empty(2 * xs.size)
        grown[:xs.size] = xs
        xs = grown
    xs[i] = x
    return xs


@njit(cache=True, error_model="numpy")
def log_thresholds(n1, n1j, o1j, n2, n2j, o2j, mask, n_cells, max_depth, max_open):
    """``ln alpha*`` of both directions of LNCC problems (the arguments of
    :class:`credal.likelihood.LnccPairs`: floats (q,) and (q, m), ``mask`` bool (q, m)).
    Returns ``(fwd, rev, status)``; ``status`` is -1 when a problem keeps more than
    ``max_open`` cells open (the caller raises), else 0."""
    q = n1.shape[0]
    fwd, rev = np.empty(q), np.empty(q)
    xs, cells = np.empty(64), np.empty((64, 12))
    for i in range(q):
        ka = mask[i] & (n1j[i] != o1j[i])
        kb = mask[i] & (n2j[i] != o2j[i])
        a = (n1[i], n1j[i][ka], o1j[i][ka])
        b = (n2[i], n2j[i][kb], o2j[i][kb])
        lo_a = min(a[0], a[1].min()) if a[1].size else a[0]
        lo_b = min(b[0], b[1].min()) if b[1].size else b[0]
        x0 = _x0(a, b, -lo_a, 1.0 + lo_b)
        Wa, Ca = _merge(a[0], a[1], a[2])
        Wb, Cb = _merge(b[0], b[1], b[2])
        flat = Wa.size == 0 and Wb.size == 0
        n_xs = 0
        if not flat:
            cells, xs, n_xs = _candidates(Wa, Ca, Wb, Cb, n_cells, max_depth, max_open,
                                          cells, xs)
            if n_xs < 0:
                return fwd, rev, -1
        left = _log_L(a, b, x0)
        right = left
        for j in range(n_xs + 2):  # the candidates, then both ends of [0, 1]
            x = xs[j] if j < n_xs else float(j - n_xs)
            v = _log_L(a, b, x)
            if x <= x0:
                left = _fmax(left, v)
            if x >= x0:
                right = _fmax(right, v)
        top = _fmax(left, right)
        fwd[i], rev[i] = _nmin(left - top, 0.0), _nmin(right - top, 0.0)
        if flat:  # L constant on [0, 1] (D identically 0): alpha* = 1
            d = _parts(Wa, Ca, 0.5)[0] - _parts(Wb, Cb, 0.5)[0]
            if abs(d) <= 1e-12:
                fwd[i], rev[i] = 0.0, 0.0
    return fwd, rev, 0
