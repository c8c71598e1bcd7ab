"""A2UI server-to-client messages of every version, normalised into one operation form.

Owns the version-free :data:`Operation` values below, which every later stage consumes,
and the two entry points that make them: :func:`decode_operation` (JSON bytes) and
:func:`normalize_message` (an already-decoded object). Each entry point opens the
message with :mod:`a2ui_stream._wire.envelope` (which operation, which version family, a
validated payload) and then runs the one builder of that operation key, so the
semantics live once. v0.8 payloads are rewritten into v0.9 spelling by
:mod:`a2ui_stream._wire.legacy`, so no later stage knows v0.8 existed. v1.0 ``{"@path"}``
bindings are *not* rewritten (that would copy every prop); the converter reads both
spellings.

Versions are reported by family: ``"v0.8"``, ``"v0.9"`` (also for ``"v0.9.1"``, whose
messages are the same) and ``"v1.0"`` (also for the ``"v0.10"`` draft it was renamed from).

Speed: a 4,000-component surface is one list of 4,000 JSON objects. When every entry is
an object with a non-empty string ``id`` and ``component`` (the common case), the
components are checked and built by C loops (``map``, ``str.join``) with no Python code
per component; only a list holding a bad entry, or a v1.0 ``Surface``/``metadata``
entry, walks the entries one by one to report each exactly
(``benchmarks/bench_operations.py`` measures it against a plain msgspec decode).

Imports :mod:`a2ui_stream._wire.envelope`, :mod:`a2ui_stream._wire.legacy` and
:mod:`a2ui_stream._wire.problems`, none of which imports this module back. Must not import
state, conversion or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from itertools import repeat, starmap
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._wire import legacy
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.envelope import (
    bad_path,
    data_path,
    metadata_problem,
    open_bytes,
    open_object,
)
from a2ui_stream._wire.frozen import DICTS, LISTS, freeze
from a2ui_stream._wire.problems import bad_component, no_surface, problem

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from a2ui_stream._wire.envelope import (
        AgentFunctionResponseWire,
        BeginRenderingWire,
        CallRendererFunctionWire,
        CreateSurfaceWire,
        DataModelUpdateWire,
        DeleteSurfaceWire,
        Opened,
        SurfaceUpdateWire,
        UpdateComponentsWire,
        UpdateDataModelWire,
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
    "plain_components",
]

_Warnings: TypeAlias = tuple[Diagnostic, ...]


class Component(msgspec.Struct, frozen=True, gc=False):
    """One component of a surface's adjacency list, in v0.9 spelling.

    Built positionally (``Component(id, component, props)``) as well as by keyword, so
    that a whole list is built by one ``map`` in C. Not tracked by the cyclic garbage
    collector (``gc=False``): a component never takes part in a reference cycle (its
    props are JSON values that are never mutated), and a 4,000-component surface would
    otherwise add 4,000 objects to every collection (``benchmarks/bench_operations.py``).

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
    return _build(open_bytes(raw, index), index)


def normalize_message(message: Mapping[str, Any], *, index: int) -> Operation | Diagnostic:
    """Normalise one already-decoded A2UI server-to-client message.

    Args:
        message: the message object (plain JSON values: dicts, lists, str, numbers...).
            Component objects are shared, not copied, and nothing is changed.
        index: the message's position in its operations list, used in diagnostics.

    Returns:
        The normalised operation (possibly carrying non-fatal ``warnings``), or a
        :class:`Diagnostic` (severity ERROR) saying why the message cannot be used.
        Never raises for bad input.
    """
    return _build(open_object(message, index), index)


def _build(opened: Opened | Diagnostic, index: int) -> Operation | Diagnostic:
    if type(opened) is Diagnostic:  # not isinstance: msgspec's metaclass, per operation
        return opened
    key, payload, family, warnings = opened
    return _BUILDERS[key](payload, family, index, warnings)


# --- components -----------------------------------------------------------------------------

_GET = dict.__getitem__
_HAS = dict.__contains__
_JOIN = "".join


def _components(
    items: list[Any], *, family: str, index: int, where: str, surface_id: str
) -> tuple[tuple[Component, ...], list[Diagnostic], tuple[tuple[str, Any], ...]]:
    """Validate a component list; malformed entries are left out and reported.

    Returns:
        The valid components, the problems, and v0.8 initial data writes.
    """
    if family == "v0.8":
        triples, problems, seeds = legacy.rewrite_components(
            items, index=index, where=where, surface_id=surface_id
        )
        return tuple(starmap(Component, triples)), problems, seeds
    plain = _plain_components(items, strict_v10=family == "v1.0")
    if plain is not None:
        return plain, [], ()
    components, problems = _checked_components(items, family, index, where, surface_id)
    return components, problems, ()


