"""The census of a run's live surfaces, and the run-wide cap on them (issue 12).

Owns :attr:`~a2ui_stream._state.stream.RunState.live`: for each surfaceId, which of
the run's buckets hold it, kept up to date as each bucket is stored, so that the
number of surfaces alive in the run is one ``len``, ``Limits.max_run_surfaces`` costs
what a bucket changes, and a surface's owner is looked for among its holders alone.
``max_live_surfaces`` bounds one message; without this, a run of many messages was
bounded by nothing.

Must not import: conversion, the reducer, request or shell modules. Does no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from a2ui_stream._state.stream import NO_HOLDERS
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from a2ui_stream._state.stream import Bucket, Live, RunState
    from a2ui_stream._wire.limits import Limits

__all__ = ["count_surfaces"]


def count_surfaces(  # noqa: PLR0917 - the bucket, where it goes, and where to report
    run: RunState,
    bucket: Bucket,
    limits: Limits,
    seq: int,
    diagnostics: list[Diagnostic],
    tool: bool = False,
) -> tuple[Live, Bucket]:
    """Count ``bucket``'s surfaces into the run's live ones, within ``max_run_surfaces``.

    Surfaces the bucket no longer holds are counted out first, so the room they leave
    can be taken. A surface new to the run beyond the limit is dropped from the bucket
    with one ``limit.run_surfaces`` error for the event; the run's earlier surfaces are
    all kept, and a dropped one is counted in again when its message next changes and
    there is room.

    Args:
        run: the run before ``bucket`` is stored in it.
        bucket: the bucket about to be stored.
        limits: where ``max_run_surfaces`` comes from.
        seq: the event's sequence number, for the diagnostic.
        diagnostics: receives the diagnostic.
        tool: the bucket is a tool carrier's (``run.buckets`` is then the tool buckets).

    Returns:
        The run's new live surfaces, and the bucket without the surfaces it dropped.
    """
    previous = run.buckets.get(bucket.message_id)
    old = previous.surfaces if previous is not None else {}
    new = bucket.surfaces
    if new is old or (len(new) == len(old) and new.keys() == old.keys()):
        return run.live, bucket
    message_id = bucket.message_id
    live = run.live.mutate()
    for surface_id in old:
        if surface_id not in new:
            holders = live[surface_id].without(message_id, tool=tool)
            if holders:
                live[surface_id] = holders
            else:
                del live[surface_id]
    limit = limits.max_run_surfaces
    dropped: list[str] = []
    for surface_id in new:
        if surface_id not in old:
            holders = live.get(surface_id, NO_HOLDERS)
            if holders or len(live) < limit:
                live[surface_id] = holders.with_holder(message_id, tool=tool)
            else:
                dropped.append(surface_id)
    if dropped:
        gone = set(dropped)
        kept = {sid: surface for sid, surface in new.items() if sid not in gone}
        bucket = msgspec.structs.replace(bucket, surfaces=kept)
        named = ", ".join(map(repr, dropped[:3])) + (", ..." if len(dropped) > 3 else "")
        diagnostics.append(
            Diagnostic(
                code=Code.LIMIT_RUN_SURFACES,
                message=(
                    f"{len(dropped)} new surface(s) ({named}) would take the run beyond the "
                    f"limit of {limit} live surfaces; they were dropped, the run's earlier "
                    "surfaces kept."
                ),
                severity=Severity.ERROR,
                seq=seq,
                message_id=bucket.message_id,
                surface_id=dropped[0],
            )
        )
    return live.finish(), bucket
