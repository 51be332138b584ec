"""Robust Bayes classifier (Ramoni & Sebastiani, 2001) and its naive Bayes baselines.

``RobustBayes`` learns a naive Bayes model from incomplete training data without any assumption
about why entries are missing: each parameter becomes the interval of the estimates over all
completions of the data, and each class of a new case gets an interval containing every
completion's posterior (``predict_interval``). ``predict_set`` keeps the classes whose interval no
other strictly dominates (RBC with the strong-dominance score); ``predict`` uses the
complete-admissible score. ``NaiveBayesMissing`` is the naive Bayes baseline that ignores missing
entries or treats them as a category; ``residual_accuracy``, ``max_cost_ratio`` and
``expected_cost`` are the paper's decision measures. Derivations: the book's Algorithms appendix.
"""

from __future__ import annotations

import numpy as np

from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._validation import check_choice, check_fit_input, check_positive

__all__ = ["RobustBayes", "NaiveBayesMissing"]

# Dominance is declared only when the log lower bound beats the log upper bound
# by more than this: ties that rounding could turn either way (e.g. two classes
# with identical counts) then stay undecided rather than flip at random.
_LOG_TIE = 1e-12


# --------------------------------------------------- small vectorised helpers
def _contingencies(codes, y, n_values, q):
    """Counts of every feature side by side, (q + 1, sum(r_i + 1)), and the column offsets
    ``off`` (n_features + 1,): feature ``i``'s columns ``off[i]:off[i + 1]`` hold ``T[j, k] =
    n(a_k, c_j)``, its last column ``n(?, c_j)``, its last row ``n(a_k, ?)`` and ``n(?, ?)``
    (``codes`` (n, m) and class indices ``y`` (n,), ``-1`` = missing). One ``bincount``."""
    off = np.concatenate([[0], np.cumsum(np.asarray(n_values, dtype=np.int64) + 1)])
    col = np.where(codes < 0, off[1:] - 1, codes + off[:-1])
    flat = np.bincount((np.where(y < 0, q, y)[:, None] * off[-1] + col).ravel(),
                       minlength=(q + 1) * off[-1])
    return flat.reshape(q + 1, off[-1]).astype(np.float64), off


def _logsumexp_others(L):
    """``out[:, j] = log sum_{h != j} exp(L[:, h])`` without cancellation. ``L`` and the result
    have shape (n, q) (``-inf`` everywhere when ``q == 1``). Prefix and suffix log-sum-exps avoid
    subtracting the excluded term, which would lose all precision when that term dominates."""
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
    """Sum over features of ``tables[i][codes[:, i]]``, shape (n_samples, q), feature after
    feature. Each table has shape (r_i + 1, q) (rows gathered: contiguous); its last row is used
    for a missing code (``-1`` indexes the last row)."""
    out = np.zeros((codes.shape[0], q))
    for i, t in enumerate(tables):
        out += t[codes[:, i]]  # code -1 -> last row, by construction
    return out


