"""Chapter ``exact-model-averaging``: Dash & Cooper (2002), exact naive Bayes model averaging.

Reruns Dash & Cooper's Sec. 4.2 (Procedure 2): data drawn from random Bayesian networks
(Procedure 1), ALARM and HEPAR II; the model-averaged naive Bayes (MA) against the naive
Bayes with every arc (MAP), both :class:`credal.averaging.ModelAveragedNaiveBayes`, scored
by ROC area through :func:`credal.experiments.cross_validate`. Interface: :func:`classifiers`,
:func:`run` (the check by enumeration and each test's trials, sampled in batches by
:func:`credal.networks.sample_random_trials`), :func:`tables`, :func:`numbers`,
:data:`HEADLINE` and the figures (the layout of the paper's Figures 2-5).
"""

from __future__ import annotations

import time
import zlib
from functools import partial

import joblib
import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import logsumexp

from credal import datasets, experiments
from credal.averaging import ModelAveragedNaiveBayes, naive_family_statistics
from credal.chapters._display import TEXT_WIDTH
from credal.chapters._verdicts import Headline, Headlines, Published, Reading, verdict_counts
from credal.metrics import binary_log_odds, binary_roc_areas, delta_roc, delta_roc_remaining
from credal._validation import check_int
from credal.networks import forward_sample, load_network, sample_random_trials, split_class

__all__ = ["CITATION", "HEADLINE", "classifiers", "run", "tables", "numbers",
           "random_networks_figure", "delta_roc_figure"]

#: The paper, as the chapter's at-a-glance box cites it (title and authors as in
#: ../shared/papers/dash-cooper-exact-model-averaging-naive-bayes.txt).
CITATION = ("D. Dash and G. F. Cooper (2002). *Exact model averaging with naive Bayesian "
            "classifiers*. ICML 2002 (International Conference on Machine Learning).")


# ------------------------------ The classifiers: MA and MAP naive Bayes (Dash & Cooper, Sec. 4.2)

#: Names of the two classifiers in the engine's tables.
_MA, _MAP = "MA naive", "MAP naive"


def classifiers(min_categories=2):
    """The two classifiers Dash & Cooper compare, with the K2 prior and uniform structure prior.

    Parameters
    ----------
    min_categories : int or array-like of int
        Declared numbers of states of the features (see
        :class:`ModelAveragedNaiveBayes`); 2 for the paper's binary random networks.

    Returns
    -------
    dict of str -> ModelAveragedNaiveBayes
        ``"MA naive"``: exact averaging over all naive structures (``structure="average"``);
        ``"MAP naive"``: every arc, posterior-mean parameters (``structure="full"``).
    """
    return {name: ModelAveragedNaiveBayes(alpha=1.0, arc_prior=0.5, prior="k2",
                                          structure=structure, min_categories=min_categories)
            for name, structure in ((_MA, "average"), (_MAP, "full"))}


# ---- Run: Procedure 2 through the evaluation engine (run()), one ROC area per (trial, classifier)

# cells (records x nodes) of generated data held at once by one batch
_BATCH_CELLS = 1 << 22
_MAX_BATCH_TRIALS = 50


def _roc_areas(result):
    """One ROC area per (data set, classifier) from a CVResult of two-class data sets run with
    ``keep_predictions=True``: columns ``dataset``, ``classifier`` and ``roc_area`` (NaN where the
    test records hold a single class), :func:`credal.metrics.binary_roc_areas` of the second class
    on :func:`credal.metrics.binary_log_odds` (saturated probabilities do not tie)."""
    pred = result.predictions
    if pred.empty or pred["proba"].isna().any() or any(len(c) != 2
                                                       for c in result.classes.values()):
        raise ValueError("_roc_areas needs two classes and the predictions table with class "
                         "probabilities (keep_predictions=True, classifiers with predict_proba)")
    # groups numbered in order of first appearance, like drop_duplicates keeps them
    gid = pred.groupby(["dataset", "classifier"], sort=False).ngroup().to_numpy()
    keys = pred[["dataset", "classifier"]].drop_duplicates().reset_index(drop=True)
    second = {d: str(c[1]) for d, c in result.classes.items()}
    positive = (pred["y_true"].astype(str) == pred["dataset"].map(second)).to_numpy()
    proba = np.array(pred["proba"].tolist(), dtype=np.float64)
    return keys.assign(roc_area=binary_roc_areas(gid, positive, binary_log_odds(proba)))


def _evaluate_batch(t0, c0, meta, data, states, n_train, classifiers, cache_dir):
    """One engine call for a batch of trials begun at ``t0`` (wall) and ``c0`` (processor):
    ``data`` holds each trial's features and class codes (of the classes ``states``), the
    first ``n_train`` records for training; returns ``meta`` (a row per trial, named in
    ``dataset``) with both areas, and the times."""
    items, states = [], pd.CategoricalDtype(states)
    for name, (X, yc) in zip(meta["dataset"], data):
        y = pd.Series(pd.Categorical.from_codes(yc, dtype=states))
        items.append(experiments.holdout_item(name, (X[:n_train], y.iloc[:n_train]),
                                              (X[n_train:], y.iloc[n_train:])))
    t1 = time.perf_counter()
    res = experiments.cross_validate(
        # integer codes straight to the classifiers: no DataFrame of hundreds of
        # categorical columns per trial (most of the engine's time otherwise)
        classifiers, items, use_predefined_split=True, preprocessing=None, keep_codes=True,
        n_jobs=1, cache_dir=cache_dir, progress=False, keep_predictions=True)
    areas = _roc_areas(res).pivot(index="dataset", columns="classifier", values="roc_area")
    return (meta.assign(roc_ma=areas.loc[meta["dataset"], _MA].to_numpy(),
                        roc_map=areas.loc[meta["dataset"], _MAP].to_numpy()),
            {"generate": t1 - t0, "engine": time.perf_counter() - t1,
             "cpu": time.process_time() - c0})


def _collect(jobs, n_jobs, sort):
    """Run the batches (in parallel); their trials sorted by ``sort``, with Delta_ROC and
    delta_ROC (in percent, where both areas are defined), and the batches' summed times in
    ``attrs["seconds"]``."""
    out = joblib.Parallel(n_jobs=n_jobs)(jobs)
    df = pd.concat([f for f, _ in out], ignore_index=True).drop(columns="dataset")
    df = df.sort_values(sort, kind="stable").reset_index(drop=True)
    ma, mp = df["roc_ma"].to_numpy(dtype=float), df["roc_map"].to_numpy(dtype=float)
    pos = (ok := ~np.isnan(ma) & ~np.isnan(mp)) & (mp > 0)
    df["delta_roc"], df["delta_roc_remaining"] = np.full(len(df), np.nan), np.nan
    df.loc[pos, "delta_roc"] = 100.0 * delta_roc(ma[pos], mp[pos])
    df.loc[ok, "delta_roc_remaining"] = 100.0 * delta_roc_remaining(ma[ok], mp[ok])
    df.attrs["seconds"] = {k: sum(t[k] for _, t in out) for k in ("generate", "engine", "cpu")}
    return df


def _trial_seed(random_state, test, setting, trial):
    """A seed that depends on the test's name, the setting and the trial only."""
    key = (zlib.crc32(str(test).encode()),) + tuple(int(v) for v in setting) + (int(trial),)
    return np.random.SeedSequence(int(random_state), spawn_key=key)


def _random_batch(test, n_features, max_parents, n_train, n_test, trials, random_state,
                  cache_dir, columns="simplex", seed_test=None):
    t0, c0 = time.perf_counter(), time.process_time()
    setting = (n_features, max_parents, n_train, n_test)
    seeds = [_trial_seed(random_state, seed_test or test, setting, t) for t in trials]
    codes, cls = sample_random_trials(n_features + 1, max_parents, n_train + n_test, seeds,
                                      columns=columns)
    data = [(np.delete(x, c, axis=1), x[:, c]) for x, c in zip(codes, cls)]
    meta = pd.DataFrame({
        "dataset": [f"{test}|N={n_features}|Nk={max_parents}|Nr={n_train}|Ntest={n_test}|"
                    f"trial={t}" for t in trials],
        "test": test, "n_features": n_features, "max_parents": max_parents,
        "n_train": n_train, "n_test": n_test, "trial": list(trials),
        "class_node": [f"X{c + 1}" for c in cls]})
    return _evaluate_batch(t0, c0, meta, data, ["0", "1"], n_train, classifiers(2), cache_dir)


