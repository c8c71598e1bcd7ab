"""The walk (``_convert.walk``): a surface converted by interpreting its components.

Every other path of the converter gives what the walk gives (test_convert_tiers holds
them to it); here is the walk on its own, and its small helpers.
"""

from __future__ import annotations

from typing import Any

import pytest
from convert_cases import root, surface

from a2ui_stream._convert.converter import Converter
from a2ui_stream._convert.elements import HANDLERS
from a2ui_stream._convert.walk import Setup, Walk, given_once, item_element, unknown_key
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream._wire.limits import Limits

LIST = [
    root("List", children={"componentId": "row", "path": "/items"}),
    {"id": "row", "component": "Text", "text": {"path": "name"}},
]
SURFACES: dict[str, tuple[list[dict[str, Any]], Any]] = {
    "template": (LIST, {"items": [{"name": "a"}, {"name": "b"}]}),
    "missing child": (
        [root("Column", children=["a", "gone"]), {"id": "a", "component": "Divider"}],
        None,
    ),
    "cycle": ([root("Column", children=["root"])], None),
    "unknown types": (
        [
            root("Row", children=["u", "v"]),
            {"id": "u", "component": "X"},
            {"id": "v", "component": "X"},
        ],
        None,
    ),
}


def walked(components: list[dict[str, Any]], data: Any) -> tuple[Any, tuple[Diagnostic, ...]]:
    """The element and warnings of one walk."""
    s = surface(*components) if data is None else surface(*components, data=data)
    walk = Walk(Setup(HANDLERS, Limits()), s)
    element = walk.convert(s.root_id)
    return element, walk.warnings()


@pytest.mark.parametrize("name", sorted(SURFACES))
def test_the_walk_is_the_conversion(name: str) -> None:
    """The walk gives the element and warnings the converter gives."""
    components, data = SURFACES[name]
    s = surface(*components) if data is None else surface(*components, data=data)
    converted = Converter().convert(s)
    assert walked(components, data) == (converted.element, converted.warnings)


def test_a_template_makes_one_item_per_entry() -> None:
    """Each list entry becomes a ListViewItem around its element."""
    element, warnings = walked(*SURFACES["template"])
    assert [item["children"]["value"] for item in element["children"]] == ["a", "b"]
    assert warnings == ()


def test_no_root_id_is_nothing() -> None:
    """A surface with no root to draw (a v0.8 surface before beginRendering) is None."""
    walk = Walk(Setup(HANDLERS, Limits()), surface(root("Divider")))
    assert walk.convert(None) is None
    assert walk.warnings() == ()


def test_unknown_types_warn_once() -> None:
    """The once-per-conversion key of an unknown type keeps its warning to one."""
    _, warnings = walked(*SURFACES["unknown types"])
    assert [w.code for w in warnings] == ["convert.unknown_component"]
    assert unknown_key("X") == "convert.unknown_component:X"


def test_given_once() -> None:
    """Keyed entries are kept at their first; unkeyed ones always; given keys never."""
    a, b, c = (Diagnostic(code="x", message=m) for m in "abc")
    log = [("k", a), (None, b), ("k", c), (None, b)]
    assert given_once(log) == (a, b, b)
    assert given_once(log, given=["k"]) == (b, b)


def test_item_element() -> None:
    """An item's element goes in a ListViewItem; an item that gave none is an empty one."""
    assert item_element({"$type": "Divider"}) == {
        "$type": "ListViewItem",
        "children": {"$type": "Divider"},
    }
    assert item_element(None) == {"$type": "ListViewItem"}
    assert item_element(None) is item_element(None)
