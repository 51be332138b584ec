"""Input checking shared by every classifier and transformer of :mod:`credal`.

Two input forms are accepted for the features ``X``:

* a 2-D integer array of category codes, ``-1`` meaning missing; the number of
  categories of feature ``j`` is then ``max(X[:, j]) + 1`` over the training rows;
* a :class:`pandas.DataFrame` whose columns are categoricals; the *declared*
  categories count, including categories never observed in training, and
  missing entries (NaN) become code ``-1``.

The class ``y`` is a 1-D array of labels or a categorical Series (declared classes
count, also unobserved ones).  Estimators store what they learned about the
encoding in ``n_values_``, ``classes_``, ``n_features_in_`` and, for DataFrames,
``feature_names_in_`` and ``categories_``.
"""

from __future__ import annotations

import numbers
import operator

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import column_or_1d

__all__ = ["check_2d", "check_bool", "check_features", "check_target", "check_fit_input",
           "check_predict_input", "check_positive", "check_in_range"]


def check_features(X, *, n_values=None, categories=None, feature_names=None, as_columns=False):
    """Convert ``X`` to an integer code matrix and describe its encoding.
    ``X``: category codes (``-1`` = missing), array-like of int of shape (n_samples,
    n_features), or a DataFrame of categorical columns. A DataFrame whose columns are all of
    integer dtype is read as integer codes (``X.to_numpy()``, keeping the column names);
    otherwise every column must be categorical. Sparse matrices are not accepted
    (``X.toarray()`` gives codes). Optional fitted values to check against: ``n_values``
    (numbers of categories, int array (n_features,); the caller checks codes against them),
    ``categories`` (declared categories, list of array-like: the DataFrame's columns must
    declare the same) and ``feature_names`` (column names, must match). With ``as_columns``
    (default False) ``codes`` is a list of 1-D code arrays, one per feature, in the narrowest
    integer dtype at hand (no int64 copy of a DataFrame).
    Returns ``(codes, n_values, categories, feature_names)``: an int64 ndarray (n_samples,
    n_features) or a list of arrays; an int64 ndarray (n_features,); the columns' declared
    categories as a list of pandas.Index, None unless they are categorical; an object ndarray
    of column names or None.
    """
    if isinstance(X, pd.DataFrame):
        names = np.asarray(X.columns, dtype=object)
        if feature_names is not None and list(names) != list(feature_names):
            raise ValueError(f"X has columns {list(names)}, but the estimator was fitted on "
                             f"{list(feature_names)}")
        # the columns' own arrays, without a Series per column: the blocks' arrays when
        # each column is one block, in order (as categorical columns are), else pandas'
        # internal iterator where it has one (a wide frame is converted fold after fold)
        mgr, it = getattr(X, "_mgr", None), getattr(X, "_iter_column_arrays", None)
        blknos = getattr(mgr, "blknos", None)  # compared as a list: no numpy call
        if (len(getattr(mgr, "blocks", ())) == len(names) and blknos is not None
                and blknos.tolist() == list(range(len(names)))):
            arrays = list(mgr.arrays)
        else:
            arrays = list(it()) if it is not None else [col.array for _, col in X.items()]
        if arrays and all(a.dtype.kind in "iu" and not isinstance(a, pd.Categorical)
                          for a in arrays):
            # nullable integer columns (pandas Int64): <NA> is the missing code -1
            nullable = any(isinstance(a, pd.api.extensions.ExtensionArray) for a in arrays)
            codes, nv, _, _ = check_features(
                X.to_numpy(dtype=np.int64, na_value=-1) if nullable else X.to_numpy(),
                n_values=n_values, as_columns=as_columns)
            return codes, nv, None, names
        for c, a in zip(names, arrays):
            if not isinstance(a, pd.Categorical):
                raise TypeError(f"column {c!r} has dtype {a.dtype}; credal classifiers need "
                                "categorical columns (discretise numeric columns first, e.g. with "
                                "credal.preprocessing.MDLDiscretizer), or integer codes in every "
                                "column")
        # the private code arrays and the categories Index: the public .codes view and an
        # ndarray of the categories cost ten times more, column after column
        cols, cats = [a._ndarray for a in arrays], [a._dtype.categories for a in arrays]
        # the same objects (columns of the frame the estimator was fitted on, or row
        # subsets of it): nothing to compare
        if categories is not None and not all(map(operator.is_, cats, categories)):
            for j, (got, want) in enumerate(zip(cats, categories)):
                if got is not want and (len(got) != len(want)
                                        or np.any(np.asarray(got) != np.asarray(want))):
                    raise ValueError(f"column {names[j]!r} declares categories {list(got)}, "
                                     f"but the estimator was fitted with {list(want)}")
        nv = (np.array([len(k) for k in cats], dtype=np.int64) if n_values is None
              else np.asarray(n_values))
        if not as_columns:  # the narrow codes stacked as rows, then one transposing copy
            cols = (np.ascontiguousarray(np.stack(cols).T, dtype=np.int64) if cols
                    else np.empty((len(X), 0), dtype=np.int64))
        return cols, nv, cats, names

    if sp.issparse(X):
        raise TypeError("sparse X is not supported; pass dense integer codes "
                        "(X.toarray()) or a DataFrame of categoricals")
    arr = check_2d(np.asarray(X))
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise ValueError("X contains NaN or infinity; code missing values as -1 in an integer "
                             "array, or pass a DataFrame of categoricals")
        if np.any(arr != np.round(arr)):
            raise ValueError("X must hold integer category codes; got non-integer values "
                             "(real-valued features: discretise first, e.g. "
                             "credal.make_pipeline(MDLDiscretizer(), NCC()))")
    elif arr.dtype.kind not in "iub":
        raise TypeError(f"X must hold integer category codes; got dtype {arr.dtype}")
    elif arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
        j = int(np.nonzero(arr.max(axis=0) > np.iinfo(np.int64).max)[0][0])
        raise ValueError(f"column {j} has code {int(arr[:, j].max())}, too large for a "
                         "category code")
    codes = arr.astype(np.int64)
    if codes.size and codes.min() < -1:
        j = int(np.where((codes < -1).any(axis=0))[0][0])
        raise ValueError(f"column {j} has a code below -1 (-1 is the only missing code)")
    if n_values is None:
        nv = (codes.max(axis=0) + 1 if len(codes) else np.zeros(codes.shape[1], int))
        nv = np.maximum(nv, 1).astype(np.int64)
    else:
        nv = np.asarray(n_values, dtype=np.int64)
    return (list(codes.T) if as_columns else codes), nv, None, None


