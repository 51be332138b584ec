"""Figures comparing classifiers: Demšar's critical-difference diagram."""

from __future__ import annotations

import numbers

import numpy as np

from ..stats import _check_ranks, cd_cliques

__all__ = ["cd_diagram"]

# vertical layout, in axis data units (the axis line sits at y = 0)
_ROW = 0.35       # spacing between classifier label lines
_BAR_GAP = 0.18   # spacing between clique bars
_SIDE = 0.12      # horizontal offset of the label lines beyond the rank axis


def cd_diagram(avg_ranks, cd: float, ax=None, title=None, lower_is_better: bool = True):
    """Draw a critical-difference diagram (Demšar, 2006).

    The average ranks lie on a horizontal axis, the better end on the left.
    Each classifier is joined to its rank by a line leading to its name, the
    better half on the left side, the other half on the right.  A segment of
    length ``cd`` is drawn above the axis, and thick bars below it join every
    maximal group of classifiers whose ranks differ by at most ``cd``
    (:func:`credal.stats.cd_cliques`), i.e. that the Nemenyi test does not
    tell apart.

    Parameters
    ----------
    avg_ranks : pandas.Series
        Average rank per classifier, indexed by name (e.g.
        ``credal.stats.friedman(scores).avg_ranks``).
    cd : float >= 0
        Critical difference (e.g. ``FriedmanResult.cd``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure sized to the number of classifiers is
        created when None.
    title : str, optional
    lower_is_better : bool
        True when rank 1 is the best (the usual convention); False when higher
        average ranks are better.  The better end is drawn on the left.

    Returns
    -------
    matplotlib.axes.Axes
        The classifier names are the texts with ``gid == "cd-name"``, their
        average ranks those with ``gid == "cd-rank"``.
    """
    s = _check_ranks(avg_ranks)
    if not isinstance(cd, numbers.Real) or not np.isfinite(cd) or cd < 0:
        raise ValueError(f"cd must be a finite number >= 0; got {cd!r}")
    if not isinstance(lower_is_better, (bool, np.bool_)):
        raise ValueError(f"lower_is_better must be True or False; got {lower_is_better!r}")

    k = len(s)
    order = s.sort_values(ascending=bool(lower_is_better), kind="stable")
    groups = cd_cliques(s, float(cd))
    lo = min(1.0, float(np.floor(s.min())))
    hi = max(float(k), float(np.ceil(s.max())))

    def pos(r):
        # map a rank to [0, 1], better end at 0
        t = (np.asarray(r, dtype=float) - lo) / (hi - lo)
        return t if lower_is_better else 1.0 - t

    n_left = (k + 1) // 2
    bars_bottom = -0.25 - _BAR_GAP * max(len(groups), 1)
    first_row = bars_bottom - 0.2
    n_rows = max(n_left, k - n_left)
    bottom = first_row - _ROW * (n_rows - 1) - 0.3

    if ax is None:
        import matplotlib.pyplot as plt

        height = 1.2 + 0.3 * (n_rows + len(groups))
        _, ax = plt.subplots(figsize=(8, height))

    line = dict(color="black", lw=1, solid_capstyle="butt")

    # rank axis with integer and half ticks
    ax.plot([0, 1], [0, 0], **line)
    for t in np.arange(lo, hi + 0.25, 0.5):
        major = float(t).is_integer()
        x = float(pos(t))
        ax.plot([x, x], [0, 0.12 if major else 0.06], **line)
        if major:
            ax.text(x, 0.18, f"{int(t)}", ha="center", va="bottom", fontsize=9)

    # critical difference segment above the axis, starting at the better end
    if cd > 0:
        x0 = 0.0
        x1 = float(cd) / (hi - lo)
        y_cd = 0.65
        ax.plot([x0, x1], [y_cd, y_cd], color="black", lw=1.5)
        for x in (x0, x1):
            ax.plot([x, x], [y_cd - 0.05, y_cd + 0.05], color="black", lw=1.5)
        ax.text((x0 + x1) / 2, y_cd + 0.08, "CD", ha="center", va="bottom", fontsize=9)

    # classifier lines and names
    names = list(order.index)
    for i, name in enumerate(names):
        r = float(order.iloc[i])
        x = float(pos(r))
        if i < n_left:
            y = first_row - _ROW * i
            xe, ha = -_SIDE, "right"
        else:
            y = first_row - _ROW * (k - 1 - i)
            xe, ha = 1 + _SIDE, "left"
        ax.plot([x, x, xe], [0, y, y], **line)
        ax.text(xe + (-0.01 if ha == "right" else 0.01), y, str(name), ha=ha,
                va="center", fontsize=10, gid="cd-name")
        ax.text(xe + (0.005 if ha == "right" else -0.005), y + 0.03, f"{r:.2f}",
                ha="left" if ha == "right" else "right", va="bottom", fontsize=7,
                gid="cd-rank")

    # one bar per maximal group of classifiers not significantly different
    for g, members in enumerate(groups):
        xs = pos(s[members].to_numpy())
        y = -0.25 - _BAR_GAP * g
        ax.plot([float(xs.min()) - 0.008, float(xs.max()) + 0.008], [y, y],
                color="black", lw=3.5, solid_capstyle="round", gid="cd-clique")

    ax.set_xlim(-_SIDE - 0.3, 1 + _SIDE + 0.3)
    ax.set_ylim(bottom, 1.0)
    ax.axis("off")
    if title is not None:
        ax.set_title(str(title))
    return ax
