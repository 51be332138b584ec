"""Speed of credal.independence (the slides' simulations) and credal.trees.

Run:  .venv/bin/python benchmarks/bench_independence_trees.py [--quick]

Prints
1. the wall time of every simulation of Moral's chapter at the slides' scale
   (10 000 + 10 000 pairs per size; 100 000 + 100 000 for the effect of S and the
   new score), and their total (target: under 2 minutes);
2. the vectorised scores against a straightforward per-table loop (math.lgamma),
   run on the same tables in this process: time and ratio;
3. tree induction on kr-vs-kp (3196 x 36): CredalDecisionTree (simple, double) and
   C45Tree, the credal tree against a loop-based reference on a subset, and against
   its previous implementation (dense cells, one node at a time;
   ``tests/reference/frozen_credal_tree.py``);
4. fit + predict of C45Tree and CredalDecisionTree against their previous (recursive)
   implementations (``tests/reference/``) on
   nursery, kr-vs-kp, adult (complete rows) and nursery with its rows repeated 10
   times, MDL-discretised, 2/3 of the rows for training: best of 5, identical trees.
"""

from __future__ import annotations

import argparse
import math
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd

from credal import independence as ind
from credal.chapters import independence_scores
from credal.reference import bisection_upper_entropy
from credal.trees import C45Tree, CredalDecisionTree

ROOT = Path(__file__).resolve().parents[1]


