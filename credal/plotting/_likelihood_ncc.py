"""Figures of the likelihood-based naive credal classifier chapter.

Antonucci, Cattaneo & Corani (2011): Figures 1-5 of the paper, drawn from the
results of :mod:`credal.naive`'s chapter functions.
"""

from __future__ import annotations

import numpy as np

__all__ = ["likelihood_idm_figure", "likelihood_cloud_figure", "profile_likelihood_figure",
           "determinacy_vs_size_figure", "ncc_lncc_scatter_figure"]

_NCC_COLOURS = ["#08519c", "#3182bd", "#6baed6", "#9ecae1"]
_LNCC_COLOURS = ["#a63603", "#e6550d", "#fd8d3c", "#fdae6b"]


def _require(df, columns, what):
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} lacks columns {missing}")


def likelihood_idm_figure(intervals, alpha=0.85, s=2.0):
    """Figure 1: upper ends of likelihood-based and IDM intervals against N.

    Parameters
    ----------
    intervals : DataFrame
        :func:`credal.naive.likelihood_vs_idm` output.
    alpha, s : float
        The threshold and prior strength used (for the legend).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    _require(intervals, ["N", "n", "likelihood_upper", "idm_upper"], "intervals")
    fig, ax = plt.subplots(figsize=(6.4, 3.8), constrained_layout=True)
    ax.plot(intervals["N"], intervals["likelihood_upper"], "o", ms=3.5, color="k",
            label=f"likelihood-based, alpha = {alpha:g}")
    ax.plot(intervals["N"], intervals["idm_upper"], "o", ms=3.5, color="0.6",
            label=f"IDM, s = {s:g}")
    share = float(np.median(intervals["n"] / intervals["N"]))
    ax.axhline(share, color="k", ls=":", lw=0.8, label=f"observed share n/N = {share:g}")
    ax.set_xlabel("sample size N (observations)")
    ax.set_ylabel("upper probability that X is true")
    ax.set_xlim(0, intervals["N"].max() * 1.02)
    ax.legend(frameon=False)
    return fig


def likelihood_cloud_figure(cloud, envelope, cuts, alpha_star=None):
    """Figure 2 (Example 2): sampled naive models, the exact envelope and alpha cuts.

    Parameters
    ----------
    cloud : DataFrame
        :func:`credal.naive.example2_cloud` output (``posterior``,
        ``relative_likelihood``).
    envelope : DataFrame
        :meth:`credal.naive.TwoClassProfile.curve` output.
    cuts : DataFrame
        :func:`credal.naive.example2_cuts` output (``alpha``, ``source``,
        ``low``, ``high``).
    alpha_star : float, optional
        Exact dominance threshold, drawn as a dotted line.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    _require(cloud, ["posterior", "relative_likelihood"], "cloud")
    _require(envelope, ["posterior", "relative_likelihood"], "envelope")
    fig, ax = plt.subplots(figsize=(6.4, 4.2), constrained_layout=True)
    ax.plot(cloud["posterior"], cloud["relative_likelihood"], ".", ms=2.0, color="k",
            alpha=0.5, label=f"{len(cloud)} random models")
    ax.plot(envelope["posterior"], envelope["relative_likelihood"], color="0.55", lw=2.2,
            label="upper envelope (profile likelihood)")
    ax.axvline(0.5, color="k", lw=0.8, ls="--")
    for _, r in cuts.iterrows():
        exact = r["source"] == "exact"
        y = r["alpha"] + (0.0 if exact else 0.012)
        ax.plot([r["low"], r["high"]], [y, y], color="0.55" if exact else "k",
                lw=3.0 if exact else 1.4, solid_capstyle="butt")
        if exact:
            ax.annotate(f"alpha = {r['alpha']:g}", (r["high"], y), xytext=(4, -3),
                        textcoords="offset points", fontsize="small")
    if alpha_star is not None:
        ax.axhline(alpha_star, color="tab:red", lw=0.9, ls=":",
                   label=f"dominance threshold alpha* = {alpha_star:.4f}")
    ax.plot([], [], color="0.55", lw=3.0, label="alpha cut of the envelope")
    ax.plot([], [], color="k", lw=1.4, label="alpha cut of the sample")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.04)
    ax.set_xlabel("posterior probability P(c | f) of the model")
    ax.set_ylabel("relative likelihood lik / max lik")
    ax.legend(frameon=False, fontsize="small", loc="upper left")
    return fig


