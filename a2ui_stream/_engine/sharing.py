"""Sharing: how data re-sent or patched keeps the identity of what came before.

Owns what the reducer knows of a data model's change without diffing it: a value a
wire snapshot re-sends is set text against text with what the same operation wrote
last time (:func:`shared_write`); a value a delta patched is read for the paths its
patch replaced (:func:`delta_changes`); anything else is shared by value
(:func:`share_data`); a re-sent snapshot restarts after the operations it shares with
the last (:func:`shared_prefix`), from a checkpoint kept at the counts
:func:`is_checkpoint` names. Unchanged parts keep their identity, which every later stage
checks with an ``is``, and what is known of the changed paths travels as
:class:`~a2ui_stream._tree.patch.DataChange` claims, which each stage checks by identity
before it trusts them.

Must not import: conversion, the reducer, request or shell modules. Does no I/O, no
logging.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import compress, islice
from operator import is_not, ne
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from a2ui_stream._state.stream import OPERATIONS_KEY
from a2ui_stream._tree.patch import DataChange, outermost, written_paths
from a2ui_stream._tree.pointer import get
from a2ui_stream._tree.share import share, share_text
from a2ui_stream._wire.a2ui import UpdateDataModel, decode_operation
from a2ui_stream._wire.frozen import DICTS, LISTS, FrozenDict, freeze
from a2ui_stream._wire.numbers import JsDecoder
from a2ui_stream._wire.writes import data_value_text, decode_data_write

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from a2ui_stream._state.stream import Bucket, Surfaces
    from a2ui_stream._wire.a2ui import Operation
    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = [
    "DENSE_CHECKPOINTS",
    "decode_shared",
    "delta_changes",
    "is_checkpoint",
    "restart",
    "share_data",
    "shared_prefix",
    "shared_write",
]

_RAW = msgspec.Raw
Checkpoint: TypeAlias = "tuple[int, Surfaces]"
"""A bucket's surfaces after its first ``count`` operations."""
#: Data values decode as every A2UI message does: numbers read as JavaScript reads them.
_VALUE = JsDecoder()
#: Tokens of ``/a2ui_operations/<i>/updateDataModel/value``, where data values start.
_VALUE_DEPTH = 4
_DATA_WRITE = "updateDataModel"
_ABSENT: Any = object()
_NOT_WRITTEN: tuple[Any, None, int] = (_ABSENT, None, 0)
#: Consecutive snapshots past which a write that changes nearly every value (a live
#: dashboard) is set against its last text only once per this many.
_MAX_SKIPPED = 64
_NO_SURFACES: Surfaces = FrozenDict()


def _tries_sharing(misses: int) -> bool:
    """Whether to set a write against its last text after ``misses`` useless tries.

    Sharing a value whose every part changed costs many times decoding it whole
    (measured on the benchmark's data-churn-all: 247 against 11 µs a snapshot), and
    the stages after it gain nothing. So after a try that found too many changes the
    next ones back off, at 1, 2, 4, ... up to every :data:`_MAX_SKIPPED`-th snapshot,
    and one try that finds few changes starts sharing every time again.
    """
    return misses & (misses - 1) == 0 or misses % _MAX_SKIPPED == 0


def shared_write(
    key: Any, previous: Bucket | None, index: int, claims: list[DataChange]
) -> tuple[UpdateDataModel, msgspec.Raw | None, int] | None:
    """Decode a data write whose value shares what it has in common with the last one.

    Why: a cumulative snapshot re-sends the whole data model. Set text against text
    with what the same operation wrote last time (:func:`share_text`), only what is
    new is decoded, the unchanged parts keep their identity, which every later stage
    checks with an ``is``, and the changed paths become a claim that spares those
    stages a diff.

    Args:
        key: the operation's undecoded bytes.
        previous: the bucket the last snapshot of the same messageId built, if any.
        index: the operation's position in the snapshot.
        claims: receives the claim of what changed, when one can be made.

    Returns:
        The operation, its value's text and how many snapshots in a row sharing it
        was useless (kept for next time, see :func:`_tries_sharing`); ``None`` when
        the operation is not a plain data write over one written last time, or its
        new parts do not decode, for :func:`~a2ui_stream.a2ui.decode_operation` to
        decode and report.
    """
    if previous is None or index >= len(previous.operation_keys):
        return None
    old_key = previous.operation_keys[index]
    old_value, old_text, misses = previous.written.get(index, _NOT_WRITTEN)
    if old_value is _ABSENT or type(old_key) is not _RAW or type(key) is not _RAW:
        return None
    opened = decode_data_write(key)
    if opened is None:
        return None
    operation, new_text = opened
    if old_key == key:  # replayed from a checkpoint: the very value written last time
        return msgspec.structs.replace(operation, value=old_value), old_text, misses
    if old_text is None:
        old_text = data_value_text(old_key)
        if old_text is None:
            return None
    try:
        if not _tries_sharing(misses):
            value = freeze(_VALUE.decode(new_text))
            return msgspec.structs.replace(operation, value=value), new_text, misses + 1
        value, paths = share_text(old_value, old_text, new_text, _VALUE.decode)
    except (msgspec.DecodeError, RecursionError):
        return None
    if paths is None:
        return msgspec.structs.replace(operation, value=value), new_text, misses + 1
    if value is not old_value:
        claims.append(DataChange(old_value, value, paths))
    return msgspec.structs.replace(operation, value=value), new_text, 0


