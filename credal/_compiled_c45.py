"""Compiled growing, collapsing and pruning of :class:`credal.trees.C45Tree`.

J48's recursive definitions, node by node: a tree of a few thousand nodes is grown and pruned in
milliseconds, where per-node (or per-depth) numpy calls would cost more than the arithmetic. Sums
that reach the results (class counts, bag weights, the shares of missing values) add in the order
numpy's would (:func:`_psum` is numpy's pairwise summation), so the trees and probabilities are
those of the recursive reference (``tests/reference/frozen_c45.py``) bit for bit. Imported on first
use (see :mod:`credal._compiled`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["fit_c45", "finish_c45"]


@njit(cache=True)
def _block_sum(a, lo, n):
    """numpy's pairwise_sum for n <= 128: 8 interleaved partial sums."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        j = lo + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def _psum(a, lo, n):
    """``a[lo:lo + n].sum()`` with numpy's pairwise summation (the same bits).
    Above 128 terms numpy halves the range (at a multiple of 8) and adds the two halves' sums; the
    halving tree is walked here with an explicit stack (numba cannot cache recursive functions)."""
    if n <= 128:
        return _block_sum(a, lo, n)
    los, ns = np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64)
    state, left = np.zeros(64, dtype=np.int64), np.zeros(64)
    top, los[0], ns[0], state[0] = 0, lo, n, 0
    value = 0.0
    while top >= 0:
        if ns[top] <= 128 or state[top] == 2:
            value = _block_sum(a, los[top], ns[top]) if ns[top] <= 128 else value + left[top]
            top -= 1
            if top >= 0:
                if state[top] == 1:  # left half done: keep it, do the right half
                    left[top], state[top] = value, 2
                    h = ns[top] // 2
                    h -= h % 8
                    top += 1
                    los[top], ns[top], state[top] = los[top - 1] + h, ns[top - 1] - h, 0
                # state 2: the right half's sum is ``value``; added on the next pass
            continue
        state[top] = 1
        h = ns[top] // 2
        h -= h % 8
        top += 1
        los[top], ns[top], state[top] = los[top - 1], h, 0
    return value


@njit(cache=True)
def _sum(a):
    return _psum(a, 0, a.shape[0])


@njit(cache=True)
def _errs_at_least_one(N, e, z):
    if e + 0.5 >= N:
        return max(N - e, 0.0)
    f = (e + 0.5) / N
    r = (f + z * z / (2 * N) + z * math.sqrt(f / N - f * f / N + z * z / (4 * N * N))) / (1 + z * z / N)
    return r * N - e


@njit(cache=True)
def _add_errs(N, e, cf, z):
    """Weka's Stats.addErrs: extra errors at the upper confidence limit (C4.5), for
    ``e`` errors among ``N``; ``z`` is the normal quantile at ``1 - cf``."""
    if cf > 0.5:
        return 0.0
    if e < 1:  # interpolates between e = 0 and e = 1
        base = N * (1 - cf ** (1.0 / N))
        if e == 0:
            return base
        return base + e * (_errs_at_least_one(N, 1.0, z) - base)
    return _errs_at_least_one(N, e, z)


@njit(cache=True)
def _leaf_errors(dist, cf, z):
    total = _sum(dist)
    if total < 1e-6:
        return 0.0
    e = total - dist.max()
    return e + _add_errs(total, e, cf, z)


@njit(cache=True)
def _class_counts(y, rows, w, K):
    dist = np.zeros(K)
    for j in range(rows.shape[0]):  # in row order, as np.bincount adds
        dist[y[rows[j]]] += w[j]
    return dist


@njit(cache=True)
def _xl(a, unit, table):
    """``a log2 a`` (0 for a <= 1e-6); from ``table`` when a counts unit weights."""
    if unit:  # a whole number (table[0] = 0)
        return table[int(a)]
    if a <= 1e-6:
        return 0.0
    return a * math.log2(a)


