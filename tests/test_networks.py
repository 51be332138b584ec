"""Tests for credal.networks: BIF reading, random networks, sampling."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from credal.metrics import roc_area
from credal.networks import (
    NETWORK_NAMES,
    BayesianNetwork,
    choose_class_node,
    exact_marginal,
    load_network,
    random_network,
    read_bif,
    sample,
    split_class,
)


@pytest.fixture(scope="module")
def alarm():
    return load_network("alarm")


# --------------------------------------------------------------------------------------
# BIF files
# --------------------------------------------------------------------------------------


def _is_topological(net):
    return all(np.all(p < i) for i, p in enumerate(net.parent_indices))


def test_shipped_networks_match_manifest(alarm):
    # node and arc counts as recorded independently in data/raw/MANIFEST.csv
    hepar = load_network("hepar2")
    assert (alarm.n_nodes, alarm.n_arcs, alarm.max_in_degree) == (37, 46, 4)
    assert (hepar.n_nodes, hepar.n_arcs, hepar.max_in_degree) == (70, 123, 6)
    assert _is_topological(alarm) and _is_topological(hepar)
    assert set(NETWORK_NAMES) == {"alarm", "hepar2"}
    assert load_network("ALARM").nodes == alarm.nodes


def test_alarm_values_read_in_pgmpy_layout(alarm):
    assert alarm.parents("LVEDVOLUME") == ("HYPOVOLEMIA", "LVFAILURE")
    assert alarm.states("HYPOVOLEMIA") == ("TRUE", "FALSE")
    t = alarm.cpt("LVEDVOLUME")
    # file rows: (TRUE,TRUE) .95 .04 .01; (FALSE,TRUE) .98 .01 .01;
    # (TRUE,FALSE) .01 .09 .90; (FALSE,FALSE) .05 .90 .05 -- last parent fastest
    np.testing.assert_array_equal(t, [[.95, .04, .01], [.01, .09, .90],
                                      [.98, .01, .01], [.05, .90, .05]])
    np.testing.assert_array_equal(alarm.cpt("HYPOVOLEMIA"), [[0.2, 0.8]])
    np.testing.assert_array_equal(alarm.conditional("LVEDVOLUME", np.array([[1, 0], [0, 1]])),
                                  [[.98, .01, .01], [.01, .09, .90]])


BIF_OK = """// a comment
network test { property "x y"; }
variable A { type discrete [ 2 ] { a0, a1 }; property position = (1, 2); }
variable B { type discrete [ 3 ] { b0, b1, b2 }; }
variable C { type discrete [ 2 ] { c0, c1 }; }
/* block
   comment */
