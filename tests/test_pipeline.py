"""Pipelines: sync and anyio drivers over chunked sources, cancellation, and replay."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import msgspec
import pytest
import stream_cases as cases

from a2ui_stream import (
    Diagnostic,
    FileLog,
    MemoryLog,
    PartDiff,
    Processor,
    Reducer,
    StreamState,
    decode_event,
)
from a2ui_stream._shell.pipeline import (
    aiter_diffs,
    aiter_file_chunks,
    iter_diffs,
    iter_file_chunks,
    replay,
)
from a2ui_stream._wire.codec import EventDecoder

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

#: A longer stream: the recording three times, so runs repeat and seq grows.
LONG = cases.RECORDING * 3


def one_feed(data: bytes) -> list[PartDiff]:
    processor = Processor()
    return processor.feed(data) + processor.close()


def run_async(function: Any, *args: Any) -> Any:
    return anyio.run(function, *args, backend="asyncio")


async def collect_from_stream(chunks: Iterable[bytes], buffer: int) -> list[PartDiff]:
    """Send chunks through a memory object stream and collect aiter_diffs' output."""
    send, receive = anyio.create_memory_object_stream[bytes](max_buffer_size=buffer)
    diffs: list[PartDiff] = []

    async def produce() -> None:
        async with send:
            for chunk in chunks:
                await send.send(chunk)

    async with anyio.create_task_group() as group, receive:
        group.start_soon(produce)
        diffs.extend([diff async for diff in aiter_diffs(receive, Processor())])
    return diffs


class TestIterDiffs:
    @pytest.mark.parametrize("data", [cases.RECORDING, cases.LIFECYCLE, cases.to_sse(LONG)])
    def test_same_as_one_feed(self, data: bytes) -> None:
        """Any chunking through iter_diffs gives the diffs of one feed and close."""
        expected = one_feed(data)
        for how, chunks in cases.chunkings(data, splits=4):
            assert list(iter_diffs(chunks, Processor())) == expected, how

    def test_closes_the_processor(self) -> None:
        """The source's end closes the processor, flushing an unterminated last line."""
        processor = Processor()
        data = cases.LIFECYCLE[: cases.LIFECYCLE.rindex(b"\n", 0, -1)]
        diffs = list(iter_diffs([data], processor))
        assert diffs == one_feed(cases.LIFECYCLE)
        with pytest.raises(ValueError, match="after close"):
            processor.feed(b"")

    def test_is_lazy(self) -> None:
        """Diffs come out before the source is exhausted: chunks are pulled one at a time."""
        pulled: list[int] = []

        def source() -> Iterable[bytes]:
            for index, chunk in enumerate(cases.RECORDING.splitlines(keepends=True)):
                pulled.append(index)
                yield chunk

        first = next(iter(iter_diffs(source(), Processor())))
        assert first.seq == 5
        assert pulled == list(range(6))

    def test_file_chunks(self, tmp_path: Path) -> None:
        """Reading a file in small chunks gives the same diffs as one feed."""
        path = tmp_path / "recording.jsonl"
        path.write_bytes(LONG)
        with path.open("rb") as file:
            chunks = list(iter_file_chunks(file, chunk_size=100))
        assert b"".join(chunks) == LONG
        assert max(len(chunk) for chunk in chunks) <= 100
        assert list(iter_diffs(chunks, Processor())) == one_feed(LONG)

    def test_file_chunks_without_read1(self) -> None:
        """A file object with only read() works too."""

        class Plain:
            def __init__(self, data: bytes) -> None:
                self._stream = io.BytesIO(data)

            def read(self, size: int) -> bytes:
                return self._stream.read(size)

        chunks = list(iter_file_chunks(Plain(LONG), chunk_size=333))  # type: ignore[arg-type]
        assert b"".join(chunks) == LONG
        assert all(chunks)


