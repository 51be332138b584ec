"""Compile credal's numba kernels once, before the chapters need them.

numba compiles a kernel on its first call and caches the machine code next to the source
(``credal/__pycache__``); on a fresh clone no cache exists, and every process that calls a
kernel before the cache is written compiles it again: two chapters at a time, each with
joblib workers, would compile the same kernels up to four times at once (about 35 s of one
core each).  ``book/execute.py`` runs this script first, beside the chapters that call no
kernel, so that the others find the cache.  It fits every public classifier of ``credal``
that takes no other estimator on a small synthetic categorical data set, with and without
missing values, and classifies it, then samples a few small random networks and ALARM (the
compiled sampling of :mod:`credal.networks`); with a warm cache it takes a few seconds.
The work is split in two processes (the trees' kernels, which take the longest to compile,
in a second one started by the first): both cores compile, about 30 s instead of 60 on a
fresh clone.

Usage: ``python book/compile_kernels.py`` (``--part 1``: only the second process's share)
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd


def _frame(rng, n, m, missing):
    """A categorical DataFrame (n, m) whose class depends on the first two columns."""
    codes = rng.integers(0, 3, (n, m))
    y = pd.Series(pd.Categorical.from_codes((codes[:, 0] + codes[:, 1] > 2).astype(int)
                                            + (codes[:, 2] == 0), ["a", "b", "c"]))
    if missing:
        codes[rng.random(codes.shape) < 0.1] = -1
    cols = {f"x{j}": pd.Categorical.from_codes(codes[:, j], ["0", "1", "2"]) for j in range(m)}
    return pd.DataFrame(cols), y


#: The second process's share: the classifiers whose kernels take longest to compile.
SECOND = ("C45Tree", "CredalDecisionTree")


def main(argv=()) -> int:
    import credal
    import credal.networks
    from credal.base import BaseClassifier

    second = list(argv) == ["--part", "1"]
    helper = None if second else subprocess.Popen([sys.executable, __file__, "--part", "1"])
    start = time.perf_counter()
    rng = np.random.default_rng(0)
    data = [_frame(rng, 200, 6, missing) for missing in (False, True)]
    done = []
    for name in credal.__all__:
        cls = getattr(credal, name)
        if not (isinstance(cls, type) and issubclass(cls, BaseClassifier)):
            continue
        required = [p for p in inspect.signature(cls).parameters.values()
                    if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
        if required or (name in SECOND) != second:  # wrappers call the others' kernels
            continue
        for X, y in data:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # tiny data: small-sample warnings
                model = cls().fit(X, y)
                model.predict(X)
                if hasattr(model, "predict_set"):
                    model.predict_set(X)
                if hasattr(model, "predict_proba"):
                    model.predict_proba(X)
        done.append(name)
    if second:
        return 0
    # the exact LNCC thresholds (credal._compiled_likelihood): predict_set may decide every
    # pair of this small data set by its bounds; dominance_threshold computes them all
    credal.LNCC().fit(*data[1]).dominance_threshold(data[1][0])
    # both kinds of node of the batched sampler (few parent configurations, and more than
    # records), random parent sets, and a network with stored tables
    credal.networks.sample_random_trials(6, 5, 20, [0, 1])
    credal.networks.sample(credal.networks.load_network("alarm"), 20, 0, as_frame=False)
    if helper.wait() != 0:
        raise RuntimeError(f"compile_kernels --part 1 failed (exit code {helper.returncode})")
    print(f"[compile_kernels] {len(done) + len(SECOND)} classifiers fitted and run, random "
          f"networks and ALARM sampled in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