probability ( C | B, A ) {
  table 0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
        0.9, 0.8, 0.7, 0.6, 0.5, 0.4;
}
probability ( A ) { table 0.3, 0.7; }
probability ( B | A ) {
  (a1) 0.5, 0.25, 0.25;
  default 0.2, 0.3, 0.5;
}
"""


def test_bif_table_default_and_order(tmp_path):
    f = tmp_path / "t.bif"
    f.write_text(BIF_OK)
    net = read_bif(f)
    assert net.nodes == ("A", "B", "C")  # reordered topologically
    assert net.parents("C") == ("B", "A")
    # table: node state slowest, parent configurations in C order (A fastest)
    np.testing.assert_allclose(net.cpt("C")[:, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    np.testing.assert_allclose(net.cpt("B"), [[0.2, 0.3, 0.5], [0.5, 0.25, 0.25]])
    assert net.name == "t"


@pytest.mark.parametrize(
    "text, line, msg",
    [
        ("variable A { type discrete [ 2 ] { a0, a1 } }", 1, "expected ';'"),
        ("variable A { type discrete [ 3 ] { a0, a1 }; }", 1, "declares 3 states"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) {\n table 0.5, 0.4; }",
         2, "does not sum to 1"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) {\n table 0.5; }",
         3, "1 probabilities given, 2 expected"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A | Z ) { }",
         2, "undeclared variable 'Z'"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A ) { table 0.5, 0.5; }\n"
         "probability ( B | A ) {\n (a0) 0.5, 0.5;\n (a9) 0.5, 0.5; }", 6, "'a9' is not a state"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A ) { table 0.5, 0.5; }\n"
         "probability ( B | A ) {\n (a0) 0.5, 0.5;\n (a0) 0.5, 0.5; }", 6, "given twice"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A ) { table 0.5, 0.5; }\n"
         "probability ( B | A ) {\n (a0) 0.5, 0.5; }", 4, "1 of 2 parent configurations"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A | B ) { table 0.5, 0.5, 0.5, 0.5; }\n"
         "probability ( B | A ) { table 0.5, 0.5, 0.5, 0.5; }", 3, "cycle"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n\n", 1, "no probability block"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) { table x, 0.5; }",
         2, "expected a probability"),
        ("node A;", 1, "expected 'network', 'variable' or 'probability'"),
        # a later table must not silently replace rows or a first table
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A ) { table 0.5, 0.5; }\n"
         "probability ( B | A ) {\n (a0) 0.5, 0.5;\n (a1) 0.5, 0.5;\n"
         " table 0.1, 0.2, 0.9, 0.8; }", 7, "'table' after a table or rows"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) {\n"
         " table 0.5, 0.5;\n table 0.4, 0.6; }", 4, "'table' after a table or rows"),
        # NaN and infinities parse as floats but are no probabilities
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\n"
         "variable B { type discrete [ 2 ] { b0, b1 }; }\n"
         "probability ( A ) { table 0.5, 0.5; }\n"
         "probability ( B | A ) {\n (a0) 0.5, 0.5;\n (a1) nan, 0.5; }", 6,
         "expected a probability, found 'nan'"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) {\n"
         " table NaN, NaN; }", 3, "found 'NaN'"),
        ("variable A { type discrete [ 2 ] { a0, a1 }; }\nprobability ( A ) {\n"
         " default inf, 0; }", 3, "found 'inf'"),
    ],
)
def test_bif_errors_name_file_and_line(tmp_path, text, line, msg):
    f = tmp_path / "bad.bif"
    f.write_text(text)
    with pytest.raises(ValueError) as err:
        read_bif(f)
    assert f"bad.bif:{line}:" in str(err.value)
    assert msg in str(err.value)


def test_unknown_network_lists_known_ones():
    with pytest.raises(KeyError, match="alarm, hepar2"):
        load_network("asia")


# --------------------------------------------------------------------------------------
# Random networks (Procedure 1) and lazy CPTs
# --------------------------------------------------------------------------------------


def test_procedure1_structure_distribution():
    n, k = 30, 4
    counts = np.zeros((n, k + 1))
    parent_hits = np.zeros((n, n))
    for seed in range(400):
        net = random_network(n, k, seed)
        assert _is_topological(net) and net.nodes[0] == "X1"
        for i, p in enumerate(net.parent_indices):
            assert len(p) <= min(i, k) and len(set(p.tolist())) == len(p)
            counts[i, len(p)] += 1
            parent_hits[i, p] += 1
    # number of parents of node i+1 is uniform on 0..min(i, k)
    for i in (1, 2, 10, 29):
        c = counts[i, : min(i, k) + 1]
        assert stats.chisquare(c).pvalue > 1e-3
    # given its number of parents, every earlier node is equally likely
    for i in (5, 20, 29):
        assert stats.chisquare(parent_hits[i, :i]).pvalue > 1e-3
    assert random_network(n, k, 1).parent_indices[5].tolist() == \
        random_network(n, k, 1).parent_indices[5].tolist()


def test_lazy_cpts_equal_materialised_ones():
    for seed in range(5):
        net = random_network(25, 5, seed, n_states=2 + seed % 3)
        assert net.is_lazy
        mat = net.materialize()
        assert not mat.is_lazy
        a = sample(net, 3000, random_state=seed, as_frame=False)
        b = sample(mat, 3000, random_state=seed, as_frame=False)
        np.testing.assert_array_equal(a, b)
        # conditional() on parent rows equals the stored row at the C-order index
        for i in range(net.n_nodes):
            pa = net.parent_indices[i]
            rows = a[:, pa]
            np.testing.assert_array_equal(net.conditional(i, rows), mat.conditional(i, rows))
            idx = (np.ravel_multi_index(rows.T, net.n_states[pa]) if len(pa)
                   else np.zeros(len(a), int))
            np.testing.assert_array_equal(net.conditional(i, rows), mat.cpt(i)[idx])
            np.testing.assert_allclose(mat.cpt(i).sum(1), 1.0, atol=1e-14)


def test_lazy_columns_are_uniform_on_simplex():
    # pooled over many networks: binary columns ~ U(0, 1); ternary ones Dirichlet(1, 1, 1)
    firsts, thirds = [], []
    for seed in range(300):
        net = random_network(12, 10, seed, n_states=2)
        firsts.append(net.cpt(11)[:, 0])
        net3 = random_network(6, 3, seed, n_states=3)
        thirds.append(net3.cpt(5)[:, 0])
    firsts, thirds = np.concatenate(firsts), np.concatenate(thirds)
    assert len(firsts) > 5000
    assert stats.kstest(firsts, "uniform").pvalue > 1e-3
    # first coordinate of a Dirichlet(1,1,1) column is Beta(1, 2)
    assert stats.kstest(thirds, stats.beta(1, 2).cdf).pvalue > 1e-3


def test_in_degree_200_stays_lazy():
    net = random_network(201, 200, 3)
    big = int(np.argmax([len(p) for p in net.parent_indices]))
    assert len(net.parent_indices[big]) > 150
    with pytest.raises(ValueError, match="generated lazily"):
        net.cpt(big)
    x = sample(net, 300, random_state=0, as_frame=False)
    assert x.shape == (300, 201) and set(np.unique(x)) <= {0, 1}
    rows = x[:, net.parent_indices[big]]
    p = net.conditional(big, rows)
    # the same configuration always gets the same column; different ones (almost
    # surely all distinct here) get different columns
    dup = np.vstack([rows[:5], rows[:5]])
    q = net.conditional(big, dup)
    np.testing.assert_array_equal(q[:5], q[5:])
    n_cfg = len(np.unique(rows, axis=0))
    assert len(np.unique(p[:, 0])) == n_cfg
    assert stats.kstest(p[:, 0][np.unique(rows, axis=0, return_index=True)[1]],
                        "uniform").pvalue > 1e-4
    # the sample follows the columns: frequency of state 0 given a fixed parent row
    one = np.repeat(rows[:1], 20000, axis=0)
    u = np.random.default_rng(1).random(20000)
    theta = net.conditional(big, one)[0, 0]
    assert abs((u < theta).mean() - theta) < 5 * np.sqrt(theta * (1 - theta) / 20000)


def test_deterministic_by_seed():
    a = sample(random_network(40, 5, 7), 200, random_state=2, as_frame=False)
    b = sample(random_network(40, 5, 7), 200, random_state=2, as_frame=False)
    c = sample(random_network(40, 5, 8), 200, random_state=2, as_frame=False)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


# --------------------------------------------------------------------------------------
# Exact marginals and the sampler
# --------------------------------------------------------------------------------------


def _joint_by_enumeration(net):
    card = net.n_states
    joint = np.ones(tuple(card))
    for assign in itertools.product(*[range(c) for c in card]):
        p = 1.0
        for i in range(net.n_nodes):
            pa = net.parent_indices[i]
            j = np.ravel_multi_index(tuple(assign[q] for q in pa), card[pa]) if len(pa) else 0
            p *= net.cpt(i)[j, assign[i]]
        joint[assign] = p
    return joint


@pytest.mark.parametrize("seed", range(6))
def test_exact_marginal_equals_enumeration(seed):
    net = random_network(7, 3, seed, n_states=2 + seed % 2).materialize()
    joint = _joint_by_enumeration(net)
    assert abs(joint.sum() - 1) < 1e-12
    rng = np.random.default_rng(seed)
    for _ in range(5):
        k = int(rng.integers(1, 4))
        tgt = [int(v) for v in rng.choice(7, k, replace=False)]
        want = joint.sum(axis=tuple(set(range(7)) - set(tgt)))
        # axes of `want` are in increasing node order; reorder to tgt order
        want = np.transpose(want, np.argsort(np.argsort(tgt)))
        np.testing.assert_allclose(exact_marginal(net, tgt), want, atol=1e-14)


def _family_pvalues(net, x, nodes):
    out = {}
    for v in nodes:
        i = net.index(v)
        fam = list(net.parent_indices[i]) + [i]
        p = exact_marginal(net, fam).ravel()
        idx = np.ravel_multi_index(x[:, fam].T, net.n_states[fam])
        obs = np.bincount(idx, minlength=len(p)).astype(float)
        exp = p * len(x)
        small = exp < 5
        if small.any():  # pool sparse cells into one
            obs = np.append(obs[~small], obs[small].sum())
            exp = np.append(exp[~small], exp[small].sum())
        keep = exp > 0
        assert np.all(obs[~keep] == 0), f"impossible configuration sampled for {v}"
        out[v] = stats.chisquare(obs[keep], exp[keep]).pvalue if keep.sum() > 1 else 1.0
    return out


def test_alarm_sampler_reproduces_marginals(alarm):
    x = sample(alarm, 20000, random_state=20240601, as_frame=False)
    # one-node marginals and node+parents joint marginals, against exact inference
    for v in alarm.nodes:
        i = alarm.index(v)
        p = exact_marginal(alarm, v)
        freq = np.bincount(x[:, i], minlength=len(p)) / len(x)
        assert np.all(np.abs(freq - p) <= 5 * np.sqrt(p * (1 - p) / len(x)) + 1e-12), v
    pv = _family_pvalues(alarm, x, alarm.nodes)
    assert min(pv.values()) > 1e-3 / len(pv), min(pv.items(), key=lambda t: t[1])
    # power check: the same test flags a network whose CPT rows are permuted
    i = alarm.index("LVEDVOLUME")
    cpts = [alarm.cpt(j) for j in range(alarm.n_nodes)]
    cpts[i] = cpts[i][[1, 0, 2, 3]]
    wrong = BayesianNetwork(alarm.nodes, [alarm.states(j) for j in range(alarm.n_nodes)],
                            alarm.parent_indices, cpts)
    xw = sample(wrong, 20000, random_state=20240601, as_frame=False)
    assert _family_pvalues(alarm, xw, ["LVEDVOLUME"])["LVEDVOLUME"] < 1e-10


def test_sample_frame(alarm):
    df = sample(alarm, 50, random_state=0)
    assert list(df.columns) == list(alarm.nodes)
    for v in ("CVP", "HYPOVOLEMIA"):
        assert isinstance(df[v].dtype, pd.CategoricalDtype)
        assert tuple(df[v].cat.categories) == alarm.states(v)
    codes = sample(alarm, 50, random_state=0, as_frame=False)
    np.testing.assert_array_equal(df.apply(lambda c: c.cat.codes).to_numpy(), codes)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.integers(0, 6), st.integers(2, 4), st.integers(0, 10**6))
def test_random_sample_codes_in_range(n_nodes, k, r, seed):
    net = random_network(n_nodes, k, seed, n_states=r)
    x = sample(net, 40, random_state=seed, as_frame=False)
    assert x.shape == (40, n_nodes) and x.min() >= 0 and x.max() < r
    assert net.max_in_degree <= min(k, n_nodes - 1)


# --------------------------------------------------------------------------------------
# Class node, ROC helpers
# --------------------------------------------------------------------------------------


def test_choose_and_split_class(alarm):
    picks = [choose_class_node(alarm, s) for s in range(2000)]
    assert choose_class_node(alarm, 5) == choose_class_node(alarm, 5)
    counts = pd.Series(picks).value_counts().reindex(alarm.nodes, fill_value=0)
    assert stats.chisquare(counts.to_numpy()).pvalue > 1e-3
    df = sample(alarm, 30, random_state=1)
    X, y = split_class(alarm, df, "ANAPHYLAXIS")
    assert "ANAPHYLAXIS" not in X.columns and X.shape == (30, 36)
    assert tuple(y.cat.categories) == ("TRUE", "FALSE")
    Xc, yc = split_class(alarm, df.apply(lambda c: c.cat.codes).to_numpy(), "ANAPHYLAXIS")
    np.testing.assert_array_equal(yc, y.cat.codes)
    assert Xc.shape == (30, 36)


def test_one_state_class_node_is_rejected():
    net = BayesianNetwork(["A", "B"], [["only"], ["b0", "b1"]], [[], ["A"]],
                          [[[1.0]], [[0.3, 0.7]]])
    x = sample(net, 10, random_state=0)
    assert (x["A"] == "only").all()
    with pytest.raises(ValueError, match="single state"):
        split_class(net, x, "A")
    with pytest.raises(ValueError, match="unknown node 'Z'"):
        split_class(net, x, "Z")


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        (dict(n_nodes=0, max_parents=2), "n_nodes must be >= 1"),
        (dict(n_nodes=5, max_parents=-1), "max_parents must be >= 0"),
        (dict(n_nodes=2.5, max_parents=1), "n_nodes must be an integer"),
        (dict(n_nodes=5, max_parents=1, n_states=1), "n_states must be >= 2"),
    ],
)
def test_random_network_errors(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        random_network(random_state=0, **kwargs)


def test_other_errors(alarm):
    with pytest.raises(ValueError, match="n must be >= 1"):
        sample(alarm, 0)
    with pytest.raises(TypeError, match="BayesianNetwork"):
        sample("alarm", 5)
    with pytest.raises(ValueError, match="topological"):
        BayesianNetwork(["A", "B"], [["0", "1"]] * 2, [["B"], []], [[[.5, .5]] * 2, [[.5, .5]]])
    with pytest.raises(ValueError, match="sums to"):
        BayesianNetwork(["A"], [["0", "1"]], [[]], [[[.5, .6]]])
    with pytest.raises(ValueError, match="shape"):
        alarm.conditional("LVEDVOLUME", np.zeros((3, 1), dtype=int))
    with pytest.raises(ValueError, match="outside"):
        alarm.conditional("LVEDVOLUME", np.full((3, 2), 2))


def test_alarm_classification_end_to_end(alarm):
    """Sampled ALARM records through MANB and the MAP naive Bayes, both input forms."""
    from credal.averaging import ModelAveragedNaiveBayes

    df = sample(alarm, 1500, random_state=11)
    X, y = split_class(alarm, df, "HYPOVOLEMIA")
    tr, te = slice(0, 1000), slice(1000, None)
    codes = df.apply(lambda c: c.cat.codes).to_numpy()
    Xc, yc = split_class(alarm, codes, "HYPOVOLEMIA")
    nv = np.delete(alarm.n_states, alarm.index("HYPOVOLEMIA"))
    for structure in ("average", "full"):
        m = ModelAveragedNaiveBayes(structure=structure).fit(X.iloc[tr], y.iloc[tr])
        p = m.predict_proba(X.iloc[te])
        mc = ModelAveragedNaiveBayes(structure=structure, min_categories=nv).fit(
            Xc[tr], pd.Series(pd.Categorical.from_codes(yc[tr], categories=["TRUE", "FALSE"])))
        np.testing.assert_allclose(mc.predict_proba(Xc[te]), p, atol=1e-15)
        # LVEDVOLUME, CVP, PCWP, STROKEVOLUME carry much information on HYPOVOLEMIA
        assert roc_area(y.iloc[te], p, m.classes_) > 0.75


# --------------------------------------------------------------------------------------
# Many trials at once
# --------------------------------------------------------------------------------------


def test_forward_sample_of_joined_uniforms_joins_the_samples():
    from credal.networks import forward_sample

    net = load_network("alarm")
    seeds = [np.random.SeedSequence(5, spawn_key=(t,)) for t in range(3)]
    u = np.concatenate([np.random.default_rng(s).random((net.n_nodes, 40)) for s in seeds],
                       axis=1)
    joined = forward_sample(net, u)
    for t, s in enumerate(seeds):
        np.testing.assert_array_equal(joined[40 * t:40 * (t + 1)],
                                      sample(net, 40, np.random.default_rng(s), as_frame=False))




def _bif_with_parents(tmp_path, n_parents, states="2"):
    parents = [f"P{i}" for i in range(n_parents)]
    text = "network n { }\n"
    for v in parents + ["C"]:
        text += f"variable {v} {{\n  type discrete [ {states} ] {{ a, b }};\n}}\n"
    for v in parents:
        text += f"probability ( {v} ) {{\n  table 0.5, 0.5;\n}}\n"
    text += f"probability ( C | {', '.join(parents)} ) {{\n  default 0.5, 0.5;\n}}\n"
    path = tmp_path / "wide.bif"
    path.write_text(text)
    return path, text.count("\n") - 2  # the line of the wide probability block


@pytest.mark.parametrize("n_parents", [24, 30, 63, 64, 200])
def test_bif_table_beyond_the_limit_is_refused_before_allocation(tmp_path, n_parents):
    from credal.networks import MAX_BIF_CELLS, read_bif
    path, line = _bif_with_parents(tmp_path, n_parents)
    cells = 2 ** n_parents * 2
    assert cells > MAX_BIF_CELLS
    with pytest.raises(ValueError, match=rf"wide\.bif:{line}: .*{cells:,} cells, more than the "
                                         r"reader's limit"):
        read_bif(path)


def test_bif_table_within_the_limit_reads(tmp_path):
    from credal.networks import read_bif
    path, _ = _bif_with_parents(tmp_path, 12)
    net = read_bif(path)
    assert net.n_nodes == 13


@pytest.mark.parametrize("count", ["\u00b2", "\u0662", "2.0", "0"])
def test_bif_state_count_must_be_ascii_digits(tmp_path, count):
    from credal.networks import read_bif
    path, _ = _bif_with_parents(tmp_path, 1, states=count)
    with pytest.raises(ValueError, match=r"wide\.bif:\d+: bad number of states"):
        read_bif(path)
