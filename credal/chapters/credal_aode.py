"""Chapter ``credal-aode``: Corani & Antonucci, credal ensembles of SPODEs.

The paper compares AODE, BMA-AODE and COMP-AODE (precise) with their credal versions
BMA-AODE* and COMP-AODE* and with NCC, CMA and the credal decision tree.  Here are the
eight classifiers under the paper's names (:func:`paper_classifiers`), the chapter's run
(:func:`run`), the tables that put our numbers beside the published ones (every paired
comparison of Section 3 in :data:`PAPER_COMPARISONS` and :func:`wilcoxon_table`, the
numbers of the text in :func:`headline_table`, :func:`friedman_tables`, the per-data-set
and settings tables), the numbers the text quotes, the chapter's rows of the
reproduction report (:func:`report_headline`) and the figures.  The classifiers
themselves are in :mod:`credal.aode`; generic table assembly in :mod:`credal.comparisons`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from credal import comparisons, stats
from credal.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal.averaging import CMA
from credal.chapters._common import headline_table as _report_table
from credal.chapters._common import meets_published, save_table
from credal.datasets import published as _published
from credal.experiments import cross_validate
from credal.naive import NCC
from credal.preprocessing import make_preprocessor
from credal.trees import CredalDecisionTree

__all__ = [
    # the classifiers and the run
    "FRIEDMAN_CLASSIFIERS",
    "paper_classifiers",
    "run",
    "dataset_sizes",
    # tables
    "settings_table",
    "headline_table",
    "display_headline",
    "wilcoxon_table",
    "display_wilcoxon",
    "display_bayesian",
    "friedman_tables",
    "display_friedman",
    "per_dataset_table",
    "reference_check",
    "save_table",
    # numbers for the text
    "chapter_numbers",
    "chapter_examples",
    "check_numbers",
    "counterpart_gap",
    # headline rows
    "report_headline",
    # figures
    "aode_accuracy_scatter",
    "aode_relative_brier",
    "aode_determinacy",
    "aode_safe_vs_prior_dependent",
    "aode_relative_utility",
    "aode_friedman_ranks",
    "aode_bayesian_comparisons",
]

# ------------------------------------------------------------- the classifiers

#: the chapter's classifiers, in display order
PAPER_CLASSIFIERS = ("AODE", "BMA-AODE", "COMP-AODE", "BMA-AODE*", "COMP-AODE*",
                     "NCC", "CMA", "CDT")
#: precise counterpart of each credal AODE
PAPER_COUNTERPARTS = {"BMA-AODE*": "BMA-AODE", "COMP-AODE*": "COMP-AODE"}


def paper_classifiers(epsilon=0.01, prune_factor=1e4, s=1.0, ncc_s=1.0, cma_alpha=1.0,
                      cdt_s=1.0, laplace_aode=False):
    """The eight classifiers of the chapter, keyed by the paper's names.

    Parameters
    ----------
    epsilon : float
        The paper's ``epsilon`` (all occurrences: BMA-AODE*'s and COMP-AODE*'s prior
        lower bound, COMP-AODE's null-model prior); paper: 0.01.
    prune_factor : float
        BMA keeps SPODEs with ``L_j >= L_max / prune_factor``; paper: 1e4.
    s : float
        Equivalent sample size of the Dirichlet priors of the SPODE tables; paper: 1.
    ncc_s : float
        IDM hyperparameter of NCC.
    cma_alpha : float
        Equivalent sample size of CMA.
    cdt_s : float
        IDM hyperparameter of the credal decision tree.
    laplace_aode : bool
        Add ``"AODE (Laplace)"``, Weka's AODE (one pseudo-count per cell, joint
        estimate of class and super-parent), to check how much the comparison with
        AODE depends on its parameter estimates.

    Returns
    -------
    dict of str -> estimator
        ``AODE``, ``BMA-AODE``, ``COMP-AODE`` (precise), ``BMA-AODE*``,
        ``COMP-AODE*`` (credal; ``predict`` gives the precise counterpart's class),
        ``NCC`` (:class:`credal.naive.NCC`), ``CMA`` and ``CDT`` (and
        ``AODE (Laplace)``).
    """
    return {
        "AODE": AODE(s=s),
        "BMA-AODE": BMAAODE(s=s, prune_factor=prune_factor),
        "COMP-AODE": CompAODE(s=s, epsilon=epsilon),
        "BMA-AODE*": CredalBMAAODE(s=s, prune_factor=prune_factor, epsilon=epsilon),
        "COMP-AODE*": CredalCompAODE(s=s, epsilon=epsilon),
        "NCC": NCC(s=ncc_s),
        "CMA": CMA(alpha=cma_alpha),
        "CDT": CredalDecisionTree(s=cdt_s),
    } | ({"AODE (Laplace)": AODE(prior="laplace", root_estimate="joint")}
         if laplace_aode else {})


# ------------------------------------------------------------------------- run

def run(names, classifiers, n_splits=5, n_repeats=10, random_state=0, n_jobs=1,
        cache_dir=None):
    """The chapter's cross-validation: every classifier on the same folds.

    Inside each training fold, missing values are imputed (median / mode), numeric
    features discretised by the MDL method and single-category features dropped.

    Parameters
    ----------
    names : list of str
        Catalogue names of the data sets.
    classifiers : dict of str -> estimator
        :func:`paper_classifiers`.
    n_splits, n_repeats, random_state, n_jobs, cache_dir
        Of :func:`credal.experiments.cross_validate`.

    Returns
    -------
    credal.experiments.CVResult
        Without per-instance predictions (the chapter needs the fold table only).
    """
    return cross_validate(
        classifiers, names, n_splits=n_splits, n_repeats=n_repeats,
        random_state=random_state,
        preprocessing=make_preprocessor(impute=True, discretize="mdl", drop_single=True),
        n_jobs=n_jobs, cache_dir=cache_dir, progress=False, keep_predictions=False)


def dataset_sizes(result):
    """Number of instances and of classes of each data set of an engine result.

    Parameters
    ----------
    result : credal.experiments.CVResult

    Returns
    -------
    DataFrame indexed by data set with columns ``n`` and ``classes``.
    """
    f = result.folds.drop_duplicates("dataset").set_index("dataset")
    n = (f["n_train"] + f["n_test"]).astype(int)
    classes = pd.Series({d: len(c) for d, c in result.classes.items()}).reindex(n.index)
    return pd.DataFrame({"n": n, "classes": classes.astype(int)}).sort_index()


# ---------------------------------------------------------------------- tables

_W = "Wilcoxon p-value, "
#: every paired comparison of the paper's Section 3, with the row of
#: ``corani_headline_numbers.csv`` that states its outcome (None: the paper gives no
#: p-value) and the classifier the paper says is better (None: no direction claimed)
PAPER_COMPARISONS = (
    dict(id="acc_aode_bma", section="3.1", label="accuracy: AODE vs BMA-AODE",
         a="AODE", b="BMA-AODE", metric="accuracy", claim="a",
         published=(_W + "accuracy, AODE higher than BMA-AODE", "AODE vs BMA-AODE")),
    dict(id="brier_aode_bma", section="3.1", label="Brier loss: AODE vs BMA-AODE",
         a="AODE", b="BMA-AODE", metric="brier", higher_is_better=False, claim="a",
         published=None),
    dict(id="acc_comp_aode", section="3.1", label="accuracy: COMP-AODE vs AODE",
         a="COMP-AODE", b="AODE", metric="accuracy", claim=None,
         published=("accuracy difference COMP-AODE vs AODE", "COMP-AODE vs AODE")),
    dict(id="brier_comp_aode", section="3.1", label="Brier loss: COMP-AODE vs AODE",
         a="COMP-AODE", b="AODE", metric="brier", higher_is_better=False, claim="a",
         published=(_W + "Brier loss, COMP-AODE lower than AODE", "COMP-AODE vs AODE")),
    dict(id="safe_bma", section="3.2",
         label="BMA-AODE accuracy: safe vs prior-dependent (split by BMA-AODE*)",
         a="BMA-AODE*", metric_a="precise_on_determinate",
         b="BMA-AODE*", metric_b="precise_on_indeterminate", claim="a",
         published=(_W + "accuracy drop on prior-dependent vs safe instances",
                    "BMA-AODE (instances split by BMA-AODE*)")),
    dict(id="safe_comp", section="3.2",
         label="COMP-AODE accuracy: safe vs prior-dependent (split by COMP-AODE*)",
         a="COMP-AODE*", metric_a="precise_on_determinate",
         b="COMP-AODE*", metric_b="precise_on_indeterminate", claim="a",
         published=(_W + "accuracy drop on prior-dependent vs safe instances",
                    "COMP-AODE (instances split by COMP-AODE*)")),
)


def _utility_comparisons():
    """The utility comparisons of Sections 3.3-3.4, u65 then u80 for each pair."""
    pairs = (("bma_star", "3.3", "BMA-AODE*", "BMA-AODE"),
             ("comp_star", "3.3", "COMP-AODE*", "COMP-AODE"),
             ("comp_bma_star", "3.3", "COMP-AODE*", "BMA-AODE*"),
             ("comp_aode", "3.3", "COMP-AODE*", "AODE"),
             ("comp_ncc", "3.4", "COMP-AODE*", "NCC"))
    out = []
    for key, section, a, b in pairs:
        for u in ("u65", "u80"):
            quantity = _W + f"utility {u}, {a} higher"
            claim = "a"
            if key == "comp_bma_star" and u == "u80":
                quantity, claim = "utility u80 difference", None
            out.append(dict(id=f"{u}_{key}", section=section, label=f"{u}: {a} vs {b}",
                            a=a, b=b, metric=u, claim=claim,
                            published=(quantity, f"{a} vs {b}")))
    return tuple(out)


PAPER_COMPARISONS = PAPER_COMPARISONS + _utility_comparisons()


def _published_value(table, key):
    if key is None:
        return ""
    quantity, classifier = key
    hit = table[(table["quantity"] == quantity) & (table["classifier"] == classifier)]
    if len(hit) != 1:
        raise KeyError(f"{len(hit)} published rows match {key!r}")
    return str(hit["value"].iloc[0])


def wilcoxon_table(scores, rope=0.01, nsamples=50000, random_state=0, published=None):
    """Every comparison of :data:`PAPER_COMPARISONS`, ours beside the paper's.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` of the chapter's run.
    rope, nsamples, random_state
        Of the Bayesian signed-rank test (:func:`credal.comparisons.paired_comparisons`).
    published : DataFrame, optional
        ``corani_headline_numbers`` (read with :func:`credal.datasets.published` when
        None).

    Returns
    -------
    DataFrame
        The columns of :func:`credal.comparisons.paired_comparisons` plus ``section``,
        ``published_p`` (as printed: ``<0.01``, ``<0.05``, ``n.s.`` or empty),
        ``claimed_better`` (the classifier the paper says is better, or empty),
        ``meets_published`` (our p satisfies the printed bound; None without one) and
        ``same_direction`` (the side with the better mean is the claimed one; None
        without a claim).
    """
    pub = _published("corani_headline_numbers") if published is None else published
    table = comparisons.paired_comparisons(scores, PAPER_COMPARISONS, rope=rope, nsamples=nsamples,
                               random_state=random_state)
    specs = {c["id"]: c for c in PAPER_COMPARISONS}
    table.insert(1, "section", [specs[i]["section"] for i in table["id"]])
    table["published_p"] = [_published_value(pub, specs[i]["published"]) for i in table["id"]]
    table["claimed_better"] = [
        "" if specs[i]["claim"] is None else _side_name(specs[i]) for i in table["id"]]
    table["meets_published"] = [meets_published(p, q) if q else None
                                for p, q in zip(table["wilcoxon_p"], table["published_p"])]
    same = []
    for _, r in table.iterrows():
        if specs[r["id"]]["claim"] is None or r["n_datasets"] == 0:
            same.append(None)
        else:
            better = r["mean_difference"] * (1 if r["higher_is_better"] else -1)
            same.append(bool(better > 0))
    table["same_direction"] = same
    return table


def _side_name(spec):
    a = spec["a"]
    if "metric_a" in spec:  # one classifier's precise accuracy on two subsets
        return f"{PAPER_COUNTERPARTS.get(a, a)} ({_SUBSET[spec['metric_a']]})"
    return a


_SUBSET = {"precise_on_determinate": "safe", "precise_on_indeterminate": "prior-dependent"}


def display_wilcoxon(table):
    """A readable copy of :func:`wilcoxon_table` for the book (rounded, named columns)."""
    out = pd.DataFrame({
        "section": table["section"],
        "comparison (a vs b)": table["label"],
        "data sets": table["n_datasets"],
        "mean a": table["mean_a"].round(4),
        "mean b": table["mean_b"].round(4),
        "a better / ties / b better": [
            "" if pd.isna(w) else f"{int(w)} / {int(t)} / {int(l)}"
            for w, t, l in zip(table["a_better"], table["ties"], table["b_better"])],
        "p (ours)": table["wilcoxon_p"].map(_fmt_p),
        "p (paper)": table["published_p"].replace("", "—"),
        "paper's claim holds": [_verdict(m, s) for m, s in
                                zip(table["meets_published"], table["same_direction"])],
    })
    return out.set_index("comparison (a vs b)")


def display_bayesian(table):
    """The Bayesian signed-rank view of :func:`wilcoxon_table` (probabilities)."""
    out = pd.DataFrame({
        "comparison (a vs b)": table["label"],
        "P(a better)": table["p_a_better"].round(3),
        "P(equivalent)": table["p_rope"].round(3),
        "P(b better)": table["p_b_better"].round(3),
        "MC s.e.": table["bayes_mc_se"].round(4),
        "p Wilcoxon": table["wilcoxon_p"].map(_fmt_p),
    })
    return out.set_index("comparison (a vs b)")


def _fmt_p(p):
    if p is None or not np.isfinite(p):
        return "—"
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


def _verdict(meets, same):
    if meets is None and same is None:
        return "—"
    parts = []
    if meets is not None:
        parts.append("p: yes" if meets else "p: no")
    if same is not None:
        parts.append("direction: yes" if same else "direction: no")
    return ", ".join(parts)


def _headline_rows():
    """Rows of the headline table: (id, label, classifier as published, unit,
    published (quantity, classifier) or None, whether a standard error is meaningful)."""
    rows = [
        ("brier_increase_bma", "average increase of the Brier loss relative to AODE",
         "BMA-AODE", "percent",
         ("average increase in Brier loss relative to AODE", "BMA-AODE"), True),
        ("brier_reduction_comp", "average reduction of the Brier loss relative to AODE",
         "COMP-AODE", "percent",
         ("approx. average reduction in Brier loss relative to AODE", "COMP-AODE"), True),
        ("n_classes", "average number of classes of the data sets", "all data sets",
         "classes", ("average number of classes in the data set collection",
                     "all data sets"), False),
    ]
    for c, p in PAPER_COUNTERPARTS.items():
        k = "bma" if c == "BMA-AODE*" else "comp"
        bma = k == "bma"
        split = f"{p} (instances split by {c})"
        pair = f"{c} vs {p}"
        rows += [
            (f"det_{k}", "average determinacy", c, "percent", ("average determinacy", c),
             True),
            (f"fully_det_{k}", "data sets with determinacy 100%", c, "count",
             ("data sets on which completely determinate", c), False),
            (f"near_det_{k}", "data sets with determinacy >= 99.5% (100% when rounded)",
             c, "count", None, False),
            (f"r_n_{k}", "Pearson correlation of determinacy with n", c, "r",
             ("correlation of determinacy with sample size n (stated significant)", c)
             if bma else None, True),
            (f"r_n_p_{k}", "p-value of that correlation", c, "p-value", None, False),
            (f"rho_n_{k}", "Spearman rank correlation of determinacy with n", c, "r",
             None, True),
            (f"set_acc_{k}", "average set-accuracy", c, "percent",
             ("average set-accuracy", c), True),
            (f"size_{k}", "average indeterminate output size", c, "classes",
             ("average indeterminate output size", c), True),
            (f"safe_{k}", "average accuracy on safe instances", split, "percent",
             ("average accuracy on safe instances", split), True),
            (f"prior_dep_{k}", "average accuracy on prior-dependent instances", split,
             "percent", ("average accuracy on prior-dependent instances", split), True),
            (f"share_{k}", "average share of prior-dependent instances", c, "percent",
             ("average share of instances that are prior-dependent", c) if bma else None,
             True),
            (f"rel_u65_{k}", f"average relative utility u65 / accuracy of {p}, minus 1",
             c, "percent",
             ("approx. average utility improvement over BMA-AODE accuracy, u65", c)
             if bma else None, True),
            (f"rel_u80_{k}", f"average relative utility u80 / accuracy of {p}, minus 1",
             c, "percent",
             ("approx. average utility improvement over BMA-AODE accuracy, u80", c)
             if bma else None, True),
            (f"rel_high_{k}", "relative utility gain, 90th percentile over data sets and "
             "both utilities", pair, "percent",
             None if bma else ("utility increase over COMP-AODE accuracy, generally under",
                               pair), True),
            (f"ind_low_{k}", "utility gain on the prior-dependent instances, "
             "10th percentile", pair, "percent",
             ("utility increase on prior-dependent instances, generally at least "
              "(range low end)", pair) if bma else
             ("utility increase on indeterminate instances, range low end", pair), True),
            (f"ind_high_{k}", "utility gain on the prior-dependent instances, "
             "90th percentile", pair, "percent",
             ("utility increase on prior-dependent instances, generally at most "
              "(range high end)", pair) if bma else
             ("utility increase on indeterminate instances, range high end", pair), True),
        ]
    return tuple(rows)


_HEADLINE = _headline_rows()


def _by_dataset(scores, classifier, metric):
    return scores[metric].xs(classifier, level="classifier")


def headline_statistics(scores, n_rows, n_classes=None) -> pd.Series:
    """The numbers the paper's Section 3 quotes, computed from per-data-set scores.

    Averages are plain means over the data sets where the quantity is defined (e.g.
    set-accuracy over the data sets with some indeterminate instance).  "Generally"
    ranges of the paper are read as the 10th and 90th percentiles over the data sets
    (and both utilities); utility gains on the prior-dependent instances compare the
    credal classifier's utility with its precise counterpart's accuracy on the same
    instances (data sets where that accuracy is 0 are left out).

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` indexed by (dataset, classifier).
    n_rows : Series
        Number of instances of each data set.
    n_classes : Series, optional
        Number of classes of each data set (``n_classes`` is NaN without it).

    Returns
    -------
    Series indexed by the ids of the headline table (percentages in percent).
    """
    from scipy import stats as st

    out = {}
    ratio = (_by_dataset(scores, "BMA-AODE", "brier") / _by_dataset(scores, "AODE", "brier"))
    out["brier_increase_bma"] = 100 * (ratio.mean() - 1)
    ratio = (_by_dataset(scores, "COMP-AODE", "brier") / _by_dataset(scores, "AODE", "brier"))
    out["brier_reduction_comp"] = 100 * (1 - ratio.mean())
    out["n_classes"] = float(np.mean(n_classes)) if n_classes is not None else np.nan
    for c, p in PAPER_COUNTERPARTS.items():
        k = "bma" if c == "BMA-AODE*" else "comp"
        det = _by_dataset(scores, c, "determinacy")
        out[f"det_{k}"] = 100 * det.mean()
        out[f"fully_det_{k}"] = float((det >= 1).sum())
        out[f"near_det_{k}"] = float((det >= 0.995).sum())
        n = pd.Series(n_rows, dtype=float).reindex(det.index)
        if det.nunique() > 1 and len(det) > 2:
            r = st.pearsonr(det, n)
            out[f"r_n_{k}"], out[f"r_n_p_{k}"] = float(r.statistic), float(r.pvalue)
            out[f"rho_n_{k}"] = float(st.spearmanr(det, n).statistic)
        else:
            out[f"r_n_{k}"] = out[f"r_n_p_{k}"] = out[f"rho_n_{k}"] = np.nan
        out[f"set_acc_{k}"] = 100 * _by_dataset(scores, c, "set_accuracy").mean()
        out[f"size_{k}"] = _by_dataset(scores, c, "indeterminate_size").mean()
        out[f"safe_{k}"] = 100 * _by_dataset(scores, c, "precise_on_determinate").mean()
        acc_ind = _by_dataset(scores, c, "precise_on_indeterminate")
        out[f"prior_dep_{k}"] = 100 * acc_ind.mean()
        out[f"share_{k}"] = 100 * (1 - det.mean())
        acc = _by_dataset(scores, p, "accuracy")
        rel = {u: _by_dataset(scores, c, u) / acc - 1 for u in ("u65", "u80")}
        out[f"rel_u65_{k}"] = 100 * rel["u65"].mean()
        out[f"rel_u80_{k}"] = 100 * rel["u80"].mean()
        both = pd.concat(rel.values()).dropna()
        out[f"rel_high_{k}"] = 100 * _quantile(both, 0.9)
        gain = pd.concat([_by_dataset(scores, c, f"{u}_on_indeterminate")
                          / acc_ind.where(acc_ind > 0) - 1 for u in ("u65", "u80")]).dropna()
        out[f"ind_low_{k}"] = 100 * _quantile(gain, 0.1)
        out[f"ind_high_{k}"] = 100 * _quantile(gain, 0.9)
    return pd.Series(out, dtype=float)


def _quantile(values, q):
    v = np.asarray(values, dtype=float)
    return float(np.quantile(v, q)) if v.size else np.nan


def headline_table(result, published=None) -> pd.DataFrame:
    """The numbers of the paper's Section 3 text beside ours, with standard errors.

    Parameters
    ----------
    result : credal.experiments.CVResult
        The chapter's run (every classifier of :func:`paper_classifiers`).
    published : DataFrame, optional
        ``corani_headline_numbers`` (read when None).

    Returns
    -------
    DataFrame indexed by id with columns ``quantity``, ``classifier``, ``unit``,
    ``published`` (as printed, empty where the paper gives no number), ``ours`` and
    ``se`` (Monte-Carlo standard error from the spread over the cross-validation
    repeats; NaN for counts and p-values, and with a single repeat).
    """
    pub = _published("corani_headline_numbers") if published is None else published
    sizes = dataset_sizes(result)
    value, se = comparisons.repeat_standard_error(
        result.folds, lambda sc: headline_statistics(sc, sizes["n"], sizes["classes"]))
    rows = []
    for key, label, clf, unit, pkey, has_se in _HEADLINE:
        rows.append({"id": key, "quantity": label, "classifier": clf, "unit": unit,
                     "published": _published_value(pub, pkey),
                     "ours": value[key], "se": se[key] if has_se else np.nan})
    return pd.DataFrame(rows).set_index("id")


def display_headline(table):
    """A readable copy of :func:`headline_table` (rounded; '—' where nothing is printed)."""
    def fmt(v, unit):
        if not np.isfinite(v):
            return "—"
        if unit == "count":
            return f"{v:.0f}"
        if unit == "p-value":
            return _fmt_p(v)
        return f"{v:.2f}" if unit in ("r", "classes") else f"{v:.1f}"

    out = pd.DataFrame({
        "quantity": table["quantity"],
        "classifier": table["classifier"],
        "unit": table["unit"],
        "paper": table["published"].replace("", "—"),
        "ours": [fmt(v, u) for v, u in zip(table["ours"], table["unit"])],
        "± s.e.": [fmt(v, u) if np.isfinite(v) else "" for v, u in
                   zip(table["se"], table["unit"])],
    })
    return out.reset_index(drop=True).set_index(["quantity", "classifier"])


#: the credal classifiers of the paper's Figure 7 and its statements about them
FRIEDMAN_CLASSIFIERS = ("CDT", "CMA", "COMP-AODE*")
# the paper's Section 3.4: no pair differs at 95% confidence; at 90%, these two do
_FRIEDMAN_PUBLISHED_90 = {("u65", frozenset({"COMP-AODE*", "CMA"})): "COMP-AODE*",
                          ("u80", frozenset({"COMP-AODE*", "CDT"})): "COMP-AODE*"}


def friedman_tables(scores, classifiers=FRIEDMAN_CLASSIFIERS, utilities=("u65", "u80"),
                    alphas=(0.05, 0.10)):
    """Friedman ranks and Nemenyi pairs of the paper's Figure 7, beside its statements.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    classifiers : sequence of str
    utilities : sequence of str
    alphas : sequence of float
        Levels of the critical differences (paper: 95% and 90% confidence).

    Returns
    -------
    ranks : DataFrame
        Per utility: average ranks, ``friedman_p``, ``iman_davenport_p``, critical
        differences ``cd_<level>``, ``best`` (ours) and ``best_published``
        (COMP-AODE*, Figure 7).
    pairs : DataFrame
        Per utility and pair: ``better`` (lower average rank), ``worse``,
        ``rank_difference``, ``significant_<level>`` (ours, Nemenyi) and
        ``published_<level>`` (the paper's statement at the 95% and 90% levels:
        the winner's name where it reports a significant difference, ``"no"``
        otherwise; empty at other levels).
    """
    mats = {u: comparisons.score_matrix(scores, u, list(classifiers)) for u in utilities}
    ranks, pairs = comparisons.friedman_comparison(mats, alphas=alphas)
    ranks["best"] = ranks[list(classifiers)].idxmin(axis=1)
    ranks["best_published"] = "COMP-AODE*"
    keys = [(u, frozenset({b, w})) for u, b, w in
            zip(pairs["scores"], pairs["better"], pairs["worse"])]
    for a in alphas:
        level = f"{100 * (1 - a):g}%"
        if level == "95%":
            pairs[f"published_{level}"] = "no"
        elif level == "90%":
            pairs[f"published_{level}"] = [_FRIEDMAN_PUBLISHED_90.get(k, "no") for k in keys]
        else:
            pairs[f"published_{level}"] = ""
    return ranks, pairs


def display_friedman(ranks, pairs):
    """Readable copies of :func:`friedman_tables` (ranks, pairs)."""
    r = ranks.copy()
    for c in r.columns:
        if c.endswith("_p"):
            r[c] = r[c].map(_fmt_p)
        elif r[c].dtype.kind == "f":
            r[c] = r[c].round(3)
    r = r.rename(columns={"n_datasets": "data sets", "friedman_p": "Friedman p",
                          "iman_davenport_p": "Iman-Davenport p", "best": "best rank (ours)",
                          "best_published": "best rank (paper)"})
    r = r.rename(columns=lambda c: c.replace("cd_", "CD ") if c.startswith("cd_") else c)
    r.index.name = "utility"
    p = pairs.copy()
    p["rank_difference"] = p["rank_difference"].round(3)
    for c in [c for c in p.columns if c.startswith("significant_")]:
        p[c] = np.where(p[c], p["better"], "no")
    p = p.rename(columns={"scores": "utility", "rank_difference": "rank difference"})
    p = p.rename(columns=lambda c: c.replace("significant_", "significant at ")
                 .replace("published_", "paper: significant at "))
    p["pair"] = p["better"] + " ahead of " + p["worse"]
    p = p.drop(columns=["better", "worse"]).set_index(["utility", "pair"])
    return r, p


_PER_DATASET = {
    "determinate": [("accuracy", c) for c in ("AODE", "BMA-AODE", "COMP-AODE")]
    + [("brier", c) for c in ("AODE", "BMA-AODE", "COMP-AODE")],
    "credal": [(m, c) for c in ("BMA-AODE*", "COMP-AODE*")
               for m in ("determinacy", "set_accuracy", "indeterminate_size",
                         "precise_on_determinate", "precise_on_indeterminate")],
    "utilities": [(u, c) for u in ("u65", "u80") for c in
                  ("AODE", "BMA-AODE", "BMA-AODE*", "COMP-AODE", "COMP-AODE*", "NCC",
                   "CMA", "CDT")],
}
_METRIC_NAMES = {
    "accuracy": "accuracy", "brier": "Brier", "determinacy": "determinacy",
    "set_accuracy": "set-acc.", "indeterminate_size": "size",
    "precise_on_determinate": "precise acc. safe",
    "precise_on_indeterminate": "precise acc. prior-dep.", "u65": "u65", "u80": "u80",
}


def per_dataset_table(scores, sizes, part):
    """Per-data-set scores of one part of the chapter, in Table 2's order (by n).

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` (optionally with ``<metric>_se``).
    sizes : DataFrame
        :func:`dataset_sizes`.
    part : {"determinate", "credal", "utilities"}
        Accuracy and Brier loss of AODE, BMA-AODE, COMP-AODE; determinacy,
        set-accuracy, indeterminate size and the precise counterpart's accuracy on
        the safe and prior-dependent instances of BMA-AODE* and COMP-AODE*; u65 and
        u80 of every classifier.

    Returns
    -------
    DataFrame indexed by data set, columns ``(metric, classifier)`` named for
    readers, plus ``n`` and ``classes``; ``<metric> s.e.`` columns follow each metric
    when ``scores`` has them.
    """
    if part not in _PER_DATASET:
        raise ValueError(f"part must be one of {sorted(_PER_DATASET)}; got {part!r}")
    cols = {}
    for metric, clf in _PER_DATASET[part]:
        name = f"{_METRIC_NAMES[metric]} {clf}"
        cols[name] = _by_dataset(scores, clf, metric)
        if f"{metric}_se" in scores:
            cols[f"{name} s.e."] = _by_dataset(scores, clf, f"{metric}_se")
    out = pd.DataFrame(cols)
    out.insert(0, "classes", sizes["classes"].reindex(out.index))
    out.insert(0, "n", sizes["n"].reindex(out.index))
    out = out.sort_values(["n"], kind="stable")
    out.index.name = "data set"
    return out


def settings_table(n_datasets, n_repeats, n_splits, epsilon, prune_factor, s,
                   published=None):
    """The paper's experimental settings beside this run's parameters.

    Returns
    -------
    DataFrame indexed by setting with columns ``paper`` and ``ours``.
    """
    pub = _published("corani_headline_numbers") if published is None else published

    def val(q):
        return str(pub.loc[pub["quantity"] == q, "value"].iloc[0])

    rows = [
        ("data sets", val("number of data sets"), f"{n_datasets} distinct"),
        ("cross-validation runs", val("cross-validation runs per data set"), str(n_repeats)),
        ("folds per run", val("cross-validation folds"), str(n_splits)),
        ("epsilon", val("epsilon (prior lower bound / null-model prior), all occurrences"),
         f"{epsilon:g}"),
        ("BMA keeps SPODEs with L >= L_max x",
         val("SPODE kept only if conditional likelihood >= L_max times this factor"),
         f"{1 / prune_factor:g}"),
        ("equivalent sample size of the SPODE priors",
         val("equivalent sample size of Dirichlet parameter priors"), f"{s:g}"),
    ]
    return pd.DataFrame(rows, columns=["setting", "paper", "ours"]).set_index("setting")


def reference_check(scores, references=("AODE", "AODE (Laplace)"), challenger="COMP-AODE",
                    credal="COMP-AODE*"):
    """How the comparison with AODE depends on AODE's parameter estimates.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` of a run with every classifier named.
    references : sequence of str
        AODE variants (e.g. the chapter's and Weka's estimates).
    challenger, credal : str
        The precise and credal classifiers compared with each reference.

    Returns
    -------
    DataFrame indexed by reference: its mean accuracy and Brier loss, the mean ratio
    of the challenger's Brier loss to it, the Wilcoxon p-values of the Brier and
    accuracy comparisons with the challenger, and of the u65 and u80 comparisons with
    the credal classifier.
    """
    rows = []
    for ref in references:
        b_ref, b_ch = (_by_dataset(scores, c, "brier") for c in (ref, challenger))
        a_ref, a_ch = (_by_dataset(scores, c, "accuracy") for c in (ref, challenger))
        row = {"reference": ref, "accuracy": a_ref.mean(), "Brier": b_ref.mean(),
               f"Brier {challenger} / reference": (b_ch / b_ref).mean(),
               f"p Brier {challenger}": stats.wilcoxon(b_ch, b_ref).pvalue,
               f"p accuracy {challenger}": stats.wilcoxon(a_ch, a_ref).pvalue}
        for u in ("u65", "u80"):
            row[f"p {u} {credal}"] = stats.wilcoxon(_by_dataset(scores, credal, u),
                                                    _by_dataset(scores, ref, u)).pvalue
        rows.append(row)
    return pd.DataFrame(rows).set_index("reference")


# -------------------------------------------------------- numbers for the text

def counterpart_gap(scores):
    """Largest per-data-set accuracy difference between each credal AODE's ``predict``
    and its precise class (0 when, as designed, they return the same classes)."""
    return float(max(
        (_by_dataset(scores, c, "accuracy") - _by_dataset(scores, p, "accuracy")).abs().max()
        for c, p in PAPER_COUNTERPARTS.items()))


def chapter_numbers(headline, wilcoxon, ranks, pairs):
    """Formatted numbers the chapter's text quotes (for ``myst_nb.glue``).

    Parameters
    ----------
    headline : DataFrame
        :func:`headline_table`.
    wilcoxon : DataFrame
        :func:`wilcoxon_table`.
    ranks, pairs : DataFrame
        :func:`friedman_tables`.

    Returns
    -------
    dict of str -> str
        ``h_<id>`` (ours), ``h_<id>_se`` and ``pub_<id>`` for every headline row;
        ``p_<id>``, ``pub_<id>`` (the printed p-value statement), ``n_<id>`` (data
        sets), ``wins_<id>`` (``"x of n"``) and
        ``holds_<id>`` (whether the paper's statement holds for ours) for every
        comparison; ``claims_held`` / ``claims_total`` (published p-value statements
        that hold for our p-values and directions); ``friedman_p_<utility>``,
        ``best_<utility>``, ``sig90_<utility>`` / ``sig95_<utility>`` (pairs the
        Nemenyi test separates, or "none").
    """
    out = {}
    for key, r in headline.iterrows():
        v, se, unit = r["ours"], r["se"], r["unit"]
        digits = 0 if unit == "count" else 2 if unit in ("r", "classes") else 1
        out[f"h_{key}"] = _fmt_p(v) if unit == "p-value" else (
            f"{v:.{digits}f}" if np.isfinite(v) else "n/a")
        out[f"h_{key}_se"] = f"{se:.{max(digits, 1)}f}" if np.isfinite(se) else "n/a"
        out[f"pub_{key}"] = r["published"] or "—"
    held = total = 0
    for _, r in wilcoxon.iterrows():
        key = r["id"]
        out[f"p_{key}"] = _fmt_p(r["wilcoxon_p"])
        out[f"pub_{key}"] = r["published_p"] or "—"
        out[f"n_{key}"] = str(int(r["n_datasets"]))
        wins = r["a_better"]
        out[f"wins_{key}"] = ("n/a" if pd.isna(wins) else
                              f"{int(wins)} of {int(r['n_datasets'])}")
        if r["meets_published"] is not None:
            total += 1
            ok = bool(r["meets_published"]) and r["same_direction"] is not False
            held += ok
            out[f"holds_{key}"] = "holds" if ok else "does not hold"
        else:
            out[f"holds_{key}"] = "has no published p-value"
    out["claims_held"], out["claims_total"] = str(held), str(total)
    for u, r in ranks.iterrows():
        out[f"friedman_p_{u}"] = _fmt_p(r["friedman_p"])
        out[f"best_{u}"] = str(r["best"])
        for lev, short in (("95%", "sig95"), ("90%", "sig90")):
            col = f"significant_{lev}"
            if col not in pairs:
                continue
            sel = pairs[(pairs["scores"] == u) & pairs[col]]
            out[f"{short}_{u}"] = ("none" if sel.empty else "; ".join(
                f"{b} ahead of {w}" for b, w in zip(sel["better"], sel["worse"])))
    return out


def _names(index, k):
    return ", ".join(str(i).replace("_", " ") for i in list(index)[:k]) or "none"


def chapter_examples(scores, wilcoxon, k=4):
    """Data sets and comparisons the chapter's text names (for ``myst_nb.glue``).

    Returns
    -------
    dict of str -> str
        ``brier_worst_bma`` (data sets where BMA-AODE's Brier loss exceeds AODE's by the
        largest factor), ``brier_best_comp`` / ``brier_worst_comp`` (COMP-AODE's best and
        worst Brier ratios to AODE), ``setacc_low_comp`` (data sets where COMP-AODE*'s
        set-accuracy is below 50%, with their number of prior-dependent instances),
        ``median_ind_bma`` / ``median_ind_comp`` (median number of prior-dependent
        instances, over all folds, of the data sets that have some),
        ``claims_failed`` (comparisons whose published statement does not hold),
        ``bayes_equivalent`` (comparisons judged practically equivalent with posterior
        probability above 0.9) and ``bayes_decisive`` (one side better with probability
        above 0.95).
    """
    out = {}
    ref = _by_dataset(scores, "AODE", "brier")
    r_bma = (_by_dataset(scores, "BMA-AODE", "brier") / ref).sort_values(ascending=False)
    r_comp = (_by_dataset(scores, "COMP-AODE", "brier") / ref).sort_values()
    out["brier_worst_bma"] = _names(r_bma[r_bma > 1].index, k + 1)
    out["brier_best_comp"] = _names(r_comp[r_comp < 1].index, k - 1)
    out["brier_worst_comp"] = _names(r_comp[r_comp > 1].index[::-1], k)
    sa = _by_dataset(scores, "COMP-AODE*", "set_accuracy")
    n_ind = _by_dataset(scores, "COMP-AODE*", "n_indeterminate")
    low = sa[sa < 0.5].index
    for c, key in (("BMA-AODE*", "bma"), ("COMP-AODE*", "comp")):
        m = _by_dataset(scores, c, "n_indeterminate")
        out[f"median_ind_{key}"] = f"{m[m > 0].median():.0f}" if (m > 0).any() else "0"
    out["setacc_low_comp"] = ", ".join(
        f"{d.replace('_', ' ')} ({int(n_ind[d])} instances)" for d in low) or "none"
    lab = wilcoxon.set_index("id")["label"]
    failed = [lab[i] for i, m, s in zip(wilcoxon["id"], wilcoxon["meets_published"],
                                         wilcoxon["same_direction"])
              if m is not None and (not m or s is False)]
    out["claims_failed"] = "; ".join(failed) or "none"
    eq = wilcoxon[wilcoxon["p_rope"] > 0.9]["label"]
    dec = wilcoxon[(wilcoxon["p_a_better"] > 0.95) | (wilcoxon["p_b_better"] > 0.95)]["label"]
    out["bayes_equivalent"] = "; ".join(eq) or "none"
    out["bayes_decisive"] = "; ".join(dec) or "none"
    return out


def check_numbers(check, reference="AODE (Laplace)", challenger="COMP-AODE",
                  credal="COMP-AODE*"):
    """Formatted numbers of :func:`reference_check` for one reference ("n/a" without it)."""
    keys = {"ratio": f"Brier {challenger} / reference", "p_brier": f"p Brier {challenger}",
            "p_u65": f"p u65 {credal}", "p_u80": f"p u80 {credal}"}
    if check is None or reference not in getattr(check, "index", ()):
        return {f"check_{k}": "n/a" for k in keys}
    row = check.loc[reference]
    return {"check_ratio": f"{row[keys['ratio']]:.3f}",
            **{f"check_{k}": _fmt_p(row[c]) for k, c in keys.items() if k != "ratio"}}


# --------------------------------------------------------------- headline rows

#: the citation used in the reproduction report
PAPER = "Corani & Antonucci"
_Z95 = 1.96


def _half_unit(text):
    """Half a unit of the last printed digit of a published number ("2.3" -> 0.05)."""
    s = str(text).strip()
    return 0.5 * 10.0 ** -(len(s.split(".")[1]) if "." in s else 0)


_REPORT_NOTES = {
    "n_classes": "mean over our 39 distinct data sets; Table 2's 40 rows give {table2:.2f}",
    "fully_det": "strict count over all folds; with determinacy >= 99.5% (rounded to 100%): "
                 "{near:.0f}",
    "r_n": "Pearson correlation of per-data-set determinacy with n; Spearman's gives "
           "{rho:.2f}",
    "ind_low": "10th percentile over data sets and both utilities (reading of 'generally')",
    "ind_high": "90th percentile over data sets and both utilities (reading of "
                "'generally')",
    "rel_high": "90th percentile over data sets and both utilities (reading of "
                "'generally under')",
}


def report_headline(headline, wilcoxon, ranks, pairs, published_table2=None):
    """The chapter's rows of the reproduction report (:mod:`credal.chapters._common` layout).

    Three kinds of rows: every number of the paper's Section 3 (tolerance: half a unit
    of the printed digit plus 1.96 combined Monte-Carlo standard errors, the paper's
    taken equal to ours, i.e. ``1.96 sqrt(2) s.e.``; counts exact); every
    printed significance statement of a paired comparison, coded 1 (significant at the
    printed level, in the printed direction) or 0 (not significant at 5%), ours coded
    the same way from our Wilcoxon p-value (tolerance 0); and the Friedman/Nemenyi
    statements of Section 3.4, coded as counts or 0/1.

    Parameters
    ----------
    headline : DataFrame
        :func:`headline_table`.
    wilcoxon : DataFrame
        :func:`wilcoxon_table`.
    ranks, pairs : DataFrame
        :func:`friedman_tables` (levels 95% and 90%).
    published_table2 : DataFrame, optional
        ``corani_table2_datasets`` (read when None).

    Returns
    -------
    DataFrame
        :func:`credal.chapters._common.headline_table` output.
    """
    t2 = _published("corani_table2_datasets") if published_table2 is None \
        else published_table2
    rows = []
    for key, r in headline.iterrows():
        if not r["published"]:
            continue
        pub = float(r["published"])
        se = r["se"] if np.isfinite(r["se"]) else 0.0
        count = r["unit"] == "count"
        tol = 0.0 if count else _half_unit(r["published"]) + _Z95 * np.sqrt(2) * se
        stem = key.rsplit("_", 1)[0] if key.endswith(("_bma", "_comp")) else key
        k = key.rsplit("_", 1)[-1]
        note = _REPORT_NOTES.get(stem, "")
        note = note.format(table2=float(t2["classes"].mean()),
                           near=headline["ours"].get(f"near_det_{k}", np.nan),
                           rho=headline["ours"].get(f"rho_n_{k}", np.nan))
        if not count:
            note = (note + "; " if note else "") + \
                "tolerance: printed rounding + 1.96 combined Monte-Carlo s.e."
        rows.append({"quantity": f"{r['quantity']} ({r['classifier']})", "published": pub,
                     "ours": float(r["ours"]), "tolerance": tol,
                     "unit": {"percent": "%", "count": "data sets"}.get(r["unit"], r["unit"]),
                     "note": note})
    for _, r in wilcoxon.iterrows():
        text = r["published_p"]
        if not text:
            continue
        p = r["wilcoxon_p"]
        if text == "n.s.":
            pub, ours = 0.0, float(p < 0.05)
        else:
            bound = float(text[1:])
            pub, ours = 1.0, float(p < bound and r["same_direction"] is not False)
        printed = "n.s." if text == "n.s." else f"p {text}"
        rows.append({"quantity": f"significant: {r['label']} (paper: {printed})",
                     "published": pub, "ours": ours, "tolerance": 0.0,
                     "unit": "1 = significant",
                     "note": f"our Wilcoxon p = {_fmt_p(p)}; mean difference a - b = "
                             f"{r['mean_difference']:.4f}"})
    for u in ranks.index:
        sel = pairs[pairs["scores"] == u]
        rows.append({"quantity": f"pairs of CDT, CMA, COMP-AODE* separated at 95%, {u}",
                     "published": 0.0, "ours": float(sel["significant_95%"].sum()),
                     "tolerance": 0.0, "unit": "pairs",
                     "note": f"Friedman p = {_fmt_p(ranks.loc[u, 'friedman_p'])}"})
        rows.append({"quantity": f"COMP-AODE* has the best average rank, {u}",
                     "published": 1.0, "ours": float(ranks.loc[u, "best"] == "COMP-AODE*"),
                     "tolerance": 0.0, "unit": "1 = yes",
                     "note": "average ranks: " + ", ".join(
                         f"{c} {ranks.loc[u, c]:.2f}" for c in FRIEDMAN_CLASSIFIERS)})
        claimed = sel[sel["published_90%"] != "no"]
        for _, q in claimed.iterrows():
            other = q["worse"] if q["better"] == "COMP-AODE*" else q["better"]
            ok = q["better"] == "COMP-AODE*" and bool(q["significant_90%"])
            rows.append({"quantity": f"COMP-AODE* ahead of {other} at 90%, {u}",
                         "published": 1.0, "ours": float(ok), "tolerance": 0.0,
                         "unit": "1 = significant",
                         "note": f"rank difference {q['rank_difference']:.3f}, critical "
                                 f"difference {ranks.loc[u, 'cd_90%']:.3f}"})
    return _report_table(rows, paper=PAPER, chapter="credal-aode")


# --------------------------------------------------------------------- figures

def _col(scores, classifier, metric):
    try:
        return scores[metric].xs(classifier, level="classifier")
    except KeyError:
        raise KeyError(f"no {metric!r} scores for classifier {classifier!r}") from None


def _limits(*series, pad=0.03):
    v = pd.concat(series).dropna().to_numpy(dtype=float)
    lo = max(0.0, np.floor((v.min() - pad) * 10) / 10) if v.size else 0.0
    return lo, 1.0 + pad / 3


def _by_size(index, sizes):
    if sizes is None:
        return list(index)
    n = pd.Series(sizes["n"] if isinstance(sizes, pd.DataFrame) else sizes, dtype=float)
    return list(n.reindex(index).sort_values(kind="stable").index)


def aode_accuracy_scatter(scores, reference="AODE", others=("BMA-AODE", "COMP-AODE")):
    """Figure 3: accuracy of ``reference`` against each of ``others``, per data set.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    reference : str
        Classifier on the vertical axes.
    others : sequence of str
        One panel each, on the horizontal axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    ref = _col(scores, reference, "accuracy")
    fig, axes = plt.subplots(1, len(others), figsize=(4.6 * len(others), 4.4),
                             squeeze=False, constrained_layout=True)
    for ax, other in zip(axes[0], others):
        x = _col(scores, other, "accuracy").reindex(ref.index)
        lo, hi = _limits(x, ref)
        ax.plot([lo, hi], [lo, hi], color="black", lw=1, label="bisector")
        ax.scatter(x, ref, s=22, color="tab:blue", alpha=0.8, edgecolors="none",
                   label="one data set")
        above, below = int((ref > x).sum()), int((ref < x).sum())
        ax.text(0.03, 0.97, f"{reference} higher: {above} data sets\n"
                f"{other} higher: {below}", transform=ax.transAxes, va="top",
                fontsize="small")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        ax.set_xlabel(f"accuracy of {other} (fraction)")
        ax.set_ylabel(f"accuracy of {reference} (fraction)")
        ax.grid(True, lw=0.3, color="0.85")
        ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def _ratio_panel(ax, ratio, order, ylabel, title, better_below, reference):
    r = ratio.reindex(order)
    x = np.arange(len(r))
    v = r.to_numpy(dtype=float)
    better = v < 1 if better_below else v > 1
    worse = v > 1 if better_below else v < 1
    ax.axhline(1.0, color="black", lw=1)
    ax.axhline(float(np.nanmean(v)), color="tab:red", lw=1, ls="--",
               label=f"mean {float(np.nanmean(v)):.3f}")
    for mask, color, name in ((better, "tab:blue", f"better than {reference}"),
                              (worse, "tab:orange", f"worse than {reference}"),
                              (~better & ~worse, "0.6", "equal")):
        if mask.any():
            ax.scatter(x[mask], v[mask], s=20, color=color, zorder=3, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(r.index, rotation=90, fontsize=6)
    ax.set_xlim(-1, len(r))
    ax.set_ylabel(ylabel)
    ax.set_xlabel("data set (ordered by number of instances)")
    ax.set_title(title, fontsize="medium")
    ax.grid(True, axis="y", lw=0.3, color="0.85")
    ax.legend(loc="best", fontsize="x-small", frameon=False, ncol=2)


def aode_relative_brier(scores, sizes=None, reference="AODE",
                        others=("BMA-AODE", "COMP-AODE")):
    """Figure 4: Brier loss of each of ``others`` divided by that of ``reference``.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` (needs ``brier``).
    sizes : DataFrame or Series, optional
        Data set sizes (column ``n``) used to order the horizontal axis.
    reference : str
    others : sequence of str
        One panel each (own vertical scale).

    Returns
    -------
    matplotlib.figure.Figure
        Blue points (below 1) are data sets where the classifier beats ``reference``,
        orange ones where it loses.
    """
    import matplotlib.pyplot as plt

    ref = _col(scores, reference, "brier")
    order = _by_size(ref.index, sizes)
    fig, axes = plt.subplots(len(others), 1, figsize=(9, 3.3 * len(others)),
                             squeeze=False, constrained_layout=True)
    for ax, other in zip(axes[:, 0], others):
        ratio = _col(scores, other, "brier") / ref
        _ratio_panel(ax, ratio, order, f"Brier {other} / Brier {reference}",
                     f"{other} relative to {reference}", True, reference)
    return fig


def aode_determinacy(scores, sizes, classifiers=("BMA-AODE*", "COMP-AODE*")):
    """Determinacy of the credal classifiers against the number of instances.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    sizes : DataFrame or Series
        Number of instances per data set (column ``n``).
    classifiers : sequence of str

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    n = pd.Series(sizes["n"] if isinstance(sizes, pd.DataFrame) else sizes, dtype=float)
    fig, ax = plt.subplots(figsize=(7.5, 4.4), constrained_layout=True)
    markers = ["o", "s", "^", "D"]
    for i, c in enumerate(classifiers):
        det = 100 * _col(scores, c, "determinacy")
        ax.scatter(n.reindex(det.index), det, s=26, marker=markers[i % len(markers)],
                   alpha=0.8, label=f"{c} (mean {det.mean():.1f}%)")
    worst = 100 * _col(scores, classifiers[0], "determinacy")
    for name in worst.nsmallest(4).index:
        ax.annotate(name, (n[name], worst[name]), fontsize=7, xytext=(4, -3),
                    textcoords="offset points", color="0.3")
    ax.set_xscale("log")
    ax.set_xlabel("number of instances n (log scale)")
    ax.set_ylabel("determinacy (% of instances given one class)")
    ax.grid(True, lw=0.3, color="0.85")
    ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def aode_safe_vs_prior_dependent(scores, classifiers=("BMA-AODE*", "COMP-AODE*"),
                                 counterparts=None):
    """Figure 5: precise accuracy on the safe vs the prior-dependent instances.

    For each credal classifier, its precise counterpart's accuracy on the instances
    the credal classifier answers with one class (safe) is plotted against its
    accuracy on those it answers with several (prior-dependent); data sets without
    prior-dependent instances are left out.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    classifiers : sequence of str
        Credal classifiers, one panel each.
    counterparts : dict, optional
        Display name of each precise counterpart (default: name without ``*``).

    Returns
    -------
    matplotlib.figure.Figure
        Marker area grows with the number of prior-dependent instances.
    """
    import matplotlib.pyplot as plt

    counterparts = counterparts or {}
    fig, axes = plt.subplots(1, len(classifiers), figsize=(4.6 * len(classifiers), 4.5),
                             squeeze=False, constrained_layout=True)
    for ax, c in zip(axes[0], classifiers):
        p = counterparts.get(c, c.rstrip("*"))
        safe = _col(scores, c, "precise_on_determinate")
        dep = _col(scores, c, "precise_on_indeterminate")
        n_ind = _col(scores, c, "n_indeterminate")
        ok = dep.notna() & safe.notna()
        ax.plot([0, 1], [0, 1], color="black", lw=1, label="bisector")
        ax.scatter(dep[ok], safe[ok], s=8 + 4 * np.sqrt(n_ind[ok].astype(float)),
                   color="tab:purple", alpha=0.6, edgecolors="none",
                   label=f"one data set ({int(ok.sum())})")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        ax.set_xlabel("accuracy on prior-dependent instances (fraction)")
        ax.set_ylabel("accuracy on safe instances (fraction)")
        ax.set_title(f"accuracy of {p}\n(instances split by {c})", fontsize="medium")
        ax.grid(True, lw=0.3, color="0.85")
        ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def aode_relative_utility(scores, sizes=None,
                          pairs=(("BMA-AODE*", "BMA-AODE"), ("COMP-AODE*", "COMP-AODE")),
                          utilities=("u65", "u80")):
    """Figure 6: utility of each credal classifier over its counterpart's accuracy.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    sizes : DataFrame or Series, optional
        Data set sizes (column ``n``) used to order the horizontal axes.
    pairs : sequence of (credal, precise)
        One row of panels each.
    utilities : sequence of str
        One column of panels each.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(pairs), len(utilities),
                             figsize=(5.6 * len(utilities), 3.4 * len(pairs)),
                             squeeze=False, constrained_layout=True)
    for row, (c, p) in zip(axes, pairs):
        acc = _col(scores, p, "accuracy")
        order = _by_size(acc.index, sizes)
        for ax, u in zip(row, utilities):
            ratio = _col(scores, c, u) / acc
            _ratio_panel(ax, ratio, order, f"{u} of {c} /\naccuracy of {p}",
                         f"{c}, {u}", False, p)
    return fig


def aode_friedman_ranks(ranks, classifiers, utilities=None):
    """Figure 7: average Friedman ranks with critical-difference bars.

    Each classifier's average rank is a dot; around it, one bar per level spans
    ``rank ± CD/2``, so two classifiers differ significantly at that level when
    their bars of that level do not overlap (the paper's display).

    Parameters
    ----------
    ranks : DataFrame
        The ``ranks`` table of :func:`friedman_tables` (one row per
        utility; columns = classifiers and ``cd_<level>``).
    classifiers : sequence of str
    utilities : sequence of str, optional
        Rows of ``ranks`` to draw, one panel each (default: all).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    utilities = list(ranks.index) if utilities is None else list(utilities)
    levels = [c for c in ranks.columns if str(c).startswith("cd_")]
    k = len(classifiers)
    fig, axes = plt.subplots(1, len(utilities), figsize=(4.8 * len(utilities), 0.9 + 0.6 * k),
                             squeeze=False, constrained_layout=True)
    # thin bars for the first level (e.g. 95%), thicker for the next ones
    widths = np.linspace(1.5, 5.0, len(levels)) if levels else []
    for ax, u in zip(axes[0], utilities):
        r = ranks.loc[u]
        for i, c in enumerate(classifiers):
            for level, w in zip(levels, widths):
                half = float(r[level]) / 2
                ax.plot([r[c] - half, r[c] + half], [i, i], lw=w, alpha=0.45,
                        color="tab:blue", solid_capstyle="butt",
                        label=f"± CD/2, {level[3:]} confidence" if i == 0 else None)
            ax.plot([r[c]], [i], "o", color="black", ms=6)
        ax.set_yticks(range(k))
        ax.set_yticklabels(classifiers)
        ax.set_ylim(-0.6, k - 0.4)
        ax.set_xlim(0.6, k + 0.4)
        ax.set_xlabel("average rank over data sets (1 = best)")
        ax.set_ylabel("classifier")
        ax.set_title(f"ranks under {u}", fontsize="medium")
        ax.grid(True, axis="x", lw=0.3, color="0.85")
    axes[0, 0].legend(loc="upper right", fontsize="x-small", frameon=False)
    return fig


def aode_bayesian_comparisons(table):
    """Bayesian signed-rank posterior probabilities of paired comparisons.

    Parameters
    ----------
    table : DataFrame
        :func:`wilcoxon_table` (or
        :func:`credal.comparisons.paired_comparisons`): ``label``, ``p_a_better``,
        ``p_rope``, ``p_b_better``.

    Returns
    -------
    matplotlib.figure.Figure
        One stacked bar per comparison: P(a better), P(practically equivalent),
        P(b better).
    """
    import matplotlib.pyplot as plt

    t = table.dropna(subset=["p_a_better"])
    y = np.arange(len(t))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.9 + 0.32 * len(t)), constrained_layout=True)
    left = np.zeros(len(t))
    for col, color, name in (("p_a_better", "tab:blue", "a better"),
                             ("p_rope", "0.75", "practically equivalent"),
                             ("p_b_better", "tab:orange", "b better")):
        v = t[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=color, label=name, height=0.7)
        left += v
    ax.set_yticks(y)
    ax.set_yticklabels(t["label"], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("posterior probability (Bayesian signed-rank test)")
    ax.set_ylabel("comparison (a vs b)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize="small",
              frameon=False)
    return fig
