"""Execute the compendium's notebooks with papermill at a parameter profile.

Each ``notebooks/<name>.md`` (a jupytext MyST notebook with a cell tagged
``parameters``) is converted to ``build/notebooks/<name>.ipynb``, its section of
``notebooks/params/<profile>.yml`` is written to ``build/params/<profile>/<name>.yml``
and passed to papermill with ``-f``, and the executed notebook lands in
``book/generated/<name>.ipynb`` where the book's table of contents expects it.
A failing notebook stops the build (non-zero exit).  With ``--jobs 2`` two notebooks
run at once (the longest started first; the set-valued chapter after the leaderboard,
whose fold cache it reuses; the reproduction report after every chapter; the
performance chapter last and alone, since it times code): a chapter that leaves a core
idle (one-core stretches: imports, tables, figures, serial studies) lends it to the
next.  First of all, ``book/compile_kernels.py`` compiles credal's numba kernels once
(beside the chapters that call none), so that no two processes compile them at once.
The wall and CPU time of each notebook are written to ``results/_timings/<profile>.csv``
as soon as it finishes, with the run's wall time before the performance chapter starts,
so that this chapter reads them.

What the book shows of a run: the notebook's documented default parameter cell, folded
(``hide-input``) so that a reader can open it, followed by papermill's injected cell
labelled with the profile; the claim box (``credal.chapters._claims.claim_box``)
with the time measured here written into it.  The kernel sees ``CREDAL_PROFILE`` (the
profile's name, for the box's rerun command).  ipykernel's warning about TCP without
encryption, the same for every kernel, is printed once per run of this script.

Usage: ``python book/execute.py --profile smoke [--only datasets] [--jobs 2]``; ``--profile`` also
takes the path of a YAML file with the same layout.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import nbformat
import yaml

from credal.chapters._display import format_duration, RUNTIME_CLASS

ROOT = Path(__file__).resolve().parents[1]
#: first line of the documented default parameters cell as the book shows it
DEFAULTS_LABEL = "# Default parameters of this chapter (the values of this run follow)"
#: printed by ipykernel at the start of every kernel papermill launches
TCP_WARNING = "Kernel is running over TCP without encryption"


def _in_toc_order(sources: list[Path]) -> list[Path]:
    """Notebooks in the order of book/_toc.yml, so that a chapter summarising the
    others (the reproduction report) runs after them; unlisted ones come last."""
    toc = (ROOT / "book" / "_toc.yml").read_text()
    order = {}
    for line in toc.splitlines():
        line = line.strip()
        if line.startswith("- file: generated/"):
            order.setdefault(line.split("generated/", 1)[1].strip(), len(order))
    return sorted(sources, key=lambda p: (order.get(p.stem, len(order)), p.stem))


def _show_effective_parameters(path: Path, profile: str) -> None:
    """Show readers both parameter cells: the documented defaults and this run's values.

    The notebook's own cell tagged ``parameters`` (the defaults, with a comment on each)
    is folded (``hide-input``: a reader can open it); papermill's cell tagged
    ``injected-parameters``, which follows it, is labelled with the profile.
    """
    nb = nbformat.read(path, as_version=4)
    tags = [c.metadata.get("tags", []) for c in nb.cells]
    injected = [i for i, t in enumerate(tags) if "injected-parameters" in t]
    if not injected:
        return
    for cell, t in zip(nb.cells, tags):
        if "parameters" in t:
            cell.metadata["tags"] = [x for x in t if x not in ("remove-cell", "remove-input")] \
                + ([] if "hide-input" in t else ["hide-input"])
            if not cell.source.startswith(DEFAULTS_LABEL):
                cell.source = f"{DEFAULTS_LABEL}\n{cell.source}"
    cell = nb.cells[injected[0]]
    body = "\n".join(l for l in cell.source.splitlines() if l.strip() != "# Parameters"
                     and not l.startswith("# Parameters of this run"))
    cell.source = f"# Parameters of this run (profile: {profile})\n{body.strip()}"
    nbformat.write(nb, path)


def _fill_run_time(path: Path, seconds: float) -> int:
    """Write this run's time into the claim box (``credal.chapters._claims.claim_box``
    leaves a ``<span class="credal-runtime">`` with the previous run's
    time, since the box is shown before the notebook has finished).  Returns the number
    of spans filled."""
    nb = nbformat.read(path, as_version=4)
    span = re.compile(r'(<span class="' + RUNTIME_CLASS + r'">)(.*?)(</span>)', re.S)
    text = f"{format_duration(seconds)} (this build)"
    filled = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            # a box displayed, or glued (myst-nb records it as
            # application/papermill.record/text/html) to be pasted at the top
            for key in [k for k in data if k.endswith("text/html")]:
                html = data[key]
                joined = "".join(html) if isinstance(html, list) else html
                new, n = span.subn(lambda m: m.group(1) + text + m.group(3), joined)
                if n:
                    data[key] = new
                    filled += n
    if filled:
        nbformat.write(nb, path)
    return filled


class _StderrFilter:
    """Pass the kernel's stderr through, but the TCP warning only once per process
    (it is the same for every notebook and says nothing about the chapter)."""

    def __init__(self):
        self.seen = False

    def __call__(self, line: str) -> None:
        if TCP_WARNING in line:
            if self.seen:
                return
            self.seen = True
            line = line.rstrip("\n") + " (printed once for all notebooks)\n"
        sys.stderr.write(line)
        sys.stderr.flush()


def parameter_defaults(nb, name: str) -> dict:
    """Name -> documented default (the literal; None where it is not one) of every name
    assigned in the notebook's cell tagged ``parameters``."""
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    if not cells:
        sys.exit(f"notebook {name}: no cell tagged 'parameters'")
    out = {}
    for node in ast.parse(cells[0].source).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(t, ast.Name):
                    try:
                        out[t.id] = ast.literal_eval(node.value)
                    except ValueError:
                        out[t.id] = None
    return out


