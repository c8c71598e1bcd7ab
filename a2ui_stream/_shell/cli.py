"""The ``a2ui-stream`` command line: process, replay, inspect and render AG-UI recordings.

Owns argument parsing, output encoding (one JSON line per diff or per run), the
progress line, and the table of commands. What a command says on stderr, and the exit
code that follows from it (0 success, 1 bad input, 2 usage, 130 interrupted; ``run``, in
:mod:`a2ui_stream._shell.live`, adds its own), is :mod:`a2ui_stream._shell.report`'s;
the options every command shares are :mod:`a2ui_stream._shell.options`'. Everything it
computes comes from the core; this module only moves bytes.
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import stat
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

import msgspec
import structlog

from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._shell import batch, live, options, render
from a2ui_stream._shell.filelog import FileLog, naming
from a2ui_stream._shell.hints import hint
from a2ui_stream._shell.output import Output
from a2ui_stream._shell.pipeline import iter_file_chunks, replay
from a2ui_stream._shell.report import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Reporter,
    configure_logging,
)
from a2ui_stream._shell.resume import open_log, resumed_processor
from a2ui_stream._shell.stdio import standard_streams, write_out
from a2ui_stream._state.stream import RunState, StreamState
from a2ui_stream._view.text import plural, printable
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import EventDecoder
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream.errors import A2uiStreamError, UsageError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "main",
    "run",
    "settle_chunk",
    "tune_collector",
]


class _Progress:
    """A one-line progress display on a terminal's stderr; silent anywhere else.

    With ``total`` (the input's size, when it is a regular file) the line starts with
    the percentage read.
    """

    def __init__(self, stream: TextIO, *, enabled: bool, total: int | None = None) -> None:
        self._stream = stream
        self._enabled = enabled and stream.isatty()
        self._start = time.perf_counter()
        self._last = 0.0
        self._bytes = 0
        self._total = total

    def advance(self, size: int, events: int) -> None:
        self._bytes += size
        if not self._enabled:
            return
        now = time.perf_counter()
        if now - self._last < 0.2:
            return
        self._last = now
        elapsed = max(now - self._start, 1e-9)
        rate = events / elapsed
        share = f"{min(self._bytes / self._total, 1):4.0%} " if self._total else ""
        self._stream.write(
            f"\r{share}{self._bytes / 1e6:10.1f} MB  {events:>12,} events  {rate:>10,.0f} events/s"
        )
        self._stream.flush()

    def done(self) -> None:
        if self._enabled and self._last:
            self._stream.write("\n")
            self._stream.flush()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="a2ui-stream",
        description="Turn AG-UI streams carrying A2UI surfaces into render-ready part diffs.",
        epilog="Exit codes: 0 success, 1 bad input (an ERROR diagnostic, or --strict "
        "stopped), 2 usage or I/O error, 130 interrupted; run adds 3-8.",
    )
    options.add_version(parser)
    options.add_common(parser, after_command=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    process = commands.add_parser(
        "process", help="read AG-UI events (JSONL or SSE) and write part diffs as JSONL"
    )
    process.add_argument("input", nargs="?", default="-", help="a recording, or - for stdin")
    _output_options(process)
    process.add_argument(
        "--log",
        type=Path,
        help="append every event to this log file; an existing log is resumed (folded first)",
    )
    process.add_argument(
        "--fsync",
        choices=("always", "batch", "never"),
        default="always",
        help="when the log is synced to disk (default: always, before any diff the event "
        "causes is written; batch syncs once per chunk read)",
    )
    process.add_argument(
        "--strict", action="store_true", help="stop at the first bad input and exit 1"
    )
    process.add_argument(
        "--format", choices=("auto", "jsonl", "sse"), default="auto", help="input framing"
    )
    process.add_argument(
        "--no-progress",
        action="store_true",
        help="never show the progress line (shown on a terminal's stderr only)",
    )
    process.add_argument(
        "--from",
        dest="emit_from",
        type=options.sequence_number,
        metavar="SEQ",
        help=(
            "on resuming --log, first write the diffs of the logged events from this "
            "sequence number on (for a consumer catching up after a crash)"
        ),
    )
    options.add_limits(process)
    options.add_carriers(process)

    replay_cmd = commands.add_parser("replay", help="rebuild the same output from an event log")
    replay_cmd.add_argument("log", type=Path, help="a log written by process --log")
    _output_options(replay_cmd)
    replay_cmd.add_argument(
        "--from",
        dest="emit_from",
        type=options.sequence_number,
        default=0,
        metavar="SEQ",
        help="write only diffs of events from this sequence number on (0 is the first)",
    )
    options.add_limits(replay_cmd)
    options.add_carriers(replay_cmd)

    live.add_parser(commands, _output_options)
    options.add_limits(commands.choices["run"])

    inspect = commands.add_parser("inspect", help="summarise a recording")
    inspect.add_argument("input", help="a recording, or - for stdin")
    inspect.add_argument(
        "--format", choices=("auto", "jsonl", "sse"), default="auto", help="input framing"
    )
    inspect.add_argument(
        "--tree", action="store_true", help="print each final surface as a tree of elements"
    )
    options.add_limits(inspect)
    options.add_carriers(inspect)
    render_cmd = commands.add_parser(
        "render", help="draw the final surfaces as one self-contained HTML page"
    )
    render.add_arguments(render_cmd)
    options.add_limits(render_cmd)
    options.add_carriers(render_cmd)
    batch.add_parsers(commands)
    for command in commands.choices.values():
        options.add_common(command, after_command=True)
    return parser


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--final",
        action="store_true",
        help="write one line per run with its final parts instead of diffs",
    )
    parser.add_argument(
        "--diffs",
        choices=("args", "patch"),
        default="args",
        help="updates as full args or as an RFC 6902 patch (default: args)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name; ``sys.argv[1:]`` when omitted.

    Returns:
        The exit code: 0 success, 1 bad input (an ERROR diagnostic occurred, or
        ``--strict`` stopped at one), 2 usage or I/O error, 130 interrupted (Ctrl-C);
        ``run`` adds its own (:data:`a2ui_stream._shell.live.EXIT_CODES`).
    """
    with standard_streams():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    argv, passthrough = batch.split_passthrough(sys.argv[1:] if argv is None else argv)
    try:
        try:
            arguments = parser.parse_args(argv)
        except SystemExit as exit_:
            # --help and --version have printed: a full disk shows at the flush, so say it.
            sys.stdout.flush()
            return int(exit_.code or 0)
    except OSError as error:  # --help or --version with standard output closed or full
        named = error.filename or "<stdout>"
        sys.stderr.write(f"a2ui-stream: cannot use {named}: {error.strerror}\n")
        return EXIT_USAGE
    arguments.passthrough = passthrough
    configure_logging(arguments.log_format, verbose=arguments.verbose, stream=sys.stderr)
    logger = structlog.get_logger("a2ui-stream")
    reporter = Reporter(logger, verbose=arguments.verbose, json=arguments.log_format == "json")
    try:
        return _COMMANDS[arguments.command](arguments, reporter)
    except KeyboardInterrupt:
        # Ctrl-C ends the command quietly: the log (closed on the way out) holds whole
        # events only, and a traceback would suggest a bug.
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``); that is how pipelines end. An error
        # already reported still says so in the exit code, as it would have at the end.
        sys.stderr.close()
        return EXIT_BAD_INPUT if reporter.errors else EXIT_OK
    except OSError as error:
        # A missing, unreadable or full file is a usage error: say which and why; a
        # traceback would suggest a bug. Every I/O site names its file (``naming``).
        if error.filename is None:  # one of the log's own errors: its message names the file
            logger.error(str(error))  # noqa: TRY400 - see above
        else:
            path, reason = str(error.filename), error.strerror
            logger.error("cannot use file", path=path, reason=reason)  # noqa: TRY400
        return EXIT_USAGE
    except A2uiStreamError as error:
        # Misuse the library refused, such as a second writer on one log.
        logger.error(str(error))  # noqa: TRY400 - usage, not a bug: no traceback
        return EXIT_USAGE


