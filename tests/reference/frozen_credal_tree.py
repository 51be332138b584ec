"""The credal decision tree before its level-wise rewrite (dense cells, one node at a time)."""

from __future__ import annotations

from __future__ import annotations
import numpy as np
from scipy import special
from credal._validation import check_fit_input
from credal.trees import CredalDecisionTree, _Node


# ============================================================================
# the frozen credal tree (dense cells, one node at a time)
# ============================================================================

def _frozen_water_level(n, s):
    k = n.shape[-1]
    ns = np.sort(n, axis=-1)
    levels = (s + np.cumsum(ns, axis=-1)) / np.arange(1, k + 1)
    nxt = np.concatenate([ns[..., 1:], np.full(ns.shape[:-1] + (1,), np.inf)], axis=-1)
    r = np.argmax(levels <= nxt, axis=-1)
    return np.take_along_axis(levels, r[..., None], axis=-1)


def frozen_upper_entropy(n, s):
    """Upper entropy of each row of counts ``n`` (last axis), as the frozen tree had it."""
    level = _frozen_water_level(n, s)
    p = np.maximum(n, level) / (n.sum(axis=-1, keepdims=True) + s)
    return -np.sum(special.xlogy(p, p), axis=-1)


def _frozen_value_class_counts(codes, y, w, K, n_values, features):
    nv = n_values[features]
    offsets = np.concatenate([[0], np.cumsum(nv)])
    sub = codes[:, features]
    mask = sub >= 0
    idx = (offsets[:-1][None, :] + sub) * K + y[:, None]
    flat = np.bincount(idx[mask], weights=np.broadcast_to(w[:, None], sub.shape)[mask],
                       minlength=offsets[-1] * K)
    return flat.reshape(offsets[-1], K), offsets


def frozen_split_rows(codes_col, rows, w, bag_weights):
    """Rows and weights sent to each branch (missing values: to all, by bag weight)."""
    vals = codes_col[rows]
    miss = vals < 0
    total = bag_weights.sum()
    frac = bag_weights / total if total > 0 else np.full(len(bag_weights),
                                                          1.0 / len(bag_weights))
    out = []
    for v in range(len(bag_weights)):
        sel = (vals == v) | miss
        wv = w[sel] * np.where(miss[sel], frac[v], 1.0)
        keep = wv > 0
        out.append((rows[sel][keep], wv[keep]))
    return out


class FrozenCredalTree(CredalDecisionTree):
    """CredalDecisionTree with the earlier fitting code (dense cells, one node at a time)."""

    def fit(self, X, y):
        codes, y_idx = check_fit_input(self, X, y)
        self._s = float(self.s)
        self._codes, self._y = codes, y_idx
        self._K = len(self.classes_)
        self._double = self.branching == "double"
        rows = np.arange(len(y_idx))
        self.tree_ = self._grow(rows, np.ones(len(y_idx)), np.flatnonzero(self.n_values_ > 1),
                                None)
        del self._codes, self._y
        self._count()
        return self

    def _count(self):
        """``n_leaves_`` and ``depth_`` by walking the node objects."""
        def walk(node, d):
            if node.is_leaf:
                return 1, d
            parts = [walk(c, d + 1) for c in node.children]
            return sum(p[0] for p in parts), max(p[1] for p in parts)

        self.n_leaves_, self.depth_ = walk(self.tree_, 0)

    def _route(self, codes):
        # the old per-node routing (one stack entry per node), frozen as a reference
        n = len(codes)
        K = len(self.classes_)
        sets = np.zeros((n, K), dtype=bool)
        score = np.zeros((n, K))
        stack = [(self.tree_, np.arange(n), np.ones(n))]
        while stack:
            node, rows, w = stack.pop()
            if len(rows) == 0:
                continue
            if node.is_leaf:
                sets[rows] |= node.value_set
                freq = node.pred / node.pred.sum()
                np.add.at(score, rows, w[:, None] * freq[None, :])
                continue
            stack.extend(zip(node.children, *zip(*frozen_split_rows(
                codes[:, node.feature], rows, w, node.bag_weights))))
        return sets, score

    def _gains_single(self, codes, y, w, W, feats):
        counts, off = _frozen_value_class_counts(codes, y, w, self._K, self.n_values_, feats)
        return self._gains_of_counts(counts, off, W)

    def _gains_of_counts(self, counts, off, W):
        # imprecise information gain of each block of value rows off[i]:off[i + 1]
        h = frozen_upper_entropy(counts, self._s)
        nv = counts.sum(axis=1)
        known = np.add.reduceat(nv, off[:-1])
        parent = np.add.reduceat(counts, off[:-1], axis=0)
        after = np.add.reduceat(nv * h, off[:-1])
        with np.errstate(divide="ignore", invalid="ignore"):
            g = (known / W) * (frozen_upper_entropy(parent, self._s) - after / known)
        return np.where(known > 0, g, -np.inf)

    def _gains_pairs(self, codes, y, w, W, feats):
        if len(feats) < 2:
            return np.empty(0), np.empty((0, 2), dtype=int)
        i, j = np.triu_indices(len(feats), k=1)
        fi, fj = feats[i], feats[j]
        nvj = self.n_values_[fj]
        nv = self.n_values_[fi] * nvj
        a, b = codes[:, fi], codes[:, fj]
        joint = np.where((a >= 0) & (b >= 0), a * nvj[None, :] + b, -1)
        counts, off = _frozen_value_class_counts(joint, y, w, self._K, nv, np.arange(len(fi)))
        return self._gains_of_counts(counts, off, W), np.column_stack([fi, fj])

    def _choose(self, rows, w, feats):
        if len(feats) == 0 or len(rows) == 0:
            return -1
        codes, y = self._codes[rows], self._y[rows]
        W = w.sum()
        g1 = self._gains_single(codes, y, w, W, feats)
        best1 = g1.max()
        best = best1
        if self._double:
            g2, pairs = self._gains_pairs(codes, y, w, W, feats)
            if len(g2) and g2.max() > best1 + 1e-12:
                best = g2.max()
                if best > 1e-12:
                    k = int(np.flatnonzero(g2 >= best - 1e-12)[0])
                    f1, f2 = pairs[k]
                    gg = g1[np.searchsorted(feats, [f1, f2])]
                    return int(f2) if gg[1] > gg[0] + 1e-12 else int(f1)
        if best1 > 1e-12:
            return int(feats[np.flatnonzero(g1 >= best1 - 1e-12)[0]])
        return -1

    def _grow(self, rows, w, feats, parent_pred):
        counts = np.bincount(self._y[rows], weights=w, minlength=self._K)
        node = _Node(counts)
        pred = counts if counts.sum() > 0 else parent_pred
        node.pred = pred
        node.value_set = self._leaf_set(counts, pred)
        f = self._choose(rows, w, feats)
        if f < 0:
            return node
        col = self._codes[:, f]
        known = col[rows] >= 0
        node.feature = f
        node.bag_weights = np.bincount(col[rows][known], weights=w[known],
                                       minlength=self.n_values_[f])
        rest = feats[feats != f]
        node.children = [self._grow(r, wv, rest, pred)
                         for r, wv in frozen_split_rows(col, rows, w, node.bag_weights)]
        return node
