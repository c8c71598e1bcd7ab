"""A2UI server-to-client messages of every version, normalised into one operation form.

Owns: detecting a message's version (v0.8 by its keys, v0.9/"v0.9.1"/v1.0 by
``version``), validating its shape, and turning it into the version-free
:data:`Operation` values below, which every later stage consumes. v0.8 components
are rewritten into v0.9 names here (wrapped types unwrapped, ``explicitList`` to an
id list, ``literal*`` wrappers to plain values, renamed props), so no later stage
knows v0.8 existed. v1.0 ``{"@path"}`` bindings are *not* rewritten (that would
copy every prop); the converter reads both spellings.

Versions are reported by family: ``"v0.8"``, ``"v0.9"`` (also for ``"v0.9.1"``, whose
messages are the same) and ``"v1.0"`` (also for the ``"v0.10"`` draft it was renamed from).

How decoding works: one msgspec decoder validates the envelope of a well-formed message
in C (every operation key is an optional field of one Struct, every payload a Struct
that forbids unknown fields). Only when that fails does the slow path decode the message
to plain objects and walk it to say exactly what is wrong, or to drop unknown fields with
a warning and try again. Both paths end in the same builders, so the semantics live once.

Must not import: state, conversion or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._diagnostics import Diagnostic, Severity

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

_Warnings: TypeAlias = tuple[Diagnostic, ...]


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
        version: the A2UI version family the message was written in (``"v0.9"``, ``"v1.0"``).
        catalog_id: the catalog named by the message, if any.
        components: v1.0 inline components, applied after ``data_model``; ``None`` if absent.
        data_model: v1.0 inline initial data model; ``UNSET`` if absent.
        warnings: problems found while decoding that did not stop the operation
            (a malformed component left out, an unknown field ignored).
    """

    surface_id: str
    version: str
    catalog_id: str | None = None
    components: tuple[Component, ...] | None = None
    data_model: Any | UnsetType = UNSET
    warnings: _Warnings = ()


class BeginRendering(msgspec.Struct, frozen=True, kw_only=True):
    """v0.8 render signal: name the root; creates the surface if missing, never resets it.

    Attributes:
        surface_id: the surface.
        root: id of the root component.
        catalog_id: catalog named by the message, if any.
        warnings: problems found while decoding that did not stop the operation.
    """

    surface_id: str
    root: str
    catalog_id: str | None = None
    warnings: _Warnings = ()


class UpdateComponents(msgspec.Struct, frozen=True, kw_only=True):
    """Upsert components by id; each replaces any earlier component of that id whole.

    Attributes:
        surface_id: the surface.
        components: valid components in message order (malformed ones were reported
            and left out by the decoder).
        implicit_create: create the surface when missing (v0.8, which has no create).
        initial_data: ``(pointer, value)`` pairs to write into the data model before the
            components are stored. v0.8 only: a bound value carrying both a literal and a
            path means "initialise the model at path with the literal, then bind"; the
            decoder keeps the binding in the props and moves the literal here.
        warnings: problems found while decoding that did not stop the operation.
    """

    surface_id: str
    components: tuple[Component, ...]
    implicit_create: bool = False
    initial_data: tuple[tuple[str, Any], ...] = ()
    warnings: _Warnings = ()


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
        warnings: problems found while decoding that did not stop the operation.
    """

    surface_id: str
    path: str
    value: Any | UnsetType = UNSET
    merge: bool = False
    implicit_create: bool = False
    warnings: _Warnings = ()


class DeleteSurface(msgspec.Struct, frozen=True, kw_only=True):
    """Remove a surface; no effect (and no warning) when it does not exist."""

    surface_id: str
    warnings: _Warnings = ()


class CallRendererFunction(msgspec.Struct, frozen=True, kw_only=True):
    """v1.0 request that the renderer run a function; carried, never applied to state."""

    function_call_id: str
    call: dict[str, Any]
    surface_id: str | None = None
    warnings: _Warnings = ()


class AgentFunctionResponse(msgspec.Struct, frozen=True, kw_only=True):
    """v1.0 agent reply to a renderer's ``callAgentFunction``; carried, never applied."""

    function_call_id: str
    value: Any | UnsetType = UNSET
    error: dict[str, Any] | None = None
    warnings: _Warnings = ()


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


