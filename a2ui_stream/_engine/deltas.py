"""Deltas that edit one component list: applied by what they changed, not replayed.

Owns the fast path of an ``ACTIVITY_DELTA`` whose patch only appends entries to the
``components`` of one ``updateComponents`` operation, or edits inside entries already
there, keeping each entry's id: how an agent streams a surface one component at a
time. Replaying such an operation whole, as any other change to an operation is, costs
a decode and an upsert of every component it holds at every delta, so a surface built
in ``n`` deltas cost ``n²`` (issue 12). Here the patch says which entries changed
(:func:`component_edits`), and only those are decoded and stored over the surfaces the
operation built last time (:func:`apply_edits`), with the same result the replay gives.

That holds when the operation decoded and applied last time with nothing to report
and named each component id once (the reducer records such operations in
:attr:`~a2ui_stream._state.stream.Bucket.upserts`), and the new entries decode cleanly
too; anything else returns ``None`` and the operation is replayed as before.

Must not import: the reducer, conversion, request or shell modules. Does no I/O.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import msgspec

from a2ui_stream._state.stream import OPERATIONS_KEY
from a2ui_stream._state.surface import ComponentChange, with_components
from a2ui_stream._tree.pointer import PointerError, parse
from a2ui_stream._wire.a2ui import UpdateComponents, plain_components
from a2ui_stream._wire.frozen import DICTS, LISTS, FrozenDict, FrozenList, freeze
from a2ui_stream._wire.numbers import JsDecoder

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from a2ui_stream._state.stream import Bucket, Surfaces
    from a2ui_stream._state.surface import Surface
    from a2ui_stream._wire.a2ui import Component, Operation

__all__ = [
    "Edit",
    "Edits",
    "apply_edits",
    "component_edits",
    "content_of",
    "edit_first",
    "edited_operation",
    "is_upsert",
    "untouched_operations",
]

_KEY = "updateComponents"
_COMPONENTS = "components"
#: Tokens of ``/a2ui_operations/<i>/updateComponents/components/<j>``.
_ENTRY_DEPTH = 5
#: The tokens after an entry's that append a reference to its children.
_CHILDREN_END = ("children", "-")
_ID = attrgetter("id")
_RAW = msgspec.Raw
_JSON = JsDecoder()


class Edit(NamedTuple):
    """What a patch did to the component list of one operation.

    Attributes:
        changed: positions of entries edited in place (below ``old_length``).
        old_length: the list's length before the patch.
        new_length: its length after; the entries from ``old_length`` on were appended.
        grown: those of ``changed`` whose only edits appended to the entry's
            ``children`` (``add`` at ``.../children/-``).
    """

    changed: frozenset[int]
    old_length: int
    new_length: int
    grown: frozenset[int] = frozenset()


def component_edits(content: Any, patch: Sequence[Any]) -> dict[int, Edit] | None:
    """Read off an applied patch how it changed component lists, when that is all it did.

    Args:
        content: the activity content before the patch.
        patch: the patch, already applied to it without error.

    Returns:
        By operation index, the :class:`Edit` of its ``updateComponents`` list; ``None``
        when some operation of the patch does anything else (replaces a list or an
        operation, inserts or removes an entry, moves or copies a whole entry).
    """
    operations: Any = content.get(OPERATIONS_KEY) if type(content) in DICTS else None
    if type(operations) not in LISTS:
        return None
    found: dict[int, tuple[set[int], int, int]] = {}
    other: set[tuple[int, int]] = set()  # (operation, entry) edited past appending children
    for operation in patch:
        name = operation.get("op")
        if name == "test":
            continue
        written = [operation.get("path")]
        if name == "move":  # what it takes out of an entry changes that entry too
            written.append(operation.get("from"))
        elif name not in {"add", "replace", "remove", "copy"}:
            return None
        for pointer in written:
            # A move or copy changes entries only where it writes inside one: one that
            # moves or copies a whole entry shifts the entries after it.
            inside = name in {"move", "copy"}
            if not _edited(operations, found, other, name, pointer, inside=inside):
                return None
    return {
        index: Edit(
            frozenset(changed),
            old_length,
            length,
            frozenset(position for position in changed if (index, position) not in other),
        )
        for index, (changed, old_length, length) in found.items()
    }


def _edited(
    operations: Any,
    found: dict[int, tuple[set[int], int, int]],
    other: set[tuple[int, int]],
    name: object,
    pointer: Any,
    *,
    inside: bool,
) -> bool:
    """Record in ``found`` what one pointer a patch writes did to a component list.

    ``found`` holds, by operation index, the entries changed, the list's old length and
    its length so far; ``other`` the entries edited past appending to their children.
    ``inside``: the pointer must name a place inside an entry. ``False`` when the
    pointer does anything an :class:`Edit` cannot say.
    """
    try:
        tokens = parse(pointer)
    except (PointerError, TypeError):
        return False
    if (
        len(tokens) < (_ENTRY_DEPTH + 1 if inside else _ENTRY_DEPTH)
        or tokens[0] != OPERATIONS_KEY
        or tokens[2] != _KEY
        or tokens[3] != _COMPONENTS
    ):
        return False
    index = _position(tokens[1])
    if index is None or index >= len(operations):
        return False
    if index not in found:
        length = _length(operations[index])
        if length is None:
            return False
        found[index] = (set(), length, length)
    changed, old_length, length = found[index]
    token = tokens[4]
    if len(tokens) == _ENTRY_DEPTH and name == "add":
        if token not in {"-", str(length)}:
            return False  # an insertion shifts the entries after it
        found[index] = (changed, old_length, length + 1)
        return True
    if len(tokens) == _ENTRY_DEPTH and name == "remove":
        return False
    position = _position(token)
    if position is None or position >= length:
        return False
    if position < old_length:
        changed.add(position)
        if not _appends_children(name, tokens):
            other.add((index, position))
    return True


def _appends_children(name: object, tokens: Sequence[str]) -> bool:
    """Whether a patch operation appends one reference to an entry's ``children``."""
    return name == "add" and len(tokens) == _ENTRY_DEPTH + 2 and tokens[5:] == _CHILDREN_END


