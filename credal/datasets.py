"""The data sets of the compendium: catalogue, loading and integrity checks.

The raw files live in ``data/raw`` (byte copies of public files, checked by
``data/SHA256SUMS``), and in ``data/added`` for the papers' own versions found later. ``data/catalogue.toml`` says, for every data set name,
which files it is built from, how to read them (format, class column, columns
to drop, header fixes), its source, licence and the papers that use it, with
each paper's own name for it and published size.

Examples
--------
>>> from credal import datasets
>>> ds = datasets.load("vote")
>>> ds.n_rows, ds.n_features, ds.n_classes
(435, 16, 2)
>>> len(datasets.names("corani-antonucci"))
40
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ._readers import natural_sort, read_arff, read_delimited, read_tab

__all__ = ["Dataset", "names", "groups", "load", "catalogue", "catalogue_data", "spec",
           "published", "data_dir", "verify_checksums"]

_FORMATS = ("arff", "tab", "csv", "whitespace")
_SPLIT_LABELS = ("train", "test")


# ----------------------------------------------------------------------------- locations
def data_dir() -> Path:
    """The project's data folder.

    Returns
    -------
    pathlib.Path
        ``$CREDAL_DATA`` when that environment variable is set, otherwise the
        ``data`` folder next to the ``credal`` package.

    Raises
    ------
    FileNotFoundError
        If the folder does not exist.
    """
    env = os.environ.get("CREDAL_DATA")
    if env:
        path = Path(env).expanduser()
        origin = "the CREDAL_DATA environment variable"
    else:
        import credal

        path = Path(credal.__file__).resolve().parents[1] / "data"
        origin = "the credal package location"
    if not path.is_dir():
        raise FileNotFoundError(
            f"data folder {path} (from {origin}) does not exist; set CREDAL_DATA to the folder "
            "holding raw/, published/ and catalogue.toml")
    return path


def _stat_key(path: Path, what: str) -> tuple:
    """``(path, size, times, inode)``: what the parse caches below are keyed by."""
    if not path.is_file():
        raise FileNotFoundError(f"{what} not found (or not a regular file): {path}")
    st = path.stat()
    return str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


@functools.lru_cache(maxsize=8)
def _parse_sums(path: str, *stat_key) -> dict:
    out = {}
    for lineno, line in enumerate(Path(path).read_text().splitlines(), 1):
        if (parts := line.split(None, 1)) and (len(parts) != 2 or len(parts[0]) != 64):
            raise ValueError(f"{path}, line {lineno}: not a 'sha256  file' line")
        if parts:
            out[parts[1].strip().lstrip("*")] = parts[0].lower()
    return out


@functools.lru_cache(maxsize=256)
def _sha256(path: str, *stat_key) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _data_file(name: str) -> Path:
    """A catalogue file: in ``data/raw`` (the shared copies, never changed) or, failing that,
    in ``data/added`` (papers' versions found later; its README gives their provenance)."""
    raw = data_dir() / "raw" / name
    return raw if raw.is_file() else data_dir() / "added" / name


def _check_raw(path: Path) -> None:
    """Raise unless ``path`` has the SHA-256 that ``data/SHA256SUMS`` records."""
    sums = data_dir() / "SHA256SUMS"
    want = _parse_sums(*_stat_key(sums, "checksum list")).get(path.name)
    if want is None:
        raise ValueError(f"{path} is not listed in {sums}: its content cannot be verified")
    if (got := _sha256(*_stat_key(path, "data file"))) != want:
        raise ValueError(f"{path}: SHA-256 {got[:12]}... differs from {want[:12]}... recorded "
                         f"in {sums} (changed, truncated or extended); restore the original")


# ----------------------------------------------------------------------------- catalogue
@functools.lru_cache(maxsize=8)
def _parse_catalogue(path: str, *stat_key) -> dict:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:  # its message gives line and column
        raise ValueError(f"{path}: not a valid TOML file: {exc}") from None


def catalogue_data() -> dict:
    """The parsed ``data/catalogue.toml``: ``{"datasets": {name: entry}, "groups": {...}}``.

    Returns
    -------
    dict
        Read once per change of the file (cached on its size and modification time).
    """
    return _parse_catalogue(*_stat_key(data_dir() / "catalogue.toml", "data catalogue"))


def _specs() -> dict:
    return catalogue_data().get("datasets", {})


def _hint(name, known) -> str:
    """' Did you mean ...?' with close names, a case-insensitive match first."""
    lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(str(name).lower(), list(lower), n=3, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(lower[c]) for c in close)}?" if close else ""


