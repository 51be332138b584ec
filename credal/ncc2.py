"""The naive credal classifier 2 (Corani & Zaffalon, JMLR 9, 2008): NCC with features
declared not missing at random (non-MAR) in training and/or in testing.

For a class pair ``(c', c'')`` the dominance test of :class:`~credal.naive.NCC` is taken
at the least favourable completion of the non-MAR missing data, exactly:

* a feature non-MAR in training counts every row of a class (``n_j(c) = n(c)``); the
  missing cells of ``c'`` take a value other than the instance's and those of ``c''``
  take the instance's value, so ``n(c'', x_j)`` gets ``c''``'s missing count (JNCC2's
  rule; the two completions touch different rows, so together they are one completion);
* a missing value of a feature non-MAR in testing ranges over the feature's values.  The
  value minimising the feature's factor ``n(c', v) / (n(c'', v) + s t)`` changes with the
  prior share ``t`` of ``c''`` only at the breakpoints of that lower envelope, which
  depends on the pair and the feature alone (computed once per fit); between the
  breakpoints of the instance's missing features the test is NCC's convex minimisation
  on a sub-interval, and ``c'`` dominates iff every piece's minimum exceeds 1.

Both are "``c'`` dominates ``c''`` under every completion", which is transitive, so the
set (undominated classes) is found as NCC finds it, classes ranked by a score that every
dominance respects (``_rank_tables``).  With nothing declared non-MAR this is NCC.
"""

from __future__ import annotations

import numpy as np

from ._validation import check_positive
from .dominance import LOG_TIE, ncc_end_tables, ncc_log_infimum
from .naive import NCC

__all__ = ["NCC2"]


