"""Tests of credal.stats and credal.plotting.cd_diagram."""

from __future__ import annotations

import itertools
import warnings

import matplotlib

matplotlib.use("Agg")  # non-interactive backend before pyplot is imported

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy import stats as sst  # noqa: E402

from credal import stats as S  # noqa: E402
from credal.plotting import cd_diagram  # noqa: E402


# ----------------------------------------------------------------------------
# Wilcoxon
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_wilcoxon_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 45))
    a = rng.uniform(0.6, 0.9, n)
    b = a + rng.normal(0.005 * (seed - 4), 0.02, n)
    if seed % 2:
        b[: n // 4] = a[: n // 4]  # some zero differences
        b = np.round(b, 2)  # and some ties in |d|
        a = np.round(a, 2)
    for kw in ({}, {"alternative": "greater"}, {"zero_method": "pratt"}, {"method": "approx"}):
        ref = sst.wilcoxon(a, b, **kw)
        got = S.wilcoxon(a, b, **kw)
        assert got.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
        assert got.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
        assert got.n == n
        assert got.mean_difference == pytest.approx(np.mean(a - b), abs=1e-15)


def test_wilcoxon_all_zero_differences_gives_p_one_without_warning():
    a = np.array([0.8, 0.7, 0.9, 0.75])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = S.wilcoxon(a, a.copy())
    assert (r.statistic, r.pvalue, r.n, r.mean_difference) == (0.0, 1.0, 4, 0.0)


def test_wilcoxon_bad_input():
    with pytest.raises(ValueError, match="same length"):
        S.wilcoxon([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="finite"):
        S.wilcoxon([1, np.nan, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="1-D"):
        S.wilcoxon([[1, 2]], [[1, 2]])
    with pytest.raises(ValueError, match="empty"):
        S.wilcoxon([], [])


# ----------------------------------------------------------------------------
# Friedman / Iman-Davenport / Nemenyi
# ----------------------------------------------------------------------------

def test_friedman_hand_example_with_ties():
    scores = pd.DataFrame(
        {"A": [0.9, 0.7, 0.5], "B": [0.8, 0.75, 0.5], "C": [0.8, 0.6, 0.5]},
        index=["d1", "d2", "d3"],
    )
    r = S.friedman(scores)
    # row ranks: d1 (1, 2.5, 2.5), d2 (2, 1, 3), d3 (2, 2, 2)
    assert r.ranks.loc["d1"].tolist() == [1.0, 2.5, 2.5]
    assert r.ranks.loc["d2"].tolist() == [2.0, 1.0, 3.0]
    assert r.ranks.loc["d3"].tolist() == [2.0, 2.0, 2.0]
    assert r.avg_ranks.to_dict() == pytest.approx({"A": 5 / 3, "B": 5.5 / 3, "C": 7.5 / 3})
    # by hand: (12/(3*3*4) * (25 + 30.25 + 56.25) - 36) = 7/6; tie correction
    # C = 1 - (2*3 + 3*8) / (3*3*8) = 7/12; chi2 = 2
    assert r.statistic == pytest.approx(2.0, abs=1e-12)
    assert r.pvalue == pytest.approx(np.exp(-1.0), abs=1e-12)  # chi2(2) tail at 2
    ref = sst.friedmanchisquare(*[scores[c] for c in scores])
    assert r.statistic == pytest.approx(ref.statistic)
    assert r.pvalue == pytest.approx(ref.pvalue)
    # F_F = (N-1) chi2 / (N(k-1) - chi2) = 2*2/(6-2) = 1 on (2, 4) degrees of freedom
    assert r.iman_davenport == pytest.approx(1.0)
    assert r.iman_davenport_pvalue == pytest.approx(sst.f.sf(1.0, 2, 4))
    assert (r.n_datasets, r.n_classifiers) == (3, 3)
    # losses: ranks reverse
    rl = S.friedman(scores, higher_is_better=False)
    assert np.allclose(rl.ranks.to_numpy(), 4 - r.ranks.to_numpy())
    assert rl.statistic == pytest.approx(r.statistic)


def _brute_ranks(row, higher_is_better):
    sign = 1 if higher_is_better else -1
    return [
        1 + sum(sign * (o - v) > 0 for o in row) + 0.5 * (sum(o == v for o in row) - 1)
        for v in row
    ]


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 7), st.integers(2, 12), st.integers(0, 2**32 - 1), st.booleans())
def test_friedman_matches_brute_force_and_scipy(k, n, seed, hib):
    rng = np.random.default_rng(seed)
    vals = rng.integers(0, 4, size=(n, k)).astype(float)  # many ties
    r = S.friedman(pd.DataFrame(vals), higher_is_better=hib)
    ranks = np.array([_brute_ranks(row, hib) for row in vals])
    assert np.allclose(r.ranks.to_numpy(), ranks)
    assert np.allclose(r.avg_ranks.to_numpy(), ranks.mean(axis=0))
    # tie-corrected chi-square written as variance ratio (another closed form)
    rbar = ranks.mean(axis=0)
    num = n * np.sum((rbar - (k + 1) / 2) ** 2)
    den = np.sum((ranks - (k + 1) / 2) ** 2) / (n * (k - 1))
    if den == 0:
        assert (r.statistic, r.pvalue) == (0.0, 1.0)
    else:
        assert r.statistic == pytest.approx(num / den, abs=1e-9)
        assert r.pvalue == pytest.approx(sst.chi2.sf(num / den, k - 1), abs=1e-12)
    if k >= 3 and den > 0:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = sst.friedmanchisquare(*vals.T) if hib else sst.friedmanchisquare(*(-vals).T)
        assert r.statistic == pytest.approx(ref.statistic, abs=1e-9)
        assert r.pvalue == pytest.approx(ref.pvalue, abs=1e-12)
    chi2 = r.statistic
    if n * (k - 1) - chi2 > 1e-9:
        ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
        assert r.iman_davenport == pytest.approx(ff, rel=1e-9, abs=1e-12)
        assert r.iman_davenport_pvalue == pytest.approx(
            sst.f.sf(ff, k - 1, (k - 1) * (n - 1)), abs=1e-12
        )
    else:
        assert r.iman_davenport == np.inf and r.iman_davenport_pvalue == 0.0
    assert r.cd == pytest.approx(S.nemenyi_cd(k, n))


def test_friedman_without_ties_is_demsar_formula():
    rng = np.random.default_rng(7)
    n, k = 14, 4
    vals = rng.random((n, k))
    r = S.friedman(vals)
    R = r.avg_ranks.to_numpy()
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4)
    assert r.statistic == pytest.approx(chi2, rel=1e-12)


