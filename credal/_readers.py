"""Parsers for the file formats the compendium's data come in.

Three formats are read:

* Weka ARFF (dense only): :func:`read_arff` / :func:`parse_arff`;
* Orange ``.tab`` with its three header lines (names, types, flags):
  :func:`read_tab` / :func:`parse_tab`;
* plain delimited text (comma or whitespace separated, with or without a
  header row): :func:`read_delimited` / :func:`parse_delimited`.

Every reader returns a :class:`pandas.DataFrame` whose nominal columns are
categoricals and whose numeric columns are ``float64``; missing values are NaN.
A malformed file raises :class:`ValueError` whose message starts with the file
name and the 1-based line number, followed by what is wrong.

Parsed files are kept in an in-memory cache keyed by path *and* content digest
(so an edited file is parsed again); callers always receive a deep copy.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "read_arff",
    "parse_arff",
    "read_tab",
    "parse_tab",
    "read_delimited",
    "parse_delimited",
    "natural_sort",
]

# ---------------------------------------------------------------------------
# shared helpers
# ---------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}
_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def _unescape(text: str) -> str:
    """Undo backslash escapes inside a quoted ARFF token (``\\'`` -> ``'``)."""
    if "\\" not in text:
        return text
    return _ESCAPE_RE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # old UCI files are sometimes Latin-1; every byte is valid there
        return data.decode("latin-1")


def _lines(text: str) -> list[str]:
    # CRLF and lone CR become LF; str.splitlines would also split on \f, \v...
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _float_or_none(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def natural_sort(values) -> list[str]:
    """Sort category labels numerically when all of them are numbers.

    Parameters
    ----------
    values : iterable of str

    Returns
    -------
    list of str
        Numeric order (ties broken by the text) when every label parses as a
        finite number, plain string order otherwise.
    """
    values = list(dict.fromkeys(values))
    nums = [_float_or_none(v) for v in values]
    if values and all(x is not None and math.isfinite(x) for x in nums):
        return [v for _, v in sorted(zip(nums, values))]
    return sorted(values)


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
    # a spelled-out 'nan' in the file would pass for a missing value
    if out is not None and not (np.isnan(out) & ~missing).any():
        return out
    result = np.full(len(arr), np.nan)
    for i, v in enumerate(arr):
        if missing[i]:
            continue
        x = _float_or_none(v)
        if x is None or math.isnan(x):
            raise ValueError(
                f"{_where(source, lines[i])}: non-numeric value {v!r} in numeric "
                f"column {name!r}"
            )
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
        shown = list(categories)
        if len(shown) > 12:
            shown = shown[:12] + ["..."]
        raise ValueError(
            f"{_where(source, lines[i])}: value {values[i]!r} of column {name!r} "
            f"is not among its declared categories {shown}"
        )
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


class _Blob:
    """File bytes that hash by content digest, so lru_cache can key on them."""

    __slots__ = ("data", "digest")

    def __init__(self, data: bytes):
        self.data = data
        self.digest = hashlib.blake2b(data, digest_size=20).digest()

    def __hash__(self):
        return hash(self.digest)

    def __eq__(self, other):
        return isinstance(other, _Blob) and other.digest == self.digest


def _read_blob(path) -> tuple[str, _Blob]:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"data file not found: {p}") from None
    return str(p), _Blob(data)


def _copy_result(result):
    frame, extra = result
    return frame.copy(deep=True), (dict(extra) if isinstance(extra, dict) else extra)


# ---------------------------------------------------------------------------
# ARFF
# ---------------------------------------------------------------------------

# one value: a quoted string (with backslash escapes) or an unquoted run
_ARFF_TOKEN = re.compile(
    r"""[ \t]*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^,'"%{}]*))[ \t]*""",
    re.DOTALL,
)
_NUMERIC_TYPES = {"numeric", "real", "integer"}


