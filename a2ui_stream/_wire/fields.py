"""Which fields an AG-UI event needs: upstream's client's rule, not the protocol's.

Owns the tables the codec checks every decoded event against: the wire fields without
which assistant-ui's AG-UI event parser drops an event (reference converter §1a), and
the fields AG-UI 1.0 requires that the client does without; and the checks themselves,
made cheap enough for the decoder's hot loop; and :class:`BadMessages`, which reads a
history without the messages that fail, not without all of them. The codec turns
their findings into drops and warnings. Imports only msgspec, the events and
diagnostics; does no I/O.
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, Any, get_args

import msgspec
from msgspec import UNSET

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.events import Event, KnownEvent
from a2ui_stream._wire.spelling import wire_names

if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterable

__all__ = [
    "EXPECTED",
    "NEEDED",
    "REVIEWED",
    "SCANNED",
    "BadMessages",
    "empty_needed",
    "missing_warnings",
    "snake_case_hint",
]


_BY_TAG: dict[str, type[Event]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(KnownEvent)
}

# Which fields an event needs is upstream's client's rule (its AG-UI event parser,
# reference converter §1a), not the protocol's: an event is dropped only where that
# client drops it. A field it needs, missing, mistyped or empty, drops the event; any
# other field may be missing (a warning names it when AG-UI requires it) or mistyped
# (it is ignored with a warning), and the event is kept.

#: By type tag, the wire fields without which the client drops the event; each must be
#: a non-empty string (``content`` an object, checked by its class).
NEEDED: dict[str, frozenset[str]] = {
    "RUN_STARTED": frozenset({"runId"}),
    "RUN_FINISHED": frozenset({"runId"}),
    "TEXT_MESSAGE_CONTENT": frozenset({"delta"}),
    "TOOL_CALL_START": frozenset({"toolCallId"}),
    "TOOL_CALL_ARGS": frozenset({"toolCallId"}),
    "TOOL_CALL_END": frozenset({"toolCallId"}),
    "TOOL_CALL_RESULT": frozenset({"toolCallId"}),
    "REASONING_ENCRYPTED_VALUE": frozenset({"subtype", "entityId", "encryptedValue"}),
    "ACTIVITY_SNAPSHOT": frozenset({"activityType", "content"}),
    "CUSTOM": frozenset({"name"}),
}
#: By type tag, the wire fields AG-UI 1.0 requires that the client does without.
EXPECTED: dict[str, tuple[str, ...]] = {
    "RUN_STARTED": ("threadId",),
    "RUN_FINISHED": ("threadId",),
    "RUN_ERROR": ("message",),
    "STEP_STARTED": ("stepName",),
    "STEP_FINISHED": ("stepName",),
    "TEXT_MESSAGE_START": ("messageId",),
    "TEXT_MESSAGE_CONTENT": ("messageId",),
    "TEXT_MESSAGE_END": ("messageId",),
    "TOOL_CALL_START": ("toolCallName",),
    "TOOL_CALL_ARGS": ("delta",),
    "TOOL_CALL_RESULT": ("messageId", "content"),
    "STATE_SNAPSHOT": ("snapshot",),
    "STATE_DELTA": ("delta",),
    "MESSAGES_SNAPSHOT": ("messages",),
    "ACTIVITY_SNAPSHOT": ("messageId",),
    "ACTIVITY_DELTA": ("messageId", "activityType", "patch"),
    "RAW": ("event",),
    "CUSTOM": ("value",),
    "REASONING_START": ("messageId",),
    "REASONING_MESSAGE_START": ("messageId",),
    "REASONING_MESSAGE_CONTENT": ("messageId", "delta"),
    "REASONING_MESSAGE_END": ("messageId",),
    "REASONING_END": ("messageId",),
    "SUBAGENT_STARTED": ("subagentRunId", "name"),
    "SUBAGENT_FINISHED": ("subagentRunId",),
    "SUBAGENT_ERROR": ("subagentRunId", "message"),
}


def _attributes(cls: type[Event], names: Iterable[str]) -> tuple[tuple[str, str], ...]:
    by_wire = wire_names(cls)
    return tuple((by_wire[wire], wire) for wire in names if wire in by_wire)


#: Per class, ``(attribute, wire name)`` of the fields :data:`NEEDED` and
#: :data:`EXPECTED` name, checked on every decoded event of that class.
_NEEDED_ATTRS: dict[type[Event], tuple[tuple[str, str], ...]] = {
    _BY_TAG[tag]: _attributes(_BY_TAG[tag], sorted(names - {"content", "subtype"}))
    for tag, names in NEEDED.items()
}
_EXPECTED_ATTRS: dict[type[Event], tuple[tuple[str, str], ...]] = {
    _BY_TAG[tag]: _attributes(_BY_TAG[tag], names) for tag, names in EXPECTED.items()
}
#: The classes the decoder's review has anything to check on.
REVIEWED = frozenset(_NEEDED_ATTRS) | frozenset(_EXPECTED_ATTRS)


def _scanner(cls: type[Event]) -> Callable[[Event], tuple[Any, ...]]:
    names = [name for name, _ in (*_NEEDED_ATTRS.get(cls, ()), *_EXPECTED_ATTRS.get(cls, ()))]
    # attrgetter gives a tuple only for two names or more: a single one is named twice.
    return operator.attrgetter(*names, *names[:1] * (len(names) == 1))


#: Per class, what the decoder's fast path glances at: the values of the fields
#: the decoder's review checks, all truthy in a complete event.
SCANNED: dict[type[Event], Callable[[Event], tuple[Any, ...]]] = {
    cls: _scanner(cls) for cls in REVIEWED
}


def empty_needed(event: Event) -> str | None:
    """The wire name of a needed string field the event holds empty, if any."""
    for attribute, wire in _NEEDED_ATTRS.get(type(event), ()):
        if getattr(event, attribute) == "":
            return wire
    return None


def missing_warnings(
    event: Event, line: int | None, offset: int | None, ignored: frozenset[str] = frozenset()
) -> list[Diagnostic]:
    """A warning per field AG-UI requires that the event lacks (not those ``ignored``)."""
    found = []
    for attribute, wire in _EXPECTED_ATTRS.get(type(event), ()):
        if wire not in ignored and getattr(event, attribute) is UNSET:
            tag = type(event).__struct_config__.tag
            found.append(
                Diagnostic(
                    code=Code.EVENT_FIELD_MISSING,
                    message=(
                        f"{tag} has no `{wire}`, which AG-UI requires; "
                        "kept without it, as upstream's client keeps it"
                        + snake_case_hint(wire, event.extra or ())
                    ),
                    severity=Severity.WARNING,
                    line=line,
                    offset=offset,
                    path=f"$.{wire}",
                )
            )
    return found


#: What a message adds when a line spells a field the official Python SDK's way.
_SNAKE_CASE = (
    "; the line has `{snake}`: AG-UI's wire keys are camelCase (the official SDK writes "
    "them so with EventEncoder, or model_dump_json(by_alias=True))"
)
_CAPITAL = re.compile(r"(?<!^)([A-Z])")


def snake_case_hint(wire: str, keys: Container[str]) -> str:
    """Say so when ``keys`` spell the wire field ``wire`` in snake_case, else ``""``.

    A line written with the SDK's ``model_dump_json()`` (no ``by_alias``) has
    ``thread_id`` where AG-UI has ``threadId``: the event then lacks the field, and the
    message about it names the mistake. Only called on that cold path.

    Args:
        wire: the camelCase field the event lacks.
        keys: the line's top-level keys (an event's ``extra`` holds the unknown ones).
    """
    snake = _CAPITAL.sub(r"_\1", wire).lower()
    return _SNAKE_CASE.format(snake=snake) if snake != wire and snake in keys else ""


#: Where a message of a ``MESSAGES_SNAPSHOT`` failed: ``$.messages[3]`` or inside it.
_MESSAGE_AT = re.compile(r"\$\.messages\[(\d+)\]")
_RAW_LIST = msgspec.json.Decoder(list[msgspec.Raw])
_ENCODE = msgspec.json.Encoder().encode
#: Bad messages dropped one by one before the rest go with them: each is found by
#: decoding the history again, so a history of bad ones costs a bound, not n².
_MAX_DROPPED = 32


class BadMessages:
    """The messages one ``MESSAGES_SNAPSHOT`` is read without, each where it failed.

    One bad message (no ``id``, a role AG-UI does not define, a tool message without
    its call) costs that message, as upstream's client reads a history one message at
    a time; the whole ``messages`` field was dropped, and with it every surface the
    history restores.
    """

    __slots__ = ("_dropped", "_kept")

    def __init__(self) -> None:
        self._kept: list[int] | None = None  # the original places of the messages left
        self._dropped = 0

    def drop(self, known: dict[str, msgspec.Raw], path: str | None) -> str | None:
        """Take out of ``known["messages"]`` the message ``path`` failed in.

        Returns:
            Its name as the warning gives it (``messages[3]``, its original place), or
            ``None`` when ``path`` is not inside one, or enough were dropped already:
            then the field goes whole.
        """
        found = _MESSAGE_AT.match(path or "")
        if found is None or self._dropped >= _MAX_DROPPED:
            return None
        entries = _RAW_LIST.decode(known["messages"])
        kept = self._kept = list(range(len(entries))) if self._kept is None else self._kept
        at = int(found.group(1))
        known["messages"] = msgspec.Raw(_ENCODE(entries[:at] + entries[at + 1 :]))
        self._dropped += 1
        return f"messages[{kept.pop(at)}]"
