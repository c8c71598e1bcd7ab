"""The thread fold (``_engine.threads``): keying, thread naming, folding a thread."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

import msgspec
import pytest
from archive_cases import ENCODE, Archive, reference, threads
from helpers import payloads, render_recording
from stream_cases import LIFECYCLE, RECORDING, line, run_started, snapshot, to_sse

from a2ui_stream._engine.threads import (
    ENVELOPE_INVALID,
    MAX_SEQ,
    Keyed,
    ThreadFold,
    envelope_line,
    find_thread,
    fold_thread,
    key_envelope,
    thread_name,
)
from a2ui_stream._shell.cli import main
from a2ui_stream._wire.diagnostics import Diagnostic

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


class TestFoldEqualsProcessFinal:
    def test_every_thread_of_the_archive(
        self, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        """Each thread's runs are the lines ``process --final`` prints for its files."""
        root, files = archive
        results = reference(files)
        for thread, paths in threads(files).items():
            printed = b""
            for relative in paths:  # a thread split over files: each file's runs in turn
                main(["process", "--final", str(root / relative)])
                printed += capsysbinary.readouterr().out
            runs = results[thread].runs
            assert b"".join(ENCODE(run) + b"\n" for run in runs) == printed, thread
        assert len(results) == 14

    def test_diagnostics_are_the_ones_process_reports(
        self, archive: Archive, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """By code, what ``process`` counts in its summary line, settling included."""
        root, files = archive
        results = reference(files)
        for thread, paths in threads(files).items():
            if len(paths) != 1:
                continue
            main(["process", "--log-format", "json", str(root / paths[0])])
            lines = capsys.readouterr().err.splitlines()
            summary = [json.loads(line) for line in lines if '"summary"' in line]
            counted = summary[0]["diagnostics"] if summary else {}
            by_code = {key.rpartition(" (")[0]: count for key, count in counted.items()}
            assert results[thread].diagnostics == dict(sorted(by_code.items())), thread
            assert results[thread].errors == sum(
                n for key, n in counted.items() if key.endswith("(error)")
            )
        assert any(result.diagnostics for result in results.values())

    def test_numbers_are_written_as_process_writes_them(
        self, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        """A size of 1e21 and a gap of -0.0 print as JavaScript prints them, in both."""
        content = (
            b'{"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"s",'
            b'"catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s",'
            b'"components":[{"id":"root","component":"Column","gap":-0.0,"children":["i"]},'
            b'{"id":"i","component":"Image","url":"https://example.com/a.png","size":1e21}]}}]}'
        )
        recording = (
            b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a2ui-surface",'
            b'"content":' + content + b"}\n"
            b'{"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n'
        )
        path = tmp_path / "t.jsonl"
        path.write_bytes(recording)
        main(["process", "--final", str(path)])
        printed = capsysbinary.readouterr().out
        assert b"1e+21" in printed
        assert b'"gap":0' in printed
        (run,) = fold_thread("t", list(enumerate(payloads(recording)))).runs
        assert ENCODE(run) + b"\n" == printed

    def test_arrival_order_does_not_matter(self) -> None:
        """The batch fold sorts by seq: any order of records gives the same bytes."""
        records = list(enumerate(payloads(RECORDING)))
        expected = ENCODE(fold_thread("t", records))
        rng = random.Random(3)
        for _ in range(5):
            rng.shuffle(records)
            assert ENCODE(fold_thread("t", records)) == expected

    def test_duplicates_are_dropped_and_counted(self) -> None:
        records = list(enumerate(payloads(RECORDING)))
        doubled = [*records, records[4], records[4], records[0]]
        result = fold_thread("t", reversed(doubled))
        clean = fold_thread("t", records)
        assert result.duplicates == 3
        assert msgspec.structs.replace(result, duplicates=0) == clean

    def test_gaps_are_gone_past_and_counted(self) -> None:
        records = list(enumerate(payloads(RECORDING)))
        del records[7]
        del records[2]
        result = fold_thread("t", records)
        fold = ThreadFold("t")
        fold.feed(payload for _, payload in records)
        assert result.missing == 2
        assert result == fold.result(missing=2)

    def test_result_reports_lifecycle_and_diagnostics(self) -> None:
        events = [
            run_started("r1"),
            {"type": "ACTIVITY_SNAPSHOT", "messageId": "m1", "activityType": "a2ui-surface",
             "content": {"status": "failed", "error": "gave up"}},
            snapshot("m2", [{"version": "v0.9", "deleteSurface": {"surfaceId": "nope"}}]),
            snapshot("m3", [7]),
            {"type": "RUN_ERROR", "message": "boom"},
            {"type": "RUN_STARTED", "runId": "r2", "timestamp": 1000},
            {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2", "timestamp": 4500},
        ]  # fmt: skip
        result = fold_thread("t1", enumerate(line(e).rstrip() for e in events))
        assert [(r.run_id, r.status, r.messages) for r in result.lifecycle] == [
            ("r1", "error", {"m1": "failed"}),
            ("r2", "finished", {}),
        ]
        # the delete of a surface never made is a debug note: not counted
        assert result.diagnostics == {"event.field_missing": 1, "op.malformed": 1}
        assert result.duration_ms == 3500
        assert result.events == 7

    def test_sse_payloads_fold_as_the_stream(self) -> None:
        """Payloads cut from SSE fold as the same events cut from JSONL do."""
        from_sse = fold_thread("t", enumerate(payloads(to_sse(LIFECYCLE))))
        assert from_sse == fold_thread("t", enumerate(payloads(LIFECYCLE)))
        assert from_sse.runs


class TestCarriers:
    def test_a_renamed_render_tool_draws_when_named(self) -> None:
        """The fold takes the processor's carrier options: a renamed tool draws once named."""
        records = list(enumerate(render_recording("show_ui").splitlines()))
        plain = fold_thread("t", records)
        named = fold_thread("t", records, render_tools=("show_ui",), catalog_id="cat")
        assert [len(run.parts) for run in plain.runs] == [0]
        [[part]] = [run.parts for run in named.runs]
        assert part.surface_id == "s"
        fold = ThreadFold("t", render_tools=("show_ui",))
        fold.feed(payload for _, payload in records)
        assert fold.result() == named

    def test_a_wrong_option_is_refused_at_once(self) -> None:
        with pytest.raises(TypeError, match="render_tools"):
            ThreadFold("t", render_tools="show_ui")


class TestEnvelope:
    @pytest.mark.parametrize(
        "payload",
        [
            b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
            b'{"type":"RUN_STARTED",\n"threadId":"t","runId":"r"}',  # SSE data lines
            b'{"type":"RUN_STARTED","threadId":',  # not JSON: carried as text
            b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\xff"}',
            b"[1, 2]",
            b'"a string"',
        ],
    )
    def test_round_trip_folds_the_same(self, payload: bytes) -> None:
        """What an envelope carries folds exactly as the recorded payload does."""
        written = envelope_line("thread one", 7, payload)
        assert b"\n" not in written
        keyed = key_envelope(written)
        assert isinstance(keyed, Keyed)
        assert (keyed.thread_id, keyed.seq) == ("thread one", 7)
        direct, carried = ThreadFold("t"), ThreadFold("t")
        direct.feed([payload])
        carried.feed([keyed.event])
        assert carried.result() == direct.result()

    def test_the_largest_seq_is_kept(self) -> None:
        keyed = key_envelope(b'{"threadId":"t","seq":9007199254740991,"event":{}}')
        assert keyed == Keyed("t", MAX_SEQ, b"{}")

    def test_a_string_event_is_its_text(self) -> None:
        keyed = key_envelope(b'{"threadId":"t","seq":0,"event":"{\\"type\\":"}')
        assert keyed == Keyed("t", 0, b'{"type":')

    @pytest.mark.parametrize(
        "bad",
        [
            b"not json",
            b'{"threadId":"t","seq":0}',
            b'{"threadId":"","seq":0,"event":{}}',
            b'{"threadId":"t","seq":-1,"event":{}}',
            b'{"threadId":3,"seq":0,"event":{}}',
            # Past what every JSON reader and an engine's 64-bit coder hold.
            b'{"threadId":"t","seq":9007199254740992,"event":{}}',
            b'{"threadId":"t","seq":18446744073709551616,"event":{}}',
            b'{"threadId":"t","seq":100000000000000000000000,"event":{}}',
            b'{"threadId":"t","seq":1e23,"event":{}}',
        ],
    )
    def test_a_bad_envelope_is_a_diagnostic(self, bad: bytes) -> None:
        found = key_envelope(bad, line_number=4)
        assert isinstance(found, Diagnostic)
        assert (found.code, found.line) == (ENVELOPE_INVALID, 4)


class TestThreadNaming:
    def test_first_run_started_names_the_thread(self) -> None:
        stream = [
            line({"type": "TEXT_MESSAGE_START", "messageId": "x", "role": "assistant"}),
            line({"type": "RUN_STARTED", "runId": "r0"}),  # no threadId: not a name
            line({"type": "RUN_STARTED", "threadId": "", "runId": "r1"}),
            b'{"type":"RUN_STARTED","threadId":"broken"',
            line({"type": "RUN_STARTED", "threadId": "t2", "runId": ""}),  # dropped event
            line(run_started("r3", "t3")),
            line(run_started("r4", "t4")),
        ]
        assert find_thread(line.rstrip() for line in stream) == "t3"

    def test_none_without_one(self) -> None:
        assert find_thread(payloads(b"".join(RECORDING.splitlines(keepends=True)[1:4]))) is None

    def test_reads_only_up_to_it(self) -> None:
        def lines() -> Iterator[bytes]:
            yield line(run_started("r", "first")).rstrip()
            raise AssertionError("read past the thread's RUN_STARTED")

        assert find_thread(lines()) == "first"

    @pytest.mark.parametrize(
        ("path", "name"),
        [
            ("archive/2026/t1.jsonl", "t1"),
            ("gs://bucket/a/t.log.jsonl", "t.log"),
            ("plain", "plain"),
            (".hidden", ".hidden"),
        ],
    )
    def test_file_names(self, path: str, name: str) -> None:
        assert thread_name(path) == name
