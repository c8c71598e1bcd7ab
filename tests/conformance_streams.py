"""Test helper: seeded AG-UI streams in the profile where upstream's client is right.

:func:`stream` builds one stream from a seed; the same seed gives the same stream on
every machine. The profile is the one where the published client's output is valid
generative UI vocabulary, so ours must equal it byte for byte: only the component types
and prop values both sides convert the same way (nothing the README's compatibility
table lists as a deliberate difference: no v0.8, no data deletes, no unresolved text
bindings, no single-child references, no spec-only props). Within it the streams are
hostile on purpose:

- cumulative snapshots (each re-sends every operation so far, as the middleware does),
  several messageIds drawing several surfaces, a later messageId stealing a surface
  and an earlier one stealing it back, ``deleteSurface``, ``replace: false``;
- lifecycle snapshots, runs that finish, fail, or never end, events before any run;
- the converter's limits (depth 32, 100 template items, cycles, missing children,
  unknown components);
- malformed operations (every check of upstream's reducer) and malformed events
  (missing or mistyped fields, unknown types).
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["stream", "streams"]

JSON = Any
_VERSIONS = ("v0.9", "v1.0")
_WORDS = ("Order", "Flight", "Lisbon", "", "Seat 14C", "**bold**", "naïve ✓", "a\nb", 'say "hi"')


def _word(rng: random.Random) -> str:
    return rng.choice(_WORDS)


class _Surface:
    """One surface's operations, in an order whose every prefix converts the same way."""

    def __init__(self, rng: random.Random, surface_id: str, version: str) -> None:
        self.rng = rng
        self.surface_id = surface_id
        self.version = version
        self.data: dict[str, JSON] = {
            "title": _word(rng),
            "body": _word(rng),
            "form": {"email": "ada@example.com", "accepted": rng.random() < 0.5},
            "items": [{"name": _word(rng)} for _ in range(rng.choice((0, 1, 3, 101)))],
            # Integer-like keys, which a JavaScript object lists first, ascending.
            "keyed": {"b": 1, "10": _word(rng), "a": 2, "2": 3, "01": 4, "4294967295": 5},
        }
        self.components: list[dict[str, JSON]] = []
        self._next = 0

    def op(self, key: str, payload: dict[str, JSON]) -> dict[str, JSON]:
        return {"version": self.version, key: {"surfaceId": self.surface_id, **payload}}

    def _id(self) -> str:
        self._next += 1
        return f"c{self._next}"

    def leaf(self) -> dict[str, JSON]:
        rng = self.rng
        cid = self._id()
        kind = rng.randrange(9)
        if kind == 0:
            variant = rng.choice((None, "h1", "h3", "h6", "caption", "body"))
            text: JSON = rng.choice((_word(rng), {"path": "/title"}, {"path": "/body"}))
            node = {"id": cid, "component": "Text", "text": text}
            if variant:
                node["variant"] = variant
            return node
        if kind == 1:
            return {
                "id": cid,
                "component": "Divider",
                **({"flush": True} if rng.random() < 0.5 else {}),
            }
        if kind == 2:
            action: JSON = rng.choice(
                (
                    "open",
                    {"name": "book"},
                    {"name": "book", "context": {"email": {"path": "/form/email"}, "kept": "x"}},
                    {"name": "go", "context": {"missing": {"path": "/nope"}}},
                    {"name": "keys", "context": {"z": {"path": "/keyed"}, "3": 1, "1": "x"}},
                    {"name": "list", "context": [_word(rng), {"path": "/title"}, []]},
                    {"name": "none", "context": []},
                )
            )
            node = {"id": cid, "component": "Button", "label": _word(rng), "action": action}
            if rng.random() < 0.5:
                node["buttonStyle"] = rng.choice(
                    ("primary", "secondary", "outline", "ghost", "danger")
                )
            if rng.random() < 0.3:
                node["block"] = True
            return node
        if kind == 3:
            node = {
                "id": cid,
                "component": "TextField",
                "label": _word(rng),
                "value": {"path": "/form/email"},
            }
            if rng.random() < 0.5:
                node["placeholder"] = "you@example.com"
            if rng.random() < 0.3:
                node["multiline"] = True
            return node
        if kind == 4:
            return {
                "id": cid,
                "component": "CheckBox",
                "label": _word(rng),
                "value": {"path": "/form/accepted"},
            }
        if kind == 5:
            node = {
                "id": cid,
                "component": "Image",
                "url": "https://example.com/a.png",
                "altText": _word(rng),
            }
            if rng.random() < 0.5:
                node["size"] = rng.choice(("sm", "md", "lg"))
            return node
        if kind == 6:
            # A name neither side knows: skipped with its subtree.
            return {"id": cid, "component": "Carousel", "children": []}
        if kind == 7:
            # A reference to a component that never arrives.
            return {"id": cid, "component": "Row", "children": ["never-sent"]}
        item = self._id()
        self.components.append({"id": item, "component": "Text", "text": {"path": "/name"}})
        return {
            "id": cid,
            "component": "Column",
            "children": {"template": {"componentId": item, "path": "/items"}},
        }

    def container(self, depth: int) -> dict[str, JSON]:
        rng = self.rng
        cid = "root" if depth == 0 else self._id()
        kids: list[str] = []
        for _ in range(rng.randrange(1, 4)):
            nest = depth < 2 and rng.random() < 0.4
            child = self.container(depth + 1) if nest else self.leaf()
            self.components.append(child)
            kids.append(child["id"])
        kind = rng.choice(("Column", "Row", "Card"))
        node: dict[str, JSON] = {"id": cid, "component": kind, "children": kids}
        if kind in {"Column", "Row"} and rng.random() < 0.5:
            node["gap"] = rng.randrange(9)
        if kind in {"Column", "Row"} and rng.random() < 0.3:
            node["align"] = rng.choice(("start", "center", "end"))
        if kind == "Row" and rng.random() < 0.3:
            node["justify"] = rng.choice(("start", "center", "end", "between"))
        if kind == "Card":
            node["title"] = _word(rng)
            if rng.random() < 0.3:
                node["padding"] = rng.randrange(9)
        if depth == 0 and rng.random() < 0.1:
            kids.append("root")  # a cycle back to the root: dropped on both sides
        return node

    def deep_chain(self, length: int) -> list[dict[str, JSON]]:
        ids = ["root", *(f"d{index}" for index in range(1, length))]
        return [
            {
                "id": cid,
                "component": "Row",
                **({"children": [ids[i + 1]]} if i + 1 < length else {}),
            }
            for i, cid in enumerate(ids)
        ]

    def operations(self) -> list[dict[str, JSON]]:
        """Create, data, then components in one or two batches (the root last)."""
        rng = self.rng
        ops = [self.op("createSurface", {"catalogId": "basic"})]
        ops.append(self.op("updateDataModel", {"path": "/", "value": self.data}))
        if rng.random() < 0.05:
            ops.append(
                self.op(
                    "updateComponents",
                    {"components": self.deep_chain(rng.choice((31, 32, 33, 40)))},
                )
            )
            return ops
        root = self.container(0)
        batch = [*self.components, root]
        if len(batch) > 2 and rng.random() < 0.5:
            cut = rng.randrange(1, len(batch))
            ops.append(self.op("updateComponents", {"components": batch[:cut]}))
            ops.append(self.op("updateComponents", {"components": batch[cut:]}))
        else:
            ops.append(self.op("updateComponents", {"components": batch}))
        if rng.random() < 0.3:
            ops.append(self.op("updateDataModel", {"path": "/title", "value": _word(rng)}))
        if rng.random() < 0.2:
            # A "~" escaping nothing is part of the key; ``contents`` is read before ``value``.
            write = {"path": "/keyed/~2", "value": 0, "contents": _word(rng)}
            ops.append(self.op("updateDataModel", write))
        return ops


