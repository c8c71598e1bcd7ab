"""A command's ``--log``: opened without harm and continued (:mod:`a2ui_stream._shell.resume`).

``identity``, ``open_log`` and ``resumed_processor`` directly; then ``--log`` through
the command line: the files it refuses, unchanged, and the logs it continues.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import stream_cases as cases
from helpers import Recorder, Result

from a2ui_stream import FileLog, Processor
from a2ui_stream._shell.output import Output
from a2ui_stream._shell.report import Reporter
from a2ui_stream._shell.resume import identity, open_log, resumed_processor
from a2ui_stream._state.stream import StreamState
from a2ui_stream._wire.limits import Limits
from a2ui_stream.errors import LogRefusedError

if TYPE_CHECKING:
    from collections.abc import Callable


class TestIdentity:
    def test_a_file_is_its_device_and_inode(self, tmp_path: Path) -> None:
        path = tmp_path / "f"
        path.write_bytes(b"x")
        status = path.stat()
        with path.open("rb") as file:
            assert identity(file) == (status.st_dev, status.st_ino)

    @pytest.mark.parametrize(
        "stream",
        [io.BytesIO(), io.StringIO(), object(), None],
        ids=["bytes", "text", "object", "none"],
    )
    def test_a_stream_without_a_file_has_none(self, stream: object) -> None:
        assert identity(stream) is None

    def test_a_closed_file_has_none(self, tmp_path: Path) -> None:
        path = tmp_path / "f"
        path.write_bytes(b"x")
        file = path.open("rb")
        file.close()
        assert identity(file) is None


class TestOpenLog:
    def test_a_spared_stream_s_file_is_refused_before_a_byte(self, tmp_path: Path) -> None:
        path = tmp_path / "in.jsonl"
        path.write_bytes(cases.RECORDING)
        with (
            path.open("rb") as source,
            ExitStack() as stack,
            pytest.raises(LogRefusedError, match="same file as the input"),
        ):
            open_log(
                path,
                "never",
                spare=[(source, "the input")],
                stack=stack,
                reporter=Reporter(Recorder()),
            )
        assert path.read_bytes() == cases.RECORDING

    def test_streams_without_files_are_no_obstacle(self, tmp_path: Path) -> None:
        with ExitStack() as stack:
            log = open_log(
                tmp_path / "log.jsonl",
                "never",
                spare=[(io.BytesIO(), "the input")],
                stack=stack,
                reporter=Reporter(Recorder()),
            )
            assert len(log) == 0
        with pytest.raises(ValueError, match="closed"):
            log.append(b'{"type":"RUN_STARTED","runId":"r"}')  # the stack closed it

    def test_a_torn_tail_is_reported(self, tmp_path: Path) -> None:
        path = tmp_path / "log.jsonl"
        path.write_bytes(cases.RECORDING + b'{"type":"RUN_STA')
        logger = Recorder()
        with ExitStack() as stack:
            log = open_log(path, "never", spare=[], stack=stack, reporter=Reporter(logger))
            assert len(log) == len(cases.RECORDING.splitlines())
        assert [fields["code"] for _, _, fields in logger.calls] == ["log.torn_tail"]


class TestResumedProcessor:
    def test_without_a_log_a_fresh_processor(self) -> None:
        logger = Recorder()
        processor = resumed_processor(None, Reporter(logger), keep_runs=None, limits=Limits())
        assert processor.state == StreamState()
        assert logger.calls == []

    def test_the_state_is_the_fold_of_the_log(self, tmp_path: Path) -> None:
        logger = Recorder()
        with FileLog.open(tmp_path / "log.jsonl") as log:
            Processor(log=log).feed(cases.RECORDING)
            processor = resumed_processor(log, Reporter(logger), keep_runs=None, limits=Limits())
            alone = Processor()
            alone.feed(cases.RECORDING)
            assert processor.state.to_wire() == alone.state.to_wire()
            assert processor.state.seq == alone.state.seq
        assert logger.calls[-1][1] == "resuming from the log"
        assert logger.calls[-1][2]["events"] == len(cases.RECORDING.splitlines())

    @pytest.mark.parametrize("emit_from", [0, 11, 10_000])
    def test_output_gets_the_folded_diffs_from_a_seq(self, tmp_path: Path, emit_from: int) -> None:
        expected = Processor().feed(cases.RECORDING)
        stream = io.BytesIO()
        with FileLog.open(tmp_path / "log.jsonl") as log:
            Processor(log=log).feed(cases.RECORDING)
            resumed_processor(
                log,
                Reporter(Recorder()),
                keep_runs=None,
                limits=Limits(),
                output=Output(stream, patches=False),
                emit_from=emit_from,
            )
        lines = stream.getvalue().splitlines()
        assert lines == [d.to_wire() for d in expected if d.seq >= emit_from]


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06" + bytes(64)
NOTES = b"hello world\nthis is my notes file\nnot json at all"


class TestLogRefusal:
    """``--log`` never writes a byte to a file it would destroy; it exits 2 and says why."""

    @staticmethod
    def _refused(result: Result, *expected: str) -> None:
        assert result.code == 2
        assert result.out == b""
        lines = result.err.splitlines()
        assert len(lines) == 1, result.err
        assert "Traceback" not in result.err
        for text in expected:
            assert text in lines[0]

    @pytest.mark.parametrize("name", ["same path", "symlink", "hard link"])
    def test_log_that_is_the_input(
        self, cli: Callable[..., Result], tmp_path: Path, name: str
    ) -> None:
        """The input given again as the log, however it is named, is refused unchanged."""
        source = tmp_path / "in.jsonl"
        source.write_bytes(cases.RECORDING)
        log = {"same path": source, "symlink": tmp_path / "s", "hard link": tmp_path / "h"}[name]
        if name == "symlink":
            log.symlink_to(source)
        elif name == "hard link":
            log.hardlink_to(source)
        self._refused(cli("process", "--log", log, source), "same file as the input", str(log))
        assert source.read_bytes() == cases.RECORDING

    def test_log_that_is_stdin_redirected_from_it(
        self, cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``process --log L - < L`` is caught through standard input's file."""
        log = tmp_path / "events.log"
        assert cli("process", "--log", log, cases.RECORDING_PATH).code == 0
        before = log.read_bytes()
        with log.open() as redirected:
            monkeypatch.setattr(sys, "stdin", redirected)
            self._refused(cli("process", "--log", log, "-"), "same file as the input")
        assert log.read_bytes() == before

    def test_log_that_is_standard_output(self, tmp_path: Path) -> None:
        """``process --log L ... >> L`` would mix diffs into the log: refused."""
        log = tmp_path / "events.log"
        log.write_bytes(b"")
        with log.open("ab") as out:
            completed = subprocess.run(  # noqa: S603 - our own command line
                [
                    sys.executable,
                    "-m",
                    "a2ui_stream",
                    "process",
                    "--log",
                    str(log),
                    str(cases.RECORDING_PATH),
                ],
                stdout=out,
                stderr=subprocess.PIPE,
                check=False,
                timeout=60,
            )
        assert completed.returncode == 2
        assert b"same file as standard output" in completed.stderr
        assert log.read_bytes() == b""

    def test_the_file_stderr_goes_to_is_refused(self, tmp_path: Path) -> None:
        """``--log /dev/stderr 2> L``: the diagnostics would overwrite the events.

        Found by a probe: the input and stdout were refused, stderr was not; the log
        then held two diagnostic lines, and the next resume refused it.
        """
        log = tmp_path / "se.log"
        with log.open("wb") as err:
            completed = subprocess.run(  # noqa: S603 - our own command line
                [
                    *(sys.executable, "-m", "a2ui_stream", "process"),
                    *("--log", "/dev/stderr", str(cases.RECORDING_PATH)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=err,
                check=False,
                timeout=60,
            )
        assert completed.returncode == 2
        assert b"same file as standard error" in log.read_bytes()
        assert b'{"type"' not in log.read_bytes()

    @pytest.mark.parametrize("content", [NOTES, PNG, b'{"a": 1}\n'], ids=["notes", "png", "json"])
    def test_file_that_is_not_a_log(
        self, cli: Callable[..., Result], tmp_path: Path, content: bytes
    ) -> None:
        """A notes file, a PNG, JSON without a type: refused, and kept byte for byte."""
        target = tmp_path / "target"
        target.write_bytes(content)
        mtime = target.stat().st_mtime_ns
        result = cli("process", "--log", target, cases.RECORDING_PATH)
        self._refused(result, "not a log this program wrote", "left unchanged", "Give a new path")
        assert target.read_bytes() == content
        assert target.stat().st_mtime_ns == mtime

    def test_dev_full_is_refused_at_once(self) -> None:
        """``--log /dev/full`` used to hang scanning endless zeros; now it exits 2."""
        if not Path("/dev/full").exists():
            pytest.skip("/dev/full does not exist on this system")
        completed = subprocess.run(  # noqa: S603 - our own command line
            [
                sys.executable,
                "-m",
                "a2ui_stream",
                "process",
                "--log",
                "/dev/full",
                str(cases.RECORDING_PATH),
            ],
            capture_output=True,
            check=False,
            timeout=60,
        )
        assert completed.returncode == 2
        assert completed.stdout == b""
        assert b"character device, not a regular file" in completed.stderr

    def test_fifo_and_directory_are_refused(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A named pipe or a directory is no log; neither blocks nor writes."""
        os.mkfifo(tmp_path / "pipe")
        self._refused(
            cli("process", "--log", tmp_path / "pipe", cases.RECORDING_PATH), "named pipe"
        )
        self._refused(cli("process", "--log", tmp_path, cases.RECORDING_PATH), "a directory")
        self._refused(cli("replay", tmp_path / "pipe"), "named pipe")

    def test_a_log_written_before_is_resumed(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """A log in today's format (no header line) still resumes: it begins with an event."""
        log = write("events.log", cases.RECORDING)  # a log is exactly its events' JSONL
        assert log.read_bytes().startswith(b'{"type":"')
        result = cli("process", "--log", log, write("more", cases.LIFECYCLE))
        assert (result.code, result.err) == (0, "")  # a clean resume says nothing
        assert log.read_bytes().startswith(cases.RECORDING)
        result = cli("process", "-v", "--log", log, write("none", b""))
        assert "resuming from the log" in result.err

    def test_a_log_missing_its_last_line_feed_keeps_the_last_event(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """Cut by another program after its last event, the log loses nothing."""
        log = write("events.log", cases.RECORDING.rstrip(b"\n"))
        result = cli("process", "--log", log, write("more", cases.LIFECYCLE))
        assert result.code == 0
        assert "log.unterminated_tail" in result.err
        logged = log.read_bytes()
        assert logged.startswith(cases.RECORDING)
        assert logged.count(b"\n") == (cases.RECORDING + cases.LIFECYCLE).count(b"\n")
        assert cli("replay", log).out == cli("process", write("all", log.read_bytes())).out


class TestContinued:
    def test_existing_log_is_resumed(
        self, cli: Callable[..., Result], tmp_path: Path, write: Callable[[str, bytes], Path]
    ) -> None:
        """A second process --log on the same log continues it: seqs go on, replay agrees."""
        lines = cases.RECORDING.splitlines(keepends=True)
        half = len(lines) // 2
        log = tmp_path / "events.log"
        first = cli("process", "--log", log, write("a", b"".join(lines[:half])))
        second = cli("process", "--log", log, write("b", b"".join(lines[half:])))
        whole = cli("process", cases.RECORDING_PATH)
        assert (first.code, second.code) == (0, 0)
        assert first.out + second.out == whole.out
        assert cli("replay", log).out == whole.out
        assert min(d["seq"] for d in second.lines) >= half