Edits: TypeAlias = "tuple[Sequence[Any], Mapping[int, Edit]]"
"""The operations a delta patched, and what it did to their component lists."""


def edited_operation(
    previous: Bucket, before: Surfaces, index: int, documents: Sequence[Any], edits: Edits
) -> tuple[Surfaces, ComponentChange | None] | None:
    """The surfaces after operation ``index``, applied by what a delta edited in it.

    Args:
        previous: the bucket the operations were applied in last time.
        before: the surfaces before the operation (``previous``'s checkpoint there).
        index: the first operation the delta changed.
        documents: the operations as the patch left them.
        edits: the operations before the patch, and :func:`component_edits`.

    Returns:
        What :func:`apply_edits` gives, for an operation ``previous`` recorded as an
        upsert and checkpointed after; ``None`` otherwise.
    """
    old_documents, found = edits
    edit = found.get(index)
    if edit is None or index not in previous.upserts:
        return None
    after = next((s for count, s in previous.checkpoints if count == index + 1), None)
    if after is None:
        return None
    return apply_edits(before, after, old_documents[index], documents[index], edit)


def untouched_operations(patch: Sequence[Any], count: int) -> int:
    """How many of the first operations an applied patch left as they were (the same objects).

    A patch copies only the containers along the paths it writes, so every operation
    before the first index it writes, removes or moves from is the object it was; read
    off the paths, this spares comparing thousands of operations to find where a delta
    that appends one begins.

    Args:
        patch: the patch, already applied without error to content of ``count``
            operations.
        count: how many operations the content held before the patch.

    Returns:
        The number of leading operations no operation of the patch touched, at most
        ``count``; 0 when a path says nothing narrower (the whole list or content).
    """
    untouched = count
    for operation in patch:
        name = operation.get("op")
        if name == "test":
            continue
        pointers = [operation.get("path")]
        if name == "move":
            pointers.append(operation.get("from"))
        for pointer in pointers:
            try:
                tokens = parse(pointer)
            except (PointerError, TypeError):
                return 0
            if not tokens or tokens[0] != OPERATIONS_KEY:
                if not tokens:
                    return 0
                continue  # another member of the content: the operations are not touched
            if len(tokens) == 1:
                return 0
            index = count if tokens[1] == "-" else _position(tokens[1])
            if index is None:
                return 0
            untouched = min(untouched, index)
    return untouched


def _position(token: str) -> int | None:
    """An array index token as a number, or ``None`` when it is not one (RFC 6901)."""
    if not token.isdigit() or (len(token) > 1 and token[0] == "0") or not token.isascii():
        return None
    return int(token)


def _length(operation: Any) -> int | None:
    payload: Any = operation.get(_KEY) if type(operation) in DICTS else None
    items: Any = payload.get(_COMPONENTS) if type(payload) in DICTS else None
    return len(items) if type(items) in LISTS else None


def is_upsert(operation: Operation, found: Sequence[Any]) -> bool:
    """Whether an applied operation can take :func:`apply_edits` next time.

    Args:
        operation: the operation as decoded.
        found: what applying it reported.

    Returns:
        ``True`` for a v0.9/v1.0 ``updateComponents`` that reported nothing, decoding
        or applying, and names each component id once.
    """
    if (
        type(operation) is not UpdateComponents
        or found
        or operation.warnings
        or operation.initial_data
        or operation.implicit_create
    ):
        return False
    components = operation.components
    return len(set(map(_ID, components))) == len(components)


