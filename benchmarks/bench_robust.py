"""Speed of the robust Bayes classifier and its baselines on Adult (48 842 rows).

Prints rows/s for fit + predict of RobustBayes and NaiveBayesMissing, and ratios
against two baselines run here in the same process:

* scikit-learn's ``CategoricalNB`` (fit + predict_proba on the same codes, missing
  values as an extra category), a vectorised precise naive Bayes;
* a direct per-case implementation of the paper's Theorem 2 (loops over cases and
  classes, the maximum over g taken literally), on a subsample.

It ends with the time of one 5-fold cross-validation of the three classifiers at
full size, and the paper's 5 x 5-fold protocol extrapolated from it.

``--chapter`` instead times the chapter's whole experiment through the evaluation
engine (``credal.chapters.robust_bayes.run``, its main run: 19 data sets plus the
echocardiogram variant, 5 x 5-fold CV, no cache) and shows where the time goes,
per data set and per step (preprocessing, fit, predict) summed over folds and
classifiers.

Run:  .venv/bin/python benchmarks/bench_robust.py [--chapter] [--n-jobs 2]
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.naive_bayes import CategoricalNB

from credal.robust import NaiveBayesMissing, RobustBayes

RAW = Path(__file__).resolve().parents[1] / "data" / "raw"
NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "class",
]


def load_adult(n_bins=5):
    """Adult as a DataFrame of categoricals and a categorical class.

    Numeric columns are binned by quantiles (equal-frequency bins, as in the paper).
    """
    try:  # the project's loader, when present
        from credal.datasets import load

        ds = load("adult")
        X, y = ds.X.copy(), ds.y
    except (ImportError, KeyError, AttributeError):
        parts = []
        for name in ("adult.data", "adult.test"):
            df = pd.read_csv(RAW / name, header=None, names=COLUMNS, skipinitialspace=True,
                             na_values="?", comment="|", dtype=str)
            df = df[df["age"] != "age"]  # a header row in the test part
            parts.append(df)
        df = pd.concat(parts, ignore_index=True).dropna(how="all")
        y = pd.Series(pd.Categorical(df.pop("class").str.rstrip(".")))
        X = df
    out = {}
    for c in X.columns:
        col = X[c]
        if c in NUMERIC or pd.api.types.is_numeric_dtype(col):
            out[c] = pd.qcut(pd.to_numeric(col, errors="coerce"), n_bins, duplicates="drop")
        else:
            out[c] = col.astype("category")
    return pd.DataFrame(out).reset_index(drop=True), y.reset_index(drop=True)


def theorem2_loops(model, codes):
    """Reference: Theorem 2 per case and class, exactly as printed (no rewriting)."""
    q = len(model.classes_)
    pl, pu = model.class_prob_lower_, model.class_prob_upper_
    lo = np.empty((len(codes), q))
    up = np.empty((len(codes), q))
    for t, row in enumerate(codes):
        xl = np.ones(q)
        xu = np.ones(q)
        for i, v in enumerate(row):
            if v >= 0:
                xl *= model.feature_prob_lower_[i][:, v]
                xu *= model.feature_prob_upper_[i][:, v]
        for j in range(q):
            up[t, j] = pu[j] * xu[j] / (pu[j] * xu[j] + sum(pl[h] * xl[h] for h in range(q) if h != j))
            f = max(pu[g] * xu[g] + sum(pl[l] * xu[l] for l in range(q) if l not in (j, g))
                    for g in range(q) if g != j)
            lo[t, j] = pl[j] * xl[j] / (pl[j] * xl[j] + f)
    return lo, up


def timed(fn, repeat=3):
    best = np.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main():
    t0 = time.perf_counter()
    X, y = load_adult()
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns]).astype(np.int64)
    print(f"adult: {X.shape[0]} rows, {X.shape[1]} features, load+bin {time.perf_counter() - t0:.2f} s, "
          f"{(codes < 0).any(1).sum()} rows with a missing value")
    n = len(X)
    # hide 2% of the labels so RBC also deals with missing classes
    y_miss = y.copy()
    y_miss[np.random.default_rng(0).random(n) < 0.02] = np.nan

    def rbc():
        m = RobustBayes().fit(X, y_miss)
        return m.predict_interval(X), m.predict_set(X), m.predict(X)

    def nbm():
        return NaiveBayesMissing(strategy="ignore").fit(X, y).predict_proba(X)

    def nbs():
        return NaiveBayesMissing(strategy="category").fit(X, y).predict_proba(X)

    Xs = np.where(codes < 0, codes.max(0) + 1, codes)  # CategoricalNB: missing as a category
    yc = y.cat.codes.to_numpy()

    def sk():
        return CategoricalNB(alpha=1.0).fit(Xs, yc).predict_proba(Xs)

    t_sk, _ = timed(sk)
    print(f"{'baseline CategoricalNB fit+predict_proba':45s} {t_sk * 1e3:8.1f} ms  "
          f"{n / t_sk:12,.0f} rows/s")
    for name, fn in [("RobustBayes fit+interval+set+predict", rbc),
                     ("NaiveBayesMissing(ignore) fit+proba", nbm),
                     ("NaiveBayesMissing(category) fit+proba", nbs)]:
        t, _ = timed(fn)
        print(f"{name:45s} {t * 1e3:8.1f} ms  {n / t:12,.0f} rows/s  "
              f"time / CategoricalNB = {t / t_sk:5.2f}")

    model = RobustBayes().fit(X, y_miss)
    sub = X.iloc[:2000]
    t_loop, (lo_ref, up_ref) = timed(lambda: theorem2_loops(model, codes[:2000]), repeat=1)
    t_vec, (lo, up) = timed(lambda: model.predict_interval(sub))
    err = max(np.max(np.abs(lo - lo_ref) / lo_ref), np.max(np.abs(up - up_ref) / up_ref))
    print(f"predict_interval vs per-case loops (2000 rows): {t_vec * 1e3:.2f} ms vs "
          f"{t_loop * 1e3:.0f} ms  speed-up x{t_loop / t_vec:,.0f}  (max rel. diff {err:.1e})")

    # one 5-fold CV at full size; the paper ran 5 replicates
    rng = np.random.default_rng(1)
    folds = np.array_split(rng.permutation(n), 5)
    t0 = time.perf_counter()
    for k in range(5):
        test = folds[k]
        train = np.concatenate([folds[h] for h in range(5) if h != k])
        Xtr, Xte = X.iloc[train], X.iloc[test]
        m = RobustBayes().fit(Xtr, y_miss.iloc[train])
        m.predict_set(Xte), m.predict(Xte)
        NaiveBayesMissing(strategy="ignore").fit(Xtr, y.iloc[train]).predict(Xte)
        NaiveBayesMissing(strategy="category").fit(Xtr, y.iloc[train]).predict(Xte)
    t_cv = time.perf_counter() - t0
    print(f"one 5-fold CV of RBC_d/RBC_u, NBC_m, NBC_* on adult: {t_cv:.2f} s; "
          f"5 x 5-fold (paper protocol): ~{5 * t_cv:.1f} s")


def chapter(n_jobs=2):
    """Wall time of the chapter's experiment and the per-data-set compute time."""
    from credal import datasets
    from credal.chapters import robust_bayes

    variants = datasets.names("ramoni-sebastiani") + ["echocardiogram:still_alive"]
    t0 = time.perf_counter()
    folds = robust_bayes.run(variants, n_jobs=n_jobs, cache_dir=None)["folds"]
    wall = time.perf_counter() - t0
    steps = folds.groupby("dataset")[["fit_time", "predict_time"]].sum()
    # preprocessing is shared by the three classifiers of a fold: count it once
    steps["prep_time"] = folds.groupby(["dataset", "repeat", "fold"])["prep_time"].first() \
        .groupby("dataset").sum()
    steps["total"] = steps.sum(axis=1)
    print(f"chapter experiment: {len(variants)} data sets, {len(folds)} (fold, classifier) "
          f"results, wall {wall:.1f} s with n_jobs={n_jobs}")
    print(steps.sort_values("total", ascending=False).round(2).head(8).to_string())
    print(f"compute inside folds, summed over the {n_jobs} worker(s): "
          f"{steps['total'].sum():.1f} s (the wall time adds loading, hashing and "
          "process start-up, and divides the rest among the workers)")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--chapter", action="store_true")
    ap.add_argument("--n-jobs", type=int, default=2)
    a = ap.parse_args()
    chapter(a.n_jobs) if a.chapter else main()
