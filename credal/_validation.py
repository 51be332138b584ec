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

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import column_or_1d

__all__ = [
    "check_features",
    "check_target",
    "check_fit_input",
    "check_predict_input",
    "check_positive",
    "check_in_range",
]


def _column_codes(col: pd.Series, name) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(col.dtype, pd.CategoricalDtype):
        raise TypeError(
            f"column {name!r} has dtype {col.dtype}; credal classifiers need "
            "categorical columns (discretise numeric columns first, e.g. with "
            "credal.preprocessing.MDLDiscretizer) or integer codes"
        )
    # the Categorical's own code array: no intermediate Series per column (matters for
    # wide frames predicted fold after fold)
    arr = col.array
    return arr.codes, np.asarray(arr.categories)


def check_features(X, *, n_values=None, categories=None, feature_names=None):
    """Convert ``X`` to an integer code matrix and describe its encoding.

    Parameters
    ----------
    X : array-like of int, shape (n_samples, n_features), or DataFrame of categoricals
        Category codes (``-1`` = missing) or categorical columns.
    n_values : array of int, shape (n_features,), optional
        Fitted numbers of categories; when given, codes are checked against them.
    categories : list of arrays, optional
        Fitted declared categories (DataFrame input); when given, the columns of
        ``X`` must declare the same categories.
    feature_names : array of str, optional
        Fitted column names (DataFrame input); when given, they must match.

    Returns
    -------
    codes : ndarray of int64, shape (n_samples, n_features)
    n_values : ndarray of int64, shape (n_features,)
    categories : list of ndarray or None
    feature_names : ndarray of object or None
    """
    if isinstance(X, pd.DataFrame):
        names = np.asarray(X.columns, dtype=object)
        if feature_names is not None and list(names) != list(feature_names):
            raise ValueError(
                f"X has columns {list(names)}, but the estimator was fitted on "
                f"{list(feature_names)}"
            )
        cols = [_column_codes(col, c) for c, col in X.items()]
        # the narrow code arrays stacked as rows, then one transposing int64 copy
        codes = (
            np.ascontiguousarray(np.stack([c for c, _ in cols]).T, dtype=np.int64)
            if cols
            else np.empty((len(X), 0), dtype=np.int64)
        )
        cats = [k for _, k in cols]
        if categories is not None:
            for j, (got, want) in enumerate(zip(cats, categories)):
                # the same array object (columns of the frame the estimator was
                # fitted on, or row subsets of it): nothing to compare
                if got is want:
                    continue
                if len(got) != len(want) or np.any(got != want):
                    raise ValueError(
                        f"column {names[j]!r} declares categories {list(got)}, "
                        f"but the estimator was fitted with {list(want)}"
                    )
        nv = np.array([len(k) for k in cats], dtype=np.int64)
        return codes, (nv if n_values is None else np.asarray(n_values)), cats, names

    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            raise ValueError(
                "X contains NaN; code missing values as -1 in an integer array, "
                "or pass a DataFrame of categoricals"
            )
        if np.any(arr != np.round(arr)):
            raise ValueError("X must hold integer category codes; got non-integer values")
    elif arr.dtype.kind not in "iub":
        raise TypeError(f"X must hold integer category codes; got dtype {arr.dtype}")
    codes = arr.astype(np.int64)
    if codes.size and codes.min() < -1:
        j = int(np.where((codes < -1).any(axis=0))[0][0])
        raise ValueError(f"column {j} has a code below -1 (-1 is the only missing code)")
    if n_values is None:
        nv = (codes.max(axis=0) + 1 if len(codes) else np.zeros(codes.shape[1], int))
        nv = np.maximum(nv, 1).astype(np.int64)
    else:
        nv = np.asarray(n_values, dtype=np.int64)
    return codes, nv, None, None


