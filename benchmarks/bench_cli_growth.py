"""Run ``a2ui-stream process`` over a stream n, 2n, 4n... events long: CPU and peak RSS.

Issue 12 measured the whole command, not one event: ``process --diffs patch`` over
deltas each appending a component to one list took 18.3 s and 1.62 GB at 4,000
deltas. This script repeats that measurement on our own workloads: for each length it
writes the stream (``workloads.py``), runs the command in a fresh process with its
output discarded, and reads the child's CPU time and peak RSS off ``wait4``. What
should stay flat is the CPU per event; the RSS grows with what the state holds (one
list of n components), not with what one read of the input completes.

Usage::

    .venv/bin/python benchmarks/bench_cli_growth.py [append|messages] --events 1000,2000,4000,8000

Prints, per length: CPU seconds, µs of CPU per event past the first length's, and the
peak RSS in MiB. Needs a POSIX system (``os.wait4``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_WORKLOADS = {"append": "scaling-append", "messages": "scaling-messages"}


def _write(workload: str, events: int, folder: Path) -> Path:
    out = folder / f"{workload}-{events}.jsonl"
    script = str(_HERE / "workloads.py")
    command = [sys.executable, script, workload, "--events", str(events), "--seed", "0"]
    subprocess.run([*command, "--out", str(out)], check=True)
    return out


def _run(path: Path) -> tuple[float, float]:
    """CPU seconds (user and system) and peak RSS in MiB of one ``process`` run."""
    command = [sys.executable, "-m", "a2ui_stream", "process", "--no-progress"]
    with Path(os.devnull).open("wb") as sink:
        child = subprocess.Popen(
            [*command, "--diffs", "patch", str(path)], stdout=sink, stderr=sink
        )
        _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"process exited {child.returncode} on {path.name}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    """Run each length and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shape", nargs="?", choices=list(_WORKLOADS), default="append")
    parser.add_argument("--events", default="1000,2000,4000,8000", help="comma-separated")
    options = parser.parse_args()
    lengths = [int(length) for length in options.events.split(",") if length]
    first: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as folder:
        for events in lengths:
            cpu, rss = _run(_write(_WORKLOADS[options.shape], events, Path(folder)))
            # Per event past the first length: the interpreter's start-up cancels out.
            if first is None:
                first, per_event = (events, cpu), ""
            else:
                cost = (cpu - first[1]) / (events - first[0]) * 1e6
                per_event = f"{cost:8.1f} µs per event past {first[0]}"
            row = f"{options.shape} {events:>6} events: {cpu:6.2f} s CPU {rss:7.1f} MiB"
            print(f"{row}  {per_event}")


if __name__ == "__main__":
    main()
