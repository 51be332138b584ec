"""Readers for the file formats the compendium's data come in.

* Weka ARFF (dense only): :func:`read_arff` / :func:`parse_arff`, parsed by
  liac-arff (the reader scikit-learn vendors for ``fetch_openml``);
* Orange ``.tab`` with its three header lines (names, types, flags):
  :func:`read_tab` / :func:`parse_tab`;
* plain delimited text (comma or whitespace separated, with or without a
  header row): :func:`read_delimited` / :func:`parse_delimited`; these two
  formats are tokenized by :func:`pandas.read_csv`.

Every reader returns a :class:`pandas.DataFrame` whose nominal columns are
categoricals and whose numeric columns are ``float64``; missing values are NaN.
A malformed file raises :class:`ValueError` whose message starts with the file
name and, where known, the 1-based line number, followed by what is wrong.

Only regular files are read (a device or a pipe is refused). Parsed files are kept in
an in-memory cache keyed by path *and* content (so an edited file is parsed again),
bounded by :data:`CACHE_BYTES` in all; callers always receive a deep copy.
"""

from __future__ import annotations

import functools
import math
import re
import stat
from os import PathLike
from pathlib import Path

import arff
import numpy as np
import pandas as pd

__all__ = ["read_arff", "parse_arff", "read_tab", "parse_tab", "read_delimited",
           "parse_delimited", "natural_sort"]


# ------------------------------------------------------------------------ shared helpers
def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # old UCI files are sometimes Latin-1; every byte is valid there
        return data.decode("latin-1")


def _lines(text: str) -> list[str]:
    # CRLF and lone CR become LF (str.splitlines would also split on \f, \v...); a
    # UTF-8 byte-order mark is no content
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _float_or_none(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def natural_sort(values) -> list[str]:
    """The labels ``values`` (iterable of str) sorted, as a list of str: in numeric order
    (ties broken by the text) when every label parses as a finite number, plain string order
    otherwise."""
    values = list(dict.fromkeys(values))
    nums = [_float_or_none(v) for v in values]
    if values and all(x is not None and math.isfinite(x) for x in nums):
        return [v for _, v in sorted(zip(nums, values))]
    return sorted(values)


def _inferred_kind(tokens) -> str:
    """"numeric" when every token that is not None is a number (and there is one)."""
    observed = [v for v in tokens if v is not None]
    numeric = observed and all(_float_or_none(v) is not None for v in observed)
    return "numeric" if numeric else "nominal"


def _where(source: str, line: int) -> str:
    return f"{source}, line {line}"


def _numeric_column(values, lines, name, source) -> np.ndarray:
    """Convert tokens (None = missing) to float64, naming the first bad token."""
    arr = np.asarray(values, dtype=object)
    missing = pd.isna(arr)
    tokens = arr.copy()
    tokens[missing] = "nan"
    try:
        out = tokens.astype(np.float64)
    except (ValueError, TypeError):
        out = None
    # a spelled-out 'nan' would pass for a missing value; 'inf' and 1e400 are no data
    if out is not None and np.isfinite(out[~missing]).all():
        return out
    result = np.full(len(arr), np.nan)
    for i, v in enumerate(arr):
        if missing[i]:
            continue
        x = _float_or_none(v)
        if x is None or not math.isfinite(x):
            raise ValueError(f"{_where(source, lines[i])}: value {v!r} of numeric column "
                             f"{name!r} is not a finite number")
        result[i] = x
    return result


def _nominal_column(values, categories, lines, name, source) -> pd.Categorical:
    """Map tokens to declared categories, naming the first undeclared token."""
    categories = list(categories)
    if len(set(categories)) != len(categories):
        dup = next(c for c in categories if categories.count(c) > 1)
        raise ValueError(f"{source}: column {name!r} declares category {dup!r} twice")
    arr = np.asarray(values, dtype=object)
    missing = pd.isna(arr)
    index = pd.Index(categories, dtype=object)
    codes = index.get_indexer(arr)
    bad = (codes < 0) & ~missing
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        shown = categories[:12] + ["..."] * (len(categories) > 12)
        raise ValueError(f"{_where(source, lines[i])}: value {values[i]!r} of column {name!r} "
                         f"is not among its declared categories {shown}")
    return pd.Categorical.from_codes(codes, categories=_category_index(categories))


# pandas 3 stores text in its "str" dtype (NaN = missing); pandas 2 would turn
# NaN into the text 'nan' under dtype="str", so it keeps object columns there
_STR_DTYPE = "str" if int(pd.__version__.split(".")[0]) >= 3 else object


def _category_index(categories) -> pd.Index:
    # keep labels as text even when they look like numbers ('05' != '5')
    return pd.Index([str(c) for c in categories], dtype=_STR_DTYPE)


def _string_column(values) -> pd.Series:
    arr = np.asarray(values, dtype=object)
    arr[pd.isna(arr)] = np.nan
    return pd.Series(arr, dtype=_STR_DTYPE)


def _read_blob(path) -> tuple[str, bytes]:
    # the parse cache below keys on the bytes themselves: an edited file is parsed again
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # a device or a pipe could never end
            raise ValueError(f"{p} is not a regular file (a directory, device or pipe)")
        data = p.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"data file not found: {p}") from None
    return str(p), data


