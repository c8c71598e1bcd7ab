"""Surface state: immutable values, and the semantics of each A2UI operation on them.

Owns :class:`Surface` and the pure functions that apply normalised operations to a
mapping of surfaces. Every function returns new values and never mutates its input;
unchanged parts (component dicts, data subtrees, whole surfaces, the mapping itself)
keep their identity so later stages can skip work with an ``is`` check.

Rules, all in this module (reference assistant-ui-converter §1e unless noted):

- ``createSurface`` (re)creates the surface: empty, then the v1.0 inline data model,
  then the inline components.
- ``updateComponents`` replaces each component by id, whole; a later duplicate in one
  operation wins. An equal component keeps the old object.
- ``updateDataModel`` writes at a JSON Pointer (see :mod:`a2ui_stream._tree.pointer`); an
  unset value deletes (A2UI spec); v0.8 ``contents`` merge into the target.
- ``beginRendering`` (v0.8) names the root, creating the surface if needed, never resetting.
- ``deleteSurface`` removes the surface; an absent one is no error.
- Updates to a missing surface are skipped with ``op.missing_surface``, except v0.8
  ones, which create it (v0.8 has no create message).
- Limits: a new surface beyond ``max_live_surfaces``, or a data write that would make
  the model's encoded size exceed ``max_data_model_bytes``, is skipped with a diagnostic.
- Bad operations are skipped with a :class:`Diagnostic`; the rest still apply; nothing
  raises.

Must not import: conversion, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._state.measure import (
    MAX_REMEASURED,
    changes_between,
    encoded_size,
    nests_past,
    remeasured,
)
from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._tree.depth import deeper_than
from a2ui_stream._tree.gaps import count as count_gaps
from a2ui_stream._tree.pointer import PointerError, get, parse, remove, write
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
)
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import DICTS, FrozenDict, freeze
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from a2ui_stream._tree.patch import DataChange

__all__ = [
    "ComponentChange",
    "Surface",
    "Surfaces",
    "apply_operation",
    "apply_operations",
    "too_many_operations",
    "with_components",
]


class Surface(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One surface as its operations so far built it.

    Attributes:
        surface_id: the surface's id.
        version: A2UI version of the operation that created it.
        components: components by id. Never mutated: an update makes a new mapping and
            keeps the unchanged :class:`Component` objects.
        data_model: the data model; ``UNSET`` when none was ever written (distinct from null).
        root_id: id of the root component: ``"root"`` for v0.9/v1.0, the ``beginRendering``
            root for v0.8, ``None`` while a v0.8 surface has not been told to render.
        catalog_id: the catalog named at creation, if any.
        data_bytes: estimated encoded size of ``data_model`` in bytes, kept up to date by
            each write so the size limit costs one compare, not a re-encode of the model.
        gaps: how many :data:`~a2ui_stream._tree.gaps.GAP` slots the lists of
            ``data_model`` hold (slots a write skipped, deleted elements: JavaScript's
            holes, absent when read, ``null`` when encoded), counted by each write.
            At 0 there is none, so the converter's fast paths need not look.
    """

    surface_id: str
    version: str
    components: Mapping[str, Component]
    data_model: Any | UnsetType = UNSET
    root_id: str | None = "root"
    catalog_id: str | None = None
    data_bytes: int = 0
    gaps: int = 0


Surfaces: TypeAlias = Mapping[str, Surface]
"""Surfaces by surfaceId, in creation order. Never mutated: every change makes a new mapping."""


class ComponentChange(NamedTuple):
    """A claim that the components ``after`` differ from ``before`` only at ``ids``.

    Made where an edit is applied by what it changed; it spares the converter a walk
    over every component to find them. Whoever uses it checks ``before`` and ``after``
    by identity first, as :class:`~a2ui_stream._tree.patch.DataChange` claims are.

    Attributes:
        before: a surface's components before the change.
        after: its components after it.
        ids: the ids whose component was added or replaced.
        grown: those of ``ids`` whose component is the one ``before`` held with
            references appended to its ``children`` list and nothing else changed (an
            agent streaming a list), so that the converter need not compare the old
            references to know it.
    """

    before: Mapping[str, Component]
    after: Mapping[str, Component]
    ids: frozenset[str]
    grown: frozenset[str] = frozenset()


