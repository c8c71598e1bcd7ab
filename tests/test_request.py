"""Tests for the request side: context, forwarded props, render tool, actions, history."""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import httpx
import msgspec
import pytest
from ag_ui import core as ag_ui_core
from helpers import run_started, snapshot, v09_surface

from a2ui_stream import Processor
from a2ui_stream._request.guide import GUIDE_EXAMPLE, guide_context_description, render_tool_guide
from a2ui_stream._request.request import (
    SCHEMA_CONTEXT_DESCRIPTION,
    A2uiRequest,
    action_forwarded_props,
    action_message,
    action_text,
    answer_render_call,
    build_run_input,
    outbound_messages,
    render_tool,
)
from a2ui_stream.catalog import Catalog, basic_catalog, catalog_context
from a2ui_stream.errors import UsageError
from a2ui_stream.events import (
    ActivityMessage,
    AssistantMessage,
    Context,
    FunctionCall,
    RunAgentInput,
    Tool,
    ToolCall,
    ToolMessage,
    UserMessage,
)

SCHEMA_DESCRIPTION_BYTES = (
    b"A2UI Component Schema \xe2\x80\x94 available components for generating UI surfaces. "
    b"Use these component names and properties when creating A2UI operations."
)
CATALOG = Catalog.from_json(
    b'{"catalogId":"https://example.com/catalog.json","protocolVersion":"1.0",'
    b'"components":{"Card":{"type":"object"}}}'
)
MOMENT = dt.datetime(2026, 3, 4, 5, 6, 7, 891234, tzinfo=dt.UTC)
STAMP = "2026-03-04T05:06:07.891Z"
ACTION: dict[str, Any] = {
    "type": "a2ui:action",
    "name": "book",
    "surfaceId": "hotels",
    "sourceComponentId": "book-button",
    "context": {"hotel": "Alpine Inn"},
}


def clock() -> dt.datetime:
    """A fixed clock, so that timestamps are deterministic."""
    return MOMENT


def encoded(value: object) -> Any:
    """The JSON a value puts on the wire, decoded for structural comparison."""
    return json.loads(msgspec.json.encode(value))


def history() -> list[dict[str, Any]]:
    """A JSON history mixing the agent's messages with the client's own UI parts."""
    return [
        {"role": "system", "id": "s1", "content": "be brief"},
        {"role": "user", "id": "u1", "content": "find a hotel"},
        {
            "role": "assistant",
            "id": "a1",
            "content": "Here are hotels.",
            "toolCalls": [
                {
                    "id": "call-1",
                    "type": "function",
                    "function": {"name": "search", "arguments": "{}"},
                },
                {
                    "id": "a2ui:hotels",
                    "type": "function",
                    "function": {"name": "present", "arguments": "{}"},
                },
            ],
        },
        {"role": "tool", "id": "t1", "toolCallId": "call-1", "content": "3 hotels"},
        {"role": "tool", "id": "t2", "toolCallId": "a2ui:hotels", "content": "shown"},
        {
            "role": "activity",
            "id": "a2ui-surface-call-1",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": []},
        },
        {
            "role": "assistant",
            "id": "a2",
            "toolCalls": [
                {
                    "id": "a2ui:map",
                    "type": "function",
                    "function": {"name": "present", "arguments": "{}"},
                },
            ],
        },
        {"role": "reasoning", "id": "r1", "content": "thinking"},
        {"role": "user", "id": "u2", "content": "book it"},
    ]


