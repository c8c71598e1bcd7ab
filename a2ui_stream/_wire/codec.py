"""The AG-UI codec: framed bytes to typed events and back, bad lines to diagnostics.

Owns turning payload bytes into :mod:`a2ui_stream.events` values (and values back into
compact JSON), keeping unknown types and fields, and the one boundary where a bad line
becomes a :class:`~a2ui_stream.Diagnostic`. Framing is :mod:`a2ui_stream._wire.framing`'s;
ACTIVITY content is carried undecoded (A2UI decoding belongs to :mod:`a2ui_stream.a2ui`).
Which fields an event needs (upstream's client's rule) is :mod:`a2ui_stream._wire.fields`'s;
snake_case keys and SDK objects are read through :mod:`a2ui_stream._wire.keys`.
Must not import state, conversion or shell modules; does no I/O and no logging.

How unknown fields survive without slowing the common case:

1. Every event Struct forbids unknown fields, and one module-level decoder built on the
   tagged union :data:`~a2ui_stream.events.KnownEvent` decodes a line in a single pass.
   That is the path almost every line takes.
2. Only when that decoder refuses the line (an unknown ``type``, an unknown field, or a
   genuinely bad event) is the line decoded again as ``dict[str, msgspec.Raw]``. Its
   keys are split into the class's wire fields and the rest; the known part is decoded
   by that class's own decoder (so a genuine error is reported with the same JSON path)
   and the rest is kept, byte for byte, in ``Event.extra``.
3. :func:`encode_event` writes ``extra`` back as ordinary keys after the declared
   fields. ``extra`` is a real Struct field, so equality includes it and
   ``decode_event(encode_event(x)) == x`` holds for every value the decoder produces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, get_args

import msgspec
from msgspec import UNSET

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity, internal_error
from a2ui_stream._wire.events import (
    EXTRA_WIRE_NAME,
    ActivitySnapshot,
    Event,
    KnownEvent,
    MessagesSnapshot,
    UnknownEvent,
)
from a2ui_stream._wire.fields import (
    NEEDED,
    REVIEWED,
    SCANNED,
    BadMessages,
    empty_needed,
    missing_warnings,
    snake_case_hint,
)
from a2ui_stream._wire.framing import Format, Frame, Framer
from a2ui_stream._wire.halves import ABOUT_SURROGATES, LONE_SURROGATE, Halves, split_halves
from a2ui_stream._wire.keys import camel_keys
from a2ui_stream._wire.limits import Limits
from a2ui_stream._wire.numbers import js_number, past_python_ints, too_long_for_python
from a2ui_stream._wire.spelling import wire_names
from a2ui_stream.errors import UsageError

__all__ = [
    "EVENT_TYPES",
    "Decoded",
    "EventDecoder",
    "decode_event",
    "decode_events",
    "encode_event",
    "event_from_mapping",
    "event_from_object",
    "read_event",
]


_NEWLINE = b"\n"
#: The newline as a byte value: ``10 in payload`` is a memchr, where ``b"\n" in payload``
#: first fails to read its operand as an int, at the cost of a raised TypeError.
_LF = 10
#: msgspec's reason for a required field that is absent, naming the field.
_MISSING_FIELD = re.compile(r"Object missing required field `(\w+)`")
#: Bytes of a bad line kept in its diagnostic.
_RAW_PREFIX = 200

# Free-form JSON inside events (message content, state, patches) reads numbers as
# JavaScript does, like the A2UI decoders; typed float fields are unaffected.
_FAST = msgspec.json.Decoder(KnownEvent, float_hook=js_number)
_FIELDS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_TYPE = msgspec.json.Decoder(str)
_ENCODER = msgspec.json.Encoder()

_KNOWN: tuple[type[Event], ...] = get_args(KnownEvent)
_ALL: tuple[type[Event], ...] = (*_KNOWN, UnknownEvent)
#: Event class by ``type`` tag; a tag missing here means :class:`UnknownEvent`.
_BY_TAG: dict[str, type[Event]] = {str(cls.__struct_config__.tag): cls for cls in _KNOWN}
#: Every ``type`` AG-UI 1.0 defines, as on the wire.
EVENT_TYPES: frozenset[str] = frozenset(_BY_TAG)

#: One decoder per class, for the known fields of a line that also had unknown ones.
_DECODERS: dict[type[Event], msgspec.json.Decoder[Any]] = {
    cls: msgspec.json.Decoder(cls, float_hook=js_number) for cls in _ALL
}

#: Wire names each class declares (``type`` included); every other key is extra.
_WIRE_NAMES: dict[type[Event], frozenset[str]] = {
    cls: frozenset(wire_names(cls)) - {EXTRA_WIRE_NAME} | {"type"} for cls in _ALL
}


class Decoded(msgspec.Struct, frozen=True):
    """An event decoded from the stream, with where it started.

    Attributes:
        event: the event.
        line: 1-based line number of its first line.
        offset: byte offset of that line from the start of the stream.
    """

    event: Event
    line: int
    offset: int


# --------------------------------------------------------------------------- decoding


def _from_fields(
    fields: dict[str, msgspec.Raw], ignored: list[tuple[str, str]] | None = None
) -> Event:
    """Decode an event from its top-level fields, keeping the ones its class lacks.

    A field the event can do without that does not decode is left out and, when
    ``ignored`` is given, recorded there as ``(wire name, reason)``.

    Raises:
        msgspec.ValidationError: the fields do not make a valid event.
    """
    raw_type = fields.get("type")
    if raw_type is None:
        raise msgspec.ValidationError("Object missing required field `type`")
    try:
        tag = _TYPE.decode(raw_type)
    except msgspec.ValidationError as error:
        raise msgspec.ValidationError(f"{error} - at `$.type`") from None
    cls = _BY_TAG.get(tag, UnknownEvent)
    names = _WIRE_NAMES[cls]
    needed = NEEDED.get(tag, frozenset())
    known = {key: value for key, value in fields.items() if key in names}
    history = BadMessages() if cls is MessagesSnapshot else None
    while True:
        try:
            event: Event = _DECODERS[cls].decode(_ENCODER.encode(known))
            break
        except msgspec.ValidationError as error:
            reason, path = _split_reason(error)
            field = _top_field(path)
            if field is None or field == "type" or field in needed or field not in known:
                raise
            dropped = None if history is None else history.drop(known, path)
            if dropped is None:
                del known[field]
            if ignored is not None:
                ignored.append((dropped or field, reason))
    extra_keys = [key for key in fields if key not in names]
    if extra_keys:
        extra = {key: fields[key] for key in extra_keys}
        event = msgspec.structs.replace(event, extra=extra)
    return event


def _top_field(path: str | None) -> str | None:
    """The top-level key a JSON path like ``$.threadId`` or ``$.input.x`` starts with."""
    if path is None or not path.startswith("$."):
        return None
    rest = path[2:]
    for index, char in enumerate(rest):
        if char in ".[":
            return rest[:index]
    return rest


def _decode_trusted(data: bytes) -> Event:
    """Decode in one pass when possible, else keep the fields the class lacks."""
    try:
        event: Event = _FAST.decode(data)
    except msgspec.ValidationError:
        return _from_fields(_FIELDS.decode(data))
    if event.extra is not UNSET:
        # The line used the reserved key of ``extra`` itself: treat it as unknown.
        return _from_fields(_FIELDS.decode(data))
    return event


def _single_line(event: Event, data: bytes) -> Event:
    """Return ``event`` with no newline left inside its undecoded parts.

    Only SSE data split over several lines puts a newline in a payload. JSON forbids a
    raw newline inside a string, so in a payload that decoded, every newline is
    whitespace between tokens: a space in its place gives the same value, and keeps
    ``content`` and ``extra`` bytes (written back verbatim) on one line, as JSONL needs.
    """
    if _LF in data:
        return _decode_trusted(data.replace(_NEWLINE, b" "))
    return event


def decode_event(data: bytes) -> Event:
    """Decode one event from JSON bytes, for trusted input.

    Unknown ``type`` values give an :class:`~a2ui_stream.events.UnknownEvent`; unknown
    fields are kept in ``extra``. Unlike :class:`EventDecoder` this does not check that
    undecoded ``content`` bytes are valid UTF-8, and it raises instead of reporting.

    Args:
        data: one JSON object.

    Returns:
        The event.

    Raises:
        msgspec.ValidationError: the JSON is not an object or not a valid event.
        msgspec.DecodeError: the bytes are not JSON.
    """
    return _single_line(_decode_trusted(data), data)


def _split_reason(error: msgspec.DecodeError) -> tuple[str, str | None]:
    """Split msgspec's ``"reason - at `$.path`"`` into the reason and the path.

    A validation error without a location concerns the whole object (``"$"``); a
    syntax error has no JSON path at all (``None``).
    """
    reason, sep, path = str(error).rpartition(" - at `")
    if sep:
        return reason, path.removesuffix("`")
    return str(error), "$" if isinstance(error, msgspec.ValidationError) else None


def _not_json(error: msgspec.DecodeError, payload: bytes) -> tuple[str, str | None]:
    """What msgspec found wrong with a line, said plainly where its words mislead."""
    reason, path = _split_reason(error)
    lone = LONE_SURROGATE.search(payload) if reason.startswith(ABOUT_SURROGATES) else None
    if lone is not None:
        escape = lone.group(1).decode()
        reason = (
            f"it holds a lone UTF-16 surrogate escape ({escape}), half of a pair that is no "
            "Unicode character on its own; JavaScript reads it, this decoder cannot"
        )
    return reason, path


def _bad(
    code: Code,
    message: str,
    payload: bytes,
    *,
    line: int | None,
    offset: int | None,
    path: str | None,
) -> Diagnostic:
    return Diagnostic(
        code=code,
        message=message,
        severity=Severity.ERROR,
        line=line,
        offset=offset,
        path=path,
        raw=payload[:_RAW_PREFIX],
    )


def _decode_payload(
    payload: bytes, line: int | None, offset: int | None, found: list[Diagnostic]
) -> Event | Diagnostic:
    """Decode one payload; every way it can be bad becomes a diagnostic.

    Warnings about an event that is kept (a field missing or ignored) go to ``found``.
    """
    try:
        result = _decode_checked(payload, line, offset, found)
    except Exception as error:  # noqa: BLE001 - every line ends here: a bug costs only that line
        if not isinstance(error, RecursionError):
            return internal_error(error, line=line, offset=offset, raw=payload[:_RAW_PREFIX])
        message = "line is not valid JSON: nesting is too deep"  # msgspec's bound: the stack
        return _bad(Code.JSON_TOO_DEEP, message, payload, line=line, offset=offset, path=None)
    return result


def _review(  # noqa: PLR0917 - the decoder's hot loop calls it positionally
    event: Event,
    payload: bytes,
    line: int | None,
    offset: int | None,
    found: list[Diagnostic],
    ignored: frozenset[str] = frozenset(),
) -> Event | Diagnostic:
    """Drop an event whose needed field is empty; warn of expected fields it lacks."""
    wire = empty_needed(event)
    if wire is not None:
        tag = type(event).__struct_config__.tag
        message = (
            f"not a valid AG-UI event: `{wire}` is empty "
            f"(upstream's client drops {tag} without one)"
        )
        return _bad(
            Code.EVENT_INVALID, message, payload, line=line, offset=offset, path=f"$.{wire}"
        )
    found.extend(missing_warnings(event, line, offset, ignored))
    return event


def _decode_checked(
    payload: bytes, line: int | None, offset: int | None, found: list[Diagnostic]
) -> Event | Diagnostic:
    if not payload.isascii():
        try:
            payload.decode()
        except UnicodeDecodeError as error:
            message = f"line is not valid UTF-8 (bad byte at position {error.start})"
            return _bad(
                Code.JSON_INVALID_UTF8, message, payload, line=line, offset=offset, path=None
            )
    try:
        event: Event = _FAST.decode(payload)
    except msgspec.ValidationError as error:
        # JSON.parse reads an integer too long for Python as an infinity: so do we.
        rewritten = past_python_ints(payload) if too_long_for_python(error) else payload
        if rewritten != payload:
            return _decode_checked(rewritten, line, offset, found)
    except msgspec.DecodeError as error:
        reason, path = _not_json(error, payload)
        return _bad(
            Code.JSON_INVALID,
            f"line is not valid JSON: {reason}",
            payload,
            line=line,
            offset=offset,
            path=path,
        )
    else:
        if event.extra is UNSET:
            event = _single_line(event, payload)
            if type(event) in REVIEWED:
                return _review(event, payload, line, offset, found)
            return event
    try:
        fields = _FIELDS.decode(payload)
    except msgspec.ValidationError as error:
        reason, path = _split_reason(error)
        message = f"line is not a JSON object: {reason}"
        return _bad(Code.JSON_NOT_OBJECT, message, payload, line=line, offset=offset, path=path)
    except msgspec.DecodeError as error:
        # The tagged decoder stops at an unknown ``type`` before reading the rest of
        # the line, so malformed JSON after the tag is only seen here.
        reason, path = _not_json(error, payload)
        message = f"line is not valid JSON: {reason}"
        return _bad(Code.JSON_INVALID, message, payload, line=line, offset=offset, path=path)
    ignored: list[tuple[str, str]] = []
    try:
        event = _from_fields(fields, ignored)
    except msgspec.ValidationError as error:
        reason, path = _split_reason(error)
        missing = _MISSING_FIELD.fullmatch(reason)
        if missing is not None:
            reason += snake_case_hint(missing[1], fields)
        message = f"not a valid AG-UI event: {reason}"
        return _bad(Code.EVENT_INVALID, message, payload, line=line, offset=offset, path=path)
    for wire, reason in ignored:
        found.append(
            Diagnostic(
                code=Code.EVENT_FIELD_IGNORED,
                message=(
                    f"`{wire}` is not valid ({reason}); "
                    "the event is kept without it, as upstream's client keeps it"
                ),
                severity=Severity.WARNING,
                line=line,
                offset=offset,
                path=f"$.{wire}",
            )
        )
    event = _single_line(event, payload)
    if type(event) in REVIEWED:
        names = frozenset(wire for wire, _ in ignored)
        return _review(event, payload, line, offset, found, names)
    return event


class EventDecoder:
    """Turn a byte stream of AG-UI events (JSONL or SSE) into events and diagnostics.

    The sans-I/O object the pipeline drives: feed it chunks cut anywhere, then close
    it. Each call returns what that input completed, in stream order; the output never
    depends on where the chunks were cut. A bad line becomes a
    :class:`~a2ui_stream.Diagnostic` (severity ERROR, with line, byte offset, JSON path,
    reason and a prefix of the raw bytes) and decoding goes on with the next line; in
    strict mode the first diagnostic is the last item ever returned.
    """

    def __init__(
        self,
        *,
        format: Format = "auto",  # noqa: A002 - the public option's name; no builtin used here
        limits: Limits = Limits(),  # noqa: B008 - Limits is a frozen value, safe to share
        strict: bool = False,
    ) -> None:
        """Set up a decoder for one stream.

        Args:
            format: ``"jsonl"``, ``"sse"``, or ``"auto"`` to choose from the first bytes.
            limits: bounds; ``max_line_bytes`` caps one line or SSE event.
            strict: stop at the first diagnostic instead of skipping the bad line.

        Raises:
            UsageError: ``format`` is unknown or ``limits.max_line_bytes`` is below 1.
        """
        self._framer = Framer(format=format, max_line_bytes=limits.max_line_bytes)
        self._halves = Halves()
        self._strict = strict
        self._stopped = False
        self._closed = False

    @property
    def stopped(self) -> bool:
        """Whether strict mode met a diagnostic; nothing more will be returned."""
        return self._stopped

    @property
    def format(self) -> Literal["jsonl", "sse"] | None:
        """The framing in use, or ``None`` while ``"auto"`` has not decided yet."""
        return self._framer.format

    def feed(self, data: bytes) -> list[Decoded | Diagnostic]:
        """Take the next chunk of the stream.

        Args:
            data: any number of bytes, cut anywhere.

        Returns:
            The events and diagnostics this chunk completed, in stream order.

        Raises:
            UsageError: the decoder was closed.
        """
        if self._closed:
            raise UsageError("feed() after close()")
        if self._stopped:
            return []
        return self.decode_frames(self._framer.feed(data))

    def close(self) -> list[Decoded | Diagnostic]:
        """End the stream, flushing a final unterminated line or SSE event.

        Returns:
            The events and diagnostics the end of input completed; ``[]`` when called
            again or after strict mode stopped.
        """
        if self._closed:
            return []
        self._closed = True
        if self._stopped:
            return []
        return self.decode_frames(self._framer.close())

    def decode_frames(self, items: list[Frame | Diagnostic]) -> list[Decoded | Diagnostic]:
        """Decode payloads framed elsewhere, exactly as :meth:`feed` decodes its own.

        For events cut by someone else: an archive's envelope, a line an engine read.

        Args:
            items: frames, and framing diagnostics (passed through), in stream order.

        Returns:
            The events and diagnostics, in order; nothing once strict mode stopped.
        """
        if self._stopped:
            return []
        out: list[Decoded | Diagnostic] = []
        append = out.append
        fast = _FAST.decode
        halves = self._halves
        for item in items:
            if type(item) is Frame:
                payload = item.payload
                # The common case inline: one line, a 1.0 event, no extras. msgspec
                # checks UTF-8 in every string it decodes, so only the undecoded
                # content of a non-ASCII activity snapshot needs its own check.
                # Everything else goes through _decode_payload.
                found: list[Diagnostic] = []
                result: Event | Diagnostic | None = None
                if _LF not in payload:
                    try:
                        event: Event = fast(payload)
                    except Exception:  # noqa: BLE001, S110 - _decode_payload reports it
                        pass
                    else:
                        if event.extra is UNSET and (
                            type(event) is not ActivitySnapshot
                            or payload.isascii()
                            or _is_utf8(event.content)
                        ):
                            # A field the event needs empty, or one AG-UI requires
                            # missing, is rare: only a falsy one (UNSET, "", but also 0
                            # or []) sends the event to _review for a closer look.
                            if halves:  # a half waits: this event may leave it alone
                                halves.settle(event, out)
                            scan = SCANNED.get(type(event))
                            if scan is None or all(scan(event)):
                                append(Decoded(event, item.line, item.offset))
                                continue
                            result = _review(event, payload, item.line, item.offset, found)
                if result is None:
                    result = _decode_payload(payload, item.line, item.offset, found)
                    if type(result) is Diagnostic and result.code is Code.JSON_INVALID:
                        if self._joined(payload, item, found, out):
                            continue
                    elif halves and isinstance(result, Event):
                        halves.settle(result, out)
                if isinstance(result, Event):
                    append(Decoded(result, item.line, item.offset))
                    out.extend(found)
                    continue
                append(result)
            else:
                append(item)
            if self._strict:
                self._stopped = True
                break
        return out

    def _joined(
        self, payload: bytes, item: Frame, found: list[Diagnostic], out: list[Decoded | Diagnostic]
    ) -> bool:
        """Read a line refused for halves of a surrogate pair at its delta's ends.

        Returns:
            Whether it was such a line: its event (or its drop, for a bad event) and
            ``found`` are in ``out``; one whose text was the half alone gives nothing,
            the half carried to its stream's next delta. ``False`` leaves the line's
            refusal to the caller.
        """
        lone = list(LONE_SURROGATE.finditer(payload))
        split = split_halves(payload, lone, _FAST.decode) if lone else None
        if split is None:
            return False
        event: Event | Diagnostic = self._halves.joined(split, item.line, item.offset, found)
        if type(event) in REVIEWED:
            if empty_needed(event) is not None:  # type: ignore[arg-type]  # an Event here
                out.extend(found)
                return True
            event = _review(event, payload, item.line, item.offset, found)  # type: ignore[arg-type]
        out.append(Decoded(event, item.line, item.offset) if isinstance(event, Event) else event)
        out.extend(found)
        return True


def _is_utf8(raw: msgspec.Raw) -> bool:
    try:
        bytes(raw).decode()
    except UnicodeDecodeError:
        return False
    return True


def decode_events(
    data: bytes,
    *,
    format: Format = "auto",  # noqa: A002 - the public option's name; no builtin used here
    limits: Limits = Limits(),  # noqa: B008 - Limits is a frozen value, safe to share
    strict: bool = False,
) -> list[Decoded | Diagnostic]:
    """Decode a whole stream held in memory.

    Args:
        data: the complete stream.
        format: as for :class:`EventDecoder`.
        limits: as for :class:`EventDecoder`.
        strict: as for :class:`EventDecoder`.

    Returns:
        Every event and diagnostic, as feeding ``data`` and closing would give.

    Raises:
        UsageError: ``format`` or ``limits`` is invalid.
    """
    decoder = EventDecoder(format=format, limits=limits, strict=strict)
    return decoder.feed(data) + decoder.close()


def event_from_mapping(obj: Mapping[str, Any]) -> Event | Diagnostic:
    """Make an event from a plain mapping of wire keys.

    Keys may be camelCase (the wire) or snake_case (what the official Python SDK's
    ``model_dump()`` gives by default); see :func:`read_event` for the warnings this
    leaves out.

    Args:
        obj: the event as JSON-like Python values, ``{"type": "RUN_STARTED", ...}``.

    Returns:
        The event, or an ``event.invalid`` (or ``json.not_object``) diagnostic saying
        why it is not one.
    """
    event, diagnostics = read_event(obj)
    if event is None:
        return diagnostics[0]
    return event


def event_from_object(obj: object) -> Event | Diagnostic:
    """Make an event from an object of another AG-UI library, duck-typed.

    Anything with ``model_dump`` (the ``ag_ui.core`` pydantic events, for instance) is
    dumped with ``mode="json", by_alias=True, exclude_none=True``; a mapping is taken as
    :func:`event_from_mapping` takes it; an :class:`~a2ui_stream.events.Event` is
    returned as is.

    Args:
        obj: the foreign event.

    Returns:
        The event, or an ``event.invalid`` diagnostic saying why it is not one.
    """
    event, diagnostics = read_event(obj)
    if event is None:
        return diagnostics[0]
    return event


def read_event(obj: object) -> tuple[Event | None, tuple[Diagnostic, ...]]:
    """Make an event from a mapping, an SDK object or an event, with what was wrong.

    Args:
        obj: our :class:`~a2ui_stream.events.Event` (returned as is), a mapping of
            camelCase or snake_case wire keys, or an object with ``model_dump`` (the
            ``ag_ui.core`` pydantic events, dumped as JSON with their wire aliases).

    Returns:
        The event, or ``None`` when it is dropped, and the diagnostics: the reason it
        was dropped first, or warnings about fields it was kept without.
    """
    if isinstance(obj, Event):
        return obj, ()
    if not isinstance(obj, Mapping):
        dump = getattr(obj, "model_dump", None)
        if callable(dump):
            obj = dump(mode="json", by_alias=True, exclude_none=True)
        if not isinstance(obj, Mapping):
            message = (
                f"not a valid AG-UI event: {type(obj).__name__} "
                "is not a mapping and has no model_dump"
            )
            return None, (
                Diagnostic(code=Code.EVENT_INVALID, message=message, severity=Severity.ERROR),
            )
    try:
        payload = _ENCODER.encode(camel_keys(obj))
    except (TypeError, ValueError, OverflowError, RecursionError) as error:  # or a cycle
        message = f"not a valid AG-UI event: cannot be encoded as JSON ({error})"
        return None, (
            Diagnostic(code=Code.EVENT_INVALID, message=message, severity=Severity.ERROR),
        )
    found: list[Diagnostic] = []
    result = _decode_payload(payload, None, None, found)
    if isinstance(result, Diagnostic):
        return None, (result,)
    return result, tuple(found)


# --------------------------------------------------------------------------- encoding


def encode_event(event: Event) -> bytes:
    """Encode an event as compact JSON, unknown fields included.

    Args:
        event: any event, an :class:`~a2ui_stream.events.UnknownEvent` included.

    Returns:
        One JSON object without a trailing newline; ``extra`` keys come after the
        declared fields.

    Raises:
        TypeError: ``event`` is not one of our event Structs, or a field holds a value
            that cannot be encoded as JSON.
    """
    if not isinstance(event, msgspec.Struct) or not hasattr(event, "extra"):
        message = (
            f"encode_event takes an event Struct (a2ui_stream.events), not {type(event).__name__}"
        )
        raise TypeError(message)
    extra = event.extra
    if extra is UNSET:
        return _ENCODER.encode(event)
    body = _ENCODER.encode(msgspec.structs.replace(event, extra=UNSET))
    if not extra:
        return body
    return body[:-1] + b"," + _ENCODER.encode(extra)[1:]
