"""Robust Bayes classifier (Ramoni & Sebastiani, 2001) and its naive Bayes baselines.

The robust Bayes classifier (RBC) learns a naive Bayes model from an incomplete
training set without any assumption about why entries are missing.  Every
parameter is replaced by the interval of the estimates obtained from all the
consistent completions of the training set, and a new case receives, for each
class, an interval that contains the posterior probability computed from every
completion.  Two scores turn the intervals into decisions:

* the *strong-dominance* score (RBC_d): class ``c`` is chosen only when its lower
  posterior exceeds the upper posterior of every other class; otherwise the case
  is left unclassified (``predict_set`` returns the classes no other interval
  dominates, so RBC_d is determinate exactly when that set is a singleton);
* the *complete-admissible* score (RBC_u): one point inside each interval, the same
  fraction of the way up every interval, chosen so that the points sum to one
  (``predict`` returns its argmax, which always lies in the strong-dominance set).

Notation (priors with global precision ``alpha``, ``q`` classes, ``r_i``
categories of feature ``i``): ``alpha_j = alpha/q``, ``alpha_ijk = alpha/(q r_i)``.
For feature ``i`` the training rows fall into four kinds: both the class and the
feature observed, counted in ``n(a_ik, c_j)``; feature missing, class ``c_j``
observed: ``n(?, c_j)``; feature value ``a_ik`` observed, class missing:
``n(a_ik, ?)``; both missing: ``n(?, ?)``.  ``n(?)`` counts rows whose class is
missing, ``N`` all rows.  With ``D_ij = alpha/q + sum_h n(a_ih, c_j)`` and the
virtual counts

* ``nbar_ijk = n(?, c_j) + n(a_ik, ?) + n(?, ?)`` (incomplete rows that can be
  completed to ``(a_ik, c_j)``),
* ``nlow_ijk = n(?, c_j) + sum_{h != k} n(a_ih, ?) + n(?, ?)`` (incomplete rows
  that can be completed to class ``c_j`` with another value),

the parameter intervals (Eqs. 5-6 of the paper) are::

    p_low(a_ik|c_j) = (alpha_ijk + n(a_ik,c_j))            / (D_ij + nlow_ijk)
    p_up (a_ik|c_j) = (alpha_ijk + n(a_ik,c_j) + nbar_ijk) / (D_ij + nbar_ijk)
    p_low(c_j) = (alpha_j + n(c_j))        / (alpha + N)
    p_up (c_j) = (alpha_j + n(c_j) + n(?)) / (alpha + N)

Every end point is attained by some completion.  A feature with a single
category has ``p(a|c) = 1`` in every completion, so its interval is ``[1, 1]``.

Posterior intervals (Theorem 2).  With ``xlow_j = prod_i p_low(a_i|c_j)``,
``xup_j = prod_i p_up(a_i|c_j)`` over the observed attributes of the case and
``d = n(?)/(alpha + N)`` (the common width of the class intervals)::

    p_sup(c_j|e) = p_up(c_j) xup_j / (p_up(c_j) xup_j + sum_{h!=j} p_low(c_h) xlow_h)
    p_inf(c_j|e) = p_low(c_j) xlow_j / (p_low(c_j) xlow_j
                      + sum_{l!=j} p_low(c_l) xup_l + d * max_{g!=j} xup_g)

The last denominator is the paper's ``max_{g!=j} [p_up(c_g) xup_g +
sum_{l!=j,g} p_low(c_l) xup_l]`` rewritten with ``p_up = p_low + d``, which makes
it O(q) per case.  Both bounds are the exact optimum of the relaxation in which
each ``x_h`` ranges over ``[xlow_h, xup_h]`` independently and the class
probabilities over their (reachable) intervals; they contain the posterior of
every completion.  When every training class is observed they are attained
(Theorem 3); with missing classes they are valid but may be loose.  A case with
all attributes missing gets the class-probability intervals.  Attributes missing
in the case to classify are left out of the products (exact: the attribute then
plays no part in any completion's posterior).

Complete-admissible score.  ``s_u(c_j) = p_inf + k (p_sup - p_inf)`` with
``k = (1 - sum_h p_inf) / sum_h (p_sup - p_inf)`` in ``[0, 1]`` (``k = 0`` when all
widths are zero, i.e. complete data).  The paper prints ``p_sup - k (p_sup -
p_inf)`` with the same ``k``; that sums to one only when ``sum p_inf + sum p_sup
= 2``, which always holds for two classes (where both forms coincide) but not in
general, so the form above is used (it equals the paper's form with ``k``
replaced by ``1 - k``).

Baselines (:class:`NaiveBayesMissing`): NBC_m ignores missing entries (each
conditional table uses the rows where both the feature and the class are
observed; exact Bayesian estimates under MAR when classes are observed, by the
paper's Theorem 1) and NBC_* treats a missing value as one more category.  Both
drop training rows whose class is missing.

Decision rule (Section 4.3).  With ``theta_d``, ``gamma_d`` the accuracy (on the
classified cases) and coverage of RBC_d and ``theta_a`` the accuracy of a
classifier ``a`` that classifies every case, the *residual accuracy*
``theta_a^l = (theta_a - theta_d gamma_d) / (1 - gamma_d)`` (Eq. 14 solved for
the residual term) is the accuracy ``a`` needs on the cases RBC_d leaves
unclassified to account for its total accuracy.  With a cost ``C_w`` for a wrong
classification and ``C_i`` for an unclassified case, the expected costs per case
are ``C_w (1 - theta_d) gamma_d + C_i (1 - gamma_d)`` for RBC_d and
``C_w (1 - theta_a)`` for ``a``; their difference is ``(1 - gamma_d) [C_i - C_w (1 -
theta_a^l)]``, so RBC_d costs no more than ``a`` iff ``C_i / C_w <= 1 -
theta_a^l`` (Theorem 4), and no more than all the competitors iff
``C_i / C_w <= 1 - max_a theta_a^l`` (:func:`max_cost_ratio`, the sixth column
of the paper's Table 2).

Hand-checked example, Adult row of the paper's Tables 1-2: ``theta_u = 0.8250``,
``theta_d = 0.8651``, ``gamma_d = 0.8172``; residual of RBC_u ``= (0.8250 -
0.8651 * 0.8172) / 0.1828 = 0.6457`` (Table 2: 0.6457); the NBC_m and NBC_*
residuals are 0.6040 and 0.5757, so the maximum cost ratio is ``1 - 0.6457 =
0.3543`` (Table 2: 0.3543).

The paper's experiments (chapter ``robust-bayes``).  :func:`run_experiment` loads
the data sets (:func:`paper_data`), prepares the engine's data items
(:func:`cv_items`: rows without class are dropped, or put into every training
part) and runs :func:`credal.experiments.cross_validate` once for NBC_m, NBC_* and
RBC (:func:`chapter_estimators`).  :func:`pooled_summary` pools the fold table
into the Table 1 fractions with binomial and Monte-Carlo standard errors;
:func:`table1` and :func:`table2` put them beside the published values;
:func:`compare_table1`, :func:`halfwidth_check`, :func:`paper_claims`,
:func:`data_table`, :func:`unlabelled_study` and :func:`bins_study` give the
chapter's other tables, and :func:`chapter_numbers`, :func:`unlabelled_numbers`
and :func:`bins_numbers` the numbers its text quotes; :func:`headline` gives the
paper's headline numbers beside ours for the reproduction report.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from ._validation import (
    check_fit_input,
    check_positive,
    check_predict_input,
)

__all__ = [
    "RobustBayes",
    "NaiveBayesMissing",
    "residual_accuracy",
    "max_cost_ratio",
    "expected_cost",
    "CLASSIFIER_NAMES",
    "QUANTITIES",
    "parse_variant",
    "variant_label",
    "paper_data",
    "cv_items",
    "collect_folds",
    "chapter_estimators",
    "run_experiment",
    "pooled_summary",
    "table1",
    "table2",
    "display_table1",
    "display_table2",
    "compare_table1",
    "halfwidth_check",
    "paper_claims",
    "data_table",
    "unlabelled_study",
    "bins_study",
    "chapter_numbers",
    "unlabelled_numbers",
    "bins_numbers",
    "headline",
]

# Dominance is declared only when the log lower bound beats the log upper bound
# by more than this: ties that rounding could turn either way (e.g. two classes
# with identical counts) then stay undecided rather than flip at random.
_LOG_TIE = 1e-12


# ----------------------------------------------------------------------------
# small vectorised helpers
# ----------------------------------------------------------------------------
def _contingency(a, y, r, q):
    """Counts of (class, value) with a last row/column for missing.

    Parameters
    ----------
    a : ndarray of int, shape (n,)
        Feature codes, ``-1`` = missing.
    y : ndarray of int, shape (n,)
        Class indices, ``-1`` = missing.

    Returns
    -------
    ndarray of float, shape (q + 1, r + 1)
        ``T[j, k] = n(a_k, c_j)``, ``T[j, r] = n(?, c_j)``, ``T[q, k] = n(a_k, ?)``,
        ``T[q, r] = n(?, ?)``.
    """
    a2 = np.where(a < 0, r, a)
    y2 = np.where(y < 0, q, y)
    flat = np.bincount(y2 * (r + 1) + a2, minlength=(q + 1) * (r + 1))
    return flat.reshape(q + 1, r + 1).astype(np.float64)


def _logsumexp_others(L):
    """``out[:, j] = log sum_{h != j} exp(L[:, h])`` without cancellation.

    Prefix and suffix log-sum-exps avoid subtracting the excluded term, which
    would lose all precision when that term dominates.

    Parameters
    ----------
    L : ndarray, shape (n, q)

    Returns
    -------
    ndarray, shape (n, q)  (``-inf`` everywhere when ``q == 1``)
    """
    n = L.shape[0]
    pad = np.full((n, 1), -np.inf)
    pre = np.logaddexp.accumulate(L, axis=1)
    suf = np.logaddexp.accumulate(L[:, ::-1], axis=1)[:, ::-1]
    left = np.hstack([pad, pre[:, :-1]])
    right = np.hstack([suf[:, 1:], pad])
    return np.logaddexp(left, right)


def _max_others(L):
    """``out[:, j] = max_{h != j} L[:, h]`` (``-inf`` when ``q == 1``), shape (n, q)."""
    n, q = L.shape
    if q == 1:
        return np.full_like(L, -np.inf)
    rows = np.arange(n)
    top = np.argmax(L, axis=1)
    m1 = L[rows, top]
    L2 = L.copy()
    L2[rows, top] = -np.inf
    m2 = L2.max(axis=1)
    out = np.repeat(m1[:, None], q, axis=1)
    out[rows, top] = m2
    return out


def _gather_sum(tables, codes, q):
    """Sum over features of ``tables[i][:, codes[:, i]]``.

    Each table has shape (q, r_i + 1); its last column is used for a missing
    code (``-1`` indexes the last column).

    Returns
    -------
    ndarray of float, shape (n_samples, q)
    """
    out = np.zeros((codes.shape[0], q))
    for i, t in enumerate(tables):
        out += t[:, codes[:, i]].T  # code -1 -> last column, by construction
    return out


def _check_choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}; got {value!r}")
    return value


# ----------------------------------------------------------------------------
# Robust Bayes classifier
# ----------------------------------------------------------------------------
class RobustBayes(ClassifierMixin, BaseEstimator):
    """Robust Bayes classifier of Ramoni & Sebastiani (2001).

    Naive Bayes with interval-valued parameters learned from an incomplete
    training set (missing attribute values and missing classes), with no
    assumption on the missing-data mechanism.  The formulas are in the module
    docstring.

    Parameters
    ----------
    alpha : float, default=1.0
        Global prior precision (> 0): ``alpha/q`` per class and
        ``alpha/(q r_i)`` per cell of feature ``i`` (the paper uses 1).

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
    n_features_in_ : int
    n_values_ : ndarray of int, shape (n_features,)
    feature_names_in_, categories_ : set for DataFrame input
    class_count_ : ndarray of float, shape (n_classes,)
        ``n(c_j)``, rows with the class observed (with a single class, missing
        labels can only be that class and are counted as such).
    n_missing_class_ : int
        ``n(?)``, training rows whose class is missing.
    class_prob_lower_, class_prob_upper_ : ndarray, shape (n_classes,)
        Interval estimates of ``p(c_j)``.
    feature_prob_lower_, feature_prob_upper_ : list of ndarray, shape (n_classes, r_i)
        Interval estimates of ``p(a_ik | c_j)``, one array per feature.

    Notes
    -----
    ``predict_set`` and the strong-dominance score treat two bounds within a
    relative ``1e-12`` of each other as tied (no dominance), so the answer does
    not depend on rounding.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [0, -1], [1, 1], [-1, 0]])
    >>> y = np.array([0, 0, 1, np.nan])
    >>> lo, up = RobustBayes().fit(X, y).predict_interval(np.array([[0, 1]]))
    >>> bool(np.all(lo <= up))
    True
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    # -- training ------------------------------------------------------------
    def fit(self, X, y):
        """Learn the interval estimates.

        Parameters
        ----------
        X : int array (n_samples, n_features) with ``-1`` = missing, or DataFrame
            of categoricals (NaN = missing).
        y : array-like, shape (n_samples,)
            Labels; NaN/None (or NaN in a categorical Series) = missing class.

        Returns
        -------
        self
        """
        alpha = check_positive("alpha", self.alpha)
        codes, y_idx = check_fit_input(self, X, y, allow_missing_y=True)
        q = len(self.classes_)
        n = len(y_idx)
        self.n_missing_class_ = int(np.sum(y_idx < 0))
        if q == 1:
            # a single class: every completion gives the missing labels that class
            y_idx = np.zeros_like(y_idx)
        n_miss_c = int(np.sum(y_idx < 0))
        counts = np.bincount(y_idx[y_idx >= 0], minlength=q).astype(np.float64)

        denom = alpha + n
        self.class_count_ = counts
        self.class_prob_lower_ = (alpha / q + counts) / denom
        self.class_prob_upper_ = (alpha / q + counts + n_miss_c) / denom
        self._class_width_ = n_miss_c / denom  # common width of the class intervals

        lows, ups, log_lo, log_up = [], [], [], []
        for i, r in enumerate(self.n_values_):
            r = int(r)
            if r == 1:
                # one category: every completion has p(a|c) = 1
                lo = np.ones((q, 1))
                up = np.ones((q, 1))
            else:
                T = _contingency(codes[:, i], y_idx, r, q)
                n_ac = T[:q, :r]
                n_miss_a = T[:q, r]  # n(?, c_j)
                n_a_miss = T[q, :r]  # n(a_ik, ?)
                n_mm = T[q, r]  # n(?, ?)
                a_cell = alpha / (q * r)
                D = alpha / q + n_ac.sum(axis=1)
                nbar = n_miss_a[:, None] + n_a_miss[None, :] + n_mm
                nlow = n_miss_a[:, None] + (n_a_miss.sum() - n_a_miss)[None, :] + n_mm
                lo = (a_cell + n_ac) / (D[:, None] + nlow)
                up = (a_cell + n_ac + nbar) / (D[:, None] + nbar)
            lows.append(lo)
            ups.append(up)
            zero = np.zeros((q, 1))  # log 1 for a missing value in the case
            log_lo.append(np.hstack([np.log(lo), zero]))
            log_up.append(np.hstack([np.log(up), zero]))
        self.feature_prob_lower_ = lows
        self.feature_prob_upper_ = ups
        self._log_lower_ = log_lo
        self._log_upper_ = log_up
        return self

    # -- intervals -------------------------------------------------------------
    def _log_intervals(self, X):
        codes = check_predict_input(self, X)
        q = len(self.classes_)
        Lxl = _gather_sum(self._log_lower_, codes, q)  # log xlow, (n, q)
        Lxu = _gather_sum(self._log_upper_, codes, q)  # log xup
        lpl = np.log(self.class_prob_lower_)
        lpu = np.log(self.class_prob_upper_)
        log_d = np.log(self._class_width_) if self._class_width_ > 0 else -np.inf

        A = lpu + Lxu  # upper class prob x upper likelihood
        B = lpl + Lxl  # lower x lower
        C = lpl + Lxu  # lower x upper
        log_sup = A - np.logaddexp(A, _logsumexp_others(B))
        den_inf = np.logaddexp(B, _logsumexp_others(C))
        den_inf = np.logaddexp(den_inf, log_d + _max_others(Lxu))
        log_inf = B - den_inf
        # the bounds are ordered mathematically; clip rounding-level crossings
        log_inf = np.minimum(log_inf, log_sup)
        return log_inf, log_sup

    def predict_interval(self, X):
        """Posterior probability intervals of each class (Theorem 2).

        Parameters
        ----------
        X : int array or DataFrame, shape (n_samples, n_features)

        Returns
        -------
        lower, upper : ndarray of float, shape (n_samples, n_classes)
            ``p_inf(c_j | e)`` and ``p_sup(c_j | e)`` in ``classes_`` order;
            ``0 <= lower <= upper <= 1``.
        """
        log_inf, log_sup = self._log_intervals(X)
        return np.exp(log_inf), np.exp(log_sup)

    def _dominated(self, log_inf, log_sup):
        # class h is dominated iff some other class's lower bound beats its upper bound
        return _max_others(log_inf) > log_sup + _LOG_TIE

    def predict_set(self, X):
        """Classes whose interval no other class's interval strictly dominates.

        Returns
        -------
        ndarray of bool, shape (n_samples, n_classes)
            Never an empty row.  A row is a singleton exactly when the
            strong-dominance score classifies the case (RBC_d is determinate).
        """
        log_inf, log_sup = self._log_intervals(X)
        return ~self._dominated(log_inf, log_sup)

    def strong_dominance_score(self, X):
        """Strong-dominance score ``s_d`` (Definition 3).

        Returns
        -------
        ndarray of float, shape (n_samples, n_classes)
            1 for the class whose lower posterior exceeds the upper posterior of
            every other class, 0 elsewhere (all zeros when no class dominates).
        """
        log_inf, log_sup = self._log_intervals(X)
        q = log_inf.shape[1]
        if q == 1:
            return np.ones_like(log_inf)
        # j dominates all others iff log_inf_j beats max_{h != j} log_sup_h
        return (log_inf > _max_others(log_sup) + _LOG_TIE).astype(np.float64)

    @staticmethod
    def _admissible(lower, upper):
        width = upper - lower
        tot_w = width.sum(axis=1)
        slack = 1.0 - lower.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            k = np.where(tot_w > 0, slack / np.where(tot_w > 0, tot_w, 1.0), 0.0)
        k = np.clip(k, 0.0, 1.0)
        return lower + k[:, None] * width

    def complete_admissible_score(self, X):
        """Complete-admissible score ``s_u`` (Definition 4, sum-to-one form).

        Returns
        -------
        ndarray of float, shape (n_samples, n_classes)
            Non-negative, rows sum to 1, each entry inside its posterior interval.
        """
        return self._admissible(*self.predict_interval(X))

    def predict(self, X):
        """Class with the largest complete-admissible score (RBC_u).

        Returns
        -------
        ndarray, shape (n_samples,)
            Labels from ``classes_``; always a member of ``predict_set``.
        """
        s = self.complete_admissible_score(X)
        return self.classes_[np.argmax(s, axis=1)]


