"""The ``render`` command and ``inspect --tree``: look at what an agent drew.

Owns reading the input (an AG-UI recording as JSONL or SSE, an event log, or a raw
A2UI message file: a JSON object, a JSON array, JSONL, a ``sample.json`` wrapper or a
schema test-case file), collecting every run's parts and their changes through the
reducer, choosing the runs to show, and writing the page (stdout, or a file replaced
atomically, optionally opened in a browser). What a page looks like is the view
layer's; what a surface becomes is the converter's, reached through the reducer: raw
A2UI messages become one ``ACTIVITY_SNAPSHOT`` and then an ``ACTIVITY_DELTA`` appending
each message, one event per message, so a seq is a message's index in the file.

The HTML view needs the optional ``html`` extra (markdown-it-py); it is imported only
when a page is drawn, so every other command, and ``inspect --tree``, work without it.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import webbrowser
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final, Literal, TypeAlias

import msgspec

from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._shell import options
from a2ui_stream._shell.filelog import naming
from a2ui_stream._shell.pipeline import iter_file_chunks
from a2ui_stream._shell.resume import identity, path_identity
from a2ui_stream._shell.stdio import write_out
from a2ui_stream._state.stream import A2UI_ACTIVITY_TYPE, StreamState
from a2ui_stream._view.model import Card, Note, Page, Section, Step
from a2ui_stream._view.text import page_text, plural
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import EventDecoder
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.envelope import OPERATION_KEYS
from a2ui_stream._wire.limits import Limits
from a2ui_stream._wire.numbers import js_number
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterable, Iterator, Mapping

    from a2ui_stream._shell.report import Reporter
    from a2ui_stream._state.stream import PartDiff

__all__ = ["MISSING_EXTRA", "add_arguments", "command", "inspect_tree", "sniff"]

#: What ``render`` says when the ``html`` extra is not installed.
MISSING_EXTRA: Final = (
    "`a2ui-stream render` needs the optional HTML renderer: pip install 'a2ui-stream[html]'"
    " (markdown-it-py is missing)"
)
#: Bytes read before deciding whether the input is AG-UI or raw A2UI.
_SNIFF_BYTES: Final = 1 << 16
#: The messageId raw A2UI messages are filed under.
_MESSAGE_ID: Final = "a2ui-messages"

_DECODE = msgspec.json.Decoder()
#: A message's value, numbers read as every A2UI message's are (as JavaScript reads them).
_VALUE = msgspec.json.Decoder(float_hook=js_number)
#: An AG-UI event's type as it appears in JSON text: ``"type": "RUN_STARTED"``.
_EVENT_TYPE: Final = re.compile(rb'"type"\s*:\s*"[A-Z][A-Z_]*"')
_RAW_LIST = msgspec.json.Decoder(list[msgspec.Raw])

Framing: TypeAlias = Literal["auto", "jsonl", "sse", "a2ui"]


_NULL: Final = msgspec.Raw(b"null")


class _Case(msgspec.Struct):
    data: msgspec.Raw = _NULL


class _Document(msgspec.Struct):
    """The two wrapper shapes of the A2UI samples: ``{messages}`` and ``{tests}``."""

    messages: list[msgspec.Raw] | None = None
    tests: list[_Case] | None = None


_DOCUMENT = msgspec.json.Decoder(_Document)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``render`` command's arguments to its subparser."""
    parser.add_argument("input", help="a recording, an event log, an A2UI message file, or -")
    parser.add_argument("-o", "--output", type=Path, help="write the page here (default: stdout)")
    runs = parser.add_mutually_exclusive_group()
    runs.add_argument(
        "--run",
        type=int,
        metavar="N",
        help="show only the Nth run (1 is the first, -1 the last; default: the last)",
    )
    runs.add_argument("--all-runs", action="store_true", help="show every run")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="also show every state each part went through, with the seq that caused it",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    parser.add_argument(
        "--format",
        choices=("auto", "jsonl", "sse", "a2ui"),
        default="auto",
        help="input: AG-UI framing, raw A2UI messages, or auto (decided from the first bytes)",
    )