@njit(cache=True)
def _small_sum(a, lo, n):
    """``_psum`` for the class counts of one cell (numpy adds fewer than 8 in order)."""
    if n >= 8:
        return _psum(a, lo, n)
    s = 0.0
    for i in range(lo, lo + n):
        s += a[i]
    return s


@njit(cache=True)
def _select(codes, y, rows, w, dist, feats, off, in_avg, K, m, table, cnt, work):
    """Split feature (column) of a node, or -1 (J48's C45ModelSelection).
    ``cnt`` (one slot per value ``off[k] + code`` of each used feature ``feats[k]``, and class) and
    ``work`` are scratch."""
    total = _sum(dist)
    if total < 2 * m - 1e-6 or abs(total - dist.max()) < 1e-6:
        return -1
    Fu = feats.shape[0]
    cnt[:] = 0.0
    unit = True
    for j in range(rows.shape[0]):
        r, wt, yk = rows[j], w[j], y[rows[j]]
        unit = unit and wt == 1.0
        for k in range(Fu):
            c = codes[r, feats[k]]
            if c >= 0:
                cnt[(off[k] + c) * K + yk] += wt
    per_bag, xcell, xbag, col = work[0], work[1], work[2], work[3]
    gains, ratios, valid, in_sum = work[4], work[5], work[6], work[7]
    n_avg = 0
    for k in range(Fu):
        nb = off[k + 1] - off[k]
        col[:K] = 0.0
        n_ok = 0
        for v in range(nb):
            per_bag[v] = _small_sum(cnt, (off[k] + v) * K, K)
            if per_bag[v] >= m - 1e-6:
                n_ok += 1
        valid[k] = n_ok >= 2
        gains[k], ratios[k] = 0.0, 0.0
        if n_ok < 2:
            continue
        for v in range(nb):
            base = (off[k] + v) * K
            for c in range(K):
                col[c] += cnt[base + c]
                xcell[v * K + c] = _xl(cnt[base + c], unit, table)
        known = _psum(per_bag, 0, nb)
        for v in range(nb):
            xbag[v] = _xl(per_bag[v], unit, table)
        for c in range(K):
            col[K + c] = _xl(col[c], unit, table)
        sx_bag = _psum(xbag, 0, nb)
        old = _xl(known, unit, table) - _psum(col, K, K)
        new = -(_psum(xcell, 0, nb * K) - sx_bag)
        num = old - new
        gain = 0.0 if abs(num) < 1e-6 else num * (1 - (total - known) / total) / known
        split = 0.0
        if known > 1e-6:
            split = -sx_bag - _xl(total - known, unit, table) + _xl(total, unit, table)
        gains[k] = gain
        ratios[k] = 0.0 if abs(split) < 1e-6 else gain / (split / total)
        if in_avg[feats[k]]:
            in_sum[n_avg] = gain
            n_avg += 1
    if n_avg == 0:
        return -1
    avg = _psum(in_sum, 0, n_avg) / n_avg
    best_f, best = -1, 0.0
    for k in range(Fu):
        if valid[k] > 0 and gains[k] >= avg - 1e-3 and ratios[k] - best > 1e-6:
            best_f, best = feats[k], ratios[k]
    if abs(best) < 1e-6:
        return -1
    return best_f


@njit(cache=True)
def _split(codes, rows, w, f, frac):
    """Rows and weights of each branch of a split on ``f``, in row order: the rows
    with the branch's value, and the rows missing it weighted by the branch's
    ``frac``; weight 0 dropped (C4.5's fractional instances)."""
    nb = frac.shape[0]
    size = np.zeros(nb, dtype=np.int64)
    lost = 0
    for j in range(rows.shape[0]):
        c = codes[rows[j], f]
        if c >= 0:
            size[c] += 1
        else:
            lost += 1
    none_r, none_w = np.empty(0, dtype=rows.dtype), np.empty(0)  # shared by empty branches
    out_r, out_w = [none_r] * nb, [none_w] * nb
    for v in range(nb):
        if size[v] + lost:
            out_r[v], out_w[v] = np.empty(size[v] + lost, dtype=rows.dtype), np.empty(size[v] + lost)
    fill = np.zeros(nb, dtype=np.int64)
    for j in range(rows.shape[0]):
        c = codes[rows[j], f]
        if c >= 0:
            wt = w[j] * 1.0
            if wt > 0:
                out_r[c][fill[c]], out_w[c][fill[c]] = rows[j], wt
                fill[c] += 1
        else:
            for v in range(nb):
                wt = w[j] * frac[v]
                if wt > 0:
                    out_r[v][fill[v]], out_w[v][fill[v]] = rows[j], wt
                    fill[v] += 1
    for v in range(nb):
        if fill[v] < out_r[v].shape[0]:
            out_r[v], out_w[v] = out_r[v][:fill[v]].copy(), out_w[v][:fill[v]].copy()
    return out_r, out_w


