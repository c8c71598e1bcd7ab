"""Chunk expansion, rule by rule: one stream per rule, the last event's expansion checked.

Each case is a stream of wire-form events; everything before the last event sets up
the open chunk streams, and the last event's expansion (as wire JSON) and diagnostic
codes are what the rule says. tests/test_chunks_client.py checks the same function
against the published client on seeded streams.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest

from a2ui_stream._wire import events as ev
from a2ui_stream._wire.chunks import CHUNK_EVENTS, OpenChunk, OpenChunks, expand
from a2ui_stream._wire.codec import encode_event, read_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity

JSON = Any


def text(message_id: str | None = None, delta: str | None = "x", **fields: JSON) -> JSON:
    return _chunk("TEXT_MESSAGE_CHUNK", "messageId", message_id, delta, fields)


def tool(
    call_id: str | None = None, name: str | None = None, delta: str | None = "{", **f: JSON
) -> JSON:
    if name is not None:
        f["toolCallName"] = name
    return _chunk("TOOL_CALL_CHUNK", "toolCallId", call_id, delta, f)


def thought(message_id: str | None = None, delta: str | None = "hm", **fields: JSON) -> JSON:
    return _chunk("REASONING_MESSAGE_CHUNK", "messageId", message_id, delta, fields)


def _chunk(kind: str, key: str, entity: str | None, delta: str | None, fields: JSON) -> JSON:
    event = {"type": kind, **fields}
    if entity is not None:
        event[key] = entity
    if delta is not None:
        event["delta"] = delta
    return event


def start(message_id: str, role: str = "assistant", **fields: JSON) -> JSON:
    return {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": role, **fields}


def content(message_id: str, delta: str = "x", **fields: JSON) -> JSON:
    return {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": delta, **fields}


def end(message_id: str, **fields: JSON) -> JSON:
    return {"type": "TEXT_MESSAGE_END", "messageId": message_id, **fields}


def call_start(call_id: str, name: str = "f", **fields: JSON) -> JSON:
    return {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name, **fields}


def call_args(call_id: str, delta: str = "{", **fields: JSON) -> JSON:
    return {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": delta, **fields}


def call_end(call_id: str, **fields: JSON) -> JSON:
    return {"type": "TOOL_CALL_END", "toolCallId": call_id, **fields}


SA = {"subagentRunId": "sa"}
SB = {"subagentRunId": "sb"}
STEP = {"type": "STEP_STARTED", "stepName": "plan"}


class Rule(NamedTuple):
    """A stream, and what its last event must expand into."""

    stream: list[JSON]
    expanded: list[JSON]
    codes: tuple[str, ...] = ()


RULES: dict[str, Rule] = {
    # Opening a stream.
    "a first text chunk starts an assistant message": Rule(
        [text("m1")], [start("m1"), content("m1")]
    ),
    "an opener's role and name go on the start": Rule(
        [text("m1", role="user", name="ada")], [start("m1", "user", name="ada"), content("m1")]
    ),
    "a first tool chunk starts the call with its name and parent": Rule(
        [tool("c1", "f", parentMessageId="m1")],
        [call_start("c1", parentMessageId="m1"), call_args("c1")],
    ),
    "a first reasoning chunk starts a reasoning message": Rule(
        [thought("r1")],
        [
            {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"},
            {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "hm"},
        ],
    ),
    "an empty id is an id": Rule([text("")], [start(""), content("")]),
    # Continuing it.
    "a chunk without an id continues the lane's stream": Rule(
        [text("m1"), text(delta="y")], [content("m1", "y")]
    ),
    "a chunk naming the open id continues it": Rule(
        [tool("c1", "f"), tool("c1", delta="}")], [call_args("c1", "}")]
    ),
    "a continuation may repeat what the opener said": Rule(
        [text("m1", role="user", name="ada"), text(role="user", name="ada")], [content("m1")]
    ),
    "a continuation may repeat the default role": Rule(
        [text("m1"), text(role="assistant")], [content("m1")]
    ),
    # Replacing it.
    "a new id ends the lane's stream and starts another": Rule(
        [text("m1"), text("m2")], [end("m1"), start("m2"), content("m2")]
    ),
    "another kind in the lane ends its stream": Rule(
        [text("m1"), tool("c1", "f")], [end("m1"), call_start("c1"), call_args("c1")]
    ),
    "the ended stream keeps its lane on its end": Rule(
        [text("m1", **SA), text("m2", **SA)],
        [end("m1", **SA), start("m2", **SA), content("m2", **SA)],
    ),
    # What cannot be expanded is dropped.
    "a first chunk without an id is dropped": Rule([text()], [], (Code.CHUNK_NO_ID,)),
    "a first tool chunk without a name is dropped": Rule([tool("c1")], [], (Code.CHUNK_NO_NAME,)),
    "a chunk without an id after another kind is dropped, the other kept open": Rule(
        [text("m1"), tool()], [], (Code.CHUNK_NO_ID,)
    ),
    "a continuation with another role is dropped": Rule(
        [text("m1"), text(role="user")], [], (Code.CHUNK_MISMATCH,)
    ),
    "a continuation with a name the opener lacked is dropped": Rule(
        [text("m1"), text(name="ada")], [], (Code.CHUNK_MISMATCH,)
    ),
    "a continuation with another tool name is dropped": Rule(
        [tool("c1", "f"), tool(name="g")], [], (Code.CHUNK_MISMATCH,)
    ),
    "a continuation with another parent is dropped": Rule(
        [tool("c1", "f", parentMessageId="m1"), tool(parentMessageId="m2")],
        [],
        (Code.CHUNK_MISMATCH,),
    ),
    "an open id tagged with another lane is dropped": Rule(
        [text("m1", **SA), text("m1", **SB)], [], (Code.CHUNK_MISMATCH,)
    ),
    "an open id tagged when its stream is the parent's is dropped": Rule(
        [text("m1"), text("m1", **SA)], [], (Code.CHUNK_MISMATCH,)
    ),
    "a chunk that could continue two lanes is dropped": Rule(
        [text("m1", **SA), text("m2", **SB), text()], [], (Code.CHUNK_AMBIGUOUS,)
    ),
    # Lanes.
    "an open id continues in its lane, untagged": Rule(
        [text("m1", **SA), text("m1", delta="y")], [content("m1", "y", **SA)]
    ),
    "an id nobody holds opens in the lane its tag names": Rule(
        [text("m1"), text("m2", **SA)], [start("m2", **SA), content("m2", **SA)]
    ),
    "an untagged chunk continues the parent's stream first": Rule(
        [text("m1", **SA), text("m2"), text(delta="y")], [content("m2", "y")]
    ),
    "an untagged chunk continues the one stream of its kind": Rule(
        [text("m1", **SA), tool("c1", "f"), text(delta="y")], [content("m1", "y", **SA)]
    ),
    "a tagged chunk without an id continues its own lane": Rule(
        [text("m1", **SA), text("m2", **SB), text(delta="y", **SB)], [content("m2", "y", **SB)]
    ),
    "lanes hold one stream each, side by side": Rule(
        [tool("c1", "f", **SA), tool("c2", "f", **SB), tool("c1", delta="}")],
        [call_args("c1", "}", **SA)],
    ),
    # What a chunk's content event carries.
    "a chunk without delta or rawEvent opens with its start alone": Rule(
        [text("m1", delta=None)], [start("m1")]
    ),
    "a continuation without delta, rawEvent or metadata expands to nothing": Rule(
        [text("m1"), text(delta=None)], []
    ),
    "a continuation with metadata alone keeps it on an empty content": Rule(
        [text("m1"), text(delta=None, metadata={"usage": 3})],
        [content("m1", "", metadata={"usage": 3})],
    ),
    "a rawEvent makes a content event, and goes on it alone": Rule(
        [text("m1", delta=None, rawEvent={"p": 1})],
        [start("m1"), content("m1", "", rawEvent={"p": 1})],
    ),
    "metadata goes on the start and the content": Rule(
        [text("m1", metadata={"k": 1})],
        [start("m1", metadata={"k": 1}), content("m1", metadata={"k": 1})],
    ),
    "undeclared fields ride on the content": Rule(
        [text("m1", finishReason="stop")], [start("m1"), content("m1", finishReason="stop")]
    ),
    "undeclared fields ride on the start when there is no content": Rule(
        [tool("c1", "f", delta=None, trace=7)], [call_start("c1", trace=7)]
    ),
    "undeclared fields of a continuation alone keep an empty content": Rule(
        [text("m1"), text(delta=None, trace=7)], [content("m1", "", trace=7)]
    ),
    "a field the start sets itself is dropped from what rides on it": Rule(
        [thought("r1", delta=None, role="x")],
        [{"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"}],
        (Code.CHUNK_FIELD_DROPPED,),
    ),
    "the chunk's timestamp is not carried": Rule(
        [text("m1", timestamp=5)], [start("m1"), content("m1")]
    ),
    "a continuation's own tag goes on its content": Rule(
        [text("m1", **SA), text("m1", delta="y", **SA)], [content("m1", "y", **SA)]
    ),
    # Other events.
    "an event of the lane ends its stream first": Rule(
        [tool("c1", "f"), STEP], [call_end("c1"), STEP]
    ),
    "an event of another lane leaves the stream open": Rule(
        [tool("c1", "f"), {**STEP, **SA}], [{**STEP, **SA}]
    ),
    "a run event ends every lane, in the order they opened": Rule(
        [text("m1", **SB), tool("c1", "f"), {"type": "RUN_FINISHED", "runId": "r"}],
        [end("m1", **SB), call_end("c1"), {"type": "RUN_FINISHED", "runId": "r"}],
    ),
    "a messages snapshot ends every lane": Rule(
        [text("m1", **SA), {"type": "MESSAGES_SNAPSHOT", "messages": []}],
        [end("m1", **SA), {"type": "MESSAGES_SNAPSHOT", "messages": []}],
    ),
    "a sub-agent's end ends its lane alone": Rule(
        [text("m1"), text("m2", **SA), {"type": "SUBAGENT_FINISHED", **SA}],
        [end("m2", **SA), {"type": "SUBAGENT_FINISHED", **SA}],
    ),
    "a sub-agent's end without its id ends nothing": Rule(
        [text("m1"), {"type": "SUBAGENT_ERROR", "message": "x"}],
        [{"type": "SUBAGENT_ERROR", "message": "x"}],
    ),
    "activity passes without ending anything": Rule(
        [text("m1"), {"type": "RAW", "event": 1}], [{"type": "RAW", "event": 1}]
    ),
    "an unknown type passes without ending anything": Rule(
        [text("m1"), {"type": "THINKING_START"}], [{"type": "THINKING_START"}]
    ),
}

#: Every event type AG-UI 1.0 has that passes a chunk stream by, open or not.
PASSING = [
    {"type": "RAW", "event": 1},
    {"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "x", "content": {}},
    {"type": "ACTIVITY_DELTA", "messageId": "a", "activityType": "x", "patch": []},
    {
        "type": "REASONING_ENCRYPTED_VALUE",
        "subtype": "message",
        "entityId": "r",
        "encryptedValue": "v",
    },
    {"type": "SUBAGENT_STARTED", "subagentRunId": "", "name": "n"},
]
#: Every event type that ends its own lane's stream.
LANE_ENDING = [
    start("m9"),
    content("m9"),
    end("m9"),
    call_start("c9"),
    call_args("c9"),
    call_end("c9"),
    {"type": "TOOL_CALL_RESULT", "messageId": "t", "toolCallId": "c9", "content": "ok"},
    {"type": "STATE_SNAPSHOT", "snapshot": {}},
    {"type": "STATE_DELTA", "delta": []},
    {"type": "CUSTOM", "name": "n", "value": 1},
    STEP,
    {"type": "STEP_FINISHED", "stepName": "plan"},
    {"type": "REASONING_START", "messageId": "r9"},
    {"type": "REASONING_MESSAGE_START", "messageId": "r9", "role": "reasoning"},
    {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r9", "delta": "d"},
    {"type": "REASONING_MESSAGE_END", "messageId": "r9"},
    {"type": "REASONING_END", "messageId": "r9"},
]
RUN_ENDING = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    {"type": "RUN_ERROR", "message": "x"},
    {"type": "MESSAGES_SNAPSHOT", "messages": []},
]


def fold(stream: list[JSON]) -> tuple[OpenChunks, list[list[JSON]], list[tuple[str, ...]]]:
    """Expand a wire-form stream: the open streams after it, and each event's expansion."""
    streams: OpenChunks = ()
    expanded, codes = [], []
    for index, wire in enumerate(stream):
        event, problems = read_event(wire)
        assert event is not None, problems
        before = streams
        streams, events, diagnostics = expand(streams, event, seq=index)
        if any(d.severity is Severity.ERROR for d in diagnostics):
            assert streams is before  # a dropped chunk changes nothing
        assert all(d.seq == index for d in diagnostics)
        expanded.append([json.loads(encode_event(e)) for e in events])
        codes.append(tuple(d.code for d in diagnostics))
    return streams, expanded, codes