#: parsed files kept in memory, at most this many bytes (file and frame) in all
CACHE_BYTES = 128 * 2**20
_PARSED: dict = {}  # (parser, path, blob, ...) -> (result, bytes), least recent first


def _bounded_cache(parse):
    """``parse(path, blob, ...)`` remembered within :data:`CACHE_BYTES`."""
    @functools.wraps(parse)
    def cached(*args):
        key = (parse, *args)
        hit = _PARSED.pop(key, None)
        if hit is None:
            res = parse(*args)
            hit = res, len(args[1]) + int(res[0].memory_usage(deep=True).sum())
        _PARSED[key] = hit
        while sum(size for _, size in _PARSED.values()) > CACHE_BYTES:
            del _PARSED[next(iter(_PARSED))]
        return hit[0]
    return cached


def _copy_result(result):
    frame, extra = result
    return frame.copy(deep=True), (dict(extra) if isinstance(extra, dict) else extra)


# ---------------------------------------------------------------------- ARFF (liac-arff)
# Weka's "integer [1,10]" range annotations carry no data; liac-arff would also
# truncate INTEGER values with int(float(x)), so every numeric type becomes REAL
_NUMERIC_TYPE = re.compile(r"(?i)\s(?:numeric|real|integer)\s*(?:[\[(][^\])]*[\])])?$")
_QUOTED_NAME = re.compile(r"""(?i)@attribute\s+(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s+""")
_ESCAPE, _ESCAPES = re.compile(r"\\(.)"), {"n": "\n", "r": "\r", "t": "\t"}
# what each liac-arff exception means, said before liac-arff's own message
_ARFF_ERRORS = {
    arff.BadDataFormat: "wrong number of values",
    arff.BadNominalValue: "value not among its declared categories",
    arff.BadNumericalValue: "non-numeric value in a numeric column",
    arff.BadAttributeType: "unknown attribute type or malformed declaration "
    "(date and relational attributes are not supported)",
    arff.BadAttributeName: "attribute already declared",
    arff.BadRelationFormat: "malformed @relation line",
    arff.BadLayout: "malformed line, or @relation/@attribute/@data out of order",
}


def _strip_comment(line: str) -> str:
    """Cut a line at the first ``%`` outside quotes (liac-arff keeps it)."""
    if "%" not in line:
        return line
    quote, escaped = None, False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote:
            escaped = True
        elif quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "%":
            return line[:i]
    return line


