"""Tool carriers as a real ag-ui-strands agent streams them: several calls in one turn.

A model that calls several tools in one turn gets each call streamed by ag-ui-strands
in an assistant message of its own (a fresh ``parentMessageId`` each), every backend
result only once all the turn's calls have streamed, and the calls of the A2UI
sub-agent (inside ``generate_a2ui``) naming no message at all. The real adapter (its
own venv, tests/strands_agent.py) serves a scripted model on 127.0.0.1; what it
streams goes straight into a Processor, and through the real ``@ag-ui/a2ui-middleware``
0.0.10 (tests/node/a2ui_middleware_replay.mjs) and then the real assistant-ui client
(tests/upstream_client.py) for comparison.

The middleware files every drawing made while a call is open under that call's
messageId, so each replaces the one before: of a turn that draws four surfaces it
keeps one. Here every drawing of the agent's own calls keeps its own messageId (the
README's "Tool carriers" row); a sub-agent's drawings stay filed under its wrapper.
And the assistant-ui client behind the middleware drops even the one it kept once the
adapter's ``MESSAGES_SNAPSHOT`` follows a closing text (the "Text messages in a run"
row): the TypeScript stack shows a Strands agent's surfaces only until it speaks again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from installed_peers import node_peer, run_node
from strands_agent import post_run, strands_agent
from upstream_client import UpstreamClient

from a2ui_stream import A2uiRequest, Processor, basic_catalog, build_run_input

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

README = Path(__file__).resolve().parents[1] / "README.md"
PEERS = ["@ag-ui/a2ui-middleware@0.0.10", "@ag-ui/client@1.0.0", "rxjs@7.8.1"]
USER = [{"role": "user", "id": "u1", "content": "Show me my trips"}]
RENDER_TOOL = {
    "name": "render_a2ui",
    "description": "Render an A2UI surface",
    "parameters": {
        "type": "object",
        "properties": {
            "surfaceId": {"type": "string"},
            "components": {"type": "array"},
            "data": {"type": "object"},
        },
        "required": ["surfaceId", "components"],
    },
}


def card(surface_id: str, title: str) -> dict[str, Any]:
    """Render arguments: a titled card whose second line is bound to the data."""
    return {
        "surfaceId": surface_id,
        "components": [
            {"id": "root", "component": "Column", "children": ["title", "who"]},
            {"id": "title", "component": "Text", "text": title},
            {"id": "who", "component": "Text", "text": {"path": "/name"}},
        ],
        "data": {"name": f"{title} \u00e9\U0001f600"},
    }


def envelope(surface_id: str, title: str) -> str:
    """A backend tool's answer: the toolkit's ``a2ui_operations`` envelope."""
    arguments = card(surface_id, title)
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {"surfaceId": surface_id, "components": arguments["components"]},
        },
        {
            "version": "v0.9",
            "updateDataModel": {"surfaceId": surface_id, "path": "/", "value": arguments["data"]},
        },
    ]
    return json.dumps({"a2ui_operations": operations})


#: Backend tools, one answering as a text block and one as a JSON block (the adapter
#: unwraps both into the same result content).
TOOLS = {
    "flights": [{"text": envelope("flights", "Flights")}],
    "hotels": [{"json": json.loads(envelope("hotels", "Hotels"))}],
}


def stream(
    turns: Sequence[dict[str, Any]],
    body: bytes,
    tools: Mapping[str, Sequence[dict[str, Any]]] = TOOLS,
) -> list[dict[str, Any]]:
    """The events the real adapter streams for one run."""
    with strands_agent(turns, tools) as url:
        response = post_run(url, body)
    lines = response.decode().splitlines()
    return [json.loads(line.removeprefix("data: ")) for line in lines if line.startswith("data: ")]


def drawn(events: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The surfaces a Processor draws from the events, each with its messageId."""
    processor = Processor()
    processor.feed_events(list(events))
    processor.close()
    return {part.surface_id: part.message_id for part in processor.state.runs[-1].parts.values()}


