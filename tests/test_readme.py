"""Every command the README shows runs as written (at a small scale where it is heavy).

A documented command that breaks must fail a test: the Python example is executed
as it stands, the papermill rerun example is run on the introduction chapter, and the
`make` targets the README names must exist with the notebooks and profiles they use.
"""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BIN = Path(sys.executable).parent


def _blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def test_readme_has_the_examples_this_file_runs():
    assert len(_blocks("python")) >= 1
    numeric = _blocks("python")[0]  # the numeric-data path comes first
    assert "load_iris(return_X_y=True)" in numeric and "credal.make_pipeline(" in numeric
    assert any("papermill" in b for b in _blocks("bash"))
    assert any("make notebook" in b for b in _blocks("bash"))


def test_python_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # its fold cache lands in the temporary folder
    ns = {}
    for block in _blocks("python"):
        exec(compile(block, "README.md", "exec"), ns)
    assert ns["sets"].shape == (5, 3) and ns["sets"].any(axis=1).all()  # arrays in, sets out
    summary = ns["res"].summary()
    assert {"u65", "u80", "determinacy"} <= set(summary.columns)
    assert set(summary.index.get_level_values("classifier")) == {"NCC", "NBC"}
    assert "NCC" in capsys.readouterr().out


def _commands(word):
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if word in line:
                yield line


def test_papermill_example_runs(tmp_path):
    (tmp_path / "notebooks").symlink_to(ROOT / "notebooks")
    (tmp_path / "build").mkdir()
    lines = list(_commands(".venv/bin/"))
    assert any("papermill" in line for line in lines)
    for line in lines:
        argv = shlex.split(line)
        argv[0] = str(BIN / Path(argv[0]).name)  # the test's own environment
        if Path(argv[0]).name == "papermill":
            argv += ["--cwd", str(ROOT), "-k", "python3"]
        res = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, f"{line}\n{res.stderr[-3000:]}"
    assert (tmp_path / "out.ipynb").is_file()


@pytest.mark.parametrize("line", list(_commands("make ")), ids=lambda s: s)
def test_make_targets_exist(line):
    argv = shlex.split(line)
    res = subprocess.run(argv[:1] + ["-n"] + argv[1:], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, f"{line}\n{res.stderr}"
    for arg in argv[2:]:
        key, _, value = arg.partition("=")
        if key == "NB":
            assert (ROOT / "notebooks" / f"{value}.md").is_file(), line
        if key == "PROFILE":
            assert (ROOT / "notebooks" / "params" / f"{value}.yml").is_file(), line