@njit(cache=True)
def _shares(weights):
    total = _sum(weights)
    if total > 0:
        return weights / total
    return np.full(weights.shape[0], 1.0 / weights.shape[0])


@njit(cache=True)
def _observed_bags(codes, rows, w, f, nb):
    bags = np.zeros(nb)
    lost = np.empty(rows.shape[0])
    n_lost = 0
    for j in range(rows.shape[0]):
        c = codes[rows[j], f]
        if c >= 0:
            bags[c] += w[j]
        else:
            lost[n_lost] = w[j]
            n_lost += 1
    return bags, lost[:n_lost].copy()


@njit(cache=True)
def _reset_bags(codes, rows, w, f, old):
    """Bag weights after sending (rows, w) through a split whose bags were ``old``
    (J48's resetDistribution: missing weight spread with the old proportions)."""
    bags, lost = _observed_bags(codes, rows, w, f, old.shape[0])
    return bags + _shares(old) * _sum(lost)


@njit(cache=True)
def _grow(codes, y, nv, in_avg, K, m, feat, first, nch, bag, empty, counts, rows_of, w_of):
    """Grow the tree from the root (node 0) depth first: the lists of node
    attributes get each node's split and its children (consecutive ids)."""
    feats = np.flatnonzero(nv > 0)
    off = np.zeros(feats.shape[0] + 1, dtype=np.int64)
    for k in range(feats.shape[0]):
        off[k + 1] = off[k] + nv[feats[k]]
    # scratch buffers of _select, and n log2 n for the counts of unit weights
    width = max(2 * K, nv.max() * K, feats.shape[0], 1)
    cnt, work = np.zeros(max(off[-1] * K, 1)), np.zeros((8, width))
    table = np.zeros(codes.shape[0] + 1)
    for k in range(1, codes.shape[0] + 1):
        table[k] = k * math.log2(k)
    stack = [0]
    while len(stack):
        i = stack.pop()
        rows, w = rows_of[i], w_of[i]
        f = _select(codes, y, rows, w, counts[i], feats, off, in_avg, K, m, table, cnt, work)
        if f < 0:
            continue
        bags, _ = _observed_bags(codes, rows, w, f, nv[f])
        parts_r, parts_w = _split(codes, rows, w, f, _shares(bags))
        feat[i], first[i], nch[i] = f, len(feat), nv[f]
        zero = np.zeros(K)  # shared by empty children (counts are replaced, never changed)
        for v in range(nv[f]):
            dist = _class_counts(y, parts_r[v], parts_w[v], K) if parts_r[v].shape[0] else zero
            feat.append(-1)
            first.append(0)
            nch.append(0)
            bag.append(bags[v])
            empty.append(_sum(dist) <= 0)
            counts.append(dist)
            rows_of.append(parts_r[v])
            w_of.append(parts_w[v])
            stack.append(len(feat) - 1)


@njit(cache=True)
def _subtree(i, feat, first, nch):
    """Node ids of node i's current subtree, decreasing (children after parents in id)."""
    out, stack = [i], [i]
    while len(stack):
        j = stack.pop()
        if feat[j] >= 0:
            for c in range(first[j], first[j] + nch[j]):
                out.append(c)
                stack.append(c)
    ids = np.array(out)
    ids.sort()
    return ids[::-1]


