"""Chunk events end to end: render calls sent as TOOL_CALL_CHUNKs draw, chunked text is kept.

The streams of the tool-carrier differential test (tests/carrier_cases.py) are sent
again with every tool call as ``TOOL_CALL_CHUNK`` events, and must draw exactly what
their start, arguments and end events draw: the same diffs, each at the seq of the
chunk that stands for the event that caused it, the same parts and lifecycles, the
same diagnostics. The log keeps the chunks as they came, and replaying it gives the
same again. A live session's history keeps chunked assistant text.
"""

from __future__ import annotations

import json
import random
from typing import Any

import anyio
import pytest
from carrier_cases import generate_case
from sdk_agent import SdkAgent, Turn

from a2ui_stream import MemoryLog, Processor, replay
from a2ui_stream import events as ev
from a2ui_stream._wire.chunks import OpenChunks, expand
from a2ui_stream._wire.codec import encode_event, read_event
from a2ui_stream._wire.codes import Code
from a2ui_stream.client import AgentSession, ThreadHistory

JSON = Any
CARD = {
    "surfaceId": "greeting",
    "components": [{"id": "root", "component": "Text", "text": {"path": "/name"}}],
    "data": {"name": "Ada"},
}


SEEDS = range(60)


def chunked(events: list[JSON], rng: random.Random) -> tuple[list[JSON], list[int]]:
    """The stream with its tool calls as chunks, and where each event's effect now lands.

    A start becomes a first chunk (with the first arguments, sometimes); arguments
    become chunks without an id (with it, sometimes); an end is left out, to be made by
    the next event that ends the call. ``where[i]`` is the index of the event of the new
    stream whose expansion holds the original event ``i``.
    """
    out: list[JSON] = []
    where: list[int] = []
    ends: list[int] = []  # ends waiting for the next event
    merge = False
    for index, event in enumerate(events):
        kind = event["type"]
        if kind == "TOOL_CALL_END":
            ends.append(index)
            where.append(-1)
            continue
        if kind == "TOOL_CALL_START":
            chunk = {**event, "type": "TOOL_CALL_CHUNK"}
            following = events[index + 1] if index + 1 < len(events) else {}
            merge = following.get("type") == "TOOL_CALL_ARGS" and rng.random() < 0.5
        elif kind == "TOOL_CALL_ARGS":
            chunk = {"type": "TOOL_CALL_CHUNK", "delta": event["delta"]}
            if rng.random() < 0.2:
                chunk["toolCallId"] = event["toolCallId"]
            if merge:  # the first arguments ride on the first chunk
                out[-1]["delta"] = event["delta"]
                where.append(len(out) - 1)
                merge = False
                continue
        else:
            chunk = event
        merge = merge and kind == "TOOL_CALL_START"
        out.append(chunk)
        for end in ends:
            where[end] = len(out) - 1
        ends.clear()
        where.append(len(out) - 1)
    assert not ends  # every carrier case ends with RUN_FINISHED, which ends any call
    return out, where


def stream(seed: int) -> list[JSON]:
    return [event for run in generate_case(seed)["runs"] for event in run["events"]]


def normalized(events: list[JSON]) -> list[JSON]:
    decoded = [read_event(event)[0] for event in events]
    return [json.loads(encode_event(event)) for event in decoded if event is not None]


def jsonl(events: list[JSON]) -> bytes:
    return b"".join(json.dumps(event).encode() + b"\n" for event in events)


def drawn(events: list[JSON], *, log: MemoryLog | None = None) -> JSON:
    """What a processor fed the stream's bytes draws (without a log: its fast path)."""
    processor = Processor(log=log)
    diffs = processor.feed(jsonl(events))
    diffs += processor.close()
    return {
        "diffs": [(d.seq, d.op, d.tool_call_id, d.message_id, d.surface_id, d.args) for d in diffs],
        "runs": [
            (
                [(p.surface_id, p.message_id, p.args) for p in run.parts.values()],
                {key: (v.phase, v.content) for key, v in run.lifecycles.items()},
            )
            for run in processor.state.runs
        ],
        "diagnostics": [(d.seq, d.code) for d in processor.take_diagnostics()],
    }


