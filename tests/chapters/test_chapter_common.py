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