def tune_collector() -> None:
    """Make the cyclic garbage collector run less often while a stream is processed.

    Converted element trees are many small containers that live as long as their
    surface, so young-generation collections keep re-scanning them. Measured with the
    processor on 8 MB workloads (2 vCPU, CPython 3.11): big-surface 44.6 -> 48.4 MB/s,
    many-surfaces 8.2 -> 9.5 MB/s, chat-mixed 32.0 -> 33.4 MB/s. With 20,000 live
    surfaces in one run (the benchmark's scaling-messages x100), the default thresholds
    spent 60% of the time collecting, and the cost per event grew with the surfaces.
    Only the command line (and the benchmark's ``ours``, which runs its configuration)
    does this: an application embedding the core owns its interpreter's settings.
    """
    gc.freeze()
    gc.set_threshold(_GC_YOUNG_THRESHOLD, 50, 100)


#: Allocations between young-generation collections (CPython's default is 700).
_GC_YOUNG_THRESHOLD = 100_000


def settle_chunk() -> None:
    """Move what the chunk just processed left alive past the cyclic collector.

    The stream's state holds no reference cycle (immutable trees; a plan's functions
    stay out of their own globals; ``tests/test_collector.py`` feeds the fuzz corpus
    and the workloads to hold it so), so scanning it again finds nothing, and with many
    live surfaces the scans were 15 to 20% of the time (many-surfaces, 8 MB: 1.10 s
    against 0.90 s). Garbage without cycles is still freed by reference counting.
    Called by ``process`` after each chunk it reads, and by the benchmark's ``ours``.
    """
    gc.freeze()


