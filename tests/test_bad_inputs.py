"""Bad inputs to the classifiers give clear errors, never a silent answer (issue 16).

Each test is parametrised over every classifier it applies to; the checks live once
in :mod:`credal._validation` and :mod:`credal.base`.
"""

import resource
import subprocess
import sys
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import credal
from credal.likelihood import LnccPairs, lncc_log_threshold
from test_common import CLASSIFIERS, IDS

WEIGHTED = [credal.NaiveBayes(), credal.NCC(), credal.NCC(epsilon=0.2), credal.LNCC(),
            credal.LNCC(grid=30)]
WIDS = [repr(c) for c in WEIGHTED]


def _data(seed=0, n=60, m=4, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = (rng.integers(0, 3, (n, m)) + (y[:, None] == np.arange(m) % k)) % 3
    X[:k, 0], y[:k] = np.arange(k) % 3, np.arange(k)
    return X, y, rng.integers(-1, 3, (30, m))


def _frame(X):
    return pd.DataFrame({f"f{j}": pd.Categorical.from_codes(X[:, j], categories=["a", "b", "c"])
                         for j in range(X.shape[1])})


# ---------------------------------------------------------------------------
# item 10: NotFittedError from every prediction-like public method
# ---------------------------------------------------------------------------

PREDICT_LIKE = ["predict", "predict_proba", "predict_log_proba", "predict_set",
                "predict_outputs", "dominance_log_ratio", "dominance_threshold",
                "predict_interval", "min_log_ratio", "complete_admissible_score",
                "strong_dominance_score", "export_text"]


def test_predict_like_list_covers_every_public_method():
    fit_api = {"fit", "get_params", "set_params", "score", "get_metadata_routing"}
    for est in CLASSIFIERS:
        public = {m for m in dir(est) if not m.startswith("_") and callable(getattr(est, m))
                  and m not in fit_api and not m.startswith("set_")}
        assert public <= set(PREDICT_LIKE), type(est).__name__


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_every_predict_like_method_raises_not_fitted(est):
    X, _, _ = _data()
    methods = [m for m in PREDICT_LIKE if hasattr(est, m)]
    assert methods
    for m in methods:
        with pytest.raises(NotFittedError):
            getattr(clone(est), m)(*(() if m == "export_text" else (X,)))


# ---------------------------------------------------------------------------
# item 11: obscure errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_zero_features_is_an_error(est):
    _, y, _ = _data()
    with pytest.raises(ValueError, match="0 features"):
        clone(est).fit(np.zeros((len(y), 0), int), y)
    with pytest.raises(ValueError, match="0 features"):
        clone(est).fit(pd.DataFrame(index=range(len(y))), y)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_a_feature_without_category_is_named(est):
    # an all-missing column that declares no category: one message that names it, not a
    # division by zero (naive Bayes, RBC) or an IndexError (NCC); as integer codes the
    # same column (all -1) counts one category, never observed, and fits cleanly
    X, y, Xt = _data()
    frame = _frame(X).assign(empty=pd.Categorical([None] * len(y), categories=[]))
    with pytest.raises(ValueError, match="feature 'empty' has no category.*declare its"):
        clone(est).fit(frame, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = clone(est).fit(np.column_stack([X, np.full(len(y), -1)]), y)
        assert model.n_values_[-1] == 1
        model.predict(np.column_stack([Xt, np.full(len(Xt), -1)]))


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_infinity_in_x_is_named(est):
    X, y, Xt = _data()
    bad = X.astype(float)
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        clone(est).fit(bad, y)
    model = clone(est).fit(X, y)
    bad_t = Xt.astype(float)
    bad_t[0, 0] = -np.inf
    with pytest.raises(ValueError, match="infinity"):
        model.predict(bad_t)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_sparse_x_says_how_to_convert(est):
    X, y, Xt = _data()
    with pytest.raises(TypeError, match=r"sparse.*toarray"):
        clone(est).fit(sp.csr_matrix(X), y)
    model = clone(est).fit(X, y)
    with pytest.raises(TypeError, match=r"sparse.*toarray"):
        model.predict(sp.csr_matrix(np.maximum(Xt, 0)))


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_zero_rows_is_named(est):
    with pytest.raises(ValueError, match="no rows"):
        clone(est).fit(np.empty((0, 3), int), np.empty(0, int))
    with pytest.raises(ValueError, match="no rows"):
        clone(est).fit(_frame(np.empty((0, 3), int)), pd.Series([], dtype=object))


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_dataframe_of_integer_columns_is_read_as_codes(est):
    X, y, Xt = _data()
    cols = [f"f{j}" for j in range(X.shape[1])]
    a = clone(est).fit(pd.DataFrame(X, columns=cols), y)
    b = clone(est).fit(X, y)
    np.testing.assert_array_equal(a.predict(pd.DataFrame(Xt, columns=cols)), b.predict(Xt))
    assert list(a.feature_names_in_) == cols
    with pytest.raises(ValueError, match="columns"):  # the names are checked
        a.predict(pd.DataFrame(Xt, columns=cols[::-1]))
    too_big = Xt.copy()
    too_big[0, 2] = 7
    with pytest.raises(ValueError, match="'f2' has code 7 outside"):
        a.predict(pd.DataFrame(too_big, columns=cols))
    # a mix of categorical and numeric columns says what to do
    mixed = _frame(X)
    mixed["f1"] = X[:, 1]
    with pytest.raises(TypeError, match="column 'f1' has dtype int64.*integer codes in every"):
        clone(est).fit(mixed, y)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_mixed_label_types_are_named(est):
    X, y, _ = _data()
    labels = np.array([1, "one", 2.5] * (len(y) // 3), dtype=object)
    with pytest.raises(TypeError, match=r"y mixes label types \['float', 'int', 'str'\]"):
        clone(est).fit(X, labels)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_missing_or_continuous_y(est):
    X, y, _ = _data()
    with pytest.raises(ValueError, match="y is None"):
        clone(est).fit(X, None)
    cont = np.random.default_rng(1).random(len(y))
    with pytest.raises(ValueError, match="continuous"):
        clone(est).fit(X, cont)


@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_boolean_parameters_are_rejected(est):
    X, y, _ = _data()
    numeric = [p for p in ("s", "alpha", "epsilon", "arc_prior") if p in est.get_params()
               and not isinstance(est.get_params()[p], (str, type(None)))]
    for p in numeric:
        with pytest.raises(ValueError, match=f"{p} must be a finite number; got True"):
            clone(est).set_params(**{p: True}).fit(X, y)


# ---------------------------------------------------------------------------
# items 6 and 7: sample weights of extreme size
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("est", WEIGHTED, ids=WIDS)
@pytest.mark.parametrize("w", [1e308, 1e200])
def test_overflowing_sample_weights_are_an_error(est, w):
    X, y, _ = _data()
    with pytest.raises(ValueError, match="sample_weight sums to .*below 1e150"):
        clone(est).fit(X, y, sample_weight=np.full(len(y), w))


@pytest.mark.parametrize("est", WEIGHTED, ids=WIDS)
def test_large_legal_weights_give_clean_answers(est):
    X, y, Xt = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warning
        model = clone(est).fit(X, y, sample_weight=np.full(len(y), 1e140))
        out = model.predict_outputs(Xt)
    assert np.all(out.sets.any(axis=1)) if out.sets is not None else True
    if out.proba is not None:
        assert np.all(np.isfinite(out.proba))
        np.testing.assert_allclose(out.proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("w", [1e-6, 1e-14, 1e-20, 1e-300])
def test_lncc_with_tiny_weights_stays_bounded(w):
    """Bounded memory whatever the weights; a clear error where the profile likelihood
    is flat to within rounding (1e-9 took 1.3 GB and 1e-20 over 23 GB before)."""
    X, y, Xt = _data()
    tracemalloc.start()
    try:
        model = credal.LNCC().fit(X, y, sample_weight=np.full(len(y), w))
        try:
            sets = model.predict_set(Xt)
        except ValueError as e:
            assert w < 1e-14 and "sample_weight" in str(e)
            sets = None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6
    if w >= 1e-14:  # tiny counts weigh nothing against the instance: no dominance
        assert sets is not None and sets.all()


def test_lncc_tiny_weights_under_a_memory_limit():
    code = ("import numpy as np, credal\n"
            "rng = np.random.default_rng(0)\n"
            "X, y = rng.integers(0, 3, (200, 6)), rng.integers(0, 3, 200)\n"
            "for w in (1e-14, 1e-20):\n"
            "    m = credal.LNCC().fit(X, y, sample_weight=np.full(200, w))\n"
            "    try:\n"
            "        assert m.predict_set(rng.integers(-1, 3, (300, 6))).all()\n"
            "    except ValueError as e:\n"
            "        assert 'sample_weight' in str(e)\n")

    def limit():  # ulimit -v 4000000
        resource.setrlimit(resource.RLIMIT_AS, (4_096_000_000, 4_096_000_000))

    run = subprocess.run([sys.executable, "-c", code], preexec_fn=limit, timeout=600,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]


@pytest.mark.parametrize("scale", [0.3, 1e-3, 1e-6])
def test_lncc_exact_threshold_with_fractional_counts_matches_dense_search(scale):
    """Weighted counts below 1 (the cell enclosures treat such poles apart) against
    the profile likelihood on a dense grid of the open domain of each problem."""
    rng = np.random.default_rng(7)
    q, m = 40, 3
    n1, n2 = rng.integers(1, 15, q), rng.integers(1, 15, q)
    n1j = np.floor(rng.random((q, m)) * (n1[:, None] + 1))
    n2j = np.floor(rng.random((q, m)) * (n2[:, None] + 1))
    args = (n1 * scale, n1j * scale, np.repeat(n1[:, None] * scale, m, 1),
            n2 * scale, n2j * scale, np.repeat(n2[:, None] * scale, m, 1),
            rng.random((q, m)) < 0.9)
    fwd, rev = lncc_log_threshold(*args)
    pairs = LnccPairs(*args)
    u = np.linspace(0.0, 1.0, 100001)[1:-1]
    x = pairs.x_lo[:, None] + (pairs.x_hi - pairs.x_lo)[:, None] * u
    x = np.concatenate([x, np.zeros((q, 1)), np.ones((q, 1))], axis=1)
    with np.errstate(all="ignore"):
        lL, lg = pairs.log_L(np.arange(q), x), pairs.log_g(np.arange(q), x)
    top = lL.max(axis=1)
    below = np.where(lg <= 0, lL, -np.inf).max(axis=1) - top
    above = np.where(lg >= 0, lL, -np.inf).max(axis=1) - top
    np.testing.assert_allclose(np.exp(fwd), np.exp(below), atol=1e-4)
    np.testing.assert_allclose(np.exp(rev), np.exp(above), atol=1e-4)
    assert np.all(np.maximum(fwd, rev) == 0)


# --------------------------------------------------- issue 29: codes, floors, data files

@pytest.mark.parametrize("est", CLASSIFIERS, ids=IDS)
def test_nullable_integer_columns_are_codes_with_na_missing(est):
    X, y, Xt = _data()
    Xt[0, 1] = -1
    frame = pd.DataFrame(Xt, columns=[f"f{j}" for j in range(Xt.shape[1])]).astype("Int64")
    frame.iloc[0, 1] = pd.NA
    fitted = clone(est).fit(pd.DataFrame(X, columns=frame.columns).astype("Int64"), y)
    want = clone(est).fit(pd.DataFrame(X, columns=frame.columns), y)
    np.testing.assert_array_equal(fitted.predict(frame), want.predict(Xt))


def test_uint64_codes_beyond_int64_are_called_too_large():
    X, y, _ = _data()
    big = X.astype(np.uint64)
    big[3, 2] = 2**63
    for fit in (lambda: credal.NCC().fit(big, y),
                lambda: credal.experiments.cross_validate({"n": credal.NCC()}, ("b", big, y),
                                                          progress=False, n_repeats=1)):
        with pytest.raises(ValueError, match=r"column 2 has code 9223372036854775808, too large"):
            fit()


@pytest.mark.parametrize("est", [credal.AODE(aggregate="posterior", posterior_floor=0.5),
                                 credal.BMAAODE(posterior_floor=0.4),
                                 credal.CredalBMAAODE(posterior_floor=1 / 3)], ids=repr)
def test_a_posterior_floor_of_one_over_k_or_more_is_refused(est):
    X, y, _ = _data(k=3)  # 3 classes: floors must stay below 1/3
    with pytest.raises(ValueError, match=r"posterior_floor must be < 1/K = 0\.333333 for the 3"):
        clone(est).fit(X, y)
    clone(est).set_params(posterior_floor=0.3).fit(X, y)


def test_readers_take_regular_files_only(tmp_path):
    import os
    import threading

    from credal._readers import read_arff, read_tab

    fifo = tmp_path / "pipe.arff"
    os.mkfifo(fifo)
    for path in ("/dev/null", tmp_path, fifo, "/dev/zero"):
        for read in (read_arff, read_tab):
            out = []
            t = threading.Thread(target=lambda: out.append(_raised(read, path)), daemon=True)
            t.start()
            t.join(10)
            assert out and "not a regular file" in out[0], (path, read.__name__, out)


def _raised(f, *args):
    try:
        f(*args)
    except Exception as e:  # noqa: BLE001 - the message is what is checked
        return str(e)
    return "returned"


def test_the_parse_cache_is_bounded_by_bytes(tmp_path, monkeypatch):
    from credal import _readers

    monkeypatch.setattr(_readers, "CACHE_BYTES", 200_000)
    monkeypatch.setattr(_readers, "_PARSED", {})
    for i in range(6):  # each ~50 KB of text, more as a frame
        p = tmp_path / f"f{i}.arff"
        p.write_text("@relation r\n@attribute x numeric\n@data\n"
                     + "\n".join(str(i + k / 7) for k in range(5000)) + "\n")
        _readers.read_arff(p)
    assert sum(size for _, size in _readers._PARSED.values()) <= 200_000
    assert 0 < len(_readers._PARSED) < 6
    assert _readers.read_arff(p)[0]["x"].iloc[1] == pytest.approx(5 + 1 / 7)


@pytest.mark.parametrize("header, said", [
    ("@attribute 'a b numeric", r"line 2: the attribute name's quote is not closed"),
    ('@attribute "a numeric', r"line 2: the attribute name's quote is not closed"),
    ("@attribute 'a b' foo", r"line 2: .* in \"@attribute 'a b' foo\""),
])
def test_arff_quote_errors_name_the_line_and_no_placeholder(header, said):
    from credal._readers import parse_arff

    with pytest.raises(ValueError, match=said) as exc:
        parse_arff(f"@relation r\n{header}\n@data\n1\n", source="f.arff")
    assert "__quoted" not in str(exc.value)


def test_a_wide_tab_header_is_read_in_linear_time():
    import time

    from credal._readers import parse_tab

    k = 50_000  # quadratic reading took ~40 s here, 146 s for 100,000 columns
    text = ("\t".join(f"c{i}" for i in range(k)) + "\n" + "\t".join(["c"] * k) + "\n"
            + "\t" * (k - 1) + "\n" + "\t".join(["1"] * k) + "\n")
    t0 = time.perf_counter()
    frame, _ = parse_tab(text)
    assert frame.shape == (1, k) and time.perf_counter() - t0 < 15
    with pytest.raises(ValueError, match="column 'c7' appears twice"):
        parse_tab(text.replace("c9\t", "c7\t", 1))