def _network_batch(test, network, class_node, n_train, n_test, trials, random_state, cache_dir):
    t0, c0 = time.perf_counter(), time.process_time()
    k, n = network.index(class_node), n_train + n_test
    dtype = np.int8 if network.n_states.max() <= 127 else np.int64
    # each trial's uniforms are those credal.networks.sample draws from the trial's
    # seed; one forward pass over all of them shares the per-node work of the batch
    u = np.concatenate([
        np.random.default_rng(_trial_seed(random_state, test, (k, n_train, n_test), t)).random(
            (network.n_nodes, n)) for t in trials], axis=1)
    codes = forward_sample(network, u).astype(dtype).reshape(len(trials), n, -1)
    meta = pd.DataFrame({
        "dataset": [f"{test}|class={network.nodes[k]}|Nr={n_train}|Ntest={n_test}|trial={t}"
                    for t in trials],
        "test": test, "network": network.name, "n_features": network.n_nodes - 1,
        "max_parents": network.max_in_degree, "n_train": n_train, "n_test": n_test,
        "trial": list(trials), "class_node": network.nodes[k]})
    return _evaluate_batch(t0, c0, meta, [split_class(network, x, k) for x in codes],
                           list(network.states(k)), n_train,
                           classifiers(np.delete(network.n_states, k)), cache_dir)


