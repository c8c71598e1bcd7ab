"""The scan of a render call's argument text, linear in its length.

Owns finding, in JSON text that arrives a few bytes at a time, what the middleware's
partial-JSON helpers look for (``shared/reference/agui-a2ui-middleware.md`` section
2.7b): the first string value of a top-level key (``surfaceId``, ``catalogId``), where
the first top-level ``components`` array and ``data`` object close, and where each
item of an array member of that ``data`` object closes. Each delta is scanned once,
from where the last one stopped, skipping to the next structural byte with a regular
expression, so the whole call costs one pass over its text. It checks structure only
as far as it follows it; the values are parsed by msgspec, once each, when their text
is complete, and what is not JSON is found then.

Why not a partial JSON parser (``jiter``'s partial mode, say): it parses the text from
its start on every call, and a 1 MB argument streamed in 10-byte deltas would be
parsed 100,000 times.

Must not import: other package modules beyond the wire layer. Pure: a :class:`Scan`
is a value; :func:`advance` returns a new one.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import immutables
import msgspec

from a2ui_stream._wire.numbers import JsDecoder

__all__ = ["Scan", "Tail", "advance", "watch"]

_JSON = JsDecoder()
#: The top-level keys whose first string value is read.
_STRINGS = frozenset({b"surfaceId", b"catalogId"})

_OUTSIDE = re.compile(rb'[{}\[\]",:]|[^\s{}\[\]",:]+')
_INSIDE = re.compile(rb'["\\]')
_OPEN = frozenset(b"{[")
_CLOSE = frozenset(b"}]")
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_CLOSE_BRACE, _CLOSE_BRACKET = ord("}"), ord("]")
_BRACE = ord("{")
_BRACKET = ord("[")
#: What a scan has found before it finds anything: its findings are persistent maps,
#: immutable values whose updates (one per first occurrence, or per item closed) cost
#: a trie step.
_NOTHING: immutables.Map[Any, Any] = immutables.Map()

#: What a frame is to us: the root object, the top-level ``components`` array, the
#: first top-level ``data`` object, an array member of that object, or anything else.
_ROOT, _COMPONENTS, _DATA, _ITEMS, _OTHER = range(5)
#: Frames kept; anything nested deeper is only counted.
_FRAMES = 3


class _Frame(NamedTuple):
    kind: int  # ``{`` or ``[``
    role: int
    key: bytes | None  # objects: the member being read; items arrays: their key
    expect: str  # objects: key, colon, value, after; arrays: value, after


class _Tape:
    """The append-only text of one call, and the item ends found in it.

    Shared between the successive states of a call: a state sees only its own
    length of it, and a state fed again after a later one was made copies first,
    so every state keeps meaning what it meant (states are values). It is the one
    buffer in the state that grows in place, as the event log does: what a state
    sees of it never changes, and a frozen copy per delta would make a call cost
    the square of its length.
    """

    __slots__ = ("ends", "text", "version")

    def __init__(self, text: bytes = b"", ends: dict[bytes, list[int]] | None = None) -> None:
        self.text = bytearray(text)
        self.ends: dict[bytes, list[int]] = ends if ends is not None else {}
        self.version = 0  # deltas appended: a state that saw fewer must copy

    def __eq__(self, other: object) -> bool:
        # The whole text and ends, not only what a state sees: two states that see the
        # same may then compare unequal, never the other way round.
        return isinstance(other, _Tape) and self.text == other.text and self.ends == other.ends

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"_Tape({len(self.text)} bytes)"


class Scan(msgspec.Struct, frozen=True, kw_only=True):
    """Where the scan of a call's arguments stands, and what it found so far.

    Offsets are byte offsets into the UTF-8 text. Only first occurrences count, as
    the middleware's helpers read them.
    """

    tape: _Tape = msgspec.field(default_factory=_Tape)
    version: int = 0
    size: int = 0
    counts: immutables.Map[bytes, int] = _NOTHING
    readable: immutables.Map[bytes, int] = _NOTHING
    items_closed: immutables.Map[bytes, int] = _NOTHING
    pending: tuple[bytes, int, int] | None = None
    deep_kind: int = 0
    frames: tuple[_Frame, ...] = ()
    deep: int = 0
    in_string: bool = False
    escape: bool = False
    string_start: int = 0
    primitive: bool = False
    done: bool = False  # the root closed, or the text is not an object
    starts: immutables.Map[bytes, tuple[int, int]] = _NOTHING
    strings: immutables.Map[bytes, str] = _NOTHING
    components_end: int | None = None
    data_end: int | None = None
    data_starts: immutables.Map[bytes, tuple[int, int]] = _NOTHING

    def text(self, start: int, end: int) -> bytes:
        """The argument text between two offsets."""
        return bytes(self.tape.text[start:end])

    def items(self, key: bytes) -> tuple[int, int] | None:
        """Start of the first ``data.<key>`` array and how many of its items read.

        As the middleware's helper reads them: the items up to the last object that
        closed, and none while the last value that closed is not an object or array
        (its parser then cuts the text where it no longer parses).
        """
        start = self.data_starts.get(key)
        count = self.readable.get(key, 0)
        if start is None or start[1] != _BRACKET or count <= 0:
            return None
        return start[0], count

    def item_end(self, key: bytes, count: int) -> int:
        """Offset just past the ``count``-th item of ``data.<key>``."""
        return self.tape.ends[key][count - 1]


class _Reading:
    """One delta's scan, on local variables; :meth:`result` freezes it again."""

    def __init__(self, scan: Scan) -> None:
        tape = scan.tape
        if tape.version != scan.version:
            # An older state fed again: copy what it saw, leave the later one alone.
            tape = _Tape(
                bytes(tape.text[: scan.size]),
                {k: tape.ends[k][: scan.counts.get(k, 0)] for k in tape.ends},
            )
            tape.version = scan.version
        self.scan = scan
        self.tape = tape
        self.frames = list(scan.frames)
        self.deep = scan.deep
        self.in_string = scan.in_string
        self.escape = scan.escape
        self.string_start = scan.string_start
        self.primitive = scan.primitive
        self.done = scan.done
        self.starts = scan.starts
        self.strings = scan.strings
        self.components_end = scan.components_end
        self.data_end = scan.data_end
        self.data_starts = scan.data_starts
        self.counts = scan.counts
        self.readable = scan.readable
        self.items_closed = scan.items_closed
        self.pending = scan.pending
        self.deep_kind = scan.deep_kind

    def result(self) -> Scan:
        self.tape.version += 1
        return Scan(
            tape=self.tape,
            version=self.tape.version,
            size=len(self.tape.text),
            counts=self.counts,
            readable=self.readable,
            items_closed=self.items_closed,
            pending=self.pending,
            deep_kind=self.deep_kind,
            frames=tuple(self.frames),
            deep=self.deep,
            in_string=self.in_string,
            escape=self.escape,
            string_start=self.string_start,
            primitive=self.primitive,
            done=self.done,
            starts=self.starts,
            strings=self.strings,
            components_end=self.components_end,
            data_end=self.data_end,
            data_starts=self.data_starts,
        )

    # -- one delta ----------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        base = len(self.tape.text)
        self.tape.text += data
        if self.done:
            return
        pos, end = 0, len(data)
        if self.primitive and (not data or data[:1].isspace() or data[0] in b'{}[]",:'):
            self._primitive_closed(base)
        while pos < end and not self.done:
            if self.in_string:
                if self.escape:
                    self.escape = False
                    pos += 1
                    continue
                found = _INSIDE.search(data, pos)
                if found is None:
                    return
                pos = found.end()
                if data[found.start()] == _QUOTE:
                    self.in_string = False
                    self._string_closed(base + pos)
                elif pos < end:
                    pos += 1
                else:
                    self.escape = True
                continue
            token = _OUTSIDE.search(data, pos)
            if token is None:
                return
            start, pos = token.start(), token.end()
            first = data[start]
            if first == _QUOTE:
                self.in_string, self.string_start = True, base + start
            elif first in _OPEN:
                self._open(first, base + start)
            elif first in _CLOSE:
                self._close(base + pos)
            elif first == _COLON:
                self._colon()
            elif first == _COMMA:
                self._comma()
            else:
                self._primitive_start(base + start)
                if pos < end:
                    self._primitive_closed(base + pos)

    # -- structure ----------------------------------------------------------------------

    def _value_start(self, offset: int, first: int) -> int:
        """Note where a value begins in the top frame; return the role its frame gets."""
        if not self.frames:
            return _ROOT if first == _BRACE else -1
        top = self.frames[-1]
        if top.kind == _BRACE:
            self.frames[-1] = top._replace(expect="after")
            key = top.key or b""
            if top.role == _ROOT and key not in self.starts:
                self.starts = self.starts.set(key, (offset, first))
                if key == b"components" and first == _BRACKET:
                    return _COMPONENTS
                if key == b"data" and first == _BRACE:
                    return _DATA
            elif top.role == _DATA and key not in self.data_starts:
                self.data_starts = self.data_starts.set(key, (offset, first))
                if first == _BRACKET:
                    return _ITEMS
        else:
            self.frames[-1] = top._replace(expect="after")
        return _OTHER

    def _open(self, first: int, offset: int) -> None:
        if self.deep or len(self.frames) >= _FRAMES:
            if self.frames and self.deep == 0:
                self._value_start(offset, first)
                self.deep_kind = first
            self.deep += 1
            return
        role = self._value_start(offset, first)
        if role < 0:
            self.done = True  # not an object: nothing here draws
            return
        key = self.frames[-1].key if role == _ITEMS else None
        expect = "key" if first == _BRACE else "value"
        self.frames.append(_Frame(first, role, key, expect))

    def _close(self, end: int) -> None:
        self._commit()
        if self.deep:
            self.deep -= 1
            if self.deep == 0:
                self._item_closed(end, self.deep_kind)
            return
        if not self.frames:
            return
        frame = self.frames.pop()
        if frame.role == _COMPONENTS:
            self.components_end = end
        elif frame.role == _DATA:
            self.data_end = end
        elif frame.role == _ITEMS and frame.key is not None:
            self.items_closed = self.items_closed.set(frame.key, end)
        if not self.frames:
            self.done = True
            return
        self._item_closed(end, frame.kind)

    def _item_closed(self, end: int, kind: int) -> None:
        """A value (``kind``: its first byte, 0 for a primitive) closed in the top frame."""
        top = self.frames[-1]
        self.frames[-1] = top._replace(expect="after")
        if top.role == _ITEMS and top.key is not None:
            key = top.key
            self.tape.ends.setdefault(key, []).append(end)
            count = self.counts.get(key, 0) + 1
            self.counts = self.counts.set(key, count)
            if kind != _BRACKET:
                self.readable = self.readable.set(key, count if kind == _BRACE else -1)

    def _colon(self) -> None:
        if self.frames and not self.deep and self.frames[-1].expect == "colon":
            self.frames[-1] = self.frames[-1]._replace(expect="value")

    def _comma(self) -> None:
        self._commit()
        if self.frames and not self.deep:
            top = self.frames[-1]
            self.frames[-1] = top._replace(expect="key" if top.kind == _BRACE else "value")

    def _string_closed(self, end: int) -> None:
        if self.deep or not self.frames:
            return
        top = self.frames[-1]
        if top.kind == _BRACE and top.expect == "key":
            quoted = bytes(self.tape.text[self.string_start : end])
            # The middleware reads top-level names decoded, and data names as written.
            key = _key(quoted) if top.role == _ROOT else quoted[1:-1]
            self.frames[-1] = top._replace(key=key, expect="colon")
            return
        self._value_start(self.string_start, _QUOTE)
        if top.role == _ROOT and top.key in _STRINGS and top.key not in self.strings:
            # The middleware's parser reports the value only once the `,` or `}` after
            # it arrives: so does this, or a paint would come one delta early.
            self.pending = (top.key, self.string_start, end)
        self._item_closed(end, 0)

    def _commit(self) -> None:
        """Take the string value waiting for the ``,`` or ``}`` that ends it."""
        if self.pending is None:
            return
        key, start, end = self.pending
        self.pending = None
        try:
            value = _JSON.decode(self.tape.text[start:end])
        except msgspec.DecodeError:
            return
        if isinstance(value, str) and key not in self.strings:
            self.strings = self.strings.set(key, value)

    def _primitive_start(self, offset: int) -> None:
        if not self.primitive and not self.deep and self.frames:
            self.primitive = True
            self._value_start(offset, self.tape.text[offset])

    def _primitive_closed(self, end: int) -> None:
        if self.primitive:
            self.primitive = False
            self._item_closed(end, 0)


