"""Run every ``benchmarks/bench_*.py`` script and collect what each one prints.

Each script runs in its own process (the same Python as this one, working directory the
project root), one after the other so that they do not compete for the cores.  Its
standard output and error are saved to ``results/benchmarks/<script>.txt`` and echoed
under a header; ``results/benchmarks/summary.csv`` lists every script with its exit
status and wall time.  A script that fails or exceeds ``--timeout`` is recorded as such
and the others still run; the exit code is non-zero if any script did not succeed.

``--quick`` passes each known script the options that make it short (where the script
has such an option); ``--args SCRIPT="..."`` passes any other options.

Run:  .venv/bin/python benchmarks/run_all.py [--quick] [--only bench_naive.py,...]
      [--timeout 1800] [--args bench_networks.py="--trials 100"]
"""

from __future__ import annotations

import argparse
import csv
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Options that shorten a script, for --quick (only options the scripts accept).
QUICK = {
    "bench_independence_trees.py": ["--quick"],
    "bench_naive.py": ["--baseline-rows", "30", "--repeat", "1"],
    "bench_peers.py": ["--datasets", "kr_vs_kp,nursery", "--repeats", "3", "--warmup", "1"],
    "bench_networks.py": ["--trials", "50"],
}


def discover(folder=None):
    """The ``bench_*.py`` scripts of ``folder`` (default: this script's folder), sorted."""
    folder = Path(folder) if folder is not None else Path(__file__).resolve().parent
    return sorted(p for p in folder.glob("bench_*.py") if p.is_file())


def run_one(script, args=(), timeout=None, python=None, cwd=None):
    """Run one script; returns (status, seconds, output).

    ``status`` is ``"ok"``, ``"exit <code>"`` or ``"timeout after <t> s"``.
    """
    cmd = [python or sys.executable, str(script), *args]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=cwd or ROOT, capture_output=True, text=True,
                              timeout=timeout)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
        output = proc.stdout + (("\n[stderr]\n" + proc.stderr) if proc.stderr.strip() else "")
    except subprocess.TimeoutExpired as exc:
        status = f"timeout after {timeout:g} s"
        out = exc.stdout or b""
        output = out.decode(errors="replace") if isinstance(out, bytes) else out
    return status, time.perf_counter() - t0, output


def run_all(scripts, out_dir=None, timeout=None, python=None, extra_args=None, echo=False):
    """Run ``scripts`` one by one, save their outputs; returns one dict per script."""
    out_dir = Path(out_dir) if out_dir is not None else ROOT / "results" / "benchmarks"
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for script in scripts:
        args = list((extra_args or {}).get(script.name, []))
        if echo:
            print(f"\n===== {script.name} {' '.join(args)}".rstrip(), flush=True)
        status, secs, output = run_one(script, args, timeout=timeout, python=python)
        (out_dir / f"{script.stem}.txt").write_text(
            f"# {script.name} {' '.join(args)}\n# status: {status}, wall {secs:.1f} s\n\n"
            + output)
        if echo:
            print(output.rstrip())
            print(f"----- {script.name}: {status}, {secs:.1f} s", flush=True)
        rows.append({"script": script.name, "args": " ".join(args), "status": status,
                     "seconds": round(secs, 2)})
    with (out_dir / "summary.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["script", "args", "status", "seconds"])
        w.writeheader()
        w.writerows(rows)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short runs where a script allows")
    ap.add_argument("--only", default="", help="comma-separated script names")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per script")
    ap.add_argument("--args", action="append", default=[], metavar='SCRIPT="OPTIONS"',
                    help="extra options for one script (repeatable)")
    ap.add_argument("--out", default=str(ROOT / "results" / "benchmarks"))
    a = ap.parse_args(argv)
    scripts = discover()
    if a.only:
        wanted = {s.strip() for s in a.only.split(",") if s.strip()}
        unknown = wanted - {p.name for p in scripts}
        if unknown:
            ap.error(f"no benchmark script {sorted(unknown)}")
        scripts = [p for p in scripts if p.name in wanted]
    extra = {k: list(v) for k, v in QUICK.items()} if a.quick else {}
    for item in a.args:
        name, _, opts = item.partition("=")
        extra[name.strip()] = extra.get(name.strip(), []) + shlex.split(opts)
    rows = run_all(scripts, out_dir=a.out, timeout=a.timeout, extra_args=extra, echo=True)
    print("\nsummary")
    for r in rows:
        print(f"  {r['script']:32s} {r['status']:22s} {r['seconds']:9.1f} s")
    print(f"outputs in {a.out}")
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
