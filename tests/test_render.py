"""``a2ui-stream render`` and ``inspect --tree``: inputs of every kind, pages, runs, files."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
import stream_cases as cases
from a2ui_samples import load_sample_files
from helpers import write as write_file

from a2ui_stream import events as ev
from a2ui_stream import testing
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._shell import render
from a2ui_stream._state.stream import StreamState
from a2ui_stream._wire.envelope import OPERATION_KEYS

if TYPE_CHECKING:
    from collections.abc import Callable

    from helpers import Result


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


CREATE = {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}


def components(*items: dict[str, Any]) -> dict[str, Any]:
    return {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": list(items)}}


ROOT_TEXT = components({"id": "root", "component": "Text", "text": "Hello"})


class TestSniff:
    @pytest.mark.parametrize(
        ("head", "kind"),
        [
            (cases.RECORDING[:300], "agui"),
            (b"data: {}\n\n", "agui"),
            (b"", "agui"),
            (b"not json", "agui"),
            (b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n', "agui"),
            (b'[{"type":"RUN_STARTED"}]', "agui"),
            (json.dumps(CREATE).encode() + b"\n", "a2ui"),
            (b"[\n  {\n", "a2ui"),
            (b'{"name": "x", "messages": []}', "a2ui"),
            (b'{"schema": "s.json", "tests": []}', "a2ui"),
            (b'{"type": "MESSAGES_SNAPSHOT", "messages": []}\n', "agui"),
            (b'\xef\xbb\xbf{"beginRendering": {}}', "a2ui"),
        ],
    )
    def test_kind_from_first_bytes(self, head: bytes, kind: str) -> None:
        """AG-UI is one event a line (or SSE); anything else JSON is A2UI messages."""
        assert render.sniff(head) == kind


class TestA2uiFiles:
    def test_shapes(self) -> None:
        """Array, sample wrapper, test cases, one object and JSONL give the same messages."""
        messages = [CREATE, ROOT_TEXT]
        compact = [json.dumps(m, separators=(",", ":")).encode() for m in messages]
        shapes = [
            json.dumps(messages, indent=2),
            json.dumps({"name": "n", "messages": messages}),
            json.dumps(
                {"schema": "x.json", "tests": [{"valid": True, "data": m} for m in messages]}
            ),
            "\n".join(json.dumps(m) for m in messages) + "\n",
        ]
        for shape in shapes:
            assert render.a2ui_messages(shape.encode()) == (compact, [])
        assert render.a2ui_messages(json.dumps(CREATE, indent=1).encode()) == (compact[:1], [])

    def test_bad_jsonl_line(self) -> None:
        """A JSONL line that is not JSON is reported with its line and offset; the rest is kept."""
        data = json.dumps(CREATE).encode() + b"\n{oops\n" + json.dumps(ROOT_TEXT).encode()
        messages, problems = render.a2ui_messages(data)
        assert len(messages) == 2
        assert [(p.code, p.line, p.offset) for p in problems] == [
            ("json.invalid", 2, len(json.dumps(CREATE)) + 1)
        ]

    def test_one_event_per_message(self) -> None:
        """Message N is seq N: a snapshot of the first, then a delta appending each next one."""
        first, second, third = render.a2ui_events([b"1", b'{"a":2.50}', b"[3]"])
        assert isinstance(first, ev.ActivitySnapshot)
        assert bytes(first.content) == b'{"a2ui_operations":[1]}'
        assert isinstance(second, ev.ActivityDelta)
        assert isinstance(third, ev.ActivityDelta)
        assert [(type(e), e.patch) for e in (second, third)] == [
            (ev.ActivityDelta, [{"op": "add", "path": "/a2ui_operations/-", "value": {"a": 2.5}}]),
            (ev.ActivityDelta, [{"op": "add", "path": "/a2ui_operations/-", "value": [3]}]),
        ]

    def test_a_long_file_renders_as_its_cumulative_snapshots_would(self) -> None:
        """The deltas give every state the middleware's cumulative snapshots would give.

        A file of 300 messages, each adding a component its root lists; the states after
        each message compared with the snapshots of the messages so far.
        """
        texts = [{"id": f"t{i}", "component": "Text", "text": f"line {i}"} for i in range(300)]
        root = {"id": "root", "component": "Column", "children": [t["id"] for t in texts]}
        raws = [
            CREATE,
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [root]}},
        ]
        raws += [
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [text]}}
            for text in texts
        ]
        messages = [json.dumps(raw, separators=(",", ":")).encode() for raw in raws]
        reducer, state = Reducer(), StreamState()
        fresh = Reducer()
        for count, event in enumerate(render.a2ui_events(messages), 1):
            state = reducer.reduce(state, event).state
            if count % 37 and count != len(messages):
                continue
            content = b'{"a2ui_operations":[' + b",".join(messages[:count]) + b"]}"
            snapshot = ev.ActivitySnapshot(
                message_id="a2ui-messages",
                activity_type="a2ui-surface",
                content=msgspec.Raw(content),
                replace=True,
            )
            whole = fresh.reduce(StreamState(), snapshot).state
            assert state.current is not None
            assert whole.current is not None
            got = {sid: part.args for sid, part in state.current.parts.items()}
            assert got == {sid: part.args for sid, part in whole.current.parts.items()}

    def test_removed_surface_keeps_its_last_state(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A surface the file deletes shows what it was, marked with the deleting message."""
        delete = {"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}
        path = write(tmp_path, "m.json", json.dumps([CREATE, ROOT_TEXT, delete]))
        result = cli("render", path)
        part = result.page.find("article", "part")
        assert "removed" in part.classes
        assert part.find("span", "removed-badge").text() == "removed by message 2"
        assert part.find("div", "markdown").text() == "Hello"

    def test_warnings_a_later_message_fixed_are_quiet(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """A root not sent yet is what streaming looks like; a missing child that stays is news."""
        col = components({"id": "root", "component": "Column", "children": ["a", "b"]})
        path = write(
            tmp_path,
            "m.json",
            json.dumps([CREATE, col, components({"id": "a", "component": "Text", "text": "x"})]),
        )
        result = cli("render", path)
        assert "root_missing" not in result.err
        assert result.err.count("code=convert.component_missing") == 1
        part = result.page.find("article", "part")
        assert "b" in part.find("ul", "warnings").text()
        verbose = cli("-v", "render", path)
        assert "convert.root_missing" in verbose.page.find("section", "diagnostics").text()


def mentioned_surfaces(messages: list[Any]) -> set[str]:
    found = set()
    for message in messages:
        for key in OPERATION_KEYS & set(message):
            payload = message[key]
            if isinstance(payload, dict) and isinstance(payload.get("surfaceId"), str):
                found.add(payload["surfaceId"])
    return found


class TestSamples:
    def test_every_sample_renders(self, cli: Callable[..., Result], samples_dir: Path) -> None:
        """Each sample file gives a page; a conformant stream has a card per surfaceId."""
        checked = 0
        for sample in load_sample_files(samples_dir):
            result = cli("render", samples_dir / sample.name)
            # 1 exactly when a message was dropped (an ERROR), as for every command
            assert result.code == ("[error" in result.err), sample.name
            page = result.page
            assert page.find("title").text().startswith(sample.name)
            assert page.find_all(cls="placeholder") == [], sample.name
            good = [m.message for m in sample.messages if m.conformant]
            if sample.is_stream and len(good) == len(sample.messages):
                assert set(result.titles) == mentioned_surfaces(good), sample.name
                checked += 1
        assert checked >= 25

    def test_deterministic(self, cli: Callable[..., Result], samples_dir: Path) -> None:
        """The same input always gives the same page, byte for byte."""
        path = samples_dir / "v0_8__kitchen-sink.json"
        first = cli("render", "--timeline", path).out
        assert cli("render", "--timeline", path).out == first

    def test_multi_surface(self, cli: Callable[..., Result], samples_dir: Path) -> None:
        """A file with two surfaces gives two cards, in the order they were first drawn."""
        result = cli("render", samples_dir / "v0_9__multi_surface.json")
        assert result.titles == ["contact-card", "org-chart-view"]


class TestRecording:
    def test_last_run_by_default(self, cli: Callable[..., Result]) -> None:
        """The page shows the last run, says how many there are, titles cards by surfaceId."""
        result = cli("render", cases.RECORDING_PATH)
        assert result.code == 0
        assert result.page.find("h2").text().startswith("Run 2 of 2")
        assert result.titles == ["booking"]
        assert "1 of 2 runs shown" in result.page.find("header", "page-header").text()

    def test_all_runs_and_one_run(self, cli: Callable[..., Result]) -> None:
        """--all-runs gives one section per run; --run N (1-based, or from the end) one."""
        every = cli("render", "--all-runs", cases.RECORDING_PATH)
        assert len(every.page.find_all("section", "run")) == 2
        assert every.titles == ["s1", "flights", "booking"]
        assert cli("render", "--run", "1", cases.RECORDING_PATH).titles == ["s1", "flights"]
        assert cli("render", "--run", "-2", cases.RECORDING_PATH).titles == ["s1", "flights"]

    @pytest.mark.parametrize("run", ["0", "3", "-3"])
    def test_no_such_run(self, cli: Callable[..., Result], run: str) -> None:
        """A run the input does not have is a usage error that says how many there are."""
        result = cli("render", "--run", run, cases.RECORDING_PATH)
        assert result.code == 2
        assert "the input has 2 runs" in result.err
        assert result.out == b""

    def test_the_page_shows_what_the_agent_drew(self, cli: Callable[..., Result]) -> None:
        """Texts, the button with its action, the checkbox of the bundled recording."""
        page = cli("render", "--all-runs", cases.RECORDING_PATH).page
        text = page.find("main").text()
        for expected in ("Order", "$42", "Flights to Lisbon", "TP 1351", "€129", "U2 7617"):
            assert expected in text
        (button,) = page.find_all("button")
        assert button.text() == "Book the first"
        assert page.find("small", "action").text() == 'a2ui:action book {"first":"TP 1351"}'
        assert page.find("input").attrs["name"] == "ticket"

    def test_timeline_matches_the_diffs(self, cli: Callable[..., Result]) -> None:
        """--timeline lists each part's states with the seqs process reports for it."""
        diffs = cli("process", cases.RECORDING_PATH).out.splitlines()
        expected: dict[str, list[str]] = {}
        for line in diffs:
            diff = json.loads(line)
            expected.setdefault(diff["surfaceId"], []).append(f"event {diff['seq']} · {diff['op']}")
        page = cli("render", "--all-runs", "--timeline", cases.RECORDING_PATH).page
        found = {
            part.find("h3").text(): [p.text() for p in part.find_all("p", "step")]
            for part in page.find_all("article", "part")
        }
        assert found == expected

    def test_sse_and_event_log_give_the_same_page(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """The same events as SSE, or as an event log process wrote, draw the same cards."""
        events = [json.loads(line) for line in cases.RECORDING.splitlines()]
        sse = write(tmp_path, "rec.jsonl", testing.sse(events))
        log = tmp_path / "events.log"
        assert cli("process", "--log", log, cases.RECORDING_PATH).code == 0
        reference = cli("render", "--all-runs", cases.RECORDING_PATH).page.find("main")
        for path in (sse, log):
            assert cli("render", "--all-runs", path).page.find("main") == reference

    def test_history(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """Surfaces restored from a MESSAGES_SNAPSHOT get a section of their own."""
        activity = {
            "id": "act1",
            "role": "activity",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": [CREATE, ROOT_TEXT]},
        }
        messages = [{"id": "a1", "role": "assistant", "content": "here"}, activity]
        path = write(
            tmp_path,
            "h.jsonl",
            testing.jsonl([{"type": "MESSAGES_SNAPSHOT", "messages": messages}]),
        )
        page = cli("render", path).page
        section = page.find_all("section", "run")[-1]
        assert section.find("h2").text() == "Restored from history MESSAGES_SNAPSHOT"
        assert "restored from history" in section.find("p", "meta").text()
        assert section.find("div", "markdown").text() == "Hello"

    def test_format_overrides_the_guess(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """--format a2ui reads lines as A2UI messages even where they look like events."""
        lines = [{"type": "note"}, CREATE, ROOT_TEXT]  # the first line reads as an event
        path = write(tmp_path, "m.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
        assert cli("render", path).titles == []
        assert cli("render", "--format", "a2ui", path).titles == ["s"]

    def test_stdin(self, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
        """- reads standard input."""
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(cases.RECORDING)))
        result = cli("render", "-")
        assert result.titles == ["booking"]
        assert result.page.find("h1").text() == "stdin"


class TestOutput:
    def test_output_file(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """-o writes the page there (replacing a file whole), and nothing to stdout.

        A clean run says nothing on stderr either; ``-v`` says where the page went.
        """
        out = write(tmp_path, "out.html", "old")
        result = cli("render", cases.RECORDING_PATH, "-o", out)
        assert (result.code, result.out, result.err) == (0, b"", "")
        assert out.read_bytes() == cli("render", cases.RECORDING_PATH).out
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html"]  # no temporary left
        assert "wrote the page" in cli("render", "-v", cases.RECORDING_PATH, "-o", out).err

    def test_refuses_to_overwrite_the_input(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """-o naming the input is a usage error, and the input is untouched."""
        path = write(tmp_path, "rec.jsonl", cases.RECORDING)
        result = cli("render", path, "-o", path)
        assert result.code == 2
        assert "that is the input file" in result.err
        assert path.read_bytes() == cases.RECORDING

    @pytest.mark.parametrize("name", ["same", "/dev/stdin"])
    def test_refuses_to_overwrite_the_file_stdin_reads(self, tmp_path: Path, name: str) -> None:
        """``render - -o FILE < FILE`` (or ``-o /dev/stdin``) is refused, FILE untouched.

        Found by a probe: the check compared ``-o`` with the input's name only, and
        ``-`` has none, so the page replaced the recording it was made from.
        """
        path = write_file(tmp_path, "rec.jsonl", cases.RECORDING)
        target = path if name == "same" else Path(name)
        with path.open("rb") as stdin:
            done = subprocess.run(  # noqa: S603 - our own command line, no shell
                [sys.executable, "-m", "a2ui_stream", "render", "-", "-o", str(target)],
                stdin=stdin,
                capture_output=True,
                check=False,
            )
        assert done.returncode == 2
        assert b"that is the input file" in done.stderr
        assert path.read_bytes() == cases.RECORDING

    def test_the_file_stdout_goes_to_is_written_in_place(self, tmp_path: Path) -> None:
        """``-o /dev/stdout >> FILE`` appends the page to FILE, as stdout would.

        Found by a probe: the page was renamed over the file stdout went to, which lost
        what ``>>`` kept, and through a pipe the temporary's name could not be made.
        """
        kept = write_file(tmp_path, "kept.txt", b"precious\n")
        with kept.open("ab") as stdout:
            done = subprocess.run(  # noqa: S603 - our own command line, no shell
                [
                    *(sys.executable, "-m", "a2ui_stream", "render"),
                    *(str(cases.RECORDING_PATH), "-o", "/dev/stdout"),
                ],
                stdout=stdout,
                stderr=subprocess.PIPE,
                check=False,
            )
        assert done.returncode == 0, done.stderr
        data = kept.read_bytes()
        assert data.startswith(b"precious\n<!DOCTYPE html>")
        piped = subprocess.run(  # noqa: S603 - our own command line, no shell
            [sys.executable, "-m", "a2ui_stream", "render", str(cases.RECORDING_PATH)],
            capture_output=True,
            check=True,
        )
        assert data == b"precious\n" + piped.stdout

    def test_a_link_is_followed_and_a_fifo_kept(
        self, cli: Callable[..., Result], tmp_path: Path
    ) -> None:
        """-o through a link replaces the file it names; a FIFO is written to, not replaced."""
        # Found by an input probe: -o renamed the page over the path it was given, so a
        # link became a regular file, and a FIFO or a device (as root, /dev/null) was
        # destroyed. A FIFO stands for every file that is not regular.
        page = cli("render", cases.RECORDING_PATH).out
        target = write(tmp_path, "target.html", b"old")
        link = tmp_path / "link.html"
        link.symlink_to(target)
        assert cli("render", cases.RECORDING_PATH, "-o", link).code == 0
        assert link.is_symlink()
        assert target.read_bytes() == page
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the page fits the pipe
        try:
            assert cli("render", cases.RECORDING_PATH, "-o", fifo).code == 0
            assert stat.S_ISFIFO(fifo.stat().st_mode)
            assert os.read(reader, 2 * len(page)) == page
        finally:
            os.close(reader)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "pipe", "target.html"]

    def test_open(
        self, cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """--open hands the written page to the web browser module, as a file URI."""
        opened: list[str] = []

        def browser(uri: str, *_args: Any, **_options: Any) -> bool:
            opened.append(uri)
            return True

        monkeypatch.setattr(webbrowser, "open", browser)
        out = tmp_path / "page.html"
        assert cli("render", "--open", "-o", out, cases.RECORDING_PATH).code == 0
        assert opened == [out.resolve().as_uri()]
        assert cli("render", "--open", cases.RECORDING_PATH).code == 0
        temporary = Path(opened[1].removeprefix("file://"))
        assert temporary.read_bytes() == out.read_bytes()
        temporary.unlink()

    def test_open_without_a_browser_says_where_the_page_is(
        self, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Found by a probe: with no browser, --open exited 0 saying nothing at all."""
        monkeypatch.setattr(webbrowser, "open", lambda *_args, **_options: False)
        result = cli("render", "--open", cases.RECORDING_PATH)
        assert result.code == 0
        assert "no web browser opened the page" in result.err
        page = Path(result.err.split("path=")[1].split()[0])
        assert page.read_bytes().startswith(b"<!DOCTYPE html>")
        page.unlink()

    def test_missing_file(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A missing input is a usage error naming it."""
        result = cli("render", tmp_path / "nope.jsonl")
        assert result.code == 2
        assert "nope.jsonl" in result.err

    def test_without_the_html_extra(self) -> None:
        """With markdown-it-py missing, render names the extra to install; inspect still works."""
        probe = (
            "import sys\n"
            "sys.modules['markdown_it'] = None\n"
            "from a2ui_stream._shell.cli import main\n"
            f"code = main(['render', {str(cases.RECORDING_PATH)!r}])\n"
            f"tree = main(['inspect', '--tree', {str(cases.RECORDING_PATH)!r}])\n"
            "sys.exit(code * 10 + tree)\n"
        )
        result = subprocess.run(  # noqa: S603 - our interpreter, our probe
            [sys.executable, "-c", probe], capture_output=True, text=True, check=False
        )
        assert result.returncode == 20
        assert "pip install 'a2ui-stream[html]'" in result.stderr
        assert 'surface "booking"' in result.stdout


class TestInspectTree:
    def test_bundled_recording(self, cli: Callable[..., Result]) -> None:
        """Every run's final parts as indented trees with their key props."""
        result = cli("inspect", "--tree", cases.RECORDING_PATH)
        assert result.code == 0
        lines = result.out.decode().splitlines()
        assert lines[:4] == [
            "recording.jsonl: AG-UI recording · 22 events · 2 of 2 runs shown",
            "Run 1 of 2 (run run-1, thread thread-1, finished, 2 parts)",
            '  surface "s1", drawn by event 5',
            '    Card title="Order"',
        ]
        assert (
            '      Button label="Book the first" $action="book" context={"first":"TP 1351"}'
            in lines
        )
        assert lines[-1] == '        Checkbox label="Send me the e-ticket" name="ticket"'

    def test_a2ui_file(self, cli: Callable[..., Result], tmp_path: Path) -> None:
        """A raw A2UI file works too: one section of surfaces."""
        result = cli(
            "inspect", "--tree", write(tmp_path, "m.json", json.dumps([CREATE, ROOT_TEXT]))
        )
        assert result.out.decode().splitlines()[1:] == [
            "Surfaces (1 part)",
            '  surface "s", drawn by message 1',
            '    Markdown value="Hello"',
        ]
