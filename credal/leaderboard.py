"""Every credal classifier of the library under one protocol, and how fast they are.

Two chapters of the book rest on this module.

Leaderboard
    :data:`REGISTRY` lists every credal classifier of the library with its precise
    counterpart and its rule for missing values.  :func:`run_leaderboard` evaluates them
    all through the one engine (:func:`credal.experiments.cross_validate`) on every
    shipped data set: repeated stratified k-fold cross-validation with the same folds
    for every classifier, MDL discretisation fitted inside each training fold
    (:func:`credal.experiments.default_preprocessing`) and no imputation, so that each
    classifier meets missing values with its own rule (declared classes that no row
    has are removed first, :func:`observed_classes`).  The precise counterparts are
    not fitted again: the engine records each credal classifier's ``predict``, which is
    its counterpart's choice, and :func:`run_leaderboard` turns those labels into rows
    of their own.  Where a classifier's ``predict`` is not its counterpart's choice
    (LNCC and RBC, whose counterpart is the naive Bayes classifier), the counterpart's
    labels are read from the classifier that provides them (NCC) on the same folds and
    test rows.  :func:`dataset_scores`, :func:`leaderboard_table`, :func:`rank_tables`,
    :func:`top_pair_comparisons`, :func:`win_tables`, :func:`incomplete_table` and
    :func:`published_comparison` turn the fold table into the chapter's tables.

Performance
    :func:`throughput` measures instances classified per second and the ratio to a
    straightforward solver implementation of the same decision (the ``*_baseline``
    functions below: one scipy problem per instance and ordered class pair, run in the
    same process on a prefix of the same test rows, whose sets are compared with
    ours); :func:`fit_scaling` and :func:`scaling_slopes` measure how fit time grows
    with the number of rows and of features; :func:`peak_memory` uses
    :mod:`tracemalloc`; :func:`chapter_timings` and :func:`goals_table` report the
    book's wall times against the project's goals.

Nothing here changes a classifier: every estimator is a plain library class, so the
engine's fold cache keys do not depend on this module's source.
"""

from __future__ import annotations

import pickle
import time
import tracemalloc
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from credal import comparisons, datasets

__all__ = [
    "Entry",
    "REGISTRY",
    "DEFAULT_PARAMS",
    "registry_table",
    "entries",
    "make_estimators",
    "aode_epsilon",
    "observed_classes",
    "dataset_info",
    "LeaderboardResult",
    "run_leaderboard",
    "dataset_scores",
    "leaderboard_table",
    "display_leaderboard",
    "rank_tables",
    "display_ranks",
    "top_pair_comparisons",
    "display_pairs",
    "SIZE_BINS",
    "CLASS_BINS",
    "MISSING_BINS",
    "bin_datasets",
    "win_tables",
    "incomplete_table",
    "published_comparison",
    "published_summary",
    "chapter_numbers",
    "ncc_baseline_sets",
    "lncc_baseline_sets",
    "cma_baseline_sets",
    "bma_aode_baseline_sets",
    "comp_aode_baseline_sets",
    "cdt_baseline_sets",
    "rbc_baseline_sets",
    "BASELINES",
    "prepared_fold",
    "throughput",
    "fit_scaling",
    "scaling_slopes",
    "peak_memory",
    "chapter_timings",
    "goals_table",
    "performance_numbers",
]


# ============================================================================
# registry
# ============================================================================

@dataclass(frozen=True)
class Entry:
    """One classifier of the leaderboard.

    Attributes
    ----------
    name : str
        Name in the tables.
    kind : {"credal", "precise"}
    estimator : str
        The library class and the parameters that matter (filled from the run's
        parameters by :func:`registry_table`).
    counterpart : str
        Credal entries: the name of their precise counterpart.  Empty for precise ones.
    source : str
        Whose ``predict`` gives this entry's precise labels: a credal entry's
        counterpart labels come from ``source`` (empty = its own ``predict``); a precise
        entry is the ``predict`` of the credal entry ``source``.
    scope : {"all", "incomplete"}
        Data sets the entry runs on ("incomplete": those with a missing feature value).
    missing : str
        How the classifier treats missing feature values.
    reference : str
        Where the classifier comes from.
    """

    name: str
    kind: str
    estimator: str
    counterpart: str
    source: str
    scope: str
    missing: str
    reference: str


_MAR_NAIVE = ("missing at random: each count table of a feature uses the training rows "
              "where that feature is observed, and a feature missing in the instance "
              "to classify drops out of the product")

#: Every classifier of the leaderboard, credal ones first.
REGISTRY: tuple[Entry, ...] = (
    Entry("NCC", "credal", "credal.NCC(s={ncc_s})", "NBC", "", "all", _MAR_NAIVE,
          "Zaffalon 2001; JNCC2"),
    Entry("NCC-ε", "credal", "credal.NCC(s={ncc_s}, epsilon={ncc_epsilon})", "NBC", "",
          "all", _MAR_NAIVE, "Corani & Benavoli 2010; Antonucci et al. 2011"),
    Entry("LNCC", "credal", "credal.LNCC(alpha={lncc_alpha})", "NBC", "NCC", "all",
          "available-case likelihood (missing at random): the factors of a feature use "
          "the rows where it is observed; a feature missing in the instance drops out",
          "Antonucci, Cattaneo & Corani 2011"),
    Entry("CMA", "credal", "credal.CMA(alpha={cma_alpha}, inclusion in "
          "[{cma_lower}, {cma_upper}])", "BMA-NB", "", "all",
          "available-case counts per feature (missing at random); a feature missing in "
          "the instance drops out (its averaged factor is the same for every class)",
          "Corani & Zaffalon 2008"),
    Entry("BMA-AODE*", "credal", "credal.CredalBMAAODE(s={aode_s}, epsilon={aode_epsilon}, "
          "prune_factor={aode_prune_factor:g})", "BMA-AODE", "", "all",
          "each table is normalised over the rows where it is defined (missing at "
          "random); a missing child feature drops out, a missing super-parent is "
          "marginalised over its values", "Corani & Antonucci 2013"),
    Entry("COMP-AODE*", "credal", "credal.CredalCompAODE(s={aode_s}, "
          "epsilon={aode_epsilon})", "COMP-AODE", "", "all",
          "as BMA-AODE*", "Corani & Antonucci 2013"),
    Entry("CDT", "credal", "credal.CredalDecisionTree(s={cdt_s}, branching='simple')",
          "CDT-freq", "", "all",
          "C4.5's fractional instances: a gain uses the rows where the feature is "
          "observed, times the observed share; a missing split value sends the row down "
          "every branch and the set is the union of the leaves' sets",
          "Abellán & Moral 2003"),
    Entry("CDT-double", "credal", "credal.CredalDecisionTree(s={cdt_s}, "
          "branching='double')", "CDT-double-freq", "", "all", "as CDT",
          "Abellán & Moral (slides)"),
    Entry("RBC", "credal", "credal.RobustBayes(alpha={rbc_alpha})", "NBC", "NCC",
          "incomplete",
          "no assumption on why values are missing: every parameter is the interval "
          "over all completions of the training data; a feature missing in the "
          "instance drops out", "Ramoni & Sebastiani 2001"),
    Entry("NBC", "precise", "credal.NaiveBayes(prior='perks', s={ncc_s})", "", "NCC",
          "all", _MAR_NAIVE, "naive Bayes (NCC's predict)"),
    Entry("BMA-NB", "precise", "credal.ModelAveragedNaiveBayes(prior='bdeu', "
          "alpha={cma_alpha}, arc_prior=0.5)", "", "CMA", "all",
          "as CMA", "Bayesian model averaging over naive structures (CMA's predict)"),
    Entry("BMA-AODE", "precise", "credal.BMAAODE(s={aode_s}, "
          "prune_factor={aode_prune_factor:g})", "", "BMA-AODE*", "all",
          "as BMA-AODE*", "BMA-AODE*'s predict"),
    Entry("COMP-AODE", "precise", "credal.CompAODE(s={aode_s}, epsilon={aode_epsilon})", "",
          "COMP-AODE*", "all", "as BMA-AODE*", "COMP-AODE*'s predict"),
    Entry("CDT-freq", "precise", "the CDT with the most frequent class of the leaf", "",
          "CDT", "all", "as CDT (frequencies averaged over the leaves reached)",
          "CDT's predict"),
    Entry("CDT-double-freq", "precise", "the double CDT with the most frequent class of "
          "the leaf", "", "CDT-double", "all", "as CDT", "CDT-double's predict"),
    Entry("RBC_u", "precise", "credal.RobustBayes(alpha={rbc_alpha}).predict "
          "(complete-admissible score)", "", "RBC", "incomplete", "as RBC",
          "RBC's predict"),
)

#: Parameters of the classifiers (the chapters' parameter cells override them).
DEFAULT_PARAMS = {
    "ncc_s": 1.0,
    "ncc_epsilon": 0.05,
    "lncc_alpha": 0.75,
    "cma_alpha": 1.0,
    "cma_lower": 0.1,
    "cma_upper": 0.9,
    "aode_s": 1.0,
    "aode_epsilon": 0.01,
    "aode_prune_factor": 1e4,
    "cdt_s": 1.0,
    "rbc_alpha": 1.0,
}


def _params(params):
    out = dict(DEFAULT_PARAMS)
    unknown = set(params or {}) - set(out)
    if unknown:
        raise ValueError(f"unknown classifier parameters {sorted(unknown)}; "
                         f"known: {sorted(out)}")
    out.update(params or {})
    return out


def _by_name():
    return {e.name: e for e in REGISTRY}


def entries(classifiers=(), kind=None):
    """Registry entries selected by name (credal names pull in their counterparts).

    Parameters
    ----------
    classifiers : sequence of str
        Credal or precise names; empty = every entry.  A credal name adds its
        counterpart, a precise name its source.
    kind : {"credal", "precise"}, optional
        Keep only this kind.

    Returns
    -------
    list of Entry
        In registry order.
    """
    reg = _by_name()
    unknown = [c for c in classifiers if c not in reg]
    if unknown:
        raise KeyError(f"unknown classifier(s) {unknown}; known: {list(reg)}")
    if classifiers:
        wanted = set(classifiers)
        for c in list(classifiers):
            e = reg[c]
            if e.kind == "credal":
                wanted.add(e.counterpart)
                if e.source:
                    wanted.add(e.source)
            else:
                wanted.add(e.source)
        # a counterpart is itself the predict of some credal source
        for c in list(wanted):
            if reg[c].kind == "precise":
                wanted.add(reg[c].source)
    else:
        wanted = set(reg)
    out = [e for e in REGISTRY if e.name in wanted]
    return [e for e in out if kind is None or e.kind == kind]


def registry_table(params=None, classifiers=()) -> pd.DataFrame:
    """The registry as a table: kind, estimator with parameters, counterpart, missing values.

    Parameters
    ----------
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS` keys).
    classifiers : sequence of str
        As in :func:`entries`.

    Returns
    -------
    DataFrame indexed by classifier name.
    """
    p = _params(params)
    rows = []
    for e in entries(classifiers):
        d = asdict(e)
        d["estimator"] = e.estimator.format(**p)
        if e.kind == "credal":
            d["counterpart labels"] = (f"{e.source}'s predict" if e.source
                                       else "its own predict")
        else:
            d["counterpart labels"] = f"{e.source}'s predict"
        rows.append(d)
    df = pd.DataFrame(rows).set_index("name")
    df.index.name = "classifier"
    df["data sets"] = df.pop("scope").map({"all": "all", "incomplete": "with missing values"})
    return df[["kind", "estimator", "counterpart", "counterpart labels", "data sets",
               "missing", "reference"]].rename(columns={"missing": "missing values"})


def aode_epsilon(epsilon, n_features):
    """The ε of BMA-AODE* and COMP-AODE* on a data set with ``n_features`` features.

    The credal set of the SPODE priors needs ``ε < 1/(k + 1)`` for ``k`` SPODEs; on data
    sets with 99 or more features the paper's 0.01 is too large, and ε becomes
    ``0.9 / (n_features + 1)`` (``k`` never exceeds the number of features).

    Parameters
    ----------
    epsilon : float
    n_features : int

    Returns
    -------
    float
    """
    return float(min(epsilon, 0.9 / (int(n_features) + 1)))


