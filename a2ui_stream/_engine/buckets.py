"""One bucket's operations to surfaces and diffs: the path every carrier ends on.

Owns what the reducer's handlers share once they know a bucket's operations: the
per-event :class:`Context`, rebuilding a bucket from its operations while reusing the
unchanged prefix (checkpoints, decoded bytes, component edits after a delta), and
placing it as the most recent bucket of its run, which resynthesizes the parts of the
surfaces it touches. Activity snapshots, activity deltas and the tool carriers all
reach it; which event did, and how the operations were read, stays in ``reducer``.

May import: ``a2ui_stream._wire``, ``_tree``, ``_state``, ``_convert`` and the engine's
own stages (sharing, deltas, census, parts, history). Never the reducer or the shell.
Pure: states in, states out.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import eq, is_
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import immutables
import msgspec
from msgspec import UnsetType

from a2ui_stream._engine.census import count_surfaces
from a2ui_stream._engine.deltas import Edits, edit_first, is_upsert
from a2ui_stream._engine.history import normalize_document
from a2ui_stream._engine.parts import synthesize
from a2ui_stream._engine.sharing import (
    DENSE_CHECKPOINTS,
    decode_shared,
    is_checkpoint,
    restart,
    share_data,
    shared_prefix,
)
from a2ui_stream._state.persistent import with_last
from a2ui_stream._state.stream import Bucket, PartDiff, RunState, StreamState
from a2ui_stream._state.surface import ComponentChange, apply_operation, too_many_operations
from a2ui_stream._tree.depth import text_depth_bound
from a2ui_stream._wire.a2ui import UpdateComponents, UpdateDataModel
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream._wire.frozen import DICTS, FrozenDict

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._convert.converter import Converter
    from a2ui_stream._engine.carriers import ToolConfig
    from a2ui_stream._engine.parts import Conversions
    from a2ui_stream._state.stream import Surfaces
    from a2ui_stream._tree.patch import DataChange
    from a2ui_stream._wire.limits import Limits

__all__ = ["Context", "Handled", "locate", "place_bucket", "rebuild_bucket", "with_run"]

JSON: TypeAlias = Any

#: What a handler returns: the new state, its diffs, and what went wrong.
Handled: TypeAlias = tuple[StreamState, tuple[PartDiff, ...], tuple[Diagnostic, ...]]


_replace = msgspec.structs.replace
#: Operations whose values are walked for their depth, unless their text bounds it.
_CHECKED_FOR_DEPTH = frozenset({UpdateComponents, UpdateDataModel})
_NO_SURFACES: Surfaces = FrozenDict()


class Context(NamedTuple):
    """Per-event inputs every handler needs, decided once per event."""

    seq: int
    converter: Converter
    limits: Limits
    keep_runs: int | None
    tools: ToolConfig
    conversions: Conversions


def with_run(state: StreamState, run: RunState) -> StreamState:
    """``state`` with ``run`` in place of its current (last) run."""
    return msgspec.structs.replace(state, runs=with_last(state.runs, run))


def rebuild_bucket(  # noqa: PLR0917 - one call site per carrier, each passing all
    state: StreamState,
    run: RunState,
    key: str,
    keys: Sequence[Any],
    documents: Sequence[Any] | None,
    content: tuple[JSON | UnsetType, bytes | None, int],
    context: Context,
    known: Sequence[DataChange] = (),
    edits: Edits | None = None,
    *,
    tool: bool = False,
    untouched: int = 0,
) -> Handled:
    """Rebuild one bucket from its operations, reusing the unchanged prefix.

    ``keys`` identify operations: bytes compare by value, decoded documents (after a
    delta) by identity, since a patch copies only what it changes. ``content`` is the
    decoded document (after a delta), the undecoded bytes (from the wire), and how many
    values the document holds.
    ``known`` says how a delta changed data values, for the stages that would diff them;
    ``edits``, how it changed component lists (the operations before it, and
    :func:`~a2ui_stream._engine.deltas.component_edits`), so that the first changed
    operation can be applied by what changed instead of replayed; ``untouched``, how
    many leading operations a delta left as the bucket's own objects.
    """
    diagnostics: list[Diagnostic] = []
    limit = context.limits.max_operations
    if len(keys) > limit:
        diagnostics.append(
            msgspec.structs.replace(
                too_many_operations(context.limits), seq=context.seq, message_id=key
            )
        )
        keys = keys[:limit]
    document, content_bytes, nodes = content
    previous = (run.tool_buckets if tool else run.buckets).get(key)
    shared = shared_prefix(previous.operation_keys, keys, untouched) if previous else 0
    if previous is not None and shared == len(keys) == len(previous.operation_keys):
        bucket = msgspec.structs.replace(
            previous,
            operation_keys=tuple(keys),
            content=document,
            content_nodes=nodes,
            content_bytes=content_bytes,
        )
        return place_bucket(state, run, bucket, context, diagnostics, changed=False, tool=tool)
    if previous is not None:
        checkpoints, surfaces, written, upserts = restart(previous, shared)
        if (
            alone := _placed_alone(
                (state, run, previous, diagnostics),
                (keys, documents, edits, shared),
                (checkpoints, written, upserts),
                (document, content_bytes, nodes),
                context,
                known,
                tool=tool,
            )
        ) is not None:
            return alone
    else:  # a new bucket: nothing to restart from, and no call to say so
        checkpoints, surfaces, written, upserts = [], _NO_SURFACES, {}, set()
    start = checkpoints[-1][0] if checkpoints else 0
    reference = previous.surfaces if previous is not None else _NO_SURFACES
    claims = list(known)
    first = start
    changed: list[ComponentChange] = []  # not list[...](): an alias call tries __orig_class__
    if edits is not None and previous is not None and documents is not None and start == shared:
        first, surfaces, changed = edit_first(
            previous,
            surfaces,
            (shared, len(keys), is_checkpoint(shared + 1, len(keys))),
            (documents, edits),
            (checkpoints, upserts),
        )
    shared_values: set[int] = set()  # the data values shared with the last snapshot's
    total = len(keys)
    limits = context.limits
    max_depth = limits.max_data_depth
    for index in range(first, total):
        nesting = None
        if documents is None:
            operation = decode_shared(keys[index], index, previous, claims, written, shared_values)
            if type(operation) in _CHECKED_FOR_DEPTH:
                # Decoded from its text, or shared with the last one's text against text,
                # its values have the structure the text spells: the text bounds them.
                nesting = text_depth_bound(bytes(keys[index]), max_depth)
        else:
            operation = normalize_document(documents[index], index)
        # Operations before ``shared`` are replayed from the nearest checkpoint; they
        # were reported when first applied.
        if type(operation) is Diagnostic:  # not isinstance: msgspec's metaclass, per operation
            if index >= shared:
                diagnostics.append(locate(operation, key, context))
        else:
            surfaces, found = apply_operation(
                surfaces,
                operation,
                index=index,
                limits=limits,
                reference=reference,
                known=claims,
                nesting=nesting,
            )
            if found and index >= shared:
                diagnostics.extend(locate(one, key, context) for one in found)
            if documents is not None and is_upsert(operation, found):
                upserts.add(index)
        # The first counts are all checkpoints: the call is only made past them.
        if index < DENSE_CHECKPOINTS or is_checkpoint(index + 1, total):
            checkpoints.append((index + 1, surfaces))
    # After a delta the data already shares what the patch left alone; only values
    # decoded afresh from the wire need sharing.
    fresh = documents is None
    if fresh and previous is not None and checkpoints and checkpoints[-1][0] == len(keys):
        surfaces = share_data(previous.surfaces, surfaces, shared_values)
        checkpoints[-1] = (len(keys), surfaces)
    bucket = Bucket(
        message_id=key,
        surfaces=surfaces,
        operation_keys=tuple(keys),
        checkpoints=tuple(checkpoints),
        content=document,
        content_nodes=nodes,
        content_bytes=content_bytes,
        written=immutables.Map(written),
        upserts=frozenset(upserts),
    )
    return place_bucket(
        state, run, bucket, context, diagnostics, changed=True, known=[*claims, *changed], tool=tool
    )


def locate(diagnostic: Diagnostic, key: str, context: Context) -> Diagnostic:
    return msgspec.structs.replace(diagnostic, seq=context.seq, message_id=key)


def place_bucket(
    state: StreamState,
    run: RunState,
    bucket: Bucket,
    context: Context,
    diagnostics: list[Diagnostic],
    *,
    changed: bool,
    known: Sequence[DataChange | ComponentChange] = (),
    tool: bool = False,
    only: str | None = None,
) -> Handled:
    """Store ``bucket`` as the most recent one and resynthesize the surfaces it touches.

    Upstream's client deletes and re-inserts the bucket on every snapshot, so a
    re-sent older bucket wins a shared surfaceId again even when nothing in it changed.
    ``tool``: the bucket was drawn from a tool call or result, and goes with those.
    ``only``: the one surface that changed, the others being the previous bucket's own
    objects; when the bucket was the most recent already, no other part can change.
    """
    key = bucket.message_id
    old = run.tool_buckets if tool else run.buckets
    previous = old.get(key)
    is_latest = previous is not None and old.last_key() == key
    lifecycles = run.lifecycles
    current = lifecycles.get(key)
    if current is not None and current.phase != "painted":
        lifecycles = lifecycles.set(key, msgspec.structs.replace(current, phase="painted"))
    # The census counts buckets of both kinds; it finds the bucket replaced in ``buckets``.
    counted = msgspec.structs.replace(run, buckets=old) if tool else run
    live, bucket = count_surfaces(counted, bucket, context.limits, context.seq, diagnostics, tool)
    buckets = old.set_last(key, bucket)
    # Keywords spelt out: a ``**`` dict costs msgspec several times the call itself.
    if tool:
        new_run = _replace(run, lifecycles=lifecycles, live=live, tool_buckets=buckets)
    else:
        new_run = _replace(run, lifecycles=lifecycles, live=live, buckets=buckets)
    if not changed and is_latest:
        return with_run(state, new_run), (), tuple(diagnostics)
    if only is not None and is_latest:
        touched = [only]
    else:
        touched = list(bucket.surfaces)
        if previous is not None:
            touched.extend(sid for sid in previous.surfaces if sid not in bucket.surfaces)
    new_run, diffs, found = synthesize(
        new_run,
        touched,
        seq=context.seq,
        converter=context.converter,
        conversions=context.conversions,
        known=known,
        placed=(key, bucket.surfaces, tool),
    )
    diagnostics.extend(found)
    return with_run(state, new_run), diffs, tuple(diagnostics)


def _placed_alone(  # noqa: PLR0917 - rebuild_bucket's state, passed on whole
    where: tuple[StreamState, RunState, Bucket, list[Diagnostic]],
    delta: tuple[Sequence[Any], Sequence[Any] | None, Edits | None, int],
    restarted: tuple[list[tuple[int, Surfaces]], dict[int, Any], set[int]],
    content: tuple[JSON | UnsetType, bytes | None, int],
    context: Context,
    known: Sequence[DataChange],
    *,
    tool: bool,
) -> Handled | None:
    """:func:`rebuild_bucket` after a delta that rewrote one surface's data, or ``None``."""
    state, run, previous, diagnostics = where
    keys, documents, edits, shared = delta
    # With one surface there is nothing to skip, and the general path is the cheaper.
    if documents is None or edits is not None or len(previous.surfaces) < 2:
        return None
    key = previous.message_id
    local = _one_surface_rebuilt(previous, keys, shared, restarted, known, context, key)
    if local is None:
        return None
    bucket, surface_id, reported = local
    document, content_bytes, nodes = content
    bucket = msgspec.structs.replace(
        bucket, content=document, content_nodes=nodes, content_bytes=content_bytes
    )
    return place_bucket(
        state,
        run,
        bucket,
        context,
        [*diagnostics, *reported],
        changed=True,
        known=list(known),
        tool=tool,
        only=surface_id,
    )


