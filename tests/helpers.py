"""Helpers shared by several test modules: the command line run in-process, pages drawn.

The ``cli`` fixture (``conftest.py``) runs ``a2ui_stream._shell.cli.main`` on its
arguments and returns a :class:`Result`; the properties read that result the ways the
command tests do. Data shared by a module and its neighbours lives here too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

from html_tree import Node, parse

from a2ui_stream._view.model import Card, Page, Section
from a2ui_stream._view.page import render_page

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
