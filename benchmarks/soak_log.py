"""Soak and speed of the event log: crash recovery under SIGKILL, and append throughput.

``soak`` runs ``tests/log_writer.py`` against a file log and kills it with SIGKILL at
random (seeded) moments, many times; after every kill it reopens the log and checks that
it holds a prefix of the writer's input with no partial event and every acknowledged
event. ``throughput`` times appends under each fsync policy, reads and the scan at open.

Usage::

    python benchmarks/soak_log.py soak --kills 100 [--fsync always batch never] [--seconds S]
    python benchmarks/soak_log.py throughput [--events N]

Exits with status 1 if any soak round lost an acknowledged event, kept a bad one, or
found its writer dead before the kill.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from a2ui_stream._shell.filelog import FileLog

# The writer script and its checks live beside the tests that use them too.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import log_writer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._shell.filelog import FsyncPolicy


def soak(args: argparse.Namespace) -> int:
    """Run the kill loop for each policy asked for and print one summary per policy."""
    failed = False
    for policy in args.fsync:
        with tempfile.TemporaryDirectory(prefix="soak-log-", dir=args.dir) as directory:
            started = time.perf_counter()
            summary = log_writer.kill_loop(
                Path(directory),
                fsync=policy,
                kills=args.kills,
                seed=args.seed,
                max_delay=args.max_delay,
                seconds=args.seconds,
                max_batch=args.max_batch,
                batch_chance=args.batch_chance,
            )
            elapsed = time.perf_counter() - started
        failed = failed or bool(summary.lost_acked or summary.mismatches or summary.writer_errors)
        print(
            f"fsync={policy}: kills={summary.kills} events_checked={summary.records} "
            f"max_acked={summary.max_acked} torn_tails={summary.torn_tails} "
            f"bytes_truncated={summary.truncated_bytes} lost_acked={summary.lost_acked} "
            f"mismatches={summary.mismatches} writer_errors={summary.writer_errors} "
            f"logs={summary.logs} seconds={elapsed:.1f}"
        )
    return 1 if failed else 0


def throughput(args: argparse.Namespace) -> int:
    """Time appends per policy (single and batched), a full read and the scan at open."""
    lines = [log_writer.event_line(seq * 16) for seq in range(args.events)]  # no big lines
    size = sum(map(len, lines)) / len(lines)
    print(f"events of {size:.0f} bytes on average, {args.events} per run")
    policies: tuple[FsyncPolicy, ...] = ("always", "batch", "never")
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args.dir) as directory:
        for policy in policies:
            count = min(args.events, args.always_events) if policy == "always" else args.events
            path = Path(directory) / f"{policy}.jsonl"
            with FileLog.open(path, fsync=policy) as log:
                started = time.perf_counter()
                for line in lines[:count]:
                    log.append(line)
                log.flush()
                single = count / (time.perf_counter() - started)
            path.unlink()
            with FileLog.open(path, fsync=policy) as log:
                started = time.perf_counter()
                for first in range(0, count, args.batch):
                    log.append_many(lines[first : first + args.batch])
                log.flush()
                batched = count / (time.perf_counter() - started)
            print(
                f"fsync={policy:6} append: {single:12,.0f} events/s   "
                f"append_many({args.batch}): {batched:12,.0f} events/s   ({count} events)"
            )
        path = Path(directory) / "read.jsonl"
        with FileLog.open(path, fsync="never") as log:
            for _ in range(args.read_copies):
                log.append_many(lines)
        megabytes = path.stat().st_size / 1e6
        started = time.perf_counter()
        with FileLog.open(path, fsync="never") as log:
            opened = time.perf_counter() - started
            started = time.perf_counter()
            records = sum(1 for _ in log.read())
            read = time.perf_counter() - started
        print(
            f"open (scan) {megabytes:.0f} MB: {megabytes / opened:,.0f} MB/s   "
            f"read: {records / read:,.0f} events/s ({megabytes / read:,.0f} MB/s)"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, default=None, help="where temporary logs go")
    commands = parser.add_subparsers(dest="command", required=True)
    soak_parser = commands.add_parser("soak", help="kill a writer many times, check the log")
    soak_parser.add_argument("--kills", type=int, default=100)
    soak_parser.add_argument(
        "--fsync", nargs="+", choices=("always", "batch", "never"), default=["always"]
    )
    soak_parser.add_argument("--seconds", type=float, default=None, help="time cap per policy")
    soak_parser.add_argument("--seed", type=int, default=0)
    soak_parser.add_argument("--max-delay", type=float, default=0.4)
    soak_parser.add_argument("--max-batch", type=int, default=1000)
    soak_parser.add_argument("--batch-chance", type=float, default=0.05)
    bench_parser = commands.add_parser("throughput", help="time appends per fsync policy")
    bench_parser.add_argument("--events", type=int, default=100_000)
    bench_parser.add_argument("--always-events", type=int, default=5_000)
    bench_parser.add_argument("--batch", type=int, default=64)
    bench_parser.add_argument("--read-copies", type=int, default=10)
    args = parser.parse_args(argv)
    return soak(args) if args.command == "soak" else throughput(args)


if __name__ == "__main__":
    sys.exit(main())
