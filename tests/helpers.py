"""Helpers shared by several test modules: the command line run in-process, pages drawn.

The ``cli`` fixture (``conftest.py``) runs ``a2ui_stream._shell.cli.main`` on its
arguments and returns a :class:`Result`; the properties read that result the ways the
command tests do. Data shared by a module and its neighbours lives here too: nested
values, input files with bad lines, and the reducer folds the engine's tests build on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
import stream_cases as cases
from archive_cases import frames
from html_tree import Node, parse
from hypothesis import strategies as st
from invariants import output_problems
from msgspec import UNSET

from a2ui_stream import Diagnostic, Limits, PartDiff, Processor, testing
from a2ui_stream import events as ev
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._tree.pointer import escape_token
from a2ui_stream._view.model import Card, Note, Page, Section, Step
from a2ui_stream._view.page import render_page
from a2ui_stream.testing import create_surface as create
from a2ui_stream.testing import update_components as components

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from a2ui_stream._state.stream import StreamState

#: The installed ``a2ui-stream`` console script, for tests that run it as a process.
CONSOLE_SCRIPT = Path(sys.executable).parent / "a2ui-stream"
#: Three log lines: an event, then two records the file log keeps without reading them.
LINES = [b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}', b'{"n":1}', b'{"n":"\xc3\xa9"}']


class Result(NamedTuple):
    """One in-process run of the command line."""

    code: int
    out: bytes
    err: str

    @property
    def lines(self) -> list[dict[str, Any]]:
        """Standard output read as JSONL."""
        return [json.loads(record) for record in self.out.splitlines()]

    @property
    def err_lines(self) -> list[str]:
        """Standard error, line by line."""
        return self.err.splitlines()

    @property
    def page(self) -> Node:
        """Standard output parsed as the HTML page ``render`` writes."""
        return parse(self.out.decode())

    @property
    def titles(self) -> list[str]:
        """The card titles (surfaceIds), without their badges."""
        return [
            str(h.find("h3").children[0]).strip() for h in self.page.find_all(cls="part-header")
        ]


class Recorder:
    """A logger that records each call as ``(level, event, fields)``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def __getattr__(self, level: str) -> Callable[..., None]:
        def log(event: str, **fields: Any) -> None:
            self.calls.append((level, event, fields))

        return log


# -- pages drawn by the view ------------------------------------------------------------

#: An ``a2ui:action`` as a Button's ``$action`` carries it.
ACTION = {
    "type": "a2ui:action",
    "name": "book",
    "surfaceId": "s",
    "sourceComponentId": "b",
    "context": {"flight": "TP 1351"},
}


def page_of(*elements: Any) -> str:
    """A page with one card per element."""
    cards = tuple(
        Card(surface_id=f"s{i}", tool_call_id=f"a2ui:s{i}", args=element, seq=i)
        for i, element in enumerate(elements)
    )
    return render_page(Page(title="t", sections=(Section(title="Run 1", cards=cards),)))


def sample_page(*, timeline: bool = False) -> Page:
    """A page of one run: a live card with a warning and a removed one, and a note."""
    first = {"$type": "Text", "value": "first"}
    second = {"$type": "Text", "value": "second"}
    live = Card(
        surface_id="s1",
        tool_call_id="a2ui:s1",
        args=second,
        seq=7,
        warnings=('A2UI component "x" was not found.',),
        steps=(Step(seq=3, op="add", args=first), Step(seq=7, op="update", args=second)),
    )
    gone = Card(
        surface_id="s2",
        tool_call_id="a2ui:s2",
        args=first,
        seq=4,
        removed_at=9,
        steps=(Step(seq=4, op="add", args=first), Step(seq=9, op="remove")),
    )
    return Page(
        title="rec.jsonl",
        summary="AG-UI recording",
        sections=(Section(title="Run 1 of 1", details=("run r1",), cards=(live, gone)),),
        notes=(Note(severity="error", text="bad line"),),
        timeline=timeline,
    )


