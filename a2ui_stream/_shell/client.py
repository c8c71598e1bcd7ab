"""The client session: a conversation with a live AG-UI agent over HTTP.

Owns one thread with one agent: each run's input (the request side's additions, the
thread's history cleaned by :func:`~a2ui_stream.outbound_messages`, a press as that
run's ``forwardedProps.a2uiAction.userAction``), the POST with httpx, the checks on the
answer (status, content type), reading the body with a timeout between events, and
deciding whether the run completed. The bytes are decoded by the core's
:class:`~a2ui_stream.EventDecoder`, each event is folded into the thread's
:class:`~a2ui_stream._request.thread.ThreadHistory` and fed to one
:class:`~a2ui_stream.Processor` for the whole thread, whose diffs are yielded: this
module parses nothing itself.

Runs under anyio, on asyncio or trio; :class:`SyncAgentSession` runs the same session
on an event loop thread, for scripts. Needs the ``client`` extra (httpx), which
``import a2ui_stream`` never imports. Header values are never put in a message, a log
line or a ``repr``.
"""

from __future__ import annotations

import contextlib
import threading
import types
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, Self

import anyio
import anyio.from_thread
import msgspec

from a2ui_stream._engine.processor import Processor
from a2ui_stream._request.catalog import basic_catalog
from a2ui_stream._request.request import (
    A2uiRequest,
    action_forwarded_props,
    action_text,
    build_run_input,
)
from a2ui_stream._request.thread import ThreadHistory
from a2ui_stream._state.stream import A2UI_ACTIVITY_TYPE
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import Decoded, EventDecoder
from a2ui_stream._wire.keys import dumped
from a2ui_stream.errors import (
    AgentContentTypeError,
    AgentError,
    AgentStatusError,
    AgentTimeoutError,
    AgentUnreachableError,
    RunFailedError,
    RunIncompleteError,
    UsageError,
)

try:
    import httpx

    from a2ui_stream._shell.endpoint import (
        STATUS_BODY_BYTES,
        check_sendable,
        checked_headers,
        checked_url,
        one_line,
        public_url,
        reason,
    )
except ImportError as missing:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "a2ui_stream.client needs httpx: pip install 'a2ui-stream[client]'"
    ) from missing

if TYPE_CHECKING:
    from types import TracebackType

    from a2ui_stream._state.stream import Part, PartDiff, StreamState
    from a2ui_stream._wire.diagnostics import Diagnostic

__all__ = ["DEFAULT_TIMEOUT", "AgentSession", "SyncAgentSession", "public_url"]

#: Seconds the agent may go without sending an event (the wait for the answer included).
DEFAULT_TIMEOUT: Final = 60.0
#: Seconds the body may stay open after ``RUN_FINISHED`` or ``RUN_ERROR``; a server that
#: keeps it open longer has said all it will say about this run.
AFTER_END_GRACE: Final = 2.0

#: The media types an event stream arrives in, and the framing each one means. A body
#: with no content type at all is framed by its first bytes.
FRAMINGS: Final[Mapping[str, Literal["jsonl", "sse"]]] = {
    "text/event-stream": "sse",
    "application/jsonl": "jsonl",
    "application/x-jsonl": "jsonl",
    "application/jsonlines": "jsonl",
    "application/x-jsonlines": "jsonl",
    "application/ndjson": "jsonl",
    "application/x-ndjson": "jsonl",
}
#: What the AG-UI client asks for; a server that could answer in protobuf then does not.
_ACCEPT: Final = "text/event-stream"
#: Seconds a script waits for a cancelled run to close its connection.
_PUMP_CLOSE_TIMEOUT: Final = 10.0
_ENCODER: Final = msgspec.json.Encoder()


def _new_id() -> str:
    return str(uuid.uuid4())