def _batches(n_trials, cells_per_trial, max_cells):
    size = int(min(_MAX_BATCH_TRIALS, max(1, max_cells // max(1, cells_per_trial))))
    return [range(a, min(n_trials, a + size)) for a in range(0, n_trials, size)]


def _as_list(v, name, low=1):
    if not (vals := [check_int(name, x, low) for x in np.atleast_1d(v).tolist()]):
        raise ValueError(f"{name} is empty")
    return vals


def _test_trials(test, n_train, *, random_state, n_jobs, cache_dir, network=None, class_nodes=(),
                 n_features=None, max_parents=None, n_test=None, n_trials=None,
                 max_batch_cells=_BATCH_CELLS, columns="simplex", seed_test=None):
    """Procedure 2 for one test of :func:`run`, which documents the arguments: on a fixed
    ``network`` (ALARM, HEPAR II; the test named after it), else on random networks (Procedure 1;
    ``test`` is the name in the seeds unless ``seed_test`` is given)."""
    fixed, Nrs = network is not None, _as_list(n_train, "n_train")
    n_test, n_trials = (check_int(k, (d[0] if fixed else d[1]) if v is None else v, 1) for k, v, d
                        in (("n_test", n_test, (1000, 100)), ("n_trials", n_trials, (100, 500))))
    if fixed:
        network = load_network(network) if isinstance(network, str) else network
        if not (nodes := [v for v in class_nodes if network.index(v) >= 0]):  # index raises
            raise ValueError("class_nodes is empty")  # with the list of nodes
        return _collect([joblib.delayed(_network_batch)(network.name, network, v, Nr, n_test,
                                                        trials, random_state, cache_dir)
                         for v in nodes for Nr in Nrs for trials in _batches(
                             n_trials, (Nr + n_test) * network.n_nodes, max_batch_cells)],
                        n_jobs, ["class_node", "n_train", "trial"])
    Ns, Nks = _as_list(n_features, "n_features"), _as_list(max_parents, "max_parents", 0)
    return _collect([joblib.delayed(_random_batch)(test, N, Nk, Nr, n_test, trials, random_state,
                                                   cache_dir, columns, seed_test)
                     for N in Ns for Nk in Nks for Nr in Nrs
                     for trials in _batches(n_trials, (Nr + n_test) * (N + 1), max_batch_cells)],
                    n_jobs, ["n_features", "max_parents", "n_train", "trial"])


def _enumeration_check(n_features, random_state):
    """The closed-form averaged classifier against explicit averaging over the 2**N
    (N <= 16) structures, on data of one random network (Procedure 1): the reference sums
    the joint predictive ``P(c, f | S, D)`` of every naive structure weighted by
    ``P(S | D)`` (uniform structure prior, K2) and conditions on the features afterwards
    (the paper's Eq. 7). Returns ``n_features``, ``n_structures``, ``n_test``,
    ``max_abs_difference`` (largest difference of a class probability over the test
    records) and ``same_class`` (share of test records where both pick the same class)."""
    if not 1 <= int(n_features) <= 16:
        raise ValueError(f"n_features must lie in [1, 16] (2**N structures); got {n_features!r}")
    n_train, n_test = 200, 100
    codes, cls = sample_random_trials(n_features + 1, 5, n_train + n_test,
                                      [np.random.SeedSequence(int(random_state))])
    x, c = codes[0].astype(np.int64), int(cls[0])
    X, y = np.delete(x, c, axis=1), x[:, c]
    Xtr, ytr, Xte = X[:n_train], y[:n_train], X[n_train:]
    fast = ModelAveragedNaiveBayes(min_categories=2).fit(
        Xtr, pd.Categorical.from_codes(ytr, categories=["0", "1"])).predict_proba(Xte)
    st = naive_family_statistics(Xtr, ytr, np.full(n_features, 2), 2)
    S = ((np.arange(2**n_features)[:, None] >> np.arange(n_features)[None, :]) & 1).astype(bool)
    log_post = np.where(S, st["log_ml_arc"], st["log_ml_no_arc"]).sum(axis=1)  # uniform prior
    log_post -= logsumexp(log_post)
    feat = np.arange(n_features)
    lc = st["log_theta_arc"][feat[None, :], :, Xte]  # (n_test, N, K)
    l0 = st["log_theta_no_arc"][feat[None, :], Xte]  # (n_test, N)
    # joint of every structure and test record: (2**N, n_test, K)
    joint = st["class_log_prior"] + np.where(S[:, None, :, None], lc[None], l0[None, :, :, None]
                                             ).sum(axis=2)
    # P(c, f | D) = sum over structures of P(c, f | S, D) P(S | D), then conditioned on f
    avg = logsumexp(log_post[:, None, None] + joint, axis=0)
    slow = np.exp(avg - logsumexp(avg, axis=1, keepdims=True))
    return {"n_features": int(n_features), "n_structures": int(2**n_features),
            "n_test": int(n_test), "max_abs_difference": float(np.abs(fast - slow).max()),
            "same_class": float(np.mean(fast.argmax(1) == slow.argmax(1)))}


#: The paper's tests: their setting column and their label in ``dash_cooper_test_settings.csv``
#: (``"columns"``, the sensitivity run with other CPT columns, is not the paper's).
_TESTS = {"nodes": ("n_features", "nodes test"), "records": ("n_train", "training-records test"),
          "density": ("max_parents", "density test"),
          "worst-case": ("n_train", "worst-case training-records test"),
          "alarm": ("n_train", "ALARM network"), "hepar2": ("n_train", "HEPAR network")}


def run(settings, *, check_n_features=10, random_state=0, n_jobs=1, cache_dir=None):
    """Every computation of the chapter: the check by enumeration and the trials of each test.

    A random-network trial draws a network over N + 1 binary nodes (Procedure 1), picks the class
    node uniformly, samples N_r + N_test records, fits MA and MAP (:func:`classifiers`) on the
    first N_r and scores both on the rest by ROC area (Procedure 2), for every combination of the
    given N, N_r and N_k; a network test samples a fixed network, for every class node. Trials are
    generated in batches (:func:`credal.networks.sample_random_trials`), each one
    :func:`credal.experiments.cross_validate` call (holdout items, predictions kept), batches in
    parallel (joblib). Trial ``t`` of a setting gets a seed from ``random_state``, the test's name,
    the setting and ``t``: results do not depend on ``n_jobs``, the batch size or which other tests
    run.

    Parameters
    ----------
    settings : dict of str -> dict
        Test name (``"nodes"``, ``"records"``, ``"density"``, ``"worst-case"``, ``"alarm"``,
        ``"hepar2"``, the sensitivity run ``"columns"``) -> its settings. A random-network test:
        ``n_features`` (N >= 1), ``n_train`` (N_r >= 1) and ``max_parents`` (N_k), each an int or
        list of int; ``n_test`` (per trial, default 100), ``n_trials`` (per setting, default 500),
        optionally ``test`` (its name in the tables and seeds; default the key), ``seed_test`` (the
        name in the seeds instead: the same structures, class nodes and uniforms as that test) and
        ``columns`` (``"simplex"``, the paper's reading, or ``"normalised-uniforms"``; see
        :func:`credal.networks.sample_random_trials`). A network test: ``network`` (a
        :class:`credal.networks.BayesianNetwork` or a shipped one's name), ``class_nodes`` (list),
        ``n_train`` (int or list), ``n_test`` (default 1000), ``n_trials`` (default 100). Either
        may give ``max_batch_cells``: records x nodes generated at once by one batch (memory
        bound).
    check_n_features : int or None
        Features of the check by enumeration (:func:`_enumeration_check`, ``2**N`` structures);
        None skips it.
    random_state, n_jobs, cache_dir : int, int, path-like or None
        Seed; joblib workers over batches of trials; the engine's cache of finished (trial,
        classifier) pairs.

    Returns
    -------
    dict
        ``"trials"``: test -> DataFrame, one row per (setting, trial): ``test``, ``n_features``,
        ``max_parents``, ``n_train``, ``n_test``, ``trial``, ``class_node``, ``roc_ma``,
        ``roc_map``, ``delta_roc`` and ``delta_roc_remaining`` (percent; NaN where the test records
        hold one class; network tests add ``network``); ``attrs["seconds"]``: wall time generating
        data (``"generate"``), in the engine (``"engine"``), processor time of both (``"cpu"``),
        summed over workers. ``"check"``: the check by enumeration (``n_features``,
        ``n_structures``, ``n_test``, ``max_abs_difference``, ``same_class``). ``"seconds"``: test
        -> wall time of its trials.
    """
    out = {"trials": {}, "seconds": {}, "check": None if check_n_features is None else
           _enumeration_check(n_features=check_n_features, random_state=random_state)}
    for key, kw in settings.items():
        t0 = time.perf_counter()
        out["trials"][key] = _test_trials(**{"test": key, **kw}, random_state=random_state,
                                          n_jobs=n_jobs, cache_dir=cache_dir)
        out["seconds"][key] = time.perf_counter() - t0
    return out


# --------- The chapter's tables (our means beside the paper's statements), the numbers it quotes

_SYMBOL = {"n_features": "N", "n_train": "N_r", "max_parents": "N_k"}


def _pooled_stats(trials, q):
    """Mean, sd, count and 99% interval of the mean of ``q`` over ``trials``."""
    if (n := len(v := trials[q].dropna().to_numpy())) == 0:
        return np.nan, np.nan, np.nan, (np.nan, np.nan)
    mean, sd = float(v.mean()), float(v.std(ddof=1)) if n > 1 else np.nan
    half = stats.t.ppf(0.995, n - 1) * sd / np.sqrt(n) if n > 1 else np.nan
    return mean, sd, n, (mean - half, mean + half)


def _ci(lo, hi):  # an interval as the tables print it (2 decimals; "–" for a missing end)
    return " to ".join("–" if not np.isfinite(v) else f"{v:.2f}" for v in (lo, hi))


def _values(vals):
    return ", ".join(map(str, sorted({int(v) for v in vals}))) or "–"


def _summarise_trials(trials, by):
    """One row per setting of ``trials`` (grouped by the columns ``by``): ``n_trials``,
    ``n_used`` (trials whose test records hold both classes), mean areas ``roc_map`` and
    ``roc_ma``, and for ``q`` in (``delta_roc``, ``delta_roc_remaining``), in percent:
    ``q_mean``, ``q_sd`` (spread of the trials), ``q_se`` (of the mean), ``q_ci_low`` and
    ``q_ci_high`` (Student-t 99% interval) and ``q_p`` (two-sided p-value of mean = 0)."""
    g = trials.groupby(by, sort=True)
    out = pd.DataFrame({"n_trials": g.size(), "n_used": g["delta_roc_remaining"].count(),
                        "roc_map": g["roc_map"].mean(), "roc_ma": g["roc_ma"].mean()})
    for q in ("delta_roc", "delta_roc_remaining"):
        n, mean, sd = g[q].count().astype(float), g[q].mean(), g[q].std(ddof=1)
        se = sd / np.sqrt(n)
        with np.errstate(invalid="ignore"):
            half = stats.t.ppf(0.995, n - 1) * se
            tstat = mean / se
        out = out.assign(**{f"{q}_mean": mean, f"{q}_sd": sd, f"{q}_se": se,
                            f"{q}_ci_low": mean - half, f"{q}_ci_high": mean + half,
                            f"{q}_p": 2 * stats.t.sf(np.abs(tstat), n - 1)})
    return out.reset_index()


def _means(summary, x):
    """:func:`_summarise_trials` by the setting ``x``, rounded, with readable names: ROC changes in
    percent, each mean with its standard error, 99% interval and the sd of the trials."""
    out = summary[["class_node"]].rename(columns={"class_node": "class node"}) \
        if "class_node" in summary else pd.DataFrame()
    out = out.assign(**{_SYMBOL.get(x, x): summary[x].astype(int),
                        "trials used": summary["n_used"].astype(int),
                        **{f"ROC {k.upper()}": summary[f"roc_{k}"].round(3)
                           for k in ("map", "ma")}})
    for q, name in (("delta_roc", "Δ_ROC %"), ("delta_roc_remaining", "δ_ROC %")):
        out = out.assign(**{f"{name} mean": summary[f"{q}_mean"].round(2),
                            f"{name} SE": summary[f"{q}_se"].round(2), f"{name} 99% CI": list(
                                map(_ci, summary[f"{q}_ci_low"], summary[f"{q}_ci_high"])),
                            f"{name} sd": summary[f"{q}_sd"].round(2)})
    return out


def _settings_table(results, summaries):
    """Table 2, one row per test of :data:`_TESTS` (``results``: trials, ``summaries``:
    theirs): ``test``, ``figure``, and for N, N_r, N_test, N_k, trials and class nodes the
    paper's value and ours."""
    pub, rows = datasets.published("dash_cooper_test_settings").set_index("test"), []
    for key, (_, label) in _TESTS.items():
        p, t, ours = pub.loc[label], results.get(key), {}
        if t is not None and not t.empty:
            nodes = sorted(t["class_node"].unique()) if key in ("alarm", "hepar2") else []
            ours = {"N": _values(t["n_features"]), "N_r": _values(t["n_train"]),
                    "N_test": _values(t["n_test"]), "N_k": _values(t["max_parents"]),
                    "trials": _values(summaries[key]["n_trials"]),
                    "class": ", ".join(nodes) or "random node"}
        rows.append({"test": key, "figure": p["figure"], **{
            f"{col} ({who})": v for col, pcol in (*((c, c) for c in ("N", "N_r", "N_test", "N_k")),
                                                  ("trials", "N_trials"), ("class", "class_nodes"))
            for who, v in (("paper", str(p[pcol]).replace(";", ",")),
                           ("ours", ours.get(col, "–")))}})
    return pd.DataFrame(rows)


def _shared_setting(results):
    """Table 6: the setting N = 200, N_r = 200, N_k = 5 that the nodes, training-records
    and density tests share (``results``: trials keyed as :data:`_TESTS`). One row per
    test that ran it: trials used, mean Δ_ROC and δ_ROC (percent) with 99% intervals, and
    the paper's reading for that test."""
    paper = {"nodes": ("about 5 (N > 150)", "about 10 (N > 150)"),
             "records": ("about 5 (maximum, 200 to 800 records)",
                         "about 10 (maximum, 200 to 800 records)"),
             "density": ("4 to 6 (N_k < 10)", "4 to 8 (N_k < 10)")}
    rows = []
    for test, (p_d, p_r) in paper.items():
        t = results.get(test, pd.DataFrame(columns=["n_features", "n_train", "max_parents"]))
        t = t[(t["n_features"] == 200) & (t["n_train"] == 200) & (t["max_parents"] == 5)]
        if t.empty:
            continue
        row = {"test": test, "trials used": int(t["delta_roc_remaining"].notna().sum())}
        for q, name, p in zip(("delta_roc", "delta_roc_remaining"), ("Δ_ROC %", "δ_ROC %"),
                              (p_d, p_r)):
            mean, _, _, ci = _pooled_stats(t, q)
            row |= {f"{name} mean": round(mean, 2), f"{name} 99% CI": _ci(*ci), f"{name} paper": p}
        rows.append(row)
    return pd.DataFrame(rows)


#: The sensitivity runs (CPT columns from normalised uniforms): run key -> the paper's test
#: whose seeds, settings and statements it repeats.
_VARIANTS = {"columns": "nodes", "columns-records": "records", "columns-density": "density"}


def _columns_tables(main, variants):
    """The sensitivity runs' tables, from the main run's trials ``main`` (test -> trials) and
    the sensitivity runs' ``variants`` (run key of :data:`_VARIANTS` -> trials; same seeds,
    CPT columns from normalised uniforms): ``columns_trials`` (the runs' trials, ``test``
    naming each), ``columns_simplex_trials`` (the main run's trials at the runs' settings and
    trial numbers), their summaries by test ``summary_columns_<generator>_<test>``
    (``<generator>``: ``simplex``, ``uniforms``), and ``columns_comparison`` (Table 12): by
    ``quantity``, one row per statement of :data:`HEADLINE` measured on both (the runs
    repeat the tests' settings and trials, so counts and claims keep their power):
    ``published``, then ours, tolerance and verdict for each generator."""
    runs = {_VARIANTS[k]: v for k, v in variants.items() if _VARIANTS[k] in main}
    same = {}
    for test, uni in runs.items():
        t, key = main[test], _TESTS[test][0]
        same[test] = t[t[key].isin(uni[key].unique()) & (t["trial"] <= uni["trial"].max())]
    out = {"columns_trials": pd.concat(runs.values(), ignore_index=True),
           "columns_simplex_trials": pd.concat(same.values(), ignore_index=True)}
    cmp = None
    for tag, key, trials in (("simplex", "simplex", same),
                             ("normalised uniforms", "uniforms", runs)):
        tabs = {}
        for test, t in trials.items():
            s = _summarise_trials(t, _TESTS[test][0])
            out[f"summary_columns_{key}_{test}"] = s
            tabs |= {f"trials_{test}": t, f"summary_{test}": s}
        h = HEADLINE.judge(tabs).set_index("quantity")
        cmp = (pd.DataFrame({"published": h["published"]}) if cmp is None else cmp).assign(
            **{f"{c} ({tag})": h[c] for c in ("ours", "tolerance", "verdict")})
    return out | {"columns_comparison": cmp}


def _mean_area_trials(trials, by):
    """``trials`` with ``delta_roc_remaining`` (percent) taken over the remaining area of the
    setting's mean MAP area, ``100 (R^_i - R_i) / (1 - mean R)`` (the mean over the trials
    where it is defined, grouped by ``by``): the mean over a setting is then the delta_ROC of
    its mean areas, and the spread that of the gains ``R^_i - R_i`` on the same scale. The
    paper's Procedure 2 states the per-trial ratio ``(R^_i - R_i) / (1 - R_i)``, which the main
    run keeps; this is the other computation, with no free parameter."""
    used = trials["delta_roc_remaining"].notna()
    mean_map = trials["roc_map"].where(used).groupby(trials[by]).transform("mean")
    gain = (trials["roc_ma"] - trials["roc_map"]) / (1.0 - mean_map)
    return trials.assign(delta_roc_remaining=(100.0 * gain).where(used))


def _mean_area_tables(trials):
    """``delta_comparison`` (Table 13): every statement of :data:`HEADLINE` whose reading changes
    when delta_ROC is computed as in :func:`_mean_area_trials` (the nodes, training-records
    and density tests in ``trials``), by ``quantity``: ``published``, then ours, tolerance and
    verdict per trial (the main run) and over the mean area."""
    tabs = {"per trial": {}, "over the mean area": {}}
    for test in ("nodes", "records", "density"):
        if (t := trials.get(test)) is None or t.empty:
            continue
        col = _TESTS[test][0]
        for key, tt in (("per trial", t), ("over the mean area", _mean_area_trials(t, col))):
            tabs[key] |= {f"trials_{test}": tt, f"summary_{test}": _summarise_trials(tt, col)}
    if not tabs["per trial"]:
        return {}
    h = {k: HEADLINE.judge(v).set_index("quantity") for k, v in tabs.items()}
    main, other = h["per trial"], h["over the mean area"]
    changed = main.index[~np.isclose(main["ours"], other["ours"].reindex(main.index),
                                     rtol=0.0, atol=1e-9, equal_nan=True)]
    out = pd.DataFrame({"published": main.loc[changed, "published"]})
    for k, v in h.items():
        out = out.assign(**{f"{c} ({k})": v.loc[changed, c] for c in ("ours", "tolerance",
                                                                       "verdict")})
    return {"delta_comparison": out}


def tables(results):
    """Every table of the chapter, from :func:`run`'s results.

    Parameters
    ----------
    results : dict
        Output of :func:`run`.

    Returns
    -------
    dict of str -> DataFrame
        ``check`` (the check by enumeration, one row) and ``enumeration_check`` (Table 1);
        for each test ``<k>`` of the paper: ``trials_<k>``, ``summary_<k>``
        (:func:`_summarise_trials` by its setting: means, standard errors, 99% intervals,
        spread, p-values, percent) and ``means_<k>`` (rounded, readable: Tables 3-5, 7-9);
        ``settings`` (Table 2), ``paper_comparison`` (Table 10), ``shared_setting`` (Table
        6); with the sensitivity run: ``columns_trials``, ``columns_simplex_trials``,
        ``summary_columns_simplex``, ``summary_columns_uniforms``, ``columns_comparison``
        (Table 12); ``delta_comparison`` (Table 13, :func:`_mean_area_tables`); ``seconds``
        (wall and processor time of each test's trials).
    """
    trials = {k: v for k, v in results["trials"].items() if k in _TESTS}
    out, check = {}, results.get("check")
    if check is not None:
        out["check"] = pd.DataFrame([check])
        out["enumeration_check"] = pd.DataFrame([{
            "features N": check["n_features"], "structures": check["n_structures"],
            "test records": check["n_test"],
            "largest difference of a class probability": f"{check['max_abs_difference']:.1e}",
            "same class chosen": f"{100 * check['same_class']:.0f}%"}])
    summaries = {k: _summarise_trials(t, ["class_node"] * (k in ("alarm", "hepar2"))
                                      + [_TESTS[k][0]]) for k, t in trials.items()}
    for k, t in trials.items():
        out[f"trials_{k}"], out[f"summary_{k}"] = t, summaries[k]
        out[f"means_{k}"] = _means(summaries[k], _TESTS[k][0])
    out["settings"] = _settings_table(trials, summaries)
    out["paper_comparison"] = _statements(out)
    out["shared_setting"] = _shared_setting(trials)
    if variants := {k: v for k, v in results["trials"].items() if k in _VARIANTS}:
        out.update(_columns_tables(trials, variants))
    out.update(_mean_area_tables(trials))
    out["seconds"] = pd.DataFrame(
        [{"test": k, "main": k in _TESTS, "wall": results.get("seconds", {}).get(k, np.nan),
          "cpu": t.attrs.get("seconds", {}).get("cpu", np.nan)}
         for k, t in results["trials"].items()], columns=["test", "main", "wall", "cpu"])
    return out


def numbers(tables):
    """The numbers the chapter's text quotes, formatted, keyed for ``myst_nb.glue``.

    Parameters
    ----------
    tables : dict of str -> DataFrame
        Output of :func:`tables`.

    Returns
    -------
    dict of str -> str
        ``ours_<id>``, ``agrees_<id>`` (each statement of Table 10), ``n_statements``, ``n_agree``;
        ``check_difference``, ``check_structures``, ``check_same`` (the check by enumeration);
        ``time_<test>`` (seconds), ``time_total``, ``cpu_total`` (minutes, the paper's tests),
        ``n_trials_total``; ``dense_roc_map``, ``sparse_roc_map`` (mean MAP area for N_k >= 40, N_k
        < 10); ``n5_gain``, ``wc200_gain`` (mean ± SE of Delta_ROC, %, at the setting the nodes
        test's N = 5 and the worst-case test's N_r = 200 share; "not run" without it);
        ``h_repro``, ``h_differs``, ``h_rows`` (headline verdicts); ``alarm_points``,
        ``alarm_chance``, ``alarm_p2`` (ALARM's anaphylaxis points and what chance gives); with the
        sensitivity runs, ``columns_n`` (its nodes test's N), ``columns_trials`` (per setting),
        ``cols_repro_simplex``, ``cols_repro_normalised``, ``cols_rows`` and the nodes test's
        mean gains ``cols_d_<g>``, ``cols_dr_<g>`` (``<g>``: ``simplex``, ``uniforms``);
        ``da_rows`` (Table 13's statements; "0" without it) and ``da_repro_trial``,
        ``da_repro_mean`` (those reproduced per trial and over the mean area).
    """
    cmp = tables["paper_comparison"]
    out = {f"{k}_{i}": str(v) for i, o, a in zip(cmp["id"], cmp["ours"], cmp["agrees"])
           for k, v in (("ours", o), ("agrees", a))}
    judged = cmp[cmp["agrees"] != "–"]
    out.update(n_statements=str(len(judged)), n_agree=str(int((judged["agrees"] == "yes").sum())))
    if "check" in tables:
        c = tables["check"].iloc[0]
        out.update(check_difference=f"{c['max_abs_difference']:.1e}",
                   check_structures=f"{int(c['n_structures']):,}",
                   check_same=f"{100 * c['same_class']:.0f}%")
    sec = tables["seconds"]
    out.update({f"time_{k}": f"{v:.0f}" for k, v in zip(sec["test"], sec["wall"])})
    main = sec[sec["main"]]
    out |= {f"{k}_total": f"{main[c].sum() / 60:.1f}" for k, c in (("time", "wall"),
                                                                     ("cpu", "cpu"))}
    out["n_trials_total"] = f"{sum(len(tables[f'trials_{k}']) for k in main['test']):,}"
    counts = verdict_counts(HEADLINE.judge(tables))
    out.update(h_repro=str(counts["reproduced"]), h_differs=str(counts["differs"]),
               h_rows=str(sum(counts.values())))
    # the nodes test's N = 5 and the worst-case test's N_r = 200: one setting (N = 5, N_k = 5,
    # N_r = 200, 100 test records), run by both
    for key, test, col, at in (("n5_gain", "nodes", "n_features", 5),
                               ("wc200_gain", "worst-case", "n_train", 200)):
        s = tables.get(f"summary_{test}", pd.DataFrame({col: []}))
        r = s[s[col] == at]
        out[key] = (f"{r['delta_roc_mean'].iloc[0]:.2f} ± {r['delta_roc_se'].iloc[0]:.2f}"
                    if len(r) else "not run")
    if (s := tables.get("summary_density")) is not None:
        out |= {f"{k}_roc_map": f"{s.loc[m, 'roc_map'].mean():.2f}" for k, m in (
            ("dense", s["max_parents"] >= 40), ("sparse", s["max_parents"] < 10))}
    if (s := tables.get("summary_alarm")) is not None:
        n = int((s["class_node"].str.lower() == "anaphylaxis").sum())
        out.update(alarm_points=str(n), alarm_chance=f"{_chance_count(n)[0]:.1f}",
                   alarm_p2=f"{_chance_probability(2, n):.2f}")
    dc = tables.get("delta_comparison", pd.DataFrame(columns=[
        "verdict (per trial)", "verdict (over the mean area)"]))
    out.update(da_rows=str(len(dc)), **{
        f"da_repro_{k}": str(int((dc[f"verdict ({v})"] == "reproduced").sum()))
        for k, v in (("trial", "per trial"), ("mean", "over the mean area"))})
    if "columns_comparison" in tables:
        uni, cmp = tables["columns_trials"], tables["columns_comparison"]
        nodes = uni[uni["test"].str.startswith("nodes")]
        out.update(columns_n=_values(nodes["n_features"]), cols_rows=str(len(cmp)),
                   columns_trials=str(int(uni["trial"].max()) + 1))
        for tag, key in (("simplex", "simplex"), ("normalised uniforms", "uniforms")):
            verdicts = cmp[f"verdict ({tag})"]
            out[f"cols_repro_{tag.split()[0]}"] = str(int((verdicts == "reproduced").sum()))
            if (s := tables.get(f"summary_columns_{key}_nodes")) is None:
                continue
            out[f"cols_dr_{key}"] = f"{s['delta_roc_remaining_mean'].mean():.1f}"
            out[f"cols_d_{key}"] = f"{s['delta_roc_mean'].mean():.1f}"
    return out


# ------- The paper's statements, each read once from tables() (:func:`_read`): Table 10 and the
# headline rows of the reproduction report (each published number declared once).
# Every tolerance follows the report's rule (credal.chapters._verdicts.tolerance). The paper's
# standard error is estimated from the spread of our trials and its own trial count per
# setting (dash_cooper_test_settings.csv; pooled settings add their counts). No extra terms:
# the paper's figures are not available to us, so no reading resolution can be measured;
# its "about 5%", "about 70%" and "-1% <~ ... <~ +11%" keep the rounding of their printed
# digit (half a unit). A ±1σ end has the SE of mean ± sd, sd sqrt(1/n + 1/(2(n-1))); a share
# of trials binomial SEs and bounds (0, 100); a ratio delta-method SEs and the half-width of
# the stated range. Counts of significant settings are exact, except the points where MAP
# beats MA significantly: SE of the chance count (_chance_count), ours and the paper's.
# Claims in words ("some", "many", "typically") are yes/no rows (1 = the claim holds).

_STATEMENTS = "dash_cooper_statements"
_PUB = datasets.published(_STATEMENTS).set_index("id")
#: Two-sided level of the paper's "MAP significantly better" points.
_CHANCE_LEVEL = 0.05
#: The cause of the differences that the other reading of the paper's generator removes.
_GENERATOR = ("protocol or data: the paper's CPT columns 'sampled independently from a uniform "
              "distribution over parameters' also read as each parameter drawn uniformly, then "
              "the column normalised (ours: uniform on the simplex); columns_comparison (Table "
              "12) shows ours under that reading, the same seeds and trials, within tolerance")
_BIG_R = ("our delta_ROC is larger than the paper's readings throughout (the same "
          "definition, (R^ - R)/(1 - R)); see the CPT-column sensitivity run and delta_ROC "
          "over the mean area (Table 13)")
#: The cause of the delta_ROC differences that delta_ROC over the setting's mean MAP area
#: removes, where the other reading of the generator does not.
_MEAN_AREA = ("protocol or data: delta_ROC taken over the setting's mean MAP area, "
              "(R^ - R)/(1 - mean R), whose mean is the delta_ROC of the mean areas, brings "
              "this statement within tolerance from the same trials, and most of the paper's "
              "other delta_ROC statements with it (delta_comparison, Table 13); the paper's "
              "Procedure 2 states the ratio per trial, which the main run keeps")


def _paper_trials(test):
    """Trials per setting of one of the paper's tests (``dash_cooper_test_settings.csv``)."""
    return int(datasets.published("dash_cooper_test_settings").set_index("test").loc[
        _TESTS[test][1], "N_trials"])


def _chance_count(n_points):
    """Mean and SD of the points significant in MAP's favour by chance alone among
    ``n_points``: where MA and MAP are equal, a two-sided test at :data:`_CHANCE_LEVEL`
    calls MAP better with probability half the level (less often where MA is better), so
    the count is at most Binomial(``n_points``, level / 2)."""
    q = _CHANCE_LEVEL / 2
    return n_points * q, float(np.sqrt(n_points * q * (1 - q)))


def _chance_probability(k, n_points):
    """Upper bound on P(``k`` or more such points by chance) (:func:`_chance_count`)."""
    return float(stats.binom.sf(k - 1, n_points, _CHANCE_LEVEL / 2)) if k >= 1 else 1.0


def _summary(tables, test, keep=None):
    """The summary of ``test`` (settings kept by ``keep(setting)``), None if not run."""
    s = tables.get(f"summary_{test}", pd.DataFrame())
    s = s if keep is None or s.empty else s[keep(s[_TESTS[test][0]])]
    return None if s.empty else s


def _cells(ours, how, ok, *rests_on, **printed):
    """Table 10's cells of a statement: ``agrees`` is "yes"/"no" as ``ok`` says, or "–"
    when a value it rests on is missing (NaN or an empty count)."""
    missing = any(v is None or not np.isfinite(v) or v == 0 and isinstance(v, (int, np.integer))
                  for v in rests_on)
    return {"ours": ours, "how": how, "agrees": "–" if missing else "yes" if ok else "no",
            **printed}


def _mean_reading(mean, sd, n, n_paper, note):  # no standard errors without a finite sd
    return Reading(mean, note=note, **(dict(spread=sd, n_ours=n, n_published=n_paper)
                                       if np.isfinite(sd) else {}))


def _check_statement(tables, p):
    """Statement 8: the closed form against averaging over every structure."""
    if "check" not in tables:
        return None
    c = tables["check"].iloc[0]
    d, n_s = float(c["max_abs_difference"]), int(c["n_structures"])
    return (Reading(d, note=f"largest class-probability difference, closed form vs. enumeration "
                            f"of {n_s} structures; rounding term 1e-9 (floating point)"),
            _cells(f"{d:.1e}", f"largest difference of a class probability over "
                               f"{int(c['n_test'])} test records, {n_s} structures; same "
                               f"class on {100 * c['same_class']:.0f}% of them",
                   c["same_class"] == 1.0 and d < 1e-9, paper="identical predictions"))


def _n_significant(tables, p, test, over, n_paper, keep=None, but=0, level=99):
    """Settings where both gains lie above 0 at the ``level`` % level (99: both 99% intervals
    above 0; 95: two-sided p < 0.05 with a positive mean); the published number is the
    paper's "all" (``but=0``) or "all but one" (``but=1``) of the settings run, printed as a
    count when we ran the paper's ``n_paper`` settings."""
    if (s := _summary(tables, test, keep)) is None:
        return None
    qs = ("delta_roc", "delta_roc_remaining")
    if level == 99:
        ok, how = (np.logical_and.reduce([s[f"{q}_ci_low"] > 0 for q in qs]),
                   f"settings {over} with both 99% CIs above 0")
    elif level == 95:
        ok = np.logical_and.reduce([(s[f"{q}_p"] < 0.05) & (s[f"{q}_mean"] > 0) for q in qs])
        how = f"settings {over} with both gains above 0 at the 95% level (two-sided p < 0.05)"
    else:
        raise ValueError(f"level is 95 or 99 (%); got {level!r}")
    k, n, all_ = int(ok.sum()), len(s), "all but one" if but else "all"
    return (Reading(float(k), published=n - but, n_ours=n, n_published=n,
                    note=f"{how} (paper: {all_})"),
            _cells(f"{k} of {n}", how, k == n - but, n,
                   paper=f"{n - but} of {n}" if n == n_paper else all_,
                   **({} if level == 99 else {"quantity": f"settings {over} significant at the "
                                                          "95% level at least (the exception "
                                                          "included)"})))


def _pooled(tables, p, test, kind, q="delta_roc", keep=None, label=None, sign=1, lo=-1, hi=1):
    """A statement on the trials of ``test`` pooled over the settings ``keep`` keeps
    (labelled ``label``; default: the settings' values), beside the paper's number of
    trials behind the same pool: ``kind`` is ``"mean"`` (of ``q``, with its 99% interval),
    ``"end"`` (mean ``sign`` 1 sd of ``q``: an end of the paper's ±1σ bars) or ``"share"``
    (percentage of trials with ``lo <= delta_roc <= hi``; the paper: about 70%)."""
    t, col = tables.get(f"trials_{test}"), _TESTS[test][0]
    t = t if t is None or keep is None else t[keep(t[col])]
    if t is None or t.empty:
        return None
    label = label or f"{_SYMBOL[col]} in {{{_values(t[col])}}}"
    n_paper = _paper_trials(test) * t[col].nunique()
    mean, sd, n, (ci_lo, ci_hi) = _pooled_stats(t, q)
    of = f"{label} (n = {n}; the paper's {n_paper})"
    if kind == "mean":
        return (_mean_reading(mean, sd, n, n_paper, f"mean of {of}"),
                _cells(round(mean, 2), f"trials with {label}; 99% CI {_ci(ci_lo, ci_hi)} (n = {n})",
                       ci_lo <= p <= ci_hi or abs(mean - p) <= 1.0, mean))
    if kind == "end":
        def se(m):  # SE of mean ± sd: var(mean) + var(sd) ≈ sd²/m + sd²/(2(m-1))
            return sd * np.sqrt(1 / m + 1 / (2 * (m - 1))) if m > 1 and np.isfinite(sd) else 0.0

        end, pm = mean + sign * sd, "-" if sign < 0 else "+"
        return (Reading(end, se=se(n), se_published=se(n_paper), note=f"mean {pm} 1 sd of {of}"),
                _cells(round(end, 2), f"mean {pm} 1 sd, {label} (n = {n})", abs(end - p) <= 2.0,
                       end))
    v = t["delta_roc"].dropna()
    how = f"share of trials with {lo} <= delta_roc <= {hi}, {label}"
    share = 100.0 * float(((v >= lo) & (v <= hi)).mean()) if len(v) else np.nan
    note = f"{how} (n = {len(v)}; the paper's {n_paper})"
    reading = Reading(share, note=note, **(dict(
        spread=100 * np.sqrt(share / 100 * (1 - share / 100)), n_ours=len(v), n_published=n_paper)
        if len(v) else {}))
    return reading, _cells(round(share, 1), how, abs(share - p) <= 10, share,
                           quantity="share of trials in the stated delta_roc region")


def _extreme_mean(tables, p, test, q, largest, keep=None, over="N_r", ci=False):
    """The largest (or smallest) mean of ``q`` over the settings of ``test``; Table 10
    shows where and its 99% interval when ``ci``."""
    if (s := _summary(tables, test, keep)) is None:
        return None
    row = s.loc[s[f"{q}_mean"].idxmax() if largest else s[f"{q}_mean"].idxmin()]
    col, n, n_p = _TESTS[test][0], int(row["n_used"]), _paper_trials(test)
    mean, lo, hi = row[f"{q}_mean"], row[f"{q}_ci_low"], row[f"{q}_ci_high"]
    how = f"{'largest' if largest else 'smallest'} mean over {over}"
    at = f"at {_SYMBOL[col]} = {int(row[col])}"
    return (_mean_reading(mean, float(row[f"{q}_sd"]), n, n_p,
                          f"{how} ({at}; n = {n}, the paper's {n_p})"),
            _cells(round(float(mean), 2),
                   how + (f" ({at}); 99% CI {_ci(lo, hi)}" if ci else ""),
                   ci and lo <= p <= hi or abs(mean - p) <= 1, mean))


def _peak(tables, p):
    """N_r of the largest mean Delta_ROC of the training-records test."""
    if (s := _summary(tables, "records")) is None:
        return None
    at = int(s.loc[s["delta_roc_mean"].idxmax(), "n_train"])
    return float(at), _cells(at, "N_r of the largest mean Delta_ROC", 200 <= at <= 800,
                             quantity="N_r of the local maximum", paper="200 to 800")


def _dense_drop(tables, p):
    """Mean Delta_ROC for N_k < 10 over the mean for N_k >= 100, with delta-method SEs."""
    t = tables.get("trials_density", pd.DataFrame({"max_parents": []}))
    sparse, dense = t[t["max_parents"] < 10], t[t["max_parents"] >= 100]
    if sparse.empty or dense.empty:
        return None
    (m1, sd1, n1, _), (m2, sd2, n2, _) = (_pooled_stats(x, "delta_roc") for x in (sparse, dense))
    n_p = _paper_trials("density")
    p1, p2 = n_p * sparse["max_parents"].nunique(), n_p * dense["max_parents"].nunique()
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.float64(m1) / m2
        # delta method, the two means independent
        se_o, se_p = (float(abs(ratio) * np.hypot(sd1 / np.sqrt(a) / m1, sd2 / np.sqrt(b) / m2))
                      for a, b in ((n1, n2), (p1, p2)))
    dense_k = f"N_k in {{{_values(dense['max_parents'])}}}"
    note = (f"mean Delta_ROC for N_k < 10 / for {dense_k} (delta-method SEs); published = "
            f"middle of 'about 2 or 3', rounding term = half that range")
    ok = np.isfinite(se_o) and np.isfinite(se_p)
    return (Reading(float(ratio), note=note, **(dict(se=se_o, se_published=se_p) if ok else {})),
            _cells(round(float(ratio), 2), f"mean Delta_ROC for N_k < 10 / mean for {dense_k}",
                   2 <= ratio <= 3, ratio, quantity="factor by which the mean drops",
                   paper="2 to 3"))


def _map_better(tables, p, test):
    """Settings where MAP beats MA significantly, judged against the chance count (the
    worst-case test, where the paper says never; ALARM's anaphylaxis node)."""
    s = _summary(tables, test)
    if s is not None and test == "alarm":
        s = s[s["class_node"].str.lower() == "anaphylaxis"]
    if s is None or s.empty:
        return None
    p, n = (p if np.isfinite(p) else 0.0), len(s)
    wins = int(((s["delta_roc_p"] < _CHANCE_LEVEL) & (s["delta_roc_mean"] < 0)).sum())
    mu, sd = _chance_count(n)
    what = "settings N_r (paper: never)" if test == "worst-case" else "N_r values on anaphylaxis"
    note = (f"{what} (of {n}) where MAP is better (Delta_ROC < 0, two-sided p < "
            f"{_CHANCE_LEVEL:g}); chance alone gives at most {mu:.2f} such points (SD "
            f"{sd:.2f}), ours and the paper's (assumed as many points)")
    if p >= 1:
        note += f"; P(>= {p:g} by chance) = {_chance_probability(p, n):.2g}"
    if test == "worst-case":
        cells = _cells(f"MA better at {int((s['delta_roc_ci_low'] > 0).sum())}, MAP better at "
                       f"{wins} of {n}", "settings N_r where Delta_ROC's 99% CI is above 0 / "
                       "where MAP is better (two-sided p < 0.05)", wins == 0,
                       paper="little if any gain; MAP never significantly better")
    else:
        cells = _cells(f"{wins} of {n}", "N_r values on anaphylaxis where MAP is better "
                       "(Delta_ROC < 0, two-sided p < 0.05)", wins == p, paper=f"{p:g} of {n}")
    return Reading(wins, n_ours=n, n_published=n, note=note), cells


def _ci_count(tables, p, test, above, how, agrees, keep=None, **printed):
    """Settings whose Delta_ROC 99% interval lies above 0 (``above``) or not; the paper's
    claim in words holds when ``agrees(k, n)``: a yes/no reading (1 = it holds)."""
    if (s := _summary(tables, test, keep)) is None:
        return None
    ci = s["delta_roc_ci_low"]
    k, n = int((ci > 0 if above else ci <= 0).sum()), len(s)
    return (Reading(float(agrees(k, n)), note=f"{how}: {k} of {n}; 1 = the paper's "
                                             f"'{printed['paper']}' holds (Table 10's rule)"),
            _cells(f"{k} of {n}", how, agrees(k, n), n, **printed))


#: The ends of the paper's ±1σ regions: test -> (statement ids, pool kept, its label, why
#: our Delta_ROC ends may differ)
_WIDER = "our trials spread wider"
_BAND_ENDS = {"nodes": ((16, 17, 18, 19), lambda n: n >= 100, None, _WIDER),
              "records": ((26, 27, 28, 29), None, "all N_r", "our trials spread differently"),
              "density": ((36, 37, 38, 39), lambda k: k < 10, "N_k < 10", _WIDER)}
#: How each statement of dash_cooper_statements.csv is read from tables(), for Table 10
#: and the headline rows: statement id -> reader(tables, published value); a headline
#: statement's reader is registered by its declaration (:func:`_stmt`).
_READERS = {
    41: partial(_ci_count, test="density", above=False, keep=lambda k: k >= 20,
                how="settings N_k >= 20 whose Delta_ROC 99% CI includes 0",
                agrees=lambda k, n: k > 0, paper="some",
                quantity="dense graphs: Delta_ROC no longer significant at some points"),
    45: partial(_ci_count, test="alarm", above=False,
                how="points (both class nodes) whose Delta_ROC 99% CI includes or is below 0",
                agrees=lambda k, n: k >= n / 4, quantity="ALARM points that miss the 99% level",
                paper="many"),
    46: partial(_ci_count, test="hepar2", above=True,
                how="points (both class nodes) whose Delta_ROC 99% CI is above 0",
                agrees=lambda k, n: n / 2 < k < n, paper="typically, not always",
                quantity="HEPAR points with MA gains at the 99% level")}


def _read(tables, i, part=None):
    """Statement ``i`` of dash_cooper_statements.csv read by its reader (:data:`_READERS`):
    ``(reading, cells)``, the :class:`Reading` of the headline row (None for a statement
    only Table 10 judges) and Table 10's ``ours``, ``how`` and ``agrees`` (and ``paper`` /
    ``quantity`` where the CSV's text is not what the table prints); or one ``part`` of
    them; None when the test it needs was not run."""
    read = _READERS[i](tables, float(_PUB.loc[i, "value"]))
    return read if read is None or part is None else read[part]


def _statements(tables):
    """Table 10: every numerical statement of Dash & Cooper's Sec. 3.2 and 4.2 with a
    measurable counterpart in ``tables`` (tests not run give no rows): ``id``, ``test``,
    ``quantity``, ``paper``, ``ours``, ``how ours is computed`` (with the 99% interval
    where ours is a mean) and ``agrees``: means when the paper's value lies in our 99%
    interval or within 1 point of our mean (figures read by eye); ±1σ ends when within 2
    points; counts when equal. ROC changes in percent."""
    rows = [{"id": i, "test": _PUB.loc[i, "test"], "quantity": _PUB.loc[i, "quantity"],
             "paper": _PUB.loc[i, "value"], **cells} for i in sorted(_READERS)
            if (cells := _read(tables, i, part=1)) is not None]
    out = pd.DataFrame(rows, columns=["id", "test", "quantity", "paper", "ours", "how", "agrees"])
    out[["paper", "ours"]] = out[["paper", "ours"]].astype(str)
    return out.rename(columns={"how": "how ours is computed"})


def _stmt(i, read, quantity=None, unit=None, published=None, why=None, **kw):
    """The declaration of statement ``i`` of ``dash_cooper_statements.csv``, ours read by
    ``read`` (registered in :data:`_READERS`); a row outside its tolerance gets "differs:
    <why>" in its note."""
    _READERS[i] = read
    return Headline(quantity=f"{_PUB.loc[i, 'test']}: {quantity or _PUB.loc[i, 'quantity']}",
                    published=published or Published(_STATEMENTS, {"id": i}),
                    ours=partial(_read, i=i, part=0), unit=unit or str(_PUB.loc[i, "unit"]),
                    differs_why=why, differs_gap=False,
                    cause=_GENERATOR if i in _BY_GENERATOR else
                    _MEAN_AREA if i in _BY_MEAN_AREA else "", **kw)


#: Statements whose difference the other reading of the generator removes (at the paper
#: profile, columns_comparison): the nodes test's means and upper ends, the training-records
#: test's share and ends, the density test's delta_ROC and its dense points' significance.
_BY_GENERATOR = {13, 14, 17, 19, 25, 26, 29, 34, 41}
#: Statements whose difference only delta_ROC over the setting's mean MAP area removes (at the
#: paper profile, delta_comparison): the density test's largest sparse mean and upper end.
_BY_MEAN_AREA = {35, 39}


_MEAN = dict(note="the paper's 'about' (or 'around'): the rounding of its printed digit only")
_SHARE = dict(bounds=(0.0, 100.0), unit="percent",
              quantity="share of trials in the stated delta_roc region (%)")
_COUNT = dict(unit="count", kind="count")


def _claim(key):
    """A claim in words as a yes/no row (dash_cooper_headline_numbers.csv: 1 = it holds)."""
    return dict(unit="yes/no", published=Published("dash_cooper_headline_numbers", {"key": key}),
                rounding=0.0, bounds=(0.0, 1.0), why="")


def _bands_of(test):
    ids, keep, label, why = _BAND_ENDS[test]
    return tuple(_stmt(i, partial(_pooled, test=test, kind="end", q=q, sign=sign, keep=keep,
                                  label=label), why=why if i in ids[:2] else _BIG_R)
                 for i, q, sign in zip(ids, ("delta_roc",) * 2 + ("delta_roc_remaining",) * 2,
                                       (-1, 1, -1, 1)))


_N150, _K10 = (lambda n: n > 150), (lambda k: k < 10)
HEADLINE = Headlines(paper="Dash & Cooper (2002)", chapter="exact-model-averaging", rows=(
    _stmt(8, _check_statement, "closed form vs. brute-force averaging: largest difference",
          "probability", Published("dash_cooper_headline_numbers",
                                   {"key": "closed_form_difference"}),
          rounding=1e-9, why="the closed form is not exact"),
    _stmt(11, partial(_n_significant, test="nodes", over="N", n_paper=9, but=1),
          "settings N with both gains significant at 99%", **_COUNT),
    _stmt(13, partial(_pooled, test="nodes", kind="mean", keep=_N150),
          why="our Delta_ROC levels off higher", **_MEAN),
    _stmt(14, partial(_pooled, test="nodes", kind="mean", q="delta_roc_remaining", keep=_N150),
          why=_BIG_R, **_MEAN),
    _stmt(15, partial(_pooled, test="nodes", kind="share", lo=-1, hi=11,
                      keep=lambda n: n >= 100), **_SHARE),
    *_bands_of("nodes"),
    _stmt(20, partial(_n_significant, test="records", over="N_r", n_paper=8),
          "settings N_r with both gains significant at 99%", **_COUNT),
    _stmt(21, partial(_extreme_mean, test="records", q="delta_roc", largest=True, ci=True),
          why="our maximum is higher", **_MEAN),
    _stmt(22, partial(_extreme_mean, test="records", q="delta_roc_remaining", largest=True,
                      ci=True), why=_BIG_R, **_MEAN),
    _stmt(23, _peak, "N_r of the local maximum of Delta_ROC", "records",
          Published(_STATEMENTS, {"test": "training-records test", "unit": "records"},
                    reduce="mean"), rounding=300.0,
          note="N_r of the largest mean Delta_ROC; published = middle of the stated 200 to "
               "800, rounding term = half that range",
          why="our maximum lies outside the paper's 200 to 800 records"),
    _stmt(25, partial(_pooled, test="records", kind="share", lo=-4, hi=9, label="all N_r"),
          **_SHARE),
    *_bands_of("records"),
    _stmt(31, partial(_n_significant, test="density", over="N_k < 10", n_paper=9, keep=_K10),
          "settings N_k < 10 with both gains significant at 99%", **_COUNT),
    *(_stmt(i, partial(_extreme_mean, test="density", q=q, largest=big, keep=_K10,
                       over="N_k < 10"),
            why="our means over N_k < 10 span a different range" if i < 34 else _BIG_R, **_MEAN)
      for i, q, big in ((32, "delta_roc", False), (33, "delta_roc", True),
                        (34, "delta_roc_remaining", False), (35, "delta_roc_remaining", True))),
    *_bands_of("density"),
    _stmt(40, _dense_drop, "factor by which mean Delta_ROC drops for very dense graphs",
          published=Published(_STATEMENTS, {"test": "density test", "unit": "factor"},
                               reduce="mean"),
          rounding=0.5, why="our gain falls further in dense networks, which stay significant"),
    # "all N save one at 99%, and that one at 95%": every N at 95% at least, a count of
    # settings like statement 11's (counts are compared as counts)
    _stmt(12, partial(_n_significant, test="nodes", over="N", n_paper=9, level=95),
          "settings N with both gains significant at 95%", **_COUNT),
    *(_stmt(i, _READERS[i], q, **_claim(key)) for i, key, q in (
        (41, "dense_not_significant", "some dense points (N_k >= 20) not significant (1 = yes)"),
        (45, "alarm_many_below_99", "many points below the 99% level (1 = yes)"),
        (46, "hepar_typically_99", "MA gains at 99% typically, not always (1 = yes)"))),
    _stmt(42, partial(_map_better, test="worst-case"),
          "settings where MAP beats MA significantly", "count",
          Published("dash_cooper_headline_numbers", {"key": "worst_case_map_better"}),
          kind="count", why="MAP wins at more training sizes than chance explains"),
    _stmt(43, partial(_map_better, test="alarm"), kind="count",
          why="the paper's two points are more than chance explains; they depend on training "
              "sizes the paper does not report (ours start at 25)"),
))


# ---------------------------------------------- Figures: the layout of the paper's Figures 2-5

_XLABEL = {"n_features": "number of features N", "n_train": "training records N_r",
           "max_parents": "maximum in-degree N_k"}
_SERIES = (("delta_roc", "Δ_ROC (relative gain)", "tab:blue", "o", 1 / 1.06),
           ("delta_roc_remaining", "δ_ROC (share of the missing area)", "tab:orange", "s", 1.06))
_NEEDED = ("mean", "sd", "ci_low", "ci_high")
#: smallest text of the figures, in points (the book shows them at natural size)
_SMALL = 9

#: The paper's stated values drawn on Figure 2, by test: the statement ids of its mean (or
#: range of means) of Delta_ROC and of delta_ROC, the setting's range they are stated for,
#: and that of its ±1σ regions (ids in :data:`_BAND_ENDS`); a bound is a number or ``("id",
#: i)``, statement i's value. The ranges are the paper's words (Sec. 4.2): "N > 150", "N ≳
#: 100", "between 200 and 800 records" (ids 23-24), "N_k < 10" (id 30).
_BANDS = {"nodes": (((13,), (14,)), (150.0, np.inf), (100.0, np.inf)),
          "records": (((21,), (22,)), (("id", 23), ("id", 24)), (-np.inf, np.inf)),
          "density": (((32, 33), (34, 35)), (-np.inf, ("id", 30)), (-np.inf, ("id", 30)))}


def _paper_bands(test):
    """The values Dash & Cooper state for one test (``"nodes"``, ``"records"``,
    ``"density"``) of their Figure 2, one row each: ``measure`` (``delta_roc`` or
    ``delta_roc_remaining``), ``kind`` (``"mean"``: a mean or range of means;
    ``"spread"``: the region of about 70% of the trials, the paper's ±1σ), ``low`` and
    ``high`` (percent; equal for one value), ``x_low`` and ``x_high`` (the setting's range
    the statement covers; ±inf when open) and ``ids`` (of dash_cooper_statements.csv)."""
    (mean_d, mean_r), x_mean, x_band = _BANDS[test]
    ends, rows = _BAND_ENDS[test][0], []
    for q, kind, ids, xr in (
            ("delta_roc", "mean", mean_d, x_mean), ("delta_roc_remaining", "mean", mean_r, x_mean),
            ("delta_roc", "spread", ends[:2], x_band),
            ("delta_roc_remaining", "spread", ends[2:], x_band)):
        vals = [float(_PUB.loc[i, "value"]) for i in ids]
        x_lo, x_hi = (float(_PUB.loc[b[1], "value"] if isinstance(b, tuple) else b) for b in xr)
        rows.append({"measure": q, "kind": kind, "low": min(vals), "high": max(vals),
                     "x_low": x_lo, "x_high": x_hi, "ids": ", ".join(map(str, ids))})
    return pd.DataFrame(rows)


def _panel(ax, summary, x):
    """Means with 99% CIs (solid) and ±1 sd of the trials (dashed) of both measures."""
    if missing := [c for c in [x] + [f"{q}_{s}" for q, *_ in _SERIES for s in _NEEDED]
                   if c not in summary]:
        raise ValueError(f"summary lacks columns {missing}; pass a summary_<test> table "
                         "of tables()")
    if summary.empty:
        raise ValueError("summary is empty")
    xs = (s := summary.sort_values(x))[x].to_numpy(dtype=float)
    for q, label, color, marker, shift in _SERIES:
        pos = xs * shift
        mean, sd, lo, hi = (s[f"{q}_{c}"].to_numpy() for c in _NEEDED)
        spread = ax.errorbar(pos, mean, yerr=sd, fmt="none", ecolor=color, elinewidth=0.9,
                             alpha=0.6, capsize=2)
        spread[-1][0].set_linestyle("--")
        ax.errorbar(pos, mean, yerr=[mean - lo, hi - mean], fmt=marker, color=color,
                    ms=4, elinewidth=1.8, capsize=3, label=label, linestyle="-", lw=0.8, zorder=3)
    ax.axhline(0, color="0.4", lw=0.7)
    ax.set_xscale("log")
    if len(ticks := np.unique(xs)) > 6:  # 1-2-5 ticks inside the range: labels do not collide
        nice = np.array([m * 10**e for e in range(-1, 7) for m in (1, 2, 5)], dtype=float)
        inside = nice[(nice >= ticks.min()) & (nice <= ticks.max())]
        ticks = inside if len(inside) <= 6 else inside[::2]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks], fontsize=_SMALL)
    ax.minorticks_off()
    ax.tick_params(labelsize=_SMALL)
    ax.set_xlabel(_XLABEL.get(x, x) + " (log scale)", fontsize=10)
    ax.set_ylabel("change in ROC area,\nMA vs MAP (%)", fontsize=10)
    ax.grid(True, lw=0.3, color="0.88")


def _bands(ax, bands):
    """Draw the paper's stated values (:func:`_paper_bands`) behind a panel's points."""
    colour = {q: c for q, _, c, *_ in _SERIES}
    left, right = ax.get_xlim()
    for _, b in bands.iterrows():
        x0, x1 = max(b["x_low"], left), min(b["x_high"], right)
        if not x0 < x1:
            continue
        c = colour[b["measure"]]
        if b["kind"] == "mean":
            if b["high"] > b["low"]:
                ax.fill_between([x0, x1], b["low"], b["high"], color=c, alpha=0.22, lw=0, zorder=1)
            else:
                ax.plot([x0, x1], [b["low"]] * 2, color=c, alpha=0.35, lw=5,
                        solid_capstyle="butt", zorder=1)
        else:
            for y in (b["low"], b["high"]):
                ax.plot([x0, x1], [y, y], color=c, lw=1.3, ls=":", zorder=1)
    ax.set_xlim(left, right)


def _legend_handles(ax, bands=False):
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], color="0.3", lw=1.8), Line2D([], [], color="0.3", lw=0.8, ls="--")]
    labels += ["99% interval of the mean", "±1 sd of the trials"]
    if bands:
        handles += [Patch(color="0.5", alpha=0.35, lw=0),
                    Line2D([], [], color="0.3", lw=1.3, ls=":")]
        labels += ["paper: stated mean", "paper: region of ~70% of trials"]
    return handles, labels


