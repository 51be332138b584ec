"""Shared test settings: a non-interactive plotting backend and reference folders."""

import os
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parents[1]
# Byte copies of the shared conformance outputs (see tests/conformance/ORIGIN.md).
CONFORMANCE = Path(__file__).resolve().parent / "conformance"
PUBLISHED = ROOT / "data" / "published"

# CI runs the property tests with a fixed example sequence, so a submission's result does
# not depend on the luck of the draw; developers' runs explore new examples every time.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
