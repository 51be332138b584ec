"""The fixed cost of a call: input checking, conversion and computation, per classifier.

Issue 27 (item 2): on small data a call's fixed cost, not the counting, decides the race
with the JVM tools.  For each classifier this script times ``fit`` on a new model and then
``predict_set`` (credal classifiers) or ``predict_proba`` (precise ones) on two problems:

* *tiny*: 100 training and 100 test rows, 5 categorical features of 3 categories, 2
  classes (random, seeded; the class depends on the first two features);
* *kr_vs_kp*: the complete rows split 2/3-1/3 (stratified, seed 0), the library's
  preprocessing fitted on the training part (as the performance chapter prepares it).

Each call's time (best of ``--repeats`` after warm-up runs, DataFrame input) is split into

* **conversion**: DataFrame to integer codes and labels to class indices, timed by calling
  the same functions the base calls (``credal._validation.check_features`` with the
  estimator's column layout, ``check_target``) on the same input;
* **checking**: the rest of ``check_fit_input`` / ``check_predict_input`` (shapes, names,
  categories against the fitted ones, ``check_is_fitted``): their time less conversion;
* **computation**: what remains of the call (the counting, the decision, building the
  outputs, the parameter checks inside ``fit``);

and ``codes`` gives the same call from integer codes (what the DataFrame costs over them).
``conv calls`` counts, with :mod:`cProfile`, how many times ``check_features`` runs per
call (1 is one pass; more means the input is converted more than once per call).  The
parts are timed separately, so they need not add up exactly; on a loaded machine the
times are indicative, their proportions more stable.  ``--profile N`` also prints the N
functions with the largest own time in each tiny-problem call.

Run: ``.venv/bin/python benchmarks/bench_overhead.py [--repeats 30] [--profile 0]
[--datasets tiny,kr_vs_kp] [--csv out.csv]``
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.utils.validation import check_is_fitted

import credal
from credal import datasets
from credal._validation import check_features, check_fit_input, check_predict_input, check_target
from credal.preprocessing import make_preprocessor

CLASSIFIERS = {
    "NBC": lambda: credal.NaiveBayes(),
    "NCC": lambda: credal.NCC(),
    "NCC-ε": lambda: credal.NCC(epsilon=0.01),
    "LNCC": lambda: credal.LNCC(),
    "CMA": lambda: credal.CMA(),
    "BMA": lambda: credal.ModelAveragedNaiveBayes(),
    "AODE": lambda: credal.AODE(),
    "credal AODE (BMA)": lambda: credal.CredalBMAAODE(),
    "credal AODE (COMP)": lambda: credal.CredalCompAODE(),
    "C4.5": lambda: credal.C45Tree(),
    "credal tree": lambda: credal.CredalDecisionTree(),
    "RBC": lambda: credal.RobustBayes(),
    "NCC2": lambda: credal.NCC2(),
}


def tiny(seed=0):
    """100 + 100 rows, 5 features of 3 categories, 2 classes."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, size=(200, 5))
    noisy = rng.random(200) < 0.2
    y = np.where((codes[:, 0] + codes[:, 1] >= 2) ^ noisy, "yes", "no")
    X = pd.DataFrame({f"f{j}": pd.Categorical.from_codes(codes[:, j], ["a", "b", "c"])
                      for j in range(5)})
    y = pd.Series(pd.Categorical(y, categories=["no", "yes"]), name="class")
    return X[:100], y[:100], X[100:].reset_index(drop=True), y[100:].reset_index(drop=True)


def kr_vs_kp(seed=0):
    ds = datasets.load("kr_vs_kp")
    keep = ~(ds.X.isna().any(axis=1).to_numpy() | ds.y.isna().to_numpy())
    X, y = ds.X.loc[keep].reset_index(drop=True), ds.y.loc[keep].reset_index(drop=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=1 / 3, stratify=y, random_state=seed)
    prep = make_preprocessor().fit(Xtr, ytr)
    return (prep.transform(Xtr).reset_index(drop=True), ytr.reset_index(drop=True),
            prep.transform(Xte).reset_index(drop=True), yte.reset_index(drop=True))


def best(fn, repeats):
    out = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


class _Blank:
    """What check_fit_input stores its encoding on."""


def conversions(fn):
    """How many times check_features runs during ``fn()`` (cProfile call count)."""
    prof = cProfile.Profile()
    prof.runcall(fn)
    st = pstats.Stats(prof)
    return sum(v[1] for k, v in st.stats.items() if k[2] == "check_features")