# -- reading ------------------------------------------------------------------------------


def _is_a2ui(value: Any) -> bool:
    """Whether a decoded JSON value reads as A2UI (messages) rather than an AG-UI event."""
    if type(value) is list:
        first = next((item for item in value if type(item) is dict), None)
        return first is None or _is_a2ui(first)
    if type(value) is not dict:
        return False
    if not OPERATION_KEYS.isdisjoint(value):
        return True
    # Every AG-UI event has a string type (MESSAGES_SNAPSHOT has "messages" too); sample
    # wrappers and test-case files have none.
    return type(value.get("type")) is not str


def sniff(head: bytes) -> str:
    """Decide from the first bytes whether the input is AG-UI (``"agui"``) or A2UI.

    AG-UI recordings hold one event per line (or SSE): a first line that is not a whole
    JSON value means one multi-line JSON document, which is A2UI unless it holds AG-UI
    events (a pretty-printed array of them, a mistake the hints name).

    Args:
        head: the first bytes of the input.

    Returns:
        ``"agui"`` or ``"a2ui"``.
    """
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] not in {b"{", b"["}:
        return "agui"  # SSE, or not JSON at all: the event decoder says what is wrong
    try:
        value = _DECODE.decode(text.split(b"\n", 1)[0])
    except RecursionError:
        return "agui"  # nested past the decoder's reach: the event decoder reports it
    except msgspec.DecodeError:
        try:
            value = _DECODE.decode(text)
        except RecursionError:
            return "agui"
        except msgspec.DecodeError:  # longer than the head: judge from the text
            return "agui" if _EVENT_TYPE.search(text) else "a2ui"
    return "a2ui" if _is_a2ui(value) else "agui"


def _compact(raw: bytes) -> bytes:
    return msgspec.json.format(raw, indent=-1)


def a2ui_messages(data: bytes) -> tuple[list[bytes], list[Diagnostic]]:
    """The messages of a raw A2UI file, each as compact JSON, and what could not be read.

    Args:
        data: the whole file.

    Returns:
        The messages in file order, and a diagnostic per unreadable JSONL line (or one
        for a file that is no JSON at all).
    """
    text = data.removeprefix(b"\xef\xbb\xbf")
    try:
        document = _DECODE.decode(text)
    except (msgspec.DecodeError, RecursionError):  # JSONL, or a line the lines report
        return _jsonl_messages(text)
    if type(document) is list:
        return [_compact(raw) for raw in _RAW_LIST.decode(text)], []
    if type(document) is dict and ("messages" in document or "tests" in document):
        try:
            wrapper = _DOCUMENT.decode(text)
        except msgspec.ValidationError as error:
            problem = Diagnostic(
                code=Code.A2UI_FILE_INVALID,
                message=f"the file's wrapper is not a sample or test-case file: {error}",
                severity=Severity.ERROR,
            )
            return [], [problem]
        raws = wrapper.messages or [case.data for case in wrapper.tests or ()]
        return [_compact(raw) for raw in raws], []
    return [_compact(text)], []


def _jsonl_messages(data: bytes) -> tuple[list[bytes], list[Diagnostic]]:
    messages, problems = [], []
    offset = 0
    for number, line in enumerate(data.split(b"\n"), 1):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        try:
            _DECODE.decode(line)
        except RecursionError:
            problems.append(_too_deep(number, start, line))
            continue
        except msgspec.DecodeError as error:
            problems.append(
                Diagnostic(
                    code=Code.JSON_INVALID,
                    message=f"line is not JSON ({error}); it was skipped",
                    severity=Severity.ERROR,
                    line=number,
                    offset=start,
                    raw=line[:120],
                )
            )
            continue
        messages.append(_compact(line))
    return messages, problems


