"""Fail if the built book would make a browser contact an external host (or shows a
path of the machine that built it).

Scans every HTML page for resources a browser fetches on load (``<script src>``,
``<link href>`` stylesheets/preloads/icons, ``<img>``, ``<iframe>``, ``<source>``,
``<video>``/``<audio>``) and every CSS/JS file for ``url(...)``/``@import`` of
``http(s)://`` or protocol-relative ``//`` addresses.  Ordinary hyperlinks
(``<a href>``) are not requests and are allowed.  Also checks that each chapter
page exists and that MathJax is served locally.

Usage: ``python book/check_offline.py book/_build/html``.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

EXTERNAL = re.compile(r"^(https?:)?//", re.I)
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)""", re.I)
FETCHING = {"script": "src", "img": "src", "iframe": "src", "source": "src",
            "video": "src", "audio": "src", "embed": "src", "object": "data"}
LINK_RELS = {"stylesheet", "preload", "modulepreload", "icon", "shortcut", "prefetch",
             "apple-touch-icon", "manifest"}


class _Scanner(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.mathjax_local = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        url = None
        if tag in FETCHING:
            url = a.get(FETCHING[tag])
        elif tag == "link":
            rels = set((a.get("rel") or "").lower().split())
            if rels & LINK_RELS:
                url = a.get("href")
        if url and EXTERNAL.match(url):
            self.found.append(f"<{tag}> {url}")
        if tag == "script" and "mathjax" in (a.get("src") or "").lower():
            self.mathjax_local = not EXTERNAL.match(a["src"])
        style = a.get("style") or ""
        self.found += [f"style url {u}" for u in CSS_URL.findall(style)]


# A path of the machine that built the book must not reach a page, nor, in a chapter, a
# cell's stray return value (a path object).
_ROOT = str(Path(__file__).resolve().parents[1]) + "/"
_CELL_LEAKS = ("PosixPath(", "WindowsPath(")


def leaks(html_dir: Path) -> list[str]:
    """Pages that show the building machine's project path, and chapter pages (under
    ``generated/``) that show a path object."""
    found = []
    for page in sorted(html_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        rel = page.relative_to(html_dir)
        chapter = rel.parts[0] == "generated"
        found += [f"{rel}: {leak!r}" for leak in (_ROOT, *(_CELL_LEAKS if chapter else ()))
                  if leak in text]
    return found


def scan(html_dir: Path) -> tuple[list[str], list[str]]:
    """Return (external requests, pages with math but no local MathJax)."""
    problems, nomath = [], []
    for page in sorted(html_dir.rglob("*.html")):
        s = _Scanner()
        text = page.read_text(encoding="utf-8", errors="replace")
        s.feed(text)
        problems += [f"{page.relative_to(html_dir)}: {f}" for f in s.found]
        if ("\\(" in text or "\\[" in text or "math notranslate" in text) and not s.mathjax_local:
            nomath.append(str(page.relative_to(html_dir)))
    for asset in sorted(list(html_dir.rglob("*.css")) + list(html_dir.rglob("*.js"))):
        if "_static/mathjax" in asset.as_posix():
            continue  # MathJax's own bundle only names its CDN in comments and unused fallbacks
        text = asset.read_text(encoding="utf-8", errors="replace")
        problems += [f"{asset.relative_to(html_dir)}: {u}" for u in CSS_URL.findall(text)]
    return problems, nomath


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    html_dir = Path(argv[0] if argv else "book/_build/html")
    if not html_dir.is_dir():
        print(f"no built book at {html_dir}", file=sys.stderr)
        return 2
    problems, nomath = scan(html_dir)
    leaked = leaks(html_dir)
    for p in problems:
        print(f"external request: {p}", file=sys.stderr)
    for p in nomath:
        print(f"math without local MathJax: {p}", file=sys.stderr)
    for p in leaked:
        print(f"machine path or path object shown: {p}", file=sys.stderr)
    if problems or nomath or leaked:
        return 1
    print(f"offline check passed: {len(list(html_dir.rglob('*.html')))} pages, no external requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