# ----------------------------------------------------------------------------
# Naive Bayes baselines for incomplete data
# ----------------------------------------------------------------------------
class NaiveBayesMissing(ClassifierMixin, BaseEstimator):
    """Naive Bayes for incomplete data: NBC_m (ignore) or NBC_* (missing category).

    Parameters
    ----------
    strategy : {"ignore", "category"}, default="ignore"
        ``"ignore"`` (NBC_m): each conditional table is estimated from the rows
        where the feature is observed, and a missing attribute of a case to
        classify is left out of the product (MAR).  ``"category"`` (NBC_*): in
        each feature with a missing training value, "missing" becomes one more
        category (with its own prior cell) that cases to classify may take; a
        feature without missing training values is treated as in ``"ignore"``,
        so both strategies agree on complete training data.
    alpha : float, default=1.0
        Prior strength (> 0).
    prior : {"perks", "laplace"}, default="perks"
        ``"perks"``: ``alpha/q`` per class and ``alpha/(q r_i)`` per cell (the
        paper's prior, ``r_i`` counting the missing category under NBC_*);
        ``"laplace"``: ``alpha`` per class and per cell (with ``alpha = 1`` this is
        Weka's / JNCC2's naive Bayes).

    Notes
    -----
    Training rows whose class is missing are dropped under both strategies.

    Attributes
    ----------
    classes_, n_features_in_, n_values_ : as for every credal classifier
    class_count_ : ndarray, shape (n_classes,)
    class_log_prior_ : ndarray, shape (n_classes,)
    feature_log_prob_ : list of ndarray, shape (n_classes, r_i) or (n_classes, r_i + 1)
        Log ``p(a_ik | c_j)``; under ``"category"`` a feature with a missing
        category has one more last column for it.
    missing_category_ : ndarray of bool, shape (n_features,)
        Which features got a missing category (all False for ``"ignore"``).
    """

    def __init__(self, strategy="ignore", alpha=1.0, prior="perks"):
        self.strategy = strategy
        self.alpha = alpha
        self.prior = prior

    def fit(self, X, y):
        """Estimate the naive Bayes parameters.

        Parameters
        ----------
        X : int array (n_samples, n_features) with ``-1`` = missing, or DataFrame
            of categoricals.
        y : array-like, shape (n_samples,)
            Labels; missing labels are allowed and their rows are dropped.

        Returns
        -------
        self
        """
        strategy = _check_choice("strategy", self.strategy, ("ignore", "category"))
        prior = _check_choice("prior", self.prior, ("perks", "laplace"))
        alpha = check_positive("alpha", self.alpha)
        codes, y_idx = check_fit_input(self, X, y, allow_missing_y=True)
        keep = y_idx >= 0
        codes, y_idx = codes[keep], y_idx[keep]
        q = len(self.classes_)

        counts = np.bincount(y_idx, minlength=q).astype(np.float64)
        a_class = alpha / q if prior == "perks" else alpha
        self.class_count_ = counts
        self.class_log_prior_ = np.log(a_class + counts) - np.log(q * a_class + counts.sum())

        tables, padded, has_cat = [], [], []
        for i, r in enumerate(self.n_values_):
            r = int(r)
            T = _contingency(codes[:, i], y_idx, r, q)[:q]  # (q, r + 1), classes observed
            use_cat = strategy == "category" and T[:, r].sum() > 0
            n_cells = r + 1 if use_cat else r
            cnt = T if use_cat else T[:, :r]
            a_cell = alpha / (q * n_cells) if prior == "perks" else alpha
            logp = np.log(a_cell + cnt) - np.log(n_cells * a_cell + cnt.sum(axis=1))[:, None]
            tables.append(logp)
            # the missing code indexes the last column: the category, or log 1 (skip)
            padded.append(logp if use_cat else np.hstack([logp, np.zeros((q, 1))]))
            has_cat.append(use_cat)
        self.feature_log_prob_ = tables
        self.missing_category_ = np.array(has_cat, dtype=bool)
        self._log_tables_ = padded
        return self

    def predict_log_proba(self, X):
        """Log posterior class probabilities.

        Returns
        -------
        ndarray of float, shape (n_samples, n_classes)
        """
        codes = check_predict_input(self, X)
        q = len(self.classes_)
        joint = self.class_log_prior_ + _gather_sum(self._log_tables_, codes, q)
        m = joint.max(axis=1, keepdims=True)
        return joint - (m + np.log(np.exp(joint - m).sum(axis=1, keepdims=True)))

    def predict_proba(self, X):
        """Posterior class probabilities, rows summing to 1, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """Most probable class of each row, shape (n_samples,)."""
        return self.classes_[np.argmax(self.predict_log_proba(X), axis=1)]


# ----------------------------------------------------------------------------
# Decision rule (Section 4.3)
# ----------------------------------------------------------------------------
def _fractions(name, value):
    arr = np.asarray(value, dtype=np.float64)
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if np.any(bad):
        first = float(arr[bad].ravel()[0])
        raise ValueError(f"{name} must hold fractions in [0, 1]; got {first!r}")
    return arr


def residual_accuracy(accuracy, dominance_accuracy, coverage):
    """Residual accuracy: ``(theta_a - theta_d gamma_d) / (1 - gamma_d)`` (Eq. 14).

    The accuracy that a classifier classifying every case must reach on the cases
    left unclassified by RBC_d to explain its overall accuracy, assuming it is
    right wherever RBC_d is.  For RBC_u this assumption holds (both choose the
    same class on the determinate cases), so the value is RBC_u's accuracy on the
    unclassified cases; for other classifiers it is the quantity that enters the
    cost comparison of Theorem 4 and can be negative (the paper prints such
    values as 0).

    Parameters
    ----------
    accuracy : float or array
        ``theta_a``: overall accuracy of the classifier (fraction).
    dominance_accuracy : float or array
        ``theta_d``: accuracy of RBC_d on the cases it classifies.
    coverage : float or array
        ``gamma_d``: fraction of cases RBC_d classifies.

    Returns
    -------
    float or ndarray
        NaN where ``coverage == 1`` (no unclassified case: undefined).

    Examples
    --------
    Adult, paper's Table 1 -> Table 2 (RBC_u: 0.6457):

    >>> round(float(residual_accuracy(0.8250, 0.8651, 0.8172)), 4)
    0.6457
    """
    a = _fractions("accuracy", accuracy)
    d = _fractions("dominance_accuracy", dominance_accuracy)
    g = _fractions("coverage", coverage)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(g < 1, (a - d * g) / np.where(g < 1, 1 - g, 1.0), np.nan)
    return out[()] if out.ndim == 0 else out


def max_cost_ratio(residual_accuracies, axis=-1):
    """Largest ``C_i / C_w`` for which RBC_d has the minimum expected cost.

    ``1 - max_a theta_a^l`` over the competitors' residual accuracies (Theorem 4
    applied to each competitor), where ``C_i`` is the cost of leaving a case
    unclassified and ``C_w`` the cost of a wrong classification.

    Parameters
    ----------
    residual_accuracies : array-like
        Residual accuracies of the competitors (e.g. NBC_m, NBC_*, RBC_u), along
        ``axis``.
    axis : int, default=-1

    Returns
    -------
    float or ndarray

    Examples
    --------
    Adult, paper's Table 2 (0.3543):

    >>> round(float(max_cost_ratio([0.6040, 0.5757, 0.6457])), 4)
    0.3543
    """
    r = np.asarray(residual_accuracies, dtype=np.float64)
    if r.size == 0:
        raise ValueError("residual_accuracies is empty")
    if np.any(np.isnan(r)):
        raise ValueError("residual_accuracies contains NaN (RBC_d left no case unclassified?)")
    out = 1.0 - np.max(r, axis=axis)
    return out[()] if np.ndim(out) == 0 else out


def expected_cost(accuracy, coverage=1.0, *, cost_wrong=1.0, cost_unclassified=0.0):
    """Expected cost per case: ``C_w (1 - theta) gamma + C_i (1 - gamma)``.

    Parameters
    ----------
    accuracy : float or array
        Accuracy on the classified cases.
    coverage : float or array, default=1.0
        Fraction of cases classified.
    cost_wrong, cost_unclassified : float
        ``C_w`` and ``C_i`` (>= 0).

    Returns
    -------
    float or ndarray
    """
    a = _fractions("accuracy", accuracy)
    g = _fractions("coverage", coverage)
    cw = check_positive("cost_wrong", cost_wrong, strict=False)
    ci = check_positive("cost_unclassified", cost_unclassified, strict=False)
    out = cw * (1 - a) * g + ci * (1 - g)
    return out[()] if np.ndim(out) == 0 else out


# ----------------------------------------------------------------------------
# The paper's experiments (chapter "robust-bayes")
# ----------------------------------------------------------------------------
# The chapter reproduces Tables 1 and 2 of Ramoni & Sebastiani (2001): 5 replicates
# of 5-fold cross-validation of NBC_m, NBC_*, RBC_d and RBC_u on incomplete UCI data
# sets, numeric attributes cut into equal-frequency bins, global prior precision 1.
# Every classifier is evaluated by credal.experiments.cross_validate; the functions
# below prepare the data items, call the engine once and turn its fold table into
# the paper's tables.

#: Names of the chapter's classifiers in the engine's tables.  ``"RBC"`` is one
#: :class:`RobustBayes`: its ``predict_set`` gives RBC_d (a singleton set = a
#: classified case), its ``predict`` gives RBC_u.
CLASSIFIER_NAMES = ("NBC_m", "NBC_*", "RBC")

# Separator between a data set's label and the repeat/fold of an explicit split.
_FOLD_SEP = "::"

# Why our row counts differ from the paper's Table 2 (data set -> short note).  Rows
# without class get a note written by data_table.
_ROW_NOTES = {
    "anneal_orig": "the file holds the 798 training and 100 test rows; the 798 "
                   "training rows are used, as in the paper",
    "audiology": "Weka's file joins the 200 training and 26 test cases in an "
                 "undocumented order; all 226 are used",
    "sick": "Weka's file joins the 2800 training and 972 test cases in an "
            "undocumented order; all 3772 are used",
    "credit_a": "the file (and UCI) has 690 rows; the paper reports 598",
    "cylinder_bands": "the file (and UCI) has 540 rows; the paper reports 512",
    "echocardiogram": "class alive_at_1, missing in 58 of 132 rows; still_alive is "
                      "observed in exactly 131 rows, the paper's size",
    "heart_c": "Weka's copy keeps 2 of the 5 diagnosis labels (presence of disease "
               "collapsed into one)",
    "echocardiogram:still_alive": "class still_alive (observed in 131 rows, the "
                                  "paper's size); alive_at_1 becomes a feature",
}


@functools.lru_cache(maxsize=4)
def _ramoni_catalogue(path, mtime_ns):
    """Data set name -> (paper's name, paper's size) for Ramoni & Sebastiani."""
    import tomllib

    with open(path, "rb") as fh:
        specs = tomllib.load(fh)["datasets"]
    out = {}
    for name, spec in specs.items():
        info = spec.get("papers", {}).get("ramoni-sebastiani")
        if info is not None:
            out[name] = (info.get("name"), info.get("n"))
    return out


def _paper_info(name):
    """(paper's name, paper's size) of a catalogue data set in Ramoni & Sebastiani."""
    from credal import datasets

    path = datasets.data_dir() / "catalogue.toml"
    return _ramoni_catalogue(str(path), path.stat().st_mtime_ns).get(name, (None, None))


def parse_variant(variant):
    """Split a data set variant ``"name"`` or ``"name:class_column"``.

    Parameters
    ----------
    variant : str
        A catalogue name, optionally followed by ``:`` and the name of a feature
        to use as the class instead of the catalogue's class.

    Returns
    -------
    name : str
    target : str or None

    Examples
    --------
    >>> parse_variant("echocardiogram:still_alive")
    ('echocardiogram', 'still_alive')
    >>> parse_variant("vote")
    ('vote', None)
    """
    if not isinstance(variant, str) or not variant or variant.count(":") > 1:
        raise ValueError(f"a data set variant is 'name' or 'name:class_column'; got {variant!r}")
    name, _, target = variant.partition(":")
    return name, (target or None)


def variant_label(variant):
    """Label of a variant in the chapter's tables: ``"name"`` or ``"name (class: c)"``."""
    name, target = parse_variant(variant)
    return name if target is None else f"{name} (class: {target})"


