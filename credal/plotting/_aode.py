"""Figures of the credal AODE chapter (Corani & Antonucci).

Every function takes the per-data-set scores of
:func:`credal.comparisons.dataset_scores` (indexed by data set and classifier) or a
table built from them in :mod:`credal.aode`, and returns a matplotlib Figure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "aode_accuracy_scatter",
    "aode_relative_brier",
    "aode_determinacy",
    "aode_safe_vs_prior_dependent",
    "aode_relative_utility",
    "aode_friedman_ranks",
    "aode_bayesian_comparisons",
]


def _col(scores, classifier, metric):
    try:
        return scores[metric].xs(classifier, level="classifier")
    except KeyError:
        raise KeyError(f"no {metric!r} scores for classifier {classifier!r}") from None


def _limits(*series, pad=0.03):
    v = pd.concat(series).dropna().to_numpy(dtype=float)
    lo = max(0.0, np.floor((v.min() - pad) * 10) / 10) if v.size else 0.0
    return lo, 1.0 + pad / 3


def _by_size(index, sizes):
    if sizes is None:
        return list(index)
    n = pd.Series(sizes["n"] if isinstance(sizes, pd.DataFrame) else sizes, dtype=float)
    return list(n.reindex(index).sort_values(kind="stable").index)


def aode_accuracy_scatter(scores, reference="AODE", others=("BMA-AODE", "COMP-AODE")):
    """Figure 3: accuracy of ``reference`` against each of ``others``, per data set.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    reference : str
        Classifier on the vertical axes.
    others : sequence of str
        One panel each, on the horizontal axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    ref = _col(scores, reference, "accuracy")
    fig, axes = plt.subplots(1, len(others), figsize=(4.6 * len(others), 4.4),
                             squeeze=False, constrained_layout=True)
    for ax, other in zip(axes[0], others):
        x = _col(scores, other, "accuracy").reindex(ref.index)
        lo, hi = _limits(x, ref)
        ax.plot([lo, hi], [lo, hi], color="black", lw=1, label="bisector")
        ax.scatter(x, ref, s=22, color="tab:blue", alpha=0.8, edgecolors="none",
                   label="one data set")
        above, below = int((ref > x).sum()), int((ref < x).sum())
        ax.text(0.03, 0.97, f"{reference} higher: {above} data sets\n"
                f"{other} higher: {below}", transform=ax.transAxes, va="top",
                fontsize="small")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        ax.set_xlabel(f"accuracy of {other} (fraction)")
        ax.set_ylabel(f"accuracy of {reference} (fraction)")
        ax.grid(True, lw=0.3, color="0.85")
        ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def _ratio_panel(ax, ratio, order, ylabel, title, better_below, reference):
    r = ratio.reindex(order)
    x = np.arange(len(r))
    v = r.to_numpy(dtype=float)
    better = v < 1 if better_below else v > 1
    worse = v > 1 if better_below else v < 1
    ax.axhline(1.0, color="black", lw=1)
    ax.axhline(float(np.nanmean(v)), color="tab:red", lw=1, ls="--",
               label=f"mean {float(np.nanmean(v)):.3f}")
    for mask, color, name in ((better, "tab:blue", f"better than {reference}"),
                              (worse, "tab:orange", f"worse than {reference}"),
                              (~better & ~worse, "0.6", "equal")):
        if mask.any():
            ax.scatter(x[mask], v[mask], s=20, color=color, zorder=3, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(r.index, rotation=90, fontsize=6)
    ax.set_xlim(-1, len(r))
    ax.set_ylabel(ylabel)
    ax.set_xlabel("data set (ordered by number of instances)")
    ax.set_title(title, fontsize="medium")
    ax.grid(True, axis="y", lw=0.3, color="0.85")
    ax.legend(loc="best", fontsize="x-small", frameon=False, ncol=2)


def aode_relative_brier(scores, sizes=None, reference="AODE",
                        others=("BMA-AODE", "COMP-AODE")):
    """Figure 4: Brier loss of each of ``others`` divided by that of ``reference``.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores` (needs ``brier``).
    sizes : DataFrame or Series, optional
        Data set sizes (column ``n``) used to order the horizontal axis.
    reference : str
    others : sequence of str
        One panel each (own vertical scale).

    Returns
    -------
    matplotlib.figure.Figure
        Blue points (below 1) are data sets where the classifier beats ``reference``,
        orange ones where it loses.
    """
    import matplotlib.pyplot as plt

    ref = _col(scores, reference, "brier")
    order = _by_size(ref.index, sizes)
    fig, axes = plt.subplots(len(others), 1, figsize=(9, 3.3 * len(others)),
                             squeeze=False, constrained_layout=True)
    for ax, other in zip(axes[:, 0], others):
        ratio = _col(scores, other, "brier") / ref
        _ratio_panel(ax, ratio, order, f"Brier {other} / Brier {reference}",
                     f"{other} relative to {reference}", True, reference)
    return fig


def aode_determinacy(scores, sizes, classifiers=("BMA-AODE*", "COMP-AODE*")):
    """Determinacy of the credal classifiers against the number of instances.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    sizes : DataFrame or Series
        Number of instances per data set (column ``n``).
    classifiers : sequence of str

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    n = pd.Series(sizes["n"] if isinstance(sizes, pd.DataFrame) else sizes, dtype=float)
    fig, ax = plt.subplots(figsize=(7.5, 4.4), constrained_layout=True)
    markers = ["o", "s", "^", "D"]
    for i, c in enumerate(classifiers):
        det = 100 * _col(scores, c, "determinacy")
        ax.scatter(n.reindex(det.index), det, s=26, marker=markers[i % len(markers)],
                   alpha=0.8, label=f"{c} (mean {det.mean():.1f}%)")
    worst = 100 * _col(scores, classifiers[0], "determinacy")
    for name in worst.nsmallest(4).index:
        ax.annotate(name, (n[name], worst[name]), fontsize=7, xytext=(4, -3),
                    textcoords="offset points", color="0.3")
    ax.set_xscale("log")
    ax.set_xlabel("number of instances n (log scale)")
    ax.set_ylabel("determinacy (% of instances given one class)")
    ax.grid(True, lw=0.3, color="0.85")
    ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def aode_safe_vs_prior_dependent(scores, classifiers=("BMA-AODE*", "COMP-AODE*"),
                                 counterparts=None):
    """Figure 5: precise accuracy on the safe vs the prior-dependent instances.

    For each credal classifier, its precise counterpart's accuracy on the instances
    the credal classifier answers with one class (safe) is plotted against its
    accuracy on those it answers with several (prior-dependent); data sets without
    prior-dependent instances are left out.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    classifiers : sequence of str
        Credal classifiers, one panel each.
    counterparts : dict, optional
        Display name of each precise counterpart (default: name without ``*``).

    Returns
    -------
    matplotlib.figure.Figure
        Marker area grows with the number of prior-dependent instances.
    """
    import matplotlib.pyplot as plt

    counterparts = counterparts or {}
    fig, axes = plt.subplots(1, len(classifiers), figsize=(4.6 * len(classifiers), 4.5),
                             squeeze=False, constrained_layout=True)
    for ax, c in zip(axes[0], classifiers):
        p = counterparts.get(c, c.rstrip("*"))
        safe = _col(scores, c, "precise_on_determinate")
        dep = _col(scores, c, "precise_on_indeterminate")
        n_ind = _col(scores, c, "n_indeterminate")
        ok = dep.notna() & safe.notna()
        ax.plot([0, 1], [0, 1], color="black", lw=1, label="bisector")
        ax.scatter(dep[ok], safe[ok], s=8 + 4 * np.sqrt(n_ind[ok].astype(float)),
                   color="tab:purple", alpha=0.6, edgecolors="none",
                   label=f"one data set ({int(ok.sum())})")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        ax.set_xlabel("accuracy on prior-dependent instances (fraction)")
        ax.set_ylabel("accuracy on safe instances (fraction)")
        ax.set_title(f"accuracy of {p}\n(instances split by {c})", fontsize="medium")
        ax.grid(True, lw=0.3, color="0.85")
        ax.legend(loc="lower right", fontsize="small", frameon=False)
    return fig


def aode_relative_utility(scores, sizes=None,
                          pairs=(("BMA-AODE*", "BMA-AODE"), ("COMP-AODE*", "COMP-AODE")),
                          utilities=("u65", "u80")):
    """Figure 6: utility of each credal classifier over its counterpart's accuracy.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.comparisons.dataset_scores`.
    sizes : DataFrame or Series, optional
        Data set sizes (column ``n``) used to order the horizontal axes.
    pairs : sequence of (credal, precise)
        One row of panels each.
    utilities : sequence of str
        One column of panels each.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(pairs), len(utilities),
                             figsize=(5.6 * len(utilities), 3.4 * len(pairs)),
                             squeeze=False, constrained_layout=True)
    for row, (c, p) in zip(axes, pairs):
        acc = _col(scores, p, "accuracy")
        order = _by_size(acc.index, sizes)
        for ax, u in zip(row, utilities):
            ratio = _col(scores, c, u) / acc
            _ratio_panel(ax, ratio, order, f"{u} of {c} /\naccuracy of {p}",
                         f"{c}, {u}", False, p)
    return fig


