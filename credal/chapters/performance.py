"""Performance chapter: the classifiers' speed and memory, measured while the book builds.

Serves ``notebooks/performance.md``.  The headline compares the precise classifiers that
have a widely used peer (C4.5, naive Bayes, AODE) with Weka 3.6's J48, NaiveBayes and AODE,
timed warm inside one JVM by ``benchmarks/weka/WekaTimer.java`` (driven by
:class:`WekaSession`) and interleaved with credal's own runs on the same discretised data;
without Java or Weka the credal side alone is measured and the reason is recorded.  Then the
credal classifiers of the leaderboard (:func:`credal.chapters.leaderboard.classifiers`)
against their slow solver baselines (:data:`credal.reference.BASELINES`): instances
classified per second, fit time against the numbers of rows and of features, peak memory.
:func:`classifiers` is the line-up, :func:`run` measures, :func:`tables` gives every table
(peers, slopes, the chapters' wall times, the project's goals against the measurements),
:func:`numbers` the numbers quoted in the text; two figures.
"""

from __future__ import annotations

import os
import pickle
import platform
import shutil
import subprocess
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import credal
from credal import datasets
from credal.chapters import leaderboard
from credal.reference import BASELINES

__all__ = ["classifiers", "run", "tables", "numbers", "WekaSession", "performance_throughput",
           "performance_scaling"]


# ------------------------ run: against the peers (Weka 3.6, warm, in one JVM)

_ROOT = Path(__file__).resolve().parents[2]

#: Weka's jar as the Debian package ``weka`` installs it (``$WEKA_JAR`` overrides).
_WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
_WEKA_SOURCE = _ROOT / "benchmarks" / "weka" / "WekaTimer.java"
_WEKA_BUILD = _ROOT / "build" / "weka"


#: classifier -> (what credal runs, its Weka peer, a factory of the credal model).
#: NaiveBayes adds 1 per cell (Weka's estimator); AODE uses Weka's AODE estimates.
_PEERS = {
    "C4.5": ("C45Tree()", "weka.classifiers.trees.J48", lambda: credal.C45Tree()),
    "naive Bayes": ('NaiveBayes(prior="laplace")', "weka.classifiers.bayes.NaiveBayes",
                    lambda: credal.NaiveBayes(prior="laplace")),
    "AODE": ('AODE(prior="laplace", root_estimate="joint")', "weka.classifiers.bayes.AODE",
             lambda: credal.AODE(prior="laplace", root_estimate="joint")),
}


def _peer_split(name, random_state=0):
    """The data of the peer comparison, ``Xtr, ytr, Xte, yte`` (DataFrames of categoricals
    and categorical labels, index reset): the rows of catalogue data set ``name`` without a
    missing value, split stratified (seed ``random_state``) with a third to the test part,
    :func:`credal.preprocessing.make_preprocessor` (MDL, features left with one value
    removed) fitted on the training part; ``"<name> x<k>"`` repeats both parts ``k`` times."""
    from sklearn.model_selection import train_test_split

    from credal.preprocessing import make_preprocessor

    base, _, k = name.partition(" x")
    if k and not k.isdigit():
        raise ValueError(f"data set {name!r}: expected '<name>' or '<name> x<k>'")
    ds = datasets.load(base)
    keep = ~(ds.X.isna().any(axis=1).to_numpy() | ds.y.isna().to_numpy())
    X, y = ds.X.loc[keep].reset_index(drop=True), ds.y.loc[keep].reset_index(drop=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=1 / 3, stratify=y,
                                          random_state=random_state)
    prep = make_preprocessor().fit(Xtr, ytr)
    return tuple(pd.concat([d] * int(k or 1), ignore_index=True)
                 for d in (prep.transform(Xtr), ytr, prep.transform(Xte), yte))


def _arff_quote(value):
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _write_arff(X, y, path, relation="credal"):
    """Write ``X`` (DataFrame of categoricals) and ``y`` (categorical Series) as ARFF
    (declared categories, class last, ``?`` = missing); returns the Path written."""
    if "class" in X.columns:
        raise ValueError("a feature is named 'class'; rename it before writing ARFF")
    lines, body = [f"@relation {_arff_quote(relation)}", ""], []
    for c, s in {**{c: X[c] for c in X.columns}, "class": y}.items():
        if not isinstance(s.dtype, pd.CategoricalDtype):
            raise TypeError(f"column {c!r} is not categorical (discretise it first)")
        cats = np.array([_arff_quote(v) for v in s.cat.categories] + ["?"], dtype=object)
        lines.append(f"@attribute {_arff_quote(c)} {{{','.join(cats[:-1])}}}")
        body.append(cats[s.cat.codes.to_numpy()])        # code -1 takes the last: "?"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines + ["", "@data"] + [
        ",".join(r) for r in np.stack(body, axis=1).tolist()]) + "\n")
    return path