def _key(quoted: bytes) -> bytes:
    """A member name as UTF-8 with its escapes read, as the middleware reads top-level names.

    Most names have no backslash and are taken as they are, without decoding.
    """
    if b"\\" not in quoted:
        return quoted[1:-1]
    try:
        name = _JSON.decode(quoted)
    except msgspec.DecodeError:
        return quoted[1:-1]
    return name.encode("utf-8", "surrogatepass") if isinstance(name, str) else quoted[1:-1]


def advance(state: Scan, data: bytes) -> Scan:
    """Scan one more delta of UTF-8 text; ``state`` is left as it was."""
    reading = _Reading(state)
    reading.feed(data)
    return reading.result()


class Tail(msgspec.Struct, frozen=True, kw_only=True):
    """The middleware's reading of the text after a closed ``data.<key>`` array.

    Its helper parses from the array's ``[`` to the end of all the text, counting
    objects and arrays opened after the array closed (a closer with no opener is
    skipped); an object closing inside such an array, or a plain value directly in
    one, moves its "last complete item" past the array, and from then on the items
    no longer parse: none of them is painted again before ``data`` closes.
    """

    position: int
    objects: int = 0
    arrays: int = 0
    in_string: bool = False
    escape: bool = False
    primitive: bool = False
    broken: bool = False


