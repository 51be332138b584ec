"""The reproduction report: each paper's headline numbers, ours beside them.

Every paper chapter writes ``results/<chapter>/headline.csv`` with
:func:`headline_table`: one row per headline number of the paper, the published value,
ours, an absolute tolerance and a note.  :func:`collect` gathers them for the report
chapter, which shows a verdict per number:

* ``reproduced``: ``|ours - published| <= tolerance``;
* ``differs``: outside the tolerance (the note says why);
* ``not comparable``: the paper gives no number, or we could not compute one (the note
  says why).

The tolerance is chosen per number by the chapter (e.g. three Monte-Carlo standard
errors, or the rounding of the printed value plus the spread over CV repetitions) and
is shown in the report, so a reader can judge the verdict.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["HEADLINE_COLUMNS", "headline_table", "verdicts", "collect"]

HEADLINE_COLUMNS = ["paper", "chapter", "quantity", "published", "ours", "tolerance",
                    "unit", "note"]


def headline_table(rows, paper: str, chapter: str) -> pd.DataFrame:
    """Build a chapter's headline table in the report's layout.

    Parameters
    ----------
    rows : list of dict
        Each with ``quantity`` (str), ``published`` (float or NaN), ``ours`` (float or
        NaN), ``tolerance`` (float >= 0) and optionally ``unit`` and ``note``.
    paper : str
        Short citation, e.g. ``"Ramoni & Sebastiani (2001)"``.
    chapter : str
        Notebook name (``results/<chapter>/``).

    Returns
    -------
    DataFrame with :data:`HEADLINE_COLUMNS` and a ``verdict`` column.
    """
    df = pd.DataFrame(list(rows))
    required = {"quantity", "published", "ours", "tolerance"}
    if not required <= set(df.columns):
        raise ValueError(f"headline rows need the keys {sorted(required)}; got {list(df.columns)}")
    for col in ("published", "ours", "tolerance"):
        df[col] = pd.to_numeric(df[col], errors="raise").astype(float)
    if (df["tolerance"].dropna() < 0).any():
        raise ValueError("tolerances must be >= 0")
    df["paper"], df["chapter"] = paper, chapter
    for col in ("unit", "note"):
        if col not in df:
            df[col] = ""
        df[col] = df[col].fillna("")
    df = df[HEADLINE_COLUMNS]
    return df.assign(verdict=verdicts(df))


def verdicts(df: pd.DataFrame) -> pd.Series:
    """``reproduced`` / ``differs`` / ``not comparable`` for each row (see module doc)."""
    pub, ours, tol = (df[c].astype(float).to_numpy() for c in ("published", "ours", "tolerance"))
    ok = np.isfinite(pub) & np.isfinite(ours)
    close = ok & (np.abs(ours - pub) <= np.where(np.isfinite(tol), tol, 0.0) + 1e-12)
    out = np.where(~ok, "not comparable", np.where(close, "reproduced", "differs"))
    return pd.Series(out, index=df.index, name="verdict")


def collect(root=None) -> pd.DataFrame:
    """Concatenate every ``results/*/headline.csv`` under ``root`` (default: cwd).

    Returns
    -------
    DataFrame
        :data:`HEADLINE_COLUMNS` plus ``verdict`` (recomputed, so an edited tolerance
        cannot leave a stale verdict); empty with those columns if nothing was found.
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
        frames.append(df[HEADLINE_COLUMNS])
    out = pd.concat(frames, ignore_index=True)
    for col in ("unit", "note"):
        out[col] = out[col].astype(object).where(out[col].notna(), "").astype(str)
    return out.assign(verdict=verdicts(out))
