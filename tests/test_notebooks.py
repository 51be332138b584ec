"""Conventions of the chapter sources: thin notebooks with a literal parameters cell."""

import ast
import re
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


def _imported_modules(path):
    """Every module a notebook imports (``import a.b`` and ``from a.b import c``)."""
    out = set()
    for cell in _code_cells(path):
        src = "\n".join(l for l in cell.source.splitlines() if not l.lstrip().startswith("%"))
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_notebook_imports_the_core_and_its_own_chapter(path):
    """A notebook uses the core library, its own chapter module and the chapters' shared
    display (credal.chapters._display), no other chapter's module."""
    own = "credal.chapters." + path.stem.replace("-", "_")
    shared = "credal.chapters._display"  # what every chapter shares (tables, box, style)
    for mod in _imported_modules(path):
        if mod.startswith("credal.chapters") and mod != "credal.chapters":
            assert mod in (own, shared) or mod.startswith(own + "."), \
                f"{path.name} imports {mod}; a notebook may import only {own} and {shared}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_notebook_has_no_functions_or_classes(path):
    """Definitions belong in the chapter module, where they are tested."""
    for cell in _code_cells(path):
        src = "\n".join(l for l in cell.source.splitlines() if not l.lstrip().startswith("%"))
        for node in ast.walk(ast.parse(src)):
            assert not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)), \
                f"{path.name}: move this {type(node).__name__} into credal/chapters/"


def test_every_notebook_has_a_chapter_module_and_back():
    chapters = {p.stem for p in (ROOT / "credal" / "chapters").glob("*.py")
                if not p.stem.startswith("_")}
    notebooks = {p.stem.replace("-", "_") for p in SOURCES}
    # the introduction and the tutorial use the core library only
    assert chapters == notebooks - {"introduction", "tutorial"}


def test_core_never_imports_chapters():
    """credal/ outside credal/chapters/ is the library; it must not depend on a chapter."""
    for path in sorted((ROOT / "credal").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                if node.level:  # relative: from . import chapters / from .chapters import x
                    names = [f"credal.{n}" for n in names]
            assert not any(n.startswith("credal.chapters") for n in names), \
                f"{path.name} imports {names}: the core never imports credal.chapters"


def test_no_machine_path_in_the_project():
    """Shared material is found at ../shared relative to the project root, never by an
    absolute path of one machine (a root folder such as work, root, home or tmp)."""
    machine_path = re.compile(r"""(?:^|["'\s(])/(?:work|root|home|tmp)/""", re.M)
    files = [p for d in ("credal", "tests", "benchmarks", "book", "notebooks")
             for p in (ROOT / d).rglob("*") if p.suffix in {".py", ".md", ".yml", ".toml"}
             and "_build" not in p.parts and "generated" not in p.parts]
    files += [ROOT / "Makefile", ROOT / "README.md", ROOT / "pyproject.toml"]
    for path in files:
        found = machine_path.search(path.read_text(errors="replace"))
        assert found is None, f"{path.relative_to(ROOT)} names the machine path {found.group()!r}"


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


def test_offline_checker_flags_machine_paths_and_path_objects(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_offline", ROOT / "book" / "check_offline.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (tmp_path / "generated").mkdir()
    (tmp_path / "api").mkdir()
    (tmp_path / "generated" / "ok.html").write_text("<p>results/performance/peers.csv</p>")
    (tmp_path / "api" / "doc.html").write_text("<em>PosixPath('/usr/share/java/weka.jar')</em>")
    assert mod.leaks(tmp_path) == []  # a documented default is not a cell's output
    (tmp_path / "generated" / "cell.html").write_text("<pre>PosixPath('results/x.csv')</pre>")
    (tmp_path / "api" / "root.html").write_text(f"<p>{mod._ROOT}results/x.csv</p>")
    assert [p.split(":")[0] for p in mod.leaks(tmp_path)] == ["api/root.html", "generated/cell.html"]


def test_execute_rejects_parameters_a_notebook_does_not_declare(tmp_path, monkeypatch):
    import importlib.util
    import subprocess

    spec = importlib.util.spec_from_file_location("execute", ROOT / "book" / "execute.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ran = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: ran.append(a))
    nb = SOURCES[0].stem
    declared = sorted(_parameters(SOURCES[0]))
    bad = tmp_path / "bad.yml"
    bad.write_text(yaml.safe_dump({nb: {declared[0] + "_misspelt": 1}}))
    with pytest.raises(SystemExit) as info:
        mod.main(["--profile", str(bad), "--only", nb])
    msg = str(info.value.code)
    assert nb in msg and f"{declared[0]}_misspelt" in msg and str(declared) in msg
    assert ran == []  # nothing was executed
    assert mod.declared_parameters(jupytext.read(SOURCES[0]), nb) == declared
