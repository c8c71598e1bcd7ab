"""Options every command shares (:mod:`a2ui_stream._shell.options`).

The value types (sizes with binary suffixes, sequence numbers), the ``--max-...``
options made from :class:`~a2ui_stream.Limits`, ``--log-format`` and ``-v`` before
and after the command, ``--version``; then the same through the command line.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
from typing import TYPE_CHECKING

import msgspec
import pytest
import stream_cases as cases
from helpers import WITH_BAD_LINE, Result, render_recording, write

import a2ui_stream
from a2ui_stream._shell.options import (
    add_carriers,
    add_common,
    add_limits,
    add_version,
    carriers,
    limits,
    package_version,
    sequence_number,
)
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def parser_with_limits() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="t", exit_on_error=False)
    add_limits(parser)
    return parser


class TestSizes:
    @pytest.mark.parametrize(
        ("text", "value"),
        [
            ("1", 1),
            ("16777216", 16 << 20),
            ("1_000", 1000),
            ("64k", 64 << 10),
            ("64K", 64 << 10),
            ("16M", 16 << 20),
            ("16MiB", 16 << 20),
            ("16mb", 16 << 20),
            ("2G", 2 << 30),
            (" 3 ", 3),
        ],
    )
    def test_counts_with_binary_suffixes(self, text: str, value: int) -> None:
        arguments = parser_with_limits().parse_args(["--max-nodes", text])
        assert limits(arguments).max_nodes == value

    @pytest.mark.parametrize("text", ["0", "0k", "-5", "lots", "1.5", "", "16X", "k", "1 2"])
    def test_what_is_no_count_is_refused(self, text: str) -> None:
        with pytest.raises(argparse.ArgumentError, match="--max-nodes"):
            parser_with_limits().parse_args(["--max-nodes", text])


class TestLimits:
    def test_nothing_given_is_the_defaults(self) -> None:
        assert limits(parser_with_limits().parse_args([])) == Limits()

    def test_given_ones_are_set_the_rest_default(self) -> None:
        arguments = parser_with_limits().parse_args(["--max-line-bytes", "2k", "--max-nodes", "9"])
        got = limits(arguments)
        assert (got.max_line_bytes, got.max_nodes) == (2048, 9)
        assert got.max_data_depth == Limits().max_data_depth

    def test_other_options_are_not_limits(self) -> None:
        """Only ``limit_``-prefixed destinations are read: a command's own are left."""
        assert limits(argparse.Namespace(strict=True, limit_max_nodes=3)) == Limits(max_nodes=3)

    def test_every_limit_is_described_from_its_docstring(self) -> None:
        """A limit documented nowhere would get its bare name as help: none is."""
        help_text = " ".join(parser_with_limits().format_help().split())
        for field in msgspec.structs.fields(Limits):
            assert f"(default: {field.default:,})" in help_text, field.name
            assert f"{field.name.replace('_', ' ')} (default:" not in help_text, field.name


class TestCommon:
    @staticmethod
    def _parser() -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(prog="t")
        add_common(parser, after_command=False)
        commands = parser.add_subparsers(dest="command")
        add_common(commands.add_parser("go"), after_command=True)
        return parser

    @pytest.mark.parametrize(
        ("argv", "expected"),
        [
            (["go"], ("text", False)),
            (["--log-format", "json", "-v", "go"], ("json", True)),
            (["go", "--log-format", "json", "--verbose"], ("json", True)),
            (["--log-format", "json", "go", "--log-format", "text"], ("text", False)),
        ],
    )
    def test_before_or_after_the_command(self, argv: list[str], expected: tuple[str, bool]) -> None:
        arguments = self._parser().parse_args(argv)
        assert (arguments.log_format, arguments.verbose) == expected

    def test_an_unknown_format_is_refused(self) -> None:
        with pytest.raises(SystemExit):
            self._parser().parse_args(["go", "--log-format", "yaml"])


class TestVersion:
    def test_package_version_is_the_package_s(self) -> None:
        assert package_version() == a2ui_stream.__version__

    def test_version_prints_and_exits(self, capsys: pytest.CaptureFixture[str]) -> None:
        parser = argparse.ArgumentParser(prog="prog")
        add_version(parser)
        with pytest.raises(SystemExit) as exited:
            parser.parse_args(["--version"])
        assert exited.value.code == 0
        assert capsys.readouterr().out == f"prog {a2ui_stream.__version__}\n"


class TestSequenceNumber:
    @pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), (" 12 ", 12), ("1_0", 10)])
    def test_whole_numbers_from_zero(self, text: str, value: int) -> None:
        assert sequence_number(text) == value

    @pytest.mark.parametrize("text", ["-1", "x", "1.5", ""])
    def test_anything_else_says_what_a_seq_is(self, text: str) -> None:
        with pytest.raises(argparse.ArgumentTypeError, match="seqs count events from 0"):
            sequence_number(text)