def _arff_prepare(lines: list[str], source: str):
    """Check the header and normalise lines for liac-arff (in place).
    Returns the 1-based lines of the ``@attribute`` declarations and of the data rows, and the
    quoted attribute names: liac-arff's greedy pattern cuts ``'a b' {'c d'}`` wrongly and keeps
    escapes, so they are read here."""
    attr_lines, data_at, quoted = [], None, {}
    for i, raw in enumerate(lines):
        line = lines[i] = _strip_comment(raw).strip()
        low = line.lower()
        if not line:
            continue
        if low.startswith("@attribute"):
            attr_lines.append(i + 1)
            if re.search(r"\{\s*\}$", line):
                raise ValueError(f"{_where(source, i + 1)}: nominal attribute declares "
                                 "no values")
            line = lines[i] = _NUMERIC_TYPE.sub(" REAL", line)
            m = _QUOTED_NAME.match(line)
            if not m and line[10:].lstrip()[:1] in ("'", '"'):
                raise ValueError(f"{_where(source, i + 1)}: the attribute name's quote is "
                                 f"not closed in {raw.strip()[:60]!r}")
            if m:
                key = f"__quoted_{len(attr_lines)}"
                quoted[key] = _ESCAPE.sub(lambda e: _ESCAPES.get(e[1], e[1]),
                                         m[1] if m[1] is not None else m[2])
                lines[i] = f"@attribute {key} {line[m.end():]}"
        elif low.startswith("@data"):
            data_at = i
            break
        elif not low.startswith("@relation"):
            raise ValueError(f"{_where(source, i + 1)}: unexpected line in header: "
                             f"{line[:60]!r}")
        elif len(line.split(None, 1)) < 2:
            raise ValueError(f"{_where(source, i + 1)}: @relation without a name")
    if data_at is None:
        raise ValueError(f"{source}: no @data section found")
    row_lines = []
    for i in range(data_at + 1, len(lines)):
        line = lines[i] = _strip_comment(lines[i]).strip()
        if line:
            if line[0] == "{":
                raise ValueError(f"{_where(source, i + 1)}: sparse ARFF instances are "
                                 "not supported")
            row_lines.append(i + 1)
    return attr_lines, row_lines, quoted


def parse_arff(text: str, source: str = "<string>") -> tuple[pd.DataFrame, str]:
    """Parse ``text``, the contents (LF or CRLF line ends) of a dense Weka ARFF file, with
    liac-arff; ``source`` (str, usually the file path) names it in error messages.
    Returns ``(frame, relation)``: a DataFrame of shape (n_instances, n_attributes) with nominal
    attributes as categoricals with the declared categories in declared order (also those never
    observed), numeric attributes as float64, string attributes as strings, missing values NaN;
    and the ``@relation`` name (str). Raises ValueError on malformed input; the message names
    ``source``, the 1-based line and the problem (liac-arff's own message where it found it).
    Sparse ARFF and date or relational attributes are rejected.
    """
    lines = _lines(text)
    given = list(lines)  # as written, for messages (_arff_prepare rewrites lines)
    attr_lines, row_lines, quoted = _arff_prepare(lines, source)
    decoder = arff.ArffDecoder()
    try:
        obj = decoder.decode(lines, encode_nominal=False, return_type=arff.DENSE)
    except (arff.ArffException, ValueError) as exc:
        # liac-arff counts the lines it has read: the last one is the culprit
        line = decoder._current_line
        msg = re.sub(r",? (?:at|in) line \d+\.?", "", str(exc)).strip()
        msg = re.sub(r"__quoted_\d+", lambda m: repr(quoted[m[0]]), msg)
        lead = _ARFF_ERRORS.get(type(exc), "cannot parse")
        raise ValueError(f"{_where(source, line)}: {lead} in {given[line - 1].strip()[:60]!r} "
                         f"(liac-arff: {msg})") from None
    n = len(row_lines)
    columns = list(zip(*obj["data"])) if n else [()] * len(attr_lines)
    out = {}
    for (name, kind), col, line in zip(obj["attributes"], columns, attr_lines):
        where = _where(source, line)
        name = quoted.get(name, name)
        if name in out:
            raise ValueError(f"{where}: attribute {name!r} already declared")
        if isinstance(kind, list):  # nominal: liac-arff checked the values
            if None in kind:
                raise ValueError(f"{where}: nominal attribute {name!r} declares an "
                                 "empty value or an unquoted '?'")
            if len(set(kind)) != len(kind):
                dup = next(c for c in kind if kind.count(c) > 1)
                raise ValueError(f"{where}: nominal attribute {name!r} declares "
                                 f"{dup!r} twice")
            out[name] = pd.Categorical(col, categories=_category_index(kind))
        elif kind == "STRING":
            out[name] = _string_column(col)
        else:
            values = np.array([np.nan if v is None else v for v in col], dtype=float)
            # a spelled-out 'nan' would pass for a missing value; inf (also 1e400) is no datum
            given = np.array([v is not None for v in col], bool)
            bad = np.flatnonzero(~np.isfinite(values) & given)
            if bad.size:
                at = row_lines[bad[0]]
                raise ValueError(f"{_where(source, at)}: numeric column {name!r} holds a value "
                                 f"that is not a finite number in {lines[at - 1][:60]!r}")
            out[name] = values
    return pd.DataFrame(out, index=pd.RangeIndex(n)), obj["relation"]