def paper_data(variant, *, paper_rows=True):
    """Load a data set the way the chapter uses it.

    Parameters
    ----------
    variant : str
        Catalogue name, or ``"name:column"`` to use feature ``column`` as the class
        (the catalogue's class then becomes a nominal feature, appended last).
    paper_rows : bool, default=True
        When the data set ships a fixed train/test split and the paper's size is
        that of the training part (anneal_orig: 798 of 898 rows), keep only the
        training rows, as the paper did.

    Returns
    -------
    tuple (label, X, y)
        ``label`` from :func:`variant_label`; ``X`` a DataFrame (categoricals and
        floats); ``y`` a categorical Series, NaN where the class is missing.
    """
    from credal import datasets

    name, target = parse_variant(variant)
    ds = datasets.load(name)
    X, y = ds.X, ds.y
    if paper_rows and ds.split is not None:
        keep = (ds.split == "train").to_numpy()
        if _paper_info(name)[1] == int(keep.sum()):
            X, y = X.loc[keep], y.loc[keep]
    if target is not None:
        if target not in X.columns:
            raise KeyError(f"{name} has no feature {target!r}; features: {list(X.columns)}")
        col = X[target]
        if not isinstance(col.dtype, pd.CategoricalDtype):
            raise ValueError(f"{name}.{target} is numeric; a class must be nominal")
        old = y.rename(y.name if y.name not in X.columns else f"{y.name}_class")
        X = pd.concat([X.drop(columns=target), old], axis=1)
        y = col.rename(target)
    return variant_label(variant), X.reset_index(drop=True), y.reset_index(drop=True)