def test_friedman_identical_rankings_everywhere():
    vals = np.tile([0.9, 0.8, 0.7], (5, 1)) + np.linspace(0, 0.05, 5)[:, None]
    r = S.friedman(vals)
    assert r.avg_ranks.tolist() == [1.0, 2.0, 3.0]
    assert r.statistic == pytest.approx(5 * 2)  # N (k - 1): maximal
    assert r.iman_davenport == np.inf and r.iman_davenport_pvalue == 0.0
    same = S.friedman(np.ones((4, 3)))
    assert (same.statistic, same.pvalue) == (0.0, 1.0)
    assert same.iman_davenport == 0.0 and same.iman_davenport_pvalue == 1.0


def test_friedman_bad_input():
    with pytest.raises(ValueError, match="classifier 'b'"):
        S.friedman(pd.DataFrame({"a": [1.0, 2.0], "b": [np.nan, 1.0]}))
    with pytest.raises(ValueError, match="at least 2 classifiers"):
        S.friedman(pd.DataFrame({"a": [1.0, 2.0]}))
    with pytest.raises(ValueError, match="at least 2 data sets"):
        S.friedman(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    with pytest.raises(ValueError, match="2-D"):
        S.friedman(np.ones(4))
    with pytest.raises(ValueError, match="numeric"):
        S.friedman(pd.DataFrame({"a": ["x", "y"], "b": ["z", "w"]}))
    with pytest.raises(ValueError, match="higher_is_better"):
        S.friedman(np.ones((3, 3)), higher_is_better="yes")
    with pytest.raises(ValueError, match="alpha"):
        S.friedman(np.ones((3, 3)), alpha=1.5)


def test_nemenyi_q_matches_demsar_table():
    demsar = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031,
              9: 3.102, 10: 3.164}
    for k, q in demsar.items():
        assert S.nemenyi_q(k) == pytest.approx(q, abs=1e-3)
    # two classifiers: the studentised range of 2 normals / sqrt(2) is |N(0,1)|
    assert S.nemenyi_q(2, 0.1) == pytest.approx(sst.norm.ppf(0.95), abs=1e-6)
    # Demšar's worked example: 4 classifiers on 14 data sets, CD = 1.25
    assert S.nemenyi_cd(4, 14) == pytest.approx(2.569 * np.sqrt(4 * 5 / (6 * 14)), abs=1e-3)
    assert S.nemenyi_cd(4, 14) == pytest.approx(1.25, abs=5e-3)
    # smaller alpha, larger critical difference
    assert S.nemenyi_cd(5, 20, 0.01) > S.nemenyi_cd(5, 20, 0.05) > S.nemenyi_cd(5, 20, 0.10)
    with pytest.raises(ValueError, match="k"):
        S.nemenyi_q(1)
    with pytest.raises(ValueError, match="n_datasets"):
        S.nemenyi_cd(3, 0)
    with pytest.raises(ValueError, match="alpha"):
        S.nemenyi_cd(3, 10, alpha=0.0)