_ENCODER = msgspec.json.Encoder()
#: What a gap adds to the encoded model: ``null`` and a comma.
_GAP_BYTES = 5
_EMPTY: Mapping[str, Component] = FrozenDict()
#: Components from which a surface keeps them in a persistent map. An update of the map
#: costs about a microsecond an id at any size; copying a dict costs 0.3 µs at 150
#: entries and 2.5 µs at 1,000, so below this a dict copied whole is cheaper, and above
#: it a surface streamed one component at a time would copy all it holds at every
#: delta (issue 12; ``bench_marginal.py append``).
PERSISTENT_AT: Final = 512
_NO_SURFACES: Surfaces = FrozenDict()


class _Batch:
    """The surfaces being changed by one call: copied on the first write, never before.

    The copy is frozen from the start, and filled only until :meth:`result` hands it out.
    """

    __slots__ = ("base", "known", "nesting", "reference", "work")

    def __init__(
        self,
        base: Surfaces,
        reference: Surfaces = _NO_SURFACES,
        known: Sequence[DataChange] = (),
        nesting: int | None = None,
    ) -> None:
        self.base = base
        self.reference = reference
        self.known = known
        self.nesting = nesting
        self.work: FrozenDict | None = None

    def get(self, surface_id: str) -> Surface | None:
        return (self.base if self.work is None else self.work).get(surface_id)

    def __len__(self) -> int:
        return len(self.base if self.work is None else self.work)

    def put(self, surface: Surface) -> None:
        if self.get(surface.surface_id) is surface:
            return
        if self.work is None:
            self.work = FrozenDict(self.base)
        dict.__setitem__(self.work, surface.surface_id, surface)

    def drop(self, surface_id: str) -> None:
        if self.get(surface_id) is None:
            return
        if self.work is None:
            self.work = FrozenDict(self.base)
        dict.__delitem__(self.work, surface_id)

    def result(self) -> Surfaces:
        return self.base if self.work is None else self.work


def _problem(code: Code, message: str, index: int, surface_id: str | None) -> Diagnostic:
    return Diagnostic(
        code=code,
        message=message,
        severity=Severity.ERROR,
        path=f"$[{index}]",
        surface_id=surface_id,
    )


def _room_for(batch: _Batch, surface_id: str, index: int, limits: Limits) -> Diagnostic | None:
    """Refuse a new surface beyond ``max_live_surfaces``."""
    if batch.get(surface_id) is not None or len(batch) < limits.max_live_surfaces:
        return None
    return _problem(
        Code.LIMIT_LIVE_SURFACES,
        f"Operation at index {index} would create surface {surface_id!r} beyond the limit of "
        f"{limits.max_live_surfaces} live surfaces; skipped.",
        index,
        surface_id,
    )


def _write(
    surface: Surface,
    path: str,
    value: Any | UnsetType,
    *,
    merge: bool,
    index: int,
    limits: Limits,
    reference: Surface | None = None,
    known: Sequence[DataChange] = (),
    nesting: int | None = None,
) -> Surface | Diagnostic:
    """Set, merge or (``value`` unset) delete at ``path``, within the size limit.

    ``nesting``: a bound on how deeply ``value`` nests, known from its text.
    """
    sid = surface.surface_id
    try:
        tokens = parse(path, escapes=False)  # a "~" escaping nothing is a key's, upstream
    except PointerError as exc:
        return _problem(Code.OP_BAD_PATH, f"Operation at index {index}: {exc}.", index, sid)
    # Depth first, before anything walks the value: every walk of the model, the size
    # below included, recurses once per level.
    room = limits.max_data_depth - len(tokens)
    if room < 0:
        return _too_deep(f"writes through a path of {len(tokens)} segments", index, sid, limits)
    shallow = nesting is not None and nesting <= room
    doc = surface.data_model
    old: Any = get(doc, tokens) if tokens else doc
    value = freeze(value)  # kept in the state; a decoded value is frozen already
    if merge and isinstance(value, dict):
        value = FrozenDict({**old, **value}) if type(old) in DICTS else value
    old_size: int | None
    new_size: int | None
    if not tokens:
        # The whole model: its old size is already known, and a value that shares most
        # of the old model (a patched copy) is measured by what changed.
        base = reference if reference is not None else surface
        changes = changes_between(base.data_model, value, known)
        if not shallow and nests_past(value, room, changes):
            return _too_deep("would nest its value too deeply", index, sid, limits)
        old_size = surface.data_bytes
        if changes is None or len(changes) > MAX_REMEASURED:
            new_size = encoded_size(value)  # measuring many changes costs more than encoding it all
        else:
            new_size = remeasured(base.data_model, value, base.data_bytes, changes)
    else:
        if not shallow and deeper_than(value, room):
            return _too_deep("would nest its value too deeply", index, sid, limits)
        old_size, new_size = encoded_size(old), encoded_size(value)
    if old_size is None or new_size is None:
        return _problem(
            Code.OP_MALFORMED,
            f"Operation at index {index} has a value that is not JSON.",
            index,
            sid,
        )
    try:
        new_doc, opened = remove(doc, tokens) if value is UNSET else write(doc, tokens, value)
    except PointerError as exc:
        return _problem(Code.OP_BAD_PATH, f"Operation at index {index}: {exc}.", index, sid)
    if not tokens:
        estimate = new_size
    else:
        # A new key also costs its quoted name, a colon and a comma; a gap opened
        # prints as ``null,``.
        added = len(tokens[-1]) + 4 if old is UNSET and value is not UNSET else 0
        if opened > 0:
            added += opened * _GAP_BYTES
        estimate = max(surface.data_bytes - old_size + new_size + added, 0)
    if estimate > limits.max_data_model_bytes and value is not UNSET:
        return _problem(
            Code.LIMIT_DATA_MODEL_BYTES,
            f"Operation at index {index} would grow the data model of surface {sid!r} to about "
            f"{estimate} bytes, beyond the limit of {limits.max_data_model_bytes}; skipped.",
            index,
            sid,
        )
    if new_doc is doc:
        return surface
    # The model's gaps, counted where the write changed it: the old value at the path
    # goes, the new one comes (decoded JSON holds none; a v0.8 merge keeps the old
    # members, and with them any gap), and ``opened`` is what the path gained. Without
    # gaps before, only ``opened`` can add any: nothing is walked to count.
    gaps = surface.gaps + opened
    if surface.gaps:
        gaps += count_gaps(value) - count_gaps(old)
    return msgspec.structs.replace(surface, data_model=new_doc, data_bytes=estimate, gaps=gaps)


