"""Set-valued chapter: credal classifiers, conformal prediction and credible sets side by side.

Serves ``notebooks/set-valued.md`` (no single paper). On Corani & Antonucci's data sets,
with the leaderboard's data loading, preprocessing and folds (its first cross-validation
run), the credal classifiers NCC, LNCC, COMP-AODE*, CMA and the credal tree meet
:class:`credal.ConformalClassifier` (MAPIE's LAC and APS on naive Bayes and on AODE),
:class:`credal.CredibleSet` (naive Bayes, AODE) and :class:`credal.NestedConformal` over
NCC's ``s``. Here: the line-up (:func:`classifiers`), the runs (:func:`run`), the tables
(:func:`tables`), the numbers the text quotes (:func:`numbers`) and three figures.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pandas as pd

import credal
from credal import comparisons, datasets
from credal.chapters import leaderboard
from credal.chapters._display import TEXT_WIDTH

__all__ = ["classifiers", "run", "tables", "numbers", "coverage_figure", "sweep_figure",
           "disagreement_figure"]

#: the credal classifiers (the leaderboard's estimators, so its cached folds are reused)
CREDAL = ("NCC", "LNCC", "COMP-AODE*", "CMA", "CDT")
#: the MAPIE conformal line-up: (name, method, base classifier)
CONFORMAL = (("LAC (NB)", "lac", "NB"), ("APS (NB)", "aps", "NB"),
             ("LAC (AODE)", "lac", "AODE"), ("APS (AODE)", "aps", "AODE"))
CREDIBLE = (("credible (NB)", "NB"), ("credible (AODE)", "AODE"))
NESTED = "nested NCC"
#: NCC's s for the nested family: from nearly naive Bayes to very cautious
S_GRID = tuple(np.geomspace(1e-3, 1e3, 25).round(6).tolist())
FAMILIES = {**{c: "credal" for c in CREDAL}, **{c[0]: "conformal" for c in CONFORMAL},
            **{c[0]: "credible" for c in CREDIBLE}, NESTED: "nested conformal"}
#: the knob of each method swept in part (b): (parameter, values from small to large sets)
SWEEPS = {"NCC": ("s", (0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0)),
          "LNCC": ("alpha", (0.99, 0.9, 0.75, 0.5, 0.25, 0.1)),
          "LAC (NB)": ("alpha", (0.3, 0.2, 0.15, 0.1, 0.05)),
          "credible (NB)": ("mass", (0.6, 0.8, 0.9, 0.95, 0.99, 0.999)),
          NESTED: ("alpha", (0.3, 0.2, 0.1, 0.05))}
METRICS = ("coverage", "set_size", "empty_sets", "determinacy", "single_accuracy", "u65", "u80")


def _base(kind):
    return credal.NaiveBayes() if kind == "NB" else credal.AODE()


def _set_predictors(alpha, aps=True, seed=0):
    """The line-up that depends on ``alpha`` (credible sets at mass ``1 - alpha``); APS
    becomes LAC where it is undefined (``aps=False``)."""
    out = {name: credal.ConformalClassifier(_base(base), alpha=alpha,
                                            method=method if aps else "lac", random_state=seed)
           for name, method, base in CONFORMAL}
    out.update({name: credal.CredibleSet(_base(base), mass=round(1 - alpha, 10))
                for name, base in CREDIBLE})
    out[NESTED] = credal.NestedConformal(credal.NCC(), "s", list(S_GRID), alpha=alpha,
                                         random_state=seed)
    return out


def classifiers(alpha=0.1, n_features=None, aps=True, seed=0) -> dict:
    """The line-up at one ``alpha``: the credal classifiers, then the set predictors.

    Parameters
    ----------
    alpha : float
        Miscoverage of the conformal sets (credible sets at mass ``1 - alpha``).
    n_features : int, optional
        Features of the data set (the SPODE ensembles' ε, as in the leaderboard).
    aps : bool
        False where APS is undefined (fewer than three classes with three rows): the
        APS entries are then LAC.
    seed : int
        Seed of the calibration splits.

    Returns
    -------
    dict of str -> estimator
    """
    credal_ = {n: e for n, e in leaderboard.classifiers(CREDAL, n_features=n_features).items()
               if n in CREDAL}
    return {**credal_, **_set_predictors(alpha, aps, seed)}


def _sweep_lineup(n_features, seed):
    """Every knob value of :data:`SWEEPS` as an estimator named ``"<method> <knob>=<v>"``."""
    base = classifiers(0.1, n_features, seed=seed)
    return {f"{name} {knob}={v:g}": base[name].__class__(
                **{**base[name].get_params(deep=False), knob: v})
            for name, (knob, values) in SWEEPS.items() for v in values}


# ---------------------------------------------------------------------- run

#: Output of :func:`run`: ``folds`` (the engine's fold rows with ``alpha``), ``sweep`` (fold
#: rows of the sweep), ``predictions`` (per test instance at the first alpha, NCC and the
#: NB-based set predictors), ``info`` (the data sets), ``params``.
_Result = namedtuple("_Result", "folds sweep predictions info params")

_KEEP = ("NCC", "LAC (NB)", "APS (NB)", "credible (NB)", NESTED)


def _observed(ds):
    """The data set as the leaderboard hands it to the engine (classes that occur only),
    so that the fold cache keys are the same."""
    y = ds.y.cat.remove_unused_categories() if isinstance(ds.y.dtype, pd.CategoricalDtype) \
        else ds.y
    return ds.name, ds.X, y


def _aps_defined(y) -> bool:
    """APS needs three classes in every calibration part: three classes of >= 3 rows."""
    return int((pd.Series(y).value_counts() >= 3).sum()) >= 3


def _smallest_calibration(y, kw) -> int:
    """Fewest calibration rows of the set predictors over the folds of ``y``."""
    from credal.conformal import calibration_split
    from credal.experiments import fold_splits

    y = pd.Series(y).dropna().reset_index(drop=True)
    return min(len(calibration_split(y.iloc[tr], 0.3, 0)[1]) for _, _, tr, _ in fold_splits(
        y, n_splits=kw["n_splits"], n_repeats=kw["n_repeats"], random_state=kw["random_state"]))


def _calibrated(alpha, n_cal) -> bool:
    """MAPIE calibrates at ``alpha`` (no vacuous set, no warning) with ``n_cal`` rows."""
    return n_cal >= max(1 / alpha, 1 / (1 - alpha))


def _run_dataset(ds, alphas, sweep, kw):
    """The folds of one data set. Where a fold's calibration part is smaller than
    ``1/alpha`` the conformal answer would be every class (with a warning): the set
    predictors do not run at that alpha on that data set, and the tables say so."""
    from credal.experiments import cross_validate

    item = _observed(ds)
    aps, m = _aps_defined(item[2]), ds.X.shape[1]
    n_cal = _smallest_calibration(item[2], kw)
    folds, preds = [], None
    for i, alpha in enumerate(alphas):
        if i and not _calibrated(alpha, n_cal):
            continue
        est = classifiers(alpha, m, aps=aps) if i == 0 else _set_predictors(alpha, aps)
        if not _calibrated(alpha, n_cal):
            est = {k: v for k, v in est.items() if k in CREDAL}
        res = cross_validate(est, item, keep_predictions=i == 0, **kw)
        folds.append(res.folds.assign(alpha=alpha))
        if i == 0:
            p = res.predictions
            preds = p.loc[p["classifier"].isin(_KEEP), ["dataset", "classifier", "repeat", "fold",
                                                       "row", "y_true", "y_pred", "set_size",
                                                       "in_set"]]
    sw = None
    if sweep:
        lineup = {k: v for k, v in _sweep_lineup(m, 0).items()
                  if "alpha" not in v.get_params() or k.startswith("LNCC")
                  or _calibrated(v.alpha, n_cal)}
        sw = cross_validate(lineup, item, keep_predictions=False, **kw).folds
    return pd.concat(folds, ignore_index=True), sw, preds, aps, n_cal


def run(data, *, alphas=(0.1, 0.05), sweep_data=None, n_splits=5, n_repeats=1,
        random_state=0, n_jobs=1, cache_dir=None) -> _Result:
    """Cross-validate the line-up on every data set, and the knob sweep on some.

    Every data set goes through :func:`credal.experiments.cross_validate` with the
    leaderboard's protocol (MDL inside each training fold, single-category features
    dropped, unused classes removed) and its folds: ``n_repeats`` runs of stratified
    ``n_splits``-fold cross-validation from ``random_state`` (the leaderboard's first
    run with the defaults), so the credal classifiers' folds come from the shared cache.

    Parameters
    ----------
    data : list of str
        Catalogue names.
    alphas : sequence of float
        Miscoverage levels; the first is the one the per-instance comparison uses.
    sweep_data : list of str, optional
        Data sets of the knob sweep (:data:`SWEEPS`); None = all of ``data``.
    n_splits, n_repeats, random_state, n_jobs, cache_dir
        The folds, joblib workers and the fold cache.

    Returns
    -------
    _Result
    """
    kw = dict(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state,
              n_jobs=n_jobs, cache_dir=cache_dir, progress=False)
    sweep_data = set(data if sweep_data is None else sweep_data)
    folds, sweeps, preds, info = [], [], [], []
    for name in data:
        ds = datasets.load(name)
        f, sw, p, aps, n_cal = _run_dataset(ds, tuple(alphas), name in sweep_data, kw)
        folds.append(f)
        preds.append(p)
        if sw is not None:
            sweeps.append(sw)
        y = _observed(ds)[2].dropna()
        info.append({"dataset": name, "n": len(y), "features": ds.X.shape[1],
                     "classes": int(y.nunique()), "APS": "APS" if aps else "LAC",
                     "calibration rows": n_cal, "alphas calibrated": ", ".join(
                         f"{a:g}" for a in alphas if _calibrated(a, n_cal)),
                     "sweep": name in sweep_data})
    params = dict(alphas=tuple(alphas), n_splits=n_splits, n_repeats=n_repeats,
                  random_state=random_state)
    return _Result(pd.concat(folds, ignore_index=True),
                   pd.concat(sweeps, ignore_index=True) if sweeps else pd.DataFrame(),
                   pd.concat(preds, ignore_index=True),
                   pd.DataFrame(info).set_index("dataset"), params)


# ------------------------------------------------------------------- tables

def _scores(folds, by=("dataset", "classifier")) -> pd.DataFrame:
    """Per group: the pooled metrics of :func:`credal.comparisons.dataset_scores`, with the
    mean set size and the share of empty sets (weighted by test rows)."""
    s = comparisons.dataset_scores(folds, by=by)
    w = folds["n_test"].to_numpy(dtype=float)
    extra = folds[list(by)].assign(**{c: folds[c].to_numpy(dtype=float) * w
                                      for c in ("set_size", "empty_sets")}, w=w)
    g = extra.groupby(list(by), sort=True).sum()
    for c in ("set_size", "empty_sets"):
        s[c] = g[c] / g["w"]
    return s


def _dataset_scores(folds, info) -> pd.DataFrame:
    """Per (alpha, data set, classifier): :data:`METRICS` and ``vacuous_folds`` (folds
    whose every set holds every class); the credal rows repeated at every alpha on the
    data sets where the set predictors ran at that alpha."""
    alphas = folds["alpha"].unique()
    first = folds[folds["alpha"] == alphas[0]]
    credal_ = first[first["classifier"].isin(CREDAL)]
    ran = {a: set(folds.loc[folds["alpha"] == a, "dataset"]) for a in alphas[1:]}
    folds = pd.concat([folds] + [credal_[credal_["dataset"].isin(ran[a])].assign(alpha=a)
                                 for a in alphas[1:]], ignore_index=True)
    s = _scores(folds, by=("alpha", "dataset", "classifier"))[list(METRICS)]
    k = folds["dataset"].map(info["classes"]).to_numpy(dtype=float)
    vac = folds.assign(vacuous_folds=folds["set_size"].to_numpy(dtype=float) >= k - 1e-9)
    s["vacuous_folds"] = vac.groupby(["alpha", "dataset", "classifier"])["vacuous_folds"].sum()
    s = s.reset_index()
    s["family"] = s["classifier"].map(FAMILIES)
    return s


def _summary(scores, alphas) -> pd.DataFrame:
    rows = []
    for (alpha, clf), g in scores.groupby(["alpha", "classifier"], sort=False):
        row = {"alpha": alpha, "classifier": clf, "family": FAMILIES[clf],
               "data sets": len(g)}
        row.update({m: g[m].mean() for m in METRICS})
        row["min coverage"] = g["coverage"].min()
        row["covered data sets"] = int((g["coverage"] >= 1 - alpha - 1e-12).sum())
        row["vacuous folds"] = int(g["vacuous_folds"].sum())
        rows.append(row)
    out = pd.DataFrame(rows)
    order = {c: i for i, c in enumerate(FAMILIES)}
    return out.sort_values(["alpha", "classifier"], key=lambda c: c.map(order) if
                           c.name == "classifier" else -c, kind="stable").reset_index(drop=True)


def _best(summary, alpha, family, metric):
    g = summary[(summary["alpha"] == alpha) & (summary["family"] == family)]
    return g.loc[g[metric].idxmax(), "classifier"]


def _bayes(scores, summary, alphas, rope, nsamples, random_state) -> pd.DataFrame:
    """Best credal against best conformal (by mean utility), per alpha and utility."""
    rows = []
    for alpha in alphas:
        s = scores[scores["alpha"] == alpha].set_index(["dataset", "classifier"])
        for metric in ("u65", "u80"):
            a, b = _best(summary, alpha, "credal", metric), _best(summary, alpha, "conformal",
                                                                    metric)
            r = comparisons.paired_comparisons(s, [{"a": a, "b": b, "metric": metric,
                                                     "label": metric}], rope=rope,
                                               nsamples=nsamples, random_state=random_state)
            rows.append(r.assign(alpha=alpha))
    return pd.concat(rows, ignore_index=True)


def _sweep_table(sweep) -> pd.DataFrame:
    if sweep.empty:
        return pd.DataFrame(columns=["method", "knob", "value", *METRICS])
    s = _scores(sweep)[list(METRICS)].groupby(level="classifier").mean()
    parts = s.index.to_series().str.rsplit(" ", n=1, expand=True)
    knob = parts[1].str.split("=", expand=True)
    out = s.assign(method=parts[0], knob=knob[0], value=knob[1].astype(float)).reset_index(
        drop=True)
    order = {m: i for i, m in enumerate(SWEEPS)}
    out["_rank"] = [order[m] * 100 + SWEEPS[m][1].index(v) for m, v in
                    zip(out["method"], out["value"])]
    return out.sort_values("_rank").drop(columns="_rank")[["method", "knob", "value",
                                                           *METRICS]].reset_index(drop=True)


def _disagreement(preds, info) -> pd.DataFrame:
    """Per data set: how the NB-based set predictors answer where NCC is indeterminate,
    and how NCC answers where the LAC set holds several classes."""
    key = ["dataset", "repeat", "fold", "row"]
    ncc = preds[preds["classifier"] == "NCC"].set_index(key)
    rows = []
    for other in ("LAC (NB)", "APS (NB)", "credible (NB)", NESTED):
        o = preds[preds["classifier"] == other].set_index(key).reindex(ncc.index)
        nb_right = (o["y_pred"].astype(str) == o["y_true"].astype(str))
        ind = ncc["set_size"] > 1
        o_ind = o["set_size"] > 1
        df = pd.DataFrame({"ncc_ind": ind, "other_cov_on_ncc_ind": o["in_set"].where(ind),
                           "other_single_on_ncc_ind": (o["set_size"] == 1).where(ind),
                           "nb_on_ncc_ind": nb_right.where(ind),
                           "other_ind": o_ind,
                           "ncc_cov_on_other_ind": ncc["in_set"].where(o_ind),
                           "ncc_single_on_other_ind": (ncc["set_size"] == 1).where(o_ind)})
        g = df.astype(float).groupby(level="dataset").mean()
        g["n_ncc_ind"] = df["ncc_ind"].groupby(level="dataset").sum()
        rows.append(g.assign(other=other))
    out = pd.concat(rows).reset_index()
    out["n"] = out["dataset"].map(info["n"])
    return out


def _by_size(dis, small=300) -> pd.DataFrame:
    """:func:`_disagreement` pooled over data sets (weighted by NCC's indeterminate
    instances) for small (<= ``small`` rows) and larger data sets."""
    d = dis.assign(size=np.where(dis["n"] <= small, f"<= {small} rows", f"> {small} rows"))
    rows = []
    for (other, size), g in d.groupby(["other", "size"], sort=False):
        w = g["n_ncc_ind"].to_numpy(dtype=float)
        ok = w > 0
        row = {"other": other, "size": size, "data sets": len(g),
               "NCC indeterminate": (g["ncc_ind"] * g["n"]).sum() / g["n"].sum()}
        for c in ("other_cov_on_ncc_ind", "other_single_on_ncc_ind", "nb_on_ncc_ind"):
            row[c] = np.average(g[c][ok], weights=w[ok]) if ok.any() else np.nan
        wo = (g["other_ind"] * g["n"]).to_numpy(dtype=float)
        oo = wo > 0
        for c in ("ncc_cov_on_other_ind", "ncc_single_on_other_ind"):
            row[c] = np.average(g[c][oo], weights=wo[oo]) if oo.any() else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def tables(results, rope=0.01, nsamples=50000, random_state=0) -> dict:
    """Every table the chapter shows, as DataFrames (see the notebook for each).

    Returns
    -------
    dict
        ``datasets``, ``protocol`` (the folds), ``dataset_scores`` (alpha x data set x classifier), ``summary``
        (means over data sets), ``bayes`` (best credal vs best conformal), ``sweep``
        (knob values, means over the sweep's data sets), ``disagreement`` (per data
        set) and ``disagreement_by_size``.
    """
    alphas = results.params["alphas"]
    scores = _dataset_scores(results.folds, results.info)
    summary = _summary(scores, alphas)
    dis = _disagreement(results.predictions, results.info)
    protocol = pd.DataFrame([{k: results.params[k] for k in ("n_splits", "n_repeats",
                                                             "random_state")}])
    return {"datasets": results.info.copy(), "protocol": protocol,
            "dataset_scores": scores, "summary": summary,
            "bayes": _bayes(scores, summary, alphas, rope, nsamples, random_state),
            "sweep": _sweep_table(results.sweep), "disagreement": dis,
            "disagreement_by_size": _by_size(dis)}


# ------------------------------------------------------------------ numbers

def _pct(x, d=1):
    return "–" if pd.isna(x) else f"{100 * x:.{d}f}"


def numbers(tables) -> dict:
    """Every number the text quotes, formatted, by name."""
    s, b, info = tables["summary"], tables["bayes"], tables["datasets"]
    a0 = s["alpha"].iloc[0]
    out = {"n_datasets": str(len(info)), "n_folds": str(tables["protocol"]["n_splits"].iloc[0]), "n_sweep": str(int(info["sweep"].sum())),
           "n_lac_for_aps": str(int((info["APS"] == "LAC").sum())),
           "alpha_main": f"{a0:g}", "level_main": f"{100 * (1 - a0):g}"}
    for alpha, g in s.groupby("alpha"):
        tag = f"{round(100 * alpha):02d}"
        g = g.set_index("classifier")
        for clf, key in (("NCC", "ncc"), ("LAC (NB)", "lac_nb"), ("APS (NB)", "aps_nb"),
                         ("LAC (AODE)", "lac_aode"), ("credible (NB)", "cred_nb"),
                         ("COMP-AODE*", "compaode"), (NESTED, "nested")):
            for m in ("coverage", "set_size", "determinacy", "u65", "u80", "empty_sets"):
                v = g.loc[clf, m]
                out[f"{key}_{m}_{tag}"] = f"{v:.2f}" if m == "set_size" else _pct(v)
            out[f"{key}_covered_{tag}"] = str(int(g.loc[clf, "covered data sets"]))
            out[f"{key}_mincov_{tag}"] = _pct(g.loc[clf, "min coverage"])
        for m in ("u65", "u80"):
            top = g["family"].eq("credal") | g["family"].eq("conformal")
            best = g[top][m].idxmax()
            out[f"best_{m}_{tag}"], out[f"best_{m}_value_{tag}"] = best, _pct(g.loc[best, m])
        cred = g[g["family"] == "credal"]
        out[f"credal_cov_range_{tag}"] = f"{_pct(cred['coverage'].min())}–" \
                                         f"{_pct(cred['coverage'].max())}"
    for _, r in b.iterrows():
        tag = f"{r['metric_a']}_{round(100 * r['alpha']):02d}"
        out[f"verdict_{tag}"] = _verdict(r)
        out[f"bayes_{tag}"] = (f"{r['a']} against {r['b']}: mean difference "
                               f"{100 * r['mean_difference']:+.1f} points, "
                               f"P({r['a']} better) = {r['p_a_better']:.2f}, "
                               f"P(equivalent) = {r['p_rope']:.2f}, "
                               f"P({r['b']} better) = {r['p_b_better']:.2f}")
    out.update(_sweep_numbers(tables["sweep"]))
    out.update(_disagreement_numbers(tables["disagreement_by_size"]))
    return out


def _verdict(r) -> str:
    """The Bayesian signed-rank test's answer in words (0.95 for a side, 0.9 for the
    region of practical equivalence)."""
    if r["p_a_better"] > 0.95:
        return f"{r['a']} (credal) is better than {r['b']} (conformal)"
    if r["p_b_better"] > 0.95:
        return f"{r['b']} (conformal) is better than {r['a']} (credal)"
    if r["p_rope"] > 0.9:
        return f"{r['a']} (credal) and {r['b']} (conformal) are practically equivalent"
    return (f"the test does not decide between {r['a']} (credal) and {r['b']} (conformal): "
            "no probability reaches 0.95")


def _sweep_numbers(sw) -> dict:
    out = {}
    for m, key in (("NCC", "ncc"), ("LAC (NB)", "lac"), ("credible (NB)", "cred"),
                   (NESTED, "nested"), ("LNCC", "lncc")):
        g = sw[sw["method"] == m]
        if g.empty:
            out.update({f"sweep_{key}_{x}": "–" for x in ("det_range", "u80_best", "u80_at")})
            continue
        out[f"sweep_{key}_det_range"] = f"{_pct(g['determinacy'].min())}–" \
                                        f"{_pct(g['determinacy'].max())}"
        i = g["u80"].idxmax()
        out[f"sweep_{key}_u80_best"] = _pct(g.loc[i, "u80"])
        out[f"sweep_{key}_u80_at"] = f"{g.loc[i, 'knob']} = {g.loc[i, 'value']:g}"
    return out


def _disagreement_numbers(d) -> dict:
    out = {}
    for _, r in d.iterrows():
        key = {"LAC (NB)": "lac", "APS (NB)": "aps", "credible (NB)": "cred",
               NESTED: "nested"}[r["other"]]
        size = "small" if r["size"].startswith("<=") else "large"
        out[f"dis_{key}_cov_{size}"] = _pct(r["other_cov_on_ncc_ind"])
        out[f"dis_{key}_single_{size}"] = _pct(r["other_single_on_ncc_ind"])
        out[f"dis_nb_{size}"] = _pct(r["nb_on_ncc_ind"])
        out[f"dis_ncc_ind_{size}"] = _pct(r["NCC indeterminate"])
        out[f"dis_{key}_ncc_cov_{size}"] = _pct(r["ncc_cov_on_other_ind"])
        out[f"dis_{key}_ncc_single_{size}"] = _pct(r["ncc_single_on_other_ind"])
        out[f"dis_n_{size}"] = str(int(r["data sets"]))
    return out


# ------------------------------------------------------------------ figures

_COLOURS = {"credal": "#1f77b4", "conformal": "#d62728", "credible": "#2ca02c",
            "nested conformal": "#9467bd"}


def coverage_figure(scores, alpha=0.1):
    """Coverage per data set (left) and mean set size against mean u80 (right) of every
    method at one ``alpha``; methods coloured by family."""
    import matplotlib.pyplot as plt

    s = scores[scores["alpha"] == alpha]
    order = [c for c in FAMILIES if c in set(s["classifier"])][::-1]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(TEXT_WIDTH, 4.4), width_ratios=(1.3, 1))
    rng = np.random.default_rng(0)
    for i, clf in enumerate(order):
        g = s[s["classifier"] == clf]
        colour = _COLOURS[FAMILIES[clf]]
        ax.scatter(g["coverage"], i + rng.uniform(-0.2, 0.2, len(g)), s=9, color=colour,
                   alpha=0.6, linewidths=0)
        ax.plot([g["coverage"].mean()] * 2, [i - 0.35, i + 0.35], color="black", lw=1.5)
    ax.axvline(1 - alpha, color="grey", ls="--", lw=1)
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("coverage per data set")
    ax.set_xlim(max(0.0, s["coverage"].min() - 0.02), 1.01)
    m = s.groupby("classifier")[["set_size", "u80"]].mean()
    for fam, colour in _COLOURS.items():
        g = m[m.index.map(FAMILIES) == fam]
        bx.scatter(g["set_size"], 100 * g["u80"], color=colour, label=fam, s=25)
        for clf, r in g.iterrows():
            bx.annotate(clf, (r["set_size"], 100 * r["u80"]), fontsize=7,
                        xytext=(3, 2), textcoords="offset points")
    bx.set_xlabel("mean set size")
    bx.set_ylabel("mean u80 (%)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.legend(*bx.get_legend_handles_labels(), loc="lower center", ncol=4, frameon=False)
    return fig


def sweep_figure(sweep):
    """u65 (left) and u80 (right) against determinacy as each method's knob moves."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(TEXT_WIDTH, 3.9), sharex=True)
    colours = dict(zip(SWEEPS, ("#1f77b4", "#17becf", "#d62728", "#2ca02c", "#9467bd")))
    for ax, u in zip(axes, ("u65", "u80")):
        for m, g in sweep.groupby("method", sort=False):
            knob = SWEEPS[m][0]
            ax.plot(100 * g["determinacy"], 100 * g[u], "o-", ms=3.5, color=colours[m],
                    label=f"{m} ({knob})")
        ax.set_xlabel("determinacy (%)")
        ax.set_ylabel(f"mean {u} (%)")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3,
               frameon=False)
    return fig


