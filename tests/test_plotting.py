"""The generic figures of credal.plotting (the chapters' own figures are tested with their
chapter in tests/chapters/; cd_diagram with credal.stats in test_stats.py)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from credal import plotting


def test_public_names_unique_and_present():
    names = plotting.__all__
    assert len(names) == len(set(names))
    for n in names:
        assert callable(getattr(plotting, n))


def _labelled(fig):
    for ax in fig.axes:
        if ax.get_visible() and ax.axison:
            assert ax.get_xlabel() and ax.get_ylabel()


def test_introduction_figures(tmp_path):
    f1 = plotting.idm_interval_figure(max_n=100, fraction=0.25, s_values=[1, 2])
    _labelled(f1)
    # two bands x (lower, upper) lines + the observed-frequency line
    assert len(f1.axes[0].lines) == 5
    f2 = plotting.credal_simplex_figure([3, 1, 1], s=2)
    f3 = plotting.utility_figure()
    _labelled(f3)
    u65_line = f3.axes[0].lines[1]
    x, y = u65_line.get_data()
    np.testing.assert_allclose(y[np.argmin(abs(x - 0.5))], 0.65)
    for i, f in enumerate((f1, f2, f3)):
        f.savefig(tmp_path / f"{i}.png")
    with pytest.raises(ValueError, match="max_n"):
        plotting.idm_interval_figure(max_n=1)
    with pytest.raises(ValueError, match="3 numbers"):
        plotting.credal_simplex_figure([1, 2])


def test_new_axes_makes_or_reuses_axes():
    fig, ax = plotting.new_axes(None, figsize=(3.0, 2.0))
    assert ax.figure is fig and tuple(fig.get_size_inches()) == (3.0, 2.0)
    assert plotting.new_axes(ax, figsize=(9.0, 9.0)) == (fig, ax)


def test_introduction_figures_on_given_axes():
    import matplotlib.pyplot as plt

    fig, (a1, a2, a3) = plt.subplots(1, 3)
    assert plotting.idm_interval_figure(max_n=20, ax=a1) is fig
    assert plotting.credal_simplex_figure([1, 1, 1], ax=a2) is fig
    assert plotting.utility_figure(ax=a3) is fig
    plt.close(fig)


def test_place_labels_keeps_crowded_labels_apart_and_off_the_legend():
    """Names on crowded points (one next to the legend): the placed labels overlap each
    other far less than labels all put on the same side, and none covers the legend."""
    import matplotlib.pyplot as plt
    from credal.plotting import place_labels

    xy = np.array([[0.30, 0.30], [0.45, 0.30], [0.30, 0.45], [0.45, 0.45], [0.375, 0.375],
                   [0.12, 0.80]])
    names = [f"data set {i}" for i in range(6)]

    def area(a, b):  # of the intersection, px^2 (boxes that only touch: 0)
        return (max(min(a.x1, b.x1) - max(a.x0, b.x0), 0.0)
                * max(min(a.y1, b.y1) - max(a.y0, b.y0), 0.0))

    overlaps = []
    for placed in (True, False):
        fig, ax = plt.subplots(figsize=(5, 4))
        ax.plot(xy[:, 0], xy[:, 1], "o", label="points")
        ax.set(xlim=(0, 1), ylim=(0, 1))
        ax.legend(loc="upper left")
        if placed:
            place_labels(ax, xy, names)
        else:
            for (x, y), n in zip(xy, names):
                ax.annotate(n, (x, y), xytext=(5, 2), textcoords="offset points", fontsize=9)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in ax.texts]
        assert len(boxes) == 6
        overlaps.append(sum(area(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]))
        if placed:
            legend = ax.get_legend().get_window_extent(renderer)
            assert max(area(b, legend) for b in boxes) < 1.0
        plt.close(fig)
    assert overlaps[0] < 0.5 * overlaps[1], overlaps
