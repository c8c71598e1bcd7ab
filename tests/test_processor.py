"""The processor: bytes or decoded events in, part diffs out, however the input is cut."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
import stream_cases as cases

from a2ui_stream import (
    Diagnostic,
    MemoryLog,
    PartDiff,
    Processor,
    Severity,
    UsageError,
    decode_event,
    events,
)
from a2ui_stream._engine import processor as engine_processor
from a2ui_stream._wire.codec import EventDecoder


def feed_all(chunks: list[bytes], **options: Any) -> tuple[list[PartDiff], list[Diagnostic]]:
    """Feed chunks to a fresh processor and close it; return every diff and diagnostic."""
    processor = Processor(**options)
    diffs: list[PartDiff] = []
    for chunk in chunks:
        diffs.extend(processor.feed(chunk))
    diffs.extend(processor.close())
    return diffs, processor.take_diagnostics()


#: The lifecycle stream without its RUN_FINISHED, ending in an unterminated snapshot line.
UNTERMINATED = cases.LIFECYCLE[: cases.LIFECYCLE.rindex(b"\n", 0, -1)]


def recording_lines() -> list[bytes]:
    return [record for record in cases.RECORDING.splitlines() if record.strip()]


class FakePydanticEvent:
    """Stands in for an ``ag_ui.core`` event: only ``model_dump`` is used."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields
        self.calls: list[dict[str, Any]] = []

    def model_dump(self, **options: Any) -> dict[str, Any]:
        self.calls.append(options)
        return dict(self._fields)


class TestFeedBytes:
    @pytest.mark.parametrize(
        ("name", "data"),
        [("recording", cases.RECORDING), ("lifecycle", cases.LIFECYCLE)],
    )
    def test_chunking_never_changes_output(self, name: str, data: bytes) -> None:
        """Whole, byte by byte and random splits give the same diffs and diagnostics."""
        expected = feed_all([data])
        assert expected[0], f"{name} produces diffs"
        for how, chunks in cases.chunkings(data, seed=len(name)):
            assert feed_all(chunks) == expected, how

    def test_sse_gives_the_same_diffs_as_jsonl(self) -> None:
        """The same events framed as SSE (detected) give the same diffs as JSONL."""
        expected_diffs, expected_diagnostics = feed_all([cases.RECORDING])
        sse = cases.to_sse(cases.RECORDING)
        whole = feed_all([sse])
        assert whole[0] == expected_diffs
        # Lines and offsets are the SSE stream's own; what was found is the same.
        assert [(d.code, d.seq) for d in whole[1]] == [
            (d.code, d.seq) for d in expected_diagnostics
        ]
        for how, chunks in cases.chunkings(sse, seed=5, splits=3):
            assert feed_all(chunks) == whole, how
        assert feed_all([sse], format="sse") == whole

    def test_explicit_jsonl_format_refuses_sse(self) -> None:
        """With format="jsonl", SSE lines are not events: diagnostics and no diffs."""
        diffs, diagnostics = feed_all([cases.to_sse(cases.LIFECYCLE)], format="jsonl")
        assert diffs == []
        assert diagnostics
        assert all(d.severity is Severity.ERROR for d in diagnostics)

    def test_unterminated_last_line_is_flushed_at_close(self) -> None:
        """A last line without newline only completes at close, with the same diffs."""
        processor = Processor()
        early = processor.feed(UNTERMINATED)
        late = processor.close()
        assert [(d.op, d.surface_id) for d in late] == [("remove", "a")]
        assert early + late == feed_all([cases.LIFECYCLE])[0]

    def test_trailing_bytes_add_one_diagnostic_and_no_diff(self) -> None:
        """Trailing garbage after the last line leaves the diffs alone and is reported."""
        expected_diffs, expected_diagnostics = feed_all([cases.LIFECYCLE])
        for how, chunks in cases.chunkings(cases.LIFECYCLE + b'{"type":"RUN_ST', seed=9):
            diffs, diagnostics = feed_all(chunks)
            assert diffs == expected_diffs, how
            assert len(diagnostics) == len(expected_diagnostics) + 1
            assert diagnostics[-1].code == "json.invalid"
            assert diagnostics[-1].line == len(cases.LIFECYCLE_EVENTS) + 1
            assert diagnostics[-1].offset == len(cases.LIFECYCLE)

    def test_wire_contract_example(self) -> None:
        """The seed's example gives one add of a2ui:s1 with the documented args."""
        diffs, diagnostics = feed_all([cases.compact(cases.WIRE_CONTRACT_EXAMPLE) + b"\n"])
        assert diagnostics == []
        assert [(d.op, d.tool_call_id, d.tool_name, d.args) for d in diffs] == [
            ("add", "a2ui:s1", "present", cases.ORDER_CARD)
        ]

    def test_seq_counts_input_events(self) -> None:
        """Each diff's seq is the 0-based index of the event that caused it."""
        diffs, _ = feed_all([cases.LIFECYCLE])
        assert [(d.seq, d.op, d.surface_id) for d in diffs] == [
            (0, "add", "pre"),
            (2, "add", "a"),
            (4, "update", "a"),
            (5, "add", "b"),
            (6, "update", "a"),
            (7, "remove", "a"),
        ]

    def test_empty_chunks_are_harmless(self) -> None:
        """Feeding b"" returns nothing and does not end the input."""
        processor = Processor()
        assert processor.feed(b"") == []
        assert processor.feed(cases.LIFECYCLE)
        assert processor.close() == []


