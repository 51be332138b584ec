"""Speed of NCC2 with every feature non-MAR against NCC (MAR) and against JNCC2 1.11.

Data: nursery (12960 x 8, 5 classes) with 10 % of its cells deleted completely at
random (seed 0), and adult as shipped (48842 x 14, missing values in three features),
its numeric features MDL-discretised on the whole data set (``make_preprocessor``, as
the other benchmarks prepare it).  Each classifier is fitted on all rows and predicts the
set of every row; the best of ``--repeat`` runs is reported, ``fit + predict_set`` and
``predict_set`` alone (on the fitted model, its derived tables built).  The ratio
NCC2 / NCC is the issue's figure (goal: at most 3).

JNCC2 1.11 (``../shared/peers/jncc2``) is timed warm in one JVM by a small driver,
``benchmarks/jncc2/Jncc2Timer.java`` (compiled here into ``build/jncc2``): the NCC2
constructor (it learns the counts) + ``classifyInstances`` of every row, best of the same
number of runs after one warm-up run, on the same discretised data written as ARFF.  Its
sets are compared with ours.  When Java, javac or the jar is missing, or JNCC2 does not
finish within ``--jncc2-timeout`` seconds, the column is left out and the reason printed.

Run: ``.venv/bin/python benchmarks/bench_ncc2.py [--repeat R] [--jncc2-timeout S]``
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from credal import NCC, NCC2, datasets
from credal.preprocessing import make_preprocessor

ROOT = Path(__file__).resolve().parents[1]
JAR = next((p / "shared/peers/jncc2/jncc2Rel1.11/jncc2-rel1.11.jar" for p in ROOT.parents
            if (p / "shared/peers/jncc2/jncc2Rel1.11/jncc2-rel1.11.jar").is_file()), None)


def load(name):
    ds = datasets.load(name)
    X, y = ds.X, ds.y
    if name == "nursery":  # 10 % of the cells deleted at random
        X = X.copy()
        gone = np.random.default_rng(0).random(X.shape) < 0.10
        for j, col in enumerate(X.columns):
            X[col] = X[col].mask(gone[:, j])
    else:
        X = make_preprocessor().fit(X, y).transform(X)
    return X, y


def best_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def write_arff(path, X, y):
    def q(v):
        return "'" + str(v).replace("'", "").replace(",", ";") + "'"
    lines = ["@relation bench"]
    for col in list(X.columns) + ["class"]:
        cats = (y if col == "class" else X[col]).cat.categories
        lines.append(f"@attribute {q(col).strip(chr(39)).replace(' ', '_')} "
                     "{" + ",".join(q(c) for c in cats) + "}")
    lines.append("@data")
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns] + [y.cat.codes])
    cats = [X[c].cat.categories for c in X.columns] + [y.cat.categories]
    for row in codes:
        lines.append(",".join("?" if v < 0 else q(cats[j][v]) for j, v in enumerate(row)))
    Path(path).write_text("\n".join(lines) + "\n")


def jncc2_time(X, y, repeat, timeout):
    """(best seconds, sets) of JNCC2's NCC2, every feature non-MAR, or (None, reason)."""
    if JAR is None:
        return None, "the JNCC2 1.11 jar is not in ../shared/peers/jncc2"
    if not (shutil.which("java") and shutil.which("javac")):
        return None, "java or javac is not installed"
    build = ROOT / "build" / "jncc2"
    build.mkdir(parents=True, exist_ok=True)
    src = ROOT / "benchmarks" / "jncc2" / "Jncc2Timer.java"
    subprocess.run(["javac", "-cp", str(JAR), "-d", str(build), str(src)], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        arff, out = Path(tmp) / "data.arff", Path(tmp) / "sets.txt"
        write_arff(arff, X, y)
        try:
            run = subprocess.run(["java", "-cp", f"{build}:{JAR}", "jncc20.Jncc2Timer",
                                  str(arff), str(arff), str(repeat), "1", "all", str(out)],
                                 capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, f"JNCC2 did not finish within {timeout} s"
        line = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-300:]
        if not line.startswith("ok,"):
            return None, f"JNCC2 failed: {line}"
        sets = np.zeros((len(X), len(y.cat.categories)), bool)
        for i, row in enumerate(out.read_text().splitlines()):
            sets[i, [int(v) for v in row.split()]] = True
        return float(line.split(",")[2]), sets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jncc2-timeout", type=float, default=600.0)
    args = ap.parse_args()
    print(f"{'data':8} {'rows':>6} {'clf':5} {'fit+ps s':>9} {'ps s':>8} {'indet':>6}")
    for name in ("nursery", "adult"):
        X, y = load(name)
        res = {}
        for label, make in [("NCC", lambda: NCC()),
                            ("NCC2", lambda: NCC2(non_mar_train="all", non_mar_test="all"))]:
            t_all, sets = best_time(lambda: make().fit(X, y).predict_set(X), args.repeat)
            model = make().fit(X, y)
            model.predict_set(X)  # derived tables built once
            t_ps, _ = best_time(lambda: model.predict_set(X), args.repeat)
            res[label] = (t_all, t_ps, sets)
            print(f"{name:8} {len(X):6d} {label:5} {t_all:9.3f} {t_ps:8.3f} "
                  f"{int((sets.sum(1) > 1).sum()):6d}")
        (a_all, a_ps, _), (b_all, b_ps, ours) = res["NCC"], res["NCC2"]
        print(f"{name:8} ratio NCC2/NCC: fit+predict_set {b_all / a_all:.2f}x, "
              f"predict_set {b_ps / a_ps:.2f}x (goal <= 3x)")
        t_j, sets = jncc2_time(X, y, args.repeat, args.jncc2_timeout)
        if t_j is None:
            print(f"{name:8} JNCC2 1.11 column left out: {sets}")
        else:
            same = int((sets == ours).all(axis=1).sum())
            print(f"{name:8} JNCC2 1.11 NCC2 (warm, one JVM): {t_j:.3f} s; credal NCC2 "
                  f"fit+predict_set is {t_j / b_all:.1f}x faster; same sets on "
                  f"{same}/{len(X)} rows")


if __name__ == "__main__":
    main()
