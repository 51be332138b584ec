"""Speed of Dash & Cooper's experiments: the chapter's trial loop at its largest settings.

Runs, exactly as the chapter does (``run`` of credal.chapters.exact_model_averaging:
batched random networks and sampling,
evaluation through credal.experiments, ROC areas from the engine's predictions
table):

* the nodes test at N = 500 features (501 nodes), N_k = 5, N_r = 200, N_test = 100;
* the density test at N = 200 features, N_k = 200, N_r = 200, N_test = 100;

each with 500 trials (``--trials``) and ``--jobs`` workers, and prints wall times,
trials per second and sampled records per second. Target: each under 2 minutes.

Baselines run here, in the same process, for ratios:

* sampling one trial at a time (``random_network`` + ``sample``) against
  ``sample_random_trials`` (all trials of a batch at once), and a sampler that loops
  over records and nodes in Python;
* the engine's cost per trial against fitting and scoring the two classifiers
  directly, and what fingerprinting the data would add (the engine hashes data
  only to name cache files, so not in the chapter, which runs without a cache);
* exact averaging by enumerating all 2**N structures (N = 12) against the closed
  form of ModelAveragedNaiveBayes.

Run:  .venv/bin/python benchmarks/bench_networks.py [--trials 500] [--jobs 2]
"""

from __future__ import annotations

import argparse
import time

import joblib
import numpy as np
import pandas as pd

from credal import experiments
from credal.averaging import ModelAveragedNaiveBayes
from credal.chapters.exact_model_averaging import classifiers, run
from credal.networks import choose_class_node, random_network, sample, sample_random_trials


def chapter_test(label, n_features, max_parents, n_train, n_test, trials, jobs, seed):
    t0 = time.perf_counter()
    settings = dict(n_features=n_features, n_train=n_train, max_parents=max_parents,
                    n_test=n_test, n_trials=trials)
    df = run({label: settings}, check_n_features=None, random_state=seed,
             n_jobs=jobs)["trials"][label]
    wall = time.perf_counter() - t0
    sec = df.attrs["seconds"]
    n_rec = trials * (n_train + n_test)
    print(f"\n{label}: N = {n_features}, N_k = {max_parents}, N_r = {n_train}, "
          f"N_test = {n_test}, {trials} trials, {jobs} worker(s)")
    print(f"  wall {wall:7.2f} s = {trials / wall:6.1f} trials/s "
          f"= {n_rec / wall:,.0f} records/s generated and classified")
    print(f"  worker time: generating {sec['generate']:.1f} s "
          f"({n_rec / sec['generate']:,.0f} records/s, "
          f"{n_rec * (n_features + 1) / sec['generate']:,.0f} node values/s), "
          f"engine {sec['engine']:.1f} s ({1e3 * sec['engine'] / trials:.1f} ms/trial); "
          f"processor time {sec['cpu']:.1f} s")
    print(f"  mean Delta_ROC = {df['delta_roc'].mean():.2f} %, "
          f"mean delta_ROC = {df['delta_roc_remaining'].mean():.2f} %, "
          f"{int(df['delta_roc_remaining'].isna().sum())} trials with a one-class test set")
    return wall


def sampler_ratio(n_features, max_parents, n=300, trials=20, seed=0):
    seeds = [np.random.SeedSequence(seed, spawn_key=(t,)) for t in range(trials)]
    t = time.perf_counter()
    for s in seeds:
        rng = np.random.default_rng(s)
        net = random_network(n_features + 1, max_parents, rng)
        choose_class_node(net, rng)
        sample(net, n, rng, as_frame=False)
    one = (time.perf_counter() - t) / trials
    t = time.perf_counter()
    sample_random_trials(n_features + 1, max_parents, n, seeds)
    batch = (time.perf_counter() - t) / trials
    net = random_network(n_features + 1, max_parents, seed)
    t = time.perf_counter()
    slow_n = 5
    naive_sampler(net, slow_n, np.random.default_rng(0))
    slow = (time.perf_counter() - t) / slow_n * n
    print(f"  sampling N = {n_features}, N_k = {max_parents}, {n} records per trial: "
          f"batched {1e3 * batch:.1f} ms/trial, one trial at a time {1e3 * one:.1f} ms "
          f"({one / batch:.1f}x), per-record loop {1e3 * slow:,.0f} ms ({slow / batch:,.0f}x)")