@njit(cache=True)
def _subtree_sums(i, feat, first, nch, leaf_value):
    """Sum of ``leaf_value`` over the leaves of node i's subtree, added as the recursive
    definition does (children in order, each child's sum first)."""
    ids = _subtree(i, feat, first, nch)
    val = np.zeros(len(feat))
    for j in ids:  # children have larger ids than their parent
        if feat[j] < 0:
            val[j] = leaf_value[j]
        else:
            s = 0.0
            for c in range(first[j], first[j] + nch[j]):
                s += val[c]
            val[j] = s
    return val


@njit(cache=True)
def _collapse(feat, first, nch, counts):
    """Subtrees that do not reduce the training errors become leaves (J48's collapse)."""
    own = np.empty(len(feat))
    for j in range(len(feat)):
        own[j] = _sum(counts[j]) - counts[j].max()
    sub = _subtree_sums(0, feat, first, nch, own)
    stack = [0]
    while len(stack):
        j = stack.pop()
        if feat[j] < 0:
            continue
        if sub[j] >= own[j] - 1e-3:
            feat[j] = -1
        else:
            for c in range(first[j], first[j] + nch[j]):
                stack.append(c)


@njit(cache=True)
def _bags_of(i, first, nch, bag):
    out = np.empty(nch[i])
    for v in range(nch[i]):
        out[v] = bag[first[i] + v]
    return out


@njit(cache=True)
def _errors_for_branch(i, rows, w, codes, y, K, feat, first, nch, bag, cf, z):
    """Estimated errors of node i's subtree on other rows (J48's
    getEstimatedErrorsForBranch): rows sent down as in training, leaf errors summed
    child by child (an explicit stack of frames stands for the recursion)."""
    if feat[i] < 0:
        return _leaf_errors(_class_counts(y, rows, w, K), cf, z)
    frac = _shares(_reset_bags(codes, rows, w, feat[i], _bags_of(i, first, nch, bag)))
    parts_r, parts_w = _split(codes, rows, w, feat[i], frac)
    f_node, f_next, f_acc, f_rows, f_w = [i], [0], [0.0], [parts_r], [parts_w]
    total = 0.0
    while len(f_node):
        t = len(f_node) - 1
        j, v = f_node[t], f_next[t]
        if v == nch[j]:  # every branch done: hand the sum to the parent frame
            s = f_acc[t]
            f_node.pop()
            f_next.pop()
            f_acc.pop()
            f_rows.pop()
            f_w.pop()
            if t == 0:
                total = s
            else:
                f_acc[t - 1] += s
            continue
        f_next[t] = v + 1
        r, wv = f_rows[t][v], f_w[t][v]
        c = first[j] + v
        if feat[c] < 0:
            f_acc[t] += _leaf_errors(_class_counts(y, r, wv, K), cf, z)
        else:
            frac = _shares(_reset_bags(codes, r, wv, feat[c], _bags_of(c, first, nch, bag)))
            parts_r, parts_w = _split(codes, r, wv, feat[c], frac)
            f_node.append(c)
            f_next.append(0)
            f_acc.append(0.0)
            f_rows.append(parts_r)
            f_w.append(parts_w)
    return total


@njit(cache=True)
def _errors_for_branch_complete(i, largest, codes, y, K, feat, first, nch, counts, rows_of, cf, z,
                                extra, hit, val):
    """:func:`_errors_for_branch` of node i's largest branch on node i's rows when no
    value is missing: the branch's own rows reach its leaves as they are, so only the
    other branches' rows are sent down it.  ``extra``, ``hit`` and ``val`` are
    scratch arrays over node ids (left zeroed)."""
    touched = [largest]
    for c in range(first[i], first[i] + nch[i]):
        if c == largest:
            continue
        rows = rows_of[c]
        for t in range(rows.shape[0]):
            r, j = rows[t], largest
            while feat[j] >= 0:
                j = first[j] + codes[r, feat[j]]
            if not hit[j]:
                hit[j] = True
                touched.append(j)
            extra[j * K + y[r]] += 1.0
    ids = _subtree(largest, feat, first, nch)
    for j in ids:  # children before parents: each subtree's sum child by child
        if feat[j] < 0:
            if hit[j]:
                val[j] = _leaf_errors(counts[j] + extra[j * K:(j + 1) * K], cf, z)
            else:
                val[j] = _leaf_errors(counts[j], cf, z)
        else:
            s = 0.0
            for c in range(first[j], first[j] + nch[j]):
                s += val[c]
            val[j] = s
    out = val[largest]
    for j in touched:
        hit[j] = False
        extra[j * K:(j + 1) * K] = 0.0
    return out


