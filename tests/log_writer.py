"""A log writer to be killed, and the driver that kills it and checks what survived.

Run as a script, it appends a deterministic sequence of AG-UI events to a :class:`FileLog`
(continuing from the log's current length), writing ``opened <length>`` to stdout once the
log is open and ``acked <seq>`` after each append returns. Imported, it offers
:func:`event_line` (the expected content of every seq), :func:`check_log` and
:func:`kill_loop`, used by ``tests/test_filelog.py`` and ``benchmarks/soak_log.py``.

Usage: ``python tests/log_writer.py LOG [--fsync always|batch|never] [--seed N]
[--max-batch N] [--batch-chance P]``.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from a2ui_stream._shell.filelog import FileLog

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._shell.filelog import FsyncPolicy

WRITER = Path(__file__).resolve()
_ENCODER = msgspec.json.Encoder()
# Multi-byte characters so that a torn write can end inside a UTF-8 sequence.
_ALPHABET = 'abcdefghij é漢字🙂 klmnop"q\\rs ü xyz'
_TEXT = _ALPHABET * 6000


def event_line(seq: int) -> bytes:
    """Return the compact JSON line the writer appends as event ``seq``.

    Most lines are a few hundred bytes; one in 16 is 20-200 KB, so that a kill often
    lands inside a write spanning many pages (the kernel stops such a write part way
    when SIGKILL arrives, leaving a torn tail).
    """
    start = seq % len(_ALPHABET)
    spread = seq * 2654435761
    length = 20_000 + spread % 180_000 if seq % 16 == 7 else 1 + spread % 397
    return _ENCODER.encode(
        {
            "type": "TEXT_MESSAGE_CONTENT",
            "messageId": f"m{seq // 64}",
            "delta": f"{seq}:{_TEXT[start : start + length]}",
        }
    )


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """What reopening a log after a kill found.

    Attributes:
        records: complete records in the log.
        truncated: bytes of torn tail the reopen dropped.
        mismatch: the first seq whose line differs from :func:`event_line`, if any.
    """

    records: int
    truncated: int
    mismatch: int | None


def check_log(path: Path, start: int = 0) -> Check:
    """Reopen a log as its next writer would and compare records from ``start`` on.

    Args:
        path: the log file.
        start: the first seq to compare (earlier ones were checked before).

    Returns:
        What was found.
    """
    before = path.stat().st_size if path.exists() else 0
    with FileLog.open(path, fsync="never") as log:
        truncated = before - log.size
        mismatch = next(
            (seq for seq, line in log.read(start) if line != event_line(seq)),
            None,
        )
        return Check(records=len(log), truncated=truncated, mismatch=mismatch)


class Summary(msgspec.Struct, kw_only=True):
    """Totals over a kill loop.

    Attributes:
        kills: writers killed with SIGKILL.
        records: records in the log(s) at the end, all checked.
        max_acked: the highest seq any writer acknowledged (over all logs).
        lost_acked: kills after which an acknowledged record was missing (must be 0).
        mismatches: kills after which a record differed from the input (must be 0).
        writer_errors: writers that exited before the kill (they crashed; must be 0).
        torn_tails: reopens that truncated a torn tail.
        truncated_bytes: bytes those reopens dropped.
        logs: log files used (a new one starts when ``rotate_bytes`` is passed).
    """

    kills: int = 0
    records: int = 0
    max_acked: int = -1
    lost_acked: int = 0
    mismatches: int = 0
    writer_errors: int = 0
    torn_tails: int = 0
    truncated_bytes: int = 0
    logs: int = 1


def kill_loop(
    directory: Path,
    *,
    fsync: FsyncPolicy,
    kills: int,
    seed: int,
    max_delay: float = 0.4,
    seconds: float | None = None,
    max_batch: int = 1000,
    batch_chance: float = 0.05,
    rotate_bytes: int = 64 << 20,
) -> Summary:
    """Start the writer, SIGKILL it at a random moment and check the log, ``kills`` times.

    Each round checks that the reopened log holds a prefix of :func:`event_line` values
    (every complete record equal to its expected line, no partial record left) and that
    every acknowledged seq is in it.

    Args:
        directory: where the log files go.
        fsync: the writer's fsync policy.
        kills: how many rounds.
        seed: seeds the kill delays and the writers' batch sizes.
        max_delay: the latest kill, in seconds after the writer opened the log.
        seconds: stop early once this much time has passed.
        max_batch: the writer's largest ``append_many`` batch.
        batch_chance: how often the writer appends a batch rather than one line.
        rotate_bytes: start a new log once the current one is this large.

    Returns:
        The totals; ``lost_acked``, ``mismatches`` and ``writer_errors`` are 0 when the
        log kept its promise.
    """
    rng = random.Random(seed)
    summary = Summary()
    path = directory / "log-0.jsonl"
    checked = 0
    deadline = None if seconds is None else time.monotonic() + seconds
    acks = directory / "acks.txt"
    for round_ in range(kills):
        if deadline is not None and time.monotonic() > deadline:
            break
        with acks.open("wb") as out:
            writer = subprocess.Popen(  # noqa: S603 (runs this very script)
                writer_command(path, fsync, rng.randrange(1 << 30), max_batch, batch_chance),
                stdout=out,
            )
            if _wait_until_open(writer, acks):
                time.sleep(rng.uniform(0.0, max_delay))
            writer.send_signal(signal.SIGKILL)
            if writer.wait() != -signal.SIGKILL:
                summary.writer_errors += 1
        summary.kills += 1
        acked = [
            int(line.split()[1]) for line in acks.read_bytes().splitlines() if b"acked" in line
        ]
        check = check_log(path, checked)
        if acked and acked[-1] >= check.records:
            summary.lost_acked += 1
        if check.mismatch is not None:
            summary.mismatches += 1
        if check.truncated:
            summary.torn_tails += 1
            summary.truncated_bytes += check.truncated
        summary.max_acked = max(summary.max_acked, *acked, -1)
        checked = check.records
        if path.stat().st_size > rotate_bytes and round_ < kills - 1:
            summary.records += _final_check(path, summary)
            path.unlink()
            path = directory / f"log-{summary.logs}.jsonl"
            summary.logs += 1
            checked = 0
    summary.records += _final_check(path, summary)
    return summary


def _wait_until_open(writer: subprocess.Popen[bytes], acks: Path) -> bool:
    """Wait until the writer has opened its log (its first output line), at most 60 s.

    Start-up time varies a lot with machine load; timing kills from the open makes
    them land while the writer writes.
    """
    deadline = time.monotonic() + 60.0
    while not acks.stat().st_size:
        if writer.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def _final_check(path: Path, summary: Summary) -> int:
    """Check a whole log from seq 0 once more; return its record count."""
    if not path.exists():
        return 0
    check = check_log(path)
    if check.mismatch is not None:
        summary.mismatches += 1
    return check.records


def writer_command(
    path: Path, fsync: FsyncPolicy, seed: int, max_batch: int, batch_chance: float
) -> list[str]:
    """Return the command line that runs the writer on ``path``."""
    return [
        sys.executable,
        str(WRITER),
        str(path),
        f"--fsync={fsync}",
        f"--seed={seed}",
        f"--max-batch={max_batch}",
        f"--batch-chance={batch_chance}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Append events to the log forever, acknowledging each append on stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("log", type=Path)
    parser.add_argument("--fsync", choices=("always", "batch", "never"), default="always")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-batch", type=int, default=1000)
    parser.add_argument("--batch-chance", type=float, default=0.05)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with FileLog.open(args.log, fsync=args.fsync) as log:
        seq = len(log)
        os.write(1, b"opened %d\n" % seq)
        while True:
            if rng.random() < args.batch_chance:
                size = rng.randint(2, args.max_batch)
                last = log.append_many([event_line(n) for n in range(seq, seq + size)])
            else:
                last = log.append(event_line(seq))
            # Unbuffered, so an ack on stdout always means append() had returned.
            os.write(1, b"acked %d\n" % last)
            seq = last + 1


if __name__ == "__main__":
    main()