# --- the wire envelope: validated in one C pass -------------------------------------------
#
# Payload fields typed ``Any`` are checked by the builders below, which give a precise
# diagnostic (a component list that is not a list still creates the surface, as upstream).
# Required fields are typed, so a missing surfaceId sends the message down the slow path,
# which names the problem.


class _Wire(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename="camel"):
    """Base of the wire payloads: camelCase keys, unknown keys refused (slow path)."""


class _CreateSurfaceWire(_Wire, frozen=True):
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


class _UpdateComponentsWire(_Wire, frozen=True):
    surface_id: str
    components: Any = UNSET


class _UpdateDataModelWire(_Wire, frozen=True):
    surface_id: str
    path: Any = UNSET
    value: Any = UNSET
    # assistant-ui and the middleware also accept these spellings of ``value``.
    contents: Any = UNSET
    data: Any = UNSET


class _DeleteSurfaceWire(_Wire, frozen=True):
    surface_id: str


class _CallRendererFunctionWire(_Wire, frozen=True):
    function_call_id: str
    call_function: Any = UNSET
    surface_id: str | UnsetType = UNSET


class _AgentFunctionResponseWire(_Wire, frozen=True):
    function_call_id: str
    value: Any = UNSET
    error: Any = UNSET


class _BeginRenderingWire(_Wire, frozen=True):
    surface_id: str
    root: Any = UNSET
    catalog_id: str | UnsetType | None = UNSET
    styles: Any = UNSET


class _SurfaceUpdateWire(_Wire, frozen=True):
    surface_id: str
    components: Any = UNSET


class _DataModelUpdateWire(_Wire, frozen=True):
    surface_id: str
    path: Any = UNSET
    contents: Any = UNSET


class _Envelope(_Wire, frozen=True):
    version: Any = UNSET
    create_surface: _CreateSurfaceWire | UnsetType = UNSET
    update_components: _UpdateComponentsWire | UnsetType = UNSET
    update_data_model: _UpdateDataModelWire | UnsetType = UNSET
    delete_surface: _DeleteSurfaceWire | UnsetType = UNSET
    call_renderer_function: _CallRendererFunctionWire | UnsetType = UNSET
    agent_function_response: _AgentFunctionResponseWire | UnsetType = UNSET
    begin_rendering: _BeginRenderingWire | UnsetType = UNSET
    surface_update: _SurfaceUpdateWire | UnsetType = UNSET
    data_model_update: _DataModelUpdateWire | UnsetType = UNSET


_ENVELOPE_DECODER = msgspec.json.Decoder(_Envelope)
_ANY_DECODER = msgspec.json.Decoder()

