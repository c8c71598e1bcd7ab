"""The agent's endpoint as the client session speaks to it: what is checked and what is shown.

Owns the checks made before any request (the URL is http(s) with a host and a port in
range, each extra header is one that HTTP can carry, what a run sends can be sent as
UTF-8 JSON), the URL as it may be shown (no
user, password or query), and the words for a failure (the system's reason for a
dropped connection, the first bytes of a refusal's body). Messages name a header by its
name, never its value: the value may be a secret, and httpx's and h11's own errors
quote it.

Imports httpx (the ``client`` extra); :mod:`a2ui_stream._shell.client` is its one user.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Final

import httpx
import msgspec

from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "STATUS_BODY_BYTES",
    "check_sendable",
    "checked_headers",
    "checked_url",
    "header_problem",
    "one_line",
    "public_url",
    "reason",
]

_ENCODER: Final = msgspec.json.Encoder()
#: Bytes of a non-2xx body kept for the error message.
STATUS_BODY_BYTES: Final = 200
#: How far down an error's causes the reason for a failed connection is looked for.
_CAUSE_DEPTH: Final = 16
#: An HTTP header name (RFC 9110 section 5.6.2, a token).
_HEADER_NAME: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
#: A header value httpx can send: visible ASCII, spaces and tabs (RFC 9110 section 5.5).
_HEADER_VALUE: Final = re.compile(r"[\t\x20-\x7e]*")
_HIGHEST_PORT: Final = 65535


def public_url(url: str | httpx.URL) -> str:
    """The URL as it may be shown: no user, password, query or fragment, which may be secret.

    Args:
        url: the agent's URL.

    Returns:
        ``scheme://host[:port]/path`` (an IPv6 host in brackets).
    """
    parsed = httpx.URL(url)
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    port = f":{parsed.port}" if parsed.port is not None else ""
    return f"{parsed.scheme}://{host}{port}{parsed.path}"


def checked_url(url: str) -> httpx.URL:
    """Read the agent's URL, refusing one no request could be sent to.

    Raises:
        UsageError: not a URL, not http(s), no host, or a port past 65535.
    """
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as error:
        raise UsageError(f"not a URL: {error}") from error
    if parsed.scheme not in {"http", "https"} or not parsed.host:
        raise UsageError(f"the agent's URL must be http(s)://host/...: {public_url(url)}")
    if parsed.port is not None and not 0 < parsed.port <= _HIGHEST_PORT:
        raise UsageError(f"the agent's URL has port {parsed.port}, outside 1 to {_HIGHEST_PORT}")
    return parsed


def header_problem(name: object, value: object) -> str | None:
    """What keeps a header from being sent: ``"name"``, ``"value"``, or ``None`` for nothing.

    A name must be an HTTP token; a value a string of visible ASCII, spaces and tabs (a
    line break would end the header, and httpx refuses anything past ASCII).
    """
    if not isinstance(name, str) or not _HEADER_NAME.fullmatch(name):
        return "name"
    if not isinstance(value, str) or not _HEADER_VALUE.fullmatch(value):
        return "value"
    return None


def checked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Check extra request headers before they are sent, naming a bad one by name only.

    Raises:
        UsageError: see :func:`header_problem`.
    """
    for name, value in headers.items():
        problem = header_problem(name, value)
        if problem == "name":
            raise UsageError(f"{name!r} is not an HTTP header name")
        if problem == "value":
            raise UsageError(
                f"the value of header {name!r} is not visible ASCII text (it is not shown: "
                "it may hold a secret)"
            )
    return dict(headers)


def reason(error: BaseException) -> str:
    """Why a connection failed, in the system's words ("Connection refused"), if it says."""
    cause: BaseException | None = error
    for _ in range(_CAUSE_DEPTH):
        if cause is None:
            break
        if isinstance(cause, BaseExceptionGroup) and cause.exceptions:
            cause = cause.exceptions[0]
            continue
        if isinstance(cause, OSError) and isinstance(cause.errno, int):
            # asyncio words a refusal "Connect call failed (...)"; errno's text is plainer.
            if cause.errno > 0:
                return os.strerror(cause.errno)
            if cause.strerror:
                return str(cause.strerror)  # a resolver failure (gaierror)
        cause = cause.__cause__ or cause.__context__
    return str(error) or type(error).__name__


def one_line(data: bytes) -> str:
    """The first bytes of a body as one readable line."""
    text = " ".join(data[:STATUS_BODY_BYTES].decode("utf-8", "replace").split())
    if not text:
        return "(empty body)"
    return f"{text}..." if len(data) > STATUS_BODY_BYTES else text


def check_sendable(value: Any, what: str) -> None:
    """Refuse ``value`` before it joins a run when it cannot be sent as UTF-8 JSON.

    Only a lone surrogate makes it so: Python decodes command-line arguments and
    terminal input that are not UTF-8 into one per bad byte. Refused when given, the
    value never reaches the thread's history, where it would fail every later run.

    Raises:
        UsageError: some text in ``value`` holds a lone surrogate.
    """
    try:
        _ENCODER.encode(value)
    except UnicodeEncodeError as error:
        bad = error.object[error.start : error.end]
        raise UsageError(
            f"{what} holds text that is not Unicode ({bad!a} at character "
            f"{error.start}: a byte of another encoding than UTF-8?); nothing was sent"
        ) from None
