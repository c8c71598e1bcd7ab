"""Rehydration (``_engine.history``): stored history's surfaces, each on its owner message."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from helpers import Result, text_surface

from a2ui_stream import Processor, Reducer
from a2ui_stream._convert.converter import Converter
from a2ui_stream._engine.history import SeenIn, normalize_document, rehydrate
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


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
    # Moved, not copied (upstream leaves a frozen copy): a1 is left with no entry at all.
    assert drawn == [("a2", [("s", "second")])]
    assert codes == []


#: Stored messages in which an activity's id moves on to a later owner (a1), and
#: activities that draw nothing: a rootless surface (a2), one deleted again (a3), no
#: operations (a4). Only a5 is left owning a part.
DRAWS_NOTHING: list[dict[str, Any]] = [
    assistant("a1"),
    activity("moved", text_surface("s1", "old")),
    assistant("a2"),
    activity("rootless", [{"version": "v0.9", "createSurface": {"surfaceId": "s2"}}]),
    assistant("a3"),
    activity(
        "deleted",
        [*text_surface("s3"), {"version": "v0.9", "deleteSurface": {"surfaceId": "s3"}}],
    ),
    assistant("a4"),
    activity("empty", []),
    assistant("a5"),
    activity("moved", text_surface("s1", "new")),
]


def test_a_message_left_with_no_part_has_no_entry() -> None:
    """An owner whose activity moved on, or draws nothing, is no history entry.

    Regression: ``rehydrate`` listed every message that ever held an activity, so a1 to
    a4 came back as entries with no parts, which ``--final`` and ``inspect`` printed.
    """
    drawn, codes = restored(DRAWS_NOTHING)
    assert drawn == [("a5", [("s1", "new")])]
    assert codes == ["convert.root_missing"]  # a2's surface: said once, drawn nowhere


def test_render_calls_moved_on_leave_no_entry() -> None:
    """The tool carriers follow the same rule: a call id a later message draws again."""

    def call(text: str) -> dict[str, Any]:
        arguments = {
            "surfaceId": "card",
            "components": [{"id": "root", "component": "Text", "text": text}],
        }
        return {"id": "c1", "function": {"name": "render_a2ui", "arguments": json.dumps(arguments)}}

    messages = [
        {"id": "u", "role": "user", "content": "hi"},
        assistant("a1", toolCalls=[call("first")]),
        assistant("a2", toolCalls=[call("second")]),
    ]
    assert restored(messages) == ([("a2", [("card", "second")])], [])


def _snapshot_line(messages: list[dict[str, Any]]) -> bytes:
    return json.dumps({"type": "MESSAGES_SNAPSHOT", "messages": messages}).encode() + b"\n"


def test_the_processor_keeps_no_empty_entry() -> None:
    """Through a Processor: one entry, one add diff, both on the message that draws."""
    processor = Processor()
    diffs = processor.feed(_snapshot_line(DRAWS_NOTHING)) + processor.close()
    assert [(d.op, d.message_id, d.surface_id, d.history) for d in diffs] == [
        ("add", "a5", "s1", True)
    ]
    assert [entry.message_id for entry in processor.state.history] == ["a5"]
    assert all(entry.parts for entry in processor.state.history)


def test_final_prints_no_empty_entry(
    cli: Callable[..., Result], write: Callable[[str, bytes], Path]
) -> None:
    """``--final`` lists only the message with parts, and ``inspect`` counts only it."""
    path = write("in.jsonl", _snapshot_line(DRAWS_NOTHING))
    result = cli("process", "--final", path)
    assert result.code == 0
    history = result.lines[0]["history"]
    assert [(entry["messageId"], len(entry["parts"])) for entry in history] == [("a5", 1)]
    assert "history: 1 message, 1 part" in cli("inspect", path).out.decode()


def test_final_prints_no_history_line_when_nothing_draws(
    cli: Callable[..., Result], write: Callable[[str, bytes], Path]
) -> None:
    """With every restored message drawing nothing, ``--final`` has nothing to print."""
    result = cli("process", "--final", write("in.jsonl", _snapshot_line(DRAWS_NOTHING[2:-2])))
    assert (result.code, result.out) == (0, b"")


def test_reasoning_owns_too_and_other_activity_is_ignored() -> None:
    """A reasoning message owns what follows it; activities of other types draw nothing."""
    messages = [
        {"id": "r1", "role": "reasoning", "content": "thinking"},
        activity("x", text_surface("s", "mine")),
        activity("y", text_surface("t", "not ui"), kind="other"),
    ]
    assert restored(messages) == ([("r1", [("s", "mine")])], [])


@pytest.mark.parametrize("content", ["", "   ", None])
def test_a_reasoning_message_with_no_text_owns_nothing(content: str | None) -> None:
    """Encrypted reasoning (no text, an ``encryptedValue``) shows no message upstream.

    Found by a probe against the published client: the surface after it hung on the
    reasoning message, an id the client's thread does not show.
    """
    reasoning = {"id": "r", "role": "reasoning", "content": content, "encryptedValue": "opaque"}
    messages = [
        assistant("a1", content="x"),
        reasoning,
        activity("x", text_surface("s", "one")),
    ]
    assert restored(messages) == ([("a1", [("s", "one")])], [])
    alone, codes = restored(messages[1:])
    assert (alone, codes) == ([], [Code.HISTORY_ORPHAN_ACTIVITY])


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


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def _card(surface_id: str, text: str) -> dict[str, Any]:
    return {
        "surfaceId": surface_id,
        "components": [{"id": "root", "component": "Text", "text": text}],
    }


def _envelope(surface_id: str, text: str) -> str:
    card = _card(surface_id, text)
    operations = [
        {"version": "v0.9", "createSurface": {"surfaceId": surface_id, "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {"surfaceId": surface_id, "components": card["components"]},
        },
    ]
    return json.dumps({"a2ui_operations": operations})


def test_a_sub_agents_message_after_its_wrappers_result_draws_inside_it() -> None:
    """``@ag-ui/client`` files the wrapper's result before the message it made for the
    sub-agent's call (its id the call's): drawn in the live order, once, on the wrapper's
    message and key; wherever the result is, the same."""
    wrapper = assistant("m1", toolCalls=[_call("g1", "generate_a2ui", {"intent": "create"})])
    answer = {"id": "t1", "role": "tool", "toolCallId": "g1", "content": _envelope("card", "env")}
    inner = assistant("r1", toolCalls=[_call("r1", "render_a2ui", _card("card", "streamed"))])
    said = assistant("m2", content="Here it is.")
    user = {"id": "u", "role": "user", "content": "hi"}
    expected = [("m1", [("card", "streamed")])]
    assert restored([user, wrapper, answer, inner, said]) == (expected, [])
    assert restored([user, wrapper, inner, answer, said]) == (expected, [])
    entries, _ = rehydrate([user, wrapper, answer, inner], converter=Converter(), limits=Limits())
    assert [p.message_id for e in entries for p in e.parts] == ["a2ui-surface-g1"]


def test_messages_of_the_agents_own_calls_keep_their_place() -> None:
    """A message naming itself, with nothing open, owns its calls' drawings; a message of
    the agent's own after a result stays after it."""
    user = {"id": "u", "role": "user", "content": "hi"}
    alone = assistant("r1", toolCalls=[_call("r1", "render_a2ui", _card("a", "alone"))])
    assert restored([user, alone]) == ([("r1", [("a", "alone")])], [])
    search = assistant("m1", toolCalls=[_call("b1", "search", {})])
    answer = {"id": "t1", "role": "tool", "toolCallId": "b1", "content": _envelope("list", "found")}
    own = assistant("m2", toolCalls=[_call("r2", "render_a2ui", _card("card", "own"))])
    assert restored([user, search, answer, own]) == (
        [("m1", [("list", "found")]), ("m2", [("card", "own")])],
        [],
    )


