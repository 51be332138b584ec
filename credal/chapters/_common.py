"""Helpers shared by several chapters: saving tables, the report's headline rows and verdicts.

The reproduction report's rule, for every headline number of every chapter:

* ``reproduced``: ``|ours - published| <= tolerance``;
* ``differs``: outside the tolerance (the row's note says why);
* ``not comparable``: the paper gives no number, or we could not compute one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["HEADLINE_COLUMNS", "headline_table", "verdicts", "meets_published", "results_dir",
           "save_table"]

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


def results_dir(notebook: str, root=None) -> Path:
    """``results/<notebook>/`` under the project root (created if missing)."""
    base = Path(root) if root is not None else Path.cwd()
    out = base / "results" / notebook
    out.mkdir(parents=True, exist_ok=True)
    return out


def save_table(df: pd.DataFrame, notebook: str, table: str, root=None, index=True) -> Path:
    """Write a table the notebook shows to ``results/<notebook>/<table>.csv``."""
    path = results_dir(notebook, root) / f"{table}.csv"
    df.to_csv(path, index=index)
    return path


def meets_published(pvalue, published):
    """Whether a p-value satisfies a published statement.

    Parameters
    ----------
    pvalue : float
    published : str
        ``"<x"`` (significant below ``x``) or ``"n.s."`` (not significant at 5%).

    Returns
    -------
    bool or None
        None when the statement is not one of these forms or ``pvalue`` is NaN.
    """
    if pvalue is None or not np.isfinite(pvalue):
        return None
    text = str(published).strip().lower()
    if text == "n.s.":
        return bool(pvalue >= 0.05)
    if text.startswith("<"):
        try:
            bound = float(text[1:])
        except ValueError:
            return None
        return bool(pvalue < bound)
    return None
