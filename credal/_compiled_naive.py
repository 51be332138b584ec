"""Compiled counting and scoring of the naive classifiers of :mod:`credal.naive`, imported on first
use (see :mod:`credal._compiled`). Both visit the features in the groups of
:func:`credal._tables.count_plan`, one pass over the rows per group: the plan is ``r`` (m,) radices
``n_values + 1``, ``place`` (m,), ``first`` (G + 1,), ``start`` and ``P`` (G,), and a row's key in
group ``g``'s joint table is ``start[g] + sum_j code_j place_j`` (digit ``code_j + 1``; 0: missing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["naive_counts", "naive_scores", "first_max", "log_arguments", "log_differences",
           "family_counts", "gather_scores", "distinct_rows"]


@njit(cache=True)
def _keys(codes, g, place, first, start, key):
    key[:] = start[g]  # the rows' keys in group g's joint table, into key (n,)
    for j in range(first[g], first[g + 1]):
        for i in range(key.shape[0]):
            key[i] += codes[j, i] * place[j]


@njit(cache=True)
def _add_marginals(joint, g, r, first, off, tab):
    """Add the joint counts (K, P) of group ``g`` into its features' rows of ``tab`` (R, K),
    last feature first, each summed out in place (``joint`` is overwritten)."""
    for k in range(joint.shape[0]):
        jk, size = joint[k], joint.shape[1]
        for j in range(first[g + 1] - 1, first[g] - 1, -1):
            size //= r[j]
            for pre in range(size):  # joint rows pre r_j + d, d = 0 .. r_j - 1
                acc = jk[pre * r[j]]
                tab[off[j], k] += acc
                for d in range(1, r[j]):
                    acc += jk[pre * r[j] + d]
                    tab[off[j] + d, k] += jk[pre * r[j] + d]
                jk[pre] = acc  # pre <= pre r_j: read before written


@njit(cache=True)
def naive_counts(codes, y, w, r, place, first, start, P, K):
    """Weighted rows per (class, feature, category) of ``codes`` (m, n) (feature-major), ``y`` (n,)
    class indices, ``w`` (n,) row weights or empty (unit weights; counted in integers, exact).
    Returns ``flat`` (K, sum(r - 1)), the features' categories side by side, the rows where each
    feature is observed (K, m) and the rows per class (K,) (summed over feature 0's cells)."""
    m, n = codes.shape
    off = np.zeros(m + 1, np.int64)
    off[1:] = np.cumsum(r)
    tab, key = np.zeros((off[m], K)), np.empty(n, np.int64)  # tab: digit 0 (missing) first
    for g in range(P.shape[0]):
        _keys(codes, g, place, first, start, key)
        if w.shape[0]:
            joint = np.zeros((K, P[g]))
            for i in range(n):
                joint[y[i], key[i]] += w[i]
            _add_marginals(joint, g, r, first, off, tab)
        else:
            ints = np.zeros((K, P[g]), np.int64)
            for i in range(n):
                ints[y[i], key[i]] += 1
            _add_marginals(ints, g, r, first, off, tab)
    total, flat, observed = np.zeros(K), np.empty((K, off[m] - m)), np.empty((K, m))
    for d in range(r[0]):
        total += tab[d]
    for j in range(m):
        for k in range(K):
            observed[k, j] = total[k] - tab[off[j], k]
            for d in range(1, r[j]):
                flat[k, off[j] - j + d - 1] = tab[off[j] + d, k]
    return flat, observed, total


@njit(cache=True)
def naive_scores(codes, lp, lt, r, place, first, start, P):
    """Joint log-likelihood, class-major (K, n): ``lp`` (K,) plus, per observed feature of each row
    of ``codes`` (m, n), its log conditional in ``lt`` (K, sum(r - 1)). Each group's log
    conditionals are summed (in feature order) into a joint table first."""
    G, K, n = P.shape[0], lp.shape[0], codes.shape[1]
    joint, keys = np.empty((K, np.sum(P))), np.empty((G, n), np.int64)
    off, row = 0, 0
    for g in range(G):
        size = 1  # outer sums feature after feature: row p r + d of the next = row p + lt[d]
        joint[:, row] = 0.0
        for j in range(first[g], first[g + 1]):
            for k in range(K):
                for p in range(row + size - 1, row - 1, -1):  # backwards: in place
                    v, at = joint[k, p], row + (p - row) * r[j]
                    for d in range(r[j] - 1, 0, -1):
                        joint[k, at + d] = v + lt[k, off + d - 1]
                    joint[k, at] = v  # digit 0 (missing) adds nothing
            size, off = size * r[j], off + r[j] - 1
        _keys(codes, g, place, first, start, keys[g])
        keys[g] += row
        row += P[g]
    out = np.empty((K, n))
    for k in range(K):
        out[k] = lp[k]
        for g in range(G):
            for i in range(n):
                out[k, i] += joint[k, keys[g, i]]
    return out


@njit(cache=True)
def first_max(scores):
    """``np.argmax(scores, axis=0)`` of scores (K, n) without NaN, row after row."""
    out, best = np.zeros(scores.shape[1], np.int64), scores[0].copy()
    for k in range(1, scores.shape[0]):
        for i in range(out.shape[0]):
            if scores[k, i] > best[i]:
                best[i], out[i] = scores[k, i], k
    return out


@njit(cache=True)
def log_arguments(cc, flat, observed, nv, a, b, c, d):
    """The numbers whose logarithms make the log tables, in one array (the caller takes
    ``np.log`` of it at once): ``cc + a`` (K), ``sum(cc) + b``, ``flat + c[j]`` (K, S) and
    ``observed + d[j]`` (K, m), ``j`` the feature of a column; ``c`` and ``d`` (m,)."""
    K, S, m = flat.shape[0], flat.shape[1], nv.shape[0]
    out, total = np.empty(K + 1 + K * S + K * m), 0.0
    for k in range(K):
        out[k], total = cc[k] + a, total + cc[k]
    out[K] = total + b
    for k in range(K):
        col = 0
        for j in range(m):
            out[K + 1 + K * S + k * m + j] = observed[k, j] + d[j]
            for _ in range(nv[j]):
                out[K + 1 + k * S + col] = flat[k, col] + c[j]
                col += 1
    return out


@njit(cache=True)
def log_differences(logs, nv, K):
    """Log prior (K,) and log conditionals (K, S) from the logarithms of
    :func:`log_arguments`' numbers."""
    S, m = np.sum(nv), nv.shape[0]
    lp, lt = logs[:K] - logs[K], np.empty((K, S))
    for k in range(K):
        col = 0
        for j in range(m):
            for _ in range(nv[j]):
                lt[k, col] = logs[K + 1 + k * S + col] - logs[K + 1 + K * S + k * m + j]
                col += 1
    return lp, lt


@njit(cache=True)
def family_counts(codes, y, K, R):
    """Rows per (class, category, feature) of ``codes`` (n, m) (row-major, -1 = missing, counted
    in the extra category ``R``), ``y`` (n,) class indices: (K, R + 1, m), the feature innermost
    so that a row's additions are nearly sequential (:mod:`credal.averaging`'s families)."""
    n, m = codes.shape
    N = np.zeros((K, R + 1, m))
    for i in range(n):
        c = y[i]
        for j in range(m):
            v = codes[i, j]
            N[c, v if v >= 0 else R, j] += 1.0
    return N


@njit(cache=True)
def gather_scores(codes, table, R1):
    """Sum over the features of each row of ``codes`` (n, m) (-1 = missing: column ``R1 - 1``)
    of ``table[k, j R1 + code]`` (K, m R1): (n, K), features added in order."""
    n, m = codes.shape
    K = table.shape[0]
    out = np.zeros((n, K))
    for i in range(n):
        for j in range(m):
            v = codes[i, j]
            col = j * R1 + (v if v >= 0 else R1 - 1)
            for k in range(K):
                out[i, k] += table[k, col]
    return out


@njit(cache=True)
def distinct_rows(codes, mult, size):
    """First occurrence (u,) of each distinct row of ``codes`` (n, m) (int64, -1 = missing) in
    increasing order of its key ``(codes + 1) @ mult`` (< ``size``), and each row's rank (n,)
    among them: :func:`credal._tables.unique_rows` by a table of every possible key."""
    n, m = codes.shape
    key, slot = np.empty(n, np.int64), np.zeros(size, np.int64)
    for i in range(n):
        k = 0
        for j in range(m):
            k += (codes[i, j] + 1) * mult[j]
        key[i], slot[k] = k, 1
    u = 0
    for k in range(size):  # present keys numbered in increasing order
        if slot[k]:
            slot[k], u = u, u + 1
    first, inv = np.full(u, -1, np.int64), np.empty(n, np.int64)
    for i in range(n):
        inv[i] = slot[key[i]]
        if first[inv[i]] < 0:
            first[inv[i]] = i
    return first, inv