#: Wire key -> (envelope attribute, wire payload type).
_OPERATION_KEYS: dict[str, tuple[str, type[_Wire]]] = {
    "createSurface": ("create_surface", _CreateSurfaceWire),
    "updateComponents": ("update_components", _UpdateComponentsWire),
    "updateDataModel": ("update_data_model", _UpdateDataModelWire),
    "deleteSurface": ("delete_surface", _DeleteSurfaceWire),
    "callRendererFunction": ("call_renderer_function", _CallRendererFunctionWire),
    "agentFunctionResponse": ("agent_function_response", _AgentFunctionResponseWire),
    "beginRendering": ("begin_rendering", _BeginRenderingWire),
    "surfaceUpdate": ("surface_update", _SurfaceUpdateWire),
    "dataModelUpdate": ("data_model_update", _DataModelUpdateWire),
}
_ATTRIBUTES = tuple((key, attr) for key, (attr, _) in _OPERATION_KEYS.items())
#: Wire spelling of each payload field, per payload type (for unknown-field warnings).
_PAYLOAD_FIELDS: dict[str, frozenset[str]] = {
    key: frozenset(info.encode_name for info in msgspec.structs.fields(wire))
    for key, (_, wire) in _OPERATION_KEYS.items()
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
_FAMILY_KEYS = {
    "v0.8": frozenset({"beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface"}),
    "v0.9": frozenset({"createSurface", "updateComponents", "updateDataModel", "deleteSurface"}),
    "v1.0": frozenset(
        {
            "createSurface",
            "updateComponents",
            "updateDataModel",
            "deleteSurface",
            "callRendererFunction",
            "agentFunctionResponse",
        }
    ),
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


# --- diagnostics ----------------------------------------------------------------------------


def _problem(
    code: str,
    message: str,
    *,
    index: int,
    where: str = "",
    severity: Severity = Severity.ERROR,
    surface_id: str | None = None,
    component_id: str | None = None,
) -> Diagnostic:
    """Build a diagnostic located at ``$[index]<where>``."""
    return Diagnostic(
        code=code,
        message=message,
        severity=severity,
        path=f"$[{index}]{where}",
        surface_id=surface_id,
        component_id=component_id,
    )


# --- components -----------------------------------------------------------------------------


def _components(
    items: list[Any], *, family: str, index: int, where: str, surface_id: str
) -> tuple[tuple[Component, ...], list[Diagnostic], tuple[tuple[str, Any], ...]]:
    """Validate a component list; malformed entries are left out and reported.

    Returns:
        The valid components, the problems, and v0.8 initial data writes.
    """
    if family == "v0.8":
        return _components_v08(items, index=index, where=where, surface_id=surface_id)
    out: list[Component] = []
    problems: list[Diagnostic] = []
    append = out.append
    strict_v10 = family == "v1.0"
    # Hot loop: a 4,000-component surface runs this 4,000 times per message, so the
    # common case is two dict lookups, two type checks and one Struct construction.
    for j, item in enumerate(items):
        if type(item) is dict:
            cid = item.get("id")
            ctype = item.get("component")
            if type(cid) is str and cid and type(ctype) is str and ctype:
                if strict_v10 and (ctype == "Surface" or "metadata" in item):
                    problem = _v10_component_problem(item, index, f"{where}[{j}]", surface_id)
                    if problem is not None:
                        problems.append(problem)
                        if problem.severity is Severity.ERROR:
                            continue
                append(Component(id=cid, component=ctype, props=item))
                continue
        problems.append(_bad_component(item, family, index, f"{where}[{j}]", surface_id))
    return tuple(out), problems, ()


def _bad_component(item: Any, family: str, index: int, where: str, surface_id: str) -> Diagnostic:
    """Describe why one component was left out."""
    cid = item.get("id") if type(item) is dict else None
    if type(item) is not dict:
        reason = f"is {type(item).__name__}, not an object"
    elif type(cid) is not str or not cid:
        reason = "has no non-empty string id"
    elif family == "v0.8":
        reason = 'needs "component" as an object with exactly one type key'
    else:
        reason = 'has no non-empty string "component" type'
    return _problem(
        "component.malformed",
        f"Component at {where} in operation {index} {reason}; it was left out.",
        index=index,
        where=where,
        surface_id=surface_id,
        component_id=cid if type(cid) is str else None,
    )


def _v10_component_problem(
    item: dict[str, Any], index: int, where: str, surface_id: str
) -> Diagnostic | None:
    """Check the v1.0-only component rules: reserved ``Surface``, metadata extensions."""
    if item["component"] == "Surface":
        return _problem(
            "component.reserved",
            f'Component at {where} uses the reserved type "Surface"; it was left out.',
            index=index,
            where=where,
            surface_id=surface_id,
            component_id=item["id"],
        )
    return _metadata_problem(item["metadata"], index=index, where=f"{where}.metadata")


def _metadata_problem(metadata: Any, *, index: int, where: str) -> Diagnostic | None:
    """Check a v1.0 ``metadata`` object: only ``extensions``, keys UAX #31 identifiers."""
    if type(metadata) is not dict or set(metadata) - {"extensions"}:
        return _problem(
            "op.bad_metadata",
            f"metadata at {where} must be an object holding only 'extensions'; ignored.",
            index=index,
            where=where,
            severity=Severity.WARNING,
        )
    extensions = metadata.get("extensions", {})
    # str.isidentifier() is exactly UAX #31 XID_Start/XID_Continue with "_" allowed first,
    # the pattern the v1.0 schema gives for extension keys.
    if type(extensions) is not dict or not all(key.isidentifier() for key in extensions):
        return _problem(
            "op.bad_metadata",
            f"metadata.extensions at {where} must be an object keyed by identifiers; ignored.",
            index=index,
            where=f"{where}.extensions",
            severity=Severity.WARNING,
        )
    return None


# --- v0.8 component rewriting (reference a2ui-protocol §2-3, "Renames v0.8->v0.9") ---------

_V08_LITERALS = ("literalString", "literalNumber", "literalBoolean", "literalArray")
_V08_TYPE_NAMES = {"MultipleChoice": "ChoicePicker"}
_V08_COMMON_RENAMES = {"usageHint": "variant", "distribution": "justify", "alignment": "align"}
_V08_RENAMES: dict[str, dict[str, str]] = {
    "Modal": {"entryPointChild": "trigger", "contentChild": "content"},
    "Tabs": {"tabItems": "tabs"},
    "TextField": {"text": "value", "textFieldType": "variant"},
    "MultipleChoice": {"selections": "value", "variant": "displayStyle"},
    "Slider": {"minValue": "min", "maxValue": "max"},
    "Image": {"altText": "description"},
}
_V08_IMAGE_FITS = {"scale-down": "scaleDown"}


def _components_v08(
    items: list[Any], *, index: int, where: str, surface_id: str
) -> tuple[tuple[Component, ...], list[Diagnostic], tuple[tuple[str, Any], ...]]:
    """Unwrap v0.8 components (``{"Text": {...}}``) into v0.9 spelling."""
    out: list[Component] = []
    problems: list[Diagnostic] = []
    seeds: list[tuple[str, Any]] = []
    for j, item in enumerate(items):
        wrapper = item.get("component") if type(item) is dict else None
        cid = item.get("id") if type(item) is dict else None
        if (
            type(cid) is str
            and cid
            and type(wrapper) is dict
            and len(wrapper) == 1
            and type(inner := next(iter(wrapper.values()))) is dict
        ):
            ctype: str = next(iter(wrapper))
            props = _v08_props(ctype, inner, seeds)
            if "weight" in item:
                props["weight"] = item["weight"]
            out.append(Component(id=cid, component=_V08_TYPE_NAMES.get(ctype, ctype), props=props))
            continue
        problems.append(_bad_component(item, "v0.8", index, f"{where}[{j}]", surface_id))
    return tuple(out), problems, tuple(seeds)


def _v08_props(ctype: str, inner: dict[str, Any], seeds: list[tuple[str, Any]]) -> dict[str, Any]:
    """Rewrite one v0.8 component's props into v0.9 names and plain values."""
    renames = _V08_RENAMES.get(ctype, {})
    props: dict[str, Any] = {}
    for key, value in inner.items():
        if key == "children":
            new = _v08_children(value)
        elif key == "action":
            new = _v08_action(value, seeds)
        else:
            new = _v08_value(value, seeds)
        props[renames.get(key) or _V08_COMMON_RENAMES.get(key, key)] = new
    if ctype == "Button" and "primary" in props:
        if props.pop("primary") is True:
            props.setdefault("variant", "primary")
    elif ctype == "MultipleChoice":
        # v0.8 bounds the selection count; v0.9 names the two cases.
        single = props.pop("maxAllowedSelections", None) == 1
        props["variant"] = "mutuallyExclusive" if single else "multipleSelection"
    elif ctype == "Image" and props.get("fit") in _V08_IMAGE_FITS:
        props["fit"] = _V08_IMAGE_FITS[props["fit"]]
    return props


def _v08_value(value: Any, seeds: list[tuple[str, Any]]) -> Any:
    """Turn v0.8 BoundValues into plain literals or ``{"path"}`` bindings, recursively."""
    if type(value) is list:
        return [_v08_value(item, seeds) for item in value]
    if type(value) is not dict:
        return value
    for literal in _V08_LITERALS:
        if literal in value:
            path = value.get("path")
            if type(path) is str:
                # Literal and path together: initialise the model, then bind (v0.8 spec).
                seeds.append((path if path.startswith("/") else f"/{path}", value[literal]))
                return {"path": path}
            return value[literal]
    return {key: _v08_value(item, seeds) for key, item in value.items()}


def _v08_children(value: Any) -> Any:
    """``{"explicitList": [...]}`` -> id list; ``dataBinding`` template -> ``path`` template.

    The template stays wrapped as ``{"template": {"componentId", "path"}}`` so the converter
    can tell a v0.8 template (item-scoped ``/name`` bindings) from a v0.9 one.
    """
    if type(value) is dict:
        if type(value.get("explicitList")) is list:
            return value["explicitList"]
        template = value.get("template")
        if type(template) is dict:
            return {
                "template": {
                    "componentId": template.get("componentId"),
                    "path": template.get("dataBinding", template.get("path")),
                }
            }
    return value


def _v08_action(value: Any, seeds: list[tuple[str, Any]]) -> Any:
    """``{name, context: [{key, value}]}`` -> ``{"event": {name, context: {key: value}}}``."""
    if type(value) is not dict or "name" not in value:
        return _v08_value(value, seeds)
    context = value.get("context")
    event: dict[str, Any] = {"name": value["name"]}
    if type(context) is list:
        event["context"] = {
            entry["key"]: _v08_value(entry.get("value"), seeds)
            for entry in context
            if type(entry) is dict and type(entry.get("key")) is str
        }
    return {"event": event}


_V08_DATA_KEYS = ("valueString", "valueNumber", "valueBoolean", "valueMap")
#: Nesting of v0.8 ``valueMap`` entries followed; deeper maps are dropped with a warning.
#: Same bound as the converter's element depth (upstream ``DEPTH_CAP``), and it keeps
#: hostile input from exhausting Python's recursion limit.
_V08_MAX_DATA_DEPTH = 32


def _v08_contents(
    entries: list[Any], *, index: int, where: str, problems: list[Diagnostic], depth: int = 0
) -> dict[str, Any]:
    """Turn a v0.8 typed ``contents`` adjacency list into a plain object."""
    out: dict[str, Any] = {}
    for j, entry in enumerate(entries):
        here = f"{where}[{j}]"
        key = entry.get("key") if type(entry) is dict else None
        found = next((name for name in _V08_DATA_KEYS if name in entry), None) if key else None
        if type(key) is not str or found is None:
            problems.append(
                _problem(
                    "op.bad_contents",
                    f"Data entry at {here} needs a string key and one typed value "
                    f"({', '.join(_V08_DATA_KEYS)}); it was left out.",
                    index=index,
                    where=here,
                    severity=Severity.WARNING,
                )
            )
            continue
        value = entry[found]
        if found == "valueMap":
            if type(value) is not list or depth >= _V08_MAX_DATA_DEPTH:
                problems.append(
                    _problem(
                        "op.bad_contents",
                        f"valueMap at {here} is not a list or nests too deeply; it was left out.",
                        index=index,
                        where=f"{here}.valueMap",
                        severity=Severity.WARNING,
                    )
                )
                continue
            value = _v08_contents(
                value, index=index, where=f"{here}.valueMap", problems=problems, depth=depth + 1
            )
        out[key] = value
    return out


# --- builders: one per (family, operation key) ----------------------------------------------

_Builder: TypeAlias = Callable[[Any, str, int, list[Diagnostic]], "Operation | Diagnostic"]


def _no_surface(key: str, index: int) -> Diagnostic:
    return _problem(
        "op.no_surface_id",
        f"Operation at index {index} has no valid surfaceId.",
        index=index,
        where=f".{key}.surfaceId",
    )


def _build_create_surface(
    wire: _CreateSurfaceWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    sid = wire.surface_id
    if not sid:
        return _no_surface("createSurface", index)
    components: tuple[Component, ...] | None = None
    data_model: Any = UNSET
    if family == "v1.0":
        if wire.components is not UNSET:
            components = _inline_components(wire.components, index, sid, warnings)
        if wire.data_model is not UNSET:
            if type(wire.data_model) is dict:
                data_model = wire.data_model
            else:
                warnings.append(
                    _problem(
                        "op.bad_data_model",
                        f"Operation at index {index} has a dataModel that is not an object; "
                        "ignored.",
                        index=index,
                        where=".createSurface.dataModel",
                        severity=Severity.WARNING,
                        surface_id=sid,
                    )
                )
        if wire.metadata is not UNSET:
            problem = _metadata_problem(wire.metadata, index=index, where=".createSurface.metadata")
            if problem is not None:
                warnings.append(problem)
    catalog = wire.catalog_id if type(wire.catalog_id) is str else None
    return CreateSurface(
        surface_id=sid,
        version=family,
        catalog_id=catalog,
        components=components,
        data_model=data_model,
        warnings=tuple(warnings),
    )


def _inline_components(
    items: Any, index: int, sid: str, warnings: list[Diagnostic]
) -> tuple[Component, ...] | None:
    """v1.0 createSurface ``components``: malformed lists still create the surface."""
    where = ".createSurface.components"
    if type(items) is not list:
        warnings.append(
            _problem(
                "op.bad_components",
                f"Operation at index {index} has malformed components; the surface is created "
                "without them.",
                index=index,
                where=where,
                surface_id=sid,
            )
        )
        return None
    if not items:
        warnings.append(_empty_components(index, where, sid))
    components, problems, _ = _components(
        items, family="v1.0", index=index, where=where, surface_id=sid
    )
    warnings.extend(problems)
    return components


def _empty_components(index: int, where: str, sid: str) -> Diagnostic:
    return _problem(
        "op.empty_components",
        f"Operation at index {index} has an empty component list.",
        index=index,
        where=where,
        severity=Severity.WARNING,
        surface_id=sid,
    )


def _build_update_components(
    wire: _UpdateComponentsWire | _SurfaceUpdateWire,
    family: str,
    index: int,
    warnings: list[Diagnostic],
) -> Operation | Diagnostic:
    key = "surfaceUpdate" if family == "v0.8" else "updateComponents"
    sid = wire.surface_id
    if not sid:
        return _no_surface(key, index)
    where = f".{key}.components"
    if type(wire.components) is not list:
        return _problem(
            "op.bad_components",
            f"Operation at index {index} has malformed components.",
            index=index,
            where=where,
            surface_id=sid,
        )
    if not wire.components:
        warnings.append(_empty_components(index, where, sid))
    components, problems, seeds = _components(
        wire.components, family=family, index=index, where=where, surface_id=sid
    )
    warnings.extend(problems)
    return UpdateComponents(
        surface_id=sid,
        components=components,
        implicit_create=family == "v0.8",
        initial_data=seeds,
        warnings=tuple(warnings),
    )


def _data_path(path: Any, *, v08: bool) -> str | None:
    """Normalise a data model path; ``None`` when it is unusable."""
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


def _bad_path(key: str, index: int, sid: str) -> Diagnostic:
    return _problem(
        "op.bad_path",
        f"Operation at index {index} has a data model path that is not an absolute JSON Pointer.",
        index=index,
        where=f".{key}.path",
        surface_id=sid,
    )


def _build_update_data_model(
    wire: _UpdateDataModelWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    sid = wire.surface_id
    if not sid:
        return _no_surface("updateDataModel", index)
    path = _data_path(wire.path, v08=False)
    if path is None:
        return _bad_path("updateDataModel", index, sid)
    value = wire.value
    if value is UNSET:
        value = wire.contents if wire.contents is not UNSET else wire.data
    if family == "v1.0":
        # v1.0: value is required and null deletes (reference a2ui-protocol §1.2).
        if value is UNSET:
            return _problem(
                "op.no_value",
                f"Operation at index {index} has no data model value (v1.0 requires one; "
                "null deletes).",
                index=index,
                where=".updateDataModel",
                surface_id=sid,
            )
        if value is None:
            value = UNSET
    # v0.9: an absent value deletes, null is stored (reference a2ui-protocol §1.1).
    return UpdateDataModel(surface_id=sid, path=path, value=value, warnings=tuple(warnings))


def _build_data_model_update(
    wire: _DataModelUpdateWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    sid = wire.surface_id
    if not sid:
        return _no_surface("dataModelUpdate", index)
    path = _data_path(wire.path, v08=True)
    if path is None:
        return _bad_path("dataModelUpdate", index, sid)
    contents = wire.contents
    where = ".dataModelUpdate.contents"
    if type(contents) is not list:
        return _problem(
            "op.malformed",
            f"Operation at index {index} needs contents as a list of typed entries.",
            index=index,
            where=where,
            surface_id=sid,
        )
    value = _v08_contents(contents, index=index, where=where, problems=warnings)
    if len(contents) == 1 and list(value) == ["."]:
        # A single "." entry sets a primitive at the path itself (as web_core v0.8 does).
        return UpdateDataModel(
            surface_id=sid,
            path=path,
            value=value["."],
            implicit_create=True,
            warnings=tuple(warnings),
        )
    return UpdateDataModel(
        surface_id=sid,
        path=path,
        value=value,
        merge=True,
        implicit_create=True,
        warnings=tuple(warnings),
    )


def _build_begin_rendering(
    wire: _BeginRenderingWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    sid = wire.surface_id
    if not sid:
        return _no_surface("beginRendering", index)
    if type(wire.root) is not str or not wire.root:
        return _problem(
            "op.malformed",
            f"Operation at index {index} needs root as a non-empty component id.",
            index=index,
            where=".beginRendering.root",
            surface_id=sid,
        )
    catalog = wire.catalog_id if type(wire.catalog_id) is str else None
    return BeginRendering(
        surface_id=sid, root=wire.root, catalog_id=catalog, warnings=tuple(warnings)
    )


def _build_delete_surface(
    wire: _DeleteSurfaceWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    if not wire.surface_id:
        return _no_surface("deleteSurface", index)
    return DeleteSurface(surface_id=wire.surface_id, warnings=tuple(warnings))


def _build_call_renderer_function(
    wire: _CallRendererFunctionWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    call = wire.call_function
    # v1.0: callFunction needs a function name and, for renderers, a catalogId (§1.2).
    if (
        not wire.function_call_id
        or type(call) is not dict
        or type(call.get("call")) is not str
        or type(call.get("catalogId")) is not str
    ):
        return _problem(
            "op.malformed",
            f"Operation at index {index} needs a functionCallId and a callFunction with "
            "string call and catalogId.",
            index=index,
            where=".callRendererFunction",
        )
    sid = wire.surface_id if type(wire.surface_id) is str else None
    return CallRendererFunction(
        function_call_id=wire.function_call_id,
        call=call,
        surface_id=sid,
        warnings=tuple(warnings),
    )


def _build_agent_function_response(
    wire: _AgentFunctionResponseWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    has_value = wire.value is not UNSET
    has_error = wire.error is not UNSET
    # Exactly one of value or error{code, message} (reference a2ui-protocol §1.2).
    if (
        not wire.function_call_id
        or has_value == has_error
        or (has_error and type(wire.error) is not dict)
    ):
        return _problem(
            "op.malformed",
            f"Operation at index {index} needs a functionCallId and exactly one of value or "
            "error (an object).",
            index=index,
            where=".agentFunctionResponse",
        )
    return AgentFunctionResponse(
        function_call_id=wire.function_call_id,
        value=wire.value,
        error=wire.error if has_error else None,
        warnings=tuple(warnings),
    )


_BUILDERS: dict[str, _Builder] = {
    "createSurface": _build_create_surface,
    "updateComponents": _build_update_components,
    "surfaceUpdate": _build_update_components,
    "updateDataModel": _build_update_data_model,
    "dataModelUpdate": _build_data_model_update,
    "beginRendering": _build_begin_rendering,
    "deleteSurface": _build_delete_surface,
    "callRendererFunction": _build_call_renderer_function,
    "agentFunctionResponse": _build_agent_function_response,
}


# --- entry points ---------------------------------------------------------------------------


def decode_operation(raw: bytes | msgspec.Raw, *, index: int) -> Operation | Diagnostic:
    """Decode one A2UI server-to-client message from its JSON bytes.

    Args:
        raw: the JSON text of one message (an object), as bytes or an undecoded
            ``msgspec.Raw`` field of an enclosing event.
        index: the message's position in its operations list, used in diagnostics.

    Returns:
        The normalised operation (possibly carrying non-fatal ``warnings``), or a
        :class:`Diagnostic` (severity ERROR) saying why the message cannot be used.
        Never raises for bad input.
    """
    try:
        envelope = _ENVELOPE_DECODER.decode(raw)
    except msgspec.ValidationError:
        pass  # JSON that is not a clean envelope: take the slow, explaining path below.
    except msgspec.DecodeError as exc:
        return _invalid_json(raw, index, exc)
    else:
        return _from_envelope(envelope, index, [])
    try:
        message = _ANY_DECODER.decode(raw)
    except msgspec.DecodeError as exc:  # the envelope check may stop before a syntax error
        return _invalid_json(raw, index, exc)
    if type(message) is not dict:
        return _problem(
            "op.malformed",
            f"Operation at index {index} is malformed: not a JSON object.",
            index=index,
        )
    return _explain(message, index)


def _invalid_json(raw: bytes | msgspec.Raw, index: int, exc: msgspec.DecodeError) -> Diagnostic:
    return Diagnostic(
        code="op.invalid_json",
        message=f"Operation at index {index} is not valid JSON: {exc}.",
        severity=Severity.ERROR,
        path=f"$[{index}]",
        raw=bytes(memoryview(raw)[:200]),
    )


def normalize_message(message: Mapping[str, Any], *, index: int) -> Operation | Diagnostic:
    """Normalise one already-decoded A2UI server-to-client message.

    Args:
        message: the message object (plain JSON values: dicts, lists, str, numbers...).
        index: the message's position in its operations list, used in diagnostics.

    Returns:
        The normalised operation (possibly carrying non-fatal ``warnings``), or a
        :class:`Diagnostic` (severity ERROR) saying why the message cannot be used.
        Never raises for bad input.
    """
    if not isinstance(message, Mapping):
        return _problem(
            "op.malformed",
            f"Operation at index {index} is malformed: not an object.",
            index=index,
        )
    as_dict = message if type(message) is dict else dict(message)
    try:
        envelope = msgspec.convert(as_dict, _Envelope)
    except msgspec.ValidationError:
        return _explain(as_dict, index)
    return _from_envelope(envelope, index, [])


def _family(version: Any, key: str, index: int) -> str | Diagnostic:
    """The version family of a message, or why it has none."""
    if version is UNSET:
        return _IMPLIED_VERSION.get(key, "v0.9")
    family = _VERSIONS.get(version) if type(version) is str else None
    if family is None:
        return _problem(
            "op.unsupported_version",
            f"Operation at index {index} has an unsupported version {version!r}.",
            index=index,
            where=".version",
        )
    return family


def _unknown_key(key: str, family: str, index: int) -> Diagnostic:
    known = _IMPLIED_VERSION.get(key)
    hint = f" ({key} is not part of A2UI {family})" if known else ""
    return _problem(
        "op.unknown",
        f'Unknown A2UI operation "{key}" at index {index}{hint}.',
        index=index,
        where=f".{key}",
    )


def _from_envelope(
    envelope: _Envelope, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    """Check the one-operation rule, then dispatch the payload."""
    present = [
        (key, payload)
        for key, attr in _ATTRIBUTES
        if (payload := getattr(envelope, attr)) is not UNSET
    ]
    if len(present) != 1:
        return _key_count(len(present), index)
    ((key, payload),) = present
    return _dispatch(key, payload, envelope.version, index, warnings)


def _dispatch(
    key: str, payload: _Wire, version: Any, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    """Check the version against the operation key, then run the payload's builder."""
    family = _family(version, key, index)
    if isinstance(family, Diagnostic):
        return family
    if key not in _FAMILY_KEYS[family]:
        return _unknown_key(key, family, index)
    for field, attr in _FOREIGN_FIELDS.get((family, key), ()):
        if getattr(payload, attr) is not UNSET:
            warnings.append(_unknown_field(key, field, family, index))
    return _BUILDERS[key](payload, family, index, warnings)


def _key_count(count: int, index: int) -> Diagnostic:
    return _problem(
        "op.no_operation" if count == 0 else "op.multiple_operations",
        f"Operation at index {index} must contain exactly one operation key (found {count}).",
        index=index,
    )


def _unknown_field(key: str, field: str, family: str, index: int) -> Diagnostic:
    return _problem(
        "op.unknown_field",
        f"Operation at index {index}: {key} has no field {field!r} in A2UI {family}; ignored.",
        index=index,
        where=f".{key}.{field}",
        severity=Severity.WARNING,
    )


def _explain(message: dict[str, Any], index: int) -> Operation | Diagnostic:
    """Slow path: say precisely what is wrong, or drop unknown fields and build anyway."""
    keys = [key for key in message if key != "version"]
    if len(keys) != 1:
        return _key_count(len(keys), index)
    (key,) = keys
    version = message.get("version", UNSET)
    family = _family(version, key, index)
    if isinstance(family, Diagnostic):
        return family
    if key not in _FAMILY_KEYS[family]:
        return _unknown_key(key, family, index)
    payload = message[key]
    if type(payload) is not dict:
        return _problem(
            "op.malformed",
            f"Operation at index {index} has a malformed payload (not an object).",
            index=index,
            where=f".{key}",
        )
    if "surfaceId" in _PAYLOAD_FIELDS[key] and key != "callRendererFunction":
        sid = payload.get("surfaceId")
        if type(sid) is not str or not sid:
            return _no_surface(key, index)
    warnings = [
        _unknown_field(key, field, family, index)
        for field in payload
        if field not in _PAYLOAD_FIELDS[key]
    ]
    known = {field: value for field, value in payload.items() if field in _PAYLOAD_FIELDS[key]}
    wire_type = _OPERATION_KEYS[key][1]
    try:
        wire = msgspec.convert(known, wire_type)
    except msgspec.ValidationError as exc:
        return _problem(
            "op.malformed",
            f"Operation at index {index} has a malformed {key} payload: {exc}.",
            index=index,
            where=f".{key}",
            surface_id=payload.get("surfaceId") if type(payload.get("surfaceId")) is str else None,
        )
    return _dispatch(key, wire, version, index, warnings)
