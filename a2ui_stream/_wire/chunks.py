"""Chunk events expanded into the start, content and end events they stand for.

Owns the one implementation of AG-UI's chunk shorthand. ``TEXT_MESSAGE_CHUNK``,
``TOOL_CALL_CHUNK`` and ``REASONING_MESSAGE_CHUNK`` are conveniences: every AG-UI
client expands them before applying anything (``@ag-ui/client``'s ``transformChunks``,
which its middleware chain sees expanded too). :func:`expand` is that expansion, a
pure function of the open chunk streams and one event; the reducer (so that a render
call sent as chunks draws) and the thread history both fold through it.

The rules, as the published client (1.0.0) keeps them:

- A *lane* is the sub-agent a chunk belongs to (``subagentRunId``; absent is the parent
  agent). A lane holds at most one open chunk stream, of any of the three kinds.
- A chunk whose id (``messageId``; ``toolCallId``) is open in some lane continues it
  there; a ``subagentRunId`` naming another lane is a mismatch. An id nobody holds
  opens a stream in the lane its ``subagentRunId`` names. A chunk without an id
  continues its own tagged lane, else the parent's stream of its kind, else the one
  stream of its kind open anywhere (two or more: ambiguous).
- A chunk continues the lane's stream when it is of the same kind and names its id or
  none; a continuation may repeat what the opener said (``role``, ``name``;
  ``toolCallName``, ``parentMessageId``) but not contradict it. Otherwise the lane's
  stream ends (its ``*_END``) and the chunk opens a new one with a ``*_START``: it must
  have an id, and a tool call a ``toolCallName``; a text message's role defaults to
  ``assistant``.
- A chunk with a ``delta`` or a ``rawEvent`` adds a content event (``delta`` ``""``
  when absent); a continuation with neither, but with ``metadata`` or fields AG-UI does
  not declare, adds an empty one, so they are not lost. ``metadata`` goes on the start
  and content events, ``rawEvent`` on the content only; undeclared fields ride on the
  content event, else on the start (where the start sets a field itself, the chunk's
  is dropped with a warning). ``subagentRunId``: the chunk's, else the stream's lane.
  The chunk's ``timestamp`` is not carried.
- ``RUN_STARTED``, ``RUN_FINISHED``, ``RUN_ERROR`` and ``MESSAGES_SNAPSHOT`` end every
  open stream first, in the order they opened; the other text, tool-call, reasoning,
  state, step and custom events end only their own lane's; ``SUBAGENT_FINISHED`` and
  ``SUBAGENT_ERROR`` end their sub-agent's lane. ``RAW``, activity,
  ``REASONING_ENCRYPTED_VALUE``, ``SUBAGENT_STARTED`` and unknown types pass untouched.
- When the stream ends, open chunk streams are forgotten: no ``*_END`` is made for
  them (the client's ``finalize`` makes none either).

Where the client throws and fails the whole run (a first chunk without its id or tool
name, a mismatch, an ambiguity), :func:`expand` drops that chunk alone with an ERROR
diagnostic and leaves the open streams as they were. ``null`` is not a value AG-UI
allows for any of these fields; one that decoded anyway reads as absent.

Pure: frozen values in, values out. Imports only msgspec, the events and diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, NamedTuple, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.spelling import wire_names

__all__ = [
    "CHUNK_EVENTS",
    "Expansion",
    "OpenChunk",
    "OpenChunks",
    "expand",
]


Kind: TypeAlias = Literal["text", "tool", "reasoning"]


class OpenChunk(msgspec.Struct, frozen=True, kw_only=True):
    """One stream a lane is assembling from chunks: what its opening chunk said.

    Attributes:
        kind: a text message, a tool call or a reasoning message.
        lane: the ``subagentRunId`` it belongs to; ``None`` for the parent agent.
        id: its ``messageId``, or ``toolCallId`` for a tool call.
        role: a text message's role (``assistant`` unless the opener said otherwise).
        name: a text message's ``name``, or a tool call's ``toolCallName``.
        parent: a tool call's ``parentMessageId``.
    """

    kind: Kind
    lane: str | None
    id: str
    role: ev.TextRole | None = None
    name: str | None = None
    parent: str | None = None


OpenChunks: TypeAlias = tuple[OpenChunk, ...]
"""The open chunk streams, at most one per lane, in the order they opened."""


class Expansion(NamedTuple):
    """What one event expanded into."""

    streams: OpenChunks
    events: tuple[ev.Event, ...]
    diagnostics: tuple[Diagnostic, ...]


_Chunk: TypeAlias = ev.TextMessageChunk | ev.ToolCallChunk | ev.ReasoningMessageChunk

#: The event types :func:`expand` expands; every other type it passes on.
CHUNK_EVENTS: Final[frozenset[type[ev.Event]]] = frozenset(
    {ev.TextMessageChunk, ev.ToolCallChunk, ev.ReasoningMessageChunk}
)


def _given(value: Any) -> Any:
    """A field's value, or ``None`` when it is absent (``null`` reads as absent)."""
    return None if value is UNSET else value


