"""Chapter code of the ``reproduction-report`` notebook: every paper's headline numbers.

Each chapter writes its headline rows (``HEADLINE.judge(tables)``, see
:mod:`credal.chapters._verdicts`: published value, ours, tolerance, note) to
``results/<chapter>/headline.csv``; :func:`run` gathers them all and recomputes each
row's verdict (``reproduced``, ``differs`` or ``not comparable``), :func:`tables` splits
them paper by paper and counts the verdicts, :func:`numbers` gives the counts the text
quotes, and :func:`deviation_plot` and :func:`verdict_chart` draw them.  No classifiers
or headline rows of its own: this chapter only summarises the others.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from credal.chapters._verdicts import (CAUSES, HEADLINE_COLUMNS, UNKNOWN_CAUSE, verdict_counts,
                                       verdicts)

__all__ = ["run", "tables", "numbers", "deviation_plot", "verdict_chart"]

#: the verdicts, in the order of every table and figure, and their colours
_COLOURS = {"reproduced": "tab:green", "differs": "tab:orange", "not comparable": "0.6",
            "fitted": "tab:purple"}


def run(root=None) -> pd.DataFrame:
    """Concatenate every ``results/*/headline.csv`` under ``root`` (default: cwd).

    Returns
    -------
    DataFrame
        :data:`credal.chapters._verdicts.HEADLINE_COLUMNS` plus ``verdict`` (recomputed,
        so an edited tolerance cannot leave a stale verdict; a stored "not comparable"
        override survives); empty with those columns if nothing was found.
    """
    base = Path(root) if root is not None else Path.cwd()
    files = sorted((base / "results").glob("*/headline.csv"))
    if not files:
        return pd.DataFrame(columns=HEADLINE_COLUMNS + ["verdict"])
    frames = []
    for f in files:
        df = pd.read_csv(f, keep_default_na=True)
        if "cause" not in df:  # written before differences carried their cause
            df["cause"] = ""
        missing = set(HEADLINE_COLUMNS) - set(df.columns)
        if missing:
            raise ValueError(f"{f}: missing columns {sorted(missing)}")
        frames.append(df[HEADLINE_COLUMNS + ["verdict"] * ("verdict" in df)])
    out = pd.concat(frames, ignore_index=True)
    for col in ("unit", "note", "cause"):
        out[col] = out[col].astype(object).where(out[col].notna(), "").astype(str)
    v = verdicts(out)
    out["cause"] = np.where(v == "differs", out["cause"].where(out["cause"] != "", UNKNOWN_CAUSE), "")
    return out[HEADLINE_COLUMNS].assign(verdict=v)


def tables(headlines) -> dict:
    """The report's tables, from the rows of :func:`run`.

    Returns
    -------
    dict of str -> DataFrame
        ``headlines`` (every row), ``verdicts`` (number of headline numbers per paper
        and verdict, with a total row ``all papers`` and column ``total``), ``causes``
        (the differences per paper by cause: ours, protocol or data, the paper, unknown;
        the cause is the first words of a row's ``cause``, its evidence follows) and, per
        paper in the order papers first appear, ``headlines-<slug of the paper>``: its
        rows with a leading column ``#`` (1, 2, ... within the paper, the rows of
        :func:`deviation_plot`) and a fresh index.
    """
    out = {"headlines": headlines}
    for paper in dict.fromkeys(headlines["paper"]):
        rows = headlines[headlines["paper"] == paper].reset_index(drop=True)
        out[f"headlines-{_slug(paper)}"] = rows.assign(**{"#": np.arange(1, len(rows) + 1)})[
            ["#"] + list(headlines.columns)]
    t = (headlines.groupby(["paper", "verdict"], sort=False).size().unstack(fill_value=0)
         .reindex(columns=list(_COLOURS), fill_value=0))
    t.loc["all papers"] = t.sum()
    t["total"] = t.sum(axis=1)
    t.index.name, t.columns.name = "paper", None
    out["verdicts"] = t.astype(int)
    d = headlines[headlines["verdict"] == "differs"]
    kind = d["cause"].map(lambda c: next((k for k in CAUSES if str(c).startswith(k)),
                                         UNKNOWN_CAUSE))
    c = (pd.crosstab(d["paper"], kind).reindex(index=list(dict.fromkeys(headlines["paper"])),
                                              columns=list(CAUSES) + [UNKNOWN_CAUSE],
                                              fill_value=0))
    c.loc["all papers"] = c.sum()
    c["differs"] = c.sum(axis=1)
    c.index.name, c.columns.name = "paper", None
    out["causes"] = c.astype(int)
    return out


