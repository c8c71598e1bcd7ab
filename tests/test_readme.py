"""The README is tested: its two commands, its console examples and its Python examples.

Every example runs twice in a row, as a reader trying it again would: a console block
runs its commands in order in one directory, then all of them again, and each Python
example runs twice; both runs must print what the README shows.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sdk_agent import RECORDING, SdkAgent, Turn, recording_runs

from a2ui_stream import Processor, Severity, testing

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def console_blocks() -> list[list[tuple[str, str]]]:
    """Each console block: its ``$ command`` lines, each with the output shown after it."""
    blocks: list[list[tuple[str, str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        examples: list[tuple[str, str]] = []
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            examples.append((command, "\n".join(output)))
        blocks.append(examples)
    return blocks


class TestTopCommands:
    def test_first_block_has_exactly_two_commands(self) -> None:
        """The README opens with one fenced block of exactly two commands."""
        first = re.search(r"```\n(.*?)```", README, flags=re.DOTALL)
        assert first is not None
        assert README.index(first.group(0)) < README.index("\n## ")
        lines = first.group(1).strip().splitlines()
        assert len(lines) == 2
        assert "a2ui-stream process examples/recording.jsonl" in lines[0]
        assert "pytest" in lines[1]
        assert "mypy" in lines[1]
        assert "ruff check" in lines[1]

    def test_ci_runs_the_readme(self) -> None:
        """.ci/run takes its commands from the README rather than repeating them."""
        script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
        assert "README.md" in script


#: The agent URL the README's live examples use; tests put a real agent's there.
README_AGENT_URL = "http://127.0.0.1:8000/agent"


def live_agent() -> SdkAgent:
    """The official SDK's server, answering with the bundled recording's two runs."""
    first, second = recording_runs()
    return SdkAgent([Turn(first), Turn(second)])


def _has_beam() -> bool:
    return importlib.util.find_spec("apache_beam") is not None


def test_console_blocks_are_found() -> None:
    """The parser sees the README's console blocks (so the test below cannot pass empty)."""
    commands = [command for block in console_blocks() for command, _ in block]
    assert len(commands) >= 8
    assert any("replay" in command for command in commands)


@pytest.mark.parametrize(
    "block", console_blocks(), ids=lambda block: block[0][0].split(" | ")[0][:60]
)
def test_console_block(block: list[tuple[str, str]], tmp_path: Path) -> None:
    """Each console block prints what the README shows, run twice in a row in one place.

    A live example talks to a real agent (a fresh one per command).
    """
    if any(" batch " in command for command, _ in block) and not _has_beam():
        pytest.skip("a2ui-stream batch needs the beam extra (pip install -e '.[beam]')")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    for attempt in ("first", "second"):
        for command, expected in block:
            with contextlib.ExitStack() as stack:
                line = command
                if README_AGENT_URL in command:
                    agent = stack.enter_context(live_agent())
                    line = command.replace(README_AGENT_URL, agent.url)
                result = subprocess.run(  # noqa: S602 - the README's own shell lines
                    line,
                    shell=True,
                    cwd=tmp_path,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=120,
                    check=False,
                )
            assert result.returncode == 0, f"{attempt} run of {command!r}: {result.stderr}"
            assert result.stdout.rstrip("\n") == expected.rstrip("\n"), f"{attempt} run"


PYTHON_EXAMPLES = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def run_once(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - the README's own example
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def run_example(code: str) -> str:
    """The example's output; it runs twice, and the second run must print the same."""
    first, second = run_once(code), run_once(code)
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr)
    return first.stdout


def ending_in_a_diff(tmp_path: Path) -> tuple[Path, list[str]]:
    """The recording cut after its last event that draws, with no final line feed.

    Returns:
        The file, and ``op tool_call_id`` of every diff a processor gives for it.
    """
    lines = RECORDING.read_bytes().splitlines()
    whole = testing.process(RECORDING.read_bytes())
    last = max(diff.seq for diff in whole.diffs)
    data = b"\n".join(lines[: last + 1])  # JSONL: event seq is line seq - 1
    diffs = testing.process(data).diffs
    assert diffs[-1].seq == last
    assert Processor().feed(data)[-1:] != list(diffs[-1:])  # the last diff comes at close()
    path = tmp_path / "cut.jsonl"
    path.write_bytes(data)
    return path, [f"{diff.op} {diff.tool_call_id}" for diff in diffs]


def test_embedding_example_prints_every_diff(tmp_path: Path) -> None:
    """The embedding example prints each diff, those close() returns included."""
    code = PYTHON_EXAMPLES[0]
    whole = [f"{d.op} {d.tool_call_id}" for d in testing.process(RECORDING.read_bytes()).diffs]
    assert run_example(code).splitlines() == whole
    path, expected = ending_in_a_diff(tmp_path)
    cut = code.replace('"examples/recording.jsonl"', repr(str(path)))
    assert cut != code
    assert run_example(cut).splitlines() == expected


