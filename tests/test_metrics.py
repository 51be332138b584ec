"""Tests of credal.metrics: hand cases, brute-force loops, invariances, references."""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal import metrics as M

CONF = Path(__file__).resolve().parent / "conformance"  # copy of ../shared/conformance
TABLES = Path(__file__).resolve().parents[1] / "data" / "published"  # copy of ../shared/paper-tables


# ----------------------------------------------------------------------------
# slow reference implementations: one instance at a time, in plain Python
# ----------------------------------------------------------------------------

def _ref_all(sets, y, u_half_list=(0.65, 0.8)):
    """Indicators computed instance by instance, with Fractions where exact."""
    n = len(sets)
    sizes = [sum(bool(v) for v in row) for row in sets]
    hits = [bool(row[t]) for row, t in zip(sets, y)]
    det = [i for i in range(n) if sizes[i] == 1]
    ind = [i for i in range(n) if sizes[i] > 1]

    def mean(xs):
        xs = list(xs)
        return float(sum(xs, Fraction(0)) / len(xs)) if xs else float("nan")

    x = [Fraction(int(h), s) if s else Fraction(0) for h, s in zip(hits, sizes)]  # empty: 0
    out = {
        "determinacy": mean(Fraction(int(s == 1)) for s in sizes),
        "single_accuracy": mean(Fraction(int(hits[i])) for i in det),
        "set_accuracy": mean(Fraction(int(hits[i])) for i in ind),
        "indeterminate_size": mean(Fraction(sizes[i]) for i in ind),
        "discounted_accuracy": mean(x),
        "coverage": mean(Fraction(int(h)) for h in hits),
        "set_size": mean(Fraction(s) for s in sizes),
        "empty_sets": mean(Fraction(int(s == 0)) for s in sizes),
    }

    def u_lagrange(xv, uh):
        # quadratic through (0, 0), (1/2, uh), (1, 1), written in Lagrange form
        # so that it does not reuse the a, b coefficients of the implementation
        uh = Fraction(uh).limit_denominator(10**6)
        return uh * xv * (xv - 1) / (Fraction(1, 2) * Fraction(-1, 2)) + xv * (
            xv - Fraction(1, 2)
        ) / (Fraction(1) * Fraction(1, 2))

    for uh in u_half_list:
        key = {0.65: "u65", 0.8: "u80"}.get(uh, f"u{uh}")
        out[key] = mean(u_lagrange(xi, uh) for xi in x)
    return out


def _assert_same(a, b, tol=1e-12):
    if np.isnan(b):
        assert np.isnan(a)
    else:
        assert a == pytest.approx(b, abs=tol)


@st.composite
def sets_and_y(draw, max_n=30, max_k=6):
    k = draw(st.integers(1, max_k))
    n = draw(st.integers(0, max_n))
    rows = []
    for _ in range(n):
        mask = draw(st.integers(1, 2**k - 1))  # non-empty subset
        rows.append([(mask >> j) & 1 == 1 for j in range(k)])
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    sets = np.array(rows, dtype=bool).reshape(n, k)
    return sets, np.array(y, dtype=np.int64)


# ----------------------------------------------------------------------------
# brute force agreement
# ----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(sets_and_y())
def test_every_indicator_matches_instance_by_instance_reference(data):
    sets, y = data
    ref = _ref_all(sets.tolist(), y.tolist())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "mean of empty slice" noise
        got = {
            "determinacy": M.determinacy(sets),
            "single_accuracy": M.single_accuracy(sets, y),
            "set_accuracy": M.set_accuracy(sets, y),
            "indeterminate_size": M.indeterminate_size(sets),
            "discounted_accuracy": M.discounted_accuracy(sets, y),
            "coverage": M.coverage(sets, y),
            "u65": M.u65(sets, y),
            "u80": M.u80(sets, y),
        }
        summ = M.summary(sets, y)
    for key, val in ref.items():
        if key in got:
            _assert_same(got[key], val)
        _assert_same(summ[key], val)
    assert set(summ) == set(ref)


@settings(max_examples=100, deadline=None)
@given(sets_and_y(), st.integers(0, 2**31 - 1))
def test_summary_with_empty_sets_matches_the_reference(data, seed):
    """Empty sets (conformal LAC) are errors: not covered, utility 0, size 0."""
    sets, y = data
    sets = sets.copy()
    sets[np.random.default_rng(seed).random(len(sets)) < 0.3] = False
    ref = _ref_all(sets.tolist(), y.tolist())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summ = M.summary(sets, y, allow_empty=True)
    for key, val in ref.items():
        _assert_same(summ[key], val)
    if not sets.any(axis=1).all():
        with pytest.raises(ValueError, match="empty row"):
            M.summary(sets, y)


