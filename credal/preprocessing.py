"""Preprocessing transformers: discretisation, imputation, feature removal.

Credal classifiers work on nominal features.  The transformers here turn a
:class:`pandas.DataFrame` with categorical (nominal) and float (numeric) columns
into one whose columns are all categorical, the way the papers of the compendium
prepared their data:

* :class:`MedianModeImputer` fills missing numeric cells with the training median
  and missing nominal cells with the training mode;
* :class:`MDLDiscretizer` cuts numeric columns with the supervised, entropy-based
  method of Fayyad & Irani (1993), reproducing the conventions of Weka 3.6's
  ``weka.filters.supervised.attribute.Discretize`` (default options);
* :class:`EqualFrequencyDiscretizer` cuts numeric columns into bins holding about
  the same number of training values;
* :class:`DropSingleCategory` removes features left with fewer than two observed
  values (MDL leaves uninformative numeric features with a single interval);
* :func:`make_preprocessor` chains them in a scikit-learn
  :class:`~sklearn.pipeline.Pipeline`;
* :func:`to_codes` turns a categorical DataFrame into an integer code matrix.

* :func:`make_pipeline` is scikit-learn's, whose pipeline also offers ``predict_set``
  when its last step does.

All transformers learn from the training data only (``fit``) and apply what they
learned to any data (``transform``); they accept and return DataFrames, keeping
the index and the column order, and implement ``get_feature_names_out``. A numeric
array (e.g. scikit-learn's ``load_iris(return_X_y=True)``) is read as columns ``x0``,
``x1``, ... and comes back as an array (interval codes, -1 missing, after a
discretiser), or as a DataFrame under ``set_output(transform="pandas")``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn import pipeline as _skp
from sklearn.pipeline import Pipeline
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._validation import (check_2d, check_bool, check_choice, check_features, check_int,
                          check_target)

__all__ = ["MDLDiscretizer", "EqualFrequencyDiscretizer", "DropSingleCategory",
           "MedianModeImputer", "make_preprocessor", "make_pipeline", "CredalPipeline", "to_codes",
           "interval_labels"]

# Conditional entropies (in bits) closer than this are the same cut quality: the
# first (smallest) cut then wins, as in Weka.  Rounding errors in our sums are
# ~1e-14 bits even for 1e5 rows, far below it.
_TIE_TOL = 1e-11


# ---------------------------------------------- column checks shared by the transformers
def _column_kind(dtype, name) -> str:
    """Return ``"categorical"`` or ``"numeric"`` for a column's dtype; raise TypeError otherwise."""
    if isinstance(dtype, pd.CategoricalDtype):
        return "categorical"
    if pd.api.types.is_numeric_dtype(dtype):
        return "numeric"
    raise TypeError(f"column {name!r} has dtype {dtype}; expected a pandas categorical "
                    "(nominal feature) or a numeric dtype (numeric feature). Convert text "
                    "columns with .astype('category').")


def _check_frame(X, who: str) -> pd.DataFrame:
    if not isinstance(X, pd.DataFrame):  # an array: numeric columns x0, x1, ...
        a = np.asarray(X)
        if a.dtype.kind not in "biuf":
            raise TypeError(f"{who} expects a DataFrame (categorical and numeric "
                            f"columns) or a numeric array; got dtype {a.dtype}")
        return pd.DataFrame(check_2d(a), columns=[f"x{j}" for j in range(a.shape[1])])
    if not X.columns.is_unique:
        dup = X.columns[X.columns.duplicated()].tolist()
        raise ValueError(f"X has duplicated column names {dup}")
    return X


def _numeric_values(col: pd.Series, name) -> np.ndarray:
    """Float values of a numeric column, NaN for missing; infinities are refused."""
    v = col.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isinf(v).any():
        raise ValueError(f"column {name!r} contains infinite values")
    return v


