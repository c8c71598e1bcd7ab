"""Pipelines: drive a :class:`Processor` from a byte source, async (anyio) or sync.

Owns the loop between a source of chunks and the processor, and replay from an event
log. Backpressure comes from pulling: the next chunk is read only after the consumer
has taken every diff of the previous one, so at most one chunk and its diffs are held,
whatever the input's length. Cancellation loses nothing already logged, because an
event is appended to the log before its diffs are produced.

This is shell: it may import anyio and read files; the core it drives may not.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, BinaryIO

import anyio
import anyio.abc
import msgspec

from a2ui_stream._engine.reducer import Reducer, Reduction
from a2ui_stream._state.stream import PartDiff, StreamState
from a2ui_stream._wire.codec import decode_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator

    from a2ui_stream._engine.eventlog import EventLog
    from a2ui_stream._engine.processor import Processor

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "aiter_diffs",
    "aiter_file_chunks",
    "iter_diffs",
    "iter_file_chunks",
    "replay",
]

#: Bytes read per chunk. Large enough that per-read overhead vanishes next to decoding
#: (a pipe's whole buffer), small enough to bound what one ``feed`` holds at once: the
#: diffs of every event the chunk completes, each with its surface's whole element
#: tree. A chunk of 1 MiB held 4,000 diffs of a list streamed one component at a time,
#: 126 MiB of peak RSS at 4,000 components, against 45 MiB at 64 KiB (issue 12).
DEFAULT_CHUNK_SIZE = 1 << 16


async def aiter_diffs(
    source: AsyncIterable[bytes] | anyio.abc.ByteReceiveStream, processor: Processor
) -> AsyncIterator[PartDiff]:
    """Feed an async byte source to ``processor`` and yield its diffs as they are decided.

    Args:
        source: any async iterable of byte chunks (an anyio stream, an HTTP body, a file
            read with :func:`aiter_file_chunks`).
        processor: the processor to drive; closed when the source ends.

    Yields:
        Part diffs in stream order.
    """
    async for chunk in source:
        for diff in processor.feed(chunk):
            yield diff
        # Give other tasks a turn between chunks, so a fast source cannot starve them.
        await anyio.lowlevel.checkpoint()
    for diff in processor.close():
        yield diff


async def aiter_file_chunks(
    file: anyio.AsyncFile[bytes], chunk_size: int = DEFAULT_CHUNK_SIZE
) -> AsyncIterator[bytes]:
    """Read an anyio file in chunks until end of file.

    Args:
        file: an open anyio file in binary mode.
        chunk_size: bytes per read.

    Yields:
        Non-empty chunks.
    """
    while chunk := await file.read(chunk_size):
        yield chunk


def iter_diffs(source: Iterable[bytes], processor: Processor) -> Iterator[PartDiff]:
    """Feed byte chunks to ``processor`` synchronously and yield its diffs.

    Args:
        source: any iterable of byte chunks.
        processor: the processor to drive; closed when the source ends.

    Yields:
        Part diffs in stream order.
    """
    for chunk in source:
        yield from processor.feed(chunk)
    yield from processor.close()


def iter_file_chunks(file: BinaryIO, chunk_size: int = DEFAULT_CHUNK_SIZE) -> Iterator[bytes]:
    """Read a binary file in chunks until end of file.

    Args:
        file: an open binary file (``sys.stdin.buffer`` works).
        chunk_size: bytes per read.

    Yields:
        Non-empty chunks.
    """
    # read1 returns what one system call gave, so a pipe's data flows as it arrives.
    read = getattr(file, "read1", file.read)
    while chunk := read(chunk_size):
        yield chunk


def replay(
    log: EventLog,
    *,
    reducer: Reducer | None = None,
    state: StreamState | None = None,
    start: int = 0,
) -> Iterator[Reduction]:
    """Rebuild state from a log, one reduction per logged event.

    Args:
        log: the event log to read.
        reducer: the reducer to fold with; a default one when omitted.
        state: the state to resume from (the fold of the log's events before ``start``);
            an empty state when omitted.
        start: the sequence number of the first event to read.

    Returns:
        An iterator of, for each event in log order, the state after it with its diffs
        and diagnostics. A line that is not a valid event gives the unchanged state and
        one diagnostic, which names its line (a log holds one record per line) and,
        read from the start, its byte offset, as ``inspect`` names the same line.

    Raises:
        TypeError: an argument is of the wrong kind (a path instead of a log: open it
            with ``FileLog.open(path, readonly=True)``), at the call, not at the first
            reduction.
        UsageError: ``start`` is negative.
    """
    if not callable(getattr(log, "read", None)):
        hint = "; open a file with FileLog.open(path, readonly=True)" if _is_path(log) else ""
        message = f"log must be an EventLog (MemoryLog, FileLog), not {type(log).__name__}{hint}"
        raise TypeError(message)
    if reducer is not None and not isinstance(reducer, Reducer):
        message = f"reducer must be a Reducer or None, not {type(reducer).__name__}"
        raise TypeError(message)
    if state is not None and not isinstance(state, StreamState):
        message = f"state must be a StreamState or None, not {type(state).__name__}"
        raise TypeError(message)
    if type(start) is not int or start < 0:
        message = f"start must be a whole number of at least 0, not {start!r}"
        raise UsageError(message)
    return _replayed(log, reducer or Reducer(), state or StreamState(), start)


def _is_path(value: object) -> bool:
    return isinstance(value, str | bytes | os.PathLike)


def _replayed(
    log: EventLog, reducer: Reducer, current: StreamState, start: int
) -> Iterator[Reduction]:
    """The reductions :func:`replay` returns, read as they are taken."""
    # Where a record starts is the sum of the records before it, each with its line
    # feed: known when the read starts at the first.
    offset = 0 if start == 0 else None
    for seq, line in log.read(start):
        at, offset = offset, None if offset is None else offset + len(line) + 1
        try:
            event = decode_event(line)
        except (msgspec.DecodeError, ValueError, RecursionError) as error:
            problem = Diagnostic(
                code=Code.LOG_BAD_EVENT,
                message=f"log line is not a valid event: {error or type(error).__name__}",
                severity=Severity.ERROR,
                seq=seq,
                line=seq + 1,
                offset=at,
                raw=line[:200],
            )
            yield Reduction(current, (), (problem,))
            continue
        reduction = reducer.reduce(current, event)
        current = reduction.state
        yield reduction
