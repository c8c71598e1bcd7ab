"""The stream's state holds no reference cycle, which ``process`` relies on.

``a2ui-stream process`` moves what each chunk leaves alive past the cyclic collector
(:func:`~a2ui_stream._shell.cli.settle_chunk`, ``gc.freeze``): anything in a cycle
would never be freed there. Here every input the fuzzer keeps, the bundled recording
and streams of each benchmark shape go through a processor that freezes after every
chunk; then everything is unfrozen and collected. The first pass may leave what is made
once (a decoder's closures, a class), so the inputs go through twice, and the second
pass must leave nothing for the collector at all.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

import a2ui_stream
from a2ui_stream._shell.cli import settle_chunk

_ROOT = Path(__file__).resolve().parents[1]
_CORPUS = _ROOT / "tests" / "fuzz_corpus" / "pipeline"
_WORKLOADS = ("chat-mixed", "many-surfaces", "data-churn-delta", "data-churn-all", "adversarial")


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    folder = tmp_path_factory.mktemp("workloads")
    found = [path.read_bytes() for path in sorted(_CORPUS.iterdir())]
    found.append((_ROOT / "examples" / "recording.jsonl").read_bytes())
    for name in _WORKLOADS:
        out = folder / f"{name}.jsonl"
        script = str(_ROOT / "benchmarks" / "workloads.py")
        command = [sys.executable, script, name, "--mb", "0.3", "--seed", "1", "--out", str(out)]
        subprocess.run(command, check=True)  # noqa: S603 - our own script, our arguments
        found.append(out.read_bytes())
    return found


def _feed_all(streams: list[bytes]) -> None:
    for data in streams:
        processor = a2ui_stream.Processor(keep_runs=0)
        for start in range(0, len(data), 1 << 14):
            processor.feed(data[start : start + (1 << 14)])
            processor.take_diagnostics()
            settle_chunk()
        processor.close()


def test_a_second_pass_leaves_nothing_for_the_cyclic_collector(streams: list[bytes]) -> None:
    """Each input fed in 16 KiB chunks, frozen after each: no cycle is left behind."""
    assert len(streams) > 100  # the fuzz corpus is there
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _feed_all(streams)  # what is made once
        gc.unfreeze()
        gc.collect()
        _feed_all(streams)
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            left = [type(item).__name__ for item in gc.garbage]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    finally:
        if was_enabled:
            gc.enable()
    assert left == []
