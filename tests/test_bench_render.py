"""Smoke test of the HTML view benchmark: a small run prints every case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def test_quick_run_prints_every_case() -> None:
    """Two sections, one repeat: the surface line and one row per case."""
    command = [sys.executable, str(BENCH / "bench_render.py"), "--sections", "2", "--repeat", "1"]
    done = subprocess.run(command, check=True, capture_output=True, text=True)  # noqa: S603 - our script
    lines = done.stdout.splitlines()
    assert lines[0].startswith("surface: 81 components -> ")
    assert len(lines) == 5
    assert all(" ms wall " in line and line.endswith(" ms cpu") for line in lines[1:])
