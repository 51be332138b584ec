"""Chapter code of the ``datasets`` notebook: the data sets the book uses.

Every data set of ``data/catalogue.toml`` (read by the core module :mod:`credal.datasets`),
and each paper's list of data sets, with its published sizes, beside the shipped files:
:func:`run`, :func:`tables` (every table shown), :func:`numbers` (the counts the text quotes)
and the figure :func:`dataset_map`.  No classifiers or headline rows: it reproduces no result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from credal import datasets
from credal.chapters._display import MISSING, format_number
from credal.preprocessing import make_preprocessor

__all__ = ["dataset_map", "numbers", "run", "tables"]

#: each paper group's authors: panel titles of :func:`dataset_map`; the overview's
#: "papers" column names the first author
_PAPER_TITLE = {"corani-antonucci": "Corani & Antonucci",
                "antonucci-lncc": "Antonucci, Cattaneo & Corani",
                "ramoni-sebastiani": "Ramoni & Sebastiani", "moral-trees": "Moral"}

#: the published columns of a paper's list besides the data set's size
_LIST_EXTRA = {"corani-antonucci": ("k", "classes"),
               "moral-trees": ("n_train", "n_test", "n_variables", "n_classes")}


# --------------------------------------------------------------------------- run


def run(groups=None, discretize=True) -> dict:
    """Everything the chapter computes from the catalogue and the shipped files, as a dict.

    ``overview`` (:func:`_overview`: the data sets of the paper groups ``groups``, a str or
    list of :func:`credal.datasets.groups`, None or empty = all), ``dropped_classes``
    (:func:`_dropped_classes`, of those data sets) and ``paper_lists``
    (:func:`_paper_lists`); with ``discretize``, the features left by the papers'
    preprocessing (:func:`_features_after_mdl`) are counted once for both.
    """
    overview = _overview(groups, discretize)
    known = dict(overview["n_features_mdl"]) if discretize else {}
    return {"overview": overview, "dropped_classes": _dropped_classes(overview),
            "paper_lists": _paper_lists(discretize, known)}


def _features_after_mdl(dataset: datasets.Dataset) -> int:
    """Number of features left by the papers' preprocessing fitted on the whole data set:
    median/mode imputation, Fayyad–Irani MDL discretisation of the numeric features, then
    removal of features with a single category (rows without a class are left out of the
    fit).  This is how the "k" column of Corani & Antonucci's Table 2 is obtained."""
    keep = dataset.y.notna().to_numpy()
    X, y = dataset.X.loc[keep], dataset.y.loc[keep]
    return int(make_preprocessor(impute=True, discretize="mdl", drop_single=True)
               .fit(X, y).transform(X).shape[1])


def _dropped_classes(overview) -> pd.DataFrame:
    """Where a file declares classes that no row has (dropped by ``datasets.load``): the
    data sets of :func:`_overview` with a dropped class, indexed by ``dataset``: ``declared``
    and ``observed`` (numbers of classes), ``dropped`` (the labels, comma separated), ``groups``."""
    d = overview[overview["dropped_classes"].fillna("") != ""]
    return pd.DataFrame({"declared": d["n_classes"] + _n_dropped(d), "observed": d["n_classes"],
                         "dropped": d["dropped_classes"], "groups": d["groups"]}).rename_axis("dataset")


def _n_dropped(overview) -> pd.Series:
    """The number of declared classes no row has, per data set of :func:`_overview`."""
    return overview["dropped_classes"].fillna("").map(lambda v: len(v.split(", ")) if v else 0)


def _overview(groups=None, discretize=True) -> pd.DataFrame:
    """One row per data set (of ``groups``; None or empty = all), indexed by name ("data
    set"): ``title, n_rows, n_features, [n_features_mdl,] n_classes, dropped_classes,
    pct_missing, groups, files, source, licence`` (``n_classes`` counts the classes some row
    has; ``dropped_classes`` lists declared ones no row has)."""
    cat = datasets.catalogue().set_index("name")
    if groups:
        wanted = [groups] if isinstance(groups, str) else list(groups)
        cat = cat.loc[sorted({n for g in wanted for n in datasets.names(g)})]
    out = cat[["title", "n_rows", "n_features", "n_classes", "dropped_classes",
               "pct_missing", "groups", "files", "source", "licence"]].rename_axis("data set")
    if discretize:
        out.insert(3, "n_features_mdl", [_features_after_mdl(datasets.load(n)) for n in out.index])
    return out