def _malformed_operation(rng: random.Random, surface_id: str) -> JSON:
    """An operation upstream's reducer refuses, one check each (reference §1e)."""
    version = rng.choice(_VERSIONS)
    return rng.choice(
        (
            None,
            42,
            "createSurface",
            {},
            {"version": "v2.0", "deleteSurface": {"surfaceId": surface_id}},
            {
                "version": version,
                "createSurface": {"surfaceId": surface_id},
                "deleteSurface": {"surfaceId": surface_id},
            },
            {"version": version, "animateSurface": {"surfaceId": surface_id}},
            {"version": version, "updateComponents": None},
            {"version": version, "deleteSurface": {}},
            {"version": version, "createSurface": {"surfaceId": ""}},
            {"version": version, "updateComponents": {"surfaceId": "ghost", "components": []}},
            {
                "version": version,
                "updateComponents": {"surfaceId": surface_id, "components": "root"},
            },
            {
                "version": version,
                "updateComponents": {
                    "surfaceId": surface_id,
                    "components": [{"component": "Text"}, {"id": "x", "component": ""}],
                },
            },
            {
                "version": version,
                "updateDataModel": {"surfaceId": surface_id, "path": 5, "value": 1},
            },
            {
                "version": version,
                "updateDataModel": {"surfaceId": surface_id, "path": "x", "value": 1},
            },
        )
    )


