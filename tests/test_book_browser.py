"""The built book in headless Chromium: every page of the TOC loads, offline, with its
figures and typeset math (issue 8).  The checks live in ``book/check_browser.py``.

The browser tests skip, saying why, when there is no built book
(``book/_build/html/index.html``; build it with ``make book PROFILE=smoke``), no
``playwright`` package or no Chromium (``apt-get install -y chromium``).  With
``CREDAL_BROWSER_TEST=require`` those conditions fail instead, as CI wants.
``CREDAL_BOOK_HTML`` points the test at another build directory; the full-page
screenshots go to ``screenshots/`` beside it (``book/_build/screenshots/`` by default).
``CREDAL_LAYOUT=warn`` turns the layout checks (tables wider than the text column,
figures shrunk below 55 %) into warnings while chapters are being converted.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_browser", ROOT / "book" / "check_browser.py")
check_browser = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("check_browser", check_browser)  # its dataclass looks itself up there
_spec.loader.exec_module(check_browser)

HTML = Path(os.environ.get("CREDAL_BOOK_HTML") or ROOT / "book" / "_build" / "html")
SCREENSHOTS = HTML.parent / "screenshots"
REQUIRED = os.environ.get("CREDAL_BROWSER_TEST", "").lower() == "require"
PAGES = check_browser.toc_pages()


def test_help_prints(capsys):
    """``--help`` prints the options (a "%" in a help text once broke argparse's formatting)."""
    with pytest.raises(SystemExit) as exit_:
        check_browser.main(["--help"])
    assert exit_.value.code == 0 and "--layout" in capsys.readouterr().out


def _unavailable():
    """Why the browser check cannot run here, or None."""
    if not (HTML / "index.html").is_file():
        return f"no built book at {HTML} (make book PROFILE=smoke)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if check_browser.find_chromium() is None:
        return "no Chromium binary (apt-get install -y chromium, or set CREDAL_CHROMIUM)"
    return None


@pytest.fixture(scope="module")
def reports():
    reason = _unavailable()
    if reason:
        if REQUIRED:
            pytest.fail(f"CREDAL_BROWSER_TEST=require but {reason}")
        pytest.skip(reason)
    # One browser for all pages; each page gets its own tab.
    result = check_browser.check_book(HTML, PAGES, screenshots=SCREENSHOTS)
    for rep in result:
        print(rep.summary())
    return {rep.page: rep for rep in result}


@pytest.mark.parametrize("page", PAGES)
def test_page_in_browser(reports, page):
    rep = reports[page]
    if rep.problems:  # one line per problem, naming the page, without a traceback
        pytest.fail("\n".join([rep.summary(), *rep.problems]), pytrace=False)


def test_browser_check_saw_the_content(reports):
    """Guard against a check that passes because it looked at nothing."""
    chapters = [r for r in reports.values() if r.page.startswith("generated/")]
    assert len(reports) == len(PAGES) and chapters
    assert [r.page for r in reports.values() if r.requests == 0] == []
    with_math = [r for r in chapters if r.expects_math]
    with_figures = [r for r in chapters if r.expects_figures]
    assert with_math, "no chapter source was recognised as containing math"
    assert with_figures, "no chapter notebook was recognised as drawing figures"
    assert [r.page for r in with_math if r.math_typeset == 0] == []
    assert [r.page for r in with_figures if r.images_loaded == 0] == []
    shot = "{}." + check_browser.SCREENSHOT["type"]
    assert [r.page for r in reports.values() if not (SCREENSHOTS / shot.format(r.page)).is_file()] == []


# The page classification below needs no browser.

def _myst(tmp_path, body):
    path = tmp_path / "page.md"
    path.write_text("---\njupytext:\n  text_representation:\n    format_name: myst\n"
                    "kernelspec:\n  name: python3\n  display_name: Python 3\n---\n\n" + body)
    return path


@pytest.mark.parametrize("body, has_math", [
    ("The width is $s/(n+s)$ here.\n", True),
    ("Display:\n\n$$\nx^2\n$$\n", True),
    ("Inline {math}`x_1` role.\n", True),
    ("```{math}\nx = 1\n```\n", True),
    ("No math at all.\n", False),
    ("A price of $ 5 and $ 6 is not math.\n", False),
    ("Inline code `echo $HOME $PATH` is not math.\n", False),
    ("```bash\necho $HOME and $PATH\n```\n", False),
    ("```{code-cell} ipython3\nx = f'${a}$'\n```\n", False),
])
def test_source_has_math(tmp_path, body, has_math):
    assert check_browser.source_has_math(_myst(tmp_path, body)) is has_math


def test_figure_cells_counts_plotting_and_captioned_cells(tmp_path):
    body = ("```{code-cell} ipython3\nx = 1\n```\n\n"
            "```{code-cell} ipython3\nfig = plotting.dataset_map(x)\n```\n\n"
            "```{code-cell} ipython3\n---\nmystnb:\n  figure:\n    caption: A figure.\n"
            "    name: fig-a\n---\nfig = make(x)\n```\n\n"
            "Prose that mentions plotting.dataset_map(x) draws nothing.\n")
    assert check_browser.figure_cells(_myst(tmp_path, body)) == (2, 1)


def test_toc_pages_start_at_the_root_and_map_to_sources():
    assert PAGES[0] == "index" and len(PAGES) == len(set(PAGES))
    assert "generated/introduction" in PAGES and "api/index" in PAGES
    assert all(check_browser.source_of(p).is_file() for p in PAGES)


@pytest.mark.parametrize("url, local", [
    ("http://127.0.0.1:8000/index.html", True),
    ("http://localhost:1/_static/x.js", True),
    ("data:image/png;base64,AAAA", True),
    ("blob:http://127.0.0.1:8000/1234", True),
    ("https://example.org/x.png", False),
    ("https://unpkg.com/thebe@0.8.2/lib/index.js", False),
    ("http://127.0.0.1.example.org/x", False),
])
def test_only_loopback_counts_as_local(url, local):
    assert check_browser._is_local(url) is local


# The layout checks (issue 17 item 9) and the CSV links, each shown to fail on a bad page.

def _no_browser():
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if check_browser.find_chromium() is None:
        return "no Chromium binary (apt-get install -y chromium, or set CREDAL_CHROMIUM)"
    return None


def _page(body):
    # the article is 700 px wide (content box: 636 px), as the book's is about 690 px
    return ("<!doctype html><html><head><meta charset='utf-8'><title>t</title></head><body>"
            "<main><article class='bd-article' style='width:700px;padding:0 32px;"
            "box-sizing:border-box'><h1>A page</h1>" + body + "</article></main></body></html>")


SVG = ("<svg xmlns='http://www.w3.org/2000/svg' width='600pt' height='300pt' "
       "viewBox='0 0 600 300'><rect width='600' height='300' fill='#38c'/></svg>")


def _svg(draw, size=(6.8, 3.0)) -> str:
    """A matplotlib figure as the book writes it (SVG, text as paths)."""
    import io

    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "path"}):
        fig = Figure(figsize=size)
        draw(fig.add_subplot())
        buf = io.StringIO()
        fig.savefig(buf, format="svg")
    return buf.getvalue()


