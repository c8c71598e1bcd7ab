"""Test helper: seeded AG-UI streams that exercise the chunk expansion rules.

Each case is a list of wire-form events: text, tool-call and reasoning chunks (with and
without their ids, tagged with sub-agent lanes or not, repeating or contradicting what
opened their stream, with metadata, raw events, undeclared fields and timestamps)
interleaved with every other kind of event, each of which may close a lane or pass.
The pools are small on purpose, so that continuations, reopenings, several open lanes,
mismatches and ambiguities all happen. Every event is valid for our decoder: nothing
is dropped before the expansion sees it.

``generate_case(seed)`` depends on the seed alone.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["generate_case"]

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