def test_accuracy_rejection_curve_is_the_single_accuracy_per_value():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 50)
    family = [np.eye(3, dtype=bool)[y] | (rng.random((50, 3)) < q) for q in (0.0, 0.3, 0.8)]
    family[0][:10] = np.eye(3, dtype=bool)[(y[:10] + 1) % 3]  # some errors
    curve = M.accuracy_rejection(family, y, values=[1, 2, 3])
    assert list(curve["value"]) == [1, 2, 3]
    for (_, row), sets in zip(curve.iterrows(), family):
        assert row["rejected"] == pytest.approx((sets.sum(axis=1) > 1).mean())
        _assert_same(row["accuracy"], M.single_accuracy(sets, y))
        assert row["coverage"] == pytest.approx(M.coverage(sets, y))
    assert curve["rejected"].is_monotonic_increasing
    with pytest.raises(ValueError, match="values has 2 entries"):
        M.accuracy_rejection(family, y, values=[1, 2])


@settings(max_examples=100, deadline=None)
@given(sets_and_y(max_n=20), st.floats(0.5, 1.0))
def test_general_utility_matches_lagrange_quadratic(data, u_half):
    sets, y = data
    ref = _ref_all(sets.tolist(), y.tolist(), u_half_list=(u_half,))
    key = [k for k in ref if k.startswith("u")][0]
    _assert_same(M.utility(sets, y, u_half), ref[key], tol=1e-9)


@settings(max_examples=100, deadline=None)
@given(sets_and_y(max_n=25), st.data())
def test_precise_accuracy_on_matches_loop(data, draw):
    sets, y = data
    n, k = sets.shape
    pred = np.array(draw.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)),
                    dtype=np.int64)
    mask = np.array(draw.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    sel = [i for i in range(n) if mask[i]]
    want = (sum(pred[i] == y[i] for i in sel) / len(sel)) if sel else float("nan")
    _assert_same(M.precise_accuracy_on(pred, y, mask), want)
    # NBC-I and accuracy on determinate rows, through summary
    size = sets.sum(axis=1)
    s = M.summary(sets, y, precise_pred=pred)
    _assert_same(s["precise_on_indeterminate"], M.precise_accuracy_on(pred, y, size > 1))
    _assert_same(s["precise_on_determinate"], M.precise_accuracy_on(pred, y, size == 1))
    _assert_same(s["precise_accuracy"], M.precise_accuracy_on(pred, y))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.integers(0, 20), st.integers(0, 2**32 - 1))
def test_brier_matches_loop(k, n, seed):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(k), size=n)
    y = rng.integers(0, k, size=n)
    want = sum((1 - p[i, y[i]]) ** 2 for i in range(n)) / n if n else float("nan")
    _assert_same(M.brier_loss(p, y), want)


# ----------------------------------------------------------------------------
# hand cases
# ----------------------------------------------------------------------------

def test_u65_u80_of_a_correct_pair_and_paper_formulas():
    sets = np.array([[True, True, False]])
    y = np.array([1])
    assert M.u65(sets, y) == pytest.approx(0.65, abs=1e-15)
    assert M.u80(sets, y) == pytest.approx(0.80, abs=1e-15)
    # sets of size 3 containing the truth: x = 1/3, u65 = 1.6x - 0.6x^2, u80 = 2.2x - 1.2x^2
    sets3 = np.ones((1, 3), dtype=bool)
    x = 1 / 3
    assert M.u65(sets3, y) == pytest.approx(1.6 * x - 0.6 * x * x, abs=1e-15)
    assert M.u80(sets3, y) == pytest.approx(2.2 * x - 1.2 * x * x, abs=1e-15)
    # the (swapped) footnote formula would give 0.8 for u65 at x = 1/2: not ours
    assert M.u65(sets, y) != pytest.approx(-1.2 * 0.25 + 2.2 * 0.5)
    # wrong sets score 0, correct singletons 1
    assert M.u65(np.array([[True, False]]), np.array([1])) == 0.0
    assert M.u80(np.array([[False, True]]), np.array([1])) == 1.0


