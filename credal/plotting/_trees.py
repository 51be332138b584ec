"""Figures of the credal decision trees chapter (Moral)."""

from __future__ import annotations

import numpy as np

__all__ = ["ours_vs_published_figure"]

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
            "tab:pink", "tab:gray"]


def ours_vs_published_figure(tables, titles=None, unit="%"):
    """Our results (mean over splits, ± 2 SE) against the slides', one panel per table.

    Parameters
    ----------
    tables : sequence of DataFrame
        Long tables of :func:`credal.trees.moral_tree_table` (columns ``column``,
        ``ours``, ``se``, ``published``); cells without a published value are
        skipped.  One marker per ``column``.
    titles : sequence of str, optional
    unit : str
        Unit of the values, for the axis labels.

    Returns
    -------
    matplotlib.figure.Figure
        The diagonal marks agreement.
    """
    import matplotlib.pyplot as plt

    tables = list(tables)
    if not tables:
        raise ValueError("need at least one table")
    titles = list(titles) if titles is not None else [""] * len(tables)
    fig, axes = plt.subplots(1, len(tables), figsize=(4.6 * len(tables), 4.4),
                             constrained_layout=True, squeeze=False)
    for ax, tab, title in zip(axes[0], tables, titles):
        tab = tab[np.isfinite(tab["published"])]
        cols = list(dict.fromkeys(tab["column"]))
        for k, col in enumerate(cols):
            t = tab[tab["column"] == col]
            ax.errorbar(t["published"], t["ours"], yerr=2 * t["se"].fillna(0.0), ls="none",
                        marker=_MARKERS[k % len(_MARKERS)], color=_COLOURS[k % len(_COLOURS)],
                        mfc="none", ms=6, capsize=2, label=col)
        if len(tab):
            se = tab["se"].fillna(0.0)
            lo = float(np.nanmin([tab["published"].min(), (tab["ours"] - 2 * se).min()]))
            hi = float(np.nanmax([tab["published"].max(), (tab["ours"] + 2 * se).max()]))
            pad = 0.05 * (hi - lo + 1)
            ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="k", lw=0.8, ls="--",
                    label="ours = slides")
            ax.set_xlim(lo - pad, hi + pad)
            ax.set_ylim(lo - pad, hi + pad)
        ax.set_aspect("equal")
        ax.set_xlabel(f"slides ({unit})")
        ax.set_ylabel(f"ours, mean over splits ± 2 SE ({unit})")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(frameon=False, fontsize="small", loc="upper left")
    return fig
