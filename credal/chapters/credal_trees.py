"""Chapter "Credal decision trees" (notebook ``credal-trees``): Serafín Moral's slides on
credal decision trees (Abellán & Moral), the simple and double credal trees of
:class:`credal.CredalDecisionTree` against naive Bayes and C4.5 (:class:`credal.C45Tree`) on
the slides' eleven UCI data sets.  Here: the line-up (:func:`classifiers`), the runs
(:func:`run`), every table shown (:func:`tables`), the numbers for the text (:func:`numbers`),
the headline numbers (:data:`HEADLINE`) and the figure (:func:`ours_vs_published_figure`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from credal import datasets
from credal._validation import check_int
from credal.chapters._verdicts import Headline, Headlines, Published, Reading, published_text
from credal.experiments import cross_validate, holdout_item
from credal.preprocessing import make_preprocessor
from credal.robust import NaiveBayesMissing
from credal.trees import C45Tree, CredalDecisionTree

__all__ = ["CITATION", "HEADLINE", "classifiers", "numbers", "ours_vs_published_figure", "run",
           "tables"]

#: the slides (their title page; they carry no date) and the method's paper they cite
CITATION = ('S. Moral, "Discovering independence", lecture slides (second part: classification '
            'trees), Departamento de Ciencias de la Computación, Universidad de Granada, Spain '
            '(undated; cites work up to 2005); the method: J. Abellán and S. Moral, "Building '
            'classification trees using the total uncertainty criterion", *International Journal '
            'of Intelligent Systems* 18 (2003) 1215-1225.')

# -------------------------------------------------------- the classifiers it compares


def classifiers(s=1.0):
    """The four classifiers of the slides' tree experiments.

    ``NB``: naive Bayes with Laplace (+1) estimates, missing values ignored
    (:class:`credal.NaiveBayesMissing`); ``C4.5``: :class:`credal.C45Tree` (J48
    defaults); ``TU2 simple`` / ``TU2 double``: :class:`credal.CredalDecisionTree` with
    the upper-entropy criterion, IDM ``s``, simple or double branching and the
    dominance criterion at the leaves (its precise prediction, the most frequent class
    of the leaf, is the slides' frequency criterion).

    Parameters
    ----------
    s : float
        IDM hyperparameter of the credal trees (the slides use 1).

    Returns
    -------
    dict of str -> estimator
    """
    return {"NB": NaiveBayesMissing(strategy="ignore", prior="laplace"), "C4.5": C45Tree(),
            "TU2 simple": CredalDecisionTree(s=s, branching="simple"),
            "TU2 double": CredalDecisionTree(s=s, branching="double")}


# -------------------------------------------------------------------------------- run


def run(estimators, names=None, *, n_repeats=10, random_state=0, n_jobs=1, cache_dir=None):
    """The slides' train/test design, the engine's run on it and the other protocols.

    The design, per data set.  Rows: only those without missing values if the slides'
    ``n_train + n_test`` is smaller than our file (the slides' sizes match the complete
    rows of these sets), otherwise every row; classes no kept row has are dropped.  Split:
    the data set's own fixed
    split when it ships one (Monks1), otherwise a stratified random split with exactly
    the slides' training size and the other rows as test set, drawn ``n_repeats`` times
    with seeds ``random_state + r``.  Each split is evaluated twice by
    :func:`credal.experiments.cross_validate`: trained on the training part and scored
    on the test part (item ``"<name>|<r>|test"``), and scored on the training part
    itself (``"<name>|<r>|train"``, the slides' training accuracy).  NB, C4.5 and the
    simple tree also run under the other protocols (:func:`_protocol_runs`).

    Parameters
    ----------
    estimators : dict of str -> estimator
        The line-up, :func:`classifiers`.
    names : sequence of str, optional
        Data sets (default: the slides' eleven, ``credal.datasets.names("moral-trees")``).
    n_repeats : int
        Random splits per data set (a fixed split is used once).
    random_state : int
        Seed of the splits and of the protocols' 10-fold CV.
    n_jobs, cache_dir
        Passed to :func:`credal.experiments.cross_validate`.

    Returns
    -------
    dict
        ``design`` (one row per data set: the slides' name and sizes beside ours, the row
        and split policies), ``runs`` (:func:`_tidy`) and ``protocol_runs`` (the same
        with a ``protocol`` column), ``nb_bins_runs`` (:func:`_nb_bins_runs`).
    """
    items, design = _design(names, n_repeats, random_state)
    result = cross_validate(estimators, items, use_predefined_split=True, n_jobs=n_jobs,
                            cache_dir=cache_dir, progress=False)
    chosen = {k: estimators[k] for k in ("NB", "C4.5", "TU2 simple") if k in estimators}
    return {"design": design, "runs": _tidy(result), "protocol_runs": _protocol_runs(
        items, chosen, n_jobs=n_jobs, cache_dir=cache_dir, random_state=random_state),
        "nb_bins_runs": _nb_bins_runs(items, estimators, n_jobs=n_jobs, cache_dir=cache_dir)}


def _slides_name(name):
    """The slides' name of a data set, from its catalogue entry (None if not there)."""
    return datasets.spec(name).get("papers", {}).get("moral-trees", {}).get("name")


def _design(names, n_repeats, random_state):
    """The engine's items ``(name, X, y, split)`` and the design table (see :func:`run`)."""
    n_repeats, random_state = check_int("n_repeats", n_repeats, 1), check_int("random_state", random_state, 0)
    pub = datasets.published("moral_uci_datasets").set_index("dataset")
    items, rows = [], []
    for name in list(datasets.names("moral-trees")) if names is None else list(names):
        paper = _slides_name(name)
        if paper is None or paper not in pub.index:
            raise ValueError(f"{name!r} is not in the slides' data-set list")
        p, d = pub.loc[paper], datasets.load(name)
        X, y = d.X, d.y
        complete = ~X.isna().any(axis=1).to_numpy()
        drop_incomplete = int(p["n_train"] + p["n_test"]) < len(X) and d.split is None
        if drop_incomplete:
            X, y = X[complete].reset_index(drop=True), y[complete].reset_index(drop=True)
        y = y.cat.remove_unused_categories()
        if d.split is not None:
            s = d.split.to_numpy()
            splits = [(np.flatnonzero(s == "train"), np.flatnonzero(s == "test"))]
            how = "fixed split of the data set"
        else:
            n_train = min(int(p["n_train"]), len(y) - 1)
            splits = [train_test_split(np.arange(len(y)), train_size=n_train, stratify=y.to_numpy(),
                                       random_state=random_state + r) for r in range(n_repeats)]
            how = f"stratified random split, {n_repeats} repetitions"
        for r, (tr, te) in enumerate(splits):
            tr, te = np.sort(tr), np.sort(te)
            train = (X.iloc[tr].reset_index(drop=True), y.iloc[tr].reset_index(drop=True))
            test = (X.iloc[te].reset_index(drop=True), y.iloc[te].reset_index(drop=True))
            items.append(holdout_item(f"{name}|{r}|test", train, test))
            items.append(holdout_item(f"{name}|{r}|train", train, train))
        rows.append({
            "dataset": paper, "name": name, "paper_n_train": int(p["n_train"]),
            "paper_n_test": int(p["n_test"]), "n_rows_file": d.n_rows, "n_complete_rows": int(complete.sum()),
            "rows_used": "complete rows" if drop_incomplete else "all rows", "n_train": len(splits[0][0]),
            "n_test": len(splits[0][1]), "paper_n_variables": int(p["n_variables"]), "n_variables": d.n_features,
            "n_variables_varying": int(sum(X[c].nunique(dropna=True) > 1 for c in X.columns)),
            "paper_n_classes": int(p["n_classes"]), "n_classes": int(len(y.cat.categories)), "split": how})
    return items, pd.DataFrame(rows)


def _tidy(result):
    """Per-split metrics of the engine's result on the design's items, one row per (data set,
    repeat, part, classifier): ``n_eval``, ``accuracy`` (precise), ``single_accuracy``
    (determinate instances), ``unclassified`` (indeterminate instances), in percent."""
    f = result.folds
    parts = f["dataset"].str.split("|", expand=True)
    out = pd.DataFrame({"name": parts[0], "repeat": parts[1].astype(int), "part": parts[2],
                        "classifier": f["classifier"], "n_eval": f["n_test"],
                        "accuracy": 100 * f["precise_accuracy"], "single_accuracy": 100 * f["single_accuracy"],
                        "unclassified": 100 * (1 - f["determinacy"])})
    return out.sort_values(["name", "classifier", "part", "repeat"], kind="stable").reset_index(drop=True)


#: The protocols of the chapter's protocol table: name -> what it does.
_PROTOCOLS = {"hold-out": "learn on a training part of the slides' size, score on the other rows "
                          "(MDL fitted on the training part): the chapter's main run",
              "10-fold CV": "10-fold stratified cross-validation on the same rows",
              "MDL on all rows": "hold-out, with the MDL cut points fitted on all rows (test rows included)",
              "equal-frequency bins": "hold-out, with 5 equal-frequency bins instead of MDL",
              "scored on training data": "learn on the training part and score on that same part",
              "learned on train+test": "learn on all rows (test part included), score on the test part"}


def _protocol_runs(items, estimators, *, n_jobs=1, cache_dir=None, random_state=0):
    """The slides' comparison under the protocols that need runs of their own (:func:`_tidy`
    rows with a ``protocol`` column), from the design's hold-out items (``"<name>|<r>|test"``):
    10-fold CV on the same rows (first split's rows, once, seed ``random_state``); hold-out
    with MDL fitted on all rows; hold-out with 5 equal-frequency bins; learning on all rows,
    scoring on the test part.  (The hold-out and the training-part scores: the main run.)"""
    hold = [it for it in items if it[0].endswith("|test")]
    if not hold:
        raise ValueError("no hold-out items: pass the items of the chapter's design")
    mdl_all, both, first = [], [], {}
    for name, X, y, split in hold:
        mdl_all.append((name, make_preprocessor(drop_single=False).fit(X, y).transform(X), y, split))
        test = split == "test"
        both.append(holdout_item(name, (X, y), (X[test].reset_index(drop=True), y[test].reset_index(drop=True))))
        first.setdefault(name.split("|")[0], (f"{name.split('|')[0]}|0|test", X, y))  # CV rows
    def cv(data, **kw):
        return cross_validate(estimators, data, n_jobs=n_jobs, cache_dir=cache_dir, progress=False, **kw)
    runs = {"10-fold CV": cv(list(first.values()), n_splits=10, n_repeats=1, random_state=random_state),
            "MDL on all rows": cv(mdl_all, use_predefined_split=True, preprocessing=make_preprocessor(discretize=None)),
            "equal-frequency bins": cv(hold, use_predefined_split=True,
                                       preprocessing=make_preprocessor(discretize="equal-frequency")),
            "learned on train+test": cv(both, use_predefined_split=True)}
    return pd.concat([_tidy(r).assign(protocol=p) for p, r in runs.items()], ignore_index=True)


# ----------------------------------------------------------------------------- tables

# The slides' tables: output column -> (classifier, part, metric, published table, column),
# in percent: "accuracy" is the precise accuracy (credal trees: the frequency criterion, the
# leaf's most frequent class), "single_accuracy" that on determinate instances,
# "unclassified" the share of instances given several classes (double tree: not on the slides).
_SLIDES_TABLES = {
    "classic_methods": [(f"{c} {part}", c, part, "accuracy", "moral_classic_methods", f"{pc}_{part}")
                        for c, pc in (("NB", "NB"), ("C4.5", "C45")) for part in ("train", "test")],
    "credal_trees_dominance": [
        (f"{tree}: {part} {what}", f"TU2 {tree}", part, metric,
         "moral_tu2_single" if tree == "simple" else None, f"{pc}_{part}" if tree == "simple" else None)
        for tree in ("simple", "double") for part in ("train", "test")
        for what, metric, pc in (("accuracy", "single_accuracy", "TU2"), ("UC %", "unclassified", "UC"))],
    "frequency_criterion": [
        ("TU2 simple", "TU2 simple", "test", "accuracy", "moral_global_comparison_frequency", "TU2_test"),
        ("TU2 double", "TU2 double", "test", "accuracy", "moral_double_method", "TU2_double_test"),
        ("NB", "NB", "test", "accuracy", "moral_global_comparison_frequency", "NB_test"),
        ("C4.5", "C4.5", "test", "accuracy", "moral_global_comparison_frequency", "C45_test")],
}


def tables(results):
    """Every table of the chapter from :func:`run`'s results (dict of str -> DataFrame).

    ``runs``; ``datasets`` (the design); ``classic_methods`` (NB and C4.5, training and test
    accuracy), ``credal_trees_dominance`` (the credal trees' accuracy on determinate
    instances and % unclassified, UC, training and test) and ``frequency_criterion`` (test
    accuracy, trees with the frequency criterion), one row per (data set, column)
    (:func:`_slides_table`); ``protocols`` (:func:`_protocol_table`); ``hepatitis_split``
    (:func:`_hepatitis_split`); ``tu1_published_only`` (the slides' TU1 line);
    ``nb_discretisation`` (:func:`_nb_bins_table`).  The cells
    the book shows where they join columns: ``datasets_cells``, ``classic_methods_cells``,
    ``credal_simple_cells``, ``credal_double_cells``, ``frequency_criterion_cells`` ("ours
    ± SE (slides')", :func:`_cells`) and ``protocols_cells`` ("ours (gap)")."""
    design, runs = results["design"], results["runs"]
    out = {"runs": runs, "datasets": design, **{w: _slides_table(runs, design, w) for w in _SLIDES_TABLES},
           "protocols": _protocol_table(runs, results["protocol_runs"], design),
           "hepatitis_split": _hepatitis_split(), "datasets_cells": _design_cells(design),
           "tu1_published_only": datasets.published("moral_tu1_simple_double").set_index("function")}
    out["classic_methods_cells"] = _cells(out["classic_methods"])
    for tree in ("simple", "double"):
        out[f"credal_{tree}_cells"] = _cells(out["credal_trees_dominance"], prefix=tree)
    out["frequency_criterion_cells"] = _cells(out["frequency_criterion"])
    out["protocols_cells"] = _protocol_cells(out["protocols"])
    out["nb_discretisation"] = _nb_bins_table(runs, results.get("nb_bins_runs"), design)
    return out


def _slides_table(runs, design, which):
    """One of the slides' tables, ours (mean over splits) beside the published values.

    One row per (data set, column): ``dataset`` (slides' name), ``name``, ``column``,
    ``ours`` (mean over the splits, percent), ``se`` (its standard error), ``sd``
    (split-to-split standard deviation), ``n_splits``, ``published``, ``difference`` and
    ``z`` = difference / (sd sqrt(1 + 1/n_splits)), the difference in units of the
    spread of one split's result (the slides report a single split).  ``published`` is
    NaN where the slides give nothing (the double tree's dominance results, Monks1);
    ``sd``, ``se`` and ``z`` are NaN for a data set evaluated on a single split.
    """
    pubs = {c[4]: datasets.published(c[4]).set_index("dataset") for c in _SLIDES_TABLES[which] if c[4]}
    rows = []
    for _, d in design.iterrows():
        for col, clf, part, metric, ptab, pcol in _SLIDES_TABLES[which]:
            sub = runs[(runs["name"] == d["name"]) & (runs["classifier"] == clf) & (runs["part"] == part)]
            v = sub[metric].dropna().to_numpy(dtype=float)
            k = len(v)
            mean = float(v.mean()) if k else np.nan
            # One split (a fixed split, or n_repeats = 1) gives no estimate of the spread.
            sd = float(v.std(ddof=1)) if k > 1 else np.nan
            p = float(pubs[ptab][pcol].get(d["dataset"], np.nan)) if ptab else np.nan
            diff, scale = mean - p, sd * np.sqrt(1 + 1 / k) if k else np.nan
            z = (np.nan if np.isnan(diff) or np.isnan(scale) else diff / scale if scale > 1e-9
                 else 0.0 if abs(diff) < 0.05 else float(np.sign(diff) * np.inf))
            rows.append({"dataset": d["dataset"], "name": d["name"], "column": col,
                         "ours": mean, "se": sd / np.sqrt(k) if k else np.nan, "sd": sd,
                         "n_splits": k, "published": p, "difference": diff, "z": z})
    return pd.DataFrame(rows)


def _cells(table, prefix=None, z_flag=3.0):
    """"ours ± SE (slides')" cells of a :func:`_slides_table`, one column per ``column``
    (only the ``"<prefix>: ..."`` ones, prefix dropped, when given), one row per data
    set; a star marks ``|z| > z_flag``, "–" a value the slides do not give."""
    if prefix is not None:
        table = table[table["column"].str.startswith(f"{prefix}: ")].assign(
            column=lambda t: t["column"].str[len(prefix) + 2:])
    def cell(o, s, p, z):
        txt = f"{o:.1f}" + (f" ± {s:.1f}" if np.isfinite(s) else "") if np.isfinite(o) else "–"
        txt += f" ({p:.1f})" if np.isfinite(p) else " (–)"
        return txt + (" *" if np.isfinite(z) and abs(z) > z_flag or np.isinf(z) else "")

    t = table.assign(cell=[cell(*r) for r in zip(table["ours"], table["se"], table["published"], table["z"])])
    out = t.pivot(index="dataset", columns="column", values="cell").loc[
        list(dict.fromkeys(t["dataset"])), list(dict.fromkeys(t["column"]))]
    out.index.name, out.columns.name = "data set", None
    return out


def _design_cells(design):
    """The design as the book shows it: the slides' sizes beside ours, per data set."""
    def pairs(a, b, c=None):
        return [f"{x} / {y}" + (f" ({v} not constant)" if c and v != y else "")
                for x, y, v in zip(design[a], design[b], design[c or b])]
    return pd.DataFrame({
        "our data set": design["name"].to_numpy(),
        "train / test (slides)": pairs("paper_n_train", "paper_n_test"),
        "train / test (ours)": pairs("n_train", "n_test"),
        "rows used": [f"{u} ({c} of {n} complete)" for u, c, n in
                      zip(design["rows_used"], design["n_complete_rows"], design["n_rows_file"])],
        "variables (slides / ours)": pairs("paper_n_variables", "n_variables", "n_variables_varying"),
        "classes (slides / ours)": pairs("paper_n_classes", "n_classes"),
    }, index=pd.Index(design["dataset"].to_numpy(), name="data set"))


# Columns of the protocol table: label -> (classifier, metric, published table, column).
_PROTOCOL_COLUMNS = {
    "NB": ("NB", "accuracy", "moral_classic_methods", "NB_test"),
    "C4.5": ("C4.5", "accuracy", "moral_classic_methods", "C45_test"),
    "tree, frequency": ("TU2 simple", "accuracy", "moral_global_comparison_frequency", "TU2_test"),
    "tree, determinate": ("TU2 simple", "single_accuracy", "moral_tu2_single", "TU2_test"),
}


def _protocol_table(runs, protocol_runs, design):
    """One row per protocol: what it does and what it gives against the slides' figures.

    Each cell is our mean over the data sets where the slides give a test figure (a data
    set's value first averaged over its splits or folds), and, in the
    ``gap:`` columns, ours minus the slides' mean over the same data sets (points).  Index:
    "slides" (the slides' own means), then the protocols of :data:`_PROTOCOLS` that have runs
    ("hold-out" and "scored on training data" from ``runs``, the others from
    ``protocol_runs``); columns ``what it does``, the figures of :data:`_PROTOCOL_COLUMNS`,
    their ``gap:`` columns and ``data sets``."""
    allruns = pd.concat([runs[runs["part"] == "test"].assign(protocol="hold-out"),
                         runs[runs["part"] == "train"].assign(protocol="scored on training data"),
                         protocol_runs], ignore_index=True)
    allruns = allruns.assign(dataset=allruns["name"].map(dict(zip(design["name"], design["dataset"]))))
    means = allruns.groupby(["protocol", "dataset", "classifier"])[["accuracy", "single_accuracy"]].mean()
    rows = {"slides": {"what it does": "the slides' figures (test part)"}}
    rows.update({p: {"what it does": what} for p, what in _PROTOCOLS.items()
                 if p in means.index.get_level_values(0)})
    n_sets = {}
    for label, (clf, metric, ptab, pcol) in _PROTOCOL_COLUMNS.items():
        p = datasets.published(ptab).set_index("dataset")[pcol]
        for protocol in list(rows)[1:]:
            m = means.loc[protocol]
            if clf not in m.index.get_level_values("classifier"):  # not in this run
                rows[protocol][label] = rows[protocol][f"gap: {label}"] = np.nan
                continue
            m = m.xs(clf, level="classifier")[metric].dropna()
            common = [d for d in m.index if d in p.index and np.isfinite(p[d])]
            rows[protocol][label] = float(m[common].mean()) if common else np.nan
            rows[protocol][f"gap: {label}"] = float((m[common] - p[common]).mean()) if common else np.nan
            n_sets[protocol] = max(n_sets.get(protocol, 0), len(common))
            if protocol == "hold-out":
                rows["slides"][label] = float(p[common].mean()) if common else np.nan
    for protocol in rows:
        rows[protocol]["data sets"] = n_sets.get("hold-out" if protocol == "slides" else protocol, 0)
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "protocol"
    return out[["what it does", *_PROTOCOL_COLUMNS, *(f"gap: {c}" for c in _PROTOCOL_COLUMNS), "data sets"]]


def _protocol_cells(protocols):
    """The protocol table as the book shows it: ``"ours (gap)"`` per figure."""
    def cell(v, g):
        return "\u2013" if not np.isfinite(v) else f"{v:.1f}" + (
            f" ({g:+.1f})".replace("-", "\u2212") if np.isfinite(g) else "")
    out = pd.DataFrame({"what it does": protocols["what it does"]}, index=protocols.index)
    for col, name in {"NB": "NB", "C4.5": "C4.5", "tree, frequency": "tree, freq.",
                      "tree, determinate": "tree, det."}.items():
        out[name] = [cell(v, g) for v, g in zip(protocols[col].astype(float),
                                                protocols[f"gap: {col}"].astype(float))]
    out["data sets"] = protocols["data sets"]
    return out


def _consistent_case_counts(percent, sizes, decimals=1, unclassified=None):
    """Which numbers of test cases (among ``sizes``, increasing) can give a printed percentage.

    ``n`` is consistent with ``percent`` when some ``k`` in 0..n gives
    ``round(100 k / n, decimals) == percent``.  With ``unclassified`` (a printed share of
    instances given several classes), the accuracy is on the determinate instances: some
    ``u`` must give the printed share and some ``k`` in 0..n-u the accuracy on the
    ``n - u`` others.
    """
    half = 0.5 * 10.0 ** -decimals + 1e-9

    def fits(value, n):
        return bool(np.any(np.abs(100.0 * np.arange(n + 1) / n - value) <= half)) if n > 0 else False
    return [n for n in sorted(int(v) for v in sizes)
            if (fits(percent, n) if unclassified is None else
                any(abs(100.0 * u / n - unclassified) <= half and fits(percent, n - u) for u in range(n)))]


def _hepatitis_split(sizes=range(10, 41)):
    """The number of Hepatitis test cases that each of the slides' test figures allows.

    The slides give 59 training and 21 test cases (80 complete rows).  Each test figure
    is a count over the test cases, printed to one decimal: the sizes it allows tell
    which split produced it.  One row per figure: ``figure``, ``published`` (%),
    ``sizes`` (the consistent candidates among ``sizes``, as text), ``21 cases`` and
    ``27 cases`` (bool).
    """
    def val(table, col):
        return float(datasets.published(table).set_index("dataset").loc["Hepatitis", col])
    uc, rows = val("moral_tu2_single", "UC_test"), []
    for label, table, col, u in (
            ("NB, test accuracy", "moral_classic_methods", "NB_test", None),
            ("C4.5, test accuracy", "moral_classic_methods", "C45_test", None),
            ("simple tree, frequency criterion", "moral_global_comparison_frequency", "TU2_test", None),
            ("double tree, frequency criterion", "moral_double_method", "TU2_double_test", None),
            (f"simple tree, determinate instances (UC {uc:g} %)", "moral_tu2_single", "TU2_test", uc)):
        ok = _consistent_case_counts(val(table, col), list(sizes), unclassified=u)
        rows.append({"figure": label, "published": val(table, col), "sizes": ", ".join(map(str, ok)) or "none",
                     "21 cases": 21 in ok, "27 cases": 27 in ok})
    return pd.DataFrame(rows)


# --------------------------------------------------------------- numbers for the text


def numbers(tables):
    """Every number the chapter's text quotes, formatted, by name (dict of str -> str).

    From :func:`tables`: ``n_repeats``; for the NB and C4.5 table (``classic_*``), the
    credal-tree table (``credal_*``) and the frequency-criterion table (``freq_*``): the
    compared cells, those beyond 3 split-to-split SDs and which, the mean gap to the slides
    (points); ``soy_nb``; the mean drop from training to test accuracy, the slides' and ours (``gap_tu2_*``, ``gap_c45_*``, over
    ``gap_n`` data sets); the mean accuracies over the data sets with random splits
    (``freq_mean_*``) and on Monks1 (``monks_*``); the protocols' gaps to the slides
    (``prot_<protocol>_<figure>``); NB's means by discretisation (``nb_<row>_<part>``).
    """
    classic, credal, freq = (tables[k] for k in ("classic_methods", "credal_trees_dominance",
                                                 "frequency_criterion"))
    sc, scr, sf = _summary(classic), _summary(credal), _summary(freq)
    soy = classic[(classic["dataset"] == "Soybean-small") & (classic["column"] == "NB test")]["ours"]
    out = {"n_repeats": str(int(tables["runs"]["repeat"].max()) + 1),
           "classic_cells": str(sc["cells"]), "classic_beyond": str(sc["beyond"]),
           "classic_flagged": sc["flagged"] or "none",
           "classic_gap": f"{sc['mean_difference']:+.1f}",
           "soy_nb": f"{float(soy.mean()):.1f}" if len(soy) else "–",
           "credal_cells": str(scr["cells"]), "credal_beyond": str(scr["beyond"]),
           "credal_flagged": scr["flagged"] or "none"}
    for key, col in (("test", "test accuracy"), ("train", "train accuracy"),
                     ("uc_test", "test UC %"), ("uc_train", "train UC %")):
        out[f"credal_gap_{key}"] = f"{scr[f'mean_difference:simple: {col}']:+.1f}"
    for key, table, tree in (("tu2", credal, "simple: {} accuracy"), ("c45", classic, "C4.5 {}")):
        tr = table[table["column"] == tree.format("train")].set_index("dataset")
        te = table[table["column"] == tree.format("test")].set_index("dataset")
        both = tr.index[np.isfinite(tr["published"]) & np.isfinite(te.loc[tr.index, "published"])]
        for short, which in (("pub", "published"), ("ours", "ours")):
            out[f"gap_{key}_{short}"] = f"{float((tr.loc[both, which] - te.loc[both, which]).mean()):.1f}"
        out.setdefault("gap_n", str(len(both)))
    random_split = freq[freq["dataset"] != "Monks1"]
    mean_acc = random_split.groupby("column", sort=False)["ours"].mean()
    out["freq_mean_n"] = str(random_split["dataset"].nunique())
    monks = freq[freq["dataset"] == "Monks1"].set_index("column")["ours"]
    for key, col in (("simple", "TU2 simple"), ("double", "TU2 double"), ("nb", "NB"), ("c45", "C4.5")):
        out[f"freq_gap_{key}"] = f"{sf[f'mean_difference:{col}']:+.1f}"
        out[f"freq_mean_{key}"] = f"{mean_acc[col]:.1f}"
        if key in ("simple", "double"):
            out[f"monks_{key}"] = f"{monks.get(col, float('nan')):.1f}"
    for key, row in (("holdout", "hold-out"), ("cv", "10-fold CV"), ("mdl", "MDL on all rows"),
                     ("ef", "equal-frequency bins"), ("train", "scored on training data"), ("both", "learned on train+test")):
        for fig, col in (("tree", "tree, frequency"), ("det", "tree, determinate"), ("c45", "C4.5"), ("nb", "NB")):
            out[f"prot_{key}_{fig}"] = f"{tables['protocols'].loc[row, f'gap: {col}']:+.1f}"
    nb = tables["nb_discretisation"]  # nb_<slides|mdl|5|10|20>_<train|test>: NB's means
    out.update({f"nb_{str(i).split()[0].lower()}_{p}": f"{nb.loc[i, f'NB {p}']:.1f}"
                for i in nb.index for p in ("train", "test")})
    return out


def _summary(table, z_flag=3.0):
    """Compared cells (with a published value), those beyond
    ``z_flag`` (``beyond``, and which: ``flagged``), the mean gap to the slides
    (``mean_difference``, points), overall and per column (``mean_difference:<column>``)."""
    t = table[np.isfinite(table["published"])]
    bad = t[np.abs(t["z"].to_numpy(dtype=float)) > z_flag]
    out = {"cells": int(len(t)), "beyond": int(len(bad)),
           "flagged": ", ".join(f"{c}: {d}" for c, d in zip(bad["column"], bad["dataset"])),
           "mean_difference": float(t["difference"].mean()) if len(t) else float("nan")}
    for col in dict.fromkeys(t["column"]):
        out[f"mean_difference:{col}"] = float(t.loc[t["column"] == col, "difference"].mean())
    return out


# --- section: naive Bayes under finer discretisations (issue 24) ---
#: equal-frequency bin counts of the NB discretisation runs (the main run: MDL)
_NB_BINS = (5, 10, 20)


def _nb_bins_runs(items, estimators, *, n_jobs=1, cache_dir=None):
    """NB on the design's items (training and test parts) with numeric features cut into
    :data:`_NB_BINS` equal-frequency bins instead of MDL's cut points (:func:`_tidy` rows with
    a ``bins`` column); None without NB in the line-up."""
    if "NB" not in estimators:
        return None
    return pd.concat([_tidy(cross_validate(
        {"NB": estimators["NB"]}, items, use_predefined_split=True, n_jobs=n_jobs,
        cache_dir=cache_dir, progress=False,
        preprocessing=make_preprocessor(discretize="equal-frequency", n_bins=b))).assign(bins=b)
        for b in _NB_BINS], ignore_index=True)


def _nb_bins_table(runs, bins_runs, design):
    """NB's mean training and test accuracy (%) by discretisation, over the data sets where the
    slides give both, and ours minus the slides' (``gap:`` columns, points).  Index: "slides",
    "MDL (main run)", then "<b> equal-frequency bins" for each run of :func:`_nb_bins_runs`."""
    pub = datasets.published("moral_classic_methods").set_index("dataset")[["NB_train", "NB_test"]].dropna()
    named = {"MDL (main run)": runs}
    if bins_runs is not None:
        named.update({f"{b} equal-frequency bins": bins_runs[bins_runs["bins"] == b] for b in _NB_BINS})
    to_slides = dict(zip(design["name"], design["dataset"]))
    rows = {"slides": {}}
    for label, r in named.items():
        r = r[r["classifier"] == "NB"]
        m = r.assign(dataset=r["name"].map(to_slides)).groupby(["dataset", "part"])["accuracy"].mean().unstack()
        common = [d for d in m.index if d in pub.index]
        rows[label] = {"data sets": len(common)}
        for part in ("train", "test"):
            rows[label][f"NB {part}"] = float(m.loc[common, part].mean())
            rows[label][f"gap: NB {part}"] = float((m.loc[common, part] - pub.loc[common, f"NB_{part}"]).mean())
            if label == "MDL (main run)":
                rows["slides"][f"NB {part}"] = float(pub.loc[common, f"NB_{part}"].mean())
        rows["slides"]["data sets"] = rows["MDL (main run)"]["data sets"]
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "discretisation"
    return out[["NB train", "NB test", "gap: NB train", "gap: NB test", "data sets"]]


_NB_BINS_CAUSE = ("protocol or data: the slides do not say how numeric features were discretised, and "
                  "NB's training accuracy rises with finer bins while its test accuracy hardly moves "
                  "(nb_discretisation: with 10 or 20 equal-frequency bins instead of MDL's cut points "
                  "both of NB's means fall within the tolerances of the slides' training and test means)")
# --- end of section ---


# ---------------------------------------------------------------------- headline rows
#
# Each headline number averages a column of the slides' tables (or the drop from its training
# to its test column) over the slides' data sets with a value (_SlidesMean).  The slides report one split per data set, so a mean of their values varies
# like a mean of single-split results; tolerance: 3 sqrt(sum(sd**2 + se**2) + K 0.1**2 / 12) / K
# over the K data sets (sd: our split-to-split SD of one split's result, se: the SE of our mean,
# 0.1**2 / 12: a printed value's rounding; for a drop, train and test terms added as if
# independent); on a single split (e.g. the smoke profile) the binomial variance of the
# part's accuracy stands in for sd**2 + se**2.  It enters the report's rule as its
# documented extra term (the rule's SE terms would add the rounding in full).


@dataclass(frozen=True)
class _SlidesMean(Published):
    """:class:`Published`, averaged over the slides' data sets that have a value in
    ``column`` (and ``minus``), in the catalogue's order; with ``minus``, the mean of ``column - minus``.  (``Published.where`` cannot name a
    list of rows, nor a difference of two columns.)"""

    minus: str | None = None

    def _rows(self):
        t = datasets.published(self.table).set_index("dataset")[[c for c in (self.column, self.minus) if c]]
        return [d for d in map(_slides_name, datasets.names("moral-trees"))
                if d in t.index and t.loc[d].notna().all()]

    def cells(self) -> pd.Series:
        return published_text(self.table).set_index("dataset").loc[self._rows(), self.column]

    def value(self) -> float:
        t = datasets.published(self.table).set_index("dataset").loc[self._rows()]
        return float((t[self.column] - (t[self.minus] if self.minus else 0.0)).mean())


def _slides_mean(tables, table, column, published, why, minus=None):
    """Ours for a :class:`_SlidesMean` row: the mean of ``column`` (with ``minus``: of
    ``column - minus``) over the same data sets, with the tolerance above (NaN, "not
    comparable", when one of them was not run); ``why`` joins the note when ours differs."""
    t, wanted = tables[table], list(published.cells().index)
    sizes = tables["datasets"].set_index("dataset")
    ours, variances, fallback = [], [], False
    for col in [column, minus] if minus else [column]:
        c = t[t["column"] == col].set_index("dataset")
        if not all(d in c.index and np.isfinite(c.loc[d, "ours"]) for d in wanted):
            return Reading(np.nan, note=f"this run lacks some of the slides' {len(wanted)} data sets")
        c = c.loc[wanted]
        sd, se = c["sd"].to_numpy(dtype=float), c["se"].to_numpy(dtype=float)
        p = c["ours"].to_numpy(dtype=float) / 100.0
        n = sizes.loc[wanted, "n_train" if "train" in col else "n_test"].to_numpy(dtype=float)
        # one split per data set: the binomial variance of the part's accuracy instead
        variances.append(np.where(np.isfinite(sd), sd ** 2 + np.where(np.isfinite(se), se, 0.0) ** 2,
                                  1e4 * p * (1.0 - p) / n))
        ours.append(c["ours"].reset_index(drop=True))
        fallback |= bool((~np.isfinite(sd)).any())
    k = len(wanted)
    value = float((ours[0] - ours[1]).mean() if minus else ours[0].mean())
    tol = 3.0 * float(np.sqrt(sum(np.sum(v) for v in variances) + len(ours) * k * (0.1 ** 2 / 12.0))) / k
    note = (f"mean{' of (train - test)' if minus else ''} over {k} data sets; tolerance: 3 SD of a mean of single-split results "
            "(our split-to-split SD per data set, the SE of our mean and the printed rounding)"
            + (", train and test combined as if independent" if minus else "")
            + ("; single split per data set in this run: binomial SD of the part instead" if fallback else "")
            + (f"; {why}" if abs(value - published.value()) > tol else ""))
    return Reading(value, tolerance=tol, note=note)


_PROTOCOL_WHY = ("the slides' credal trees lose almost nothing from training to test, unlike their "
                 "own C4.5; ours do; of the protocols tried only in-sample scoring reaches their tree "
                 "test figures, and on Hepatitis those figures imply 21 test cases against 27 for NB "
                 "and C4.5 (see the chapter's protocol table)")
_CLASSIC_WHY, _CREDAL_WHY = "see the chapter's table of NB and C4.5", "see the chapter's credal-tree table"
_PROTOCOL_CAUSE = ("protocol or data: the slides' tree test figures behave like in-sample scores "
                   "(protocols table: only protocols scoring cases seen in learning reach them; "
                   "hepatitis_split: 21 test cases for the trees, 27 for NB and C4.5)")


def _headline(quantity, table, column, why, minus=None):
    """The headline row of ``column`` of one of the slides' tables (``minus``: the drop)."""
    pub = {c[0]: (c[4], c[5]) for c in _SLIDES_TABLES[table]}
    published = _SlidesMean(pub[column][0], column=pub[column][1], reduce="mean",
                            minus=pub[minus][1] if minus else None)
    return Headline(quantity, published, partial(_slides_mean, table=table, column=column,
                                                 published=published, why=why, minus=minus),
                    unit="points" if minus else "%", bounds=(-100, 100) if minus else (0, 100),
                    cause=_PROTOCOL_CAUSE if why is _PROTOCOL_WHY else _NB_BINS_CAUSE if column == "NB train" else "")


HEADLINE = Headlines(paper="Moral (slides)", chapter="credal-trees", rows=tuple(_headline(*r) for r in (
    ("NB: mean test accuracy", "classic_methods", "NB test", _CLASSIC_WHY),
    ("C4.5: mean test accuracy", "classic_methods", "C4.5 test", _CLASSIC_WHY),
    *((f"{tree} credal tree (frequency criterion): mean test accuracy", "frequency_criterion",
       f"TU2 {tree}", _PROTOCOL_WHY) for tree in ("simple", "double")),
    ("simple credal tree (dominance): mean test accuracy on determinate instances",
     "credal_trees_dominance", "simple: test accuracy", _PROTOCOL_WHY),
    ("simple credal tree (dominance): mean % unclassified, test", "credal_trees_dominance",
     "simple: test UC %", _CREDAL_WHY),
    ("simple credal tree (dominance): mean training accuracy on determinate instances",
     "credal_trees_dominance", "simple: train accuracy", _CREDAL_WHY),
    ("simple credal tree (dominance): mean % unclassified, training", "credal_trees_dominance",
     "simple: train UC %", _CREDAL_WHY),
    ("NB: mean training accuracy", "classic_methods", "NB train", _CLASSIC_WHY + " and of NB by discretisation"),
    ("C4.5: mean training accuracy", "classic_methods", "C4.5 train", _CLASSIC_WHY),
    ("simple credal tree: mean drop from training to test accuracy (determinate instances)",
     "credal_trees_dominance", "simple: train accuracy", _PROTOCOL_WHY, "simple: test accuracy"),
    ("C4.5: mean drop from training to test accuracy", "classic_methods", "C4.5 train",
     _CLASSIC_WHY, "C4.5 test"))))


# ---------------------------------------------------------------------------- figures

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
            "tab:pink", "tab:gray"]


def ours_vs_published_figure(tables, titles=None, unit="%"):
    """Our results (mean over splits, ± 2 SE) against the slides', one panel per table.

    Parameters
    ----------
    tables : sequence of DataFrame
        Long tables of :func:`tables` (``classic_methods``, ``credal_trees_dominance``,
        ``frequency_criterion``; columns ``column``, ``ours``, ``se``, ``published``);
        cells without a published value are skipped.  One marker per ``column``.
    titles : sequence of str, optional
    unit : str
        Unit of the values, for the axis labels.

    Returns
    -------
    matplotlib.figure.Figure
        The diagonal marks agreement.
    """
    import matplotlib.pyplot as plt

    tables = list(tables)
    if not tables:
        raise ValueError("need at least one table")
    titles = list(titles) if titles is not None else [""] * len(tables)
    fig, axes = plt.subplots(1, len(tables), figsize=(4.6 * len(tables), 4.4),
                             constrained_layout=True, squeeze=False)
    for ax, tab, title in zip(axes[0], tables, titles):
        tab = tab[np.isfinite(tab["published"])]
        for k, col in enumerate(dict.fromkeys(tab["column"])):
            t = tab[tab["column"] == col]
            ax.errorbar(t["published"], t["ours"], yerr=2 * t["se"].fillna(0.0), ls="none",
                        marker=_MARKERS[k % len(_MARKERS)], color=_COLOURS[k % len(_COLOURS)],
                        mfc="none", ms=6, capsize=2, label=col)
        if len(tab):
            se = tab["se"].fillna(0.0)
            lo = float(np.nanmin([tab["published"].min(), (tab["ours"] - 2 * se).min()]))
            hi = float(np.nanmax([tab["published"].max(), (tab["ours"] + 2 * se).max()]))
            lim = (lo - 0.05 * (hi - lo + 1), hi + 0.05 * (hi - lo + 1))
            ax.plot(lim, lim, color="k", lw=0.8, ls="--", label="ours = slides")
            ax.set(xlim=lim, ylim=lim)
        ax.set_aspect("equal")
        ax.set(xlabel=f"slides ({unit})", ylabel=f"ours, mean over splits ± 2 SE ({unit})", title=title)
        ax.grid(alpha=0.3)
        ax.legend(frameon=False, fontsize="small", loc="upper left")
    return fig