class _FrameTransformer(TransformerMixin, BaseEstimator):
    """Bookkeeping common to the DataFrame transformers of this module."""

    def _fit_columns(self, X):
        X = _check_frame(X, type(self).__name__)
        self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = X.shape[1]
        self.kinds_ = {c: _column_kind(t, c) for c, t in X.dtypes.items()}
        return X

    def _check_transform_columns(self, X):
        check_is_fitted(self, "feature_names_in_")
        X = _check_frame(X, type(self).__name__)
        if list(X.columns) != list(self.feature_names_in_):
            raise ValueError(f"X has columns {list(X.columns)}, but {type(self).__name__} was "
                             f"fitted on {list(self.feature_names_in_)} (same names, same order "
                             "required)")
        for c, t in X.dtypes.items():  # dtypes only: no Series per column
            if (kind := _column_kind(t, c)) != self.kinds_[c]:
                raise ValueError(f"column {c!r} was {self.kinds_[c]} in fit but is {kind} now")
        return X

    @staticmethod
    def _out(Xt, X):
        """``Xt`` as the caller gave ``X``: a DataFrame, or for an array an array
        (interval codes, -1 missing, where the columns are categorical; scikit-learn's
        ``set_output(transform="pandas")`` makes a DataFrame of it)."""
        if isinstance(X, pd.DataFrame):
            return Xt
        cat = all(isinstance(t, pd.CategoricalDtype) for t in Xt.dtypes)
        return to_codes(Xt)[0] if cat and Xt.shape[1] else Xt.to_numpy()

    def _check_input_features(self, input_features):
        check_is_fitted(self, "feature_names_in_")
        if input_features is not None and list(input_features) != list(self.feature_names_in_):
            raise ValueError(f"input_features {list(input_features)} differ from the columns "
                             f"seen in fit {list(self.feature_names_in_)}")

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns (the input columns, same order).

        Returns
        -------
        names : ndarray of object, shape (n_features_out,)
        """
        self._check_input_features(input_features)
        return np.asarray(self.feature_names_in_, dtype=object)


# -------------------------- interval labels and assignment (shared by both discretisers)
def _weka_number(x: float, digits: int = 6) -> str:
    """Format like Weka's ``Utils.doubleToString(x, 6)``. Rounds half away from zero to ``digits``
    decimals and strips trailing zeros (``5.75``, ``1``, ``-0.5``)."""
    scaled = abs(x) * 10.0**digits
    if scaled >= 9.2e18:  # beyond a Java long: Weka prints the plain double
        return repr(float(x))
    p = int(scaled + 0.5)
    s = str(p).rjust(digits + 1, "0")
    whole, frac = s[:-digits], s[-digits:].rstrip("0")
    out = whole + ("." + frac if frac else "")
    return ("-" + out) if (x < 0 and p != 0) else out


def interval_labels(cuts) -> list[str]:
    """Weka-style labels of the intervals defined by sorted cut points.

    Parameters
    ----------
    cuts : array-like of float, shape (n_cuts,)
        Sorted, distinct cut points.

    Returns
    -------
    labels : list of str, length n_cuts + 1
        ``['All']`` without cuts, otherwise ``'(-inf-c1]'``, ``'(c1-c2]'``, ...,
        ``'(ck-inf)'``.  Cut points are printed with 6 decimals as Weka does;
        if that makes two labels equal, full precision is used instead.

    Examples
    --------
    >>> interval_labels([2.45, 4.75])
    ['(-inf-2.45]', '(2.45-4.75]', '(4.75-inf)']
    """
    cuts = [float(c) for c in np.asarray(cuts, dtype=np.float64).ravel()]
    if not cuts:
        return ["All"]
    for fmt in (_weka_number, lambda v: repr(float(v))):
        s = [fmt(c) for c in cuts]
        labels = [f"(-inf-{s[0]}]"]
        labels += [f"({a}-{b}]" for a, b in zip(s[:-1], s[1:])]
        labels.append(f"({s[-1]}-inf)")
        if len(set(labels)) == len(labels):
            return labels
    raise ValueError(f"cut points {cuts} are not distinct")  # pragma: no cover


def _assign_intervals(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Interval index of each value (``x <= cut`` goes left); -1 for NaN."""
    codes = np.searchsorted(cuts, values, side="left").astype(np.int64)
    codes[np.isnan(values)] = -1
    return codes