def _too_deep(number: int, start: int, line: bytes) -> Diagnostic:
    """A line nested past the decoder's reach (Python's stack), as the event decoder says it."""
    return Diagnostic(
        code=Code.JSON_TOO_DEEP,
        message="line nests too deeply to decode; it was skipped",
        severity=Severity.ERROR,
        line=number,
        offset=start,
        raw=line[:120],
    )


def a2ui_events(messages: list[bytes]) -> Iterator[ev.ActivitySnapshot | ev.ActivityDelta]:
    """The events that carry ``messages`` to the reducer, one per message.

    The first is an ``ACTIVITY_SNAPSHOT`` holding it; each later one an
    ``ACTIVITY_DELTA`` appending it to the content's operations, which costs the one
    message it adds. Cumulative snapshots (what the middleware sends) would carry every
    message again each time: N messages made N snapshots of up to N operations, built,
    decoded and compared in full, so a file's cost grew with its square. The content
    the deltas build is bounded as any activity's is (``max_content_nodes``).
    """
    for index, message in enumerate(messages):
        if not index:
            yield ev.ActivitySnapshot(
                message_id=_MESSAGE_ID,
                activity_type=A2UI_ACTIVITY_TYPE,
                content=msgspec.Raw(b'{"a2ui_operations":[' + message + b"]}"),
                replace=True,
            )
            continue
        value = _VALUE.decode(message)
        yield ev.ActivityDelta(
            message_id=_MESSAGE_ID,
            activity_type=A2UI_ACTIVITY_TYPE,
            patch=[{"op": "add", "path": "/a2ui_operations/-", "value": value}],
        )


# -- collecting ---------------------------------------------------------------------------


class _Track:
    """One part of one run as the stream went: its last tree and its changes."""

    __slots__ = ("args", "removed_at", "seq", "steps", "surface_id", "tool_call_id", "warnings")

    def __init__(self, diff: PartDiff) -> None:
        self.surface_id = diff.surface_id
        self.tool_call_id = diff.tool_call_id
        self.args: Any = None
        self.seq = diff.seq
        self.removed_at: int | None = None
        self.steps: list[Step] = []
        #: What the conversion that drew ``args`` warned of.
        self.warnings: tuple[Diagnostic, ...] = ()


