"""The one evaluation engine of the compendium.

:func:`cross_validate` runs repeated stratified k-fold cross-validation of several
classifiers on one or more data sets.  In every fold the preprocessing (by default
MDL discretisation and removal of single-category features) is fitted on the
training part only, every classifier is fitted once, and its output on the test
part is recorded: the credal set (``predict_set``), the precise counterpart's label
(``predict``) and, where available, the class probabilities (``predict_proba``).
Results come back as tidy tables (:class:`CVResult`): one row per test instance and
classifier, and one row per fold and classifier with the metrics of
:func:`credal.metrics.summary`.

Finished (fold, classifier) pairs are cached on disk when ``cache_dir`` is given.
The key is a hash of everything that determines the result: the data (values and
encoding), the train/test indices, the preprocessing and the classifier (class and
parameters, and the source of the module of every class it and the estimators in its
parameters derive from outside ``credal``) and the source of the whole core package
(every ``credal/*.py``), so a rerun computes only what is missing and any change of
code or parameters recomputes. Each file carries its key and a digest of its content,
and its result is checked like a fresh one; a file failing a check is recomputed with
a warning. Integer code arrays (``-1`` missing), and float arrays of integral values
as the classifiers read them, stay nominal.

Folds run in parallel with joblib (``n_jobs``); the results do not depend on
``n_jobs`` because every fold is computed independently and the tables are sorted.
Any joblib backend works, e.g. a Dask cluster through
``joblib.parallel_config(backend="dask")``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import io
import os
import sys
import time
import uuid
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import RepeatedStratifiedKFold

from credal._validation import check_2d, check_bool, check_features

__all__ = ["CVResult", "cross_validate", "default_preprocessing", "fold_splits", "holdout",
           "holdout_item"]

def default_preprocessing():
    """MDL discretisation fitted on the training fold, then removal of features left
    with a single category (the protocol of Corani & Antonucci)."""
    from credal.preprocessing import make_preprocessor

    return make_preprocessor(impute=False, discretize="mdl", drop_single=True)


# --------------------------------------------------------------------------- data

@dataclass
class _Data:
    name: str
    X: pd.DataFrame | np.ndarray  # an array only for integer codes kept as they are
    y: pd.Series
    split: pd.Series | None = None
    fingerprint: str = field(default="", repr=False)
    y_values: np.ndarray | None = field(default=None, repr=False)  # y as an array, for folds


def _as_data(item, drop_missing_y: bool, fingerprint: bool = True,
             keep_codes: bool = False) -> _Data:
    if isinstance(item, str):
        from credal import datasets

        item = datasets.load(item)
    if isinstance(item, tuple):
        split = None
        if len(item) == 4:
            name, X, y, split = item
            split = pd.Series(np.asarray(split, dtype=object), index=getattr(X, "index", None))
        elif len(item) == 3:
            name, X, y = item
        elif len(item) == 2:
            (X, y), name = item, "data"
        else:
            raise TypeError("a data item must be a name, a Dataset, (X, y), (name, X, y) "
                            "or (name, X, y, split)")
    else:
        if not all(hasattr(item, a) for a in ("X", "y", "name")):
            raise TypeError(
                f"cannot use {type(item).__name__} as data: give a data set name, a "
                "credal.datasets.Dataset, (X, y) or (name, X, y)")
        name, X, y, split = item.name, item.X, item.y, getattr(item, "split", None)
    if len(X) != len(y):
        raise ValueError(f"data set {name!r}: X has {len(X)} rows but y has {len(y)}")
    if not isinstance(X, pd.DataFrame):
        X = check_2d(np.asarray(X))
        if X.dtype.kind == "f" and np.isfinite(X).all() and (X == np.round(X)).all():
            X = X.astype(np.int64)  # codes, as the classifiers read them
        if keep_codes and X.dtype.kind in "iu":
            _check_codes(X)
        else:
            X = _code_frame(X)
    index = X.index if isinstance(X, pd.DataFrame) else pd.RangeIndex(len(X))
    y = pd.Series(y, index=index) if not isinstance(y, pd.Series) else y
    miss = (y.array.codes < 0 if isinstance(y.dtype, pd.CategoricalDtype)  # no general isna
            else y.isna().to_numpy())
    if drop_missing_y and miss.any():
        keep = ~miss
        X, y = (X.loc[keep] if isinstance(X, pd.DataFrame) else X[keep]), y.loc[keep]
        split = split.loc[keep] if split is not None else None
    if isinstance(X, pd.DataFrame):
        X = X.reset_index(drop=True)
    if not y.index.equals(pd.RangeIndex(len(y))):
        y = y.reset_index(drop=True)
    if split is not None:
        split = split.reset_index(drop=True)
    # joblib.hash covers values, dtypes and declared categories. Only the cache keys
    # use it, and hashing costs more than fitting small simulated data sets, so it is
    # skipped when there is no cache.
    fp = joblib.hash((name, X, y)) if fingerprint else ""
    return _Data(name, X, y, split, fp, y.to_numpy())


def _check_codes(codes):
    check_features(codes)  # the classifiers' messages (a code below -1, or too large)
    return codes


def _code_frame(a) -> pd.DataFrame:
    """Integer codes (``-1`` missing) as categoricals ``0..max``, so that preprocessing
    and classifiers keep them nominal; other arrays as they are (e.g. numbers for MDL)."""
    if a.ndim != 2 or a.dtype.kind not in "iub":
        return pd.DataFrame(a)
    codes = _check_codes(a).astype(np.int64)
    dtypes = {}  # one dtype per number of categories
    return pd.DataFrame({j: pd.Categorical.from_codes(codes[:, j], dtype=dtypes.setdefault(
        t, pd.CategoricalDtype(range(t + 1)))) for j, t in enumerate(
            codes.max(axis=0, initial=0).tolist())}, index=pd.RangeIndex(len(codes)))


def fold_splits(y, *, n_splits=5, n_repeats=10, random_state=0, split=None):
    """The (repeat, fold, train_idx, test_idx) tuples used by :func:`cross_validate`.

    Parameters
    ----------
    y : array-like, shape (n_samples,)
        Class labels (stratification variable; missing labels are not allowed).
    n_splits, n_repeats : int
        Repeated stratified k-fold; ``n_repeats`` runs with different shuffles.
    random_state : int
        Seed of scikit-learn's :class:`~sklearn.model_selection.RepeatedStratifiedKFold`.
    split : Series of {'train', 'test'}, optional
        Use this predefined split instead (one fold, repeat 0).

    Returns
    -------
    list of tuple (int, int, ndarray, ndarray)
    """
    if split is not None:
        s = np.asarray(split)
        return [(0, 0, np.flatnonzero(s == "train"), np.flatnonzero(s == "test"))]
    if not isinstance(n_splits, int) or n_splits < 2:
        raise ValueError(f"n_splits must be an integer >= 2; got {n_splits!r}")
    if not isinstance(n_repeats, int) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an integer >= 1; got {n_repeats!r}")
    y = np.asarray(pd.Series(y).astype(str))
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats,
                                 random_state=random_state)
    with warnings.catch_warnings():
        # Classes rarer than n_splits are legitimate in UCI data (e.g. glass); the
        # splitter still spreads them as well as it can.
        warnings.filterwarnings("ignore", message="The least populated class")
        out = []
        for i, (tr, te) in enumerate(cv.split(np.zeros(len(y)), y)):
            out.append((i // n_splits, i % n_splits, tr, te))
    return out


# ------------------------------------------------------------------------- hashing

@functools.cache
def _core_hash() -> str:
    """Hash of the core's source, every ``credal/*.py`` in name order (chapters, which
    the core never imports, excepted), once per process: any change of the library's
    code, helpers included, invalidates every cached fold."""
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def _file_hash(path, mtime_ns, size) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _source_key(cls) -> str:
    """The source of ``cls``'s module (a file by its content, else the class's own
    source, e.g. a notebook's cell); '' inside the core, which ``_core_hash`` covers."""
    mod = sys.modules.get(cls.__module__)
    path = getattr(mod, "__file__", None)
    if path and Path(path).resolve().parent == Path(__file__).resolve().parent:
        return ""
    try:
        if path and Path(path).is_file():
            st = os.stat(path)
            return _file_hash(path, st.st_mtime_ns, st.st_size)
        return hashlib.sha256(inspect.getsource(cls).encode()).hexdigest()
    except (OSError, TypeError):  # no source at hand: never reused from the cache
        return uuid.uuid4().hex