#: The operations a rebuild may apply to one surface alone: they change that surface only.
_ONE_SURFACE = frozenset({"updateDataModel", "updateComponents"})


def _target(document: Any) -> tuple[str, str] | None:
    """An operation document's kind and surfaceId, when it has exactly one of each."""
    if type(document) not in DICTS:
        return None
    kind = None
    for name in document:  # a loop: a comprehension is a call of its own (3.11)
        if name != "version":
            if kind is not None:
                return None
            kind = name
    payload: Any = document[kind] if kind is not None else None
    surface_id = payload.get("surfaceId") if type(payload) in DICTS else None
    return (kind, surface_id) if kind is not None and type(surface_id) is str else None


def _one_surface_rebuilt(  # noqa: PLR0917 - rebuild_bucket's state, passed on whole
    previous: Bucket,
    keys: Sequence[Any],
    shared: int,
    restarted: tuple[list[tuple[int, Surfaces]], dict[int, Any], set[int]],
    known: Sequence[DataChange],
    context: Context,
    key: str,
) -> tuple[Bucket, str, list[Diagnostic]] | None:
    """The bucket after a delta that rewrote one ``updateDataModel``, one surface replayed.

    Operations on other surfaces cannot see it, so with every other operation the same
    object as before, and none after the restart point creating or deleting its
    surface, only that surface's operations from the restart point are applied again,
    and every other surface keeps its object in the surfaces and checkpoints after it.
    Replaying all of them (the general path) cost the bucket's length per delta, and
    converting every one of its surfaces again as many: found by an input probe, N
    one-value deltas on a message of N surfaces took time growing with N cubed.

    Returns:
        The bucket (content not set yet), the surface's id and the diagnostics of its
        operations from the changed one on; ``None`` when this does not apply.
    """
    old_keys = previous.operation_keys
    total = len(keys)
    if (
        shared >= total
        or total != len(old_keys)
        or not all(map(is_, keys[shared + 1 :], old_keys[shared + 1 :]))
    ):
        return None
    target = _target(keys[shared])
    if target is None or target[0] != "updateDataModel" or _target(old_keys[shared]) != target:
        return None
    surface_id = target[1]
    checkpoints, written, _ = restarted
    start, before = checkpoints[-1] if checkpoints else (0, _NO_SURFACES)
    surface = before.get(surface_id)
    later = [point for point in previous.checkpoints if point[0] > start]
    expected = _checkpoints_after(start, total)
    if surface_id not in previous.surfaces or [point[0] for point in later] != expected:
        return None
    limits = context.limits
    diagnostics: list[Diagnostic] = []
    states: dict[int, Any] = {}  # the surface after the first ``count`` operations
    replayed: set[int] = set()  # the surface's operations applied again, and those
    upserted: set[int] = set()  # of them that are upserts now
    # The surfaceId of every operation, found once and kept: a delta changes none.
    targets = previous.targets or tuple(_surface_of(document) for document in keys)
    mine = compress(range(start, total), map(eq, targets[start:], repeat(surface_id)))
    for index in mine:
        found_target = _target(keys[index])
        if found_target is not None and found_target[1] == surface_id:
            # Its one creation, before the change, applies again as it did (what came
            # before it is the same); any other creation or deletion: the general path.
            created = found_target[0] == "createSurface" and surface is None and index < shared
            if not created and found_target[0] not in _ONE_SURFACE:
                return None
            operation = normalize_document(keys[index], index)
            if type(operation) is Diagnostic:
                found: Sequence[Diagnostic] = (operation,)
            else:
                after, found = apply_operation(
                    _NO_SURFACES if surface is None else FrozenDict({surface_id: surface}),
                    operation,
                    index=index,
                    limits=limits,
                    reference=previous.surfaces,
                    known=known,
                )
                surface = after.get(surface_id)
                if surface is None:
                    return None
                replayed.add(index)
                if is_upsert(operation, found):
                    upserted.add(index)
            if found and index >= shared:
                diagnostics.extend(locate(one, key, context) for one in found)
        states[index + 1] = surface
    rebuilt = [*checkpoints]
    state_at = [*states.items()]  # in order: the surface from each of its operations on
    at, current = 0, before.get(surface_id)
    for count, kept in later:
        while at < len(state_at) and state_at[at][0] <= count:
            current = state_at[at][1]
            at += 1
        if count > shared:
            kept = FrozenDict(kept)  # noqa: PLW2901 - the copy with the surface replaced
            dict.__setitem__(kept, surface_id, current)
        rebuilt.append((count, kept))
    final = FrozenDict(previous.surfaces)
    dict.__setitem__(final, surface_id, surface)
    bucket = Bucket(
        message_id=key,
        surfaces=final,
        operation_keys=tuple(keys),
        checkpoints=tuple(rebuilt),
        written=immutables.Map(written),
        upserts=previous.upserts - replayed | upserted,
        targets=targets,
    )
    return bucket, surface_id, diagnostics


def _surface_of(document: Any) -> str | None:
    found = _target(document)
    return None if found is None else found[1]


def _checkpoints_after(start: int, total: int) -> list[int]:
    """The counts past ``start`` a rebuild of ``total`` operations checkpoints, in order."""
    counts = [*range(start + 1, min(DENSE_CHECKPOINTS, total) + 1)]
    power = 1 << max(start, DENSE_CHECKPOINTS).bit_length()
    while power < total:
        counts.append(power)
        power <<= 1
    if total > max(start, DENSE_CHECKPOINTS) and (not counts or counts[-1] != total):
        counts.append(total)
    return counts
