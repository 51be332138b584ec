"""The reproduction report (credal.chapters.reproduction_report) and the headline rows
and verdicts it gathers (credal.chapters._verdicts)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from credal.chapters import reproduction_report as chapter
from credal.chapters._display import save_table
from credal.chapters._verdicts import HEADLINE_COLUMNS, headline_table


def test_public_names():
    assert sorted(chapter.__all__) == ["deviation_plot", "numbers", "run", "tables",
                                       "verdict_chart"]


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
    got = chapter.run(tmp_path)
    assert len(got) == 4 and list(got.chapter) == ["ch1"] * 3 + ["ch2"]
    assert list(got.verdict) == ["reproduced", "differs", "not comparable", "reproduced"]
    assert got.note.iloc[1] == "different folds" and got.note.iloc[0] == ""


def test_empty_and_bad_input(tmp_path):
    assert chapter.run(tmp_path).empty
    with pytest.raises(ValueError, match="need the keys"):
        headline_table([{"quantity": "x", "ours": 1}], paper="P", chapter="c")
    with pytest.raises(ValueError, match=">= 0"):
        headline_table([{"quantity": "x", "published": 1, "ours": 1, "tolerance": -1}],
                       paper="P", chapter="c")
    (tmp_path / "results" / "bad").mkdir(parents=True)
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "results" / "bad" / "headline.csv")
    with pytest.raises(ValueError, match="missing columns"):
        chapter.run(tmp_path)


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
    assert widths == [2, 1, 1, 0, 1, 0, 0, 0]  # the last pair: fitted
    fig.savefig(tmp_path / "verdicts.png")
    with pytest.raises(ValueError, match="no headline"):
        chapter.verdict_chart(headlines.iloc[:0])


def _two_papers():
    rows = [{"quantity": "a", "published": 10.0, "ours": 10.5, "tolerance": 1.0, "unit": "%"},
            {"quantity": "b", "published": 10.0, "ours": 7.0, "tolerance": 1.0},
            {"quantity": "c", "published": 1.0, "ours": 0.0, "tolerance": 0.0,
             "unit": "1 = yes"},
            {"quantity": "d", "published": 1.0, "ours": 1.0, "tolerance": 0.0},
            {"quantity": "e", "published": 2.0, "ours": np.nan, "tolerance": 0.5},
            {"quantity": "f", "published": 5.0, "ours": 5.2, "tolerance": 0.1,
             "verdict": "not comparable", "note": "data unknown"}]
    return pd.concat([headline_table(rows, paper="P (2020)", chapter="c1"),
                      headline_table(rows[:2], paper="Q & R", chapter="c2")],
                     ignore_index=True)


def test_standardised_deviation():
    h = _two_papers()
    z = chapter._standardised_deviation(h)
    assert z.iloc[0] == pytest.approx(0.5) and z.iloc[1] == pytest.approx(-3.0)
    assert z.iloc[2] == -np.inf and z.iloc[3] == 0.0 and np.isnan(z.iloc[4])
    assert z.iloc[5] == pytest.approx(2.0)
    # |z| <= 1 exactly where the verdict (not overridden) says reproduced
    judged = h["verdict"] != "not comparable"
    assert ((z.abs() <= 1) == (h["verdict"] == "reproduced"))[judged].all()


def test_tables_per_paper_and_counts():
    h = _two_papers()
    t = chapter.tables(h)
    assert [k for k in t if k.startswith("headlines-")] == ["headlines-p-2020", "headlines-q-r"]
    p, q = t["headlines-p-2020"], t["headlines-q-r"]
    assert list(p["#"]) == [1, 2, 3, 4, 5, 6] and list(q["#"]) == [1, 2]
    assert list(p.columns) == ["#"] + list(h.columns) and list(q["quantity"]) == ["a", "b"]
    assert list(p["verdict"]) == list(h["verdict"].iloc[:6])
    v = t["verdicts"]
    assert list(v.columns) == ["reproduced", "differs", "not comparable", "fitted", "total"]
    assert v.loc["P (2020)"].tolist() == [2, 2, 2, 0, 6]
    assert v.loc["all papers", "total"] == len(h)
    c = t["causes"]
    assert list(c.columns) == ["ours", "protocol or data", "the paper", "unknown", "differs"]
    assert c.loc["all papers", "differs"] == 3 and c.loc["all papers", "unknown"] == 3
    assert chapter.numbers(t) == {"n_numbers": "8", "n_reproduced": "3", "n_differs": "3",
                                  "n_na": "2", "n_fitted": "0", "n_papers": "2",
                                  "n_cause_ours": "0", "n_cause_protocol": "0",
                                  "n_cause_paper": "0", "n_cause_unknown": "3"}
    with pytest.raises(ValueError, match="no letters"):
        chapter._slug("&&")


def test_deviation_plot_one_band_per_paper(tmp_path):
    h = _two_papers()
    fig = chapter.deviation_plot(h)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["P (2020)\n6 numbers, 1 unpaired", "Q & R\n2 numbers"]
    offsets = np.concatenate([c.get_offsets() for c in ax.collections if len(c.get_offsets())])
    assert len(offsets) == 7  # every number with both values, the unpaired one apart
    # each dot in its paper's band; the yes/no that disagrees sits at the left edge
    assert (np.abs(offsets[:, 1] - np.round(offsets[:, 1])) < 0.5).all()
    assert sorted(np.round(offsets[:, 1]).astype(int).tolist()) == [0] * 5 + [1] * 2
    assert offsets[:, 0].min() == ax.get_xlim()[0] and ax.get_xscale() == "symlog"
    assert fig.get_figheight() * 96 < 700  # fits the screen (issue 28)
    fig.savefig(tmp_path / "dev.svg")
    with pytest.raises(ValueError, match="no headline"):
        chapter.deviation_plot(h.iloc[:0])


def test_notes_keep_the_computation_for_the_tooltip():
    h = _two_papers()
    h.loc[0, "note"] = "authors' archive: 3.4; tolerance 1 = 3 x sqrt(SE ours 0.3^2) + rounding"
    notes = chapter.tables(h)["notes-p-2020"]
    assert notes.loc[0, "note"] == "authors' archive: 3.4"
    assert notes.loc[0, "tolerance"] == "tolerance 1 = 3 x sqrt(SE ours 0.3^2) + rounding"
    assert notes.loc[5, "note"] == "data unknown" and len(notes) == 6