def plain_components(items: list[Any]) -> tuple[Component, ...] | None:
    """Components of entries that every family accepts as they are; else ``None``.

    What :func:`normalize_message` builds from the entries of a v0.9 or v1.0
    ``updateComponents`` with nothing to report, checked by the stricter v1.0 rules:
    for an edit of a few entries of a list that decoded cleanly, which need not
    decode the whole operation again.

    Args:
        items: the decoded component entries.

    Returns:
        One component per entry, in order; ``None`` when an entry would be reported.
    """
    return _plain_components(items, strict_v10=True)


def _plain_components(items: list[Any], *, strict_v10: bool) -> tuple[Component, ...] | None:
    """Build the components in C when every entry is plainly valid; else ``None``.

    Each ``map`` below is a loop in C: no Python code runs per component. ``None`` means
    some entry needs a closer look (not an object, a missing or empty id or type, or a
    v1.0 ``Surface`` type or ``metadata``), and the caller walks them one by one.
    """
    try:
        ids = list(map(_GET, items, repeat("id")))
        types = list(map(_GET, items, repeat("component")))
        # join() raises TypeError unless every value is a str: a type check in one C call.
        _JOIN(ids)
        _JOIN(types)
    except (KeyError, TypeError):  # an entry that is not a dict, or lacks id or component
        return None
    if "" in ids or "" in types:
        return None
    if strict_v10 and ("Surface" in types or any(map(_HAS, items, repeat("metadata")))):
        return None
    return tuple(map(Component, ids, types, items))


def _checked_components(
    items: list[Any], family: str, index: int, where: str, surface_id: str
) -> tuple[tuple[Component, ...], list[Diagnostic]]:
    """Slow path: check each entry, keep the good ones, report each bad one exactly."""
    out: list[Component] = []
    problems: list[Diagnostic] = []
    strict_v10 = family == "v1.0"
    for j, item in enumerate(items):
        if type(item) in DICTS:
            cid = item.get("id")
            ctype = item.get("component")
            if type(cid) is str and cid and type(ctype) is str and ctype:
                if strict_v10 and (ctype == "Surface" or "metadata" in item):
                    found = _v10_component_problem(item, index, f"{where}[{j}]", surface_id)
                    if found is not None:
                        problems.append(found)
                        if found.severity is Severity.ERROR:
                            continue
                out.append(Component(cid, ctype, item))
                continue
        problems.append(bad_component(item, family, index, f"{where}[{j}]", surface_id))
    return tuple(out), problems


def _v10_component_problem(
    item: dict[str, Any], index: int, where: str, surface_id: str
) -> Diagnostic | None:
    """Check the v1.0-only component rules: reserved ``Surface``, metadata extensions."""
    if item["component"] == "Surface":
        return problem(
            Code.COMPONENT_RESERVED,
            f'Component at {where} uses the reserved type "Surface"; it was left out.',
            index=index,
            where=where,
            surface_id=surface_id,
            component_id=item["id"],
        )
    return metadata_problem(item["metadata"], index=index, where=f"{where}.metadata")


# --- builders: one per operation key ---------------------------------------------------------

_Builder: TypeAlias = "Callable[[Any, str, int, list[Diagnostic]], Operation | Diagnostic]"