class TestAiterDiffs:
    @pytest.mark.parametrize("buffer", [0, 4])
    def test_memory_stream_same_as_one_feed(self, buffer: int) -> None:
        """A memory object stream source gives the diffs of one feed, however chunked."""
        expected = one_feed(LONG)
        for how, chunks in cases.chunkings(LONG, seed=buffer, splits=3):
            if how == "bytewise":
                continue
            assert run_async(collect_from_stream, chunks, buffer) == expected, how

    def test_bytewise_through_memory_stream(self) -> None:
        """One byte per item still gives the same diffs."""
        chunks = [cases.RECORDING[i : i + 1] for i in range(len(cases.RECORDING))]
        assert run_async(collect_from_stream, chunks, 16) == one_feed(cases.RECORDING)

    def test_async_file(self, tmp_path: Path) -> None:
        """An anyio file read in chunks gives the diffs of one feed."""
        path = tmp_path / "recording.sse"
        path.write_bytes(cases.to_sse(LONG))

        async def main() -> list[PartDiff]:
            async with await anyio.open_file(path, "rb") as file:
                chunks = aiter_file_chunks(file, chunk_size=257)
                return [diff async for diff in aiter_diffs(chunks, Processor())]

        assert run_async(main) == one_feed(LONG)

    def test_backpressure_pulls_one_chunk_at_a_time(self) -> None:
        """With an unbuffered stream, the producer waits until diffs are consumed."""
        lines = LONG.splitlines(keepends=True)
        sent: list[int] = []

        async def main() -> tuple[int, int]:
            send, receive = anyio.create_memory_object_stream[bytes](max_buffer_size=0)

            async def produce() -> None:
                async with send:
                    for index, chunk in enumerate(lines):
                        await send.send(chunk)
                        sent.append(index)

            async with anyio.create_task_group() as group, receive:
                group.start_soon(produce)
                diffs = aiter_diffs(receive, Processor())
                first = await diffs.__anext__()
                # Let the producer run as far as it can while we hold the first diff.
                for _ in range(50):
                    await anyio.lowlevel.checkpoint()
                held = len(sent)
                async for _ in diffs:
                    pass
            return first.seq, held

        first_seq, held = run_async(main)
        assert first_seq == 5
        # Only the chunk in hand (and one rendezvous) passed; not the rest of the input.
        assert held <= first_seq + 2
        assert len(sent) == len(lines)


class TestCancellation:
    def test_cancel_mid_stream_keeps_what_was_logged(self, tmp_path: Path) -> None:
        """Cancelling keeps every event fed so far in the log, whole, and nothing after."""
        path = tmp_path / "events.log"
        lines = LONG.splitlines(keepends=True)
        seen: list[PartDiff] = []

        async def main() -> int:
            send, receive = anyio.create_memory_object_stream[bytes](max_buffer_size=0)
            got_some = anyio.Event()
            with FileLog.open(path, fsync="never") as log:
                processor = Processor(log=log)

                async def consume() -> None:
                    async for diff in aiter_diffs(receive, processor):
                        seen.append(diff)
                        if len(seen) == 3:
                            got_some.set()

                async def produce() -> None:
                    for chunk in lines[:30]:
                        await send.send(chunk)
                    # Then the source stalls, as a slow network would.
                    await anyio.sleep_forever()

                async with anyio.create_task_group() as group, send, receive:
                    group.start_soon(consume)
                    group.start_soon(produce)
                    await got_some.wait()
                    group.cancel_scope.cancel()
                assert len(log) == processor.state.seq
                return processor.state.seq

        fed = run_async(main)
        assert fed >= seen[-1].seq + 1
        with FileLog.open(path) as reopened:
            assert reopened.recovered is None
            logged = [decode_event(record) for _, record in reopened.read()]
        assert len(logged) == fed
        assert logged == [decode_event(record) for record in lines[:fed]]

    def test_cancel_while_consumer_is_busy(self, tmp_path: Path) -> None:
        """Cancelling between two diffs of one chunk loses none of the chunk's events."""
        path = tmp_path / "events.log"

        async def main() -> tuple[int, int]:
            with FileLog.open(path, fsync="always") as log:
                processor = Processor(log=log)
                taken = 0
                with anyio.CancelScope() as scope:

                    async def source() -> Any:
                        yield LONG
                        await anyio.sleep_forever()

                    async for _ in aiter_diffs(source(), processor):
                        taken += 1
                        if taken == 2:
                            scope.cancel()
                            await anyio.lowlevel.checkpoint()
                return taken, len(log)

        taken, logged = run_async(main)
        assert taken == 2
        # The whole chunk was logged before its first diff left.
        assert logged == len(LONG.splitlines())
        with FileLog.open(path) as reopened:
            assert len(reopened) == logged
            assert reopened.recovered is None


