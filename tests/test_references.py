"""References and citation (issue 28): one bibliography, cited with roles; CITATION.cff;
every paper chapter shows its claim box under its title."""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CITE = re.compile(r"\{cite:[pt]\}`([^`]+)`")
PAPER_CHAPTERS = ["likelihood-ncc", "credal-aode", "exact-model-averaging", "robust-bayes",
                  "independence-scores", "credal-trees"]


def _bib_keys():
    return set(re.findall(r"^@\w+\{([^,]+),", (ROOT / "book" / "references.bib").read_text(),
                          re.M))


def test_every_cited_key_is_in_the_bibliography():
    keys = _bib_keys()
    sources = list((ROOT / "notebooks").glob("*.md")) + list((ROOT / "book").glob("*.md"))
    cited = {k.strip() for p in sources for group in CITE.findall(p.read_text())
             for k in group.split(",")}
    assert cited, "the book cites nothing"
    assert cited - keys == set()


def test_the_papers_and_the_named_works_are_in_the_bibliography():
    keys = _bib_keys()
    assert {"antonucci2011likelihood", "corani2012aode", "dash2002exact", "ramoni2001robust",
            "moral2005discovering", "abellan2003building", "zaffalon2012evaluating"} <= keys
    bib = (ROOT / "book" / "references.bib").read_text()
    assert "doi     = {10.1016/S0004-3702(00)00085-0}" in bib


def test_book_config_uses_the_bibliography():
    cfg = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert "sphinxcontrib.bibtex" in cfg["sphinx"]["extra_extensions"]
    assert cfg["sphinx"]["config"]["bibtex_bibfiles"] == ["references.bib"]
    assert "credal_provenance" in cfg["sphinx"]["local_extensions"]
    toc = (ROOT / "book" / "_toc.yml").read_text()
    assert "file: bibliography" in toc and "file: execution-status" in toc
    assert "sphinxcontrib-bibtex" in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize("chapter", PAPER_CHAPTERS)
def test_each_paper_chapter_cites_its_paper_and_shows_the_box_first(chapter):
    text = (ROOT / "notebooks" / f"{chapter}.md").read_text()
    body = text.split("\n# ", 1)[1]
    box, params = body.find("```{glue} claims"), body.find(":tags: [parameters]")
    assert 0 < box < params, "the claim box comes right under the title, the parameters after"
    assert body[:box].count("\n") <= 2
    assert CITE.search(text), f"{chapter} names its paper without a citation role"
    assert "_display.claim_box(NB, h, cite=" in text


def test_citation_cff():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version", "license"} <= set(cff)
    assert all(set(a) & {"name", "family-names"} for a in cff["authors"])
    assert any(r.get("doi") == "10.1016/S0004-3702(00)00085-0" for r in cff["references"])