def surface(markup: str) -> Node:
    """The first card's drawn surface."""
    return parse(markup).find("div", "surface")


def text(value: str) -> dict[str, Any]:
    """A ``Text`` element."""
    return {"$type": "Text", "value": value}


# -- nested values ----------------------------------------------------------------------


def nested(levels: int, leaf: Any = 1) -> Any:
    """A value ``levels`` arrays deep around ``leaf``."""
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


#: Small JSON values of every kind, for the tree modules' properties.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=20,
)


def depth_of(value: Any) -> int:
    """Nesting of a value, counted the slow, obvious way (the reference for the tests)."""
    stack, deepest = [(value, 0)], 0
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            level += 1
            deepest = max(deepest, level)
            stack.extend(
                (child, level) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


# -- input files and streams the command tests read ------------------------------------


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    """Write ``data`` to ``tmp_path / name`` and return that path."""
    path = tmp_path / name
    path.write_bytes(data)
    return path


#: A line that is no JSON: one ``json.invalid`` error, the line rejected.
BAD_LINE = b"not json\n"
#: The bundled recording with one bad line after it.
WITH_BAD_LINE = cases.RECORDING + BAD_LINE


def many_cards(count: int) -> bytes:
    """One run drawing a surface of ``count`` Cards, each with an invalid padding."""
    cards = [f"c{i}" for i in range(count)]
    components: list[dict[str, Any]] = [{"id": "root", "component": "Column", "children": cards}]
    for i in range(count):
        components.append({"id": f"c{i}", "component": "Card", "padding": 99, "child": f"t{i}"})
        components.append({"id": f"t{i}", "component": "Text", "text": "x"})
    operations = [testing.create_surface("s"), testing.update_components("s", *components)]
    return testing.jsonl(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            testing.activity_snapshot("m", operations),
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]
    )


def payloads(data: bytes) -> list[bytes]:
    """The event payloads of a recording (JSONL or SSE), in order."""
    return [frame.payload for frame in frames(data)]


def events_of(data: bytes) -> list[dict[str, Any]]:
    """The JSONL lines of ``data``, decoded."""
    return [json.loads(line) for line in data.splitlines()]


def hint_of(result: Result) -> str:
    """The text of the one hint a command run gave on stderr."""
    [line] = [line for line in result.err_lines if "hint: " in line]
    return line.split("hint: ", 1)[1]


# -- reducer folds -----------------------------------------------------------------------


#: One A2UI message, as the reducer's tests write them.
Op = dict[str, Any]


def text_surface(sid: str, text: Any = "hello") -> list[Op]:
    """A surface whose root is one Text."""
    return [create(sid), components(sid, {"id": "root", "component": "Text", "text": text})]


def snapshot(
    message_id: str, operations: Sequence[Op] | None = None, **content: Any
) -> ev.ActivitySnapshot:
    """An a2ui-surface snapshot of ``operations``; ``content`` adds keys (or ``replace``)."""
    body = dict(content)
    if operations is not None:
        body["a2ui_operations"] = list(operations)
    replace = body.pop("replace", UNSET)
    activity_type = body.pop("activity_type", "a2ui-surface")
    return ev.ActivitySnapshot.of(
        message_id=message_id, activity_type=activity_type, content=body, replace=replace
    )


def run_started(run_id: str = "r1") -> ev.RunStarted:
    """A RUN_STARTED of thread ``t1``."""
    return ev.RunStarted(thread_id="t1", run_id=run_id)


def fold(
    *events: ev.Event, reducer: Reducer | None = None
) -> tuple[StreamState, list[PartDiff], list[Any]]:
    """Reduce ``events`` from the empty state: the final state, every diff and diagnostic."""
    state, diffs, diagnostics = (reducer or Reducer()).reduce_all(events)
    return state, list(diffs), list(diagnostics)


# -- one hostile line between two good ones (the bad-input corpus and its neighbours) -----


