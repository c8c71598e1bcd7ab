"""How a tool result's content reads as A2UI, as the middleware reads it.

Owns the two readings of a ``TOOL_CALL_RESULT``'s content that draw: the operations
envelope (``{"a2ui_operations": [...]}``, as JSON or as a JSON string of it, decoded
once more and no further), with the surfaceId each operation targets, and the toolkit's
``a2ui_recovery_exhausted`` failure, which becomes the lifecycle ``failed``
(``shared/reference/agui-a2ui-middleware.md`` section 2.7 d); and the text of a content
given as a list of parts, which the middleware does not read, so that the stage can say
why it drew nothing. The tool-carrier stage (:mod:`a2ui_stream._engine.carriers`)
decides what the operations draw and under which messageId.

Must not import: the reducer, the carrier stage or the shell. Pure: strings in, values
out; content that is no envelope reads as ``None``, never an exception.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._wire.numbers import JsDecoder, js_string

__all__ = ["MAX_ATTEMPTS", "operations", "parts_text", "recovery_failure", "surface_of"]

#: Render attempts the toolkit allows (``MAX_A2UI_ATTEMPTS``).
MAX_ATTEMPTS: Final = 3
_RECOVERY_EXHAUSTED: Final = "a2ui_recovery_exhausted"
_JSON = JsDecoder()


class _Envelope(msgspec.Struct):
    a2ui_operations: list[msgspec.Raw]


class _Failure(msgspec.Struct):
    code: Any = None
    error: Any = None
    attempts: Any = None


class _Target(msgspec.Struct):
    surfaceId: msgspec.Raw | UnsetType = UNSET  # noqa: N815 - the wire name


class _Operation(msgspec.Struct):
    createSurface: msgspec.Raw | UnsetType = UNSET  # noqa: N815
    updateComponents: msgspec.Raw | UnsetType = UNSET  # noqa: N815
    updateDataModel: msgspec.Raw | UnsetType = UNSET  # noqa: N815
    deleteSurface: msgspec.Raw | UnsetType = UNSET  # noqa: N815


_ENVELOPE = msgspec.json.Decoder(_Envelope | str)
_INNER = msgspec.json.Decoder(_Envelope)
_FAILURE = msgspec.json.Decoder(_Failure)
_OPERATION = msgspec.json.Decoder(_Operation)
_TARGET = msgspec.json.Decoder(_Target)


def operations(content: object) -> list[msgspec.Raw] | None:
    """The operations a tool result carries, or ``None`` when it is no A2UI envelope.

    The content is decoded as JSON; a JSON string is decoded once more, no further.
    Elements that are not objects are dropped, as the middleware drops them.
    """
    if not isinstance(content, str):
        return None
    try:
        envelope = _ENVELOPE.decode(content)
        if isinstance(envelope, str):
            envelope = _INNER.decode(envelope)
    except (msgspec.DecodeError, RecursionError):
        return None
    return [op for op in envelope.a2ui_operations if bytes(op).lstrip()[:1] == b"{"]


def parts_text(content: object) -> str | None:
    """The text of a content given as a list of parts (AG-UI 1.0), or ``None``.

    The ``text`` of each ``{"type": "text"}`` part, joined as the Python adapters join
    them when they flatten a tool's blocks into the string they send. ``None`` for a
    content that is no list or holds no text part. The middleware reads no such
    content at all (``JSON.parse`` of a list fails): what this returns is only for
    saying why a result that holds an envelope there drew nothing.
    """
    if not isinstance(content, list):
        return None
    texts = [
        part["text"]
        for part in content
        if isinstance(part, dict)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
    ]
    return "".join(texts) if texts else None


def surface_of(op: msgspec.Raw) -> Any:
    """The surfaceId an operation targets, as the middleware reads it (``None``: none)."""
    try:
        view = _OPERATION.decode(op)
    except (msgspec.DecodeError, RecursionError):
        return None
    for body in (
        view.createSurface,
        view.updateComponents,
        view.updateDataModel,
        view.deleteSurface,
    ):
        if isinstance(body, UnsetType) or bytes(body).lstrip()[:1] != b"{":
            continue
        try:
            target = _TARGET.decode(body).surfaceId
            value = None if isinstance(target, UnsetType) else _JSON.decode(target)
        except (msgspec.DecodeError, RecursionError):
            value = None
        if value is not None:
            return value
    return None


def recovery_failure(content: object) -> dict[str, Any] | None:
    """The ``failed`` lifecycle of an ``a2ui_recovery_exhausted`` result, if it is one."""
    if not isinstance(content, str):
        return None
    try:
        failure = _FAILURE.decode(content)
    except (msgspec.DecodeError, RecursionError):
        return None
    if failure.code != _RECOVERY_EXHAUSTED:
        return None
    error = "A2UI generation failed" if failure.error is None else js_string(failure.error)
    attempts = [] if failure.attempts is None else failure.attempts
    maximum = (len(attempts) or MAX_ATTEMPTS) if isinstance(attempts, list) else MAX_ATTEMPTS
    return {"status": "failed", "error": error, "attempts": attempts, "maxAttempts": maximum}
