"""Naive Bayes and the naive credal classifiers: NBC, NCC, NCC-epsilon and LNCC.

All of them learn one sufficient statistic, the count tables of a naive model (missing-at-random,
as in JNCC2): ``n(c)``, ``n(c, f_j)`` and ``n_j(c)``. ``NaiveBayes`` is the precise model (Perks or
Laplace prior); ``NCC`` applies maximality over the imprecise Dirichlet model (optionally
epsilon-contaminated) with an exact dominance test per class pair; ``LNCC`` keeps the naive models
whose likelihood is at least ``alpha`` times the maximum (Antonucci, Cattaneo & Corani). Dominance
tests are vectorised over rows and class pairs, certified by closed-form bounds, and solved exactly
(Newton) only where the bounds do not decide: the NCC's in :mod:`credal.dominance`, the LNCC's in
:mod:`credal.likelihood`; the count tables are built and summed by feature groups in compiled
code (:mod:`credal._compiled_naive`). The derivations are in the book's Algorithms appendix.
"""

from __future__ import annotations

import numpy as np

from .base import BaseClassifier, CredalMixin, PreciseMixin
from ._tables import DerivedTables, count_plan, unique_rows
from ._validation import check_choice, check_fit_input, check_in_range, check_int, check_positive
from .dominance import LOG_TIE, ncc_certify, ncc_end_apply, ncc_end_tables, ncc_log_infimum
from .likelihood import (N_CELLS, LnccPairs, lncc_certify, lncc_certify_outside,
                         lncc_end_apply, lncc_end_tables, lncc_log_threshold)

__all__ = ["NaiveBayes", "NCC", "LNCC", "LOG_TIE"]

# Upper bound on the elements of the (rows x pairs x features) work arrays of one
# prediction chunk; keeps peak memory at a few tens of MB whatever n_samples is.
_CHUNK_ELEMENTS = 1 << 20
# NCC: decide dominance by the convexity certificates of ncc_certify where they
# apply (tests switch this off to compare with the exact minimisation alone).
_CERTIFY = True
_UNIT = np.empty(0)  # the row weights of unweighted counting (naive_counts)


def _feature_major(codes, dt):
    """Codes (m, n) of type ``dt`` (:func:`~credal._compiled.code_dtype`) for the kernels, from a
    code matrix (n, m) or a list of m code columns."""
    if isinstance(codes, np.ndarray):
        return np.ascontiguousarray(codes.T, dtype=dt)
    return np.concatenate(codes, dtype=dt, casting="unsafe").reshape(len(codes), -1)


