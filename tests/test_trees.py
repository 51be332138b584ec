"""Tests of credal.trees: the credal decision tree and the C4.5 (J48) baseline.

Checks against someone else's code: the Weka imprecise-probability plugin's credal
tree (../shared/conformance, ``weka_ip_cdt``) and Weka J48's published trees for
the classic weather and contact-lenses data (Witten, Frank & Hall, "Data Mining",
where J48's output on these files is printed).  Checks against slow reference
implementations: a loop-based credal tree and ID3 (written here), the upper entropy by
bisection, the frozen earlier credal tree (``credal.reference``) and the frozen
recursive C4.5 (``tests/reference/frozen_c45.py``), whose trees the compiled one reproduces.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats
from sklearn.base import clone

from credal.reference import bisection_upper_entropy
from reference.frozen_credal_tree import FrozenCredalTree, frozen_upper_entropy
from credal.trees import (
    C45Tree,
    CredalDecisionTree,
    _level_gains,
)

from reference.frozen_c45 import FrozenC45Tree, _add_errs as frozen_add_errs
from credal._compiled_c45 import _add_errs as _compiled_add_errs, _psum
from credal._compiled_credal_tree import _upper_entropy


def _add_errs(N, e, cf):
    """The compiled tree's Stats.addErrs, elementwise over N and e."""
    z = special.ndtri(1 - cf)
    return np.vectorize(lambda a, b: _compiled_add_errs(float(a), float(b), float(cf), z))(N, e)[()]

CONF = Path(__file__).resolve().parent / "conformance"  # copy of ../shared/conformance


# ------------------------------------------------------------ tiny ARFF reader


def _split_values(line):
    out, cur, quote, i = [], "", None, 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < len(line):
                cur += line[i + 1]
                i += 2
                continue
            if ch == quote:
                quote = None
            else:
                cur += ch
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    out.append(cur.strip())
    return out


def _read_nominal_arff(path):
    """Nominal ARFF -> (DataFrame of categoricals in declared order, class Series)."""
    attrs, rows, in_data = [], [], False
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if in_data:
            rows.append(_split_values(line))
        elif line.lower().startswith("@attribute"):
            m = re.match(r"@attribute\s+('(?:[^'\\]|\\.)*'|\S+)\s+\{(.*)\}\s*$", line, re.I)
            attrs.append((m.group(1).strip("'"), _split_values(m.group(2))))
        elif line.lower().startswith("@data"):
            in_data = True
    cols = {}
    for j, (name, values) in enumerate(attrs):
        codes = [-1 if r[j] == "?" else values.index(r[j]) for r in rows]
        cols[name] = pd.Categorical.from_codes(codes, categories=values)
    df = pd.DataFrame(cols)
    return df.iloc[:, :-1], df.iloc[:, -1]


# ------------------------------------------------ slow reference implementations


def _ml_entropy(n):
    tot = sum(n)
    return -sum(v / tot * math.log(v / tot) for v in n if v > 0)


def _ref_tree(X, y, K, nv, s, double=False, entropy=None, feats=None):
    """Recursive credal tree (complete data) with plain loops.

    Returns a nested tuple: ("leaf", counts) or ("split", feature, [children]).
    """
    H = entropy or (lambda n: bisection_upper_entropy(n, s))
    counts = [int(np.sum(y == k)) for k in range(K)]
    if feats is None:
        feats = [j for j in range(X.shape[1]) if nv[j] > 1]
    if len(y) == 0 or not feats:
        return ("leaf", counts)
    N = len(y)
    h0 = H(counts)

    def gain(cols):
        g = h0
        keys = {}
        for i in range(N):
            keys.setdefault(tuple(X[i, c] for c in cols), []).append(y[i])
        for ys in keys.values():
            g -= len(ys) / N * H([ys.count(k) for k in range(K)])
        return g

    single = [(gain([f]), f) for f in feats]
    best = max(g for g, _ in single)
    choice = None
    if double:
        pairs = [(gain([a, b]), a, b) for i, a in enumerate(feats) for b in feats[i + 1 :]]
        if pairs:
            bp = max(g for g, _, _ in pairs)
            if bp > best + 1e-12 and bp > 1e-12:
                _, a, b = next(p for p in pairs if p[0] >= bp - 1e-12)
                ga, gb = gain([a]), gain([b])
                choice = b if gb > ga + 1e-12 else a
    if choice is None:
        if best <= 1e-12:
            return ("leaf", counts)
        choice = next(f for g, f in single if g >= best - 1e-12)
    rest = [f for f in feats if f != choice]
    kids = []
    for v in range(nv[choice]):
        m = X[:, choice] == v
        kids.append(_ref_tree(X[m], y[m], K, nv, s, double, entropy, rest))
    return ("split", choice, kids)


def _structure(node):
    """Our fitted tree as the same nested tuple."""
    if node.is_leaf:
        return ("leaf", [int(round(c)) for c in node.counts])
    return ("split", node.feature, [_structure(c) for c in node.children])


def _random_data(rng, n, n_feat, max_vals=3, noise=0.15):
    nv = rng.integers(2, max_vals + 1, size=n_feat)
    X = np.column_stack([rng.integers(0, v, size=n) for v in nv])
    w = rng.normal(size=n_feat)
    score = (X / (nv - 1)) @ w
    y = (score > np.median(score)).astype(int)
    flip = rng.random(n) < noise
    y[flip] = rng.integers(0, 3, size=flip.sum())
    # Declare every category, also unobserved ones, through a DataFrame.
    df = pd.DataFrame({f"f{j}": pd.Categorical.from_codes(X[:, j], categories=list(range(nv[j]))) for j in range(n_feat)})
    return X, y, nv, df


