"""Generic figures (matplotlib): critical-difference diagram, IDM, credal simplex, utility.

Each function draws one figure and returns the matplotlib Figure (or Axes, where
noted), with axis labels and units. Figures that serve a single chapter live in that
chapter's module (``credal.chapters``).
"""

from __future__ import annotations

import numbers

import numpy as np

from credal._validation import check_bool, check_int, check_ranks
from credal.stats import cd_cliques

__all__ = ["cd_diagram", "idm_interval_figure", "credal_simplex_figure", "utility_figure",
           "new_axes", "place_labels"]

# vertical layout, in axis data units (the axis line sits at y = 0)
_ROW = 0.35       # spacing between classifier label lines
_BAR_GAP = 0.18   # spacing between clique bars
_SIDE = 0.12      # horizontal offset of the label lines beyond the rank axis


def cd_diagram(avg_ranks, cd: float, ax=None, title=None, lower_is_better: bool = True):
    """Draw a critical-difference diagram (Demšar, 2006).

    The average ranks lie on a horizontal axis, the better end on the left. Each classifier is
    joined to its rank by a line leading to its name, the better half on the left side, the other
    half on the right. A segment of length ``cd`` is drawn above the axis, and thick bars below it
    join every maximal group of classifiers whose ranks differ by at most ``cd``
    (:func:`credal.stats.cd_cliques`), i.e. that the Nemenyi test does not tell apart.

    Parameters
    ----------
    avg_ranks : pandas.Series
        Average rank per classifier, indexed by name (e.g.
        ``credal.stats.friedman(scores).avg_ranks``).
    cd : float >= 0
        Critical difference (e.g. ``FriedmanResult.cd``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure sized to the number of classifiers is created when None.
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
    s = check_ranks(avg_ranks)
    if not isinstance(cd, numbers.Real) or not np.isfinite(cd) or cd < 0:
        raise ValueError(f"cd must be a finite number >= 0; got {cd!r}")
    check_bool("lower_is_better", lower_is_better)
    k = len(s)
    order = s.sort_values(ascending=bool(lower_is_better), kind="stable")
    groups = cd_cliques(s, float(cd))
    lo, hi = min(1.0, float(np.floor(s.min()))), max(float(k), float(np.ceil(s.max())))

    def pos(r):
        # map a rank to [0, 1], better end at 0
        t = (np.asarray(r, dtype=float) - lo) / (hi - lo)
        return t if lower_is_better else 1.0 - t

    n_left, first_row = (k + 1) // 2, -0.45 - _BAR_GAP * max(len(groups), 1)
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
        x, major = float(pos(t)), float(t).is_integer()
        ax.plot([x, x], [0, 0.12 if major else 0.06], **line)
        if major:
            ax.text(x, 0.18, f"{int(t)}", ha="center", va="bottom", fontsize=9)
    # critical difference segment above the axis, starting at the better end
    if cd > 0:
        x0, x1, y_cd = 0.0, float(cd) / (hi - lo), 0.65
        ax.plot([x0, x1], [y_cd, y_cd], color="black", lw=1.5)
        for x in (x0, x1):
            ax.plot([x, x], [y_cd - 0.05, y_cd + 0.05], color="black", lw=1.5)
        ax.text((x0 + x1) / 2, y_cd + 0.08, "CD", ha="center", va="bottom", fontsize=9)
    # classifier lines and names
    names = list(order.index)
    for i, name in enumerate(names):
        x = float(pos(r := float(order.iloc[i])))
        y, xe, ha = ((first_row - _ROW * i, -_SIDE, "right") if i < n_left
                     else (first_row - _ROW * (k - 1 - i), 1 + _SIDE, "left"))
        ax.plot([x, x, xe], [0, y, y], **line)
        ax.text(xe + (-0.01 if ha == "right" else 0.01), y, str(name), ha=ha,
                va="center", fontsize=10, gid="cd-name")
        ax.text(xe + (0.005 if ha == "right" else -0.005), y + 0.03, f"{r:.2f}",
                ha="left" if ha == "right" else "right", va="bottom", fontsize=7, gid="cd-rank")
    # one bar per maximal group of classifiers not significantly different
    for g, members in enumerate(groups):
        xs = pos(s[members].to_numpy())
        y = -0.25 - _BAR_GAP * g
        ax.plot([float(xs.min()) - 0.008, float(xs.max()) + 0.008], [y, y],
                color="black", lw=3.5, solid_capstyle="round", gid="cd-clique")
    ax.set(xlim=(-_SIDE - 0.3, 1 + _SIDE + 0.3), ylim=(bottom, 1.0))
    ax.axis("off")
    if title is not None:
        ax.set_title(str(title))
    return ax


def new_axes(ax, figsize):
    import matplotlib.pyplot as plt
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, constrained_layout=True)
    return ax.figure, ax


def idm_interval_figure(max_n=200, fraction=0.3, s_values=(1.0, 2.0), ax=None):
    """IDM lower/upper probability of a category seen in ``fraction`` of ``n`` cases.

    Parameters
    ----------
    max_n : int
        Largest sample size on the horizontal axis (log scale, from 1).
    fraction : float in [0, 1]
        Observed relative frequency of the category.
    s_values : sequence of float
        Prior strengths, one band each.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    from credal.idm import idm_interval
    check_int("max_n", max_n, 2)
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must lie in [0, 1]; got {fraction!r}")
    fig, ax = new_axes(ax, (6.4, 3.6))
    n = np.unique(np.round(np.geomspace(1, max_n, 200)))
    counts = np.column_stack([fraction * n, (1 - fraction) * n])
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for s, col in zip(s_values, colours * (len(s_values) // 5 + 1)):
        lo, up = idm_interval(counts, s)
        ax.fill_between(n, lo[:, 0], up[:, 0], alpha=0.25, color=col, lw=0)
        ax.plot(n, lo[:, 0], color=col, lw=1.2, label=f"IDM interval, s = {s:g}")
        ax.plot(n, up[:, 0], color=col, lw=1.2)
    ax.axhline(fraction, color="k", ls="--", lw=1, label=f"observed frequency {fraction:g}")
    ax.set(xscale="log", xlim=(1, max_n), ylim=(0, 1), xlabel="sample size n (cases, log scale)",
           ylabel="posterior probability of the category")
    ax.legend(frameon=False, fontsize="small")
    return fig


def _simplex_xy(p):
    """Barycentric (p1, p2, p3) -> 2-D point of an equilateral triangle."""
    p = np.atleast_2d(p)
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]])
    return p @ corners


