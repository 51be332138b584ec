"""Leaderboard chapter: every credal classifier of the library under one protocol.

Serves ``notebooks/leaderboard.md`` (no single paper: NCC, NCC-ε, LNCC, CMA, BMA-AODE*,
COMP-AODE*, the credal trees and RBC, each beside its precise counterpart).  Here:
the registry of the classifiers (:data:`REGISTRY`) and their estimators
(:func:`classifiers`, shared with the performance chapter); :func:`run`, the
cross-validation of all of them on every shipped data set by
:func:`credal.experiments.cross_validate`; :func:`tables` (scores, ranks,
Friedman/Nemenyi and Bayesian comparisons, wins by bin of data sets, RBC on incomplete
data, the papers' numbers beside ours); :func:`numbers`, the numbers quoted in the text;
the chapter's figures.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pandas as pd

import credal
from credal import comparisons, datasets
from credal.chapters._display import TEXT_WIDTH

__all__ = ["REGISTRY", "DEFAULT_PARAMS", "classifiers", "run", "tables", "numbers",
           "leaderboard_heatmap", "leaderboard_determinacy", "leaderboard_cd_diagrams",
           "leaderboard_wins", "leaderboard_bayes_pairs", "published_scatter"]


# ---------------------------------------------- the classifiers: the registry

#: One classifier of the leaderboard (a row of :data:`REGISTRY`): ``name`` (in the tables);
#: ``kind``: "credal" or "precise"; ``estimator``: the library class and the parameters that
#: matter (filled from the run's parameters for the ``registry`` table of :func:`tables`);
#: ``counterpart``: a credal entry's precise counterpart (empty for precise ones);
#: ``source``: whose ``predict`` gives this entry's precise labels (a credal entry's
#: counterpart labels come from ``source``, empty = its own ``predict``; a precise entry is
#: the ``predict`` of the credal entry ``source``); ``scope``: "all" or "incomplete" (the
#: data sets with a missing feature value only); ``missing``: how the classifier treats
#: missing feature values; ``reference``: where it comes from.
_Entry = namedtuple("_Entry", "name kind estimator counterpart source scope missing reference")


_MAR_NAIVE = ("missing at random: each count table of a feature uses the training rows "
              "where that feature is observed, and a feature missing in the instance "
              "to classify drops out of the product")

#: Every classifier of the leaderboard, credal ones first.
REGISTRY: tuple[_Entry, ...] = (
    _Entry("NCC", "credal", "credal.NCC(s={ncc_s})", "NBC", "", "all", _MAR_NAIVE,
           "Zaffalon 2001; JNCC2"),
    _Entry("NCC-ε", "credal", "credal.NCC(s={ncc_s}, epsilon={ncc_epsilon})", "NBC", "", "all",
           _MAR_NAIVE, "Corani & Benavoli 2010; Antonucci et al. 2011"),
    _Entry("LNCC", "credal", "credal.LNCC(alpha={lncc_alpha})", "NBC", "NCC", "all",
           "available-case likelihood (missing at random): the factors of a feature use the "
           "rows where it is observed; a feature missing in the instance drops out",
           "Antonucci, Cattaneo & Corani 2011"),
    _Entry("CMA", "credal", "credal.CMA(alpha={cma_alpha}, inclusion in [{cma_lower}, "
           "{cma_upper}])", "BMA-NB", "", "all", "available-case counts per feature (missing "
           "at random); a feature missing in the instance drops out (its averaged factor is "
           "the same for every class)", "Corani & Zaffalon 2008"),
    _Entry("BMA-AODE*", "credal", "credal.CredalBMAAODE(s={aode_s}, epsilon={aode_epsilon}, "
           "prune_factor={aode_prune_factor:g})", "BMA-AODE", "", "all", "each table is "
           "normalised over the rows where it is defined (missing at random); a missing child "
           "feature drops out, a missing super-parent is marginalised over its values",
           "Corani & Antonucci 2013"),
    _Entry("COMP-AODE*", "credal", "credal.CredalCompAODE(s={aode_s}, epsilon={aode_epsilon})",
           "COMP-AODE", "", "all", "as BMA-AODE*", "Corani & Antonucci 2013"),
    _Entry("CDT", "credal", "credal.CredalDecisionTree(s={cdt_s}, branching='simple')",
           "CDT-freq", "", "all", "C4.5's fractional instances: a gain uses the rows where the "
           "feature is observed, times the observed share; a missing split value sends the row "
           "down every branch and the set is the union of the leaves' sets",
           "Abellán & Moral 2003"),
    _Entry("CDT-double", "credal", "credal.CredalDecisionTree(s={cdt_s}, branching='double')",
           "CDT-double-freq", "", "all", "as CDT", "Abellán & Moral (slides)"),
    _Entry("RBC", "credal", "credal.RobustBayes(alpha={rbc_alpha})", "NBC", "NCC", "incomplete",
           "no assumption on why values are missing: every parameter is the interval over all "
           "completions of the training data; a feature missing in the instance drops out",
           "Ramoni & Sebastiani 2001"),
    _Entry("NBC", "precise", "credal.NaiveBayes(prior='perks', s={ncc_s})", "", "NCC", "all",
           _MAR_NAIVE, "naive Bayes (NCC's predict)"),
    _Entry("BMA-NB", "precise", "credal.ModelAveragedNaiveBayes(prior='bdeu', "
           "alpha={cma_alpha}, arc_prior=0.5)", "", "CMA", "all", "as CMA",
           "Bayesian model averaging over naive structures (CMA's predict)"),
    _Entry("BMA-AODE", "precise", "credal.BMAAODE(s={aode_s}, "
           "prune_factor={aode_prune_factor:g})", "", "BMA-AODE*", "all", "as BMA-AODE*",
           "BMA-AODE*'s predict"),
    _Entry("COMP-AODE", "precise", "credal.CompAODE(s={aode_s}, epsilon={aode_epsilon})", "",
           "COMP-AODE*", "all", "as BMA-AODE*", "COMP-AODE*'s predict"),
    _Entry("CDT-freq", "precise", "the CDT with the most frequent class of the leaf", "", "CDT",
           "all", "as CDT (frequencies averaged over the leaves reached)", "CDT's predict"),
    _Entry("CDT-double-freq", "precise", "the double CDT with the most frequent class of the "
           "leaf", "", "CDT-double", "all", "as CDT", "CDT-double's predict"),
    _Entry("RBC_u", "precise", "credal.RobustBayes(alpha={rbc_alpha}).predict "
           "(complete-admissible score)", "", "RBC", "incomplete", "as RBC", "RBC's predict"),
)

#: Parameters of the classifiers (the chapters' parameter cells override them).
DEFAULT_PARAMS = {"ncc_s": 1.0, "ncc_epsilon": 0.05, "lncc_alpha": 0.75, "cma_alpha": 1.0,
                  "cma_lower": 0.1, "cma_upper": 0.9, "aode_s": 1.0, "aode_epsilon": 0.01,
                  "aode_prune_factor": 1e4, "cdt_s": 1.0, "rbc_alpha": 1.0}


_BY_NAME = {e.name: e for e in REGISTRY}
_ORDER = {e.name: i for i, e in enumerate(REGISTRY)}


def _params(params):
    if unknown := set(params or {}) - set(DEFAULT_PARAMS):
        raise ValueError(f"unknown classifier parameters {sorted(unknown)}; "
                         f"known: {sorted(DEFAULT_PARAMS)}")
    return {**DEFAULT_PARAMS, **(params or {})}


def _entries(names=(), kind=None):
    """Registry entries selected by name, in registry order (``names``: credal or precise,
    empty = every entry; a credal name adds its counterpart, a precise name its source);
    ``kind`` ("credal" or "precise") keeps only that kind."""
    if unknown := [c for c in names if c not in _BY_NAME]:
        raise KeyError(f"unknown classifier(s) {unknown}; known: {list(_BY_NAME)}")
    wanted = set(names) or set(_BY_NAME)
    for e in (_BY_NAME[c] for c in names):
        wanted |= {e.counterpart, e.source} - {""} if e.kind == "credal" else {e.source}
    # a counterpart is itself the predict of some credal source
    wanted |= {_BY_NAME[c].source for c in list(wanted) if _BY_NAME[c].kind == "precise"}
    return [e for e in REGISTRY if e.name in wanted and (kind is None or e.kind == kind)]


def _registry_table(params=None, names=()) -> pd.DataFrame:
    """The registry as a table: kind, estimator with parameters, counterpart, missing
    values (indexed by classifier name; ``params`` and ``names`` as for :func:`classifiers`)."""
    p = _params(params)
    rows = []
    for e in _entries(names):
        d = e._asdict()
        d["estimator"] = e.estimator.format(**p)
        d["counterpart labels"] = (f"{e.source}'s predict" if e.source or e.kind != "credal"
                                   else "its own predict")
        rows.append(d)
    df = pd.DataFrame(rows).set_index("name").rename_axis("classifier")
    df["data sets"] = df.pop("scope").map({"all": "all", "incomplete": "with missing values"})
    return df[["kind", "estimator", "counterpart", "counterpart labels", "data sets",
               "missing", "reference"]].rename(columns={"missing": "missing values"})


def _aode_epsilon(epsilon, n_features):
    """The ε of BMA-AODE* and COMP-AODE* on a data set with ``n_features`` features
    (see :func:`classifiers`; ``k`` SPODEs never exceed the number of features)."""
    return float(min(epsilon, 0.9 / (int(n_features) + 1)))


def classifiers(names=(), params=None, n_features=None) -> dict:
    """The line-up: fresh estimators of the leaderboard's credal classifiers.

    The precise counterparts need no estimator of their own: their labels are the
    ``predict`` of the credal classifier their registry entry names (``source``).

    The SPODE ensembles' ε becomes ``min(ε, 0.9 / (n_features + 1))``: their credal set
    needs ``ε < 1/(k + 1)`` for ``k`` SPODEs, and with 99 or more features the paper's
    0.01 is too large.

    Parameters
    ----------
    names : sequence of str
        Registry names, empty = every credal classifier; a name pulls in the credal
        classifier whose ``predict`` gives its counterpart's labels (``"LNCC"`` adds
        ``"NCC"``; ``"NBC"`` gives ``"NCC"``).
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS` keys; others raise ValueError).
    n_features : int, optional
        Features of the data set (for the SPODE ensembles' ε).

    Returns
    -------
    dict of str -> estimator
        In registry order; plain library classes (the engine's cache keys do not
        depend on this module).
    """
    p = _params(params)
    eps = p["aode_epsilon"] if n_features is None else _aode_epsilon(p["aode_epsilon"],
                                                                     n_features)
    every = {"NCC": credal.NCC(s=p["ncc_s"]),
             "NCC-ε": credal.NCC(s=p["ncc_s"], epsilon=p["ncc_epsilon"]),
             "LNCC": credal.LNCC(alpha=p["lncc_alpha"]),
             "CMA": credal.CMA(alpha=p["cma_alpha"], inclusion_lower=p["cma_lower"],
                               inclusion_upper=p["cma_upper"]),
             "BMA-AODE*": credal.CredalBMAAODE(s=p["aode_s"], epsilon=eps,
                                               prune_factor=p["aode_prune_factor"]),
             "COMP-AODE*": credal.CredalCompAODE(s=p["aode_s"], epsilon=eps),
             "CDT": credal.CredalDecisionTree(s=p["cdt_s"], branching="simple"),
             "CDT-double": credal.CredalDecisionTree(s=p["cdt_s"], branching="double"),
             "RBC": credal.RobustBayes(alpha=p["rbc_alpha"])}
    return {e.name: every[e.name] for e in _entries(names, kind="credal")}


# ---------------------------------------------------------- run: the protocol

def _observed_classes(ds):
    """``(name, X, y)`` (as :func:`credal.experiments.cross_validate` takes it) with only the
    classes that occur.  Some files declare classes no row has (anneal's class 4, the three
    heart disease labels Weka's copies never use, ...): no test instance can have one, and a
    credal classifier cannot rule out a class it has never seen (the IDM leaves it vacuous),
    so they go before the folds are drawn; classes missing from some training fold stay."""
    y = ds.y.cat.remove_unused_categories() if isinstance(ds.y.dtype, pd.CategoricalDtype) else ds.y
    return ds.name, ds.X, y


def _dataset_info(data) -> pd.DataFrame:
    """The data sets (catalogue names or loaded), indexed by ``dataset``: ``n`` (rows with a
    class), ``features``, ``classes`` (observed), ``unused_classes`` (declared, never
    observed), ``min_class_count`` (rows of the rarest observed class), ``pct_missing``
    (missing feature cells among those rows, percent), ``incomplete`` (any missing)."""
    rows = []
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        keep = ~ds.y.isna().to_numpy()
        X, y = ds.X.loc[keep], ds.y.loc[keep]
        counts = pd.Series(y).value_counts().loc[lambda v: v > 0]
        declared = len(y.cat.categories) if isinstance(y.dtype, pd.CategoricalDtype) else len(counts)
        rows.append({"dataset": ds.name, "n": len(X), "features": X.shape[1],
                     "classes": len(counts), "unused_classes": declared - len(counts),
                     "min_class_count": int(counts.min()) if len(y) else 0,
                     "pct_missing": float(X.isna().to_numpy().mean() * 100) if X.size else 0.0,
                     "incomplete": bool(X.isna().to_numpy().any())})
    return pd.DataFrame(rows).set_index("dataset")


#: Output of :func:`run`.  ``folds``: the engine's fold table of the credal classifiers plus
#: a row per fold of each precise counterpart; a credal row's ``precise_accuracy``,
#: ``precise_on_determinate``, ``precise_on_indeterminate``: its counterpart's accuracy on
#: all, determinate, indeterminate test instances; ``own_accuracy``: its own ``predict``'s;
#: ``counterpart`` its name.  ``info``: :func:`_dataset_info` with ``k_mdl`` (mean features
#: left by the fold preprocessing).  ``params``; ``classifiers`` (asked for, empty = all).
_Result = namedtuple("_Result", "folds info params classifiers", defaults=((),))


def _counterpart_folds(preds, credal_name, source_name):
    """Per fold: the source's labels scored on the credal classifier's test rows."""
    key = ["repeat", "fold", "row"]
    a = preds.loc[preds["classifier"] == credal_name, key + ["y_true", "set_size"]]
    b = preds.loc[preds["classifier"] == source_name, key + ["y_pred"]]
    m = a.merge(b, on=key, how="left", validate="one_to_one")
    if m["y_pred"].isna().any():
        raise ValueError(f"{source_name} has no prediction for some test rows of {credal_name}")
    c = (m["y_pred"].astype(str) == m["y_true"].astype(str)).astype(float)
    ind = m["set_size"].to_numpy() > 1
    return pd.DataFrame({"repeat": m["repeat"], "fold": m["fold"], "precise_accuracy": c,
                         "precise_on_determinate": c.where(~ind),
                         "precise_on_indeterminate": c.where(ind)}).groupby(
        ["repeat", "fold"], sort=True).mean().reset_index()


def _precise_rows(folds, entry):
    """The fold rows of a precise entry: those of its source, scored by its ``predict``
    (the fit and predict times are the source's: left out, not attributable)."""
    src = folds[folds["classifier"] == entry.source]
    if src.empty:
        return src
    acc = src["own_accuracy"].to_numpy(dtype=float)
    same = ("single_accuracy", "discounted_accuracy", "u65", "u80", "coverage",
            "precise_accuracy", "precise_on_determinate", "own_accuracy")
    nan = ("set_accuracy", "indeterminate_size", "precise_on_indeterminate", "fit_time",
           "predict_time")
    return src.assign(classifier=entry.name, credal=False, counterpart="", determinacy=1.0,
                      **{c: acc for c in same}, **{c: np.nan for c in nan})


def _run_dataset(ds, credal_entries, incomplete, p, kw):
    """The fold table of one data set (see :func:`run`)."""
    from credal.experiments import cross_validate

    names = [e.name for e in credal_entries if e.scope == "all" or incomplete]
    est = classifiers(names, p, n_features=ds.X.shape[1])
    joined = [n for n in names if _BY_NAME[n].source]
    sources = {_BY_NAME[n].source for n in joined}
    group_b = {n: est[n] for n in names if n in joined or n in sources}
    group_a = {n: est[n] for n in names if n not in group_b}
    # one engine call (each fold discretised once), predictions kept only for group B
    res = cross_validate({**group_a, **group_b}, _observed_classes(ds),
                         keep_predictions=list(group_b), **kw)
    parts = [res.folds[res.folds["classifier"].isin(list(group_a))]] if group_a else []
    if group_b:
        fb = res.folds[res.folds["classifier"].isin(list(group_b))].reset_index(drop=True)
        fb["own_accuracy"] = fb["precise_accuracy"]
        for n in joined:
            cp = _counterpart_folds(res.predictions, n, _BY_NAME[n].source)
            sel = fb["classifier"] == n
            merged = fb.loc[sel, ["repeat", "fold"]].merge(cp, on=["repeat", "fold"],
                                                           how="left")
            for c in cp.columns[2:]:
                fb.loc[sel, c] = merged[c].to_numpy()
        parts.append(fb)
    f = pd.concat(parts, ignore_index=True)
    f["own_accuracy"] = f.get("own_accuracy", f["precise_accuracy"]).fillna(
        f["precise_accuracy"])
    f["counterpart"] = f["classifier"].map(lambda n: _BY_NAME[n].counterpart)
    return f


def run(data, *, classifiers=(), params=None, n_splits=5, n_repeats=10, random_state=0,
        n_jobs=1, cache_dir=None) -> _Result:
    """Evaluate the registry's classifiers on data sets under one protocol.

    Every data set goes through :func:`credal.experiments.cross_validate` (no progress bar;
    MDL fitted on each training fold, features left with one category removed, no
    imputation; the same folds for every classifier), rows with a missing class dropped,
    declared classes that never occur removed (a credal classifier cannot rule out a class
    it has never seen).  RBC (scope "incomplete") runs only on data sets with a missing
    value.  For classifiers whose counterpart labels come from another (LNCC and RBC from NCC)
    the engine keeps the predictions, which give their counterpart's accuracy on their
    determinate and indeterminate instances.

    Parameters
    ----------
    data : list of str or Dataset
        Data sets (catalogue names or loaded).
    classifiers : sequence of str
        Registry names as for :func:`classifiers` (with their counterparts); empty = all.
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS`).
    n_splits, n_repeats, random_state, n_jobs, cache_dir : int, int, int, int, path-like
        The folds (:func:`credal.experiments.fold_splits`), joblib workers, the fold cache.

    Returns
    -------
    _Result
        ``folds`` (the fold table, precise counterparts included), ``info`` (the data
        sets), ``params`` and ``classifiers``.
    """
    p = _params(params)
    chosen = _entries(classifiers)
    kw = dict(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state,
              n_jobs=n_jobs, cache_dir=cache_dir, progress=False)
    frames, infos, k_used = [], [], {}
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        infos.append(_dataset_info([ds]))
        f = _run_dataset(ds, [e for e in chosen if e.kind == "credal"],
                         bool(infos[-1]["incomplete"].iloc[0]), p, kw)
        k_used[ds.name] = float(f["n_features_used"].mean())
        frames.append(f)
    folds = pd.concat(frames, ignore_index=True)
    folds = pd.concat([folds, *(_precise_rows(folds, e) for e in chosen if e.kind == "precise")],
                      ignore_index=True)
    folds = (folds.assign(_o=folds["classifier"].map(_ORDER))
             .sort_values(["dataset", "_o", "repeat", "fold"], kind="stable")
             .drop(columns="_o").reset_index(drop=True))
    info = pd.concat(infos).assign(k_mdl=pd.Series(k_used))
    return _Result(folds=folds, info=info, params=p, classifiers=tuple(classifiers))


# --------------------------------------------------------------------- tables

def _dataset_scores(folds) -> pd.DataFrame:
    """Per data set and classifier, every metric pooled over all folds, with s.e.
    (:func:`credal.comparisons.dataset_scores`; NaN with a single repeat)."""
    if folds["repeat"].nunique() >= 2:
        return comparisons.dataset_scores(folds, se=True)
    out = comparisons.dataset_scores(folds)
    for m in [m for m in comparisons.POOLED_METRICS if m in out]:
        out.insert(out.columns.get_loc(m) + 1, f"{m}_se", np.nan)
    return out


#: Metrics of the leaderboard table: column -> metric (in percent, but the indeterminate size)
_TABLE_METRICS = {"determinacy": "determinacy", "single accuracy": "single_accuracy",
                  "set accuracy": "set_accuracy", "indeterminate size": "indeterminate_size",
                  "D-acc": "discounted_accuracy", "u65": "u65", "u80": "u80",
                  "counterpart on indeterminate": "precise_on_indeterminate",
                  "counterpart accuracy": "accuracy"}


def _ordered(names):
    return sorted(names, key=lambda n: _ORDER.get(n, len(_ORDER)))


def _leaderboard_table(folds, scores) -> pd.DataFrame:
    """Means over data sets of every indicator per classifier, each over the data sets it ran
    on (RBC, RBC_u: those with missing values; a conditional indicator such as the set
    accuracy where defined), with the Monte-Carlo s.e. from the spread of the same mean over
    the repeats (:func:`credal.comparisons.repeat_standard_error`).  Indexed by classifier:
    ``kind``, ``counterpart``, ``data sets``, each column and its ``<column> s.e.``; percent."""
    metrics = list(_TABLE_METRICS.values())
    value = scores[metrics].groupby(level="classifier").mean().stack(future_stack=True)
    per = comparisons.dataset_scores(folds, by=("dataset", "classifier", "repeat"))
    reps = per[metrics].groupby(level=["classifier", "repeat"]).mean()
    n_rep = reps.index.get_level_values("repeat").nunique()
    se = (reps.groupby(level="classifier").std(ddof=1) / np.sqrt(n_rep)).stack(
        future_stack=True) if n_rep > 1 else value * np.nan
    rows = []
    for n in _ordered(scores.index.get_level_values("classifier").unique()):
        row = {"classifier": n, "kind": _BY_NAME[n].kind, "counterpart": _BY_NAME[n].counterpart,
               "data sets": len(scores.xs(n, level="classifier"))}
        for col, m in _TABLE_METRICS.items():
            f = 1.0 if m == "indeterminate_size" else 100.0
            row.update({col: value.get((n, m), np.nan) * f, f"{col} s.e.": se.get((n, m), np.nan) * f})
        rows.append(row)
    return pd.DataFrame(rows).set_index("classifier")


_RANK_META = ("n_datasets", "friedman_p", "iman_davenport_p")


def _matrix(scores, metric, datasets_=None):
    """Data set by classifier (registry order) scores, on the data sets ``datasets_``
    (default all), of the classifiers with a score on every one of them (a precise
    classifier's utility is its accuracy)."""
    mat = comparisons.score_matrix(scores, metric)
    if datasets_ is not None:
        mat = mat.loc[[d for d in mat.index if d in set(datasets_)]]
    return mat[_ordered([c for c in mat.columns if mat[c].notna().all()])]


def _rank_tables(scores, datasets_=None):
    """Friedman test, average ranks and Nemenyi critical differences at 5 and 10 %
    (:func:`credal.comparisons.friedman_comparison`: ``ranks, pairs``) under u65 and u80,
    on :func:`_matrix`."""
    return comparisons.friedman_comparison(
        {m: _matrix(scores, m, datasets_) for m in ("u65", "u80")}, alphas=(0.05, 0.10))


def _average_ranks(ranks) -> pd.DataFrame:
    """The average ranks of a ``friedman_ranks`` table: classifiers (rows, registry
    order) by metric (columns); empty for an empty table."""
    if ranks.empty:
        return pd.DataFrame()
    return ranks[[c for c in ranks.columns if c not in _RANK_META and not str(c).startswith(
        "cd_")]].T.astype(float).rename_axis(index="classifier", columns=None)


def _top_pairs(scores, average, n_top, rope, nsamples, random_state) -> pd.DataFrame:
    """Bayesian signed-rank (and Wilcoxon) comparisons: per metric (a column of ``average``,
    the ``average_ranks`` table) every pair of the ``n_top`` best-ranked, on the data sets (a
    precise classifier's utility is its accuracy), ``a`` the better-ranked; the rows of
    :func:`credal.comparisons.paired_comparisons` (``rope``, ``nsamples``, ``random_state``)."""
    from itertools import combinations

    comps = [{"a": a, "b": b, "metric": m, "id": f"{m}: {a} vs {b}", "label": m}
             for m in average.columns
             for a, b in combinations(average[m].sort_values(kind="stable").index[:n_top], 2)]
    return comparisons.paired_comparisons(scores, comps, rope=rope, nsamples=nsamples,
                                          random_state=random_state)


#: Bins of "where each classifier wins": (label, lower, upper], right-closed.
_SIZE_BINS = (("n ≤ 200", 0, 200), ("200 < n ≤ 1000", 200, 1000),
              ("1000 < n ≤ 5000", 1000, 5000), ("n > 5000", 5000, np.inf))
_BINS = {"size": ("n", _SIZE_BINS),
         "classes": ("classes", (("2 classes", 1, 2), ("3–5 classes", 2, 5),
                                 ("6+ classes", 5, np.inf))),
         "missing": ("pct_missing", (("no missing", -np.inf, 0.0), ("0–5 % missing", 0.0, 5.0),
                                     ("> 5 % missing", 5.0, np.inf)))}


def _bin_datasets(info) -> pd.DataFrame:
    """The bin of each data set by size, number of classes and share of missing cells
    (columns ``size``, ``classes``, ``missing``; ``info`` as in :func:`run`)."""
    return pd.DataFrame({factor: [next((b[0] for b in bins if b[1] < v <= b[2]), None)
                                  for v in info[col]]
                         for factor, (col, bins) in _BINS.items()}, index=info.index)


def _win_tables(scores, info):
    """Where each classifier wins, ``wins, ranks``: on each data set the classifiers of
    :func:`_matrix` ranked by u80 (1 = best, ties share the average rank), a win 1 for the
    best (shared on ties); indexed by (``factor``, ``bin``) of :func:`_bin_datasets`, a
    column ``data sets`` and per classifier the (fractional) wins, resp. average rank."""
    mat = _matrix(scores, "u80")
    ranks = mat.rank(axis=1, ascending=False, method="average")
    best = mat.eq(mat.max(axis=1), axis=0).astype(float)
    wins = best.div(best.sum(axis=1), axis=0)
    bins = _bin_datasets(info.loc[mat.index])
    bins["all"] = "all data sets"
    order = {"all": ["all data sets"], **{f: [b[0] for b in v[1]] for f, v in _BINS.items()}}
    w_rows, r_rows = [], []
    for factor, labels in order.items():
        for lab in labels:
            sel = bins[factor] == lab
            if not sel.any():
                continue
            idx = {"factor": factor, "bin": lab, "data sets": int(sel.sum())}
            w_rows.append({**idx, **wins.loc[sel].sum().to_dict()})
            r_rows.append({**idx, **ranks.loc[sel].mean().to_dict()})
    return (pd.DataFrame(w_rows).set_index(["factor", "bin"]),
            pd.DataFrame(r_rows).set_index(["factor", "bin"]))


def _incomplete_table(scores, info) -> pd.DataFrame:
    """RBC on the data sets with missing values (most missing first), beside the naive
    classifiers: share of missing cells, RBC's determinacy, single accuracy, u65, u80, NBC's
    accuracy overall and on RBC's indeterminate instances, RBC_u's accuracy, NCC's and
    LNCC's u80 (percentages), indexed by data set."""
    inc = info.index[info["incomplete"]]
    have = set(scores.index.get_level_values("classifier"))
    cols = {"RBC determinacy": ("RBC", "determinacy"),
            "RBC single accuracy": ("RBC", "single_accuracy"), "RBC u65": ("RBC", "u65"),
            "RBC u80": ("RBC", "u80"), "NBC accuracy": ("NBC", "accuracy"),
            "NBC on RBC's indeterminate": ("RBC", "precise_on_indeterminate"),
            "RBC_u accuracy": ("RBC_u", "accuracy"), "NCC u80": ("NCC", "u80"),
            "LNCC u80": ("LNCC", "u80")}
    out = pd.DataFrame({"% missing": info.loc[inc, "pct_missing"], "n": info.loc[inc, "n"], **{
        k: 100 * scores[m].xs(c, level="classifier").reindex(inc) if c in have
        else pd.Series(np.nan, index=inc) for k, (c, m) in cols.items()}}, index=inc)
    return out.rename_axis("data set").sort_values("% missing", ascending=False, kind="stable")


# -------------------------------------------- the papers' numbers beside ours

_COMPARISON_COLUMNS = ["source", "data set", "paper's name", "classifier", "quantity",
                       "published", "ours", "ours s.e.", "difference", "note"]

#: Antonucci et al.'s families -> (our classifier, the run's parameter that must equal theirs).
_FAMILY = {"NCC": ("NCC-ε", "ncc_epsilon"), "LNCC": ("LNCC", "lncc_alpha")}
#: data/published/README.md: Antonucci's D-acc and NBC-I look swapped for hepatitis.
_SWAPPED = {"hepatitis": {"D_acc": "NBC_I", "NBC_I": "D_acc"}}
_SPECIAL_NOTES = {
    "swapped": "the paper's D-acc and NBC-I columns look swapped for hepatitis; compared "
               "after swapping them back",
    "Echocardiogram": "our class is alive at one year; the paper's is still alive",
    "HeartC": "our copy keeps 2 of the 5 labels"}
#: Corani & Antonucci's averages (the last: BMA-AODE*'s only).
_AVERAGES = [("average determinacy", "determinacy"), ("average set-accuracy", "set_accuracy"),
             ("average indeterminate output size", "indeterminate_size"),
             ("average accuracy on safe instances", "precise_on_determinate"),
             ("average accuracy on prior-dependent instances", "precise_on_indeterminate"),
             ("average share of instances that are prior-dependent", "100 - determinacy")]


#: The published numbers our protocol also measures, in the order of the comparison:
#: ``(source, catalogue group, table, paper's name, note, items)``.  With a paper's name
#: (its data sets as a whole) the items are ``(quantity prefix, published classifier, ours,
#: metric)``: the mean over the group's data sets we ran (at least two) against the first
#: published row with that prefix and classifier (a classifier ``<family>_<value>`` only
#: where the run's parameter equals ``value``).  Without, the items are ``(published column,
#: ours, metric, quantity)`` per row of the table, the paper's data set mapped by
#: :func:`_paper_map`; ours None: the row's ``family`` (:data:`_FAMILY`), only where its
#: ``parameter_value`` equals the run's.  A metric "100 - m" is the complement of ``m``.
_PUBLISHED = (
    ("Antonucci et al. Table 2", "antonucci-lncc", "antonucci_table2_uci", None,
     "paper: 10-fold CV protocol of the paper; ours: the leaderboard's cross-validation",
     (("Det", None, "determinacy", "determinacy"),
      ("Sgl_acc", None, "single_accuracy", "single accuracy"),
      ("D_acc", None, "discounted_accuracy", "D-acc"),
      ("NBC_I", None, "precise_on_indeterminate", "NBC on indeterminate"))),
    ("Antonucci et al. Sec. 5.2", "antonucci-lncc", "antonucci_headline_numbers",
     "9 binary data sets", "six of the paper's nine data sets are not named; ours are a "
     "reconstruction", [(q, pub, _FAMILY[pub.split("_")[0]][0], m)
                        for q, m in (("average determinacy", "determinacy"),
                                     ("average single-accuracy", "single_accuracy"),
                                     ("average NBC-I", "precise_on_indeterminate"),
                                     ("average discounted accuracy", "discounted_accuracy"))
                        for pub in ("NCC_0.05", "LNCC_0.75")]),
    ("Corani & Antonucci Sec. 3.2", "corani-antonucci", "corani_headline_numbers",
     "40 data sets (39 distinct)", "paper: missing values imputed; ours: no imputation "
     "(each classifier's rule)",
     [(q, f"{ours[:-1]} (instances split by {ours})" if m.startswith("precise") else ours,
       ours, m) for ours, k in (("BMA-AODE*", 6), ("COMP-AODE*", 5)) for q, m in _AVERAGES[:k]]),

    ("Ramoni & Sebastiani Table 1", "ramoni-sebastiani", "ramoni_table1_accuracy_coverage",
     None, "paper: 5 x 5-fold CV, numeric features in 5 equal-frequency bins; ours: MDL "
     "inside each training fold",
     (("NBCm_acc", "NBC", "accuracy", "accuracy"),
      ("RBCd_acc", "RBC", "single_accuracy", "RBC_d accuracy"),
      ("RBCd_cov", "RBC", "determinacy", "RBC_d coverage"),
      ("RBCu_acc", "RBC_u", "accuracy", "accuracy"))),
    *(("Moral slides", "moral-trees", table, None, "slides: one train/test split (and their "
       "own discretisation); ours: cross-validation", (item,)) for table, item in (
        ("moral_classic_methods", ("NB_test", "NBC", "accuracy", "test accuracy")),
        ("moral_tu2_single", ("TU2_test", "CDT", "single_accuracy",
                              "test accuracy on determinate instances")),
        ("moral_tu2_single", ("UC_test", "CDT", "100 - determinacy",
                              "test % unclassified (indeterminate)")),
        ("moral_global_comparison_frequency", ("TU2_test", "CDT-freq", "accuracy",
                                               "test accuracy")),
        ("moral_double_method", ("TU2_double_test", "CDT-double-freq", "accuracy",
                                 "test accuracy")))))


def _paper_map(group):
    """Paper's name -> catalogue name for one paper group (``data/catalogue.toml``)."""
    return {spec["papers"][group]["name"]: name
            for name, spec in datasets.catalogue_data()["datasets"].items()
            if (spec.get("papers", {}).get(group) or {}).get("name")}


def _ours(scores, per_repeat, clf, metric, where):
    """Ours for a published number: ``(value, s.e., data sets)`` of ``clf``'s ``metric``
    (percent; the indeterminate size in classes; "100 - m" the complement of ``m``), on one
    data set (``where`` a name: the pooled s.e. of ``scores``) or the mean over the data
    sets ``where`` (the s.e. of :func:`credal.comparisons.repeat_standard_error` with that
    mean as the statistic, from the precomputed ``per_repeat`` scores); NaN when not run."""
    comp, metric = metric.startswith("100 - "), metric.removeprefix("100 - ")
    scale = 1.0 if metric == "indeterminate_size" else 100.0
    if isinstance(where, str):
        if (where, clf) not in scores.index:
            return np.nan, np.nan, 0
        v, n = scale * float(scores.loc[(where, clf), metric]), 1
        se = scale * float(scores.loc[(where, clf), f"{metric}_se"]) \
            if f"{metric}_se" in scores else np.nan
    else:
        vals = scores[metric].xs(clf, level="classifier").reindex(where).dropna()
        if vals.empty:
            return np.nan, np.nan, 0
        pr = per_repeat[metric].xs(clf, level="classifier")
        reps = pr[pr.index.get_level_values("dataset").isin(where)].groupby(
            level="repeat").mean()
        se = scale * (float(reps.std(ddof=1) / np.sqrt(len(reps))) if len(reps) > 1
                      else np.nan)
        v, n = float(vals.mean()) * scale, int(len(vals))
    return (scale - v if comp else v), se, n


def _run_matches(p, family, value):
    """Whether the run's parameter of Antonucci et al.'s ``family`` equals ``value``
    (True for any other classifier)."""
    return family not in _FAMILY or bool(np.isclose(p[_FAMILY[family][1]], float(value)))


def _published_comparison(scores, folds, params=None) -> pd.DataFrame:
    """The published numbers that our protocol also measures, beside ours (the sources of
    :data:`_PUBLISHED`, in ``credal.datasets.published``; Antonucci et al.'s only at the
    run's ``params``).  The papers used other protocols (see ``note``): the differences
    measure the protocol as much as the classifiers.  ``scores``: the ``dataset_scores``
    table; ``folds``: the fold table of :func:`run` (for the averages' standard errors).
    Columns :data:`_COMPARISON_COLUMNS`; percentages in percent, except the indeterminate
    output size."""
    per_repeat = comparisons.dataset_scores(folds, by=("dataset", "classifier", "repeat"))
    have_ds = set(scores.index.get_level_values("dataset"))
    have_clf = set(scores.index.get_level_values("classifier"))
    p, rows = _params(params), []

    def add(source, ds, paper_name, clf, quantity, published, where, metric, note):
        v, se, n = _ours(scores, per_repeat, clf, metric, where)
        rows.append((source, f"mean of {n}" if ds is None else ds, paper_name, clf, quantity,
                     published, v, se, v - published, note))

    for source, group, table, paper, note, items in _PUBLISHED:
        pub = datasets.published(table)
        if paper:                                  # a mean over the paper's data sets
            names = [d for d in datasets.names(group) if d in have_ds]
            for prefix, pub_clf, clf, metric in items:
                hit = pub[pub["quantity"].str.startswith(prefix) & (pub["classifier"] == pub_clf)]
                if (hit.empty or clf not in have_clf or len(names) < 2
                        or not _run_matches(p, *pub_clf.partition("_")[::2])):
                    continue
                q = prefix.replace("average ", "mean ") + (
                    f" ({_BY_NAME[clf].counterpart})" if "split by" in pub_clf else "")
                add(source, None, paper, clf, q, float(hit["value"].iloc[0]), names, metric,
                    note)
            continue
        ds_of = _paper_map(group)
        for _, r in pub.iterrows():
            ds, swap = ds_of.get(r["dataset"]), _SWAPPED.get(r["dataset"], {})
            for col, clf, metric, q in items:
                if clf is None and _run_matches(p, r["family"], r["parameter_value"]):
                    clf = _FAMILY[r["family"]][0]
                if ds in have_ds and clf in have_clf:
                    add(source, ds, r["dataset"], clf, q, float(r[swap.get(col, col)]), ds,
                        metric, _SPECIAL_NOTES["swapped"] if col in swap
                        else _SPECIAL_NOTES.get(r["dataset"], note))
    return pd.DataFrame(rows, columns=_COMPARISON_COLUMNS)


def _close(comparison) -> pd.Series:
    """Whether ours lies within two standard errors plus one point of the published value
    (the chapter's margin; a missing standard error counts as 0)."""
    tol = 2 * comparison["ours s.e."].fillna(0) + 1.0
    return comparison["difference"].abs() <= tol


def _published_summary(comparison) -> pd.DataFrame:
    """One line per (source, classifier, quantity) of the comparison: ``rows``,
    ``mean published``, ``mean ours``, ``mean difference``, ``mean |diff.|`` and
    ``within 2 s.e. + 1`` (rows where ours is within two standard errors plus one point
    of the published value)."""
    c = comparison.dropna(subset=["ours"])
    g = c.assign(absdiff=c["difference"].abs(), close=_close(c)).groupby(
        ["source", "classifier", "quantity"], sort=False)
    return pd.DataFrame({"rows": g.size(), "mean published": g["published"].mean(),
                         "mean ours": g["ours"].mean(), "mean difference": g["difference"].mean(),
                         "mean |diff.|": g["absdiff"].mean(),
                         "within 2 s.e. + 1": g["close"].sum().astype(int)}).round(2)


def tables(results, n_top=4, rope=0.01, nsamples=50000, random_state=0) -> dict:
    """Every table of the chapter, computed once from the fold table of :func:`run`.

    Parameters
    ----------
    results : _Result
        :func:`run`'s output.
    n_top : int
        The best-ranked classifiers per utility, compared pairwise by the Bayesian test.
    rope, nsamples, random_state
        That test's (:func:`credal.comparisons.paired_comparisons`) ROPE, samples, seed.

    Returns
    -------
    dict of str -> DataFrame
        ``registry`` (classifiers, estimators with parameters, counterparts, treatment of
        missing values), ``datasets`` (``results.info``), ``dataset_scores`` (every metric
        per data set and classifier pooled over the folds, with s.e.), ``leaderboard``
        (means over data sets with Monte-Carlo s.e., in percent), ``friedman_ranks`` and
        ``friedman_pairs`` (:func:`credal.comparisons.friedman_comparison` under u65 and
        u80 of the classifiers scored on every data set), ``average_ranks`` (classifier by
        utility), ``bayesian_top_pairs`` (:func:`credal.comparisons.paired_comparisons` of
        the ``n_top`` best-ranked), ``wins_u80`` and ``ranks_by_bin_u80`` (wins and average
        ranks under u80 per bin of data sets by size, classes, missing cells),
        ``incomplete`` (RBC on the data sets with missing values beside the naive
        classifiers), ``friedman_ranks_incomplete`` and ``average_ranks_incomplete`` (the
        same on those; empty with fewer than two), ``published_vs_ours`` (every published
        number our run also measures, with ours and its s.e.), ``published_vs_ours_summary``
        (per source, classifier, quantity), ``settings`` (folds, repeats, ``rope``, AODE ε).
    """
    folds, info = results.folds, results.info
    scores = _dataset_scores(folds)
    ranks, rank_pairs = _rank_tables(scores)
    average = _average_ranks(ranks)
    wins, win_ranks = _win_tables(scores, info)
    inc_names = list(info.index[info["incomplete"]])
    inc_ranks = (_rank_tables(scores, datasets_=inc_names)[0] if len(inc_names) > 1
                 else pd.DataFrame())
    published = _published_comparison(scores, folds, results.params)
    settings = pd.Series({"n_folds": folds["fold"].nunique(), "rope": rope,
                          "n_repeats": folds["repeat"].nunique(),
                          "aode_epsilon": results.params["aode_epsilon"]}, dtype=object)
    return {"registry": _registry_table(results.params, results.classifiers),
            "datasets": info, "dataset_scores": scores,
            "leaderboard": _leaderboard_table(folds, scores), "friedman_ranks": ranks,
            "friedman_pairs": rank_pairs, "average_ranks": average,
            "bayesian_top_pairs": _top_pairs(scores, average, n_top, rope, nsamples,
                                             random_state),
            "wins_u80": wins, "ranks_by_bin_u80": win_ranks,
            "incomplete": _incomplete_table(scores, info),
            "friedman_ranks_incomplete": inc_ranks,
            "average_ranks_incomplete": _average_ranks(inc_ranks),
            "published_vs_ours": published,
            "published_vs_ours_summary": _published_summary(published),
            "settings": settings.rename_axis("setting").to_frame("value")}


# ----------------------------------------- numbers quoted in the chapter text

#: The numbers a run may not provide ("n/a" then: without RBC, the papers' data sets, ...).
_OPTIONAL_KEYS = [f"{k}_{m}" for m in ("u65", "u80") for k in (
    "best", "second", "worst", "friedman_p", "cd", "k", "not_separated", "n_not_separated",
    "inc_best", "inc_rbc_rank", "inc_rbc_pos", "inc_k", "inc_n", "inc_p")] + """best_u65_rank
    best_u80_rank most_determinate most_determinate_value least_determinate
    least_determinate_value drop_min drop_max drop_min_clf drop_max_clf rho_det_n_min
    rho_det_n_max rho_det_n_list bayes_equivalent bayes_decisive n_pairs pub_rows pub_close
    pub_mad_antonucci pub_mad_corani pub_mad_ramoni pub_mad_moral rbc_rho_missing
    rbc_most_missing rbc_most_missing_pct rbc_most_missing_det""".split()


def numbers(tables) -> dict:
    """Strings quoted in the leaderboard chapter's text (glued by the notebook).

    Parameters
    ----------
    tables : dict of str -> DataFrame
        :func:`tables`.

    Returns
    -------
    dict of str -> str
        Every key the chapter quotes is present (``"n/a"`` when the run does not
        provide the number, e.g. without RBC or without the papers' data sets).
    """
    out = {k: "n/a" for k in _OPTIONAL_KEYS}
    info, scores = tables["datasets"], tables["dataset_scores"]
    setting = tables["settings"]["value"]
    eps = setting["aode_epsilon"]
    out.update(n_datasets=str(len(info)), n_incomplete=str(int(info["incomplete"].sum())),
               n_repeats=str(setting["n_repeats"]), n_folds=str(setting["n_folds"]),
               rope_points=f"{100 * setting['rope']:g}",
               aode_eps_capped=", ".join(d for d in info.index if _aode_epsilon(
                   eps, info.loc[d, "features"]) < eps) or "none",
               unused_class_sets=", ".join(info.index[info["unused_classes"] > 0]) or "none")
    _rank_numbers(out, tables["friedman_ranks"], tables["average_ranks"],
                  tables["friedman_pairs"])
    _rank_numbers(out, tables["friedman_ranks_incomplete"], tables["average_ranks_incomplete"])
    _board_numbers(out, tables["leaderboard"], scores, info)
    _pair_and_win_numbers(out, tables["bayesian_top_pairs"], tables["wins_u80"],
                          tables["ranks_by_bin_u80"])
    _published_numbers(out, tables["published_vs_ours"], tables["published_vs_ours_summary"])
    out["anomalies"], out["anomaly_cause"] = _anomaly_text(scores, info, setting["n_folds"])
    return out


def _rank_numbers(out, ranks, average, pairs=None):
    """The leaders under u65 and u80, the Friedman test and whom Nemenyi does not separate
    from the leader; without ``pairs``, on the data sets with missing values (``inc_*``:
    the leader, RBC's place and the test)."""
    for m in [m for m in ("u65", "u80") if m in ranks.index]:
        order = average[m].sort_values(kind="stable")
        r, names = ranks.loc[m], list(order.index)
        p, k = float(r["friedman_p"]), str(len(order))
        p = "n/a" if not np.isfinite(p) else f"{p:.2g}" if p >= 1e-4 else "< 0.0001"
        if pairs is None:
            out.update({f"inc_best_{m}": names[0], f"inc_k_{m}": k, f"inc_p_{m}": p,
                        f"inc_n_{m}": str(int(r["n_datasets"]))})
            if "RBC" in names:
                out.update({f"inc_rbc_rank_{m}": f"{order['RBC']:.2f}",
                            f"inc_rbc_pos_{m}": str(names.index("RBC") + 1)})
            continue
        sig = pairs[(pairs["scores"] == m) & pairs["significant_95%"]
                    & (pairs["better"] == names[0])]
        tied = [c for c in names[1:] if c not in set(sig["worse"])]
        out.update({f"best_{m}": names[0], f"best_{m}_rank": f"{order.iloc[0]:.2f}",
                    f"second_{m}": names[1], f"worst_{m}": names[-1], f"friedman_p_{m}": p,
                    f"k_{m}": k, f"cd_{m}": f"{float(r['cd_95%']):.2f}",
                    f"not_separated_{m}": ", ".join(tied) or "none",
                    f"n_not_separated_{m}": str(len(tied))})


def _board_numbers(out, board, scores, info):
    """Determinacy and the counterparts' drop on indeterminate instances (the credal
    classifiers run on every data set), credal ahead of its counterpart data set by
    data set, determinacy against size (Spearman); RBC's determinacy against the share
    of missing cells."""
    from scipy.stats import spearmanr

    cred_any = [c for c in board.index if _BY_NAME[c].kind == "credal"]
    cred = [c for c in cred_any if _BY_NAME[c].scope == "all"]
    det = board.loc[cred, "determinacy"].dropna()
    if len(det):
        out.update(most_determinate=det.idxmax(), most_determinate_value=f"{det.max():.1f}",
                   least_determinate=det.idxmin(), least_determinate_value=f"{det.min():.1f}")
    gap = (board.loc[cred, "counterpart accuracy"]
           - board.loc[cred, "counterpart on indeterminate"]).dropna()
    if len(gap):
        out.update(drop_min=f"{gap.min():.0f}", drop_max=f"{gap.max():.0f}",
                   drop_min_clf=gap.idxmin(), drop_max_clf=gap.idxmax())
    have = set(scores.index.get_level_values("classifier"))
    for m in ("u65", "u80"):
        both = {c: pd.concat([scores[m].xs(c, level="classifier"), scores["accuracy"].xs(
            _BY_NAME[c].counterpart, level="classifier")], axis=1, join="inner").dropna()
            for c in cred_any if _BY_NAME[c].counterpart in have}
        out[f"credal_ahead_{m}"] = "; ".join(
            f"{c} {int((b.iloc[:, 0] > b.iloc[:, 1] + 1e-12).sum())}/{len(b)}"
            for c, b in both.items())
    dets = {c: scores["determinacy"].xs(c, level="classifier") for c in cred_any}
    rhos = {c: float(spearmanr(d, info["n"].reindex(d.index)).statistic)
            for c, d in dets.items() if d.nunique() > 1}
    if rhos:
        out.update(rho_det_n_min=f"{min(rhos.values()):.2f}",
                   rho_det_n_max=f"{max(rhos.values()):.2f}",
                   rho_det_n_list="; ".join(f"{c} {r:.2f}" for c, r in rhos.items()))
    if "RBC" in have:
        d = scores["determinacy"].xs("RBC", level="classifier")
        miss = info["pct_missing"].reindex(d.index)
        if len(d) > 2 and d.nunique() > 1:
            out["rbc_rho_missing"] = f"{float(spearmanr(d, miss).statistic):.2f}"
        top = miss.idxmax()
        out.update(rbc_most_missing=str(top), rbc_most_missing_pct=f"{miss[top]:.0f}",
                   rbc_most_missing_det=f"{100 * d[top]:.0f}")


def _pair_and_win_numbers(out, pairs, wins, win_ranks):
    """The Bayesian comparisons' verdicts and who wins where."""
    if len(pairs):
        eq = pairs[pairs["p_rope"] > 0.9]
        dec = pairs[(pairs["p_a_better"] > 0.95) | (pairs["p_b_better"] > 0.95)]
        out["bayes_equivalent"] = ", ".join(
            f"{a} and {b} ({m})" for a, b, m in zip(eq["a"], eq["b"], eq["label"])) or "none"
        out["bayes_decisive"] = ", ".join(
            f"{a if pa > 0.95 else b} over {b if pa > 0.95 else a} ({m})"
            for a, b, m, pa in zip(dec["a"], dec["b"], dec["label"], dec["p_a_better"])) \
            or "none"
        out["n_pairs"] = str(len(pairs))
    allw = wins.loc[("all", "all data sets")].drop("data sets")
    out.update(most_wins=allw.astype(float).idxmax(),
               most_wins_n=f"{allw.max():.1f}".rstrip("0").rstrip("."))
    for factor in ("size", "classes", "missing"):
        best = win_ranks.loc[factor].drop(columns="data sets").astype(float).idxmin(axis=1)
        out[f"bestrank_{factor}"] = "; ".join(f"{b}: {c}" for b, c in best.items())


def _published_numbers(out, published, summary):
    """How close the published numbers are, per source; the counts behind the
    sentence on Moral's tree results."""
    if len(summary):
        out.update(pub_rows=str(int(summary["rows"].sum())),
                   pub_close=str(int(summary["within 2 s.e. + 1"].sum())))
        for src in summary.index.get_level_values("source").unique():
            sub = summary.xs(src, level="source")
            mad = (sub["mean |diff.|"] * sub["rows"]).sum() / sub["rows"].sum()
            out[f"pub_mad_{src.split()[0].lower().rstrip('&')}"] = f"{mad:.1f}"
    mor = published[published["source"] == "Moral slides"].dropna(subset=["ours"])
    tol = 2 * mor["ours s.e."].fillna(0) + 1.0
    trees = mor["classifier"].str.startswith("CDT") & mor["quantity"].str.contains("accuracy")
    nb = mor["classifier"] == "NBC"
    out.update(moral_tree_rows=str(int(trees.sum())), moral_nb_rows=str(int(nb.sum())),
               moral_tree_above=str(int(((mor["published"] - mor["ours"]) > tol)[trees].sum())),
               moral_nb_close=str(int(_close(mor)[nb].sum())))


def _anomaly_text(scores, info, n_splits, gap=0.2):
    """The anomalies listed and what explains them.  An anomaly: a credal classifier whose
    single accuracy on a data set is more than ``gap`` below its counterpart's accuracy with
    at least 5 % of the instances determinate (its determinate instances should be the easy
    ones).  Explained: LNCC on a data set with a class of fewer than ``n_splits`` rows
    (training folds without it; an unseen class explains the instance perfectly, see the text
    and a constructed example in ``tests/chapters/test_chapter_leaderboard.py``); anything
    else is reported as unexplained."""
    anomalies, names = [], set(scores.index.get_level_values("classifier"))
    for e in [e for e in REGISTRY if e.kind == "credal" and {e.name, e.counterpart} <= names]:
        single = scores["single_accuracy"].xs(e.name, level="classifier")
        acc = scores["accuracy"].xs(e.counterpart, level="classifier").reindex(single.index)
        bad = (acc - single > gap) & (scores["determinacy"].xs(e.name, level="classifier") > 0.05)
        anomalies += [(e.name, d, single[d], acc[d]) for d in single.index[bad.to_numpy()]]
    if not anomalies:
        return "none", "Every credal classifier passes this check."
    listed = "; ".join(f"{c} on {d} ({100 * a:.0f} % against {100 * b:.0f} %)"
                       for c, d, a, b in anomalies)
    rare = info["min_class_count"] < n_splits
    explained = [x for x in anomalies if x[0] == "LNCC" and bool(rare.get(x[1], False))]
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


# -------------------------------------------------------------------- figures

def leaderboard_heatmap(scores, info, max_rows=22, part=None):
    """Heatmap of u80 by data set (rows, by size) and classifier (columns).

    Each cell shows the score in percent; its colour is the gap to the best classifier on
    that data set (white = best, darker = further behind), so the pattern of who leads
    where is visible across data sets of very different difficulty.  Cells of classifiers
    that did not run on a data set are grey.

    Parameters
    ----------
    scores, info : DataFrame
        The ``dataset_scores`` and ``datasets`` tables of :func:`tables` (``n`` orders rows).
    max_rows : int
        Data sets per panel (longer lists: stacked panels of equal length, text at 9 pt).
    part : (int, int), optional
        ``(k, n)``: draw only the k-th (from 0) of n groups of data sets by size, one
        panel, on the colour scale of all of them (a figure per group fits the screen).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    mat = scores["u80"].unstack("classifier")
    cols = _ordered(mat.columns)        # credal first, in registry order
    rows = list(info["n"].reindex(mat.index).sort_values(kind="stable").index)
    mat = mat.loc[rows, cols] * 100
    gap_all = mat.max(axis=1).to_numpy()[:, None] - mat.to_numpy()
    chunks = ([np.array_split(np.arange(len(mat)), part[1])[part[0]]] if part is not None
              else np.array_split(np.arange(len(mat)), int(np.ceil(len(mat) / max_rows))))
    fig, axes = plt.subplots(len(chunks), 1, squeeze=False, constrained_layout=True,
                             figsize=(TEXT_WIDTH, sum(2.0 + 0.2 * len(ch) for ch in chunks)),
                             gridspec_kw={"height_ratios": [len(ch) for ch in chunks]})
    cmap = plt.get_cmap("Blues").with_extremes(bad="#dddddd")
    vmax = max(5.0, float(np.nanpercentile(gap_all, 95)) if np.isfinite(gap_all).any() else 5.0)
    for ax, ch in zip(axes[:, 0], chunks):
        gap = gap_all[ch]
        im = ax.imshow(np.ma.masked_invalid(gap), cmap=cmap, vmin=0, vmax=vmax, aspect="auto")
        for i, j in zip(*np.nonzero(np.isfinite(gap))):
            ax.text(j, i, f"{mat.iat[ch[i], j]:.0f}", ha="center", va="center", fontsize=9,
                    color="white" if gap[i, j] > 0.6 * vmax else "black")
        ax.set_xticks(range(len(cols)), cols, rotation=90)
        ax.xaxis.tick_top()
        for lab in ax.get_xticklabels():
            lab.set_fontstyle("italic" if _BY_NAME[lab.get_text()].kind == "precise" else "normal")
        ax.set(yticks=range(len(ch)), ylabel="data set (instances)", yticklabels=[
            f"{rows[r].replace('_', ' ')} ({int(info.loc[rows[r], 'n'])})" for r in ch])
    axes[0, 0].xaxis.set_label_position("top")
    axes[0, 0].set_xlabel("classifier (precise counterparts in italics)")
    fig.colorbar(im, ax=list(axes[:, 0]), orientation="horizontal", fraction=0.04, pad=0.02,
                 aspect=30, shrink=0.7, label="u80 points behind the best on the data set")
    return fig


def leaderboard_determinacy(scores, info):
    """Determinacy of each credal classifier against the size of the data set.

    One panel per credal classifier: a point per data set (x: number of instances, log;
    y: share of test instances given a single class, percent) and the median within each
    size bin (up to 200 instances, 1000, 5000, more).

    Parameters
    ----------
    scores, info : DataFrame
        The ``dataset_scores`` and ``datasets`` tables of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    cols = _ordered([c for c in scores.index.get_level_values("classifier").unique()
                     if _BY_NAME[c].kind == "credal"])
    n = len(cols)
    ncol = min(3, max(1, n))  # three small panels per row: the figure fits the screen
    fig, axes = plt.subplots(-(-n // ncol), ncol, figsize=(TEXT_WIDTH, 0.5 + 1.85 * -(-n // ncol)),
                             sharex=True, sharey=True, squeeze=False, layout="constrained")
    for ax, c in zip(axes.ravel(), cols):
        d = scores["determinacy"].xs(c, level="classifier") * 100
        size = info["n"].reindex(d.index).astype(float)
        incomplete = info["incomplete"].reindex(d.index).astype(bool)
        ax.scatter(size[~incomplete], d[~incomplete], s=14, color="tab:blue", alpha=0.75,
                   label="complete data")
        ax.scatter(size[incomplete], d[incomplete], s=14, facecolors="none",
                   edgecolors="tab:orange", label="with missing values")
        sel = [(size > lo) & (size <= hi) for _, lo, hi in _SIZE_BINS]
        ax.plot([float(np.exp(np.log(size[b]).mean())) for b in sel if b.any()],
                [float(d[b].median()) for b in sel if b.any()], color="black", lw=1.2,
                marker="s", ms=3, label="median per size bin")
        ax.set(xscale="log")
        ax.xaxis.set_minor_formatter("")  # minor labels collide in small panels
        ax.set_title(c, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.supxlabel("instances in the data set (log scale)", fontsize=10)
    fig.supylabel("determinacy (%)", fontsize=10)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside upper center", ncol=3,
               frameon=False)
    return fig


def leaderboard_cd_diagrams(ranks):
    """Critical-difference diagrams (Friedman + Nemenyi at 95 %) under u65 and u80.

    Parameters
    ----------
    ranks : DataFrame
        The ``friedman_ranks`` table of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from credal.plotting import cd_diagram

    ms, avg = [m for m in ("u65", "u80") if m in ranks.index], _average_ranks(ranks)
    fig, axes = plt.subplots(len(ms), 1, squeeze=False,
                             figsize=(TEXT_WIDTH, (1.3 + 0.14 * max(len(avg), 2)) * len(ms)))
    for ax, m in zip(axes[:, 0], ms):
        cd_diagram(avg[m].dropna(), float(ranks.loc[m, "cd_95%"]), ax=ax,
                   title=f"{m}: average rank over {int(ranks.loc[m, 'n_datasets'])} data "
                         "sets\n(1 = best; CD = Nemenyi critical difference at 95%)")
        ax.set(xlabel="average rank", ylabel="")
    fig.tight_layout()
    return fig


def leaderboard_wins(win_ranks, wins):
    """Average rank of every classifier within bins of data sets.

    Three panels stacked (size, number of classes, share of missing cells), sharing the
    classifier axis: columns are classifiers, rows bins; the colour is the average rank
    under u80 within the bin (lighter = better), the text the number of data sets won.

    Parameters
    ----------
    win_ranks, wins : DataFrame
        The ``ranks_by_bin_u80`` and ``wins_u80`` tables of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    factors = [f for f in ("size", "classes", "missing")
               if f in win_ranks.index.get_level_values("factor")]
    clf = [c for c in win_ranks.columns if c != "data sets"]
    heights = [len(win_ranks.loc[f]) for f in factors]
    fig, axes = plt.subplots(len(factors), 1, sharex=True, squeeze=False,
                             figsize=(TEXT_WIDTH, 2.2 + 0.32 * sum(heights) + 0.3 * len(factors)),
                             gridspec_kw={"height_ratios": heights}, constrained_layout=True)
    vmin, vmax = np.nanmin(win_ranks[clf].to_numpy(float)), np.nanmax(win_ranks[clf])
    for ax, f in zip(axes[:, 0], factors):
        sub = win_ranks.loc[f]
        mat = sub[clf].to_numpy(dtype=float)
        im = ax.imshow(mat, cmap="viridis_r", vmin=vmin, vmax=vmax, aspect="auto")
        w = wins.loc[f][clf].to_numpy(dtype=float)
        for i, j in zip(*np.nonzero(w > 0)):
            ax.text(j, i, f"{w[i, j]:.1f}".rstrip("0").rstrip("."), ha="center", va="center",
                    fontsize=9, color="black" if mat[i, j] < (vmin + vmax) / 2 else "white")
        ax.set(yticks=range(len(sub)), yticklabels=[f"{b} ({int(n)})" for b, n in zip(
            sub.index, sub["data sets"])], ylabel={"size": "instances", "classes": "classes",
                                                  "missing": "missing cells"}[f])
    axes[0, 0].set_xticks(range(len(clf)), clf, rotation=90)
    axes[0, 0].tick_params(top=True, labeltop=True, bottom=False, labelbottom=False)
    axes[-1, 0].tick_params(labelbottom=False)
    axes[-1, 0].set_xlabel("classifier (bins: number of data sets in brackets)")
    fig.colorbar(im, ax=list(axes[:, 0]), fraction=0.05, pad=0.02, orientation="horizontal",
                 aspect=40, label="average rank within the bin (1 = best)")
    return fig


def leaderboard_bayes_pairs(pairs):
    """Posterior probabilities of the Bayesian signed-rank test for each pair.

    Parameters
    ----------
    pairs : DataFrame
        The ``bayesian_top_pairs`` table of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
        Stacked horizontal bars: ``a`` better (blue), practically equivalent (grey),
        ``b`` better (orange).
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(TEXT_WIDTH, 1.2 + 0.3 * max(len(pairs), 1)))
    y, left = np.arange(len(pairs))[::-1], np.zeros(len(pairs))
    for col, colour, lab in (("p_a_better", "tab:blue", "a better"),
                             ("p_rope", "0.7", "practically equivalent"),
                             ("p_b_better", "tab:orange", "b better")):
        v = pairs[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=colour, label=lab, height=0.7)
        left += v
    ax.set_yticks(y, [f"{m}: {a} (a) vs {b} (b)" for m, a, b in
                      zip(pairs["label"], pairs["a"], pairs["b"])])
    ax.set(xlim=(0, 1), xlabel="posterior probability", ylabel="pair of classifiers")
    ax.legend(ncol=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def published_scatter(comparison):
    """Ours against the published values that our run also measures, by verdict.

    Parameters
    ----------
    comparison : DataFrame
        The ``published_vs_ours`` table of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
        One point per published number in percent (the few in classes are left out), the
        published value on the horizontal axis and ours on the vertical; the identity line
        with the band of ± one point; blue: within two standard errors plus one point of
        the published value, orange: further; one marker per source.
    """
    import matplotlib.pyplot as plt

    c = comparison.dropna(subset=["ours"])
    c = c[~c["quantity"].str.contains("size")]
    close = _close(c)
    fig, ax = plt.subplots(figsize=(TEXT_WIDTH, 5.2), constrained_layout=True)
    lo = float(np.floor(min(c["published"].min(), c["ours"].min(), 100) / 10) * 10) if len(c) else 0.0
    ax.plot([lo, 100], [lo, 100], color="black", lw=1, label="identity")
    ax.fill_between([lo, 100], [lo - 1, 99], [lo + 1, 101], color="0.85", lw=0,
                    label="± 1 point")
    short = c["source"].map(lambda s: s.split(" Table")[0].split(" Sec.")[0])
    for marker, src in zip("os^DvP" * 2, dict.fromkeys(short)):  # marker: source
        ax.scatter([], [], marker=marker, color="0.4",
                   label=f"{src} ({int((short == src).sum())})")
        sel = (short == src).to_numpy()  # the colour: the verdict
        ax.scatter(c.loc[sel, "published"], c.loc[sel, "ours"], s=30, marker=marker, alpha=0.75,
                   c=np.where(close[sel], "tab:blue", "tab:orange"), edgecolors="none")
    for ok, color, what in ((True, "tab:blue", "within 2 s.e. + 1"),
                            (False, "tab:orange", "further")):
        ax.scatter([], [], color=color, label=f"{what} ({int((close == ok).sum())})")
    ax.set(xlim=(lo, 100.5), ylim=(lo, 100.5), aspect="equal",
           xlabel="published value (percent)", ylabel="ours (percent)")
    ax.grid(True, lw=0.3, color="0.85")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    return fig

