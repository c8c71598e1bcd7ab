"""Test helper: a real ag-ui-strands agent served on 127.0.0.1, its model a script.

``with strands_agent(turns, tools) as url:`` installs the pinned adapter stack into its own
venv once (:func:`installed_peers.python_peer`), starts ``tests/strands_server.py`` in
it on a free loopback port, and yields the URL to POST a ``RunAgentInput`` to; the
response is the adapter's own SSE stream. On exit the server is stopped (SIGTERM, then
SIGKILL after a few seconds). ``turns`` are the model's answers, one per model call
(see strands_server.py): the agent's own calls and those of its A2UI sub-agent;
``tools`` the agent's backend tools and the content each answers with.

:func:`post_run` sends one run input and returns the raw response bytes, within a time
bound, with nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import json
import selectors
import subprocess
import tempfile
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from installed_peers import python_peer

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

__all__ = ["PINS", "post_run", "strands_agent"]

#: The adapter stack that installs together (shared/reference/request-side.md section 7).
PINS = [
    "ag-ui-strands==1.0.2",
    "strands-agents==1.62.0",
    "ag-ui-protocol==1.0.0",
    "ag-ui-a2ui-toolkit==0.0.5",
    "fastapi==0.165.0",
    "uvicorn==0.54.0",
    "httpx==0.28.1",
]
SERVER = Path(__file__).resolve().parent / "strands_server.py"
#: Seconds the server may take to start listening, and a run to answer.
START_TIMEOUT = 60
RUN_TIMEOUT = 60


@contextlib.contextmanager
def strands_agent(
    turns: Sequence[dict[str, Any]], tools: Mapping[str, Sequence[dict[str, Any]]] | None = None
) -> Iterator[str]:
    """Serve a scripted ag-ui-strands agent on 127.0.0.1 for the ``with`` block.

    Args:
        turns: the model's turns, in the order the adapter will ask for them.
        tools: backend tools by name, each with the Strands content blocks it answers.

    Yields:
        The endpoint URL, ``http://127.0.0.1:<port>/``.
    """
    python = python_peer("ag-ui-strands", PINS)
    # The adapter's telemetry is chatty on stderr: a file, so a full pipe never blocks it.
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(  # noqa: S603 - our own server script
            [str(python), str(SERVER), json.dumps(list(turns)), json.dumps(dict(tools or {}))],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        try:
            line = _first_line(process)
            if not line.startswith("PORT "):
                errors.seek(0)
                pytest.fail(f"the Strands server did not start: {line!r}\n{errors.read()[-4000:]}")
            yield f"http://127.0.0.1:{int(line.split()[1])}/"
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
            if process.stdout is not None:
                process.stdout.close()


def _first_line(process: subprocess.Popen[str]) -> str:
    """The server's first stdout line, or ``""`` if it says nothing in time."""
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=START_TIMEOUT):
            return ""
    return process.stdout.readline().strip()


def post_run(url: str, body: bytes, *, timeout: float = RUN_TIMEOUT) -> bytes:
    """POST a run input and return the whole SSE response.

    Args:
        url: the agent's endpoint (from :func:`strands_agent`).
        body: the JSON ``RunAgentInput``.
        timeout: seconds before the request fails.

    Returns:
        The response body: ``data: <event>`` lines.
    """
    if not url.startswith("http://127.0.0.1:"):
        raise ValueError("only the loopback agent this module serves")
    request = urllib.request.Request(  # noqa: S310 - a loopback URL, checked above
        url,
        data=body,
        headers={"Content-Type": "application/json", "Accept": "text/event-stream"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
        return bytes(response.read())
