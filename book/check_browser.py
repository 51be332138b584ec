"""Open the built book in headless Chromium and check every page of the table of contents.

For each page listed in ``book/_toc.yml`` (the root ``index`` included) the checker

* serves ``book/_build/html`` over HTTP on 127.0.0.1 and loads the page;
* records every request: only ``127.0.0.1``/``localhost`` (and ``data:``/``blob:``/
  ``about:``) are allowed; any other host is reported (Chromium is told it cannot be
  resolved, so the check never reaches the network);
* reports failed requests, HTTP statuses >= 400, console errors and uncaught exceptions;
* waits for MathJax to finish typesetting and for web fonts to load;
* requires every ``<img>`` to have loaded (``complete`` and ``naturalWidth > 0``);
* when the page's MyST source contains math (``$...$``, ``$$``, ``{math}``) or the HTML
  has math elements, requires typeset math (``mjx-container``), every math element
  typeset, and no MathJax error node (``mjx-merror``);
* when the chapter's notebook draws figures, requires at least one loaded image and at
  least one loaded image inside a ``<figure>`` per figure cell of the notebook;
* requires every link to a table's CSV (``a.credal-csv``, written by
  ``credal.chapters._display.show_table``) to resolve in the built book;
* layout at 1280x800 (issue 17): fails on a table wider than the text column and on an
  image shown below 55 % of its natural width (collapsed ``<details>`` are opened to
  measure them); ``--layout=warn`` (or ``CREDAL_LAYOUT=warn``) reports these two as
  warnings instead, for a book whose chapters are not all converted yet;
* the claim box (issue 28): on a paper chapter (the part "The papers" of the table of
  contents) the paper's reference and its first claim (``credal.chapters._claims``) must
  start within the first screen, above :data:`FIRST_SCREEN` px at 1280x800;
* every link to a served file of ``results/`` or ``data/`` (``a.credal-file``, made by
  ``book/_ext/credal_provenance.py``) must resolve;
* figures and code at 1280x800 (issue 28): fails on an image taller than 700 px, on a
  figure whose texts overlap (the bounding boxes of the text groups of its SVG, rotation
  included), on a legend of more than 8 entries, on a figure caption longer than 300
  characters and on a code block wider than its box (cut off or scrolled); ``--layout``
  treats these as it treats the two above;
* optionally saves a full-page screenshot per page (JPEG) for human review, and with
  ``--first-screens`` one 1280x800 screenshot of each paper chapter's first screen.

``book/check_offline.py`` is the static counterpart (no browser needed).

Usage::

    python book/check_browser.py [HTML_DIR] [--screenshots DIR] [--chromium PATH]
                                 [--layout fail|warn]

Exit status 0 when every page passes, 1 when a page fails, 2 when the book or the
browser is missing.  Needs the ``playwright`` Python package and a Chromium binary
(Debian: ``apt-get install -y chromium``); Playwright's own browser download is not used.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import re
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
DEFAULT_HTML = BOOK / "_build" / "html"
DEFAULT_SCREENSHOTS = BOOK / "_build" / "screenshots"

# Headless flags that keep Chromium from contacting Google services on its own, so that
# every request seen comes from the page.  The resolver rule makes every host name but the
# local ones unresolvable: an external reference fails at once and nothing leaves the
# machine.  (Playwright's request routing would do the same but disables the HTTP cache,
# which makes the run about a fifth slower.)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
LOCAL_SCHEMES = {"data", "blob", "about"}
TIMEOUT_MS = 30_000
#: the reader's window (issue 17: "opened at 1280x800")
VIEWPORT = {"width": 1280, "height": 800}
#: an image shown narrower than this fraction of its natural width has unreadable text
MIN_IMAGE_SCALE = 0.55
#: what the layout checks do with a problem: "fail" the page or only "warn"
LAYOUT_MODES = ("fail", "warn")
#: the claim box's reference and first claim must start above this (the first screen)
FIRST_SCREEN = 800
#: the table of contents' part whose chapters are the papers (each has a claim box)
PAPERS_CAPTION = "The papers"
#: issue 28: a figure fits the first screen (800 px less the header) ...
MAX_FIGURE_HEIGHT = 700
#: ... its legend has at most this many entries (more: label the lines directly) ...
MAX_LEGEND_ENTRIES = 8
#: ... and its caption at most this many characters (the rest belongs in the text)
MAX_CAPTION = 300
#: two texts of a figure collide when their boxes overlap by more than this (px) both ways
TEXT_OVERLAP_PX = 1.0
# JPEG: full-page PNGs of the longest chapters (~30,000 px) take ~1.6x as long to encode.
SCREENSHOT = {"type": "jpeg", "quality": 85}

# Errors that come from the book's toolchain rather than from the project, each with why
# it is tolerated.  Everything else printed as an error fails the page.
KNOWN_ERRORS = {
    "Got invalid theme mode: . Resetting to auto.":
        "pydata-sphinx-theme 0.17 logs this on a reader's first visit (nothing stored in "
        "localStorage yet) and then picks the automatic light/dark mode",
}

# MyST dollar math: no blank right after the opening or before the closing dollar.
DOLLAR_MATH = re.compile(r"\$\$|\$[^\s$][^$\n]*?(?<!\s)\$|\$[^\s$]\$")
FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
FIGURE_CALL = re.compile(r"\b(plotting\.\w+|plt\.\w+|\w+\.plot|\w+\.imshow)\s*\(")


def toc_pages(toc: Path = BOOK / "_toc.yml") -> list[str]:
    """Return the document names of the table of contents, root first.

    Parameters
    ----------
    toc : Path
        The Jupyter Book ``_toc.yml``.

    Returns
    -------
    list of str
        Names such as ``"index"`` or ``"generated/introduction"`` (no suffix).
    """
    import yaml

    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    pages = [data["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                pages.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk({k: v for k, v in data.items() if k != "root"})
    return [p.removesuffix(".md").removesuffix(".ipynb") for p in pages]


def paper_pages(toc: Path = BOOK / "_toc.yml") -> list[str]:
    """The document names of the part :data:`PAPERS_CAPTION` of the table of contents."""
    import yaml

    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    return [c["file"].removesuffix(".md").removesuffix(".ipynb")
            for part in data.get("parts", []) if part.get("caption") == PAPERS_CAPTION
            for c in part.get("chapters", [])]


def claim_problems(page: str, tops: dict, limit: int = FIRST_SCREEN) -> list[str]:
    """The claim-box problems of a paper chapter, from :data:`_CLAIMS_JS`'s measure.

    Parameters
    ----------
    page : str
        Document name, for the messages.
    tops : dict
        ``ref`` and ``claim``: the top (px from the top of the page, at load) of the
        paper's reference and of the first claim, or None when the page has none.
    limit : int
        The first screen's height.

    Returns
    -------
    list of str
        One message per element missing or starting at or below ``limit``.
    """
    out = []
    for key, what in (("ref", "the paper's reference"), ("claim", "the first claim")):
        top = tops.get(key)
        if top is None:
            out.append(f"{page}.html: no claim box: {what} is missing "
                       "(credal.chapters._display.claim_box, glued under the title)")
        elif top >= limit:
            out.append(f"{page}.html: {what} starts at {top:.0f} px, below the first "
                       f"screen ({limit} px at 1280x800)")
    return out


def source_of(docname: str) -> Path:
    """Return the MyST source of a page: chapters live in ``notebooks/``, the rest in ``book/``."""
    if docname.startswith("generated/"):
        return ROOT / "notebooks" / (docname.split("/", 1)[1] + ".md")
    return BOOK / (docname + ".md")


def _cells(path: Path):
    import jupytext

    return jupytext.read(path, fmt="md:myst").cells  # every source of the book is MyST


def _prose(markdown: str) -> str:
    """Markdown without fenced code blocks (a ``{math}`` fence is kept) and inline code."""
    kept, fence = [], None
    for line in markdown.splitlines():
        m = FENCE.match(line.strip())
        if fence is None and m:
            fence = m.group(1)
            if m.group(2).strip().startswith("{math}"):
                kept.append("{math}")
            continue
        if fence is not None:
            if line.strip().startswith(fence) and line.strip() == fence[0] * len(line.strip()):
                fence = None
            continue
        kept.append(line)
    return INLINE_CODE.sub("", "\n".join(kept))


def source_has_math(path: Path) -> bool:
    """Whether the prose of a MyST source contains math (dollar math or ``{math}``)."""
    if not path.is_file():
        return False
    text = "\n".join(_prose(c.source) for c in _cells(path) if c.cell_type == "markdown")
    return "{math}" in text or bool(DOLLAR_MATH.search(text))


def figure_cells(path: Path) -> tuple[int, int]:
    """Count the code cells of a notebook that draw figures.

    Returns
    -------
    drawing : int
        Code cells that call a plotting function or carry ``mystnb.figure`` metadata.
    captioned : int
        Code cells with ``mystnb.figure`` metadata (each becomes an HTML ``<figure>``).
    """
    if not path.is_file():
        return 0, 0
    drawing = captioned = 0
    for cell in _cells(path):
        if cell.cell_type != "code":
            continue
        has_caption = "figure" in (cell.metadata.get("mystnb") or {})
        captioned += has_caption
        drawing += has_caption or bool(FIGURE_CALL.search(cell.source))
    return drawing, captioned


def find_chromium() -> str | None:
    """Path of a Chromium binary: ``$CREDAL_CHROMIUM``, else the first one on ``PATH``."""
    explicit = os.environ.get("CREDAL_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


@contextlib.contextmanager
def serve(html_dir: Path):
    """Serve ``html_dir`` on a free port of 127.0.0.1 in a thread; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(html_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class PageReport:
    """What the browser saw on one page; ``problems`` is empty when the page passes."""

    page: str
    problems: list[str] = field(default_factory=list)
    requests: int = 0
    images: int = 0
    images_loaded: int = 0
    figures_loaded: int = 0
    math_elements: int = 0
    math_typeset: int = 0
    expects_math: bool = False
    expects_figures: int = 0
    csv_links: int = 0
    tables: int = 0
    column_width: float = 0.0
    layout: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        state = "ok" if not self.problems else f"{len(self.problems)} problem(s)"
        if self.warnings:
            state += f", {len(self.warnings)} layout warning(s)"
        return (f"{self.page}: {state}; {self.requests} requests, images "
                f"{self.images_loaded}/{self.images} loaded, math {self.math_typeset}/"
                f"{self.math_elements} typeset, {self.tables} tables, {self.csv_links} CSV "
                f"links, {self.seconds:.1f} s")


_IMAGES_JS = """async () => {
  const imgs = Array.from(document.images);
  for (const im of imgs) { if (im.loading === 'lazy') im.loading = 'eager'; }
  await Promise.all(imgs.map(im => im.complete ? null : new Promise(done => {
    im.addEventListener('load', done, {once: true});
    im.addEventListener('error', done, {once: true});
    setTimeout(done, 15000);
  })));
  return imgs.map(im => ({src: im.getAttribute('src'), ok: im.complete && im.naturalWidth > 0,
                          inFigure: im.closest('figure') !== null}));
}"""

# MathJax 3 exposes startup.promise, resolved once the initial typesetting is done.
_MATHJAX_JS = """async () => {
  const mj = window.MathJax;
  if (!mj || !mj.startup || !mj.startup.promise) return {started: false};
  await mj.startup.promise;
  const math = Array.from(document.querySelectorAll('.math'));
  return {
    started: true,
    elements: math.length,
    typeset: math.filter(m => m.querySelector('mjx-container')).length,
    untypeset: math.filter(m => !m.querySelector('mjx-container')).slice(0, 5).map(
      m => m.textContent.trim().slice(0, 80)),
    containers: document.querySelectorAll('mjx-container').length,
    errors: Array.from(document.querySelectorAll('mjx-merror')).map(
      e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 120)),
  };
}"""

_CONTENT_JS = """() => {
  const main = document.querySelector('main, article, [role=main]');
  const h1 = document.querySelector('h1');
  return {text: main ? main.innerText.trim().length : 0, h1: h1 ? h1.innerText.trim() : ''};
}"""


# Layout at the reader's window size.  The text column is the article's content box.
# Collapsed <details> are opened to measure what they hold, then closed again.
_LAYOUT_JS = """() => {
  const art = document.querySelector('article.bd-article') || document.querySelector('main')
    || document.body;
  const cs = getComputedStyle(art);
  const column = art.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const closed = Array.from(art.querySelectorAll('details:not([open])'));
  closed.forEach(d => d.open = true);
  const label = t => {
    const block = t.closest('.credal-table-block');
    const cap = (block && block.querySelector('.credal-caption')) || t.querySelector('caption');
    if (cap) return cap.innerText.trim().slice(0, 70);
    const heads = Array.from(t.querySelectorAll('th')).slice(0, 3).map(h => h.innerText.trim());
    return 'columns: ' + heads.join(', ').slice(0, 60);
  };
  const tables = Array.from(art.querySelectorAll('table')).map((t, i) => ({
    n: i + 1, width: Math.round(Math.max(t.scrollWidth, t.getBoundingClientRect().width)),
    label: label(t)}));
  const images = Array.from(art.querySelectorAll('img')).filter(
      im => im.complete && im.naturalWidth > 0).map(im => ({
    src: (im.getAttribute('src') || '').split('/').pop().slice(0, 60),
    natural: im.naturalWidth, shown: Math.round(im.getBoundingClientRect().width)}));
  closed.forEach(d => d.open = false);
  return {column: Math.round(column), tables, images};
}"""

# The claim box's reference and first claim, measured at load (no scrolling).
_CLAIMS_JS = """() => {
  const top = sel => { const e = document.querySelector(sel);
    return e ? e.getBoundingClientRect().top + window.scrollY : null; };
  return {ref: top('.credal-claims .credal-claims-ref'), claim: top('.credal-claims li.credal-claim')};
}"""

# Every link to a table's CSV must resolve in the built book (checked from Python, so
# that the check's own requests are not counted as the page's).
_CSV_LINKS_JS = """() => Array.from(document.querySelectorAll('a.credal-csv, a.credal-file')).map(
  a => ({href: a.getAttribute('href'), url: a.href,
         kind: a.classList.contains('credal-csv') ? 'CSV' : 'file'}))"""


def _status(url: str) -> int:
    """HTTP status of a HEAD request to the local server (0 when it cannot connect)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def layout_problems(page: str, layout: dict, min_scale: float = MIN_IMAGE_SCALE) -> list[str]:
    """The layout problems of one page, from what :data:`_LAYOUT_JS` measured.

    Parameters
    ----------
    page : str
        Document name, for the messages.
    layout : dict
        ``column`` (px), ``tables`` (``n``, ``width``, ``label``) and ``images``
        (``src``, ``natural``, ``shown``).
    min_scale : float
        Smallest allowed ratio of an image's displayed to its natural width.

    Returns
    -------
    list of str
        One message per table wider than the column (1 px slack for rounding) and per
        image shown below ``min_scale`` of its natural width.
    """
    column = layout["column"]
    out = [f"{page}.html: table {t['n']} is {t['width']} px wide, the text column "
           f"{column} px ({t['label']})"
           for t in layout["tables"] if t["width"] > column + 1]
    out += [f"{page}.html: image {im['src']} shown at {im['shown']} px, "
            f"{im['shown'] / im['natural']:.0%} of its natural {im['natural']} px "
            f"(minimum {min_scale:.0%})"
            for im in layout["images"]
            if im["shown"] > 0 and im["shown"] / im["natural"] < min_scale - 1e-9]
    return out


# Figures and code (issue 28).  matplotlib writes each text of an SVG as a group holding,
# per line, a comment (the text) followed by a <g transform=...> of glyph paths: the box of
# that <g> mapped through its screen matrix is the text's oriented box (rotation kept).  Each
# SVG is fetched, measured in an off-screen copy at its natural size, and removed.
_FIGURES_JS = """async (overlapPx) => {
  const art = document.querySelector('article.bd-article') || document.querySelector('main')
    || document.body;
  const closed = Array.from(art.querySelectorAll('details:not([open])'));
  closed.forEach(d => d.open = true);
  const quad = (el) => {
    const b = el.getBBox(), m = el.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
            [b.x, b.y + b.height]].map(([x, y]) => [m.a * x + m.c * y + m.e,
                                                    m.b * x + m.d * y + m.f]);
  };
  // separating axes of two convex quads: they collide when they overlap on every axis
  const collide = (p, q) => {
    for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
      const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % 4];
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (len === 0) continue;
      const ax = -(y1 - y0) / len, ay = (x1 - x0) / len;
      const pr = r => r.map(([x, y]) => x * ax + y * ay);
      const a = pr(p), b = pr(q);
      if (Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b))
          <= overlapPx) return false;
    }
    return true;
  };
  const svgFigure = async (im) => {
    const res = await fetch(im.currentSrc || im.src);
    const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
    if (doc.documentElement.nodeName !== 'svg') return {texts: 0, overlaps: [], legends: []};
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;left:-40000px;top:0;visibility:hidden';
    box.appendChild(document.importNode(doc.documentElement, true));
    document.body.appendChild(box);
    const root = box.firstElementChild, groups = new Map();
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
    while (walk.nextNode()) {
      const c = walk.currentNode, inner = c.nextElementSibling, g = c.parentNode;
      if (!inner || inner.nodeName !== 'g' || g.nodeName !== 'g') continue;
      const b = inner.getBBox();
      if (b.width * b.height === 0) continue;
      if (!groups.has(g)) groups.set(g, {label: '', quads: []});
      const t = groups.get(g);
      t.label = (t.label + ' ' + c.data.trim()).trim();
      t.quads.push(quad(inner));
    }
    const texts = Array.from(groups.values());
    const aabb = t => t.quads.flat().reduce((r, [x, y]) => [Math.min(r[0], x),
      Math.min(r[1], y), Math.max(r[2], x), Math.max(r[3], y)], [1e9, 1e9, -1e9, -1e9]);
    texts.forEach(t => t.box = aabb(t));
    const overlaps = [];
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].box, b = texts[j].box;
      if (a[0] > b[2] - overlapPx || b[0] > a[2] - overlapPx || a[1] > b[3] - overlapPx
          || b[1] > a[3] - overlapPx) continue;
      if (texts[i].quads.some(p => texts[j].quads.some(q => collide(p, q))))
        overlaps.push([texts[i].label.slice(0, 40), texts[j].label.slice(0, 40)]);
    }
    // a legend's texts are its entries, less the title: the first text when nothing but
    // the frame (a first child whose box holds every text) comes before it
    const legends = Array.from(root.querySelectorAll('g[id^="legend"]')).map(lg => {
      const kids = Array.from(lg.children), labels = kids.filter(k => groups.has(k));
      if (!labels.length) return 0;
      const first = labels[0], before = first.previousElementSibling;
      const frame = kids[0] !== first && kids[0].getBoundingClientRect();
      const holds = frame && labels.every(k => { const r = k.getBoundingClientRect();
        return r.left >= frame.left && r.right <= frame.right && r.top >= frame.top
          && r.bottom <= frame.bottom; });
      const titled = before === null || (before === kids[0] && holds);
      return labels.length - (titled && labels.length > 1 ? 1 : 0);
    });
    box.remove();
    return {texts: texts.length, overlaps, legends};
  };
  const images = [];
  for (const im of Array.from(art.querySelectorAll('img'))) {
    if (!(im.complete && im.naturalWidth > 0)) continue;
    const src = im.getAttribute('src') || '';
    const rec = {src: src.split('/').pop().slice(0, 60),
                 height: Math.round(im.getBoundingClientRect().height),
                 texts: 0, overlaps: [], legends: []};
    if (/\\.svg([?#].*)?$/i.test(src) || src.startsWith('data:image/svg'))
      Object.assign(rec, await svgFigure(im));
    images.push(rec);
  }
  const captions = Array.from(art.querySelectorAll('figure figcaption')).map(fc => {
    const body = fc.querySelector('.caption-text') || fc;
    return body.innerText.replace(/\\s+/g, ' ').trim();
  });
  const code = Array.from(art.querySelectorAll('pre')).filter(pre => pre.offsetParent !== null)
    .map(pre => ({scroll: pre.scrollWidth, client: pre.clientWidth,
                  line: pre.innerText.split('\\n').reduce((a, b) => b.length > a.length ? b : a, '')
                        .trim().slice(0, 50)}))
    .filter(c => c.scroll > c.client + 1);
  closed.forEach(d => d.open = false);
  return {images, captions, code};
}"""


def figure_problems(page: str, figures: dict, max_height: int = MAX_FIGURE_HEIGHT,
                    max_entries: int = MAX_LEGEND_ENTRIES,
                    max_caption: int = MAX_CAPTION) -> list[str]:
    """The figure and code problems of one page, from what :data:`_FIGURES_JS` measured.

    Parameters
    ----------
    page : str
        Document name, for the messages.
    figures : dict
        ``images`` (``src``, shown ``height`` in px, ``overlaps``: pairs of colliding
        texts, ``legends``: entries per legend), ``captions`` (figure caption texts) and
        ``code`` (``line``, ``scroll`` and ``client`` widths of each code block wider than
        its box).
    max_height, max_entries, max_caption : int
        Tallest image (px), most legend entries, longest caption (characters).

    Returns
    -------
    list of str
        One message per image taller than ``max_height``, per figure with colliding
        texts, per legend of more than ``max_entries`` entries, per caption longer than
        ``max_caption`` and per code block cut off.
    """
    out = []
    for im in figures["images"]:
        where = f"{page}.html: figure {im['src']}"
        if im["height"] > max_height:
            out.append(f"{where} is {im['height']} px tall (at most {max_height}: split or "
                       "facet it)")
        if im["overlaps"]:
            pairs = "; ".join(f"{a!r} / {b!r}" for a, b in im["overlaps"][:4])
            out.append(f"{where}: {len(im['overlaps'])} pair(s) of texts overlap: {pairs}")
        out += [f"{where}: legend of {n} entries (at most {max_entries}: label directly)"
                for n in im["legends"] if n > max_entries]
    out += [f"{page}.html: figure caption of {len(c)} characters (at most {max_caption}: "
            f"move the rest into the text): {c[:60]!r}..."
            for c in figures["captions"] if len(c) > max_caption]
    out += [f"{page}.html: code cut off, {c['scroll']} px wide in a {c['client']} px box: "
            f"{c['line']!r}" for c in figures["code"]]
    return out


def _known(message: str) -> bool:
    return any(known in message for known in KNOWN_ERRORS)


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or (parts.hostname or "") in LOCAL_HOSTS


def _check_page(context, base: str, page: str, html_dir: Path, shots: Path | None,
                layout_mode: str = "fail", claims: bool = False,
                first_screen: Path | None = None) -> PageReport:
    rep = PageReport(page=page)
    source = source_of(page)
    rep.expects_math = source_has_math(source)
    rep.expects_figures, captioned = (figure_cells(source) if page.startswith("generated/")
                                      else (0, 0))
    if not (html_dir / f"{page}.html").is_file():
        rep.problems.append(f"{page}.html: page is missing from the build")
        return rep
    start = time.perf_counter()
    tab = context.new_page()
    problems = rep.problems

    def on_request(req):
        rep.requests += 1
        if not _is_local(req.url):
            problems.append(f"{page}.html: external request to {req.url} ({req.resource_type})")

    def on_failed(req):
        if _is_local(req.url):  # external ones fail on purpose, reported above
            problems.append(f"{page}.html: request failed: {req.url} ({req.failure})")

    def on_response(resp):
        if resp.status >= 400:
            problems.append(f"{page}.html: HTTP {resp.status} for {resp.url}")

    def on_console(msg):
        # Chromium itself asks for /favicon.ico when a page declares no icon; the book
        # declares none, so that 404 is not the page's request.
        if urlsplit(msg.location.get("url", "")).path == "/favicon.ico":
            return
        if msg.type == "error" and not _known(msg.text):
            problems.append(f"{page}.html: console error: {msg.text[:300]}")

    def on_pageerror(exc):
        if not _known(str(exc)):
            problems.append(f"{page}.html: uncaught exception: {str(exc)[:300]}")

    tab.on("request", on_request)
    tab.on("requestfailed", on_failed)
    tab.on("response", on_response)
    tab.on("console", on_console)
    tab.on("pageerror", on_pageerror)
    tab.on("websocket", lambda ws: problems.append(f"{page}.html: websocket to {ws.url}"))
    try:
        resp = tab.goto(base + page + ".html", wait_until="load", timeout=TIMEOUT_MS)
        if resp is None or not resp.ok:
            problems.append(f"{page}.html: page did not load "
                            f"(HTTP {resp.status if resp else 'none'})")
        if claims:
            tab.evaluate("() => document.fonts.ready.then(() => true)")
            problems += claim_problems(page, tab.evaluate(_CLAIMS_JS))
            if first_screen is not None:
                target = first_screen / f"{page}.png"
                target.parent.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(target), full_page=False, timeout=TIMEOUT_MS)
        content = tab.evaluate(_CONTENT_JS)
        if content["text"] == 0 or not content["h1"]:
            problems.append(f"{page}.html: no main content or title rendered")

        math = tab.evaluate(_MATHJAX_JS)
        rep.math_elements = math.get("elements", 0)
        rep.math_typeset = math.get("typeset", 0)
        wants_math = rep.expects_math or rep.math_elements > 0
        if wants_math and not math["started"]:
            problems.append(f"{page}.html: MathJax did not start")
        elif wants_math:
            if math["containers"] == 0:
                problems.append(f"{page}.html: source has math but no mjx-container was rendered")
            if rep.math_typeset < rep.math_elements:
                problems.append(f"{page}.html: only {rep.math_typeset} of "
                                f"{rep.math_elements} math elements were typeset, e.g. "
                                + ", ".join(repr(t) for t in math["untypeset"]))
            for err in math["errors"]:
                problems.append(f"{page}.html: MathJax error: {err}")

        images = tab.evaluate(_IMAGES_JS)
        rep.images = len(images)
        rep.images_loaded = sum(im["ok"] for im in images)
        rep.figures_loaded = sum(im["ok"] and im["inFigure"] for im in images)
        problems += [f"{page}.html: image did not load: {im['src']}" for im in images
                     if not im["ok"]]
        if rep.expects_figures and rep.images_loaded == 0:
            problems.append(f"{page}.html: the notebook draws {rep.expects_figures} figure(s) "
                            "but no image loaded")
        elif rep.figures_loaded < captioned:
            problems.append(f"{page}.html: the notebook has {captioned} figure cell(s) but "
                            f"only {rep.figures_loaded} figure(s) show a loaded image")

        links = tab.evaluate(_CSV_LINKS_JS)
        rep.csv_links = len(links)
        for ln in links:
            status = _status(ln["url"]) if _is_local(ln["url"]) else -1
            if status != 200:
                problems.append(f"{page}.html: {ln['kind']} link {ln['href']} does not resolve "
                                f"(HTTP {status if status > 0 else 'error'})")

        tab.evaluate("() => document.fonts.ready.then(() => true)")
        layout = tab.evaluate(_LAYOUT_JS)
        rep.tables, rep.column_width = len(layout["tables"]), layout["column"]
        rep.layout = layout_problems(page, layout)
        rep.layout += figure_problems(page, tab.evaluate(_FIGURES_JS, TEXT_OVERLAP_PX))
        (rep.warnings if layout_mode == "warn" else problems).extend(rep.layout)
        if shots is not None:
            target = shots / f"{page}.{SCREENSHOT['type']}"
            target.parent.mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(target), full_page=True, timeout=TIMEOUT_MS, **SCREENSHOT)
    except Exception as exc:  # a timeout or a crashed tab is a failure of this page only
        problems.append(f"{page}.html: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        tab.close()
        rep.seconds = time.perf_counter() - start
    return rep


def check_book(html_dir: Path = DEFAULT_HTML, pages: list[str] | None = None,
               chromium: str | None = None, screenshots: Path | None = None,
               layout: str | None = None, claim_pages=None,
               first_screens: Path | None = None) -> list[PageReport]:
    """Load every page in one headless Chromium and return one report per page.

    Parameters
    ----------
    html_dir : Path
        The built HTML book.
    pages : list of str, optional
        Document names to check; default :func:`toc_pages`.
    chromium : str, optional
        Chromium binary; default :func:`find_chromium`.
    screenshots : Path, optional
        Directory for one full-page screenshot per page (``<page>.jpeg``); none when
        omitted.
    layout : {"fail", "warn"}, optional
        What a layout problem (table wider than the column, image shrunk below
        :data:`MIN_IMAGE_SCALE`, and the figure and code rules of :func:`figure_problems`)
        does: fail the page, or only go to ``warnings``.
        Default ``$CREDAL_LAYOUT``, else ``"fail"``.
    claim_pages : collection of str, optional
        The pages that must show the claim box in their first screen; default
        :func:`paper_pages`.
    first_screens : Path, optional
        Directory for a 1280x800 screenshot of each of those pages' first screen
        (``<page>.png``).

    Returns
    -------
    list of PageReport
        In the order of ``pages``.
    """
    from playwright.sync_api import sync_playwright

    layout = layout or os.environ.get("CREDAL_LAYOUT") or "fail"
    if layout not in LAYOUT_MODES:
        raise ValueError(f"layout must be one of {LAYOUT_MODES}; got {layout!r}")

    pages = toc_pages() if pages is None else pages
    chromium = chromium or find_chromium()
    if chromium is None:
        raise FileNotFoundError("no Chromium binary found (set CREDAL_CHROMIUM)")
    with serve(Path(html_dir)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=VIEWPORT, service_workers="block")
            claim_pages = set(paper_pages() if claim_pages is None else claim_pages)
            return [_check_page(context, base, page, Path(html_dir), screenshots, layout,
                                page in claim_pages, first_screens)
                    for page in pages]
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html_dir", nargs="?", type=Path, default=DEFAULT_HTML)
    parser.add_argument("--screenshots", type=Path, default=DEFAULT_SCREENSHOTS,
                        help="directory for full-page screenshots (default: %(default)s)")
    parser.add_argument("--no-screenshots", action="store_true")
    parser.add_argument("--first-screens", type=Path, default=None,
                        help="directory for a 1280x800 screenshot of each paper chapter's "
                             "first screen")
    parser.add_argument("--chromium", help="Chromium binary (default: found on PATH)")
    parser.add_argument("--layout", choices=LAYOUT_MODES,
                        default=os.environ.get("CREDAL_LAYOUT") or "fail",
                        help="a table wider than the column, an image shrunk below "
                             f"{100 * MIN_IMAGE_SCALE:.0f}%% of its width, a figure taller than "  # argparse %-formats
                             f"{MAX_FIGURE_HEIGHT} px, with overlapping texts, a legend of "
                             f"more than {MAX_LEGEND_ENTRIES} entries or a caption of more "
                             f"than {MAX_CAPTION} characters, cut-off code: fail the page "
                             "or only warn (default: $CREDAL_LAYOUT, else %(default)s)")
    args = parser.parse_args(argv)
    if not (args.html_dir / "index.html").is_file():
        print(f"no built book at {args.html_dir}", file=sys.stderr)
        return 2
    chromium = args.chromium or find_chromium()
    if chromium is None:
        print("no Chromium found: apt-get install -y chromium", file=sys.stderr)
        return 2
    start = time.perf_counter()
    reports = check_book(args.html_dir, chromium=chromium,
                         screenshots=None if args.no_screenshots else args.screenshots,
                         layout=args.layout, first_screens=args.first_screens)
    for rep in reports:
        print(rep.summary())
        for problem in rep.problems:
            print(f"  {problem}", file=sys.stderr)
        for warning in rep.warnings:
            print(f"  warning: {warning}", file=sys.stderr)
    failed = [r.page for r in reports if r.problems]
    warned = [r.page for r in reports if r.warnings]
    if warned:
        print(f"layout warnings (--layout=warn) on {len(warned)} page(s): {', '.join(warned)}")
    print(f"browser check: {len(reports) - len(failed)}/{len(reports)} pages passed, "
          f"{sum(r.images_loaded for r in reports)} images, "
          f"{sum(r.math_typeset for r in reports)} math elements, "
          f"{time.perf_counter() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
