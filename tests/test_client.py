"""AgentSession against a real AG-UI server (the official SDK), on asyncio and trio.

Every server is tests/sdk_agent.py's, on 127.0.0.1, started and stopped by the test;
every wait is bounded by the session's timeout or the stall bound of the server.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import msgspec
import pytest
from sdk_agent import MOVED, SdkAgent, Turn, free_port, recording_runs

from a2ui_stream import (
    SCHEMA_CONTEXT_DESCRIPTION,
    A2uiRequest,
    Catalog,
    Processor,
    UsageError,
    basic_catalog,
)
from a2ui_stream import events as ev
from a2ui_stream.client import (
    AgentContentTypeError,
    AgentError,
    AgentSession,
    AgentStatusError,
    AgentTimeoutError,
    AgentUnreachableError,
    RunFailedError,
    RunIncompleteError,
    SyncAgentSession,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from a2ui_stream import PartDiff

RUNS = recording_runs()
FIRST, SECOND = RUNS
#: A session timeout short enough for the stall tests, long enough for a loaded machine.
SHORT = 1.0


@pytest.fixture(params=["asyncio", "trio"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def run(backend: str, function: Callable[[], Awaitable[Any]]) -> Any:
    return anyio.run(function, backend=backend)


async def collect(diffs: AsyncIterator[PartDiff]) -> list[PartDiff]:
    return [diff async for diff in diffs]


def flights_action(session: AgentSession | SyncAgentSession) -> dict[str, Any]:
    flights = next(part for part in session.parts if part.surface_id == "flights")
    action: dict[str, Any] = flights.args["children"][2]["$action"]
    return action


def expected_diffs(*bodies: bytes) -> list[PartDiff]:
    processor = Processor()
    diffs = [d for body in bodies for d in processor.feed(body)]
    return diffs + processor.close()


class TestConversation:
    def test_a_turn_draws_what_process_draws(self, backend: str) -> None:
        """The diffs of a run are those the processor gives for the bytes the server sent."""
        with SdkAgent([Turn(FIRST)]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url, timeout=SHORT * 10) as session:
                    return await collect(session.send("Find me a flight"))

            diffs = run(backend, main)
        assert diffs == expected_diffs(bytes(agent.sent[0]))
        assert [d.tool_call_id for d in diffs if d.op == "add"] == ["a2ui:s1", "a2ui:flights"]

    def test_body_is_a_valid_run_input_asking_to_draw(self, backend: str) -> None:
        """The body validates as the SDK's RunAgentInput, with the catalog and injectA2UITool."""
        with SdkAgent([Turn(FIRST)]) as agent:

            async def main() -> None:
                async with AgentSession(agent.url, thread_id="t-1") as session:
                    await collect(session.send("Find me a flight"))

            run(backend, main)
        (sent,) = agent.inputs()
        assert sent.thread_id == "t-1"
        assert [m.model_dump(exclude_none=True)["role"] for m in sent.messages] == ["user"]
        assert sent.messages[0].content == "Find me a flight"
        schema = next(c for c in sent.context if c.description == SCHEMA_CONTEXT_DESCRIPTION)
        assert msgspec.json.decode(schema.value)["catalogId"] == basic_catalog("v0.9").catalog_id
        assert sent.forwarded_props == {"injectA2UITool": True}
        assert agent.headers[0]["accept"] == "text/event-stream"
        assert agent.headers[0]["content-type"] == "application/json"

    def test_second_turn_carries_the_first_turns_history(self, backend: str) -> None:
        """Turn two sends turn one's user message, assistant text, tool call and result."""
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:

            async def main() -> tuple[ev.Message, ...]:
                async with AgentSession(agent.url) as session:
                    await collect(session.send("Find me a flight"))
                    await collect(session.send("The cheapest, please"))
                    return session.messages

            kept = run(backend, main)
        first, second = agent.inputs()
        assert first.thread_id == second.thread_id
        assert first.run_id != second.run_id
        messages = [m.model_dump(by_alias=True, exclude_none=True) for m in second.messages]
        assert [(m["role"], m["id"]) for m in messages[1:3]] == [
            ("assistant", "msg-1"),
            ("tool", "tr-2"),
        ]
        assert messages[0]["content"] == "Find me a flight"
        assert messages[1]["content"] == "Here is your order summary."
        assert messages[1]["toolCalls"][0]["function"]["name"] == "render_a2ui"
        assert messages[1]["toolCalls"][0]["function"]["arguments"] == (
            '{"surfaceId":"flights","components":[...],"data":{...}}'
        )
        assert messages[2]["toolCallId"] == "tc2"
        assert (messages[3]["role"], messages[3]["content"]) == ("user", "The cheapest, please")
        assert len(messages) == 4
        assert len(kept) == 4  # the session holds what it sent

    def test_press_travels_as_user_action(self, backend: str) -> None:
        """A press is the next run's forwardedProps.a2uiAction.userAction, with $input."""
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url) as session:
                    await collect(session.send("Find me a flight"))
                    return await collect(session.press(flights_action(session), input={"n": 1}))

            pressed = run(backend, main)
        second = agent.inputs()[1]
        props = second.forwarded_props
        assert props["injectA2UITool"] is True
        user_action = props["a2uiAction"]["userAction"]
        assert user_action["name"] == "book"
        assert user_action["surfaceId"] == "flights"
        assert user_action["context"] == {"first": "TP 1351"}
        assert user_action["$input"] == {"n": 1}
        assert "type" not in user_action
        assert user_action["timestamp"].endswith("Z")
        assert len(second.messages) == 3  # a press adds no message of its own
        assert [d.tool_call_id for d in pressed if d.op == "add"] == ["a2ui:booking"]

    def test_snapshot_from_the_server_replaces_the_history(self, backend: str) -> None:
        """A MESSAGES_SNAPSHOT is what the next run sends, not the client's own account."""
        snapshot = {
            "type": "MESSAGES_SNAPSHOT",
            "messages": [
                {"id": "u-server", "role": "user", "content": "as the server saw it"},
                {"id": "a-server", "role": "assistant", "content": "noted"},
            ],
        }
        turns = [Turn([FIRST[0], snapshot, FIRST[-1]]), Turn(SECOND)]
        with SdkAgent(turns) as agent:

            async def main() -> None:
                async with AgentSession(agent.url) as session:
                    await collect(session.send("hello"))
                    await collect(session.send("next"))

            run(backend, main)
        sent = [m.model_dump(exclude_none=True) for m in agent.inputs()[1].messages]
        assert [m["id"] for m in sent[:2]] == ["u-server", "a-server"]
        assert sent[2]["content"] == "next"

    def test_plain_runs_without_the_request_side(self, backend: str) -> None:
        """request=False sends no A2UI context entries and no injectA2UITool."""
        with SdkAgent([Turn(FIRST)]) as agent:

            async def main() -> None:
                async with AgentSession(agent.url, request=False) as session:
                    await collect(session.send("hi"))

            run(backend, main)
        (sent,) = agent.inputs()
        assert not sent.context
        assert not sent.forwarded_props

    def test_a_custom_render_tool_draws(self, backend: str) -> None:
        """A request's own render tool name is the one whose streamed arguments draw."""
        args = msgspec.json.encode(
            {
                "surfaceId": "custom",
                "components": [{"id": "root", "component": "Text", "text": "drawn"}],
            }
        ).decode()
        call = [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "draw_it"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": args},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]
        request = A2uiRequest(basic_catalog("v0.9"), render_tool_name="draw_it")
        with SdkAgent([Turn(call), Turn(call)]) as agent:

            async def main(request: A2uiRequest | None) -> list[PartDiff]:
                async with AgentSession(agent.url, request=request or False) as session:
                    return await collect(session.send("Draw"))

            custom = run(backend, lambda: main(request))
            plain = run(backend, lambda: main(None))
        assert [d.tool_call_id for d in custom] == ["a2ui:custom"]
        assert plain == []

    def test_own_catalog_tools_context_and_props_go_on_every_run(self, backend: str) -> None:
        """A given request, the client's tools, context and props are sent each run."""
        catalog = Catalog.from_dict(
            {"catalogId": "https://example.com/c.json", "components": {"Row": {"type": "object"}}}
        )
        options: dict[str, Any] = {
            "request": A2uiRequest(catalog, render_tool_name="draw"),
            "tools": [{"name": "clock", "description": "time", "parameters": {}}],
            "context": [{"description": "user", "value": "Ana"}],
            "forwarded_props": {"tenant": "t1"},
        }
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:

            async def main() -> None:
                async with AgentSession(agent.url, **options) as session:
                    await collect(session.send("hi"))
                    await collect(session.press(flights_action(session)))

            run(backend, main)
        for sent in agent.inputs():
            assert [t.name for t in sent.tools or []] == ["clock"]
            assert next(c.description for c in sent.context or []) == "user"
            schema = next(c for c in sent.context or [] if c.description.startswith("A2UI Comp"))
            assert msgspec.json.decode(schema.value)["catalogId"] == "https://example.com/c.json"
            assert sent.forwarded_props["injectA2UITool"] == "draw"
            assert sent.forwarded_props["tenant"] == "t1"

    def test_headers_are_sent_and_never_shown(self, backend: str) -> None:
        """Extra headers reach the server; the session's repr does not show their values."""
        with SdkAgent([Turn(FIRST)]) as agent:

            async def main() -> str:
                headers = {"Authorization": "Bearer s3cret-token"}
                async with AgentSession(agent.url, headers=headers) as session:
                    await collect(session.send("hi"))
                    return repr(session)

            shown = run(backend, main)
        assert agent.headers[0]["authorization"] == "Bearer s3cret-token"
        assert "s3cret" not in shown

    def test_jsonl_body(self, backend: str) -> None:
        """A JSONL body (application/jsonl) draws the same as SSE."""
        turns = [Turn(FIRST, jsonl=True, content_type="application/jsonl")]
        with SdkAgent(turns) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url) as session:
                    return await collect(session.send("hi"))

            diffs = run(backend, main)
        assert bytes(agent.sent[0]).startswith(b'{"type":"RUN_STARTED"')
        assert diffs == expected_diffs(bytes(agent.sent[0]))

    def test_events_split_across_chunks(self, backend: str) -> None:
        """Events arriving one by one, with pauses, draw the same as a whole body."""
        with SdkAgent([Turn(FIRST, delay=0.01)]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url) as session:
                    return await collect(session.send("hi"))

            diffs = run(backend, main)
        assert diffs == expected_diffs(bytes(agent.sent[0]))

    def test_abandoned_run_is_closed_by_the_next(self, backend: str) -> None:
        """Leaving a run's loop early is fine: the next run closes it and goes ahead."""
        with SdkAgent([Turn(FIRST, delay=0.01), Turn(SECOND)]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url) as session:
                    async for _diff in session.send("hi"):
                        break
                    return await collect(session.send("again"))

            diffs = run(backend, main)
        assert [d.tool_call_id for d in diffs if d.op == "add"] == ["a2ui:booking"]

    def test_bad_arguments_fail_before_any_run(self) -> None:
        """Bad URL, timeout, message or action raise UsageError at the call, no request sent."""
        with pytest.raises(UsageError, match="http"):
            AgentSession("ftp://127.0.0.1/agent")
        with pytest.raises(UsageError, match="timeout"):
            AgentSession("http://127.0.0.1/agent", timeout=0)
        with pytest.raises(UsageError, match="port 99999, outside 1 to 65535"):
            AgentSession("http://127.0.0.1:99999/agent")  # httpx's connect raised OverflowError
        session = AgentSession("http://127.0.0.1/agent")
        with pytest.raises(UsageError, match="message"):
            session.send([{"role": "user"}])
        with pytest.raises(UsageError, match="name"):
            session.press({"type": "a2ui:action"})
        with pytest.raises(UsageError, match="a2ui:function"):
            session.press({"type": "a2ui:function", "call": "openUrl", "args": {}})
        assert session.messages == ()

    def test_text_that_cannot_be_sent_fails_before_it_joins_the_thread(self) -> None:
        """A lone surrogate (a non-UTF-8 byte of argv or a terminal) is refused when given:
        kept, it would fail every later run of the thread."""
        latin1 = "caf\udce9"  # how Python decodes b"caf\xe9" from the command line
        with pytest.raises(UsageError, match=r"not Unicode \('\\udce9' at character 3"):
            AgentSession("http://127.0.0.1/agent", thread_id=latin1)
        with pytest.raises(UsageError, match="not Unicode"):
            AgentSession("http://127.0.0.1/agent", context=[{"description": latin1, "value": ""}])
        session = AgentSession("http://127.0.0.1/agent")
        with pytest.raises(UsageError, match="the message holds text that is not Unicode"):
            session.send(latin1)
        press = {"type": "a2ui:action", "name": "book"}
        with pytest.raises(UsageError, match="the press holds text that is not Unicode"):
            session.press(press, input={"who": latin1})
        assert session.messages == ()

    @pytest.mark.parametrize(
        ("headers", "message"),
        [
            ({"X-Token": "tok-9f8e\u00e9"}, "the value of header 'X-Token' is not visible ASCII"),
            ({"X-Token": "tok-9f8e\r\nX-Evil: 1"}, "the value of header 'X-Token'"),
            ({"Bad Name": "tok-9f8e"}, "'Bad Name' is not an HTTP header name"),
        ],
    )
    def test_headers_http_cannot_carry_fail_first(
        self, headers: dict[str, str], message: str
    ) -> None:
        """A header httpx or h11 would refuse mid-run (quoting its value) fails here, unquoted."""
        with pytest.raises(UsageError, match=message) as caught:
            AgentSession("http://127.0.0.1/agent", headers=headers)
        assert "tok-9f8e" not in str(caught.value)


