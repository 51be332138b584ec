"""Audits of the robust-bayes chapter's differences (issue 24), outside the chapter module.

:func:`gain_audit` reruns annealing's four classifiers under the settings the paper leaves open
(bin count, a cut that is not the paper's, the attribute domains of the file or of anneal's
documentation); :func:`multiclass_gain_audit` reruns RBC_u's gain over NBC_m on the data sets
with three or more classes under two other readings (the paper's printed form of the
complete-admissible score, :func:`printed_score`, which ranks like ours for two classes only,
and NBC_m with one prior count per cell); :func:`consistency_table` checks the paper's own Tables 1 and 2 against the identity
of its Eq. 14; :func:`audit_numbers` formats what the chapter's text quotes of them.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from credal import datasets
from credal.experiments import fold_splits
from credal.preprocessing import make_preprocessor
from credal.robust import NaiveBayesMissing, RobustBayes

__all__ = ["GAIN_CUTS", "declared_domains", "gain_audit", "printed_score",
           "multiclass_gain_audit", "consistency_table", "audit_numbers", "table_numbers"]

_TABLE1, _TABLE2 = "ramoni_table1_accuracy_coverage", "ramoni_table2_residual"

#: the gain audit's discretisations, (label, method, bins); MDL is not the paper's rule (its
#: bins hold equal proportions of the entries) but is where its RBC_u accuracy comes out
GAIN_CUTS = (("3 bins", "equal-frequency", 3), ("5 bins", "equal-frequency", 5),
             ("10 bins", "equal-frequency", 10), ("MDL (not the paper's)", "mdl", 5))


def declared_domains(Xtr, Xte):
    """``(Xtr, Xte)`` (DataFrames of categoricals, NaN = missing) with the value ``"-"`` (not
    applicable) added to every nominal attribute with a missing cell in ``Xtr``: anneal's
    documentation declares "-" in the domain of every such attribute, and its file writes each
    "-" as "?", so a completion may take "-" where the file's domain has no such value."""
    cols = [c for c in Xtr.columns
            if isinstance(Xtr[c].dtype, pd.CategoricalDtype) and Xtr[c].isna().any()]
    return tuple(X.assign(**{c: X[c].cat.add_categories("-") for c in cols}) for X in (Xtr, Xte))


def gain_audit(X, y, splits, alpha=1.0):
    """Annealing's four classifiers under every cut of :data:`GAIN_CUTS` and two attribute
    domains (the file's; the documentation's, :func:`declared_domains`).

    Parameters
    ----------
    X : DataFrame, shape (n_samples, n_features)
        Categoricals and floats, NaN where missing.
    y : Series, shape (n_samples,)
        Class, every row labelled.
    splits : list of (ndarray, ndarray)
        (train, test) row indices of the folds.
    alpha : float
        Global prior precision of every classifier.

    Returns
    -------
    DataFrame
        Index (``discretisation``, ``domain``); ``NBC_m``, ``NBC_*``, ``RBC_d`` (accuracy on
        the cases it classifies), ``RBC_d coverage``, ``RBC_u`` (%, pooled over the folds) and
        ``RBC_u - NBC_m`` (points).
    """
    rows = []
    for (cut, how, bins), domain in itertools.product(GAIN_CUTS, ("file", "documentation")):
        hit = {k: [] for k in ("NBC_m", "NBC_*", "RBC_d", "RBC_d coverage", "RBC_u")}
        for tr, te in splits:
            prep = make_preprocessor(impute=False, discretize=how, n_bins=bins,
                                     drop_single=False)
            Xtr, Xte = prep.fit_transform(X.iloc[tr], y.iloc[tr]), prep.transform(X.iloc[te])
            if domain == "documentation":
                Xtr, Xte = declared_domains(Xtr, Xte)
            truth, ytr = y.iloc[te].astype(str).to_numpy(), y.iloc[tr]
            for k, strategy in (("NBC_m", "ignore"), ("NBC_*", "category")):
                nb = NaiveBayesMissing(strategy, alpha).fit(Xtr, ytr)
                hit[k].append(np.asarray(nb.predict(Xte)).astype(str) == truth)
            sets = (rbc := RobustBayes(alpha).fit(Xtr, ytr)).predict_set(Xte)
            hit["RBC_d coverage"].append(one := sets.sum(axis=1) == 1)
            hit["RBC_d"].append((rbc.classes_[sets.argmax(axis=1)].astype(str) == truth)[one])
            hit["RBC_u"].append(np.asarray(rbc.predict(Xte)).astype(str) == truth)
        r = {k: 100 * float(np.concatenate(v).mean()) for k, v in hit.items()}
        rows.append({"discretisation": cut, "domain": domain, **r,
                     "RBC_u - NBC_m": r["RBC_u"] - r["NBC_m"]})
    return pd.DataFrame(rows).set_index(["discretisation", "domain"])


