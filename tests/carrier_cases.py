"""Test helper: seeded AG-UI runs that draw only through tool carriers.

What the Python adapters send when no middleware stands in front of them: streamed
``render_a2ui`` arguments (random delta sizes, several key orders, valid and rejected
trees, repeated data), ``generate_a2ui`` wrapping inner render attempts with its
envelope or ``a2ui_recovery_exhausted`` result, backend tools returning
``a2ui_operations`` for one surface or several (sometimes encoded twice), and tools
whose results are not A2UI. Every run is valid AG-UI, so the real middleware's client
accepts it. Runs never open a render call beside an unanswered tool call (the
middleware's defect we do not copy; see test_carriers.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

__all__ = ["generate_case"]

_TYPES = ["Text", "Button", "Image", "Divider"]


class _Ids:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def _components(rng: random.Random, ids: _Ids) -> tuple[list[dict[str, Any]], str | None]:
    """A flat component list; the repeated-data path when it has a template."""
    roll = rng.random()
    leaves = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(_TYPES)
        leaf: dict[str, Any] = {"id": ids("c"), "component": kind}
        if kind == "Text":
            leaf["text"] = rng.choice(
                ["Hello", {"path": "/title"}, "Price \u20ac5", "caf\u00e9 \U0001f600"]
            )
        elif kind == "Button":
            leaf["label"] = "Go"
            leaf["action"] = {"event": {"name": "go", "context": {"n": 1}}}
        elif kind == "Image":
            leaf["url"] = "https://example.com/a.png"
        leaves.append(leaf)
    path = None
    root: dict[str, Any] = {"id": "root", "component": rng.choice(["Column", "Row", "Card"])}
    if roll < 0.45:
        path = rng.choice(["/items", "/items", "/rows"])
        item = {"id": ids("t"), "component": "Text", "text": {"path": "name"}}
        root["children"] = {"componentId": item["id"], "path": path}
        components = [root, item, *leaves]
    else:
        if root["component"] == "Card":
            root["child"] = leaves[0]["id"]
        else:
            root["children"] = [leaf["id"] for leaf in leaves]
        components = [root, *leaves]
    fault = rng.random()
    if fault < 0.06:
        components.append({"id": "root", "component": "Text", "text": "again"})  # duplicate_id
    elif fault < 0.1:
        components[0] = {**components[0], "id": "top"}  # no_root
    elif fault < 0.13:
        components.append({"id": ids("c"), "component": "Column", "children": ["nowhere"]})
    elif fault < 0.15:
        first, second = ids("c"), ids("c")
        components.append({"id": first, "component": "Row", "children": [second]})
        components.append({"id": second, "component": "Row", "children": [first]})
    elif fault < 0.17:
        components.append({"id": ids("c"), "text": "untyped"})  # never paints
    rng.shuffle(components) if rng.random() < 0.2 else None
    return components, path


def _data(rng: random.Random, path: str | None) -> dict[str, Any] | None:
    if rng.random() < 0.2:
        return None
    data: dict[str, Any] = {}
    if rng.random() < 0.7:
        data["title"] = rng.choice(["Flights", "Caf\u00e9s", "Team \U0001f680"])
    key = (path or "/items").removeprefix("/")
    if path is not None or rng.random() < 0.3:
        data[key] = [
            {"name": f"row {i}", "price": rng.choice([1, 2.5, 1e3, -0.0, 10.0])}
            for i in range(rng.randint(0, 5))
        ]
    if rng.random() < 0.15:
        data["form"] = {"name": "Alice", "tags": ["a", "b"], "nested": {"q": [{"z": 1}]}}
    if rng.random() < 0.2:
        data["count"] = rng.randint(0, 99)
    return data


def _render_args(rng: random.Random, ids: _Ids, surface_id: str) -> str:
    components, path = _components(rng, ids)
    data = _data(rng, path)
    fields: list[tuple[str, Any]] = [("surfaceId", surface_id), ("components", components)]
    if data is not None:
        fields.append(("data", data))
    if rng.random() < 0.3:
        fields.insert(rng.randint(0, len(fields)), ("catalogId", rng.choice(["basic", "my://cat"])))
    if rng.random() < 0.15:
        rng.shuffle(fields)
    separators = rng.choice([(",", ":"), (", ", ": ")])
    return (
        "{"
        + separators[0].join(
            json.dumps(k)
            + separators[1]
            + json.dumps(v, ensure_ascii=rng.random() < 0.3, separators=separators)
            for k, v in fields
        )
        + "}"
    )


def _stream(rng: random.Random, call_id: str, text: str) -> list[dict[str, Any]]:
    events = []
    pos = 0
    top = rng.choice([4, 12, 30, 60])
    while pos < len(text):
        end = min(len(text), pos + rng.randint(1, top))
        events.append({"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": text[pos:end]})
        pos = end
    return events


def _ops(
    surface_id: str, rng: random.Random, ids: _Ids, *, create: bool = True
) -> list[dict[str, Any]]:
    components, path = _components(rng, ids)
    ops: list[dict[str, Any]] = []
    if create:
        ops.append(
            {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": "my://cat"}}
        )
    ops.append(
        {"version": "v0.9", "updateComponents": {"surfaceId": surface_id, "components": components}}
    )
    data = _data(rng, path)
    if data is not None:
        ops.append(
            {
                "version": "v0.9",
                "updateDataModel": {"surfaceId": surface_id, "path": "/", "value": data},
            }
        )
    return ops


def _envelope(rng: random.Random, ops: list[Any]) -> str:
    text = json.dumps({"a2ui_operations": ops})
    return json.dumps(text) if rng.random() < 0.2 else text


def _generate(rng: random.Random, ids: _Ids, parent: str, target: str) -> list[dict[str, Any]]:
    """A ``generate_a2ui`` call: inner render attempts, then its envelope or its failure."""
    events: list[dict[str, Any]] = []
    outer = ids("g")
    events.append(
        {
            "type": "TOOL_CALL_START",
            "toolCallId": outer,
            "toolCallName": "generate_a2ui",
            "parentMessageId": parent,
        }
    )
    events += _stream(rng, outer, json.dumps({"intent": "create", "changes": "a list"}))
    events.append({"type": "TOOL_CALL_END", "toolCallId": outer})
    for _attempt in range(rng.randint(0, 2)):
        inner = ids("r")
        events.append(
            {"type": "TOOL_CALL_START", "toolCallId": inner, "toolCallName": "render_a2ui"}
        )
        events += _stream(rng, inner, _render_args(rng, ids, target))
        events.append({"type": "TOOL_CALL_END", "toolCallId": inner})
    ending = rng.random()
    if ending < 0.2:
        content = json.dumps(
            {
                "error": "Failed to generate valid A2UI after 3 attempt(s)",
                "code": "a2ui_recovery_exhausted",
                "attempts": [
                    {"attempt": i + 1, "ok": False, "errors": ["[no_root] components: x"]}
                    for i in range(rng.randint(0, 3))
                ],
            }
        )
    elif ending < 0.9:
        content = _envelope(rng, _ops(target, rng, ids, create=rng.random() < 0.8))
    else:
        content = json.dumps({"status": "ok"})
    events.append(
        {
            "type": "TOOL_CALL_RESULT",
            "messageId": ids("tm"),
            "toolCallId": outer,
            "content": content,
        }
    )
    return events


def _run(
    rng: random.Random, ids: _Ids, thread_id: str, run_id: str, surfaces: list[str]
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}]
    parent = ids("m")

    def surface() -> str:
        if surfaces and rng.random() < 0.3:
            return rng.choice(surfaces)
        name = ids("s")
        surfaces.append(name)
        return name

    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.2:
            parent = ids("m")
            events.append({"type": "TEXT_MESSAGE_START", "messageId": parent, "role": "assistant"})
            events.append(
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": parent, "delta": "Here you go."}
            )
            events.append({"type": "TEXT_MESSAGE_END", "messageId": parent})
        elif roll < 0.5:
            call = ids("r")
            events.append(
                {
                    "type": "TOOL_CALL_START",
                    "toolCallId": call,
                    "toolCallName": "render_a2ui",
                    "parentMessageId": parent,
                }
            )
            events += _stream(rng, call, _render_args(rng, ids, surface()))
            events.append({"type": "TOOL_CALL_END", "toolCallId": call})
        elif roll < 0.75:
            events += _generate(rng, ids, parent, surface())
        else:
            call = ids("b")
            events.append(
                {
                    "type": "TOOL_CALL_START",
                    "toolCallId": call,
                    "toolCallName": rng.choice(["search_flights", "lookup"]),
                    "parentMessageId": parent,
                }
            )
            events += _stream(rng, call, json.dumps({"q": "lisbon"}))
            events.append({"type": "TOOL_CALL_END", "toolCallId": call})
            kind = rng.random()
            if kind < 0.25:
                content = json.dumps({"results": [1, 2]})
            else:
                ops: list[Any] = []
                for _ in range(1 if kind < 0.7 else rng.randint(2, 3)):
                    ops += _ops(surface(), rng, ids)
                if rng.random() < 0.1:
                    ops.append("not an op")
                content = _envelope(rng, ops)
            events.append(
                {
                    "type": "TOOL_CALL_RESULT",
                    "messageId": ids("tm"),
                    "toolCallId": call,
                    "content": content,
                }
            )
    events.append({"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id})
    return events


def generate_case(seed: int) -> dict[str, Any]:
    """One thread of one to three runs, from ``seed`` alone.

    Returns:
        ``{"threadId", "runs": [{"runId", "events"}]}``.
    """
    rng = random.Random(seed)
    ids = _Ids(rng)
    thread_id = f"t{seed}"
    surfaces: list[str] = []
    runs = []
    for index in range(rng.randint(1, 3)):
        run_id = f"run{seed}-{index}"
        runs.append({"runId": run_id, "events": _run(rng, ids, thread_id, run_id, surfaces)})
    return {"threadId": thread_id, "runs": runs}
