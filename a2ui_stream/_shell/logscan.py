"""The layout of a log file: complete records, a torn tail, and where each record starts.

Owns the scan a :class:`~a2ui_stream._shell.filelog.FileLog` makes when it opens a file (count the
newline-terminated records, find a torn last fragment, build a sparse seq-to-offset
index), the reads that resume at a seq or a byte offset, and the judgement of whether a
file's first line is an event as this package writes it (:func:`foreign`). Reads in
fixed-size chunks, so memory never depends on the log's length. Shell layer, like the
log: it reads files; no core module may import it, and it imports nothing from the
package but diagnostics and the names of the event types.
"""

from __future__ import annotations

import bisect
import os
import re
from array import array
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from a2ui_stream._wire.codec import EVENT_TYPES
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import DEFAULT_MAX_LINE_BYTES

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "INDEX_STRIDE",
    "SCAN_CHUNK",
    "Index",
    "Scan",
    "count_newlines",
    "foreign",
    "scan",
    "torn_tail",
    "unterminated_tail",
    "whole_last_record",
]

#: Bytes between two entries of the sparse seq-to-offset index: 16 bytes of index per
#: MiB of log, so resuming at any seq reads at most about this much before the first
#: record it yields.
INDEX_STRIDE = 1 << 20
#: Read size for the scan at open and for skipping to a resume point.
SCAN_CHUNK = 1 << 20
#: The longest tail after the last line feed read whole to tell a record that lost its
#: line feed from a torn one: the default ``max_line_bytes``, the longest line a stream
#: lets through to the log.
WHOLE_TAIL_BYTES = DEFAULT_MAX_LINE_BYTES
#: How much of a torn fragment a diagnostic quotes.
_RAW_PREFIX = 64
_NEWLINE = b"\n"
#: How every record this package writes begins: compact JSON with the event's ``type``
#: first (``encode_event`` puts the tag before every other field, unknown events too).
EVENT_START = b'{"type":"'
#: That start through the end of the ``type`` string and the character after it.
_TYPED_START = re.compile(rb'\{"type":"(?:[^"\\\x00-\x1f]|\\.)*"[,}]')


class _Typed(msgspec.Struct):
    """A JSON object with a string ``type``; its other fields are checked as JSON only."""

    type: str


class Index:
    """A sparse map from seq to byte offset: one record start per stride of the file.

    Positions are data: each entry is the seq and offset of a record start, so resuming
    at a seq or an offset is a bisect plus a short forward scan, never a guess.
    """

    def __init__(self) -> None:
        """Start with record 0 at offset 0."""
        self.seqs = array("q", [0])
        self.offsets = array("q", [0])
        self.next_at = INDEX_STRIDE

    def add(self, data: bytes | bytearray, length: int, offset: int, seq: int) -> None:
        """Index the first record starting at or after each due stride point in ``data``.

        Args:
            data: file bytes from byte ``offset`` on, inside or at the start of record ``seq``.
            length: how many bytes of ``data`` are valid.
            offset: the file offset of ``data[0]``.
            seq: the seq of the record ``data[0]`` belongs to.
        """
        counted_to = 0
        while offset + length >= self.next_at:
            # A record starts at byte r when byte r - 1 is a line feed.
            found = data.find(_NEWLINE, max(self.next_at - offset - 1, 0), length)
            if found < 0:
                return
            seq += data.count(_NEWLINE, counted_to, found + 1)
            counted_to = found + 1
            self.seqs.append(seq)
            self.offsets.append(offset + counted_to)
            self.next_at = offset + counted_to + INDEX_STRIDE

    def at_seq(self, seq: int) -> tuple[int, int]:
        """Return ``(offset, seq)`` of the last indexed record start at or before ``seq``."""
        at = bisect.bisect_right(self.seqs, seq) - 1
        return self.offsets[at], self.seqs[at]

    def at_offset(self, offset: int) -> tuple[int, int]:
        """Return ``(offset, seq)`` of the last indexed record start at or before ``offset``."""
        at = bisect.bisect_right(self.offsets, offset) - 1
        return self.offsets[at], self.seqs[at]


