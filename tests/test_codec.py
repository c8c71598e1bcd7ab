"""The event codec: streams of bytes to events and diagnostics, and events back to bytes."""

from __future__ import annotations

import math
import random
from typing import Any

import msgspec
import pytest

from a2ui_stream import Diagnostic, Limits, Processor, Severity, UsageError
from a2ui_stream import events as ev
from a2ui_stream._wire.codec import (
    Decoded,
    EventDecoder,
    decode_event,
    decode_events,
    encode_event,
    event_from_mapping,
    event_from_object,
)
from a2ui_stream._wire.codes import Code

_ENCODE = msgspec.json.Encoder().encode


def feed_in_chunks(data: bytes, sizes: random.Random | None = None, **options: Any) -> list[Any]:
    decoder = EventDecoder(**options)
    out: list[Any] = []
    start = 0
    while start < len(data):
        size = sizes.randint(1, 4096) if sizes else len(data)
        out += decoder.feed(data[start : start + size])
        start += size
    return out + decoder.close()


def good_event(rng: random.Random, index: int) -> dict[str, Any]:
    kind = rng.randrange(5)
    if kind == 0:
        return {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"m{index}", "delta": "héllo ✓"}
    if kind == 1:
        return {"type": "TOOL_CALL_ARGS", "toolCallId": f"c{index}", "delta": '{"a":'}
    if kind == 2:
        return {"type": "RUN_STARTED", "threadId": "t", "runId": f"r{index}", "timestamp": index}
    if kind == 3:
        return {"type": "FUTURE_EVENT", "n": index}
    return {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": f"a2ui-surface-{index}",
        "activityType": "a2ui-surface",
        "content": {"a2ui_operations": [{"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}]},
    }


#: Ways a line goes bad, each with the diagnostic code it must produce.
CORRUPTIONS: list[tuple[str, bytes]] = [
    (Code.JSON_INVALID, b'{"type":"RUN_STARTED","threadId":'),
    (Code.JSON_INVALID, b"garbage"),
    (Code.JSON_NOT_OBJECT, b'["RUN_STARTED"]'),
    (Code.JSON_INVALID_UTF8, b'{"type":"TEXT_MESSAGE_END","messageId":"\xff"}'),
    (Code.EVENT_INVALID, b'{"type":"TOOL_CALL_END","toolCallId":5}'),
    (
        Code.EVENT_INVALID,
        b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":[]}',
    ),
    (Code.EVENT_INVALID, b'{"messageId":"m"}'),
]


def corrupted_stream(lines: int, seed: int) -> tuple[bytes, dict[int, str], dict[int, bytes]]:
    """A seeded JSONL stream with 1% bad lines; returns bytes, bad line codes, good lines."""
    rng = random.Random(seed)
    bad_lines = set(rng.sample(range(1, lines + 1), lines // 100))
    parts: list[bytes] = []
    bad: dict[int, str] = {}
    good: dict[int, bytes] = {}
    for number in range(1, lines + 1):
        if number in bad_lines:
            code, line = rng.choice(CORRUPTIONS)
            bad[number] = code
        else:
            line = _ENCODE(good_event(rng, number))
            good[number] = line
        parts.append(line + (b"\r\n" if number % 7 == 0 else b"\n"))
    return b"".join(parts), bad, good


class TestCorruptedStream:
    LINES = 10_000

    def check(self, out: list[Any], bad: dict[int, str], good: dict[int, bytes]) -> None:
        assert len(out) == self.LINES
        for number, item in enumerate(out, start=1):
            if number in bad:
                assert isinstance(item, Diagnostic), number
                assert (item.code, item.line, item.severity) == (
                    bad[number],
                    number,
                    Severity.ERROR,
                )
            else:
                assert isinstance(item, Decoded), (number, item)
                assert item.line == number
                assert item.event == decode_event(good[number])

    def test_whole_stream(self) -> None:
        """Every good line gives its event and every bad line one error, at its line."""
        data, bad, good = corrupted_stream(self.LINES, seed=7)
        assert len(bad) == 100
        self.check(feed_in_chunks(data), bad, good)

    def test_random_chunking_gives_the_same_result(self) -> None:
        """Feeding the stream in random chunk sizes gives exactly the whole-stream output."""
        data, bad, good = corrupted_stream(self.LINES, seed=7)
        whole = feed_in_chunks(data)
        for seed in range(3):
            assert feed_in_chunks(data, random.Random(seed)) == whole
        self.check(whole, bad, good)

    def test_offsets_point_at_line_starts(self) -> None:
        """Each item's byte offset is where its line starts in the input."""
        data, _, _ = corrupted_stream(500, seed=3)
        ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
        starts = [0, *ends[:-1]]
        assert [item.offset for item in feed_in_chunks(data)] == starts


class TestDiagnostics:
    def test_invalid_json(self) -> None:
        """A line that is not JSON names the code, place and a prefix of the bytes."""
        (diagnostic,) = decode_events(b"\n\n{oops\n")
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.JSON_INVALID
        assert (diagnostic.line, diagnostic.offset) == (3, 2)
        assert diagnostic.raw == b"{oops"
        assert diagnostic.message.startswith("line is not valid JSON")

    @pytest.mark.parametrize(
        ("text", "escape"),
        [
            (rb'"a\ud800b"', r"\ud800"),  # a high half alone
            (rb'"a\uDC00"', r"\uDC00"),  # a low half ending the text (a delta may begin with one)
            (rb'"\ud800\ud800\udc00"', r"\ud800"),  # a pair after a lone half
        ],
    )
    def test_a_lone_surrogate_escape_is_named(self, text: bytes, escape: str) -> None:
        """JavaScript reads a lone surrogate; we cannot, and say why, not "truncated"."""
        run = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
        line = b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":' + text + b"}\n"
        first, diagnostic, last = decode_events(run + line + run)
        assert isinstance(diagnostic, Diagnostic)
        assert (diagnostic.code, diagnostic.line) == (Code.JSON_INVALID, 2)
        assert f"lone UTF-16 surrogate escape ({escape})" in diagnostic.message
        assert not isinstance(first, Diagnostic)
        assert not isinstance(last, Diagnostic)

    @pytest.mark.parametrize("text", [rb'"\ud83d\ude00"', rb'"\\ud800"'])
    def test_a_pair_or_an_escaped_backslash_is_no_lone_surrogate(self, text: bytes) -> None:
        """A whole pair decodes; ``\\ud800`` is a backslash and text, not an escape."""
        line = b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":' + text + b"}\n"
        (event,) = decode_events(line)
        assert not isinstance(event, Diagnostic)
        broken = b'{"type":"TEXT_MESSAGE_CONTENT","delta":' + text + b",oops}\n"
        (diagnostic,) = decode_events(broken)
        assert isinstance(diagnostic, Diagnostic)
        assert "surrogate" not in diagnostic.message

    def test_not_an_object(self) -> None:
        """A JSON value that is not an object is json.not_object."""
        (diagnostic,) = decode_events(b"[1, 2]\n", format="jsonl")
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.JSON_NOT_OBJECT

    def test_invalid_event_has_a_json_path(self) -> None:
        """A wrongly typed field the event needs is reported with msgspec's JSON path."""
        (diagnostic,) = decode_events(b'{"type":"RUN_STARTED","runId":3}\n')
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.EVENT_INVALID
        assert diagnostic.path == "$.runId"
        assert "Expected `str`" in diagnostic.message

    def test_nested_path_with_unknown_fields(self) -> None:
        """A bad field is located even when the line also has unknown fields."""
        line = b'{"type":"TOOL_CALL_END","new":1,"toolCallId":["c"]}'
        (diagnostic,) = decode_events(line)
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.path == "$.toolCallId"

    def test_type_not_a_string(self) -> None:
        """A non-string type is an invalid event located at $.type."""
        (diagnostic,) = decode_events(b'{"type":1}')
        assert isinstance(diagnostic, Diagnostic)
        assert (diagnostic.code, diagnostic.path) == (Code.EVENT_INVALID, "$.type")

    def test_missing_type(self) -> None:
        """An object without a type is an invalid event."""
        (diagnostic,) = decode_events(b'{"messageId":"m"}')
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.EVENT_INVALID
        assert "type" in diagnostic.message

    def test_activity_content_not_an_object(self) -> None:
        """ACTIVITY_SNAPSHOT content that is not an object is an invalid event."""
        line = b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":"x"}'
        (diagnostic,) = decode_events(line)
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.EVENT_INVALID
        assert "content" in diagnostic.message

    def test_invalid_utf8_inside_undecoded_content(self) -> None:
        """Invalid UTF-8 is caught even inside content msgspec keeps raw."""
        line = (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a",'
            b'"content":{"k":"\xc3"}}'
        )
        (diagnostic,) = decode_events(line)
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.code == Code.JSON_INVALID_UTF8

    def test_utf8_split_across_chunks(self) -> None:
        """A multi-byte character cut between chunks decodes normally."""
        line = _ENCODE({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "✓é"})
        cut = line.index("✓".encode()) + 1
        decoder = EventDecoder()
        out = decoder.feed(line[:cut]) + decoder.feed(line[cut:]) + decoder.close()
        assert out == [Decoded(decode_event(line), 1, 0)]

    def test_raw_prefix_is_bounded(self) -> None:
        """The raw bytes kept in a diagnostic are a short prefix of a long bad line."""
        (diagnostic,) = decode_events(b"{" + b"x" * 10_000 + b"\n")
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.raw is not None
        assert len(diagnostic.raw) <= 200

    def test_decoding_continues_after_a_bad_line(self) -> None:
        """The line after a bad one is decoded as usual."""
        out = decode_events(b'nope\n{"type":"STEP_STARTED","stepName":"s"}\n')
        assert isinstance(out[0], Diagnostic)
        assert out[1] == Decoded(ev.StepStarted(step_name="s"), 2, 5)


class TestFraming:
    def test_long_line_is_an_error_and_decoding_resumes(self) -> None:
        """A line over max_line_bytes is line.too_long; the next line still decodes."""
        data = (
            b'{"type":"CUSTOM","name":"n","value":"'
            + b"v" * 500
            + b'"}\n{"type":"STEP_STARTED","stepName":"s"}\n'
        )
        out = decode_events(data, limits=Limits(max_line_bytes=100))
        assert isinstance(out[0], Diagnostic)
        assert (out[0].code, out[0].line) == (Code.LINE_TOO_LONG, 1)
        assert isinstance(out[1], Decoded)
        assert out[1].line == 2

    def test_bom_and_crlf(self) -> None:
        """A leading BOM and CRLF line ends are tolerated; offsets count the BOM."""
        out = decode_events(b'\xef\xbb\xbf{"type":"STEP_STARTED","stepName":"s"}\r\n')
        assert out == [Decoded(ev.StepStarted(step_name="s"), 1, 3)]

    def test_sse_multiline_data_and_comments(self) -> None:
        """SSE events with comments and data split over lines decode to events."""
        data = (
            b": keep-alive\n"
            b"event: message\n"
            b'data: {"type":"STEP_STARTED",\n'
            b'data:  "stepName":"s"}\n'
            b"\n"
            b'data: {"type":"STEP_FINISHED","stepName":"s"}\n'
        )
        decoder = EventDecoder()
        out = decoder.feed(data)
        assert decoder.format == "sse"
        out += decoder.close()
        assert out == [
            Decoded(ev.StepStarted(step_name="s"), 3, 28),
            Decoded(ev.StepFinished(step_name="s"), 6, 82),
        ]

    def test_final_line_without_newline_is_flushed_at_close(self) -> None:
        """An unterminated last line is decoded when the stream closes."""
        decoder = EventDecoder()
        assert decoder.feed(b'{"type":"STEP_STARTED","stepName":"s"}') == []
        assert decoder.close() == [Decoded(ev.StepStarted(step_name="s"), 1, 0)]


class TestStrictMode:
    DATA = b'{"type":"STEP_STARTED","stepName":"a"}\nbad\n{"type":"STEP_STARTED","stepName":"b"}\n'

    def test_stops_at_first_diagnostic(self) -> None:
        """Strict mode returns the events before the first error and the error, last."""
        decoder = EventDecoder(strict=True)
        out = decoder.feed(self.DATA)
        assert [type(item) for item in out] == [Decoded, Diagnostic]
        assert decoder.stopped
        assert decoder.feed(b'{"type":"STEP_STARTED","stepName":"c"}\n') == []
        assert decoder.close() == []

    def test_same_under_byte_chunking(self) -> None:
        """Strict mode stops at the same place whatever the chunking."""
        decoder = EventDecoder(strict=True)
        out = []
        for i in range(len(self.DATA)):
            out += decoder.feed(self.DATA[i : i + 1])
        out += decoder.close()
        assert out == decode_events(self.DATA, strict=True)
        assert isinstance(out[-1], Diagnostic)

    def test_not_stopped_without_errors(self) -> None:
        """A clean stream never sets stopped."""
        decoder = EventDecoder(strict=True)
        decoder.feed(b'{"type":"STEP_STARTED","stepName":"a"}\n')
        decoder.close()
        assert not decoder.stopped

    def test_lenient_mode_keeps_going(self) -> None:
        """Without strict, every line is reported."""
        assert [type(item) for item in decode_events(self.DATA)] == [Decoded, Diagnostic, Decoded]


class TestLifecycle:
    def test_feed_after_close_raises(self) -> None:
        """Feeding a closed decoder is caller misuse."""
        decoder = EventDecoder()
        decoder.close()
        with pytest.raises(UsageError):
            decoder.feed(b"{}")

    def test_feed_after_close_raises_even_when_stopped(self) -> None:
        """A stopped strict decoder still refuses feeds after close."""
        decoder = EventDecoder(strict=True)
        decoder.feed(b"bad\n")
        decoder.close()
        with pytest.raises(UsageError):
            decoder.feed(b"{}")

    def test_bad_format_raises(self) -> None:
        """An unknown format is caller misuse."""
        with pytest.raises(UsageError):
            EventDecoder(format="csv")  # type: ignore[arg-type]

    def test_decode_events_matches_feed_and_close(self) -> None:
        """decode_events gives what feeding everything and closing gives."""
        data, _, _ = corrupted_stream(300, seed=1)
        assert decode_events(data) == feed_in_chunks(data, random.Random(5))


class TestDecodeAndEncode:
    def test_decode_event_raises_on_bad_json(self) -> None:
        """decode_event raises msgspec's DecodeError for bytes that are not JSON."""
        with pytest.raises(msgspec.DecodeError):
            decode_event(b"{")

    def test_decode_event_raises_on_bad_event(self) -> None:
        """decode_event raises ValidationError for a JSON object that is no event."""
        with pytest.raises(msgspec.ValidationError):
            decode_event(b'{"type":"RUN_STARTED"}')

    def test_encode_is_compact_single_line(self) -> None:
        """Encoded events have no spaces between tokens and no newline."""
        event = decode_event(b'{ "type" : "CUSTOM", "name" : "n", "value" : [1, 2] }')
        assert encode_event(event) == b'{"type":"CUSTOM","name":"n","value":[1,2]}'


class FakePydanticEvent:
    """Stands in for an ag_ui.core event: has model_dump, nothing else."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload
        self.calls: list[dict[str, Any]] = []

    def model_dump(self, **options: Any) -> dict[str, Any]:
        self.calls.append(options)
        return self.payload


class TestForeignValues:
    def test_mapping(self) -> None:
        """A plain dict with wire keys becomes the event."""
        event = event_from_mapping({"type": "TOOL_CALL_END", "toolCallId": "c"})
        assert event == ev.ToolCallEnd(tool_call_id="c")

    def test_mapping_activity_content_is_raw(self) -> None:
        """A dict's ACTIVITY content is held as raw JSON like a decoded line's."""
        event = event_from_mapping(
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a",
                "content": {"k": 1},
            }
        )
        assert isinstance(event, ev.ActivitySnapshot)
        assert bytes(event.content) == b'{"k":1}'

    def test_mapping_with_unknown_type(self) -> None:
        """A dict of an unknown type becomes an UnknownEvent."""
        event = event_from_mapping({"type": "NEW", "x": 1})
        assert isinstance(event, ev.UnknownEvent)

    def test_invalid_mapping_is_a_diagnostic(self) -> None:
        """A dict that is no valid event gives a diagnostic, not an exception."""
        result = event_from_mapping({"type": "TOOL_CALL_END"})
        assert isinstance(result, Diagnostic)
        assert result.code == Code.EVENT_INVALID

    def test_unencodable_mapping_is_a_diagnostic(self) -> None:
        """A dict holding a value JSON cannot carry gives a diagnostic."""
        result = event_from_mapping({"type": "CUSTOM", "name": "n", "value": object()})
        assert isinstance(result, Diagnostic)
        assert result.code == Code.EVENT_INVALID

    def test_object_with_model_dump(self) -> None:
        """An object with model_dump is dumped by alias, as JSON, without None fields."""
        foreign = FakePydanticEvent({"type": "STEP_STARTED", "stepName": "s"})
        assert event_from_object(foreign) == ev.StepStarted(step_name="s")
        assert foreign.calls == [{"mode": "json", "by_alias": True, "exclude_none": True}]

    def test_object_that_is_already_an_event(self) -> None:
        """An Event is returned unchanged."""
        event = ev.StepStarted(step_name="s")
        assert event_from_object(event) is event

    def test_object_that_is_a_mapping(self) -> None:
        """A mapping passed to event_from_object is read as a mapping."""
        assert event_from_object({"type": "STEP_STARTED", "stepName": "s"}) == ev.StepStarted(
            step_name="s"
        )

    def test_object_without_model_dump(self) -> None:
        """Anything else is a diagnostic naming its type."""
        result = event_from_object(42)
        assert isinstance(result, Diagnostic)
        assert "int" in result.message


class TestMultilineSseData:
    DATA = (
        b'data: {"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a",\n'
        b'data: "content":{\n'
        b'data: "k":[1,\n'
        b'data: 2]},"later":\n'
        b"data: true}\n\n"
    )

    def test_undecoded_parts_are_single_line(self) -> None:
        """Content and extra bytes from multi-line SSE data hold no newline."""
        (item,) = decode_events(self.DATA)
        assert isinstance(item, Decoded)
        event = item.event
        assert isinstance(event, ev.ActivitySnapshot)
        assert bytes(event.content) == b'{ "k":[1, 2]}'
        encoded = encode_event(event)
        assert b"\n" not in encoded
        assert msgspec.json.decode(encoded)["later"] is True

    def test_newline_inside_a_string_is_still_invalid(self) -> None:
        """A string split across data lines is invalid JSON, not silently repaired."""
        data = b'data: {"type":"STEP_STARTED","stepName":"a\ndata: b"}\n\n'
        (item,) = decode_events(data)
        assert isinstance(item, Diagnostic)
        assert item.code == Code.JSON_INVALID

    def test_decode_event_normalises_too(self) -> None:
        """decode_event gives the same single-line value as the stream decoder."""
        (item,) = decode_events(self.DATA)
        assert isinstance(item, Decoded)
        payload = self.DATA.replace(b"data: ", b"").strip()
        assert decode_event(payload) == item.event


#: One event of every AG-UI 1.0 type, with every field AG-UI requires and nothing else.
EVERY_EVENT: dict[str, dict[str, Any]] = {
    "RUN_STARTED": {"threadId": "t", "runId": "r"},
    "RUN_FINISHED": {"threadId": "t", "runId": "r"},
    "RUN_ERROR": {"message": "m"},
    "STEP_STARTED": {"stepName": "s"},
    "STEP_FINISHED": {"stepName": "s"},
    "TEXT_MESSAGE_START": {"messageId": "m"},
    "TEXT_MESSAGE_CONTENT": {"messageId": "m", "delta": "d"},
    "TEXT_MESSAGE_END": {"messageId": "m"},
    "TEXT_MESSAGE_CHUNK": {},
    "TOOL_CALL_START": {"toolCallId": "c", "toolCallName": "n"},
    "TOOL_CALL_ARGS": {"toolCallId": "c", "delta": "{"},
    "TOOL_CALL_END": {"toolCallId": "c"},
    "TOOL_CALL_CHUNK": {},
    "TOOL_CALL_RESULT": {"messageId": "m", "toolCallId": "c", "content": "x"},
    "STATE_SNAPSHOT": {"snapshot": {"a": 1}},
    "STATE_DELTA": {"delta": []},
    "MESSAGES_SNAPSHOT": {"messages": []},
    "ACTIVITY_SNAPSHOT": {"messageId": "m", "activityType": "a2ui-surface", "content": {}},
    "ACTIVITY_DELTA": {"messageId": "m", "activityType": "a2ui-surface", "patch": []},
    "RAW": {"event": {"x": 1}},
    "CUSTOM": {"name": "n", "value": 1},
    "REASONING_START": {"messageId": "m"},
    "REASONING_MESSAGE_START": {"messageId": "m", "role": "reasoning"},
    "REASONING_MESSAGE_CONTENT": {"messageId": "m", "delta": "d"},
    "REASONING_MESSAGE_END": {"messageId": "m"},
    "REASONING_MESSAGE_CHUNK": {},
    "REASONING_END": {"messageId": "m"},
    "REASONING_ENCRYPTED_VALUE": {"subtype": "message", "entityId": "e", "encryptedValue": "v"},
    "SUBAGENT_STARTED": {"subagentRunId": "s", "name": "n"},
    "SUBAGENT_FINISHED": {"subagentRunId": "s"},
    "SUBAGENT_ERROR": {"subagentRunId": "s", "message": "m"},
}
#: The fields without which upstream's client drops the event (its AG-UI event parser,
#: reference converter §1a); a string among them must also be non-empty.
UPSTREAM_NEEDS: dict[str, set[str]] = {
    "RUN_STARTED": {"runId"},
    "RUN_FINISHED": {"runId"},
    "TEXT_MESSAGE_CONTENT": {"delta"},
    "TOOL_CALL_START": {"toolCallId"},
    "TOOL_CALL_ARGS": {"toolCallId"},
    "TOOL_CALL_END": {"toolCallId"},
    "TOOL_CALL_RESULT": {"toolCallId"},
    "ACTIVITY_SNAPSHOT": {"activityType", "content"},
    "CUSTOM": {"name"},
    "REASONING_ENCRYPTED_VALUE": {"subtype", "entityId", "encryptedValue"},
}
#: Fields with a default rather than a requirement (so never "missing").
_DEFAULTED = {("REASONING_MESSAGE_START", "role")}
#: Fields that take any JSON value, so none can be mistyped (issue 16: a number past a
#: double's range, once refused, is the infinity JSON.parse reads).
_FREE_FORM = frozenset({"snapshot", "event", "value"})
FIELDS = sorted(
    (tag, name)
    for tag, fields in EVERY_EVENT.items()
    for name in fields
    if (tag, name) not in _DEFAULTED
)


def _decoded(line: dict[str, Any]) -> list[Decoded | Diagnostic]:
    return decode_events(_ENCODE(line) + b"\n")


class TestFieldsUpstreamNeeds:
    """An event is dropped only where upstream's client drops it (every type, every field)."""

    def test_the_table_covers_every_event_type(self) -> None:
        """EVERY_EVENT names each AG-UI 1.0 type the codec knows."""
        known = {str(cls.__struct_config__.tag) for cls in ev.KnownEvent.__args__}
        assert set(EVERY_EVENT) == known

    @pytest.mark.parametrize("tag", sorted(EVERY_EVENT))
    def test_complete_event_decodes_cleanly(self, tag: str) -> None:
        """With every required field, an event decodes with no diagnostic."""
        (item,) = _decoded({"type": tag, **EVERY_EVENT[tag]})
        assert isinstance(item, Decoded)

    @pytest.mark.parametrize(("tag", "name"), FIELDS)
    def test_missing_field(self, tag: str, name: str) -> None:
        """A missing field drops the event only if upstream needs it; else a warning names it."""
        line = {"type": tag, **EVERY_EVENT[tag]}
        del line[name]
        items = _decoded(line)
        if name in UPSTREAM_NEEDS.get(tag, set()):
            (item,) = items
            assert isinstance(item, Diagnostic)
            assert (item.code, item.severity) == (Code.EVENT_INVALID, Severity.ERROR)
            return
        event, warning = items
        assert isinstance(event, Decoded)
        assert isinstance(warning, Diagnostic)
        assert (warning.code, warning.severity, warning.path) == (
            Code.EVENT_FIELD_MISSING,
            Severity.WARNING,
            f"$.{name}",
        )
        assert f"`{name}`" in warning.message
        assert decode_event(encode_event(event.event)) == event.event

    @pytest.mark.parametrize(("tag", "name"), [f for f in FIELDS if f[1] not in _FREE_FORM])
    def test_mistyped_field(self, tag: str, name: str) -> None:
        """A mistyped field drops the event only if upstream needs it; else it is ignored."""
        good = EVERY_EVENT[tag][name]
        wrong: Any = 5 if not isinstance(good, int) or isinstance(good, bool) else "five"
        line = _ENCODE({"type": tag, **EVERY_EVENT[tag], name: wrong})
        items = decode_events(line + b"\n")
        if name in UPSTREAM_NEEDS.get(tag, set()):
            (item,) = items
            assert isinstance(item, Diagnostic)
            assert item.code == Code.EVENT_INVALID
            return
        event, warning = items
        assert isinstance(event, Decoded)
        assert isinstance(warning, Diagnostic)
        assert (warning.code, warning.path) == (Code.EVENT_FIELD_IGNORED, f"$.{name}")

    @pytest.mark.parametrize(("tag", "name"), [f for f in FIELDS if f[1] in _FREE_FORM])
    @pytest.mark.parametrize("number", [b"1e400", b"-1.7976931348623159e308"])
    def test_free_form_field_past_a_doubles_range(self, tag: str, name: str, number: bytes) -> None:
        """A free-form field takes a number past a double's range as JSON.parse does: the
        infinity, sign kept, with no warning (it was once refused with a warning, #16)."""
        line = _ENCODE({"type": tag, **EVERY_EVENT[tag], name: [5]}).replace(b"[5]", number)
        (item,) = decode_events(line + b"\n")
        assert isinstance(item, Decoded)
        value = next(v for k, v in msgspec.structs.asdict(item.event).items() if k == name)
        assert value == (-math.inf if number.startswith(b"-") else math.inf)

    @pytest.mark.parametrize(
        ("tag", "name"),
        sorted(
            (tag, name)
            for tag, names in UPSTREAM_NEEDS.items()
            for name in names
            if isinstance(EVERY_EVENT[tag][name], str) and name != "subtype"
        ),
    )
    def test_empty_needed_string_drops(self, tag: str, name: str) -> None:
        """Upstream's client drops an event whose needed string is empty, and so do we."""
        (item,) = _decoded({"type": tag, **EVERY_EVENT[tag], name: ""})
        assert isinstance(item, Diagnostic)
        assert (item.code, item.path) == (Code.EVENT_INVALID, f"$.{name}")

    def test_run_started_without_thread_opens_a_run(self) -> None:
        """Upstream's own tests send RUN_STARTED with no threadId: it opens a run."""
        processor = Processor()
        processor.feed(b'{"type":"RUN_STARTED","threadId":"t","runId":"r0"}\n')
        processor.feed(b'{"type":"RUN_STARTED","runId":"r1"}\n')
        processor.close()
        assert [run.run_id for run in processor.state.runs] == ["r0", "r1"]
        assert processor.state.runs[-1].thread_id is None
        (warning,) = processor.take_diagnostics()
        assert warning.code == Code.EVENT_FIELD_MISSING
        assert warning.line == 2

    def test_strict_mode_is_not_stopped_by_a_warning(self) -> None:
        """A field an event is kept without is no bad input, even under strict."""
        processor = Processor(strict=True)
        processor.feed(
            b'{"type":"RUN_STARTED","runId":"r1"}\n{"type":"RUN_FINISHED","runId":"r1"}\n'
        )
        processor.close()
        assert not processor.stopped
        assert processor.state.runs[-1].status == "finished"

    def test_mapping_and_bytes_agree(self) -> None:
        """feed_events on dicts gives the same events and warnings as the bytes."""
        lines = [{"type": "RUN_STARTED", "runId": "r1"}, {"type": "RUN_ERROR"}]
        from_bytes = Processor()
        from_bytes.feed(b"".join(_ENCODE(line) + b"\n" for line in lines))
        from_dicts = Processor()
        from_dicts.feed_events(lines)
        assert from_dicts.state == from_bytes.state
        assert [d.code for d in from_dicts.take_diagnostics()] == [
            d.code for d in from_bytes.take_diagnostics()
        ]
