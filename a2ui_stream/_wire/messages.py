"""AG-UI 1.0 messages, tools, context and run input: what a run carries to an agent.

Owns the message types (tagged on ``role``), tool calls, tools, context entries, token
usage and :class:`RunAgentInput`, with the conventions of :mod:`a2ui_stream.events`
(frozen msgspec Structs, camelCase on the wire, optional fields ``UNSET``). They are
re-exported from :mod:`a2ui_stream.events`, where users import them. Imports only
msgspec; does no I/O.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

__all__ = [
    "ActivityMessage",
    "AssistantMessage",
    "Context",
    "DeveloperMessage",
    "FunctionCall",
    "Message",
    "ReasoningMessage",
    "ResumeEntry",
    "RunAgentInput",
    "SystemMessage",
    "TextRole",
    "TokenUsage",
    "Tool",
    "ToolCall",
    "ToolMessage",
    "UserMessage",
]

TextRole: TypeAlias = Literal["developer", "system", "assistant", "user"]
"""Roles a streamed text message may take (``TEXT_MESSAGE_START.role``)."""


# --------------------------------------------------------------------------- shared parts


class FunctionCall(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The function a tool call invokes.

    Attributes:
        name: the tool's name.
        arguments: the arguments as a JSON string, exactly as the model produced them.
    """

    name: str
    arguments: str


class ToolCall(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One tool call made by an assistant message.

    Attributes:
        id: the tool call id that the matching tool message and result refer to.
        function: name and JSON arguments.
        type: always ``"function"`` in AG-UI 1.0.
        encrypted_value: opaque provider state, if any.
        metadata: free-form metadata, if any.
    """

    id: str
    function: FunctionCall
    type: Literal["function"] = "function"
    encrypted_value: str | UnsetType | None = UNSET
    metadata: dict[str, Any] | UnsetType | None = UNSET


class TokenUsage(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """Token counts reported with ``RUN_FINISHED`` or ``RUN_ERROR``; every field optional."""

    provider: str | UnsetType | None = UNSET
    model: str | UnsetType | None = UNSET
    input_tokens: int | UnsetType | None = UNSET
    output_tokens: int | UnsetType | None = UNSET
    total_tokens: int | UnsetType | None = UNSET
    reasoning_tokens: int | UnsetType | None = UNSET
    cached_input_tokens: int | UnsetType | None = UNSET
    cache_write_input_tokens: int | UnsetType | None = UNSET


class Tool(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A tool the client offers the agent.

    Attributes:
        name: the tool's name.
        description: what it does, for the model.
        parameters: the JSON Schema of its arguments.
        metadata: free-form metadata (an A2UI schema, for instance), if any.
    """

    name: str
    description: str
    parameters: Any
    metadata: dict[str, Any] | UnsetType | None = UNSET


class Context(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A context entry sent with a run: a description and a string value."""

    description: str
    value: str


class ResumeEntry(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The client's answer to one interrupt, sent in ``RunAgentInput.resume``.

    Attributes:
        interrupt_id: the interrupt answered.
        status: ``"resolved"`` or ``"cancelled"``.
        payload: the answer, if any.
        metadata: free-form metadata, if any.
    """

    interrupt_id: str
    status: Literal["resolved", "cancelled"]
    payload: Any | UnsetType = UNSET
    metadata: dict[str, Any] | UnsetType | None = UNSET


# --------------------------------------------------------------------------- messages


class _MessageBase(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    rename="camel",
    tag_field="role",
    repr_omit_defaults=True,
):
    """Fields every message role carries."""

    id: str
    metadata: dict[str, Any] | UnsetType | None = UNSET
    subagent_run_id: str | UnsetType | None = UNSET


class DeveloperMessage(_MessageBase, frozen=True, tag="developer", kw_only=True):
    """A developer instruction."""

    content: str
    name: str | UnsetType | None = UNSET
    encrypted_value: str | UnsetType | None = UNSET


class SystemMessage(_MessageBase, frozen=True, tag="system", kw_only=True):
    """A system prompt."""

    content: str
    name: str | UnsetType | None = UNSET
    encrypted_value: str | UnsetType | None = UNSET


class AssistantMessage(_MessageBase, frozen=True, tag="assistant", kw_only=True):
    """An assistant turn: text, tool calls, or both."""

    content: str | UnsetType | None = UNSET
    tool_calls: list[ToolCall] | UnsetType | None = UNSET
    name: str | UnsetType | None = UNSET
    encrypted_value: str | UnsetType | None = UNSET


class UserMessage(_MessageBase, frozen=True, tag="user", kw_only=True):
    """A user turn.

    ``content`` is a string or a list of input parts (``{"type": "text", "text": ...}``,
    images, audio, documents...). Parts stay JSON objects so part kinds added by later
    protocol versions pass through unchanged.
    """

    content: str | list[dict[str, Any]]
    name: str | UnsetType | None = UNSET
    encrypted_value: str | UnsetType | None = UNSET


class ToolMessage(_MessageBase, frozen=True, tag="tool", kw_only=True):
    """The result of a tool call, as a string or a list of content parts."""

    content: str | list[dict[str, Any]]
    tool_call_id: str
    error: str | UnsetType | None = UNSET
    encrypted_value: str | UnsetType | None = UNSET


class ActivityMessage(_MessageBase, frozen=True, tag="activity", kw_only=True):
    """A frontend-only activity (an A2UI surface, for instance); never sent to agents."""

    activity_type: str
    content: dict[str, Any]


class ReasoningMessage(_MessageBase, frozen=True, tag="reasoning", kw_only=True):
    """Visible reasoning text of the model."""

    content: str
    encrypted_value: str | UnsetType | None = UNSET


Message: TypeAlias = (
    DeveloperMessage
    | SystemMessage
    | AssistantMessage
    | UserMessage
    | ToolMessage
    | ActivityMessage
    | ReasoningMessage
)
"""Any message, told apart by its ``role``."""


class RunAgentInput(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """Everything a client sends to start a run.

    Attributes:
        thread_id: the conversation thread.
        run_id: this run.
        messages: the conversation so far.
        tools: tools the client offers.
        context: context entries (the A2UI component schema travels here).
        forwarded_props: free-form props forwarded to the agent.
        parent_run_id: the run this one continues, if any.
        state: the shared state, if any.
        resume: answers to interrupts of the previous run, if any.
        protocol_version: the AG-UI protocol version spoken, if announced.
    """

    thread_id: str
    run_id: str
    messages: list[Message] = msgspec.field(default_factory=list)
    tools: list[Tool] = msgspec.field(default_factory=list)
    context: list[Context] = msgspec.field(default_factory=list)
    forwarded_props: Any = msgspec.field(default_factory=dict)
    parent_run_id: str | UnsetType | None = UNSET
    state: Any | UnsetType = UNSET
    resume: list[ResumeEntry] | UnsetType | None = UNSET
    protocol_version: str | UnsetType | None = UNSET

    def to_dict(self) -> dict[str, Any]:
        """The input as plain JSON values, camelCase keys as on the wire, unset fields left out.

        What ``json.dumps``, ``httpx.post(url, json=...)`` and the official SDK's
        ``RunAgentInput.model_validate`` take as they are; ``msgspec.json.encode(run)``
        gives the same document as bytes. A new dict each call: editing it changes
        nothing here.
        """
        built: dict[str, Any] = msgspec.to_builtins(self)
        return built


# --------------------------------------------------------------------------- events