class TestFeedEvents:
    def expected(self) -> list[PartDiff]:
        return feed_all([cases.RECORDING])[0]

    def test_structs(self) -> None:
        """Our event Structs give the same diffs as their bytes."""
        processor = Processor()
        diffs = processor.feed_events(decode_event(record) for record in recording_lines())
        assert diffs == self.expected()
        # Events fed decoded have no line or offset; the findings are otherwise the same.
        located = feed_all([cases.RECORDING])[1]
        unlocated = [msgspec.structs.replace(d, line=None, offset=None) for d in located]
        assert processor.take_diagnostics() == unlocated

    def test_decoder_output_keeps_its_positions(self) -> None:
        """What an EventDecoder returns goes in as it is, diagnostics located as for bytes."""
        data = cases.RECORDING + b'{"type":"RUN_STARTED"}\n'
        direct, located = feed_all([data])
        decoder = EventDecoder()
        processor = Processor()
        diffs = processor.feed_events(decoder.feed(data)) + processor.feed_events(decoder.close())
        assert diffs == direct
        assert processor.take_diagnostics() == located
        assert located[-1].code == "event.invalid"
        assert all(d.line is not None for d in located)

    def test_plain_dicts(self) -> None:
        """Plain dicts in wire form give the same diffs as their bytes."""
        processor = Processor()
        assert processor.feed_events(json.loads(r) for r in recording_lines()) == self.expected()

    def test_objects_with_model_dump(self) -> None:
        """Objects with model_dump (like ag_ui.core events) are dumped as JSON, by alias."""
        fakes = [FakePydanticEvent(json.loads(record)) for record in recording_lines()]
        processor = Processor()
        assert processor.feed_events(fakes) == self.expected()
        assert fakes[0].calls == [{"mode": "json", "by_alias": True, "exclude_none": True}]

    def test_mixed_kinds_in_one_call(self) -> None:
        """Structs, dicts and foreign objects may be mixed, one by one or all at once."""
        items: list[object] = []
        for index, record in enumerate(recording_lines()):
            kind = index % 3
            if kind == 0:
                items.append(decode_event(record))
            elif kind == 1:
                items.append(json.loads(record))
            else:
                items.append(FakePydanticEvent(json.loads(record)))
        processor = Processor()
        one_by_one = [diff for item in items for diff in processor.feed_events([item])]
        assert one_by_one == self.expected()
        assert Processor().feed_events(items) == self.expected()

    def test_events_and_bytes_share_the_state(self) -> None:
        """Bytes fed after events continue the same stream and seq numbering."""
        lines = recording_lines()
        processor = Processor()
        diffs = processor.feed_events(decode_event(record) for record in lines[:8])
        diffs += processor.feed(b"\n".join(lines[8:]) + b"\n")
        assert diffs == self.expected()

    def test_bad_dict_is_a_diagnostic(self) -> None:
        """A dict that is not an event becomes an event.invalid diagnostic; the rest applies."""
        processor = Processor()
        diffs = processor.feed_events(
            [{"type": "RUN_STARTED", "runId": 3}, *cases.LIFECYCLE_EVENTS]
        )
        assert diffs == feed_all([cases.LIFECYCLE])[0]
        [diagnostic] = processor.take_diagnostics()
        assert diagnostic.code == "event.invalid"
        assert diagnostic.severity is Severity.ERROR

    def test_object_without_model_dump_is_a_diagnostic(self) -> None:
        """Something neither event, mapping nor model is reported, never raised."""
        processor = Processor()
        assert processor.feed_events([object(), 42]) == []
        assert [d.code for d in processor.take_diagnostics()] == ["event.invalid"] * 2
        assert processor.state.seq == 0