class TestReplay:
    def log_of(self, data: bytes, log: Any) -> list[PartDiff]:
        processor = Processor(log=log)
        return processor.feed(data) + processor.close()

    @pytest.mark.parametrize("data", [LONG, cases.LIFECYCLE, b"junk\n" + cases.RECORDING])
    def test_same_diffs_and_state_as_processing(self, data: bytes) -> None:
        """Replaying a log gives the diffs and final state of processing directly."""
        log = MemoryLog()
        processor = Processor(log=log)
        direct = processor.feed(data) + processor.close()
        reductions = list(replay(log))
        assert [d for r in reductions for d in r.diffs] == direct
        assert reductions[-1].state == processor.state
        assert len(reductions) == processor.state.seq

    def test_file_log(self, tmp_path: Path) -> None:
        """A file log, closed and reopened, replays to the same diffs."""
        path = tmp_path / "events.log"
        with FileLog.open(path) as log:
            direct = self.log_of(LONG, log)
        with FileLog.open(path, readonly=True) as log:
            assert [d for r in replay(log) for d in r.diffs] == direct

    def test_resume_from_a_seq(self) -> None:
        """Replay from seq k with the state after k-1 gives the diffs from k on."""
        log = MemoryLog()
        direct = self.log_of(LONG, log)
        all_reductions = list(replay(log))
        for start in (1, 10, 22, 40, len(log)):
            state = all_reductions[start - 1].state
            tail = list(replay(log, state=state, start=start))
            assert [d for r in tail for d in r.diffs] == [d for d in direct if d.seq >= start]
            if tail:
                assert tail[-1].state == all_reductions[-1].state

    def test_custom_reducer(self) -> None:
        """A reducer with keep_runs=0 replays to the same diffs, keeping one run."""
        log = MemoryLog()
        direct = self.log_of(LONG, log)
        reductions = list(replay(log, reducer=Reducer(keep_runs=0)))
        assert [d for r in reductions for d in r.diffs] == direct
        assert len(reductions[-1].state.runs) == 1

    def test_bad_line_is_a_diagnostic(self) -> None:
        """A log line that is not an event yields the unchanged state and log.bad_event."""
        log = MemoryLog()
        log.append(msgspec.json.encode(cases.run_started("r")))
        log.append(b"not an event")
        log.append(msgspec.json.encode(cases.snapshot("m", cases.text_surface("s", "hi"))))
        first, bad, third = replay(log)
        assert bad.state == first.state
        [problem] = bad.diagnostics
        assert (problem.code, problem.seq, problem.raw) == ("log.bad_event", 1, b"not an event")
        assert [d.surface_id for d in third.diffs] == ["s"]

    def test_a_bad_line_names_its_line_and_offset_as_inspect_does(self, tmp_path: Path) -> None:
        """``replay`` places a bad log line where a decoder of the file places it."""
        started = msgspec.json.encode(cases.run_started("r"))
        lines = [started, b"not an event", started, b"[1]"]
        log = MemoryLog()
        for line in lines:
            log.append(line)
        found = [d for reduction in replay(log) for d in reduction.diagnostics]
        recording = tmp_path / "log.jsonl"
        recording.write_bytes(b"".join(line + b"\n" for line in lines))
        decoded = [
            d for d in EventDecoder().feed(recording.read_bytes()) if isinstance(d, Diagnostic)
        ]
        assert [(d.line, d.offset) for d in found] == [(d.line, d.offset) for d in decoded]
        assert [(d.line, d.offset) for d in found] == [
            (2, len(started) + 1),
            (4, 2 * len(started) + 15),
        ]
        # Read from a later seq, the offset is unknown to a log store; the line is not.
        later = [d for reduction in replay(log, start=2) for d in reduction.diagnostics]
        assert [(d.seq, d.line, d.offset) for d in later] == [(3, 4, None)]

    def test_empty_log(self) -> None:
        """An empty log replays to nothing."""
        assert list(replay(MemoryLog())) == []
        assert list(replay(MemoryLog(), state=StreamState())) == []
