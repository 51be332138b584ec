"""Performance indicators for credal (set-valued) and precise classifiers.

A credal prediction is a boolean array ``sets`` of shape ``(n_samples, n_classes)``
whose entry ``[i, k]`` is True when class ``k`` (in ``classes_`` order) belongs to
the set returned for instance ``i``; no row may be empty.  The true classes ``y``
are given either

* as column indices into ``sets`` (integers in ``[0, n_classes)``), with
  ``classes=None``;
* as labels, together with ``classes`` (the fitted ``classes_`` of the
  classifier), which fixes the column order;
* as a categorical Series with ``classes=None``: its declared categories are then
  taken as the column order (this is what a classifier fitted on a categorical
  ``y`` stores in ``classes_``).

The indicators follow Corani & Zaffalon's description, as used by Corani &
Antonucci and by Antonucci, Cattaneo & Corani:

=====================  ==========================================================
determinacy            share of instances given exactly one class
single_accuracy        accuracy on those determinate instances
set_accuracy           share of the indeterminate instances whose set holds the truth
indeterminate_size     mean set size on the indeterminate instances
discounted_accuracy    mean of ``1{y in set} / |set|``
utility / u65 / u80    mean of ``u(1{y in set} / |set|)`` for a quadratic utility
coverage               share of *all* instances whose set holds the truth
set_size               mean number of classes returned, over all instances
=====================  ==========================================================

Conformal sets (:class:`credal.conformal.ConformalClassifier` with LAC) can be empty;
:func:`summary` accepts them with ``allow_empty=True`` and counts each as an error (not
covered, discounted accuracy and utilities 0, size 0, neither determinate nor
indeterminate) and reports their share as ``empty_sets``.
:func:`accuracy_rejection` gives the accuracy-rejection curve of a family of set
predictors (one knob moved).

Every function returns a Python float.  When the instances an indicator averages
over are absent (no determinate instance for ``single_accuracy``, none
indeterminate for ``set_accuracy``, an empty test set, ...) the value is ``nan``;
no warning is emitted.

ROC areas of precise class probabilities: :func:`roc_area` (two classes, or Hand &
Till's pairwise average), :func:`binary_roc_areas` (many two-class problems at once,
ties counted 1/2) on scores such as :func:`binary_log_odds`, and Dash & Cooper's
changes of area between two classifiers, :func:`delta_roc` and
:func:`delta_roc_remaining`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._validation import check_in_range

__all__ = ["determinacy", "single_accuracy", "set_accuracy", "indeterminate_size",
           "discounted_accuracy", "utility", "utility_function", "u65", "u80", "coverage",
           "accuracy_rejection", "precise_accuracy_on", "brier_loss", "summary", "roc_area",
           "binary_roc_areas", "binary_log_odds", "delta_roc", "delta_roc_remaining",
           "make_set_scorer", "u65_scorer", "u80_scorer", "discounted_accuracy_scorer",
           "determinacy_scorer"]


# ----------------------------------------------------------------------- input checking
def _check_sets(sets, allow_empty=False) -> np.ndarray:
    """Return ``sets`` as a bool array (n, K); reject bad shapes and (unless
    ``allow_empty``) empty rows."""
    arr = np.asarray(sets)
    if arr.ndim != 2:
        raise ValueError(
            f"sets must be a 2-D boolean array (n_samples, n_classes); got shape {arr.shape}"
        )
    if arr.shape[1] == 0:
        raise ValueError("sets has no class column (n_classes = 0)")
    if arr.dtype != bool:
        # accept 0/1 integer (or float) indicator arrays, nothing else
        if arr.dtype.kind not in "iuf":
            raise ValueError(f"sets must be boolean; got dtype {arr.dtype}")
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            raise ValueError("sets contains NaN")
        if not np.isin(arr, (0, 1)).all():
            raise ValueError("sets must be boolean (or 0/1); got other values")
        arr = arr.astype(bool)
    empty = ~arr.any(axis=1)
    if empty.any() and not allow_empty:
        rows = np.flatnonzero(empty)
        raise ValueError(f"sets has {len(rows)} empty row(s) (first: row {int(rows[0])}); "
                         "a credal prediction must contain at least one class")
    return arr


def _class_indices(y, classes, n_classes: int, name: str = "y") -> np.ndarray:
    """Turn ``y`` (indices, labels with ``classes``, or a categorical) into indices.

    Parameters
    ----------
    y : array-like, shape (n_samples,)
    classes : array-like, shape (n_classes,) or None
    n_classes : int
        Number of columns of the set/probability array ``y`` refers to.
    name : str
        Name used in error messages.

    Returns
    -------
    ndarray of int64, shape (n_samples,)
        Values in ``[0, n_classes)``.
    """
    is_cat = isinstance(getattr(y, "dtype", None), pd.CategoricalDtype)
    if classes is not None:
        cls = pd.Index(np.asarray(classes, dtype=object).ravel())
        if len(cls) != n_classes:
            raise ValueError(
                f"classes has {len(cls)} entries but the predictions have {n_classes} columns"
            )
        if not cls.is_unique:
            raise ValueError(f"classes contains duplicates: {list(cls)}")
        values = np.asarray(y.astype(object) if is_cat else y, dtype=object)
        if values.ndim != 1:
            raise ValueError(f"{name} must be 1-D; got shape {values.shape}")
        if len(values) and pd.isna(values).any():
            raise ValueError(f"{name} contains missing values (NaN/None)")
        idx = cls.get_indexer(values) if len(values) else np.empty(0, dtype=np.int64)
        if (idx < 0).any():
            bad = pd.unique(values[idx < 0])[:5]
            raise ValueError(
                f"{name} has labels not in classes: {list(bad)}; classes are {list(cls)}"
            )
        return np.asarray(idx, dtype=np.int64)

    if is_cat:
        cat = pd.Categorical(y)
        if len(cat.categories) != n_classes:
            raise ValueError(
                f"{name} is categorical with {len(cat.categories)} declared categories but "
                f"the predictions have {n_classes} columns; pass classes= explicitly"
            )
        idx = np.asarray(cat.codes, dtype=np.int64)
        if (idx < 0).any():
            raise ValueError(f"{name} contains missing values (NaN)")
        return idx

    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN")
        if np.any(arr != np.round(arr)):
            raise ValueError(
                f"{name} holds non-integer values; pass labels together with classes="
            )
    elif arr.dtype.kind not in "iu":
        raise ValueError(f"{name} has dtype {arr.dtype}; without classes= it must hold integer "
                         "column indices (pass classes= to give labels)")
    idx = arr.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= n_classes):
        raise ValueError(f"{name} holds column indices outside [0, {n_classes}); pass classes= "
                         "if these are labels")
    return idx


def _sets_and_y(sets, y, classes):
    s = _check_sets(sets)
    idx = _class_indices(y, classes, s.shape[1])
    if len(idx) != len(s):
        raise ValueError(f"sets has {len(s)} rows but y has {len(idx)}")
    return s, idx


def _mean(values: np.ndarray) -> float:
    # nan on an empty selection, without numpy's "mean of empty slice" warning
    return float(values.mean()) if values.size else float("nan")


def _discounted(s: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Per-instance discounted accuracy ``1{y in set} / |set|``, shape (n,)."""
    hit = s[np.arange(len(s)), idx]
    return hit / s.sum(axis=1)