def _too_deep(what: str, index: int, sid: str, limits: Limits) -> Diagnostic:
    return _problem(
        Code.LIMIT_DATA_DEPTH,
        f"Operation at index {index} {what}, past the limit of {limits.max_data_depth} "
        f"levels of data of surface {sid!r}; skipped.",
        index,
        sid,
    )


def _upsert(
    surface: Surface,
    components: Sequence[Component],
    index: int,
    limits: Limits,
    *,
    shallow: bool = False,
) -> tuple[Surface, list[Diagnostic]]:
    """Replace components by id; equal ones keep the old object, a no-op keeps the surface.

    A new or changed component nesting deeper than ``max_data_depth`` is skipped (an
    equal one was checked when it first came); ``shallow``: none can, which the
    operation's text proved (see :func:`apply_operation`).
    """
    old = surface.components
    problems: list[Diagnostic] = []
    if shallow and not old and components:
        # A fresh surface: nothing to compare with or check. An id sent twice takes the
        # loop, whose later entries compare with the earlier ones.
        fresh = {component.id: component for component in components}
        if len(fresh) == len(components):
            return msgspec.structs.replace(surface, components=with_components(old, fresh)), []
    new: dict[str, Component] | None = None
    limit = limits.max_data_depth
    for component in components:
        cid = component.id
        previous = old.get(cid) if new is None or cid not in new else new[cid]
        # Safe to compare: ``previous`` is within the depth limit, and equality stops
        # at the shallower side.
        if previous is component or previous == component:
            continue
        if not shallow and deeper_than(component.props, limit):
            problem = _problem(
                Code.LIMIT_DATA_DEPTH,
                f'Component "{component.id}" in the operation at index {index} nests deeper '
                f"than the limit of {limit} levels; skipped.",
                index,
                surface.surface_id,
            )
            problems.append(msgspec.structs.replace(problem, component_id=cid))
            continue
        if new is None:
            new = {}
        new[cid] = component
    if new is None:
        return surface, problems
    return msgspec.structs.replace(surface, components=with_components(old, new)), problems


def with_components(
    components: Mapping[str, Component], updates: dict[str, Component]
) -> Mapping[str, Component]:
    """``components`` with ``updates`` stored over them, new ids last, in their order.

    Returns a new mapping and leaves ``components`` as it was: a frozen dict while the
    result is small, an :class:`~a2ui_stream._state.persistent.OrderedMap` from
    :data:`PERSISTENT_AT` entries on, so that an update costs what it changes.
    """
    # Stored, so frozen; each component once, as it is stored, and not again when an
    # equal one is re-sent (the caller keeps the stored one).
    for cid, component in updates.items():
        if type(component.props) is dict:
            updates[cid] = Component(cid, component.component, freeze(component.props))
    if type(components) is OrderedMap:
        for cid, component in updates.items():
            components = components.set(cid, component)
        return components
    merged = FrozenDict(components)
    dict.update(merged, updates)
    return OrderedMap(merged) if len(merged) >= PERSISTENT_AT else merged


