"""The AG-UI wire types: every event decodes, re-encodes and round-trips; nothing is lost."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET

from a2ui_stream import events as ev
from a2ui_stream._wire.codec import decode_event, encode_event

_RAW = msgspec.Raw

#: Every AG-UI 1.0 event type as a value and its exact compact wire form. One table
#: drives decoding, encoding and the round trip (h11's SIMPLE_CASES idea).
CASES: list[tuple[ev.Event, bytes]] = [
    (
        ev.RunStarted(thread_id="t", run_id="r", parent_run_id="p", timestamp=1),
        b'{"type":"RUN_STARTED","timestamp":1,"threadId":"t","runId":"r","parentRunId":"p"}',
    ),
    (
        ev.RunStarted(
            thread_id="t",
            run_id="r",
            input=ev.RunAgentInput(
                thread_id="t",
                run_id="r",
                messages=[ev.UserMessage(id="u", content="hi")],
                tools=[ev.Tool(name="render", description="d", parameters={"type": "object"})],
                context=[ev.Context(description="c", value="v")],
                forwarded_props={"a": 1},
                resume=[ev.ResumeEntry(interrupt_id="i", status="resolved", payload=None)],
            ),
            protocol_version="1.0",
        ),
        (
            b'{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r",'
            b'"messages":[{"role":"user","id":"u","content":"hi"}],"tools":[{"name":"render",'
            b'"description":"d","parameters":{"type":"object"}}],"context":[{"description":"c",'
            b'"value":"v"}],"forwardedProps":{"a":1},"resume":[{"interruptId":"i",'
            b'"status":"resolved","payload":null}]},"protocolVersion":"1.0"}'
        ),
    ),
    (
        ev.RunFinished(
            thread_id="t",
            run_id="r",
            result=None,
            outcome={"type": "success"},
            usage=[ev.TokenUsage(input_tokens=3, output_tokens=4)],
        ),
        (
            b'{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":null,'
            b'"outcome":{"type":"success"},"usage":[{"inputTokens":3,"outputTokens":4}]}'
        ),
    ),
    (
        ev.RunError(message="boom", code="E1", metadata={"k": "v"}),
        b'{"type":"RUN_ERROR","metadata":{"k":"v"},"message":"boom","code":"E1"}',
    ),
    (ev.StepStarted(step_name="plan"), b'{"type":"STEP_STARTED","stepName":"plan"}'),
    (ev.StepFinished(step_name="plan"), b'{"type":"STEP_FINISHED","stepName":"plan"}'),
    (
        ev.TextMessageStart(message_id="m", role="assistant", name="bot"),
        b'{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","name":"bot"}',
    ),
    (
        ev.TextMessageContent(message_id="m", delta="Hé"),
        b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"H\xc3\xa9"}',
    ),
    (ev.TextMessageEnd(message_id="m"), b'{"type":"TEXT_MESSAGE_END","messageId":"m"}'),
    (
        ev.TextMessageChunk(message_id="m", delta="x", role=None),
        b'{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":null,"delta":"x"}',
    ),
    (
        ev.ToolCallStart(tool_call_id="c", tool_call_name="render_a2ui", parent_message_id=None),
        (
            b'{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"render_a2ui",'
            b'"parentMessageId":null}'
        ),
    ),
    (
        ev.ToolCallArgs(tool_call_id="c", delta='{"surf'),
        b'{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\\"surf"}',
    ),
    (ev.ToolCallEnd(tool_call_id="c"), b'{"type":"TOOL_CALL_END","toolCallId":"c"}'),
    (
        ev.ToolCallChunk(tool_call_id="c", tool_call_name="n", delta="{}"),
        b'{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"n","delta":"{}"}',
    ),
    (
        ev.ToolCallResult(message_id="m", tool_call_id="c", content="ok", role="tool"),
        b'{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"ok","role":"tool"}',
    ),
    (
        ev.ToolCallResult(
            message_id="m", tool_call_id="c", content=[{"type": "text", "text": "ok"}]
        ),
        (
            b'{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c",'
            b'"content":[{"type":"text","text":"ok"}]}'
        ),
    ),
    (
        ev.StateSnapshot(snapshot={"a": [1, None]}),
        b'{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,null]}}',
    ),
    (
        ev.StateDelta(delta=[{"op": "add", "path": "/a", "value": 1}]),
        b'{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}',
    ),
    (
        ev.MessagesSnapshot(
            messages=[
                ev.DeveloperMessage(id="d", content="dev"),
                ev.SystemMessage(id="s", content="sys", name="n"),
                ev.AssistantMessage(
                    id="a",
                    content="",
                    tool_calls=[
                        ev.ToolCall(id="t", function=ev.FunctionCall(name="f", arguments="{}"))
                    ],
                ),
                ev.UserMessage(id="u", content=[{"type": "text", "text": "hi"}]),
                ev.ToolMessage(id="tm", content="r", tool_call_id="t", error="e"),
                ev.ActivityMessage(id="x", activity_type="a2ui-surface", content={"k": 1}),
                ev.ReasoningMessage(id="rm", content="why", encrypted_value="z"),
            ]
        ),
        (
            b'{"type":"MESSAGES_SNAPSHOT","messages":[{"role":"developer","id":"d","content":"dev"},'
            b'{"role":"system","id":"s","content":"sys","name":"n"},'
            b'{"role":"assistant","id":"a","content":"","toolCalls":[{"id":"t",'
            b'"function":{"name":"f","arguments":"{}"},"type":"function"}]},'
            b'{"role":"user","id":"u","content":[{"type":"text","text":"hi"}]},'
            b'{"role":"tool","id":"tm","content":"r","toolCallId":"t","error":"e"},'
            b'{"role":"activity","id":"x","activityType":"a2ui-surface","content":{"k":1}},'
            b'{"role":"reasoning","id":"rm","content":"why","encryptedValue":"z"}]}'
        ),
    ),
    (
        ev.ActivitySnapshot(
            message_id="a2ui-surface-c",
            activity_type="a2ui-surface",
            content=_RAW(b'{"a2ui_operations":[]}'),
            replace=True,
        ),
        (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"a2ui-surface-c","activityType":"a2ui-surface",'
            b'"content":{"a2ui_operations":[]},"replace":true}'
        ),
    ),
    (
        ev.ActivityDelta(
            message_id="m", activity_type="a2ui-surface", patch=[{"op": "remove", "path": "/x"}]
        ),
        (
            b'{"type":"ACTIVITY_DELTA","messageId":"m","activityType":"a2ui-surface",'
            b'"patch":[{"op":"remove","path":"/x"}]}'
        ),
    ),
    (
        ev.RawEvent(event={"provider": "x"}, source="openai"),
        b'{"type":"RAW","event":{"provider":"x"},"source":"openai"}',
    ),
    (ev.CustomEvent(name="n", value=None), b'{"type":"CUSTOM","name":"n","value":null}'),
    (ev.ReasoningStart(message_id="r"), b'{"type":"REASONING_START","messageId":"r"}'),
    (
        ev.ReasoningMessageStart(message_id="r"),
        b'{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}',
    ),
    (
        ev.ReasoningMessageContent(message_id="r", delta="d"),
        b'{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"d"}',
    ),
    (
        ev.ReasoningMessageEnd(message_id="r"),
        b'{"type":"REASONING_MESSAGE_END","messageId":"r"}',
    ),
    (
        ev.ReasoningMessageChunk(delta="d"),
        b'{"type":"REASONING_MESSAGE_CHUNK","delta":"d"}',
    ),
    (ev.ReasoningEnd(message_id="r"), b'{"type":"REASONING_END","messageId":"r"}'),
    (
        ev.ReasoningEncryptedValue(subtype="tool-call", entity_id="c", encrypted_value="z"),
        (
            b'{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c",'
            b'"encryptedValue":"z"}'
        ),
    ),
    (
        ev.SubagentStarted(subagent_run_id="s", name="helper", parent_tool_call_id="c"),
        b'{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"helper","parentToolCallId":"c"}',
    ),
    (
        ev.SubagentFinished(subagent_run_id="s", outcome={"type": "success"}),
        b'{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"success"}}',
    ),
    (
        ev.SubagentError(subagent_run_id="s", message="m"),
        b'{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"m"}',
    ),
    (
        ev.TextMessageEnd(message_id="m", raw_event={"x": 1}, subagent_run_id="s"),
        b'{"type":"TEXT_MESSAGE_END","rawEvent":{"x":1},"subagentRunId":"s","messageId":"m"}',
    ),
]

_IDS = [f"{type(value).__name__}-{index}" for index, (value, _) in enumerate(CASES)]


class TestEveryEventType:
    def test_table_covers_every_event_type(self) -> None:
        """The case table has at least one case for each AG-UI 1.0 event class."""
        covered = {type(value) for value, _ in CASES}
        assert covered == set(ev.KnownEvent.__args__)

    @pytest.mark.parametrize(("value", "wire"), CASES, ids=_IDS)
    def test_decodes(self, value: ev.Event, wire: bytes) -> None:
        """The wire bytes decode to exactly the value."""
        assert decode_event(wire) == value

    @pytest.mark.parametrize(("value", "wire"), CASES, ids=_IDS)
    def test_encodes(self, value: ev.Event, wire: bytes) -> None:
        """The value encodes to exactly the compact wire bytes."""
        assert encode_event(value) == wire

    @pytest.mark.parametrize(("value", "wire"), CASES, ids=_IDS)
    def test_round_trips(self, value: ev.Event, wire: bytes) -> None:
        """decode(encode(x)) == x and encode(decode(b)) == b."""
        assert decode_event(encode_event(value)) == value
        assert encode_event(decode_event(wire)) == wire


class TestAbsentAndNull:
    def test_absent_stays_unset(self) -> None:
        """An optional field missing on the wire is UNSET and stays missing."""
        event = decode_event(b'{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"n"}')
        assert isinstance(event, ev.ToolCallStart)
        assert event.parent_message_id is UNSET
        assert b"parentMessageId" not in encode_event(event)

    def test_null_stays_null(self) -> None:
        """An optional field sent as null is None and is written back as null."""
        wire = (
            b'{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"n","parentMessageId":null}'
        )
        event = decode_event(wire)
        assert isinstance(event, ev.ToolCallStart)
        assert event.parent_message_id is None
        assert encode_event(event) == wire


class TestForwardCompatibility:
    def test_unknown_type_is_kept_whole(self) -> None:
        """An unknown type decodes to UnknownEvent with the type and every field."""
        wire = b'{"type":"THINKING_START","title":"t","timestamp":5,"deep":{"a":[1, 2]}}'
        event = decode_event(wire)
        assert isinstance(event, ev.UnknownEvent)
        assert event.type == "THINKING_START"
        assert event.timestamp == 5
        assert isinstance(event.extra, dict)
        assert {key: bytes(raw) for key, raw in event.extra.items()} == {
            "title": b'"t"',
            "deep": b'{"a":[1, 2]}',
        }

    def test_unknown_type_re_encodes_every_field(self) -> None:
        """Re-encoding an unknown event gives back the same fields and values."""
        wire = b'{"type":"FUTURE_EVENT","x":{"y":null},"timestamp":5}'
        encoded = encode_event(decode_event(wire))
        assert msgspec.json.decode(encoded) == msgspec.json.decode(wire)
        assert decode_event(encoded) == decode_event(wire)

    def test_extra_fields_survive(self) -> None:
        """Fields a known type lacks are kept in extra and written back."""
        wire = b'{"type":"RUN_STARTED","threadId":"t","runId":"r","newThing":[1,{"b":true}]}'
        event = decode_event(wire)
        assert isinstance(event, ev.RunStarted)
        assert event.run_id == "r"
        assert isinstance(event.extra, dict)
        assert bytes(event.extra["newThing"]) == b'[1,{"b":true}]'
        assert encode_event(event) == wire

    def test_equality_includes_extras(self) -> None:
        """Two events differing only in an unknown field are not equal."""
        one = decode_event(b'{"type":"STEP_STARTED","stepName":"s","x":1}')
        two = decode_event(b'{"type":"STEP_STARTED","stepName":"s","x":2}')
        plain = decode_event(b'{"type":"STEP_STARTED","stepName":"s"}')
        assert one != two
        assert one != plain

    def test_reserved_key_on_the_wire_is_an_ordinary_extra(self) -> None:
        """A wire key named like the extra field is kept as an unknown field, not misread."""
        wire = b'{"type":"STEP_STARTED","stepName":"s","$extra":{"a":1}}'
        event = decode_event(wire)
        assert isinstance(event.extra, dict)
        assert set(event.extra) == {"$extra"}
        assert encode_event(event) == wire

    def test_unknown_event_built_by_hand_encodes(self) -> None:
        """An UnknownEvent made in code encodes its type and extras."""
        event = ev.UnknownEvent(type="X", extra={"a": _RAW(b"1")})
        assert msgspec.json.decode(encode_event(event)) == {"type": "X", "a": 1}

    def test_empty_extra_adds_nothing(self) -> None:
        """An empty extra mapping writes no extra keys."""
        event = ev.StepStarted(step_name="s", extra={})
        assert encode_event(event) == b'{"type":"STEP_STARTED","stepName":"s"}'


class TestActivitySnapshot:
    def test_of_encodes_content(self) -> None:
        """ActivitySnapshot.of keeps the mapping as compact raw JSON."""
        event = ev.ActivitySnapshot.of(
            message_id="m", activity_type="a2ui-surface", content={"a": [1]}, replace=False
        )
        assert bytes(event.content) == b'{"a":[1]}'
        assert event.replace is False

    def test_content_must_be_an_object(self) -> None:
        """Content that is not a JSON object is refused at construction."""
        with pytest.raises(ValueError, match="must be a JSON object"):
            ev.ActivitySnapshot(message_id="m", activity_type="a", content=_RAW(b"[1]"))

    def test_content_may_start_with_whitespace(self) -> None:
        """Whitespace before the opening brace is still an object."""
        event = ev.ActivitySnapshot(message_id="m", activity_type="a", content=_RAW(b" \n{}"))
        assert bytes(event.content) == b" \n{}"

    def test_non_object_content_fails_decoding(self) -> None:
        """Decoding a snapshot whose content is an array raises a ValidationError."""
        wire = b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":[]}'
        with pytest.raises(msgspec.ValidationError, match="must be a JSON object"):
            decode_event(wire)

    def test_content_bytes_are_kept_verbatim(self) -> None:
        """The content bytes are exactly those on the wire, spacing included."""
        wire = (
            b'{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":{ "k" : 1 }}'
        )
        event = decode_event(wire)
        assert isinstance(event, ev.ActivitySnapshot)
        assert bytes(event.content) == b'{ "k" : 1 }'


class TestModule:
    def test_all_names_exist(self) -> None:
        """Every name in __all__ is defined in the module."""
        missing = [name for name in ev.__all__ if not hasattr(ev, name)]
        assert missing == []

    def test_all_lists_every_event_class(self) -> None:
        """Every event class, known or unknown, is public."""
        names = {cls.__name__ for cls in ev.KnownEvent.__args__}
        assert names | {"UnknownEvent", "Event"} <= set(ev.__all__)

    def test_events_are_frozen(self) -> None:
        """Events cannot be changed after construction."""
        event = ev.StepStarted(step_name="s")
        with pytest.raises(AttributeError):
            event.step_name = "t"  # type: ignore[misc]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)


class TestExtrasProperty:
    @given(
        case=st.sampled_from(CASES),
        extra=st.dictionaries(st.text().map(lambda key: "x-" + key), _JSON, max_size=4),
    )
    @settings(max_examples=200, deadline=None)
    def test_any_extra_fields_round_trip(
        self, case: tuple[ev.Event, bytes], extra: dict[str, Any]
    ) -> None:
        """Arbitrary unknown fields on any event type survive decode and re-encode."""
        value, wire = case
        document = {**msgspec.json.decode(wire), **extra}
        event = decode_event(msgspec.json.encode(document))
        assert type(event) is type(value)
        assert msgspec.json.decode(encode_event(event)) == document
        assert decode_event(encode_event(event)) == event