#: A turn of an agent that draws through the render tool, as the Python adapters do: no
#: ``a2ui-surface`` activity, so nothing tells the agent of a press but its text.
_CARD = {
    "surfaceId": "card",
    "components": [
        {
            "id": "root",
            "component": "Button",
            "child": "label",
            "action": {"event": {"name": "go"}},
        },
        {"id": "label", "component": "Text", "text": "Go"},
    ],
}
DIRECT = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TOOL_CALL_START", "toolCallId": "tc", "toolCallName": "render_a2ui"},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "tc", "delta": msgspec.json.encode(_CARD).decode()},
    {"type": "TOOL_CALL_END", "toolCallId": "tc"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
]


class TestPressText:
    """Whether a press is also a user turn: by default, unless the agent showed activity."""

    @pytest.mark.parametrize(
        ("first", "press_text", "stored", "told"),
        [
            (DIRECT, None, [], True),  # an agent drawing by tool calls reads only text
            (DIRECT, False, [], False),
            (FIRST, None, [], False),  # behind the middleware, which tells the agent
            (FIRST, True, [], True),
            # Stored middleware activity says so before any run of this session.
            (
                DIRECT,
                None,
                [
                    {
                        "role": "activity",
                        "id": "a",
                        "activityType": "a2ui-surface",
                        "content": {"a2ui_operations": []},
                    }
                ],
                False,
            ),
        ],
    )
    def test_press_text(
        self,
        first: list[dict[str, Any]],
        press_text: bool | None,
        stored: list[dict[str, Any]],
        told: bool,
    ) -> None:
        with SdkAgent([Turn(first), Turn(SECOND)]) as agent:

            async def main() -> None:
                async with AgentSession(
                    agent.url, press_text=press_text, messages=stored
                ) as session:
                    await collect(session.send("Draw"))
                    pressable = [p for p in session.parts if "$action" in p.args]
                    action = pressable[0].args["$action"] if pressable else flights_action(session)
                    await collect(session.press(action))

            run("asyncio", main)
        pressed = agent.inputs()[1]
        said = [m.content for m in pressed.messages if m.role == "user"]
        assert said[0] == "Draw"
        assert (len(said) == 2 and said[1].startswith("[A2UI Action] name=")) is told
        assert pressed.forwarded_props["a2uiAction"]["userAction"]["name"]