# ----------------------------------------------------------- credal tree tests


@pytest.mark.parametrize("name", ["iris", "zoo"])
def test_credal_tree_matches_weka_ip_plugin(name):
    Xtr, ytr = _read_nominal_arff(CONF / "data" / f"{name}_train.arff")
    Xte, _ = _read_nominal_arff(CONF / "data" / f"{name}_test.arff")
    exp = pd.read_csv(CONF / "expected" / "weka_ip_cdt" / f"{name}.csv")
    K = len(ytr.cat.categories)
    want = exp[[f"set_{k}" for k in range(K)]].to_numpy().astype(bool)
    # The plugin drops class c when n_max = n_c + s (a tie of lower and upper
    # probability); with that tie rule the sets agree on every test row.
    weka_like = CredalDecisionTree(s=1.0, ties="drop").fit(Xtr, ytr)
    np.testing.assert_array_equal(weka_like.predict_set(Xte), want)
    # The slides' rule keeps tied classes: same tree, sets can only grow, and
    # every row where they grow sits in a leaf with such a tie.
    slides = CredalDecisionTree(s=1.0).fit(Xtr, ytr)
    assert _structure(slides.tree_) == _structure(weka_like.tree_)
    got = slides.predict_set(Xte)
    assert np.all(got >= want)
    assert np.all(got.sum(axis=1) >= 1)
    for i in np.flatnonzero((got != want).any(axis=1)):
        node = slides.tree_
        row = np.array([Xte[c].cat.codes.iloc[i] for c in Xte.columns])
        while not node.is_leaf:
            node = node.children[row[node.feature]]
        n = node.counts
        extra = np.flatnonzero(got[i] & ~want[i])
        assert np.all(np.isclose(n.max() - n[extra], 1.0)), (i, n)
    # predict is the most frequent class at the leaf and lies in the set.
    pred = slides.predict(Xte)
    idx = np.array([list(slides.classes_).index(p) for p in pred])
    assert np.all(got[np.arange(len(idx)), idx])


@pytest.mark.parametrize("name", ["iris", "zoo"])
def test_credal_tree_matches_r_imptree(name):
    # R imptree 0.5.1 (IDM s = 1, "strong" dominance): a feature is a candidate only
    # while all its levels occur at the node; a tie n_k = n_c + s drops c there too.
    Xtr, ytr = _read_nominal_arff(CONF / "data" / f"{name}_train.arff")
    Xte, _ = _read_nominal_arff(CONF / "data" / f"{name}_test.arff")
    exp = pd.read_csv(CONF / "expected" / "imptree_idm_strong" / f"{name}.csv")
    want = exp[[f"set_{k}" for k in range(len(ytr.cat.categories))]].to_numpy().astype(bool)
    kw = dict(s=1.0, ties="drop", candidates="all-levels")
    first = CredalDecisionTree(**kw).fit(Xtr, ytr).predict_set(Xte)
    # imptree breaks exact ties between split features at random (R's sample);
    # with the columns reversed the last of the tied features wins instead.
    rev = list(Xtr.columns)[::-1]
    last = CredalDecisionTree(**kw).fit(Xtr[rev], ytr).predict_set(Xte[rev])
    differs = (first != want).any(axis=1)
    assert not np.any(differs & (first == last).all(axis=1))  # every difference is a tie-break
    np.testing.assert_array_equal(last, want)
    assert differs.sum() <= 1
    if name == "iris":  # without imptree's rule the tree, and two sets, differ
        assert (CredalDecisionTree(s=1.0, ties="drop").fit(Xtr, ytr).predict_set(Xte) != want).any()


def test_all_levels_rule_drops_features_with_an_unseen_level():
    # f0 separates the classes but its third level never occurs: imptree's rule
    # cannot split on it, the default rule can.
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    y = X[:, 0]
    X = pd.DataFrame({"f0": pd.Categorical.from_codes(X[:, 0], [0, 1, 2]),
                      "f1": pd.Categorical.from_codes(X[:, 1], [0, 1])})
    assert CredalDecisionTree().fit(X, y).tree_.feature == 0
    assert CredalDecisionTree(candidates="all-levels").fit(X, y).tree_.is_leaf
    with pytest.raises(ValueError, match="candidates"):
        CredalDecisionTree(candidates="all").fit(X, y)


@pytest.mark.parametrize("double", [False, True])
def test_credal_tree_equals_slow_reference(double):
    rng = np.random.default_rng(11 if double else 12)
    for trial in range(8 if double else 15):
        n = int(rng.integers(20, 120))
        X, y, nv, df = _random_data(rng, n, int(rng.integers(2, 6)))
        s = float(rng.choice([0.5, 1.0, 2.0]))
        ref = _ref_tree(X, y, 3, nv, s, double)
        est = CredalDecisionTree(s=s, branching="double" if double else "simple")
        # Categorical columns declare every value; all three classes are declared.
        yc = pd.Series(pd.Categorical.from_codes(y, categories=[0, 1, 2]))
        est.fit(df, yc)
        assert _structure(est.tree_) == ref, trial
        # The sets follow the slides' dominance rule at the leaf reached.
        sets = est.predict_set(df)
        for i in range(0, n, 7):
            node = ref
            while node[0] == "split":
                node = node[2][X[i, node[1]]]
            c = np.array(node[1], float)
            want = np.ones(3, bool) if c.sum() == 0 else ~(c.max() > c + s)
            np.testing.assert_array_equal(sets[i], want)