def make_estimators(names, params=None, n_features=None):
    """Fresh estimators of the credal entries ``names``.

    Parameters
    ----------
    names : sequence of str
        Credal entry names.
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS` keys).
    n_features : int, optional
        Features of the data set (caps the AODE ε, see :func:`aode_epsilon`).

    Returns
    -------
    dict of str -> estimator
    """
    import credal

    p = _params(params)
    eps = p["aode_epsilon"] if n_features is None else aode_epsilon(p["aode_epsilon"],
                                                                    n_features)
    factories = {
        "NCC": lambda: credal.NCC(s=p["ncc_s"]),
        "NCC-ε": lambda: credal.NCC(s=p["ncc_s"], epsilon=p["ncc_epsilon"]),
        "LNCC": lambda: credal.LNCC(alpha=p["lncc_alpha"]),
        "CMA": lambda: credal.CMA(alpha=p["cma_alpha"], inclusion_lower=p["cma_lower"],
                                  inclusion_upper=p["cma_upper"]),
        "BMA-AODE*": lambda: credal.CredalBMAAODE(s=p["aode_s"], epsilon=eps,
                                                  prune_factor=p["aode_prune_factor"]),
        "COMP-AODE*": lambda: credal.CredalCompAODE(s=p["aode_s"], epsilon=eps),
        "CDT": lambda: credal.CredalDecisionTree(s=p["cdt_s"], branching="simple"),
        "CDT-double": lambda: credal.CredalDecisionTree(s=p["cdt_s"], branching="double"),
        "RBC": lambda: credal.RobustBayes(alpha=p["rbc_alpha"]),
    }
    bad = [n for n in names if n not in factories]
    if bad:
        raise KeyError(f"not credal entries: {bad}")
    return {n: factories[n]() for n in names}


# ============================================================================
# the protocol
# ============================================================================

def _complete_rows(ds):
    keep = ~ds.y.isna().to_numpy()
    return ds.X.loc[keep], ds.y.loc[keep]


def observed_classes(ds):
    """``(name, X, y)`` of a data set whose class keeps only the classes that occur.

    Some files declare classes that no row has (anneal's class 4, the three heart
    disease labels that Weka's copies never use, ...).  No test instance can have such
    a class, and a credal classifier cannot rule out a class it has never seen (the IDM
    leaves its probability vacuous), so the leaderboard removes them before the folds
    are drawn.  Classes that occur in the data set but miss some training fold are kept.

    Parameters
    ----------
    ds : Dataset
        A loaded data set (:func:`credal.datasets.load`).

    Returns
    -------
    tuple (str, DataFrame, Series)
        For :func:`credal.experiments.cross_validate`.
    """
    y = ds.y
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.cat.remove_unused_categories()
    return ds.name, ds.X, y


def dataset_info(data) -> pd.DataFrame:
    """Size, features, classes and share of missing values of the data sets.

    Parameters
    ----------
    data : list of str or Dataset
        Catalogue names or loaded data sets.

    Returns
    -------
    DataFrame indexed by ``dataset``: ``n`` (rows with a class), ``features``,
    ``classes`` (observed), ``unused_classes`` (declared but never observed),
    ``min_class_count`` (rows of the rarest observed class), ``pct_missing``
    (missing feature cells, percent, among those rows) and ``incomplete`` (any
    missing feature value).
    """
    rows = []
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        X, y = _complete_rows(ds)
        miss = float(X.isna().to_numpy().mean() * 100) if X.size else 0.0
        observed = int(pd.Series(y).nunique())
        declared = len(y.cat.categories) if isinstance(y.dtype, pd.CategoricalDtype) \
            else observed
        rows.append({"dataset": ds.name, "n": len(X), "features": X.shape[1],
                     "classes": observed, "unused_classes": declared - observed,
                     "min_class_count": int(pd.Series(y).value_counts().loc[lambda v: v > 0]
                                            .min()) if len(y) else 0,
                     "pct_missing": miss, "incomplete": bool(X.isna().to_numpy().any())})
    return pd.DataFrame(rows).set_index("dataset")


@dataclass
class LeaderboardResult:
    """Output of :func:`run_leaderboard`.

    Attributes
    ----------
    folds : DataFrame
        The engine's fold table of the credal classifiers, plus one row per fold for
        each precise counterpart.  For a credal classifier ``precise_accuracy``,
        ``precise_on_determinate`` and ``precise_on_indeterminate`` are its
        counterpart's accuracy on all, determinate and indeterminate test instances,
        ``own_accuracy`` the accuracy of its own ``predict``; ``counterpart`` names the
        counterpart.
    info : DataFrame
        :func:`dataset_info` of the data sets, with ``k_mdl`` (mean number of features
        left by the fold preprocessing).
    params : dict
        The classifier parameters used.
    """

    folds: pd.DataFrame
    info: pd.DataFrame
    params: dict


_PRECISE_NAN = ("set_accuracy", "indeterminate_size", "precise_on_indeterminate")


def _counterpart_folds(preds, credal_name, source_name):
    """Per fold: the source's labels scored on the credal classifier's test rows."""
    key = ["repeat", "fold", "row"]
    a = preds.loc[preds["classifier"] == credal_name, key + ["y_true", "set_size"]]
    b = preds.loc[preds["classifier"] == source_name, key + ["y_pred"]]
    m = a.merge(b, on=key, how="left", validate="one_to_one")
    if m["y_pred"].isna().any():
        raise ValueError(f"{source_name} has no prediction for some test rows of "
                         f"{credal_name}")
    correct = (m["y_pred"].astype(str) == m["y_true"].astype(str)).astype(float)
    ind = m["set_size"].to_numpy() > 1
    frame = pd.DataFrame({"repeat": m["repeat"], "fold": m["fold"], "c": correct,
                          "c_det": correct.where(~ind), "c_ind": correct.where(ind)})
    g = frame.groupby(["repeat", "fold"], sort=True)
    return pd.DataFrame({"precise_accuracy": g["c"].mean(),
                         "precise_on_determinate": g["c_det"].mean(),
                         "precise_on_indeterminate": g["c_ind"].mean()}).reset_index()


def _precise_rows(folds, entry):
    src = folds[folds["classifier"] == entry.source]
    if src.empty:
        return src
    out = src.copy()
    acc = out["own_accuracy"].to_numpy(dtype=float)
    out["classifier"] = entry.name
    out["credal"] = False
    out["counterpart"] = ""
    for c in ("determinacy",):
        out[c] = 1.0
    for c in ("single_accuracy", "discounted_accuracy", "u65", "u80", "coverage",
              "precise_accuracy", "precise_on_determinate", "own_accuracy"):
        out[c] = acc
    for c in _PRECISE_NAN:
        out[c] = np.nan
    for c in ("fit_time", "predict_time"):
        out[c] = np.nan  # shared with the source's run; not attributable
    return out


def run_leaderboard(data, *, classifiers=(), params=None, n_splits=5, n_repeats=10,
                    random_state=0, n_jobs=1, cache_dir=None, progress=False):
    """Evaluate the registry's classifiers on data sets under one protocol.

    Every data set goes through :func:`credal.experiments.cross_validate` with the
    default preprocessing (MDL discretisation fitted on each training fold, features
    left with a single category removed, no imputation), the same folds for every
    classifier, rows with a missing class dropped and declared classes that never
    occur removed (:func:`observed_classes`).  RBC (scope "incomplete") runs
    only on data sets with a missing feature value.  Classifiers whose counterpart
    labels come from another classifier (LNCC and RBC from NCC) are run in a second
    engine call that keeps the per-instance predictions, from which their
    counterpart's accuracy on their determinate and indeterminate instances is
    computed; the predictions are then dropped.

    Parameters
    ----------
    data : list of str or Dataset
        Data sets (catalogue names or loaded).
    classifiers : sequence of str
        Registry names (:func:`entries`); empty = all.
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS`).
    n_splits, n_repeats, random_state : int
        The folds (:func:`credal.experiments.fold_splits`).
    n_jobs : int
        joblib workers over folds.
    cache_dir : path-like, optional
        The engine's fold cache.
    progress : bool
        The engine's progress bar.

    Returns
    -------
    LeaderboardResult
    """
    from credal.experiments import cross_validate

    p = _params(params)
    chosen = entries(classifiers)
    credal_entries = [e for e in chosen if e.kind == "credal"]
    precise_entries = [e for e in chosen if e.kind == "precise"]
    reg = _by_name()
    frames, infos, k_used = [], [], {}
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        info = dataset_info([ds])
        infos.append(info)
        incomplete = bool(info["incomplete"].iloc[0])
        names = [e.name for e in credal_entries if e.scope == "all" or incomplete]
        est = make_estimators(names, p, n_features=ds.X.shape[1])
        joined = [n for n in names if reg[n].source]
        sources = sorted({reg[n].source for n in joined})
        group_b = {n: est[n] for n in names if n in joined or n in sources}
        group_a = {n: est[n] for n in names if n not in group_b}
        kw = dict(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state,
                  n_jobs=n_jobs, cache_dir=cache_dir, progress=progress)
        item = observed_classes(ds)
        parts = []
        if group_a:
            parts.append(cross_validate(group_a, item, keep_predictions=False, **kw).folds)
        if group_b:
            res = cross_validate(group_b, item, keep_predictions=True, **kw)
            fb = res.folds
            for n in joined:
                cp = _counterpart_folds(res.predictions, n, reg[n].source)
                sel = fb["classifier"] == n
                own = fb.loc[sel, "precise_accuracy"].to_numpy()
                merged = fb.loc[sel, ["repeat", "fold"]].merge(cp, on=["repeat", "fold"],
                                                               how="left")
                for c in ("precise_accuracy", "precise_on_determinate",
                          "precise_on_indeterminate"):
                    fb.loc[sel, c] = merged[c].to_numpy()
                fb.loc[sel, "own_accuracy"] = own
            parts.append(fb)
            del res
        f = pd.concat(parts, ignore_index=True)
        if "own_accuracy" not in f:
            f["own_accuracy"] = np.nan
        own_missing = f["own_accuracy"].isna()
        f.loc[own_missing, "own_accuracy"] = f.loc[own_missing, "precise_accuracy"]
        f["counterpart"] = f["classifier"].map(lambda n: reg[n].counterpart)
        k_used[ds.name] = float(f["n_features_used"].mean())
        frames.append(f)
    folds = pd.concat(frames, ignore_index=True)
    extra = [_precise_rows(folds, e) for e in precise_entries]
    folds = pd.concat([folds, *extra], ignore_index=True)
    order = {e.name: i for i, e in enumerate(REGISTRY)}
    folds = (folds.assign(_o=folds["classifier"].map(order))
             .sort_values(["dataset", "_o", "repeat", "fold"], kind="stable")
             .drop(columns="_o").reset_index(drop=True))
    info = pd.concat(infos)
    info["k_mdl"] = pd.Series(k_used)
    return LeaderboardResult(folds=folds, info=info, params=p)


# ============================================================================
# tables
# ============================================================================

def dataset_scores(folds, se=True) -> pd.DataFrame:
    """Per data set and classifier, every metric pooled over all folds (with s.e.).

    :func:`credal.comparisons.dataset_scores` on the leaderboard's fold table; with
    a single repeat the standard errors are NaN.
    """
    if se and folds["repeat"].nunique() >= 2:
        return comparisons.dataset_scores(folds, se=True)
    out = comparisons.dataset_scores(folds)
    return _with_nan_se(out) if se else out


def _with_nan_se(scores):
    out = scores.copy()
    for m in comparisons.POOLED_METRICS:
        if m in out:
            out.insert(out.columns.get_loc(m) + 1, f"{m}_se", np.nan)
    return out


