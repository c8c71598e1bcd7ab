"""The A2UI message envelope: which operation a message holds, in which version family.

Owns the wire shape of every server-to-client payload (one msgspec Struct per operation
key, camelCase, unknown fields refused), version detection (v0.8 by its keys;
v0.9/"v0.9.1"/v1.0/"v0.10" by ``version``, reference a2ui-protocol §8.1), the
one-operation-per-message rule, and the slow path that explains a message the fast
decoder refused. Its output is an :data:`Opened` message, a validated payload still
in wire form; :mod:`a2ui_stream.a2ui` turns that into an operation.

How it stays fast: one msgspec decoder validates a well-formed message's whole envelope
in C (every operation key is an optional field of one Struct, every payload a Struct that
forbids unknown fields), and one dict lookup keyed by ``(version, payload type)`` routes
it. Only when the decoder refuses does :func:`open_object`'s slow path walk plain objects
to say exactly what is wrong, or to drop unknown fields with a warning and try again.

Must not import :mod:`a2ui_stream.a2ui` or :mod:`a2ui_stream._wire.legacy` (import only
:mod:`a2ui_stream._wire.problems` and :mod:`a2ui_stream._wire.diagnostics`), nor state, conversion
or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import astuple

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import DICTS
from a2ui_stream._wire.numbers import JsDecoder
from a2ui_stream._wire.problems import no_surface, problem
from a2ui_stream._wire.spelling import wire_names

__all__ = [
    "OPERATION_KEYS",
    "AgentFunctionResponseWire",
    "BeginRenderingWire",
    "CallRendererFunctionWire",
    "CreateSurfaceWire",
    "DataModelUpdateWire",
    "DeleteSurfaceWire",
    "Opened",
    "SurfaceUpdateWire",
    "UpdateComponentsWire",
    "UpdateDataModelWire",
    "Wire",
    "bad_path",
    "data_path",
    "metadata_problem",
    "open_bytes",
    "open_data_write",
    "open_object",
]


# --- payloads ------------------------------------------------------------------------------
#
# Payload fields typed ``Any`` are checked by the builders in ``a2ui``, which give a precise
# diagnostic (a component list that is not a list still creates the surface, as upstream).
# Required fields are typed, so a missing surfaceId sends the message down the slow path,
# which names the problem.


class Wire(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename="camel"):
    """Base of the wire payloads: camelCase keys, unknown keys refused (slow path)."""


class CreateSurfaceWire(Wire, frozen=True):
    """``createSurface`` as sent (v0.9, v1.0)."""

    surface_id: str
    catalog_id: str | UnsetType | None = UNSET
    theme: Any = UNSET
    send_data_model: Any = UNSET
    # Middleware spellings: ``attachDataModel`` is the middleware's name for
    # ``sendDataModel`` (reference agui-a2ui-middleware §2.2); upstream ignores both.
    attach_data_model: Any = UNSET
    surface_properties: Any = UNSET
    components: Any = UNSET
    data_model: Any = UNSET
    metadata: Any = UNSET


class UpdateComponentsWire(Wire, frozen=True):
    """``updateComponents`` as sent (v0.9, v1.0)."""

    surface_id: str
    components: Any = UNSET


class UpdateDataModelWire(Wire, frozen=True):
    """``updateDataModel`` as sent (v0.9, v1.0)."""

    surface_id: str
    path: Any = UNSET
    value: Any = UNSET
    # assistant-ui and the middleware also accept these spellings of ``value``.
    contents: Any = UNSET
    data: Any = UNSET


class DeleteSurfaceWire(Wire, frozen=True):
    """``deleteSurface`` as sent (every version)."""

    surface_id: str


class CallRendererFunctionWire(Wire, frozen=True):
    """``callRendererFunction`` as sent (v1.0)."""

    function_call_id: str
    call_function: Any = UNSET
    surface_id: str | UnsetType = UNSET


class AgentFunctionResponseWire(Wire, frozen=True):
    """``agentFunctionResponse`` as sent (v1.0)."""

    function_call_id: str
    value: Any = UNSET
    error: Any = UNSET


class BeginRenderingWire(Wire, frozen=True):
    """``beginRendering`` as sent (v0.8)."""

    surface_id: str
    root: Any = UNSET
    catalog_id: str | UnsetType | None = UNSET
    styles: Any = UNSET


class SurfaceUpdateWire(Wire, frozen=True):
    """``surfaceUpdate`` as sent (v0.8)."""

    surface_id: str
    components: Any = UNSET


class DataModelUpdateWire(Wire, frozen=True):
    """``dataModelUpdate`` as sent (v0.8)."""

    surface_id: str
    path: Any = UNSET
    contents: Any = UNSET


class _Envelope(Wire, frozen=True):
    # ``version`` first: :func:`_open` reads the payloads as ``astuple(envelope)[1:]``.
    version: Any = UNSET
    create_surface: CreateSurfaceWire | UnsetType = UNSET
    update_components: UpdateComponentsWire | UnsetType = UNSET
    update_data_model: UpdateDataModelWire | UnsetType = UNSET
    delete_surface: DeleteSurfaceWire | UnsetType = UNSET
    call_renderer_function: CallRendererFunctionWire | UnsetType = UNSET
    agent_function_response: AgentFunctionResponseWire | UnsetType = UNSET
    begin_rendering: BeginRenderingWire | UnsetType = UNSET
    surface_update: SurfaceUpdateWire | UnsetType = UNSET
    data_model_update: DataModelUpdateWire | UnsetType = UNSET


Opened: TypeAlias = tuple[str, Wire, str, list[Diagnostic]]
"""A message whose envelope is valid: ``(operation key, payload, family, warnings)``.

