"""The embedding API: a processor fed bytes or events, returning part diffs.

Owns the composition of the sans-I/O pieces: framing and decoding (bytes to events),
the optional event log (events kept before their diffs are returned), and the reducer
(events to state and diffs). It is fed, never reads: no threads, no event loop, no
files of its own. A log handed in may write to disk; that is the caller's choice.

Must not import: anyio, the pipeline or the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import msgspec

from a2ui_stream._engine.carriers import RENDER_TOOL_NAME, WRAPPER_TOOL_NAME
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._state.stream import Part, PartDiff, RunState, StreamState
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import Decoded, EventDecoder, encode_event, read_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity, internal_error
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from a2ui_stream._engine.eventlog import EventLog
    from a2ui_stream._wire.limits import Limits

__all__ = ["MAX_PENDING_DIAGNOSTICS", "Processor"]

#: Diagnostics a processor holds until :meth:`Processor.take_diagnostics` drains them.
MAX_PENDING_DIAGNOSTICS = 10_000


class Processor:
    r"""Turns an AG-UI stream into part diffs, one chunk or event at a time.

    Feed it bytes with :meth:`feed` and :meth:`close`, or decoded events with
    :meth:`feed_events`; each call returns the diffs that input decided. Bad input never
    raises: it becomes a :class:`~a2ui_stream.Diagnostic`, drained with
    :meth:`take_diagnostics`, and processing goes on with the next line.

    Example:
        >>> processor = Processor()
        >>> diffs = processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\\n')
        >>> diffs, processor.state.current.run_id
        ([], 'r')
    """

    def __init__(
        self,
        *,
        format: Literal["auto", "jsonl", "sse"] = "auto",  # noqa: A002 - the CLI's --format
        limits: Limits | None = None,
        strict: bool = False,
        log: EventLog | None = None,
        keep_runs: int | None = None,
        state: StreamState | None = None,
        render_tools: Iterable[str] = (RENDER_TOOL_NAME,),
        catalog_id: str | None = None,
        wrapper_tools: Iterable[str] = (WRAPPER_TOOL_NAME,),
    ) -> None:
        """Decide the configuration once.

        Args:
            format: the framing of fed bytes; ``"auto"`` detects it from the first bytes.
            limits: the bounds to enforce; the defaults when omitted.
            strict: stop at the first bad input (it is still reported as a diagnostic).
            log: where each event is appended before its diffs are returned; ``None``
                keeps no log (the state alone is kept, so memory does not grow with input).
            keep_runs: how many past runs to keep besides the current one; ``None`` keeps
                them all, ``0`` keeps memory flat on endless streams.
            state: the state to continue from, such as the fold of an existing log
                (:func:`~a2ui_stream.replay`); an empty state when omitted.
            render_tools: the tool names whose streamed arguments draw a surface, as
                the middleware's ``a2uiToolNames``; pass ``A2uiRequest.render_tools``
                for an agent set up with a custom render tool name.
            catalog_id: the catalog id a surface drawn from render arguments names
                (the middleware's ``defaultCatalogId``); see :class:`Reducer`.
            wrapper_tools: the tool names that wrap an A2UI sub-agent, ``generate_a2ui``
                unless the agent renamed it (the toolkit's ``tool_name``); see
                :class:`Reducer`.

        Raises:
            TypeError: an option is of the wrong kind (``log`` no event log, ``state``
                no :class:`StreamState`, or one :class:`Reducer` refuses).
            UsageError: ``keep_runs`` is not ``None`` or a whole number of at least 0.
        """
        _check_log(log)
        if state is not None and not isinstance(state, StreamState):
            message = f"state must be a StreamState or None, not {type(state).__name__}"
            raise TypeError(message)
        self._reducer = Reducer(
            limits=limits,
            keep_runs=keep_runs,
            render_tools=render_tools,
            catalog_id=catalog_id,
            wrapper_tools=wrapper_tools,
        )
        self.limits = self._reducer.limits
        self._decoder = EventDecoder(format=format, limits=self.limits, strict=strict)
        self._log = log
        self._strict = strict
        self._halted = False
        self._state = state or StreamState()
        self._diagnostics: list[Diagnostic] = []
        self._dropped = 0
        self._rejected = 0
        self._closed = False

    @property
    def state(self) -> StreamState:
        """The state after everything fed so far; an immutable value safe to keep."""
        return self._state

    @property
    def rejected(self) -> int:
        """How many input lines (or fed events) were dropped whole, each with an ERROR.

        A line that is not JSON, not an object or not a valid AG-UI event, a line over
        ``max_line_bytes``: everything fed that did not become an event.
        """
        return self._rejected

    @property
    def stopped(self) -> bool:
        """Whether strict mode met bad input and ignores everything after it."""
        return self._halted or self._decoder.stopped

    def parts(self, run_id: str | None = None) -> tuple[Part, ...]:
        """Return the parts of a run in display order.

        Args:
            run_id: the run; the current run when omitted.

        Returns:
            The run's parts; empty when no such run exists.
        """
        run = self.run(run_id)
        return tuple(run.parts.values()) if run is not None else ()

    def run(self, run_id: str | None = None) -> RunState | None:
        """Return the latest run with ``run_id``, or the current run when omitted."""
        if run_id is None:
            return self._state.current
        for run in reversed(self._state.runs):
            if run.run_id == run_id:
                return run
        return None

    def take_diagnostics(self) -> list[Diagnostic]:
        """Return the diagnostics gathered since the last call, and forget them.

        At most :data:`MAX_PENDING_DIAGNOSTICS` wait between two calls; past that the
        earliest are kept and one last ``diagnostics.dropped`` warning counts the rest,
        so a caller that never drains cannot make memory grow with bad input.
        """
        taken, self._diagnostics = self._diagnostics, []
        if self._dropped:
            taken.append(
                Diagnostic(
                    code=Code.DIAGNOSTICS_DROPPED,
                    message=(
                        f"{self._dropped} more diagnostics were dropped: at most "
                        f"{MAX_PENDING_DIAGNOSTICS} wait between calls to take_diagnostics()"
                    ),
                    severity=Severity.WARNING,
                )
            )
            self._dropped = 0
        return taken

    def _bound_pending(self) -> None:
        excess = len(self._diagnostics) - MAX_PENDING_DIAGNOSTICS
        if excess > 0:
            del self._diagnostics[MAX_PENDING_DIAGNOSTICS:]
            self._dropped += excess

    def feed(self, data: bytes) -> list[PartDiff]:
        """Feed a chunk of a JSONL or SSE stream, split anywhere.

        Args:
            data: the next bytes of the stream.

        Returns:
            The diffs caused by every event the chunk completed.

        Raises:
            TypeError: ``data`` is not bytes (a ``str`` must be encoded first).
            UsageError: the processor was already closed.
        """
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(_not_bytes(data))
        if self._closed:
            raise UsageError("feed() after close(): a closed processor takes no more input")
        return self._consume(self._decoder.feed(data))

    def close(self) -> list[PartDiff]:
        """Tell the processor the input ended; flushes a final unterminated line.

        The end of the input also ends a run still open: the conversion warnings its
        surfaces still have are reported then (a run's warnings are provisional, and at
        debug level, until ``RUN_FINISHED``, ``RUN_ERROR`` or the next run).

        Returns:
            The diffs caused by that last line, if any. Closing twice returns nothing.
        """
        if self._closed:
            return []
        self._closed = True
        diffs = self._consume(self._decoder.close())
        self._diagnostics.extend(self._reducer.settle(self._state))
        self._bound_pending()
        if self._log is not None:
            self._log.flush()
        return diffs

    def feed_events(
        self, events: Iterable[ev.Event | Decoded | Diagnostic | Mapping[str, Any] | object]
    ) -> list[PartDiff]:
        """Feed already-decoded events.

        Args:
            events: our event Structs, plain dicts in wire form, or objects with a
                ``model_dump`` method such as the official ``ag_ui.core`` events. What
                the wire decoder returns (:class:`~a2ui_stream._wire.codec.EventDecoder`,
                internal) goes in as it is: a ``Decoded`` keeps its line and offset in
                the diagnostics it causes, and a diagnostic is kept with the others.

        Returns:
            The diffs those events caused, in order.

        Raises:
            TypeError: ``events`` is one event (a dict, an event, an SDK object) or text
                rather than an iterable of them.
            UsageError: the processor was already closed.
        """
        if _is_one_event(events):
            raise TypeError(_not_iterable(events))
        if self._closed:
            raise UsageError("feed_events() after close(): a closed processor takes no more input")
        return self._consume(_fed_items(events))

    def _consume(self, items: Iterable[Decoded | _Fed | Diagnostic]) -> list[PartDiff]:
        """Log and reduce each event in turn; keep each diagnostic: the one loop of input.

        Most events (text, tool calls, steps) change nothing but the event count, so
        they are counted here and the count is added in one step before the next event
        that matters: the same states, without a reducer call per text delta.
        """
        diffs: list[PartDiff] = []
        if self._halted:
            return diffs
        reducer, log, strict = self._reducer, self._log, self._strict
        drawing = reducer.drawing_events
        state = self._state
        skipped = 0
        try:
            for item in items:
                # ``type is``: isinstance against a msgspec Struct class that does not
                # match asks its metaclass, several times the cost of the whole check.
                if type(item) is Diagnostic:
                    # The decoder's errors are lines dropped whole; its warnings follow an
                    # event that was kept, and are no bad input to strict mode.
                    self._diagnostics.append(item)
                    if item.severity is Severity.ERROR:
                        self._rejected += 1
                        if strict:
                            self._halted = True
                            break
                    continue
                event = item.event
                if log is not None:
                    try:
                        record = encode_event(event)
                    except RecursionError:
                        # Its free-form JSON decoded but nests too deeply to encode again
                        # from this deeper stack: the event is dropped, as the decoder
                        # would have dropped it, so the log and the state agree.
                        self._diagnostics.append(_too_deep_to_log(item.line, item.offset))
                        self._halted = strict
                        if strict:
                            break
                        continue
                    # Durability: the event is in the log before any diff it causes leaves.
                    log.append(record)
                kind = type(event)
                # While a chunk stream is open any event may end it: none is skipped then.
                if (kind not in drawing and not state.chunks) or (
                    kind is ev.ToolCallArgs and reducer.inert(state, event)
                ):
                    skipped += 1
                    continue
                if skipped:
                    state, skipped = reducer.skip(state, skipped), 0
                state, changes, diagnostics = reducer.reduce(state, event)
                if changes:
                    diffs.extend(changes)
                if diagnostics:
                    self._diagnostics.extend(_located(diagnostics, item.line, item.offset))
                    if strict and any(d.severity is Severity.ERROR for d in diagnostics):
                        self._halted = True
                        break
        finally:
            self._state = reducer.skip(state, skipped) if skipped else state
            self._bound_pending()
        return diffs


class _Fed(NamedTuple):
    """An event fed decoded, without a place in a byte stream."""

    event: ev.Event
    line: None = None
    offset: None = None


def _fed_items(events: Iterable[object]) -> Iterator[Decoded | _Fed | Diagnostic]:
    """The items given to ``feed_events`` as the loop takes them: events and diagnostics.

    A mapping or SDK object that does not make an event becomes the ERROR saying why;
    one kept without some field is followed by the warnings naming the field.
    """
    for item in events:
        if type(item) is Decoded or type(item) is Diagnostic:
            yield item
            continue
        try:
            event, found = read_event(item)
        except Exception as error:  # noqa: BLE001 - a foreign object's model_dump, or a bug
            yield internal_error(error, f"fed item {type(item).__name__}")
            continue
        if event is None:
            yield found[0]
            continue
        yield _Fed(event)
        yield from found


def _too_deep_to_log(line: int | None, offset: int | None) -> Diagnostic:
    return Diagnostic(
        code=Code.JSON_TOO_DEEP,
        message="event nests too deeply to be logged; it was skipped",
        severity=Severity.ERROR,
        line=line,
        offset=offset,
    )


#: What a log must do for the processor (``EventLog``): checked when it is given, not
#: at the first event, where a wrong object would raise from ``feed``.
_LOG_METHODS = ("append", "flush")


def _check_log(log: object) -> None:
    """Refuse a log of the wrong kind at once; the reducer checks the other options.

    Raises:
        TypeError: ``log`` is no event log.
    """
    if log is not None and not all(callable(getattr(log, name, None)) for name in _LOG_METHODS):
        message = f"log must be an EventLog (MemoryLog, FileLog) or None, not {type(log).__name__}"
        raise TypeError(message)


def _not_bytes(data: object) -> str:
    kind = type(data).__name__
    if isinstance(data, str):
        return (
            "feed() takes bytes (a chunk of a JSONL or SSE stream), not str: "
            "feed(text.encode()) or open the file in binary mode ('rb')"
        )
    return f"feed() takes bytes (a chunk of a JSONL or SSE stream), not {kind}"


def _is_one_event(events: object) -> bool:
    """Whether ``feed_events`` was given one event, or text, instead of an iterable."""
    return (
        isinstance(events, Mapping | str | bytes | bytearray | msgspec.Struct)
        or callable(getattr(events, "model_dump", None))
        or not hasattr(events, "__iter__")
    )


def _not_iterable(events: object) -> str:
    kind = type(events).__name__
    if isinstance(events, Mapping | msgspec.Struct) or hasattr(events, "model_dump"):
        return (
            f"feed_events() takes an iterable of events, not one event ({kind}): "
            "feed_events([event])"
        )
    if isinstance(events, str | bytes | bytearray):
        return (
            f"feed_events() takes an iterable of decoded events, not {kind}: "
            "give the stream's bytes to feed()"
        )
    return f"feed_events() takes an iterable of events, not {kind}"


def _located(
    diagnostics: Iterable[Diagnostic], line: int | None, offset: int | None
) -> Iterator[Diagnostic]:
    """Give the reducer's diagnostics the input line of the event that caused them."""
    for diagnostic in diagnostics:
        if diagnostic.line is not None or line is None:
            yield diagnostic
        else:
            yield msgspec.structs.replace(diagnostic, line=line, offset=offset)
