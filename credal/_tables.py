"""Per-row sums of table rows indexed by category codes, and the naive count tables.

Several classifiers score an instance by a sum, over its observed features, of one row of a
per-(feature, category) table (the end terms of the NCC and LNCC certificates, with the naive Bayes
log-likelihood alongside; CMA's per-feature log-ratio bounds). Gathering one table row per feature
costs one pass over the rows per feature; here consecutive features are grouped so that one pass
serves a whole group, from a joint table (one row per combination of the group's categories,
missing included) built once per fitted model (:func:`joint_tables`, :func:`joint_sum`). The naive
classifiers of :mod:`credal.naive` count their training rows and sum their log conditionals the
same way, by groups of features (:func:`count_plan`), and predict once per distinct row
(:func:`unique_rows`). :class:`DerivedTables` keeps the tables derived from a fitted model. Not
public: the names are shared by the core modules.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["joint_tables", "joint_sum", "DerivedTables", "count_plan", "unique_rows"]

# Joint tables of feature groups (see joint_tables) hold at most this many rows.
_GROUP_ROWS = 256
# Counting and scoring of the naive classifiers visit consecutive features in groups
# whose joint table (missing included) times the number of classes has at most this
# many cells: one pass then serves several features while the tables stay small
# (larger groups bought no speed on the benchmark data sets, only memory).
_COUNT_CELLS = 1024


@functools.lru_cache(maxsize=64)
def _group_plan(n_values):
    """How the features of a model with these ``n_values`` (tuple, length m) are grouped.
    Consecutive features are grouped greedily while the product of their ``n_values + 1`` (missing
    included) stays within ``_GROUP_ROWS``. Returns ``(groups, mult, start)``: the groups (tuple of
    tuples of int); ``mult`` (float, (m, G)) such that ``(codes + 1) @ mult + start`` is the row of
    each group's joint table, stacked group after group (mixed radix, the group's first feature
    most significant; exact in floating point, the values being small integers); ``start`` (float,
    (G,)), the first row of each group's joint table."""
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


def joint_tables(tab, n_values):
    """Joint tables of feature groups, for :func:`joint_sum`.
    ``tab`` (S, ncol) has one row per (feature, category) cell, features in order
    (``n_values[j]`` rows for feature ``j``, ``n_values`` of shape (m,)); entries may be infinite
    as long as no column holds both signs. Returns ``(joint, mult, start)``: ``joint`` (R, ncol)
    holds, for each group of :func:`_group_plan`, one row per combination of its features'
    categories (missing included: adds nothing), the rows of ``tab`` summed, groups stacked;
    ``mult`` and ``start`` as in :func:`_group_plan`.
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


def joint_sum(init, tables, codes):
    """``init`` (ncol,) plus, per row of ``codes``, the table rows of its observed categories.
    ``tables`` is :func:`joint_tables` of the per-cell table; ``codes`` (n, m) are category
    codes, -1 (missing) adding nothing; the result has shape (n, ncol). One gather per feature
    group instead of one per feature (36 binary features: 8 gathers), from tables that stay in
    cache. Only the order of the floating-point additions differs from a feature-by-feature sum;
    the callers compare the sums with margins far above that rounding.
    """
    joint, mult, start = tables
    acc = np.broadcast_to(init, (codes.shape[0], joint.shape[1])).copy()
    if mult.shape[1]:
        keys = ((codes + 1.0) @ mult + start).astype(np.intp)  # (n, G)
        for g in range(keys.shape[1]):
            acc += joint[keys[:, g]]
    return acc


class DerivedTables:
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


@functools.lru_cache(maxsize=64)
def count_plan(n_values, K):
    """Feature groups for counting a naive model and summing its log conditionals (the kernels of
    :mod:`credal._compiled_naive`). Consecutive features are grouped while the joint table (missing
    included) times ``K`` has at most ``_COUNT_CELLS`` cells. Returns ``(plan, offsets, dtype)``:
    ``plan`` is the int64 arrays ``(r, place, first, start, P)``, radices ``n_values + 1`` and places
    (m,), such that a row's key in the joint table of group ``g`` (features ``first[g] .. first[g +
    1] - 1``, ``P[g]`` rows) is ``start[g] + sum_j code_j place_j`` (``start`` = the sum of the
    group's places: codes need no shift); ``offsets`` (m + 1,) the first column of each feature's
    categories side by side; ``dtype`` the kernels' code type (int16, or int32 beyond 32766)."""
    r = np.asarray(n_values, np.int64) + 1
    place, first, start, P, j = np.ones(r.size, np.int64), [0], [], [], 0
    while j < r.size:
        g0, size = j, int(r[j])
        while j + 1 < r.size and K * size * r[j + 1] <= _COUNT_CELLS:
            j += 1
            size *= int(r[j])
        j += 1
        place[g0:j] = [int(np.prod(r[k + 1:j])) for k in range(g0, j)]
        first.append(j), start.append(int(place[g0:j].sum())), P.append(size)
    plan = r, place, np.array(first, np.int64), np.array(start, np.int64), np.array(P, np.int64)
    off = np.concatenate([[0], np.cumsum(r - 1)]).astype(np.int64)
    return plan, off, np.int16 if np.max(r - 1, initial=0) < 32767 else np.int32


def unique_rows(codes, n_values):
    """Distinct rows of a code matrix ``codes`` (n, m; -1 = missing; ``n_values`` (m,)).
    Returns ``(rows, inverse)``: the distinct rows (u, m), in increasing order of their
    mixed-radix integer key, when that key fits in 62 bits, otherwise ``codes`` itself (no search
    for repeats); and ``inverse`` (n,) with ``rows[inverse]`` equal to ``codes``.
    """
    n, m = codes.shape
    if n < 2 or m == 0:
        inv = np.zeros(n, dtype=np.int64) if m == 0 else np.arange(n)
        return codes[: min(n, 1)] if m == 0 else codes, inv
    radix = np.asarray(n_values, dtype=np.float64) + 1.0
    bits = np.sum(np.log2(radix))
    if bits < 62:
        mult = np.ones(m, dtype=np.int64)
        mult[1:] = np.cumprod(radix[:-1].astype(np.int64))
        if 2.0**bits <= 8 * n + 4096:  # few possible rows: a presence table, O(n), compiled
            from ._compiled_naive import distinct_rows
            first, inv = distinct_rows(np.asarray(codes, np.int64), mult,
                                       int(round(2.0**bits)) + 1)
            return codes[first], inv
        _, first, inv = np.unique((codes + 1) @ mult, return_index=True, return_inverse=True)
        return codes[first], inv.reshape(-1)
    # too many possible rows for an integer key: repeated rows are then rare, and
    # sorting whole rows would cost more than it saves
    return codes, np.arange(n)