class TestA2uiRequestContext:
    def test_schema_entry_first_and_bytes(self) -> None:
        """The first added entry is the schema entry, described byte for byte."""
        entries = A2uiRequest(CATALOG).context()
        assert entries[0].description.encode() == SCHEMA_DESCRIPTION_BYTES
        assert SCHEMA_CONTEXT_DESCRIPTION.encode() == SCHEMA_DESCRIPTION_BYTES

    def test_schema_entry_is_catalog_context(self) -> None:
        """The schema entry is exactly what catalog_context builds."""
        assert A2uiRequest(CATALOG).context()[0] == catalog_context(CATALOG)

    def test_schema_value(self) -> None:
        """The schema value is an object with catalogId and components on top."""
        value = json.loads(A2uiRequest(CATALOG).context()[0].value)
        assert value["catalogId"] == "https://example.com/catalog.json"
        assert set(value["components"]) == {"Card"}

    def test_guide_entry_default_name(self) -> None:
        """The guide entry follows the schema entry and names render_a2ui."""
        entries = A2uiRequest(CATALOG).context()
        assert len(entries) == 2
        assert entries[1].description.encode() == (
            b"A2UI render tool usage guide \xe2\x80\x94 how to call render_a2ui "
            b"with valid arguments."
        )
        assert entries[1].value == render_tool_guide("render_a2ui")

    def test_guide_entry_custom_name(self) -> None:
        """A custom tool name is in the guide's description and text, the default is not."""
        entry = A2uiRequest(CATALOG, render_tool_name="draw").context()[-1]
        assert entry.description == (
            "A2UI render tool usage guide \u2014 how to call draw with valid arguments."
        )
        assert entry.description == guide_context_description("draw")
        assert "draw" in entry.value
        assert "render_a2ui" not in entry.value

    def test_guidelines_off(self) -> None:
        """With guidelines off only the schema entry is added."""
        assert A2uiRequest(CATALOG, guidelines=False).context() == [catalog_context(CATALOG)]

    def test_keeps_callers_and_replaces_ours(self) -> None:
        """The caller's other entries keep their order; stale entries of ours go."""
        guide = guide_context_description("render_a2ui")
        existing: list[Context | dict[str, Any]] = [
            Context(description="Design guidelines", value="be calm"),
            {"description": SCHEMA_CONTEXT_DESCRIPTION, "value": "{}"},
            {"description": "User locale", "value": "de-CH"},
            Context(description=guide, value="stale"),
        ]
        request = A2uiRequest(CATALOG)
        result = request.context(existing)
        assert [entry.description for entry in result] == [
            "Design guidelines",
            "User locale",
            SCHEMA_CONTEXT_DESCRIPTION,
            guide,
        ]
        assert result[0] is existing[0]
        assert result[1] == Context(description="User locale", value="de-CH")
        assert all(entry.value not in {"{}", "stale"} for entry in result)

    def test_guide_of_another_tool_kept(self) -> None:
        """A guide entry for a differently named tool is not ours to replace."""
        other = Context(description=guide_context_description("draw"), value="x")
        result = A2uiRequest(CATALOG).context([other])
        assert result[0] == other
        assert len(result) == 3

    def test_idempotent(self) -> None:
        """Applying context to its own output changes nothing."""
        request = A2uiRequest(CATALOG)
        once = request.context([{"description": "d", "value": "v"}])
        assert request.context(once) == once
        assert encoded(request.context(once)) == encoded(once)

    def test_does_not_mutate(self) -> None:
        """The caller's list and its dicts are left as they were."""
        existing = [{"description": SCHEMA_CONTEXT_DESCRIPTION, "value": "{}"}]
        before = copy.deepcopy(existing)
        A2uiRequest(CATALOG).context(existing)
        assert existing == before

    def test_bad_entry(self) -> None:
        """An entry that is not a context entry is refused, naming its index."""
        with pytest.raises(UsageError, match="context entry 1"):
            A2uiRequest(CATALOG).context([{"description": "a", "value": "b"}, {"value": 3}])

    def test_wire_json(self) -> None:
        """The entries encode as plain {description, value} objects."""
        assert encoded(A2uiRequest(CATALOG, guidelines=False).context()) == [
            {"description": SCHEMA_CONTEXT_DESCRIPTION, "value": CATALOG.to_json().decode()},
        ]