def _split_arff_values(text: str, where: str) -> list[str | None]:
    """Split one comma-separated ARFF value list.

    Returns the values with quotes and escapes removed; an unquoted ``?``
    (missing) becomes ``None``. A ``%`` outside quotes starts a comment.
    """
    out: list[str | None] = []
    pos, n = 0, len(text)
    while True:
        m = _ARFF_TOKEN.match(text, pos)
        single, double, bare = m.group(1), m.group(2), m.group(3)
        pos = m.end()
        if single is not None or double is not None:
            out.append(_unescape(single if single is not None else double))
        else:
            bare = bare.strip()
            if bare == "":
                if pos >= n or text[pos] in ",%":
                    raise ValueError(f"{where}: empty value (position {len(out) + 1})")
                raise ValueError(
                    f"{where}: unexpected character {text[pos]!r} "
                    f"(position {len(out) + 1})"
                )
            if any(c.isspace() for c in bare):
                raise ValueError(
                    f"{where}: unquoted value {bare!r} contains whitespace; "
                    "quote it ('...')"
                )
            out.append(None if bare == "?" else bare)
        if pos >= n or text[pos] == "%":
            return out
        if text[pos] != ",":
            raise ValueError(
                f"{where}: unexpected character {text[pos]!r} after value "
                f"{len(out)} (missing comma or unbalanced quote?)"
            )
        pos += 1
        if pos >= n or text[pos:].strip() == "":
            raise ValueError(f"{where}: empty value after trailing comma")


def _split_quoted_simple(line: str) -> list[str | None] | None:
    """Fast split of a data line whose quoted values hold no comma or escape.

    Returns None when the line needs the full tokenizer (which also produces
    the error messages).
    """
    if "\\" in line or "%" in line or "{" in line or "}" in line:
        return None
    out: list[str | None] = []
    for t in line.split(","):
        t = t.strip()
        if not t:
            return None
        q = t[0]
        if q == "'" or q == '"':
            body = t[1:-1]
            if len(t) < 2 or t[-1] != q or "'" in body or '"' in body:
                return None
            out.append(body)
        elif t == "?":
            out.append(None)
        elif "'" in t or '"' in t or " " in t or "\t" in t:
            return None
        else:
            out.append(t)
    return out


def _strip_comment(line: str) -> str:
    """Cut a header line at the first ``%`` outside quotes."""
    if "%" not in line:
        return line
    quote, escaped = None, False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote:
            escaped = True
        elif quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "%":
            return line[:i]
    return line


def _arff_name(rest: str, where: str) -> tuple[str, str]:
    """Split a leading (possibly quoted) name off ``rest``."""
    rest = rest.lstrip()
    if not rest:
        raise ValueError(f"{where}: missing name")
    if rest[0] in "'\"":
        q = rest[0]
        m = re.match(q + r"((?:[^" + q + r"\\]|\\.)*)" + q, rest, re.DOTALL)
        if not m:
            raise ValueError(f"{where}: unbalanced quote in name")
        return _unescape(m.group(1)), rest[m.end():]
    m = re.match(r"[^\s{]+", rest)
    return m.group(0), rest[m.end():]


def _parse_attribute(rest: str, where: str):
    """Parse the part of an ``@attribute`` line after the keyword."""
    name, spec = _arff_name(rest, where)
    spec = spec.strip()
    if not spec:
        raise ValueError(f"{where}: attribute {name!r} has no type")
    if spec.startswith("{"):
        if not spec.endswith("}"):
            raise ValueError(
                f"{where}: nominal attribute {name!r}: missing closing '}}'"
            )
        inner = spec[1:-1]
        if inner.strip() == "":
            raise ValueError(f"{where}: nominal attribute {name!r} declares no values")
        values = _split_arff_values(inner, where)
        if any(v is None for v in values):
            # an unquoted ? cannot be a declared label (Weka reads it as missing)
            raise ValueError(
                f"{where}: nominal attribute {name!r} declares an unquoted '?'"
            )
        seen = set()
        for v in values:
            if v in seen:
                raise ValueError(
                    f"{where}: nominal attribute {name!r} declares {v!r} twice"
                )
            seen.add(v)
        return name, ("nominal", values)
    word = re.match(r"[A-Za-z]+", spec)
    kind = word.group(0).lower() if word else spec.split()[0]
    tail = spec[word.end():].strip() if word else ""
    if kind in _NUMERIC_TYPES:
        # Weka-style range annotations such as "integer [1,10]" carry no data
        if tail and not re.fullmatch(r"[\[(][^\])]*[\])]", tail):
            raise ValueError(
                f"{where}: attribute {name!r}: unexpected text {tail!r} after type"
            )
        return name, ("numeric", None)
    if kind == "string":
        return name, ("string", None)
    if kind == "date":
        return name, ("date", None)
    if kind == "relational":
        raise ValueError(f"{where}: relational attributes are not supported ({name!r})")
    raise ValueError(f"{where}: unknown attribute type {spec!r} for attribute {name!r}")


