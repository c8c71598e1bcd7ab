"""The README is tested: its two commands, its console examples and its Python example."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sdk_agent import SdkAgent, Turn, recording_runs

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def console_examples() -> list[tuple[str, str]]:
    """Every ``$ command`` in a console block with the output shown after it."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
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
    return examples


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


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_console_example(command: str, expected: str, tmp_path: Path) -> None:
    """Each console example prints what the README shows (a live one, from a real agent)."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    if "replay" in command and "process --log" not in command:
        setup = next(c for c, _ in console_examples() if "process --log" in c)
        subprocess.run(setup, shell=True, cwd=tmp_path, env=env, check=True)  # noqa: S602
    with contextlib.ExitStack() as stack:
        if README_AGENT_URL in command:
            agent = stack.enter_context(live_agent())
            command = command.replace(README_AGENT_URL, agent.url)
        result = subprocess.run(  # noqa: S602 - the README's own shell lines
            command,
            shell=True,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n") == expected.rstrip("\n")


PYTHON_EXAMPLES = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def run_example(code: str) -> str:
    result = subprocess.run(  # noqa: S603 - the README's own example
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def test_embedding_example_runs() -> None:
    """The embedding example in the README runs and prints diffs."""
    assert run_example(PYTHON_EXAMPLES[0]).splitlines()[0] == "add a2ui:s1"


def test_round_trip_example_runs() -> None:
    """The request round trip in the README builds a userAction from a real part."""
    assert run_example(PYTHON_EXAMPLES[1]).strip() == "book {'first': 'TP 1351'} True"


def test_live_agent_example_runs() -> None:
    """The live-agent example holds a two-turn conversation with a real AG-UI server."""
    with live_agent() as agent:
        output = run_example(PYTHON_EXAMPLES[2].replace(README_AGENT_URL, agent.url))
    assert output.splitlines() == [
        "add a2ui:s1",
        "add a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
        "update a2ui:flights",
        "add a2ui:booking",
        "update a2ui:booking",
    ]
    first, pressed = agent.inputs()
    assert first.messages[0].content == "Find me a flight to Lisbon"
    user_action = pressed.forwarded_props["a2uiAction"]["userAction"]
    assert (user_action["name"], user_action["$input"]) == ("book", {"seats": "1"})


def test_tool_carrier_example_runs() -> None:
    """The example of an agent without the middleware paints from streamed arguments."""
    assert run_example(next(e for e in PYTHON_EXAMPLES if "render_tools=" in e)).splitlines() == [
        "add a2ui-surface-c1 {'$type': 'Markdown', 'value': ''}",
        "update a2ui-surface-c1 {'$type': 'Markdown', 'value': 'Ada'}",
        "painted",
    ]
