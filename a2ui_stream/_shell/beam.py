"""Archives on Apache Beam: the core's thread fold as transforms, for any Beam runner.

Owns the Beam side of issue 20, and only the Beam side: every result is computed by
the core (:mod:`a2ui_stream._engine.threads`, ``reorder`` and ``summary``); this
module moves bytes between the core and the engine.

* :class:`ReadArchive` reads either layout into one element per thread. Per-thread
  recordings (``layout="files"``) are never split into events: only their paths are
  grouped by thread (a file's thread is its first ``RUN_STARTED``'s ``threadId``, or
  its name), and the fold reads a thread's files itself, in path order, so no event is
  shuffled and ``seq`` is simply the position in the files. Interleaved logs
  (``layout="envelopes"``) are read line by line and grouped by ``threadId``; order is
  then whatever the engine delivers, and the fold sorts by ``seq``.
* :class:`FoldThreads` is the batch fold, one thread per element.
* :class:`StreamThreads` is the streaming fold: a stateful ``DoFn`` per thread with
  the core's reorder buffer (:func:`~a2ui_stream._engine.reorder.step`) and an
  event-time inactivity timer that flushes a quiet thread's result.
* :class:`WriteResults` writes per-thread results as JSONL and one summary.

apache-beam is an optional dependency (the ``beam`` extra); only this module and
:mod:`a2ui_stream.beam` import it, and ``import a2ui_stream`` never does.
"""

from __future__ import annotations

import collections
import time
from typing import TYPE_CHECKING, Any, Literal

import apache_beam as beam
import msgspec
from apache_beam import coders
from apache_beam.io import fileio, textio
from apache_beam.io.filesystems import FileSystems
from apache_beam.transforms import userstate
from apache_beam.transforms.timeutil import TimeDomain

from a2ui_stream._engine import summary as sums
from a2ui_stream._engine.carriers import RENDER_TOOL_NAME, WRAPPER_TOOL_NAME
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._engine.reorder import MAX_PENDING, Codec, Progress, give_up, step
from a2ui_stream._engine.threads import (
    ThreadFold,
    ThreadResult,
    find_thread,
    fold_thread,
    key_envelope,
    sendable_name,
    thread_name,
)
from a2ui_stream._state.wire import encode
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.framing import Frame, Framer

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from a2ui_stream._wire.limits import Limits

__all__ = [
    "INVALID",
    "FoldThreads",
    "KeyEnvelopes",
    "Layout",
    "ProgressCoder",
    "ReadArchive",
    "ResultCoder",
    "StreamThreads",
    "SummaryCoder",
    "WriteResults",
    "with_globstar",
]

Layout = Literal["files", "envelopes"]
"""How an archive is laid out: one recording per thread, or interleaved envelopes."""

#: How much of a file is read at a time.
_CHUNK = 1 << 20
#: Threads whose live fold a streaming worker keeps in memory.
_CACHED_THREADS = 256
#: The tag of the read's side output: lines that were not envelopes.
INVALID = "invalid"


