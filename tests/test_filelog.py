"""The durable file log: format, torn tails, read-only use, locks, refusals, fsync, resume.

Also what a write failure and a SIGKILL leave behind.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers import LINES

from a2ui_stream import Processor
from a2ui_stream._shell import filelog, logscan
from a2ui_stream._shell.filelog import FileLog
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream.errors import LogLockedError, LogRefusedError, UsageError

if TYPE_CHECKING:
    from a2ui_stream._shell.filelog import FsyncPolicy

import log_writer
from stream_cases import RECORDING


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """Where a test's log file goes."""
    return tmp_path / "events.jsonl"


class TestFileFormat:
    def test_file_is_a_jsonl_recording(self, path: Path) -> None:
        """The file holds each line followed by a line feed, nothing else."""
        with FileLog.open(path) as log:
            log.append(LINES[0])
            log.append_many(LINES[1:])
        assert path.read_bytes() == b"".join(line + b"\n" for line in LINES)

    def test_reopen_keeps_records_and_numbering(self, path: Path) -> None:
        """A reopened log reads the same records and appends after them."""
        with FileLog.open(path) as log:
            log.append_many(LINES)
        with FileLog.open(path) as log:
            assert log.recovered is None
            assert list(log.read()) == list(enumerate(LINES))
            assert log.append(b"next") == 3
        with FileLog.open(path) as log:
            assert len(log) == 4

    def test_size_is_committed_bytes(self, path: Path) -> None:
        """``size`` is the offset where the next record starts."""
        with FileLog.open(path) as log:
            assert log.size == 0
            log.append(b"abc")
            assert log.size == 4
        assert path.stat().st_size == 4

    def test_bad_options_are_refused(self, path: Path) -> None:
        """An unknown fsync policy or a non-positive batch size is caller misuse."""
        with pytest.raises(UsageError, match="fsync must be"):
            FileLog.open(path, fsync="sometimes")  # type: ignore[arg-type]
        with pytest.raises(UsageError, match="batch_events"):
            FileLog.open(path, fsync="batch", batch_events=0)
        assert not path.exists()

    def test_missing_directory_raises_oserror(self, tmp_path: Path) -> None:
        """A log in a directory that does not exist is an OSError, not a new directory."""
        with pytest.raises(FileNotFoundError):
            FileLog.open(tmp_path / "absent" / "log.jsonl")

    def test_repr_names_path_and_state(self, path: Path) -> None:
        """The repr shows path, record count and policy or closed state."""
        log = FileLog.open(path, fsync="batch")
        log.append(b"a")
        assert repr(log) == f"<FileLog {str(path)!r} records=1 batch>"
        log.close()
        assert repr(log).endswith("closed>")


TORN_TAILS = {
    "partial line": b'{"type":"TEXT_MESSAGE_CONT',
    "partial utf-8": '{"delta":"漢'.encode()[:-1],
    "an event cut short": b'{"type":"RUN_FINISHED","threadId":"t","runId":"r"',
    "json that is no event": b'{"delta":"x"}',
    "single byte": b"{",
    "long fragment": b'{"delta":"' + b"x" * 5000,
}


