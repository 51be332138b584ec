"""What the chapters share: the verdict rule and declarations (credal.chapters._verdicts) and the
book's display (credal.chapters._display)."""

import numpy as np
import pandas as pd
import pytest

from credal.chapters import _display, _verdicts
from credal.chapters._display import save_table


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
    assert _verdicts.meets_published(p, text) is expected


# --------------------------------------------------------------------------- verdict rule


@pytest.mark.parametrize("printed, scale, expected", [
    ("86.8", 1, 0.05), ("3", 1, 0.5), (".868", 1, 0.0005), ("1.20", 1, 0.005),
    ("-0.4", 1, 0.05), ("12.5%", 1, 0.05), (".868", 100, 0.05), (2, 1, 0.005), (0, 1, 0.5)])
def test_half_unit(printed, scale, expected):
    assert _verdicts.half_unit(printed, scale) == pytest.approx(expected)


@pytest.mark.parametrize("bad, err", [(0.5, TypeError), ("about 3", ValueError),
                                      ("nan", ValueError), (True, TypeError)])
def test_half_unit_rejects(bad, err):
    with pytest.raises(err):
        _verdicts.half_unit(bad)


def test_tolerance_formula_on_random_cases():
    rng = np.random.default_rng(14)
    for _ in range(200):
        se1, se2, spread = rng.uniform(0, 2, 3)
        n1, n2 = rng.integers(1, 500, 2)
        dec, extra = int(rng.integers(0, 4)), float(rng.uniform(0, 1))
        z = float(rng.uniform(1, 4))
        # given standard errors
        t = _verdicts.tolerance(se1, se2, printed=dec, extra=extra, extra_why="x", z=z)
        assert float(t) == pytest.approx(z * np.sqrt(se1**2 + se2**2) + 0.5 * 10.0**-dec + extra)
        # both estimated from our spread and the trial counts
        t = _verdicts.tolerance(spread=spread, n_ours=n1, n_published=n2, rounding=0.1)
        want = 3 * spread * np.sqrt(1 / n1 + 1 / n2) + 0.1
        assert float(t) == pytest.approx(want) and t.published_se_estimated
        # a given published SE wins over the estimate; our SE given wins over n_ours
        t = _verdicts.tolerance(se1, se2, spread=spread, n_ours=n1, n_published=n2)
        assert float(t) == pytest.approx(3 * np.hypot(se1, se2))
        assert not t.published_se_estimated


def test_tolerance_defaults_and_monotone():
    assert float(_verdicts.tolerance()) == 0.0                 # exact, unrounded
    assert float(_verdicts.tolerance(printed="0.74")) == pytest.approx(0.005)
    assert _verdicts.Z_VERDICT == 3.0
    base = float(_verdicts.tolerance(0.1, 0.1))
    assert float(_verdicts.tolerance(0.1, 0.2)) > base
    assert float(_verdicts.tolerance(0.1, 0.1, extra=0.3, extra_why="guessed data")) \
        == pytest.approx(base + 0.3)


@pytest.mark.parametrize("kwargs", [
    {"n_published": 10}, {"n_ours": 10}, {"spread": 1.0, "n_published": 0},
    {"spread": 1.0, "n_published": 2.5}, {"se_ours": -1.0}, {"se_ours": np.nan},
    {"extra": 0.2}, {"printed": "1.0", "rounding": 0.05}, {"extra": -0.1, "extra_why": "x"}])
def test_tolerance_rejects(kwargs):
    with pytest.raises(ValueError):
        _verdicts.tolerance(**kwargs)


def test_tolerance_describe():
    t = _verdicts.tolerance(0.3, spread=2.0, n_published=100, printed="86.8", extra=1.3,
                          extra_why="6 of 9 data sets guessed")
    text = t.describe()
    assert "(est.)" in text and "6 of 9 data sets guessed" in text
    assert text.startswith(f"tolerance {float(t):.3g} = 3 x")
    assert _verdicts.tolerance(printed="0.98").describe() == "tolerance 0.005 = rounding 0.005"
    assert _verdicts.tolerance().describe() == "tolerance 0 = rounding 0"
    assert "rounding" not in _verdicts.tolerance(0.1).describe()