class _StructCoder(coders.Coder):  # type: ignore[misc]  # Beam is untyped to mypy
    """A Beam coder for one of the core's records, in its compact msgpack form."""

    kind: type[Any]

    def __init__(self) -> None:
        self._codec = Codec(self.kind)

    def encode(self, value: Any) -> bytes:
        return self._codec.encode(value)

    def decode(self, encoded: bytes) -> Any:
        return self._codec.decode(encoded)

    def is_deterministic(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class ProgressCoder(_StructCoder):
    """A thread's :class:`~a2ui_stream._engine.reorder.Progress`, in streaming state."""

    kind = Progress


class ResultCoder(_StructCoder):
    """:class:`~a2ui_stream._engine.threads.ThreadResult` values between stages."""

    kind = ThreadResult


class SummaryCoder(_StructCoder):
    """Partial :class:`~a2ui_stream._engine.summary.Summary` values being combined."""

    kind = sums.Summary


for _coder in (ProgressCoder, ResultCoder, SummaryCoder):
    coders.registry.register_coder(_coder.kind, _coder)


def _chunks(path: str) -> Iterator[bytes]:
    """A file's bytes, chunk by chunk, through Beam's file systems (any runner's)."""
    with FileSystems.open(path) as stream:
        while chunk := stream.read(_CHUNK):
            yield chunk


def _frames(path: str, limits: Limits | None) -> Iterator[list[Frame | Diagnostic]]:
    """A recording cut into payloads, as ``process`` cuts it (JSONL or SSE)."""
    framer = Framer() if limits is None else Framer(max_line_bytes=limits.max_line_bytes)
    for chunk in _chunks(path):
        yield framer.feed(chunk)
    yield framer.close()


def _payloads(path: str) -> Iterator[bytes]:
    for items in _frames(path, None):
        yield from (item.payload for item in items if isinstance(item, Frame))


def _file_thread(path: str) -> tuple[str, str]:
    return find_thread(_payloads(path)) or thread_name(path), path


class _Files(msgspec.Struct, frozen=True, array_like=True):
    """A thread of the files layout: its recordings, folded in this order."""

    paths: tuple[str, ...]


def with_globstar(patterns: Sequence[str]) -> list[str]:
    """The patterns, and for each with ``/**/`` the same without it.

    Beam's ``**`` matches one directory or more; a shell's ``**/`` (globstar), which
    ``envelope`` follows, also matches none, so ``a/**/*.jsonl`` takes ``a/x.jsonl``.
    """
    return [*patterns, *(p.replace("/**/", "/", 1) for p in patterns if "/**/" in p)]


def _path(metadata: Any) -> Iterator[Any]:
    """A matched file's path, or a diagnostic when the name cannot travel as UTF-8.

    Python holds a name that is not UTF-8 with a surrogate per bad byte, which Beam's
    coders cannot encode: carried on, it would stop the pipeline.
    """
    path = str(metadata.path)
    try:
        path.encode()
    except UnicodeEncodeError:
        shown = sendable_name(path)
        yield beam.pvalue.TaggedOutput(
            INVALID,
            Diagnostic(
                code=Code.ARCHIVE_FILE_NAME_INVALID,
                message=f"the file name {shown} is not UTF-8, which the engine cannot "
                "carry; skipped (rename it to UTF-8, as convmv does, to read it)",
                severity=Severity.ERROR,
            ),
        )
    else:
        yield path


def _ordered(element: tuple[str, Iterable[str]]) -> tuple[str, _Files]:
    thread_id, paths = element
    return thread_id, _Files(tuple(sorted(paths)))


class ReadArchive(beam.PTransform):  # type: ignore[misc]  # Beam is untyped to mypy
    """Read an archive into one element per thread, ready for :class:`FoldThreads`.

    Returns two collections by name: ``"threads"``, one ``(threadId, thread)`` pair per
    thread, and ``"invalid"``, a :class:`~a2ui_stream.Diagnostic` for every line that is
    not an envelope (always empty with ``layout="files"``), for :class:`WriteResults`.
    """

    def __init__(self, patterns: Sequence[str], *, layout: Layout = "files") -> None:
        """Say what to read.

        Args:
            patterns: file patterns in the runner's file systems: ``*`` matches within
                a name, ``**/`` any directories, none included (as a shell's globstar).
            layout: ``"files"``, one recording (JSONL or SSE) per thread, or
                ``"envelopes"``, interleaved ``{"threadId","seq","event"}`` lines.
        """
        super().__init__()
        self._patterns = with_globstar(patterns)
        self._layout = layout

    def expand(self, begin: Any) -> Any:
        found = (
            begin
            | "Patterns" >> beam.Create(self._patterns)
            | "Match" >> fileio.MatchAll()
            | "Paths" >> beam.FlatMap(_path).with_outputs(INVALID, main="paths")
        )
        matched, unnamed = found["paths"], found[INVALID]
        if self._layout == "files":
            threads = (
                matched
                | "Deduplicate paths" >> beam.Distinct()
                | "Name threads" >> beam.Map(_file_thread)
                | "Group files" >> beam.GroupByKey()
                | "Order files" >> beam.Map(_ordered)
            )
            return {"threads": threads, INVALID: unnamed}
        keyed = (
            matched
            | "Deduplicate paths" >> beam.Distinct()
            | "Lines" >> textio.ReadAllFromText(coder=coders.BytesCoder())
            | "Key" >> KeyEnvelopes()
        )
        threads = keyed["keyed"] | "Group events" >> beam.GroupByKey()
        invalid = (keyed[INVALID], unnamed) | "Bad lines and names" >> beam.Flatten()
        return {"threads": threads, INVALID: invalid}


class KeyEnvelopes(beam.PTransform):  # type: ignore[misc]  # Beam is untyped to mypy
    """Interleaved-log lines to ``(threadId, (seq, payload))`` and bad-line diagnostics.

    Outputs ``"keyed"`` (the events) and ``"invalid"`` (one diagnostic per line that is
    not an envelope); what :class:`StreamThreads` reads from a stream of lines.
    """

    def expand(self, lines: Any) -> Any:
        return lines | "Key envelopes" >> beam.ParDo(_KeyEnvelope()).with_outputs(
            INVALID, main="keyed"
        )


class _KeyEnvelope(beam.DoFn):  # type: ignore[misc]  # Beam is untyped to mypy
    def process(self, line: bytes) -> Iterator[Any]:
        keyed = key_envelope(line)
        if isinstance(keyed, Diagnostic):
            yield beam.pvalue.TaggedOutput(INVALID, keyed)
        else:
            yield keyed.thread_id, (keyed.seq, keyed.event)


class FoldThreads(beam.PTransform):  # type: ignore[misc]  # Beam is untyped to mypy
    """The batch fold: each thread of :class:`ReadArchive` to ``(result, cpu seconds)``."""

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        render_tools: Iterable[str] = (RENDER_TOOL_NAME,),
        wrapper_tools: Iterable[str] = (WRAPPER_TOOL_NAME,),
        catalog_id: str | None = None,
    ) -> None:
        """Configure the fold.

        Args:
            limits: the bounds to enforce; the defaults when omitted.
            render_tools: as :class:`~a2ui_stream.Processor` takes them.
            wrapper_tools: likewise.
            catalog_id: likewise.
        """
        super().__init__()
        self._limits = limits
        self._carriers = _carriers(render_tools, wrapper_tools, catalog_id)

    def expand(self, threads: Any) -> Any:
        return threads | "Fold" >> beam.Map(_fold, self._limits, self._carriers)