def cv_items(items, *, n_splits=5, n_repeats=5, random_state=0, unlabelled="drop"):
    """Data items for :func:`credal.experiments.cross_validate`.

    A data set whose class is observed everywhere is passed on as is (the engine
    draws its repeated stratified folds).  Rows whose class is missing cannot be
    scored, since every metric needs the true class of a test row, but RBC can
    learn from them.  With ``unlabelled="drop"`` they are removed.  With
    ``unlabelled="train"`` such a data set is turned into
    one item per (repeat, fold) with an explicit train/test split: the folds are
    those :func:`credal.experiments.fold_splits` draws on the labelled rows, and
    every unlabelled row is added to every training part.  NBC_m and NBC_* drop
    those rows in ``fit``; RBC widens its class intervals with them.

    Parameters
    ----------
    items : list of tuple (label, X, y)
        E.g. from :func:`paper_data`.
    n_splits, n_repeats, random_state : int
        The cross-validation (same meaning as in the engine).
    unlabelled : {"drop", "train"}, default="drop"
        What happens to rows without class: removed (the paper's protocol; it
        states that its data sets report the class of every case), or added to
        every training part.

    Returns
    -------
    list
        ``(label, X, y)`` and ``(label::repeat:fold, X, y, split)`` items; call the
        engine with ``use_predefined_split=True, drop_missing_y=False`` and map
        the names back with :func:`collect_folds`.
    """
    from credal.experiments import fold_splits

    _check_choice("unlabelled", unlabelled, ("train", "drop"))
    out = []
    for label, X, y in items:
        if _FOLD_SEP in label:
            raise ValueError(f"data set label {label!r} may not contain {_FOLD_SEP!r}")
        miss = y.isna().to_numpy()
        if not miss.any():
            out.append((label, X, y))
            continue
        if unlabelled == "drop" or miss.all():
            out.append((label, X.loc[~miss].reset_index(drop=True),
                        y.loc[~miss].reset_index(drop=True)))
            continue
        labelled = np.flatnonzero(~miss)
        for rep, fold, tr, te in fold_splits(y.iloc[labelled], n_splits=n_splits,
                                             n_repeats=n_repeats, random_state=random_state):
            split = np.full(len(y), "train", dtype=object)
            split[labelled[te]] = "test"
            out.append((f"{label}{_FOLD_SEP}{rep}:{fold}", X, y, split))
    return out


def collect_folds(folds):
    """Map explicit-split item names back to (data set, repeat, fold).

    Parameters
    ----------
    folds : DataFrame
        ``CVResult.folds`` of an engine run on :func:`cv_items` output.

    Returns
    -------
    DataFrame
        The same rows, ``dataset`` without the suffix and ``repeat``/``fold`` set
        from it, sorted by data set, classifier, repeat and fold.
    """
    f = folds.copy()
    name = f["dataset"].astype(str)
    has = name.str.contains(_FOLD_SEP, regex=False)
    if has.any():
        parts = name[has].str.rsplit(_FOLD_SEP, n=1, expand=True)
        rf = parts[1].str.split(":", expand=True).astype(int)
        f.loc[has, "dataset"] = parts[0]
        f.loc[has, "repeat"] = rf[0].to_numpy()
        f.loc[has, "fold"] = rf[1].to_numpy()
    f["repeat"] = f["repeat"].astype(int)
    f["fold"] = f["fold"].astype(int)
    return f.sort_values(["dataset", "classifier", "repeat", "fold"],
                         kind="stable").reset_index(drop=True)


def chapter_estimators(alpha=1.0):
    """The three classifiers of the chapter, keyed by :data:`CLASSIFIER_NAMES`."""
    return {
        "NBC_m": NaiveBayesMissing(strategy="ignore", alpha=alpha),
        "NBC_*": NaiveBayesMissing(strategy="category", alpha=alpha),
        "RBC": RobustBayes(alpha=alpha),
    }


def run_experiment(variants, *, n_bins=5, alpha=1.0, n_splits=5, n_repeats=5,
                   random_state=0, paper_rows=True, unlabelled="drop", n_jobs=1,
                   cache_dir=None, progress=False):
    """Cross-validate NBC_m, NBC_* and RBC on the data sets, as in the paper.

    Numeric attributes are cut into ``n_bins`` equal-frequency bins fitted on each
    training fold (:func:`credal.preprocessing.make_preprocessor` with
    ``impute=False, drop_single=False``); missing values stay missing.

    Parameters
    ----------
    variants : list of str
        Data set variants (:func:`paper_data`).
    n_bins : int
        Equal-frequency bins per numeric attribute.
    alpha : float
        Global prior precision of every classifier.
    n_splits, n_repeats, random_state : int
        Repeated stratified k-fold cross-validation.
    paper_rows : bool
        See :func:`paper_data`.
    unlabelled : {"train", "drop"}
        See :func:`cv_items`.
    n_jobs, cache_dir, progress
        Passed to :func:`credal.experiments.cross_validate`.

    Returns
    -------
    DataFrame
        The engine's fold table (:func:`collect_folds`): one row per data set,
        classifier, repeat and fold, with ``n_test``, ``determinacy``,
        ``single_accuracy``, ``precise_accuracy``, ``precise_on_indeterminate``...
    """
    from credal.experiments import cross_validate
    from credal.preprocessing import make_preprocessor

    items = [paper_data(v, paper_rows=paper_rows) for v in variants]
    prep = make_preprocessor(impute=False, discretize="equal-frequency", n_bins=n_bins,
                             drop_single=False)
    res = cross_validate(chapter_estimators(alpha), cv_items(
        items, n_splits=n_splits, n_repeats=n_repeats, random_state=random_state,
        unlabelled=unlabelled), n_splits=n_splits, n_repeats=n_repeats,
        random_state=random_state, preprocessing=prep, use_predefined_split=True,
        drop_missing_y=False, n_jobs=n_jobs, cache_dir=cache_dir, progress=progress,
        keep_predictions=False)
    return collect_folds(res.folds)


# -- pooling the folds ---------------------------------------------------------
#: The five quantities of the paper's Table 1, in its column order.
QUANTITIES = ("NBC_m", "NBC_*", "RBC_d", "RBC_d coverage", "RBC_u")

# Table 1 columns of data/published/ramoni_table1_accuracy_coverage.csv.
_PUB1 = {"NBC_m": ("NBCm_acc", "NBCm_hw"), "NBC_*": ("NBCstar_acc", "NBCstar_hw"),
         "RBC_d": ("RBCd_acc", "RBCd_acc_hw"), "RBC_d coverage": ("RBCd_cov", "RBCd_cov_hw"),
         "RBC_u": ("RBCu_acc", "RBCu_hw")}

# Z quantile of a two-sided 95% normal interval.
_Z95 = 1.959963984540054


def _fold_counts(folds):
    """Integer counts per fold: n, correct (NBCs), classified/correct (RBC)."""
    f = folds
    n = f["n_test"].to_numpy().astype(np.int64)
    acc = np.nan_to_num(f["precise_accuracy"].to_numpy(dtype=float))
    det = np.nan_to_num(f["determinacy"].to_numpy(dtype=float))
    single = np.nan_to_num(f["single_accuracy"].to_numpy(dtype=float))
    indet = np.nan_to_num(f["precise_on_indeterminate"].to_numpy(dtype=float))
    classified = np.rint(det * n).astype(np.int64)
    return pd.DataFrame({
        "dataset": f["dataset"].to_numpy(), "classifier": f["classifier"].to_numpy(),
        "repeat": f["repeat"].to_numpy(), "n": n,
        "correct": np.rint(acc * n).astype(np.int64),
        "classified": classified,
        "correct_classified": np.rint(single * classified).astype(np.int64),
        "correct_unclassified": np.rint(indet * (n - classified)).astype(np.int64),
    })


# Differences whose Monte-Carlo SE over replicates is taken paired (same partitions),
# for the tolerances of :func:`headline`.
_PAIRED = (("RBC_u", "NBC_m"), ("RBC_u", "NBC_*"), ("RBC_d", "NBC_m"), ("RBC_d", "NBC_*"),
           ("RBC_d", "RBC_u"))


def _pooled(c):
    """The five Table 1 fractions, and RBC_u on unclassified cases, from counts."""
    def get(cls, col):
        s = c[c["classifier"] == cls]
        return float(s[col].sum()), float(s["n"].sum())

    out = {}
    for q, cls in (("NBC_m", "NBC_m"), ("NBC_*", "NBC_*"), ("RBC_u", "RBC")):
        k, n = get(cls, "correct")
        out[q] = k / n if n else np.nan
    k, n = get("RBC", "classified")
    out["RBC_d coverage"] = k / n if n else np.nan
    kc, _ = get("RBC", "correct_classified")
    out["RBC_d"] = kc / k if k else np.nan
    ku, _ = get("RBC", "correct_unclassified")
    out["RBC_u on unclassified"] = ku / (n - k) if n - k else np.nan
    for a, b in _PAIRED:
        out[f"{a} - {b}"] = out[a] - out[b]
    return out


