"""The agent's endpoint (``_shell.endpoint``): URL and header checks, and what errors show."""

from __future__ import annotations

import socket

import httpx
import pytest

from a2ui_stream._shell.endpoint import (
    STATUS_BODY_BYTES,
    checked_headers,
    checked_url,
    header_problem,
    one_line,
    public_url,
    reason,
)
from a2ui_stream.errors import UsageError


class TestUrls:
    @pytest.mark.parametrize(
        ("url", "shown"),
        [
            ("http://me:pw@agent.test:8080/run?key=k#frag", "http://agent.test:8080/run"),
            ("https://agent.test/run", "https://agent.test/run"),
            ("http://[::1]:9/agent", "http://[::1]:9/agent"),
        ],
    )
    def test_public_url_leaves_out_what_may_be_secret(self, url: str, shown: str) -> None:
        """No user, password, query or fragment; an IPv6 host keeps its brackets."""
        assert public_url(url) == shown
        assert public_url(httpx.URL(url)) == shown

    def test_checked_url_takes_http_and_https(self) -> None:
        assert checked_url("https://agent.test:443/run") == httpx.URL("https://agent.test/run")

    @pytest.mark.parametrize(
        ("url", "message"),
        [
            ("ftp://agent.test/run", "must be http"),
            ("http:///run", "must be http"),
            ("agent.test/run", "must be http"),
            ("http://agent.test:99999/run", "port 99999, outside 1 to 65535"),
            ("http://agent.test:0/run", "port 0, outside 1 to 65535"),
        ],
    )
    def test_checked_url_refuses_what_no_request_reaches(self, url: str, message: str) -> None:
        with pytest.raises(UsageError, match=message):
            checked_url(url)


class TestHeaders:
    @pytest.mark.parametrize(
        ("name", "value", "problem"),
        [
            ("Authorization", "Bearer abc\tdef", None),
            ("X-Empty", "", None),
            ("Bad Name", "v", "name"),
            ("", "v", "name"),
            ("X-Line", "a\r\nX-Evil: 1", "value"),
            ("X-Nul", "a\x00b", "value"),
            ("X-Accent", "caf\u00e9", "value"),
            ("X-Number", 5, "value"),
        ],
    )
    def test_header_problem(self, name: str, value: object, problem: str | None) -> None:
        assert header_problem(name, value) == problem

    def test_checked_headers_name_the_header_never_its_value(self) -> None:
        assert checked_headers({"X-Ok": "1"}) == {"X-Ok": "1"}
        with pytest.raises(UsageError, match="'X-Token'") as caught:
            checked_headers({"X-Ok": "1", "X-Token": "tok-9f8e\n"})
        assert "tok-9f8e" not in str(caught.value)


class TestWords:
    def test_reason_is_the_errno_text_down_the_causes(self) -> None:
        """httpx's error without text is named by the OSError beneath it."""
        error = httpx.ReadError("")
        error.__cause__ = ConnectionResetError(104, "Connection reset by peer")
        assert reason(error) == "Connection reset by peer"

    def test_reason_of_a_resolver_failure_and_a_group(self) -> None:
        resolver = socket.gaierror(-2, "Name or service not known")
        assert reason(ExceptionGroup("one", [resolver])) == "Name or service not known"

    def test_reason_falls_back_to_the_text_then_the_type(self) -> None:
        assert reason(httpx.RemoteProtocolError("peer closed")) == "peer closed"
        assert reason(httpx.ReadError("")) == "ReadError"

    def test_one_line(self) -> None:
        """A body's first bytes on one line, cut with an ellipsis, or said to be empty."""
        assert one_line(b"  <h1>Not\n  Found</h1>\r\n") == "<h1>Not Found</h1>"
        assert one_line(b"") == "(empty body)"
        long = one_line(b"x" * (STATUS_BODY_BYTES + 1))
        assert long == "x" * STATUS_BODY_BYTES + "..."
        assert one_line(b"caf\xe9") == "caf\ufffd"
