"""The imprecise Dirichlet model (IDM) for one categorical variable.

With counts ``n_1..n_K`` (total ``N``) and prior strength ``s > 0``, the IDM's
posterior credal set is the set of Dirichlet posteriors with parameters ``n_k + s t_k``
for every ``t`` in the open simplex.  Its posterior expectations of ``theta_k`` range
over the interval ``[n_k / (N + s), (n_k + s) / (N + s)]`` (Walley, 1996); these are
the bounds every credal classifier of the compendium starts from.
"""

from __future__ import annotations

import numpy as np

from credal._validation import check_positive

__all__ = ["idm_interval", "idm_expectations"]


def _counts(counts):
    n = np.asarray(counts, dtype=float)
    if n.ndim == 0 or n.shape[-1] < 1:
        raise ValueError("counts must have at least one category (last axis)")
    if np.isnan(n).any():
        raise ValueError("counts contain NaN")
    if (n < 0).any():
        raise ValueError("counts must be non-negative")
    return n


def idm_interval(counts, s=1.0):
    """Lower and upper posterior probabilities of each category under the IDM.

    Parameters
    ----------
    counts : array-like, shape (..., K)
        Non-negative counts; the last axis indexes categories.
    s : float
        Prior strength (> 0); ``s = 1`` and ``s = 2`` are the usual choices.

    Returns
    -------
    lower, upper : ndarray, shape (..., K)
        ``n_k / (N + s)`` and ``(n_k + s) / (N + s)``.
    """
    s = check_positive("s", s)
    n = _counts(counts)
    total = n.sum(axis=-1, keepdims=True) + s
    return n / total, (n + s) / total


def idm_expectations(counts, s, t):
    """Posterior expectations ``(n_k + s t_k) / (N + s)`` for prior means ``t``.

    Parameters
    ----------
    counts : array-like, shape (K,)
    s : float
        Prior strength (> 0).
    t : array-like, shape (..., K)
        Points of the simplex (rows summing to 1).

    Returns
    -------
    ndarray, shape (..., K)
    """
    s = check_positive("s", s)
    n = _counts(counts)
    t = np.asarray(t, dtype=float)
    if t.shape[-1] != n.shape[-1]:
        raise ValueError(f"t has {t.shape[-1]} categories but counts have {n.shape[-1]}")
    if (t < 0).any() or not np.allclose(t.sum(axis=-1), 1.0):
        raise ValueError("t must lie in the simplex (non-negative rows summing to 1)")
    return (n + s * t) / (n.sum() + s)