def aode_friedman_ranks(ranks, classifiers, utilities=None):
    """Figure 7: average Friedman ranks with critical-difference bars.

    Each classifier's average rank is a dot; around it, one bar per level spans
    ``rank ± CD/2``, so two classifiers differ significantly at that level when
    their bars of that level do not overlap (the paper's display).

    Parameters
    ----------
    ranks : DataFrame
        The ``ranks`` table of :func:`credal.aode.friedman_tables` (one row per
        utility; columns = classifiers and ``cd_<level>``).
    classifiers : sequence of str
    utilities : sequence of str, optional
        Rows of ``ranks`` to draw, one panel each (default: all).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    utilities = list(ranks.index) if utilities is None else list(utilities)
    levels = [c for c in ranks.columns if str(c).startswith("cd_")]
    k = len(classifiers)
    fig, axes = plt.subplots(1, len(utilities), figsize=(4.8 * len(utilities), 0.9 + 0.6 * k),
                             squeeze=False, constrained_layout=True)
    # thin bars for the first level (e.g. 95%), thicker for the next ones
    widths = np.linspace(1.5, 5.0, len(levels)) if levels else []
    for ax, u in zip(axes[0], utilities):
        r = ranks.loc[u]
        for i, c in enumerate(classifiers):
            for level, w in zip(levels, widths):
                half = float(r[level]) / 2
                ax.plot([r[c] - half, r[c] + half], [i, i], lw=w, alpha=0.45,
                        color="tab:blue", solid_capstyle="butt",
                        label=f"± CD/2, {level[3:]} confidence" if i == 0 else None)
            ax.plot([r[c]], [i], "o", color="black", ms=6)
        ax.set_yticks(range(k))
        ax.set_yticklabels(classifiers)
        ax.set_ylim(-0.6, k - 0.4)
        ax.set_xlim(0.6, k + 0.4)
        ax.set_xlabel("average rank over data sets (1 = best)")
        ax.set_ylabel("classifier")
        ax.set_title(f"ranks under {u}", fontsize="medium")
        ax.grid(True, axis="x", lw=0.3, color="0.85")
    axes[0, 0].legend(loc="upper right", fontsize="x-small", frameon=False)
    return fig


def aode_bayesian_comparisons(table):
    """Bayesian signed-rank posterior probabilities of paired comparisons.

    Parameters
    ----------
    table : DataFrame
        :func:`credal.aode.wilcoxon_table` (or
        :func:`credal.comparisons.paired_comparisons`): ``label``, ``p_a_better``,
        ``p_rope``, ``p_b_better``.

    Returns
    -------
    matplotlib.figure.Figure
        One stacked bar per comparison: P(a better), P(practically equivalent),
        P(b better).
    """
    import matplotlib.pyplot as plt

    t = table.dropna(subset=["p_a_better"])
    y = np.arange(len(t))[::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.9 + 0.32 * len(t)), constrained_layout=True)
    left = np.zeros(len(t))
    for col, color, name in (("p_a_better", "tab:blue", "a better"),
                             ("p_rope", "0.75", "practically equivalent"),
                             ("p_b_better", "tab:orange", "b better")):
        v = t[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=color, label=name, height=0.7)
        left += v
    ax.set_yticks(y)
    ax.set_yticklabels(t["label"], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("posterior probability (Bayesian signed-rank test)")
    ax.set_ylabel("comparison (a vs b)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize="small",
              frameon=False)
    return fig
