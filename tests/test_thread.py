"""ThreadHistory: run events folded into the messages a client sends back, without bytes."""

from __future__ import annotations

import pytest

from a2ui_stream import UsageError, outbound_messages
from a2ui_stream import events as ev
from a2ui_stream.client import ThreadHistory


def fold(*events: ev.Event, history: ThreadHistory | None = None) -> tuple[ev.Message, ...]:
    history = history or ThreadHistory()
    for event in events:
        history.apply(event)
    return history.messages


def text(message_id: str, *deltas: str, role: ev.TextRole | None = None) -> list[ev.Event]:
    start = (
        ev.TextMessageStart(message_id=message_id)
        if role is None
        else ev.TextMessageStart(message_id=message_id, role=role)
    )
    return [
        start,
        *(ev.TextMessageContent(message_id=message_id, delta=d) for d in deltas),
        ev.TextMessageEnd(message_id=message_id),
    ]


def call(call_id: str, name: str, *deltas: str, parent: str | None = None) -> list[ev.Event]:
    start = (
        ev.ToolCallStart(tool_call_id=call_id, tool_call_name=name)
        if parent is None
        else ev.ToolCallStart(tool_call_id=call_id, tool_call_name=name, parent_message_id=parent)
    )
    return [
        start,
        *(ev.ToolCallArgs(tool_call_id=call_id, delta=d) for d in deltas),
        ev.ToolCallEnd(tool_call_id=call_id),
    ]


def tool_call(call_id: str, name: str, arguments: str) -> ev.ToolCall:
    return ev.ToolCall(id=call_id, function=ev.FunctionCall(name=name, arguments=arguments))


class TestText:
    def test_deltas_make_one_assistant_message(self) -> None:
        """Streamed text becomes one assistant message holding the joined deltas."""
        assert fold(*text("a1", "Hel", "lo")) == (ev.AssistantMessage(id="a1", content="Hello"),)

    def test_role_is_kept(self) -> None:
        """A text message streamed with another role becomes a message of that role."""
        assert fold(*text("s1", "be brief", role="system")) == (
            ev.SystemMessage(id="s1", content="be brief"),
        )

    def test_open_message_reads_as_it_stands(self) -> None:
        """A message still streaming reads with the text so far; later deltas extend it."""
        history = ThreadHistory()
        for event in text("a1", "Hel", "lo")[:2]:
            history.apply(event)
        assert history.messages == (ev.AssistantMessage(id="a1", content="Hel"),)
        history.apply(ev.TextMessageContent(message_id="a1", delta="lo"))
        assert history.messages == (ev.AssistantMessage(id="a1", content="Hello"),)

    def test_content_without_start(self) -> None:
        """Content for an unknown id starts an assistant message, as the AG-UI client does."""
        assert fold(ev.TextMessageContent(message_id="x", delta="hi")) == (
            ev.AssistantMessage(id="x", content="hi"),
        )

    def test_chunks(self) -> None:
        """Chunk events start a message on a new id and continue it without one."""
        messages = fold(
            ev.TextMessageChunk(message_id="a1", delta="Hel"),
            ev.TextMessageChunk(delta="lo"),
            ev.TextMessageChunk(message_id="a2", role="user", delta="again"),
        )
        assert messages == (
            ev.AssistantMessage(id="a1", content="Hello"),
            ev.UserMessage(id="a2", content="again"),
        )

    def test_chunk_continuing_nothing_is_dropped(self) -> None:
        """A chunk with no id and nothing to continue changes nothing."""
        assert fold(ev.TextMessageChunk(delta="lost")) == ()


