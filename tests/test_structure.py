"""Tests of credal.structure: the BDeu score and the search for a DAG that maximises it.

References: a slow family score over every parent configuration (math.lgamma, the way
pgmpy's BDeuScore computes it), the two-variable BDe score of credal.independence,
exhaustive search over every DAG, and the definition of a local optimum (no single
add/remove/reverse move improves it).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from credal.independence import bde_score
from credal.structure import (
    all_dags,
    bdeu_local_score,
    bdeu_network_score,
    exhaustive_bdeu,
    hill_climb_bdeu,
    is_acyclic,
)


def _slow_family(data, node, parents, arities, S):
    """BDeu family score over *all* parent configurations, with math.lgamma."""
    q = int(np.prod([arities[p] for p in parents])) if parents else 1
    r = arities[node]
    out = 0.0
    for cfg in itertools.product(*[range(arities[p]) for p in parents]):
        rows = [i for i in range(len(data)) if all(data[i][p] == v for p, v in zip(parents, cfg))]
        out += math.lgamma(S / q) - math.lgamma(S / q + len(rows))
        for k in range(r):
            n = sum(1 for i in rows if data[i][node] == k)
            out += math.lgamma(S / (q * r) + n) - math.lgamma(S / (q * r))
    return out


def test_bdeu_family_score_matches_slow_reference_and_bde():
    rng = np.random.default_rng(30)
    for trial in range(30):
        n, p = int(rng.integers(1, 90)), int(rng.integers(2, 5))
        ar = rng.integers(2, 4, size=p)
        data = np.column_stack([rng.integers(0, a, size=n) for a in ar])
        node = int(rng.integers(p))
        parents = tuple(sorted(rng.choice([j for j in range(p) if j != node],
                                          size=int(rng.integers(0, p)), replace=False).tolist()))
        S = float(rng.choice([0.5, 1.0, 10.0]))
        got = bdeu_local_score(data, node, parents, arities=ar, S=S)
        assert got == pytest.approx(_slow_family(data.tolist(), node, parents, ar, S), abs=1e-9)
    # Two variables: the network score difference X -> Y vs no arc is bde_score.
    data = rng.integers(0, 2, size=(40, 2))
    t = np.zeros((2, 2), int)
    np.add.at(t, (data[:, 0], data[:, 1]), 1)
    for S in (1.0, 2.0, 4.0):
        diff = bdeu_network_score(data, [(), (0,)], S=S) - bdeu_network_score(data, [(), ()], S=S)
        assert diff == pytest.approx(bde_score(t, S), abs=1e-10)
    # Score equivalence: X -> Y and Y -> X score the same under BDeu.
    assert bdeu_network_score(data, [(), (0,)], S=2.0) == pytest.approx(
        bdeu_network_score(data, [(1,), ()], S=2.0))


def test_dag_enumeration_and_acyclicity():
    assert [len(all_dags(n)) for n in range(1, 5)] == [1, 3, 25, 543]
    assert is_acyclic([(), (0,), (1,)]) and not is_acyclic([(2,), (0,), (1,)])
    assert not is_acyclic([(0,)])  # self-loop
    with pytest.raises(ValueError, match="n_nodes"):
        all_dags(6)


def _neighbours(parents):
    """Every DAG one legal add/remove/reverse move away."""
    n = len(parents)
    out = []
    for u in range(n):
        for v in range(n):
            if u == v:
                continue
            ps = [set(p) for p in parents]
            if u in ps[v]:
                a = [set(p) for p in ps]
                a[v].discard(u)
                out.append(a)
                b = [set(p) for p in a]
                b[u].add(v)
                out.append(b)
            elif v not in ps[u]:
                a = [set(p) for p in ps]
                a[v].add(u)
                out.append(a)
    return [[tuple(sorted(p)) for p in g] for g in out if is_acyclic([tuple(p) for p in g])]


def test_hill_climbing_against_exhaustive_search():
    rng = np.random.default_rng(31)
    found_optimum = 0
    cases = 0
    for n_nodes in (3, 4):
        for trial in range(6):
            # Data from a random chain/collider with strong dependences.
            n = int(rng.choice([30, 200]))
            data = np.zeros((n, n_nodes), int)
            data[:, 0] = rng.random(n) < 0.5
            for j in range(1, n_nodes):
                par = data[:, rng.integers(j)]
                data[:, j] = np.where(rng.random(n) < 0.85, par, rng.random(n) < 0.5)
            if trial % 3 == 2:
                data[:, -1] = rng.random(n) < 0.3  # an independent variable
            S = float(rng.choice([1.0, 2.0, 10.0]))
            hc = hill_climb_bdeu(data, S=S, random_state=trial)
            best, scores = exhaustive_bdeu(data, S=S)
            cases += 1
            # Never better than the optimum; the reported score is the DAG's score.
            assert hc.score <= best.score + 1e-9
            assert hc.score == pytest.approx(bdeu_network_score(data, hc.parents, S=S), abs=1e-9)
            # A local optimum: no single move improves it.
            for g in _neighbours(hc.parents):
                assert bdeu_network_score(data, g, S=S) <= hc.score + 1e-9
            found_optimum += hc.score >= best.score - 1e-9
            # The best DAG scores like every DAG of its equivalence class.
            assert np.sum(scores >= best.score - 1e-9) >= 1
    # On these well-separated problems greedy search reaches the global optimum.
    assert found_optimum == cases


def test_hill_climbing_ties_and_limits():
    rng = np.random.default_rng(32)
    x = rng.integers(0, 2, 100)
    data = np.column_stack([x, x ^ (rng.random(100) < 0.1), rng.integers(0, 2, 100)])
    # X0 - X1 is found; its direction is a tie broken by the seed, reproducibly.
    dirs = {tuple(hill_climb_bdeu(data, S=1.0, random_state=s).edges[0]) for s in range(12)}
    assert dirs == {(0, 1), (1, 0)}
    a = hill_climb_bdeu(data, S=1.0, random_state=3)
    b = hill_climb_bdeu(data, S=1.0, random_state=3)
    assert a.edges == b.edges and a.history == b.history
    assert hill_climb_bdeu(data, S=1.0, max_parents=0).edges == []
    with pytest.raises(ValueError, match="max_parents"):
        hill_climb_bdeu(data, max_parents=-1)
    with pytest.raises(ValueError, match="codes"):
        hill_climb_bdeu(np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match="arities"):
        hill_climb_bdeu(data, arities=[2, 2])
