"""A real ag-ui-strands agent on 127.0.0.1, its model a script: run by tests/strands_agent.py.

Runs in the peer venv (ag-ui-strands, strands-agents, fastapi, uvicorn), never in the
test environment, and imports nothing of a2ui_stream. Usage::

    python strands_server.py TURNS_JSON [TOOLS_JSON]

``TURNS_JSON`` is a JSON list of the model's turns, played in order, one per call
the adapter makes to the model (the agent's own calls and its A2UI sub-agent's):
``{"text": "..."}`` answers in text; ``{"tool": NAME, "input": {...}, "chunk": N}``
calls a tool, its JSON input streamed in N-character pieces, when the run offers it
(otherwise the turn answers in text); ``{"calls": [{"tool", "input", "chunk"}, ...]}``
calls several tools in one turn, as a model calling tools in parallel does;
``{"echo": true}`` answers with the text of the last user turn the model was given, so
a test sees what reached it. A call past the last turn answers "(no more)".
``TOOLS_JSON`` (default ``{}``) gives the agent backend tools: ``{NAME: [content block,
...]}``, each tool answering every call with those Strands content blocks (``{"text":
...}``, ``{"json": ...}``). The server prints ``PORT <n>`` once it listens, and stops
on SIGTERM.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

import uvicorn
from ag_ui_strands import StrandsAgent, add_strands_fastapi_endpoint
from fastapi import FastAPI
from strands import Agent
from strands.models.model import Model
from strands.tools.tools import PythonAgentTool


class ScriptedModel(Model):  # type: ignore[misc]  # the peer venv's class, untyped here
    """A Strands model that plays a fixed list of turns instead of calling a provider."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        """Keep the turns; each model call plays the next."""
        self.turns = list(turns)
        self.calls = 0

    def update_config(self, **model_config: Any) -> None:
        """Nothing to configure."""

    def get_config(self) -> dict[str, Any]:
        """Nothing configured."""
        return {}

    async def structured_output(self, *_args: Any, **_kwargs: Any) -> Any:
        """Not used by these runs."""
        raise NotImplementedError
        yield  # an async generator, as the base class declares

    async def stream(
        self,
        messages: Any,
        tool_specs: Any = None,
        system_prompt: Any = None,  # noqa: ARG002
        **kwargs: Any,  # noqa: ARG002
    ) -> Any:
        """Play the next turn as Bedrock-style stream events.

        A turn calling a tool the run did not offer is answered in text instead, as a
        real model would have to: it cannot call what it was not given.
        """
        turn: dict[str, Any] = (
            self.turns[self.calls] if self.calls < len(self.turns) else {"text": "(no more)"}
        )
        self.calls += 1
        offered = {spec.get("name") for spec in tool_specs or ()}
        calls = turn.get("calls") or ([turn] if "tool" in turn else [])
        missing = [call["tool"] for call in calls if call["tool"] not in offered]
        if missing:
            turn, calls = {"text": f"I have no {missing[0]} tool, so here is text."}, []
        if turn.get("echo"):
            turn = {"text": f"You said: {_last_user_text(messages)}"}
        yield {"messageStart": {"role": "assistant"}}
        if calls:
            for index, call in enumerate(calls):
                text = json.dumps(call["input"])
                chunk = max(int(call.get("chunk", 40)), 1)
                # One id per call, as before for a turn of one call.
                call_id = f"tool-{self.calls}" + (f"-{index}" if len(calls) > 1 else "")
                start = {"toolUse": {"toolUseId": call_id, "name": call["tool"]}}
                yield {"contentBlockStart": {"start": start}}
                for at in range(0, len(text), chunk):
                    piece = {"toolUse": {"input": text[at : at + chunk]}}
                    yield {"contentBlockDelta": {"delta": piece}}
                yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": turn["text"]}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}


def backend_tool(name: str, blocks: list[dict[str, Any]]) -> Any:
    """A backend tool that answers every call with the same content blocks."""

    def answer(tool_use: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
        return {"toolUseId": tool_use["toolUseId"], "status": "success", "content": blocks}

    answer.__name__ = name
    schema = {"json": {"type": "object"}}
    spec = {"name": name, "description": f"the backend tool {name}", "inputSchema": schema}
    return PythonAgentTool(name, spec, answer)


def _last_user_text(messages: Any) -> str:
    """The text blocks of the last user message in Strands' own message list."""
    for message in reversed(messages or ()):
        if message.get("role") == "user":
            texts = [block["text"] for block in message.get("content", ()) if "text" in block]
            if texts:
                return " ".join(texts)
    return "(nothing)"


def main() -> None:
    """Serve the agent on a free loopback port and say which."""
    turns = json.loads(sys.argv[1])
    tools = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    model = ScriptedModel(turns)
    agent = Agent(
        model=model,
        tools=[backend_tool(name, blocks) for name, blocks in tools.items()],
        system_prompt="You are a helpful assistant.",
        callback_handler=None,
    )
    app = FastAPI()
    add_strands_fastapi_endpoint(app, StrandsAgent(agent, name="scripted"), "/")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)  # connections wait in the backlog until uvicorn accepts them
    print(f"PORT {listener.getsockname()[1]}", flush=True)  # noqa: T201 - the parent reads it
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[listener])


if __name__ == "__main__":
    main()