#: Metrics of the leaderboard table: column -> (metric, percent?)
_TABLE_METRICS = {
    "determinacy": ("determinacy", True),
    "single accuracy": ("single_accuracy", True),
    "set accuracy": ("set_accuracy", True),
    "indeterminate size": ("indeterminate_size", False),
    "D-acc": ("discounted_accuracy", True),
    "u65": ("u65", True),
    "u80": ("u80", True),
    "counterpart on indeterminate": ("precise_on_indeterminate", True),
    "counterpart accuracy": ("accuracy", True),
}


def _ordered(names):
    order = {e.name: i for i, e in enumerate(REGISTRY)}
    return sorted(names, key=lambda n: order.get(n, len(order)))


def leaderboard_table(folds, scores=None) -> pd.DataFrame:
    """Means over data sets of every indicator, per classifier, with Monte-Carlo s.e.

    Each classifier is averaged over the data sets it ran on (RBC and RBC_u: the data
    sets with missing values; a conditional indicator such as the set accuracy over
    the data sets where it is defined).  The standard error comes from the spread of
    the same mean over the cross-validation repeats
    (:func:`credal.comparisons.repeat_standard_error`).

    Parameters
    ----------
    folds : DataFrame
        :attr:`LeaderboardResult.folds`.
    scores : DataFrame, optional
        :func:`dataset_scores` of ``folds`` (computed when omitted).

    Returns
    -------
    DataFrame indexed by classifier: ``kind``, ``counterpart``, ``data sets`` and, for
    each column of the table, its mean and ``<column> s.e.``; percentages in percent.
    """
    if scores is None:
        scores = dataset_scores(folds)
    metrics = [m for m, _ in _TABLE_METRICS.values()]
    # the mean over data sets, on all repeats together and on each repeat alone
    # (credal.comparisons.repeat_standard_error with this statistic, computed once)
    value = scores[metrics].groupby(level="classifier").mean().stack(future_stack=True)
    per = comparisons.dataset_scores(folds, by=("dataset", "classifier", "repeat"))
    reps = per[metrics].groupby(level=["classifier", "repeat"]).mean()
    n_rep = reps.index.get_level_values("repeat").nunique()
    se = (reps.groupby(level="classifier").std(ddof=1) / np.sqrt(n_rep)).stack(
        future_stack=True) if n_rep > 1 else value * np.nan
    reg = _by_name()
    names = _ordered(scores.index.get_level_values("classifier").unique())
    rows = []
    for n in names:
        sub = scores.xs(n, level="classifier")
        row = {"classifier": n, "kind": reg[n].kind if n in reg else "",
               "counterpart": reg[n].counterpart if n in reg else "",
               "data sets": len(sub)}
        for col, (m, pct) in _TABLE_METRICS.items():
            f = 100.0 if pct else 1.0
            v = value.get((n, m), np.nan)
            s = se.get((n, m), np.nan) if isinstance(se, pd.Series) else np.nan
            row[col] = v * f
            row[f"{col} s.e."] = s * f
        rows.append(row)
    return pd.DataFrame(rows).set_index("classifier")


def _pm(v, s, digits=1):
    if not np.isfinite(v):
        return "–"
    if not np.isfinite(s):
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ± {s:.{digits}f}"


def display_leaderboard(table, ranks=None) -> pd.DataFrame:
    """:func:`leaderboard_table` for reading: "mean ± s.e." strings, average ranks.

    Parameters
    ----------
    table : DataFrame
        :func:`leaderboard_table`.
    ranks : DataFrame, optional
        First output of :func:`rank_tables`; adds the average ranks under u65 and u80.
    """
    out = pd.DataFrame(index=table.index)
    out["kind"] = table["kind"]
    out["data sets"] = table["data sets"]
    for col, (_, pct) in _TABLE_METRICS.items():
        digits = 1 if pct else 2
        out[col + (" %" if pct else "")] = [_pm(v, s, digits) for v, s in
                                            zip(table[col], table[f"{col} s.e."])]
    if ranks is not None:
        for m in ranks.index:
            r = ranks.loc[m]
            out[f"rank {m}"] = [f"{r[c]:.2f}" if c in r and np.isfinite(r[c]) else "–"
                                for c in out.index]
    return out


def rank_tables(scores, metrics=("u65", "u80"), classifiers=None, datasets_=None,
                alphas=(0.05, 0.10)):
    """Friedman test, average ranks and Nemenyi critical differences.

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores`.
    metrics : sequence of str
        One Friedman test per metric (a precise classifier's utility is its accuracy).
    classifiers : sequence of str, optional
        Default: every classifier that has a score on every data set of ``datasets_``.
    datasets_ : sequence of str, optional
        Default: all.
    alphas : sequence of float
        Levels of the critical differences.

    Returns
    -------
    ranks, pairs : DataFrame
        :func:`credal.comparisons.friedman_comparison`.
    """
    mats = {}
    for m in metrics:
        mat = comparisons.score_matrix(scores, m)
        if datasets_ is not None:
            mat = mat.loc[[d for d in mat.index if d in set(datasets_)]]
        if classifiers is None:
            cols = [c for c in mat.columns if mat[c].notna().all()]
        else:
            cols = list(classifiers)
        mats[m] = mat[_ordered(cols)]
    return comparisons.friedman_comparison(mats, alphas=alphas)


def display_ranks(ranks) -> pd.DataFrame:
    """Average ranks (rows: classifiers, best first under the first metric) and the
    test's summary lines."""
    meta = [c for c in ranks.columns if c in ("n_datasets", "friedman_p", "iman_davenport_p")
            or c.startswith("cd_")]
    clf = [c for c in ranks.columns if c not in meta]
    body = ranks[clf].T
    body = body.sort_values(body.columns[0], kind="stable").round(2)
    body.index.name = "classifier"
    body.columns = [f"average rank ({m})" for m in body.columns]
    return body


def _rank_order(ranks, metric):
    meta = {"n_datasets", "friedman_p", "iman_davenport_p"}
    r = ranks.loc[metric]
    r = r[[c for c in r.index if c not in meta and not str(c).startswith("cd_")]]
    return r.astype(float).sort_values(kind="stable")


def top_pair_comparisons(scores, ranks, metrics=("u65", "u80"), n_top=4, rope=0.01,
                         nsamples=50000, random_state=0) -> pd.DataFrame:
    """Bayesian signed-rank (and Wilcoxon) comparisons of the best-ranked classifiers.

    For each metric, every pair among the ``n_top`` classifiers with the best average
    rank under that metric is compared on the data sets (a precise classifier's
    utility is its accuracy).

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores`.
    ranks : DataFrame
        First output of :func:`rank_tables`.
    metrics : sequence of str
    n_top : int
    rope, nsamples, random_state
        Of :func:`credal.comparisons.paired_comparisons`.

    Returns
    -------
    DataFrame
        :func:`credal.comparisons.paired_comparisons` rows, ``a`` the better-ranked.
    """
    comps = []
    for m in metrics:
        top = list(_rank_order(ranks, m).index[:n_top])
        for i, a in enumerate(top):
            for b in top[i + 1:]:
                comps.append({"a": a, "b": b, "metric": m, "id": f"{m}: {a} vs {b}",
                              "label": m})
    return comparisons.paired_comparisons(scores, comps, rope=rope, nsamples=nsamples,
                                          random_state=random_state)


def display_pairs(pairs) -> pd.DataFrame:
    """The top-pair comparisons for reading."""
    out = pd.DataFrame({
        "utility": pairs["label"], "a": pairs["a"], "b": pairs["b"],
        "data sets": pairs["n_datasets"],
        "mean a − b (points)": (100 * pairs["mean_difference"]).round(2),
        "a ahead / ties / b ahead": [f"{a}/{t}/{b}" for a, t, b in
                                     zip(pairs["a_better"], pairs["ties"], pairs["b_better"])],
        "Wilcoxon p": pairs["wilcoxon_p"].map(lambda p: f"{p:.3g}"),
        "P(a better)": pairs["p_a_better"].round(3),
        "P(equivalent)": pairs["p_rope"].round(3),
        "P(b better)": pairs["p_b_better"].round(3),
    })
    return out.reset_index(drop=True)


#: Bins of "where each classifier wins": (label, lower, upper], right-closed.
SIZE_BINS = (("n ≤ 200", 0, 200), ("200 < n ≤ 1000", 200, 1000),
             ("1000 < n ≤ 5000", 1000, 5000), ("n > 5000", 5000, np.inf))
CLASS_BINS = (("2 classes", 1, 2), ("3–5 classes", 2, 5), ("6+ classes", 5, np.inf))
MISSING_BINS = (("no missing", -np.inf, 0.0), ("0–5 % missing", 0.0, 5.0),
                ("> 5 % missing", 5.0, np.inf))


def bin_datasets(info) -> pd.DataFrame:
    """The bin of each data set by size, number of classes and share of missing cells.

    Parameters
    ----------
    info : DataFrame
        :attr:`LeaderboardResult.info`.

    Returns
    -------
    DataFrame indexed by data set, columns ``size``, ``classes``, ``missing``.
    """
    def cut(values, bins):
        labels = []
        for v in values:
            lab = next((b[0] for b in bins if b[1] < v <= b[2]), None)
            labels.append(lab)
        return labels

    return pd.DataFrame({"size": cut(info["n"], SIZE_BINS),
                         "classes": cut(info["classes"], CLASS_BINS),
                         "missing": cut(info["pct_missing"], MISSING_BINS)},
                        index=info.index)


def win_tables(scores, info, metric="u80", classifiers=None):
    """Where each classifier wins: wins and average ranks per bin of data sets.

    On each data set the classifiers are ranked by ``metric`` (1 = best, ties share
    the average rank); a win counts 1 for the best classifier, shared equally on
    ties.  The data sets are grouped by :func:`bin_datasets`.

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores`.
    info : DataFrame
        :attr:`LeaderboardResult.info`.
    metric : str
    classifiers : sequence of str, optional
        Default: those with a score on every data set.

    Returns
    -------
    wins, ranks : DataFrame
        Indexed by (``factor``, ``bin``) with a column ``data sets`` and one column
        per classifier: the (fractional) number of data sets won, resp. the average
        rank within the bin.
    """
    mat = comparisons.score_matrix(scores, metric)
    cols = classifiers or [c for c in mat.columns if mat[c].notna().all()]
    mat = mat[_ordered(cols)]
    ranks = mat.rank(axis=1, ascending=False, method="average")
    best = mat.eq(mat.max(axis=1), axis=0).astype(float)
    wins = best.div(best.sum(axis=1), axis=0)
    bins = bin_datasets(info.loc[mat.index])
    bins["all"] = "all data sets"
    order = {"size": [b[0] for b in SIZE_BINS], "classes": [b[0] for b in CLASS_BINS],
             "missing": [b[0] for b in MISSING_BINS], "all": ["all data sets"]}
    w_rows, r_rows = [], []
    for factor in ("all", "size", "classes", "missing"):
        for lab in order[factor]:
            sel = bins[factor] == lab
            if not sel.any():
                continue
            idx = {"factor": factor, "bin": lab, "data sets": int(sel.sum())}
            w_rows.append({**idx, **wins.loc[sel].sum().to_dict()})
            r_rows.append({**idx, **ranks.loc[sel].mean().to_dict()})
    return (pd.DataFrame(w_rows).set_index(["factor", "bin"]),
            pd.DataFrame(r_rows).set_index(["factor", "bin"]))


