r"""Surrogate halves: a character a JavaScript agent split across two deltas, joined again.

Owns :class:`Halves`, what a stream's decoder remembers between lines for it. JavaScript
strings are UTF-16, and a server that cuts streamed text by length (``slice``) can cut
an emoji between its two code units; ``JSON.stringify`` then writes each half as a lone
``\uD83D`` / ``\uDE00`` escape, one at the end of a delta, the other at the start of
the next, and a JavaScript client joins them again by concatenating. Such a line is
valid JSON but holds no Unicode text, so msgspec refuses it, and the line was dropped
whole: when the half shared its delta with the ``"}]}`` that closes a render call's
arguments, the surface never drew.

Here a line whose only lone surrogates are a low half opening a text delta and a high
half ending one is decoded without them: the high half waits for the next delta of the
same stream, and the two become the character at the start of that delta. A half
that nothing completes is dropped with an ``event.surrogate_half`` warning. Any other
lone surrogate leaves the line to be refused as before.

Imports only the events, codes and diagnostics; does no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "ABOUT_SURROGATES",
    "DELTA_EVENTS",
    "LONE_SURROGATE",
    "STREAM_EVENTS",
    "Halves",
    "split_halves",
]

#: msgspec's reasons for a lone surrogate: "invalid utf-16 surrogate pair" when another
#: escape follows the half, and only "Input data was truncated" when anything else does.
ABOUT_SURROGATES: Final = (
    "Input data was truncated",
    "JSON is malformed: invalid utf-16 surrogate",
)
#: A ``\u`` escape of a UTF-16 surrogate that is not half of a pair (an even run of
#: backslashes before it, so it is an escape): JSON's grammar allows it, JavaScript's
#: ``JSON.parse`` reads it, but it is no Unicode character, so msgspec refuses the line.
LONE_SURROGATE: Final = re.compile(
    rb"(?<!\\)(?:\\\\)*"
    rb"(\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)

#: The events whose ``delta`` is streamed text: the kind of stream, the field naming it.
_DELTAS: Final[dict[type[ev.Event], tuple[str, str]]] = {
    ev.TextMessageContent: ("text", "message_id"),
    ev.TextMessageChunk: ("text", "message_id"),
    ev.ToolCallArgs: ("tool", "tool_call_id"),
    ev.ToolCallChunk: ("tool", "tool_call_id"),
    ev.ReasoningMessageContent: ("reasoning", "message_id"),
    ev.ReasoningMessageChunk: ("reasoning", "message_id"),
}
DELTA_EVENTS: Final = frozenset(_DELTAS)
#: The events that end such a stream, or add to it: what a waiting half is settled by.
_STREAMS: Final[dict[type[ev.Event], tuple[str, str]]] = {
    **_DELTAS,
    ev.TextMessageEnd: ("text", "message_id"),
    ev.ToolCallEnd: ("tool", "tool_call_id"),
    ev.ReasoningMessageEnd: ("reasoning", "message_id"),
}
STREAM_EVENTS: Final = frozenset(_STREAMS)
#: Stands in for a half while the line is decoded: a noncharacter, valid in JSON and in
#: Unicode, refused in a line that already holds one.
_MARK: Final = "\ufdd0"
_MARK_ESCAPE: Final = b"\\ufdd0"
_MARK_BYTES: Final = _MARK.encode()
#: Streams whose half may wait at once: the oldest gives way past it (a hostile stream
#: of halves under ever new ids must not grow the decoder without bound).
_MAX_WAITING: Final = 1024
_LOW: Final = range(0xDC00, 0xE000)
_HIGH: Final = range(0xD800, 0xDC00)


def split_halves(
    payload: bytes, lone: list[re.Match[bytes]], decode: Callable[[bytes], Any]
) -> tuple[ev.Event, str | None, str | None] | None:
    """A line decoded without the surrogate halves that open and end its text delta.

    Args:
        payload: the line, refused for its lone surrogate escapes.
        lone: those escapes, in order (group 1 of each is the escape).
        decode: the event decoder.

    Returns:
        The event with the halves taken out of its ``delta``, the low half that opened
        it and the high half that ended it (each ``None`` when absent); ``None`` when
        the lone surrogates are anywhere else, or the line is bad for another reason.
    """
    if len(lone) > 2 or _MARK_ESCAPE in payload.lower() or _MARK_BYTES in payload:
        return None
    units = [int(match.group(1)[-4:], 16) for match in lone]
    marked = bytearray(payload)
    for match in reversed(lone):
        marked[match.start(1) : match.end(1)] = _MARK_ESCAPE
    try:
        event = decode(bytes(marked))
    except (msgspec.DecodeError, RecursionError):
        return None
    delta = getattr(event, "delta", None)
    if type(event) not in DELTA_EVENTS or type(delta) is not str:
        return None
    if event.extra is not msgspec.UNSET or delta.count(_MARK) != len(units):
        return None  # a half outside the delta (an id, an extra field): not this case
    low = high = None
    if delta[:1] == _MARK and units[0] in _LOW:
        low, delta, units = chr(units[0]), delta[1:], units[1:]
    if units and delta[-1:] == _MARK and units[0] in _HIGH:
        high, delta, units = chr(units[0]), delta[:-1], units[1:]
    if units:
        return None  # a half inside the text, or a low half ending it
    return msgspec.structs.replace(event, delta=delta), low, high


def _stream(event: ev.Event) -> tuple[str, Any]:
    kind, field = _STREAMS[type(event)]
    return kind, getattr(event, field)


def _half_warning(line: int | None, offset: int | None, what: str) -> Diagnostic:
    return Diagnostic(
        code=Code.EVENT_SURROGATE_HALF,
        message=(
            f"a text delta {what} half of a UTF-16 surrogate pair that no neighbouring "
            "delta of its stream completes; the half was dropped, the rest kept"
        ),
        severity=Severity.WARNING,
        line=line,
        offset=offset,
        path="$.delta",
    )


class Halves:
    """The high halves that ended a delta, each waiting for its stream's next delta.

    Part of one stream's decoder state, like the framer's unfinished line: the output
    depends on the lines before, never on how they were cut.
    """

    __slots__ = ("_waiting",)

    def __init__(self) -> None:
        self._waiting: dict[tuple[str, Any], tuple[str, int | None, int | None]] = {}

    def __bool__(self) -> bool:
        return bool(self._waiting)

    def joined(
        self,
        split: tuple[ev.Event, str | None, str | None],
        line: int | None,
        offset: int | None,
        found: list[Diagnostic],
    ) -> ev.Event:
        """The event of a line :func:`split_halves` took apart, its character made whole.

        A low half completes the high half its stream's last delta ended with; a high
        half waits for the next delta. Halves that cannot be completed are reported in
        ``found``.
        """
        event, low, high = split
        stream = _stream(event)
        waiting = self._waiting.pop(stream, None)
        delta: str = event.delta  # type: ignore[attr-defined]  # split_halves checked it
        if waiting is not None:
            if low is None:
                found.append(_half_warning(waiting[1], waiting[2], "ended with"))
            else:
                pair = (waiting[0] + low).encode("utf-16-le", "surrogatepass")
                delta = pair.decode("utf-16-le") + delta
                low = None
        if low is not None:
            found.append(_half_warning(line, offset, "began with"))
        if high is not None:
            waiting_now = self._waiting
            if len(waiting_now) >= _MAX_WAITING:  # a bound: the oldest half gives way
                _, at, where = waiting_now.pop(next(iter(waiting_now)))
                found.append(_half_warning(at, where, "ended with"))
            waiting_now[stream] = (high, line, offset)
        return msgspec.structs.replace(event, delta=delta)

    def settle(self, event: ev.Event, found: list[Any]) -> None:
        """Let a whole delta, or the stream's end, end its wait: the half stays alone."""
        if type(event) in STREAM_EVENTS:
            waiting = self._waiting.pop(_stream(event), None)
            if waiting is not None:
                found.append(_half_warning(waiting[1], waiting[2], "ended with"))
