"""Chapter code of the ``reproduction-report`` notebook: every paper's headline numbers.

Each chapter writes its headline rows (:func:`credal.chapters._common.headline_table`:
published value, ours, tolerance, note) to ``results/<chapter>/headline.csv``; the
report gathers them all with :func:`collect`, which recomputes each row's verdict
(``reproduced``, ``differs`` or ``not comparable``, see :mod:`credal.chapters._common`),
and draws the verdicts per paper with :func:`verdict_chart`.  No classifiers, runs or
headline rows of its own: this chapter only summarises the others.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from credal.chapters._common import HEADLINE_COLUMNS, save_table, verdicts

__all__ = ["collect", "save_table", "verdict_chart"]


# --------------------------------------------------------------------------- run


def collect(root=None) -> pd.DataFrame:
    """Concatenate every ``results/*/headline.csv`` under ``root`` (default: cwd).

    Returns
    -------
    DataFrame
        :data:`credal.chapters._common.HEADLINE_COLUMNS` plus ``verdict`` (recomputed,
        so an edited tolerance cannot leave a stale verdict); empty with those columns
        if nothing was found.
    """
    base = Path(root) if root is not None else Path.cwd()
    files = sorted((base / "results").glob("*/headline.csv"))
    if not files:
        return pd.DataFrame(columns=HEADLINE_COLUMNS + ["verdict"])
    frames = []
    for f in files:
        df = pd.read_csv(f, keep_default_na=True)
        missing = set(HEADLINE_COLUMNS) - set(df.columns)
        if missing:
            raise ValueError(f"{f}: missing columns {sorted(missing)}")
        # a stored "not comparable" override survives; other verdicts are recomputed
        frames.append(df[HEADLINE_COLUMNS + ["verdict"] * ("verdict" in df)])
    out = pd.concat(frames, ignore_index=True)
    for col in ("unit", "note"):
        out[col] = out[col].astype(object).where(out[col].notna(), "").astype(str)
    return out[HEADLINE_COLUMNS].assign(verdict=verdicts(out))


# --------------------------------------------------------------------------- figures

#: bar colour of each verdict, in the bars' order
_COLOURS = {"reproduced": "tab:green", "differs": "tab:orange", "not comparable": "0.7"}


def verdict_chart(headlines, ax=None):
    """Stacked horizontal bars: number of headline numbers per paper and verdict.

    Parameters
    ----------
    headlines : DataFrame
        Output of :func:`collect` (columns ``paper``, ``verdict``).
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