def _estimator_key(est) -> str:
    """Class, deep parameters (nested estimators by class, their parameters flattened;
    arrays by value), the source of every class they derive from outside the core
    (user-defined classifiers, scikit-learn's) and the core's source."""
    params = sorted(est.get_params(deep=True).items())
    desc = [(k, type(v).__qualname__ if hasattr(v, "get_params") else
             v if isinstance(v, np.ndarray) else repr(v)) for k, v in params]
    classes = {c for e in [est] + [v for _, v in params if hasattr(v, "get_params")]
               for c in type(e).__mro__ if c.__module__ != "builtins"}
    code = sorted((c.__module__, c.__qualname__, _source_key(c)) for c in classes)
    return joblib.hash((type(est).__module__, type(est).__qualname__, desc, code,
                        _core_hash()))


def _cache_read(path, key):
    """``(result, None)`` from a verified file, ``(None, None)`` without a file, or
    ``(None, message)`` when it fails to load or its key or digest disagree."""
    if not path.is_file():  # none yet, or something else there (a directory...)
        return None, None
    try:
        entry = joblib.load(path)
        if entry["key"] == key and hashlib.sha256(entry["data"]).hexdigest() == entry["sha256"]:
            return joblib.load(io.BytesIO(entry["data"])), None
    except Exception:  # truncated, corrupted or of an older layout
        pass
    return None, f"cache file {path} does not match its key or content; recomputing it"


