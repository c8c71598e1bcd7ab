"""The official Python SDK's spellings and objects, accepted everywhere, with real SDK objects.

``ag-ui-protocol`` (``ag_ui.core``) dumps its pydantic models in snake_case by default
(``model_dump()``) and takes both spellings itself. Every entry point takes camelCase
dicts, snake_case dicts and the SDK's objects alike, and gives the same result: events
in ``feed_events``, messages, context, tools and forwarded props in ``build_run_input``
and ``outbound_messages``, and ``Reducer.rehydrate``. Where SDK objects go in, plain
JSON-ready values come out.
"""

from __future__ import annotations

from typing import Any

import msgspec
from ag_ui import core as sdk

from a2ui_stream import A2uiRequest, Processor, Reducer, basic_catalog, build_run_input
from a2ui_stream import events as ev
from a2ui_stream._request.request import outbound_messages
from a2ui_stream._wire.keys import camel_keys, plain
from a2ui_stream.testing import create_surface, update_components

OPERATIONS = [
    create_surface("s1"),
    update_components("s1", {"id": "root", "component": "Text", "text": "hello"}),
]


def _events() -> list[Any]:
    return [
        sdk.RunStartedEvent(thread_id="t1", run_id="r1"),
        sdk.ActivitySnapshotEvent(
            message_id="m1",
            activity_type="a2ui-surface",
            content={"a2ui_operations": OPERATIONS},
        ),
        sdk.MessagesSnapshotEvent(messages=_history()),
        sdk.RunFinishedEvent(thread_id="t1", run_id="r1"),
    ]


def _history() -> list[Any]:
    return [
        sdk.UserMessage(id="u1", content="draw"),
        sdk.AssistantMessage(
            id="a1",
            content="here",
            tool_calls=[
                sdk.ToolCall(
                    id="a2ui:s1", function=sdk.FunctionCall(name="present", arguments="{}")
                ),
                sdk.ToolCall(id="c1", function=sdk.FunctionCall(name="search", arguments="{}")),
            ],
        ),
        sdk.ToolMessage(id="t1", content="{}", tool_call_id="a2ui:s1"),
        sdk.ToolMessage(id="t2", content="found", tool_call_id="c1"),
        sdk.ActivityMessage(
            id="act1", activity_type="a2ui-surface", content={"a2ui_operations": OPERATIONS}
        ),
    ]


def _camel(value: Any) -> Any:
    return value.model_dump(mode="json", by_alias=True, exclude_none=True)


def _snake(value: Any) -> Any:
    return value.model_dump()


def _same(value: Any) -> Any:
    return value


def _processed(items: list[Any]) -> tuple[Any, list[str]]:
    processor = Processor()
    processor.feed_events(items)
    processor.close()
    return processor.state, [d.code for d in processor.take_diagnostics()]


class TestEvents:
    def test_sdk_objects_snake_and_camel_dicts_agree_with_the_bytes(self) -> None:
        """feed_events on SDK events, their snake_case or camelCase dumps, equals the wire."""
        wire = b"".join(
            event.model_dump_json(by_alias=True).encode() + b"\n" for event in _events()
        )
        from_bytes = Processor()
        from_bytes.feed(wire)
        from_bytes.close()
        assert from_bytes.take_diagnostics() == []
        expected = from_bytes.state
        assert expected.runs[0].parts
        assert expected.history
        for convert in (_same, _snake, _camel):
            state, codes = _processed([convert(event) for event in _events()])
            assert state == expected
            assert codes == []

    def test_snake_case_run_started_is_not_missing_its_thread(self) -> None:
        """A snake_case RUN_STARTED keeps threadId (it used to be refused without it)."""
        state, codes = _processed([{"type": "RUN_STARTED", "thread_id": "t", "run_id": "r"}])
        assert codes == []
        assert (state.runs[0].run_id, state.runs[0].thread_id) == ("r", "t")

    def test_nested_wire_types_are_renamed(self) -> None:
        """A RUN_STARTED's input (messages with tool calls) is renamed at every level."""
        event = _snake(
            sdk.RunStartedEvent(
                thread_id="t",
                run_id="r",
                input=sdk.RunAgentInput(
                    thread_id="t",
                    run_id="r",
                    state=None,
                    messages=_history()[1:3],
                    tools=[],
                    context=[],
                    forwarded_props={"keep_me": 1},
                ),
            )
        )
        state, codes = _processed([event])
        assert codes == []
        assert state.runs[0].thread_id == "t"
        renamed = camel_keys(event)
        assert renamed["input"]["messages"][0]["toolCalls"][0]["id"] == "a2ui:s1"
        assert renamed["input"]["messages"][1]["toolCallId"] == "a2ui:s1"
        assert renamed["input"]["forwardedProps"] == {"keep_me": 1}


