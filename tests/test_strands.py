"""End to end: a real ag-ui-strands agent on 127.0.0.1, drawing through tool calls only.

The adapter (ag-ui-strands 1.0.2 with strands-agents 1.62.0, in its own venv) serves a
scripted model; the run body comes from ``build_run_input``. With the request side's
additions the adapter injects ``generate_a2ui``, whose sub-agent streams ``render_a2ui``,
and the processor draws the surface from those tool calls (there is no activity in
the stream). Without them the model is offered no A2UI tool and nothing draws.
"""

from __future__ import annotations

from typing import Any

import msgspec
from strands_agent import post_run, strands_agent

from a2ui_stream import A2uiRequest, Processor, basic_catalog, build_run_input
from a2ui_stream.events import RunAgentInput, UserMessage

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
HISTORY = [{"role": "user", "id": "u1", "content": "Draw me a greeting card"}]


def drawn(body: RunAgentInput) -> tuple[Processor, bytes]:
    with strands_agent(TURNS) as url:
        response = post_run(url, msgspec.json.encode(body))
    processor = Processor()
    processor.feed(response)
    processor.close()
    return processor, response


def test_a_run_built_with_the_request_side_draws() -> None:
    request = A2uiRequest(basic_catalog("v0.9"))
    body = build_run_input(request, thread_id="t1", run_id="r1", messages=HISTORY)
    processor, response = drawn(body)
    assert b"ACTIVITY_SNAPSHOT" not in response  # tool carriers only
    assert response.count(b"MESSAGES_SNAPSHOT") >= 2
    run = processor.state.current
    assert run is not None
    assert run.status == "finished"
    assert [(p.surface_id, p.args) for p in run.parts.values()] == [
        (
            "greeting",
            {
                "$type": "Col",
                "children": [
                    {"$type": "Markdown", "value": "Hello"},
                    {"$type": "Markdown", "value": "Ada"},
                ],
            },
        )
    ]
    [part] = run.parts.values()
    assert part.message_id.startswith("a2ui-surface-")  # filed under generate_a2ui's call
    assert run.lifecycles[part.message_id].phase == "painted"
    assert processor.state.history == ()  # the repeated snapshots are this run's, not history
    assert processor.take_diagnostics() == []


def test_the_same_run_without_the_request_side_draws_nothing() -> None:
    user = UserMessage(id="u1", content="Draw me a greeting card")
    body = RunAgentInput(thread_id="t1", run_id="r1", messages=[user])
    processor, response = drawn(body)
    assert b"TOOL_CALL_START" not in response
    assert b"I have no generate_a2ui tool" in response
    run = processor.state.current
    assert run is not None
    assert run.status == "finished"
    assert not run.parts
    assert not run.lifecycles