def moved(result: JSON, where: list[int]) -> JSON:
    """A result of the original stream, with each seq where the chunked stream has it."""
    return {
        "diffs": [(where[seq], *rest) for seq, *rest in result["diffs"]],
        "runs": result["runs"],
        "diagnostics": [(where[seq], code) for seq, code in result["diagnostics"]],
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_chunked_render_calls_draw_as_streamed_ones(seed: int) -> None:
    """Sent as chunks, a stream's tool calls draw the same, event for event."""
    events = stream(seed)
    chunks, where = chunked(events, random.Random(seed))
    # The chunks expand back into the very events they were made from.
    streams: OpenChunks = ()
    expanded: list[ev.Event] = []
    for wire in chunks:
        event, _ = read_event(wire)
        assert event is not None
        streams, more, found = expand(streams, event)
        assert found == ()
        expanded.extend(more)
    assert [json.loads(encode_event(e)) for e in expanded] == normalized(events)
    ours = drawn(chunks)
    assert ours == moved(drawn(events), where)
    # With a log (the processor's other path) the same; the log keeps the chunks as
    # they came, and replaying it gives the same diffs again.
    log = MemoryLog()
    assert drawn(chunks, log=log) == ours
    assert [json.loads(line) for _, line in log.read(0)] == normalized(chunks)
    replayed = [
        (d.seq, d.op, d.tool_call_id, d.message_id, d.surface_id, d.args)
        for r in replay(log)
        for d in r.diffs
    ]
    assert replayed == ours["diffs"]


def test_the_chunked_streams_draw() -> None:
    """The comparison above is not of empty results: most of its streams draw."""
    drawing = sum(bool(drawn(stream(seed))["diffs"]) for seed in SEEDS)
    assert drawing >= len(SEEDS) * 2 // 3, drawing


def test_readme_render_call_as_chunks() -> None:
    """The README's render call, sent as chunks, paints at the chunks that close its parts."""
    arguments = json.dumps(CARD)
    events: list[JSON] = [
        {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "c1", "toolCallName": "render_a2ui"},
        *(
            {"type": "TOOL_CALL_CHUNK", "delta": arguments[i : i + 16]}
            for i in range(0, len(arguments), 16)
        ),
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
    ]
    processor = Processor()
    diffs = processor.feed(jsonl(events))
    processor.close()
    assert [(d.op, d.args) for d in diffs] == [
        ("add", {"$type": "Markdown", "value": ""}),
        ("update", {"$type": "Markdown", "value": "Ada"}),
    ]
    closes = [
        i for i, e in enumerate(events) if "]" in e.get("delta", "") or "}" in e.get("delta", "")
    ]
    assert {d.seq for d in diffs} <= set(closes)
    assert processor.state.current is not None
    assert processor.state.current.lifecycles["a2ui-surface-c1"].phase == "painted"
    assert processor.state.chunks == ()  # RUN_FINISHED ended the call
    assert processor.take_diagnostics() == []


def test_a_chunk_that_cannot_be_expanded_is_reported_where_it_is() -> None:
    """A first chunk without an id: an ERROR at its line and seq; the rest still draws."""
    arguments = json.dumps(CARD)
    events = [
        {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
        {"type": "TOOL_CALL_CHUNK", "toolCallName": "render_a2ui", "delta": "{"},
        {
            "type": "TOOL_CALL_CHUNK",
            "toolCallId": "c1",
            "toolCallName": "render_a2ui",
            "delta": arguments,
        },
    ]
    processor = Processor()
    diffs = processor.feed(jsonl(events))
    (problem,) = processor.take_diagnostics()
    assert (problem.code, problem.seq, problem.line) == (Code.CHUNK_NO_ID, 1, 2)
    assert diffs[-1].args == {"$type": "Markdown", "value": "Ada"}
    assert {d.seq for d in diffs} == {2}


@pytest.mark.parametrize(
    "other",
    [
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c9", "delta": "{}"},  # a call nobody draws
    ],
    ids=lambda e: e["type"],
)
def test_an_open_chunk_stream_is_ended_by_an_event_that_draws_nothing(other: JSON) -> None:
    """Events skipped otherwise still end open calls: malformed arguments are judged there."""
    start = {"type": "TOOL_CALL_CHUNK", "toolCallId": "c1", "toolCallName": "render_a2ui"}
    events = [start, {"type": "TOOL_CALL_CHUNK", "delta": "{x"}, other]
    for log in (None, MemoryLog()):
        processor = Processor(log=log)
        processor.feed(jsonl(events))
        found = [(d.seq, d.code) for d in processor.take_diagnostics()]
        assert found == [(2, "tool.args_malformed")]
        assert processor.state.chunks == ()


class TestThreadHistory:
    def test_a_chunk_stream_reopened_continues_its_message(self) -> None:
        """Text chunks on a message the history holds add to it, as the client applies them."""
        history = ThreadHistory()
        for event in (
            ev.TextMessageChunk(message_id="a1", delta="Hel"),
            ev.ToolCallStart(tool_call_id="c1", tool_call_name="f", parent_message_id="a1"),
            ev.TextMessageChunk(message_id="a1", delta="lo"),
        ):
            history.apply(event)
        assert history.messages == (
            ev.AssistantMessage(
                id="a1",
                content="Hello",
                tool_calls=[ev.ToolCall(id="c1", function=ev.FunctionCall(name="f", arguments=""))],
            ),
        )

    def test_an_explicit_start_still_restarts(self) -> None:
        """A TEXT_MESSAGE_START on a held id begins its text again, as before chunks."""
        history = ThreadHistory()
        for event in (
            ev.TextMessageChunk(message_id="a1", delta="old"),
            ev.TextMessageStart(message_id="a1"),
            ev.TextMessageContent(message_id="a1", delta="new"),
        ):
            history.apply(event)
        assert history.messages == (ev.AssistantMessage(id="a1", content="new"),)

    def test_chunks_in_two_lanes(self) -> None:
        """Sub-agents' chunk streams assemble side by side, each into its message."""
        history = ThreadHistory()
        for event in (
            ev.TextMessageChunk(message_id="a1", delta="one ", subagent_run_id="sa"),
            ev.TextMessageChunk(message_id="b1", delta="two ", subagent_run_id="sb"),
            ev.TextMessageChunk(delta="three", subagent_run_id="sa"),
        ):
            history.apply(event)
        assert history.messages == (
            ev.AssistantMessage(id="a1", content="one three"),
            ev.AssistantMessage(id="b1", content="two "),
        )


def test_chunked_text_and_render_call_in_a_live_session() -> None:
    """Over HTTP from the official SDK: chunked text lands in the history, chunks draw."""
    arguments = json.dumps(CARD)
    turn = Turn(
        [
            {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
            {
                "type": "TEXT_MESSAGE_CHUNK",
                "messageId": "a1",
                "role": "assistant",
                "delta": "Here ",
            },
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "you go."},
            {
                "type": "TOOL_CALL_CHUNK",
                "toolCallId": "c1",
                "toolCallName": "render_a2ui",
                "parentMessageId": "a1",
                "delta": arguments[:20],
            },
            {"type": "TOOL_CALL_CHUNK", "delta": arguments[20:]},
            {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
        ]
    )
    with SdkAgent([turn]) as agent:

        async def main() -> tuple[list[Any], tuple[ev.Message, ...]]:
            async with AgentSession(agent.url, thread_id="t1", timeout=10) as session:
                diffs = [diff async for diff in session.send("Draw a card")]
                return diffs, session.messages

        diffs, messages = anyio.run(main)
    assert [(d.op, d.args) for d in diffs] == [
        ("add", {"$type": "Markdown", "value": ""}),
        ("update", {"$type": "Markdown", "value": "Ada"}),
    ]
    assert messages[1:] == (
        ev.AssistantMessage(
            id="a1",
            content="Here you go.",
            tool_calls=[
                ev.ToolCall(
                    id="c1", function=ev.FunctionCall(name="render_a2ui", arguments=arguments)
                )
            ],
        ),
    )
