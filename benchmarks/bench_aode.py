"""Speed of BMA-AODE* and COMP-AODE* credal classification (credal.aode).

For one fold of nursery, pendigits and kr-vs-kp (stratified 5-fold, seed 0, fold 0;
the compendium's preprocessing fitted on the training part: MDL discretisation of
numeric columns, removal of single-category features) the script

* fits ``CredalBMAAODE`` and ``CredalCompAODE`` (fit time printed);
* times ``predict_set`` on all test rows (best of 5) -> instances/s, from the integer
  code matrix (the pandas -> codes conversion of ``credal._validation`` is done once
  beforehand and is the same for every classifier) and, for reference, from the
  DataFrame of categoricals;
* times, in the same process, the solver-based implementations the paper describes
  on a subsample of the test rows: every ordered class pair decided by scipy's
  ``linprog`` (HiGHS) on the Charnes-Cooper LP (BMA-AODE*) and by multi-start SLSQP
  (3 starts) on problem (15) (COMP-AODE*), as in ``credal.reference`` (the
  performance chapter's baselines).  They share our SPODE posteriors, whose
  computation is included in their time as in ours, so the ratio is end to end;
* checks that the solver-based sets equal ours on that subsample.

With ``--chapter`` it instead measures what the book chapter ``credal-aode`` costs:
the CPU time (single thread) of one fold of every classifier of
``credal.chapters.credal_aode.classifiers`` and of the fold's preprocessing (median/mode
imputation, MDL discretisation, removal of single-category features), on the six largest
data sets of the paper or on the data sets named after the flag, and the CPU time the
paper profile's 10 x 5 folds would take on them.

Run:  .venv/bin/python benchmarks/bench_aode.py [--chapter [data set ...]]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from credal.aode import CredalBMAAODE, CredalCompAODE
from credal.datasets import load
# the solver baselines of the performance chapter, so both report the same solvers
from credal.reference import bma_aode_baseline_sets as lp_sets
from credal.reference import comp_aode_baseline_sets as slsqp_sets
from credal.preprocessing import make_preprocessor, to_codes

# test rows given to the slow baselines per data set (LP, SLSQP)
SUBSAMPLE = {"nursery": (40, 6), "pendigits": (10, 2), "kr_vs_kp": (100, 4)}


def fold(name):
    ds = load(name)
    tr, te = next(StratifiedKFold(5, shuffle=True, random_state=0).split(ds.X, ds.y))
    prep = make_preprocessor().fit(ds.X.iloc[tr], ds.y.iloc[tr])
    return (prep.transform(ds.X.iloc[tr]), ds.y.iloc[tr],
            prep.transform(ds.X.iloc[te]), ds.y.iloc[te])


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    # nursery's class "recommend" has 2 rows: fewer than the 5 folds (sklearn warns)
    warnings.filterwarnings("ignore", message="The least populated class")
    print(f"{'data set':10s} {'classifier':15s} {'n_test':>6s} {'K':>3s} {'k':>3s} "
          f"{'fit s':>6s} {'ours inst/s':>12s} {'(frame)':>9s} {'solver inst/s':>13s} "
          f"{'ratio':>8s} {'same sets':>9s}")
    for name in ("nursery", "pendigits", "kr_vs_kp"):
        Xtr, ytr, Xte_frame, yte = fold(name)
        Xte = to_codes(Xte_frame)[0]
        for cls, baseline, n_sub in ((CredalBMAAODE, lp_sets, SUBSAMPLE[name][0]),
                                     (CredalCompAODE, slsqp_sets, SUBSAMPLE[name][1])):
            t_fit, model = best_of(lambda: cls().fit(Xtr, ytr), repeat=1)
            t_ours, sets = best_of(lambda: model.predict_set(Xte), repeat=5)
            t_frame, _ = best_of(lambda: model.predict_set(Xte_frame), repeat=5)
            sub = Xte[:n_sub]
            t_base, base = best_of(lambda: baseline(model, sub), repeat=1)
            ours_rate = len(Xte) / t_ours
            base_rate = n_sub / t_base
            print(f"{name:10s} {cls.__name__:15s} {len(Xte):6d} {len(model.classes_):3d} "
                  f"{model.n_features_in_:3d} {t_fit:6.2f} {ours_rate:12.0f} "
                  f"{len(Xte) / t_frame:9.0f} {base_rate:13.2f} {ours_rate / base_rate:8.0f} "
                  f"{str(np.array_equal(sets[:n_sub], base)):>9s}", flush=True)


LARGEST = ("nursery", "pendigits", "kr_vs_kp", "waveform", "page_blocks", "hypothyroid")


def chapter(names=LARGEST, folds=50):
    """CPU seconds of one fold per classifier (and preprocessing) of the chapter."""
    from credal.chapters.credal_aode import classifiers

    warnings.filterwarnings("ignore", message="The least populated class")
    est = classifiers()
    cols = ["prep"] + list(est)
    print(f"{'data set':12s}" + "".join(f"{c:>11s}" for c in cols) + f"{'total':>9s}")
    totals = np.zeros(len(cols))
    for name in names:
        ds = load(name)
        tr, te = next(StratifiedKFold(5, shuffle=True, random_state=0).split(ds.X, ds.y))
        t = time.process_time()
        prep = make_preprocessor(impute=True).fit(ds.X.iloc[tr], ds.y.iloc[tr])
        Xtr, Xte = prep.transform(ds.X.iloc[tr]), prep.transform(ds.X.iloc[te])
        cpu = [time.process_time() - t]
        for e in est.values():
            t = time.process_time()
            e.fit(Xtr, ds.y.iloc[tr])
            e.predict(Xte)
            for method in ("predict_set", "predict_proba"):
                if hasattr(e, method):
                    getattr(e, method)(Xte)
            cpu.append(time.process_time() - t)
        totals += cpu
        print(f"{name:12s}" + "".join(f"{c:11.3f}" for c in cpu) + f"{sum(cpu):9.2f}",
              flush=True)
    print(f"{'x ' + str(folds) + ' folds':12s}" + "".join(f"{c * folds:11.1f}" for c in totals)
          + f"{totals.sum() * folds:9.1f}")


if __name__ == "__main__":
    import sys

    if "--chapter" in sys.argv:
        chapter(sys.argv[sys.argv.index("--chapter") + 1:] or LARGEST)
    else:
        main()