# -------------------------------------------------------------------- indicators on sets
def determinacy(sets) -> float:
    """Fraction of instances whose set holds exactly one class.

    Parameters
    ----------
    sets : bool array, shape (n_samples, n_classes)

    Returns
    -------
    float
        In ``[0, 1]``; ``nan`` when ``n_samples == 0``.
    """
    s = _check_sets(sets)
    return _mean(s.sum(axis=1) == 1)


def single_accuracy(sets, y, classes=None) -> float:
    """Accuracy on the determinate instances (sets of size one).

    Parameters
    ----------
    sets : bool array, shape (n_samples, n_classes)
    y : array-like, shape (n_samples,)
        True classes: column indices, or labels with ``classes``.
    classes : array-like, shape (n_classes,), optional
        Column order of ``sets`` (the classifier's ``classes_``).

    Returns
    -------
    float
        ``nan`` when no instance is determinate.
    """
    s, idx = _sets_and_y(sets, y, classes)
    det = s.sum(axis=1) == 1
    return _mean(s[det, idx[det]])


def set_accuracy(sets, y, classes=None) -> float:
    """Fraction of the indeterminate instances whose set contains the true class.

    Parameters
    ----------
    sets, y, classes : see :func:`single_accuracy`.

    Returns
    -------
    float
        ``nan`` when no instance is indeterminate.  See :func:`coverage` for the
        same quantity over all instances.
    """
    s, idx = _sets_and_y(sets, y, classes)
    ind = s.sum(axis=1) > 1
    return _mean(s[ind, idx[ind]])