def printed_score(lower, upper):
    """The complete-admissible score in the form the paper prints (Definition 4).

    ``p_sup - k (p_sup - p_inf)`` with ``k = (1 - sum_h p_inf) / sum_h (p_sup - p_inf)``.
    Its rows sum to ``sum p_sup + sum p_inf - 1``, which is 1 for two classes (there ``k =
    1/2`` and it ranks the classes as the sum-to-one form ``p_inf + k (p_sup - p_inf)`` of
    :meth:`credal.robust.RobustBayes.complete_admissible_score` does); with three or more
    classes it can rank them differently. Rows with zero widths give the posterior.

    Parameters
    ----------
    lower, upper : ndarray, shape (n_samples, n_classes)
        Posterior intervals (:meth:`credal.robust.RobustBayes.predict_interval`).

    Returns
    -------
    ndarray, shape (n_samples, n_classes)
    """
    width = upper - lower
    total = width.sum(axis=1, keepdims=True)
    k = np.divide(1.0 - lower.sum(axis=1, keepdims=True), total, out=np.zeros_like(total),
                  where=total > 0)
    return upper - np.clip(k, 0.0, 1.0) * width


def multiclass_gain_audit(data, *, n_splits=5, n_repeats=1, random_state=0, n_bins=5,
                          alpha=1.0):
    """RBC_u's gain over NBC_m on multi-class data sets under two other readings.

    The paper's gains agree with ours on its binary data sets, not on its multi-class ones.
    This reruns those data sets on the given folds with ours, with RBC_u deciding by
    :func:`printed_score` (which ranks the classes as ours does only for two classes), and
    with NBC_m at one prior count per cell (Weka's and JNCC2's naive Bayes) instead of the
    paper's ``alpha / (q r_i)``.

    Parameters
    ----------
    data : list of (str, DataFrame, Series)
        ``(label, X, y)``: categoricals and floats, NaN where missing; rows without a class
        are left out, as the chapter's main run drops them.
    n_splits, n_repeats, random_state : int
        The folds, :func:`credal.experiments.fold_splits` of the labelled rows (those of the
        chapter's main run for its parameters).
    n_bins : int
        Equal-frequency bins per numeric attribute, fitted on each training fold.
    alpha : float
        Global prior precision of every classifier.

    Returns
    -------
    DataFrame
        Index ``data set`` (the labels, then ``mean``); ``classes``, then the gains in points
        (pooled over the folds): ``ours``, ``printed score`` (RBC_u by :func:`printed_score`)
        and ``NBC_m, 1 per cell``.
    """
    rows = {}
    for label, X, y in data:
        X, y = (v.loc[y.notna().to_numpy()].reset_index(drop=True) for v in (X, y))
        hit = {k: [] for k in ("NBC_m", "NBC_m, 1 per cell", "RBC_u", "printed")}
        for *_, tr, te in fold_splits(y, n_splits=n_splits, n_repeats=n_repeats,
                                      random_state=random_state):
            prep = make_preprocessor(impute=False, discretize="equal-frequency", n_bins=n_bins,
                                     drop_single=False)
            Xtr, Xte = prep.fit_transform(X.iloc[tr], y.iloc[tr]), prep.transform(X.iloc[te])
            truth, ytr = y.iloc[te].astype(str).to_numpy(), y.iloc[tr]
            for k, prior in (("NBC_m", "perks"), ("NBC_m, 1 per cell", "laplace")):
                nb = NaiveBayesMissing("ignore", alpha, prior=prior).fit(Xtr, ytr)
                hit[k].append(np.asarray(nb.predict(Xte)).astype(str) == truth)
            rbc = RobustBayes(alpha).fit(Xtr, ytr)
            hit["RBC_u"].append(np.asarray(rbc.predict(Xte)).astype(str) == truth)
            score = printed_score(*rbc.predict_interval(Xte))
            hit["printed"].append(rbc.classes_[score.argmax(axis=1)].astype(str) == truth)
        r = {k: 100 * float(np.concatenate(v).mean()) for k, v in hit.items()}
        rows[label] = {"classes": int(y.nunique()), "ours": r["RBC_u"] - r["NBC_m"],
                       "printed score": r["printed"] - r["NBC_m"],
                       "NBC_m, 1 per cell": r["RBC_u"] - r["NBC_m, 1 per cell"]}
    out = pd.DataFrame.from_dict(rows, orient="index").rename_axis("data set")
    if len(out):
        out.loc["mean"] = out.drop(columns="classes").mean()
    return out


