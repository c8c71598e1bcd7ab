"""The archive commands (``_shell.batch``) without an engine: ``envelope``, ``batch``'s own
arguments and its summary."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from archive_cases import ENCODE, Archive, reference

from a2ui_stream._engine import summary as sums
from a2ui_stream._engine.threads import Keyed, fold_thread, key_envelope
from a2ui_stream._shell.batch import render_summary, split_passthrough
from a2ui_stream._shell.cli import main


def envelopes(capsysbinary: pytest.CaptureFixture[bytes], *inputs: str) -> list[Keyed]:
    assert main(["envelope", *inputs]) == 0
    return keyed_lines(capsysbinary.readouterr().out)


def keyed_lines(out: bytes) -> list[Keyed]:
    keyed = [key_envelope(line) for line in out.splitlines()]
    assert all(isinstance(k, Keyed) for k in keyed)
    return keyed  # type: ignore[return-value]


def envelopes_of(path: Path) -> list[Keyed]:
    done = subprocess.run(  # noqa: S603 - our own command line, no shell
        [sys.executable, "-m", "a2ui_stream", "envelope", str(path)],
        capture_output=True,
        check=True,
    )
    return keyed_lines(done.stdout)


class TestEnvelopeCommand:
    def test_interleaved_and_folded_equals_each_thread(
        self, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        """Envelopes of the archive, grouped by thread, fold to the per-file results."""
        root, files = archive
        keyed = envelopes(capsysbinary, f"{root}/**/*.jsonl", f"{root}/*.sse")
        grouped: dict[str, list[tuple[int, bytes]]] = defaultdict(list)
        for record in reversed(keyed):  # any order: the fold sorts by seq
            grouped[record.thread_id].append((record.seq, record.event))
        expected = reference(files)
        assert sorted(grouped) == sorted(expected)
        for thread, records in grouped.items():
            assert ENCODE(fold_thread(thread, records)) == ENCODE(expected[thread]), thread

    def test_seq_is_the_position_in_the_thread(
        self, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        """Dense from 0 per thread, continuing across a thread's files in path order."""
        root, _ = archive
        keyed = envelopes(capsysbinary, f"{root}/**/*.jsonl")
        by_thread: dict[str, list[int]] = defaultdict(list)
        for record in keyed:
            by_thread[record.thread_id].append(record.seq)
        assert all(seqs == list(range(len(seqs))) for seqs in by_thread.values())
        split = [r.event for r in keyed if r.thread_id == "split"]
        assert split[0].startswith(b'{"type":"RUN_STARTED","threadId":"split"')
        assert len(split) == 22  # split-a.jsonl's events, then those of deeper/split-b.jsonl

    def test_a_recording_without_a_thread_is_named_after_its_file(
        self, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        root, _ = archive
        keyed = envelopes(capsysbinary, str(root / "no-run-started.jsonl"))
        assert {r.thread_id for r in keyed} == {"no-run-started"}

    def test_a_file_name_that_is_not_utf8_names_its_thread_escaped(
        self, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        """A thread id must be text that can be sent: the name's bad byte is escaped."""
        path = os.fsdecode(bytes(tmp_path) + b"/caf\xe9.jsonl")
        Path(path).write_bytes(b'{"type":"TEXT_MESSAGE_START","messageId":"m"}\n')
        [keyed] = envelopes(capsysbinary, path)
        assert keyed.thread_id == "caf\\xe9"

    def test_the_event_bytes_are_the_recorded_ones(
        self, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        root, files = archive
        keyed = envelopes(capsysbinary, str(root / "recording.jsonl"))
        assert b"\n".join(r.event for r in keyed) + b"\n" == files["recording.jsonl"]

    def test_a_pattern_matching_nothing_is_a_usage_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["envelope", f"{tmp_path}/*.jsonl"]) == 2
        assert "matches no file" in capsys.readouterr().err

    def test_a_missing_file_is_a_usage_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["envelope", str(tmp_path / "absent.jsonl")]) == 2
        assert "absent.jsonl" in capsys.readouterr().err

    # Found by a probe of the command line: envelope read each file twice (so a pipe or
    # FIFO lost every event), read one file once per name it was reached by, took a
    # file name holding [ ] for a pattern, and read back its own output.

    def test_a_pipe_is_read_once_whole(self, archive: Archive) -> None:
        """``cat FILE | envelope /dev/stdin``: every event, though a pipe cannot seek."""
        root, files = archive
        data = files["recording.jsonl"]
        done = subprocess.run(
            [sys.executable, "-m", "a2ui_stream", "envelope", "/dev/stdin"],
            input=data,
            capture_output=True,
            check=True,
        )
        keyed = keyed_lines(done.stdout)
        assert b"\n".join(r.event for r in keyed) + b"\n" == data
        assert {r.thread_id for r in keyed} == {
            r.thread_id for r in envelopes_of(root / "recording.jsonl")
        }

    def test_a_file_is_read_once_however_it_is_named(
        self, tmp_path: Path, archive: Archive, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        _, files = archive
        (tmp_path / "x.jsonl").write_bytes(files["recording.jsonl"])
        (tmp_path / "self").symlink_to(tmp_path)  # a loop ``**`` follows round
        keyed = envelopes(capsysbinary, f"{tmp_path}/**/*.jsonl", str(tmp_path / "self/x.jsonl"))
        assert len(keyed) == files["recording.jsonl"].count(b"\n")

    def test_a_name_that_reads_as_a_pattern_is_the_file(
        self, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
    ) -> None:
        (tmp_path / "run[1].jsonl").write_bytes(
            b'{"type":"RUN_STARTED","threadId":"a","runId":"r"}\n'
        )
        (tmp_path / "run1.jsonl").write_bytes(
            b'{"type":"RUN_STARTED","threadId":"b","runId":"r"}\n'
        )
        [keyed] = envelopes(capsysbinary, str(tmp_path / "run[1].jsonl"))
        assert keyed.thread_id == "a"

    def test_the_file_stdout_goes_to_is_refused(self, tmp_path: Path, archive: Archive) -> None:
        """``envelope 'dir/*.jsonl' > dir/out.jsonl``: refused before a byte, not read back."""
        _, files = archive
        (tmp_path / "a.jsonl").write_bytes(files["recording.jsonl"])
        out = tmp_path / "out.jsonl"
        with out.open("wb") as stdout:
            done = subprocess.run(  # noqa: S603 - our own command line, no shell
                [sys.executable, "-m", "a2ui_stream", "envelope", f"{tmp_path}/*.jsonl"],
                stdout=stdout,
                stderr=subprocess.PIPE,
                check=False,
            )
        assert done.returncode == 2
        assert b"standard output goes to" in done.stderr
        assert out.read_bytes() == b""


class TestBatchArguments:
    @pytest.mark.parametrize(
        ("argv", "ours", "beam"),
        [
            (["batch", "a/*", "--out", "o"], ["batch", "a/*", "--out", "o"], []),
            (
                ["batch", "a/*", "--out", "o", "--", "--runner", "FlinkRunner", "--", "x"],
                ["batch", "a/*", "--out", "o"],
                ["--runner", "FlinkRunner", "--", "x"],
            ),
            (["-v", "batch", "a", "--out=o", "--"], ["-v", "batch", "a", "--out=o"], []),
            (["process", "--", "-odd-name.jsonl"], ["process", "--", "-odd-name.jsonl"], []),
            (["process", "--", "batch"], ["process", "--", "batch"], []),
        ],
    )
    def test_beam_options_follow_the_first_double_dash(
        self, argv: list[str], ours: list[str], beam: list[str]
    ) -> None:
        assert split_passthrough(argv) == (ours, beam)

    def test_without_beam_it_says_how_to_install_it(self, tmp_path: Path) -> None:
        probe = (
            "import sys\n"
            "sys.modules['apache_beam'] = None  # as if the extra were not installed\n"
            "from a2ui_stream._shell.cli import main\n"
            f"sys.exit(main(['batch', {str(tmp_path)!r}, '--out', {str(tmp_path / 'o')!r}]))\n"
        )
        done = subprocess.run(  # noqa: S603 - our interpreter, our probe
            [sys.executable, "-c", probe], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2
        assert "pip install 'a2ui-stream[beam]'" in done.stderr
        assert "Traceback" not in done.stderr

    # Found by a probe of the command line: each of these ended in a Beam traceback
    # (exit 1, as for bad input), and ``--out /`` skipped the check for foreign files.
    @pytest.mark.parametrize(
        ("case", "said"),
        [
            ("a folder as the pattern", "is a folder; give a pattern of files"),
            ("a file as --out", "is a file; give a new or empty directory"),
            ("the root as --out", "holds files batch did not write"),
            ("an unknown runner", "the pipeline options after -- are not usable"),
        ],
    )
    def test_usage_mistakes_are_named(
        self, case: str, said: str, tmp_path: Path, archive: Archive
    ) -> None:
        root, _ = archive
        recording = str(root / "recording.jsonl")
        argv = {
            "a folder as the pattern": ["batch", str(root), "--out", str(tmp_path / "o")],
            "a file as --out": ["batch", recording, "--out", recording],
            "the root as --out": ["batch", recording, "--out", "/"],
            "an unknown runner": [
                *("batch", recording, "--out", str(tmp_path / "o")),
                *("--", "--runner", "NoSuchRunner"),
            ],
        }[case]
        before = Path(recording).read_bytes()
        done = subprocess.run(  # noqa: S603 - our own command line, no shell
            [sys.executable, "-m", "a2ui_stream", *argv],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert said in done.stderr
        assert "Traceback" not in done.stderr
        assert Path(recording).read_bytes() == before


class TestRenderSummary:
    def test_every_figure_is_shown(self) -> None:
        """Counts, statuses, element types, failures, diagnostics and the slowest threads."""
        summary = sums.Summary(
            threads=2,
            runs=3,
            events=1200,
            rejected=1,
            errors=1,
            duplicates=2,
            statuses={"finished": 2, "error": 1},
            surfaces=4,
            element_types={"Card": 3, "Text": 1},
            failed_runs=1,
            failed_threads=1,
            failed_examples=["t9"],
            diagnostics={"json.invalid": 1, "convert.component_missing": 2},
            slowest=[sums.Slow(thread_id="t9", seconds=0.0125, events=7)],
        )
        lines = render_summary(summary, "out").splitlines()
        assert lines[0] == "threads: 2, runs: 3 (2 finished, 1 error), events: 1,200 (1 rejected)"
        assert lines[1] == "surfaces drawn: 4"
        assert lines[2].split() == ["Card", "3"]
        assert "lifecycle failures: 1 runs, 0 messages, in 1 threads (first: t9)" in lines
        assert "duplicates dropped: 2, missing: 0" in lines
        assert "diagnostics: 3 (1 errors)" in lines
        assert lines[-2].split() == ["t9", "12.5", "ms", "7", "events"]
        assert lines[-1] == "results: out/threads-*.jsonl, out/summary.json"

    def test_an_empty_archive(self) -> None:
        """No runs read as none; no duplicates or gaps, no line about them."""
        text = render_summary(sums.EMPTY, "o")
        assert "runs: 0 (none)" in text
        assert "duplicates dropped" not in text
