"""Time one more event once the state is large: the per-event cost issue 12 wants flat.

The scaling rows of ``run.py`` divide a whole stream's time by its events, so a cost
that grows with the state shows there averaged over every size the stream went
through. This script measures it at a size: it streams a scaling workload up to
``--at`` events of setup, then times the next ``--count`` events alone, the best of
``--repeat`` fresh processors, with the collector tuned as ``a2ui-stream process``
tunes it. Shapes, each written by ``workloads.py`` into a temporary folder:

- ``append``: deltas each appending a component to one list (``scaling-append``);
  ``--at`` is the list's length;
- ``messages``: one surface per messageId in one run (``scaling-messages``); ``--at``
  is the messageIds already live;
- ``runs``: short runs of one surface each, every run kept, as ``process --final``,
  ``render`` and an archive's fold keep them (``scaling-runs``); ``--at`` is the runs
  already kept;
- ``delta``: one-value deltas on a surface ``--at`` times the 1x size
  (``scaling-delta``, ``--at`` 1, 10 or 100). The first ``--warm`` deltas (100 unless
  told) go to the setup: the converter compiles a component set's render plan at its
  16th conversion in a row, and a window that holds that compile times a cost paid
  once per surface, not per event (``--warm 0`` times it).

Usage::

    .venv/bin/python benchmarks/bench_marginal.py append --at 400,4000 [--count 500]
    .venv/bin/python benchmarks/bench_marginal.py messages --at 100,9000 [--patches]

Prints µs per event at each size, and the ratio to the first; ``--patches`` also
renders every update as an RFC 6902 patch (``--diffs patch``). ``--instructions``
counts instead of timing: the machine instructions one event takes, from valgrind's
cachegrind over the setup with and without the timed events. Slow (a minute a size),
but the same on every run, where times on a shared virtual machine move by 30%.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import a2ui_stream
from a2ui_stream._shell.cli import tune_collector

_HERE = Path(__file__).resolve().parent
_WORKLOADS = {
    "append": "scaling-append",
    "messages": "scaling-messages",
    "runs": "scaling-runs",
    "delta": "scaling-delta",
}


def _stream(
    shape: str, at: int, count: int, folder: Path, warm: int = 0
) -> tuple[list[bytes], int]:
    """The stream's lines, and where the timed events start (``warm`` deltas in)."""
    out = folder / f"{shape}-{at}.jsonl"
    sizes = ["--factor", str(at), "--events", str(warm + count)]
    if shape != "delta":
        sizes = ["--events", str(at + count)]  # a delta or a messageId each
    script = str(_HERE / "workloads.py")
    subprocess.run(
        [sys.executable, script, _WORKLOADS[shape], *sizes, "--seed", "0", "--out", str(out)],
        check=True,
    )
    lines = out.read_bytes().splitlines(keepends=True)
    if shape in {"messages", "runs"}:  # the first line of messageId number ``at``
        marker = b'"messageId":"a2ui-surface-tc-%d"' % at
        return lines, next(i for i, line in enumerate(lines) if marker in line)
    first = next(i for i, line in enumerate(lines) if b'"ACTIVITY_DELTA"' in line)
    return lines, first + warm if shape == "delta" else first + at


def _set_up(lines: list[bytes], start: int, shape: str) -> a2ui_stream.Processor:
    """A processor that has been fed the events before ``start``."""
    processor = a2ui_stream.Processor(keep_runs=None if shape == "runs" else 0)
    processor.feed(b"".join(lines[:start]))
    processor.take_diagnostics()
    return processor


def _feed(processor: a2ui_stream.Processor, lines: list[bytes], *, patches: bool) -> None:
    """Feed ``lines`` one at a time, rendering each update as a patch if asked."""
    for line in lines:
        for diff in processor.feed(line):
            if patches and diff.op == "update":
                diff.patch()


def _timed(lines: list[bytes], start: int, count: int, *, shape: str, patches: bool) -> float:
    """Seconds for ``count`` events from ``start``, after feeding the ones before it."""
    processor = _set_up(lines, start, shape)
    timed = lines[start : start + count]
    began = time.perf_counter()
    _feed(processor, timed, patches=patches)
    spent = time.perf_counter() - began
    if any(d.severity is a2ui_stream.Severity.ERROR for d in processor.take_diagnostics()):
        raise SystemExit("the timed events were refused: the size is past a limit")
    return spent / len(timed)


_REFS = re.compile(rb"I\s+refs:\s+([\d,]+)")


def _instructions(shape: str, stream: Path, start: int, count: int, *, patches: bool) -> float:
    """Instructions per event past the setup, counted by cachegrind."""

    def counted(events: int) -> int:
        command = [
            *("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"),
            *(sys.executable, __file__, shape, "--feed", f"{stream}:{start}:{events}"),
            *(["--patches"] if patches else []),
        ]
        found = _REFS.search(subprocess.run(command, capture_output=True, check=True).stderr)
        if found is None:
            raise SystemExit("valgrind printed no instruction count")
        return int(found.group(1).replace(b",", b""))

    return (counted(count) - counted(0)) / count


def main() -> None:
    """Measure each size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shape", choices=list(_WORKLOADS))
    parser.add_argument("--at", default="", help="sizes, comma-separated")
    parser.add_argument("--count", type=int, default=500, help="events timed at each size")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--warm", type=int, default=100, help="deltas fed before the timed ones (delta)"
    )
    parser.add_argument("--patches", action="store_true")
    parser.add_argument("--instructions", action="store_true", help="count, with valgrind")
    parser.add_argument("--feed", help=argparse.SUPPRESS)  # FILE:START:COUNT, under valgrind
    options = parser.parse_args()
    tune_collector()
    if options.feed:
        name, start, count = options.feed.rsplit(":", 2)
        lines = Path(name).read_bytes().splitlines(keepends=True)
        _feed(
            _set_up(lines, int(start), options.shape),
            lines[int(start) : int(start) + int(count)],
            patches=options.patches,
        )
        return
    if options.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on the PATH")
    sizes = [int(size) for size in options.at.split(",") if size] or [1, 10, 100]
    first = None
    with tempfile.TemporaryDirectory() as folder:
        for at in sizes:
            warm = options.warm if options.shape == "delta" else 0
            lines, start = _stream(options.shape, at, options.count, Path(folder), warm)
            if options.instructions:
                stream = Path(folder) / f"{options.shape}-{at}.jsonl"
                spent = _instructions(
                    options.shape, stream, start, options.count, patches=options.patches
                )
                first = first or spent
                print(
                    f"{options.shape} at {at:>6}: {spent:10,.0f} instructions per event  "
                    f"{spent / first:.2f}x"
                )
                continue
            best = min(
                _timed(lines, start, options.count, shape=options.shape, patches=options.patches)
                for _ in range(options.repeat)
            )
            first = first or best
            print(
                f"{options.shape} at {at:>6}: {best * 1e6:8.1f} µs per event  {best / first:.2f}x"
            )


if __name__ == "__main__":
    main()