def indeterminate_size(sets) -> float:
    """Mean number of classes returned on the indeterminate instances.

    Parameters
    ----------
    sets : bool array, shape (n_samples, n_classes)

    Returns
    -------
    float
        At least 2; ``nan`` when no instance is indeterminate.
    """
    s = _check_sets(sets)
    size = s.sum(axis=1)
    return _mean(size[size > 1].astype(float))


def coverage(sets, y, classes=None) -> float:
    """Fraction of *all* instances whose set contains the true class.

    This is the set accuracy computed over every instance, determinate or not
    (a determinate instance is covered exactly when it is classified correctly).

    Parameters
    ----------
    sets, y, classes : see :func:`single_accuracy`.

    Returns
    -------
    float
        ``nan`` when ``n_samples == 0``.
    """
    s, idx = _sets_and_y(sets, y, classes)
    return _mean(s[np.arange(len(s)), idx])


def discounted_accuracy(sets, y, classes=None) -> float:
    """Mean over instances of ``1{y in set} / |set|`` (D-acc).

    Parameters
    ----------
    sets, y, classes : see :func:`single_accuracy`.

    Returns
    -------
    float
        ``nan`` when ``n_samples == 0``.  On determinate predictions it equals
        the accuracy; the vacuous classifier scores ``1 / n_classes``.
    """
    s, idx = _sets_and_y(sets, y, classes)
    return _mean(_discounted(s, idx))


def _utility_coefficients(u_half) -> tuple[float, float]:
    # u(x) = a x - b x^2 with u(0) = 0, u(1) = 1, u(1/2) = u_half
    u_half = check_in_range("u_half", u_half, 0.5, 1.0)
    return 4.0 * u_half - 1.0, 4.0 * u_half - 2.0


def utility_function(u_half):
    """The quadratic utility ``u`` with ``u(0) = 0``, ``u(1/2) = u_half``, ``u(1) = 1``.

    Parameters
    ----------
    u_half : float in [0.5, 1]

    Returns
    -------
    callable
        ``u(x)`` for array-like discounted accuracies ``x`` in [0, 1].
    """
    a, b = _utility_coefficients(u_half)

    def u(x):
        x = np.asarray(x, dtype=float)
        return a * x - b * x * x

    return u