def decode_shared(  # noqa: PLR0917 - a snapshot loop's state, passed as it is
    key: Any,
    index: int,
    previous: Bucket | None,
    claims: list[DataChange],
    written: dict[int, tuple[Any, msgspec.Raw | None, int]],
    shared: set[int],
) -> Operation | Diagnostic:
    """Decode one operation of a wire snapshot, a data write shared with the last one's.

    A data write's value and text are noted in ``written`` (by position), and the
    ``id`` of a value :func:`shared_write` shared in ``shared``, for
    :func:`share_data` to leave alone.
    """
    # A write is shared only with the one at its place in the last snapshot: a new
    # bucket, or a longer list, has none to share with, and the call is spared.
    write = (
        shared_write(key, previous, index, claims)
        if previous is not None and index < len(previous.operation_keys)
        else None
    )
    if write is not None:
        operation, text, misses = write
        written[index] = (operation.value, text, misses)
        shared.add(id(operation.value))
        return operation
    decoded = decode_operation(key, index=index)
    if type(decoded) is UpdateDataModel and decoded.value is not msgspec.UNSET:
        written[index] = (decoded.value, None, 0)
    return decoded


def share_data(old: Surfaces, new: Surfaces, done: Collection[int] = ()) -> Surfaces:
    """Give each rebuilt surface's data the identity of the equal parts of its old data.

    Why: a cumulative snapshot re-sends the whole data model, so it arrives as new
    objects even where nothing changed; shared, the converter reuses every subtree that
    reads only unchanged data with an identity check.

    Args:
        old: the surfaces the last snapshot built.
        new: the surfaces this one built.
        done: the ``id`` of each value :func:`shared_write` already shared (as well as it
            could): a surface whose model is one of them is left as it is.

    Returns:
        ``new``, with each surface's data sharing its old data's equal parts.
    """
    shared: FrozenDict | None = None
    for surface_id, surface in new.items():
        before = old.get(surface_id)
        if before is None or before.data_model is surface.data_model:
            continue
        if id(surface.data_model) in done:
            continue
        data = share(before.data_model, surface.data_model)
        if data is not surface.data_model:
            shared = shared if shared is not None else FrozenDict(new)
            dict.__setitem__(shared, surface_id, msgspec.structs.replace(surface, data_model=data))
    return shared if shared is not None else new


def delta_changes(content: Any, patched: Any, patch: Sequence[Any]) -> tuple[DataChange, ...]:
    """How a delta changed the data values of ``updateDataModel`` operations, from its patch.

    Why: the patch names the places it wrote, so the size estimate and the converter
    need not diff the old and new data models to find them; that diff costs a step per
    child of every container on the way, which grows with the model (a value given one
    key per delta cost its square: 16,000 keys, 39 s).

    A ``replace`` changes exactly its place; an ``add`` or ``remove`` of an object's
    member does too, but one in an array shifts the items after it, and then the claim
    is not made (nor for a patch that moves or copies: see
    :func:`~a2ui_stream._tree.patch.written_paths`). A write above a data value (a whole
    operation, say) says nothing of the values inside, so that operation gets no claim.

    Args:
        content: the activity content before the patch.
        patched: the content after it.
        patch: the patch, already applied.

    Returns:
        One claim per ``updateDataModel`` operation whose value the patch changed.
    """
    writes = written_paths(patch)
    if not writes:
        return ()
    # A write inside another's place is covered by it: a value under an operation the
    # patch replaced whole is no change of that value, and gets no claim.
    outer = set(outermost(path for _, path in writes))
    inside: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for name, path in writes:
        if path not in outer:
            continue
        if (
            len(path) >= _VALUE_DEPTH
            and path[0] == OPERATIONS_KEY
            and path[2] == _DATA_WRITE
            and path[3] == "value"
        ):
            inside.setdefault(path[1], []).append((name, path[_VALUE_DEPTH:]))
    changes = []
    for index, written in inside.items():
        before, after = _data_value(content, index), _data_value(patched, index)
        if before is _ABSENT or after is _ABSENT or before is after:
            continue
        claim = _claim(before, after, written)
        if claim is not None:
            changes.append(claim)
    return tuple(changes)