def _cache_write(path, key, res):
    """Write ``res`` with its key and the digest of its serialised bytes, under a
    temporary name of this writer's own (two processes sharing the folder never touch
    each other's file; the last complete write wins)."""
    buf = io.BytesIO()
    joblib.dump(res, buf)
    data = buf.getvalue()
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    joblib.dump({"key": key, "sha256": hashlib.sha256(data).hexdigest(), "data": data}, tmp)
    try:
        tmp.replace(path)
    except OSError as e:  # e.g. a directory of that name
        tmp.unlink(missing_ok=True)
        return f"cannot write cache file {path} ({type(e).__name__}: {e}); not cached"


def _in_fold(err, where):
    """``err`` (same type if it takes a message, else RuntimeError) saying where."""
    msg = f"{where}: {type(err).__name__}: {err}"
    try:
        return type(err)(msg)
    except Exception:
        return RuntimeError(msg)


# -------------------------------------------------------------------------- engine

def _check_estimator(name, est):
    if not hasattr(est, "fit") or not hasattr(est, "predict"):
        raise TypeError(f"classifier {name!r} ({type(est).__name__}) has no fit/predict")
    if not (hasattr(est, "predict_set") or hasattr(est, "predict_proba")):
        raise TypeError(
            f"classifier {name!r} ({type(est).__name__}) has neither predict_set nor "
            "predict_proba; the engine needs one of them (see the api notes)")


