"""A messageId's lifecycle: the statuses the middleware sends before a surface paints.

Owns the lifecycle table, ``(current phase, incoming status) -> next phase``, and the
:class:`~a2ui_stream._state.stream.Lifecycle` value a status-only snapshot (or a delta
that leaves only a status) records. The middleware sends ``building`` (with progress),
``retrying`` after a rejected attempt and ``failed`` once attempts run out; the
reducer enters ``painted`` when operations arrive.

Must not import: conversion, the reducer, request or shell modules. Does no I/O.
"""

from __future__ import annotations

from typing import Any

from a2ui_stream._state.stream import Lifecycle
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import freeze

__all__ = ["next_lifecycle"]

#: (current phase, incoming status) -> next phase. Anything else is still recorded (a
#: newer agent may know more states), with a debug diagnostic.
_LIFECYCLE: dict[tuple[str | None, str], str] = {
    (None, "building"): "building",
    ("building", "building"): "building",
    ("retrying", "building"): "retrying",
    (None, "retrying"): "retrying",
    ("building", "retrying"): "retrying",
    ("retrying", "retrying"): "retrying",
    (None, "failed"): "failed",
    ("building", "failed"): "failed",
    ("retrying", "failed"): "failed",
    ("painted", "building"): "building",
    ("painted", "retrying"): "retrying",
    ("painted", "failed"): "failed",
}


def next_lifecycle(
    previous: Lifecycle | None,
    status: str,
    read: tuple[dict[str, Any], int],
    *,
    seq: int,
    message_id: str,
) -> tuple[Lifecycle, tuple[Diagnostic, ...]]:
    """The lifecycle a status moves ``previous`` to, with a note when the table lacks it.

    Args:
        previous: the messageId's lifecycle so far, if any.
        status: the content's ``status``.
        read: the content and how many values it holds.
        seq: the event's sequence number, for the diagnostic.
        message_id: the event's messageId, for the diagnostic.

    Returns:
        The new lifecycle, holding the content frozen (it reaches callers through the
        state, and later deltas patch it); and a debug diagnostic when the transition
        is not in the table.
    """
    content, nodes = read
    before = previous.phase if previous else None
    phase = _LIFECYCLE.get((before, status))
    diagnostics: tuple[Diagnostic, ...] = ()
    if phase is None:
        phase = status
        diagnostics = (
            Diagnostic(
                code=Code.ACTIVITY_LIFECYCLE_UNEXPECTED,
                message=f"status {status!r} after {before or 'nothing'!r}; recorded as is",
                severity=Severity.DEBUG,
                seq=seq,
                message_id=message_id,
            ),
        )
    return Lifecycle(phase=phase, content=freeze(content), content_nodes=nodes), diagnostics
