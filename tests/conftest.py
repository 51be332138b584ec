"""Shared test settings: a non-interactive plotting backend, reference folders and the
one reader of the conformance inputs (tests import it with ``from conftest import ...``)."""

import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from credal import metrics
from credal.experiments import CVResult

os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parents[1]
# Byte copies of the shared conformance outputs (see tests/conformance/ORIGIN.md).
CONFORMANCE = Path(__file__).resolve().parent / "conformance"
PUBLISHED = ROOT / "data" / "published"

# CI runs the property tests with a fixed example sequence, so a submission's result does
# not depend on the luck of the draw; developers' runs explore new examples every time.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

@pytest.fixture(autouse=True)
def _close_figures():
    """Close the figures a test leaves open: pyplot keeps every figure until closed, and
    more than 20 at once make matplotlib warn (and hold their memory) in later tests."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def _split_arff(text):
    """Split a comma-separated ARFF list; single quotes with backslash escapes."""
    out, cur, quoted, i = [], [], False, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                cur.append(text[i + 1])
                i += 2
                continue
            if ch == "'":
                quoted = False
            else:
                cur.append(ch)
        elif ch == "'":
            quoted = True
        elif ch == ",":
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur).strip())
    return out


def read_nominal_arff(path):
    """A nominal ARFF file as (X DataFrame of categoricals in declared order, y
    categorical Series); the test suite's one reader of conformance inputs, kept
    independent of the library's reader."""
    names, cats, rows, in_data = [], [], [], False
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if in_data:
            rows.append(_split_arff(line))
            continue
        m = re.match(r"@attribute\s+('(?:[^'\\]|\\.)*'|\S+)\s+\{(.*)\}\s*$", line, re.I)
        if m:
            names.append(m.group(1).strip("'"))
            cats.append(_split_arff(m.group(2)))
        elif line.lower().startswith("@data"):
            in_data = True
    cols = {}
    for j, (n, c) in enumerate(zip(names, cats)):
        codes = [-1 if r[j] == "?" else c.index(r[j]) for r in rows]
        cols[n] = pd.Categorical.from_codes(codes, categories=c)
    frame = pd.DataFrame(cols)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def read_conformance(name, part):
    """``read_nominal_arff`` of ``conformance/data/<name>_<part>.arff``."""
    return read_nominal_arff(CONFORMANCE / "data" / f"{name}_{part}.arff")


def expected(folder, name, prefix):
    """Columns ``<prefix>0, <prefix>1, ...`` of an expected-output table, as an array."""
    table = pd.read_csv(CONFORMANCE / "expected" / folder / f"{name}.csv")
    cols = [c for c in table.columns if re.fullmatch(rf"{prefix}\d+", c)]
    return table[sorted(cols, key=lambda c: int(c[len(prefix):]))].to_numpy()


# ---------------------------------------------- synthetic fold tables (comparisons, AODE chapter)

SYNTHETIC_CREDAL = {"BMA-AODE*", "COMP-AODE*", "NCC", "CMA", "CDT"}
#: the classifier names of the synthetic runs (those of the credal-aode chapter)
SYNTHETIC_CLASSIFIERS = ("AODE", "BMA-AODE", "COMP-AODE", "BMA-AODE*", "COMP-AODE*", "NCC",
                         "CMA", "CDT")


def synthetic_cv(seed=0, n_datasets=6, n_repeats=3, n_splits=2,
                 classifiers=SYNTHETIC_CLASSIFIERS, sizes=None):
    """Random sets and predictions, summarised per fold exactly as the engine does.

    Returns (CVResult, instances) where ``instances`` holds the per-instance arrays
    (dataset, classifier, repeat, y, sets, pred, proba) for brute-force checks.
    """
    rng = np.random.default_rng(seed)
    rows, inst, classes = [], [], {}
    for d in range(n_datasets):
        name = f"d{d}"
        K = int(rng.integers(2, 5))
        n = int(sizes[d]) if sizes is not None else int(rng.integers(20, 60))
        classes[name] = np.array([f"c{k}" for k in range(K)], dtype=object)
        # per-classifier indeterminacy rate; some data sets fully determinate
        for c in classifiers:
            p_ind = 0.0 if (c in SYNTHETIC_CREDAL and d == 0) else (rng.uniform(0.05, 0.4) if c in SYNTHETIC_CREDAL else 0)
            for r in range(n_repeats):
                perm = rng.permutation(n)
                for f in range(n_splits):
                    te = perm[f::n_splits]
                    m = len(te)
                    y = rng.integers(0, K, m)
                    pred = np.where(rng.random(m) < 0.7, y, rng.integers(0, K, m))
                    sets = np.zeros((m, K), bool)
                    sets[np.arange(m), pred] = True
                    ind = rng.random(m) < p_ind
                    sets[ind] |= rng.random((int(ind.sum()), K)) < 0.5
                    proba = None
                    if c not in SYNTHETIC_CREDAL:
                        proba = rng.dirichlet(np.ones(K), m)
                    summ = metrics.summary(sets, y, precise_pred=pred, proba=proba)
                    rows.append({"dataset": name, "classifier": c, "repeat": r, "fold": f,
                                 "n_train": n - m, "n_test": m, **summ})
                    inst.append({"dataset": name, "classifier": c, "repeat": r, "y": y,
                                 "sets": sets, "pred": pred, "proba": proba})
    folds = pd.DataFrame(rows)
    return CVResult(predictions=pd.DataFrame(), folds=folds, classes=classes), inst


def scores_table(values):
    """scores table from {classifier: {metric: [per data set values]}}."""
    frames = []
    for c, mets in values.items():
        df = pd.DataFrame(mets)
        df["dataset"] = [f"d{i}" for i in range(len(df))]
        df["classifier"] = c
        frames.append(df)
    return pd.concat(frames).set_index(["dataset", "classifier"]).sort_index()


def notebook_parameters(name):
    """The literal values of a notebook's parameters cell (its first code cell)."""
    import ast

    import jupytext

    nb = jupytext.read(ROOT / "notebooks" / f"{name}.md")
    first = [c for c in nb.cells if c.cell_type == "code"][0]
    return {node.targets[0].id: ast.literal_eval(node.value)
            for node in ast.parse(first.source).body}
