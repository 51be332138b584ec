"""Artificial data from naive models, and the simulation study built on them.

Antonucci, Cattaneo & Corani (2011, Sec. 5.1) compare NCC and LNCC on data drawn
from a *naive* model (features independent given the class): a binary class with
uniform marginal, ten binary features, and conditional chances drawn uniformly at
random under the constraint ``|theta(f|c') - theta(f|c'')| >= 0.1`` for every
feature, value and pair of classes, so that every feature truly depends on the
class.  For each drawn ``theta`` and each training size ``d`` they generate 30
training sets and one test set of 10 000 instances, and average the indicators
over the ``20 x 30 = 600`` train/test experiments of each ``d``.

* :func:`draw_naive_parameters` draws one ``theta`` (rejection sampling: each
  feature's table is redrawn until it meets the constraint, which gives the
  uniform distribution on the constrained set);
* :func:`sample_naive` draws instances from it as categorical DataFrames whose
  declared categories include values absent from a small sample;
* :func:`naive_study` runs the whole design through the evaluation engine
  (:func:`credal.experiments.cross_validate` with predefined train/test splits)
  and returns one row per experiment and classifier.

Every random choice is derived from one integer ``seed`` through
:class:`numpy.random.SeedSequence`-style integer tuples, so the ``k``-th
``theta``, its test sets and its training sets do not depend on how many other
parameters, sizes or repetitions a run uses.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["NaiveParameters", "draw_naive_parameters", "sample_naive", "naive_study",
           "study_rng"]

# stream identifiers of the integer seed tuples (see study_rng)
_THETA, _TEST, _TRAIN = 0, 1, 2


@dataclass(frozen=True)
class NaiveParameters:
    """Chances of a naive model.

    Attributes
    ----------
    class_prior : ndarray, shape (n_classes,)
        Marginal chances of the classes.
    conditionals : tuple of ndarray, each shape (n_classes, n_values_j)
        ``conditionals[j][c, v]`` is the chance of value ``v`` of feature ``j``
        given class ``c``; rows sum to 1.
    """

    class_prior: np.ndarray
    conditionals: tuple

    @property
    def n_features(self) -> int:
        """Number of features."""
        return len(self.conditionals)

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return len(self.class_prior)


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    return int(value)


def study_rng(seed, *stream):
    """Random generator of one stream of a study: ``default_rng([seed, *stream])``.

    Parameters
    ----------
    seed : int
        The study's seed (>= 0).
    *stream : int
        Identifiers of the stream (non-negative), e.g. (kind, theta index, d, repetition).

    Returns
    -------
    numpy.random.Generator
    """
    return np.random.default_rng([_check_int("seed", seed, 0)] + [int(s) for s in stream])


def draw_naive_parameters(rng, n_features=10, n_values=2, n_classes=2, min_gap=0.1,
                          class_prior=None, max_tries=100_000):
    """Draw the chances of a naive model with class-dependent features.

    Each conditional table ``theta(. | c)`` of a feature is drawn uniformly on the
    probability simplex (for binary features: ``theta(f | c)`` uniform on [0, 1]),
    independently for every class, and the feature's tables are redrawn until
    ``|theta(v | c') - theta(v | c'')| >= min_gap`` holds for every value ``v`` and
    every pair of classes.

    Parameters
    ----------
    rng : numpy.random.Generator or int
        Random generator (an int seeds a new one).
    n_features : int, default 10
    n_values : int or sequence of int, default 2
        Number of values of each feature (one int for all).
    n_classes : int, default 2
    min_gap : float in [0, 1), default 0.1
        Minimal difference between the chances of a value under two classes.
    class_prior : array-like, shape (n_classes,), optional
        Marginal chances of the classes; uniform by default (as in the paper).
    max_tries : int
        Redraws allowed per feature before giving up (a too large ``min_gap``).

    Returns
    -------
    NaiveParameters
    """
    rng = np.random.default_rng(rng)
    m = _check_int("n_features", n_features, 1)
    K = _check_int("n_classes", n_classes, 2)
    nv = [n_values] * m if isinstance(n_values, numbers.Integral) else list(n_values)
    if len(nv) != m:
        raise ValueError(f"n_values has {len(nv)} entries for {m} features")
    nv = [_check_int("n_values", v, 2) for v in nv]
    if not 0 <= min_gap < 1:
        raise ValueError(f"min_gap must lie in [0, 1); got {min_gap!r}")
    if class_prior is None:
        prior = np.full(K, 1.0 / K)
    else:
        prior = np.asarray(class_prior, dtype=float)
        if prior.shape != (K,) or np.any(prior < 0) or not np.isclose(prior.sum(), 1.0):
            raise ValueError("class_prior must be a probability vector of length n_classes")
    tables = []
    a, b = np.triu_indices(K, 1)
    for v in nv:
        for _ in range(max_tries):
            t = rng.dirichlet(np.ones(v), size=K)  # uniform on the simplex, per class
            if np.all(np.abs(t[a] - t[b]) >= min_gap):
                break
        else:
            raise RuntimeError(f"no table with gap {min_gap} after {max_tries} draws")
        tables.append(t)
    return NaiveParameters(prior, tuple(tables))


def sample_naive(params, n, rng, class_labels=None):
    """Draw ``n`` instances from a naive model.

    Parameters
    ----------
    params : NaiveParameters
    n : int
        Number of instances (>= 1).
    rng : numpy.random.Generator or int
    class_labels : sequence, optional
        Class labels (default ``0, 1, ...`` as int8).

    Returns
    -------
    X : DataFrame
        Columns ``F1 ... Fm``, categoricals whose declared categories are
        ``0 ... n_values - 1`` (int8), also when a value does not occur.
    y : Series
        Categorical with every class declared.
    """
    rng = np.random.default_rng(rng)
    n = _check_int("n", n, 1)
    K = params.n_classes
    y = rng.choice(K, size=n, p=params.class_prior)
    cols = {}
    for j, t in enumerate(params.conditionals):
        cum = np.cumsum(t, axis=1)
        cum[:, -1] = 1.0
        u = rng.random(n)
        codes = (u[:, None] >= cum[y]).sum(axis=1)
        cats = pd.Index(np.arange(t.shape[1], dtype=np.int8))
        cols[f"F{j + 1}"] = pd.Categorical.from_codes(codes, categories=cats)
    labels = (pd.Index(np.arange(K, dtype=np.int8)) if class_labels is None
              else pd.Index(list(class_labels)))
    if len(labels) != K:
        raise ValueError(f"class_labels has {len(labels)} entries for {K} classes")
    return pd.DataFrame(cols), pd.Series(pd.Categorical.from_codes(y, categories=labels),
                                         name="class")


def naive_study(estimators, *, sizes=(25, 50, 100), n_theta=20, n_train_sets=30,
                n_test=10_000, n_features=10, min_gap=0.1, seed=0, n_jobs=1,
                cache_dir=None, progress=False):
    """The simulation design of Antonucci et al. (Sec. 5.1), through the engine.

    For every parameter draw ``k < n_theta`` and size ``d`` in ``sizes``: one
    test set of ``n_test`` instances and ``n_train_sets`` training sets of ``d``
    instances from the same naive model (binary class, ``n_features`` binary
    features).  Each (training set, test set) pair is one
    :func:`credal.experiments.holdout_item`; the items of one ``(k, d)`` form a
    batch evaluated by :func:`credal.experiments.cross_validate` with
    ``use_predefined_split=True``, ``preprocessing=None`` and
    ``keep_predictions=False``.

    Parameters
    ----------
    estimators : dict of str -> estimator
        Classifiers, as for :func:`credal.experiments.cross_validate`.
    sizes : sequence of int
        Training sizes ``d``.
    n_theta, n_train_sets, n_test, n_features : int
        Parameter draws, training sets per ``(theta, d)``, test-set size, features.
    min_gap : float
        Constraint of :func:`draw_naive_parameters`.
    seed : int
        Seed of every random choice (:func:`study_rng` streams ``(0, k)`` for the
        parameters, ``(1, k, d)`` for the test set, ``(2, k, d, r)`` for the
        ``r``-th training set).
    n_jobs, cache_dir, progress
        Passed to the engine.

    Returns
    -------
    DataFrame
        The engine's fold table, one row per experiment and classifier, with
        the columns ``d``, ``theta`` and ``train_set`` added (``dataset`` is
        ``"d{d}-theta{k}-train{r}"``).
    """
    from credal.experiments import cross_validate, holdout_item

    sizes = [_check_int("size", d, 1) for d in sizes]
    n_theta = _check_int("n_theta", n_theta, 1)
    n_train_sets = _check_int("n_train_sets", n_train_sets, 1)
    n_test = _check_int("n_test", n_test, 1)
    frames = []
    for k in range(n_theta):
        params = draw_naive_parameters(study_rng(seed, _THETA, k), n_features=n_features,
                                       min_gap=min_gap)
        for d in sizes:
            test = sample_naive(params, n_test, study_rng(seed, _TEST, k, d))
            items = [holdout_item(f"d{d}-theta{k:03d}-train{r:03d}",
                                  sample_naive(params, d, study_rng(seed, _TRAIN, k, d, r)),
                                  test)
                     for r in range(n_train_sets)]
            res = cross_validate(estimators, items, use_predefined_split=True,
                                 preprocessing=None, keep_predictions=False,
                                 n_jobs=n_jobs, cache_dir=cache_dir, progress=progress)
            f = res.folds
            parts = f["dataset"].str.extract(r"^d(\d+)-theta(\d+)-train(\d+)$").astype(int)
            frames.append(f.assign(d=parts[0], theta=parts[1], train_set=parts[2]))
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["d", "theta", "train_set", "classifier"],
                           kind="stable").reset_index(drop=True)
