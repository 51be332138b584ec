"""Set-valued predictors beside the credal ones: conformal prediction and credible sets.

Three wrappers turn a classifier into a set predictor that the engine
(:func:`credal.experiments.cross_validate`), the scorers of :mod:`credal.metrics` and the
chapters treat like any credal classifier (``predict_set`` returns a bool array
``(n_samples, n_classes)`` in ``classes_`` order):

* :class:`ConformalClassifier`: split conformal prediction. The wrapped estimator is
  fitted on part of the training rows and calibrated on the rest by MAPIE's
  ``SplitConformalClassifier`` (scores LAC, APS or RAPS); the sets hold the true class
  with probability at least ``1 - alpha`` (marginally, over exchangeable rows).
* :class:`CredibleSet`: the Bayesian baseline, the smallest set of most probable classes
  whose posterior mass reaches ``mass`` (no calibration, no guarantee).
* :class:`NestedConformal`: split-conformal calibration of a *family* of credal set
  predictors indexed by one hyper-parameter (nested conformal prediction, Gupta,
  Kuchibhotla & Ramdas, *Pattern Recognition* 2022), e.g. NCC's ``s``: a credal
  classifier with the same finite-sample coverage guarantee.

The wrappers take the rows as they are and leave every input check to the wrapped
estimator (a classifier of this library on category codes, or any scikit-learn
classifier with ``predict_proba``).

Empty sets
----------
A LAC set ``{k : p_k >= 1 - q}`` is empty when no class reaches the calibrated
threshold. :class:`ConformalClassifier` returns that empty row as MAPIE gives it (its
class attribute ``allows_empty_sets`` is True): the engine and
:func:`credal.metrics.summary` count an empty set as an error (not covered, utility 0,
size 0, neither determinate nor indeterminate) and report the share of empty sets. The
other set predictors never return an empty set.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from credal._validation import check_choice, check_features, check_in_range, check_target
from credal.base import BaseClassifier, CredalMixin

__all__ = ["ConformalClassifier", "CredibleSet", "NestedConformal", "SmallCalibrationWarning",
           "calibration_split"]


class SmallCalibrationWarning(UserWarning):
    """The calibration part is too small for ``alpha``: the conformal set is vacuous."""


# ------------------------------------------------------------------ shared helpers

def _rows(X, idx):
    """Rows ``idx`` of a DataFrame (by position) or of an array."""
    return X.iloc[idx] if isinstance(X, (pd.DataFrame, pd.Series)) else np.asarray(X)[idx]


def calibration_split(y, calibration_size=0.3, random_state=None):
    """The split of ``fit``: rows into a proper training part and a calibration part.

    Stratified: each class sends ``round(calibration_size * n_k)`` of its ``n_k`` rows, drawn at
    random, to calibration, but always keeps one for training (a class with a single row
    is never calibrated on). Written out rather than scikit-learn's splitters, which
    refuse classes with one row, as small UCI data sets have in training folds.

    Parameters
    ----------
    y : array-like, shape (n_samples,), or categorical Series
        Class labels.
    calibration_size : float in (0, 1)
    random_state : int, RandomState or None

    Returns
    -------
    train, calibration : ndarray of int64
        Sorted row positions.
    """
    y_idx = check_target(y)[0]
    rng = check_random_state(random_state)
    cal = []
    for k in np.unique(y_idx):
        rows = np.flatnonzero(y_idx == k)
        n_cal = min(int(round(calibration_size * len(rows))), len(rows) - 1)
        cal.append(rng.permutation(rows)[:n_cal])
    mask = np.zeros(len(y_idx), dtype=bool)
    mask[np.concatenate(cal)] = True
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def _check_estimator(estimator, needs):
    for method in ("fit",) + needs:
        if not hasattr(estimator, method):
            raise TypeError(f"estimator {estimator!r} has no {method}; give a classifier "
                            f"with {', '.join(needs)} (e.g. credal.NaiveBayes())")


class _Wrapper(CredalMixin, BaseClassifier):
    """Prediction input goes to the wrapped estimator as it is (it checks it), but for
    integer codes given to an estimator of this library (:meth:`_encode`)."""

    def _predict_input(self, X):
        check_is_fitted(self, "classes_")
        return self._encode(X)

    def _encode(self, X, fit=False):
        """Integer codes as categorical columns declaring every code of the whole training
        data (``n_values_``), at fit and at prediction, when the estimator is one of this
        library's: fitted on the proper training part only, it would otherwise know only the
        codes seen there and refuse a value met first in the calibration part. Other input
        (categorical DataFrames, any input of other estimators) passes as it is."""
        if fit:  # a refit on other input forgets the codes
            self.__dict__.pop("n_values_", None)
            self.__dict__.pop("code_columns_", None)
        if not isinstance(self.estimator, BaseClassifier) or (isinstance(X, pd.DataFrame) and not
                                                              all(d.kind in "iu" for d in X.dtypes)):
            return X
        codes, n_values, _, names = check_features(X)
        if codes.shape[1] == 0:
            return X  # the estimator says what is wrong
        if fit:
            self.n_values_, self.code_columns_ = n_values, names
        elif not hasattr(self, "n_values_"):
            return X  # fitted on categorical columns: the estimator checks the codes
        elif len(n_values) != len(self.n_values_):
            raise ValueError(f"X has {len(n_values)} features, but the estimator was fitted on "
                             f"{len(self.n_values_)}")
        elif (bad := np.flatnonzero(n_values > self.n_values_)).size:
            j = int(bad[0])
            raise ValueError(f"column {j if names is None else names[j]!r} has code "
                             f"{int(n_values[j]) - 1} outside the {int(self.n_values_[j])} "
                             "categories seen in fit")
        # columns named as in fit (an array of codes predicts for a frame of codes)
        names = next(c for c in (names, getattr(self, "code_columns_", None),
                                 range(codes.shape[1])) if c is not None)
        return pd.DataFrame({c: pd.Categorical.from_codes(codes[:, j], categories=range(n))
                             for j, (c, n) in enumerate(zip(names, self.n_values_))})

    def _fit_target(self, X, y):
        """``classes_`` from ``y`` (declared categories count) and ``y`` as codes
        ``0..K-1`` in a categorical that declares all of them, so that the wrapped
        estimator's columns follow ``classes_`` whatever order the labels sort in."""
        if sp.issparse(X):
            raise TypeError("X is a sparse matrix; the set predictors split its rows as a "
                            "dense array: pass X.toarray()")
        if len(X) == 0:
            raise ValueError("empty training data: X has no rows")
        y_idx, self.classes_ = check_target(y)
        if len(y_idx) != len(X):
            raise ValueError(f"X has {len(X)} rows but y has {len(y_idx)}")
        codes = pd.Series(pd.Categorical.from_codes(y_idx, categories=range(len(self.classes_))))
        return y_idx, codes

    def _adopt(self, est):
        """The fitted estimator's description of the features, as meta-estimators do."""
        for attr in ("n_features_in_", "feature_names_in_"):
            self.__dict__.pop(attr, None)
            if hasattr(est, attr):
                setattr(self, attr, getattr(est, attr))
        return est

    def _columns(self, est, values, fill):
        """``values`` (n, len(est.classes_)) spread on the ``classes_`` columns."""
        out = np.full((len(values), len(self.classes_)), fill, dtype=np.asarray(values).dtype)
        out[:, np.asarray(est.classes_, dtype=np.int64)] = values
        return out


