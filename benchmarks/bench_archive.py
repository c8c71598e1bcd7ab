"""Archives at scale (issue 20): one million events over a thousand threads, every way.

Times, each in a fresh child process, wall and CPU seconds (the child's and every
process it waited for, so Beam's worker processes count):

- ``process --final`` over the whole archive as one stream: the single-process CLI;
- the core's thread fold over the per-thread files in one process, without Beam;
- ``batch`` on per-thread files and on shuffled envelopes, on Beam's in-process runner
  and on one and two worker processes (``--direct_running_mode=multi_processing``).

Every ``batch`` output is checked against the first one, line for line, so a row that
is fast because it is wrong cannot pass. The archive is ``chat-mixed`` (the workload
of mixed chat traffic with surfaces), one seed per thread, cut to exactly
``--events`` events per thread; it is cached under ``benchmarks/data/``.

Usage::

    .venv/bin/pip install -e '.[beam]'
    .venv/bin/python benchmarks/bench_archive.py                  # 1,000 x 1,000 events
    .venv/bin/python benchmarks/bench_archive.py --threads 100 --events 100 --repeat 1
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import msgspec
import workloads

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
CLI = str(BIN / "a2ui-stream")
TWO = ["--direct_num_workers=2", "--direct_running_mode=multi_processing"]
ONE = ["--direct_num_workers=1", "--direct_running_mode=multi_processing"]


class Timing(NamedTuple):
    """One child process: wall seconds, CPU seconds (user + system, children too)."""

    wall: float
    cpu: float


def _archive(threads: int, events: int) -> Path:
    """The archive's directory: ``threads/`` (one file per thread) and ``all.jsonl``."""
    root = HERE / "data" / f"archive-{threads}x{events}-v{workloads.GENERATOR_VERSION}"
    done = root / "done"
    if done.exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    (root / "threads").mkdir(parents=True)
    started = time.perf_counter()
    # A chat-mixed run is about 190 events of 415 bytes: enough runs, then cut.
    mb = events * 500 / 1e6
    with (root / "all.jsonl").open("wb") as whole:
        for number in range(threads):
            buffer = io.BytesIO()
            workloads.generate("chat-mixed", buffer, mb=mb, seed=number)
            lines = buffer.getvalue().splitlines(keepends=True)
            while len(lines) < events:
                workloads.generate("chat-mixed", buffer, mb=mb, seed=number + threads)
                lines = buffer.getvalue().splitlines(keepends=True)
            name = f"thread-{number:05d}"
            body = b"".join(lines[:events]).replace(b'"thread-1"', f'"{name}"'.encode())
            (root / "threads" / f"{name}.jsonl").write_bytes(body)
            whole.write(body)
    size = (root / "all.jsonl").stat().st_size
    print(f"generated {threads:,} threads x {events:,} events, {size / 1e6:,.0f} MB "
          f"in {time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    done.touch()
    return root


def _run(command: list[str], *, stdout: Path | None = None) -> Timing:
    """Run a child to completion; its wall time and the CPU time of it and its children."""
    sink = stdout.open("wb") if stdout is not None else subprocess.DEVNULL
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if stdout is not None:
        sink.close()  # type: ignore[union-attr]
    error = child.stderr.read().decode() if child.stderr else ""
    # 1: the archive held dropped input (none here); anything else is a failure.
    if os.waitstatus_to_exitcode(status) not in {0, 1}:
        raise SystemExit(f"{' '.join(command)} failed:\n{error}")
    return Timing(wall, usage.ru_utime + usage.ru_stime)


def _envelopes(root: Path) -> Path:
    """The archive as one interleaved log, shuffled (order across threads is lost)."""
    path = root / "mux.jsonl"
    if path.exists():
        return path
    ordered = root / "mux-ordered.jsonl"
    timing = _run([CLI, "envelope", str(root / "threads" / "*.jsonl")], stdout=ordered)
    print(f"envelope: {timing.wall:.1f} s wall, {timing.cpu:.1f} s CPU", flush=True)
    lines = ordered.read_bytes().splitlines(keepends=True)
    random.Random(0).shuffle(lines)
    path.write_bytes(b"".join(lines))
    ordered.unlink()
    return path


def _fold_files(directory: str) -> None:
    """The child of the baseline row: every thread file folded by the core, here."""
    from a2ui_stream._wire.framing import Framer  # noqa: PLC0415 - only the child needs them
    from a2ui_stream.archive import ThreadFold  # noqa: PLC0415

    encode = msgspec.json.Encoder().encode
    out = bytearray()
    for path in sorted(Path(directory).glob("*.jsonl")):
        fold, framer = ThreadFold(path.stem), Framer()
        data = path.read_bytes()
        fold.feed_frames(framer.feed(data) + framer.close())
        out += encode(fold.result()) + b"\n"
    sys.stdout.buffer.write(out)


def _load() -> str:
    with Path("/proc/loadavg").open() as source:
        return " ".join(source.read().split()[:3])


def _rows(root: Path, mux: str) -> dict[str, list[str]]:
    """Each row's command; ``{out}`` is a fresh output directory."""
    files = str(root / "threads" / "*.jsonl")
    batch_files = [CLI, "batch", files, "--out", "{out}"]
    batch_mux = [CLI, "batch", mux, "--layout", "envelopes", "--out", "{out}"]
    return {
        "process --final, one stream": [CLI, "process", "--final", str(root / "all.jsonl")],
        "core fold of the files, one process": [
            sys.executable, __file__, "--fold-files", str(root / "threads"),
        ],
        "batch files, in-process runner": batch_files,
        "batch files, 1 worker process": [*batch_files, "--", *ONE],
        "batch files, 2 worker processes": [*batch_files, "--", *TWO],
        "batch envelopes, in-process runner": batch_mux,
        "batch envelopes, 1 worker process": [*batch_mux, "--", *ONE],
        "batch envelopes, 2 worker processes": [*batch_mux, "--", *TWO],
    }  # fmt: skip


def _results(out: Path) -> list[bytes]:
    """A batch job's per-thread lines, sorted: what every row must agree on."""
    return sorted(b"".join(p.read_bytes() for p in out.glob("threads-*")).splitlines())


def _measure(rows: dict[str, list[str]], repeat: int, threads: int) -> dict[str, Timing]:
    """Best wall time of each row over ``repeat`` rounds, rows interleaved in each."""
    best: dict[str, Timing] = {}
    reference: list[bytes] | None = None
    for round_ in range(repeat):
        for name, template in rows.items():
            with tempfile.TemporaryDirectory() as scratch:
                out = Path(scratch) / "out"
                command = [part.replace("{out}", str(out)) for part in template]
                timing = _run(command, stdout=Path(scratch) / "stdout")
                if out.exists():
                    lines = _results(out)
                    reference = reference or lines
                    if lines != reference or len(lines) != threads:
                        raise SystemExit(f"{name}: the results differ from the first row's")
            if name not in best or timing.wall < best[name].wall:
                best[name] = timing
            print(f"  round {round_ + 1} {name:<40} {timing.wall:7.1f} s wall "
                  f"{timing.cpu:7.1f} s CPU  (load {_load()})", flush=True)  # fmt: skip
    return best


def _report(best: dict[str, Timing], events: int) -> None:
    print("| row | wall s | CPU s | events/s (wall) | CPU µs/event |")
    print("|---|---:|---:|---:|---:|")
    for name, timing in best.items():
        print(f"| {name} | {timing.wall:.1f} | {timing.cpu:.1f} | {events / timing.wall:,.0f} "
              f"| {timing.cpu / events * 1e6:.1f} |")  # fmt: skip
    for layout in ("files", "envelopes"):
        one, two = (
            best[f"batch {layout}, 1 worker process"],
            best[f"batch {layout}, 2 worker processes"],
        )
        local = best[f"batch {layout}, in-process runner"]
        print(f"\n{layout}: 1 -> 2 workers: {one.wall / two.wall:.2f}x wall (linear 2.00x), "
              f"CPU {two.cpu / one.cpu:.2f}x of one worker's; "
              f"in-process runner -> 2 workers: {local.wall / two.wall:.2f}x wall")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Generate the archive once, then time every row ``--repeat`` times, interleaved."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1_000)
    parser.add_argument("--events", type=int, default=1_000, help="events per thread")
    parser.add_argument("--repeat", type=int, default=2, help="rounds (best of N per row)")
    parser.add_argument("--fold-files", help=argparse.SUPPRESS)  # the baseline's child
    args = parser.parse_args(argv)
    if args.fold_files:
        _fold_files(args.fold_files)
        return 0
    root = _archive(args.threads, args.events)
    rows = _rows(root, str(_envelopes(root)))
    print(f"{os.cpu_count()} CPUs; load average before: {_load()}", flush=True)
    best = _measure(rows, args.repeat, args.threads)
    events = args.threads * args.events
    print(f"\n{events:,} events over {args.threads:,} threads; best of {args.repeat}; "
          f"load average after: {_load()}\n")  # fmt: skip
    _report(best, events)
    return 0


if __name__ == "__main__":
    sys.exit(main())