def _check_sample_weight(sample_weight, n):
    """Row weights as a float array of shape (n,), or None; ValueError unless finite,
    non-negative, with a positive total below 1e150."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"sample_weight must have shape ({n},); got {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must hold finite non-negative numbers")
    with np.errstate(over="ignore"):
        total = w.sum()
    if total <= 0:
        raise ValueError("sample_weight sums to zero: no training data")
    # LNCC's profile likelihood pads unused factors with counts of 1e200 (credal.likelihood)
    if not total < 1e150:
        raise ValueError(f"sample_weight sums to {total:.3g}; weighted counts must stay "
                         "below 1e150 (divide the weights by a constant)")
    return w


class _NaiveCounts(DerivedTables, BaseClassifier):
    """Shared count tables of the naive classifiers (not public)."""

    def _fit_counts(self, X, y, sample_weight):
        cols, y_idx = check_fit_input(self, X, y, as_columns=True)
        w = _check_sample_weight(sample_weight, len(y_idx))
        K, nv = len(self.classes_), self.n_values_
        self._plan, self._offsets, self._dt = count_plan(tuple(nv.tolist()), K)
        from ._compiled_naive import naive_counts  # numba compiles (or loads) it on first use
        self._flat, self.observed_count_, self.class_count_ = naive_counts(
            _feature_major(cols, self._dt), y_idx, _UNIT if w is None else w, *self._plan, K)
        self._reset_derived()  # tables derived from these counts

    @property
    def category_count_(self):
        off = self._offsets  # views of the flat table, built on first use
        return self._derived_tables("counts", lambda: [self._flat[:, off[j]:off[j + 1]]
                                                       for j in range(len(off) - 1)])

    def _gather(self, codes):
        """Counts ``n(c, x_ij)``, shape (n, K, m), and the observed mask (n, m)."""
        obs = codes >= 0
        idx = self._offsets[:-1][None, :] + np.where(obs, codes, 0)
        if self._flat.shape[1] == 0:
            return np.zeros((codes.shape[0], len(self.classes_), codes.shape[1])), obs
        cnt = self._flat[:, idx]  # (K, n, m)
        return np.transpose(cnt, (1, 0, 2)), obs

    def _log_tables(self, prior, s):
        """Log class prior (K,) and flat log conditional table (K, sum |F_j|)."""
        from ._compiled_naive import log_arguments, log_differences
        K, nv = len(self.classes_), self.n_values_
        # perks: t(c) = 1/K, t(c, f) = 1/(K |F_j|); laplace: s added to every cell
        a, b, c, d = ((s / K, s, s / (K * nv), np.full(nv.size, s / K)) if prior == "perks"
                      else (s, s * K, np.full(nv.size, float(s)), s * nv))
        logs = np.log(log_arguments(self.class_count_, self._flat, self.observed_count_, nv,
                                    float(a), float(b), c, d))  # one call: numpy's logarithms
        return log_differences(logs, nv, K)

    def _joint_log_likelihood(self, codes, prior, s):
        """Joint log-likelihood (n, K) of a code matrix or a list of code columns."""
        from ._compiled_naive import naive_scores
        lp, lt = self._derived_tables(("jll", prior, s), lambda: self._log_tables(prior, s))
        return naive_scores(_feature_major(codes, self._dt), lp, lt, *self._plan).T

    def _label(self, scores, sets=None):
        if sets is not None:
            return super()._label(scores, sets)
        from ._compiled_naive import first_max  # scores: the kernel's (K, n), transposed
        return self.classes_.take(first_max(scores.T))

    def _chunks(self, n, per_row):
        step = max(1, int(_CHUNK_ELEMENTS // max(per_row, 1)))
        for start in range(0, n, step):
            yield slice(start, min(n, start + step))


class NaiveBayes(PreciseMixin, _NaiveCounts):
    """Naive Bayes classifier with a Dirichlet prior (Bayesian NBC).

    Parameters
    ----------
    prior : {"perks", "laplace"}, default "perks"
        ``"perks"``: Walley's parametrisation with ``t(c) = 1/|C|`` and
        ``t(c, f_j) = 1/(|C||F_j|)`` (eqs. 2-3 of Antonucci et al. 2011; BDe
        with equivalent sample size ``s``).  ``"laplace"``: ``s`` added to every
        cell, ``P(c) = (n(c) + s)/(N + s|C|)`` and ``P(f|c) = (n(c,f) + s)/(n_j(c)
        + s|F_j|)``; with ``s = 1`` this is the estimator of JNCC2 and Weka.
    s : float, default 1.0
        Prior strength (> 0).

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
    n_values_ : ndarray of int, shape (n_features,)
    class_count_ : ndarray, shape (n_classes,)
        Weighted training rows per class.
    category_count_ : list of ndarray, shape (n_classes, n_values_[j])
        Rows per class and category of each feature (missing entries skipped).
    observed_count_ : ndarray, shape (n_classes, n_features)
        Rows per class where each feature is observed.

    Notes
    -----
    Missing training entries are skipped (each conditional table uses the rows where its feature is
    observed); a missing test entry drops out of the product. All computations are in log space.
    """

    _as_columns = True

    def __init__(self, prior="perks", s=1.0):
        self.prior, self.s = prior, s

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables.

        Parameters
        ----------
        X : int array (n_samples, n_features), -1 = missing, or DataFrame of categoricals
        y : array-like, shape (n_samples,)
        sample_weight : array-like, shape (n_samples,), optional
            Non-negative row weights (a weight of 2 counts a row twice).

        Returns
        -------
        self
        """
        check_choice("prior", self.prior, ("perks", "laplace"))
        check_positive("s", self.s)
        self._fit_counts(X, y, sample_weight)
        return self

    def _scores(self, codes):
        return self._joint_log_likelihood(codes, self.prior, float(self.s))

    def _log_proba(self, codes):
        jll = np.ascontiguousarray(self._scores(codes))
        top = jll.max(axis=1, keepdims=True)
        return jll - (top + np.log(np.exp(jll - top).sum(axis=1, keepdims=True)))