class Collected:
    """Everything read from one input: the final state, each run's parts, diagnostics.

    Attributes:
        state: the stream's final state (every run kept).
        tracks: per run index, its parts by toolCallId in order of first drawing.
        unit: what a seq counts, ``"event"`` or ``"message"``.
        kind: what the input was, for the page's summary line.
    """

    def __init__(
        self,
        *,
        timeline: bool,
        unit: str,
        kind: str,
        limits: Limits | None = None,
        carriers: Mapping[str, Any] | None = None,
    ) -> None:
        """Start with nothing read; ``carriers`` as :func:`collect` takes them."""
        self.state = StreamState()
        self.tracks: list[dict[str, _Track]] = []
        self.unit = unit
        self.kind = kind
        #: Lines or messages dropped whole (each with an ERROR diagnostic).
        self.rejected = 0
        #: The input's first bytes, for a hint when nothing could be read.
        self.head = b""
        self._timeline = timeline
        self._reducer = Reducer(limits=limits, **(carriers or {}))
        #: Every diagnostic, in stream order.
        self._found: list[Diagnostic] = []

    def problem(self, diagnostic: Diagnostic) -> None:
        """Record a diagnostic of reading the input (an ERROR: a line dropped whole)."""
        self.rejected += diagnostic.severity is Severity.ERROR
        self._found.append(diagnostic)

    def event(self, event: ev.Event) -> None:
        """Reduce one event and record what it changed."""
        self.state, diffs, diagnostics = self._reducer.reduce(self.state, event)
        current = len(self.state.runs) - 1
        self._found.extend(diagnostics)
        # Parts restored from history are no run's: the page shows them from the state.
        diffs = tuple(diff for diff in diffs if not diff.history)
        if not diffs:
            return
        while len(self.tracks) <= current:
            self.tracks.append({})
        tracks = self.tracks[current]
        reported = self.state.runs[current].reported
        for diff in diffs:
            track = tracks.get(diff.tool_call_id)
            if track is None:
                track = tracks[diff.tool_call_id] = _Track(diff)
            if diff.op == "remove":
                track.removed_at = diff.seq
                args = None
            else:
                track.args, track.seq, track.removed_at = diff.args, diff.seq, None
                track.warnings = reported.get(diff.surface_id, ())
                args = diff.args
            if self._timeline:
                track.steps.append(Step(seq=diff.seq, op=diff.op, args=args))

    def end(self) -> None:
        """The input ended: record the warnings its open run still has.

        A stream draws a surface in steps, and a conversion warning about one step (a
        root not sent yet, a component still to come) is only news if it outlasts the
        run: the reducer reports them at debug level while the run is open and again,
        at their level, when it ends (here, for a run the input left open).
        """
        self._found.extend(self._reducer.settle(self.state))

    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic in stream order."""
        return list(self._found)


def collect(
    source: BinaryIO,
    *,
    framing: Framing = "auto",
    timeline: bool = False,
    limits: Limits | None = None,
    carriers: Mapping[str, Any] | None = None,
) -> Collected:
    """Read a whole input and reduce it.

    Args:
        source: the open input, read to its end.
        framing: ``"auto"``, ``"jsonl"``, ``"sse"`` (AG-UI) or ``"a2ui"``.
        timeline: whether to keep every state of every part.
        limits: the bounds; the defaults when omitted.
        carriers: ``render_tools``, ``wrapper_tools`` and ``catalog_id`` as
            :class:`~a2ui_stream.Processor` takes them; the defaults when omitted.

    Returns:
        What was read.
    """
    head = b""
    chunks = iter_file_chunks(source)
    if framing == "auto":
        for chunk in chunks:
            head += chunk
            if len(head) >= _SNIFF_BYTES:
                break
        framing = "a2ui" if sniff(head) == "a2ui" else "auto"
    if framing == "a2ui":
        data = head + b"".join(chunks)
        collected = Collected(
            timeline=timeline, unit="message", kind="A2UI messages", limits=limits
        )  # A2UI messages come with no tool calls: no carrier to name
        messages, problems = a2ui_messages(data)
        for problem in problems:
            collected.problem(problem)
        for event in a2ui_events(messages):
            collected.event(event)
        collected.end()
        return collected
    collected = Collected(
        timeline=timeline, unit="event", kind="AG-UI recording", limits=limits, carriers=carriers
    )
    collected.head = head
    decoder = EventDecoder(format=framing, limits=limits or Limits())

    def consume(items: Iterable[Any]) -> None:
        for item in items:
            if isinstance(item, Diagnostic):
                collected.problem(item)
            else:
                collected.event(item.event)

    if head:
        consume(decoder.feed(head))
    for chunk in chunks:
        collected.head = collected.head or chunk[:_SNIFF_BYTES]
        consume(decoder.feed(chunk))
    consume(decoder.close())
    collected.end()
    return collected


# -- the page -----------------------------------------------------------------------------


def _warnings(track: _Track) -> tuple[str, ...]:
    return tuple(w.message for w in track.warnings if w.severity is not Severity.DEBUG)


def _section(collected: Collected, index: int) -> Section:
    run = collected.state.runs[index]
    tracks = collected.tracks[index] if index < len(collected.tracks) else {}
    cards = tuple(
        Card(
            surface_id=track.surface_id,
            tool_call_id=track.tool_call_id,
            args=track.args,
            seq=track.seq,
            removed_at=track.removed_at,
            warnings=_warnings(track),
            steps=tuple(track.steps),
        )
        for track in tracks.values()
    )
    live = sum(card.removed_at is None for card in cards)
    details = [plural(live, "part")]
    if collected.unit == "event":
        details = [
            f"run {run.run_id}" if run.run_id else "no RUN_STARTED",
            *([f"thread {run.thread_id}"] if run.thread_id else []),
            run.status if run.error is None else f"{run.status}: {run.error}",
            *details,
        ]
    total = len(collected.state.runs)
    title = f"Run {index + 1} of {total}" if collected.unit == "event" else "Surfaces"
    return Section(title=title, details=tuple(details), cards=cards)


def _history(state: StreamState) -> Section | None:
    cards = tuple(
        Card(surface_id=part.surface_id, tool_call_id=part.tool_call_id, args=part.args, seq=None)
        for entry in state.history
        for part in entry.parts
    )
    if not cards:
        return None
    return Section(title="Restored from history", details=("MESSAGES_SNAPSHOT",), cards=cards)


def choose_runs(count: int, run: int | None, *, all_runs: bool) -> range:
    """The indexes of the runs to show.

    Args:
        count: how many runs the input has.
        run: ``--run`` (1-based; negative counts from the end), or ``None``.
        all_runs: ``--all-runs``.

    Returns:
        The run indexes, in order; the last run alone by default.

    Raises:
        UsageError: ``run`` names no run of the input.
    """
    if all_runs:
        return range(count)
    if run is None:
        return range(max(count - 1, 0), count)
    index = run - 1 if run > 0 else count + run
    if run == 0 or not 0 <= index < count:
        raise UsageError(f"--run {run}: the input has {plural(count, 'run')}")
    return range(index, index + 1)


def build_page(
    collected: Collected, title: str, runs: range, *, timeline: bool, verbose: bool = False
) -> Page:
    """The page of the chosen runs, with the stream's diagnostics.

    Args:
        collected: what was read.
        title: the page's title (the input's name).
        runs: the run indexes to show (from :func:`choose_runs`).
        timeline: whether cards show their steps.
        verbose: whether debug diagnostics are listed too.

    Returns:
        The page.
    """
    sections = [_section(collected, index) for index in runs]
    history = _history(collected.state)
    if history is not None:
        sections.append(history)
    total = len(collected.state.runs)
    summary = [collected.kind, plural(collected.state.seq, collected.unit)]
    if collected.unit == "event":
        summary.append(f"{len(runs):,} of {plural(total, 'run')} shown")
    notes = tuple(
        Note(severity=d.severity.value, text=str(d))
        for d in collected.diagnostics()
        if verbose or d.severity is not Severity.DEBUG
    )
    return Page(
        title=title,
        summary=" · ".join(summary),
        unit=collected.unit,
        sections=tuple(sections),
        notes=notes,
        timeline=timeline,
    )


def _load(
    arguments: argparse.Namespace, reporter: Reporter, *, timeline: bool
) -> tuple[Collected, str]:
    """Read and reduce the input the arguments name, report its diagnostics, give its title."""
    name: str = arguments.input
    with ExitStack() as stack:
        stack.enter_context(naming("<stdin>" if name == "-" else name))  # a read names it
        source = sys.stdin.buffer if name == "-" else stack.enter_context(Path(name).open("rb"))
        collected = collect(
            source,
            framing=arguments.format,
            timeline=timeline,
            limits=options.limits(arguments),
            carriers=options.carriers(arguments),
        )
    reporter(collected.diagnostics())
    return collected, "stdin" if name == "-" else Path(name).name


def _finish(collected: Collected, reporter: Reporter, arguments: argparse.Namespace) -> int:
    # Imported here: hints reads inputs with this module's sniff.
    from a2ui_stream._shell.hints import hint  # noqa: PLC0415

    if collected.unit == "event":
        found = hint(
            collected.head,
            framing=arguments.format,
            read=collected.state.seq,
            rejected=collected.rejected,
            name=arguments.input,
        )
        reporter.hint(found)
    return reporter.finish(
        read=collected.state.seq, rejected=collected.rejected, unit=collected.unit
    )


def _html_renderer() -> Callable[[Page], str]:
    """The page renderer, which needs the ``html`` extra; a usage error names it if absent."""
    try:
        from a2ui_stream._view.page import render_page  # noqa: PLC0415 - the optional extra
    except ModuleNotFoundError as error:
        if error.name != "markdown_it":
            raise
        raise UsageError(MISSING_EXTRA) from None
    return render_page


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` whole: a failed write leaves the old file as it was.

    A symbolic link is followed: the file it names is replaced, not the link. A path
    that is no regular file (``/dev/null``, a FIFO, a terminal) cannot be replaced, and
    renaming over it would destroy it: it is written to as it is, as ``>`` would.
    """
    with naming(path):  # a write on a descriptor names no file: a full disk would not say
        _replace(Path(os.path.realpath(path)), data)