@_bounded_cache
def _arff_cached(path: str, blob: bytes):
    return parse_arff(_decode(blob, path), source=path)


def read_arff(path: str | PathLike) -> tuple[pd.DataFrame, str]:
    """Read the dense Weka ARFF file at ``path`` (str or path-like), see :func:`parse_arff`:
    ``(frame, relation)``, a DataFrame of shape (n_instances, n_attributes) and a str."""
    p, blob = _read_blob(path)
    return _copy_result(_arff_cached(p, blob))


# ------------------------------------------------------ delimited rows (pandas.read_csv)
def _split_rows(lines: list[str], start: int, sep: str | None, k: int, source: str):
    """Split the non-blank lines from ``lines[start]`` at ``sep`` (no quoting).
    ``sep=None`` splits on runs of blanks. Returns the fields, an object array of shape (n_rows,
    k), and the 1-based line of each row. Linear in the size of the text, however wide
    (pandas.read_csv took minutes for 100,000 columns)."""
    body = pd.Series(lines[start:], index=range(start + 1, len(lines) + 1), dtype=object)
    body = body[body.str.strip() != ""]
    parts = body.str.split() if sep is None else body.str.split(sep, regex=False)
    counts = parts.str.len()
    bad = np.flatnonzero(counts.to_numpy() != k)
    if bad.size:
        raise ValueError(f"{_where(source, body.index[bad[0]])}: wrong number of values: "
                         f"expected {k}, found {counts.iloc[bad[0]]}")
    fields = np.empty((len(body), k), dtype=object)
    fields[:] = parts.tolist() if len(body) else fields
    return fields, body.index.tolist()


# --------------------------------------------------------------------------- Orange .tab
_TAB_MISSING = {"", "?", ".", "~", "NA"}  # Orange's missing-value markers
# Orange's flags, spelled out or by their first letter
_TAB_FLAGS = {k: r for r in ("class", "meta", "ignore", "weight") for k in (r, r[0])}


def _tab_type(token: str, name: str, where: str):
    t = token.strip()
    low = t.lower()
    if low in ("c", "continuous"):
        return ("numeric", None)
    if low in ("d", "discrete"):
        return ("nominal", None)
    if low in ("s", "string", "t", "time"):
        return ("string", None)
    if low == "":
        return ("infer", None)
    if " " in t:
        # explicit value list, space-separated, "\ " escapes a space
        values = [v.replace("\\ ", " ") for v in re.split(r"(?<!\\) +", t)]
        return ("nominal", values)
    raise ValueError(f"{where}: unknown type {token!r} for column {name!r}")


