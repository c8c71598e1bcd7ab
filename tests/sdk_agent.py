"""Test helper: a real AG-UI agent serving scripted runs with the official Python SDK.

Events are ``ag_ui.core`` models (dicts in wire form are validated into them), encoded
by the SDK's ``EventEncoder`` and streamed by Starlette under uvicorn, on 127.0.0.1 and
a port of its own, in a thread of the test process. Each POST takes the next scripted
:class:`Turn`. Every body received and every byte sent is recorded, so a test can
check what the client sent and feed the very bytes it got to ``process``.

A turn can also misbehave as real servers do: answer with another status or content
type, stall after some events, or cut the connection after some events. A stall is
bounded (``STALL_SECONDS``) and the server stops within a few seconds of the ``with``
block's end, whatever the client did.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import pydantic
import pytest
import uvicorn
from ag_ui import core as ag_ui_core
from ag_ui.encoder import EventEncoder
from starlette.applications import Starlette
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator, Sequence

    from starlette.requests import Request

__all__ = ["MOVED", "RECORDING", "STALL_SECONDS", "SdkAgent", "Turn", "free_port", "recording_runs"]

RECORDING = Path(__file__).resolve().parents[1] / "examples" / "recording.jsonl"
#: A second path the server answers POSTs on as it does on its own (a redirect's target).
MOVED = "/moved"
#: The longest a stalled turn waits before it gives up by itself.
STALL_SECONDS = 20.0
#: Seconds the server may take to start or to stop.
_START_TIMEOUT = 10.0
_STOP_TIMEOUT = 10.0

_EVENTS: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ag_ui_core.events.Event)


class _Dropped(Exception):  # noqa: N818 - a scripted event, not an error
    """Raised inside a response to make uvicorn cut the connection mid-body."""


@dataclass
class Turn:
    """One scripted answer to one POST.

    Attributes:
        events: the events to stream, as SDK models or wire-form dicts.
        status: the HTTP status; with anything but 200 ``body`` is sent instead.
        body: a body sent as it is, instead of events.
        content_type: the response's content type (default: the encoder's, SSE).
        jsonl: write each event as one JSON line instead of an SSE event.
        stall_after: send this many events, then go silent (up to ``STALL_SECONDS``).
        drop_after: send this many events, then cut the connection.
        delay: seconds between events.
        headers: extra response headers (a ``location``, a ``content-encoding``).
    """

    events: Sequence[Any] = ()
    status: int = 200
    body: bytes | None = None
    content_type: str | None = None
    jsonl: bool = False
    stall_after: int | None = None
    drop_after: int | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class SdkAgent:
    """A scripted AG-UI server; use it as a context manager, then POST to :attr:`url`.

    Attributes:
        turns: the answers, one per POST, in order; a POST past the last gets a 500.
        received: every request body, in order.
        headers: every request's headers (lower-case names), in order.
        sent: every response body as it was sent, in order.
    """

    turns: Sequence[Turn]
    received: list[bytes] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    sent: list[bytearray] = field(default_factory=list)
    path: str = "/agent"

    def __post_init__(self) -> None:
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """The agent's endpoint."""
        assert self._socket is not None, "use SdkAgent in a with block"
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}{self.path}"

    def inputs(self) -> list[Any]:
        """Every request body validated as the SDK's ``RunAgentInput`` (fails if one is not)."""
        return [ag_ui_core.RunAgentInput.model_validate_json(body) for body in self.received]

    def __enter__(self) -> Self:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        config = uvicorn.Config(
            self._app(),
            log_level="critical",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                pytest.fail("the SDK agent did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._server is not None
        assert self._thread is not None
        self._server.should_exit = True
        self._thread.join(_STOP_TIMEOUT)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(_STOP_TIMEOUT)
        if self._socket is not None:
            self._socket.close()
        assert not self._thread.is_alive(), "the SDK agent did not stop"

    # --- the ASGI app --------------------------------------------------------------

    def _app(self) -> Starlette:
        async def run(request: Request) -> Response:
            self.received.append(await request.body())
            self.headers.append({k.lower(): v for k, v in request.headers.items()})
            index = len(self.received) - 1
            if index >= len(self.turns):
                return Response(b"no more scripted turns", status_code=500)
            turn = self.turns[index]
            sent = bytearray()
            self.sent.append(sent)
            if turn.body is not None or turn.status != 200:
                body = turn.body or b""
                sent += body
                return Response(
                    body,
                    status_code=turn.status,
                    headers=turn.headers,
                    media_type=turn.content_type or "text/plain",
                )
            encoder = EventEncoder(accept=request.headers.get("accept", ""))
            return StreamingResponse(
                self._stream(turn, encoder, sent),
                headers=turn.headers,
                media_type=turn.content_type or encoder.get_content_type(),
            )

        # /moved is served alike: a redirect's target that is another path.
        routes = [Route(path, run, methods=["POST"]) for path in (self.path, MOVED)]
        return Starlette(routes=routes)

    @staticmethod
    async def _stream(turn: Turn, encoder: EventEncoder, sent: bytearray) -> AsyncIterator[bytes]:
        for count, item in enumerate(turn.events):
            if count == turn.stall_after:
                await asyncio.sleep(STALL_SECONDS)
                return
            if count == turn.drop_after:
                raise _Dropped
            event = (
                item if isinstance(item, ag_ui_core.BaseEvent) else _EVENTS.validate_python(item)
            )
            if turn.jsonl:
                data = (event.model_dump_json(by_alias=True, exclude_none=True) + "\n").encode()
            else:
                data = encoder.encode(event).encode()
            sent += data
            yield data
            if turn.delay:
                await asyncio.sleep(turn.delay)
        if turn.drop_after is not None and turn.drop_after >= len(turn.events):
            raise _Dropped


def recording_runs() -> list[list[dict[str, Any]]]:
    """The bundled recording's events, one list per run (split at ``RUN_STARTED``)."""
    runs: list[list[dict[str, Any]]] = []
    for line in RECORDING.read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "RUN_STARTED":
            runs.append([])
        runs[-1].append(event)
    return runs


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def serving(*turns: Turn) -> Iterator[SdkAgent]:
    """Serve the turns for the ``with`` block."""
    with SdkAgent(list(turns)) as agent:
        yield agent
