"""AG-UI 1.0 wire types: every event as a frozen msgspec Struct, and the message types.

Owns the event shapes on the wire and nothing else: field names (snake_case here,
camelCase on the wire through ``rename="camel"``), which fields are required, and the
tags that pick a class from an event's ``type``. The messages, tools, context and run
input events carry are defined in ``_messages`` and re-exported here, the one module
users import wire types from. Decoding and encoding bytes live in
:mod:`a2ui_stream._wire.codec`; this module imports only msgspec and ``_messages`` and does
no I/O.

Conventions every type follows:

- An optional field defaults to :data:`msgspec.UNSET`, which the encoder leaves out, so
  "absent" and ``null`` stay apart and a decoded event re-encodes as it arrived.
- Every event is an :class:`Event`: the base fields ``timestamp``, ``raw_event``,
  ``metadata`` and ``subagent_run_id``, plus ``extra``, the wire fields this version of
  the protocol does not know. ``extra`` is never written under its own name: the codec
  splices its keys back into the object, so a newer agent's fields survive a round trip
  and take part in equality. Encode events with ``a2ui_stream._wire.codec.encode_event``: a
  plain msgspec encoder would write ``extra`` under its reserved key ``"$extra"``.
- An event whose ``type`` is not AG-UI 1.0 becomes an :class:`UnknownEvent` that keeps
  the type string and every field.
- Types nested inside events (messages, tools, tool calls, token usage) ignore wire
  fields they do not declare; only top-level event fields are kept verbatim.
- ``ActivitySnapshot.content`` stays undecoded (:class:`msgspec.Raw`): the surface
  reducer compares its bytes with the previous snapshot's before decoding anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._wire.messages import (
    ActivityMessage,
    AssistantMessage,
    Context,
    DeveloperMessage,
    FunctionCall,
    Message,
    ReasoningMessage,
    ResumeEntry,
    RunAgentInput,
    SystemMessage,
    TextRole,
    TokenUsage,
    Tool,
    ToolCall,
    ToolMessage,
    UserMessage,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "EXTRA_WIRE_NAME",
    "ActivityDelta",
    "ActivityMessage",
    "ActivitySnapshot",
    "AnyEvent",
    "AssistantMessage",
    "Context",
    "CustomEvent",
    "DeveloperMessage",
    "Event",
    "FunctionCall",
    "KnownEvent",
    "Message",
    "MessagesSnapshot",
    "RawEvent",
    "ReasoningEncryptedValue",
    "ReasoningEnd",
    "ReasoningMessage",
    "ReasoningMessageChunk",
    "ReasoningMessageContent",
    "ReasoningMessageEnd",
    "ReasoningMessageStart",
    "ReasoningStart",
    "ResumeEntry",
    "RunAgentInput",
    "RunError",
    "RunFinished",
    "RunStarted",
    "StateDelta",
    "StateSnapshot",
    "StepFinished",
    "StepStarted",
    "SubagentError",
    "SubagentFinished",
    "SubagentStarted",
    "SystemMessage",
    "TextMessageChunk",
    "TextMessageContent",
    "TextMessageEnd",
    "TextMessageStart",
    "TextRole",
    "TokenUsage",
    "Tool",
    "ToolCall",
    "ToolCallArgs",
    "ToolCallChunk",
    "ToolCallEnd",
    "ToolCallResult",
    "ToolCallStart",
    "ToolMessage",
    "UnknownEvent",
    "UserMessage",
]

#: Wire name of :attr:`Event.extra`. The codec never lets it reach the wire, and treats
#: an incoming key of this name like any other unknown field.
EXTRA_WIRE_NAME = "$extra"

_ENCODER = msgspec.json.Encoder()
#: JSON whitespace (RFC 8259 §2), skipped before looking for the ``{`` of ``content``.
_JSON_WHITESPACE = frozenset(b" \t\r\n")
_OPEN_BRACE = ord("{")


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    rename="camel",
    forbid_unknown_fields=True,
    repr_omit_defaults=True,
):
    """Base of every AG-UI event: the fields any event may carry.

    Attributes:
        timestamp: when the event was made (milliseconds by convention), if given.
        raw_event: the provider event this one was made from, if given.
        metadata: free-form metadata, if given.
        subagent_run_id: the sub-agent run that produced the event, if any.
        extra: wire fields this protocol version does not declare, each kept as the
            exact JSON it arrived as; ``UNSET`` when there are none. Written back as
            ordinary keys of the object, never under a key of its own.
    """

    timestamp: int | UnsetType | None = UNSET
    raw_event: Any | UnsetType = UNSET
    metadata: dict[str, Any] | UnsetType | None = UNSET
    subagent_run_id: str | UnsetType | None = UNSET
    extra: dict[str, msgspec.Raw] | UnsetType = msgspec.field(default=UNSET, name=EXTRA_WIRE_NAME)


class _TaggedEvent(Event, frozen=True, tag_field="type", kw_only=True):
    """Base of the AG-UI 1.0 events: the class is chosen by the ``type`` tag."""


class RunStarted(_TaggedEvent, frozen=True, tag="RUN_STARTED", kw_only=True):
    """A run began."""

    thread_id: str | UnsetType = UNSET
    run_id: str
    parent_run_id: str | UnsetType | None = UNSET
    input: RunAgentInput | UnsetType | None = UNSET
    protocol_version: str | UnsetType | None = UNSET


class RunFinished(_TaggedEvent, frozen=True, tag="RUN_FINISHED", kw_only=True):
    """A run ended normally.

    ``outcome`` (``{"type": "success" | "interrupt" | "cancelled", ...}``) stays a plain
    object so outcome kinds added later pass through.
    """

    thread_id: str | UnsetType = UNSET
    run_id: str
    result: Any | UnsetType = UNSET
    outcome: dict[str, Any] | UnsetType | None = UNSET
    usage: list[TokenUsage] | UnsetType | None = UNSET


class RunError(_TaggedEvent, frozen=True, tag="RUN_ERROR", kw_only=True):
    """A run failed."""

    message: str | UnsetType = UNSET
    code: str | UnsetType | None = UNSET
    usage: list[TokenUsage] | UnsetType | None = UNSET


class StepStarted(_TaggedEvent, frozen=True, tag="STEP_STARTED", kw_only=True):
    """A named step of the agent began."""

    step_name: str | UnsetType = UNSET


class StepFinished(_TaggedEvent, frozen=True, tag="STEP_FINISHED", kw_only=True):
    """A named step of the agent ended."""

    step_name: str | UnsetType = UNSET


class TextMessageStart(_TaggedEvent, frozen=True, tag="TEXT_MESSAGE_START", kw_only=True):
    """A streamed text message began; an absent ``role`` means ``"assistant"``."""

    message_id: str | UnsetType = UNSET
    role: TextRole | UnsetType | None = UNSET
    name: str | UnsetType | None = UNSET


class TextMessageContent(_TaggedEvent, frozen=True, tag="TEXT_MESSAGE_CONTENT", kw_only=True):
    """A piece of a streamed text message."""

    message_id: str | UnsetType = UNSET
    delta: str


class TextMessageEnd(_TaggedEvent, frozen=True, tag="TEXT_MESSAGE_END", kw_only=True):
    """A streamed text message ended."""

    message_id: str | UnsetType = UNSET


class TextMessageChunk(_TaggedEvent, frozen=True, tag="TEXT_MESSAGE_CHUNK", kw_only=True):
    """Start, content and end of a text message folded into one event; all optional."""

    message_id: str | UnsetType | None = UNSET
    role: TextRole | UnsetType | None = UNSET
    delta: str | UnsetType | None = UNSET
    name: str | UnsetType | None = UNSET


class ToolCallStart(_TaggedEvent, frozen=True, tag="TOOL_CALL_START", kw_only=True):
    """The model began a tool call."""

    tool_call_id: str
    tool_call_name: str | UnsetType = UNSET
    parent_message_id: str | UnsetType | None = UNSET


class ToolCallArgs(_TaggedEvent, frozen=True, tag="TOOL_CALL_ARGS", kw_only=True):
    """A fragment of a tool call's JSON arguments."""

    tool_call_id: str
    delta: str | UnsetType = UNSET


