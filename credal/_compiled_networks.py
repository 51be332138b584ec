"""Compiled forward sampling of :mod:`credal.networks`, imported on first use (see
:mod:`credal._compiled`): the integer part of sampling many hashed random networks at once (the
configuration keys and their SplitMix64 hashes) and the per-node loop over the records of a
network with stored tables. Every floating-point operation of a CPT column stays in numpy, written
as :class:`credal.networks.RandomNetwork` writes it (numpy's logarithm may differ from the C
library's by one unit in the last place); the kernels only add and multiply integers modulo
2**64, gather and compare, so the codes are those of :func:`credal.networks.sample`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from credal._validation import check_int
from credal.networks import GOLDEN_GAMMA, random_structure

__all__ = ["CPT_COLUMNS", "column_chance", "sample_trials", "smallest_keys", "forward_stored",
           "random_parent_sets", "sample_random_trials"]

#: How a CPT column is drawn: uniformly on the simplex (normalised exponentials, as
#: :class:`credal.networks.RandomNetwork`), or as normalised uniforms (a sensitivity run:
#: a common reading of "uniform", more concentrated near the simplex's centre).
CPT_COLUMNS = ("simplex", "normalised-uniforms")
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_K0, _K1 = np.uint64(GOLDEN_GAMMA), np.uint64((2 * GOLDEN_GAMMA) % 2**64)  # states 0 and 1


@njit(cache=True)
def _mix(z):  # credal.networks.splitmix64 of one uint64, wrapping
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def smallest_keys(keys, rows, n_par, out):
    """Parent sets of :func:`credal.networks.random_structure`: into row ``rows[a]`` of ``out``,
    the positions, in increasing order, of the ``n_par[rows[a]]`` smallest of ``keys[a, :rows[a]]``
    (uniform keys). Returns False, leaving the block to numpy, where a key ties with the largest
    chosen one (the choice is unique otherwise, whatever the selection algorithm)."""
    for a in range(rows.shape[0]):
        i, kk = rows[a], n_par[rows[a]]
        if kk == 0:
            continue
        bound = np.partition(keys[a, :i].copy(), kk - 1)[kk - 1]
        cnt = 0
        for j in range(i):
            if keys[a, j] <= bound:
                if cnt == kk:
                    return False
                out[i, cnt] = j
                cnt += 1
    return True


@njit(cache=True)
def _node_hashes(x, i, k, table, P, M, S, z0, z1, cfg):
    """Hashes of both states' uniforms for node ``i`` of every trial: ``x`` (T, n_nodes, n) int8
    codes of the earlier nodes, parents ``P`` (T, n_nodes, k_all) and odd multipliers ``M`` (0:
    padding) of the keys, salts ``S`` (T, n_nodes). With ``table``, one key per configuration
    ``c < 2**k`` (bit ``d``: parent slot ``d``) into ``z0``, ``z1`` (T, 2**k) and the records'
    configurations into ``cfg`` (T, n); otherwise one key per record, ``z0``, ``z1`` (T, n)."""
    T, n = x.shape[0], x.shape[2]
    h = np.empty(z0.shape[1], np.uint64)
    for t in range(T):
        h[:] = S[t, i]
        if table:
            cfg[t] = 0
            for d in range(k):
                m = M[t, i, d]
                if m == 0:  # padding: the same key for either digit, so digit 0
                    continue
                for c in range(h.shape[0]):
                    if (c >> d) & 1:
                        h[c] += m
                row = x[t, P[t, i, d]]
                for r in range(n):
                    cfg[t, r] += np.int64(row[r]) << d
        else:
            for d in range(k):
                m = M[t, i, d]
                if m == 0:
                    continue
                row = x[t, P[t, i, d]]
                for r in range(n):
                    h[r] += m * np.uint64(row[r])
        for c in range(h.shape[0]):
            z0[t, c] = _mix(h[c] + _K0)
            z1[t, c] = _mix(h[c] + _K1)


@njit(cache=True)
def _draw(x, i, U, p, table, cfg):
    """Node ``i``'s codes: state 1 where the uniform ``U[t, i, r]`` reaches P(state 0)."""
    for t in range(x.shape[0]):
        for r in range(x.shape[2]):
            x[t, i, r] = U[t, i, r] >= (p[t, cfg[t, r]] if table else p[t, r])


