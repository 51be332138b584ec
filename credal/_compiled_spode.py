"""Compiled SPODE log joints and log-sum-exp steps of :mod:`credal.aode` (imported on first use).

The log-sum-exp is split: the maximum, the sums and the subtraction here, ``exp`` and ``log`` by
numpy (numba's differ from numpy's vectorised ones in the last bit), so that every number is the
one the numpy version computed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["block_tables", "spode_log_joints", "shift_by_max", "row_sums", "subtract_rows"]


@njit(cache=True)
def block_tables(child, cuts, stride, sizes, nv, off):
    """The children's log probabilities summed over blocks of features: row ``(start_b + code) *
    (V + 1) + u`` holds ``sum_l ln P(a_l | c, u)`` over the features ``l`` of block ``b`` (``cuts[b]:
    cuts[b + 1]``, added in order) with values ``a_l = code // stride_l % sizes_l`` (value
    ``nv_l``: missing, 0), ``start_b`` the codes of the blocks before. ``child`` (V + 1, V + 1, K):
    ``[w, u, c]``, 0 in row ``V``; ``sizes`` (n_features,): values per feature, plus one for a
    missing slot; ``nv``, ``off``: values and first flat value of each feature. Floats (rows, K).
    """
    W, K = child.shape[1], child.shape[2]
    cf = child.reshape(W, W * K)
    total = 0
    for b in range(cuts.shape[0] - 1):
        total += stride[cuts[b]] * sizes[cuts[b]]
    tab = np.empty((total, W * K))
    row = 0
    for b in range(cuts.shape[0] - 1):
        a, e = cuts[b], cuts[b + 1]
        for code in range(stride[a] * sizes[a]):
            for l in range(a, e):
                v = code // stride[l] % sizes[l]
                src = off[l] + v if v < nv[l] else W - 1
                if l == a:
                    for j in range(W * K):
                        tab[row, j] = cf[src, j]
                else:
                    for j in range(W * K):
                        tab[row, j] += cf[src, j]
            row += 1
    return tab.reshape(total * W, K)


@njit(cache=True)
def spode_log_joints(parent, gT, cuts, stride, sizes, off, tab, root):
    """``root[u] + sum_b tab[(start_b + code_b) * (V + 1) + u]`` for the super-parent value
    ``u = parent[i, r]`` of every row ``r`` (``code_b`` the row's values in block ``b``), the
    blocks added in order: the SPODE log joints from :func:`block_tables` (same ``cuts``,
    ``stride``, ``sizes``, ``off``). ``parent`` (p, n), ``gT`` (n_features, n): flat values,
    ``V`` = missing; ``root`` (V + 1, K). Returns floats (p, n, K).
    """
    p, n = parent.shape
    W, K = root.shape
    codes = np.empty((cuts.shape[0] - 1, n), dtype=np.int64)
    start = 0
    for b in range(cuts.shape[0] - 1):
        a, e = cuts[b], cuts[b + 1]
        for r in range(n):
            code = start
            for l in range(a, e):
                x = gT[l, r]
                code += stride[l] * (x - off[l] if x < W - 1 else sizes[l] - 1)
            codes[b, r] = code * W
        start += stride[a] * sizes[a]
    out = np.empty((p, n, K))
    for i in range(p):
        for r in range(n):
            u = parent[i, r]
            # two classes at a time: two independent sums held in registers
            for c in range(0, K - 1, 2):
                a0, a1 = root[u, c], root[u, c + 1]
                for b in range(codes.shape[0]):
                    j = u + codes[b, r]
                    a0 += tab[j, c]
                    a1 += tab[j, c + 1]
                out[i, r, c], out[i, r, c + 1] = a0, a1
            if K % 2:
                a0 = root[u, K - 1]
                for b in range(codes.shape[0]):
                    a0 += tab[u + codes[b, r], K - 1]
                out[i, r, K - 1] = a0
    return out


@njit(cache=True)
def shift_by_max(a):
    """``(a - top[:, None], top)`` of ``a`` (m, K), ``top`` the maximum of each row (0 where it
    is not finite): the first step of a log-sum-exp."""
    m, K = a.shape
    d, top = np.empty((m, K)), np.empty(m)
    for i in range(m):
        t = a[i, 0]
        for c in range(1, K):
            x = a[i, c]
            t = x if x > t else t           # a select, no branch
        t = t if math.fabs(t) < math.inf else 0.0
        top[i] = t
        for c in range(K):
            d[i, c] = a[i, c] - t
    return d, top


@njit(cache=True)
def row_sums(e):
    """Sums of the rows of ``e`` (m, K), left to right (numpy's sum is pairwise)."""
    m, K = e.shape
    out = np.empty(m)
    for i in range(m):
        s = e[i, 0]
        for c in range(1, K):
            s += e[i, c]
        out[i] = s
    return out


@njit(cache=True)
def subtract_rows(a, z):
    """``a - z[:, None]`` for ``a`` (m, K) (numpy's broadcast over a short last axis is slow)."""
    m, K = a.shape
    out = np.empty((m, K))
    for i in range(m):
        for c in range(K):
            out[i, c] = a[i, c] - z[i]
    return out
