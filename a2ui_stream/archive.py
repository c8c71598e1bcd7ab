"""Archives of threads, engine-free: what an engine needs to fold them with this core.

Key a line of an interleaved log (:func:`key_envelope`, written by
:func:`envelope_line` or ``a2ui-stream envelope``), name a recording's thread
(:func:`find_thread`, else :func:`thread_name`), fold one thread into its
:class:`ThreadResult` (:func:`fold_thread` for a batch group in any order,
:class:`ThreadFold` when events come in order), release a stream's events in ``seq``
order (:func:`step`, :func:`give_up` over a :class:`Progress`), encode records for an
engine's coders (:class:`Codec`), and add results up (:func:`summarize`, :func:`merge`).
Nothing here imports an engine or does I/O; :mod:`a2ui_stream.beam` drives it on Apache
Beam. The definitions live in ``a2ui_stream._engine``; this module is their public name.
"""

from __future__ import annotations

from a2ui_stream._engine.reorder import MAX_PENDING, Codec, Progress, Released, give_up, step
from a2ui_stream._engine.summary import EMPTY, Slow, Summary, merge, summarize
from a2ui_stream._engine.threads import (
    ENVELOPE_INVALID,
    FinalPart,
    FinalRun,
    Keyed,
    RunLifecycle,
    ThreadFold,
    ThreadResult,
    envelope_line,
    find_thread,
    fold_thread,
    key_envelope,
    thread_name,
)

__all__ = [
    "EMPTY",
    "ENVELOPE_INVALID",
    "MAX_PENDING",
    "Codec",
    "FinalPart",
    "FinalRun",
    "Keyed",
    "Progress",
    "Released",
    "RunLifecycle",
    "Slow",
    "Summary",
    "ThreadFold",
    "ThreadResult",
    "envelope_line",
    "find_thread",
    "fold_thread",
    "give_up",
    "key_envelope",
    "merge",
    "step",
    "summarize",
    "thread_name",
]