class TestA2uiRequestForwardedProps:
    def test_default_flag_is_true(self) -> None:
        """The default tool name sends the JSON boolean true, not a string."""
        assert A2uiRequest(CATALOG).forwarded_props() == {"injectA2UITool": True}
        assert encoded(A2uiRequest(CATALOG).forwarded_props()) == {"injectA2UITool": True}

    def test_custom_name_is_the_flag(self) -> None:
        """A custom tool name is the flag's value."""
        assert A2uiRequest(CATALOG, "draw").forwarded_props() == {"injectA2UITool": "draw"}

    def test_keeps_props_and_replaces_flag(self) -> None:
        """Other keys stay; an explicit false is replaced by our flag."""
        existing = {"injectA2UITool": False, "a2uiAction": {"userAction": {"name": "book"}}}
        before = copy.deepcopy(existing)
        result = A2uiRequest(CATALOG).forwarded_props(existing)
        assert result == {"injectA2UITool": True, "a2uiAction": {"userAction": {"name": "book"}}}
        assert existing == before
        assert result is not existing

    def test_idempotent(self) -> None:
        """Applying forwarded_props to its own output changes nothing."""
        request = A2uiRequest(CATALOG, "draw")
        once = request.forwarded_props({"x": 1})
        assert request.forwarded_props(once) == once

    def test_never_false(self) -> None:
        """No construction ever makes the flag false or empty."""
        for name in ("render_a2ui", "draw", "x"):
            assert A2uiRequest(CATALOG, name).forwarded_props()["injectA2UITool"]

    def test_empty_tool_name_refused(self) -> None:
        """An empty render tool name is refused at construction, not sent as an opt-out."""
        with pytest.raises(UsageError, match="render_tool_name must not be empty"):
            A2uiRequest(CATALOG, render_tool_name="")

    def test_not_a_mapping(self) -> None:
        """Forwarded props that are not an object cannot be merged into."""
        with pytest.raises(UsageError, match="mapping"):
            A2uiRequest(CATALOG).forwarded_props(["x"])  # type: ignore[arg-type]

    def test_repr_and_properties(self) -> None:
        """The request shows what it was built with."""
        request = A2uiRequest(CATALOG, "draw", guidelines=False)
        assert request.catalog is CATALOG
        assert request.render_tool_name == "draw"
        assert "draw" in repr(request)
        assert "guidelines=False" in repr(request)


class TestRenderTool:
    def test_declaration(self) -> None:
        """The tool requires surfaceId and components and offers data."""
        tool = render_tool()
        wire = encoded(tool)
        assert wire["name"] == "render_a2ui"
        assert wire["parameters"]["type"] == "object"
        assert wire["parameters"]["required"] == ["surfaceId", "components"]
        assert set(wire["parameters"]["properties"]) == {"surfaceId", "components", "data"}
        assert wire["parameters"]["properties"]["components"]["type"] == "array"
        assert wire["parameters"]["properties"]["data"]["type"] == "object"
        assert isinstance(tool.description, str)
        assert tool.description

    def test_custom_name(self) -> None:
        """The tool takes the given name."""
        assert render_tool("draw").name == "draw"

    def test_empty_name(self) -> None:
        """An empty tool name is refused."""
        with pytest.raises(UsageError):
            render_tool("")

    def test_answer_rendered(self) -> None:
        """Usable arguments are answered with status rendered."""
        answer = answer_render_call(
            json.dumps(GUIDE_EXAMPLE), tool_call_id="call-7", message_id="m-7"
        )
        assert encoded(answer) == {
            "role": "tool",
            "id": "m-7",
            "toolCallId": "call-7",
            "content": '{"status":"rendered"}',
        }
        assert answer_render_call(GUIDE_EXAMPLE, tool_call_id="c", message_id="m") == (
            ToolMessage(id="m", content='{"status":"rendered"}', tool_call_id="c")
        )

    @pytest.mark.parametrize(
        ("arguments", "needle"),
        [
            ('{"surfaceId":"s"}', "`components`"),
            ('{"surfaceId":"s","components":[]}', "`components`"),
            ('{"components":[{"id":"root","component":"Column"}]}', "`surfaceId`"),
            ("not json", "not valid JSON"),
            ('{"surfaceId":"s\ud800"}', "not valid JSON"),  # a lone surrogate is no UTF-8
            ("[1]", "JSON object"),
            ('{"surfaceId":"s","components":[{"id":"a","component":"Text"}]}', '"root"'),
            ('{"surfaceId":"s","components":[{"id":"root"}]}', "components[0]"),
            (
                '{"surfaceId":"s","components":[{"id":"root","component":"Card"}],"data":3}',
                "`data`",
            ),
        ],
    )
    def test_answer_failure(self, arguments: str, needle: str) -> None:
        """Unusable arguments get a failure the model can read, naming the problem."""
        answer = answer_render_call(arguments, tool_call_id="c", message_id="m", tool_name="draw")
        assert isinstance(answer.content, str)
        assert answer.content.startswith("The draw call cannot be drawn: ")
        assert needle in answer.content
        assert "rendered" not in answer.content


