"""Provenance and served files for the book (Sphinx extension).

* Every page's footer: the data licences and one provenance line (commit, ``credal``
  version, build date, parameter profile and the chapters' total run time).
* ``{execution-status}``: the execution-status page's table (every chapter's time and
  status, and the environment of the run), from ``results/_timings/<profile>.csv``, the
  executed notebooks' papermill metadata and ``book/generated/_build_info.json``, which
  book/execute.py writes.
* Every inline literal of the form ``results/...`` or ``data/...`` that names an existing
  file or folder becomes a link to a served copy (``files/<path>``; a folder links to a
  generated listing), so that a reader can open what the text points at.
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import json
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
#: where the served copies of results/ and data/ live in the built book
FILES = "files"
#: the folders a path in the text may point into, and the files of each that are served
SERVED = {"results": ("*.csv",), "data": ("*",)}
LICENCES = ("Data: the UCI Machine Learning Repository's data sets are under CC BY 4.0 "
            "(cite the repository and the donors named in <code>data/catalogue.toml</code>); "
            "ALARM and HEPAR II come from the bnlearn repository as shipped by pgmpy (MIT "
            "licence); two Weka-collection files state no licence (see "
            "<code>data/catalogue.toml</code>). Code: BSD-3-Clause.")


def build_info() -> dict:
    """What book/execute.py recorded about the last run (profile, environment)."""
    path = BOOK / "generated" / "_build_info.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


#: rows of the timings file that book/execute.py writes for a whole run (not notebooks)
RUN_ROWS = ("(run before performance)", "(whole run)")


def timings(profile: str) -> dict:
    """Notebook -> row (``seconds``, ``cpu_seconds``, ``jobs``; strings as written) of the
    last run at ``profile`` (``results/_timings``), with the whole run's row if any."""
    path = ROOT / "results" / "_timings" / f"{profile}.csv"
    if not path.is_file():
        return {}
    with path.open(newline="") as fh:
        return {r["notebook"]: r for r in csv.DictReader(fh)}


def run_time(times: dict) -> tuple[float, str]:
    """The notebooks' execution time and how it was read: the recorded wall time of the
    whole run (notebooks may have run two at a time), else the sum of their times."""
    whole = times.get(RUN_ROWS[1])
    if whole is not None:
        jobs = whole.get("jobs") or "1"
        return float(whole["seconds"]), f"wall time, up to {jobs} notebooks at a time"
    return sum(float(r["seconds"]) for n, r in times.items() if n not in RUN_ROWS), \
        "sum of the notebooks' times"


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s} s" if s < 60 else f"{s // 60} min {s % 60:02d} s"


def provenance() -> dict:
    """Commit, credal version, build date, profile and total run time of this build."""
    def git(*args):
        try:
            done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=20)
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if commit != "unknown" and git("status", "--porcelain", "--untracked-files=no"):
        commit += "+"  # built from a tree with uncommitted changes
    try:
        version = metadata.version("credal-compendium")
    except metadata.PackageNotFoundError:
        version = "not installed"
    profile = build_info().get("profile", "unknown")
    total = run_time(timings(profile))[0]
    return {"commit": commit, "version": version, "profile": profile,
            "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d"),
            "runtime": _duration(total) if total else "not measured"}


def _footer(app, config):
    p = provenance()
    line = (f'<p class="credal-provenance">Built on {p["date"]} from commit '
            f'<code>{html.escape(p["commit"])}</code> with credal {html.escape(p["version"])}; '
            f'notebooks executed at the <code>{html.escape(p["profile"])}</code> profile in '
            f'{p["runtime"]} (see the execution status page).</p>')
    options = dict(config.html_theme_options or {})
    options["extra_footer"] = f'<p class="credal-licences">{LICENCES}</p>{line}'
    config.html_theme_options = options


# ------------------------------------------------------------------ execution status

def environment() -> dict:
    """The packages and tools of the run, as recorded by book/execute.py (else now)."""
    env = build_info().get("environment")
    if env:
        return env
    from importlib import import_module  # fallback: this process (same virtualenv)

    out = {"Python": ".".join(map(str, __import__("sys").version_info[:3]))}
    for name, mod in (("numpy", "numpy"), ("scipy", "scipy"), ("pandas", "pandas"),
                      ("scikit-learn", "sklearn"), ("numba", "numba")):
        try:
            out[name] = import_module(mod).__version__
        except ImportError:
            out[name] = "not installed"
    return out


def _notebook_status(name: str) -> tuple:
    """(status, finished at) of an executed notebook, from papermill's metadata."""
    path = BOOK / "generated" / f"{name}.ipynb"
    if not path.is_file():
        return "not executed", ""
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("papermill", {})
    status = "failed" if meta.get("exception") else "ok"
    return status, str(meta.get("end_time") or "")[:19].replace("T", " ")


