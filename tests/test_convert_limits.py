"""Tests for the converter's limits: depth, cycles, node and work budgets, items, strings."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from convert_cases import (
    CONVERTER,
    chain,
    codes,
    depth_of,
    js,
    root,
    run,
    surface,
)

from a2ui_stream._convert.converter import Converter
from a2ui_stream._state.surface import Surface
from a2ui_stream._wire.limits import Limits
from a2ui_stream.a2ui import Component


class TestLimits:
    @pytest.mark.parametrize(
        ("length", "emitted", "warned"), [(31, 31, False), (32, 32, False), (33, 32, True)]
    )
    def test_depth(self, length: int, emitted: int, warned: bool) -> None:
        """Depth 32 is dropped with its subtree; its parent is kept; one warning."""
        result = run(*chain(length))
        assert result.element is not None
        assert depth_of(result.element) == emitted
        assert ("convert.depth_cap" in codes(result)) is warned

    @pytest.mark.parametrize(
        ("count", "items", "warned"), [(99, 99, False), (100, 100, False), (101, 100, True)]
    )
    def test_template_items(self, count: int, items: int, warned: bool) -> None:
        """Templates expand at most 100 items, warning once beyond."""
        result = run(
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Divider"},
            data={"xs": list(range(count))},
        )
        assert result.element is not None
        assert len(result.element["children"]) == items
        assert codes(result) == (["convert.template_cap"] if warned else [])

    @pytest.mark.parametrize(
        ("total", "children", "warned"),
        [(4999, 4998, False), (5000, 4999, False), (5001, 4999, True)],
    )
    def test_nodes(self, total: int, children: int, warned: bool) -> None:
        """The budget counts every element, the root included: 5001 nodes keep 4999 Dividers."""
        dividers = [{"id": f"d{i}", "component": "Divider"} for i in range(total - 1)]
        result = run(root("Row", children=[d["id"] for d in dividers]), *dividers)
        assert result.element is not None
        assert len(result.element["children"]) == children
        assert codes(result) == (["convert.node_budget"] if warned else [])

    def test_budget_counts_template_items(self) -> None:
        """ListView and ListViewItem count against the budget."""
        converter = Converter(limits=Limits(max_nodes=4))
        result = converter.convert(
            surface(
                root("List", children={"componentId": "t", "path": "/xs"}),
                {"id": "t", "component": "Divider"},
                data={"xs": [1, 2, 3]},
            )
        )
        assert js(result.element) == (
            '{"$type":"ListView","children":[{"$type":"ListViewItem","children":{"$type":"Divider"}},'
            '{"$type":"ListViewItem"}]}'
        )

    def test_cycle_is_dropped_every_time(self) -> None:
        """A cycle drops the repeated child with a warning; a DAG reuse is fine."""
        result = run(
            root("Row", children=["a", "b", "b"]),
            {"id": "a", "component": "Column", "children": ["root"]},
            {"id": "b", "component": "Divider"},
        )
        assert js(result.element) == (
            '{"$type":"Row","children":[{"$type":"Col"},{"$type":"Divider"},{"$type":"Divider"}]}'
        )
        assert codes(result) == ["convert.cycle"]

    def test_million_components_bounded(self) -> None:
        """A million-component surface converts reading a bounded number of components."""
        reads = []

        class Lazy(Mapping[str, Component]):
            def __getitem__(self, key: str) -> Component:
                reads.append(key)
                if key == "root":
                    ids = [f"d{i}" for i in range(1_000_000)]
                    return Component(id="root", component="Row", props={"children": ids})
                return Component(id=key, component="Divider", props={})

            def __len__(self) -> int:
                return 1_000_001

            def __iter__(self) -> Iterator[str]:
                raise AssertionError("the converter must not iterate all components")

            def __contains__(self, key: object) -> bool:
                return True

        result = CONVERTER.convert(Surface(surface_id="s", version="v0.9", components=Lazy()))
        assert result.element is not None
        assert len(result.element["children"]) == 4999
        assert len(reads) < 5010

    def test_million_missing_children_bounded(self) -> None:
        """References that emit nothing are bounded too."""
        ids = [f"x{i}" for i in range(1_000_000)]
        result = run(root("Row", children=ids))
        assert result.element == {"$type": "Row"}
        assert len(result.warnings) <= 4 * 5000 + 2
        assert codes(result)[-1] == "convert.work_budget"

    def test_template_over_million_items_bounded(self) -> None:
        """A template over a million items expands 100."""
        result = run(
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Text", "text": {"path": "/"}},
            data={"xs": [str(i) for i in range(1_000_000)]},
        )
        assert result.element is not None
        assert len(result.element["children"]) == 100

    def test_convert_never_raises(self) -> None:
        """An internal failure becomes a None element and a convert.failed warning."""

        class Broken(Mapping[str, Component]):
            def __getitem__(self, key: str) -> Component:
                raise RuntimeError("boom")

            def __len__(self) -> int:
                return 1

            def __iter__(self) -> Iterator[str]:
                return iter(["root"])

            def __contains__(self, key: object) -> bool:
                return True

        result = CONVERTER.convert(Surface(surface_id="s", version="v0.9", components=Broken()))
        assert result.element is None
        assert [w.code for w in result.warnings] == ["convert.failed"]
