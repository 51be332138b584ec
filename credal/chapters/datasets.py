"""Chapter code of the ``datasets`` notebook: the data sets the book uses.

The chapter describes every data set of ``data/catalogue.toml`` (read by the core
module :mod:`credal.datasets`) and puts each paper's list of data sets, with its
published sizes, beside the shipped files.  Here: :func:`overview` (one row per data
set), :func:`paper_lists` (every paper's list) with :func:`features_after_mdl` (the
"k" of Corani & Antonucci's Table 2), :func:`dropped_classes` (declared classes no row
has, which :func:`credal.datasets.load` drops), :func:`display_table` (their readable versions for
the book) and the figure :func:`dataset_map`.  No classifiers, numbers for the text or
headline rows: this chapter reproduces no result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from credal import datasets
from credal.chapters._display import book_style, format_number, MISSING, save_table, show_table

__all__ = ["book_style", "dataset_map", "display_table", "dropped_classes",
           "features_after_mdl", "overview", "paper_lists", "paper_view", "save_table",
           "show_table"]

#: short label of each paper group in the overview's "papers" column
_SHORT_GROUP = {"corani-antonucci": "Corani", "antonucci-lncc": "Antonucci",
                "ramoni-sebastiani": "Ramoni", "moral-trees": "Moral"}

#: panel title of each paper group in :func:`dataset_map`
_PAPER_TITLE = {"corani-antonucci": "Corani & Antonucci",
                "antonucci-lncc": "Antonucci, Cattaneo & Corani",
                "ramoni-sebastiani": "Ramoni & Sebastiani", "moral-trees": "Moral"}

#: the published columns of a paper's list besides the data set's size
_LIST_EXTRA = {"corani-antonucci": ("k", "classes"),
               "moral-trees": ("n_train", "n_test", "n_variables", "n_classes")}


# --------------------------------------------------------------------------- run


def features_after_mdl(dataset: datasets.Dataset) -> int:
    """Number of features left by the papers' preprocessing fitted on the whole data set.

    Median/mode imputation, Fayyad–Irani MDL discretisation of the numeric features,
    then removal of features with a single category (rows without a class are left
    out of the fit).  This is how the "k" column of Corani & Antonucci's Table 2 is
    obtained.

    Parameters
    ----------
    dataset : credal.datasets.Dataset

    Returns
    -------
    int
    """
    from credal.preprocessing import make_preprocessor

    keep = dataset.y.notna().to_numpy()
    X, y = dataset.X.loc[keep], dataset.y.loc[keep]
    return int(make_preprocessor(impute=True, discretize="mdl", drop_single=True)
               .fit(X, y).transform(X).shape[1])


def dropped_classes(names=None) -> pd.DataFrame:
    """Where a file declares classes that no row has (dropped by ``datasets.load``).

    Parameters
    ----------
    names : list of str, optional
        Data sets to inspect (default: every one of the catalogue).

    Returns
    -------
    DataFrame indexed by ``dataset``: ``declared`` and ``observed`` (numbers of
    classes), ``dropped`` (the labels, comma separated) and ``groups``; only data
    sets with at least one dropped class.
    """
    rows = []
    for name in datasets.names() if names is None else names:
        ds = datasets.load(name)
        if ds.dropped_classes:
            rows.append({"dataset": name, "declared": ds.n_classes + len(ds.dropped_classes),
                         "observed": ds.n_classes, "dropped": ", ".join(ds.dropped_classes),
                         "groups": ", ".join(ds.groups)})
    return pd.DataFrame(rows, columns=["dataset", "declared", "observed", "dropped",
                                       "groups"]).set_index("dataset")


def overview(groups=None, discretize=True) -> pd.DataFrame:
    """The data chapter's table: one row per data set, indexed by name.

    Parameters
    ----------
    groups : None, str or list of str
        Keep the data sets of these paper groups (:func:`credal.datasets.groups`);
        None or an empty list = all.
    discretize : bool
        Add ``n_features_mdl`` (:func:`features_after_mdl`).

    Returns
    -------
    DataFrame
        Columns ``title, n_rows, n_features, [n_features_mdl,] n_classes,
        dropped_classes, pct_missing, groups, files, source, licence`` (``n_classes``
        counts the classes some row has; ``dropped_classes`` lists declared ones no
        row has).
    """
    cat = datasets.catalogue().set_index("name")
    if groups:
        wanted = [groups] if isinstance(groups, str) else list(groups)
        keep = sorted({n for g in wanted for n in datasets.names(g)})
        cat = cat.loc[keep]
    cols = ["title", "n_rows", "n_features", "n_classes", "dropped_classes",
            "pct_missing", "groups", "files", "source", "licence"]
    out = cat[cols].copy()
    if discretize:
        out.insert(3, "n_features_mdl",
                   [features_after_mdl(datasets.load(n)) for n in out.index])
    return out


def paper_lists(discretize=True) -> pd.DataFrame:
    """Every paper's list of data sets with its published sizes beside ours.

    Parameters
    ----------
    discretize : bool
        For Corani & Antonucci, add our ``k`` (:func:`features_after_mdl`).

    Returns
    -------
    DataFrame
        Long form: ``group, paper_name, name, paper_n, n_rows`` and the group's
        extra published columns (``paper_k``, ``paper_classes`` for Corani &
        Antonucci; ``paper_n_train`` ... for Moral), ``k`` (ours), ``n_classes``
        (classes some row has), ``n_dropped_classes`` and ``note`` (why a number differs, from the catalogue).
    """
    data = datasets.catalogue_data()
    rows = []
    for g in data.get("groups", {}):
        for name in datasets.names(g):
            spec = datasets.spec(name)
            info = spec.get("papers", {}).get(g, {})
            ds = datasets.load(name)
            row = {"group": g, "paper_name": info.get("name", "(not named)"), "name": name,
                   "paper_n": info.get("n"), "n_rows": ds.n_rows,
                   "n_classes": ds.n_classes, "n_dropped_classes": len(ds.dropped_classes)}
            for key in _LIST_EXTRA.get(g, ()):
                row[f"paper_{key}"] = info.get(key)
            if g == "corani-antonucci" and discretize:
                row["k"] = features_after_mdl(ds)
            row["note"] = info.get("note") or (
                spec.get("notes", "") if info.get("n") not in (None, ds.n_rows) else "")
            rows.append(row)
    out = pd.DataFrame(rows)
    for c in out.columns:
        if c.startswith("paper_") and c != "paper_name" or c == "k":
            out[c] = out[c].astype("Int64")
    return out


# --------------------------------------------------------------------------- tables


def display_table(df: pd.DataFrame, kind: str, group: str | None = None) -> pd.DataFrame:
    """A readable copy of :func:`overview` or :func:`paper_lists` output for the book.

    Parameters
    ----------
    df : DataFrame
    kind : {"overview", "sources", "paper"}
    group : str
        With ``kind="paper"``: the paper group to show.

    Returns
    -------
    DataFrame with human-readable column names (index = data set or paper name).
    """
    if kind == "overview":
        out = pd.DataFrame(index=df.index)
        out["rows"] = df["n_rows"]
        out["features"] = df["n_features"]
        if "n_features_mdl" in df:
            out["after MDL"] = df["n_features_mdl"]
        dropped = df["dropped_classes"].fillna("").map(lambda v: len(v.split(", ")) if v else 0)
        out["classes"] = [f"{k}" if not d else f"{k} (+{d} dropped)"
                          for k, d in zip(df["n_classes"], dropped)]
        out["missing %"] = df["pct_missing"].map(lambda v: f"{v:.1f}")
        out["papers"] = df["groups"].fillna("").map(
            lambda gs: ", ".join(_SHORT_GROUP.get(g, g) for g in gs.split(", ") if g))
        out.index.name = "data set"
        return out
    if kind == "sources":
        out = df[["title", "files", "source", "licence"]].copy()
        out.index.name = "data set"
        return out
    if kind == "paper":
        if group not in datasets.catalogue_data().get("groups", {}):
            raise KeyError(f"unknown group {group!r}; groups: {datasets.groups()}")
        d = df[df["group"] == group].dropna(axis=1, how="all")
        keep = ["paper_name", "name"] + [c for c in d.columns if c.startswith("paper_")
                                         and c != "paper_name"]
        keep += [c for c in ("n_rows", "k", "n_classes", "note") if c in d.columns]
        d = d.assign(n_classes=[f"{a}" if not b else f"{a} (+{b} dropped)" for a, b in
                                zip(d["n_classes"], d["n_dropped_classes"])])
        out = d[keep].rename(columns={
            "paper_name": "paper's name", "name": "our name", "paper_n": "n (paper)",
            "n_rows": "n (ours)", "paper_k": "k (paper)", "k": "k (ours)",
            "paper_classes": "classes (paper)", "n_classes": "classes (ours)",
            "paper_n_train": "train (paper)", "paper_n_test": "test (paper)",
            "paper_n_variables": "variables (paper)", "paper_n_classes": "classes (paper)"})
        return out.set_index("paper's name")
    raise ValueError(f"kind must be 'overview', 'sources' or 'paper'; got {kind!r}")


def _cell(x) -> str:
    if x is None or (not isinstance(x, str) and pd.isna(x)):
        return MISSING
    return format_number(x) if isinstance(x, (int, float)) or hasattr(x, "dtype") else str(x)


def _pair(paper, ours) -> str:
    """``"paper / ours"``, or the number once where both agree."""
    p, o = _cell(paper), _cell(ours)
    return o if p == o else f"{p} / {o}"


def paper_view(lists: pd.DataFrame, group: str) -> pd.DataFrame:
    """A paper's list of data sets in at most seven columns, the paper's number beside ours.

    Cells ``"paper / ours"`` hold the published number and ours, or one number where
    the two agree; ``"–"`` marks a number the paper does not give.

    Parameters
    ----------
    lists : DataFrame
        Output of :func:`paper_lists`.
    group : str
        The paper group.

    Returns
    -------
    DataFrame of str with a fresh index.
    """
    d = display_table(lists, "paper", group).reset_index()
    out = pd.DataFrame({"paper's name": d["paper's name"], "our name": d["our name"]})
    if "n (paper)" in d:
        out["rows (paper / ours)"] = [_pair(p, o) for p, o in zip(d["n (paper)"], d["n (ours)"])]
    else:
        out["rows (ours)"] = [_cell(o) for o in d["n (ours)"]]
    if "train (paper)" in d:
        out["train + test (paper)"] = [f"{_cell(a)} + {_cell(b)}" for a, b in
                                       zip(d["train (paper)"], d["test (paper)"])]
    if "variables (paper)" in d:
        out["variables (paper)"] = [_cell(v) for v in d["variables (paper)"]]
    if "k (paper)" in d:
        ours = d["k (ours)"] if "k (ours)" in d else [np.nan] * len(d)
        out["k (paper / ours)"] = [_pair(p, o) for p, o in zip(d["k (paper)"], ours)]
    if "classes (paper)" in d:
        out["classes (paper / ours)"] = [_pair(p, o) for p, o in
                                         zip(d["classes (paper)"], d["classes (ours)"])]
    else:
        out["classes (ours)"] = d["classes (ours)"].astype(str)
    out["note"] = d["note"].fillna("").astype(str)
    return out


# --------------------------------------------------------------------------- figures


def _place_labels(ax, names, x, y, fontsize=9):
    """Write each name next to its point where it overlaps no name placed before.

    Candidate spots right, left, above and below the point are tried in turn; when
    all overlap, the spot with the least overlap is taken (no name is dropped).
    """
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    spots = [((4, 1), "left", "bottom"), ((4, -2), "left", "top"),
             ((-4, 1), "right", "bottom"), ((-4, -2), "right", "top"),
             ((0, 5), "center", "bottom"), ((0, -5), "center", "top"),
             ((8, 9), "left", "bottom"), ((8, -10), "left", "top"),
             ((-8, 9), "right", "bottom"), ((-8, -10), "right", "top")]
    placed = []
    axbox = ax.get_window_extent(renderer)
    for order in np.argsort(x):
        best = None
        for offset, ha, va in spots:
            t = ax.annotate(names[order], (x[order], y[order]), xytext=offset,
                            textcoords="offset points", ha=ha, va=va, fontsize=fontsize,
                            color="0.25", annotation_clip=False)
            box = t.get_window_extent(renderer)
            overlap = sum(max(0, min(box.x1, b.x1) - max(box.x0, b.x0))
                          * max(0, min(box.y1, b.y1) - max(box.y0, b.y0)) for b in placed)
            outside = max(0, axbox.x0 - box.x0) + max(0, box.x1 - axbox.x1) \
                + max(0, axbox.y0 - box.y0) + max(0, box.y1 - axbox.y1)
            cost = overlap + 50 * outside * box.height
            if best is None or cost < best[0]:
                if best is not None:
                    best[1].remove()
                best = (cost, t, box)
            else:
                t.remove()
            if cost == 0:
                break
        best[1].set_in_layout(False)
        placed.append(best[2])


def dataset_map(overview, groups=None, width: float = 6.8):
    """Rows against features of every data set, one panel per paper group (two per row).

    Parameters
    ----------
    overview : DataFrame
        Output of :func:`overview` (uses ``n_rows``, ``n_features_mdl`` or
        ``n_features``, ``n_classes``, ``pct_missing``, ``groups``).
    groups : list of str, optional
        Panels to draw; default: every group present.
    width : float
        Figure width in inches (the book's text width); names are 9 pt at this width.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    feat = "n_features_mdl" if "n_features_mdl" in overview else "n_features"
    member = overview["groups"].fillna("").str.split(", ")
    if groups is None:
        groups = sorted({g for gs in member for g in gs if g})
    if not groups:
        raise ValueError("no paper group to draw")
    sizes = {g: int(member.map(lambda gs, g=g: g in gs).sum()) for g in groups}
    # a paper with many data sets gets a full-width panel, the others two per row
    wide = [g for g in groups if sizes[g] > 15]
    narrow = [g for g in groups if sizes[g] <= 15]
    layout = [[g] for g in wide] + [narrow[i:i + 2] for i in range(0, len(narrow), 2)]
    heights = [0.62 * width if len(r) == 1 and r[0] in wide else 0.5 * width for r in layout]
    fig = plt.figure(figsize=(width, sum(heights) + 0.5), layout="constrained")
    grid = fig.add_gridspec(len(layout), 2, height_ratios=heights)
    axes, first = {}, None
    for i, r in enumerate(layout):
        for j, g in enumerate(r):
            spec = grid[i, :] if len(r) == 1 and g in wide else grid[i, j]
            axes[g] = fig.add_subplot(spec, sharex=first, sharey=first)
            first = first or axes[g]
    x_all = overview["n_rows"].astype(float)
    y_all = overview[feat].clip(lower=1).astype(float)
    for g, ax in axes.items():
        inside = member.map(lambda gs: g in gs).to_numpy()
        ax.scatter(x_all[~inside], y_all[~inside], s=10, color="0.85", zorder=1)
        d = overview[inside]
        size = 14 + 10 * d["n_classes"].astype(float)
        miss = d["pct_missing"].to_numpy() > 0
        x, y = x_all[inside].to_numpy(), y_all[inside].to_numpy()
        ax.scatter(x[~miss], y[~miss], s=size[~miss], facecolors="none",
                   edgecolors="tab:blue", zorder=2, label="complete")
        ax.scatter(x[miss], y[miss], s=size[miss], color="tab:orange", alpha=0.8,
                   zorder=2, label="with missing values")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{_PAPER_TITLE.get(g, g)} ({int(inside.sum())} data sets)",
                     fontsize=10)
        ax.grid(True, which="major", lw=0.3, color="0.85")
        ax.tick_params(labelsize=9, labelbottom=True, labelleft=True)
        ax.set_xlabel("rows (log scale)", fontsize=10)
        label = "features after MDL" if feat == "n_features_mdl" else "features"
        ax.set_ylabel(f"{label} (log scale)", fontsize=10)
    fig.legend(*first.get_legend_handles_labels(), loc="outside upper center",
               ncol=2, frameon=False, fontsize=9)
    for g, ax in axes.items():
        inside = member.map(lambda gs: g in gs).to_numpy()
        _place_labels(ax, list(overview.index[inside]), x_all[inside].to_numpy(),
                      y_all[inside].to_numpy())
    return fig