def _lines(n, title=None, frame=True):
    def draw(ax):
        for i in range(n):
            ax.plot([0, 1], [i, i + 1], label=f"line {i}")
        ax.legend(title=title, frameon=frame, ncols=2, fontsize=7)
    return draw


def _crowded(ax):
    ax.set_xticks(range(30), [f"data set {i}" for i in range(30)])  # tick labels collide


def _rotated(ax):
    # at 45 degrees these labels clear each other, though their upright boxes overlap
    ax.set_xticks(range(20), [f"label {i}" for i in range(20)], rotation=45, ha="right")


FIGURE_SVGS = {"fig_ok.svg": (_lines(8, title="eight lines"), (6.8, 3.0)),
               "fig_unframed.svg": (_lines(8, frame=False), (6.8, 3.0)),
               "fig_rotated.svg": (_rotated, (6.8, 3.0)),
               "fig_tall.svg": (_lines(2), (4.0, 8.0)),
               "fig_legend.svg": (_lines(9, title="nine lines"), (6.8, 3.0)),
               "fig_crowded.svg": (_crowded, (6.8, 3.0))}


def _figure(src, caption="A figure."):
    return (f"<figure><img src='{src}' style='max-width:100%;height:auto'><figcaption>"
            f"<p><span class='caption-number'>Fig. 1 </span><span class='caption-text'>"
            f"{caption}</span></p></figcaption></figure>")