def _run_one(est, Xtr, ytr, Xte):
    """Fit one clone and collect its outputs on the test part."""
    est = clone(est)
    t0 = time.perf_counter()
    est.fit(Xtr, ytr)
    t1 = time.perf_counter()
    nv = getattr(est, "n_values_", None)
    if isinstance(Xte, np.ndarray) and Xte.dtype.kind in "iu" and nv is not None:
        unseen = Xte >= np.asarray(nv)
        if unseen.any():  # keep_codes: a code never seen in training is read as missing
            Xte = np.where(unseen, -1, Xte.astype(np.int64))
    if hasattr(est, "predict_outputs"):  # credal's classifiers: every output in one pass
        pred, sets, proba = est.predict_outputs(Xte)
    else:  # any other scikit-learn classifier
        pred = est.predict(Xte)
        sets = est.predict_set(Xte) if hasattr(est, "predict_set") else None
        proba = est.predict_proba(Xte) if hasattr(est, "predict_proba") else None
    pred = np.asarray(pred)
    sets = None if sets is None else np.asarray(sets, dtype=bool)
    proba = None if proba is None else np.asarray(proba, dtype=float)
    t2 = time.perf_counter()
    # a conformal LAC set may be empty (allows_empty_sets): scored as an error, not refused
    return {"classes": np.asarray(est.classes_), "pred": pred, "sets": sets, "proba": proba,
            "fit_time": t1 - t0, "predict_time": t2 - t1,
            "allows_empty": bool(getattr(est, "allows_empty_sets", False))}


def _check_result(res, y_te, who, y_labels):
    """Raise unless ``res`` (fresh or cached) has the shapes and classes of the test
    part, whose labels are ``y_te`` (distinct: the set ``y_labels``)."""
    n_test, K, sets, proba = len(y_te), len(res["classes"]), res["sets"], res["proba"]
    for what, a, shape in (("predict", res["pred"], (n_test,)), ("predict_set", sets, (n_test, K)),
                           ("predict_proba", proba, (n_test, K))):
        if a is not None and np.shape(a) != shape:
            raise ValueError(f"{who}.{what} returned shape {np.shape(a)}, expected {shape}")
    if sets is not None and not res.get("allows_empty") and not sets.any(axis=1).all():
        raise ValueError(f"{who}.predict_set returned an empty set")
    classes = set(np.asarray(res["classes"]).tolist())  # sets: no lookup per test row
    if not y_labels <= classes:
        raise ValueError(f"a test label is not among the classes of {who} (declare all "
                         "classes in y's categories)")
    if not set(np.asarray(res["pred"]).tolist()) <= classes:
        raise ValueError(f"{who} predicted a label outside its classes_")
    return res


def _positions(classes, labels):
    """``pd.Index(classes).get_indexer(labels)``: each label's position in ``classes``
    (unique), -1 if absent.  Small inputs of one dtype kind compare all pairs at once, which
    costs far less than building an index for every fold of thousands of small folds."""
    c, v = np.asarray(classes), np.asarray(labels)
    if c.ndim == v.ndim == 1 and c.dtype.kind == v.dtype.kind and c.dtype.kind in "iuUO" \
            and len(c) * len(v) <= 4096:
        eq = v[:, None] == c[None, :]
        return np.where(eq.any(axis=1), eq.argmax(axis=1), -1)
    return pd.Index(c).get_indexer(v)


def _fold_task(data: _Data, repeat, fold, tr, te, estimators, keys, prep, cache_dir):
    """Every classifier's output on one fold (computed or cached), and the cache
    warnings for the caller to raise (a worker's would be lost)."""
    out, todo, notes = {}, {}, []
    where = f"data set {data.name!r}, classifier {{!r}}, repeat {repeat}, fold {fold}"
    y_te = data.y_values[te]
    y_labels = set(y_te.tolist())
    for name, est in estimators.items():
        path = cache_dir / f"{keys[name]}.joblib" if cache_dir is not None else None
        res, note = _cache_read(path, keys[name]) if path is not None else (None, None)
        if res is not None:
            try:
                out[name] = _check_result(res, y_te, type(est).__name__, y_labels)
                continue
            except Exception as e:  # a cached result that a fresh one could not be
                note = (f"cache file {path} ({where.format(name)}) holds no valid result "
                        f"({e}); recomputing it")
        notes += [note] if note else []
        todo[name] = (est, path)
    name = "(preprocessing)"
    try:
        if todo:
            X = data.X if isinstance(data.X, np.ndarray) else data.X.iloc
            Xtr, ytr, Xte = X[tr], data.y.take(tr), X[te]
            t0 = time.perf_counter()
            if prep is not None:
                p = clone(prep).fit(Xtr, ytr)
                Xtr, Xte = p.transform(Xtr), p.transform(Xte)
            prep_time = time.perf_counter() - t0
        for name, (est, path) in todo.items():
            res = _check_result(_run_one(est, Xtr, ytr, Xte), y_te, type(est).__name__,
                                y_labels)
            res["prep_time"] = prep_time
            res["n_features_used"] = Xtr.shape[1]
            note = _cache_write(path, keys[name], res) if path is not None else None
            notes += [note] if note else []
            out[name] = res
    except Exception as e:
        raise _in_fold(e, where.format(name)) from e
    return data.name, repeat, fold, tr, te, out, notes


