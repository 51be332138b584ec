"""Speed of Dash & Cooper's experiment loop: random networks, sampling, MANB vs MAP.

Runs the paper's Procedure 2 at two of its settings and prints wall times:

* nodes test at N = 500 features (501 nodes), N_k = 5, N_r = 200, N_test = 100;
* density test at N = 200 features, N_k = 200, N_r = 200, N_test = 100;

each with 500 trials (``--trials``), on integer codes (``min_categories`` declares
the binary states). A trial draws a network (Procedure 1, lazy
CPTs), picks the class node uniformly, samples N_r + N_test records, fits the
model-averaged naive Bayes and the MAP naive Bayes (all arcs, K2), and scores both
by ROC area. Trials whose test records hold a single class (ROC area undefined)
are counted and left out of the means of Delta_ROC and delta_ROC.

Baselines run here, in the same process, for ratios:

* a direct forward sampler that loops over records and nodes in Python (the
  lazy CPT column computed per record), on a few records of the same networks;
* exact averaging by enumerating all 2**N structures (N = 12) against the
  closed-form theta* of ModelAveragedNaiveBayes.

Run:  .venv/bin/python benchmarks/bench_networks.py [--trials 500]
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from credal.averaging import ModelAveragedNaiveBayes, naive_family_statistics
from credal.networks import (
    choose_class_node,
    delta_roc,
    delta_roc_remaining,
    random_network,
    roc_area,
    sample,
    split_class,
)


def run_test(label, n_features, max_parents, n_train, n_test, trials, seed, as_frame=False):
    """Procedure 2; ``as_frame`` feeds DataFrames of categoricals instead of int codes."""
    seeds = np.random.SeedSequence(seed).spawn(trials)
    t_net = t_sample = t_fit = 0.0
    deltas, rdeltas, skipped = [], [], 0
    t0 = time.perf_counter()
    for ss in seeds:
        rng = np.random.default_rng(ss)
        a = time.perf_counter()
        net = random_network(n_features + 1, max_parents, rng)
        cls = choose_class_node(net, rng)
        b = time.perf_counter()
        data = sample(net, n_train + n_test, rng, as_frame=as_frame)
        c = time.perf_counter()
        X, y = split_class(net, data, cls)
        if as_frame:
            Xtr, Xte = X.iloc[:n_train], X.iloc[n_train:]
            ytr, yte = y.iloc[:n_train], y.iloc[n_train:]
            kw = {}
        else:
            # codes with the declared numbers of states; the class keeps both states
            # even if the training records show only one
            k = net.index(cls)
            states = list(net.states(k))
            yc = pd.Series(pd.Categorical.from_codes(y, dtype=pd.CategoricalDtype(states)))
            Xtr, ytr, Xte, yte = X[:n_train], yc.iloc[:n_train], X[n_train:], yc.iloc[n_train:]
            kw = {"min_categories": np.delete(net.n_states, k)}
        ma = ModelAveragedNaiveBayes(structure="average", **kw).fit(Xtr, ytr)
        mp = ModelAveragedNaiveBayes(structure="full", **kw).fit(Xtr, ytr)
        pa, pm = ma.predict_proba(Xte), mp.predict_proba(Xte)
        if yte.nunique() < 2:
            skipped += 1
        else:
            r_ma = roc_area(yte, pa, ma.classes_)
            r_map = roc_area(yte, pm, mp.classes_)
            deltas.append(delta_roc(r_ma, r_map))
            rdeltas.append(delta_roc_remaining(r_ma, r_map))
        d = time.perf_counter()
        t_net += b - a
        t_sample += c - b
        t_fit += d - c
    total = time.perf_counter() - t0
    n_rec = trials * (n_train + n_test)
    print(f"\n{label}: N = {n_features}, N_k = {max_parents}, N_r = {n_train}, "
          f"N_test = {n_test}, {trials} trials, {'DataFrame' if as_frame else 'int-code'} input")
    print(f"  total {total:7.2f} s  (networks {t_net:.2f} s, sampling {t_sample:.2f} s, "
          f"fit + predict + ROC {t_fit:.2f} s)")
    print(f"  sampling: {n_rec / t_sample:,.0f} records/s = "
          f"{n_rec * (n_features + 1) / t_sample:,.0f} node values/s")
    dl, rd = np.array(deltas), np.array(rdeltas)
    print(f"  mean Delta_ROC = {100 * dl.mean():.2f} %  (sd {100 * dl.std():.2f}),  "
          f"mean delta_ROC = {100 * rd.mean():.2f} %  (sd {100 * rd.std():.2f}),  "
          f"{skipped} trials skipped (one class in the test records)")
    return total, (deltas, rdeltas)


def naive_sampler(net, n, rng):
    """Baseline: loop over records and nodes, one CPT column at a time."""
    x = np.zeros((n, net.n_nodes), dtype=np.int64)
    for r in range(n):
        for i in range(net.n_nodes):
            pa = net.parent_indices[i]
            p = net._conditional(i, x[r : r + 1, pa])[0]
            x[r, i] = min(int(np.searchsorted(np.cumsum(p), rng.random(), side="right")),
                          len(p) - 1)
    return x


def sampler_ratio(n_features, max_parents, seed=0):
    net = random_network(n_features + 1, max_parents, seed)
    n_fast, n_slow = 300, 10
    t = time.perf_counter()
    reps = 20
    for k in range(reps):
        sample(net, n_fast, k, as_frame=False)
    fast = reps * n_fast / (time.perf_counter() - t)
    t = time.perf_counter()
    naive_sampler(net, n_slow, np.random.default_rng(0))
    slow = n_slow / (time.perf_counter() - t)
    print(f"  sampler N = {n_features}, N_k = {max_parents}: vectorised {fast:,.0f} records/s, "
          f"per-record loop {slow:,.0f} records/s, ratio {fast / slow:,.0f}x")


def enumeration_ratio(n_features=12, n_rows=200, n_test=100, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n_rows, n_features))
    y = (X[:, 0] ^ (rng.random(n_rows) < 0.2)).astype(int)
    Xte = rng.integers(0, 2, (n_test, n_features))
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        fast = ModelAveragedNaiveBayes().fit(X, y).predict_proba(Xte)
    t_fast = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    st = naive_family_statistics(X, y, np.full(n_features, 2), 2)
    S = np.array(list(itertools.product([False, True], repeat=n_features)))
    lw = np.where(S, np.log(0.5) + st["log_ml_arc"], np.log(0.5) + st["log_ml_no_arc"]).sum(1)
    lw -= logsumexp(lw)
    slow = np.empty((n_test, 2))
    feat = np.arange(n_features)
    for r, x in enumerate(Xte):
        lc = st["log_theta_arc"][feat, :, x]  # (N, K)
        l0 = st["log_theta_no_arc"][feat, x]
        joint = st["class_log_prior"] + np.where(S[:, :, None], lc[None], l0[None, :, None]).sum(1)
        tot = logsumexp(lw[:, None] + joint, axis=0)
        slow[r] = np.exp(tot - logsumexp(tot))
    t_slow = time.perf_counter() - t
    err = np.abs(fast - slow).max()
    print(f"  theta* vs enumeration of 2^{n_features} structures ({n_rows} train, {n_test} test): "
          f"{t_fast * 1e3:.2f} ms vs {t_slow * 1e3:.0f} ms, ratio {t_slow / t_fast:,.0f}x, "
          f"max |diff| {err:.1e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2002)
    args = ap.parse_args()
    print("Baselines (same process):")
    sampler_ratio(500, 5)
    sampler_ratio(200, 200)
    enumeration_ratio()
    t1, r1 = run_test("Nodes test", 500, 5, 200, 100, args.trials, args.seed)
    t2, _ = run_test("Density test", 200, 200, 200, 100, args.trials, args.seed + 1)
    # the same trials through DataFrames of categoricals (first 20 trials): same
    # results, and the cost of per-column validation
    n_df = min(20, args.trials)
    t_df, r_df = run_test("Nodes test, DataFrame path", 500, 5, 200, 100, n_df, args.seed,
                          as_frame=True)
    same = np.allclose(r_df[0], r1[0][: len(r_df[0])], atol=1e-12)
    print(f"  per trial: DataFrame {t_df / n_df * 1e3:.0f} ms vs int codes "
          f"{t1 / args.trials * 1e3:.0f} ms (ratio {t_df / n_df / (t1 / args.trials):.1f}x); "
          f"same Delta_ROC values: {same}")
    budget = 120.0
    print(f"\nnodes test {t1:.1f} s, density test {t2:.1f} s "
          f"(target: each under {budget:.0f} s): "
          f"{'OK' if max(t1, t2) < budget else 'TOO SLOW'}")


if __name__ == "__main__":
    pd.set_option("display.width", 120)
    main()