def _input_name(name: str) -> str:
    """How an I/O error names the input: its path, or ``<stdin>`` for ``-``."""
    return "<stdin>" if name == "-" else name


def _open_input(name: str, stack: ExitStack) -> BinaryIO:
    if name == "-":
        return sys.stdin.buffer
    return stack.enter_context(Path(name).open("rb"))


def _read(source: BinaryIO, name: str) -> Iterator[bytes]:
    """Read the input in chunks; a read error names the input (``<stdin>`` for ``-``)."""
    with naming("<stdin>" if name == "-" else name):
        yield from iter_file_chunks(source)


#: Bytes of the input kept for :func:`~a2ui_stream._shell.hints.hint`.
_HEAD_BYTES = 1 << 16


def _input_size(source: BinaryIO) -> int | None:
    """Bytes left to read when the input is a regular file (a pipe's size is unknown)."""
    try:
        status = os.fstat(source.fileno())
        if not stat.S_ISREG(status.st_mode):
            return None
        return max(status.st_size - source.tell(), 0)
    except (OSError, ValueError):  # io.UnsupportedOperation is both: a stream in memory
        return None


def _process(arguments: argparse.Namespace, reporter: Reporter) -> int:
    output = Output(sys.stdout.buffer, patches=arguments.diffs == "patch")
    limits = options.limits(arguments)
    printing = not arguments.final
    with ExitStack() as stack:
        source = _open_input(arguments.input, stack)
        progress = _Progress(
            sys.stderr, enabled=not arguments.no_progress, total=_input_size(source)
        )
        log = None
        if arguments.log is not None:
            spare = (
                (source, "the input"),
                (sys.stdout, "standard output"),
                (sys.stderr, "standard error"),
            )
            log = open_log(
                arguments.log, arguments.fsync, spare=spare, stack=stack, reporter=reporter
            )
        _check_from(arguments.emit_from, log)
        processor = resumed_processor(
            log,
            reporter,
            keep_runs=None if arguments.final else 0,
            limits=limits,
            carriers=options.carriers(arguments),
            output=output if printing and arguments.emit_from is not None else None,
            emit_from=arguments.emit_from or 0,
            format=arguments.format,
            strict=arguments.strict,
        )
        resumed = processor.state.seq
        # With a log, each event's diffs are written before the next event is logged,
        # so a crash leaves at most one logged event whose diffs were not printed. Fed
        # a line at a time, the processor decides at most one event per call (a JSONL
        # line, or the blank line ending an SSE event).
        by_line = log is not None and printing
        head = b""
        for chunk in _read(source, arguments.input):
            head = head or chunk[:_HEAD_BYTES]
            for piece in chunk.splitlines(keepends=True) if by_line else (chunk,):
                diffs = processor.feed(piece)
                if printing and diffs:
                    output.diffs(diffs)
                    output.flush()
            reporter(processor.take_diagnostics())
            progress.advance(len(chunk), processor.state.seq)
            settle_chunk()
            if processor.stopped:
                break
        diffs = processor.close()
        if printing:
            output.diffs(diffs)
        reporter(processor.take_diagnostics())
        progress.done()
        if arguments.final:
            output.final(processor.state)
        output.flush()
    read, rejected = processor.state.seq - resumed, processor.rejected
    reporter.hint(
        hint(head, framing=arguments.format, read=read, rejected=rejected, name=arguments.input)
    )
    code = reporter.finish(read=read, rejected=rejected)
    return EXIT_BAD_INPUT if processor.stopped else code