def test_double_branching_finds_xor():
    # Every combination of three binary features, 25 times: no single feature
    # carries information about y = x0 XOR x1.
    X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 25)
    y = X[:, 0] ^ X[:, 1]
    simple = CredalDecisionTree().fit(X, y)
    double = CredalDecisionTree(branching="double").fit(X, y)
    # No single feature is informative: the simple method stops at the root ...
    assert simple.n_leaves_ == 1 and simple.depth_ == 0
    # ... the pair (x0, x1) is, and the double method recovers XOR exactly.
    assert double.depth_ == 2 and double.n_leaves_ == 4
    assert {double.tree_.feature, double.tree_.children[0].feature} == {0, 1}
    np.testing.assert_array_equal(double.predict(X), y)
    assert double.predict_set(X).sum() == len(y)


def test_small_s_tree_approaches_id3():
    """With s -> 0 on complete data the IIG tends to the information gain."""
    rng = np.random.default_rng(14)
    checked = 0
    for trial in range(30):
        X, y, nv, df = _random_data(rng, int(rng.integers(30, 150)), 4, max_vals=3, noise=0.1)
        id3 = _ref_tree(X, y, 3, nv, 0.0, entropy=_ml_entropy)
        # Skip data where ID3 itself meets a tie between features (the limit of
        # the IIG breaks such ties by the s-term, ID3 by column order).
        if _has_gain_tie(X, y, nv):
            continue
        est = CredalDecisionTree(s=1e-9).fit(df, pd.Series(pd.Categorical.from_codes(y, [0, 1, 2])))
        assert _structure(est.tree_) == id3, trial
        checked += 1
    assert checked >= 10
    # A larger s prunes: never more leaves than ID3.
    X, y, nv, df = _random_data(np.random.default_rng(15), 150, 5, noise=0.3)
    sizes = [CredalDecisionTree(s=s).fit(X, y).n_leaves_ for s in (1e-9, 0.5, 1.0, 4.0)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]


def _has_gain_tie(X, y, nv, feats=None):
    feats = [j for j in range(X.shape[1]) if nv[j] > 1] if feats is None else feats
    if len(y) == 0 or not feats:
        return False
    h0 = _ml_entropy([int(np.sum(y == k)) for k in range(3)])
    gains = []
    for f in feats:
        g = h0
        for v in range(nv[f]):
            m = X[:, f] == v
            if m.any():
                g -= m.mean() * _ml_entropy([int(np.sum(y[m] == k)) for k in range(3)])
        gains.append(g)
    gains = np.array(gains)
    best = gains.max()
    if best <= 1e-9:
        return False
    if np.sum(gains >= best - 1e-6) > 1:
        return True
    f = feats[int(np.argmax(gains))]
    rest = [g for g in feats if g != f]
    return any(_has_gain_tie(X[X[:, f] == v], y[X[:, f] == v], nv, rest) for v in range(nv[f]))


def test_leaf_rules_and_empty_leaves():
    # One feature; value 0: counts (5, 0), value 1: (3, 2) ... value 2 never observed.
    X = np.array([[0]] * 5 + [[1]] * 5)
    y = np.array([0] * 5 + [0, 0, 0, 1, 1])
    df = pd.DataFrame({"a": pd.Categorical.from_codes(X[:, 0], categories=["u", "v", "w"])})
    tree = CredalDecisionTree(s=1.0).fit(df, y)
    assert tree.tree_.feature == 0 and tree.n_leaves_ == 3 and tree.depth_ == 1
    test = pd.DataFrame({"a": pd.Categorical(["u", "v", "w"], categories=["u", "v", "w"])})
    sets = tree.predict_set(test)
    # (5,0): 5 > 0 + 1 drops class 1; (3,2): kept both; empty leaf: vacuous.
    np.testing.assert_array_equal(sets, [[True, False], [True, True], [True, True]])
    # predict: most frequent at the leaf; the empty leaf uses its parent's counts (8 vs 2).
    np.testing.assert_array_equal(tree.predict(test), [0, 0, 0])
    freq = CredalDecisionTree(leaf="frequency").fit(df, y).predict_set(test)
    # The frequency criterion is precise: an empty leaf takes its parent's majority.
    np.testing.assert_array_equal(freq, [[True, False], [True, False], [True, False]])
    # Tie rule: counts (2, 1) with s = 1 -> n_max = n_c + s.
    X2, y2 = np.zeros((3, 1), int), np.array([0, 0, 1])
    assert CredalDecisionTree().fit(X2, y2).predict_set(X2[:1]).tolist() == [[True, True]]
    assert CredalDecisionTree(ties="drop").fit(X2, y2).predict_set(X2[:1]).tolist() == [[True, False]]