def _rows():
    return [
        {"quantity": "a", "published": 1.0, "ours": 1.2, "tolerance": 0.3},
        {"quantity": "b", "published": 1.0, "ours": 2.0, "tolerance": 0.3},
        {"quantity": "c", "published": np.nan, "ours": 2.0, "tolerance": 0.3},
        {"quantity": "d", "published": 1.0, "ours": 1.0, "tolerance": 0.0,
         "verdict": "not comparable", "note": "data version unknown"},
        {"quantity": "e", "published": 10.0, "ours": 10.5,
         "tolerance": _verdicts.tolerance(0.1, 0.1, printed="10.0"), "note": "mean"},
    ]


def test_headline_table_verdicts_and_override():
    df = _verdicts.headline_table(_rows(), paper="P", chapter="c")
    assert list(df.columns) == _verdicts.HEADLINE_COLUMNS + ["verdict"]
    assert df["verdict"].tolist() == ["reproduced", "differs", "not comparable",
                                      "not comparable", "differs"]
    e = df.set_index("quantity").loc["e"]
    assert e["tolerance"] == pytest.approx(3 * np.hypot(0.1, 0.1) + 0.05)
    assert e["note"].startswith("mean; tolerance ")
    # recomputing keeps the override only
    stale = df.assign(verdict=["differs", "reproduced", "reproduced", "not comparable",
                               "reproduced"])
    assert _verdicts.verdicts(stale).tolist() == df["verdict"].tolist()


def test_headline_table_override_survives_the_report(tmp_path):
    from credal.chapters import reproduction_report
    df = _verdicts.headline_table(_rows(), paper="P", chapter="c")
    _display.save_table(df, "c", "headline", root=tmp_path, index=False)
    got = reproduction_report.run(tmp_path)
    assert got["verdict"].tolist() == df["verdict"].tolist()
    assert list(got.columns) == _verdicts.HEADLINE_COLUMNS + ["verdict"]


@pytest.mark.parametrize("row", [
    {"quantity": "x", "published": 1.0, "ours": 5.0, "tolerance": 0.1, "verdict": "reproduced"},
    {"quantity": "x", "published": 1.0, "ours": 1.0, "tolerance": 0.1,
     "verdict": "not comparable"},
    {"quantity": "x", "published": 1.0, "ours": 1.0, "tolerance": -0.1}])
def test_headline_table_rejects(row):
    with pytest.raises(ValueError):
        _verdicts.headline_table([row], paper="P", chapter="c")


# --------------------------------------------------------------------------- the book's display

THIN, DASH, MINUS = _display.THIN_SPACE, _display.MISSING, _display.MINUS


@pytest.mark.parametrize("x, decimals, expected", [
    (1182103.0, 0, f"1{THIN}182{THIN}103"), (1234.0, 0, "1234"), (12345.678, 1, f"12{THIN}345.7"),
    (-0.0001, 2, "0.00"), (-0.0, 1, "0.0"), (-1.25, 1, f"{MINUS}1.2"), (np.nan, 3, DASH),
    (None, 0, DASH), (0.2117763992, 3, "0.212"), (float("inf"), 0, "\u221e")])
def test_format_number(x, decimals, expected):
    assert _display.format_number(x, decimals) == expected


@pytest.mark.parametrize("values, expected", [
    ([1182103.0, 12.0, np.nan], 0), ([86.81, 91.2], 1), ([0.81, 0.92], 3),
    ([0.0012, 0.0031], 4), ([], 0), ([np.nan], 0), (["a", 0.5], 3), ([0.0, 0.0], 0)])
def test_column_decimals(values, expected):
    assert _display.column_decimals(values) == expected


@pytest.mark.parametrize("p, cell, prose", [
    (0.51, "0.51", "p = 0.51"), (0.046, "0.046", "p = 0.046"), (0.00012, "0.00012", "p = 0.00012"),
    (3e-9, "< 0.0001", "p < 0.0001"), (0.0, "< 0.0001", "p < 0.0001"), (1.0, "1.00", "p = 1.00"),
    (np.nan, DASH, f"p = {DASH}")])
def test_format_p_and_p_text(p, cell, prose):
    assert _display.format_p(p) == cell
    assert _display.p_text(p) == prose
    assert "= <" not in _display.p_text(p)


def test_format_p_rejects_impossible_values():
    with pytest.raises(ValueError, match="p-value"):
        _display.format_p(1.5)


