"""Rehydration: surfaces rebuilt from stored history instead of a live stream.

Owns how ``role: "activity"`` messages of a restored thread become parts: each
a2ui-surface activity belongs to the nearest preceding assistant (or reasoning)
message (the middleware's, to the message holding the call it is named after:
:func:`_own_activity`), its operations are applied from scratch, ``replace`` is not consulted, and a
later activity with the same id overwrites an earlier one (reference: assistant-ui
converter §1c), as upstream's client rebuilds them. One deliberate difference: an
activity id reused under a later owner moves its surfaces there, where upstream's
client also leaves a frozen copy on the earlier owner. A message left with no part
(its surfaces moved on, deleted, or not drawable) has no entry: upstream shows no
``a2ui:`` part on it either.

The tool carriers draw too: an assistant message's render-tool calls and the tool
messages holding ``a2ui_operations`` go through the same stage as live tool events
(:mod:`a2ui_stream._engine.carriers`), each user message starting a new run, and what
it draws belongs to the assistant message the call or result follows. A turn that
also holds activity was recorded behind the middleware: its activity draws it alone.
The messages are read in the order the run streamed them, which is not the order the
client stores them in: ``@ag-ui/client`` files a result right after its call's
message, before the messages a sub-agent's calls made while the call ran (see
:func:`_live_order`), and those messages belong to the wrapper's message.

Must not import: the reducer or shell modules. Pure: values in, values out.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from a2ui_stream._engine.carriers import MIDDLEWARE_PREFIX, Carriers, ToolConfig, carry
from a2ui_stream._state.stream import (
    A2UI_ACTIVITY_TYPE,
    ANONYMOUS_MESSAGE_ID,
    OPERATIONS_KEY,
    HistoryEntry,
    Part,
    Surfaces,
)
from a2ui_stream._state.surface import Surface, apply_operations
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.a2ui import Operation, normalize_message
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.keys import camel_message, dumped
from a2ui_stream._wire.numbers import JsDecoder

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._convert.converter import Converter
    from a2ui_stream._wire.limits import Limits

__all__ = ["SeenIn", "normalize_document", "rehydrate"]


class SeenIn:
    """The toolCallIds any of several runs saw, without copying them into one set.

    What a ``MESSAGES_SNAPSHOT`` repeats of live runs' tool calls: :func:`rehydrate`'s
    ``skip``.
    """

    __slots__ = ("_runs",)

    def __init__(self, runs: Sequence[Mapping[str, Any]]) -> None:
        """Look in each of ``runs`` (each run's ``carriers.seen``)."""
        self._runs = runs

    def __contains__(self, call_id: object) -> bool:
        return any(call_id in seen for seen in self._runs)


def normalize_document(document: Any, index: int) -> Operation | Diagnostic:
    """Normalise one decoded operation, reporting one that is not an object."""
    if not isinstance(document, Mapping):
        return Diagnostic(
            code=Code.OP_MALFORMED,
            message="an operation must be a JSON object",
            severity=Severity.ERROR,
            path=f"$.content.a2ui_operations[{index}]",
        )
    return normalize_message(document, index=index)


_OWNER_ROLES = frozenset({"assistant", "reasoning"})
_DEFAULT_TOOLS = ToolConfig()


def rehydrate(
    messages: Iterable[ev.Message | Mapping[str, Any]],
    *,
    converter: Converter,
    limits: Limits,
    tools: ToolConfig = _DEFAULT_TOOLS,
    skip: Container[str] = frozenset(),
) -> tuple[tuple[HistoryEntry, ...], tuple[Diagnostic, ...]]:
    """Rebuild the parts of stored history, one entry per owning assistant message.

    Args:
        messages: AG-UI messages as Structs or plain dicts, in history order.
        converter: converts each rebuilt surface.
        limits: bounds on operations applied per activity.
        tools: the render tool names and catalog id, as for live tool events.
        skip: toolCallIds whose calls and results are not history but a live run's
            (drawn there already: a ``MESSAGES_SNAPSHOT`` repeats them).

    Returns:
        The history entries in owner order, each with at least one part, and
        diagnostics for what was skipped.
    """
    diagnostics: list[Diagnostic] = []
    listed = [
        _message_fields(message, index, diagnostics) for index, message in enumerate(messages)
    ]
    behind = _turns_with_activity(listed)
    buckets: dict[str, tuple[str, Surfaces]] = {}
    drawn: dict[str, tuple[str, Surfaces]] = {}
    owners: list[str] = []
    carriers = Carriers()
    turn = 0
    for index, owner in _live_order(listed, tools):
        role, message_id, fields = listed[index]
        if role == "user":
            turn += 1
            carriers = Carriers()
            continue
        if role in {"assistant", "tool"} and owner is not None and turn not in behind:
            # A call names the message it is in, as live; one in a message the client
            # made for a call naming none named none.
            parent = None if _nameless(role, message_id, fields) else message_id
            events = _tool_events(role, message_id, parent, fields, skip)
            carriers, drew = _draw(carriers, events, (owner, tools, limits), drawn, diagnostics)
            if drew and owner not in owners:
                owners.append(owner)
        if role != "activity" or fields.get("activityType") != A2UI_ACTIVITY_TYPE:
            continue
        content = fields.get("content")
        operations = content.get(OPERATIONS_KEY) if isinstance(content, Mapping) else None
        if not isinstance(operations, list):
            continue
        key = message_id or ANONYMOUS_MESSAGE_ID
        if owner is None:
            diagnostics.append(
                Diagnostic(
                    code=Code.HISTORY_ORPHAN_ACTIVITY,
                    message="an a2ui-surface activity has no preceding assistant message",
                    severity=Severity.WARNING,
                    message_id=key,
                )
            )
            continue
        surfaces = _apply(operations, key, limits, diagnostics)
        buckets.pop(key, None)
        buckets[key] = (owner, surfaces)
        if owner not in owners:
            owners.append(owner)
    entries = []
    # In the stored order, which the live order of the tool carriers may not follow.
    place = {message_id: at for at, (_role, message_id, _fields) in enumerate(listed)}
    for owner_id in sorted(owners, key=lambda owner_id: place.get(owner_id, 0)):
        # Activity outranks the tool carriers, as in a live run.
        union: dict[str, tuple[str, Surface]] = {}
        for layer in (drawn, buckets):
            for key, (bucket_owner, surfaces) in layer.items():
                if bucket_owner == owner_id:
                    union.update((sid, (key, surface)) for sid, surface in surfaces.items())
        parts = []
        for surface_id, (key, surface) in union.items():
            conversion = converter.convert(surface)
            diagnostics.extend(
                msgspec.structs.replace(w, message_id=key) for w in conversion.warnings
            )
            if conversion.element is not None:
                parts.append(Part.of(surface_id, key, conversion.element))
        # ``owners`` lists every message that ever held a bucket; one whose buckets
        # moved on or draw nothing is no owner of anything now.
        if parts:
            entries.append(HistoryEntry(message_id=owner_id, parts=tuple(parts)))
    return tuple(entries), tuple(diagnostics)


def _draw(
    carriers: Carriers,
    events: Iterable[ev.Event],
    where: tuple[str, ToolConfig, Limits],
    drawn: dict[str, tuple[str, Surfaces]],
    diagnostics: list[Diagnostic],
) -> tuple[Carriers, bool]:
    """Draw a stored message's tool events into ``drawn`` as the live stage would."""
    owner, tools, limits = where
    drew = False
    for event in events:
        carriers, drawings, found = carry(carriers, event, tools)
        # What the live stage says of the event; no seq: history is no event stream.
        diagnostics.extend(
            msgspec.structs.replace(one, seq=None, message_id=owner) for one in found
        )
        for drawing in drawings:
            key = drawing.message_id if isinstance(drawing.message_id, str) else ""
            operations = _operations(bytes(drawing.content))
            if operations is not None:
                drawn.pop(key, None)
                drawn[key] = (owner, _apply(operations, key, limits, diagnostics))
                drew = True
    return carriers, drew


def _apply(
    operations: Sequence[Any], key: str, limits: Limits, diagnostics: list[Diagnostic]
) -> Surfaces:
    """The surfaces one message's operations build from scratch."""
    # One more than the limit is read, so the list is cut with its diagnostic.
    ops = [
        normalize_document(document, index)
        for index, document in enumerate(operations[: limits.max_operations + 1])
    ]
    surfaces, found = apply_operations({}, ops, limits=limits)
    diagnostics.extend(msgspec.structs.replace(one, message_id=key) for one in found)
    return surfaces


_CONTENT = JsDecoder()


def _operations(content: bytes) -> list[Any] | None:
    """The operations of a drawing's content; ``None`` for a lifecycle or bad JSON."""
    try:
        document = _CONTENT.decode(content)
    except (msgspec.DecodeError, RecursionError):
        return None
    found = document.get(OPERATIONS_KEY) if isinstance(document, dict) else None
    return found if isinstance(found, list) else None


def _nameless(role: Any, message_id: str | None, fields: Mapping[str, Any]) -> bool:
    """Whether a stored message is one ``@ag-ui/client`` made for a call naming none.

    A ``TOOL_CALL_START`` without a ``parentMessageId`` of an assistant message (a
    sub-agent's call, as ag-ui-strands and ag-ui-adk re-emit them) gets an assistant
    message of its own whose id is the call's.
    """
    if role != "assistant" or message_id is None or fields.get("content"):
        return False
    calls = fields.get("toolCalls")
    first = calls[0] if isinstance(calls, list) and calls else None
    return isinstance(first, Mapping) and first.get("id") == message_id


_Listed: TypeAlias = tuple[Any, str | None, Mapping[str, Any]]


def _calls(fields: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """``(id, name)`` of each call a stored message holds."""
    calls = fields.get("toolCalls")
    found = []
    for call in calls if isinstance(calls, list) else ():
        function = call.get("function") if isinstance(call, Mapping) else None
        name = function.get("name") if isinstance(function, Mapping) else None
        found.append((call.get("id") if isinstance(call, Mapping) else None, name))
    return found


def _live_order(listed: Sequence[_Listed], tools: ToolConfig) -> list[tuple[int, str | None]]:
    """The stored messages' indexes in live order, each with its owner.

    The live order is the one the run streamed them in; the owner is the message that
    owns what the message draws.

    ``@ag-ui/client`` files a tool result right after the message holding its call
    (after the results already there), so a result lands before the messages the
    client made for calls started while its call ran: a wrapper's (``generate_a2ui``)
    before its sub-agent's calls. Each run of results that such messages (and their own
    results) follow is put after them again, so that the sub-agent's calls are drawn
    inside the open call and its result, which repeats what they drew, is taken as the
    live run took it. Such a message is one the client made for a call naming no
    message (the adapters that inject the wrapper name a message for the agent's own
    calls), or one of render calls alone. Each message is owned by the nearest owner
    (assistant or reasoning message) before it in the stored order, itself included,
    except a message made for a call naming none and one of render calls after a
    wrapper's result (``ToolConfig.wrapper_tools``): a sub-agent's, owned by the owner
    before it, as its drawings belong to the wrapper's message in the live run.
    """
    names = {call_id: name for _role, _id, fields in listed for call_id, name in _calls(fields)}
    owner_at: list[str | None] = []
    owner: str | None = None
    turn_owner: str | None = None  # the owner within the turn, for a sub-agent's message
    for role, message_id, fields in listed:
        if role == "user":
            turn_owner = None
        elif (
            role in _OWNER_ROLES
            and not (turn_owner is not None and _nameless(role, message_id, fields))
            and not _blank_reasoning(role, fields)
        ):
            owner = turn_owner = message_id
        owner_at.append(owner)
    _own_activity(listed, owner_at)
    ordered: list[tuple[int, str | None]] = []
    index, count = 0, len(listed)
    while index < count:
        if listed[index][0] != "tool":
            ordered.append((index, owner_at[index]))
            index += 1
            continue
        results = index
        while index < count and listed[index][0] == "tool":
            index += 1
        wrapped = any(
            names.get(fields.get("toolCallId")) in tools.wrapper_tools
            for _role, _id, fields in listed[results:index]
        )
        inner = index
        while index < count and (_nameless(*listed[index]) or _renders_alone(listed[index], tools)):
            # A sub-agent's message after its wrapper's result belongs where the result does.
            sub_agent = wrapped and listed[index][0] == "assistant"
            ordered.append((index, owner_at[results] if sub_agent else owner_at[index]))
            index += 1
            while index < count and listed[index][0] == "tool":
                ordered.append((index, owner_at[index]))
                index += 1
        ordered.extend((at, owner_at[at]) for at in range(results, inner))
    return ordered


def _blank_reasoning(role: Any, fields: Mapping[str, Any]) -> bool:
    """Whether a stored reasoning message has no text to show (an encrypted one, say).

    Upstream's client shows no message for it, so it owns nothing: what follows it
    belongs to the owner before it.
    """
    content = fields.get("content")
    return role == "reasoning" and not (isinstance(content, str) and content.strip())


def _own_activity(listed: Sequence[_Listed], owner_at: list[str | None]) -> None:
    """Give the middleware's activity to the owner of the call it was drawn from.

    The middleware names each activity message after its call (``a2ui-surface-<callId>``,
    or ``a2ui-surface-<surfaceId>-<callId>``), and ``@ag-ui/client`` stores it before the
    assistant message holding the call (the middleware's first snapshot of a call comes
    before the call starts). Owned by the nearest owner before it, as upstream's rule
    has it, a thread's first surface had none and each later one went to the turn
    before; owned by the call's message, each is where the live run drew it.
    """
    owner_of = {
        call_id: owner_at[index]
        for index, (_role, _id, fields) in enumerate(listed)
        for call_id, _name in _calls(fields)
        if isinstance(call_id, str) and call_id
    }
    if not owner_of:
        return
    for index, (role, message_id, _fields) in enumerate(listed):
        if role != "activity" or not message_id or not message_id.startswith(MIDDLEWARE_PREFIX):
            continue
        named = message_id.removeprefix(MIDDLEWARE_PREFIX)
        found = owner_of.get(named)
        cut = named.find("-")
        while found is None and cut >= 0:  # ``<surfaceId>-<callId>``: any cut, ids hold "-"
            found = owner_of.get(named[cut + 1 :])
            cut = named.find("-", cut + 1)
        if found is not None:
            owner_at[index] = found


def _renders_alone(message: _Listed, tools: ToolConfig) -> bool:
    """Whether a stored message is an assistant message of render calls and nothing else."""
    role, _message_id, fields = message
    calls = _calls(fields)
    return (
        role == "assistant"
        and not fields.get("content")
        and bool(calls)
        and all(name in tools.render_tools for _id, name in calls)
    )


def _turns_with_activity(listed: Sequence[tuple[Any, str | None, Mapping[str, Any]]]) -> set[int]:
    """The turns (counted by user messages) that hold a2ui-surface activity."""
    turns: set[int] = set()
    turn = 0
    for role, _message_id, fields in listed:
        if role == "user":
            turn += 1
        elif role == "activity" and fields.get("activityType") == A2UI_ACTIVITY_TYPE:
            turns.add(turn)
    return turns


def _tool_events(
    role: str,
    message_id: str | None,
    parent: str | None,
    fields: Mapping[str, Any],
    skip: Container[str],
) -> list[ev.Event]:
    """A stored message as the tool events it stands for: calls in full, or a result.

    The calls name ``parent`` as their ``parentMessageId``.
    """
    if role == "tool":
        call_id, content = fields.get("toolCallId"), fields.get("content")
        if isinstance(content, list):  # content parts: read as live (nothing drawn)
            content = [part for part in content if isinstance(part, dict)]
        elif not isinstance(content, str):
            return []
        if not isinstance(call_id, str) or call_id in skip:
            return []
        return [
            ev.ToolCallResult(message_id=message_id or "", tool_call_id=call_id, content=content)
        ]
    events: list[ev.Event] = []
    calls = fields.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        function = call.get("function") if isinstance(call, Mapping) else None
        call_id = call.get("id") if isinstance(call, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(call_id, str) or call_id in skip:
            continue
        name, arguments = function.get("name"), function.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, str):
            continue
        events.append(
            ev.ToolCallStart(tool_call_id=call_id, tool_call_name=name, parent_message_id=parent)
        )
        events.append(ev.ToolCallArgs(tool_call_id=call_id, delta=arguments))
        events.append(ev.ToolCallEnd(tool_call_id=call_id))
    return events


def _message_fields(
    message: ev.Message | Mapping[str, Any], index: int, diagnostics: list[Diagnostic]
) -> tuple[Any, str | None, Mapping[str, Any]]:
    """Return a message's role, id and wire fields: a Struct, a dict or an SDK object.

    Anything else (a number, ``None``, text: stored history read back wrong) has no
    role and is skipped, with a diagnostic naming its place.

    A dict may spell fields in camelCase or snake_case (the SDK's ``model_dump()``). A
    Struct that nests past msgspec's own bound (the interpreter's stack) keeps its role
    and id, so the messages after it keep their owner, and loses its fields, with a
    diagnostic in ``diagnostics``.
    """
    value = dumped(message)
    if isinstance(value, Mapping):
        fields: Mapping[str, Any] = camel_message(value)
    elif not isinstance(value, msgspec.Struct):
        diagnostics.append(
            Diagnostic(
                code=Code.HISTORY_BAD_MESSAGE,
                message=f"history item {index} is not a message but {type(value).__name__}; "
                "skipped",
                severity=Severity.ERROR,
            )
        )
        return None, None, {}
    else:
        try:
            fields = msgspec.to_builtins(value)
        except RecursionError:
            diagnostics.append(
                Diagnostic(
                    code=Code.LIMIT_DATA_DEPTH,
                    message="a history message nests too deeply to read; its content was skipped",
                    severity=Severity.ERROR,
                )
            )
            fields = {"role": type(value).__struct_config__.tag, "id": getattr(value, "id", None)}
    message_id = fields.get("id")
    return fields.get("role"), message_id if isinstance(message_id, str) else None, fields