@njit(cache=True)
def _new_distribution(i, codes, y, K, feat, first, nch, bag, empty, counts, rows_of, w_of):
    """Send node i's rows down its (raised) subtree: new counts, bag weights, rows."""
    stack = [i]
    while len(stack):
        j = stack.pop()
        rows, w = rows_of[j], w_of[j]
        counts[j] = _class_counts(y, rows, w, K)
        if feat[j] < 0:
            if _sum(w) > 1e-6:
                empty[j] = False
            continue
        bags = _reset_bags(codes, rows, w, feat[j], _bags_of(j, first, nch, bag))
        for v in range(nch[j]):
            bag[first[j] + v] = bags[v]
        parts_r, parts_w = _split(codes, rows, w, feat[j], _shares(bags))
        for v in range(nch[j]):
            c = first[j] + v
            rows_of[c], w_of[c] = parts_r[v], parts_w[v]
            stack.append(c)


@njit(cache=True)
def _prune(codes, y, K, cf, z, raising, complete, feat, first, nch, bag, empty, counts, rows_of, w_of):
    """J48's prune(), post-order: a node's children first, then the node becomes a
    leaf, is replaced by its largest branch (which is then pruned again) or stays."""
    N = len(feat)
    est = np.zeros(N)  # estimated errors of each pruned subtree
    extra, hit, val = np.zeros(N * K), np.zeros(N, dtype=np.bool_), np.zeros(N)
    stack, ready = [0], [False]
    while len(stack):
        i, done = stack.pop(), ready.pop()
        if feat[i] < 0:
            est[i] = _leaf_errors(counts[i], cf, z)
            continue
        if not done:
            stack.append(i)
            ready.append(True)
            for c in range(first[i] + nch[i] - 1, first[i] - 1, -1):  # first child first
                stack.append(c)
                ready.append(False)
            continue
        largest = first[i] + np.argmax(_bags_of(i, first, nch, bag))
        err_large = np.inf
        if raising and complete:
            err_large = _errors_for_branch_complete(i, largest, codes, y, K, feat, first, nch, counts, rows_of,
                                                    cf, z, extra, hit, val)
        elif raising:
            err_large = _errors_for_branch(largest, rows_of[i], w_of[i], codes, y, K, feat, first, nch, bag, cf, z)
        err_leaf = _leaf_errors(counts[i], cf, z)
        err_tree = 0.0
        for c in range(first[i], first[i] + nch[i]):  # the children's subtrees are pruned
            err_tree += est[c]
        if err_leaf <= err_tree + 0.1 + 1e-6 and err_leaf <= err_large + 0.1 + 1e-6:
            feat[i], est[i] = -1, err_leaf
        elif err_large <= err_tree + 0.1 + 1e-6:  # subtree raising
            feat[i], first[i], nch[i] = feat[largest], first[largest], nch[largest]
            _new_distribution(i, codes, y, K, feat, first, nch, bag, empty, counts, rows_of, w_of)
            stack.append(i)  # and prune the raised subtree again
            ready.append(False)
        else:
            est[i] = err_tree


