"""Bayesian-network structure search with the BDeu score.

:func:`bdeu_local_score` and :func:`bdeu_network_score` give the BDeu score (Heckerman, Geiger &
Chickering's likelihood-equivalent uniform prior, equivalent sample size ``S``) of a family and of
a DAG on complete discrete data; with two variables the score difference of ``X -> Y`` over no arc
is :func:`credal.independence.bde_score`. :func:`hill_climb_bdeu` is greedy search over single-arc
changes, checked against :func:`exhaustive_bdeu`, which scores every DAG of :func:`all_dags` (up to
5 nodes); both return a :class:`StructureResult`.
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
from dataclasses import dataclass

import numpy as np

from credal._validation import check_int, check_S
from credal.independence import log_rising_factorial

__all__ = ["bdeu_local_score", "bdeu_network_score", "is_acyclic", "all_dags", "StructureResult",
           "hill_climb_bdeu", "exhaustive_bdeu"]


def _check_data(data, arities):
    d = np.asarray(data)
    if d.ndim != 2:
        raise ValueError(f"data must be a 2-D array (cases x variables); got shape {d.shape}")
    if d.shape[1] == 0:
        raise ValueError("data has no variables")
    if d.dtype.kind not in "biu" and not (d.dtype.kind == "f" and np.all(d == np.round(d))):
        raise ValueError("data must hold integer category codes 0, 1, ...")
    d = d.astype(np.int64)
    if d.size and d.min() < 0:
        raise ValueError("data must hold category codes >= 0 (no missing values)")
    if arities is None:
        ar = np.maximum(d.max(axis=0) + 1 if len(d) else np.ones(d.shape[1], int), 2)
    else:
        ar = np.asarray(arities, dtype=np.int64)
        if ar.shape != (d.shape[1],):
            raise ValueError(f"arities must have one entry per variable ({d.shape[1]}); got {ar.shape}")
        if np.any(ar < 1) or (len(d) and np.any(d.max(axis=0) >= ar)):
            raise ValueError("arities must be >= 1 and exceed every observed code")
    return d, ar


def bdeu_local_score(data, node, parents=(), *, arities=None, S=1.0):
    """ln P(column ``node`` | its parents) under the BDeu prior (family score).

    With ``q`` parent configurations and ``r`` values of the node, the Dirichlet parameters are
    ``S/q`` per configuration and ``S/(q r)`` per cell (Heckerman, Geiger & Chickering's
    likelihood-equivalent uniform prior; pgmpy's ``BDeuScore`` with
    ``equivalent_sample_size = S``). Configurations never observed contribute 0.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
        Category codes ``0 .. r_j - 1`` (no missing values).
    node : int
    parents : sequence of int
    arities : sequence of int, optional
        Number of values of each variable (default: largest code + 1, at least 2).
    S : float
        Equivalent sample size, ``> 0``.

    Returns
    -------
    float
    """
    S = check_S(S)
    d, ar = _check_data(data, arities)
    return _local_score(d, ar, int(node), tuple(sorted(int(p) for p in parents)), S)


def _local_score(d, ar, node, parents, S):
    r = int(ar[node])
    q = int(np.prod(ar[list(parents)])) if parents else 1
    if len(d) == 0:
        return 0.0
    if len(d) <= 64:
        # Few cases (the slides' example has 4): plain Python beats numpy's overhead.
        rows, cells = {}, {}
        for case in d.tolist():
            c = tuple(case[p] for p in parents)
            rows[c] = rows.get(c, 0) + 1
            cells[c, case[node]] = cells.get((c, case[node]), 0) + 1
        a_row, a_cell = S / q, S / (q * r)
        lg_cell, lg_row = math.lgamma(a_cell), math.lgamma(a_row)
        return float(sum(math.lgamma(a_cell + n) - lg_cell for n in cells.values())
                     - sum(math.lgamma(a_row + n) - lg_row for n in rows.values()))
    cfg = np.zeros(len(d), dtype=np.int64)
    for p in parents:
        cfg = cfg * int(ar[p]) + d[:, p]
    key = cfg * r + d[:, node]
    _, cell = np.unique(key, return_counts=True)
    _, row = np.unique(cfg, return_counts=True)
    a_row, a_cell = S / q, S / (q * r)
    return float(np.sum(log_rising_factorial(a_cell, cell)) - np.sum(log_rising_factorial(a_row, row)))


def bdeu_network_score(data, parents, *, arities=None, S=1.0):
    """BDeu score (log marginal likelihood) of a whole DAG: the sum of its family scores.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    parents : sequence of sequences of int
        ``parents[j]`` are the parents of variable ``j``.
    arities : sequence of int, optional
    S : float

    Returns
    -------
    float
    """
    S = check_S(S)
    d, ar = _check_data(data, arities)
    if len(parents) != d.shape[1]:
        raise ValueError(f"parents must list one parent set per variable ({d.shape[1]})")
    if not is_acyclic(parents):
        raise ValueError("the parent sets contain a directed cycle")
    return float(sum(_local_score(d, ar, j, tuple(sorted(p)), S) for j, p in enumerate(parents)))


def is_acyclic(parents):
    """Whether the directed graph given by parent sets has no directed cycle.

    Parameters
    ----------
    parents : sequence of sequences of int

    Returns
    -------
    bool
    """
    n = len(parents)
    indeg = np.array([len(set(p)) for p in parents])
    children = [[] for _ in range(n)]
    for v, ps in enumerate(parents):
        for u in set(ps):
            if not 0 <= u < n or u == v:
                return False
            children[u].append(v)
    stack = [v for v in range(n) if indeg[v] == 0]
    seen = 0
    while stack:
        u = stack.pop()
        seen += 1
        for v in children[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                stack.append(v)
    return seen == n


def all_dags(n_nodes):
    """Every DAG on ``n_nodes`` labelled nodes, as tuples of parent tuples.

    Brute force over all parent-set combinations (1, 3, 25, 543, 29 281 DAGs for 1
    to 5 nodes); meant for exhaustive checks on tiny problems.

    Parameters
    ----------
    n_nodes : int
        1 to 5.

    Returns
    -------
    list of tuple of tuple of int
    """
    if not isinstance(n_nodes, numbers.Integral) or not 1 <= n_nodes <= 5:
        raise ValueError(f"n_nodes must be an integer from 1 to 5; got {n_nodes!r}")
    choices = []
    for v in range(n_nodes):
        others = [u for u in range(n_nodes) if u != v]
        choices.append([c for k in range(len(others) + 1) for c in itertools.combinations(others, k)])
    return [ps for ps in itertools.product(*choices) if is_acyclic(ps)]


@dataclass
class StructureResult:
    """A learned Bayesian-network structure.

    Attributes
    ----------
    parents : list of tuple of int
        Parent set of each variable.
    score : float
        BDeu score of the structure.
    n_moves : int
        Moves applied by the search (0 for exhaustive search).
    history : list of tuple
        ``(move, u, v, gain)`` per applied move (``"add"``, ``"remove"``, ``"reverse"``
        of the arc ``u -> v``).
    """

    parents: list
    score: float
    n_moves: int = 0
    history: list = None

    @property
    def edges(self):
        """Arcs ``(u, v)`` meaning ``u -> v``, sorted."""
        return sorted((u, v) for v, ps in enumerate(self.parents) for u in ps)

    @property
    def n_isolated(self):
        """Variables with no arc in or out."""
        touched = {x for e in self.edges for x in e}
        return len(self.parents) - len(touched)


def _family_scores(d, ar, S):
    """``_local_score`` of the data as a function of ``(node, parents)``, remembered."""
    return functools.cache(lambda v, ps: _local_score(d, ar, v, ps, S))


def _closure(adj):
    """Transitive closure (paths of length >= 1) of a boolean adjacency matrix."""
    reach = adj.copy()
    for k in range(len(adj)):
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    return reach


def hill_climb_bdeu(data, *, arities=None, S=1.0, max_parents=None, random_state=None,
                    max_moves=10000, tol=1e-9):
    """Greedy hill-climbing search of a DAG maximising the BDeu score.

    Starts from the empty graph. At each step every legal single-arc change is scored: adding an
    arc ``u -> v`` (if neither ``u -> v`` nor ``v -> u`` is present and no directed path
    ``v -> ... -> u`` exists), removing an arc, and reversing an arc (if no other path
    ``u -> ... -> v`` exists), subject to ``max_parents``. The change with the largest score gain
    is applied; changes whose gains are within ``tol`` of the best are equally good (BDeu gives
    Markov-equivalent graphs the same score, so such ties are common) and one of them is drawn with
    the seeded generator. The search stops when no change improves the score by more than ``tol``
    (no tabu list, no restarts): the moves of pgmpy's ``HillClimbSearch`` with ``BDeuScore``,
    without its tabu list. Family scores are cached.

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    arities : sequence of int, optional
    S : float
        Equivalent sample size of BDeu.
    max_parents : int, optional
        Largest parent set allowed.
    random_state : int, numpy Generator or None
        Seed of the tie-breaking.
    max_moves : int
        Safety bound on the number of moves.
    tol : float

    Returns
    -------
    StructureResult
    """
    S = check_S(S)
    d, ar = _check_data(data, arities)
    cap = d.shape[1] if max_parents is None else check_int("max_parents", max_parents, 0)
    rng = np.random.default_rng(random_state)
    p = d.shape[1]
    fam = _family_scores(d, ar, S)
    parents = [() for _ in range(p)]
    adj = np.zeros((p, p), dtype=bool)
    local = [fam(v, ()) for v in range(p)]
    history = []
    for _ in range(max_moves):
        reach = _closure(adj)  # reach[a, b]: a directed path a -> ... -> b exists
        moves = []
        for u in range(p):
            for v in range(p):
                if u == v:
                    continue
                if adj[u, v]:
                    without = tuple(x for x in parents[v] if x != u)
                    gain_v = fam(v, without) - local[v]
                    moves.append((gain_v, "remove", u, v))
                    # Reversal is legal unless another path u -> w -> ... -> v exists.
                    other = adj[u].copy()
                    other[v] = False
                    if len(parents[u]) < cap and not np.any(other & reach[:, v]):
                        with_u = tuple(sorted(parents[u] + (v,)))
                        moves.append((gain_v + fam(u, with_u) - local[u], "reverse", u, v))
                elif not adj[v, u] and len(parents[v]) < cap and not reach[v, u]:
                    moves.append((fam(v, tuple(sorted(parents[v] + (u,)))) - local[v], "add", u, v))
        if not moves:
            break
        gains = np.array([m[0] for m in moves])
        best = gains.max()
        if best <= tol:
            break
        tied = np.flatnonzero(gains >= best - tol)
        gain, kind, u, v = moves[int(tied[rng.integers(len(tied))])] if len(tied) > 1 else moves[int(tied[0])]
        if kind in ("remove", "reverse"):
            adj[u, v] = False
            parents[v] = tuple(x for x in parents[v] if x != u)
        if kind == "reverse":
            adj[v, u] = True
            parents[u] = tuple(sorted(parents[u] + (v,)))
        if kind == "add":
            adj[u, v] = True
            parents[v] = tuple(sorted(parents[v] + (u,)))
        for x in {u, v}:
            local[x] = fam(x, parents[x])
        history.append((kind, int(u), int(v), float(gain)))
    return StructureResult(parents=[tuple(int(x) for x in ps) for ps in parents],
                           score=float(sum(local)), n_moves=len(history), history=history)


def exhaustive_bdeu(data, *, arities=None, S=1.0):
    """The BDeu-optimal DAG by scoring every DAG (at most 5 variables).

    Parameters
    ----------
    data : array-like of int, shape (n_cases, n_vars)
    arities : sequence of int, optional
    S : float

    Returns
    -------
    best : StructureResult
        One optimal DAG (the first in :func:`all_dags` order).
    scores : ndarray
        The score of every DAG, in :func:`all_dags` order.
    """
    S = check_S(S)
    d, ar = _check_data(data, arities)
    dags = all_dags(d.shape[1])
    fam = _family_scores(d, ar, S)
    scores = np.array([sum(fam(v, ps) for v, ps in enumerate(g)) for g in dags])
    k = int(np.argmax(scores))
    return StructureResult(parents=[tuple(ps) for ps in dags[k]], score=float(scores[k])), scores