def _replace(path: Path, data: bytes) -> None:
    if path.exists() and not path.is_file():
        with path.open("wb") as file:  # a directory fails here, naming itself
            file.write(data)
        return
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as error:  # named after the path given, not the temporary's made-up name
        error.filename = os.fspath(path)
        raise
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        # mkstemp makes the file private; give it the mode a plain open would have.
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
        Path(temporary).chmod(mode)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _target(arguments: argparse.Namespace) -> Path | None:
    output: Path | None = arguments.output
    if output is None:
        if not arguments.open:
            return None
        descriptor, name = tempfile.mkstemp(prefix="a2ui-render-", suffix=".html")
        os.close(descriptor)
        return Path(name)
    found = path_identity(output)
    if found is None:
        return output  # not there yet (or not reachable): the write says what is wrong
    named = arguments.input != "-"
    if found == (path_identity(Path(arguments.input)) if named else identity(sys.stdin)):
        # Read from it (by name, by a link, or as the file standard input is): the
        # page would replace the recording it was made from.
        raise UsageError(f"-o {output}: that is the input file; choose another name")
    if found == identity(sys.stdout) and not stat.S_ISCHR(output.stat().st_mode):
        # -o /dev/stdout, or the file or pipe stdout goes to: written there, in place (a
        # device such as /dev/full is written to as itself, and named so).
        return None
    return output


