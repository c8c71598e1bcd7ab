"""Diagnostics: bad input and skipped work described as values.

Owns the one value type every layer uses to report what it could not use and what it
kept instead. Imports nothing from the package; does no logging (the shell logs).
"""

from __future__ import annotations

import enum
from typing import final

import msgspec

from a2ui_stream._wire.codes import Code

__all__ = ["Diagnostic", "Severity", "internal_error"]

#: Characters of an exception's message kept in its diagnostic.
_MAX_REASON = 200


class Severity(enum.Enum):
    """How much a diagnostic matters to the person reading the stream."""

    #: Input was dropped: a line, an event, an operation, a component.
    ERROR = "error"
    #: Input was used, but not all of it or not as written.
    WARNING = "warning"
    #: Expected and harmless (an unknown component skipped, as upstream logs at debug).
    DEBUG = "debug"


# Final: the hot paths tell one by ``type(x) is Diagnostic``, which mypy then narrows.
@final
class Diagnostic(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """What was wrong with the input, where, and what was kept.

    Attributes:
        code: a stable dotted identifier such as ``"json.invalid"`` or ``"op.missing_surface"``.
        message: one readable sentence saying what and why.
        severity: how much it matters.
        line: 1-based input line (JSONL line or SSE event start), when known.
        offset: byte offset of that line in the input, when known.
        path: JSON path inside the offending value, msgspec style
            (``$.content.a2ui_operations[2]``).
        seq: 0-based index of the input event it concerns, when known.
        message_id: the activity messageId it concerns, when known.
        surface_id: the surface it concerns, when known.
        component_id: the component it concerns, when known.
        raw: the offending bytes (at most a short prefix for long input), when useful.
    """

    code: str
    message: str
    severity: Severity = Severity.WARNING
    line: int | None = None
    offset: int | None = None
    path: str | None = None
    seq: int | None = None
    message_id: str | None = None
    surface_id: str | None = None
    component_id: str | None = None
    raw: bytes | None = None

    def __str__(self) -> str:
        """Render as one line: ``code at line L (byte O) $.path: message``."""
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.offset is not None:
            where.append(f"byte {self.offset}")
        if self.seq is not None:
            where.append(f"event {self.seq}")
        if self.surface_id is not None:
            where.append(f"surface {self.surface_id!r}")
        if self.path:
            where.append(self.path)
        prefix = f"{self.code} ({', '.join(where)})" if where else self.code
        return f"{prefix}: {self.message}"


def internal_error(error: BaseException, what: str = "the line", **where: object) -> Diagnostic:
    """Describe an exception the core contained, so the stream goes on without its input.

    Args:
        error: the exception, named by type and message.
        what: what was dropped, as the subject of a sentence ("event 7").
        **where: the location fields of :class:`Diagnostic` (``line``, ``seq``...).

    Returns:
        An ERROR ``core.internal_error`` diagnostic.
    """
    reason = str(error)
    if len(reason) > _MAX_REASON:
        reason = reason[:_MAX_REASON] + "..."
    return Diagnostic(
        code=Code.CORE_INTERNAL_ERROR,
        message=(
            f"internal error, {what} was ignored ({type(error).__name__}: {reason}); "
            "please report it with the input"
        ),
        severity=Severity.ERROR,
        **where,  # type: ignore[arg-type]  # only Diagnostic's location fields are passed
    )
