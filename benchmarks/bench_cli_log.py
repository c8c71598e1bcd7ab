"""What ``process --log`` costs per fsync policy, end to end through the real command.

Runs ``python -m a2ui_stream process --no-progress [--log L --fsync F] INPUT`` in a fresh
process per run, its output drained through a pipe as a consumer would, and reports the
best wall time of ``--repeat`` runs as MB/s and events/s, with the no-log run of the same
input as the baseline. ``--always-mb`` sizes the ``always`` input separately (an fsync
per event is slow on most disks).

``--against ROOT`` also runs another checkout's code (``PYTHONPATH=ROOT``), alternating
with this one run by run so both see the same machine load, and prints the ratio: the
fair before/after comparison on a shared machine.

Usage::

    python benchmarks/bench_cli_log.py [--workloads chat-mixed,data-churn-delta]
        [--mb 8] [--always-mb 0.5] [--repeat 3] [--fsync never,batch,always]
        [--against /path/to/other/checkout]
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


def _run(source: Path, log: Path | None, fsync: str, root: str | None, cwd: Path) -> float:
    """Run the command once (``root``: that checkout's code); return its wall time."""
    command = [sys.executable, "-m", "a2ui_stream", "process", "--no-progress"]
    if log is not None:
        log.unlink(missing_ok=True)
        command += ["--log", str(log), "--fsync", fsync]
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = root
    started = time.perf_counter()
    with (
        subprocess.Popen([*command, str(source)], stdout=subprocess.PIPE, env=env, cwd=cwd) as run,
        Path(os.devnull).open("wb") as sink,
    ):
        if run.stdout is not None:
            shutil.copyfileobj(run.stdout, sink)
    elapsed = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"{command} exited {run.returncode}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Measure each workload and policy; print one table row per cell."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workloads", default="chat-mixed,data-churn-delta")
    parser.add_argument("--mb", type=float, default=8.0)
    parser.add_argument("--always-mb", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fsync", default="never,batch,always")
    parser.add_argument("--against", help="another checkout to compare with")
    arguments = parser.parse_args(argv)
    roots: list[str | None] = [None] if arguments.against is None else [None, arguments.against]
    head = "| workload | MB | log | best s | MB/s | events/s | vs no log |"
    rule = "|---|---:|---|---:|---:|---:|---:|"
    if arguments.against:
        head += " other best s | other ÷ this |"
        rule += "---:|---:|"
    print(head)
    print(rule)
    with tempfile.TemporaryDirectory(prefix="bench-cli-log-") as directory:
        place = Path(directory)
        log = place / "events.log"
        baselines: dict[tuple[str, float], float] = {}
        for workload in arguments.workloads.split(","):
            for fsync in ["none", *arguments.fsync.split(",")]:
                mb = arguments.always_mb if fsync == "always" else arguments.mb
                source, events = _input(workload, mb)
                times: dict[str | None, list[float]] = {root: [] for root in roots}
                for _ in range(arguments.repeat):
                    for root in roots:
                        target = None if fsync == "none" else log
                        times[root].append(_run(source, target, fsync, root, place))
                best = {root: min(values) for root, values in times.items()}
                if fsync == "none":
                    baselines[workload, mb] = best[None]
                elif (workload, mb) not in baselines:
                    runs = [_run(source, None, "", None, place) for _ in range(arguments.repeat)]
                    baselines[workload, mb] = min(runs)
                size = source.stat().st_size / 1e6
                row = (
                    f"| {workload} | {size:.1f} | {fsync} | {best[None]:.2f} "
                    f"| {size / best[None]:.1f} | {events / best[None]:,.0f} "
                    f"| {baselines[workload, mb] / best[None]:.2f} |"
                )
                if arguments.against:
                    other = best[arguments.against]
                    row += f" {other:.2f} | {other / best[None]:.2f} |"
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