def naive_sampler(net, n, rng):
    """Baseline: loop over records and nodes, one CPT column at a time."""
    x = np.zeros((n, net.n_nodes), dtype=np.int64)
    for r in range(n):
        for i in range(net.n_nodes):
            p = net._conditional(i, x[r : r + 1, net.parent_indices[i]])[0]
            x[r, i] = min(int(np.searchsorted(np.cumsum(p), rng.random(), side="right")),
                          len(p) - 1)
    return x


def engine_overhead(n_features, trials=40, n_train=200, n_test=100, seed=0):
    codes, cls = sample_random_trials(n_features + 1, 5, n_train + n_test, range(trials))
    states = pd.CategoricalDtype(["0", "1"])
    items = []
    for t, (x, c) in enumerate(zip(codes, cls)):
        X = np.delete(x, c, axis=1)
        y = pd.Series(pd.Categorical.from_codes(x[:, c], dtype=states))
        items.append(experiments.holdout_item(f"t{t}", (X[:n_train], y.iloc[:n_train]),
                                              (X[n_train:], y.iloc[n_train:])))
    clf = classifiers(2)
    experiments.cross_validate(clf, items[:1], use_predefined_split=True,
                               preprocessing=None, keep_codes=True, progress=False)
    t = time.perf_counter()
    experiments.cross_validate(clf, items, use_predefined_split=True,
                               preprocessing=None, keep_codes=True, progress=False)
    engine = (time.perf_counter() - t) / trials
    t = time.perf_counter()
    for name, X, y, split in items:
        tr, te = split == "train", split == "test"
        for est in clf.values():
            m = ModelAveragedNaiveBayes(**est.get_params()).fit(X[tr], y[tr])
            m.predict(X[te])
            m.predict_proba(X[te])
    direct = (time.perf_counter() - t) / trials
    t = time.perf_counter()
    for name, X, y, _ in items:
        joblib.hash((name, X, y))
    fingerprint = (time.perf_counter() - t) / trials
    print(f"  engine N = {n_features}: {1e3 * engine:.1f} ms/trial vs direct fit + predict "
          f"of both classifiers {1e3 * direct:.1f} ms; overhead {1e3 * (engine - direct):.1f} "
          f"ms/trial; fingerprinting the data (only with a cache) would add "
          f"{1e3 * fingerprint:.1f} ms")


def enumeration_ratio(n_features=12):
    t = time.perf_counter()
    out = run({}, check_n_features=n_features, random_state=0)["check"]  # 200 + 100 records
    both = time.perf_counter() - t
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (200, n_features))
    y = rng.integers(0, 2, 200)
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        ModelAveragedNaiveBayes().fit(X, y).predict_proba(X[:100])
    fast = (time.perf_counter() - t) / reps
    print(f"  closed form {1e3 * fast:.2f} ms vs enumeration of 2^{n_features} structures "
          f"{1e3 * both:.0f} ms (ratio {both / fast:,.0f}x); "
          f"max |difference| {out['max_abs_difference']:.1e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2002)
    args = ap.parse_args()
    print("Baselines (same process):")
    sampler_ratio(500, 5)
    sampler_ratio(200, 200)
    engine_overhead(5)
    engine_overhead(500)
    enumeration_ratio()
    t1 = chapter_test("nodes", 500, 5, 200, 100, args.trials, args.jobs, args.seed)
    t2 = chapter_test("density", 200, 200, 200, 100, args.trials, args.jobs, args.seed)
    budget = 120.0
    print(f"\nnodes test N = 500: {t1:.1f} s, density test N_k = 200: {t2:.1f} s "
          f"(target: each under {budget:.0f} s): "
          f"{'OK' if max(t1, t2) < budget else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
