"""Tests of credal.NCC2, the naive credal classifier 2 (non-MAR features).

* brute force: on random tiny problems every completion of the non-MAR missing data is
  enumerated and classified with :class:`credal.NCC`;
* equal to NCC when nothing is declared non-MAR (random data, conformance data);
* JNCC2 1.11 on the conformance rows (vote, every feature non-MAR; every data set MAR)
  and on JNCC2's own examples with non-MAR declarations (hepatitis, labor);
* the declarations' validation.
"""

from __future__ import annotations

import itertools
import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import credal
from conftest import expected, read_conformance
from credal import NCC, NCC2, metrics
from credal.naive import LOG_TIE

ROOT = Path(__file__).resolve().parents[1]
# JNCC2 1.11 and its examples, in the project's shared folder beside the repository
JNCC2 = ROOT.parent / "shared" / "peers" / "jncc2" / "jncc2Rel1.11"
JNCC2 = JNCC2 if JNCC2.is_dir() else None


# ------------------------------------------------------------------ brute force

def _tiny_problem(rng):
    """Codes of a random tiny problem: K classes, m features of nv values, rows with
    missing cells, a few test rows, random non-MAR declarations.  Row 0 holds every
    feature's largest value and rows 0..K-1 every class, so that ``n_values_`` and
    ``classes_`` are the same for every completion."""
    K, m = rng.integers(2, 4), rng.integers(2, 4)
    nv = rng.integers(2, 4, m)
    n = rng.integers(max(5, K), 16)
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)
    X = rng.integers(0, nv, (n, m))
    X[0] = nv - 1
    miss = rng.random((n, m)) < rng.uniform(0.05, 0.3)
    miss[0] = False
    X[miss] = -1
    train, test = rng.random(m) < 0.6, rng.random(m) < 0.6
    # at most 5 non-MAR training cells, so that the completions stay few
    cells = np.argwhere((X < 0) & train)
    for i, j in cells[5:]:
        X[i, j] = rng.integers(0, nv[j])
    Xt = rng.integers(0, nv, (4, m))
    Xt[rng.random(Xt.shape) < 0.35] = -1
    return X, y, Xt, nv, train, test


def _brute_force(X, y, Xt, nv, train, test, s):
    """Minimum over every completion of NCC's log dominance ratio, shape (rows, K, K).

    A completion gives every missing training cell of a feature declared non-MAR in
    training any of the feature's values, and every missing test value of a feature
    declared non-MAR in testing any value; the other missing values stay missing (MAR,
    as NCC treats them).  ``c'`` dominates ``c''`` under NCC2 iff the minimum exceeds
    ``LOG_TIE`` (``c'`` dominates under every completion: JNCC2's conservative rule), and
    the set is the classes no other class dominates.
    """
    cells = np.argwhere((X < 0) & train)
    comps, owner = [], []
    for r, row in enumerate(Xt):  # every completion of every test row
        gaps = np.nonzero((row < 0) & test)[0]
        comp = np.repeat(row[None], int(np.prod(nv[gaps])), axis=0)
        if gaps.size:
            comp[:, gaps] = list(itertools.product(*[range(nv[j]) for j in gaps]))
        comps.append(comp)
        owner += [r] * len(comp)
    comps, start = np.concatenate(comps), np.searchsorted(owner, np.arange(len(Xt)))
    K = int(y.max()) + 1
    out = np.full((len(Xt), K, K), np.inf)
    for fill in itertools.product(*[range(nv[j]) for _, j in cells]):
        Xc = X.copy()
        Xc[cells[:, 0], cells[:, 1]] = fill
        model = NCC(s=s).fit(Xc, y)
        assert list(model.n_values_) == list(nv)
        out = np.minimum(out, np.minimum.reduceat(model.dominance_log_ratio(comps), start))
    return out


def _check(X, y, Xt, nv, train, test, s):
    model = NCC2(s=s, non_mar_train=list(np.nonzero(train)[0]),
                 non_mar_test=list(np.nonzero(test)[0])).fit(X, y)
    ref = _brute_force(X, y, Xt, nv, train, test, s)
    got = model.dominance_log_ratio(Xt)
    K = ref.shape[1]
    off = ~np.eye(K, dtype=bool)[None] & np.isfinite(ref)
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(ref) | np.eye(K, dtype=bool))
    np.testing.assert_allclose(got[off], ref[off], rtol=0, atol=1e-9)
    np.testing.assert_array_equal(model.predict_set(Xt), ~np.any(ref > LOG_TIE, axis=1))
    return model


