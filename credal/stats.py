"""Statistical comparison of classifiers over several data sets.

* :func:`wilcoxon` - paired Wilcoxon signed-rank test of two classifiers (the
  test Corani & Antonucci use for each indicator);
* :func:`friedman` - Friedman test on average ranks with the Iman-Davenport
  F variant and the Nemenyi critical difference (Demšar, 2006);
* :func:`nemenyi_cd`, :func:`cd_cliques` - the critical difference and the
  groups of classifiers it does not separate (the bars of a CD diagram);
* :func:`bayesian_signed_rank` - Benavoli et al.'s Bayesian signed-rank test,
  computed by :mod:`baycomp`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from ._validation import check_bool, check_in_range, check_int, check_ranks

__all__ = ["WilcoxonResult", "FriedmanResult", "BayesianSignedRankResult", "wilcoxon", "friedman",
           "nemenyi_q", "nemenyi_cd", "cd_cliques", "bayesian_signed_rank"]


def _paired(a, b) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"a and b must be 1-D; got shapes {x.shape} and {y.shape}")
    if len(x) != len(y):
        raise ValueError(f"a and b must have the same length; got {len(x)} and {len(y)}")
    if len(x) == 0:
        raise ValueError("a and b are empty")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("a and b must be finite (no NaN or inf)")
    return x, y


# ------------------------------------------------------------------- Wilcoxon
@dataclass(frozen=True)
class WilcoxonResult:
    """Outcome of :func:`wilcoxon`.

    Attributes
    ----------
    statistic : float
        scipy's statistic (for a two-sided test the smaller of the positive- and
        negative-rank sums).
    pvalue : float
    n : int
        Number of pairs (including those with zero difference).
    mean_difference : float
        Mean of ``a - b``.
    """

    statistic: float
    pvalue: float
    n: int
    mean_difference: float


def wilcoxon(a, b, **kw) -> WilcoxonResult:
    """Paired Wilcoxon signed-rank test of ``a`` against ``b``.

    Parameters
    ----------
    a, b : array-like of float, shape (n_datasets,)
        Paired scores of two classifiers, one entry per data set.
    **kw
        Passed to :func:`scipy.stats.wilcoxon` (default two-sided,
        ``zero_method="wilcox"``, exact or normal approximation as scipy chooses).

    Returns
    -------
    WilcoxonResult

    Notes
    -----
    When every difference is zero there is no evidence either way: the result is ``statistic = 0``
    and ``pvalue = 1`` (scipy itself would warn and, with some options, return NaN).
    """
    x, y = _paired(a, b)
    d = x - y
    if not np.any(d != 0):
        return WilcoxonResult(0.0, 1.0, len(d), 0.0)
    res = _st.wilcoxon(x, y, **kw)
    return WilcoxonResult(float(res.statistic), float(res.pvalue), len(d), float(d.mean()))


# ------------------------------------------ Friedman, Iman-Davenport, Nemenyi
def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value ``q_alpha`` of the Nemenyi test for ``k`` classifiers.

    ``q_alpha = Q_{1-alpha}(k, inf) / sqrt(2)`` with ``Q`` the studentised
    range distribution (Demšar, 2006, Table 5a lists it to three decimals).

    Parameters
    ----------
    k : int >= 2
        Number of classifiers.
    alpha : float in (0, 1)

    Returns
    -------
    float
    """
    k = check_int("k (number of classifiers)", k, 2)
    alpha = check_in_range("alpha", alpha, 0.0, 1.0, closed="neither")
    return float(_st.studentized_range.ppf(1.0 - alpha, int(k), np.inf) / np.sqrt(2.0))


