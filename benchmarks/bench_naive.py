"""Speed of the naive credal classifiers against a straightforward scipy version.

For nursery (12960 x 8, 5 classes) and kr-vs-kp (3196 x 36, 2 classes) the script
times ``fit`` + ``predict_set`` of :class:`credal.naive.NCC` and
:class:`credal.naive.LNCC` on every instance (best of a few repetitions) and, in
the same process, a baseline that decides the same dominance tests one instance
and one ordered class pair at a time with scipy:

* NCC, straightforward (the issue's baseline, the performance chapter's
  :func:`credal.reference.ncc_baseline_sets`): ``scipy.optimize.minimize_scalar``
  (bounded) on the one-dimensional objective, per instance and ordered class
  pair, with the end values of ``[0, 1]`` also taken; a zero count
  ``n(c', x_j) = 0`` (infimum exactly 0, objective ``-inf``) is decided directly;
* NCC, tuned: ``scipy.optimize.brentq`` on the analytic derivative of the convex
  objective (end points checked first), then the objective at the minimiser;
* LNCC (:func:`credal.reference.lncc_baseline_sets`): ``brentq`` for the point
  where the ratio equals 1 and two bounded ``minimize_scalar`` calls for the
  likelihood maxima left of it and overall.

The baseline runs on the first ``--baseline-rows`` instances only; its rate is
extrapolated (said so in the output) and its sets are compared with ours on those
rows.  Ours is timed twice: ``fit`` + ``predict_set`` (what the issue asks) and
``predict_set`` alone on the fitted model (the dominance tests the ratio is
about; ``fit`` is linear counting plus the DataFrame conversion); a ratio is
printed for each.  The tables a fitted model derives from its counts (built at
its first prediction after ``fit``, see ``credal._tables``) are part of
'fit+ps' and, kept with the model, not of 'ps'.

A second part times what the evaluation engine asks of the classifiers in the
artificial study of the likelihood-based NCC chapter: for one training set of 50
instances and a test set of 10 000 (ten binary features, so many repeated rows),
``predict`` and ``predict_set`` of LNCC at four levels alpha and of NCC at four
epsilons.  Ours works on the distinct rows; the baseline is the same vectorised
code run on every row for every call.  The script prints and asserts nothing.

Run: ``.venv/bin/python benchmarks/bench_naive.py [--baseline-rows N] [--repeat R]``
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from credal.naive import LNCC, NCC
from credal.reference import lncc_baseline_sets, ncc_baseline_sets

ROOT = Path(__file__).resolve().parents[1]
DATASETS = {"nursery": "nursery.arff", "kr_vs_kp": "kr-vs-kp.arff"}


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def _minimal_arff(path):
    """Nominal-only ARFF reader (fallback when credal.datasets is unavailable)."""
    names, cats, rows, data = [], [], [], False
    for raw in Path(path).read_text(errors="replace").splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if data:
            rows.append([v.strip().strip("'\"") for v in line.split(",")])
        elif line.lower().startswith("@attribute"):
            head, _, body = line.partition("{")
            names.append(head.split()[1].strip("'\""))
            cats.append([v.strip().strip("'\"") for v in body.rstrip("}").split(",")])
        elif line.lower().startswith("@data"):
            data = True
    cols = {
        n: pd.Categorical([r[j] if r[j] != "?" else None for r in rows], categories=c)
        for j, (n, c) in enumerate(zip(names, cats))
    }
    frame = pd.DataFrame(cols)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def load(name):
    try:
        from credal import datasets

        ds = datasets.load(name)
        return ds.X, ds.y, "credal.datasets.load"
    except Exception:  # noqa: BLE001 - the fallback keeps the benchmark usable
        X, y = _minimal_arff(ROOT / "data" / "raw" / DATASETS[name])
        return X, y, "minimal ARFF reader"


def codes_of(X):
    return np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns]).astype(np.int64)


# ---------------------------------------------------------------------------
# straightforward baselines (one instance and one ordered pair at a time)
# ---------------------------------------------------------------------------


def _pair_counts(model, row, a, b):
    obs = (row >= 0) & (model.n_values_ > 1)
    j = np.nonzero(obs)[0]
    n1j = np.array([model.category_count_[k][a, row[k]] for k in j], float)
    n2j = np.array([model.category_count_[k][b, row[k]] for k in j], float)
    o1j = model.observed_count_[a, j]
    o2j = model.observed_count_[b, j]
    return model.class_count_[a], model.class_count_[b], n1j, n2j, o1j, o2j, j


def straightforward_ncc_set(model, row):
    """NCC set of one instance, bounded minimize_scalar per ordered pair.

    The performance chapter's baseline (:func:`credal.reference.ncc_baseline_sets`).
    """
    return ncc_baseline_sets(model, row[None, :])[0]


def baseline_ncc_set(model, row):
    """NCC (epsilon = 0) set of one instance, brentq per ordered pair."""
    K, s = len(model.classes_), float(model.s)
    dominated = np.zeros(K, bool)
    for a in range(K):
        for b in range(K):
            if a == b:
                continue
            n1, n2, n1j, n2j, o1j, o2j, _ = _pair_counts(model, row, a, b)
            if np.any(n1j == 0):
                continue  # infimum 0
            keep = n2j != o2j

            def psi(t):
                return (np.log(n1 + s * (1 - t)) - np.log(n2 + s * t)
                        + np.sum(np.log(n1j) - np.log(o1j + s * (1 - t)))
                        + np.sum(np.log(o2j[keep] + s * t) - np.log(n2j[keep] + s * t)))

            def dpsi(t):
                with np.errstate(divide="ignore"):
                    return (-1 / (n1 + s * (1 - t)) - 1 / (n2 + s * t)
                            + np.sum(1 / (o1j + s * (1 - t)))
                            + np.sum(1 / (o2j[keep] + s * t) - 1 / (n2j[keep] + s * t)))

            if dpsi(0.0) >= 0:
                t = 0.0
            elif dpsi(1.0) <= 0:
                t = 1.0
            else:
                t = brentq(dpsi, 0.0, 1.0, xtol=1e-14)
            if psi(t) > 0:
                dominated[b] = True
    return ~dominated


def baseline_lncc_set(model, row, alpha):
    """LNCC set of one instance: brentq + bounded minimize_scalar per ordered pair.

    The performance chapter's baseline (:func:`credal.reference.lncc_baseline_sets`),
    so that both report the same straightforward solver; ``alpha`` is the model's.
    """
    assert float(alpha) == float(model.alpha)
    return lncc_baseline_sets(model, row[None, :])[0]


# ---------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------


def best_time(fn, repeat):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline-rows", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("naive credal classifiers: vectorised (credal.naive) vs scipy loop baselines")
    print(f"baseline: first {args.baseline_rows} instances of each data set, rate "
          "extrapolated to instances/s; ours: all instances, best of "
          f"{args.repeat}, fit + predict_set ('fit+ps') and predict_set alone ('ps')\n")
    header = (f"{'data':9s} {'clf':5s} {'n':>6s} {'fit+ps/s':>10s} {'ps/s':>10s} "
              f"{'baseline':>10s} {'base/s':>9s} {'ratio fit+ps':>12s} {'ratio ps':>9s} "
              f"{'same sets':>10s}")
    print(header)
    for name in DATASETS:
        X, y, how = load(name)
        codes = codes_of(X)
        runs = (
            ("NCC", NCC(), "predict_set",
             (("scipy-min", straightforward_ncc_set), ("brentq", baseline_ncc_set))),
            ("NCC*", NCC(), "all_pairs", (("brentq", baseline_ncc_set),)),
            ("LNCC", LNCC(alpha=0.75), "predict_set",
             (("brentq+min", lambda m, r: baseline_lncc_set(m, r, 0.75)),)),
        )
        for label, est, how_, bases in runs:
            if how_ == "predict_set":
                def sets_of(est=est):
                    return est.predict_set(X)
            else:  # every ordered pair tested, as the baselines do
                def sets_of(est=est):
                    return ~np.any(est.dominance_log_ratio(X) > 1e-11, axis=1)

            def run(est=est, sets_of=sets_of):
                est.fit(X, y)
                return sets_of()

            secs, sets = best_time(run, args.repeat)
            secs_ps, sets_ps = best_time(sets_of, args.repeat)
            rate, rate_ps = len(X) / secs, len(X) / secs_ps
            nb = min(args.baseline_rows, len(X))
            for bname, base in bases:
                t = time.perf_counter()
                bsets = np.array([base(est, codes[i]) for i in range(nb)])
                brate = nb / (time.perf_counter() - t)
                same = int(np.sum(np.all(bsets == sets[:nb], axis=1)))
                print(f"{name:9s} {label:5s} {len(X):6d} {rate:10.0f} {rate_ps:10.0f} "
                      f"{bname:>10s} {brate:9.1f} {rate / brate:12.0f} {rate_ps / brate:9.0f} "
                      f"{same:5d}/{nb:<4d}")
        print(f"  ({name}: {X.shape[1]} features, {len(y.cat.categories)} classes, "
              f"loaded with {how})")
    print("\nThe issue's goal (>= 1000x) refers to the straightforward baseline: for NCC "
          "'scipy-min'\n(bounded minimize_scalar per ordered pair), for LNCC "
          "'brentq+min' (brentq + bounded minimize_scalar).\n'brentq' is a tuned NCC "
          "baseline (brentq on the analytic derivative, end points checked first).\n"
          "NCC: predict_set tests each class only against the maximal classes the "
          "naive Bayes ranks higher;\nNCC*: the same sets from all ordered pairs "
          "(dominance_log_ratio), like the baselines.\nLNCC: one profile likelihood "
          "per unordered pair gives both directions; the baseline redoes it per "
          "ordered pair.")


def naive_data(theta, n, seed):
    """``n`` instances of a naive model with a uniform binary class and binary features,
    ``theta[j, c]`` = P(F_j = 1 | c), as categoricals (both values always declared)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    codes = (rng.random((n, len(theta))) < theta[:, y].T).astype(np.int8)
    cats = pd.Index(np.arange(2, dtype=np.int8))
    X = pd.DataFrame({f"F{j + 1}": pd.Categorical.from_codes(codes[:, j], categories=cats)
                      for j in range(len(theta))})
    return X, pd.Series(pd.Categorical.from_codes(y, categories=cats), name="class")


