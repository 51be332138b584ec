"""Figures of the independence-scores chapter (Moral)."""

from __future__ import annotations

import numpy as np

from ._intro import new_axes

__all__ = ["score_errors_figure", "effect_of_s_figure", "network_figure"]

_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
            "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]


def _subplots(n, figsize):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, n, figsize=figsize, constrained_layout=True, squeeze=False)
    return fig, axes[0]


def score_errors_figure(comparisons, titles=None, ylabel="errors (of 10 000 pairs)"):
    """Errors of each score against the sample size: ours (lines) and the slides' (markers).

    Parameters
    ----------
    comparisons : sequence of DataFrame
        One panel each: output of :func:`credal.independence.compare_with_published`
        (columns ``size, score, ours, ours_se, published``).
    titles : sequence of str, optional
        Panel titles.
    ylabel : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    comparisons = list(comparisons)
    if not comparisons:
        raise ValueError("need at least one comparison table")
    titles = list(titles) if titles is not None else [""] * len(comparisons)
    fig, axes = _subplots(len(comparisons), (4.6 * len(comparisons) + 1.6, 4.2))
    for ax, comp, title in zip(axes, comparisons, titles):
        scores = list(dict.fromkeys(comp["score"]))
        for score, col in zip(scores, _COLOURS * (len(scores) // len(_COLOURS) + 1)):
            c = comp[comp["score"] == score].sort_values("size")
            ax.errorbar(c["size"], c["ours"], yerr=2 * c["ours_se"], color=col, lw=1.3,
                        capsize=2, label=f"{score} (ours)")
            ax.plot(c["size"], c["published"], ls="none", marker="o", mfc="none", color=col, ms=5)
        ax.set_xscale("log")
        ax.set_xlabel("sample size N (cases, log scale)")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[-1].plot([], [], ls="none", marker="o", mfc="none", color="k", label="slides (published)")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right upper", frameon=False, fontsize="small")
    return fig


def effect_of_s_figure(comparisons, titles=None, ylabel="errors (of 100 000 pairs)"):
    """Errors of BDe against its equivalent sample size S, one line per sample size.

    Parameters
    ----------
    comparisons : sequence of DataFrame
        One panel each: output of :func:`credal.independence.compare_with_published`
        whose ``score`` column holds BDe scores named ``BD<S>`` (or ``S_<S>``).
    titles : sequence of str, optional
    ylabel : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    comparisons = list(comparisons)
    if not comparisons:
        raise ValueError("need at least one comparison table")
    titles = list(titles) if titles is not None else [""] * len(comparisons)
    fig, axes = _subplots(len(comparisons), (4.6 * len(comparisons) + 1.6, 4.2))
    for ax, comp, title in zip(axes, comparisons, titles):
        comp = comp.assign(S=[float(str(s).replace("S_", "").replace("BD", "")) for s in comp["score"]])
        sizes = sorted(comp["size"].unique())
        for size, col in zip(sizes, _COLOURS * (len(sizes) // len(_COLOURS) + 1)):
            c = comp[comp["size"] == size].sort_values("S")
            ax.errorbar(c["S"], c["ours"], yerr=2 * c["ours_se"], color=col, lw=1.3, capsize=2,
                        label=f"N = {size}")
            ax.plot(c["S"], c["published"], ls="none", marker="o", mfc="none", color=col, ms=5)
        ax.set_xscale("log")
        ax.set_xlabel("equivalent sample size S (log scale)")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[-1].plot([], [], ls="none", marker="o", mfc="none", color="k", label="slides")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right upper", frameon=False, fontsize="small")
    return fig


def network_figure(parents, names=None, title="", ax=None):
    """A directed graph drawn with its nodes on a circle (matplotlib only).

    Parameters
    ----------
    parents : sequence of sequences of int
        ``parents[j]``: the parents of node ``j`` (e.g.
        :attr:`credal.independence.StructureResult.parents`).
    names : sequence of str, optional
        Node labels (default ``X1``, ``X2``, ...).
    title : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
        Isolated nodes (no arc in or out) are drawn in grey.
    """
    from matplotlib.patches import FancyArrowPatch

    n = len(parents)
    if n == 0:
        raise ValueError("the graph has no node")
    names = list(names) if names is not None else [f"X{j + 1}" for j in range(n)]
    if len(names) != n:
        raise ValueError(f"need {n} names; got {len(names)}")
    fig, ax = new_axes(ax, (5.2, 5.2))
    angle = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    xy = np.column_stack([np.cos(angle), np.sin(angle)])
    edges = [(u, v) for v, ps in enumerate(parents) for u in ps]
    touched = {x for e in edges for x in e}
    for u, v in edges:
        arrow = FancyArrowPatch(xy[u], xy[v], arrowstyle="-|>", mutation_scale=11, lw=0.9,
                                color="tab:blue", alpha=0.75, shrinkA=14, shrinkB=14,
                                connectionstyle="arc3,rad=0.06")
        ax.add_patch(arrow)
    for j in range(n):
        iso = j not in touched
        ax.scatter(*xy[j], s=520, color="lightgrey" if iso else "white",
                   edgecolor="grey" if iso else "tab:blue", zorder=3, lw=1.4)
        ax.text(*xy[j], names[j], ha="center", va="center", fontsize=8, zorder=4)
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_aspect("equal")
    # The circle layout has no metric axes; keep them for the labelling convention.
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel(f"{len(edges)} arcs; {n - len(touched)} isolated variables (grey)")
    ax.set_ylabel("circle layout (no units)")
    ax.set_title(title)
    for side in ax.spines.values():
        side.set_visible(False)
    return fig