class ExecutionStatus(SphinxDirective):
    """``{execution-status}``: one table of the chapters' runs and one of the environment."""

    def run(self):
        info = build_info()
        profile = info.get("profile", "unknown")
        times = timings(profile)
        names = [line.split("generated/", 1)[1].strip() for line in
                 (BOOK / "_toc.yml").read_text().splitlines() if "- file: generated/" in line]
        rows = []
        for name in names:
            status, end = _notebook_status(name)
            r = times.get(name, {})
            t = _duration(float(r["seconds"])) if r.get("seconds") else "\u2013"
            cpu = (f"{_duration(float(r['cpu_seconds']))} "
                   f"({float(r['cpu_seconds']) / max(float(r['seconds']), 1e-9):.2f} cores)"
                   if r.get("cpu_seconds") else "\u2013")
            rows.append(f'<tr><td><a href="generated/{name}.html">{name}</a></td>'
                        f'<td>{html.escape(status)}</td><td class="credal-num">{t}</td>'
                        f'<td class="credal-num">{cpu}</td><td>{html.escape(end)}</td></tr>')
        seconds, how = run_time(times) if times else (0.0, "")
        total = f"{_duration(seconds)} ({how})" if times else "\u2013"
        table = ('<table class="credal-table"><thead><tr><th>chapter</th><th>status</th>'
                 '<th>run time</th><th>CPU time</th><th>finished (UTC)</th></tr></thead><tbody>'
                 + "".join(rows) + f'<tr><td><strong>all chapters</strong></td><td></td>'
                 f'<td class="credal-num" colspan="2"><strong>{html.escape(total)}</strong></td>'
                 "<td></td></tr></tbody></table>")
        env = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>"
                      for k, v in environment().items())
        p = provenance()
        head = (f"<p>Profile <code>{html.escape(profile)}</code>; commit "
                f"<code>{html.escape(p['commit'])}</code>; credal {html.escape(p['version'])}; "
                f"book built on {p['date']}.</p>")
        envt = ('<table class="credal-table"><thead><tr><th>component</th><th>version</th>'
                f"</tr></thead><tbody>{env}</tbody></table>")
        return [nodes.raw("", head + table + "<p>The environment of the run:</p>" + envt,
                          format="html")]


# ------------------------------------------------------------------ served files

def _target(text: str):
    """The served path of an inline literal naming a file or folder of the project."""
    text = text.strip()
    top = text.split("/", 1)[0]
    if top not in SERVED or "<" in text or " " in text:
        return None
    path = ROOT / text
    if path.is_file():
        return f"{FILES}/{text}"
    if path.is_dir():
        return f"{FILES}/{text.rstrip('/')}/index.html"
    return None


def _link_paths(app, doctree, docname):
    prefix = "../" * docname.count("/")
    for lit in list(doctree.findall(nodes.literal)):
        if isinstance(lit.parent, nodes.reference):
            continue
        target = _target(lit.astext())
        if target is None:
            continue
        ref = nodes.reference("", "", refuri=prefix + target, classes=["credal-file"])
        lit.replace_self(ref)
        ref += lit


def _listing(folder: Path, rel: str) -> str:
    items = "".join(f'<li><a href="{html.escape(p.name)}{"/index.html" if p.is_dir() else ""}">'
                    f"{html.escape(p.name)}{'/' if p.is_dir() else ''}</a></li>"
                    for p in sorted(folder.iterdir()) if not p.name.startswith("."))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(rel)}"
            f"</title></head><body><h1>{html.escape(rel)}</h1><ul>{items}</ul></body></html>")


def _copy_served(app, exception):
    """Copy every folder a page links into (results/, data/) to ``files/`` with listings."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / FILES
    for top, patterns in SERVED.items():
        src = ROOT / top
        if not src.is_dir():
            continue
        for pattern in patterns:
            for path in src.rglob(pattern):
                if path.is_file() and not any(part.startswith(".") for part in path.parts):
                    dest = out / path.relative_to(ROOT)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, dest)
        for folder in [src, *[d for d in src.rglob("*") if d.is_dir()]]:
            dest = out / folder.relative_to(ROOT)
            if dest.is_dir():
                (dest / "index.html").write_text(
                    _listing(dest, str(folder.relative_to(ROOT)) + "/"), encoding="utf-8")


def setup(app):
    app.connect("config-inited", _footer)
    app.add_directive("execution-status", ExecutionStatus)
    app.connect("doctree-resolved", _link_paths)
    app.connect("build-finished", _copy_served)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