def _carriers(
    render_tools: Iterable[str], wrapper_tools: Iterable[str], catalog_id: str | None
) -> dict[str, Any]:
    """The carrier options as :class:`ThreadFold` takes them, checked here, on the driver.

    The reducer's own checks refuse a wrong option now, not on a worker mid-pipeline,
    and its frozensets travel to the workers as they are.
    """
    tools = Reducer(
        render_tools=render_tools, wrapper_tools=wrapper_tools, catalog_id=catalog_id
    ).tools
    return {
        "render_tools": tools.render_tools,
        "wrapper_tools": tools.wrapper_tools,
        "catalog_id": tools.catalog_id,
    }


def _fold(
    element: tuple[str, _Files | Iterable[tuple[int, bytes]]],
    limits: Limits | None,
    carriers: dict[str, Any],
) -> tuple[ThreadResult, float]:
    """Fold one thread, timing the fold in CPU seconds of this worker's thread."""
    start = time.thread_time()
    thread_id, thread = element
    if isinstance(thread, _Files):
        fold = ThreadFold(thread_id, limits=limits, **carriers)
        for path in thread.paths:
            for items in _frames(path, limits):
                fold.feed_frames(items)
        result = fold.result()
    else:
        result = fold_thread(thread_id, thread, limits=limits, **carriers)
    return result, time.thread_time() - start


class StreamThreads(beam.PTransform):  # type: ignore[misc]  # Beam is untyped to mypy
    """The streaming fold: keyed events to each thread's result once it goes quiet.

    Input: ``(threadId, (seq, payload))`` pairs, in any order, each with an event
    timestamp. Events are released to the fold in ``seq`` order by the core's reorder
    buffer; a duplicate ``seq`` is dropped and counted. When no event of a thread has
    come for ``idle_seconds`` of event time (measured from the latest event's
    timestamp), its waiting events are released past their gaps and
    ``(result, cpu seconds)`` is emitted; the thread's state is cleared. An event that
    arrives for a thread after that starts a new result.
    """

    def __init__(
        self,
        *,
        idle_seconds: float = 600.0,
        max_pending: int = MAX_PENDING,
        limits: Limits | None = None,
        render_tools: Iterable[str] = (RENDER_TOOL_NAME,),
        wrapper_tools: Iterable[str] = (WRAPPER_TOOL_NAME,),
        catalog_id: str | None = None,
    ) -> None:
        """Configure the fold.

        Args:
            idle_seconds: event time without an event after which a thread is done.
            max_pending: early events a thread holds before its lowest gap is given up.
            limits: the bounds to enforce; the defaults when omitted.
            render_tools: as :class:`~a2ui_stream.Processor` takes them.
            wrapper_tools: likewise.
            catalog_id: likewise.
        """
        super().__init__()
        carriers = _carriers(render_tools, wrapper_tools, catalog_id)
        self._fn = _StreamingFold(idle_seconds, max_pending, limits, carriers)

    def expand(self, keyed: Any) -> Any:
        return keyed | "Fold in order" >> beam.ParDo(self._fn)


