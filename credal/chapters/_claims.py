"""The claim box at the top of every paper chapter: the paper's full reference, its main
claims in words with our verdict on each, the rerun command and the run's provenance.

The claims are data, not code: ``data/published/claims.csv`` holds one row per claim
(``chapter``, ``order``, ``claim`` in our own words, ``quantities``: the chapter's
``HEADLINE`` rows the claim rests on, separated by ``|``; a name ending in ``…`` matches
every quantity that starts with it).  A claim's verdict follows from its rows' verdicts
(:func:`claim_verdicts`): *reproduced* when every row is, *differs* when any row differs
(with the causes of the differing rows), otherwise *not comparable*.

The reference comes from the book's bibliography, ``book/references.bib`` (formatted by
pybtex, which sphinxcontrib-bibtex installs), so that the box and the bibliography page
say the same.  The run time is the span that book/execute.py fills in when the notebook
has finished.
"""

from __future__ import annotations

import csv
import datetime as _dt
import html
import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd

from credal.chapters._display import RUNTIME_CLASS, format_duration, previous_run_time
from credal.chapters._verdicts import CAUSES, NOT_COMPARABLE, UNKNOWN_CAUSE

__all__ = ["PREFIX", "Claim", "bib_reference", "claim_box", "claim_verdicts", "matches",
           "provenance", "read_claims"]

_ROOT = Path(__file__).resolve().parents[2]
#: a quantity name ending in this matches every quantity that starts with the rest
PREFIX = "\u2026"
_CLAIM_VERDICTS = ("reproduced", "differs", NOT_COMPARABLE)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper: its place, its words and the headline rows it rests on."""

    chapter: str
    order: int
    text: str
    quantities: tuple

    def rows(self, names) -> list:
        """The names among ``names`` that this claim rests on (:func:`matches`)."""
        return [q for q in names if any(matches(p, q) for p in self.quantities)]


def matches(pattern: str, quantity: str) -> bool:
    """Whether a claim's ``pattern`` names ``quantity``: equal, or a prefix of it when the
    pattern ends with :data:`PREFIX`."""
    pattern, quantity = pattern.strip(), str(quantity).strip()
    if pattern.endswith(PREFIX):
        return quantity.startswith(pattern[:-1].rstrip()) if pattern[:-1].strip() else False
    return pattern == quantity


def read_claims(chapter: str, root=None) -> tuple:
    """The claims of one chapter, in order, from ``data/published/claims.csv``.

    Raises
    ------
    KeyError
        When the file has no claim for ``chapter`` (the message lists the chapters it has).
    """
    path = Path(root or _ROOT) / "data" / "published" / "claims.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = sorted((Claim(r["chapter"], int(r["order"]), r["claim"].strip(),
                        tuple(p.strip() for p in r["quantities"].split("|") if p.strip()))
                  for r in rows if r["chapter"] == chapter), key=lambda c: c.order)
    if not out:
        known = sorted({r["chapter"] for r in rows})
        raise KeyError(f"{path.name} has no claim for chapter {chapter!r}; it has {known}")
    return tuple(out)


def _cause_kind(cause: str) -> str:
    """The kind of a row's cause (one of CAUSES, or unknown), from ``"kind: evidence"``."""
    text = str(cause or "").strip()
    return next((c for c in CAUSES if text.startswith(c)), UNKNOWN_CAUSE)


def claim_verdicts(headline: pd.DataFrame, claims) -> pd.DataFrame:
    """One row per claim: its verdict, the counts of its rows' verdicts and the causes.

    Parameters
    ----------
    headline : DataFrame
        The chapter's judged headline rows (``quantity``, ``verdict``, ``cause``), as
        ``HEADLINE.judge(tables)`` returns them.
    claims : sequence of Claim
        The chapter's claims (:func:`read_claims`).

    Returns
    -------
    DataFrame
        Columns ``order``, ``claim``, ``verdict`` (reproduced / differs / not comparable),
        ``rows``, ``reproduced``, ``differs``, ``other`` (not comparable or fitted),
        ``causes`` (``"protocol or data (3)"``, for differing rows) and ``evidence`` (the
        first differing row's cause in full).

    A claim none of whose rows this run computed (a small profile may leave some data
    sets out) is *not comparable*, with 0 rows; that every claim names declared rows is
    checked against the chapters' ``HEADLINE`` by the tests.
    """
    names = headline["quantity"].astype(str).tolist()
    out = []
    for c in claims:
        rows = headline[headline["quantity"].astype(str).isin(c.rows(names))]
        v = rows["verdict"].astype(str)
        n_rep, n_diff = int((v == "reproduced").sum()), int((v == "differs").sum())
        differing = rows.loc[v == "differs", "cause"]
        kinds = differing.map(_cause_kind).value_counts()
        verdict = ("reproduced" if len(rows) and n_rep == len(rows) else "differs" if n_diff
                   else NOT_COMPARABLE)
        out.append({"order": c.order, "claim": c.text, "verdict": verdict, "rows": len(rows),
                    "reproduced": n_rep, "differs": n_diff,
                    "other": len(rows) - n_rep - n_diff,
                    "causes": ", ".join(f"{k} ({n})" for k, n in kinds.items()),
                    "evidence": str(differing.iloc[0]) if len(differing) else ""})
    return pd.DataFrame(out)


@lru_cache(maxsize=None)
def _bibliography(path: str):
    from pybtex.database import parse_file

    return parse_file(path, bib_format="bibtex")