def pooled_summary(folds):
    """Table 1 quantities per data set, pooled over all folds, with standard errors.

    Accuracy is the share of correct predictions over all test predictions of all
    replicates (each row is predicted once per replicate); RBC_d accuracy counts
    the classified cases only and its coverage is the share of cases classified.

    Two standard errors are given for every fraction ``p``:

    * ``se``: binomial, ``sqrt(p (1 - p) / n)`` with ``n`` the number of scored rows
      of the data set (the number of classified rows per replicate for RBC_d
      accuracy): the normal approximation of a proportion estimated on the data
      set's size, as the paper's reference (Kohavi, 1995) does.  The 95% interval
      is ``p +- 1.96 se``;
    * ``mc_se``: the Monte-Carlo standard error over replicates, ``sd / sqrt(R)`` of
      the R replicate estimates (NaN for one replicate): how much the figure would
      move with other random partitions.

    Parameters
    ----------
    folds : DataFrame
        Output of :func:`run_experiment`.

    Returns
    -------
    DataFrame
        Long form, one row per (dataset, quantity) with ``estimate``, ``se``,
        ``ci95`` (half-width), ``mc_se``, ``n`` (rows behind the fraction, per
        replicate), ``n_scored`` (scored rows of the data set) and ``replicates``.
        Quantities: :data:`QUANTITIES`, ``"RBC_u on unclassified"`` (measured
        directly: equals Eq. 14's residual accuracy of RBC_u) and paired differences
        such as ``"RBC_u - NBC_m"`` (accuracy of one minus the other, per replicate on
        the same partitions; only ``estimate`` and ``mc_se`` are filled: the
        binomial SE of a paired difference is not the two SEs combined).
    """
    c = _fold_counts(folds)
    rows = []
    for d, cd in c.groupby("dataset", sort=True):
        reps = sorted(cd["repeat"].unique())
        n_pred = cd.loc[cd["classifier"] == "RBC", "n"].sum()
        if n_pred == 0:
            n_pred = cd.loc[cd["classifier"] == "NBC_m", "n"].sum()
        n_scored = n_pred / len(reps)
        total = _pooled(cd)
        per_rep = pd.DataFrame([_pooled(cd[cd["repeat"] == r]) for r in reps])
        cov = total.get("RBC_d coverage", np.nan)
        for q, p in total.items():
            if " - " in q:  # paired differences: only their Monte-Carlo SE is meaningful
                mc = (per_rep[q].std(ddof=1) / np.sqrt(len(reps))
                      if len(reps) > 1 else np.nan)
                rows.append({"dataset": d, "quantity": q, "estimate": p, "se": np.nan,
                             "ci95": np.nan, "mc_se": mc, "n": n_scored,
                             "n_scored": int(round(n_scored)), "replicates": len(reps)})
                continue
            n = n_scored * cov if q == "RBC_d" else (
                n_scored * (1 - cov) if q == "RBC_u on unclassified" else n_scored)
            se = np.sqrt(p * (1 - p) / n) if n > 0 and np.isfinite(p) else np.nan
            mc = (per_rep[q].std(ddof=1) / np.sqrt(len(reps))
                  if len(reps) > 1 else np.nan)
            rows.append({"dataset": d, "quantity": q, "estimate": p, "se": se,
                         "ci95": _Z95 * se, "mc_se": mc, "n": n,
                         "n_scored": int(round(n_scored)), "replicates": len(reps)})
    return pd.DataFrame(rows)


# -- tables -----------------------------------------------------------------------
def _paper_names(labels):
    """Paper's name of each data set label (``None`` when the paper does not use it)."""
    out = {}
    for lab in labels:
        name = lab.split(" (class:")[0]
        out[lab] = _paper_info(name)[0]
    return out


def _public_paper_names():
    from credal import datasets

    path = datasets.data_dir() / "catalogue.toml"
    return {pn for pn, _ in _ramoni_catalogue(str(path), path.stat().st_mtime_ns).values()}


def _our_rows(paper_name, names):
    """Our data set labels for one published row: the variants we ran, the marker
    ``"(not public)"`` for a data set without public copy, nothing for a public
    data set left out of this run."""
    mine = [d for d, pn in names.items() if pn == paper_name]
    if mine:
        return mine
    return [] if paper_name in _public_paper_names() else ["(not public)"]


def table1(summary, published=None):
    """The paper's Table 1 with our values beside the published ones (percent).

    Parameters
    ----------
    summary : DataFrame
        :func:`pooled_summary` output.
    published : DataFrame, optional
        ``credal.datasets.published("ramoni_table1_accuracy_coverage")`` (loaded
        when omitted).

    Returns
    -------
    DataFrame
        One row per published data set (paper's order; a data set we run in two
        variants appears twice, KDD99 with our columns empty, public data sets
        left out of the run are omitted), index ``data set``
        (ours, or ``"(not public)"``) with ``paper's name``; for each quantity
        ``q`` of :data:`QUANTITIES` the columns ``q``, ``q ±95%``, ``q paper`` and
        ``q ± paper``.
    """
    from credal import datasets

    pub = datasets.published("ramoni_table1_accuracy_coverage") if published is None \
        else published
    est = summary.pivot(index="dataset", columns="quantity", values="estimate") * 100
    ci = summary.pivot(index="dataset", columns="quantity", values="ci95") * 100
    names = _paper_names(est.index)
    rows = []
    for _, p in pub.sort_values("row").iterrows():
        mine = _our_rows(p["dataset"], names)
        for d in mine:
            row = {"data set": d, "paper's name": p["dataset"]}
            for q in QUANTITIES:
                have = d in est.index
                row[q] = est.loc[d, q] if have else np.nan
                row[f"{q} ±95%"] = ci.loc[d, q] if have else np.nan
                row[f"{q} paper"] = p[_PUB1[q][0]]
                row[f"{q} ± paper"] = p[_PUB1[q][1]]
            rows.append(row)
    return pd.DataFrame(rows).set_index("data set")


def table2(summary, published=None):
    """The paper's Table 2 (decision rule) with ours beside the published values.

    Residual accuracies follow Eq. 14 (:func:`residual_accuracy`) from the pooled
    Table 1 fractions; the cost ratio is :func:`max_cost_ratio` over NBC_m, NBC_*
    and RBC_u.  Negative residuals are kept (the paper prints them as 0).

    Parameters
    ----------
    summary : DataFrame
        :func:`pooled_summary` output.
    published : DataFrame, optional
        ``credal.datasets.published("ramoni_table2_residual")``.

    Returns
    -------
    DataFrame
        Index ``data set``; columns ``paper's name``, ``NBC_m residual``,
        ``NBC_* residual``, ``RBC_u residual`` (fractions), ``max Ci/Cw``,
        ``% unclassified``, ``size`` (rows scored), each followed by its ``paper``
        column, and ``RBC_u on unclassified`` (measured, a check of Eq. 14).
    """
    from credal import datasets

    pub = datasets.published("ramoni_table2_residual") if published is None else published
    est = summary.pivot(index="dataset", columns="quantity", values="estimate")
    size = summary.groupby("dataset")["n_scored"].first()
    names = _paper_names(est.index)
    pcols = {"NBC_m residual": "NBCm_residual_acc", "NBC_* residual": "NBCstar_residual_acc",
             "RBC_u residual": "RBCu_residual_acc", "max Ci/Cw": "max_cost_ratio_Ci_over_Cw",
             "% unclassified": "pct_unclassified_RBCd", "size": "size"}
    rows = []
    for _, p in pub.sort_values("row").iterrows():
        mine = _our_rows(p["dataset"], names)
        for d in mine:
            row = {"data set": d, "paper's name": p["dataset"]}
            ours = {}
            if d in est.index:
                e = est.loc[d]
                g, th = e["RBC_d coverage"], e["RBC_d"]
                res = {}
                for q, col in (("NBC_m", "NBC_m residual"), ("NBC_*", "NBC_* residual"),
                               ("RBC_u", "RBC_u residual")):
                    res[col] = (float(residual_accuracy(e[q], th, g))
                                if g < 1 and np.isfinite(th) else np.nan)
                ours.update(res)
                vals = list(res.values())
                ours["max Ci/Cw"] = (float(max_cost_ratio(vals))
                                     if not np.any(np.isnan(vals)) else np.nan)
                ours["% unclassified"] = 100 * (1 - g)
                ours["size"] = size.loc[d]
                ours["RBC_u on unclassified"] = e["RBC_u on unclassified"]
            for col, pc in pcols.items():
                row[col] = ours.get(col, np.nan)
                row[f"{col} paper"] = p[pc]
            row["RBC_u on unclassified"] = ours.get("RBC_u on unclassified", np.nan)
            rows.append(row)
    out = pd.DataFrame(rows).set_index("data set")
    out["size"] = out["size"].astype("Int64")
    return out


def compare_table1(t1, exclude=()):
    """How far our Table 1 is from the published one, quantity by quantity.

    A difference is *within noise* when ``|ours - paper| <= 1.96 sqrt(se_ours^2 +
    se_paper^2)``, taking our binomial standard error and the paper's printed
    half-width as its standard error (which is what it appears to be, see
    :func:`halfwidth_check`).

    Parameters
    ----------
    t1 : DataFrame
        :func:`table1` output.
    exclude : iterable of str
        Data set labels (index of ``t1``) to leave out, e.g. where our data differ
        from the paper's by construction.

    Returns
    -------
    DataFrame
        Index: quantity; columns ``data sets`` (compared), ``mean difference``,
        ``mean |difference|``, ``median |difference|`` (percentage points),
        ``within noise`` (count) and ``largest difference`` (data set: value).
    """
    t = t1[~t1.index.isin(list(exclude)) & t1["NBC_m"].notna()]
    rows = []
    for q in QUANTITIES:
        ok = t[q].notna() & t[f"{q} paper"].notna()
        d = (t[q] - t[f"{q} paper"])[ok]
        se = np.sqrt((t[f"{q} ±95%"] / _Z95) ** 2 + t[f"{q} ± paper"] ** 2)[ok]
        worst = d.abs().idxmax() if len(d) else None
        rows.append({"quantity": q, "data sets": int(ok.sum()),
                     "mean difference": d.mean(), "mean |difference|": d.abs().mean(),
                     "median |difference|": d.abs().median(),
                     "within noise": int((d.abs() <= _Z95 * se).sum()),
                     "largest difference": (f"{worst}: {d[worst]:+.1f}" if worst is not None
                                            else "")})
    return pd.DataFrame(rows).set_index("quantity")


def halfwidth_check(published1=None, published2=None):
    """Published half-widths of Table 1 divided by a binomial standard error.

    For each published fraction ``p`` the standard error ``sqrt(p (1 - p) / n)`` is
    computed with ``n`` the size printed in Table 2 (times the coverage for RBC_d
    accuracy).  A ratio near 1 means the printed ``±`` is one standard error; a
    95% normal interval would give 1.96.

    Parameters
    ----------
    published1, published2 : DataFrame, optional
        The published Tables 1 and 2 (loaded when omitted).

    Returns
    -------
    ratios : DataFrame
        Index: paper's data set name; one column per quantity.
    summary : DataFrame
        Index: quantity; ``cells``, ``median ratio``, ``within 0.8-1.25``,
        ``above 1.5`` (counts) and ``largest`` (data set: ratio).
    """
    from credal import datasets

    p1 = datasets.published("ramoni_table1_accuracy_coverage") if published1 is None \
        else published1
    p2 = datasets.published("ramoni_table2_residual") if published2 is None else published2
    m = p1.merge(p2[["dataset", "size"]], on="dataset", how="left").set_index("dataset")
    ratios = pd.DataFrame(index=m.index)
    for q in QUANTITIES:
        val, hw = _PUB1[q]
        p = m[val] / 100
        n = m["size"] * (m["RBCd_cov"] / 100 if q == "RBC_d" else 1)
        ratios[q] = m[hw] / (100 * np.sqrt(p * (1 - p) / n))
    rows = []
    for q in QUANTITIES:
        r = ratios[q].dropna()
        rows.append({"quantity": q, "cells": len(r), "median ratio": r.median(),
                     "within 0.8-1.25": int(r.between(0.8, 1.25).sum()),
                     "above 1.5": int((r > 1.5).sum()),
                     "largest": f"{r.idxmax()}: {r.max():.1f}"})
    return ratios, pd.DataFrame(rows).set_index("quantity")


