"""The data chapter's figure."""

from __future__ import annotations

__all__ = ["dataset_map"]


def dataset_map(overview, groups=None):
    """Rows against features of every data set, one panel per paper group.

    Parameters
    ----------
    overview : DataFrame
        Output of :func:`credal.datasets.overview` (uses ``n_rows``,
        ``n_features_mdl`` or ``n_features``, ``n_classes``, ``pct_missing``,
        ``groups``).
    groups : list of str, optional
        Panels to draw; default: every group present.

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
    ncol = min(2, len(groups))
    nrow = -(-len(groups) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 3.9 * nrow), squeeze=False,
                             sharex=True, sharey=True, constrained_layout=True)
    x_all = overview["n_rows"].astype(float)
    y_all = overview[feat].clip(lower=1).astype(float)
    for ax, g in zip(axes.flat, groups):
        inside = member.map(lambda gs: g in gs).to_numpy()
        ax.scatter(x_all[~inside], y_all[~inside], s=12, color="0.85", zorder=1)
        d = overview[inside]
        size = 18 + 14 * d["n_classes"].astype(float)
        miss = d["pct_missing"].to_numpy() > 0
        x, y = x_all[inside].to_numpy(), y_all[inside].to_numpy()
        ax.scatter(x[~miss], y[~miss], s=size[~miss], facecolors="none",
                   edgecolors="tab:blue", zorder=2, label="complete")
        ax.scatter(x[miss], y[miss], s=size[miss], color="tab:orange", alpha=0.8,
                   zorder=2, label="with missing values")
        for name, xi, yi in zip(d.index, x, y):
            ax.annotate(name, (xi, yi), fontsize=6, xytext=(3, 2),
                        textcoords="offset points", color="0.25")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{g} ({int(inside.sum())} data sets)", fontsize="medium")
        ax.grid(True, which="major", lw=0.3, color="0.85")
    for ax in axes[-1]:
        ax.set_xlabel("rows (instances, log scale)")
    for ax in axes[:, 0]:
        label = "features after MDL" if feat == "n_features_mdl" else "features"
        ax.set_ylabel(f"{label} (log scale)")
    for ax in list(axes.flat)[len(groups):]:
        ax.set_visible(False)
    axes.flat[0].legend(frameon=False, fontsize="small", loc="upper left")
    return fig
