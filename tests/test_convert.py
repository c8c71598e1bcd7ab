"""Tests for the converter's output: upstream's table byte for byte, our rows, the schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import pytest

from a2ui_stream._state.surface import Surface
from a2ui_stream._wire.diagnostics import Severity

if TYPE_CHECKING:
    from pathlib import Path


from convert_cases import (
    CONVERTER,
    OUTPUTS,
    SchemaValidator,
    codes,
    comps,
    js,
    root,
    run,
    surface,
)
from convert_rows import OUR_ROWS, UPSTREAM_ROWS


def _case_id(case: tuple[Any, ...]) -> str:
    return str(case[0])


class TestUpstreamTable:
    @pytest.mark.parametrize("case", UPSTREAM_ROWS, ids=_case_id)
    def test_row_is_byte_identical(self, case: tuple[str, list[dict[str, Any]], Any, str]) -> None:
        """Each row of upstream's table gives upstream's compact JSON, key order included."""
        _, raw, data, expected = case
        result = run(*raw, data=msgspec.UNSET if data is None else data)
        assert js(result.element) == expected

    def test_unknown_component_warns(self) -> None:
        """An unknown component is a warning naming the type and the id (upstream: debug)."""
        result = run(root("Row", children=["u"]), {"id": "u", "component": "Fancy"})
        (warning,) = result.warnings
        assert warning.severity is Severity.WARNING
        assert warning.component_id == "u"
        assert warning.surface_id == "s1"
        assert (
            warning.message
            == 'Unknown A2UI component "Fancy" (id "u") was skipped, with its children.'
        )
        assert result.element == {"$type": "Row"}

    def test_unknown_component_warns_once_per_type(self) -> None:
        """Many components of one unknown type: one warning; another type: its own."""
        kids = [f"u{i}" for i in range(50)]
        result = run(
            root("Column", children=[*kids, "v"]),
            *({"id": kid, "component": "Fancy"} for kid in kids),
            {"id": "v", "component": "Odd"},
        )
        assert [(w.code, w.component_id) for w in result.warnings] == [
            ("convert.unknown_component", "u0"),
            ("convert.unknown_component", "v"),
        ]

    def test_unknown_root_gives_no_element(self) -> None:
        """An unknown root component leaves nothing to show, and says so."""
        result = run(root("Fancy"))
        assert result.element is None
        (warning,) = result.warnings
        assert warning.severity is Severity.WARNING
        assert warning.message == (
            'The root component "root" is of unknown type "Fancy": the surface draws nothing.'
        )

    def test_no_root_warns(self) -> None:
        """A surface without its root component gives no element and a warning."""
        result = run({"id": "x", "component": "Divider"})
        assert result.element is None
        assert codes(result) == ["convert.root_missing"]

    def test_root_not_told_gives_nothing(self) -> None:
        """A v0.8 surface without beginRendering has no root and no warning."""
        s = Surface(surface_id="s", version="v0.8", components=comps(root("Divider")), root_id=None)
        result = CONVERTER.convert(s)
        assert (result.element, result.warnings) == (None, ())

    def test_template_checked_before_the_whitelist(self) -> None:
        """Any component with template children becomes a ListView, whatever its type."""
        result = run(root("Fancy", children={"componentId": "t", "path": "/xs"}), data={"xs": []})
        assert result.element == {"$type": "ListView", "children": []}

    def test_malformed_child_reference(self) -> None:
        """A non-string child id is skipped with a warning."""
        result = run(root("Row", children=[5]))
        assert result.element == {"$type": "Row"}
        assert codes(result) == ["convert.child_malformed"]

    def test_template_not_list_warns(self) -> None:
        """A template over a non-list warns."""
        result = run(
            root("Row", children={"componentId": "t", "path": "/x"}),
            {"id": "t", "component": "Divider"},
            data={"x": {"a": 1}},
        )
        assert codes(result) == ["convert.template_not_list"]

    def test_template_over_map_in_v08(self) -> None:
        """A v0.8 template over a map expands its values in order."""
        result = run(
            root("List", children={"template": {"componentId": "t", "path": "/m"}}),
            {"id": "t", "component": "Text", "text": {"path": "/n"}},
            data={"m": {"k1": {"n": "a"}, "k2": {"n": "b"}}},
            version="v0.8",
        )
        assert js(result.element).count("ListViewItem") == 2
        assert result.warnings == ()

    def test_nested_template_resolves_relative_to_the_item(self) -> None:
        """A template inside a template reads the outer item."""
        result = run(
            root("List", children={"componentId": "outer", "path": "/groups"}),
            {"id": "outer", "component": "List", "children": {"componentId": "t", "path": "xs"}},
            {"id": "t", "component": "Text", "text": {"path": "/n"}},
            data={"groups": [{"xs": [{"n": "a"}]}, {"xs": [{"n": "b"}, {"n": "c"}]}]},
        )
        assert js(result.element).count('"Markdown"') == 3


class TestOurRows:
    @pytest.mark.parametrize("case", OUR_ROWS, ids=_case_id)
    def test_row(self, case: tuple[str, list[dict[str, Any]], Any, str]) -> None:
        """Each of our mapping rows gives the documented element."""
        _, raw, data, expected = case
        result = run(*raw, data=msgspec.UNSET if data is None else data)
        assert js(result.element) == expected
        assert result.warnings == ()


class TestEveryOutputIsValid:
    def test_all_rows_validate_with_jsonschema(self, vocabulary_path: Path) -> None:
        """Every element of every table row validates against the shared JSON Schemas."""
        validator = SchemaValidator(vocabulary_path)
        elements = []
        for _, raw, data, _expected in UPSTREAM_ROWS + OUR_ROWS:
            result = CONVERTER.convert(surface(*raw, data=msgspec.UNSET if data is None else data))
            assert result.element is not None
            elements.append(result.element)
        for element in elements + OUTPUTS:
            assert validator.problems(element) == []
