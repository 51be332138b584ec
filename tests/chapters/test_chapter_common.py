"""Helpers shared by the chapters (credal.chapters._common)."""

import numpy as np
import pandas as pd
import pytest

from credal.chapters import _common
from credal.chapters._common import save_table


def test_save_table(tmp_path):
    df = pd.DataFrame({"a": [1, 2]})
    path = save_table(df, "nb", "t", root=tmp_path)
    assert path == tmp_path / "results" / "nb" / "t.csv"
    assert pd.read_csv(path, index_col=0)["a"].tolist() == [1, 2]


@pytest.mark.parametrize("p, text, expected", [
    (0.004, "<0.01", True), (0.02, "<0.01", False), (0.02, "<0.05", True),
    (0.2, "n.s.", True), (0.01, "n.s.", False), (np.nan, "<0.01", None),
    (0.01, "about 3", None), (0.01, "<x", None)])
def test_meets_published(p, text, expected):
    assert _common.meets_published(p, text) is expected


# --------------------------------------------------------------------------- verdict rule


@pytest.mark.parametrize("printed, scale, expected", [
    ("86.8", 1, 0.05), ("3", 1, 0.5), (".868", 1, 0.0005), ("1.20", 1, 0.005),
    ("-0.4", 1, 0.05), ("12.5%", 1, 0.05), (".868", 100, 0.05), (2, 1, 0.005), (0, 1, 0.5)])
def test_half_unit(printed, scale, expected):
    assert _common.half_unit(printed, scale) == pytest.approx(expected)


@pytest.mark.parametrize("bad, err", [(0.5, TypeError), ("about 3", ValueError),
                                      ("nan", ValueError), (True, TypeError)])
def test_half_unit_rejects(bad, err):
    with pytest.raises(err):
        _common.half_unit(bad)


def test_tolerance_formula_on_random_cases():
    rng = np.random.default_rng(14)
    for _ in range(200):
        se1, se2, spread = rng.uniform(0, 2, 3)
        n1, n2 = rng.integers(1, 500, 2)
        dec, extra = int(rng.integers(0, 4)), float(rng.uniform(0, 1))
        z = float(rng.uniform(1, 4))
        # given standard errors
        t = _common.tolerance(se1, se2, printed=dec, extra=extra, extra_why="x", z=z)
        assert float(t) == pytest.approx(z * np.sqrt(se1**2 + se2**2) + 0.5 * 10.0**-dec + extra)
        # both estimated from our spread and the trial counts
        t = _common.tolerance(spread=spread, n_ours=n1, n_published=n2, rounding=0.1)
        want = 3 * spread * np.sqrt(1 / n1 + 1 / n2) + 0.1
        assert float(t) == pytest.approx(want) and t.published_se_estimated
        # a given published SE wins over the estimate; our SE given wins over n_ours
        t = _common.tolerance(se1, se2, spread=spread, n_ours=n1, n_published=n2)
        assert float(t) == pytest.approx(3 * np.hypot(se1, se2))
        assert not t.published_se_estimated


def test_tolerance_defaults_and_monotone():
    assert float(_common.tolerance()) == 0.0                 # exact, unrounded
    assert float(_common.tolerance(printed="0.74")) == pytest.approx(0.005)
    assert _common.Z_VERDICT == 3.0
    base = float(_common.tolerance(0.1, 0.1))
    assert float(_common.tolerance(0.1, 0.2)) > base
    assert float(_common.tolerance(0.1, 0.1, extra=0.3, extra_why="guessed data")) \
        == pytest.approx(base + 0.3)


@pytest.mark.parametrize("kwargs", [
    {"n_published": 10}, {"n_ours": 10}, {"spread": 1.0, "n_published": 0},
    {"spread": 1.0, "n_published": 2.5}, {"se_ours": -1.0}, {"se_ours": np.nan},
    {"extra": 0.2}, {"printed": "1.0", "rounding": 0.05}, {"extra": -0.1, "extra_why": "x"}])
def test_tolerance_rejects(kwargs):
    with pytest.raises(ValueError):
        _common.tolerance(**kwargs)


def test_tolerance_describe():
    t = _common.tolerance(0.3, spread=2.0, n_published=100, printed="86.8", extra=1.3,
                          extra_why="6 of 9 data sets guessed")
    text = t.describe()
    assert "(est.)" in text and "6 of 9 data sets guessed" in text
    assert text.startswith(f"tolerance {float(t):.3g} = 3 x")
    assert _common.tolerance(printed="0.98").describe() == "tolerance 0.005 = rounding 0.005"
    assert _common.tolerance().describe() == "tolerance 0 = rounding 0"
    assert "rounding" not in _common.tolerance(0.1).describe()


def _rows():
    return [
        {"quantity": "a", "published": 1.0, "ours": 1.2, "tolerance": 0.3},
        {"quantity": "b", "published": 1.0, "ours": 2.0, "tolerance": 0.3},
        {"quantity": "c", "published": np.nan, "ours": 2.0, "tolerance": 0.3},
        {"quantity": "d", "published": 1.0, "ours": 1.0, "tolerance": 0.0,
         "verdict": "not comparable", "note": "data version unknown"},
        {"quantity": "e", "published": 10.0, "ours": 10.5,
         "tolerance": _common.tolerance(0.1, 0.1, printed="10.0"), "note": "mean"},
    ]


def test_headline_table_verdicts_and_override():
    df = _common.headline_table(_rows(), paper="P", chapter="c")
    assert list(df.columns) == _common.HEADLINE_COLUMNS + ["verdict"]
    assert df["verdict"].tolist() == ["reproduced", "differs", "not comparable",
                                      "not comparable", "differs"]
    e = df.set_index("quantity").loc["e"]
    assert e["tolerance"] == pytest.approx(3 * np.hypot(0.1, 0.1) + 0.05)
    assert e["note"].startswith("mean; tolerance ")
    # recomputing keeps the override only
    stale = df.assign(verdict=["differs", "reproduced", "reproduced", "not comparable",
                               "reproduced"])
    assert _common.verdicts(stale).tolist() == df["verdict"].tolist()


def test_headline_table_override_survives_collect(tmp_path):
    from credal.chapters import reproduction_report
    df = _common.headline_table(_rows(), paper="P", chapter="c")
    _common.save_table(df, "c", "headline", root=tmp_path, index=False)
    got = reproduction_report.collect(tmp_path)
    assert got["verdict"].tolist() == df["verdict"].tolist()
    assert list(got.columns) == _common.HEADLINE_COLUMNS + ["verdict"]


@pytest.mark.parametrize("row", [
    {"quantity": "x", "published": 1.0, "ours": 5.0, "tolerance": 0.1, "verdict": "reproduced"},
    {"quantity": "x", "published": 1.0, "ours": 1.0, "tolerance": 0.1,
     "verdict": "not comparable"},
    {"quantity": "x", "published": 1.0, "ours": 1.0, "tolerance": -0.1}])
def test_headline_table_rejects(row):
    with pytest.raises(ValueError):
        _common.headline_table([row], paper="P", chapter="c")
