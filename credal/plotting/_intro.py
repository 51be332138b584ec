"""The introduction chapter's figures: the IDM and utility-discounted accuracy."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["idm_interval_figure", "credal_simplex_figure", "utility_figure", "new_axes"]


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
    from ..idm import idm_interval

    if not isinstance(max_n, numbers.Integral) or max_n < 2:
        raise ValueError(f"max_n must be an integer >= 2; got {max_n!r}")
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
    ax.set_xscale("log")
    ax.set_xlim(1, max_n)
    ax.set_ylim(0, 1)
    ax.set_xlabel("sample size n (cases, log scale)")
    ax.set_ylabel("posterior probability of the category")
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
    ``(n + s e_k) / (N + s)``), the posterior under the uniform prior and the
    observed frequencies.

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
    from ..idm import idm_expectations

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
    ax.set_aspect("equal")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.12, 0.95)
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
    from ..metrics import utility_function

    fig, ax = new_axes(ax, (5.6, 3.6))
    x = np.linspace(0, 1, 201)
    ax.plot(x, x, color="0.5", ls="--", lw=1, label="discounted accuracy (u(x) = x)")
    for uh in u_halves:
        u = utility_function(uh)
        ax.plot(x, u(x), lw=1.8, label=f"u{round(100 * uh)}: u(1/2) = {uh:g}")
        ax.plot([0.5], [u(0.5)], "o", color=ax.lines[-1].get_color())
    ax.set_xlabel("discounted accuracy x of one prediction (1/|set| if correct, else 0)")
    ax.set_ylabel("utility u(x)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(frameon=False, fontsize="small", loc="lower right")
    return fig
