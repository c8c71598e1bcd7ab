"""Kill ``a2ui-stream process --log`` at random moments and check what its log kept.

Imported by ``tests/test_cli.py``: :func:`stream_lines` builds a deterministic AG-UI
stream (surfaces that change with every snapshot, so most events print diffs, and one
event in 16 of 20-200 KB, so a kill often lands inside a log write); :func:`kill_once`
runs the real command line on it through a pipe at a steady pace, reads the diffs it
prints as they appear, and SIGKILLs it; :func:`check` says what the log must hold.

:func:`deliver_exactly_once` plays a source, the command and a consumer that outlive
each other's crashes: it kills the command again and again and restarts it on the same
log with the README's recipe (``process --log LOG --from SEQ``, the consumer dropping the
lines it handled before: ``examples/exactly_once.py``), the source resuming after the
last logged event, and checks that the consumer got every diff line exactly once.

Run as a script for a longer soak: ``python tests/cli_crash.py [--kills N] [--seed N]``
(log prefixes), or ``python tests/cli_crash.py --once [--kills N] [--events N]``
(exactly-once delivery).
"""

from __future__ import annotations

import argparse
import collections
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import exactly_once

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


def _feed_all(stdin: IO[bytes], data: bytes) -> None:
    """Write ``data`` as fast as the command takes it, then end the input."""
    try:
        stdin.write(data)
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


def program() -> list[str]:
    """Return the program under test: the console script, or ``-m`` without it."""
    return [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "a2ui_stream"]


def command(log: Path, fsync: str = "always", *options: str) -> list[str]:
    """Return the command line under test, reading the stream from standard input."""
    return [
        *program(),
        "process",
        "--log",
        str(log),
        "--fsync",
        fsync,
        "--no-progress",
        *options,
        "-",
    ]


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