def parse_arff(text: str, source: str = "<string>") -> tuple[pd.DataFrame, str]:
    """Parse the text of a dense Weka ARFF file.

    Parameters
    ----------
    text : str
        File contents (LF or CRLF line ends).
    source : str
        Name used in error messages (usually the file path).

    Returns
    -------
    frame : DataFrame, shape (n_instances, n_attributes)
        Nominal attributes as categoricals with the declared categories in
        declared order (also those never observed); numeric attributes as
        float64; string and date attributes as strings. Missing values are NaN.
    relation : str
        The ``@relation`` name.

    Raises
    ------
    ValueError
        On malformed input; the message names ``source``, the 1-based line and
        the problem. Sparse ARFF is rejected.
    """
    lines = _lines(text)
    relation = None
    attrs: list[tuple[str, tuple]] = []
    names_seen: dict[str, int] = {}
    data_start = None
    for i, raw in enumerate(lines):
        line = _strip_comment(raw).strip()
        lineno = i + 1
        if not line:
            continue
        where = _where(source, lineno)
        low = line.lower()
        if low.startswith("@relation"):
            if relation is not None:
                raise ValueError(f"{where}: second @relation line")
            rest = line[len("@relation"):]
            if rest and not rest[0].isspace():
                raise ValueError(f"{where}: malformed @relation line")
            rest = rest.strip()
            if not rest:
                raise ValueError(f"{where}: @relation without a name")
            if rest[:1] in ("'", '"'):
                relation, _ = _arff_name(rest, where)
            else:
                relation = rest
            continue
        if low.startswith("@attribute"):
            if relation is None:
                raise ValueError(f"{where}: @attribute before @relation")
            rest = line[len("@attribute"):]
            if not rest or not rest[0].isspace():
                raise ValueError(f"{where}: malformed @attribute line")
            name, spec = _parse_attribute(rest, where)
            if name in names_seen:
                raise ValueError(
                    f"{where}: attribute {name!r} already declared on line "
                    f"{names_seen[name]}"
                )
            names_seen[name] = lineno
            attrs.append((name, spec))
            continue
        if low == "@data" or (low.startswith("@data") and low[5].isspace()):
            if relation is None:
                raise ValueError(f"{where}: @data before @relation")
            if not attrs:
                raise ValueError(f"{where}: @data before any @attribute")
            data_start = i + 1
            break
        raise ValueError(f"{where}: unexpected line in header: {line[:60]!r}")
    if data_start is None:
        raise ValueError(f"{source}: no @data section found")

    n_attr = len(attrs)
    rows: list[list] = []
    row_lines: list[int] = []
    for i in range(data_start, len(lines)):
        line = lines[i].strip()
        if not line or line[0] == "%":
            continue
        lineno = i + 1
        if line[0] == "{":
            raise ValueError(
                f"{_where(source, lineno)}: sparse ARFF instances are not supported"
            )
        if "'" in line or '"' in line or "%" in line or "{" in line:
            if line.endswith("}"):
                raise ValueError(
                    f"{_where(source, lineno)}: instance weights ({{...}}) are not "
                    "supported"
                )
            values = _split_quoted_simple(line)
            if values is None:
                values = _split_arff_values(line, _where(source, lineno))
        else:
            values = [v.strip() for v in line.split(",")]
            for j, v in enumerate(values):
                if v == "?":
                    values[j] = None
                elif v == "" or " " in v or "\t" in v:
                    # rare: let the careful tokenizer produce the message
                    values = _split_arff_values(line, _where(source, lineno))
                    break
        if len(values) != n_attr:
            raise ValueError(
                f"{_where(source, lineno)}: wrong number of values: expected "
                f"{n_attr}, found {len(values)}"
            )
        rows.append(values)
        row_lines.append(lineno)

    columns = list(zip(*rows)) if rows else [()] * n_attr
    out = {}
    for (name, (kind, cats)), col in zip(attrs, columns):
        col = list(col)
        if kind == "nominal":
            out[name] = _nominal_column(col, cats, row_lines, name, source)
        elif kind == "numeric":
            out[name] = _numeric_column(col, row_lines, name, source)
        else:
            out[name] = _string_column(col)
    frame = pd.DataFrame(out, index=pd.RangeIndex(len(rows)))
    if not rows:
        for name, (kind, cats) in attrs:
            if kind == "nominal":
                frame[name] = pd.Categorical([], categories=_category_index(cats))
            elif kind == "numeric":
                frame[name] = np.array([], dtype=np.float64)
    return frame, relation