class TestSync:
    def test_sync_session_holds_a_conversation(self) -> None:
        """The sync wrapper sends, presses and keeps history like the async session."""
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent, SyncAgentSession(agent.url) as session:
            first = list(session.send("Find me a flight"))
            second = list(session.press(flights_action(session), input={"seats": "1"}))
        assert first == expected_diffs(bytes(agent.sent[0]))
        assert [d.tool_call_id for d in second if d.op == "add"] == ["a2ui:booking"]
        assert agent.inputs()[1].forwarded_props["a2uiAction"]["userAction"]["$input"] == {
            "seats": "1"
        }

    def test_sync_session_raises_the_runs_error(self) -> None:
        """A failed run raises its AgentError in the script's thread, after its diffs."""
        error = {"type": "RUN_ERROR", "message": "quota exceeded", "code": "quota"}
        with SdkAgent([Turn([*FIRST[:6], error])]) as agent, SyncAgentSession(agent.url) as session:
            seen: list[PartDiff] = []
            with pytest.raises(RunFailedError, match="quota exceeded"):
                seen.extend(session.send("hi"))
        assert [d.tool_call_id for d in seen] == ["a2ui:s1"]

    def test_sync_session_left_early(self) -> None:
        """Leaving a sync loop early cancels the run; the next run still works."""
        turns = [Turn(FIRST, delay=0.01), Turn(SECOND)]
        with SdkAgent(turns) as agent, SyncAgentSession(agent.url, backend="trio") as session:
            for _diff in session.send("hi"):
                break
            again = list(session.send("again"))
        assert [d.tool_call_id for d in again if d.op == "add"] == ["a2ui:booking"]