def test_utility_ends_of_the_range():
    rng = np.random.default_rng(1)
    k, n = 4, 200
    sets = rng.random((n, k)) < 0.5
    sets[~sets.any(axis=1), 0] = True
    y = rng.integers(0, k, n)
    # u(1/2) = 0.5: u is the identity, utility = discounted accuracy
    assert M.utility(sets, y, 0.5) == pytest.approx(M.discounted_accuracy(sets, y), abs=1e-14)
    # u(1/2) = 1: any covering set of two classes is worth 1
    pair = np.zeros((n, k), dtype=bool)
    pair[np.arange(n), y] = True
    pair[np.arange(n), (y + 1) % k] = True
    assert M.utility(pair, y, 1.0) == pytest.approx(1.0, abs=1e-15)
    assert M.coverage(pair, y) == 1.0
    assert M.discounted_accuracy(pair, y) == pytest.approx(0.5, abs=1e-15)


def test_small_hand_example():
    # 5 instances, 3 classes
    sets = np.array(
        [
            [1, 0, 0],  # determinate, correct (y=0)
            [0, 1, 0],  # determinate, wrong (y=2)
            [1, 1, 0],  # indeterminate size 2, correct (y=1)
            [1, 1, 1],  # vacuous, correct (y=2)
            [0, 1, 1],  # indeterminate size 2, wrong (y=0)
        ],
        dtype=bool,
    )
    y = np.array([0, 2, 1, 2, 0])
    assert M.determinacy(sets) == pytest.approx(2 / 5)
    assert M.single_accuracy(sets, y) == pytest.approx(1 / 2)
    assert M.set_accuracy(sets, y) == pytest.approx(2 / 3)
    assert M.indeterminate_size(sets) == pytest.approx(7 / 3)
    assert M.coverage(sets, y) == pytest.approx(3 / 5)
    assert M.discounted_accuracy(sets, y) == pytest.approx((1 + 0 + 1 / 2 + 1 / 3 + 0) / 5)
    u65 = (1 + 0.65 + (1.6 / 3 - 0.6 / 9)) / 5
    assert M.u65(sets, y) == pytest.approx(u65)
    # labels with classes in an order that is not sorted
    classes = np.array(["c", "a", "b"])
    labels = classes[y]
    assert M.summary(sets, labels, classes=classes) == pytest.approx(M.summary(sets, y))


def test_vacuous_classifier_discounted_accuracy_is_one_over_k():
    for k in range(1, 9):
        rng = np.random.default_rng(k)
        y = rng.integers(0, k, 1000)
        sets = np.ones((1000, k), dtype=bool)
        assert abs(M.discounted_accuracy(sets, y) - 1.0 / k) < 1e-15
        assert M.coverage(sets, y) == 1.0
        assert M.determinacy(sets) == (1.0 if k == 1 else 0.0)


def test_random_classifier_discounted_accuracy_matches_expectation():
    # class j enters the set independently with probability q_j; empty sets are
    # redrawn; the truth has law pi.  Exact expectation by enumerating subsets.
    k = 4
    q = np.array([0.2, 0.5, 0.7, 0.35])
    pi = np.array([0.1, 0.4, 0.3, 0.2])
    p_subset = {}
    for bits in itertools.product([0, 1], repeat=k):
        if any(bits):
            p_subset[bits] = float(np.prod(np.where(bits, q, 1 - q)))
    z = sum(p_subset.values())
    expected = sum(
        pi[t] * p / z * (bits[t] / sum(bits)) for bits, p in p_subset.items() for t in range(k)
    )
    second = sum(
        pi[t] * p / z * (bits[t] / sum(bits)) ** 2 for bits, p in p_subset.items() for t in range(k)
    )
    sd = np.sqrt(second - expected**2)

    rng = np.random.default_rng(12345)
    n = 200_000
    sets = rng.random((n, k)) < q
    empty = ~sets.any(axis=1)
    while empty.any():
        sets[empty] = rng.random((int(empty.sum()), k)) < q
        empty = ~sets.any(axis=1)
    y = rng.choice(k, size=n, p=pi)
    got = M.discounted_accuracy(sets, y)
    assert abs(got - expected) < 4 * sd / np.sqrt(n)
    # and it is far from other plausible mistakes (e.g. 1/k)
    assert abs(expected - 1 / k) > 10 * sd / np.sqrt(n)


