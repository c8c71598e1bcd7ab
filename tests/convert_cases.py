"""Shared helpers of the converter tests: surfaces, runs, and the incremental oracle.

Every ``test_convert*`` module builds surfaces and checks conversions with these; the
oracle (:func:`same_as_fresh`) holds an incremental conversion to a fresh walk and to
a plan of the same components.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import msgspec
from invariants import unfrozen

from a2ui_stream._convert import plans
from a2ui_stream._convert.converter import Conversion, Converter
from a2ui_stream._convert.vocabulary import validate_element
from a2ui_stream._convert.walk import Walk
from a2ui_stream._state.surface import ComponentChange, Surface
from a2ui_stream._tree.patch import DataChange
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream.a2ui import Component

if TYPE_CHECKING:
    from pathlib import Path


CONVERTER = Converter()
OUTPUTS: list[dict[str, Any]] = []  # every element produced by a test, validated at the end


def comps(*raw: dict[str, Any]) -> dict[str, Component]:
    return {c["id"]: Component(id=c["id"], component=c["component"], props=c) for c in raw}


def surface(*raw: dict[str, Any], data: Any = msgspec.UNSET, version: str = "v0.9") -> Surface:
    return Surface(surface_id="s1", version=version, components=comps(*raw), data_model=data)


def run(*raw: dict[str, Any], data: Any = msgspec.UNSET, version: str = "v0.9") -> Conversion:
    result = CONVERTER.convert(surface(*raw, data=data, version=version))
    if result.element is not None:
        assert validate_element(result.element) == []
        assert unfrozen(result.element) == []
        OUTPUTS.append(result.element)
    return result


def js(element: Any) -> str:
    return json.dumps(element, separators=(",", ":"), ensure_ascii=False)


def codes(result: Conversion) -> list[str]:
    return [w.code for w in result.warnings]


def root(component: str, **props: Any) -> dict[str, Any]:
    return {"id": "root", "component": component, **props}


def severities(result: Conversion) -> list[tuple[str, Severity]]:
    return [(w.code, w.severity) for w in result.warnings]


DEBUG, WARNING = Severity.DEBUG, Severity.WARNING


def chain(length: int) -> list[dict[str, Any]]:
    """A chain of Columns, ``length`` components deep (root at depth 0)."""
    ids = ["root"] + [f"c{i}" for i in range(1, length)]
    return [
        {"id": cid, "component": "Column", "children": ids[i + 1 : i + 2]}
        for i, cid in enumerate(ids)
    ]


def depth_of(element: dict[str, Any]) -> int:
    depth = 1
    while element.get("children"):
        element = element["children"][0]
        depth += 1
    return depth


def dashboard(rows: int, data_seed: int = 0) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A surface of cards, each with bound text, an image, a button and a template."""
    raw: list[dict[str, Any]] = [root("Column", children=[f"card{i}" for i in range(rows)])]
    for i in range(rows):
        raw += [
            {"id": f"card{i}", "component": "Card", "child": f"col{i}"},
            {
                "id": f"col{i}",
                "component": "Column",
                "children": [f"t{i}", f"img{i}", f"b{i}", f"l{i}"],
            },
            {
                "id": f"t{i}",
                "component": "Text",
                "text": {"path": f"/cards/{i}/title"},
                "variant": "h2",
            },
            {"id": f"img{i}", "component": "Image", "url": {"path": f"/cards/{i}/img"}},
            {
                "id": f"b{i}",
                "component": "Button",
                "child": f"bl{i}",
                "action": {
                    "event": {"name": "open", "context": {"i": {"path": f"/cards/{i}/title"}}}
                },
            },
            {"id": f"bl{i}", "component": "Text", "text": "Open"},
            {
                "id": f"l{i}",
                "component": "List",
                "children": {"componentId": "item", "path": f"/cards/{i}/items"},
            },
        ]
    raw.append({"id": "item", "component": "Text", "text": {"path": "name"}})
    data = {
        "cards": [
            {
                "title": f"Card {i}",
                "img": f"https://x/{i}.png",
                "items": [{"name": f"n{j}"} for j in range(3)],
            }
            for i in range(rows)
        ],
        "seed": data_seed,
    }
    return raw, data


