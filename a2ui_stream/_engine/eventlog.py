"""The event-log contract the processor writes to, and the in-memory store.

Owns :class:`EventLog` (numbered lines appended and read back in order, the interface
:class:`~a2ui_stream._engine.processor.Processor` needs) and :class:`MemoryLog`, the
default store, plus the line and range checks every store shares. Durable stores live
in the shell (:mod:`a2ui_stream._shell.filelog`) and implement this protocol; nothing
here touches a file. Imports only ``a2ui_stream.errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Self

from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from types import TracebackType

__all__ = ["Closable", "EventLog", "MemoryLog", "check_line", "check_start"]

_NEWLINE = b"\n"


class EventLog(Protocol):
    """The contract every log store keeps: numbered lines, appended and read back in order.

    Sequence numbers start at 0 and grow by one per appended line. A line is ``bytes``
    without a terminator, neither empty nor containing a line feed. Reads see the records
    present when ``read`` was called. A store is used by one thread at a time.
    """

    def append(self, line: bytes) -> int:
        """Append one line; return its seq once it is durable under the store's policy."""
        ...

    def append_many(self, lines: Sequence[bytes]) -> int:
        """Append lines in order in one write; return the seq of the log's last record."""
        ...

    def flush(self) -> None:
        """Make everything appended so far durable now."""
        ...

    def read(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """Yield ``(seq, line)`` from seq ``start`` to the last record present now."""
        ...

    def __len__(self) -> int:
        """Return the number of records in the log."""
        ...

    def close(self) -> None:
        """Flush and release the store; closing twice is harmless."""
        ...


def check_line(line: bytes) -> None:
    """Refuse a line the file format cannot hold.

    Raises:
        UsageError: the line is empty or contains a line feed.
    """
    if not line:
        raise UsageError("a log line may not be empty")
    if _NEWLINE in line:
        raise UsageError("a log line may not contain a line feed (encode events as compact JSON)")


def check_start(start: int, count: int) -> None:
    """Refuse a read start outside ``0..count``.

    Raises:
        UsageError: ``start`` is negative or past the end of the log.
    """
    if not 0 <= start <= count:
        raise UsageError(f"cannot read from seq {start}: the log holds seqs 0..{count - 1}")


class Closable:
    """What both stores share: a closed flag and use as a context manager."""

    _closed = False

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Mark the log closed."""
        self._closed = True

    def __enter__(self) -> Self:
        """Use the log as a context manager that closes it."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the log."""
        self.close()


class MemoryLog(Closable):
    """An :class:`EventLog` kept in a Python list: the default, gone when the process ends.

    ``flush`` does nothing; there is nothing to make durable.
    """

    def __init__(self) -> None:
        """Start an empty log."""
        self._lines: list[bytes] = []

    def append(self, line: bytes) -> int:
        """Append one line.

        Args:
            line: the record, without terminator.

        Returns:
            The line's seq.

        Raises:
            UsageError: the log is closed, or the line is empty or contains a line feed.
        """
        self._check_open()
        check_line(line)
        self._lines.append(line)
        return len(self._lines) - 1

    def append_many(self, lines: Sequence[bytes]) -> int:
        """Append several lines, all or none.

        Args:
            lines: the records in order; may be empty.

        Returns:
            The seq of the log's last record afterwards (-1 if the log is still empty).

        Raises:
            UsageError: the log is closed, or a line is empty or contains a line feed
                (then nothing is appended).
        """
        self._check_open()
        for line in lines:
            check_line(line)
        self._lines.extend(lines)
        return len(self._lines) - 1

    def flush(self) -> None:
        """Do nothing: memory has no durability to reach.

        Raises:
            UsageError: the log is closed.
        """
        self._check_open()

    def read(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """Iterate records from ``start`` to the last record present at this call.

        Args:
            start: the first seq to yield; ``len(self)`` yields nothing.

        Returns:
            An iterator of ``(seq, line)``.

        Raises:
            UsageError: the log is closed or ``start`` is outside ``0..len(self)``.
        """
        self._check_open()
        end = len(self._lines)
        check_start(start, end)
        return self._iterate(start, end)

    def _iterate(self, start: int, end: int) -> Iterator[tuple[int, bytes]]:
        lines = self._lines
        for seq in range(start, end):
            yield seq, lines[seq]

    def __len__(self) -> int:
        """Return the number of records."""
        return len(self._lines)

    def close(self) -> None:
        """Refuse further appends and reads; the records stay countable."""
        super().close()

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError("the memory log is closed")