def test_embedding_example_shows_problems_not_debug() -> None:
    """Its diagnostics loop names each one's severity and leaves out the expected ones."""
    code = PYTHON_EXAMPLES[0].replace(
        'Path("examples/recording.jsonl").open("rb")', "io.BytesIO(sys.stdin.buffer.read())"
    )
    building, built = (
        testing.create_surface("s1"),
        testing.update_components("s1", {"id": "root", "component": "Text", "text": "hi"}),
    )
    events: list[Any] = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        testing.activity_snapshot("m", [building]),  # no root yet: a debug diagnostic
        testing.activity_snapshot("m", [building, built]),
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    data = testing.jsonl(events) + b"{oops\n"
    severities = [d.severity for d in testing.process(data).diagnostics]
    assert severities == [Severity.DEBUG, Severity.ERROR]
    result = subprocess.run(  # noqa: S603 - the README's own example
        [sys.executable, "-c", "import io\n" + code],
        cwd=ROOT,
        input=data,
        capture_output=True,
        timeout=120,
        check=True,
    )
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: json.invalid (line 5")


def test_embed_py_is_the_readme_example(tmp_path: Path) -> None:
    """examples/embed.py, which the README links, prints the same (every diff too)."""
    path, expected = ending_in_a_diff(tmp_path)
    script = str(ROOT / "examples" / "embed.py")
    result = subprocess.run(  # noqa: S603 - our own example
        [sys.executable, script, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.splitlines() == expected


def test_round_trip_example_runs() -> None:
    """The request round trip in the README builds a userAction from a real part."""
    assert run_example(PYTHON_EXAMPLES[1]).strip() == "book {'first': 'TP 1351'} True"


def test_live_agent_example_runs() -> None:
    """The live-agent example holds a two-turn conversation with a real AG-UI server.

    It runs twice, each time against a fresh agent (one conversation each).
    """
    outputs = []
    for _ in range(2):
        with live_agent() as agent:
            outputs.append(run_once(PYTHON_EXAMPLES[2].replace(README_AGENT_URL, agent.url)).stdout)
        first, pressed = agent.inputs()
        assert first.messages[0].content == "Find me a flight to Lisbon"
        user_action = pressed.forwarded_props["a2uiAction"]["userAction"]
        assert (user_action["name"], user_action["$input"]) == ("book", {"seats": "1"})
    assert outputs[0] == outputs[1]
    assert outputs[0].splitlines() == [
        "add a2ui:s1",
        "add a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
        "add a2ui:booking",
        "update a2ui:booking",
    ]


def test_aiter_diffs_example_runs() -> None:
    """The httpx example streams a real agent's answer through aiter_diffs."""
    code = next(e for e in PYTHON_EXAMPLES if "aiter_diffs(" in e)
    outputs = []
    for _ in range(2):
        with live_agent() as agent:
            outputs.append(run_once(code.replace(README_AGENT_URL, agent.url)).stdout)
        (sent,) = agent.inputs()  # the body validated as the SDK's RunAgentInput
        assert sent.messages[0].content == "Find me a flight to Lisbon"
        assert sent.forwarded_props["injectA2UITool"] is True
    assert outputs[0] == outputs[1]
    assert outputs[0].splitlines() == [
        "add a2ui:s1",
        "add a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
    ]


def test_tool_carrier_example_runs() -> None:
    """The example of an agent without the middleware paints from streamed arguments."""
    assert run_example(next(e for e in PYTHON_EXAMPLES if "render_tools=" in e)).splitlines() == [
        "add a2ui-surface-c1 {'$type': 'Markdown', 'value': ''}",
        "update a2ui-surface-c1 {'$type': 'Markdown', 'value': 'Ada'}",
        "painted",
    ]


def test_fsync_cost_is_stated_with_its_command() -> None:
    """The README states what ``--fsync always`` costs, and its measuring command runs.

    The figures are a benchmark's, not a test's: this runs the named command on a tiny
    input, so the way to check them on one's own disk stays true.
    """
    text = " ".join(README.split())
    assert "with the default `always`" in text
    match = re.search(r"`python (benchmarks/bench_cli_log\.py [^`]*)`", text)
    assert match is not None
    arguments = match.group(1).replace("9.6", "0.02").split()
    result = subprocess.run(  # noqa: S603 - the README's own command, made small
        [sys.executable, *arguments, "--repeat", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    rows = [line.split("|")[3].strip() for line in result.stdout.splitlines()[2:]]
    assert rows == ["none", "never", "batch", "always"]