class NCC2(NCC):
    """Naive credal classifier 2: NCC with non-MAR features (JNCC2's NCC2).

    Parameters
    ----------
    s : float, default 1.0
        Equivalent sample size of the imprecise Dirichlet model (> 0).
    non_mar_train, non_mar_test : "none", "all" or list, default "none"
        The features whose missing values are not missing at random in the training
        data / in the instances to classify: none, all, or a list of feature names
        (DataFrame input) or column indices.  A missing training cell of such a feature
        may hold any value; a missing test value ranges over all the feature's values;
        a class is dropped only if another class dominates it under every completion.
        The other features are MAR, as in :class:`~credal.naive.NCC`.

    Attributes
    ----------
    classes_, n_values_, class_count_, category_count_, observed_count_
        As in :class:`~credal.naive.NaiveBayes`.
    non_mar_train_, non_mar_test_ : ndarray of bool, shape (n_features,)
        The declarations as masks.

    Notes
    -----
    See the module docstring for the dominance test; it is exact (no enumeration of
    completions).  Its sets equal JNCC2 1.11's on the vote conformance rows, JNCC2's
    examples and the benchmark data (``benchmarks/bench_ncc2.py``).  JNCC2's published
    source could differ elsewhere: its partition points add ``c''``'s training missing
    count to a feature MAR in training, and compare a feature of more than two values
    only with its second value.
    ``predict`` and ``predict_proba`` are the Perks naive Bayes (``s``, missing values
    MAR), ``predict`` taking its best class inside the set; NaN in a DataFrame or code
    -1 is missing.
    """

    epsilon, epsilon_model = 0.0, "contamination"  # NCC's test, never contaminated

    def __init__(self, s=1.0, non_mar_train="none", non_mar_test="none"):
        self.s = s
        self.non_mar_train = non_mar_train
        self.non_mar_test = non_mar_test

    def fit(self, X, y, sample_weight=None):
        """Learn the count tables; see :meth:`~credal.naive.NaiveBayes.fit`.  Returns self."""
        check_positive("s", self.s)
        self._fit_counts(X, y, sample_weight)
        tr, self.non_mar_test_ = self._declared("non_mar_train"), self._declared("non_mar_test")
        self.non_mar_train_ = tr
        span = np.repeat(np.arange(len(tr)), self.n_values_)
        miss = self.class_count_[:, None] - self.observed_count_
        self._flat_b = self._flat + np.where(tr, miss, 0.0)[:, span]
        self._obs = np.where(tr, self.class_count_[:, None], self.observed_count_)
        return self

    def _declared(self, name):
        value, m = getattr(self, name), len(self.n_values_)
        if isinstance(value, str) and value in ("none", "all"):
            return np.full(m, value == "all")
        names = list(getattr(self, "feature_names_in_", []))
        bad = f"{name} must be 'none', 'all' or a list of feature names or column indices"
        if isinstance(value, str) or not np.iterable(value):
            raise ValueError(f"{bad}; got {value!r}")
        out = np.zeros(m, dtype=bool)
        for v in value:
            if isinstance(v, str) and v in names:
                out[names.index(v)] = True
            elif isinstance(v, (int, np.integer)) and not isinstance(v, bool) and -m <= v < m:
                out[v] = True
            else:
                raise ValueError(f"{bad}; {v!r} is not one of the {m} features "
                                 f"{names if names else 'indices 0..' + str(m - 1)}")
        return out

    def predict_proba(self, X):
        """The Perks naive Bayes posterior, shape (n_samples, n_classes); rows sum to 1."""
        return self._proba(self._predict_input(X))

    def _proba(self, codes):
        jll = self._scores(codes)
        p = np.exp(jll - jll.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def _end_tables(self, rank):
        """End tables of the pessimistic counts, ranking classes by ``_rank_tables``."""
        s = float(self.s)
        return self._derived_tables(("ncc2-end", s), lambda: ncc_end_tables(
            self.class_count_, self._flat, self._obs, self.n_values_, s, 0.0,
            self._rank_tables(), flat_b=self._flat_b))

    def _rank_tables(self):
        """``B(c) = ln(n(c) + s/2) + sum_j [ln(n''(c, x_j) + s/2) - ln(n_j(c) + s/2)]``
        (``n''``: the dominated side's counts).  At ``t = 1/2`` the log ratio of ``c'``
        over ``c''`` is ``A(c') - B(c'')`` with ``A(c) <= B(c)`` (``n`` for ``n''``), so
        ``c'`` dominating ``c''`` implies ``B(c') > B(c'')``; for a missing non-MAR
        test value ``B`` is taken at value 0, one of the completions."""
        h = float(self.s) / 2.0
        span = np.repeat(np.arange(len(self.n_values_)), self.n_values_)
        lt = np.log(self._flat_b + h) - np.log(self._obs[:, span] + h)
        return np.log(self.class_count_ + h), np.where(self.n_values_[span] > 1, lt, 0.0)

    def _open_rows(self, codes):
        gap = (codes < 0) & self.non_mar_test_
        return np.where(gap, 0, codes), gap.any(axis=1)

    def _envelopes(self):
        """Per feature, ordered class pair: the breakpoints ``(K, K, m, L)`` in ``(0, 1)``
        of the lower envelope over ``v`` of ``n(c', v) / (n''(c'', v) + s t)`` (padded
        with 1), and its minimising value on each piece ``(K, K, m, L + 1)``."""
        s, K, m = float(self.s), len(self.classes_), len(self.n_values_)
        pts, vals = [], []
        for j in range(m):
            cells = np.arange(self._offsets[j], self._offsets[j + 1])
            n1 = self._flat[:, cells][:, None, :]  # c' on axis 0, c'' on axis 1
            n2 = self._flat_b[:, cells][None, :, :]
            u, v = np.triu_indices(cells.size, 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (n1[..., v] * n2[..., u] - n1[..., u] * n2[..., v]) / (
                    s * (n1[..., u] - n1[..., v]))
            t = np.sort(np.where((t > 0) & (t < 1), t, 1.0), axis=-1)

            def argmin(edges):
                mid = 0.5 * (edges[..., 1:] + edges[..., :-1])
                return np.argmin(n1[..., None, :] / (n2[..., None, :] + s * mid[..., None]), -1)

            best = argmin(np.concatenate([np.zeros((K, K, 1)), t, np.ones((K, K, 1))], -1))
            t = np.sort(np.where(best[..., 1:] != best[..., :-1], t, 1.0), axis=-1)
            pts.append(t)
            vals.append(argmin(np.concatenate([np.zeros((K, K, 1)), t, np.ones((K, K, 1))], -1)))
        L = max([int((p < 1).sum(-1).max(initial=0)) for p in pts] + [0])
        return (np.stack([np.pad(p[..., :L], ((0, 0), (0, 0), (0, L - p[..., :L].shape[-1])),
                                 constant_values=1.0) for p in pts], 2),
                # a feature with fewer pieces repeats its last one (never reached: its
                # padded breakpoints are 1)
                np.stack([np.pad(v[..., :L + 1], ((0, 0), (0, 0), (0, L + 1 - v[..., :L + 1]
                                 .shape[-1])), mode="edge") for v in vals], 2))

    def _exact_log_inf(self, codes, rows, a, b):
        """Log of the infimum dominance ratio of ``a`` over ``b`` on ``codes[rows]``, over
        the prior and every completion of the non-MAR missing data."""
        pts, vals = self._derived_tables("ncc2-env", self._envelopes)
        K, m, L = len(self.classes_), codes.shape[1], pts.shape[-1]
        out = np.empty(rows.size)
        for sl in self._chunks(rows.size, (m + 2) * (L + 1) * (m * L + 2)):
            c, aa, bb = codes[rows[sl]], a[sl], b[sl]
            gap = (c < 0) & self.non_mar_test_
            # the pieces of [0, 1]: breakpoints of the envelopes of the missing features
            edges = np.sort(np.where(gap[..., None], pts[aa, bb], 1.0).reshape(len(c), -1), 1)
            edges = np.concatenate([np.zeros((len(c), 1)), edges, np.ones((len(c), 1))], 1)
            lo, hi = edges[:, :-1], edges[:, 1:]
            p, k = np.nonzero(hi > lo)  # piece 0 always: breakpoints are > 0
            mid = 0.5 * (lo[p, k] + hi[p, k])
            piece = (pts[aa[p], bb[p]] < mid[:, None, None]).sum(-1)  # (Q, m)
            v = np.where(gap[p], vals[aa[p, None], bb[p, None], np.arange(m), piece], c[p])
            idx = self._offsets[:-1] + np.maximum(v, 0)
            i1, i2 = aa[p], bb[p]
            val, _ = ncc_log_infimum(
                self.class_count_[i1], self.class_count_[i2], self._flat[i1[:, None], idx],
                self._flat_b[i2[:, None], idx], self._obs[i1], self._obs[i2], v >= 0,
                self.n_values_, float(self.s), 0.0, K, lo=lo[p, k], hi=hi[p, k])
            res = np.full(len(c), np.inf)
            np.minimum.at(res, p, val)
            out[sl] = res
        return out

    def _exact_dominates(self, codes, rows, a, b):
        return self._exact_log_inf(codes, rows, a, b) > LOG_TIE

    def _log_ratio_codes(self, codes):
        K, B = len(self.classes_), codes.shape[0]
        a, b = self._pair_index()
        v = self._exact_log_inf(codes, np.repeat(np.arange(B), a.size), np.tile(a, B),
                                np.tile(b, B))
        return self._pair_matrix(v, B, 0.0)
