"""Per-row sums of table rows indexed by category codes, by joint tables of feature groups.

Several classifiers score an instance by a sum, over its observed features, of one
row of a per-(feature, category) table (the end terms of the NCC and LNCC
certificates, with the naive Bayes log-likelihood alongside; CMA's per-feature
log-ratio bounds).  Gathering
one table row per feature costs one pass over the rows per feature; here
consecutive features are grouped so that one pass serves a whole group, from a
joint table (one row per combination of the group's categories, missing
included) built once per fitted model.  Not public.
"""

from __future__ import annotations

import functools

import numpy as np

__all__: list[str] = []

# Joint tables of feature groups (see _joint_tables) hold at most this many rows.
_GROUP_ROWS = 256


@functools.lru_cache(maxsize=64)
def _group_plan(n_values):
    """How the features of a model with these ``n_values`` are grouped.

    Consecutive features are grouped greedily while the product of their
    ``n_values + 1`` (missing included) stays within ``_GROUP_ROWS``.

    Parameters
    ----------
    n_values : tuple of int, length m

    Returns
    -------
    groups : tuple of tuples of int
    mult : float ndarray, shape (m, G)
        ``(codes + 1) @ mult + start`` is the row of each group's joint table,
        stacked group after group (mixed radix, the group's first feature most
        significant; exact in floating point, the values being small integers).
    start : float ndarray, shape (G,)
        First row of each group's joint table.
    """
    nv = np.asarray(n_values, dtype=np.int64)
    m = nv.size
    groups, j = [], 0
    while j < m:
        g, size = [j], nv[j] + 1
        j += 1
        while j < m and size * (nv[j] + 1) <= _GROUP_ROWS:
            g.append(j)
            size *= nv[j] + 1
            j += 1
        groups.append(tuple(g))
    mult = np.zeros((m, len(groups)))
    start = np.zeros(len(groups))
    row = 0
    for gi, g in enumerate(groups):
        radix = nv[list(g)] + 1
        place = np.ones(len(g))
        place[:-1] = np.cumprod(radix[::-1])[::-1][1:]
        mult[list(g), gi] = place
        start[gi] = row
        row += int(np.prod(radix))
    return tuple(groups), mult, start


def _joint_tables(tab, n_values):
    """Joint tables of feature groups, for :func:`_joint_sum`.

    Parameters
    ----------
    tab : ndarray, shape (S, ncol)
        One row per (feature, category) cell, features in order (``n_values[j]``
        rows for feature ``j``).  Entries may be infinite as long as no column
        holds both signs.
    n_values : int array, shape (m,)

    Returns
    -------
    joint : ndarray, shape (R, ncol)
        For each group of :func:`_group_plan`, one row per combination of its
        features' categories (missing included: adds nothing), the rows of
        ``tab`` summed; groups stacked.
    mult, start
        As in :func:`_group_plan`.
    """
    n_values = tuple(int(v) for v in n_values)
    groups, mult, start = _group_plan(n_values)
    ncol = tab.shape[1]
    off = np.concatenate([[0], np.cumsum(n_values)]).astype(np.int64)
    parts = []
    for g in groups:
        joint = np.zeros((1, ncol))
        for j in g:
            local = np.zeros((n_values[j] + 1, ncol))  # row 0: feature missing
            local[1:] = tab[off[j]:off[j + 1]]
            joint = (joint[:, None, :] + local[None, :, :]).reshape(-1, ncol)
        parts.append(joint)
    joint = np.concatenate(parts) if parts else np.zeros((0, ncol))
    return joint, mult, start


def _joint_sum(init, tables, codes):
    """``init`` plus, per row, the table rows of its observed categories.

    Parameters
    ----------
    init : ndarray, shape (ncol,)
    tables : tuple
        :func:`_joint_tables` of the per-cell table.
    codes : int array, shape (n, m)
        Category codes; -1 (missing) adds nothing.

    Returns
    -------
    ndarray, shape (n, ncol)

    Notes
    -----
    One gather per feature group instead of one per feature (36 binary
    features: 8 gathers), from tables that stay in cache.  Only the order of the
    floating-point additions differs from a feature-by-feature sum; the callers
    compare the sums with margins far above that rounding.
    """
    joint, mult, start = tables
    acc = np.broadcast_to(init, (codes.shape[0], joint.shape[1])).copy()
    if mult.shape[1]:
        keys = ((codes + 1.0) @ mult + start).astype(np.intp)  # (n, G)
        for g in range(keys.shape[1]):
            acc += joint[keys[:, g]]
    return acc


class _DerivedTables:
    """Mixin: tables derived from a fitted model, built on first use.

    ``fit`` must call :meth:`_reset_derived`; the tables are left out of pickles
    (rebuilt on demand).
    """

    def _reset_derived(self):
        self._derived = {}

    def _derived_tables(self, key, build):
        """``build()``, remembered until the next fit under ``key`` (which names
        the parameters the tables depend on besides the fitted state)."""
        derived = self.__dict__.setdefault("_derived", {})
        if key not in derived:
            derived[key] = build()
        return derived[key]

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_derived", None)
        return state
