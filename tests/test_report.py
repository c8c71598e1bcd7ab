"""What a command tells its user on stderr (:mod:`a2ui_stream._shell.report`).

:class:`Reporter` against a recording logger: one line per diagnostic with its
fields, the allowance per code and severity, the summary and the exit code; the
logging configuration; then the summary and the collapse as the commands show them.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import pytest
import stream_cases as cases
import structlog
from helpers import BAD_LINE, WITH_BAD_LINE, Recorder, Result, many_cards, write

from a2ui_stream._shell import report
from a2ui_stream._shell.report import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    SHOWN_PER_CODE,
    Reporter,
    configure_logging,
)
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


def diagnostic(code: str = "x.y", severity: Severity = Severity.WARNING, **kw: Any) -> Diagnostic:
    return Diagnostic(code=code, message=f"about {code}", severity=severity, **kw)


class TestReporter:
    def test_a_diagnostic_is_one_line_at_its_level_with_its_fields(self) -> None:
        logger = Recorder()
        Reporter(logger)([diagnostic(severity=Severity.ERROR, line=3, path="$.a")])
        assert logger.calls == [("error", "about x.y", {"code": "x.y", "line": 3, "path": "$.a"})]

    def test_raw_is_shown_short_and_decoded(self) -> None:
        logger = Recorder()
        Reporter(logger)([diagnostic(raw=b"\xff" + b"a" * 500)])
        [(_, _, fields)] = logger.calls
        assert fields["raw"] == "\ufffd" + "a" * 119

    def test_errors_decide_the_exit_code(self) -> None:
        warned = Reporter(Recorder())
        warned([diagnostic()])
        assert warned.finish(read=1) == EXIT_OK
        failed = Reporter(Recorder())
        failed([diagnostic(), diagnostic("a.b", Severity.ERROR)])
        assert failed.errors == 1
        assert failed.finish(read=1) == EXIT_BAD_INPUT

    def test_debug_is_neither_shown_nor_counted_without_verbose(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger)
        reporter([diagnostic(severity=Severity.DEBUG)])
        assert reporter.finish(read=2) == EXIT_OK
        assert logger.calls == []  # a clean run is silent
        loud = Recorder()
        verbose = Reporter(loud, verbose=True)
        verbose([diagnostic(severity=Severity.DEBUG)])
        verbose.finish(read=2)
        assert [level for level, _, _ in loud.calls] == ["debug", "info"]
        assert loud.calls[-1][1] == "2 events read, 0 rejected; 1 diagnostic: x.y (debug) x1"

    def test_past_the_allowance_one_line_then_silence(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger)
        reporter(diagnostic() for _ in range(SHOWN_PER_CODE + 10))
        events = [event for _, event, _ in logger.calls]
        assert events[:SHOWN_PER_CODE] == ["about x.y"] * SHOWN_PER_CODE
        assert events[SHOWN_PER_CODE:] == [
            "more x.y warnings are counted in the summary, not shown"
        ]
        reporter.finish(read=1)
        assert logger.calls[-1][1].endswith(
            f"{SHOWN_PER_CODE + 10} diagnostics: x.y (warning) x15 (10 not shown)"
        )

    def test_a_code_at_two_severities_has_two_allowances(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger)
        reporter([diagnostic()] * SHOWN_PER_CODE + [diagnostic(severity=Severity.ERROR)])
        assert [level for level, _, _ in logger.calls] == ["warning"] * SHOWN_PER_CODE + ["error"]

    def test_summary_lists_codes_most_frequent_first(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger)
        reporter([diagnostic("b.b"), diagnostic("a.a"), diagnostic("c.c"), diagnostic("c.c")])
        reporter.finish(read=1, rejected=1234, unit="message")
        assert logger.calls[-1][1] == (
            "1 message read, 1,234 rejected; 4 diagnostics: "
            "c.c (warning) x2, a.a (warning) x1, b.b (warning) x1"
        )

    def test_a_rejected_line_alone_gets_a_summary(self) -> None:
        logger = Recorder()
        assert Reporter(logger).finish(read=0, rejected=1) == EXIT_OK
        assert logger.calls == [("info", "0 events read, 1 rejected; 0 diagnostics", {})]

    def test_json_summary_carries_counts_as_fields(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger, json=True)
        reporter([diagnostic("a.a", Severity.ERROR)] * (SHOWN_PER_CODE + 2))
        reporter.finish(read=9, rejected=2)
        assert logger.calls[-1] == (
            "info",
            "summary",
            {
                "read": 9,
                "unit": "event",
                "rejected": 2,
                "diagnostics": {"a.a (error)": SHOWN_PER_CODE + 2},
                "not_shown": 2,
            },
        )

    def test_hint(self) -> None:
        logger = Recorder()
        reporter = Reporter(logger)
        reporter.hint(None)
        reporter.hint("try this")
        assert logger.calls == [("warning", "hint: try this", {})]


class TestConfigureLogging:
    @pytest.fixture(autouse=True)
    def _reset(self) -> Iterator[None]:
        yield
        structlog.reset_defaults()

    def test_json_lines_without_debug(self) -> None:
        stream = io.StringIO()
        configure_logging("json", verbose=False, stream=stream)
        logger = structlog.get_logger()
        logger.debug("hidden")
        logger.info("shown", n=1)
        assert [json.loads(line) for line in stream.getvalue().splitlines()] == [
            {"event": "shown", "level": "info", "n": 1}
        ]

    def test_verbose_text(self) -> None:
        stream = io.StringIO()
        configure_logging("text", verbose=True, stream=stream)
        structlog.get_logger().debug("seen")
        assert "seen" in stream.getvalue()
        assert "\x1b[" not in stream.getvalue()  # no colours off a terminal


class TestSummary:
    def test_clean_run_is_silent(self, cli: Callable[..., Result]) -> None:
        """Nothing to report: stderr stays empty, as a pipeline's commands keep it."""
        assert cli("process", cases.RECORDING_PATH).err == ""
        assert cli("inspect", cases.RECORDING_PATH).err == ""

    def test_verbose_always_summarises(self, cli: Callable[..., Result]) -> None:
        result = cli("-v", "process", cases.RECORDING_PATH)
        assert result.err_lines[-1].endswith(
            "22 events read, 0 rejected; 1 diagnostic: convert.template_not_list (debug) x1"
        )

    def test_json_summary_has_the_counts(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli("--log-format", "json", "process", write(tmp_path, "in", WITH_BAD_LINE))
        summary = json.loads(result.err_lines[-1])
        assert summary == {
            "event": "summary",
            "level": "info",
            "read": 22,
            "unit": "event",
            "rejected": 1,
            "diagnostics": {"json.invalid (error)": 1},
            "not_shown": 0,
        }


class TestCollapse:
    def test_repeated_diagnostics_are_counted(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A 4,000-component surface with a bad padding per Card: five lines, then counts."""
        result = cli("process", write(tmp_path, "in.jsonl", many_cards(2000)))
        shown = [line for line in result.err_lines if "code=convert.prop_invalid" in line]
        assert len(shown) == SHOWN_PER_CODE
        assert sum("counted in the summary, not shown" in line for line in result.err_lines) == 1
        assert result.err_lines[-1].endswith(
            "2,000 diagnostics: convert.prop_invalid (warning) x2,000 (1,995 not shown)"
        )
        assert len(result.err_lines) == SHOWN_PER_CODE + 2

    def test_suppressed_ones_are_not_formatted(
        self, cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A diagnostic past the first few costs a count, not a formatted line."""
        formatted: list[object] = []
        real = report._fields

        def counting(diagnostic: Any) -> dict[str, Any]:
            formatted.append(diagnostic)
            return real(diagnostic)

        monkeypatch.setattr(report, "_fields", counting)
        cli("process", write(tmp_path, "in.jsonl", many_cards(500)))
        assert len(formatted) == SHOWN_PER_CODE

    def test_each_code_has_its_own_allowance(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        data = BAD_LINE * 10 + b'{"type":"RUN_STARTED"}\n' * 10
        result = cli("process", write(tmp_path, "in.jsonl", data))
        assert sum("code=json.invalid" in line for line in result.err_lines) == SHOWN_PER_CODE
        assert sum("code=event.invalid" in line for line in result.err_lines) == SHOWN_PER_CODE
        assert "json.invalid (error) x10" in result.err_lines[-1]
        assert "event.invalid (error) x10" in result.err_lines[-1]
