"""The reproduction report's headline tables and verdicts."""

import numpy as np
import pandas as pd
import pytest

from credal import report
from credal.experiments import save_table


def test_verdicts_and_collect(tmp_path):
    a = report.headline_table(
        [{"quantity": "mean accuracy", "published": 80.0, "ours": 80.4, "tolerance": 0.5},
         {"quantity": "determinacy", "published": 95.0, "ours": 90.0, "tolerance": 1.0,
          "note": "different folds"},
         {"quantity": "not printed", "published": np.nan, "ours": 3.0, "tolerance": 0.0}],
        paper="P (2020)", chapter="ch1")
    assert list(a.verdict) == ["reproduced", "differs", "not comparable"]
    assert list(a.columns) == report.HEADLINE_COLUMNS + ["verdict"]
    save_table(a, "ch1", "headline", root=tmp_path, index=False)
    b = report.headline_table([{"quantity": "x", "published": 1, "ours": 1, "tolerance": 0}],
                              paper="Q", chapter="ch2")
    save_table(b, "ch2", "headline", root=tmp_path, index=False)
    got = report.collect(tmp_path)
    assert len(got) == 4 and list(got.chapter) == ["ch1"] * 3 + ["ch2"]
    assert list(got.verdict) == ["reproduced", "differs", "not comparable", "reproduced"]
    assert got.note.iloc[1] == "different folds" and got.note.iloc[0] == ""


def test_empty_and_bad_input(tmp_path):
    assert report.collect(tmp_path).empty
    with pytest.raises(ValueError, match="need the keys"):
        report.headline_table([{"quantity": "x", "ours": 1}], paper="P", chapter="c")
    with pytest.raises(ValueError, match=">= 0"):
        report.headline_table([{"quantity": "x", "published": 1, "ours": 1, "tolerance": -1}],
                              paper="P", chapter="c")
    (tmp_path / "results" / "bad").mkdir(parents=True)
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "results" / "bad" / "headline.csv")
    with pytest.raises(ValueError, match="missing columns"):
        report.collect(tmp_path)
