"""Deletion mechanisms: make complete data incomplete, completely at random or not.

Controlled studies of classifiers for incomplete data start from complete data and delete
values by a known mechanism.  Two mechanisms are given, each deleting every observed cell
of the features independently (never the class):

* :func:`delete_at_random` -- missing completely at random (MCAR): every cell with the
  same probability ``rate``;
* :func:`delete_informatively` -- not missing at random: the probability depends on the
  cell's value *and* the row's class through a logistic (odds) form,
  ``logit p_ij = b + strength * h_ij``, where ``h_ij = 1`` when the value is *typical of
  the row's class* (more frequent among the rows of that class than in the whole data,
  :func:`typical_of_class`) and 0 otherwise.  With ``strength > 0`` the values that point
  to the row's class are hidden more often (the odds ratio is ``exp(strength)``); the
  intercept ``b`` is solved exactly so that the mean probability over the observed cells
  is ``rate``.

In both the number of deleted cells is ``rate`` times the number of observed cells in
expectation (exactly: the probabilities average to ``rate``).  Cells already missing stay
missing and are not counted.  The input is never modified: a new DataFrame is returned,
NaN where a value is missing (categorical columns keep their declared categories).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._validation import check_in_range

__all__ = ["delete_at_random", "delete_informatively", "deletion_probabilities",
           "typical_of_class"]

#: numeric columns enter :func:`typical_of_class` through their quartile group
N_GROUPS = 4


def _frame(X):
    """``X`` as a DataFrame (a new object; the data are copied when cells are deleted)."""
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {arr.shape}")
    return pd.DataFrame(arr)


def _delete(X, prob, random_state):
    """A copy of ``X`` (DataFrame) with cell ``(i, j)`` set missing with probability
    ``prob[i, j]``, one uniform draw per cell from ``random_state``."""
    rng = np.random.default_rng(random_state)
    drop = rng.random(prob.shape) < prob
    out = X.copy()
    for j, col in enumerate(X.columns):
        if drop[:, j].any():
            out[col] = X[col].where(~drop[:, j])
    return out


def _observed(X):
    obs = X.notna().to_numpy()
    if not obs.any():
        raise ValueError("X has no observed cell to delete")
    return obs


def _check_rate(rate):
    return check_in_range("rate", rate, 0.0, 1.0)


def delete_at_random(X, rate, random_state=None):
    """Delete feature values completely at random (MCAR).

    Parameters
    ----------
    X : DataFrame or array-like, shape (n_samples, n_features)
        The features (any dtypes; NaN = already missing).  Not modified.
    rate : float in [0, 1]
        Probability that an observed cell is deleted (each independently), hence the
        expected share of the observed cells deleted.
    random_state : int, numpy Generator or None
        Seed of the deletion (one uniform draw per cell).

    Returns
    -------
    DataFrame, shape (n_samples, n_features)
        A copy of ``X`` with NaN in the deleted cells (same index, columns and dtypes,
        except integer columns that receive a NaN, which become float).
    """
    rate = _check_rate(rate)
    X = _frame(X)
    return _delete(X, rate * _observed(X), random_state)


def typical_of_class(X, y):
    """Which cells hold a value typical of their row's class.

    Parameters
    ----------
    X : DataFrame or array-like, shape (n_samples, n_features)
        Features: categorical, object or boolean columns by value; numeric columns by
        quartile group (:data:`N_GROUPS` equal-frequency groups of the column's observed
        values).  NaN = missing.
    y : array-like, shape (n_samples,)
        Class labels, none missing.

    Returns
    -------
    ndarray of bool, shape (n_samples, n_features)
        ``h[i, j]`` is True when the value (group) ``v`` of cell ``(i, j)`` is more
        frequent among the rows of class ``y[i]`` than among all rows whose feature ``j``
        is observed: ``n(v, y_i) / n_j(y_i) > n(v) / n_j`` (observed counts).  False for
        missing cells.
    """
    X = _frame(X)
    yy = pd.Series(np.asarray(y, dtype=object) if not isinstance(y, pd.Series) else y)
    if len(yy) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(yy)}")
    if yy.isna().any():
        raise ValueError("y has missing labels; drop those rows before deleting values")
    cls = pd.factorize(yy, sort=True)[0]
    out = np.zeros(X.shape, dtype=bool)
    for j, col in enumerate(X.columns):
        v = X[col]
        if pd.api.types.is_numeric_dtype(v.dtype) and not pd.api.types.is_bool_dtype(v.dtype):
            x = v.to_numpy(dtype=float)
            edges = np.nanquantile(x, np.arange(1, N_GROUPS) / N_GROUPS) if np.isfinite(
                x).any() else np.array([])
            code = np.where(np.isnan(x), -1, np.searchsorted(edges, x, side="right"))
        else:
            code = pd.factorize(v, sort=False)[0]  # -1 for NaN
        obs = code >= 0
        if not obs.any():
            continue
        joint = np.zeros((cls.max() + 1, code.max() + 1))
        np.add.at(joint, (cls[obs], code[obs]), 1.0)
        within = joint / np.maximum(joint.sum(axis=1, keepdims=True), 1.0)
        overall = joint.sum(axis=0) / joint.sum()
        out[obs, j] = within[cls[obs], code[obs]] > overall[code[obs]]
    return out


def deletion_probabilities(X, y, rate, strength):
    """Per-cell deletion probabilities of :func:`delete_informatively`.

    ``p_ij = 1 / (1 + exp(-(b + strength * h_ij)))`` on observed cells, ``h`` from
    :func:`typical_of_class`, the intercept ``b`` the root of ``mean(p) = rate`` over the
    observed cells (a quadratic in ``exp(b)``, solved in closed form); 0 on missing cells.

    Parameters
    ----------
    X : DataFrame or array-like, shape (n_samples, n_features)
    y : array-like, shape (n_samples,)
    rate : float in [0, 1]
        Mean probability over the observed cells.
    strength : float
        Log odds ratio of deletion between a typical and an atypical cell (0: MCAR;
        negative: typical values deleted less often).

    Returns
    -------
    ndarray of float, shape (n_samples, n_features)
    """
    rate = _check_rate(rate)
    strength = check_in_range("strength", strength, -30.0, 30.0)
    X = _frame(X)
    obs, h = _observed(X), typical_of_class(X, y)
    if rate in (0.0, 1.0):
        return rate * obs
    k, a = h[obs].mean(), np.exp(strength)  # share of typical cells, odds ratio
    # k a u / (1 + a u) + (1 - k) u / (1 + u) = rate with u = exp(b):
    # a (1 - rate) u^2 + B u - rate = 0, one positive root
    A, B = a * (1.0 - rate), k * a + 1.0 - k - rate * (1.0 + a)
    root = np.sqrt(B * B + 4.0 * A * rate)
    u = 2.0 * rate / (B + root) if B > 0 else (root - B) / (2.0 * A)
    return np.where(h, a * u / (1.0 + a * u), u / (1.0 + u)) * obs


def delete_informatively(X, y, rate, strength, random_state=None):
    """Delete feature values by a mechanism that depends on the value and the class.

    Cell ``(i, j)`` is deleted with the probability of :func:`deletion_probabilities`:
    ``logit p_ij = b + strength * h_ij``, ``h_ij = 1`` when its value is typical of the
    row's class (:func:`typical_of_class`), ``b`` such that the probabilities average to
    ``rate`` over the observed cells.  Not missing at random whenever ``strength != 0``.

    Parameters
    ----------
    X : DataFrame or array-like, shape (n_samples, n_features)
        The features (any dtypes; NaN = already missing).  Not modified.
    y : array-like, shape (n_samples,)
        Class labels (none missing); never deleted.
    rate : float in [0, 1]
        Expected share of the observed cells deleted.
    strength : float in [-30, 30]
        Log odds ratio of deletion, typical against atypical cell (e.g. 2: odds 7.4
        times higher).
    random_state : int, numpy Generator or None
        Seed of the deletion (one uniform draw per cell).

    Returns
    -------
    DataFrame, shape (n_samples, n_features)
        A copy of ``X`` with NaN in the deleted cells (as :func:`delete_at_random`).
    """
    X = _frame(X)
    return _delete(X, deletion_probabilities(X, y, rate, strength), random_state)