# ------------------------------------------------------------- ConformalClassifier

class ConformalClassifier(_Wrapper):
    """Split conformal prediction sets (MAPIE's ``SplitConformalClassifier``).

    ``fit`` splits the training rows (stratified, ``calibration_size`` of each class to
    calibration), fits a clone of ``estimator`` on the proper training part and
    calibrates it with MAPIE on the calibration part. ``predict_set`` returns MAPIE's
    sets at confidence level ``1 - alpha``; ``predict`` and ``predict_proba`` are the
    fitted estimator's.

    Parameters
    ----------
    estimator : classifier with ``fit`` and ``predict_proba``
        A classifier of this library (e.g. ``credal.NaiveBayes()``) or of scikit-learn.
    alpha : float in (0, 1)
        Miscoverage: the sets hold the true class with probability >= ``1 - alpha``.
    method : {"lac", "aps", "raps"}
        MAPIE's conformity score: LAC (least ambiguous set-valued classifier, sets
        ``{k : p_k >= 1 - q}``, possibly empty), APS (adaptive prediction sets, the
        classes in decreasing probability until the calibrated mass, never empty) or
        RAPS (regularised APS).
    calibration_size : float in (0, 1)
        Share of each class's training rows used for calibration.
    random_state : int, RandomState or None
        Seed of the split.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    estimator_ : the fitted clone of ``estimator``
    conformal_ : MAPIE's fitted ``SplitConformalClassifier``, or None when the sets are
        vacuous (calibration part smaller than ``max(1/alpha, 1/(1 - alpha))``)
    calibration_ : ndarray of int64, the calibration rows (positions in ``X``)

    Notes
    -----
    Two cases MAPIE refuses. With fewer calibration rows than ``1/alpha`` (or
    ``1/(1 - alpha)``) no finite quantile gives the coverage: the conformal answer is
    every class, so ``predict_set`` is vacuous and ``fit`` warns
    (:class:`SmallCalibrationWarning`). APS and RAPS are undefined when the calibration
    part holds two classes only: ``fit`` raises ValueError (use ``method="lac"``).
    A LAC set can be empty; it stays empty (``allows_empty_sets``), and
    :func:`credal.metrics.summary` counts it as an error. ``predict`` is the
    estimator's choice, which lies in every non-empty LAC or APS set.
    """

    #: LAC sets can be empty; the engine then scores the empty rows as errors.
    allows_empty_sets = True

    def __init__(self, estimator, alpha=0.1, method="lac", calibration_size=0.3,
                 random_state=None):
        self.estimator = estimator
        self.alpha = alpha
        self.method = method
        self.calibration_size = calibration_size
        self.random_state = random_state

    def fit(self, X, y):
        """Fit the estimator on the proper training part, calibrate on the rest.

        Parameters
        ----------
        X : array-like or DataFrame, shape (n_samples, n_features)
            What ``estimator`` takes (category codes for this library's classifiers).
        y : array-like, shape (n_samples,), or categorical Series

        Returns
        -------
        self
        """
        from mapie.classification import SplitConformalClassifier

        _check_estimator(self.estimator, ("predict_proba",))
        alpha = check_in_range("alpha", self.alpha, 0.0, 1.0, closed="neither")
        check_choice("method", self.method, ("lac", "aps", "raps"))
        check_in_range("calibration_size", self.calibration_size, 0.0, 1.0, closed="neither")
        y_idx, codes = self._fit_target(X, y)
        X = self._encode(X, fit=True)
        train, self.calibration_ = calibration_split(y_idx, self.calibration_size,
                                                      self.random_state)
        self.estimator_ = self._adopt(clone(self.estimator).fit(_rows(X, train),
                                                                codes.iloc[train]))
        self.conformal_ = None
        n_cal = len(self.calibration_)
        if n_cal < max(1 / alpha, 1 / (1 - alpha)):
            warnings.warn(f"{n_cal} calibration rows are too few for alpha={alpha:g} (MAPIE "
                          f"needs at least {math.ceil(max(1 / alpha, 1 / (1 - alpha)))}): "
                          "every set is vacuous; give more training rows or a larger "
                          "alpha or calibration_size", SmallCalibrationWarning, stacklevel=2)
            return self
        y_cal = codes.iloc[self.calibration_]
        if self.method != "lac" and y_cal.nunique() <= 2:
            raise ValueError(f"method={self.method!r} is undefined when the calibration part "
                             f"holds {y_cal.nunique()} classes (MAPIE refuses it); use "
                             "method='lac'")
        conformal = SplitConformalClassifier(self.estimator_, confidence_level=1 - alpha,
                                             conformity_score=self.method, prefit=True,
                                             random_state=self.random_state)
        with warnings.catch_warnings():
            # MAPIE warns when a class of the training part has no calibration row. The
            # guarantee needs exchangeable rows only, not every class in calibration.
            warnings.filterwarnings("ignore", message="WARNING: your conformalization "
                                    "dataset has less labels", category=UserWarning)
            self.conformal_ = conformal.conformalize(_rows(X, self.calibration_),
                                                     np.asarray(y_cal, dtype=np.int64))
        return self

    def _proba(self, X):
        return self._columns(self.estimator_, self.estimator_.predict_proba(X), 0.0)

    def _scores(self, X):
        return self._proba(X)

    def _label(self, scores, sets=None):
        # the estimator's choice: an empty LAC set holds no class to choose from
        return super()._label(scores)

    def _sets(self, X):
        if self.conformal_ is None:
            return np.ones((len(X), len(self.classes_)), dtype=bool)
        _, sets = self.conformal_.predict_set(X)
        return self._columns(self.estimator_, np.asarray(sets[:, :, 0], dtype=bool), False)

    def predict_set(self, X):
        """MAPIE's conformal sets at level ``1 - alpha``.

        Parameters
        ----------
        X : array-like, shape (n_samples, n_features)

        Returns
        -------
        ndarray of bool, shape (n_samples, n_classes)
            Columns in ``classes_`` order; a LAC row can be empty (see the class notes);
            every row True when the calibration part was too small.
        """
        return super().predict_set(X)

    def predict_proba(self, X):
        """The fitted estimator's probabilities, shape (n_samples, n_classes)."""
        return self._proba(self._predict_input(X))