def credal_simplex_figure(counts, s=2.0, labels=("class a", "class b", "class c"), ax=None):
    """The IDM posterior credal set of a three-category variable in the simplex.

    Draws the probability simplex, the credal set (the triangle whose corners are
    ``(n + s e_k) / (N + s)``), the posterior under the uniform prior and the observed frequencies.

    Parameters
    ----------
    counts : array-like of 3 non-negative numbers
    s : float
        IDM prior strength.
    labels : three str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    from credal.idm import idm_expectations
    counts = np.asarray(counts, dtype=float)
    if counts.shape != (3,):
        raise ValueError(f"counts must hold exactly 3 numbers; got shape {counts.shape}")
    fig, ax = new_axes(ax, (4.8, 4.4))
    tri = _simplex_xy(np.eye(3))
    ax.fill(*np.vstack([tri, tri[:1]]).T, facecolor="none", edgecolor="k", lw=1)
    cset = _simplex_xy(idm_expectations(counts, s, np.eye(3)))
    ax.fill(*cset.T, facecolor="tab:blue", alpha=0.35, edgecolor="tab:blue",
            label=f"IDM credal set (s = {s:g})")
    uni = _simplex_xy(idm_expectations(counts, s, np.full(3, 1 / 3)))
    ax.plot(*uni.T, "o", color="tab:red", label="Bayes, uniform prior")
    if counts.sum() > 0:
        ax.plot(*_simplex_xy(counts / counts.sum()).T, "x", color="k", ms=8,
                label="observed frequencies")
    offsets = [(-0.04, -0.05), (0.04, -0.05), (0, 0.04)]
    for (x, y), lab, (dx, dy) in zip(tri, labels, offsets):
        ax.text(x + dx, y + dy, f"P({lab}) = 1", ha="center", va="center", fontsize="small")
    ax.set(aspect="equal", xlim=(-0.15, 1.15), ylim=(-0.12, 0.95))
    ax.axis("off")
    ax.legend(loc="upper left", frameon=False, fontsize="small", bbox_to_anchor=(-0.05, 1.02))
    return fig


def utility_figure(u_halves=(0.65, 0.80), ax=None):
    """Utility of the discounted accuracy x for quadratic utilities u(1/2) = u_half.

    Marks the value of a two-class set containing the truth (x = 1/2) and compares
    with discounted accuracy itself (u_half = 0.5).

    Parameters
    ----------
    u_halves : sequence of float in [0.5, 1]
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    from credal.metrics import utility_function
    fig, ax = new_axes(ax, (5.6, 3.6))
    x = np.linspace(0, 1, 201)
    ax.plot(x, x, color="0.5", ls="--", lw=1, label="discounted accuracy (u(x) = x)")
    for uh in u_halves:
        u = utility_function(uh)
        ax.plot(x, u(x), lw=1.8, label=f"u{round(100 * uh)}: u(1/2) = {uh:g}")
        ax.plot([0.5], [u(0.5)], "o", color=ax.lines[-1].get_color())
    ax.set(xlabel="discounted accuracy x of one prediction (1/|set| if correct, else 0)",
           ylabel="utility u(x)", xlim=(0, 1), ylim=(0, 1.02))
    ax.legend(frameon=False, fontsize="small", loc="lower right")
    return fig


