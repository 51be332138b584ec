"""Classification trees on nominal data: the credal decision tree and a C4.5 baseline.

:class:`CredalDecisionTree` is Abellán & Moral's tree as presented in Moral's slides: the imprecise
Dirichlet model (IDM) at every node, splits chosen by the *imprecise information gain* (upper
entropy of the IDM before minus the weighted upper entropies after), branching while some variable
(or pair, for the "double" method) has positive gain, and the non-dominated classes at the leaves.

:class:`C45Tree` is the precise baseline: C4.5 as implemented by Weka's J48 with its default
options (gain ratio with the average-gain filter, multiway nominal splits, at least two branches
with 2 instances, collapsing, error-based pruning with confidence 0.25 and subtree raising,
fractional instances for missing values).

Both take integer code matrices (``-1`` = missing) or DataFrames of categoricals
(see :mod:`credal._validation`) and give every declared category its own branch.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import special

from sklearn.utils.validation import check_is_fitted

from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._validation import check_choice, check_fit_input, check_in_range, check_positive

__all__ = ["CredalDecisionTree", "C45Tree"]

# Gains within this of each other are treated as equal (the first feature wins), so
# that rounding in the last bits never decides between equally good splits.
_GAIN_TOL = 1e-12


class _Node:
    """One tree node; ``counts`` are the (weighted) training class counts reaching it."""

    __slots__ = ("counts", "feature", "children", "bag_weights", "empty", "value_set", "pred")

    def __init__(self, counts, empty=None):
        self.counts = counts
        self.feature = -1  # -1: leaf
        self.children = None
        self.bag_weights = None  # per child, for routing missing values
        self.empty = counts.sum() <= 0 if empty is None else empty
        self.value_set = None
        self.pred = None  # counts behind predictions (the parent's for an empty leaf)

    @property
    def is_leaf(self):
        return self.children is None


def _level_gains(codesT, nv, y, K, s, lid, w, avail, double, rows=None):
    """Single and pair IIGs of several nodes at once.
    ``codesT`` (F, n): codes (``-1`` = missing) of the candidate features, one row per feature, one
    column per training row; ``rows`` (n_inst,): the training row of each instance (default:
    instance i is row i), instances grouped by node and, within a node, in the order of the
    training rows. ``nv`` (F,): number of values of each candidate feature; ``y`` (n,): class index
    of each training row; ``K`` classes, IDM ``s``; ``lid`` (n_inst,): node (0 .. A-1) of each
    instance, non-decreasing; ``w`` (n_inst,): instance weights (> 0); ``avail`` (A, F): features
    still available at each node; ``double``: also compute the gains of the pairs of features.
    Returns ``(g1, g2)``: ``g1`` (A, F), the IIG of each feature at each node, ``-inf`` where the
    feature is not available or never observed; ``g2`` (A, F (F - 1) / 2) or None, the same for the
    pairs ``np.triu_indices(F, 1)`` (both features available). Compiled
    (:func:`credal._compiled_credal_tree.credal_tree_gains`), node by node and feature (pair) by
    feature: every (cell, class) total adds its instances' weights in their order, as a per-node
    dense ``np.bincount`` would; only the non-empty cells enter the upper entropies."""
    from ._compiled_credal_tree import credal_tree_gains  # numba compiles (or loads) it
    rows = np.arange(len(lid)) if rows is None else rows
    g1, g2 = credal_tree_gains(codesT, np.asarray(rows, dtype=np.int64), np.asarray(nv, dtype=np.int64),
                               np.asarray(y, dtype=np.int64), K, float(s), np.asarray(lid, dtype=np.int64),
                               np.asarray(w, dtype=float), np.asarray(avail, dtype=bool), bool(double))
    return g1, (g2 if double and codesT.shape[0] >= 2 else None)


def _all_levels_seen(codesT, nv, lid, A):
    """Whether every declared value of each feature is observed at each node, shape (A, F)."""
    off = np.concatenate([[0], np.cumsum(nv)])
    obs = codesT >= 0
    idx = (lid * off[-1] + (off[:-1, None] + codesT))[obs]
    seen = np.bincount(idx, minlength=A * off[-1]).reshape(A, off[-1]) > 0
    return np.logical_and.reduceat(seen, off[:-1], axis=1)


def _level_choice(g1, g2, double):
    """Split feature (column index, -1 for none) of each node from its gains.
    The largest single gain wins if positive (first feature within 1e-12); with ``double``, a pair
    gain larger than every single gain (by more than 1e-12) and positive wins instead, splitting on
    the pair's feature of larger single gain."""
    A, F = g1.shape
    best1 = g1.max(axis=1)
    first1 = np.argmax(g1 >= (best1 - _GAIN_TOL)[:, None], axis=1)
    choice = np.where(best1 > _GAIN_TOL, first1, -1)
    if double and g2 is not None and g2.shape[1]:
        I, J = np.triu_indices(F, k=1)
        best2 = g2.max(axis=1)
        use = (best2 > best1 + _GAIN_TOL) & (best2 > _GAIN_TOL)
        if use.any():
            k = np.argmax(g2 >= (best2 - _GAIN_TOL)[:, None], axis=1)
            r = np.arange(A)
            fi, fj = I[k], J[k]
            pick = np.where(g1[r, fj] > g1[r, fi] + _GAIN_TOL, fj, fi)
            choice = np.where(use, pick, choice)
    return choice


