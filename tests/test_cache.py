"""The engine's fold cache: files verify themselves, keys cover the core's code, and
writers sharing a folder never fail."""

import hashlib
import multiprocessing
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import credal
from credal import experiments
from test_experiments import EST, FrequencySet, Prior, _toy


def _run(cache_dir, **kw):
    return experiments.cross_validate(EST, [_toy(), _toy(90, 1, "toy2")], n_repeats=2,
                                      preprocessing=None, progress=False,
                                      cache_dir=cache_dir, **kw)


def _counting(monkeypatch):
    calls = []
    real = experiments._run_one
    monkeypatch.setattr(experiments, "_run_one", lambda *x: calls.append(1) or real(*x))
    return calls


def _same(a, b):
    pd.testing.assert_frame_equal(a.predictions, b.predictions, check_exact=True)
    cols = [c for c in a.folds.columns if not c.endswith("_time")]
    pd.testing.assert_frame_equal(a.folds[cols], b.folds[cols], check_exact=True)


def test_reading_back_verified_files_warns_nothing(tmp_path, monkeypatch, recwarn):
    a = _run(tmp_path)
    calls = _counting(monkeypatch)
    _same(a, _run(tmp_path))
    assert calls == [] and not [w for w in recwarn if "cache file" in str(w.message)]