# --------------------------------------------------------------------- CredibleSet

class CredibleSet(_Wrapper):
    """The smallest set of most probable classes whose probability reaches ``mass``.

    The Bayesian counterpart of a conformal set: the classes are taken in decreasing
    posterior probability (ties in ``classes_`` order) until their total reaches
    ``mass`` (within 1e-12, so that rounding never adds a class). No calibration: the
    set holds the truth with probability ``mass`` only if the posterior is right.

    Parameters
    ----------
    estimator : classifier with ``fit`` and ``predict_proba``
    mass : float in (0, 1]
        Posterior mass the set must reach; 1 gives every class of positive probability.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    estimator_ : the fitted clone of ``estimator`` (fitted on every training row)
    """

    def __init__(self, estimator, mass=0.9):
        self.estimator = estimator
        self.mass = mass

    def fit(self, X, y):
        """Fit a clone of the estimator on all rows.

        Parameters
        ----------
        X : array-like or DataFrame, shape (n_samples, n_features)
        y : array-like, shape (n_samples,), or categorical Series

        Returns
        -------
        self
        """
        _check_estimator(self.estimator, ("predict_proba",))
        check_in_range("mass", self.mass, 0.0, 1.0, closed="right")
        _, codes = self._fit_target(X, y)
        X = self._encode(X, fit=True)
        self.estimator_ = self._adopt(clone(self.estimator).fit(X, codes))
        return self

    def _proba(self, X):
        return self._columns(self.estimator_, self.estimator_.predict_proba(X), 0.0)

    def _scores(self, X):
        return self._proba(X)

    def _sets(self, X):
        p = self._proba(X)
        order = np.argsort(-p, axis=1, kind="stable")
        top = np.take_along_axis(p, order, axis=1)
        before = np.cumsum(top, axis=1) - top  # mass of the classes ranked above
        keep = before < float(self.mass) - 1e-12  # still short of the mass: take this one
        sets = np.zeros_like(keep)
        np.put_along_axis(sets, order, keep, axis=1)
        return sets

    def predict_proba(self, X):
        """The fitted estimator's probabilities, shape (n_samples, n_classes)."""
        return self._proba(self._predict_input(X))