@functools.lru_cache(maxsize=128)
def _arff_cached(path: str, blob: _Blob):
    return parse_arff(_decode(blob.data, path), source=path)


def read_arff(path: str | PathLike) -> tuple[pd.DataFrame, str]:
    """Read a dense Weka ARFF file (see :func:`parse_arff`).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    frame : DataFrame, shape (n_instances, n_attributes)
    relation : str
    """
    p, blob = _read_blob(path)
    return _copy_result(_arff_cached(p, blob))


# ---------------------------------------------------------------------------
# Orange .tab
# ---------------------------------------------------------------------------

_TAB_MISSING = {"", "?", ".", "~", "NA"}  # Orange's missing-value markers
_TAB_FLAGS = {
    "class": "class", "c": "class",
    "meta": "meta", "m": "meta",
    "ignore": "ignore", "i": "ignore",
    "weight": "weight", "w": "weight",
}


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
    """Parse an Orange ``.tab`` file in the three-header-line form.

    Line 1 holds the column names, line 2 the types (``c``/``continuous``,
    ``d``/``discrete``, ``s``/``string``, or a space-separated value list for
    a discrete column with declared values), line 3 the flags (``class``,
    ``meta``, ``ignore``/``i``, ``weight``; empty = ordinary feature).

    Parameters
    ----------
    text : str
    source : str
        Name used in error messages.

    Returns
    -------
    frame : DataFrame, shape (n_rows, n_columns)
        All columns, in file order. Discrete columns without a value list get
        the observed values as categories, numerically sorted when they are all
        numbers. Missing markers (``?``, ``~``, ``.``, ``NA``, empty) become NaN.
    roles : dict
        Column name -> flag (``"class"``, ``"meta"``, ``"ignore"``,
        ``"weight"`` or ``""``).
    """
    lines = _lines(text)
    if len(lines) < 3:
        raise ValueError(f"{source}: a .tab file needs three header lines")
    names = [n.strip() for n in lines[0].split("\t")]
    k = len(names)
    if any(n == "" for n in names):
        raise ValueError(f"{_where(source, 1)}: empty column name")
    dup = [n for n in names if names.count(n) > 1]
    if dup:
        raise ValueError(f"{_where(source, 1)}: column {dup[0]!r} appears twice")
    types_raw = lines[1].split("\t")
    flags_raw = lines[2].split("\t")
    for lineno, fields, what in ((2, types_raw, "types"), (3, flags_raw, "flags")):
        if len(fields) > k:
            raise ValueError(
                f"{_where(source, lineno)}: {len(fields)} {what} for {k} columns"
            )
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

    rows, row_lines = [], []
    for i in range(3, len(lines)):
        raw = lines[i]
        if raw.strip() == "":
            continue
        fields = raw.split("\t")
        if len(fields) != k:
            raise ValueError(
                f"{_where(source, i + 1)}: wrong number of values: expected {k}, "
                f"found {len(fields)}"
            )
        rows.append([None if (v := f.strip()) in _TAB_MISSING else v for f in fields])
        row_lines.append(i + 1)

    columns = list(zip(*rows)) if rows else [()] * k
    out = {}
    for name, (kind, cats), col in zip(names, types, columns):
        col = list(col)
        if kind == "infer":
            observed = [v for v in col if v is not None]
            kind = (
                "numeric"
                if observed and all(_float_or_none(v) is not None for v in observed)
                else "nominal"
            )
        if kind == "numeric":
            out[name] = _numeric_column(col, row_lines, name, source)
        elif kind == "nominal":
            if cats is None:
                cats = natural_sort(v for v in col if v is not None)
            out[name] = _nominal_column(col, cats, row_lines, name, source)
        else:
            out[name] = _string_column(col)
    return pd.DataFrame(out, index=pd.RangeIndex(len(rows))), roles


@functools.lru_cache(maxsize=64)
def _tab_cached(path: str, blob: _Blob):
    return parse_tab(_decode(blob.data, path), source=path)