# ----------------------------------------------------------------------------
# maximal cliques of the CD diagram
# ----------------------------------------------------------------------------

def _brute_cliques(ranks: pd.Series, cd: float):
    names = list(ranks.index)
    close = {(a, b) for a in names for b in names if abs(ranks[a] - ranks[b]) <= cd}
    cliques = []
    for size in range(len(names), 1, -1):
        for combo in itertools.combinations(names, size):
            if all((a, b) in close for a, b in itertools.combinations(combo, 2)):
                if not any(set(combo) <= set(c) for c in cliques):
                    cliques.append(combo)
    return {frozenset(c) for c in cliques}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(4, 28), min_size=2, max_size=8),
    st.integers(0, 12),
)
def test_cd_cliques_are_the_maximal_cliques(quarters, cd_quarters):
    # multiples of 1/4 are exact in binary, so ties and |diff| == cd are tested exactly
    ranks = pd.Series([q / 4 for q in quarters], index=[f"c{i}" for i in range(len(quarters))])
    cd = cd_quarters / 4
    got = S.cd_cliques(ranks, cd)
    assert {frozenset(g) for g in got} == _brute_cliques(ranks, cd)
    assert len(got) == len({frozenset(g) for g in got})
    for g in got:  # listed in rank order
        assert list(ranks[g].to_numpy()) == sorted(ranks[g].to_numpy())


def test_cd_cliques_hand():
    r = pd.Series({"a": 1.0, "b": 1.5, "c": 2.4, "d": 3.0, "e": 4.5})
    assert S.cd_cliques(r, 1.0) == [["a", "b"], ["b", "c"], ["c", "d"]]
    assert S.cd_cliques(r, 0.1) == []
    assert S.cd_cliques(r, 3.5) == [["a", "b", "c", "d", "e"]]
    with pytest.raises(ValueError, match="cd"):
        S.cd_cliques(r, -1.0)
    with pytest.raises(ValueError, match="Series"):
        S.cd_cliques([1.0, 2.0], 1.0)


# ----------------------------------------------------------------------------
# Bayesian signed-rank test
# ----------------------------------------------------------------------------

def _independent_signed_rank(a, b, rope, nsamples, seed):
    """Benavoli et al.'s Dirichlet-process signed-rank posterior, vectorised here."""
    z = np.concatenate([[0.0], b - a])  # pseudo-observation at 0 with weight 0.5
    alpha = np.ones(len(z))
    alpha[0] = 0.5
    w = np.random.default_rng(seed).dirichlet(alpha, nsamples)
    pair = z[:, None] + z[None, :]

    def h(m):  # Heaviside with 1/2 at 0
        return (m > 0) + 0.5 * (m == 0)

    right = np.einsum("si,ij,sj->s", w, h(pair - 2 * rope), w)
    left = np.einsum("si,ij,sj->s", w, h(-pair - 2 * rope), w)
    mid = 1 - left - right
    win = np.argmax(np.column_stack([left, mid, right]), axis=1)
    return np.bincount(win, minlength=3) / nsamples