@dataclass
class CVResult:
    """Tidy results of :func:`cross_validate`.

    Attributes
    ----------
    predictions : DataFrame
        One row per (data set, classifier, repeat, fold, test instance): ``row`` (the
        instance's position in the data set), ``y_true``, ``y_pred`` (precise
        counterpart's label), ``set_size``, ``in_set`` (truth in the set), ``set``
        (labels joined by ``|``) and ``proba`` (tuple in class order, or None).
    folds : DataFrame
        One row per (data set, classifier, repeat, fold) with sizes, timings and the
        metrics of :func:`credal.metrics.summary` (precise classifiers: singleton sets;
        empty sets, which only a classifier with ``allows_empty_sets`` may return, count
        as errors).
    classes : dict
        Data set name -> array of class labels (column order of ``proba``).
    """

    predictions: pd.DataFrame
    folds: pd.DataFrame
    classes: dict

    def summary(self, by=("dataset", "classifier")) -> pd.DataFrame:
        """Mean of every numeric fold metric over repeats and folds."""
        num = self.folds.select_dtypes("number").drop(columns=["repeat", "fold"],
                                                      errors="ignore")
        return num.join(self.folds[list(by)]).groupby(list(by), sort=True).mean()

    def sets(self, dataset, classifier) -> np.ndarray:
        """Boolean set matrix (n_rows, n_classes) of one classifier on one data set."""
        df = self.predictions.query("dataset == @dataset and classifier == @classifier")
        column = {}  # label as written in the table -> its first class column
        for j, c in enumerate(self.classes[dataset]):
            column.setdefault(str(c), j)
        out = np.zeros((len(df), len(column)), dtype=bool)
        for i, s in enumerate(df["set"]):
            out[i, [column[lab] for lab in s.split("|") if s]] = True  # "": empty set
        return out