#: A released event as the streaming fold keeps it: ``(seq, payload)``.
_RELEASED = coders.TupleCoder((coders.VarIntCoder(), coders.BytesCoder()))


_PROGRESS = userstate.ReadModifyWriteStateSpec("progress", ProgressCoder())
_FOLDED = userstate.BagStateSpec("folded", _RELEASED)
_DEADLINE = userstate.ReadModifyWriteStateSpec("deadline", coders.FloatCoder())
_CPU = userstate.ReadModifyWriteStateSpec("cpu", coders.FloatCoder())
_IDLE = userstate.TimerSpec("idle", TimeDomain.WATERMARK)
# Beam reads a DoFn's state and timers from its parameters' defaults.
_TIMESTAMP = beam.DoFn.TimestampParam
_KEY = beam.DoFn.KeyParam
_PROGRESS_STATE = beam.DoFn.StateParam(_PROGRESS)
_FOLDED_STATE = beam.DoFn.StateParam(_FOLDED)
_DEADLINE_STATE = beam.DoFn.StateParam(_DEADLINE)
_CPU_STATE = beam.DoFn.StateParam(_CPU)
_IDLE_TIMER = beam.DoFn.TimerParam(_IDLE)


class _StreamingFold(beam.DoFn):  # type: ignore[misc]  # Beam is untyped to mypy
    """One thread's fold as Beam state: the progress, the events folded, a timer.

    The durable state is the core's :class:`Progress` (next seq, reorder buffer,
    counts) and the events already folded; the fold itself is their replay, so it is
    never encoded. A worker keeps the live folds of recent threads in memory and uses
    one only when the durable progress says it is the fold of exactly those events
    (same next seq, same digest); after a retry or a move to another worker, the fold
    is rebuilt from the folded events.
    """

    def __init__(
        self,
        idle_seconds: float,
        max_pending: int,
        limits: Limits | None,
        carriers: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self._idle = idle_seconds
        self._max_pending = max_pending
        self._limits = limits
        self._carriers = carriers or {}
        self._live: collections.OrderedDict[str, tuple[int, int, ThreadFold]] = (
            collections.OrderedDict()
        )

    def setup(self) -> None:
        self._live = collections.OrderedDict()

    def _fold_of(self, thread_id: str, progress: Progress, folded: Any) -> ThreadFold:
        cached = self._live.pop(thread_id, None)
        if cached is not None and cached[:2] == (progress.next_seq, progress.digest):
            return cached[2]
        fold = ThreadFold(thread_id, limits=self._limits, **self._carriers)
        fold.feed(payload for _, payload in sorted(folded.read()))
        return fold

    def _keep(self, thread_id: str, progress: Progress, fold: ThreadFold) -> None:
        self._live[thread_id] = (progress.next_seq, progress.digest, fold)
        while len(self._live) > _CACHED_THREADS:
            self._live.popitem(last=False)

    def process(  # noqa: PLR0917 - Beam passes state and timers as parameters
        self,
        element: tuple[str, tuple[int, bytes]],
        timestamp: Any = _TIMESTAMP,
        progress_state: Any = _PROGRESS_STATE,
        folded: Any = _FOLDED_STATE,
        deadline_state: Any = _DEADLINE_STATE,
        cpu: Any = _CPU_STATE,
        idle: Any = _IDLE_TIMER,
    ) -> Iterator[Any]:
        start = time.thread_time()
        thread_id, (seq, payload) = element
        before = progress_state.read() or Progress()
        after, released = step(before, seq, payload, max_pending=self._max_pending)
        if released:
            fold = self._fold_of(thread_id, before, folded)
            fold.feed(event for _, event in released)
            for record in released:
                folded.add(record)
            self._keep(thread_id, after, fold)
        progress_state.write(after)
        deadline = max(deadline_state.read() or float("-inf"), float(timestamp) + self._idle)
        deadline_state.write(deadline)
        idle.set(deadline)
        cpu.write((cpu.read() or 0.0) + time.thread_time() - start)
        return iter(())

    @userstate.on_timer(_IDLE)  # type: ignore[untyped-decorator]  # Beam is untyped to mypy
    def flush(
        self,
        thread_id: Any = _KEY,
        progress_state: Any = _PROGRESS_STATE,
        folded: Any = _FOLDED_STATE,
        deadline_state: Any = _DEADLINE_STATE,
        cpu: Any = _CPU_STATE,
    ) -> Iterator[tuple[ThreadResult, float]]:
        start = time.thread_time()
        before = progress_state.read()
        if before is None:
            return
        fold = self._fold_of(thread_id, before, folded)
        after, released = give_up(before)
        fold.feed(event for _, event in released)
        result = fold.result(duplicates=after.duplicates, missing=after.missing)
        seconds = (cpu.read() or 0.0) + time.thread_time() - start
        for state in (progress_state, folded, deadline_state, cpu):
            state.clear()
        yield result, seconds


class WriteResults(beam.PTransform):  # type: ignore[misc]  # Beam is untyped to mypy
    """Write ``(result, cpu seconds)`` pairs: per-thread JSONL and one archive summary.

    Writes ``OUT/threads-SSSSS-of-NNNNN.jsonl`` (one :class:`ThreadResult` per line,
    compact JSON, in no particular order) and ``OUT/summary.json`` (the
    :class:`~a2ui_stream._engine.summary.Summary` of every thread, and of the bad lines
    given as ``invalid``).
    """

    def __init__(self, out: str, *, invalid: Any = None) -> None:
        """Say where.

        Args:
            out: the output directory (any file system the runner has).
            invalid: a collection of diagnostics for lines no thread owns (from
                :class:`ReadArchive`), counted in the summary.
        """
        super().__init__()
        self._out = out.rstrip("/") or "/"
        self._invalid = invalid

    def expand(self, results: Any) -> Any:
        lines = results | "Encode" >> beam.Map(_line)
        lines | "Write threads" >> textio.WriteToText(
            f"{self._out}/threads", file_name_suffix=".jsonl", coder=coders.BytesCoder()
        )
        parts = results | "Summarize" >> beam.Map(_summarized)
        if self._invalid is not None:
            bad = self._invalid | "Count bad lines" >> beam.Map(_counted)
            parts = (parts, bad) | "With bad lines" >> beam.Flatten()
        total = parts | "Add up" >> beam.CombineGlobally(_SummaryFn())
        return (
            total
            | "Encode summary" >> beam.Map(_document)
            | "Write summary"
            >> textio.WriteToText(
                f"{self._out}/summary",
                file_name_suffix=".json",
                shard_name_template="",
                num_shards=1,
                coder=coders.BytesCoder(),
            )
        )


def _line(element: tuple[ThreadResult, float]) -> bytes:
    return encode(element[0])  # numbers as ``process --final`` writes them


def _document(summary: sums.Summary) -> bytes:
    return msgspec.json.format(encode(summary))


def _summarized(element: tuple[ThreadResult, float]) -> sums.Summary:
    return sums.summarize(*element)


def _counted(diagnostic: Diagnostic) -> sums.Summary:
    """A line no thread owns, in the summary: rejected, with its diagnostic's code."""
    return sums.Summary(rejected=1, errors=1, diagnostics={diagnostic.code: 1})


class _SummaryFn(beam.CombineFn):  # type: ignore[misc]  # Beam is untyped to mypy
    """The core's :func:`~a2ui_stream._engine.summary.merge`, as Beam combines."""

    def create_accumulator(self) -> sums.Summary:
        return sums.EMPTY

    def add_input(self, accumulator: sums.Summary, summary: sums.Summary) -> sums.Summary:
        return sums.merge(accumulator, summary)

    def merge_accumulators(self, accumulators: Iterable[sums.Summary]) -> sums.Summary:
        total = sums.EMPTY
        for accumulator in accumulators:
            total = sums.merge(total, accumulator)
        return total

    def extract_output(self, accumulator: sums.Summary) -> sums.Summary:
        return accumulator
