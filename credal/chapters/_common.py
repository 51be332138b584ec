"""Helpers shared by several chapters: saving tables, the report's headline rows and verdicts.

One verdict rule for every headline number of every chapter (:func:`tolerance`):

    tolerance = z * sqrt(se_ours**2 + se_published**2) + rounding + extra,   z = 3

* ``se_ours``: the standard error of our number (0 for an exact computation);
* ``se_published``: the published number's standard error, as printed, or estimated from
  its trial count and our spread (``spread / sqrt(n_published)``);
* ``rounding``: half a unit of the last digit the paper prints;
* ``extra``: a documented term for a known systematic gap (e.g. a guessed choice of data
  sets), stated in the row's note.

The two standard errors are independent random errors, so they combine in quadrature; the
rounding and the extra term are bounded, not random, so they are added in full.  ``z = 3``
keeps the chance of flagging a correct number at 0.27 % (two-sided normal), so that among
the report's ~150 numbers fewer than one correct number is expected to be called
*differs* by chance alone.

Verdicts:

* ``reproduced``: ``|ours - published| <= tolerance``;
* ``differs``: outside the tolerance (the row's note says why);
* ``not comparable``: the paper gives no number or we could not compute one (NaN), or the
  chapter overrides the row (``verdict="not comparable"`` with a note) because the
  published number cannot be derived from the paper's own data, or the data version it
  used is unknown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["HEADLINE_COLUMNS", "NOT_COMPARABLE", "Tolerance", "Z_VERDICT", "half_unit",
           "headline_table", "meets_published", "results_dir", "save_table", "tolerance",
           "verdicts"]

HEADLINE_COLUMNS = ["paper", "chapter", "quantity", "published", "ours", "tolerance",
                    "unit", "note"]

#: multiplier of the combined standard error in every tolerance (see module doc)
Z_VERDICT = 3.0

#: the only verdict a chapter may impose on a row (the others follow from the numbers)
NOT_COMPARABLE = "not comparable"


def half_unit(printed, scale: float = 1.0) -> float:
    """Half a unit of the last digit of a number as the paper prints it.

    Parameters
    ----------
    printed : str or int
        The printed number as text (``"86.8"`` -> 0.05, ``"3"`` -> 0.5, ``".868"`` ->
        0.0005, ``"1.20"`` -> 0.005), or an int: the number of decimals printed.
    scale : float, default 1
        Factor from the printed unit to the unit of the comparison (e.g. 100 when the
        paper prints a fraction and the table is in percent).

    Returns
    -------
    float
    """
    if isinstance(printed, (bool, np.bool_)):
        raise TypeError("printed must be the printed text or a number of decimals, not a bool")
    if isinstance(printed, (int, np.integer)):
        return 0.5 * 10.0 ** (-int(printed)) * scale
    if not isinstance(printed, str):
        raise TypeError(f"printed must be the number as printed (str) or a number of decimals "
                        f"(int); got {type(printed).__name__} {printed!r} (a float has lost its "
                        f"trailing zeros)")
    text = printed.strip().lstrip("+-").replace("%", "").strip()
    try:
        exponent = Decimal(text).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(f"cannot read a printed number from {printed!r}") from None
    if not isinstance(exponent, int):
        raise ValueError(f"{printed!r} is not a finite number")
    return 0.5 * 10.0 ** exponent * scale


@dataclass(frozen=True)
class Tolerance:
    """A tolerance and its parts (see :func:`tolerance`); ``float(tol)`` is its value."""

    value: float
    z: float
    se_ours: float
    se_published: float
    rounding: float
    extra: float
    extra_why: str = ""
    published_se_estimated: bool = False

    def __float__(self) -> float:
        return float(self.value)

    def describe(self, digits: int = 3) -> str:
        """The tolerance and its parts in one line, for a headline row's note."""
        def f(x):
            return f"{x:.{digits}g}"
        pub = f"{f(self.se_published)}{' (est.)' if self.published_se_estimated else ''}"
        parts = []
        if self.se_ours or self.se_published:
            parts.append(f"{self.z:g} x sqrt(SE ours {f(self.se_ours)}^2 + SE published "
                         f"{pub}^2)")
        if self.rounding or not parts:
            parts.append(f"rounding {f(self.rounding)}")
        text = f"tolerance {f(self.value)} = " + " + ".join(parts)
        if self.extra:
            text += f" + {f(self.extra)}" + (f" ({self.extra_why})" if self.extra_why else "")
        return text