@cache
def expected_output(lines: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Return the diff lines one uninterrupted ``process`` (no log) prints for ``lines``."""
    completed = subprocess.run(  # noqa: S603 - our own command line, no shell
        [*program(), "process", "--no-progress", "-"],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        check=True,
    )
    return tuple(completed.stdout.splitlines(keepends=True))


class Delivery(NamedTuple):
    """What :func:`deliver_exactly_once` counted."""

    kills: int
    runs: int
    rounds: int
    delivered: int
    lost: int
    duplicated: int
    max_lag: int
    caught_up: int
    """Kills after which the log held events whose diffs the consumer lacked: the restart
    printed them again (``--from``); without it they would never have been printed."""


def _logged(log: Path) -> int:
    """Count the complete events in ``log`` (a torn last line is not one)."""
    if not log.exists():
        return 0
    with FileLog.open(log, readonly=True) as reopened:
        return len(reopened)


def _consume(
    stdout: IO[bytes],
    consumer: exactly_once.Consumer,
    out: list[bytes],
    plan: tuple[int, threading.Event],
) -> None:
    """Hand every printed line to the consumer, keeping the ones it accepts.

    Sets the plan's event once its number of lines (accepted or not) was read.
    """
    due, reached = plan
    for read, raw in enumerate(stdout, 1):
        line = consumer.take(raw)
        if line is not None:
            out.append(line)
        if read >= due:
            reached.set()
    reached.set()


def _lag(per_seq: dict[int, int], logged: int, checkpoint: exactly_once.Checkpoint) -> int:
    """Count the logged events whose diff lines the consumer has not all received."""
    return sum(
        1
        for seq, count in per_seq.items()
        if seq < logged
        and (seq > checkpoint.seq or (seq == checkpoint.seq and checkpoint.lines < count))
    )


class Kill(NamedTuple):
    """When to SIGKILL a run: ``delay`` seconds after it printed ``lines`` lines."""

    lines: int
    delay: float


def _run_once(
    log: Path,
    lines: tuple[bytes, ...],
    consumer: exactly_once.Consumer,
    out: list[bytes],
    *,
    fsync: str,
    kill: Kill | None,
) -> bool:
    """Start the command on the log and the rest of the input, and SIGKILL it as planned.

    Returns:
        Whether it was killed (``False``: it ran to the end of its input, exit 0).
    """
    start = _logged(log)  # the source resumes after the last event the log kept
    data = b"".join(line + b"\n" for line in lines[start:])
    consumer.restart()
    process = subprocess.Popen(  # noqa: S603 - our own command line, no shell
        command(log, fsync, *consumer.arguments()),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    stop, reached = threading.Event(), threading.Event()
    # Unpaced: the command is busy, so kills land between logging an event and
    # printing its diffs as often as that window is long.
    feeder = threading.Thread(target=_feed_all, args=(process.stdin, data))
    reader = threading.Thread(
        target=_consume,
        args=(process.stdout, consumer, out, (kill.lines if kill else 1 << 62, reached)),
    )
    feeder.start()
    reader.start()
    killed = False
    try:
        if kill is None:
            feeder.join()  # the whole rest of the input, then end of file
        else:
            deadline = time.monotonic() + _START_TIMEOUT
            while not reached.wait(0.005) and process.poll() is None:
                assert time.monotonic() < deadline, f"{kill.lines} lines not printed in time"
            time.sleep(kill.delay)
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                killed = True
    finally:
        stop.set()
        errors = process.stderr.read()
        process.wait()
        reader.join()
        feeder.join()
        process.stdout.close()
        process.stderr.close()
    assert killed or process.returncode == 0, errors.decode(errors="replace")
    return killed


def _plan(rng: random.Random, remaining: int) -> Kill:
    """Pick a kill: a quarter at a random time from start (start-up, fold, catch-up),
    the rest just after a random number of the lines still to come."""
    if rng.random() < 0.25 or remaining < 1:
        return Kill(0, rng.uniform(0.0, 0.6))
    return Kill(rng.randint(1, remaining), rng.uniform(0.0, 0.005))


def deliver_exactly_once(
    directory: Path,
    lines: tuple[bytes, ...],
    *,
    kills: int,
    seed: int,
    fsync: str = "never",
) -> Delivery:
    """SIGKILL the command ``kills`` times and count what the consumer got, and how often.

    In rounds: a fresh log, then runs killed as :func:`_plan` decides (in start-up, in
    the fold and catch-up of a resume, and mid-stream) and restarted with the recipe,
    until one runs to the end of the input. The consumer's lines are compared with an uninterrupted
    run's as multisets (``lost``, ``duplicated``) and in order. After each kill the
    logged events whose diffs the consumer lacks are counted (``max_lag``).

    Raises:
        AssertionError: a run failed, the order differs, or the final log is not the input.
    """
    expected = expected_output(lines)
    per_seq: dict[int, int] = collections.Counter(
        int(found.group(1)) for line in expected if (found := _SEQ.match(line))
    )
    rng = random.Random(seed)
    done = runs = rounds = lost = duplicated = max_lag = caught_up = delivered = 0
    while done < kills:
        rounds += 1
        log = directory / f"once-{rounds}.log"
        consumer = exactly_once.Consumer()
        out: list[bytes] = []
        while True:
            runs += 1
            kill = _plan(rng, len(expected) - len(out)) if done < kills else None
            if not _run_once(log, lines, consumer, out, fsync=fsync, kill=kill):
                break
            done += 1
            lag = _lag(per_seq, _logged(log), consumer.checkpoint)
            caught_up += lag > 0
            max_lag = max(max_lag, lag)
        got, want = collections.Counter(out), collections.Counter(expected)
        lost += sum((want - got).values())
        duplicated += sum((got - want).values())
        delivered += len(out)
        assert lost or duplicated or tuple(out) == expected, "every line once, but out of order"
        assert log.read_bytes() == b"".join(line + b"\n" for line in lines)
    return Delivery(done, runs, rounds, delivered, lost, duplicated, max_lag, caught_up)


def deliver_in_parallel(
    directory: Path,
    lines: tuple[bytes, ...],
    *,
    kills: int,
    seed: int,
    fsyncs: tuple[str, ...] = ("never",),
    parallel: int = 2,
) -> Delivery:
    """Run :func:`deliver_exactly_once` ``parallel`` times at once, cycling ``fsyncs``.

    The kills are shared out; the figures are summed (``max_lag``: the largest).
    """
    shares = [kills // parallel + (index < kills % parallel) for index in range(parallel)]

    def one(index: int) -> Delivery:
        place = directory / f"loop-{index}"
        place.mkdir()
        fsync = fsyncs[index % len(fsyncs)]
        return deliver_exactly_once(
            place, lines, kills=shares[index], seed=seed + index, fsync=fsync
        )

    expected_output(lines)  # once, before the threads need it
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        results = list(pool.map(one, range(parallel)))
    total = Delivery(*(sum(column) for column in zip(*results, strict=True)))
    return total._replace(max_lag=max(result.max_lag for result in results))


def main(argv: list[str] | None = None) -> int:
    """Kill the CLI many times and print a summary; the first broken guarantee raises."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--once", action="store_true", help="check exactly-once delivery")
    parser.add_argument("--events", type=int, default=300, help="input events (--once)")
    parser.add_argument(
        "--fsync", default="never", help="fsync policies, comma-separated, one per loop (--once)"
    )
    arguments = parser.parse_args(argv)
    if arguments.once:
        with tempfile.TemporaryDirectory() as directory:
            started = time.perf_counter()
            summary = deliver_in_parallel(
                Path(directory),
                stream_lines(arguments.events),
                kills=arguments.kills,
                seed=arguments.seed,
                fsyncs=tuple(arguments.fsync.split(",")),
                parallel=arguments.parallel,
            )
        sys.stdout.write(f"{summary} in {time.perf_counter() - started:.1f} s\n")
        return 1 if summary.lost or summary.duplicated or summary.max_lag > 1 else 0
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