def test_brier_hand_examples():
    p = np.array([[0.7, 0.2, 0.1], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    y = np.array([0, 2, 2])
    assert M.brier_loss(p, y) == pytest.approx((0.3**2 + 1.0 + 0.0) / 3)
    # labels
    assert M.brier_loss(p, ["x", "z", "z"], classes=["x", "y", "z"]) == pytest.approx(
        (0.09 + 1.0) / 3
    )
    # a perfect forecaster has loss 0, a certain wrong one 1
    eye = np.eye(3)
    assert M.brier_loss(eye, [0, 1, 2]) == 0.0
    assert M.brier_loss(eye, [1, 2, 0]) == 1.0
    # only the true class enters: moving mass between wrong classes changes nothing
    p2 = np.array([[0.7, 0.0, 0.3], [0.5, 0.0, 0.5], [0.0, 0.0, 1.0]])
    p2[1] = [0.0, 1.0, 0.0]
    assert M.brier_loss(p2, y) == M.brier_loss(p, y)


def test_precise_accuracy_on_hand():
    pred = np.array(["a", "b", "b", "a"])
    y = np.array(["a", "a", "b", "b"])
    mask = np.array([True, True, False, True])
    assert M.precise_accuracy_on(pred, y, mask, classes=["a", "b"]) == pytest.approx(1 / 3)
    assert M.precise_accuracy_on(pred, y, None, classes=["a", "b"]) == 0.5
    assert np.isnan(M.precise_accuracy_on(pred, y, np.zeros(4, bool), classes=["a", "b"]))


# ----------------------------------------------------------------------------
# invariances and input forms
# ----------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(sets_and_y(), st.randoms(use_true_random=False))
def test_invariance_under_class_relabelling(data, rnd):
    sets, y = data
    k = sets.shape[1]
    perm = list(range(k))
    rnd.shuffle(perm)
    perm = np.array(perm)
    # new column perm[j] holds old class j
    new_sets = np.empty_like(sets)
    new_sets[:, perm] = sets
    new_y = perm[y]
    a = M.summary(sets, y, precise_pred=y[::-1].copy())
    b = M.summary(new_sets, new_y, precise_pred=new_y[::-1].copy())
    assert a.keys() == b.keys()
    for key in a:
        _assert_same(b[key], a[key], tol=1e-14)


def test_categorical_y_with_unobserved_class():
    y = pd.Series(pd.Categorical(["p", "q", "p"], categories=["p", "q", "r"]))
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]], dtype=bool)
    # categorical codes give the column order when classes is None
    assert M.coverage(sets, y) == pytest.approx(2 / 3)
    assert M.coverage(sets, y, classes=["p", "q", "r"]) == pytest.approx(2 / 3)
    # a different class order is honoured
    assert M.coverage(sets[:, [2, 0, 1]], y, classes=["r", "p", "q"]) == pytest.approx(2 / 3)
    s = M.summary(sets, y, precise_pred=["p", "p", "r"])
    assert s["precise_accuracy"] == pytest.approx(1 / 3)
    assert M.precise_accuracy_on(pd.Series(["p", "p", "p"]), y) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="declared categories"):
        M.coverage(np.ones((3, 2), dtype=bool), y)


def test_integer_labels_that_are_not_indices_need_classes():
    sets = np.array([[1, 0], [0, 1]], dtype=bool)
    with pytest.raises(ValueError, match="outside"):
        M.coverage(sets, [3, 7])
    assert M.coverage(sets, [3, 7], classes=[3, 7]) == 1.0
    assert M.coverage(sets, [7, 3], classes=[3, 7]) == 0.0