def _weka_classpath():
    """The class path of the Weka timer (Weka's jar :data:`_WEKA_JAR`), compiling it when
    needed: ``(classpath, reason)``, the class path, or None when Java or Weka is missing or
    the driver does not compile, and why not (empty when available)."""
    jar, src, cls = _WEKA_JAR, _WEKA_SOURCE, _WEKA_BUILD / "WekaTimer.class"
    if shutil.which("java") is None:
        return None, "no Java runtime (`java` is not on the PATH)"
    if not jar.is_file():
        return None, f"Weka is not installed (no {jar}; Debian package `weka`)"
    if not cls.is_file() or (src.is_file() and cls.stat().st_mtime < src.stat().st_mtime):
        if not src.is_file():
            return None, f"the Weka timer's source {src} is missing"
        if shutil.which("javac") is None:
            return None, "no Java compiler for the Weka timer (Debian `default-jdk-headless`)"
        _WEKA_BUILD.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["javac", "-cp", str(jar), "-d", str(_WEKA_BUILD), str(src)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"the Weka timer did not compile: {done.stderr.strip()[:300]}"
    return os.pathsep.join([str(_WEKA_BUILD), str(jar)]), ""


# The JVM that measures memory (``WekaTimer.java`` says why): a young generation of
# 512 KB and an old one kept a few percent above its live part collect often and fully,
# so the heap is seen within ~0.5 MB of its live part before and after collections.
_MEMORY_JVM = ("-XX:+UseSerialGC", "-Xmn512k", "-Xms2m", "-XX:MinHeapFreeRatio=1",
              "-XX:MaxHeapFreeRatio=5", "-XX:-ShrinkHeapInSteps", "-XX:MarkSweepDeadRatio=0")
# What the low bound of :meth:`WekaSession.sample` may read above a known peak: its
# check (the tests) found at most 0.0012 MB; a verdict from it leaves this much room.
_SAMPLE_SLACK_MB = 0.005


def _memory_verdict(credal_mb, low_mb, high_mb, slack_mb=0.0):
    """credal's peak against the JVM's peak, known to lie in ``[low_mb, high_mb]``: "≤
    Weka" when credal's peak is at most the lower bound less ``slack_mb`` (how far
    ``low_mb`` may lie above the truth: :data:`_SAMPLE_SLACK_MB` for the bounds of
    :meth:`WekaSession.sample`), "> Weka" when it exceeds the upper bound, "within the
    JVM's bounds" otherwise (undecided)."""
    return ("≤ Weka" if credal_mb <= low_mb - slack_mb else "> Weka" if credal_mb > high_mb
            else "within the JVM's bounds")


class WekaSession:
    """One JVM running ``main`` (``WekaTimer`` or a peer tool's timer; line protocol on its
    stdin/stdout) with the class path of :func:`_weka_classpath` and ``jvm_options`` (e.g.
    :data:`_MEMORY_JVM` to measure memory); ``weka_version`` and ``java_version`` (str)."""

    def __init__(self, classpath, jvm_options=(), main="WekaTimer"):
        self._err, self._main = tempfile.TemporaryFile(mode="w+"), main
        self._proc = subprocess.Popen(["java", *jvm_options, "-cp", classpath, main],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._err, text=True, bufsize=1)
        first = self._proc.stdout.readline().strip()
        if not first.startswith("ready,"):
            err = self._stderr()
            self.close()
            raise RuntimeError(f"{main} did not start: {first!r} {err}")
        self.weka_version = first.split(",", 1)[1]
        v = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
        self.java_version = v.splitlines()[0].strip() if v else "unknown"

    def _stderr(self):
        self._err.seek(0)
        return self._err.read()[-500:]

    def _ask(self, *fields):
        if self._proc.poll() is not None:
            raise RuntimeError(f"{self._main} has exited: {self._stderr()}")
        self._proc.stdin.write("\t".join(str(f) for f in fields) + "\n")
        self._proc.stdin.flush()
        answer = self._proc.stdout.readline().strip()
        if not answer.startswith("ok,"):
            raise RuntimeError(f"{self._main}, {fields[0]} {fields[1]}: "
                               f"{answer or 'no answer'} {self._stderr()}")
        return answer.split(",")[2:]

    def run(self, classifier, train, test, repeats=1, warmup=0, predictions=None):
        """Time ``repeats`` fits + classifications after ``warmup`` untimed ones: a dict
        with ``best_s``, ``median_s``, ``accuracy``."""
        extra = [warmup] + ([predictions] if predictions is not None else [])
        _, best, med, acc = self._ask("run", classifier, train, test, repeats, *extra)
        return {"best_s": float(best), "median_s": float(med), "accuracy": float(acc)}

    def memory(self, classifier, train, test=None):
        """Heap of one fit + classification, in MB: ``allocated_mb`` (all the bytes the run
        allocated), ``retained_mb`` (what the model keeps after a full GC), ``peak_low_mb``
        and ``peak_high_mb`` (the peak of the heap in use during the run over the heap in use
        before it lies between the two; tight in a session started with :data:`_MEMORY_JVM`),
        ``collections``.  ``memory("check", mb)``: a run that only holds ``mb`` MB."""
        alloc, kept, low, high, gcs = self._ask("mem", classifier, train,
                                                *(() if test is None else (test,)))
        return dict(allocated_mb=float(alloc), retained_mb=float(kept), peak_low_mb=float(low),
                    peak_high_mb=float(high), collections=int(gcs))

    def sample(self, classifier, train, test=None, runs=50, seconds=5.0):
        """Bounds on the peak heap of a warm fit + classification, from collections forced
        back to back by a second thread while the run repeats (``WekaTimer.java`` says how),
        for runs that allocate too little for :meth:`memory`'s bounds to be tight; the JVM
        must use the serial collector (:data:`_MEMORY_JVM`).  Arguments as for
        :meth:`memory` (``sample("check", mb)`` holds ``mb`` MB while 4 MB of 1 KB arrays
        pass through a ring of 16: true peak ``mb`` + 0.016 MB); at most ``runs`` runs after
        5 untimed warm-up runs, fewer once ``seconds`` have passed (at least one).  A dict:
        ``peak_low_mb``, ``peak_high_mb``, ``runs``, ``samples`` (collections that gave a
        reading)."""
        low, high, done, n = self._ask("sample", classifier, train,
                                       *(() if test is None else (test,)), int(runs),
                                       float(seconds))
        return dict(peak_low_mb=float(low), peak_high_mb=float(high), runs=int(done), samples=int(n))

    def close(self):
        """Stop the JVM."""
        if self._proc.poll() is None:
            try:
                self._proc.stdin.write("quit\n")
                self._proc.stdin.flush()
                self._proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        self._err.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _credal_run(factory, Xtr, ytr, Xte):
    """One fit + predict from the DataFrames (the conversion to codes included)."""
    t = time.perf_counter()
    pred = factory().fit(Xtr, ytr).predict(Xte)
    return time.perf_counter() - t, pred


def _peak_mb(*calls):
    """The :mod:`tracemalloc` peak of each of ``calls`` in turn beyond what was allocated
    before it, in MB (a list; tracing on during the calls only)."""
    tracemalloc.start()
    try:
        peaks = []
        for fn in calls:
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            fn()
            peaks.append((tracemalloc.get_traced_memory()[1] - base) / 2 ** 20)
        return peaks
    finally:
        tracemalloc.stop()


def _peer_timings(names, repeats=5, warmup=3, memory=True, random_state=0,
                 workdir=None) -> pd.DataFrame:
    """Fit + classification time of credal's C4.5, naive Bayes and AODE against Weka's.

    Each data set of ``names`` (:func:`_peer_split`, seed ``random_state``; e.g. ``"nursery
    x10"``) is written as training and test ARFF files (:func:`_write_arff`, under
    ``workdir``, default ``build/peers``) that one JVM (:class:`WekaSession`) reads once.  Per
    classifier of :data:`_PEERS` both sides run ``warmup`` untimed times, then ``repeats``
    rounds of one Weka run and one credal run.  Timed: Weka's ``buildClassifier`` on a fresh
    classifier plus ``classifyInstance`` of every test row (data in memory, timed in the
    JVM); credal's ``fit`` on a fresh model plus ``predict`` from the DataFrames of
    categoricals (the conversion to codes included).  With ``memory``, one more untimed run
    per side: credal's :mod:`tracemalloc` peak; Weka's, in a second JVM with
    :data:`_MEMORY_JVM`, :meth:`WekaSession.memory` (data loaded before): bounds on the peak
    of the heap in use, the bytes allocated, what the model keeps after a full GC; the
    verdict (:func:`_memory_verdict`) from those bounds or, when they leave it undecided (too
    few allocations for collections during the run), from :meth:`WekaSession.sample`'s on
    warm runs.  Without Java or Weka (:func:`_weka_classpath`) only credal is timed, without
    the Weka columns; ``attrs["weka"]`` says why.

    One row per (data set, classifier): ``credal``, ``peer``, ``n_train``, ``n_test``,
    ``features``, ``credal_best_s``, ``credal_median_s``, ``credal_accuracy`` (and
    ``credal_peak_mb``); with Weka ``weka_best_s``, ``weka_median_s``, ``weka_accuracy``,
    ``agreement`` (share of test rows classified alike), ``ratio`` (Weka's best / credal's;
    ≥ 1 = credal at least as fast), ``ratio_median`` (and ``weka_allocated_mb``,
    ``weka_retained_mb``, ``weka_peak_low_mb``, ``weka_peak_high_mb``, ``memory_bounds``
    ("first run" or "<k> warm runs, collections forced"), ``memory_verdict``).  ``attrs``:
    ``weka`` (version, or why missing), ``java``, ``weka_available``, ``repeats``,
    ``warmup``."""
    if int(repeats) < 1 or int(warmup) < 0:
        raise ValueError(f"repeats must be >= 1 and warmup >= 0; got {repeats}, {warmup}")
    workdir, (classpath, reason) = Path(workdir or _ROOT / "build" / "peers"), _weka_classpath()
    session = WekaSession(classpath) if classpath else None
    msession = WekaSession(classpath, jvm_options=_MEMORY_JVM) if classpath and memory else None
    rows = []
    try:
        for name in names:
            data = _peer_split(name, random_state)
            stem = name.replace(" ", "_")
            files = (_write_arff(data[0], data[1], workdir / f"{stem}-train.arff", stem),
                     _write_arff(data[2], data[3], workdir / f"{stem}-test.arff", stem))
            for clf, (what, peer, factory) in _PEERS.items():
                row = {"dataset": name, "classifier": clf, "credal": what,
                       "peer": "Weka " + peer.rsplit(".", 1)[1], "n_train": len(data[0]),
                       "n_test": len(data[2]), "features": data[0].shape[1]}
                _time_peers(row, factory, peer, data, files, workdir / stem, session,
                            int(repeats), int(warmup), memory)
                if msession is not None:
                    _weka_memory(row, peer, files, msession)
                rows.append(row)
    finally:
        for s in filter(None, (session, msession)):
            s.close()
    out = pd.DataFrame(rows)
    out.attrs.update(weka=f"Weka {session.weka_version}" if session else reason,
                     java=session.java_version if session else "",
                     weka_available=session is not None,
                     repeats=int(repeats), warmup=int(warmup))
    return out


def _time_peers(row, factory, peer, data, files, stem, session, repeats, warmup, memory):
    """Both sides' times (interleaved: Weka, then credal), accuracies and agreement,
    and credal's memory peak, into ``row`` (see :func:`_peer_timings`)."""
    Xtr, ytr, Xte, yte = data
    truth = yte.cat.codes.to_numpy()
    with warnings.catch_warnings(action="ignore"):
        for _ in range(warmup):
            _, pred = _credal_run(factory, Xtr, ytr, Xte)
        if session is not None:
            out = Path(f"{stem}-{peer.rsplit('.', 1)[1]}.pred")
            session.run(peer, *files, 1, warmup, predictions=out)
            wpred = np.loadtxt(out, dtype=int, ndmin=1)
        ours, theirs = [], []
        for _ in range(repeats):
            if session is not None:
                theirs.append(session.run(peer, *files)["best_s"])
            secs, pred = _credal_run(factory, Xtr, ytr, Xte)
            ours.append(secs)
        codes = pd.Categorical(pred, categories=ytr.cat.categories).codes
        row.update(credal_best_s=min(ours), credal_median_s=float(np.median(ours)),
                   credal_accuracy=float(np.mean(codes == truth)))
        if memory:
            row["credal_peak_mb"] = _peak_mb(lambda: factory().fit(Xtr, ytr).predict(Xte))[0]
    if session is not None:
        row.update(weka_best_s=min(theirs), weka_median_s=float(np.median(theirs)),
                   weka_accuracy=float(np.mean(wpred == truth)),
                   agreement=float(np.mean(wpred == codes)))
        row.update(ratio=row["weka_best_s"] / row["credal_best_s"],
                   ratio_median=row["weka_median_s"] / row["credal_median_s"])


def _weka_memory(row, peer, files, msession):
    """The JVM's memory of one run and the verdict against credal's peak, into ``row``:
    the bounds of the first run, or of warm runs with collections forced when those
    leave the verdict undecided."""
    m = msession.memory(peer, *files)
    row.update(weka_allocated_mb=m["allocated_mb"], weka_retained_mb=m["retained_mb"],
               weka_peak_low_mb=m["peak_low_mb"], weka_peak_high_mb=m["peak_high_mb"],
               memory_bounds="first run",
               memory_verdict=_memory_verdict(row["credal_peak_mb"], m["peak_low_mb"],
                                              m["peak_high_mb"]))
    if row["memory_verdict"].startswith("within"):
        # too few collections in one run: warm runs, collections forced
        m = msession.sample(peer, *files)
        row.update(weka_peak_low_mb=m["peak_low_mb"], weka_peak_high_mb=m["peak_high_mb"],
                   memory_bounds=f"{m['runs']} warm runs, collections forced",
                   memory_verdict=_memory_verdict(row["credal_peak_mb"], m["peak_low_mb"],
                                                  m["peak_high_mb"], _SAMPLE_SLACK_MB))


# --- section: the peer table: the Weka IP plugin and JNCC2 (issue 27) ---

#: The peer tools' files (``../shared/peers`` from the project root; ``$CREDAL_PEERS``
#: overrides): the plugin's Java sources and JNCC2's jar, never copied into the project.
_PEERS_DIR = Path(os.environ.get("CREDAL_PEERS", _ROOT.parent / "shared" / "peers"))
_PLUGIN_SRC = Path("weka-ip-plugin", "weka-3.7-IP-Plugin-src")
_JNCC2_JAR = Path("jncc2", "jncc2Rel1.11", "jncc2-rel1.11.jar")

#: tool -> (its name, driver source, build folder, driver class) of the JVM that times it.
_TOOLS = {
    "ip": ("Weka IP plugin", _ROOT / "benchmarks" / "ip_plugin" / "IpPluginTimer.java",
           _ROOT / "build" / "ip-plugin",
           "weka.classifiers.credalClassifiers.credalNB.IpPluginTimer"),
    "jncc2": ("JNCC2 1.11", _ROOT / "benchmarks" / "jncc2" / "Jncc2Timer.java",
              _ROOT / "build" / "jncc2", "jncc20.Jncc2Timer"),
}

#: credal's classifier -> (what credal runs, its factory, "set" (``predict_set``) or "class"
#: (``predict``), its peers: (tool, the driver's model, label)).  The parameters are those
#: under which the conformance tests find the peers' exact sets and classes.
_TOOL_PEERS = {
    "NCC": ("NCC(s=1)", lambda: credal.NCC(s=1.0), "set",
            (("ip", "NaiveCredal-eps0", "IP NaiveCredal ε=0"), ("jncc2", "NCC", "JNCC2 NCC"))),
    "NCC-ε": ('NCC(epsilon=0.01, epsilon_model="simple")',
              lambda: credal.NCC(epsilon=0.01, epsilon_model="simple"), "set",
              (("ip", "NaiveCredal-eps0.01", "IP NaiveCredal ε=0.01"),)),
    "CMA": ('CMA(prior="bdeu")', lambda: credal.CMA(alpha=1.0, inclusion_lower=0.1,
                                                     inclusion_upper=0.9, prior="bdeu"),
            "set", (("ip", "Cma", "IP Cma"),)),
    "BMA": ('ModelAveragedNaiveBayes(prior="bdeu")',
            lambda: credal.ModelAveragedNaiveBayes(alpha=1.0, prior="bdeu"), "class",
            (("ip", "Bma", "IP Bma"),)),
    "credal tree": ('CredalDecisionTree(ties="drop")',
                    lambda: credal.CredalDecisionTree(s=1.0, ties="drop"), "set",
                    (("ip", "CredalDecisionTree", "IP CredalDecisionTree"),)),
    "naive Bayes": ('NaiveBayes(prior="laplace")', lambda: credal.NaiveBayes(prior="laplace"),
                    "class", (("jncc2", "NBC", "JNCC2 NBC"),)),
}


def _shown(path):
    """``path`` relative to the project root when below its parent (for the text)."""
    return os.path.relpath(path, _ROOT) if Path(path).is_relative_to(_ROOT.parent) else str(path)


def _tool_classpath(tool):
    """``(classpath, reason)`` of a peer tool's timer (:data:`_TOOLS`), compiled into
    ``build/`` when missing or older than its source (the plugin from its sources in
    :data:`_PEERS_DIR`, against Weka's jar): None and why when Java, Weka, the plugin's
    sources, JNCC2's jar or a compiler is missing, or the driver does not compile."""
    name, src, build, main = _TOOLS[tool]
    peers = Path(_PEERS_DIR)
    if shutil.which("java") is None:
        return None, "no Java runtime (`java` is not on the PATH)"
    if tool == "ip":
        if not _WEKA_JAR.is_file():
            return None, f"Weka is not installed (no {_WEKA_JAR}; Debian package `weka`)"
        jar, plugin = _WEKA_JAR, peers / _PLUGIN_SRC
        if not plugin.is_dir():
            return None, f"the plugin's sources are missing (no {_shown(plugin)})"
        options = ["-encoding", "ISO-8859-1", "-nowarn", "-sourcepath", str(plugin)]
    else:
        jar, options = peers / _JNCC2_JAR, []
        if not jar.is_file():
            return None, f"JNCC2's jar is missing (no {_shown(jar)})"
    cls = build / (main.replace(".", "/") + ".class")
    if not cls.is_file() or cls.stat().st_mtime < src.stat().st_mtime:
        if shutil.which("javac") is None:
            return None, f"no Java compiler for the {name} timer (Debian `default-jdk-headless`)"
        build.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["javac", *options, "-cp", str(jar), "-d", str(build), str(src)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"the {name} timer did not compile: {done.stderr.strip()[:300]}"
    return os.pathsep.join([str(build), str(jar)]), ""


def _read_sets(path, n_classes):
    """The sets a timer wrote (one line per row, class indices), as a bool array."""
    lines = Path(path).read_text().splitlines()
    out = np.zeros((len(lines), n_classes), dtype=bool)
    for i, line in enumerate(lines):
        out[i, [int(v) for v in line.split()]] = True
    return out


def _as_sets(pred, model, categories):
    """credal's ``predict_set`` (columns in ``model.classes_``) or ``predict`` (labels) as a
    bool array with one column per category of the class, in their declared order."""
    pos = pd.Index(categories)
    if pred.ndim == 2:
        out = np.zeros((len(pred), len(pos)), dtype=bool)
        out[:, pos.get_indexer(model.classes_)] = pred
        return out
    return np.eye(len(pos), dtype=bool)[pos.get_indexer(pred)]


def _judge(row, ours, theirs, explain=None):
    """The agreement check: the peer's sets (or classes) against credal's, row by row.  A time
    counts only when they agree on every test row, or when ``explain`` (of the differing rows'
    indices) says why each differs (a string computed from the data; None: unexplained); else
    ``ratio`` and ``ratio_median`` are NaN and ``status`` says on how many rows they differ."""
    shaped = ours.shape == theirs.shape
    bad = np.flatnonzero(np.any(ours != theirs, axis=1)) if shaped else np.arange(len(ours))
    row["agreement"] = (len(ours) - bad.size) / len(ours) if shaped else 0.0
    why = explain(bad) if explain is not None and shaped and bad.size else None
    if not bad.size or why is not None:
        row.update(ratio=row["peer_best_s"] / row["credal_best_s"], status="same outputs" + (
            f" but {bad.size} row{'s' * (bad.size > 1)}: {why}" if why else ""),
            ratio_median=row["peer_median_s"] / row["credal_median_s"])
    else:
        row.update(ratio=np.nan, ratio_median=np.nan,
                   status=f"disagrees on {bad.size} of {len(ours)} rows: time not counted")
    return row


def _time_tools(base, spec, data, files, stem, sessions, repeats, warmup):
    """One credal classifier against its live peers on one data set, interleaved: each
    round runs every peer once, then credal once; rows as :func:`_tool_timings`."""
    what, factory, kind, peers = spec
    Xtr, ytr, Xte, _ = data
    method = "predict_set" if kind == "set" else "predict"

    def ours():
        t = time.perf_counter()
        model = factory().fit(Xtr, ytr)
        out = getattr(model, method)(Xte)
        return time.perf_counter() - t, _as_sets(np.asarray(out), model, ytr.cat.categories)

    with warnings.catch_warnings(action="ignore"):
        for _ in range(warmup):
            ours()
        theirs, times, mine = {}, {p: [] for p in peers}, []
        for tool, model, _ in peers:
            out = f"{stem}-{model}.sets"
            sessions[tool].run(model, *files, 1, warmup, predictions=out)
            theirs[model] = _read_sets(out, len(ytr.cat.categories))
        for _ in range(repeats):
            for p in peers:
                times[p].append(sessions[p[0]].run(p[1], *files)["best_s"])
            secs, sets = ours()
            mine.append(secs)
    rows = []
    for tool, model, label in peers:
        t = times[(tool, model, label)]
        explain = (None if model != "CredalDecisionTree" else
                   lambda bad: _tree_ties(factory().fit(Xtr, ytr), data, bad, theirs[model]))
        rows.append(_judge({**base, "credal": what, "tool": _TOOLS[tool][0], "peer": label,
                            "credal_best_s": min(mine), "credal_median_s": float(np.median(mine)),
                            "peer_best_s": min(t), "peer_median_s": float(np.median(t))},
                           sets, theirs[model], explain))
    return rows


def _tool_timings(names, repeats=5, warmup=3, random_state=0, workdir=None) -> pd.DataFrame:
    """Fit + classification time of credal's NCC, NCC-ε, CMA, BMA, credal tree and naive
    Bayes against the Weka IP plugin's and JNCC2's (:data:`_TOOL_PEERS`), as
    :func:`_peer_timings` times Weka: the same ARFF files, one JVM per tool for the whole
    run (:func:`_tool_classpath`; the drivers' headers say what they time), ``warmup``
    untimed runs per side, then ``repeats`` rounds of one run of each peer and one of
    credal (``fit`` + ``predict_set``, or ``predict`` against BMA and JNCC2's NBC, from the
    DataFrames).  The peer's sets (or classes) are compared with credal's row by row
    (:func:`_judge`) before a time counts.  A tool that is missing leaves its rows out.

    One row per (data set, classifier, peer): ``credal``, ``tool``, ``peer``, ``n_train``,
    ``n_test``, ``features``, ``credal_best_s``, ``credal_median_s``, ``peer_best_s``,
    ``peer_median_s``, ``agreement`` (share of test rows alike), ``ratio`` (peer's best /
    credal's), ``ratio_median``, ``status``.  ``attrs``: ``tools`` (tool name -> its version,
    or why it is missing), ``repeats``, ``warmup``."""
    if int(repeats) < 1 or int(warmup) < 0:
        raise ValueError(f"repeats must be >= 1 and warmup >= 0; got {repeats}, {warmup}")
    workdir, sessions, status, rows = Path(workdir or _ROOT / "build" / "peers"), {}, {}, []
    try:
        for tool, (name, _, _, main) in _TOOLS.items():
            classpath, status[name] = _tool_classpath(tool)
            if classpath:
                sessions[tool] = WekaSession(classpath, main=main)
                status[name] = (f"the Weka IP plugin (on Weka {sessions[tool].weka_version})"
                                if tool == "ip" else name)
        for name in names if sessions else ():
            data, stem = _peer_split(name, random_state), name.replace(" ", "_")
            files = (_write_arff(data[0], data[1], workdir / f"{stem}-train.arff", stem),
                     _write_arff(data[2], data[3], workdir / f"{stem}-test.arff", stem))
            base = {"dataset": name, "n_train": len(data[0]), "n_test": len(data[2]),
                    "features": data[0].shape[1]}
            for clf, (what, factory, kind, peers) in _TOOL_PEERS.items():
                live = tuple(p for p in peers if p[0] in sessions)
                if live:
                    rows += _time_tools({**base, "classifier": clf}, (what, factory, kind, live),
                                        data, files, workdir / stem, sessions, int(repeats),
                                        int(warmup))
    finally:
        for s in sessions.values():
            s.close()
    out = pd.DataFrame(rows, columns=_TOOL_COLUMNS)
    out.attrs.update(tools=status, available=[_TOOLS[t][0] for t in sessions],
                     repeats=int(repeats), warmup=int(warmup))
    return out


_TOOL_COLUMNS = ["dataset", "classifier", "n_train", "n_test", "features", "credal", "tool",
                 "peer", "credal_best_s", "credal_median_s", "peer_best_s", "peer_median_s",
                 "agreement", "ratio", "ratio_median", "status"]


def _cell(r):
    return (f"{r['ratio']:.2f} ({r['ratio_median']:.2f})" if np.isfinite(r["ratio"])
            else "disagrees")


def _tool_table(tools) -> pd.DataFrame:
    """The peer tools' headline: per "classifier vs peer" (rows) and data set (columns),
    the peer's time over credal's, best of each with the median of each in brackets
    ("disagrees" where the outputs differ: no time counted)."""
    if not len(tools):
        return pd.DataFrame(index=pd.Index([], name="classifier vs peer"))
    label = tools["classifier"] + " vs " + tools["peer"]
    out = tools.assign(row=label, cell=tools.apply(_cell, axis=1)).pivot(
        index="row", columns="dataset", values="cell")
    out = out.loc[list(dict.fromkeys(label)), list(dict.fromkeys(tools["dataset"]))]
    out = out.rename_axis(index="classifier vs peer", columns=None)
    out.attrs["values"] = "Peer time / credal time, best of each (median of each)"
    return out


def _tool_tables(tools) -> dict:
    """``peer_tools`` (:func:`_tool_timings`), its headline (:func:`_tool_table`) and
    details (:func:`_tool_details`); empty without ``tools``."""
    return {} if tools is None else dict(peer_tools=tools, peer_tools_headline=_tool_table(
        tools), peer_tools_details=_tool_details(tools))


def _tool_details(tools) -> pd.DataFrame:
    """Times (ms), ratios, agreement and status of :func:`_tool_timings`."""
    out = tools.drop(columns=["credal", "tool"])
    out[[c for c in out if c.endswith("_s")]] *= 1e3
    return out.rename(columns={
        "credal_best_s": "credal best (ms)", "credal_median_s": "credal median (ms)",
        "peer_best_s": "peer best (ms)", "peer_median_s": "peer median (ms)",
        "ratio": "ratio (best)", "ratio_median": "ratio (median)", "agreement": "same output"})


def _tool_key(tool, model):
    return f"tools_{tool}_{model}".replace("-", "_").replace(".", "").lower()


def _tool_goals(tools) -> list:
    """Goal rows (issue 27): every credal classifier at least twice as fast as each peer
    of :data:`_TOOL_PEERS` on every data set, each ratio shown (best, median)."""
    rows, why = [], tools.attrs.get("tools", {})
    for clf, (_, _, _, peers) in _TOOL_PEERS.items():
        for tool, _, label in peers:
            g = tools[(tools["classifier"] == clf) & (tools["peer"] == label)]
            goal = f"{clf}: at least 2× as fast as {label} on every data set (issue 27)"
            if not len(g):
                rows.append((goal, why.get(_TOOLS[tool][0]) or "not measured", "not measured"))
                continue
            shown = "; ".join(f"{d} {_cell(r)}" for d, (_, r) in zip(g["dataset"], g.iterrows()))
            met = ("no (outputs differ)" if g["ratio"].isna().any()
                   else "yes" if (g["ratio"] >= 2).all() else "no")
            rows.append((goal, shown, met))
    return rows


def _tool_numbers(tools) -> dict:
    """Strings quoted in the text about the peer tools: ``tools_status``, ``tools_summary``
    and, per peer (``tools_<tool>_<model>``), its ratios or why it was not measured."""
    why, out = tools.attrs.get("tools", {}), {}
    ran = [n for n in tools.attrs.get("available", [])]
    missing = {n: r for n, r in why.items() if n not in ran}
    out["tools_status"] = (
        ("Timed here: " + " and ".join(why[n] for n in ran) + ". " if ran else "")
        + "".join(f"Not timed, {n}: {r}; its rows are left out. " for n, r in missing.items())
    ).strip()
    for clf, (_, _, _, peers) in _TOOL_PEERS.items():
        for tool, model, label in peers:
            g = tools[(tools["classifier"] == clf) & (tools["peer"] == label)]
            ok = g[g["ratio"].notna()]
            text = (f"not measured ({why.get(_TOOLS[tool][0], 'not run')})" if not len(g) else
                    f"{ok['ratio'].min():.2f}× to {ok['ratio'].max():.2f}× (medians "
                    f"{ok['ratio_median'].min():.2f}× to {ok['ratio_median'].max():.2f}×), "
                    f"lowest on {ok.loc[ok['ratio'].idxmin(), 'dataset']}" if len(ok) else "")
            bad = g[g["ratio"].isna()]
            text += ("; " if text and len(bad) else "") + "; ".join(
                f"{s} on {d}" for s, d in zip(bad["status"], bad["dataset"]))
            text += "".join(f"; on {d}, {st}" for st, d in zip(g["status"], g["dataset"])
                            if st.startswith("same outputs but"))  # an explained difference
            out[_tool_key(tool, model)] = text
    ok = tools[tools["ratio"].notna()]
    below = ok[ok["ratio"] < 2]
    out["tools_summary"] = (
        "No peer tool was timed." if not len(tools) else
        f"Outputs agree in {len(ok)} of {len(tools)} cases; in those, credal is at least "
        f"twice as fast in {len(ok) - len(below)}. Below 2: " + ("; ".join(
            f"{c} vs {p} on {d} ({r:.2f})" for c, p, d, r in zip(
                below["classifier"], below["peer"], below["dataset"], below["ratio"]))
            or "none") + ".")
    return out

# --- end of section ---


# --- section: why the credal tree and the IP plugin's differ: ties of split gains (issue 27) ---

def _plugin_entropy(counts, s):
    """The IP plugin's imprecise entropy (bits) of integer class counts, its arithmetic
    step by step (``E_ContingencyTables.entropyImprecise`` and ``reps``)."""
    a, mass = [float(v) for v in counts], float(s)
    while True:  # reps: the mass to the smallest counts, in equal parts
        low = min(a)
        cont = a.count(low)
        give = mass if mass <= cont else float(cont)
        a = [v + give / cont if v == low else v for v in a]
        mass = give - cont
        if mass <= 0.0001:
            break
    ret, total = 0.0, 0.0
    for v in a:
        if v > 0:
            ret -= v * (np.log(v) / np.log(2.0))
        total += v
    return 0.0 if abs(total) < 1e-6 else ret / total + np.log(total) / np.log(2.0)


def _tree_ties(model, data, rows, theirs):
    """Why credal's CredalDecisionTree and the IP plugin's give different sets on test
    ``rows``, or None if one row is not explained.  Walking the row's path in credal's
    tree, a node explains it when another feature has the same children's class counts
    as the one credal splits on (the same multiset: equal gains exactly, so credal takes
    the lower column), the plugin's gains in its own double arithmetic rank that feature
    first (``Utils.maxIndex``: the first largest), and the row's branch of that feature
    holds no training row, where the plugin's leaf keeps every class (zero frequencies),
    as the plugin's set does (the plugin's choice agreeing with credal's above it)."""
    Xtr, ytr, Xte, _ = data
    tr = np.column_stack([Xtr[c].cat.codes for c in Xtr])
    te = np.column_stack([Xte[c].cat.codes for c in Xte])
    y, K, s = ytr.cat.codes.to_numpy(), len(ytr.cat.categories), float(model.s)
    why = []
    for i in rows:
        at, node, depth, found = np.ones(len(y), bool), model.tree_, 0, None
        while not node.is_leaf and found is None:
            kids = [[tuple(np.bincount(y[at & (tr[:, j] == v)], minlength=K).tolist())
                     for v in np.unique(tr[at, j])] for j in range(tr.shape[1])]  # value order
            gain = [_plugin_entropy(np.bincount(y[at], minlength=K), s) for _ in kids]
            for j, kid in enumerate(kids):  # the plugin's computeInfoGain, step by step
                for k in kid:
                    gain[j] -= sum(k) / at.sum() * _plugin_entropy(k, s)
            f, top = node.feature, int(np.argmax(gain))
            if depth == 0 and gain.count(gain[top]) > 1:
                return None  # the plugin's root choice (a sort) is not determined
            if gain[top] < 1e-6 or top != f and (sorted(kids[top]) != sorted(kids[f])
                                                 or np.any(at & (tr[:, top] == te[i, top]))):
                return None  # the trees part otherwise (the plugin stops below 1e-6)
            if top != f:
                found = (f"row {i} at depth {depth}: {Xtr.columns[f]} and {Xtr.columns[top]} "
                         f"split {at.sum()} rows into the same class counts "
                         f"{sorted(kids[f])} (equal gains; credal takes "
                         f"{Xtr.columns[f]}, the first), but the plugin's floating-point gain "
                         f"of {Xtr.columns[top]} is {gain[top] - gain[f]:.1e} bits larger and "
                         f"its branch for the row is empty (every class)")
            at &= tr[:, f] == te[i, f]
            node, depth = node.children[te[i, f]], depth + 1
        if found is None or not theirs[i].all():
            return None
        why.append(found)
    return "; ".join(why)

# --- end of section ---


# ------------------------------------------ run: against the solver baselines

def _complete_rows(name):
    """``X, y`` of a catalogue data set: the rows with a class, index reset."""
    ds = datasets.load(name)
    keep = ~ds.y.isna().to_numpy()
    return ds.X.loc[keep].reset_index(drop=True), ds.y.loc[keep].reset_index(drop=True)


def _ordered(names):
    """``names`` in the order of the leaderboard's registry."""
    order = {e.name: i for i, e in enumerate(leaderboard.REGISTRY)}
    return sorted(names, key=lambda n: order.get(n, len(order)))


def _prepared_fold(name, random_state=0):
    """The first of 5 cross-validation folds (seed ``random_state``) of a catalogue data
    set, preprocessed as in the engine: ``Xtr, ytr, Xte, yte``, DataFrames of categoricals
    (MDL fitted on the training part) and labels."""
    from credal.experiments import default_preprocessing, fold_splits

    X, y = _complete_rows(name)
    _, _, tr, te = fold_splits(y, n_splits=5, n_repeats=1, random_state=random_state)[0]
    prep = default_preprocessing().fit(X.iloc[tr], y.iloc[tr])
    return prep.transform(X.iloc[tr]), y.iloc[tr], prep.transform(X.iloc[te]), y.iloc[te]


def _best_time(fn, repeat, min_total=1.0):
    """Best of up to ``repeat`` runs (stops repeating once ``min_total`` s are spent)."""
    best, spent, out = np.inf, 0.0, None
    for _ in range(max(1, int(repeat))):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best, spent = min(best, dt), spent + dt
        if spent > min_total:
            break
    return best, out


def _throughput(names, classifiers=(), repeat=3, baseline_rows=50, baseline_seconds=3.0,
                random_state=0) -> pd.DataFrame:
    """Instances classified per second, ours and the solver baseline's.

    On the first fold of each data set (:func:`_prepared_fold`, seed ``random_state``), each
    credal classifier (``classifiers``: registry names, empty = all; the leaderboard's default
    parameters) is fitted on the training part and its ``predict_set`` timed on the whole test
    part (best of ``repeat``) from the test part's integer codes (converted once beforehand,
    as for any implementation) and, for reference, from its DataFrame as the engine passes
    it.  Its baseline (:data:`BASELINES`) then classifies the test rows in order, one row per
    call on the same codes, in the same process, until ``baseline_rows`` rows are done or
    ``baseline_seconds`` have passed (at least one row): its rate is extrapolated from those
    rows, and its sets compared with ours on them.

    One row per (data set, classifier): ``n_train``, ``n_test``, ``classes``, ``features``,
    ``fit_s``, ``ours_per_s`` (codes), ``ours_frame_per_s`` (DataFrame), ``baseline``,
    ``baseline_rows``, ``baseline_per_s``, ``ratio`` (ours / baseline), ``same_sets`` (rows
    where the sets agree, out of ``baseline_rows``)."""
    from credal.preprocessing import to_codes

    rows = []
    for name in names:
        Xtr, ytr, Xte, yte = _prepared_fold(name, random_state)
        codes = to_codes(Xte)[0]
        for cname, model in leaderboard.classifiers(classifiers,
                                                    n_features=Xtr.shape[1]).items():
            with warnings.catch_warnings(action="ignore"):
                fit_s, _ = _best_time(lambda: model.fit(Xtr, ytr), 1)
            secs, sets = _best_time(lambda: model.predict_set(codes), repeat)
            fsecs, _ = _best_time(lambda: model.predict_set(Xte), repeat)
            fn, method = BASELINES[cname]
            bsets, t0 = [], time.perf_counter()
            while len(bsets) < min(baseline_rows, len(codes)) and (
                    not bsets or time.perf_counter() - t0 <= baseline_seconds):
                bsets.append(fn(model, codes[len(bsets):len(bsets) + 1]))
            done, bsecs, bsets = len(bsets), time.perf_counter() - t0, np.concatenate(bsets)
            rate, brate = len(codes) / secs, done / bsecs
            rows.append({"dataset": name, "classifier": cname, "n_train": len(Xtr),
                         "n_test": len(Xte), "classes": len(model.classes_),
                         "features": Xtr.shape[1], "fit_s": fit_s, "ours_per_s": rate,
                         "ours_frame_per_s": len(Xte) / fsecs, "baseline": method,
                         "baseline_rows": done, "baseline_per_s": brate, "ratio": rate / brate,
                         "same_sets": int(np.all(bsets == sets[:done], axis=1).sum())})
    return pd.DataFrame(rows)


def _fit_scaling(name, classifiers=(), sizes=(), feature_counts=(), repeat=3,
                 random_state=0) -> pd.DataFrame:
    """Fit time against the number of training rows and of features: ``name`` preprocessed
    once (MDL fitted on all rows); for each ``n`` in ``sizes`` a random (not stratified)
    subsample of ``n`` rows (seed ``random_state``) with all features, for each ``k`` in
    ``feature_counts`` the first ``k`` features of all rows; the best of ``repeat`` fits of
    each credal classifier (``classifiers``).  Columns ``classifier``, ``axis`` ("n" or
    "k"), ``value``, ``fit_s``."""
    from credal.experiments import default_preprocessing

    X, y = _complete_rows(name)
    X = default_preprocessing().fit(X, y).transform(X)
    perm = np.random.default_rng(random_state).permutation(len(X))
    jobs = [("n", int(n), X.iloc[perm[:int(n)]], y.iloc[perm[:int(n)]])
            for n in sizes if int(n) <= len(X)]
    jobs += [("k", int(k), X.iloc[:, :int(k)], y) for k in feature_counts
             if int(k) <= X.shape[1]]
    if jobs:  # one untimed fit each, so that first-call costs (imports, caches) do not count
        _, _, Xs, ys = min(jobs, key=lambda j: len(j[2]) * j[2].shape[1])
        with warnings.catch_warnings(action="ignore"):
            for model in leaderboard.classifiers(classifiers, n_features=Xs.shape[1]).values():
                model.fit(Xs, ys)
    rows = []
    for axis, value, Xs, ys in jobs:
        for cname, model in leaderboard.classifiers(classifiers, n_features=Xs.shape[1]).items():
            with warnings.catch_warnings(action="ignore"):
                secs, _ = _best_time(lambda: model.fit(Xs, ys), repeat, min_total=2.0)
            rows.append({"classifier": cname, "axis": axis, "value": value, "fit_s": secs})
    return pd.DataFrame(rows)


def _peak_memory(name, classifiers=(), random_state=0) -> pd.DataFrame:
    """Peak memory of fitting and of classifying, and the model's size: on the first fold
    of ``name`` (:func:`_prepared_fold`) each credal classifier (``classifiers``) is fitted,
    then classifies the test part (``predict_set``), under :mod:`tracemalloc` (the memory
    Python and numpy allocate during each call beyond what was allocated before it).  Indexed
    by classifier: ``fit peak MB``, ``predict_set peak MB``, ``model MB`` (pickled size),
    ``n_train``, ``n_test``, ``features``."""
    Xtr, ytr, Xte, _ = _prepared_fold(name, random_state)
    rows = []
    for cname, model in leaderboard.classifiers(classifiers, n_features=Xtr.shape[1]).items():
        with warnings.catch_warnings(action="ignore"):
            fit_peak, pred_peak = _peak_mb(lambda: model.fit(Xtr, ytr),
                                           lambda: model.predict_set(Xte))
        size = len(pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL))
        rows.append({"classifier": cname, "fit peak MB": fit_peak,
                     "predict_set peak MB": pred_peak, "model MB": size / 2 ** 20,
                     "n_train": len(Xtr), "n_test": len(Xte), "features": Xtr.shape[1]})
    return pd.DataFrame(rows).set_index("classifier")


def classifiers(credal=()) -> dict:
    """The line-up: credal's peers of Weka, then the credal classifiers timed against
    their solver baselines.

    Parameters
    ----------
    credal : sequence of str
        Registry names, empty = every credal classifier (as for
        :func:`credal.chapters.leaderboard.classifiers`, its default parameters).

    Returns
    -------
    dict of str -> estimator
        ``"C4.5"``, ``"naive Bayes"`` and ``"AODE"`` (set up as Weka's J48, NaiveBayes
        and AODE estimate), then the credal classifiers (registry names).
    """
    return {**{name: factory() for name, (_, _, factory) in _PEERS.items()},
            **leaderboard.classifiers(credal)}


def run(*, peer_datasets=(), peer_repeats=11, peer_warmup=5, peer_memory=True,
        peer_tools=True, throughput_datasets=(), classifiers=(), repeat=3, baseline_rows=40,
        baseline_seconds=2.0, scaling_dataset=None, scaling_sizes=(), features_dataset=None,
        feature_counts=(), memory_dataset=None, timings_profile=None,
        random_state=0) -> dict:
    """Every measurement of the chapter (a part whose data sets are not given is skipped).

    Parameters
    ----------
    peer_datasets, peer_repeats, peer_warmup, peer_memory, peer_tools
        The comparison with Weka (:func:`_peer_timings`; ``"<name> x<k>"`` repeats both
        parts ``k`` times): interleaved rounds, untimed runs per side, memory or not;
        with ``peer_tools`` the IP plugin and JNCC2 too (:func:`_tool_timings`).
    throughput_datasets, classifiers, repeat, baseline_rows, baseline_seconds
        Instances per second of the credal classifiers (registry names, empty = all; the
        leaderboard's default parameters) and their solver baselines on the first fold of
        each (:func:`_throughput`): best of ``repeat``, rows and seconds per baseline.
    scaling_dataset, scaling_sizes, features_dataset, feature_counts
        Fit time against the number of rows (random subsamples of the first data set) and
        of features (the first ``k`` features of the second).
    memory_dataset, timings_profile, random_state : str, str, int
        :mod:`tracemalloc` peaks on the first fold of this data set; the profile of
        ``results/_timings/<profile>.csv`` (the chapters' times); the seed of the splits.

    Returns
    -------
    dict
        ``peers``, ``peer_tools``, ``throughput``, ``scaling`` (both axes), ``memory``, ``timings`` (where
        measured) and ``settings`` (data sets, the baselines' limits, profile: for the text).
    """
    out = {"settings": dict(scaling_dataset=scaling_dataset, features_dataset=features_dataset,
                            memory_dataset=memory_dataset, baseline_rows=baseline_rows,
                            baseline_seconds=baseline_seconds, profile=timings_profile)}
    if peer_datasets:
        out["peers"] = _peer_timings(peer_datasets, repeats=peer_repeats, warmup=peer_warmup,
                                     memory=peer_memory, random_state=random_state)
    if peer_datasets and peer_tools:
        out["peer_tools"] = _tool_timings(peer_datasets, peer_repeats, peer_warmup, random_state)
    kw = dict(classifiers=classifiers, repeat=repeat, random_state=random_state)
    if throughput_datasets:
        out["throughput"] = _throughput(throughput_datasets, baseline_rows=baseline_rows,
                                        baseline_seconds=baseline_seconds, **kw)
    parts = [_fit_scaling(d, **{arg: v}, **kw) for d, arg, v in (
        (scaling_dataset, "sizes", scaling_sizes), (features_dataset, "feature_counts",
                                                     feature_counts)) if d]
    if parts:
        out["scaling"] = pd.concat(parts, ignore_index=True)
    if memory_dataset:
        out["memory"] = _peak_memory(memory_dataset, classifiers, random_state)
    if timings_profile:
        out["timings"] = _chapter_timings(timings_profile)
    return out


# --------------------------------------------------------------------- tables

def _peer_table(peers) -> pd.DataFrame:
    """The headline: Weka's time over credal's, per classifier and data set.

    Rows "classifier vs peer" of :func:`_peer_timings`, one column per data set: the
    ratio of the best times (≥ 1 = credal at least as fast).  Without Weka: credal's best
    time in ms instead (``attrs["values"]`` says which)."""
    weka = "ratio" in peers
    label = peers["classifier"] + (" vs " + peers["peer"] if weka else "")
    out = peers.assign(row=label).pivot(index="row", columns="dataset",
                                        values="ratio" if weka else "credal_best_s")
    out = (out.loc[list(dict.fromkeys(label)), list(dict.fromkeys(peers["dataset"]))]
           * (1 if weka else 1e3)).rename_axis(index="classifier", columns=None)
    out.attrs["values"] = ("Weka time / credal time (best of each)" if weka
                           else "credal best time (ms)")
    return out


def _peer_details(peers) -> pd.DataFrame:
    """Times (ms), accuracies, agreement and memory of :func:`_peer_timings`, one row per
    data set and classifier (the Weka columns only when Weka ran)."""
    names = {"credal_best_s": "credal best (ms)", "credal_median_s": "credal median (ms)",
             "weka_best_s": "Weka best (ms)", "weka_median_s": "Weka median (ms)",
             "ratio": "ratio (best)", "ratio_median": "ratio (median)",
             "credal_accuracy": "credal accuracy", "weka_accuracy": "Weka accuracy",
             "agreement": "same class", "credal_peak_mb": "credal peak MB",
             "weka_allocated_mb": "JVM allocated MB", "weka_retained_mb": "JVM model MB",
             "weka_peak_low_mb": "JVM peak MB (low)", "weka_peak_high_mb": "JVM peak MB (high)",
             "memory_bounds": "JVM bounds from", "memory_verdict": "credal's peak"}
    out = peers.drop(columns=["credal"])
    out[[c for c in out if c.endswith("_s")]] *= 1e3
    return out.rename(columns=names)


def _scaling_slopes(scaling) -> pd.DataFrame:
    """Least-squares slopes of log fit time against log n and log k (:func:`_fit_scaling`):
    indexed by classifier, ``slope n``, ``s.e. n``, ``slope k``, ``s.e. k`` (NaN with fewer
    than three points)."""
    rows = {}
    for (clf, axis), g in scaling.groupby(["classifier", "axis"], sort=False):
        x, yv = np.log(g["value"].to_numpy(float)), np.log(g["fit_s"].to_numpy(float))
        if len(x) >= 3 and np.ptp(x) > 0:
            coef, cov = np.polyfit(x, yv, 1, cov=True)
            slope, se = float(coef[0]), float(np.sqrt(cov[0, 0]))
        elif len(x) == 2 and np.ptp(x) > 0:
            slope, se = float((yv[1] - yv[0]) / (x[1] - x[0])), np.nan
        else:
            slope, se = np.nan, np.nan
        rows.setdefault(clf, {}).update({f"slope {axis}": slope, f"s.e. {axis}": se})
    out = pd.DataFrame.from_dict(rows, orient="index").rename_axis("classifier")
    cols = [c for c in ("slope n", "s.e. n", "slope k", "s.e. k") if c in out]
    return out[cols].loc[_ordered(out.index)]


def _chapter_timings(profile, root=".") -> pd.DataFrame:
    """Wall and CPU time of every chapter (the stems of ``notebooks/*.md`` under ``root``)
    as ``book/execute.py`` records them in ``results/_timings/<profile>.csv`` when each
    notebook finishes; a chapter never executed at that profile, or not yet executed in the
    current run, has no time (the performance chapter is executed last for this).  Indexed
    by chapter: ``seconds`` (NaN = not measured), ``cpu_seconds`` (its kernel and workers),
    ``cores`` (CPU over wall time) and ``status``.  ``attrs["run_before"]``: the wall time of
    the last full run before this chapter started (chapters may run two at a time, so their
    times need not add up to it; None if not recorded) and ``attrs["jobs"]``."""
    path = Path(root) / "results" / "_timings" / f"{profile}.csv"
    rec = pd.read_csv(path) if path.is_file() else pd.DataFrame(columns=["notebook", "seconds"])
    rec = rec.drop_duplicates("notebook", keep="last").set_index("notebook")
    rec = rec.reindex(columns=["seconds", "cpu_seconds", "jobs"]).astype(float)
    names = pd.Index(sorted(p.stem for p in (Path(root) / "notebooks").glob("*.md")), name="chapter")
    got = rec.reindex(names)
    out = pd.DataFrame({"seconds": got["seconds"], "cpu_seconds": got["cpu_seconds"],
                        "cores": got["cpu_seconds"] / got["seconds"],
                        "status": np.where(np.isfinite(got["seconds"]), "measured",
                                           "not measured at this profile")}, index=names)
    run = "(run before performance)"
    out.attrs.update(run_before=float(rec.at[run, "seconds"]) if run in rec.index else None,
                     jobs=int(rec.at[run, "jobs"]) if run in rec.index and np.isfinite(
                         rec.at[run, "jobs"]) else 1)
    return out


def _goals_table(throughput_table, timings, slopes=None, own_seconds=None, budgets=None,
                 peers=None, tools=None) -> pd.DataFrame:
    """The project's performance goals against the measurements (columns ``goal``,
    ``measured``, ``met``: "yes", "no", "undecided" (memory within the bounds of the JVM's
    peak) or "not measured"): ``throughput_table`` (:func:`_throughput`) at least 1000 times
    the solver baseline's rate; ``timings`` (:func:`_chapter_timings`, this chapter's time
    replaced by ``own_seconds``, its time in this run) within the chapters' ``budgets``
    (chapter -> minutes) and the whole book within 10 minutes (its wall time where
    ``book/execute.py`` recorded it); ``slopes``
    (:func:`_scaling_slopes`) linear learning in n (slope ≤ 1.2); ``peers`` (:func:`_peer_timings`)
    twice as fast as Weka on every data set, peak memory at most Weka's; ``tools``:
    :func:`_tool_goals`."""
    rows = []
    by_peer = list(peers.groupby("classifier", sort=False)) if peers is not None else []
    for clf, g in by_peer:  # issue 27: twice as fast, each data set's ratio (best, median)
        goal = (f"{clf}: at least 2× as fast as {g['peer'].iloc[0]} on every data set "
                "(fit + classification; issue 27)")
        rows.append((goal, "Weka not available", "not measured") if "ratio" not in g else (
            goal, "; ".join(f"{r['dataset']} {_cell(r)}" for _, r in g.iterrows()),
            "yes" if (g["ratio"] >= 2).all() else "no"))
    for clf, g in by_peer if peers is not None and "memory_verdict" in peers else ():
        v = g["memory_verdict"]
        more, within = g[v == "> Weka"], g[v.str.startswith("within")]
        rows.append((f"{clf}: peak memory at most {g['peer'].iloc[0]}'s",
                     f"≤ in {int((v == '≤ Weka').sum())} of {len(g)}"
                     + (f", within the bounds in {len(within)}" if len(within) else "")
                     + (f", above in {len(more)} ({', '.join(more['dataset'])})"
                        if len(more) else ""),
                     "no" if len(more) else "undecided" if len(within) else "yes"))
    rows += _tool_goals(tools) if tools is not None else []
    for clf, g in throughput_table.groupby("classifier", sort=False):
        worst = g.loc[g["ratio"].idxmin()]
        rows.append((f"{clf}: ≥ 1000× the solver baseline's instances/s",
                     f"{worst['ratio']:,.0f}× at worst ({worst['dataset']}); "
                     f"median {g['ratio'].median():,.0f}×",
                     "yes" if worst["ratio"] >= 1000 else "no"))
    for clf, r in slopes.iterrows() if slopes is not None and "slope n" in slopes else ():
        rows.append((f"{clf}: learning linear in n (log-log slope ≤ 1.2)",
                     f"slope {r['slope n']:.2f}", "yes" if r["slope n"] <= 1.2 else "no"))
    t = timings["seconds"].copy()
    if own_seconds is not None and "performance" in t.index:
        t["performance"] = float(own_seconds)
    for chap, minutes in (budgets or {}).items():
        v = t.get(chap, np.nan)
        rows.append((f"chapter {chap} at this profile ≤ {minutes:g} min", *(
            (f"{v / 60:.1f} min", "yes" if v <= 60 * minutes else "no") if np.isfinite(v)
            else ("not measured", "not measured"))))
    missing = [c for c in t.index if not np.isfinite(t[c])]
    total, before = float(t.sum(skipna=True)), timings.attrs.get("run_before")
    how = "sum of the chapters' times, one at a time"
    if before is not None and own_seconds is not None:  # the run's wall time
        total, how = before + float(own_seconds), (
            f"wall time, up to {timings.attrs.get('jobs', 1)} chapters at a time")
    rows.append(("whole book at this profile ≤ 10 min on 2 cores (issue 27; chapter "
                 "execution; the HTML build is not timed)",
                 f"{total / 60:.1f} min ({how}) for {len(t) - len(missing)} of {len(t)} chapters"
                 + (f" (no time for: {', '.join(missing)})" if missing else ""),
                 "no" if total > 60 * 10 else ("yes" if not missing else "not measured")))
    return pd.DataFrame(rows, columns=["goal", "measured", "met"])


def tables(results, own_seconds=None, budgets=None) -> dict:
    """Every table of the chapter, from :func:`run`'s measurements (those it made).

    Parameters
    ----------
    results : dict
        :func:`run`.
    own_seconds, budgets : float, dict of str -> float, optional
        For the goals: this chapter's time in this run (replacing any recorded earlier
        one) and chapter -> budget in minutes.

    Returns
    -------
    dict of str -> DataFrame
        ``peers`` (:func:`_peer_timings`, with its ``attrs``), ``peers_headline``
        (Weka's time over credal's by data set), ``peers_details`` (times in ms, accuracies,
        agreement, memory), ``peer_tools*`` (:func:`_tool_tables`), ``throughput``, ``fit_scaling``,
        ``fit_slopes`` (log-log slopes of fit time against n and k), ``peak_memory``,
        ``chapter_timings``, ``goals`` (the project's goals against the measurements;
        needs the throughput and the timings) and ``settings`` (the run's settings
        and ``seconds``, ``own_seconds``, for the text).
    """
    out = {}
    if "peers" in results:
        out.update(peers=results["peers"], peers_headline=_peer_table(results["peers"]),
                   peers_details=_peer_details(results["peers"]))
    out.update(_tool_tables(results.get("peer_tools")))
    for key, name in (("throughput", "throughput"), ("scaling", "fit_scaling"),
                      ("memory", "peak_memory"), ("timings", "chapter_timings")):
        if key in results:
            out[name] = results[key]
    if "scaling" in results:
        out["fit_slopes"] = _scaling_slopes(results["scaling"])
    if "throughput" in results and "timings" in results:
        out["goals"] = _goals_table(results["throughput"], results["timings"],
                                    out.get("fit_slopes"), own_seconds, budgets,
                                    results.get("peers"), results.get("peer_tools"))
    out["settings"] = pd.Series({**results["settings"], "seconds": own_seconds},
                                dtype=object).rename_axis("setting").to_frame("value")
    return out


# ------------------------------------------------------- numbers for the text

def numbers(tables) -> dict:
    """Strings quoted in the performance chapter's text (glued by the notebook).

    Parameters
    ----------
    tables : dict of str -> DataFrame
        :func:`tables`.

    Returns
    -------
    dict of str -> str
        The numbers of the tables present, this machine (``machine``), the run's
        settings and, when :func:`tables` was given it, this chapter's time in
        minutes (``elapsed``).
    """
    st = tables["settings"]["value"]
    out = {"machine": f"{platform.machine()}, {os.cpu_count()} logical CPUs, Python "
                      f"{platform.python_version()}", "baseline_rows": str(st["baseline_rows"]),
           "baseline_seconds": f"{st['baseline_seconds']:g}",
           **{k: st[k] for k in ("profile", "scaling_dataset", "features_dataset",
                                 "memory_dataset")}}
    if st["seconds"] is not None:
        out["elapsed"] = f"{st['seconds'] / 60:.1f}"
    if {"throughput", "fit_slopes", "peak_memory", "chapter_timings"} <= set(tables):
        out.update(_performance_numbers(tables["throughput"], tables["fit_slopes"],
                                        tables["peak_memory"], tables["chapter_timings"]))
    if "peers" in tables:
        out.update(_peer_numbers(tables["peers"]))
    out.update(_tool_numbers(tables["peer_tools"]) if "peer_tools" in tables else {})
    return out


def _performance_numbers(tp, slopes, memory, timings) -> dict:
    """Strings quoted in the text about the throughput, the slopes, memory and timings."""
    r = tp["ratio"]
    lo, hi, slow = tp.loc[r.idxmin()], tp.loc[r.idxmax()], tp.loc[tp["ours_per_s"].idxmin()]
    below = tp[r < 1000]
    fit, pred = memory["fit peak MB"], memory["predict_set peak MB"]
    out = {"ratio_min": f"{r.min():,.0f}", "ratio_min_where": f"{lo['classifier']} on {lo['dataset']}",
           "ratio_max": f"{r.max():,.0f}", "ratio_max_where": f"{hi['classifier']} on {hi['dataset']}",
           "ratio_median": f"{r.median():,.0f}", "n_below_goal": str(len(below)), "n_cases": str(len(tp)),
           "below_goal": "; ".join(f"{c} on {d} ({x:,.0f}×)" for c, d, x in zip(
               below["classifier"], below["dataset"], below["ratio"])) or "none",
           "agree": f"{tp['same_sets'].sum()} of {tp['baseline_rows'].sum()}",
           "slowest": f"{slow['classifier']} on {slow['dataset']} ({slow['ours_per_s']:,.0f} instances/s)",
           "mem_max_clf": fit.idxmax(), "mem_max": f"{fit.max():.0f}",
           "mem_pred_clf": pred.idxmax(), "mem_pred": f"{pred.max():.0f}",
           "n_timed": str(int(timings["seconds"].notna().sum())), "n_chapters": str(len(timings))}
    for a, s in ((a, slopes[f"slope {a}"].dropna()) for a in ("n", "k") if f"slope {a}" in slopes):
        out.update({f"slope_{a}_min": f"{s.min():.2f}", f"slope_{a}_max": f"{s.max():.2f}",
                    f"slope_{a}_max_clf": s.idxmax(), f"slope_{a}_min_clf": s.idxmin()})
    return out


def _peer_numbers(peers) -> dict:
    """Strings quoted in the text about the peer comparison."""
    a = peers.attrs
    out = {"peer_repeats": str(a.get("repeats", "")), "peer_warmup": str(a.get("warmup", "")),
           "peer_datasets": ", ".join(dict.fromkeys(peers["dataset"]))}
    if "ratio" not in peers:
        return {**out, "peer_status": f"Weka was not timed on this machine: "
                f"{a.get('weka') or 'not available'}. The table gives credal's best times (ms) "
                "only.", "peer_summary": "Without Weka there is no ratio to report.",
                "memory_summary": "Without Weka there is no memory to compare."}
    lo, hi = peers.loc[peers["ratio"].idxmin()], peers.loc[peers["ratio"].idxmax()]
    slower = peers[peers["ratio"] < 1]
    out["peer_status"] = (f"{a.get('weka')} ran in one Java virtual machine ({a.get('java')}). "
                          "The table gives Weka's time over credal's (best of each): at least "
                          "1 means credal is at least as fast.")
    out["peer_summary"] = (
        f"Both sides classify at least {100 * peers['agreement'].min():.1f} % of the test "
        f"rows alike. Credal is at least as fast in {int((peers['ratio'] >= 1).sum())} of "
        f"{len(peers)} cases; the ratio ranges from {lo['ratio']:.2f} ({lo['classifier']} on "
        f"{lo['dataset']}) to {hi['ratio']:.2f} ({hi['classifier']} on {hi['dataset']}). "
        "Slower than Weka: " + ("; ".join(f"{c} on {d} ({r:.2f})" for c, d, r in zip(
            slower["classifier"], slower["dataset"], slower["ratio"])) or "none") + ".")
    out["memory_summary"] = "Memory was not measured against Weka in this run."
    if "memory_verdict" in peers:
        v, more = peers["memory_verdict"], peers[peers["memory_verdict"] == "> Weka"]
        sampled = int((peers["memory_bounds"] != "first run").sum()) if "memory_bounds" in peers else 0
        out["memory_summary"] = (
            f"credal's peak is at most Weka's in {int((v == '≤ Weka').sum())} of {len(peers)} "
            f"cases, within the bounds of the JVM's peak in {int(v.str.startswith('within').sum())} "
            f"and above it in {len(more)}"
            + (f" (the bounds of {sampled} from warm runs with collections forced)" if sampled else "")
            + (": " + "; ".join(f"{c} on {d} ({m:.2f} MB against at most {h:.2f})" for c, d, m, h in
                                zip(more["classifier"], more["dataset"], more["credal_peak_mb"],
                                    more["weka_peak_high_mb"])) if len(more) else "") + ".")
    return out


# -------------------------------------------------------------------- figures

def performance_throughput(tp):
    """Instances classified per second: ours against the solver baseline.

    Parameters
    ----------
    tp : DataFrame
        :func:`_throughput`.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per data set; for each classifier a dot for ours and a cross for the
        baseline on a logarithmic axis, joined by a line labelled with the ratio.
    """
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(tp["dataset"]))
    clf = _ordered(list(dict.fromkeys(tp["classifier"])))
    ncol = min(2, len(names))                 # at most two panels per row
    nrow = -(-len(names) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(6.8, min(nrow * (0.9 + 0.3 * len(clf)) + 0.4, 6.6)),
                             sharey=True, squeeze=False, layout="constrained")
    y = np.arange(len(clf))[::-1]
    for ax, name in zip(axes.flat, names):
        sub = tp[tp["dataset"] == name].set_index("classifier").reindex(clf)
        for yi, (c, r) in zip(y, sub.iterrows()):
            if np.isfinite(r["ours_per_s"]):
                ax.plot([r["baseline_per_s"], r["ours_per_s"]], [yi, yi], color="0.6", lw=1)
                ax.text(np.sqrt(r["baseline_per_s"] * r["ours_per_s"]), yi + 0.12,
                        f"\u00d7{r['ratio']:,.0f}".replace(",", "\u2009"), ha="center",
                        va="bottom", fontsize=9)
        ax.scatter(sub["ours_per_s"], y, color="tab:blue", zorder=3, label="credal (ours)")
        ax.scatter(sub["baseline_per_s"], y, color="tab:red", marker="x", zorder=3,
                   label="solver baseline")
        ax.set(xscale="log", yticks=y, yticklabels=clf, ylim=(-0.7, len(clf) - 0.1),
               xlabel="instances per second (log)")
        ax.set_title(name, fontsize=10)
        ax.grid(alpha=0.3, axis="x")
        ax.tick_params(labelsize=9)
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside upper center", ncol=2,
               frameon=False, fontsize=9)
    return fig