def parse_tab(text: str, source: str = "<string>") -> tuple[pd.DataFrame, dict]:
    """Parse ``text`` (str), an Orange ``.tab`` file in the three-header-line form; ``source``
    (str) names it in error messages.
    Line 1 holds the column names, line 2 the types (``c``/``continuous``,
    ``d``/``discrete``, ``s``/``string``, or a space-separated value list for
    a discrete column with declared values), line 3 the flags (``class``,
    ``meta``, ``ignore``/``i``, ``weight``; empty = ordinary feature).
    Returns ``(frame, roles)``: a DataFrame of shape (n_rows, n_columns) with all columns, in
    file order (discrete columns without a value list get the observed values as categories,
    numerically sorted when they are all numbers; missing markers ``?``, ``~``, ``.``, ``NA``
    and empty become NaN), and a dict column name -> flag (``"class"``, ``"meta"``,
    ``"ignore"``, ``"weight"`` or ``""``).
    """
    lines = _lines(text)
    if len(lines) < 3:
        raise ValueError(f"{source}: a .tab file needs three header lines")
    names = [n.strip() for n in lines[0].split("\t")]
    k = len(names)
    if any(n == "" for n in names):
        raise ValueError(f"{_where(source, 1)}: empty column name")
    if len(set(names)) < k:
        seen = set()
        dup = next(n for n in names if n in seen or seen.add(n))
        raise ValueError(f"{_where(source, 1)}: column {dup!r} appears twice")
    types_raw = lines[1].split("\t")
    flags_raw = lines[2].split("\t")
    for lineno, fields, what in ((2, types_raw, "types"), (3, flags_raw, "flags")):
        if len(fields) > k:
            raise ValueError(f"{_where(source, lineno)}: {len(fields)} {what} for {k} columns")
    types_raw += [""] * (k - len(types_raw))
    flags_raw += [""] * (k - len(flags_raw))
    types = [_tab_type(t, n, _where(source, 2)) for t, n in zip(types_raw, names)]
    roles = {}
    for name, flag in zip(names, flags_raw):
        words = flag.split()
        role = ""
        for w in words:
            if "=" in w:  # Orange key=value annotations carry no data
                continue
            if w.lower() not in _TAB_FLAGS:
                raise ValueError(f"{_where(source, 3)}: unknown flag {w!r} for {name!r}")
            role = _TAB_FLAGS[w.lower()]
        roles[name] = role

    fields, row_lines = _split_rows(lines, 3, "\t", k, source)
    columns = [[None if (v := f.strip()) in _TAB_MISSING else v for f in col] for col in fields.T]
    out = {}
    for name, (kind, cats), col in zip(names, types, columns):
        col = list(col)
        if kind == "infer":
            kind = _inferred_kind(col)
        if kind == "numeric":
            out[name] = _numeric_column(col, row_lines, name, source)
        elif kind == "nominal":
            if cats is None:
                cats = natural_sort(v for v in col if v is not None)
            out[name] = _nominal_column(col, cats, row_lines, name, source)
        else:
            out[name] = _string_column(col)
    return pd.DataFrame(out, index=pd.RangeIndex(len(row_lines))), roles


@_bounded_cache
def _tab_cached(path: str, blob: bytes):
    return parse_tab(_decode(blob, path), source=path)


def read_tab(path: str | PathLike) -> tuple[pd.DataFrame, dict]:
    """Read the Orange ``.tab`` file at ``path`` (str or path-like), see :func:`parse_tab`:
    ``(frame, roles)``, a DataFrame of shape (n_rows, n_columns) and a dict column name ->
    Orange flag (``"class"``, ``"meta"``, ``"ignore"``, ``"weight"`` or ``""``)."""
    p, blob = _read_blob(path)
    return _copy_result(_tab_cached(p, blob))


