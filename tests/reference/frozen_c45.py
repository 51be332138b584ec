"""Frozen copy of credal.trees.C45Tree as of commit 1f8f21e (before its vectorisation).

The growing and pruning code is that of commit 263dd07 unchanged; only the
estimator plumbing (base classes, prediction hooks) is that of the later commit.

The fast C45Tree must reproduce this code's trees, predictions and probabilities
(tests/test_trees.py).  Do not edit: it is the reference, not a maintained classifier.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats
from sklearn.utils.validation import check_is_fitted

from credal.base import BaseClassifier, PreciseMixin
from credal._validation import check_fit_input, check_in_range

__all__ = ["FrozenC45Tree"]


class _Node:
    """One tree node; ``counts`` are the (weighted) training class counts reaching it."""

    __slots__ = ("counts", "feature", "children", "bag_weights", "empty", "rows", "w", "value_set", "pred")

    def __init__(self, counts):
        self.counts = counts
        self.feature = -1  # -1: leaf
        self.children = None
        self.bag_weights = None  # per child, for routing missing values
        self.empty = counts.sum() <= 0
        self.rows = None
        self.w = None
        self.value_set = None
        self.pred = None  # counts behind predictions (the parent's for an empty leaf)

    @property
    def is_leaf(self):
        return self.children is None


def _value_class_counts(codes, y, w, K, n_values, features):
    """Weighted class counts per (feature, value) for the observed cells.

    Returns ``counts`` (sum of n_values[features], K) and the row offsets of
    each feature's block.
    """
    nv = n_values[features]
    offsets = np.concatenate([[0], np.cumsum(nv)])
    sub = codes[:, features]
    mask = sub >= 0
    idx = (offsets[:-1][None, :] + sub) * K + y[:, None]
    flat = np.bincount(
        idx[mask], weights=np.broadcast_to(w[:, None], sub.shape)[mask], minlength=offsets[-1] * K
    )
    return flat.reshape(offsets[-1], K), offsets


def _split_rows(codes_col, rows, w, bag_weights):
    """Send rows down a multiway split; missing values go everywhere, fractionally.

    Returns, per branch, the rows (in their order in ``rows``) and their weights:
    ``w`` for rows with that value, ``w`` times the branch's share of the observed
    weight for rows missing the value; rows of weight 0 are dropped.
    """
    vals = codes_col[rows]
    nb = len(bag_weights)
    miss = vals < 0
    total = bag_weights.sum()
    frac = bag_weights / total if total > 0 else np.full(nb, 1.0 / nb)
    out = []
    if nb <= 4:
        for v in range(nb):
            sel = (vals == v) | miss
            wv = w[sel] * np.where(miss[sel], frac[v], 1.0)
            keep = wv > 0
            out.append((rows[sel][keep], wv[keep]))
        return out
    # Many branches: group the positions by value with one stable sort (O(n log n)
    # instead of a pass over the rows per branch); positions stay increasing.
    order = np.argsort(vals.astype(np.int16) if nb < 2**15 else vals, kind="stable")
    bounds = np.searchsorted(vals[order], np.arange(nb + 1), side="left")
    lost = order[: bounds[0]]  # the missing values come first (code -1)
    for v in range(nb):
        pos = order[bounds[v]:bounds[v + 1]]
        if len(lost):
            pos = np.sort(np.concatenate([pos, lost]))
        wv = w[pos] * np.where(miss[pos], frac[v], 1.0)
        keep = wv > 0
        out.append((rows[pos[keep]], wv[keep]))
    return out


def _names(est):
    names = getattr(est, "feature_names_in_", None)
    if names is None:
        names = [f"x{j}" for j in range(est.n_features_in_)]
    cats = getattr(est, "categories_", None)
    return [str(n) for n in names], cats


def _fmt_value(cats, j, v):
    return str(cats[j][v]) if cats is not None else str(v)


class _TreeMixin:
    """Shared fitted-tree helpers."""

    def _count(self):
        leaves, depth = 0, 0
        stack = [(self.tree_, 0)]
        while stack:
            node, d = stack.pop()
            if node.is_leaf:
                leaves += 1
                depth = max(depth, d)
            else:
                stack.extend((c, d + 1) for c in node.children)
        self.n_leaves_ = leaves
        self.depth_ = depth

    def _check_fitted(self):
        check_is_fitted(self, "tree_")

    def export_text(self, decimals=1):
        """The fitted tree as indented text, one line per branch (Weka's layout).

        Parameters
        ----------
        decimals : int
            Decimals of the training weights shown at the leaves.

        Returns
        -------
        str
        """
        self._check_fitted()
        names, cats = _names(self)
        lines = []

        def walk(node, depth):
            for v, child in enumerate(node.children):
                head = "|   " * depth + f"{names[node.feature]} = {_fmt_value(cats, node.feature, v)}"
                if child.is_leaf:
                    lines.append(head + ": " + self._leaf_text(child, node, decimals))
                else:
                    lines.append(head)
                    walk(child, depth + 1)

        if self.tree_.is_leaf:
            lines.append(": " + self._leaf_text(self.tree_, None, decimals))
        else:
            walk(self.tree_, 0)
        lines.append("")
        lines.append(f"Number of leaves: {self.n_leaves_}")
        lines.append(f"Depth: {self.depth_}")
        return "\n".join(lines)



# ----------------------------------------------------------------------- C4.5


def _xlog2x(a):
    a = np.asarray(a, dtype=float)
    return np.where(a > 1e-6, a * np.log2(np.where(a > 1e-6, a, 1.0)), 0.0)


def _add_errs(N, e, cf):
    """Weka's Stats.addErrs: extra errors at the upper confidence limit (C4.5)."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = N * (1 - cf ** (1.0 / N))
        if e == 0:
            return base
        return base + e * (_add_errs(N, 1.0, cf) - base)
    if e + 0.5 >= N:
        return max(N - e, 0.0)
    z = stats.norm.ppf(1 - cf)
    f = (e + 0.5) / N
    r = (f + z * z / (2 * N) + z * np.sqrt(f / N - f * f / N + z * z / (4 * N * N))) / (1 + z * z / N)
    return r * N - e


class FrozenC45Tree(PreciseMixin, _TreeMixin, BaseClassifier):
    """C4.5 decision tree for nominal features, following Weka's J48 (defaults).

    Growing: at each node, every feature whose multiway split puts at least
    ``min_num_obj`` (weighted) instances in at least two branches is a candidate;
    among candidates whose information gain is at least the average gain of the
    candidates (minus 1e-3 bits), the one with the largest gain ratio is chosen
    (first feature on ties); no split if no candidate or a zero gain ratio, if the
    node has fewer than ``2 min_num_obj`` instances, or if it is pure.  Gains are
    in bits; a feature with many values (at least 0.3 times the training size) is
    left out of the average unless every feature has that many.  Then the tree is
    collapsed (a subtree that does not reduce training errors becomes a leaf) and
    pruned bottom-up by C4.5's pessimistic error estimate at confidence
    ``confidence_factor`` (a subtree is replaced by a leaf, or by its largest
    branch — subtree raising — when that does not increase the estimated errors
    by more than 0.1).

    Missing values (C4.5's fractional instances).  Training: the gain of a feature
    uses the rows where it is observed, times the observed fraction, and the split
    information counts the missing rows as one more branch; rows missing the split
    feature go down every branch with weights proportional to the branch sizes.
    Prediction: a row missing the split feature goes down every branch and the
    class distributions reached are averaged with those weights.  A row reaching an
    empty branch gets its parent's class distribution.

    Parameters
    ----------
    confidence_factor : float, default=0.25
        Confidence of the pessimistic error estimate, in (0, 0.5]; smaller prunes more.
    min_num_obj : int, default=2
        Minimum (weighted) instances in at least two branches of a split (Weka's -M).
    pruning : bool, default=True
        Prune by the error estimate (False gives J48's unpruned tree, -U).
    subtree_raising : bool, default=True
        Consider replacing a subtree by its largest branch while pruning.
    collapse : bool, default=True
        Replace subtrees that do not reduce the training error by leaves (J48
        does this even for unpruned trees).

    Attributes
    ----------
    classes_, n_features_in_, n_values_ : see :class:`CredalDecisionTree`
    tree_ : object
    n_leaves_ : int
    depth_ : int
    """

    def __init__(
        self, confidence_factor=0.25, min_num_obj=2, pruning=True, subtree_raising=True, collapse=True
    ):
        self.confidence_factor = confidence_factor
        self.min_num_obj = min_num_obj
        self.pruning = pruning
        self.subtree_raising = subtree_raising
        self.collapse = collapse

    def fit(self, X, y):
        """Grow and prune the tree.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, n_features), or DataFrame of categoricals
        y : array-like, shape (n_samples,)

        Returns
        -------
        self
        """
        self._cf = check_in_range("confidence_factor", self.confidence_factor, 0.0, 0.5, closed="right")
        m = self.min_num_obj
        if isinstance(m, bool) or not isinstance(m, numbers.Real) or not np.isfinite(m) or m < 1:
            raise ValueError(f"min_num_obj must be a number >= 1; got {m!r}")
        self._m = float(m)
        codes, y_idx = check_fit_input(self, X, y)
        self._codes = codes
        self._y = y_idx
        self._K = len(self.classes_)
        n = len(y_idx)
        # J48 leaves many-valued features out of the average gain, unless all are.
        many = self.n_values_ >= 0.3 * n
        self._in_average = np.ones(len(many), dtype=bool) if many.all() else ~many
        rows = np.arange(n)
        self.tree_ = self._build(rows, np.ones(n))
        if self.collapse:
            self._collapse(self.tree_)
        if self.pruning:
            self._prune(self.tree_)
        self._strip(self.tree_)
        del self._codes, self._y
        self._count()
        return self

    # -- growing

    def _select(self, rows, w):
        """Feature to split on, or -1 (J48's C45ModelSelection)."""
        y = self._y[rows]
        dist = np.bincount(y, weights=w, minlength=self._K)
        total = dist.sum()
        if total < 2 * self._m - 1e-6 or abs(total - dist.max()) < 1e-6:
            return -1
        feats = np.flatnonzero(self.n_values_ > 0)
        counts, off = _value_class_counts(self._codes[rows], y, w, self._K, self.n_values_, feats)
        best_f, best_ratio = -1, 0.0
        gains, ratios, valid = [], [], []
        for k, f in enumerate(feats):
            bags = counts[off[k] : off[k + 1]]
            per_bag = bags.sum(axis=1)
            if np.sum(per_bag >= self._m - 1e-6) < 2:
                gains.append(0.0)
                ratios.append(0.0)
                valid.append(False)
                continue
            known = per_bag.sum()
            old = _xlog2x(known) - _xlog2x(bags.sum(axis=0)).sum()
            new = -(_xlog2x(bags).sum() - _xlog2x(per_bag).sum())
            num = old - new
            if abs(num) < 1e-6:
                gain = 0.0
            else:
                gain = num * (1 - (total - known) / total) / known
            split_ent = 0.0
            if known > 1e-6:
                split_ent = -_xlog2x(per_bag).sum() - _xlog2x(total - known) + _xlog2x(total)
            ratio = 0.0 if abs(split_ent) < 1e-6 else gain / (split_ent / total)
            gains.append(gain)
            ratios.append(ratio)
            valid.append(True)
        valid = np.array(valid)
        gains = np.array(gains)
        in_avg = valid & self._in_average[feats]
        if not valid.any() or not in_avg.any():
            return -1
        avg = gains[in_avg].mean()
        for k, f in enumerate(feats):
            if valid[k] and gains[k] >= avg - 1e-3 and ratios[k] - best_ratio > 1e-6:
                best_f, best_ratio = int(f), ratios[k]
        if abs(best_ratio) < 1e-6:
            return -1
        return best_f

    def _build(self, rows, w):
        dist = np.bincount(self._y[rows], weights=w, minlength=self._K)
        node = _Node(dist)
        node.rows, node.w = rows, w
        f = self._select(rows, w)
        if f < 0:
            return node
        col = self._codes[:, f]
        known = col[rows] >= 0
        bags = np.bincount(col[rows][known], weights=w[known], minlength=self.n_values_[f])
        node.feature = f
        node.bag_weights = bags
        node.children = [self._build(r, wv) for r, wv in _split_rows(col, rows, w, bags)]
        return node

    # -- pruning (J48's collapse, prune, subtree raising)

    def _leaf_errors(self, dist):
        total = dist.sum()
        if total < 1e-6:
            return 0.0
        e = total - dist.max()
        return e + _add_errs(total, e, self._cf)

    def _estimated_errors(self, node):
        if node.is_leaf:
            return self._leaf_errors(node.counts)
        return sum(self._estimated_errors(c) for c in node.children)

    def _training_errors(self, node):
        if node.is_leaf:
            return node.counts.sum() - node.counts.max()
        return sum(self._training_errors(c) for c in node.children)

    def _errors_for_branch(self, node, rows, w):
        """Estimated errors of ``node``'s subtree on other data (rows, weights)."""
        if node.is_leaf:
            return self._leaf_errors(np.bincount(self._y[rows], weights=w, minlength=self._K))
        col = self._codes[:, node.feature]
        bags = self._reset_bags(node, rows, w)
        parts = _split_rows(col, rows, w, bags)
        return sum(self._errors_for_branch(c, r, wv) for c, (r, wv) in zip(node.children, parts))

    def _reset_bags(self, node, rows, w):
        """Bag weights after redistributing (rows, w) through node's split.

        Missing values are spread with the node's current bag proportions (Weka
        computes the new distribution with the old split weights).
        """
        col = self._codes[:, node.feature]
        vals = col[rows]
        known = vals >= 0
        bags = np.bincount(vals[known], weights=w[known], minlength=len(node.children))
        old = node.bag_weights
        frac = old / old.sum() if old.sum() > 0 else np.full(len(old), 1.0 / len(old))
        return bags + frac * w[~known].sum()

    def _make_leaf(self, node):
        node.feature = -1
        node.children = None
        node.bag_weights = None

    def _collapse(self, node):
        if node.is_leaf:
            return
        if self._training_errors(node) >= node.counts.sum() - node.counts.max() - 1e-3:
            self._make_leaf(node)
        else:
            for c in node.children:
                self._collapse(c)

    def _prune(self, node):
        if node.is_leaf:
            return
        for c in node.children:
            self._prune(c)
        largest = int(np.argmax(node.bag_weights))
        if self.subtree_raising:
            err_largest = self._errors_for_branch(node.children[largest], node.rows, node.w)
        else:
            err_largest = np.inf
        err_leaf = self._leaf_errors(node.counts)
        err_tree = self._estimated_errors(node)
        if err_leaf <= err_tree + 0.1 + 1e-6 and err_leaf <= err_largest + 0.1 + 1e-6:
            self._make_leaf(node)
            return
        if err_largest <= err_tree + 0.1 + 1e-6:
            branch = node.children[largest]
            node.feature = branch.feature
            node.children = branch.children
            node.bag_weights = branch.bag_weights
            self._new_distribution(node, node.rows, node.w)
            self._prune(node)

    def _new_distribution(self, node, rows, w):
        node.rows, node.w = rows, w
        node.counts = np.bincount(self._y[rows], weights=w, minlength=self._K)
        if node.is_leaf:
            if w.sum() > 1e-6:
                node.empty = False
            return
        node.bag_weights = self._reset_bags(node, rows, w)
        parts = _split_rows(self._codes[:, node.feature], rows, w, node.bag_weights)
        for c, (r, wv) in zip(node.children, parts):
            self._new_distribution(c, r, wv)

    def _strip(self, node):
        node.rows = node.w = None
        if not node.is_leaf:
            for c in node.children:
                self._strip(c)

    # -- prediction

    def _predict_input(self, X):
        # class probabilities: the training class frequencies at the leaf reached
        # (computed once per call, for predict and predict_proba alike)
        codes = super()._predict_input(X)
        n = len(codes)
        proba = np.zeros((n, len(self.classes_)))
        stack = [(self.tree_, np.arange(n), np.ones(n), self.tree_.counts)]
        while stack:
            node, rows, w, parent_counts = stack.pop()
            if len(rows) == 0:
                continue
            if node.is_leaf:
                # A leaf left without training weight by subtree raising answers
                # with its parent's distribution.
                dist = node.counts if node.counts.sum() > 0 else parent_counts
                np.add.at(proba, rows, w[:, None] * (dist / dist.sum())[None, :])
                continue
            parts = _split_rows(codes[:, node.feature], rows, w, node.bag_weights)
            for v, (child, (r, wv)) in enumerate(zip(node.children, parts)):
                if child.empty:
                    # J48: an empty branch answers with the parent's distribution.
                    vals = codes[r, node.feature]
                    direct = vals == v
                    if direct.any():
                        np.add.at(proba, r[direct], wv[direct, None] * (node.counts / node.counts.sum())[None, :])
                    continue
                stack.append((child, r, wv, node.counts))
        return proba / proba.sum(axis=1, keepdims=True)

    def _proba(self, proba):
        return proba

    def _log_proba(self, proba):
        with np.errstate(divide="ignore"):  # -inf for zero probabilities
            return np.log(proba)

    def _scores(self, proba):
        # most probable class, the first in ``classes_`` order on ties within 1e-9
        return (proba >= proba.max(axis=1, keepdims=True) - 1e-9).astype(float)

    def _leaf_text(self, node, parent, decimals):
        total = node.counts.sum()
        if total <= 0 and parent is not None:
            label = self.classes_[int(np.argmax(parent.counts))]
            return f"{label} (0.0)"
        label = self.classes_[int(np.argmax(node.counts))]
        wrong = total - node.counts.max()
        txt = f"{label} ({total:.{decimals}f}"
        if wrong > 1e-6:
            txt += f"/{wrong:.{decimals}f}"
        return txt + ")"