# ----------------------------------------------------------------- NestedConformal

class NestedConformal(_Wrapper):
    """Conformal calibration of a family of credal classifiers along one parameter.

    The family is ``estimator`` with ``parameter`` set to each of ``values``, in the
    order in which the sets grow (NCC's ``s`` increasing, LNCC's ``alpha``
    decreasing). ``fit`` splits the training rows like :class:`ConformalClassifier`,
    fits one clone per value on the proper training part and, for each calibration
    row, finds the first value whose set holds its class (its score ``r``; ``len(values)``
    if none does). The conformal quantile of the scores, the
    ``ceil((n + 1)(1 - alpha))``-th smallest of the ``n`` scores, is the index ``k`` of
    the value used: the prediction set is the union of the sets of the values up to
    ``k``, which is the set at ``k`` when the family is nested and nested by
    construction otherwise. A test row is covered exactly when its score is at most
    ``k``, so the coverage is at least ``1 - alpha`` in finite samples (exchangeable
    rows), whatever the family.

    Parameters
    ----------
    estimator : credal classifier with ``fit`` and ``predict_set``
    parameter : str
        Name of the parameter of ``estimator`` that indexes the family.
    values : sequence of float, at least one
        Its values, from the smallest sets to the largest.
    alpha : float in (0, 1)
        Miscoverage.
    calibration_size : float in (0, 1)
        Share of each class's training rows used for calibration.
    random_state : int, RandomState or None
        Seed of the split.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    estimators_ : list of the fitted clones, one per value
    index_ : int
        Index ``k`` of the value chosen (``len(values)``: no value covers enough
        calibration rows, or too few rows; the sets are then vacuous).
    value_ : the chosen value (None when the sets are vacuous)
    calibration_scores_ : ndarray of int64, the scores ``r`` of the calibration rows
    calibration_ : ndarray of int64, the calibration rows (positions in ``X``)
    """

    def __init__(self, estimator, parameter, values, alpha=0.1, calibration_size=0.3,
                 random_state=None):
        self.estimator = estimator
        self.parameter = parameter
        self.values = values
        self.alpha = alpha
        self.calibration_size = calibration_size
        self.random_state = random_state

    def fit(self, X, y):
        """Fit the family on the proper training part and calibrate its index.

        Parameters
        ----------
        X : array-like or DataFrame, shape (n_samples, n_features)
        y : array-like, shape (n_samples,), or categorical Series

        Returns
        -------
        self
        """
        _check_estimator(self.estimator, ("predict_set",))
        if not isinstance(self.parameter, str) or self.parameter not in \
                self.estimator.get_params():
            raise ValueError(f"parameter must name a parameter of {type(self.estimator).__name__}"
                             f" (one of {sorted(self.estimator.get_params())}); "
                             f"got {self.parameter!r}")
        values = list(self.values) if np.ndim(self.values) == 1 else []
        if not values:
            raise ValueError(f"values must be a non-empty 1-D sequence; got {self.values!r}")
        alpha = check_in_range("alpha", self.alpha, 0.0, 1.0, closed="neither")
        check_in_range("calibration_size", self.calibration_size, 0.0, 1.0, closed="neither")
        y_idx, codes = self._fit_target(X, y)
        X = self._encode(X, fit=True)
        train, self.calibration_ = calibration_split(y_idx, self.calibration_size,
                                                      self.random_state)
        Xtr, ytr, Xcal = _rows(X, train), codes.iloc[train], _rows(X, self.calibration_)
        # a row's score is final once a set holds its class: later values skip it
        self.estimators_ = [clone(self.estimator).set_params(**{self.parameter: v}).fit(Xtr, ytr)
                            for v in values]
        self._adopt(self.estimators_[0])
        y_cal = y_idx[self.calibration_]
        Xcal = self._codes(Xcal)  # row subsets below without pandas
        scores = np.full(len(y_cal), len(values), dtype=np.int64)
        todo = np.arange(len(y_cal))  # rows whose class no set has held yet
        for j, est in enumerate(self.estimators_):
            if not len(todo):
                break
            sets = self._columns(est, est.predict_set(_rows(Xcal, todo)), False)
            hit = sets[np.arange(len(todo)), y_cal[todo]]
            scores[todo[hit]] = j
            todo = todo[~hit]
        self.calibration_scores_ = scores
        n = len(scores)
        rank = math.ceil((n + 1) * (1 - alpha))  # the conformal quantile's rank
        if rank > n:
            warnings.warn(f"{n} calibration rows are too few for alpha={alpha:g} (at least "
                          f"{math.ceil(1 / alpha - 1)} needed): every set is vacuous; give more "
                          "training rows or a larger alpha or calibration_size",
                          SmallCalibrationWarning, stacklevel=2)
            self.index_ = len(values)
        else:
            self.index_ = int(np.sort(scores)[rank - 1])
        self.value_ = values[self.index_] if self.index_ < len(values) else None
        return self

    def _chosen(self):
        return self.estimators_[min(self.index_, len(self.estimators_) - 1)]

    def _sets(self, X):
        if self.index_ >= len(self.estimators_):
            return np.ones((len(X), len(self.classes_)), dtype=bool)
        sets = None
        for est in self.estimators_[: self.index_ + 1]:
            s = self._columns(est, est.predict_set(X), False)
            sets, X = (s, self._codes(X)) if sets is None else (sets | s, X)  # X checked once
        return sets

    def _codes(self, X):
        # the members are clones fitted on the same columns: a categorical frame they took
        # (or its rows) goes to them as its codes, which give the same sets
        return check_features(X)[0] if isinstance(self.estimator, BaseClassifier) and isinstance(
            X, pd.DataFrame) else X

    def _scores(self, X):
        # the chosen member's own choice scores highest; it lies in its set, and so in
        # the union (the widest member's when the sets are vacuous)
        est = self._chosen()
        pred = pd.Index(est.classes_).get_indexer(est.predict(X))
        return self._columns(est, np.arange(len(est.classes_)) == pred[:, None], False)

    def _proba(self, X):
        est = self._chosen()
        return self._columns(est, est.predict_proba(X), 0.0)

    @available_if(lambda self: hasattr(self.estimator, "predict_proba"))
    def predict_proba(self, X):
        """The chosen member's probabilities, shape (n_samples, n_classes)."""
        return self._proba(self._predict_input(X))
