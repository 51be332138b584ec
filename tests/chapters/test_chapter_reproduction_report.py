"""The reproduction report (credal.chapters.reproduction_report) and the headline rows
and verdicts it gathers (credal.chapters._common)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from credal.chapters import reproduction_report as chapter
from credal.chapters._common import HEADLINE_COLUMNS, headline_table, save_table


def test_public_names():
    assert sorted(chapter.__all__) == ["collect", "save_table", "verdict_chart"]


def test_verdicts_and_collect(tmp_path):
    a = headline_table(
        [{"quantity": "mean accuracy", "published": 80.0, "ours": 80.4, "tolerance": 0.5},
         {"quantity": "determinacy", "published": 95.0, "ours": 90.0, "tolerance": 1.0,
          "note": "different folds"},
         {"quantity": "not printed", "published": np.nan, "ours": 3.0, "tolerance": 0.0}],
        paper="P (2020)", chapter="ch1")
    assert list(a.verdict) == ["reproduced", "differs", "not comparable"]
    assert list(a.columns) == HEADLINE_COLUMNS + ["verdict"]
    save_table(a, "ch1", "headline", root=tmp_path, index=False)
    b = headline_table([{"quantity": "x", "published": 1, "ours": 1, "tolerance": 0}],
                       paper="Q", chapter="ch2")
    save_table(b, "ch2", "headline", root=tmp_path, index=False)
    got = chapter.collect(tmp_path)
    assert len(got) == 4 and list(got.chapter) == ["ch1"] * 3 + ["ch2"]
    assert list(got.verdict) == ["reproduced", "differs", "not comparable", "reproduced"]
    assert got.note.iloc[1] == "different folds" and got.note.iloc[0] == ""


def test_empty_and_bad_input(tmp_path):
    assert chapter.collect(tmp_path).empty
    with pytest.raises(ValueError, match="need the keys"):
        headline_table([{"quantity": "x", "ours": 1}], paper="P", chapter="c")
    with pytest.raises(ValueError, match=">= 0"):
        headline_table([{"quantity": "x", "published": 1, "ours": 1, "tolerance": -1}],
                       paper="P", chapter="c")
    (tmp_path / "results" / "bad").mkdir(parents=True)
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "results" / "bad" / "headline.csv")
    with pytest.raises(ValueError, match="missing columns"):
        chapter.collect(tmp_path)


def test_verdict_chart_counts_per_paper(tmp_path):
    rows = [{"quantity": f"q{i}", "published": 1.0, "ours": o, "tolerance": 0.1}
            for i, o in enumerate([1.0, 1.0, 2.0, np.nan])]
    headlines = pd.concat([headline_table(rows, paper="P", chapter="c1"),
                           headline_table(rows[:1], paper="Q", chapter="c2")],
                          ignore_index=True)
    fig = chapter.verdict_chart(headlines)
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    # one bar per paper and verdict, stacked: P = 2 reproduced + 1 differs + 1 n.c.
    widths = [p.get_width() for p in ax.patches]
    assert widths == [2, 1, 1, 0, 1, 0]
    fig.savefig(tmp_path / "verdicts.png")
    with pytest.raises(ValueError, match="no headline"):
        chapter.verdict_chart(headlines.iloc[:0])