def utility(sets, y, u_half, classes=None) -> float:
    """Mean utility-discounted accuracy (Zaffalon, Corani & Mauá).

    Each instance scores ``u(x)`` where ``x = 1{y in set} / |set|`` is its
    discounted accuracy and ``u`` is the quadratic with ``u(0) = 0``,
    ``u(1) = 1`` and ``u(1/2) = u_half``::

        u(x) = a x - b x**2,   a = 4 u_half - 1,   b = 4 u_half - 2.

    ``u_half = 0.5`` gives the discounted accuracy itself; ``0.65`` and ``0.8``
    are :func:`u65` and :func:`u80`.  A correct determinate prediction scores 1,
    so the utility of a precise classifier is its accuracy.

    Parameters
    ----------
    sets, y, classes : see :func:`single_accuracy`.
    u_half : float in [0.5, 1]
        Utility of a correct set of two classes.

    Returns
    -------
    float
        ``nan`` when ``n_samples == 0``.
    """
    u = utility_function(u_half)
    s, idx = _sets_and_y(sets, y, classes)
    return _mean(u(_discounted(s, idx)))


def u65(sets, y, classes=None) -> float:
    """Utility with ``u(1/2) = 0.65``: ``u(x) = 1.6 x - 0.6 x**2``.

    (Corani & Antonucci's footnote 5 prints this formula under the name u80 and
    vice versa; the definition through ``u(1/2)`` is the one used here.)
    See :func:`utility`.
    """
    return utility(sets, y, 0.65, classes=classes)


def u80(sets, y, classes=None) -> float:
    """Utility with ``u(1/2) = 0.80``: ``u(x) = 2.2 x - 1.2 x**2``.  See :func:`utility`."""
    return utility(sets, y, 0.8, classes=classes)


def accuracy_rejection(sets_by_value, y, classes=None, values=None) -> pd.DataFrame:
    """Accuracy-rejection curve of a family of set predictors (one knob moved).

    An instance given several classes is *rejected* (the classifier abstains from a
    single answer); the curve is the accuracy on the determinate instances against the
    share rejected, one point per value of the knob.

    Parameters
    ----------
    sets_by_value : sequence of bool arrays, each (n_samples, n_classes), or an array
        (n_values, n_samples, n_classes): the sets at each value of the knob.
    y, classes : see :func:`single_accuracy`.
    values : sequence, optional
        The knob's values (default ``0 .. n_values - 1``).

    Returns
    -------
    DataFrame
        One row per value: ``value``, ``rejected`` (share of instances with more than
        one class), ``accuracy`` (:func:`single_accuracy`, nan when none is
        determinate), ``coverage`` and ``set_size`` (mean over all instances).
    """
    sets_by_value = list(sets_by_value)
    values = range(len(sets_by_value)) if values is None else list(values)
    if len(values) != len(sets_by_value):
        raise ValueError(f"values has {len(values)} entries but there are "
                         f"{len(sets_by_value)} set arrays")
    rows = []
    for v, sets in zip(values, sets_by_value):
        m = summary(sets, y, classes=classes)
        rows.append({"value": v, "rejected": _mean(np.asarray(sets).sum(axis=1) > 1),
                     "accuracy": m["single_accuracy"], "coverage": m["coverage"],
                     "set_size": m["set_size"]})
    return pd.DataFrame(rows, columns=["value", "rejected", "accuracy", "coverage", "set_size"])