def behind_middleware(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The run's events as the real middleware forwards them, its activity added."""
    folder = node_peer("a2ui-middleware", PEERS)
    run = {"runId": events[0]["runId"], "events": events}
    case = {"threadId": events[0]["threadId"], "runs": [run]}
    payload = json.dumps({"cases": [case]}).encode()
    emitted = json.loads(run_node(folder, "a2ui_middleware_replay.mjs", data=payload))
    behind: list[dict[str, Any]] = emitted["cases"][0]["runs"][0]
    return behind


def activity_of(behind: list[dict[str, Any]]) -> dict[str, str]:
    """What the middleware's activity alone draws."""
    kept = {"RUN_STARTED", "RUN_FINISHED", "ACTIVITY_SNAPSHOT"}
    return drawn([event for event in behind if event["type"] in kept])


@pytest.fixture(scope="module")
def parallel() -> list[dict[str, Any]]:
    """One turn calling two backend tools and the frontend render tool twice."""
    calls = [
        {"tool": "flights", "input": {"to": "Lisbon"}},
        {"tool": "hotels", "input": {"in": "Lisbon"}},
        {"tool": "render_a2ui", "input": card("summary", "Summary"), "chunk": 11},
        {"tool": "render_a2ui", "input": card("map", "Map"), "chunk": 7},
    ]
    body = {
        "threadId": "t1",
        "runId": "r1",
        "state": {},
        "messages": USER,
        "tools": [RENDER_TOOL],
        "context": [],
        "forwardedProps": {},
    }
    return stream([{"calls": calls}, {"text": "Done."}], json.dumps(body).encode())


def test_a_turn_of_several_calls_draws_every_surface(parallel: list[dict[str, Any]]) -> None:
    """Two backend results and two render calls of one turn: four surfaces, each its own."""
    starts = [e for e in parallel if e["type"] == "TOOL_CALL_START"]
    assert [e["toolCallName"] for e in starts] == ["flights", "hotels", *["render_a2ui"] * 2]
    assert len({e["parentMessageId"] for e in starts}) == 4  # a message per call
    keys = [f"a2ui-surface-{e['toolCallId']}" for e in starts]
    assert drawn(parallel) == dict(zip(["flights", "hotels", "summary", "map"], keys, strict=True))


def test_the_middleware_keeps_one_of_them(parallel: list[dict[str, Any]]) -> None:
    """The difference is real: behind the middleware each drawing replaced the last."""
    activity = activity_of(behind_middleware(parallel))
    assert len(activity) == 1
    assert set(activity) < set(drawn(parallel))


def test_a_sub_agents_render_beside_a_backend_result() -> None:
    """``generate_a2ui`` and a backend tool in one turn: the sub-agent's surface and the
    tool's both stay; the middleware lets the tool's result replace the sub-agent's."""
    request = A2uiRequest(basic_catalog("v0.9"))
    body = msgspec.json.encode(build_run_input(request, thread_id="t2", run_id="r1", messages=USER))
    calls = [
        {"tool": "flights", "input": {"to": "Lisbon"}},
        {"tool": "generate_a2ui", "input": {"intent": "create", "changes": "a trip card"}},
    ]
    turns: list[dict[str, Any]] = [
        {"calls": calls},
        {"tool": "render_a2ui", "input": card("trip", "Trip")},
        {"text": "."},
    ]
    events = stream(turns, body)
    starts = {e["toolCallName"]: e for e in events if e["type"] == "TOOL_CALL_START"}
    assert "parentMessageId" not in starts["render_a2ui"]  # the sub-agent's call
    outer, flights = starts["generate_a2ui"]["toolCallId"], starts["flights"]["toolCallId"]
    assert drawn(events) == {
        "trip": f"a2ui-surface-{outer}",  # filed under its wrapper, as upstream
        "flights": f"a2ui-surface-{flights}",
    }
    assert activity_of(behind_middleware(events)) == {"flights": f"a2ui-surface-{outer}"}


@pytest.fixture(scope="module")
def answered() -> list[dict[str, Any]]:
    """One turn calling both backend tools, then a closing text."""
    calls = [{"tool": "flights", "input": {"to": "Porto"}}, {"tool": "hotels", "input": {}}]
    body = build_run_input(None, thread_id="t3", run_id="r1", messages=USER)
    return stream([{"calls": calls}, {"text": "Done."}], msgspec.json.encode(body))


def test_the_typescript_stack_shows_none_of_them(answered: list[dict[str, Any]]) -> None:
    """Behind the middleware, the assistant-ui client loses even the surface it drew: the
    adapter's ``MESSAGES_SNAPSHOT`` after the closing text replaces the message that
    held it (the README's "Text messages in a run" row). Ours keeps both."""
    assert drawn(answered) == {
        name: f"a2ui-surface-{e['toolCallId']}"
        for e in answered
        if e["type"] == "TOOL_CALL_START" and (name := e["toolCallName"]) in TOOLS
    }
    behind = behind_middleware(answered)
    assert len(activity_of(behind)) == 1  # the middleware's own defect first
    (theirs,) = UpstreamClient.install().replay([behind])
    shown = [part for run in theirs.runs for part in run.parts]
    shown += [part for _, parts in theirs.history for part in parts]
    assert shown == []
    assert set(drawn(behind)) == set(TOOLS)
    assert "a Strands run that says something after drawing" in README.read_text("utf-8")