def incomplete_table(scores, info) -> pd.DataFrame:
    """RBC on the data sets with missing values, beside the naive classifiers.

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores` (with ``_se`` columns).
    info : DataFrame
        :attr:`LeaderboardResult.info`.

    Returns
    -------
    DataFrame indexed by data set (incomplete ones, most missing first): share of
    missing cells, RBC's determinacy, single accuracy, u65 and u80, the accuracy of
    NBC (its counterpart) overall and on RBC's indeterminate instances, RBC_u's
    accuracy, and NCC's and LNCC's u80 for reference; percentages.
    """
    inc = info.index[info["incomplete"]]
    names = scores.index.get_level_values("classifier")
    have = set(names)

    def col(clf, metric):
        if clf not in have:
            return pd.Series(np.nan, index=inc)
        return 100 * scores[metric].xs(clf, level="classifier").reindex(inc)

    out = pd.DataFrame({
        "% missing": info.loc[inc, "pct_missing"],
        "n": info.loc[inc, "n"],
        "RBC determinacy": col("RBC", "determinacy"),
        "RBC single accuracy": col("RBC", "single_accuracy"),
        "RBC u65": col("RBC", "u65"),
        "RBC u80": col("RBC", "u80"),
        "NBC accuracy": col("NBC", "accuracy"),
        "NBC on RBC's indeterminate": col("RBC", "precise_on_indeterminate"),
        "RBC_u accuracy": col("RBC_u", "accuracy"),
        "NCC u80": col("NCC", "u80"),
        "LNCC u80": col("LNCC", "u80"),
    }, index=inc)
    out.index.name = "data set"
    return out.sort_values("% missing", ascending=False, kind="stable")


# ============================================================================
# the papers' numbers beside ours
# ============================================================================

def _paper_map(group):
    """Paper's name -> catalogue name for one paper group (``data/catalogue.toml``)."""
    import tomllib

    with open(datasets.data_dir() / "catalogue.toml", "rb") as fh:
        specs = tomllib.load(fh)["datasets"]
    out = {}
    for name, spec in specs.items():
        info = spec.get("papers", {}).get(group)
        if info is not None and info.get("name"):
            out[info["name"]] = name
    return out


def _ours(scores, dataset, clf, metric, scale=100.0, complement=False):
    try:
        v = scores.loc[(dataset, clf), metric]
        s = scores.loc[(dataset, clf), f"{metric}_se"] if f"{metric}_se" in scores else np.nan
    except KeyError:
        return np.nan, np.nan
    v = float(v) * scale
    s = float(s) * scale
    return (scale - v if complement else v), s


def _mean_over(scores, per_repeat, names, clf, metric, scale=100.0, complement=False):
    """Mean of a metric over data sets ``names`` and its Monte-Carlo standard error.

    The same as :func:`credal.comparisons.repeat_standard_error` with the mean over
    the data sets as the statistic, from precomputed pooled and per-repeat scores.
    """
    try:
        v = scores[metric].xs(clf, level="classifier").reindex(names).dropna()
    except KeyError:
        return np.nan, np.nan, 0
    if v.empty:
        return np.nan, np.nan, 0
    pr = per_repeat[metric].xs(clf, level="classifier")
    pr = pr[pr.index.get_level_values("dataset").isin(names)]
    reps = pr.groupby(level="repeat").mean()
    se = float(reps.std(ddof=1) / np.sqrt(len(reps))) if len(reps) > 1 else np.nan
    mean = float(v.mean()) * scale
    return (scale - mean if complement else mean), se * scale, int(len(v))


def published_comparison(scores, folds, params=None) -> pd.DataFrame:
    """The published numbers that our protocol also measures, beside ours.

    Sources (``credal.datasets.published``): Antonucci, Cattaneo & Corani (Table 2 and
    the averages of Sec. 5.2: NCC-ε and LNCC, when the run's ε and α equal the
    paper's), Corani & Antonucci (averages of Sec. 3.2 over their data sets:
    BMA-AODE*, COMP-AODE* and their counterparts), Ramoni & Sebastiani (Table 1: NBC_m,
    RBC_d and RBC_u per data set) and Moral's slides (naive Bayes and the credal trees
    per data set).  The papers used other protocols (see ``note``), so the
    differences measure the protocol as much as the classifiers.

    Parameters
    ----------
    scores : DataFrame
        :func:`dataset_scores` with ``_se`` columns.
    folds : DataFrame
        :attr:`LeaderboardResult.folds` (for the averages' standard errors).
    params : dict, optional
        The classifier parameters of the run.

    Returns
    -------
    DataFrame
        Columns ``source, data set, paper's name, classifier, quantity, published,
        ours, ours s.e., difference, note``; percentages in percent, except the
        indeterminate output size.
    """
    p = _params(params)
    per_repeat = comparisons.dataset_scores(folds, by=("dataset", "classifier", "repeat"))
    have_ds = set(scores.index.get_level_values("dataset"))
    have_clf = set(scores.index.get_level_values("classifier"))
    rows = []

    def add(source, dataset, paper_name, clf, quantity, published, ours, se, note):
        rows.append({"source": source, "data set": dataset, "paper's name": paper_name,
                     "classifier": clf, "quantity": quantity, "published": published,
                     "ours": ours, "ours s.e.": se, "difference": ours - published,
                     "note": note})

    # --- Antonucci, Cattaneo & Corani: Table 2 and Sec. 5.2 averages
    amap = _paper_map("antonucci-lncc")
    metric_of = {"Det": ("determinacy", "determinacy"),
                 "Sgl_acc": ("single_accuracy", "single accuracy"),
                 "D_acc": ("discounted_accuracy", "D-acc"),
                 "NBC_I": ("precise_on_indeterminate", "NBC on indeterminate")}
    ours_param = {"NCC": ("NCC-ε", p["ncc_epsilon"]), "LNCC": ("LNCC", p["lncc_alpha"])}
    note_a = ("paper: 10-fold CV protocol of the paper; ours: the leaderboard's "
              "cross-validation")
    t2 = datasets.published("antonucci_table2_uci")
    for _, r in t2.iterrows():
        clf, val = ours_param[r["family"]]
        ds = amap.get(r["dataset"])
        if ds not in have_ds or clf not in have_clf or not np.isclose(val, r["parameter_value"]):
            continue
        swapped = r["dataset"] == "hepatitis"
        for col, (metric, qname) in metric_of.items():
            v, s = _ours(scores, ds, clf, metric)
            note, pub_col = note_a, col
            if swapped and col in ("D_acc", "NBC_I"):
                # data/published/README.md: the two columns look swapped for hepatitis
                pub_col = "NBC_I" if col == "D_acc" else "D_acc"
                note = ("the paper's D-acc and NBC-I columns look swapped for hepatitis; "
                        "compared after swapping them back")
            add("Antonucci et al. Table 2", ds, r["dataset"], clf, qname, float(r[pub_col]),
                v, s, note)
    head = datasets.published("antonucci_headline_numbers")
    lncc_names = [d for d in datasets.names("antonucci-lncc") if d in have_ds]
    amean = {"average determinacy": "determinacy", "average single-accuracy": "single_accuracy",
             "average NBC-I": "precise_on_indeterminate",
             "average discounted accuracy": "discounted_accuracy"}
    for _, r in head.iterrows():
        q = next((k for k in amean if str(r["quantity"]).startswith(k)), None)
        if q is None or r["classifier"] not in ("NCC_0.05", "LNCC_0.75"):
            continue
        fam, pv = r["classifier"].split("_")
        clf, val = ours_param[fam]
        if clf not in have_clf or not np.isclose(val, float(pv)) or len(lncc_names) < 2:
            continue
        v, s, n = _mean_over(scores, per_repeat, lncc_names, clf, amean[q])
        add("Antonucci et al. Sec. 5.2", f"mean of {n}", "9 binary data sets", clf,
            q.replace("average ", "mean "), float(r["value"]), v, s,
            "six of the paper's nine data sets are not named; ours are a reconstruction")

    # --- Corani & Antonucci: Sec. 3.2 averages over their data sets
    cnames = [d for d in datasets.names("corani-antonucci") if d in have_ds]
    ch = datasets.published("corani_headline_numbers")
    spec = [  # (quantity prefix, published classifier, ours, metric, scale, complement)
        ("average determinacy", "BMA-AODE*", "BMA-AODE*", "determinacy", 100, False),
        ("average set-accuracy", "BMA-AODE*", "BMA-AODE*", "set_accuracy", 100, False),
        ("average indeterminate output size", "BMA-AODE*", "BMA-AODE*",
         "indeterminate_size", 1, False),
        ("average accuracy on safe instances", "BMA-AODE (instances split by BMA-AODE*)",
         "BMA-AODE*", "precise_on_determinate", 100, False),
        ("average accuracy on prior-dependent instances",
         "BMA-AODE (instances split by BMA-AODE*)", "BMA-AODE*",
         "precise_on_indeterminate", 100, False),
        ("average share of instances that are prior-dependent", "BMA-AODE*", "BMA-AODE*",
         "determinacy", 100, True),
        ("average determinacy", "COMP-AODE*", "COMP-AODE*", "determinacy", 100, False),
        ("average set-accuracy", "COMP-AODE*", "COMP-AODE*", "set_accuracy", 100, False),
        ("average indeterminate output size", "COMP-AODE*", "COMP-AODE*",
         "indeterminate_size", 1, False),
        ("average accuracy on safe instances", "COMP-AODE (instances split by COMP-AODE*)",
         "COMP-AODE*", "precise_on_determinate", 100, False),
        ("average accuracy on prior-dependent instances",
         "COMP-AODE (instances split by COMP-AODE*)", "COMP-AODE*",
         "precise_on_indeterminate", 100, False),
    ]
    for prefix, pub_clf, clf, metric, scale, comp in spec:
        hit = ch[ch["quantity"].str.startswith(prefix) & (ch["classifier"] == pub_clf)]
        if hit.empty or clf not in have_clf or len(cnames) < 2:
            continue
        v, s, n = _mean_over(scores, per_repeat, cnames, clf, metric, scale, comp)
        qn = prefix.replace("average ", "mean ")
        if metric.startswith("precise_on"):
            qn += f" ({_by_name()[clf].counterpart})"
        add("Corani & Antonucci Sec. 3.2", f"mean of {n}", "40 data sets (39 distinct)",
            clf, qn, float(hit["value"].iloc[0]), v, s,
            "paper: missing values imputed; ours: no imputation (each classifier's rule)")

    # --- Ramoni & Sebastiani: Table 1
    rmap = _paper_map("ramoni-sebastiani")
    t1 = datasets.published("ramoni_table1_accuracy_coverage")
    rspec = [("NBCm_acc", "NBC", "accuracy", "accuracy", False),
             ("RBCd_acc", "RBC", "single_accuracy", "RBC_d accuracy", False),
             ("RBCd_cov", "RBC", "determinacy", "RBC_d coverage", False),
             ("RBCu_acc", "RBC_u", "accuracy", "accuracy", False)]
    rnote = ("paper: 5 x 5-fold CV, numeric features in 5 equal-frequency bins; ours: "
             "MDL inside each training fold")
    special = {"Echocardiogram": "our class is alive at one year; the paper's is still "
                                 "alive", "HeartC": "our copy keeps 2 of the 5 labels"}
    for _, r in t1.iterrows():
        ds = rmap.get(r["dataset"])
        if ds not in have_ds:
            continue
        for col, clf, metric, qname, comp in rspec:
            if clf not in have_clf:
                continue
            v, s = _ours(scores, ds, clf, metric)
            add("Ramoni & Sebastiani Table 1", ds, r["dataset"], clf, qname, float(r[col]),
                v, s, special.get(r["dataset"], rnote))

    # --- Moral's slides
    mmap = _paper_map("moral-trees")
    mspec = [("moral_classic_methods", "NB_test", "NBC", "accuracy", "test accuracy", False),
             ("moral_tu2_single", "TU2_test", "CDT", "single_accuracy",
              "test accuracy on determinate instances", False),
             ("moral_tu2_single", "UC_test", "CDT", "determinacy",
              "test % unclassified (indeterminate)", True),
             ("moral_global_comparison_frequency", "TU2_test", "CDT-freq", "accuracy",
              "test accuracy", False),
             ("moral_double_method", "TU2_double_test", "CDT-double-freq", "accuracy",
              "test accuracy", False)]
    mnote = ("slides: one train/test split (and their own discretisation); ours: "
             "cross-validation")
    for table, col, clf, metric, qname, comp in mspec:
        pub = datasets.published(table)
        for _, r in pub.iterrows():
            ds = mmap.get(r["dataset"])
            if ds not in have_ds or clf not in have_clf:
                continue
            v, s = _ours(scores, ds, clf, metric, complement=comp)
            add("Moral slides", ds, r["dataset"], clf, qname, float(r[col]), v, s, mnote)
    out = pd.DataFrame(rows, columns=["source", "data set", "paper's name", "classifier",
                                      "quantity", "published", "ours", "ours s.e.",
                                      "difference", "note"])
    return out