def test_missing_values_in_credal_tree():
    rng = np.random.default_rng(16)
    X = rng.integers(0, 2, size=(300, 2))
    y = X[:, 0].copy()
    y[:40] = X[:40, 1]
    tree = CredalDecisionTree().fit(X, y)
    assert tree.tree_.feature == 0
    Xt = np.array([[-1, 0], [0, 0], [1, 0]])
    sets = tree.predict_set(Xt)
    full = tree.predict_set(np.array([[0, 0], [1, 0]]))
    # Missing split value: the union of the sets of the branches.
    np.testing.assert_array_equal(sets[0], full[0] | full[1])
    assert tree.predict(Xt)[0] in np.flatnonzero(sets[0])
    # Training with missing values works and gives sane sets.
    Xm = X.copy()
    Xm[rng.random(Xm.shape) < 0.2] = -1
    tm = CredalDecisionTree().fit(Xm, y)
    s = tm.predict_set(Xm)
    assert s.any(axis=1).all()
    pred = tm.predict(Xm)
    assert np.all(s[np.arange(len(pred)), pred])


def test_missing_training_values_scale_the_gain_by_the_observed_fraction():
    # A predicts y perfectly but is observed on 40 of 200 rows; B is always
    # observed and right on 150 rows.  C4.5's rule (gain on the observed rows
    # times the observed fraction) prefers B; the unscaled gain would prefer A.
    y = np.array([0, 1] * 100)
    A = np.full(200, -1)
    A[:40] = y[:40]
    B = y.copy()
    B[np.arange(0, 200, 4)] = 1 - B[np.arange(0, 200, 4)]
    X = np.column_stack([A, B])

    def iig(col):
        obs = col >= 0
        n = [int(np.sum(y[obs] == k)) for k in (0, 1)]
        after = sum(
            np.sum(obs & (col == v)) / obs.sum() * bisection_upper_entropy([int(np.sum(y[obs & (col == v)] == k)) for k in (0, 1)], 1.0)
            for v in (0, 1)
        )
        return obs.mean() * (bisection_upper_entropy(n, 1.0) - after), bisection_upper_entropy(n, 1.0) - after

    (ga, ga_raw), (gb, _) = iig(A), iig(B)
    assert gb > ga and ga_raw > gb
    assert CredalDecisionTree().fit(X, y).tree_.feature == 1


def test_credal_tree_api_and_errors():
    X, y, nv, df = _random_data(np.random.default_rng(17), 80, 3)
    labels = np.array(["a", "b", "c"])[y]
    est = CredalDecisionTree()
    assert clone(est).get_params() == {"s": 1.0, "branching": "simple", "leaf": "dominance", "ties": "keep",
                                       "candidates": "observed"}
    assert est.fit(df, labels) is est
    assert set(est.predict(df)) <= set(labels)
    assert "f" in est.export_text() and "Number of leaves" in est.export_text()
    for bad in (0, -1.0, np.nan):
        with pytest.raises(ValueError, match="s must"):
            CredalDecisionTree(s=bad).fit(X, y)
    with pytest.raises(ValueError, match="branching"):
        CredalDecisionTree(branching="triple").fit(X, y)
    with pytest.raises(ValueError, match="leaf"):
        CredalDecisionTree(leaf="max").fit(X, y)
    with pytest.raises(ValueError, match="ties"):
        CredalDecisionTree(ties="maybe").fit(X, y)
    with pytest.raises(AttributeError, match="not fitted"):
        CredalDecisionTree().predict_set(X)
    with pytest.raises(ValueError, match="features"):
        CredalDecisionTree().fit(X, y).predict_set(X[:, :2])


# ------------------------------------- the old (dense, recursive) credal tree
#
# tests/reference/frozen_credal_tree.py is a frozen copy of the credal tree's fitting code
# before it was vectorised over the non-empty cells and over all nodes of a level: the
# reference that the fast code must reproduce (same gains to 1e-12, same trees, same
# predictions).


def _messy_data(rng, max_values=6):
    """Random nominal data: K = 2..5, 1..max_values values, missing values, duplicated columns."""
    n = int(rng.integers(1, 160))
    F = int(rng.integers(1, 7))
    K = int(rng.integers(2, 6))
    nv = rng.integers(1, max_values + 1, size=F)
    X = np.column_stack([rng.integers(0, v, size=n) for v in nv])
    # Classes depend on a few features (so that trees grow), plus noise.
    y = (X[:, : min(2, F)].sum(axis=1) + (rng.random(n) < 0.3) * rng.integers(0, K, size=n)) % K
    if F > 1 and rng.random() < 0.3:  # an exact duplicate: exact ties between gains
        X[:, 1], nv[1] = X[:, 0], nv[0]
    if rng.random() < 0.6:
        X[rng.random(X.shape) < rng.choice([0.05, 0.2, 0.5])] = -1
    df = pd.DataFrame({f"f{j}": pd.Categorical.from_codes(X[:, j], categories=list(range(nv[j]))) for j in range(F)})
    yc = pd.Series(pd.Categorical.from_codes(y, categories=list(range(K))))
    return df, yc, X, y, nv, K


def test_compiled_upper_entropy_equals_the_old_one():
    # the compiled gains' upper entropy (insertion sort, libm's log) against the frozen
    # numpy one, row by row: equal to rounding
    rng = np.random.default_rng(30)
    buf = np.empty(12)
    for K in range(2, 13):
        for frac in (False, True):
            n = rng.integers(0, 6, size=(400, K)).astype(float)
            n[rng.random(n.shape) < 0.4] = 0.0
            if frac:
                n *= rng.choice([1.0, 0.5, 0.3, 1 / 3], size=n.shape)
            n = n[n.sum(axis=1) > 0]
            for s in (0.5, 1.0, 2.0, 1e-9):
                want = frozen_upper_entropy(n, s)
                got = np.array([_upper_entropy(row, s, buf[:K]) for row in n])
                np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)


