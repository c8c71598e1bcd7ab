"""Issue 17: the edges a new user meets first: exit codes, stderr, options, Ctrl-C.

Every command reports the same way (:mod:`a2ui_stream._shell.report`): an ERROR
diagnostic makes the exit code 1, a summary line ends any run that had something to
report, repeated diagnostics are counted rather than printed, and the options every
command shares (``--log-format``, ``-v``, the limits) are accepted after the command too.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import io
import json
import os
import re
import signal
import subprocess
import time
from typing import TYPE_CHECKING, Any

import pytest
import stream_cases as cases
from helpers import BAD_LINE, CONSOLE_SCRIPT, WITH_BAD_LINE, Result, many_cards, write

import a2ui_stream
from a2ui_stream import testing
from a2ui_stream._shell.cli import _Progress

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

SUBPROCESS_TIMEOUT = 60


class TestExitCodes:
    """Exit 1 whenever an ERROR diagnostic occurred, whatever the command."""

    def test_process(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        assert cli("process", cases.RECORDING_PATH).code == 0
        result = cli("process", write(tmp_path, "in.jsonl", WITH_BAD_LINE))
        assert result.code == 1
        assert result.out == cli("process", cases.RECORDING_PATH).out  # everything else kept

    def test_every_line_rejected(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli("process", write(tmp_path, "in.jsonl", BAD_LINE * 3))
        assert (result.code, result.out) == (1, b"")
        assert result.err_lines[-1].endswith(
            "0 events read, 3 rejected; 3 diagnostics: json.invalid (error) x3"
        )

    @pytest.mark.parametrize("command", [["inspect"], ["inspect", "--tree"]])
    def test_inspect(self, cli: Callable[..., Result], tmp_path: Path, command: list[str]) -> None:
        assert cli(*command, cases.RECORDING_PATH).code == 0
        result = cli(*command, write(tmp_path, "in.jsonl", WITH_BAD_LINE))
        assert result.code == 1
        assert result.out  # the summary or the trees are printed all the same

    def test_render(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        pytest.importorskip("markdown_it", reason="render needs the html extra")
        assert cli("render", cases.RECORDING_PATH).code == 0
        result = cli("render", write(tmp_path, "in.jsonl", WITH_BAD_LINE))
        assert result.code == 1
        assert result.out.startswith(b"<!DOCTYPE html>")

    def test_replay(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        log = tmp_path / "run.log.jsonl"
        assert cli("process", "--log", log, cases.RECORDING_PATH).code == 0
        assert cli("replay", log).code == 0
        with log.open("ab") as file:  # a line a log never holds: written by hand
            file.write(b'{"type":"RUN_STARTED"}\n')
        result = cli("replay", log)
        assert result.code == 1
        assert "log.bad_event" in result.err
        assert "1 rejected" in result.err_lines[-1]

    def test_warnings_alone_exit_0(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli("process", write(tmp_path, "in.jsonl", many_cards(2)))
        assert result.code == 0
        assert "convert.prop_invalid" in result.err


class TestOptions:
    def test_replay_names_the_path(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        os.chdir(tmp_path)
        for path in (".", str(tmp_path / "missing.jsonl")):
            result = cli("replay", path)
            assert result.code == 2
            assert path in result.err

    def test_help_documents_verbose_and_progress(self, cli: Callable[..., Result]) -> None:
        assert "debug diagnostics" in cli("process", "--help").out.decode()
        assert "progress line" in cli("process", "--help").out.decode()
        assert "Exit codes" in cli("--help").out.decode()


class TestPlurals:
    def test_inspect_counts(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        data = cases.line(cases.snapshot("m", cases.text_surface("s", "hi")))
        text = cli("inspect", write(tmp_path, "one.jsonl", data)).out.decode()
        assert "running, 1 part\n" in text
        assert "surface s: 1 component, rendered" in text
        assert "1 parts" not in text
        assert "1 components" not in text


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class TestProgress:
    def test_percentage_when_the_size_is_known(self) -> None:
        stream = _Terminal()
        progress = _Progress(stream, enabled=True, total=1000)
        progress.advance(250, 10)
        assert stream.getvalue().startswith("\r 25% ")

    def test_no_percentage_for_a_pipe(self) -> None:
        stream = _Terminal()
        _Progress(stream, enabled=True, total=None).advance(250, 10)
        assert "%" not in stream.getvalue()


class TestInterrupt:
    def test_ctrl_c_exits_130_quietly_with_the_log_whole(self, tmp_path: Path) -> None:
        """SIGINT while reading a pipe: exit 130, no traceback, a log of whole events."""
        log = tmp_path / "run.log.jsonl"
        command = subprocess.Popen(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "process", "--log", str(log), "-"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert command.stdin is not None
        assert command.stdout is not None
        lines = cases.RECORDING.splitlines(keepends=True)
        command.stdin.write(b"".join(lines[:8]))
        command.stdin.flush()
        first = command.stdout.readline()  # the first diff: events are being processed
        assert json.loads(first)["seq"] == 5
        deadline = time.monotonic() + SUBPROCESS_TIMEOUT
        while len(log.read_bytes().splitlines()) < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        command.send_signal(signal.SIGINT)
        _, err = command.communicate(timeout=SUBPROCESS_TIMEOUT)
        assert command.returncode == 130
        assert b"Traceback" not in err
        assert err == b""
        held = log.read_bytes().splitlines(keepends=True)
        assert len(held) == 8
        assert all(line.endswith(b"}\n") for line in held)
        replayed = subprocess.run(  # noqa: S603 - our own console script
            [str(CONSOLE_SCRIPT), "replay", str(log)],
            capture_output=True,
            timeout=SUBPROCESS_TIMEOUT,
            check=True,
        )
        assert replayed.stdout.startswith(first)
        assert replayed.stderr == b""


class TestArgumentTypes:
    """Wrong argument types are refused with a TypeError naming what was expected."""

    @pytest.mark.parametrize("wrong", [None, {"type": "RUN_STARTED"}, "RUN_STARTED", 5])
    def test_encode_event_takes_an_event(self, wrong: Any) -> None:
        """Found by a sweep of the public callables: ``None`` raised AttributeError."""
        with pytest.raises(TypeError, match="encode_event takes an event Struct"):
            a2ui_stream.encode_event(wrong)

    @pytest.mark.parametrize("wrong", [None, "v0.9", {"catalogId": "c"}])
    def test_a_request_takes_a_catalog(self, wrong: Any) -> None:
        """``A2uiRequest`` and ``catalog_context`` name the Catalog they need."""
        with pytest.raises(TypeError, match="catalog must be a Catalog"):
            a2ui_stream.A2uiRequest(wrong)
        with pytest.raises(TypeError, match="catalog must be a Catalog"):
            a2ui_stream.catalog_context(wrong)

    def test_every_public_callable_has_a_signature(self) -> None:
        """``help()`` and IDEs read it: a Struct annotated with a name only type checkers
        import could not give one (``RunState`` named ``Diagnostic``)."""
        for name in a2ui_stream.__all__:
            value = getattr(a2ui_stream, name)
            if callable(value) and not (
                isinstance(value, type) and issubclass(value, BaseException)
            ):
                inspect.signature(value)

    def test_feed_text(self) -> None:
        with pytest.raises(TypeError, match=r"feed\(\) takes bytes .* not str: feed\(text\.encode"):
            a2ui_stream.Processor().feed(cases.RECORDING.decode())  # type: ignore[arg-type]

    @pytest.mark.parametrize("chunk", [bytearray(b"{}\n"), memoryview(b"{}\n")])
    def test_feed_takes_any_bytes(self, chunk: bytes) -> None:
        assert a2ui_stream.Processor().feed(chunk) == []

    @pytest.mark.parametrize("wrap", [bytearray, memoryview], ids=["bytearray", "memoryview"])
    @pytest.mark.parametrize("ending", [b"\n", b"\r", b"\r\n"], ids=["lf", "cr", "crlf"])
    def test_feed_any_bytes_cut_anywhere(
        self, wrap: Callable[[bytes], bytes], ending: bytes
    ) -> None:
        # Found by an input probe: a memoryview after a partial line raised
        # AttributeError (no .find), and a CR in one was never seen as a line end.
        data = cases.RECORDING.replace(b"\n", ending)
        want = testing.process(data)
        for cut in (1, 7, 4096):
            processor = a2ui_stream.Processor()
            diffs = [
                d for i in range(0, len(data), cut) for d in processor.feed(wrap(data[i : i + cut]))
            ]
            diffs += processor.close()
            assert tuple(diffs) == want.diffs, cut
            assert tuple(processor.take_diagnostics()) == want.diagnostics, cut

    @pytest.mark.parametrize(
        ("options", "error", "match"),
        [
            ({"limits": "x"}, TypeError, "limits must be a Limits or None, not str"),
            ({"keep_runs": "3"}, a2ui_stream.UsageError, "keep_runs must be None or a whole"),
            ({"keep_runs": 0.5}, a2ui_stream.UsageError, "not 0.5"),
            ({"keep_runs": -1}, a2ui_stream.UsageError, "not -1"),
            ({"keep_runs": True}, a2ui_stream.UsageError, "not True"),
            ({"render_tools": "render_a2ui"}, TypeError, "an iterable of tool names.* not str"),
            ({"render_tools": 5}, TypeError, "an iterable of tool names.* not int"),
            ({"render_tools": ["a", 5]}, TypeError, "tool names .strings., not int 5"),
            ({"render_tools": [["a"]]}, TypeError, r"not list \['a'\]"),
            ({"wrapper_tools": "make_ui"}, TypeError, "wrapper_tools must be an iterable"),
            ({"wrapper_tools": [None]}, TypeError, "wrapper_tools must hold .* not NoneType"),
            ({"catalog_id": 5}, TypeError, "catalog_id must be a string or None, not int"),
        ],
    )
    @pytest.mark.parametrize("made", ["Processor", "Reducer"])
    def test_options_are_checked_at_once(
        self, made: str, options: dict[str, Any], error: type[Exception], match: str
    ) -> None:
        # Found by an input probe: these were accepted, then log=5 made feed() raise
        # AttributeError, keep_runs="3" dropped every RUN_STARTED as an internal error,
        # and render_tools="my_tool" drew from tools named by its letters.
        with pytest.raises(error, match=match):
            getattr(a2ui_stream, made)(**options)

    def test_a_log_of_the_wrong_kind_is_refused_at_once(self) -> None:
        with pytest.raises(TypeError, match=r"log must be an EventLog .* not int"):
            a2ui_stream.Processor(log=5)  # type: ignore[arg-type]

    def test_good_options_are_kept(self) -> None:
        reducer = a2ui_stream.Reducer(render_tools=["draw", "draw"], catalog_id="c", keep_runs=0)
        assert reducer.tools.render_tools == frozenset({"draw"})
        assert reducer.tools.catalog_id == "c"
        assert reducer.tools.wrapper_tools == frozenset({"generate_a2ui"})
        assert a2ui_stream.Reducer(wrapper_tools=()).tools.wrapper_tools == frozenset()
        assert a2ui_stream.Processor(render_tools=iter(["draw"])).limits == a2ui_stream.Limits()

    def test_feed_other(self) -> None:
        with pytest.raises(TypeError, match="not int"):
            a2ui_stream.Processor().feed(5)  # type: ignore[arg-type]

    def test_a_state_of_the_wrong_kind_is_refused_at_once(self) -> None:
        # Found by a probe: Processor(state=5) was accepted and feed() raised
        # AttributeError at the first drawing event; state={} started afresh silently.
        state: object
        for state in (5, {}):
            with pytest.raises(
                TypeError, match=f"state must be a StreamState or None, not {type(state).__name__}"
            ):
                a2ui_stream.Processor(state=state)  # type: ignore[arg-type]

    def test_reduce_refuses_what_is_not_a_decoded_event(self) -> None:
        # A dict event did nothing, silently (a mapping is for Processor.feed_events),
        # and a state of None raised AttributeError.
        reducer, event = (
            a2ui_stream.Reducer(),
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        )
        with pytest.raises(TypeError, match=r"not dict; Processor\.feed_events reads mappings"):
            reducer.reduce(a2ui_stream.StreamState(), event)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="not dict"):
            reducer.reduce_all([event])  # type: ignore[list-item]
        decoded = a2ui_stream.decode_event(json.dumps(event).encode())
        with pytest.raises(TypeError, match="state must be a StreamState, not NoneType"):
            reducer.reduce(None, decoded)  # type: ignore[arg-type]
        assert reducer.reduce(a2ui_stream.StreamState(), decoded).state.seq == 1

    def test_replay_checks_its_arguments_at_the_call(self) -> None:
        with pytest.raises(
            TypeError, match=r"not str; open a file with FileLog.open\(path, readonly=True\)"
        ):
            a2ui_stream.replay("events.jsonl")  # type: ignore[arg-type]
        log = a2ui_stream.MemoryLog()
        with pytest.raises(TypeError, match="reducer must be a Reducer or None, not int"):
            a2ui_stream.replay(log, reducer=5)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="state must be a StreamState or None, not dict"):
            a2ui_stream.replay(log, state={})  # type: ignore[arg-type]
        with pytest.raises(a2ui_stream.UsageError, match="not -1"):
            a2ui_stream.replay(log, start=-1)
        assert list(a2ui_stream.replay(log)) == []

    def test_history_items_that_are_no_messages_are_skipped_with_an_error(self) -> None:
        # Stored history read back wrong: rehydrate raised AttributeError on a number.
        activity = {
            "role": "activity",
            "id": "act",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": cases.text_surface("s", "hello")},
        }
        history = [5, {"role": "assistant", "id": "a"}, None, activity, "text"]
        state, _, diagnostics = a2ui_stream.Reducer().rehydrate(history)  # type: ignore[arg-type]
        assert [(d.code, d.severity) for d in diagnostics] == [
            ("history.bad_message", a2ui_stream.Severity.ERROR)
        ] * 3
        assert [d.message for d in diagnostics][
            1
        ] == "history item 2 is not a message but NoneType; skipped"
        assert [entry.message_id for entry in state.history] == ["a"]

    @pytest.mark.parametrize(
        "one",
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            a2ui_stream.events.RunStarted(thread_id="t", run_id="r"),
        ],
        ids=["dict", "struct"],
    )
    def test_feed_events_one_event(self, one: object) -> None:
        """One event instead of a list: a dict used to be iterated over its keys."""
        processor = a2ui_stream.Processor()
        with pytest.raises(TypeError, match=r"not one event .*: feed_events\(\[event\]\)"):
            processor.feed_events(one)  # type: ignore[arg-type]
        assert processor.state.seq == 0
        processor.feed_events([one])
        assert processor.state.current is not None
        assert processor.state.current.run_id == "r"

    def test_feed_events_sdk_object(self) -> None:
        core = pytest.importorskip("ag_ui.core", reason="the official SDK is a test extra")
        event = core.RunStartedEvent(thread_id="t", run_id="r")
        with pytest.raises(TypeError, match="not one event"):
            a2ui_stream.Processor().feed_events(event)

    @pytest.mark.parametrize("text", ['{"type":"RUN_STARTED"}', b'{"type":"RUN_STARTED"}'])
    def test_feed_events_text(self, text: str | bytes) -> None:
        with pytest.raises(TypeError, match=r"give the stream's bytes to feed\(\)"):
            a2ui_stream.Processor().feed_events(text)

    def test_feed_events_not_iterable(self) -> None:
        with pytest.raises(TypeError, match="not int"):
            a2ui_stream.Processor().feed_events(3)  # type: ignore[arg-type]

    def test_feed_events_generator(self) -> None:
        events = ({"type": "RUN_STARTED", "threadId": "t", "runId": str(i)} for i in range(2))
        processor = a2ui_stream.Processor()
        processor.feed_events(events)
        assert processor.state.seq == 2

    def test_rejected_counts_dropped_input(self) -> None:
        processor = a2ui_stream.Processor()
        processor.feed(BAD_LINE + b'{"type":"RUN_STARTED"}\n' + cases.RECORDING)
        processor.feed_events([{"type": "RUN_STARTED"}, {"no": "type"}])
        processor.close()
        assert processor.rejected == 4
        assert processor.state.seq == 22


class TestHints:
    """The common mistakes are named, with what to run instead; exit 1 for each."""

    def test_cli_exit_code_for_no_operations(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        event = {
            "type": "ACTIVITY_SNAPSHOT",
            "activityType": "a2ui-surface",
            "messageId": "m",
            "content": {"operations": cases.text_surface("s", "hi")},
        }
        result = cli("process", write(tmp_path, "in", cases.line(event)))
        assert (result.code, result.out) == (1, b"")
        assert "activity.no_operations" in result.err


def run_of(*events: Any) -> list[Any]:
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        *events,
    ]


FINISHED = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}


def warnings_of(diagnostics: Any) -> list[tuple[str, int | None]]:
    return [(d.code, d.seq) for d in diagnostics if d.severity is not a2ui_stream.Severity.DEBUG]


class TestSettling:
    """While a surface is being built it is expected to be incomplete: no warning for that."""

    def test_samples_stream_without_warnings(self, samples_dir: Path) -> None:
        """Every sample streamed as the middleware sends it: no root_missing warning."""
        from a2ui_samples import conformant_streams  # noqa: PLC0415

        from a2ui_stream._shell.render import a2ui_events  # noqa: PLC0415

        provisional = 0
        for name, messages in conformant_streams(samples_dir):
            encoded = [json.dumps(m, separators=(",", ":")).encode() for m in messages]
            processor = a2ui_stream.Processor()
            processor.feed_events(run_of(*a2ui_events(encoded), FINISHED))
            processor.close()
            found = processor.take_diagnostics()
            codes = {d.code for d in found if d.severity is not a2ui_stream.Severity.DEBUG}
            assert "convert.root_missing" not in codes, name
            provisional += any(d.code == "convert.root_missing" for d in found)
        assert provisional >= 20  # the streams that used to warn still say so, at debug

    def test_rootless_when_the_run_ends_warns(self) -> None:
        """A surface still without its root at RUN_FINISHED: one warning, then."""
        created = testing.activity_snapshot("m", [testing.create_surface("s")])
        processor = a2ui_stream.Processor()
        processor.feed_events(run_of(created))
        [pending] = processor.take_diagnostics()
        assert (pending.code, pending.severity) == (
            "convert.root_missing",
            a2ui_stream.Severity.DEBUG,
        )
        processor.feed_events([FINISHED])
        [settled] = processor.take_diagnostics()
        assert (settled.code, settled.severity, settled.seq) == (
            "convert.root_missing",
            a2ui_stream.Severity.WARNING,
            2,
        )
        assert settled.message.endswith("(still so when the run ended)")
        assert settled.message_id == "m"
        processor.close()
        assert processor.take_diagnostics() == []  # settled once

    @pytest.mark.parametrize("ending", ["close", "RUN_STARTED", "RUN_ERROR"])
    def test_every_end_of_a_run_settles(self, ending: str) -> None:
        created = testing.activity_snapshot("m", [testing.create_surface("s")])
        processor = a2ui_stream.Processor()
        processor.feed_events(run_of(created))
        if ending == "RUN_STARTED":
            processor.feed_events([{"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}])
        elif ending == "RUN_ERROR":
            processor.feed_events([{"type": "RUN_ERROR", "message": "boom"}])
        processor.close()
        assert warnings_of(processor.take_diagnostics()) == [
            ("convert.root_missing", None if ending == "close" else 2)
        ]

    def test_fixed_before_the_end_stays_debug(self) -> None:
        operations = [testing.create_surface("s")]
        later = [
            *operations,
            testing.update_components("s", {"id": "root", "component": "Text", "text": "hi"}),
        ]
        capture = testing.process(
            testing.jsonl(
                run_of(
                    testing.activity_snapshot("m", operations),
                    testing.activity_snapshot("m", later),
                    FINISHED,
                )
            )
        )
        assert warnings_of(capture.diagnostics) == []
        assert [d.code for d in capture.diagnostics] == ["convert.root_missing"]
        assert len(capture.diffs) == 1

    def test_after_the_run_ended_warnings_come_at_once(self) -> None:
        """A snapshot after RUN_FINISHED has no run to wait for: it warns when it comes."""
        created = testing.activity_snapshot("m", [testing.create_surface("s")])
        processor = a2ui_stream.Processor()
        processor.feed_events([*run_of(), FINISHED, created])
        assert warnings_of(processor.take_diagnostics()) == [("convert.root_missing", 2)]
        processor.close()
        assert processor.take_diagnostics() == []

    def test_process_and_render_say_the_same(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """One mechanism: process, inspect and render report the same warnings."""
        columns = {"id": "root", "component": "Column", "children": ["a", "b"]}
        operations = [testing.create_surface("s")]
        steps = [
            operations,
            [*operations, testing.update_components("s", columns)],
            [
                *operations,
                testing.update_components(
                    "s", columns, {"id": "a", "component": "Text", "text": "x"}
                ),
            ],
        ]
        data = testing.jsonl(
            run_of(*(testing.activity_snapshot("m", ops) for ops in steps), FINISHED)
        )
        path = write(tmp_path, "in.jsonl", data)
        said = {}
        for command in (["process"], ["inspect"], ["inspect", "--tree"], ["render"]):
            if command == ["render"] and importlib.util.find_spec("markdown_it") is None:
                continue
            result = cli(*command, path)
            # process also knows the input line of each event; the rest is the same
            said[command[-1]] = [
                re.sub(r" (line|offset)=\d+", "", line)
                for line in result.err_lines
                if "code=" in line
            ]
        assert all(lines == said["process"] for lines in said.values()), said
        [line] = said["process"]
        assert "convert.component_missing" in line
        assert "root_missing" not in line


class TestUnknownComponents:
    def test_unknown_root_warns_once(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A surface whose root is of an unknown type vanishes: one warning says so."""
        operations = [
            testing.create_surface("s"),
            testing.update_components("s", {"id": "root", "component": "Fancy"}),
        ]
        snapshots = [
            testing.activity_snapshot("m", [*operations, testing.update_data_model("s", {"n": n})])
            for n in range(5)
        ]
        result = cli(
            "process", write(tmp_path, "in.jsonl", testing.jsonl(run_of(*snapshots, FINISHED)))
        )
        assert (result.code, result.out) == (0, b"")
        [line] = [line for line in result.err_lines if "code=" in line]
        assert line.startswith("[warning")
        assert 'The root component "root" is of unknown type "Fancy"' in line