def command(arguments: argparse.Namespace, reporter: Reporter) -> int:
    """Run ``a2ui-stream render``.

    Args:
        arguments: the parsed command line.
        reporter: where diagnostics and the summary go.

    Returns:
        0, or 1 when an ERROR diagnostic occurred (the page is written either way).

    Raises:
        UsageError: the ``html`` extra is missing, ``--run`` names no run, or ``-o``
            names the input.
    """
    render_page = _html_renderer()  # before reading: a missing extra is said at once
    collected, title = _load(arguments, reporter, timeline=arguments.timeline)
    runs = choose_runs(len(collected.state.runs), arguments.run, all_runs=arguments.all_runs)
    page = build_page(
        collected, title, runs, timeline=arguments.timeline, verbose=arguments.verbose
    )
    # Text that cannot be UTF-8 (a lone surrogate) becomes a replacement mark, not a crash.
    data = render_page(page).encode("utf-8", "replace")
    target = _target(arguments)
    if target is None:
        write_out(data)
    else:
        _write_atomically(target, data)
        reporter.logger.debug("wrote the page", path=str(target), bytes=len(data))
        if arguments.open and not webbrowser.open(target.resolve().as_uri()):
            # No browser to open it (a server, a container): say where the page is.
            reporter.logger.warning("no web browser opened the page", path=str(target))
    return _finish(collected, reporter, arguments)


def inspect_tree(arguments: argparse.Namespace, reporter: Reporter) -> int:
    """Run ``a2ui-stream inspect --tree``: every run's final parts as indented trees.

    Args:
        arguments: the parsed command line.
        reporter: where diagnostics and the summary go.

    Returns:
        0, or 1 when an ERROR diagnostic occurred (the trees are printed either way).
    """
    collected, title = _load(arguments, reporter, timeline=False)
    page = build_page(collected, title, range(len(collected.state.runs)), timeline=False)
    write_out(page_text(page))
    return _finish(collected, reporter, arguments)