def tolerance(se_ours=None, se_published=None, *, spread=None, n_ours=None, n_published=None,
              printed=None, scale: float = 1.0, rounding=None, extra: float = 0.0,
              extra_why: str = "", z: float = Z_VERDICT) -> Tolerance:
    """The report's one tolerance rule (module doc): ``z*hypot(se_ours, se_pub) + rounding + extra``.

    Parameters
    ----------
    se_ours : float, optional
        Standard error of our number. If None, ``spread / sqrt(n_ours)``; if that is not
        given either, 0 (an exact computation).
    se_published : float, optional
        The published number's standard error when the paper gives it. If None and
        ``n_published`` is given, estimated as ``spread / sqrt(n_published)`` (the paper's
        trials are assumed as variable as ours); otherwise 0.
    spread : float, optional
        Standard deviation of one trial (ours), in the unit of the comparison.
    n_ours, n_published : int, optional
        Number of independent trials behind our number / the published one.
    printed : str or int, optional
        The published number as printed, or its number of decimals: the rounding term is
        :func:`half_unit` of it (times ``scale``).
    scale : float, default 1
        Printed unit -> comparison unit, for ``printed``.
    rounding : float, optional
        The rounding term itself, instead of ``printed`` (e.g. for a range's half-width).
    extra : float, default 0
        A documented systematic term, added in full; say why in ``extra_why``.
    extra_why : str
        Required when ``extra > 0``.
    z : float, default :data:`Z_VERDICT`

    Returns
    -------
    Tolerance
        ``float()`` of it is the value; :meth:`Tolerance.describe` gives the note text.
    """
    def positive_int(name, n):
        if n is None:
            return None
        if isinstance(n, bool) or int(n) != n or n < 1:
            raise ValueError(f"{name} must be a positive whole number of trials; got {n!r}")
        return int(n)

    def nonneg(name, x):
        x = float(x)
        if not np.isfinite(x) or x < 0:
            raise ValueError(f"{name} must be finite and >= 0; got {x!r}")
        return x

    n_ours, n_published = positive_int("n_ours", n_ours), positive_int("n_published", n_published)
    if spread is not None:
        spread = nonneg("spread", spread)
    if se_ours is None:
        if n_ours is not None:
            if spread is None:
                raise ValueError("n_ours needs spread (the SD of one of our trials)")
            se_ours = spread / math.sqrt(n_ours)
        else:
            se_ours = 0.0
    estimated = False
    if se_published is None:
        if n_published is not None:
            if spread is None:
                raise ValueError("n_published needs spread (our SD of one trial) to estimate "
                                 "the published number's standard error")
            se_published, estimated = spread / math.sqrt(n_published), True
        else:
            se_published = 0.0
    if printed is not None and rounding is not None:
        raise ValueError("give printed or rounding, not both")
    rounding = half_unit(printed, scale) if printed is not None else (
        0.0 if rounding is None else rounding)
    se_ours, se_published = nonneg("se_ours", se_ours), nonneg("se_published", se_published)
    rounding, extra, z = nonneg("rounding", rounding), nonneg("extra", extra), nonneg("z", z)
    if extra > 0 and not extra_why.strip():
        raise ValueError("an extra tolerance term needs its reason (extra_why)")
    value = z * math.hypot(se_ours, se_published) + rounding + extra
    return Tolerance(value, z, se_ours, se_published, rounding, extra, extra_why.strip(),
                     estimated)


def headline_table(rows, paper: str, chapter: str) -> pd.DataFrame:
    """Build a chapter's headline table in the report's layout.

    Parameters
    ----------
    rows : list of dict
        Each with ``quantity`` (str), ``published`` (float or NaN), ``ours`` (float or
        NaN), ``tolerance`` (float >= 0, or a :class:`Tolerance`, whose
        :meth:`~Tolerance.describe` is then appended to the note) and optionally ``unit``,
        ``note`` and ``verdict``: ``"not comparable"`` (with a note saying why) overrides
        the computed verdict; None/empty leaves it computed.
    paper : str
        Short citation, e.g. ``"Ramoni & Sebastiani (2001)"``.
    chapter : str
        Notebook name (``results/<chapter>/``).

    Returns
    -------
    DataFrame with :data:`HEADLINE_COLUMNS` and a ``verdict`` column.
    """
    rows = [dict(r) for r in rows]
    for r in rows:
        tol = r.get("tolerance")
        if isinstance(tol, Tolerance):
            note = str(r.get("note") or "")
            r["note"] = f"{note}; {tol.describe()}" if note else tol.describe()
            r["tolerance"] = float(tol)
        override = r.get("verdict")
        if override is None or (isinstance(override, float) and np.isnan(override)) \
                or override == "":
            r["verdict"] = ""
        elif override != NOT_COMPARABLE:
            raise ValueError(f"row {r.get('quantity')!r}: a chapter may only set the verdict "
                             f"{NOT_COMPARABLE!r}; got {override!r}")
        elif not str(r.get("note") or "").strip():
            raise ValueError(f"row {r.get('quantity')!r}: a 'not comparable' override needs a "
                             "note saying why")
    df = pd.DataFrame(rows)
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
    return df[HEADLINE_COLUMNS].assign(verdict=verdicts(df))


def verdicts(df: pd.DataFrame) -> pd.Series:
    """``reproduced`` / ``differs`` / ``not comparable`` for each row (see module doc).

    A ``verdict`` column, if ``df`` has one, is honoured only where it says
    ``"not comparable"`` (a chapter's override); every other verdict is recomputed from
    ``published``, ``ours`` and ``tolerance``, so a stale verdict cannot survive.
    """
    pub, ours, tol = (df[c].astype(float).to_numpy() for c in ("published", "ours", "tolerance"))
    ok = np.isfinite(pub) & np.isfinite(ours)
    if "verdict" in df:
        ok &= df["verdict"].astype(object).to_numpy() != NOT_COMPARABLE
    close = ok & (np.abs(ours - pub) <= np.where(np.isfinite(tol), tol, 0.0) + 1e-12)
    out = np.where(~ok, NOT_COMPARABLE, np.where(close, "reproduced", "differs"))
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
