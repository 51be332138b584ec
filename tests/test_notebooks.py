"""Conventions of the chapter sources: thin notebooks with a literal parameters cell."""

import ast
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "notebooks").glob("*.md"))
PROFILES = sorted((ROOT / "notebooks" / "params").glob("*.yml"))


def _code_cells(path):
    nb = jupytext.read(path)
    return [c for c in nb.cells if c.cell_type == "code"]


def _parameters(path):
    first = _code_cells(path)[0]
    assert "parameters" in first.metadata.get("tags", []), \
        f"{path.name}: the first code cell must be tagged 'parameters'"
    out = {}
    for node in ast.parse(first.source).body:
        assert isinstance(node, ast.Assign) and len(node.targets) == 1, \
            f"{path.name}: the parameters cell may hold only `name = literal` lines"
        out[node.targets[0].id] = ast.literal_eval(node.value)  # raises if not a literal
    return out


def test_there_are_chapters():
    assert {p.stem for p in SOURCES} >= {"introduction", "datasets"}
    assert {p.stem for p in PROFILES} >= {"smoke", "paper"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_parameters_cell_is_literal_and_first(path):
    assert _parameters(path)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_notebook_is_thin(path):
    """No experiment loop, function or class lives in a notebook: they belong in credal."""
    for cell in _code_cells(path):
        src = "\n".join(l for l in cell.source.splitlines() if not l.lstrip().startswith("%"))
        for node in ast.walk(ast.parse(src)):
            assert not isinstance(node, (ast.For, ast.While, ast.FunctionDef, ast.ClassDef,
                                         ast.AsyncFunctionDef)), \
                f"{path.name}: move this {type(node).__name__} into the credal library"


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_profiles_name_existing_parameters(profile):
    sections = yaml.safe_load(profile.read_text()) or {}
    names = {p.stem: p for p in SOURCES}
    for nb, params in sections.items():
        assert nb in names, f"{profile.name}: no notebook called {nb}"
        unknown = set(params or {}) - set(_parameters(names[nb]))
        assert not unknown, f"{profile.name}/{nb}: unknown parameters {sorted(unknown)}"


def test_every_chapter_is_in_the_toc():
    toc = (ROOT / "book" / "_toc.yml").read_text()
    for p in SOURCES:
        assert f"generated/{p.stem}" in toc, f"{p.stem} is not in book/_toc.yml"


def test_offline_checker_flags_external_requests(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_offline", ROOT / "book" / "check_offline.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (tmp_path / "ok.html").write_text(
        '<a href="https://example.org">link</a><script src="_static/mathjax/tex-chtml.js"></script>'
        "<p>\\(x\\)</p>")
    assert mod.scan(tmp_path) == ([], [])
    (tmp_path / "bad.html").write_text(
        '<link rel="stylesheet" href="https://fonts.example.com/a.css">'
        '<script src="//cdn.example.com/x.js"></script><img src="http://x.org/i.png">')
    (tmp_path / "s.css").write_text("@font-face{src:url('https://fonts.example.com/f.woff')}")
    problems, nomath = mod.scan(tmp_path)
    assert len(problems) == 4 and nomath == []
    (tmp_path / "m.html").write_text('<p>\\(x\\)</p><script src="https://cdn.x/mathjax.js"></script>')
    assert mod.scan(tmp_path)[1] == ["m.html"]
