"""Shared test settings: a non-interactive plotting backend and reference folders."""

import os
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parents[1]
# Byte copies of the shared conformance outputs (see tests/conformance/ORIGIN.md).
CONFORMANCE = Path(__file__).resolve().parent / "conformance"
PUBLISHED = ROOT / "data" / "published"
