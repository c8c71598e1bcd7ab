"""The archive summary: thread results added up, in any grouping, in any order.

Owns :class:`Summary`, what an archive job reports across all its threads: how many
threads, runs and events, runs by how they ended, the surfaces in the runs' final
parts (by root element type), lifecycle failures with the threads they happened in,
diagnostics by code, and the slowest threads. :func:`summarize` makes the summary of
one thread and :func:`merge` adds two summaries; ``merge`` is associative and
commutative and :data:`EMPTY` is its identity, so an engine may combine partial
summaries in whatever tree it likes and always gets the same value.

Pure functions of immutable values. Must not import the shell or any engine library.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from a2ui_stream._engine.threads import ThreadResult

__all__ = ["EMPTY", "KEEP", "Slow", "Summary", "merge", "summarize"]

#: How many slowest threads, and how many threads with failures, a summary names.
KEEP = 10


class Slow(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One of the slowest threads.

    Attributes:
        thread_id: the thread.
        seconds: CPU time its fold took, as the worker that folded it measured.
        events: its events.
        duration_ms: the span of its events' timestamps, when they had any.
    """

    thread_id: str
    seconds: float
    events: int
    duration_ms: int | None = None


class Summary(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """An archive in figures.

    Attributes:
        threads: threads folded.
        runs: runs across them.
        events: events folded.
        rejected: events dropped whole (not JSON, not an event...).
        errors: ERROR diagnostics: input dropped in part or whole.
        duplicates: repeated events dropped.
        missing: events never seen (gaps gone past).
        statuses: runs by how they ended (``finished``, ``error``, ``running``).
        surfaces: parts in the runs' final states: the surfaces left drawn.
        element_types: those parts by the ``$type`` of their root element.
        failed_runs: runs that ended with ``RUN_ERROR``.
        failed_messages: messages whose last lifecycle phase is ``failed``.
        failed_threads: how many threads had a failed run or message.
        failed_examples: the first of them, by thread id.
        diagnostics: warnings and errors by code, most frequent first.
        slowest: the threads whose fold took the most CPU time, slowest first.
    """

    threads: int = 0
    runs: int = 0
    events: int = 0
    rejected: int = 0
    errors: int = 0
    duplicates: int = 0
    missing: int = 0
    statuses: dict[str, int] = msgspec.field(default_factory=dict)
    surfaces: int = 0
    element_types: dict[str, int] = msgspec.field(default_factory=dict)
    failed_runs: int = 0
    failed_messages: int = 0
    failed_threads: int = 0
    failed_examples: list[str] = msgspec.field(default_factory=list)
    diagnostics: dict[str, int] = msgspec.field(default_factory=dict)
    slowest: list[Slow] = msgspec.field(default_factory=list)


#: The summary of no thread: :func:`merge`'s identity.
EMPTY = Summary()


def summarize(result: ThreadResult, seconds: float) -> Summary:
    """The summary of one thread.

    Args:
        result: the thread's result.
        seconds: the CPU time its fold took (measured by the caller: the core reads
            no clock).

    Returns:
        A summary counting that thread alone.
    """
    types: Counter[str] = Counter()
    for run in result.runs:
        for part in run.parts:
            root = part.args.get("$type") if isinstance(part.args, dict) else None
            types[root if isinstance(root, str) else "(none)"] += 1
    statuses = Counter(run.status for run in result.lifecycle)
    failed_runs = statuses.get("error", 0)
    failed_messages = sum(
        phase == "failed" for run in result.lifecycle for phase in run.messages.values()
    )
    failed = bool(failed_runs or failed_messages)
    return Summary(
        threads=1,
        runs=len(result.runs),
        events=result.events,
        rejected=result.rejected,
        errors=result.errors,
        duplicates=result.duplicates,
        missing=result.missing,
        statuses=dict(sorted(statuses.items())),
        surfaces=sum(types.values()),
        element_types=_ranked(types),
        failed_runs=failed_runs,
        failed_messages=failed_messages,
        failed_threads=int(failed),
        failed_examples=[result.thread_id] if failed else [],
        diagnostics=_ranked(result.diagnostics),
        slowest=[
            Slow(
                thread_id=result.thread_id,
                seconds=seconds,
                events=result.events,
                duration_ms=result.duration_ms,
            )
        ],
    )


def merge(first: Summary, second: Summary) -> Summary:
    """Add two summaries.

    Args:
        first: one summary.
        second: another, of other threads.

    Returns:
        The summary of both sets of threads.
    """
    if first is EMPTY:
        return second
    if second is EMPTY:
        return first
    slowest = sorted((*first.slowest, *second.slowest), key=lambda s: (-s.seconds, s.thread_id))
    return Summary(
        threads=first.threads + second.threads,
        runs=first.runs + second.runs,
        events=first.events + second.events,
        rejected=first.rejected + second.rejected,
        errors=first.errors + second.errors,
        duplicates=first.duplicates + second.duplicates,
        missing=first.missing + second.missing,
        statuses=dict(sorted(_added(first.statuses, second.statuses).items())),
        surfaces=first.surfaces + second.surfaces,
        element_types=_ranked(_added(first.element_types, second.element_types)),
        failed_runs=first.failed_runs + second.failed_runs,
        failed_messages=first.failed_messages + second.failed_messages,
        failed_threads=first.failed_threads + second.failed_threads,
        failed_examples=sorted({*first.failed_examples, *second.failed_examples})[:KEEP],
        diagnostics=_ranked(_added(first.diagnostics, second.diagnostics)),
        slowest=slowest[:KEEP],
    )


def _added(first: Mapping[str, int], second: Mapping[str, int]) -> Counter[str]:
    total = Counter(first)
    total.update(second)
    return total


def _ranked(counts: Mapping[str, int]) -> dict[str, int]:
    """Counts most frequent first, ties by name: one order whatever the merge order."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
