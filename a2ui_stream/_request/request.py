"""The request side: what a run must carry for an agent to draw, and what goes back.

Owns the additions a client makes to every run when no ``@ag-ui/a2ui-middleware``
stands in front of the agent (the schema and usage-guide context entries, the
``injectA2UITool`` flag; ``shared/reference/request-side.md`` section 1), the
``render_a2ui`` tool declaration and its answer, user actions in both conventions
(``forwardedProps.a2uiAction.userAction`` for the middleware and the adapters; the
A2UI ``action`` client message, ``shared/reference/a2ui-protocol.md`` section 4), and
the cleaning of history before it is sent back.

Rules every function here keeps: inputs are never mutated; an output fed back in
comes out unchanged; an entry or key this module owns is replaced, never added twice.
Functions accept our :mod:`a2ui_stream.events` Structs or the plain dicts a JSON
history holds (camelCase keys) and return Structs; the few that return plain
JSON-ready dicts say so (forwarded props and A2UI client messages are plain JSON).

Must not import: state, conversion or shell modules. Does no I/O, no logging. The
clock is a parameter wherever a timestamp is written.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import msgspec
from msgspec import UNSET, UnsetType

from a2ui_stream._request.catalog import Catalog, catalog_context
from a2ui_stream._request.guide import (
    SCHEMA_CONTEXT_DESCRIPTION,
    guide_context_description,
    render_tool_guide,
)
from a2ui_stream._wire.convention import (
    ACTION_KEY,
    INJECT_TOOL_KEY,
    RENDER_TOOL_NAME,
    TOOL_CALL_PREFIX,
    USER_ACTION_KEY,
)
from a2ui_stream._wire.events import (
    ActivityMessage,
    AssistantMessage,
    Context,
    Message,
    RunAgentInput,
    Tool,
    ToolMessage,
)
from a2ui_stream._wire.keys import camel_message, camel_value, dumped, plain
from a2ui_stream.errors import UsageError

__all__ = [
    "A2UI_TOOL_CALL_PREFIX",
    "ACTION_KEY",
    "ACTION_TEXT_PREFIX",
    "INJECT_TOOL_KEY",
    "RENDER_TOOL_DESCRIPTION",
    "RENDER_TOOL_NAME",
    "SCHEMA_CONTEXT_DESCRIPTION",
    "USER_ACTION_KEY",
    "A2uiRequest",
    "action_forwarded_props",
    "action_message",
    "action_text",
    "answer_render_call",
    "build_run_input",
    "guide_context_description",
    "outbound_messages",
    "render_tool",
]

#: Tool call ids with this prefix are our own UI parts, never the agent's calls.
A2UI_TOOL_CALL_PREFIX: Final = TOOL_CALL_PREFIX

RENDER_TOOL_DESCRIPTION: Final = (
    "Show the user an A2UI surface built from a flat list of components. "
    "Follow the usage guide in the context for the argument format."
)
"""Description of the render tool declaration (our words; agents do not match it)."""

_RENDERED: Final = '{"status":"rendered"}'
#: How :func:`action_text` starts a press written as user text.
ACTION_TEXT_PREFIX: Final = "[A2UI Action]"

Clock = Callable[[], dt.datetime]
"""Returns the current time; a parameter so that timestamps are testable."""


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _iso(moment: dt.datetime) -> str:
    # Millisecond precision and a Z suffix, as JavaScript's toISOString writes it.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


#: How a JSON object meant as each kind spells its fields as the wire does.
_WIRE_KEYS: Final[Mapping[Any, Callable[[Mapping[str, Any]], Mapping[str, Any]]]] = {
    Message: camel_message,
    Context: lambda value: camel_value(value, Context),
    Tool: lambda value: camel_value(value, Tool),
}


def _structs(values: Iterable[Any], kind: Any, what: str) -> list[Any]:
    """Return Structs as they are and convert everything else into ``kind``.

    JSON objects may spell fields in camelCase (the wire) or snake_case (the official
    Python SDK's ``model_dump()``); the SDK's own pydantic objects are dumped first.
    The JSON objects are converted in one call: msgspec prepares a union type per
    call, which costs more than converting a message.
    """
    items = [dumped(value) for value in values]
    rename = _WIRE_KEYS[kind]
    for index, value in enumerate(items):
        if isinstance(value, Mapping):
            items[index] = rename(value)
    raw = [index for index, value in enumerate(items) if isinstance(value, Mapping)]
    if not raw:
        return items
    try:
        converted = msgspec.convert([items[index] for index in raw], list[kind])
    except msgspec.ValidationError as exc:
        # msgspec names the failing position among the converted ones ("at `$[2].id`").
        text = str(exc)
        position = text.rsplit("$[", 1)[-1].split("]", 1)[0]
        where = f"{what} {raw[int(position)]}" if position.isdigit() else f"a {what}"
        raise UsageError(f"{where} is not a valid AG-UI value: {text}") from exc
    for index, value in zip(raw, converted, strict=True):
        items[index] = value
    return items


# --- Context and forwarded props --------------------------------------------------------


class A2uiRequest:
    """What to add to every run so that an agent without the middleware can draw.

    Build one per catalog and call :meth:`context` and :meth:`forwarded_props` on every
    run. Neither declares the render tool: see :func:`render_tool` for when to.

    Args:
        catalog: the catalog the client's renderer holds.
        render_tool_name: the render tool's name the agent was set up with.
        guidelines: also send the usage-guide context entry.

    Raises:
        UsageError: ``render_tool_name`` is empty (it would travel as
            ``injectA2UITool: ""``, which adapters read as "off").
    """

    __slots__ = ("_catalog", "_entries", "_flag", "_guidelines", "_name")

    def __init__(
        self,
        catalog: Catalog,
        render_tool_name: str = RENDER_TOOL_NAME,
        guidelines: bool = True,
    ) -> None:
        """Decide the added entries and the flag once; every call reuses them."""
        if not render_tool_name:
            raise UsageError("render_tool_name must not be empty: it would switch injection off")
        self._catalog = catalog
        self._name = render_tool_name
        self._guidelines = guidelines
        entries = [catalog_context(catalog)]
        if guidelines:
            entries.append(
                Context(
                    description=guide_context_description(render_tool_name),
                    value=render_tool_guide(render_tool_name),
                )
            )
        self._entries: tuple[Context, ...] = tuple(entries)
        # Never False: an explicit false overrides an agent's own opt-in, absence does not.
        self._flag: bool | str = True if render_tool_name == RENDER_TOOL_NAME else render_tool_name

    @property
    def catalog(self) -> Catalog:
        """The catalog this request describes."""
        return self._catalog

    @property
    def render_tool_name(self) -> str:
        """The render tool's name sent in the flag and the guide."""
        return self._name

    @property
    def render_tools(self) -> frozenset[str]:
        """The tool names whose streamed arguments draw, for ``Processor(render_tools=...)``.

        ``render_a2ui`` and this request's name: the middleware configured with this
        name intercepts both (the Python adapters' sub-agent calls ``render_a2ui``).
        """
        return frozenset({RENDER_TOOL_NAME, self._name})

    def __repr__(self) -> str:
        """Show the catalog id, tool name and guidelines switch."""
        return (
            f"A2uiRequest(catalog_id={self._catalog.catalog_id!r}, "
            f"render_tool_name={self._name!r}, guidelines={self._guidelines!r})"
        )

    def context(self, existing: Iterable[Context | Mapping[str, Any]] = ()) -> list[Context]:
        """Return the run's context with the schema entry and the usage guide added.

        Args:
            existing: the context the caller already sends, as Structs or
                ``{"description", "value"}`` dicts.

        Returns:
            A new list: the caller's entries in their order, minus any whose description
            is one of ours, then the schema entry, then the guide entry (when enabled).

        Raises:
            UsageError: an existing entry is not a context entry.
        """
        ours = {entry.description for entry in self._entries}
        kept = [
            entry
            for entry in _structs(existing, Context, "context entry")
            if entry.description not in ours
        ]
        kept.extend(self._entries)
        return kept

    def forwarded_props(self, existing: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return the run's forwarded props with ``injectA2UITool`` set.

        Args:
            existing: the props the caller already sends (kept, including any
                ``a2uiAction``), or ``None``.

        Returns:
            A new JSON-ready dict: ``existing`` plus ``injectA2UITool`` (``true`` for the
            default tool name, else the name), replacing any value already there.

        Raises:
            UsageError: ``existing`` is not a mapping.
        """
        props = _props(existing)
        props[INJECT_TOOL_KEY] = self._flag
        return props


def _props(existing: Mapping[str, Any] | None) -> dict[str, Any]:
    if existing is None:
        return {}
    if not isinstance(existing, Mapping):
        raise UsageError(f"forwarded props must be a mapping, not {type(existing).__name__}")
    return dict(plain(existing))


# --- The render tool ----------------------------------------------------------------------


def render_tool(name: str = RENDER_TOOL_NAME) -> Tool:
    """Declare the render tool, for agents that call it and wait for the client's answer.

    Declare it only for an agent that calls the render tool itself at the top level and
    waits for a result (the ADK shape); answer each call with
    :func:`answer_render_call`. Agents that draw through a sub-agent close the call
    themselves and must not get a second answer.

    Args:
        name: the tool's name.

    Returns:
        The AG-UI tool: ``surfaceId`` and ``components`` required, ``data`` optional.

    Raises:
        UsageError: ``name`` is empty.
    """
    if not name:
        raise UsageError("a render tool needs a non-empty name")
    return Tool(name=name, description=RENDER_TOOL_DESCRIPTION, parameters=_RENDER_PARAMETERS)


_RENDER_PARAMETERS: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "surfaceId": {
            "type": "string",
            "description": "Name of the surface; the same name redraws the same surface.",
        },
        "components": {
            "type": "array",
            "description": "Every component of the surface as one flat list; one has id root.",
            "items": {"type": "object"},
        },
        "data": {
            "type": "object",
            "description": "Initial data the components bind to, written at the root.",
        },
    },
    "required": ["surfaceId", "components"],
}


def _render_problems(arguments: str | bytes | Mapping[str, Any]) -> list[str]:
    if isinstance(arguments, Mapping):
        args: Any = arguments
    else:
        try:
            args = msgspec.json.decode(arguments)
        except (msgspec.DecodeError, UnicodeEncodeError):  # a lone surrogate is no UTF-8
            return ["the arguments are not valid JSON"]
    if not isinstance(args, Mapping):
        return ["the arguments must be a JSON object"]
    problems = []
    surface_id = args.get("surfaceId")
    if not isinstance(surface_id, str) or not surface_id:
        problems.append("`surfaceId` is required and must be a non-empty string")
    components = args.get("components")
    if not isinstance(components, list) or not components:
        problems.append("`components` is required and must be a non-empty array")
    else:
        ids = set()
        for index, component in enumerate(components):
            if not isinstance(component, Mapping) or not (
                isinstance(component.get("id"), str) and isinstance(component.get("component"), str)
            ):
                problems.append(f"components[{index}] needs a string `id` and `component`")
            else:
                ids.add(component["id"])
        if "root" not in ids:
            problems.append('no component has the id "root"')
    if "data" in args and not isinstance(args["data"], Mapping):
        problems.append("`data` must be an object when given")
    return problems


def answer_render_call(
    arguments: str | bytes | Mapping[str, Any],
    *,
    tool_call_id: str,
    message_id: str,
    tool_name: str = RENDER_TOOL_NAME,
) -> ToolMessage:
    """Answer a render call, for an agent that waits for the client's result.

    The answer only checks that the arguments can be drawn at all; drawing itself
    follows from the stream. A failure is an ordinary tool result whose text tells the
    model what to fix (AG-UI has no failure result).

    Args:
        arguments: the call's arguments: its JSON text or the decoded object.
        tool_call_id: the id of the call answered.
        message_id: the id of the tool message (the caller picks ids).
        tool_name: the render tool's name, used in the failure text.

    Returns:
        A tool message whose content is ``{"status":"rendered"}`` or the failure text.
    """
    problems = _render_problems(arguments)
    content = (
        f"The {tool_name} call cannot be drawn: {'; '.join(problems)}." if problems else _RENDERED
    )
    return ToolMessage(id=message_id, content=content, tool_call_id=tool_call_id)


# --- Actions --------------------------------------------------------------------------

_ACTION_FIELDS: Final = ("name", "surfaceId", "sourceComponentId", "context")
_A2UI_VERSIONS: Final = frozenset({"v0.9", "v1.0"})


def _user_action(action: Mapping[str, Any], now: Clock) -> dict[str, Any]:
    """Turn a ``$action`` payload (or a user action) into the ``userAction`` object."""
    if not isinstance(action, Mapping):
        raise UsageError(f"an action must be a mapping, not {type(action).__name__}")
    kind = action.get("type", "a2ui:action")
    if kind != "a2ui:action":
        raise UsageError(f"only a2ui:action payloads go to the agent, not {kind!r}")
    name = action.get("name")
    if not isinstance(name, str) or not name:
        raise UsageError("an action needs a non-empty string `name`")
    result: dict[str, Any] = {key: action[key] for key in _ACTION_FIELDS if key in action}
    result.setdefault("context", {})
    # Extras ride along (assistant-ui sends the collected `$input`); `type` is ours.
    result.update(
        (key, value)
        for key, value in action.items()
        if key not in result and key not in {"type", "timestamp"}
    )
    timestamp = action.get("timestamp")
    result["timestamp"] = timestamp if isinstance(timestamp, str) and timestamp else _iso(now())
    return result


def action_forwarded_props(
    action: Mapping[str, Any],
    existing: Mapping[str, Any] | None = None,
    *,
    now: Clock = _utc_now,
) -> dict[str, Any]:
    """Put a user action where the middleware and the adapters look for it.

    Args:
        action: a ``$action`` payload from the converter (``type`` ``"a2ui:action"``,
            ``name``, ``surfaceId``, ``sourceComponentId``, ``context``, and any
            ``$input`` the UI collected), or an already-built user action.
        existing: the forwarded props the run already carries, or ``None``.
        now: the clock used when the action has no timestamp.

    Returns:
        A new JSON-ready dict: ``existing`` with ``a2uiAction`` set to
        ``{"userAction": {name, surfaceId, sourceComponentId, context, ..., timestamp}}``
        (``context`` ``{}`` when absent, extras such as ``$input`` kept, an ISO 8601 UTC
        timestamp added when absent), replacing any earlier action.

    Raises:
        UsageError: the action has no name, is a local function call
            (``"a2ui:function"``), or ``existing`` is not a mapping.
    """
    props = _props(existing)
    props[ACTION_KEY] = {USER_ACTION_KEY: _user_action(action, now)}
    return props


def action_message(
    action: Mapping[str, Any],
    *,
    version: str = "v0.9",
    now: Clock = _utc_now,
) -> dict[str, Any]:
    """Build the A2UI client-to-server ``action`` message, for agents that take A2UI.

    Any ``$input`` the UI collected is merged into ``context`` (a collected value wins
    over a context entry of the same key: it is what the user entered last), because
    the message allows no other place for it.

    Args:
        action: a ``$action`` payload from the converter (see
            :func:`action_forwarded_props`).
        version: ``"v0.9"`` or ``"v1.0"``.
        now: the clock used when the action has no timestamp.

    Returns:
        A new JSON-ready dict ``{"version", "action": {name, surfaceId,
        sourceComponentId, timestamp, context}}`` (v1.0 also keeps a ``userMessage``).

    Raises:
        UsageError: unknown version; no name; ``surfaceId``, ``sourceComponentId`` or
            ``context`` missing or of the wrong type.
    """
    if version not in _A2UI_VERSIONS:
        raise UsageError(f"no A2UI action message for version {version!r}")
    user_action = _user_action(action, now)
    for key in ("surfaceId", "sourceComponentId"):
        if not isinstance(user_action.get(key), str):
            raise UsageError(f"an A2UI action message needs a string `{key}`")
    context = user_action["context"]
    collected = user_action.get("$input", {})
    if not isinstance(context, Mapping) or not isinstance(collected, Mapping):
        raise UsageError("an A2UI action message needs object `context` and `$input`")
    body: dict[str, Any] = {
        "name": user_action["name"],
        "surfaceId": user_action["surfaceId"],
        "sourceComponentId": user_action["sourceComponentId"],
        "timestamp": user_action["timestamp"],
        "context": {**context, **collected},
    }
    if version == "v1.0" and isinstance(user_action.get("userMessage"), str):
        body["userMessage"] = user_action["userMessage"]
    return {"version": version, "action": body}


def action_text(action: Mapping[str, Any]) -> str:
    """Write a user action as one line of user text, for agents that read no forwarded action.

    The Python adapters (ag-ui-strands among them) never look at
    ``forwardedProps.a2uiAction``: only ``@ag-ui/a2ui-middleware`` turns it into
    messages. Sent as a user turn, this line is what such an agent's model is told of
    the press. The format is the one clients already send
    (``shared/reference/request-side.md`` section 4); any ``$input`` the UI collected is
    merged into ``context``, as :func:`action_message` merges it.

    Args:
        action: a ``$action`` payload (see :func:`action_forwarded_props`).

    Returns:
        ``[A2UI Action] name=<name>, surfaceId=<id>, sourceComponentId=<id>,
        context=<compact JSON>`` (a missing id is left out).

    Raises:
        UsageError: the action has no name or is a local function call.
    """
    user_action = _user_action(action, _utc_now)
    fields = [f"name={user_action['name']}"]
    fields.extend(
        f"{key}={user_action[key]}"
        for key in ("surfaceId", "sourceComponentId")
        if isinstance(user_action.get(key), str)
    )
    context, collected = user_action["context"], user_action.get("$input")
    if isinstance(context, Mapping) and isinstance(collected, Mapping):
        context = {**context, **collected}
    fields.append(f"context={_json_text(plain(context))}")
    return _well_formed(f"{ACTION_TEXT_PREFIX} {', '.join(fields)}")


def _json_text(value: Any) -> str:
    """Compact JSON text of ``value``, even where a string holds a lone surrogate.

    Such a string cannot be UTF-8, so msgspec refuses it; the surrogate is then written
    as a JSON escape, as JavaScript's ``JSON.stringify`` writes it.
    """
    try:
        return msgspec.json.encode(value).decode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))


def _well_formed(text: str) -> str:
    """``text`` with every lone surrogate (a caller's, never the stream's) made U+FFFD.

    A surrogate pair held as two code points becomes the one character it spells, as
    a JavaScript string holds it; the text can then be encoded as UTF-8 to be sent.
    """
    try:
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


# --- History --------------------------------------------------------------------------


def _ours(call_id: object) -> bool:
    return isinstance(call_id, str) and call_id.startswith(A2UI_TOOL_CALL_PREFIX)


def _drop(_message: Any) -> None:
    return None


def _clean_tool(message: ToolMessage) -> ToolMessage | None:
    return None if _ours(message.tool_call_id) else message


def _clean_assistant(message: AssistantMessage) -> AssistantMessage | None:
    if not message.tool_calls:
        return message
    calls = [call for call in message.tool_calls if not _ours(call.id)]
    if len(calls) == len(message.tool_calls):
        return message
    if calls:
        return msgspec.structs.replace(message, tool_calls=calls)
    if not message.content:
        return None  # nothing left to say
    return msgspec.structs.replace(message, tool_calls=UNSET)


# What each message kind becomes on the way out; a kind not listed goes out unchanged.
_CLEANERS: Final[Mapping[type, Callable[[Any], Message | None]]] = {
    ActivityMessage: _drop,
    ToolMessage: _clean_tool,
    AssistantMessage: _clean_assistant,
}


def _keep(message: Message) -> Message:
    return message


def outbound_messages(messages: Iterable[Message | Mapping[str, Any]]) -> list[Message]:
    """Remove from a history what must not go back to the agent.

    Removed: tool calls whose id starts with ``a2ui:`` (the client's own UI parts) and
    the tool results answering them; ``role: "activity"`` messages (frontend only, as
    the AG-UI client strips them); an assistant message left with neither content nor
    tool calls. Everything else is kept, in order, unchanged.

    Args:
        messages: the history, as Structs or camelCase dicts.

    Returns:
        A new list of message Structs.

    Raises:
        UsageError: a dict is not an AG-UI message.
    """
    result = []
    for message in _structs(messages, Message, "message"):
        cleaned = _CLEANERS.get(type(message), _keep)(message)
        if cleaned is not None:
            result.append(cleaned)
    return result


# --- The whole run input --------------------------------------------------------------


def build_run_input(
    request: A2uiRequest | None,
    *,
    thread_id: str,
    run_id: str,
    messages: Iterable[Message | Mapping[str, Any]] = (),
    tools: Sequence[Tool | Mapping[str, Any]] = (),
    context: Iterable[Context | Mapping[str, Any]] = (),
    forwarded_props: Mapping[str, Any] | None = None,
    action: Mapping[str, Any] | None = None,
    state: Any | UnsetType = UNSET,
    parent_run_id: str | UnsetType | None = UNSET,
    now: Clock = _utc_now,
) -> RunAgentInput:
    """Assemble a complete run input that asks the agent to draw.

    Args:
        request: the catalog-bound additions (context entries, ``injectA2UITool``), or
            ``None`` for a plain run without them (to see what they change).
        thread_id: the conversation's id.
        run_id: this run's id.
        messages: the history; cleaned with :func:`outbound_messages`.
        tools: the client's tools (add :func:`render_tool` here only for agents that
            wait for the client's answer).
        context: the caller's own context entries.
        forwarded_props: the caller's own forwarded props.
        action: a user action to send with this run (see
            :func:`action_forwarded_props`), or ``None``.
        state: the agent state to send, if any.
        parent_run_id: the run this one continues, if any.
        now: the clock used when the action has no timestamp.

    Returns:
        The :class:`~a2ui_stream.events.RunAgentInput`; encode it with msgspec's JSON
        encoder to send it.

    Raises:
        UsageError: an argument cannot be read (see the functions named above).
    """
    props = (
        forwarded_props
        if action is None
        else action_forwarded_props(action, forwarded_props, now=now)
    )
    if request is None:
        entries, sent = _structs(context, Context, "context entry"), _props(props)
    else:
        entries, sent = request.context(context), request.forwarded_props(props)
    return RunAgentInput(
        thread_id=thread_id,
        run_id=run_id,
        messages=outbound_messages(messages),
        tools=_structs(tools, Tool, "tool"),
        context=entries,
        forwarded_props=sent,
        parent_run_id=parent_run_id,
        state=plain(state),
    )