class _CredalNaive(CredalMixin, _NaiveCounts):
    """Common prediction code of NCC and LNCC."""

    def _pair_index(self, ordered=True):
        K = len(self.classes_)
        if ordered:
            return np.nonzero(~np.eye(K, dtype=bool))
        return np.triu_indices(K, 1)

    def _pair_arrays(self, codes, ordered=True):
        """:meth:`_pair_counts` of every class pair of every row, row-major."""
        a, b = self._pair_index(ordered)
        cnt, obs = self._gather(codes)
        rows = np.repeat(np.arange(len(codes)), a.size)
        a, b = np.tile(a, len(codes)), np.tile(b, len(codes))
        cc, oc = self.class_count_, self.observed_count_
        return cc[a], cnt[rows, a], oc[a], cc[b], cnt[rows, b], oc[b], obs[rows]

    def _pair_counts(self, codes, rows, a, b):
        """Counts ``(n1, n1j, o1j, n2, n2j, o2j, mask)`` of the problems ``a`` vs ``b`` on
        ``codes[rows]``, one per entry of ``rows`` (the arguments of
        :class:`~credal.likelihood.LnccPairs`)."""
        cnt, obs = self._gather(codes[rows])
        k = np.arange(rows.size)
        cc, oc = self.class_count_, self.observed_count_
        return cc[a], cnt[k, a], oc[a], cc[b], cnt[k, b], oc[b], obs

    def _pair_matrix(self, values, B, fill, values_rev=None):
        K = len(self.classes_)
        out = np.full((B, K, K), fill, dtype=float)
        a, b = self._pair_index(values_rev is None)
        out[:, a, b] = values.reshape(B, a.size)
        if values_rev is not None:
            out[:, b, a] = values_rev.reshape(B, a.size)
        return out

    def _scores(self, codes):
        """The counterpart: the Perks naive Bayes (``predict`` is its best class in the
        set; for NCC always its overall choice)."""
        return self._joint_log_likelihood(codes, "perks", self._nbc_s())

    def _sets(self, codes):
        # one computation per distinct row
        rows, inv = unique_rows(codes, self.n_values_)
        return self._predict_set_codes(rows)[inv]