def disagreement_figure(dis, other="LAC (NB)"):
    """Per data set, against its size: where NCC is indeterminate, how often the
    ``other`` set holds the truth and is a single class (left); where ``other`` holds
    several classes, how often NCC's set holds the truth and is a single class (right)."""
    import matplotlib.pyplot as plt

    from matplotlib.ticker import NullFormatter, ScalarFormatter

    d = dis[dis["other"] == other]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(TEXT_WIDTH, 3.5), sharey=True)
    for axis, cov, single, title in (
            (ax, "other_cov_on_ncc_ind", "other_single_on_ncc_ind",
             f"where NCC is indeterminate: {other}"),
            (bx, "ncc_cov_on_other_ind", "ncc_single_on_other_ind",
             f"where {other} is indeterminate: NCC")):
        axis.scatter(d["n"], 100 * d[cov], s=14, color="#d62728", label="covers the truth")
        axis.scatter(d["n"], 100 * d[single], s=14, marker="x", color="#1f77b4",
                     label="a single class")
        axis.set_xscale("log")
        axis.xaxis.set_major_formatter(ScalarFormatter())
        axis.xaxis.set_minor_formatter(NullFormatter())
        axis.set_xlabel("rows of the data set")
        axis.set_title(title, fontsize=9)
    ax.set_ylabel("% of those instances")
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=2, frameon=False)
    return fig