def _missing(op: UpdateComponents | UpdateDataModel, index: int) -> Diagnostic:
    return _problem(
        Code.OP_MISSING_SURFACE,
        f'Operation at index {index} references missing surface "{op.surface_id}".',
        index,
        op.surface_id,
    )


def _target(
    batch: _Batch, op: UpdateComponents | UpdateDataModel, index: int, limits: Limits
) -> Surface | Diagnostic:
    """The surface an update applies to, created first for v0.8 (implicit create)."""
    surface = batch.get(op.surface_id)
    if surface is not None:
        return surface
    if not op.implicit_create:
        return _missing(op, index)
    refused = _room_for(batch, op.surface_id, index, limits)
    if refused is not None:
        return refused
    return Surface(surface_id=op.surface_id, version="v0.8", components=_EMPTY, root_id=None)


_Handler: TypeAlias = Callable[[_Batch, Any, int, Limits], list[Diagnostic]]


def _fill(
    surface: Surface,
    writes: Iterable[tuple[str, Any]],
    components: Sequence[Component],
    *,
    index: int,
    limits: Limits,
    problems: list[Diagnostic],
    shallow: bool = False,
) -> Surface:
    """Write data (each a whole value at its path), then upsert components.

    A refused write or component is added to ``problems`` and the rest still apply;
    ``shallow`` as :func:`_upsert` takes it.
    """
    for path, value in writes:
        written = _write(surface, path, value, merge=False, index=index, limits=limits)
        if isinstance(written, Diagnostic):
            problems.append(written)
        else:
            surface = written
    surface, found = _upsert(surface, components, index, limits, shallow=shallow)
    problems.extend(found)
    return surface


def _create_surface(
    batch: _Batch, op: CreateSurface, index: int, limits: Limits
) -> list[Diagnostic]:
    problems = list(op.warnings)
    refused = _room_for(batch, op.surface_id, index, limits)
    if refused is not None:
        return [*problems, refused]
    surface = Surface(
        surface_id=op.surface_id,
        version=op.version,
        components=_EMPTY,
        catalog_id=op.catalog_id,
    )
    # v1.0 inline data model first, then components (a2ui-core's order, reference §1.2).
    if op.data_model is not UNSET or op.components:  # else nothing inline to fill in
        model = () if op.data_model is UNSET else (("", op.data_model),)
        comps = op.components or ()
        surface = _fill(surface, model, comps, index=index, limits=limits, problems=problems)
    batch.put(surface)
    return problems


def _update_components(
    batch: _Batch, op: UpdateComponents, index: int, limits: Limits
) -> list[Diagnostic]:
    problems = list(op.warnings)
    surface = _target(batch, op, index, limits)
    if isinstance(surface, Diagnostic):
        return [*problems, surface]
    # v0.8 props are rewritten from their wire spelling: only v0.9 and v1.0 ones are
    # the very values the operation's text spells, which its nesting bound covers.
    nesting = batch.nesting
    shallow = not op.implicit_create and nesting is not None and nesting <= limits.max_data_depth
    fill = _fill(
        surface,
        op.initial_data,
        op.components,
        index=index,
        limits=limits,
        problems=problems,
        shallow=shallow,
    )
    batch.put(fill)
    return problems


def _update_data_model(
    batch: _Batch, op: UpdateDataModel, index: int, limits: Limits
) -> list[Diagnostic]:
    problems = list(op.warnings)
    surface = _target(batch, op, index, limits)
    if isinstance(surface, Diagnostic):
        return [*problems, surface]
    written = _write(
        surface,
        op.path,
        op.value,
        merge=op.merge,
        index=index,
        limits=limits,
        reference=batch.reference.get(op.surface_id),
        known=batch.known,
        # v0.8 values are rewritten from their wire spelling, which does not bound them.
        nesting=None if op.implicit_create else batch.nesting,
    )
    if isinstance(written, Diagnostic):
        return [*problems, written]
    batch.put(written)
    return problems


def _begin_rendering(
    batch: _Batch, op: BeginRendering, index: int, limits: Limits
) -> list[Diagnostic]:
    problems = list(op.warnings)
    surface = batch.get(op.surface_id)
    if surface is None:
        refused = _room_for(batch, op.surface_id, index, limits)
        if refused is not None:
            return [*problems, refused]
        surface = Surface(
            surface_id=op.surface_id, version="v0.8", components=_EMPTY, root_id=op.root
        )
    catalog = op.catalog_id if op.catalog_id is not None else surface.catalog_id
    if surface.root_id != op.root or surface.catalog_id != catalog:
        surface = msgspec.structs.replace(surface, root_id=op.root, catalog_id=catalog)
    batch.put(surface)
    return problems


