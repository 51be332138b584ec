"""The figure functions: names are unique across chapters, figures draw with labels."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from credal import datasets, plotting


def test_public_names_unique_and_present():
    names = plotting.__all__
    assert len(names) == len(set(names)), "two chapter submodules export the same name"
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


def test_dataset_map_draws_every_group(tmp_path):
    ov = datasets.overview(groups=["antonucci-lncc", "moral-trees"], discretize=False)
    fig = plotting.dataset_map(ov)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert any("antonucci-lncc (9" in t for t in titles)
    assert any("moral-trees (11" in t for t in titles)
    fig.savefig(tmp_path / "map.png")
