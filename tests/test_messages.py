"""AG-UI messages and run input (``_wire.messages``): told apart by role, camelCase on the
wire, unset fields left out."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from a2ui_stream._wire.messages import (
    ActivityMessage,
    AssistantMessage,
    Context,
    DeveloperMessage,
    FunctionCall,
    Message,
    ReasoningMessage,
    ResumeEntry,
    RunAgentInput,
    SystemMessage,
    TokenUsage,
    Tool,
    ToolCall,
    ToolMessage,
    UserMessage,
)

CALL = ToolCall(id="c1", function=FunctionCall(name="f", arguments='{"a":1}'))

#: One message of each role, and its wire form.
MESSAGES: list[tuple[Any, dict[str, Any]]] = [
    (DeveloperMessage(id="d", content="be brief"), {"role": "developer", "content": "be brief"}),
    (
        SystemMessage(id="s", content="sys", name="n"),
        {"role": "system", "content": "sys", "name": "n"},
    ),
    (
        AssistantMessage(id="a", tool_calls=[CALL]),
        {
            "role": "assistant",
            "toolCalls": [
                {"id": "c1", "function": {"name": "f", "arguments": '{"a":1}'}, "type": "function"}
            ],
        },
    ),
    (
        UserMessage(id="u", content=[{"type": "image", "url": "u"}], subagent_run_id="sa"),
        {"role": "user", "content": [{"type": "image", "url": "u"}], "subagentRunId": "sa"},
    ),
    (
        ToolMessage(id="t", content="ok", tool_call_id="c1", error=None),
        {"role": "tool", "content": "ok", "toolCallId": "c1", "error": None},
    ),
    (
        ActivityMessage(id="x", activity_type="a2ui-surface", content={"k": 1}),
        {"role": "activity", "activityType": "a2ui-surface", "content": {"k": 1}},
    ),
    (ReasoningMessage(id="r", content="why"), {"role": "reasoning", "content": "why"}),
]


@pytest.mark.parametrize(("message", "wire"), MESSAGES, ids=lambda m: type(m).__name__)
def test_each_role_on_the_wire(message: Any, wire: dict[str, Any]) -> None:
    """Each role encodes tagged, camelCase, without unset fields, and decodes back equal."""
    encoded = msgspec.json.encode(message)
    assert msgspec.json.decode(encoded) == {"id": wire_id(message), **wire}
    assert msgspec.json.decode(encoded, type=Message) == message


def wire_id(message: Any) -> str:
    """The message's id (every role carries one)."""
    return str(message.id)


def test_unknown_role_is_refused() -> None:
    """A role AG-UI does not define is a decode error, not a guess."""
    with pytest.raises(msgspec.ValidationError, match="role"):
        msgspec.json.decode(b'{"role":"robot","id":"m","content":"x"}', type=Message)


def test_missing_required_field_is_refused() -> None:
    """A tool message without its call id does not decode."""
    with pytest.raises(msgspec.ValidationError, match="toolCallId"):
        msgspec.json.decode(b'{"role":"tool","id":"m","content":"x"}', type=Message)


class TestRunAgentInput:
    def test_defaults_and_to_dict(self) -> None:
        """Only ids given: empty lists and props on the wire, every optional field left out."""
        run = RunAgentInput(thread_id="t", run_id="r")
        assert run.to_dict() == {
            "threadId": "t",
            "runId": "r",
            "messages": [],
            "tools": [],
            "context": [],
            "forwardedProps": {},
        }

    def test_every_field_camel_case(self) -> None:
        """Each field, set, appears once under its camelCase name."""
        run = RunAgentInput(
            thread_id="t",
            run_id="r",
            messages=[UserMessage(id="u", content="hi")],
            tools=[Tool(name="n", description="d", parameters={"type": "object"})],
            context=[Context(description="d", value="v")],
            forwarded_props={"x": 1},
            parent_run_id="p",
            state={"s": 1},
            resume=[ResumeEntry(interrupt_id="i", status="cancelled")],
            protocol_version="1.0",
        )
        plain = run.to_dict()
        assert set(plain) == {
            "threadId",
            "runId",
            "messages",
            "tools",
            "context",
            "forwardedProps",
            "parentRunId",
            "state",
            "resume",
            "protocolVersion",
        }
        assert plain["resume"] == [{"interruptId": "i", "status": "cancelled"}]
        assert plain["messages"] == [{"id": "u", "role": "user", "content": "hi"}]
        assert msgspec.json.decode(msgspec.json.encode(run), type=RunAgentInput) == run

    def test_to_dict_is_new_each_call(self) -> None:
        """Editing one result leaves the next as it was."""
        run = RunAgentInput(thread_id="t", run_id="r", forwarded_props={"x": [1]})
        first = run.to_dict()
        first["forwardedProps"]["x"].append(2)
        assert run.to_dict()["forwardedProps"] == {"x": [1]}

    def test_resume_status_is_checked(self) -> None:
        """A resume entry's status is resolved or cancelled, nothing else."""
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(b'{"interruptId":"i","status":"maybe"}', type=ResumeEntry)


def test_token_usage_fields() -> None:
    """Token counts use the protocol's camelCase names; all are optional."""
    usage = msgspec.json.decode(b'{"inputTokens":3,"cachedInputTokens":1}', type=TokenUsage)
    assert (usage.input_tokens, usage.cached_input_tokens) == (3, 1)
    assert msgspec.json.encode(TokenUsage()) == b"{}"
