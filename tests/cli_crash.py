"""Kill ``a2ui-stream process --log`` at random moments and check what its log kept.

Imported by ``tests/test_cli.py``: :func:`stream_lines` builds a deterministic AG-UI
stream (surfaces that change with every snapshot, so most events print diffs, and one
event in 16 of 20-200 KB, so a kill often lands inside a log write); :func:`kill_once`
runs the real command line on it through a pipe at a steady pace, reads the diffs it
prints as they appear, and SIGKILLs it; :func:`check` says what the log must hold.

Run as a script for a longer soak: ``python tests/cli_crash.py [--kills N] [--seed N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import IO, Any, NamedTuple

import msgspec

from a2ui_stream import FileLog, decode_event, encode_event

_ENCODER = msgspec.json.Encoder()
# Multi-byte characters, quotes and backslashes: a torn write may end inside any of them.
_ALPHABET = 'abc "q" \\ é漢字🙂 xyz '
_SCRIPT = Path(sys.executable).parent / "a2ui-stream"
_SEQ = re.compile(rb'\{"seq":(\d+),')
#: How long to wait for the first printed diff before calling the run broken.
_START_TIMEOUT = 30.0


def _components(seq: int, count: int, big: int) -> list[dict[str, Any]]:
    children = [f"c{index}" for index in range(count)]
    components: list[dict[str, Any]] = [{"id": "root", "component": "Column", "children": children}]
    for index in range(count):
        text = f"event {seq} item {index}"
        if big and index == 0:
            start = seq % len(_ALPHABET)
            text += (_ALPHABET * (big // len(_ALPHABET) + 2))[start : start + big]
        components.append({"id": f"c{index}", "component": "Text", "text": text})
    return components


def _event(seq: int) -> dict[str, Any]:
    """Return event ``seq``: runs of 40 events, mostly snapshots of three surfaces."""
    run, step = divmod(seq, 40)
    run_id = f"run-{run}"
    if step == 0:
        return {"type": "RUN_STARTED", "threadId": "t", "runId": run_id}
    if step == 39:
        return {"type": "RUN_FINISHED", "threadId": "t", "runId": run_id}
    if step % 5 == 4:
        return {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"msg-{run}", "delta": f"{seq}"}
    surface = f"s{step % 3}"
    big = 20_000 + (seq * 2654435761) % 180_000 if seq % 16 == 7 else 0
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": surface}},
        {
            "version": "v0.9",
            "updateComponents": {
                "surfaceId": surface,
                "components": _components(seq, 1 + step % 7, big),
            },
        },
    ]
    return {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": f"a2ui-surface-{surface}",
        "activityType": "a2ui-surface",
        "replace": True,
        "content": {"a2ui_operations": operations},
    }


@cache
def stream_lines(count: int = 1200) -> tuple[bytes, ...]:
    """Return ``count`` event lines (without terminator) in the log's own encoding.

    Each line is what the log writes for its event, so the log file of a run is a byte
    prefix of the input.
    """
    lines = []
    for seq in range(count):
        line = encode_event(decode_event(_ENCODER.encode(_event(seq))))
        lines.append(line)
    return tuple(lines)


class Outcome(NamedTuple):
    """What one killed run printed and left on disk."""

    printed: int
    max_seq: int
    raw: bytes
    killed: bool


def _feed(stdin: IO[bytes], data: bytes, rng: random.Random, stop: threading.Event) -> None:
    """Write ``data`` in pieces of 1-4 KB, one every millisecond, until done or stopped."""
    position = 0
    try:
        while position < len(data) and not stop.is_set():
            size = rng.randint(1024, 4096)
            stdin.write(data[position : position + size])
            stdin.flush()
            position += size
            time.sleep(0.001)
        stdin.close()
    except (BrokenPipeError, ValueError, OSError):
        return


def _read(stdout: IO[bytes], seqs: list[int], started: threading.Event) -> None:
    """Record the seq of every diff line printed, as it appears.

    A line cut short by the kill counts too, if its seq made it out: that diff was
    (partly) printed, so its event must be in the log.
    """
    for raw in stdout:
        found = _SEQ.match(raw)
        if found is not None:
            seqs.append(int(found.group(1)))
            if raw.endswith(b"\n"):
                assert json.loads(raw)["seq"] == seqs[-1]
            started.set()
    started.set()


def command(log: Path) -> list[str]:
    """Return the command line under test: the console script, or ``-m`` without it."""
    program = (
        [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "a2ui_stream._shell.cli"]
    )
    return [*program, "process", "--log", str(log), "--fsync", "always", "--no-progress", "-"]


def kill_once(log: Path, lines: tuple[bytes, ...], rng: random.Random) -> Outcome:
    """Run the CLI on ``lines`` through a pipe and SIGKILL it at a random moment.

    Args:
        log: the log path (must not exist yet).
        lines: the input events.
        rng: decides the pace of the feed and when the kill comes.

    Returns:
        What was printed before the kill and the raw bytes of the log afterwards.

    Raises:
        AssertionError: the process printed nothing within ``_START_TIMEOUT`` seconds.
    """
    data = b"".join(line + b"\n" for line in lines)
    process = subprocess.Popen(  # noqa: S603 - our own command line, no shell
        command(log), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None
    assert process.stdout is not None
    seqs: list[int] = []
    started, stop = threading.Event(), threading.Event()
    feeder = threading.Thread(
        target=_feed, args=(process.stdin, data, random.Random(rng.random()), stop)
    )
    reader = threading.Thread(target=_read, args=(process.stdout, seqs, started))
    feeder.start()
    reader.start()
    try:
        if not started.wait(_START_TIMEOUT):
            message = f"no diff printed within {_START_TIMEOUT} s"
            raise AssertionError(message)
        time.sleep(rng.uniform(0.0, 0.3))
        killed = process.poll() is None
        if killed:
            os.kill(process.pid, signal.SIGKILL)
    finally:
        stop.set()
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        reader.join()
        feeder.join()
        process.stdout.close()
    raw = log.read_bytes() if log.exists() else b""
    return Outcome(len(seqs), max(seqs, default=-1), raw, killed)


def kill_many(
    directory: Path, lines: tuple[bytes, ...], *, kills: int, seed: int, parallel: int = 4
) -> list[tuple[Path, Outcome]]:
    """Run :func:`kill_once` ``kills`` times, ``parallel`` at a time, each on a new log.

    Args:
        directory: where the logs go (``kill-<n>.log``).
        lines: the input events.
        kills: how many runs to kill.
        seed: seeds each run's pace and kill moment (the same seed, the same plan).
        parallel: how many runs at once; the checks hold for each run on its own.

    Returns:
        Each log path with what its run printed and left.
    """
    rng = random.Random(seed)
    seeds = [rng.randrange(1 << 32) for _ in range(kills)]

    def one(kill: int) -> tuple[Path, Outcome]:
        log = directory / f"kill-{kill}.log"
        return log, kill_once(log, lines, random.Random(seeds[kill]))

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        return list(pool.map(one, range(kills)))


def check(log: Path, lines: tuple[bytes, ...], outcome: Outcome) -> int:
    """Check that the log holds a prefix of the input, whole, covering every printed diff.

    Args:
        log: the log the killed run wrote.
        lines: the input events.
        outcome: what :func:`kill_once` observed.

    Returns:
        How many bytes of a torn last record reopening dropped (0 when none).

    Raises:
        AssertionError: the log breaks one of the guarantees.
    """
    data = b"".join(line + b"\n" for line in lines)
    # Byte level: the file is the input's first bytes, a torn record at most at the end.
    assert data.startswith(outcome.raw), "the log is not a byte prefix of the input"
    with FileLog.open(log) as reopened:
        count = len(reopened)
        logged = [record for _, record in reopened.read()]
        dropped = 0 if reopened.recovered is None else len(outcome.raw) - reopened.size
    # Event level: complete, decodable events equal to the input's first ones.
    assert [decode_event(record) for record in logged] == [
        decode_event(line) for line in lines[:count]
    ]
    assert log.read_bytes() == data[: sum(len(line) + 1 for line in lines[:count])]
    # Durability: an event is logged before any of its diffs is printed.
    assert outcome.max_seq < count, (
        f"diff of event {outcome.max_seq} printed, but the log holds only {count} events"
    )
    return dropped


def main(argv: list[str] | None = None) -> int:
    """Kill the CLI many times and print a summary; the first broken guarantee raises."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=4)
    arguments = parser.parse_args(argv)
    lines = stream_lines()
    torn = printed = 0
    with tempfile.TemporaryDirectory() as directory:
        runs = kill_many(
            Path(directory),
            lines,
            kills=arguments.kills,
            seed=arguments.seed,
            parallel=arguments.parallel,
        )
        for log, outcome in runs:
            torn += check(log, lines, outcome) > 0
            printed += outcome.printed
    sys.stdout.write(f"{arguments.kills} kills, {torn} torn tails recovered, {printed} diffs\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