def column_chance(z0, z1, columns="simplex"):
    """P(state 0) of the lazily generated columns of binary nodes whose states' SplitMix64
    outputs are ``z0``, ``z1`` (uint64, any shape): ``"simplex"``, the arithmetic of
    :class:`credal.networks.RandomNetwork` element by element; ``"normalised-uniforms"``
    normalises the same uniforms, not their exponentials. Returns float64, same shape."""
    if columns not in CPT_COLUMNS:
        raise ValueError(f"columns must be one of {CPT_COLUMNS}; got {columns!r}")

    def weight(z):  # the uniform drawn from a hash, and its weight
        u = ((z >> np.uint64(11)).astype(np.float64) + 0.5) * (1.0 / 9007199254740992.0)
        return -np.log(u) if columns == "simplex" else u

    e0, e1 = weight(z0), weight(z1)  # e0 + e1: the row sum of RandomNetwork
    return e0 / (e0 + e1)


def sample_trials(n_nodes, max_parents, n, seeds, columns):
    """:func:`credal.networks.sample_random_trials` (which documents it and checks its
    arguments): per seed the structure (:func:`credal.networks.random_structure`), the class
    node and the uniforms, drawn as :func:`credal.networks.random_network`,
    :func:`credal.networks.choose_class_node` and :func:`credal.networks.sample` draw them;
    then the trials are sampled together, node by node."""
    if columns not in CPT_COLUMNS:
        raise ValueError(f"columns must be one of {CPT_COLUMNS}; got {columns!r}")
    T, structures = len(seeds), []
    cls, U = np.empty(T, dtype=np.int64), np.empty((T, n_nodes, n))
    for t, s in enumerate(seeds):
        rng = np.random.default_rng(s)
        structures.append(random_structure(n_nodes, max_parents, rng))
        cls[t] = rng.integers(n_nodes)  # choose_class_node: every node has >= 2 states
        rng.random(out=U[t])  # the same draws as rng.random((n_nodes, n)), without a copy
    if T == 0:
        return np.zeros((0, n, n_nodes), dtype=np.int8), cls
    # the trials' parent sets and multipliers padded to each node's widest parent set
    k_all = max(p.shape[1] for _, p, _, _ in structures)
    P, M = (np.stack([np.pad(st[j], ((0, 0), (0, k_all - st[j].shape[1]))) for st in structures])
            for j in (1, 2))
    S = np.stack([st[3] for st in structures])
    k_node = np.max([st[0] for st in structures], axis=0)
    x = np.zeros((T, n_nodes, n), dtype=np.int8)
    cfg = np.zeros((T, n), dtype=np.int64)
    for i in range(n_nodes):
        k = int(k_node[i])
        # few parent configurations: one column per configuration, else one per record
        table = 2**k <= n
        z0 = np.empty((T, 2**k if table else n), dtype=np.uint64)
        z1 = np.empty_like(z0)
        _node_hashes(x, i, k, table, P, M, S, z0, z1, cfg)
        _draw(x, i, U, column_chance(z0, z1, columns), table, cfg)
    return np.ascontiguousarray(x.transpose(0, 2, 1)), cls


