"""Framing: a byte stream cut into JSON payloads, JSONL or SSE, without doing any I/O.

Owns where one event's bytes end and the next begin: newlines, CRLF, a leading UTF-8
BOM, blank lines, SSE fields and comments, the line-size limit, and telling JSONL from
SSE by the first bytes. It knows nothing about JSON or events (the codec decodes the
payloads) and must not import the codec, state or shell modules.

The :class:`Framer` is fed bytes cut anywhere (inside a line, a UTF-8 sequence or a
CRLF) and returns what each chunk completed; the output never depends on the cuts.
Its buffer follows wsproto's commit/rollback idea, reduced to what lines need: only
the uncommitted tail of the current line is kept, a line is committed when its
newline arrives, and each byte is scanned for a newline exactly once, so a long line
arriving in many small chunks costs one append per chunk and no rescans.

Lines end with LF, CRLF or a lone CR: the three the SSE spec allows (WHATWG HTML
§9.2.6), and what universal-newline readers take for JSONL. A lone CR is rewritten as
LF before splitting, byte for byte, so offsets stay those of the input; a CR that ends
a chunk waits for the next byte, which decides whether it is half of a CRLF.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypeAlias, final

import msgspec

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import DEFAULT_MAX_LINE_BYTES
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Format", "Frame", "Framer", "Output"]


Format: TypeAlias = Literal["auto", "jsonl", "sse"]
"""How the input is framed; ``"auto"`` decides from the first non-blank bytes."""

_BOM = b"\xef\xbb\xbf"
_NEWLINE = b"\n"
_CR = ord("\r")
_CR_BYTE = b"\r"
#: A CR that is not the first half of a CRLF: a line end of its own.
_LONE_CR = re.compile(rb"\r(?!\n)")
_COLON = ord(":")
_OPEN_BRACE = ord("{")
#: A byte that is not blank (space, tab, CR, LF): where "auto" looks for the first one.
_NOT_BLANK = re.compile(rb"[^ \t\r\n]")
#: First bytes that make ``"auto"`` choose SSE: a field the SSE spec defines, or a comment;
#: a field may also stand alone on its line, without a colon (no JSON line is one).
_SSE_FIELDS = (b"data", b"event", b"id", b"retry")
_SSE_PREFIXES = (
    b":",
    *(field + b":" for field in _SSE_FIELDS),
    *(field + end for field in _SSE_FIELDS for end in (b"\n", b"\r")),
)
#: Longest prefix to look at before deciding (``b"retry:"``).
_DETECT_BYTES = max(len(prefix) for prefix in _SSE_PREFIXES)
#: Bytes of an over-long line kept in its diagnostic.
_RAW_PREFIX = 64


@final  # told by ``type(x) is Frame`` in the decoder's loop, which mypy then narrows
class Frame(msgspec.Struct, frozen=True):
    """One payload cut from the stream: a JSONL line or the data of one SSE event.

    Attributes:
        payload: the bytes to decode (line terminator removed; SSE data lines joined
            with a newline).
        line: 1-based number of its first line (an SSE event's first ``data:`` line).
        offset: byte offset of that line from the start of the stream (a BOM counts).
    """

    payload: bytes
    line: int
    offset: int


Output: TypeAlias = list[Frame | Diagnostic]
"""What one call to :meth:`Framer.feed` or :meth:`Framer.close` returns, in stream order."""


def _too_long(what: str, line: int, offset: int, limit: int, raw: bytes) -> Diagnostic:
    return Diagnostic(
        code=Code.LINE_TOO_LONG,
        message=f"{what} is longer than max_line_bytes ({limit}); skipped",
        severity=Severity.ERROR,
        line=line,
        offset=offset,
        raw=raw,
    )


#: Why an SSE line that is not read was dropped, by its diagnostic's code.
_UNREAD_LINES: Final = {
    Code.SSE_JSON_LINE: (
        "line is a JSON object, not an SSE field (data: ...): SSE ignores it, so it "
        "was dropped; is the input JSONL?"
    ),
    Code.SSE_DATA_UNREAD: (
        "line is a data field but for what surrounds its name (blanks, a byte order "
        "mark): SSE reads it as another field, so it was dropped"
    ),
}


def _unread(code: Code, line: int, offset: int, raw: bytes) -> Diagnostic:
    """The ERROR of an SSE line the spec has ignored that meant an event."""
    return Diagnostic(
        code=code,
        message=_UNREAD_LINES[code],
        severity=Severity.ERROR,
        line=line,
        offset=offset,
        raw=raw,
    )


def _misspelt_data(raw: bytes) -> bool:
    """Whether a line is a ``data`` field but for blanks or a BOM around its name.

    SSE reads ``"  data: x"`` as a field named ``"  data"``, and a second recording's
    BOM left mid-stream by ``cat`` as part of the name: unknown fields, dropped in
    silence, where the stream meant events.
    """
    name = raw.split(b":", 1)[0]
    return name != b"data" and name.strip().removeprefix(_BOM).strip() == b"data"


class _Lines(Protocol):
    """What a format does with the complete lines the framer cuts."""

    def line(self, raw: bytes, line: int, offset: int, out: Output) -> None:
        """Take one complete line (terminator removed)."""

    def too_long(self, line: int, offset: int, raw: bytes, out: Output) -> None:
        """Take the start of a line that exceeded the limit and was skipped."""

    def end(self, out: Output) -> None:
        """Flush whatever the end of input completes."""


class _JsonlLines:
    """JSONL: every line that is not blank is one payload."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def line(self, raw: bytes, line: int, offset: int, out: Output) -> None:
        if raw and not raw.isspace():
            out.append(Frame(raw, line, offset))

    def too_long(self, line: int, offset: int, raw: bytes, out: Output) -> None:
        out.append(_too_long("line", line, offset, self.limit, raw))

    def end(self, out: Output) -> None:
        """JSONL has nothing pending between lines."""


class _SseLines:
    """SSE (WHATWG HTML §9.2.6): ``data:`` lines gathered until a blank line dispatches.

    Comments and the ``event``, ``id`` and ``retry`` fields are read and ignored, as are
    fields the spec does not name; a line that is a JSON object is ignored too, as the
    spec says, but reported (``sse.json_line``): it is a JSONL line, not SSE. An event
    whose data exceeds the limit is reported once and skipped up to its blank line.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._data: list[bytes] = []
        self._size = 0
        self._line = 0
        self._offset = 0
        self._skipping = False

    def line(self, raw: bytes, line: int, offset: int, out: Output) -> None:
        if not raw:
            self._dispatch(out)
            return
        if self._skipping or raw[0] == _COLON:
            return
        if raw.startswith(b"data: "):
            value = raw[6:]
        elif raw.startswith(b"data:"):
            value = raw[5:]
        elif raw == b"data":
            value = b""
        else:
            if raw.lstrip()[:1] == b"{":
                out.append(_unread(Code.SSE_JSON_LINE, line, offset, raw[:_RAW_PREFIX]))
            elif _misspelt_data(raw):
                out.append(_unread(Code.SSE_DATA_UNREAD, line, offset, raw[:_RAW_PREFIX]))
            return
        if not self._data:
            self._line, self._offset = line, offset
        # The joined payload is the values plus one b"\n" between each two.
        self._size += len(value) + (1 if self._data else 0)
        if self._size > self.limit:
            raw = b"\n".join([*self._data, value])[:_RAW_PREFIX]
            self._skip(_too_long("event", self._line, self._offset, self.limit, raw), out)
            return
        self._data.append(value)

    def too_long(self, line: int, offset: int, raw: bytes, out: Output) -> None:
        if self._skipping:
            return
        if self._data:
            line, offset = self._line, self._offset
        self._skip(_too_long("line", line, offset, self.limit, raw), out)

    def end(self, out: Output) -> None:
        self._dispatch(out)

    def _skip(self, diagnostic: Diagnostic, out: Output) -> None:
        out.append(diagnostic)
        self._data.clear()
        self._size = 0
        self._skipping = True

    def _dispatch(self, out: Output) -> None:
        if self._data and self._size:
            out.append(Frame(b"\n".join(self._data), self._line, self._offset))
        self._data.clear()
        self._size = 0
        self._skipping = False


_LINES: dict[str, Callable[[int], _Lines]] = {"jsonl": _JsonlLines, "sse": _SseLines}


def _detect(head: bytearray, start: int, *, final: bool) -> Literal["jsonl", "sse"] | None:
    """Choose the format from the stream's first bytes; ``None`` means "need more".

    ``start`` is where the first byte that is not blank is, ``len(head)`` for none yet.
    """
    if start == len(head):
        return "jsonl" if final else None
    first = bytes(head[start : start + _DETECT_BYTES])
    undecided = False
    for prefix in _SSE_PREFIXES:
        if first.startswith(prefix):
            return "sse"
        undecided |= prefix.startswith(first)
    return None if undecided and not final else "jsonl"


class Framer:
    """Cut a byte stream into :class:`Frame` payloads, whatever the chunk boundaries.

    Feed it chunks with :meth:`feed` and end the input with :meth:`close`; each call
    returns the frames and diagnostics it completed, in stream order. Bad framing never
    raises: an over-long line becomes a ``line.too_long`` :class:`Diagnostic` and the
    framer resumes after the next newline, having kept at most ``max_line_bytes + 1``
    bytes of it.
    """

    def __init__(
        self,
        *,
        format: Format = "auto",  # noqa: A002 - the public option's name; no builtin used here
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ) -> None:
        """Set up an empty framer.

        Args:
            format: ``"jsonl"``, ``"sse"``, or ``"auto"`` to choose from the first
                non-blank bytes (``{`` means JSONL; ``data:``, ``:``, ``event:``,
                ``id:`` or ``retry:`` means SSE; anything else JSONL).
            max_line_bytes: longest line (JSONL) or event data (SSE) accepted, without
                its line terminator.

        Raises:
            UsageError: ``format`` is unknown or ``max_line_bytes`` is below 1.
        """
        if format not in ("auto", "jsonl", "sse"):
            raise UsageError(f"unknown format {format!r}; use 'auto', 'jsonl' or 'sse'")
        if max_line_bytes < 1:
            raise UsageError("max_line_bytes must be at least 1")
        self._requested = format
        self._limit = max_line_bytes
        # A line is too long once its buffered bytes pass limit + 1: one more byte may
        # still be the CR of a CRLF, which is not part of the line.
        self._hold = max_line_bytes + 1
        self._prefix = min(_RAW_PREFIX, max_line_bytes + 1)
        self._lines: _Lines = _JsonlLines(max_line_bytes)
        self._started = False
        self._bom_checked = False
        self._head = bytearray()
        #: How much of ``_head`` is known to be blank while ``"auto"`` waits.
        self._blank = 0
        self._partial = bytearray()
        self._skipping = False
        self._closed = False
        self._held_cr = False
        self._line = 1
        self._line_offset = 0
        self._position = 0

    @property
    def format(self) -> Literal["jsonl", "sse"] | None:
        """The format in use, or ``None`` while ``"auto"`` has not seen enough bytes."""
        if not self._started:
            return None
        return "sse" if isinstance(self._lines, _SseLines) else "jsonl"

    def feed(self, data: bytes | memoryview) -> Output:
        """Take the next chunk of input.

        Args:
            data: any number of bytes, cut anywhere.

        Returns:
            Frames and diagnostics this chunk completed, in stream order.

        Raises:
            UsageError: the framer was closed.
        """
        if self._closed:
            raise UsageError("feed() after close()")
        if isinstance(data, memoryview):
            # A view has no find() and ``b"\r" in view`` compares single bytes as ints,
            # so a view would split unlike the same bytes: read every chunk as bytes.
            data = data.tobytes()
        out: Output = []
        self._take(self._line_ends(data), out)
        return out

    def _line_ends(self, data: bytes) -> bytes:
        """``data`` with each lone CR as LF; a CR it ends with is held for the next chunk."""
        if self._held_cr:
            data = _CR_BYTE + data
            self._held_cr = False
        if _CR not in data:  # the common case: LF only (an int: a memchr, no TypeError)
            return data
        if data[-1] == _CR:
            data = data[:-1]
            self._held_cr = True
        if _LONE_CR.search(data) is not None:  # CRLF alone needs nothing: it ends in LF
            data = _LONE_CR.sub(b"\n", data)
        return data

    def _take(self, data: bytes, out: Output) -> None:
        if not self._started:
            self._head += data
            rest = self._start(final=False)
            if rest is None:
                return
            data = rest
        self._split(data, out)

    def close(self) -> Output:
        """End the input: flush an unterminated last line and a pending SSE event.

        Returns:
            Frames and diagnostics the end of input completed. A second call returns
            nothing.
        """
        out: Output = []
        if self._closed:
            return out
        self._closed = True
        if self._held_cr:  # nothing follows it: a line end of its own
            self._held_cr = False
            self._take(b"\n", out)
        if not self._started:
            self._split(self._start(final=True) or b"", out)
        if self._partial and not self._skipping:
            self._emit(bytes(self._partial), self._line, self._line_offset, out)
        self._partial.clear()
        self._lines.end(out)
        return out

    def _start(self, *, final: bool) -> bytes | None:
        """Strip a BOM and pick the format once enough bytes are in.

        While ``"auto"`` waits, complete blank lines are counted and dropped (in either
        format they yield nothing), so a long run of them is never rescanned.

        Returns:
            The input still to split, or ``None`` when more bytes are needed to decide.
        """
        head = self._head
        if not self._bom_checked:
            if not final and len(head) < len(_BOM) and _BOM.startswith(head):
                return None
            if head.startswith(_BOM):
                del head[: len(_BOM)]
                self._position = self._line_offset = len(_BOM)
            self._bom_checked = True
        chosen = self._requested
        if chosen == "auto":
            # Only the bytes new since the last call are scanned, for what is not blank
            # and for newlines: a head of blanks rescanned at every chunk made a stream
            # that starts with megabytes of spaces cost their square.
            scanned = self._blank
            found = _NOT_BLANK.search(head, scanned)
            blank = len(head) if found is None else found.start()
            detected = _detect(head, blank, final=final or len(head) > self._limit)
            if detected is None:
                # Blank lines yield nothing in either format: counted and dropped.
                consumed = head.rfind(_NEWLINE, scanned, blank) + 1
                self._line += head.count(_NEWLINE, scanned, consumed)
                self._position += consumed
                if consumed:
                    self._line_offset = self._position
                del head[:consumed]
                self._blank = blank - consumed
                return None
            chosen = detected
        self._lines = _LINES[chosen](self._limit)
        self._started = True
        rest = bytes(head)
        head.clear()
        return rest

    def _emit(self, raw: bytes, line: int, offset: int, out: Output) -> None:
        """Hand a complete line to the format, or report it when it is too long."""
        lines = self._lines
        if raw and raw[-1] == _CR:
            raw = raw[:-1]
        if len(raw) > self._limit:
            lines.too_long(line, offset, raw[: self._prefix], out)
        else:
            lines.line(raw, line, offset, out)

    def _split(self, data: bytes, out: Output) -> None:
        """Commit every line ``data`` completes; keep its unterminated tail."""
        position = self._position
        self._position += len(data)
        start = 0
        if self._partial or self._skipping:
            end = data.find(_NEWLINE)
            if end < 0:
                self._keep(data, out)
                return
            if not self._skipping:
                if len(self._partial) + end > self._hold:
                    self._keep(data[: min(end, self._hold + 1)], out)
                else:
                    self._partial += data[:end]
                    self._emit(bytes(self._partial), self._line, self._line_offset, out)
            self._partial.clear()
            self._skipping = False
            self._line += 1
            start = end + 1
        find = data.find
        hold = self._hold
        limit = self._limit
        emit = self._emit
        line = self._line
        # The common JSONL line (starts with "{", no CR, within the limit) becomes a frame
        # right here; every other line takes the general path through _emit.
        jsonl = isinstance(self._lines, _JsonlLines)
        while (end := find(_NEWLINE, start)) >= 0:
            if (
                jsonl
                and data[start] == _OPEN_BRACE
                and data[end - 1] != _CR
                and end - start <= limit
            ):
                out.append(Frame(data[start:end], line, position + start))
            elif end - start > hold:
                emit(data[start : start + hold + 1], line, position + start, out)
            else:
                emit(data[start:end], line, position + start, out)
            line += 1
            start = end + 1
        self._line = line
        self._line_offset = position + start
        if start < len(data):
            self._keep(data[start:], out)

    def _keep(self, tail: bytes, out: Output) -> None:
        """Buffer the tail of an unfinished line, or start skipping it when too long."""
        if self._skipping:
            return
        if len(self._partial) + len(tail) > self._hold:
            head = bytes(self._partial) + tail[: self._prefix]
            self._partial.clear()
            self._skipping = True
            self._lines.too_long(self._line, self._line_offset, head[: self._prefix], out)
            return
        self._partial += tail