class ToolCallEnd(_TaggedEvent, frozen=True, tag="TOOL_CALL_END", kw_only=True):
    """The model finished a tool call's arguments."""

    tool_call_id: str


class ToolCallChunk(_TaggedEvent, frozen=True, tag="TOOL_CALL_CHUNK", kw_only=True):
    """Start, arguments and end of a tool call folded into one event; all optional."""

    tool_call_id: str | UnsetType | None = UNSET
    tool_call_name: str | UnsetType | None = UNSET
    parent_message_id: str | UnsetType | None = UNSET
    delta: str | UnsetType | None = UNSET


class ToolCallResult(_TaggedEvent, frozen=True, tag="TOOL_CALL_RESULT", kw_only=True):
    """A tool's result: a string (often JSON) or a list of content parts."""

    message_id: str | UnsetType = UNSET
    tool_call_id: str
    content: str | list[dict[str, Any]] | UnsetType = UNSET
    role: Literal["tool"] | UnsetType | None = UNSET


class StateSnapshot(_TaggedEvent, frozen=True, tag="STATE_SNAPSHOT", kw_only=True):
    """The agent's whole shared state."""

    snapshot: Any | UnsetType = UNSET


class StateDelta(_TaggedEvent, frozen=True, tag="STATE_DELTA", kw_only=True):
    """A JSON Patch (RFC 6902) against the shared state."""

    delta: list[Any] | UnsetType = UNSET