def declared_parameters(nb, name: str) -> list[str]:
    """Names assigned in the notebook's cell tagged ``parameters`` (papermill only warns
    about others, and the notebook then runs with its defaults)."""
    return sorted(parameter_defaults(nb, name))


#: the types a documented default fixes for its parameter, and how to say them
KINDS = {bool: "True or False", int: "an integer", float: "a number", str: "a string",
         list: "a list"}


def parameter_type_errors(defaults: dict, values: dict) -> list[str]:
    """One message per value whose type differs from its documented default's (an int
    passes for a float; a default that is None or of another type fixes nothing)."""
    errors = []
    for p, v in values.items():
        want = type(defaults.get(p))
        if want in KINDS and type(v) is not want and not (want is float and type(v) is int):
            hint = (f'; papermill takes a list as YAML: -y "{p}: {defaults[p]!r}"'
                    if want is list else "")
            errors.append(f"parameter {p!r} must be {KINDS[want]}, like its default "
                          f"{defaults[p]!r}; got {v!r} ({type(v).__name__}){hint}")
    return errors


def _tool_version(cmd: list[str], pattern: str) -> str:
    """The first match of ``pattern`` in a command's output, or why there is none."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"not available ({type(exc).__name__})"
    m = re.search(pattern, done.stdout + done.stderr)
    return m.group(1) if m else "not available"


def environment() -> dict:
    """The versions of what the chapters ran with: Python, the numerical stack, Weka and
    Java (for the execution-status page; no machine path)."""
    from importlib import import_module

    env = {"Python": ".".join(map(str, sys.version_info[:3]))}
    for name, mod in (("credal", "credal"), ("numpy", "numpy"), ("scipy", "scipy"),
                      ("pandas", "pandas"), ("scikit-learn", "sklearn"), ("numba", "numba"),
                      ("matplotlib", "matplotlib"), ("papermill", "papermill")):
        try:
            env[name] = str(getattr(import_module(mod), "__version__", "unknown"))
        except ImportError:
            env[name] = "not installed"
    jar = os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar")
    env["Weka"] = (_tool_version(["java", "-cp", jar, "weka.core.Version"], r"(\d+\.\d+\.\d+)")
                   if Path(jar).is_file() else "not installed (the performance chapter "
                   "leaves its Weka columns out)")
    env["Java"] = _tool_version(["java", "-version"], r'version "([^"]+)"')
    return env


def _record_build_info(out_dir: Path, profile: str) -> None:
    """``book/generated/_build_info.json``: the profile and environment of this run, read
    by the book's provenance footer and execution-status page (book/_ext)."""
    path = out_dir / "_build_info.json"
    info = {"profile": profile, "environment": environment(),
            "executed": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    path.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="paper")
    parser.add_argument("--only", default="", help="comma-separated notebook names")
    parser.add_argument("--jobs", type=int, default=1,
                        help="notebooks executed at once (the performance chapter always alone)")
    args = parser.parse_args(argv)

    profile_file = ROOT / "notebooks" / "params" / f"{args.profile}.yml"
    if args.profile.endswith((".yml", ".yaml")):
        # a profile file elsewhere (e.g. a draft while writing a chapter)
        profile_file = Path(args.profile).resolve()
        args.profile = profile_file.stem
    if not profile_file.exists():
        known = sorted(p.stem for p in profile_file.parent.glob("*.yml"))
        sys.exit(f"unknown profile {args.profile!r}; known profiles: {known}")
    profile = yaml.safe_load(profile_file.read_text()) or {}

    sources = _in_toc_order(sorted((ROOT / "notebooks").glob("*.md")))
    if args.only:
        wanted = {s.strip() for s in args.only.split(",") if s.strip()}
        missing = wanted - {s.stem for s in sources}
        if missing:
            sys.exit(f"no notebook named {sorted(missing)} in notebooks/")
        sources = [s for s in sources if s.stem in wanted]
    unknown = set(profile) - {s.stem for s in (ROOT / "notebooks").glob("*.md")}
    if unknown:
        sys.exit(f"{profile_file}: sections for unknown notebooks {sorted(unknown)}")

    notebooks = {src.stem: jupytext.read(src) for src in sources}
    for name, nb in notebooks.items():  # every section checked before anything runs
        defaults = parameter_defaults(nb, name)
        declared = sorted(defaults)
        wrong = sorted(set(profile.get(name) or {}) - set(declared))
        if wrong:
            sys.exit(f"{profile_file}: notebook {name} does not declare the parameter(s) "
                     f"{wrong}; its parameters cell declares {declared}")
        errors = parameter_type_errors(defaults, profile.get(name) or {})
        if errors:
            sys.exit(f"{profile_file}: notebook {name}: " + "\n".join(errors))

    out_dir = ROOT / "book" / "generated"
    out_dir.mkdir(parents=True, exist_ok=True)
    tfile = ROOT / "results" / "_timings" / f"{args.profile}.csv"
    # where show_table copies the CSVs; book/_config.yml serves it (html_extra_path)
    (out_dir / "_extra" / "tables").mkdir(parents=True, exist_ok=True)
    stderr_filter = _StderrFilter()
    _record_build_info(out_dir, args.profile)
    jobs = [_Job(WARM_UP, [sys.executable, str(ROOT / "book" / "compile_kernels.py")])]
    for src in _start_order(sources):
        values = profile.get(src.stem) or {}
        defaults = parameter_defaults(notebooks[src.stem], src.stem)
        jobs.append(_Job(src.stem, _command(src, notebooks[src.stem], profile, args.profile,
                                            out_dir), _params_file(args.profile, src.stem),
                         values, values.get("n_jobs", defaults.get("n_jobs"))))
    print(f"[execute] {len(jobs) - 1} notebook(s), at most {args.jobs} at a time", flush=True)
    start = time.perf_counter()
    # the wall time of a run of every notebook is recorded too (rows RUN_ROWS)
    full = not args.only
    failed = _run_jobs(jobs, args.jobs, stderr_filter, args.profile, out_dir, full)
    if failed:
        return failed
    if full:
        _record_time(tfile, {"notebook": RUN_ROWS[1], "profile": args.profile, "jobs": args.jobs,
                             "seconds": round(time.perf_counter() - start, 2)})
    return 0