def test_a_renamed_wrappers_sub_agent_draws_inside_it_once_named() -> None:
    """ag-ui-langgraph's sub-agent names a message of its own, which the client stores
    after the wrapper's result: drawn once either way, inside the wrapper when it is
    named in ``wrapper_tools``, as live."""
    user = {"id": "u", "role": "user", "content": "hi"}
    wrapper = assistant("m1", toolCalls=[_call("w1", "make_ui", {"intent": "create"})])
    answer = {"id": "t1", "role": "tool", "toolCallId": "w1", "content": _envelope("card", "env")}
    inner = assistant("m2", toolCalls=[_call("c1", "render_a2ui", _card("card", "streamed"))])
    messages = [user, wrapper, answer, inner]
    for wrappers, owner, key in (
        (("generate_a2ui",), "m2", "a2ui-surface-c1"),  # the default
        (("make_ui",), "m1", "a2ui-surface-w1"),
    ):
        reducer = Reducer(wrapper_tools=wrappers)
        state, _, diagnostics = reducer.rehydrate(messages)
        assert diagnostics == ()
        assert [
            (h.message_id, [(p.surface_id, p.message_id) for p in h.parts]) for h in state.history
        ] == [(owner, [("card", key)])]
        processor = Processor(wrapper_tools=wrappers)
        processor.feed_events(
            [
                {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                {
                    "type": "TOOL_CALL_START",
                    "toolCallId": "w1",
                    "toolCallName": "make_ui",
                    "parentMessageId": "m1",
                },
                {"type": "TOOL_CALL_END", "toolCallId": "w1"},
                {
                    "type": "TOOL_CALL_START",
                    "toolCallId": "c1",
                    "toolCallName": "render_a2ui",
                    "parentMessageId": "m2",
                },
                {
                    "type": "TOOL_CALL_ARGS",
                    "toolCallId": "c1",
                    "delta": inner["toolCalls"][0]["function"]["arguments"],
                },
                {"type": "TOOL_CALL_END", "toolCallId": "c1"},
                {
                    "type": "TOOL_CALL_RESULT",
                    "messageId": "t1",
                    "toolCallId": "w1",
                    "content": answer["content"],
                },
            ]
        )
        assert [(p.surface_id, p.message_id) for p in processor.state.runs[-1].parts.values()] == [
            ("card", key)
        ]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"role": "user", "content": "hi"}, "missing required field `id`"),
        ({"id": "w", "role": "weird", "content": "?"}, "Invalid value 'weird'"),
        ({"id": "t", "role": "tool", "content": "ok"}, "missing required field `toolCallId`"),
    ],
)
def test_one_bad_message_costs_that_message_not_the_history(
    bad: dict[str, Any], reason: str
) -> None:
    """A message the wire types refuse is left out, the others restored (as upstream).

    Found by a probe against the published client: the whole ``messages`` field was
    dropped, and with it every surface of the history, for one user message without
    an ``id``.
    """
    drawing = activity("x", text_surface("s", "one"))
    messages = [bad, assistant("a1", content="here"), drawing, dict(bad)]
    processor = Processor()
    diffs = processor.feed(_snapshot_line(messages)) + processor.close()
    assert [(d.op, d.message_id, d.surface_id) for d in diffs] == [("add", "a1", "s")]
    warnings = [d for d in processor.take_diagnostics() if d.code == "event.field_ignored"]
    assert [w.message.split(" is not valid")[0] for w in warnings] == [
        "`messages[0]`",
        "`messages[3]`",
    ]
    assert all(reason in w.message for w in warnings)