class TestActions:
    def test_forwarded_props_shape(self) -> None:
        """A $action payload becomes a2uiAction.userAction with a timestamp added."""
        result = action_forwarded_props(ACTION, now=clock)
        assert result == {
            "a2uiAction": {
                "userAction": {
                    "name": "book",
                    "surfaceId": "hotels",
                    "sourceComponentId": "book-button",
                    "context": {"hotel": "Alpine Inn"},
                    "timestamp": STAMP,
                },
            },
        }
        assert list(result["a2uiAction"]["userAction"]) == [
            "name",
            "surfaceId",
            "sourceComponentId",
            "context",
            "timestamp",
        ]

    def test_timestamp_kept_when_present(self) -> None:
        """An action that already has a timestamp keeps it."""
        action = {**ACTION, "timestamp": "2020-01-01T00:00:00Z"}
        result = action_forwarded_props(action, now=clock)
        assert result["a2uiAction"]["userAction"]["timestamp"] == "2020-01-01T00:00:00Z"

    def test_default_clock(self) -> None:
        """Without a clock the timestamp is the current UTC time in ISO 8601."""
        before = dt.datetime.now(dt.UTC).replace(microsecond=0)
        stamp = action_forwarded_props(ACTION)["a2uiAction"]["userAction"]["timestamp"]
        assert stamp.endswith("Z")
        assert dt.datetime.fromisoformat(stamp) >= before - dt.timedelta(seconds=1)

    def test_naive_clock_is_utc(self) -> None:
        """A clock without a time zone is read as UTC."""
        result = action_forwarded_props(ACTION, now=lambda: MOMENT.replace(tzinfo=None))
        assert result["a2uiAction"]["userAction"]["timestamp"] == STAMP

    def test_other_zone_converted(self) -> None:
        """A clock in another zone is written in UTC."""
        zone = dt.timezone(dt.timedelta(hours=2))
        result = action_forwarded_props(ACTION, now=lambda: MOMENT.astimezone(zone))
        assert result["a2uiAction"]["userAction"]["timestamp"] == STAMP

    def test_input_rides_along(self) -> None:
        """What the UI collected ($input) stays in the user action."""
        action = {**ACTION, "$input": {"nights": "3"}}
        user_action = action_forwarded_props(action, now=clock)["a2uiAction"]["userAction"]
        assert user_action["$input"] == {"nights": "3"}
        assert list(user_action)[-1] == "timestamp"

    def test_missing_context_is_empty(self) -> None:
        """An action without context sends an empty context object."""
        action = {key: value for key, value in ACTION.items() if key != "context"}
        user_action = action_forwarded_props(action, now=clock)["a2uiAction"]["userAction"]
        assert user_action["context"] == {}

    def test_keeps_existing_props(self) -> None:
        """Existing props stay and a previous action is replaced."""
        existing = {"injectA2UITool": True, "a2uiAction": {"userAction": {"name": "old"}}}
        before = copy.deepcopy(existing)
        result = action_forwarded_props(ACTION, existing, now=clock)
        assert result["injectA2UITool"] is True
        assert result["a2uiAction"]["userAction"]["name"] == "book"
        assert existing == before

    def test_idempotent(self) -> None:
        """Feeding the user action and props back in changes nothing."""
        once = action_forwarded_props(ACTION, {"x": 1}, now=clock)
        again = action_forwarded_props(once["a2uiAction"]["userAction"], once, now=clock)
        assert again == once
        assert list(again) == list(once)

    def test_does_not_mutate_action(self) -> None:
        """The action payload is left as it was."""
        action = copy.deepcopy(ACTION)
        action_forwarded_props(action, now=clock)
        action_message(action, now=clock)
        assert action == ACTION

    def test_request_keeps_action(self) -> None:
        """A2uiRequest.forwarded_props keeps the action next to the flag."""
        props = A2uiRequest(CATALOG).forwarded_props(action_forwarded_props(ACTION, now=clock))
        assert props["injectA2UITool"] is True
        assert props["a2uiAction"]["userAction"]["name"] == "book"

    @pytest.mark.parametrize(
        ("action", "needle"),
        [
            ({"type": "a2ui:action", "surfaceId": "s"}, "name"),
            ({"type": "a2ui:action", "name": ""}, "name"),
            ({"type": "a2ui:function", "call": "openUrl", "args": {}}, "a2ui:function"),
        ],
    )
    def test_refused_actions(self, action: dict[str, Any], needle: str) -> None:
        """Actions without a name, and local function calls, are not sent."""
        with pytest.raises(UsageError, match=needle):
            action_forwarded_props(action, now=clock)

    def test_not_a_mapping(self) -> None:
        """An action that is not a mapping is refused."""
        with pytest.raises(UsageError, match="mapping"):
            action_forwarded_props("book", now=clock)  # type: ignore[arg-type]

    def test_action_message_v09(self) -> None:
        """The v0.9 client message carries the five required fields and nothing else."""
        assert action_message(ACTION, now=clock) == {
            "version": "v0.9",
            "action": {
                "name": "book",
                "surfaceId": "hotels",
                "sourceComponentId": "book-button",
                "timestamp": STAMP,
                "context": {"hotel": "Alpine Inn"},
            },
        }

    def test_action_message_v10(self) -> None:
        """The v1.0 message has the same shape, and keeps a userMessage."""
        action = {**ACTION, "userMessage": "Book the Alpine Inn"}
        message = action_message(action, version="v1.0", now=clock)
        assert message["version"] == "v1.0"
        assert message["action"]["userMessage"] == "Book the Alpine Inn"
        assert "userMessage" not in action_message(action, now=clock)["action"]

    def test_action_message_merges_input(self) -> None:
        """Collected input joins the context; a collected value wins on a shared key."""
        action = {**ACTION, "$input": {"nights": "3", "hotel": "Lake Lodge"}}
        context = action_message(action, now=clock)["action"]["context"]
        assert context == {"hotel": "Lake Lodge", "nights": "3"}

    def test_action_message_idempotent(self) -> None:
        """Building the message from its own action body gives the same message."""
        once = action_message(ACTION, now=clock)
        assert action_message(once["action"], now=clock) == once

    @pytest.mark.parametrize(
        ("action", "version", "needle"),
        [
            (ACTION, "v0.8", "version"),
            ({**ACTION, "surfaceId": None}, "v0.9", "surfaceId"),
            ({"name": "x", "surfaceId": "s"}, "v0.9", "sourceComponentId"),
            ({**ACTION, "context": [1]}, "v0.9", "context"),
        ],
    )
    def test_action_message_refused(
        self, action: dict[str, Any], version: str, needle: str
    ) -> None:
        """A message the schema would reject is refused before it is built."""
        with pytest.raises(UsageError, match=needle):
            action_message(action, version=version, now=clock)

    def test_action_text(self) -> None:
        """One line of user text: the ids, then the context with collected input merged."""
        action = {**ACTION, "$input": {"nights": "3", "hotel": "Lake Lodge"}}
        assert action_text(action) == (
            "[A2UI Action] name=book, surfaceId=hotels, sourceComponentId=book-button, "
            'context={"hotel":"Lake Lodge","nights":"3"}'
        )
        assert action_text({"name": "refresh"}) == "[A2UI Action] name=refresh, context={}"
        with pytest.raises(UsageError, match="a2ui:function"):
            action_text({"type": "a2ui:function", "call": "openUrl", "args": {}})

    def test_action_text_is_well_formed_text(self) -> None:
        """Lone surrogates a caller's decoder let through neither raise nor leave the line
        unsendable: escaped in the JSON as JavaScript writes them, U+FFFD elsewhere."""
        action = {"name": "n\ud800", "surfaceId": "s\ud83d\ude00", "context": {"k": "\udfff"}}
        text = action_text(action)
        assert text == (
            '[A2UI Action] name=n\ufffd, surfaceId=s\U0001f600, context={"k":"\\udfff"}'
        )
        text.encode()  # UTF-8 throughout

    def test_action_text_of_a_converted_press(self) -> None:
        """A Button's $action as the converter made it (frozen values, text past ASCII)."""
        card = [
            {"id": "root", "component": "Column", "children": ["btn"]},
            {"id": "label", "component": "Text", "text": "Book"},
            {
                "id": "btn",
                "component": "Button",
                "child": "label",
                "action": {
                    "event": {"name": "book", "context": {"who": {"path": "/who"}, "nights": 2}}
                },
            },
        ]
        processor = Processor()
        processor.feed_events(
            [run_started(), snapshot("m1", v09_surface("card", card, data={"who": "Zoë"}))]
        )
        (part,) = processor.parts()
        text = action_text(part.args["children"][0]["$action"])
        assert text == (
            "[A2UI Action] name=book, surfaceId=card, sourceComponentId=btn, "
            'context={"who":"Zoë","nights":2}'
        )