class TestClose:
    def test_feed_after_close_raises(self) -> None:
        """Feeding bytes after close() is caller misuse."""
        processor = Processor()
        processor.close()
        with pytest.raises(UsageError, match="after close"):
            processor.feed(b"{}\n")

    def test_feed_events_after_close_raises(self) -> None:
        """Feeding events after close() is caller misuse too."""
        processor = Processor()
        processor.close()
        with pytest.raises(UsageError, match="after close"):
            processor.feed_events([cases.run_started("r")])

    def test_close_twice_returns_nothing(self) -> None:
        """A second close() is harmless and returns no diffs."""
        processor = Processor()
        processor.feed(UNTERMINATED)
        assert processor.close()
        assert processor.close() == []


class TestDiagnostics:
    BAD = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\nnot json\n'

    def test_bad_line_has_line_and_offset(self) -> None:
        """A bad line is reported with its 1-based line and byte offset."""
        processor = Processor()
        processor.feed(self.BAD + cases.LIFECYCLE)
        [diagnostic] = processor.take_diagnostics()
        assert (diagnostic.code, diagnostic.line, diagnostic.offset) == (
            "json.invalid",
            2,
            self.BAD.index(b"not json"),
        )
        assert diagnostic.raw == b"not json"

    def test_take_drains(self) -> None:
        """take_diagnostics returns each diagnostic once."""
        processor = Processor()
        processor.feed(self.BAD)
        assert len(processor.take_diagnostics()) == 1
        assert processor.take_diagnostics() == []
        processor.feed(b"[]\n")
        assert [d.code for d in processor.take_diagnostics()] == ["json.not_object"]

    def test_processing_goes_on_after_bad_input(self) -> None:
        """Without strict mode, the lines after a bad one still produce their diffs."""
        diffs, _ = feed_all([b"not json\n" + cases.LIFECYCLE])
        assert [(d.op, d.surface_id) for d in diffs] == [
            (d.op, d.surface_id) for d in feed_all([cases.LIFECYCLE])[0]
        ]

    def test_reducer_diagnostics_get_the_event_location(self) -> None:
        """A diagnostic found while reducing an event carries that event's line and offset."""
        bad = cases.line(cases.snapshot("m", [1]))
        data = cases.LIFECYCLE + bad
        processor = Processor()
        processor.feed(data)
        [diagnostic] = processor.take_diagnostics()
        assert diagnostic.code == "op.malformed"
        assert diagnostic.seq == len(cases.LIFECYCLE_EVENTS)
        assert (diagnostic.line, diagnostic.offset) == (
            len(cases.LIFECYCLE_EVENTS) + 1,
            len(cases.LIFECYCLE),
        )

    def test_locations_do_not_depend_on_chunking(self) -> None:
        """Line and offset of every diagnostic are the same however the bytes are cut."""
        data = b"oops\n" + cases.RECORDING + b"[1]\n"
        expected = feed_all([data])[1]
        assert [d.line for d in expected if d.code.startswith("json.")] == [1, 24]
        for how, chunks in cases.chunkings(data, seed=3, splits=3):
            assert feed_all(chunks)[1] == expected, how


