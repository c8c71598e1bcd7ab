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
- ``delta``: one-value deltas on a surface ``--at`` times the 1x size
  (``scaling-delta``, ``--at`` 1, 10 or 100).

Usage::

    .venv/bin/python benchmarks/bench_marginal.py append --at 400,4000 [--count 500]
    .venv/bin/python benchmarks/bench_marginal.py messages --at 100,9000 [--patches]

Prints µs per event at each size, and the ratio to the first; ``--patches`` also
renders every update as an RFC 6902 patch (``--diffs patch``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import a2ui_stream
from a2ui_stream._shell.cli import tune_collector

_HERE = Path(__file__).resolve().parent
_WORKLOADS = {"append": "scaling-append", "messages": "scaling-messages", "delta": "scaling-delta"}


def _stream(shape: str, at: int, count: int, folder: Path) -> tuple[list[bytes], int]:
    """The stream's lines, and where the timed events start."""
    out = folder / f"{shape}-{at}.jsonl"
    sizes = ["--factor", str(at), "--events", str(count)]
    if shape != "delta":
        sizes = ["--events", str(at + count)]  # a delta or a messageId each
    script = str(_HERE / "workloads.py")
    subprocess.run(
        [sys.executable, script, _WORKLOADS[shape], *sizes, "--seed", "0", "--out", str(out)],
        check=True,
    )
    lines = out.read_bytes().splitlines(keepends=True)
    if shape == "messages":  # the first line of messageId number ``at``
        marker = b'"messageId":"a2ui-surface-tc-%d"' % at
        return lines, next(i for i, line in enumerate(lines) if marker in line)
    first = next(i for i, line in enumerate(lines) if b'"ACTIVITY_DELTA"' in line)
    return lines, first if shape == "delta" else first + at


def _timed(lines: list[bytes], start: int, count: int, *, patches: bool) -> float:
    """Seconds for ``count`` events from ``start``, after feeding the ones before it."""
    processor = a2ui_stream.Processor(keep_runs=0)
    processor.feed(b"".join(lines[:start]))
    processor.take_diagnostics()
    timed = lines[start : start + count]
    began = time.perf_counter()
    for line in timed:
        for diff in processor.feed(line):
            if patches and diff.op == "update":
                diff.patch()
    spent = time.perf_counter() - began
    if any(d.severity is a2ui_stream.Severity.ERROR for d in processor.take_diagnostics()):
        raise SystemExit("the timed events were refused: the size is past a limit")
    return spent / len(timed)


def main() -> None:
    """Measure each size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shape", choices=list(_WORKLOADS))
    parser.add_argument("--at", default="", help="sizes, comma-separated")
    parser.add_argument("--count", type=int, default=500, help="events timed at each size")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--patches", action="store_true")
    options = parser.parse_args()
    sizes = [int(size) for size in options.at.split(",") if size] or [1, 10, 100]
    tune_collector()
    first = None
    with tempfile.TemporaryDirectory() as folder:
        for at in sizes:
            lines, start = _stream(options.shape, at, options.count, Path(folder))
            best = min(
                _timed(lines, start, options.count, patches=options.patches)
                for _ in range(options.repeat)
            )
            first = first or best
            print(
                f"{options.shape} at {at:>6}: {best * 1e6:8.1f} µs per event  {best / first:.2f}x"
            )


if __name__ == "__main__":
    main()