def check_2d(X):
    """``X`` after checking it is 2-D (the classifiers' and the engine's one message)."""
    if np.ndim(X) != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {np.shape(X)} "
                         "(one feature: X.reshape(-1, 1))")
    return X


def check_bool(name, value):
    """``value`` after checking it is a bool (a string such as "False" is refused)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_target(y, *, allow_missing=False):
    """Encode the class labels ``y`` (array-like (n_samples,), or a categorical Series whose
    declared classes count): ``(y_idx, classes)``, the int64 index (n_samples,) of each label in
    the ndarray ``classes`` (n_classes,). With ``allow_missing``, missing labels (NaN/None) are
    coded ``-1``; otherwise they raise."""
    if isinstance(y, (pd.Series, pd.Categorical)) and isinstance(y.dtype, pd.CategoricalDtype):
        cat = y.array if isinstance(y, pd.Series) else y  # the Categorical, not a new one
        classes = np.asarray(cat.categories)
        y_idx = cat._codes.astype(np.int64)
    else:
        if y is None:
            raise ValueError("this classifier requires y to be passed, but the target y is None")
        arr = np.asarray(y)
        if arr.ndim == 2 and arr.shape[1] == 1:  # a column vector: scikit-learn's warning
            arr = column_or_1d(arr, warn=True)
        if arr.ndim != 1:
            raise ValueError(f"y must be 1-D; got shape {arr.shape}")
        missing = pd.isna(arr)
        if arr.dtype.kind == "f" and not missing.all():
            # real-valued labels: scikit-learn's rule (a continuous y is a regression
            # target, not one class per value)
            check_classification_targets(arr[~missing])
        try:
            classes = np.unique(arr[~missing])
        except TypeError:
            kinds = sorted({type(v).__name__ for v in arr[~missing]})
            raise TypeError(f"y mixes label types {kinds}; use labels of one type "
                            "(e.g. y.astype(str))") from None
        y_idx = np.full(len(arr), -1, dtype=np.int64)
        y_idx[~missing] = np.searchsorted(classes, arr[~missing])
    if not allow_missing and np.any(y_idx < 0):
        raise ValueError("y contains missing labels")
    if len(classes) == 0:
        raise ValueError("y has no class label")
    return y_idx, classes


def check_fit_input(estimator, X, y, *, allow_missing_y=False, as_columns=False):
    """Validate training data and store the encoding on ``estimator``: ``n_features_in_``,
    ``n_values_``, ``classes_`` and, for DataFrames, ``feature_names_in_`` and ``categories_``
    (the latter for categorical columns). Returns ``(codes, y_idx)``: int64 codes (n_samples,
    n_features), or a list of columns (``as_columns``, see :func:`check_features`), and the
    int64 class indices (n_samples,)."""
    codes, nv, cats, names = check_features(X, as_columns=as_columns)
    n, m = (len(codes[0]) if codes else 0, len(codes)) if as_columns else codes.shape
    if m == 0:
        raise ValueError("X has 0 features; a classifier needs at least one")
    if n == 0:
        raise ValueError("empty training data: X has no rows")
    y_idx, classes = check_target(y, allow_missing=allow_missing_y)
    if n != len(y_idx):
        raise ValueError(f"X has {n} rows but y has {len(y_idx)}")
    if (empty := np.flatnonzero(np.asarray(nv) < 1)).size:
        # no value to count: a table with no cell (the count models divided by zero)
        j = int(empty[0])
        raise ValueError(f"feature {names[j] if names is not None else j!r} has no category: "
                         "every value is missing and none is declared; drop the feature, or "
                         "declare its categories (pandas.Categorical(..., categories=[...]))")
    estimator.n_features_in_ = m
    estimator.n_values_ = nv
    estimator.classes_ = classes
    for attr in ("feature_names_in_", "categories_"):  # none left from an earlier fit
        estimator.__dict__.pop(attr, None)
    if names is not None:
        estimator.feature_names_in_ = names
    if cats is not None:
        estimator.categories_ = cats
    return codes, y_idx


def check_predict_input(estimator, X, *, as_columns=False):
    """Validate prediction data against what ``estimator`` learned in ``fit``: int64 codes
    (n_samples, n_features), or a list of columns, in ``[-1, n_values_[j])``."""
    if not hasattr(estimator, "n_values_"):
        raise AttributeError(f"{type(estimator).__name__} is not fitted yet; call fit first")
    fitted_cats = getattr(estimator, "categories_", None)
    codes, _, cats, _ = check_features(
        X, n_values=estimator.n_values_, categories=fitted_cats,
        feature_names=getattr(estimator, "feature_names_in_", None), as_columns=as_columns)
    m = len(codes) if as_columns else codes.shape[1]
    if m != estimator.n_features_in_:
        raise ValueError(f"X has {m} features, but {type(estimator).__name__} "
                         f"is expecting {estimator.n_features_in_} features as input")
    if cats is None or fitted_cats is None:  # else the categories matched: codes in range
        top = (np.array([c.max(initial=-1) for c in codes]) if as_columns
               else codes.max(axis=0, initial=-1))
        bad = np.nonzero(top >= estimator.n_values_)[0]
        if bad.size:
            j = int(bad[0])
            name = estimator.feature_names_in_[j] if hasattr(estimator, "feature_names_in_") else j
            raise ValueError(f"column {name!r} has code {int(top[j])} outside the "
                             f"{int(estimator.n_values_[j])} categories seen in fit")
    return codes


def check_positive(name, value, *, strict=True):
    """Raise ValueError unless ``value`` is a finite real > 0 (>= 0 if not strict)."""
    _check_real(name, value)
    if (value <= 0) if strict else (value < 0):
        raise ValueError(f"{name} must be {'>' if strict else '>='} 0; got {value!r}")
    return float(value)


def check_in_range(name, value, low, high, *, closed="both"):
    """Raise ValueError unless ``low <= value <= high`` (ends per ``closed``)."""
    _check_real(name, value)
    lo_ok = value >= low if closed in ("both", "left") else value > low
    hi_ok = value <= high if closed in ("both", "right") else value < high
    if not (lo_ok and hi_ok):
        lb = "[" if closed in ("both", "left") else "("
        rb = "]" if closed in ("both", "right") else ")"
        raise ValueError(f"{name} must lie in {lb}{low}, {high}{rb}; got {value!r}")
    return float(value)


def _check_real(name, value):
    # booleans are Real to Python, but s=True is a slip, not s=1
    if (not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_))
            or not np.isfinite(value)):
        raise ValueError(f"{name} must be a finite number; got {value!r}")


def check_int(name, value, low):
    """``value`` as an int after checking it is an integer (not a bool) ``>= low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}; got {value!r}")
    return int(value)