def nemenyi_cd(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference of average ranks.

    ``CD = q_alpha * sqrt(k (k + 1) / (6 N))``: two classifiers whose average ranks over ``N`` data
    sets differ by more than ``CD`` perform significantly differently at level ``alpha``.

    Parameters
    ----------
    k : int >= 2
        Number of classifiers.
    n_datasets : int >= 1
        Number of data sets ``N``.
    alpha : float in (0, 1)

    Returns
    -------
    float
    """
    check_int("n_datasets", n_datasets, 1)
    q = nemenyi_q(k, alpha)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


@dataclass(frozen=True)
class FriedmanResult:
    """Outcome of :func:`friedman`.

    Attributes
    ----------
    avg_ranks : pandas.Series
        Average rank of each classifier (1 = best), in the column order of the score table.
    ranks : pandas.DataFrame
        Rank of each classifier on each data set (ties share the average rank).
    statistic : float
        Friedman chi-square, corrected for ties as :func:`scipy.stats.friedmanchisquare`.
    pvalue : float
        Upper tail of chi-square with ``k - 1`` degrees of freedom.
    iman_davenport : float
        ``(N - 1) chi2 / (N (k - 1) - chi2)`` (``inf`` when every data set
        ranks the classifiers identically).
    iman_davenport_pvalue : float
        Upper tail of F with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom.
    n_datasets, n_classifiers : int
    alpha : float
        Level used for ``cd``.
    cd : float
        Nemenyi critical difference at ``alpha`` (:func:`nemenyi_cd`).
    """

    avg_ranks: pd.Series
    ranks: pd.DataFrame
    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    n_datasets: int
    n_classifiers: int
    alpha: float
    cd: float


def friedman(scores, higher_is_better: bool = True, alpha: float = 0.05) -> FriedmanResult:
    """Friedman test of ``k`` classifiers over ``N`` data sets.

    On each data set (row) the classifiers are ranked, 1 for the best score, ties receiving the
    average of the ranks they span. The Friedman statistic compares the average ranks with the
    value ``(k + 1) / 2`` they would all have under the null hypothesis.

    Parameters
    ----------
    scores : pandas.DataFrame, shape (n_datasets, n_classifiers)
        Rows = data sets, columns = classifiers.  A 2-D array is accepted too
        (columns are then named 0, 1, ...).
    higher_is_better : bool
        True for accuracies and utilities, False for losses.
    alpha : float in (0, 1)
        Level of the Nemenyi critical difference stored in the result.

    Returns
    -------
    FriedmanResult

    Notes
    -----
    The statistic is ``(12 / (N k (k+1)) * sum_j R_j**2 - 3 N (k+1)) / C`` where ``R_j`` is the
    rank sum of classifier ``j`` and ``C = 1 - sum t (t**2 - 1) / (N k (k**2 - 1))`` over the tie
    groups ``t`` (``C = 1`` without ties, giving Demšar's formula). If every data set ties all
    classifiers (``C = 0``) there is nothing to test: statistic 0, p-value 1.
    """
    check_bool("higher_is_better", higher_is_better)
    alpha = check_in_range("alpha", alpha, 0.0, 1.0, closed="neither")
    if isinstance(scores, pd.DataFrame):
        df = scores
    else:
        arr = np.asarray(scores)
        if arr.ndim != 2:
            raise ValueError(
                f"scores must be 2-D (n_datasets, n_classifiers); got shape {arr.shape}")
        df = pd.DataFrame(arr)
    try:
        vals = df.to_numpy(dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric: {exc}") from None
    n, k = vals.shape
    if k < 2:
        raise ValueError(f"scores needs at least 2 classifiers (columns); got {k}")
    if n < 2:
        raise ValueError(f"scores needs at least 2 data sets (rows); got {n}")
    bad = ~np.isfinite(vals)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"scores has a missing or infinite value (data set {df.index[i]!r}, "
                         f"classifier {df.columns[j]!r})")
    r = _st.rankdata(-vals if higher_is_better else vals, method="average", axis=1)
    rank_sums = r.sum(axis=0)
    # tie sizes per row: count equal values within each row
    ties = 0.0
    for row in vals:  # N rows of k values: cheap
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts * (counts**2 - 1.0)))
    c = 1.0 - ties / (n * k * (k * k - 1.0))
    if c <= 1e-12:
        chi2, p = 0.0, 1.0
    else:
        chi2 = (12.0 / (n * k * (k + 1.0)) * np.sum(rank_sums**2) - 3.0 * n * (k + 1.0)) / c
        chi2 = max(float(chi2), 0.0)  # rounding can leave -1e-15
        p = float(_st.chi2.sf(chi2, k - 1))
    denom = n * (k - 1.0) - chi2
    if denom <= 1e-12 * n * k:
        ff, pf = float("inf"), 0.0
    else:
        ff = (n - 1.0) * chi2 / denom
        pf = float(_st.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    ranks = pd.DataFrame(r, index=df.index, columns=df.columns)
    return FriedmanResult(avg_ranks=ranks.mean(axis=0), ranks=ranks, statistic=float(chi2),
                          pvalue=float(p), iman_davenport=float(ff),
                          iman_davenport_pvalue=float(pf), n_datasets=int(n), n_classifiers=int(k),
                          alpha=alpha, cd=nemenyi_cd(k, n, alpha))


def cd_cliques(avg_ranks, cd: float) -> list[list]:
    """Maximal groups of classifiers that the critical difference does not separate.

    Two classifiers are not significantly different when their average ranks differ by at most
    ``cd``. Because this relation comes from distances on a line, its maximal cliques are runs of
    consecutive classifiers in rank order: for each classifier, the run from it to the last one
    within ``cd``, kept when no earlier run already contains it.

    Parameters
    ----------
    avg_ranks : pandas.Series
        Average rank per classifier (index = names).
    cd : float >= 0
        Critical difference.

    Returns
    -------
    list of list
        Each maximal group (of at least two classifiers) as names in increasing
        rank order; groups are sorted by their best rank.  Singletons, i.e.
        classifiers significantly different from all others, are not listed.
    """
    s = check_ranks(avg_ranks)
    if not isinstance(cd, numbers.Real) or not np.isfinite(cd) or cd < 0:
        raise ValueError(f"cd must be a finite number >= 0; got {cd!r}")
    s = s.sort_values(kind="stable")
    v = s.to_numpy()
    # last index within cd of each start (non-decreasing in the start)
    last = np.searchsorted(v, v + cd, side="right") - 1
    groups = []
    prev = -1
    for i, j in enumerate(last):
        if j > i and j > prev:
            groups.append(list(s.index[i : j + 1]))
        prev = max(prev, j)
    return groups


# -------------------------------------------------- Bayesian signed-rank test
@dataclass(frozen=True)
class BayesianSignedRankResult:
    """Posterior probabilities of :func:`bayesian_signed_rank`.

    Attributes
    ----------
    left : float
        Probability that ``a`` is better than ``b`` by more than the rope (scores of ``a`` higher).
    rope : float
        Probability that the two are practically equivalent.
    right : float
        Probability that ``b`` is better than ``a`` by more than the rope.
    """

    left: float
    rope: float
    right: float

    def as_tuple(self) -> tuple[float, float, float]:
        return (self.left, self.rope, self.right)


def bayesian_signed_rank(a, b, rope: float = 0.01, random_state=0,
                         nsamples: int = 50000) -> BayesianSignedRankResult:
    """Bayesian signed-rank test (Benavoli et al., 2014), via :mod:`baycomp`.

    The posterior of the Dirichlet process on the paired differences is sampled ``nsamples`` times;
    each sample decides which of the three regions (``a`` better, equivalent within ``rope``, ``b``
    better) is the most probable, and the reported probabilities are the shares of samples won.

    Parameters
    ----------
    a, b : array-like of float, shape (n_datasets,)
        Paired scores (higher = better) of two classifiers.
    rope : float >= 0
        Half-width of the region of practical equivalence, in score units (0.01 = one point of
        accuracy). With ``rope = 0`` the ``rope`` probability is 0.
    random_state : int
        Seed of the sampler; the result is deterministic for a given seed.
    nsamples : int >= 1

    Returns
    -------
    BayesianSignedRankResult
        ``left + rope + right == 1``.
    """
    import baycomp  # local import: only this function needs it
    x, y = _paired(a, b)
    if not isinstance(rope, numbers.Real) or not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be a finite number >= 0; got {rope!r}")
    check_int("nsamples", nsamples, 1)
    if random_state is None or not isinstance(random_state, numbers.Integral):
        raise ValueError(f"random_state must be an integer seed; got {random_state!r}")
    post = baycomp.SignedRankTest(x, y, float(rope), nsamples=int(nsamples),
                                  random_state=int(random_state))
    left, eq, right = post.probs(with_rope=True)
    return BayesianSignedRankResult(float(left), float(eq), float(right))