class TestPendingDiagnostics:
    def test_undrained_diagnostics_are_bounded_and_counted(self, monkeypatch: Any) -> None:
        """Past the cap the earliest diagnostics are kept and one warning counts the rest."""
        monkeypatch.setattr(engine_processor, "MAX_PENDING_DIAGNOSTICS", 5)
        processor = Processor()
        for _ in range(3):
            processor.feed(b"not json\n" * 4)
        taken = processor.take_diagnostics()
        assert [d.code for d in taken] == ["json.invalid"] * 5 + ["diagnostics.dropped"]
        assert taken[0].line == 1
        assert "7 more diagnostics were dropped" in taken[-1].message
        processor.feed(b"not json\n")
        assert [d.code for d in processor.take_diagnostics()] == ["json.invalid"]


class TestStrict:
    def test_stops_at_first_bad_line(self) -> None:
        """Strict mode reports the first bad line and ignores everything after it."""
        good = cases.LIFECYCLE_EVENTS
        data = b"".join(cases.line(e) for e in good[:3]) + b"bad\n" + cases.LIFECYCLE
        for how, chunks in cases.chunkings(data, seed=11):
            processor = Processor(strict=True)
            diffs = [diff for chunk in chunks for diff in processor.feed(chunk)]
            diffs += processor.close()
            assert processor.stopped, how
            assert [(d.seq, d.surface_id) for d in diffs] == [(0, "pre"), (2, "a")], how
            assert [d.code for d in processor.take_diagnostics()] == ["json.invalid"]
            assert processor.state.seq == 3

    def test_not_stopped_on_clean_input(self) -> None:
        """Clean input never stops strict mode."""
        processor = Processor(strict=True)
        processor.feed(cases.LIFECYCLE)
        processor.close()
        assert not processor.stopped
        assert processor.take_diagnostics() == []

    def test_reducer_error_stops(self) -> None:
        """An error found while reducing stops strict mode after that event."""
        data = cases.line(cases.snapshot("m", [1])) + cases.LIFECYCLE
        processor = Processor(strict=True)
        assert processor.feed(data) == []
        assert processor.stopped
        assert processor.state.seq == 1

    def test_bad_event_stops_feed_events(self) -> None:
        """A bad decoded event stops strict mode; later events are ignored."""
        processor = Processor(strict=True)
        diffs = processor.feed_events(
            [cases.LIFECYCLE_EVENTS[0], {"type": 1}, *cases.LIFECYCLE_EVENTS[1:]]
        )
        assert [d.surface_id for d in diffs] == ["pre"]
        assert processor.stopped
        assert processor.feed_events(cases.LIFECYCLE_EVENTS) == []

    def test_bad_bytes_stop_later_events_too(self) -> None:
        """After strict mode stopped on bytes, decoded events are ignored as well."""
        processor = Processor(strict=True)
        processor.feed(b"bad\n")
        assert processor.stopped
        assert processor.feed_events(cases.LIFECYCLE_EVENTS) == []
        assert processor.state.seq == 0


class SpyLog(MemoryLog):
    """A memory log that writes every append into a shared journal."""

    def __init__(self, journal: list[tuple[str, int]]) -> None:
        super().__init__()
        self.journal = journal

    def append(self, line: bytes) -> int:
        seq = super().append(line)
        self.journal.append(("logged", seq))
        return seq

    def flush(self) -> None:
        super().flush()
        self.journal.append(("flush", len(self)))