class MessagesSnapshot(_TaggedEvent, frozen=True, tag="MESSAGES_SNAPSHOT", kw_only=True):
    """The whole conversation as the agent sees it."""

    messages: list[Message] | UnsetType = UNSET


def _is_json_object(raw: msgspec.Raw) -> bool:
    """Tell whether raw JSON bytes start with ``{`` after optional whitespace."""
    view = memoryview(raw)
    for byte in view:
        if byte == _OPEN_BRACE:
            return True
        if byte not in _JSON_WHITESPACE:
            return False
    return False


class ActivitySnapshot(_TaggedEvent, frozen=True, tag="ACTIVITY_SNAPSHOT", kw_only=True):
    """The whole content of an activity message (A2UI surfaces travel in these).

    Attributes:
        message_id: the activity message it creates or overwrites. AG-UI requires it;
            a snapshot without one is kept (upstream's client files it under
            ``"a2ui:anonymous"``) rather than rejected.
        activity_type: the kind of activity; ``"a2ui-surface"`` for A2UI.
        content: the content object, undecoded; must be a JSON object.
        replace: ``False`` keeps an existing message; absent or ``True`` overwrites it.

    Raises:
        ValueError: ``content`` is not a JSON object (when decoding, msgspec reports this
            as a ``ValidationError``).
    """

    message_id: str | UnsetType = UNSET
    activity_type: str
    content: msgspec.Raw
    replace: bool | UnsetType | None = UNSET

    def __post_init__(self) -> None:
        """Refuse content that is not a JSON object, as AG-UI 1.0 requires."""
        if not _is_json_object(self.content):
            raise ValueError("`content` must be a JSON object")

    @classmethod
    def of(
        cls,
        *,
        message_id: str | UnsetType = UNSET,
        activity_type: str,
        content: Mapping[str, Any],
        replace: bool | UnsetType = UNSET,
    ) -> ActivitySnapshot:
        """Build a snapshot from a content mapping, encoding it to compact JSON.

        Args:
            message_id: the activity message id.
            activity_type: the activity type (``"a2ui-surface"`` for A2UI).
            content: the content object.
            replace: the ``replace`` flag; left out when ``UNSET``.

        Returns:
            The snapshot, with ``content`` held as raw JSON.

        Raises:
            TypeError: ``content`` holds a value that cannot be encoded as JSON.
        """
        raw = msgspec.Raw(_ENCODER.encode(dict(content)))
        return cls(message_id=message_id, activity_type=activity_type, content=raw, replace=replace)


class ActivityDelta(_TaggedEvent, frozen=True, tag="ACTIVITY_DELTA", kw_only=True):
    """A JSON Patch (RFC 6902) against an activity message's content."""

    message_id: str | UnsetType = UNSET
    activity_type: str | UnsetType = UNSET
    patch: list[Any] | UnsetType = UNSET


class RawEvent(_TaggedEvent, frozen=True, tag="RAW", kw_only=True):
    """A provider event passed through as is."""

    event: Any | UnsetType = UNSET
    source: str | UnsetType | None = UNSET


class CustomEvent(_TaggedEvent, frozen=True, tag="CUSTOM", kw_only=True):
    """An application-defined event: a name and any value."""

    name: str
    value: Any | UnsetType = UNSET


