"""A2UI server-to-client messages of every version, normalised into one operation form.

:func:`decode_operation` reads JSON bytes and :func:`normalize_message` an
already-decoded object, in v0.8, v0.9 or v1.0 spelling; both return the version-free
:data:`Operation` values below. The definitions live in ``a2ui_stream._wire``; this
module is their public name.
"""

from __future__ import annotations

from a2ui_stream._wire.a2ui import (
    AgentFunctionResponse,
    BeginRendering,
    CallRendererFunction,
    Component,
    CreateSurface,
    DeleteSurface,
    Operation,
    UpdateComponents,
    UpdateDataModel,
    decode_operation,
    normalize_message,
)

__all__ = [
    "AgentFunctionResponse",
    "BeginRendering",
    "CallRendererFunction",
    "Component",
    "CreateSurface",
    "DeleteSurface",
    "Operation",
    "UpdateComponents",
    "UpdateDataModel",
    "decode_operation",
    "normalize_message",
]