class TestLog:
    def check_order(self, journal: list[tuple[str, int]]) -> None:
        logged = set()
        for kind, seq in journal:
            if kind == "logged":
                logged.add(seq)
            elif kind == "diff":
                assert seq in logged, f"diff of event {seq} returned before it was logged"

    @pytest.mark.parametrize("how", ["whole", "bytewise", "random-0"])
    def test_every_event_is_logged_before_its_diffs(self, how: str) -> None:
        """Each event is appended before feed() returns the diffs it caused."""
        chunks = dict(cases.chunkings(cases.RECORDING, splits=1))[how]
        journal: list[tuple[str, int]] = []
        log = SpyLog(journal)
        processor = Processor(log=log)
        for chunk in chunks:
            journal.extend(("diff", diff.seq) for diff in processor.feed(chunk))
        journal.extend(("diff", diff.seq) for diff in processor.close())
        self.check_order(journal)
        assert sum(kind == "diff" for kind, _ in journal) == len(feed_all([cases.RECORDING])[0])
        assert journal[-1] == ("flush", len(recording_lines()))

    def test_log_holds_the_input_events(self) -> None:
        """The log holds every event in order, decodable to the same values."""
        log = MemoryLog()
        processor = Processor(log=log)
        processor.feed(b"junk\n" + cases.RECORDING)
        processor.close()
        logged = [decode_event(record) for _, record in log.read()]
        assert logged == [decode_event(record) for record in recording_lines()]
        assert len(log) == processor.state.seq

    def test_feed_events_logs_first_too(self) -> None:
        """Decoded events are logged before their diffs are returned as well."""
        journal: list[tuple[str, int]] = []
        processor = Processor(log=SpyLog(journal))
        for event in cases.LIFECYCLE_EVENTS:
            journal.extend(("diff", diff.seq) for diff in processor.feed_events([event]))
        self.check_order(journal)
        assert ("diff", 7) in journal

    def test_strict_stop_logs_nothing_after(self) -> None:
        """Events after strict mode stopped never reach the log."""
        log = MemoryLog()
        processor = Processor(log=log, strict=True)
        processor.feed(cases.line(cases.LIFECYCLE_EVENTS[0]) + b"bad\n" + cases.LIFECYCLE)
        assert len(log) == 1


class TestStateAndParts:
    def test_nothing_fed(self) -> None:
        """Before any event there is no run and no part."""
        processor = Processor()
        assert processor.run() is None
        assert processor.parts() == ()
        assert processor.state.seq == 0

    def test_parts_of_current_and_past_runs(self) -> None:
        """parts() gives the current run's parts; a run id selects another run."""
        processor = Processor()
        processor.feed(cases.RECORDING)
        assert [p.tool_call_id for p in processor.parts()] == ["a2ui:booking"]
        first = processor.parts("run-1")
        assert [p.tool_call_id for p in first] == ["a2ui:s1", "a2ui:flights"]
        assert first[0].args == cases.ORDER_CARD
        assert all(p.tool_name == "present" for p in first)
        assert processor.parts("no-such-run") == ()

    def test_run_lookup(self) -> None:
        """run() finds a run by id with its status and thread; an unknown id gives None."""
        processor = Processor()
        processor.feed(cases.RECORDING)
        run = processor.run("run-1")
        assert run is not None
        assert (run.run_id, run.thread_id, run.status) == ("run-1", "thread-1", "finished")
        assert processor.run() is processor.state.current
        assert processor.run("no-such-run") is None

    def test_events_before_run_started_form_an_anonymous_run(self) -> None:
        """A part painted before any RUN_STARTED belongs to a run with a null id."""
        processor = Processor()
        processor.feed(cases.LIFECYCLE)
        anonymous, r1 = processor.state.runs
        assert (anonymous.run_id, anonymous.thread_id) == (None, None)
        assert [p.surface_id for p in processor.parts(None)] == ["b"]
        assert list(anonymous.parts) == ["pre"]
        assert list(r1.parts) == ["b"]

    def test_states_are_immutable_values(self) -> None:
        """A state kept earlier is unchanged by later input."""
        processor = Processor()
        processor.feed(cases.line(cases.LIFECYCLE_EVENTS[0]))
        early = processor.state
        before = msgspec.json.encode(early.runs[0].parts["pre"])
        processor.feed(cases.LIFECYCLE)
        assert processor.state is not early
        assert early.seq == 1
        assert msgspec.json.encode(early.runs[0].parts["pre"]) == before

    def test_keep_runs_zero_keeps_only_the_current_run(self) -> None:
        """keep_runs=0 forgets finished runs, with the same diffs."""
        processor = Processor(keep_runs=0)
        diffs = processor.feed(cases.RECORDING) + processor.close()
        assert diffs == feed_all([cases.RECORDING])[0]
        assert [run.run_id for run in processor.state.runs] == ["run-2"]

    def test_unknown_event_types_are_counted(self) -> None:
        """An event type AG-UI does not define is kept as an event and counted in seq."""
        processor = Processor()
        processor.feed(b'{"type":"CUSTOM_THING","x":1}\n')
        assert processor.state.seq == 1
        assert processor.take_diagnostics() == []
        assert isinstance(decode_event(b'{"type":"CUSTOM_THING"}'), events.UnknownEvent)
