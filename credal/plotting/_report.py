"""Figure of the reproduction report."""

from __future__ import annotations

import numpy as np

__all__ = ["verdict_chart"]

_COLOURS = {"reproduced": "tab:green", "differs": "tab:orange", "not comparable": "0.7"}


def verdict_chart(headlines, ax=None):
    """Stacked horizontal bars: number of headline numbers per paper and verdict.

    Parameters
    ----------
    headlines : DataFrame
        Output of :func:`credal.report.collect` (columns ``paper``, ``verdict``).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    if headlines.empty:
        raise ValueError("no headline numbers to draw")
    counts = (headlines.groupby(["paper", "verdict"]).size().unstack(fill_value=0)
              .reindex(columns=list(_COLOURS), fill_value=0))
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 0.55 * len(counts) + 1.4), constrained_layout=True)
    left = np.zeros(len(counts))
    for verdict, colour in _COLOURS.items():
        vals = counts[verdict].to_numpy()
        ax.barh(counts.index, vals, left=left, color=colour, label=verdict)
        left += vals
    ax.set_xlabel("headline numbers (count)")
    ax.set_ylabel("paper")
    ax.invert_yaxis()
    ax.legend(frameon=False, fontsize="small", loc="lower right")
    return ax.figure
