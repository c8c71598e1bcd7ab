"""``a2ui-stream run URL``: a live agent (the official SDK's server) seen as ``process`` sees it.

Servers are tests/sdk_agent.py's, on 127.0.0.1, started and stopped by each test; every
command runs with a bounded timeout. Most run ``main()`` in-process; Ctrl-C and the
console script run as real subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from helpers import CONSOLE_SCRIPT, Result
from sdk_agent import SdkAgent, Turn, free_port, recording_runs

from a2ui_stream import SCHEMA_CONTEXT_DESCRIPTION
from a2ui_stream._shell.live import EXIT_CODES, EXIT_INTERRUPTED
from a2ui_stream.errors import (
    AgentContentTypeError,
    AgentError,
    AgentStatusError,
    AgentTimeoutError,
    AgentUnreachableError,
    RunFailedError,
    RunIncompleteError,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

FIRST, SECOND = recording_runs()
SECRET = "Bearer tok-9f8e7d6c5b4a"  # noqa: S105 - a made-up token the output must not show
#: Bounds every subprocess: a hung command fails the test instead of the suite.
SUBPROCESS_TIMEOUT = 60


@pytest.fixture
def process(cli: Callable[..., Result], tmp_path: Path) -> Callable[..., bytes]:
    """``process`` with the given options on the bytes the agent sent, concatenated."""

    def run(agent: SdkAgent, *options: str) -> bytes:
        recording = tmp_path / "sent.sse"
        recording.write_bytes(b"".join(bytes(body) for body in agent.sent))
        result = cli("process", *options, recording)
        assert result.code == 0, result.err
        return result.out

    return run


def one_line(err: str) -> str:
    """The stderr of a failed run: exactly one line, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