# ------------------------------------------------------------------ precise predictions
def precise_accuracy_on(pred, y, mask=None, classes=None) -> float:
    """Accuracy of precise predictions, restricted to the instances in ``mask``.

    With ``pred`` the naive Bayes predictions and ``mask`` the rows where a
    credal classifier returned more than one class (``sets.sum(axis=1) > 1``)
    this is NBC-I (Antonucci, Cattaneo & Corani): the accuracy of the precise
    model on the instances the credal one left indeterminate.  With the
    complementary mask it is the precise accuracy on the determinate instances.

    Parameters
    ----------
    pred : array-like, shape (n_samples,)
        Predicted classes, encoded like ``y``.
    y : array-like, shape (n_samples,)
        True classes: column indices, or labels with ``classes``.
    mask : bool array, shape (n_samples,), optional
        Instances to score; all of them when None.
    classes : array-like, shape (n_classes,), optional
        Known labels (a classifier's ``classes_``).  Without it ``pred`` and
        ``y`` must be non-negative integer indices, or ``y`` a categorical whose
        declared categories then serve as ``classes``.

    Returns
    -------
    float
        ``nan`` when the mask selects no instance.
    """
    if classes is None and isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        classes = pd.Categorical(y).categories
    if classes is not None:
        n_classes = len(np.asarray(classes, dtype=object).ravel())
        p = _class_indices(pred, classes, n_classes, name="pred")
        t = _class_indices(y, classes, n_classes, name="y")
    else:
        # no class list: any non-negative index is acceptable
        big = np.iinfo(np.int64).max
        p = _class_indices(pred, None, big, name="pred")
        t = _class_indices(y, None, big, name="y")
    if len(p) != len(t):
        raise ValueError(f"pred has {len(p)} entries but y has {len(t)}")
    if mask is None:
        m = np.ones(len(t), dtype=bool)
    else:
        m = np.asarray(mask)
        if m.ndim != 1 or len(m) != len(t):
            raise ValueError(f"mask must have shape ({len(t)},); got {m.shape}")
        if m.dtype != bool:
            raise ValueError(f"mask must be boolean; got dtype {m.dtype}")
    return _mean(p[m] == t[m])


def brier_loss(proba, y, classes=None) -> float:
    """Brier loss as defined by Corani & Antonucci (Sec. 3.1).

    ``mean_i (1 - P(c_i | a_i))**2`` where ``P(c_i | a_i)`` is the probability
    the classifier gives to the *true* class of instance ``i``.  Only the true
    class's probability enters; this is not the multi-class Brier score that
    sums squared errors over all classes.

    Parameters
    ----------
    proba : array-like of float, shape (n_samples, n_classes)
        Predicted probabilities, columns in ``classes`` order; each row must be
        a distribution (entries in [0, 1], summing to 1 within 1e-6).
    y : array-like, shape (n_samples,)
        True classes: column indices, or labels with ``classes``.
    classes : array-like, shape (n_classes,), optional

    Returns
    -------
    float
        In ``[0, 1]``; ``nan`` when ``n_samples == 0``.
    """
    p = np.asarray(proba, dtype=float)
    if p.ndim != 2 or p.shape[1] == 0:
        raise ValueError(
            f"proba must be 2-D (n_samples, n_classes) with n_classes >= 1; got shape {p.shape}"
        )
    if not np.isfinite(p).all():
        raise ValueError("proba contains NaN or infinite values")
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ValueError("proba has entries outside [0, 1]")
    if len(p) and np.abs(p.sum(axis=1) - 1).max() > 1e-6:
        raise ValueError("proba rows must sum to 1")
    idx = _class_indices(y, classes, p.shape[1])
    if len(idx) != len(p):
        raise ValueError(f"proba has {len(p)} rows but y has {len(idx)}")
    return _mean((1.0 - p[np.arange(len(p)), idx]) ** 2)


