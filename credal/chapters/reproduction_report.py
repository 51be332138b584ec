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

#: the parts of a note that say how the tolerance or the count test was computed
_COMPUTATION = re.compile(r"tolerance\b|count test\b|ours accepted from\b|SE:|no SE\b"
                          r"|no data-set choice term|single split")
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
        :func:`deviation_plot`) and a fresh index; and ``notes-<slug>``, what the book shows
        of each row's note: ``note`` without the tolerance's computation, which is in
        ``tolerance`` (the tolerance cell's tooltip).
    """
    out = {"headlines": headlines}
    for paper in dict.fromkeys(headlines["paper"]):
        rows = headlines[headlines["paper"] == paper].reset_index(drop=True)
        out[f"headlines-{_slug(paper)}"] = rows.assign(**{"#": np.arange(1, len(rows) + 1)})[
            ["#"] + list(headlines.columns)]
        parts = [[p for p in str(n).split("; ") if p] for n in rows["note"]]
        how = [[p for p in ps if _COMPUTATION.match(p)] for ps in parts]
        out[f"notes-{_slug(paper)}"] = pd.DataFrame(
            {"note": ["; ".join(p for p in ps if p not in h) for ps, h in zip(parts, how)],
             "tolerance": ["; ".join(h) for h in how]})
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


def deviation_plot(headlines, width: float = 6.8):
    """Strip chart of ``(ours - published) / tolerance``: one dot per headline number.

    One band per paper; within it the dots are spread over five lanes by their order
    along the axis (so that neighbours do not hide each other), coloured by verdict. A
    shaded band marks ``|z| <= 1`` (reproduced) on a symmetric-log x axis (linear within
    +-1). A zero tolerance with unequal numbers (a yes/no statement that disagrees:
    infinite z) is a triangle at the axis' edge; the paper's label counts its numbers and
    those without both values (no dot).

    Parameters
    ----------
    headlines : DataFrame
        :func:`run`.
    width : float
        Figure width in inches (text at least 9 pt at the book's text width).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import textwrap

    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if headlines.empty:
        raise ValueError("no headline numbers to draw")
    papers = list(dict.fromkeys(headlines["paper"]))
    z = _standardised_deviation(headlines)
    finite = np.abs(z[np.isfinite(z)])
    top = max(10.0, 10.0 ** np.ceil(np.log10(1.05 * finite.max()))) if len(finite) else 10.0
    fig, ax = plt.subplots(figsize=(width, 1.3 + 0.62 * len(papers)), layout="constrained")
    ax.axvspan(-1, 1, color="tab:green", alpha=0.12, lw=0)
    ax.axvline(0, color="0.5", lw=0.6)
    labels = []
    for i, paper in enumerate(papers):
        rows = headlines[headlines["paper"] == paper]
        zz, verdict = z.loc[rows.index].to_numpy(), rows["verdict"].to_numpy()
        rank = np.argsort(np.argsort(np.nan_to_num(zz, posinf=top, neginf=-top),
                                     kind="stable"), kind="stable")
        y = i + 0.14 * (rank % 5 - 2)
        for v, colour in _COLOURS.items():
            face = colour if v != "not comparable" else "none"
            ok = (verdict == v) & np.isfinite(zz)
            ax.scatter(zz[ok], y[ok], s=18, color=face, edgecolors=colour, zorder=3)
            for side, marker in ((1, ">"), (-1, "<")):
                edge = (verdict == v) & np.isinf(zz) & (np.sign(zz) == side)
                ax.scatter(np.full(edge.sum(), side * top), y[edge], marker=marker, s=30,
                           color=face, edgecolors=colour, zorder=3, clip_on=False)
        unpaired = int(np.isnan(zz).sum())
        labels.append(textwrap.fill(str(paper), 24) + f"\n{len(rows)} numbers"
                      + (f", {unpaired} unpaired" if unpaired else ""))
    ax.set_yticks(range(len(papers)), labels, fontsize=9)
    ax.tick_params(axis="y", length=0)
    ax.set_xscale("symlog", linthresh=1.0, linscale=1.0)
    ax.set(xlim=(-top, top), ylim=(len(papers) - 0.5, -0.5))
    ticks = [t for t in (-100, -10, -1, 0, 1, 10, 100) if abs(t) < top]
    ax.set_xticks(ticks, [f"{t:g}".replace("-", "\u2212") for t in ticks])
    ax.grid(True, axis="x", lw=0.4, color="0.85")
    ax.set_xlabel("(ours \u2212 published) / tolerance: linear within \u00b11, "
                  "logarithmic beyond")
    handles = [Line2D([], [], marker="o", ls="", color=c, markerfacecolor=c
                      if v != "not comparable" else "none", label=v) for v, c in _COLOURS.items()]
    handles.append(Line2D([], [], marker=">", ls="", color="0.3",
                          label="beyond the axis (a yes/no that disagrees)"))
    handles.append(plt.Rectangle((0, 0), 1, 1, color="tab:green", alpha=0.12,
                                 label="|z| \u2264 1: within tolerance"))
    fig.legend(handles=handles, loc="outside upper center", ncol=3, frameon=False, fontsize=9)
    return fig