def test_format_table_printing_rules():
    df = pd.DataFrame({"data set": ["a" * 80, "b"], "n": [1182103.0, 12.0],
                       "acc": [0.2117763992, np.nan], "diff": [-0.00001, 0.5],
                       "p-value": [1e-6, 0.046], "ok": [True, False]})
    cells = _display.format_table(df)
    assert list(cells.columns) == list(df.columns)  # no index column
    assert cells.to_dict("list") == {
        "data set": ["a" * 80, "b"],  # never truncated
        "n": [f"1{THIN}182{THIN}103", "12"], "acc": ["0.212", DASH],
        "diff": ["0.000", "0.500"], "p-value": ["< 0.0001", "0.046"], "ok": ["yes", "no"]}
    text = "".join(cells.to_numpy().ravel())
    assert "nan" not in text.lower() and "-0" not in text and "\u2026" not in text


def test_format_table_index_and_formats():
    df = pd.DataFrame({"x": [0.5, 0.25]}, index=pd.Index(["u", "v"], name="name"))
    cells = _display.format_table(df, formats={"x": 1})
    assert cells.to_dict("list") == {"name": ["u", "v"], "x": ["0.5", "0.2"]}
    assert list(_display.format_table(df, index=False).columns) == ["x"]
    assert _display.format_table(df, formats={"x": ".0%"})["x"].tolist() == ["50%", "25%"]
    assert _display.format_table(df, formats={"x": lambda v: f"<{v}>"})["x"].tolist() == \
        ["<0.5>", "<0.25>"]
    with pytest.raises(KeyError, match="nope"):
        _display.format_table(df, formats={"nope": 1})
    multi = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")]))
    assert list(_display.format_table(multi).columns) == ["a x", "a y"]


