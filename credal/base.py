"""The estimator base every classifier of :mod:`credal` derives from.

:class:`BaseClassifier` checks prediction input once (scikit-learn's ``NotFittedError``
before ``fit``, then :func:`credal._validation.check_predict_input`); the two mixins
implement the public prediction methods once from a few private hooks:

* :class:`PreciseMixin`: ``predict_log_proba``, ``predict_proba``, ``predict`` from
  ``_log_proba(z)`` (and optionally ``_scores(z)``, ``_proba(z)``);
* :class:`CredalMixin`: ``predict_set`` from ``_sets(z)`` and ``predict``, the precise
  counterpart's choice inside the set, from ``_scores(z)``.

Both add :meth:`~PreciseMixin.predict_outputs`, which the evaluation engine calls to get
labels, sets and probabilities of the same rows from one pass over the input.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from credal._validation import check_predict_input

__all__ = ["Outputs", "BaseClassifier", "PreciseMixin", "CredalMixin"]


class Outputs(NamedTuple):
    """What a classifier says about some rows (see :meth:`PreciseMixin.predict_outputs`).

    ``pred``: ``predict``'s labels, shape (n_samples,); ``sets``: ``predict_set``, bool
    (n_samples, n_classes), or None for a precise classifier; ``proba``:
    ``predict_proba`` where the classifier has it, else None.
    """

    pred: np.ndarray
    sets: np.ndarray | None
    proba: np.ndarray | None


class BaseClassifier(ClassifierMixin, BaseEstimator):
    """Input checking shared by every classifier (subclasses write ``fit`` and hooks)."""

    # True: the hooks get a list of 1-D code columns (any integer dtype) instead of the
    # int64 matrix, which saves a copy of DataFrame input
    _as_columns = False

    @classmethod
    def _get_param_names(cls):  # scikit-learn reads the signature on every clone: once here
        return list(_param_names(cls))

    def _predict_input(self, X):
        """Validated prediction input handed to the hooks (integer codes, shape
        (n_samples, n_features), or columns; a subclass may transform them further)."""
        if "classes_" not in self.__dict__:  # sklearn's check and error (it costs microseconds)
            check_is_fitted(self, "classes_")
        return check_predict_input(self, X, as_columns=self._as_columns)

    def _label(self, scores, sets=None):
        """Labels of the best-scored class of each row (within ``sets`` if given)."""
        if sets is not None:
            scores = np.where(sets, scores, -np.inf)
        return self.classes_[np.argmax(scores, axis=1)]


@functools.cache
def _param_names(cls) -> tuple:
    return tuple(BaseEstimator._get_param_names.__func__(cls))


class PreciseMixin:
    """Prediction methods of a precise classifier.

    Hooks: ``_log_proba(z)`` (normalised log posteriors, (n, K)); optionally
    ``_scores(z)`` (any scores with the same row-wise argmax, used by ``predict``;
    default ``_log_proba``) and ``_proba(z)`` (default ``exp(_log_proba(z))``).
    """

    def _scores(self, z):
        return self._log_proba(z)

    def _proba(self, z):
        return np.exp(self._log_proba(z))

    def predict_log_proba(self, X):
        """Log posterior class probabilities.

        Parameters
        ----------
        X : int array (n_samples, n_features), -1 = missing, or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes)
            Columns in ``classes_`` order; each row's exponentials sum to 1.
        """
        return self._log_proba(self._predict_input(X))

    def predict_proba(self, X):
        """Posterior class probabilities, shape (n_samples, n_classes); rows sum to 1."""
        return self._proba(self._predict_input(X))

    def predict(self, X):
        """Most probable class of each row, shape (n_samples,)."""
        return self._label(self._scores(self._predict_input(X)))

    def predict_outputs(self, X) -> Outputs:
        """``predict`` and ``predict_proba`` of the same rows, the input checked once.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        Outputs
            ``(pred, sets, proba)``; ``sets`` is None for a precise classifier.
        """
        z = self._predict_input(X)
        return Outputs(self._label(self._scores(z)), None, self._proba(z))


class CredalMixin:
    """Prediction methods of a credal classifier.

    Hooks: ``_sets(z)`` (bool (n, K), never an empty row) and ``_scores(z)``, the
    precise counterpart's scores (their row-wise argmax is its choice). ``predict``
    returns the counterpart's best-scored class inside the set. A credal classifier
    with counterpart probabilities defines ``predict_proba`` and ``_proba(z)`` itself.
    """

    def predict_set(self, X):
        """Classes no other class dominates.

        Parameters
        ----------
        X : int array (n_samples, n_features), -1 = missing, or DataFrame of categoricals

        Returns
        -------
        ndarray of bool, shape (n_samples, n_classes)
            True = class in the set, columns in ``classes_`` order; never an empty row.
        """
        return self._sets(self._predict_input(X))

    def predict(self, X):
        """The precise counterpart's choice inside ``predict_set``, shape (n_samples,)."""
        z = self._predict_input(X)
        return self._label(self._scores(z), self._sets(z))

    def predict_outputs(self, X) -> Outputs:
        """``predict``, ``predict_set`` (and ``predict_proba`` where defined) of the same
        rows, each set computed once.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        Outputs
        """
        z = self._predict_input(X)
        sets = self._sets(z)
        proba = self._proba(z) if hasattr(self, "predict_proba") else None
        return Outputs(self._label(self._scores(z), sets), sets, proba)