def spec(name: str) -> dict:
    """The catalogue entry of one data set (files, class, read options, papers, ...).

    Parameters
    ----------
    name : str
        A name of :func:`names`.

    Returns
    -------
    dict
        The entry as written in ``data/catalogue.toml``.

    Raises
    ------
    KeyError
        For an unknown name (close matches are suggested).
    """
    specs = _specs()
    if not isinstance(name, str) or name not in specs:
        known = sorted(specs)
        raise KeyError(f"unknown data set {name!r}.{_hint(name, known)} Known data sets: "
                       f"{', '.join(known)}")
    return specs[name]


def groups() -> list[str]:
    """The paper groups of the catalogue.

    Returns
    -------
    list of str
        E.g. ``"corani-antonucci"``, ``"antonucci-lncc"``,
        ``"ramoni-sebastiani"``, ``"moral-trees"``.
    """
    return list(catalogue_data().get("groups", {}))


def names(group: str | None = None) -> list[str]:
    """Names of the data sets the project ships.

    Parameters
    ----------
    group : str, optional
        A paper's list: ``"corani-antonucci"`` (Table 2's 40, spambase for its
        second ecoli), ``"antonucci-lncc"`` (nine binary data sets),
        ``"ramoni-sebastiani"`` (the 19 public data sets of Table 1) or
        ``"moral-trees"`` (the 11 data sets of the slides). None = all.

    Returns
    -------
    list of str, sorted

    Raises
    ------
    KeyError
        For an unknown group; the message lists the groups.
    """
    specs = _specs()
    if group is None:
        return sorted(specs)
    known = groups()
    if group not in known:
        raise KeyError(f"unknown group {group!r}; groups are: {', '.join(known)}")
    return sorted(n for n, s in specs.items() if group in s.get("groups", ()))


# -------------------------------------------------------------------- the Dataset record
@dataclass(frozen=True, eq=False)
class Dataset:
    """One data set, ready for a classifier.

    Attributes
    ----------
    name : str
        Catalogue name, e.g. ``"breast_w"``.
    X : DataFrame, shape (n_rows, n_features)
        Nominal columns as categoricals with their declared categories (also
        those never observed), numeric columns as float64, missing = NaN.
    y : Series of category, shape (n_rows,)
        Named after the class column; its categories are the classes some row
        has, in declared order. NaN where the class itself is missing
        (echocardiogram, bridges).
    title, source, licence : str
    groups : tuple of str
        Paper groups that use the data set.
    split : Series of str, shape (n_rows,), or None
        ``"train"``/``"test"`` for data sets that ship a fixed split.
    files : tuple of str
        Files in ``data/raw`` it is built from.
    dropped_classes : tuple of str
        Declared classes that no row has, dropped from ``y``.
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    title: str = ""
    source: str = ""
    licence: str = ""
    groups: tuple = ()
    split: pd.Series | None = None
    files: tuple = ()
    dropped_classes: tuple = ()

    @property
    def n_rows(self) -> int:
        """Number of instances."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns (class and identifiers excluded)."""
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        """Number of classes (those some row has)."""
        return int(len(self.y.cat.categories))

    @property
    def missing_fraction(self) -> float:
        """Missing feature cells / all feature cells (the class is not counted)."""
        size = self.X.size
        return float(self.X.isna().to_numpy().sum() / size) if size else 0.0

    def __repr__(self) -> str:
        return (f"Dataset({self.name!r}, n_rows={self.n_rows}, n_features={self.n_features}, "
                f"n_classes={self.n_classes})")


# ------------------------------------------------------------------------------- loading
def _read_file(path: Path, fmt: str, options: dict, name: str, class_col: str) -> pd.DataFrame:
    if fmt == "arff":
        if options:
            raise ValueError(f"catalogue entry {name!r}: ARFF files take no read options")
        return read_arff(path)[0]
    if fmt == "tab":
        if options:
            raise ValueError(f"catalogue entry {name!r}: .tab files take no read options")
        frame, roles = read_tab(path)
        flagged = [c for c, role in roles.items() if role == "class"]
        if flagged and flagged != [class_col]:
            raise ValueError(f"catalogue entry {name!r}: {path.name} flags {flagged} as the "
                             f"class, the catalogue says {class_col!r}")
        return frame
    opts = dict(options)
    opts["sep"] = "," if fmt == "csv" else "whitespace"
    if opts.get("nominal") == "all":
        if "names" not in opts:
            raise ValueError(f"catalogue entry {name!r}: nominal = 'all' needs names")
        opts["nominal"] = list(opts["names"])
    return read_delimited(path, **opts)