@pytest.mark.parametrize("double,max_values", [(False, 6), (True, 6), (True, 60)])
def test_level_gains_equal_the_old_per_node_gains(double, max_values):
    # 60 values: pairs of up to 3600 cells, counted by sorting rather than densely
    rng = np.random.default_rng(32 + double + max_values)
    checked = 0
    for _ in range(60):
        df, yc, X, y, nv_all, K = _messy_data(rng, max_values)
        old = FrozenCredalTree(s=float(rng.choice([0.5, 1.0, 2.0])), branching="double" if double else "simple")
        old.fit(df, yc)
        old._codes, old._y = X, y
        usable = np.flatnonzero(old.n_values_ > 1)
        if len(usable) == 0:
            continue
        # Three nodes at once: random row subsets, fractional weights, features removed.
        A = 3
        parts, avail = [], np.ones((A, len(usable)), bool)
        for a in range(A):
            rows = np.sort(rng.choice(len(y), size=int(rng.integers(1, len(y) + 1)), replace=False))
            w = rng.choice([1.0, 1.0, 0.5, 0.2], size=len(rows)) if rng.random() < 0.5 else np.ones(len(rows))
            if a and len(usable) > 1:
                avail[a, rng.integers(len(usable))] = False
            parts.append((rows, w))
        lid = np.concatenate([np.full(len(r), a) for a, (r, _) in enumerate(parts)])
        allrows = np.concatenate([r for r, _ in parts])
        g1, g2 = _level_gains(np.ascontiguousarray(X[allrows][:, usable].T), nv_all[usable], y[allrows], K,
                              old._s, lid, np.concatenate([w for _, w in parts]), avail, double)
        for a, (rows, w) in enumerate(parts):
            feats = usable[avail[a]]
            W = w.sum()
            want1 = old._gains_single(X[rows], y[rows], w, W, feats)
            got1 = g1[a, avail[a]]
            assert np.all(np.isinf(g1[a, ~avail[a]]))
            np.testing.assert_array_equal(np.isinf(got1), np.isinf(want1))
            np.testing.assert_allclose(got1[np.isfinite(want1)], want1[np.isfinite(want1)], rtol=0, atol=1e-12)
            if double:
                want2, pairs = old._gains_pairs(X[rows], y[rows], w, W, feats)
                if g2 is None:  # a single usable feature: no pairs
                    assert len(usable) == 1 and len(want2) == 0
                    continue
                I, J = np.triu_indices(len(usable), k=1)
                ok = avail[a][I] & avail[a][J]
                assert np.all(np.isinf(g2[a, ~ok]))
                got2 = g2[a, ok]
                np.testing.assert_array_equal(np.column_stack([usable[I[ok]], usable[J[ok]]]), pairs)
                np.testing.assert_array_equal(np.isinf(got2), np.isinf(want2))
                np.testing.assert_allclose(got2[np.isfinite(want2)], want2[np.isfinite(want2)], rtol=0, atol=1e-12)
            checked += 1
    assert checked >= 100


def _assert_same_tree(new, old, X):
    assert new.export_text(decimals=6) == old.export_text(decimals=6)
    np.testing.assert_array_equal(new.predict_set(X), old.predict_set(X))
    np.testing.assert_array_equal(new.predict(X), old.predict(X))


@pytest.mark.parametrize("double,max_values", [(False, 6), (True, 6), (True, 60)])
def test_fast_credal_tree_equals_the_old_implementation(double, max_values):
    rng = np.random.default_rng(40 + double + max_values)
    split = 0
    for trial in range(150):
        df, yc, *_ = _messy_data(rng, max_values)
        kw = dict(s=float(rng.choice([0.25, 1.0, 2.0])), branching="double" if double else "simple",
                  leaf=str(rng.choice(["dominance", "frequency"])))
        new = CredalDecisionTree(**kw).fit(df, yc)
        old = FrozenCredalTree(**kw).fit(df, yc)
        _assert_same_tree(new, old, df)
        split += new.depth_ > 0
    assert split >= 50  # most of the random trees do grow


def _real_fold(name, n_rows, seed=0):
    from credal import datasets, experiments

    ds = datasets.load(name)
    keep = ~pd.isna(pd.Series(ds.y)).to_numpy()
    X, y = ds.X[keep], ds.y[keep]
    idx = np.random.default_rng(seed).permutation(len(y))[: n_rows or int(0.8 * len(y))]
    X, y = X.iloc[idx], y.iloc[idx]
    return experiments.default_preprocessing().fit(X, y).transform(X), y


@pytest.mark.parametrize("name, n_rows", [("cylinder_bands", 150), ("audiology", None), ("vote", None)])
def test_fast_credal_tree_equals_the_old_one_on_real_folds(name, n_rows):
    X, y = _real_fold(name, n_rows)
    for branching in ("simple", "double"):
        new = CredalDecisionTree(branching=branching).fit(X, y)
        old = FrozenCredalTree(branching=branching).fit(X, y)
        assert new.n_leaves_ > 1
        _assert_same_tree(new, old, X)


# ------------------------------------------------------------------ C4.5 / J48

WEATHER = """sunny,hot,high,FALSE,no
sunny,hot,high,TRUE,no
overcast,hot,high,FALSE,yes
rainy,mild,high,FALSE,yes
rainy,cool,normal,FALSE,yes
rainy,cool,normal,TRUE,no
overcast,cool,normal,TRUE,yes
sunny,mild,high,FALSE,no
sunny,cool,normal,FALSE,yes
rainy,mild,normal,FALSE,yes
sunny,mild,normal,TRUE,yes
overcast,mild,high,TRUE,yes
overcast,hot,normal,FALSE,yes
rainy,mild,high,TRUE,no"""

