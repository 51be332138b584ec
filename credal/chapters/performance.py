"""Performance chapter: the classifiers' speed and memory, measured while the book builds.

Serves ``notebooks/performance.md``.  The classifiers are the credal entries of the
leaderboard's registry (:mod:`credal.chapters.leaderboard`); each is timed against its
slow solver baseline (:data:`credal.reference.BASELINES`).  Here: the runs (instances
classified per second against the baseline, fit time against the numbers of rows and
of features, peak memory), the tables (slopes, the chapters' wall times, the project's
goals against the measurements), the numbers quoted in the text and the two figures.
"""

from __future__ import annotations

import pickle
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from credal import datasets
from credal.chapters._common import save_table
from credal.chapters.leaderboard import _complete_rows, _ordered, entries, make_estimators
from credal.reference import BASELINES

__all__ = [
    # run
    "prepared_fold", "throughput", "fit_scaling", "peak_memory",
    # tables
    "scaling_slopes", "chapter_timings", "goals_table", "save_table",
    # numbers for the text
    "performance_numbers",
    # figures
    "performance_throughput", "performance_scaling",
]


# ============================================================================
# run: measurements
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


def _best_time(fn, repeat, min_total=1.0):
    """Best of up to ``repeat`` runs (stops repeating once ``min_total`` s are spent)."""
    best, spent, out = np.inf, 0.0, None
    for r in range(max(1, int(repeat))):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best, spent = min(best, dt), spent + dt
        if spent > min_total:
            break
    return best, out


def throughput(names, classifiers=(), params=None, repeat=3, baseline_rows=50,
               baseline_seconds=3.0, random_state=0) -> pd.DataFrame:
    """Instances classified per second, ours and the solver baseline's.

    On the first fold of each data set (:func:`prepared_fold`), each credal classifier
    is fitted on the training part and its ``predict_set`` timed on the whole test
    part (best of ``repeat``), from the integer code matrix of the test part (the
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
            secs, sets = _best_time(lambda: model.predict_set(codes), repeat)
            fsecs, _ = _best_time(lambda: model.predict_set(Xte), repeat)
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


# ============================================================================
# tables
# ============================================================================

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


# ============================================================================
# numbers for the text
# ============================================================================

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


# ============================================================================
# figures
# ============================================================================

def performance_throughput(tp):
    """Instances classified per second: ours against the solver baseline.

    Parameters
    ----------
    tp : DataFrame
        :func:`throughput`.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per data set; for each classifier a dot for ours and a cross for the
        baseline on a logarithmic axis, joined by a line labelled with the ratio.
    """
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(tp["dataset"]))
    clf = _ordered(list(dict.fromkeys(tp["classifier"])))
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 0.8 + 0.4 * len(clf)),
                             sharey=True, squeeze=False)
    for ax, name in zip(axes[0], names):
        sub = tp[tp["dataset"] == name].set_index("classifier").reindex(clf)
        y = np.arange(len(clf))[::-1]
        for yi, (c, r) in zip(y, sub.iterrows()):
            if not np.isfinite(r["ours_per_s"]):
                continue
            ax.plot([r["baseline_per_s"], r["ours_per_s"]], [yi, yi], color="0.6", lw=1)
            ax.text(np.sqrt(r["baseline_per_s"] * r["ours_per_s"]), yi + 0.18,
                    f"×{r['ratio']:,.0f}", ha="center", va="bottom", fontsize=6.5)
        ax.scatter(sub["ours_per_s"], y, color="tab:blue", zorder=3, label="credal (ours)")
        ax.scatter(sub["baseline_per_s"], y, color="tab:red", marker="x", zorder=3,
                   label="solver baseline")
        ax.set_xscale("log")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("instances classified per second (log)")
        ax.grid(alpha=0.3, axis="x")
        ax.set_yticks(y)
        ax.set_yticklabels(clf, fontsize=8)
        ax.set_ylim(-0.7, len(clf) - 0.3)
    axes[0, 0].set_ylabel("classifier")
    axes[0, 0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def performance_scaling(scaling, slopes=None):
    """Fit time against the number of rows (left) and of features (right), log-log.

    Parameters
    ----------
    scaling : DataFrame
        :func:`fit_scaling`.
    slopes : DataFrame, optional
        :func:`scaling_slopes` (shown in the legends).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    axes_names = [a for a in ("n", "k") if a in set(scaling["axis"])]
    fig, axes = plt.subplots(1, len(axes_names), figsize=(6.2 * len(axes_names), 4.6),
                             squeeze=False)
    clf = _ordered(list(dict.fromkeys(scaling["classifier"])))
    cmap = plt.get_cmap("tab10")
    for ax, a in zip(axes[0], axes_names):
        for i, c in enumerate(clf):
            g = scaling[(scaling["classifier"] == c) & (scaling["axis"] == a)]
            if g.empty:
                continue
            lab = c
            if slopes is not None and f"slope {a}" in slopes and c in slopes.index:
                lab = f"{c} (slope {slopes.loc[c, f'slope {a}']:.2f})"
            ax.plot(g["value"], g["fit_s"], marker="o", ms=3, color=cmap(i % 10),
                    ls="-" if i < 10 else "--", label=lab)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.grid(alpha=0.3, which="both")
        ax.set_xlabel("training instances n (log)" if a == "n" else
                      "features k (log)")
        ax.set_ylabel("fit time (s, log)")
        if a == "n":
            v = np.array(sorted(set(scaling.loc[scaling["axis"] == "n", "value"])), float)
            if len(v) > 1:
                ref = scaling.loc[scaling["axis"] == "n", "fit_s"].median()
                ax.plot(v, ref * v / np.sqrt(v[0] * v[-1]), color="black", lw=0.8, ls=":",
                        label="slope 1 (linear)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
