"""A real agent adapter through the session: ag-ui-strands, its model a script, on 127.0.0.1.

The adapter is tests/strands_agent.py's (its own venv, installed once). With the
session's default request it injects ``generate_a2ui``, whose sub-agent streams
``render_a2ui``: the surface is drawn from those tool calls. The second turn sends the
thread's history back, tool calls and results included, and the adapter, which reads
it with its own models, must accept it and answer.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from strands_agent import strands_agent

from a2ui_stream import events as ev
from a2ui_stream.client import AgentSession

if TYPE_CHECKING:
    from a2ui_stream import PartDiff

CARD = {
    "surfaceId": "greeting",
    "components": [
        {"id": "root", "component": "Column", "children": ["hello", "who"]},
        {"id": "hello", "component": "Text", "text": "Hello"},
        {"id": "who", "component": "Text", "text": {"path": "/name"}},
    ],
    "data": {"name": "Ada"},
}
DRAWN = {
    "$type": "Col",
    "children": [
        {"$type": "Markdown", "value": "Hello"},
        {"$type": "Markdown", "value": "Ada"},
    ],
}
#: The model's calls over two runs: draw through the sub-agent, then answer in text.
TURNS: list[dict[str, Any]] = [
    {"tool": "generate_a2ui", "input": {"intent": "create", "changes": "a greeting card"}},
    {"tool": "render_a2ui", "input": CARD, "chunk": 9},
    {"text": "Here is your card."},
    {"text": "You are welcome."},
]
CONSOLE_SCRIPT = Path(sys.executable).parent / "a2ui-stream"


def test_a_conversation_with_a_real_adapter() -> None:
    """Turn one draws through the adapter's tool calls; turn two's history is accepted."""
    with strands_agent(TURNS) as url:

        async def main() -> tuple[list[PartDiff], list[PartDiff], AgentSession]:
            async with AgentSession(url, timeout=60) as session:
                first = [diff async for diff in session.send("Draw me a greeting card")]
                second = [diff async for diff in session.send("Thanks!")]
                return first, second, session

        first, second, session = anyio.run(main)
    assert [(d.op, d.surface_id) for d in first][:1] == [("add", "greeting")]
    assert session.state.runs[0].parts["greeting"].args == DRAWN
    assert second == []  # a text answer draws nothing
    calls = [
        call.function.name
        for message in session.messages
        if isinstance(message, ev.AssistantMessage)
        for call in message.tool_calls or ()
    ]
    assert "generate_a2ui" in calls  # the adapter's own call, kept and sent back
    said = [m.content for m in session.messages if isinstance(m, ev.AssistantMessage)]
    assert "You are welcome." in said  # turn two was accepted and answered
    assert [run.status for run in session.state.runs] == ["finished", "finished"]


def test_run_command_draws_from_a_real_adapter() -> None:
    """`a2ui-stream run URL --final` shows the surface the adapter drew."""
    with strands_agent(TURNS[:3]) as url:
        done = subprocess.run(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "run", url, "-m", "Draw me a greeting card", "--final"],
            capture_output=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert b'"surfaceId":"greeting"' in done.stdout
    assert b'{"$type":"Markdown","value":"Ada"}' in done.stdout


#: The card with a Book button whose action carries the bound name.
BOOKING: dict[str, Any] = {
    **CARD,
    "components": [
        {"id": "root", "component": "Column", "children": ["hello", "who", "book"]},
        {"id": "hello", "component": "Text", "text": "Hello"},
        {"id": "who", "component": "Text", "text": {"path": "/name"}},
        {"id": "label", "component": "Text", "text": "Book"},
        {
            "id": "book",
            "component": "Button",
            "child": "label",
            "action": {"event": {"name": "book", "context": {"who": {"path": "/name"}}}},
        },
    ],
}
#: Draw the card, then tell what the model was told: after the turn, after the press.
ECHOES: list[dict[str, Any]] = [
    {"tool": "generate_a2ui", "input": {"intent": "create", "changes": "a booking card"}},
    {"tool": "render_a2ui", "input": BOOKING, "chunk": 40},
    {"echo": True},
    {"echo": True},
]


def test_a_press_reaches_the_adapter_only_as_text() -> None:
    """ag-ui-strands reads no forwardedProps.a2uiAction: with press_text the model is told.

    With ``press_text=False`` the model is prompted with the last turn again, as if
    nothing was pressed; by default the session sends the text, as no activity came.
    """

    async def press(url: str, *, press_text: bool | None) -> list[str]:
        async with AgentSession(url, timeout=60, press_text=press_text) as session:
            [_ async for _ in session.send("Draw me a booking card")]
            (part,) = session.parts
            action = part.args["children"][2]["$action"]
            [_ async for _ in session.press(action, input={"seats": "2"})]
            assert session.run_input is not None
            assert session.run_input.forwarded_props["a2uiAction"]["userAction"]["name"] == "book"
            return [
                m.content
                for m in session.messages
                if isinstance(m, ev.AssistantMessage) and isinstance(m.content, str) and m.content
            ]

    with strands_agent(ECHOES * 3) as url:
        unheard = anyio.run(lambda: press(url, press_text=False))
        heard = anyio.run(lambda: press(url, press_text=True))
        # By default too: the adapter draws through tool calls, never activity.
        by_default = anyio.run(lambda: press(url, press_text=None))
    assert unheard == ["You said: Draw me a booking card"] * 2
    told = (
        "You said: [A2UI Action] name=book, surfaceId=greeting, sourceComponentId=book, "
        'context={"who":"Ada","seats":"2"}'
    )
    assert heard == by_default == ["You said: Draw me a booking card", told]