def numbers(tables) -> dict:
    """The counts the report's text quotes: ``n_numbers``, ``n_reproduced``,
    ``n_differs``, ``n_na`` (not comparable), ``n_fitted``, ``n_papers`` and the
    differences by cause, ``n_cause_ours``, ``n_cause_protocol``, ``n_cause_paper``,
    ``n_cause_unknown`` (str)."""
    h, causes = tables["headlines"], tables["causes"].loc["all papers"]
    counts = verdict_counts(h)
    out = {"n_numbers": str(len(h)), "n_reproduced": str(counts["reproduced"]),
           "n_differs": str(counts["differs"]), "n_na": str(counts["not comparable"]),
           "n_fitted": str(counts["fitted"]), "n_papers": str(h["paper"].nunique())}
    for key, cause in zip(("ours", "protocol", "paper", "unknown"), list(CAUSES) + [UNKNOWN_CAUSE]):
        out[f"n_cause_{key}"] = str(int(causes[cause]))
    return out


def _slug(text: str) -> str:
    """A file-name part of a paper's name: ``"Dash & Cooper (2002)"`` -> ``"dash-cooper-2002"``."""
    out = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    if not out:
        raise ValueError(f"no letters or digits in {text!r}")
    return out


def _standardised_deviation(headlines) -> pd.Series:
    """``(ours - published) / tolerance`` of each row of :func:`run` (a Series named
    ``z``, aligned with ``headlines``).

    A row is reproduced exactly when this lies in [-1, 1].  With a zero tolerance the
    value is 0 when the two numbers are equal and +-inf otherwise; NaN where either
    number is missing.
    """
    diff = headlines["ours"].astype(float) - headlines["published"].astype(float)
    tol = headlines["tolerance"].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(tol > 0, diff / tol, np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    z = np.where(diff.isna(), np.nan, z)
    return pd.Series(z, index=headlines.index, name="z")


def verdict_chart(headlines, ax=None):
    """Stacked horizontal bars: number of headline numbers per paper and verdict.

    Parameters
    ----------
    headlines : DataFrame
        :func:`run` (columns ``paper``, ``verdict``).
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
    ax.legend(frameon=False, fontsize=9, loc="lower right")
    return ax.figure


def _two_columns(sizes):
    """Split panels (in order) between two columns with the smallest tallest column."""
    best = None
    for mask in range(2 ** len(sizes)):
        cols = [[i for i in range(len(sizes)) if (mask >> i & 1) == c] for c in (0, 1)]
        if not cols[0]:
            continue
        tallest = max(sum(sizes[i] for i in c) for c in cols)
        if best is None or tallest < best[0]:
            best = (tallest, cols)
    return sorted(best[1])          # the first paper's column on the left


def _deviation_panel(ax, paper, rows, zz, top, ticks):
    """One paper's panel of :func:`deviation_plot` (``zz``: its rows' z)."""
    verdict, n, y = rows["verdict"].to_numpy(), len(rows), np.arange(1, len(rows) + 1)
    ax.axvspan(-1, 1, color="tab:green", alpha=0.12, lw=0)
    ax.axvline(0, color="0.5", lw=0.6)
    for v, colour in _COLOURS.items():
        m = verdict == v
        ok = m & np.isfinite(zz)
        face = colour if v != "not comparable" else "none"
        ax.scatter(zz[ok], y[ok], s=22, color=face, edgecolors=colour, zorder=3)
        for side, marker in ((1, ">"), (-1, "<")):
            edge = m & np.isinf(zz) & (np.sign(zz) == side)
            ax.scatter(np.full(edge.sum(), side * top), y[edge], marker=marker,
                       s=34, color=face, edgecolors=colour, zorder=3, clip_on=False)
    missing = np.isnan(zz)
    for yi, pub in zip(y[missing], rows["published"].to_numpy()[missing]):
        what = "no published number" if np.isnan(pub) else "no number of ours"
        ax.text(0, yi, what, ha="center", va="center", fontsize=9, color="0.35",
                style="italic")
    counts = pd.Series(verdict).value_counts()
    ax.set_title(f"{paper}\n" + ", ".join(f"{counts.get(v, 0)} {v}"
                                          for v in _COLOURS if counts.get(v, 0)),
                 fontsize=9.5, loc="left")
    ax.set_xscale("symlog", linthresh=1.0, linscale=1.0)
    ax.set_xlim(-top, top)
    ax.set_xticks(ticks, [f"{t:g}".replace("-", "\u2212") for t in ticks])
    ax.set_ylim(n + 0.7, 0.3)
    ax.set_yticks(y, [str(k) if n <= 25 or k % 2 else "" for k in y])
    ax.grid(True, axis="x", lw=0.4, color="0.85")
    ax.tick_params(labelsize=9)
    ax.tick_params(axis="y", length=0)


def deviation_plot(headlines, row_height: float = 0.16, width: float = 7.0):
    """Dot plot of ``(ours - published) / tolerance``: one row per headline number.

    One panel per paper (rows numbered as in the report's tables, 1 = the paper's first
    row; the panels in two columns when there are several papers), dots coloured by
    verdict, a band for ``|z| <= 1`` (reproduced) and a symmetric-log x axis (linear
    within +-1).  A zero tolerance with unequal numbers (a yes/no statement that
    disagrees: infinite z) is drawn as a triangle at the axis' edge; a row without one
    of the two numbers says so in place of a dot.

    Parameters
    ----------
    headlines : DataFrame
        :func:`run`.
    row_height, width : float
        Inches per row and figure width (text at least 9 pt at this width).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if headlines.empty:
        raise ValueError("no headline numbers to draw")
    papers = list(dict.fromkeys(headlines["paper"]))
    z = _standardised_deviation(headlines)
    finite = np.abs(z[np.isfinite(z)])
    top = max(10.0, 10.0 ** np.ceil(np.log10(1.05 * finite.max()))) if len(finite) else 10.0
    extra = 4                                    # rows' worth of title and x tick labels
    sizes = [int((headlines["paper"] == p).sum()) + extra for p in papers]
    columns = _two_columns(sizes) if len(papers) > 1 else [[0]]
    height = max(sum(sizes[i] for i in c) for c in columns)
    fig = plt.figure(figsize=(width, row_height * height + 0.8), layout="constrained")
    subfigs = np.atleast_1d(fig.subfigures(1, len(columns)))
    ticks = [t for t in (-100, -10, -1, 0, 1, 10, 100) if abs(t) < top]
    for sub, members in zip(subfigs, columns):
        ratios = [sizes[i] for i in members]
        pad = height - sum(ratios)
        grid = sub.add_gridspec(len(members) + (pad > 0), 1,
                                height_ratios=ratios + [pad] * (pad > 0))
        for k, i in enumerate(members):
            rows = headlines[headlines["paper"] == papers[i]]
            _deviation_panel(sub.add_subplot(grid[k]), papers[i], rows,
                             z.loc[rows.index].to_numpy(), top, ticks)
    fig.supxlabel("(ours \u2212 published) / tolerance: linear within \u00b11, "
                  "logarithmic beyond", fontsize=10)
    handles = [Line2D([], [], marker="o", ls="", color=c, markerfacecolor=c
                      if v != "not comparable" else "none", label=v) for v, c in _COLOURS.items()]
    handles.append(Line2D([], [], marker=">", ls="", color="0.3",
                          label="beyond the axis (a yes/no that disagrees)"))
    handles.append(plt.Rectangle((0, 0), 1, 1, color="tab:green", alpha=0.12,
                                 label="|z| \u2264 1: within tolerance"))
    fig.legend(handles=handles, loc="outside upper center", ncol=3, frameon=False, fontsize=9)
    return fig
