"""The archive commands: ``a2ui-stream envelope`` and ``a2ui-stream batch``.

Owns their arguments, reading recordings for ``envelope`` (sequentially, one file at
a time, never holding more than a chunk), and for ``batch`` the Beam options (the
local in-process runner unless a runner is named), the output directory check, and
the readable summary printed once the pipeline is done. The pipeline itself is
:mod:`a2ui_stream._shell.beam`, imported only when ``batch`` runs, so the command
line starts without apache-beam and says how to install it when it is missing.

How a recording's thread is found, in both commands and both layouts: the
``threadId`` of its first ``RUN_STARTED`` that has a non-empty one; a recording with
none is named after its file (the name less its last suffix). Recordings of one
thread are that thread's events in path order; ``seq`` is an event's position there.
"""

from __future__ import annotations

import glob
import itertools
import logging
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import msgspec

from a2ui_stream._engine import summary as sums
from a2ui_stream._engine.threads import envelope_line, find_thread, thread_name
from a2ui_stream._shell import options
from a2ui_stream._shell.filelog import naming
from a2ui_stream._shell.pipeline import iter_file_chunks
from a2ui_stream._shell.report import EXIT_BAD_INPUT, EXIT_OK
from a2ui_stream._shell.resume import identity, path_identity
from a2ui_stream._shell.stdio import write_out
from a2ui_stream._wire.framing import Frame, Framer
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Iterator, Sequence

    from a2ui_stream._shell.report import Reporter
    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = ["add_parsers", "batch", "envelope", "split_passthrough"]

#: What ``batch`` runs on when its options name no runner: Beam's in-process runner,
#: named outright, so Beam never tries to download a runner binary first.
LOCAL_RUNNER = "FnApiRunner"
#: Bytes of output ``envelope`` buffers before writing.
_FLUSH = 1 << 20


def add_parsers(commands: Any) -> None:
    """Add ``envelope`` and ``batch`` to the command line's subparsers.

    Args:
        commands: the subparsers action of the ``a2ui-stream`` parser.
    """
    envelope_cmd = commands.add_parser(
        "envelope",
        help="write recordings as one interleaved-log stream of thread envelopes",
        description=(
            "Read AG-UI recordings (JSONL or SSE) one after another and write each event "
            'as one {"threadId","seq","event"} line, for `batch --layout envelopes` or a '
            "queue; a recording's thread is its first RUN_STARTED's threadId, or its file "
            "name."
        ),
    )
    envelope_cmd.add_argument(
        "inputs", nargs="+", metavar="FILE", help="recordings, or glob patterns (** recurses)"
    )
    options.add_limits(envelope_cmd)
    batch_cmd = commands.add_parser(
        "batch",
        help="fold an archive of threads on Apache Beam: per-thread results and a summary",
        description=(
            "Fold every thread of an archive into its final parts, lifecycle and "
            "diagnostics, on Beam's local runner or any runner given after --; needs the "
            "beam extra."
        ),
    )
    batch_cmd.add_argument("patterns", nargs="+", metavar="PATTERN", help="file patterns to read")
    batch_cmd.add_argument(
        "--out", required=True, metavar="DIR", help="a new or empty output directory"
    )
    batch_cmd.add_argument(
        "--layout",
        choices=("files", "envelopes"),
        default="files",
        help="one recording per thread (default), or interleaved envelopes",
    )
    options.add_limits(batch_cmd)
    options.add_carriers(batch_cmd)