@njit(cache=True)
def forward_stored(parents, strides, first, cum, offset, width, u):
    """Forward sampling of a network with stored tables (:func:`credal.networks.forward_sample`):
    node ``i``'s parents and C-order strides are ``parents[first[i]:first[i + 1]]`` and
    ``strides[...]``; its thresholds, numpy's ``cumsum`` of each CPT row but the last state
    (n_configurations, ``width[i]`` = n_states - 1), flattened from ``cum[offset[i]]``; ``u``
    (n_nodes, n) uniforms. Returns int64 codes (n, n_nodes): thresholds reached."""
    n_nodes, n = u.shape
    x = np.empty((n, n_nodes), np.int64)
    for r0 in range(0, n, 64):  # blocks of records: their codes and uniforms stay in cache
        for i in range(n_nodes):
            w = width[i]
            for r in range(r0, min(n, r0 + 64)):
                j = 0
                for a in range(first[i], first[i + 1]):
                    j += x[r, parents[a]] * strides[a]
                s = 0
                for b in range(w):
                    s += u[i, r] >= cum[offset[i] + j * w + b]
                x[r, i] = s
    return x


def random_parent_sets(n_par, rng):
    """Padded parent sets: node i gets a uniformly random ``n_par[i]``-subset of ``range(i)``.
    The subset is the set of positions of the ``n_par[i]`` smallest of ``i`` i.i.d. uniform keys;
    rows are processed in blocks so that no more than about 4M keys exist at a time. Returns an
    int64 array (n, max(n_par)) whose row ``i`` holds node i's parents in increasing order, then
    zeros."""
    n = len(n_par)
    k_max = int(n_par.max()) if n else 0
    out = np.zeros((n, k_max), dtype=np.int64)
    if k_max == 0:
        return out
    step = max(1, (1 << 22) // n)
    for start in range(0, n, step):
        rows = np.arange(start, min(n, start + step))
        width = int(rows[-1])  # node i chooses among columns < i
        if width == 0:
            continue
        keys = rng.random((len(rows), width))
        if smallest_keys(keys, rows, n_par, out):  # else a tie: numpy's choice below
            continue
        keys[np.arange(width)[None, :] >= rows[:, None]] = np.inf
        k = min(k_max, width)
        cand = np.argpartition(keys, k - 1, axis=1)[:, :k]
        order = np.argsort(np.take_along_axis(keys, cand, axis=1), axis=1)
        cand = np.take_along_axis(cand, order, axis=1)
        # the n_par[i] candidates with the smallest keys, in increasing node order
        keep = np.arange(k)[None, :] < n_par[rows][:, None]
        chosen = np.sort(np.where(keep, cand, n), axis=1)
        out[rows, :k] = np.where(chosen < n, chosen, 0)
    return out


def sample_random_trials(n_nodes, max_parents, n, random_states, *, columns="simplex"):
    """Many independent (random binary network, class node, sample) draws at once.

    For each seed ``s`` of ``random_states`` this returns exactly what
    ``rng = np.random.default_rng(s)``, ``net = random_network(n_nodes, max_parents, rng)``,
    ``cls = net.index(choose_class_node(net, rng))`` and ``x = sample(net, n, rng,
    as_frame=False)`` return, but sampled node by node for all trials together (compiled):
    thousands of trials over networks of hundreds of nodes are cheap.

    Parameters
    ----------
    n_nodes, max_parents, n : int
        Nodes per network (>= 1), maximum in-degree (>= 0), records per trial (>= 1).
    random_states : sequence of int, SeedSequence or Generator
        One seed per trial.
    columns : {"simplex", "normalised-uniforms"}
        How CPT columns are drawn: uniformly on the simplex (:class:`RandomNetwork`), or as
        normalised uniforms (the same uniforms, not their exponentials; a sensitivity run).
        The equivalence above holds for ``"simplex"``; the other keeps the structures, class
        nodes and uniforms.

    Returns
    -------
    codes : ndarray of int8, shape (n_trials, n, n_nodes)
        Sampled state indices, nodes in network order.
    class_index : ndarray of int64, shape (n_trials,)
        Index of the class node chosen in each trial.
    """
    n_nodes, max_parents, n = (check_int(k, v, low) for k, v, low in (
        ("n_nodes", n_nodes, 1), ("max_parents", max_parents, 0), ("n", n, 1)))
    return sample_trials(n_nodes, max_parents, n, list(random_states), columns)