class TestOnTheCommandLine:
    def test_version(self, cli: Callable[..., Result]) -> None:
        expected = importlib.metadata.version("a2ui-stream")
        assert a2ui_stream.__version__ == expected
        result = cli("--version")
        assert (result.code, result.out.decode()) == (0, f"a2ui-stream {expected}\n")

    @pytest.mark.parametrize("command", ["process", "inspect", "replay"])
    def test_global_options_after_the_command(
        self, cli: Callable[..., Result], tmp_path: Path, command: str
    ) -> None:
        """--log-format and -v work after the command as before it."""
        path = write(tmp_path, "in.jsonl", WITH_BAD_LINE)
        if command == "replay":
            path = tmp_path / "log.jsonl"
            cli("process", "--log", path, cases.RECORDING_PATH)
        after = cli(command, "--log-format", "json", "-v", path)
        before = cli("--log-format", "json", "-v", command, path)
        assert after.code == before.code
        records = [json.loads(line) for line in after.err_lines]
        assert records[-1]["event"] == "summary"
        assert any(r["level"] == "debug" for r in records)  # -v took effect
        assert [r["event"] for r in records] == [
            r["event"] for r in (json.loads(line) for line in before.err_lines)
        ]

    def test_after_the_command_wins(self, cli: Callable[..., Result]) -> None:
        result = cli(
            "--log-format", "json", "process", "--log-format", "text", "-v", cases.RECORDING_PATH
        )
        assert result.err_lines[-1].startswith("[info")

    def test_max_line_bytes(self, cli: Callable[..., Result]) -> None:
        """A limit is an option: a line over --max-line-bytes is skipped with line.too_long."""
        result = cli("process", "--max-line-bytes", "1k", cases.RECORDING_PATH)
        assert result.code == 1
        assert "line.too_long" in result.err
        longest = max(len(line) for line in cases.RECORDING.splitlines())
        assert cli("process", "--max-line-bytes", str(longest), cases.RECORDING_PATH).code == 0

    @pytest.mark.parametrize("command", ["process", "replay", "inspect", "render", "run"])
    def test_every_limit_is_an_option(self, cli: Callable[..., Result], command: str) -> None:
        help_text = cli(command, "--help").out.decode()
        for field in msgspec.structs.fields(a2ui_stream.Limits):
            assert "--" + field.name.replace("_", "-") in help_text, field.name

    def test_a_limit_reaches_the_converter(self, cli: Callable[..., Result]) -> None:
        result = cli("process", "--max-nodes", "2", cases.RECORDING_PATH)
        assert "convert.node_budget" in result.err

    @pytest.mark.parametrize("value", ["0", "-5", "lots", "1.5"])
    def test_bad_limit_is_a_usage_error(self, cli: Callable[..., Result], value: str) -> None:
        result = cli("process", "--max-nodes", value, cases.RECORDING_PATH)
        assert result.code == 2
        assert "--max-nodes" in result.err

    def test_from_refuses_negatives(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        log = tmp_path / "log.jsonl"
        cli("process", "--log", log, cases.RECORDING_PATH)
        result = cli("replay", log, "--from", "-1")
        assert result.code == 2
        assert "'-1' is not a sequence number" in result.err
        assert cli("replay", log, "--from", "0").out == cli("replay", log).out


class TestCarriers:
    def test_nothing_given_leaves_the_defaults(self) -> None:
        parser = argparse.ArgumentParser(prog="t", exit_on_error=False)
        add_carriers(parser)
        assert carriers(parser.parse_args([])) == {}
        assert carriers(argparse.Namespace()) == {}  # a command without the options

    def test_repeated_names_replace_the_defaults(self) -> None:
        parser = argparse.ArgumentParser(prog="t", exit_on_error=False)
        add_carriers(parser)
        given = parser.parse_args(
            ["--render-tool", "a", "--render-tool", "b", "--wrapper-tool", "w", "--catalog-id", "k"]
        )
        assert carriers(given) == {
            "render_tools": ("a", "b"),
            "wrapper_tools": ("w",),
            "catalog_id": "k",
        }
        a2ui_stream.Processor(**carriers(given))  # what the processor takes, as it is

    def test_every_reading_command_draws_a_renamed_render_tool(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path], tmp_path: Path
    ) -> None:
        """process, replay, inspect and render draw from a tool named by --render-tool only."""
        recording = write("renamed.jsonl", render_recording("show_ui"))
        plain = cli("process", recording)
        assert plain.code == 0
        assert plain.out == b""  # render_a2ui is the only render tool by default
        log = tmp_path / "events.jsonl"
        drawn = cli("process", recording, "--render-tool", "show_ui", "--log", log)
        assert drawn.code == 0
        [line] = drawn.out.splitlines()
        assert json.loads(line)["toolCallId"] == "a2ui:s"
        assert cli("replay", log, "--render-tool", "show_ui").out == drawn.out
        assert cli("replay", log).out == b""  # the log keeps events, not options
        assert "s" in cli("inspect", recording, "--render-tool", "show_ui").out.decode()
        page = cli("render", recording, "--render-tool", "show_ui", "-o", tmp_path / "p.html")
        assert page.code == 0
        assert "drawn-by-the-tool" in (tmp_path / "p.html").read_text()
        bare = cli("render", recording, "-o", tmp_path / "bare.html")
        assert "drawn-by-the-tool" not in (tmp_path / "bare.html").read_text()
        assert bare.code == 0

    @pytest.mark.parametrize("option", ["--render-tool", "--wrapper-tool", "--catalog-id"])
    def test_an_empty_name_is_refused(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path], option: str
    ) -> None:
        """A tool or catalog named by nothing is a mistake: a usage error that says so."""
        recording = write("renamed.jsonl", render_recording("show_ui"))
        found = cli("process", recording, option, " ")
        assert found.code == 2
        assert "empty" in found.err
