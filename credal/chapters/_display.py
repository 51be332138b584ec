"""The book's display: tables (formatted, saved as CSV, linked for download), figures'
style and run times (the claim box: ``credal.chapters._claims``).  One :func:`show_table`
shows every table.

``show_table`` writes the CSV (as ``save_table`` does) and a copy under
``book/generated/_extra/tables/<notebook>/``; book/_config.yml lists
``generated/_extra`` in ``html_extra_path``, so the copy lands in the built book at
``tables/<notebook>/<table>.csv`` and the page (``generated/<notebook>.html``) links
to it as ``../tables/<notebook>/<table>.csv``.

A page dominated by wide tables may drop the right-hand contents bar (the text column
grows from about 690 px to 960 px at 1280x800): put
``html_theme.sidebar_secondary.remove: true`` in the notebook's front matter (beside
``kernelspec``); jupytext passes it to the notebook's metadata and the theme reads it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from credal.chapters._verdicts import NOT_COMPARABLE, verdicts

__all__ = ["MISSING", "RUNTIME_CLASS", "TEXT_WIDTH", "book_style",
           "claim_box", "comparison_layout", "comparison_table", "format_duration", "format_number",
           "format_p", "format_table", "p_text", "previous_run_time", "results_dir",
           "save_table", "show_table"]

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


#: what a missing value (NaN, None, NA) prints as
MISSING = "\u2013"
#: thousands separator: the narrow no-break space (a thin space that never breaks a number)
THIN_SPACE = "\u202f"
#: the minus sign printed for negative numbers
MINUS = "\u2212"
#: width of the text column at 1280x800 (about 690 px), in inches: a figure this wide is
#: shown at its natural size, so its text keeps the point size set by :func:`book_style`
TEXT_WIDTH = 6.8
#: tables longer than this go in a collapsible block unless told otherwise
MAX_ROWS = 15
#: columns formatted by :func:`format_p` unless ``formats`` says otherwise
P_COLUMNS = frozenset({"p", "p-value", "p value", "p_value", "pvalue"})
#: the run-time placeholder of the claim box, filled in by book/execute.py
RUNTIME_CLASS = "credal-runtime"

_VERDICT_CLASSES = {"reproduced": "reproduced", "differs": "differs", "fitted": "fitted",
                    NOT_COMPARABLE: "not-comparable"}


def _is_missing(x) -> bool:
    return x is None or x is pd.NA or x is pd.NaT or bool(
        isinstance(x, (float, np.floating)) and np.isnan(x))


def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(
        x, (bool, np.bool_))


def format_number(x, decimals: int = 0) -> str:
    """One number as the book prints it.

    Parameters
    ----------
    x : float or int
        The number; NaN or None print as :data:`MISSING`.
    decimals : int, default 0
        Digits after the decimal point.

    Returns
    -------
    str
        Rounded to ``decimals``, with :data:`THIN_SPACE` between thousands from 10 000 on,
        :data:`MINUS` for negative numbers and never a negative zero (``-0.0001`` at two
        decimals prints ``0.00``).

    Examples
    --------
    >>> format_number(1182103.0)
    '1\u202f182\u202f103'
    >>> format_number(-0.0001, 2)
    '0.00'
    """
    if _is_missing(x):
        return MISSING
    x = float(x)
    if not np.isfinite(x):
        return "\u221e" if x > 0 else f"{MINUS}\u221e"
    if decimals < 0:
        raise ValueError(f"decimals must be >= 0; got {decimals}")
    text = f"{abs(x):,.{decimals}f}"
    if abs(x) < 10_000:
        text = text.replace(",", "")
    text = text.replace(",", THIN_SPACE)
    negative = x < 0 and any(c not in "0." for c in text)
    return (MINUS if negative else "") + text


def column_decimals(values, digits: int = 3, max_decimals: int = 4) -> int:
    """Decimals for one column: ``digits`` significant digits at the column's typical size.

    Parameters
    ----------
    values : array-like
        The column's numbers (NaN and non-numbers are ignored).
    digits, max_decimals : int, default 3 and 4
        Significant digits of the median absolute (non-zero) value; at most that many decimals.

    Returns
    -------
    int
        0 for whole numbers (counts print without ``.0``), else between 0 and
        ``max_decimals``.
    """
    v = np.array([float(x) for x in values if _is_number(x) and not _is_missing(x)], float)
    v = v[np.isfinite(v)]
    if v.size == 0 or np.all(v == np.round(v)):
        return 0
    ref = np.median(np.abs(v[v != 0]))
    return int(np.clip(digits - 1 - math.floor(math.log10(ref)), 0, max_decimals))


def format_p(p, smallest: float = 1e-4) -> str:
    """A p-value for a table cell: two significant digits, or ``"< 0.0001"``.

    Parameters
    ----------
    p, smallest : float
        The p-value; values below ``smallest`` (default 1e-4) print as ``"< smallest"``.

    Returns
    -------
    str
        E.g. ``"0.51"``, ``"0.046"``, ``"< 0.0001"``; NaN prints as :data:`MISSING`.
        In prose use :func:`p_text` (``"p < 0.0001"``, never ``"p = < 0.0001"``).
    """
    if _is_missing(p):
        return MISSING
    p = float(p)
    if not 0 <= p <= 1:
        raise ValueError(f"a p-value must lie in [0, 1]; got {p!r}")
    if p < smallest:
        return f"< {format_number(smallest, max(0, -math.floor(math.log10(smallest))))}"
    decimals = max(2, 1 - math.floor(math.log10(p))) if p > 0 else 2
    return format_number(p, decimals)


def p_text(p, smallest: float = 1e-4) -> str:
    """A p-value for prose: ``"p = 0.046"`` or ``"p < 0.0001"`` (see :func:`format_p`)."""
    cell = format_p(p, smallest)
    return f"p {cell}" if cell.startswith("<") else f"p = {cell}"


def _column_formatter(name, values, fmt, digits):
    """A function value -> cell text for one column."""
    if callable(fmt):
        return lambda x: MISSING if _is_missing(x) else str(fmt(x))
    if isinstance(fmt, str):
        spec = fmt if "{" in fmt else "{:" + fmt + "}"
        return lambda x: MISSING if _is_missing(x) else spec.format(x).replace("-", MINUS)
    if fmt is None and str(name).strip().lower() in P_COLUMNS:
        return format_p
    decimals = column_decimals(values, digits) if fmt is None else int(fmt)

    def cell(x):
        if _is_missing(x):
            return MISSING
        if isinstance(x, (bool, np.bool_)):
            return "yes" if x else "no"
        if _is_number(x):
            return format_number(x, decimals)
        return str(x)
    return cell


def format_table(df: pd.DataFrame, *, digits: int = 3, formats=None,
                 index=None) -> pd.DataFrame:
    """The cells of a table as the book prints them (all strings).

    Parameters
    ----------
    df : DataFrame
    digits : int, default 3
        Significant digits of each numeric column's typical value (:func:`column_decimals`);
        whole-number columns print without decimals.
    formats : dict, optional
        Column -> int (decimals), format spec (``".1%"`` or ``"{:.2f}"``) or a function
        value -> str (e.g. :func:`format_p`).  Columns named as in :data:`P_COLUMNS` use
        :func:`format_p` by default.
    index : bool, optional
        Show the index as leading column(s).  Default: only when it is not a plain
        ``RangeIndex`` (a default index is never printed).

    Returns
    -------
    DataFrame
        Same columns (index columns first when shown), a fresh ``RangeIndex``, every cell
        a str; missing values are :data:`MISSING`.
    """
    formats = dict(formats or {})
    if unknown := set(formats) - set(df.columns) - set(df.index.names):
        raise KeyError(f"formats names columns the table does not have: {sorted(map(str, unknown))}")
    if index is None:
        index = not (isinstance(df.index, pd.RangeIndex) and df.index.name is None)
    out = df.reset_index() if index else df.reset_index(drop=True)
    keys = list(out.columns)  # formats are looked up by these (tuples for MultiIndex)
    if isinstance(out.columns, pd.MultiIndex):
        out.columns = [" ".join(str(p) for p in col if str(p) and not str(p).startswith(
            "Unnamed:")) for col in out.columns]
    cols = {}
    for j, (key, name) in enumerate(zip(keys, out.columns)):
        values = out.iloc[:, j].tolist()
        cell = _column_formatter(name, values, formats.get(key, formats.get(name)), digits)
        cols[j] = [cell(x) for x in values]
    res = pd.DataFrame(cols, dtype=object)
    res.columns = [str(c) for c in out.columns]
    return res


def _inline(text) -> str:
    """Escape text for HTML, keeping ``code`` and *emphasis* of short captions."""
    import html
    out = html.escape(str(text), quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"<em>\1</em>", out)
    return out


def _is_numeric_cell(text: str) -> bool:
    """A number, or numbers joined by " ± " or " / " ("86.5 / 86.6"): never wrapped."""
    t = text.replace(THIN_SPACE, "").replace(MINUS, "-").replace("< ", "").strip()
    for part in re.split(r" \u00b1 | / ", t):
        part = part.strip().rstrip("%")
        try:
            float(part)
        except ValueError:
            if part != MISSING:
                return False
    return True


def _break_long_words(text: str, longest: int = 18) -> str:
    """Let long tokens (paths, URLs, identifiers) break after ``/ _ - .`` (``<wbr>``), so
    that they wrap in a narrow column; shorter words never break."""
    def split(m):
        return re.sub(r"([/_\-.])(?=\w)", r"\1<wbr>", m.group(0))
    return re.sub(r"[^\s<>]{%d,}" % (longest + 1), split, text)


def table_html(cells: pd.DataFrame, *, caption=None, csv_href=None, collapse=False,
               verdict_columns=("verdict",), wrap=(), titles=None) -> str:
    """The HTML of a formatted table (see :func:`show_table`): ``cells`` are strings, as
    :func:`format_table` returns; ``caption`` is shown above (``code`` and *emphasis* kept),
    the link ``csv_href`` to the CSV under it; ``collapse`` puts the table in a closed
    ``<details>`` block with the row count in its summary; cells of ``verdict_columns`` get
    the classes ``credal-verdict credal-v-<verdict>`` (coloured by book/_static/credal.css);
    columns in ``wrap`` wrap their text (class ``credal-text``), as non-numeric columns do;
    ``titles`` maps a column to one tooltip per row (the cell's ``title``; "" for none).
    """
    import html
    verdict_columns = {str(c).lower() for c in verdict_columns}
    kinds = ["verdict" if str(name).lower() in verdict_columns else "num"
             if all(_is_numeric_cell(c) for c in cells[name].tolist()) and name not in wrap
             else "text" for name in cells.columns]
    head = "".join(f'<th class="credal-{k}">{_inline(n)}</th>'
                   for n, k in zip(cells.columns, kinds))
    titles = {c: list(t) for c, t in (titles or {}).items()}
    rows = []
    for i, r in enumerate(cells.itertuples(index=False)):
        tds = []
        for name, value, kind in zip(cells.columns, r, kinds):
            cls = f"credal-{kind}"
            if kind == "verdict":
                cls += " credal-v-" + _VERDICT_CLASSES.get(
                    str(value).strip().lower(), "other")
            text = html.escape(str(value), quote=False)
            if kind == "text":
                text = _break_long_words(text)
            tip = titles[name][i] if name in titles else ""
            tip = f' title="{html.escape(str(tip))}"' if tip else ""
            tds.append(f'<td class="{cls}"{tip}>{text}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    table = (f'<table class="credal-table"><thead><tr>{head}</tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>')
    if collapse:
        table = (f'<details class="credal-details"><summary>Show the table ({len(cells)} rows, '
                 f'{cells.shape[1]} columns)</summary>{table}</details>')
    parts = ['<div class="credal-table-block">']
    if caption:
        parts.append(f'<p class="credal-caption">{_inline(caption)}</p>')
    parts.append(table)
    if csv_href:
        parts.append(f'<p class="credal-download"><a class="credal-csv" href="{html.escape(csv_href)}"'
                     f' download>Download this table (CSV)</a></p>')
    parts.append("</div>")
    return "".join(parts)


class _HTML:
    """A displayable HTML fragment with a plain-text fallback (for papermill logs)."""

    def __init__(self, html: str, text: str):
        self.html, self.text = html, text

    def _repr_html_(self):
        return self.html

    def __repr__(self):
        return self.text


def _display(obj) -> None:
    try:
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with the book's extras
        print(repr(obj))
        return
    display(obj)


def book_tables_dir(notebook: str, root=None) -> Path:
    """``book/generated/_extra/tables/<notebook>/``: the CSV copies the built book serves."""
    base = Path(root) if root is not None else Path.cwd()
    out = base / "book" / "generated" / "_extra" / "tables" / notebook
    out.mkdir(parents=True, exist_ok=True)
    return out


def csv_href(notebook: str, table: str) -> str:
    """The link from a chapter's page (``generated/<notebook>.html``) to a table's CSV."""
    return f"../tables/{notebook}/{table}.csv"


def show_table(df: pd.DataFrame, notebook: str, table: str, *, caption=None, csv=None,
               index=None, csv_index=None, digits: int = 3, formats=None, max_rows=MAX_ROWS,
               collapse=None, wrap=(), titles=None, root=None, display=True) -> Path:
    """Save a table as CSV and show it in the book: compact, with a link to the CSV.

    Parameters
    ----------
    df : DataFrame
        The table to show.
    notebook, table : str
        The chapter's notebook name (``results/<notebook>/``); the table's file name, no ``.csv``.
    caption : str, optional
        Shown above the table, e.g. ``"Table 3. Accuracy per data set (the paper's
        Table 2)."``.  Number the tables yourself, per chapter.
    csv : DataFrame, optional
        What the CSV holds, if not ``df`` (e.g. the full table behind a compact view).
    index : bool, optional
        Show the index as leading column(s); default only a meaningful one (not a plain
        ``RangeIndex``).  See :func:`format_table`.
    csv_index : bool, optional
        Write the index to the CSV (as :func:`save_table`'s ``index``); default as
        ``index`` decides for the table written.
    digits, formats
        Rounding, see :func:`format_table`.
    max_rows, collapse : int (default :data:`MAX_ROWS`), bool (optional)
        Longer tables go in a collapsible block (closed); ``collapse`` forces (True) or
        prevents (False) it.
    wrap : tuple of str
        Columns whose text wraps even if it looks numeric.
    titles : dict of str -> sequence of str, optional
        Tooltips (a formula behind a number): one per row of a column, "" for none.
    root, display : path (optional), bool (default True)
        Project root (default: the working directory, as :func:`save_table`); False only
        writes the files (no display in a notebook).

    Returns
    -------
    Path
        The CSV written under ``results/<notebook>/`` (a byte copy goes to
        :func:`book_tables_dir`, which the built book serves at
        ``tables/<notebook>/<table>.csv``).

    Notes
    -----
    Printing rules: no default index, missing values as :data:`MISSING`, each numeric
    column rounded to ``digits`` significant digits at its typical size (whole numbers
    without ``.0``), :data:`THIN_SPACE` in thousands, no negative zero, p-value columns
    by :func:`format_p`, cells never truncated; a ``verdict`` column is coloured.
    """
    import shutil
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"show_table needs a DataFrame; got {type(df).__name__}")
    data = df if csv is None else csv
    if csv_index is None:
        csv_index = not (isinstance(data.index, pd.RangeIndex) and data.index.name is None) \
            if index is None else bool(index)
    path = save_table(data, notebook, table, root=root, index=csv_index)
    shutil.copyfile(path, book_tables_dir(notebook, root) / path.name)
    if display:
        cells = format_table(df, digits=digits, formats=formats, index=index)
        fold = len(cells) > max_rows if collapse is None else bool(collapse)
        html_text = table_html(cells, caption=caption, csv_href=csv_href(notebook, table),
                               collapse=fold, wrap=tuple(wrap), titles=titles)
        plain = (f"{caption}\n" if caption else "") + cells.to_string(index=False)
        _display(_HTML(html_text, plain))
    return path


def comparison_layout(df: pd.DataFrame, *, label, published="published", ours="ours",
                      tolerance="tolerance", verdict="verdict", note="note", unit=None,
                      digits: int = 3, max_decimals: int = 4) -> pd.DataFrame:
    """The published-vs-ours layout of a table (all strings), for :func:`comparison_table`.

    Columns, in order: the label column(s), ``published``, ``ours``, ``tolerance``
    (if given), ``unit`` (if given), ``verdict``, ``note`` (if the column exists).
    Numbers are rounded per row, so that rows in different units (percent, counts,
    fractions) each keep ``digits`` significant digits of the published value; ours and
    the tolerance use the same decimals (the tolerance at least one significant digit).
    Cells that are already text (``"86.8 ± 0.3"``) are kept as they are.

    Parameters
    ----------
    df : DataFrame
    label : str or list of str
        The column(s) naming what a row compares (at most 3).
    published, ours : str
        Columns of the paper's number and ours.
    tolerance, note, unit : str or None
        Columns of the tolerance, of notes (wrapped; left out when absent) and of units
        (shown after the tolerance); None leaves each out.
    verdict : str
        Column of the verdict; if ``df`` has none, it is computed by :func:`verdicts`
        from ``published``, ``ours`` and ``tolerance``.
    digits, max_decimals : int

    Returns
    -------
    DataFrame of str
    """
    labels = [label] if isinstance(label, str) else list(label)
    if not 1 <= len(labels) <= 3:
        raise ValueError(f"give one to three label columns; got {labels}")
    needed = labels + [published, ours] + ([tolerance] if tolerance else []) \
        + ([unit] if unit else [])
    if missing := [c for c in needed if c not in df.columns]:
        raise KeyError(f"comparison table: no column(s) {missing}; the table has "
                       f"{list(map(str, df.columns))}")
    d = df.reset_index(drop=True)
    if verdict in d.columns:
        verdict_col = d[verdict].astype(object)
    elif tolerance:
        frame = pd.DataFrame({"published": pd.to_numeric(d[published], errors="coerce"),
                              "ours": pd.to_numeric(d[ours], errors="coerce"),
                              "tolerance": pd.to_numeric(d[tolerance], errors="coerce")})
        verdict_col = verdicts(frame)
    else:
        raise KeyError(f"comparison table: no verdict column {verdict!r} and no tolerance to "
                       "compute one from")

    out = {str(c): format_table(d[[c]], digits=digits, index=False).iloc[:, 0].tolist()
           for c in labels}
    cells = [_comparison_cells(row[published], row[ours], row[tolerance] if tolerance else None,
                               digits, max_decimals) for _, row in d.iterrows()]
    for i, c in enumerate([published, ours] + ([tolerance] if tolerance else [])):
        out[str(c)] = [x[i] for x in cells]
    if unit:
        out[str(unit)] = [MISSING if _is_missing(x) else str(x) for x in d[unit]]
    out["verdict"] = [MISSING if _is_missing(v) or v == "" else str(v) for v in verdict_col]
    if note and note in d.columns:
        out[str(note)] = ["" if _is_missing(x) else str(x) for x in d[note]]
    return pd.DataFrame(out, dtype=object)


def _comparison_cells(p, o, t, digits, max_decimals):
    """Published, ours and tolerance of one row as text, to the published value's digits."""
    numbers = [x for x in (p, o) if _is_number(x) and not _is_missing(x)
               and np.isfinite(float(x))]
    if numbers:
        ref = next((abs(float(x)) for x in numbers if float(x) != 0), 0.0)
        if all(float(x) == round(float(x)) for x in numbers):
            dec = 0
        else:
            dec = int(np.clip(digits - 1 - math.floor(math.log10(ref)), 0, max_decimals)) \
                if ref else max_decimals
    else:
        dec = 2

    def cell(x, decimals=dec):
        return MISSING if _is_missing(x) else format_number(x, decimals) if _is_number(x) \
            else str(x)
    if _is_number(t) and not _is_missing(t) and 0 < float(t) < 10 ** (-dec):
        tdec = min(max_decimals + 2, -math.floor(math.log10(float(t))))
        t_cell = cell(t, max(dec, tdec))
    else:
        t_cell = cell(t)
    return cell(p), cell(o), t_cell


def comparison_table(df: pd.DataFrame, notebook: str, table: str, *, label,
                     published="published", ours="ours", tolerance="tolerance",
                     verdict="verdict", note="note", unit=None, caption=None, digits: int = 3,
                     csv_index=False, max_rows=MAX_ROWS, collapse=None, root=None,
                     display=True) -> pd.DataFrame:
    """Save a published-vs-ours table as CSV (unchanged) and show it in the standard layout.

    The reader sees label -> published -> ours -> tolerance -> verdict (coloured) ->
    note (wrapped), at most seven columns (:func:`comparison_layout`, whose arguments
    ``label`` to ``digits`` are); the CSV linked under it holds ``df`` with all its columns
    (its index only with ``csv_index``). ``notebook``, ``table``, ``caption``, ``max_rows``,
    ``collapse``, ``root`` and ``display`` are as for :func:`show_table`.

    Returns
    -------
    DataFrame
        The layout shown (strings).
    """
    layout = comparison_layout(df, label=label, published=published, ours=ours,
                               tolerance=tolerance, verdict=verdict, note=note, unit=unit,
                               digits=digits)
    note_cols = (str(note),) if note and str(note) in layout.columns else ()
    show_table(layout, notebook, table, caption=caption, csv=df, index=False,
               csv_index=csv_index, max_rows=max_rows, collapse=collapse, wrap=note_cols,
               root=root, display=display)
    return layout


def book_style() -> None:
    """Matplotlib settings for the book: SVG output, legible text, text-width figures.

    Call once at the top of a chapter (after the imports).  Figures are drawn as SVG
    (sharp at any zoom), ``TEXT_WIDTH`` inches wide by default so that the book shows
    them at their natural size at 1280x800, and with text of at least 9 pt (ticks and
    legends 9 pt, labels 10 pt, titles 11 pt).  A figure wider than the text column is
    shrunk and its text with it: keep at most two panels per row at ``TEXT_WIDTH``.
    """
    import matplotlib as mpl
    mpl.rcParams.update({
        "figure.figsize": (TEXT_WIDTH, TEXT_WIDTH * 0.6),
        "font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10,
        "xtick.labelsize": 9, "ytick.labelsize": 9, "legend.fontsize": 9,
        "legend.title_fontsize": 9, "figure.titlesize": 11,
        "svg.fonttype": "path", "savefig.format": "svg",
        "figure.constrained_layout.use": False,
    })
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
        from matplotlib_inline.config import InlineBackend
    except ImportError:  # outside Jupyter: the rcParams above still apply
        return
    # both: the formatter of the running shell now, and the setting the inline backend
    # re-applies if pyplot is first imported later
    InlineBackend.instance().figure_formats = {"svg"}
    set_matplotlib_formats("svg")


def format_duration(seconds: float) -> str:
    """``"41 s"``, ``"3 min 05 s"``, ``"1 h 02 min"``."""
    s = int(round(float(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


def previous_run_time(notebook: str, profile: str, root=None):
    """Seconds of the notebook's last run at ``profile`` (results/_timings), or None."""
    base = Path(root) if root is not None else Path.cwd()
    path = base / "results" / "_timings" / f"{profile}.csv"
    if not path.is_file():
        return None
    try:
        t = pd.read_csv(path)
        hit = t.loc[t["notebook"] == notebook, "seconds"]
    except (KeyError, ValueError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None
    return float(hit.iloc[-1]) if len(hit) else None


# --- section: the claim box's entry for the notebooks (issue 28) ---
def claim_box(chapter: str, headline, *, cite: str, **kwargs):
    """The claim box under a paper chapter's title (the paper's reference, its claims in
    words with our verdicts, the rerun command and the run's provenance): see
    :func:`credal.chapters._claims.claim_box`, whose arguments these are.  A notebook
    glues it as ``claims`` and shows it with ``{glue} claims`` right under its title."""
    from credal.chapters._claims import claim_box as box

    return box(chapter, headline, cite=cite, **kwargs)
# --- end of section ---