def split(name, make, data, repeats):
    """Rows (fit, predict) of total / checking / conversion / computation, in ms."""
    Xtr, ytr, Xte, _ = data
    model = make()
    with warnings.catch_warnings(action="ignore"):
        for _ in range(3):
            model = make().fit(Xtr, ytr)
        method = "predict_set" if hasattr(model, "predict_set") else "predict_proba"
        predict = getattr(model, method)
        for _ in range(3):
            predict(Xte)
        cols = bool(getattr(model, "_as_columns", False))
        codes_tr = check_features(Xtr)[0]
        codes_te = check_features(Xte)[0]
        y_idx = ytr.cat.codes.to_numpy()
        fit_total = best(lambda: make().fit(Xtr, ytr), repeats)
        fit_codes = best(lambda: make().fit(codes_tr, y_idx), repeats)
        fit_conv = best(lambda: (check_features(Xtr, as_columns=cols), check_target(ytr)),
                        repeats)
        fit_check = best(lambda: check_fit_input(_Blank(), Xtr, ytr, as_columns=cols),
                         repeats) - fit_conv
        pred_total = best(lambda: predict(Xte), repeats)
        coded = make().fit(codes_tr, y_idx)
        pred_codes = best(lambda: getattr(coded, method)(codes_te), repeats)
        kw = dict(n_values=model.n_values_, categories=getattr(model, "categories_", None),
                  feature_names=getattr(model, "feature_names_in_", None), as_columns=cols)
        pred_conv = best(lambda: check_features(Xte, **kw), repeats)
        pred_check = best(lambda: (check_is_fitted(model, "classes_"),
                                   check_predict_input(model, Xte, as_columns=cols)),
                          repeats) - pred_conv
        n_fit = conversions(lambda: make().fit(Xtr, ytr))
        n_pred = conversions(lambda: predict(Xte))
    rows = []
    for phase, total, codes, check, conv, n in (
            ("fit", fit_total, fit_codes, fit_check, fit_conv, n_fit),
            (method, pred_total, pred_codes, pred_check, pred_conv, n_pred)):
        check, conv = max(check, 0.0), max(conv, 0.0)
        rows.append({"data": name, "classifier": None, "call": phase, "total ms": 1e3 * total,
                     "checking ms": 1e3 * check, "conversion ms": 1e3 * conv,
                     "computation ms": 1e3 * max(total - check - conv, 0.0),
                     "fixed %": 100 * (check + conv) / total, "codes ms": 1e3 * codes,
                     "conv calls": n})
    return rows


def top_functions(make, data, n):
    """The ``n`` functions with the largest own time in fit and in the prediction call."""
    Xtr, ytr, Xte, _ = data
    out = []
    with warnings.catch_warnings(action="ignore"):
        model = make().fit(Xtr, ytr)
        method = "predict_set" if hasattr(model, "predict_set") else "predict_proba"
        for call, fn in (("fit", lambda: [make().fit(Xtr, ytr) for _ in range(20)]),
                         (method, lambda: [getattr(model, method)(Xte) for _ in range(20)])):
            prof = cProfile.Profile()
            prof.runcall(fn)
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(n)
            body = [ln for ln in s.getvalue().splitlines() if ln.strip()][-n:]
            out.append(f"  {call} (20 calls):\n" + "\n".join("    " + ln for ln in body))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=30, help="best of this many calls")
    ap.add_argument("--datasets", default="tiny,kr_vs_kp")
    ap.add_argument("--classifiers", default=",".join(CLASSIFIERS))
    ap.add_argument("--profile", type=int, default=0,
                    help="also print the N functions of largest own time (tiny problem)")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    a = ap.parse_args(argv)
    makers = {"tiny": tiny, "kr_vs_kp": kr_vs_kp}
    rows = []
    for name in [d.strip() for d in a.datasets.split(",") if d.strip()]:
        data = makers[name]()
        print(f"{name}: {len(data[0])} training rows, {len(data[2])} test rows, "
              f"{data[0].shape[1]} features", flush=True)
        for clf in [c.strip() for c in a.classifiers.split(",") if c.strip()]:
            for r in split(name, CLASSIFIERS[clf], data, a.repeats):
                rows.append({**r, "classifier": clf})
            if a.profile and name == "tiny":
                print(f"{clf}:\n{top_functions(CLASSIFIERS[clf], data, a.profile)}", flush=True)
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.max_rows", 200):
        print("\nbest times (ms) of one call, DataFrame input, split; codes = the same call "
              "from integer codes; conv calls = check_features runs per call")
        print(table.round(3).to_string(index=False))
        share = table.groupby(["data", "call"])[
            ["checking ms", "conversion ms", "computation ms", "total ms"]].sum()
        share["fixed %"] = 100 * (share["checking ms"] + share["conversion ms"]) / share["total ms"]
        print("\nsummed over the classifiers")
        print(share.round(2).to_string())
    if a.csv:
        table.to_csv(a.csv, index=False)


if __name__ == "__main__":
    main()