@pytest.mark.parametrize("name", RULES)
def test_rule(name: str) -> None:
    rule = RULES[name]
    _, expanded, codes = fold(rule.stream)
    assert (expanded[-1], codes[-1]) == (rule.expanded, rule.codes)
    assert all(not c for c in codes[:-1]), codes  # the set-up itself expands cleanly


@pytest.mark.parametrize("event", PASSING, ids=lambda e: e["type"])
def test_passing_events_end_nothing(event: JSON) -> None:
    streams, expanded, _ = fold([text("m1"), tool("c1", "f", **SA), event])
    assert expanded[-1] == [event]
    assert [s.id for s in streams] == ["m1", "c1"]


@pytest.mark.parametrize("event", LANE_ENDING, ids=lambda e: e["type"])
def test_lane_events_end_their_lane(event: JSON) -> None:
    streams, expanded, _ = fold([text("m1"), tool("c1", "f", **SA), {**event, **SA}])
    assert expanded[-1] == [call_end("c1", **SA), {**event, **SA}]
    assert [s.id for s in streams] == ["m1"]


@pytest.mark.parametrize("event", RUN_ENDING, ids=lambda e: e["type"])
def test_run_events_end_every_lane(event: JSON) -> None:
    streams, expanded, _ = fold([text("m1"), tool("c1", "f", **SA), {**event, **SB}])
    assert expanded[-1] == [end("m1"), call_end("c1", **SA), {**event, **SB}]
    assert streams == ()