def test_show_table_writes_csv_and_book_copy_and_links_it(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(_display, "_display", shown.append)
    df = pd.DataFrame({"data set": ["x", "y"], "acc": [0.91234, np.nan],
                       "verdict": ["reproduced", "differs"]})
    path = _display.show_table(df, "nb", "t1", caption="Table 1. Accuracy.", root=tmp_path)
    assert path == tmp_path / "results" / "nb" / "t1.csv"
    copy = tmp_path / "book" / "generated" / "_extra" / "tables" / "nb" / "t1.csv"
    assert copy.read_bytes() == path.read_bytes()
    back = pd.read_csv(path)
    assert list(back.columns) == ["data set", "acc", "verdict"]  # default index not written
    assert back["acc"].iloc[0] == 0.91234  # the CSV keeps full precision
    (html,) = [s._repr_html_() for s in shown]
    assert 'href="../tables/nb/t1.csv"' in html and "Table 1. Accuracy." in html
    assert "credal-v-reproduced" in html and "credal-v-differs" in html
    assert ">0.912<" in html and f">{DASH}<" in html and "<details" not in html


def test_show_table_collapses_long_tables_and_saves_csv_argument(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(_display, "_display", shown.append)
    long = pd.DataFrame({"i": range(40)})
    full = long.assign(extra=1.5)
    _display.show_table(long, "nb", "long", csv=full, root=tmp_path)
    assert "<details" in shown[-1]._repr_html_() and "40 rows" in shown[-1]._repr_html_()
    assert list(pd.read_csv(tmp_path / "results/nb/long.csv").columns) == ["i", "extra"]
    _display.show_table(long, "nb", "long", collapse=False, root=tmp_path)
    assert "<details" not in shown[-1]._repr_html_()
    _display.show_table(long.head(3), "nb", "short", collapse=True, root=tmp_path)
    assert "<details" in shown[-1]._repr_html_()
    with pytest.raises(TypeError, match="DataFrame"):
        _display.show_table(long["i"], "nb", "s", root=tmp_path)


def test_show_table_escapes_html(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(_display, "_display", shown.append)
    _display.show_table(pd.DataFrame({"a<b": ["<script>"]}), "nb", "esc", root=tmp_path)
    html = shown[-1]._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html and "a&lt;b" in html


def test_comparison_layout_rounds_per_row_and_orders_columns():
    df = pd.DataFrame({"quantity": ["accuracy (%)", "count", "fraction"],
                       "published": [86.8, 1200.0, 0.8123], "ours": [86.8312, 1187.0, -0.00001],
                       "tolerance": [1.234, 20.0, 0.0004], "unit": ["%", "", ""],
                       "note": ["long note " * 10, "", "x"], "paper": ["P"] * 3})
    out = _display.comparison_layout(df, label="quantity", unit="unit")
    assert list(out.columns) == ["quantity", "published", "ours", "tolerance", "unit",
                                 "verdict", "note"]
    assert out["published"].tolist() == ["86.8", "1200", "0.812"]
    assert out["ours"].tolist() == ["86.8", "1187", "0.000"]
    assert out["tolerance"].tolist() == ["1.2", "20", "0.0004"]
    assert out["verdict"].tolist() == list(_verdicts.verdicts(df))
    assert out["note"][0] == "long note " * 10


def test_comparison_layout_keeps_text_cells_and_given_verdicts():
    df = pd.DataFrame({"data set": ["a", "b"], "published": ["86.8 ± 0.3", np.nan],
                       "ours": [0.5, 0.7], "verdict": ["not comparable", "differs"]})
    out = _display.comparison_layout(df, label="data set", tolerance=None)
    assert out["published"].tolist() == ["86.8 ± 0.3", DASH]
    assert out["verdict"].tolist() == ["not comparable", "differs"]
    with pytest.raises(KeyError, match="no column"):
        _display.comparison_layout(df, label="nope", tolerance=None)
    with pytest.raises(KeyError, match="verdict"):
        _display.comparison_layout(df.drop(columns="verdict"), label="data set", tolerance=None)


def test_comparison_table_saves_the_full_frame(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(_display, "_display", shown.append)
    rows = [{"quantity": "q", "published": 1.0, "ours": 1.01, "tolerance": 0.05, "note": "n"}]
    head = _verdicts.headline_table(rows, "P (2001)", "nb")
    layout = _display.comparison_table(head, "nb", "headline", label="quantity",
                                      caption="Table 2.", root=tmp_path)
    assert len(layout.columns) <= 7
    saved = pd.read_csv(tmp_path / "results/nb/headline.csv")
    assert list(saved.columns) == list(head.columns)
    html = shown[-1]._repr_html_()
    assert "credal-v-reproduced" in html and 'class="credal-text">n<' in html


def test_verdict_counts_and_durations():
    v = pd.DataFrame({"verdict": ["reproduced", "differs", "reproduced", "not comparable"]})
    assert _verdicts.verdict_counts(v) == {"reproduced": 2, "differs": 1, "not comparable": 1,
                                           "fitted": 0}
    with pytest.raises(ValueError, match="unknown verdicts"):
        _verdicts.verdict_counts(["reproduced", "maybe"])
    assert [_display.format_duration(s) for s in (41.4, 185, 3725)] == \
        ["41 s", "3 min 05 s", "1 h 02 min"]


def test_book_style_sets_svg_and_legible_text():
    import matplotlib as mpl
    pytest.importorskip("matplotlib_inline")
    from matplotlib_inline import backend_inline
    with mpl.rc_context():
        _display.book_style()
        assert mpl.rcParams["figure.figsize"][0] == _display.TEXT_WIDTH
        sizes = [mpl.rcParams[k] for k in ("font.size", "xtick.labelsize", "ytick.labelsize",
                                           "legend.fontsize", "axes.labelsize")]
        assert all(float(s) >= 9 for s in sizes)
        assert backend_inline.InlineBackend.instance().figure_formats == {"svg"}


# book/execute.py's side of the display: the run time, the parameter cells, the TCP warning

def _execute_module():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "book" / "execute.py"
    spec = importlib.util.spec_from_file_location("execute_for_tests", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_execute_fills_the_run_time_of_the_claim_box(tmp_path):
    import nbformat
    # the claim box's run-time span as credal.chapters._claims writes it before the run ends
    box = (f'<div class="credal-claims">run time <span class="{_display.RUNTIME_CLASS}">'
           "not measured yet</span></div>")
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("claim_box(...)")
    glued = "application/papermill.record/text/html"  # the box glued, pasted at the top
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": box,
                                                                "text/plain": "box"}),
                    nbformat.v4.new_output("display_data", data={glued: box})]
    nb.cells = [cell]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    assert _execute_module()._fill_run_time(path, 125.4) == 2
    outputs = nbformat.read(path, 4).cells[0].outputs
    for html in (outputs[0]["data"]["text/html"], outputs[1]["data"][glued]):
        assert f'<span class="{_display.RUNTIME_CLASS}">2 min 05 s (this build)</span>' in html
        assert "not measured" not in html


def test_execute_shows_the_documented_parameters_folded(tmp_path):
    import nbformat
    mod = _execute_module()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("# n: rows (documented)\nn = 10"),
                nbformat.v4.new_code_cell("# Parameters\nn = 3")]
    nb.cells[0].metadata["tags"] = ["parameters"]
    nb.cells[1].metadata["tags"] = ["injected-parameters"]
    path = tmp_path / "p.ipynb"
    nbformat.write(nb, path)
    mod._show_effective_parameters(path, "smoke")
    mod._show_effective_parameters(path, "smoke")  # idempotent
    cells = nbformat.read(path, 4).cells
    assert cells[0].metadata["tags"] == ["parameters", "hide-input"]
    assert cells[0].source == f"{mod.DEFAULTS_LABEL}\n# n: rows (documented)\nn = 10"
    assert cells[1].source == "# Parameters of this run (profile: smoke)\nn = 3"


def test_execute_prints_the_tcp_warning_once(capsys):
    mod = _execute_module()
    f = mod._StderrFilter()
    line = f"[IPKernelApp] WARNING | {mod.TCP_WARNING}. All communication ...\n"
    for text in (line, "a real error\n", line, line):
        f(text)
    err = capsys.readouterr().err
    assert err.count(mod.TCP_WARNING) == 1 and "a real error" in err


@pytest.mark.parametrize("cell, numeric", [
    ("86.5 / 86.6", True), ("1.2 ± 0.3", True), ("< 0.0001", True), (DASH, True),
    (f"1{THIN}182", True), ("12%", True), ("NCC_0.25", False), ("a / b", False),
    ("reproduced", False)])
def test_numeric_cells_do_not_wrap(cell, numeric):
    html = _display.table_html(pd.DataFrame({"c": [cell]}))
    assert ('class="credal-num"' in html) is numeric


def test_long_tokens_get_break_opportunities_short_ones_do_not():
    html = _display.table_html(pd.DataFrame({"file": ["data/raw/uci/breast-cancer-wisconsin.data",
                                                     "NCC_0.25"]}))
    assert "data/<wbr>raw/<wbr>uci/<wbr>breast-<wbr>cancer-<wbr>wisconsin.<wbr>data" in html
    assert ">NCC_0.25<" in html


# --------------------------------------------------------------------------- declarations

_SGL = _verdicts.Published("antonucci_headline_numbers",
                           {"quantity": "average single-accuracy (Sgl-acc)",
                            "classifier": "NCC_0.05"})


def test_published_reads_the_value_and_its_printed_digits():
    assert _SGL.value() == pytest.approx(84.2)
    assert _SGL.printed() == "84.2"
    scaled = _verdicts.Published(_SGL.table, _SGL.where, scale=0.01)
    assert scaled.value() == pytest.approx(0.842)
    both = _verdicts.Published("antonucci_headline_numbers",
                               {"quantity": "average single-accuracy (Sgl-acc)"}, reduce="mean")
    assert both.value() == pytest.approx(_verdicts.published_text(
        "antonucci_headline_numbers").query("quantity == 'average single-accuracy (Sgl-acc)'")
        ["value"].astype(float).mean())


@pytest.mark.parametrize("where, reduce, match", [
    ({"quantity": "no such quantity"}, None, "no row"),
    ({"quantity": "average single-accuracy (Sgl-acc)"}, None, "2 rows"),
    ({"nope": 1}, None, "no column 'nope'"),
])
def test_published_refuses_what_it_cannot_find(where, reduce, match):
    with pytest.raises(KeyError, match=match):
        _verdicts.Published("antonucci_headline_numbers", where, reduce=reduce).value()


def _tables():
    return {"avg": pd.DataFrame({"classifier": ["NCC_0.05", "LNCC_0.75"], "sgl": [84.0, 85.0],
                                 "se": [0.1, 0.2]}).set_index("classifier")}


def test_headlines_judge_one_declaration_per_number():
    rows = (
        _verdicts.Headline("Sgl-acc of NCC", _SGL, _verdicts.Cell("avg", {"classifier": "NCC_0.05"},
                                                                   "sgl", se="se"),
                           unit="percent", note="mean over data sets", differs_why="ours"),
        _verdicts.Headline("Sgl-acc of NCC, far", _SGL,
                           lambda t: _verdicts.Reading(80.0, se=0.1, note="a reading's note"),
                           unit="percent", differs_why=""),
        _verdicts.Headline("left out", _SGL, lambda t: None),
        _verdicts.Headline("no number", None, lambda t: 1.0,
                           not_comparable="the paper prints no number"),
    )
    h = _verdicts.Headlines("P (2011)", "nb", rows)
    h.check()
    df = h.judge(_tables())
    assert list(df.columns) == _verdicts.HEADLINE_COLUMNS + ["verdict"]
    assert df["quantity"].tolist() == ["Sgl-acc of NCC", "Sgl-acc of NCC, far", "no number"]
    assert df["verdict"].tolist() == ["reproduced", "differs", "not comparable"]
    tol = 3 * 0.1 + 0.05  # 3 x SE ours + half a unit of the printed "84.2"
    assert df["tolerance"].iloc[0] == pytest.approx(tol)
    assert df["note"].iloc[0] == f"mean over data sets; tolerance {tol:.3g} = 3 x sqrt(SE ours " \
                                 "0.1^2 + SE published 0^2) + rounding 0.05"
    assert df["note"].iloc[1].startswith("a reading's note; differs by -4.2; tolerance")
    assert "the paper prints no number" in df["note"].iloc[2]
    only = h.judge(_tables(), only=lambda d: d.quantity.endswith("far"))
    assert only["quantity"].tolist() == ["Sgl-acc of NCC, far"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(published=None), "no published value and no reason"),
    (dict(extra=1.0), "needs its reason"),
    (dict(ours=3.0), "Cell or a callable"),
    (dict(published=_verdicts.Published("antonucci_headline_numbers", {"quantity": "x"})), "no row"),
])
def test_headline_check_refuses_incomplete_declarations(kwargs, match):
    base = dict(quantity="q", published=_SGL, ours=lambda t: 1.0)
    with pytest.raises((ValueError, KeyError), match=match):
        _verdicts.Headline(**{**base, **kwargs}).check()
    with pytest.raises(ValueError, match="declared twice"):
        _verdicts.Headlines("P", "nb", (_verdicts.Headline(**base),) * 2).check()