class AgentSession:
    """One thread with a live AG-UI agent: send turns and presses, get part diffs back.

    Use it as an async context manager. Each :meth:`send` or :meth:`press` is one run:
    its input carries the thread id, the thread's history (cleaned of what must not go
    back) and, unless ``request=False``, what an agent needs to draw. Its diffs are
    yielded as they are decided; :attr:`messages` and :attr:`state` hold the thread
    after it. One run at a time: starting one closes a previous run's iteration that
    was left unfinished.

    Example:
        >>> async def talk(url):  # doctest: +SKIP
        ...     async with AgentSession(url) as session:
        ...         async for diff in session.send("Find me a flight"):
        ...             print(diff.op, diff.tool_call_id)

    Args:
        url: the agent's AG-UI endpoint (``http`` or ``https``).
        request: what each run adds so that the agent draws; the basic catalog of
            A2UI v0.9 when omitted, ``False`` for plain runs without it.
        headers: extra request headers (an ``Authorization``, say); their values are
            never shown.
        timeout: seconds the agent may go without an event before the run fails.
        thread_id: the thread to continue; a new one when omitted.
        messages: the thread's stored history, as message Structs or camelCase dicts.
        tools: the client's tools, sent on every run.
        context: the client's own context entries, sent on every run.
        forwarded_props: the client's own forwarded props, sent on every run.
        press_text: whether each press is also sent as a user turn
            (:func:`~a2ui_stream.action_text`), for agents that read no forwarded action
            (the Python adapters). ``None`` (the default) decides at each press: yes
            while the thread has shown no ``a2ui-surface`` activity (an agent talking
            directly), no once it has (behind the A2UI middleware, which tells the
            agent of the press itself; told twice, it would act twice).
        processor: the processor the thread's events are fed to (give one to keep an
            event log, set limits or ``keep_runs``, or continue a folded state); closed
            with the session.
        http_client: an httpx client to send with (proxies, TLS settings); the session
            never closes a client it was given.

    Raises:
        UsageError: the URL is not an http(s) URL, the timeout is not positive, or a
            message, tool or context entry cannot be read.
    """

    def __init__(
        self,
        url: str,
        *,
        request: A2uiRequest | Literal[False] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        thread_id: str | None = None,
        messages: Iterable[ev.Message | Mapping[str, Any]] = (),
        tools: Iterable[ev.Tool | Mapping[str, Any]] = (),
        context: Iterable[ev.Context | Mapping[str, Any]] = (),
        forwarded_props: Mapping[str, Any] | None = None,
        press_text: bool | None = None,
        processor: Processor | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Check the arguments and decide every run's fixed parts once."""
        self._url = checked_url(url)
        if not timeout > 0:
            raise UsageError(f"the timeout must be a positive number of seconds, not {timeout}")
        self._timeout = float(timeout)
        self._request = (
            A2uiRequest(basic_catalog("v0.9"))
            if request is None
            else (None if request is False else request)
        )
        self._headers = {
            "accept": _ACCEPT,
            "content-type": "application/json",
            **checked_headers(headers or {}),
        }
        self._thread_id = thread_id or _new_id()
        messages = list(messages)
        self._history = ThreadHistory(messages)
        # Stored activity is the middleware's: the history keeps none of it, so look now.
        self._middleware_seen = any(map(_is_surface_activity, messages))
        # Read now, so that a bad entry fails here rather than on the first run.
        own = build_run_input(
            None,
            thread_id=self._thread_id,
            run_id="",
            tools=list(tools),
            context=list(context),
            forwarded_props=forwarded_props,
        )
        check_sendable((own, self._history.messages), "the thread id, messages, tools or context")
        self._tools, self._context, self._props = own.tools, own.context, own.forwarded_props
        self._press_text = None if press_text is None else bool(press_text)
        if processor is None:
            # A custom render tool draws only if the processor listens for its name.
            request_ = self._request
            processor = (
                Processor() if request_ is None else Processor(render_tools=request_.render_tools)
            )
        self._processor = processor
        self._owns_client = http_client is None
        self._client = (
            http_client
            if http_client is not None
            else httpx.AsyncClient(
                timeout=None,  # noqa: S113 - the session's own deadline covers connect and reads
                # As fetch() in @ag-ui/client's HttpAgent: a server's 307 from /agent/ to
                # /agent (Starlette's trailing slash) is followed, the POST and its body
                # kept; httpx drops the authorization header on a redirect to another host.
                follow_redirects=True,
            )
        )
        self._run_input: ev.RunAgentInput | None = None
        self._current: AsyncGenerator[PartDiff, None] | None = None
        self._running = False

    def __repr__(self) -> str:
        """Show the URL (without secrets) and the thread; never the headers."""
        return f"AgentSession({public_url(self._url)!r}, thread_id={self._thread_id!r})"

    # --- what the session holds ----------------------------------------------------

    @property
    def thread_id(self) -> str:
        """The thread every run of this session belongs to."""
        return self._thread_id

    @property
    def messages(self) -> tuple[ev.Message, ...]:
        """The thread's history: the client's turns and what the agent streamed back."""
        return self._history.messages

    @property
    def state(self) -> StreamState:
        """The processor's state: every run with its parts, surfaces and lifecycles."""
        return self._processor.state

    @property
    def parts(self) -> tuple[Part, ...]:
        """The current run's parts in display order."""
        return self._processor.parts()

    @property
    def processor(self) -> Processor:
        """The processor the thread's events are fed to."""
        return self._processor

    @property
    def run_input(self) -> ev.RunAgentInput | None:
        """The input of the latest run as it was sent, or ``None`` before the first."""
        return self._run_input

    def take_diagnostics(self) -> list[Diagnostic]:
        """Return the diagnostics about the agent's events since the last call."""
        return self._processor.take_diagnostics()

    # --- runs --------------------------------------------------------------------------

    def send(
        self,
        content: str | ev.Message | Mapping[str, Any] | Iterable[ev.Message | Mapping[str, Any]],
    ) -> AsyncIterator[PartDiff]:
        """Add a user turn (or any messages) to the thread and run the agent on it.

        Args:
            content: the user's text, one message, or several (Structs or camelCase
                dicts), added to the history in order before the run.

        Returns:
            An async iterator of the run's part diffs, in stream order. When it ends the
            run has finished; it raises an :class:`~a2ui_stream.errors.AgentError`
            when the run did not complete, after yielding every diff received.

        Raises:
            UsageError: a message cannot be read (raised here, before any run).
        """
        if isinstance(content, str):
            new: list[Any] = [ev.UserMessage(id=_new_id(), content=content)]
        elif isinstance(content, ev.Message | Mapping):
            new = [content]
        else:
            new = list(content)
        checked = ThreadHistory(new).messages  # reads every message before any is added
        check_sendable(checked, "the message")
        for message in checked:
            self._history.add(message)
        return self._start(self._props)

    def press(
        self,
        action: Mapping[str, Any],
        *,
        input: Mapping[str, Any] | None = None,  # noqa: A002 - the UI's input, as `$input`
    ) -> AsyncIterator[PartDiff]:
        """Send a press of an element's ``$action`` as the next run.

        The action travels as ``forwardedProps.a2uiAction.userAction``, where the A2UI
        middleware looks for it (an agent behind it sees the press as the two messages
        the middleware makes of it). The Python adapters read no forwarded action, so
        while the thread has shown no ``a2ui-surface`` activity (or with
        ``press_text=True``) the press is also a user turn in the history,
        :func:`~a2ui_stream.action_text`'s line; see the session's ``press_text``.

        Args:
            action: the ``$action`` of the pressed element (``type`` ``"a2ui:action"``).
            input: what the UI collected (form fields by name), sent as ``$input``.

        Returns:
            An async iterator of the run's part diffs, as :meth:`send` returns.

        Raises:
            UsageError: the action has no name or is a local function call (raised
                here, before any run).
        """
        pressed = dict(action) if input is None else {**action, "$input": dict(input)}
        props = action_forwarded_props(pressed, self._props)  # checks the action first
        check_sendable(props, "the press")
        if self._sends_press_text():
            self._history.add(ev.UserMessage(id=_new_id(), content=action_text(pressed)))
        return self._start(props)

    def _sends_press_text(self) -> bool:
        """Whether a press goes as a user turn too: as told, or by what the thread showed."""
        runs = self._processor.state.runs
        self._middleware_seen = self._middleware_seen or any(
            getattr(run.carriers, "behind_middleware", False) for run in runs
        )
        return not self._middleware_seen if self._press_text is None else self._press_text

    def _start(self, forwarded_props: Mapping[str, Any]) -> AsyncIterator[PartDiff]:
        previous, run = self._current, self._run(forwarded_props)
        self._current = run
        return self._after(previous, run)

    async def _after(
        self, previous: AsyncGenerator[PartDiff, None] | None, run: AsyncGenerator[PartDiff, None]
    ) -> AsyncGenerator[PartDiff, None]:
        """Close a previous run left unfinished, then stream this one."""
        if previous is not None:
            await _finish(previous)
        async with contextlib.aclosing(run):
            async for diff in run:
                yield diff

    async def _run(self, forwarded_props: Mapping[str, Any]) -> AsyncGenerator[PartDiff, None]:
        if self._running:
            raise UsageError("one run at a time: this session is already running one")
        self._running = True
        try:
            run_input = build_run_input(
                self._request,
                thread_id=self._thread_id,
                run_id=_new_id(),
                messages=self._history.messages,
                tools=self._tools,
                context=self._context,
                forwarded_props=forwarded_props,
            )
            self._run_input = run_input
            deadline = anyio.current_time() + self._timeout
            response, framing = await self._open(_ENCODER.encode(run_input), deadline)
            try:
                async for diff in self._read(response, framing, deadline):
                    yield diff
            finally:
                await response.aclose()
        finally:
            self._running = False

    async def _open(
        self, body: bytes, deadline: float
    ) -> tuple[httpx.Response, Literal["auto", "jsonl", "sse"]]:
        """POST the run input; return the streaming response once it is known to be events."""
        where = public_url(self._url)
        request = self._client.build_request("POST", self._url, content=body, headers=self._headers)
        response: httpx.Response | None = None
        with anyio.CancelScope(deadline=deadline):
            response = await self._follow(request)
        if response is None:
            raise AgentTimeoutError(f"{where} did not answer within {self._timeout:g} s")
        if response.request.url != self._url:  # a 405 from the redirect's target says so
            where = f"{where} (redirected to {public_url(response.request.url)})"
        if not response.is_success:
            head = await self._head(response, deadline)
            await response.aclose()
            raise AgentStatusError(
                f"{where} answered HTTP {response.status_code} {response.reason_phrase}: "
                f"{one_line(head)}",
                status=response.status_code,
                body=head[:STATUS_BODY_BYTES],
            )
        content_type = response.headers.get("content-type", "")
        media = content_type.split(";", 1)[0].strip().lower()
        framing = FRAMINGS.get(media) if media else "auto"
        if framing is None:
            await response.aclose()
            raise AgentContentTypeError(
                f"{where} answered with content type {content_type!r}, not SSE "
                "(text/event-stream) or JSONL (application/jsonl)",
                content_type=content_type,
            )
        return response, framing

    async def _follow(self, request: httpx.Request) -> httpx.Response:
        """Send the request and follow its redirects (as the client is set to); map failures.

        Followed here rather than by httpx, so that a redirect loop or a redirect to a
        URL that is not http(s) is the agent's answer (a status error), not a crash.
        httpx still builds each next request: a 302/303 turns the POST into a GET, as
        fetch() does, and the authorization header is dropped on the way to another host.
        """
        where = public_url(request.url)
        for _ in range(self._client.max_redirects + 1):
            try:
                response = await self._client.send(request, stream=True, follow_redirects=False)
            except (httpx.ConnectError, httpx.ConnectTimeout) as error:
                raise AgentUnreachableError(
                    f"cannot connect to {public_url(request.url)}: {reason(error)}"
                ) from error
            except httpx.TimeoutException as error:
                raise AgentTimeoutError(f"{where} did not answer: {reason(error)}") from error
            except httpx.HTTPError as error:  # a dropped connection, an answer that is not HTTP
                raise RunIncompleteError(
                    f"{public_url(request.url)} closed the connection before answering: "
                    f"{reason(error)}"
                ) from error
            following = response.next_request
            if following is None or not self._client.follow_redirects:
                return response
            await response.aclose()
            if following.url.scheme not in {"http", "https"}:
                raise AgentStatusError(
                    f"{public_url(request.url)} answered HTTP {response.status_code} "
                    f"{response.reason_phrase}: its redirect is to a {following.url.scheme!r} URL, "
                    "not http(s)",
                    status=response.status_code,
                    body=b"",
                )
            request = following
        raise AgentStatusError(
            f"{where} redirected more than {self._client.max_redirects} times "
            f"(the last time to {public_url(request.url)})",
            status=response.status_code,
            body=b"",
        )

    async def _head(self, response: httpx.Response, deadline: float) -> bytes:
        """The first bytes of a body, or as many as came before the deadline."""
        head = bytearray()
        broken = (httpx.TransportError, httpx.DecodingError)  # what came before is shown
        with anyio.CancelScope(deadline=deadline), contextlib.suppress(*broken):
            async for chunk in response.aiter_bytes():
                head += chunk
                if len(head) > STATUS_BODY_BYTES:
                    break
        return bytes(head)

    async def _read(
        self, response: httpx.Response, framing: Literal["auto", "jsonl", "sse"], deadline: float
    ) -> AsyncGenerator[PartDiff, None]:
        """Decode the body, fold each event into the history and the processor, yield diffs."""
        decoder = EventDecoder(format=framing, limits=self._processor.limits)
        chunks = response.aiter_bytes()
        end: ev.RunFinished | ev.RunError | None = None
        failure: AgentError | None = None
        while True:
            try:
                chunk: bytes | None = await self._chunk(chunks, deadline)
            except AgentError as error:
                # After the run's end a silent or dropped body is just the end.
                failure = error if end is None else None
                chunk = None
            decoded = decoder.feed(chunk) if chunk is not None else decoder.close()
            for item in decoded:
                if isinstance(item, Decoded):
                    self._history.apply(item.event)
                    # The grace after the end runs from the end: events still coming
                    # after it must not hold the run open for ever.
                    if end is None:
                        wait = self._timeout
                        if isinstance(item.event, ev.RunFinished | ev.RunError):
                            wait = min(self._timeout, AFTER_END_GRACE)
                        deadline = anyio.current_time() + wait
                    if isinstance(item.event, ev.RunFinished | ev.RunError):
                        end = item.event
            for diff in self._processor.feed_events(decoded):
                yield diff
            if chunk is None:
                break
        if failure is not None:
            raise failure
        if isinstance(end, ev.RunError):
            code = end.code if isinstance(end.code, str) else None
            raise RunFailedError(
                f"the agent ended the run with RUN_ERROR: {end.message}", code=code
            )
        if end is None:
            raise RunIncompleteError(
                "the stream ended without RUN_FINISHED or RUN_ERROR; the parts so far are kept"
            )

    async def _chunk(self, chunks: AsyncIterator[bytes], deadline: float) -> bytes | None:
        """The next chunk of the body, or ``None`` at its end.

        Raises:
            AgentTimeoutError: nothing came before the deadline.
            RunIncompleteError: the connection dropped.
        """
        with anyio.CancelScope(deadline=deadline):
            try:
                return await anext(chunks)
            except StopAsyncIteration:
                return None
            except httpx.DecodingError as error:
                raise RunIncompleteError(
                    f"the body's content encoding is broken ({reason(error)}); "
                    "the parts so far are kept"
                ) from error
            except httpx.TransportError as error:
                raise RunIncompleteError(
                    f"the connection dropped mid-stream ({reason(error)}); "
                    "the parts so far are kept"
                ) from error
        raise AgentTimeoutError(
            f"no event from {public_url(self._url)} for {self._timeout:g} s; "
            "the parts so far are kept"
        )

    # --- lifetime ----------------------------------------------------------------------

    async def aclose(self) -> None:
        """End an unfinished run, close the processor (flushing its log) and the client."""
        if self._current is not None:
            await _finish(self._current)
            self._current = None
        self._processor.close()
        if self._owns_client:
            await self._client.aclose()

    async def __aenter__(self) -> Self:
        """Return the session itself."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the session, whatever ended the block."""
        await self.aclose()


async def _finish(run: AsyncGenerator[PartDiff, None]) -> None:
    """Close a run's iterator; refuse when another task is inside it right now."""
    if isinstance(run, types.AsyncGeneratorType) and (run.ag_running or run.ag_await is not None):
        raise UsageError("one run at a time: another task is still reading the previous run")
    await run.aclose()


class SyncAgentSession:
    """:class:`AgentSession` for scripts: the same session, run on an event loop thread.

    Takes the same arguments, plus ``backend`` (``"asyncio"`` or ``"trio"``). Its
    :meth:`send` and :meth:`press` return plain iterators of part diffs.

    Example:
        >>> with SyncAgentSession(url) as session:  # doctest: +SKIP
        ...     for diff in session.send("Find me a flight"):
        ...         print(diff.op, diff.tool_call_id)
    """

    def __init__(self, url: str, *, backend: str = "asyncio", **options: Any) -> None:
        """Check the arguments now; the event loop starts on entering the block."""
        self._session = AgentSession(url, **options)
        self._backend = backend
        self._stack = contextlib.ExitStack()
        self._portal: anyio.from_thread.BlockingPortal | None = None

    def __repr__(self) -> str:
        """Show the session it runs."""
        return f"Sync{self._session!r}"

    def __enter__(self) -> Self:
        """Start the event loop thread."""
        self._portal = self._stack.enter_context(
            anyio.from_thread.start_blocking_portal(self._backend)
        )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the session, then stop the event loop thread."""
        try:
            if self._portal is not None:
                self._portal.call(self._session.aclose)
        finally:
            self._portal = None
            self._stack.close()

    @property
    def session(self) -> AgentSession:
        """The async session underneath (read its state; run it through this wrapper)."""
        return self._session

    @property
    def thread_id(self) -> str:
        """The thread every run belongs to."""
        return self._session.thread_id

    @property
    def messages(self) -> tuple[ev.Message, ...]:
        """The thread's history."""
        return self._session.messages

    @property
    def state(self) -> StreamState:
        """The processor's state."""
        return self._session.state

    @property
    def parts(self) -> tuple[Part, ...]:
        """The current run's parts in display order."""
        return self._session.parts

    def take_diagnostics(self) -> list[Diagnostic]:
        """Return the diagnostics about the agent's events since the last call."""
        return self._session.take_diagnostics()

    def send(
        self,
        content: str | ev.Message | Mapping[str, Any] | Iterable[ev.Message | Mapping[str, Any]],
    ) -> Iterator[PartDiff]:
        """Run the agent on a new user turn; see :meth:`AgentSession.send`."""
        return self._iterate(self._session.send(content))

    def press(
        self,
        action: Mapping[str, Any],
        *,
        input: Mapping[str, Any] | None = None,  # noqa: A002 - as AgentSession.press
    ) -> Iterator[PartDiff]:
        """Send a press as the next run; see :meth:`AgentSession.press`."""
        return self._iterate(self._session.press(action, input=input))

    def _iterate(self, diffs: AsyncIterator[PartDiff]) -> Iterator[PartDiff]:
        """Pull an async run through the loop thread, one diff at a time."""
        portal = self._portal
        if portal is None:
            raise UsageError("use SyncAgentSession in a with block")
        send, receive = anyio.create_memory_object_stream[Any](0)
        pumped = threading.Event()

        async def pump() -> None:
            try:
                async with send:
                    async for diff in diffs:
                        await send.send(diff)
            finally:
                await diffs.aclose()  # type: ignore[attr-defined]
                pumped.set()

        future = portal.start_task_soon(pump)
        try:
            while True:
                try:
                    yield portal.call(receive.receive)
                except anyio.EndOfStream:
                    break
            future.result()  # the run's error, if it did not complete
        finally:
            if not future.done():
                future.cancel()  # the loop thread cancels the run, which closes its response
            pumped.wait(_PUMP_CLOSE_TIMEOUT)
            portal.call(receive.aclose)


def _is_surface_activity(message: object) -> bool:
    """Whether a stored message is ``a2ui-surface`` activity (a Struct, dict or SDK object)."""
    message = dumped(message)
    if isinstance(message, Mapping):
        return message.get("role") == "activity" and (
            message.get("activityType", message.get("activity_type")) == A2UI_ACTIVITY_TYPE
        )
    return isinstance(message, ev.ActivityMessage) and message.activity_type == A2UI_ACTIVITY_TYPE
