"""Chapter "Credal decision trees" (notebook ``credal-trees``).

Serafín Moral's slides on credal decision trees (Abellán & Moral): the simple and
double credal trees of :class:`credal.CredalDecisionTree` against naive Bayes and C4.5
(:class:`credal.C45Tree`) on the slides' eleven UCI data sets.  Here: the line-up
(:func:`moral_tree_estimators`); the run (:func:`moral_tree_design`, train/test splits of
the slides' sizes for :func:`credal.experiments.cross_validate`, and
:func:`moral_tree_runs`); the slides' tables with ours beside them
(:func:`moral_tree_table`); the numbers for the text; the headline rows for the
reproduction report; and the figure of ours against the published values.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from credal import datasets
from credal.chapters._display import book_style, glance, save_table, show_table
from credal.chapters._verdicts import headline_table
from credal.experiments import cross_validate, holdout_item
from credal.preprocessing import make_preprocessor
from credal.robust import NaiveBayesMissing
from credal.trees import C45Tree, CredalDecisionTree

__all__ = [
    # the classifiers it compares
    "moral_tree_estimators",
    # run
    "moral_tree_design", "moral_tree_runs",
    # tables
    "moral_tree_table", "display_tree_table", "display_tree_design", "save_table",
    # numbers for the text
    "tree_table_summary", "train_test_gap",
    # the box at the top of the chapter
    "CITATION", "PAPER_MAP", "glance_box", "book_style", "show_table", "display_protocols",
    # other protocols, and the hepatitis split
    "PROTOCOLS", "moral_protocol_runs", "moral_protocol_table", "consistent_case_counts",
    "hepatitis_split_arithmetic",
    # headline rows
    "headline",
    # figures
    "ours_vs_published_figure",
]


# -------------------------------------------------------- the classifiers it compares

#: Names of the classifiers compared in the credal-trees chapter (slides' labels).
MORAL_CLASSIFIERS = ("NB", "C4.5", "TU2 simple", "TU2 double")


def moral_tree_estimators(s=1.0):
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
    return {
        "NB": NaiveBayesMissing(strategy="ignore", prior="laplace"),
        "C4.5": C45Tree(),
        "TU2 simple": CredalDecisionTree(s=s, branching="simple"),
        "TU2 double": CredalDecisionTree(s=s, branching="double"),
    }


# -------------------------------------------------------------------------------- run


def moral_tree_design(names=None, *, n_repeats=10, random_state=0):
    """Train/test splits with the slides' sizes, as items for the evaluation engine.

    For each data set of ``credal.datasets.names("moral-trees")``:

    * rows: if the slides' ``n_train + n_test`` is smaller than the number of rows
      of our file, only the rows without missing values are kept (the slides'
      sizes match the complete rows of these sets); otherwise every row;
    * classes never observed in the kept rows are dropped from the class variable
      (our Cleveland copies have 2 of 5 declared classes);
    * split: the data set's own fixed split when it ships one (Monks1); otherwise a
      stratified random split with exactly the slides' training size and the other
      rows as test set, drawn ``n_repeats`` times with seeds ``random_state + r``.

    Each split gives two engine items: ``"<name>|<r>|test"`` (train on the training
    part, evaluate on the test part) and ``"<name>|<r>|train"`` (evaluate on the
    training part itself, the slides' training accuracy).

    Parameters
    ----------
    names : sequence of str, optional
        Data sets (default: the slides' eleven).
    n_repeats : int
        Random splits per data set (a fixed split is used once).
    random_state : int

    Returns
    -------
    items : list of tuple
        ``(name, X, y, split)`` items for :func:`credal.experiments.cross_validate`
        with ``use_predefined_split=True``.
    design : DataFrame
        One row per data set: the slides' name and sizes beside ours, the row and
        split policies.
    """
    if not isinstance(n_repeats, numbers.Integral) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an integer >= 1; got {n_repeats!r}")
    if not isinstance(random_state, numbers.Integral):
        raise ValueError(f"random_state must be an integer; got {random_state!r}")
    names = list(datasets.names("moral-trees")) if names is None else list(names)
    pub = datasets.published("moral_uci_datasets").set_index("dataset")
    items, rows = [], []
    for name in names:
        # The slides' name of the data set, from its catalogue entry.
        paper = datasets.spec(name).get("papers", {}).get("moral-trees", {}).get("name")
        if paper is None or paper not in pub.index:
            raise ValueError(f"{name!r} is not in the slides' data-set list")
        d = datasets.load(name)
        p = pub.loc[paper]
        X, y = d.X, d.y
        complete = ~X.isna().any(axis=1).to_numpy()
        paper_n = int(p["n_train"] + p["n_test"])
        drop_incomplete = paper_n < len(X) and d.split is None
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
                                       random_state=int(random_state) + r) for r in range(n_repeats)]
            how = f"stratified random split, {n_repeats} repetitions"
        for r, (tr, te) in enumerate(splits):
            tr, te = np.sort(tr), np.sort(te)
            train = (X.iloc[tr].reset_index(drop=True), y.iloc[tr].reset_index(drop=True))
            test = (X.iloc[te].reset_index(drop=True), y.iloc[te].reset_index(drop=True))
            items.append(holdout_item(f"{name}|{r}|test", train, test))
            items.append(holdout_item(f"{name}|{r}|train", train, train))
        rows.append({
            "dataset": paper, "name": name,
            "paper_n_train": int(p["n_train"]), "paper_n_test": int(p["n_test"]),
            "n_rows_file": d.n_rows, "n_complete_rows": int(complete.sum()),
            "rows_used": "complete rows" if drop_incomplete else "all rows",
            "n_train": len(splits[0][0]), "n_test": len(splits[0][1]),
            "paper_n_variables": int(p["n_variables"]), "n_variables": d.n_features,
            "n_variables_varying": int(sum(X[c].nunique(dropna=True) > 1 for c in X.columns)),
            "paper_n_classes": int(p["n_classes"]), "n_classes": int(len(y.cat.categories)),
            "split": how,
        })
    return items, pd.DataFrame(rows)


def moral_tree_runs(result):
    """Tidy per-split metrics from the engine's result on :func:`moral_tree_design` items.

    Parameters
    ----------
    result : credal.experiments.CVResult

    Returns
    -------
    DataFrame
        One row per (data set, repeat, part, classifier): ``accuracy`` (precise),
        ``single_accuracy`` (determinate instances), ``unclassified`` (share of
        indeterminate instances), all in percent, plus ``n_test``.
    """
    f = result.folds
    parts = f["dataset"].str.split("|", expand=True)
    out = pd.DataFrame({
        "name": parts[0], "repeat": parts[1].astype(int), "part": parts[2],
        "classifier": f["classifier"], "n_eval": f["n_test"],
        "accuracy": 100 * f["precise_accuracy"],
        "single_accuracy": 100 * f["single_accuracy"],
        "unclassified": 100 * (1 - f["determinacy"]),
    })
    return out.sort_values(["name", "classifier", "part", "repeat"], kind="stable").reset_index(drop=True)


# ----------------------------------------------------------------------------- tables

# The slides' tables: output column -> (classifier, part, metric, published table,
# published column).  Metrics are percentages; "accuracy" is the precise accuracy (for
# the credal trees: the frequency criterion, the most frequent class at the leaf),
# "single_accuracy" the accuracy on determinate instances, "unclassified" the share
# of instances given more than one class.
_MORAL_TABLES = {
    "classic": [
        ("NB train", "NB", "train", "accuracy", "moral_classic_methods", "NB_train"),
        ("NB test", "NB", "test", "accuracy", "moral_classic_methods", "NB_test"),
        ("C4.5 train", "C4.5", "train", "accuracy", "moral_classic_methods", "C45_train"),
        ("C4.5 test", "C4.5", "test", "accuracy", "moral_classic_methods", "C45_test"),
    ],
    "credal": [
        ("simple: train accuracy", "TU2 simple", "train", "single_accuracy", "moral_tu2_single", "TU2_train"),
        ("simple: train UC %", "TU2 simple", "train", "unclassified", "moral_tu2_single", "UC_train"),
        ("simple: test accuracy", "TU2 simple", "test", "single_accuracy", "moral_tu2_single", "TU2_test"),
        ("simple: test UC %", "TU2 simple", "test", "unclassified", "moral_tu2_single", "UC_test"),
        ("double: train accuracy", "TU2 double", "train", "single_accuracy", None, None),
        ("double: train UC %", "TU2 double", "train", "unclassified", None, None),
        ("double: test accuracy", "TU2 double", "test", "single_accuracy", None, None),
        ("double: test UC %", "TU2 double", "test", "unclassified", None, None),
    ],
    "frequency": [
        ("TU2 simple", "TU2 simple", "test", "accuracy", "moral_global_comparison_frequency", "TU2_test"),
        ("TU2 double", "TU2 double", "test", "accuracy", "moral_double_method", "TU2_double_test"),
        ("NB", "NB", "test", "accuracy", "moral_global_comparison_frequency", "NB_test"),
        ("C4.5", "C4.5", "test", "accuracy", "moral_global_comparison_frequency", "C45_test"),
    ],
}


def moral_tree_table(runs, design, which):
    """One of the slides' tables, ours (mean over splits) beside the published values.

    Parameters
    ----------
    runs : DataFrame
        Output of :func:`moral_tree_runs`.
    design : DataFrame
        Output of :func:`moral_tree_design`.
    which : {"classic", "credal", "frequency"}
        NB and C4.5 train/test accuracy; the credal trees' accuracy on determinate
        instances and % unclassified (UC) on train and test; the frequency-criterion
        comparison of test accuracies.

    Returns
    -------
    DataFrame
        Long form, one row per (data set, column): ``dataset`` (slides' name),
        ``name``, ``column``, ``ours`` (mean over the splits, percent), ``se`` (its
        standard error), ``sd`` (split-to-split standard deviation), ``n_splits``,
        ``published``, ``difference`` and ``z`` = difference / (sd sqrt(1 + 1/n_splits)),
        the difference in units of the spread of one split's result (the slides
        report a single split).  ``published`` is NaN where the slides give nothing
        (the double tree's dominance results, Monks1); ``sd``, ``se`` and ``z`` are
        NaN for a data set evaluated on a single split.
    """
    if which not in _MORAL_TABLES:
        raise ValueError(f"which must be one of {sorted(_MORAL_TABLES)}; got {which!r}")
    pubs = {}
    rows = []
    for _, d in design.iterrows():
        for col, clf, part, metric, ptab, pcol in _MORAL_TABLES[which]:
            sub = runs[(runs["name"] == d["name"]) & (runs["classifier"] == clf) & (runs["part"] == part)]
            v = sub[metric].to_numpy(dtype=float)
            v = v[~np.isnan(v)]
            k = len(v)
            mean = float(v.mean()) if k else np.nan
            # One split (a fixed split, or n_repeats = 1) gives no estimate of the spread.
            sd = float(v.std(ddof=1)) if k > 1 else np.nan
            p = np.nan
            if ptab is not None:
                if ptab not in pubs:
                    pubs[ptab] = datasets.published(ptab).set_index("dataset")
                if d["dataset"] in pubs[ptab].index:
                    p = float(pubs[ptab].loc[d["dataset"], pcol])
            diff = mean - p
            scale = sd * np.sqrt(1 + 1 / k) if k else np.nan
            if np.isnan(diff) or np.isnan(scale):
                z = np.nan
            elif scale > 1e-9:
                z = diff / scale
            else:
                z = 0.0 if abs(diff) < 0.05 else float(np.sign(diff) * np.inf)
            rows.append({"dataset": d["dataset"], "name": d["name"], "column": col,
                         "ours": mean, "se": sd / np.sqrt(k) if k else np.nan, "sd": sd,
                         "n_splits": k, "published": p, "difference": diff, "z": z})
    return pd.DataFrame(rows)


def display_tree_table(table, decimals=1, z_flag=3.0, prefix=None):
    """Readable wide copy of :func:`moral_tree_table`: "ours ± SE (published)" cells.

    A star marks a difference larger than ``z_flag`` split-to-split standard
    deviations; "–" stands for a value the slides do not give; a data set evaluated
    on a single split has no standard error (and no star).

    Parameters
    ----------
    table : DataFrame
    decimals : int
    z_flag : float
    prefix : str, optional
        Keep only the columns named ``"<prefix>: ..."`` and drop the prefix from their
        names (e.g. ``"simple"`` for the simple tree's half of the dominance table).

    Returns
    -------
    DataFrame of str, index = the slides' data-set names.
    """
    if prefix is not None:
        table = table[table["column"].str.startswith(f"{prefix}: ")]
        table = table.assign(column=table["column"].str[len(prefix) + 2:])
    def cell(o, s, p, z):
        txt = f"{o:.{decimals}f}" if np.isfinite(o) else "–"
        if np.isfinite(o) and np.isfinite(s):
            txt += f" ± {s:.{decimals}f}"
        txt += f" ({p:.{decimals}f})" if np.isfinite(p) else " (–)"
        return txt + (" *" if np.isfinite(z) and abs(z) > z_flag or np.isinf(z) else "")

    t = table.assign(cell=[cell(o, s, p, z) for o, s, p, z in
                           zip(table["ours"], table["se"], table["published"], table["z"])])
    order = list(dict.fromkeys(t["column"]))
    rows = list(dict.fromkeys(t["dataset"]))
    out = t.pivot(index="dataset", columns="column", values="cell").loc[rows, order]
    out.index.name = "data set"
    out.columns.name = None
    return out


def display_tree_design(design):
    """Readable copy of the ``design`` table of :func:`moral_tree_design`.

    Parameters
    ----------
    design : DataFrame

    Returns
    -------
    DataFrame indexed by the slides' data-set names.
    """
    def pair(a, b):
        return f"{a} / {b}"
    out = pd.DataFrame({
        "our data set": design["name"].to_numpy(),
        "train / test (slides)": [pair(a, b) for a, b in zip(design["paper_n_train"],
                                                             design["paper_n_test"])],
        "train / test (ours)": [pair(a, b) for a, b in zip(design["n_train"], design["n_test"])],
        "rows used": [f"{u} ({c} of {n} complete)" for u, c, n in
                      zip(design["rows_used"], design["n_complete_rows"], design["n_rows_file"])],
        "variables (slides / ours)": [f"{a} / {b}" + (f" ({v} not constant)" if v != b else "")
                                      for a, b, v in zip(design["paper_n_variables"], design["n_variables"],
                                                         design["n_variables_varying"])],
        "classes (slides / ours)": [f"{a} / {b}" for a, b in
                                    zip(design["paper_n_classes"], design["n_classes"])],
    }, index=pd.Index(design["dataset"].to_numpy(), name="data set"))
    return out


def display_protocols(protocols):
    """Compact view of :func:`moral_protocol_table`: ``"ours (gap)"`` per figure.

    Parameters
    ----------
    protocols : DataFrame

    Returns
    -------
    DataFrame of str (the CSV keeps every column).
    """
    def cell(v, g):
        if not np.isfinite(v):
            return "\u2013"
        txt = f"{v:.1f}"
        return txt + (f" ({g:+.1f})".replace("-", "\u2212") if np.isfinite(g) else "")
    short = {"NB": "NB", "C4.5": "C4.5", "tree, frequency": "tree, freq.",
             "tree, determinate": "tree, det."}
    out = pd.DataFrame({"what it does": protocols["what it does"]}, index=protocols.index)
    for col, name in short.items():
        out[name] = [cell(v, g) for v, g in zip(protocols[col].astype(float),
                                                protocols[f"gap: {col}"].astype(float))]
    out["data sets"] = protocols["data sets"]
    return out


# --------------------------------------------------------------- numbers for the text


def tree_table_summary(table, z_flag=3.0, exclude=()):
    """Numbers for the chapter text: compared cells, cells beyond ``z_flag``, mean gap.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`moral_tree_table`.
    z_flag : float
    exclude : sequence of str
        Slides' data-set names left out (e.g. those whose class variable differs).

    Returns
    -------
    dict
        ``cells`` (cells with a published value), ``beyond`` (``|z|`` > z_flag),
        ``flagged`` (``"column: data set"`` list), ``mean_difference`` (ours minus
        published, percentage points) and, per column, ``mean_difference:<column>``.
    """
    t = table[np.isfinite(table["published"]) & ~table["dataset"].isin(list(exclude))]
    z = np.abs(t["z"].to_numpy(dtype=float))
    bad = t[z > z_flag]
    out = {"cells": int(len(t)), "beyond": int(len(bad)),
           "flagged": ", ".join(f"{c}: {d}" for c, d in zip(bad["column"], bad["dataset"])),
           "mean_difference": float(t["difference"].mean()) if len(t) else float("nan")}
    for col in dict.fromkeys(t["column"]):
        out[f"mean_difference:{col}"] = float(t.loc[t["column"] == col, "difference"].mean())
    return out


def train_test_gap(table, train_column, test_column, exclude=()):
    """Mean drop from training to test accuracy, ours and the slides', over data sets.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`moral_tree_table`.
    train_column, test_column : str
        Column labels of the training and the test value (e.g. ``"C4.5 train"``).
    exclude : sequence of str
        Slides' data-set names left out.

    Returns
    -------
    dict
        ``ours`` and ``published``: mean of (train - test) in percentage points over
        the data sets where the slides give both values; ``n``: their number.
    """
    t = table[~table["dataset"].isin(list(exclude))]
    tr = t[t["column"] == train_column].set_index("dataset")
    te = t[t["column"] == test_column].set_index("dataset")
    both = tr.index[np.isfinite(tr["published"]) & np.isfinite(te.loc[tr.index, "published"])]
    return {"ours": float((tr.loc[both, "ours"] - te.loc[both, "ours"]).mean()),
            "published": float((tr.loc[both, "published"] - te.loc[both, "published"]).mean()),
            "n": int(len(both))}


# ------------------------------------------------- other protocols, hepatitis split

#: The protocols of the chapter's protocol table: name -> what it does.
PROTOCOLS = {
    "hold-out": "learn on a training part of the slides' size, score on the other rows "
                "(MDL fitted on the training part): the chapter's main run",
    "10-fold CV": "10-fold stratified cross-validation on the same rows",
    "MDL on all rows": "hold-out, with the MDL cut points fitted on all rows (test rows included)",
    "equal-frequency bins": "hold-out, with 5 equal-frequency bins instead of MDL",
    "scored on training data": "learn on the training part and score on that same part",
    "learned on train+test": "learn on all rows (test part included), score on the test part",
}

# Columns of the protocol table: label -> (classifier, metric, published table, column).
_PROTOCOL_COLUMNS = {
    "NB": ("NB", "accuracy", "moral_classic_methods", "NB_test"),
    "C4.5": ("C4.5", "accuracy", "moral_classic_methods", "C45_test"),
    "tree, frequency": ("TU2 simple", "accuracy", "moral_global_comparison_frequency", "TU2_test"),
    "tree, determinate": ("TU2 simple", "single_accuracy", "moral_tu2_single", "TU2_test"),
}


def moral_protocol_runs(items, estimators, *, n_jobs=1, cache_dir=None, random_state=0):
    """The slides' comparison under the protocols that need runs of their own.

    From the hold-out items of :func:`moral_tree_design` (those named
    ``"<name>|<r>|test"``): 10-fold CV on the same rows (first split's rows, one
    repetition); hold-out with MDL fitted on all rows; hold-out with 5
    equal-frequency bins; and learning on all rows, scoring on the test part.  (The
    hold-out and the training-part scores are in the main run.)

    Parameters
    ----------
    items : list
        Items of :func:`moral_tree_design`.
    estimators : dict
        Usually a subset of :func:`moral_tree_estimators`.
    n_jobs, cache_dir : passed to :func:`credal.experiments.cross_validate`.
    random_state : int
        Seed of the 10-fold CV.

    Returns
    -------
    DataFrame
        :func:`moral_tree_runs` rows with a ``protocol`` column.
    """
    hold = [it for it in items if it[0].endswith("|test")]
    if not hold:
        raise ValueError("no hold-out items: pass the items of moral_tree_design")
    kw = dict(n_jobs=n_jobs, cache_dir=cache_dir, progress=False)
    mdl_all, both = [], []
    for name, X, y, split in hold:
        Xd = make_preprocessor(drop_single=False).fit(X, y).transform(X)
        mdl_all.append((name, Xd, y, split))
        test = split == "test"
        both.append(holdout_item(name, (X, y), (X[test].reset_index(drop=True), y[test].reset_index(drop=True))))
    first = {}
    for name, X, y, _ in hold:  # one set of rows per data set for the CV
        first.setdefault(name.split("|")[0], (f"{name.split('|')[0]}|0|test", X, y))
    runs = {
        "10-fold CV": cross_validate(estimators, list(first.values()), n_splits=10, n_repeats=1,
                                     random_state=random_state, **kw),
        "MDL on all rows": cross_validate(estimators, mdl_all, use_predefined_split=True,
                                          preprocessing=make_preprocessor(discretize=None), **kw),
        "equal-frequency bins": cross_validate(estimators, hold, use_predefined_split=True,
                                               preprocessing=make_preprocessor(discretize="equal-frequency"), **kw),
        "learned on train+test": cross_validate(estimators, both, use_predefined_split=True, **kw),
    }
    return pd.concat([moral_tree_runs(r).assign(protocol=p) for p, r in runs.items()], ignore_index=True)


def moral_protocol_table(runs, protocol_runs, exclude=("Cleveland", "Cleveland nominal"), design=None):
    """One row per protocol: what it does and what it gives against the slides' figures.

    Each cell is our mean over the data sets where the slides give a test figure
    (``exclude`` left out), with, in the ``gap:`` columns, ours minus the slides'
    mean over the same data sets.  A data set's value is first averaged over its
    splits or folds.  The first row holds the slides' own means.

    Parameters
    ----------
    runs : DataFrame
        :func:`moral_tree_runs` of the main run (gives "hold-out" and "scored on
        training data").
    protocol_runs : DataFrame
        :func:`moral_protocol_runs` output.
    exclude : sequence of str
        Slides' data-set names left out.
    design : DataFrame, optional
        :func:`moral_tree_design` output, to name the data sets as the slides do
        (default: the catalogue's entries).

    Returns
    -------
    DataFrame
        Index: "slides" then the protocols of :data:`PROTOCOLS` that have runs;
        columns ``what it does``, the four figures of ``_PROTOCOL_COLUMNS`` and their
        ``gap:`` columns (percentage points), and ``data sets``.
    """
    parts = [runs[runs["part"] == "test"].assign(protocol="hold-out"),
             runs[runs["part"] == "train"].assign(protocol="scored on training data"),
             protocol_runs]
    allruns = pd.concat(parts, ignore_index=True)
    if design is not None:
        paper = dict(zip(design["name"], design["dataset"]))
    else:
        paper = {n: datasets.spec(n).get("papers", {}).get("moral-trees", {}).get("name")
                 for n in allruns["name"].unique()}
    allruns = allruns.assign(dataset=allruns["name"].map(paper))
    allruns = allruns[~allruns["dataset"].isin(list(exclude))]
    means = allruns.groupby(["protocol", "dataset", "classifier"])[["accuracy", "single_accuracy"]].mean()
    pub = {}
    rows = {"slides": {"what it does": "the slides' figures (test part)"}}
    for protocol, what in PROTOCOLS.items():
        if protocol in means.index.get_level_values(0):
            rows[protocol] = {"what it does": what}
    n_sets = {}
    for label, (clf, metric, ptab, pcol) in _PROTOCOL_COLUMNS.items():
        if ptab not in pub:
            pub[ptab] = datasets.published(ptab).set_index("dataset")
        p = pub[ptab][pcol]
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
    for protocol in list(rows)[1:]:
        rows[protocol]["data sets"] = n_sets.get(protocol, 0)
    rows["slides"]["data sets"] = n_sets.get("hold-out", 0)
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "protocol"
    cols = ["what it does"] + list(_PROTOCOL_COLUMNS) + [f"gap: {c}" for c in _PROTOCOL_COLUMNS] + ["data sets"]
    return out[cols]


def consistent_case_counts(percent, sizes, decimals=1, unclassified=None):
    """Which numbers of test cases can give a printed percentage.

    ``n`` is consistent with ``percent`` when some ``k`` in 0..n gives
    ``round(100 k / n, decimals) == percent``.  With ``unclassified`` (a printed
    share of instances given several classes), the accuracy is on the determinate
    instances: some ``u`` must give the printed share and some ``k`` in 0..n-u the
    accuracy on the ``n - u`` others.

    Parameters
    ----------
    percent : float
    sizes : iterable of int
        Candidate numbers of cases.
    decimals : int
        Decimals printed.
    unclassified : float, optional

    Returns
    -------
    list of int
        The consistent sizes, increasing.
    """
    half = 0.5 * 10.0 ** -decimals + 1e-9

    def fits(value, n):
        k = np.arange(n + 1)
        return bool(np.any(np.abs(100.0 * k / n - value) <= half)) if n > 0 else False

    out = []
    for n in sorted(int(v) for v in sizes):
        if unclassified is None:
            ok = fits(percent, n)
        else:
            ok = any(abs(100.0 * u / n - unclassified) <= half and fits(percent, n - u) for u in range(n))
        if ok:
            out.append(n)
    return out


def hepatitis_split_arithmetic(sizes=range(10, 41)):
    """The number of Hepatitis test cases that each of the slides' test figures allows.

    The slides give 59 training and 21 test cases (80 complete rows).  Each test
    figure is a count over the test cases, printed to one decimal: the sizes it
    allows tell which split produced it.

    Parameters
    ----------
    sizes : iterable of int
        Candidate numbers of test cases.

    Returns
    -------
    DataFrame
        One row per figure: ``figure``, ``published`` (%), ``sizes`` (the consistent
        candidates, as text), ``21 cases`` and ``27 cases`` (bool).
    """
    sizes = list(sizes)

    def val(table, col):
        return float(datasets.published(table).set_index("dataset").loc["Hepatitis", col])

    uc = val("moral_tu2_single", "UC_test")
    figures = [
        ("NB, test accuracy", val("moral_classic_methods", "NB_test"), None),
        ("C4.5, test accuracy", val("moral_classic_methods", "C45_test"), None),
        ("simple tree, frequency criterion", val("moral_global_comparison_frequency", "TU2_test"), None),
        ("double tree, frequency criterion", val("moral_double_method", "TU2_double_test"), None),
        (f"simple tree, determinate instances (UC {uc:g} %)", val("moral_tu2_single", "TU2_test"), uc),
    ]
    rows = []
    for label, value, u in figures:
        ok = consistent_case_counts(value, sizes, unclassified=u)
        rows.append({"figure": label, "published": value, "sizes": ", ".join(map(str, ok)) or "none",
                     "21 cases": 21 in ok, "27 cases": 27 in ok})
    return pd.DataFrame(rows)


# ------------------------------------------ headline rows for the reproduction report


def _headline_part(column):
    return "train" if "train" in column else "test"


def _headline_spread(table, design):
    """Variance of one split's result per row of a :func:`moral_tree_table` table.

    The split-to-split variance ``sd**2`` plus our mean's ``se**2``; where a data set
    was evaluated on a single split (no ``sd``), the binomial variance of a
    proportion on the part's cases (``design``'s ``n_train`` / ``n_test``; for the
    accuracy on determinate instances, the share of them in the same row's "UC %"
    column) stands in for both.  Returns (variances, whether the fallback was used).
    """
    sd = table["sd"].to_numpy(dtype=float)
    se = table["se"].to_numpy(dtype=float)
    var = sd ** 2 + np.where(np.isfinite(se), se, 0.0) ** 2
    missing = ~np.isfinite(sd)
    if missing.any() and design is not None:
        sizes = design.set_index("dataset")
        for i in np.flatnonzero(missing):
            r = table.iloc[i]
            if r["dataset"] not in sizes.index:
                continue
            n = float(sizes.loc[r["dataset"], f"n_{_headline_part(r['column'])}"])
            col = str(r["column"])
            if col.endswith("accuracy") and ":" in col:
                uc = table[(table["dataset"] == r["dataset"])
                           & (table["column"] == col.replace("accuracy", "UC %"))]["ours"]
                if len(uc) and np.isfinite(uc.iloc[0]):
                    n *= 1.0 - float(uc.iloc[0]) / 100.0
            p = float(r["ours"]) / 100.0
            if n >= 1 and np.isfinite(p):
                var[i] = 1e4 * p * (1.0 - p) / n
    return var, bool(missing.any())


def headline(classic, credal, frequency, design=None, *, exclude=("Cleveland", "Cleveland nominal")):
    """The slides' headline numbers beside ours, for the reproduction report.

    Each row averages one column of the slides' tables over the data sets where the
    slides give a value and we have one (``exclude`` left out): test accuracy of NB,
    C4.5 and the simple and double credal trees with the frequency criterion; the
    simple credal tree's accuracy on determinate instances and its share of
    unclassified instances (UC), on the training and on the test part; NB's and
    C4.5's training accuracy; and the mean drop from training to test accuracy of
    the simple credal tree (determinate instances) and of C4.5.

    Tolerance: the slides report one split per data set, so a mean of their values
    varies like a mean of single-split results: three times
    ``sqrt(sum(sd**2 + se**2) + K * 0.1**2 / 12) / K`` over the ``K`` data sets,
    with ``sd`` our split-to-split standard deviation of one split's result,
    ``se`` the standard error of our mean and ``0.1**2 / 12`` the rounding of a
    printed value (for a drop, the train and test terms are added, as if
    independent).  Where a data set was evaluated on a single split (e.g. the smoke
    profile) the binomial variance of the part's accuracy stands in for ``sd``
    (``design`` needed; the note says so).

    Parameters
    ----------
    classic, credal, frequency : DataFrame
        :func:`moral_tree_table` output for ``"classic"``, ``"credal"`` and
        ``"frequency"``.
    design : DataFrame, optional
        :func:`moral_tree_design` output (sizes of the parts, for the single-split
        fallback).
    exclude : sequence of str
        Slides' data-set names left out (default: the two Cleveland sets, whose
        class variable differs from the slides').

    Returns
    -------
    DataFrame
        :func:`credal.chapters._verdicts.headline_table` layout, one row per headline number.
    """
    exclude = list(exclude)
    rounding = 0.1 ** 2 / 12.0
    left_out = f" ({', '.join(exclude)} left out: different class variable)" if exclude else ""
    tol_txt = ("tolerance: 3 SD of a mean of single-split results (our split-to-split SD per data set, "
               "the SE of our mean and the printed rounding)")
    fallback_txt = "; single split per data set in this run: binomial SD of the part instead"
    protocol = ("the slides' credal trees lose almost nothing from training to test, unlike their own "
                "C4.5; ours do; of the protocols tried only in-sample scoring reaches their tree test "
                "figures, and on Hepatitis those figures imply 21 test cases against 27 for NB and C4.5 "
                "(see the chapter's protocol table)")

    def comparable(table, column):
        t = table[(table["column"] == column) & ~table["dataset"].isin(exclude)]
        ok = np.isfinite(t["published"].to_numpy(dtype=float)) & np.isfinite(t["ours"].to_numpy(dtype=float))
        t = t[ok]
        var, fb = _headline_spread(t, design)
        return t.set_index("dataset"), pd.Series(var, index=t["dataset"].to_numpy()), fb

    rows = []

    def spread_note(tol, fallback):
        if not np.isfinite(tol):
            return "; single split per data set and no design: no spread, tolerance unknown"
        return fallback_txt if fallback else ""

    def add(quantity, published, ours, tol, unit, note, why):
        if np.isfinite(published) and np.isfinite(ours) and np.isfinite(tol) and abs(ours - published) > tol:
            note += "; " + why
        rows.append({"quantity": quantity, "published": published, "ours": ours, "tolerance": tol,
                     "unit": unit, "note": note})

    def mean_row(table, column, quantity, why):
        t, var, fb = comparable(table, column)
        k = len(t)
        if k == 0:
            add(quantity, np.nan, np.nan, np.nan, "%", "no data set with both values", "")
            return
        tol = 3.0 * float(np.sqrt(np.sum(var.to_numpy()) + k * rounding)) / k
        note = f"mean over {k} data sets{left_out}; {tol_txt}" + spread_note(tol, fb)
        add(quantity, float(t["published"].mean()), float(t["ours"].mean()), tol, "%", note, why)

    def drop_row(table, train_col, test_col, quantity, why):
        tr, vtr, fb1 = comparable(table, train_col)
        te, vte, fb2 = comparable(table, test_col)
        both = [d for d in tr.index if d in te.index]
        k = len(both)
        if k == 0:
            add(quantity, np.nan, np.nan, np.nan, "points", "no data set with both values", "")
            return
        pub = float((tr.loc[both, "published"] - te.loc[both, "published"]).mean())
        ours = float((tr.loc[both, "ours"] - te.loc[both, "ours"]).mean())
        tol = 3.0 * float(np.sqrt(np.sum(vtr[both].to_numpy()) + np.sum(vte[both].to_numpy())
                                  + 2 * k * rounding)) / k
        note = (f"mean of (train - test) over {k} data sets{left_out}; {tol_txt}, train and test "
                "combined as if independent" + spread_note(tol, fb1 or fb2))
        add(quantity, pub, ours, tol, "points", note, why)

    classic_why = "see the chapter's table of NB and C4.5"
    mean_row(classic, "NB test", "NB: mean test accuracy", classic_why)
    mean_row(classic, "C4.5 test", "C4.5: mean test accuracy", classic_why)
    mean_row(frequency, "TU2 simple", "simple credal tree (frequency criterion): mean test accuracy", protocol)
    mean_row(frequency, "TU2 double", "double credal tree (frequency criterion): mean test accuracy", protocol)
    mean_row(credal, "simple: test accuracy",
             "simple credal tree (dominance): mean test accuracy on determinate instances", protocol)
    mean_row(credal, "simple: test UC %", "simple credal tree (dominance): mean % unclassified, test",
             "see the chapter's credal-tree table")
    mean_row(credal, "simple: train accuracy",
             "simple credal tree (dominance): mean training accuracy on determinate instances",
             "see the chapter's credal-tree table")
    mean_row(credal, "simple: train UC %", "simple credal tree (dominance): mean % unclassified, training",
             "see the chapter's credal-tree table")
    mean_row(classic, "NB train", "NB: mean training accuracy", classic_why)
    mean_row(classic, "C4.5 train", "C4.5: mean training accuracy", classic_why)
    drop_row(credal, "simple: train accuracy", "simple: test accuracy",
             "simple credal tree: mean drop from training to test accuracy (determinate instances)", protocol)
    drop_row(classic, "C4.5 train", "C4.5 test", "C4.5: mean drop from training to test accuracy",
             classic_why)
    return headline_table(rows, paper="Moral (slides)", chapter="credal-trees")


# ------------------------------------------------------------ the chapter's "at a glance" box

#: the slides (their title page; they carry no date) and the method's paper they cite
CITATION = ('S. Moral, "Discovering independence", lecture slides (second part: classification '
            'trees), Departamento de Ciencias de la Computación, Universidad de Granada, Spain '
            '(undated; cites work up to 2005); the method: J. Abellán and S. Moral, "Building '
            'classification trees using the total uncertainty criterion", *International Journal '
            'of Intelligent Systems* 18 (2003) 1215-1225.')

#: the paper's tables and figures and where this chapter shows them
PAPER_MAP = [
    ("the data sets (training and test sizes)", "the data sets table"),
    ("NB and C4.5, training and test accuracy", "the Naive Bayes and C4.5 table"),
    ("TU2, simple method: accuracy and UC", "the determinate-accuracy table"),
    ("global comparison (frequency criterion) and the double method",
     ("the frequency-criterion table and its figure", "fig-trees-vs-slides")),
    ("TU1, simple and double", "the TU1 section (shown as published)"),
]


def glance_box(headline, *, summary=None, notebook='credal-trees', mapping=None):
    """The chapter's box at the top of the page (:func:`credal.chapters._common.glance`
    with this chapter's citation and :data:`PAPER_MAP`)."""
    return glance(CITATION, notebook, mapping=PAPER_MAP if mapping is None else mapping,
                  headline=headline, summary=summary)


# ---------------------------------------------------------------------------- figures

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
            "tab:pink", "tab:gray"]


def ours_vs_published_figure(tables, titles=None, unit="%"):
    """Our results (mean over splits, ± 2 SE) against the slides', one panel per table.

    Parameters
    ----------
    tables : sequence of DataFrame
        Long tables of :func:`moral_tree_table` (columns ``column``,
        ``ours``, ``se``, ``published``); cells without a published value are
        skipped.  One marker per ``column``.
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
        cols = list(dict.fromkeys(tab["column"]))
        for k, col in enumerate(cols):
            t = tab[tab["column"] == col]
            ax.errorbar(t["published"], t["ours"], yerr=2 * t["se"].fillna(0.0), ls="none",
                        marker=_MARKERS[k % len(_MARKERS)], color=_COLOURS[k % len(_COLOURS)],
                        mfc="none", ms=6, capsize=2, label=col)
        if len(tab):
            se = tab["se"].fillna(0.0)
            lo = float(np.nanmin([tab["published"].min(), (tab["ours"] - 2 * se).min()]))
            hi = float(np.nanmax([tab["published"].max(), (tab["ours"] + 2 * se).max()]))
            pad = 0.05 * (hi - lo + 1)
            ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="k", lw=0.8, ls="--",
                    label="ours = slides")
            ax.set_xlim(lo - pad, hi + pad)
            ax.set_ylim(lo - pad, hi + pad)
        ax.set_aspect("equal")
        ax.set_xlabel(f"slides ({unit})")
        ax.set_ylabel(f"ours, mean over splits ± 2 SE ({unit})")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(frameon=False, fontsize="small", loc="upper left")
    return fig