class TestOutput:
    def test_final_equals_process_final(
        self, cli: Callable[..., Result], process: Callable[..., bytes]
    ) -> None:
        """`run URL --final` prints what `process --final` prints for the bytes sent."""
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-m", "Find me a flight", "-m", "Book it", "--final")
        assert result.code == 0, result.err
        assert result.out == process(agent, "--final")
        runs = [json.loads(line) for line in result.out.splitlines()]
        assert [run["runId"] for run in runs] == ["run-1", "run-2"]

    @pytest.mark.parametrize("diffs", ["args", "patch"])
    def test_diffs_equal_process(
        self, cli: Callable[..., Result], process: Callable[..., bytes], diffs: str
    ) -> None:
        """Without --final, one line per diff, exactly as process writes them."""
        with SdkAgent([Turn(FIRST, delay=0.005), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-m", "a", "-m", "b", "--diffs", diffs)
        assert result.code == 0, result.err
        assert result.out == process(agent, "--diffs", diffs)
        assert result.err == ""

    def test_turns_go_in_order_in_one_thread(self, cli: Callable[..., Result]) -> None:
        """Each -m is one user turn; the second carries the first turn's history."""
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-m", "one", "-m", "two", "--thread-id", "t-42")
        assert result.code == 0, result.err
        first, second = agent.inputs()
        assert first.thread_id == second.thread_id == "t-42"
        assert [m.content for m in first.messages] == ["one"]
        roles = [m.model_dump(exclude_none=True)["role"] for m in second.messages]
        assert roles == ["user", "assistant", "tool", "user"]
        assert second.messages[-1].content == "two"

    def test_without_messages_one_run(self, cli: Callable[..., Result]) -> None:
        """No -m: one run on the thread as it stands."""
        with SdkAgent([Turn(FIRST)]) as agent:
            assert cli("run", agent.url).code == 0
        (sent,) = agent.inputs()
        assert sent.messages == []

    def test_request_side_and_its_absence(self, cli: Callable[..., Result]) -> None:
        """By default runs carry the catalog and injectA2UITool; --no-request carries neither."""
        with SdkAgent([Turn(FIRST), Turn(FIRST)]) as agent:
            assert cli("run", agent.url, "-m", "x").code == 0
            assert cli("run", agent.url, "-m", "x", "--no-request").code == 0
        asked, plain = agent.inputs()
        assert any(c.description == SCHEMA_CONTEXT_DESCRIPTION for c in asked.context or [])
        assert asked.forwarded_props == {"injectA2UITool": True}
        assert not plain.context
        assert not plain.forwarded_props

    def test_a_bad_catalog_is_named(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A catalog document that does not read says which file, before any request."""
        catalog = tmp_path / "catalog.json"
        catalog.write_text('{"bad": 1}')
        result = cli("run", "http://127.0.0.1:9/agent", "-m", "x", "--catalog", catalog)
        assert result.code == 2
        assert f"--catalog {catalog}: not a catalog document" in result.err

    def test_own_catalog(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """--catalog sends that catalog document as the schema entry."""
        catalog = tmp_path / "catalog.json"
        catalog.write_text(
            '{"catalogId":"https://example.com/mine.json","components":{"Row":{"type":"object"}}}'
        )
        with SdkAgent([Turn(FIRST)]) as agent:
            assert cli("run", agent.url, "-m", "x", "--catalog", catalog).code == 0
        (sent,) = agent.inputs()
        schema = next(c for c in sent.context or [] if c.description == SCHEMA_CONTEXT_DESCRIPTION)
        assert msgspec.json.decode(schema.value)["catalogId"] == "https://example.com/mine.json"


class TestLog:
    def test_replay_of_the_log_equals_the_output(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """--log keeps every event received; replay of it prints the same bytes."""
        log = tmp_path / "run.log.jsonl"
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            live = cli("run", agent.url, "-m", "a", "-m", "b", "--log", log)
        assert live.code == 0, live.err
        replayed = cli("replay", log)
        assert replayed.out == live.out
        assert len(log.read_bytes().splitlines()) == len(FIRST) + len(SECOND)

    def test_log_resumed_by_the_next_command(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A second run on the same log continues its seq; replay equals all that was printed."""
        log = tmp_path / "run.log.jsonl"
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            first = cli("run", agent.url, "-m", "a", "--log", log)
            second = cli("run", agent.url, "-m", "b", "--log", log)
        assert first.code == second.code == 0
        assert json.loads(second.out.splitlines()[0])["seq"] == len(FIRST) + 1
        assert cli("replay", log).out == first.out + second.out

    def test_log_that_is_not_a_log_is_refused(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """--log on a file that is not an event log: exit 2, no request, the file untouched."""
        notes = tmp_path / "notes.txt"
        notes.write_text("my notes\n")
        with SdkAgent([Turn(FIRST)]) as agent:
            result = cli("run", agent.url, "-m", "x", "--log", notes)
        assert result.code == 2
        assert notes.read_text() == "my notes\n"
        assert agent.received == []


def failed(result: Result, error: type[AgentError]) -> str:
    assert result.code == EXIT_CODES[error], result.err
    return one_line(result.err)


class TestErrors:
    def test_connection_refused(self, cli: Callable[..., Result]) -> None:
        """Nothing listening: exit 3, one line naming the URL."""
        url = f"http://127.0.0.1:{free_port()}/agent"
        line = failed(cli("run", url, "-m", "x"), AgentUnreachableError)
        assert line.endswith(f"cannot connect to {url}: Connection refused")

    def test_status(self, cli: Callable[..., Result]) -> None:
        """HTTP 503: exit 4, the status and the body's first bytes on one line."""
        with SdkAgent([Turn(status=503, body=b"overloaded, try later\n")]) as agent:
            line = failed(cli("run", agent.url, "-m", "x"), AgentStatusError)
        assert "HTTP 503 Service Unavailable: overloaded, try later" in line

    def test_redirect_loop(self, cli: Callable[..., Result]) -> None:
        """Redirects without end: exit 4, one line saying so, no traceback."""
        with SdkAgent([Turn(status=307, headers={"location": "/agent"})] * 21) as agent:
            line = failed(cli("run", agent.url, "-m", "x"), AgentStatusError)
            assert line.endswith(
                f"{agent.url} redirected more than 20 times (the last time to {agent.url})"
            )

    def test_broken_content_encoding(self, cli: Callable[..., Result]) -> None:
        """A body whose gzip is broken: exit 7, one warning naming it, no traceback."""
        gzip = {"content-encoding": "gzip"}
        turn = Turn(body=b"data: {}\n\n", content_type="text/event-stream", headers=gzip)
        with SdkAgent([turn]) as agent:
            line = failed(cli("run", agent.url, "-m", "x"), RunIncompleteError)
        assert "warning" in line
        assert "the body's content encoding is broken" in line

    def test_content_type(self, cli: Callable[..., Result]) -> None:
        """A JSON body instead of an event stream: exit 5."""
        turn = Turn(body=b'{"error":"use /stream"}', content_type="application/json")
        with SdkAgent([turn]) as agent:
            line = failed(cli("run", agent.url, "-m", "x"), AgentContentTypeError)
        assert "'application/json'" in line

    def test_stall_keeps_the_parts_so_far(self, cli: Callable[..., Result]) -> None:
        """A stall past --timeout: exit 6; --final still prints the parts so far."""
        with SdkAgent([Turn(FIRST, stall_after=8)]) as agent:
            result = cli("run", agent.url, "-m", "x", "--timeout", "0.5", "--final")
        line = failed(result, AgentTimeoutError)
        assert "for 0.5 s" in line
        (run,) = [json.loads(record) for record in result.out.splitlines()]
        assert [part["surfaceId"] for part in run["parts"]] == ["s1"]

    def test_dropped_connection(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """The server cuts the body: exit 7, a warning; the log replays what was printed."""
        log = tmp_path / "cut.log.jsonl"
        with SdkAgent([Turn(FIRST, drop_after=8)]) as agent:
            result = cli("run", agent.url, "-m", "x", "--log", log)
        line = failed(result, RunIncompleteError)
        assert "warning" in line
        assert "connection dropped" in line
        assert result.out
        assert cli("replay", log).out == result.out

    def test_no_run_finished(self, cli: Callable[..., Result]) -> None:
        """A body that ends before RUN_FINISHED: exit 7, a warning, the parts kept."""
        with SdkAgent([Turn(FIRST[:-1])]) as agent:
            result = cli("run", agent.url, "-m", "x", "--final")
        line = failed(result, RunIncompleteError)
        assert "without RUN_FINISHED or RUN_ERROR" in line
        (run,) = [json.loads(record) for record in result.out.splitlines()]
        assert [part["surfaceId"] for part in run["parts"]] == ["s1", "flights"]

    def test_run_error_stops_the_turns(self, cli: Callable[..., Result]) -> None:
        """RUN_ERROR: exit 8 with its message; later turns are not sent."""
        error = {"type": "RUN_ERROR", "message": "tool crashed"}
        with SdkAgent([Turn([FIRST[0], error]), Turn(SECOND)]) as agent:
            line = failed(cli("run", agent.url, "-m", "a", "-m", "b"), RunFailedError)
        assert "RUN_ERROR: tool crashed" in line
        assert len(agent.received) == 1

    def test_agent_text_never_reaches_the_terminal_raw(self, cli: Callable[..., Result]) -> None:
        """A RUN_ERROR message with an escape sequence, a newline and a bidi override is
        still one line, every control shown escaped."""
        error = {"type": "RUN_ERROR", "message": "boom \x1b[2J\x1b]0;owned\x07\nnext \u202egnp"}
        with SdkAgent([Turn([FIRST[0], error])]) as agent:
            line = failed(cli("run", agent.url, "-m", "a"), RunFailedError)
        assert line.endswith(r"boom \x1b[2J\x1b]0;owned\x07\x0anext \u202egnp")

    def test_bad_event_is_a_located_diagnostic(self, cli: Callable[..., Result]) -> None:
        """A bad line mid-stream is a diagnostic with its line; the run still completes."""
        events = [json.dumps(event) for event in FIRST]
        events.insert(3, "{not json")
        body = "".join(f"data: {event}\n\n" for event in events).encode()
        with SdkAgent([Turn(body=body, content_type="text/event-stream")]) as agent:
            result = cli("run", agent.url, "-m", "x", "--final")
        assert result.code == 1  # the run finished, but a line was dropped
        line, summary = result.err.splitlines()
        assert "json.invalid" in line
        assert "line=7" in line
        assert "1 rejected" in summary
        (run,) = [json.loads(record) for record in result.out.splitlines()]
        assert [part["surfaceId"] for part in run["parts"]] == ["s1", "flights"]


class TestSecrets:
    def test_header_reaches_the_agent_and_is_never_shown(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """-H values are sent, and appear on no output, no log line, no error."""
        log = tmp_path / "run.log.jsonl"
        turns = [Turn(FIRST), Turn(status=401, body=b"bad token")]
        with SdkAgent(turns) as agent:
            ok = cli("run", agent.url, "-m", "x", "-H", f"Authorization: {SECRET}", "--log", log)
            header = f"Authorization: {SECRET}"
            refused = cli("-v", "--log-format", "json", "run", agent.url, "-m", "x", "-H", header)
        assert agent.headers[0]["authorization"] == SECRET
        assert ok.code == 0
        assert refused.code == EXIT_CODES[AgentStatusError]
        shown = ok.out + ok.err.encode() + refused.out + refused.err.encode() + log.read_bytes()
        assert SECRET.split()[1].encode() not in shown

    def test_bad_header_named_by_position_only(self, cli: Callable[..., Result]) -> None:
        """A -H without a name: usage error naming its position, not its text."""
        result = cli("run", "http://127.0.0.1:9/agent", "-H", "X-Ok: 1", "-H", SECRET)
        assert result.code == 2
        assert "header 2" in one_line(result.err)
        assert "tok-9f8e" not in result.err

    def test_header_value_http_cannot_carry(self, cli: Callable[..., Result]) -> None:
        """A -H value with a line break or past ASCII: usage error by position, unshown."""
        for value in ("tok-9f8e\u00e9", "tok-9f8e\nX-Evil: 1"):
            result = cli("run", "http://127.0.0.1:9/agent", "-H", f"Authorization: {value}")
            assert result.code == 2
            assert "header 1 has a value that is not visible ASCII text" in one_line(result.err)
            assert "tok-9f8e" not in result.err

    def test_url_credentials_are_not_shown(self, cli: Callable[..., Result]) -> None:
        """A URL's password and query stay out of error messages."""
        url = f"http://me:pw-hidden@127.0.0.1:{free_port()}/agent?key=q-hidden"
        result = cli("run", url, "-m", "x")
        assert result.code == EXIT_CODES[AgentUnreachableError]
        assert "hidden" not in result.err

    @pytest.mark.parametrize(
        "argv",
        [
            ["ftp://127.0.0.1/agent"],
            ["http://127.0.0.1:9/agent", "--timeout", "0"],
            ["http://127.0.0.1:99999/agent"],
            ["http://127.0.0.1:9/agent", "--no-request", "--catalog", "c.json"],
        ],
    )
    def test_usage_errors(self, cli: Callable[..., Result], argv: list[str]) -> None:
        """A bad URL, timeout or combination of options is a usage error (exit 2)."""
        result = cli("run", *argv)
        assert result.code == 2
        assert "Traceback" not in result.err

    def test_a_message_that_is_not_utf8_is_a_usage_error(self) -> None:
        """argv bytes of another encoding: refused by name, before any connection."""
        url = f"http://127.0.0.1:{free_port()}/agent"  # nothing listens: no run is tried
        cases: list[list[str | bytes]] = [["-m", b"caf\xe9"], ["-m", "hi", "--thread-id", b"t\xe9"]]
        for argv in cases:
            done = subprocess.run(  # noqa: S603 - our own console script
                [str(CONSOLE_SCRIPT), "run", url, *argv],
                capture_output=True,
                timeout=SUBPROCESS_TIMEOUT,
                check=False,
            )
            assert done.returncode == 2
            assert b"holds text that is not Unicode" in done.stderr
            assert b"Traceback" not in done.stderr


def start(*argv: str | Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # noqa: S603 - our own console script
        [str(CONSOLE_SCRIPT), *map(str, argv)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


class TestConsoleScript:
    def test_ctrl_c_cancels_cleanly(self, tmp_path: Path) -> None:
        """SIGINT mid-run: exit 130, one warning line, and the log replays what was printed."""
        log = tmp_path / "run.log.jsonl"
        # Slow enough that the run is surely in progress when the signal arrives.
        with SdkAgent([Turn(FIRST, delay=0.2)]) as agent:
            command = start("run", agent.url, "-m", "x", "--log", log)
            assert command.stdout is not None
            first = command.stdout.readline()  # the first diff: the run is streaming
            command.send_signal(signal.SIGINT)
            rest, err = command.communicate(timeout=SUBPROCESS_TIMEOUT)
        assert command.returncode == EXIT_INTERRUPTED, err
        line = one_line(err.decode())
        assert "interrupted" in line
        printed = first + rest
        assert json.loads(first)["surfaceId"] == "s1"
        replayed = subprocess.run(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "replay", str(log)],
            capture_output=True,
            timeout=SUBPROCESS_TIMEOUT,
            check=True,
        )
        assert replayed.stdout == printed
        assert replayed.stderr == b""  # no torn last line to recover
        assert 6 <= len(log.read_bytes().splitlines()) < len(FIRST)

    def test_console_script_end_to_end(self) -> None:
        """The installed command talks to the agent and exits 0."""
        with SdkAgent([Turn(FIRST)]) as agent:
            started = time.monotonic()
            done = subprocess.run(  # noqa: S603 - our own console script
                [str(CONSOLE_SCRIPT), "run", agent.url, "-m", "hi", "--final"],
                capture_output=True,
                timeout=SUBPROCESS_TIMEOUT,
                check=False,
            )
        assert done.returncode == 0, done.stderr
        (run,) = [json.loads(line) for line in done.stdout.splitlines()]
        assert [p["surfaceId"] for p in run["parts"]] == ["s1", "flights"]
        assert time.monotonic() - started < SUBPROCESS_TIMEOUT


def test_exit_codes_are_distinct() -> None:
    """Each failure has its own exit code, apart from 0, 1, 2 and 130."""
    codes: dict[Any, int] = dict(EXIT_CODES)
    assert len(set(codes.values())) == len(codes)
    assert not set(codes.values()) & {0, 1, 2, EXIT_INTERRUPTED}


class TestInteractive:
    def test_a_line_that_is_not_utf8_is_refused_and_the_loop_goes_on(self) -> None:
        with SdkAgent([Turn(FIRST)]) as agent:
            done = subprocess.run(  # noqa: S603 - our own console script
                [str(CONSOLE_SCRIPT), "run", agent.url, "-i"],
                input=b"caf\xe9\nFind me a flight\n\n",
                capture_output=True,
                timeout=SUBPROCESS_TIMEOUT,
                check=False,
                env={**os.environ, "LC_ALL": "C.UTF-8"},
            )
        assert done.returncode == 0, done.stderr
        assert b"the message holds text that is not Unicode" in done.stderr
        assert b"agent: Here is your order summary." in done.stdout

    def test_prompt_loop_with_numbered_actions(
        self, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """-i: a line is a turn, a number presses that action with name=value input."""
        lines = "Find me a flight\n7\n1 seats=2\n\n"
        monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-i")
        assert result.code == 0, result.err
        shown = result.out.decode()
        assert "agent: Here is your order summary." in shown
        assert "    1) Button 'Book the first'" in shown
        assert "Checkbox 'Send me the e-ticket' [ticket=]" in shown
        assert shown.count("you> ") == 4
        assert one_line(result.err).endswith("no action 7: there are 1")
        first, pressed = agent.inputs()
        assert first.messages[0].content == "Find me a flight"
        user_action = pressed.forwarded_props["a2uiAction"]["userAction"]
        assert (user_action["name"], user_action["$input"]) == ("book", {"seats": "2"})

    def test_press_text_sends_the_press_as_a_user_turn(
        self, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """--press-text: a press is also a user turn, for agents that read no forwarded action."""
        monkeypatch.setattr(sys, "stdin", io.StringIO("Find me a flight\n1 seats=2\n\n"))
        with SdkAgent([Turn(FIRST), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-i", "--press-text")
        assert result.code == 0, result.err
        _, pressed = agent.inputs()
        said = pressed.messages[-1]
        assert said.role == "user"
        assert said.content == (
            "[A2UI Action] name=book, surfaceId=flights, sourceComponentId=book, "
            'context={"first":"TP 1351","seats":"2"}'
        )
        assert pressed.forwarded_props["a2uiAction"]["userAction"]["name"] == "book"

    def test_failed_run_does_not_end_the_conversation(
        self, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A run that fails is one error line; the next turn is still sent; the exit says it."""
        monkeypatch.setattr(sys, "stdin", io.StringIO("one\ntwo\n"))
        error = {"type": "RUN_ERROR", "message": "busy"}
        with SdkAgent([Turn([FIRST[0], error]), Turn(SECOND)]) as agent:
            result = cli("run", agent.url, "-i")
        assert result.code == EXIT_CODES[RunFailedError]
        assert "RUN_ERROR: busy" in one_line(result.err)
        assert len(agent.received) == 2
        assert "[booking]" in result.out.decode()

    def test_interactive_excludes_messages(self, cli: Callable[..., Result]) -> None:
        """-i with -m is a usage error: the prompt gives the turns."""
        assert cli("run", "http://127.0.0.1:9/agent", "-i", "-m", "x").code == 2

    def test_default_on_a_terminal(self) -> None:
        """With no -m on a terminal, run prompts; an empty line ends it with exit 0."""
        with (
            SdkAgent([Turn(FIRST)]) as agent,
            run_on_a_terminal(agent.url) as (command, controller),
        ):
            seen = read_until(controller, b"you> ")
            os.write(controller, b"hello\n")
            seen += read_until(controller, b"you> ")
            os.write(controller, b"\n")
            assert command.wait(timeout=SUBPROCESS_TIMEOUT) == 0
        assert b"1) Button 'Book the first'" in seen
        assert agent.inputs()[0].messages[0].content == "hello"

    def test_ctrl_c_at_the_prompt_ends_at_once(self) -> None:
        """SIGINT while the prompt waits for a line: exit 130 now, not at the next line."""
        with SdkAgent([]) as agent, run_on_a_terminal(agent.url) as (command, controller):
            read_until(controller, b"you> ")
            time.sleep(0.3)  # the reading thread is blocked in its read by now
            command.send_signal(signal.SIGINT)
            # A thread blocked reading the terminal kept the interpreter alive.
            code = command.wait(timeout=SUBPROCESS_TIMEOUT)
            assert command.stderr is not None
            err = command.stderr.read().decode()
        assert code == EXIT_INTERRUPTED
        assert one_line(err).endswith("interrupted: the run was cancelled")
        assert agent.received == []


@contextlib.contextmanager
def run_on_a_terminal(url: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``a2ui-stream run URL`` with a pseudo-terminal for stdin and stdout.

    Yields the process and the terminal's controlling end; the process is killed and
    the terminal closed on the way out, whatever the test did.
    """
    controller, terminal = pty.openpty()
    command = subprocess.Popen(  # noqa: S603 - our own console script
        [str(CONSOLE_SCRIPT), "run", url],
        stdin=terminal,
        stdout=terminal,
        stderr=subprocess.PIPE,
    )
    os.close(terminal)
    try:
        yield command, controller
    finally:
        command.kill()
        command.wait()
        os.close(controller)


def read_until(fd: int, marker: bytes) -> bytes:
    """Read a terminal until ``marker`` shows, within SUBPROCESS_TIMEOUT seconds."""
    seen = b""
    deadline = time.monotonic() + SUBPROCESS_TIMEOUT
    while marker not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {marker!r} in {seen!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            seen += os.read(fd, 4096)
    return seen