# ------------------------------------------------------------------- everything at once
def summary(sets, y, classes=None, precise_pred=None, proba=None, allow_empty=False) -> dict:
    """All indicators of a credal classifier (and of its precise counterpart).

    Parameters
    ----------
    sets : bool array, shape (n_samples, n_classes)
    y : array-like, shape (n_samples,)
        True classes: column indices, or labels with ``classes``.
    classes : array-like, shape (n_classes,), optional
    precise_pred : array-like, shape (n_samples,), optional
        Predictions of the precise counterpart (e.g. naive Bayes for NCC),
        encoded like ``y``.
    proba : array-like, shape (n_samples, n_classes), optional
        Probabilities of the precise counterpart.
    allow_empty : bool
        Accept empty sets (conformal LAC sets) and count each as an error.

    Returns
    -------
    dict of str to float
        Keys ``determinacy``, ``single_accuracy``, ``set_accuracy``,
        ``indeterminate_size``, ``discounted_accuracy``, ``u65``, ``u80``,
        ``coverage``, ``set_size`` (mean over all instances), ``empty_sets`` (their
        share); with ``precise_pred`` also ``precise_accuracy``,
        ``precise_on_determinate`` and ``precise_on_indeterminate`` (NBC-I);
        with ``proba`` also ``brier``.  Values are ``nan`` on empty selections
        as in the individual functions.
    """
    s = _check_sets(sets, allow_empty=allow_empty)
    idx = _class_indices(y, classes, s.shape[1])
    n = len(s)
    if len(idx) != n:
        raise ValueError(f"sets has {n} rows but y has {len(idx)}")
    size = s.sum(axis=1)
    det, ind = size == 1, size > 1
    hit = s[np.arange(n), idx]
    x = np.divide(hit, size, out=np.zeros(n), where=size > 0)  # an empty set scores 0
    out = {"determinacy": _mean(det), "single_accuracy": _mean(hit[det]),
           "set_accuracy": _mean(hit[ind]), "indeterminate_size": _mean(size[ind].astype(float)),
           "discounted_accuracy": _mean(x), "u65": _mean(1.6 * x - 0.6 * x * x),
           "u80": _mean(2.2 * x - 1.2 * x * x), "coverage": _mean(hit),
           "set_size": _mean(size.astype(float)), "empty_sets": _mean(size == 0)}
    if precise_pred is not None:
        if classes is None and isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
            cls = pd.Categorical(y).categories
        else:
            cls = classes
        p = _class_indices(precise_pred, cls, s.shape[1], name="precise_pred")
        if len(p) != n:
            raise ValueError(f"precise_pred has {len(p)} entries but y has {n}")
        correct = p == idx
        out["precise_accuracy"] = _mean(correct)
        out["precise_on_determinate"] = _mean(correct[det])
        out["precise_on_indeterminate"] = _mean(correct[~det])
    if proba is not None:
        pr = np.asarray(proba)
        if pr.shape != s.shape:
            raise ValueError(f"proba has shape {pr.shape} but sets has shape {s.shape}")
        out["brier"] = brier_loss(pr, idx)
    return out


# ---------------------------------------------- ROC areas of precise class probabilities
def roc_area(y_true, proba, classes) -> float:
    """Area under the ROC curve of class probabilities.

    Two classes: the usual AUC of ``proba[:, 1]`` for the positive class
    ``classes[1]`` (the same value as scoring ``classes[0]`` with ``proba[:, 0]``).
    More classes: Hand & Till's average over class pairs (scikit-learn's
    ``multi_class="ovo"``).

    Parameters
    ----------
    y_true : array-like, shape (n,)
        True labels (values of ``classes``).
    proba : array-like, shape (n, n_classes)
    classes : array-like, shape (n_classes,)

    Raises
    ------
    ValueError
        If ``y_true`` holds a single class (the area is undefined).
    """
    from sklearn.metrics import roc_auc_score

    y = np.asarray(y_true)
    p = np.asarray(proba, dtype=float)
    classes = np.asarray(classes)
    if p.ndim != 2 or p.shape != (len(y), len(classes)):
        raise ValueError(f"proba must have shape ({len(y)}, {len(classes)}); got {p.shape}")
    present = pd.unique(y)
    unknown = [c for c in present if c not in set(classes.tolist())]
    if unknown:
        raise ValueError(f"y_true has labels {unknown} not in classes")
    if len(present) < 2:
        raise ValueError("the ROC area is undefined: y_true contains a single class")
    if len(classes) == 2:
        return float(roc_auc_score(np.asarray(y == classes[1], dtype=bool), p[:, 1]))
    return float(roc_auc_score(y, p, multi_class="ovo", labels=classes))


