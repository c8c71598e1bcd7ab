"""Parts: the surfaces a run owns, as ``present`` parts and the diffs between them.

Owns which bucket owns a surface (genuine activity first, then the tool carriers; the
most recently received bucket within each), converting an owned surface (reporting a
warning only when it appears, not again at every redraw), and the part diffs of one
event: a new part goes after the existing ones, an existing part keeps its place, an
unchanged element tree gives no diff. Also owns :class:`Conversions`, the cache beside
the state that keeps each surface's latest conversion for the converter to build on:
a value inside a :class:`~a2ui_stream._state.stream.StreamState` is immutable, so what
is only a speed-up lives here, and a state never depends on it.

Must not import: the reducer or the shell. Pure but for that cache: a run in, a new
run out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._state.stream import (
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
    from collections.abc import Iterable, Mapping, Sequence

    import immutables

    from a2ui_stream._convert.converter import Conversion, Converter
    from a2ui_stream._state.surface import ComponentChange, Surface
    from a2ui_stream._tree.patch import DataChange
    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = ["Conversions", "history_diffs", "make_diff", "settle", "synthesize"]

_replace = msgspec.structs.replace
#: Surfaces whose latest conversion is kept; beyond, the least recently converted go.
_MAX_CONVERSIONS: Final = 10_000


class Conversions:
    """The latest conversion of each surface, beside the state: a cache, nothing more.

    Cleared when a run starts (no event reaches a past run's surfaces again) and bounded
    in size, so memory follows the current run's live surfaces. A conversion found here
    is only offered to the converter, which checks by identity that it was made from the
    surface it builds on: a stale or foreign entry costs speed, never correctness.
    """

    __slots__ = ("_by_surface",)

    def __init__(self) -> None:
        self._by_surface: OrderedDict[str, Conversion] = OrderedDict()

    def get(self, surface_id: str) -> Conversion | None:
        return self._by_surface.get(surface_id)

    def put(self, surface_id: str, conversion: Conversion) -> None:
        by_surface = self._by_surface
        by_surface[surface_id] = conversion
        by_surface.move_to_end(surface_id)
        if len(by_surface) > _MAX_CONVERSIONS:
            by_surface.popitem(last=False)

    def drop(self, surface_id: str) -> None:
        self._by_surface.pop(surface_id, None)

    def clear(self) -> None:
        self._by_surface.clear()


def _owner(
    run: RunState,
    surface_id: str,
    placed: tuple[str, Mapping[str, Surface], bool] | None = None,
) -> tuple[str, Surface] | None:
    """Return the most recent bucket holding ``surface_id`` and its surface.

    Activity outranks the tool carriers, whichever came first (as the Kotlin client
    ranks carriers): a tool bucket owns a surface only when no activity holds it. The
    bucket just ``placed`` (see :func:`synthesize`) is the answer without a search when
    it holds the surface: as the latest activity bucket, or as the only bucket.
    """
    holders = run.live.get(surface_id)
    if not holders:
        return None  # no bucket holds it (it was just deleted, say)
    if placed is not None:
        found = placed[1].get(surface_id)
        if found is not None and (not placed[2] or not holders.activity):
            return placed[0], found
    # The most recent holder, among the census's holders: a search of every bucket
    # made each delete of a surface an older message holds cost the whole run.
    for ids, buckets in ((holders.activity, run.buckets), (holders.tools, run.tool_buckets)):
        if ids:
            latest = max(ids, key=buckets.position)
            return latest, buckets[latest].surfaces[surface_id]
    return None


def synthesize(
    run: RunState,
    touched: Iterable[str],
    *,
    seq: int,
    converter: Converter,
    conversions: Conversions,
    known: Sequence[DataChange | ComponentChange] = (),
    placed: tuple[str, Mapping[str, Surface], bool] | None = None,
) -> tuple[RunState, tuple[PartDiff, ...], list[Diagnostic]]:
    """Recompute the parts of the touched surfaces and diff them against the run's parts.

    Args:
        run: the run, its buckets already holding the change.
        touched: the surfaceIds the change may have touched.
        seq: the index of the event that caused it.
        converter: converts each surface that changed.
        conversions: the latest conversion of each surface, to build on.
        known: what is known of how data values and components changed.
        placed: the bucket just stored as the most recent of its kind (its messageId,
            surfaces, and whether it is a tool bucket): it owns its surfaces, a tool
            bucket those no other bucket holds, which spares a search of every bucket
            (with many live buckets, the most of a snapshot's time).

    Returns:
        The run with its parts and reported warnings updated, the diffs (in the order of the
        parts afterwards, adds and updates, then removes), and conversion warnings: at
        debug level while the run is running (see :func:`settle`).
    """
    parts = run.parts
    reported = run.reported
    run_id = run.run_id
    diffs: list[PartDiff] = []
    removed: list[PartDiff] = []
    added: list[Part] = []  # new parts go in after the others, in upstream's order
    diagnostics: list[Diagnostic] = []
    for surface_id in dict.fromkeys(touched):
        owner = _owner(run, surface_id, placed)
        old = parts.get(surface_id)
        element = None
        if owner is None:
            conversions.drop(surface_id)
            if surface_id in reported:
                reported = reported.delete(surface_id)
        else:
            previous = conversions.get(surface_id)
            conversion = converter.convert(owner[1], previous, known=known)
            if conversion is not previous:
                conversions.put(surface_id, conversion)
            element = conversion.element
            if conversion.warnings or surface_id in reported:  # else nothing to report
                where = (seq, owner[0], run.status == "running")
                reported = _report(reported, surface_id, conversion, where, diagnostics)
        if owner is None or element is None:
            if old is not None:
                parts = parts.delete(surface_id)
                removed.append(make_diff("remove", old, seq, run_id))
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
            diffs.append(make_diff("update", part, seq, run_id, previous_args=old.args))
    if len(added) > 1:
        # Upstream's client unions the buckets, least recent first, each surfaceId in the
        # place it first took, and appends the surfaces without a part as it meets them.
        buckets = (*run.tool_buckets.values(), *run.buckets.values())
        union = dict.fromkeys(sid for bucket in buckets for sid in bucket.surfaces)
        order = {surface_id: index for index, surface_id in enumerate(union)}
        added.sort(key=lambda part: order[part.surface_id])
    for part in added:
        parts = parts.set(part.surface_id, part)
        diffs.append(make_diff("add", part, seq, run_id))
    if len(diffs) > 1:
        diffs.sort(key=lambda d: parts.position(d.surface_id))
    new_run = msgspec.structs.replace(run, parts=parts, reported=reported)
    return new_run, (*diffs, *removed), diagnostics


def _report(
    reported: immutables.Map[str, tuple[Diagnostic, ...]],
    surface_id: str,
    conversion: Conversion,
    where: tuple[int, str, bool],
    diagnostics: list[Diagnostic],
) -> immutables.Map[str, tuple[Diagnostic, ...]]:
    """Report the warnings of a conversion that its surface's latest one did not give.

    So a stream of deltas to a surface with a lasting problem reports it once, not at
    every redraw. While the run is open (``provisional``, the last of ``where``) they
    are reported at debug level: :func:`settle` reports the ones still true when the
    run ends. Returns ``reported`` holding this conversion's warnings.
    """
    warnings = conversion.warnings
    before = reported.get(surface_id, ())
    if warnings == before:
        return reported
    if not warnings:
        return reported.delete(surface_id)
    seq, message_id, provisional = where
    seen = set(before)
    for warning in warnings:
        if warning not in seen:
            demoted = provisional and warning.severity is _WARNING
            severity = _DEBUG if demoted else warning.severity
            diagnostics.append(_replace(warning, seq=seq, message_id=message_id, severity=severity))
    return reported.set(surface_id, warnings)


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
    found: list[Diagnostic] = []
    reported = run.reported
    for surface_id, message_id in _owners(run).items():
        found.extend(
            _replace(w, seq=seq, message_id=message_id, message=w.message + _SETTLED)
            for w in reported.get(surface_id, ())
            if w.severity is _WARNING
        )
    return found


def _owners(run: RunState) -> dict[str, str]:
    """The messageId :func:`_owner` finds for every live surface, in one pass over the buckets.

    In the order of :meth:`~a2ui_stream._state.stream.RunState.surfaces`; a later bucket
    wins, and activity buckets come after the tool buckets they outrank.
    """
    owners: dict[str, str] = {}
    for buckets in (run.tool_buckets, run.buckets):
        for message_id, bucket in buckets.items():
            owners.update(dict.fromkeys(bucket.surfaces, message_id))
    return owners


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
