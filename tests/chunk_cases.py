"""Test helper: seeded AG-UI streams that exercise the chunk expansion rules.

Each case is a list of wire-form events: text, tool-call and reasoning chunks (with and
without their ids, tagged with sub-agent lanes or not, repeating or contradicting what
opened their stream, with metadata, raw events, undeclared fields and timestamps)
interleaved with every other kind of event, each of which may close a lane or pass.
The pools are small on purpose, so that continuations, reopenings, several open lanes,
mismatches and ambiguities all happen. Every event is valid for our decoder: nothing
is dropped before the expansion sees it.

``generate_case(seed)`` depends on the seed alone. ``RULES`` holds one hand-written stream
per expansion rule, with what its last event must expand into (tests/test_chunks.py checks
them here, tests/test_chunks_client.py against the published client); the builders it is
written with (``text``, ``tool``, ``start``...) write one wire event each.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from a2ui_stream._wire.codes import Code

__all__ = ["RULES", "Rule", "generate_case"]

JSON = Any

#: Sub-agent lanes a chunk or event may be tagged with (``None``: untagged).
LANES: tuple[str | None, ...] = (None, None, None, "sa1", "sa2", "")
TEXT_IDS = ("m1", "m2", "m3", "")
TOOL_IDS = ("c1", "c2", "c3")
REASONING_IDS = ("r1", "r2")
ROLES = ("assistant", "assistant", "assistant", "user", "system", "developer")
DELTAS = ("", "Hel", "lo", " wörld", '{"surfaceId":', '"s1"}', "\u2603", "a\nb")
#: Fields no chunk declares. ``role`` is one only for a reasoning chunk (a text chunk
#: declares it, and our decoder ignores a role AG-UI does not define).
EXTRAS = ({"finishReason": "stop"}, {"x-trace": {"span": 3}})
REASONING_EXTRAS = (*EXTRAS, {"role": "x"})


def _maybe(rng: random.Random, chance: float) -> bool:
    return rng.random() < chance


def _tag(rng: random.Random, event: dict[str, JSON], chance: float = 0.3) -> dict[str, JSON]:
    """Tag an event with a lane, sometimes."""
    if _maybe(rng, chance):
        lane = rng.choice(LANES)
        if lane is not None:
            event["subagentRunId"] = lane
    return event


def _common(
    rng: random.Random, event: dict[str, JSON], extras: tuple[dict[str, JSON], ...] = EXTRAS
) -> dict[str, JSON]:
    """The base fields a chunk may carry beside its own."""
    if _maybe(rng, 0.1):
        event["metadata"] = {"usage": rng.randint(0, 9), "tag": rng.choice(["a", "b"])}
    if _maybe(rng, 0.08):
        event["rawEvent"] = rng.choice([{"provider": "x"}, "raw", 7, [1, "two"]])
    if _maybe(rng, 0.2):
        event["timestamp"] = rng.randint(0, 10**12)
    if _maybe(rng, 0.08):
        event.update(rng.choice(extras))
    return event


def _text_chunk(rng: random.Random, opening: bool) -> dict[str, JSON]:
    event: dict[str, JSON] = {"type": "TEXT_MESSAGE_CHUNK"}
    if opening:
        event["messageId"] = rng.choice(TEXT_IDS)
    if _maybe(rng, 0.06):
        event["role"] = rng.choice(ROLES)
    if _maybe(rng, 0.04):
        event["name"] = rng.choice(["n1", "n2"])
    if _maybe(rng, 0.8):
        event["delta"] = rng.choice(DELTAS)
    return _common(rng, event)


def _tool_chunk(rng: random.Random, opening: bool) -> dict[str, JSON]:
    event: dict[str, JSON] = {"type": "TOOL_CALL_CHUNK"}
    if opening:
        event["toolCallId"] = rng.choice(TOOL_IDS)
    if _maybe(rng, 0.97 if opening else 0.03):
        event["toolCallName"] = rng.choice(["render_a2ui", "search"])
    if _maybe(rng, 0.3 if opening else 0.02):
        event["parentMessageId"] = rng.choice(["m1", "m2"])
    if _maybe(rng, 0.8):
        event["delta"] = rng.choice(DELTAS)
    return _common(rng, event)


def _reasoning_chunk(rng: random.Random, opening: bool) -> dict[str, JSON]:
    event: dict[str, JSON] = {"type": "REASONING_MESSAGE_CHUNK"}
    if opening:
        event["messageId"] = rng.choice(REASONING_IDS)
    if _maybe(rng, 0.8):
        event["delta"] = rng.choice(DELTAS)
    return _common(rng, event, REASONING_EXTRAS)


def _text_id(rng: random.Random) -> str:
    return rng.choice(TEXT_IDS[:-1])


def _call_id(rng: random.Random) -> str:
    return rng.choice(TOOL_IDS)


#: Every other kind of event, as a builder; each may be tagged with a lane.
_OTHERS = (
    lambda rng: {"type": "TEXT_MESSAGE_START", "messageId": _text_id(rng), "role": "assistant"},
    lambda rng: {"type": "TEXT_MESSAGE_CONTENT", "messageId": _text_id(rng), "delta": "x"},
    lambda rng: {"type": "TEXT_MESSAGE_END", "messageId": _text_id(rng)},
    lambda rng: {"type": "TOOL_CALL_START", "toolCallId": _call_id(rng), "toolCallName": "f"},
    lambda rng: {"type": "TOOL_CALL_ARGS", "toolCallId": _call_id(rng), "delta": "{}"},
    lambda rng: {"type": "TOOL_CALL_END", "toolCallId": _call_id(rng)},
    lambda rng: {
        "type": "TOOL_CALL_RESULT",
        "messageId": "t1",
        "toolCallId": _call_id(rng),
        "content": "ok",
    },
    lambda _rng: {"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}},
    lambda _rng: {"type": "STATE_DELTA", "delta": []},
    lambda _rng: {"type": "CUSTOM", "name": "ping", "value": 1},
    lambda _rng: {"type": "STEP_STARTED", "stepName": "plan"},
    lambda _rng: {"type": "STEP_FINISHED", "stepName": "plan"},
    lambda rng: {"type": "REASONING_START", "messageId": rng.choice(REASONING_IDS)},
    lambda rng: {
        "type": "REASONING_MESSAGE_START",
        "messageId": rng.choice(REASONING_IDS),
        "role": "reasoning",
    },
    lambda rng: {
        "type": "REASONING_MESSAGE_CONTENT",
        "messageId": rng.choice(REASONING_IDS),
        "delta": "hm",
    },
    lambda rng: {"type": "REASONING_MESSAGE_END", "messageId": rng.choice(REASONING_IDS)},
    lambda rng: {"type": "REASONING_END", "messageId": rng.choice(REASONING_IDS)},
    lambda rng: {"type": "RUN_STARTED", "threadId": "t", "runId": f"run{rng.randint(0, 9)}"},
    lambda _rng: {"type": "RUN_FINISHED", "threadId": "t", "runId": "run0"},
    lambda _rng: {"type": "RUN_ERROR", "message": "boom"},
    lambda _rng: {"type": "MESSAGES_SNAPSHOT", "messages": []},
    lambda _rng: {"type": "RAW", "event": {"k": 1}},
    lambda _rng: {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": "act1",
        "activityType": "a2ui-surface",
        "content": {"a2ui_operations": []},
    },
    lambda _rng: {
        "type": "ACTIVITY_DELTA",
        "messageId": "act1",
        "activityType": "a2ui-surface",
        "patch": [],
    },
    lambda rng: {
        "type": "REASONING_ENCRYPTED_VALUE",
        "subtype": "message",
        "entityId": rng.choice(REASONING_IDS),
        "encryptedValue": "opaque",
    },
    lambda rng: {
        "type": "SUBAGENT_STARTED",
        "subagentRunId": rng.choice(["sa1", "sa2"]),
        "name": "helper",
    },
    # A sub-agent's terminal ends its lane; without its id it names none.
    lambda rng: {"type": "SUBAGENT_FINISHED", "subagentRunId": rng.choice(["sa1", "sa2", ""])},
    lambda _rng: {"type": "SUBAGENT_FINISHED"},
    lambda rng: {
        "type": "SUBAGENT_ERROR",
        "subagentRunId": rng.choice(["sa1", "sa2"]),
        "message": "failed",
    },
    lambda _rng: {"type": "THINKING_START", "title": "a type AG-UI 1.0 does not define"},
)
#: The builders whose event may carry a lane tag of its own.
_UNTAGGED = frozenset({"SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR", "THINKING_START"})


def _other(rng: random.Random) -> dict[str, JSON]:
    event: dict[str, JSON] = rng.choice(_OTHERS)(rng)
    return event if event["type"] in _UNTAGGED else _tag(rng, event, 0.25)


_CHUNKS = (_text_chunk, _tool_chunk, _reasoning_chunk)
_RUN_EVENTS = frozenset({"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"})


def generate_case(seed: int) -> list[dict[str, JSON]]:
    """One stream of 1 to 40 events, from ``seed`` alone.

    A rough guess of which lane has which kind open makes most chunks without an id
    continuations, so that a stream mostly runs on past its first few events; a few
    still name no id where nothing is open, contradict their opener or are ambiguous.
    """
    rng = random.Random(seed)
    events: list[dict[str, JSON]] = []
    guess: dict[str | None, int] = {}  # lane -> the kind of chunk stream likely open
    # Streams lean on one kind each, so that long continuations happen too.
    weights = [rng.random() + 0.2 for _ in range(3)]
    for _ in range(rng.randint(1, 40)):
        if _maybe(rng, 0.65):
            kind = rng.choices(range(3), weights)[0]
            lane = rng.choice(LANES) if _maybe(rng, 0.3) else None
            opening = _maybe(rng, 0.1 if guess.get(lane) == kind else 0.98)
            event = _CHUNKS[kind](rng, opening)
            key = "toolCallId" if kind == 1 else "messageId"
            if key in event and lane is not None and _maybe(rng, 0.9):
                event[key] += f"@{lane}"  # mostly ids of its own; sometimes another lane's
            # A continuation is usually untagged; an opener tagged as its lane.
            if lane is not None and (opening or _maybe(rng, 0.5)):
                event["subagentRunId"] = lane
            if opening:
                guess[lane] = kind
            events.append(event)
        else:
            event = _other(rng)
            if event["type"] in _RUN_EVENTS:
                guess.clear()
            else:
                guess.pop(event.get("subagentRunId"), None)
            events.append(event)
    return events


# -- one stream per rule ------------------------------------------------------------------


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
