"""Discrete Bayesian networks: BIF files, random networks, forward sampling.

This module supplies the data-generating side of Dash & Cooper's experiments with
model-averaged naive Bayes:

* :class:`BayesianNetwork` holds nodes in topological order, their states, their parents and one
  conditional probability table (CPT) per node; :func:`read_bif` / :func:`load_network` build one
  from a BIF file (ALARM and HEPAR II ship with the project);
* :func:`random_network` follows the paper's Procedure 1 and returns a :class:`RandomNetwork` whose
  CPT columns are uniform draws from the probability simplex, generated lazily: a column is a
  deterministic function of the node and of the parent values, so in-degrees of several hundred
  never materialise ``2**k`` columns;
* :func:`sample` draws records by forward sampling, vectorised over records;
  :func:`sample_random_trials` draws many (random network, class node, records)
  trials at once, vectorised over trials as well;
* :func:`exact_marginal` computes exact joint marginals by variable elimination
  (reference values for checking the sampler);
* :func:`choose_class_node` and :func:`split_class` set up the classification
  experiments (they are scored with the ROC helpers of :mod:`credal.metrics`).

CPT layout: ``cpt(node)`` has shape ``(n_configurations, n_states)``; row ``j`` is the distribution
of the node for the ``j``-th parent configuration, parent configurations being enumerated in C
order of the parents' states (the last parent varies fastest), as in pgmpy's BIF reader.
"""

from __future__ import annotations

import math
import numbers
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._validation import check_int

__all__ = ["BayesianNetwork", "RandomNetwork", "NETWORK_NAMES", "read_bif", "load_network",
           "random_network", "sample", "sample_random_trials", "exact_marginal",
           "choose_class_node", "split_class", "MAX_BIF_CELLS",
           # building blocks of the lazily generated networks, for studies that sample
           # many random networks in batches (the exact-model-averaging chapter)
           "GOLDEN_GAMMA", "splitmix64", "random_structure", "forward_sample"]

_DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "raw"
_NETWORK_FILES = {"alarm": "alarm.bif", "hepar2": "hepar2.bif"}
#: Names accepted by :func:`load_network`.
NETWORK_NAMES = tuple(_NETWORK_FILES)

# A CPT row may deviate from summing to one by this much (rounded published tables).
_ROW_SUM_TOL = 1e-6
# Lazily generated CPTs are materialised on request only up to this many columns.
_MAX_MATERIALISED_CONFIGS = 1 << 22
#: Largest conditional probability table :func:`read_bif` accepts, in cells (parent
#: configurations x states): 2**24 cells are 128 MiB of float64, far beyond any published
#: network (HEPAR II's largest table has 1,152 cells) and small enough to allocate safely.
MAX_BIF_CELLS = 1 << 24


