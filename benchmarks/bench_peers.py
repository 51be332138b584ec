"""credal's classifiers against Weka 3.6, the Weka IP plugin and JNCC2 1.11.

The performance chapter's headline table (:func:`credal.chapters.performance.run` with
``peer_datasets`` only, then its ``peers_headline`` and ``peers_details`` tables):
each data set keeps its complete rows, is split 2/3-1/3 (stratified, seeded) and
MDL-discretised on the training part; both parts are written as nominal ARFF files under
``build/peers``.  One JVM runs ``benchmarks/weka/WekaTimer.java`` (compiled into
``build/weka`` by ``make`` or on first use) for the whole script.  For each data set and
classifier both sides run ``--warmup`` times untimed, then ``--repeats`` rounds of one
Weka run and one credal run.  Weka's timed region: ``buildClassifier`` + ``classifyInstance``
of every test row (data in memory); credal's: ``fit`` + ``predict`` from the DataFrames
(the conversion to codes included).  Ratio = Weka's best / credal's best (>= 1: credal at
least as fast).  Without Java or Weka only credal's times are printed, with the reason.

Run: ``.venv/bin/python benchmarks/bench_peers.py [--datasets nursery,kr_vs_kp,adult,"nursery x10"]
[--repeats 11] [--warmup 5] [--no-memory] [--no-tools] [--csv details.csv]``

The same data then time credal's NCC, NCC-ε, CMA, BMA, credal tree and naive Bayes against
the Weka imprecise-probability plugin (NaiveCredal with ε = 0 and 0.01, Cma, Bma,
CredalDecisionTree) and JNCC2 1.11 (NCC, NBC), one JVM per tool (the chapter's
``peer_tools_headline`` and ``peer_tools_details``): ratio = peer's time / credal's, best
and median of the rounds, counted only where both give the same set (or class) on every
test row.  The plugin's sources and JNCC2's jar are read from ``../shared/peers``
(``$CREDAL_PEERS``); a missing tool is left out with the reason.  ``--no-tools`` skips them.

Memory (unless ``--no-memory``): credal's ``tracemalloc`` peak of one fit + predict, and
the bounds on the JVM's peak live heap of one run, measured in a second JVM
(the chapter's memory JVM options), with a verdict; where those bounds leave it
undecided, the bounds of warm runs with collections forced (``WekaSession.sample``).
"""

from __future__ import annotations

import argparse

import pandas as pd

from credal.chapters.performance import run, tables

DATASETS = "nursery,kr_vs_kp,adult,nursery x10"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=DATASETS, help="comma-separated (' x<k>' repeats)")
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    ap.add_argument("--no-tools", action="store_true", help="skip the IP plugin and JNCC2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--csv", help="also write the details table to this CSV file")
    a = ap.parse_args(argv)
    names = [n.strip() for n in a.datasets.split(",") if n.strip()]
    t = tables(run(peer_datasets=names, peer_repeats=a.repeats, peer_warmup=a.warmup,
                   peer_memory=not a.no_memory, peer_tools=not a.no_tools,
                   random_state=a.seed))
    peers = t["peers"]
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(f"{peers.attrs['weka']}; {peers.attrs['java'] or 'no JVM'}; "
              f"warm-up {a.warmup}, best and median of {a.repeats} interleaved rounds")
        tab = t["peers_headline"]
        print(f"\n{tab.attrs['values']}")
        print(tab.round(2).to_string())
        print("\ndetails (times in ms)")
        details = t["peers_details"]
        print(details.round(3).to_string(index=False))
        if a.csv:
            details.to_csv(a.csv, index=False)
        if "peer_tools" in t:
            tools = t["peer_tools"]
            print("\npeer tools: " + "; ".join(tools.attrs["tools"].values()))
            if len(tools):
                tab = t["peer_tools_headline"]
                print(f"\n{tab.attrs['values']}")
                print(tab.to_string())
                print("\ndetails (times in ms)")
                print(t["peer_tools_details"].round(3).to_string(index=False))


if __name__ == "__main__":
    main()