def profile_likelihood_figure(profiles, thresholds=None):
    """Figure 3 (Example 3): profile likelihoods with and without the new instance.

    Parameters
    ----------
    profiles : DataFrame
        :func:`credal.naive.example3_profiles` output.
    thresholds : dict of str to float, optional
        Horizontal reference lines, label -> level.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    _require(profiles, ["likelihood", "posterior", "relative_likelihood"], "profiles")
    fig, ax = plt.subplots(figsize=(6.4, 4.0), constrained_layout=True)
    styles = {"with the new instance": dict(color="k", lw=2.0),
              "without the new instance": dict(color="0.6", lw=2.0)}
    for name, sub in profiles.groupby("likelihood", sort=False):
        ax.plot(sub["posterior"], sub["relative_likelihood"], label=name,
                **styles.get(name, {}))
    ax.axvline(0.5, color="k", lw=0.8, ls="--")
    for (label, level), ls in zip((thresholds or {}).items(), (":", "-.", "--")):
        ax.axhline(level, color="tab:red", lw=0.9, ls=ls, label=f"{label} = {level:.4f}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.04)
    ax.set_xlabel("posterior probability P(c | f1, f2)")
    ax.set_ylabel("relative profile likelihood")
    ax.legend(frameon=False, fontsize="small", loc="center left")
    return fig


def determinacy_vs_size_figure(summary, published=None):
    """Figure 5: determinacy of NCC_eps and LNCC_alpha against the sample size d.

    Parameters
    ----------
    summary : DataFrame
        :func:`credal.naive.artificial_summary` output (index ``d``, ``classifier``).
    published : DataFrame, optional
        ``antonucci_table1_artificial`` (columns ``classifier``, ``n``, ``Det``),
        drawn as large open markers in the colour of the same classifier.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    _require(summary, ["family", "parameter_value", "Det", "Det_se"], "summary")
    fig, ax = plt.subplots(figsize=(7.2, 4.4), constrained_layout=True)
    colours = {"NCC": iter(_NCC_COLOURS * 4), "LNCC": iter(_LNCC_COLOURS * 4)}
    names = summary.index.get_level_values("classifier").unique()
    order = sorted((n for n in names if summary.xs(n, level="classifier")["family"].iloc[0]
                    in colours), key=lambda n: (n.split("_")[0] != "NCC", n))
    colour_of = {}
    for name in order:
        sub = summary.xs(name, level="classifier").sort_index()
        fam = sub["family"].iloc[0]
        colour_of[name] = next(colours[fam])
        ax.errorbar(sub.index, sub["Det"], yerr=sub["Det_se"], color=colour_of[name],
                    ls="-" if fam == "NCC" else "--", marker="o" if fam == "NCC" else "s",
                    ms=4, capsize=2, lw=1.4, label=name.replace("_", " "))
    if published is not None:
        for _, r in published.iterrows():
            ax.plot(r["n"], r["Det"], marker="o" if r["classifier"].startswith("NCC") else "s",
                    ms=11, mfc="none", mec=colour_of.get(r["classifier"], "k"), mew=1.6, ls="")
        ax.plot([], [], marker="o", mfc="none", mec="0.3", ls="", ms=11, mew=1.6,
                label="paper's NCC (Table 1)")
        ax.plot([], [], marker="s", mfc="none", mec="0.3", ls="", ms=11, mew=1.6,
                label="paper's LNCC (Table 1)")
    ds = sorted(summary.index.get_level_values("d").unique())
    ax.set_xticks(ds)
    span = (max(ds) - min(ds)) or 1
    ax.set_xlim(min(ds) - 0.06 * span, max(ds) + 0.06 * span)
    ax.set_xlabel("training-set size d (instances)")
    ax.set_ylabel("determinacy (% of test instances)")
    ax.legend(frameon=False, fontsize="small", ncol=2, loc="lower right")
    return fig


def _label_points(ax, names, x, y, near):
    """Name each point; a point close to one already named gets its label on
    another side (right-up, right-down, left-up, left-down in turn)."""
    sides = [((4, 3), "left"), ((4, -9), "left"), ((-4, 3), "right"), ((-4, -9), "right")]
    placed = []
    for name, xi, yi in zip(names, x, y):
        k = sum(1 for (px, py) in placed if abs(px - xi) < near and abs(py - yi) < near)
        (dx, dy), ha = sides[k % len(sides)]
        ax.annotate(name, (xi, yi), xytext=(dx, dy), textcoords="offset points",
                    fontsize="x-small", ha=ha)
        placed.append((xi, yi))


def ncc_lncc_scatter_figure(summary, ncc="NCC_0.05", lncc="LNCC_0.75"):
    """Figure 4: LNCC against NCC on each data set, one panel per indicator.

    Parameters
    ----------
    summary : DataFrame
        :func:`credal.naive.uci_summary` output (index ``dataset``, ``classifier``).
    ncc, lncc : str
        The two classifiers compared (the paper's defaults).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    labels = {"Det": "determinacy", "Sgl_acc": "single accuracy",
              "D_acc": "discounted accuracy", "NBC_I": "NBC-I"}
    _require(summary, list(labels) + [f"{k}_se" for k in labels], "summary")
    a = summary.xs(ncc, level="classifier")
    b = summary.xs(lncc, level="classifier").reindex(a.index)
    fig, axes = plt.subplots(2, 2, figsize=(8.6, 8.2), constrained_layout=True)
    for ax, (k, lab) in zip(axes.ravel(), labels.items()):
        x, y = a[k].to_numpy(float), b[k].to_numpy(float)
        ok = np.isfinite(x) & np.isfinite(y)
        ax.errorbar(x[ok], y[ok], xerr=a[f"{k}_se"].to_numpy(float)[ok],
                    yerr=b[f"{k}_se"].to_numpy(float)[ok], fmt="o", ms=5, color="k",
                    ecolor="0.6", capsize=0, lw=0.8)
        if ok.any():
            lo = min(x[ok].min(), y[ok].min())
            hi = max(x[ok].max(), y[ok].max())
            _label_points(ax, list(a.index[ok]), x[ok], y[ok], 0.05 * (hi - lo or 1.0))
            pad = 0.06 * (hi - lo if hi > lo else 1.0)
            ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="0.5", lw=0.8, ls="--")
            ax.set_xlim(lo - pad, hi + pad)
            ax.set_ylim(lo - pad, hi + pad)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel(f"{lab} of {ncc.replace('_', ' ')} (%)")
        ax.set_ylabel(f"{lab} of {lncc.replace('_', ' ')} (%)")
    return fig
