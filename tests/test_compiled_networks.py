"""The compiled sampling of credal.networks (credal._compiled_networks) against copies of the
implementations it replaced (issue 27): the batched sampler of many random networks
(``sample_random_trials``), the parent sets of ``random_structure`` and ``forward_sample`` of
networks with stored tables give the same codes, element for element (np.array_equal)."""

from __future__ import annotations

import numpy as np
import pytest

from credal import _compiled_networks
from credal._validation import check_int
from credal.networks import (GOLDEN_GAMMA, BayesianNetwork, choose_class_node, forward_sample,
                             load_network, random_network, random_structure, sample,
                             sample_random_trials, splitmix64)

# ---------------------------------------------------------------------------------------------
# The reference: verbatim copies of the code before issue 27's kernels (credal.networks'
# parent sets and structure, the chapter exact_model_averaging's batched sampler)
# ---------------------------------------------------------------------------------------------


def ref_random_parent_sets(n_par, rng):
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


def ref_random_structure(n_nodes, max_parents, rng):
    """A random DAG (Dash & Cooper's Procedure 1) plus the lazy-CPT keys.

    Node ``i`` gets a number of parents drawn uniformly from ``0..min(i, max_parents)``
    and that many distinct parents among the nodes before it, all drawn from ``rng``
    in a fixed order (so a seed gives one structure).

    Parameters
    ----------
    n_nodes : int
    max_parents : int
    rng : numpy.random.Generator

    Returns
    -------
    n_par : ndarray of int, shape (n_nodes,)
        Number of parents of each node.
    parents : ndarray of int, shape (n_nodes, max(n_par))
        Parent indices, padded with zeros.
    multipliers : ndarray of uint64, shape (n_nodes, max(n_par))
        Odd 64-bit multipliers of the configuration keys; 0 as padding (a zero
        multiplier adds nothing to a key).
    salts : ndarray of uint64, shape (n_nodes,)
        Per-node salts of the keys.
    """
    n_par = rng.integers(0, np.minimum(np.arange(n_nodes), max_parents) + 1)
    parents = ref_random_parent_sets(n_par, rng)
    # odd multipliers keep the linear key injective in each coordinate modulo 2**64
    mult = rng.integers(0, 2**63, size=int(n_par.sum()), dtype=np.uint64)
    mult_pad = np.zeros(parents.shape, dtype=np.uint64)
    mult_pad[np.arange(parents.shape[1])[None, :] < n_par[:, None]] = (
        mult * np.uint64(2) + np.uint64(1))
    salts = rng.integers(0, 2**63, size=n_nodes, dtype=np.uint64) * np.uint64(2)
    return n_par, parents, mult_pad, salts