def _fmt(v, digits=1, sign=False):
    """``v`` to ``digits`` decimals (signed if ``sign``) for the text; "n/a" when missing."""
    return "n/a" if v is None or not np.isfinite(v) else f"{v:{'+' if sign else ''}.{digits}f}"


def consistency_table(table1=None, table2=None):
    """The paper's Tables 1 and 2 against the identity behind Eq. 14.

    Every class is observed in the paper's data sets, so NBC_m's estimates lie inside RBC's
    intervals and NBC_m gives RBC_d's class wherever RBC_d classifies: NBC_m's accuracy cannot
    fall below RBC_d's correct share ``theta_d gamma_d``, i.e. NBC_m's residual (Eq. 14) cannot
    be negative beyond the rounding of the printed values (half a unit of their last digit).

    Parameters
    ----------
    table1, table2 : DataFrame, optional
        The published tables, one row per data set, column ``dataset``; default
        ``data/published/ramoni_table1_accuracy_coverage.csv`` and
        ``ramoni_table2_residual.csv``.

    Returns
    -------
    DataFrame
        Index ``data set (paper)``: ``RBC_d correct share`` (%), ``NBC_m`` (%), ``NBC_m
        residual (Eq. 14)`` (from Table 1), ``NBC_m residual (Table 2)`` (as printed), ``gain
        (Table 1)`` (RBC_u minus NBC_m, points), ``gain (Table 2)`` (the difference of Table
        2's RBC_u and NBC_m residuals times the unclassified share, points), ``consistent``.
    """
    table1 = datasets.published(_TABLE1) if table1 is None else table1
    table2 = datasets.published(_TABLE2) if table2 is None else table2
    p1 = table1.set_index("dataset")
    p2 = table2.set_index("dataset").reindex(p1.index)
    share, unclassified = p1["RBCd_acc"] * p1["RBCd_cov"] / 100, 100 - p1["RBCd_cov"]
    slack = 0.005 + 0.005 * (p1["RBCd_acc"] + p1["RBCd_cov"]) / 100  # rounding, points
    return pd.DataFrame({
        "RBC_d correct share": share, "NBC_m": p1["NBCm_acc"],
        "NBC_m residual (Eq. 14)": (p1["NBCm_acc"] - share) / unclassified,
        "NBC_m residual (Table 2)": p2["NBCm_residual_acc"],
        "gain (Table 1)": p1["RBCu_acc"] - p1["NBCm_acc"],
        "gain (Table 2)": (p2["RBCu_residual_acc"] - p2["NBCm_residual_acc"]) * unclassified,
        "consistent": p1["NBCm_acc"] - share >= -slack}).rename_axis("data set (paper)")