class _IntervalDiscretizer(_FrameTransformer):
    """Shared ``transform`` of the discretisers: numeric -> ordered categorical."""

    def _set_cuts(self, cuts: dict):
        self.cut_points_ = cuts
        self.categories_ = {c: interval_labels(k) for c, k in cuts.items()}
        self.dtypes_ = {c: pd.CategoricalDtype(k, ordered=True) for c, k in self.categories_.items()}

    def transform(self, X):
        """Replace each numeric column by its interval, as an ordered categorical.

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)
            Same columns (names, order, numeric/nominal kind) as in ``fit``.

        Returns
        -------
        Xt : DataFrame, shape (n_samples, n_features)
            Numeric columns become ordered categoricals whose categories are all
            the intervals (also those empty in ``X``); NaN stays missing.
            Nominal columns are passed through unchanged.
        """
        check_is_fitted(self, "cut_points_")
        Xf = self._check_transform_columns(X)
        out = {}
        for c, col in Xf.items():
            if c in self.cut_points_:
                codes = _assign_intervals(_numeric_values(col, c), self.cut_points_[c])
                out[c] = pd.Categorical.from_codes(codes, dtype=self.dtypes_[c])
            else:
                out[c] = col
        return self._out(pd.DataFrame(out, index=Xf.index, columns=Xf.columns), X)


# ----------------------------------------------------- Fayyad & Irani MDL discretisation
def _xlogx(c: np.ndarray) -> np.ndarray:
    """``c * ln(c)`` with Weka's convention that counts <= 1e-6 contribute 0."""
    c = np.asarray(c, dtype=np.float64)
    out = np.zeros_like(c)
    pos = c > 1e-6
    out[pos] = c[pos] * np.log(c[pos])
    return out


def _best_split(left: np.ndarray, right: np.ndarray, table: np.ndarray | None = None):
    """Best binary split among candidates, all evaluated at once.
    ``left``, ``right``: int class counts (n_candidates, n_classes) on each side of every candidate
    cut, candidates in increasing order of the cut. ``table`` (optional, float, shape (>= n + 1,)):
    ``table[c] = c ln c`` for integer counts (``_xlogx(arange(n + 1))``), a lookup instead of
    logarithms when many intervals are searched. Returns ``(index, entropies)``: the position (int)
    of the candidate with the smallest class-information entropy (the first one among equally good
    candidates), and the class-information entropy (bits) ``(|L| H(L) + |R| H(R)) / (|L| + |R|)``
    of every candidate, shape (n_candidates,)."""
    f = _xlogx if table is None else table.__getitem__
    nl = left.sum(axis=1)
    nr = right.sum(axis=1)
    n = nl + nr
    # n * H_cond * ln2 = sum_rows r ln r - sum_cells c ln c
    s = f(nl) + f(nr) - f(left).sum(axis=1) - f(right).sum(axis=1)
    ent = s / (n * math.log(2))
    best = int(np.argmax(ent <= ent.min() + _TIE_TOL))
    return best, ent


def _entropy_list(counts) -> float:
    """Entropy in bits of one class-count vector, Weka's formula (0 if empty)."""
    tot = float(sum(counts))
    if tot <= 1e-6:
        return 0.0
    s = sum(c * math.log(c) for c in counts if c > 1e-6)
    return (tot * math.log(tot) - s) / (tot * math.log(2))


def _mdl_accepts(prior, left, right) -> tuple[bool, float, float]:
    """Fayyad & Irani's MDL test for one split (Weka's version, N - 1 cut points) of an
    interval with class counts ``prior`` into parts with ``left`` and ``right`` (sequences of
    int, (n_classes,)): ``(accepted, gain, threshold)``, the information gain of the split in
    bits and ``(log2(N - 1) + delta) / N``; the split is accepted iff gain > threshold."""
    prior, left, right = ([float(c) for c in v] for v in (prior, left, right))
    n = sum(prior)
    h, hl, hr = _entropy_list(prior), _entropy_list(left), _entropy_list(right)
    gain = h - (sum(left) * hl + sum(right) * hr) / n
    k, kl, kr = (sum(1 for c in v if c > 0) for v in (prior, left, right))
    delta = math.log2(3.0**k - 2.0) - (k * h - kl * hl - kr * hr)
    threshold = (math.log2(n - 1.0) + delta) / n
    return gain > threshold, gain, threshold


