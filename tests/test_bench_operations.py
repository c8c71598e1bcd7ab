"""Smoke test of the operation-decoding benchmark: its cases decode cleanly and it runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream.a2ui import UpdateComponents, decode_operation

if TYPE_CHECKING:
    from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def load_bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # the script imports its sibling ``_shapes``
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_operations", BENCH / "bench_operations.py"
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


class TestBenchOperations:
    def test_cases_are_clean_operations(self) -> None:
        """Every benchmark message decodes to an operation without warnings (the fast path)."""
        cases = load_bench().cases(3)
        assert set(cases) == {"components-4000", "chat-triple", "data-model-big"}
        for messages in cases.values():
            for i, raw in enumerate(messages):
                op = decode_operation(raw, index=i)
                assert not isinstance(op, Diagnostic), op
                assert op.warnings == ()
        (big,) = cases["components-4000"]
        op = decode_operation(big, index=0)
        assert isinstance(op, UpdateComponents)
        assert len(op.components) >= 4000

    def test_quick_run_prints_every_case(self) -> None:
        """One run of one call per case prints a row per case and gc setting."""
        command = [
            sys.executable,
            str(BENCH / "bench_operations.py"),
            "--repeat",
            "1",
            "--number",
            "1",
        ]
        done = subprocess.run(command, check=True, capture_output=True, text=True)  # noqa: S603 - our script
        rows = done.stdout.splitlines()[1:]
        assert len(rows) == 6
        assert {row.split()[0] for row in rows} == {
            "components-4000",
            "chat-triple",
            "data-model-big",
        }
