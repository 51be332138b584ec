"""Figures of the exact model averaging chapter (Dash & Cooper)."""

from __future__ import annotations

import numpy as np

__all__ = ["delta_roc_figure", "random_networks_figure"]

_XLABEL = {
    "n_features": "number of features N",
    "n_train": "training records N_r",
    "max_parents": "maximum in-degree N_k",
}
_SERIES = (
    ("delta_roc", "Δ_ROC: relative gain of ROC area", "tab:blue", "o", 1 / 1.06),
    ("delta_roc_remaining", "δ_ROC: share of the missing area gained", "tab:orange", "s",
     1.06),
)
_NEEDED = ("mean", "sd", "ci_low", "ci_high")


def _check(summary, x):
    missing = [c for c in [x] + [f"{q}_{s}" for q, *_ in _SERIES for s in _NEEDED]
               if c not in summary]
    if missing:
        raise ValueError(f"summary lacks columns {missing}; pass the output of "
                         "credal.averaging.summarise_trials")
    if summary.empty:
        raise ValueError("summary is empty")


def _panel(ax, summary, x, log_x=True):
    """Means with 99% CIs (solid) and ±1 sd of the trials (dashed) of both measures."""
    s = summary.sort_values(x)
    xs = s[x].to_numpy(dtype=float)
    for q, label, color, marker, shift in _SERIES:
        pos = xs * shift if log_x else xs + (shift - 1) * 10
        mean = s[f"{q}_mean"].to_numpy()
        sd = s[f"{q}_sd"].to_numpy()
        lo, hi = s[f"{q}_ci_low"].to_numpy(), s[f"{q}_ci_high"].to_numpy()
        spread = ax.errorbar(pos, mean, yerr=sd, fmt="none", ecolor=color, elinewidth=0.9,
                             alpha=0.6, capsize=2)
        spread[-1][0].set_linestyle("--")
        ax.errorbar(pos, mean, yerr=[mean - lo, hi - mean], fmt=marker, color=color,
                    ms=4, elinewidth=1.8, capsize=3, label=label, linestyle="-", lw=0.8)
    ax.axhline(0, color="0.4", lw=0.7)
    if log_x:
        ax.set_xscale("log")
        ticks = np.unique(xs)
        if len(ticks) > 10:  # 1-2-5 ticks inside the range
            nice = np.array([m * 10**e for e in range(-1, 7) for m in (1, 2, 5)], dtype=float)
            ticks = nice[(nice >= ticks.min()) & (nice <= ticks.max())]
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{t:g}" for t in ticks], fontsize="small", rotation=45)
        ax.minorticks_off()
    ax.set_xlabel(_XLABEL.get(x, x) + (" (log scale)" if log_x else ""))
    ax.set_ylabel("change in ROC area, MA vs MAP (%)")
    ax.grid(True, lw=0.3, color="0.88")


def _legend(fig, ax):
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], color="0.3", lw=1.8), Line2D([], [], color="0.3", lw=0.8,
                                                             ls="--")]
    labels += ["99% confidence interval of the mean", "±1 sd of the trials"]
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False, fontsize="small",
               bbox_to_anchor=(0.5, 0.0))


def delta_roc_figure(summary, x, panel=None, titles=None, log_x=True):
    """Mean Δ_ROC and δ_ROC against one setting, one panel per value of ``panel``.

    Solid bars are 99% confidence intervals of the mean, dashed bars ±1 standard
    deviation of the trials (the layout of Dash & Cooper's Figures 2–5).

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`credal.averaging.summarise_trials`.
    x : str
        Setting on the horizontal axis: ``"n_features"``, ``"n_train"`` or
        ``"max_parents"``.
    panel : str, optional
        Column splitting the rows into panels (e.g. ``"class_node"``).
    titles : dict, optional
        Panel title for each value of ``panel``.
    log_x : bool
        Logarithmic horizontal axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    _check(summary, x)
    keys = [None] if panel is None else list(dict.fromkeys(summary[panel]))
    fig, axes = plt.subplots(1, len(keys), figsize=(max(7.0, 5.4 * len(keys)), 4.5),
                             squeeze=False,
                             sharey=True)
    for ax, k in zip(axes[0], keys):
        part = summary if k is None else summary[summary[panel] == k]
        _panel(ax, part, x, log_x)
        if k is not None:
            ax.set_title((titles or {}).get(k, str(k)), fontsize="medium")
    for ax in axes[0][1:]:
        ax.set_ylabel(axes[0][0].get_ylabel())
        ax.tick_params(labelleft=True)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    _legend(fig, axes[0][0])
    return fig


def random_networks_figure(nodes, records, density):
    """Dash & Cooper's Figure 2: the nodes, training-records and density tests.

    Parameters
    ----------
    nodes, records, density : DataFrame
        Outputs of :func:`credal.averaging.summarise_trials` by ``n_features``,
        ``n_train`` and ``max_parents``.

    Returns
    -------
    matplotlib.figure.Figure
        Three panels (a), (b), (c) with the layout of :func:`delta_roc_figure`.
    """
    import matplotlib.pyplot as plt

    parts = ((nodes, "n_features", "(a) nodes test"), (records, "n_train", "(b) training-records test"),
             (density, "max_parents", "(c) density test"))
    for s, x, _ in parts:
        _check(s, x)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, (s, x, title) in zip(axes, parts):
        _panel(ax, s, x)
        ax.set_title(title, fontsize="medium")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    _legend(fig, axes[0])
    return fig