@njit(cache=True)
def fit_c45(codes, y, nv, in_avg, K, m, cf, z, collapse, pruning, raising):
    """Grow, collapse and prune a C4.5 tree.
    ``codes`` (n_samples, n_features): category codes, -1 = missing; ``y`` (n_samples,); ``nv``
    (n_features,): declared values per feature; ``in_avg`` (n_features,): features that enter the
    average gain; ``m``, ``cf``, ``z``: minimum instances, confidence factor and the normal
    quantile at ``1 - cf``. Returns ``feat, first, nch`` (ints, (n_nodes,)): split feature (-1 at a
    leaf), first child and number of children of the final tree's nodes, breadth first (node 0 is
    the root; children have consecutive ids); ``bag`` (n_nodes,): weight of the branch into each
    node (its parent's bag weights); ``empty`` (bools, (n_nodes,)); ``counts`` (n_nodes, K).
    """
    n = codes.shape[0]
    rows0, w0 = np.arange(n), np.ones(n)
    dist0 = _class_counts(y, rows0, w0, K)
    feat, first, nch = [-1], [0], [0]
    bag, empty, counts = [0.0], [_sum(dist0) <= 0], [dist0]
    rows_of, w_of = [rows0], [w0]
    _grow(codes, y, nv, in_avg, K, m, feat, first, nch, bag, empty, counts, rows_of, w_of)
    if collapse:
        _collapse(feat, first, nch, counts)
    if pruning:
        complete = True
        for r in range(n):
            for k in range(codes.shape[1]):
                complete = complete and codes[r, k] >= 0
        _prune(codes, y, K, cf, z, raising, complete, feat, first, nch, bag, empty, counts, rows_of, w_of)
    # the nodes still in the tree, renumbered breadth first (children stay consecutive)
    keep, new_id = [0], np.full(len(feat), -1, dtype=np.int64)
    new_id[0] = 0
    h = 0
    while h < len(keep):
        j = keep[h]
        h += 1
        if feat[j] >= 0:
            for c in range(first[j], first[j] + nch[j]):
                new_id[c] = len(keep)
                keep.append(c)
    N = len(keep)
    o_feat, o_first, o_nch = np.full(N, -1, dtype=np.int64), np.zeros(N, dtype=np.int64), np.zeros(N, dtype=np.int64)
    o_bag, o_empty, o_counts = np.empty(N), np.empty(N, dtype=np.bool_), np.empty((N, K))
    for t in range(N):
        j = keep[t]
        if feat[j] >= 0:
            o_feat[t], o_first[t], o_nch[t] = feat[j], new_id[first[j]], nch[j]
        o_bag[t], o_empty[t], o_counts[t] = bag[j], empty[j], counts[j]
    return o_feat, o_first, o_nch, o_bag, o_empty, o_counts


@njit(cache=True)
def finish_c45(feat, first, nch, bag, empty, counts):
    """Prediction arrays of a tree from :func:`fit_c45`: ``share`` (n_nodes,), each branch's part
    of its parent's bag weight; ``emit`` (n_nodes, K), the class frequencies a leaf answers (its
    parent's at an empty or weightless node); ``rank`` (n_nodes,), each answering leaf's place in
    J48's depth-first walk (last branch first), the order prediction adds distributions in so that
    sums match bit for bit; and the depth of the tree.
    """
    n, K = counts.shape
    emit = np.empty((n, K))
    zero = np.empty(n, dtype=np.bool_)
    for i in range(n):
        t = _small_sum(counts[i], 0, K)
        zero[i] = t <= 0
        emit[i] = counts[i] / (t if t > 0 else 1.0)
    q = emit.copy()
    share, rank, depth = np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    order, stack = 0, [0]
    while len(stack):
        i = stack.pop()
        if feat[i] < 0:
            if not empty[i]:
                rank[i], order = order, order + 1
            continue
        t = _psum(bag, first[i], nch[i])
        for c in range(first[i], first[i] + nch[i]):
            depth[c] = depth[i] + 1
            share[c] = bag[c] / t if t > 0 else 1.0 / nch[i]
            if empty[c] or zero[c]:
                emit[c] = q[i]
            if empty[c]:
                rank[c], order = order, order + 1
            stack.append(c)
    return share, emit, rank, depth.max()