#: rows of the timings file that are not notebooks: the wall time of a run of every
#: notebook until the performance chapter starts (which that chapter reads: the chapters
#: may run two at a time, so their times do not add up to the wait), and of the whole run
RUN_ROWS = ("(run before performance)", "(whole run)")
#: a notebook that must wait for others: the set-valued chapter reuses the leaderboard's
#: fold cache; the report reads every chapter's results; the performance chapter reads
#: every chapter's time and times code itself, so it runs alone, after all the others
AFTER = {"set-valued": ("leaderboard",)}
#: the job that compiles credal's numba kernels (book/compile_kernels.py), run first; only
#: the notebooks that call no kernel run beside it, the others find the compiled code
WARM_UP, BESIDE_WARM_UP = "(numba kernels)", ("introduction", "datasets")
AFTER_ALL = ("reproduction-report", "performance")
ALONE = ("performance",)


#: the longest chapters at the paper profile (wall time of a fresh clone's run, two at a time:
#: the leaderboard 3.6 min, Dash & Cooper 3.5, Corani & Antonucci 2.4, the likelihood chapter
#: 1.4), started first so that no long chapter is left running alone at the end
LONGEST_FIRST = ("exact-model-averaging", "leaderboard", "credal-aode", "likelihood-ncc")


def _start_order(sources):
    """The notebooks in the order they are started: those that run beside the kernels'
    compilation, then :data:`LONGEST_FIRST`, then the others in table-of-contents order
    (the report and the performance chapter stay last).  Results do not depend on it."""
    rank = {n: i for i, n in enumerate(BESIDE_WARM_UP + LONGEST_FIRST)}
    last = {n: i for i, n in enumerate(AFTER_ALL)}
    key = [(last.get(s.stem, -1), rank.get(s.stem, len(rank)), i) for i, s in enumerate(sources)]
    return [s for _, s in sorted(zip(key, sources), key=lambda t: t[0])]


