"""The engine-free archive API: keying, thread naming, the thread fold and its summary."""

from __future__ import annotations

import json
import pickle
import random
from typing import TYPE_CHECKING

import msgspec
import pytest
from archive_cases import ENCODE, Archive, build, frames, reference, threads
from hypothesis import given
from hypothesis import strategies as st
from stream_cases import LIFECYCLE, RECORDING, line, run_started, snapshot, to_sse

from a2ui_stream._engine import summary as sums
from a2ui_stream._engine.reorder import Codec, Progress, give_up, step
from a2ui_stream._engine.threads import (
    ENVELOPE_INVALID,
    Keyed,
    ThreadFold,
    ThreadResult,
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


def payloads(data: bytes) -> list[bytes]:
    return [frame.payload for frame in frames(data)]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("archive") / "archive"
    return root, build(root)


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


class TestReorder:
    @given(st.permutations(range(12)), st.lists(st.integers(0, 11), max_size=6))
    def test_releases_in_seq_order_whatever_the_arrival(
        self, order: list[int], repeats: list[int]
    ) -> None:
        progress, released = Progress(), []
        for seq in [*order, *repeats]:
            progress, ready = step(progress, seq, b"e%d" % seq)
            released.extend(ready)
        assert released == [(seq, b"e%d" % seq) for seq in range(12)]
        assert (progress.next_seq, progress.pending, progress.duplicates) == (12, {}, len(repeats))

    def test_give_up_goes_past_gaps(self) -> None:
        progress = Progress()
        for seq in (0, 3, 4, 7):
            progress, _ = step(progress, seq, b"%d" % seq)
        after, released = give_up(progress)
        assert [seq for seq, _ in released] == [3, 4, 7]
        assert (after.next_seq, after.missing, after.pending) == (8, 4, {})  # 1, 2, 5, 6
        late, ready = step(after, 5, b"5")
        assert (ready, late.duplicates) == ([], 1)

    def test_a_full_buffer_gives_up_its_lowest_gap(self) -> None:
        progress = Progress()
        for seq in (2, 3, 6, 7):
            progress, ready = step(progress, seq, b"x", max_pending=3)
        assert [seq for seq, _ in ready] == [2, 3]
        assert (progress.next_seq, progress.missing, sorted(progress.pending)) == (4, 2, [6, 7])

    def test_digest_names_what_was_released(self) -> None:
        one, two = Progress(), Progress()
        one, _ = step(one, 0, b"a")
        two, _ = step(two, 0, b"b")
        assert one.next_seq == two.next_seq
        assert one.digest != two.digest

    @pytest.mark.parametrize(
        "value",
        [
            Progress(3, {5: b"x", 9: b"\xff"}, 1, 2, 77),
            Keyed("t", 4, b'{"type":"RUN_STARTED"}'),
            fold_thread("t", enumerate(payloads(RECORDING))),
        ],
    )
    def test_codec_round_trips_and_pickles(self, value: object) -> None:
        codec = Codec(type(value))
        shipped = pickle.loads(pickle.dumps(codec))  # noqa: S301 - our own bytes
        assert shipped.decode(codec.encode(value)) == value

    def test_array_like_records_are_compact(self) -> None:
        assert len(Codec(Progress).encode(Progress())) < 10


class TestSummary:
    def test_merge_in_any_grouping_gives_one_value(self, parts: list[sums.Summary]) -> None:
        expected = ENCODE(_fold_left(parts))
        rng = random.Random(5)
        for _ in range(5):
            shuffled = parts[:]
            rng.shuffle(shuffled)
            cut = rng.randrange(len(shuffled))
            tree = sums.merge(_fold_left(shuffled[:cut]), _fold_left(shuffled[cut:]))
            assert ENCODE(tree) == expected

    def test_counts(self, archive: Archive, parts: list[sums.Summary]) -> None:
        total = _fold_left(parts)
        results = reference(archive[1]).values()
        assert total.threads == 14
        assert total.runs == sum(len(r.runs) for r in results)
        assert total.surfaces == sum(len(run.parts) for r in results for run in r.runs)
        assert total.diagnostics["json.invalid"] == 1
        assert list(total.diagnostics.values()) == sorted(total.diagnostics.values(), reverse=True)
        assert total.statuses == {"finished": total.runs - 1, "running": 1}

    def test_failures_and_slowest(self) -> None:
        failing = ThreadResult(
            thread_id="f", events=1, rejected=0, errors=0, duplicates=0, missing=0,
            runs=[], lifecycle=[], diagnostics={},
        )  # fmt: skip
        events = [line(run_started("r")), line({"type": "RUN_ERROR", "message": "x"})]
        broken = fold_thread("b", enumerate(events))
        summaries = [sums.summarize(failing, 0.5), sums.summarize(broken, 2.0)]
        summaries += [sums.summarize(failing, n / 100) for n in range(20)]
        total = _fold_left(summaries)
        assert [slow.seconds for slow in total.slowest[:2]] == [2.0, 0.5]
        assert len(total.slowest) == sums.KEEP
        assert (total.failed_runs, total.failed_threads, total.failed_examples) == (1, 1, ["b"])

    def test_empty_is_the_identity(self, parts: list[sums.Summary]) -> None:
        assert sums.merge(sums.EMPTY, parts[0]) == parts[0] == sums.merge(parts[0], sums.EMPTY)
        assert sums.merge(sums.Summary(), parts[0]) == parts[0]


@pytest.fixture(scope="module")
def parts(archive: Archive) -> list[sums.Summary]:
    return [sums.summarize(result, 0.0) for result in reference(archive[1]).values()]


def _fold_left(summaries: list[sums.Summary]) -> sums.Summary:
    total = sums.EMPTY
    for summary in summaries:
        total = sums.merge(total, summary)
    return total