def binary_roc_areas(group, positive, score):
    """ROC areas of many two-class problems at once (Mann-Whitney form, ties count 1/2).

    Parameters
    ----------
    group : array-like of int, shape (n,)
        Problem index of each row, in ``[0, n_groups)``.
    positive : array-like of bool, shape (n,)
        True for rows of the positive class.
    score : array-like of float, shape (n,)
        Score of the positive class (e.g. its posterior probability).

    Returns
    -------
    ndarray of float, shape (n_groups,)
        Area of each problem; NaN where a problem has rows of one class only.
    """
    g = np.asarray(group, dtype=np.int64)
    pos = np.asarray(positive, dtype=bool)
    s = np.asarray(score, dtype=np.float64)
    if not (g.shape == pos.shape == s.shape) or g.ndim != 1:
        raise ValueError("group, positive and score must be 1-D arrays of the same length")
    if len(g) == 0:
        return np.zeros(0)
    if g.min() < 0:
        raise ValueError("group indices must be >= 0")
    if np.isnan(s).any():
        raise ValueError("score contains NaN")
    n_groups = int(g.max()) + 1
    order = np.lexsort((s, g))
    g, pos, s = g[order], pos[order], s[order]
    n = len(g)
    idx = np.arange(n)
    # blocks of tied scores inside a problem share the mean of their ranks
    new = np.r_[True, (g[1:] != g[:-1]) | (s[1:] != s[:-1])]
    first = idx[new]
    last = np.r_[first[1:], n] - 1
    block = np.cumsum(new) - 1
    g_start = np.searchsorted(g, np.arange(n_groups))
    midrank = ((first + last) / 2.0)[block] - g_start[g] + 1.0
    n_pos = np.bincount(g, weights=pos, minlength=n_groups)
    n_all = np.bincount(g, minlength=n_groups).astype(np.float64)
    n_neg = n_all - n_pos
    rank_sum = np.bincount(g, weights=np.where(pos, midrank, 0.0), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)
    auc[(n_pos == 0) | (n_neg == 0)] = np.nan
    return auc


def binary_log_odds(proba):
    """``log p1 - log p0`` of two-class probabilities: a score that keeps their order.

    With hundreds of features a posterior can round to exactly 1 (any log-odds above
    about 37), which ties records that a classifier in fact ranks apart; the smaller
    of the two probabilities keeps its precision down to about 1e-308, so the
    log-odds rebuilt from both stay distinct.

    Parameters
    ----------
    proba : array-like, shape (n, 2)

    Returns
    -------
    ndarray, shape (n,)
    """
    p = np.asarray(proba, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] != 2:
        raise ValueError(f"proba must have shape (n, 2); got {p.shape}")
    with np.errstate(divide="ignore"):
        return np.log(p[:, 1]) - np.log(p[:, 0])


def delta_roc(r_ma, r_map):
    """Dash & Cooper's relative ROC gain ``(R_ma - R_map) / R_map``.

    Parameters
    ----------
    r_ma, r_map : float or array-like
        ROC areas of the model-averaged and of the MAP classifier, in [0, 1].
    """
    r_ma, r_map = _check_roc(r_ma, "r_ma"), _check_roc(r_map, "r_map")
    if np.any(r_map == 0):
        raise ValueError("delta_roc is undefined when r_map = 0")
    out = (r_ma - r_map) / r_map
    return float(out) if out.ndim == 0 else out


def delta_roc_remaining(r_ma, r_map, perfect=1.0):
    """Share of the remaining ROC area covered: ``(R_ma - R_map) / (T - R_map)``.

    ``T`` = ``perfect`` is the area of a perfect classifier; following the paper,
    the value is 0 where ``R_map = T``.
    """
    r_ma, r_map = _check_roc(r_ma, "r_ma"), _check_roc(r_map, "r_map")
    gap = float(perfect) - r_map
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(gap == 0, 0.0, (r_ma - r_map) / np.where(gap == 0, 1.0, gap))
    return float(out) if out.ndim == 0 else out


