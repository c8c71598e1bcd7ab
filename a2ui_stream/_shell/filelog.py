"""The durable event log: decoded events kept in a file before they change any state.

Owns :class:`FileLog`, an :class:`~a2ui_stream._engine.eventlog.EventLog` stored as a
file of newline-terminated lines (one compact JSON event per line, so a log file is
itself an AG-UI JSONL recording any tool can read).

The log knows nothing of event types: it appends and reads ``bytes`` lines without their
terminator, numbered from 0 (the *seq*). Encoding and decoding events is the caller's job
(``a2ui_stream._wire.codec``). This is a shell module: it opens files, takes locks and calls
``fsync``; it must not be imported by any core module. It imports the log contract from
the engine, and otherwise only errors and diagnostics.

File format and recovery rules:

- A record is the line's bytes followed by a line feed; a record is committed once its
  terminator is in the file. Lines may not be empty or contain a line feed.
- Opening a file scans it once (memory independent of its length), counts its records
  and truncates a torn last fragment: any bytes after the last line feed. Such bytes can
  only be the tail of a write the writer never returned from, so dropping them loses
  nothing that was acknowledged. The drop is reported in :attr:`FileLog.recovered`.
  Bytes after the last line feed that are a whole JSON event were not torn (a torn
  record is never whole JSON): another program wrote the file without a final line
  feed, and the record is kept, its line feed added (:func:`logscan.whole_last_record`).
- One writer at a time: the open file holds an exclusive ``flock``. Read-only opens take
  no lock, never truncate, and see the records committed when they opened.
- Refused before a byte is written or truncated (:class:`~a2ui_stream.errors.LogRefusedError`):
  a path that is not a regular file (a directory, a device such as ``/dev/full``, a FIFO),
  a file that is one the caller names as off limits (the input being read, standard
  output), and, when the caller asks for event logs only, an existing file whose first
  line is not an event as this package writes it (see :func:`logscan.foreign`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from a2ui_stream._engine.eventlog import Closable, check_line, check_start
from a2ui_stream._shell import logscan
from a2ui_stream.errors import LogLockedError, LogRefusedError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence

    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = ["FileLog", "FsyncPolicy", "name_error", "naming"]

FsyncPolicy = Literal["always", "batch", "never"]
"""When :class:`FileLog` makes appended records durable.

