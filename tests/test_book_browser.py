"""The built book in headless Chromium: every page of the TOC loads, offline, with its
figures and typeset math (issue 8).  The checks live in ``book/check_browser.py``.

The browser tests skip, saying why, when there is no built book
(``book/_build/html/index.html``; build it with ``make book PROFILE=smoke``), no
``playwright`` package or no Chromium (``apt-get install -y chromium``).  With
``CREDAL_BROWSER_TEST=require`` those conditions fail instead, as CI wants.
``CREDAL_BOOK_HTML`` points the test at another build directory; the full-page
screenshots go to ``screenshots/`` beside it (``book/_build/screenshots/`` by default).
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
