"""The evaluation engine: determinism, caching, parallelism and input errors.

The classifiers here are deliberately simple and defined in the test, so the engine is
tested independently of the library's classifiers.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

from credal import experiments
from credal._validation import check_fit_input, check_predict_input


class FrequencySet(ClassifierMixin, BaseEstimator):
    """Credal toy: per value of feature 0, keep classes with count >= ratio * max count."""

    def __init__(self, ratio=0.5):
        self.ratio = ratio

    def fit(self, X, y):
        codes, yi = check_fit_input(self, X, y)
        k = len(self.classes_)
        self.counts_ = np.zeros((self.n_values_[0] if codes.shape[1] else 1, k))
        col = codes[:, 0] if codes.shape[1] else np.zeros(len(yi), int)
        ok = col >= 0
        np.add.at(self.counts_, (col[ok], yi[ok]), 1)
        self.counts_ += 1e-9 * np.arange(k, 0, -1)  # deterministic tie-break
        return self

    def _counts(self, X):
        codes = check_predict_input(self, X)
        col = codes[:, 0] if codes.shape[1] else np.zeros(len(codes), int)
        return np.where(col[:, None] >= 0, self.counts_[np.maximum(col, 0)],
                        self.counts_.sum(axis=0))

    def predict_set(self, X):
        c = self._counts(X)
        return c >= self.ratio * c.max(axis=1, keepdims=True)

    def predict(self, X):
        return self.classes_[self._counts(X).argmax(axis=1)]


class Prior(ClassifierMixin, BaseEstimator):
    """Precise toy: class frequencies, ignoring the features."""

    def __init__(self, smoothing=1.0):
        self.smoothing = smoothing

    def fit(self, X, y):
        _, yi = check_fit_input(self, X, y)
        n = np.bincount(yi, minlength=len(self.classes_)) + self.smoothing
        self.p_ = n / n.sum()
        return self

    def predict_proba(self, X):
        codes = check_predict_input(self, X)
        return np.tile(self.p_, (len(codes), 1))

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(axis=1)]


class NoSetNoProba(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))


def _toy(n=120, seed=0, name="toy"):
    rng = np.random.default_rng(seed)
    x0 = rng.integers(0, 3, n)
    y = np.where(rng.random(n) < 0.8, x0 % 2, 1 - x0 % 2)
    X = pd.DataFrame({
        "a": pd.Categorical.from_codes(x0, ["p", "q", "r"]),
        "b": pd.Categorical.from_codes(rng.integers(0, 2, n), ["u", "v"]),
    })
    return (name, X, pd.Series(pd.Categorical.from_codes(y, ["no", "yes"]), name="class"))


EST = {"freq": FrequencySet(ratio=0.6), "prior": Prior()}


def _run(**kw):
    kw.setdefault("preprocessing", None)
    kw.setdefault("progress", False)
    kw.setdefault("n_splits", 5)
    kw.setdefault("n_repeats", 2)
    return experiments.cross_validate(EST, [_toy(), _toy(90, 1, "toy2")], **kw)


def test_same_seed_identical_tables():
    a, b = _run(random_state=3), _run(random_state=3)
    pd.testing.assert_frame_equal(a.predictions, b.predictions)
    pd.testing.assert_frame_equal(a.folds.drop(columns=["fit_time", "predict_time", "prep_time"]),
                                  b.folds.drop(columns=["fit_time", "predict_time", "prep_time"]))
    c = _run(random_state=4)
    assert not a.predictions["row"].equals(c.predictions["row"]) or \
        not a.predictions["fold"].equals(c.predictions["fold"])


def test_n_jobs_does_not_change_results():
    a, b = _run(n_jobs=1), _run(n_jobs=2)
    pd.testing.assert_frame_equal(a.predictions, b.predictions)
    cols = [c for c in a.folds.columns if not c.endswith("_time")]
    pd.testing.assert_frame_equal(a.folds[cols], b.folds[cols])


def test_every_instance_tested_once_per_repeat_and_shapes():
    res = _run()
    p = res.predictions
    assert len(res.folds) == 2 * 2 * 5 * 2  # datasets x classifiers x folds x repeats
    for (d, c, r), g in p.groupby(["dataset", "classifier", "repeat"]):
        n = 120 if d == "toy" else 90
        assert sorted(g["row"]) == list(range(n))
    # precise classifiers give singleton sets whose member is the prediction
    pr = p[p.classifier == "prior"]
    assert (pr.set_size == 1).all() and (pr.set == pr.y_pred.astype(str)).all()
    # the precise label of the credal classifier lies in its set
    fr = p[p.classifier == "freq"]
    assert all(str(yp) in s.split("|") for yp, s in zip(fr.y_pred, fr.set))


def test_fold_metrics_agree_with_predictions():
    res = _run()
    p, f = res.predictions, res.folds
    for (d, c, r, k), g in p.groupby(["dataset", "classifier", "repeat", "fold"]):
        row = f[(f.dataset == d) & (f.classifier == c) & (f.repeat == r) & (f.fold == k)].iloc[0]
        assert row.n_test == len(g)
        assert row.determinacy == pytest.approx((g.set_size == 1).mean())
        dacc = (g.in_set / g.set_size).mean()
        assert row.discounted_accuracy == pytest.approx(dacc)
    sets = res.sets("toy", "freq")
    assert sets.shape == (2 * 120, 2) and sets.any(axis=1).all()


def test_stratification_and_seed_reproduce_sklearn():
    _, X, y = _toy()
    s1 = experiments.fold_splits(y, n_splits=5, n_repeats=3, random_state=7)
    s2 = experiments.fold_splits(y, n_splits=5, n_repeats=3, random_state=7)
    assert len(s1) == 15
    for (r1, f1, tr1, te1), (r2, f2, tr2, te2) in zip(s1, s2):
        assert (r1, f1) == (r2, f2) and np.array_equal(te1, te2)
        assert len(np.intersect1d(tr1, te1)) == 0
        # stratified: class proportions in test within one instance of the whole
        frac = (y.iloc[te1] == "yes").sum()
        assert abs(frac - len(te1) * (y == "yes").mean()) <= 1.0


def test_cache_reuses_finished_folds(tmp_path, monkeypatch):
    a = _run(cache_dir=tmp_path)
    files = sorted(tmp_path.glob("*.joblib"))
    assert len(files) == len(a.folds)
    calls = []
    real = experiments._run_one
    monkeypatch.setattr(experiments, "_run_one", lambda *x: calls.append(1) or real(*x))
    b = _run(cache_dir=tmp_path)
    assert calls == []  # everything came from the cache
    pd.testing.assert_frame_equal(a.predictions, b.predictions)
    # a changed parameter recomputes only that classifier
    est = {"freq": FrequencySet(ratio=0.9), "prior": Prior()}
    experiments.cross_validate(est, [_toy(), _toy(90, 1, "toy2")], n_repeats=2,
                               preprocessing=None, progress=False, cache_dir=tmp_path)
    assert len(calls) == 2 * 5 * 2  # the "freq" folds only
    # a changed data value recomputes
    name, X, y = _toy()
    X.loc[0, "b"] = "u" if X.loc[0, "b"] == "v" else "v"
    calls.clear()
    experiments.cross_validate(est, (name, X, y), n_repeats=1, preprocessing=None,
                               progress=False, cache_dir=tmp_path)
    assert len(calls) == 2 * 5


def test_predefined_split_and_missing_labels():
    name, X, y = _toy()
    y = y.astype(object)
    y.iloc[:5] = np.nan
    res = experiments.cross_validate({"prior": Prior()}, (name, X, y), n_repeats=1,
                                     preprocessing=None, progress=False)
    assert res.folds.n_test.sum() == 115  # rows without a class are dropped


def test_predefined_split():
    from types import SimpleNamespace

    name, X, y = _toy()
    split = pd.Series(np.where(np.arange(len(X)) < 80, "train", "test"))
    d = SimpleNamespace(name=name, X=X, y=y, split=split)
    res = experiments.cross_validate({"prior": Prior()}, d, use_predefined_split=True,
                                     preprocessing=None, progress=False)
    assert len(res.folds) == 1
    assert res.folds.n_train.iloc[0] == 80 and res.folds.n_test.iloc[0] == 40
    assert sorted(res.predictions.row) == list(range(80, 120))


def test_bad_inputs():
    with pytest.raises(TypeError, match="predict_set nor predict_proba"):
        experiments.cross_validate({"bad": NoSetNoProba()}, _toy(), preprocessing=None)
    with pytest.raises(TypeError, match="dict"):
        experiments.cross_validate([Prior()], _toy(), preprocessing=None)
    with pytest.raises(ValueError, match="n_splits"):
        experiments.cross_validate({"p": Prior()}, _toy(), n_splits=1, preprocessing=None)
    with pytest.raises(ValueError, match="unique"):
        experiments.cross_validate({"p": Prior()}, [_toy(), _toy()], preprocessing=None)
    with pytest.raises(KeyError):
        experiments.cross_validate({"p": Prior()}, "no-such-data-set")


def test_holdout_uses_the_given_test_set():
    name, X, y = _toy()
    tr, te = (X.iloc[:90], y.iloc[:90]), (X.iloc[90:], y.iloc[90:])
    res = experiments.holdout(EST, tr, te, name="sim", progress=False)
    assert len(res.folds) == 2 and (res.folds.n_test == 30).all()
    direct = FrequencySet(ratio=0.6).fit(*tr)
    got = res.predictions.query("classifier == 'freq'")
    assert list(got.row) == list(range(90, 120))
    assert list(got.y_pred) == list(direct.predict(te[0]))
    many = experiments.cross_validate(
        EST, [experiments.holdout_item(f"sim{i}", tr, te) for i in range(3)],
        use_predefined_split=True, preprocessing=None, progress=False)
    assert len(many.folds) == 6
    with pytest.raises(ValueError, match="same columns"):
        experiments.holdout(EST, tr, (X.iloc[90:, :1], y.iloc[90:]))


# --------------------------------------------------------------------------------------
# Fast paths of the engine give the tables of the straightforward code
# --------------------------------------------------------------------------------------


def _concat_reference(parts):
    """The predictions table as the engine first built it: one DataFrame per part."""
    return pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)


def _part(name, y_true, y_pred, rows, proba=True, clf="c"):
    n = len(rows)
    sets = np.zeros((n, 2), dtype=bool)
    sets[np.arange(n), np.arange(n) % 2] = True
    sets[::3] = True
    labels = np.array(["a", "b"], dtype=object)
    return {"dataset": name, "classifier": clf, "repeat": 0, "fold": 1, "row": rows,
            "y_true": y_true, "y_pred": y_pred, "set_size": sets.sum(axis=1),
            "in_set": sets[:, 0], "set": experiments._set_strings(sets, labels),
            "proba": ([tuple(r) for r in np.full((n, 2), 0.5)] if proba else [None] * n)}


@pytest.mark.parametrize("case", ["str", "int", "mixed labels", "float and int", "no proba",
                                  "empty part", "numpy int scalar"])
def test_predictions_table_equals_concat_of_parts(case):
    s = np.array(["a", "b", "a"], dtype=object)
    i = np.array([0, 1, 0])
    rows = np.array([4, 2, 9])
    parts = {
        "str": [_part("d1", s, s[::-1].copy(), rows), _part("d2", s, s, rows, clf="e")],
        "int": [_part("d1", i, i, rows), _part("d2", i, i[::-1].copy(), rows)],
        "mixed labels": [_part("d1", s, s, rows), _part("d2", i, i, rows)],
        "float and int": [_part("d1", i.astype(float), i.astype(float), rows),
                          _part("d2", i, i, rows)],
        "no proba": [_part("d1", s, s, rows, proba=False), _part("d2", s, s, rows)],
        "empty part": [_part("d1", s, s, rows), _part("d2", s[:0], s[:0], rows[:0])],
        "numpy int scalar": [dict(_part("d1", s, s, rows), repeat=np.int64(2)),
                             _part("d2", s, s, rows)],
    }[case]
    got = experiments._predictions_table(parts)
    pd.testing.assert_frame_equal(got, _concat_reference(parts), check_exact=True)
    assert [type(v) for v in got["proba"]] == [type(v) for v in _concat_reference(parts)["proba"]]


def test_set_strings_join_each_row():
    rng = np.random.default_rng(0)
    sets = rng.random((200, 4)) < 0.5
    sets[sets.sum(axis=1) == 0, 2] = True
    labels = np.array(["w", "x", "y", "z"], dtype=object)
    assert experiments._set_strings(sets, labels) == ["|".join(labels[s]) for s in sets]


@pytest.mark.parametrize("a, b", [
    (np.arange(12).reshape(4, 3), np.arange(6).reshape(2, 3)),
    (np.arange(12, dtype=np.int8).reshape(4, 3), np.arange(6).reshape(2, 3)),
    (np.arange(12).reshape(4, 3) > 4, np.arange(6).reshape(2, 3) > 1),
    (np.arange(12.0).reshape(4, 3), np.arange(6).reshape(2, 3)),  # integral: codes
    (np.arange(12.0).reshape(4, 3) / 2, np.arange(6).reshape(2, 3)),
    (np.zeros((0, 3), dtype=int), np.arange(6).reshape(2, 3)),
])
def test_holdout_item_of_arrays_joins_them_and_codes_stay_nominal(a, b):
    y = pd.Series(pd.Categorical.from_codes(np.arange(len(a) + len(b)) % 2, ["n", "p"]))
    item = experiments.holdout_item("h", (a, y.iloc[:len(a)]), (b, y.iloc[len(a):]))
    np.testing.assert_array_equal(item[1], np.concatenate([a, b]))
    assert list(item[3]) == ["train"] * len(a) + ["test"] * len(b)
    X = experiments._as_data(item, True).X
    want = np.concatenate([a, b])
    if (want == np.round(want)).all():  # integer codes (also as floats, as the
        # classifiers read them): categoricals 0..max of each column
        for j, col in X.items():
            assert list(col.cat.categories) == list(range(int(want[:, j].max()) + 1))
            np.testing.assert_array_equal(col.cat.codes, want[:, j])
    else:  # anything else stays as it is (numeric features for MDL)
        pd.testing.assert_frame_equal(X, pd.DataFrame(want))


def _codes(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, 4))
    X[rng.random((n, 4)) < 0.1] = -1
    y = np.where(rng.random(n) < 0.8, X[:, 0] % 2, 1 - X[:, 0] % 2)
    return X, np.array(["no", "yes"])[y]


def test_integer_code_arrays_are_nominal_in_the_engine():
    from credal import NCC, LNCC, NaiveBayes, RobustBayes, C45Tree

    (Xtr, ytr), (Xte, yte) = _codes(200, 0), _codes(80, 1)
    assert (Xtr.max(axis=0) == 2).all()  # every code seen in training: same encoding
    for est in (NaiveBayes(), NCC(), LNCC(), RobustBayes(), C45Tree()):
        res = experiments.holdout({"c": est}, (Xtr, ytr), (Xte, yte), progress=False)
        got = res.predictions
        direct = est.fit(Xtr, ytr)
        assert list(got.y_pred) == list(direct.predict(Xte)), type(est).__name__
    # with the default preprocessing, MDL must not read codes as numbers
    X = np.concatenate([Xtr, Xte])
    y = np.concatenate([ytr, yte])
    frame = pd.DataFrame({j: pd.Categorical.from_codes(X[:, j], categories=[0, 1, 2])
                          for j in range(4)})
    kw = dict(n_repeats=1, progress=False)
    a = experiments.cross_validate({"ncc": NCC()}, ("codes", X, y), **kw)
    b = experiments.cross_validate({"ncc": NCC()}, ("codes", frame, y), **kw)
    assert (a.folds.n_features_used == 4).all()
    pd.testing.assert_frame_equal(a.predictions, b.predictions)


class SeesArrays(ClassifierMixin, BaseEstimator):
    """Records the type and dtype of what it is fitted on and predicts from."""

    def fit(self, X, y):
        assert isinstance(X, np.ndarray) and X.dtype == np.int8, type(X)
        self.inner_ = Prior().fit(X, y)
        self.classes_ = self.inner_.classes_
        return self

    def predict_proba(self, X):
        assert isinstance(X, np.ndarray) and X.dtype == np.int8, type(X)
        return self.inner_.predict_proba(X)

    def predict(self, X):
        return self.classes_[self.predict_proba(X).argmax(axis=1)]


def test_keep_codes_hands_fold_arrays_to_the_classifiers_with_the_same_results():
    from credal import NCC, NaiveBayes

    X, y = _codes(300, 2)
    y = y.astype(object)
    y[[5, 17]] = None  # dropped rows: the arrays keep their alignment with y
    kw = dict(n_repeats=2, progress=False, preprocessing=None)
    for est in (NaiveBayes(), NCC()):
        a = experiments.cross_validate({"c": est}, ("codes", X, y), keep_codes=True, **kw)
        b = experiments.cross_validate({"c": est}, ("codes", X, y), **kw)
        pd.testing.assert_frame_equal(a.predictions, b.predictions)
        pd.testing.assert_frame_equal(a.folds.drop(columns=["fit_time", "predict_time", "prep_time"]),
                                      b.folds.drop(columns=["fit_time", "predict_time", "prep_time"]))
    res = experiments.cross_validate({"s": SeesArrays()}, ("codes", X.astype(np.int8), y),
                                     keep_codes=True, **kw)
    assert len(res.folds) == 10 and (res.folds.n_test.sum() == 2 * 298)
    # frames and non-integer arrays are unaffected; bad codes are still caught
    c = experiments.cross_validate(EST, _toy(), keep_codes=True, **kw)
    pd.testing.assert_frame_equal(c.predictions, experiments.cross_validate(EST, _toy(), **kw).predictions)
    with pytest.raises(ValueError, match="below -1"):
        experiments.cross_validate(EST, ("bad", X - 2, y), keep_codes=True, **kw)


def test_mismatched_lengths_name_the_data_set():
    X, y = _codes(30, 0)
    with pytest.raises(ValueError, match="'short'.*30 rows.*29"):
        experiments.cross_validate({"p": Prior()}, ("short", X, y[:29]), preprocessing=None)
    with pytest.raises(ValueError, match="'short'.*30 rows.*29"):
        experiments.cross_validate({"p": Prior()}, ("short", pd.DataFrame(X), list(y[:29])),
                                   preprocessing=None)


class FailsOnFold(Prior):
    """Raises inside ``fit`` on the training part of one fold (recognised by its size)."""

    def __init__(self, smoothing=1.0, bad_size=-1):
        super().__init__(smoothing)
        self.bad_size = bad_size

    def fit(self, X, y):
        if len(X) == self.bad_size:
            raise ZeroDivisionError("deliberate")
        return super().fit(X, y)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_failure_inside_a_fold_names_it(n_jobs):
    name, X, y = _toy(n=101)
    splits = experiments.fold_splits(y, n_splits=5, n_repeats=2, random_state=0)
    bad = len(splits[0][2])  # fails on every fold whose training part has this size
    where = [f"repeat {r}, fold {f}" for r, f, tr, _ in splits if len(tr) == bad]
    est = {"prior": Prior(), "fails": FailsOnFold(bad_size=bad)}
    with pytest.raises(ZeroDivisionError) as info:
        experiments.cross_validate(est, (name, X, y), n_repeats=2, preprocessing=None,
                                   progress=False, n_jobs=n_jobs)
    msg = str(info.value)
    assert "data set 'toy'" in msg and "classifier 'fails'" in msg and "deliberate" in msg
    assert any(w in msg for w in where)
    if n_jobs == 1:
        assert where[0] in msg
        assert isinstance(info.value.__cause__, ZeroDivisionError)  # the original, chained


def test_results_without_cache_equal_cached_results(tmp_path):
    a = _run(cache_dir=tmp_path)
    b = _run(cache_dir=tmp_path)  # read back from the cache
    c = _run()  # no cache: no fingerprints or keys are computed
    for other in (b, c):
        pd.testing.assert_frame_equal(a.predictions, other.predictions, check_exact=True)
        cols = [k for k in a.folds.columns if not k.endswith("_time")]
        pd.testing.assert_frame_equal(a.folds[cols], other.folds[cols], check_exact=True)


# --------------------------------------------- issue 29: one reading of the input, flags


def test_float_codes_and_1d_X_are_read_as_the_classifiers_read_them():
    from credal import NCC

    X, y = _codes(200, 3)
    kw = dict(n_repeats=1, progress=False)  # the default preprocessing (MDL)
    as_int = experiments.cross_validate({"ncc": NCC()}, ("c", X, y), **kw)
    as_float = experiments.cross_validate({"ncc": NCC()}, ("c", X.astype(float), y), **kw)
    pd.testing.assert_frame_equal(as_float.predictions, as_int.predictions)
    assert (as_float.folds.n_features_used == as_int.folds.n_features_used).all()
    for fit in (lambda: NCC().fit(X[:, 0], y),
                lambda: experiments.cross_validate({"ncc": NCC()}, ("c", X[:, 0], y), **kw)):
        with pytest.raises(ValueError, match=r"X must be 2-D .*X\.reshape\(-1, 1\)"):
            fit()


@pytest.mark.parametrize("flag", ["keep_codes", "drop_missing_y", "use_predefined_split",
                                  "progress"])
def test_boolean_flags_refuse_strings(flag):
    X, y = _codes(60, 0)
    with pytest.raises(ValueError, match=f"{flag} must be True or False; got 'False'"):
        experiments.cross_validate(EST, ("c", X, y), **{flag: "False"})


@pytest.mark.parametrize("bad", ["False", "freq", ["freq", "nope"]])
def test_keep_predictions_refuses_strings_and_unknown_names(bad):
    X, y = _codes(60, 0)
    with pytest.raises(ValueError, match="keep_predictions must be a bool or a collection of "
                                         "classifier names among"):
        experiments.cross_validate(EST, ("c", X, y), keep_predictions=bad, progress=False)


def test_keep_predictions_of_named_classifiers_only():
    # one call keeping some classifiers' predictions: the same fold table as keeping all,
    # and exactly those classifiers' rows of the predictions table
    X, y = _codes(120, 3)
    kw = dict(n_repeats=2, progress=False, preprocessing=None)
    every = experiments.cross_validate(EST, ("c", X, y), **kw)
    some = experiments.cross_validate(EST, ("c", X, y), keep_predictions=["prior"], **kw)
    t = ["fit_time", "predict_time", "prep_time"]
    pd.testing.assert_frame_equal(every.folds.drop(columns=t), some.folds.drop(columns=t))
    want = every.predictions[every.predictions["classifier"] == "prior"].reset_index(drop=True)
    pd.testing.assert_frame_equal(some.predictions, want)


def test_keep_codes_with_the_default_preprocessing_and_codes_unseen_in_training():
    from credal import NCC

    X, y = _codes(300, 4)
    X[:, 3] = 0  # a single code: dropped by the default preprocessing
    X[7, 1] = 5  # a code in one row only: missing (-1) where it is not in training
    kw = dict(n_repeats=2, progress=False)
    res = experiments.cross_validate({"ncc": NCC()}, ("c", X, y), keep_codes=True, **kw)
    assert len(res.folds) == 10 and (res.folds.n_features_used == 3).all()
    Xm = X.copy()
    Xm[7, 1] = -1
    test_fold = res.predictions.query("row == 7")
    train_only = experiments.cross_validate({"ncc": NCC()}, ("c", Xm, y), keep_codes=True, **kw)
    pd.testing.assert_frame_equal(test_fold, train_only.predictions.query("row == 7"))


def test_label_positions_match_pandas_get_indexer():
    # the engine's fast lookup of labels among classes (all pairs compared for small
    # inputs) against pandas, which it replaces, on many random cases
    from credal.experiments import _positions

    rng = np.random.default_rng(0)
    for trial in range(300):
        k, n = int(rng.integers(1, 12)), int(rng.integers(0, 400))
        pool = rng.permutation(30)[:k + 3]
        classes, labels = pool[:k], rng.choice(pool, n)
        kind = trial % 4
        if kind == 1:  # strings in object arrays, as pandas categoricals give them
            classes, labels = classes.astype(str).astype(object), labels.astype(str).astype(object)
        elif kind == 2:  # numpy strings against object strings: compared by pandas
            classes, labels = classes.astype(str), labels.astype(str).astype(object)
        elif kind == 3:  # unsigned labels: pandas' lookup
            labels = labels.astype(np.uint8)
        want = pd.Index(classes).get_indexer(labels)
        np.testing.assert_array_equal(_positions(classes, labels), want)
