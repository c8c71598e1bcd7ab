"""Tests for component catalogs, the basic catalogs and the schema context entry."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import jsonschema
import msgspec
import pytest

from a2ui_stream._request.guide import GUIDE_EXAMPLE, SCHEMA_CONTEXT_DESCRIPTION
from a2ui_stream.catalog import BASIC_CATALOG_IDS, Catalog, basic_catalog, catalog_context
from a2ui_stream.errors import UsageError
from a2ui_stream.events import Context

if TYPE_CHECKING:
    from pathlib import Path

BASIC_COMPONENTS = {
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Modal",
    "Divider",
    "Button",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
}
VERSIONS = ("v0.9", "v1.0")
SCHEMA_DESCRIPTION_BYTES = (
    b"A2UI Component Schema \xe2\x80\x94 available components for generating UI surfaces. "
    b"Use these component names and properties when creating A2UI operations."
)
SMALL = (
    b'{"catalogId":"https://example.com/catalog.json","protocolVersion":"1.0",'
    b'"components":{"Card":{"type":"object","properties":{"component":{"const":"Card"}}}}}'
)


def component_errors(catalog: Catalog, component: dict[str, Any]) -> list[str]:
    """Validate one component against its schema, resolved inside the catalog document."""
    name = component.get("component")
    if name not in catalog.components:
        return [f"unknown component {name!r}"]
    document = {**catalog.to_dict(), "$ref": f"#/components/{name}"}
    validator = jsonschema.Draft202012Validator(document)
    return [error.message for error in validator.iter_errors(component)]


def sample_components(path: Path) -> list[dict[str, Any]]:
    """Every component of every updateComponents/createSurface message in a sample file."""
    text = path.read_text()
    try:
        document: Any = json.loads(text)
    except json.JSONDecodeError:
        document = [json.loads(line) for line in text.splitlines() if line.strip()]
    messages = document.get("messages", []) if isinstance(document, dict) else document
    found: list[dict[str, Any]] = []
    for message in messages:
        for kind in ("updateComponents", "createSurface"):
            body = message.get(kind) if isinstance(message, dict) else None
            if isinstance(body, dict):
                found.extend(body.get("components") or [])
    return found


class TestBasicCatalog:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_all_eighteen_components(self, version: str) -> None:
        """Each basic catalog holds exactly the 18 basic components."""
        assert set(basic_catalog(version).components) == BASIC_COMPONENTS

    @pytest.mark.parametrize("version", VERSIONS)
    def test_catalog_id(self, version: str) -> None:
        """The catalog id is the spec's basic catalog id for that version."""
        folder = version.replace(".", "_")
        expected = f"https://a2ui.org/specification/{folder}/catalogs/basic/catalog.json"
        assert basic_catalog(version).catalog_id == expected == BASIC_CATALOG_IDS[version]

    def test_protocol_version(self) -> None:
        """v1.0 announces protocolVersion 1.0; v0.9 leaves it out, meaning 0.9."""
        assert basic_catalog("v1.0").protocol_version == "1.0"
        assert "protocolVersion" not in basic_catalog("v0.9").to_dict()

    @pytest.mark.parametrize("version", ["v0.8", "v1.1", "1.0", ""])
    def test_unknown_version(self, version: str) -> None:
        """A version without a basic catalog here is refused with a clear error."""
        with pytest.raises(UsageError, match="no basic catalog"):
            basic_catalog(version)

    @pytest.mark.parametrize("version", VERSIONS)
    def test_schemas_are_valid_json_schema(self, version: str) -> None:
        """The whole document, and so every component schema in it, is valid JSON Schema."""
        document = basic_catalog(version).to_dict()
        jsonschema.Draft202012Validator.check_schema(document)
        for name in BASIC_COMPONENTS:
            jsonschema.Draft202012Validator.check_schema(document["components"][name])

    @pytest.mark.parametrize(
        ("name", "required"),
        [
            ("Text", ["component", "id", "text"]),
            ("Button", ["component", "id", "child", "action"]),
            ("Slider", ["component", "id", "max", "value"]),
            ("ChoicePicker", ["component", "id", "options", "value"]),
            ("Modal", ["component", "id", "trigger", "content"]),
            ("Divider", ["component", "id"]),
            ("CheckBox", ["component", "id", "label", "value"]),
        ],
    )
    def test_required_props(self, name: str, required: list[str]) -> None:
        """Required props follow the protocol's property table in both versions."""
        for version in VERSIONS:
            assert basic_catalog(version).components[name]["required"] == required

    def test_version_differences(self) -> None:
        """The v1.0 rows of the table differ from v0.9 where the protocol says so."""
        v09, v10 = basic_catalog("v0.9").components, basic_catalog("v1.0").components
        assert "h1" in v09["Text"]["properties"]["variant"]["enum"]
        assert v10["Text"]["properties"]["variant"]["enum"] == ["caption", "body"]
        assert "placeholder" in v10["TextField"]["properties"]
        assert "placeholder" not in v09["TextField"]["properties"]
        assert "validationRegexp" in v09["TextField"]["properties"]
        assert "validationRegexp" not in v10["TextField"]["properties"]
        assert "posterUrl" in v10["Video"]["properties"]
        assert "steps" in v10["Slider"]["properties"]
        assert "steps" not in v09["Slider"]["properties"]

    def test_fresh_value_each_call(self) -> None:
        """Every call builds a new, equal catalog."""
        first, second = basic_catalog("v1.0"), basic_catalog("v1.0")
        assert first == second
        assert first is not second
        assert first.components is not second.components

    @pytest.mark.parametrize("version", VERSIONS)
    def test_guide_example_is_valid(self, version: str) -> None:
        """The usage guide's example validates and its root and child ids resolve."""
        catalog = basic_catalog(version)
        components = GUIDE_EXAMPLE["components"]
        ids = [component["id"] for component in components]
        assert len(ids) == len(set(ids))
        assert "root" in ids
        for component in components:
            assert component_errors(catalog, component) == []
            children = component.get("children")
            referenced = (
                children
                if isinstance(children, list)
                else [children["componentId"]]
                if isinstance(children, dict)
                else []
            )
            referenced += [component[key] for key in ("child",) if key in component]
            assert set(referenced) <= set(ids)

    @pytest.mark.parametrize(
        ("version", "component"),
        [
            ("v1.0", {"id": "t", "component": "Text", "text": "x", "variant": "h1"}),
            ("v0.9", {"id": "b", "component": "Button", "child": "l"}),
            ("v0.9", {"id": "t", "component": "Text", "text": "x", "colour": "red"}),
            ("v0.9", {"id": "c", "component": "Column", "children": {"componentId": "x"}}),
            ("v1.0", {"id": "i", "component": "Icon", "name": "unicorn"}),
        ],
    )
    def test_invalid_components_fail(self, version: str, component: dict[str, Any]) -> None:
        """Components that break the property table do not validate."""
        assert component_errors(basic_catalog(version), component) != []

    @pytest.mark.parametrize("version", VERSIONS)
    def test_spec_samples_validate(self, samples_dir: Path, version: str) -> None:
        """Every basic component of the spec's own sample messages validates."""
        catalog = basic_catalog(version)
        prefix = version.replace(".", "_")
        checked = 0
        for path in sorted(samples_dir.glob(f"{prefix}__*")):
            for component in sample_components(path):
                if component.get("component") in BASIC_COMPONENTS:
                    assert component_errors(catalog, component) == [], (path.name, component)
                    checked += 1
        assert checked > 100