def published_summary(comparison) -> pd.DataFrame:
    """One line per (source, classifier, quantity) of :func:`published_comparison`.

    Returns
    -------
    DataFrame
        ``rows``, ``mean published``, ``mean ours``, ``mean difference``, ``mean |diff.|``
        and ``within 2 s.e. + 1`` (rows where ours is within two standard errors plus
        one point of the published value).
    """
    c = comparison.dropna(subset=["ours"]).copy()
    c["absdiff"] = c["difference"].abs()
    tol = 2 * c["ours s.e."].fillna(0) + 1.0
    c["close"] = c["absdiff"] <= tol
    g = c.groupby(["source", "classifier", "quantity"], sort=False)
    out = pd.DataFrame({"rows": g.size(), "mean published": g["published"].mean(),
                        "mean ours": g["ours"].mean(),
                        "mean difference": g["difference"].mean(),
                        "mean |diff.|": g["absdiff"].mean(),
                        "within 2 s.e. + 1": g["close"].sum().astype(int)})
    return out.round(2)


# ============================================================================
# numbers quoted in the chapter text
# ============================================================================

def _fmt_p(p):
    if not np.isfinite(p):
        return "n/a"
    return f"{p:.2g}" if p >= 1e-4 else "< 0.0001"


_CHAPTER_KEYS = (
    [f"{k}_{m}" for m in ("u65", "u80") for k in (
        "best", "second", "worst", "friedman_p", "cd", "k", "not_separated", "n_not_separated",
        "credal_ahead", "inc_best", "inc_rbc_rank", "inc_rbc_pos", "inc_k", "inc_n", "inc_p")]
    + ["best_u65_rank", "best_u80_rank", "most_determinate", "most_determinate_value",
       "least_determinate", "least_determinate_value", "drop_min", "drop_max", "drop_min_clf",
       "drop_max_clf", "rho_det_n_min", "rho_det_n_max", "rho_det_n_list",
       "bayes_equivalent", "bayes_decisive", "n_pairs", "most_wins", "most_wins_n",
       "bestrank_size", "bestrank_classes", "bestrank_missing", "pub_rows", "pub_close",
       "pub_mad_antonucci", "pub_mad_corani", "pub_mad_ramoni", "pub_mad_moral",
       "moral_tree_rows", "moral_tree_above", "moral_nb_rows", "moral_nb_close",
       "rbc_rho_missing", "rbc_most_missing", "rbc_most_missing_pct", "rbc_most_missing_det",
       "anomalies", "anomaly_cause", "unused_class_sets"])


def chapter_numbers(result, scores, table, ranks, pairs, rank_pairs, wins, win_ranks,
                    published_sum, inc_ranks=None, published=None) -> dict:
    """Strings quoted in the leaderboard chapter's text (glued by the notebook).

    Parameters are the chapter's tables; see the notebook for their origin.

    Returns
    -------
    dict of str -> str
        Every key the chapter quotes is present (``"n/a"`` when the run does not
        provide the number, e.g. without RBC or without the papers' data sets).
    """
    out = {k: "n/a" for k in _CHAPTER_KEYS}
    info = result.info
    out["n_datasets"] = str(len(info))
    out["n_incomplete"] = str(int(info["incomplete"].sum()))
    out["n_repeats"] = str(result.folds["repeat"].nunique())
    out["n_folds"] = str(result.folds["fold"].nunique())
    reg = _by_name()
    cred_any = [c for c in table.index if reg.get(c) and reg[c].kind == "credal"]
    prec = [c for c in table.index if reg.get(c) and reg[c].kind == "precise"]
    out["n_credal"], out["n_precise"] = str(len(cred_any)), str(len(prec))
    # averages over every data set: leave out the classifiers run on part of them
    cred = [c for c in cred_any if reg[c].scope == "all"]
    for m in ("u65", "u80"):
        if m not in ranks.index:
            continue
        order = _rank_order(ranks, m)
        out[f"best_{m}"] = order.index[0]
        out[f"best_{m}_rank"] = f"{order.iloc[0]:.2f}"
        out[f"second_{m}"] = order.index[1]
        out[f"worst_{m}"] = order.index[-1]
        out[f"friedman_p_{m}"] = _fmt_p(float(ranks.loc[m, "friedman_p"]))
        out[f"cd_{m}"] = f"{float(ranks.loc[m, 'cd_95%']):.2f}"
        out[f"k_{m}"] = str(len(order))
        sig = rank_pairs[(rank_pairs["scores"] == m) & rank_pairs["significant_95%"]]
        best = order.index[0]
        tied = [c for c in order.index[1:]
                if not ((sig["better"] == best) & (sig["worse"] == c)).any()]
        out[f"not_separated_{m}"] = ", ".join(tied) if tied else "none"
        out[f"n_not_separated_{m}"] = str(len(tied))
    det = table.loc[cred, "determinacy"].dropna()
    if len(det):
        out["most_determinate"] = det.idxmax()
        out["most_determinate_value"] = f"{det.max():.1f}"
        out["least_determinate"] = det.idxmin()
        out["least_determinate_value"] = f"{det.min():.1f}"
    gap = (table.loc[cred, "counterpart accuracy"]
           - table.loc[cred, "counterpart on indeterminate"]).dropna()
    if len(gap):
        out["drop_min"] = f"{gap.min():.0f}"
        out["drop_max"] = f"{gap.max():.0f}"
        out["drop_min_clf"], out["drop_max_clf"] = gap.idxmin(), gap.idxmax()
    # credal vs its counterpart, data set by data set, under u80 and u65
    for m in ("u65", "u80"):
        ahead = []
        for c in cred_any:
            cp = reg[c].counterpart
            try:
                a = scores[m].xs(c, level="classifier")
                b = scores["accuracy"].xs(cp, level="classifier")
            except KeyError:
                continue
            pair = pd.concat([a, b], axis=1, join="inner").dropna()
            ahead.append((c, int((pair.iloc[:, 0] > pair.iloc[:, 1] + 1e-12).sum()), len(pair)))
        out[f"credal_ahead_{m}"] = "; ".join(f"{c} {k}/{n}" for c, k, n in ahead)
    # determinacy against size (Spearman), pooled over the credal classifiers
    from scipy.stats import spearmanr

    rhos = []
    for c in cred_any:
        try:
            d = scores["determinacy"].xs(c, level="classifier")
        except KeyError:
            continue
        n = info["n"].reindex(d.index)
        if d.nunique() > 1:
            rhos.append((c, float(spearmanr(d, n).statistic)))
    if rhos:
        out["rho_det_n_min"] = f"{min(r for _, r in rhos):.2f}"
        out["rho_det_n_max"] = f"{max(r for _, r in rhos):.2f}"
        out["rho_det_n_list"] = "; ".join(f"{c} {r:.2f}" for c, r in rhos)
    # Bayesian comparisons
    if len(pairs):
        eq = pairs[pairs["p_rope"] > 0.9]
        dec = pairs[(pairs["p_a_better"] > 0.95) | (pairs["p_b_better"] > 0.95)]
        out["bayes_equivalent"] = (", ".join(f"{a} and {b} ({m})" for a, b, m in
                                             zip(eq["a"], eq["b"], eq["label"]))
                                   or "none")
        out["bayes_decisive"] = (", ".join(
            f"{a if pa > 0.95 else b} over {b if pa > 0.95 else a} ({m})"
            for a, b, m, pa in zip(dec["a"], dec["b"], dec["label"], dec["p_a_better"]))
            or "none")
        out["n_pairs"] = str(len(pairs))
    # wins
    allw = wins.loc[("all", "all data sets")].drop("data sets")
    out["most_wins"] = allw.astype(float).idxmax()
    out["most_wins_n"] = f"{allw.max():.1f}".rstrip("0").rstrip(".")
    for factor in ("size", "classes", "missing"):
        sub = win_ranks.loc[factor]
        best = sub.drop(columns="data sets").astype(float).idxmin(axis=1)
        out[f"bestrank_{factor}"] = "; ".join(f"{b}: {c}" for b, c in best.items())
    # published
    if len(published_sum):
        ps = published_sum
        out["pub_rows"] = str(int(ps["rows"].sum()))
        out["pub_close"] = str(int(ps["within 2 s.e. + 1"].sum()))
        for src in ps.index.get_level_values("source").unique():
            sub = ps.xs(src, level="source")
            key = src.split()[0].lower().rstrip("&")
            mad = (sub["mean |diff.|"] * sub["rows"]).sum() / sub["rows"].sum()
            out[f"pub_mad_{key}"] = f"{mad:.1f}"
    if published is not None:
        out.update(_moral_numbers(published))
    out["anomalies"], out["anomaly_cause"] = _anomaly_text(
        _anomalies(scores), info, result.folds["fold"].nunique())
    unused = info.index[info.get("unused_classes", pd.Series(0, index=info.index)) > 0]
    out["unused_class_sets"] = ", ".join(unused) if len(unused) else "none"
    # RBC's determinacy against the share of missing cells
    if "RBC" in set(scores.index.get_level_values("classifier")):
        d = scores["determinacy"].xs("RBC", level="classifier")
        miss = info["pct_missing"].reindex(d.index)
        if len(d) > 2 and d.nunique() > 1:
            out["rbc_rho_missing"] = f"{float(spearmanr(d, miss).statistic):.2f}"
        top = miss.idxmax()
        out["rbc_most_missing"] = str(top)
        out["rbc_most_missing_pct"] = f"{miss[top]:.0f}"
        out["rbc_most_missing_det"] = f"{100 * d[top]:.0f}"
    return _incomplete_numbers(out, inc_ranks)


def _anomalies(scores, gap=0.2):
    """``(classifier, data set, single accuracy, counterpart's accuracy)`` where a
    credal classifier's single accuracy is more than ``gap`` below its counterpart's
    accuracy with at least 5 % of the instances determinate (its determinate
    instances should be the easy ones)."""
    reg = _by_name()
    out = []
    names = set(scores.index.get_level_values("classifier"))
    for e in REGISTRY:
        if e.kind != "credal" or e.name not in names or e.counterpart not in names:
            continue
        single = scores["single_accuracy"].xs(e.name, level="classifier")
        det = scores["determinacy"].xs(e.name, level="classifier")
        acc = scores["accuracy"].xs(reg[e.counterpart].name, level="classifier")
        bad = (acc.reindex(single.index) - single > gap) & (det > 0.05)
        for d in single.index[bad.fillna(False).to_numpy()]:
            out.append((e.name, d, float(single[d]), float(acc[d])))
    return out


def _anomaly_text(anomalies, info, n_splits):
    """The chapter's list of anomalies and what explains them.

    LNCC on a data set with a class of fewer than ``n_splits`` rows is explained:
    some training folds lack that class, and with the instance inside the likelihood
    an unseen class explains the instance perfectly (its maximum-likelihood
    conditionals put all their mass on the instance's values), so the pairwise
    profile-likelihood test lets it dominate the observed classes and LNCC returns it
    alone (``tests/test_leaderboard.py`` shows this on a constructed example).
    Anything else is reported as unexplained.
    """
    if not anomalies:
        return "none", "Every credal classifier passes this check."
    listed = "; ".join(f"{c} on {d} ({100 * a:.0f} % against {100 * b:.0f} %)"
                       for c, d, a, b in anomalies)
    rare = info["min_class_count"] < n_splits if "min_class_count" in info else None
    explained = [x for x in anomalies if x[0] == "LNCC" and rare is not None
                 and bool(rare.get(x[1], False))]
    rest = [x for x in anomalies if x not in explained]
    parts = []
    if explained:
        parts.append(
            f"{'All of them' if not rest else 'The LNCC cases'} are LNCC on data sets with a "
            f"class of fewer than {n_splits} rows, which some training folds lack "
            "entirely. This is a property of the likelihood-based test, not a defect: "
            "with the instance inside the likelihood, a class that has no training case "
            "explains the instance perfectly (its maximum-likelihood conditionals put all "
            "their mass on the instance's values), so in every pairwise test the profile "
            "likelihood favours it and LNCC returns that unseen class alone, which is "
            "almost always wrong. NCC, by contrast, keeps the unseen class in its set "
            "beside the observed ones.")
    if rest:
        parts.append("Not explained: " + "; ".join(f"{c} on {d}" for c, d, _, _ in rest)
                     + "; such a case points to a defect rather than to the method.")
    return listed, " ".join(parts)


