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

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

import credal
from credal import comparisons, datasets
from credal.chapters._display import TEXT_WIDTH

__all__ = ["REGISTRY", "DEFAULT_PARAMS", "classifiers", "run", "tables", "numbers",
           "leaderboard_heatmap", "leaderboard_determinacy", "leaderboard_cd_diagrams",
           "leaderboard_wins", "leaderboard_bayes_pairs", "published_scatter"]


# ---------------------------------------------- the classifiers: the registry

@dataclass(frozen=True)
class _Entry:
    """One classifier of the leaderboard (a row of :data:`REGISTRY`).

    ``name`` (in the tables); ``kind``: "credal" or "precise"; ``estimator``: the library
    class and the parameters that matter (filled from the run's parameters for the
    ``registry`` table of :func:`tables`); ``counterpart``: a credal entry's precise
    counterpart (empty for precise ones); ``source``: whose ``predict`` gives this entry's
    precise labels (a credal entry's counterpart labels come from ``source``, empty = its
    own ``predict``; a precise entry is the ``predict`` of the credal entry ``source``);
    ``scope``: "all" or "incomplete" (the data sets with a missing feature value only);
    ``missing``: how the classifier treats missing feature values; ``reference``: where it
    comes from."""

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
REGISTRY: tuple[_Entry, ...] = (
    _Entry("NCC", "credal", "credal.NCC(s={ncc_s})", "NBC", "", "all", _MAR_NAIVE,
           "Zaffalon 2001; JNCC2"),
    _Entry("NCC-ε", "credal", "credal.NCC(s={ncc_s}, epsilon={ncc_epsilon})", "NBC", "",
           "all", _MAR_NAIVE, "Corani & Benavoli 2010; Antonucci et al. 2011"),
    _Entry("LNCC", "credal", "credal.LNCC(alpha={lncc_alpha})", "NBC", "NCC", "all",
           "available-case likelihood (missing at random): the factors of a feature use "
           "the rows where it is observed; a feature missing in the instance drops out",
           "Antonucci, Cattaneo & Corani 2011"),
    _Entry("CMA", "credal", "credal.CMA(alpha={cma_alpha}, inclusion in "
           "[{cma_lower}, {cma_upper}])", "BMA-NB", "", "all",
           "available-case counts per feature (missing at random); a feature missing in "
           "the instance drops out (its averaged factor is the same for every class)",
           "Corani & Zaffalon 2008"),
    _Entry("BMA-AODE*", "credal", "credal.CredalBMAAODE(s={aode_s}, epsilon={aode_epsilon}, "
           "prune_factor={aode_prune_factor:g})", "BMA-AODE", "", "all",
           "each table is normalised over the rows where it is defined (missing at "
           "random); a missing child feature drops out, a missing super-parent is "
           "marginalised over its values", "Corani & Antonucci 2013"),
    _Entry("COMP-AODE*", "credal", "credal.CredalCompAODE(s={aode_s}, "
           "epsilon={aode_epsilon})", "COMP-AODE", "", "all",
           "as BMA-AODE*", "Corani & Antonucci 2013"),
    _Entry("CDT", "credal", "credal.CredalDecisionTree(s={cdt_s}, branching='simple')",
           "CDT-freq", "", "all",
           "C4.5's fractional instances: a gain uses the rows where the feature is "
           "observed, times the observed share; a missing split value sends the row down "
           "every branch and the set is the union of the leaves' sets",
           "Abellán & Moral 2003"),
    _Entry("CDT-double", "credal", "credal.CredalDecisionTree(s={cdt_s}, "
           "branching='double')", "CDT-double-freq", "", "all", "as CDT",
           "Abellán & Moral (slides)"),
    _Entry("RBC", "credal", "credal.RobustBayes(alpha={rbc_alpha})", "NBC", "NCC",
           "incomplete",
           "no assumption on why values are missing: every parameter is the interval "
           "over all completions of the training data; a feature missing in the "
           "instance drops out", "Ramoni & Sebastiani 2001"),
    _Entry("NBC", "precise", "credal.NaiveBayes(prior='perks', s={ncc_s})", "", "NCC",
           "all", _MAR_NAIVE, "naive Bayes (NCC's predict)"),
    _Entry("BMA-NB", "precise", "credal.ModelAveragedNaiveBayes(prior='bdeu', "
           "alpha={cma_alpha}, arc_prior=0.5)", "", "CMA", "all",
           "as CMA", "Bayesian model averaging over naive structures (CMA's predict)"),
    _Entry("BMA-AODE", "precise", "credal.BMAAODE(s={aode_s}, "
           "prune_factor={aode_prune_factor:g})", "", "BMA-AODE*", "all",
           "as BMA-AODE*", "BMA-AODE*'s predict"),
    _Entry("COMP-AODE", "precise", "credal.CompAODE(s={aode_s}, epsilon={aode_epsilon})", "",
           "COMP-AODE*", "all", "as BMA-AODE*", "COMP-AODE*'s predict"),
    _Entry("CDT-freq", "precise", "the CDT with the most frequent class of the leaf", "",
           "CDT", "all", "as CDT (frequencies averaged over the leaves reached)",
           "CDT's predict"),
    _Entry("CDT-double-freq", "precise", "the double CDT with the most frequent class of "
           "the leaf", "", "CDT-double", "all", "as CDT", "CDT-double's predict"),
    _Entry("RBC_u", "precise", "credal.RobustBayes(alpha={rbc_alpha}).predict "
           "(complete-admissible score)", "", "RBC", "incomplete", "as RBC",
           "RBC's predict"),
)

#: Parameters of the classifiers (the chapters' parameter cells override them).
DEFAULT_PARAMS = {"ncc_s": 1.0, "ncc_epsilon": 0.05, "lncc_alpha": 0.75, "cma_alpha": 1.0,
                  "cma_lower": 0.1, "cma_upper": 0.9, "aode_s": 1.0, "aode_epsilon": 0.01,
                  "aode_prune_factor": 1e4, "cdt_s": 1.0, "rbc_alpha": 1.0}


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



def _entries(names=(), kind=None):
    """Registry entries selected by name, in registry order (``names``: credal or precise,
    empty = every entry; a credal name adds its counterpart, a precise name its source);
    ``kind`` ("credal" or "precise") keeps only that kind."""
    reg = _by_name()
    unknown = [c for c in names if c not in reg]
    if unknown:
        raise KeyError(f"unknown classifier(s) {unknown}; known: {list(reg)}")
    wanted = set(names) or set(reg)
    for c in list(names):
        e = reg[c]
        wanted |= {e.counterpart, e.source} - {""} if e.kind == "credal" else {e.source}
    # a counterpart is itself the predict of some credal source
    wanted |= {reg[c].source for c in list(wanted) if reg[c].kind == "precise"}
    return [e for e in REGISTRY if e.name in wanted and (kind is None or e.kind == kind)]


