"""Which fields an AG-UI event needs (:mod:`a2ui_stream._wire.fields`).

The tables name wire fields by their wire spelling; a name that matches no field of
its class would silently check nothing, so the tables are pinned against the classes.
The checks themselves: an empty needed string, a missing required field (and the
snake_case hint that names the SDK spelling), and the decoder's fast-path scanners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import msgspec
import pytest
import stream_cases as cases
from helpers import Result, write

from a2ui_stream import testing
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.events import (
    KnownEvent,
    RunStarted,
    StepStarted,
    TextMessageContent,
    ToolCallArgs,
)
from a2ui_stream._wire.fields import (
    EXPECTED,
    NEEDED,
    REVIEWED,
    SCANNED,
    empty_needed,
    missing_warnings,
    snake_case_hint,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

BY_TAG = {str(cls.__struct_config__.tag): cls for cls in get_args(KnownEvent)}


def wire_names(cls: type) -> set[str]:
    return {field.encode_name for field in msgspec.structs.fields(cls)}


class TestTables:
    @pytest.mark.parametrize("table", [NEEDED, EXPECTED], ids=["needed", "expected"])
    def test_every_tag_is_an_event(self, table: dict[str, object]) -> None:
        assert set(table) <= set(BY_TAG)

    @pytest.mark.parametrize("table", [NEEDED, EXPECTED], ids=["needed", "expected"])
    def test_every_name_is_a_field_of_its_class(self, table: dict[str, object]) -> None:
        """A misspelt wire name would check nothing: each one names a declared field."""
        for tag, names in table.items():
            missing = set(names) - wire_names(BY_TAG[tag])  # type: ignore[call-overload]
            assert not missing, (tag, missing)

    def test_needed_and_expected_do_not_overlap(self) -> None:
        """A field is either needed (drops the event) or expected (a warning), not both."""
        for tag, names in EXPECTED.items():
            assert not set(names) & NEEDED.get(tag, frozenset()), tag

    def test_reviewed_is_every_class_the_tables_name(self) -> None:
        assert {BY_TAG[tag] for tag in (*NEEDED, *EXPECTED)} == REVIEWED
        assert set(SCANNED) == REVIEWED


class TestScanned:
    def test_a_complete_event_scans_all_truthy(self) -> None:
        event = RunStarted(thread_id="t", run_id="r")
        assert all(SCANNED[RunStarted](event))

    def test_a_missing_expected_field_scans_falsy(self) -> None:
        assert not all(SCANNED[RunStarted](RunStarted(run_id="r")))

    def test_one_checked_field_still_gives_a_tuple(self) -> None:
        """attrgetter of one name gives the value itself; the scanner gives a tuple."""
        assert (StepStarted, ("stepName",)) == (BY_TAG["STEP_STARTED"], EXPECTED["STEP_STARTED"])
        scanned = SCANNED[StepStarted](StepStarted(step_name="s"))
        assert scanned == ("s", "s")
        assert not all(SCANNED[StepStarted](StepStarted()))


class TestEmptyNeeded:
    def test_empty_needed_string_is_named(self) -> None:
        assert empty_needed(RunStarted(thread_id="t", run_id="")) == "runId"
        assert empty_needed(ToolCallArgs(tool_call_id="", delta="x")) == "toolCallId"

    def test_full_or_unchecked_is_none(self) -> None:
        assert empty_needed(RunStarted(thread_id="", run_id="r")) is None  # threadId: expected
        assert empty_needed(TextMessageContent(message_id="m", delta="d")) is None


class TestMissingWarnings:
    def test_one_warning_per_missing_field_with_its_place(self) -> None:
        [warning] = missing_warnings(RunStarted(run_id="r"), line=3, offset=40)
        assert (warning.code, warning.severity) == (Code.EVENT_FIELD_MISSING, Severity.WARNING)
        assert (warning.line, warning.offset, warning.path) == (3, 40, "$.threadId")
        assert warning.message.startswith("RUN_STARTED has no `threadId`")

    def test_ignored_fields_are_not_warned(self) -> None:
        assert missing_warnings(RunStarted(run_id="r"), 1, 0, frozenset({"threadId"})) == []

    def test_complete_event_has_none(self) -> None:
        assert missing_warnings(RunStarted(thread_id="t", run_id="r"), None, None) == []

    def test_every_expected_field_is_checked(self) -> None:
        """Each class's expected fields, all absent, give one warning each, in order."""
        for tag, names in EXPECTED.items():
            if tag in NEEDED:
                continue
            event = msgspec.convert({"type": tag}, KnownEvent)
            paths = [w.path for w in missing_warnings(event, None, None)]
            assert paths == [f"$.{name}" for name in names], tag


class TestSnakeCaseHint:
    def test_snake_spelling_present_is_named(self) -> None:
        hint = snake_case_hint("threadId", {"thread_id", "type"})
        assert "the line has `thread_id`" in hint
        assert "camelCase" in hint

    def test_no_snake_spelling_no_hint(self) -> None:
        assert snake_case_hint("threadId", {"threadid", "type"}) == ""
        assert snake_case_hint("threadId", ()) == ""

    def test_one_word_field_has_no_snake_spelling(self) -> None:
        assert snake_case_hint("delta", {"delta"}) == ""

    def test_several_capitals(self) -> None:
        assert "`tool_call_id`" in snake_case_hint("toolCallId", ["tool_call_id"])

    def test_snake_case_field_missing_warning(self) -> None:
        capture = testing.process(b'{"type":"RUN_STARTED","runId":"r","thread_id":"t"}\n')
        [warning] = capture.diagnostics
        assert warning.code == "event.field_missing"
        assert "the line has `thread_id`" in warning.message


class TestSnakeCaseOnTheCommandLine:
    def test_snake_case_keys(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """Events written with the SDK's model_dump_json() and no by_alias say so."""
        core = pytest.importorskip("ag_ui.core", reason="the official SDK is a test extra")
        events = [
            core.RunStartedEvent(thread_id="t", run_id="r"),
            core.ActivitySnapshotEvent(
                message_id="m",
                activity_type="a2ui-surface",
                content={"a2ui_operations": cases.text_surface("s", "hi")},
            ),
        ]
        data = b"".join(e.model_dump_json().encode() + b"\n" for e in events)
        result = cli("process", write(tmp_path, "snake.jsonl", data))
        assert result.code == 1
        assert "the line has `run_id`: AG-UI's wire keys are camelCase" in result.err
        assert "the line has `activity_type`" in result.err
        # with by_alias=True, the same events draw
        good = b"".join(e.model_dump_json(by_alias=True).encode() + b"\n" for e in events)
        assert cli("process", write(tmp_path, "camel.jsonl", good)).code == 0
