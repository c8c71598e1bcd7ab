"""The ``a2ui-stream`` command line: process, replay and inspect, in-process and for real."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cli_crash
import exactly_once
import pytest
import stream_cases as cases
from helpers import CONSOLE_SCRIPT, Result

from a2ui_stream import FileLog, MemoryLog, Processor
from a2ui_stream._shell.cli import _Progress
from a2ui_stream._tree.patch import apply_patch

if TYPE_CHECKING:
    from collections.abc import Callable

DIFF_KEYS = ["seq", "runId", "messageId", "surfaceId", "op", "toolCallId", "toolName"]
RUN_KEYS = ["runId", "threadId", "parts"]
PART_KEYS = ["toolCallId", "toolName", "surfaceId", "args"]
ORDER_CARD_JSON = (
    b'{"$type":"Card","title":"Order","children":[{"$type":"Markdown","value":"$42"}]}'
)


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Callable[[bytes], None]:
    """Replace standard input with the given bytes."""

    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    return feed


def processor_json(data: bytes) -> list[dict[str, Any]]:
    """Return the diff lines ``process`` prints for ``data``, decoded."""
    completed = subprocess.run(
        [sys.executable, "-m", "a2ui_stream", "process", "-"],
        input=data,
        capture_output=True,
        check=True,
        timeout=60,
    )
    return [json.loads(line) for line in completed.stdout.splitlines()]


def processor_diffs(data: bytes) -> list[tuple[int, str, str]]:
    processor = Processor()
    diffs = processor.feed(data) + processor.close()
    return [(d.seq, d.op, d.surface_id) for d in diffs]


class TestProcess:
    def test_bundled_recording(self, cli: Callable[..., Result]) -> None:
        """The bundled recording gives one line per diff, as the processor decides them."""
        result = cli("process", cases.RECORDING_PATH)
        assert result.code == 0
        assert [(d["seq"], d["op"], d["surfaceId"]) for d in result.lines] == processor_diffs(
            cases.RECORDING
        )
        first = result.lines[0]
        assert (first["runId"], first["toolCallId"], first["args"]) == (
            "run-1",
            "a2ui:s1",
            cases.ORDER_CARD,
        )
        assert {d["runId"] for d in result.lines} == {"run-1", "run-2"}

    def test_output_keys_in_documented_order(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """Each line has the documented keys in order; args is absent on remove."""
        result = cli("process", write("in.jsonl", cases.LIFECYCLE))
        assert result.code == 0
        for diff in result.lines:
            expected = DIFF_KEYS if diff["op"] == "remove" else [*DIFF_KEYS, "args"]
            assert list(diff) == expected
            assert diff["toolCallId"] == "a2ui:" + diff["surfaceId"]
            assert diff["toolName"] == "present"
        assert [d["op"] for d in result.lines] == [
            "add",
            "add",
            "update",
            "add",
            "update",
            "remove",
        ]
        assert result.lines[0]["runId"] is None

    def test_one_compact_line_per_diff(self, cli: Callable[..., Result]) -> None:
        """Output is compact JSON, one object per line, ending in a newline."""
        result = cli("process", cases.RECORDING_PATH)
        assert result.out.endswith(b"\n")
        assert b", " not in result.out
        assert b'": ' not in result.out

    def test_patch_diffs(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--diffs patch writes updates as RFC 6902 patches that rebuild the full args."""
        path = write("in.jsonl", cases.RECORDING * 2)
        full = cli("process", path).lines
        patched = cli("process", "--diffs", "patch", path).lines
        assert len(full) == len(patched)
        current: dict[str, Any] = {}
        updates = 0
        for whole, diff in zip(full, patched, strict=True):
            if diff["op"] == "update":
                updates += 1
                assert list(diff) == [*DIFF_KEYS, "patch"]
                current[diff["surfaceId"]] = apply_patch(current[diff["surfaceId"]], diff["patch"])
            else:
                assert diff == whole
                if diff["op"] == "add":
                    current[diff["surfaceId"]] = diff["args"]
            if diff["op"] != "remove":
                assert current[diff["surfaceId"]] == whole["args"]
        assert updates >= 4

    def test_final_writes_one_line_per_run(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--final writes each run's final parts in order; events before any run have null ids."""
        result = cli("process", "--final", write("in.jsonl", cases.LIFECYCLE))
        assert result.code == 0
        anonymous, r1 = result.lines
        assert list(anonymous) == RUN_KEYS
        assert (anonymous["runId"], anonymous["threadId"]) == (None, None)
        assert [p["surfaceId"] for p in anonymous["parts"]] == ["pre"]
        assert (r1["runId"], r1["threadId"]) == ("r1", "t1")
        [part] = r1["parts"]
        assert list(part) == PART_KEYS
        assert part == {
            "toolCallId": "a2ui:b",
            "toolName": "present",
            "surfaceId": "b",
            "args": {"$type": "Markdown", "value": "bee"},
        }

    def test_final_on_the_recording(self, cli: Callable[..., Result]) -> None:
        """The recording's two runs end with their parts in part order."""
        result = cli("process", "--final", cases.RECORDING_PATH)
        assert [(r["runId"], [p["toolCallId"] for p in r["parts"]]) for r in result.lines] == [
            ("run-1", ["a2ui:s1", "a2ui:flights"]),
            ("run-2", ["a2ui:booking"]),
        ]
        assert result.lines[0]["parts"][0]["args"] == cases.ORDER_CARD

    def test_wire_contract_example(
        self, cli: Callable[..., Result], stdin: Callable[[bytes], None]
    ) -> None:
        """The seed's example through process --final gives the Order card as a2ui:s1."""
        stdin(cases.compact(cases.WIRE_CONTRACT_EXAMPLE) + b"\n")
        result = cli("process", "--final", "-")
        assert result.code == 0
        assert result.out == (
            b'{"runId":null,"threadId":null,"parts":[{"toolCallId":"a2ui:s1",'
            b'"toolName":"present","surfaceId":"s1","args":' + ORDER_CARD_JSON + b"}]}\n"
        )

    def test_wire_contract_example_as_written_over_sse(
        self, cli: Callable[..., Result], stdin: Callable[[bytes], None]
    ) -> None:
        """The example, pretty-printed as in the seed, is one SSE event over many data lines."""
        lines = cases.WIRE_CONTRACT_EXAMPLE.splitlines()
        stdin(b"".join(b"data: " + record + b"\n" for record in lines) + b"\n")
        result = cli("process", "--final")
        assert result.code == 0
        assert [p["args"] for p in result.lines[0]["parts"]] == [cases.ORDER_CARD]

    def test_stdin_dash_and_default(
        self, cli: Callable[..., Result], stdin: Callable[[bytes], None]
    ) -> None:
        """Input - reads standard input, and so does no input at all."""
        expected = cli("process", cases.RECORDING_PATH).out
        stdin(cases.RECORDING)
        assert cli("process", "-").out == expected
        stdin(cases.RECORDING)
        assert cli("process").out == expected

    def test_sse_input_is_detected(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """The same events as SSE give byte-identical output, detected or declared."""
        expected = cli("process", cases.RECORDING_PATH).out
        sse = write("in.sse", cases.to_sse(cases.RECORDING))
        assert cli("process", sse).out == expected
        assert cli("process", "--format", "sse", sse).out == expected

    def test_format_jsonl_refuses_sse(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--format jsonl on SSE input finds no events, reports the lines and exits 1."""
        result = cli("process", "--format", "jsonl", write("in.sse", cases.to_sse(cases.LIFECYCLE)))
        assert result.code == 1
        assert result.out == b""
        assert "json.invalid" in result.err

    def test_format_sse_ignores_jsonl(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--format sse on JSONL input finds no data fields: no diffs, each line reported."""
        result = cli("process", "--format", "sse", write("in.jsonl", cases.LIFECYCLE))
        assert result.code == 1
        assert result.out == b""
        assert "sse.json_line" in result.err


class TestBadInput:
    DATA = b"".join(cases.line(e) for e in cases.LIFECYCLE_EVENTS[:3]) + b"not json\n"
    DATA += b"".join(cases.line(e) for e in cases.LIFECYCLE_EVENTS[3:])

    def test_lenient_reports_and_goes_on(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """Without --strict a bad line is logged to stderr and skipped; the exit code is 1."""
        result = cli("process", write("in.jsonl", self.DATA))
        assert result.code == 1
        assert [(d["seq"], d["op"]) for d in result.lines] == [
            (seq, op) for seq, op, _ in processor_diffs(cases.LIFECYCLE)
        ]
        [record] = [r for r in result.err.splitlines() if "code=json.invalid" in r]
        assert "error" in record
        assert "line=4" in record
        events = len(cases.LIFECYCLE_EVENTS)
        assert result.err.splitlines()[-1].endswith(
            f"{events} events read, 1 rejected; 1 diagnostic: json.invalid (error) x1"
        )

    def test_strict_stops_with_exit_1(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--strict stops at the first bad line, keeps the diffs before it, exits 1."""
        result = cli("process", "--strict", write("in.jsonl", self.DATA))
        assert result.code == 1
        assert [(d["seq"], d["surfaceId"]) for d in result.lines] == [(0, "pre"), (2, "a")]
        assert "json.invalid" in result.err

    def test_strict_final_stops_too(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--strict --final writes the runs as they were at the bad line, exit 1."""
        result = cli("process", "--strict", "--final", write("in.jsonl", self.DATA))
        assert result.code == 1
        assert [[p["surfaceId"] for p in r["parts"]] for r in result.lines] == [["pre"], ["a"]]

    def test_strict_clean_input_exits_0(self, cli: Callable[..., Result]) -> None:
        """--strict on clean input behaves like the default."""
        assert cli("process", "--strict", cases.RECORDING_PATH).code == 0

    def test_json_log_format(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """--log-format json writes one JSON object per diagnostic on stderr."""
        result = cli("--log-format", "json", "process", write("in.jsonl", self.DATA))
        records = [json.loads(r) for r in result.err.splitlines()]
        assert [(r["level"], r.get("code"), r.get("line")) for r in records] == [
            ("error", "json.invalid", 4),
            ("info", None, None),
        ]
        assert records[0]["event"].startswith("line is not valid JSON")
        assert records[0]["raw"] == "not json"
        assert records[1]["event"] == "summary"
        assert records[1]["diagnostics"] == {"json.invalid (error)": 1}

    def test_warnings_from_the_reducer_are_logged(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """A warning found while reducing reaches stderr with the event's location."""
        delta = {
            "type": "ACTIVITY_DELTA",
            "messageId": "nobody",
            "activityType": "a2ui-surface",
            "patch": [],
        }
        path = write("in.jsonl", cases.LIFECYCLE + cases.line(delta))
        result = cli("--log-format", "json", "process", path)
        assert result.code == 0
        [record, summary] = [json.loads(r) for r in result.err.splitlines()]
        assert summary["event"] == "summary"
        assert (record["level"], record["code"], record["seq"], record["line"]) == (
            "warning",
            "activity.delta_unknown",
            len(cases.LIFECYCLE_EVENTS),
            len(cases.LIFECYCLE_EVENTS) + 1,
        )

    def test_no_progress_bar_off_a_terminal(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """Stderr that is not a terminal never gets a progress line."""
        result = cli("process", write("in.jsonl", cases.RECORDING * 50))
        assert "\r" not in result.err
        assert "events/s" not in result.err


class TestUsage:
    @pytest.mark.parametrize(
        "argv",
        [
            [],
            ["bogus"],
            ["process", "--diffs", "whole"],
            ["process", "--format", "xml"],
            ["process", "--fsync", "sometimes"],
            ["process", "--no-such-option"],
            ["replay"],
            ["inspect"],
            ["--log-format", "yaml", "process"],
        ],
    )
    def test_usage_errors_exit_2(self, cli: Callable[..., Result], argv: list[str]) -> None:
        """Bad arguments exit 2 with a usage message and no output."""
        result = cli(*argv)
        assert result.code == 2
        assert result.out == b""
        assert "usage:" in result.err

    def test_help_exits_0(self, cli: Callable[..., Result]) -> None:
        """--help prints usage and exits 0."""
        result = cli("process", "--help")
        assert result.code == 0
        assert b"--final" in result.out

    @pytest.mark.parametrize("command", ["process", "replay", "inspect"])
    def test_missing_file_exits_2(
        self, cli: Callable[..., Result], tmp_path: Path, command: str
    ) -> None:
        """A missing input or log exits 2, naming the file, without a traceback."""
        missing = tmp_path / "absent.jsonl"
        result = cli(command, missing)
        assert result.code == 2
        assert result.out == b""
        assert str(missing) in result.err
        assert "Traceback" not in result.err

    def test_directory_exits_2(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A directory given as input is a usage error too."""
        assert cli("process", tmp_path).code == 2

    def test_locked_log_exits_2(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A log held by another writer is refused with exit 2 and a clear message."""
        path = tmp_path / "events.log"
        with FileLog.open(path):
            result = cli("process", "--log", path, cases.RECORDING_PATH)
        assert result.code == 2
        assert "locked" in result.err
        assert "Traceback" not in result.err


class TestLogAndReplay:
    @pytest.mark.parametrize(
        "options",
        [[], ["--final"], ["--diffs", "patch"]],
        ids=["diffs", "final", "patch"],
    )
    @pytest.mark.parametrize("fsync", ["always", "batch", "never"])
    def test_replay_is_byte_identical(
        self,
        cli: Callable[..., Result],
        tmp_path: Path,
        write: Callable[[str, bytes], Path],
        options: list[str],
        fsync: str,
    ) -> None:
        """process --log then replay LOG writes exactly the same bytes."""
        data = b"junk\n" + cases.RECORDING + cases.LIFECYCLE
        log = tmp_path / "events.log"
        direct = cli("process", "--log", log, "--fsync", fsync, *options, write("in", data))
        assert direct.code == 1  # the junk line
        assert direct.out
        replayed = cli("replay", log, *options)
        assert replayed.code == 0
        assert replayed.out == direct.out

    def test_log_is_a_recording(
        self, cli: Callable[..., Result], tmp_path: Path, write: Callable[[str, bytes], Path]
    ) -> None:
        """The log is itself AG-UI JSONL: processing it gives the same output."""
        log = tmp_path / "events.log"
        direct = cli("process", "--log", log, write("in.sse", cases.to_sse(cases.RECORDING)))
        assert len(log.read_bytes().splitlines()) == len(cases.RECORDING.splitlines())
        assert cli("process", log).out == direct.out

    def test_replay_from(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """replay --from SEQ writes only the diffs of events from SEQ on."""
        log = tmp_path / "events.log"
        direct = cli("process", "--log", log, cases.RECORDING_PATH).lines
        tail = cli("replay", "--from", "11", log).lines
        assert tail == [d for d in direct if d["seq"] >= 11]
        assert tail

    def test_torn_log_is_recovered_with_a_warning(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A log ending in a fragment replays its complete events and warns on stderr."""
        log = tmp_path / "events.log"
        direct = cli("process", "--log", log, cases.RECORDING_PATH)
        with log.open("ab") as file:
            file.write(b'{"type":"RUN_STA')
        replayed = cli("replay", log)
        assert replayed.out == direct.out
        assert "log.torn_tail" in replayed.err
        # A writer truncates the fragment (with the same warning) and appends after it.
        again = cli("process", "--log", log, cases.RECORDING_PATH)
        assert "log.torn_tail" in again.err
        assert log.read_bytes().count(b"\n") == 2 * len(cases.RECORDING.splitlines())
        assert b"RUN_STA\n" not in log.read_bytes()


class TestInspect:
    def test_summary_of_the_recording(self, cli: Callable[..., Result]) -> None:
        """Inspect lists event types, runs, surfaces, diagnostics and throughput."""
        result = cli("inspect", cases.RECORDING_PATH)
        assert result.code == 0
        text = result.out.decode()
        assert text.startswith(f"events: 22 in {len(cases.RECORDING):,} bytes\n")
        counts = {
            parts[0]: int(parts[1])
            for parts in (row.split() for row in text.splitlines())
            if len(parts) == 2 and parts[0].isupper()
        }
        assert counts["ACTIVITY_SNAPSHOT"] == 8
        assert counts["ACTIVITY_DELTA"] == 1
        assert counts["RUN_STARTED"] == 2
        assert sum(counts.values()) == 22
        assert "runs: 2" in text
        assert "run run-1 thread thread-1: finished, 2 parts" in text
        assert "surface s1: 2 components, rendered" in text
        assert "surface flights: 8 components, rendered" in text
        assert "surface booking: 5 components, rendered" in text
        assert "message a2ui-surface-tc2: painted" in text
        assert "diagnostics: " in text
        assert "throughput:" in text
        assert "events/s" in text

    def test_an_agents_ids_are_shown_escaped(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """Ids and event types are an agent's text: no control reaches the terminal raw,
        and none starts a line of its own."""
        hostile = "x\x1b[2J\x1b]0;owned\x07\nfake line\u202e"
        snapshot = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": f"m{hostile}",
            "activityType": "a2ui-surface",
            "content": {
                "a2ui_operations": [
                    {
                        "surfaceUpdate": {
                            "surfaceId": f"s{hostile}",
                            "components": [
                                {
                                    "id": "root",
                                    "component": {"Text": {"text": {"literalString": "hi"}}},
                                }
                            ],
                        }
                    },
                    {"beginRendering": {"surfaceId": f"s{hostile}", "root": "root"}},
                ]
            },
        }
        events = [
            {"type": "RUN_STARTED", "threadId": f"t{hostile}", "runId": f"r{hostile}"},
            snapshot,
            {"type": f"CUSTOM_{hostile}"},
        ]
        result = cli("inspect", write("in.jsonl", b"".join(map(cases.line, events))))
        text = result.out.decode()
        assert not any(char in text for char in "\x1b\x07\u202e")
        shown = r"x\x1b[2J\x1b]0;owned\x07\x0afake line\u202e"
        assert f"  run r{shown} thread t{shown}: running, 1 part\n" in text
        assert f"    surface s{shown}: 1 component, rendered\n" in text
        assert f"  CUSTOM_{shown} " in text
        assert not any(line.startswith("fake line") for line in text.splitlines())

    def test_removed_surfaces_and_bad_lines(
        self, cli: Callable[..., Result], write: Callable[[str, bytes], Path]
    ) -> None:
        """A deleted surface shows as not rendered; bad lines are counted by code."""
        text = cli("inspect", write("in.jsonl", b"oops\n" + cases.LIFECYCLE)).out.decode()
        assert "run (none) thread (none): running, 1 part" in text
        assert "surface a: 1 component, not rendered" in text
        assert "surface b: 1 component, rendered" in text
        assert "diagnostics: 1" in text
        assert "json.invalid" in text

    def test_sse_and_stdin(
        self,
        cli: Callable[..., Result],
        stdin: Callable[[bytes], None],
        write: Callable[[str, bytes], Path],
    ) -> None:
        """Inspect reads SSE and standard input too, with the same counts."""
        stdin(cases.to_sse(cases.RECORDING))
        text = cli("inspect", "-").out.decode()
        assert "events: 22 in" in text
        assert "runs: 2" in text
        forced = cli("inspect", "--format", "jsonl", write("in.sse", cases.to_sse(cases.RECORDING)))
        assert "events: 0 in" in forced.out.decode()


class TestProgress:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def test_shown_on_a_terminal(self) -> None:
        """On a terminal the progress line shows bytes and events/s, then ends the line."""
        stream = self.Terminal()
        progress = _Progress(stream, enabled=True)
        progress.advance(2_000_000, 1000)
        progress.done()
        text = stream.getvalue()
        assert text.startswith("\r")
        assert "2.0 MB" in text
        assert "1,000 events" in text
        assert "events/s" in text
        assert text.endswith("\n")

    def test_never_off_a_terminal_or_when_disabled(self) -> None:
        """Off a terminal, or with --no-progress, nothing is written."""
        for stream, enabled in ((io.StringIO(), True), (self.Terminal(), False)):
            progress = _Progress(stream, enabled=enabled)
            progress.advance(2_000_000, 1000)
            progress.done()
            assert stream.getvalue() == ""


class TestRealProcess:
    def test_console_script(self) -> None:
        """The installed console script processes the recording like main() does."""
        completed = subprocess.run(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "process", str(cases.RECORDING_PATH)],
            capture_output=True,
            check=False,
        )
        assert completed.returncode == 0
        assert [json.loads(r)["seq"] for r in completed.stdout.splitlines()] == [
            seq for seq, _, _ in processor_diffs(cases.RECORDING)
        ]
        assert b"\r" not in completed.stderr

    def test_module_pipe_final(self) -> None:
        """python -m a2ui_stream process --final on a pipe prints the Order card."""
        completed = subprocess.run(
            [sys.executable, "-m", "a2ui_stream", "process", "--final"],
            input=cases.compact(cases.WIRE_CONTRACT_EXAMPLE) + b"\n",
            capture_output=True,
            check=False,
        )
        assert completed.returncode == 0
        assert completed.stderr == b""
        [run] = [json.loads(r) for r in completed.stdout.splitlines()]
        [part] = run["parts"]
        assert (part["toolCallId"], part["args"]) == ("a2ui:s1", cases.ORDER_CARD)
        assert b'"args":' + ORDER_CARD_JSON in completed.stdout

    def test_collector_tuned(self) -> None:
        """The command's collector tuning freezes what exists and raises the thresholds."""
        code = (
            "import gc\n"
            "from a2ui_stream._shell.cli import tune_collector\n"
            "before = gc.get_threshold()\n"
            "tune_collector()\n"
            "print(before, gc.get_threshold(), gc.get_freeze_count() > 0)\n"
        )
        completed = subprocess.run(  # noqa: S603 - our own interpreter and code
            [sys.executable, "-c", code], capture_output=True, check=True, text=True
        )
        assert completed.stdout.split(")", 1)[1].strip() == "(100000, 50, 100) True"

    def test_a_reader_that_goes_away_keeps_the_exit_code_of_the_errors(
        self, tmp_path: Path
    ) -> None:
        """``process FILE | head -c 1`` with a bad line: exit 1, as to a file; no traceback.

        Found by a probe: the broken pipe always ended the command with 0, though an
        ERROR had already been reported.
        """
        data = b"oops\n" + cases.RECORDING * 400  # far more output than a pipe holds
        path = tmp_path / "in.jsonl"
        path.write_bytes(data)
        command = [sys.executable, "-m", "a2ui_stream", "process", str(path)]
        with subprocess.Popen(  # noqa: S603 - our own command line, no shell
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as child:
            assert child.stdout is not None
            assert child.stderr is not None
            child.stdout.read(1)
            child.stdout.close()  # as head does, having read what it wanted
            stderr = child.stderr.read()
            code = child.wait()
        assert code == 1
        assert b"json.invalid" in stderr
        assert b"Traceback" not in stderr

    def test_strict_exit_code(self) -> None:
        """A real process exits 1 under --strict on bad input."""
        completed = subprocess.run(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "process", "--strict", "-"],
            input=b"oops\n" + cases.RECORDING,
            capture_output=True,
            check=False,
        )
        assert completed.returncode == 1
        assert completed.stdout == b""
        assert b"json.invalid" in completed.stderr


class TestCrash:
    KILLS = 16

    def test_sigkill_keeps_a_whole_prefix_covering_printed_diffs(self, tmp_path: Path) -> None:
        """Killed at random moments, process --fsync always leaves a log that holds a prefix
        of the input, no partial event, and every event whose diffs were printed."""
        lines = cli_crash.stream_lines()
        runs = cli_crash.kill_many(tmp_path, lines, kills=self.KILLS, seed=20261130)
        logged: list[int] = []
        for log, outcome in runs:
            assert outcome.killed, "the input outlasts every kill"
            cli_crash.check(log, lines, outcome)
            with FileLog.open(log, readonly=True) as reopened:
                logged.append(len(reopened))
        # The kills landed at different points of the stream, never after its end.
        assert len(set(logged)) > 1
        assert max(logged) < len(lines)

    def test_stream_is_in_log_encoding(self) -> None:
        """The generated stream is the log's own encoding, so a log is a byte prefix of it."""
        lines = cli_crash.stream_lines()
        processor = Processor(log=(log := MemoryLog()))
        processor.feed(b"".join(line + b"\n" for line in lines[:100]))
        assert [record for _, record in log.read()] == list(lines[:100])
        assert max(len(line) for line in lines) > 20_000


class TestExactlyOnce:
    """``process --log L --from SEQ``: a restarted consumer gets every diff exactly once."""

    def test_from_writes_the_diffs_of_logged_events_again(
        self, cli: Callable[..., Result], tmp_path: Path, write: Callable[[str, bytes], Path]
    ) -> None:
        """The diffs of logged events from SEQ on come first, then the new events'."""
        lines = cases.RECORDING.splitlines(keepends=True)
        half = len(lines) // 2
        log = tmp_path / "events.log"
        whole = cli("process", cases.RECORDING_PATH).lines
        first = cli("process", "--log", log, write("a", b"".join(lines[:half]))).lines
        # The consumer crashed having handled only the diffs before seq 5.
        seen = [d for d in first if d["seq"] < 5]
        assert len(seen) < len(first)
        second = cli("process", "--log", log, "--from", "5", write("b", b"".join(lines[half:])))
        assert second.code == 0
        assert seen + second.lines == whole
        # Without --from the logged events' diffs are not written again: they would be lost.
        assert cli("process", "--log", log, "--from", str(len(lines)), os.devnull).out == b""

    def test_from_past_the_end_of_the_log_is_refused(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A consumer ahead of the log saw events the log lost: exit 2, nothing written."""
        log = tmp_path / "events.log"
        assert cli("process", "--log", log, cases.RECORDING_PATH).code == 0
        before = log.read_bytes()
        count = len(cases.RECORDING.splitlines())
        assert cli("process", "--log", log, "--from", str(count), os.devnull).code == 0
        result = cli("process", "--log", log, "--from", str(count + 1), cases.RECORDING_PATH)
        assert result.code == 2
        assert result.out == b""
        assert f"holds {count} events" in result.err
        assert log.read_bytes() == before
        assert cli("process", "--from", "1", cases.RECORDING_PATH).code == 2
        assert cli("process", "--from", "0", cases.RECORDING_PATH).code == 0

    def test_consumer_recipe(self) -> None:
        """The example consumer drops the lines it counted and lines cut by a crash."""
        consumer = exactly_once.Consumer()
        assert consumer.arguments() == []
        lines = [b'{"seq":3,"a":1}\n', b'{"seq":3,"a":2}\n', b'{"seq":4,"a":3}\n']
        assert consumer.take(lines[0]) == lines[0]
        assert consumer.take(lines[1][:-4]) is None  # torn by the crash
        assert consumer.checkpoint == exactly_once.Checkpoint(3, 1)
        assert consumer.arguments() == ["--from", "3"]
        consumer.restart()
        assert [consumer.take(line) for line in lines] == [None, lines[1], lines[2]]
        assert consumer.checkpoint == exactly_once.Checkpoint(4, 1)

    def test_sigkill_loses_and_repeats_no_diff(self, tmp_path: Path) -> None:
        """Killed at random points and restarted with the README's recipe, the command
        delivers every diff exactly once, and the log is never more than one event ahead.

        ``A2UI_KILLS`` sets the number of kills (a soak: ``tests/cli_crash.py --once``)."""
        kills = int(os.environ.get("A2UI_KILLS", "6"))
        delivery = cli_crash.deliver_in_parallel(
            tmp_path,
            cli_crash.stream_lines(150),
            kills=kills,
            seed=20261201,
            fsyncs=("never", "always"),
        )
        assert delivery.kills == kills
        assert (delivery.lost, delivery.duplicated) == (0, 0), delivery
        assert delivery.max_lag <= 1, delivery


#: Runs the command line with a file size limit: a write past it fails with EFBIG, as
#: on a full disk (SIGXFSZ ignored), set in the child itself rather than by preexec_fn.
LIMITED = """
import resource, runpy, signal, sys
limit = int(sys.argv.pop(1))
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
sys.argv[0] = "a2ui-stream"
runpy.run_module("a2ui_stream", run_name="__main__")
"""


class TestIoErrors:
    """Every I/O error names its file and exits 2; what was logged was printed first."""

    def test_log_on_a_full_disk_is_named_and_its_events_printed(self, tmp_path: Path) -> None:
        """The log's file size limit stands in for a full disk (RLIMIT_FSIZE: EFBIG)."""
        log = tmp_path / "events.log"
        arguments = ["process", "--log", str(log), str(cases.RECORDING_PATH)]
        completed = subprocess.run(  # noqa: S603 - our own command line
            [sys.executable, "-c", LIMITED, "3000", *arguments],
            capture_output=True,
            check=False,
            timeout=60,
        )
        assert completed.returncode == 2
        assert f"path={log}".encode() in completed.stderr
        assert b"File too large" in completed.stderr
        with FileLog.open(log, readonly=True) as reopened:
            logged = len(reopened)
            assert reopened.recovered is None  # the half-written record was cut off
        assert 0 < logged < len(cases.RECORDING.splitlines())
        printed = [json.loads(line) for line in completed.stdout.splitlines()]
        whole = [d for d in processor_json(cases.RECORDING) if d["seq"] < logged]
        # Every logged event's diffs were printed before the next event was logged.
        assert printed == whole
        assert printed

    @pytest.mark.parametrize(
        "argv",
        [
            ["process", "/proc/self/mem"],
            ["inspect", "/proc/self/mem"],
            ["inspect", "--tree", "/proc/self/mem"],
            ["render", "/proc/self/mem"],
            ["envelope", "/proc/self/mem"],
        ],
        ids=" ".join,
    )
    def test_a_read_error_names_the_input(self, argv: list[str]) -> None:
        """A read that fails (``/proc/self/mem`` gives EIO) names the file, in every command.

        Found by a probe: only ``process`` did; the others said ``[Errno 5]``.
        """
        if not Path("/proc/self/mem").exists():
            pytest.skip("no /proc/self/mem on this system to fail a read")
        completed = subprocess.run(  # noqa: S603 - our own command line
            [str(CONSOLE_SCRIPT), *argv], capture_output=True, check=False, timeout=60
        )
        assert completed.returncode == 2
        assert b"path=/proc/self/mem" in completed.stderr
        assert b"Traceback" not in completed.stderr

    def test_render_names_the_output_not_its_temporary(self, tmp_path: Path) -> None:
        """``-o`` into a missing folder names the path given, not a made-up temporary."""
        out = tmp_path / "no-such-dir" / "out.html"
        completed = subprocess.run(  # noqa: S603 - our own command line
            [str(CONSOLE_SCRIPT), "render", str(cases.RECORDING_PATH), "-o", str(out)],
            capture_output=True,
            check=False,
            timeout=60,
        )
        assert completed.returncode == 2
        assert f"path={out} ".encode() in completed.stderr

    @pytest.mark.parametrize(
        ("closing", "argv", "named"),
        [
            ("<&-", ["process", "-"], "<stdin>"),
            ("<&-", ["inspect", "-"], "<stdin>"),
            ("<&-", ["render", "-"], "<stdin>"),
            (">&-", ["process", str(cases.RECORDING_PATH)], "<stdout>"),
            (">&-", ["inspect", str(cases.RECORDING_PATH)], "<stdout>"),
            (">&-", ["inspect", "--tree", str(cases.RECORDING_PATH)], "<stdout>"),
            (">&-", ["--version"], "<stdout>"),
        ],
    )
    def test_a_closed_standard_stream_is_named(
        self, closing: str, argv: list[str], named: str
    ) -> None:
        """A stream the shell closed is refused like a file that cannot be used."""
        completed = subprocess.run(  # noqa: S603 - bash runs our own console script
            ["bash", "-c", f'exec "$@" {closing}', "-", str(CONSOLE_SCRIPT), *argv],  # noqa: S607
            capture_output=closing == "<&-",
            stderr=subprocess.PIPE if closing == ">&-" else None,
            check=False,
            timeout=60,
        )
        assert completed.returncode == 2
        assert named.encode() in completed.stderr
        assert b"Traceback" not in completed.stderr

    def test_a_closed_stream_is_refused_before_the_log_is_written(self, tmp_path: Path) -> None:
        log = tmp_path / "events.log"
        argv = ["process", "--log", str(log), str(cases.RECORDING_PATH)]
        completed = subprocess.run(  # noqa: S603 - bash runs our own console script
            ["bash", "-c", 'exec "$@" >&-', "-", str(CONSOLE_SCRIPT), *argv],  # noqa: S607
            stderr=subprocess.PIPE,
            check=False,
            timeout=60,
        )
        assert (completed.returncode, b"<stdout>" in completed.stderr) == (2, True)
        assert not log.exists()

    def test_a_closed_error_stream_leaves_the_run_as_it_is(self) -> None:
        """With stderr closed nothing can be said, but the output and exit code stand."""
        expected = processor_json(cases.RECORDING)  # a line that is no event drops only itself
        for data, code in ((cases.RECORDING, 0), (b"oops\n" + cases.RECORDING, 1)):
            completed = subprocess.run(  # noqa: S603 - bash runs our own console script
                ["bash", "-c", 'exec "$@" 2>&-', "-", str(CONSOLE_SCRIPT), "process"],  # noqa: S607
                input=data,
                stdout=subprocess.PIPE,
                check=False,
                timeout=60,
            )
            assert completed.returncode == code
            printed = [json.loads(line) for line in completed.stdout.splitlines()]
            assert printed == expected

    @pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
    @pytest.mark.parametrize(
        ("argv", "named"),
        [
            (["inspect", str(cases.RECORDING_PATH)], "<stdout>"),
            (["inspect", "--tree", str(cases.RECORDING_PATH)], "<stdout>"),
            (["render", str(cases.RECORDING_PATH)], "<stdout>"),
            (["render", str(cases.RECORDING_PATH), "-o", "/dev/full"], "/dev/full"),
            (["process", "--final", str(cases.RECORDING_PATH)], "<stdout>"),
        ],
    )
    def test_a_full_disk_is_named(self, argv: list[str], named: str) -> None:
        with open("/dev/full", "wb") as full:  # noqa: PTH123 - a device, not a path to build
            completed = subprocess.run(  # noqa: S603 - our own console script
                [str(CONSOLE_SCRIPT), *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                check=False,
                timeout=60,
            )
        assert completed.returncode == 2
        assert f"path={named} reason='No space left on device'".encode() in completed.stderr

    @pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
    def test_version_on_a_full_disk_names_stdout(self) -> None:
        """Found by a probe: ``--version > /dev/full`` said ``cannot use None``."""
        with open("/dev/full", "wb") as full:  # noqa: PTH123 - a device, not a path to build
            completed = subprocess.run(  # noqa: S603 - our own console script
                [str(CONSOLE_SCRIPT), "--version"],
                stdout=full,
                stderr=subprocess.PIPE,
                check=False,
                timeout=60,
            )
        assert completed.returncode == 2
        assert completed.stderr == b"a2ui-stream: cannot use <stdout>: No space left on device\n"