def test_brute_force_on_300_tiny_problems():
    """NCC2's sets (and log dominance ratios) equal the brute force of every completion
    (:func:`_brute_force`) on 300 random tiny problems: 2-3 classes, 2-3 features of 2-3
    values, 5-15 rows, missing cells, random non-MAR declarations in training and testing,
    s in {0.5, 1, 2}."""
    rng = np.random.default_rng(2025)
    gapped = 0
    for _ in range(300):
        X, y, Xt, nv, train, test = _tiny_problem(rng)
        _check(X, y, Xt, nv, train, test, float(rng.choice([0.5, 1.0, 2.0])))
        gapped += int(np.any((Xt < 0) & test))
    assert gapped > 100


def test_brute_force_where_the_minimising_value_changes_with_the_prior():
    """The same brute force on 60 tiny problems where a missing non-MAR test value's
    minimising value changes inside (0, 1) (the envelope has a breakpoint there), so
    that the dominance test runs on several pieces of the prior interval."""
    rng = np.random.default_rng(11)
    found = 0
    for _ in range(5000):
        X, y, Xt, nv, train, test = _tiny_problem(rng)
        s = float(rng.choice([0.5, 1.0, 2.0]))
        model = NCC2(s=s, non_mar_train=list(np.nonzero(train)[0]),
                     non_mar_test=list(np.nonzero(test)[0])).fit(X, y)
        pts, _ = model._envelopes()
        inner = (pts < 1).any(axis=-1) & test  # (K, K, m)
        Xt = Xt[np.array([inner[:, :, (row < 0)].any() for row in Xt], dtype=bool)]
        if len(Xt):
            _check(X, y, Xt, nv, train, test, s)
            found += 1
            if found == 60:
                break
    assert found == 60


def test_equals_ncc_when_nothing_is_non_mar():
    rng = np.random.default_rng(7)
    for _ in range(40):
        K, m, n = rng.integers(2, 6), rng.integers(1, 8), rng.integers(10, 300)
        nv = rng.integers(1, 6, m)
        y = rng.integers(0, K, n)
        y[:K] = np.arange(K)
        X = rng.integers(0, nv, (n, m)) * (rng.random((n, m)) > 0.5) + (y[:, None] % nv)
        X %= nv
        X[rng.random(X.shape) < 0.15] = -1
        Xt = rng.integers(-1, nv, (200, m))
        s = float(rng.choice([0.5, 1.0, 3.0]))
        a, b = NCC2(s=s).fit(X, y), NCC(s=s).fit(X, y)
        np.testing.assert_array_equal(a.predict_set(Xt), b.predict_set(Xt))
        np.testing.assert_array_equal(a.predict(Xt), b.predict(Xt))
    # declaring features without missing values changes nothing either
    X = np.abs(X)
    c = NCC2(non_mar_train="all", non_mar_test="all").fit(X, y)
    Xt = np.abs(Xt)
    np.testing.assert_array_equal(c.predict_set(Xt), NCC().fit(X, y).predict_set(Xt))


def test_non_mar_is_more_cautious():
    data = credal.datasets.load("vote")
    X, y = data.X.iloc[:300], data.y.iloc[:300]
    sets = [NCC2(non_mar_train=tr, non_mar_test=te).fit(X, y).predict_set(data.X)
            for tr, te in [("none", "none"), ("all", "none"), ("none", "all"), ("all", "all")]]
    for wide in sets[1:]:
        assert np.all(wide >= sets[0])
    assert np.all(sets[3] >= sets[1]) and np.all(sets[3] >= sets[2])
    assert sets[3].sum() > sets[0].sum()


# ------------------------------------------------------------------ JNCC2 conformance

@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_mar_rows_equal_jncc2_and_ncc(name):
    Xtr, ytr = read_conformance(name, "train")
    Xte, _ = read_conformance(name, "test")
    sets = NCC2().fit(Xtr, ytr).predict_set(Xte)
    np.testing.assert_array_equal(sets, expected("jncc2_ncc_mar", name, "ncc_").astype(bool))
    np.testing.assert_array_equal(sets, NCC().fit(Xtr, ytr).predict_set(Xte))


def test_non_mar_vote_rows_equal_jncc2():
    """JNCC2 1.11's NCC2, every feature non-MAR in training and testing: 145 of 145 rows."""
    Xtr, ytr = read_conformance("vote", "train")
    Xte, _ = read_conformance("vote", "test")
    model = NCC2(non_mar_train="all", non_mar_test="all").fit(Xtr, ytr)
    ref = expected("jncc2_ncc2_nonmar", "vote", "ncc_").astype(bool)
    np.testing.assert_array_equal(model.predict_set(Xte), ref)
    assert ref.sum() > expected("jncc2_ncc_mar", "vote", "ncc_").sum()  # more cautious
    by_name = NCC2(non_mar_train=list(Xtr.columns), non_mar_test=list(range(Xtr.shape[1])))
    np.testing.assert_array_equal(by_name.fit(Xtr, ytr).predict_set(Xte), ref)