def _delete_surface(
    batch: _Batch, op: DeleteSurface, index: int, limits: Limits
) -> list[Diagnostic]:
    del index, limits
    batch.drop(op.surface_id)
    return list(op.warnings)


def _carried(
    batch: _Batch,
    op: CallRendererFunction | AgentFunctionResponse,
    index: int,
    limits: Limits,
) -> list[Diagnostic]:
    """Function calls and responses travel with the stream but change no surface."""
    del batch, index, limits
    return list(op.warnings)


def _passed_on(batch: _Batch, op: Diagnostic, index: int, limits: Limits) -> list[Diagnostic]:
    """A message the decoder already rejected: report it, change nothing."""
    del batch, index, limits
    return [op]


#: One handler per operation type: every state transition lives in this table.
_HANDLERS: dict[type, _Handler] = {
    CreateSurface: _create_surface,
    UpdateComponents: _update_components,
    UpdateDataModel: _update_data_model,
    BeginRendering: _begin_rendering,
    DeleteSurface: _delete_surface,
    CallRendererFunction: _carried,
    AgentFunctionResponse: _carried,
    Diagnostic: _passed_on,
}


def apply_operation(
    surfaces: Surfaces,
    op: Operation,
    *,
    index: int,
    limits: Limits,
    reference: Surfaces = _NO_SURFACES,
    known: Sequence[DataChange] = (),
    nesting: int | None = None,
) -> tuple[Surfaces, tuple[Diagnostic, ...]]:
    """Apply one normalised operation to a mapping of surfaces.

    Args:
        surfaces: the current surfaces; not modified.
        op: the operation (a :class:`Diagnostic` is accepted too and passed on).
        index: the operation's position in its list, for diagnostics.
        limits: the bounds to enforce (live surfaces, data model size).
        reference: surfaces an earlier version of the same operations built, if any;
            a data model that shares most of its reference's (a patched copy) is
            measured against the size limit by what changed, not encoded whole.
        known: what is known of how the data written differs from the reference's
            (read off a patch); it spares the diff that would find it.
        nesting: a bound on how deeply the values of ``op`` nest, when the caller holds
            the text it was decoded from
            (:func:`~a2ui_stream._tree.depth.text_depth_bound`); within
            ``max_data_depth``, the components of an ``updateComponents`` and the value
            of an ``updateDataModel`` are not walked to check their depth.

    Returns:
        The new surfaces (the same mapping object when nothing changed) and the
        diagnostics: the operation's own decode warnings, then anything that made
        this call skip it. Never raises for bad input.
    """
    batch = _Batch(surfaces, reference, known, nesting)
    problems = _HANDLERS[type(op)](batch, op, index, limits)
    return batch.result(), tuple(problems)


def apply_operations(
    surfaces: Surfaces, ops: Iterable[Operation | Diagnostic], *, limits: Limits
) -> tuple[Surfaces, tuple[Diagnostic, ...]]:
    """Apply a list of operations in order; a bad one is skipped and the rest still apply.

    Args:
        surfaces: the current surfaces; not modified.
        ops: operations and decode diagnostics in list order; a diagnostic stands for
            a message that could not be decoded and is passed on as it is.
        limits: the bounds to enforce; beyond ``max_operations`` entries the rest are
            skipped with one diagnostic.

    Returns:
        The new surfaces (the same mapping object when nothing changed) and every
        diagnostic in order. Never raises for bad input.
    """
    batch = _Batch(surfaces)
    problems: list[Diagnostic] = []
    for index, op in enumerate(ops):
        if index == limits.max_operations:
            problems.append(too_many_operations(limits))
            break
        problems.extend(_HANDLERS[type(op)](batch, op, index, limits))
    return batch.result(), tuple(problems)


def too_many_operations(limits: Limits) -> Diagnostic:
    """The one report of a list of operations cut at ``max_operations``.

    Every list (a snapshot's, a stored message's, a caller's) is cut the same way.
    """
    count = limits.max_operations
    return Diagnostic(
        code=Code.LIMIT_OPERATIONS,
        message=f"More than {count} operations in one list; those from index {count} on "
        "were skipped.",
        severity=Severity.ERROR,
        path=f"$[{count}]",
    )