def audit_numbers(gain, consistency=None):
    """What the chapter's text quotes of the two audits (strings, "n/a" when not run).

    Parameters
    ----------
    gain : DataFrame
        :func:`gain_audit` output (may be empty).
    consistency : DataFrame, optional
        :func:`consistency_table` output (default: of the published tables).

    Returns
    -------
    dict of str -> str
        ``aud_gain_gain``, ``aud_gain_m``, ``aud_gain_u`` (ranges of the gain, NBC_m and RBC_u
        over the settings), ``aud_mdl_NBC_m``, ``aud_mdl_RBC_u`` (under MDL, the file's
        domains); ``cons_n`` (rows checked), ``cons_bad`` (those breaking the identity),
        ``cons_heartc_share``, ``cons_heartc_resid``, ``cons_heartc_gain1``,
        ``cons_heartc_gain2`` (HeartC's row).
    """
    out, ok = {}, len(gain) > 0
    for k, col in (("gain", "RBC_u - NBC_m"), ("m", "NBC_m"), ("u", "RBC_u")):
        out[f"aud_gain_{k}"] = (f"{_fmt(gain[col].min(), sign=k == 'gain')} to "
                                f"{_fmt(gain[col].max(), sign=k == 'gain')}" if ok else "n/a")
    mdl = gain.xs("file", level="domain").loc[GAIN_CUTS[-1][0]] if ok else {}
    out.update({f"aud_mdl_{k}": _fmt(mdl[k]) if ok else "n/a" for k in ("NBC_m", "RBC_u")})
    consistency = consistency_table() if consistency is None else consistency
    h = consistency.loc["HeartC"]
    return {**out, "cons_n": str(len(consistency)),
            "cons_bad": ", ".join(consistency.index[~consistency["consistent"]]) or "none",
            **{f"cons_heartc_{k}": _fmt(float(h[col]), digits=2) for k, col in (
                ("share", "RBC_d correct share"), ("resid", "NBC_m residual (Eq. 14)"),
                ("gain1", "gain (Table 1)"), ("gain2", "gain (Table 2)"))}}


def table_numbers(tables):
    """What the chapter's text quotes of its audits (strings, "n/a" when one was not run).

    Parameters
    ----------
    tables : dict of str -> DataFrame
        The chapter's tables: ``audit_arrhythmia``, ``audit_annealing``,
        ``audit_annealing_gain``, ``audit_multiclass_gain``, ``paper_consistency`` (each
        optional).

    Returns
    -------
    dict of str -> str
        ``aud_arr_rule``, ``aud_arr_completion`` (arrhythmia's coverage at 5 bins under each
        rule, %) and their ``_range`` over the bin counts, ``aud_arr_none`` (its cases without
        a missing value); ``aud_ann_m``, ``aud_ann_s`` (annealing's NBC_m and NBC_* ranges);
        ``aud_mc_ours``, ``aud_mc_printed``, ``aud_mc_laplace`` (the multi-class audit's mean
        gains, points); and :func:`audit_numbers`'s keys.
    """
    arr, ann, out = tables.get("audit_arrhythmia", []), tables.get("audit_annealing", []), {}
    for key in ("our rule", "every completion"):
        a = arr[f"RBC_d coverage, {key}"].xs("all cases", level="cases") if len(arr) else []
        out.update({f"aud_arr_{key.split()[-1]}": _fmt(a.get(5)) if len(a) else "n/a",
                    f"aud_arr_{key.split()[-1]}_range": f"{_fmt(min(a))}–{_fmt(max(a))}"
                    if len(a) else "n/a"})
    out["aud_arr_none"] = _fmt(arr["RBC_d coverage, our rule"].get((5, "no missing value"))
                              if len(arr) else None)
    for key in ("NBC_m", "NBC_*"):
        a = ann[[key, f"{key}, 1 per cell"]] if len(ann) else None
        out[f"aud_ann_{key[-1]}".replace("*", "s")] = (
            f"{_fmt(a.min().min())}–{_fmt(a.max().max())}" if len(ann) else "n/a")
    mc = tables.get("audit_multiclass_gain", pd.DataFrame())
    for key, col in (("ours", "ours"), ("printed", "printed score"),
                     ("laplace", "NBC_m, 1 per cell")):
        out[f"aud_mc_{key}"] = _fmt(mc.loc["mean", col], 2, sign=True) if "mean" in mc.index \
            else "n/a"
    return {**out, **audit_numbers(tables.get("audit_annealing_gain", pd.DataFrame()),
                                   tables.get("paper_consistency"))}
