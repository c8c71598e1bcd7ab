"""Tests for the vocabulary tables and validator, against the shared JSON Schemas."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from a2ui_stream._convert.vocabulary import (
    ELEMENT_TYPES,
    ICON_FROM_A2UI,
    ICON_NAMES,
    validate_element,
)

if TYPE_CHECKING:
    from pathlib import Path

#: Valid example props per type (required ones at least); every type appears once.
VALID: dict[str, dict[str, Any]] = {
    "Header": {"text": "h", "size": "2xl"},
    "Text": {"value": "v", "size": "sm", "weight": "bold", "color": "white-50"},
    "Caption": {"value": "c"},
    "Markdown": {"value": "m"},
    "Image": {"src": "s", "alt": "", "size": 12.5, "round": False},
    "Divider": {"flush": True},
    "Fact": {"label": "l", "value": "v"},
    "Button": {"label": "b", "buttonStyle": "ghost", "block": True, "submit": False},
    "Select": {"options": [{"label": "a", "value": "a"}], "placeholder": "p", "name": "n"},
    "Input": {"placeholder": "p", "multiline": True, "label": "l", "name": "n"},
    "DatePicker": {"value": "2026-01-01", "min": "a", "max": "b", "label": "l", "name": "n"},
    "Checkbox": {"label": "c", "name": "n", "defaultChecked": True},
    "RadioGroup": {"options": [], "name": "n", "label": "l", "defaultValue": "x"},
    "Form": {"gap": 0},
    "Card": {
        "title": "t",
        "padding": 8,
        "background": "b",
        "asForm": True,
        "confirm": {"label": "ok", "$action": {"type": "x", "extra": 1}},
        "cancel": {"label": "no"},
    },
    "Col": {"gap": 2.5, "align": "end"},
    "Row": {"gap": 1, "align": "center", "justify": "between"},
    "Spacer": {},
    "Badge": {"value": "v", "variant": "anything"},
    "Box": {"width": "10px", "height": 3, "radius": "full", "background": "b"},
    "ListView": {},
    "ListViewItem": {},
    "Table": {"columns": [{"label": "a"}], "rows": [["x", 1, True]]},
    "Chart": {
        "variant": "area",
        "data": [{"value": 1}],
        "series": [{"label": "s", "data": [{"label": "a", "value": 2}]}],
        "stacked": True,
        "showAxis": False,
        "showLegend": True,
        "color": "red",
    },
    "Alert": {"title": "t", "description": "d", "tone": "danger"},
    "Carousel": {"label": "l"},
    "Icon": {"name": "arrow-up-right", "size": "lg"},
}

#: Invalid props, one mistake each.
INVALID: list[tuple[str, dict[str, Any]]] = [
    ("Header", {}),
    ("Header", {"text": "h", "level": 1}),
    ("Header", {"text": "h", "size": "xxl"}),
    ("Text", {"value": 1}),
    ("Image", {"src": "s"}),
    ("Image", {"src": "s", "alt": "", "size": "xl"}),
    ("Image", {"src": "s", "alt": "", "size": True}),
    ("Row", {"justify": "spaceBetween"}),
    ("Row", {"gap": 9}),
    ("Col", {"gap": -1}),
    ("Col", {"justify": "center"}),
    ("Card", {"padding": "2"}),
    ("Card", {"confirm": {"label": "x", "other": 1}}),
    ("Card", {"cancel": {"label": "x", "$action": {}}}),
    ("Button", {}),
    ("Button", {"label": "b", "buttonStyle": "default"}),
    ("Checkbox", {"name": "n"}),
    ("Select", {"options": [{"label": "a"}]}),
    ("RadioGroup", {"options": [{"label": "a", "value": 1}]}),
    ("Box", {"radius": "half"}),
    ("Table", {"rows": [[{}]]}),
    ("Chart", {"variant": "pie"}),
    ("Chart", {"variant": "bar", "data": [{"label": "x"}]}),
    ("Alert", {"tone": "error"}),
    ("Icon", {"name": "home"}),
    ("Divider", {"flush": 1}),
    ("Spacer", {"x": 1}),
]


@pytest.fixture
def schemas(vocabulary_path: Path) -> dict[str, Any]:
    components: dict[str, Any] = json.loads(vocabulary_path.read_text())["components"]
    return components


def jsonschema_ok(schema: dict[str, Any], props: dict[str, Any]) -> bool:
    import jsonschema  # noqa: PLC0415 (test-only dependency)

    return bool(jsonschema.Draft202012Validator(schema).is_valid(props))


class TestTables:
    def test_same_types_as_the_schemas(self, schemas: dict[str, Any]) -> None:
        """The tables hold exactly the 27 element types of the shared file."""
        assert set(ELEMENT_TYPES) == set(schemas)
        assert len(ELEMENT_TYPES) == 27

    def test_same_props_and_required(self, schemas: dict[str, Any]) -> None:
        """Each type has the schema's props and required list."""
        for name, schema in schemas.items():
            ours = ELEMENT_TYPES[name]
            assert set(ours.props) == set(schema["properties"]), name
            assert set(ours.required) == set(schema.get("required", [])), name

    def test_icon_names_match(self, schemas: dict[str, Any]) -> None:
        """The icon names are the schema's enum, and every mapping lands on one of them."""
        assert list(ICON_NAMES) == schemas["Icon"]["properties"]["name"]["enum"]
        assert set(ICON_FROM_A2UI.values()) <= set(ICON_NAMES)

    def test_every_type_has_a_valid_example(self) -> None:
        """The examples below cover every type."""
        assert set(VALID) == set(ELEMENT_TYPES)


class TestValidateElement:
    @pytest.mark.parametrize("name", sorted(VALID))
    def test_valid_examples_agree_with_jsonschema(self, name: str, schemas: dict[str, Any]) -> None:
        """A valid element has no problems, and jsonschema agrees."""
        props = VALID[name]
        assert jsonschema_ok(schemas[name], props)
        assert validate_element({"$type": name, **props}) == []

    @pytest.mark.parametrize(("name", "props"), INVALID, ids=str)
    def test_invalid_examples_agree_with_jsonschema(
        self, name: str, props: dict[str, Any], schemas: dict[str, Any]
    ) -> None:
        """An invalid element has a problem, and jsonschema agrees."""
        assert not jsonschema_ok(schemas[name], props)
        assert validate_element({"$type": name, **props}) != []

    def test_children_are_checked(self) -> None:
        """Problems deep in the tree are reported with where they are."""
        tree = {
            "$type": "Row",
            "children": [
                {"$type": "Divider"},
                {
                    "$type": "ListView",
                    "children": [
                        {"$type": "ListViewItem", "children": {"$type": "Image", "src": "s"}}
                    ],
                },
            ],
        }
        (problem,) = validate_element(tree)
        assert "children[1]" in problem
        assert "'alt'" in problem

    def test_reserved_keys_are_not_props(self) -> None:
        """$action, $key and $status are not props; $action needs a type."""
        ok = {
            "$type": "Button",
            "label": "b",
            "$key": "k",
            "$status": "x",
            "$action": {"type": "t"},
        }
        assert validate_element(ok) == []
        assert validate_element({**ok, "$action": {"name": "n"}}) != []

    def test_unknown_type_and_non_object(self) -> None:
        """An unknown $type and a non-object element are problems."""
        assert validate_element({"$type": "Blink"}) != []
        assert validate_element(["x"]) != []
