"""Model averaging over naive Bayes feature subsets: MANB (Dash & Cooper) and CMA.

With Dirichlet parameter priors and a structure prior that includes each arc from the class
independently, the average over all ``2**N`` naive structures is one naive network with averaged
tables, computed in closed form (``ModelAveragedNaiveBayes``). ``CMA`` (credal model averaging,
Corani & Zaffalon) lets the inclusion probabilities range over an interval and returns the classes
no other class dominates for every prior in that set, with the exact minimum of each pairwise
posterior ratio. The formulas are in the book's Algorithms appendix.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp

from ._tables import DerivedTables, joint_sum, joint_tables
from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._validation import check_choice, check_fit_input, check_in_range, check_positive
from .dominance import LOG_TIE

__all__ = ["ModelAveragedNaiveBayes", "CMA", "naive_family_statistics"]

_PRIORS = ("k2", "bdeu")
_STRUCTURES = ("average", "map", "full")
# rows per chunk when an (n_rows, n_features, n_classes[, n_classes]) array is formed
_CHUNK_CELLS = 1 << 22


def naive_family_statistics(codes, y_idx, n_values, n_classes, *, alpha=1.0, prior="k2"):
    """Log marginal likelihoods and posterior-mean CPTs of both naive families.

    For every feature ``i``: the family with the arc ``C -> F_i`` and the family
    without it, scored on the rows where ``F_i`` is observed.

    Parameters
    ----------
    codes : ndarray of int, shape (n_samples, n_features)
        Category codes, ``-1`` = missing.
    y_idx : ndarray of int, shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_values : ndarray of int, shape (n_features,)
        Number of categories ``r_i`` of each feature.
    n_classes : int
    alpha : float > 0
        Dirichlet cell count (``"k2"``) or equivalent sample size (``"bdeu"``).
    prior : {"k2", "bdeu"}

    Returns
    -------
    dict with
        ``log_ml_arc``, ``log_ml_no_arc`` : ndarray, shape (n_features,)
            Log marginal likelihoods of the feature's family with and without the arc.
        ``log_theta_arc`` : ndarray, shape (n_features, n_classes, max_r)
            ``log thetahat^C_i(k | c)``; cells ``k >= r_i`` hold ``-inf``.
        ``log_theta_no_arc`` : ndarray, shape (n_features, max_r)
            ``log thetahat^0_i(k)``; cells ``k >= r_i`` hold ``-inf``.
        ``class_log_prior`` : ndarray, shape (n_classes,)
            ``log (alpha_c + n_c) / (alpha_0 + n)``.
        ``counts`` : ndarray, shape (n_features, n_classes, max_r)
            Available-case counts ``N_ick``.
    """
    # narrow codes stay narrow (one compiled signature per integer type; no int64 copy)
    codes = np.asarray(codes)
    codes = codes if codes.dtype.kind in "iu" else codes.astype(np.int64)
    y_idx = np.asarray(y_idx, dtype=np.int64)
    nv = np.asarray(n_values, dtype=np.int64)
    n, m = codes.shape
    K = int(n_classes)
    R = int(nv.max()) if m else 1
    N = _family_counts(codes, y_idx, K, R)
    valid = np.arange(R)[None, :] < nv[:, None]  # (m, R)
    nvf = nv.astype(np.float64)
    if prior == "k2":
        a_cond = np.full(m, float(alpha))
        a_marg = np.full(m, float(alpha))
        a_class = float(alpha)
    else:
        a_cond = alpha / (K * nvf)
        a_marg = alpha / nvf
        a_class = alpha / K
    A_col = a_cond * nvf  # alpha_ij, the same for every class j
    A_marg = a_marg * nvf  # alpha_i
    N_ij = N.sum(axis=2)  # (m, K)
    N_ik = N.sum(axis=1)  # (m, R)
    N_i = N_ij.sum(axis=1)  # (m,)
    cell_c = np.where(valid[:, None, :], gammaln(a_cond[:, None, None] + N)
                      - gammaln(a_cond)[:, None, None], 0.0)
    log_ml_arc = (K * gammaln(A_col) - gammaln(A_col[:, None] + N_ij).sum(axis=1)
                  + cell_c.sum(axis=(1, 2)))
    cell_0 = np.where(valid, gammaln(a_marg[:, None] + N_ik) - gammaln(a_marg)[:, None], 0.0)
    log_ml_no_arc = gammaln(A_marg) - gammaln(A_marg + N_i) + cell_0.sum(axis=1)
    with np.errstate(divide="ignore"):
        log_theta_arc = np.where(
            valid[:, None, :],
            np.log(a_cond[:, None, None] + N) - np.log(A_col[:, None] + N_ij)[:, :, None], -np.inf)
        log_theta_no_arc = np.where(
            valid, np.log(a_marg[:, None] + N_ik) - np.log(A_marg + N_i)[:, None], -np.inf)
    n_c = np.bincount(y_idx, minlength=K).astype(np.float64)
    class_log_prior = np.log(a_class + n_c) - np.log(K * a_class + n)
    return {"log_ml_arc": log_ml_arc, "log_ml_no_arc": log_ml_no_arc,
            "log_theta_arc": log_theta_arc, "log_theta_no_arc": log_theta_no_arc,
            "class_log_prior": class_log_prior, "counts": N}


def _family_counts(codes, y_idx, K, R):
    """``N[i, c, k]``: rows with class ``c`` and code ``k`` in feature ``i`` (missing skipped),
    counted by one compiled pass over the rows (:func:`credal._compiled_naive.family_counts`)."""
    from ._compiled_naive import family_counts  # numba compiles (or loads) it on first use

    N = family_counts(np.ascontiguousarray(codes), y_idx, K, R)
    return np.ascontiguousarray(N[:, :R].transpose(2, 0, 1))


def _log_inclusion(p):
    """``(log p, log(1 - p))`` with exact zeros at the ends."""
    with np.errstate(divide="ignore"):
        return np.log(p), np.log1p(-p)


def _row_chunks(n, per_row):
    step = max(1, _CHUNK_CELLS // max(1, per_row))
    for start in range(0, n, step):
        yield slice(start, min(n, start + step))


class _NaiveAveragingBase(BaseClassifier):
    """Shared fitting: checks, counts, family statistics."""

    def _check_common(self):
        check_positive("alpha", self.alpha)
        check_choice("prior", self.prior, _PRIORS)

    def _fit_statistics(self, X, y):
        codes, y_idx = check_fit_input(self, X, y)
        if self.min_categories is not None:
            mc = np.asarray(self.min_categories)
            if (mc.dtype.kind not in "iu" or mc.ndim > 1 or np.any(mc < 1)
                    or (mc.ndim == 1 and mc.shape != self.n_values_.shape)):
                raise ValueError("min_categories must be an integer >= 1 or one per feature "
                                 f"({self.n_features_in_}); got {self.min_categories!r}")
            self.n_values_ = np.maximum(self.n_values_, mc).astype(np.int64)
        K = len(self.classes_)
        st = naive_family_statistics(codes, y_idx, self.n_values_, K, alpha=self.alpha,
                                     prior=self.prior)
        self.class_log_prior_ = st["class_log_prior"]
        self.log_marginal_likelihood_arc_ = st["log_ml_arc"]
        self.log_marginal_likelihood_no_arc_ = st["log_ml_no_arc"]
        self.feature_count_ = [st["counts"][i, :, : r] for i, r in enumerate(self.n_values_)]
        return st

    def _arc_log_odds(self, p):
        """Posterior log-odds of each arc under inclusion probability ``p``."""
        lp, lq = _log_inclusion(p)
        with np.errstate(invalid="ignore"):
            return (lp - lq + self.log_marginal_likelihood_arc_
                    - self.log_marginal_likelihood_no_arc_)


class ModelAveragedNaiveBayes(PreciseMixin, _NaiveAveragingBase):
    """Naive Bayes averaged over all ``2**N`` feature subsets (Dash & Cooper).

    One naive network whose CPTs ``theta* = w thetahat^C + (1 - w) thetahat^0``
    (``w`` = posterior probability of the arc from the class) predicts exactly what
    Bayesian model averaging over every naive structure predicts.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Dirichlet cell count (``prior="k2"``; K2 when 1) or equivalent sample size
        (``prior="bdeu"``).
    arc_prior : float in [0, 1], default 0.5
        Prior probability of each arc ``C -> F_i``, independently (0.5 = uniform
        prior over the ``2**N`` structures).
    prior : {"k2", "bdeu"}, default "k2"
        Parameter prior; see the module documentation.
    structure : {"average", "map", "full"}, default "average"
        ``"average"``: the model-averaged network (MANB). ``"full"``: the naive network with every
        arc and posterior-mean parameters ``thetahat^C`` — the MAP naive classifier Dash & Cooper
        compare with. ``"map"``: the single most probable structure (arc kept iff ``w > 1/2``) with
        its posterior-mean parameters.
    min_categories : int or array-like of int, shape (n_features,), optional
        Lower bound on each feature's number of categories, as in scikit-learn's
        ``CategoricalNB``: with integer codes, categories that happen not to occur
        in the training rows still count (and may appear at prediction time).
        Declared categories of categorical columns always count.

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
    n_values_ : ndarray of int, shape (n_features,)
    arc_posterior_ : ndarray, shape (n_features,)
        Posterior probability ``w_i`` of the arc ``C -> F_i``.
    log_marginal_likelihood_arc_, log_marginal_likelihood_no_arc_ : ndarray, shape (n_features,)
    class_log_prior_ : ndarray, shape (n_classes,)
    feature_log_prob_ : list of ndarray, shape (n_classes, r_i) each
        Log CPT of each feature in the network used for prediction.
    feature_count_ : list of ndarray, shape (n_classes, r_i) each
        Available-case counts.
    """

    def __init__(self, alpha=1.0, arc_prior=0.5, prior="k2", structure="average",
                 min_categories=None):
        self.alpha, self.arc_prior, self.prior, self.structure = alpha, arc_prior, prior, structure
        self.min_categories = min_categories

    def fit(self, X, y):
        """Fit on category codes (or categoricals) ``X`` and labels ``y``; returns self."""
        self._check_common()
        p = check_in_range("arc_prior", self.arc_prior, 0.0, 1.0)
        check_choice("structure", self.structure, _STRUCTURES)
        st = self._fit_statistics(X, y)
        z = self._arc_log_odds(p)
        # log w and log(1 - w) without forming w (z may be +-inf at arc_prior 0 or 1)
        log_w = -np.logaddexp(0.0, -z)
        log_1mw = -np.logaddexp(0.0, z)
        self.arc_posterior_ = np.exp(log_w)
        lt_c, lt_0 = st["log_theta_arc"], st["log_theta_no_arc"][:, None, :]
        if self.structure == "average":
            lt = np.logaddexp(log_w[:, None, None] + lt_c, log_1mw[:, None, None] + lt_0)
        elif self.structure == "full":
            lt = lt_c
        else:
            keep = z > 0
            lt = np.where(keep[:, None, None], lt_c, np.broadcast_to(lt_0, lt_c.shape))
        # an extra zero column so that code -1 (missing) contributes nothing
        m, K, R = lt.shape
        self._log_theta = np.concatenate([lt, np.zeros((m, K, 1))], axis=2).transpose(0, 2, 1)
        # one contiguous row per class for prediction: entry i * (R + 1) + k
        self._log_theta_by_class = np.ascontiguousarray(
            self._log_theta.transpose(2, 0, 1).reshape(K, m * (R + 1)))
        self.feature_log_prob_ = [lt[i, :, :r] for i, r in enumerate(self.n_values_)]
        return self

    def _scores(self, codes):
        """Joint log-likelihoods, shape (n, K): one compiled pass over the rows."""
        from ._compiled_naive import gather_scores  # numba compiles (or loads) it on first use

        R1 = self._log_theta.shape[1]  # categories + the zero column of code -1
        return gather_scores(np.ascontiguousarray(codes), self._log_theta_by_class,
                             R1) + self.class_log_prior_

    def _log_proba(self, codes):
        jll = self._scores(codes)
        return jll - logsumexp(jll, axis=1, keepdims=True)


class CMA(CredalMixin, DerivedTables, _NaiveAveragingBase):
    """Credal model averaging over naive feature subsets (Corani & Zaffalon 2008).

    The prior includes each feature independently with a probability known only to lie in
    ``[inclusion_lower, inclusion_upper]``. Class ``c'`` dominates ``c''`` when
    ``P(c' | f, D) > P(c'' | f, D)`` under every such prior; the exact test is closed-form (see the
    module documentation): per feature, the minimising inclusion probability is the lower bound if
    ``thetahat^C(f_i | c') > thetahat^C(f_i | c'')`` and the upper bound otherwise.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Equivalent sample size (``prior="bdeu"``) or cell count (``"k2"``).
    inclusion_lower, inclusion_upper : float, default 0.1 and 0.9
        Bounds on each feature's prior inclusion probability, ``0 <= lower <= upper <= 1``.
    arc_prior : float, default 0.5
        Inclusion probability of the precise counterpart (Bayesian model averaging,
        :class:`ModelAveragedNaiveBayes`) whose choice ``predict`` returns; must lie
        in the interval, so that this choice is always in the set.
    prior : {"bdeu", "k2"}, default "bdeu"
    min_categories : int or array-like of int, optional
        As in :class:`ModelAveragedNaiveBayes`.

    Attributes
    ----------
    classes_, n_values_, class_log_prior_, log_marginal_likelihood_arc_,
    log_marginal_likelihood_no_arc_, feature_count_
        As in :class:`ModelAveragedNaiveBayes`.
    """

    def __init__(self, alpha=1.0, inclusion_lower=0.1, inclusion_upper=0.9, arc_prior=0.5,
                 prior="bdeu", min_categories=None):
        self.alpha, self.inclusion_lower = alpha, inclusion_lower
        self.inclusion_upper, self.arc_prior, self.prior = inclusion_upper, arc_prior, prior
        self.min_categories = min_categories

    def fit(self, X, y):
        """Fit on category codes (or categoricals) ``X`` and labels ``y``; returns self."""
        self._check_common()
        lo = check_in_range("inclusion_lower", self.inclusion_lower, 0.0, 1.0)
        hi = check_in_range("inclusion_upper", self.inclusion_upper, 0.0, 1.0)
        if lo > hi:
            raise ValueError(f"inclusion_lower ({lo!r}) must not exceed inclusion_upper ({hi!r})")
        p = check_in_range("arc_prior", self.arc_prior, lo, hi)
        st = self._fit_statistics(X, y)
        # a_i(c, k) = log[rho^C_i(c, k) / rho^0_i(k)]: the class-free rho^0 factor cancels
        # from every ratio, so only this small-magnitude difference is kept; a zero
        # column at index -1 serves missing codes (masked out in _log_factors)
        delta = self.log_marginal_likelihood_arc_ - self.log_marginal_likelihood_no_arc_
        with np.errstate(invalid="ignore"):
            a = st["log_theta_arc"] - st["log_theta_no_arc"][:, None, :] + delta[:, None, None]
        m, K, R = a.shape
        self._log_rel_arc = np.concatenate([a, np.zeros((m, K, 1))], 2).transpose(0, 2, 1)
        self._bounds = (lo, hi, p)
        self._reset_derived()
        return self

    def _ratio_tables(self):
        """Per-cell terms of the minimum log posterior ratio of every class pair.
        Feature ``i`` with code ``k`` adds ``min(d_lo, d_hi)`` to the ratio of ``(a, b)``,
        ``d_p = g_p(a) - g_p(b)`` with ``g_p`` the log factors at inclusion probability ``p``;
        these ``K * K`` terms per (feature, category) cell are gathered per feature group
        (:func:`credal._tables.joint_sum`). Returns ``(init, tables)``: the class prior part
        ``log P(a) - log P(b)``, shape (K * K,), and the :func:`credal._tables.joint_tables` of the
        cell terms."""
        lo, hi, _ = self._bounds
        _, R, K = self._log_rel_arc.shape  # R - 1 categories at most, then missing
        # the declared categories of each feature, in feature order
        cells = np.arange(R)[None, :] < np.asarray(self.n_values_)[:, None]
        rel = self._log_rel_arc[cells]  # (S, K)
        d = []
        for p in (lo, hi):
            lp, lq = _log_inclusion(p)
            g = np.logaddexp(lp + rel, lq)
            d.append(g[:, :, None] - g[:, None, :])
        tab = np.minimum(d[0], d[1]).reshape(-1, K * K)
        cp = self.class_log_prior_
        return (cp[:, None] - cp[None, :]).ravel(), joint_tables(tab, self.n_values_)

    def _log_factors(self, codes, p):
        """``log[p rho^C_i(c, f_i) + (1 - p) rho^0_i(f_i)] - log rho^0_i(f_i)``, (n, m, K).
        Zero for missing codes (their averaged factor is the same for every class)."""
        lp, lq = _log_inclusion(p)
        feat = np.arange(codes.shape[1])[None, :]
        g = np.logaddexp(lp + self._log_rel_arc[feat, codes], lq)
        return np.where((codes < 0)[:, :, None], 0.0, g)

    def _posterior_log(self, codes):
        _, _, p = self._bounds
        n, m = codes.shape
        K = len(self.classes_)
        out = np.empty((n, K))
        for sl in _row_chunks(n, m * K):
            out[sl] = self.class_log_prior_ + self._log_factors(codes[sl], p).sum(axis=1)
        return out - logsumexp(out, axis=1, keepdims=True)

    def min_log_ratio(self, X):
        """Exact ``min log[P(c' | f, D) / P(c'' | f, D)]`` over the credal set.

        Returns
        -------
        ndarray, shape (n_samples, n_classes, n_classes)
            Entry ``[r, a, b]`` is the minimum over inclusion priors of the log
            posterior ratio of classes ``a`` and ``b`` on row ``r``; ``a`` dominates
            ``b`` iff it is > 0 (``predict_set`` asks for more than ``1e-11``, so
            that an exact tie off by rounding is no dominance). The diagonal is 0.
        """
        return self._min_log_ratio(self._predict_input(X))

    def _min_log_ratio(self, codes):
        init, tables = self._derived_tables("ratio", self._ratio_tables)
        n = codes.shape[0]
        K = len(self.classes_)
        out = np.empty((n, K, K))
        for sl in _row_chunks(n, 2 * K * K):
            out[sl] = joint_sum(init, tables, codes[sl]).reshape(-1, K, K)
        return out

    def _sets(self, codes):
        # a margin for rounding: an exact tie computed as +4e-16 is no dominance
        return ~(self._min_log_ratio(codes) > LOG_TIE).any(axis=1)

    def _scores(self, codes):
        # the counterpart: model averaging at inclusion probability ``arc_prior``
        return self._posterior_log(codes)

    def _proba(self, codes):
        return np.exp(self._posterior_log(codes))

    def predict_proba(self, X):
        """Class probabilities of the precise counterpart (inclusion = ``arc_prior``),
        shape (n_samples, n_classes)."""
        return self._proba(self._predict_input(X))
