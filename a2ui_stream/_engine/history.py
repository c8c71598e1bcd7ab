"""Rehydration: surfaces rebuilt from stored history instead of a live stream.

Owns how ``role: "activity"`` messages of a restored thread become parts: each
a2ui-surface activity belongs to the nearest preceding assistant (or reasoning)
message, its operations are applied from scratch, ``replace`` is not consulted, and a
later activity with the same id overwrites an earlier one (reference: assistant-ui
converter §1c). Upstream's clients lose surfaces on restore; this module is why ours
do not.

Must not import: the reducer or shell modules. Pure: values in, values out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream._state.stream import (
    A2UI_ACTIVITY_TYPE,
    ANONYMOUS_MESSAGE_ID,
    OPERATIONS_KEY,
    TOOL_CALL_PREFIX,
    HistoryEntry,
    Part,
    Surfaces,
)
from a2ui_stream._state.surface import Surface, apply_operation
from a2ui_stream._wire.a2ui import Operation, normalize_message
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from a2ui_stream._convert.converter import Converter
    from a2ui_stream._wire import events as ev
    from a2ui_stream._wire.limits import Limits

__all__ = ["normalize_document", "rehydrate"]


def normalize_document(document: Any, index: int) -> Operation | Diagnostic:
    """Normalise one decoded operation, reporting one that is not an object."""
    if not isinstance(document, Mapping):
        return Diagnostic(
            code="op.malformed",
            message="an operation must be a JSON object",
            severity=Severity.ERROR,
            path=f"$.content.a2ui_operations[{index}]",
        )
    return normalize_message(document, index=index)


_OWNER_ROLES = frozenset({"assistant", "reasoning"})


def rehydrate(
    messages: Iterable[ev.Message | Mapping[str, Any]], *, converter: Converter, limits: Limits
) -> tuple[tuple[HistoryEntry, ...], tuple[Diagnostic, ...]]:
    """Rebuild the parts of stored history, one entry per owning assistant message.

    Args:
        messages: AG-UI messages as Structs or plain dicts, in history order.
        converter: converts each rebuilt surface.
        limits: bounds on operations applied per activity.

    Returns:
        The history entries in owner order, and diagnostics for what was skipped.
    """
    diagnostics: list[Diagnostic] = []
    owner: str | None = None
    buckets: dict[str, tuple[str, Surfaces]] = {}
    owners: list[str] = []
    for message in messages:
        role, message_id, fields = _message_fields(message)
        if role in _OWNER_ROLES:
            owner = message_id
            continue
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
                    code="history.orphan_activity",
                    message="an a2ui-surface activity has no preceding assistant message",
                    severity=Severity.WARNING,
                    message_id=key,
                )
            )
            continue
        surfaces: Surfaces = {}
        for index, document in enumerate(operations[: limits.max_operations]):
            operation = normalize_document(document, index)
            if isinstance(operation, Diagnostic):
                diagnostics.append(msgspec.structs.replace(operation, message_id=key))
                continue
            surfaces, found = apply_operation(surfaces, operation, index=index, limits=limits)
            diagnostics.extend(msgspec.structs.replace(one, message_id=key) for one in found)
        buckets.pop(key, None)
        buckets[key] = (owner, surfaces)
        if owner not in owners:
            owners.append(owner)
    entries = []
    for owner_id in owners:
        union: dict[str, tuple[str, Surface]] = {}
        for key, (bucket_owner, surfaces) in buckets.items():
            if bucket_owner == owner_id:
                union.update((sid, (key, surface)) for sid, surface in surfaces.items())
        parts = []
        for surface_id, (key, surface) in union.items():
            conversion = converter.convert(surface)
            diagnostics.extend(
                msgspec.structs.replace(w, message_id=key) for w in conversion.warnings
            )
            if conversion.element is not None:
                parts.append(
                    Part(
                        tool_call_id=TOOL_CALL_PREFIX + surface_id,
                        surface_id=surface_id,
                        message_id=key,
                        args=conversion.element,
                    )
                )
        entries.append(HistoryEntry(message_id=owner_id, parts=tuple(parts)))
    return tuple(entries), tuple(diagnostics)


def _message_fields(
    message: ev.Message | Mapping[str, Any],
) -> tuple[Any, str | None, Mapping[str, Any]]:
    """Return a message's role, id and wire fields, whether a Struct or a plain dict."""
    fields: Mapping[str, Any] = (
        message if isinstance(message, Mapping) else msgspec.to_builtins(message)
    )
    message_id = fields.get("id")
    return fields.get("role"), message_id if isinstance(message_id, str) else None, fields