# ---------------------------------------------------------------- generic delimited text
def parse_delimited(text: str, source: str = "<string>", *, sep: str = ",", header: bool = False,
                    names=None, skip_rows: int = 0, missing=("?",), nominal=(), numeric=(),
                    categories=None, strip_suffix=None) -> pd.DataFrame:
    """Parse ``text`` (str), comma- or whitespace-separated, into a DataFrame of shape
    (n_rows, n_columns); ``source`` (str) names it in error messages.
    ``sep`` (``","`` or ``"whitespace"``) is the field separator: ``"whitespace"`` splits on runs
    of blanks and tabs; around commas, surrounding blanks are stripped. ``header`` (bool): whether
    the first line (after ``skip_rows``) holds the column names. ``names`` (sequence of str,
    optional): column names, required when ``header`` is false; given with ``header=True``, the
    header row is checked to have the same length and then replaced by ``names``. ``skip_rows``
    (int): leading lines to ignore (e.g. a header row an uploader added). ``missing`` (sequence of
    str): tokens meaning "missing". ``nominal``, ``numeric`` (sequences of str): columns forced to
    be categorical / float; other columns are numeric when every non-missing value is a number,
    categorical otherwise. ``categories`` (dict, optional): column -> declared categories (in
    order) for nominal columns, a value outside them being an error; without it the observed
    values are used, numerically sorted when they are all numbers. ``strip_suffix`` (dict,
    optional): column -> suffix removed from its values (e.g. ``{"class": "."}``).
    """
    if sep not in (",", "whitespace"):
        raise ValueError(f"sep must be ',' or 'whitespace', got {sep!r}")
    if not isinstance(skip_rows, int) or skip_rows < 0:
        raise ValueError(f"skip_rows must be a non-negative integer, got {skip_rows!r}")
    if sep == ",":
        # blanks around commas carry no data; str.replace over the whole text
        # is much faster than stripping every field
        for pair in (", ", " ,", ",\t", "\t,"):
            while pair in text:
                text = text.replace(pair, ",")
    lines = _lines(text)
    if sep == ",":
        lines = [line.strip() for line in lines]
    missing = set(missing)
    categories = dict(categories or {})
    strip_suffix = dict(strip_suffix or {})

    def split(line):
        return line.split(",") if sep == "," else line.split()

    i = skip_rows
    if header:
        while i < len(lines) and lines[i].strip() == "":
            i += 1
        if i >= len(lines):
            raise ValueError(f"{source}: no header line")
        head = split(lines[i])
        if names is None:
            names = head
        elif len(names) != len(head):
            raise ValueError(f"{_where(source, i + 1)}: header has {len(head)} columns, "
                             f"expected {len(names)}")
        i += 1
    if names is None:
        raise ValueError(f"{source}: column names are needed when header=False")
    names = [str(n) for n in names]
    if len(set(names)) != len(names):
        raise ValueError(f"{source}: duplicate column names {names}")
    k = len(names)
    for col in [*nominal, *numeric, *categories, *strip_suffix]:
        if col not in names:
            raise ValueError(f"{source}: unknown column {col!r} in reader options")

    fields, row_lines = _split_rows(lines, i, sep if sep == "," else None, k, source)
    columns = fields.T
    out = {}
    for name, col in zip(names, columns):
        col = np.array(col, dtype=object)
        col[pd.Series(col).isin(missing).to_numpy()] = None
        suffix = strip_suffix.get(name)
        if suffix:
            col = [v[:-len(suffix)] if v is not None and v.endswith(suffix) else v for v in col]
        if name in numeric:
            kind = "numeric"
        elif name in nominal or name in categories:
            kind = "nominal"
        else:
            kind = _inferred_kind(col)
        if kind == "numeric":
            out[name] = _numeric_column(col, row_lines, name, source)
        else:
            cats = categories.get(name)
            if cats is None:
                cats = natural_sort(v for v in col if v is not None)
            out[name] = _nominal_column(col, [str(c) for c in cats], row_lines, name, source)
    return pd.DataFrame(out, index=pd.RangeIndex(len(row_lines)))


@_bounded_cache
def _delimited_cached(path: str, blob: bytes, options: tuple):
    kw = {k: dict(v) if k in ("categories", "strip_suffix") else v for k, v in options}
    return parse_delimited(_decode(blob, path), source=path, **kw), None


def read_delimited(path: str | PathLike, **options) -> pd.DataFrame:
    """Read the comma- or whitespace-separated text at ``path`` (str or path-like) into a
    DataFrame of shape (n_rows, n_columns); ``**options`` go to :func:`parse_delimited`."""
    p, blob = _read_blob(path)
    frozen = []
    for key, value in sorted(options.items()):
        if key in ("categories", "strip_suffix") and value is not None:
            value = tuple((k, tuple(v) if isinstance(v, (list, tuple)) else v)
                          for k, v in sorted(dict(value).items()))
        elif isinstance(value, (list, set)):
            value = tuple(value)
        frozen.append((key, value))
    return _copy_result(_delimited_cached(p, blob, tuple(frozen)))[0]
