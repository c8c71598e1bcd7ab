"""The archive fold on Apache Beam: every runner mode gives the single-process bytes.

Few pipelines, each over the whole archive of bundled shapes (``archive_cases``): the
per-thread results must equal the core's fold in this process byte for byte, on
per-thread files and on shuffled envelopes, on the in-process ``FnApiRunner`` (named,
so Beam never tries to download a runner) and on two worker processes (which deliver
groups out of order); and the streaming fold must give them from a shuffled
``TestStream``. Only outputs are asserted: Beam's metrics under-count in streaming.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import TypeAlias

import msgspec
import pytest
from archive_cases import ENCODE, build, frames, lines_by_thread, reference
from helpers import render_recording
from stream_cases import RECORDING

beam = pytest.importorskip("apache_beam", reason="the beam extra (apache-beam) is not installed")

from apache_beam.options.pipeline_options import PipelineOptions  # noqa: E402
from apache_beam.testing import test_stream  # noqa: E402
from apache_beam.testing.util import assert_that, equal_to  # noqa: E402
from apache_beam.transforms.window import TimestampedValue  # noqa: E402

from a2ui_stream._engine import summary as sums  # noqa: E402
from a2ui_stream._engine.threads import (  # noqa: E402
    Keyed,
    ThreadResult,
    envelope_line,
    fold_thread,
    key_envelope,
)
from a2ui_stream._shell.beam import _StreamingFold  # noqa: E402
from a2ui_stream._shell.cli import main  # noqa: E402
from a2ui_stream.beam import FoldThreads, KeyEnvelopes, StreamThreads  # noqa: E402

#: The archive's root, and each thread's result folded in this process.
Folded: TypeAlias = "tuple[Path, dict[str, ThreadResult]]"
TWO_WORKERS = ["--direct_num_workers=2", "--direct_running_mode=multi_processing"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Folded:
    root = tmp_path_factory.mktemp("archive") / "archive"
    files = build(root)
    return root, reference(files)


@pytest.fixture(scope="module")
def envelopes(archive: Folded, tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The archive as one interleaved log, from the envelope command."""
    root, _ = archive
    out = tmp_path_factory.mktemp("mux") / "mux.jsonl"
    with pytest.MonkeyPatch.context() as patch, out.open("wb") as sink:
        patch.setattr("sys.stdout", _Binary(sink))
        assert main(["envelope", f"{root}/**/*.jsonl", f"{root}/*.sse"]) == 0
    return out.read_bytes().splitlines()


class _Binary:
    """A text stream standing in for stdout whose ``buffer`` is a binary file."""

    def __init__(self, sink: object) -> None:
        self.buffer = sink


def _scrambled(lines: list[bytes], seed: int) -> tuple[list[bytes], Counter[str]]:
    """The lines shuffled, with some sent twice (as at-least-once delivery does)."""
    rng = random.Random(seed)
    repeated = rng.sample(lines, 25)
    scrambled = [*lines, *repeated]
    rng.shuffle(scrambled)
    counts = Counter(_keyed(line).thread_id for line in repeated)
    return scrambled, counts


def _keyed(line: bytes) -> Keyed:
    keyed = key_envelope(line)
    assert isinstance(keyed, Keyed)
    return keyed


def _expected(results: dict[str, ThreadResult], duplicates: Counter[str]) -> dict[str, bytes]:
    return {
        thread: ENCODE(msgspec.structs.replace(result, duplicates=duplicates[thread]))
        for thread, result in results.items()
    }


def _batch(*argv: str) -> None:
    """Run ``batch``: exit 1, since the archive holds lines that are dropped (with ERRORs)."""
    assert main(["batch", *argv]) == 1


def _summary(out: Path) -> sums.Summary:
    return msgspec.json.decode((out / "summary.json").read_bytes(), type=sums.Summary)


def _without_timing(summary: sums.Summary) -> sums.Summary:
    return msgspec.structs.replace(summary, slowest=[])


