"""Hints for an input that gave nothing usable (:mod:`a2ui_stream._shell.hints`).

:func:`hint` on first bytes, each mistake and each reason to say nothing; then the
hints as the commands give them, with what to run instead.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
import stream_cases as cases
from helpers import WITH_BAD_LINE, Result, events_of, hint_of, write

from a2ui_stream._shell.hints import hint

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


class TestHint:
    """:func:`hint` on the input's first bytes, one mistake at a time."""

    @staticmethod
    def _hint(head: bytes, framing: str = "auto", read: int = 0, rejected: int = 1) -> str | None:
        return hint(head, framing=framing, read=read, rejected=rejected, name="in.json")

    @pytest.mark.parametrize("head", [b"", b"  \n\t", b"\xef\xbb\xbf", b"\xef\xbb\xbf \n"])
    def test_nothing_read_nothing_said(self, head: bytes) -> None:
        assert self._hint(head) is None

    def test_nothing_wrong_nothing_said(self) -> None:
        assert self._hint(b"[1, 2]", read=3, rejected=0) is None

    def test_no_event_at_all_is_worth_a_hint(self) -> None:
        assert self._hint(b"[1, 2]", read=0, rejected=0) is not None

    def test_jsonl_read_as_sse(self) -> None:
        for head in (b'{"type":"RUN_STARTED"}\n', b"[1]"):
            found = self._hint(head, framing="sse", read=5)
            assert found is not None
            assert found.startswith("the input is JSON lines, not SSE")

    @pytest.mark.parametrize("start", [b"data: {}", b"event: x", b"id: 1", b"retry: 5", b": hi"])
    def test_sse_read_as_jsonl(self, start: bytes) -> None:
        found = self._hint(start + b"\n\n", framing="jsonl", read=2)
        assert found is not None
        assert found.startswith("the input is SSE")

    def test_sse_under_auto_is_no_mistake(self) -> None:
        assert self._hint(b"data: {}\n\n") is None

    def test_text_that_is_no_json_has_no_hint(self) -> None:
        assert self._hint(b"hello world\n") is None

    def test_some_events_read_means_no_whole_input_mistake(self) -> None:
        assert self._hint(b"[1, 2]\n", read=1) is None

    def test_an_array(self) -> None:
        found = self._hint(b'\xef\xbb\xbf  [{"type": "RUN_STARTED"}]')
        assert found is not None
        assert "jq -c '.[]' in.json > events.jsonl" in found

    def test_a_document_over_several_lines(self) -> None:
        found = self._hint(b'{\n  "type": "RUN_STARTED"\n}\n')
        assert found is not None
        assert "`jq -c . in.json`" in found

    @pytest.mark.parametrize(
        "head",
        [
            b'{"type": "RUN_STARTED", "threadId": "t\\ud800", "runId": "r"}\n',  # a lone surrogate
            b'{"type": "RUN_STARTED", "runId": "r",}\n',  # a trailing comma
            b'{"type": "TEXT_MESSAGE_CONTENT", "delta": "{[ \\" ["}x\n',  # brackets in a string
        ],
    )
    def test_a_bad_line_that_closes_what_it_opens_is_no_document(self, head: bytes) -> None:
        """Each line is one bad event, not the start of a pretty-printed document."""
        assert self._hint(head * 2) is None

    def test_a_document_opened_on_a_line_of_its_own(self) -> None:
        found = self._hint(b'{"type": "RUN_STARTED",\n "threadId": "t"}\n')
        assert found is not None
        assert "`jq -c . in.json`" in found

    def test_one_whole_line_that_is_no_event_has_no_hint(self) -> None:
        """One compact event-like object per line is the right shape: diagnostics say the rest."""
        assert self._hint(b'{"type": "NOPE"}\n{"type": "NOR"}\n') is None

    def test_objects_naming_no_operation_are_not_sent_to_render(self) -> None:
        """Arbitrary JSON lines are no A2UI file: the event diagnostics say what is wrong."""
        assert self._hint(b'{"x": 1}\n{"y": 2}\n') is None
        assert self._hint(b'[{"x": 1}, {"y": 2}]') is not None  # still named as an array
        assert "render" not in (self._hint(b'[{"x": 1}, {"y": 2}]') or "")

    def test_a_v08_operation_names_render(self) -> None:
        found = self._hint(b'{"beginRendering": {"surfaceId": "s", "root": "r"}}\n')
        assert found is not None
        assert found.startswith("the input holds raw A2UI messages")

    def test_raw_a2ui_names_render_and_the_file(self) -> None:
        head = json.dumps([{"version": "v0.9", "createSurface": {"surfaceId": "s"}}]).encode()
        found = self._hint(head)
        assert found is not None
        assert "`a2ui-stream render in.json`" in found

    def test_standard_input_is_called_file(self) -> None:
        head = b'[{"type": "RUN_STARTED"}]'
        found = hint(head, framing="auto", read=0, rejected=1, name="-")
        assert found is not None
        assert "jq -c '.[]' FILE" in found