@pytest.mark.parametrize("shift,rope", [(0.0, 0.01), (0.01, 0.01), (0.004, 0.0), (-0.02, 0.01)])
def test_bayesian_signed_rank_agrees_with_independent_sampler(shift, rope):
    rng = np.random.default_rng(3)
    a = rng.uniform(0.7, 0.9, 25)
    b = a + shift + rng.normal(0, 0.02, 25)
    n = 8000
    got = S.bayesian_signed_rank(a, b, rope=rope, random_state=1, nsamples=n)
    ref = _independent_signed_rank(a, b, rope, 40000, seed=99)
    for g, p in zip(got.as_tuple(), ref):
        se = np.sqrt(p * (1 - p) / n + p * (1 - p) / 40000)
        assert abs(g - p) <= 4.5 * se + 1e-3
    assert sum(got.as_tuple()) == pytest.approx(1.0, abs=1e-12)
    if rope == 0:
        assert got.rope == 0.0


def test_bayesian_signed_rank_favours_the_better_and_is_seeded():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.6, 0.9, 30)
    better = a + 0.05 + rng.normal(0, 0.01, 30)
    r = S.bayesian_signed_rank(better, a)  # default rope 0.01, nsamples 50000
    assert r.left > 0.99 and r.left + r.rope + r.right == pytest.approx(1.0, abs=1e-12)
    r2 = S.bayesian_signed_rank(a, better, nsamples=5000)
    assert r2.right > 0.99
    # deterministic for a seed; another seed gives a (slightly) different sample
    x = a + rng.normal(0.005, 0.02, 30)
    p1 = S.bayesian_signed_rank(a, x, random_state=5, nsamples=3000)
    p2 = S.bayesian_signed_rank(a, x, random_state=5, nsamples=3000)
    p3 = S.bayesian_signed_rank(a, x, random_state=6, nsamples=3000)
    assert p1 == p2
    assert p1 != p3
    # equivalent classifiers: mass on the rope
    same = S.bayesian_signed_rank(a, a + rng.normal(0, 0.001, 30), rope=0.01, nsamples=3000)
    assert same.rope > 0.95


def test_bayesian_signed_rank_bad_input():
    with pytest.raises(ValueError, match="rope"):
        S.bayesian_signed_rank([1, 2, 3], [1, 2, 3], rope=-0.1)
    with pytest.raises(ValueError, match="nsamples"):
        S.bayesian_signed_rank([1, 2, 3], [1, 2, 3], nsamples=0)
    with pytest.raises(ValueError, match="random_state"):
        S.bayesian_signed_rank([1, 2, 3], [1, 2, 3], random_state=None)
    with pytest.raises(ValueError, match="same length"):
        S.bayesian_signed_rank([1, 2, 3], [1, 2])


# ----------------------------------------------------------------------------
# CD diagram (smoke)
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("lower_is_better", [True, False])
def test_cd_diagram_draws_and_saves(tmp_path, lower_is_better):
    rng = np.random.default_rng(4)
    scores = pd.DataFrame(rng.random((20, 6)) + np.linspace(0, 0.4, 6),
                          columns=["NCC", "LNCC", "CompAODE*", "CMA", "CDT", "NBC"])
    fr = S.friedman(scores)
    ax = cd_diagram(fr.avg_ranks, fr.cd, title="u65", lower_is_better=lower_is_better)
    names = [t.get_text() for t in ax.texts if t.get_gid() == "cd-name"]
    assert sorted(names) == sorted(scores.columns)
    n_bars = sum(1 for ln in ax.lines if ln.get_gid() == "cd-clique")
    assert n_bars == len(S.cd_cliques(fr.avg_ranks, fr.cd))
    assert ax.get_title() == "u65"
    out = tmp_path / "cd.png"
    ax.figure.savefig(out)
    assert out.stat().st_size > 1000
    plt.close(ax.figure)


def test_cd_diagram_on_given_axes_and_errors():
    fig, ax = plt.subplots()
    r = pd.Series({"a": 1.2, "b": 2.0, "c": 2.8})
    assert cd_diagram(r, 0.9, ax=ax) is ax
    # the better half sits on the left, its labels right-aligned
    left = {t.get_text() for t in ax.texts if t.get_gid() == "cd-name" and t.get_ha() == "right"}
    assert left == {"a", "b"}
    with pytest.raises(ValueError, match="cd"):
        cd_diagram(r, float("nan"), ax=ax)
    with pytest.raises(ValueError, match="NaN"):
        cd_diagram(pd.Series({"a": 1.0, "b": np.nan}), 1.0, ax=ax)
    plt.close(fig)