class NCC(_CredalNaive):
    """Naive credal classifier (IDM), optionally epsilon-contaminated (NCC-eps).

    Parameters
    ----------
    s : float, default 1.0
        Equivalent sample size of the imprecise Dirichlet model (> 0).
    epsilon : float, default 0.0
        Contamination in ``[0, 1]``: the prior proportions are ``(1 - eps) t0 +
        eps u`` with ``t0`` free and ``u`` the Perks proportions.  0 is the NCC,
        1 the Perks naive Bayes (the set is then its most probable classes).
    epsilon_model : {"contamination", "simple"}, default "contamination"
        ``"simple"`` is the NCC-eps of Weka's imprecise-probability plugin (for
        conformance): ``s t(c'')`` ranges over ``[s eps, s (1 - eps)]``, ``t(c') = 1 -
        t(c'')``, and each feature count of ``c'`` gets ``+ s eps``; ``epsilon`` is then
        in ``[0, 0.5]``.  That model is not a set of naive Bayes models containing the
        Perks one: ``predict_set`` tests every ordered pair, and ``predict`` (the naive
        Bayes's best class inside the set) may differ from the naive Bayes.

    Attributes
    ----------
    classes_, n_values_, class_count_, category_count_, observed_count_
        As in :class:`NaiveBayes`.

    Notes
    -----
    ``predict_set`` applies maximality with the exact pairwise dominance test described in the
    module docstring (minimum of a strictly convex function of one variable, solved for all rows
    and class pairs at once). Classes are visited in the order of the Perks naive Bayes and each is
    tested only against the maximal classes found before it, which gives the same set as testing
    every ordered pair (:meth:`dominance_log_ratio`) because dominance is a strict partial order
    that the naive Bayes ranking extends. Most tests are decided without iterating: the objective's
    end values and tangents, gathered from per-(class, category) tables, bound its minimum from
    above and below (:func:`~credal.dominance.ncc_certify`); only pairs whose bounds straddle zero
    (up to a rounding margin) go to the Newton minimisation. ``predict`` returns the choice of
    ``NaiveBayes(prior="perks", s=s)``, which is always in the set (contamination model). Missing
    values follow JNCC2's missing-at-random convention.
    """

    def __init__(self, s=1.0, epsilon=0.0, epsilon_model="contamination"):
        self.s, self.epsilon, self.epsilon_model = s, epsilon, epsilon_model

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables; see :meth:`NaiveBayes.fit`.  Returns self."""
        check_positive("s", self.s)
        model = check_choice("epsilon_model", self.epsilon_model, ("contamination", "simple"))
        check_in_range("epsilon", self.epsilon, 0.0, 0.5 if model == "simple" else 1.0)
        self._fit_counts(X, y, sample_weight)
        return self

    def _nbc_s(self):
        return float(self.s)

    def _log_ratio_codes(self, codes):
        K = len(self.classes_)
        B, m = codes.shape
        out = np.zeros((B, K, K))
        if K < 2:
            return out
        P = K * (K - 1)
        for sl in self._chunks(B, P * max(m, 1) * 8):
            n1, n1j, o1j, n2, n2j, o2j, mask = self._pair_arrays(codes[sl])
            v, _ = ncc_log_infimum(n1, n2, n1j, n2j, o1j, o2j, mask, self.n_values_, float(self.s),
                                   float(self.epsilon), K, self.epsilon_model)
            out[sl] = self._pair_matrix(v, sl.stop - sl.start, 0.0)
        return out

    def dominance_log_ratio(self, X):
        """Log of the lower dominance ratio of every ordered class pair.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes, n_classes)
            ``[i, a, b] = ln inf_t P_t(a, x_i)/P_t(b, x_i)`` (``-inf`` for an infimum of 0; 0 on
            the diagonal). Class ``a`` dominates ``b`` iff the entry exceeds ``1e-11``: a margin
            for rounding, so that an infimum ratio of exactly 1 (no dominance) computed as
            ``1 + 4e-16`` does not count, whatever the order of the features.
        """
        return self._log_ratio_codes(self._predict_input(X))

    def _exact_dominates(self, codes, rows, a, b):
        """``a`` dominates ``b`` on ``codes[rows]``, by the exact minimisation."""
        K = len(self.classes_)
        m = codes.shape[1]
        out = np.zeros(rows.size, dtype=bool)
        for sl in self._chunks(rows.size, max(m, 1) * 16):
            n1, n1j, o1j, n2, n2j, o2j, obs = self._pair_counts(codes, rows[sl], a[sl], b[sl])
            v, _ = ncc_log_infimum(n1, n2, n1j, n2j, o1j, o2j, obs, self.n_values_,
                                   float(self.s), float(self.epsilon), K, self.epsilon_model)
            out[sl] = v > LOG_TIE  # an infimum ratio of 1 up to rounding: no dominance
        return out

    def _end_tables(self, rank):
        """:func:`~credal.dominance.ncc_end_tables` of the fit (with the Perks naive
        Bayes, which ranks the classes, if ``rank``)."""
        s, eps = float(self.s), float(self.epsilon)
        lt = self._log_tables("perks", s) if rank else None
        return self._derived_tables(("ncc-end", s, eps, rank), lambda: ncc_end_tables(
            self.class_count_, self._flat, self.observed_count_, self.n_values_, s, eps, lt))

    def _all_pairs(self, codes):
        """Dominance (B, K, K) of every ordered pair ("simple" model): the certificates of
        :func:`~credal.dominance.ncc_certify` where they decide, the minimisation elsewhere
        (the same decisions as ``dominance_log_ratio(X) > LOG_TIE``)."""
        K, (B, m) = len(self.classes_), codes.shape
        s, eps = float(self.s), float(self.epsilon)
        tables = self._derived_tables(("ncc-simple", s, eps), lambda: ncc_end_tables(
            self.class_count_, self._flat, self.observed_count_, self.n_values_, s, eps,
            model="simple"))
        dom = np.zeros((B, K, K), dtype=bool)
        a, b = np.arange(K)[:, None], np.arange(K)[None, :]
        for sl in self._chunks(B, 16 * K * K + m):
            c = codes[sl]
            state = np.zeros((c.shape[0], K, K), dtype=np.int8)
            if _CERTIFY:  # every pair of every row at once, by broadcasting
                terms, zero, scale, _ = ncc_end_apply(tables, c)
                state = ncc_certify(terms, zero, scale, m, (1.0 - 2.0 * eps) * s, a, b,
                                    np.arange(c.shape[0])[:, None, None])
            state[:, np.arange(K), np.arange(K)] = -1
            r, i, j = np.nonzero(state == 0)
            state[r, i, j] = np.where(self._exact_dominates(c, r, i, j), 1, -1)
            dom[sl] = state == 1
        return dom

    def _open_rows(self, codes):
        """Codes to certify and rank with, and which rows only admit certificates of
        no dominance (None: every row admits both)."""
        return codes, None

    def _predict_set_codes(self, codes, jll=None):
        """Maximal classes, testing only the dominators that can matter.
        Dominance is a strict partial order here and the Perks naive Bayes is one of the models, so
        a dominated class is dominated by a maximal class that the NBC ranks higher (NCC2: its own
        ranking, ``_end_tables``). Classes are visited in NBC order; each is tested only against
        the maximal classes found before it (``K - 1`` tests for a determinate row instead of
        ``K (K - 1)``)."""
        K = len(self.classes_)
        B, m = codes.shape
        out = np.ones((B, K), dtype=bool)
        if K < 2 or B == 0:
            return out
        if self.epsilon_model == "simple":  # not ordered by the naive Bayes: every pair
            out = ~np.any(self._all_pairs(codes), axis=1)
            return out | ~out.any(axis=1, keepdims=True)  # a dominance cycle: vacuous
        s, eps = float(self.s), float(self.epsilon)
        tables = self._end_tables(jll is None)
        for sl in self._chunks(B, 10 * K + m):
            c = codes[sl]
            filled, opened = self._open_rows(c)
            terms, zero, scale, jl = ncc_end_apply(tables, filled)
            o = np.argsort(-(jll[sl] if jl is None else jl), axis=1, kind="stable")
            nb = o.shape[0]
            idx = np.arange(nb)
            maximal = np.zeros((nb, K), dtype=bool)
            maximal[idx, o[:, 0]] = True
            for r in range(1, K):
                b = o[:, r]
                rows, a = np.nonzero(maximal)
                dominated = np.zeros(nb, dtype=bool)
                if _CERTIFY:
                    state = ncc_certify(terms, zero, scale, m, (1.0 - eps) * s, a, b[rows], rows)
                    if opened is not None:  # filled rows: only "no dominance" holds
                        state[(state == 1) & opened[rows]] = 0
                    dominated[rows[state == 1]] = True
                    # exact minimisation only where no certificate decided and the
                    # row is not already dominated
                    keep = (state == 0) & ~dominated[rows]
                    rows, a = rows[keep], a[keep]
                if rows.size:
                    np.logical_or.at(dominated, rows, self._exact_dominates(c, rows, a, b[rows]))
                maximal[idx[~dominated], b[~dominated]] = True
            out[sl] = maximal
        return out


class LNCC(_CredalNaive):
    """Likelihood-based naive credal classifier (Antonucci, Cattaneo & Corani).

    Parameters
    ----------
    alpha : float, default 0.75
        Relative likelihood threshold in ``[0, 1]``: the naive models kept are
        those whose likelihood (training data plus the instance to classify, its
        class missing) is at least ``alpha`` times the maximum.  Larger ``alpha``
        gives smaller sets; ``alpha = 0`` returns every class.
    grid : int or None, default None
        None decides each dominance test exactly (see the module docstring).  An
        integer ``>= 2`` uses the paper's method instead: the profile likelihood
        on that many equally spaced points (the paper used 250).

    Attributes
    ----------
    classes_, n_values_, class_count_, category_count_, observed_count_
        As in :class:`NaiveBayes`.

    Notes
    -----
    Dominance of ``c'`` over ``c''`` is decided by the threshold
    ``alpha* = sup_{g <= 1} L / sup L`` of the pair's profile likelihood (Theorems 1-2 of the
    paper; ``c'`` dominates iff ``alpha > alpha*``), available from :meth:`dominance_threshold`.
    With more than two classes every ordered pair is tested with the pair's own likelihood (the
    instance's class restricted to the pair, as in the paper's Section 4) and the set is the union
    of the source components of the dominance graph, which is the set of undominated classes
    whenever dominance has no cycle. Incomplete training data use the available-case likelihood
    (MAR), in which Theorems 1-2 hold with ``n(c)`` replaced by ``n_j(c)`` in the factors of
    feature ``j``. ``predict`` returns the class that the Perks naive Bayes (``s = 1``) ranks first
    among the set.

    ``predict_set`` computes ``alpha*`` only where it matters: most pairs are
    decided at the given ``alpha`` by bounds on ``alpha*`` from the likelihoods
    with the instance's class set to either class
    (:func:`~credal.likelihood.lncc_certify`, cheap table gathers); of the pairs left
    open, those whose ``x0`` lies outside ``[0, 1]`` (so that ``sup_{x <= x0} L =
    L(x0)``) are decided from ``L`` at a certified bracket of ``x0``
    (:func:`~credal.likelihood.lncc_certify_outside`); the thresholds computed for
    the others are remembered for later calls at other levels.
    """

    def __init__(self, alpha=0.75, grid=None):
        self.alpha, self.grid = alpha, grid

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables; see :meth:`NaiveBayes.fit`.  Returns self."""
        check_in_range("alpha", self.alpha, 0.0, 1.0)
        if self.grid is not None:
            check_int("grid (or None)", self.grid, 2)
        self._fit_counts(X, y, sample_weight)
        return self

    def _nbc_s(self):
        return 1.0

    def _exact_log_threshold(self, codes, rows, a, b):
        """``ln alpha*`` of ``a`` over ``b`` and of ``b`` over ``a`` on ``codes[rows]``."""
        m = codes.shape[1]
        fwd, rev = np.empty(rows.size), np.empty(rows.size)
        for sl in self._chunks(rows.size, (2 * m + 2) * (N_CELLS + 1)):
            fwd[sl], rev[sl] = lncc_log_threshold(*self._pair_counts(codes, rows[sl], a[sl],
                                                                     b[sl]))
        return fwd, rev

    def _outside_states(self, codes, rows, a, b, swap, bounds, tol, log_alpha):
        """:func:`~credal.likelihood.lncc_certify_outside` on pairs ``(a, b)`` of ``codes[rows]``.
        ``swap`` marks pairs with ``x0 > 1``: they are decided as ``(b, a)``, the mirror image
        (``ln g(0)`` and ``ln g(1)`` swap and change sign)."""
        m = codes.shape[1]
        first, second = np.where(swap, b, a), np.where(swap, a, b)
        g0 = np.where(swap, -bounds[1], bounds[0])
        g1 = np.where(swap, -bounds[0], bounds[1])
        out = np.zeros(rows.size, dtype=np.int8)
        for sl in self._chunks(rows.size, 8 * (m + 1)):
            pairs = LnccPairs(*self._pair_counts(codes, rows[sl], first[sl], second[sl]))
            out[sl] = lncc_certify_outside(pairs, g0[sl], g1[sl], bounds[2, sl],
                                           bounds[3, sl], log_alpha, tol[sl].max())
        return out

    def _dominance_codes(self, codes):
        """Dominance matrix (B, K, K) at level ``alpha``, diagonal False.
        Exact path (``grid=None``): most pairs are decided by the bounds of
        :func:`~credal.likelihood.lncc_certify`, then, where ``x0`` lies outside ``[0, 1]``, by
        :func:`~credal.likelihood.lncc_certify_outside`; ``alpha*`` is computed only for the
        others."""
        with np.errstate(divide="ignore"):
            la = np.log(float(self.alpha))
        K = len(self.classes_)
        B, m = codes.shape
        if self.grid is not None or K < 2 or B == 0:
            lt = self._compute_log_threshold(codes)
            return (la > lt + LOG_TIE) & ~np.eye(K, dtype=bool)
        dom = np.zeros((B, K, K), dtype=bool)
        a, b = self._pair_index(ordered=False)
        P = a.size
        thr = np.full((B, K, K), np.nan)
        thr[:, np.arange(K), np.arange(K)] = 0.0
        todo = []
        tables = self._derived_tables("lncc-end", lambda: lncc_end_tables(
            self.class_count_, self._flat, self.observed_count_, self._offsets))
        for sl in self._chunks(B, P * 64 + 5 * K):
            terms, scale = lncc_end_apply(tables, codes[sl])
            nb = sl.stop - sl.start
            rows = np.repeat(np.arange(nb), P)
            aa, bb = np.tile(a, nb), np.tile(b, nb)
            fwd, rev, bounds, tol = lncc_certify(terms, scale, m, la, aa, bb, rows)
            rows = rows + sl.start
            dom[rows[fwd == 1], aa[fwd == 1], bb[fwd == 1]] = True
            dom[rows[rev == 1], bb[rev == 1], aa[rev == 1]] = True
            und = (fwd == 0) | (rev == 0)
            todo.append((rows[und], aa[und], bb[und], fwd[und], rev[und], bounds[:, und],
                         np.full(und.sum(), tol)))
        r, aa, bb, fwd, rev, bounds, tol = (np.concatenate(v, axis=-1) for v in zip(*todo))
        new = np.isnan(thr[r, aa, bb])
        # second stage, for pairs whose x0 lies outside [0, 1]: alpha* from L(x0)
        g0, g1 = bounds[0], bounds[1]
        left = new & (g0 > tol)  # x0 < 0: a may dominate b, b never dominates a
        right = new & (g1 < -tol)  # x0 > 1: the mirror image
        go = np.nonzero((left & (fwd == 0)) | (right & (rev == 0)))[0]
        if go.size:
            st = self._outside_states(codes, r[go], aa[go], bb[go], right[go],
                                      bounds[:, go], tol[go], la)
            fwd[go[left[go]]] = st[left[go]]
            rev[go[right[go]]] = st[right[go]]
        rev[left & (rev == 0)] = -1
        fwd[right & (fwd == 0)] = -1
        dom[r[fwd == 1], aa[fwd == 1], bb[fwd == 1]] = True
        dom[r[rev == 1], bb[rev == 1], aa[rev == 1]] = True
        new &= (fwd == 0) | (rev == 0)
        if new.any():
            f, v = self._exact_log_threshold(codes, r[new], aa[new], bb[new])
            thr[r[new], aa[new], bb[new]] = f
            thr[r[new], bb[new], aa[new]] = v
        # undecided directions from the exact thresholds, as the full computation decides
        d = la > thr[r, aa, bb] + LOG_TIE
        dom[r, aa, bb] = np.where(fwd == 0, d, fwd == 1)
        d = la > thr[r, bb, aa] + LOG_TIE
        dom[r, bb, aa] = np.where(rev == 0, d, rev == 1)
        return dom

    def _compute_log_threshold(self, codes):
        K = len(self.classes_)
        B, m = codes.shape
        out = np.zeros((B, K, K))
        if K < 2:
            return out
        P = K * (K - 1) // 2  # both directions of a pair come from one profile
        width = self.grid if self.grid is not None else N_CELLS + 1
        for sl in self._chunks(B, P * (2 * m + 2) * width):
            v, v_rev = lncc_log_threshold(*self._pair_arrays(codes[sl], ordered=False),
                                          grid=self.grid)
            out[sl] = self._pair_matrix(v, sl.stop - sl.start, 0.0, v_rev)
        return out

    def dominance_threshold(self, X):
        """Likelihood level above which each ordered class pair is a dominance.

        Parameters
        ----------
        X : int array (n_samples, n_features) or DataFrame of categoricals

        Returns
        -------
        ndarray, shape (n_samples, n_classes, n_classes)
            ``[i, a, b] = alpha*``: class ``a`` dominates ``b`` on row ``i`` iff
            ``alpha > alpha*`` (1 on the diagonal).
        """
        codes = self._predict_input(X)
        rows, inv = unique_rows(codes, self.n_values_)
        return np.exp(self._compute_log_threshold(rows))[inv]

    def _predict_set_codes(self, codes, jll=None):
        dom = self._dominance_codes(codes)
        K = dom.shape[1]
        # transitive closure (repeated squaring) to find the source components
        reach = dom.copy()
        for _ in range(int(np.ceil(np.log2(max(K, 2))))):
            r8 = reach.astype(np.uint8)
            reach |= (r8 @ r8) > 0
        return ~np.any(reach & ~np.transpose(reach, (0, 2, 1)), axis=1)