def _claim(
    before: Any, after: Any, written: list[tuple[str, tuple[str, ...]]]
) -> DataChange | None:
    """The claim of what ``written`` changed, or ``None`` when an array's items shifted."""
    paths = outermost(path for _, path in written)
    for name, path in written:
        if name == "replace" or not path or path not in paths:
            continue  # a place inside another write is covered by it
        parent = get(after if name == "add" else before, path[:-1])
        if type(parent) not in DICTS:
            return None  # an array's items after the place moved: the diff finds them
    kinds = []
    kept = []
    for path in paths:
        was, now = get(before, path), get(after, path)
        if was is msgspec.UNSET and now is msgspec.UNSET:
            continue  # added and removed again: nothing changed there
        kept.append(path)
        kinds.append(
            "add" if was is msgspec.UNSET else "remove" if now is msgspec.UNSET else "replace"
        )
    if not kept:
        return None
    return DataChange(before, after, tuple(kept), tuple(kinds))


def _data_value(content: Any, index: str) -> Any:
    """The ``value`` of the ``updateDataModel`` operation at ``index``, or ``_ABSENT``."""
    operations: Any = content.get(OPERATIONS_KEY) if type(content) in DICTS else None
    if (
        type(operations) not in LISTS
        or not (index.isdigit() and index.isascii())
        or int(index) >= len(operations)
    ):
        return _ABSENT
    operation = operations[int(index)]
    write: Any = operation.get(_DATA_WRITE) if type(operation) in DICTS else None
    return write.get("value", _ABSENT) if type(write) in DICTS else _ABSENT


#: Snapshots of real agents carry a handful of operations: keep the surfaces after
#: each of the first ones, so a re-sent snapshot restarts exactly where it changed.
DENSE_CHECKPOINTS = 64


def is_checkpoint(count: int, total: int) -> bool:
    """Whether to keep the surfaces after the first ``count`` of ``total`` operations.

    Every count up to ``DENSE_CHECKPOINTS``, then powers of two, then the last: memory
    stays logarithmic in a hostile snapshot's length, and a restart replays at most as
    many operations again as it skipped.
    """
    return count <= DENSE_CHECKPOINTS or count & (count - 1) == 0 or count == total


def shared_prefix(old: Sequence[Any], new: Sequence[Any], known: int = 0) -> int:
    """How many operations a re-sent snapshot shares with the bucket's, from the start.

    Undecoded operations compare by their bytes; decoded ones (after a delta) by
    identity, since a patch copies only what it changes. A list holds one kind or the
    other, so the kind of the first pair compared decides. The pairs are compared in C
    (``compress`` over ``ne`` or ``is_not``): a snapshot that re-sends thousands of
    operations to add one costs a pass at C speed, not a Python step per operation.
    ``known``: how many leading pairs are known to be the same objects (read off a
    delta's paths), which are not compared at all; a delta appending one operation
    then costs the same whatever the bucket holds.
    """
    shorter = min(len(old), len(new))
    if known >= shorter:
        return shorter
    differ = ne if type(old[known]) is _RAW and type(new[known]) is _RAW else is_not
    pairs = map(differ, islice(old, known, None), islice(new, known, None))
    return next(compress(range(known, shorter), pairs), shorter)


def restart(
    previous: Bucket | None, shared: int
) -> tuple[list[Checkpoint], Surfaces, dict[int, Any], set[int]]:
    """Where a bucket's rebuild starts, when its first ``shared`` operations are unchanged.

    Returns the checkpoints kept (the last is the surfaces to start from, after its
    count of operations), and the data writes and upserts of the operations before it.
    Of the checkpoints up to ``shared``, those at :func:`is_checkpoint` positions are
    kept, and the last one, where this rebuild starts: a stream that keeps growing or
    rewriting its last operation restarts there next time too. Every other one (the
    last checkpoint of an older version of the bucket) goes, so their number stays
    logarithmic in the operations instead of growing by one per snapshot.
    """
    if previous is None:
        return [], _NO_SURFACES, {}, set()
    points = previous.checkpoints
    below = points[: bisect_right(points, shared, key=_count)]
    checkpoints = [point for point in below[:-1] if is_checkpoint(point[0], 0)]
    checkpoints.extend(below[-1:])
    start, surfaces = checkpoints[-1] if checkpoints else (0, _NO_SURFACES)
    if start >= len(previous.operation_keys):  # an append: everything before is kept
        return checkpoints, surfaces, dict(previous.written), set(previous.upserts)
    written = {index: value for index, value in previous.written.items() if index < start}
    return checkpoints, surfaces, written, {index for index in previous.upserts if index < start}


def _count(point: Checkpoint) -> int:
    return point[0]