class TestCatalog:
    def test_from_json(self) -> None:
        """A catalog document decodes with its fields in snake case."""
        catalog = Catalog.from_json(SMALL)
        assert catalog.catalog_id == "https://example.com/catalog.json"
        assert catalog.protocol_version == "1.0"
        assert set(catalog.components) == {"Card"}

    def test_round_trip_bytes(self) -> None:
        """A compact document in wire key order re-encodes byte for byte."""
        assert Catalog.from_json(SMALL).to_json() == SMALL
        assert Catalog.from_json(SMALL.decode()).to_json() == SMALL

    def test_round_trip_basic(self) -> None:
        """A basic catalog survives to_json and from_json unchanged."""
        catalog = basic_catalog("v0.9")
        assert Catalog.from_json(catalog.to_json()) == catalog
        assert Catalog.from_dict(catalog.to_dict()) == catalog

    def test_key_order(self) -> None:
        """$-keys come first, then catalogId, the descriptive keys, components, functions."""
        catalog = Catalog(
            catalog_id="c",
            components={"A": {}},
            functions={"f": {}},
            instructions="be nice",
            title="T",
            schema="https://json-schema.org/draft/2020-12/schema",
            id="c",
        )
        assert list(catalog.to_dict()) == [
            "$schema",
            "$id",
            "catalogId",
            "title",
            "instructions",
            "components",
            "functions",
        ]

    def test_functions_list_form(self) -> None:
        """A v0.9-style list of functions is kept as given."""
        document = {"catalogId": "c", "components": {}, "functions": [{"name": "f"}]}
        assert Catalog.from_dict(document).to_dict() == document

    @pytest.mark.parametrize(
        ("document", "reason"),
        [
            (b"{not json", "not a catalog"),
            (b'{"components":{}}', "catalogId"),
            (b'{"catalogId":"c"}', "components"),
            (b'{"catalogId":"","components":{}}', "non-empty catalogId"),
            (b'{"catalogId":"c","components":{},"colour":"red"}', "colour"),
            (b'{"catalogId":"c","components":{"A":3}}', "components"),
            (b"[]", "not a catalog"),
        ],
    )
    def test_bad_documents(self, document: bytes, reason: str) -> None:
        """A document that is not a catalog is refused, naming what is wrong."""
        with pytest.raises(UsageError, match=reason):
            Catalog.from_json(document)

    def test_from_dict_bad(self) -> None:
        """from_dict refuses a non-catalog mapping with a UsageError."""
        with pytest.raises(UsageError, match="catalogId"):
            Catalog.from_dict({"components": {}})

    def test_empty_id_on_construction(self) -> None:
        """Building a catalog with an empty id by hand is refused too."""
        with pytest.raises(UsageError):
            Catalog(catalog_id="", components={})

    def test_to_dict_is_fresh(self) -> None:
        """to_dict returns a new dict each call."""
        catalog = Catalog.from_json(SMALL)
        first = catalog.to_dict()
        first["catalogId"] = "changed"
        assert catalog.to_dict()["catalogId"] == "https://example.com/catalog.json"