# --------------------------------------------------------------------------- the rule's refusals

_BASE = dict(quantity="q", published=_SGL, ours=lambda t: _verdicts.Reading(84.0, se=0.1))


def _judge(**kwargs):
    return _verdicts.Headlines("P", "nb", (_verdicts.Headline(**{**_BASE, **kwargs}),)).judge({})


def test_an_asserted_extra_term_is_refused():
    with pytest.raises(ValueError, match="measured and shown"):
        _verdicts.Headline(**_BASE, extra=1.5, extra_why="read off a figure").check()
    ok = _verdicts.Headline(**_BASE, extra=1.5, extra_why="read off a figure",
                            extra_evidence="one pixel of Fig. 3 is 1.5 points of its y axis")
    ok.check()


def test_a_count_is_compared_as_a_count_not_by_widening_the_tolerance():
    seven = dict(kind="count", ours=lambda t: _verdicts.Reading(2, n_ours=17), n_published=17,
                 published=_verdicts.Published("antonucci_headline_numbers",
                                               {"quantity": "average single-accuracy (Sgl-acc)",
                                                "classifier": "NCC_0.05"}, scale=15 / 84.2))
    row = _judge(**seven)
    assert row["published"].iloc[0] == pytest.approx(15)
    assert row["verdict"].iloc[0] == "differs"          # 2 of 17 against 15 of 17
    assert "Fisher's exact" in row["note"].iloc[0]
    p, (low, high), _ = _verdicts.count_test(2, 17, 15, 17)
    assert p < _verdicts.ALPHA_VERDICT and low > 2
    # the old rule (the count added to the tolerance) would have passed any count from 2 up
    close = _judge(**{**seven, "ours": lambda t: _verdicts.Reading(14, n_ours=17)})
    assert close["verdict"].iloc[0] == "reproduced"
    with pytest.raises(ValueError, match="compared as a count"):
        _verdicts.Headline(**{**_BASE, **seven, "extra": 5.0, "extra_why": "x",
                              "extra_evidence": "y"}).check()


