"""Chunk expansion, rule by rule: one stream per rule, the last event's expansion checked.

Each case is a stream of wire-form events; everything before the last event sets up
the open chunk streams, and the last event's expansion (as wire JSON) and diagnostic
codes are what the rule says. tests/test_chunks_client.py checks the same function
against the published client on seeded streams.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from chunk_cases import (
    RULES,
    SA,
    SB,
    STEP,
    call_args,
    call_end,
    call_start,
    content,
    end,
    start,
    text,
    tool,
)

from a2ui_stream._wire import events as ev
from a2ui_stream._wire.chunks import CHUNK_EVENTS, OpenChunk, OpenChunks, expand
from a2ui_stream._wire.codec import encode_event, read_event
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity

JSON = Any


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
