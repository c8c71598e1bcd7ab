"""Parts: the surfaces a run owns, as ``present`` parts and the diffs between them.

Owns which bucket owns a surface (genuine activity first, then the tool carriers; the
most recently received bucket within each), converting an owned surface (reusing the
cached conversion of the same surface object, reporting a warning only when it
appears), and the part diffs of one event: a new part goes after the existing ones,
an existing part keeps its place, an unchanged element tree gives no diff.

Must not import: the reducer or the shell. Pure: a run in, a new run out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._state.stream import (
    ConversionCache,
    HistoryEntry,
    Part,
    PartAdded,
    PartDiff,
    PartRemoved,
    PartUpdated,
    RunState,
)
from a2ui_stream._wire.diagnostics import Severity

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    import immutables

    from a2ui_stream._convert.converter import Conversion, Converter
    from a2ui_stream._state.surface import ComponentChange, Surface
    from a2ui_stream._tree.patch import DataChange
    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = ["history_diffs", "make_diff", "settle", "synthesize"]

_replace = msgspec.structs.replace


def _owner(run: RunState, surface_id: str) -> tuple[str, Surface] | None:
    """Return the most recent bucket holding ``surface_id`` and its surface.

    Activity outranks the tool carriers, whichever came first (as the Kotlin client
    ranks carriers): a tool bucket owns a surface only when no activity holds it.
    """
    for buckets in (run.buckets, run.tool_buckets):
        for message_id in reversed(buckets):
            surface = buckets[message_id].surfaces.get(surface_id)
            if surface is not None:
                return message_id, surface
    return None


def synthesize(
    run: RunState,
    touched: Iterable[str],
    *,
    seq: int,
    converter: Converter,
    known: Sequence[DataChange | ComponentChange] = (),
) -> tuple[RunState, tuple[PartDiff, ...], list[Diagnostic]]:
    """Recompute the parts of the touched surfaces and diff them against the run's parts.

    Args:
        run: the run, its buckets already holding the change.
        touched: the surfaceIds the change may have touched.
        seq: the index of the event that caused it.
        converter: converts each surface that changed.
        known: what is known of how data values and components changed.

    Returns:
        The run with its parts and conversions updated, the diffs (in the order of the
        parts afterwards, adds and updates, then removes), and conversion warnings: at
        debug level while the run is running (see :func:`settle`).
    """
    cache = run.cache.value.mutate()
    parts = run.parts
    provisional = run.status == "running"
    diffs: list[PartDiff] = []
    removed: list[PartDiff] = []
    added: list[Part] = []  # new parts go in after the others, in upstream's order
    diagnostics: list[Diagnostic] = []
    for surface_id in dict.fromkeys(touched):
        owner = _owner(run, surface_id)
        old = parts.get(surface_id)
        element = None
        if owner is None:
            cache.pop(surface_id, None)
        else:
            element = _convert(
                cache, surface_id, owner, (seq, converter, provisional), diagnostics, known=known
            )
        if owner is None or element is None:
            if old is not None:
                parts = parts.delete(surface_id)
                removed.append(_diff("remove", old, seq, run))
            continue
        message_id = owner[0]
        if old is not None and (old.args is element or old.args == element):
            if old.message_id != message_id:
                parts = parts.set(surface_id, msgspec.structs.replace(old, message_id=message_id))
            continue
        part = Part.of(surface_id, message_id, element)
        if old is None:
            added.append(part)
        else:
            parts = parts.set(surface_id, part)
            diffs.append(_diff("update", part, seq, run, previous_args=old.args))
    if len(added) > 1:
        # Upstream's client unions the buckets, least recent first, each surfaceId in the
        # place it first took, and appends the surfaces without a part as it meets them.
        buckets = (*run.tool_buckets.values(), *run.buckets.values())
        union = dict.fromkeys(sid for bucket in buckets for sid in bucket.surfaces)
        order = {surface_id: index for index, surface_id in enumerate(union)}
        added.sort(key=lambda part: order[part.surface_id])
    for part in added:
        parts = parts.set(part.surface_id, part)
        diffs.append(_diff("add", part, seq, run))
    if len(diffs) > 1:
        diffs.sort(key=lambda d: parts.position(d.surface_id))
    new_run = msgspec.structs.replace(run, parts=parts, cache=ConversionCache(cache.finish()))
    return new_run, (*diffs, *removed), diagnostics


def _convert(
    cache: immutables.MapMutation[str, tuple[Surface, Conversion]],
    surface_id: str,
    owner: tuple[str, Surface],
    where: tuple[int, Converter, bool],
    diagnostics: list[Diagnostic],
    *,
    known: Sequence[DataChange | ComponentChange],
) -> dict[str, Any] | None:
    """Convert a surface, reusing the cached conversion when the surface is the same object.

    A conversion's warnings are reported when they appear: a redraw whose conversion
    warns of what the previous one of the surface did says nothing again, so a stream
    of deltas to a surface with a lasting problem reports it once, not at every delta.
    While the run is open (``provisional``, the last of ``where``) they are reported at
    debug level: :func:`settle` reports the ones still true when the run ends.
    """
    message_id, surface = owner
    seq, converter, provisional = where
    cached = cache.get(surface_id)
    if cached is not None and cached[0] is surface:
        return cached[1].element
    previous = cached[1] if cached is not None else None
    conversion = converter.convert(surface, previous, known=known)
    cache[surface_id] = (surface, conversion)
    warnings = conversion.warnings
    if warnings and previous is not None and previous.warnings:
        reported = set(previous.warnings)
        warnings = tuple(warning for warning in warnings if warning not in reported)
    if provisional:
        diagnostics.extend(
            _replace(w, seq=seq, message_id=message_id, severity=_DEBUG)
            if w.severity is _WARNING
            else _replace(w, seq=seq, message_id=message_id)
            for w in warnings
        )
    else:
        diagnostics.extend(_replace(w, seq=seq, message_id=message_id) for w in warnings)
    return conversion.element


def settle(run: RunState, seq: int | None) -> list[Diagnostic]:
    """The conversion warnings still true of a run's surfaces as the run ends.

    A surface is drawn in steps: a ``createSurface`` whose components have not arrived
    has no root yet, a Column may name a child still to come. While its run is open, a
    conversion's warnings are only provisional and reported at debug level; when the
    run ends (``RUN_FINISHED``, ``RUN_ERROR``, the next ``RUN_STARTED``, the end of the
    input) its messages have settled, and what the last conversion of each live surface
    still warns of is news: those warnings, at their own level, once.

    Args:
        run: the run as it ends (its conversions not yet dropped); nothing is reported
            for a run that is not running, whose warnings were never provisional.
        seq: the event that ended it (``None``: the end of the input).

    Returns:
        The warnings, surface by surface in drawing order, each saying it outlasted
        the run.
    """
    if run.status != "running":
        return []
    cache = run.cache.value
    found: list[Diagnostic] = []
    for surface_id in run.surfaces():
        cached = cache.get(surface_id)
        owner = _owner(run, surface_id)
        if cached is None or owner is None:
            continue
        found.extend(
            _replace(w, seq=seq, message_id=owner[0], message=w.message + _SETTLED)
            for w in cached[1].warnings
            if w.severity is _WARNING
        )
    return found


def history_diffs(
    old: Sequence[HistoryEntry], new: Sequence[HistoryEntry], *, seq: int, run_id: str | None
) -> tuple[PartDiff, ...]:
    """The diffs from one restored history to the next, each marked ``history``.

    A part restored from history is known by the assistant message it belongs to and
    its surface; ``message_id`` of each diff is that message. Adds and updates come in
    the new history's order, then removes in the old one's.

    Args:
        old: the history before the ``MESSAGES_SNAPSHOT``.
        new: the history it restored.
        seq: the snapshot's event.
        run_id: the run it arrived in.
    """
    before = _restored(old)
    after = _restored(new)
    diffs: list[PartDiff] = []
    for key, part in after.items():
        was = before.get(key)
        if was is None:
            diffs.append(make_diff("add", part, seq, run_id, history=True))
        elif was.args is not part.args and was.args != part.args:
            diffs.append(
                make_diff("update", part, seq, run_id, previous_args=was.args, history=True)
            )
    diffs.extend(
        make_diff("remove", part, seq, run_id, history=True)
        for key, part in before.items()
        if key not in after
    )
    return tuple(diffs)


def _restored(history: Sequence[HistoryEntry]) -> dict[tuple[str, str], Part]:
    """History's parts by (assistant message, surface), each carrying that message's id."""
    return {
        (entry.message_id, part.surface_id): _replace(part, message_id=entry.message_id)
        for entry in history
        for part in entry.parts
    }


#: What a settled warning adds to its message.
_SETTLED = " (still so when the run ended)"
_DEBUG = Severity.DEBUG
_WARNING = Severity.WARNING


def _diff(
    op: Literal["add", "update", "remove"],
    part: Part,
    seq: int,
    run: RunState,
    *,
    previous_args: dict[str, Any] | UnsetType = UNSET,
) -> PartDiff:
    return make_diff(op, part, seq, run.run_id, previous_args=previous_args)


def make_diff(
    op: Literal["add", "update", "remove"],
    part: Part,
    seq: int,
    run_id: str | None,
    *,
    previous_args: dict[str, Any] | UnsetType = UNSET,
    history: bool = False,
) -> PartDiff:
    """The diff of ``op`` on ``part``: the one place each kind of diff is made.

    Args:
        op: what happened to the part.
        part: the part (as it is now; as it was, for a remove).
        seq: the event that caused it.
        run_id: the run it happened in.
        previous_args: for an update, the element tree before.
        history: the part is one restored from history.
    """
    # Keywords spelt out: a ``**`` dict costs msgspec several times the call itself.
    if op == "remove":
        return PartRemoved(
            seq=seq,
            run_id=run_id,
            message_id=part.message_id,
            surface_id=part.surface_id,
            tool_call_id=part.tool_call_id,
            tool_name=part.tool_name,
            history=history,
        )
    if op == "add" or isinstance(previous_args, UnsetType):
        return PartAdded(
            seq=seq,
            run_id=run_id,
            message_id=part.message_id,
            surface_id=part.surface_id,
            tool_call_id=part.tool_call_id,
            tool_name=part.tool_name,
            history=history,
            args=part.args,
        )
    return PartUpdated(
        seq=seq,
        run_id=run_id,
        message_id=part.message_id,
        surface_id=part.surface_id,
        tool_call_id=part.tool_call_id,
        tool_name=part.tool_name,
        history=history,
        args=part.args,
        previous_args=previous_args,
    )