class TestRunError:
    ERRORED = testing.jsonl(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "RUN_ERROR", "message": "model overloaded\x1b[2J", "code": "503"},
        ]
    )

    def test_kept_in_the_run_state(self) -> None:
        state = testing.process(self.ERRORED).state
        assert state.runs[0].status == "error"
        assert state.runs[0].error == "model overloaded\x1b[2J"

    def test_a_later_run_finished_keeps_it(self) -> None:
        state = testing.process(self.ERRORED + cases.line(FINISHED)).state
        assert (state.runs[0].status, state.runs[0].error) == ("error", "model overloaded\x1b[2J")

    def test_shown_by_inspect(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        text = cli("inspect", write(tmp_path, "in.jsonl", self.ERRORED)).out.decode()
        assert 'run r thread t: error ("model overloaded\\u001b[2J"), 0 parts' in text

    def test_shown_by_render(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        pytest.importorskip("markdown_it", reason="render needs the html extra")
        page = cli("render", write(tmp_path, "in.jsonl", self.ERRORED)).out.decode()
        assert "error: model overloaded" in page

    def test_shown_by_inspect_tree_without_raw_controls(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        text = cli("inspect", "--tree", write(tmp_path, "in.jsonl", self.ERRORED)).out.decode()
        assert "error: model overloaded" in text
        assert "\x1b" not in text


class TestWireForm:
    """``to_wire()`` gives an embedding the command line's bytes."""

    def test_diffs_are_what_process_prints(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        path = write(tmp_path, "in.jsonl", cases.RECORDING)
        diffs = testing.process(cases.RECORDING).diffs
        assert {diff.op for diff in diffs} == {"add", "update"}
        for flag, patch in (("args", False), ("patch", True)):
            printed = cli("process", "--diffs", flag, path).out
            assert printed == b"".join(diff.to_wire(patch=patch) + b"\n" for diff in diffs)

    def test_final_is_the_states(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        state = testing.process(cases.RECORDING).state
        printed = cli("process", "--final", write(tmp_path, "in.jsonl", cases.RECORDING)).out
        assert printed == state.to_wire()
        assert printed.splitlines()[-1] == state.runs[-1].to_wire()
        part = next(iter(state.runs[-1].parts.values()))
        assert json.loads(part.to_wire()) == json.loads(printed.splitlines()[-1])["parts"][0]


HISTORY_EVENTS: list[dict[str, Any]] = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {
        "type": "MESSAGES_SNAPSHOT",
        "messages": [
            {"id": "u1", "role": "user", "content": "hi"},
            {"id": "a1", "role": "assistant", "content": "here"},
            {
                "id": "act1",
                "role": "activity",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": cases.text_surface("s1", "restored")},
            },
        ],
    },
    FINISHED,
]


class TestHistory:
    """Surfaces restored from MESSAGES_SNAPSHOT reach every output, not just the state."""

    def test_process_prints_their_diffs(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli("process", write(tmp_path, "in.jsonl", testing.jsonl(HISTORY_EVENTS)))
        assert result.code == 0
        assert result.out == (
            b'{"seq":1,"runId":"r","messageId":"a1","surfaceId":"s1","op":"add",'
            b'"toolCallId":"a2ui:s1","toolName":"present",'
            b'"args":{"$type":"Markdown","value":"restored"},"history":true}\n'
        )

    def test_a_later_snapshot_diffs_against_the_last(self) -> None:
        events = [
            *HISTORY_EVENTS,
            {"type": "MESSAGES_SNAPSHOT", "messages": HISTORY_EVENTS[1]["messages"][:2]},
        ]
        diffs = testing.process(testing.jsonl(events)).diffs
        assert [(d.op, d.message_id, d.history) for d in diffs] == [
            ("add", "a1", True),
            ("remove", "a1", True),
        ]

    def test_final_lists_them_first(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        result = cli(
            "process", "--final", write(tmp_path, "in.jsonl", testing.jsonl(HISTORY_EVENTS))
        )
        history, run = result.out.splitlines()
        assert json.loads(history) == {
            "history": [
                {
                    "messageId": "a1",
                    "parts": [
                        {
                            "toolCallId": "a2ui:s1",
                            "toolName": "present",
                            "surfaceId": "s1",
                            "args": {"$type": "Markdown", "value": "restored"},
                        }
                    ],
                }
            ]
        }
        assert json.loads(run) == {"runId": "r", "threadId": "t", "parts": []}

    def test_inspect_lists_them(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        path = write(tmp_path, "in.jsonl", testing.jsonl(HISTORY_EVENTS))
        text = cli("inspect", path).out.decode()
        assert "history: 1 message, 1 part (restored by MESSAGES_SNAPSHOT)\n" in text
        assert "  message a1: surface s1\n" in text
        tree = cli("inspect", "--tree", path).out.decode()
        assert "Restored from history" in tree
        assert 'Markdown value="restored"' in tree

    def test_replay_prints_them_too(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        log = tmp_path / "log.jsonl"
        direct = cli("process", "--log", log, write(tmp_path, "in", testing.jsonl(HISTORY_EVENTS)))
        assert cli("replay", log).out == direct.out