def _check_from(emit_from: int | None, log: FileLog | None) -> None:
    """Refuse a ``--from`` past the log's end: the consumer saw events the log lost.

    Raises:
        UsageError: ``emit_from`` is more than the number of logged events.
    """
    held = 0 if log is None else len(log)
    if emit_from is not None and emit_from > held:
        where = "no log was given" if log is None else f"the log {log.path} holds {held} events"
        raise UsageError(
            f"--from {emit_from} is past the end of the log: {where}, so events a "
            "consumer saw are missing (lost with --fsync never or batch on a power loss, "
            "or another log); start the consumer over from a log that has them"
        )


def _replay(arguments: argparse.Namespace, reporter: Reporter) -> int:
    output = Output(sys.stdout.buffer, patches=arguments.diffs == "patch")
    reducer = Reducer(
        keep_runs=None if arguments.final else 0,
        limits=options.limits(arguments),
        **options.carriers(arguments),
    )
    final = StreamState()
    read = rejected = 0
    with FileLog.open(arguments.log, readonly=True) as log:
        if log.recovered is not None:
            reporter([log.recovered])
        for reduction in replay(log, reducer=reducer):
            final = reduction.state
            read += 1
            rejected += any(d.code == Code.LOG_BAD_EVENT for d in reduction.diagnostics)
            reporter(reduction.diagnostics)
            if not arguments.final:
                output.diffs(d for d in reduction.diffs if d.seq >= arguments.emit_from)
        reporter(reducer.settle(final))
        if arguments.final:
            output.final(final)
        output.flush()
    return reporter.finish(read=read - rejected, rejected=rejected)


def _inspect(arguments: argparse.Namespace, reporter: Reporter) -> int:
    if arguments.tree:
        return render.inspect_tree(arguments, reporter)
    with ExitStack() as stack:
        stack.enter_context(naming(_input_name(arguments.input)))  # a read names its file
        source = _open_input(arguments.input, stack)
        summary, read, rejected, head = _summarise(
            iter_file_chunks(source),
            arguments.format,
            Reducer(limits=options.limits(arguments), **options.carriers(arguments)),
            reporter,
        )
    write_out(summary)
    reporter.hint(
        hint(head, framing=arguments.format, read=read, rejected=rejected, name=arguments.input)
    )
    return reporter.finish(read=read, rejected=rejected)