def check_S(S, name="S"):
    """The prior strength ``S`` (or IDM ``s``) as a float after checking it is finite and > 0."""
    return check_positive(name, S)


def check_counts(counts, name="counts", *, min_ndim=2, integer=True):
    """Return ``counts`` as a float array after checking it holds counts."""
    arr = np.asarray(counts)
    if arr.dtype == object:
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be numeric counts") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric counts; got dtype {arr.dtype}")
    if arr.ndim < min_ndim:
        shape = "(..., r, c)" if min_ndim == 2 else "(..., k)"
        raise ValueError(f"{name} must have shape {shape}; got shape {arr.shape}")
    if any(d == 0 for d in arr.shape[-min_ndim:]):
        raise ValueError(f"{name} has an empty table dimension: shape {arr.shape}")
    a = arr.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(a < 0):
        raise ValueError(f"{name} contains negative values; counts must be >= 0")
    if integer and np.any(a != np.round(a)):
        raise ValueError(f"{name} contains non-integer values; counts must be integers")
    return a


def check_choice(name, value, choices):
    """``value`` after checking it is one of the strings ``choices``."""
    if not isinstance(value, str) or value not in choices:
        shown = sorted(choices) if isinstance(choices, (set, frozenset)) else list(choices)
        raise ValueError(f"{name} must be one of {shown}; got {value!r}")
    return value


def check_ranks(avg_ranks) -> pd.Series:
    """Average ranks as a float Series after checking: >= 2 classifiers, finite, unique names."""
    if not isinstance(avg_ranks, pd.Series):
        raise ValueError("avg_ranks must be a pandas Series indexed by classifier; got "
                         f"{type(avg_ranks).__name__}")
    if len(avg_ranks) < 2:
        raise ValueError(f"avg_ranks needs at least 2 classifiers; got {len(avg_ranks)}")
    try:
        s = avg_ranks.astype(float)
    except (TypeError, ValueError):
        raise ValueError("avg_ranks must be numeric") from None
    if not np.isfinite(s.to_numpy()).all():
        raise ValueError("avg_ranks contains NaN or infinite values")
    if not s.index.is_unique:
        raise ValueError("avg_ranks has duplicate classifier names")
    return s