def _wire_names(cls: type[ev.Event]) -> frozenset[str]:
    return frozenset(wire_names(cls))


# --- The three kinds ------------------------------------------------------------------


def _text_start(stream: OpenChunk, chunk: ev.Event) -> ev.Event:
    return ev.TextMessageStart(
        message_id=stream.id,
        role=stream.role,
        name=UNSET if stream.name is None else stream.name,
        subagent_run_id=UNSET if stream.lane is None else stream.lane,
        metadata=_metadata(chunk),
    )


def _tool_start(stream: OpenChunk, chunk: ev.Event) -> ev.Event:
    return ev.ToolCallStart(
        tool_call_id=stream.id,
        tool_call_name="" if stream.name is None else stream.name,
        parent_message_id=UNSET if stream.parent is None else stream.parent,
        subagent_run_id=UNSET if stream.lane is None else stream.lane,
        metadata=_metadata(chunk),
    )


def _reasoning_start(stream: OpenChunk, chunk: ev.Event) -> ev.Event:
    return ev.ReasoningMessageStart(
        message_id=stream.id,
        subagent_run_id=UNSET if stream.lane is None else stream.lane,
        metadata=_metadata(chunk),
    )


def _text_open(chunk: ev.TextMessageChunk, entity: str, lane: str | None) -> OpenChunk:
    role = "assistant" if chunk.role is UNSET or chunk.role is None else chunk.role
    return OpenChunk(kind="text", lane=lane, id=entity, role=role, name=_given(chunk.name))


def _tool_open(chunk: ev.ToolCallChunk, entity: str, lane: str | None) -> OpenChunk:
    return OpenChunk(
        kind="tool",
        lane=lane,
        id=entity,
        name=_given(chunk.tool_call_name),
        parent=_given(chunk.parent_message_id),
    )


def _reasoning_open(_chunk: ev.ReasoningMessageChunk, entity: str, lane: str | None) -> OpenChunk:
    return OpenChunk(kind="reasoning", lane=lane, id=entity)


# The content and end events, made without ``**`` (ten times dearer in msgspec).
_Content: TypeAlias = Callable[..., ev.Event]  # (id, *, delta, lane, metadata, raw, extra)
_End: TypeAlias = Callable[[str, Any], ev.Event]


def _message_events(
    content: type[ev.TextMessageContent | ev.ReasoningMessageContent],
    end: type[ev.TextMessageEnd | ev.ReasoningMessageEnd],
) -> tuple[_Content, _End]:
    """The content and end events of a kind whose id is its ``messageId``."""

    def made(
        entity: str, *, delta: str, lane: Any, metadata: Any, raw: Any, extra: Any
    ) -> ev.Event:
        return content(
            message_id=entity,
            delta=delta,
            subagent_run_id=lane,
            metadata=metadata,
            raw_event=raw,
            extra=extra,
        )

    def ended(entity: str, lane: Any) -> ev.Event:
        return end(message_id=entity, subagent_run_id=lane)

    return made, ended


def _tool_args(
    entity: str, *, delta: str, lane: Any, metadata: Any, raw: Any, extra: Any
) -> ev.Event:
    return ev.ToolCallArgs(
        tool_call_id=entity,
        delta=delta,
        subagent_run_id=lane,
        metadata=metadata,
        raw_event=raw,
        extra=extra,
    )