class _Job:
    def __init__(self, name, cmd, params=None, values=None, workers=None):
        self.name, self.cmd, self.proc, self.thread = name, cmd, None, None
        self.start = self.seconds = self.cpu = None
        self.returncode = None
        # the parameters file, the profile's values, and the notebook's n_jobs (None: it
        # has no such parameter), for :func:`_share`
        self.params, self.values, self.workers = params, values or {}, workers


def _share(job, waiting, jobs, running, n_jobs):
    """The workers (``n_jobs``) ``job`` gets when it starts: with another notebook running
    or ready to start beside it, one (two notebooks with two workers each would be four
    processes on two cores: each computes more slowly and the workers' start-up and
    transfers are extra work); alone, the profile's.  Results do not depend on it."""
    if job.workers is None:
        return None
    others = [j for j in running if j.name != WARM_UP] or [
        w for w in waiting if w is not job and _ready(w, jobs, running + [job])]
    return min(job.workers, 1) if others and n_jobs > 1 else job.workers


def _command(src, nb, profile, profile_name, out_dir):
    """Write the notebook and its parameters into build/, return papermill's command."""
    name = src.stem
    ipynb = ROOT / "build" / "notebooks" / f"{name}.ipynb"
    ipynb.parent.mkdir(parents=True, exist_ok=True)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    jupytext.write(nb, ipynb, fmt="ipynb")
    params = _params_file(profile_name, name)
    params.parent.mkdir(parents=True, exist_ok=True)
    params.write_text(yaml.safe_dump(profile.get(name, {}) or {}, sort_keys=True))
    return [sys.executable, "-m", "papermill", str(ipynb), str(out_dir / f"{name}.ipynb"),
            "-f", str(params), "-k", "python3", "--cwd", str(ROOT),
            "--no-progress-bar", "--log-level", "WARNING"]


def _params_file(profile_name, name):
    return ROOT / "build" / "params" / profile_name / f"{name}.yml"


def _ready(job, jobs, running):
    """Whether ``job`` may start now: the notebooks it waits for are done, and neither it
    nor a running one must run alone."""
    before = jobs[:jobs.index(job)]
    wait = {j.name for j in before} if job.name in AFTER_ALL else set(AFTER.get(job.name, ()))
    if job.name not in BESIDE_WARM_UP + (WARM_UP,):
        wait.add(WARM_UP)
    if any(j.name in wait and j.returncode is None for j in jobs):
        return False
    if any(j.name in ALONE for j in running):
        return False
    return not (job.name in ALONE and running)