def _midpoints(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Cut points between adjacent distinct values ``lo < hi``: ``(lo + hi) / 2``.
    That is Weka's formula. When rounding would put it outside ``[lo, hi)`` (``lo`` and ``hi``
    adjacent floats, or an overflow), ``lo`` is used instead, which still sends ``lo`` left and
    ``hi`` right under the ``x <= cut`` rule."""
    with np.errstate(over="ignore"):
        mid = (lo + hi) / 2.0
    bad = ~((mid >= lo) & (mid < hi))
    return np.where(bad, lo, mid)


def _mdl_cut_points(x: np.ndarray, y_idx: np.ndarray, n_classes: int) -> np.ndarray:
    """Recursive Fayyad & Irani MDL cut points of one numeric column: values ``x`` (float,
    (n,), no NaN) with class indices ``y_idx`` (int, (n,), in ``[0, n_classes)``). Returns the
    sorted cut points (float, (n_cuts,)), each the midpoint of two adjacent distinct values."""
    if len(x) < 2:
        return np.empty(0)
    u, inv = np.unique(x, return_inverse=True)
    m = len(u)
    if m < 2:
        return np.empty(0)
    # cnt[j, k]: rows with value u[j] and class k; cum[j]: rows with value < u[j]
    cnt = np.bincount(inv * n_classes + y_idx, minlength=m * n_classes).reshape(m, n_classes)
    cum = np.zeros((m + 1, n_classes), dtype=np.int64)
    np.cumsum(cnt, axis=0, out=cum[1:])
    table = _xlogx(np.arange(len(x) + 1))  # c ln c of every possible count

    cut_at = []  # j: cut between u[j-1] and u[j]
    stack = [(0, m)]  # half-open ranges of distinct-value indices
    while stack:
        a, b = stack.pop()
        if b - a < 2:  # a single distinct value: no candidate cut
            continue
        prior = cum[b] - cum[a]
        if prior.sum() < 2:
            continue
        left = cum[a + 1 : b] - cum[a]  # candidates j = a+1 .. b-1
        right = prior - left
        i, ent = _best_split(left, right, table)
        if _entropy_list(prior.tolist()) - ent[i] <= _TIE_TOL:  # no information gain
            continue
        ok, _, _ = _mdl_accepts(prior.tolist(), left[i].tolist(), right[i].tolist())
        if ok:
            j = a + 1 + i
            cut_at.append(j)
            stack += [(j, b), (a, j)]
    cut_at = np.sort(np.asarray(cut_at, dtype=np.int64))
    return _midpoints(u[cut_at - 1], u[cut_at])


class MDLDiscretizer(_IntervalDiscretizer):
    """Supervised entropy/MDL discretisation of numeric columns (Fayyad & Irani).

    Each numeric column is split recursively: the cut minimising the
    class-information entropy of the two parts is kept if it passes the MDL
    criterion, and both parts are split again.  Weka 3.6 conventions (its
    ``supervised.attribute.Discretize`` with default options) are followed so
    that the cut points agree with Weka's:

    * candidate cuts lie between adjacent distinct sorted values, at their
      midpoint; among equally good cuts the first (smallest) wins;
    * entropies in bits; class counts below 1e-6 count as zero;
    * the MDL term counts ``N - 1`` candidate cut points for ``N`` rows
      (Kononenko's criterion and the "better encoding" are off);
    * rows with a missing value are left out when that column is cut; rows with
      a missing class are left out altogether.

    Nominal (categorical) columns pass through unchanged.

    Attributes
    ----------
    cut_points_ : dict
        Column name -> sorted ndarray of cut points (empty: one interval, 'All').
    categories_ : dict
        Column name -> list of interval labels, e.g. ``['(-inf-5.75]', '(5.75-inf)']``.
    dtypes_ : dict
        Column name -> its ordered ``pandas.CategoricalDtype`` of those labels.
    feature_names_in_ : ndarray of object, shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0]})
    >>> d = MDLDiscretizer().fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> d.cut_points_["x"]
    array([6.5])
    >>> d.transform(X)["x"].tolist()
    ['(-inf-6.5]', '(-inf-6.5]', '(-inf-6.5]', '(6.5-inf)', '(6.5-inf)', '(6.5-inf)']
    """

    def fit(self, X, y=None):
        """Learn the cut points of every numeric column.

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)
            Categorical and numeric (float, NaN = missing) columns.
        y : array-like or categorical Series, shape (n_samples,)
            Class labels (missing labels are ignored).  Required.

        Returns
        -------
        self
        """
        X = self._fit_columns(X)
        if y is None:
            raise ValueError("MDLDiscretizer is supervised: fit(X, y) needs the class labels y")
        y_idx, classes = check_target(y, allow_missing=True)
        if len(y_idx) != len(X):
            raise ValueError(f"X has {len(X)} rows but y has {len(y_idx)}")
        has_y = y_idx >= 0
        cuts = {}
        for c in X.columns:
            if self.kinds_[c] != "numeric":
                continue
            v = _numeric_values(X[c], c)
            keep = has_y & ~np.isnan(v)
            cuts[c] = _mdl_cut_points(v[keep], y_idx[keep], len(classes))
        self._set_cuts(cuts)
        return self


# -------------------------------------------------------- equal-frequency discretisation
def _equal_frequency_cut_points(x: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points giving ``n_bins`` bins of about equal training frequency.
    For each ``k = 1 .. n_bins - 1`` the cut is placed at the boundary between adjacent distinct
    values whose number of values to its left is closest to ``k * n / n_bins`` (the lower boundary
    on ties), at the midpoint of the two values. Repeated values can make several ``k`` share a
    cut: there are then fewer bins."""
    if len(x) < 2 or n_bins < 2:
        return np.empty(0)
    u, counts = np.unique(x, return_counts=True)
    if len(u) < 2:
        return np.empty(0)
    left_n = np.cumsum(counts)[:-1]  # rows <= u[j] for boundaries j = 0 .. m-2
    targets = np.arange(1, n_bins) * (len(x) / n_bins)
    # nearest boundary to each target: compare the two neighbours found by search
    hi = np.clip(np.searchsorted(left_n, targets, side="left"), 0, len(left_n) - 1)
    lo = np.clip(hi - 1, 0, len(left_n) - 1)
    pick = np.where(np.abs(left_n[lo] - targets) <= np.abs(left_n[hi] - targets), lo, hi)
    j = np.unique(pick)
    return _midpoints(u[j], u[j + 1])


