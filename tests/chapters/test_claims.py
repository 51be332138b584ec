"""The claim box (issue 28): claims as data, their verdicts from the headline rows, the
reference from the bibliography, and the box itself."""

import importlib
import re
from pathlib import Path

import pandas as pd
import pytest

from credal.chapters import _claims, _display

ROOT = Path(__file__).resolve().parents[2]
#: paper chapter -> its key in book/references.bib (as the notebooks pass it)
PAPERS = {"likelihood-ncc": "antonucci2011likelihood", "credal-aode": "corani2012aode",
          "exact-model-averaging": "dash2002exact", "robust-bayes": "ramoni2001robust",
          "independence-scores": "moral2005discovering",
          "credal-trees": "moral2005discovering"}


def _declared(chapter):
    module = importlib.import_module("credal.chapters." + chapter.replace("-", "_"))
    return [r.quantity for r in module.HEADLINE.rows]


@pytest.mark.parametrize("chapter", sorted(PAPERS))
def test_each_paper_has_three_to_six_claims_on_declared_rows(chapter):
    claims = _claims.read_claims(chapter)
    assert 3 <= len(claims) <= 6
    assert [c.order for c in claims] == list(range(1, len(claims) + 1))
    names = _declared(chapter)
    for c in claims:
        stale = [p for p in c.quantities if not any(_claims.matches(p, q) for q in names)]
        assert not stale, f"claim {c.order} of {chapter} names undeclared rows {stale}"
        assert c.text and len(c.text) <= 140, "one line each"


def test_claims_are_in_our_own_words():
    """No claim repeats eight consecutive words of its paper (when the papers are here)."""
    papers = ROOT.parent / "shared" / "papers"
    if not papers.is_dir():
        pytest.skip("the papers' texts are not next to the project")
    text = " ".join(p.read_text(errors="replace") for p in papers.glob("*.txt")).lower()
    words = " ".join(re.findall(r"[a-z0-9]+", text))
    for chapter in PAPERS:
        for c in _claims.read_claims(chapter):
            w = re.findall(r"[a-z0-9]+", c.text.lower())
            copied = [" ".join(w[i:i + 8]) for i in range(len(w) - 7)
                      if " ".join(w[i:i + 8]) in words]
            assert not copied, (chapter, c.order, copied)


def test_unknown_chapter_is_a_clear_error():
    with pytest.raises(KeyError, match="no claim for chapter 'nope'"):
        _claims.read_claims("nope")


@pytest.mark.parametrize("pattern, quantity, hit", [
    ("Table 1: Det of…", "Table 1: Det of NCC, mean", True),
    ("Table 1: Det of…", "Table 1, d = 25: Det of NCC", False),
    ("BD2: total errors at N = 100", "BD2: total errors at N = 1000", False),
    ("BD2: total errors at N = 100", "BD2: total errors at N = 100", True),
    ("…", "anything", False)])
def test_matches_is_exact_or_an_explicit_prefix(pattern, quantity, hit):
    assert _claims.matches(pattern, quantity) is hit


def _headline(verdicts, causes=None):
    causes = causes or [""] * len(verdicts)
    return pd.DataFrame({"quantity": [f"q{i}" for i in range(len(verdicts))],
                         "verdict": verdicts, "cause": causes})


def test_claim_verdict_rule():
    """reproduced when every row is; differs when any row differs (with the causes);
    otherwise not comparable; a claim with no row computed is not comparable."""
    claims = [_claims.Claim("x", 1, "all", ("q0", "q1")),
              _claims.Claim("x", 2, "one differs", ("q1", "q2", "q3")),
              _claims.Claim("x", 3, "one not comparable", ("q0", "q4")),
              _claims.Claim("x", 4, "none computed", ("q9",))]
    h = _headline(["reproduced", "reproduced", "differs", "differs", "not comparable"],
                  ["", "", "protocol or data: the bins", "unknown", ""])
    out = _claims.claim_verdicts(h, claims).set_index("order")
    assert out["verdict"].tolist() == ["reproduced", "differs", "not comparable",
                                       "not comparable"]
    assert out.loc[2, "causes"] == "protocol or data (1), unknown (1)"
    assert out.loc[2, "evidence"] == "protocol or data: the bins"
    assert out.loc[2, ["rows", "reproduced", "differs"]].tolist() == [3, 1, 2]
    assert out.loc[4, "rows"] == 0


@pytest.mark.parametrize("key", sorted(set(PAPERS.values())))
def test_reference_comes_from_the_bibliography(key):
    text = _claims.bib_reference(key)
    assert "20" in text or "undated" in text
    with pytest.raises(KeyError, match="no entry"):
        _claims.bib_reference("no-such-key")


def test_reference_links_the_doi():
    assert '<a href="https://doi.org/10.1016/S0004-3702(00)00085-0">' in \
        _claims.bib_reference("ramoni2001robust")


def test_provenance_names_commit_version_and_date():
    p = _claims.provenance()
    assert set(p) == {"commit", "version", "date"}
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", p["date"])


def test_the_box(tmp_path, monkeypatch):
    monkeypatch.setenv("CREDAL_PROFILE", "smoke")
    names = _declared("credal-trees")
    h = pd.DataFrame({"quantity": names, "verdict": ["reproduced"] * len(names),
                      "cause": [""] * len(names)})
    h.loc[2, ["verdict", "cause"]] = ["differs", "protocol or data: in-sample figures"]
    box = _display.claim_box("credal-trees", h, cite="moral2005discovering",
                             mapping=[("TU1", ("the TU1 section", "tu1"))], root=None)
    html = box.data
    assert html.index("credal-claims-ref") < html.index("credal-claim\"")
    assert html.count('<li class="credal-claim">') == len(_claims.read_claims("credal-trees"))
    assert f'<span class="{_display.RUNTIME_CLASS}">' in html  # filled by book/execute.py
    assert "make notebook NB=credal-trees PROFILE=smoke" in html
    assert "credal-v-differs" in html and 'title="protocol or data: in-sample figures"' in html
    assert 'href="reproduction-report.html"' in html and 'href="#tu1"' in html
    assert "commit <code>" in html and "credal " in html
