"""Paired comparisons of classifiers across data sets, from the engine's fold table.

The evaluation engine (:func:`credal.experiments.cross_validate`) returns one row per (data set,
classifier, repeat, fold) with the metrics of :func:`credal.metrics.summary`. This module turns
that table into what papers report when they compare classifiers over a collection of data sets:

* :func:`dataset_scores` - one score per data set and classifier, every metric pooled
  over the test instances of all folds (conditional metrics such as the accuracy on the
  indeterminate instances are weighted by the number of instances they average over, so folds
  without such instances do not count), plus the utilities of a credal classifier on its
  indeterminate instances, which the fold table determines exactly;
* :func:`score_matrix` - one metric as a data set x classifier matrix;
* :func:`repeat_standard_error` - the Monte-Carlo standard error of any statistic of
  the scores, from its spread over the independent cross-validation repeats;
* :func:`paired_comparisons` - Wilcoxon signed-rank p-values and Bayesian signed-rank
  probabilities (:mod:`credal.stats`) for a list of paired comparisons, each of which
  may pair different metrics (e.g. a credal classifier's utility against its precise
  counterpart's accuracy, or one classifier's accuracy on two subsets of instances);
* :func:`friedman_comparison` - Friedman test, average ranks and Nemenyi critical
  differences at several levels, with the pairs each level separates.

Nothing here evaluates a classifier; all numbers come from the engine's tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from credal import stats
from credal._validation import check_int

__all__ = ["POOLED_METRICS", "dataset_scores", "score_matrix", "repeat_standard_error",
           "paired_comparisons", "friedman_comparison", "significant_pairs"]

#: metric -> the instances it averages over ("all", "determinate", "indeterminate");
#: the fold values are pooled with these instance counts as weights.
POOLED_METRICS = {"accuracy": "all", "determinacy": "all", "discounted_accuracy": "all",
                  "u65": "all", "u80": "all", "coverage": "all", "brier": "all",
                  "single_accuracy": "determinate", "precise_on_determinate": "determinate",
                  "set_accuracy": "indeterminate", "indeterminate_size": "indeterminate",
                  "precise_on_indeterminate": "indeterminate",
                  "u65_on_indeterminate": "indeterminate", "u80_on_indeterminate": "indeterminate"}

_REQUIRED = ("n_test", "determinacy", "single_accuracy", "u65", "u80")


def _check_folds(folds, by):
    if not isinstance(folds, pd.DataFrame):
        raise TypeError(f"folds must be the engine's fold DataFrame; got {type(folds).__name__}")
    if missing := [c for c in (*by, *_REQUIRED) if c not in folds.columns]:
        raise ValueError(f"folds lacks the column(s) {missing}; pass CVResult.folds")
    if folds.empty:
        raise ValueError("folds is empty")


def dataset_scores(folds, by=("dataset", "classifier"), se=False) -> pd.DataFrame:
    """Every metric pooled over the test instances of the folds of each group.

    A metric that averages over all test instances is weighted by ``n_test``; one
    that averages over the determinate (indeterminate) instances of a fold is
    weighted by their number, so the result is the metric over all those instances
    of all folds together (folds where the subset is empty do not count).  Besides
    the engine's metrics the result holds ``accuracy`` (the precise prediction's
    accuracy: for a credal classifier, its precise counterpart's), the utilities on
    the indeterminate instances ``u65_on_indeterminate`` / ``u80_on_indeterminate``
    (exact: on a fold, ``n u = n_det single_accuracy + sum of the indeterminate
    utilities``), and the counts ``n_test``, ``n_determinate``, ``n_indeterminate``,
    ``n_folds``.

    Parameters
    ----------
    folds : DataFrame
        :attr:`credal.experiments.CVResult.folds`.
    by : tuple of str
        Grouping columns (add ``"repeat"`` for per-repeat scores).
    se : bool
        Add a column ``<metric>_se`` after each metric: the Monte-Carlo standard error
        ``sd / sqrt(R)`` of the metric's per-repeat values over the ``R`` cross-validation repeats
        (NaN with one repeat or fewer than two repeats where the metric is defined).

    Returns
    -------
    DataFrame
        Indexed by ``by``; one column per metric (NaN where the subset a metric
        averages over is empty in every fold, or where the engine had no value,
        e.g. ``brier`` without probabilities).
    """
    by = list(by)
    _check_folds(folds, by)
    f = folds
    n = f["n_test"].to_numpy(dtype=float)
    det = f["determinacy"].to_numpy(dtype=float)
    n_det = np.rint(n * det)
    n_ind = n - n_det
    weights = {"all": n, "determinate": n_det, "indeterminate": n_ind}
    acc_col = "precise_accuracy" if "precise_accuracy" in f else "single_accuracy"
    values = {"accuracy": f[acc_col].to_numpy(dtype=float)}
    single = np.nan_to_num(f["single_accuracy"].to_numpy(dtype=float))
    for u in ("u65", "u80"):
        # sum of the utilities of the indeterminate instances of the fold, per instance
        with np.errstate(invalid="ignore", divide="ignore"):
            values[f"{u}_on_indeterminate"] = np.where(
                n_ind > 0, (n * f[u].to_numpy(dtype=float) - n_det * single) / n_ind, np.nan)
    parts = {c: f[c] for c in by}
    for metric, subset in POOLED_METRICS.items():
        v = values.get(metric)
        if v is None:
            if metric not in f:
                continue
            v = f[metric].to_numpy(dtype=float)
        w = weights[subset]
        ok = (w > 0) & np.isfinite(v)
        parts[f"__num_{metric}"] = np.where(ok, w * np.where(ok, v, 0.0), 0.0)
        parts[f"__den_{metric}"] = np.where(ok, w, 0.0)
    parts.update(n_test=n, n_determinate=n_det, n_indeterminate=n_ind, n_folds=np.ones(len(f)))
    g = pd.DataFrame(parts).groupby(by, sort=True).sum()
    out = pd.DataFrame(index=g.index)
    for metric in POOLED_METRICS:
        if f"__num_{metric}" not in g:
            continue
        den = g[f"__den_{metric}"]
        out[metric] = (g[f"__num_{metric}"] / den.where(den > 0)).astype(float)
    for c in ("n_test", "n_determinate", "n_indeterminate", "n_folds"):
        out[c] = g[c].astype(int)
    if se:
        if "repeat" not in f or "repeat" in by:
            raise ValueError("se=True needs a 'repeat' column that is not in `by`")
        per = dataset_scores(f, by=[*by, "repeat"])
        metrics = [m for m in POOLED_METRICS if m in out]
        grouped = per[metrics].groupby(level=list(range(len(by))), sort=True)
        err = grouped.std(ddof=1) / np.sqrt(grouped.count())
        cols = []
        for m in metrics:
            out[f"{m}_se"] = err[m].reindex(out.index)
            cols += [m, f"{m}_se"]
        out = out[cols + ["n_test", "n_determinate", "n_indeterminate", "n_folds"]]
    return out


def score_matrix(scores, metric, classifiers=None) -> pd.DataFrame:
    """One metric of :func:`dataset_scores` as a data set x classifier matrix.

    Parameters
    ----------
    scores : DataFrame
        Indexed by (dataset, classifier).
    metric : str
    classifiers : list of str, optional
        Columns to keep, in this order (default: all, sorted).

    Returns
    -------
    DataFrame, index = data sets, columns = classifiers
    """
    if metric not in scores.columns:
        raise KeyError(f"no metric {metric!r}; available: {list(scores.columns)}")
    m = scores[metric].unstack("classifier")
    if classifiers is not None:
        if unknown := [c for c in classifiers if c not in m.columns]:
            raise KeyError(f"no classifier {unknown}; available: {list(m.columns)}")
        m = m[list(classifiers)]
    m.columns.name = None
    return m


def repeat_standard_error(folds, statistic, by=("dataset", "classifier")):
    """A statistic of the pooled scores and its Monte-Carlo standard error.

    The statistic is computed on the scores of all repeats together and on those of
    each cross-validation repeat alone; the repeats use independent shuffles, so the
    standard error of the all-repeat value is estimated by ``sd(per-repeat values) /
    sqrt(R)``.

    Parameters
    ----------
    folds : DataFrame
        :attr:`credal.experiments.CVResult.folds` (needs a ``repeat`` column).
    statistic : callable
        ``statistic(scores) -> float or Series`` on a :func:`dataset_scores` table.
    by : tuple of str
        Grouping of :func:`dataset_scores`.

    Returns
    -------
    value, se : float or Series
        ``se`` is NaN with a single repeat.
    """
    if "repeat" not in folds:
        raise ValueError("folds needs a 'repeat' column")
    value = statistic(dataset_scores(folds, by))
    reps = [statistic(dataset_scores(part, by)) for _, part in folds.groupby("repeat", sort=True)]
    if len(reps) < 2:
        se = value * np.nan
    elif isinstance(value, pd.Series):
        se = pd.concat(reps, axis=1).std(axis=1, ddof=1) / np.sqrt(len(reps))
    else:
        se = float(np.std(np.asarray(reps, dtype=float), ddof=1) / np.sqrt(len(reps)))
    return value, se


def _column(scores, classifier, metric):
    if metric not in scores.columns:
        raise KeyError(f"no metric {metric!r}; available: {list(scores.columns)}")
    s = scores[metric]
    try:
        return s.xs(classifier, level="classifier")
    except KeyError:
        raise KeyError(f"no classifier {classifier!r} in the scores") from None


def paired_comparisons(scores, comparisons, rope=0.01, nsamples=50000,
                       random_state=0) -> pd.DataFrame:
    """Wilcoxon and Bayesian signed-rank tests of paired per-data-set scores.

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores` indexed by (dataset, classifier).
    comparisons : list of dict
        Each with keys ``a`` and ``b`` (classifier names), ``metric`` (both sides) or ``metric_a``
        and ``metric_b``, optional ``higher_is_better`` (default True; False for losses such as
        ``brier``) and optional ``id`` and ``label``. Data sets where either side is NaN (e.g. no
        indeterminate instance) are left out of that comparison.
    rope : float
        Region of practical equivalence of the Bayesian test, in score units.
    nsamples : int
        Posterior samples of the Bayesian test.
    random_state : int
        Seed of the Bayesian test (the same for every comparison).

    Returns
    -------
    DataFrame
        One row per comparison: ``id``, ``label``, ``a``, ``metric_a``, ``b``, ``metric_b``,
        ``n_datasets``, ``mean_a``, ``mean_b``, ``mean_difference`` (a - b),
        ``a_better``/``ties``/``b_better`` (data set counts), ``wilcoxon_p`` (two-sided),
        ``p_a_better``, ``p_rope``, ``p_b_better`` (Bayesian signed-rank posterior probabilities;
        "better" follows ``higher_is_better``) and ``bayes_mc_se`` (largest Monte-Carlo standard
        error of the three probabilities).
    """
    check_int("nsamples", nsamples, 1)
    rows = []
    for i, comp in enumerate(comparisons):
        if "a" not in comp or "b" not in comp:
            raise ValueError(f"comparison {i} needs keys 'a' and 'b'; got {sorted(comp)}")
        ma = comp.get("metric_a", comp.get("metric"))
        mb = comp.get("metric_b", comp.get("metric"))
        if ma is None or mb is None:
            raise ValueError(f"comparison {i} needs 'metric' or 'metric_a' and 'metric_b'")
        hib = bool(comp.get("higher_is_better", True))
        a = _column(scores, comp["a"], ma)
        b = _column(scores, comp["b"], mb)
        pair = pd.concat([a.rename("a"), b.rename("b")], axis=1, join="inner").dropna()
        x, y = pair["a"].to_numpy(), pair["b"].to_numpy()
        row = {"id": comp.get("id", i), "label": comp.get("label", ""),
               "a": comp["a"], "metric_a": ma, "b": comp["b"], "metric_b": mb,
               "higher_is_better": hib, "n_datasets": len(pair)}
        if len(pair) == 0:
            rows.append(row)
            continue
        sign = 1.0 if hib else -1.0
        d = sign * (x - y)
        row.update(mean_a=float(x.mean()), mean_b=float(y.mean()),
                   mean_difference=float((x - y).mean()), a_better=int((d > 0).sum()),
                   ties=int((d == 0).sum()), b_better=int((d < 0).sum()),
                   wilcoxon_p=stats.wilcoxon(x, y).pvalue)
        bayes = stats.bayesian_signed_rank(sign * x, sign * y, rope=rope,
                                           random_state=random_state, nsamples=nsamples)
        probs = np.array(bayes.as_tuple())
        row.update(p_a_better=bayes.left, p_rope=bayes.rope, p_b_better=bayes.right,
                   bayes_mc_se=float(np.sqrt(probs * (1 - probs) / nsamples).max()))
        rows.append(row)
    cols = ["id", "label", "a", "metric_a", "b", "metric_b", "higher_is_better",
            "n_datasets", "mean_a", "mean_b", "mean_difference", "a_better", "ties",
            "b_better", "wilcoxon_p", "p_a_better", "p_rope", "p_b_better", "bayes_mc_se"]
    return pd.DataFrame(rows).reindex(columns=cols)


def significant_pairs(avg_ranks, cd) -> list[tuple]:
    """Pairs of classifiers whose average ranks differ by more than ``cd``.

    Parameters
    ----------
    avg_ranks : Series
        Average rank per classifier (1 = best).
    cd : float
        Critical difference.

    Returns
    -------
    list of (better, worse, rank difference), largest difference first
    """
    s = pd.Series(avg_ranks, dtype=float)
    out = []
    names = list(s.index)
    for i, p in enumerate(names):
        for q in names[i + 1:]:
            diff = abs(s[p] - s[q])
            if diff > cd:
                better, worse = (p, q) if s[p] < s[q] else (q, p)
                out.append((better, worse, float(diff)))
    return sorted(out, key=lambda t: -t[2])


def friedman_comparison(matrices, alphas=(0.05, 0.10)):
    """Friedman tests with Nemenyi critical differences at several levels.

    Parameters
    ----------
    matrices : dict of str -> DataFrame
        Name (e.g. the utility) -> data set x classifier scores (higher = better);
        rows with a missing value are dropped.
    alphas : sequence of float
        Levels of the critical differences.

    Returns
    -------
    ranks : DataFrame
        One row per matrix: average rank of each classifier, ``n_datasets``, ``friedman_p``,
        ``iman_davenport_p`` and ``cd_<level>`` for each level (e.g. ``cd_95%``).
    pairs : DataFrame
        One row per matrix and pair of classifiers: ``better``, ``worse``,
        ``rank_difference`` and ``significant_<level>`` (Nemenyi) for each level.
    """
    alphas = [float(a) for a in alphas]
    if not alphas:
        raise ValueError("give at least one alpha")
    rank_rows, pair_rows = [], []
    for name, m in matrices.items():
        m = m.dropna()
        base = stats.friedman(m, higher_is_better=True, alpha=alphas[0])
        cds = {a: stats.nemenyi_cd(base.n_classifiers, base.n_datasets, a) for a in alphas}
        row = {"scores": name, **base.avg_ranks.to_dict(), "n_datasets": base.n_datasets,
               "friedman_p": base.pvalue, "iman_davenport_p": base.iman_davenport_pvalue}
        row.update({f"cd_{_level(a)}": cds[a] for a in alphas})
        rank_rows.append(row)
        r = base.avg_ranks
        names = list(r.index)
        for i, p in enumerate(names):
            for q in names[i + 1:]:
                better, worse = (p, q) if r[p] <= r[q] else (q, p)
                diff = float(abs(r[p] - r[q]))
                pr = {"scores": name, "better": better, "worse": worse, "rank_difference": diff}
                pr.update({f"significant_{_level(a)}": bool(diff > cds[a]) for a in alphas})
                pair_rows.append(pr)
    return (pd.DataFrame(rank_rows).set_index("scores"), pd.DataFrame(pair_rows))


def _level(alpha):
    return f"{100 * (1 - alpha):g}%"