class TestTornTail:
    @pytest.mark.parametrize("fragment", TORN_TAILS.values(), ids=TORN_TAILS.keys())
    def test_fragment_is_truncated_and_reported(self, path: Path, fragment: bytes) -> None:
        """Every complete line is kept, the fragment is cut off and a warning says so."""
        committed = b"".join(line + b"\n" for line in LINES)
        path.write_bytes(committed + fragment)
        with FileLog.open(path) as log:
            assert list(log.read()) == list(enumerate(LINES))
            diagnostic = log.recovered
            assert diagnostic is not None
            assert diagnostic.code == "log.torn_tail"
            assert diagnostic.severity is Severity.WARNING
            assert diagnostic.offset == len(committed)
            assert diagnostic.seq == 3
            assert diagnostic.raw == fragment[:64]
            assert f"{len(fragment)} bytes at byte {len(committed)}" in diagnostic.message
            assert str(path) in diagnostic.message
        assert path.read_bytes() == committed

    def test_append_after_recovery_starts_a_clean_line(self, path: Path) -> None:
        """After truncation the next record follows the last complete one."""
        path.write_bytes(b"a\nb\n" + b'{"torn')
        with FileLog.open(path) as log:
            assert log.append(b"c") == 2
        assert path.read_bytes() == b"a\nb\nc\n"

    def test_file_of_only_a_fragment_becomes_empty(self, path: Path) -> None:
        """A file with no line feed at all holds no complete record."""
        path.write_bytes(b'{"type":"RUN_STA')
        with FileLog.open(path) as log:
            assert len(log) == 0
            assert log.recovered is not None
            assert log.recovered.offset == 0
        assert path.read_bytes() == b""

    @pytest.mark.parametrize("content", [b"", b"a\n", b"a\nb\n"])
    def test_clean_file_reports_nothing(self, path: Path, content: bytes) -> None:
        """A file ending in a line feed (or empty) needs no recovery."""
        path.write_bytes(content)
        with FileLog.open(path) as log:
            assert log.recovered is None
        assert path.read_bytes() == content

    def test_truncation_is_synced(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """Recovery makes the truncation durable before the log is used."""
        path.write_bytes(b"a\nb")
        synced = _count_syncs(monkeypatch)
        FileLog.open(path).close()
        assert synced == [1]

    def test_fragment_across_scan_chunks(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A fragment longer than the scan chunk is still found and cut whole."""
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 7)
        path.write_bytes(b"first line\nsecond\n" + b"y" * 30)
        with FileLog.open(path) as log:
            assert [line for _, line in log.read()] == [b"first line", b"second"]
            assert log.recovered is not None
            assert log.recovered.offset == 18
        assert path.stat().st_size == 18


class TestUnterminatedTail:
    """A whole last event with no line feed was cut by another program, not torn: kept."""

    LAST = b'{"type":"RUN_FINISHED","threadId":"t","runId":"r"}'

    def test_a_writer_adds_the_line_feed(self, path: Path) -> None:
        committed = b"".join(line + b"\n" for line in LINES)
        path.write_bytes(committed + self.LAST)
        with FileLog.open(path) as log:
            assert list(log.read()) == [*enumerate(LINES), (3, self.LAST)]
            diagnostic = log.recovered
            assert diagnostic is not None
            assert (diagnostic.code, diagnostic.severity) == (
                "log.unterminated_tail",
                Severity.WARNING,
            )
            assert (diagnostic.offset, diagnostic.seq, diagnostic.line) == (len(committed), 3, 4)
            assert "added its line feed" in diagnostic.message
            assert log.append(b"next") == 4
        assert path.read_bytes() == committed + self.LAST + b"\nnext\n"

    def test_a_file_of_one_event_keeps_it(self, path: Path) -> None:
        path.write_bytes(self.LAST)
        with FileLog.open(path, events_only=True) as log:
            assert list(log.read()) == [(0, self.LAST)]
        assert path.read_bytes() == self.LAST + b"\n"

    def test_the_line_feed_is_synced(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        path.write_bytes(self.LAST)
        synced = _count_syncs(monkeypatch)
        FileLog.open(path).close()
        assert synced == [1]

    def test_read_only_reads_it_and_leaves_the_file(self, path: Path) -> None:
        data = b"a\n" + self.LAST
        path.write_bytes(data)
        with FileLog.open(path, readonly=True) as log:
            assert list(log.read()) == [(0, b"a"), (1, self.LAST)]
            assert list(log.read(1)) == [(1, self.LAST)]
            assert list(log.read(2)) == []
            assert list(log.read_from_offset(2)) == [(1, self.LAST)]
            assert list(log.read_from_offset(log.size)) == []
            assert log.recovered is not None
            assert "read it as it is" in log.recovered.message
        assert path.read_bytes() == data

    def test_a_tail_past_the_longest_line_is_torn(
        self, path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(logscan, "WHOLE_TAIL_BYTES", len(self.LAST) - 1)
        path.write_bytes(b"a\n" + self.LAST)
        with FileLog.open(path) as log:
            assert log.recovered is not None
            assert log.recovered.code == "log.torn_tail"
        assert path.read_bytes() == b"a\n"


class TestReadOnly:
    def test_reads_without_lock_while_writer_holds_it(self, path: Path) -> None:
        """A read-only open works beside the writer and sees what was committed."""
        with FileLog.open(path) as writer:
            writer.append_many(LINES)
            with FileLog.open(path, readonly=True) as reader:
                writer.append(b"later")
                assert list(reader.read()) == list(enumerate(LINES))

    def test_torn_tail_is_reported_not_truncated(self, path: Path) -> None:
        """Read-only recovery skips the fragment but leaves the file as it was."""
        path.write_bytes(b"a\nb\nfrag")
        with FileLog.open(path, readonly=True) as log:
            assert list(log.read()) == [(0, b"a"), (1, b"b")]
            assert log.recovered is not None
            assert log.recovered.message.startswith("ignored")
        assert path.read_bytes() == b"a\nb\nfrag"

    def test_append_is_refused(self, path: Path) -> None:
        """Appending through a read-only open is caller misuse."""
        path.write_bytes(b"a\n")
        with FileLog.open(path, readonly=True) as log, pytest.raises(UsageError, match="read-only"):
            log.append(b"b")

    def test_missing_file_is_not_created(self, path: Path) -> None:
        """A read-only open of an absent log fails instead of creating it."""
        with pytest.raises(FileNotFoundError):
            FileLog.open(path, readonly=True)
        assert not path.exists()


class TestLock:
    def test_second_writer_in_same_process_is_refused(self, path: Path) -> None:
        """Two open logs on one path conflict even inside one process."""
        with FileLog.open(path):
            with pytest.raises(LogLockedError, match="locked by another writer") as caught:
                FileLog.open(path)
            assert str(path) in str(caught.value)

    def test_lock_is_released_on_close(self, path: Path) -> None:
        """After close another writer may open the log."""
        FileLog.open(path).close()
        FileLog.open(path).close()

    def test_refused_open_leaves_the_file_alone(self, path: Path) -> None:
        """A refused writer truncates nothing, even with a torn tail present."""
        with FileLog.open(path) as log:
            log.append(b"a")
            with path.open("ab") as raw:
                raw.write(b"frag")
            with pytest.raises(LogLockedError):
                FileLog.open(path)
        assert path.read_bytes() == b"a\nfrag"

    def test_writer_in_another_process_is_refused(self, path: Path) -> None:
        """A second process cannot open a log this process writes."""
        with FileLog.open(path):
            result = _run_python(
                f"""
                from a2ui_stream._shell.filelog import FileLog
                from a2ui_stream.errors import LogLockedError
                try:
                    FileLog.open({str(path)!r})
                except LogLockedError as error:
                    print("locked:", error)
                """
            )
        assert result.startswith("locked:")
        assert str(path) in result

    def test_this_process_is_refused_while_another_writes(self, path: Path) -> None:
        """This process cannot open a log a running writer process holds."""
        acks = path.with_suffix(".acks")
        with acks.open("wb") as out:
            writer = subprocess.Popen(  # noqa: S603 (our own helper script)
                log_writer.writer_command(path, "never", 0, 10, 0.5), stdout=out
            )
        try:
            while not acks.read_bytes():
                if writer.poll() is not None:
                    pytest.fail("the writer exited before appending")
                time.sleep(0.01)
            with pytest.raises(LogLockedError):
                FileLog.open(path)
        finally:
            writer.kill()
            writer.wait()
        FileLog.open(path).close()


#: Files that are not event logs this package wrote, each judged from its first line.
FOREIGN = {
    "notes": b"hello world\nthis is my notes file\nnot json at all",
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01" + bytes(range(256)),
    "json without type": b'{"a":1}\n{"type":"RUN_STARTED"}\n',
    "json array": b'[{"type":"RUN_STARTED"}]\n',
    "spaced json": b'{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}\n',
    "pretty json": b'{\n  "type": "RUN_STARTED"\n}\n',
    "type not first": b'{"runId":"r","type":"RUN_STARTED"}\n',
    "type not a string": b'{"type":5}\n',
    "broken after type": b'{"type":"RUN_STARTED",oops}\n',
    "empty first line": b'\n{"type":"RUN_STARTED"}\n',
    "text fragment only": b"no line feed in here",
    "csv": b"type,runId\nRUN_STARTED,r\n",
    "one-line json document": b'{"type":"FeatureCollection","features":[{"type":"Feature"}]}',
    # Found by an input probe: another program's JSONL log, typed lines and no AG-UI event.
    "another program's jsonl log": b'{"type":"info","msg":"up"}\n{"type":"warn","msg":"x"}\n',
    # Found by an input probe: both, past the first MiB the scan reads, were taken as logs
    # (the document truncated to nothing as a torn record, the log appended to).
    "one-line json document past the window": (
        b'{"type":"FeatureCollection","features":["' + b"x" * (1 << 20) + b'"]}'
    ),
    "another program's jsonl log, a long first line": (
        b'{"type":"snapshot","blob":"' + b"x" * (1 << 20) + b'"}\n{"type":"info"}\n'
    ),
}


#: Files that are (or could be) event logs this package wrote.
OURS = {
    "empty": b"",
    "events": b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n{"type":"X","n":1}\n',
    # Events of types AG-UI lacks are logged as they came, before the stream's own.
    "unknown event first": b'{"type":"WHATEVER","x":[1,2]}\n{"type":"RUN_STARTED"}\n',
    "escaped type": b'{"type":"A\\"B\\\\"}\n{"type":"RUN_FINISHED"}\n',
    "only a torn first record": b'{"type":"RUN_STA',
    "torn within the start": b'{"ty',
    "torn after a record": b'{"type":"RUN_FINISHED"}\n{"type":"TEXT_MESS',
    "a first event past the window": (
        b'{"type":"TEXT_MESSAGE_CONTENT","delta":"' + b"x" * (1 << 20) + b'"}\n'
        b'{"type":"RUN_FINISHED"}\n'
    ),
}


class TestRefusal:
    """Paths that must never become a writable log are refused before anything is written."""

    @staticmethod
    def _unchanged(path: Path, content: bytes, mtime: int) -> None:
        assert path.read_bytes() == content
        assert path.stat().st_mtime_ns == mtime

    @pytest.mark.parametrize("content", FOREIGN.values(), ids=FOREIGN.keys())
    def test_foreign_file_is_refused_and_left_alone(self, path: Path, content: bytes) -> None:
        """With events_only, a file whose first line is not our event is refused as is."""
        path.write_bytes(content)
        mtime = path.stat().st_mtime_ns
        with pytest.raises(LogRefusedError, match="not a log this program wrote") as caught:
            FileLog.open(path, events_only=True)
        message = str(caught.value)
        assert str(path) in message
        assert "\n" not in message
        assert "left unchanged" in message
        self._unchanged(path, content, mtime)
        # The lock was never taken or was released: another open is not refused as locked.
        FileLog.open(path, readonly=True).close()

    @pytest.mark.parametrize("content", OURS.values(), ids=OURS.keys())
    def test_own_logs_are_accepted(self, path: Path, content: bytes) -> None:
        """Empty files, logs, and logs whose last (or only) write was torn are opened."""
        path.write_bytes(content)
        with FileLog.open(path, events_only=True) as log:
            kept = content[: content.rfind(b"\n") + 1]
            assert [line for _, line in log.read()] == kept.splitlines()
            assert log.append(b'{"type":"NEXT"}') == len(kept.splitlines())

    def test_a_log_written_by_a_processor_resumes(self, path: Path) -> None:
        """A log as the processor writes it today passes, so existing logs resume."""
        with FileLog.open(path) as log:
            processor = Processor(log=log)
            processor.feed(RECORDING)
            processor.close()
        before = path.read_bytes()
        with FileLog.open(path, events_only=True) as log:
            assert len(log) == RECORDING.count(b"\n")
        assert path.read_bytes() == before

    def test_long_first_line_is_judged_by_its_type(
        self, path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A first line longer than the bytes read: an AG-UI event's, or one an event follows."""
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 16)
        path.write_bytes(b'{"type":"RAW","long":"' + b"x" * 100 + b'"}\n')
        FileLog.open(path, events_only=True).close()
        path.write_bytes(b'{"type":"A","long":"' + b"x" * 100 + b'"}\n{"type":"RAW"}\n')
        FileLog.open(path, events_only=True).close()
        for refused in (b'{"typo":"A","long":"', b'{"type":"A","long":"'):
            path.write_bytes(refused + b"x" * 100 + b'"}\n')
            with pytest.raises(LogRefusedError):
                FileLog.open(path, events_only=True)

    def test_foreign_file_is_accepted_without_events_only(self, path: Path) -> None:
        """The line store itself holds any lines: the check is the caller's choice."""
        path.write_bytes(b"a\nb\n")
        with FileLog.open(path) as log:
            assert len(log) == 2

    @pytest.mark.parametrize("readonly", [False, True], ids=["writer", "reader"])
    @pytest.mark.parametrize("target", ["/dev/full", "/dev/null", "directory", "fifo"])
    def test_non_regular_files_are_refused(
        self, tmp_path: Path, target: str, *, readonly: bool
    ) -> None:
        """Devices, directories and FIFOs are refused at once (reading /dev/full never ends)."""
        if target == "directory":
            where = tmp_path
        elif target == "fifo":
            where = tmp_path / "pipe"
            os.mkfifo(where)
        else:
            where = Path(target)
            if not where.exists():
                pytest.skip(f"{target} does not exist on this system")
        kind = {"directory": "a directory", "fifo": "a named pipe"}.get(target, "a character")
        started = time.monotonic()
        with pytest.raises(LogRefusedError, match=f"it is {kind}"):
            FileLog.open(where, readonly=readonly, fsync="never")
        assert time.monotonic() - started < 5

    def test_symlink_to_a_fifo_is_refused(self, tmp_path: Path) -> None:
        """The kind is that of the file a link resolves to."""
        os.mkfifo(tmp_path / "pipe")
        (tmp_path / "link").symlink_to(tmp_path / "pipe")
        with pytest.raises(LogRefusedError, match="named pipe"):
            FileLog.open(tmp_path / "link")

    @pytest.mark.parametrize("name", ["same path", "symlink", "hard link"])
    def test_a_file_named_off_limits_is_refused_through_any_name(
        self, tmp_path: Path, name: str
    ) -> None:
        """distinct_from compares device and inode, so links do not get around it."""
        target = tmp_path / "input.jsonl"
        target.write_bytes(RECORDING)
        mtime = target.stat().st_mtime_ns
        alias = {"same path": target, "symlink": tmp_path / "s", "hard link": tmp_path / "h"}[name]
        if name == "symlink":
            alias.symlink_to(target)
        elif name == "hard link":
            alias.hardlink_to(target)
        status = target.stat()
        off_limits = {(status.st_dev, status.st_ino): "the input"}
        with pytest.raises(LogRefusedError, match="same file as the input"):
            FileLog.open(alias, events_only=True, distinct_from=off_limits)
        self._unchanged(target, RECORDING, mtime)
        FileLog.open(tmp_path / "other.jsonl", distinct_from=off_limits).close()

    def test_refused_missing_log_is_not_created(self, tmp_path: Path) -> None:
        """Nothing is created for a path that is refused, and a new path is created."""
        with pytest.raises(LogRefusedError):
            FileLog.open(tmp_path, events_only=True)
        assert list(tmp_path.iterdir()) == []
        FileLog.open(tmp_path / "new.jsonl", events_only=True).close()
        assert (tmp_path / "new.jsonl").read_bytes() == b""


def _run_python(source: str) -> str:
    """Run Python source in a fresh interpreter and return its stdout."""
    return subprocess.run(  # noqa: S603 (our own interpreter and source)
        [sys.executable, "-c", textwrap.dedent(source)],
        capture_output=True,
        check=True,
        text=True,
    ).stdout


def _count_syncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Replace fsync and fdatasync with counters that still sync; return the count cell."""
    count = [0]
    real_fsync, real_fdatasync = os.fsync, os.fdatasync

    def fsync(fd: int) -> None:
        count[0] += 1
        real_fsync(fd)

    def fdatasync(fd: int) -> None:
        count[0] += 1
        real_fdatasync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "fdatasync", fdatasync)
    return count


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class TestFsyncPolicy:
    def test_always_syncs_every_append(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """With ``always`` each append and each batch is synced before it returns."""
        path.touch()
        synced = _count_syncs(monkeypatch)
        with FileLog.open(path, fsync="always") as log:
            for n in range(5):
                log.append(b"x")
                assert synced == [n + 1]
            log.append_many([b"a", b"b", b"c"])
            assert synced == [6]
        assert synced == [6]

    def test_new_file_syncs_its_directory(
        self, path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Creating a log makes its directory entry durable too."""
        synced = _count_syncs(monkeypatch)
        FileLog.open(path).close()
        assert synced == [1]

    def test_batch_syncs_every_n_events(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """With ``batch`` a sync happens once ``batch_events`` records are unsynced."""
        path.touch()
        monkeypatch.setattr(filelog, "_clock", FakeClock())
        synced = _count_syncs(monkeypatch)
        with FileLog.open(path, fsync="batch", batch_events=4, batch_ms=50) as log:
            for _ in range(3):
                log.append(b"x")
            assert synced == [0]
            log.append(b"x")
            assert synced == [1]
            log.append_many([b"x"] * 9)
            assert synced == [2]
            log.append(b"x")
            assert synced == [2]
        assert synced == [3]

    def test_batch_syncs_after_time(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """With ``batch`` the first append ``batch_ms`` after the last sync syncs."""
        path.touch()
        clock = FakeClock()
        monkeypatch.setattr(filelog, "_clock", clock)
        synced = _count_syncs(monkeypatch)
        with FileLog.open(path, fsync="batch", batch_events=1000, batch_ms=50) as log:
            log.append(b"x")
            clock.now += 0.049
            log.append(b"x")
            assert synced == [0]
            clock.now += 0.002
            log.append(b"x")
            assert synced == [1]
            clock.now += 10
            log.flush()
            assert synced == [2]
        assert synced == [2]

    def test_never_leaves_syncing_to_the_os(
        self, path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """With ``never`` neither append nor close syncs; only flush() does."""
        synced = _count_syncs(monkeypatch)
        with FileLog.open(path, fsync="never") as log:
            log.append_many([b"x"] * 1000)
            assert synced == [0]
            log.flush()
            assert synced == [1]
            log.append(b"x")
        assert synced == [1]

    def test_appended_records_are_readable_before_any_sync(self, path: Path) -> None:
        """Every policy writes to the file on append, so readers see records at once."""
        with FileLog.open(path, fsync="never") as log:
            log.append(b"a")
            assert path.read_bytes() == b"a\n"


class TestWriteFailure:
    @pytest.mark.parametrize(
        "error",
        [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()],
        ids=["disk full", "interrupted"],
    )
    def test_failed_write_is_cut_and_log_refuses_appends(
        self, path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
    ) -> None:
        """A write that stops half way is truncated; the log then refuses appends."""
        real_write = os.write
        calls = [0]

        def short_then_error(fd: int, data: memoryview | bytes) -> int:
            calls[0] += 1
            if calls[0] == 1:
                return real_write(fd, bytes(data[:3]))
            raise error

        with FileLog.open(path) as log:
            log.append(b"kept")
            monkeypatch.setattr(os, "write", short_then_error)
            with pytest.raises(type(error)):
                log.append(b"lost record")
            monkeypatch.undo()
            with pytest.raises(UsageError, match="failed write or sync"):
                log.append(b"next")
            assert len(log) == 1
        assert path.read_bytes() == b"kept\n"

    @pytest.mark.parametrize("step", ["write", "sync"])
    def test_errors_name_the_log(
        self, path: Path, monkeypatch: pytest.MonkeyPatch, step: str
    ) -> None:
        """An error from a call on the descriptor names the log's path (not None)."""

        def full(*_args: object) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        with FileLog.open(path) as log:
            if step == "write":
                monkeypatch.setattr(os, "write", full)
            else:
                monkeypatch.setattr(log, "_sync", full)
            with pytest.raises(OSError, match="No space left") as caught:
                log.append(b"a")
            monkeypatch.undo()
        assert caught.value.filename == str(path)
        assert caught.value.errno == errno.ENOSPC

    def test_short_writes_are_continued(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A write the kernel takes in pieces still lands whole."""
        real_write = os.write
        monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, bytes(data[:2])))
        with FileLog.open(path) as log:
            log.append_many([b"abcde", b"fgh"])
        assert path.read_bytes() == b"abcde\nfgh\n"

    def test_failed_sync_refuses_further_appends(
        self, path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """After a failed fsync the log stops appending rather than retrying."""
        path.touch()
        with FileLog.open(path) as log:

            def failing(_fd: int) -> None:
                raise OSError(errno.EIO, "Input/output error")

            monkeypatch.setattr(log, "_sync", failing)
            with pytest.raises(OSError, match="Input/output"):
                log.append(b"a")
            with pytest.raises(UsageError, match="refuses appends"):
                log.append(b"b")
            log.flush()


class TestResume:
    @pytest.fixture
    def indexed(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[FileLog, list[bytes]]:
        """A log with a tiny index stride, filled by single appends and batches."""
        monkeypatch.setattr(logscan, "INDEX_STRIDE", 40)
        lines = [log_writer.event_line(n)[: 5 + n % 30] for n in range(120)]
        log = FileLog.open(path, fsync="never")
        log.append_many(lines[:50])
        for line in lines[50:90]:
            log.append(line)
        log.append_many(lines[90:])
        return log, lines

    def test_index_has_entries(self, indexed: tuple[FileLog, list[bytes]]) -> None:
        """Appends across many strides build a multi-entry index."""
        log, _ = indexed
        assert len(log._index.seqs) > 20

    def test_read_from_every_seq(self, indexed: tuple[FileLog, list[bytes]]) -> None:
        """Reading from any seq yields exactly the records from there on."""
        log, lines = indexed
        for start in range(len(lines) + 1):
            assert list(log.read(start)) == list(enumerate(lines))[start:]
        log.close()

    def test_reopened_index_reads_the_same(
        self, indexed: tuple[FileLog, list[bytes]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The index the scan at open builds (in small chunks) resumes as well."""
        log, lines = indexed
        log.close()
        monkeypatch.setattr(logscan, "SCAN_CHUNK", 33)
        with FileLog.open(log.path) as again:
            assert len(again._index.seqs) > 20
            for start in range(len(lines) + 1):
                assert list(again.read(start)) == list(enumerate(lines))[start:]

    def test_read_from_every_offset(self, indexed: tuple[FileLog, list[bytes]]) -> None:
        """Resuming at each record's byte offset yields that record's seq and the rest."""
        log, lines = indexed
        offset = 0
        for seq, line in enumerate(lines):
            assert next(log.read_from_offset(offset)) == (seq, line)
            offset += len(line) + 1
        assert list(log.read_from_offset(log.size)) == []
        log.close()

    def test_saved_size_resumes_after_more_appends(self, path: Path) -> None:
        """A ``size`` saved earlier is where the records appended since begin."""
        with FileLog.open(path) as log:
            log.append_many(LINES)
            saved = log.size
            log.append_many([b"x", b"y"])
            assert list(log.read_from_offset(saved)) == [(3, b"x"), (4, b"y")]

    @pytest.mark.parametrize("offset", [1, 3, 1000, -1])
    def test_offset_off_a_boundary_raises(self, path: Path, offset: int) -> None:
        """An offset inside a record or outside the file is caller misuse."""
        with FileLog.open(path) as log:
            log.append_many([b"abc", b"def"])
            with pytest.raises(UsageError, match="offset"):
                log.read_from_offset(offset)

    def test_reading_a_replaced_file_raises(self, path: Path) -> None:
        """A reader notices the path now names another file."""
        with FileLog.open(path) as log:
            log.append(b"a")
            reader = log.read()
            path.rename(path.with_suffix(".old"))
            path.write_bytes(b"other\n")
            with pytest.raises(OSError, match="replaced"):
                next(reader)

    def test_reading_a_shrunk_file_raises(self, path: Path) -> None:
        """A reader notices committed records vanished under it."""
        with FileLog.open(path) as log:
            log.append_many([b"a", b"b"])
            reader = log.read()
            os.truncate(path, 2)
            with pytest.raises(OSError, match="ends before"):
                list(reader)

    def test_reader_survives_close(self, path: Path) -> None:
        """A reader made before close still yields its records."""
        log = FileLog.open(path)
        log.append_many(LINES)
        reader = log.read()
        log.close()
        assert list(reader) == list(enumerate(LINES))

    def test_memory_does_not_grow_with_log_length(self, path: Path) -> None:
        """Opening and reading a 16 MB log stays within a few MB of Python memory."""
        line = b'{"type":"TEXT_MESSAGE_CONTENT","delta":"' + b"z" * 200 + b'"}'
        with path.open("wb") as raw:
            raw.write((line + b"\n") * 65536)
        tracemalloc.start()
        try:
            with FileLog.open(path, fsync="never") as log:
                records = sum(1 for _ in log.read())
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert records == 65536
        assert peak < 3 << 20


class TestSigkill:
    def test_killed_always_writer_keeps_every_acked_event(self, tmp_path: Path) -> None:
        """After 20 SIGKILLs the log is a prefix of the input holding every acked event."""
        summary = log_writer.kill_loop(
            tmp_path, fsync="always", kills=20, seed=5, max_delay=0.15, max_batch=400
        )
        assert summary.kills == 20
        assert summary.writer_errors == 0
        assert summary.mismatches == 0
        assert summary.lost_acked == 0
        assert summary.records > summary.max_acked >= 0

    @pytest.mark.parametrize("fsync", ["batch", "never"])
    def test_killed_writer_leaves_a_clean_prefix(self, tmp_path: Path, fsync: FsyncPolicy) -> None:
        """Other policies also leave a prefix with no partial event (process kills only)."""
        summary = log_writer.kill_loop(
            tmp_path, fsync=fsync, kills=3, seed=9, max_delay=0.15, max_batch=400
        )
        assert summary.kills == 3
        assert summary.writer_errors == 0
        assert summary.mismatches == 0
        # A killed process loses nothing already written to the kernel, whatever the policy.
        assert summary.lost_acked == 0