class TestHints:
    """The common mistakes are named, with what to run instead; exit 1 for each."""

    @pytest.mark.parametrize("indent", [None, 2], ids=["compact", "pretty"])
    @pytest.mark.parametrize("command", ["process", "inspect", "render"])
    def test_json_array_of_events(
        self, cli: Callable[..., Result], tmp_path: Path, indent: int | None, command: str
    ) -> None:
        if command == "render":
            pytest.importorskip("markdown_it", reason="render needs the html extra")
        data = json.dumps(events_of(cases.RECORDING), indent=indent).encode()
        result = cli(command, write(tmp_path, "events.json", data))
        assert result.code == 1
        assert hint_of(result).startswith("the input is one JSON array")
        assert "jq -c '.[]'" in hint_of(result)

    def test_one_pretty_printed_event(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        data = json.dumps(events_of(cases.RECORDING)[0], indent=2).encode()
        result = cli("process", write(tmp_path, "event.json", data))
        assert result.code == 1
        assert "jq -c ." in hint_of(result)

    @pytest.mark.parametrize("shape", ["array", "jsonl", "wrapper"])
    def test_raw_a2ui_file(self, cli: Callable[..., Result], tmp_path: Path, shape: str) -> None:
        """A2UI messages given to process: the hint names render and inspect --tree."""
        messages = cases.text_surface("s", "hi")
        data = {
            "array": json.dumps(messages, indent=2).encode(),
            "jsonl": b"".join(cases.line(m) for m in messages),
            "wrapper": json.dumps({"name": "x", "messages": messages}, indent=2).encode(),
        }[shape]
        path = write(tmp_path, "sample.json", data)
        result = cli("process", path)
        assert result.code == 1
        assert hint_of(result) == (
            "the input holds raw A2UI messages, not AG-UI events: "
            f"`a2ui-stream render {path}` draws them as a page and "
            f"`a2ui-stream inspect --tree {path}` prints them"
        )
        assert cli("inspect", "--tree", path).code == 0  # and the suggestion works

    def test_format_sse_on_jsonl(self, cli: Callable[..., Result]) -> None:
        """Every line is reported as dropped, not silently ignored; the hint says why."""
        result = cli("process", "--format", "sse", cases.RECORDING_PATH)
        assert (result.code, result.out) == (1, b"")
        assert "sse.json_line" in result.err
        assert "drop --format sse" in hint_of(result)
        assert "22 rejected" in result.err_lines[-1]

    def test_format_jsonl_on_sse(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli(
            "process", "--format", "jsonl", write(tmp_path, "in", cases.to_sse(cases.RECORDING))
        )
        assert result.code == 1
        assert "drop --format jsonl" in hint_of(result)

    def test_no_hint_when_most_lines_are_events(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        result = cli("process", write(tmp_path, "in", WITH_BAD_LINE))
        assert result.code == 1
        assert "hint" not in result.err


class TestTooDeep:
    """A JSON file nested past what the decoder can hold is bad input, not a crash."""

    # Found by an input probe: a 2 KB file of 1,000 nested arrays made every command
    # raise RecursionError from the format sniffing (render's sniff, via the hints).
    @pytest.mark.parametrize("depth", [1_000, 100_000])
    @pytest.mark.parametrize(
        "command",
        [["process"], ["process", "--final"], ["inspect"], ["inspect", "--tree"], ["render"]],
        ids=" ".join,
    )
    def test_every_command_reports_it(
        self, cli: Callable[..., Result], tmp_path: Path, depth: int, command: list[str]
    ) -> None:
        for name, data in [
            ("deep.json", b"[" * depth + b"]" * depth),
            ("deep-lines.jsonl", b"[1]\n" + b"[" * depth + b"]" * depth + b"\n[2]\n"),
        ]:
            result = cli(*command, write(tmp_path, name, data))
            assert result.code == 1, (name, result.err)
            assert "Traceback" not in result.err
            assert "(error)" in result.err