def _names(est):
    names = getattr(est, "feature_names_in_", None)
    if names is None:
        names = [f"x{j}" for j in range(est.n_features_in_)]
    cats = getattr(est, "categories_", None)
    return [str(n) for n in names], cats


def _fmt_value(cats, j, v):
    return str(cats[j][v]) if cats is not None else str(v)


def _link(nodes, feature, first, n_child, bags):
    """Join the node objects of a tree's arrays (children consecutive from
    ``first``, ``feature < 0`` at a leaf, ``bags`` the branch weights); the root."""
    for i in np.flatnonzero(feature >= 0):
        node = nodes[i]
        node.feature = int(feature[i])
        node.children = nodes[first[i]:first[i] + n_child[i]]
        node.bag_weights = bags[first[i]:first[i] + n_child[i]].copy()
    return nodes[0]


class _TreeMixin:
    """Shared fitted-tree helpers: ``tree_`` and ``export_text``; a subclass keeps its fitted
    arrays in the attribute named by ``_ARRAYS`` and builds the nodes in ``_tree_nodes``."""

    def _check_fitted(self):
        check_is_fitted(self, "tree_")

    @property
    def tree_(self):
        # the root node, built from the tree's arrays when first asked for (documented
        # with the class's attributes)
        if "_tree" not in self.__dict__:
            if self._ARRAYS not in self.__dict__:
                raise AttributeError("tree_ (the estimator is not fitted)")
            self._tree = _link(*self._tree_nodes())
        return self._tree

    @tree_.setter
    def tree_(self, root):  # a tree grown by other code (the frozen tree of tests/reference)
        self._tree = root

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
        lines += ["", f"Number of leaves: {self.n_leaves_}", f"Depth: {self.depth_}"]
        return "\n".join(lines)