def _tool_end(entity: str, lane: Any) -> ev.Event:
    return ev.ToolCallEnd(tool_call_id=entity, subagent_run_id=lane)


_TEXT_EVENTS = _message_events(ev.TextMessageContent, ev.TextMessageEnd)
_REASONING_EVENTS = _message_events(ev.ReasoningMessageContent, ev.ReasoningMessageEnd)


class _KindRules(NamedTuple):
    """How one kind of chunk expands: its fields, its events and what must agree."""

    kind: Kind
    chunk_type: str  # the wire type, for messages
    what: str  # "text message", for messages
    id_attr: str  # the chunk's and the content/end events' id attribute
    id_wire: str
    #: Fields a first chunk must have besides its id: ``(attribute, wire name)``.
    required: tuple[tuple[str, str], ...]
    #: Fields a continuation may repeat but not change: (chunk attribute, stream
    #: attribute, wire name).
    agree: tuple[tuple[str, str, str], ...]
    opened: Callable[[Any, str, str | None], OpenChunk]
    start: Callable[[OpenChunk, Any], ev.Event]
    content: _Content
    end: _End
    #: The start event's own wire fields: a chunk's undeclared field of one of these
    #: names cannot ride on it.
    start_fields: frozenset[str]


_KINDS: Final[Mapping[type[ev.Event], _KindRules]] = {
    ev.TextMessageChunk: _KindRules(
        kind="text",
        chunk_type="TEXT_MESSAGE_CHUNK",
        what="text message",
        id_attr="message_id",
        id_wire="messageId",
        required=(),
        agree=(("role", "role", "role"), ("name", "name", "name")),
        opened=_text_open,
        start=_text_start,
        content=_TEXT_EVENTS[0],
        end=_TEXT_EVENTS[1],
        start_fields=_wire_names(ev.TextMessageStart),
    ),
    ev.ToolCallChunk: _KindRules(
        kind="tool",
        chunk_type="TOOL_CALL_CHUNK",
        what="tool call",
        id_attr="tool_call_id",
        id_wire="toolCallId",
        required=(("tool_call_name", "toolCallName"),),
        agree=(
            ("tool_call_name", "name", "toolCallName"),
            ("parent_message_id", "parent", "parentMessageId"),
        ),
        opened=_tool_open,
        start=_tool_start,
        content=_tool_args,
        end=_tool_end,
        start_fields=_wire_names(ev.ToolCallStart),
    ),
    ev.ReasoningMessageChunk: _KindRules(
        kind="reasoning",
        chunk_type="REASONING_MESSAGE_CHUNK",
        what="reasoning message",
        id_attr="message_id",
        id_wire="messageId",
        required=(),
        agree=(),
        opened=_reasoning_open,
        start=_reasoning_start,
        content=_REASONING_EVENTS[0],
        end=_REASONING_EVENTS[1],
        start_fields=_wire_names(ev.ReasoningMessageStart),
    ),
}
_BY_KIND: Final[Mapping[Kind, _KindRules]] = {rules.kind: rules for rules in _KINDS.values()}


def _metadata(event: ev.Event) -> dict[str, Any] | UnsetType:
    return event.metadata if isinstance(event.metadata, dict) else UNSET


def _end(stream: OpenChunk) -> ev.Event:
    return _BY_KIND[stream.kind].end(stream.id, UNSET if stream.lane is None else stream.lane)


# --- Ending streams -------------------------------------------------------------------


def _close(streams: OpenChunks, lane: str | None) -> tuple[OpenChunks, tuple[ev.Event, ...]]:
    """End the lane's open stream, if it has one."""
    for index, stream in enumerate(streams):
        if stream.lane == lane:
            return (*streams[:index], *streams[index + 1 :]), (_end(stream),)
    return streams, ()


def _in_lane(streams: OpenChunks, lane: str | None) -> OpenChunk | None:
    for stream in streams:
        if stream.lane == lane:
            return stream
    return None


def _lane_of(event: ev.Event) -> str | None:
    lane = event.subagent_run_id
    return lane if isinstance(lane, str) else None


