"""Talking to a live agent: an HTTP client session over the sans-I/O core.

:class:`AgentSession` holds one thread with an AG-UI agent (async, under anyio on
asyncio or trio); :class:`SyncAgentSession` is the same for scripts. Each run's failure
is one of the :class:`AgentError` subclasses. :class:`ThreadHistory` is the pure fold
of run events into the thread's messages that the session keeps. Needs the ``client``
extra (``pip install 'a2ui-stream[client]'``, which brings httpx); ``import
a2ui_stream`` alone never imports it. The definitions live in ``a2ui_stream._shell``
and ``a2ui_stream._request``; this module is their public name.
"""

from __future__ import annotations

from a2ui_stream._request.thread import ThreadHistory
from a2ui_stream._shell.client import DEFAULT_TIMEOUT, AgentSession, SyncAgentSession
from a2ui_stream.errors import (
    AgentContentTypeError,
    AgentError,
    AgentStatusError,
    AgentTimeoutError,
    AgentUnreachableError,
    RunFailedError,
    RunIncompleteError,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "AgentContentTypeError",
    "AgentError",
    "AgentSession",
    "AgentStatusError",
    "AgentTimeoutError",
    "AgentUnreachableError",
    "RunFailedError",
    "RunIncompleteError",
    "SyncAgentSession",
    "ThreadHistory",
]