``"always"``: ``append`` returns only after the record is written and synced to disk.
``"batch"``: synced once ``batch_events`` records or ``batch_ms`` milliseconds have gone
by since the last sync (checked when appending), and at ``flush()`` / ``close()``.
``"never"``: written to the operating system on every append, synced when it decides.
Every policy writes each append to the kernel before returning, so a killed *process*
loses nothing acknowledged; the policies differ only on power loss or a kernel crash.
"""

_NEWLINE = b"\n"
#: What a file that is not a regular one is, for the refusal (by ``stat.S_IFMT``).
_FILE_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
}
#: The clock ``"batch"`` measures ``batch_ms`` with (a name tests can replace).
_clock = time.monotonic


def _sync_function() -> Callable[[int], None]:
    """Pick the cheapest call that makes appended bytes durable on this platform.

    ``fdatasync`` skips the timestamp update ``fsync`` also writes, but still flushes the
    file size an append changes, which is what reading the record back needs.
    """
    return getattr(os, "fdatasync", os.fsync)


class FileLog(Closable):
    """An :class:`EventLog` in a file of newline-terminated lines, one writer at a time.

    Open it with :meth:`open`. Not safe for concurrent use from several threads. Besides
    the contract it offers :meth:`read_from_offset` (resume at a byte offset, such as a
    :attr:`size` saved earlier) and :attr:`recovered` (what opening repaired).
    """

    recovered: Diagnostic | None
    """A ``log.torn_tail`` warning when opening found (and, unless read-only, truncated)
    an incomplete last line, or a ``log.unterminated_tail`` one when the last line was a
    whole event missing its line feed (kept, the line feed added unless read-only);
    ``None`` when the file ended cleanly."""

    def __init__(
        self,
        *,
        path: Path,
        fd: int,
        readonly: bool,
        scan: logscan.Scan,
        policy: FsyncPolicy,
        batch_events: int,
        batch_ms: float,
        recovered: Diagnostic | None,
    ) -> None:
        """Wrap an opened, locked and scanned file; use :meth:`open` instead."""
        self.path = path
        self.recovered = recovered
        self._fd = fd
        self._readonly = readonly
        self._count = scan.records
        self._size = scan.committed
        self._index = scan.positions
        stat = os.fstat(fd)
        self._identity = (stat.st_dev, stat.st_ino)
        self._failure: BaseException | None = None
        self._sync = _sync_function()
        self._batch_events = batch_events
        self._batch_seconds = batch_ms / 1000.0
        self._unsynced = 0
        self._last_sync = _clock()
        # Decide once which sync step follows a write (structlog's _make_stamper habit).
        self._after_write: Callable[[], None] = {
            "always": self._sync_always,
            "batch": self._sync_batch,
            "never": self._sync_never,
        }[policy]
        self._policy = policy

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        fsync: FsyncPolicy = "always",
        batch_events: int = 256,
        batch_ms: float = 50.0,
        readonly: bool = False,
        events_only: bool = False,
        distinct_from: Mapping[tuple[int, int], str] | None = None,
    ) -> FileLog:
        """Open (creating if needed) a log file, lock it and recover a torn tail.

        Every refusal comes before anything is written, truncated or created.

        Args:
            path: the log file; created if absent unless ``readonly``.
            fsync: when appends become durable, see :data:`FsyncPolicy`.
            batch_events: with ``"batch"``, sync after this many unsynced records.
            batch_ms: with ``"batch"``, sync on the first append this many milliseconds
                after the last sync.
            readonly: read an existing log without locking, truncating or appending
                (for example while another process writes it); a torn tail is reported
                in :attr:`recovered` and skipped, and later appends by others are not seen.
            events_only: refuse an existing non-empty file whose first line is not an
                event as this package writes it (compact JSON beginning ``{"type":"``),
                so that a file which is not an event log is never truncated or appended to.
            distinct_from: files the log must not be, as ``(st_dev, st_ino)`` mapped to
                what they are (such as the input being read, ``"the input"``): a path that
                names one of them, through a symbolic or hard link or not, is refused.

        Returns:
            The open log, positioned after its last complete record.

        Raises:
            UsageError: ``fsync``, ``batch_events`` or ``batch_ms`` is invalid.
            LogRefusedError: the path is not a regular file, is one of ``distinct_from``,
                or (with ``events_only``) holds something other than an event log.
            LogLockedError: another writer (process or open log) holds the file.
            OSError: the file cannot be opened, read, truncated or synced.
        """
        if fsync not in ("always", "batch", "never"):
            raise UsageError(f"fsync must be 'always', 'batch' or 'never', not {fsync!r}")
        if batch_events < 1 or batch_ms < 0:
            raise UsageError("batch_events must be at least 1 and batch_ms at least 0")
        log_path = Path(path)
        try:
            # Before opening: O_CREAT on a directory fails with a less helpful error.
            _refuse_kind(log_path, log_path.stat())
            created = False
        except FileNotFoundError:
            created = not readonly
        # O_NONBLOCK: opening a FIFO must not wait for a peer before it can be refused.
        flags = os.O_CLOEXEC | os.O_NONBLOCK
        flags |= os.O_RDONLY if readonly else os.O_RDWR | os.O_APPEND | os.O_CREAT
        fd = os.open(log_path, flags, 0o644)
        try:
            with naming(log_path):
                _refuse(log_path, fd, distinct_from or {}, events_only=events_only)
                os.set_blocking(fd, True)
                if not readonly:
                    _lock(fd, log_path)
                scan = logscan.scan(fd)
                recovered = None
                if logscan.whole_last_record(fd, scan):
                    recovered = logscan.unterminated_tail(log_path, scan, readonly=readonly)
                    scan = _complete_last_record(fd, scan, readonly=readonly, fsync=fsync)
                elif scan.total != scan.committed:
                    recovered = logscan.torn_tail(log_path, scan, readonly=readonly)
                    if not readonly:
                        os.ftruncate(fd, scan.committed)
                        if fsync != "never":
                            _sync_function()(fd)
                if created and fsync != "never":
                    _sync_directory(log_path.parent)
        except BaseException:
            os.close(fd)
            raise
        return cls(
            path=log_path,
            fd=fd,
            readonly=readonly,
            scan=scan,
            policy=fsync,
            batch_events=batch_events,
            batch_ms=batch_ms,
            recovered=recovered,
        )

    @property
    def size(self) -> int:
        """Committed bytes: the offset at which the next record will start."""
        return self._size

    @property
    def fsync(self) -> FsyncPolicy:
        """The fsync policy chosen at open."""
        return self._policy

    def append(self, line: bytes) -> int:
        """Append one line and make it durable as the fsync policy says.

        Args:
            line: the record, without terminator.

        Returns:
            The line's seq.

        Raises:
            UsageError: the log is closed, read-only or failed earlier, or the line is
                empty or contains a line feed.
            OSError: writing or syncing failed; the log refuses appends from then on.
        """
        self._check_writable()
        check_line(line)
        self._write(line + _NEWLINE, 1)
        return self._count - 1

    def append_many(self, lines: Sequence[bytes]) -> int:
        """Append several lines in one write, then sync as the policy says.

        A crash may keep a prefix of the lines (never a partial one); the call returns
        only once all are written.

        Args:
            lines: the records in order; may be empty.

        Returns:
            The seq of the log's last record afterwards (-1 if the log is still empty).

        Raises:
            UsageError: the log is closed, read-only or failed earlier, or a line is
                empty or contains a line feed (then nothing is written).
            OSError: writing or syncing failed; the log refuses appends from then on.
        """
        self._check_writable()
        if lines:
            for line in lines:
                check_line(line)
            self._write(_NEWLINE.join(lines) + _NEWLINE, len(lines))
        return self._count - 1

    def flush(self) -> None:
        """Sync everything appended so far to disk, whatever the policy.

        Raises:
            UsageError: the log is closed.
            OSError: syncing failed; the log refuses appends from then on.
        """
        self._check_open()
        if not self._readonly and self._failure is None:
            self._sync_now()

    def read(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """Stream records from seq ``start`` to the last record committed at this call.

        Jumps to the nearest index entry at or before ``start`` and skips forward from
        there (at most about one index stride of reading); memory use does not depend
        on the log's length.

        Args:
            start: the first seq to yield; ``len(self)`` yields nothing.

        Returns:
            An iterator of ``(seq, line)``; the file is opened on the first ``next``.

        Raises:
            UsageError: the log is closed or ``start`` is outside ``0..len(self)``.
            OSError: (while iterating) the file was replaced or shrank under the log.
        """
        self._check_open()
        check_start(start, self._count)
        offset, seq = self._index.at_seq(start)
        return self._iterate(offset, seq, start, self._count, self._size)

    def read_from_offset(self, offset: int) -> Iterator[tuple[int, bytes]]:
        """Stream records from the one starting at byte ``offset`` (fast resume).

        ``offset`` must be a record boundary: 0, :attr:`size`, or a value :attr:`size`
        had earlier. The seq of that record is found from the index by counting line
        terminators between the nearest index entry and ``offset``.

        Args:
            offset: byte offset of the first record to yield.

        Returns:
            An iterator of ``(seq, line)``.

        Raises:
            UsageError: the log is closed, or ``offset`` is outside the committed bytes
                or not at the start of a record.
            OSError: reading the file failed.
        """
        self._check_open()
        if not 0 <= offset <= self._size:
            raise UsageError(f"offset {offset} is outside the log's {self._size} bytes")
        if offset == self._size:  # the end, which a read-only whole last record leaves unterminated
            return iter(())
        with naming(self.path):
            before = os.pread(self._fd, 1, offset - 1) if offset else _NEWLINE
        if before != _NEWLINE:
            raise UsageError(f"offset {offset} is not the start of a record in {self.path}")
        indexed, seq = self._index.at_offset(offset)
        seq += logscan.count_newlines(self._fd, indexed, offset)
        return self._iterate(offset, seq, seq, self._count, self._size)

    def __len__(self) -> int:
        """Return the number of committed records."""
        return self._count

    def close(self) -> None:
        """Sync what is pending (``"batch"``), release the lock and close the file.

        With ``"never"`` nothing is synced here either. Closing twice is harmless.

        Raises:
            OSError: the final sync failed (the file is closed regardless).
        """
        if self._closed:
            return
        self._closed = True
        try:
            if self._policy == "batch" and self._unsynced and self._failure is None:
                with naming(self.path):
                    self._sync(self._fd)
        finally:
            os.close(self._fd)

    def __repr__(self) -> str:
        """Show path, record count and state."""
        state = "closed" if self._closed else ("readonly" if self._readonly else self._policy)
        return f"<FileLog {str(self.path)!r} records={self._count} {state}>"

    # -- writing -------------------------------------------------------------------------

    def _write(self, data: bytes, records: int) -> None:
        """Write whole records at the end of the file, then run the policy's sync step."""
        start = self._size
        view = memoryview(data)
        try:
            while view:
                # O_APPEND: every write lands at the end; a short write is continued.
                view = view[os.write(self._fd, view) :]
        except BaseException as exc:
            # Also on KeyboardInterrupt: a record left half written would merge with the
            # next one, so cut it off and refuse further appends.
            self._fail(exc, truncate_to=start)
            name_error(exc, self.path)
            raise
        if start + len(data) >= self._index.next_at:
            self._index.add(data, len(data), start, self._count)
        self._count += records
        self._size = start + len(data)
        self._unsynced += records
        self._after_write()

    def _sync_always(self) -> None:
        self._sync_now()

    def _sync_batch(self) -> None:
        if (
            self._unsynced >= self._batch_events
            or _clock() - self._last_sync >= self._batch_seconds
        ):
            self._sync_now()

    def _sync_never(self) -> None:
        """Leave syncing to the operating system."""

    def _sync_now(self) -> None:
        try:
            self._sync(self._fd)
        except BaseException as exc:
            # After a failed fsync the kernel may have dropped the dirty pages, and a
            # retry would report success: the only safe answer is to stop appending.
            self._fail(exc, truncate_to=None)
            name_error(exc, self.path)
            raise
        self._unsynced = 0
        self._last_sync = _clock()

    def _fail(self, exc: BaseException, *, truncate_to: int | None) -> None:
        """Remember a failed write or sync; cut a partial record off if possible."""
        self._failure = exc
        if truncate_to is not None:
            # If even this fails, the next open truncates the fragment (torn-tail recovery).
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, truncate_to)

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError(f"the log {self.path} is closed")

    def _check_writable(self) -> None:
        self._check_open()
        if self._readonly:
            raise UsageError(f"the log {self.path} was opened read-only")
        if self._failure is not None:
            raise UsageError(
                f"the log {self.path} refuses appends after a failed write or sync "
                f"({self._failure!r}); close and reopen it"
            )

    # -- reading -------------------------------------------------------------------------

    def _iterate(
        self, offset: int, seq: int, start: int, end: int, size: int
    ) -> Iterator[tuple[int, bytes]]:
        """Yield records ``start..end-1``, beginning the scan at record ``seq`` at ``offset``.

        Reads through a separate open file (so closing the log, or its lock, never
        depends on a reader), checked to be the same file the log holds.
        """
        with naming(self.path), self.path.open("rb") as file:
            status = os.fstat(file.fileno())
            if (status.st_dev, status.st_ino) != self._identity:
                raise OSError(f"the log file {self.path} was replaced while open")
            file.seek(offset)
            readline = file.readline
            while seq < end:
                raw = readline()
                if raw.endswith(_NEWLINE):
                    raw = raw[:-1]
                elif not raw or file.tell() != size:  # a whole last record ends at size
                    raise OSError(
                        f"the log file {self.path} ends before its {size} committed bytes "
                        f"(record {seq}): it was changed by another program"
                    )
                if seq >= start:
                    yield seq, raw
                seq += 1


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """Make every :class:`OSError` raised inside name ``path`` (see :func:`name_error`)."""
    try:
        yield
    except OSError as error:
        name_error(error, path)
        raise


def name_error(error: BaseException, path: str | os.PathLike[str]) -> None:
    """Give an :class:`OSError` that names no file the name of the one it concerns.

    A call on a file descriptor (``write``, ``fsync``, ``pread``) raises an error without
    a file name, so a full disk would be reported as ``path=None``; the type, errno and
    traceback stay as they were. An error without an errno is one of ours, whose message
    names the file already.
    """
    if isinstance(error, OSError) and error.filename is None and error.errno is not None:
        error.filename = os.fspath(path)


def _complete_last_record(
    fd: int, scan: logscan.Scan, *, readonly: bool, fsync: FsyncPolicy
) -> logscan.Scan:
    """Count a whole last record that has no line feed, adding it unless read-only.

    Read-only, the record ends where the file does (:meth:`FileLog._iterate` reads it
    so); a writer adds the line feed first, so the next record cannot merge with it.
    """
    if readonly:
        return scan._replace(records=scan.records + 1, committed=scan.total)
    os.write(fd, _NEWLINE)  # O_APPEND: at the end
    if fsync != "never":
        _sync_function()(fd)
    return scan._replace(records=scan.records + 1, committed=scan.total + 1, total=scan.total + 1)


def _refuse_kind(path: Path, status: os.stat_result) -> None:
    """Refuse a path that is not a regular file: its scan could never end, or it is no file.

    Raises:
        LogRefusedError: ``status`` is not that of a regular file.
    """
    if not stat.S_ISREG(status.st_mode):
        kind = _FILE_KINDS.get(stat.S_IFMT(status.st_mode), "not a regular file")
        raise LogRefusedError(
            f"refusing {path} as an event log: it is {kind}, not a regular file; "
            "give the path of a regular file (a new one, or an existing event log)"
        )


def _refuse(
    path: Path, fd: int, distinct_from: Mapping[tuple[int, int], str], *, events_only: bool
) -> None:
    """Refuse the opened file if it must not become a log, before anything touches it.

    Checked on the open descriptor, so a path swapped after the first ``stat`` is caught.

    Raises:
        LogRefusedError: the file is not regular, is one of ``distinct_from``, or (with
            ``events_only``) holds something other than an event log.
    """
    status = os.fstat(fd)
    _refuse_kind(path, status)
    what = distinct_from.get((status.st_dev, status.st_ino))
    if what is not None:
        raise LogRefusedError(
            f"refusing {path} as an event log: it is the same file as {what} (perhaps "
            "through a link), and appending to it would corrupt it; give another path"
        )
    if events_only and (reason := logscan.foreign(fd)) is not None:
        raise LogRefusedError(
            f"refusing {path} as an event log: {reason}, so it is not a log this program "
            "wrote; it was left unchanged. Give a new path, or the path of an existing log"
        )


def _lock(fd: int, path: Path) -> None:
    """Take the one-writer lock on an open log file.

    ``flock`` locks belong to the open file description, so a second open of the same
    path conflicts even inside one process (unlike ``fcntl`` record locks).

    Raises:
        LogLockedError: another open file description holds the lock.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LogLockedError(
            f"the event log {path} is locked by another writer "
            "(another process, or another open log in this one); "
            "only one writer may append at a time"
        ) from None


def _sync_directory(directory: Path) -> None:
    """Make a newly created file's directory entry durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