async def failure(url: str, **options: Any) -> tuple[AgentError, list[PartDiff]]:
    """Run one turn that must fail; return its error and the diffs yielded before it."""
    seen: list[PartDiff] = []
    async with AgentSession(url, **options) as session:
        diffs = session.send("hi")
        with pytest.raises(AgentError) as caught:
            await drain(diffs, seen)
    return caught.value, seen


async def drain(diffs: AsyncIterator[PartDiff], seen: list[PartDiff]) -> None:
    async for diff in diffs:
        seen.append(diff)  # noqa: PERF401 - one by one: a failure keeps those before it


class TestErrors:
    def test_connection_refused(self, backend: str) -> None:
        """Nothing listening: AgentUnreachableError naming the URL, quickly."""
        url = f"http://127.0.0.1:{free_port()}/agent"
        error, _ = run(backend, lambda: failure(url, timeout=SHORT * 5))
        assert isinstance(error, AgentUnreachableError)
        assert str(error) == f"cannot connect to {url}: Connection refused"

    def test_name_that_does_not_resolve(self, backend: str) -> None:
        """A DNS failure is AgentUnreachableError too (from httpx's own ConnectError)."""

        def no_such_name(request: httpx.Request) -> httpx.Response:
            # What httpcore raises when getaddrinfo fails; no query leaves the machine.
            raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

        async def main() -> tuple[AgentError, list[PartDiff]]:
            async with httpx.AsyncClient(transport=httpx.MockTransport(no_such_name)) as client:
                return await failure("http://agent.invalid/run", http_client=client)

        error, _ = run(backend, main)
        assert isinstance(error, AgentUnreachableError)
        assert "agent.invalid" in str(error)
        assert "Name or service not known" in str(error)

    @pytest.mark.parametrize("status", [401, 500])
    def test_status_other_than_2xx(self, backend: str, status: int) -> None:
        """Another status: AgentStatusError with the status and the body's first bytes."""
        body = b"<html>\n  <h1>Nope</h1>\n" + b"x" * 500
        with SdkAgent([Turn(status=status, body=body)]) as agent:
            error, _ = run(backend, lambda: failure(agent.url))
        assert isinstance(error, AgentStatusError)
        assert error.status == status
        assert error.body == body[:200]
        message = str(error)
        assert f"HTTP {status}" in message
        assert "<html> <h1>Nope</h1>" in message
        assert "\n" not in message
        assert len(message) < 400

    def test_a_redirect_is_followed_with_the_run(self, backend: str) -> None:
        """Starlette answers ``/agent/`` with a 307 to ``/agent``: the run goes there."""
        with SdkAgent([Turn(FIRST)]) as agent:

            async def talk() -> list[PartDiff]:
                async with AgentSession(agent.url + "/", timeout=SHORT * 10) as session:
                    return await collect(session.send("hi"))

            diffs = run(backend, talk)
        assert diffs == expected_diffs(bytes(agent.sent[0]))
        assert len(agent.received) == 1

    def test_a_redirect_elsewhere_keeps_the_post(self, backend: str) -> None:
        """A 307 to another path: the same POST goes there, and the run completes."""
        turns = [Turn(status=307, headers={"location": MOVED}), Turn(FIRST)]
        with SdkAgent(turns) as agent:

            async def talk() -> list[PartDiff]:
                async with AgentSession(agent.url, timeout=SHORT * 10) as session:
                    return await collect(session.send("hi"))

            diffs = run(backend, talk)
        assert diffs == expected_diffs(bytes(agent.sent[1]))
        assert agent.received[1] == agent.received[0]

    def test_a_refusal_after_a_redirect_names_where(self, backend: str) -> None:
        """A 302 turns the POST into a GET (as fetch does); the 405 names the redirect."""
        with SdkAgent([Turn(status=302, headers={"location": MOVED})]) as agent:
            url = agent.url
            error, _ = run(backend, lambda: failure(url))
        assert isinstance(error, AgentStatusError)
        assert error.status == 405
        moved = url.replace("/agent", MOVED)
        assert f"{url} (redirected to {moved}) answered HTTP 405" in str(error)

    def test_a_redirect_loop_is_a_status_error(self, backend: str) -> None:
        """Redirects past the client's limit: AgentStatusError saying so, not httpx's crash."""
        turns = [Turn(status=307, headers={"location": "/agent"})] * 3

        async def main() -> tuple[AgentError, list[PartDiff]]:
            async with httpx.AsyncClient(follow_redirects=True, max_redirects=2) as client:
                return await failure(url, http_client=client)

        with SdkAgent(turns) as agent:
            url = agent.url
            error, _ = run(backend, main)
        assert isinstance(error, AgentStatusError)
        assert error.status == 307
        assert str(error) == f"{url} redirected more than 2 times (the last time to {url})"
        assert len(agent.received) == 3

    def test_a_redirect_to_another_scheme_is_a_status_error(self, backend: str) -> None:
        """A redirect to an ftp: URL is the agent's answer, refused by name."""
        turns = [Turn(status=308, headers={"location": "ftp://127.0.0.1/agent"})]
        with SdkAgent(turns) as agent:
            error, _ = run(backend, lambda: failure(agent.url))
        assert isinstance(error, AgentStatusError)
        assert error.status == 308
        assert "its redirect is to a 'ftp' URL, not http(s)" in str(error)

    def test_a_redirect_not_followed_when_the_client_says_so(self, backend: str) -> None:
        """A client of the caller's with follow_redirects=False: the 3xx is the answer."""
        turns = [Turn(status=307, headers={"location": MOVED}, body=b"moved")]

        async def main() -> tuple[AgentError, list[PartDiff]]:
            async with httpx.AsyncClient() as client:
                return await failure(agent.url, http_client=client)

        with SdkAgent(turns) as agent:
            error, _ = run(backend, main)
        assert isinstance(error, AgentStatusError)
        assert "HTTP 307 Temporary Redirect: moved" in str(error)
        assert len(agent.received) == 1

    def test_a_broken_content_encoding(self, backend: str) -> None:
        """A gzip body that is not gzip: RunIncompleteError naming it, not httpx's crash."""
        gzip = {"content-encoding": "gzip"}
        turns = [
            Turn(body=b"data: {}\n\n", content_type="text/event-stream", headers=gzip),
            Turn(status=500, body=b"not gzip either", headers=gzip),
        ]
        with SdkAgent(turns) as agent:
            broken, _ = run(backend, lambda: failure(agent.url))
            refused, _ = run(backend, lambda: failure(agent.url))
        assert isinstance(broken, RunIncompleteError)
        assert str(broken).startswith("the body's content encoding is broken (Error -3 ")
        assert isinstance(refused, AgentStatusError)
        assert str(refused).endswith("answered HTTP 500 Internal Server Error: (empty body)")

    def test_a_reset_connection_says_why(self, backend: str) -> None:
        """A read that fails with no text of its own is named by its cause (the errno)."""

        class Reset(httpx.AsyncByteStream):
            async def __aiter__(self) -> AsyncIterator[bytes]:
                yield b"".join(
                    f"data: {msgspec.json.encode(e).decode()}\n\n".encode() for e in FIRST[:3]
                )
                cause = ConnectionResetError(104, "Connection reset by peer")
                raise httpx.ReadError("") from cause

        def answer(_request: httpx.Request) -> httpx.Response:
            return httpx.Response(
                200, headers={"content-type": "text/event-stream"}, stream=Reset()
            )

        async def main() -> tuple[AgentError, list[PartDiff]]:
            async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
                return await failure("http://127.0.0.1:9/agent", http_client=client)

        error, _ = run(backend, main)
        assert isinstance(error, RunIncompleteError)
        assert "connection dropped mid-stream (Connection reset by peer)" in str(error)

    def test_content_type_not_sse_or_jsonl(self, backend: str) -> None:
        """A 200 with another content type: AgentContentTypeError naming it."""
        turn = Turn(body=b"<html>hello</html>", content_type="text/html")
        with SdkAgent([turn]) as agent:
            error, _ = run(backend, lambda: failure(agent.url))
        assert isinstance(error, AgentContentTypeError)
        assert error.content_type.startswith("text/html")
        assert "not SSE" in str(error)

    def test_stall_mid_stream(self, backend: str) -> None:
        """No event for longer than the timeout: AgentTimeoutError, the parts so far kept."""
        with SdkAgent([Turn(FIRST, stall_after=8)]) as agent:
            started = time.monotonic()
            error, seen = run(backend, lambda: failure(agent.url, timeout=SHORT))
            waited = time.monotonic() - started
        assert isinstance(error, AgentTimeoutError)
        assert "for 1 s" in str(error)
        assert waited < SHORT + 5
        assert [d.tool_call_id for d in seen] == ["a2ui:s1"]

    def test_no_answer_at_all(self, backend: str) -> None:
        """A server that accepts but never answers times out too."""
        # The kernel accepts the connection into the backlog; nobody ever reads it.
        with socket.create_server(("127.0.0.1", 0)) as listener:
            url = f"http://127.0.0.1:{listener.getsockname()[1]}/agent"
            error, _ = run(backend, lambda: failure(url, timeout=SHORT))
        assert isinstance(error, AgentTimeoutError)
        assert "did not answer" in str(error)

    def test_connection_dropped_mid_stream(self, backend: str) -> None:
        """The server cuts the connection: RunIncompleteError, the parts so far kept."""
        with SdkAgent([Turn(FIRST, drop_after=8)]) as agent:
            error, seen = run(backend, lambda: failure(agent.url))
        assert isinstance(error, RunIncompleteError)
        assert "connection dropped" in str(error)
        assert [d.tool_call_id for d in seen] == ["a2ui:s1"]

    def test_stream_ends_without_run_finished(self, backend: str) -> None:
        """A body that ends cleanly before RUN_FINISHED: RunIncompleteError, parts kept."""
        with SdkAgent([Turn(FIRST[:-1])]) as agent:

            async def main() -> tuple[AgentError, tuple[Any, ...]]:
                async with AgentSession(agent.url) as session:
                    with pytest.raises(AgentError) as caught:
                        await collect(session.send("hi"))
                    return caught.value, session.parts

            error, parts = run(backend, main)
        assert isinstance(error, RunIncompleteError)
        assert "without RUN_FINISHED or RUN_ERROR" in str(error)
        assert [p.surface_id for p in parts] == ["s1", "flights"]

    def test_run_error(self, backend: str) -> None:
        """RUN_ERROR: RunFailedError with the agent's message and code."""
        error_event = {"type": "RUN_ERROR", "message": "model overloaded", "code": "overloaded"}
        with SdkAgent([Turn([FIRST[0], error_event])]) as agent:
            error, _ = run(backend, lambda: failure(agent.url))
        assert isinstance(error, RunFailedError)
        assert "model overloaded" in str(error)
        assert error.code == "overloaded"

    def test_silence_after_run_finished_is_the_end(self, backend: str) -> None:
        """A body left open after RUN_FINISHED ends the run quietly, not as a timeout."""
        with SdkAgent([Turn([*FIRST, FIRST[0]], stall_after=len(FIRST))]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url, timeout=SHORT * 30) as session:
                    return await collect(session.send("hi"))

            started = time.monotonic()
            diffs = run(backend, main)
            waited = time.monotonic() - started
        assert diffs == expected_diffs(bytes(agent.sent[0]))
        assert waited < 10  # the grace after the end, not the 30 s timeout

    def test_events_after_run_finished_do_not_hold_the_run_open(self, backend: str) -> None:
        """The grace after RUN_FINISHED runs from it: later events do not renew it."""
        ticks = [{"type": "CUSTOM", "name": "tick", "value": n} for n in range(100)]
        with SdkAgent([Turn([*FIRST, *ticks], delay=0.1)]) as agent:

            async def main() -> list[PartDiff]:
                async with AgentSession(agent.url, timeout=SHORT * 30) as session:
                    return await collect(session.send("hi"))

            started = time.monotonic()
            diffs = run(backend, main)
            waited = time.monotonic() - started
        assert diffs == expected_diffs(bytes(agent.sent[0]))  # the ticks draw nothing
        # 1.1 s of the run, then 2 s of grace; the ticks alone would take 10 s more.
        assert waited < 8

    def test_error_messages_hide_url_secrets(self, backend: str) -> None:
        """A URL's user, password and query never appear in an error."""
        url = f"http://user:pw-secret@127.0.0.1:{free_port()}/agent?key=q-secret"
        error, _ = run(backend, lambda: failure(url))
        assert "secret" not in str(error)


class TestImport:
    def test_package_does_not_import_httpx(self) -> None:
        """`import a2ui_stream` (and running process) never loads httpx."""
        code = (
            "import sys, a2ui_stream, a2ui_stream._shell.cli\n"
            "assert 'httpx' not in sys.modules, 'httpx was imported'\n"
        )
        subprocess.run([sys.executable, "-c", code], check=True, timeout=60)  # noqa: S603

    def test_client_without_httpx_says_how_to_get_it(self) -> None:
        """Without httpx, importing the client names the extra to install."""
        code = "import sys; sys.modules['httpx'] = None\nimport a2ui_stream.client\n"
        done = subprocess.run(  # noqa: S603 - our own interpreter on our own code
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode != 0
        assert "pip install 'a2ui-stream[client]'" in done.stderr