def cross_validate(estimators, data, *, n_splits=5, n_repeats=10, random_state=0,
                   preprocessing="default", use_predefined_split=False,
                   drop_missing_y=True, keep_codes=False, n_jobs=1, cache_dir=None,
                   progress=True, keep_predictions=True) -> CVResult:
    """Repeated stratified k-fold cross-validation of classifiers on data sets.

    Parameters
    ----------
    estimators : dict of str -> estimator
        Classifiers following the api notes (``fit``, ``predict`` and
        ``predict_set`` and/or ``predict_proba``).  Each is cloned per fold.
    data : str, Dataset, (X, y), (name, X, y), (name, X, y, split), or a list of these
        Data sets; names are loaded with :func:`credal.datasets.load`.  ``split``
        is an array of ``"train"``/``"test"`` labels (used with
        ``use_predefined_split=True``; see :func:`holdout`).
    n_splits, n_repeats, random_state : int
        The folds (:func:`fold_splits`); every classifier sees the same folds.
    preprocessing : "default", None or an unfitted transformer
        Fitted on each training fold and applied to both parts.  ``"default"`` is
        :func:`default_preprocessing`.
    use_predefined_split : bool
        Use a data set's own train/test split (``Dataset.split``) when it has one.
    drop_missing_y : bool
        Drop rows whose class is missing before splitting.
    keep_codes : bool
        Integer arrays (codes, ``-1`` = missing) reach the preprocessing and the
        classifiers as integer arrays, each fold's rows, instead of as the DataFrame of
        categoricals ``0..max`` the engine otherwise builds from them.  Much faster for
        hundreds of features and many small data sets; the classifiers then take the
        number of categories of a feature from the codes they are fitted on (or from
        their own parameters, e.g. ``min_categories``), not from the whole data set,
        and a test code beyond those is read as missing (-1).  The default
        preprocessing then only drops the features with a single code (codes are not
        discretised).
    n_jobs : int
        joblib workers over folds (-1 = all cores).
    cache_dir : path-like, optional
        Folder of the on-disk cache of finished (fold, classifier) pairs; None or ""
        disables the cache.
    progress : bool
        Show a tqdm progress bar.
    keep_predictions : bool or collection of str
        Keep the per-instance table (memory grows with data size x folds): for every
        classifier, none, or only the named ones (one call then serves classifiers whose
        predictions are needed and others, each fold preprocessed once).

    Returns
    -------
    CVResult
    """
    from credal.metrics import summary as metric_summary
    from credal.preprocessing import make_preprocessor

    for flag in ("use_predefined_split", "drop_missing_y", "keep_codes", "progress"):
        check_bool(flag, locals()[flag])
    if isinstance(estimators, (list, tuple)) or not hasattr(estimators, "items"):
        raise TypeError("estimators must be a dict mapping names to classifiers")
    if not estimators:
        raise ValueError("no classifier given")
    if isinstance(keep_predictions, (bool, np.bool_)):
        keep_predictions = list(estimators) if keep_predictions else []
    if not isinstance(keep_predictions, (list, tuple, set, frozenset)) or not set(
            keep_predictions) <= set(estimators):
        raise ValueError(f"keep_predictions must be a bool or a collection of classifier "
                         f"names among {list(estimators)}; got {keep_predictions!r}")
    keep = set(keep_predictions)
    for name, est in estimators.items():
        _check_estimator(name, est)
    items = data if isinstance(data, list) else [data]
    datas = [_as_data(d, drop_missing_y, fingerprint=bool(cache_dir), keep_codes=keep_codes)
             for d in items]
    names = [d.name for d in datas]
    if len(set(names)) != len(names):
        raise ValueError(f"data set names must be unique; got {names}")
    default = isinstance(preprocessing, str) and preprocessing == "default"
    # kept codes (arrays) are not discretised: the default only drops single codes
    preps = ([default_preprocessing(), make_preprocessor(discretize=None)] if default
             else [preprocessing] * 2)
    if isinstance(preps[0], str):
        raise ValueError(f"unknown preprocessing {preprocessing!r}; use 'default', None or a transformer")
    cache = None
    if cache_dir:  # None or "" = no cache
        cache = Path(cache_dir)
        cache.mkdir(parents=True, exist_ok=True)
        for tmp in cache.glob("*.tmp"):  # a killed writer's leftovers (an hour old)
            with contextlib.suppress(OSError):
                if time.time() - tmp.stat().st_mtime > 3600:
                    tmp.unlink()
    if cache is not None:  # the keys only name cache files
        prep_keys = ["none" if p is None else _estimator_key(p) for p in preps]
        est_keys = {n: _estimator_key(e) for n, e in estimators.items()}

    tasks = []
    for d in datas:
        codes = isinstance(d.X, np.ndarray)
        splits = fold_splits(d.y, n_splits=n_splits, n_repeats=n_repeats,
                             random_state=random_state,
                             split=d.split if use_predefined_split else None)
        for rep, fold, tr, te in splits:
            keys = None
            if cache is not None:
                idx_key = joblib.hash((tr, te))
                keys = {n: joblib.hash((d.fingerprint, idx_key, prep_keys[codes], k))
                        for n, k in est_keys.items()}
            tasks.append((d, rep, fold, tr, te, keys, preps[codes]))

    runner = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
    gen = runner(joblib.delayed(_fold_task)(d, rep, fold, tr, te, estimators, keys, p, cache)
                 for d, rep, fold, tr, te, keys, p in tasks)
    if progress:
        from tqdm.auto import tqdm
        gen = tqdm(gen, total=len(tasks), desc="folds", leave=False)
    by_name = {d.name: d for d in datas}
    pred_parts, fold_rows, classes = [], [], {}
    for dname, rep, fold, tr, te, out, notes in gen:
        for note in notes:
            warnings.warn(note, stacklevel=2)
        d = by_name[dname]
        y_te = d.y_values[te]
        seen = None  # (classes, yi) of the previous classifier of this fold
        for cname in estimators:
            r = out[cname]
            cls = r["classes"]
            classes.setdefault(dname, cls)
            if seen is not None and seen[0].dtype == cls.dtype and np.array_equal(seen[0], cls):
                yi = seen[1]
            else:
                yi = _positions(cls, y_te)
                seen = (cls, yi)
            pred = r["pred"]  # labels checked by _check_result
            pi = _positions(cls, pred)
            sets = r["sets"]
            if sets is None:
                sets = np.zeros((len(te), len(cls)), dtype=bool)
                sets[np.arange(len(te)), pi] = True
            m = metric_summary(sets, yi, precise_pred=pi, proba=r["proba"],
                               allow_empty=r.get("allows_empty", False))
            fold_rows.append({"dataset": dname, "classifier": cname, "repeat": rep,
                              "fold": fold, "n_train": len(tr), "n_test": len(te),
                              "n_features_used": r["n_features_used"],
                              "credal": r["sets"] is not None,
                              "fit_time": r["fit_time"], "predict_time": r["predict_time"],
                              "prep_time": r["prep_time"], **m})
            if cname in keep:
                labels = np.array([str(c) for c in cls], dtype=object)
                pred_parts.append({
                    "dataset": dname, "classifier": cname, "repeat": rep, "fold": fold,
                    "row": te, "y_true": y_te, "y_pred": pred,
                    "set_size": sets.sum(axis=1),
                    "in_set": sets[np.arange(len(te)), yi],
                    "set": _set_strings(sets, labels),
                    "proba": (list(map(tuple, r["proba"])) if r["proba"] is not None
                              else [None] * len(te)),
                })
    sort = ["dataset", "classifier", "repeat", "fold"]
    folds = pd.DataFrame(fold_rows).sort_values(sort, kind="stable").reset_index(drop=True)
    preds = (_predictions_table(pred_parts)
             .sort_values(sort + ["row"], kind="stable").reset_index(drop=True)
             if pred_parts else pd.DataFrame())
    return CVResult(predictions=preds, folds=folds, classes=classes)


