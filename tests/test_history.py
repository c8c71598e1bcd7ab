"""Rehydration (``_engine.history``): stored history's surfaces, each on its owner message."""

from __future__ import annotations

import json
from typing import Any

from helpers import text_surface

from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.history import SeenIn, normalize_document, rehydrate
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import Limits


def activity(message_id: str, operations: list[Any], kind: str = "a2ui-surface") -> dict[str, Any]:
    """A stored activity message carrying ``operations``."""
    return {
        "id": message_id,
        "role": "activity",
        "activityType": kind,
        "content": {"a2ui_operations": operations},
    }


def assistant(message_id: str, **fields: Any) -> dict[str, Any]:
    """A stored assistant message."""
    return {"id": message_id, "role": "assistant", **fields}


def restored(messages: list[Any], **options: Any) -> tuple[list[tuple[str, list[Any]]], list[str]]:
    """``(owner, [(surfaceId, text)...])`` per entry, and the diagnostic codes."""
    entries, diagnostics = rehydrate(messages, converter=Converter(), limits=Limits(), **options)
    drawn = [
        (entry.message_id, [(p.surface_id, p.args.get("value")) for p in entry.parts])
        for entry in entries
    ]
    return drawn, [d.code for d in diagnostics]


def test_a_later_activity_with_the_same_id_overwrites() -> None:
    """The latest activity of an id wins, and moves to its latest owner."""
    messages = [
        assistant("a1"),
        activity("x", text_surface("s", "first")),
        assistant("a2"),
        activity("x", text_surface("s", "second")),
    ]
    drawn, codes = restored(messages)
    owners = dict(drawn)
    assert owners["a2"] == [("s", "second")]
    assert owners.get("a1", []) == []  # moved, not copied (upstream leaves a frozen copy)
    assert codes == []


def test_reasoning_owns_too_and_other_activity_is_ignored() -> None:
    """A reasoning message owns what follows it; activities of other types draw nothing."""
    messages = [
        {"id": "r1", "role": "reasoning", "content": "thinking"},
        activity("x", text_surface("s", "mine")),
        activity("y", text_surface("t", "not ui"), kind="other"),
    ]
    assert restored(messages) == ([("r1", [("s", "mine")])], [])


def test_render_tool_calls_draw_on_their_assistant_message() -> None:
    """A stored render-tool call draws as the live stage would; a skipped id does not."""
    arguments = {
        "surfaceId": "card",
        "components": [{"id": "root", "component": "Text", "text": "from a tool"}],
    }
    call = {"id": "c1", "function": {"name": "render_a2ui", "arguments": json.dumps(arguments)}}
    messages = [{"id": "u", "role": "user", "content": "hi"}, assistant("a1", toolCalls=[call])]
    assert restored(messages) == ([("a1", [("card", "from a tool")])], [])
    assert restored(messages, skip=frozenset({"c1"})) == ([], [])


def test_orphans_and_bad_operations_are_reported() -> None:
    """An activity before any owner is dropped; a bad operation is named, the rest kept."""
    drawn, codes = restored([activity("x", text_surface("s"))])
    assert (drawn, codes) == ([], ["history.orphan_activity"])
    drawn, codes = restored([assistant("a"), activity("x", [5, *text_surface("s", "kept")])])
    assert drawn == [("a", [("s", "kept")])]
    assert codes == ["op.malformed"]


def test_normalize_document() -> None:
    """A non-object is an ERROR at its index; an object is normalised as a message."""
    problem = normalize_document([1], 3)
    assert isinstance(problem, Diagnostic)
    assert (problem.code, problem.severity, problem.path) == (
        "op.malformed",
        Severity.ERROR,
        "$.content.a2ui_operations[3]",
    )
    assert not isinstance(normalize_document(text_surface("s")[0], 0), Diagnostic)


def test_seen_in_looks_in_every_run() -> None:
    """A call id seen by any run is in; one seen by none is not."""
    seen = SeenIn([{"c1": 1}, {}, {"c2": 2}])
    assert "c1" in seen
    assert "c2" in seen
    assert "c3" not in seen