LENSES = """young,myope,no,reduced,none
young,myope,no,normal,soft
young,myope,yes,reduced,none
young,myope,yes,normal,hard
young,hypermetrope,no,reduced,none
young,hypermetrope,no,normal,soft
young,hypermetrope,yes,reduced,none
young,hypermetrope,yes,normal,hard
pre-presbyopic,myope,no,reduced,none
pre-presbyopic,myope,no,normal,soft
pre-presbyopic,myope,yes,reduced,none
pre-presbyopic,myope,yes,normal,hard
pre-presbyopic,hypermetrope,no,reduced,none
pre-presbyopic,hypermetrope,no,normal,soft
pre-presbyopic,hypermetrope,yes,reduced,none
pre-presbyopic,hypermetrope,yes,normal,none
presbyopic,myope,no,reduced,none
presbyopic,myope,no,normal,none
presbyopic,myope,yes,reduced,none
presbyopic,myope,yes,normal,hard
presbyopic,hypermetrope,no,reduced,none
presbyopic,hypermetrope,no,normal,soft
presbyopic,hypermetrope,yes,reduced,none
presbyopic,hypermetrope,yes,normal,none"""


def _frame(text, names, cats, classes):
    rows = [line.split(",") for line in text.splitlines()]
    X = pd.DataFrame({n: pd.Categorical([r[j] for r in rows], categories=cats[j]) for j, n in enumerate(names)})
    y = pd.Series(pd.Categorical([r[-1] for r in rows], categories=classes))
    return X, y


def test_j48_weather_tree():
    X, y = _frame(
        WEATHER,
        ["outlook", "temperature", "humidity", "windy"],
        [["sunny", "overcast", "rainy"], ["hot", "mild", "cool"], ["high", "normal"], ["TRUE", "FALSE"]],
        ["yes", "no"],
    )
    m = C45Tree().fit(X, y)
    # J48's printed tree (Weka 3, weather.nominal.arff).
    want = [
        "outlook = sunny",
        "|   humidity = high: no (3.0)",
        "|   humidity = normal: yes (2.0)",
        "outlook = overcast: yes (4.0)",
        "outlook = rainy",
        "|   windy = TRUE: no (2.0)",
        "|   windy = FALSE: yes (3.0)",
    ]
    assert m.export_text().splitlines()[: len(want)] == want
    assert m.n_leaves_ == 5 and m.depth_ == 2
    np.testing.assert_array_equal(m.predict(X), y.to_numpy())
    p = m.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)


def test_j48_contact_lenses_tree():
    X, y = _frame(
        LENSES,
        ["age", "spectacle-prescrip", "astigmatism", "tear-prod-rate"],
        [["young", "pre-presbyopic", "presbyopic"], ["myope", "hypermetrope"], ["no", "yes"], ["reduced", "normal"]],
        ["soft", "hard", "none"],
    )
    m = C45Tree().fit(X, y)
    want = [
        "tear-prod-rate = reduced: none (12.0)",
        "tear-prod-rate = normal",
        "|   astigmatism = no: soft (6.0/1.0)",
        "|   astigmatism = yes",
        "|   |   spectacle-prescrip = myope: hard (3.0)",
        "|   |   spectacle-prescrip = hypermetrope: none (3.0/1.0)",
    ]
    assert m.export_text().splitlines()[: len(want)] == want
    assert m.n_leaves_ == 4 and m.depth_ == 3
    # Without collapsing, the age split under astigmatism = no survives growth;
    # J48's unpruned tree (-U) still collapses it (its training errors equal the node's).
    raw = C45Tree(pruning=False, collapse=False).fit(X, y)
    assert raw.n_leaves_ == 6
    assert C45Tree(pruning=False).fit(X, y).n_leaves_ == 4
    # Leaf (6, 1 wrong): probabilities 5/6, 0, 1/6.
    row = X.iloc[[1]]
    np.testing.assert_allclose(m.predict_proba(row), [[5 / 6, 0, 1 / 6]])


def test_pessimistic_error_estimate():
    # e = 0: exact binomial upper limit, N (1 - CF^(1/N)); Quinlan's U_0.25(0, N):
    # 0.206 (N=6), 0.143 (N=9), 0.750 (N=1).
    for N, want in [(6, 0.206), (9, 0.143), (1, 0.750)]:
        assert _add_errs(N, 0, 0.25) / N == pytest.approx(want, abs=5e-4)
        assert _add_errs(N, 0, 0.25) / N == pytest.approx(stats.beta.ppf(0.75, 1, N), abs=1e-12)
    # e >= 1: the normal approximation stays close to the exact binomial limit.
    for N, e in [(16, 1), (20, 3), (50, 10), (100, 30)]:
        exact = stats.beta.ppf(0.75, e + 1, N - e)
        assert (e + _add_errs(N, e, 0.25)) / N == pytest.approx(exact, abs=0.01)
    assert _add_errs(10, 9.6, 0.25) == pytest.approx(0.4)


