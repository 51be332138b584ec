"""Frozen copies of earlier implementations: the references that today's faster code must
reproduce exactly (tests) and beat (benchmarks/bench_independence_trees.py). They must
not change with the library."""
