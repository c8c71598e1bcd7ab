"""A request round trip: ask an agent to draw, read its surfaces, send a press back.

Run it with ``python examples/request_round_trip.py``. It does no networking: it prints
the JSON a client would POST to an AG-UI endpoint. The middle step reads the
agent's response stream through a :class:`~a2ui_stream.Processor`; here the bundled
recording stands in for the HTTP response body.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream import A2uiRequest, Part, Processor, action_message, basic_catalog, build_run_input

if TYPE_CHECKING:
    from collections.abc import Iterable

#: The agent's response stream: a recording bundled with the repository.
RECORDING = Path(__file__).with_name("recording.jsonl")


def first_request(request: A2uiRequest, history: list[dict[str, Any]]) -> bytes:
    """Step 1: the run input that lets the agent draw, as the JSON body to POST."""
    run = build_run_input(request, thread_id="thread-1", run_id="run-1", messages=history)
    return msgspec.json.encode(run)


def read_response(chunks: Iterable[bytes]) -> list[Part]:
    """Step 2: process the response stream (any chunking) into the surfaces it drew."""
    processor = Processor()
    for chunk in chunks:
        processor.feed(chunk)  # each call returns the part diffs a live UI would apply
    processor.close()
    return [part for run in processor.state.runs for part in run.parts.values()]


def pressable_actions(parts: Iterable[Part]) -> list[dict[str, Any]]:
    """Every ``$action`` in the parts' element trees, in document order."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [part.args for part in reversed(list(parts))]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            action = node.get("$action")
            if isinstance(action, dict) and action.get("type") == "a2ui:action":
                found.append(action)
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return found


def press(request: A2uiRequest, history: list[dict[str, Any]], action: dict[str, Any]) -> bytes:
    """Step 3: the next run input, carrying the user's press to the agent."""
    run = build_run_input(
        request, thread_id="thread-1", run_id="run-2", messages=history, action=action
    )
    return msgspec.json.encode(run)


def main() -> None:
    """Print the two run inputs and, for agents that take A2UI directly, the message."""
    request = A2uiRequest(basic_catalog("v0.9"))
    history: list[dict[str, Any]] = [{"role": "user", "id": "u1", "content": "Find a hotel"}]

    body = json.loads(first_request(request, history))
    print("run 1 context:", [entry["description"] for entry in body["context"]])
    print("run 1 forwardedProps:", body["forwardedProps"])

    data = RECORDING.read_bytes()
    parts = read_response(data[i : i + 512] for i in range(0, len(data), 512))
    print("surfaces drawn:", [part.surface_id for part in parts])
    actions = pressable_actions(parts)
    print("pressable:", [action["name"] for action in actions])

    # What the client's transcript now holds: the agent's reply, the surface it showed
    # as our own a2ui: part, and the activity it arrived in. Only the reply goes back.
    history += [
        {
            "role": "assistant",
            "id": "a1",
            "content": "Here is one.",
            "toolCalls": [
                {
                    "id": "a2ui:flights",
                    "type": "function",
                    "function": {"name": "present", "arguments": "{}"},
                }
            ],
        },
        {"role": "activity", "id": "x1", "activityType": "a2ui-surface", "content": {}},
    ]
    clicked = {**actions[0], "$input": {"nights": "3"}}
    body = json.loads(press(request, history, clicked))
    print("run 2 messages:", body["messages"])
    print("run 2 forwardedProps:", json.dumps(body["forwardedProps"], indent=2))
    now = dt.datetime.now(dt.UTC)
    print("as an A2UI message:", action_message(clicked, now=lambda: now))


if __name__ == "__main__":
    main()