def catalog(count: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A title over a template of product cards whose buttons also read the root model."""
    raw: list[dict[str, Any]] = [
        root("Column", children=["title", "list", "footer"]),
        {"id": "title", "component": "Text", "text": {"path": "/title"}, "variant": "h2"},
        {"id": "list", "component": "List", "children": {"componentId": "card", "path": "/items"}},
        {"id": "card", "component": "Card", "child": "row"},
        {"id": "row", "component": "Row", "children": ["name", "price", "buy"]},
        {"id": "name", "component": "Text", "text": {"path": "name"}},
        {"id": "price", "component": "Text", "text": {"path": "/price"}},  # item first
        {
            "id": "buy",
            "component": "Button",
            "child": "buyl",
            "action": {
                "event": {
                    "name": "buy",
                    "context": {"t": {"path": "/title"}, "n": {"path": "name"}},
                }
            },
        },
        {"id": "buyl", "component": "Text", "text": "Buy"},
        {
            "id": "footer",
            "component": "Text",
            "text": {"call": "formatString", "args": {"value": "${/count} items"}},
        },
    ]
    items = [{"name": f"p{i}", "price": i} for i in range(count)]
    return raw, {"title": "Shop", "count": count, "items": items}


def cells(result: Conversion) -> list[Any]:
    """The children of each item's Row, when the root is a template of Rows."""
    assert result.element is not None
    return [item["children"]["children"] for item in result.element["children"]]


def item_elements(result: Conversion) -> list[Any]:
    assert result.element is not None
    return [item.get("children") for item in result.element["children"][1]["children"]]


def tagged(count: int, tags: int = 1) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Items of data-dependent size (a nested template) and possible warnings (URLs)."""
    raw: list[dict[str, Any]] = [
        root("Column", children=["title", "list"]),
        {"id": "title", "component": "Text", "text": {"path": "/title"}},
        {"id": "list", "component": "List", "children": {"componentId": "card", "path": "/items"}},
        {"id": "card", "component": "Column", "children": ["name", "img", "tags", "buy"]},
        {"id": "name", "component": "Text", "text": {"path": "name"}},
        {"id": "img", "component": "Image", "url": {"path": "img"}, "description": "i"},
        {"id": "tags", "component": "List", "children": {"componentId": "tag", "path": "tags"}},
        {"id": "tag", "component": "Text", "text": {"path": "t"}},
        {
            "id": "buy",
            "component": "Button",
            "label": "Buy",
            "action": {"event": {"name": "buy", "context": {"t": {"path": "/title"}}}},
        },
    ]
    items = [
        {"name": f"p{i}", "img": f"https://x/{i}.png", "tags": [{"t": "a"}] * tags}
        for i in range(count)
    ]
    return raw, {"title": "Shop", "items": items}


def list_items(result: Conversion) -> list[Any]:
    """The ListViewItem elements of the ``tagged`` surface's template."""
    assert result.element is not None
    items: list[Any] = result.element["children"][1]["children"]
    return items


def wide(count: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A root Column of ``count`` cards, each reading its own row; every fourth reads the title.

    Row 5's card holds a template (data-dependent size), row 7 has an unsafe image URL
    (a warning), and the list also names a missing and an unknown component.
    """
    cards = [f"card{i}" for i in range(count)]
    raw: list[dict[str, Any]] = [
        root("Column", children=[*cards[:3], "missing", *cards[3:], "odd"]),
        {"id": "odd", "component": "Unknown"},
    ]
    for i in range(count):
        kids = [f"name{i}", f"img{i}"] + ([f"tags{i}"] if i == 5 else [])
        if i % 4 == 0:
            kids.append(f"head{i}")
        raw += [
            {"id": f"card{i}", "component": "Column", "children": kids},
            {"id": f"name{i}", "component": "Text", "text": {"path": f"/rows/{i}/name"}},
            {"id": f"img{i}", "component": "Image", "url": {"path": f"/rows/{i}/img"}},
            {"id": f"head{i}", "component": "Text", "text": {"path": "/title"}},
        ]
    raw += [
        {"id": "tags5", "component": "List", "children": {"componentId": "tag", "path": "/tags"}},
        {"id": "tag", "component": "Text", "text": {"path": "t"}},
    ]
    rows = [
        {"name": f"r{i}", "img": "javascript:x" if i == 7 else f"https://x/{i}.png"}
        for i in range(count)
    ]
    return raw, {"title": "T", "rows": rows, "tags": [{"t": "a"}], "other": 1}


def cards_of(result: Conversion) -> list[Any]:
    """The root Column's child elements."""
    assert result.element is not None
    children: list[Any] = result.element["children"]
    return children


def with_row(s: Surface, index: int, **changes: Any) -> Surface:
    """``s`` with one row's fields changed, copy-on-write as the reducer does it."""
    rows = list(s.data_model["rows"])  # type: ignore[index]
    rows[index] = {**rows[index], **changes}
    return edited(s, rows=rows)


# -- tiers: the walk, plans and patches agree -------------------------------------------


def by_plan(converter: Converter, current: Surface) -> Conversion | None:
    """What a plan of ``current``'s components gives, as the converter runs it; or ``None``."""
    plan = converter._plans.build(current)
    if plan is None:
        return None
    walk = Walk(converter._setup, current)
    element = plan.run(walk)
    if element is None:  # the plan hands the surface to the walk, as the converter does
        walk = Walk(converter._setup, current)
        element = walk.convert(current.root_id)
    return Conversion(element, walk.warnings())


def same_as_fresh(
    converter: Converter,
    current: Surface,
    previous: Conversion | None,
    known: list[Any] | None = None,
) -> Conversion:
    """Convert incrementally; check it against the walk and a plan; return it.

    ``known`` defaults to the exact claim of how the data changed since ``previous``.
    """
    if known is None:
        known = claims(previous, current)
    incremental = converter.convert(current, previous, known=known)
    fresh = Converter(limits=converter._limits).convert(current)  # a first sight: the walk
    for other in (fresh, by_plan(converter, current)):
        if other is not None:
            assert js(incremental.element) == js(other.element)
            assert incremental.warnings == other.warnings
    if incremental.element is not None:
        assert validate_element(incremental.element) == []
    return incremental


def claims(previous: Conversion | None, current: Surface) -> list[Any]:
    """The claim a reducer makes of the data paths that changed since ``previous``."""
    made = previous._made if previous is not None else None
    if made is None or made.surface.data_model is current.data_model:
        return []
    before, after = made.surface.data_model, current.data_model
    paths: list[tuple[str, ...]] = []
    data_diff(before, after, (), paths)
    return [DataChange(before, after, tuple(paths))]


def data_diff(old: Any, new: Any, path: tuple[str, ...], out: list[tuple[str, ...]]) -> None:
    """Every path where ``new`` differs from ``old`` as JSON (types and key order too)."""
    if old is new:
        return
    if type(old) is not type(new):
        out.append(path)
    elif type(old) is dict:
        if list(old) != list(new):
            out.append(path)
        else:
            for key in old:
                data_diff(old[key], new[key], (*path, key), out)
    elif type(old) is list:
        if len(old) != len(new):
            out.append(path)
        else:
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                data_diff(a, b, (*path, str(index)), out)
    elif old != new:
        out.append(path)


def edited(s: Surface, **changes: Any) -> Surface:
    data: dict[str, Any] = s.data_model  # type: ignore[assignment]  # set by the tests
    return msgspec.structs.replace(s, data_model={**data, **changes})


def converted_often(converter: Converter, s: Surface, times: int = plans.COMPILE_AT) -> Conversion:
    """``s`` converted ``times`` in a row, as the engine converts it: each conversion
    given the one before, each of a surface of its own (the data re-sent) with the
    very component set, which is what the converter compiles once it is seen often.
    """
    result = None
    for _ in range(times):
        result = converter.convert(msgspec.structs.replace(s), result)
    assert result is not None
    return result


def planned(converter: Converter, s: Surface) -> Conversion:
    """A conversion of ``s`` once the converter has a plan of its components.

    The plan made it unless the plan handed the surface to the walk (a budget ran out).
    """
    converted_often(converter, s)
    assert any(plan is not None for _, plan in converter._plans._plans.values())
    return converter.convert(s)


def column(count: int) -> list[dict[str, Any]]:
    """A root Column of ``count`` Texts."""
    return [
        root("Column", gap=2, children=[f"c{i}" for i in range(count)]),
        *({"id": f"c{i}", "component": "Text", "text": f"t{i}"} for i in range(count)),
    ]


def appended(s: Surface, *new: dict[str, Any], refs: list[str]) -> tuple[Surface, Any]:
    """``s`` with components added and ids appended to the root's children, and the claim."""
    old_root = s.components["root"]
    props = {**old_root.props, "children": [*old_root.props["children"], *refs]}
    components = {
        **s.components,
        "root": Component(id="root", component=old_root.component, props=props),
        **comps(*new),
    }
    change = ComponentChange(s.components, components, frozenset({"root", *comps(*new)}))
    return msgspec.structs.replace(s, components=components), change


class SchemaValidator:
    """Validates each element of a tree with jsonschema against the shared vocabulary file."""

    def __init__(self, path: Path) -> None:
        import jsonschema  # noqa: PLC0415 (test-only dependency)

        schemas = json.loads(path.read_text())["components"]
        self.validators = {name: jsonschema.Draft202012Validator(s) for name, s in schemas.items()}

    def problems(self, element: Any) -> list[str]:
        out: list[str] = []
        stack = [element]
        while stack:
            node = stack.pop()
            props = {
                k: v
                for k, v in node.items()
                if k not in {"$type", "$action", "$key", "$status", "children"}
            }
            validator = self.validators.get(node["$type"])
            if validator is None:
                out.append(f"unknown $type {node['$type']}")
                continue
            out.extend(e.message for e in validator.iter_errors(props))
            children = node.get("children", [])
            stack.extend(children if isinstance(children, list) else [children])
        return out
