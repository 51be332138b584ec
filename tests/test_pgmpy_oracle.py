"""pgmpy as an independent oracle for the BIF reader and the family scores.

pgmpy is a test extra only. Its ``BIFReader`` must read ALARM and HEPAR II into
the same nodes, states, parents and CPTs as :func:`credal.networks.read_bif`, and
its ``K2`` / ``BDeu`` / ``BIC`` local scores must give
:func:`credal.structure.bdeu_local_score` and the two-variable log Bayes factors
of :mod:`credal.independence` (``k2_score``, ``bde_score``, ``bic_score`` =
local score of ``Y`` given ``X`` minus local score of ``Y`` alone).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pgmpy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # pgmpy warns about its moved modules on import
    from pgmpy.readwrite import BIFReader

    try:  # pgmpy >= 1.1
        from pgmpy.structure_score import BDeu, BIC, K2
    except ImportError:  # pragma: no cover - older layout
        from pgmpy.estimators import BDeu, BIC, K2

from credal.independence import bde_score, bic_score, k2_score
from credal.networks import _DATA_DIR, _NETWORK_FILES, load_network
from credal.structure import bdeu_local_score


@pytest.mark.parametrize("name", ["alarm", "hepar2"])
def test_read_bif_matches_pgmpy(name):
    ours = load_network(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BIFReader(str(_DATA_DIR / _NETWORK_FILES[name])).get_model()
    assert set(ours.nodes) == set(model.nodes())
    assert {(p, v) for v in ours.nodes for p in ours.parents(v)} == set(model.edges())
    for v in ours.nodes:
        cpd = model.get_cpds(v)
        assert tuple(cpd.variables) == (v, *ours.parents(v)), v
        assert ours.states(v) == tuple(cpd.state_names[v]), v
        for p in ours.parents(v):
            assert ours.states(p) == tuple(cpd.state_names[p]), (v, p)
        # pgmpy: (node state, parent configurations in C order); ours: transposed
        values = cpd.get_values()
        np.testing.assert_allclose(ours.cpt(v), values.T, rtol=0, atol=1e-12, err_msg=v)


def _frame(data, arities):
    cols = [f"V{j}" for j in range(data.shape[1])]
    frame = pd.DataFrame(data, columns=cols)
    return frame, {c: list(range(int(a))) for c, a in zip(cols, arities)}


def test_bdeu_local_score_matches_pgmpy():
    rng = np.random.default_rng(11)
    for _ in range(40):
        n_vars = int(rng.integers(2, 5))
        arities = rng.integers(2, 4, size=n_vars)
        n = int(rng.choice([5, 30, 200]))  # both code paths (<= 64 cases and more)
        data = np.column_stack([rng.integers(0, a, size=n) for a in arities])
        # every state observed at least once: pgmpy 1.1's BDeu leaves out the
        # lgamma(S/(q r)) terms of a state never seen (parent configurations
        # never seen are fine), where bdeu_local_score counts them as 0
        data[:3] = np.arange(3)[:, None] % arities
        node = int(rng.integers(n_vars))
        others = [j for j in range(n_vars) if j != node]
        parents = sorted(rng.choice(others, size=int(rng.integers(0, len(others) + 1)),
                                    replace=False).tolist())
        S = float(rng.choice([0.5, 1.0, 4.0, 10.0]))
        frame, states = _frame(data, arities)
        oracle = BDeu(frame, equivalent_sample_size=S, state_names=states)
        expected = oracle.local_score(f"V{node}", tuple(f"V{p}" for p in parents))
        got = bdeu_local_score(data, node, parents, arities=arities, S=S)
        assert got == pytest.approx(expected, rel=1e-10, abs=1e-9)


def _table_data(t):
    """Cases (x, y) repeated as often as the contingency table ``t`` says."""
    x, y = np.indices(t.shape)
    reps = t.ravel()
    return np.column_stack([np.repeat(x.ravel(), reps), np.repeat(y.ravel(), reps)])


def test_k2_bdeu_bic_log_bayes_factors_match_pgmpy():
    rng = np.random.default_rng(4)
    for _ in range(80):
        r, c = (int(k) for k in rng.integers(2, 5, size=2))
        t = rng.integers(0, 15, size=(r, c)) * (rng.random((r, c)) < 0.85)
        if (t.sum(axis=0) == 0).any() or (t.sum(axis=1) == 0).any():
            # pgmpy 1.1 mis-scores unseen states: BDeu drops the terms of a Y
            # state never seen (above); K2 adds lgamma(c) for every X state but
            # subtracts lgamma(N_x + c) only for those seen
            continue
        S = float(rng.choice([0.5, 1.0, 2.0, 4.0, 10.0]))
        frame, states = _frame(_table_data(t), (r, c))

        def diff(score):  # X -> Y against X, Y unconnected: the X terms cancel
            return score.local_score("V1", ("V0",)) - score.local_score("V1", ())

        assert k2_score(t) == pytest.approx(diff(K2(frame, state_names=states)), abs=1e-9)
        bdeu = BDeu(frame, equivalent_sample_size=S, state_names=states)
        assert bde_score(t, S) == pytest.approx(diff(bdeu), abs=1e-9)
        assert bic_score(t) == pytest.approx(diff(BIC(frame, state_names=states)), abs=1e-9)