# ---------------------------------------------------- Robust Bayes classifier
class RobustBayes(CredalMixin, BaseClassifier):
    """Robust Bayes classifier of Ramoni & Sebastiani (2001).

    Naive Bayes with interval-valued parameters learned from an incomplete training set (missing
    attribute values and missing classes), with no assumption on the missing-data mechanism. The
    formulas are in the module docstring.

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
    ``predict_set`` and the strong-dominance score treat two bounds within a relative ``1e-12`` of
    each other as tied (no dominance), so the answer does not depend on rounding.

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
        # every feature at once, column by column the arithmetic of one feature's table
        T, off = _contingencies(codes, y_idx, self.n_values_, q)
        feat, last = np.repeat(np.arange(len(off) - 1), np.diff(off)), off[1:] - 1
        n_ac, n_a_miss = T[:q].copy(), T[q].copy()  # n(a_ik, c_j), n(a_ik, ?)
        n_ac[:, last], n_a_miss[last] = 0.0, 0.0
        n_miss_a, n_mm = T[:q, last][:, feat], T[q, last][feat]  # n(?, c_j), n(?, ?)
        a_cell = alpha / (q * self.n_values_[feat])
        D = (alpha / q + np.add.reduceat(n_ac, off[:-1], axis=1))[:, feat]
        nbar = n_miss_a + n_a_miss + n_mm
        nlow = n_miss_a + (np.add.reduceat(n_a_miss, off[:-1])[feat] - n_a_miss) + n_mm
        lo = (a_cell + n_ac) / (D + nlow)
        up = (a_cell + n_ac + nbar) / (D + nbar)
        # one category: every completion has p(a|c) = 1; a missing value in the case: log 1
        ones = np.concatenate([off[:-1][self.n_values_ == 1], last])
        lo[:, ones], up[:, ones] = 1.0, 1.0
        cols = [slice(i, j) for i, j in zip(off[:-1], off[1:])]
        self.feature_prob_lower_ = [lo[:, c.start:c.stop - 1] for c in cols]
        self.feature_prob_upper_ = [up[:, c.start:c.stop - 1] for c in cols]
        log_lo, log_up = np.log(lo), np.log(up)
        self._log_lower_, self._log_upper_ = ([t[c] for c in cols] for t in (
            np.ascontiguousarray(log_lo.T), np.ascontiguousarray(log_up.T)))  # (r_i + 1, q)
        return self

    # -- intervals -------------------------------------------------------------
    def _log_intervals(self, codes):
        q = len(self.classes_)
        Lxl = _gather_sum(self._log_lower_, codes, q)  # log xlow, (n, q)
        Lxu = _gather_sum(self._log_upper_, codes, q)  # log xup
        lpl, lpu = np.log(self.class_prob_lower_), np.log(self.class_prob_upper_)
        log_d = np.log(self._class_width_) if self._class_width_ > 0 else -np.inf
        A = lpu + Lxu  # upper class prob x upper likelihood
        B = lpl + Lxl  # lower x lower
        C = lpl + Lxu  # lower x upper
        log_sup = A - np.logaddexp(A, _logsumexp_others(B))
        den_inf = np.logaddexp(B, _logsumexp_others(C))
        den_inf = np.logaddexp(den_inf, log_d + _max_others(Lxu))
        # the bounds are ordered mathematically; clip rounding-level crossings
        return np.minimum(B - den_inf, log_sup), log_sup

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
        return self._intervals(self._predict_input(X))

    def _intervals(self, codes):
        log_inf, log_sup = self._log_intervals(codes)
        return np.exp(log_inf), np.exp(log_sup)

    def _dominated(self, log_inf, log_sup):
        # class h is dominated iff some other class's lower bound beats its upper bound
        return _max_others(log_inf) > log_sup + _LOG_TIE

    def _sets(self, codes):
        # the classes whose interval no other class's interval strictly dominates: a
        # singleton exactly when the strong-dominance score classifies the case
        return ~self._dominated(*self._log_intervals(codes))

    def strong_dominance_score(self, X):
        """Strong-dominance score ``s_d`` (Definition 3).

        Returns
        -------
        ndarray of float, shape (n_samples, n_classes)
            1 for the class whose lower posterior exceeds the upper posterior of
            every other class, 0 elsewhere (all zeros when no class dominates).
        """
        log_inf, log_sup = self._log_intervals(self._predict_input(X))
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
        return self._scores(self._predict_input(X))

    def _scores(self, codes):
        # RBC_u, the complete-admissible score: its class is always in the set
        return self._admissible(*self._intervals(codes))


# ---------------------------------- Naive Bayes baselines for incomplete data
class NaiveBayesMissing(PreciseMixin, BaseClassifier):
    """Naive Bayes for incomplete data: NBC_m (ignore) or NBC_* (missing category).

    Parameters
    ----------
    strategy : {"ignore", "category"}, default="ignore"
        ``"ignore"`` (NBC_m): each conditional table is estimated from the rows where the feature
        is observed, and a missing attribute of a case to classify is left out of the product
        (MAR). ``"category"`` (NBC_*): in each feature with a missing training value, "missing"
        becomes one more category (with its own prior cell) that cases to classify may take; a
        feature without missing training values is treated as in ``"ignore"``, so both strategies
        agree on complete training data.
    alpha : float, default=1.0
        Prior strength (> 0).
    prior : {"perks", "laplace"}, default="perks"
        ``"perks"``: ``alpha/q`` per class and ``alpha/(q r_i)`` per cell (the paper's prior,
        ``r_i`` counting the missing category under NBC_*); ``"laplace"``: ``alpha`` per class and
        per cell (with ``alpha = 1`` this is Weka's / JNCC2's naive Bayes).

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
        self.strategy, self.alpha, self.prior = strategy, alpha, prior

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
        strategy = check_choice("strategy", self.strategy, ("ignore", "category"))
        prior = check_choice("prior", self.prior, ("perks", "laplace"))
        alpha = check_positive("alpha", self.alpha)
        codes, y_idx = check_fit_input(self, X, y, allow_missing_y=True)
        keep = y_idx >= 0
        codes, y_idx = codes[keep], y_idx[keep]
        q = len(self.classes_)
        counts = np.bincount(y_idx, minlength=q).astype(np.float64)
        a_class = alpha / q if prior == "perks" else alpha
        self.class_count_ = counts
        self.class_log_prior_ = np.log(a_class + counts) - np.log(q * a_class + counts.sum())
        # every feature at once, column by column the arithmetic of one feature's table
        T, off = _contingencies(codes, y_idx, self.n_values_, q)
        cnt, last = T[:q], off[1:] - 1  # (q, sum(r_i + 1)): n(a_ik, c_j), then n(?, c_j)
        use_cat = (strategy == "category") & (cnt[:, last].sum(axis=0) > 0)
        cnt[:, last[~use_cat]] = 0.0  # no missing category: its column counts nothing
        n_cells = self.n_values_ + use_cat
        a_cell = alpha / (q * n_cells) if prior == "perks" else np.full(len(n_cells), alpha)
        den = n_cells * a_cell + np.add.reduceat(cnt, off[:-1], axis=1)  # (q, n_features)
        feat = np.repeat(np.arange(len(n_cells)), np.diff(off))
        logp = np.log(a_cell[feat] + cnt) - np.log(den)[:, feat]
        logp[:, last[~use_cat]] = 0.0  # the missing code indexes the last column: log 1 (skip)
        self.feature_log_prob_ = [logp[:, i:j - (not c)] for i, j, c in zip(off, off[1:], use_cat)]
        self.missing_category_ = use_cat
        logp_t = np.ascontiguousarray(logp.T)  # (r_i + 1, q) blocks: rows gathered at prediction
        self._log_tables_ = [logp_t[i:j] for i, j in zip(off[:-1], off[1:])]
        return self

    def _log_proba(self, codes):
        q = len(self.classes_)
        joint = self.class_log_prior_ + _gather_sum(self._log_tables_, codes, q)
        m = joint.max(axis=1, keepdims=True)
        return joint - (m + np.log(np.exp(joint - m).sum(axis=1, keepdims=True)))
