"""The report's verdicts: one tolerance rule, the chapters' headline declarations and the
one builder that turns them into rows and verdicts.

Every paper chapter declares each published number once, as data, in a module-level
``HEADLINE = Headlines(paper=..., chapter=..., rows=(Headline(...), ...))``: where the
published value lives (:class:`Published`, a row of ``data/published/*.csv``), how ours is
read from the chapter's ``tables()`` (:class:`Cell` or a short function returning a
:class:`Reading`), its standard errors, the printed digits, and a documented extra term or a
"not comparable" reason.  :meth:`Headlines.judge` is the one builder of rows and verdicts.

One verdict rule for every headline number of every chapter (:func:`tolerance`):

    tolerance = z * sqrt(se_ours**2 + se_published**2) + rounding + extra,   z = 3

* ``se_ours``: the standard error of our number (0 for an exact computation);
* ``se_published``: the published number's standard error, as printed, or estimated from
  its trial count and our spread (``spread / sqrt(n_published)``);
* ``rounding``: half a unit of the last digit the paper prints;
* ``extra``: a measured term for a known systematic gap (e.g. the spread over the possible
  choices of data sets), stated in the row's note with its evidence.

The two standard errors are independent random errors, so they combine in quadrature; the
rounding and the extra term are bounded, not random, so they are added in full.  ``z = 3``
keeps the chance of flagging a correct number at 0.27 % (two-sided normal), so that among
the report's ~150 numbers fewer than one correct number is expected to be called
*differs* by chance alone.

Verdicts: ``reproduced`` (``|ours - published| <= tolerance``); ``differs``, with its cause
(:data:`CAUSES`, with evidence; ``unknown`` until a chapter finds it); ``not comparable``,
for one of :data:`NOT_COMPARABLE_REASONS` only, or computed (no number of ours; or *no
power*: the tolerance covers every value the quantity can take); ``fitted`` (a number of
ours fitted to the published table cannot reproduce it).  The rule refuses an extra term
that nothing measures, a count judged by widening a tolerance (counts are compared as
counts, :func:`count_test`, at :data:`ALPHA_VERDICT`, the two-sided tail of ``z = 3``) and
noise as a reason (noise belongs in the standard errors); see :class:`Headline`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["ALPHA_VERDICT", "CAUSES", "Cell", "FITTED", "HEADLINE_COLUMNS", "Headline",
           "Headlines", "NOT_COMPARABLE", "NOT_COMPARABLE_REASONS", "Published", "Reading",
           "Tolerance", "UNKNOWN_CAUSE", "VERDICTS", "Z_VERDICT", "count_test",
           "half_unit",
           "headline_table", "meets_published", "published_text", "tolerance",
           "verdict_counts", "verdicts"]

HEADLINE_COLUMNS = ["paper", "chapter", "quantity", "published", "ours", "tolerance",
                    "unit", "note", "cause"]

#: multiplier of the combined standard error in every tolerance (see module doc)
Z_VERDICT = 3.0
#: the two-sided tail of ``Z_VERDICT``: a count test's p-value below it means "differs"
ALPHA_VERDICT = float(2 * stats.norm.sf(Z_VERDICT))

#: verdicts a chapter may impose on a row (the others follow from the numbers)
NOT_COMPARABLE = "not comparable"
FITTED = "fitted"
#: every verdict, in the order of the report's tables and figures
VERDICTS = ("reproduced", "differs", NOT_COMPARABLE, FITTED)
#: the only reasons a row may be declared not comparable
NOT_COMPARABLE_REASONS = ("the paper prints no number", "the data it used are not available",
                          "the number cannot come from the authors' own data")
#: what a chapter may name as the cause of a difference (with its evidence)
CAUSES = ("ours", "protocol or data", "the paper")
#: the cause of a difference nobody has traced yet
UNKNOWN_CAUSE = "unknown"


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
    printed, scale : str or int, float (default 1), optional
        The published number as printed, or its number of decimals: the rounding term is
        :func:`half_unit` of it times ``scale`` (printed unit -> comparison unit).
    rounding : float, optional
        The rounding term itself, instead of ``printed`` (e.g. for a range's half-width).
    extra, extra_why : float (default 0), str
        A measured systematic term, added in full, and why (required when ``extra > 0``).
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
    """A chapter's headline rows in the report's layout (:data:`HEADLINE_COLUMNS` and
    ``verdict``), for the paper's short citation ``paper`` and the notebook ``chapter``.

    Each row of ``rows`` (dicts, as :meth:`Headline.row` makes them) has ``quantity``,
    ``published`` and ``ours`` (float or NaN), ``tolerance`` (>= 0, or a :class:`Tolerance`,
    whose :meth:`~Tolerance.describe` then ends the note) and optionally ``unit``, ``note``,
    ``cause`` (used only if the row differs; a difference without one gets ``"unknown"``)
    and ``verdict``: ``"not comparable"`` or ``"fitted"`` (with a note saying why)
    overrides the computed verdict.
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
        elif override not in (NOT_COMPARABLE, FITTED):
            raise ValueError(f"row {r.get('quantity')!r}: a chapter may only set the verdict "
                             f"{NOT_COMPARABLE!r} or {FITTED!r}; got {override!r}")
        elif not str(r.get("note") or "").strip():
            raise ValueError(f"row {r.get('quantity')!r}: a {override!r} override needs a "
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
    for col in ("unit", "note", "cause"):
        if col not in df:
            df[col] = ""
        df[col] = df[col].fillna("")
    v = verdicts(df)
    df["cause"] = np.where(v == "differs", df["cause"].where(df["cause"] != "", UNKNOWN_CAUSE), "")
    return df[HEADLINE_COLUMNS].assign(verdict=v)


def verdicts(df: pd.DataFrame) -> pd.Series:
    """``reproduced`` / ``differs`` / ``not comparable`` / ``fitted`` for each row.

    A ``verdict`` column, if ``df`` has one, is honoured only where it says
    ``"not comparable"`` or ``"fitted"`` (a chapter's override or the builder's no-power
    verdict); every other verdict is recomputed from ``published``, ``ours`` and
    ``tolerance``, so a stale verdict cannot survive.
    """
    pub, ours, tol = (df[c].astype(float).to_numpy() for c in ("published", "ours", "tolerance"))
    ok = np.isfinite(pub) & np.isfinite(ours)
    kept = (df["verdict"].astype(object).to_numpy() if "verdict" in df
            else np.full(len(df), "", dtype=object))
    ok &= (kept != NOT_COMPARABLE) & (kept != FITTED)
    close = ok & (np.abs(ours - pub) <= np.where(np.isfinite(tol), tol, 0.0) + 1e-12)
    out = np.where(~ok, np.where(kept == FITTED, FITTED, NOT_COMPARABLE),
                   np.where(close, "reproduced", "differs"))
    return pd.Series(out, index=df.index, name="verdict")


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


def verdict_counts(headline) -> dict:
    """``{"reproduced": n, "differs": n, "not comparable": n, "fitted": n}`` of a headline
    table (a DataFrame with a ``verdict`` column, or the verdicts themselves)."""
    v = headline["verdict"] if isinstance(headline, pd.DataFrame) else pd.Series(headline)
    counts = v.astype(str).value_counts()
    out = {k: int(counts.get(k, 0)) for k in VERDICTS}
    other = int(len(v) - sum(out.values()))
    if other:
        raise ValueError(f"unknown verdicts in the headline table: "
                         f"{sorted(set(v.astype(str)) - set(out))}")
    return out


# --------------------------------------------------------------------------- declarations
#
# A chapter declares each published number once, as data (:class:`Headline`), in a
# module-level ``HEADLINE = Headlines(paper=..., chapter=..., rows=(...))``; the one
# builder, :meth:`Headlines.judge`, reads the published values, reads ours from the
# chapter's ``tables()``, applies :func:`tolerance` and returns the report's rows.


@dataclass(frozen=True)
class Published:
    """Where a published number lives: cells of ``data/published/<table>.csv``.

    Parameters
    ----------
    table : str
        File name without ``.csv`` (see :func:`credal.datasets.published`).
    where : dict
        ``{column: value}``: the rows whose columns equal these values (compared as
        text, so ``{"d": 25}`` matches ``25`` and ``"25"``); a list or tuple of values
        matches any of them.
    column : str, default ``"value"``
        The column holding the number.
    reduce : {None, "mean", "sum"}
        None: exactly one row must match; otherwise the mean or sum over the matches.
    scale : float, default 1
        Printed unit -> comparison unit (e.g. 100 for a printed fraction shown in percent).
    """

    table: str
    where: dict = field(default_factory=dict)
    column: str = "value"
    reduce: str | None = None
    scale: float = 1.0

    def cells(self) -> pd.Series:
        """The matching cells as printed (text), in file order."""
        text = published_text(self.table)
        if self.column not in text.columns:
            raise KeyError(f"published table {self.table!r} has no column {self.column!r}; "
                           f"columns: {list(text.columns)}")
        mask = np.ones(len(text), dtype=bool)
        for col, val in self.where.items():
            if col not in text.columns:
                raise KeyError(f"published table {self.table!r} has no column {col!r}")
            wanted = [str(v).strip() for v in (val if isinstance(val, (list, tuple)) else [val])]
            mask &= text[col].str.strip().isin(wanted).to_numpy()
        hit = text.loc[mask, self.column]
        if hit.empty:
            raise KeyError(f"no row of published table {self.table!r} has {self.where}")
        if self.reduce is None and len(hit) != 1:
            raise KeyError(f"{len(hit)} rows of published table {self.table!r} match "
                           f"{self.where}; name one (or give reduce='mean' / 'sum')")
        return hit

    def value(self) -> float:
        """The published number in the comparison's unit (NaN for a blank cell)."""
        cells = pd.to_numeric(self.cells(), errors="coerce") * self.scale
        if self.reduce == "sum":
            return float(cells.sum(min_count=1))
        return float(cells.mean())

    def printed(self) -> str:
        """The text of the cell with the most decimals (its rounding bounds them all)."""
        cells = self.cells().astype(str).str.strip()
        return max(cells, key=lambda t: len(t.split(".", 1)[1]) if "." in t else 0)


def published_text(table: str) -> pd.DataFrame:
    """``data/published/<table>.csv`` with every cell as printed text (no float parsing)."""
    from credal.datasets import data_dir, published

    published(table)  # the clear error for an unknown table
    name = table[:-4] if str(table).endswith(".csv") else str(table)
    return pd.read_csv(data_dir() / "published" / f"{name}.csv", dtype=str,
                       keep_default_na=False)


@dataclass(frozen=True)
class Cell:
    """How ours is read: one cell of one of the chapter's tables.

    Parameters
    ----------
    table : str
        A key of the chapter's ``tables()``.
    where : dict
        ``{column or index level: value}`` picking exactly one row.
    column : str
        The column holding our number.
    se : str, optional
        A column holding our standard error (same row).
    """

    table: str
    where: dict
    column: str
    se: str | None = None

    def __call__(self, tables) -> "Reading":
        if self.table not in tables:
            raise KeyError(f"no table {self.table!r}; tables: {sorted(tables)}")
        df = tables[self.table]
        flat = df.reset_index() if any(n is not None for n in df.index.names) else df
        mask = np.ones(len(flat), dtype=bool)
        for col, val in self.where.items():
            mask &= (flat[col] == val).to_numpy()
        hit = flat.loc[mask]
        if len(hit) != 1:
            raise KeyError(f"{len(hit)} rows of table {self.table!r} match {self.where}")
        row = hit.iloc[0]
        return Reading(float(row[self.column]),
                       se=None if self.se is None else float(row[self.se]))


@dataclass(frozen=True)
class Reading:
    """Our number and what the tolerance needs of it (see :func:`tolerance`).

    ``value`` is ours; ``se``, ``spread``, ``n_ours``, ``se_published``, ``n_published``,
    ``extra`` / ``extra_why`` and ``rounding`` go to :func:`tolerance`; ``note`` follows the
    declaration's own.  ``tolerance``: a finished tolerance the chapter computed under the
    same rule (z = 3 times a combined SE its ``note`` explains), instead of :func:`tolerance`.
    ``published``: the number of a statement that depends on the run (the paper's "all" of
    its settings: the number of settings run); the declaration still names the statement.
    """

    value: float
    se: float | None = None
    spread: float | None = None
    n_ours: int | None = None
    se_published: float | None = None
    n_published: int | None = None
    extra: float = 0.0
    extra_why: str = ""
    rounding: float | None = None
    note: str = ""
    published: float | None = None
    tolerance: float | None = None


@dataclass(frozen=True)
class Headline:
    """One published number of a paper, declared once (see :class:`Headlines`).

    Parameters
    ----------
    quantity : str
        What the row says, as the report prints it.
    published : Published or None
        Where the published number lives; None only with ``not_comparable`` (the paper
        prints no number).
    ours : Cell or callable
        ``ours(tables) -> Reading or float``: how ours is read from the chapter's
        ``tables()`` (a callable may use several tables; keep it short). None from it
        leaves the row out (what it needs was not run at this parameter profile).
    unit : str
    printed : str or int, optional
        The published number's printed digits (text or number of decimals) for the
        rounding term; default: the published cell's own text. Give ``rounding``
        instead for a term that is not half a unit (e.g. a value rounded up).
    rounding : float, optional
    note : str
        The row's fixed note (how the number is read); a reading's note follows it.
    se_published, n_published : optional
        The published number's standard error, or its number of trials (the SE is then
        estimated from our spread); a reading's values take precedence.
    extra, extra_why, extra_evidence : float, str, str
        A constant systematic term, added in full: its reason and the measurement behind
        it (required; a reading's ``extra`` is computed from data instead).
    not_comparable : str
        Why the row cannot be judged: text starting with one of
        :data:`NOT_COMPARABLE_REASONS`, then its evidence; makes the verdict
        "not comparable".
    differs_why : str, optional
        When set (even to ""), a row outside its tolerance gets "differs by <gap>" (or
        only "differs" with ``differs_gap=False``) and this reason in its note.
    differs_gap : bool, default True
    describe : bool, default True
        Whether the note ends with the tolerance's parts (:meth:`Tolerance.describe`);
        False when the note already states them in words.
    kind : {"value", "count"}
        A count is compared as a count (:func:`count_test`), never through a tolerance:
        ours is the reading's value out of its ``n_ours`` trials, the paper's out of
        ``n_published`` (both None: two Poisson counts).
    bounds : (float, float), optional
        The smallest and largest value the quantity can take (e.g. (0, 100) for a
        percentage): a tolerance that covers them all gives "not comparable (no power)".
    fitted : str
        Set when a number of ours was fitted to this published table (what was fitted);
        the verdict is then "fitted", never "reproduced".
    cause : str
        Of a difference: text starting with one of :data:`CAUSES`, then its evidence;
        used when the row differs (a difference without one has cause "unknown").
    """

    quantity: str
    published: Published | None
    ours: object
    unit: str = ""
    printed: str | int | None = None
    rounding: float | None = None
    note: str = ""
    se_published: float | None = None
    n_published: int | None = None
    extra: float = 0.0
    extra_why: str = ""
    not_comparable: str = ""
    differs_why: str | None = None
    differs_gap: bool = True
    describe: bool = True
    extra_evidence: str = ""
    kind: str = "value"
    bounds: tuple | None = None
    fitted: str = ""
    cause: str = ""

    def check(self) -> None:
        """Raise ValueError if the declaration breaks the rule (see the module doc)."""
        where = f"headline {self.quantity!r}"
        if not self.quantity.strip():
            raise ValueError("a headline row needs its quantity")
        if self.published is None and not self.not_comparable.strip():
            raise ValueError(f"{where}: no published value and no reason (not_comparable)")
        if self.extra and not self.extra_why.strip():
            raise ValueError(f"{where}: an extra tolerance term needs its reason (extra_why)")
        if self.extra and not self.extra_evidence.strip():
            raise ValueError(f"{where}: an extra term must come from something measured and "
                             "shown (extra_evidence); an asserted term cannot make a row "
                             "reproduced")
        if self.not_comparable and not self.not_comparable.startswith(NOT_COMPARABLE_REASONS):
            raise ValueError(f"{where}: 'not comparable' only when "
                             f"{'; '.join(NOT_COMPARABLE_REASONS)} (start the reason with one "
                             f"of these, then the evidence); got {self.not_comparable!r}")
        if self.cause and not self.cause.startswith(CAUSES):
            raise ValueError(f"{where}: the cause of a difference starts with one of "
                             f"{CAUSES}, then its evidence; got {self.cause!r}")
        if self.kind not in ("value", "count"):
            raise ValueError(f"{where}: kind must be 'value' or 'count'; got {self.kind!r}")
        if self.kind == "count" and (self.extra or self.rounding or self.se_published):
            raise ValueError(f"{where}: a count is compared as a count (count_test), not "
                             "through a tolerance: no extra, rounding or standard error")
        if self.bounds is not None and not (len(self.bounds) == 2
                                            and self.bounds[0] < self.bounds[1]):
            raise ValueError(f"{where}: bounds must be (low, high) with low < high")
        if not callable(self.ours):
            raise ValueError(f"{where}: ours must be a Cell or a callable of the tables")
        if self.published is not None:
            self.published.cells()  # raises when the published row is not found

    def row(self, tables) -> dict:
        """The row of :func:`headline_table` for this declaration and ``tables``."""
        reading = self.ours(tables)
        if reading is None:  # what it needs was not run at this profile: no row
            return None
        if not isinstance(reading, Reading):
            reading = Reading(float(reading))
        pub = self.published.value() if self.published is not None else np.nan
        if reading.published is not None:
            pub = float(reading.published)
        if self.kind == "count":
            return self._count_row(reading, pub)
        printed = self.printed
        rounding = reading.rounding if reading.rounding is not None else self.rounding
        if printed is None and rounding is None and self.published is not None:
            printed = self.published.printed()
        scale = self.published.scale if self.published is not None else 1.0
        tol = tolerance(
            reading.se, _first(reading.se_published, self.se_published),
            spread=reading.spread, n_ours=reading.n_ours,
            n_published=_first(reading.n_published, self.n_published),
            printed=None if rounding is not None else printed, scale=scale,
            rounding=rounding, extra=reading.extra or self.extra,
            extra_why=reading.extra_why or self.extra_why)
        if reading.tolerance is not None:
            tol = float(reading.tolerance)
        elif not self.describe:
            tol = float(tol)
        note = "; ".join(t for t in (self.note, reading.note) if t)
        ours = float(reading.value)
        if (self.differs_why is not None and np.isfinite(pub) and np.isfinite(ours)
                and abs(ours - pub) > float(tol) + 1e-12):
            gap = f" by {ours - pub:+.3g}" if self.differs_gap else ""
            note = f"{note}; differs{gap}" + (f": {self.differs_why}" if self.differs_why else "")
        row = {"quantity": self.quantity, "published": pub, "ours": ours, "tolerance": tol,
               "unit": self.unit, "note": note}
        if self.bounds is not None and np.isfinite(pub) and \
                pub - float(tol) <= self.bounds[0] and pub + float(tol) >= self.bounds[1]:
            self._impose(row, NOT_COMPARABLE, f"no power: the tolerance {float(tol):.3g} covers "
                         f"every possible value [{self.bounds[0]:g}, {self.bounds[1]:g}]")
        return self._overrides(row)

    def _overrides(self, row):
        """The declared verdicts (fitted, not comparable) and cause, applied to a row."""
        if self.fitted:
            self._impose(row, FITTED, f"fitted: {self.fitted}")
        if self.not_comparable:
            self._impose(row, NOT_COMPARABLE, self.not_comparable)
        row["cause"] = self.cause
        return row

    @staticmethod
    def _impose(row, verdict, why):
        row["verdict"] = verdict
        row["note"] = f"{row['note']}; {why}" if row["note"] else why

    def _count_row(self, reading, pub):
        """A count compared as a count: :func:`count_test`, its acceptance as tolerance."""
        n_ours, n_pub = reading.n_ours, _first(reading.n_published, self.n_published)
        ours = float(reading.value)
        p, (low, high), test = count_test(ours, n_ours, pub, n_pub)
        side = high if ours >= pub else low
        tol = max(0.0, abs(side - pub)) if np.isfinite(side) else 0.0
        of = (lambda k, n: f"{k:g}" + (f" of {n}" if n is not None else ""))
        text = (f"count test ({test}): ours {of(ours, n_ours)}, the paper's {of(pub, n_pub)}, "
                f"two-sided p = {p:.2g} (reproduced when p >= {ALPHA_VERDICT:.2g}, as z = "
                f"{Z_VERDICT:g}); ours accepted from {low:g} to {high:g}")
        note = "; ".join(t for t in (self.note, reading.note, text) if t)
        row = {"quantity": self.quantity, "published": pub, "ours": ours, "tolerance": tol,
               "unit": self.unit, "note": note}
        top = n_ours if n_ours is not None else np.inf
        if low <= 0 and high >= top:
            self._impose(row, NOT_COMPARABLE, "no power: every possible count passes the test")
        return self._overrides(row)


def count_test(k_ours, n_ours, k_pub, n_pub, alpha=None):
    """Two counts compared as counts: with both numbers of trials ``n_ours``, ``n_pub``,
    Fisher's exact test of ``k_ours`` of ``n_ours`` against ``k_pub`` of ``n_pub`` (a binomial
    model of both sides); with neither, the conditional test of two Poisson counts of equal
    exposure (``k_ours`` given the total is Binomial(total, 1/2)).

    Returns ``(p, accepted, test)``: the two-sided p-value of ours against the paper's; the
    smallest and largest count of ours the test would accept (p >= ``alpha``, default
    :data:`ALPHA_VERDICT`) with the paper's count fixed, (nan, nan) when none would; and
    ``"Fisher's exact"`` or ``"Poisson"``.
    """
    alpha = ALPHA_VERDICT if alpha is None else alpha
    if (n_ours is None) != (n_pub is None):
        raise ValueError("give both numbers of trials (binomial counts) or neither (Poisson)")
    k_pub = int(round(k_pub))
    if n_ours is not None:
        def pvalue(k):
            return stats.fisher_exact([[k, n_ours - k], [k_pub, n_pub - k_pub]])[1]
        top, test, centre = int(n_ours), "Fisher's exact", round(k_pub * n_ours / n_pub)
    else:
        def pvalue(k):
            return stats.binomtest(k, k + k_pub, 0.5).pvalue if k + k_pub else 1.0
        top, test, centre = 3 * k_pub + 29, "Poisson", k_pub
    # the accepted counts form an interval around the paper's rate, and the p-value falls
    # away from it on either side: find each end by bisection (a few dozen tests where n is
    # large) instead of testing every count
    centre = min(max(int(centre), 0), top)
    if pvalue(centre) >= alpha:
        ends = []
        for bound in (0, top):
            inside, outside = centre, bound + (1 if bound else -1)  # outside: past the range
            while abs(outside - inside) > 1:
                mid = (inside + outside) // 2
                inside, outside = (mid, outside) if pvalue(mid) >= alpha else (inside, mid)
            ends.append(float(inside))
        accepted = tuple(ends)
    else:
        ok = [k for k in range(top + 1) if pvalue(k) >= alpha]
        accepted = (float(min(ok)), float(max(ok))) if ok else (np.nan, np.nan)
    return float(pvalue(int(round(k_ours)))), accepted, test


def _first(*values):
    """The first of ``values`` that is not None (None if all are)."""
    return next((v for v in values if v is not None), None)


@dataclass(frozen=True)
class Headlines:
    """A chapter's headline declarations: the paper, the notebook and one
    :class:`Headline` per published number, judged by :meth:`judge`."""

    paper: str
    chapter: str
    rows: tuple = ()

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def check(self) -> None:
        """Check every declaration: its published value is found, every extra term and
        every "not comparable" carries its reason, no quantity is declared twice."""
        seen = set()
        for h in self.rows:
            h.check()
            if h.quantity in seen:
                raise ValueError(f"{self.chapter}: headline {h.quantity!r} declared twice")
            seen.add(h.quantity)

    def judge(self, tables, only=None) -> pd.DataFrame:
        """The report's rows and verdicts for the chapter's ``tables()``.

        Parameters
        ----------
        tables : dict of str -> DataFrame
            The chapter's ``tables(results)``.
        only : callable, optional
            ``only(headline) -> bool``: judge these declarations only (e.g. the rows of
            one table shown in the chapter).

        Returns
        -------
        DataFrame
            :data:`HEADLINE_COLUMNS` plus ``verdict`` (see :func:`headline_table`).
        """
        rows = [h.row(tables) for h in self.rows if only is None or only(h)]
        rows = [r for r in rows if r is not None]
        if not rows:  # nothing of this paper was run at this profile
            return pd.DataFrame(columns=HEADLINE_COLUMNS + ["verdict"])
        return headline_table(rows, paper=self.paper, chapter=self.chapter)