def apply_edits(
    before: Surfaces,
    after: Surfaces,
    old_document: Any,
    new_document: Any,
    edit: Edit,
) -> tuple[Surfaces, ComponentChange | None] | None:
    """The surfaces an edited ``updateComponents`` builds, from what it built last time.

    Replaying the operation stores, over ``before``, each entry's component in order,
    an equal one keeping the object already there. With each id named once, that is
    ``after`` with the edited and appended entries stored the same way, which is what
    this does.

    Args:
        before: the surfaces before the operation (a checkpoint of ``previous``).
        after: the surfaces after it last time (the next checkpoint).
        old_document: the operation as it was.
        new_document: the operation as the patch left it.
        edit: what the patch did to its entries.

    Returns:
        The surfaces after the operation and how the surface's components changed
        (``None`` when they did not); ``None`` when the edit cannot be applied so and
        the operation must be replayed.
    """
    payload: Any = new_document.get(_KEY) if type(new_document) in DICTS else None
    old_payload: Any = old_document.get(_KEY) if type(old_document) in DICTS else None
    if type(payload) not in DICTS or type(old_payload) not in DICTS:
        return None
    surface_id = payload.get("surfaceId")
    if type(surface_id) is not str:
        return None
    surface, original = after.get(surface_id), before.get(surface_id)
    if surface is None or original is None:
        return None
    items, old_items = payload[_COMPONENTS], old_payload[_COMPONENTS]
    edited = sorted(edit.changed)
    positions = [*edited, *range(edit.old_length, edit.new_length)]
    components = plain_components([items[position] for position in positions])
    if components is None:
        return None
    for position, component in zip(edited, components, strict=False):
        if old_items[position].get("id") != component.id:
            return None  # a renamed entry may uncover another of the old id
    added = components[len(edited) :]
    added_ids = set(map(_ID, added))
    if len(added_ids) != len(added) or any(cid in surface.components for cid in added_ids):
        return None  # an id named twice: the last one wins, which this does not follow
    grown = {components[at].id for at, position in enumerate(edited) if position in edit.grown}
    return _stored(surface, original.components, components, after, grown)


def _stored(
    surface: Surface,
    original: Any,
    components: tuple[Component, ...],
    after: Surfaces,
    grown: set[str],
) -> tuple[Surfaces, ComponentChange | None]:
    """``after`` with ``components`` stored in ``surface`` as the operation stores them.

    ``grown`` names the components whose entries only had references appended to their
    ``children``; the claim made keeps those that were stored anew.
    """
    current = surface.components
    updates: dict[str, Component] = {}
    for component in components:
        prior = original.get(component.id)
        kept = prior is not None and (prior is component or prior == component)
        value = prior if kept else component
        if current.get(component.id) is not value:
            updates[component.id] = value
    if not updates:
        return after, None
    stored = with_components(current, updates)
    surfaces = FrozenDict(after)
    dict.__setitem__(
        surfaces, surface.surface_id, msgspec.structs.replace(surface, components=stored)
    )
    changed = frozenset(updates)
    return surfaces, ComponentChange(current, stored, changed, changed.intersection(grown))


def edit_first(
    previous: Bucket,
    surfaces: Surfaces,
    where: tuple[int, int, bool],
    delta: tuple[Sequence[Any], Edits],
    kept: tuple[list[tuple[int, Surfaces]], set[int]],
) -> tuple[int, Surfaces, list[ComponentChange]]:
    """Apply the first operation a delta changed by what it edited, when it can be.

    Args:
        previous: the bucket the operations were applied in last time.
        surfaces: the surfaces before the operation (``previous``'s checkpoint there).
        where: the operation's index, the operation count, and whether to checkpoint
            the surfaces after the operation.
        delta: the operations as the patch left them, and the :class:`Edits`.
        kept: the checkpoints and upserts of the bucket being built, extended here.

    Returns:
        The index where the replay goes on, the surfaces there, and the claim of what
        changed in the components when it spans the whole rebuild (the operation is
        the last), so that the converter may take it.
    """
    index, count, checkpoint = where
    documents, edits = delta
    edited = edited_operation(previous, surfaces, index, documents, edits)
    if edited is None:
        return index, surfaces, []
    surfaces, change = edited
    checkpoints, upserts = kept
    upserts.add(index)
    if checkpoint:
        checkpoints.append((index + 1, surfaces))
    if change is None or not index + 1 == count == len(previous.operation_keys):
        return index + 1, surfaces, []
    return index + 1, surfaces, [change]


def content_of(bucket: Bucket) -> FrozenDict:
    """Decode the operations a bucket was built from into a content document, frozen.

    Needed once, when the first delta arrives for a bucket built from wire bytes;
    afterwards the bucket keeps the document and deltas cost what they change.
    """
    operations = FrozenList([freeze(_document_of(key)) for key in bucket.operation_keys])
    return FrozenDict({OPERATIONS_KEY: operations})


def _document_of(key: Any) -> Any:
    """One operation as a JSON value; ``None`` for bytes that never decoded.

    Such an operation (a string that is not UTF-8 in an event from ``decode_event``,
    which leaves content unchecked) was skipped with a diagnostic when its snapshot
    arrived; as ``null`` it is skipped again, and a delta cannot raise.
    """
    if type(key) is not _RAW:
        return key
    try:
        return _JSON.decode(key)
    except (msgspec.DecodeError, RecursionError):
        return None