def test_pruning_replaces_subtree_by_leaf():
    # Quinlan's example: a split into leaves (6,0), (9,0), (0,1) has estimated
    # errors 6*0.206 + 9*0.143 + 1*0.750 = 3.27 > 16 * 0.155 for one leaf (15,1).
    X = np.array([[0]] * 6 + [[1]] * 9 + [[2]])
    y = np.array([0] * 15 + [1])
    unpruned = C45Tree(pruning=False).fit(X, y)
    assert unpruned.n_leaves_ == 3
    pruned = C45Tree().fit(X, y)
    assert pruned.n_leaves_ == 1 and pruned.depth_ == 0
    assert C45Tree(confidence_factor=0.5).fit(X, y).n_leaves_ in (1, 3)


def test_pruning_margin_of_a_tenth_of_an_error():
    # Children (0,3) and (4,3) of a node (4,6): the leaf's estimated errors exceed
    # the subtree's by less than 0.1, so J48 still prunes (errorsLeaf <= errorsTree + 0.1).
    def est(d):
        t, e = sum(d), sum(d) - max(d)
        return e + _add_errs(t, e, 0.25)

    diff = est((4, 6)) - (est((0, 3)) + est((4, 3)))
    assert 0 < diff <= 0.1
    X = np.array([[0]] * 3 + [[1]] * 7)
    y = np.array([1, 1, 1, 0, 0, 0, 0, 1, 1, 1])
    assert C45Tree(pruning=False).fit(X, y).n_leaves_ == 2
    assert C45Tree().fit(X, y).n_leaves_ == 1
    assert C45Tree(subtree_raising=False).fit(X, y).n_leaves_ == 1


def test_average_gain_filter():
    # A peels off 4 pure rows: small gain, tiny split information, so the largest
    # gain ratio; but its gain is below the average, so J48 splits on B.
    y = np.array([0] * 50 + [1] * 50)
    B = np.array([0] * 35 + [1] * 15 + [0] * 15 + [1] * 35)
    A = np.zeros(100, int)
    A[50:54] = 1
    C = np.arange(100) % 2
    X = np.column_stack([A, B, C])

    def h(*n):
        t = sum(n)
        return -sum(v / t * math.log2(v / t) for v in n if v > 0)

    gain_a = h(50, 50) - 0.96 * h(50, 46)
    gain_b = h(50, 50) - h(35, 15)
    ratio_a, ratio_b = gain_a / h(96, 4), gain_b / h(50, 50)
    assert ratio_a > ratio_b and gain_a < (gain_a + gain_b + 0.0) / 3
    assert C45Tree(pruning=False).fit(X, y).tree_.feature == 1


def test_subtree_raising_replaces_root_by_largest_branch():
    # x0 peels off 10 pure class-1 rows (gain ratio 0.23 > 0.12 for x1, and its
    # gain is above the average because four features carry no information),
    # so growth splits on x0, then on x1 inside x0 = 0.  Raising that x1 subtree
    # to the root and sending all 100 rows through it lowers the estimated errors.
    y = np.array([0] * 50 + [1] * 50)
    B = y.copy()
    B[:15] = 1
    B[50:65] = 0
    A = np.zeros(100, int)
    A[90:] = 1
    useless = [np.tile([0, 1], 50), np.tile([0, 0, 1, 1], 25), np.tile([0] * 5 + [1] * 5, 10), np.tile([0] * 10 + [1] * 10, 5)]
    X = np.column_stack([A, B] + useless)

    def est(n, wrong):
        return wrong + _add_errs(n, wrong, 0.25)

    err_tree = est(50, 15) + est(40, 15) + est(10, 0)
    err_raised = 2 * est(50, 15)
    assert err_raised <= err_tree + 0.1 and est(100, 50) > err_raised + 0.1
    grown = C45Tree(pruning=False).fit(X, y)
    assert grown.tree_.feature == 0 and grown.tree_.children[0].feature == 1
    no_raise = C45Tree(subtree_raising=False).fit(X, y)
    assert no_raise.tree_.feature == 0 and no_raise.n_leaves_ == 3
    raised = C45Tree().fit(X, y)
    assert raised.tree_.feature == 1 and raised.n_leaves_ == 2
    np.testing.assert_allclose([c.counts for c in raised.tree_.children], [[35, 15], [15, 35]])


def test_subtree_raising_and_estimates_are_consistent():
    rng = np.random.default_rng(18)
    for _ in range(5):
        X, y, nv, df = _random_data(rng, 300, 5, noise=0.35)
        full = C45Tree(pruning=False).fit(df, y)
        pruned = C45Tree().fit(df, y)
        no_raise = C45Tree(subtree_raising=False).fit(df, y)
        assert pruned.n_leaves_ <= full.n_leaves_ and no_raise.n_leaves_ <= full.n_leaves_
        # Training weight is conserved through every leaf of the pruned tree.
        total = 0.0
        stack = [pruned.tree_]
        while stack:
            node = stack.pop()
            if node.is_leaf:
                total += node.counts.sum()
            else:
                stack.extend(node.children)
        assert total == pytest.approx(len(y))


def test_c45_missing_values():
    rng = np.random.default_rng(19)
    X = rng.integers(0, 3, size=(200, 2))
    y = (X[:, 0] > 0).astype(int)
    m = C45Tree().fit(X, y)
    assert m.tree_.feature == 0
    bags = m.tree_.bag_weights / m.tree_.bag_weights.sum()
    p_missing = m.predict_proba(np.array([[-1, 0]]))
    p_each = m.predict_proba(np.array([[0, 0], [1, 0], [2, 0]]))
    np.testing.assert_allclose(p_missing[0], bags @ p_each, atol=1e-12)
    # Training with missing values: fractional weights, probabilities still sum to 1.
    Xm = X.copy()
    Xm[rng.random(Xm.shape) < 0.25] = -1
    mm = C45Tree().fit(Xm, y)
    p = mm.predict_proba(Xm)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert (mm.predict(Xm) == y).mean() > 0.6
    np.testing.assert_allclose(np.exp(mm.predict_log_proba(Xm)), p)