def _snapshot(message_id: str | None, ops: list[JSON], **extra: JSON) -> dict[str, JSON]:
    event: dict[str, JSON] = {"type": "ACTIVITY_SNAPSHOT", "activityType": "a2ui-surface"}
    if message_id is not None:
        event["messageId"] = message_id
    event["content"] = {"a2ui_operations": ops}
    event.update(extra)
    return event


def _malformed_event(rng: random.Random, ops: list[JSON]) -> dict[str, JSON]:
    """An event with a field missing or mistyped, or of a type the client does not know."""
    return rng.choice(
        (
            {"type": "ACTIVITY_SNAPSHOT", "messageId": "mx", "content": {"a2ui_operations": ops}},
            {
                "type": "ACTIVITY_SNAPSHOT",
                "activityType": "a2ui-surface",
                "messageId": "mx",
                "content": ops,
            },
            {
                "type": "ACTIVITY_SNAPSHOT",
                "activityType": "a2ui-surface",
                "messageId": "mx",
                "content": {"a2ui_operations": {"0": ops}},
            },
            {
                "type": "ACTIVITY_SNAPSHOT",
                "activityType": "a2ui-surface",
                "messageId": 7,
                "content": {"a2ui_operations": ops},
            },
            {
                "type": "ACTIVITY_SNAPSHOT",
                "activityType": "a2ui-surface",
                "messageId": "mx",
                "replace": "false",
                "content": {"a2ui_operations": ops},
            },
            {
                "type": "ACTIVITY_SNAPSHOT",
                "activityType": "mcp-apps",
                "messageId": "mx",
                "content": {"a2ui_operations": ops},
            },
            {"type": "RUN_STARTED"},
            {"type": "RUN_STARTED", "runId": 5},
            {"type": "RUN_FINISHED"},
            {"type": "SOMETHING_NEW", "messageId": "mx"},
            {"type": "TEXT_MESSAGE_CONTENT", "delta": 3},
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
        )
    )


def _messages_snapshot(rng: random.Random, run: int) -> dict[str, JSON]:
    """A restored history: activity messages owned by the assistant message before them."""
    messages: list[JSON] = [{"id": f"u{run}", "role": "user", "content": "hi"}]
    for index in range(rng.randrange(1, 3)):
        if rng.random() < 0.8:
            messages.append({"id": f"a{run}-{index}", "role": "assistant", "content": "ok"})
        # An activity id is reused only under the same owner (it overwrites the first):
        # one reused under a second owner is a documented difference, checked on its own.
        for _ in range(rng.choice((1, 1, 2))):
            ops = _Surface(rng, rng.choice(("h1", "h2")), "v0.9").operations()
            content = {"a2ui_operations": ops}
            messages.append(
                {
                    "id": f"act{run}-{index}",
                    "role": "activity",
                    "activityType": "a2ui-surface",
                    "content": content,
                }
            )
    if rng.random() < 0.3:
        messages.append({"id": f"t{run}", "role": "assistant", "content": "after"})
    return {"type": "MESSAGES_SNAPSHOT", "messages": messages}