def _registry_table(params=None, names=()) -> pd.DataFrame:
    """The registry as a table: kind, estimator with parameters, counterpart, missing
    values (indexed by classifier name; ``params`` and ``names`` as for :func:`classifiers`)."""
    p = _params(params)
    rows = []
    for e in _entries(names):
        d = asdict(e)
        d["estimator"] = e.estimator.format(**p)
        d["counterpart labels"] = (f"{e.source}'s predict" if e.source or e.kind != "credal"
                                   else "its own predict")
        rows.append(d)
    df = pd.DataFrame(rows).set_index("name")
    df.index.name = "classifier"
    df["data sets"] = df.pop("scope").map({"all": "all", "incomplete": "with missing values"})
    return df[["kind", "estimator", "counterpart", "counterpart labels", "data sets",
               "missing", "reference"]].rename(columns={"missing": "missing values"})


def _aode_epsilon(epsilon, n_features):
    """The ε of BMA-AODE* and COMP-AODE* on a data set with ``n_features`` features
    (see :func:`classifiers`; ``k`` SPODEs never exceed the number of features)."""
    return float(min(epsilon, 0.9 / (int(n_features) + 1)))


def _estimators(names, p, n_features=None):
    """Fresh estimators of the credal entries ``names`` (parameters ``p``, complete)."""
    eps = p["aode_epsilon"] if n_features is None else _aode_epsilon(p["aode_epsilon"],
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
    return {n: factories[n]() for n in names}


def classifiers(names=(), params=None, n_features=None) -> dict:
    """The line-up: fresh estimators of the leaderboard's credal classifiers.

    The precise counterparts need no estimator of their own: their labels are the
    ``predict`` of the credal classifier their registry entry names (``source``).

    Parameters
    ----------
    names : sequence of str
        Registry names (credal or precise); empty = every credal classifier.  A name
        pulls in the credal classifier whose ``predict`` gives its counterpart's labels
        (``"LNCC"`` adds ``"NCC"``; ``"NBC"`` gives ``"NCC"``).
    params : dict, optional
        Classifier parameters (:data:`DEFAULT_PARAMS` keys); unknown keys raise
        ValueError.
    n_features : int, optional
        Features of the data set: the SPODE ensembles' ε becomes
        ``min(ε, 0.9 / (n_features + 1))`` (their credal set needs ``ε < 1/(k + 1)``
        for ``k`` SPODEs: on data sets with 99 or more features the paper's 0.01 is too
        large).

    Returns
    -------
    dict of str -> estimator
        In registry order; plain library classes (the engine's cache keys do not
        depend on this module).
    """
    return _estimators([e.name for e in _entries(names, kind="credal")], _params(params),
                       n_features)


# ---------------------------------------------------------- run: the protocol

def _observed_classes(ds):
    """``(name, X, y)`` of a data set whose class keeps only the classes that occur (the
    tuple :func:`credal.experiments.cross_validate` takes).

    Some files declare classes that no row has (anneal's class 4, the three heart
    disease labels that Weka's copies never use, ...).  No test instance can have such
    a class, and a credal classifier cannot rule out a class it has never seen (the IDM
    leaves its probability vacuous), so the leaderboard removes them before the folds
    are drawn.  Classes that occur in the data set but miss some training fold are kept."""
    y = ds.y
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.cat.remove_unused_categories()
    return ds.name, ds.X, y


def _dataset_info(data) -> pd.DataFrame:
    """Size, features, classes and share of missing values of the data sets (catalogue
    names or loaded), indexed by ``dataset``: ``n`` (rows with a class), ``features``,
    ``classes`` (observed), ``unused_classes`` (declared but never observed),
    ``min_class_count`` (rows of the rarest observed class), ``pct_missing`` (missing
    feature cells, percent, among those rows) and ``incomplete`` (any missing feature
    value)."""
    rows = []
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        keep = ~ds.y.isna().to_numpy()
        X, y = ds.X.loc[keep], ds.y.loc[keep]
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
class _Result:
    """Output of :func:`run`.

    ``folds``: the engine's fold table of the credal classifiers, plus one row per fold
    for each precise counterpart; for a credal classifier ``precise_accuracy``,
    ``precise_on_determinate`` and ``precise_on_indeterminate`` are its counterpart's
    accuracy on all, determinate and indeterminate test instances, ``own_accuracy`` the
    accuracy of its own ``predict``; ``counterpart`` names the counterpart.  ``info``:
    the data sets (:func:`_dataset_info`) with ``k_mdl``, the mean number of features
    left by the fold preprocessing.  ``params``: the classifier parameters used;
    ``classifiers``: the registry names asked for (empty = all)."""

    folds: pd.DataFrame
    info: pd.DataFrame
    params: dict
    classifiers: tuple = ()


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
    out["determinacy"] = 1.0
    for c in ("single_accuracy", "discounted_accuracy", "u65", "u80", "coverage",
              "precise_accuracy", "precise_on_determinate", "own_accuracy"):
        out[c] = acc
    for c in _PRECISE_NAN:
        out[c] = np.nan
    for c in ("fit_time", "predict_time"):
        out[c] = np.nan  # shared with the source's run; not attributable
    return out


def _run_dataset(ds, credal_entries, incomplete, p, kw):
    """The fold table of one data set (see :func:`run`)."""
    from credal.experiments import cross_validate

    reg = _by_name()
    names = [e.name for e in credal_entries if e.scope == "all" or incomplete]
    est = _estimators(names, p, n_features=ds.X.shape[1])
    joined = [n for n in names if reg[n].source]
    sources = sorted({reg[n].source for n in joined})
    group_b = {n: est[n] for n in names if n in joined or n in sources}
    group_a = {n: est[n] for n in names if n not in group_b}
    item = _observed_classes(ds)
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
    return f


def run(data, *, classifiers=(), params=None, n_splits=5, n_repeats=10, random_state=0,
        n_jobs=1, cache_dir=None, progress=False) -> _Result:
    """Evaluate the registry's classifiers on data sets under one protocol.

    Every data set goes through :func:`credal.experiments.cross_validate` with the
    default preprocessing (MDL discretisation fitted on each training fold, features
    left with a single category removed, no imputation), the same folds for every
    classifier, rows with a missing class dropped and declared classes that never
    occur removed (a credal classifier cannot rule out a class it has never seen).
    RBC (scope "incomplete") runs only on data sets with a missing feature value.
    Classifiers whose counterpart labels come from another classifier (LNCC and RBC
    from NCC) are run in a second engine call that keeps the per-instance predictions,
    from which their counterpart's accuracy on their determinate and indeterminate
    instances is computed; the predictions are then dropped.

    Parameters
    ----------
    data : list of str or Dataset
        Data sets (catalogue names or loaded).
    classifiers : sequence of str
        Registry names (as for :func:`classifiers`; a credal name also adds its
        counterpart); empty = all.
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
    _Result
        ``folds`` (the fold table, precise counterparts included), ``info`` (the data
        sets), ``params`` and ``classifiers``.
    """
    p = _params(params)
    chosen = _entries(classifiers)
    kw = dict(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state,
              n_jobs=n_jobs, cache_dir=cache_dir, progress=progress)
    frames, infos, k_used = [], [], {}
    for d in data:
        ds = datasets.load(d) if isinstance(d, str) else d
        infos.append(_dataset_info([ds]))
        f = _run_dataset(ds, [e for e in chosen if e.kind == "credal"],
                         bool(infos[-1]["incomplete"].iloc[0]), p, kw)
        k_used[ds.name] = float(f["n_features_used"].mean())
        frames.append(f)
    folds = pd.concat(frames, ignore_index=True)
    extra = [_precise_rows(folds, e) for e in chosen if e.kind == "precise"]
    folds = pd.concat([folds, *extra], ignore_index=True)
    order = {e.name: i for i, e in enumerate(REGISTRY)}
    folds = (folds.assign(_o=folds["classifier"].map(order))
             .sort_values(["dataset", "_o", "repeat", "fold"], kind="stable")
             .drop(columns="_o").reset_index(drop=True))
    info = pd.concat(infos)
    info["k_mdl"] = pd.Series(k_used)
    return _Result(folds=folds, info=info, params=p, classifiers=tuple(classifiers))


# --------------------------------------------------------------------- tables

def _dataset_scores(folds) -> pd.DataFrame:
    """Per data set and classifier, every metric pooled over all folds, with s.e.

    :func:`credal.comparisons.dataset_scores` on the leaderboard's fold table; with
    a single repeat the standard errors are NaN.
    """
    if folds["repeat"].nunique() >= 2:
        return comparisons.dataset_scores(folds, se=True)
    out = comparisons.dataset_scores(folds)
    for m in comparisons.POOLED_METRICS:
        if m in out:
            out.insert(out.columns.get_loc(m) + 1, f"{m}_se", np.nan)
    return out


#: Metrics of the leaderboard table: column -> (metric, percent?)
_TABLE_METRICS = {
    "determinacy": ("determinacy", True), "single accuracy": ("single_accuracy", True),
    "set accuracy": ("set_accuracy", True),
    "indeterminate size": ("indeterminate_size", False),
    "D-acc": ("discounted_accuracy", True), "u65": ("u65", True), "u80": ("u80", True),
    "counterpart on indeterminate": ("precise_on_indeterminate", True),
    "counterpart accuracy": ("accuracy", True)}


def _ordered(names):
    order = {e.name: i for i, e in enumerate(REGISTRY)}
    return sorted(names, key=lambda n: order.get(n, len(order)))


def _leaderboard_table(folds, scores) -> pd.DataFrame:
    """Means over data sets of every indicator, per classifier, with Monte-Carlo s.e.

    Each classifier is averaged over the data sets it ran on (RBC and RBC_u: the data
    sets with missing values; a conditional indicator such as the set accuracy over the
    data sets where it is defined).  The standard error comes from the spread of the same
    mean over the cross-validation repeats
    (:func:`credal.comparisons.repeat_standard_error`).  Returns a DataFrame indexed by
    classifier: ``kind``, ``counterpart``, ``data sets`` and, for each column of the
    table, its mean and ``<column> s.e.``; percentages in percent."""
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
    rows = []
    for n in _ordered(scores.index.get_level_values("classifier").unique()):
        row = {"classifier": n, "kind": reg[n].kind if n in reg else "",
               "counterpart": reg[n].counterpart if n in reg else "",
               "data sets": len(scores.xs(n, level="classifier"))}
        for col, (m, pct) in _TABLE_METRICS.items():
            f = 100.0 if pct else 1.0
            row[col] = value.get((n, m), np.nan) * f
            row[f"{col} s.e."] = (se.get((n, m), np.nan) if isinstance(se, pd.Series)
                                  else np.nan) * f
        rows.append(row)
    return pd.DataFrame(rows).set_index("classifier")


_RANK_META = ("n_datasets", "friedman_p", "iman_davenport_p")


def _rank_tables(scores, metrics=("u65", "u80"), datasets_=None, alphas=(0.05, 0.10)):
    """Friedman test, average ranks and Nemenyi critical differences at ``alphas``
    (:func:`credal.comparisons.friedman_comparison`: ``ranks, pairs``), one test per
    metric (a precise classifier's utility is its accuracy), on the data sets
    ``datasets_`` (default all) and the classifiers with a score on every one of them."""
    mats = {}
    for m in metrics:
        mat = comparisons.score_matrix(scores, m)
        if datasets_ is not None:
            mat = mat.loc[[d for d in mat.index if d in set(datasets_)]]
        mats[m] = mat[_ordered([c for c in mat.columns if mat[c].notna().all()])]
    return comparisons.friedman_comparison(mats, alphas=alphas)


def _average_ranks(ranks) -> pd.DataFrame:
    """The average ranks of a ``friedman_ranks`` table: classifiers (rows, registry
    order) by metric (columns); empty for an empty table."""
    if ranks.empty:
        return pd.DataFrame()
    out = ranks[[c for c in ranks.columns if c not in _RANK_META
                 and not str(c).startswith("cd_")]].T.astype(float)
    out.index.name, out.columns.name = "classifier", None
    return out


def _top_pairs(scores, average, n_top=4, rope=0.01, nsamples=50000,
               random_state=0) -> pd.DataFrame:
    """Bayesian signed-rank (and Wilcoxon) comparisons of the best-ranked classifiers.

    For each metric (a column of the ``average_ranks`` table), every pair among the
    ``n_top`` classifiers with the best average rank under that metric is compared on
    the data sets (a precise classifier's utility is its accuracy); ``rope``,
    ``nsamples`` and ``random_state`` are those of
    :func:`credal.comparisons.paired_comparisons`, whose rows this returns (``a`` the
    better-ranked).
    """
    comps = []
    for m in average.columns:
        top = list(average[m].sort_values(kind="stable").index[:n_top])
        for i, a in enumerate(top):
            for b in top[i + 1:]:
                comps.append({"a": a, "b": b, "metric": m, "id": f"{m}: {a} vs {b}",
                              "label": m})
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


def _win_tables(scores, info, metric="u80"):
    """Where each classifier wins: wins and average ranks per bin of data sets.

    On each data set the classifiers (those with a score on every data set) are ranked
    by ``metric`` (1 = best, ties share the average rank); a win counts 1 for the best
    classifier, shared equally on ties.  The data sets are grouped by
    :func:`_bin_datasets`.  Returns ``wins, ranks``, indexed by (``factor``, ``bin``)
    with a column ``data sets`` and one column per classifier: the (fractional) number of
    data sets won, resp. the average rank within the bin."""
    mat = comparisons.score_matrix(scores, metric)
    mat = mat[_ordered([c for c in mat.columns if mat[c].notna().all()])]
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
    """RBC on the data sets with missing values, beside the naive classifiers: indexed by
    data set (incomplete ones, most missing first), the share of missing cells, RBC's
    determinacy, single accuracy, u65 and u80, the accuracy of NBC (its counterpart)
    overall and on RBC's indeterminate instances, RBC_u's accuracy, and NCC's and LNCC's
    u80 for reference; percentages."""
    inc = info.index[info["incomplete"]]
    have = set(scores.index.get_level_values("classifier"))

    def col(clf, metric):
        if clf not in have:
            return pd.Series(np.nan, index=inc)
        return 100 * scores[metric].xs(clf, level="classifier").reindex(inc)

    out = pd.DataFrame({
        "% missing": info.loc[inc, "pct_missing"], "n": info.loc[inc, "n"],
        "RBC determinacy": col("RBC", "determinacy"),
        "RBC single accuracy": col("RBC", "single_accuracy"),
        "RBC u65": col("RBC", "u65"), "RBC u80": col("RBC", "u80"),
        "NBC accuracy": col("NBC", "accuracy"),
        "NBC on RBC's indeterminate": col("RBC", "precise_on_indeterminate"),
        "RBC_u accuracy": col("RBC_u", "accuracy"),
        "NCC u80": col("NCC", "u80"), "LNCC u80": col("LNCC", "u80"),
    }, index=inc)
    out.index.name = "data set"
    return out.sort_values("% missing", ascending=False, kind="stable")


# -------------------------------------------- the papers' numbers beside ours

def _paper_map(group):
    """Paper's name -> catalogue name for one paper group (``data/catalogue.toml``)."""
    return {spec["papers"][group]["name"]: name
            for name, spec in datasets.catalogue_data()["datasets"].items()
            if (spec.get("papers", {}).get(group) or {}).get("name")}


def _ours(scores, dataset, clf, metric, scale=100.0, complement=False):
    try:
        v = scores.loc[(dataset, clf), metric]
        s = scores.loc[(dataset, clf), f"{metric}_se"] if f"{metric}_se" in scores else np.nan
    except KeyError:
        return np.nan, np.nan
    v, s = float(v) * scale, float(s) * scale
    return (scale - v if complement else v), s


def _mean_over(scores, per_repeat, names, clf, metric, scale=100.0, complement=False):
    """Mean of a metric over data sets ``names``, its Monte-Carlo standard error and
    the number of data sets.

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


_COMPARISON_COLUMNS = ["source", "data set", "paper's name", "classifier", "quantity",
                       "published", "ours", "ours s.e.", "difference", "note"]


def _row(source, dataset, paper_name, clf, quantity, published, ours, se, note):
    return dict(zip(_COMPARISON_COLUMNS, (source, dataset, paper_name, clf, quantity,
                                          published, ours, se, ours - published, note)))


def _antonucci_rows(scores, per_repeat, p, have_ds, have_clf):
    """Antonucci, Cattaneo & Corani: Table 2 and the averages of Sec. 5.2 (NCC-ε and
    LNCC, when the run's ε and α equal the paper's)."""
    amap, rows = _paper_map("antonucci-lncc"), []
    metric_of = {"Det": ("determinacy", "determinacy"),
                 "Sgl_acc": ("single_accuracy", "single accuracy"),
                 "D_acc": ("discounted_accuracy", "D-acc"),
                 "NBC_I": ("precise_on_indeterminate", "NBC on indeterminate")}
    ours_param = {"NCC": ("NCC-ε", p["ncc_epsilon"]), "LNCC": ("LNCC", p["lncc_alpha"])}
    for _, r in datasets.published("antonucci_table2_uci").iterrows():
        clf, val = ours_param[r["family"]]
        ds = amap.get(r["dataset"])
        if ds not in have_ds or clf not in have_clf or not np.isclose(val, r["parameter_value"]):
            continue
        for col, (metric, qname) in metric_of.items():
            note, pub_col = ("paper: 10-fold CV protocol of the paper; ours: the "
                             "leaderboard's cross-validation"), col
            if r["dataset"] == "hepatitis" and col in ("D_acc", "NBC_I"):
                # data/published/README.md: the two columns look swapped for hepatitis
                pub_col = "NBC_I" if col == "D_acc" else "D_acc"
                note = ("the paper's D-acc and NBC-I columns look swapped for hepatitis; "
                        "compared after swapping them back")
            rows.append(_row("Antonucci et al. Table 2", ds, r["dataset"], clf, qname,
                             float(r[pub_col]), *_ours(scores, ds, clf, metric), note))
    names = [d for d in datasets.names("antonucci-lncc") if d in have_ds]
    amean = {"average determinacy": "determinacy", "average single-accuracy": "single_accuracy",
             "average NBC-I": "precise_on_indeterminate",
             "average discounted accuracy": "discounted_accuracy"}
    for _, r in datasets.published("antonucci_headline_numbers").iterrows():
        q = next((k for k in amean if str(r["quantity"]).startswith(k)), None)
        if q is None or r["classifier"] not in ("NCC_0.05", "LNCC_0.75"):
            continue
        fam, pv = r["classifier"].split("_")
        clf, val = ours_param[fam]
        if clf not in have_clf or not np.isclose(val, float(pv)) or len(names) < 2:
            continue
        v, s, n = _mean_over(scores, per_repeat, names, clf, amean[q])
        rows.append(_row("Antonucci et al. Sec. 5.2", f"mean of {n}", "9 binary data sets",
                         clf, q.replace("average ", "mean "), float(r["value"]), v, s,
                         "six of the paper's nine data sets are not named; ours are a "
                         "reconstruction"))
    return rows


#: Corani & Antonucci's averages: (quantity prefix, published classifier, ours, metric,
#: scale, complement)
_CORANI = [(q, clf, ours, m, 1 if m == "indeterminate_size" else 100, False)
           for ours in ("BMA-AODE*", "COMP-AODE*")
           for q, clf, m in (
               ("average determinacy", ours, "determinacy"),
               ("average set-accuracy", ours, "set_accuracy"),
               ("average indeterminate output size", ours, "indeterminate_size"),
               ("average accuracy on safe instances",
                f"{ours[:-1]} (instances split by {ours})", "precise_on_determinate"),
               ("average accuracy on prior-dependent instances",
                f"{ours[:-1]} (instances split by {ours})", "precise_on_indeterminate"))]
_CORANI.insert(5, ("average share of instances that are prior-dependent", "BMA-AODE*",
                   "BMA-AODE*", "determinacy", 100, True))


def _corani_rows(scores, per_repeat, have_ds, have_clf):
    """Corani & Antonucci: the averages of Sec. 3.2 over their data sets (BMA-AODE*,
    COMP-AODE* and their counterparts)."""
    names = [d for d in datasets.names("corani-antonucci") if d in have_ds]
    ch = datasets.published("corani_headline_numbers")
    rows = []
    for prefix, pub_clf, clf, metric, scale, comp in _CORANI:
        hit = ch[ch["quantity"].str.startswith(prefix) & (ch["classifier"] == pub_clf)]
        if hit.empty or clf not in have_clf or len(names) < 2:
            continue
        v, s, n = _mean_over(scores, per_repeat, names, clf, metric, scale, comp)
        qn = prefix.replace("average ", "mean ")
        if metric.startswith("precise_on"):
            qn += f" ({_by_name()[clf].counterpart})"
        rows.append(_row("Corani & Antonucci Sec. 3.2", f"mean of {n}",
                         "40 data sets (39 distinct)", clf, qn, float(hit["value"].iloc[0]),
                         v, s, "paper: missing values imputed; ours: no imputation (each "
                               "classifier's rule)"))
    return rows


def _per_dataset_rows(scores, have_ds, have_clf):
    """Ramoni & Sebastiani (Table 1: NBC_m, RBC_d and RBC_u per data set) and Moral's
    slides (naive Bayes and the credal trees per data set)."""
    rows, rmap = [], _paper_map("ramoni-sebastiani")
    rnote = ("paper: 5 x 5-fold CV, numeric features in 5 equal-frequency bins; ours: "
             "MDL inside each training fold")
    special = {"Echocardiogram": "our class is alive at one year; the paper's is still "
                                 "alive", "HeartC": "our copy keeps 2 of the 5 labels"}
    for _, r in datasets.published("ramoni_table1_accuracy_coverage").iterrows():
        ds = rmap.get(r["dataset"])
        if ds not in have_ds:
            continue
        for col, clf, metric, qname in (("NBCm_acc", "NBC", "accuracy", "accuracy"),
                                        ("RBCd_acc", "RBC", "single_accuracy", "RBC_d accuracy"),
                                        ("RBCd_cov", "RBC", "determinacy", "RBC_d coverage"),
                                        ("RBCu_acc", "RBC_u", "accuracy", "accuracy")):
            if clf in have_clf:
                rows.append(_row("Ramoni & Sebastiani Table 1", ds, r["dataset"], clf, qname,
                                 float(r[col]), *_ours(scores, ds, clf, metric),
                                 special.get(r["dataset"], rnote)))
    mmap = _paper_map("moral-trees")
    for table, col, clf, metric, qname, comp in (
            ("moral_classic_methods", "NB_test", "NBC", "accuracy", "test accuracy", False),
            ("moral_tu2_single", "TU2_test", "CDT", "single_accuracy",
             "test accuracy on determinate instances", False),
            ("moral_tu2_single", "UC_test", "CDT", "determinacy",
             "test % unclassified (indeterminate)", True),
            ("moral_global_comparison_frequency", "TU2_test", "CDT-freq", "accuracy",
             "test accuracy", False),
            ("moral_double_method", "TU2_double_test", "CDT-double-freq", "accuracy",
             "test accuracy", False)):
        for _, r in datasets.published(table).iterrows():
            ds = mmap.get(r["dataset"])
            if ds in have_ds and clf in have_clf:
                rows.append(_row("Moral slides", ds, r["dataset"], clf, qname, float(r[col]),
                                 *_ours(scores, ds, clf, metric, complement=comp),
                                 "slides: one train/test split (and their own "
                                 "discretisation); ours: cross-validation"))
    return rows


def _published_comparison(scores, folds, params=None) -> pd.DataFrame:
    """The published numbers that our protocol also measures, beside ours.

    Sources (``credal.datasets.published``): Antonucci, Cattaneo & Corani (Table 2 and
    the averages of Sec. 5.2: NCC-ε and LNCC, when the run's ε and α (``params``) equal
    the paper's), Corani & Antonucci (averages of Sec. 3.2 over their data sets:
    BMA-AODE*, COMP-AODE* and their counterparts), Ramoni & Sebastiani (Table 1: NBC_m,
    RBC_d and RBC_u per data set) and Moral's slides (naive Bayes and the credal trees per
    data set).  The papers used other protocols (see ``note``), so the differences
    measure the protocol as much as the classifiers.  ``scores``: the ``dataset_scores``
    table; ``folds``: the fold table of :func:`run` (for the averages' standard errors).
    Returns the columns ``source, data set, paper's name, classifier, quantity,
    published, ours, ours s.e., difference, note``; percentages in percent, except the
    indeterminate output size."""
    per_repeat = comparisons.dataset_scores(folds, by=("dataset", "classifier", "repeat"))
    have_ds = set(scores.index.get_level_values("dataset"))
    have_clf = set(scores.index.get_level_values("classifier"))
    rows = (_antonucci_rows(scores, per_repeat, _params(params), have_ds, have_clf)
            + _corani_rows(scores, per_repeat, have_ds, have_clf)
            + _per_dataset_rows(scores, have_ds, have_clf))
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
    c = comparison.dropna(subset=["ours"]).copy()
    c["absdiff"] = c["difference"].abs()
    c["close"] = _close(c)
    g = c.groupby(["source", "classifier", "quantity"], sort=False)
    out = pd.DataFrame({"rows": g.size(), "mean published": g["published"].mean(),
                        "mean ours": g["ours"].mean(),
                        "mean difference": g["difference"].mean(),
                        "mean |diff.|": g["absdiff"].mean(),
                        "within 2 s.e. + 1": g["close"].sum().astype(int)})
    return out.round(2)


def tables(results, n_top=4, rope=0.01, nsamples=50000, random_state=0) -> dict:
    """Every table of the chapter, computed once from the fold table of :func:`run`.

    Parameters
    ----------
    results : _Result
        :func:`run`'s output.
    n_top : int
        The best-ranked classifiers (per utility) compared pairwise by the Bayesian
        signed-rank test.
    rope, nsamples, random_state
        That test's half-width of practical equivalence, posterior samples and seed
        (:func:`credal.comparisons.paired_comparisons`).

    Returns
    -------
    dict of str -> DataFrame
        ``registry`` (the classifiers, estimators with parameters, counterparts, how
        they treat missing values), ``datasets`` (``results.info``),
        ``dataset_scores`` (every metric per data set and classifier, pooled over the
        folds, with s.e.), ``leaderboard`` (means over data sets with Monte-Carlo
        s.e., percentages in percent), ``friedman_ranks`` and ``friedman_pairs``
        (:func:`credal.comparisons.friedman_comparison` under u65 and u80, the
        classifiers with a score on every data set), ``average_ranks`` (their average
        ranks: classifier by utility), ``bayesian_top_pairs``
        (:func:`credal.comparisons.paired_comparisons` of the ``n_top`` best-ranked),
        ``wins_u80`` and ``ranks_by_bin_u80`` (wins and average ranks under u80 per
        bin of data sets by size, classes and missing cells), ``incomplete`` (RBC on
        the data sets with missing values beside the naive classifiers),
        ``friedman_ranks_incomplete`` and ``average_ranks_incomplete`` (the same on
        those data sets; empty with fewer than two), ``published_vs_ours`` (every
        published number our run also measures, with ours and its s.e.),
        ``published_vs_ours_summary`` (per source, classifier and quantity) and
        ``settings`` (the run's folds, repeats, ``rope`` and AODE ε, for the text).
    """
    folds, info = results.folds, results.info
    scores = _dataset_scores(folds)
    ranks, rank_pairs = _rank_tables(scores)
    average = _average_ranks(ranks)
    wins, win_ranks = _win_tables(scores, info, "u80")
    inc_names = list(info.index[info["incomplete"]])
    inc_ranks = (_rank_tables(scores, datasets_=inc_names)[0] if len(inc_names) > 1
                 else pd.DataFrame())
    published = _published_comparison(scores, folds, results.params)
    settings = pd.DataFrame({"value": [folds["fold"].nunique(), folds["repeat"].nunique(),
                                       rope, results.params["aode_epsilon"]]},
                            index=pd.Index(["n_folds", "n_repeats", "rope", "aode_epsilon"],
                                           name="setting"), dtype=object)
    return {"registry": _registry_table(results.params, results.classifiers),
            "datasets": info, "dataset_scores": scores,
            "leaderboard": _leaderboard_table(folds, scores),
            "friedman_ranks": ranks, "friedman_pairs": rank_pairs, "average_ranks": average,
            "bayesian_top_pairs": _top_pairs(scores, average, n_top=n_top, rope=rope,
                                             nsamples=nsamples, random_state=random_state),
            "wins_u80": wins, "ranks_by_bin_u80": win_ranks,
            "incomplete": _incomplete_table(scores, info),
            "friedman_ranks_incomplete": inc_ranks,
            "average_ranks_incomplete": _average_ranks(inc_ranks),
            "published_vs_ours": published,
            "published_vs_ours_summary": _published_summary(published),
            "settings": settings}


# ----------------------------------------- numbers quoted in the chapter text

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
    out = {k: "n/a" for k in _CHAPTER_KEYS}
    info, board, setting = tables["datasets"], tables["leaderboard"], tables["settings"]["value"]
    eps = setting["aode_epsilon"]
    out.update(n_datasets=str(len(info)), n_incomplete=str(int(info["incomplete"].sum())),
               n_repeats=str(setting["n_repeats"]), n_folds=str(setting["n_folds"]),
               rope_points=f"{100 * setting['rope']:g}",
               aode_eps_capped=", ".join(d for d in info.index if _aode_epsilon(
                   eps, info.loc[d, "features"]) < eps) or "none")
    reg = _by_name()
    out["n_credal"] = str(sum(reg.get(c) is not None and reg[c].kind == "credal"
                              for c in board.index))
    out["n_precise"] = str(sum(reg.get(c) is not None and reg[c].kind == "precise"
                               for c in board.index))
    _rank_numbers(out, tables["friedman_ranks"], tables["average_ranks"],
                  tables["friedman_pairs"])
    _board_numbers(out, board, tables["dataset_scores"], info)
    _pair_and_win_numbers(out, tables["bayesian_top_pairs"], tables["wins_u80"],
                          tables["ranks_by_bin_u80"])
    _published_numbers(out, tables["published_vs_ours"], tables["published_vs_ours_summary"])
    out["anomalies"], out["anomaly_cause"] = _anomaly_text(
        _anomalies(tables["dataset_scores"]), info, setting["n_folds"])
    unused = info.index[info.get("unused_classes", pd.Series(0, index=info.index)) > 0]
    out["unused_class_sets"] = ", ".join(unused) if len(unused) else "none"
    _rbc_numbers(out, tables["dataset_scores"], info)
    _incomplete_numbers(out, tables["friedman_ranks_incomplete"],
                        tables["average_ranks_incomplete"])
    return out


def _rank_numbers(out, ranks, average, rank_pairs):
    """The leaders under u65 and u80, the Friedman test and whom Nemenyi does not
    separate from the leader."""
    for m in ("u65", "u80"):
        if m not in ranks.index:
            continue
        order = average[m].sort_values(kind="stable")
        best = order.index[0]
        out.update({f"best_{m}": best, f"best_{m}_rank": f"{order.iloc[0]:.2f}",
                    f"second_{m}": order.index[1], f"worst_{m}": order.index[-1],
                    f"friedman_p_{m}": _fmt_p(float(ranks.loc[m, "friedman_p"])),
                    f"cd_{m}": f"{float(ranks.loc[m, 'cd_95%']):.2f}", f"k_{m}": str(len(order))})
        sig = rank_pairs[(rank_pairs["scores"] == m) & rank_pairs["significant_95%"]]
        tied = [c for c in order.index[1:]
                if not ((sig["better"] == best) & (sig["worse"] == c)).any()]
        out[f"not_separated_{m}"] = ", ".join(tied) if tied else "none"
        out[f"n_not_separated_{m}"] = str(len(tied))


def _board_numbers(out, board, scores, info):
    """Determinacy and the counterparts' drop on indeterminate instances (the credal
    classifiers run on every data set), credal ahead of its counterpart data set by
    data set, determinacy against size (Spearman)."""
    from scipy.stats import spearmanr

    reg = _by_name()
    cred_any = [c for c in board.index if reg.get(c) and reg[c].kind == "credal"]
    cred = [c for c in cred_any if reg[c].scope == "all"]
    det = board.loc[cred, "determinacy"].dropna()
    if len(det):
        out.update(most_determinate=det.idxmax(), most_determinate_value=f"{det.max():.1f}",
                   least_determinate=det.idxmin(), least_determinate_value=f"{det.min():.1f}")
    gap = (board.loc[cred, "counterpart accuracy"]
           - board.loc[cred, "counterpart on indeterminate"]).dropna()
    if len(gap):
        out.update(drop_min=f"{gap.min():.0f}", drop_max=f"{gap.max():.0f}",
                   drop_min_clf=gap.idxmin(), drop_max_clf=gap.idxmax())
    for m in ("u65", "u80"):
        ahead = []
        for c in cred_any:
            try:
                a = scores[m].xs(c, level="classifier")
                b = scores["accuracy"].xs(reg[c].counterpart, level="classifier")
            except KeyError:
                continue
            pair = pd.concat([a, b], axis=1, join="inner").dropna()
            ahead.append((c, int((pair.iloc[:, 0] > pair.iloc[:, 1] + 1e-12).sum()), len(pair)))
        out[f"credal_ahead_{m}"] = "; ".join(f"{c} {k}/{n}" for c, k, n in ahead)
    rhos = []
    for c in cred_any:
        try:
            d = scores["determinacy"].xs(c, level="classifier")
        except KeyError:
            continue
        if d.nunique() > 1:
            rhos.append((c, float(spearmanr(d, info["n"].reindex(d.index)).statistic)))
    if rhos:
        out.update(rho_det_n_min=f"{min(r for _, r in rhos):.2f}",
                   rho_det_n_max=f"{max(r for _, r in rhos):.2f}",
                   rho_det_n_list="; ".join(f"{c} {r:.2f}" for c, r in rhos))


def _pair_and_win_numbers(out, pairs, wins, win_ranks):
    """The Bayesian comparisons' verdicts and who wins where."""
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
    allw = wins.loc[("all", "all data sets")].drop("data sets")
    out["most_wins"] = allw.astype(float).idxmax()
    out["most_wins_n"] = f"{allw.max():.1f}".rstrip("0").rstrip(".")
    for factor in ("size", "classes", "missing"):
        best = win_ranks.loc[factor].drop(columns="data sets").astype(float).idxmin(axis=1)
        out[f"bestrank_{factor}"] = "; ".join(f"{b}: {c}" for b, c in best.items())


def _published_numbers(out, published, summary):
    """How close the published numbers are, per source; the counts behind the
    sentence on Moral's tree results."""
    if len(summary):
        out["pub_rows"] = str(int(summary["rows"].sum()))
        out["pub_close"] = str(int(summary["within 2 s.e. + 1"].sum()))
        for src in summary.index.get_level_values("source").unique():
            sub = summary.xs(src, level="source")
            mad = (sub["mean |diff.|"] * sub["rows"]).sum() / sub["rows"].sum()
            out[f"pub_mad_{src.split()[0].lower().rstrip('&')}"] = f"{mad:.1f}"
    mor = published[published["source"] == "Moral slides"].dropna(subset=["ours"])
    tol = 2 * mor["ours s.e."].fillna(0) + 1.0
    trees = mor["classifier"].str.startswith("CDT") & mor["quantity"].str.contains("accuracy")
    nb = mor["classifier"] == "NBC"
    out["moral_tree_rows"] = str(int(trees.sum()))
    out["moral_tree_above"] = str(int(((mor["published"] - mor["ours"]) > tol)[trees].sum()))
    out["moral_nb_rows"] = str(int(nb.sum()))
    out["moral_nb_close"] = str(int(_close(mor)[nb].sum()))


def _rbc_numbers(out, scores, info):
    """RBC's determinacy against the share of missing cells."""
    from scipy.stats import spearmanr

    if "RBC" not in set(scores.index.get_level_values("classifier")):
        return
    d = scores["determinacy"].xs("RBC", level="classifier")
    miss = info["pct_missing"].reindex(d.index)
    if len(d) > 2 and d.nunique() > 1:
        out["rbc_rho_missing"] = f"{float(spearmanr(d, miss).statistic):.2f}"
    top = miss.idxmax()
    out.update(rbc_most_missing=str(top), rbc_most_missing_pct=f"{miss[top]:.0f}",
               rbc_most_missing_det=f"{100 * d[top]:.0f}")


def _incomplete_numbers(out, inc_ranks, average):
    """The Friedman test on the data sets with missing values and RBC's place."""
    for m in inc_ranks.index if len(inc_ranks) else ():
        order = average[m].sort_values(kind="stable")
        out[f"inc_best_{m}"] = order.index[0]
        if "RBC" in order.index:
            out[f"inc_rbc_rank_{m}"] = f"{order['RBC']:.2f}"
            out[f"inc_rbc_pos_{m}"] = str(int(list(order.index).index("RBC")) + 1)
        out.update({f"inc_k_{m}": str(len(order)),
                    f"inc_n_{m}": str(int(inc_ranks.loc[m, "n_datasets"])),
                    f"inc_p_{m}": _fmt_p(float(inc_ranks.loc[m, "friedman_p"]))})


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
    alone (``tests/chapters/test_chapter_leaderboard.py`` shows this on a constructed
    example).  Anything else is reported as unexplained.
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



# -------------------------------------------------------------------- figures

def _kinds():
    return {e.name: e.kind for e in REGISTRY}


def leaderboard_heatmap(scores, info, metric="u80", max_rows=22):
    """Heatmap of one metric by data set (rows, by size) and classifier (columns).

    Each cell shows the score in percent; its colour is the gap to the best
    classifier on that data set (white = best, darker = further behind), so the
    pattern of who leads where is visible across data sets of very different
    difficulty.  Cells of classifiers that did not run on a data set are grey.

    Parameters
    ----------
    scores : DataFrame
        The ``dataset_scores`` table of :func:`tables`.
    info : DataFrame
        The ``datasets`` table of :func:`tables` (``n`` orders the rows).
    metric : str
    max_rows : int
        Data sets per panel: longer lists are split into panels of equal length,
        stacked, so that the text keeps 9 pt at the book's text width.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    mat = scores[metric].unstack("classifier")
    cols = _ordered(mat.columns)        # credal first, in registry order
    mat = mat[cols]
    rows = list(info["n"].reindex(mat.index).sort_values(kind="stable").index)
    mat = mat.loc[rows] * 100
    gap_all = mat.max(axis=1).to_numpy()[:, None] - mat.to_numpy()
    n_r, n_c = mat.shape
    n_panels = int(np.ceil(n_r / max_rows))
    per = int(np.ceil(n_r / n_panels))
    chunks = [list(range(i, min(i + per, n_r))) for i in range(0, n_r, per)]
    fig, axes = plt.subplots(len(chunks), 1, squeeze=False, constrained_layout=True,
                             figsize=(TEXT_WIDTH, sum(1.4 + 0.24 * len(ch) for ch in chunks)),
                             gridspec_kw={"height_ratios": [len(ch) for ch in chunks]})
    cmap = plt.get_cmap("Blues").with_extremes(bad="#dddddd")
    vmax = max(5.0, float(np.nanpercentile(gap_all, 95))
               if np.isfinite(gap_all).any() else 5.0)
    kinds = _kinds()
    im = None
    for ax, ch in zip(axes[:, 0], chunks):
        gap = gap_all[ch]
        im = ax.imshow(np.ma.masked_invalid(gap), cmap=cmap, vmin=0, vmax=vmax,
                       aspect="auto")
        for i, r in enumerate(ch):
            for j in range(n_c):
                v = mat.iat[r, j]
                if np.isfinite(v):
                    ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=9,
                            color="white" if gap[i, j] > 0.6 * vmax else "black")
        ax.set_xticks(range(n_c))
        ax.set_xticklabels(cols, rotation=90)
        ax.xaxis.tick_top()
        for lab in ax.get_xticklabels():
            if kinds.get(lab.get_text()) == "precise":
                lab.set_fontstyle("italic")
        ax.set_yticks(range(len(ch)))
        ax.set_yticklabels([f"{rows[r].replace('_', ' ')} ({int(info.loc[rows[r], 'n'])})"
                            for r in ch])
        ax.set_ylabel("data set (instances)")
    axes[0, 0].xaxis.set_label_position("top")
    axes[0, 0].set_xlabel("classifier (precise counterparts in italics)")
    cb = fig.colorbar(im, ax=list(axes[:, 0]), orientation="horizontal", fraction=0.04,
                      pad=0.02, aspect=30, shrink=0.7)
    cb.set_label(f"{metric} points behind the best on the data set")
    return fig


def leaderboard_determinacy(scores, info):
    """Determinacy of each credal classifier against the size of the data set.

    One panel per credal classifier: a point per data set (x: number of instances,
    logarithmic; y: share of test instances given a single class, percent) and the
    median within each size bin (up to 200 instances, 1000, 5000, more).

    Parameters
    ----------
    scores : DataFrame
        The ``dataset_scores`` table of :func:`tables`.
    info : DataFrame
        The ``datasets`` table of :func:`tables`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    kinds = _kinds()
    present = scores.index.get_level_values("classifier").unique()
    cols = _ordered([c for c in present if kinds.get(c) == "credal"])
    n = len(cols)
    ncol = min(2, max(1, n))
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(TEXT_WIDTH, 2.4 * nrow), sharex=True,
                             sharey=True, squeeze=False)
    for ax, c in zip(axes.ravel(), cols):
        d = scores["determinacy"].xs(c, level="classifier") * 100
        size = info["n"].reindex(d.index).astype(float)
        incomplete = info["incomplete"].reindex(d.index).astype(bool)
        ax.scatter(size[~incomplete], d[~incomplete], s=14, color="tab:blue", alpha=0.75,
                   label="complete data")
        ax.scatter(size[incomplete], d[incomplete], s=14, facecolors="none",
                   edgecolors="tab:orange", label="with missing values")
        xs, ys = [], []
        for _, lo, hi in _SIZE_BINS:
            sel = (size > lo) & (size <= hi)
            if sel.any():
                xs.append(float(np.exp(np.log(size[sel]).mean())))
                ys.append(float(d[sel].median()))
        ax.plot(xs, ys, color="black", lw=1.2, marker="s", ms=3, label="median per size bin")
        ax.set_xscale("log")
        ax.set_title(c, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        if ax.get_visible():
            ax.set_xlabel("instances in the data set (log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel("determinacy (%)")
    axes.ravel()[0].legend(loc="lower right")
    fig.tight_layout()
    return fig


def leaderboard_cd_diagrams(ranks, metrics=("u65", "u80"), level="95%"):
    """Critical-difference diagrams (Friedman + Nemenyi), one per metric.

    Parameters
    ----------
    ranks : DataFrame
        The ``friedman_ranks`` table of :func:`tables`.
    metrics : sequence of str
    level : str
        Which critical difference to draw (column ``cd_<level>``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from credal.plotting import cd_diagram as draw

    meta = {"n_datasets", "friedman_p", "iman_davenport_p"}
    ms = [m for m in metrics if m in ranks.index]
    k = max(len([c for c in ranks.columns if c not in meta and not str(c).startswith("cd_")]), 2)
    fig, axes = plt.subplots(len(ms), 1, figsize=(TEXT_WIDTH, (1.9 + 0.2 * k) * len(ms)),
                             squeeze=False)
    for ax, m in zip(axes[:, 0], ms):
        r = ranks.loc[m]
        avg = r[[c for c in r.index if c not in meta and not str(c).startswith("cd_")]]
        avg = avg.dropna().astype(float)
        draw(avg, float(r[f"cd_{level}"]), ax=ax,
             title=f"{m}: average rank over {int(r['n_datasets'])} data sets\n"
                   f"(1 = best; CD = Nemenyi critical difference at {level})")
        ax.set_xlabel("average rank")
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def leaderboard_wins(win_ranks, wins=None):
    """Average rank of every classifier within bins of data sets.

    Three panels stacked (size, number of classes, share of missing cells), sharing
    the classifier axis: columns are classifiers, rows bins; the colour is the average
    rank under the chosen utility within the bin (lighter = better) and the text the
    number of data sets won in the bin (when ``wins`` is given).

    Parameters
    ----------
    win_ranks : DataFrame
        The ``ranks_by_bin_u80`` table of :func:`tables`.
    wins : DataFrame, optional
        The ``wins_u80`` table of :func:`tables`.

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
    vmax = float(np.nanmax(win_ranks[clf].to_numpy(dtype=float)))
    vmin = float(np.nanmin(win_ranks[clf].to_numpy(dtype=float)))
    im = None
    for ax, f in zip(axes[:, 0], factors):
        sub = win_ranks.loc[f]
        mat = sub[clf].to_numpy(dtype=float)
        im = ax.imshow(mat, cmap="viridis_r", vmin=vmin, vmax=vmax, aspect="auto")
        if wins is not None:
            w = wins.loc[f][clf].to_numpy(dtype=float)
            for i in range(mat.shape[0]):
                for j in range(mat.shape[1]):
                    if w[i, j] > 0:
                        txt = f"{w[i, j]:.1f}".rstrip("0").rstrip(".")
                        ax.text(j, i, txt, ha="center", va="center", fontsize=9,
                                color="black" if mat[i, j] < (vmin + vmax) / 2 else "white")
        ax.set_yticks(range(len(sub)))
        ax.set_yticklabels([f"{b} ({int(n)})" for b, n in zip(sub.index, sub["data sets"])])
        ax.set_ylabel({"size": "instances", "classes": "classes",
                       "missing": "missing cells"}[f])
    top = axes[0, 0]
    top.set_xticks(range(len(clf)))
    top.set_xticklabels(clf, rotation=90)
    top.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False)
    axes[-1, 0].tick_params(labelbottom=False)
    axes[-1, 0].set_xlabel("classifier (bins: number of data sets in brackets)")
    cb = fig.colorbar(im, ax=list(axes[:, 0]), fraction=0.05, pad=0.02,
                      orientation="horizontal", aspect=40)
    cb.set_label("average rank within the bin (1 = best)")
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

    n = len(pairs)
    fig, ax = plt.subplots(figsize=(TEXT_WIDTH, 1.2 + 0.3 * max(n, 1)))
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for col, colour, lab in (("p_a_better", "tab:blue", "a better"),
                             ("p_rope", "0.7", "practically equivalent"),
                             ("p_b_better", "tab:orange", "b better")):
        v = pairs[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=colour, label=lab, height=0.7)
        left += v
    ax.set_yticks(y)
    ax.set_yticklabels([f"{m}: {a} (a) vs {b} (b)" for m, a, b in
                        zip(pairs["label"], pairs["a"], pairs["b"])])
    ax.set_xlim(0, 1)
    ax.set_xlabel("posterior probability")
    ax.set_ylabel("pair of classifiers")
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
        One point per published number in percent (the few in classes are left out),
        the published value on the horizontal axis and ours on the vertical; the
        identity line with the band of ± one point; blue: within two standard errors
        plus one point of the published value, orange: further; one marker per source.
    """
    import matplotlib.pyplot as plt

    c = comparison.dropna(subset=["ours"])
    c = c[~c["quantity"].str.contains("size")]
    close = _close(c)
    fig, ax = plt.subplots(figsize=(TEXT_WIDTH, 5.2), constrained_layout=True)
    lo = float(np.floor(min(c["published"].min(), c["ours"].min(), 100) / 10) * 10) \
        if len(c) else 0.0
    ax.plot([lo, 100], [lo, 100], color="black", lw=1, label="identity")
    ax.fill_between([lo, 100], [lo - 1, 99], [lo + 1, 101], color="0.85", lw=0,
                    label="± 1 point")
    markers = ["o", "s", "^", "D", "v", "P"]
    sources = list(dict.fromkeys(s.split(" Table")[0].split(" Sec.")[0]
                                 for s in c["source"]))
    short = c["source"].map(lambda s: s.split(" Table")[0].split(" Sec.")[0])
    for i, src in enumerate(sources):
        for ok, color, what in ((True, "tab:blue", "within 2 s.e. + 1"),
                                (False, "tab:orange", "further")):
            sel = (short == src) & (close == ok)
            if sel.any():
                ax.scatter(c.loc[sel, "published"], c.loc[sel, "ours"], s=30,
                           marker=markers[i % len(markers)], color=color, alpha=0.75,
                           edgecolors="none", label=f"{src}: {what} ({int(sel.sum())})")
    ax.set_xlim(lo, 100.5)
    ax.set_ylim(lo, 100.5)
    ax.set_aspect("equal")
    ax.set_xlabel("published value (percent)")
    ax.set_ylabel("ours (percent)")
    ax.grid(True, lw=0.3, color="0.85")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    return fig