# ----------------------------------------------------------------------------- Networks
class BayesianNetwork:
    """A discrete Bayesian network with nodes in topological order.

    Parameters
    ----------
    nodes : sequence of str, length n_nodes
        Node names, in a topological order (every parent before its children).
    states : sequence of sequences of str
        State names of each node.
    parents : sequence of sequences of str or int
        Parents of each node, by name or index.
    cpts : sequence of array-like, shape (n_configurations, n_states) each
        Conditional probability tables; row ``j`` is the distribution for the
        ``j``-th parent configuration in C order of the parents' states.
    name : str
        A label for the network.

    Attributes
    ----------
    nodes : tuple of str
    n_states : ndarray of int64, shape (n_nodes,)
    parent_indices : tuple of ndarray of int64
        Indices (into ``nodes``) of each node's parents, in declared order.
    """

    def __init__(self, nodes, states, parents, cpts, name="network"):
        self.name = str(name)
        self.nodes = tuple(str(v) for v in nodes)
        n = len(self.nodes)
        if n == 0:
            raise ValueError("a network needs at least one node")
        if len(set(self.nodes)) != n:
            dup = sorted({v for v in self.nodes if self.nodes.count(v) > 1})
            raise ValueError(f"duplicate node names: {dup}")
        self._index = {v: i for i, v in enumerate(self.nodes)}
        if len(states) != n or len(parents) != n:
            raise ValueError(
                f"got {n} nodes but {len(states)} state lists and {len(parents)} parent lists")
        self._states = tuple(tuple(str(s) for s in st) for st in states)
        for v, st in zip(self.nodes, self._states):
            if len(st) == 0:
                raise ValueError(f"node {v!r} has no state")
            if len(set(st)) != len(st):
                raise ValueError(f"node {v!r} has duplicate state names {list(st)}")
        self.n_states = np.array([len(s) for s in self._states], dtype=np.int64)
        pidx = []
        for i, pa in enumerate(parents):
            if isinstance(pa, np.ndarray) and pa.dtype.kind in "iu":
                idx = pa.astype(np.int64)  # fast path for index arrays
            else:
                idx = np.array([self.index(p) for p in pa], dtype=np.int64)
            if len(idx) and (idx.min() < 0 or len(np.unique(idx)) != len(idx)):
                raise ValueError(f"node {self.nodes[i]!r} lists a parent twice or a bad index")
            if len(idx) and idx.max() >= i:
                bad = self.nodes[int(idx[idx >= i][0])] if idx.max() < n else str(idx.max())
                raise ValueError(f"nodes are not in topological order: {bad!r} is a parent of "
                                 f"{self.nodes[i]!r} but does not come before it")
            pidx.append(idx)
        self.parent_indices = tuple(pidx)
        if cpts is None:  # lazy subclass: no tables, no configuration indices
            self._cpts = None
            return
        self._strides = tuple(_c_strides(self.n_states[p]) for p in self.parent_indices)
        if len(cpts) != n:
            raise ValueError(f"got {n} nodes but {len(cpts)} CPTs")
        tables = []
        for i, t in enumerate(cpts):
            t = np.array(t, dtype=np.float64)
            shape = (int(np.prod(self.n_states[self.parent_indices[i]])), int(self.n_states[i]))
            if t.shape != shape:
                raise ValueError(f"CPT of {self.nodes[i]!r} has shape {t.shape}; expected {shape} "
                                 "(parent configurations x states)")
            if not np.all(np.isfinite(t)) or np.any(t < 0):
                raise ValueError(f"CPT of {self.nodes[i]!r} has negative or non-finite entries")
            dev = np.abs(t.sum(axis=1) - 1.0)
            if np.any(dev > _ROW_SUM_TOL):
                j = int(np.argmax(dev))
                raise ValueError(
                    f"CPT of {self.nodes[i]!r}: row {j} sums to {t[j].sum()!r}, not 1")
            t.setflags(write=False)
            tables.append(t)
        self._cpts = tuple(tables)

    # -- description ------------------------------------------------------------------
    @property
    def n_nodes(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    @property
    def n_arcs(self) -> int:
        """Number of arcs."""
        return int(sum(len(p) for p in self.parent_indices))

    @property
    def max_in_degree(self) -> int:
        """Largest number of parents of a node."""
        return int(max(len(p) for p in self.parent_indices))

    @property
    def is_lazy(self) -> bool:
        """True if CPT columns are generated on demand rather than stored."""
        return self._cpts is None

    def index(self, node) -> int:
        """Position of ``node`` (a name or an index) in :attr:`nodes`."""
        if isinstance(node, numbers.Integral) and not isinstance(node, bool):
            if not 0 <= node < self.n_nodes:
                raise ValueError(f"node index {node} outside [0, {self.n_nodes})")
            return int(node)
        try:
            return self._index[node]
        except (KeyError, TypeError):
            shown = ", ".join(self.nodes[:10]) + (", ..." if self.n_nodes > 10 else "")
            raise ValueError(f"unknown node {node!r}; network {self.name!r} has {self.n_nodes} "
                             f"nodes: {shown}") from None

    def states(self, node) -> tuple:
        """State names of ``node``."""
        return self._states[self.index(node)]

    def parents(self, node) -> tuple:
        """Names of the parents of ``node``."""
        return tuple(self.nodes[j] for j in self.parent_indices[self.index(node)])

    def __repr__(self):
        kind = "lazy " if self.is_lazy else ""
        return (f"<{type(self).__name__} {self.name!r}: {self.n_nodes} nodes, {self.n_arcs} arcs, "
                f"max in-degree {self.max_in_degree}, {kind}CPTs>")

    # -- probabilities ----------------------------------------------------------------
    def cpt(self, node) -> np.ndarray:
        """The CPT of ``node``, shape (n_configurations, n_states), read-only."""
        return self._cpts[self.index(node)]

    def conditional(self, node, parent_codes) -> np.ndarray:
        """CPT rows selected by parent values.

        Parameters
        ----------
        node : str or int
        parent_codes : array-like of int, shape (n_rows, n_parents)
            State indices of the node's parents (in :meth:`parents` order).

        Returns
        -------
        ndarray of float64, shape (n_rows, n_states)
        """
        i = self.index(node)
        v = np.asarray(parent_codes)
        k = len(self.parent_indices[i])
        if v.ndim != 2 or v.shape[1] != k:
            raise ValueError(
                f"parent_codes for {self.nodes[i]!r} must have shape (n_rows, {k}); got {v.shape}")
        if v.dtype.kind not in "iub":
            raise ValueError("parent_codes must be integer state indices")
        card = self.n_states[self.parent_indices[i]]
        if v.size and (v.min() < 0 or np.any(v >= card[None, :])):
            raise ValueError(f"parent_codes for {self.nodes[i]!r} outside the parents' states")
        return np.array(self._conditional(i, v.astype(np.int64, copy=False)))

    def _conditional(self, i, v):
        return self._cpts[i][v @ self._strides[i]] if v.shape[1] else np.broadcast_to(
            self._cpts[i][0], (len(v), self.n_states[i]))

    def materialize(self) -> "BayesianNetwork":
        """A copy with every CPT stored as a table."""
        return BayesianNetwork(self.nodes, self._states, self.parent_indices,
                               [self.cpt(i) for i in range(self.n_nodes)], name=self.name)

    def _dtypes(self):
        if getattr(self, "_dtype_cache", None) is None:
            shared = {}  # one dtype per distinct list of states (random networks share one)
            self._dtype_cache = [shared.setdefault(
                s, pd.CategoricalDtype(list(s))) for s in self._states]
        return self._dtype_cache


def _c_strides(card) -> np.ndarray:
    card = np.asarray(card, dtype=np.int64)
    if len(card) == 0:
        return np.zeros(0, dtype=np.int64)
    if np.prod(card.astype(float)) >= 2.0**62:
        return None  # only lazy networks can have this many configurations
    return np.concatenate([np.cumprod(card[::-1])[::-1][1:], [1]]).astype(np.int64)


# ------------------------------------ Random networks with lazily generated CPT columns
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
#: SplitMix64's increment (2**64 / golden ratio): multiples of it spread integer keys
#: over the 64-bit range before :func:`splitmix64` mixes them.
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser: a bijection of uint64 with good avalanche.

    Parameters
    ----------
    z : ndarray of uint64, any shape

    Returns
    -------
    ndarray of uint64, same shape (a new array)
    """
    z = z ^ (z >> np.uint64(30))  # a new array: the remaining steps work in place
    z *= _M1
    z ^= z >> np.uint64(27)
    z *= _M2
    z ^= z >> np.uint64(31)
    return z


class RandomNetwork(BayesianNetwork):
    """A network whose CPT columns are uniform on the simplex and generated lazily.

    The column for parent values ``v`` (a row of state indices) is a pure function of the node and
    ``v``: the key ``h = sum_j v_j * m_j + salt (mod 2**64)`` with random odd 64-bit multipliers
    ``m_j`` and salt drawn once per node seeds a SplitMix64 stream, one uniform per state
    ``u_s = unit(mix(h + (s + 1) * golden))``, and the column is ``e / sum(e)`` with
    ``e_s = -log(u_s)`` (normalised exponentials are uniform on the simplex, i.e. Dirichlet(1, ...,
    1)). Nothing is stored per configuration, so a node with 200 binary parents costs O(200) per
    record; two different configurations share a column only if their 64-bit keys collide
    (probability about 2**-63).
    """

    def __init__(self, nodes, states, parents, multipliers, salts, name="random"):
        super().__init__(nodes, states, parents, None, name=name)
        self._mult = tuple(np.asarray(m, dtype=np.uint64) for m in multipliers)
        self._salt = np.asarray(salts, dtype=np.uint64)
        for i, m in enumerate(self._mult):
            if m.shape != (len(self.parent_indices[i]),):
                raise ValueError(f"node {self.nodes[i]!r}: one multiplier per parent expected")
        self._state_keys = (np.arange(1, int(self.n_states.max()) + 1,
                                      dtype=np.uint64) * np.uint64(GOLDEN_GAMMA))

    def _conditional(self, i, v):
        n = len(v)
        if v.shape[1]:
            h = v.astype(np.uint64) @ self._mult[i] + self._salt[i]
        else:
            h = np.full(n, self._salt[i], dtype=np.uint64)
        r = int(self.n_states[i])
        # SplitMix64 stream seeded with the configuration key: one output per state
        z = splitmix64(h[:, None] + self._state_keys[None, :r])
        u = ((z >> np.uint64(11)).astype(np.float64) + 0.5) * (1.0 / 9007199254740992.0)
        e = -np.log(u)
        return e / e.sum(axis=1, keepdims=True)

    def cpt(self, node) -> np.ndarray:
        """Materialise the CPT of ``node`` (only for moderate numbers of configurations)."""
        i = self.index(node)
        card = self.n_states[self.parent_indices[i]]
        n_cfg = float(np.prod(card.astype(float)))
        if n_cfg > _MAX_MATERIALISED_CONFIGS:
            raise ValueError(f"node {self.nodes[i]!r} has {len(card)} parents ({n_cfg:.3g} parent "
                             "configurations); its CPT is generated lazily and cannot be stored; "
                             "use conditional() for the configurations you need")
        v = np.indices(tuple(card), dtype=np.int64).reshape(len(card), int(n_cfg)).T
        t = self._conditional(i, v)
        t.setflags(write=False)
        return t


def random_structure(n_nodes, max_parents, rng):
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
    from ._compiled_networks import random_parent_sets  # compiled on first use
    parents = random_parent_sets(n_par, rng)
    # odd multipliers keep the linear key injective in each coordinate modulo 2**64
    mult = rng.integers(0, 2**63, size=int(n_par.sum()), dtype=np.uint64)
    mult_pad = np.zeros(parents.shape, dtype=np.uint64)
    mult_pad[np.arange(parents.shape[1])[None, :] < n_par[:, None]] = (
        mult * np.uint64(2) + np.uint64(1))
    salts = rng.integers(0, 2**63, size=n_nodes, dtype=np.uint64) * np.uint64(2)
    return n_par, parents, mult_pad, salts


def random_network(n_nodes, max_parents, random_state=None, *, n_states=2) -> RandomNetwork:
    """A random DAG with uniform CPT columns (Dash & Cooper, Procedure 1).

    Nodes ``X1, ..., X{n_nodes}`` are created in order; node ``i`` (1-based) draws a number of
    parents uniformly from ``0..min(i - 1, max_parents)`` and then that many distinct parents
    uniformly among ``X1..X{i-1}``. Each CPT column is an independent uniform draw from the
    probability simplex, generated on demand (see :class:`RandomNetwork`).

    Parameters
    ----------
    n_nodes : int >= 1
        Total number of nodes (the paper's N features plus the class: N + 1).
    max_parents : int >= 0
        Maximum in-degree N_k.
    random_state : int, numpy Generator or None
        Seed for the structure and the CPTs.
    n_states : int >= 2
        Number of states of every node (the paper uses binary variables).

    Returns
    -------
    RandomNetwork
    """
    n_nodes = check_int("n_nodes", n_nodes, 1)
    max_parents = check_int("max_parents", max_parents, 0)
    n_states = check_int("n_states", n_states, 2)
    rng = np.random.default_rng(random_state)
    n_par, parents, mult, salts = random_structure(n_nodes, max_parents, rng)
    names = [f"X{i + 1}" for i in range(n_nodes)]
    states = [tuple(str(s) for s in range(n_states))] * n_nodes
    return RandomNetwork(
        names, states, [parents[i, :k] for i, k in enumerate(n_par)],
        [mult[i, :k] for i, k in enumerate(n_par)], salts,
        name=f"random(n_nodes={n_nodes}, max_parents={max_parents})")


# --------------------------------------------------------- Sampling and exact marginals
def sample(network: BayesianNetwork, n, random_state=None, *, as_frame=True):
    """Forward-sample ``n`` records, vectorised over records.

    Each node is drawn after its parents by inverting its conditional CDF with one uniform per
    record; the uniforms form an array of shape (n_nodes, n) drawn at once from ``random_state``,
    so stored and lazy CPTs that agree give identical samples.

    Parameters
    ----------
    network : BayesianNetwork
    n : int >= 1
        Number of records.
    random_state : int, numpy Generator or None
    as_frame : bool
        If True (default) return a DataFrame of categoricals (declared states as
        categories, columns in node order); otherwise an int64 code matrix.

    Returns
    -------
    DataFrame or ndarray of int64, shape (n, n_nodes)
    """
    if not isinstance(network, BayesianNetwork):
        raise TypeError(f"network must be a BayesianNetwork; got {type(network).__name__}")
    n = check_int("n", n, 1)
    rng = np.random.default_rng(random_state)
    x = forward_sample(network, rng.random((network.n_nodes, n)))
    if not as_frame:
        return x
    dt = network._dtypes()
    return pd.DataFrame({v: pd.Categorical.from_codes(x[:, i], dtype=dt[i], validate=False) for i,
                         v in enumerate(network.nodes)}, copy=False)


def forward_sample(network, u):
    """Records drawn from ``network`` in topological order with the given uniforms.

    Every record only uses its own column of ``u``, so the uniforms of several
    samples joined side by side give the same samples joined one after the other
    (how a batch of trials is sampled at once).

    Parameters
    ----------
    network : BayesianNetwork or RandomNetwork
    u : ndarray of float, shape (n_nodes, n)
        Uniforms on [0, 1), one per node and record.

    Returns
    -------
    ndarray of int64, shape (n, n_nodes)
        State codes, C order.
    """
    n = u.shape[1]
    if not network.is_lazy:  # stored tables: the per-node loop compiled, same thresholds
        from ._compiled_networks import forward_stored
        pa, cum = network.parent_indices, [np.cumsum(t[:, :-1], 1).ravel() for t in network._cpts]
        flat = [np.concatenate([np.zeros(0, d), *a]).astype(d) for a, d in (
            (pa, np.int64), (network._strides, np.int64), (cum, np.float64))]  # nodes joined
        first, offset = (np.cumsum([0] + [len(a) for a in w]) for w in (pa, cum))
        return forward_stored(flat[0], flat[1], first, flat[2], offset, network.n_states - 1,
                              np.asarray(u, dtype=np.float64))
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


def __getattr__(name):  # the batched sampler lives beside its kernels, numba loaded on use
    if name == "sample_random_trials":
        from ._compiled_networks import sample_random_trials
        return sample_random_trials
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():  # the lazy name listed too (autodoc reads the members from dir)
    return sorted([*globals(), "sample_random_trials"])


def exact_marginal(network: BayesianNetwork, nodes) -> np.ndarray:
    """Exact joint distribution of a few nodes, by variable elimination.

    Only the ancestors of ``nodes`` are involved (the others sum out to one);
    they are eliminated greedily, smallest resulting factor first.

    Parameters
    ----------
    network : BayesianNetwork
        CPTs must be storable (see :meth:`RandomNetwork.cpt`).
    nodes : str, int or sequence of them
        Target nodes.

    Returns
    -------
    ndarray of float64, shape (n_states of each target, in the order given)
    """
    if isinstance(nodes, (str, numbers.Integral)):
        nodes = [nodes]
    targets = [network.index(v) for v in nodes]
    if len(set(targets)) != len(targets):
        raise ValueError("nodes must be distinct")
    relevant, stack = set(targets), list(targets)
    while stack:
        for p in network.parent_indices[stack.pop()].tolist():
            if p not in relevant:
                relevant.add(p)
                stack.append(p)
    card = network.n_states
    factors = []
    for i in sorted(relevant):
        pa = network.parent_indices[i].tolist()
        t = np.asarray(network.cpt(i)).reshape(*card[pa].tolist(), int(card[i]))
        factors.append((tuple(pa) + (i,), t))

    def product(fs, keep):
        labels = sorted({v for vs, _ in fs for v in vs})
        if len(labels) > 52:
            raise ValueError("elimination produced a factor over more than 52 variables")
        loc = {v: j for j, v in enumerate(labels)}
        args = []
        for vs, t in fs:
            args += [t, [loc[v] for v in vs]]
        return np.einsum(*args, [loc[v] for v in keep], optimize=True)

    remaining = set(relevant) - set(targets)
    while remaining:
        def cost(v):
            scope = {u for vs, _ in factors if v in vs for u in vs}
            return float(np.prod(card[sorted(scope)].astype(float)))

        v = min(sorted(remaining), key=cost)
        if cost(v) > 2e8:
            raise ValueError("exact_marginal: elimination needs a factor above 2e8 cells")
        involved = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        scope = sorted({u for vs, _ in involved for u in vs} - {v})
        factors.append((tuple(scope), product(involved, scope)))
        remaining.discard(v)
    out = product(factors, targets)
    return out / out.sum()


# --------------------------------------------------------------------------- BIF reader
_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r]+)|(?P<nl>\n)|(?P<lc>//[^\n]*)|(?P<bc>/\*.*?\*/)
       |(?P<str>"[^"\n]*")|(?P<punct>[{}()\[\]|,;])|(?P<word>[^\s{}()\[\]|,;"]+)""",
    re.X | re.S,
)


class _Tokens:
    def __init__(self, text, path):
        self.path = path
        self.items, line, pos = [], 1, 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:  # pragma: no cover - the word class matches any other char
                raise ValueError(f"{path}:{line}: cannot read {text[pos:pos + 20]!r}")
            kind, tok = m.lastgroup, m.group()
            if kind in ("str", "punct", "word"):
                self.items.append((tok.strip('"') if kind == "str" else tok, line))
            line += tok.count("\n")
            pos = m.end()
        self.i = 0
        self.last_line = line

    def error(self, msg, line=None):
        if line is None:
            line = self.items[self.i][1] if self.i < len(self.items) else self.last_line
        return ValueError(f"{self.path}:{line}: {msg}")

    def peek(self):
        return self.items[self.i][0] if self.i < len(self.items) else None

    def next(self, what="a token"):
        if self.i >= len(self.items):
            raise self.error(f"unexpected end of file; expected {what}")
        tok = self.items[self.i]
        self.i += 1
        return tok

    def expect(self, want):
        tok, line = self.next(repr(want))
        if tok != want:
            raise self.error(f"expected {want!r}, found {tok!r}", line)
        return line

    def names(self, what, close, item_line=False):
        """Tokens separated by ',' up to ``close`` (consumed); an error names the separator's
        line, or with ``item_line`` the line of the item before it."""
        out = []
        while True:
            tok, tline = self.next(what)
            out.append(tok)
            sep, sline = self.next(f"',' or '{close}'")
            if sep == close:
                return out
            if sep != ",":
                raise self.error(f"expected ',' or '{close}', found {sep!r}",
                                 tline if item_line else sline)

    def skip_statement(self):
        """Skip the tokens up to the next ';' (a ``property`` line)."""
        while self.next("';'")[0] != ";":
            pass

    def skip_block(self):
        """Skip a balanced { ... } block (network properties)."""
        self.expect("{")
        depth = 1
        while depth:
            tok, _ = self.next("'}'")
            depth += (tok == "{") - (tok == "}")


def _parse_numbers(tk, n, where):
    vals = []
    while True:
        tok, line = tk.next("a probability")
        try:
            vals.append(float(tok))
        except ValueError:
            vals.append(np.nan)
        if not np.isfinite(vals[-1]):  # "nan" and "inf" parse as floats
            raise tk.error(f"{where}: expected a probability, found {tok!r}", line)
        sep, line = tk.next("',' or ';'")
        if sep == ";":
            break
        if sep != ",":
            raise tk.error(f"{where}: expected ',' or ';', found {sep!r}", line)
    if len(vals) != n:
        raise tk.error(f"{where}: {len(vals)} probabilities given, {n} expected", line)
    return vals


def read_bif(path, name=None) -> BayesianNetwork:
    """Read a discrete Bayesian network from a BIF file.

    Supports ``variable`` blocks with ``type discrete [ n ] { ... };`` and
    ``probability ( X | P1, P2 ) { ... }`` blocks with ``(p1, p2) values;`` rows, ``table values;``
    (node state slowest, parent configurations in C order, as pgmpy reads it) and
    ``default values;``; ``property`` lines and comments are ignored. Nodes are returned in a
    topological order that keeps the file's order where possible.

    Raises
    ------
    ValueError
        With file and line, for malformed input, unknown variables or states,
        missing or repeated parent configurations (a ``table`` after rows or another
        table), non-finite values, rows that do not sum to one, cycles, or a table of
        more than :data:`MAX_BIF_CELLS` cells (checked before anything is allocated).
    """
    path = Path(path)
    tk = _Tokens(path.read_text(), path)
    var_states, var_line, order = {}, {}, []
    probs = {}
    while tk.peek() is not None:
        kw, line = tk.next()
        if kw == "network":
            tk.next("a network name")
            tk.skip_block()
        elif kw == "variable":
            vname, line = tk.next("a variable name")
            if vname in var_states:
                raise tk.error(f"variable {vname!r} declared twice", line)
            tk.expect("{")
            states = None
            while tk.peek() != "}":
                key, kline = tk.next("'type' or 'property'")
                if key == "property":
                    tk.skip_statement()
                elif key == "type":
                    tk.expect("discrete")
                    tk.expect("[")
                    cnt, cline = tk.next("a number of states")
                    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses
                    if not re.fullmatch(r"[0-9]+", cnt) or int(cnt) < 1:
                        raise tk.error(f"bad number of states {cnt!r}", cline)
                    tk.expect("]")
                    tk.expect("{")
                    states = tk.names("a state name", "}")
                    tk.expect(";")
                    if len(states) != int(cnt):
                        raise tk.error(f"variable {vname!r} declares {cnt} states but lists "
                                       f"{len(states)}", cline)
                    if len(set(states)) != len(states):
                        raise tk.error(f"variable {vname!r} repeats a state name", cline)
                else:
                    raise tk.error(f"expected 'type' or 'property', found {key!r}", kline)
            tk.expect("}")
            if states is None:
                raise tk.error(f"variable {vname!r} has no 'type discrete' declaration", line)
            var_states[vname], var_line[vname] = states, line
            order.append(vname)
        elif kw == "probability":
            tk.expect("(")
            child, cline = tk.next("a variable name")
            pars = []
            tok, tline = tk.next("'|' or ')'")
            if tok == "|":
                pars = tk.names("a parent name", ")")
            elif tok != ")":
                raise tk.error(f"expected '|' or ')', found {tok!r}", tline)
            for v in [child] + pars:
                if v not in var_states:
                    raise tk.error(f"probability block uses undeclared variable {v!r}", cline)
            if child in probs:
                raise tk.error(f"second probability block for {child!r}", cline)
            if len(set(pars)) != len(pars) or child in pars:
                raise tk.error(f"probability block for {child!r} repeats a variable", cline)
            r = len(var_states[child])
            pcard = [len(var_states[p]) for p in pars]
            # Python integers: a product of many cardinalities overflows int64 silently
            n_cfg = math.prod(pcard)
            if n_cfg * r > MAX_BIF_CELLS:
                raise tk.error(
                    f"probability of {child!r}: its table would have {n_cfg:,} parent "
                    f"configurations x {r} states = {n_cfg * r:,} cells, more than the "
                    f"reader's limit of {MAX_BIF_CELLS:,} (credal.networks.MAX_BIF_CELLS)", cline)
            table = np.full((n_cfg, r), np.nan)
            seen = np.zeros(n_cfg, dtype=bool)
            default = None
            where = f"probability of {child!r}"
            tk.expect("{")
            while tk.peek() != "}":
                tok, line = tk.next("an entry")
                if tok == "table":
                    if seen.any():  # never silently replace what was given before
                        raise tk.error(f"{where}: 'table' after a table or rows", line)
                    vals = np.array(_parse_numbers(tk, r * n_cfg, where))
                    table[:] = vals.reshape(r, n_cfg).T
                    seen[:] = True
                elif tok == "default":
                    default = _parse_numbers(tk, r, where)
                elif tok == "property":
                    tk.skip_statement()
                elif tok == "(":
                    cfg = tk.names("a parent state", ")", item_line=True)
                    if len(cfg) != len(pars):
                        raise tk.error(f"{where}: configuration {tuple(cfg)} has {len(cfg)} "
                                       f"values for {len(pars)} parents", line)
                    idx = 0
                    for p, s, c in zip(pars, cfg, pcard):
                        if s not in var_states[p]:
                            raise tk.error(f"{where}: {s!r} is not a state of {p!r}", line)
                        idx = idx * c + var_states[p].index(s)
                    if seen[idx]:
                        raise tk.error(f"{where}: configuration {tuple(cfg)} given twice", line)
                    table[idx] = _parse_numbers(tk, r, where)
                    seen[idx] = True
                else:
                    raise tk.error(f"{where}: unexpected {tok!r}", line)
            tk.expect("}")
            if default is not None:
                table[~seen] = default
                seen[:] = True
            if not seen.all():
                raise tk.error(f"{where}: {int((~seen).sum())} of {n_cfg} parent configurations "
                               "have no probabilities", cline)
            if np.any(table < 0) or np.any(np.abs(table.sum(axis=1) - 1) > _ROW_SUM_TOL):
                raise tk.error(f"{where}: a row is negative or does not sum to 1", cline)
            probs[child] = (pars, table, cline)
        else:
            raise tk.error(f"expected 'network', 'variable' or 'probability', found {kw!r}", line)
    if missing := [v for v in order if v not in probs]:
        raise ValueError(
            f"{path}:{var_line[missing[0]]}: variable {missing[0]!r} has no probability block")
    if not order:
        raise ValueError(f"{path}: no variable declared")
    # topological order: repeatedly take the first pending node whose parents are placed
    done, topo, pending = set(), [], list(order)
    while pending:
        for j, v in enumerate(pending):
            if all(p in done for p in probs[v][0]):
                break
        else:
            v = pending[0]
            raise ValueError(f"{path}:{probs[v][2]}: the network has a cycle through {v!r}")
        done.add(v)
        topo.append(v)
        del pending[j]
    return BayesianNetwork(topo, [var_states[v] for v in topo], [probs[v][0] for v in topo],
                           [probs[v][1] for v in topo], name=path.stem if name is None else name)


def load_network(name) -> BayesianNetwork:
    """Load a network shipped with the project: ``"alarm"`` or ``"hepar2"``.

    Raises
    ------
    KeyError
        For an unknown name; the message lists the known ones.
    """
    key = str(name).lower()
    if key not in _NETWORK_FILES:
        raise KeyError(f"unknown network {name!r}; known networks: {', '.join(NETWORK_NAMES)}")
    return read_bif(_DATA_DIR / _NETWORK_FILES[key], name=key)


# ---------------------------------------------------------------- Classification set-up
def choose_class_node(network: BayesianNetwork, random_state=None) -> str:
    """A class node chosen uniformly among the nodes with at least two states."""
    ok = np.flatnonzero(network.n_states >= 2)
    if len(ok) == 0:
        raise ValueError(f"network {network.name!r} has no node with two or more states")
    rng = np.random.default_rng(random_state)
    return network.nodes[int(ok[rng.integers(len(ok))])]


def split_class(network: BayesianNetwork, data, class_node):
    """Split sampled records into features and class.

    Parameters
    ----------
    network : BayesianNetwork
    data : DataFrame of categoricals or ndarray of int, shape (n, n_nodes)
        Output of :func:`sample`.
    class_node : str or int

    Returns
    -------
    X : DataFrame or ndarray, shape (n, n_nodes - 1)
    y : categorical Series (declared states as categories) or ndarray of int codes
    """
    i = network.index(class_node)
    if network.n_states[i] < 2:
        raise ValueError(f"class node {network.nodes[i]!r} has a single state "
                         f"{list(network.states(i))}; a class needs at least two")
    if isinstance(data, pd.DataFrame):
        if list(data.columns) != list(network.nodes):
            raise ValueError("data columns must be the network's nodes, in order")
        name = network.nodes[i]
        return data.drop(columns=name), data[name]
    x = np.asarray(data)
    if x.ndim != 2 or x.shape[1] != network.n_nodes:
        raise ValueError(f"data must have shape (n, {network.n_nodes}); got {x.shape}")
    return np.delete(x, i, axis=1), x[:, i]