def _key_sums(v, m, parents=None):
    """``sum_j v[t, j, r] * m[t, j]`` modulo 2**64 of binary values ``v``, shape (T, n), with
    floating-point BLAS: the multipliers cut into ``bits``-bit pieces so that every float64
    product is exact (``k < 2**(53 - bits)``: 32-bit pieces, two matrix columns, else 16-bit
    ones, four), recombined with wrapping uint64 shifts; about twice as fast as uint64
    multiply-and-sum. With ``parents`` (T, k), the parents of node ``i = v.shape[1]``, ``v``
    (T, i, n) holds the float64 values of all earlier nodes and the multipliers are scattered
    into a dense (i, pieces) matrix, zero for non-parents: when most earlier nodes are
    parents, as many operations as the gathered product without gathering the values."""
    T, k = v.shape[:2]
    bits = 32 if k < 2**21 else 16
    mask = np.uint64((1 << bits) - 1)
    pieces = np.stack([((m >> np.uint64(bits * c)) & mask).astype(np.float64)
                       for c in range(64 // bits)], axis=2)  # (T, k, pieces)
    if parents is not None:
        dense = np.zeros((T, k, pieces.shape[2]))
        real = m != 0  # padding has multiplier 0 and may point at node 0
        dense[np.broadcast_to(np.arange(T)[:, None], m.shape)[real], parents[real]] = pieces[real]
        pieces = dense
    part = np.matmul(v.astype(np.float64, copy=False).transpose(0, 2, 1), pieces)
    shift = np.uint64(bits) * np.arange(part.shape[-1], dtype=np.uint64)
    return (part.astype(np.uint64) << shift).sum(axis=-1, dtype=np.uint64)


#: How a CPT column is drawn: uniformly on the simplex (normalised exponentials, as
#: :class:`credal.networks.RandomNetwork`), or as normalised uniforms (the sensitivity run:
#: a common reading of "uniform", more concentrated near the simplex's centre).
_CPT_COLUMNS = ("simplex", "normalised-uniforms")


def _positive_columns(h, keys, columns="simplex"):
    """P(state 0), (T, m), of the lazily generated CPT columns of every key in ``h`` (T, m),
    binary nodes; ``"simplex"``: the arithmetic of :meth:`RandomNetwork._conditional`, element
    by element; ``"normalised-uniforms"`` normalises the same uniforms, not their exponentials."""
    if columns not in _CPT_COLUMNS:
        raise ValueError(f"columns must be one of {_CPT_COLUMNS}; got {columns!r}")

    def weight(z):  # the uniform drawn from a hash, and its weight
        u = ((z >> np.uint64(11)).astype(np.float64) + 0.5) * (1.0 / 9007199254740992.0)
        return -np.log(u) if columns == "simplex" else u

    # the two states' weights as separate contiguous arrays; e0 + e1: the row sum of _conditional
    e0, e1 = weight(splitmix64(h + keys[0])), weight(splitmix64(h + keys[1]))
    return e0 / (e0 + e1)


def ref_sample_random_trials(n_nodes, max_parents, n, random_states, *, columns="simplex"):
    """Many independent (random binary network, class node, sample) draws at once.

    For each seed ``s`` of ``random_states`` this returns exactly what

    .. code-block:: python

        rng = np.random.default_rng(s)
        net = random_network(n_nodes, max_parents, rng)
        cls = net.index(choose_class_node(net, rng))
        x = sample(net, n, rng, as_frame=False)

    returns, but the forward sampler runs once per node position for all trials together
    (padded parent sets; a zero multiplier leaves the configuration key unchanged): the
    per-node cost of the Python loop, shared, makes thousands of trials over networks of up
    to 501 nodes cheap.

    Parameters
    ----------
    n_nodes, max_parents, n : int
        Nodes per network (features + class, >= 1), maximum in-degree N_k (>= 0), records
        per trial (>= 1).
    random_states : sequence of int, SeedSequence or Generator
        One seed per trial.
    columns : {"simplex", "normalised-uniforms"}
        How CPT columns are drawn (:data:`_CPT_COLUMNS`); the equivalence above holds
        for ``"simplex"``, the other keeps the structures, class nodes and uniforms.

    Returns
    -------
    codes : ndarray of int8, shape (n_trials, n, n_nodes)
        Sampled state indices, nodes in network order.
    class_index : ndarray of int64, shape (n_trials,)
        Index of the class node chosen in each trial.
    """
    n_nodes, max_parents, n = (check_int(k, v, low) for k, v, low in (
        ("n_nodes", n_nodes, 1), ("max_parents", max_parents, 0), ("n", n, 1)))
    if not (seeds := list(random_states)):
        return np.zeros((0, n, n_nodes), dtype=np.int8), np.zeros(0, dtype=np.int64)
    T, structures = len(seeds), []
    cls, U = np.empty(T, dtype=np.int64), np.empty((T, n_nodes, n))
    for t, s in enumerate(seeds):
        rng = np.random.default_rng(s)
        structures.append(ref_random_structure(n_nodes, max_parents, rng))
        cls[t] = rng.integers(n_nodes)  # choose_class_node: every node has >= 2 states
        rng.random(out=U[t])  # the same draws as rng.random((n_nodes, n)), without a copy
    x = _sample_structures(structures, U, columns)
    return np.ascontiguousarray(x.transpose(0, 2, 1)), cls


def _sample_structures(structures, U, columns):
    """Forward sampling of every trial of :func:`sample_random_trials` at once: the
    trials' :func:`credal.networks.random_structure` draws (parent sets, key multipliers,
    seeds; padded here to each node's widest parent set) and uniforms ``U`` (T, n_nodes,
    n) -> codes, int8 (T, n_nodes, n)."""
    T, n_nodes, n = U.shape
    k_all = max(p.shape[1] for _, p, _, _ in structures)
    P, M = (np.stack([np.pad(st[j], ((0, 0), (0, k_all - st[j].shape[1]))) for st in structures])
            for j in (1, 2))
    S = np.stack([st[3] for st in structures])
    k_node = np.max([st[0] for st in structures], axis=0)  # widest parent set per node
    # few parent configurations: one column per configuration; otherwise one per
    # record, keyed from all earlier nodes at once when most of them are parents
    table = [2**int(k) <= max(n, 1) for k in k_node]
    dense = [not tb and 2 * int(k) > i for i, (k, tb) in enumerate(zip(k_node, table))]
    x = np.zeros((T, n_nodes, n), dtype=np.int8)
    xf = np.zeros((T, n_nodes, n)) if any(dense) else None  # float64 copy of x for BLAS
    tt = np.arange(T)[:, None]
    keys = np.arange(1, 3, dtype=np.uint64) * np.uint64(GOLDEN_GAMMA)
    for i in range(n_nodes):
        k = int(k_node[i])
        if table[i]:
            # padded parents have multiplier 0, so every digit gives the same key
            digits = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
            h = (digits.astype(np.uint64)[None] * M[:, i, None, :k]).sum(
                axis=2, dtype=np.uint64) + S[:, i, None]  # (T, 2**k)
            cfg = np.zeros((T, n), dtype=np.int64)  # configuration index of each record
            for d in range(k):
                cfg += x[tt[:, 0], P[:, i, d]] * np.int64(2**d)
        elif dense[i]:
            h = _key_sums(xf[:, :i], M[:, i, :k], parents=P[:, i, :k]) + S[:, i, None]
        else:  # from the parent values, (T, k, n)
            h = _key_sums(x[tt, P[:, i, :k]], M[:, i, :k]) + S[:, i, None]  # (T, n)
        # the column of RandomNetwork._conditional for every key, all trials at once
        p = _positive_columns(h, keys, columns)
        if table[i]:
            p = np.take_along_axis(p, cfg, axis=1)
        x[:, i] = U[:, i] >= p
        if xf is not None:
            xf[:, i] = x[:, i]
    return x




def ref_forward_sample(network, u):
    n = u.shape[1]
    x = np.empty((n, network.n_nodes), dtype=np.int64, order="F")
    for i in range(network.n_nodes):
        p = network._conditional(i, x[:, network.parent_indices[i]])
        r = p.shape[1]
        if r == 1:
            x[:, i] = 0
        elif r == 2:
            x[:, i] = u[i] >= p[:, 0]
        else:
            # count thresholds passed; the last state takes any rounding remainder
            x[:, i] = (u[i][:, None] >= np.cumsum(p[:, :-1], axis=1)).sum(axis=1)
    return np.ascontiguousarray(x)


# ---------------------------------------------------------------------------------------------
# The comparisons
# ---------------------------------------------------------------------------------------------


def _cases(n_cases, seed):
    rng = np.random.default_rng(seed)
    for c in range(n_cases):
        n_nodes = int(rng.integers(1, 13))
        yield (n_nodes, int(rng.integers(0, n_nodes + 1)), int(rng.integers(1, 301)),
               [np.random.SeedSequence(int(rng.integers(2**31)), spawn_key=(t,))
                for t in range(int(rng.integers(1, 6)))], ("simplex", "normalised-uniforms")[c % 2])


@pytest.mark.parametrize("seed", range(4))
def test_sample_random_trials_equals_the_replaced_sampler(seed):
    """n_nodes 1..12, max_parents 0..n_nodes, n 1..300, 1-5 trials, both kinds of columns."""
    for n_nodes, k, n, seeds, columns in _cases(60, seed):
        a, ca = ref_sample_random_trials(n_nodes, k, n, seeds, columns=columns)
        b, cb = sample_random_trials(n_nodes, k, n, seeds, columns=columns)
        assert b.dtype == np.int8 and b.shape == (len(seeds), n, n_nodes)
        assert np.array_equal(a, b) and np.array_equal(ca, cb), (n_nodes, k, n, columns)


@pytest.mark.parametrize("n_nodes, k, n", [
    (201, 200, 300),  # the density test's densest setting: keys per record, most nodes parents
    (201, 5, 2000),   # the training-records test: one column per configuration
    (501, 5, 40),     # the nodes test's largest network
    (60, 9, 300),     # 2**9 > 300: keys per record beside configuration columns
    (120, 60, 20),    # parent sets padded to different widths across trials
])
@pytest.mark.parametrize("columns", ["simplex", "normalised-uniforms"])
def test_sample_random_trials_equals_the_replaced_sampler_on_the_chapters_sizes(n_nodes, k, n,
                                                                                 columns):
    seeds = [np.random.SeedSequence(27, spawn_key=(n_nodes, k, t)) for t in range(3)]
    a, ca = ref_sample_random_trials(n_nodes, k, n, seeds, columns=columns)
    b, cb = sample_random_trials(n_nodes, k, n, seeds, columns=columns)
    assert np.array_equal(a, b) and np.array_equal(ca, cb)


def test_sample_random_trials_is_random_network_and_sample():
    """The definition, on many small cases (the chapter's tests check larger ones)."""
    for n_nodes, k, n, seeds, _ in _cases(40, 9):
        codes, cls = sample_random_trials(n_nodes, k, n, seeds)
        for t, s in enumerate(seeds):
            rng = np.random.default_rng(s)
            net = random_network(n_nodes, k, rng)
            assert net.nodes[cls[t]] == choose_class_node(net, rng)
            assert np.array_equal(codes[t], sample(net, n, rng, as_frame=False))


def test_sample_random_trials_arguments():
    codes, cls = sample_random_trials(5, 2, 10, [])
    assert codes.shape == (0, 10, 5) and codes.dtype == np.int8 and cls.shape == (0,)
    with pytest.raises(ValueError, match="n must be >= 1"):
        sample_random_trials(5, 2, 0, [1])
    with pytest.raises(ValueError, match="columns"):
        sample_random_trials(5, 2, 10, [1], columns="beta")


@pytest.mark.parametrize("n_nodes", [1, 2, 7, 64, 300, 600])
def test_random_structure_equals_the_replaced_one(n_nodes):
    for max_parents in sorted({0, 1, 3, n_nodes // 2, n_nodes}):
        for seed in range(5):
            a = ref_random_structure(n_nodes, max_parents, np.random.default_rng(seed))
            b = random_structure(n_nodes, max_parents, np.random.default_rng(seed))
            assert all(np.array_equal(u, v) and u.dtype == v.dtype for u, v in zip(a, b))


def test_parent_sets_of_tied_keys_are_left_to_numpy(monkeypatch):
    """A key equal to the largest chosen one: the kernel declines, numpy chooses as before."""
    keys = np.array([[0.5, 0.0, 0.0], [0.25, 0.5, 0.25]])
    out = np.zeros((4, 2), dtype=np.int64)
    assert not _compiled_networks.smallest_keys(keys, np.array([2, 3]), np.array([0, 0, 1, 1]),
                                                out)
    assert _compiled_networks.smallest_keys(keys, np.array([2, 3]), np.array([0, 0, 1, 2]), out)
    assert out[2, 0] == 1 and list(out[3]) == [0, 2]
    monkeypatch.setattr(_compiled_networks, "smallest_keys", lambda *a: False)
    for seed in range(3):
        a = ref_random_structure(80, 20, np.random.default_rng(seed))
        b = random_structure(80, 20, np.random.default_rng(seed))
        assert all(np.array_equal(u, v) for u, v in zip(a, b))


def test_column_chance_formulas():
    h = np.arange(1000, dtype=np.uint64)[None, :] * np.uint64(7919)
    keys = np.arange(1, 3, dtype=np.uint64) * np.uint64(GOLDEN_GAMMA)
    z0, z1 = splitmix64(h + keys[0]), splitmix64(h + keys[1])
    for columns in ("simplex", "normalised-uniforms"):
        assert np.array_equal(_compiled_networks.column_chance(z0, z1, columns),
                              _positive_columns(h, keys, columns))


def _three_state_network():
    """Roots and children with one to four states, in an order that is not by name."""
    states = [("a",), ("a", "b", "c"), ("a", "b"), ("a", "b", "c", "d"), ("a", "b", "c")]
    parents = [[], [], [1], [1, 2], [0, 3, 1]]
    rng = np.random.default_rng(4)
    cpts = []
    for st, pa in zip(states, parents):
        t = rng.random((int(np.prod([len(states[p]) for p in pa])), len(st)))
        cpts.append(t / t.sum(axis=1, keepdims=True))
    return BayesianNetwork([f"V{i}" for i in range(5)], states, parents, cpts)


@pytest.mark.parametrize("network", ["alarm", "hepar2", "small"])
def test_forward_sample_of_stored_tables_equals_the_replaced_loop(network):
    net = _three_state_network() if network == "small" else load_network(network)
    for seed in range(3):
        u = np.random.default_rng(seed).random((net.n_nodes, 3000))
        if seed == 2:  # uniforms on the thresholds themselves (state 1 where u >= P(state 0))
            for i in range(net.n_nodes):
                cum = np.cumsum(net.cpt(i)[:, :-1], axis=1).ravel()
                if cum.size:
                    u[i, :1000] = np.random.default_rng(i).choice(cum, 1000)
        a, b = ref_forward_sample(net, u), forward_sample(net, u)
        assert a.dtype == b.dtype == np.int64 and b.flags.c_contiguous
        assert np.array_equal(a, b)
