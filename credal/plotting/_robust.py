"""Figures of the robust Bayes classifier chapter (Ramoni & Sebastiani)."""

from __future__ import annotations

import numpy as np

__all__ = ["rbc_accuracy_coverage_figure", "robust_ours_vs_paper_figure"]

_Z95 = 1.959963984540054


def _check_table1(t1, columns):
    missing = [c for c in columns if c not in t1.columns]
    if missing:
        raise ValueError(f"the table lacks columns {missing}; pass credal.robust.table1 output")
    rows = t1[t1[columns[0]].notna()]
    if rows.empty:
        raise ValueError("no data set with our results in the table")
    return rows


def _short_label(name, paper_name):
    """Paper's name, with the class in brackets for a variant of a data set."""
    if "(class:" in str(name):
        return f"{paper_name} ({str(name).split('(class:')[1].strip(' )')})"
    return str(paper_name)


def _label_left(r, rows, width):
    """True when a labelled neighbour lies just to the right of the point (within
    ``width`` coverage points and 2.5 accuracy points): its label then goes left."""
    x, y = r["RBC_d coverage"], r["RBC_d"]
    near = ((rows["RBC_d coverage"] > x) & (rows["RBC_d coverage"] - x < width)
            & ((rows["RBC_d"] - y).abs() < 2.5))
    return bool(near.any())


def rbc_accuracy_coverage_figure(t1, zoom=(80.0, 80.0)):
    """RBC_d accuracy against coverage per data set, published and ours, joined.

    Left: every data set, an arrow from the published point to ours.  Right: the
    crowded corner (coverage and accuracy above ``zoom``) enlarged.

    Parameters
    ----------
    t1 : DataFrame
        :func:`credal.robust.table1` output (percent).
    zoom : tuple of float
        Lower left corner (coverage, accuracy) of the enlarged region.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    rows = _check_table1(t1, ["RBC_d coverage", "RBC_d", "RBC_d coverage paper",
                              "RBC_d paper", "paper's name"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.0), constrained_layout=True,
                             gridspec_kw={"width_ratios": [1.25, 1]})
    ok = rows["RBC_d"].notna()
    for k, ax in enumerate(axes):
        for name, r in rows.iterrows():
            xo, yo = r["RBC_d coverage"], r["RBC_d"]
            xp, yp = r["RBC_d coverage paper"], r["RBC_d paper"]
            if np.isfinite(yo):  # a patch of the axes, hence clipped to them
                ax.add_patch(FancyArrowPatch((xp, yp), (xo, yo), arrowstyle="->",
                                             mutation_scale=9, color="0.6", lw=0.8,
                                             shrinkA=3, shrinkB=3))
            else:  # nothing classified: accuracy undefined, mark the coverage only
                ax.plot([xp, xo], [yp, yp], color="0.75", lw=0.8, ls=":")
        ax.scatter(rows["RBC_d coverage paper"], rows["RBC_d paper"], s=36,
                   facecolors="none", edgecolors="tab:blue",
                   label="published (Ramoni & Sebastiani)", zorder=3)
        ax.scatter(rows.loc[ok, "RBC_d coverage"], rows.loc[ok, "RBC_d"], s=30,
                   color="tab:orange", label="ours", zorder=4)
        if (~ok).any():
            ax.scatter(rows.loc[~ok, "RBC_d coverage"], rows.loc[~ok, "RBC_d paper"],
                       marker="x", color="tab:red", zorder=4,
                       label="ours: no case classified (at the paper's accuracy)")
        inside = ok & (rows["RBC_d coverage"] >= zoom[0]) & (rows["RBC_d"] >= zoom[1])
        lab = rows[ok & (inside if k == 1 else ~inside)]
        for name, r in lab.iterrows():
            left = _label_left(r, lab, 10 if k == 0 else 3)
            ax.annotate(_short_label(name, r["paper's name"]),
                        (r["RBC_d coverage"], r["RBC_d"]), fontsize=7,
                        xytext=(-4 if left else 4, 2), ha="right" if left else "left",
                        textcoords="offset points", color="0.2")
        ax.set_xlabel("RBC$_d$ coverage (% of cases classified)")
        ax.set_ylabel("RBC$_d$ accuracy on the classified cases (%)")
        ax.grid(True, lw=0.3, color="0.85")
    axes[0].set_xlim(-3, 103)
    axes[0].add_patch(plt.Rectangle(zoom, 101 - zoom[0], 101 - zoom[1], fill=False,
                                    ls="--", lw=0.8, color="0.4"))
    axes[0].set_title("all data sets", fontsize="medium")
    axes[1].set_xlim(zoom[0], 101)
    axes[1].set_ylim(zoom[1], 101)
    axes[1].set_title("enlarged: dashed box of the left panel", fontsize="medium")
    axes[0].legend(frameon=False, fontsize="small", loc="lower left")
    return fig


def robust_ours_vs_paper_figure(t1, quantities=None, label_above=8.0):
    """Our Table 1 values against the published ones, one panel per quantity.

    Error bars: our binomial 95% interval (vertical) and 1.96 times the paper's
    printed half-width (horizontal), which is one standard error.

    Parameters
    ----------
    t1 : DataFrame
        :func:`credal.robust.table1` output (percent).
    quantities : list of str, optional
        Default: the five quantities of Table 1.
    label_above : float
        Name the data sets whose difference exceeds this many percentage points.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from credal.robust import QUANTITIES

    qs = list(quantities or QUANTITIES)
    rows = _check_table1(t1, [qs[0], "paper's name"] + [
        f"{q}{s}" for q in qs for s in ("", " ±95%", " paper", " ± paper")])
    ncol = 3
    nrow = -(-len(qs) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(10.5, 3.4 * nrow), squeeze=False,
                             constrained_layout=True)
    for ax, q in zip(axes.flat, qs):
        ok = rows[q].notna() & rows[f"{q} paper"].notna()
        r = rows[ok]
        lo = min(r[q].min(), r[f"{q} paper"].min())
        lo = max(0.0, 10 * np.floor(lo / 10) - 5)
        ax.plot([lo, 100], [lo, 100], color="0.5", lw=0.8, ls="--", label="ours = paper")
        ax.errorbar(r[f"{q} paper"], r[q], yerr=r[f"{q} ±95%"],
                    xerr=_Z95 * r[f"{q} ± paper"], fmt="o", ms=4, color="tab:blue",
                    ecolor="tab:blue", elinewidth=0.6, alpha=0.85, label="data set")
        for name, rr in r.iterrows():
            if abs(rr[q] - rr[f"{q} paper"]) > label_above:
                ax.annotate(_short_label(name, rr["paper's name"]),
                            (rr[f"{q} paper"], rr[q]), fontsize=7,
                            xytext=(3, 3), textcoords="offset points", color="0.2")
        ax.set_xlim(lo, 101)
        ax.set_ylim(lo, 101)
        ax.set_aspect("equal")
        what = "coverage" if "coverage" in q else "accuracy"
        name = q.replace(" coverage", "").replace("_", "$_") + "$" if "_" in q else q
        ax.set_title(f"{name} {what}", fontsize="medium")
        ax.set_xlabel(f"published {what} (%)")
        ax.set_ylabel(f"our {what} (%)")
        ax.grid(True, lw=0.3, color="0.85")
    for ax in list(axes.flat)[len(qs):]:
        ax.set_visible(False)
    axes.flat[0].legend(frameon=False, fontsize="small", loc="upper left")
    return fig