def _moral_numbers(published):
    """Counts behind the chapter's sentence on Moral's tree results."""
    out = {}
    mor = published[published["source"] == "Moral slides"].dropna(subset=["ours"])
    tol = 2 * mor["ours s.e."].fillna(0) + 1.0
    trees = mor["classifier"].str.startswith("CDT") & mor["quantity"].str.contains("accuracy")
    nb = mor["classifier"] == "NBC"
    out["moral_tree_rows"] = str(int(trees.sum()))
    out["moral_tree_above"] = str(int(((mor["published"] - mor["ours"]) > tol)[trees].sum()))
    out["moral_nb_rows"] = str(int(nb.sum()))
    out["moral_nb_close"] = str(int(((mor["published"] - mor["ours"]).abs() <= tol)[nb].sum()))
    return out


def _incomplete_numbers(out, inc_ranks):
    if inc_ranks is not None and len(inc_ranks):
        for m in inc_ranks.index:
            order = _rank_order(inc_ranks, m)
            out[f"inc_best_{m}"] = order.index[0]
            if "RBC" in order.index:
                out[f"inc_rbc_rank_{m}"] = f"{order['RBC']:.2f}"
                out[f"inc_rbc_pos_{m}"] = str(int(list(order.index).index("RBC")) + 1)
            out[f"inc_k_{m}"] = str(len(order))
            out[f"inc_n_{m}"] = str(int(inc_ranks.loc[m, "n_datasets"]))
            out[f"inc_p_{m}"] = _fmt_p(float(inc_ranks.loc[m, "friedman_p"]))
    return out


# ============================================================================
# performance: straightforward solver baselines
# ============================================================================
#
# Each baseline decides, one instance and one ordered class pair at a time, the same
# dominance as the library's vectorised code, with a general-purpose scipy routine
# applied to the problem as the papers state it.  They share the fitted model's
# statistics (counts, likelihoods) with ours, so the comparison is about the decision.

def _codes(model, X):
    from credal._validation import check_predict_input

    return check_predict_input(model, X)


def ncc_baseline_sets(model, X):
    """NCC / NCC-ε sets by bounded scalar minimisation, one ordered pair at a time.

    For classes ``c'``, ``c''`` the lower log-ratio is the minimum over ``τ`` in
    ``[0, 1]`` of ``ψ(τ)`` (module docstring of :mod:`credal.naive`, written for the
    ε-contaminated credal set); :func:`scipy.optimize.minimize_scalar` (bounded) finds
    it and the end points are checked.  ``c''`` is dropped iff some ``c'`` has
    ``min ψ > 0``.

    Parameters
    ----------
    model : credal.NCC
        Fitted.
    X : array-like or DataFrame
        Instances.

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize_scalar

    codes = _codes(model, X)
    K = len(model.classes_)
    s, eps = float(model.s), float(model.epsilon)
    nv = np.asarray(model.n_values_)
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        j = np.flatnonzero((row >= 0) & (nv > 1))
        F = nv[j].astype(float)
        e = eps / (K * F)
        delta = eps * (F - 1) / (K * F)
        for a in range(K):
            n1 = float(model.class_count_[a])
            n1j = np.array([model.category_count_[k][a, row[k]] for k in j], float)
            o1j = model.observed_count_[a, j].astype(float)
            for b in range(K):
                if a == b or not out[i, b]:
                    continue
                n2 = float(model.class_count_[b])
                n2j = np.array([model.category_count_[k][b, row[k]] for k in j], float)
                o2j = model.observed_count_[b, j].astype(float)
                if eps == 0 and np.any(n1j == 0):
                    continue  # the infimum of the ratio is 0

                def psi(tau):
                    t2 = (1 - eps) * tau + eps / K
                    t1 = (1 - eps) * (1 - tau) + eps / K
                    with np.errstate(divide="ignore"):
                        return (np.log(n1 + s * t1) - np.log(n2 + s * t2)
                                + np.sum(np.log(n1j + s * e) - np.log(o1j + s * t1)
                                         + np.log(o2j + s * t2)
                                         - np.log(n2j + s * (t2 - delta))))

                res = minimize_scalar(psi, bounds=(0.0, 1.0), method="bounded",
                                      options={"xatol": 1e-12})
                low = min(float(res.fun), psi(0.0), psi(1.0))
                if low > 1e-9:
                    out[i, b] = False
    return out


def lncc_baseline_sets(model, X):
    """LNCC sets by root finding and bounded maximisation, one ordered pair at a time.

    For each ordered pair the profile likelihood of the paper's Theorems 1-2 is
    handled directly: :func:`scipy.optimize.brentq` finds the point where the
    probability ratio equals 1, and two bounded :func:`scipy.optimize.minimize_scalar`
    calls find the likelihood's maximum left of it and overall (after
    ``benchmarks/bench_naive.py``).  ``c''`` is dropped iff some ``c'`` dominates it;
    with two classes, or without cycles of dominance, this is LNCC's set.

    Parameters
    ----------
    model : credal.LNCC
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import brentq, minimize_scalar
    from scipy.special import xlogy

    codes = _codes(model, X)
    K = len(model.classes_)
    alpha = float(model.alpha)
    nv = np.asarray(model.n_values_)
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        j = np.flatnonzero((row >= 0) & (nv > 1))
        for a in range(K):
            for b in range(K):
                if a == b:
                    continue
                n1, n2 = float(model.class_count_[a]), float(model.class_count_[b])
                n1j = np.array([model.category_count_[k][a, row[k]] for k in j], float)
                n2j = np.array([model.category_count_[k][b, row[k]] for k in j], float)
                o1j = model.observed_count_[a, j].astype(float)
                o2j = model.observed_count_[b, j].astype(float)
                k1, k2 = n1j != o1j, n2j != o2j
                lo = -0.5 - min([n1] + list(n1j[k1]))
                hi = 0.5 + min([n2] + list(n2j[k2]))

                def parts(t):
                    x, y = 0.5 + t, 0.5 - t
                    with np.errstate(divide="ignore", invalid="ignore"):
                        lp1 = np.log(n1 + x) + np.sum(np.log(n1j[k1] + x)
                                                      - np.log(o1j[k1] + x))
                        lp2 = np.log(n2 + y) + np.sum(np.log(n2j[k2] + y)
                                                      - np.log(o2j[k2] + y))
                        ll = (xlogy(n1, n1 + x) + xlogy(n2, n2 + y)
                              + np.sum(xlogy(n1j[k1], n1j[k1] + x)
                                       - xlogy(o1j[k1], o1j[k1] + x))
                              + np.sum(xlogy(n2j[k2], n2j[k2] + y)
                                       - xlogy(o2j[k2], o2j[k2] + y)))
                    return lp1 - lp2, ll + np.logaddexp(lp1, lp2)

                # the log ratio increases in t; with large counts it can keep one sign
                # on every float of (lo, hi) (the root within one spacing of an end)
                a_, b_ = np.nextafter(lo, hi), np.nextafter(hi, lo)
                if parts(a_)[0] >= 0:
                    t0 = a_
                elif parts(b_)[0] <= 0:
                    t0 = b_
                else:
                    t0 = brentq(lambda t: parts(t)[0], a_, b_, xtol=1e-13)
                left = (-minimize_scalar(lambda t: -parts(t)[1], bounds=(lo, t0),
                                         method="bounded").fun if t0 > a_ else -np.inf)
                full = minimize_scalar(lambda t: -parts(t)[1], bounds=(lo, hi),
                                       method="bounded")
                best_left = max(left, parts(lo)[1], parts(t0)[1])
                best = max(-full.fun, best_left, parts(hi)[1])
                if np.log(alpha) > best_left - best + 1e-11:
                    out[i, b] = False
    return out


def _cma_slope(v, d):
    """``d/dv log(v e^d + 1 - v)``, without overflow for large ``|d|``."""
    e = np.exp(-np.abs(d))
    den = np.where(d > 0, v + (1 - v) * e, v * e + 1 - v)
    return np.sign(d) * -np.expm1(-np.abs(d)) / den


def cma_baseline_sets(model, X):
    """CMA sets by L-BFGS-B over the box of inclusion probabilities, per ordered pair.

    The log posterior ratio of ``c'`` and ``c''`` as a function of every feature's
    prior inclusion probability (in ``[inclusion_lower, inclusion_upper]``) is
    minimised by :func:`scipy.optimize.minimize` (L-BFGS-B, started at the centre of
    the box); ``c''`` is dropped iff some ``c'`` keeps the minimum above 0.

    Parameters
    ----------
    model : credal.CMA
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize

    codes = _codes(model, X)
    lo, hi, _ = model._bounds
    K = len(model.classes_)
    A = model._log_rel_arc                     # (m, R + 1, K); index -1 = missing
    cp = model.class_log_prior_
    out = np.ones((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        obs = np.flatnonzero(row >= 0)
        a_rows = A[obs, row[obs]]               # (m_obs, K)
        if lo == hi:
            v0 = np.full(len(obs), lo)
        else:
            v0 = np.full(len(obs), 0.5 * (lo + hi))
        for a in range(K):
            for b in range(K):
                if a == b or not out[i, b]:
                    continue
                da, db = a_rows[:, a], a_rows[:, b]

                def f(v, da=da, db=db):
                    lv, lq = np.log(v), np.log1p(-v)
                    ga, gb = np.logaddexp(lv + da, lq), np.logaddexp(lv + db, lq)
                    val = cp[a] - cp[b] + np.sum(ga - gb)
                    return val, _cma_slope(v, da) - _cma_slope(v, db)

                if len(obs) == 0:
                    low = cp[a] - cp[b]
                elif lo == hi:
                    low = f(v0)[0]
                else:
                    res = minimize(f, v0, jac=True, method="L-BFGS-B",
                                   bounds=[(lo, hi)] * len(obs),
                                   options={"ftol": 1e-14, "gtol": 1e-12})
                    low = float(res.fun)
                if low > 1e-9:
                    out[i, b] = False
    return out


def bma_aode_baseline_sets(model, X):
    """BMA-AODE* sets by linear programming, one LP per instance and ordered pair.

    The lower posterior odds over the credal set of SPODE priors (each at least ε)
    is a linear-fractional program; its Charnes-Cooper transformation is solved by
    :func:`scipy.optimize.linprog` (HiGHS), after ``benchmarks/bench_aode.py``.

    Parameters
    ----------
    model : credal.CredalBMAAODE
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import linprog

    lam = model._bma_terms(model._predict_codes(X))
    n, k, K = lam.shape
    eps = model.epsilon_
    a_ub = np.c_[-np.eye(k), np.full(k, eps)]
    out = np.ones((n, K), dtype=bool)
    for i in range(n):
        for c1 in range(K):
            for c2 in range(K):
                if c1 == c2 or not out[i, c2]:
                    continue
                sg, sd = lam[i, :, c1].max(), lam[i, :, c2].max()
                g, d = np.exp(lam[i, :, c1] - sg), np.exp(lam[i, :, c2] - sd)
                res = linprog(np.r_[g, 0.0], A_ub=a_ub, b_ub=np.zeros(k),
                              A_eq=np.array([np.r_[d, 0.0], np.r_[np.ones(k), -1.0]]),
                              b_eq=[1.0, 0.0], bounds=[(0, None)] * (k + 1),
                              method="highs")
                if res.status == 0 and res.fun > 0 and np.log(res.fun) + sg - sd > 1e-9:
                    out[i, c2] = False
    return out