# ------------------------------------------------------------------ API

def test_declarations_are_validated():
    X = pd.DataFrame({"a": pd.Categorical(["x", "y", "x"]), "b": pd.Categorical(["u", "u", "v"])})
    y = [0, 1, 0]
    model = NCC2(non_mar_train=["b"], non_mar_test=[0]).fit(X, y)
    assert model.non_mar_train_.tolist() == [False, True]
    assert model.non_mar_test_.tolist() == [True, False]
    for bad in ["some", ["c"], [2], [True], 3, [0.5]]:
        with pytest.raises(ValueError, match="non_mar_train must be"):
            NCC2(non_mar_train=bad).fit(X, y)
    with pytest.raises(ValueError, match="non_mar_test must be"):
        NCC2(non_mar_test=["a", "zz"]).fit(X, y)
    with pytest.raises(ValueError, match="s must"):
        NCC2(s=0).fit(X, y)
    model = NCC2(non_mar_train="all", non_mar_test=[-1]).fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    Xt = X.assign(a=pd.Categorical([None, "y", "x"], categories=["x", "y"]))
    np.testing.assert_array_equal(again.predict_set(Xt), model.predict_set(Xt))
    np.testing.assert_allclose(model.predict_proba(Xt).sum(axis=1), 1.0)


# ------------------------------------------------------------------ JNCC2's examples

def _read_arff(path):
    """An ARFF file with nominal and numeric attributes as a DataFrame (strings/floats)."""
    names, kinds, rows, data = [], [], [], False
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if data:
            rows.append([v.strip().strip("'") for v in line.split(",")])
        elif line.lower().startswith("@attribute"):
            m = re.match(r"@attribute\s+('[^']*'|\S+)\s+(.*)", line, re.I)
            names.append(m.group(1).strip("'"))
            kinds.append(m.group(2).strip())
        elif line.lower().startswith("@data"):
            data = True
    df = pd.DataFrame(rows, columns=names).replace("?", np.nan)
    for name, kind in zip(names, kinds):
        if kind.lower() in ("numeric", "real", "integer"):
            df[name] = df[name].astype(float)
        else:
            cats = [c.strip().strip("'") for c in kind.strip("{}").split(",")]
            df[name] = pd.Categorical(df[name], categories=cats)
    return df


def _non_mar(path, columns):
    """JNCC2's NonMar.txt: ``training f``, ``testing f``, ``f`` (both), or ``nonmar``."""
    train, test = [], []
    lookup = {c.lower(): c for c in columns}
    for line in Path(path).read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words == ["nonmar"]:
            return "all", "all"
        where, name = (words[0].lower(), words[1]) if len(words) == 2 else ("both", words[0])
        name = lookup[name.lower()]
        if where in ("training", "both"):
            train.append(name)
        if where in ("testing", "both"):
            test.append(name)
    return train, test


def _check_results(folder):
    """JNCC2's CheckResults: the ResultsTable row (percentages as fractions) and the
    confusion matrices of ConfMatrices.txt (NBC, NCC2 on its determinate rows)."""
    check = next(p for p in folder.iterdir() if p.name.lower() == "checkresults")
    table = pd.read_csv(check / "ResultsTable.csv", index_col=False).iloc[0]
    num = {k: float(str(v).rstrip("%")) / (100 if str(v).endswith("%") else 1)
           for k, v in table.items() if str(v).rstrip("%").replace(".", "").isdigit()}
    conf, current = {}, None
    for line in (check / "ConfMatrices.txt").read_text().splitlines():
        if line.startswith("Classifier:"):
            current = conf.setdefault(line.split()[1], [])
        elif current is not None and line.strip() and line.split()[0].isdigit():
            current.append([int(v) for v in line.split()[:-1]])
    return num, conf