def _set_strings(sets, labels) -> list:
    """``["|".join(labels[s]) for s in sets]``, joining each distinct set only once."""
    if len(sets) == 0 or sets.shape[1] > 62:
        return ["|".join(labels[s]) for s in sets]
    code = sets.astype(np.int64) @ (np.int64(1) << np.arange(sets.shape[1], dtype=np.int64))
    uniq, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    text = ["|".join(labels[sets[i]]) for i in first]
    return [text[i] for i in inverse.ravel().tolist()]


# Columns of a predictions part given as one value for the whole part.
_SCALAR_COLUMNS = ("dataset", "classifier", "repeat", "fold")


def _predictions_table(parts) -> pd.DataFrame:
    """``pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)``, column-wise.

    One DataFrame built from joined columns instead of one per (fold, classifier): for thousands of
    small folds the per-frame cost dominated the engine. Joining is done only where each part would
    get the same dtype on its own (:func:`_joined_column`); anything else, and empty parts, go
    through ``concat``."""
    lengths = [len(p["row"]) for p in parts]
    if min(lengths) > 0:
        cols = {}
        for name in parts[0]:
            cols[name] = _joined_column(name, [p[name] for p in parts], lengths)
            if cols[name] is None:
                break
        else:
            return pd.DataFrame(cols)
    return pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)