def delta_roc_figure(summary, x, panel=None, titles=None):
    """Mean Δ_ROC and δ_ROC against one setting, one panel per value of ``panel``.

    Solid bars: 99% intervals of the mean; dashed bars: ±1 sd of the trials (the layout
    of Dash & Cooper's Figures 2–5); as wide as the text column, two panels per row.

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`_summarise_trials`.
    x : str
        Setting on the horizontal axis: ``"n_features"``, ``"n_train"`` or ``"max_parents"``.
    panel, titles : str and dict, optional
        Column splitting the rows into panels (e.g. ``"class_node"``); title of each panel.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    keys = [None] if panel is None else list(dict.fromkeys(summary[panel]))
    ncols, foot = min(2, len(keys)), 0.55  # inches under the panels for the legend
    nrows, width = -(-len(keys) // ncols), TEXT_WIDTH if ncols == 2 else 0.8 * TEXT_WIDTH
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 3.1 * nrows + foot),
                             squeeze=False, sharey=True)
    for ax, k in zip(axes.ravel(), keys):
        part = summary if k is None else summary[summary[panel] == k]
        _panel(ax, part, x)
        if k is not None:
            ax.set_title((titles or {}).get(k, str(k)), fontsize=10)
    for ax in axes.ravel()[len(keys):]:
        ax.set_axis_off()
    for ax in axes[:, 1:].ravel():
        ax.set_ylabel("")
    fig.tight_layout(rect=(0, foot / (3.1 * nrows + foot), 1, 1))
    fig.legend(*_legend_handles(axes[0][0]), loc="lower center", ncol=2, frameon=False,
               fontsize=_SMALL, bbox_to_anchor=(0.5, 0.0))
    return fig


def random_networks_figure(nodes, records, density):
    """Dash & Cooper's Figure 2: the nodes, training-records and density tests.

    Two panels per row at the width of the book's text column: (a) and (b) above, (c)
    and the legend below. Behind our points, the paper's stated values
    (:func:`_paper_bands`): its means as shaded bands in the colour of the measure, the
    region it says holds about 70% of the trials as dotted lines (to compare with our
    dashed ±1 sd bars), each over the range of the setting the statement covers.

    Parameters
    ----------
    nodes, records, density : DataFrame
        Outputs of :func:`_summarise_trials` by ``n_features``, ``n_train`` and ``max_parents``.

    Returns
    -------
    matplotlib.figure.Figure
        Panels (a), (b), (c) with the layout of :func:`delta_roc_figure`.
    """
    import matplotlib.pyplot as plt

    parts = ((nodes, "n_features", "(a) nodes test", "nodes"),
             (records, "n_train", "(b) training-records test", "records"),
             (density, "max_parents", "(c) density test", "density"))
    fig, axes = plt.subplots(2, 2, figsize=(TEXT_WIDTH, 6.4))
    for ax, (s, x, title, test) in zip(axes.ravel(), parts):
        _panel(ax, s, x)
        _bands(ax, _paper_bands(test))
        ax.set_title(title, fontsize=10)
    axes[0][1].set_ylabel("")
    (legend_ax := axes[1][1]).set_axis_off()
    fig.tight_layout(h_pad=1.2, w_pad=1.0)
    legend_ax.legend(*_legend_handles(axes[0][0], bands=True), loc="center", frameon=False,
                     fontsize=_SMALL, handlelength=2.2)
    return fig