def test_count_test_acceptance_matches_its_p_values():
    for k_pub, n in [(15, 17), (5, 20), (0, 10), (10, 10)]:
        p, (low, high), _ = _verdicts.count_test(k_pub, n, k_pub, n)
        assert p == pytest.approx(1.0) and low <= k_pub <= high
        for k in range(n + 1):
            inside = _verdicts.count_test(k, n, k_pub, n)[0] >= _verdicts.ALPHA_VERDICT
            assert inside == (low <= k <= high)
    p, (low, high), test = _verdicts.count_test(5, None, 13, None)
    assert test == "Poisson" and low <= 13 <= high


def test_a_tolerance_covering_every_value_has_no_power():
    wide = _judge(ours=lambda t: _verdicts.Reading(50.0, se=30.0), bounds=(0, 100))
    assert wide["verdict"].iloc[0] == "not comparable"
    assert "no power" in wide["note"].iloc[0]
    narrow = _judge(bounds=(0, 100))
    assert narrow["verdict"].iloc[0] == "reproduced"
    tiny = _judge(kind="count", n_published=3, ours=lambda t: _verdicts.Reading(1, n_ours=3),
                  published=_verdicts.Published(_SGL.table, _SGL.where, scale=1 / 84.2))
    assert tiny["verdict"].iloc[0] == "not comparable"     # 3 trials: every count passes