class TestToolCalls:
    def test_call_joins_its_parent_message(self) -> None:
        """A call with parentMessageId goes into that assistant message, after its text."""
        messages = fold(
            *text("a1", "Looking"),
            *call("c1", "search", '{"q":', '"Lisbon"}', parent="a1"),
            ev.ToolCallResult(message_id="t1", tool_call_id="c1", content="3 flights"),
        )
        assert messages == (
            ev.AssistantMessage(
                id="a1",
                content="Looking",
                tool_calls=[tool_call("c1", "search", '{"q":"Lisbon"}')],
            ),
            ev.ToolMessage(id="t1", content="3 flights", tool_call_id="c1"),
        )

    def test_call_without_parent_is_a_message_of_its_own(self) -> None:
        """A call with no parent becomes an assistant message whose id is the call's."""
        assert fold(*call("c1", "search", "{}")) == (
            ev.AssistantMessage(id="c1", tool_calls=[tool_call("c1", "search", "{}")]),
        )

    def test_call_chunks(self) -> None:
        """Tool call chunks start a call on a new id and continue it without one."""
        messages = fold(
            ev.ToolCallChunk(tool_call_id="c1", tool_call_name="f", delta='{"a"'),
            ev.ToolCallChunk(delta=":1}"),
        )
        assert messages == (
            ev.AssistantMessage(id="c1", tool_calls=[tool_call("c1", "f", '{"a":1}')]),
        )

    def test_args_for_unknown_call_are_ignored(self) -> None:
        """Arguments for a call never started change nothing and do not raise."""
        assert fold(ev.ToolCallArgs(tool_call_id="nope", delta="{}")) == ()


class TestSnapshots:
    def test_snapshot_replaces_the_history(self) -> None:
        """MESSAGES_SNAPSHOT is the agent's account of the thread: it replaces everything."""
        history = ThreadHistory([ev.UserMessage(id="u1", content="hi")])
        server: list[ev.Message] = [
            ev.UserMessage(id="u1", content="hi"),
            ev.AssistantMessage(id="a1", content="yo"),
        ]
        assert fold(ev.MessagesSnapshot(messages=server), history=history) == tuple(server)

    def test_repeated_call_and_result_after_snapshot_stay_single(self) -> None:
        """A call and result the snapshot already holds are rebuilt in place, not added twice."""
        streamed = [
            *text("a1", "Here"),
            *call("c1", "render", '{"x":1}', parent="a1"),
            ev.ToolCallResult(message_id="t1", tool_call_id="c1", content="ok"),
        ]
        history = ThreadHistory()
        before = fold(*streamed, history=history)
        after = fold(ev.MessagesSnapshot(messages=list(before)), *streamed, history=history)
        assert after == before

    def test_args_after_snapshot_extend_the_call(self) -> None:
        """Arguments streamed after a snapshot that holds the call extend that call."""
        snapshot = ev.MessagesSnapshot(
            messages=[ev.AssistantMessage(id="a1", tool_calls=[tool_call("c1", "f", '{"a"')])]
        )
        assert fold(snapshot, ev.ToolCallArgs(tool_call_id="c1", delta=":1}")) == (
            ev.AssistantMessage(id="a1", tool_calls=[tool_call("c1", "f", '{"a":1}')]),
        )

    def test_text_restarted_keeps_calls(self) -> None:
        """A TEXT_MESSAGE_START for an id already held starts its text again, calls kept."""
        messages = fold(
            *call("c1", "f", "{}", parent="a1"),
            *text("a1", "first"),
            *text("a1", "second"),
        )
        assert messages == (
            ev.AssistantMessage(id="a1", content="second", tool_calls=[tool_call("c1", "f", "{}")]),
        )


class TestAdd:
    def test_dicts_and_structs(self) -> None:
        """The client's messages are taken as Structs or camelCase dicts, in order."""
        history = ThreadHistory([{"role": "user", "id": "u1", "content": "hi"}])
        history.add(ev.UserMessage(id="u2", content="again"))
        assert history.messages == (
            ev.UserMessage(id="u1", content="hi"),
            ev.UserMessage(id="u2", content="again"),
        )

    def test_bad_dict_raises_usage_error(self) -> None:
        """A dict that is not a message is the caller's mistake."""
        with pytest.raises(UsageError, match="message"):
            ThreadHistory([{"role": "user"}])

    def test_events_that_carry_no_message_change_nothing(self) -> None:
        """Run, step and activity events leave the history as it was (same tuple)."""
        history = ThreadHistory([ev.UserMessage(id="u1", content="hi")])
        before = history.messages
        history.apply(ev.StepStarted(step_name="think"))
        assert history.messages is before

    def test_outbound_keeps_the_agents_own_calls(self) -> None:
        """The history goes out through outbound_messages, which keeps the agent's calls."""
        messages = fold(
            *call("c1", "search", "{}", parent="a1"),
            ev.ToolCallResult(message_id="t1", tool_call_id="c1", content="ok"),
        )
        assert outbound_messages(messages) == list(messages)
