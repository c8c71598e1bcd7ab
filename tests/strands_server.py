"""A real ag-ui-strands agent on 127.0.0.1, its model a script: run by tests/strands_agent.py.

Runs in the peer venv (ag-ui-strands, strands-agents, fastapi, uvicorn), never in the
test environment, and imports nothing of a2ui_stream. Usage::

    python strands_server.py TURNS_JSON

``TURNS_JSON`` is a JSON list of the model's turns, played in order, one per call
the adapter makes to the model (the agent's own calls and its A2UI sub-agent's):
``{"text": "..."}`` answers in text; ``{"tool": NAME, "input": {...}, "chunk": N}``
calls a tool, its JSON input streamed in N-character pieces, when the run offers it
(otherwise the turn answers in text). A call past the last turn answers "(no more)".
The server prints ``PORT <n>`` once it listens, and stops on SIGTERM.
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
        messages: Any,  # noqa: ARG002 - the script answers whatever was said
        tool_specs: Any = None,
        system_prompt: Any = None,  # noqa: ARG002
        **kwargs: Any,  # noqa: ARG002
    ) -> Any:
        """Play the next turn as Bedrock-style stream events.

        A turn calling a tool the run did not offer is answered in text instead, as a
        real model would have to: it cannot call what it was not given.
        """
        turn = self.turns[self.calls] if self.calls < len(self.turns) else {"text": "(no more)"}
        self.calls += 1
        offered = {spec.get("name") for spec in tool_specs or ()}
        if "tool" in turn and turn["tool"] not in offered:
            turn = {"text": f"I have no {turn['tool']} tool, so here is text."}
        yield {"messageStart": {"role": "assistant"}}
        if "tool" in turn:
            text = json.dumps(turn["input"])
            chunk = max(int(turn.get("chunk", 40)), 1)
            start = {"toolUse": {"toolUseId": f"tool-{self.calls}", "name": turn["tool"]}}
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


def main() -> None:
    """Serve the agent on a free loopback port and say which."""
    turns = json.loads(sys.argv[1])
    model = ScriptedModel(turns)
    agent = Agent(model=model, system_prompt="You are a helpful assistant.", callback_handler=None)
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