def watch(tail: Tail, scan: Scan) -> Tail:
    """Read the text ``scan`` holds past where ``tail`` stopped; ``tail`` is left as it was."""
    if tail.broken or tail.position >= scan.size:
        return tail
    data = bytes(scan.tape.text[tail.position : scan.size])
    objects, arrays = tail.objects, tail.arrays
    in_string, escape, primitive = tail.in_string, tail.escape, tail.primitive
    broken = False
    pos, end = 0, len(data)
    if primitive and (data[:1].isspace() or data[0] in b'{}[]",:'):
        primitive = False
        broken = objects == 0 and arrays == 1
    while pos < end and not broken:
        if in_string:
            if escape:
                escape, pos = False, pos + 1
                continue
            found = _INSIDE.search(data, pos)
            if found is None:
                break
            pos = found.end()
            if data[found.start()] == _QUOTE:
                in_string = False
                # A string directly in an array is a value the helper counts.
                broken = objects == 0 and arrays == 1 and _is_value(data, pos)
            elif pos < end:
                pos += 1
            else:
                escape = True
            continue
        token = _OUTSIDE.search(data, pos)
        if token is None:
            break
        start, pos = token.start(), token.end()
        first = data[start]
        if first == _QUOTE:
            in_string = True
        elif first == _BRACE:
            objects += 1
        elif first == _BRACKET:
            arrays += 1
        elif first == _CLOSE_BRACE:
            broken = objects == 1 and arrays == 1
            objects = max(objects - 1, 0)
        elif first == _CLOSE_BRACKET:
            arrays = max(arrays - 1, 0)
        elif first not in (_COLON, _COMMA):
            if pos < end:
                broken = objects == 0 and arrays == 1
            else:
                primitive = True
    return Tail(
        position=scan.size,
        objects=objects,
        arrays=arrays,
        in_string=in_string,
        escape=escape,
        primitive=primitive,
        broken=broken,
    )


def _is_value(data: bytes, pos: int) -> bool:
    """Whether the string that ended before ``pos`` is a value (not followed by ``:``)."""
    rest = data[pos:].lstrip()
    return not rest.startswith(b":")