def _run_jobs(jobs, n_jobs, stderr_filter, profile, out_dir, full) -> int:
    """Run the notebooks in the order of ``jobs``, at most ``n_jobs`` at once (a
    chapter whose own work runs on one core leaves the other to the next chapter);
    each notebook's wall time and CPU time (its kernel and the kernel's workers, as the
    OS reports them for the papermill process) are recorded as it finishes, and written
    into its claim box.  Returns the first non-zero exit status (the others still running
    are stopped), else 0."""
    import threading

    lock = threading.Lock()
    env = dict(os.environ, CREDAL_PROFILE=profile)  # read by the claim box
    tfile = ROOT / "results" / "_timings" / f"{profile}.csv"

    def pump(proc):
        for line in proc.stderr:
            with lock:
                stderr_filter(line)

    waiting, running, t0 = list(jobs), [], time.perf_counter()
    while waiting or running:
        for job in list(waiting):
            if len(running) >= max(1, n_jobs) or not _ready(job, jobs, running):
                continue
            print(f"[execute] {job.name}" + (f" (profile {profile})" if job.name != WARM_UP
                                               else ""), flush=True)
            job.start = time.perf_counter()
            if full and job.name == "performance":
                _record_time(tfile, {"notebook": RUN_ROWS[0], "profile": profile,
                                     "seconds": round(job.start - t0, 2), "jobs": n_jobs})
            job_env, workers = env, _share(job, waiting, jobs, running, n_jobs)
            if workers is not None and workers != job.workers:  # beside another notebook
                job.params.write_text(yaml.safe_dump({**job.values, "n_jobs": workers},
                                                     sort_keys=True))
                job_env = dict(env, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                               MKL_NUM_THREADS="1")  # one core: one BLAS thread
                print(f"[execute] {job.name}: n_jobs={workers} beside another notebook",
                      flush=True)
            job.proc = subprocess.Popen(job.cmd, cwd=ROOT, env=job_env, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
            job.thread = threading.Thread(target=pump, args=(job.proc,), daemon=True)
            job.thread.start()
            waiting.remove(job)
            running.append(job)
        # wait for any child; wait4 gives its resource usage (and its waited descendants')
        pid, status, usage = os.wait4(-1, 0)
        job = next((j for j in running if j.proc.pid == pid), None)
        if job is None:  # not a notebook (e.g. a tool's version probe): nothing to record
            continue
        job.thread.join()
        job.proc.stderr.close()
        job.returncode = job.proc.returncode = os.waitstatus_to_exitcode(status)
        job.seconds = time.perf_counter() - job.start
        job.cpu = usage.ru_utime + usage.ru_stime
        running.remove(job)
        if job.name == WARM_UP and job.returncode == 0:
            print(f"[execute] {job.name} compiled in {job.seconds:.1f} s", flush=True)
            continue
        if job.returncode != 0:
            print(f"[execute] notebook {job.name} FAILED after {job.seconds:.1f} s",
                  file=sys.stderr)
            for other in running:
                other.proc.terminate()
                other.proc.wait()
            return job.returncode
        _show_effective_parameters(out_dir / f"{job.name}.ipynb", profile)
        _fill_run_time(out_dir / f"{job.name}.ipynb", job.seconds)
        print(f"[execute] {job.name} done in {job.seconds:.1f} s "
              f"(CPU {job.cpu:.1f} s: {job.cpu / max(job.seconds, 1e-9):.2f} cores)", flush=True)
        _record_time(tfile, {"notebook": job.name, "profile": profile,
                             "seconds": round(job.seconds, 2),
                             "cpu_seconds": round(job.cpu, 2), "jobs": n_jobs})
    return 0


def _record_time(tfile, row):
    """Replace (or add) one notebook's row of the timings file."""
    tfile.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    if tfile.exists():
        with tfile.open() as fh:
            rows = [r for r in csv.DictReader(fh) if r["notebook"] != row["notebook"]]
    with tfile.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=TIMING_COLUMNS, restval="")
        w.writeheader()
        w.writerows([{k: r.get(k, "") for k in TIMING_COLUMNS} for r in rows + [row]])


#: columns of results/_timings/<profile>.csv: wall and CPU seconds of each notebook, and
#: how many notebooks ran at once
TIMING_COLUMNS = ["notebook", "profile", "seconds", "cpu_seconds", "jobs"]


if __name__ == "__main__":
    sys.exit(main())