class TestOutboundMessages:
    def test_cleaning(self) -> None:
        """Our tool calls, their results, activities and emptied messages go; the rest stays."""
        result = encoded(outbound_messages(history()))
        assert [message["id"] for message in result] == ["s1", "u1", "a1", "t1", "r1", "u2"]
        assistant = result[2]
        assert assistant["content"] == "Here are hotels."
        assert [call["id"] for call in assistant["toolCalls"]] == ["call-1"]

    def test_everything_else_unchanged(self) -> None:
        """Kept messages are the same JSON as given."""
        given = {message["id"]: message for message in history()}
        for message in encoded(outbound_messages(history())):
            if message["id"] != "a1":
                assert message == given[message["id"]]

    def test_returns_structs(self) -> None:
        """Dicts come back as message Structs."""
        result = outbound_messages(history())
        assert isinstance(result[1], UserMessage)
        assert isinstance(result[2], AssistantMessage)

    def test_structs_in_and_identity(self) -> None:
        """Structs are accepted; an untouched Struct is returned as the same object."""
        user = UserMessage(id="u", content="hi")
        call = ToolCall(id="a2ui:s", function=FunctionCall(name="present", arguments="{}"))
        spoken = AssistantMessage(id="a", content="look", tool_calls=[call])
        silent = AssistantMessage(id="b", tool_calls=[call])
        activity = ActivityMessage(id="x", activity_type="a2ui-surface", content={})
        result = outbound_messages([user, spoken, silent, activity])
        assert result[0] is user
        assert result == [user, AssistantMessage(id="a", content="look")]
        assert spoken.tool_calls == [call]

    def test_assistant_with_empty_content_dropped(self) -> None:
        """An assistant message with empty content and only our calls is dropped."""
        message = {
            "role": "assistant",
            "id": "a",
            "content": "",
            "toolCalls": [
                {"id": "a2ui:s", "type": "function", "function": {"name": "p", "arguments": ""}}
            ],
        }
        assert outbound_messages([message]) == []

    def test_plain_assistant_kept(self) -> None:
        """An assistant message without tool calls is never touched."""
        message = AssistantMessage(id="a", content="")
        assert outbound_messages([message])[0] is message

    def test_idempotent(self) -> None:
        """Cleaning a cleaned history changes nothing."""
        once = outbound_messages(history())
        assert outbound_messages(once) == once

    def test_does_not_mutate(self) -> None:
        """The caller's history is left as it was."""
        messages = history()
        outbound_messages(messages)
        assert messages == history()

    def test_bad_message(self) -> None:
        """A dict that is not a message is refused, naming its index."""
        with pytest.raises(UsageError, match="message 1"):
            outbound_messages([{"role": "user", "id": "u", "content": "x"}, {"role": "robot"}])

    def test_bad_message_index_among_structs(self) -> None:
        """The reported index counts the Structs before the bad dict."""
        messages: list[Any] = [
            UserMessage(id="u0", content="x"),
            {"role": "user", "id": "u1", "content": "y"},
            {"role": "user", "id": "u2"},
        ]
        with pytest.raises(UsageError, match="message 2"):
            outbound_messages(messages)

    def test_mixed_structs_and_dicts_keep_order(self) -> None:
        """Structs and dicts mixed in one history come out in their order."""
        messages: list[Any] = [
            {"role": "user", "id": "u1", "content": "y"},
            UserMessage(id="u2", content="x"),
            {"role": "user", "id": "u3", "content": "z"},
        ]
        assert [message.id for message in outbound_messages(messages)] == ["u1", "u2", "u3"]