def test_a_history_of_bad_messages_is_dropped_whole_past_a_bound() -> None:
    """Each bad message costs decoding the history again: past 32, the field goes whole."""
    messages = [{"role": "user", "content": str(n)} for n in range(40)]
    processor = Processor()
    processor.feed(_snapshot_line([*messages, activity("x", text_surface("s", "one"))]))
    codes = [str(d.code) for d in processor.take_diagnostics()]
    assert codes.count("event.field_ignored") == 33  # 32 messages, then the field


def _call_message(message_id: str, call_id: str) -> dict[str, Any]:
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "render_a2ui", "arguments": "{}"},
    }
    return assistant(message_id, toolCalls=[call])


def _result_message(call_id: str) -> dict[str, Any]:
    return {"id": f"r-{call_id}", "role": "tool", "toolCallId": call_id, "content": "ok"}


def test_the_middlewares_activity_belongs_to_its_calls_message() -> None:
    """As ``@ag-ui/client`` stores a thread behind the middleware: activity first.

    The middleware's first snapshot of a call comes before the call starts, so the
    client stores each activity before the assistant message holding its call. Found by
    a probe: owned by the nearest owner before it, the thread's first surface had none
    (an orphan) and the second went to the first turn's message.
    """
    messages = [
        {"id": "u1", "role": "user", "content": "one"},
        activity("a2ui-surface-c1", text_surface("s1", "first")),
        _call_message("m1", "c1"),
        _result_message("c1"),
        {"id": "u2", "role": "user", "content": "two"},
        activity("a2ui-surface-s2-c2", text_surface("s2", "second")),  # a result's naming
        _call_message("m2", "c2"),
        _result_message("c2"),
    ]
    drawn, codes = restored(messages)
    assert drawn == [("m1", [("s1", "first")]), ("m2", [("s2", "second")])]
    assert codes == []


def test_other_activity_keeps_the_nearest_owner_before_it() -> None:
    """An activity not named after a call of the history: upstream's rule, unchanged."""
    messages = [
        assistant("a1", content="x"),
        activity("a2ui-surface-elsewhere", text_surface("s", "one")),
        _call_message("m1", "c1"),
    ]
    assert restored(messages)[0] == [("a1", [("s", "one")])]