def _own_lane(streams: OpenChunks, event: ev.Event) -> tuple[OpenChunks, tuple[ev.Event, ...]]:
    return _close(streams, _lane_of(event))


def _every_lane(streams: OpenChunks, _event: ev.Event) -> tuple[OpenChunks, tuple[ev.Event, ...]]:
    return (), tuple(_end(stream) for stream in streams)


def _subagent_lane(streams: OpenChunks, event: ev.Event) -> tuple[OpenChunks, tuple[ev.Event, ...]]:
    # A terminal without its sub-agent's id names no lane: not even the parent's.
    lane = event.subagent_run_id
    return _close(streams, lane) if isinstance(lane, str) else (streams, ())


_Closer: TypeAlias = Callable[[OpenChunks, ev.Event], tuple[OpenChunks, tuple[ev.Event, ...]]]

#: Which open streams each event type ends before it; a type not listed ends none.
_CLOSERS: Final[Mapping[type[ev.Event], _Closer]] = {
    **dict.fromkeys(
        (
            ev.TextMessageStart,
            ev.TextMessageContent,
            ev.TextMessageEnd,
            ev.ToolCallStart,
            ev.ToolCallArgs,
            ev.ToolCallEnd,
            ev.ToolCallResult,
            ev.StateSnapshot,
            ev.StateDelta,
            ev.CustomEvent,
            ev.StepStarted,
            ev.StepFinished,
            ev.ReasoningStart,
            ev.ReasoningMessageStart,
            ev.ReasoningMessageContent,
            ev.ReasoningMessageEnd,
            ev.ReasoningEnd,
        ),
        _own_lane,
    ),
    **dict.fromkeys((ev.RunStarted, ev.RunFinished, ev.RunError, ev.MessagesSnapshot), _every_lane),
    ev.SubagentFinished: _subagent_lane,
    ev.SubagentError: _subagent_lane,
}


# --- Expanding one event --------------------------------------------------------------


def expand(streams: OpenChunks, event: ev.Event, *, seq: int | None = None) -> Expansion:
    """Expand one event, given the chunk streams still open before it.

    Args:
        streams: the open chunk streams (``()`` at the start of a stream); left unchanged.
        event: any event.
        seq: the event's index in its stream, for diagnostics.

    Returns:
        The open streams after the event, the events it stands for in order (itself,
        after the ends of the streams it closes; a chunk's start, content and the end
        of the stream it replaces), and diagnostics: a chunk that cannot be expanded
        is dropped with an ERROR and changes nothing.
    """
    rules = _KINDS.get(type(event))
    if rules is not None:
        return _chunk(streams, event, rules, seq)  # type: ignore[arg-type]  # a chunk type
    closer = _CLOSERS.get(type(event))
    if closer is None or not streams:
        return Expansion(streams, (event,), ())
    remaining, ends = closer(streams, event)
    return Expansion(remaining, (*ends, event), ())


def _chunk(streams: OpenChunks, chunk: _Chunk, rules: _KindRules, seq: int | None) -> Expansion:
    entity: str | None = _given(getattr(chunk, rules.id_attr))
    lane = _resolve(streams, rules, entity, _lane_of(chunk), seq)
    if isinstance(lane, Diagnostic):
        return Expansion(streams, (), (lane,))
    current = _in_lane(streams, lane)
    out: list[ev.Event] = []
    found: list[Diagnostic] = []
    if current is not None and current.kind == rules.kind and entity in {None, current.id}:
        stream = current
        for attribute, held, wire in rules.agree:
            said, opened = _given(getattr(chunk, attribute)), getattr(stream, held)
            if said is not None and said != opened:
                problem = _disagrees(rules, stream, wire, said, held=opened, seq=seq)
                return Expansion(streams, (), (problem,))
    else:
        if entity is None:
            message = f"a first {rules.chunk_type} must have a `{rules.id_wire}`"
            return Expansion(
                streams, (), (_dropped(Code.CHUNK_NO_ID, message, rules.id_wire, seq),)
            )
        for attribute, wire in rules.required:
            if _given(getattr(chunk, attribute)) is None:
                message = f"a first {rules.chunk_type} must have a `{wire}`"
                return Expansion(streams, (), (_dropped(Code.CHUNK_NO_NAME, message, wire, seq),))
        streams, ends = _close(streams, lane)
        stream = rules.opened(chunk, entity, lane)
        streams = (*streams, stream)
        out.extend(ends)
        out.append(rules.start(stream, chunk))
    extra = chunk.extra if isinstance(chunk.extra, dict) and chunk.extra else None
    raw = _given(chunk.raw_event)
    delta = _given(chunk.delta)
    if (
        delta is not None
        or raw is not None
        or (not out and (extra is not None or isinstance(chunk.metadata, dict)))
    ):
        out.append(_content(rules, stream, chunk, delta or "", raw, extra))
    elif extra is not None and out:
        # Nothing else carries the undeclared fields: the start does, under its own.
        kept = {key: value for key, value in extra.items() if key not in rules.start_fields}
        if len(kept) < len(extra):
            found.append(_shadowed(rules, sorted(set(extra) - set(kept)), seq))
        if kept:
            out[-1] = msgspec.structs.replace(out[-1], extra=kept)
    return Expansion(streams, tuple(out), tuple(found))


