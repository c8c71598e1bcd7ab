"""A command's ``--log``: opened without harm, folded, and continued.

Owns what ``process`` and ``run`` do alike with an event log: refuse a file the command
would destroy, report a torn tail found at open, fold the events the log already holds
and hand the result to a :class:`Processor` that appends to the same log. May import
the engine and the shell's file log and output.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Literal

from a2ui_stream._engine.processor import Processor
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._shell.filelog import FileLog
from a2ui_stream._shell.pipeline import replay
from a2ui_stream._state.stream import StreamState
from a2ui_stream._wire.codes import Code

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from contextlib import ExitStack
    from pathlib import Path

    from a2ui_stream._shell.filelog import FsyncPolicy
    from a2ui_stream._shell.output import Output
    from a2ui_stream._shell.report import Reporter
    from a2ui_stream._wire.limits import Limits

__all__ = ["identity", "open_log", "path_identity", "resumed_processor"]


def identity(stream: object) -> tuple[int, int] | None:
    """Return the ``(st_dev, st_ino)`` of a stream's file; ``None`` if it has no file."""
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return None
    try:
        status = os.fstat(fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation is both: a stream in memory
        return None
    return status.st_dev, status.st_ino


def path_identity(path: str | Path) -> tuple[int, int] | None:
    """Return the ``(st_dev, st_ino)`` of the file at ``path``, links followed.

    ``None`` when there is none to stat: whoever opens it says what is wrong.
    """
    try:
        status = os.stat(path)  # noqa: PTH116 - a str or a Path alike
    except OSError:
        return None
    return status.st_dev, status.st_ino


def open_log(
    path: Path,
    fsync: FsyncPolicy,
    *,
    spare: Iterable[tuple[object, str]],
    stack: ExitStack,
    reporter: Reporter,
) -> FileLog:
    """Open the ``--log`` file for appending, refusing one this command would destroy.

    Refused before a byte is written: any of the ``spare`` streams' files (the input,
    the file standard output goes to, however they are named), anything but a regular
    file, and an existing file that is not an event log (its first line is not an
    event as this program writes it). A torn tail the open repaired is reported.

    Args:
        path: the ``--log`` argument.
        fsync: the ``--fsync`` policy.
        spare: each stream the log must not be, with how to name it ("the input").
        stack: closes the log when the command ends.
        reporter: where the torn tail's diagnostic goes.

    Returns:
        The open log.
    """
    distinct = {found: what for stream, what in spare if (found := identity(stream)) is not None}
    log = stack.enter_context(
        FileLog.open(path, fsync=fsync, events_only=True, distinct_from=distinct)
    )
    if log.recovered is not None:
        reporter([log.recovered])
    return log


def resumed_processor(
    log: FileLog | None,
    reporter: Reporter,
    *,
    keep_runs: int | None,
    limits: Limits,
    carriers: Mapping[str, Any] | None = None,
    output: Output | None = None,
    emit_from: int = 0,
    format: Literal["auto", "jsonl", "sse"] = "auto",  # noqa: A002 - the CLI's --format
    strict: bool = False,
) -> Processor:
    """A processor that continues where the log stopped, appending to it.

    The state is always the fold of the log: appending new events to a log whose
    earlier events were ignored would make ``replay`` disagree with what was printed.
    With ``output``, the diffs of the folded events from seq ``emit_from`` on are
    written again (``process --from``), and flushed before any new event is logged.

    Args:
        log: the open ``--log``, or ``None`` (a fresh processor without a log).
        reporter: where the fold's ``log.bad_event`` errors go (the rest were
            reported when the events were first processed).
        keep_runs: as :class:`Processor`, for the fold and the processor alike.
        limits: likewise.
        carriers: ``render_tools``, ``wrapper_tools`` and ``catalog_id`` as
            :class:`Processor` takes them, for the fold and the processor alike; the
            defaults for any not given.
        output: where to write the folded diffs again, if anywhere.
        emit_from: the first seq whose diffs ``output`` gets.
        format: as :class:`Processor`.
        strict: likewise.

    Returns:
        The processor, its state the fold of ``log``.
    """
    named = dict(carriers or {})
    state = None
    if log is not None and len(log) > 0:
        reducer = Reducer(keep_runs=keep_runs, limits=limits, **named)
        state = StreamState()
        for reduction in replay(log, reducer=reducer):
            state = reduction.state
            reporter(d for d in reduction.diagnostics if d.code == Code.LOG_BAD_EVENT)
            if output is not None and reduction.diffs and reduction.diffs[0].seq >= emit_from:
                output.diffs(reduction.diffs)
        if output is not None:
            output.flush()
        reporter.logger.debug("resuming from the log", path=str(log.path), events=len(log))
    return Processor(
        format=format,
        strict=strict,
        log=log,
        keep_runs=keep_runs,
        limits=limits,
        state=state,
        **named,
    )