# ---------------------------------------------------------------- credal tree
class CredalDecisionTree(CredalMixin, _TreeMixin, BaseClassifier):
    """Credal decision tree (Abellán & Moral) with the imprecise Dirichlet model.

    At a node with class counts ``n`` the IDM with hyperparameter ``s`` gives the credal set
    ``{p : p_k >= n_k/(N+s), sum p = 1}``. Its upper entropy ``H*`` is computed exactly
    (:func:`credal.independence.upper_entropy`). The imprecise information gain of a feature ``X``
    is ``IIG(X) = H*(n) - sum_x (N_x/N) H*(n | X = x)``, which can be negative.

    * ``branching="simple"``: the node is split on the feature of largest IIG as long
      as that gain is positive; otherwise it is a leaf.
    * ``branching="double"``: the node is split while some feature *or pair of
      features* has positive IIG (the pair's gain uses the joint values ``(x, y)``). If a pair has
      the largest gain, the node is split on whichever of its two features has the larger single
      IIG. On equal gains a single feature is preferred to a pair, and lower column indices win.

    Every declared category of the chosen feature gets a branch (categories never seen at the node
    give empty leaves). Gains within 1e-12 count as equal, and "positive" means larger than 1e-12.

    Leaves (``leaf="dominance"``): class ``c`` is dropped iff another class's lower probability
    exceeds its upper one, ``n_k/(N+s) > (n_c+s)/(N+s)``, i.e. ``n_k > n_c + s``. This is the
    slides' rule and the default (``ties="keep"``): a tie ``n_k = n_c + s`` keeps ``c``, which
    agrees with the definition of dominance (some distribution of the credal set gives ``c`` as
    much probability as ``k``). With ``ties="drop"`` the tie drops ``c`` (``c`` kept iff
    ``n_c + s > n_k`` for every other ``k``), the rule of the Weka imprecise-probability plugin; it
    differs only at leaves where ``n_k - n_c`` equals ``s`` exactly, e.g. a leaf with a single
    instance and ``s = 1``. An empty leaf keeps every class (the IDM is vacuous without data).
    ``leaf="frequency"`` keeps only the most frequent class (the slides' frequency criterion, used
    to compare with C4.5; at an empty leaf, the parent's).

    :meth:`predict` returns, for each row, the class with the highest frequency (equivalently, the
    highest upper probability) at its leaf; an empty leaf uses its parent's counts; ties go to the
    first class in ``classes_``. It always lies in :meth:`predict_set`.

    Missing values. In training, the gain of a feature is computed from the rows where it is
    observed and multiplied by the observed fraction (as C4.5 does); rows missing the split feature
    go down every branch with weights proportional to the branch sizes. At prediction time, a row
    missing the split feature goes down every branch: its set is the *union* of the sets of the
    leaves it reaches (every class non-dominated under some value of the missing feature), and
    :meth:`predict` takes, within that set, the class with the highest frequency averaged over
    those leaves with the training branch proportions as weights.

    The tree grows level by level; the gains of all nodes of a level are computed in
    compiled code (numba, :mod:`credal._compiled_credal_tree`; the first fit in a new
    environment compiles it, a few seconds, and caches it next to the module).

    Parameters
    ----------
    s : float, default=1.0
        IDM hyperparameter, ``> 0``.  As ``s -> 0`` the IIG tends to the ordinary
        information gain and the tree to ID3's (branch while some gain is positive).
    branching : {"simple", "double"}, default="simple"
    leaf : {"dominance", "frequency"}, default="dominance"
    ties : {"keep", "drop"}, default="keep"
        What a dominance tie does at a leaf (see above).
    candidates : {"observed", "all-levels"}, default="observed"
        Which features may split a node.  "observed": every feature not yet used on
        the path (its gain uses the values seen at the node).  "all-levels": R
        imptree's rule, a feature is a candidate only if each of its declared
        values occurs at the node (and, once split on, is dropped for the subtree).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    n_values_ : ndarray of int, shape (n_features,)
    tree_ : object
        Root node.
    n_leaves_ : int
        Number of leaves (empty leaves included).
    depth_ : int
        Length of the longest root-to-leaf path (0 for a single leaf).
    """

    def __init__(self, s=1.0, branching="simple", leaf="dominance", ties="keep", candidates="observed"):
        self.s, self.branching, self.leaf, self.ties = s, branching, leaf, ties
        self.candidates = candidates

    def fit(self, X, y):
        """Grow the tree.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, n_features), or DataFrame of categoricals
        y : array-like, shape (n_samples,)

        Returns
        -------
        self
        """
        s = check_positive("s", self.s)
        for name, choices in (("branching", ("simple", "double")),
                              ("leaf", ("dominance", "frequency")), ("ties", ("keep", "drop")),
                              ("candidates", ("observed", "all-levels"))):
            check_choice(name, getattr(self, name), choices)
        codes, y_idx = check_fit_input(self, X, y)
        self._s = s
        self._K = len(self.classes_)
        self.__dict__.pop("_tree", None)
        self._nodes = self._grow_levels(codes, y_idx)
        return self

    _ARRAYS = "_nodes"

    def _tree_nodes(self):
        feature, first, n_child, _, leaf_set, _ = self._nodes
        counts, pred, bags = self._node_counts
        nodes = []
        for i in range(len(feature)):
            node = _Node(counts[i].copy())
            node.pred, node.value_set = pred[i], leaf_set[i] > 0
            nodes.append(node)
        return nodes, feature, first, n_child, bags

    def _grow_levels(self, codes, y):
        """Grow the tree level by level, all nodes of a depth evaluated together. Gives the tree of
        the recursive definition: each node's gains depend only on its own instances (rows with
        weights, in row order), which are the same whatever the order in which nodes are grown.
        Nodes are numbered level by level, the children of a node consecutive; returns the arrays
        of :meth:`_route` and sets ``n_leaves_``, ``depth_`` and the nodes' counts."""
        K, s, double = self._K, self._s, self.branching == "double"
        n = len(y)
        usable = np.flatnonzero(self.n_values_ > 1)
        nv = self.n_values_[usable]
        # small codes: the per-level gathers move less memory
        small = np.int8 if nv.max(initial=0) < 127 else np.int16 if nv.max() < 32767 else codes.dtype
        codesT = np.ascontiguousarray(codes[:, usable].T, dtype=small)
        # Instances of the current level: training row, weight, node (sorted by node, then row),
        # and per node the available features and the parent's prediction counts.
        rows, w, nid = np.arange(n), np.ones(n), np.zeros(n, dtype=np.intp)
        avail = np.ones((1, len(usable)), dtype=bool)
        parent_pred = np.zeros((1, K))
        n_nodes, lo = 1, 0
        levels = []  # per level: counts, pred, feature, first child, number of children
        bag_parts = [np.zeros(1)]
        while True:
            counts = np.bincount(nid * K + y[rows], weights=w, minlength=n_nodes * K).reshape(n_nodes, K)
            pred = np.where(counts.sum(axis=1, keepdims=True) > 0, counts, parent_pred)
            feature = np.full(n_nodes, -1, dtype=np.intp)
            first = np.zeros(n_nodes, dtype=np.intp)
            nch = np.zeros(n_nodes, dtype=np.intp)
            levels.append((counts, pred, feature, first, nch))
            # A node with at most one class present cannot gain: every branch is
            # at least as pure and holds fewer instances, so its upper entropy is
            # no lower (the IIG is <= 0 for singles and pairs alike).
            active = np.flatnonzero((np.count_nonzero(counts, axis=1) > 1) & avail.any(axis=1))
            if len(active) == 0:
                break
            if len(active) == n_nodes:
                r_a, w_a, lid = rows, w, nid
            else:
                pos = np.full(n_nodes, -1)
                pos[active] = np.arange(len(active))
                inst = np.flatnonzero(pos[nid] >= 0)
                r_a, w_a, lid = rows[inst], w[inst], pos[nid[inst]]
            cand = avail[active]
            if self.candidates == "all-levels":
                cand = cand & _all_levels_seen(codesT[:, r_a], nv, lid, len(active))
            g1, g2 = _level_gains(codesT, nv, y, K, s, lid, w_a, cand, double, r_a)
            choice = _level_choice(g1, g2, double)
            split = choice >= 0
            if not split.any():
                break
            snodes = active[split]  # level indices of the nodes that split
            f = choice[split]  # their features (columns of codesT)
            nb = nv[f]
            cstart = np.concatenate([[0], np.cumsum(nb)])
            feature[snodes] = usable[f]
            first[snodes] = lo + n_nodes + cstart[:-1]
            nch[snodes] = nb
            # Instances of the splitting nodes and their values of the split feature.
            spos = np.full(n_nodes, -1)
            spos[snodes] = np.arange(len(snodes))
            if len(snodes) == n_nodes:
                r, wr, sn = rows, w, nid
            else:
                sel = np.flatnonzero(spos[nid] >= 0)
                r, wr, sn = rows[sel], w[sel], spos[nid[sel]]
            val = codesT[f[sn], r]
            known = val >= 0
            if known.all():  # each row to its branch; the stable order keeps rows in order
                child = cstart[sn] + val
                bag_parts.append(np.bincount(child, weights=wr, minlength=cstart[-1]))
                order = _stable_order(child)
                rows, w, nid = r[order], wr[order], child[order]
            else:
                rows, w, nid = self._spread(cstart, nb, sn, r, wr, val, known, bag_parts, n)
            keep_f = avail[snodes].copy()
            keep_f[np.arange(len(snodes)), f] = False
            avail = np.repeat(keep_f, nb, axis=0)
            parent_pred = np.repeat(pred[snodes], nb, axis=0)
            lo, n_nodes = lo + n_nodes, int(cstart[-1])
        return self._arrays(levels, bag_parts)

    @staticmethod
    def _spread(cstart, nb, sn, r, wr, val, known, bag_parts, n):
        """Rows of a level down the splits when some miss the split value."""
        bags = np.bincount(cstart[sn[known]] + val[known], weights=wr[known], minlength=cstart[-1])
        bag_parts.append(bags)
        # Known values go to their branch with their weight; missing ones to
        # every branch, weighted by the branch's share of the observed weight.
        child, cw, crow = [cstart[sn[known]] + val[known]], [wr[known] * 1.0], [r[known]]
        lost = np.flatnonzero(~known)
        frac = np.empty(cstart[-1])
        for q in np.unique(sn[lost]):
            b = bags[cstart[q]:cstart[q + 1]]
            total = b.sum()
            frac[cstart[q]:cstart[q + 1]] = b / total if total > 0 else np.full(len(b), 1.0 / len(b))
        rep = nb[sn[lost]]
        ch = _segments(cstart[sn[lost]], rep)
        child.append(ch)
        cw.append(np.repeat(wr[lost], rep) * frac[ch])
        crow.append(np.repeat(r[lost], rep))
        child, cw, crow = np.concatenate(child), np.concatenate(cw), np.concatenate(crow)
        keep = cw > 0
        child, cw, crow = child[keep], cw[keep], crow[keep]
        order = np.argsort(child * n + crow)
        return crow[order], cw[order], child[order]

    def _arrays(self, levels, bag_parts):
        """The grown tree's arrays (for :meth:`_route`); sets ``n_leaves_``, ``depth_``."""
        K = self._K
        counts, pred, feature, first, nch = (np.concatenate(a) for a in zip(*levels))
        bags = np.concatenate(bag_parts)
        self.n_leaves_ = int(np.sum(feature < 0))
        self.depth_ = len(levels) - 1
        self._node_counts = (counts, pred, bags)
        # Share of each branch in its parent's observed weight (C4.5's split of a
        # row missing the value), summed per node as a 1-D array sum is.
        inner = np.flatnonzero(feature >= 0)
        share = np.ones(len(feature))
        if len(inner):
            kids = _segments(first[inner], nch[inner])
            # numpy sums fewer than 8 numbers in order, as reduceat does; more in blocks
            total = np.add.reduceat(bags[kids], np.cumsum(nch[inner]) - nch[inner])
            for j in np.flatnonzero(nch[inner] >= 8):
                total[j] = bags[first[inner[j]]:first[inner[j]] + nch[inner[j]]].sum()
            tot = np.repeat(total, nch[inner])
            share[kids] = np.where(tot > 0, bags[kids] / np.where(tot > 0, tot, 1), 1.0 / np.repeat(nch[inner], nch[inner]))
        leaf = feature < 0
        leaf_set = np.zeros((len(feature), K))
        leaf_set[leaf] = self._leaf_sets(counts[leaf], pred[leaf])
        leaf_freq = np.zeros((len(feature), K))
        leaf_freq[leaf] = pred[leaf] / pred[leaf].sum(axis=1, keepdims=True)
        return feature, first, nch, share, leaf_set, leaf_freq

    def _leaf_set(self, counts, pred):
        return self._leaf_sets(counts[None], pred[None])[0]

    def _leaf_sets(self, counts, pred):
        """Non-dominated classes at leaves with class ``counts`` (rows) and prediction counts ``pred``."""
        m = len(counts)
        if self.leaf == "frequency":
            # Precise: the most frequent class (the parent's, at an empty leaf).
            out = np.zeros(counts.shape, dtype=bool)
            out[np.arange(m), np.argmax(pred, axis=1)] = True
            return out
        total = counts.sum(axis=1, keepdims=True)
        top = counts.max(axis=1, keepdims=True)
        # Dropped iff some class's lower probability exceeds its upper one
        # (or equals it, for ties="drop"); compare n_k - n_c with s.
        tol = 1e-9 * np.maximum(1.0, total)
        gap = top - counts - self._s
        if self.ties == "keep":
            keep = gap <= tol
        else:
            keep = (gap < -tol) | (counts >= top - tol)
        return keep | (total <= 0)  # an empty leaf keeps every class

    def _route(self, codes):
        """Leaf sets (union over the leaves a row reaches) and leaf frequencies
        (weighted by the share of the row reaching each leaf), shape (n, K) each. Rows with every
        split value they meet observed walk down in compiled code; the others go down one level at
        a time on the flattened tree (a fixed number of numpy calls per level, not per node), a row
        missing the split feature down every branch with the branch's share of the observed
        training weight, as C4.5 sends it."""
        from ._compiled import code_dtype, route_complete
        feature, first, n_child, share, leaf_set, leaf_freq = self._nodes
        n = len(codes)
        K = len(self.classes_)
        hits = np.zeros((n, K))
        score = np.zeros((n, K))
        # rows that meet no missing split value reach one leaf (compiled walk)
        leaf = route_complete(np.ascontiguousarray(codes, dtype=code_dtype(self.n_values_)), feature, first)
        if leaf.min(initial=0) >= 0:  # every row did
            return np.take(leaf_set, leaf, axis=0) > 0, np.take(leaf_freq, leaf, axis=0)
        done = leaf >= 0
        hits[done], score[done] = leaf_set[leaf[done]], leaf_freq[leaf[done]]
        rows = np.flatnonzero(~done)
        node, w = np.zeros(len(rows), dtype=np.intp), np.ones(len(rows))
        spread = False  # has a row gone down several branches (then rows repeat)?
        while rows.size:
            f = feature[node]
            leaf = f < 0
            if leaf.any():
                r, nd = rows[leaf], node[leaf]
                if spread:
                    np.add.at(hits, r, leaf_set[nd])
                    np.add.at(score, r, w[leaf, None] * leaf_freq[nd])
                else:
                    hits[r] = leaf_set[nd]
                    score[r] = w[leaf, None] * leaf_freq[nd]
                inner = ~leaf
                rows, node, w, f = rows[inner], node[inner], w[inner], f[inner]
            v = codes[rows, f]
            obs = v >= 0
            if obs.all():
                node = first[node] + v
                continue
            lost, spread = ~obs, True
            rep = n_child[node[lost]]
            child = _segments(first[node[lost]], rep)
            cw = np.repeat(w[lost], rep) * share[child]
            keep = cw > 0
            rows = np.concatenate([rows[obs], np.repeat(rows[lost], rep)[keep]])
            node = np.concatenate([first[node[obs]] + v[obs], child[keep]])
            w = np.concatenate([w[obs], cw[keep]])
        return hits > 0, score

    def _predict_input(self, X):
        # every row routed once: (sets, leaf frequencies) serve predict_set and predict
        return self._route(super()._predict_input(X))

    def _sets(self, routed):
        return routed[0]

    def _scores(self, routed):
        # predict: the most frequent class at the leaf, always inside the set
        return routed[1]

    def _label(self, scores, sets=None):
        # ties within 1e-12 (weights of rows with missing values) go to the first class
        masked = np.where(sets, scores, -np.inf) if sets is not None else scores
        best = masked.max(axis=1, keepdims=True)
        return self.classes_[np.argmax(masked >= best - 1e-12, axis=1)]

    def _leaf_text(self, node, parent, decimals):
        labels = [str(c) for c in self.classes_[node.value_set]]
        counts = "/".join(f"{c:.{decimals}f}" for c in node.counts)
        return "{" + ", ".join(labels) + "} (" + counts + ")"


