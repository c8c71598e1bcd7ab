"""Wire keys in either spelling (:mod:`a2ui_stream._wire.keys`).

Only the fields our wire types declare are renamed, at every level a wire type nests;
free-form values keep their keys; the wire spelling wins when both are given; SDK
objects are dumped with their aliases.
"""

from __future__ import annotations

from typing import Any

import pytest

from a2ui_stream._wire.keys import camel_keys, camel_message, camel_value, dumped, plain
from a2ui_stream._wire.messages import Context, RunAgentInput, Tool


class TestCamelKeys:
    def test_declared_fields_are_renamed(self) -> None:
        event = {"type": "RUN_STARTED", "thread_id": "t", "run_id": "r", "parent_run_id": None}
        assert camel_keys(event) == {
            "type": "RUN_STARTED",
            "threadId": "t",
            "runId": "r",
            "parentRunId": None,
        }

    def test_camel_input_is_unchanged(self) -> None:
        event = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
        assert camel_keys(event) == event

    def test_wire_spelling_wins_over_snake(self) -> None:
        """Both spellings given, in either order: the camelCase value is kept."""
        for event in (
            {"type": "RUN_STARTED", "threadId": "wire", "thread_id": "snake", "runId": "r"},
            {"type": "RUN_STARTED", "thread_id": "snake", "threadId": "wire", "runId": "r"},
        ):
            assert camel_keys(event)["threadId"] == "wire"
            assert "thread_id" not in camel_keys(event)

    def test_unknown_keys_are_kept_as_they_are(self) -> None:
        event: dict[Any, Any] = {"type": "RUN_STARTED", "run_id": "r", "some_key": 1, 7: "x"}
        assert camel_keys(event) == {"type": "RUN_STARTED", "runId": "r", "some_key": 1, 7: "x"}

    @pytest.mark.parametrize(
        "event",
        [{"type": "NOT_AN_EVENT", "run_id": "r"}, {"run_id": "r"}, {"type": 3, "run_id": "r"}],
        ids=["unknown type", "no type", "type not a string"],
    )
    def test_not_an_event_is_returned_as_it_is(self, event: dict[str, Any]) -> None:
        assert camel_keys(event) is event

    def test_an_enum_tag_is_read_by_its_value(self) -> None:
        """The official SDK's ``EventType.RUN_STARTED`` tags by its value."""

        class Tag:
            value = "RUN_STARTED"

        assert camel_keys({"type": Tag(), "run_id": "r"})["runId"] == "r"

    def test_content_keys_are_never_renamed(self) -> None:
        """Only declared fields are renamed: free-form content keeps its own keys."""
        event = {
            "type": "ACTIVITY_SNAPSHOT",
            "message_id": "m",
            "activity_type": "a2ui-surface",
            "content": {"a2ui_operations": [], "some_key": {"other_key": 1}},
            "raw_event": {"snake_case": True},
        }
        assert camel_keys(event) == {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": [], "some_key": {"other_key": 1}},
            "rawEvent": {"snake_case": True},
        }

    def test_nested_lists_of_wire_types(self) -> None:
        """A snapshot's messages and their tool calls are renamed; a non-list is left."""
        event = {
            "type": "MESSAGES_SNAPSHOT",
            "messages": [
                {"id": "a", "role": "assistant", "tool_calls": [{"id": "c", "type": "function"}]},
                {"id": "t", "role": "tool", "tool_call_id": "c", "content": "{}"},
                {"id": "x", "role": "nobody", "tool_call_id": "c"},
            ],
        }
        messages = camel_keys(event)["messages"]
        assert messages[0]["toolCalls"] == [{"id": "c", "type": "function"}]
        assert messages[1]["toolCallId"] == "c"
        assert messages[2] == {"id": "x", "role": "nobody", "tool_call_id": "c"}
        broken = {"type": "MESSAGES_SNAPSHOT", "messages": "not a list"}
        assert camel_keys(broken) == broken


class TestMessagesAndValues:
    def test_camel_message_by_role(self) -> None:
        message = {"id": "t", "role": "tool", "tool_call_id": "c", "content": "x"}
        assert camel_message(message)["toolCallId"] == "c"
        assert camel_message({"id": "u", "role": "user", "content": "hi"}) == {
            "id": "u",
            "role": "user",
            "content": "hi",
        }

    def test_camel_value_of_each_kind(self) -> None:
        run = camel_value({"thread_id": "t", "forwarded_props": {"keep_me": 1}}, RunAgentInput)
        assert run == {"threadId": "t", "forwardedProps": {"keep_me": 1}}
        assert camel_value({"name": "n", "parameters": {"a_b": 1}}, Tool) == {
            "name": "n",
            "parameters": {"a_b": 1},
        }
        assert camel_value({"description": "d", "value": "v"}, Context) == {
            "description": "d",
            "value": "v",
        }

    def test_camel_value_passes_a_non_mapping(self) -> None:
        assert camel_value("text", Context) == "text"


class _Model:
    """Stands in for a pydantic model: what ``model_dump`` was asked is recorded."""

    def __init__(self) -> None:
        self.asked: dict[str, Any] = {}

    def model_dump(self, **options: Any) -> dict[str, Any]:
        self.asked = options
        return {"threadId": "t"}


class TestDumped:
    def test_a_model_is_dumped_with_its_aliases_and_without_nones(self) -> None:
        model = _Model()
        assert dumped(model) == {"threadId": "t"}
        assert model.asked == {"mode": "json", "by_alias": True, "exclude_none": True}

    def test_anything_else_is_as_it_is(self) -> None:
        value = {"model_dump": "a key, not a method"}
        assert dumped(value) is value
        assert dumped(3) == 3

    def test_plain_makes_json_values_everywhere(self) -> None:
        value = plain({"a": (_Model(), [1, (2,)]), "b": {"c": _Model()}})
        assert value == {"a": [{"threadId": "t"}, [1, [2]]], "b": {"c": {"threadId": "t"}}}
        assert type(value["a"]) is list