class Scan(NamedTuple):
    """What the scan at open found."""

    records: int
    committed: int
    total: int
    fragment: bytes
    positions: Index


def scan(fd: int) -> Scan:
    """Count and index records and find where the last one ends, in fixed-size chunks."""
    index = Index()
    buffer = bytearray(SCAN_CHUNK)
    records = committed = position = 0
    while got := os.preadv(fd, [buffer], position):
        if position + got >= index.next_at:
            index.add(buffer, got, position, records)
        newlines = buffer.count(_NEWLINE, 0, got)
        if newlines:
            records += newlines
            committed = position + buffer.rfind(_NEWLINE, 0, got) + 1
        position += got
    fragment = os.pread(fd, min(position - committed, _RAW_PREFIX), committed)
    return Scan(records, committed, position, fragment, index)


def torn_tail(path: Path, scan: Scan, *, readonly: bool) -> Diagnostic:
    """Describe the incomplete last line found at open."""
    count, size, dropped = scan.records, scan.committed, scan.total - scan.committed
    action = "ignored" if readonly else "truncated"
    return Diagnostic(
        code=Code.LOG_TORN_TAIL,
        message=(
            f"{action} an incomplete last line of {dropped} bytes at byte {size} of {path} "
            f"(a write interrupted by a crash); kept {count} complete events"
        ),
        severity=Severity.WARNING,
        line=count + 1,
        offset=size,
        seq=count,
        raw=scan.fragment,
    )


def whole_last_record(fd: int, found: Scan) -> bool:
    """Whether the bytes after the last line feed are a whole record, not a torn one.

    This package writes a record and its line feed in one write, so a crash can tear a
    record anywhere up to that line feed, and a record cut short is never whole JSON: a
    compact JSON object is complete only at its closing brace, the record's last byte.
    Bytes that decode as a JSON object with a string ``type`` are therefore a record
    whose line feed is missing for another reason (another program wrote the file, or an
    editor or ``head -c`` cut it): the record is whole and must not be dropped. Only a
    tail of at most :data:`WHOLE_TAIL_BYTES` is read to decide.
    """
    length = found.total - found.committed
    if not length or length > WHOLE_TAIL_BYTES or not found.fragment.startswith(EVENT_START):
        return False
    try:
        msgspec.json.decode(os.pread(fd, length, found.committed), type=_Typed)
    except msgspec.DecodeError:
        return False
    return True


def unterminated_tail(path: Path, found: Scan, *, readonly: bool) -> Diagnostic:
    """Describe a whole last record found at open without its line feed."""
    action = "read it as it is" if readonly else "added its line feed"
    return Diagnostic(
        code=Code.LOG_UNTERMINATED_TAIL,
        message=(
            f"the last line of {path}, at byte {found.committed}, is a whole event with no "
            f"line feed (another program wrote or cut the file); kept it and {action}"
        ),
        severity=Severity.WARNING,
        line=found.records + 1,
        offset=found.committed,
        seq=found.records,
        raw=found.fragment,
    )


def count_newlines(fd: int, start: int, stop: int) -> int:
    """Count line terminators in the file's bytes ``start..stop`` in fixed-size chunks."""
    total = 0
    buffer = bytearray(SCAN_CHUNK)
    while start < stop:
        got = os.preadv(fd, [memoryview(buffer)[: min(SCAN_CHUNK, stop - start)]], start)
        if not got:
            break
        total += buffer.count(_NEWLINE, 0, got)
        start += got
    return total


def _whole_document(fragment: bytes) -> str | None:
    """Say why a file of one unterminated line is no torn first record, if it is not.

    A record torn by a crash stops short of its line feed, so it is whole JSON only when
    the tear fell just before that line feed, and then it is an AG-UI event. A whole
    JSON object of another ``type`` is someone's one-line document (compact GeoJSON):
    opening it as a torn log would truncate it to nothing.
    """
    try:
        typed = msgspec.json.decode(fragment, type=_Typed)
    except msgspec.DecodeError:
        return None  # cut short: the start of a record
    if typed.type in EVENT_TYPES:
        return None
    return (
        f"it is a whole JSON document of type {typed.type[:40]!r} with no line feed, "
        "not an AG-UI event"
    )