def _joined_column(name, values, lengths):
    """The parts of one column joined, or None if their dtypes might not agree.

    Only homogeneous parts are joined, for which pandas infers the same dtype from the whole column
    as from each part: integer scalars, one numeric dtype, all ``str`` (inferred as pandas' string
    dtype), tuples or None (object)."""
    if name in _SCALAR_COLUMNS:
        kinds = {type(v) for v in values}
        if kinds == {str}:
            return [v for v, k in zip(values, lengths) for _ in range(k)]
        if kinds == {int} and all(-2**63 <= v < 2**63 for v in values):
            return np.repeat(np.array(values, dtype=np.int64), lengths)
        return None
    if name in ("set", "proba"):
        joined = [x for v in values for x in v]
        ok = (all(type(x) is str for x in joined) if name == "set"
              else all(type(x) is tuple or x is None for x in joined))
        return joined if ok else None
    if not all(isinstance(v, np.ndarray) and v.ndim == 1 for v in values):
        return None
    dtype = values[0].dtype
    if any(v.dtype != dtype for v in values):
        return None
    joined = np.concatenate(values)
    if dtype.kind in "biuf":
        return joined
    if dtype.kind == "O" and pd.api.types.infer_dtype(joined, skipna=False) == "string":
        return joined
    return None


def holdout(estimators, train, test, *, name="data", preprocessing=None, **kw) -> CVResult:
    """Fit on one training set and evaluate on one test set, through the same engine.

    For simulation studies (data generated with a known model) where the test set is
    drawn separately.  The result has one "fold" (repeat 0, fold 0).

    Parameters
    ----------
    estimators : dict of str -> estimator
    train, test : tuple (X, y)
        ``X`` DataFrames with the same columns (categoricals with the same declared
        categories) or integer code arrays (nominal: categories ``0..max`` over both
        parts, ``-1`` missing); ``y`` label arrays or categorical Series.
    name : str
        Name recorded in the ``dataset`` column.
    preprocessing : None, "default" or transformer
        Default None: simulated data are usually discrete already.
    **kw
        Passed to :func:`cross_validate` (``n_jobs``, ``cache_dir``, ``progress``,
        ``keep_predictions``, ``keep_codes``).

    Returns
    -------
    CVResult
    """
    return cross_validate(estimators, holdout_item(name, train, test),
                          use_predefined_split=True, preprocessing=preprocessing, **kw)


def holdout_item(name, train, test):
    """``(name, X, y, split)`` joining a train and a test set, for :func:`cross_validate`
    with ``use_predefined_split=True`` (e.g. a list of many simulated data sets)."""
    (Xtr, ytr), (Xte, yte) = train, test
    if not isinstance(Xtr, pd.DataFrame):  # arrays: joined, converted by the engine
        a, b = np.asarray(Xtr), np.asarray(Xte)
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
            raise ValueError("train and test sets must have the same columns")
        X = np.concatenate([a, b])
    else:
        if list(Xtr.columns) != list(Xte.columns):
            raise ValueError("train and test sets must have the same columns")
        X = pd.concat([Xtr, Xte], ignore_index=True)
    ytr_s, yte_s = pd.Series(ytr).reset_index(drop=True), pd.Series(yte).reset_index(drop=True)
    y = pd.concat([ytr_s, yte_s], ignore_index=True)
    if isinstance(ytr_s.dtype, pd.CategoricalDtype) and not isinstance(y.dtype, pd.CategoricalDtype):
        raise ValueError("train and test labels must declare the same categories")
    split = np.array(["train"] * len(Xtr) + ["test"] * len(Xte), dtype=object)
    return (name, X, y, split)