def _concat(frames: list[pd.DataFrame], inferred: set, name: str) -> pd.DataFrame:
    """Stack frames read from several files, uniting their categories."""
    if len(frames) == 1:
        return frames[0]
    cols = list(frames[0].columns)
    for f in frames[1:]:
        if list(f.columns) != cols:
            raise ValueError(f"catalogue entry {name!r}: files have different columns: "
                             f"{cols} vs {list(f.columns)}")
    frames = [f.copy() for f in frames]
    for c in cols:
        dtypes = [f[c].dtype for f in frames]
        if all(isinstance(d, pd.CategoricalDtype) for d in dtypes):
            cats = list(dict.fromkeys(v for d in dtypes for v in d.categories))
            if c in inferred:
                # categories read off the data: keep the reader's natural order
                cats = natural_sort(cats)
            for f in frames:
                f[c] = f[c].cat.set_categories(cats)
        elif any(isinstance(d, pd.CategoricalDtype) for d in dtypes):
            raise ValueError(f"catalogue entry {name!r}: column {c!r} is nominal in one "
                             "file and numeric in another")
    return pd.concat(frames, ignore_index=True)


def _source_text(spec: dict) -> str:
    parts = [f"UCI Machine Learning Repository: {spec['uci']}"] if spec.get("uci") else []
    parts += [f"{c['file']} from {c['repo']}/{c['path']} @ {c['commit'][:12]}"
              for c in spec.get("copies", [])]
    return "; ".join(parts)


def load(name: str) -> Dataset:
    """Load one data set of the catalogue.

    Every raw file is first checked against ``data/SHA256SUMS`` (the digest is
    cached per path, size, times and inode: a second load costs a ``stat``).  A class that the file declares but no row has is dropped from
    ``y`` (it would otherwise enter every credal set) and recorded in
    ``dropped_classes``: heart-c and heart-h declare 5 classes of which 2 occur.

    Parameters
    ----------
    name : str
        A name from :func:`names`.

    Returns
    -------
    Dataset

    Raises
    ------
    KeyError
        For an unknown name; the message lists the known names (and close
        matches, ignoring case).
    ValueError
        If a file differs from its recorded SHA-256 or is not listed, if a file is
        malformed (file and line are named) or the catalogue entry does not fit
        its files.
    """
    entry = spec(name)
    fmt = entry.get("format", "arff")
    if fmt not in _FORMATS:
        raise ValueError(f"catalogue entry {name!r}: unknown format {fmt!r}")
    files = list(entry["files"])
    read = dict(entry.get("read", {}))
    file_options = entry.get("file_options", {})
    if unknown := set(file_options) - set(files):
        raise ValueError(f"catalogue entry {name!r}: options for unlisted files {unknown}")
    class_col = entry["class"]
    ids = list(entry.get("ids", []))
    drop = list(entry.get("drop", []))

    frames, found_ids = [], set()
    for f in files:
        options = {**read, **file_options.get(f, {})}
        _check_raw(path := _data_file(f))
        frame = _read_file(path, fmt, options, name, class_col)
        # ids may exist in only some files (hayes-roth's name column)
        present = [c for c in ids if c in frame.columns]
        found_ids.update(present)
        frames.append(frame.drop(columns=present))
    inferred = set()
    if fmt != "arff":
        declared = set(read.get("categories", {}))
        inferred = {c for c in frames[0].columns if c not in declared}
    frame = _concat(frames, inferred, name)

    if lost := [c for c in ids if c not in found_ids]:
        raise ValueError(f"catalogue entry {name!r}: id columns {lost} not found")
    if missing_cols := [c for c in [class_col, *drop] if c not in frame.columns]:
        raise ValueError(f"catalogue entry {name!r}: columns {missing_cols} not found; the "
                         f"files have {list(frame.columns)}")
    y = frame[class_col]
    if not isinstance(y.dtype, pd.CategoricalDtype):
        raise ValueError(f"catalogue entry {name!r}: class column {class_col!r} is not nominal")
    y = y.rename(class_col).cat.remove_unused_categories()
    dropped = tuple(c for c in frame[class_col].cat.categories if c not in y.cat.categories)
    X = frame.drop(columns=[class_col, *drop])
    # Integer-coded attributes that the papers' (Weka) copies typed as numeric.
    as_numeric = list(entry.get("as_numeric", []))
    if absent := [c for c in as_numeric if c not in X.columns]:
        raise ValueError(f"catalogue entry {name!r}: as_numeric names unknown columns {absent}")
    for c in as_numeric:
        col = X[c].astype(object) if isinstance(X[c].dtype, pd.CategoricalDtype) else X[c]
        X[c] = pd.to_numeric(col, errors="raise").astype(float)

    split = None
    if "split" in entry:
        labels = list(entry["split"])
        if len(labels) != len(frames) or not set(labels) <= set(_SPLIT_LABELS):
            raise ValueError(f"catalogue entry {name!r}: split needs one of {_SPLIT_LABELS} "
                             "per file")
        split = np.repeat(labels, [len(f) for f in frames])
    elif "split_rows" in entry:
        counts = entry["split_rows"]
        if not set(counts) <= set(_SPLIT_LABELS) or sum(counts.values()) != len(frame):
            raise ValueError(f"catalogue entry {name!r}: split_rows {counts} does not add up "
                             f"to {len(frame)} rows")
        split = np.repeat(list(counts), list(counts.values()))
    if split is not None:
        split = pd.Series(split, index=X.index, name="split", dtype=object)

    return Dataset(name=name, X=X, y=y, title=entry.get("title", ""), source=_source_text(entry),
                   licence=entry.get("licence", ""), groups=tuple(entry.get("groups", ())),
                   split=split, files=tuple(files), dropped_classes=dropped)


