"""Exceptions raised by a2ui-stream: caller misuse, and a live agent's failures.

Bad input (bytes, JSON, events, operations) never raises out of the core; it becomes a
:class:`~a2ui_stream.Diagnostic` value. What is raised here means the *caller* did
something the API does not allow (feeding after ``close()``, a second writer on one log,
an empty render tool name), or, from the client session (:mod:`a2ui_stream.client`),
that a run with a live agent did not complete: each :class:`AgentError` says in one line
what happened, and everything received before it is kept. This module imports nothing
from the package so every other module can import it.
"""

from __future__ import annotations

__all__ = [
    "A2uiStreamError",
    "AgentContentTypeError",
    "AgentError",
    "AgentStatusError",
    "AgentTimeoutError",
    "AgentUnreachableError",
    "LogLockedError",
    "LogRefusedError",
    "RunFailedError",
    "RunIncompleteError",
    "UsageError",
]


class A2uiStreamError(Exception):
    """Base class of every exception this package raises; never raised bare."""

    def __init__(self, *args: object) -> None:
        """Refuse direct instantiation so each raise names its kind."""
        if type(self) is A2uiStreamError:
            raise TypeError("raise a subclass of A2uiStreamError, not the base class")
        super().__init__(*args)


class UsageError(A2uiStreamError, ValueError):
    """The caller broke the API contract (bad argument, feeding after close)."""


class LogLockedError(A2uiStreamError, RuntimeError):
    """Another writer holds the event log's lock."""


class LogRefusedError(UsageError):
    """A path given as an event log names a file that must not be one.

    It is not a regular file, it is the input being read, or it holds something other
    than an event log. Nothing was written to it.
    """


class AgentError(A2uiStreamError, RuntimeError):
    """A run with a live agent did not complete; never raised bare.

    The message is one line meant for a person. Nothing in it comes from the request's
    headers, so it is safe to log.
    """

    def __init__(self, *args: object) -> None:
        """Refuse direct instantiation so each raise names its kind."""
        if type(self) is AgentError:
            raise TypeError("raise a subclass of AgentError, not the base class")
        super().__init__(*args)


class AgentUnreachableError(AgentError):
    """No connection to the agent: refused, a name that does not resolve, or timed out."""


class AgentStatusError(AgentError):
    """The agent answered with an HTTP status other than 2xx.

    Attributes:
        status: the HTTP status code.
        body: the first bytes of the response body.
    """

    def __init__(self, message: str, *, status: int, body: bytes) -> None:
        """Keep the status and the first bytes of the body beside the message."""
        super().__init__(message)
        self.status = status
        self.body = body


class AgentContentTypeError(AgentError):
    """The agent answered with a body that is neither SSE nor JSONL.

    Attributes:
        content_type: the response's ``Content-Type`` as sent.
    """

    def __init__(self, message: str, *, content_type: str) -> None:
        """Keep the content type beside the message."""
        super().__init__(message)
        self.content_type = content_type


class AgentTimeoutError(AgentError):
    """The agent sent no event for longer than the session's timeout."""


class RunIncompleteError(AgentError):
    """The stream ended, or the connection dropped, before ``RUN_FINISHED`` or ``RUN_ERROR``."""


class RunFailedError(AgentError):
    """The agent ended the run with ``RUN_ERROR``.

    Attributes:
        code: the error's ``code``, when the agent sent one.
    """

    def __init__(self, message: str, *, code: str | None = None) -> None:
        """Keep the agent's error code beside the message."""
        super().__init__(message)
        self.code = code
