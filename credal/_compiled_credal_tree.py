"""Compiled imprecise information gains of :class:`credal.trees.CredalDecisionTree`.

Imported on first use (see :mod:`credal._compiled`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["credal_tree_gains"]


@njit(cache=True)
def _upper_entropy(n, s, buf):
    """Upper entropy (nats) of the IDM set of the counts ``n`` (K,): the counts below a water level
    are raised to it with the prior mass ``s`` (the maximum-entropy member, as in
    :mod:`credal.independence`; sorted counts), then ``-sum p ln p``. ``buf`` (K,) is scratch."""
    K = n.shape[0]
    buf[:] = n
    for i in range(1, K):          # insertion sort: K is small
        v, j = buf[i], i - 1
        while j >= 0 and buf[j] > v:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = v
    acc, level = 0.0, 0.0
    for r in range(K):             # first r whose level does not reach the next count
        acc += buf[r]
        level = (s + acc) / (r + 1)
        if r == K - 1 or level <= buf[r + 1]:
            break
    tot = 0.0
    for c in range(K):
        tot += n[c]
    tot += s
    h = 0.0
    for c in range(K):
        p = max(n[c], level) / tot
        if p > 0.0:
            h -= p * math.log(p)
    return h


@njit(cache=True)
def credal_tree_gains(codesT, rows, nv, y, K, s, lid, w, avail, double):
    """Imprecise information gains of a level of :class:`credal.trees.CredalDecisionTree`:
    of each available feature, and with ``double`` of each pair of available features
    (their joint values; a row counts when both are observed), at each node. Arguments as in
    :func:`credal.trees._level_gains` (``codesT`` (F, n) with -1 = missing and ``y`` (n,) of the
    training rows; ``rows`` (n_inst,) the training row of each instance, instances grouped by
    node; ``lid`` (n_inst,) the node 0 .. A-1 of each instance, non-decreasing).
    Returns ``g1`` (A, F) and ``g2`` (A, F (F - 1) / 2), or (A, 0) without ``double``, the pairs
    in the order of ``np.triu_indices(F, 1)``; ``-inf`` where a feature (pair) is not available
    or never observed at the node.
    """
    F, n = codesT.shape[0], rows.shape[0]
    A = avail.shape[0]
    P = F * (F - 1) // 2 if double else 0
    g1, g2 = np.full((A, F), -np.inf), np.full((A, P), -np.inf)
    top = 1
    for f in range(F):
        top = max(top, nv[f] * (nv.max() if double else 1))
    # dense counts while the cells are few for the rows (bounded memory); else the
    # observed (cell, class) keys are sorted
    cnt = np.zeros(min(top * K, 4 * n + 256))
    keys = np.empty(n, dtype=np.int64)
    parent, buf = np.zeros(K), np.zeros(K)
    # singles, few cells: every feature counted in one pass over a node's instances (each
    # cell still adds its instances' weights in their order), so that consecutive additions
    # go to different features' cells instead of one chain through memory
    R1 = nv.max() if F else 1
    one = not double and F * R1 * K <= 4 * n + 256
    cnt1 = np.zeros(F * R1 * K if one else 0)
    lo = 0
    for a in range(A):
        hi = lo
        W = 0.0
        while hi < n and lid[hi] == a:
            W += w[hi]
            hi += 1
        if one:
            cnt1[:] = 0.0
            for r in range(lo, hi):
                row, yr, wr = rows[r], y[rows[r]], w[r]
                for i in range(F):
                    v = codesT[i, row]
                    if v >= 0 and avail[a, i]:
                        cnt1[(i * R1 + v) * K + yr] += wr
            for i in range(F):
                if avail[a, i]:
                    g1[a, i] = _gain(cnt1[i * R1 * K:(i + 1) * R1 * K], nv[i], K, s, W, parent, buf)
            lo = hi
            continue
        # the node's codes, classes and weights gathered once: every feature (pair) then
        # reads them in order instead of jumping through the training rows
        nn = hi - lo
        loc, ly, lw = np.empty((F, nn), dtype=codesT.dtype), np.empty(nn, dtype=y.dtype), w[lo:hi]
        for t in range(nn):
            ly[t] = y[rows[lo + t]]
        for i in range(F):
            for t in range(nn):
                loc[i, t] = codesT[i, rows[lo + t]]
        q = 0
        for i in range(F):
            for j in range(i, F if double else i + 1):    # j == i: the single feature
                if not (avail[a, i] and avail[a, j]):
                    if j > i:
                        q += 1
                    continue
                nj = nv[j] if j > i else 1
                m = nv[i] * nj
                # dense while the cells are few for the node's rows: a deep node's few rows
                # are sorted instead of clearing and scanning every cell (same totals)
                dense = m * K <= cnt.shape[0] and m * K <= 8 * nn + 64
                if dense:
                    cnt[:m * K] = 0.0
                nk = 0
                for t in range(nn):   # each (cell, class) total in instance order
                    v = loc[i, t]
                    if j > i:
                        u = loc[j, t]
                        v = v * nj + u if v >= 0 and u >= 0 else -1
                    if v >= 0:
                        if dense:
                            cnt[v * K + ly[t]] += lw[t]
                        else:
                            keys[nk] = lo + t
                            nk += 1
                if dense:
                    gain = _gain(cnt, m, K, s, W, parent, buf)
                else:
                    gain = _gain_sparse(keys[:nk], rows, codesT, i, j, nj, y, w, K, s, W, parent,
                                        buf)
                if j > i:
                    g2[a, q] = gain
                    q += 1
                else:
                    g1[a, i] = gain
        lo = hi
    return g1, g2


@njit(cache=True)
def _gain_sparse(inst, rows, codesT, i, j, nj, y, w, K, s, W, parent, buf):
    """:func:`_gain` for cells too many to count densely: the observed instances ``inst`` (training
    rows ``rows[inst]``) sorted (stably) by cell and class, each total added in instance order into
    the non-empty cells only, in cell order."""
    key = np.empty(inst.shape[0], dtype=np.int64)
    for t in range(inst.shape[0]):
        r = rows[inst[t]]
        v = codesT[i, r] if j == i else codesT[i, r] * nj + codesT[j, r]
        key[t] = v * K + y[r]
    order = np.argsort(key, kind="mergesort")
    cnt = np.zeros(inst.shape[0] * K)         # at most one non-empty cell per instance
    m, last = 0, -1
    for t in range(order.shape[0]):
        v = key[order[t]] // K
        if v != last:
            m, last = m + 1, v
        cnt[(m - 1) * K + key[order[t]] - v * K] += w[inst[order[t]]]
    return _gain(cnt, m, K, s, W, parent, buf)


@njit(cache=True)
def _gain(cnt, m, K, s, W, parent, buf):
    """IIG of a split into the ``m`` cells of ``cnt`` ((m * K,) class counts) at a node of
    total weight ``W``: ``known / W * (H*(parent) - sum_v n_v H*(cell_v) / known)``
    over the non-empty cells; ``-inf`` without any."""
    parent[:] = 0.0
    known, after, seen = 0.0, 0.0, False
    for v in range(m):
        t = 0.0
        for c in range(K):
            t += cnt[v * K + c]
        if t == 0.0:                    # an empty cell adds nothing
            continue
        seen = True
        for c in range(K):
            parent[c] += cnt[v * K + c]
        known += t
        after += t * _upper_entropy(cnt[v * K:(v + 1) * K], s, buf)
    if not seen:
        return -np.inf
    return (known / W) * (_upper_entropy(parent, s, buf) - after / known)