class ReasoningStart(_TaggedEvent, frozen=True, tag="REASONING_START", kw_only=True):
    """The model began reasoning."""

    message_id: str | UnsetType = UNSET


class ReasoningMessageStart(_TaggedEvent, frozen=True, tag="REASONING_MESSAGE_START", kw_only=True):
    """A visible reasoning message began."""

    message_id: str | UnsetType = UNSET
    role: Literal["reasoning"] = "reasoning"


class ReasoningMessageContent(
    _TaggedEvent, frozen=True, tag="REASONING_MESSAGE_CONTENT", kw_only=True
):
    """A piece of a reasoning message."""

    message_id: str | UnsetType = UNSET
    delta: str | UnsetType = UNSET


class ReasoningMessageEnd(_TaggedEvent, frozen=True, tag="REASONING_MESSAGE_END", kw_only=True):
    """A reasoning message ended."""

    message_id: str | UnsetType = UNSET


class ReasoningMessageChunk(_TaggedEvent, frozen=True, tag="REASONING_MESSAGE_CHUNK", kw_only=True):
    """Start, content and end of a reasoning message folded into one event."""

    message_id: str | UnsetType | None = UNSET
    delta: str | UnsetType | None = UNSET


class ReasoningEnd(_TaggedEvent, frozen=True, tag="REASONING_END", kw_only=True):
    """The model finished reasoning."""

    message_id: str | UnsetType = UNSET


class ReasoningEncryptedValue(
    _TaggedEvent, frozen=True, tag="REASONING_ENCRYPTED_VALUE", kw_only=True
):
    """Opaque reasoning state attached to a tool call or a message."""

    subtype: Literal["tool-call", "message"]
    entity_id: str
    encrypted_value: str


class SubagentStarted(_TaggedEvent, frozen=True, tag="SUBAGENT_STARTED", kw_only=True):
    """A sub-agent run began; ``subagent_run_id`` is required here."""

    subagent_run_id: str | UnsetType | None = UNSET
    name: str | UnsetType = UNSET
    description: str | UnsetType | None = UNSET
    parent_subagent_run_id: str | UnsetType | None = UNSET
    parent_tool_call_id: str | UnsetType | None = UNSET
    parent_message_id: str | UnsetType | None = UNSET


class SubagentFinished(_TaggedEvent, frozen=True, tag="SUBAGENT_FINISHED", kw_only=True):
    """A sub-agent run ended; ``outcome`` stays a plain object (success, suspended...)."""

    subagent_run_id: str | UnsetType | None = UNSET
    result: Any | UnsetType = UNSET
    outcome: dict[str, Any] | UnsetType | None = UNSET


class SubagentError(_TaggedEvent, frozen=True, tag="SUBAGENT_ERROR", kw_only=True):
    """A sub-agent run failed."""

    subagent_run_id: str | UnsetType | None = UNSET
    message: str | UnsetType = UNSET
    code: str | UnsetType | None = UNSET


class UnknownEvent(Event, frozen=True, kw_only=True):
    """An event whose ``type`` AG-UI 1.0 does not define, kept whole.

    The base fields are decoded as for any event; every other field is in ``extra``.

    Attributes:
        type: the event's ``type`` string.
    """

    type: str


KnownEvent: TypeAlias = (
    RunStarted
    | RunFinished
    | RunError
    | StepStarted
    | StepFinished
    | TextMessageStart
    | TextMessageContent
    | TextMessageEnd
    | TextMessageChunk
    | ToolCallStart
    | ToolCallArgs
    | ToolCallEnd
    | ToolCallChunk
    | ToolCallResult
    | StateSnapshot
    | StateDelta
    | MessagesSnapshot
    | ActivitySnapshot
    | ActivityDelta
    | RawEvent
    | CustomEvent
    | ReasoningStart
    | ReasoningMessageStart
    | ReasoningMessageContent
    | ReasoningMessageEnd
    | ReasoningMessageChunk
    | ReasoningEnd
    | ReasoningEncryptedValue
    | SubagentStarted
    | SubagentFinished
    | SubagentError
)
"""Every AG-UI 1.0 event, told apart by its ``type`` tag (what the decoder is built on)."""

AnyEvent: TypeAlias = KnownEvent | UnknownEvent
"""Every value an event decoder can produce: a 1.0 event or an :class:`UnknownEvent`."""
