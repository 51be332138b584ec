"""Figures of the leaderboard and performance chapters.

The leaderboard figures take the tables of :mod:`credal.leaderboard`: the per-data-set
scores of :func:`credal.leaderboard.dataset_scores` (indexed by data set and
classifier), the data set information of :class:`credal.leaderboard.LeaderboardResult`
and the rank tables.  The performance figures take the measurements of
:func:`credal.leaderboard.throughput` and :func:`credal.leaderboard.fit_scaling`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "leaderboard_heatmap",
    "leaderboard_determinacy",
    "leaderboard_cd_diagrams",
    "leaderboard_wins",
    "leaderboard_bayes_pairs",
    "performance_throughput",
    "performance_scaling",
]


def _registry_order(names):
    from credal.leaderboard import REGISTRY

    order = {e.name: i for i, e in enumerate(REGISTRY)}
    return sorted(names, key=lambda n: order.get(n, len(order)))


def _kinds():
    from credal.leaderboard import REGISTRY

    return {e.name: e.kind for e in REGISTRY}


def leaderboard_heatmap(scores, info, metric="u80", classifiers=None):
    """Heatmap of one metric by data set (rows, by size) and classifier (columns).

    Each cell shows the score in percent; its colour is the gap to the best
    classifier on that data set (white = best, darker = further behind), so the
    pattern of who leads where is visible across data sets of very different
    difficulty.  Cells of classifiers that did not run on a data set are grey.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.leaderboard.dataset_scores`.
    info : DataFrame
        :attr:`credal.leaderboard.LeaderboardResult.info` (``n`` orders the rows).
    metric : str
    classifiers : sequence of str, optional
        Columns (default: all, credal first, in registry order).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    mat = scores[metric].unstack("classifier")
    cols = list(classifiers) if classifiers is not None else _registry_order(mat.columns)
    mat = mat[cols]
    rows = list(info["n"].reindex(mat.index).sort_values(kind="stable").index)
    mat = mat.loc[rows] * 100
    gap = mat.max(axis=1).to_numpy()[:, None] - mat.to_numpy()
    n_r, n_c = mat.shape
    fig, ax = plt.subplots(figsize=(1.0 + 0.62 * n_c, 1.6 + 0.24 * n_r))
    cmap = plt.get_cmap("Blues").with_extremes(bad="#dddddd")
    vmax = max(5.0, float(np.nanpercentile(gap, 95)) if np.isfinite(gap).any() else 5.0)
    im = ax.imshow(np.ma.masked_invalid(gap), cmap=cmap, vmin=0, vmax=vmax, aspect="auto")
    for i in range(n_r):
        for j in range(n_c):
            v = mat.iat[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=6.5,
                        color="white" if gap[i, j] > 0.6 * vmax else "black")
    kinds = _kinds()
    ax.set_xticks(range(n_c))
    ax.set_xticklabels(cols, rotation=60, ha="right", fontsize=8)
    for lab in ax.get_xticklabels():
        if kinds.get(lab.get_text()) == "precise":
            lab.set_fontstyle("italic")
    ax.set_yticks(range(n_r))
    ax.set_yticklabels([f"{d} ({int(info.loc[d, 'n'])})" for d in rows], fontsize=7)
    ax.set_xlabel("classifier (precise counterparts in italics)")
    ax.set_ylabel("data set (instances)")
    cb = fig.colorbar(im, ax=ax, fraction=0.03, pad=0.01)
    cb.set_label(f"{metric} points behind the best on the data set")
    fig.tight_layout()
    return fig


def leaderboard_determinacy(scores, info, classifiers=None):
    """Determinacy of each credal classifier against the size of the data set.

    One panel per credal classifier: a point per data set (x: number of instances,
    logarithmic; y: share of test instances given a single class, percent) and the
    median within each size bin of :data:`credal.leaderboard.SIZE_BINS`.

    Parameters
    ----------
    scores : DataFrame
        :func:`credal.leaderboard.dataset_scores`.
    info : DataFrame
        :attr:`credal.leaderboard.LeaderboardResult.info`.
    classifiers : sequence of str, optional
        Default: the credal classifiers present.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from credal.leaderboard import SIZE_BINS

    kinds = _kinds()
    present = scores.index.get_level_values("classifier").unique()
    cols = list(classifiers) if classifiers is not None else \
        _registry_order([c for c in present if kinds.get(c) == "credal"])
    n = len(cols)
    ncol = 3 if n > 4 else max(1, n)
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.3 * ncol, 2.6 * nrow), sharex=True,
                             sharey=True, squeeze=False)
    for ax, c in zip(axes.ravel(), cols):
        d = scores["determinacy"].xs(c, level="classifier") * 100
        size = info["n"].reindex(d.index).astype(float)
        incomplete = info["incomplete"].reindex(d.index).astype(bool)
        ax.scatter(size[~incomplete], d[~incomplete], s=14, color="tab:blue", alpha=0.75,
                   label="complete data")
        ax.scatter(size[incomplete], d[incomplete], s=14, facecolors="none",
                   edgecolors="tab:orange", label="with missing values")
        xs, ys = [], []
        for _, lo, hi in SIZE_BINS:
            sel = (size > lo) & (size <= hi)
            if sel.any():
                xs.append(float(np.exp(np.log(size[sel]).mean())))
                ys.append(float(d[sel].median()))
        ax.plot(xs, ys, color="black", lw=1.2, marker="s", ms=3, label="median per size bin")
        ax.set_xscale("log")
        ax.set_title(c, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        if ax.get_visible():
            ax.set_xlabel("instances in the data set (log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel("determinacy (%)")
    axes.ravel()[0].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def leaderboard_cd_diagrams(ranks, metrics=("u65", "u80"), level="95%"):
    """Critical-difference diagrams (Friedman + Nemenyi), one per metric.

    Parameters
    ----------
    ranks : DataFrame
        First output of :func:`credal.leaderboard.rank_tables`.
    metrics : sequence of str
    level : str
        Which critical difference to draw (column ``cd_<level>``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from ._compare import cd_diagram as draw

    meta = {"n_datasets", "friedman_p", "iman_davenport_p"}
    ms = [m for m in metrics if m in ranks.index]
    k = max(len([c for c in ranks.columns if c not in meta and not str(c).startswith("cd_")]), 2)
    fig, axes = plt.subplots(len(ms), 1, figsize=(9, (1.6 + 0.16 * k) * len(ms)),
                             squeeze=False)
    for ax, m in zip(axes[:, 0], ms):
        r = ranks.loc[m]
        avg = r[[c for c in r.index if c not in meta and not str(c).startswith("cd_")]]
        avg = avg.dropna().astype(float)
        draw(avg, float(r[f"cd_{level}"]), ax=ax,
             title=f"{m}: average rank over {int(r['n_datasets'])} data sets "
                   f"(1 = best; CD = Nemenyi critical difference at {level})")
        ax.set_xlabel("average rank")
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def leaderboard_wins(win_ranks, wins=None):
    """Average rank of every classifier within bins of data sets.

    Three panels (size, number of classes, share of missing cells): rows are
    classifiers, columns bins; the colour is the average rank under the chosen
    utility within the bin (darker = better) and the text the number of data sets
    won in the bin (when ``wins`` is given).

    Parameters
    ----------
    win_ranks : DataFrame
        Second output of :func:`credal.leaderboard.win_tables`.
    wins : DataFrame, optional
        First output of :func:`credal.leaderboard.win_tables`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    factors = [f for f in ("size", "classes", "missing")
               if f in win_ranks.index.get_level_values("factor")]
    clf = [c for c in win_ranks.columns if c != "data sets"]
    widths = [len(win_ranks.loc[f]) for f in factors]
    fig, axes = plt.subplots(1, len(factors), figsize=(2.0 + 1.25 * sum(widths),
                                                       1.3 + 0.32 * len(clf)),
                             gridspec_kw={"width_ratios": widths}, squeeze=False)
    vmax = float(np.nanmax(win_ranks[clf].to_numpy(dtype=float)))
    vmin = float(np.nanmin(win_ranks[clf].to_numpy(dtype=float)))
    im = None
    for ax, f in zip(axes[0], factors):
        sub = win_ranks.loc[f]
        mat = sub[clf].T.to_numpy(dtype=float)
        im = ax.imshow(mat, cmap="viridis_r", vmin=vmin, vmax=vmax, aspect="auto")
        if wins is not None:
            w = wins.loc[f][clf].T.to_numpy(dtype=float)
            for i in range(mat.shape[0]):
                for j in range(mat.shape[1]):
                    if w[i, j] > 0:
                        txt = f"{w[i, j]:.1f}".rstrip("0").rstrip(".")
                        ax.text(j, i, txt, ha="center", va="center", fontsize=7,
                                color="white" if mat[i, j] < (vmin + vmax) / 2 else "black")
        ax.set_xticks(range(len(sub)))
        ax.set_xticklabels([f"{b}\n({int(n)} sets)" for b, n in
                            zip(sub.index, sub["data sets"])], fontsize=7)
        ax.set_yticks(range(len(clf)))
        ax.set_yticklabels(clf if ax is axes[0, 0] else [], fontsize=8)
        ax.set_xlabel({"size": "instances", "classes": "number of classes",
                       "missing": "missing feature cells"}[f])
        if ax is axes[0, 0]:
            ax.set_ylabel("classifier")
    cb = fig.colorbar(im, ax=list(axes[0]), fraction=0.025, pad=0.01)
    cb.set_label("average rank within the bin (1 = best)")
    return fig


def leaderboard_bayes_pairs(pairs):
    """Posterior probabilities of the Bayesian signed-rank test for each pair.

    Parameters
    ----------
    pairs : DataFrame
        :func:`credal.leaderboard.top_pair_comparisons`.

    Returns
    -------
    matplotlib.figure.Figure
        Stacked horizontal bars: ``a`` better (blue), practically equivalent (grey),
        ``b`` better (orange).
    """
    import matplotlib.pyplot as plt

    n = len(pairs)
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.32 * max(n, 1)))
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for col, colour, lab in (("p_a_better", "tab:blue", "a better"),
                             ("p_rope", "0.7", "practically equivalent"),
                             ("p_b_better", "tab:orange", "b better")):
        v = pairs[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=colour, label=lab, height=0.7)
        left += v
    ax.set_yticks(y)
    ax.set_yticklabels([f"{m}: {a} (a) vs {b} (b)" for m, a, b in
                        zip(pairs["label"], pairs["a"], pairs["b"])], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("posterior probability")
    ax.set_ylabel("pair of classifiers")
    ax.legend(ncol=3, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0),
              frameon=False)
    fig.tight_layout()
    return fig


def performance_throughput(tp):
    """Instances classified per second: ours against the solver baseline.

    Parameters
    ----------
    tp : DataFrame
        :func:`credal.leaderboard.throughput`.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per data set; for each classifier a dot for ours and a cross for the
        baseline on a logarithmic axis, joined by a line labelled with the ratio.
    """
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(tp["dataset"]))
    clf = _registry_order(list(dict.fromkeys(tp["classifier"])))
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 0.8 + 0.4 * len(clf)),
                             sharey=True, squeeze=False)
    for ax, name in zip(axes[0], names):
        sub = tp[tp["dataset"] == name].set_index("classifier").reindex(clf)
        y = np.arange(len(clf))[::-1]
        for yi, (c, r) in zip(y, sub.iterrows()):
            if not np.isfinite(r["ours_per_s"]):
                continue
            ax.plot([r["baseline_per_s"], r["ours_per_s"]], [yi, yi], color="0.6", lw=1)
            ax.text(np.sqrt(r["baseline_per_s"] * r["ours_per_s"]), yi + 0.18,
                    f"×{r['ratio']:,.0f}", ha="center", va="bottom", fontsize=6.5)
        ax.scatter(sub["ours_per_s"], y, color="tab:blue", zorder=3, label="credal (ours)")
        ax.scatter(sub["baseline_per_s"], y, color="tab:red", marker="x", zorder=3,
                   label="solver baseline")
        ax.set_xscale("log")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("instances classified per second (log)")
        ax.grid(alpha=0.3, axis="x")
        ax.set_yticks(y)
        ax.set_yticklabels(clf, fontsize=8)
        ax.set_ylim(-0.7, len(clf) - 0.3)
    axes[0, 0].set_ylabel("classifier")
    axes[0, 0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def performance_scaling(scaling, slopes=None):
    """Fit time against the number of rows (left) and of features (right), log-log.

    Parameters
    ----------
    scaling : DataFrame
        :func:`credal.leaderboard.fit_scaling`.
    slopes : DataFrame, optional
        :func:`credal.leaderboard.scaling_slopes` (shown in the legends).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    axes_names = [a for a in ("n", "k") if a in set(scaling["axis"])]
    fig, axes = plt.subplots(1, len(axes_names), figsize=(6.2 * len(axes_names), 4.6),
                             squeeze=False)
    clf = _registry_order(list(dict.fromkeys(scaling["classifier"])))
    cmap = plt.get_cmap("tab10")
    for ax, a in zip(axes[0], axes_names):
        for i, c in enumerate(clf):
            g = scaling[(scaling["classifier"] == c) & (scaling["axis"] == a)]
            if g.empty:
                continue
            lab = c
            if slopes is not None and f"slope {a}" in slopes and c in slopes.index:
                lab = f"{c} (slope {slopes.loc[c, f'slope {a}']:.2f})"
            ax.plot(g["value"], g["fit_s"], marker="o", ms=3, color=cmap(i % 10),
                    ls="-" if i < 10 else "--", label=lab)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.grid(alpha=0.3, which="both")
        ax.set_xlabel("training instances n (log)" if a == "n" else
                      "features k (log)")
        ax.set_ylabel("fit time (s, log)")
        if a == "n":
            v = np.array(sorted(set(scaling.loc[scaling["axis"] == "n", "value"])), float)
            if len(v) > 1:
                ref = scaling.loc[scaling["axis"] == "n", "fit_s"].median()
                ax.plot(v, ref * v / np.sqrt(v[0] * v[-1]), color="black", lw=0.8, ls=":",
                        label="slope 1 (linear)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