def bib_reference(key: str, root=None) -> str:
    """The full reference of ``key`` in ``book/references.bib`` as HTML (DOI and URL
    linked), formatted as the bibliography page formats it (pybtex's plain style)."""
    from pybtex.backends.html import Backend
    from pybtex.style.formatting.plain import Style

    bib = _bibliography(str(Path(root or _ROOT) / "book" / "references.bib"))
    if key not in bib.entries:
        raise KeyError(f"book/references.bib has no entry {key!r}; add it there")
    entry = next(iter(Style().format_entries([bib.entries[key]])))
    return entry.text.render(Backend()).replace("\n", " ")


def provenance(root=None) -> dict:
    """``commit`` (short hash, ``+`` when the tree has changes), ``version`` (of the
    ``credal-compendium`` distribution) and ``date`` (today, UTC) of this run."""
    from importlib import metadata

    root = Path(root or _ROOT)

    def git(*args):
        try:
            done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                                  timeout=20)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if commit != "unknown" and git("status", "--porcelain", "--untracked-files=no"):
        commit += "+"
    try:
        version = metadata.version("credal-compendium")
    except metadata.PackageNotFoundError:
        version = "not installed"
    return {"commit": commit, "version": version,
            "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")}


def _badge(verdict: str) -> str:
    cls = verdict.replace(" ", "-")
    return f'<span class="credal-verdict credal-v-{cls}">{html.escape(verdict)}</span>'


def _claim_item(row) -> str:
    if row.rows == 0:
        detail = "no number of this claim computed at this profile"
    elif row.verdict == "reproduced":
        detail = f"{row.rows} number{'s' if row.rows != 1 else ''}"
    else:
        detail = f"{row.reproduced} of {row.rows} numbers reproduced" + (
            f", {row.other} not comparable" if row.other else "")
    if row.causes:
        detail += f"; cause: {row.causes}"
    title = f' title="{html.escape(row.evidence)}"' if row.evidence else ""
    return (f'<li class="credal-claim"><span class="credal-claim-text">'
            f'{html.escape(row.claim)}</span> {_badge(row.verdict)} '
            f'<span class="credal-claim-detail"{title}>{html.escape(detail)}</span></li>')


def claim_box(chapter: str, headline: pd.DataFrame, *, cite: str, mapping=None,
              profile=None, root=None):
    """The claim box of a paper chapter, as an object a notebook glues (``claims``) and
    shows under its title with ``{glue} claims``.

    Parameters
    ----------
    chapter : str
        The notebook's name (its claims in ``data/published/claims.csv``, its rerun command).
    headline : DataFrame
        ``HEADLINE.judge(tables)``: the rows the claims rest on.
    cite : str
        The paper's key in ``book/references.bib``.
    mapping : list of (str, str), optional
        Pairs (the paper's item, where this chapter shows it), listed in a folded block.
    profile : str, optional
        Default ``$CREDAL_PROFILE`` (set by book/execute.py), else ``"paper"``.
    root : path, optional
        Project root (default: the package's checkout).

    Returns
    -------
    IPython.display.HTML
    """
    from IPython.display import HTML

    profile = profile or os.environ.get("CREDAL_PROFILE") or "paper"
    table = claim_verdicts(headline, read_claims(chapter, root))
    counts = headline["verdict"].astype(str).value_counts()
    before = previous_run_time(chapter, profile, root or Path.cwd())
    runtime = (f"{format_duration(before)} (previous run)" if before is not None
               else "not measured yet (book/execute.py measures it)")
    prov = provenance(root)
    items = "".join(_claim_item(r) for r in table.itertuples(index=False))
    tally = ", ".join(f"{counts.get(k, 0)} {k}" for k in ("reproduced", "differs",
                                                          NOT_COMPARABLE, "fitted")
                      if counts.get(k, 0))
    parts = ['<div class="credal-claims admonition note">',
             '<p class="admonition-title">The paper, its claims and our verdicts</p>',
             f'<p class="credal-claims-ref">{bib_reference(cite, root)}</p>',
             f'<ol class="credal-claims-list">{items}</ol>',
             f'<p class="credal-claims-tally">The claims rest on this chapter\'s '
             f'{len(headline)} <a href="reproduction-report.html">headline numbers</a> '
             f'(the reproduction report\'s rows for this paper): {html.escape(tally)}.</p>',
             f'<p class="credal-claims-run">Rerun: <code>make notebook NB={html.escape(chapter)} '
             f'PROFILE={html.escape(profile)}</code> \u00b7 profile <code>{html.escape(profile)}'
             f'</code>, run time <span class="{RUNTIME_CLASS}">{runtime}</span> \u00b7 '
             f'commit <code>{prov["commit"]}</code>, credal {html.escape(prov["version"])}, '
             f'run on {prov["date"]}</p>']
    if mapping:
        li = "".join(f"<li>{html.escape(str(a))} \u2192 " + (
            f'<a href="#{html.escape(str(b[1]))}">{html.escape(str(b[0]))}</a>'
            if isinstance(b, (tuple, list)) else html.escape(str(b))) + "</li>"
            for a, b in mapping)
        parts.append('<details class="credal-claims-map"><summary>Where the paper\'s tables '
                     f'and figures are in this chapter</summary><ul>{li}</ul></details>')
    parts.append("</div>")
    return HTML("".join(parts))