def test_a_flipped_byte_is_recomputed_with_a_warning(tmp_path, monkeypatch):
    fresh = _run(None)
    _run(tmp_path)
    files = sorted(tmp_path.glob("*.joblib"))
    # flip bytes in every third file, at several places (inside the stored result's
    # bytes, in the digest or the key, or in the container itself)
    bad = files[::3]
    for k, f in enumerate(bad):
        raw = bytearray(f.read_bytes())
        raw[(k * 97 + len(raw) // 2) % len(raw)] ^= 0x10
        f.write_bytes(bytes(raw))
    calls = _counting(monkeypatch)
    with pytest.warns(UserWarning, match="cache file") as rec:
        again = _run(tmp_path)
    named = {Path(str(w.message).split()[2]).name for w in rec if "cache file" in str(w.message)}
    assert named == {f.name for f in bad}
    assert len(calls) == len(bad)
    _same(fresh, again)


def test_swapped_files_are_recomputed_with_a_warning(tmp_path, monkeypatch):
    fresh = _run(None)
    _run(tmp_path)
    f1, f2 = sorted(tmp_path.glob("*.joblib"))[:2]
    b1, b2 = f1.read_bytes(), f2.read_bytes()
    f1.write_bytes(b2)
    f2.write_bytes(b1)
    calls = _counting(monkeypatch)
    with pytest.warns(UserWarning, match="cache file") as rec:
        again = _run(tmp_path)
    assert {f1.name, f2.name} <= {Path(str(w.message).split()[2]).name for w in rec}
    assert len(calls) == 2
    _same(fresh, again)
    # the rewritten files verify again
    calls.clear()
    _run(tmp_path)
    assert calls == []


def test_bad_files_are_reported_with_two_workers(tmp_path):
    _run(tmp_path)
    f = sorted(tmp_path.glob("*.joblib"))[0]
    f.write_bytes(f.read_bytes()[:-40])  # truncated
    with pytest.warns(UserWarning, match=f"cache file .*{f.name}"):
        _run(tmp_path, n_jobs=2)


def test_core_hash_covers_every_core_module_and_no_chapter():
    root = Path(credal.__file__).parent
    experiments._core_hash.cache_clear()  # the files may have changed since the first call
    h = hashlib.sha256()
    files = sorted(root.glob("*.py"))
    assert {"_validation.py", "independence.py", "_tables.py"} <= {p.name for p in files}
    for p in files:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    assert experiments._core_hash() == h.hexdigest()
    assert experiments._core_hash() is experiments._core_hash()  # computed once


def test_a_change_of_core_code_recomputes_every_fold(tmp_path, monkeypatch):
    a = _run(tmp_path)
    calls = _counting(monkeypatch)
    monkeypatch.setattr(experiments, "_core_hash", lambda: "another version of the core")
    _same(a, _run(tmp_path))
    assert len(calls) == len(a.folds)


class Wrapper(Prior):
    """A meta-estimator: its nested estimator's parameters are part of the key."""

    def __init__(self, inner=None, smoothing=1.0):
        super().__init__(smoothing)
        self.inner = inner


def test_key_covers_class_and_deep_parameters():
    key = experiments._estimator_key
    assert key(Prior(1.0)) == key(Prior(1.0))
    assert key(Prior(1.0)) != key(Prior(2.0))
    assert key(FrequencySet(0.5)) != key(Prior(0.5))
    assert key(Wrapper(Prior(1.0))) != key(Wrapper(Prior(2.0)))
    assert key(Wrapper(Prior(1.0))) != key(Wrapper(FrequencySet(1.0)))
    # arrays by value, not by a truncated repr
    big = np.zeros(5000)
    other = big.copy()
    other[2500] = 1
    assert key(Prior(big)) != key(Prior(other))


def _write_many(path, key, n, seed):
    res = {"pred": np.full(50, seed), "sets": np.eye(50, dtype=bool)}
    for _ in range(n):
        experiments._cache_write(Path(path), key, res)


def test_two_processes_writing_the_same_key_never_fail(tmp_path):
    path = tmp_path / "samekey.joblib"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_write_many, args=(str(path), "samekey", 150, s))
             for s in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    res, note = experiments._cache_read(path, "samekey")
    assert note is None and res["pred"][0] in (1, 2)  # one complete write won
    assert list(tmp_path.glob("*.tmp")) == []
    # and two whole runs sharing a folder at the same time
    procs = [ctx.Process(target=_run, args=(tmp_path / "cv",)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
    assert [p.exitcode for p in procs] == [0, 0]


# --------------------------------------------------------- issue 29: code outside the core

_MINE = '''
import credal


class Mine(credal.NCC):
    """A user's classifier: its fit changes s."""

    def fit(self, X, y):
        self.s = {s}
        return super().fit(X, y)
'''


def _mine(tmp_path, s, monkeypatch):
    import importlib
    import sys

    (tmp_path / "user_mine.py").write_text(_MINE.replace("{s}", s))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = sys.modules.get("user_mine")
    return (importlib.reload(mod) if mod else importlib.import_module("user_mine")).Mine


@pytest.mark.parametrize("wrap", [lambda e: e, lambda e: credal.make_pipeline(e)],
                         ids=["classifier", "in a pipeline"])
def test_a_user_classifier_whose_code_changed_is_recomputed(tmp_path, monkeypatch, wrap):
    cache, code = tmp_path / "cache", tmp_path / "code"
    code.mkdir()
    data = "iris"
    kw = dict(n_repeats=1, progress=False, cache_dir=cache)
    first = experiments.cross_validate({"m": wrap(_mine(code, "1.0", monkeypatch)())}, data, **kw)
    edited = {"m": wrap(_mine(code, "8.0 * 1.0", monkeypatch)())}
    again = experiments.cross_validate(edited, data, **kw)
    fresh = experiments.cross_validate(edited, data, n_repeats=1, progress=False)
    _same(fresh, again)
    assert again.folds.determinacy.mean() < first.folds.determinacy.mean()


def _rewrite(path, change):
    """A cache file whose result ``change`` altered, with a valid key and digest."""
    import io

    import joblib

    entry = joblib.load(path)
    res = joblib.load(io.BytesIO(entry["data"]))
    change(res)
    buf = io.BytesIO()
    joblib.dump(res, buf)
    entry["data"] = buf.getvalue()
    entry["sha256"] = hashlib.sha256(entry["data"]).hexdigest()
    joblib.dump(entry, path)


@pytest.mark.parametrize("change", [
    lambda r: r.update(sets=r["sets"][:-1]) if r["sets"] is not None else r.update(pred=r["pred"][:-1]),
    lambda r: r.update(classes=np.array(["x", "y"], dtype=object)),
], ids=["shape", "classes"])
def test_a_cached_result_unlike_a_fresh_one_is_recomputed_naming_its_fold(tmp_path, change):
    fresh = _run(None)
    _run(tmp_path)
    files = sorted(tmp_path.glob("*.joblib"))
    for f in files[::4]:
        _rewrite(f, change)
    with pytest.warns(UserWarning, match=r"holds no valid result") as rec:
        again = _run(tmp_path)
    text = [str(w.message) for w in rec if "holds no valid result" in str(w.message)]
    assert len(text) == len(files[::4])
    assert all("repeat" in t and "fold" in t and "classifier" in t for t in text)
    _same(fresh, again)


def test_a_directory_in_place_of_a_cache_file_warns_and_recomputes(tmp_path):
    fresh = _run(None)
    _run(tmp_path)
    victim = sorted(tmp_path.glob("*.joblib"))[0]
    victim.unlink()
    victim.mkdir()
    with pytest.warns(UserWarning, match="cannot write cache file"):
        again = _run(tmp_path)
    _same(fresh, again)
    assert victim.is_dir()


def test_leftover_temporary_files_are_cleaned(tmp_path):
    import os
    import time

    old, new = tmp_path / "a.1.x.tmp", tmp_path / "b.2.y.tmp"
    old.write_bytes(b"half"), new.write_bytes(b"half")
    os.utime(old, (time.time() - 7200,) * 2)
    _run(tmp_path)
    assert not old.exists() and new.exists()  # a writer may still be at work on new