def _paper_lists(discretize=True, known=None) -> pd.DataFrame:
    """Every paper's list of data sets with its published sizes beside ours.

    Long form: ``group, paper_name, name, paper_n, n_rows`` and the group's extra published
    columns (``paper_k``, ``paper_classes`` for Corani & Antonucci; ``paper_n_train`` ...
    for Moral), ``k`` (ours, with ``discretize``; ``known``: name -> k already counted),
    ``n_classes`` (classes some row has), ``n_dropped_classes`` and ``note`` (why a number
    differs, from the catalogue).
    """
    known, rows = dict(known or {}), []
    for g in datasets.catalogue_data().get("groups", {}):
        for name in datasets.names(g):
            spec, ds = datasets.spec(name), datasets.load(name)
            info = spec.get("papers", {}).get(g, {})
            row = {"group": g, "paper_name": info.get("name", "(not named)"), "name": name,
                   "paper_n": info.get("n"), "n_rows": ds.n_rows,
                   "n_classes": ds.n_classes, "n_dropped_classes": len(ds.dropped_classes)}
            for key in _LIST_EXTRA.get(g, ()):
                row[f"paper_{key}"] = info.get(key)
            if g == "corani-antonucci" and discretize:
                row["k"] = known[name] if name in known else _features_after_mdl(ds)
            row["note"] = info.get("note") or (
                spec.get("notes", "") if info.get("n") not in (None, ds.n_rows) else "")
            rows.append(row)
    out = pd.DataFrame(rows)
    for c in out.columns:
        if c.startswith("paper_") and c != "paper_name" or c == "k":
            out[c] = out[c].astype("Int64")
    return out


# --------------------------------------------------------------------------- tables


def tables(results) -> dict:
    """Every table of the chapter from :func:`run`'s results (dict of str -> DataFrame).

    ``overview``, ``dropped_classes`` and ``paper_lists`` as :func:`run` gives them;
    ``sources`` (title, files, source and licence of each data set); per paper group ``g``,
    ``paper_list-<g>`` (its rows of ``paper_lists``).  The cells the book shows where they
    join columns: ``overview_cells`` (classes with the dropped ones, papers by first author)
    and ``paper_list-<g>_cells`` (:func:`_paper_cells`).
    """
    ov, lists = results["overview"], results["paper_lists"]
    out = {"overview": ov, "dropped_classes": results["dropped_classes"], "paper_lists": lists,
           "sources": ov[["title", "files", "source", "licence"]]}
    out["overview_cells"] = pd.DataFrame({
        "rows": ov["n_rows"], "features": ov["n_features"],
        **({"after MDL": ov["n_features_mdl"]} if "n_features_mdl" in ov else {}),
        "classes": _classes(ov["n_classes"], _n_dropped(ov)),
        "missing %": ov["pct_missing"],
        "papers": ov["groups"].fillna("").map(
            lambda gs: ", ".join(_PAPER_TITLE.get(g, g).split(" ")[0].rstrip(",")
                                 for g in gs.split(", ") if g))},
        index=ov.index)
    for g in datasets.groups():
        out[f"paper_list-{g}"] = lists[lists["group"] == g]
        out[f"paper_list-{g}_cells"] = _paper_cells(out[f"paper_list-{g}"])
    return out


def _classes(n, dropped) -> list:
    """The number of classes some row has, and the declared ones dropped (``"2 (+3 dropped)"``)."""
    return [f"{k}" if not d else f"{k} (+{d} dropped)" for k, d in zip(n, dropped)]


def _cell(x) -> str:
    if x is None or (not isinstance(x, str) and pd.isna(x)):
        return MISSING
    return format_number(x) if isinstance(x, (int, float)) or hasattr(x, "dtype") else str(x)


def _pair(paper, ours) -> str:
    """``"paper / ours"``, or the number once where both agree."""
    p, o = _cell(paper), _cell(ours)
    return o if p == o else f"{p} / {o}"


def _paper_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """A paper's list (its rows of :func:`_paper_lists`) in at most seven columns of text:
    ``"paper / ours"``, or one number where both agree; "–" for a number not given."""
    d = rows.dropna(axis=1, how="all").reset_index(drop=True)
    out = pd.DataFrame({"paper's name": d["paper_name"], "our name": d["name"]})
    out["rows (paper / ours)" if "paper_n" in d else "rows (ours)"] = [
        _pair(p, o) for p, o in zip(d.get("paper_n", d["n_rows"]), d["n_rows"])]
    if "paper_n_train" in d:
        out["train + test (paper)"] = [f"{_cell(a)} + {_cell(b)}" for a, b in
                                       zip(d["paper_n_train"], d["paper_n_test"])]
    if "paper_n_variables" in d:
        out["variables (paper)"] = [_cell(v) for v in d["paper_n_variables"]]
    if "paper_k" in d:
        out["k (paper / ours)"] = [_pair(p, o) for p, o in zip(d["paper_k"], d.get("k", [np.nan] * len(d)))]
    classes = _classes(d["n_classes"], d["n_dropped_classes"])
    paper = next((c for c in ("paper_classes", "paper_n_classes") if c in d), None)
    out["classes (paper / ours)" if paper else "classes (ours)"] = [
        _pair(p, o) for p, o in zip(d[paper] if paper else classes, classes)]
    out["note"] = d["note"].fillna("").astype(str)
    return out