def foreign(fd: int) -> str | None:
    """Say why a file is not an event log this package wrote, judged from its first lines.

    A log written by this package is a file of compact JSON events, one per line, each
    beginning ``{"type":"``: so its first line must be a JSON object whose first key is
    a string ``type``, and one of the lines read (the first, or one soon after) is an
    AG-UI event. The first :data:`SCAN_CHUNK` bytes are read, and more only for a first
    line longer than that (:func:`_long_first_line`). A file that is one unterminated
    fragment passes if it could be the start of such a line (the first record's write
    was torn by a crash; opening cuts it off): a whole JSON object passes only when its
    type is an AG-UI event's.

    Args:
        fd: the file, open for reading.

    Returns:
        ``None`` for an empty file or a log; otherwise what its first line is instead.
    """
    head = os.pread(fd, SCAN_CHUNK, 0)
    if not head:
        return None
    end = head.find(_NEWLINE)
    if end < 0 and len(head) < SCAN_CHUNK:
        if EVENT_START.startswith(head):
            return None
        if head.startswith(EVENT_START):
            return _whole_document(head)
        return "it holds one unterminated line that is not the start of an event"
    line = head[:end] if end >= 0 else head
    if _TYPED_START.match(line) is None:
        return 'its first line does not begin like an event ({"type":"...")'
    if end < 0:
        return _long_first_line(fd, head)
    try:
        first = msgspec.json.decode(line, type=_Typed).type
    except msgspec.DecodeError:
        return "its first line is not a JSON object with a string type"
    # A log may begin with events of types AG-UI does not define (they are logged as
    # they came), but it logs a stream: an AG-UI event follows within its first lines.
    # Another program's JSONL ({"type":"info",...} lines) holds none.
    if first not in EVENT_TYPES and not _holds_an_event(head):
        return (
            f"its lines are JSON objects with a type ({first[:40]!r} first), but none "
            "of its first lines is an AG-UI event"
        )
    return None


def _long_first_line(fd: int, head: bytes) -> str | None:
    """Say why a file whose first line outruns the window is not a log, if it is not.

    Its start names its type. An AG-UI event's passes: a logged event may be as long as
    ``max_line_bytes``, and a crash may have torn it. Any other type is judged as a
    short line's is (an event of a type AG-UI lacks may begin a log, but an AG-UI event
    follows it soon), from the window after the first line feed; found by an input
    probe, a compact GeoJSON file of 1.5 MB was taken for a torn first record and
    truncated to nothing.
    """
    found = _LINE_TYPE.match(head)
    if found is not None and found.group(1).decode() in EVENT_TYPES:
        return None
    newline = _newline_after(fd, len(head))
    if newline is not None and _holds_an_event(os.pread(fd, SCAN_CHUNK, newline + 1)):
        return None
    return f"its first line, longer than {SCAN_CHUNK:,} bytes, is no AG-UI event, and " + (
        "no line follows it" if newline is None else "none of the lines after it is one"
    )


def _newline_after(fd: int, start: int) -> int | None:
    """Where the first line feed at or after ``start`` is, read in chunks; ``None``: none."""
    while chunk := os.pread(fd, SCAN_CHUNK, start):
        found = chunk.find(_NEWLINE)
        if found >= 0:
            return start + found
        start += len(chunk)
    return None


#: The ``type`` a line of this package's log begins with, when it is an AG-UI name.
_LINE_TYPE = re.compile(rb'^\{"type":"([A-Z_]+)"[,}]', re.MULTILINE)


def _holds_an_event(head: bytes) -> bool:
    """Whether some line of ``head`` begins as a logged AG-UI event does."""
    return any(found.group(1).decode() in EVENT_TYPES for found in _LINE_TYPE.finditer(head))