def test_a_number_fitted_to_the_table_cannot_reproduce_it():
    row = _judge(fitted="the prior odds 5:1 were chosen to match this table")
    assert row["verdict"].iloc[0] == "fitted"
    assert _verdicts.verdicts(row).iloc[0] == "fitted"    # survives recomputation


@pytest.mark.parametrize("reason", ["noise: SE about 5", "the gap suggests another data version",
                                    "our data set differs"])
def test_overrides_only_for_the_three_reasons(reason):
    with pytest.raises(ValueError, match="'not comparable' only when"):
        _verdicts.Headline(**_BASE, not_comparable=reason).check()
    for allowed in _verdicts.NOT_COMPARABLE_REASONS:
        _verdicts.Headline(**_BASE, not_comparable=f"{allowed}: evidence").check()


def test_every_difference_carries_a_cause():
    far = dict(ours=lambda t: _verdicts.Reading(80.0, se=0.1))
    assert _judge(**far)["cause"].iloc[0] == "unknown"
    cause = "ours: the SPODE weights differ from the authors' archive (Table 7)"
    assert _judge(**far, cause=cause)["cause"].iloc[0] == cause
    assert _judge(cause=cause)["cause"].iloc[0] == ""      # reproduced: no cause to give
    with pytest.raises(ValueError, match="cause of a difference"):
        _verdicts.Headline(**_BASE, cause="noise").check()


def test_declaration_options_for_notes_lists_and_empty_runs():
    base = dict(quantity="q", published=_SGL, ours=lambda t: _verdicts.Reading(84.0, se=0.1))
    judged = _verdicts.Headlines("P", "nb", (_verdicts.Headline(**base, describe=False),)).judge({})
    assert judged["note"].iloc[0] == "" and judged["tolerance"].iloc[0] == pytest.approx(0.35)
    given = _verdicts.Headline(**{**base, "ours": lambda t: _verdicts.Reading(
        84.0, tolerance=0.5, note="3 SD of a mean of single-split results")})
    row = _verdicts.Headlines("P", "nb", (given,)).judge({})
    assert row["tolerance"].iloc[0] == 0.5
    assert row["note"].iloc[0] == "3 SD of a mean of single-split results"
    both = _verdicts.Published("antonucci_headline_numbers",
                               {"quantity": "average single-accuracy (Sgl-acc)",
                                "classifier": ["NCC_0.05", "LNCC_0.75"]}, reduce="mean")
    assert both.value() == pytest.approx((84.2 + 85.5) / 2)
    empty = _verdicts.Headlines("P", "nb", (_verdicts.Headline(**{**base, "ours": lambda t: None}),))
    assert list(empty.judge({}).columns) == _verdicts.HEADLINE_COLUMNS + ["verdict"]
    assert empty.judge({}).empty


def test_count_test_ends_equal_a_scan_of_every_count():
    """The bisection for the accepted ends gives what testing every count gives."""
    from scipy import stats
    rng = np.random.default_rng(3)
    for _ in range(120):
        n1, n2 = (int(x) for x in rng.integers(1, 60, 2))
        k2 = int(rng.integers(0, n2 + 1))
        ok = [k for k in range(n1 + 1) if stats.fisher_exact(
            [[k, n1 - k], [k2, n2 - k2]])[1] >= _verdicts.ALPHA_VERDICT]
        got = _verdicts.count_test(0, n1, k2, n2)[1]
        assert got == ((float(min(ok)), float(max(ok))) if ok else got), (n1, k2, n2)
        assert ok == list(range(min(ok), max(ok) + 1))  # an interval