class EqualFrequencyDiscretizer(_IntervalDiscretizer):
    """Unsupervised equal-frequency discretisation of numeric columns.

    The cut points sit at the training quantiles ``k / n_bins``
    (``k = 1 .. n_bins - 1``), moved to the nearest boundary between adjacent
    distinct values (its midpoint), so that equal values always share a bin.
    Repeated values can merge cuts, leaving fewer bins.  Labels, the
    ``x <= cut`` rule and NaN handling are those of :class:`MDLDiscretizer`.

    Parameters
    ----------
    n_bins : int, default=5
        Number of bins wanted (at least 1).

    Attributes
    ----------
    cut_points_ : dict
        Column name -> sorted ndarray of cut points.
    categories_ : dict
        Column name -> list of interval labels.
    dtypes_ : dict
        Column name -> its ordered ``pandas.CategoricalDtype`` of those labels.
    feature_names_in_ : ndarray of object, shape (n_features,)
    n_features_in_ : int
    """

    def __init__(self, n_bins=5):
        self.n_bins = n_bins

    def fit(self, X, y=None):
        """Learn the cut points of every numeric column (``y`` is ignored).

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        n_bins = check_int("n_bins", self.n_bins, 1)
        X = self._fit_columns(X)
        cuts = {}
        for c in X.columns:
            if self.kinds_[c] == "numeric":
                v = _numeric_values(X[c], c)
                cuts[c] = _equal_frequency_cut_points(v[~np.isnan(v)], n_bins)
        self._set_cuts(cuts)
        return self


# --------------------------------------------------- removal of single-category features
class DropSingleCategory(_FrameTransformer):
    """Remove features with fewer than two distinct values observed in training.

    A nominal column is removed when fewer than two of its categories occur in
    the training rows (declared but unobserved categories do not count); a
    numeric column when it has at most one distinct non-missing value.  After
    :class:`MDLDiscretizer` this removes the numeric features left with a single
    interval, which carry no information about the class.

    Attributes
    ----------
    dropped_ : list
        Names of the removed columns, in input order.
    kept_ : list
        Names of the remaining columns, in input order.
    feature_names_in_ : ndarray of object, shape (n_features,)
    n_features_in_ : int
    """

    def fit(self, X, y=None):
        """Find the columns to remove (``y`` is ignored).

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        X = self._fit_columns(X)
        self.dropped_ = [c for c in X.columns if X[c].nunique(dropna=True) < 2]
        if len(self.dropped_) == X.shape[1]:  # keep them: a classifier needs a feature
            self.dropped_ = []
        self.kept_ = [c for c in X.columns if c not in set(self.dropped_)]
        return self

    def transform(self, X):
        """Drop the columns found in ``fit``.

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)

        Returns
        -------
        Xt : DataFrame, shape (n_samples, len(kept_))
        """
        check_is_fitted(self, "dropped_")
        return self._out(self._check_transform_columns(X).loc[:, self.kept_], X)

    def get_feature_names_out(self, input_features=None):
        """Names of the kept columns, in input order."""
        self._check_input_features(input_features)
        return np.asarray(self.kept_, dtype=object)