# label offsets tried in turn (points): right, left, above, below, then farther out
_LABEL_OFFSETS = [(5, 2, "left"), (-5, 2, "right"), (0, 7, "center"), (0, -13, "center"),
                  (5, -11, "left"), (-5, -11, "right"), (9, 9, "left"), (-9, 9, "right"),
                  (10, -18, "left"), (-10, -18, "right"), (0, 16, "center"), (0, -22, "center")]


def place_labels(ax, xy, labels, obstacles=(), fontsize=9):
    """Name points without overlaps where possible (greedy, in display space).

    Each label takes the first of 24 offsets around its point (12, then twice as far) whose
    box stays inside the axes and meets no label already placed, no marker (``xy`` and
    ``obstacles``) and not the axes' legend; else the offset with the least overlap. Call
    after the axes limits (and the legend, if any) are final.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    xy : array-like, shape (n, 2)
        The points to name, data coordinates.
    labels : sequence of str, length n
    obstacles : array-like, shape (m, 2)
        Other markers the labels should avoid, data coordinates.
    fontsize : float
    """
    ax.figure.canvas.draw()  # final layout, so that display coordinates hold
    renderer, r = ax.figure.canvas.get_renderer(), 4.0 * ax.figure.dpi / 72.0
    frame, pts = ax.get_window_extent(renderer), np.array([*xy, *obstacles], float).reshape(-1, 2)
    taken = [(u - r, v - r, u + r, v + r)
             for u, v in (ax.transData.transform(pts) if len(pts) else [])]
    if ax.get_legend() is not None:
        taken.append(tuple(ax.get_legend().get_window_extent(renderer).extents))
    for (x, y), text in zip(xy, labels):
        own, tries = ax.transData.transform((x, y)), []
        for dx, dy, ha in [(k * u, k * v, h) for k in (1, 2) for u, v, h in _LABEL_OFFSETS]:
            t = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha,
                            fontsize=fontsize, color="0.15")
            b = tuple(t.get_window_extent(renderer).extents)
            cost = sum(max(min(b[2], o[2]) - max(b[0], o[0]), 0.0) * max(min(b[3], o[3]) - max(
                b[1], o[1]), 0.0) for o in taken if not np.allclose(
                ((o[0] + o[2]) / 2, (o[1] + o[3]) / 2), own, rtol=0.0, atol=1e-6))
            tries.append((cost + 1e6 * ((b[0] < frame.x0) + (b[2] > frame.x1) + (b[1] < frame.y0)
                                        + (b[3] > frame.y1)), t, b))
            if tries[-1][0] == 0:
                break
        best = min(tries, key=lambda c: c[0])  # the first of the least overlapping
        for _, t, _ in tries:
            if t is not best[1]:
                t.remove()
        taken.append(best[2])