@pytest.fixture(scope="module")
def bad_pages(tmp_path_factory):
    reason = _no_browser()
    if reason:
        if REQUIRED:
            pytest.fail(f"CREDAL_BROWSER_TEST=require but {reason}")
        pytest.skip(reason)
    html = tmp_path_factory.mktemp("html")
    (html / "fig.svg").write_text(SVG)  # natural width 800 px (600 pt)
    (html / "t.csv").write_text("a,b\n1,2\n")
    wide_row = "".join(f"<td>{1000000 + i}</td>" for i in range(40))
    pages = {
        "good": "<table><tr><td>1</td><td>2</td></tr></table>"
                "<img src='fig.svg' style='max-width:100%'>"
                "<p><a class='credal-csv' href='t.csv'>CSV</a></p>",
        "wide": f"<div style='overflow-x:auto'><table><tr>{wide_row}</tr></table></div>",
        "folded_wide": f"<details><summary>s</summary><table><tr>{wide_row}</tr></table></details>",
        "shrunk": "<img src='fig.svg' style='width:300px'>",
        "badcsv": "<p><a class='credal-csv' href='missing.csv'>CSV</a></p>",
        "good_figures": _figure("fig_ok.svg", "x" * 300) + _figure("fig_unframed.svg")
                        + _figure("fig_rotated.svg")
                        + "<pre style='width:300px;overflow:auto'>short = 1</pre>",
        "tall": _figure("fig_tall.svg"),
        "legend": _figure("fig_legend.svg"),
        "crowded": _figure("fig_crowded.svg"),
        "caption": _figure("fig_ok.svg", "x" * 301),
        "code": "<div class='cell_input'><pre style='width:300px;overflow:auto'>"
                + "result = compute(" + ", ".join(f"arg{i}" for i in range(30)) + ")</pre></div>",
    }
    for name, (draw, size) in FIGURE_SVGS.items():
        (html / name).write_text(_svg(draw, size))
    for name, body in pages.items():
        (html / f"{name}.html").write_text(_page(body))
    fail = {r.page: r for r in check_browser.check_book(html, list(pages), layout="fail")}
    warn = {r.page: r for r in check_browser.check_book(html, ["wide", "shrunk"], layout="warn")}
    return fail, warn


def test_layout_checks_pass_a_good_page(bad_pages):
    good = bad_pages[0]["good"]
    assert good.problems == [] and good.warnings == []
    assert good.tables == 1 and good.csv_links == 1 and good.images_loaded == 1
    assert good.column_width == 636


@pytest.mark.parametrize("page, message", [
    ("wide", "table 1 is "), ("folded_wide", "table 1 is "),
    ("shrunk", "image fig.svg shown at 300 px, 38% of its natural 800 px"),
    ("badcsv", "CSV link missing.csv does not resolve (HTTP 404)")])
def test_each_check_fails_on_a_bad_page(bad_pages, page, message):
    rep = bad_pages[0][page]
    assert any(message in p for p in rep.problems), rep.problems
    if page != "badcsv":  # the layout checks: the message names the column width
        assert rep.layout and all("636 px" in m or "natural" in m for m in rep.layout)


def test_figure_checks_pass_good_figures(bad_pages):
    """Eight legend entries (a title apart, framed or not), a 300-character caption,
    rotated labels that clear each other and a code block that fits all pass."""
    good = bad_pages[0]["good_figures"]
    assert good.problems == [] and good.images_loaded == 3