def paper_claims(t1):
    """The paper's two headline claims, counted on its numbers and on ours.

    * RBC_d is the most accurate of the four on the data set (ties count);
    * RBC_u is at least as accurate as both naive Bayes baselines.

    Parameters
    ----------
    t1 : DataFrame
        :func:`table1` output.

    Returns
    -------
    DataFrame
        Index: claim; columns ``paper`` and ``ours`` (counts of data sets where
        the claim holds), ``paper data sets`` (published rows, each paper name
        once) and ``our data sets`` (rows we ran).
    """
    def count(t, sfx):
        acc = t[[f"{q}{sfx}" for q in ("NBC_m", "NBC_*", "RBC_d", "RBC_u")]].to_numpy(float)
        filled = np.nan_to_num(acc, nan=-1.0)
        d_best = filled[:, 2] >= filled.max(axis=1)
        u_beats = acc[:, 3] >= np.maximum(acc[:, 0], acc[:, 1])
        return [int(d_best.sum()), int(u_beats.sum())]

    pub = t1.drop_duplicates("paper's name")
    ours = t1[t1["NBC_m"].notna()]
    df = pd.DataFrame({"paper": count(pub, " paper"), "paper data sets": len(pub),
                       "ours": count(ours, ""), "our data sets": len(ours)},
                      index=pd.Index(["RBC_d most accurate", "RBC_u >= NBC_m and NBC_*"],
                                     name="claim"))
    return df


def data_table(variants, summary, *, paper_rows=True, unlabelled="drop"):
    """The data sets as run: rows in the file, rows used and scored, paper's size.

    Parameters
    ----------
    variants : list of str
    summary : DataFrame
        :func:`pooled_summary` output (for the number of scored rows).
    paper_rows : bool
        As in :func:`paper_data`.
    unlabelled : {"train", "drop"}
        As in :func:`cv_items` (for the notes).

    Returns
    -------
    DataFrame
        Index ``data set``; ``paper's name``, ``rows in file``, ``rows used``,
        ``without class``, ``rows scored``, ``size (paper)``, ``classes``
        (declared, observed in brackets when fewer), ``numeric``, ``missing cells
        %`` and ``note``.
    """
    from credal import datasets

    scored = summary.groupby("dataset")["n_scored"].first()
    rows = []
    for v in variants:
        name, _ = parse_variant(v)
        label, X, y = paper_data(v, paper_rows=paper_rows)
        pname, pn = _paper_info(name)
        n_file = datasets.load(name).n_rows
        n_cls = len(y.cat.categories)
        n_obs = int(y.dropna().nunique())
        n_miss = int(y.isna().sum())
        notes = [_ROW_NOTES.get(v, "")]
        if n_miss:
            notes.append(f"{n_miss} rows without class: " + (
                "dropped" if unlabelled == "drop" else
                "in every training fold, never scored"))
        rows.append({
            "data set": label, "paper's name": pname, "rows in file": n_file,
            "rows used": len(X), "without class": n_miss,
            "rows scored": scored.get(label, np.nan), "size (paper)": pn,
            "classes": f"{n_cls}" if n_cls == n_obs else f"{n_cls} ({n_obs} seen)",
            "numeric": int(sum(not isinstance(X[c].dtype, pd.CategoricalDtype)
                               for c in X.columns)),
            "features": X.shape[1],
            "missing cells %": round(100 * float(X.isna().to_numpy().mean()), 2),
            "note": "; ".join(n for n in notes if n),
        })
    out = pd.DataFrame(rows).set_index("data set")
    for c in ("rows scored", "size (paper)"):
        out[c] = out[c].astype("Int64")
    return out


def unlabelled_study(variants, **kw):
    """RBC with the class-less rows in training, against dropping them.

    Parameters
    ----------
    variants : list of str
        Data set variants; those whose class is never missing are skipped.
    **kw
        Passed to :func:`run_experiment` (not ``unlabelled``).

    Returns
    -------
    DataFrame
        Index (data set, rows without class: ``"dropped"`` / ``"in training"``);
        columns ``rows without class``, ``rows scored``, ``NBC_m``, ``RBC_d``,
        ``RBC_d coverage``, ``RBC_u`` (percent) and the binomial ``±95%`` of
        the coverage.
    """
    keep = [v for v in variants if paper_data(v, paper_rows=kw.get("paper_rows", True))[2]
            .isna().any()]
    if not keep:
        return pd.DataFrame()
    parts = []
    for mode, label in (("drop", "dropped"), ("train", "in training")):
        s = pooled_summary(run_experiment(keep, unlabelled=mode, **kw))
        e = s.pivot(index="dataset", columns="quantity", values="estimate") * 100
        ci = s.pivot(index="dataset", columns="quantity", values="ci95") * 100
        t = e[["NBC_m", "RBC_d", "RBC_d coverage", "RBC_u"]].copy()
        t["coverage ±95%"] = ci["RBC_d coverage"]
        t.insert(0, "rows scored", s.groupby("dataset")["n_scored"].first())
        t["class-less rows"] = label
        parts.append(t)
    out = pd.concat(parts).reset_index().rename(columns={"dataset": "data set"})
    miss = {variant_label(v): int(paper_data(v)[2].isna().sum()) for v in keep}
    out.insert(1, "rows without class", out["data set"].map(miss))
    return out.set_index(["data set", "class-less rows"]).sort_index()


def unlabelled_numbers(unl):
    """Counts the chapter quotes about :func:`unlabelled_study`.

    Parameters
    ----------
    unl : DataFrame
        :func:`unlabelled_study` output (may be empty).

    Returns
    -------
    dict of str -> str
        ``unl_n`` (data sets), ``unl_cov_falls`` (how many lose coverage when the
        rows join training), ``unl_zero_cov`` (data sets left with no case
        classified, or "none") and ``unl_max_u_gap`` (largest change of RBC_u
        accuracy, points).
    """
    if unl is None or len(unl) == 0:
        return {"unl_n": "0", "unl_cov_falls": "0", "unl_zero_cov": "none",
                "unl_max_u_gap": "n/a"}
    cov = unl["RBC_d coverage"].unstack("class-less rows")
    u = unl["RBC_u"].unstack("class-less rows")
    zero = cov.index[cov["in training"] == 0].tolist()
    return {"unl_n": str(len(cov)),
            "unl_cov_falls": str(int((cov["in training"] < cov["dropped"]).sum())),
            "unl_zero_cov": ", ".join(zero) if zero else "none",
            "unl_max_u_gap": f"{(u['in training'] - u['dropped']).abs().max():.1f}"}


def bins_numbers(bins):
    """Ranges the chapter quotes about :func:`bins_study` (formatted strings).

    Returns
    -------
    dict of str -> str
        ``bins_acc_low``/``bins_acc_high``: smallest and largest mean gap of the
        four accuracy columns over the bin counts; ``bins_cov_low``/``bins_cov_high``
        the same for coverage; ``bins_best``: the bin count with the most cells
        within noise.
    """
    if bins is None or len(bins) == 0:
        return {k: "n/a" for k in ("bins_acc_low", "bins_acc_high", "bins_cov_low",
                                   "bins_cov_high", "bins_best")}
    acc = bins[["NBC_m", "NBC_*", "RBC_d", "RBC_u"]].to_numpy()
    cov = bins["RBC_d coverage"].to_numpy()
    return {"bins_acc_low": f"{np.nanmin(acc):.1f}", "bins_acc_high": f"{np.nanmax(acc):.1f}",
            "bins_cov_low": f"{np.nanmin(cov):.1f}", "bins_cov_high": f"{np.nanmax(cov):.1f}",
            "bins_best": str(int(bins["within noise"].idxmax()))}