def performance_scaling(scaling, slopes=None):
    """Fit time against the number of rows (top) and of features (bottom), log-log, the
    classifiers in three columns of panels (legends of a few entries, with the slopes).

    Parameters
    ----------
    scaling : DataFrame
        :func:`_fit_scaling`.
    slopes : DataFrame, optional
        :func:`_scaling_slopes` (shown in the legends).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    axes_names = [a for a in ("n", "k") if a in set(scaling["axis"])]
    clf = _ordered(list(dict.fromkeys(scaling["classifier"])))
    per = -(-len(clf) // 3)
    groups = [clf[i:i + per] for i in range(0, len(clf), per)]
    fig, axes = plt.subplots(len(axes_names), len(groups), figsize=(6.8, 0.9 + 2.4 * len(
        axes_names)), squeeze=False, sharey="row", layout="constrained")
    for row, a in enumerate(axes_names):
        on = scaling[scaling["axis"] == a]
        v = np.array(sorted(set(on["value"])), float)
        for ax, members in zip(axes[row], groups):
            for c in members:
                g = on[on["classifier"] == c]
                ax.plot(g["value"], g["fit_s"], marker="o", ms=3, label=c,
                        color=plt.get_cmap("tab10")(clf.index(c) % 10))
            if a == "n" and len(v) > 1:  # the linear slope, for comparison (the caption)
                ax.plot(v, on["fit_s"].median() * v / np.sqrt(v[0] * v[-1]), color="black",
                        lw=0.8, ls=":")
            ax.set(xscale="log", yscale="log", xlabel="training instances n (log)" if a == "n"
                   else "features k (log)")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
            ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: ""))
            ax.grid(alpha=0.3, which="both")
        axes[row, 0].set_ylabel("fit time (s, log)")
    for ax, members in zip(axes[0], groups):
        has = [a for a in axes_names if slopes is not None and f"slope {a}" in slopes]
        ax.legend(ax.get_lines()[:len(members)], [c + (": " + ", ".join(  # the slopes
            f"{a} {slopes.loc[c, f'slope {a}']:.2f}" for a in has) if has and c in
            slopes.index else "") for c in members], loc="lower center", frameon=False,
            bbox_to_anchor=(0.5, 1.0), fontsize=9, handlelength=1.2)
    return fig