def check_target(y, *, allow_missing=False):
    """Encode class labels.

    Parameters
    ----------
    y : array-like, shape (n_samples,)
        Labels, or a categorical Series (declared classes count).
    allow_missing : bool
        If True, missing labels (NaN/None) are coded ``-1``; otherwise they raise.

    Returns
    -------
    y_idx : ndarray of int64, shape (n_samples,)
        Index of each label in ``classes``.
    classes : ndarray, shape (n_classes,)
    """
    if isinstance(y, (pd.Series, pd.Categorical)) and isinstance(
        getattr(y, "dtype", None), pd.CategoricalDtype
    ):
        cat = pd.Categorical(y)
        classes = np.asarray(cat.categories)
        y_idx = np.asarray(cat.codes, dtype=np.int64)
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
        classes = np.unique(arr[~missing])
        y_idx = np.full(len(arr), -1, dtype=np.int64)
        y_idx[~missing] = np.searchsorted(classes, arr[~missing])
    if not allow_missing and np.any(y_idx < 0):
        raise ValueError("y contains missing labels")
    if len(classes) == 0:
        raise ValueError("y has no class label")
    return y_idx, classes


def check_fit_input(estimator, X, y, *, allow_missing_y=False):
    """Validate training data and store the encoding on ``estimator``.

    Sets ``n_features_in_``, ``n_values_``, ``classes_`` and, for DataFrames,
    ``feature_names_in_`` and ``categories_``.

    Returns
    -------
    codes : ndarray of int64, shape (n_samples, n_features)
    y_idx : ndarray of int64, shape (n_samples,)
    """
    codes, nv, cats, names = check_features(X)
    y_idx, classes = check_target(y, allow_missing=allow_missing_y)
    if len(codes) == 0:
        raise ValueError("empty training data: X has no rows")
    if len(codes) != len(y_idx):
        raise ValueError(f"X has {len(codes)} rows but y has {len(y_idx)}")
    estimator.n_features_in_ = codes.shape[1]
    estimator.n_values_ = nv
    estimator.classes_ = classes
    if names is not None:
        estimator.feature_names_in_ = names
        estimator.categories_ = cats
    return codes, y_idx


def check_predict_input(estimator, X):
    """Validate prediction data against what ``estimator`` learned in ``fit``.

    Returns
    -------
    codes : ndarray of int64, shape (n_samples, n_features)
        Codes in ``[-1, n_values_[j])``.
    """
    if not hasattr(estimator, "n_values_"):
        raise AttributeError(f"{type(estimator).__name__} is not fitted yet; call fit first")
    codes, _, _, _ = check_features(
        X,
        n_values=estimator.n_values_,
        categories=getattr(estimator, "categories_", None),
        feature_names=getattr(estimator, "feature_names_in_", None),
    )
    if codes.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"X has {codes.shape[1]} features, but {type(estimator).__name__} "
            f"is expecting {estimator.n_features_in_} features as input"
        )
    bad = codes >= estimator.n_values_[None, :]
    if bad.any():
        j = int(np.where(bad.any(axis=0))[0][0])
        name = estimator.feature_names_in_[j] if hasattr(estimator, "feature_names_in_") else j
        raise ValueError(
            f"column {name!r} has code {int(codes[bad.any(axis=1)][0, j])} outside the "
            f"{int(estimator.n_values_[j])} categories seen in fit"
        )
    return codes


def check_positive(name, value, *, strict=True):
    """Raise ValueError unless ``value`` is a finite real > 0 (>= 0 if not strict)."""
    if not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    if (value <= 0) if strict else (value < 0):
        raise ValueError(f"{name} must be {'>' if strict else '>='} 0; got {value!r}")
    return float(value)


def check_in_range(name, value, low, high, *, closed="both"):
    """Raise ValueError unless ``low <= value <= high`` (ends per ``closed``)."""
    if not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    lo_ok = value >= low if closed in ("both", "left") else value > low
    hi_ok = value <= high if closed in ("both", "right") else value < high
    if not (lo_ok and hi_ok):
        lb = "[" if closed in ("both", "left") else "("
        rb = "]" if closed in ("both", "right") else ")"
        raise ValueError(f"{name} must lie in {lb}{low}, {high}{rb}; got {value!r}")
    return float(value)