_encode = msgspec.json.Encoder().encode
#: The RUN_STARTED line the hostile lines are fed after.
RUN_LINE = LINES[0]


def snapshot_line(message_id: str, operations: Any) -> bytes:
    """Return an ACTIVITY_SNAPSHOT line carrying ``operations``."""
    return _encode(
        {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": message_id,
            "activityType": "a2ui-surface",
            "replace": True,
            "content": {"a2ui_operations": operations},
        }
    )


def v09_surface(
    sid: str, components: list[Any] | None = None, data: Any = msgspec.UNSET
) -> list[dict[str, Any]]:
    """Return v0.9 operations creating surface ``sid`` (a Text root unless told)."""
    ops: list[dict[str, Any]] = [
        {"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": "c"}},
        {
            "version": "v0.9",
            "updateComponents": {
                "surfaceId": sid,
                "components": components or [{"id": "root", "component": "Text", "text": sid}],
            },
        },
    ]
    if data is not msgspec.UNSET:
        ops.append({"version": "v0.9", "updateDataModel": {"surfaceId": sid, "value": data}})
    return ops


def data_op(sid: str, path: Any, value: Any) -> dict[str, Any]:
    """Return an updateDataModel operation."""
    return {"version": "v0.9", "updateDataModel": {"surfaceId": sid, "path": path, "value": value}}


class Outcome(NamedTuple):
    """What a stream gave: diffs, diagnostics, and the processor's limits."""

    diffs: list[PartDiff]
    diagnostics: list[Diagnostic]
    limits: Limits

    @property
    def codes(self) -> set[str]:
        """The distinct diagnostic codes."""
        return {d.code for d in self.diagnostics}

    def painted(self, surface_id: str) -> dict[str, Any]:
        """The last args painted for ``surface_id``; fails when it never painted."""
        found = [d.args for d in self.diffs if d.surface_id == surface_id and d.op != "remove"]
        assert found, f"surface {surface_id!r} never painted"
        last = found[-1]
        assert isinstance(last, dict)
        return last


def run_between(bad: bytes | list[bytes], limits: Limits | None = None) -> Outcome:
    """Feed ``bad`` (one line or several) between two good snapshots; check the neighbours."""
    limits = limits or Limits()
    lines = [bad] if isinstance(bad, bytes) else bad
    processor = Processor(limits=limits)
    stream = [
        RUN_LINE,
        snapshot_line("before", v09_surface("before")),
        *lines,
        snapshot_line("after", v09_surface("after")),
    ]
    diffs: list[PartDiff] = []
    for line in stream:
        diffs += processor.feed(line + b"\n")
    diffs += processor.close()
    outcome = Outcome(diffs, processor.take_diagnostics(), limits)
    assert outcome.painted("before")["value"] == "before"
    assert outcome.painted("after")["value"] == "after"
    assert not output_problems(diffs, limits)
    for diagnostic in outcome.diagnostics:
        assert diagnostic.message
        assert diagnostic.code.count(".") == 1
    return outcome


def render_recording(tool: str) -> bytes:
    """A run that draws surface ``s`` from the streamed arguments of a tool named ``tool``."""
    components = [{"id": "root", "component": "Text", "text": "drawn-by-the-tool"}]
    text = json.dumps({"surfaceId": "s", "components": components})
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {
            "type": "TOOL_CALL_START",
            "toolCallId": "c1",
            "toolCallName": tool,
            "parentMessageId": "m",
        },
        *(
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": text[i : i + 9]}
            for i in range(0, len(text), 9)
        ),
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    return b"".join(json.dumps(event).encode() + b"\n" for event in events)


def pointers_into(value: Any, prefix: str = "") -> list[str]:
    """Every JSON Pointer into ``value``, the root included."""
    found = [prefix]
    if type(value) is dict:
        for key, child in value.items():
            found += pointers_into(child, f"{prefix}/{escape_token(key)}")
    elif type(value) is list:
        for index, child in enumerate(value):
            found += pointers_into(child, f"{prefix}/{index}")
    return found
