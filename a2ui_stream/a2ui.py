"""A2UI server-to-client messages of every version, normalised into one operation form.

Owns: detecting a message's version (v0.8 by its keys, v0.9/"v0.9.1"/v1.0 by
``version``), validating its shape, and turning it into the version-free
:data:`Operation` values below, which every later stage consumes. v0.8 components
are rewritten into v0.9 names here (wrapped types unwrapped, ``explicitList`` to an
id list, ``literal*`` wrappers to plain values, renamed props), so no later stage
knows v0.8 existed. v1.0 ``{"@path"}`` bindings are *not* rewritten (that would
copy every prop); the converter reads both spellings.

Must not import: state, conversion or shell modules. Does no I/O, no logging.

INTERFACE (implemented by the a2ui helper; signatures are the contract):

    decode_operation(raw: bytes | msgspec.Raw, *, index: int) -> Operation | Diagnostic
    normalize_message(message: Mapping[str, Any], *, index: int) -> Operation | Diagnostic
"""

from __future__ import annotations

from typing import Any, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

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
]


class Component(msgspec.Struct, frozen=True, kw_only=True):
    """One component of a surface's adjacency list, in v0.9 spelling.

    Attributes:
        id: the component id, unique within its surface.
        component: the catalog type name (``"Text"``, ``"Column"``, ``"ChoicePicker"``).
        props: the component's JSON object as received (v0.9/v1.0) or as rewritten from
            v0.8. It may still contain ``id`` and ``component``; readers skip those two
            keys. Never mutated after construction: components are shared between states.
    """

    id: str
    component: str
    props: dict[str, Any]


class CreateSurface(msgspec.Struct, frozen=True, kw_only=True):
    """(Re)create a surface: an existing surface of that id is reset.

    Attributes:
        surface_id: the surface.
        version: the A2UI version the message was written in (``"v0.9"``, ``"v1.0"``...).
        catalog_id: the catalog named by the message, if any.
        components: v1.0 inline components, applied after ``data_model``; ``None`` if absent.
        data_model: v1.0 inline initial data model; ``UNSET`` if absent.
    """

    surface_id: str
    version: str
    catalog_id: str | None = None
    components: tuple[Component, ...] | None = None
    data_model: Any | UnsetType = UNSET


class BeginRendering(msgspec.Struct, frozen=True, kw_only=True):
    """v0.8 render signal: name the root; creates the surface if missing, never resets it.

    Attributes:
        surface_id: the surface.
        root: id of the root component.
        catalog_id: catalog named by the message, if any.
    """

    surface_id: str
    root: str
    catalog_id: str | None = None


class UpdateComponents(msgspec.Struct, frozen=True, kw_only=True):
    """Upsert components by id; each replaces any earlier component of that id whole.

    Attributes:
        surface_id: the surface.
        components: valid components in message order (malformed ones were reported
            and left out by the decoder).
        implicit_create: create the surface when missing (v0.8, which has no create).
    """

    surface_id: str
    components: tuple[Component, ...]
    implicit_create: bool = False


class UpdateDataModel(msgspec.Struct, frozen=True, kw_only=True):
    """Set, merge into, or delete a value of the data model at a JSON Pointer.

    Attributes:
        surface_id: the surface.
        path: an absolute JSON Pointer; ``""`` means the whole model (``"/"`` and a missing
            path are normalised to ``""``).
        value: the value to write; ``UNSET`` means delete (v0.9: value absent; v1.0: null).
        merge: set each key of ``value`` (an object) individually under ``path`` instead of
            replacing it (v0.8 ``contents``).
        implicit_create: create the surface when missing (v0.8).
    """

    surface_id: str
    path: str
    value: Any | UnsetType = UNSET
    merge: bool = False
    implicit_create: bool = False


class DeleteSurface(msgspec.Struct, frozen=True, kw_only=True):
    """Remove a surface; no effect (and no warning) when it does not exist."""

    surface_id: str


class CallRendererFunction(msgspec.Struct, frozen=True, kw_only=True):
    """v1.0 request that the renderer run a function; carried, never applied to state."""

    function_call_id: str
    call: dict[str, Any]
    surface_id: str | None = None


class AgentFunctionResponse(msgspec.Struct, frozen=True, kw_only=True):
    """v1.0 agent reply to a renderer's ``callAgentFunction``; carried, never applied."""

    function_call_id: str
    value: Any | UnsetType = UNSET
    error: dict[str, Any] | None = None


Operation: TypeAlias = (
    CreateSurface
    | BeginRendering
    | UpdateComponents
    | UpdateDataModel
    | DeleteSurface
    | CallRendererFunction
    | AgentFunctionResponse
)
"""Every normalised A2UI operation, whatever version it arrived in."""