@pytest.mark.parametrize("page, message", [
    ("tall", "figure fig_tall.svg is 768 px tall (at most 700"),
    ("legend", "figure fig_legend.svg: legend of 9 entries (at most 8"),
    ("crowded", "pair(s) of texts overlap: 'data set 0' / 'data set 1'"),
    ("caption", "figure caption of 301 characters (at most 300"),
    ("code", "code cut off, ")])
def test_each_figure_check_fails_on_a_bad_page(bad_pages, page, message):
    rep = bad_pages[0][page]
    assert any(message in p for p in rep.problems), rep.problems
    assert len(rep.problems) == 1, rep.problems  # that rule only
    assert rep.layout == rep.problems


def test_figure_problems_thresholds():
    im = {"src": "a.svg", "height": 700, "overlaps": [], "legends": [8, 3]}
    ok = {"images": [im], "captions": ["c" * 300], "code": []}
    assert check_browser.figure_problems("p", ok) == []
    bad = {"images": [{**im, "height": 701, "legends": [9], "overlaps": [("a", "b")]}],
           "captions": ["c" * 301], "code": [{"line": "x", "scroll": 400, "client": 300}]}
    out = check_browser.figure_problems("p", bad)
    assert len(out) == 5 and all(m.startswith("p.html: ") for m in out)


def test_layout_warn_mode_reports_without_failing(bad_pages):
    for rep in bad_pages[1].values():
        assert rep.warnings and not rep.problems


@pytest.mark.parametrize("width, natural, fails", [(440, 800, False), (439, 800, True),
                                                   (0, 800, False)])
def test_layout_problems_image_threshold(width, natural, fails):
    layout = {"column": 600, "tables": [],
              "images": [{"src": "x.svg", "natural": natural, "shown": width}]}
    assert bool(check_browser.layout_problems("p", layout)) is fails


def test_layout_problems_table_threshold():
    tables = [{"n": 1, "width": 601, "label": "a"}, {"n": 2, "width": 602, "label": "b"}]
    out = check_browser.layout_problems("p", {"column": 600, "tables": tables, "images": []})
    assert out == ["p.html: table 2 is 602 px wide, the text column 600 px (b)"]


def test_csv_links_of_the_built_book_resolve(reports):
    """Every chapter that shows a table with show_table links its CSV, and the link
    resolves (a broken one is a problem of the page, reported above)."""
    generated = ROOT / "book" / "generated"
    using = [p for p in PAGES if p.startswith("generated/")
             and 'class=\\"credal-csv\\"' in (generated / (p.split("/", 1)[1] + ".ipynb")
                                              ).read_text(errors="replace")
             if (generated / (p.split("/", 1)[1] + ".ipynb")).is_file()]
    assert [p for p in using if reports[p].csv_links == 0] == []
    assert [p for p in using if any("CSV link" in m for m in reports[p].problems)] == []


# The API pages typeset docstring formulas (book/_ext/credal_autodoc.py); code stays code.

_ext_spec = importlib.util.spec_from_file_location("credal_autodoc",
                                                   ROOT / "book" / "_ext" / "credal_autodoc.py")
credal_autodoc = importlib.util.module_from_spec(_ext_spec)
_ext_spec.loader.exec_module(credal_autodoc)


@pytest.mark.parametrize("text, tex", [
    ("P(c | a) ∝ sum_{j in J} P(c, a | s_j)",
     r"P(c \mid a) \propto \sum_{j \in J} P(c, a \mid s_{j})"),
    ("CD = q_alpha * sqrt(k (k + 1) / (6 N))",
     r"\mathrm{CD} = q_{\alpha} \cdot \sqrt{k (k + 1) / (6 N)}"),
    ("alpha* = L(x0) / sup L", r"\alpha^* = L(x_{0}) / \sup L"),
    ("0 < k eps <= 1", r"0 < k \varepsilon \le 1"),
    ("Y = {y_j >= eps, sum_j y_j = 1 - (k - k~ + 1) eps}",
     r"Y = \{y_{j} \ge \varepsilon, \sum_{j} y_{j} = 1 - (k - \tilde{k} + 1) \varepsilon\}"),
    ("log thetahat^C_i(k | c)", r"\log \hat\theta^{C}_{i}(k \mid c)"),
])
def test_formula_to_tex(text, tex):
    assert credal_autodoc.formula_to_tex(text) == tex