# ----------------------------------------------------------------------- C4.5
def _stable_order(keys):
    """``np.argsort(keys, kind="stable")``, by radix sort when the keys span < 2**16."""
    if len(keys) and keys.max() - keys.min() < 1 << 16:
        return np.argsort((keys - keys.min()).astype(np.uint16), kind="stable")
    return np.argsort(keys, kind="stable")


def _segments(starts, lens):
    """Positions ``starts[i] .. starts[i] + lens[i] - 1`` for every i, concatenated."""
    total = int(lens.sum())
    return np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(total)


class C45Tree(PreciseMixin, _TreeMixin, BaseClassifier):
    """C4.5 decision tree for nominal features, following Weka's J48 (defaults).

    Growing: at each node, every feature whose multiway split puts at least ``min_num_obj``
    (weighted) instances in at least two branches is a candidate; among candidates whose
    information gain is at least the average gain of the candidates (minus 1e-3 bits), the one with
    the largest gain ratio is chosen (first feature on ties); no split if no candidate or a zero
    gain ratio, if the node has fewer than ``2 min_num_obj`` instances, or if it is pure. Gains are
    in bits; a feature with many values (at least 0.3 times the training size) is left out of the
    average unless every feature has that many. Then the tree is collapsed (a subtree that does not
    reduce training errors becomes a leaf) and pruned bottom-up by C4.5's pessimistic error
    estimate at confidence ``confidence_factor`` (a subtree is replaced by a leaf, or by its
    largest branch — subtree raising — when that does not increase the estimated errors by more
    than 0.1).

    Missing values (C4.5's fractional instances). Training: the gain of a feature uses the rows
    where it is observed, times the observed fraction, and the split information counts the missing
    rows as one more branch; rows missing the split feature go down every branch with weights
    proportional to the branch sizes. Prediction: a row missing the split feature goes down every
    branch and the class distributions reached are averaged with those weights. A row reaching an
    empty branch gets its parent's class distribution.

    Growing, collapsing and pruning run node by node in compiled code (numba,
    :mod:`credal._compiled_c45`; the first fit in a new environment compiles it, about 20 s,
    and caches it next to the module); prediction walks the complete rows in compiled
    code and spreads rows with missing values in numpy.  Sums add in numpy's order,
    so trees and probabilities equal the recursive reference's bit for bit.

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

    def __init__(self, confidence_factor=0.25, min_num_obj=2, pruning=True, subtree_raising=True,
                 collapse=True):
        self.confidence_factor, self.min_num_obj = confidence_factor, min_num_obj
        self.pruning, self.subtree_raising, self.collapse = pruning, subtree_raising, collapse

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
        z = special.ndtri(1 - self._cf)  # the normal quantile of the error estimate
        cols, y_idx = check_fit_input(self, X, y, as_columns=True)
        # J48 leaves many-valued features out of the average gain, unless all are.
        many = self.n_values_ >= 0.3 * len(y_idx)
        in_average = np.ones(len(many), dtype=bool) if many.all() else ~many
        self._K = len(self.classes_)
        from ._compiled_c45 import fit_c45  # numba compiles (or loads) it on first use
        self._feat, self._first, self._nch, self._bag, self._empty, self._counts = fit_c45(
            self._code_matrix(cols, len(y_idx)), y_idx.astype(np.int64), self.n_values_.astype(np.int64),
            in_average, self._K, self._m, float(self._cf), float(z),
            bool(self.collapse), bool(self.pruning), bool(self.subtree_raising))
        self._finish()
        for name in ("_feat", "_first", "_nch", "_bag", "_counts", "_empty"):
            self.__dict__.pop(name, None)
        return self

    _as_columns = True  # narrow code columns in, one small code matrix out

    def _code_matrix(self, cols, n):
        """The code columns as one (n, F) matrix for the kernels
        (:func:`credal._compiled.code_dtype`)."""
        from ._compiled import code_dtype
        small = code_dtype(self.n_values_)
        return np.stack(cols, axis=1, dtype=small) if cols else np.empty((n, 0), dtype=small)

    def _finish(self):
        """Arrays for prediction, ``n_leaves_`` and ``depth_``, from the final tree
        (its node objects, ``tree_``, are built when first asked for)."""
        from ._compiled_c45 import finish_c45
        share, emit, rank, depth = finish_c45(self._feat, self._first, self._nch, self._bag,
                                              self._empty, self._counts)
        self.n_leaves_ = int(np.sum(self._feat < 0))
        self.depth_ = int(depth)
        self._tables = (self._feat, self._first, self._nch, share, emit, rank, self._empty)
        with np.errstate(invalid="ignore"):  # as a row's distribution is normalised
            self._leaf_proba = emit / emit.sum(axis=1, keepdims=True)
        self._node_arrays = (self._counts, self._bag)
        self.__dict__.pop("_tree", None)

    _ARRAYS = "_tables"

    def _tree_nodes(self):
        feat, first, nch, _, _, _, empty = self._tables
        counts, bag = self._node_arrays
        return [_Node(counts[i], bool(empty[i])) for i in range(len(feat))], feat, first, nch, bag

    def _predict_input(self, X):
        # class probabilities: the training class frequencies at the leaf reached
        # (computed once per call, for predict and predict_proba alike)
        from ._compiled import route_complete
        cols = super()._predict_input(X)
        n = len(cols[0]) if cols else len(X)
        codes = self._code_matrix(cols, n)
        feat, first, nch, share, emit, rank, empty = self._tables
        # rows that meet no missing split value reach one leaf (compiled walk)
        leaf = route_complete(codes, feat, first)
        if leaf.min(initial=0) >= 0:  # every row did: its leaf's normalised distribution
            return np.take(self._leaf_proba, leaf, axis=0)
        proba = np.zeros((n, len(self.classes_)))
        done = leaf >= 0
        proba[done] = emit[leaf[done]]
        rows = np.flatnonzero(~done)
        node, w, direct = np.zeros(len(rows), dtype=np.intp), np.ones(len(rows)), np.ones(len(rows), dtype=bool)
        out = []
        while len(rows):
            leaf = feat[node] < 0
            # an empty branch answers (with its parent's distribution) only rows
            # that have its value
            hit = leaf & (direct | ~empty[node])
            out.append((rows[hit], node[hit], w[hit]))
            rows, node, w = rows[~leaf], node[~leaf], w[~leaf]
            val = codes[rows, feat[node]]
            ok = val >= 0
            if ok.all():
                node, direct = first[node] + val, np.ones(len(rows), dtype=bool)
                continue
            lost = np.flatnonzero(~ok)
            rep = nch[node[lost]]
            ch = _segments(first[node[lost]], rep)
            cw = np.repeat(w[lost], rep) * share[ch]
            keep = cw > 0
            rows = np.concatenate([rows[ok], np.repeat(rows[lost], rep)[keep]])
            node = np.concatenate([first[node[ok]] + val[ok], ch[keep]])
            w = np.concatenate([w[ok], cw[keep]])
            direct = np.concatenate([np.ones(ok.sum(), dtype=bool), np.zeros(keep.sum(), dtype=bool)])
        if out:
            # the rows spread over several leaves add their distributions in the
            # order of J48's depth-first walk (last branch first): the same sums
            rows, node, w = (np.concatenate(a) for a in zip(*out))
            o = np.argsort(rank[node], kind="stable")
            np.add.at(proba, rows[o], w[o, None] * emit[node[o]])
        return proba / proba.sum(axis=1, keepdims=True)

    def _proba(self, proba):
        return proba

    def _log_proba(self, proba):
        with np.errstate(divide="ignore"):  # -inf for zero probabilities
            return np.log(proba)

    def _scores(self, proba):
        # most probable class, the first in ``classes_`` order on ties within 1e-9
        top = proba[:, 0].copy()
        for col in proba.T[1:]:  # a column at a time: numpy reduces a short row slowly
            np.maximum(top, col, out=top)
        return (proba >= (top - 1e-9)[:, None]).astype(float)

    def _leaf_text(self, node, parent, decimals):
        total = node.counts.sum()
        if total <= 0 and parent is not None:
            label = self.classes_[int(np.argmax(parent.counts))]
            return f"{label} (0.0)"
        label = self.classes_[int(np.argmax(node.counts))]
        wrong = total - node.counts.max()
        tail = f"/{wrong:.{decimals}f})" if wrong > 1e-6 else ")"
        return f"{label} ({total:.{decimals}f}" + tail
