"""What ``process --log`` costs per fsync policy, end to end through the real command.

Runs ``python -m a2ui_stream process --no-progress [--log L --fsync F] INPUT`` in a fresh
process per run, its output drained through a pipe as a consumer would, and reports the
best wall time of ``--repeat`` runs as MB/s and events/s, with the no-log run of the same
input as the baseline, and the best CPU time (user + system) of the child: on a machine
others share, CPU time moves far less with their load than wall time does.
``--always-mb`` sizes the ``always`` input separately (an fsync per event is slow on
most disks).

``--against ROOT`` also runs another checkout's code (``PYTHONPATH=ROOT``), alternating
with this one run by run so both see the same machine load, and prints the ratio: the
fair before/after comparison on a shared machine (compare the CPU columns).

Usage::

    python benchmarks/bench_cli_log.py [--workloads chat-mixed,data-churn-delta]
        [--mb 8] [--always-mb 0.5] [--repeat 3] [--fsync never,batch,always]
        [--against /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(
    source: Path, log: Path | None, fsync: str, root: str | None, cwd: Path
) -> tuple[float, float]:
    """Run the command once (``root``: that checkout's code); return wall and CPU time."""
    command = [sys.executable, "-m", "a2ui_stream", "process", "--no-progress"]
    if log is not None:
        log.unlink(missing_ok=True)
        command += ["--log", str(log), "--fsync", fsync]
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = root
    started, cpu = time.perf_counter(), _cpu()
    with (
        subprocess.Popen([*command, str(source)], stdout=subprocess.PIPE, env=env, cwd=cwd) as run,
        Path(os.devnull).open("wb") as sink,
    ):
        if run.stdout is not None:
            shutil.copyfileobj(run.stdout, sink)
    elapsed = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"{command} exited {run.returncode}")
    return elapsed, _cpu() - cpu


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
    head = "| workload | MB | log | best s | MB/s | events/s | vs no log | CPU s |"
    rule = "|---|---:|---|---:|---:|---:|---:|---:|"
    if arguments.against:
        head += " other s | other CPU s | CPU other ÷ this |"
        rule += "---:|---:|---:|"
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
                times: dict[str | None, list[tuple[float, float]]] = {root: [] for root in roots}
                for _ in range(arguments.repeat):
                    for root in roots:
                        target = None if fsync == "none" else log
                        times[root].append(_run(source, target, fsync, root, place))
                wall = {root: min(w for w, _ in values) for root, values in times.items()}
                cpu = {root: min(c for _, c in values) for root, values in times.items()}
                if fsync == "none":
                    baselines[workload, mb] = wall[None]
                elif (workload, mb) not in baselines:
                    runs = [_run(source, None, "", None, place) for _ in range(arguments.repeat)]
                    baselines[workload, mb] = min(w for w, _ in runs)
                size = source.stat().st_size / 1e6
                row = (
                    f"| {workload} | {size:.1f} | {fsync} | {wall[None]:.2f} "
                    f"| {size / wall[None]:.1f} | {events / wall[None]:,.0f} "
                    f"| {baselines[workload, mb] / wall[None]:.2f} | {cpu[None]:.2f} |"
                )
                if arguments.against:
                    other = arguments.against
                    row += f" {wall[other]:.2f} | {cpu[other]:.2f} | {cpu[other] / cpu[None]:.2f} |"
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