@pytest.mark.parametrize("name", ["hepatitis", "labor"])
def test_jncc2_examples_with_non_mar_declarations(name):
    """JNCC2's own examples (``examples/missingData``) with its NonMar.txt declarations
    (features non-MAR in training only, in testing only, in both).

    JNCC2 discretises the numeric features inside, with its own MDL; here they are
    discretised by :class:`credal.preprocessing.MDLDiscretizer` fitted on the training
    file (Fayyad-Irani MDL too).  The naive Bayes is JNCC2's (Laplace, s = 1).  Equal to
    JNCC2's CheckResults: the NBC and NCC2 (determinate rows) confusion matrices, and
    every indicator of ResultsTable.csv through :func:`credal.metrics.summary`:
    determinacy, single and set accuracy, indeterminate output size, and JNCC2's
    diagnostics Nbc(Ncc-P), Nbc(Ncc-I) (naive Bayes' accuracy where NCC2 is determinate,
    indeterminate).
    """
    if JNCC2 is None:
        pytest.skip("JNCC2 1.11 and its examples are not in ../shared/peers/jncc2")
    folder = JNCC2 / "examples" / "missingData" / name
    tr = _read_arff(folder / f"{name}.training.arff")
    te = _read_arff(folder / f"{name}.testing.arff")
    target = tr.columns[-1]
    disc = credal.preprocessing.MDLDiscretizer().fit(tr.drop(columns=target), tr[target])
    Xtr, Xte = disc.transform(tr.drop(columns=target)), disc.transform(te.drop(columns=target))
    train, test = _non_mar(folder / "NonMar.txt", Xtr.columns)
    ytr, yte = tr[target], te[target]
    nbc = credal.NaiveBayes(prior="laplace").fit(Xtr, ytr).predict(Xte)
    sets = NCC2(non_mar_train=train, non_mar_test=test).fit(Xtr, ytr).predict_set(Xte)
    classes = list(ytr.cat.categories)
    det = sets.sum(axis=1) == 1
    single = np.asarray(classes, dtype=object)[np.argmax(sets, axis=1)]
    num, conf = _check_results(folder)

    def confusion(truth, pred):
        return pd.crosstab(pd.Categorical(truth, classes), pd.Categorical(pred, classes),
                           dropna=False).to_numpy()

    np.testing.assert_array_equal(confusion(yte, nbc), conf["NBC"])
    np.testing.assert_array_equal(confusion(yte[det], single[det]), conf["NCC2"])
    got = metrics.summary(sets, yte, classes=classes, precise_pred=nbc)
    for key, ref in [("precise_accuracy", "NbcAcc"), ("determinacy", "NccDeterm"),
                     ("single_accuracy", "NccSingleAcc"), ("set_accuracy", "NccSetAcc"),
                     ("indeterminate_size", "NccIndetOutSize"),
                     ("precise_on_determinate", "Nbc(Ncc-P)"),
                     ("precise_on_indeterminate", "Nbc(Ncc-I)")]:
        assert got[key] == pytest.approx(num[ref], abs=5e-5), key


def test_predict_is_naive_bayes_and_the_engine_reports_the_diagnostics():
    """NCC2's set always holds the Perks naive Bayes' choice (its dominance is implied by
    NCC's, whose set holds it), so ``predict`` is that choice; the engine's fold metrics
    then carry JNCC2's diagnostics (``precise_on_determinate``,
    ``precise_on_indeterminate``, ``indeterminate_size``)."""
    data = credal.datasets.load("vote")
    model = NCC2(non_mar_train="all", non_mar_test="all").fit(data.X, data.y)
    nb = credal.NaiveBayes(prior="perks").fit(data.X, data.y)
    np.testing.assert_array_equal(model.predict(data.X), nb.predict(data.X))
    np.testing.assert_allclose(model.predict_proba(data.X), nb.predict_proba(data.X), atol=1e-12)
    res = credal.experiments.cross_validate(
        {"NCC2": NCC2(non_mar_train="all", non_mar_test="all")}, ("vote", data.X, data.y),
        n_splits=3, n_repeats=1, progress=False, keep_predictions=False)
    row = res.summary().iloc[0]
    assert 0 < row["determinacy"] < 1 and row["indeterminate_size"] == 2.0
    assert row["precise_on_determinate"] > row["precise_on_indeterminate"]


def test_features_with_fewer_envelope_pieces_than_others():
    """A feature of a single value (no breakpoint; the chapters keep such features) beside
    features whose envelopes have breakpoints in (0, 1): the per-feature pieces are padded to
    a common length (this raised a shape error on bridges), and the sets still equal the
    brute force of every completion."""
    rng = np.random.default_rng(5)
    found = 0
    for _ in range(5000):
        X, y, Xt, nv, train, test = _tiny_problem(rng)
        X, Xt = (np.column_stack([a, np.zeros(len(a), int)]) for a in (X, Xt))
        nv = np.append(nv, 1)
        X[1, -1], Xt[::2, -1] = -1, -1
        train, test = np.append(train, True), np.append(test, True)
        s = float(rng.choice([0.5, 1.0, 2.0]))
        model = NCC2(s=s, non_mar_train=list(np.nonzero(train)[0]),
                     non_mar_test=list(np.nonzero(test)[0])).fit(X, y)
        pts, vals = model._envelopes()
        if not (pts < 1).any():
            continue
        assert vals.shape[-1] == pts.shape[-1] + 1
        _check(X, y, Xt, nv, train, test, s)
        found += 1
        if found == 20:
            break
    assert found == 20