def comp_aode_baseline_sets(model, X, n_starts=3, random_state=0):
    """COMP-AODE* sets by multi-start SLSQP on the paper's ratio, per ordered pair.

    The ratio of the two classes' compression-weighted scores is minimised over the
    credal set of SPODE priors with :func:`scipy.optimize.minimize` (SLSQP, the
    budget as an equality constraint; ``n_starts`` starts: the centre and random
    points), after ``benchmarks/bench_aode.py``.

    Parameters
    ----------
    model : credal.CredalCompAODE
        Fitted.
    X : array-like or DataFrame
    n_starts : int
    random_state : int

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import minimize

    rng = np.random.default_rng(random_state)
    post = np.exp(model._comp_log_posteriors(model._predict_codes(X)))
    ll = model.log_likelihoods_[model.feasible_]
    ll0, eps, k = model.null_log_likelihood_, model.epsilon_, model.n_features_in_
    n, kt, K = post.shape
    out = np.ones((n, K), dtype=bool)
    if kt == 0:
        return out
    budget = 1 - (k - kt + 1) * eps
    const = np.log(eps) + ll0 - ll
    cons = {"type": "eq", "fun": lambda y: y.sum() - budget, "jac": lambda y: np.ones(kt)}
    for i in range(n):
        for c1 in range(K):
            for c2 in range(K):
                if c1 == c2 or not out[i, c2]:
                    continue
                al, be = post[i, :, c1], post[i, :, c2]
                a, b = al @ const, be @ const

                def f(y, al=al, be=be, a=a, b=b):
                    return (al @ np.log(y) - a) / (be @ np.log(y) - b)

                def jac(y, al=al, be=be, a=a, b=b):
                    num, den = al @ np.log(y) - a, be @ np.log(y) - b
                    return (al * den - be * num) / (y * den ** 2)

                starts = [np.full(kt, budget / kt)]
                starts += [eps + (budget - kt * eps) * rng.dirichlet(np.ones(kt))
                           for _ in range(max(0, n_starts - 1))]
                best = min(minimize(f, y0, jac=jac, method="SLSQP",
                                    bounds=[(eps, None)] * kt, constraints=[cons],
                                    options={"ftol": 1e-12}).fun for y0 in starts)
                if best > 1 + 1e-9:
                    out[i, c2] = False
    return out


def cdt_baseline_sets(model, X):
    """Credal-tree sets by linear programming at the leaves, one row at a time.

    Each row walks down the tree (a missing split value follows every branch); at
    each leaf reached, class ``c`` is dropped iff for some class ``k`` the minimum of
    ``p_k - p_c`` over the leaf's IDM credal set ``{p : p_j >= n_j / (N + s)}`` is
    positive, solved by :func:`scipy.optimize.linprog`; the row's set is the union of
    the leaves' sets.

    Parameters
    ----------
    model : credal.CredalDecisionTree
        Fitted, ``leaf="dominance"``.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    from scipy.optimize import linprog

    codes = _codes(model, X)
    K = len(model.classes_)
    s = float(model.s)
    memo = {}

    def leaf_set(node):
        key = id(node)
        if key in memo:
            return memo[key]
        n = np.asarray(node.counts, dtype=float)
        N = n.sum()
        keep = np.ones(K, dtype=bool)
        if N > 0:
            low = n / (N + s)
            for c in range(K):
                for k in range(K):
                    if k == c:
                        continue
                    obj = np.zeros(K)
                    obj[k], obj[c] = 1.0, -1.0
                    res = linprog(obj, A_eq=np.ones((1, K)), b_eq=[1.0],
                                  bounds=list(zip(low, [1.0] * K)), method="highs")
                    if res.fun > 1e-9:
                        keep[c] = False
                        break
        memo[key] = keep
        return keep

    out = np.zeros((len(codes), K), dtype=bool)
    for i, row in enumerate(codes):
        stack = [model.tree_]
        while stack:
            node = stack.pop()
            if node.is_leaf:
                out[i] |= leaf_set(node)
                continue
            v = row[node.feature]
            stack.extend(node.children if v < 0 else [node.children[v]])
    return out


def rbc_baseline_sets(model, X):
    """RBC_d sets from the posterior intervals computed case by case (Theorem 2).

    The interval of each class's posterior is computed per case and class with
    Python loops, the maximum over the other classes taken literally as printed in
    the paper (after ``benchmarks/bench_robust.py``); a class is dropped when another
    class's lower bound exceeds its upper bound (relative tolerance 1e-12, as the
    library).  No solver is needed: this is the direct implementation.

    Parameters
    ----------
    model : credal.RobustBayes
        Fitted.
    X : array-like or DataFrame

    Returns
    -------
    ndarray of bool, shape (n_samples, n_classes)
    """
    codes = _codes(model, X)
    q = len(model.classes_)
    pl, pu = model.class_prob_lower_, model.class_prob_upper_
    out = np.ones((len(codes), q), dtype=bool)
    for t, row in enumerate(codes):
        xl, xu = np.ones(q), np.ones(q)
        for i, v in enumerate(row):
            if v >= 0:
                xl = xl * model.feature_prob_lower_[i][:, v]
                xu = xu * model.feature_prob_upper_[i][:, v]
        lo, up = np.empty(q), np.empty(q)
        for j in range(q):
            up[j] = pu[j] * xu[j] / (pu[j] * xu[j]
                                     + sum(pl[h] * xl[h] for h in range(q) if h != j))
            if q > 1:
                f = max(pu[g] * xu[g] + sum(pl[m] * xu[m] for m in range(q)
                                            if m not in (j, g))
                        for g in range(q) if g != j)
            else:
                f = 0.0
            lo[j] = pl[j] * xl[j] / (pl[j] * xl[j] + f)
        for j in range(q):
            for h in range(q):
                if h != j and lo[h] > up[j] * (1 + 1e-12):
                    out[t, j] = False
    return out


#: Credal entry -> (baseline function, short description of the method).
BASELINES = {
    "NCC": (ncc_baseline_sets, "bounded scalar minimisation (scipy) per ordered pair"),
    "NCC-ε": (ncc_baseline_sets, "bounded scalar minimisation (scipy) per ordered pair"),
    "LNCC": (lncc_baseline_sets, "brentq + two bounded maximisations per ordered pair"),
    "CMA": (cma_baseline_sets, "L-BFGS-B over the inclusion box per ordered pair"),
    "BMA-AODE*": (bma_aode_baseline_sets, "LP (HiGHS) per ordered pair"),
    "COMP-AODE*": (comp_aode_baseline_sets, "multi-start SLSQP (3 starts) per ordered pair"),
    "CDT": (cdt_baseline_sets, "LP (HiGHS) per leaf and ordered pair, tree walk per row"),
    "CDT-double": (cdt_baseline_sets, "LP (HiGHS) per leaf and ordered pair, tree walk "
                                      "per row"),
    "RBC": (rbc_baseline_sets, "Theorem 2 with loops over cases and classes (no solver)"),
}


# ============================================================================
# performance: measurements
# ============================================================================

def prepared_fold(name, random_state=0, n_splits=5):
    """The first cross-validation fold of a data set, preprocessed as in the engine.

    Parameters
    ----------
    name : str
        Catalogue name.
    random_state : int
        Seed of the folds.
    n_splits : int

    Returns
    -------
    Xtr, ytr, Xte, yte
        DataFrames of categoricals (MDL fitted on the training part) and labels.
    """
    from credal.experiments import default_preprocessing, fold_splits

    ds = datasets.load(name)
    X, y = _complete_rows(ds)
    X, y = X.reset_index(drop=True), y.reset_index(drop=True)
    _, _, tr, te = fold_splits(y, n_splits=n_splits, n_repeats=1,
                               random_state=random_state)[0]
    prep = default_preprocessing().fit(X.iloc[tr], y.iloc[tr])
    return prep.transform(X.iloc[tr]), y.iloc[tr], prep.transform(X.iloc[te]), y.iloc[te]


def _best_time(fn, repeat, min_total=1.0, setup=None):
    """Best of up to ``repeat`` runs (stops repeating once ``min_total`` s are spent);
    ``setup()`` runs untimed before each run."""
    best, spent, out = np.inf, 0.0, None
    for r in range(max(1, int(repeat))):
        if setup is not None:
            setup()
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best, spent = min(best, dt), spent + dt
        if spent > min_total:
            break
    return best, out


def _memo_clearer(model):
    """The function that empties the result memo of ``model``'s module, if it has one
    (:mod:`credal.naive` remembers recent sets: a repeated timing would measure the
    memo, not the computation)."""
    import sys

    return getattr(sys.modules.get(type(model).__module__), "_clear_memo", None)


def throughput(names, classifiers=(), params=None, repeat=3, baseline_rows=50,
               baseline_seconds=3.0, random_state=0) -> pd.DataFrame:
    """Instances classified per second, ours and the solver baseline's.

    On the first fold of each data set (:func:`prepared_fold`), each credal classifier
    is fitted on the training part and its ``predict_set`` timed on the whole test
    part (best of ``repeat``; result memos such as :mod:`credal.naive`'s are emptied
    before each timing), from the integer code matrix of the test part (the
    conversion from the DataFrame of categoricals is done once beforehand, as it would
    be for any implementation) and, for reference, from the DataFrame itself, as the
    engine passes it.  Its baseline (:data:`BASELINES`) then classifies the test rows
    in order, one row per call on the same codes, in the same process, until
    ``baseline_rows`` rows are done or ``baseline_seconds`` have passed (at least one
    row); its rate is extrapolated from those rows, and its sets are compared with
    ours on them.

    Parameters
    ----------
    names : sequence of str
        Data sets.
    classifiers : sequence of str
        Credal entries (empty = all).
    params : dict, optional
    repeat : int
    baseline_rows : int
    baseline_seconds : float
    random_state : int
        Seed of the folds.

    Returns
    -------
    DataFrame
        One row per (data set, classifier): ``n_train``, ``n_test``, ``classes``,
        ``features``, ``fit_s``, ``ours_per_s`` (codes), ``ours_frame_per_s``
        (DataFrame), ``baseline``, ``baseline_rows``,
        ``baseline_per_s``, ``ratio`` (ours / baseline) and ``same_sets`` (rows where
        the sets agree, out of ``baseline_rows``).
    """
    from credal.preprocessing import to_codes

    credal_names = [e.name for e in entries(classifiers, kind="credal")]
    rows = []
    for name in names:
        Xtr, ytr, Xte, yte = prepared_fold(name, random_state)
        codes = to_codes(Xte)[0]
        est = make_estimators(credal_names, params, n_features=Xtr.shape[1])
        for cname, model in est.items():
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(Xtr, ytr)
            fit_s = time.perf_counter() - t
            forget = _memo_clearer(model)
            secs, sets = _best_time(lambda: model.predict_set(codes), repeat, setup=forget)
            fsecs, _ = _best_time(lambda: model.predict_set(Xte), repeat, setup=forget)
            fn, method = BASELINES[cname]
            done, bsets, t0 = 0, [], time.perf_counter()
            while done < min(baseline_rows, len(codes)):
                bsets.append(fn(model, codes[done:done + 1]))
                done += 1
                if time.perf_counter() - t0 > baseline_seconds:
                    break
            bsecs = time.perf_counter() - t0
            bsets = np.concatenate(bsets)
            rate, brate = len(codes) / secs, done / bsecs
            rows.append({"dataset": name, "classifier": cname, "n_train": len(Xtr),
                         "n_test": len(Xte), "classes": len(model.classes_),
                         "features": Xtr.shape[1], "fit_s": fit_s, "ours_per_s": rate,
                         "ours_frame_per_s": len(Xte) / fsecs,
                         "baseline": method, "baseline_rows": done,
                         "baseline_per_s": brate, "ratio": rate / brate,
                         "same_sets": int(np.all(bsets == sets[:done], axis=1).sum())})
    return pd.DataFrame(rows)


