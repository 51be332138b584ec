"""The raw data files are complete and unchanged (data/SHA256SUMS): the shared copies in
data/raw, the papers' versions found later in data/added (its README)."""

import hashlib
import shutil
from pathlib import Path

import pytest

from credal import datasets

ROOT = Path(__file__).resolve().parents[1] / "data"
RAW = ROOT / "raw"
ADDED = ROOT / "added"


def _sums() -> dict[str, str]:
    out = {}
    for line in (ROOT / "SHA256SUMS").read_text().splitlines():
        if line.strip():
            digest, name = line.split(None, 1)
            out[name.strip().lstrip("*")] = digest.lower()
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_listed_file_exists_and_matches():
    sums = _sums()
    assert len(sums) > 50
    for name, digest in sums.items():
        path = RAW / name if (RAW / name).is_file() else ADDED / name
        assert path.is_file(), f"{name} is listed in SHA256SUMS but missing"
        assert _sha256(path) == digest, f"{name} differs from its recorded SHA-256"


def test_every_raw_file_is_listed():
    listed = set(_sums())
    present = {p.name for p in RAW.iterdir() if p.is_file()}
    assert not (present - listed), f"unlisted files in data/raw: {present - listed}"
    assert not [p for p in RAW.iterdir() if p.is_dir()], "data/raw has sub-folders"
    added = {p.name for p in ADDED.iterdir() if p.is_file()} - {"README.md", "MANIFEST.csv"}
    assert not (added - listed), f"unlisted files in data/added: {added - listed}"
    assert not (added & present), f"files in both data/raw and data/added: {added & present}"


def test_raw_is_a_byte_copy_of_the_shared_folder():
    shared = ROOT.parents[1] / "shared" / "datasets"  # ../shared relative to the project root
    if not shared.is_dir():
        pytest.skip(f"the shared material is not at {shared} (../shared beside the project)")
    for name in _sums():
        if (shared / name).is_file():  # data/added holds files the shared folder does not
            assert (shared / name).read_bytes() == (RAW / name).read_bytes(), name


def test_verify_checksums_clean():
    assert datasets.verify_checksums() == []


def test_verify_checksums_reports_changed_and_missing_files(tmp_path, monkeypatch):
    # a private copy of a few files, one corrupted and one deleted
    (tmp_path / "raw").mkdir()
    keep = ["iris.arff", "vote.arff", "zoo.arff"]
    lines = [
        f"{d}  {n}"
        for n, d in _sums().items()
        if n in keep
    ]
    (tmp_path / "SHA256SUMS").write_text("\n".join(lines) + "\n")
    for n in keep:
        shutil.copyfile(RAW / n, tmp_path / "raw" / n)
    monkeypatch.setenv("CREDAL_DATA", str(tmp_path))
    assert datasets.verify_checksums() == []
    data = bytearray((tmp_path / "raw" / "vote.arff").read_bytes())
    data[-10] ^= 1  # flip one bit
    (tmp_path / "raw" / "vote.arff").write_bytes(bytes(data))
    (tmp_path / "raw" / "zoo.arff").unlink()
    assert sorted(datasets.verify_checksums()) == ["vote.arff", "zoo.arff"]