def artificial(repeat):
    """Engine-style calls on artificial data: distinct rows vs every row."""
    from credal import _tables

    # as the chapter's study: ten binary features whose chances under the two classes are
    # uniform and differ by at least 0.1
    draws = np.random.default_rng(0).random((100, 2))
    theta = draws[np.abs(draws[:, 0] - draws[:, 1]) >= 0.1][:10]
    Xtr, ytr = naive_data(theta, 50, 1)
    Xte, _ = naive_data(theta, 10_000, 2)
    codes = codes_of(Xte)
    models = ([LNCC(alpha=a).fit(Xtr, ytr) for a in (0.35, 0.55, 0.75, 0.95)]
              + [NCC(epsilon=e).fit(Xtr, ytr) for e in (0.05, 0.15, 0.25, 0.35)])

    def ours():
        return [(m.predict(Xte), m.predict_set(Xte)) for m in models]

    def every_row():
        out = []
        for m in models:
            jll = m._joint_log_likelihood(codes, "perks", m._nbc_s())
            sets = m._predict_set_codes(codes, jll)
            pred = m.classes_[np.argmax(np.where(sets, jll, -np.inf), axis=1)]
            out.append((pred, m._predict_set_codes(codes)))
        return out

    t_ours, a = best_time(ours, repeat)
    t_base, b = best_time(every_row, repeat)
    same = all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    n_distinct = len(_tables.unique_rows(codes, models[0].n_values_)[0])
    print("\nartificial study, one experiment (10 000 test rows, "
          f"{n_distinct} distinct; 4 LNCC + 4 NCC, predict and predict_set each):")
    print(f"  distinct rows {t_ours:8.3f} s   every row, every call {t_base:8.3f} s   "
          f"ratio {t_base / t_ours:6.1f}   same outputs: {same}")


if __name__ == "__main__":
    main()
    artificial(3)