class TestCatalogContext:
    def test_description_bytes(self) -> None:
        """The description is upstream's, byte for byte, with a U+2014 em dash."""
        entry = catalog_context(Catalog.from_json(SMALL))
        assert entry.description.encode() == SCHEMA_DESCRIPTION_BYTES
        assert SCHEMA_CONTEXT_DESCRIPTION.encode() == SCHEMA_DESCRIPTION_BYTES
        assert "\u2014" in entry.description

    def test_value_is_compact_catalog(self) -> None:
        """The value is the catalog's compact JSON with catalogId and components on top."""
        catalog = Catalog.from_json(SMALL)
        entry = catalog_context(catalog)
        assert isinstance(entry, Context)
        assert entry.value.encode() == SMALL
        parsed = json.loads(entry.value)
        assert parsed["catalogId"] == "https://example.com/catalog.json"
        assert set(parsed["components"]) == {"Card"}

    @pytest.mark.parametrize("version", VERSIONS)
    def test_basic_value(self, version: str) -> None:
        """A basic catalog's entry carries its id and all components, in compact JSON."""
        entry = catalog_context(basic_catalog(version))
        parsed = json.loads(entry.value)
        assert parsed["catalogId"] == BASIC_CATALOG_IDS[version]
        assert set(parsed["components"]) == BASIC_COMPONENTS
        assert entry.value.encode() == msgspec.json.encode(parsed)