def bins_study(variants, bins, *, published=None, exclude=(), **kw):
    """Sensitivity to the number of equal-frequency bins (the paper does not say).

    Parameters
    ----------
    variants : list of str
    bins : list of int
        Numbers of bins to try.
    published : DataFrame, optional
        Published Table 1.
    exclude : iterable of str
        Data set labels left out of the comparison (see :func:`compare_table1`).
    **kw
        Passed to :func:`run_experiment` (not ``n_bins``).

    Returns
    -------
    DataFrame
        Index ``bins``; for each quantity the mean ``|ours - paper|`` (percentage
        points) over the compared data sets, ``within noise`` (total count over
        the five quantities), ``cells compared`` and ``largest coverage gap``.
    """
    rows = []
    for b in bins:
        t1 = table1(pooled_summary(run_experiment(variants, n_bins=int(b), **kw)), published)
        c = compare_table1(t1, exclude=exclude)
        row = {"bins": int(b)}
        row.update(c["mean |difference|"].to_dict())
        row["within noise"] = int(c["within noise"].sum())
        row["cells compared"] = int(c["data sets"].sum())
        row["largest coverage gap"] = c.loc["RBC_d coverage", "largest difference"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("bins")


def display_table1(t1):
    """Readable copy of :func:`table1`: ``value ± half-width`` strings, ours then paper."""
    out = pd.DataFrame(index=t1.index)
    out["paper's name"] = t1["paper's name"]
    for q in QUANTITIES:
        out[f"{q} (ours)"] = [_pm(v, h, 1) for v, h in zip(t1[q], t1[f"{q} ±95%"])]
        out[f"{q} (paper)"] = [_pm(v, h, 2) for v, h in zip(t1[f"{q} paper"],
                                                              t1[f"{q} ± paper"])]
    return out


def _pm(v, h, digits):
    if not np.isfinite(v):
        return "not public" if digits == 1 else ""
    return f"{v:.{digits}f} ± {h:.{digits}f}" if np.isfinite(h) else f"{v:.{digits}f}"


def display_table2(t2):
    """Readable copy of :func:`table2` (rounded; the measured check column dropped)."""
    out = t2.drop(columns=["RBC_u on unclassified"]).copy()
    for c in out.columns:
        if c.endswith("residual") or c.endswith("residual paper") or c.startswith("max Ci"):
            out[c] = out[c].round(4) + 0.0  # + 0.0 turns -0.0 into 0.0
        elif c.startswith("% unclassified"):
            out[c] = out[c].round(2)
    return out


_QKEY = {"NBC_m": "nbcm", "NBC_*": "nbcs", "RBC_d": "rbcd", "RBC_d coverage": "cov",
         "RBC_u": "rbcu"}


def _key(label):
    return "".join(ch if ch.isalnum() else "_" for ch in label.replace(" (class: ", "_")
                   ).strip("_")


def chapter_numbers(t1, t2, *, exclude=(), variants=None):
    """Formatted numbers the chapter's text quotes (for ``myst_nb.glue``).

    Every key exists whatever data sets were run (``"n/a"`` when a value is
    missing), so that the text renders under every parameter profile.

    Parameters
    ----------
    t1, t2 : DataFrame
        :func:`table1` and :func:`table2` output.
    exclude : iterable of str
        Passed to :func:`compare_table1`.
    variants : list of str, optional
        Data set variants that get per-data-set keys; default: the paper's 19
        public data sets and ``"echocardiogram:still_alive"``.

    Returns
    -------
    dict of str -> str
        Per data set ``<key>_<q>``, ``<key>_<q>_paper`` and ``<key>_<q>_diff``
        (``q`` in ``nbcm, nbcs, rbcd, cov, rbcu``; ``key`` the label with
        non-alphanumerics as ``_``, e.g. ``echocardiogram_still_alive``);
        ``cmp_<q>_mean_abs``, ``cmp_<q>_median_abs``, ``cmp_<q>_within``,
        ``cmp_<q>_n`` (comparison without ``exclude``); ``claim_*`` (counts of
        :func:`paper_claims`, ``claim_n_paper``/``claim_n_ours`` data sets);
        ``hw_median_acc``, ``hw_close_acc``, ``hw_cells_acc``, ``hw_median_cov``,
        ``hw_wide_cov`` (:func:`halfwidth_check`);
        ``eq14_max_gap`` (largest difference between RBC_u's Eq. 14 residual and
        its accuracy measured on the unclassified cases); ``cost_*`` (cost-ratio
        comparison), ``gain_u_m_*`` (RBC_u minus NBC_m accuracy:
        mean, count within one point, number of data sets and largest gain, for
        ``ours`` and the ``paper``) and ``n_datasets``.
    """
    from credal import datasets

    def fmt(v, digits=1, sign=False):
        if v is None or not np.isfinite(v):
            return "n/a"
        return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"

    if variants is None:
        variants = datasets.names("ramoni-sebastiani") + ["echocardiogram:still_alive"]
    out = {}
    for v in variants:
        lab = variant_label(v)
        have = lab in t1.index
        for q, k in _QKEY.items():
            ours = float(t1.loc[lab, q]) if have else np.nan
            pub = float(t1.loc[lab, f"{q} paper"]) if have else np.nan
            out[f"{_key(lab)}_{k}"] = fmt(ours)
            out[f"{_key(lab)}_{k}_paper"] = fmt(pub, 2)
            out[f"{_key(lab)}_{k}_diff"] = fmt(ours - pub, 1, sign=True)
    cmp = compare_table1(t1, exclude=exclude)
    for q, k in _QKEY.items():
        out[f"cmp_{k}_mean_abs"] = fmt(cmp.loc[q, "mean |difference|"])
        out[f"cmp_{k}_median_abs"] = fmt(cmp.loc[q, "median |difference|"])
        out[f"cmp_{k}_within"] = str(int(cmp.loc[q, "within noise"]))
        out[f"cmp_{k}_n"] = str(int(cmp.loc[q, "data sets"]))
    claims = paper_claims(t1)
    for claim, k in (("RBC_d most accurate", "d_best"), ("RBC_u >= NBC_m and NBC_*", "u_beats")):
        out[f"claim_{k}_ours"] = str(int(claims.loc[claim, "ours"]))
        out[f"claim_{k}_paper"] = str(int(claims.loc[claim, "paper"]))
    out["claim_n_paper"] = str(int(claims["paper data sets"].iloc[0]))
    out["claim_n_ours"] = str(int(claims["our data sets"].iloc[0]))
    ratios, _ = halfwidth_check()
    acc = ratios[["NBC_m", "NBC_*", "RBC_d", "RBC_u"]].to_numpy().ravel()
    acc = acc[np.isfinite(acc)]
    out["hw_median_acc"] = fmt(np.median(acc), 2)
    out["hw_close_acc"] = str(int(((acc >= 0.8) & (acc <= 1.25)).sum()))
    out["hw_cells_acc"] = str(len(acc))
    cov = ratios["RBC_d coverage"].dropna()
    out["hw_median_cov"] = fmt(cov.median(), 2)
    out["hw_wide_cov"] = str(int((cov > 1.5).sum()))
    gap = (t2["RBC_u residual"] - t2["RBC_u on unclassified"]).abs()
    out["eq14_max_gap"] = f"{gap.max():.1e}" if gap.notna().any() else "n/a"
    t = t2[~t2.index.isin(list(exclude))]
    both = t["max Ci/Cw"].notna() & t["max Ci/Cw paper"].notna()
    d = (t["max Ci/Cw"] - t["max Ci/Cw paper"])[both]
    out["cost_n"] = str(int(both.sum()))
    out["cost_median_abs"] = fmt(d.abs().median(), 3)
    out["cost_within_01"] = str(int((d.abs() <= 0.1).sum()))
    out["n_datasets"] = str(int(t1["NBC_m"].notna().sum()))
    ours = t1[t1["NBC_m"].notna()]
    for who, sfx, t in (("ours", "", ours), ("paper", " paper", t1.drop_duplicates(
            "paper's name"))):
        gain = (t[f"RBC_u{sfx}"] - t[f"NBC_m{sfx}"]).dropna()
        out[f"gain_u_m_mean_{who}"] = fmt(gain.mean(), 2, sign=True)
        out[f"gain_u_m_within1_{who}"] = str(int((gain.abs() < 1).sum()))
        out[f"gain_u_m_n_{who}"] = str(len(gain))
        top = gain.idxmax() if len(gain) else None
        name = t.loc[top, "paper's name"] if top is not None else None
        out[f"gain_u_m_max_{who}"] = (f"{name}, {gain[top]:+.1f}" if top is not None
                                      else "n/a")
    return out


# -- the reproduction report ---------------------------------------------------------
#: Single numbers that Section 5.2 of the paper quotes, as (paper's data set name,
#: what); their published values are read from the published tables.
_TEXT_T1 = (("Horse Colic", "RBC_d gain"), ("Horse Colic", "RBC_d coverage"),
            ("Annealing", "RBC_u gain"))
_TEXT_T2 = (("BCancer", "max Ci/Cw"), ("Credit", "max Ci/Cw"), ("Audiology", "max Ci/Cw"),
            ("LCancer", "max Ci/Cw"), ("Annealing", "max Ci/Cw"),
            ("Annealing", "RBC_u residual"), ("Mushrooms", "RBC_u residual"))
# Table 2 residual columns: ours -> the published table's.
_PUB2_RES = {"NBC_m residual": "NBCm_residual_acc", "NBC_* residual": "NBCstar_residual_acc",
             "RBC_u residual": "RBCu_residual_acc"}


def _residual_se(r, n):
    """Binomial standard error of a residual accuracy ``r`` on ``n`` unclassified cases.

    Laplace-smoothed (``p = (r n + 1) / (n + 2)``, ``n`` at least 1), so that a residual
    resting on a handful of cases, or printed as 0, gets a wide but finite error.
    """
    if not (np.isfinite(r) and np.isfinite(n)):
        return np.nan
    r = min(max(float(r), 0.0), 1.0)
    p = (r * n + 1) / (n + 2)
    return float(np.sqrt(p * (1 - p) / max(n, 1.0)))


def _table2_se(row, paper):
    """(SE of the largest residual, SE of RBC_u's residual, unclassified cases) of a
    Table 2 row: ours (a :func:`table2` row) or the paper's (a published row)."""
    if paper:
        n_u = float(row["size"]) * float(row["pct_unclassified_RBCd"]) / 100
        res = {k: float(row[v]) for k, v in _PUB2_RES.items()}
    else:
        n_u = float(row["size"]) * float(row["% unclassified"]) / 100
        res = {k: float(row[k]) for k in _PUB2_RES}
    top = max(res, key=lambda k: res[k] if np.isfinite(res[k]) else -np.inf)
    return {"max Ci/Cw": _residual_se(res[top], n_u),
            "RBC_u residual": _residual_se(res["RBC_u residual"], n_u), "n_u": n_u}


def headline(t1, t2, summary=None, *, exclude=(), published1=None, published2=None):
    """The paper's headline numbers beside ours, for the reproduction report.

    Rows: the mean of each Table 1 column and of RBC_u's gain over NBC_m over the
    data sets compared (ours, and the paper's rows for the same data sets, as in
    :func:`compare_table1`); how many of them satisfy the two claims of
    :func:`paper_claims`; the single numbers Section 5.2 quotes (RBC_d's largest
    gain, on Horse Colic, and its coverage there; RBC_u's largest gain, on
    Annealing; the cost ratios of BCancer, Credit, Audiology, LCancer and Annealing;
    the RBC_u residuals of Annealing and Mushrooms) and the mean cost ratio of
    Table 2's sixth column.

    Tolerances (each row's note says which one applies):

    * accuracies and coverages, and their means: printed rounding plus 1.96
      combined standard errors, ours binomial and the paper's printed ``±`` taken as
      one SE (:func:`halfwidth_check`): the "within noise" of :func:`compare_table1`;
    * gains of one classifier over another: rounding plus 3 combined Monte-Carlo
      SEs over CV replicates, the paper's taken equal to ours (the data set's own
      sampling error is shared by both classifiers; 3 is about the t quantile for 5
      replicates).  The SE is that of the paired difference over replicates
      (:func:`pooled_summary`), not the two classifiers' SEs combined as if they
      were independent.  With one replicate (or no ``summary``) the binomial SEs are
      used instead, which overstates the tolerance;
    * counts of data sets: how many of ours have a margin within 3 paired
      Monte-Carlo SEs, i.e. could flip with another partition (with one replicate:
      within 1.96 combined binomial SEs);
    * Table 2 values: rounding plus 1.96 combined binomial SEs of the residual
      accuracy on the cases RBC_d leaves unclassified (ours: our size times our
      share unclassified; the paper's: its size times its share), Laplace-smoothed
      because some rest on one or two cases.

    Parameters
    ----------
    t1, t2 : DataFrame
        :func:`table1` and :func:`table2` output (``index_col=0`` when read back
        from ``table1.csv`` and ``table2.csv``).
    summary : DataFrame, optional
        :func:`pooled_summary` output, for the Monte-Carlo standard errors.
    exclude : iterable of str
        Data set labels left out of the comparison (see :func:`compare_table1`).
    published1, published2 : DataFrame, optional
        The published Tables 1 and 2 (loaded when omitted).

    Returns
    -------
    DataFrame
        :func:`credal.report.headline_table` layout, one row per headline number.
    """
    from credal import datasets
    from credal.report import headline_table

    exclude = list(exclude)
    p1 = (datasets.published("ramoni_table1_accuracy_coverage") if published1 is None
          else published1).set_index("dataset")
    p2 = (datasets.published("ramoni_table2_residual") if published2 is None
          else published2).set_index("dataset")
    t = t1[~t1.index.isin(exclude) & t1["NBC_m"].notna()]
    u = t2[t2.index.isin(t.index)]
    n_cmp = len(t)
    where = f"over the {n_cmp} data sets compared, the paper's rows for the same ones" + (
        f" ({', '.join(exclude)} left out)" if exclude else "")
    mc = pd.DataFrame()
    if summary is not None and len(summary):
        mc = summary.pivot(index="dataset", columns="quantity", values="mc_se") * 100
    paired = [f"{a} - {b}" for a, b in _PAIRED]
    mc = mc.reindex(index=t.index, columns=list(QUANTITIES) + paired)
    use_mc = n_cmp > 0 and bool(np.isfinite(mc[["NBC_m", "RBC_u", "RBC_u - NBC_m"]]
                                             .to_numpy(float)).all())
    tol_bin = "tolerance: rounding + 1.96 combined SE (ours binomial, the paper's ± as one SE)"
    tol_mc = ("tolerance: rounding + 3 combined Monte-Carlo SE over CV replicates (the "
              "paper's taken equal to ours)")
    tol_mc_off = tol_bin + " (one CV replicate: no Monte-Carlo SE)"

    def var_bin(frame, q, paper):
        se = frame[f"{q} ± paper"] if paper else frame[f"{q} ±95%"] / _Z95
        return se.astype(float) ** 2

    rows = []

    def add(quantity, published, ours, tolerance, unit, note):
        rows.append({"quantity": quantity, "published": published, "ours": ours,
                     "tolerance": tolerance, "unit": unit, "note": note})

    def differs(published, ours, tolerance):
        return bool(np.isfinite(ours) and np.isfinite(published)
                    and abs(ours - published) > tolerance)

    # -- Table 1: means of the five columns -------------------------------------------
    names = {"NBC_m": "accuracy of NBC_m", "NBC_*": "accuracy of NBC_*",
             "RBC_d": "accuracy of RBC_d (cases it classifies)",
             "RBC_d coverage": "coverage of RBC_d", "RBC_u": "accuracy of RBC_u"}
    for q in QUANTITIES:
        ok = t[q].notna() & t[f"{q} paper"].notna()
        n = int(ok.sum())
        d = (t[q] - t[f"{q} paper"])[ok].astype(float)
        pub = float(t.loc[ok, f"{q} paper"].mean()) if n else np.nan
        ours = float(t.loc[ok, q].mean()) if n else np.nan
        tol = (0.005 + _Z95 * np.sqrt((var_bin(t, q, False) + var_bin(t, q, True))[ok].sum())
               / n) if n else np.nan
        note = f"mean {where}; {tol_bin}"
        if differs(pub, ours, tol) and n > 1:
            worst = d.abs().idxmax()
            note += (f". Largest gap: {worst} {d[worst]:+.1f}; without it the mean gap is "
                     f"{d.drop(index=worst).mean():+.1f}")
        add(f"Table 1: mean {names[q]}", pub, ours, tol, "%", note)

    # -- mean gain of RBC_u over NBC_m ---------------------------------------------------
    gain_o = (t["RBC_u"] - t["NBC_m"]).astype(float)
    gain_p = (t["RBC_u paper"] - t["NBC_m paper"]).astype(float)
    if use_mc:
        var = 2 * mc["RBC_u - NBC_m"] ** 2  # paired: both classifiers see the same folds
        tol = 0.01 + 3 * np.sqrt(var.sum()) / n_cmp
        note = f"mean {where}; {tol_mc}"
    else:
        var = sum(var_bin(t, q, p) for q in ("RBC_u", "NBC_m") for p in (False, True))
        tol = 0.01 + _Z95 * np.sqrt(var.sum()) / n_cmp if n_cmp else np.nan
        note = f"mean {where}; {tol_mc_off}"
    pub = float(gain_p.mean()) if n_cmp else np.nan
    ours = float(gain_o.mean()) if n_cmp else np.nan
    if n_cmp:
        note += (f". RBC_u and NBC_m are within one point of each other on "
                 f"{int((gain_o.abs() < 1).sum())} of our {n_cmp} data sets (paper: "
                 f"{int((gain_p.abs() < 1).sum())})")
    add("Table 1: mean gain of RBC_u over NBC_m", pub, ours, tol, "points", note)

    # -- counts of the paper's two claims -------------------------------------------------
    for label, best, others, what in (
            ("claim: data sets where RBC_d is the most accurate", "RBC_d",
             ["NBC_m", "NBC_*", "RBC_u"], "RBC_d's accuracy the highest of the four, ties count"),
            ("claim: data sets where RBC_u >= NBC_m and NBC_*", "RBC_u", ["NBC_m", "NBC_*"],
             "RBC_u at least as accurate as both naive Bayes")):
        o = t[others].astype(float)
        m_o = t[best].astype(float) - o.max(axis=1)
        m_p = t[f"{best} paper"].astype(float) - t[[f"{c} paper" for c in others]].astype(
            float).max(axis=1)
        flip = 0
        for d in t.index:
            if np.isfinite(m_o[d]):
                c = o.loc[d].idxmax()
                if use_mc:  # the SE of the paired margin over replicates
                    s = 3 * float(mc.loc[d, f"{best} - {c}"])
                else:
                    s = float(np.hypot(t.loc[d, f"{best} ±95%"], t.loc[d, f"{c} ±95%"]))
                flip += int(np.isfinite(s) and abs(m_o[d]) <= s)
        note = f"{what}; {where}; tolerance: our data sets whose margin is within " + (
            "3 Monte-Carlo SE (could flip with another CV partition)" if use_mc else
            "1.96 binomial SE (one CV replicate: no Monte-Carlo SE)")
        add(label, float((m_p >= 0).sum()) if n_cmp else np.nan,
            float((m_o >= 0).sum()) if n_cmp else np.nan, float(flip), "data sets", note)

    # -- single Table 1 numbers quoted in the text ------------------------------------
    def first_row(frame, paper_name):
        r = frame[frame["paper's name"] == paper_name]
        return (r.index[0], r.iloc[0]) if len(r) else (None, None)

    def pub1(pn, q):
        val, hw = _PUB1[q]
        return float(p1.loc[pn, val]), float(p1.loc[pn, hw])

    for pn, what in _TEXT_T1:
        lab, r = first_row(t, pn)
        a, b = {"RBC_d gain": ("RBC_d", ["NBC_m", "NBC_*"]), "RBC_u gain": ("RBC_u", ["NBC_m"]),
                "RBC_d coverage": ("RBC_d coverage", [])}[what]
        pa, sa = pub1(pn, a)
        pb = max((pub1(pn, c) for c in b), default=(0.0, 0.0))  # the better baseline
        published, var_p = pa - pb[0], sa ** 2 + pb[1] ** 2
        ours, var_o, note = np.nan, np.nan, "data set not in this run"
        if r is not None:
            cb = max(b, key=lambda c: float(r[c])) if b else None
            ours = float(r[a]) - (float(r[cb]) if cb else 0.0)
            mc_o = float(mc.loc[lab, f"{a} - {cb}"]) if cb else np.nan  # paired
            if b and np.isfinite(mc_o):
                tol, tol_note = 0.01 + 3 * np.sqrt(2) * mc_o, tol_mc
            else:
                var_o = (float(r[f"{a} ±95%"]) / _Z95) ** 2 + (
                    (float(r[f"{cb} ±95%"]) / _Z95) ** 2 if cb else 0.0)
                tol = 0.01 * bool(b) + 0.005 + _Z95 * np.sqrt(var_o + var_p)
                tol_note = tol_mc_off if b else tol_bin
            note = f"ours: {lab}; {tol_note}"
        else:
            tol = 0.005 + _Z95 * np.sqrt(2 * var_p)  # ours taken as noisy as the paper's
        if differs(published, ours, tol):
            if what == "RBC_u gain":
                note += (f". Our NBC_m is already {float(r['NBC_m']):.1f}% (paper "
                         f"{pub1(pn, 'NBC_m')[0]:.2f}%): no MAR gap for RBC_u to close")
            elif what == "RBC_d gain":
                n_cl = (float(r["RBC_d coverage"]) / 100 * float(u.loc[lab, "size"])
                        if lab in u.index else np.nan)
                note += (f". Our RBC_d is {float(r['RBC_d']):.1f}% accurate (paper "
                         f"{pa:.2f}%) on about {n_cl:.0f} cases classified per replicate")
            else:
                note += ". Coverage depends on the bin count, which the paper does not give"
        labels = {"RBC_d gain": "RBC_d's gain over the better naive Bayes (largest in the paper)",
                  "RBC_u gain": "RBC_u's gain over NBC_m (largest in the paper)",
                  "RBC_d coverage": "coverage of RBC_d (lowest in the paper)"}
        add(f"{pn}: {labels[what]}", published, ours, tol,
            "%" if what == "RBC_d coverage" else "points", note)

    # -- single Table 2 numbers quoted in the text ------------------------------------
    for pn, what in _TEXT_T2:
        pr = p2.loc[pn]
        published = float(pr["max_cost_ratio_Ci_over_Cw"] if what == "max Ci/Cw"
                           else pr["RBCu_residual_acc"])
        sp = _table2_se(pr, paper=True)
        lab, r = first_row(u, pn)
        if r is not None and np.isfinite(float(r[what])):
            ours, so = float(r[what]), _table2_se(r, paper=False)
            note = (f"ours: {lab}, {so['n_u']:.3g} cases unclassified per replicate "
                    f"(paper: {sp['n_u']:.3g})")
        else:
            ours, so = np.nan, sp
            note = ("data set not in this run" if r is None
                    else "RBC_d classifies every case: no residual")
        tol = 0.00005 + _Z95 * np.hypot(so[what], sp[what])
        note += ("; tolerance: rounding + 1.96 combined binomial SE of the residual "
                 "accuracy on the unclassified cases")
        if differs(published, ours, tol):
            note += ". Follows from Table 1, where ours differ"
        add(f"{pn}: largest C_i/C_w at which RBC_d costs least" if what == "max Ci/Cw"
            else f"{pn}: residual accuracy of RBC_u (where RBC_d abstains)",
            published, ours, tol, "ratio" if what == "max Ci/Cw" else "fraction", note)

    # -- Table 2: mean of the sixth column ------------------------------------------------
    ok = u["max Ci/Cw"].notna() & u["max Ci/Cw paper"].notna()
    var = [_table2_se(u.loc[lab], paper=False)["max Ci/Cw"] ** 2
           + _table2_se(p2.loc[u.loc[lab, "paper's name"]], paper=True)["max Ci/Cw"] ** 2
           for lab in u.index[ok]]
    n = len(var)
    pub = float(u.loc[ok, "max Ci/Cw paper"].mean()) if n else np.nan
    ours = float(u.loc[ok, "max Ci/Cw"].mean()) if n else np.nan
    tol = 0.00005 + _Z95 * np.sqrt(np.sum(var)) / n if n else np.nan
    note = (f"mean over the {n} data sets compared that leave cases unclassified, the "
            "paper's rows for the same ones; tolerance: rounding + 1.96 combined SE of the "
            "mean (binomial SE of each residual on the unclassified cases)")
    if differs(pub, ours, tol):
        note += ". Follows from Table 1, where ours differ"
    add("Table 2: mean largest C_i/C_w at which RBC_d costs least", pub, ours, tol, "ratio",
        note)
    return headline_table(rows, paper="Ramoni & Sebastiani (2001)", chapter="robust-bayes")