def read_tab(path: str | PathLike) -> tuple[pd.DataFrame, dict]:
    """Read an Orange ``.tab`` file (see :func:`parse_tab`).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    frame : DataFrame, shape (n_rows, n_columns)
    roles : dict
        Column name -> Orange flag (``"class"``, ``"meta"``, ``"ignore"``,
        ``"weight"`` or ``""``).
    """
    p, blob = _read_blob(path)
    return _copy_result(_tab_cached(p, blob))


# ---------------------------------------------------------------------------
# generic delimited text
# ---------------------------------------------------------------------------


def parse_delimited(
    text: str,
    source: str = "<string>",
    *,
    sep: str = ",",
    header: bool = False,
    names=None,
    skip_rows: int = 0,
    missing=("?",),
    nominal=(),
    numeric=(),
    categories=None,
    strip_suffix=None,
) -> pd.DataFrame:
    """Parse comma- or whitespace-separated text.

    Parameters
    ----------
    text : str
    source : str
        Name used in error messages.
    sep : {",", "whitespace"}
        Field separator; ``"whitespace"`` splits on runs of blanks and tabs.
        Around commas, surrounding blanks are stripped.
    header : bool
        Whether the first line (after ``skip_rows``) holds the column names.
    names : sequence of str, optional
        Column names; required when ``header`` is false, and when given with
        ``header=True`` the header row is checked to have the same length and
        then replaced by ``names``.
    skip_rows : int
        Number of leading lines to ignore (e.g. a header row an uploader added).
    missing : sequence of str
        Tokens meaning "missing".
    nominal, numeric : sequence of str
        Columns forced to be categorical / float. Other columns are numeric
        when every non-missing value is a number, categorical otherwise.
    categories : dict, optional
        Column -> declared categories (in order) for nominal columns; a value
        outside them is an error. Without it the observed values are used,
        numerically sorted when they are all numbers.
    strip_suffix : dict, optional
        Column -> suffix removed from its values (e.g. ``{"class": "."}``).

    Returns
    -------
    DataFrame, shape (n_rows, n_columns)
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
    missing = set(missing)
    categories = dict(categories or {})
    strip_suffix = dict(strip_suffix or {})

    def split(line):
        if sep == ",":
            return line.strip().split(",")
        return line.split()

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
            raise ValueError(
                f"{_where(source, i + 1)}: header has {len(head)} columns, "
                f"expected {len(names)}"
            )
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

    rows, row_lines = [], []
    for j in range(i, len(lines)):
        line = lines[j]
        if line.strip() == "":
            continue
        fields = split(line)
        if len(fields) != k:
            raise ValueError(
                f"{_where(source, j + 1)}: wrong number of values: expected {k}, "
                f"found {len(fields)}"
            )
        rows.append(fields)
        row_lines.append(j + 1)

    columns = list(zip(*rows)) if rows else [()] * k
    out = {}
    for name, col in zip(names, columns):
        col = np.array(col, dtype=object)
        is_missing = np.zeros(len(col), dtype=bool)
        for token in missing:
            is_missing |= col == token
        col[is_missing] = None
        suffix = strip_suffix.get(name)
        if suffix:
            col = [v[: -len(suffix)] if v is not None and v.endswith(suffix) else v
                   for v in col]
        if name in numeric:
            kind = "numeric"
        elif name in nominal or name in categories:
            kind = "nominal"
        else:
            observed = [v for v in col if v is not None]
            kind = (
                "numeric"
                if observed and all(_float_or_none(v) is not None for v in observed)
                else "nominal"
            )
        if kind == "numeric":
            out[name] = _numeric_column(col, row_lines, name, source)
        else:
            cats = categories.get(name)
            if cats is None:
                cats = natural_sort(v for v in col if v is not None)
            out[name] = _nominal_column(col, [str(c) for c in cats], row_lines, name,
                                        source)
    return pd.DataFrame(out, index=pd.RangeIndex(len(rows)))


@functools.lru_cache(maxsize=64)
def _delimited_cached(path: str, blob: _Blob, options: tuple):
    kw = {}
    for key, value in options:
        kw[key] = dict(value) if key in ("categories", "strip_suffix") else value
    return parse_delimited(_decode(blob.data, path), source=path, **kw), None


def read_delimited(path: str | PathLike, **options) -> pd.DataFrame:
    """Read comma- or whitespace-separated text (see :func:`parse_delimited`).

    Parameters
    ----------
    path : str or path-like
    **options
        Passed to :func:`parse_delimited`.

    Returns
    -------
    DataFrame, shape (n_rows, n_columns)
    """
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