def _frozen(name):
    """A frozen earlier implementation from tests/reference/ (loaded by file path: the
    test suite's references are not an installed package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        f"_frozen_{name}", ROOT / "tests" / "reference" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CLASSIC = ["CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP", "BD2MOD", "BD2MOD_CLS"]
SIZES = [3, 5, 10, 20, 50, 100, 1000, 10000]


def timed(label, fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    dt = time.perf_counter() - t0
    print(f"  {label:<58s} {dt:8.2f} s")
    return out, dt


def chapter(scale):
    n1, n2 = int(10000 * scale), int(100000 * scale)
    print(f"1. Simulation chapter ({n1} pairs per model; {n2} for the S and NEW studies)")
    total = 0.0
    runs = [
        ("Dir(1,1) / Dir(.5,.5), sizes 3..10000, 10 scores", dict(sizes=SIZES, n_pairs=n1, scores=CLASSIC)),
        (
            "Dir(2,2), sizes 3..1000, 10 scores",
            dict(sizes=SIZES[:-1], n_pairs=n1, scores=CLASSIC, a=2.0),
        ),
        (
            "Dir(.5,.5), sizes 3..1000, 10 scores",
            dict(sizes=SIZES[:-1], n_pairs=n1, scores=CLASSIC, a=0.5),
        ),
        (
            "effect of S (7 values), sizes 3..1000",
            dict(sizes=SIZES[:-1], n_pairs=n2, scores=["BD0.02", "BD0.2", "BD1", "BD1.6", "BD2", "BD4", "BD16"]),
        ),
        ("new score (slides' approximate method), sizes 3..1000", dict(sizes=SIZES[:-1], n_pairs=n2, scores=["BD2", "NEW"])),
        (
            "new score, optimised box interval, three-way, 3..1000",
            dict(sizes=SIZES[:-1], n_pairs=n1, scores=["NEW_BOX", "NEW_BOX_PI"]),
        ),
    ]
    for i, (label, kw) in enumerate(runs):
        # the chapter's simulation (private: the chapter's run() makes all of them at once)
        _, dt = timed(label, independence_scores._simulate_independence, random_state=i, **kw)
        total += dt
    print(f"  {'TOTAL':<58s} {total:8.2f} s   (target < 120 s)")
    return total


def _loop_scores(tables):
    """K2, BDe(S=2) and BIC decisions with plain Python loops (the baseline)."""
    out = []
    for t in tables:
        (a, b), (c, d) = t.tolist()
        n = a + b + c + d
        lg = math.lgamma
        k2 = (
            lg(2) - lg(a + b + 2) + lg(a + 1) + lg(b + 1)
            + lg(2) - lg(c + d + 2) + lg(c + 1) + lg(d + 1)
            - (lg(2) - lg(n + 2) + lg(a + c + 1) + lg(b + d + 1))
        )
        bd = (
            lg(1) - lg(a + b + 1) + lg(a + 0.5) + lg(b + 0.5) - 2 * lg(0.5)
            + lg(1) - lg(c + d + 1) + lg(c + 0.5) + lg(d + 0.5) - 2 * lg(0.5)
            - (lg(2) - lg(n + 2) + lg(a + c + 1) + lg(b + d + 1))
        )
        nmi = 0.0
        for v, r, k in ((a, a + b, a + c), (b, a + b, b + d), (c, c + d, a + c), (d, c + d, b + d)):
            if v:
                nmi += v * math.log(v * n / (r * k))
        bic = nmi - 0.5 * math.log(n)
        out.append((k2 > 1e-9 * n, bd > 1e-9 * n, bic > 1e-9 * n))
    return np.array(out)


def scores_vs_loop(n_tables):
    print(f"2. Scores on {n_tables} random 2x2 tables (N = 1000): vectorised vs per-table loop")
    rng = np.random.default_rng(0)
    T = rng.multinomial(1000, rng.dirichlet([1, 1, 1, 1], size=n_tables)).reshape(-1, 2, 2)
    base, t_loop = timed("baseline: Python loop, math.lgamma (K2, BD2, BIC)", _loop_scores, T)
    lineup = independence_scores.classifiers(["K2", "BD2", "BIC"])  # the slides' score names
    vec, t_vec = timed("the chapter's line-up of scores (K2, BD2, BIC)",
                       lambda T: {name: decide(T) for name, decide in lineup.items()}, T)
    same = np.array_equal(base, np.column_stack([vec["K2"], vec["BD2"], vec["BIC"]]).astype(bool))
    print(f"  speed-up {t_loop / t_vec:8.1f} x   (identical decisions: {same})")
    sub = T[: max(1, n_tables // 10)]
    _, t_box = timed(f"imprecise interval, box, {len(sub)} tables", ind.imprecise_score_interval, sub, 2.0, "box")
    _, t_full = timed(f"imprecise interval, full set, {len(sub)} tables", ind.imprecise_score_interval, sub, 2.0, "full")
    print(f"  per table: box {1e3 * t_box / len(sub):.3f} ms, full {1e3 * t_full / len(sub):.3f} ms")


def _load_kr_vs_kp():
    try:  # the project's loader, when it exists
        from credal import datasets  # noqa: F401

        ds = datasets.load("kr_vs_kp")
        return ds.X, ds.y
    except Exception:  # noqa: BLE001 - fall back to a minimal ARFF reader
        pass
    attrs, rows, data = [], [], False
    for raw in (ROOT / "data" / "raw" / "kr-vs-kp.arff").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if data:
            rows.append([v.strip().strip("'") for v in line.split(",")])
        elif line.lower().startswith("@attribute"):
            m = re.match(r"@attribute\s+(\S+)\s+\{(.*)\}", line, re.I)
            attrs.append([v.strip().strip("'") for v in m.group(2).split(",")])
        elif line.lower().startswith("@data"):
            data = True
    codes = np.array([[attrs[j].index(v) for j, v in enumerate(r)] for r in rows])
    return codes[:, :-1], codes[:, -1]


def _ref_credal_tree(X, y, K, nv, s, feats):
    """Loop-based credal tree (the baseline): same splits, no vectorisation."""

    def ue(n):
        return bisection_upper_entropy(n, s, iters=60)

    counts = [int(np.sum(y == k)) for k in range(K)]
    if len(y) == 0 or not feats:
        return 1
    h0, N = ue(counts), len(y)
    best, bf = 1e-12, -1
    for f in feats:
        g = h0
        for v in range(nv[f]):
            m = X[:, f] == v
            if m.any():
                g -= m.sum() / N * ue([int(np.sum(y[m] == k)) for k in range(K)])
        if g > best + 1e-12:
            best, bf = g, f
    if bf < 0:
        return 1
    rest = [f for f in feats if f != bf]
    return sum(_ref_credal_tree(X[X[:, bf] == v], y[X[:, bf] == v], K, nv, s, rest) for v in range(nv[bf]))


def trees():
    X, y = _load_kr_vs_kp()
    print(f"3. Trees on kr-vs-kp ({X.shape[0]} x {X.shape[1]})")
    for est in (CredalDecisionTree(), CredalDecisionTree(branching="double"), C45Tree()):
        label = f"{type(est).__name__}({getattr(est, 'branching', '')}).fit"
        _, dt = timed(label, est.fit, X, y)
        print(f"  {'':<58s} leaves {est.n_leaves_}, depth {est.depth_}")
    codes = np.asarray(X if isinstance(X, np.ndarray) else np.column_stack([X[c].cat.codes for c in X.columns]))
    yc = np.asarray(y if isinstance(y, np.ndarray) else y.cat.codes)
    sub = np.random.default_rng(0).choice(len(yc), 1000, replace=False)
    nv = codes.max(axis=0) + 1
    leaves, t_ref = timed(
        "baseline: loop-based credal tree, 1000 random rows",
        _ref_credal_tree, codes[sub], yc[sub], 2, nv, 1.0, list(range(codes.shape[1])),
    )
    est, t_vec = timed("CredalDecisionTree().fit, same 1000 rows", CredalDecisionTree().fit, codes[sub], yc[sub])
    print(f"  speed-up {t_ref / t_vec:8.1f} x   (same number of leaves: {leaves == est.n_leaves_})")
    # The previous implementation (dense cells, one node at a time), frozen in tests/reference.
    for branching in ("simple", "double"):
        frozen = _frozen("frozen_credal_tree").FrozenCredalTree(branching=branching)
        old, t_old = timed(f"baseline: previous CredalDecisionTree({branching}).fit", frozen.fit, X, y)
        new, t_new = timed(f"CredalDecisionTree({branching}).fit", CredalDecisionTree(branching=branching).fit, X, y)
        same = old.export_text(decimals=6) == new.export_text(decimals=6)
        print(f"  speed-up {t_old / t_new:8.1f} x   (identical tree: {same})")


def _versus_frozen_data():
    from credal import datasets
    from credal.preprocessing import make_preprocessor

    out = {}
    for name in ("nursery", "kr_vs_kp", "adult"):
        ds = datasets.load(name)
        X, y = ds.X, ds.y
        if name == "adult":
            keep = ~X.isna().any(axis=1).to_numpy()
            X, y = X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
        X = make_preprocessor().fit(X, y).transform(X)
        idx = np.random.default_rng(0).permutation(len(y))
        tr, te = np.sort(idx[: 2 * len(y) // 3]), np.sort(idx[2 * len(y) // 3:])
        out[name] = (X.iloc[tr], y.iloc[tr], X.iloc[te])
    Xtr, ytr, Xte = out["nursery"]
    out["nursery x10"] = (pd.concat([Xtr] * 10, ignore_index=True), pd.concat([ytr] * 10, ignore_index=True), Xte)
    return out


def versus_frozen(reps=5):

    FrozenC45Tree = _frozen("frozen_c45").FrozenC45Tree

    print("4. fit + predict against the previous implementations (best of %d)" % reps)

    def best(make, Xtr, ytr, Xte):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            est = make().fit(Xtr, ytr)
            est.predict(Xte)
            ts.append(time.perf_counter() - t0)
        return min(ts), est

    for name, (Xtr, ytr, Xte) in _versus_frozen_data().items():
        for label, new, old in (("C45Tree", C45Tree, FrozenC45Tree),
                                ("CredalDecisionTree", CredalDecisionTree,
                                 _frozen("frozen_credal_tree").FrozenCredalTree)):
            t_old, a = best(old, Xtr, ytr, Xte)
            t_new, b = best(new, Xtr, ytr, Xte)
            same = a.export_text(decimals=6) == b.export_text(decimals=6)
            print(f"  {name:12s} {label:19s} previous {1e3 * t_old:8.1f} ms  now {1e3 * t_new:8.1f} ms  "
                  f"speed-up {t_old / t_new:5.1f} x  (identical tree: {same})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true", help="one tenth of the slides' scale")
    args = p.parse_args()
    t0 = time.perf_counter()
    chapter(0.1 if args.quick else 1.0)
    scores_vs_loop(2000 if args.quick else 20000)
    trees()
    versus_frozen()
    print(f"whole benchmark {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
