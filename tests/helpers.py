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

import stream_cases as cases
from html_tree import Node, parse
from msgspec import UNSET

from a2ui_stream import events as ev
from a2ui_stream import testing
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._view.model import Card, Page, Section
from a2ui_stream._view.page import render_page
from a2ui_stream.testing import create_surface as create
from a2ui_stream.testing import update_components as components

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from a2ui_stream._state.stream import PartDiff, StreamState

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


def depth_of(value: Any) -> int:
    """Nesting of a value, counted the slow, obvious way (the reference for the tests)."""
    stack, deepest = [(value, 0)], 0
    while stack:
        item, level = stack.pop()
        if type(item) is dict or type(item) is list:
            level += 1
            deepest = max(deepest, level)
            stack.extend(
                (child, level) for child in (item.values() if type(item) is dict else item)
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