# -------------------------------------------------------------- median / mode imputation
class MedianModeImputer(_FrameTransformer):
    """Fill missing values: numeric with the training median, nominal with the mode.

    The mode of a nominal column is its most frequent category in training;
    among equally frequent ones the first in declared order wins.  A column with
    no observed value in training is left as it is and listed in ``all_missing_``.

    Attributes
    ----------
    statistics_ : dict
        Column name -> fill value (median or mode); ``None`` for all-missing columns.
    all_missing_ : list
        Columns with no observed training value (not imputed).
    feature_names_in_ : ndarray of object, shape (n_features,)
    n_features_in_ : int
    """

    def fit(self, X, y=None):
        """Learn each column's median or mode (``y`` is ignored).

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        X = self._fit_columns(X)
        stats, empty = {}, []
        for c in X.columns:
            if self.kinds_[c] == "numeric":
                v = _numeric_values(X[c], c)
                v = v[~np.isnan(v)]
                stats[c] = float(np.median(v)) if len(v) else None
            else:
                cats = X[c].cat.categories
                codes = X[c].cat.codes.to_numpy()
                counts = np.bincount(codes[codes >= 0], minlength=len(cats))
                # argmax returns the first maximum: ties -> first declared category
                stats[c] = cats[int(np.argmax(counts))] if counts.sum() else None
            if stats[c] is None:
                empty.append(c)
        self.statistics_ = stats
        self.all_missing_ = empty
        return self

    def transform(self, X):
        """Fill the missing cells with the values learned in ``fit``.

        Parameters
        ----------
        X : DataFrame, shape (n_samples, n_features)

        Returns
        -------
        Xt : DataFrame, shape (n_samples, n_features)
            Same dtypes, except that a numeric column with filled cells comes out
            as float64; missing cells of all-missing training columns stay missing.
        """
        check_is_fitted(self, "statistics_")
        X_in, X = X, self._check_transform_columns(X)
        out = {}
        for c in X.columns:
            col, fill = X[c], self.statistics_[c]
            if fill is None or not col.isna().any():
                out[c] = col
            elif self.kinds_[c] == "categorical":
                if fill not in col.cat.categories:
                    raise ValueError(f"column {c!r} no longer declares the category {fill!r} "
                                     "learned as its mode in fit")
                out[c] = col.fillna(fill)
            else:
                # through float64: a median such as 2.5 cannot go into an integer column
                v = _numeric_values(col, c)
                out[c] = pd.Series(np.where(np.isnan(v), fill, v), index=X.index, name=c)
        return self._out(pd.DataFrame(out, index=X.index, columns=X.columns), X_in)


# ----------------------------------------------------- pipeline factory and codes helper
def make_preprocessor(impute=False, discretize="mdl", n_bins=5, drop_single=True):
    """The papers' preprocessing as a scikit-learn Pipeline.

    Steps, in this order and each optional: ``"impute"``
    (:class:`MedianModeImputer`), ``"discretize"`` (:class:`MDLDiscretizer` or
    :class:`EqualFrequencyDiscretizer`), ``"drop"`` (:class:`DropSingleCategory`).
    ``Pipeline.fit(X, y)`` passes ``y`` on to the MDL discretiser.

    Parameters
    ----------
    impute : bool, default=False
        Fill missing values with training medians/modes first.
    discretize : {"mdl", "equal-frequency", None}, default="mdl"
        How numeric columns are discretised (None: not at all).
    n_bins : int, default=5
        Number of bins of the equal-frequency discretiser.
    drop_single : bool, default=True
        Remove features left with fewer than two observed values.

    Returns
    -------
    pipeline : sklearn.pipeline.Pipeline
        With no step selected, a pipeline that passes the data through.

    Examples
    --------
    >>> make_preprocessor(impute=True).steps[0][0]
    'impute'
    """
    check_bool("impute", impute), check_bool("drop_single", drop_single)
    if discretize is not None:
        check_choice("discretize (or None)", discretize, ("mdl", "equal-frequency"))
    steps = []
    if impute:
        steps.append(("impute", MedianModeImputer()))
    if discretize == "mdl":
        steps.append(("discretize", MDLDiscretizer()))
    elif discretize == "equal-frequency":
        steps.append(("discretize", EqualFrequencyDiscretizer(n_bins=n_bins)))
    if drop_single:
        steps.append(("drop", DropSingleCategory()))
    if not steps:
        steps.append(("passthrough", "passthrough"))
    return Pipeline(steps)


def to_codes(df):
    """Integer codes of a DataFrame of categoricals.

    Parameters
    ----------
    df : DataFrame, shape (n_samples, n_features)
        Categorical columns only (discretise numeric columns first).

    Returns
    -------
    codes : ndarray of int64, shape (n_samples, n_features)
        Index of each value in its column's declared categories, -1 if missing.
    n_categories : list of int, length n_features
        Number of declared categories of each column.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"to_codes expects a pandas DataFrame; got {type(df).__name__}")
    codes, n_values, _, _ = check_features(df)
    return codes, [int(v) for v in n_values]


class CredalPipeline(Pipeline):
    """A scikit-learn :class:`~sklearn.pipeline.Pipeline` that also offers
    ``predict_set`` when its last step does (the sets of the transformed rows)."""

    @available_if(lambda self: hasattr(self._final_estimator, "predict_set"))
    def predict_set(self, X):
        """The last step's ``predict_set`` of ``X`` passed through the other steps."""
        for _, _, step in self._iter(with_final=False):
            X = step.transform(X)
        return self._final_estimator.predict_set(X)


def make_pipeline(*steps, memory=None, verbose=False):
    """scikit-learn's :func:`~sklearn.pipeline.make_pipeline`, as a :class:`CredalPipeline`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from credal import NCC
    >>> X, y = load_iris(return_X_y=True)
    >>> make_pipeline(MDLDiscretizer(), NCC()).fit(X, y).predict_set(X[:1]).tolist()
    [[True, False, False]]
    """
    return CredalPipeline(_skp.make_pipeline(*steps).steps, memory=memory, verbose=verbose)