def test_empty_selections_give_nan_silently():
    det_only = np.array([[1, 0], [0, 1]], dtype=bool)
    vac_only = np.ones((3, 2), dtype=bool)
    empty = np.zeros((0, 3), dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(M.set_accuracy(det_only, [0, 1]))
        assert np.isnan(M.indeterminate_size(det_only))
        assert np.isnan(M.single_accuracy(vac_only, [0, 1, 1]))
        for f in (M.coverage, M.discounted_accuracy, M.u65, M.u80, M.single_accuracy):
            assert np.isnan(f(empty, np.zeros(0, int)))
        assert np.isnan(M.determinacy(empty))
        assert np.isnan(M.brier_loss(np.zeros((0, 2)), []))
        s = M.summary(empty, [], precise_pred=[], proba=np.zeros((0, 3)))
        assert all(np.isnan(v) for v in s.values())


def test_summary_keys():
    sets = np.array([[1, 0], [1, 1]], dtype=bool)
    base = {"determinacy", "single_accuracy", "set_accuracy", "indeterminate_size",
            "discounted_accuracy", "u65", "u80", "coverage", "set_size", "empty_sets"}
    assert set(M.summary(sets, [0, 1])) == base
    full = M.summary(sets, [0, 1], precise_pred=[0, 0], proba=[[0.8, 0.2], [0.6, 0.4]])
    assert set(full) == base | {"precise_accuracy", "precise_on_determinate",
                                "precise_on_indeterminate", "brier"}
    assert full["brier"] == pytest.approx((0.04 + 0.36) / 2)
    assert full["precise_on_determinate"] == 1.0
    assert full["precise_on_indeterminate"] == 0.0


# ----------------------------------------------------------------------------
# errors
# ----------------------------------------------------------------------------

def test_bad_inputs_raise_clear_errors():
    good = np.array([[1, 0], [1, 1]], dtype=bool)
    with pytest.raises(ValueError, match="2-D"):
        M.determinacy(np.array([True, False]))
    with pytest.raises(ValueError, match="empty row"):
        M.determinacy(np.array([[1, 0], [0, 0]], dtype=bool))
    with pytest.raises(ValueError, match="n_classes = 0"):
        M.determinacy(np.zeros((3, 0), dtype=bool))
    with pytest.raises(ValueError, match="0/1"):
        M.determinacy(np.array([[2, 0]]))
    with pytest.raises(ValueError, match="NaN"):
        M.determinacy(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="NaN"):
        M.coverage(good, np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="missing"):
        M.coverage(good, ["a", None], classes=["a", "b"])
    with pytest.raises(ValueError, match="not in classes"):
        M.coverage(good, ["a", "c"], classes=["a", "b"])
    with pytest.raises(ValueError, match="2 rows but y has 3"):
        M.coverage(good, [0, 1, 1])
    with pytest.raises(ValueError, match="1-D"):
        M.coverage(good, [[0], [1]])
    with pytest.raises(ValueError, match="classes="):
        M.coverage(good, ["a", "b"])
    with pytest.raises(ValueError, match="classes has 3 entries"):
        M.coverage(good, ["a", "b"], classes=["a", "b", "c"])
    with pytest.raises(ValueError, match="duplicates"):
        M.coverage(good, ["a", "a"], classes=["a", "a"])
    with pytest.raises(ValueError, match="non-integer"):
        M.coverage(good, [0.5, 1.0])
    with pytest.raises(ValueError, match="u_half"):
        M.utility(good, [0, 1], 0.4)
    with pytest.raises(ValueError, match="u_half"):
        M.utility(good, [0, 1], float("nan"))
    with pytest.raises(ValueError, match="sum to 1"):
        M.brier_loss([[0.5, 0.4]], [0])
    with pytest.raises(ValueError, match="outside"):
        M.brier_loss([[1.5, -0.5]], [0])
    with pytest.raises(ValueError, match="NaN"):
        M.brier_loss([[np.nan, 1.0]], [0])
    with pytest.raises(ValueError, match="2-D"):
        M.brier_loss([0.5, 0.5], [0])
    with pytest.raises(ValueError, match="mask must have shape"):
        M.precise_accuracy_on([0, 1], [0, 1], [True])
    with pytest.raises(ValueError, match="boolean"):
        M.precise_accuracy_on([0, 1], [0, 1], [1, 0])
    with pytest.raises(ValueError, match="pred has 3"):
        M.precise_accuracy_on([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="pred has labels not in classes"):
        M.precise_accuracy_on(["a", "z"], ["a", "b"], classes=["a", "b"])
    with pytest.raises(ValueError, match="proba has shape"):
        M.summary(good, [0, 1], proba=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


# ----------------------------------------------------------------------------
# real outputs of JNCC2 (NCC sets and NBC probabilities) and published tables
# ----------------------------------------------------------------------------

def _arff_class_info(path: Path):
    """Declared class values and the test labels of a conformance ARFF (class last)."""
    lines = path.read_text().splitlines()
    attrs = [ln for ln in lines if ln.lower().startswith("@attribute")]
    decl = attrs[-1]
    values = [v.strip().strip("'") for v in decl[decl.index("{") + 1 : decl.rindex("}")].split(",")]
    start = next(i for i, ln in enumerate(lines) if ln.strip().lower() == "@data")
    labels = [ln.rsplit(",", 1)[1].strip().strip("'") for ln in lines[start + 1 :]
              if ln.strip() and not ln.startswith("%")]
    return np.array(values, dtype=object), np.array(labels, dtype=object)


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_on_jncc2_reference_outputs(name):
    exp = pd.read_csv(CONF / "expected" / "jncc2_ncc_mar" / f"{name}.csv")
    classes, labels = _arff_class_info(CONF / "data" / f"{name}_test.arff")
    k = len(classes)
    sets = exp[[f"ncc_{j}" for j in range(k)]].to_numpy().astype(bool)
    proba = exp[[f"nbc_p{j}" for j in range(k)]].to_numpy()
    y = exp["true_class"].to_numpy()
    # the ARFF labels and the CSV indices describe the same truth
    assert np.array_equal(classes[y], labels)
    nbc = proba.argmax(axis=1)

    s_idx = M.summary(sets, y, precise_pred=nbc, proba=proba)
    s_lab = M.summary(sets, labels, classes=classes, precise_pred=classes[nbc], proba=proba)
    assert s_idx == pytest.approx(s_lab, nan_ok=True)
    ref = _ref_all(sets.tolist(), y.tolist())
    for key, val in ref.items():
        _assert_same(s_idx[key], val)
    # NCC, when determinate, returns the NBC class: Sgl-acc = NBC on those rows
    _assert_same(s_idx["precise_on_determinate"], s_idx["single_accuracy"])
    # D-acc splits into the determinate part and the discounted indeterminate part
    det = s_idx["determinacy"]
    ind = M.discounted_accuracy(sets[sets.sum(1) > 1], y[sets.sum(1) > 1]) if det < 1 else 0.0
    assert s_idx["discounted_accuracy"] == pytest.approx(
        det * s_idx["single_accuracy"] + (1 - det) * ind
    )
    brier = np.mean([(1 - proba[i, y[i]]) ** 2 for i in range(len(y))])
    assert s_idx["brier"] == pytest.approx(brier)


def _binary_sets(det_pct, sgl_pct, n=100_000):
    """Binary-class sets with the given determinacy and single accuracy (vacuous otherwise)."""
    n_det = round(det_pct / 100 * n)
    n_ok = round(sgl_pct / 100 * n_det)
    y = np.zeros(n, dtype=int)
    sets = np.ones((n, 2), dtype=bool)
    sets[:n_ok] = [True, False]  # correct singletons
    sets[n_ok:n_det] = [False, True]  # wrong singletons
    return sets, y


@pytest.mark.parametrize("table", ["antonucci_table1_artificial.csv", "antonucci_table2_uci.csv"])
def test_discounted_accuracy_reproduces_published_binary_rows(table):
    # With two classes an indeterminate set is both classes, so D-acc is fixed by
    # Det and Sgl-acc; our D-acc must reproduce the published column up to the
    # averaging over experiments (well under one point).  The hepatitis row has
    # its D-acc and NBC-I columns swapped (paper-tables/README.md).
    tab = pd.read_csv(TABLES / table)
    for _, row in tab.iterrows():
        sets, y = _binary_sets(row.Det, row.Sgl_acc)
        assert M.determinacy(sets) == pytest.approx(row.Det / 100, abs=1e-5)
        assert M.single_accuracy(sets, y) == pytest.approx(row.Sgl_acc / 100, abs=1e-4)
        published = row.NBC_I if row.get("dataset") == "hepatitis" else row.D_acc
        assert 100 * M.discounted_accuracy(sets, y) == pytest.approx(published, abs=0.5)
        assert M.set_accuracy(sets, y) == 1.0
        assert M.indeterminate_size(sets) == 2.0


def test_utility_function_passes_through_its_three_points():
    from credal.metrics import utility_function

    for uh in (0.5, 0.65, 0.8, 1.0):
        u = utility_function(uh)
        np.testing.assert_allclose(u([0.0, 0.5, 1.0]), [0.0, uh, 1.0], atol=1e-15)
    with pytest.raises(ValueError, match="u_half"):
        utility_function(0.4)


# ----------------------------------------------------------------------------
# ROC areas
# ----------------------------------------------------------------------------

def test_roc_area_and_deltas():
    rng = np.random.default_rng(0)
    y = rng.choice(["neg", "pos"], 200)
    s = rng.random(200) + (y == "pos") * 0.3
    proba = np.column_stack([1 - s / 2, s / 2])
    # Mann-Whitney form of the area, ties counting one half
    pos, neg = s[y == "pos"], s[y == "neg"]
    want = ((pos[:, None] > neg[None]).sum() + 0.5 * (pos[:, None] == neg[None]).sum()) / (
        len(pos) * len(neg))
    assert M.roc_area(y, proba, ["neg", "pos"]) == pytest.approx(want, abs=1e-14)
    assert M.roc_area(y, proba[:, ::-1], ["pos", "neg"]) == pytest.approx(want, abs=1e-14)
    y3 = rng.integers(0, 3, 90)
    p3 = rng.dirichlet([1, 1, 1], 90)
    assert 0 <= M.roc_area(y3, p3, [0, 1, 2]) <= 1
    with pytest.raises(ValueError, match="single class"):
        M.roc_area(["pos"] * 5, proba[:5], ["neg", "pos"])
    with pytest.raises(ValueError, match="not in classes"):
        M.roc_area(["x", "pos"], proba[:2], ["neg", "pos"])
    assert M.delta_roc(0.8, 0.75) == pytest.approx(0.05 / 0.75)
    assert M.delta_roc_remaining(0.8, 0.75) == pytest.approx(0.05 / 0.25)
    assert M.delta_roc_remaining(1.0, 1.0) == 0.0  # the paper's R = T convention
    np.testing.assert_allclose(M.delta_roc_remaining([0.9, 0.7], [1.0, 0.8]), [0.0, -0.5])
    with pytest.raises(ValueError, match="r_ma"):
        M.delta_roc(1.2, 0.5)


def test_binary_roc_areas_match_sklearn_with_ties():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    n_groups = 40
    sizes = rng.integers(2, 60, n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    pos = rng.random(len(g)) < 0.4
    score = np.round(rng.random(len(g)) + 0.3 * pos, 1)  # many ties
    order = rng.permutation(len(g))
    got = M.binary_roc_areas(g[order], pos[order], score[order])
    for k in range(n_groups):
        m = g == k
        if pos[m].all() or not pos[m].any():
            assert np.isnan(got[k])
        else:
            assert got[k] == pytest.approx(roc_auc_score(pos[m], score[m]), abs=1e-12)
    assert M.binary_roc_areas([], [], []).shape == (0,)
    with pytest.raises(ValueError, match="same length"):
        M.binary_roc_areas([0, 0], [True], [0.1, 0.2])
    with pytest.raises(ValueError, match="NaN"):
        M.binary_roc_areas([0, 0], [True, False], [0.1, np.nan])


def test_log_odds_keep_the_order_of_saturated_probabilities():
    p0 = np.array([1e-20, 1e-30, 0.25, 1.0])
    proba = np.column_stack([p0, 1 - p0])
    assert proba[0, 1] == proba[1, 1] == 1.0  # the probabilities tie
    lo = M.binary_log_odds(proba)
    assert lo[1] > lo[0] > lo[2] > lo[3] == -np.inf
    assert lo[2] == pytest.approx(np.log(3))
    with pytest.raises(ValueError, match="shape"):
        M.binary_log_odds(np.ones((3, 3)))


# ----------------------------------------------------------------------------
# scikit-learn scorers of predict_set
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def soybean_codes():
    from credal.datasets import load
    from credal.preprocessing import to_codes

    ds = load("soybean_small")  # 47 cases, 35 nominal features, 4 classes, no missing
    X, _ = to_codes(ds.X)
    return X, ds.y.cat.codes.to_numpy()


def test_set_scorers_in_cross_val_score(soybean_codes):
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    from credal.naive import NCC

    X, y = soybean_codes
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    est = NCC(s=5.0)  # a large s makes some sets indeterminate
    train, test = next(cv.split(X, y))
    fitted = clone(est).fit(X[train], y[train])
    sets = fitted.predict_set(X[test])
    by_hand = {
        M.u65_scorer: M.u65(sets, y[test], classes=fitted.classes_),
        M.u80_scorer: M.u80(sets, y[test], classes=fitted.classes_),
        M.discounted_accuracy_scorer: M.discounted_accuracy(sets, y[test],
                                                            classes=fitted.classes_),
        M.determinacy_scorer: M.determinacy(sets),
    }
    for scorer, value in by_hand.items():
        scores = cross_val_score(est, X, y, cv=cv, scoring=scorer)
        assert scores.shape == (3,)
        assert scores[0] == pytest.approx(value, abs=1e-12), scorer
        assert np.all((scores >= 0) & (scores <= 1))
    # labels instead of codes: y is mapped through classes_
    labels = np.array(["c0", "c1", "c2", "c3"], dtype=object)[y]
    scores = cross_val_score(est, X, labels, cv=cv, scoring=M.u65_scorer)
    assert scores[0] == pytest.approx(by_hand[M.u65_scorer], abs=1e-12)
    assert repr(M.make_set_scorer(M.utility, u_half=0.7)) == (
        "make_set_scorer(utility, u_half=0.7)"
    )


def test_set_scorers_in_grid_search(soybean_codes):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

    from credal.naive import NCC

    X, y = soybean_codes
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    grid = {"s": [0.5, 2.0, 8.0]}
    scoring = {"u65": M.u65_scorer, "u80": M.u80_scorer,
               "dacc": M.discounted_accuracy_scorer, "det": M.determinacy_scorer}
    search = GridSearchCV(NCC(), grid, scoring=scoring, refit="u65", cv=cv).fit(X, y)
    assert search.best_params_["s"] in grid["s"]
    res = search.cv_results_
    for i, s in enumerate(res["param_s"]):
        expect = cross_val_score(NCC(s=s), X, y, cv=cv, scoring=M.u65_scorer)
        assert res["mean_test_u65"][i] == pytest.approx(expect.mean(), abs=1e-12)
    # more imprecision (larger s) never raises determinacy
    assert np.all(np.diff(res["mean_test_det"]) <= 1e-12)
    assert search.best_score_ == pytest.approx(np.max(res["mean_test_u65"]))
    single = GridSearchCV(NCC(), grid, scoring=M.u80_scorer, cv=cv).fit(X, y)
    np.testing.assert_allclose(single.cv_results_["mean_test_score"], res["mean_test_u80"])


def test_set_scorer_on_a_pipeline_equals_the_steps_by_hand():
    """A Pipeline has no predict_set: the scorer runs its preprocessing and asks the
    last step, which gives what the steps applied by hand give."""
    from sklearn.model_selection import cross_val_score, StratifiedKFold
    from sklearn.pipeline import make_pipeline

    from credal import NCC, datasets
    from credal.preprocessing import make_preprocessor

    ds = datasets.load("iris")
    X, y = ds.X, ds.y
    pipe = make_pipeline(make_preprocessor(), NCC(s=2.0))
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    got = cross_val_score(pipe, X, y, cv=cv, scoring=M.u65_scorer)
    want = []
    for tr, te in cv.split(X, y):
        prep = make_preprocessor().fit(X.iloc[tr], y.iloc[tr])
        model = NCC(s=2.0).fit(prep.transform(X.iloc[tr]), y.iloc[tr])
        sets = model.predict_set(prep.transform(X.iloc[te]))
        want.append(M.u65(sets, y.iloc[te].to_numpy(), classes=model.classes_))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


# issue 29: the scorers on every estimator a newcomer hands them


def test_set_scorers_on_one_step_pipelines_searches_bagging_and_precise(soybean_codes):
    import warnings as _w

    from sklearn.ensemble import BaggingClassifier
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline

    from credal import NCC, NaiveBayes

    X, y = soybean_codes
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    with _w.catch_warnings():
        _w.simplefilter("error")  # a scorer failing gives NaN with a warning only
        bare = cross_val_score(NCC(s=5.0), X, y, cv=cv, scoring=M.u65_scorer)
        one = cross_val_score(make_pipeline(NCC(s=5.0)), X, y, cv=cv, scoring=M.u65_scorer)
        np.testing.assert_allclose(one, bare, rtol=0, atol=1e-12)
        grid = {"ncc__s": [64.0, 0.5]}  # the better s comes second
        search = GridSearchCV(make_pipeline(NCC()), grid, scoring=M.u65_scorer, cv=cv).fit(X, y)
        assert np.isfinite(search.cv_results_["mean_test_score"]).all()
        assert search.best_params_ == {"ncc__s": 0.5}
        # a fitted search, nested searches and bagging around a credal classifier
        outer = cross_val_score(GridSearchCV(NCC(), {"s": [0.5, 8.0]}, scoring=M.u65_scorer,
                                             cv=3), X, y, cv=cv, scoring=M.u65_scorer)
        assert np.isfinite(outer).all()
        assert M.u65_scorer(search, X, y) == M.u65_scorer(search.best_estimator_, X, y)
        bag = BaggingClassifier(NCC(), n_estimators=3, random_state=0).fit(X, y)
        assert M.u65_scorer(bag, X, y) == pytest.approx((bag.predict(X) == y).mean())
        # precise classifiers: singleton sets, u65 = accuracy, determinacy 1
        nb = NaiveBayes().fit(X, y)
        assert M.u65_scorer(nb, X, y) == pytest.approx(nb.score(X, y))
        assert M.determinacy_scorer(make_pipeline(NaiveBayes()).fit(X, y), X, y) == 1.0


def test_make_set_scorer_checks_its_metric_and_a_missing_y(soybean_codes):
    from credal import NCC

    with pytest.raises(TypeError, match=r"credal\.metrics\.u65.*u65_scorer"):
        M.make_set_scorer("u65")
    X, y = soybean_codes
    with pytest.raises(ValueError, match="y=None"):
        M.u65_scorer(NCC().fit(X, y), X, None)
