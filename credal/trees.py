"""Classification trees on nominal data: the credal decision tree and a C4.5 baseline.

:class:`CredalDecisionTree` is Abellán & Moral's tree as presented in Moral's slides:
the imprecise Dirichlet model (IDM) at every node, splits chosen by the *imprecise
information gain* (upper entropy of the IDM before minus the weighted upper
entropies after), branching while some variable (or pair, for the "double"
method) has positive gain, and the non-dominated classes at the leaves.

:class:`C45Tree` is the precise baseline: C4.5 as implemented by Weka's J48 with
its default options (gain ratio with the average-gain filter, multiway nominal
splits, at least two branches with 2 instances, collapsing, error-based pruning
with confidence 0.25 and subtree raising, fractional instances for missing
values).

Both take integer code matrices (``-1`` = missing) or DataFrames of categoricals
(see :mod:`credal._validation`) and give every declared category its own branch.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import special, stats

from sklearn.utils.validation import check_is_fitted

from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._validation import check_fit_input, check_in_range, check_positive
from .independence import _water_level  # the one implementation of the IDM water level

__all__ = [
    "CredalDecisionTree",
    "C45Tree",
]

# Gains within this of each other are treated as equal (the first feature wins), so
# that rounding in the last bits never decides between equally good splits.
_GAIN_TOL = 1e-12


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


def _upper_entropy_rows(n, s):
    """Upper entropy (nats) of the IDM set of each row of the counts ``n`` (m, K).

    Gives the values of :func:`credal.independence._upper_entropy_unchecked` bit
    for bit: with two classes the water level has the closed form below (the same
    floating-point operations as the sorted cumulative sums), otherwise that
    module's sorting algorithm (``_water_level``) is used.

    Parameters
    ----------
    n : ndarray of float, shape (m, K)
        Non-negative (weighted) class counts.
    s : float
        IDM hyperparameter, ``> 0``.

    Returns
    -------
    ndarray of float, shape (m,)
    """
    if n.shape[1] == 2:
        a, b = n[:, 0], n[:, 1]
        lo = np.minimum(a, b)
        hi = np.maximum(a, b)
        # Sorted counts (lo, hi): levels s + lo and (s + (lo + hi)) / 2; the first
        # one is kept when it does not exceed hi.
        low = s + lo
        level = np.where(low <= hi, low, (s + (lo + hi)) / 2)
        tot = (a + b) + s
        pa = np.maximum(a, level) / tot
        pb = np.maximum(b, level) / tot
        return -(special.xlogy(pa, pa) + special.xlogy(pb, pb))
    level = _water_level(n, s)
    p = np.maximum(n, level) / (n.sum(axis=-1, keepdims=True) + s)
    return -np.sum(special.xlogy(p, p), axis=-1)


def _block_gains(cnt, blk, n_blocks, W, s):
    """Imprecise information gain of each block (a feature or a pair of features at a node).

    Only the non-empty cells are passed: an empty cell adds nothing to the
    weighted upper entropy after the split, and a block without any observed
    cell gets ``-inf`` (as the dense computation did).

    Parameters
    ----------
    cnt : ndarray of float, shape (n_cells, K)
        Class counts of the non-empty cells, grouped by block in increasing
        block order.
    blk : ndarray of int, shape (n_cells,)
        Block of each cell (non-decreasing).
    n_blocks : int
    W : ndarray of float, shape (n_blocks,)
        Total weight at the block's node (observed or not).
    s : float

    Returns
    -------
    ndarray of float, shape (n_blocks,)
    """
    g = np.full(n_blocks, -np.inf)
    if len(cnt) == 0:
        return g
    tot = cnt.sum(axis=1)
    h = _upper_entropy_rows(cnt, s)
    first = np.empty(len(blk), dtype=bool)
    first[0] = True
    np.not_equal(blk[1:], blk[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    known = np.add.reduceat(tot, starts)
    parent = np.add.reduceat(cnt, starts, axis=0)
    after = np.add.reduceat(tot * h, starts)
    # Without missing values the blocks of a node share its class counts: compute
    # the upper entropy once per run of equal rows.
    new = np.empty(len(parent), dtype=bool)
    new[0] = True
    np.any(parent[1:] != parent[:-1], axis=1, out=new[1:])
    hp = _upper_entropy_rows(parent[new], s)[np.cumsum(new) - 1]
    present = blk[starts]
    g[present] = (known / W[present]) * (hp - after / known)
    return g


# Elements (rows x pairs) of joint codes built at once in the pair gains: bounds the
# memory of a node with many rows and many pairs.
_PAIR_CHUNK = 1 << 21
# Dense counting (one bin per cell and class) is used while the number of bins is
# at most this many times the number of observed (row, pair) elements; sparser
# nodes sort the keys of the observed cells instead.
_DENSE_RATIO = 4


def _cell_class_counts(idx, wts, n_bins, K):
    """Class counts of the non-empty cells from flat ``cell * K + class`` keys.

    Each (cell, class) total adds its weights in the order of ``idx``, exactly as
    a dense ``np.bincount`` does, so the counts are the same bits either way.

    Parameters
    ----------
    idx : ndarray of int, shape (M,)
        ``cell * K + class`` for every observed element.
    wts : ndarray of float, shape (M,), or None
        Weights (None: all ones).
    n_bins : int
        Number of cells times ``K``.
    K : int

    Returns
    -------
    cells : ndarray of int, shape (n_cells,)
        The non-empty cells, increasing.
    cnt : ndarray of float, shape (n_cells, K)
    """
    M = len(idx)
    if M == 0:
        return np.empty(0, dtype=np.intp), np.empty((0, K))
    if n_bins <= _DENSE_RATIO * M:
        flat = np.bincount(idx, weights=wts, minlength=n_bins).reshape(-1, K)
        cells = np.flatnonzero(flat.any(axis=1))
        return cells, flat[cells].astype(float, copy=False)
    if wts is None:
        key = np.sort(idx)
        first = np.empty(M, dtype=bool)
        first[0] = True
        np.not_equal(key[1:], key[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        key = key[starts]
        val = np.diff(np.append(starts, M)).astype(float)
    else:
        order = np.argsort(idx)
        key = idx[order]
        first = np.empty(M, dtype=bool)
        first[0] = True
        np.not_equal(key[1:], key[:-1], out=first[1:])
        group = np.empty(M, dtype=np.intp)
        group[order] = np.cumsum(first) - 1
        key = key[first]
        # bincount over the elements in their original order: same sums as dense.
        val = np.bincount(group, weights=wts, minlength=len(key))
    cell = key // K
    new = np.empty(len(cell), dtype=bool)
    new[0] = True
    np.not_equal(cell[1:], cell[:-1], out=new[1:])
    cnt = np.zeros((int(new.sum()), K))
    cnt[np.cumsum(new) - 1, key - cell * K] = val
    return cell[new], cnt


def _level_gains(codesT, nv, y, K, s, lid, w, avail, double):
    """Single and pair IIGs of several nodes at once.

    Parameters
    ----------
    codesT : ndarray of int, shape (F, n_inst)
        Codes (``-1`` = missing) of the candidate features, one row per feature,
        one column per instance; instances grouped by node and, within a node,
        in the order of the training rows.
    nv : ndarray of int, shape (F,)
        Number of values of each candidate feature.
    y : ndarray of int, shape (n_inst,)
        Class index of each instance.
    K : int
    s : float
    lid : ndarray of int, shape (n_inst,)
        Node (0 .. A-1) of each instance, non-decreasing.
    w : ndarray of float, shape (n_inst,)
        Instance weights (> 0).
    avail : ndarray of bool, shape (A, F)
        Features still available at each node.
    double : bool
        Also compute the gains of the pairs of features.

    Returns
    -------
    g1 : ndarray of float, shape (A, F)
        IIG of each feature at each node; ``-inf`` where the feature is not
        available or never observed.
    g2 : ndarray of float, shape (A, F (F - 1) / 2) or None
        Same for the pairs ``np.triu_indices(F, 1)`` (both features available).

    Notes
    -----
    Every (node, cell, class) total adds its instances' weights in their order,
    as a per-node dense ``np.bincount`` would; only the non-empty cells enter the
    upper entropies.
    """
    F, n = codesT.shape
    A = len(avail)
    unit = bool(np.all(w == 1.0))
    W = np.bincount(lid, weights=w, minlength=A)
    obs = codesT >= 0
    missing = not obs.all()
    # Elements (instance, feature) to count: feature available at the node and observed.
    ok = None if avail.all() else avail[lid].T
    if missing:
        ok = obs if ok is None else ok & obs

    def gains(idx, ok, n_cells, off, n_blk):
        # idx: flat bin (node * n_cells + cell) * K + class of every element.
        if ok is not None:
            idx = idx[ok]
            wts = None if unit else np.broadcast_to(w, ok.shape)[ok]
        else:
            idx = idx.ravel()
            wts = None if unit else np.tile(w, len(off) - 1)
        cells, cnt = _cell_class_counts(idx, wts, A * n_cells * K, K)
        node = cells // n_cells
        blk = node * n_blk + np.searchsorted(off, cells - node * n_cells, side="right") - 1
        return _block_gains(cnt, blk, A * n_blk, np.repeat(W, n_blk), s).reshape(A, n_blk)

    off1 = np.concatenate([[0], np.cumsum(nv)])
    base = lid * (off1[-1] * K) + y
    g1 = gains((off1[:-1, None] + codesT) * K + base, ok, off1[-1], off1, F)
    if not double or F < 2:
        return g1, None
    I, J = np.triu_indices(F, k=1)
    g2 = np.empty((A, len(I)))
    subK = codesT * K
    step = max(1, _PAIR_CHUNK // max(n, 1))
    for a in range(0, len(I), step):
        ii, jj = I[a:a + step], J[a:a + step]
        nvj = nv[jj]
        off2 = np.concatenate([[0], np.cumsum(nv[ii] * nvj)])
        # Flat bin of (node, pair, joint value, class), one row per pair.
        idx = subK[ii]
        idx *= nvj[:, None]
        idx += subK[jj]
        idx += off2[:-1, None] * K
        idx += lid * (off2[-1] * K) + y
        okp = None if ok is None else ok[ii] & ok[jj]
        g2[:, a:a + len(ii)] = gains(idx, okp, off2[-1], off2, len(ii))
    return g1, g2


def _level_choice(g1, g2, double):
    """Split feature (column index, -1 for none) of each node from its gains.

    The largest single gain wins if positive (first feature within 1e-12); with
    ``double``, a pair gain larger than every single gain (by more than 1e-12) and
    positive wins instead, splitting on the pair's feature of larger single gain.
    """
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


def _flatten(root):
    """The credal tree as arrays over its nodes (breadth first, root 0).

    Returns
    -------
    feature : ndarray of int, shape (N,)
        Split feature, -1 at a leaf.
    first, n_child : ndarray of int, shape (N,)
        Index of the first child and number of children (0 at a leaf); children are
        consecutive, in branch (category) order.
    share : ndarray, shape (N,)
        Share of its parent's observed training weight that a node's branch
        receives (the weight given to rows missing the parent's feature).
    leaf_set : ndarray, shape (N, K)
        1.0 for the classes of a leaf's set.
    leaf_freq : ndarray, shape (N, K)
        Relative frequencies behind a leaf's prediction.
    """
    nodes = [root]
    feature, first, n_child, share = [], [], [], [1.0]
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if node.is_leaf:
            feature.append(-1), first.append(0), n_child.append(0)
        else:
            nb = len(node.children)
            total = node.bag_weights.sum()
            frac = node.bag_weights / total if total > 0 else np.full(nb, 1.0 / nb)
            feature.append(node.feature), first.append(len(nodes)), n_child.append(nb)
            share.extend(frac)
            nodes.extend(node.children)
        i += 1
    K = len(root.counts)
    leaf_set = np.zeros((len(nodes), K))
    leaf_freq = np.zeros((len(nodes), K))
    for j, node in enumerate(nodes):
        if node.is_leaf:
            leaf_set[j] = node.value_set
            leaf_freq[j] = node.pred / node.pred.sum()
    return (np.asarray(feature, dtype=np.intp), np.asarray(first, dtype=np.intp),
            np.asarray(n_child, dtype=np.intp), np.asarray(share), leaf_set, leaf_freq)


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


# ---------------------------------------------------------------- credal tree


class CredalDecisionTree(CredalMixin, _TreeMixin, BaseClassifier):
    """Credal decision tree (Abellán & Moral) with the imprecise Dirichlet model.

    At a node with class counts ``n`` the IDM with hyperparameter ``s`` gives the
    credal set ``{p : p_k >= n_k/(N+s), sum p = 1}``.  Its upper entropy ``H*`` is
    computed exactly (:func:`credal.independence.upper_entropy`).  The imprecise
    information gain of a feature ``X`` is
    ``IIG(X) = H*(n) - sum_x (N_x/N) H*(n | X = x)``, which can be negative.

    * ``branching="simple"``: the node is split on the feature of largest IIG as long
      as that gain is positive; otherwise it is a leaf.
    * ``branching="double"``: the node is split while some feature *or pair of
      features* has positive IIG (the pair's gain uses the joint values
      ``(x, y)``).  If a pair has the largest gain, the node is split on whichever
      of its two features has the larger single IIG.  On equal gains a single
      feature is preferred to a pair, and lower column indices win.

    Every declared category of the chosen feature gets a branch (categories never
    seen at the node give empty leaves).  Gains within 1e-12 count as equal, and
    "positive" means larger than 1e-12.

    Leaves (``leaf="dominance"``): class ``c`` is dropped iff another class's lower
    probability exceeds its upper one, ``n_k/(N+s) > (n_c+s)/(N+s)``, i.e.
    ``n_k > n_c + s``.  This is the slides' rule and the default
    (``ties="keep"``): a tie ``n_k = n_c + s`` keeps ``c``, which agrees with the
    definition of dominance (some distribution of the credal set gives ``c`` as
    much probability as ``k``).  With ``ties="drop"`` the tie drops ``c``
    (``c`` kept iff ``n_c + s > n_k`` for every other ``k``), the rule of the Weka
    imprecise-probability plugin; it differs only at leaves where ``n_k - n_c``
    equals ``s`` exactly, e.g. a leaf with a single instance and ``s = 1``.  An
    empty leaf keeps every class (the IDM is vacuous without data).
    ``leaf="frequency"`` keeps only the most frequent class (the slides' frequency
    criterion, used to compare with C4.5; at an empty leaf, the parent's).

    :meth:`predict` returns, for each row, the class with the highest frequency
    (equivalently, the highest upper probability) at its leaf; an empty leaf uses
    its parent's counts; ties go to the first class in ``classes_``.  It always
    lies in :meth:`predict_set`.

    Missing values.  In training, the gain of a feature is computed from the rows
    where it is observed and multiplied by the observed fraction (as C4.5 does);
    rows missing the split feature go down every branch with weights
    proportional to the branch sizes.  At prediction time, a row missing the split
    feature goes down every branch: its set is the *union* of the sets of the
    leaves it reaches (every class non-dominated under some value of the missing
    feature), and :meth:`predict` takes, within that set, the class with the
    highest frequency averaged over those leaves with the training branch
    proportions as weights.

    Parameters
    ----------
    s : float, default=1.0
        IDM hyperparameter, ``> 0``.  As ``s -> 0`` the IIG tends to the ordinary
        information gain and the tree to ID3's (branch while some gain is positive).
    branching : {"simple", "double"}, default="simple"
    leaf : {"dominance", "frequency"}, default="dominance"
    ties : {"keep", "drop"}, default="keep"
        What a dominance tie does at a leaf (see above).

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

    def __init__(self, s=1.0, branching="simple", leaf="dominance", ties="keep"):
        self.s = s
        self.branching = branching
        self.leaf = leaf
        self.ties = ties

    # -- fitting

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
        if self.branching not in ("simple", "double"):
            raise ValueError(f"branching must be 'simple' or 'double'; got {self.branching!r}")
        if self.leaf not in ("dominance", "frequency"):
            raise ValueError(f"leaf must be 'dominance' or 'frequency'; got {self.leaf!r}")
        if self.ties not in ("keep", "drop"):
            raise ValueError(f"ties must be 'keep' or 'drop'; got {self.ties!r}")
        codes, y_idx = check_fit_input(self, X, y)
        self._s = s
        self._K = len(self.classes_)
        self.tree_ = self._grow_levels(codes, y_idx)
        self._count()
        self._nodes = _flatten(self.tree_)
        return self

    def _grow_levels(self, codes, y):
        """Grow the tree level by level, all nodes of a depth evaluated together.

        Gives the tree of the recursive definition: each node's gains depend
        only on its own instances (rows with weights, in row order), which are
        the same whatever the order in which nodes are grown.
        """
        K, s, double = self._K, self._s, self.branching == "double"
        n = len(y)
        usable = np.flatnonzero(self.n_values_ > 1)
        codesT = np.ascontiguousarray(codes[:, usable].T)
        nv = self.n_values_[usable]
        # Instances of the current level: training row, weight, node (sorted by
        # node, then row), and per node the available features and the parent.
        rows = np.arange(n)
        w = np.ones(n)
        nid = np.zeros(n, dtype=np.intp)
        avail = np.ones((1, len(usable)), dtype=bool)
        links = [(None, 0, None)]  # (parent node, branch, parent's prediction counts)
        root = None
        while links:
            n_nodes = len(links)
            counts = np.bincount(nid * K + y[rows], weights=w, minlength=n_nodes * K).reshape(n_nodes, K)
            nodes = []
            for k, (parent, v, parent_pred) in enumerate(links):
                c = counts[k].copy()
                node = _Node(c)
                node.pred = c if c.sum() > 0 else parent_pred
                node.value_set = self._leaf_set(c, node.pred)
                if parent is None:
                    root = node
                else:
                    parent.children[v] = node
                nodes.append(node)
            # A node with at most one class present cannot gain: every branch is
            # at least as pure and holds fewer instances, so its upper entropy is
            # no lower (the IIG is <= 0 for singles and pairs alike).
            active = np.flatnonzero((np.count_nonzero(counts, axis=1) > 1) & avail.any(axis=1))
            if len(active) == 0:
                break
            pos = np.full(n_nodes, -1)
            pos[active] = np.arange(len(active))
            inst = np.flatnonzero(pos[nid] >= 0)
            lid = pos[nid[inst]]
            g1, g2 = _level_gains(
                codesT[:, rows[inst]], nv, y[rows[inst]], K, s, lid, w[inst], avail[active], double
            )
            choice = _level_choice(g1, g2, double)
            split = choice >= 0
            if not split.any():
                break
            snodes = active[split]  # level indices of the nodes that split
            f = choice[split]  # their features (columns of codesT)
            nb = nv[f]
            cstart = np.concatenate([[0], np.cumsum(nb)])
            # Instances of the splitting nodes and their values of the split feature.
            spos = np.full(n_nodes, -1)
            spos[snodes] = np.arange(len(snodes))
            sel = np.flatnonzero(spos[nid] >= 0)
            r, wr, sn = rows[sel], w[sel], spos[nid[sel]]
            val = codesT[f[sn], r]
            known = val >= 0
            bags = np.bincount(cstart[sn[known]] + val[known], weights=wr[known], minlength=cstart[-1])
            new_links = []
            for q, k in enumerate(snodes):
                node = nodes[k]
                node.feature = int(usable[f[q]])
                node.bag_weights = bags[cstart[q]:cstart[q + 1]].copy()
                node.children = [None] * int(nb[q])
                new_links.extend((node, v, node.pred) for v in range(nb[q]))
            # Known values go to their branch with their weight; missing ones to
            # every branch, weighted by the branch's share of the observed weight.
            child = [cstart[sn[known]] + val[known]]
            cw = [wr[known] * 1.0]
            crow = [r[known]]
            lost = np.flatnonzero(~known)
            if len(lost):
                frac = np.empty(cstart[-1])
                for q in np.unique(sn[lost]):
                    b = bags[cstart[q]:cstart[q + 1]]
                    total = b.sum()
                    frac[cstart[q]:cstart[q + 1]] = b / total if total > 0 else np.full(len(b), 1.0 / len(b))
                rep = nb[sn[lost]]
                first = np.repeat(cstart[sn[lost]], rep)
                ch = first + (np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep))
                child.append(ch)
                cw.append(np.repeat(wr[lost], rep) * frac[ch])
                crow.append(np.repeat(r[lost], rep))
            child, cw, crow = np.concatenate(child), np.concatenate(cw), np.concatenate(crow)
            keep = cw > 0
            child, cw, crow = child[keep], cw[keep], crow[keep]
            order = np.argsort(child * n + crow)
            rows, w, nid = crow[order], cw[order], child[order]
            keep_f = avail[snodes].copy()
            keep_f[np.arange(len(snodes)), f] = False
            avail = np.repeat(keep_f, nb, axis=0)
            links = new_links
        return root

    def _leaf_set(self, counts, pred):
        K = len(counts)
        if self.leaf == "frequency":
            # Precise: the most frequent class (the parent's, at an empty leaf).
            out = np.zeros(K, dtype=bool)
            out[int(np.argmax(pred))] = True
            return out
        if counts.sum() <= 0:
            return np.ones(K, dtype=bool)
        # Dropped iff some class's lower probability exceeds its upper one
        # (or equals it, for ties="drop"); compare n_k - n_c with s.
        tol = 1e-9 * max(1.0, counts.sum())
        gap = counts.max() - counts - self._s
        if self.ties == "keep":
            keep = gap <= tol
        else:
            keep = (gap < -tol) | (counts >= counts.max() - tol)
        return keep

    # -- prediction

    def _route(self, codes):
        """Leaf sets (union over the leaves a row reaches) and leaf frequencies
        (weighted by the share of the row reaching each leaf), shape (n, K) each.

        All rows go down one level at a time on the flattened tree (a fixed
        number of numpy calls per level, not per node); a row missing the split
        feature goes down every branch with the branch's share of the observed
        training weight, as :func:`_split_rows` sends it.
        """
        feature, first, n_child, share, leaf_set, leaf_freq = self._nodes
        n = len(codes)
        K = len(self.classes_)
        hits = np.zeros((n, K))
        score = np.zeros((n, K))
        rows, node, w = np.arange(n), np.zeros(n, dtype=np.intp), np.ones(n)
        while rows.size:
            f = feature[node]
            leaf = f < 0
            if leaf.any():
                r, nd = rows[leaf], node[leaf]
                np.add.at(hits, r, leaf_set[nd])
                np.add.at(score, r, w[leaf, None] * leaf_freq[nd])
                inner = ~leaf
                rows, node, w, f = rows[inner], node[inner], w[inner], f[inner]
            v = codes[rows, f]
            obs = v >= 0
            if obs.all():
                node = first[node] + v
                continue
            lost = ~obs
            rep = n_child[node[lost]]
            start = np.repeat(first[node[lost]], rep)
            child = start + np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep)
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


class C45Tree(PreciseMixin, _TreeMixin, BaseClassifier):
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