def _chatter(rng: random.Random, run: int) -> list[dict[str, JSON]]:
    """Text and a genuine tool call between snapshots: one text messageId per run.

    (Upstream's client starts a new assistant message at each new text messageId,
    forgetting the surfaces drawn before: a documented difference, checked on its own.)
    """
    text = f"text-{run}"
    call = f"call-{run}-{rng.randrange(1000)}"
    return rng.choice(
        (
            [
                {"type": "TEXT_MESSAGE_START", "messageId": text, "role": "assistant"},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": text, "delta": "Here you go"},
                {"type": "TEXT_MESSAGE_END", "messageId": text},
            ],
            [{"type": "TEXT_MESSAGE_CHUNK", "messageId": text, "delta": " and more"}],
            [
                {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "search"},
                {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"q":"x"}'},
                {"type": "TOOL_CALL_END", "toolCallId": call},
                {
                    "type": "TOOL_CALL_RESULT",
                    "messageId": f"r-{call}",
                    "toolCallId": call,
                    "content": "ok",
                },
            ],
            [
                {"type": "STEP_STARTED", "stepName": "plan"},
                {"type": "STEP_FINISHED", "stepName": "plan"},
            ],
        )
    )


def _run_end(rng: random.Random, run_id: str, ops: list[JSON]) -> list[dict[str, JSON]]:
    """How a run ends: finished, failed, both in either order, drawn after, or never."""
    finished = {"type": "RUN_FINISHED", "threadId": "t1", "runId": run_id}
    failed = {"type": "RUN_ERROR", "message": "boom"}
    return rng.choice(
        (
            [finished],
            [finished],
            [finished],
            [failed],
            [failed, finished],
            [finished, {"type": "RUN_ERROR"}],
            [finished, _snapshot("m0", list(ops))],
            [{"type": "RUN_CANCELLED", "runId": run_id}],
            [],
        )
    )


def stream(seed: int) -> list[dict[str, JSON]]:
    """One stream of AG-UI events (JSON-ready dicts), the same for the same seed.

    Args:
        seed: any integer.

    Returns:
        The events, in order.
    """
    rng = random.Random(seed)
    events: list[dict[str, JSON]] = []
    surface_ids = [f"s{index}" for index in range(rng.randrange(1, 5))]
    message_ids: list[str | None] = [f"m{index}" for index in range(rng.randrange(1, 4))]
    if rng.random() < 0.1:
        message_ids.append(None)
    if rng.random() < 0.15:
        events.append(_snapshot("m0", _Surface(rng, "s0", "v0.9").operations()))
    for run in range(rng.randrange(1, 4)):
        run_id = f"run-{run}"
        started: dict[str, JSON] = {"type": "RUN_STARTED", "runId": run_id}
        if rng.random() < 0.8:
            started = {"type": "RUN_STARTED", "threadId": "t1", "runId": run_id}
        events.append(started)
        if rng.random() < 0.15:
            events.append(_messages_snapshot(rng, run))
        # Per messageId, the operations sent so far: each snapshot re-sends them all.
        sent: dict[str | None, list[JSON]] = {}
        for _ in range(rng.randrange(1, 9)):
            message_id = rng.choice(message_ids)
            ops = sent.setdefault(message_id, [])
            roll = rng.random()
            if roll < 0.1:
                status = rng.choice(("building", "retrying", "failed"))
                events.append(
                    {
                        "type": "ACTIVITY_SNAPSHOT",
                        "activityType": "a2ui-surface",
                        "messageId": message_id or "ml",
                        "content": {"status": status},
                    }
                )
                continue
            if roll < 0.2:
                events.append(_malformed_event(rng, list(ops)))
                continue
            if roll < 0.27:
                events += _chatter(rng, run)
                continue
            surface_id = rng.choice(surface_ids)
            step = rng.random()
            if step < 0.1 and ops:
                ops.append(
                    {"version": rng.choice(_VERSIONS), "deleteSurface": {"surfaceId": surface_id}}
                )
            elif step < 0.2:
                ops.append(_malformed_operation(rng, surface_id))
            else:
                new_ops = _Surface(rng, surface_id, rng.choice(_VERSIONS)).operations()
                if rng.random() < 0.5:
                    ops.extend(new_ops)
                else:  # a cumulative snapshot caught half way through
                    ops.extend(new_ops[: rng.randrange(1, len(new_ops) + 1)])
            extra: dict[str, JSON] = {}
            if rng.random() < 0.15:
                extra["replace"] = rng.choice((True, False))
            events.append(_snapshot(message_id, list(ops), **extra))
        events += _run_end(rng, run_id, sent.get("m0", []))
    return events


def streams(count: int, *, start: int = 0) -> list[list[dict[str, JSON]]]:
    """Streams for the seeds ``start`` .. ``start + count - 1``."""
    return [stream(seed) for seed in range(start, start + count)]
