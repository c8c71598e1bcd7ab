"""The census of a run's live surfaces, and the run-wide cap on them (issue 12).

Owns :attr:`~a2ui_stream._state.stream.RunState.live`: for each surfaceId, how many of
the run's buckets hold it, kept up to date as each bucket is stored, so that the
number of surfaces alive in the run is one ``len`` and ``Limits.max_run_surfaces``
costs what a bucket changes. ``max_live_surfaces`` bounds one message; without this,
a run of many messages was bounded by nothing.

Must not import: conversion, the reducer, request or shell modules. Does no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    import immutables

    from a2ui_stream._state.stream import Bucket, RunState
    from a2ui_stream._wire.limits import Limits

__all__ = ["count_surfaces"]


def count_surfaces(
    run: RunState, bucket: Bucket, limits: Limits, seq: int, diagnostics: list[Diagnostic]
) -> tuple[immutables.Map[str, int], Bucket]:
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

    Returns:
        The run's new live counts, and the bucket without the surfaces it dropped.
    """
    previous = run.buckets.get(bucket.message_id)
    old = previous.surfaces if previous is not None else {}
    new = bucket.surfaces
    if new is old or (len(new) == len(old) and new.keys() == old.keys()):
        return run.live, bucket
    live = run.live.mutate()
    for surface_id in old:
        if surface_id not in new:
            count = live[surface_id] - 1
            if count:
                live[surface_id] = count
            else:
                del live[surface_id]
    limit = limits.max_run_surfaces
    dropped: list[str] = []
    for surface_id in new:
        if surface_id not in old:
            count = live.get(surface_id, 0)
            if count or len(live) < limit:
                live[surface_id] = count + 1
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