class TestRequest:
    def _built(self, convert: Any) -> bytes:
        request = A2uiRequest(basic_catalog("v0.9"))
        built = build_run_input(
            request,
            thread_id="t",
            run_id="r",
            messages=[convert(m) for m in _history()],
            tools=[convert(sdk.Tool(name="search", description="find", parameters={}))],
            context=[convert(sdk.Context(description="user", value="Ada"))],
            forwarded_props={"extra": convert(sdk.Context(description="d", value="v"))},
            state={"profile": convert(sdk.UserMessage(id="x", content="y"))},
        )
        return msgspec.json.encode(built)

    def test_every_spelling_builds_the_same_run_input(self) -> None:
        """SDK objects, snake_case and camelCase dicts give byte-identical run inputs."""
        camel = self._built(_camel)
        assert self._built(_same) == camel
        assert self._built(_snake) == camel

    def test_sdk_objects_come_out_json_ready_and_cleaned(self) -> None:
        """The run input encodes; a2ui: calls, their results and activity are gone."""
        document = msgspec.json.decode(self._built(_same))
        assert [m["id"] for m in document["messages"]] == ["u1", "a1", "t2"]
        assert [c["id"] for c in document["messages"][1]["toolCalls"]] == ["c1"]
        assert document["tools"][0]["name"] == "search"
        assert {"description": "user", "value": "Ada"} in document["context"]
        assert document["forwardedProps"]["extra"] == {"description": "d", "value": "v"}
        assert document["state"]["profile"] == {"id": "x", "role": "user", "content": "y"}

    def test_outbound_strips_an_sdk_activity_message(self) -> None:
        """outbound_messages removes the SDK's ActivityMessage and a2ui: tool calls."""
        kept = outbound_messages(_history())
        assert [type(m) for m in kept] == [ev.UserMessage, ev.AssistantMessage, ev.ToolMessage]

    def test_snake_tool_calls_are_kept_and_snake_tool_call_id_is_read(self) -> None:
        """snake_case tool_calls are no longer dropped; tool_call_id no longer raises."""
        kept = outbound_messages([_snake(m) for m in _history()])
        assert [m.id for m in kept] == ["u1", "a1", "t2"]
        assistant = kept[1]
        assert isinstance(assistant, ev.AssistantMessage)
        assert [c.id for c in assistant.tool_calls or ()] == ["c1"]

    def test_plain_dumps_nested_objects(self) -> None:
        """plain() turns SDK objects anywhere in a free-form value into JSON values."""
        value = plain({"a": [sdk.Context(description="d", value="v")], "b": (1, 2)})
        assert value == {"a": [{"description": "d", "value": "v"}], "b": [1, 2]}


class TestRehydrate:
    def test_sdk_messages_and_both_spellings_rehydrate_alike(self) -> None:
        """Reducer.rehydrate takes SDK messages (it used to raise TypeError) and dicts."""
        reducer = Reducer()
        expected = reducer.rehydrate([_camel(m) for m in _history()])
        assert expected.state.history
        assert expected.state.history[0].message_id == "a1"
        assert reducer.rehydrate(_history()) == expected
        assert reducer.rehydrate([_snake(m) for m in _history()]) == expected