# -------------------------------------------------------- summaries and published tables
def catalogue() -> pd.DataFrame:
    """One row per data set: what it is, its size and the papers' figures.

    Returns
    -------
    DataFrame
        Columns ``name, title, files, groups, n_rows, n_features, n_classes,
        dropped_classes, pct_missing, source, licence`` and, for each paper
        group ``g``, ``g:name`` (the paper's own name) and ``g:n`` (the
        paper's published number of instances). ``pct_missing`` is the
        percentage of missing feature cells.
    """
    data = catalogue_data()
    group_names = list(data.get("groups", {}))
    rows = []
    for name in names():
        entry = spec(name)
        ds = load(name)
        row = {"name": name, "title": ds.title, "files": ", ".join(ds.files),
               "groups": ", ".join(ds.groups), "n_rows": ds.n_rows, "n_features": ds.n_features,
               "n_classes": ds.n_classes, "dropped_classes": ", ".join(ds.dropped_classes),
               "pct_missing": round(100.0 * ds.missing_fraction, 2), "source": ds.source,
               "licence": ds.licence}
        papers = entry.get("papers", {})
        for g in group_names:
            info = papers.get(g) or {}
            row[f"{g}:name"], row[f"{g}:n"] = info.get("name"), info.get("n")
        rows.append(row)
    out = pd.DataFrame(rows)
    for g in group_names:
        out[f"{g}:n"] = out[f"{g}:n"].astype("Int64")
    return out


def published(table: str) -> pd.DataFrame:
    """A transcribed table of a paper, from ``data/published/<table>.csv``.

    Parameters
    ----------
    table : str
        File name without ``.csv``, e.g. ``"corani_table2_datasets"``.

    Returns
    -------
    DataFrame

    Raises
    ------
    KeyError
        For an unknown table; the message lists the available ones.
    """
    folder = data_dir() / "published"
    table = str(table)
    if table.endswith(".csv"):
        table = table[:-4]
    path = folder / f"{table}.csv"
    if "/" in table or "\\" in table or not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.csv"))
        raise KeyError(f"unknown published table {table!r}.{_hint(table, known)} Tables: "
                       f"{', '.join(known)}")
    return pd.read_csv(path)


def verify_checksums() -> list[str]:
    """Check ``data/raw`` and ``data/added`` against ``data/SHA256SUMS`` (every file hashed
    afresh).

    Returns
    -------
    list of str
        Files listed in ``SHA256SUMS`` that are missing or whose SHA-256
        differs (empty when all is well).
    """
    sums = data_dir() / "SHA256SUMS"
    return [f for f, digest in _parse_sums(*_stat_key(sums, "checksum list")).items()
            if not (p := _data_file(f)).is_file() or _sha256.__wrapped__(str(p)) != digest]