def test_nothing_open_passes_the_event_itself() -> None:
    """With no chunk stream open, an event expands into itself: the same object."""
    event = ev.StepStarted(step_name="plan")
    assert expand((), event).events[0] is event


def test_null_reads_as_absent() -> None:
    """``null`` ids, tags and deltas (not AG-UI values) read as absent fields."""
    opened = OpenChunk(kind="text", lane=None, id="m1", role="assistant")
    chunk = ev.TextMessageChunk(message_id=None, subagent_run_id=None, delta=None, role=None)
    assert expand((opened,), chunk) == ((opened,), (), ())


def test_the_open_streams_after_a_stream() -> None:
    """What stays open is the value the next call continues from, lane by lane."""
    streams, _, _ = fold([text("m1", role="user"), tool("c1", "f", parentMessageId="m1", **SA)])
    assert streams == (
        OpenChunk(kind="text", lane=None, id="m1", role="user"),
        OpenChunk(kind="tool", lane="sa", id="c1", name="f", parent="m1"),
    )


def test_diagnostics_say_what_and_why() -> None:
    """A dropped chunk's diagnostic names the field, the stream and the event."""
    event, _ = read_event(tool(name="g"))
    assert event is not None
    opened = (OpenChunk(kind="tool", lane=None, id="c1", name="f"),)
    (problem,) = expand(opened, event, seq=7).diagnostics
    assert (problem.code, problem.path, problem.seq, problem.severity) == (
        Code.CHUNK_MISMATCH,
        "$.toolCallName",
        7,
        Severity.ERROR,
    )
    assert "'c1'" in problem.message
    assert "'g'" in problem.message
    assert "'f'" in problem.message


def test_the_chunk_types_are_the_protocols() -> None:
    """The expander takes exactly the three chunk types AG-UI 1.0 defines."""
    tags = sorted(str(cls.__struct_config__.tag) for cls in CHUNK_EVENTS)
    assert tags == ["REASONING_MESSAGE_CHUNK", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK"]