def test_c45_api_and_errors():
    X, y, nv, df = _random_data(np.random.default_rng(20), 60, 3)
    est = C45Tree()
    assert clone(est).get_params()["confidence_factor"] == 0.25
    assert est.fit(X, y) is est
    for bad in (0, 0.6, -0.1):
        with pytest.raises(ValueError, match="confidence_factor"):
            C45Tree(confidence_factor=bad).fit(X, y)
    with pytest.raises(ValueError, match="min_num_obj"):
        C45Tree(min_num_obj=0).fit(X, y)
    with pytest.raises(AttributeError, match="not fitted"):
        C45Tree().predict(X)
    with pytest.raises(ValueError, match="outside"):
        C45Tree().fit(X, y).predict(X + 5)


# ------------------------------------------- the old (recursive) C4.5, frozen
#
# tests/reference/frozen_c45.py is the recursive numpy C45Tree of commit 263dd07 (one node
# and one feature at a time): the compiled tree (credal/_compiled_c45.py) must give the same
# trees, the same predictions and the same probabilities, bit for bit.


def _assert_same_c45(new, old, Xs):
    assert new.export_text(decimals=6) == old.export_text(decimals=6)
    assert (new.n_leaves_, new.depth_) == (old.n_leaves_, old.depth_)
    for X in Xs:
        np.testing.assert_array_equal(new.predict_proba(X), old.predict_proba(X))
        np.testing.assert_array_equal(new.predict(X), old.predict(X))


def test_compiled_pairwise_sum_is_numpys_sum_bit_for_bit():
    # the compiled tree's sums (bag weights, shares of missing values) must be numpy's
    rng = np.random.default_rng(52)
    for n in [*range(0, 300), 511, 1024, 1031, 4097, 77777]:
        a = rng.random(n) * rng.choice([1e-3, 1.0, 1e6])
        assert _psum(a, 0, n) == a.sum()
        if n > 5:
            assert _psum(a, 3, n - 5) == a[3:n - 2].sum()


def test_compiled_add_errs_is_the_scalar_one():
    rng = np.random.default_rng(50)
    N = np.concatenate([rng.uniform(1e-3, 5, 300), rng.integers(1, 400, 300).astype(float), [1.0, 2.0, 0.5]])
    e = np.concatenate([rng.uniform(0, 1, 200), np.zeros(100), rng.uniform(0, 1, 300) * N[300:600], [0.5, 1.5, 0.0]])
    e[:300] = np.minimum(e[:300], N[:300])
    for cf in (0.25, 0.1, 0.5, 0.01):
        want = [frozen_add_errs(a, b, cf) for a, b in zip(N, e)]
        # the compiled pow and sqrt may differ from Python's in the last bit
        np.testing.assert_allclose(_add_errs(N, e, cf), want, rtol=1e-13, atol=1e-13)
        assert _add_errs(N[7], e[7], cf) == pytest.approx(want[7], rel=1e-13)


def test_fast_c45_equals_the_frozen_one_on_random_data():
    rng = np.random.default_rng(51)
    raised = split = 0
    for trial in range(300):
        df, yc, X, y, nv, K = _messy_data(rng)
        kw = dict(confidence_factor=float(rng.choice([0.25, 0.25, 0.1, 0.5])),
                  min_num_obj=int(rng.choice([1, 2, 2, 3])),
                  subtree_raising=bool(rng.random() < 0.8), collapse=bool(rng.random() < 0.9),
                  pruning=bool(rng.random() < 0.9))
        new = C45Tree(**kw).fit(df, yc)
        old = FrozenC45Tree(**kw).fit(df, yc)
        # other rows: any declared value or missing, in every column
        other = pd.DataFrame({c: pd.Categorical.from_codes(rng.integers(-1, len(df[c].cat.categories), 40),
                                                           categories=df[c].cat.categories) for c in df.columns})
        _assert_same_c45(new, old, [df, other])
        split += new.depth_ > 0
        raised += C45Tree(**{**kw, "subtree_raising": False}).fit(df, yc).export_text() != new.export_text()
    assert split >= 150 and raised >= 5  # most trees grow; raising changes some


@pytest.mark.parametrize("name", ["nursery", "kr_vs_kp", "adult"])
def test_fast_c45_equals_the_frozen_one_on_real_data(name):
    from credal import datasets
    from credal.preprocessing import make_preprocessor

    ds = datasets.load(name)
    X, y = ds.X, ds.y
    if name == "adult":  # complete rows, MDL-discretised, as in the speed comparison
        keep = ~X.isna().any(axis=1).to_numpy()
        X, y = X[keep], y[keep]
    X = make_preprocessor().fit(X, y).transform(X)
    idx = np.random.default_rng(0).permutation(len(y))
    tr, te = idx[: 2 * len(y) // 3], idx[2 * len(y) // 3:]
    new = C45Tree().fit(X.iloc[tr], y.iloc[tr])
    old = FrozenC45Tree().fit(X.iloc[tr], y.iloc[tr])
    assert new.n_leaves_ > 10
    _assert_same_c45(new, old, [X.iloc[te]])