def fit_scaling(name, classifiers=(), params=None, sizes=(), feature_counts=(),
                repeat=3, random_state=0) -> pd.DataFrame:
    """Fit time against the number of training rows and of features.

    The data set is preprocessed once (MDL fitted on all rows).  For each size ``n``
    in ``sizes`` a stratified-free random subsample of ``n`` rows (seed
    ``random_state``) is fitted with all features; for each ``k`` in
    ``feature_counts`` the first ``k`` features of all rows are fitted.  Each time is
    the best of ``repeat`` fits.

    Parameters
    ----------
    name : str
    classifiers : sequence of str
        Credal entries (empty = all).
    params : dict, optional
    sizes, feature_counts : sequence of int
    repeat : int
    random_state : int

    Returns
    -------
    DataFrame with columns ``classifier``, ``axis`` ("n" or "k"), ``value``,
    ``fit_s``.
    """
    from credal.experiments import default_preprocessing

    ds = datasets.load(name)
    X, y = _complete_rows(ds)
    X, y = X.reset_index(drop=True), y.reset_index(drop=True)
    X = default_preprocessing().fit(X, y).transform(X)
    rng = np.random.default_rng(random_state)
    perm = rng.permutation(len(X))
    credal_names = [e.name for e in entries(classifiers, kind="credal")]
    rows = []
    jobs = [("n", int(n), X.iloc[perm[:int(n)]], y.iloc[perm[:int(n)]])
            for n in sizes if int(n) <= len(X)]
    jobs += [("k", int(k), X.iloc[:, :int(k)], y) for k in feature_counts
             if int(k) <= X.shape[1]]
    if jobs:  # one untimed fit each, so that first-call costs (imports, caches) do not count
        _, _, Xs, ys = min(jobs, key=lambda j: len(j[2]) * j[2].shape[1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for model in make_estimators(credal_names, params,
                                         n_features=Xs.shape[1]).values():
                model.fit(Xs, ys)
    for axis, value, Xs, ys in jobs:
        est = make_estimators(credal_names, params, n_features=Xs.shape[1])
        for cname, model in est.items():
            def fit(model=model, Xs=Xs, ys=ys):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return model.fit(Xs, ys)

            secs, _ = _best_time(fit, repeat, min_total=2.0)
            rows.append({"classifier": cname, "axis": axis, "value": value, "fit_s": secs})
    return pd.DataFrame(rows)


def scaling_slopes(scaling) -> pd.DataFrame:
    """Least-squares slopes of log fit time against log n and log k.

    Parameters
    ----------
    scaling : DataFrame
        :func:`fit_scaling`.

    Returns
    -------
    DataFrame indexed by classifier: ``slope n``, ``s.e. n``, ``slope k``, ``s.e. k``
    (NaN with fewer than three points).
    """
    rows = {}
    for (clf, axis), g in scaling.groupby(["classifier", "axis"], sort=False):
        x, yv = np.log(g["value"].to_numpy(float)), np.log(g["fit_s"].to_numpy(float))
        if len(x) >= 3 and np.ptp(x) > 0:
            coef, cov = np.polyfit(x, yv, 1, cov=True)
            slope, se = float(coef[0]), float(np.sqrt(cov[0, 0]))
        elif len(x) == 2 and np.ptp(x) > 0:
            slope, se = float((yv[1] - yv[0]) / (x[1] - x[0])), np.nan
        else:
            slope, se = np.nan, np.nan
        rows.setdefault(clf, {})[f"slope {axis}"] = slope
        rows[clf][f"s.e. {axis}"] = se
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "classifier"
    cols = [c for c in ("slope n", "s.e. n", "slope k", "s.e. k") if c in out]
    return out[cols].loc[_ordered(out.index)]


def peak_memory(name, classifiers=(), params=None, random_state=0) -> pd.DataFrame:
    """Peak memory (tracemalloc) of fitting and of classifying, and the model's size.

    On the first fold of ``name`` (:func:`prepared_fold`), each credal classifier is
    fitted and then classifies the test part (``predict_set``) under
    :mod:`tracemalloc`; the peaks count the memory allocated by Python and numpy
    during each call beyond what was allocated before it.

    Parameters
    ----------
    name : str
    classifiers : sequence of str
    params : dict, optional
    random_state : int

    Returns
    -------
    DataFrame indexed by classifier: ``fit peak MB``, ``predict_set peak MB``,
    ``model MB`` (pickled size), ``n_train``, ``n_test``, ``features``.
    """
    Xtr, ytr, Xte, _ = prepared_fold(name, random_state)
    credal_names = [e.name for e in entries(classifiers, kind="credal")]
    est = make_estimators(credal_names, params, n_features=Xtr.shape[1])
    rows = []
    for cname, model in est.items():
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(Xtr, ytr)
            fit_peak = tracemalloc.get_traced_memory()[1] - base
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            model.predict_set(Xte)
            pred_peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
        size = len(pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL))
        rows.append({"classifier": cname, "fit peak MB": fit_peak / 2 ** 20,
                     "predict_set peak MB": pred_peak / 2 ** 20, "model MB": size / 2 ** 20,
                     "n_train": len(Xtr), "n_test": len(Xte), "features": Xtr.shape[1]})
    return pd.DataFrame(rows).set_index("classifier")


def chapter_timings(profile="paper", root=None, notebooks=None) -> pd.DataFrame:
    """Wall time of every chapter as recorded by ``book/execute.py``.

    ``book/execute.py`` updates ``results/_timings/<profile>.csv`` as each notebook
    finishes; a chapter never executed at that profile, or not yet executed in the
    current run, has no time (the performance chapter is executed last for this).

    Parameters
    ----------
    profile : str
        Profile name (the file's stem).
    root : path-like, optional
        Project root (default: the current directory).
    notebooks : sequence of str, optional
        Chapter names (default: the stems of ``notebooks/*.md`` under ``root``).

    Returns
    -------
    DataFrame indexed by chapter: ``seconds`` (NaN = not measured) and ``status``.
    """
    base = Path(root) if root is not None else Path.cwd()
    if notebooks is None:
        notebooks = sorted(p.stem for p in (base / "notebooks").glob("*.md"))
    path = base / "results" / "_timings" / f"{profile}.csv"
    rec = pd.read_csv(path) if path.is_file() else pd.DataFrame(columns=["notebook", "seconds"])
    rec = rec.drop_duplicates("notebook", keep="last").set_index("notebook")["seconds"]
    out = pd.DataFrame(index=pd.Index(list(notebooks), name="chapter"))
    out["seconds"] = [float(rec[n]) if n in rec.index else np.nan for n in out.index]
    out["status"] = ["measured" if np.isfinite(s) else "not measured at this profile"
                     for s in out["seconds"]]
    return out


def goals_table(throughput_table, timings, slopes=None, own_seconds=None,
                own_name="performance", budgets=None, ratio_goal=1000.0,
                book_goal_minutes=20.0) -> pd.DataFrame:
    """The project's performance goals against what was measured.

    Parameters
    ----------
    throughput_table : DataFrame
        :func:`throughput`.
    timings : DataFrame
        :func:`chapter_timings`.
    slopes : DataFrame, optional
        :func:`scaling_slopes`; adds "learning is linear in n" (slope ≤ 1.2).
    own_seconds : float, optional
        This chapter's own running time in the current run (replaces its recorded
        time, which is from an earlier run).
    own_name : str
    budgets : dict of str -> float, optional
        Chapter -> budget in minutes.
    ratio_goal : float
    book_goal_minutes : float

    Returns
    -------
    DataFrame with columns ``goal``, ``measured``, ``met`` ("yes", "no" or "not
    measured").
    """
    rows = []
    for clf, g in throughput_table.groupby("classifier", sort=False):
        worst = g.loc[g["ratio"].idxmin()]
        rows.append({"goal": f"{clf}: ≥ {ratio_goal:g}× the solver baseline's instances/s",
                     "measured": f"{worst['ratio']:,.0f}× at worst ({worst['dataset']}); "
                                 f"median {g['ratio'].median():,.0f}×",
                     "met": "yes" if worst["ratio"] >= ratio_goal else "no"})
    if slopes is not None and "slope n" in slopes:
        for clf, r in slopes.iterrows():
            rows.append({"goal": f"{clf}: learning linear in n (log-log slope ≤ 1.2)",
                         "measured": f"slope {r['slope n']:.2f}",
                         "met": "yes" if r["slope n"] <= 1.2 else "no"})
    t = timings["seconds"].copy()
    if own_seconds is not None and own_name in t.index:
        t[own_name] = float(own_seconds)
    for chap, minutes in (budgets or {}).items():
        v = t.get(chap, np.nan)
        rows.append({"goal": f"chapter {chap} at this profile ≤ {minutes:g} min",
                     "measured": f"{v / 60:.1f} min" if np.isfinite(v) else "not measured",
                     "met": ("yes" if v <= 60 * minutes else "no") if np.isfinite(v)
                     else "not measured"})
    missing = [c for c in t.index if not np.isfinite(t[c])]
    total = float(t.sum(skipna=True))
    measured = f"{total / 60:.1f} min for {len(t) - len(missing)} of {len(t)} chapters"
    if missing:
        measured += f" (no time for: {', '.join(missing)})"
    rows.append({"goal": f"whole book at this profile ≤ {book_goal_minutes:g} min on 2 cores "
                         "(chapter execution; the HTML build is not timed)",
                 "measured": measured,
                 "met": ("no" if total > 60 * book_goal_minutes else
                         ("yes" if not missing else "not measured"))})
    return pd.DataFrame(rows)


def performance_numbers(tp, slopes, memory, timings) -> dict:
    """Strings quoted in the performance chapter's text.

    Returns
    -------
    dict of str -> str
    """
    out = {}
    out["ratio_min"] = f"{tp['ratio'].min():,.0f}"
    out["ratio_min_where"] = f"{tp.loc[tp['ratio'].idxmin(), 'classifier']} on " \
                             f"{tp.loc[tp['ratio'].idxmin(), 'dataset']}"
    out["ratio_max"] = f"{tp['ratio'].max():,.0f}"
    out["ratio_max_where"] = f"{tp.loc[tp['ratio'].idxmax(), 'classifier']} on " \
                             f"{tp.loc[tp['ratio'].idxmax(), 'dataset']}"
    out["ratio_median"] = f"{tp['ratio'].median():,.0f}"
    below = tp[tp["ratio"] < 1000]
    out["n_below_goal"] = str(len(below))
    out["n_cases"] = str(len(tp))
    out["below_goal"] = "; ".join(f"{c} on {d} ({r:,.0f}×)" for c, d, r in
                                  zip(below["classifier"], below["dataset"], below["ratio"])) \
        or "none"
    agree = tp["same_sets"].sum()
    out["agree"] = f"{agree} of {tp['baseline_rows'].sum()}"
    slow = tp.loc[tp["ours_per_s"].idxmin()]
    out["slowest"] = f"{slow['classifier']} on {slow['dataset']} " \
                     f"({slow['ours_per_s']:,.0f} instances/s)"
    if "slope n" in slopes:
        s = slopes["slope n"].dropna()
        out["slope_n_min"], out["slope_n_max"] = f"{s.min():.2f}", f"{s.max():.2f}"
        out["slope_n_max_clf"] = s.idxmax()
    if "slope k" in slopes:
        s = slopes["slope k"].dropna()
        out["slope_k_min"], out["slope_k_max"] = f"{s.min():.2f}", f"{s.max():.2f}"
        out["slope_k_max_clf"] = s.idxmax()
        out["slope_k_min_clf"] = s.idxmin()
    big = memory["fit peak MB"].idxmax()
    out["mem_max_clf"] = big
    out["mem_max"] = f"{memory.loc[big, 'fit peak MB']:.0f}"
    bigp = memory["predict_set peak MB"].idxmax()
    out["mem_pred_clf"] = bigp
    out["mem_pred"] = f"{memory.loc[bigp, 'predict_set peak MB']:.0f}"
    out["n_timed"] = str(int(timings["seconds"].notna().sum()))
    out["n_chapters"] = str(len(timings))
    return out