class TestBuildRunInput:
    def test_complete_input(self) -> None:
        """The run input carries ids, cleaned history, tools, context and props."""
        request = A2uiRequest(CATALOG, guidelines=False)
        run = build_run_input(
            request,
            thread_id="thread-1",
            run_id="run-2",
            messages=history(),
            tools=[{"name": "search", "description": "find", "parameters": {"type": "object"}}],
            context=[{"description": "User locale", "value": "de-CH"}],
            forwarded_props={"tenant": "acme"},
        )
        assert isinstance(run, RunAgentInput)
        wire = encoded(run)
        assert wire["threadId"] == "thread-1"
        assert wire["runId"] == "run-2"
        assert [message["id"] for message in wire["messages"]] == [
            "s1",
            "u1",
            "a1",
            "t1",
            "r1",
            "u2",
        ]
        assert wire["tools"] == [
            {"name": "search", "description": "find", "parameters": {"type": "object"}}
        ]
        assert wire["context"] == [
            {"description": "User locale", "value": "de-CH"},
            {"description": SCHEMA_CONTEXT_DESCRIPTION, "value": CATALOG.to_json().decode()},
        ]
        assert wire["forwardedProps"] == {"tenant": "acme", "injectA2UITool": True}
        assert "state" not in wire
        assert "parentRunId" not in wire

    def test_with_action(self) -> None:
        """An action rides in forwardedProps beside the flag."""
        run = build_run_input(
            A2uiRequest(CATALOG, "draw"),
            thread_id="t",
            run_id="r",
            action={**ACTION, "$input": {"nights": "3"}},
            now=clock,
        )
        assert run.forwarded_props == {
            "a2uiAction": {
                "userAction": {
                    "name": "book",
                    "surfaceId": "hotels",
                    "sourceComponentId": "book-button",
                    "context": {"hotel": "Alpine Inn"},
                    "$input": {"nights": "3"},
                    "timestamp": STAMP,
                },
            },
            "injectA2UITool": "draw",
        }

    def test_plain_run_without_a_request(self) -> None:
        """With no request, the run carries the caller's entries and props, nothing added."""
        run = build_run_input(
            None,
            thread_id="t",
            run_id="r",
            messages=history(),
            context=[{"description": "User locale", "value": "de-CH"}],
            forwarded_props={"tenant": "acme"},
            action=ACTION,
            now=clock,
        )
        wire = encoded(run)
        assert wire["context"] == [{"description": "User locale", "value": "de-CH"}]
        assert wire["forwardedProps"]["tenant"] == "acme"
        assert wire["forwardedProps"]["a2uiAction"]["userAction"]["name"] == "book"
        assert "injectA2UITool" not in wire["forwardedProps"]
        assert [message["id"] for message in wire["messages"]] == [
            "s1",
            "u1",
            "a1",
            "t1",
            "r1",
            "u2",
        ]

    def test_minimal(self) -> None:
        """With only ids, the input still asks the agent to draw."""
        run = build_run_input(A2uiRequest(basic_catalog("v1.0")), thread_id="t", run_id="r")
        wire = encoded(run)
        assert wire["messages"] == []
        assert wire["tools"] == []
        assert len(wire["context"]) == 2
        assert wire["forwardedProps"] == {"injectA2UITool": True}

    def test_state_and_parent(self) -> None:
        """State and parent run id are sent when given."""
        run = build_run_input(
            A2uiRequest(CATALOG),
            thread_id="t",
            run_id="r",
            state={"step": 1},
            parent_run_id="r0",
            tools=[render_tool()],
        )
        wire = encoded(run)
        assert wire["state"] == {"step": 1}
        assert wire["parentRunId"] == "r0"
        assert wire["tools"][0]["name"] == "render_a2ui"

    def test_idempotent(self) -> None:
        """Rebuilding from a run input's own parts gives the same run input."""
        request = A2uiRequest(CATALOG)
        once = build_run_input(
            request,
            thread_id="t",
            run_id="r",
            messages=history(),
            tools=[render_tool()],
            context=[{"description": "d", "value": "v"}],
            action=ACTION,
            now=clock,
        )
        again = build_run_input(
            request,
            thread_id="t",
            run_id="r",
            messages=once.messages,
            tools=once.tools,
            context=once.context,
            forwarded_props=once.forwarded_props,
        )
        assert again == once

    def test_to_dict_is_what_json_and_the_sdk_take(self) -> None:
        """to_dict() goes straight into json.dumps, httpx's json= and the SDK's model."""
        run = build_run_input(
            A2uiRequest(CATALOG),
            thread_id="t",
            run_id="r",
            messages=history(),
            tools=[render_tool()],
            action=ACTION,
            now=clock,
        )
        plain = run.to_dict()
        assert plain == json.loads(msgspec.json.encode(run))
        assert json.loads(json.dumps(plain)) == plain
        sent: list[bytes] = []

        def handler(request: httpx.Request) -> httpx.Response:
            sent.append(request.content)
            return httpx.Response(200)

        with httpx.Client(transport=httpx.MockTransport(handler)) as client:
            client.post("http://agent.test/run", json=plain)
        assert json.loads(sent[0]) == plain
        model = ag_ui_core.RunAgentInput.model_validate(plain)
        assert (model.thread_id, model.run_id) == ("t", "r")
        assert model.forwarded_props == plain["forwardedProps"]
        assert [tool.name for tool in model.tools or []] == [t["name"] for t in plain["tools"]]
        assert [entry.value for entry in model.context or []] == [
            c["value"] for c in plain["context"]
        ]

    def test_the_sdk_reads_and_writes_back_the_same_input(self) -> None:
        """Every field survives the SDK's model: its dump is ours, and ours reads its JSON.

        The history has what a thread holds after a cut run: a call with no result and
        arguments cut mid-JSON, a result for no call, a developer turn, reasoning, and
        a user turn with an image part.
        """
        cut: dict[str, Any] = {
            "role": "assistant",
            "id": "a9",
            "toolCalls": [
                {"id": "c9", "type": "function", "function": {"name": "f", "arguments": '{"q":'}}
            ],
        }
        extra: list[dict[str, Any]] = [
            {"role": "developer", "id": "d1", "content": "dev"},
            {"role": "reasoning", "id": "r9", "content": "thinking"},
            cut,
            {"role": "tool", "id": "t9", "toolCallId": "nobody", "content": "late"},
            {
                "role": "user",
                "id": "u9",
                "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image", "source": {"type": "url", "value": "https://x.test/a.png"}},
                ],
            },
        ]
        run = build_run_input(
            A2uiRequest(CATALOG),
            thread_id="t",
            run_id="r",
            messages=[*history(), *extra],
            tools=[render_tool()],
            context=[{"description": "mine", "value": "v"}],
            action=ACTION,
            state={"cart": [1, 2]},
            parent_run_id="r0",
            now=clock,
        )
        plain = run.to_dict()
        model = ag_ui_core.RunAgentInput.model_validate(plain)
        assert model.model_dump(mode="json", by_alias=True, exclude_none=True) == plain
        again = msgspec.json.decode(model.model_dump_json(by_alias=True), type=RunAgentInput)
        assert again.to_dict() == plain

    def test_to_dict_is_a_copy(self) -> None:
        """Editing what to_dict() returned leaves the input as it was."""
        run = build_run_input(A2uiRequest(CATALOG), thread_id="t", run_id="r")
        plain = run.to_dict()
        plain["context"].clear()
        plain["threadId"] = "other"
        assert run.to_dict() == json.loads(msgspec.json.encode(run))
        assert run.context

    def test_round_trips_through_json(self) -> None:
        """The encoded input decodes back to an equal RunAgentInput."""
        run = build_run_input(
            A2uiRequest(CATALOG),
            thread_id="t",
            run_id="r",
            messages=history(),
            tools=[render_tool()],
        )
        assert msgspec.json.decode(msgspec.json.encode(run), type=RunAgentInput) == run

    def test_does_not_mutate(self) -> None:
        """Nothing the caller passes is changed."""
        messages, props = history(), {"tenant": "acme"}
        context = [{"description": "d", "value": "v"}]
        tools = [Tool(name="search", description="find", parameters={})]
        build_run_input(
            A2uiRequest(CATALOG),
            thread_id="t",
            run_id="r",
            messages=messages,
            tools=tools,
            context=context,
            forwarded_props=props,
            action=ACTION,
            now=clock,
        )
        assert messages == history()
        assert props == {"tenant": "acme"}
        assert context == [{"description": "d", "value": "v"}]

    def test_bad_tool(self) -> None:
        """A tool dict without a name is refused."""
        with pytest.raises(UsageError, match="tool 0"):
            build_run_input(
                A2uiRequest(CATALOG), thread_id="t", run_id="r", tools=[{"description": "x"}]
            )
