"""Archives as threads: a line keyed by thread, and one thread folded into its result.

Owns what an archive job computes per thread, with no engine and no I/O: the
``{"threadId","seq","event"}`` envelope of interleaved logs (read and written), which
thread a recording belongs to, and :class:`ThreadFold`, which feeds a thread's events
in order through the one :class:`~a2ui_stream._engine.processor.Processor` there is
and reads off a :class:`ThreadResult`: the final parts of every run (the records
``process --final`` prints, byte for byte), each run's lifecycle, and diagnostics
counted by code. :func:`fold_thread` is the batch form: it never trusts the order its
records arrive in, sorting them by ``seq`` and dropping repeated ones.

An event travels undecoded (the payload bytes the framer cut), so an engine moves
bytes and only the fold decodes, exactly as a stream is decoded.

Must not import the shell or any engine library. Does no I/O.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from a2ui_stream._engine.carriers import RENDER_TOOL_NAME, WRAPPER_TOOL_NAME
from a2ui_stream._engine.processor import Processor
from a2ui_stream._state.wire import FinalPart, FinalRun, final_run
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import Decoded, EventDecoder
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.framing import Frame

if TYPE_CHECKING:
    from collections.abc import Iterable

    from a2ui_stream._wire.limits import Limits

__all__ = [
    "ENVELOPE_INVALID",
    "MAX_SEQ",
    "FinalPart",
    "FinalRun",
    "Keyed",
    "RunLifecycle",
    "ThreadFold",
    "ThreadResult",
    "envelope_line",
    "final_run",
    "find_thread",
    "fold_thread",
    "key_envelope",
    "sendable_name",
    "thread_name",
]

#: The largest ``seq`` an envelope may carry: the largest integer every JSON reader
#: holds exactly (2**53 - 1), far inside the signed 64 bits an engine's coder takes, so
#: a position, and a count of missing positions, survives every hop.
MAX_SEQ = 2**53 - 1

#: Diagnostic code of an interleaved-log line that is not an envelope.
ENVELOPE_INVALID = Code.ARCHIVE_ENVELOPE_INVALID


class Keyed(msgspec.Struct, frozen=True, array_like=True):
    """One event of an archive, keyed: what an engine moves between workers.

    Attributes:
        thread_id: the thread it belongs to.
        seq: its 0-based position in the thread; the only order the fold trusts.
        event: the event's undecoded payload.
    """

    thread_id: str
    seq: int
    event: bytes


class _Envelope(msgspec.Struct, frozen=True):
    """An interleaved-log line as written: the event stays undecoded."""

    threadId: Annotated[str, msgspec.Meta(min_length=1)]  # noqa: N815 - the wire name
    seq: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
    event: msgspec.Raw


_ENVELOPE = msgspec.json.Decoder(_Envelope)
_RAW = msgspec.json.Decoder(msgspec.Raw)
_TEXT = msgspec.json.Decoder(str)
_ENCODER = msgspec.json.Encoder()
_QUOTE = ord('"')


def key_envelope(line: bytes, *, line_number: int | None = None) -> Keyed | Diagnostic:
    """Key one line of an interleaved log.

    Args:
        line: ``{"threadId": str, "seq": int >= 0, "event": ...}``; the event is the
            recorded payload as JSON, or a JSON string holding a recorded line that was
            not JSON (the fold then reports it as the stream would have).
        line_number: where the line is, for the diagnostic.

    Returns:
        The keyed event, or an ``archive.envelope_invalid`` error saying why not.
    """
    try:
        envelope = _ENVELOPE.decode(line)
    except msgspec.DecodeError as error:
        return Diagnostic(
            code=ENVELOPE_INVALID,
            message=f"not an archive envelope: {error}",
            severity=Severity.ERROR,
            line=line_number,
            raw=line[:200],
        )
    payload = bytes(envelope.event)
    if payload and payload[0] == _QUOTE:
        payload = _TEXT.decode(payload).encode()
    return Keyed(envelope.threadId, envelope.seq, payload)


def envelope_line(thread_id: str, seq: int, payload: bytes) -> bytes:
    """Write one event of a recording as an interleaved-log line (no newline).

    A payload that is a JSON object, array, number or literal goes in as it is, its
    newlines (whitespace between tokens, from SSE data lines) turned to spaces so the
    envelope stays one line; anything else (not JSON, or a JSON string) goes in as a
    string of its text, so that folding it reports it as the recording would.

    Args:
        thread_id: the thread (see :func:`find_thread`).
        seq: the event's position in the thread.
        payload: the payload the framer cut.

    Returns:
        The line, which :func:`key_envelope` reads back as ``(thread_id, seq, payload)``
        (a JSON payload without its surrounding whitespace).
    """
    event: msgspec.Raw | str
    try:
        raw = bytes(_RAW.decode(payload))
    except msgspec.DecodeError:
        raw = b'"'  # not JSON: carried as text, like a string
    if raw[0] == _QUOTE:
        # A string event means text, so a payload that is a JSON string goes as text too.
        event = payload.decode("utf-8", "replace")
    else:
        event = msgspec.Raw(raw.replace(b"\n", b" ").replace(b"\r", b" "))
    return _ENCODER.encode(_Envelope(thread_id, seq, event))  # type: ignore[arg-type]


class _RunView(msgspec.Struct):
    """What finding a thread needs of an event: its type; the rest stays undecoded."""

    type: Any = None


_RUN_VIEW = msgspec.json.Decoder(_RunView)


def find_thread(payloads: Iterable[bytes]) -> str | None:
    """The thread a recording belongs to: the ``threadId`` of its first ``RUN_STARTED``.

    Only a ``RUN_STARTED`` the fold would keep counts, with a non-empty string
    ``threadId``. The payloads are read only up to it.

    Args:
        payloads: the recording's payloads, in order.

    Returns:
        The thread id, or ``None`` when no such event exists (callers then name the
        thread after the file).
    """
    decoder = EventDecoder()
    for payload in payloads:
        try:
            kind = _RUN_VIEW.decode(payload).type
        except (msgspec.DecodeError, RecursionError):
            continue
        if kind != "RUN_STARTED":
            continue
        for item in decoder.decode_frames([Frame(payload, 1, 0)]):
            if isinstance(item, Decoded) and isinstance(item.event, ev.RunStarted):
                thread = item.event.thread_id
                if isinstance(thread, str) and thread:
                    return thread
    return None


def thread_name(path: str) -> str:
    r"""The thread of a recording without a ``threadId``: its file name, less its suffix.

    Args:
        path: the file's path or URL (``/`` separated).

    Returns:
        ``t1`` for ``archive/2026/t1.jsonl``; a name without a suffix as it is. A byte
        of a name that is not UTF-8 (held as a surrogate, as Python reads such names)
        is written as ``\xNN``: an id must be text that can be sent.
    """
    name = path.rpartition("/")[2]
    stem, dot, _ = name.rpartition(".")
    return sendable_name(stem if dot and stem else name)


def sendable_name(name: str) -> str:
    r"""A file name as text that can be sent: each byte that was not UTF-8 as ``\xNN``.

    Python reads such a byte of a name as a lone surrogate, which no encoder takes.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class RunLifecycle(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """How one run ended, and each of its messages' last lifecycle phase.

    Attributes:
        run_id: the run (``None`` for events before any ``RUN_STARTED``).
        status: ``"running"`` (no end seen), ``"finished"`` or ``"error"``.
        messages: by messageId, ``"building"``, ``"retrying"``, ``"failed"`` or
            ``"painted"``.
    """

    run_id: str | None
    status: str
    messages: dict[str, str]


class ThreadResult(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """Everything an archive job reports about one thread: a line of its output.

    Attributes:
        thread_id: the thread.
        events: the events folded (payloads, bad ones included).
        rejected: of those, how many were dropped whole (not JSON, not an event...).
        errors: ERROR diagnostics among ``diagnostics``: input that was dropped.
        duplicates: events dropped because their ``seq`` was already folded.
        missing: ``seq`` values never seen below the highest one (gaps given up).
        runs: each run's final parts, as ``process --final`` prints them.
        lifecycle: per run, in the same order, its status and message phases.
        diagnostics: warnings and errors by code (debug notes are not counted).
        duration_ms: the span of the events' ``timestamp`` fields, when any has one.
    """

    thread_id: str
    events: int
    rejected: int
    errors: int
    duplicates: int
    missing: int
    runs: list[FinalRun]
    lifecycle: list[RunLifecycle]
    diagnostics: dict[str, int]
    duration_ms: int | None = None


class ThreadFold:
    """One thread's events, fed in order, folded into a :class:`ThreadResult`.

    A thin driver of :class:`~a2ui_stream._engine.processor.Processor` (keeping every
    run, as ``process --final`` does): the same decoding, the same reducer, so the
    result equals what the command prints for the same events. It is fed, never reads.
    """

    def __init__(
        self,
        thread_id: str,
        *,
        limits: Limits | None = None,
        render_tools: Iterable[str] = (RENDER_TOOL_NAME,),
        wrapper_tools: Iterable[str] = (WRAPPER_TOOL_NAME,),
        catalog_id: str | None = None,
    ) -> None:
        """Start an empty thread.

        Args:
            thread_id: the thread's key.
            limits: the bounds to enforce; the defaults when omitted.
            render_tools: as :class:`~a2ui_stream.Processor` takes them.
            wrapper_tools: likewise.
            catalog_id: likewise.
        """
        self.thread_id = thread_id
        self._processor = Processor(
            limits=limits,
            keep_runs=None,
            render_tools=render_tools,
            wrapper_tools=wrapper_tools,
            catalog_id=catalog_id,
        )
        self._decoder = EventDecoder(limits=self._processor.limits)
        self._counts: collections.Counter[str] = collections.Counter()
        self._errors = 0
        self.events = 0
        self._first: int | None = None
        self._last: int | None = None

    def feed(self, payloads: Iterable[bytes]) -> None:
        """Fold the next payloads of the thread, in ``seq`` order.

        Args:
            payloads: undecoded events, as :class:`Keyed` carries them.
        """
        seq = self.events
        self.feed_frames(
            [Frame(payload, seq + index + 1, 0) for index, payload in enumerate(payloads)]
        )

    def feed_frames(self, items: list[Frame | Diagnostic]) -> None:
        """Fold payloads as a framer cut them from a recording (framing errors counted).

        Args:
            items: frames and framing diagnostics, in stream order.
        """
        self.events += sum(type(item) is Frame for item in items)
        decoded = self._decoder.decode_frames(items)
        for item in decoded:
            if type(item) is Decoded:
                stamp = item.event.timestamp
                if type(stamp) is int:
                    self._first = stamp if self._first is None else min(self._first, stamp)
                    self._last = stamp if self._last is None else max(self._last, stamp)
        self._processor.feed_events(decoded)
        self._count(self._processor.take_diagnostics())

    def _count(self, diagnostics: Iterable[Diagnostic]) -> None:
        for diagnostic in diagnostics:
            if diagnostic.severity is not Severity.DEBUG:
                self._counts[diagnostic.code] += 1
                self._errors += diagnostic.severity is Severity.ERROR

    def result(self, *, duplicates: int = 0, missing: int = 0) -> ThreadResult:
        """End the thread and say what it came to.

        The end of input settles the open run's conversion warnings, as it does for
        ``process``; nothing may be fed afterwards.

        Args:
            duplicates: repeated events dropped before the fold.
            missing: gaps in ``seq`` the fold went past.

        Returns:
            The thread's result.
        """
        self._processor.close()
        self._count(self._processor.take_diagnostics())
        runs = self._processor.state.runs
        span = None if self._first is None or self._last is None else self._last - self._first
        return ThreadResult(
            thread_id=self.thread_id,
            events=self.events,
            rejected=self._processor.rejected,
            errors=self._errors,
            duplicates=duplicates,
            missing=missing,
            runs=[final_run(run) for run in runs],
            lifecycle=[
                RunLifecycle(
                    run_id=run.run_id,
                    status=run.status,
                    messages={key: value.phase for key, value in run.lifecycles.items()},
                )
                for run in runs
            ],
            diagnostics=dict(sorted(self._counts.items())),
            duration_ms=span,
        )


def fold_thread(
    thread_id: str,
    records: Iterable[tuple[int, bytes]],
    *,
    limits: Limits | None = None,
    **carriers: Any,
) -> ThreadResult:
    """Fold one thread's events, whatever order they arrive in (the batch fold).

    Records are sorted by ``seq``; of several with one ``seq`` the first in byte order
    is kept (so the result never depends on arrival order) and the others counted as
    duplicates. Gaps are gone past and counted as missing.

    Args:
        thread_id: the thread.
        records: ``(seq, payload)`` pairs, as an engine's group delivers them.
        limits: the bounds to enforce; the defaults when omitted.
        **carriers: ``render_tools``, ``wrapper_tools``, ``catalog_id``, as
            :class:`ThreadFold` takes them.

    Returns:
        The thread's result.
    """
    ordered = sorted(records)
    kept: list[bytes] = []
    duplicates = 0
    previous = -1
    for seq, payload in ordered:
        if seq == previous:
            duplicates += 1
            continue
        previous = seq
        kept.append(payload)
    fold = ThreadFold(thread_id, limits=limits, **carriers)
    fold.feed(kept)
    return fold.result(duplicates=duplicates, missing=previous + 1 - len(kept))