class TestBatch:
    def test_files_in_process(
        self, archive: Folded, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Per-thread files on FnApiRunner: each line is the core's fold, and the summary."""
        root, results = archive
        out = tmp_path / "out"
        _batch(f"{root}/**/*.jsonl", f"{root}/*.sse", "--out", str(out))
        assert lines_by_thread(out) == _expected(results, Counter())
        total = sums.EMPTY
        for result in results.values():
            total = sums.merge(total, sums.summarize(result, 0.0))
        written = _summary(out)
        assert _without_timing(written) == _without_timing(total)
        assert len(written.slowest) == sums.KEEP
        assert {slow.thread_id for slow in written.slowest} <= set(results)
        shown = capsys.readouterr().out
        assert f"threads: {len(results)}," in shown
        assert "json.invalid " in shown

    def test_files_on_two_worker_processes(self, archive: Folded, tmp_path: Path) -> None:
        """Into the directory of an earlier run: its results are replaced, not mixed in."""
        root, results = archive
        out = tmp_path / "out"
        out.mkdir()
        for stale in ("threads-00000-of-00003.jsonl", "summary.json"):
            (out / stale).write_text("{}")
        _batch(f"{root}/**/*.jsonl", f"{root}/*.sse", "--out", str(out), "--", *TWO_WORKERS)
        assert lines_by_thread(out) == _expected(results, Counter())
        assert _summary(out).threads == len(results)

    def test_shuffled_envelopes_on_two_worker_processes(
        self, archive: Folded, envelopes: list[bytes], tmp_path: Path
    ) -> None:
        """Order scrambled twice (the file, then the workers): the same bytes per thread."""
        _, results = archive
        scrambled, repeats = _scrambled(envelopes, seed=1)
        log = tmp_path / "mux.jsonl"
        log.write_bytes(b"\n".join([b"not an envelope", *scrambled, b'{"seq":1}']) + b"\n")
        out = tmp_path / "out"
        _batch(str(log), "--layout", "envelopes", "--out", str(out), "--", *TWO_WORKERS)
        assert lines_by_thread(out) == _expected(results, repeats)
        written = _summary(out)
        assert written.diagnostics["archive.envelope_invalid"] == 2
        assert written.duplicates == 25

    def test_shuffled_envelopes_in_process(
        self, archive: Folded, envelopes: list[bytes], tmp_path: Path
    ) -> None:
        _, results = archive
        scrambled, repeats = _scrambled(envelopes, seed=2)
        log = tmp_path / "mux.jsonl"
        log.write_bytes(b"\n".join(scrambled) + b"\n")
        out = tmp_path / "out"
        _batch(str(log), "--layout", "envelopes", "--out", str(out))
        assert lines_by_thread(out) == _expected(results, repeats)

    @pytest.mark.parametrize("layout", ["files", "envelopes"])
    def test_a_file_name_that_is_not_utf8_is_skipped_with_an_error(
        self, tmp_path: Path, layout: str
    ) -> None:
        """Beam's coders take names as UTF-8: such a file is reported, the others read."""
        (tmp_path / "in").mkdir()
        data = RECORDING
        if layout == "envelopes":
            lines = (envelope_line("t", n, f.payload) for n, f in enumerate(frames(RECORDING)))
            data = b"\n".join(lines) + b"\n"
        (tmp_path / "in" / "good.jsonl").write_bytes(data)
        Path(os.fsdecode(bytes(tmp_path / "in") + b"/caf\xe9.jsonl")).write_bytes(data)
        out = tmp_path / "out"
        _batch(f"{tmp_path}/in/*.jsonl", "--layout", layout, "--out", str(out))
        written = _summary(out)
        assert written.diagnostics == {"archive.file_name_invalid": 1}
        # Read twice, the recording would make two runs, or 22 duplicate envelopes.
        assert (written.threads, written.runs, written.duplicates) == (1, 2, 0)
        assert written.surfaces > 0

    def test_a_renamed_render_tool_draws_when_named(self, tmp_path: Path) -> None:
        """``batch --render-tool`` folds with the processor's carrier options."""
        (tmp_path / "in").mkdir()
        (tmp_path / "in" / "t.jsonl").write_bytes(render_recording("show_ui"))
        for name, argv in (("plain", []), ("named", ["--render-tool", "show_ui"])):
            out = tmp_path / name
            assert main(["batch", f"{tmp_path}/in/*.jsonl", "--out", str(out), *argv]) == 0
            [line] = lines_by_thread(out).values()
            runs = msgspec.json.decode(line, type=ThreadResult).runs
            assert [len(run.parts) for run in runs] == ([1] if argv else [0])
        with pytest.raises(TypeError, match="wrapper_tools"):
            FoldThreads(wrapper_tools="make_ui")

    def test_refuses_an_output_directory_in_use(
        self, archive: Folded, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        root, _ = archive
        (tmp_path / "notes.txt").write_text("keep me")
        assert main(["batch", f"{root}/*.jsonl", "--out", str(tmp_path)]) == 2
        assert "holds files batch did not write" in capsys.readouterr().err
        assert (tmp_path / "notes.txt").read_text() == "keep me"

    def test_a_pattern_matching_nothing_is_a_usage_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["batch", f"{tmp_path}/*.jsonl", "--out", str(tmp_path / "o")]) == 2
        assert "matches no file" in capsys.readouterr().err
        assert not (tmp_path / "o").exists()


def _encoded(element: tuple[ThreadResult, float]) -> bytes:
    return msgspec.json.encode(element[0])


class TestStreaming:
    IDLE = 1_000.0

    def test_shuffled_test_stream(self, archive: Folded, envelopes: list[bytes]) -> None:
        """Shuffled, repeated, one event lost, one thread pausing: every result as batch.

        The lost event's thread is released past its gap when it goes quiet. The
        pausing thread goes quiet for longer than the idle time halfway: its first half
        is flushed as one result, and its second half makes a second one that starts
        past a gap, as batch folds the same events.
        """
        _, results = archive
        scrambled, repeats = _scrambled(envelopes, seed=3)
        keyed = [_keyed(line) for line in scrambled]
        lost = next(k for k in keyed if k.thread_id == "chat-mixed-0" and k.seq == 5)
        keyed = [k for k in keyed if (k.thread_id, k.seq) != (lost.thread_id, lost.seq)]
        pausing = [k for k in keyed if k.thread_id == "thread-1"]  # examples/recording.jsonl
        first = [k for k in pausing if k.seq < 9]
        second = [k for k in pausing if k.seq >= 9]
        keyed = [k for k in keyed if k.thread_id != "thread-1"]
        expected = _expected(results, repeats)
        chat = [(k.seq, k.event) for k in keyed if k.thread_id == "chat-mixed-0"]
        expected["chat-mixed-0"] = ENCODE(fold_thread("chat-mixed-0", chat))
        halves = [
            ENCODE(fold_thread("thread-1", [(k.seq, k.event) for k in half]))
            for half in (first, second)
        ]
        assert msgspec.json.decode(halves[1], type=ThreadResult).missing == 9
        del expected["thread-1"]

        stream = test_stream.TestStream()
        early = [*keyed, *first]
        random.Random(4).shuffle(early)
        for start in range(0, len(early), 100):
            batch = early[start : start + 100]
            stream = stream.add_elements(
                [TimestampedValue(envelope_of(k), start + n) for n, k in enumerate(batch)]
            )
        quiet = len(early) + self.IDLE + 1
        stream = stream.advance_watermark_to(quiet)
        stream = stream.add_elements(
            [TimestampedValue(envelope_of(k), quiet + n) for n, k in enumerate(second[::-1])]
        )
        stream = stream.advance_watermark_to(quiet + 2 * self.IDLE).advance_watermark_to_infinity()

        options = PipelineOptions(["--streaming"], runner="BundleBasedDirectRunner")
        with beam.Pipeline(options=options) as pipeline:
            keyed_events = pipeline | stream | KeyEnvelopes()
            folded = keyed_events["keyed"] | StreamThreads(idle_seconds=self.IDLE)
            assert_that(folded | beam.Map(_encoded), equal_to([*expected.values(), *halves]))


def envelope_of(keyed: Keyed) -> bytes:
    return envelope_line(keyed.thread_id, keyed.seq, keyed.event)


class _Cell:
    """A stand-in for a Beam value state (read, write, clear)."""

    def __init__(self) -> None:
        self.value: object = None

    def read(self) -> object:
        return self.value

    def write(self, value: object) -> None:
        self.value = value

    def clear(self) -> None:
        self.value = None


class _Bag:
    """A stand-in for a Beam bag state, reading back in an order of its own."""

    def __init__(self) -> None:
        self.items: list[object] = []

    def add(self, item: object) -> None:
        self.items.append(item)

    def read(self) -> list[object]:
        return self.items[::-1]

    def clear(self) -> None:
        self.items = []


class _Timer:
    def __init__(self) -> None:
        self.at: float | None = None

    def set(self, at: float) -> None:
        self.at = at


class TestStreamingState:
    """The streaming DoFn driven directly: what Beam keeps is enough to go on from."""

    @pytest.mark.parametrize("cached", [True, False])
    def test_a_fold_rebuilt_from_state_gives_the_same_result(self, cached: bool) -> None:
        """Without its in-memory fold (a retry, another worker), state alone suffices."""
        records = [(seq, frame.payload) for seq, frame in enumerate(frames(RECORDING))]
        shuffled = records[:]
        random.Random(6).shuffle(shuffled)
        progress, folded, deadline, cpu = _Cell(), _Bag(), _Cell(), _Cell()
        timer = _Timer()
        fn = _StreamingFold(60.0, 1_000, None)
        fn.setup()
        for number, (seq, payload) in enumerate([*shuffled, records[3]]):
            if not cached:
                fn.setup()  # a new worker: nothing in memory
            element = ("t", (seq, payload))
            list(fn.process(element, float(number), progress, folded, deadline, cpu, timer))
        assert timer.at == len(records) + 60.0
        if not cached:
            fn.setup()
        ((result, seconds),) = fn.flush("t", progress, folded, deadline, cpu)
        expected = fold_thread("t", [*records, records[3]])
        assert ENCODE(result) == ENCODE(expected)
        assert result.duplicates == 1
        assert seconds >= 0
        assert [s.read() for s in (progress, folded, deadline, cpu)] == [None, [], None, None]