def _check_roc(r, name):
    r = np.asarray(r, dtype=float)
    if np.any(~np.isfinite(r)) or np.any(r < 0) or np.any(r > 1):
        raise ValueError(f"{name} must hold ROC areas in [0, 1]; got {r!r}")
    return r


# ---------------------------------------- scikit-learn scorers of set-valued predictions
def _predicted_sets(est, X):
    """``(sets, classes)`` of ``est`` on ``X``: its ``predict_set``, through a Pipeline's
    steps or a fitted search's ``best_estimator_`` to the credal classifier, else the
    singleton sets of ``predict`` (a precise classifier, as the engine scores it)."""
    if not hasattr(est, "predict_set"):
        if hasattr(est, "best_estimator_"):
            return _predicted_sets(est.best_estimator_, X)
        if hasattr(est, "steps"):
            for _, step in est.steps[:-1]:
                X = X if step in (None, "passthrough") else step.transform(X)
            return _predicted_sets(est.steps[-1][1], X)
        classes = np.asarray(est.classes_)
        idx = pd.Index(classes).get_indexer(np.asarray(est.predict(X)))
        if (idx < 0).any():
            raise ValueError(f"{type(est).__name__} predicted a label outside its classes_")
        return np.arange(len(classes)) == idx[:, None], classes
    return est.predict_set(X), est.classes_


class _SetScorer:
    """``scorer(estimator, X, y) -> float`` (picklable, for n_jobs > 1)."""

    def __init__(self, metric, kwargs):
        self.metric, self.kwargs = metric, kwargs

    def __call__(self, estimator, X, y):
        sets, classes = _predicted_sets(estimator, X)
        if self.metric is determinacy:  # the one metric without y
            return float(determinacy(sets))
        if y is None:
            raise ValueError(f"{self!r} needs the true labels: scorer(estimator, X, y) "
                             "got y=None")
        return float(self.metric(sets, y, classes=classes, **self.kwargs))

    def __repr__(self):
        extra = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        return f"make_set_scorer({self.metric.__name__}{extra})"


def make_set_scorer(metric, **kwargs):
    """A scikit-learn scorer of a credal classifier's ``predict_set``.

    The scorer is a callable ``scorer(estimator, X, y) -> float`` as
    ``cross_val_score``, ``GridSearchCV`` (also in a ``scoring`` dict) and
    ``cross_validate`` accept. It computes
    ``metric(estimator.predict_set(X), y, classes=estimator.classes_, **kwargs)``
    (``determinacy(estimator.predict_set(X))`` for :func:`determinacy`); larger
    is better for all the set metrics here.

    Parameters
    ----------
    metric : callable
        A metric of this module taking ``(sets, y, classes=...)``, e.g.
        :func:`u65`, :func:`utility` (then pass ``u_half``), or :func:`determinacy`.
    **kwargs
        Further keyword arguments for ``metric``.

    Returns
    -------
    callable

    Notes
    -----
    The estimator may be a credal classifier, a Pipeline ending with one, a fitted
    search (``GridSearchCV``) around either, or a precise classifier (scored on the
    singleton sets of ``predict``, as :func:`credal.experiments.cross_validate` does).
    """
    if not callable(metric):
        raise TypeError(f"metric must be a function of credal.metrics such as "
                        f"credal.metrics.u65 (not {metric!r}); or use u65_scorer, "
                        "u80_scorer, discounted_accuracy_scorer, determinacy_scorer")
    return _SetScorer(metric, kwargs)


#: scikit-learn scorers (``scoring=``) of :func:`u65`, :func:`u80`,
#: :func:`discounted_accuracy` and :func:`determinacy` on ``predict_set``.
u65_scorer = make_set_scorer(u65)
u80_scorer = make_set_scorer(u80)
discounted_accuracy_scorer = make_set_scorer(discounted_accuracy)
determinacy_scorer = make_set_scorer(determinacy)
