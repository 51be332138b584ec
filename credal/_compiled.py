"""The compiled (numba) kernels of the tree, AODE and naive classifiers, and what they share.

Node-by-node and row-by-row recursions (growing and pruning a tree, routing rows down it, counting
value pairs, multiplying SPODE probabilities) are written as loops and compiled by numba: per-node
or per-row numpy calls would cost more than the arithmetic. The kernels live in one module per
classifier, each imported on first use, so that ``import credal`` does not import numba; numba
compiles each kernel once and caches it next to its source file. A kernel calls only kernels of its
own module, because numba's cache does not notice a change of another file.

* this module: :func:`code_dtype`, the integer type of the code arrays every kernel reads, and
  :func:`route_complete`, the walk of complete rows down either tree of :mod:`credal.trees`;
* :mod:`credal._compiled_c45`: growing, collapsing and pruning of :class:`credal.trees.C45Tree`;
* :mod:`credal._compiled_credal_tree`: the imprecise information gains of
  :class:`credal.trees.CredalDecisionTree`;
* :mod:`credal._compiled_aode`: the pair counts, child tables and row-by-row
  classification of :mod:`credal.aode`;
* :mod:`credal._compiled_naive`: counting and scoring of :mod:`credal.naive`'s classifiers.
* :mod:`credal._compiled_networks`: forward sampling of :mod:`credal.networks`' networks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["code_dtype", "route_complete"]


def code_dtype(n_values):
    """Integer type of the code arrays passed to the kernels: int16, or int32 beyond
    32766 values (one compiled signature for most data, a quarter of int64's memory)."""
    return np.int16 if np.max(n_values, initial=0) < 32767 else np.int32


@njit(cache=True)
def route_complete(codes, feat, first):
    """Leaf reached by each row, or -1 for a row that meets a missing split value (a flattened tree
    of either tree classifier: children of node j are ``first[j] .. first[j] + n_children - 1``,
    ``feat[j] < 0`` at a leaf): ``codes`` (n_samples, n_features), ``feat`` and ``first``
    (n_nodes,) as returned by :func:`fit_c45`; returns ints (n_samples,).
    """
    out = np.empty(codes.shape[0], dtype=np.int64)
    for r in range(codes.shape[0]):
        j = 0
        while feat[j] >= 0:
            c = codes[r, feat[j]]
            if c < 0:
                j = -1
                break
            j = first[j] + c
        out[r] = j
    return out