def numbers(tables) -> dict:
    """The counts the chapter's text quotes, formatted: ``n_datasets`` (the overview's data
    sets) and ``n_dropped_sets`` (those whose file declares classes no row has)."""
    return {"n_datasets": str(len(tables["overview"])), "n_dropped_sets": str(len(tables["dropped_classes"]))}


# --------------------------------------------------------------------------- figures


def _place_labels(ax, names, x, y, fontsize=9):
    """Write each name next to its point where it overlaps no name placed before.

    Candidate spots right, left, above and below the point are tried in turn, then spots
    farther out joined to the point by a thin line; when all overlap, the spot with the
    least overlap is taken (no name is dropped).
    """
    from matplotlib.text import Text

    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    spots = [((4, 1), "left", "bottom"), ((4, -2), "left", "top"), ((-4, 1), "right", "bottom"),
             ((-4, -2), "right", "top"), ((0, 5), "center", "bottom"), ((0, -5), "center", "top")]
    spots += [((dx * r, dy * r), ("right", "center", "left")[dx + 1],
               ("top", "center", "bottom")[dy + 1]) for r in (10, 18, 26, 34)
              for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))]
    placed, axbox = [], ax.get_window_extent(renderer)
    for order in np.argsort(x):
        best = None
        for offset, ha, va in spots:
            t = ax.annotate(names[order], (x[order], y[order]), xytext=offset,
                            textcoords="offset points", ha=ha, va=va, fontsize=fontsize,
                            color="0.25", annotation_clip=False, arrowprops=None if max(map(
                                abs, offset)) < 10 else {"arrowstyle": "-", "color": "0.6", "lw": 0.5})
            t.update_positions(renderer)
            box = Text.get_window_extent(t, renderer)  # the name, not its line
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
        :func:`tables`' ``overview`` (uses ``n_rows``, ``n_features_mdl`` or
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
    groups = sorted({g for gs in member for g in gs if g}) if groups is None else groups
    if not groups:
        raise ValueError("no paper group to draw")
    sizes = {g: int(member.map(lambda gs, g=g: g in gs).sum()) for g in groups}
    # a paper with many data sets gets a full-width panel, the others two per row
    wide, narrow = [g for g in groups if sizes[g] > 15], [g for g in groups if sizes[g] <= 15]
    layout = [[g] for g in wide] + [narrow[i:i + 2] for i in range(0, len(narrow), 2)]
    heights = [0.55 * width if len(r) == 1 and r[0] in wide else 0.42 * width for r in layout]
    fig = plt.figure(figsize=(width, sum(heights) + 0.5), layout="constrained")
    grid = fig.add_gridspec(len(layout), 2, height_ratios=heights)
    axes, first = {}, None
    for i, r in enumerate(layout):
        for j, g in enumerate(r):
            spec = grid[i, :] if len(r) == 1 and g in wide else grid[i, j]
            axes[g] = fig.add_subplot(spec, sharex=first, sharey=first)
            first = first or axes[g]
    x_all, y_all = overview["n_rows"].astype(float), overview[feat].clip(lower=1).astype(float)
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
        ax.set(xscale="log", yscale="log", xlabel="rows (log scale)")
        ax.set_title(f"{_PAPER_TITLE.get(g, g)} ({int(inside.sum())} data sets)", fontsize=10)
        ax.grid(True, which="major", lw=0.3, color="0.85")
        ax.tick_params(labelsize=9, labelbottom=True, labelleft=True)
        ax.set_ylabel(f"{'features after MDL' if feat == 'n_features_mdl' else 'features'} (log scale)",
                      fontsize=10)
    legend = fig.legend(*first.get_legend_handles_labels(), loc="outside upper center",
                        ncol=2, frameon=False, fontsize=9)
    for handle in legend.legend_handles:  # one size for both, whatever the panel's classes
        handle.set_sizes([30])
    for g, ax in axes.items():
        inside = member.map(lambda gs: g in gs).to_numpy()
        _place_labels(ax, list(overview.index[inside]), x_all[inside].to_numpy(),
                      y_all[inside].to_numpy())
    return fig