``family`` is ``"v0.8"``, ``"v0.9"`` (also for ``"v0.9.1"``) or ``"v1.0"`` (also for the
``"v0.10"`` draft it was renamed from); ``warnings`` (a fresh list the caller may extend)
holds the unknown or foreign fields that were ignored.
"""

_ENVELOPE_DECODER = JsDecoder(_Envelope)
_ANY_DECODER = JsDecoder()

#: Wire key -> payload type.
_PAYLOAD_TYPES: dict[str, type[Wire]] = {
    "createSurface": CreateSurfaceWire,
    "updateComponents": UpdateComponentsWire,
    "updateDataModel": UpdateDataModelWire,
    "deleteSurface": DeleteSurfaceWire,
    "callRendererFunction": CallRendererFunctionWire,
    "agentFunctionResponse": AgentFunctionResponseWire,
    "beginRendering": BeginRenderingWire,
    "surfaceUpdate": SurfaceUpdateWire,
    "dataModelUpdate": DataModelUpdateWire,
}
_KEYS: dict[type[Wire], str] = {wire: key for key, wire in _PAYLOAD_TYPES.items()}
#: Every operation key of a server-to-client message, in any version.
OPERATION_KEYS = frozenset(_PAYLOAD_TYPES)
#: Wire spelling of each payload field, per operation key (for unknown-field warnings).
_PAYLOAD_FIELDS: dict[str, frozenset[str]] = {
    key: frozenset(wire_names(wire)) for key, wire in _PAYLOAD_TYPES.items()
}

#: ``version`` string -> version family (reference a2ui-protocol §8.1).
_VERSIONS = {"v0.9": "v0.9", "v0.9.1": "v0.9", "v1.0": "v1.0", "v0.10": "v1.0"}
#: Family of a message without ``version``: v0.8 by its keys; v0.9 keys accepted leniently.
_IMPLIED_VERSION = {
    "beginRendering": "v0.8",
    "surfaceUpdate": "v0.8",
    "dataModelUpdate": "v0.8",
    "deleteSurface": "v0.8",
    "createSurface": "v0.9",
    "updateComponents": "v0.9",
    "updateDataModel": "v0.9",
    "callRendererFunction": "v1.0",
    "agentFunctionResponse": "v1.0",
}
#: Operation keys each family defines (reference a2ui-protocol §1.1-1.3).
_V09_KEYS = frozenset({"createSurface", "updateComponents", "updateDataModel", "deleteSurface"})
_FAMILY_KEYS = {
    "v0.8": frozenset({"beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface"}),
    "v0.9": _V09_KEYS,
    "v1.0": _V09_KEYS | {"callRendererFunction", "agentFunctionResponse"},
}
#: Payload fields that belong to one family only; elsewhere they are ignored with a warning.
#: Each entry is (wire name, payload attribute).
_FOREIGN_FIELDS: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("v0.9", "createSurface"): (
        ("components", "components"),
        ("dataModel", "data_model"),
        ("metadata", "metadata"),
    ),
    ("v1.0", "createSurface"): (("theme", "theme"),),
}
#: ``(version as sent, payload type)`` -> ``(key, family, foreign fields)`` for every valid
#: pairing: the whole version check of a well-formed message is this one lookup.
_ROUTES: dict[tuple[Any, type[Wire]], tuple[str, str, tuple[tuple[str, str], ...]]] = {
    (version, _PAYLOAD_TYPES[key]): (key, family, _FOREIGN_FIELDS.get((family, key), ()))
    for version, family in [
        *((version, family) for version, family in _VERSIONS.items()),
        *((UNSET, family) for family in _FAMILY_KEYS),
    ]
    for key in _FAMILY_KEYS[family]
    if version is not UNSET or _IMPLIED_VERSION[key] == family
}


def open_bytes(raw: bytes | msgspec.Raw, index: int) -> Opened | Diagnostic:
    """Decode one message's JSON and find its operation.

    Args:
        raw: the JSON text of one message, as bytes or an undecoded ``msgspec.Raw``.
        index: the message's position in its operations list, used in diagnostics.

    Returns:
        The opened message, or an ERROR diagnostic saying why it cannot be used.
    """
    try:
        envelope = _ENVELOPE_DECODER.decode(raw)
    except msgspec.ValidationError:
        pass  # JSON that is not a clean envelope: take the slow, explaining path below.
    except msgspec.DecodeError as exc:
        return _invalid_json(raw, index, exc)
    except RecursionError:
        return _too_deep(raw, index)
    else:
        return _open(envelope, index)
    try:
        message = _ANY_DECODER.decode(raw)
    except msgspec.DecodeError as exc:  # the envelope check may stop before a syntax error
        return _invalid_json(raw, index, exc)
    except RecursionError:
        return _too_deep(raw, index)
    if type(message) not in DICTS:
        return problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} is malformed: not a JSON object.",
            index=index,
        )
    return _explain(message, index)


class _RawValueWire(Wire, frozen=True):
    """``updateDataModel`` with ``surfaceId``, ``path`` and ``value`` only, value undecoded."""

    surface_id: str
    path: Any = UNSET
    value: msgspec.Raw | UnsetType = UNSET


class _DataWriteEnvelope(Wire, frozen=True):
    update_data_model: _RawValueWire
    version: Any = UNSET


_DATA_WRITE_DECODER = msgspec.json.Decoder(_DataWriteEnvelope)


def open_data_write(raw: bytes | msgspec.Raw) -> tuple[str, str, Any, msgspec.Raw] | None:
    """Open a plain ``updateDataModel`` message without decoding its value.

    Plain means: nothing but ``version`` and ``updateDataModel`` with ``surfaceId``,
    ``path`` and ``value``, under a version whose family takes that operation with no
    foreign field. Such a message opens exactly as :func:`open_bytes` opens it, with
    no warning; anything else (including a message that is not valid JSON) gives
    ``None``, for the full decode to deal with.

    Args:
        raw: the JSON text of one message.

    Returns:
        ``(family, surfaceId, path as sent, value text)``, or ``None``.
    """
    try:
        envelope = _DATA_WRITE_DECODER.decode(raw)
        route = _ROUTES.get((envelope.version, UpdateDataModelWire))
    except (msgspec.DecodeError, TypeError, RecursionError):  # not plain, unhashable, too deep
        return None
    write = envelope.update_data_model
    if route is None or route[2] or write.value is UNSET or not write.surface_id:
        return None
    return route[1], write.surface_id, write.path, write.value


def open_object(message: Mapping[str, Any], index: int) -> Opened | Diagnostic:
    """Find the operation of one already-decoded message.

    Args:
        message: the message object (plain JSON values); it is not copied or changed.
        index: the message's position in its operations list, used in diagnostics.

    Returns:
        The opened message, or an ERROR diagnostic saying why it cannot be used.
    """
    if not isinstance(message, Mapping):
        return problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} is malformed: not an object.",
            index=index,
        )
    as_dict: Any = message if type(message) in DICTS else dict(message)
    try:
        envelope = msgspec.convert(as_dict, _Envelope)
    except msgspec.ValidationError:
        return _explain(as_dict, index)
    return _open(envelope, index)


def metadata_problem(metadata: Any, *, index: int, where: str) -> Diagnostic | None:
    """Check a v1.0 ``metadata`` object (on createSurface or on a component).

    Args:
        metadata: the value as sent.
        index: the operation's position in its list.
        where: the JSON path of the value below the operation.

    Returns:
        ``None`` when it holds only ``extensions`` keyed by UAX #31 identifiers, else an
        ``op.bad_metadata`` warning (the metadata is ignored, the operation kept).
    """
    if type(metadata) not in DICTS or set(metadata) - {"extensions"}:
        return problem(
            Code.OP_BAD_METADATA,
            f"metadata at {where} must be an object holding only 'extensions'; ignored.",
            index=index,
            where=where,
            severity=Severity.WARNING,
        )
    extensions = metadata.get("extensions", {})
    # str.isidentifier() is exactly UAX #31 XID_Start/XID_Continue with "_" allowed first,
    # the pattern the v1.0 schema gives for extension keys.
    if type(extensions) not in DICTS or not all(key.isidentifier() for key in extensions):
        return problem(
            Code.OP_BAD_METADATA,
            f"metadata.extensions at {where} must be an object keyed by identifiers; ignored.",
            index=index,
            where=f"{where}.extensions",
            severity=Severity.WARNING,
        )
    return None


def data_path(path: Any, *, v08: bool) -> str | None:
    """Normalise a data model path as sent into an absolute JSON Pointer.

    Args:
        path: the ``path`` field as sent (``UNSET`` when absent).
        v08: the message is v0.8, whose paths often lack the leading slash.

    Returns:
        ``""`` for the whole model (absent, null, ``""`` or ``"/"``), the pointer, or
        ``None`` when the path is unusable.
    """
    if path is UNSET or path is None:
        return ""
    if type(path) is not str:
        return None
    if path in {"", "/"}:
        return ""
    if path.startswith("/"):
        return path
    # v0.8 paths often lack the leading slash ("user", "form"); later ones must have it.
    return f"/{path}" if v08 else None


def bad_path(key: str, index: int, sid: str) -> Diagnostic:
    """Refuse an operation whose data model path :func:`data_path` could not use.

    Args:
        key: the operation key.
        index: the operation's position in its list.
        sid: the surface concerned.

    Returns:
        An ``op.bad_path`` ERROR diagnostic.
    """
    return problem(
        Code.OP_BAD_PATH,
        f"Operation at index {index} has a data model path that is not an absolute JSON Pointer.",
        index=index,
        where=f".{key}.path",
        surface_id=sid,
    )


def _invalid_json(raw: bytes | msgspec.Raw, index: int, exc: msgspec.DecodeError) -> Diagnostic:
    return Diagnostic(
        code=Code.OP_INVALID_JSON,
        message=f"Operation at index {index} is not valid JSON: {exc}.",
        severity=Severity.ERROR,
        path=f"$[{index}]",
        raw=bytes(memoryview(raw)[:200]),
    )


def _too_deep(raw: bytes | msgspec.Raw, index: int) -> Diagnostic:
    """Refuse a message past msgspec's own bound, the interpreter's stack."""
    return Diagnostic(
        code=Code.LIMIT_DATA_DEPTH,
        message=f"Operation at index {index} nests too deeply to decode; skipped.",
        severity=Severity.ERROR,
        path=f"$[{index}]",
        raw=bytes(memoryview(raw)[:200]),
    )


def _open(envelope: _Envelope, index: int) -> Opened | Diagnostic:
    """Fast path: exactly one payload present, then route it by version and type."""
    # UNSET is falsy and payload Structs are truthy: filter() counts them in C.
    present = list(filter(None, astuple(envelope)[1:]))
    if len(present) != 1:
        return _key_count(len(present), index)
    return _route(present[0], envelope.version, index, [])


def _route(
    payload: Wire, version: Any, index: int, warnings: list[Diagnostic]
) -> Opened | Diagnostic:
    """Check the version against the operation and note fields of another family."""
    try:
        route = _ROUTES.get((version, type(payload)))
    except TypeError:  # an unhashable version (an array or an object) is unsupported
        route = None
    if route is None:
        return _unroutable(_KEYS[type(payload)], version, index)
    key, family, foreign = route
    for field, attr in foreign:
        if getattr(payload, attr) is not UNSET:
            warnings.append(_unknown_field(key, field, family, index))
    return key, payload, family, warnings


def _family(version: Any, key: str) -> str | None:
    """The version family a message claims, or ``None`` for an unsupported ``version``."""
    if version is UNSET:
        return _IMPLIED_VERSION.get(key, "v0.9")
    return _VERSIONS.get(version) if type(version) is str else None


def _unroutable(key: str, version: Any, index: int) -> Diagnostic:
    """Say why a version and an operation key do not go together."""
    family = _family(version, key)
    if family is None:
        return problem(
            Code.OP_UNSUPPORTED_VERSION,
            f"Operation at index {index} has an unsupported version {version!r}.",
            index=index,
            where=".version",
        )
    hint = f" ({key} is not part of A2UI {family})" if key in _IMPLIED_VERSION else ""
    return problem(
        Code.OP_UNKNOWN,
        f'Unknown A2UI operation "{key}" at index {index}{hint}.',
        index=index,
        where=f".{key}",
    )


def _key_count(count: int, index: int) -> Diagnostic:
    return problem(
        Code.OP_NO_OPERATION if count == 0 else Code.OP_MULTIPLE_OPERATIONS,
        f"Operation at index {index} must contain exactly one operation key (found {count}).",
        index=index,
    )


def _unknown_field(key: str, field: str, family: str, index: int) -> Diagnostic:
    return problem(
        Code.OP_UNKNOWN_FIELD,
        f"Operation at index {index}: {key} has no field {field!r} in A2UI {family}; ignored.",
        index=index,
        where=f".{key}.{field}",
        severity=Severity.WARNING,
    )


def _explain(message: dict[str, Any], index: int) -> Opened | Diagnostic:
    """Slow path: say precisely what is wrong, or drop unknown fields and open anyway."""
    keys = [key for key in message if key != "version"]
    if len(keys) != 1:
        return _key_count(len(keys), index)
    (key,) = keys
    version = message.get("version", UNSET)
    family = _family(version, key)
    wire_type = _PAYLOAD_TYPES.get(key)
    if family is None or wire_type is None or key not in _FAMILY_KEYS[family]:
        return _unroutable(key, version, index)
    payload = message[key]
    if type(payload) not in DICTS:
        return problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} has a malformed payload (not an object).",
            index=index,
            where=f".{key}",
        )
    fields = _PAYLOAD_FIELDS[key]
    if "surfaceId" in fields and key != "callRendererFunction":
        sid = payload.get("surfaceId")
        if type(sid) is not str or not sid:
            return no_surface(key, index)
    warnings = [
        _unknown_field(key, field, family, index) for field in payload if field not in fields
    ]
    known = {field: value for field, value in payload.items() if field in fields}
    try:
        wire = msgspec.convert(known, wire_type)
    except msgspec.ValidationError as exc:
        sid = payload.get("surfaceId")
        return problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} has a malformed {key} payload: {exc}.",
            index=index,
            where=f".{key}",
            surface_id=sid if type(sid) is str else None,
        )
    return _route(wire, version, index, warnings)
