"""A thread's history: the messages a conversation holds, folded from its run events.

Owns turning the events an agent streams into the AG-UI messages a client keeps and
sends back on the next run, as the AG-UI client builds them: streamed text into a
message of its role, tool calls into their assistant message (``parentMessageId``,
else a message of their own), tool results into tool messages, chunk events as the
start, content and end events the wire layer's expansion makes of them
(:func:`a2ui_stream._wire.chunks.expand`, whose diagnostics the processor fed the same
events reports), and ``MESSAGES_SNAPSHOT`` replacing the whole history, since it is the
agent's own account of the thread.

Rules it keeps: an event that starts a message, a call or a result whose id the history
already holds rebuilds that one in place, never a second copy (ag-ui-strands repeats
streamed calls and results in its snapshots); an event about an id the history lacks
(content without a start) is folded as leniently as the AG-UI client does, and never
raises. A chunk stream opened on an id the history holds continues that message or
call, as the AG-UI client applies every start; an explicit start rebuilds it. Activity
and reasoning are not kept: :func:`outbound_messages` would remove
activity anyway, surfaces are the processor's, and adapters differ in whether they
take reasoning back.

Sans-I/O like the processor: fed, never reads. May import: ``a2ui_stream._wire``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias

from msgspec import UNSET, UnsetType

from a2ui_stream._request.request import _structs
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.chunks import CHUNK_EVENTS, OpenChunks, expand

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    _Handler: TypeAlias = Callable[["ThreadHistory", Any], None]

__all__ = ["ThreadHistory"]


def _role(message: ev.Message) -> str:
    tag = type(message).__struct_config__.tag
    return tag if isinstance(tag, str) else ""


class _Call:
    """A tool call being streamed: its arguments gathered as pieces."""

    __slots__ = ("id", "name", "pieces")

    def __init__(self, call_id: str, name: str, arguments: str = "") -> None:
        self.id = call_id
        self.name = name
        self.pieces = [arguments] if arguments else []

    def built(self) -> ev.ToolCall:
        return ev.ToolCall(
            id=self.id, function=ev.FunctionCall(name=self.name, arguments="".join(self.pieces))
        )


class _Draft:
    """A message still open to events: text gathered as pieces, tool calls appended."""

    __slots__ = ("calls", "id", "name", "pieces", "role")

    def __init__(self, message_id: str, role: str) -> None:
        self.id = message_id
        self.role = role
        self.name: str | None = None
        self.pieces: list[str] | None = None  # None: no text at all, not an empty text
        self.calls: list[_Call] = []

    @classmethod
    def thaw(cls, message: ev.Message) -> _Draft:
        """Reopen a finished message, so that later events can extend it."""
        draft = cls(message.id, _role(message))
        content = getattr(message, "content", None)
        if isinstance(content, str):
            draft.pieces = [content]
        name = getattr(message, "name", None)
        draft.name = name if isinstance(name, str) else None
        for call in getattr(message, "tool_calls", None) or ():
            draft.calls.append(_Call(call.id, call.function.name, call.function.arguments))
        return draft

    def text(self, delta: str) -> None:
        if self.pieces is None:
            self.pieces = []
        self.pieces.append(delta)

    def built(self) -> ev.Message:
        content = "".join(self.pieces) if self.pieces is not None else None
        name = self.name if self.name is not None else UNSET
        if self.role == "assistant":
            return ev.AssistantMessage(
                id=self.id,
                content=UNSET if content is None else content,
                tool_calls=[call.built() for call in self.calls] or UNSET,
                name=name,
            )
        return _TEXT_ROLES[self.role](id=self.id, content=content or "", name=name)


#: Message kinds a streamed text message may become, by ``TEXT_MESSAGE_START.role``.
_TEXT_ROLES: Final[Mapping[str, Callable[..., ev.Message]]] = {
    "user": ev.UserMessage,
    "system": ev.SystemMessage,
    "developer": ev.DeveloperMessage,
}

#: Roles whose finished messages events may reopen.
_OPEN_ROLES: Final = frozenset({"assistant", *_TEXT_ROLES})

_Entry = ev.Message | _Draft


class ThreadHistory:
    """The messages of one thread, kept from what the client sent and the agent streamed.

    Add the client's own messages with :meth:`add`, fold every event of each run with
    :meth:`apply`, and read :attr:`messages` to send the history with the next run
    (through :func:`~a2ui_stream.outbound_messages`, which removes what must not go back).

    Args:
        messages: a stored history to continue, as Structs or camelCase dicts.

    Raises:
        UsageError: a dict in ``messages`` is not an AG-UI message.
    """

    __slots__ = ("_built", "_calls", "_chunks", "_entries", "_index")

    def __init__(self, messages: Iterable[ev.Message | Mapping[str, Any]] = ()) -> None:
        """Start from a stored history, or from nothing."""
        self._entries: list[_Entry] = []
        self._index: dict[str, int] = {}  # message id -> position in _entries
        self._calls: dict[str, tuple[_Draft, _Call]] = {}  # call id -> open owner, call
        self._chunks: OpenChunks = ()  # the chunk streams still open
        self._built: tuple[ev.Message, ...] | None = ()
        self._replace(_structs(messages, ev.Message, "message"))

    @property
    def messages(self) -> tuple[ev.Message, ...]:
        """Every message in thread order, open ones as they stand; a new tuple per change."""
        if self._built is None:
            self._built = tuple(
                entry.built() if isinstance(entry, _Draft) else entry for entry in self._entries
            )
        return self._built

    def add(self, message: ev.Message | Mapping[str, Any]) -> None:
        """Add one of the client's messages (a user turn, say); an id already held is replaced.

        Raises:
            UsageError: a dict that is not an AG-UI message.
        """
        for item in _structs([message], ev.Message, "message"):
            self._put(item)

    def apply(self, event: ev.Event) -> None:
        """Fold one event of a run into the history; events that carry no message are ignored."""
        if not self._chunks and type(event) not in CHUNK_EVENTS:
            self._fold(event, self._HANDLERS)
            return
        self._chunks, events, _ = expand(self._chunks, event)
        handlers = self._CHUNKED if type(event) in CHUNK_EVENTS else self._HANDLERS
        for one in events:
            self._fold(one, handlers)

    def _fold(self, event: ev.Event, handlers: Mapping[type[ev.Event], _Handler]) -> None:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(self, event)
            self._built = None

    # --- the entries ---------------------------------------------------------------

    def _replace(self, messages: Iterable[ev.Message]) -> None:
        self._entries.clear()
        self._index.clear()
        self._calls.clear()
        for message in messages:
            self._put(message)
        self._built = None

    def _put(self, entry: _Entry) -> None:
        """Append an entry, or put it in place of the one with its id."""
        position = self._index.get(entry.id)
        if position is None:
            self._index[entry.id] = len(self._entries)
            self._entries.append(entry)
        else:
            self._entries[position] = entry
        self._built = None

    def _draft(self, message_id: str, role: str) -> _Draft:
        """The open message with this id: reopened if finished, a new one if absent."""
        position = self._index.get(message_id)
        if position is None:
            draft = _Draft(message_id, role)
            self._put(draft)
            return draft
        entry = self._entries[position]
        if isinstance(entry, _Draft):
            return entry
        if _role(entry) not in _OPEN_ROLES:
            # Text for the id of a tool result, say: the newer event wins the id.
            draft = _Draft(message_id, role)
            self._put(draft)
            return draft
        draft = _Draft.thaw(entry)
        self._entries[position] = draft
        for call in draft.calls:
            self._calls[call.id] = (draft, call)
        return draft

    def _call(self, call_id: str) -> tuple[_Draft, _Call] | None:
        """The call with this id and its message, reopening a finished message holding it."""
        found = self._calls.get(call_id)
        if found is not None:
            return found
        for entry in self._entries:
            calls = getattr(entry, "tool_calls", None) or ()
            if not isinstance(entry, _Draft) and any(c.id == call_id for c in calls):
                self._draft(entry.id, "assistant")
                return self._calls.get(call_id)
        return None

    # --- one function per event type ------------------------------------------------

    # Events kept without a field AG-UI requires (as upstream's client keeps them): one
    # with no id to file under changes nothing here; a missing name, content or
    # message list reads as upstream's client reads it.

    def _text_start(self, event: ev.TextMessageStart) -> None:
        if not isinstance(event.message_id, str):
            return
        role = event.role if isinstance(event.role, str) else "assistant"
        # Restarted: its text begins again; tool calls already filed under it stay.
        self._draft(event.message_id, role).pieces = []

    def _text_content(self, event: ev.TextMessageContent) -> None:
        if isinstance(event.message_id, str):
            self._draft(event.message_id, "assistant").text(event.delta)

    def _text_open(self, event: ev.TextMessageStart) -> None:
        """A chunk stream's start: a new message, or the one with its id continued."""
        if isinstance(event.message_id, str):
            self._draft(
                event.message_id, event.role if isinstance(event.role, str) else "assistant"
            )

    def _call_start(self, event: ev.ToolCallStart) -> None:
        name = event.tool_call_name if isinstance(event.tool_call_name, str) else "tool"
        call = _Call(event.tool_call_id, name)
        found = self._call(call.id)
        if found is not None:  # restarted: its arguments begin again, where it stands
            owner, old = found
            owner.calls[owner.calls.index(old)] = call
        else:
            parent = event.parent_message_id
            owner = self._draft(parent if isinstance(parent, str) else call.id, "assistant")
            owner.calls.append(call)
        self._calls[call.id] = (owner, call)

    def _call_args(self, event: ev.ToolCallArgs) -> None:
        found = self._call(event.tool_call_id)
        if found is not None and isinstance(event.delta, str):
            found[1].pieces.append(event.delta)

    def _call_open(self, event: ev.ToolCallStart) -> None:
        """A chunk stream's start: a new call, or the one with its id continued."""
        if self._call(event.tool_call_id) is None:
            self._call_start(event)

    def _call_result(self, event: ev.ToolCallResult) -> None:
        message_id = event.message_id
        result = ev.ToolMessage(
            id=message_id if isinstance(message_id, str) else event.tool_call_id,
            content="" if isinstance(event.content, UnsetType) else event.content,
            tool_call_id=event.tool_call_id,
        )
        self._put(result)

    def _snapshot(self, event: ev.MessagesSnapshot) -> None:
        self._replace([] if isinstance(event.messages, UnsetType) else event.messages)

    #: What each event does to the history; an event type not listed carries no message.
    _HANDLERS: ClassVar[Mapping[type[ev.Event], _Handler]] = {
        ev.TextMessageStart: _text_start,
        ev.TextMessageContent: _text_content,
        ev.ToolCallStart: _call_start,
        ev.ToolCallArgs: _call_args,
        ev.ToolCallResult: _call_result,
        ev.MessagesSnapshot: _snapshot,
    }
    #: The same for the events a chunk expands into: its start opens or continues.
    _CHUNKED: ClassVar[Mapping[type[ev.Event], _Handler]] = {
        **_HANDLERS,
        ev.TextMessageStart: _text_open,
        ev.ToolCallStart: _call_open,
    }