def _build_create_surface(
    wire: CreateSurfaceWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    sid = wire.surface_id
    if not sid:
        return no_surface("createSurface", index)
    components: tuple[Component, ...] | None = None
    data_model: Any = UNSET
    if family == "v1.0":
        if wire.components is not UNSET:
            components = _inline_components(wire.components, index, sid, warnings)
        if wire.data_model is not UNSET:
            # Kept whatever it is, as upstream keeps it: the root model may be any value.
            data_model = freeze(wire.data_model)
            if type(wire.data_model) not in DICTS:
                warnings.append(
                    problem(
                        Code.OP_BAD_DATA_MODEL,
                        f"Operation at index {index} has a dataModel that is not an object "
                        "(the spec asks for one); kept as the root model.",
                        index=index,
                        where=".createSurface.dataModel",
                        severity=Severity.WARNING,
                        surface_id=sid,
                    )
                )
        if wire.metadata is not UNSET:
            found = metadata_problem(wire.metadata, index=index, where=".createSurface.metadata")
            if found is not None:
                warnings.append(found)
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
    if type(items) not in LISTS:
        warnings.append(
            problem(
                Code.OP_BAD_COMPONENTS,
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
    return problem(
        Code.OP_EMPTY_COMPONENTS,
        f"Operation at index {index} has an empty component list.",
        index=index,
        where=where,
        severity=Severity.WARNING,
        surface_id=sid,
    )


def _build_update_components(
    wire: UpdateComponentsWire | SurfaceUpdateWire,
    family: str,
    index: int,
    warnings: list[Diagnostic],
) -> Operation | Diagnostic:
    key = "surfaceUpdate" if family == "v0.8" else "updateComponents"
    sid = wire.surface_id
    if not sid:
        return no_surface(key, index)
    where = f".{key}.components"
    if type(wire.components) not in LISTS:
        return problem(
            Code.OP_BAD_COMPONENTS,
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


def _build_update_data_model(
    wire: UpdateDataModelWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    sid = wire.surface_id
    if not sid:
        return no_surface("updateDataModel", index)
    path = data_path(wire.path, v08=False)
    if path is None:
        return bad_path("updateDataModel", index, sid)
    # The first of contents, value and data that is given, as upstream reads it.
    value = wire.contents
    if value is UNSET:
        value = wire.value if wire.value is not UNSET else wire.data
    if family == "v1.0":
        # v1.0: value is required and null deletes (reference a2ui-protocol §1.2).
        if value is UNSET:
            return problem(
                Code.OP_NO_VALUE,
                f"Operation at index {index} has no data model value (v1.0 requires one; "
                "null deletes).",
                index=index,
                where=".updateDataModel",
                surface_id=sid,
            )
        if value is None:
            value = UNSET
    # v0.9: an absent value deletes, null is stored (reference a2ui-protocol §1.1). The
    # value is frozen here, where it is made, as the state will keep it: the bucket's
    # record of what was written and the data model then hold the same objects.
    value = freeze(value)
    return UpdateDataModel(surface_id=sid, path=path, value=value, warnings=tuple(warnings))


def _build_data_model_update(
    wire: DataModelUpdateWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    sid = wire.surface_id
    if not sid:
        return no_surface("dataModelUpdate", index)
    path = data_path(wire.path, v08=True)
    if path is None:
        return bad_path("dataModelUpdate", index, sid)
    contents = wire.contents
    where = ".dataModelUpdate.contents"
    if type(contents) not in LISTS:
        return problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} needs contents as a list of typed entries.",
            index=index,
            where=where,
            surface_id=sid,
        )
    value, merge = legacy.rewrite_contents(contents, index=index, where=where, problems=warnings)
    return UpdateDataModel(
        surface_id=sid,
        path=path,
        value=freeze(value),
        merge=merge,
        implicit_create=True,
        warnings=tuple(warnings),
    )


def _build_begin_rendering(
    wire: BeginRenderingWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    sid = wire.surface_id
    if not sid:
        return no_surface("beginRendering", index)
    if type(wire.root) is not str or not wire.root:
        return problem(
            Code.OP_MALFORMED,
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
    wire: DeleteSurfaceWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    if not wire.surface_id:
        return no_surface("deleteSurface", index)
    return DeleteSurface(surface_id=wire.surface_id, warnings=tuple(warnings))


def _build_call_renderer_function(
    wire: CallRendererFunctionWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    call = wire.call_function
    # v1.0: callFunction needs a function name and, for renderers, a catalogId (§1.2).
    if (
        not wire.function_call_id
        or type(call) not in DICTS
        or type(call.get("call")) is not str
        or type(call.get("catalogId")) is not str
    ):
        return problem(
            Code.OP_MALFORMED,
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
    wire: AgentFunctionResponseWire, family: str, index: int, warnings: list[Diagnostic]
) -> Operation | Diagnostic:
    del family
    has_value = wire.value is not UNSET
    has_error = wire.error is not UNSET
    # Exactly one of value or error{code, message} (reference a2ui-protocol §1.2).
    if (
        not wire.function_call_id
        or has_value == has_error
        or (has_error and type(wire.error) not in DICTS)
    ):
        return problem(
            Code.OP_MALFORMED,
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