def split_passthrough(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ``batch ... -- BEAM_OPTIONS`` into our arguments and Beam's.

    Only for the ``batch`` command (anywhere else ``--`` keeps argparse's meaning).

    Args:
        argv: the arguments after the program name.

    Returns:
        The arguments to parse, and the pipeline options after the first ``--``.
    """
    arguments = list(argv)
    if "batch" not in arguments or "--" not in arguments:
        return arguments, []
    split = arguments.index("--")
    if arguments.index("batch") > split:
        return arguments, []
    return arguments[:split], arguments[split + 1 :]


# --------------------------------------------------------------------------- envelope


def _paths(inputs: Iterable[str]) -> list[str]:
    """Every file the inputs name, each once however it is named, in path order.

    A name that is a file is taken as it is, even if it reads as a pattern
    (``run[1].jsonl``); any other is a glob pattern. One file reached by several names
    (through a link, or a link to a folder that ``**`` follows round) is read once.
    """
    found: set[str] = set()
    for name in inputs:
        if glob.has_magic(name) and not Path(name).is_file():
            # Path.glob needs a base; a pattern may be absolute, relative, or ``**``.
            hits = glob.glob(name, recursive=True)  # noqa: PTH207
            matched = [path for path in hits if Path(path).is_file()]
            if not matched:
                raise UsageError(f"{name} matches no file")
            found.update(matched)
        else:
            found.add(name)
    seen: set[tuple[int, int] | str] = set()
    paths = []
    for path in sorted(found):
        key = path_identity(path) or path
        if key not in seen:
            seen.add(key)
            paths.append(path)
    return paths


def _frames(source: BinaryIO, max_line_bytes: int) -> Iterator[Frame | Diagnostic]:
    framer = Framer(max_line_bytes=max_line_bytes)
    for chunk in iter_file_chunks(source):
        yield from framer.feed(chunk)
    yield from framer.close()


def _recording(source: BinaryIO, max_line_bytes: int) -> tuple[str | None, Iterator[Any]]:
    """A recording's thread and its frames, from one open file read once.

    The thread is found first (the ``threadId`` of its first run, near the start); a
    file that can seek is then read again from the start, and a pipe or device (stdin,
    a FIFO) replays the frames held while looking, then goes on: it cannot be read
    twice.
    """
    if source.seekable():
        start = source.tell()
        thread = find_thread(_payloads(_frames(source, max_line_bytes)))
        source.seek(start)
        return thread, _frames(source, max_line_bytes)
    frames = _frames(source, max_line_bytes)
    held: list[Frame | Diagnostic] = []

    def looked_at() -> Iterator[bytes]:
        for item in frames:
            held.append(item)
            if isinstance(item, Frame):
                yield item.payload

    thread = find_thread(looked_at())
    return thread, itertools.chain(held, frames)


def _payloads(frames: Iterable[Frame | Diagnostic]) -> Iterator[bytes]:
    return (item.payload for item in frames if isinstance(item, Frame))


def envelope(arguments: argparse.Namespace, reporter: Reporter) -> int:
    """Run ``a2ui-stream envelope``: recordings in, one envelope per event out.

    Args:
        arguments: the parsed command line.
        reporter: where framing problems go (a line too long has no payload to carry).

    Returns:
        0, or 1 when a line was too long to carry. A line that is not an event still
        travels, in its envelope, and is reported where it is folded, as processing
        the recording would report it.

    Raises:
        UsageError: a pattern matches no file.
    """
    limit = options.limits(arguments).max_line_bytes
    buffer = bytearray()
    counts: dict[str, int] = {}
    rejected = 0
    paths = _paths(arguments.inputs)
    output = identity(sys.stdout)
    for path in paths:
        if output is not None and path_identity(path) == output:
            # Read as it is written: a glob that also matches ``> out.jsonl`` made the
            # command read its own output back, until the disk was full.
            message = f"{path} is the file standard output goes to; leave it out of the inputs"
            raise UsageError(message)
    for path in paths:
        with naming(path), Path(path).open("rb") as source:
            found, frames = _recording(source, limit)
            thread = found or thread_name(path)
            seq = counts.get(thread, 0)
            problems: list[Diagnostic] = []
            for item in frames:
                if not isinstance(item, Frame):
                    problems.append(item)
                    continue
                buffer += envelope_line(thread, seq, item.payload)
                buffer += b"\n"
                seq += 1
                if len(buffer) >= _FLUSH:
                    write_out(buffer)
                    buffer.clear()
        counts[thread] = seq
        if problems:
            reporter.logger.warning("lines left out", path=path, count=len(problems))
            reporter(problems)
            rejected += len(problems)
    write_out(buffer)
    return reporter.finish(read=sum(counts.values()), rejected=rejected)


# --------------------------------------------------------------------------- batch


class _QuietImport(logging.Filter):
    """Drop Beam's import-time warning about Google Cloud clients batch never uses."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("apitools not found")


def _beam() -> Any:
    """Import the Beam side, or say how to install it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_QuietImport())
    handler.setLevel(logging.WARNING)
    logging.getLogger().addHandler(handler)
    try:
        from a2ui_stream._shell import beam  # noqa: PLC0415 - only batch needs Beam
    except ImportError as error:
        if error.name is None or not error.name.startswith("apache_beam"):
            raise
        raise UsageError("batch needs Apache Beam: pip install 'a2ui-stream[beam]'") from None
    return beam


def _options(passthrough: Sequence[str]) -> list[str]:
    """Beam's options: the user's, with the local runner and quiet workers by default."""
    options = list(passthrough)
    named = {option.split("=", 1)[0] for option in options if option.startswith("--")}
    if "--runner" not in named:
        options.append(f"--runner={LOCAL_RUNNER}")
    if "--default_sdk_harness_log_level" not in named:
        options.append("--default_sdk_harness_log_level=WARNING")
    return options


def batch(arguments: argparse.Namespace, reporter: Reporter) -> int:
    """Run ``a2ui-stream batch``: fold an archive on Beam, write results, print a summary.

    Args:
        arguments: the parsed command line, with ``passthrough``: Beam's options.
        reporter: where notes go (``-v``: the pipeline options); diagnostics are counted
            in the summary, not logged.

    Returns:
        0 once the pipeline has finished, or 1 when the archive held input that was
        dropped (an ERROR diagnostic in some thread); the results are written either way.

    Raises:
        UsageError: Beam is missing, a pattern matches no file, or ``--out`` holds
            files an earlier ``batch`` did not write.
    """
    beam_side = _beam()
    import apache_beam as beam  # noqa: PLC0415 - present: _beam() checked
    from apache_beam.io.filesystems import FileSystems  # noqa: PLC0415
    from apache_beam.options.pipeline_options import PipelineOptions  # noqa: PLC0415

    for pattern in arguments.patterns:
        if Path(pattern).is_dir():
            message = (
                f"{pattern} is a folder; give a pattern of files, such as {pattern}/**/*.jsonl"
            )
            raise UsageError(message)
        if not any(_matches(FileSystems, p) for p in beam_side.with_globstar([pattern])):
            raise UsageError(f"{pattern} matches no file")
    # The root stays a directory: stripped to "", it had no files to refuse for.
    out = arguments.out.rstrip("/") or "/"
    if Path(out).is_file():
        raise UsageError(f"--out {out} is a file; give a new or empty directory")
    _clear_output(FileSystems, out)
    given = _options(getattr(arguments, "passthrough", []))
    reporter.logger.debug("beam pipeline", options=given)
    try:
        pipeline = beam.Pipeline(options=PipelineOptions(given))
    except ValueError as error:  # Beam's word for an unknown runner or a bad option
        raise UsageError(f"the pipeline options after -- are not usable: {error}") from None
    with pipeline:
        read = pipeline | "Read" >> beam_side.ReadArchive(
            arguments.patterns, layout=arguments.layout
        )
        (
            read["threads"]
            | "Fold"
            >> beam_side.FoldThreads(
                limits=options.limits(arguments), **options.carriers(arguments)
            )
            | "Write" >> beam_side.WriteResults(out, invalid=read[beam_side.INVALID])
        )
    with FileSystems.open(f"{out}/summary.json") as stream:
        summary = msgspec.json.decode(stream.read(), type=sums.Summary)
    write_out(render_summary(summary, out))
    return EXIT_BAD_INPUT if summary.errors else EXIT_OK


#: The files ``batch`` writes in ``--out``; a directory holding only these may be reused.
_OUTPUT = re.compile(r"threads-\d{5}-of-\d{5}\.jsonl|summary\.json")


def _clear_output(file_systems: Any, out: str) -> None:
    """Make ``out`` ready: new, empty, or holding only an earlier run's results.

    An earlier run's results are deleted first (stale shards would mix with the new
    ones); anything else in the directory means it is not ours to write into.

    Raises:
        UsageError: ``out`` holds a file ``batch`` did not write.
    """
    if not file_systems.exists(out):
        return
    found = [meta.path for meta in file_systems.match([f"{out}/*"])[0].metadata_list]
    foreign = [path for path in found if not _OUTPUT.fullmatch(path.rpartition("/")[2])]
    if foreign:
        raise UsageError(
            f"--out {out} holds files batch did not write ({foreign[0]}, ...): "
            "give a new or empty directory, or one an earlier batch wrote"
        )
    if found:
        file_systems.delete(found)


def _matches(file_systems: Any, pattern: str) -> bool:
    """Whether a pattern names at least one file (a file system's error means none)."""
    try:
        return bool(file_systems.match([pattern])[0].metadata_list)
    except Exception:  # noqa: BLE001 - Beam raises its own BeamIOError for a bad path
        return False


def render_summary(summary: sums.Summary, out: str) -> str:
    """The summary as readable lines, for a terminal.

    Args:
        summary: what the pipeline wrote.
        out: where it wrote it.

    Returns:
        A few lines: counts, runs by status, failures, diagnostics, slowest threads.
    """
    statuses = ", ".join(f"{count:,} {status}" for status, count in summary.statuses.items())
    lines = [
        (
            f"threads: {summary.threads:,}, runs: {summary.runs:,} ({statuses or 'none'}), "
            f"events: {summary.events:,} ({summary.rejected:,} rejected)"
        ),
        f"surfaces drawn: {summary.surfaces:,}"
        + "".join(f"\n  {kind:<28} {count:>10,}" for kind, count in summary.element_types.items()),
        f"lifecycle failures: {summary.failed_runs:,} runs, {summary.failed_messages:,} "
        f"messages, in {summary.failed_threads:,} threads"
        + (f" (first: {', '.join(summary.failed_examples)})" if summary.failed_examples else ""),
    ]
    if summary.duplicates or summary.missing:
        lines.append(f"duplicates dropped: {summary.duplicates:,}, missing: {summary.missing:,}")
    total = sum(summary.diagnostics.values())
    lines.append(f"diagnostics: {total:,} ({summary.errors:,} errors)")
    lines.extend(f"  {code:<36} {count:>10,}" for code, count in summary.diagnostics.items())
    lines.append("slowest threads (fold CPU time):")
    lines.extend(
        f"  {slow.thread_id:<36} {slow.seconds * 1000:>9.1f} ms {slow.events:>9,} events"
        for slow in summary.slowest
    )
    lines.append(f"results: {out}/threads-*.jsonl, {out}/summary.json")
    return "\n".join(lines) + "\n"
