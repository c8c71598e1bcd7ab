"""What ``process --log`` costs per fsync policy, end to end through the real command.

Runs ``python -m a2ui_stream process --no-progress [--log L --fsync F] INPUT`` in a fresh
process per cell, its output drained through a pipe as a consumer would, and reports the
best wall time of ``--repeat`` runs as MB/s and events/s, with the no-log run as the
baseline. ``--always-mb`` sizes the ``always`` input separately (an fsync per event is
slow on most disks). Set ``PYTHONPATH`` to another checkout to measure its code instead,
for a before/after comparison on one machine.

Usage::

    python benchmarks/bench_cli_log.py [--workloads chat-mixed,data-churn-delta]
        [--mb 8] [--always-mb 1] [--repeat 3] [--fsync never,batch,always]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import workloads

_DATA = Path(__file__).resolve().parent / "data"


def _input(workload: str, mb: float) -> tuple[Path, int]:
    """Return a cached input file for the workload and its event count."""
    _DATA.mkdir(exist_ok=True)
    path = _DATA / f"cli-log-{workload}-{mb:g}mb.jsonl"
    if not path.exists():
        workloads.generate_file(path, workload, mb=mb, seed=0)
    return path, path.read_bytes().count(b"\n")


def _run(source: Path, log: Path | None, fsync: str) -> float:
    """Run the command once; return its wall time in seconds."""
    command = [sys.executable, "-m", "a2ui_stream", "process", "--no-progress"]
    if log is not None:
        log.unlink(missing_ok=True)
        command += ["--log", str(log), "--fsync", fsync]
    started = time.perf_counter()
    with (
        subprocess.Popen([*command, str(source)], stdout=subprocess.PIPE) as process,
        Path(os.devnull).open("wb") as sink,
    ):
        if process.stdout is not None:
            shutil.copyfileobj(process.stdout, sink)
    elapsed = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{command} exited {process.returncode}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Measure each workload and policy; print one table row per cell."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workloads", default="chat-mixed,data-churn-delta")
    parser.add_argument("--mb", type=float, default=8.0)
    parser.add_argument("--always-mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fsync", default="never,batch,always")
    arguments = parser.parse_args(argv)
    print("| workload | MB | log | best s | MB/s | events/s | vs no log |")
    print("|---|---:|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="bench-cli-log-") as directory:
        log = Path(directory) / "events.log"
        baselines: dict[tuple[str, float], float] = {}
        for workload in arguments.workloads.split(","):
            for fsync in ["none", *arguments.fsync.split(",")]:
                mb = arguments.always_mb if fsync == "always" else arguments.mb
                source, events = _input(workload, mb)
                if (workload, mb) not in baselines:
                    runs = (_run(source, None, "") for _ in range(arguments.repeat))
                    baselines[workload, mb] = min(runs)
                if fsync == "none":
                    best = baselines[workload, mb]
                else:
                    best = min(_run(source, log, fsync) for _ in range(arguments.repeat))
                size = source.stat().st_size / 1e6
                print(
                    f"| {workload} | {size:.1f} | {fsync} | {best:.2f} | {size / best:.1f} "
                    f"| {events / best:,.0f} | {baselines[workload, mb] / best:.2f} |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
