"""book/execute.py checks a profile's parameter values against the notebooks' documented
defaults before papermill runs anything (issue 29)."""

import importlib.util
import subprocess
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("book_execute", ROOT / "book" / "execute.py")
execute = importlib.util.module_from_spec(spec)
spec.loader.exec_module(execute)


@pytest.mark.parametrize("values, said", [
    ({"s_values": "[1, 2]"}, r"'s_values' must be a list.*-y \"s_values: \[1\.0, 2\.0\]\""),
    ({"max_n": "200"}, r"'max_n' must be an integer, like its default 200; got '200' \(str\)"),
    ({"max_n": True}, r"'max_n' must be an integer"),
    ({"simplex_s": "2"}, r"'simplex_s' must be a number"),
])
def test_a_profile_value_of_the_wrong_type_stops_before_papermill(tmp_path, monkeypatch,
                                                                   values, said):
    profile = tmp_path / "wrong.yml"
    profile.write_text(yaml.safe_dump({"introduction": values}))
    ran = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: ran.append(a) or 1 / 0)
    with pytest.raises(SystemExit) as exc:
        execute.main(["--profile", str(profile), "--only", "introduction"])
    assert not ran
    assert "notebook introduction" in str(exc.value)
    import re
    assert re.search(said, str(exc.value)), exc.value


def test_values_of_the_documented_types_pass_and_every_profile_is_well_typed():
    defaults = execute.parameter_defaults(jupytext.read(ROOT / "notebooks" / "introduction.md"),
                                          "introduction")
    assert execute.parameter_type_errors(defaults, {"s_values": [1, 2], "max_n": 10,
                                                    "simplex_s": 3, "observed_fraction": 0.5}) == []
    for path in sorted((ROOT / "notebooks" / "params").glob("*.yml")):
        for name, values in (yaml.safe_load(path.read_text()) or {}).items():
            nb = jupytext.read(ROOT / "notebooks" / f"{name}.md")
            assert execute.parameter_type_errors(execute.parameter_defaults(nb, name),
                                                 values or {}) == [], (path.name, name)


def _jobs(*names, done=()):
    jobs = [execute._Job(n, ["true"]) for n in names]
    for j in jobs:
        j.returncode = 0 if j.name in done else None
    return jobs


def test_two_at_a_time_keeps_the_order_the_chapters_need():
    """Issue 27: with --jobs 2 the set-valued chapter waits for the leaderboard (its fold
    cache), the report for every chapter before it, and the performance chapter for every
    other one and runs alone."""
    names = ("likelihood-ncc", "leaderboard", "set-valued", "reproduction-report", "performance")
    jobs = _jobs(*names)
    by = {j.name: j for j in jobs}
    ready = lambda name, running=(): execute._ready(by[name], jobs, [by[r] for r in running])
    assert ready("likelihood-ncc") and ready("leaderboard", ["likelihood-ncc"])
    assert not ready("set-valued", ["likelihood-ncc"])            # the leaderboard runs
    by["leaderboard"].returncode = 0
    assert ready("set-valued", ["likelihood-ncc"])
    assert not ready("reproduction-report", ["set-valued"])       # chapters still running
    assert not ready("performance")                               # the report has not run
    for j in jobs[:4]:
        j.returncode = 0
    assert ready("performance")
    jobs = _jobs(*names, done=names[:4])
    by = {j.name: j for j in jobs}
    assert not execute._ready(by["performance"], jobs, [by["likelihood-ncc"]])   # alone
    assert not execute._ready(by["likelihood-ncc"], jobs, [by["performance"]])


def test_the_timings_file_keeps_cpu_time_and_the_run_rows(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("notebook,profile,seconds\na,paper,10\n")   # a file of an older layout
    execute._record_time(f, {"notebook": "b", "profile": "paper", "seconds": 5,
                             "cpu_seconds": 9, "jobs": 2})
    execute._record_time(f, {"notebook": execute.RUN_ROWS[1], "profile": "paper",
                             "seconds": 12, "jobs": 2})
    import csv
    rows = list(csv.DictReader(f.open()))
    assert [r["notebook"] for r in rows] == ["a", "b", "(whole run)"]
    assert rows[0]["cpu_seconds"] == "" and rows[1]["cpu_seconds"] == "9"


def test_the_kernels_are_compiled_before_the_chapters_that_call_them():
    jobs = _jobs(execute.WARM_UP, "introduction", "datasets", "likelihood-ncc")
    by = {j.name: j for j in jobs}
    warm = [by[execute.WARM_UP]]
    assert execute._ready(by["introduction"], jobs, warm)
    assert execute._ready(by["datasets"], jobs, warm)
    assert not execute._ready(by["likelihood-ncc"], jobs, warm)
    by[execute.WARM_UP].returncode = 0
    assert execute._ready(by["likelihood-ncc"], jobs, [by["datasets"]])


def test_the_longest_chapters_start_first_and_the_summaries_last():
    names = ["introduction", "datasets", "tutorial", "likelihood-ncc", "credal-aode",
             "exact-model-averaging", "robust-bayes", "leaderboard", "set-valued",
             "reproduction-report", "performance"]
    order = [p.name[:-3] for p in execute._start_order([Path(f"{n}.md") for n in names])]
    assert order == ["introduction", "datasets", "exact-model-averaging", "leaderboard",
                     "credal-aode", "likelihood-ncc", "tutorial", "robust-bayes", "set-valued",
                     "reproduction-report", "performance"]


def test_a_chapter_beside_another_gets_one_worker_and_alone_the_profiles():
    """Issue 27: two notebooks of two joblib workers each would be four processes on two
    cores; a notebook started beside another (running, or ready to start) gets n_jobs=1,
    one started alone the profile's value; a notebook without n_jobs is left as it is."""
    names = (execute.WARM_UP, "exact-model-averaging", "leaderboard", "set-valued",
             "tutorial", "reproduction-report", "performance")
    jobs = _jobs(*names, done=(execute.WARM_UP,))
    by = {j.name: j for j in jobs}
    for j in jobs[1:]:
        j.workers = None if j.name in ("tutorial", "reproduction-report") else 2
    waiting = jobs[1:]
    share = lambda name, running=(), n=2: execute._share(
        by[name], waiting, jobs, [by[r] for r in running], n)
    assert share("exact-model-averaging") == 1                  # the leaderboard is ready too
    assert share("leaderboard", ["exact-model-averaging"]) == 1  # beside a running chapter
    assert share("tutorial", ["leaderboard"]) is None            # no n_jobs parameter
    assert share("leaderboard", ["exact-model-averaging"], n=1) == 2   # one at a time
    for name in names[1:6]:
        by[name].returncode = 0
    waiting = [by["performance"]]
    assert share("performance") == 2                             # alone, last
    by["performance"].returncode = None
    waiting = [by["set-valued"], by["performance"]]
    by["set-valued"].returncode = None
    assert share("set-valued") == 2                # nothing runs or can start beside it