def _content(  # noqa: PLR0917 - the pieces of one event, each decided by the caller
    rules: _KindRules,
    stream: OpenChunk,
    chunk: _Chunk,
    delta: str,
    raw: Any,
    extra: dict[str, msgspec.Raw] | None,
) -> ev.Event:
    tag = _lane_of(chunk)
    lane = stream.lane if tag is None else tag
    return rules.content(
        stream.id,
        delta=delta,
        lane=UNSET if lane is None else lane,
        metadata=_metadata(chunk),
        raw=UNSET if raw is None else raw,
        extra=UNSET if extra is None else extra,
    )


def _resolve(
    streams: OpenChunks, rules: _KindRules, entity: str | None, tag: str | None, seq: int | None
) -> str | Diagnostic | None:
    """The lane a chunk belongs to, or why no lane can be told."""
    if entity is not None:
        for stream in streams:
            if stream.kind == rules.kind and stream.id == entity:
                if tag is not None and tag != stream.lane:
                    return _disagrees(
                        rules, stream, "subagentRunId", tag, held=stream.lane, seq=seq
                    )
                return stream.lane
        return tag  # an id nobody holds opens in the lane the chunk names
    if tag is not None:
        return tag
    parent = _in_lane(streams, None)
    if parent is not None and parent.kind == rules.kind:
        return None
    # A producer may tag only the opening chunk: the one stream of the kind is meant.
    candidates = [stream.lane for stream in streams if stream.kind == rules.kind]
    if len(candidates) > 1:
        message = (
            f"{rules.chunk_type} has neither a `{rules.id_wire}` nor a `subagentRunId`, "
            f"and {len(candidates)} lanes have a {rules.what} open"
        )
        return _dropped(Code.CHUNK_AMBIGUOUS, message, None, seq)
    return candidates[0] if candidates else None


def _disagrees(
    rules: _KindRules, stream: OpenChunk, wire: str, said: str, *, held: str | None, seq: int | None
) -> Diagnostic:
    opened = "none" if held is None else repr(held)
    if wire == "subagentRunId" and held is None:
        opened = "the parent agent's"
    message = (
        f"{rules.chunk_type} continues {rules.what} {stream.id!r} with {wire} {said!r}, "
        f"but it was opened with {opened}"
    )
    return _dropped(Code.CHUNK_MISMATCH, message, wire, seq)


def _dropped(code: Code, message: str, wire: str | None, seq: int | None) -> Diagnostic:
    return Diagnostic(
        code=code,
        message=f"{message}; the chunk was dropped (upstream's client fails the run)",
        severity=Severity.ERROR,
        path=None if wire is None else f"$.{wire}",
        seq=seq,
    )


def _shadowed(rules: _KindRules, names: list[str], seq: int | None) -> Diagnostic:
    listed = ", ".join(f"`{name}`" for name in names)
    return Diagnostic(
        code=Code.CHUNK_FIELD_DROPPED,
        message=(
            f"{rules.chunk_type} carried {listed}, which the start made of it sets itself; "
            "the chunk's value was dropped"
        ),
        severity=Severity.WARNING,
        seq=seq,
    )