@pytest.mark.parametrize("code", [
    "aggregate=\"joint\"", "exp(_log_proba(z))", "L_j >= L_max / prune_factor",
    "score > threshold", "BD<S>MOD", "r <- R(y)", "ln alpha > log_alpha",
    "[\"|\".join(labels[s]) for s in sets]", "h = sum_j v_j * m_j + salt (mod 2**64)",
    "predict_proba", "n_classes", "x.shape[0]"])
def test_code_stays_code(code):
    assert credal_autodoc.formula_to_tex(code) is None


def test_docstring_hook_rewrites_formulas_only():
    lines = ["The rule ``P(a) <= P(b)`` on ``n_classes``.", "", "Example::", "",
             "    ``P(a) <= P(b)`` stays", ">>> ``alpha``"]
    credal_autodoc._formulas(None, "function", "f", None, {}, lines)
    assert lines[0] == r"The rule :math:`P(a) \le P(b)` on ``n_classes``."
    assert lines[4:] == ["    ``P(a) <= P(b)`` stays", ">>> ``alpha``"]


# The claim box (issue 28): on a paper chapter the reference and the first claim start
# within the first screen; shown failing on a page where they start lower or are missing.

def _claims_box():
    return ("<div class='credal-claims'><p class='credal-claims-ref'>A. Author. A paper. "
            "2001.</p><ol><li class='credal-claim'>A claim.</li></ol></div>")


@pytest.fixture(scope="module")
def claim_pages(tmp_path_factory):
    reason = _no_browser()
    if reason:
        if REQUIRED:
            pytest.fail(f"CREDAL_BROWSER_TEST=require but {reason}")
        pytest.skip(reason)
    html = tmp_path_factory.mktemp("claims")
    pages = {"box_on_top": _claims_box() + "<div style='height:2000px'></div>",
             "box_below": "<div style='height:900px'>introduction</div>" + _claims_box(),
             "claim_below": ("<div class='credal-claims'><p class='credal-claims-ref'>A. "
                             "Author.</p><div style='height:900px'></div><ol><li "
                             "class='credal-claim'>A claim.</li></ol></div>"),
             "no_box": "<p>no box</p>"}
    for name, body in pages.items():
        (html / f"{name}.html").write_text(_page(body))
    shots = tmp_path_factory.mktemp("first")
    reports = check_browser.check_book(html, list(pages), claim_pages=set(pages),
                                       first_screens=shots)
    return {r.page: r for r in reports}, shots


def test_claim_box_in_the_first_screen_passes(claim_pages):
    reports, shots = claim_pages
    assert reports["box_on_top"].problems == []
    assert (shots / "box_on_top.png").is_file()


@pytest.mark.parametrize("page, message", [
    ("box_below", "the paper's reference starts at"),
    ("claim_below", "the first claim starts at"),
    ("no_box", "no claim box: the paper's reference is missing")])
def test_claim_box_check_fails_on_a_bad_page(claim_pages, page, message):
    problems = claim_pages[0][page].problems
    assert any(message in p for p in problems), problems
    if page != "no_box":
        assert any("below the first screen (800 px at 1280x800)" in p for p in problems)


@pytest.mark.parametrize("tops, n", [({"ref": 120, "claim": 300}, 0),
                                     ({"ref": 120, "claim": 800}, 1),
                                     ({"ref": None, "claim": None}, 2)])
def test_claim_problems_threshold(tops, n):
    assert len(check_browser.claim_problems("p", tops)) == n


def test_paper_pages_are_the_papers_part():
    assert check_browser.paper_pages() == [
        "generated/likelihood-ncc", "generated/credal-aode", "generated/exact-model-averaging",
        "generated/robust-bayes", "generated/independence-scores", "generated/credal-trees"]
