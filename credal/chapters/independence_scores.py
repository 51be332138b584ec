"""Chapter "Deciding independence of two binary variables" (notebook ``independence-scores``).

Serafín Moral's slides "Discovering independence": how often each score of
:mod:`credal.independence` decides correctly whether two binary variables are dependent,
and what the decision costs in log-loss.  Here: the slides' vocabulary of scores (``K2``,
``BD2``, ``IMP``, ``NEW``, ``BD2_ODDS5``, ...) and the rules they name (:func:`classifiers`);
the runs (:func:`run`: the slides' simulation, its exact expectation, the scans that identify
the slides' settings, BDeu structure learning on independent data); the tables
(:func:`tables`), the numbers for the text (:func:`numbers`), the headline rows
(:data:`HEADLINE`) and the figures.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from credal import datasets
from credal._validation import check_counts, check_int, check_positive
from credal.chapters._display import TEXT_WIDTH
from credal.chapters._verdicts import Headline, Headlines, Published, Reading
from credal.independence import (DEPENDENCE, IMP_TIE, IMP_VARIANTS, INDEPENDENCE, UNDECIDED,
                                 aic_score, bde_score, bdmod_score, bic_score, chi_score,
                                 conditional_log_loss, decide, estimate_conditional,
                                 estimate_joint, imp_score, imp_variant_score,
                                 imprecise_decision, imprecise_score_interval,
                                 imprecise_score_rule, joint_log_loss, k2_score,
                                 log_rising_factorial, prior_odds_decision, table_margins)
from credal.plotting import new_axes
from credal.structure import bdeu_network_score, hill_climb_bdeu

__all__ = ["classifiers", "run", "tables", "numbers", "HEADLINE", "CITATION", "SLIDES_MAP",
           "score_errors_figure", "effect_of_s_figure", "network_figure", "zscore_heatmap"]


# ------------------------------------------------- the slides' vocabulary of scores

_NUM = r"(\d+(?:\.\d+)?)"
_FIXED = {"K2": ("K2", None), "BIC": ("BIC", None), "AKA": ("AKA", None), "AIC": ("AKA", None),
          "IMP": ("IMP", 1.0)}
_PATTERNS = [(rf"CHI{_NUM}", "CHI"), (rf"BD{_NUM}MOD", "BDMOD"), (rf"BD{_NUM}MOD_CLS", "BDMOD_CLS"),
             (rf"BD{_NUM}_ODDS{_NUM}", "BD_ODDS"), (rf"BD{_NUM}", "BD"), (rf"IMP{_NUM}", "IMP"),
             (rf"IMP_([A-Z]+){_NUM}?", "IMP_VARIANT"), (rf"IMP_T{_NUM}", "IMP_T"),
             (rf"NEW{_NUM}?", "NEW"), (rf"NEW{_NUM}?_BOX", "NEW_BOX"), (rf"NEW{_NUM}?_BOX_PI", "NEW_BOX_PI"),
             (rf"NEW{_NUM}?_FULL", "NEW_FULL"), (rf"NEW{_NUM}?_FULL_PI", "NEW_FULL_PI")]


def _parse_score(name):
    """Map a score name to (kind, parameter); ValueError for an unknown name or a bad parameter."""
    if not isinstance(name, str):
        raise ValueError(f"score names must be strings; got {name!r}")
    if name in _FIXED:
        return _FIXED[name]
    for pat, kind in _PATTERNS:
        m = re.fullmatch(pat, name)
        if m is None or (kind == "IMP_VARIANT" and m.group(1) not in IMP_VARIANTS):
            continue  # e.g. IMP_T0.01, matched further on
        nums = [float(g) for g in m.groups() if g is not None and g not in IMP_VARIANTS]
        if kind == "CHI" and not 0 < nums[0] < 1:
            raise ValueError(f"score {name!r}: the CHI level must lie in (0, 1)")
        if kind != "IMP_T" and min(nums, default=1.0) <= 0:
            raise ValueError(f"score {name!r}: the parameter must be > 0")
        if kind == "IMP_VARIANT":
            return kind, (m.group(1), nums[0] if nums else 1.0)
        return kind, tuple(nums) if kind == "BD_ODDS" else (nums[0] if nums else 2.0)
    raise ValueError(f"unknown score {name!r}; known: CHI<alpha> (e.g. CHI0.05), K2, BD<S> (e.g. BD2), "
                     "BIC, AKA, IMP, IMP<s>, IMP_<VARIANT>[<s>] (variants: " + ", ".join(IMP_VARIANTS)
                     + "), IMP_T<t>, BD<S>MOD, BD<S>MOD_CLS, BD<S>_ODDS<k>, NEW[<S>], NEW[<S>]_BOX[_PI], "
                     "NEW[<S>]_FULL[_PI]")


#: the slides' eight scores (their tables' columns)
_DEFAULT_SCORES = ("CHI0.05", "CHI0.20", "K2", "BD2", "BD4", "BIC", "AKA", "IMP")


def _score_decisions(counts, scores=_DEFAULT_SCORES):
    """Decisions of several scores (the slides' names) on many tables at once.

    ``CHI<alpha>``: dependence iff CHI > 1 - alpha (``CHI0.05``); ``K2``; ``BD<S>``: BDe
    with sample size S (``BD2``, ``BD0.02``); ``BD<S>_ODDS<k>``: the same Bayes factor with
    prior odds ``k : 1`` for independence (dependence iff it exceeds k; the slides' "PRIOR",
    :func:`credal.independence.prior_odds_decision`); ``BIC``; ``AKA`` (alias ``AIC``);
    ``IMP`` / ``IMP<s>``: IDM upper entropy (s = 1 by default); ``IMP_<VARIANT>[<s>]``: the
    readings of :func:`credal.independence.imp_variant_score` (``IMP_GE`` decides an exact
    tie as dependence, ``IMP_HALF`` leaves it :data:`~credal.independence.UNDECIDED`, half
    an error in :func:`_exact_errors`); ``IMP_T<t>``: dependence iff IMP > t nats;
    ``BD<S>MOD`` / ``BD<S>MOD_CLS``: :func:`credal.independence.bdmod_score` (estimation /
    classification); the imprecise score with sample size S (default 2): ``NEW[<S>]`` is
    the slides' approximate method (independence unless the rule's lower Bayes factor
    exceeds 1), ``NEW[<S>]_BOX`` / ``NEW[<S>]_FULL`` the three-way rule on the optimised
    interval of the box / full parameter set, ``..._PI`` preferring independence.

    ``counts``: int array-like of shape ``(..., r, c)`` (2x2 for the imprecise intervals).
    Returns a dict name -> int8 ndarray of shape ``(...)``: ``DEPENDENCE``,
    ``INDEPENDENCE`` or (three-way only) ``UNDECIDED`` of :mod:`credal.independence`.
    """
    a = check_counts(counts)
    parsed = {name: _parse_score(name) for name in ([scores] if isinstance(scores, str) else scores)}
    n, cache = a.sum(axis=(-2, -1)), {}
    return {name: _decide_kind(a, kind, v, n, cache) for name, (kind, v) in parsed.items()}


def _decide_kind(a, kind, v, n, cache):
    """The decisions of one parsed score (:func:`_parse_score`) on the tables ``a``
    (``n``: their totals; ``cache``: scores shared between names)."""
    if kind == "CHI":  # one statistic for every level
        chi = cache["chi"] = cache["chi"] if "chi" in cache else chi_score(a)
        return decide(chi, 1.0 - v, atol=0.0)
    simple = {"K2": lambda: k2_score(a), "BD": lambda: bde_score(a, v), "BIC": lambda: bic_score(a),
              "AKA": lambda: aic_score(a), "BDMOD": lambda: bdmod_score(a, v, "estimation"),
              "BDMOD_CLS": lambda: bdmod_score(a, v, "classification")}
    if kind in simple:
        return decide(simple[kind](), n=n)
    if kind == "BD_ODDS":
        return prior_odds_decision(bde_score(a, v[0]), v[1], n=n)
    if kind == "IMP":
        return decide(imp_score(a, v), atol=IMP_TIE)
    if kind == "IMP_T":
        return decide(imp_score(a), v, atol=IMP_TIE)
    if kind == "IMP_VARIANT":
        sc = imp_variant_score(a, *v)
        if v[0] == "GE":
            return np.where(sc >= -IMP_TIE, DEPENDENCE, INDEPENDENCE).astype(np.int8)
        tie = np.abs(sc) <= IMP_TIE if v[0] == "HALF" else False
        return np.where(tie, UNDECIDED, decide(sc, atol=IMP_TIE)).astype(np.int8)
    if kind == "NEW":
        return imprecise_decision(imprecise_score_rule(a, v), prefer_independence=True, n=n)
    region = "box" if "BOX" in kind else "full"
    key = ("interval", region, v)
    lo, hi = cache[key] = cache[key] if key in cache else imprecise_score_interval(a, v, region)
    return imprecise_decision(lo, hi, prefer_independence=kind.endswith("_PI"), n=n)


_RULES = {  # what each kind of score decides, for the line-up's display
    "CHI": "likelihood-ratio test: dependence iff p < {v:g}",
    "K2": "K2 log Bayes factor (Dirichlet parameters 1) > 0",
    "BD": "BDe log Bayes factor, S = {v:g}, > 0",
    "BD_ODDS": "BDe log Bayes factor, S = {v[0]:g}, > ln {v[1]:g} (prior odds {v[1]:g} : 1 "
               "for independence)",
    "BIC": "BIC gain > 0", "AKA": "Akaike gain (penalty 1/2) > 0",
    "IMP": "IDM upper-entropy gain (s = {v:g}) > 0",
    "IMP_T": "IDM upper-entropy gain (s = 1) > {v:g} nats",
    "IMP_VARIANT": "reading of IMP (s = {v[1]:g}): {rule}",
    "BDMOD": "BDe (S = {v:g}) weighted by the KL loss of each choice (estimation) > 0",
    "BDMOD_CLS": "BDe (S = {v:g}) weighted by the KL loss of each choice (classification) > 0",
    "NEW": "imprecise BDe (S = {v:g}), the slides' approximate method: lower Bayes factor > 1",
}


@dataclass(frozen=True)
class _Score:
    """One score of the line-up: ``score(counts)``, its decisions; its repr, its rule."""

    name: str

    def __post_init__(self):
        _parse_score(self.name)

    def __call__(self, counts):
        return _score_decisions(counts, [self.name])[self.name]

    def __repr__(self):
        kind, v = _parse_score(self.name)
        if kind not in _RULES:  # NEW_BOX, NEW_FULL and their _PI versions
            return (f"imprecise BDe (S = {v:g}), optimised {'box' if 'BOX' in kind else 'full'} "
                    f"interval, three-way rule{', preferring independence' * kind.endswith('_PI')}")
        return _RULES[kind].format(v=v, rule=IMP_VARIANTS[v[0]] if kind == "IMP_VARIANT" else "")


def classifiers(scores=_DEFAULT_SCORES):
    """The line-up: each score the chapter compares and the decision rule it names.

    Parameters
    ----------
    scores : sequence of str
        Score names in the slides' vocabulary (see :func:`_score_decisions`), e.g.
        ``"CHI0.05"``, ``"K2"``, ``"BD2"``, ``"IMP"``, ``"NEW"``, ``"BD2_ODDS5"``.

    Returns
    -------
    dict of str -> callable
        ``classifiers(...)[name](counts)``: the decisions of that score on tables of
        counts of shape ``(..., r, c)`` (int8 codes of :mod:`credal.independence`); the
        repr of each is its rule in words.
    """
    return {name: _Score(name) for name in ([scores] if isinstance(scores, str) else scores)}


# -------------------------------------------------------- run: the slides' simulation


def _wide(df, true_model, value):
    """A tidy table (``true_model, size, score``) in the slides' layout: see
    :meth:`_SimulationResult.wide`."""
    if true_model == "total":
        g = df.groupby(["size", "score"], sort=False)[value]
        sub = (g.apply(lambda v: float(np.sqrt(np.sum(np.square(v))))) if value.endswith("_se")
               else g.sum()).reset_index()
    else:
        sub = df[df["true_model"] == true_model]
    return sub.pivot(index="size", columns="score", values=value)[list(dict.fromkeys(df["score"]))]


@dataclass
class _SimulationResult:
    """Output of :func:`_simulate_independence` (``n_pairs`` distributions per model).

    ``errors``: one row per (true_model, size, score): ``n_pairs``, ``n_dependence``,
    ``n_independence``, ``n_undecided``, ``errors`` (decisions other than the true model)
    and ``errors_se`` (binomial).  ``losses``: the same rows with the means over the pairs
    of ``kl_joint`` (KL of the true joint to the chosen model's estimate; undecided: the
    independence one), ``joint_log_loss`` (``KL + H(P)``) and ``conditional_log_loss`` (of
    ``Y | X``), each with its standard error ``<name>_se``.
    """

    errors: pd.DataFrame
    losses: pd.DataFrame
    n_pairs: int

    def wide(self, what="errors", true_model="dependence", value=None):
        """``what`` (``"errors"`` or ``"losses"``) in the slides' layout: one row per size, one
        column per score, the column ``value`` (default ``"errors"`` / ``"kl_joint"``); ``"total"``
        adds the two models (a standard error ``..._se``: root of the sum of squares)."""
        return _wide(getattr(self, what), true_model,
                     value or ("errors" if what == "errors" else "kl_joint"))


def _binomial_se(count, n):
    """Monte-Carlo standard error of a count of ``n`` Bernoulli trials."""
    p = count / n
    return float(np.sqrt(n * p * (1.0 - p)))


def _mean_se(values):
    """Standard error of a sample mean (0 for a single value)."""
    v = np.asarray(values, dtype=float)
    return float(np.std(v, ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0


def _priors(a):
    """The Dirichlet parameters of ``P_X`` and ``P_Y``, and of each ``P(Y | x)``: the slides'
    first experiment (``a`` None: Dir(1, 1) and Dir(0.5, 0.5)) or Dir(a, a) everywhere."""
    if a is None:
        return np.array([1.0, 1.0]), np.array([0.5, 0.5])
    return (np.full(2, check_positive("a", a)),) * 2


def _simulate_independence(sizes=(3, 5, 10, 20, 50, 100, 1000, 10000), n_pairs=10000, *, a=None,
                           scores=_DEFAULT_SCORES, random_state=None):
    """The slides' simulation: how often each score recovers (in)dependence.

    ``n_pairs`` independent (``P = P_X P_Y``) and ``n_pairs`` dependent (``P_X`` and each
    ``P(Y | x)`` drawn) joints of two binary variables: ``P_X, P_Y ~ Dir(1, 1)`` and
    ``P(Y | x) ~ Dir(0.5, 0.5)`` (the slides' first experiment), or every Dirichlet Dir(a, a).
    The same distributions serve every size of ``sizes``, each drawing a fresh multinomial
    sample; each score of ``scores`` decides on each table, and the estimate of the chosen
    model (:func:`credal.independence.estimate_joint`, S = 2) is scored against the truth.
    ``random_state`` seeds the draws.  Vectorised; identical tables are scored once.
    Returns a :class:`_SimulationResult`.
    """
    sizes = [check_int("sizes", s, 1) for s in np.atleast_1d(sizes).tolist()]
    n_pairs = check_int("n_pairs", n_pairs, 1)
    scores = [scores] if isinstance(scores, str) else list(scores)
    ax, ayx = _priors(a)
    rng = np.random.default_rng(random_state)
    px = rng.dirichlet(ax, size=(2, n_pairs))  # [independence, dependence]
    truths = {"independence": px[0][:, :, None] * rng.dirichlet(ax, size=n_pairs)[:, None, :],
              "dependence": px[1][:, :, None] * rng.dirichlet(ayx, size=(n_pairs, 2))}
    rows = [r for size in sizes for model in ("dependence", "independence")
            for r in _simulate_size(truths[model], model, size, scores, rng)]
    return _SimulationResult(pd.DataFrame([e for e, _ in rows]), pd.DataFrame([lo for _, lo in rows]),
                             n_pairs)


def _simulate_size(P, model, size, scores, rng):
    """One sample of ``size`` cases from each true joint ``P`` (shape (n_pairs, 2, 2)) of
    ``model``, decided by every score: a (row of ``errors``, row of ``losses``) of
    :class:`_SimulationResult` per score."""
    n_pairs = len(P)
    H_true = -np.sum(special.xlogy(P, P), axis=(-2, -1))
    flat = P.reshape(n_pairs, 4)
    counts = rng.multinomial(size, flat / flat.sum(axis=1, keepdims=True))
    uniq, inv = np.unique(counts, axis=0, return_inverse=True)
    uniq, inv = uniq.reshape(-1, 2, 2), inv.ravel()
    dec_u = _score_decisions(uniq, scores)
    # Losses of both estimates (dependence: True), per pair.
    ce_ = {dep: joint_log_loss(P, estimate_joint(uniq, dep, 2.0)[inv]) for dep in (True, False)}
    cl_ = {dep: conditional_log_loss(P, estimate_conditional(uniq, dep, 2.0)[inv]) for dep in (True, False)}
    truth, out = DEPENDENCE if model == "dependence" else INDEPENDENCE, []
    for name in scores:
        d = dec_u[name][inv]
        ce, cl = (np.where(d == DEPENDENCE, x[True], x[False]) for x in (ce_, cl_))
        key, wrong = {"true_model": model, "size": size, "score": name}, int(np.sum(d != truth))
        out.append(({**key, "n_pairs": n_pairs, "n_dependence": int(np.sum(d == DEPENDENCE)),
                     "n_independence": int(np.sum(d == INDEPENDENCE)),
                     "n_undecided": int(np.sum(d == UNDECIDED)), "errors": wrong,
                     "errors_se": _binomial_se(wrong, n_pairs)},
                    {**key, "kl_joint": float(np.mean(ce - H_true)), "joint_log_loss": float(np.mean(ce)),
                     "conditional_log_loss": float(np.mean(cl)), "kl_joint_se": _mean_se(ce - H_true),
                     "joint_log_loss_se": _mean_se(ce), "conditional_log_loss_se": _mean_se(cl)}))
    return out


# ------------------------------------------------------------ run: exact expectations


def _all_tables(size):
    """Every 2x2 table of counts that sums to ``size`` (an int N >= 0), in lexicographic order
    of the flattened cells (the first varies slowest): int ndarray ``(C(N + 3, 3), 2, 2)``."""
    return np.array([(i, j, k, size - i - j - k) for i in range(size + 1) for j in range(size + 1 - i)
                     for k in range(size + 1 - i - j)], dtype=np.int64).reshape(-1, 2, 2)


def _log_dm(counts, alpha):
    """ln of the Dirichlet-multinomial probability of an ordered sequence with these counts."""
    A = alpha.sum()
    n = counts.sum(axis=-1)
    return (special.gammaln(A) - special.gammaln(A + n)
            + np.sum(log_rising_factorial(alpha, counts), axis=-1))


def _table_probabilities(tables, a=None):
    """Exact probability of each table (``tables``: shape ``(T, 2, 2)``, all tables of one
    size) under the two models of :func:`_simulate_independence` (same ``a``): the
    multinomial integrated over the Dirichlet draws (Dirichlet-multinomial).  Returns
    ``p_dependence, p_independence``, two ndarrays of shape ``(T,)``, each summing to 1."""
    t = check_counts(tables)
    ax, ayx = _priors(a)
    nx, my, n = table_margins(t)
    lmult = special.gammaln(n + 1) - np.sum(special.gammaln(t + 1), axis=(-2, -1))
    lx = _log_dm(nx, ax)
    return np.exp(lmult + lx + np.sum(_log_dm(t, ayx), axis=-1)), np.exp(lmult + lx + _log_dm(my, ax))


def _exact_errors(sizes, scores=_DEFAULT_SCORES, *, a=None, n_pairs=10000, undecided_error=1.0,
                  known=None):
    """Expected error counts of :func:`_simulate_independence` (same ``a``), computed exactly:
    every table of each size (:func:`_all_tables`; 176 851 at N = 100) decided by each score
    and weighted by its probability under each model (:func:`_table_probabilities`), scaled
    to ``n_pairs`` pairs per model, with the binomial SE of such a simulation.  An
    ``UNDECIDED`` decision counts as ``undecided_error`` of an error (0.5: a fair coin, for
    ``IMP_HALF``).  Columns ``true_model, size, score, errors`` (an expectation), ``errors_se``.
    ``known``: a dict, size -> (tables, probabilities), that calls of one run with the same ``a``
    share (filled here), so that each size's tables are enumerated and weighed once."""
    rows, known = [], {} if known is None else known
    for size in np.atleast_1d(sizes):
        if int(size) not in known:
            known[int(size)] = (T := _all_tables(int(size))), _table_probabilities(T, a)
        T, probs = known[int(size)]
        rows += _expected_rows(size, _score_decisions(T, scores), probs, n_pairs, undecided_error)
    return pd.DataFrame(rows)


def _expected_rows(size, dec, probs, n_pairs, undecided_error=None):
    """The rows of :func:`_exact_errors` at one size for the decisions ``dec`` (score ->
    decisions on all tables) and ``probs`` (the tables' probabilities under each model);
    ``undecided_error`` None: the plain sum over the wrong tables (as the scan sums)."""
    rows = []
    for name, d in dec.items():
        for model, p, truth in zip(("dependence", "independence"), probs, (DEPENDENCE, INDEPENDENCE)):
            wrong = d != truth
            rate = p[wrong].sum() if undecided_error is None else np.sum(
                p * np.where(d == UNDECIDED, float(undecided_error), wrong.astype(float)))
            rate = float(np.clip(rate, 0.0, 1.0))
            rows.append({"true_model": model, "size": int(size), "score": name, "errors": n_pairs * rate,
                         "errors_se": float(np.sqrt(n_pairs * rate * (1 - rate)))})
    return rows


# ----------------------------------- run: BDeu networks learned from independent data


def _learn_from_independent_data(n_vars=12, n_cases=4, *, S=1.0, n_repeats=100, random_state=None):
    """The slides' warning: BDeu hill climbing on a few cases of independent variables.

    ``n_repeats`` times: ``n_cases`` cases of ``n_vars`` independent binary variables (each
    probability from Dir(1, 1)), a DAG learned by :func:`credal.structure.hill_climb_bdeu`
    (BDeu sample size ``S``; the true graph has no arc); ``random_state`` seeds the data and
    the tie-breaking.  Returns ``runs`` (one row per repetition: ``arcs`` ``"u>v"``, 0-based;
    ``skeleton`` ``"u-v"``, u < v; ``n_arcs``, ``n_isolated``, ``max_in_degree``, ``score``,
    ``empty_score``: BDeu of the empty graph; ``n_moves``) and the first repetition's result.
    """
    arities, rows, first = np.full(n_vars, 2), [], None
    for i, seed in enumerate(np.random.SeedSequence(random_state).spawn(int(n_repeats))):
        rng = np.random.default_rng(seed)
        probs, u = rng.dirichlet(np.array([1.0, 1.0]), size=n_vars), rng.random((n_cases, n_vars))
        data = (u[:, :, None] > np.cumsum(probs, axis=1)[None, :, :-1]).sum(axis=2)
        res = hill_climb_bdeu(data, arities=arities, S=S, random_state=rng)
        skeleton = sorted({tuple(sorted(e)) for e in res.edges})
        rows.append({"repeat": i, "arcs": " ".join(f"{u}>{v}" for u, v in res.edges),
                     "skeleton": " ".join(f"{u}-{v}" for u, v in skeleton),
                     "n_arcs": len(res.edges), "n_isolated": res.n_isolated,
                     "max_in_degree": max(len(p) for p in res.parents), "score": res.score,
                     "empty_score": bdeu_network_score(data, [()] * n_vars, arities=arities, S=S),
                     "n_moves": res.n_moves})
        first = res if i == 0 else first
    return pd.DataFrame(rows), first


def _learned_networks_by_S(S_values, n_vars=12, n_cases=4, *, n_repeats=100, random_state=None):
    """:func:`_learn_from_independent_data` for each ``S`` of ``S_values`` on the same data and
    seeds (differences between rows are due to ``S`` alone).  Index ``S``; columns ``arcs``,
    ``arcs_se``, ``isolated``, ``isolated_se``, ``gain`` (mean BDeu gain over the empty graph),
    ``same_skeleton`` (share of repetitions with the first ``S``'s arcs, ignoring direction)."""
    rows, ref = {}, None
    for S in S_values:
        runs, _ = _learn_from_independent_data(n_vars, n_cases, S=S, n_repeats=n_repeats,
                                               random_state=random_state)
        ref = runs["skeleton"].to_numpy() if ref is None else ref
        rows[float(S)] = {
            "arcs": float(runs["n_arcs"].mean()), "arcs_se": _mean_se(runs["n_arcs"]),
            "isolated": float(runs["n_isolated"].mean()), "isolated_se": _mean_se(runs["n_isolated"]),
            "gain": float((runs["score"] - runs["empty_score"]).mean()),
            "same_skeleton": float(np.mean(runs["skeleton"].to_numpy() == ref))}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("S")


def _summarise_learned_networks(runs):
    """Mean, standard error and range (columns ``mean, se, min, max``) of the statistics of
    :func:`_learn_from_independent_data`'s ``runs``, one row each: arcs, isolated variables,
    largest parent set, BDeu gain of the learned graph over the true empty graph."""
    stats_ = {"arcs": runs["n_arcs"], "isolated variables": runs["n_isolated"],
              "largest parent set": runs["max_in_degree"],
              "BDeu gain over the true (empty) graph": runs["score"] - runs["empty_score"]}
    out = pd.DataFrame({k: {"mean": float(v.mean()), "se": _mean_se(v), "min": float(v.min()),
                            "max": float(v.max())} for k, v in stats_.items()}).T
    return out.rename_axis("statistic")


# -------------------------------------------- tables: the slides' numbers beside ours


def _published_table(name, true_model=None, rename=None):
    """One of the slides' tables (``data/published/<name>.csv``), wide, indexed by ``size``:
    of the long ``moral_prior_new``, the rows of ``true_model``; columns renamed by
    ``rename`` (dict or callable: published column -> our score name)."""
    df = datasets.published(name)
    if true_model is not None:
        df = df[df["true_model"] == true_model].drop(columns="true_model")
    df = df.set_index("size")
    return df.rename(columns=rename) if rename else df


def _common_cells(wide, published):
    """The (size, score) cells of a wide table that a published one also has, in order."""
    return [(size, score) for size in wide.index if size in published.index
            for score in wide.columns if score in published.columns]


def _compare_with_published(result, published, *, what="errors", true_model="dependence",
                            value=None, n_pairs_published=10000):
    """Our simulated table beside a published one, cell by cell, with z-scores.

    ``result``: a :class:`_SimulationResult`, of which ``what, true_model, value`` pick a
    table (:meth:`_SimulationResult.wide`); ``published``: wide, indexed by ``size``,
    simulated with ``n_pairs_published`` pairs per model.  A count is binomial: ours is
    rescaled, the published SE is ours times ``sqrt(n_published / n_ours)``; a mean's is
    ours times ``sqrt(n_ours / n_published)`` plus the rounding of the printed value.
    Columns ``size, score, ours, ours_se, published, difference, se_difference, z``."""
    value = value or ("errors" if what == "errors" else "kl_joint")
    count = what == "errors"
    ours, se = result.wide(what, true_model, value), result.wide(what, true_model, value + "_se")
    n_ours = int(result.n_pairs)
    scale = n_pairs_published / n_ours if count else 1.0
    pub_factor = np.sqrt(n_pairs_published / n_ours) if count else np.sqrt(n_ours / n_pairs_published)
    rows = []
    for size, score in _common_cells(ours, published):
        o, s = float(ours.loc[size, score]) * scale, float(se.loc[size, score]) * scale
        p = float(published.loc[size, score])
        # The published value's own Monte-Carlo error, estimated from ours, and
        # for printed means the rounding to the printed decimals (uniform error).
        sp = float(se.loc[size, score]) * pub_factor
        if not count:
            sp = float(np.hypot(sp, _printed_resolution(p) / np.sqrt(12.0)))
        sd = float(np.sqrt(s * s + sp * sp))
        rows.append({"size": int(size), "score": score, "ours": o, "ours_se": s, "published": p,
                     "difference": o - p, "se_difference": sd,
                     "z": _z(o - p, sd, tol=1e-9 if count else 1e-12)})
    return pd.DataFrame(rows, columns=["size", "score", "ours", "ours_se", "published",
                                       "difference", "se_difference", "z"])


def _exact_agreement(published, exact, true_model="total"):
    """Published counts (wide, indexed by size) against exact expectations (``exact``:
    :func:`_exact_errors`) for ``true_model`` (or ``"total"``), one z-score per cell of both:
    the expectation has no Monte-Carlo error, the published count its simulation's binomial
    one (``errors_se``).  Columns ``size, score, expected, se, published, z``."""
    wide, se = _wide(exact, true_model, "errors"), _wide(exact, true_model, "errors_se")
    rows = []
    for size, score in _common_cells(wide, published):
        e, s = float(wide.loc[size, score]), float(se.loc[size, score])
        p = float(published.loc[size, score])
        rows.append({"size": int(size), "score": score, "expected": e, "se": s,
                     "published": p, "z": _z(p - e, s)})
    return pd.DataFrame(rows, columns=["size", "score", "expected", "se", "published", "z"])


def _printed_resolution(x):
    """Last printed digit of a transcribed number, e.g. 1e-5 for 0.00016."""
    txt = np.format_float_positional(float(x), trim="-")
    return 10.0 ** (-(len(txt.split(".")[1]) if "." in txt else 0))


def _z(diff, se, tol=1e-9):
    if se > tol:
        return diff / se
    return 0.0 if abs(diff) <= 0.5 else float(np.sign(diff) * np.inf)


def _agreement_summary(df):
    z = np.abs(df["z"].to_numpy(dtype=float))
    return {"cells": int(len(z)), "rms_z": float(np.sqrt(np.mean(np.square(z)))),
            "max_abs_z": float(np.max(z)), "beyond_3_se": int(np.sum(z > 3))}


def _agreement_by_score(comparisons):
    """Per-score summary (index ``score``, in order of appearance; columns ``cells``,
    ``rms_z``, ``max_abs_z``, ``beyond_3_se``, ``worst_size``: the size of the largest |z|)
    of several comparisons together (:func:`_exact_agreement`, :func:`_compare_with_published`)."""
    df = pd.concat(list(comparisons), ignore_index=True)
    rows = {}
    for score in dict.fromkeys(df["score"]):
        sub = df[df["score"] == score]
        worst = int(sub["size"].iloc[int(np.argmax(np.abs(sub["z"].to_numpy(dtype=float))))])
        rows[score] = {**_agreement_summary(sub), "worst_size": worst}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("score")


# -------------------------------- tables: readings of IMP and of the slides' settings


def _published_imp():
    """The slides' IMP column under dependence and under independence (10 000 pairs each)."""
    return {m: _published_table(f"moral_errors_{m}")["IMP"] for m in ("dependence", "independence")}


def _imp_variant_check(names, sizes, known=None):
    """Exact check of readings of IMP (``names``: ``IMP<s>``, ``IMP_T<t>``, ``IMP_<VARIANT>[<s>]``)
    against the slides' IMP column under each model, at ``sizes`` (``IMP_HALF``'s ties: half
    an error, a fair coin's expectation): :func:`_agreement_by_score`'s table with a first
    column ``reading`` (in words); ``known`` as for :func:`_exact_errors`."""
    names, parts, readings, known = list(names), [], [], {} if known is None else known
    for name in names:
        kind, v = _parse_score(name)
        if kind not in ("IMP", "IMP_VARIANT", "IMP_T"):
            raise ValueError(f"{name!r} is not a reading of IMP")
        half = kind == "IMP_VARIANT" and v[0] == "HALF"
        parts.append(_exact_errors(sizes, [name], undecided_error=0.5 if half else 1.0,
                                   known=known))
        readings.append(f"as stated, s = {v:g}" if kind == "IMP" else
                        f"as stated, threshold {v:g} nats" if kind == "IMP_T" else
                        IMP_VARIANTS[v[0]] + ("" if v[1] == 1.0 else f" (s = {v[1]:g})"))
    exact = pd.concat(parts, ignore_index=True)
    out = _agreement_by_score([_exact_agreement(pd.DataFrame({n: pub for n in names}), exact, model)
                               for model, pub in _published_imp().items()])
    out.insert(0, "reading", out.index.map(dict(zip(names, readings))))
    return out


def _imp_threshold_fit(sizes, n_pairs=10000, known=None):
    """Can a decision threshold on the stated IMP reproduce the slides' IMP column?  At each
    size of ``sizes``, the threshold ``t >= 0`` (nats; dependence iff IMP > t; 0 or a value
    IMP takes) whose exact errors under dependence come closest to the published count, and
    its errors under independence against the published ones.  Index ``size``; columns
    ``threshold``, ``{dependence,independence}_{expected,published,z}`` (z in binomial SEs;
    ``known`` as for :func:`_exact_errors`)."""
    rows, pub, known = {}, _published_imp(), {} if known is None else known
    for size in sizes:
        if int(size) not in known:
            known[int(size)] = (T := _all_tables(int(size))), _table_probabilities(T)
        T, (pdep, pind) = known[int(size)]
        v = imp_score(T, 1.0)
        cand = np.unique(np.concatenate([[0.0], v[v > IMP_TIE]]))
        # Dependence declared iff v > t + tol: errors under dependence grow with t.
        order = np.argsort(v)
        vs, cum = v[order], np.cumsum(pdep[order])
        k = np.searchsorted(vs, cand + IMP_TIE, side="right")
        err_dep = n_pairs * np.where(k > 0, cum[np.maximum(k - 1, 0)], 0.0)
        target = float(pub["dependence"].loc[size])
        best = int(np.argmin(np.abs(err_dep - target)))
        t, ed = float(cand[best]), float(err_dep[best])
        ei = float(n_pairs * pind[v > t + IMP_TIE].sum())
        pub_i = float(pub["independence"].loc[size])
        rows[int(size)] = {
            "threshold": t, "dependence_expected": ed, "dependence_published": target,
            "dependence_z": _z(target - ed, _binomial_se(ed, n_pairs)),
            "independence_expected": ei, "independence_published": pub_i,
            "independence_z": _z(pub_i - ei, _binomial_se(ei, n_pairs))}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("size")


def _scan_symmetric_priors(alphas, sizes, scores=_DEFAULT_SCORES):
    """Which Dir(a, a) everywhere (``a`` of ``alphas``) best explains the slides'
    "Dir(0.5, 0.5)" table of total errors: its cells against the exact expectations
    (:func:`_exact_agreement`) at ``sizes`` (small enough to enumerate), for ``scores``.
    Index ``a``; columns ``cells``, ``rms_z``, ``max_abs_z``, ``beyond_3_se``."""
    published = _published_table("moral_errors_dir0505")
    scores = [s for s in scores if s in published.columns]
    decided = {n: (T, _score_decisions(T, scores))
               for n in sizes if n in published.index for T in [_all_tables(n)]}
    rows = {float(a): _agreement_summary(_exact_agreement(published, pd.DataFrame(
        [r for n, (T, dec) in decided.items()
         for r in _expected_rows(n, dec, _table_probabilities(T, a), 10000)]), "total"))
        for a in alphas}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("a")


def _scan_prior_odds(odds_values, sizes, known=None):
    """Which prior odds ``k`` (of ``odds_values``) make BDe (S = 2) reproduce the slides' "PRIOR"
    column (100 000 pairs per model): ``BD2_ODDS<k>``'s exact errors at ``sizes`` against it
    under each model.  Index ``odds``; columns ``p_dependence`` (1/(1+k)), ``cells``, ``rms_z``,
    ``max_abs_z``, ``beyond_3_se`` (``known`` as for :func:`_exact_errors`)."""
    rows, known = {}, {} if known is None else known
    for k in odds_values:
        name = f"BD2_ODDS{float(k):g}"
        ex = _exact_errors(sizes, [name], n_pairs=100000, known=known)
        parts = [_exact_agreement(_published_table("moral_prior_new", model, {"PRIOR": name}), ex, model)
                 for model in ("dependence", "independence")]
        rows[float(k)] = {"p_dependence": 1.0 / (1.0 + float(k)),
                          **_agreement_summary(pd.concat(parts, ignore_index=True))}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("odds")


# ------------------------------------------------------------------- the chapter's run

#: the readings of IMP the chapter checks at the slides' scale
_IMP_READINGS = ("IMP0.75", "IMP1", "IMP1.25", "IMP1.5", "IMP_SWAP", "IMP_GE", "IMP_HALF",
                 "IMP_ROWS", "IMP_JOINT", "IMP_JOINTCOND", "IMP_WSMOOTH", "IMP_WMAXENT", "IMP_SYM",
                 "IMP_NS", "IMP_CREDAL", "IMP_UPEXP", "IMP_LOEXP")


def run(*, n_pairs=10000, sizes=(3, 5, 10, 20, 50, 100, 1000, 10000),
        variant_sizes=(3, 5, 10, 20, 50, 100, 1000), scores=_DEFAULT_SCORES, n_pairs_s=100000,
        s_scores=("BD0.02", "BD0.2", "BD1.0", "BD1.6", "BD2", "BD4", "BD16"), prior_odds=5.0,
        exact_sizes=(3, 5, 10, 20, 50, 100), imp_variants=_IMP_READINGS,
        alphas=(0.2, 0.225, 0.25, 0.275, 0.3, 0.5), odds_values=(1.0, 3.0, 4.0, 5.0, 6.0),
        network_vars=12, network_cases=4, network_S=10.0, network_repeats=100,
        network_S_values=(0.1, 1.0, 10.0), seed=2024):
    """Every simulation, exact expectation, scan and network search of the chapter.

    Defaults: the slides' scale (the notebook's parameters); each simulation has its own
    seed (``seed``, ``seed + 1``, ...).  ``n_pairs`` distributions per model at ``sizes`` in
    the first experiment (``scores``, BD2MOD, BD2MOD_CLS) and at ``variant_sizes`` with
    Dir(2, 2), Dir(0.5, 0.5) and the best-fitting Dir(a, a) (of ``alphas``) everywhere;
    ``n_pairs_s`` in the effect-of-S study (``s_scores``, NEW, ``BD2_ODDS<prior_odds>``).
    Exact expectations at ``exact_sizes``: ``scores``, ``s_scores``, the readings of IMP
    (``imp_variants``, with ``IMP1``, ``IMP_SWAP``), the prior odds ``odds_values``.  BDeu
    search: ``network_repeats`` samples of ``network_cases`` cases of ``network_vars``
    independent variables, with ``S = network_S`` and each of ``network_S_values``.

    Returns
    -------
    dict
        ``exp1``, ``exp22``, ``exp05``, ``exp025``, ``expS`` (:class:`_SimulationResult`);
        ``exact1``, ``exactS`` (:func:`_exact_errors`); ``imp_check``, ``imp_thr``, ``scan``,
        ``odds_scan`` (:func:`_imp_variant_check`, :func:`_imp_threshold_fit`,
        :func:`_scan_symmetric_priors`, :func:`_scan_prior_odds`); ``best_a``;
        ``network_runs``, ``network_first`` (:func:`_learn_from_independent_data`),
        ``network_by_S`` (:func:`_learned_networks_by_S`); ``settings`` (the parameters).
    """
    settings, scores, sim = dict(locals()), list(scores), _simulate_independence
    known = {}  # each exact size's tables and probabilities (the default prior), for this run
    scan = _scan_symmetric_priors(alphas, exact_sizes, scores)
    best_a = float(scan["rms_z"].idxmin())
    runs, first = _learn_from_independent_data(network_vars, network_cases, S=network_S,
                                               n_repeats=network_repeats, random_state=seed)
    return {
        "exp1": sim(sizes, n_pairs, scores=scores + ["BD2MOD", "BD2MOD_CLS"], random_state=seed),
        **{k: sim(variant_sizes, n_pairs, a=a, scores=scores, random_state=seed + i)
           for i, (k, a) in enumerate((("exp22", 2.0), ("exp05", 0.5), ("exp025", best_a)), 1)},
        "expS": sim(variant_sizes, n_pairs_s, scores=[*s_scores, "NEW", f"BD2_ODDS{prior_odds:g}"],
                    random_state=seed + 4),
        "exact1": _exact_errors(exact_sizes, scores, known=known),
        "exactS": _exact_errors(exact_sizes, s_scores, n_pairs=100000, known=known),
        "imp_check": _imp_variant_check(dict.fromkeys(["IMP1", "IMP_SWAP", *imp_variants]),
                                        exact_sizes, known),
        "imp_thr": _imp_threshold_fit(exact_sizes, known=known), "scan": scan, "best_a": best_a,
        "odds_scan": _scan_prior_odds(odds_values, exact_sizes, known),
        "network_runs": runs, "network_first": first,
        "network_by_S": _learned_networks_by_S(network_S_values, network_vars, network_cases,
                                               n_repeats=network_repeats, random_state=seed),
        "settings": settings,
    }


# ------------------------------------------------------------------ the chapter's tables


def tables(results):
    """Every table the chapter shows or saves, from :func:`run`'s results.

    Parameters
    ----------
    results : dict
        Output of :func:`run`.

    Returns
    -------
    dict of str -> DataFrame
        Keyed by the file name under ``results/independence-scores/``: the comparisons with
        the slides (:func:`_compare_with_published`: ``errors_{dependence,independence,
        total}``, ``kl_*``, ``loglik_dir22``, ``errors_dir0505_{as_stated,read_as_best_a}``,
        ``effect_of_S_*``, ``bd2mod_*``, ``imprecise_score_*``); the exact checks and scans
        (``exact_check_{errors,effect_of_S,imp_variants}``, ``imp_threshold_fit``,
        ``dir0505_prior_scan``, ``prior_odds_scan``); ``loglik_dir0505_ours``;
        ``network_summary``, ``network_by_S`` (two decimals); and for the text
        ``network_runs`` and ``settings`` (the run's parameters, column ``value``).
    """
    r, cmp, models = results, _compare_with_published, ("dependence", "independence", "total")
    exp1, expS, pub05 = r["exp1"], r["expS"], _published_table("moral_errors_dir0505")
    pubS = {m: _published_table(f"moral_effect_of_S_{m}", rename=lambda c: "BD" + c[2:]) for m in models[:2]}
    names_new = {"BDe_S2": "BD2", "PRIOR": f"BD2_ODDS{r['settings']['prior_odds']:g}"}
    t = {}
    for m in models:
        t[f"errors_{m}"] = cmp(exp1, _published_table(f"moral_errors_{m}"), true_model=m)
        t[f"kl_{m}"] = cmp(exp1, _published_table(f"moral_kl_{m}"), what="losses", true_model=m)
    for m in models[:2]:
        t[f"effect_of_S_{m}"] = cmp(expS, pubS[m], true_model=m, n_pairs_published=100000)
        t[f"imprecise_score_{m}"] = cmp(expS, _published_table("moral_prior_new", m, names_new),
                                        true_model=m, n_pairs_published=100000)
    t["exact_check_errors"] = _agreement_by_score([
        _exact_agreement(_published_table(f"moral_errors_{m}"), r["exact1"], m) for m in models[:2]])
    t["exact_check_effect_of_S"] = _agreement_by_score([_exact_agreement(pubS[m], r["exactS"], m)
                                                        for m in models[:2]])
    t["loglik_dir22"] = cmp(r["exp22"], _published_table("moral_expected_loglik_dir22"),
                            what="losses", true_model="total", value="joint_log_loss")
    t["errors_dir0505_as_stated"] = cmp(r["exp05"], pub05, true_model="total")
    t["errors_dir0505_read_as_best_a"] = cmp(r["exp025"], pub05, true_model="total")
    t["loglik_dir0505_ours"] = r["exp05"].wide("losses", "total", "joint_log_loss").round(4)
    t["bd2mod_estimation"] = cmp(exp1, _published_table("moral_bd2mod_estimation"), what="losses",
                                 true_model="total", value="joint_log_loss")
    t["bd2mod_classification"] = cmp(
        exp1, _published_table("moral_bd2mod_classification", rename={"BD2MOD": "BD2MOD_CLS"}),
        what="losses", true_model="total", value="conditional_log_loss")
    t.update(exact_check_imp_variants=r["imp_check"], imp_threshold_fit=r["imp_thr"],
             dir0505_prior_scan=r["scan"], prior_odds_scan=r["odds_scan"],
             network_summary=_summarise_learned_networks(r["network_runs"]).round(2),
             network_by_S=r["network_by_S"].round(2), network_runs=r["network_runs"],
             settings=pd.DataFrame({"value": pd.Series(r["settings"], dtype=object)}))
    return t


# ------------------------------------------------------------ the numbers of the text


def _summary(t, prefix, *keys, digits=1):
    """Counts for the text of the comparisons ``t[key]`` together, named ``<prefix>_beyond``
    (cells with |z| > 3), ``<prefix>_cells``, ``<prefix>_maxz`` (the largest |z|, ``digits``
    decimals) and ``<prefix>_flagged`` (``score@size`` of the cells beyond, or "none")."""
    c = pd.concat([t[k] for k in keys])
    z = np.abs(c["z"].to_numpy(dtype=float))
    bad = c[z > 3.0]
    return {f"{prefix}_beyond": len(bad), f"{prefix}_cells": len(z),
            f"{prefix}_maxz": f"{float(np.max(z)) if len(z) else 0.0:.{digits}f}",
            f"{prefix}_flagged": ", ".join(f"{s}@{n}" for s, n in zip(bad["score"], bad["size"])) or "none"}


def _best(comparison, size, worst=False):
    """The score with the fewest (most) of ours at ``size``, ties to the first in order."""
    c = comparison[comparison["size"] == size]
    return c.loc[c["ours"].idxmax() if worst else c["ours"].idxmin(), "score"]


def numbers(tables):
    """Every number the chapter's text quotes, by name, formatted as printed.

    Parameters
    ----------
    tables : dict of str -> DataFrame
        Output of :func:`tables`.

    Returns
    -------
    dict of str -> str
        The notebook's glue names (e.g. ``errdep_beyond``, ``imp_best_variant``, ``best_a``,
        ``net_arcs``), and ``cells_beyond`` / ``cells_total``: the cells of the original
        and Dir(2, 2) comparisons beyond three standard errors, and all of them.
    """
    out = {}
    for part in (_numbers_errors, _numbers_imp, _numbers_variants, _numbers_network):
        out.update({k: str(v) for k, v in part(tables, tables["settings"]["value"]).items()})
    return out


def _numbers_errors(t, s):
    tot = t["errors_total"]
    keys = ("errors_dependence", "errors_independence", "kl_dependence", "kl_independence", "loglik_dir22",
            "effect_of_S_independence", "effect_of_S_dependence", "bd2mod_estimation",
            "bd2mod_classification", "imprecise_score_independence", "imprecise_score_dependence")
    return {"n_pairs": f"{s['n_pairs']:,}".replace(",", " "),
            "n_pairs_s": f"{s['n_pairs_s']:,}".replace(",", " "),
            "largest_size": f"{max(s['sizes']):,}".replace(",", " "),
            **_summary(t, "errdep", "errors_dependence"), **_summary(t, "errind", "errors_independence"),
            **_summary(t, "errtot", "errors_total"), "err_cells": len(t["errors_dependence"]),
            **_summary(t, "kl", "kl_dependence", "kl_independence", "kl_total"),
            "bd2_best_sizes": [_best(tot, n) for n in dict.fromkeys(tot["size"])].count("BD2"),
            "n_sizes": len(s["sizes"]), **_summary(t, "cells", *keys),
            "cells_total": sum(len(t[k]) for k in keys)}


def _numbers_imp(t, s):
    exact, chk, thr = t["exact_check_errors"], t["exact_check_imp_variants"], t["imp_threshold_fit"]
    best, k = chk["rms_z"].idxmin(), thr["independence_z"].abs().idxmax()
    return {"imp_exact_z": f"{exact.loc['IMP', 'max_abs_z']:.1f}",
            "imp_exact_n": int(exact.loc["IMP", "worst_size"]),
            "others_exact_z": f"{exact.drop(index='IMP')['max_abs_z'].max():.1f}",
            "imp_best_variant": best, "imp_best_rms": f"{chk['rms_z'].min():.1f}",
            "imp_best_max": f"{chk.loc[best, 'max_abs_z']:.1f}",
            "imp_best_worst": int(chk.loc[best, "worst_size"]),
            "imp_best_beyond": int(chk.loc[best, "beyond_3_se"]), "imp_n_variants": len(chk),
            "imp_fits": int((chk["max_abs_z"] <= 3).sum()),
            "imp_swap_rms": f"{chk.loc['IMP_SWAP', 'rms_z']:.2f}",
            "imp_rms": f"{chk.loc['IMP1', 'rms_z']:.2f}", "thr_n": int(k),
            "thr_t": f"{thr.loc[k, 'threshold']:.4f}",
            "thr_ind": f"{thr.loc[k, 'independence_expected']:.0f}",
            "thr_ind_pub": f"{thr.loc[k, 'independence_published']:.0f}",
            "thr_z": f"{thr['independence_z'].abs().max():.1f}"}


def _numbers_variants(t, s):
    scan, odds, exS = t["dir0505_prior_scan"], t["prior_odds_scan"], t["exact_check_effect_of_S"]
    a, k, largest = float(scan["rms_z"].idxmin()), odds["rms_z"].idxmin(), max(s["variant_sizes"])
    return {**_summary(t, "ll22", "loglik_dir22"), **_summary(t, "e05", "errors_dir0505_as_stated", digits=0),
            "best_a": f"{a:g}", "best_a_sum": f"{2 * a:g}", "best_a_rms": f"{scan['rms_z'].min():.2f}",
            "best_a_max": f"{scan.loc[a, 'max_abs_z']:.1f}",
            **_summary(t, "e025", "errors_dir0505_read_as_best_a"),
            "e025_best": _best(t["errors_dir0505_read_as_best_a"], largest),
            "e025_worst": _best(t["errors_dir0505_read_as_best_a"], largest, worst=True),
            "max_variant_size": largest,
            **_summary(t, "effS", "effect_of_S_independence", "effect_of_S_dependence"),
            "exactS_max": f"{exS['max_abs_z'].max():.1f}", "exactS_worst": exS["max_abs_z"].idxmax(),
            **_summary(t, "mod", "bd2mod_estimation", "bd2mod_classification"),
            "best_odds": f"{k:g}", "best_odds_p": f"1/{1 + k:g}",
            "best_odds_rms": f"{odds['rms_z'].min():.2f}", "prior_odds": f"{s['prior_odds']:g}",
            **_summary(t, "new", "imprecise_score_independence", "imprecise_score_dependence")}


def _numbers_network(t, s):
    net, runs = t["network_summary"], t["network_runs"]
    first = runs[runs["repeat"] == 0]
    mean_se = {k: f"{net.loc[k, 'mean']:.1f} ± {net.loc[k, 'se']:.1f}" for k in ("arcs", "isolated variables")}
    return {"network_S": f"{s['network_S']:g}", "net_repeats": s["network_repeats"],
            "net_first_arcs": int(first["n_arcs"].item()), "net_first_iso": int(first["n_isolated"].item()),
            "net_arcs": mean_se["arcs"], "net_iso": mean_se["isolated variables"],
            "net_same": f"{100 * t['network_by_S']['same_skeleton'].min():.0f}"}


# ------------------------------------------ headline rows for the reproduction report
#
# Counts of errors are compared as counts (``kind="count"``: Fisher's exact test of our
# errors of our pairs against the slides' of theirs; a total adds the two true models).
# Means (KL, log-loss): 3 SE of the difference as :func:`_compare_with_published` computes
# them; for the network (one published sample), 3 x the spread of one sample combined with
# the SE of our mean.  The notes say so (``describe=False``).

_SIZE, _SMALL, _LARGE = 100, 10, 1000  # the sample sizes of the headline rows
_PRIOR_SCORE = "BD2_ODDS5"  # the slides' PRIOR column, as the chapter identifies it
_TOL_MEAN = ("tolerance: 3 SE of the difference (our Monte-Carlo SE and the slides', estimated "
             "from ours, plus the rounding of the printed value)")
_NEW = ("imprecise_score_independence", "imprecise_score_dependence")
_OWN = "moral_independence_headline_numbers"  # numbers that are not single cells of a table
_ERR = "errors (count; pairs in the note)"
_IMP_CAUSE = ("the paper: the slides' IMP count departs from the exact expected count of IMP as "
              "they define it (no Monte-Carlo error; exact_check_errors), while the other scores' "
              "columns match theirs; none of the readings of IMP the chapter tests "
              "(exact_check_imp_variants) fits every size")
_DIR05_CAUSE = ("the paper: its Dir(0.5, 0.5) table departs from the exact expectations under the "
                "prior it states; another symmetric prior fits it (dir0505_prior_scan; the note "
                "gives ours under it)")
#: the rows of this chapter: their notes state the tolerance rule in words
_row = functools.partial(Headline, describe=False)
_count_row = functools.partial(Headline, kind="count", unit=_ERR)


def _cells(t, keys, size, score):
    """``(ours, published, se_difference)`` of one cell of the comparison ``keys`` (or the sum
    of two, SEs in quadrature), or None when a size or score was not run."""
    cells = [t[k][(t[k]["size"] == size) & (t[k]["score"] == score)]
             for k in ((keys,) if isinstance(keys, str) else keys)]
    if any(m.empty for m in cells):
        return None
    o, p, s = ([float(m[c].iloc[0]) for m in cells] for c in ("ours", "published", "se_difference"))
    return (o[0], p[0], s[0]) if len(cells) == 1 else (o[0] + o[1], p[0] + p[1], float(np.hypot(*s)))


def _counted(t, ours, models=2, big=False, note=""):
    """Our count of errors (``ours``: rescaled to the slides' pairs by the comparisons) back
    to our pairs: ``models`` true models of ``n_pairs`` (``big``: ``n_pairs_s``) each; the
    slides' pairs: 10 000 (100 000) per model."""
    key, n_pub = ("n_pairs_s", 100000) if big else ("n_pairs", 10000)
    n = models * int(t["settings"].loc[key, "value"])
    return Reading(int(round(ours * n / (models * n_pub))), n_ours=n,
                   n_published=models * n_pub, note=note)


def _count(keys, size, score, models=2, big=False):
    """Reader of a count of one cell of a comparison (or the sum of two), None when not run."""
    def read(t):
        cell = _cells(t, keys, size, score)
        return None if cell is None else _counted(t, cell[0], models, big)
    return read


def _mean(keys, size, score):
    """Reader of a mean with its standard error (3 SE of the difference), None when not run."""
    def read(t):
        cell = _cells(t, keys, size, score)
        return None if cell is None else Reading(cell[0], se=cell[2], rounding=0.0)
    return read


def _dir05(t):
    """BD2 under Dir(0.5, 0.5) as stated; the note gives the best-fitting prior's result."""
    cell = _cells(t, "errors_dir0505_as_stated", _SIZE, "BD2")
    if cell is None:
        return None
    alt, note = _cells(t, "errors_dir0505_read_as_best_a", _SIZE, "BD2"), ""
    if alt is not None:
        a = float(t["dir0505_prior_scan"]["rms_z"].idxmin())
        ok = "within" if abs(alt[0] - alt[1]) <= 3 * alt[2] else "not within"
        note = (f"with Dir({a:g}, {a:g}) everywhere, the prior the chapter's exact scan picks, "
                f"ours is {alt[0]:.0f} of the slides' 20 000 pairs ({ok} 3 SE)")
    return _counted(t, cell[0], note=note)


def _best_S(t):
    """The fewest total errors of BDe over S, ours and the slides' (each at its own S)."""
    keys = ("effect_of_S_independence", "effect_of_S_dependence")
    tot = {sc: _cells(t, keys, _SIZE, sc) for sc in dict.fromkeys(t[keys[0]]["score"])}
    if not tot or None in tot.values():
        return None
    pub, ours = min(tot, key=lambda k: tot[k][1]), min(tot, key=lambda k: tot[k][0])
    return _counted(t, tot[ours][0], big=True,
                    note=f"minimum at S = {ours[2:]} (slides: S = {pub[2:]})")


def _isolated(t):
    """Mean isolated variables of the networks learned from independent data."""
    r, n = t["network_summary"].loc["isolated variables"], len(t["network_runs"])
    spread = float(r["se"]) * np.sqrt(n)
    note = (f"slides: one sample; ours: mean over {n} samples (range {r['min']:g} to {r['max']:g}); "
            f"tolerance: 3 x the spread of one sample (SD {spread:.2f}) combined with the SE of "
            "our mean")
    return Reading(float(r["mean"]), se=float(np.hypot(spread, r["se"])), rounding=0.0, note=note)


def _errors(score, size):
    return _count_row(f"{score}: total errors at N = {size}",
                      Published("moral_errors_total", {"size": size}, score),
                      _count("errors_total", size, score))


HEADLINE = Headlines(paper="Moral (slides)", chapter="independence-scores", rows=(
    *(_errors(score, _SIZE) for score in _DEFAULT_SCORES),
    _errors("BD2", _LARGE), _errors("AKA", _LARGE),
    _count_row(f"IMP: errors under dependence at N = {_SMALL}",
               Published("moral_errors_dependence", {"size": _SMALL}, "IMP"),
               _count("errors_dependence", _SMALL, "IMP", models=1), cause=_IMP_CAUSE),
    _row(f"BD2: total KL divergence at N = {_SIZE}",
         Published("moral_kl_total", {"size": _SIZE}, "BD2"), _mean("kl_total", _SIZE, "BD2"),
         unit="nats", note=_TOL_MEAN),
    _count_row(f"BD2: total errors at N = {_SIZE}, Dir(0.5, 0.5) everywhere (as stated)",
               Published("moral_errors_dir0505", {"size": _SIZE}, "BD2"), _dir05,
               cause=_DIR05_CAUSE),
    _count_row(f"BDe: fewest total errors over S at N = {_SIZE}",
               Published(_OWN, {"quantity": f"BDe: fewest total errors over S at N = {_SIZE}"}),
               _best_S),
    _count_row(f"NEW (imprecise BDe score): total errors at N = {_SIZE}",
               Published("moral_prior_new", {"size": _SIZE}, "NEW", reduce="sum"),
               _count(_NEW, _SIZE, "NEW", big=True)),
    _count_row(f"PRIOR (ours: BDe with prior odds {_PRIOR_SCORE[8:]} : 1): total errors at N = {_SIZE}",
               Published("moral_prior_new", {"size": _SIZE}, "PRIOR", reduce="sum"),
               _count(_NEW, _SIZE, _PRIOR_SCORE, big=True),
               fitted=f"the prior odds {_PRIOR_SCORE[8:]} : 1 were picked by the chapter's exact "
                      "scan of this PRIOR column (prior_odds_scan)"),
    _row(f"BD2MOD: expected joint log-loss at N = {_SMALL}",
         Published("moral_bd2mod_estimation", {"size": _SMALL}, "BD2MOD"),
         _mean("bd2mod_estimation", _SMALL, "BD2MOD"), unit="nats", note=_TOL_MEAN),
    _row(f"BD2MOD (classification): expected conditional log-loss at N = {_SMALL}",
         Published("moral_bd2mod_classification", {"size": _SMALL}, "BD2MOD"),
         _mean("bd2mod_classification", _SMALL, "BD2MOD_CLS"), unit="nats", note=_TOL_MEAN),
    _row("isolated variables in a BDeu network learned from 4 cases of 12 independent variables",
         Published(_OWN, {"quantity": "isolated variables in a network learned from 4 cases of 12 "
                                      "independent binary variables"}),
         _isolated, unit="variables (of 12)", bounds=(0, 12)),
))


# -------------------------------------------------------- the chapter's "at a glance" box

#: the source, as the slides' title page gives it (they carry no date; the latest work
#: they cite is from 2005)
CITATION = ('S. Moral, "Discovering independence", lecture slides, Departamento de Ciencias de '
            "la Computación, Universidad de Granada, Spain (undated; cites work up to 2005).")

#: the slides' result tables (by slide title) and where this chapter shows them
SLIDES_MAP = [
    ('"Results": errors under dependence, under independence, in total',
     ("the error figures; Tables 1-3", "fig-score-errors")),
    ('"Results - K-L distance": dependence, independence, total', ("KL z-scores; Tables 7-9", "fig-kl-z")),
    ('"Changing the conditions": expected log-likelihood, Dir(2, 2)', ("Dir(2, 2) z-scores; Table 10",
                                                                       "fig-dir22-z")),
    ('"Changing the conditions": number of errors, Dir(0.5, 0.5)', ("Dir(0.5, 0.5) z-scores; Tables 11-13",
                                                                     "fig-dir05-z")),
    ('"The effect of S": independence, dependence', ("the effect-of-S figures; Tables 15-17", "fig-effect-of-s")),
    ('"New score" (BD2MOD): estimation, classification', ("BD2MOD z-scores; Tables 18-19", "fig-bd2mod-z")),
    ('"Experiments" (S = 2, PRIOR, NEW)', ("new-score z-scores; Tables 20-22", "fig-new-score-z")),
    ("the network learned from 4 cases of 12 independent variables", ("the network figure; Tables 23-24",
                                                                       "fig-network")),
]


# ---------------------------------------------------------------------------- figures

def _fmt_z(z):
    if np.isnan(z):
        return "–"
    if not np.isfinite(z):
        return "+∞" if z > 0 else "−∞"
    return f"{round(float(z), 1) + 0.0:.1f}".replace("-", "−")  # + 0.0: no "-0.0"


def _size_label(n):
    """Short tick label of a sample size: 1k for 1 000, 10k for 10 000."""
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def _panel_args(comparisons, titles):
    """The figures' panels: one comparison table each (at least one), and a title each."""
    comparisons = list(comparisons)
    titles = list(titles) if titles is not None else [""] * len(comparisons)
    if not comparisons or len(titles) != len(comparisons):
        raise ValueError(f"need a comparison table or more, and one title each; got {len(titles)} titles")
    return comparisons, titles


_Z_FLAG, _ZMAX = 3.0, 5.0  # the heat maps' framed cells and colour range


def zscore_heatmap(comparisons, titles=None):
    """z-scores of ours against the published values: one cell per score and size.

    Each cell is coloured by ``z = (ours - published) / SE of the difference`` (clipped to
    ±5; blue: ours lower, red: ours higher) and annotated with it; cells beyond 3 are
    outlined and printed in bold.  At most two panels per row, sized to the book's text
    column.

    Parameters
    ----------
    comparisons : sequence of DataFrame
        One panel each: a comparison table of :func:`tables` (output of
        :func:`_compare_with_published` or :func:`_exact_agreement`; columns ``size, score, z``).
    titles : sequence of str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    comparisons, titles = _panel_args(comparisons, titles)
    if any(comp.empty or not {"size", "score", "z"} <= set(comp.columns) for comp in comparisons):
        raise ValueError("each comparison needs rows with columns size, score and z")
    ncol, nrow = min(2, len(comparisons)), -(-len(comparisons) // 2)
    n_scores = max(comp["score"].nunique() for comp in comparisons)
    width = TEXT_WIDTH if ncol == 2 else min(TEXT_WIDTH, 1.6 + 0.55 * comparisons[0]["size"].nunique())
    fig, axes = plt.subplots(nrow, ncol, figsize=(width, nrow * (0.8 + 0.3 * n_scores) + 0.7),
                             squeeze=False, constrained_layout=True)
    for ax, comp, title in zip(axes.flat, comparisons, titles):
        image = _heatmap_panel(ax, comp, title)
    for ax in list(axes.flat)[len(comparisons):]:
        ax.set_visible(False)
    bar = fig.colorbar(image, ax=axes, orientation="horizontal", shrink=0.6, aspect=40,
                       location="bottom", extend="both")
    bar.set_label(f"z = (ours − published) / SE of the difference; framed: |z| > {_Z_FLAG:g}")
    return fig


def _heatmap_panel(ax, comp, title):
    """One panel of :func:`zscore_heatmap` (scores down, sizes across); returns its image."""
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    sizes, scores = sorted(comp["size"].unique()), list(dict.fromkeys(comp["score"]))
    grid = comp.pivot_table(index="score", columns="size", values="z", aggfunc="first", dropna=False)
    z = grid.reindex(index=scores, columns=sizes).to_numpy(dtype=float)
    image = ax.imshow(np.clip(np.nan_to_num(z, nan=0.0), -_ZMAX, _ZMAX), cmap="RdBu_r",
                      norm=Normalize(-_ZMAX, _ZMAX), aspect="auto")
    for i, j in itertools.product(range(len(scores)), range(len(sizes))):
        v = z[i, j]
        if np.isnan(v):
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="white", zorder=2))
            continue
        beyond, dark = abs(v) > _Z_FLAG, abs(np.clip(v, -_ZMAX, _ZMAX)) > 0.6 * _ZMAX
        ax.text(j, i, _fmt_z(v), ha="center", va="center", fontsize=9, zorder=3,
                color="white" if dark else "black", fontweight="bold" if beyond else "normal")
        if beyond:
            ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, lw=1.2,
                                   color="black", zorder=3))
    ax.set_xticks(range(len(sizes)), [_size_label(s) for s in sizes])
    ax.set_yticks(range(len(scores)), scores)
    ax.tick_params(length=0)
    ax.set(xlabel="sample size N", ylabel="score")
    ax.set_title(title, fontsize=10)
    ax.spines[:].set_visible(False)
    return image


def score_errors_figure(comparisons, titles=None):
    """Errors of each score against the sample size: ours (lines) and the slides' (markers).

    Parameters
    ----------
    comparisons : sequence of DataFrame
        One panel each: a comparison table of errors of :func:`tables` (output of
        :func:`_compare_with_published`; columns ``size, score, ours, ours_se, published``).
    titles : sequence of str, optional
        Panel titles.

    Returns
    -------
    matplotlib.figure.Figure
    """
    return _lines_figure(comparisons, titles, "errors (of 10 000 pairs)", 4.4, "size", "score",
                         "sample size N (log scale)", str)


def _lines_figure(comparisons, titles, ylabel, height, x, group, xlabel, label):
    """Ours (lines, ± 2 SE) and the slides' values (open circles) against ``x``, one line
    per value of ``group`` (sizes in increasing order, scores in order of appearance)."""
    import matplotlib.pyplot as plt

    comparisons, titles = _panel_args(comparisons, titles)
    fig, axes = plt.subplots(1, len(comparisons), figsize=(TEXT_WIDTH, height), constrained_layout=True,
                             squeeze=False)
    for ax, comp, title in zip(axes[0], comparisons, titles):
        groups = sorted(comp[group].unique()) if group == "size" else list(dict.fromkeys(comp[group]))
        for i, g in enumerate(groups):
            c, col = comp[comp[group] == g].sort_values(x), plt.get_cmap("tab10")(i % 10)
            ax.errorbar(c[x], c["ours"], yerr=2 * c["ours_se"], color=col, lw=1.3, capsize=2,
                        label=label(g))
            ax.plot(c[x], c["published"], ls="none", marker="o", mfc="none", color=col, ms=5)
        ax.set(xscale="log", xlabel=xlabel, ylabel=ylabel)
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    handles, labels = axes[0, -1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", frameon=False, fontsize=9,
               ncol=min(6, len(labels)), title="lines: ours (± 2 SE); circles: the slides",
               title_fontsize=9)
    return fig


def effect_of_s_figure(comparisons, titles=None):
    """Errors of BDe against its equivalent sample size S, one line per sample size.

    Parameters
    ----------
    comparisons : sequence of DataFrame
        One panel each: an effect-of-S table of :func:`tables` (output of
        :func:`_compare_with_published`) whose ``score`` column holds BDe scores named
        ``BD<S>``.
    titles : sequence of str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    comparisons = [c.assign(S=[float(str(s)[2:]) for s in c["score"]]) for c in comparisons]
    return _lines_figure(comparisons, titles, "errors (of 100 000 pairs)", 4.2, "S", "size",
                         "equivalent sample size S (log scale)", lambda n: f"N = {n}")


def network_figure(parents, title=""):
    """A directed graph drawn with its nodes (``X1``, ``X2``, ...) on a circle.

    Parameters
    ----------
    parents : sequence of sequences of int
        ``parents[j]``: the parents of node ``j`` (e.g.
        :attr:`credal.structure.StructureResult.parents`).
    title : str

    Returns
    -------
    matplotlib.figure.Figure
        Isolated nodes (no arc in or out) are drawn in grey; the title gives the
        numbers of arcs and isolated nodes (the layout has no axes).
    """
    from matplotlib.patches import FancyArrowPatch

    n = len(parents)
    if n == 0:
        raise ValueError("the graph has no node")
    fig, ax = new_axes(None, (4.2, 4.4))
    angle = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    xy = np.column_stack([np.cos(angle), np.sin(angle)])
    edges = [(u, v) for v, ps in enumerate(parents) for u in ps]
    touched = {x for e in edges for x in e}
    for u, v in edges:
        ax.add_patch(FancyArrowPatch(xy[u], xy[v], arrowstyle="-|>", mutation_scale=11, lw=0.9,
                                     color="tab:blue", alpha=0.75, shrinkA=14, shrinkB=14,
                                     connectionstyle="arc3,rad=0.06"))
    for j in range(n):
        iso = j not in touched
        ax.scatter(*xy[j], s=520, color="lightgrey" if iso else "white",
                   edgecolor="grey" if iso else "tab:blue", zorder=3, lw=1.4)
        ax.text(*xy[j], f"X{j + 1}", ha="center", va="center", fontsize=9, zorder=4)
    ax.set(xlim=(-1.3, 1.3), ylim=(-1.3, 1.3), aspect="equal")
    # A circle layout has no coordinates worth an axis: the counts go under the title.
    ax.set_axis_off()
    summary = f"{len(edges)} arcs; {n - len(touched)} isolated variables (grey)"
    ax.set_title(f"{title}\n{summary}" if title else summary, fontsize=10)
    return fig