def _summarise(
    chunks: Iterator[bytes],
    framing: Literal["auto", "jsonl", "sse"],
    reducer: Reducer,
    reporter: Reporter,
) -> tuple[str, int, int, bytes]:
    """Read a recording: its summary, the events read, the lines rejected, its first bytes."""
    start = time.perf_counter()
    decoder = EventDecoder(format=framing, limits=reducer.limits)
    state = StreamState()
    kinds: collections.Counter[str] = collections.Counter()
    problems: collections.Counter[tuple[str, str]] = collections.Counter()
    # Per run index: surfaceId -> component count, recorded while buckets are alive.
    surfaces: dict[int, dict[str, int]] = collections.defaultdict(dict)
    size = rejected = 0
    head = b""

    def count(diagnostics: Iterable[Diagnostic]) -> None:
        for diagnostic in diagnostics:
            problems[diagnostic.severity.value, diagnostic.code] += 1
        reporter(diagnostics)

    def consume(items: Iterable[Any]) -> None:
        nonlocal state, rejected
        for item in items:
            if isinstance(item, Diagnostic):
                rejected += item.severity is Severity.ERROR  # a line that is no event
                count((item,))
                continue
            event = item.event
            kinds[_wire_type(event)] += 1
            state, _, diagnostics = reducer.reduce(state, event)
            count(diagnostics)
            if isinstance(event, ev.ActivitySnapshot | ev.ActivityDelta) and state.runs:
                run = state.runs[-1]
                surfaces[len(state.runs) - 1].update(
                    (sid, len(surface.components)) for sid, surface in run.surfaces().items()
                )

    for chunk in chunks:
        head = head or chunk[:_HEAD_BYTES]
        size += len(chunk)
        consume(decoder.feed(chunk))
    consume(decoder.close())
    count(reducer.settle(state))
    elapsed = max(time.perf_counter() - start, 1e-9)
    summary = _render_summary(
        state, kinds=kinds, problems=problems, surfaces=surfaces, size=size, elapsed=elapsed
    )
    return summary, state.seq, rejected, head


def _wire_type(event: ev.Event) -> str:
    """The event's ``type`` as it was on the wire."""
    if isinstance(event, ev.UnknownEvent):
        return event.type
    tag = type(event).__struct_config__.tag
    return tag if isinstance(tag, str) else type(event).__name__


def _render_summary(
    state: StreamState,
    *,
    kinds: collections.Counter[str],
    problems: collections.Counter[tuple[str, str]],
    surfaces: dict[int, dict[str, int]],
    size: int,
    elapsed: float,
) -> str:
    # Every id and event type is an agent's text: shown escaped, never raw, so a
    # control in one can neither move the cursor nor start a line of its own.
    lines = [f"events: {state.seq:,} in {size:,} bytes"]
    lines.extend(f"  {printable(kind):<28} {count:>10,}" for kind, count in kinds.most_common())
    lines.append(f"runs: {len(state.runs)}")
    for index, run in enumerate(state.runs):
        lines.append(
            f"  run {printable(run.run_id or '(none)')} "
            f"thread {printable(run.thread_id or '(none)')}: "
            f"{run.status}{_error(run)}, {plural(len(run.parts), 'part')}"
        )
        for surface_id, count in surfaces.get(index, {}).items():
            shown = "rendered" if surface_id in run.parts else "not rendered"
            lines.append(
                f"    surface {printable(surface_id)}: {plural(count, 'component')}, {shown}"
            )
        for message_id, lifecycle in run.lifecycles.items():
            lines.append(f"    message {printable(message_id)}: {lifecycle.phase}")
    if state.history:
        restored = sum(len(entry.parts) for entry in state.history)
        lines.append(
            f"history: {plural(len(state.history), 'message')}, {plural(restored, 'part')} "
            "(restored by MESSAGES_SNAPSHOT)"
        )
        lines.extend(
            f"  message {printable(entry.message_id)}: "
            + ", ".join(f"surface {printable(part.surface_id)}" for part in entry.parts)
            for entry in state.history
        )
    lines.append(f"diagnostics: {sum(problems.values()):,}")
    lines.extend(
        f"  {severity:<8} {code:<32} {count:>8,}"
        for (severity, code), count in sorted(problems.items())
    )
    lines.append(
        f"throughput: {size / elapsed / 1e6:,.1f} MB/s, {state.seq / elapsed:,.0f} events/s"
    )
    return "\n".join(lines) + "\n"


def _error(run: RunState) -> str:
    """The message of a run's ``RUN_ERROR``, as JSON (an agent's text is never raw)."""
    return "" if run.error is None else f" ({msgspec.json.encode(run.error).decode()})"


def _render(arguments: argparse.Namespace, reporter: Reporter) -> int:
    return render.command(arguments, reporter)


_COMMANDS = {
    "process": _process,
    "replay": _replay,
    "inspect": _inspect,
    "render": _render,
    "run": live.command,
    "envelope": batch.envelope,
    "batch": batch.batch,
}


def run() -> None:
    """The console script: tune the interpreter for streaming, run, exit with the code."""
    tune_collector()
    sys.exit(main())


if __name__ == "__main__":
    run()
