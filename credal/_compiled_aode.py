"""Compiled pair counts, child tables and row-by-row classification of :mod:`credal.aode`.

Imported on first use (see :mod:`credal._compiled`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["pair_counts", "child_table", "aode_log_proba"]


@njit(cache=True)
def pair_counts(codes, y, weight, nv, out):
    """Add to ``out[c, u, w]`` the weight of the rows of class c with flat values u and w
    (``u = offset of its feature + code``), both observed; for two values of one feature, 0 unless
    ``u == w`` (then the weight with value u). ``codes`` (n_features, n_samples): category codes,
    -1 = missing; ``y`` (n_samples,); ``weight`` (n_samples,), or shape (0,) for unit weights;
    ``nv`` (n_features,); ``out`` (K, V, V), V = nv.sum(): zeros (or earlier counts); integers will
    do for unit weights (exact, and a half or a quarter of the memory of floats).
    """
    k, n = codes.shape
    off = np.zeros(k + 1, dtype=np.int64)
    for f in range(k):
        off[f + 1] = off[f] + nv[f]
    K, V = out.shape[0], off[k]
    flat = np.empty(k, dtype=np.int64)
    unit = weight.shape[0] == 0
    for r in range(n):
        m = 0
        for f in range(k):
            c = codes[f, r]
            if c >= 0:
                flat[m] = off[f] + c
                m += 1
        t = out[y[r]]
        if unit:
            for a in range(m):  # the upper triangle (u <= w), mirrored below
                u = flat[a]
                for b in range(a, m):
                    t[u, flat[b]] += 1
        else:
            wt = weight[r]
            for a in range(m):
                u = flat[a]
                for b in range(a, m):
                    t[u, flat[b]] += wt
    for c in range(K):
        for u in range(V):
            for w in range(u + 1, V):
                out[c, w, u] = out[c, u, w]
    return out


@njit(cache=True)
def child_table(counts, nv, s, perks, log, parent_first):
    """The SPODEs' children ``P(w | c, u)`` for every class ``c``, super-parent value ``u`` and
    child value ``w`` of another feature, from the pair counts: Dirichlet cell prior
    ``s / (K nv_u nv_w)`` (``perks``) or 1 (Laplace), normalised over the child's values among the
    rows where both features are observed. No temporaries of the table's size. ``counts``
    (K, V, V) from :func:`pair_counts`, ``nv`` (n_features,); with ``log`` natural logarithms (0
    for two values of one feature and in the missing row and column ``V``), else probabilities
    (1 there). Returns floats (V + 1, V + 1, K) indexed ``[w, u, c]`` (child value first), or
    ``[u, w, c]`` with ``parent_first``.
    """
    K, V = counts.shape[0], counts.shape[1]
    k = nv.shape[0]
    feat = np.empty(V, dtype=np.int64)
    off = np.zeros(k + 1, dtype=np.int64)
    for f in range(k):
        off[f + 1] = off[f] + nv[f]
        feat[off[f]:off[f + 1]] = f
    out = np.full((V + 1, V + 1, K), 0.0 if log else 1.0)
    for c in range(K):
        for u in range(V):
            fu = feat[u]
            for l in range(k):
                if l == fu:
                    continue
                n_l = 0.0           # rows of class c with u and feature l observed
                for w in range(off[l], off[l + 1]):
                    n_l += counts[c, u, w]
                for w in range(off[l], off[l + 1]):
                    cell = s / (K * (nv[fu] * nv[l])) if perks else 1.0
                    num, den = counts[c, u, w] + cell, n_l + nv[l] * cell
                    v = math.log(num) - math.log(den) if log else num / den
                    if parent_first:
                        out[u, w, c] = v
                    else:
                        out[w, u, c] = v
    return out


# Below this a product of probabilities may have lost precision (subnormal numbers start
# at 2**-1022): such a row of AODE is redone in logarithms.
_TINY = 2.0 ** -900


@njit(cache=True)
def aode_log_proba(codes, off, child, root, usable, posterior, floor):
    """Normalised log posteriors of AODE, row by row: the usable SPODEs' joints
    ``P(u, c) prod_l P(a_l | c, u)`` (missing children skipped), combined as joints (``posterior``
    False) or as posteriors (each normalised over the classes, raised to ``floor`` when
    ``floor > 0`` and renormalised). Products of probabilities, no exponentials; a row where a
    class's total falls below ``_TINY`` is redone with sums of logarithms. A row without a usable
    super-parent is all ``-inf`` (the caller's fall-back). Returns floats (n_samples, K).
    ``codes`` (n_features, n_samples): category codes, -1 = missing; ``off`` (n_features,): flat
    index of each feature's first value; ``child`` (V + 1, V + 1, K): ``[u, w, c] =
    P(w | c, u)`` (super-parent value first; 1 for two values of one feature), from
    :func:`child_table` with ``parent_first``; ``root`` (V + 1, K): ``P(u, c)``; ``usable``
    (V + 1,): whether value ``u`` makes its SPODE usable (False at ``V``, missing); ``floor``:
    posterior floor in [0, 1), 0 = none.
    """
    k, n = codes.shape
    W, K = root.shape
    pc, pr = child.ravel(), root.ravel()      # flat indices: no slice views in the loops
    out = np.empty((n, K))
    flat = np.empty(k, dtype=np.int64)        # K * each observed value
    parent = np.empty(k, dtype=np.int64)      # each usable super-parent value
    acc = np.empty(k * K)                     # (SPODE, class) products
    for r in range(n):
        m, p = 0, 0
        for f in range(k):
            c = codes[f, r]
            if c >= 0:
                u = off[f] + c
                flat[m] = u * K
                m += 1
                if usable[u]:
                    parent[p] = u
                    p += 1
        if p == 0:
            out[r] = -np.inf
            continue
        # two classes at a time: two independent products held in registers (a loop
        # over the classes in memory would be bound by store-to-load latency)
        for c in range(0, K, 2):
            two = c + 1 < K
            for i in range(p):
                slab = parent[i] * W * K + c  # the (V + 1, K) table of this parent value
                a0 = pr[parent[i] * K + c]
                a1 = pr[parent[i] * K + c + 1] if two else 1.0
                for a in range(m):
                    t = slab + flat[a]
                    a0 *= pc[t]
                    if two:
                        a1 *= pc[t + 1]
                acc[i * K + c] = a0
                if two:
                    acc[i * K + c + 1] = a1
        if not _combine(acc, p, K, posterior, floor, out[r]):
            for i in range(p):                # the same in logarithms
                slab = parent[i] * W * K
                for c in range(K):
                    t = math.log(pr[parent[i] * K + c])
                    for a in range(m):
                        t += math.log(pc[slab + flat[a] + c])
                    acc[i * K + c] = t
            _combine_log(acc, p, K, posterior, floor, out[r])
    return out


@njit(cache=True)
def _combine(acc, p, K, posterior, floor, row):
    """``row`` = log of the normalised sum over the ``p`` SPODEs of ``acc`` (p * K
    products), each SPODE first normalised (and floored) with ``posterior``; False,
    ``row`` unset, when a total falls below ``_TINY``."""
    if posterior:
        for i in range(p):
            a = acc[i * K:(i + 1) * K]
            z = a.sum()
            if z < _TINY:
                return False
            a /= z
            if floor > 0.0:
                for c in range(K):
                    a[c] = max(a[c], floor)
                a /= a.sum()
    tot = 0.0
    for c in range(K):
        s = 0.0
        for i in range(p):
            s += acc[i * K + c]
        if s < _TINY:
            return False
        row[c] = s
        tot += s
    for c in range(K):
        row[c] = math.log(row[c] / tot)
    return True


@njit(cache=True)
def _combine_log(acc, p, K, posterior, floor, row):
    """:func:`_combine` in logarithms (``acc`` holds log products)."""
    if posterior:
        lf = math.log(floor) if floor > 0.0 else -np.inf
        for i in range(p):
            a = acc[i * K:(i + 1) * K]
            _normalise_row(a)
            if floor > 0.0:
                for c in range(K):
                    a[c] = max(a[c], lf)
                _normalise_row(a)
    for c in range(K):          # log-sum-exp over the SPODEs
        top = acc[c]
        for i in range(1, p):
            top = max(top, acc[i * K + c])
        if not np.isfinite(top):
            top = 0.0
        s = 0.0
        for i in range(p):
            s += math.exp(acc[i * K + c] - top)
        row[c] = math.log(s) + top if s > 0.0 else -np.inf
    _normalise_row(row)


@njit(cache=True)
def _normalise_row(a):
    """``a -= log(sum(exp(a)))`` in place, shifted by the maximum."""
    top = a[0]
    for c in range(1, a.shape[0]):
        top = max(top, a[c])
    if not np.isfinite(top):
        top = 0.0
    s = 0.0
    for c in range(a.shape[0]):
        s += math.exp(a[c] - top)
    z = math.log(s) + top if s > 0.0 else -np.inf
    for c in range(a.shape[0]):
        a[c] -= z
