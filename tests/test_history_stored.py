"""History restored from a thread ``@ag-ui/client`` stored without the middleware.

A real ag-ui-strands agent (tests/strands_agent.py) draws through its ``generate_a2ui``
sub-agent; its stream goes through the real ``@ag-ui/client`` 1.0.0 alone (no
middleware: tests/node/a2ui_middleware_replay.mjs with ``"middleware": false``), and
the thread it stores is restored with ``Reducer.rehydrate``. The client files a tool
result right after the message holding its call, so the wrapper's result, whose
envelope repeats the surface, comes before the message the client made for the
sub-agent's render call: read in that order, the surface was drawn twice. History must
draw what the live run drew, on the wrapper's message.

Two stored shapes of the same run: as the adapter streams it (its ``MESSAGES_SNAPSHOT``
events leave out the sub-agent's message), and without those snapshots, as from an
adapter that sends none (ag-ui-adk and CrewAI stream their sub-agent's calls naming no
message, too), where the sub-agent's message stays.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from installed_peers import node_peer, run_node
from strands_agent import post_run, strands_agent

from a2ui_stream import A2uiRequest, Processor, Reducer, basic_catalog, build_run_input
from a2ui_stream._wire.numbers import encode_json

PEERS = ["@ag-ui/a2ui-middleware@0.0.10", "@ag-ui/client@1.0.0", "rxjs@7.8.1"]
USER = {"role": "user", "id": "u1", "content": "Draw me a greeting card"}
CARD = {
    "surfaceId": "greeting",
    "components": [
        {"id": "root", "component": "Column", "children": ["hello", "who"]},
        {"id": "hello", "component": "Text", "text": "Hello"},
        {"id": "who", "component": "Text", "text": {"path": "/name"}},
    ],
    "data": {"name": "Ada"},
}
TURNS: list[dict[str, Any]] = [
    {"tool": "generate_a2ui", "input": {"intent": "create", "changes": "a greeting card"}},
    {"tool": "render_a2ui", "input": CARD, "chunk": 9},
    {"text": "Here is your card."},
]


def parts_of(parts: Any) -> list[tuple[str, str, bytes]]:
    """Each part's surfaceId, messageId and args, to compare runs and history."""
    return [(p.surface_id, p.message_id, encode_json(p.args)) for p in parts]


@pytest.fixture(scope="module")
def recorded() -> list[dict[str, Any]]:
    """One run of the real adapter drawing through its sub-agent."""
    request = A2uiRequest(basic_catalog("v0.9"))
    body = build_run_input(request, thread_id="t1", run_id="r1", messages=[USER])
    with strands_agent(TURNS) as url:
        response = post_run(url, msgspec.json.encode(body))
    lines = response.decode().splitlines()
    return [json.loads(line.removeprefix("data: ")) for line in lines if line.startswith("data: ")]


def stored(runs: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """The thread the real client stores for each stream, without the middleware."""
    folder = node_peer("a2ui-middleware", PEERS)
    cases = [
        {
            "threadId": "t1",
            "middleware": False,
            "messages": [USER],
            "runs": [{"runId": "r1", "events": events}],
        }
        for events in runs
    ]
    out = json.loads(
        run_node(folder, "a2ui_middleware_replay.mjs", data=json.dumps({"cases": cases}).encode())
    )
    assert [case["errors"] for case in out["cases"]] == [[None]] * len(runs)
    return [case["messages"] for case in out["cases"]]


def test_history_draws_what_the_live_run_drew(recorded: list[dict[str, Any]]) -> None:
    """Both stored shapes restore the run's one part, on the wrapper's message."""
    starts = {e["toolCallName"]: e for e in recorded if e["type"] == "TOOL_CALL_START"}
    outer, inner = starts["generate_a2ui"], starts["render_a2ui"]
    assert "parentMessageId" not in inner  # the sub-agent's call names no message
    processor = Processor()
    processor.feed_events(recorded)
    processor.close()
    live = parts_of(processor.state.runs[-1].parts.values())
    assert [part[:2] for part in live] == [("greeting", f"a2ui-surface-{outer['toolCallId']}")]

    quiet = [e for e in recorded if e["type"] != "MESSAGES_SNAPSHOT"]
    with_snapshots, without = stored([recorded, quiet])
    # Without snapshots the client keeps the sub-agent's message, after the result.
    order = [(m["role"], m.get("toolCallId") or m["id"]) for m in without]
    result_at = order.index(("tool", outer["toolCallId"]))
    assert order.index(("assistant", inner["toolCallId"])) == result_at + 1
    assert ("assistant", inner["toolCallId"]) not in [(m["role"], m["id"]) for m in with_snapshots]
    for messages in (with_snapshots, without):
        state, _, diagnostics = Reducer().rehydrate(messages)
        assert diagnostics == ()
        assert [(h.message_id, parts_of(h.parts)) for h in state.history] == [
            (outer["parentMessageId"], live)
        ]
