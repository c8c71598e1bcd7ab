"""Tests for A2UI message decoding and normalisation, every version."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
import pytest
from a2ui_samples import load_sample_messages
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET

from a2ui_stream._wire import a2ui as a2ui_wire
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream.a2ui import (
    AgentFunctionResponse,
    BeginRendering,
    CallRendererFunction,
    Component,
    CreateSurface,
    DeleteSurface,
    UpdateComponents,
    UpdateDataModel,
    decode_operation,
    normalize_message,
)

if TYPE_CHECKING:
    from pathlib import Path

ENCODER = msgspec.json.Encoder()


def both(message: Any, index: Any = 0) -> Any:
    """Decode through both entry points, check they agree, return the result."""
    from_bytes = decode_operation(ENCODER.encode(message), index=index)
    from_object = normalize_message(message, index=index)
    assert from_bytes == from_object
    return from_bytes


def error(message: Any, code: Any, index: Any = 0) -> Any:
    """Decode and check the result is an ERROR diagnostic with the given code."""
    result = both(message, index)
    assert isinstance(result, Diagnostic), result
    assert result.code == code, result
    assert result.severity is Severity.ERROR
    assert result.path is not None
    assert result.path.startswith(f"$[{index}]")
    return result


def v09(key: str, **payload: Any) -> dict[str, Any]:
    return {"version": "v0.9", key: payload}


def v10(key: str, **payload: Any) -> dict[str, Any]:
    return {"version": "v1.0", key: payload}


class TestVersions:
    @pytest.mark.parametrize(
        ("version", "family"),
        [("v0.9", "v0.9"), ("v0.9.1", "v0.9"), ("v1.0", "v1.0"), ("v0.10", "v1.0")],
    )
    def test_version_strings(self, version: Any, family: Any) -> None:
        """Each known version string maps to its family."""
        op = both({"version": version, "createSurface": {"surfaceId": "s", "catalogId": "c"}})
        assert op == CreateSurface(surface_id="s", version=family, catalog_id="c")

    def test_absent_version_with_v09_keys_is_lenient(self) -> None:
        """A v0.9-shaped message without ``version`` is accepted as v0.9."""
        op = both({"createSurface": {"surfaceId": "s"}})
        assert op == CreateSurface(surface_id="s", version="v0.9")

    def test_absent_version_with_v08_keys_is_v08(self) -> None:
        """v0.8 keys without ``version`` are v0.8."""
        op = both({"beginRendering": {"surfaceId": "s", "root": "r"}})
        assert op == BeginRendering(surface_id="s", root="r")

    @pytest.mark.parametrize("version", ["v2.0", "0.9", 9, None])
    def test_unsupported_version(self, version: Any) -> None:
        """Unknown or non-string versions are refused."""
        error({"version": version, "deleteSurface": {"surfaceId": "s"}}, "op.unsupported_version")

    def test_v08_key_under_v09_version_is_unknown(self) -> None:
        """A v0.8 operation key is not a v0.9 operation."""
        result = error(v09("surfaceUpdate", surfaceId="s", components=[]), "op.unknown")
        assert "not part of A2UI v0.9" in result.message

    def test_v10_only_key_under_v09_is_unknown(self) -> None:
        """callRendererFunction exists only from v1.0."""
        error(
            v09("callRendererFunction", functionCallId="f", callFunction={"call": "x"}),
            "op.unknown",
        )


class TestEnvelope:
    def test_no_operation_key(self) -> None:
        """A message with only ``version`` has no operation."""
        error({"version": "v0.9"}, "op.no_operation")

    def test_two_operation_keys(self) -> None:
        """Two operation keys in one message are refused."""
        message = {
            "version": "v0.9",
            "deleteSurface": {"surfaceId": "a"},
            "createSurface": {"surfaceId": "b"},
        }
        error(message, "op.multiple_operations")

    def test_extra_top_level_key(self) -> None:
        """An unknown key beside an operation breaks the one-key rule."""
        error({**v09("deleteSurface", surfaceId="a"), "extra": 1}, "op.multiple_operations")

    @pytest.mark.parametrize("key", ["action", "clientEvent", "error"])
    def test_unknown_operation(self, key: Any) -> None:
        """Non-protocol and renderer-to-agent keys are unknown operations."""
        result = error({"version": "v0.9", key: {"name": "x"}}, "op.unknown", index=4)
        assert key in result.message
        assert "index 4" in result.message

    @pytest.mark.parametrize("payload", [None, [], "s", 3])
    def test_payload_not_object(self, payload: Any) -> None:
        """A payload that is not an object is malformed."""
        error({"version": "v0.9", "deleteSurface": payload}, "op.malformed")

    @pytest.mark.parametrize("payload", [{}, {"surfaceId": ""}, {"surfaceId": 5}])
    def test_no_surface_id(self, payload: Any) -> None:
        """A missing, empty or non-string surfaceId is refused."""
        result = error({"version": "v0.9", "updateComponents": payload}, "op.no_surface_id")
        assert result.path == "$[0].updateComponents.surfaceId"

    def test_unknown_payload_field_is_warning(self) -> None:
        """Unknown payload fields are dropped with a warning; the operation is kept."""
        op = both(v09("deleteSurface", surfaceId="s", bogus=1))
        assert isinstance(op, DeleteSurface)
        assert [w.code for w in op.warnings] == ["op.unknown_field"]
        assert op.warnings[0].severity is Severity.WARNING

    def test_wrong_field_type_is_malformed(self) -> None:
        """A known field of the wrong type makes the payload malformed."""
        error(v09("createSurface", surfaceId="s", catalogId=7), "op.malformed")

    def test_invalid_json(self) -> None:
        """Bytes that are not JSON give ``op.invalid_json`` with the raw prefix."""
        result = decode_operation(b'{"version": "v0.9", "deleteSurface": {', index=2)
        assert isinstance(result, Diagnostic)
        assert result.code == "op.invalid_json"
        assert result.raw is not None
        assert result.raw.startswith(b'{"version"')

    def test_invalid_json_after_unknown_key(self) -> None:
        """Broken JSON after an early unknown key is still reported as invalid JSON."""
        result = decode_operation(b'{"zzz": 1, "deleteSurface": {', index=0)
        assert isinstance(result, Diagnostic)
        assert result.code == "op.invalid_json"

    @pytest.mark.parametrize("raw", [b"[]", b"1", b'"x"', b"null"])
    def test_not_an_object(self, raw: Any) -> None:
        """JSON that is not an object is malformed."""
        result = decode_operation(raw, index=0)
        assert isinstance(result, Diagnostic)
        assert result.code == "op.malformed"

    def test_normalize_non_mapping(self) -> None:
        """``normalize_message`` reports a non-mapping instead of raising."""
        result = normalize_message([1, 2], index=1)  # type: ignore[arg-type]
        assert isinstance(result, Diagnostic)
        assert result.code == "op.malformed"

    def test_raw_input(self) -> None:
        """A ``msgspec.Raw`` field decodes like bytes."""
        raw = msgspec.Raw(ENCODER.encode(v09("deleteSurface", surfaceId="s")))
        assert decode_operation(raw, index=0) == DeleteSurface(surface_id="s")


class TestComponents:
    def test_v09_props_is_the_object(self) -> None:
        """A v0.9 component keeps its JSON object as props, id and component included."""
        raw = {"id": "root", "component": "Text", "text": {"path": "/t"}}
        op = both(v09("updateComponents", surfaceId="s", components=[raw]))
        assert op == UpdateComponents(
            surface_id="s", components=(Component(id="root", component="Text", props=raw),)
        )

    def test_normalize_shares_component_dicts(self) -> None:
        """normalize_message does not copy component objects."""
        raw = {"id": "root", "component": "Text", "text": "hi"}
        op = normalize_message(v09("updateComponents", surfaceId="s", components=[raw]), index=0)
        assert isinstance(op, UpdateComponents)
        assert op.components[0].props is raw

    @pytest.mark.parametrize(
        "bad",
        [
            None,
            "root",
            {"component": "Text"},
            {"id": "", "component": "Text"},
            {"id": "x"},
            {"id": "x", "component": ""},
            {"id": "x", "type": "Text", "props": {}},
        ],
    )
    def test_malformed_component_left_out(self, bad: Any) -> None:
        """A malformed component is reported and the others are kept."""
        good = {"id": "a", "component": "Text", "text": "t"}
        op = both(v09("updateComponents", surfaceId="s", components=[good, bad]))
        assert isinstance(op, UpdateComponents)
        assert [c.id for c in op.components] == ["a"]
        assert [w.code for w in op.warnings] == ["component.malformed"]
        assert op.warnings[0].path == "$[0].updateComponents.components[1]"

    def test_components_not_a_list(self) -> None:
        """updateComponents with a non-list component field is skipped."""
        error(v09("updateComponents", surfaceId="s", components={"id": "x"}), "op.bad_components")

    def test_empty_components_warns(self) -> None:
        """An empty component list is a harmless no-op with a warning."""
        op = both(v09("updateComponents", surfaceId="s", components=[]))
        assert isinstance(op, UpdateComponents)
        assert [w.code for w in op.warnings] == ["op.empty_components"]

    def test_v10_surface_component_reserved(self) -> None:
        """v1.0 reserves the component type ``Surface``."""
        op = both(
            v10("updateComponents", surfaceId="s", components=[{"id": "r", "component": "Surface"}])
        )
        assert isinstance(op, UpdateComponents)
        assert op.components == ()
        assert [w.code for w in op.warnings] == ["component.reserved"]

    def test_v09_surface_component_allowed(self) -> None:
        """v0.9 has no reserved ``Surface`` type."""
        op = both(
            v09("updateComponents", surfaceId="s", components=[{"id": "r", "component": "Surface"}])
        )
        assert isinstance(op, UpdateComponents)
        assert len(op.components) == 1

    def test_v10_component_metadata_checked(self) -> None:
        """Extension keys must be identifiers; the component is kept with a warning."""
        comp = {"id": "r", "component": "Text", "metadata": {"extensions": {"1bad": True}}}
        op = both(v10("updateComponents", surfaceId="s", components=[comp]))
        assert isinstance(op, UpdateComponents)
        assert len(op.components) == 1
        assert [w.code for w in op.warnings] == ["op.bad_metadata"]

    def test_at_path_bindings_untouched(self) -> None:
        """v1.0 ``@path``/``@call`` spellings are carried as written."""
        comp = {
            "id": "root",
            "component": "Text",
            "text": {"@path": "/name"},
            "checks": [{"condition": {"@call": "required", "args": {"value": {"@path": "/x"}}}}],
        }
        op = both(v10("updateComponents", surfaceId="s", components=[comp]))
        assert isinstance(op, UpdateComponents)
        assert op.components[0].props == comp


class TestCreateSurface:
    def test_v10_inline_components_and_data(self) -> None:
        """v1.0 createSurface carries inline components and data model."""
        op = both(
            v10(
                "createSurface",
                surfaceId="s",
                components=[{"id": "root", "component": "Text", "text": "x"}],
                dataModel={"a": 1},
                metadata={"extensions": {"a2ui_x": {}}},
                sendDataModel=True,
            )
        )
        assert isinstance(op, CreateSurface)
        assert op.version == "v1.0"
        assert op.catalog_id is None
        assert op.components is not None
        assert [c.id for c in op.components] == ["root"]
        assert op.data_model == {"a": 1}
        assert op.warnings == ()

    def test_v10_bad_inline_parts_still_create(self) -> None:
        """Bad inline components are dropped, a data model that is no object kept with a warning.

        Upstream keeps any value as the root model; the surface is created either way.
        """
        op = both(v10("createSurface", surfaceId="s", components="x", dataModel="y"))
        assert isinstance(op, CreateSurface)
        assert op.components is None
        assert op.data_model == "y"
        assert [w.code for w in op.warnings] == ["op.bad_components", "op.bad_data_model"]

    def test_v10_bad_metadata_warns(self) -> None:
        """metadata may only hold ``extensions``."""
        op = both(v10("createSurface", surfaceId="s", metadata={"other": 1}))
        assert isinstance(op, CreateSurface)
        assert [w.code for w in op.warnings] == ["op.bad_metadata"]

    def test_v09_inline_parts_ignored(self) -> None:
        """v0.9 has no inline components or data model: ignored with warnings."""
        op = both(
            v09(
                "createSurface", surfaceId="s", catalogId="c", components=[], dataModel={}, theme={}
            )
        )
        assert isinstance(op, CreateSurface)
        assert op.components is None
        assert op.data_model is UNSET
        assert [w.code for w in op.warnings] == ["op.unknown_field", "op.unknown_field"]

    def test_v10_theme_ignored(self) -> None:
        """v1.0 removed ``theme``: ignored with a warning."""
        op = both(v10("createSurface", surfaceId="s", theme={"primaryColor": "#000000"}))
        assert isinstance(op, CreateSurface)
        assert [w.path for w in op.warnings] == ["$[0].createSurface.theme"]

    def test_middleware_attach_data_model_accepted(self) -> None:
        """The middleware's ``attachDataModel`` spelling is accepted silently."""
        op = both(v09("createSurface", surfaceId="s", catalogId="c", attachDataModel=True))
        assert op == CreateSurface(surface_id="s", version="v0.9", catalog_id="c")


class TestUpdateDataModel:
    @pytest.mark.parametrize("path", [None, "", "/"])
    def test_root_paths_normalised(self, path: Any) -> None:
        """Missing, null, empty and ``/`` paths all mean the whole model."""
        payload = {"surfaceId": "s", "value": {"a": 1}}
        if path is not None:
            payload["path"] = path
        op = both({"version": "v0.9", "updateDataModel": payload})
        assert op == UpdateDataModel(surface_id="s", path="", value={"a": 1})

    def test_v09_absent_value_deletes(self) -> None:
        """v0.9: an absent value means delete."""
        op = both(v09("updateDataModel", surfaceId="s", path="/a"))
        assert op == UpdateDataModel(surface_id="s", path="/a", value=UNSET)

    def test_v09_null_value_is_stored(self) -> None:
        """v0.9: null is a value."""
        op = both(v09("updateDataModel", surfaceId="s", path="/a", value=None))
        assert op == UpdateDataModel(surface_id="s", path="/a", value=None)

    def test_v10_null_value_deletes(self) -> None:
        """v1.0: null means delete."""
        op = both(v10("updateDataModel", surfaceId="s", path="/a", value=None))
        assert op == UpdateDataModel(surface_id="s", path="/a", value=UNSET)

    def test_v10_absent_value_refused(self) -> None:
        """v1.0 requires a value."""
        error(v10("updateDataModel", surfaceId="s", path="/a"), "op.no_value")

    @pytest.mark.parametrize("spelling", ["contents", "data"])
    def test_lenient_value_spellings(self, spelling: Any) -> None:
        """``contents`` and ``data`` are accepted for ``value``, as upstream does."""
        op = both({"version": "v0.9", "updateDataModel": {"surfaceId": "s", spelling: [1]}})
        assert op == UpdateDataModel(surface_id="s", path="", value=[1])

    def test_the_first_spelling_given_wins(self) -> None:
        """``contents``, then ``value``, then ``data``, as upstream reads them; null counts."""
        op = both(v09("updateDataModel", surfaceId="s", value=1, contents=2, data=3))
        assert isinstance(op, UpdateDataModel)
        assert op.value == 2
        op = both(v09("updateDataModel", surfaceId="s", value=1, data=3))
        assert isinstance(op, UpdateDataModel)
        assert op.value == 1
        op = both(v09("updateDataModel", surfaceId="s", contents=None, value=1))
        assert isinstance(op, UpdateDataModel)
        assert op.value is None

    @pytest.mark.parametrize("path", ["a/b", 5])
    def test_bad_path(self, path: Any) -> None:
        """A relative or non-string path is refused in v0.9."""
        error(v09("updateDataModel", surfaceId="s", path=path, value=1), "op.bad_path")


class TestV08:
    def surface_update(self, *components: Any) -> UpdateComponents:
        op = both({"surfaceUpdate": {"surfaceId": "s", "components": list(components)}})
        assert isinstance(op, UpdateComponents)
        assert op.implicit_create
        return op

    def props(self, type_name: str, inner: Any, **extra: Any) -> Component:
        op = self.surface_update({"id": "c", "component": {type_name: inner}, **extra})
        assert op.warnings == ()
        (component,) = op.components
        return component

    def test_unwraps_type_and_literals(self) -> None:
        """The wrapper key becomes the type; literal wrappers become plain values."""
        comp = self.props("Text", {"text": {"literalString": "Hi"}, "usageHint": "h2"})
        assert comp == Component(id="c", component="Text", props={"text": "Hi", "variant": "h2"})

    def test_path_binding_kept(self) -> None:
        """A path-only bound value stays a binding."""
        comp = self.props("Text", {"text": {"path": "/name"}})
        assert comp.props == {"text": {"path": "/name"}}

    def test_literal_and_path_seed_data(self) -> None:
        """Literal plus path becomes a binding and an initial data write."""
        op = self.surface_update(
            {
                "id": "c",
                "component": {"CheckBox": {"value": {"literalBoolean": True, "path": "f/x"}}},
            }
        )
        assert op.components[0].props == {"value": {"path": "f/x"}}
        assert op.initial_data == (("/f/x", True),)

    def test_children_explicit_list(self) -> None:
        """``explicitList`` becomes a plain id list; Row renames apply."""
        comp = self.props(
            "Row",
            {
                "children": {"explicitList": ["a", "b"]},
                "distribution": "start",
                "alignment": "center",
            },
        )
        assert comp.props == {"children": ["a", "b"], "justify": "start", "align": "center"}

    def test_children_template(self) -> None:
        """A template keeps its wrapper with ``dataBinding`` renamed to ``path``."""
        comp = self.props(
            "List", {"children": {"template": {"componentId": "t", "dataBinding": "/items"}}}
        )
        assert comp.props == {"children": {"template": {"componentId": "t", "path": "/items"}}}

    def test_action(self) -> None:
        """A v0.8 action becomes an event with a context object."""
        comp = self.props(
            "Button",
            {
                "child": "l",
                "primary": True,
                "action": {
                    "name": "go",
                    "context": [
                        {"key": "u", "value": {"path": "/user"}},
                        {"key": "n", "value": {"literalNumber": 2}},
                    ],
                },
            },
        )
        assert comp.props == {
            "child": "l",
            "variant": "primary",
            "action": {"event": {"name": "go", "context": {"u": {"path": "/user"}, "n": 2}}},
        }

    def test_button_not_primary(self) -> None:
        """``primary: false`` is dropped."""
        assert self.props("Button", {"child": "l", "primary": False}).props == {"child": "l"}

    def test_text_field_renames(self) -> None:
        """TextField ``text`` and ``textFieldType`` become ``value`` and ``variant``."""
        comp = self.props(
            "TextField",
            {"label": {"literalString": "L"}, "text": {"path": "/t"}, "textFieldType": "obscured"},
        )
        assert comp.props == {"label": "L", "value": {"path": "/t"}, "variant": "obscured"}

    @pytest.mark.parametrize(
        ("maximum", "variant"),
        [(1, "mutuallyExclusive"), (3, "multipleSelection"), (None, "multipleSelection")],
    )
    def test_multiple_choice(self, maximum: Any, variant: Any) -> None:
        """MultipleChoice becomes ChoicePicker with v0.9 names."""
        inner = {
            "selections": {"path": "/f"},
            "options": [{"label": {"literalString": "A"}, "value": "a"}],
            "variant": "chips",
        }
        if maximum is not None:
            inner["maxAllowedSelections"] = maximum
        comp = self.props("MultipleChoice", inner)
        assert comp.component == "ChoicePicker"
        assert comp.props == {
            "value": {"path": "/f"},
            "options": [{"label": "A", "value": "a"}],
            "displayStyle": "chips",
            "variant": variant,
        }

    def test_modal_tabs_slider_image(self) -> None:
        """Modal, Tabs, Slider and Image props take their v0.9 names."""
        assert self.props("Modal", {"entryPointChild": "a", "contentChild": "b"}).props == {
            "trigger": "a",
            "content": "b",
        }
        tabs = self.props("Tabs", {"tabItems": [{"title": {"literalString": "T"}, "child": "x"}]})
        assert tabs.props == {"tabs": [{"title": "T", "child": "x"}]}
        slider = self.props("Slider", {"value": {"path": "/v"}, "minValue": 0, "maxValue": 9})
        assert slider.props == {"value": {"path": "/v"}, "min": 0, "max": 9}
        image = self.props(
            "Image",
            {"url": {"literalString": "u"}, "altText": {"literalString": "a"}, "fit": "scale-down"},
        )
        assert image.props == {"url": "u", "description": "a", "fit": "scaleDown"}

    def test_weight_moves_into_props(self) -> None:
        """The component-level ``weight`` joins the props."""
        assert self.props("Card", {"child": "x"}, weight=2).props == {"child": "x", "weight": 2}

    @pytest.mark.parametrize(
        "bad",
        [
            {"id": "c", "component": "Text"},
            {"id": "c", "component": {"Text": {}, "Row": {}}},
            {"id": "c", "component": {"Text": "x"}},
            {"component": {"Text": {}}},
        ],
    )
    def test_malformed_wrapper(self, bad: Any) -> None:
        """A component wrapper that is not one type key over an object is left out."""
        op = self.surface_update(bad)
        assert op.components == ()
        assert [w.code for w in op.warnings] == ["component.malformed"]

    def test_data_model_update_contents(self) -> None:
        """Typed contents become an object merged at the path; a missing slash is added."""
        op = both(
            {
                "dataModelUpdate": {
                    "surfaceId": "s",
                    "path": "form",
                    "contents": [
                        {"key": "name", "valueString": "A"},
                        {"key": "n", "valueNumber": 2},
                        {"key": "ok", "valueBoolean": False},
                        {
                            "key": "m",
                            "valueMap": [
                                {"key": "x", "valueMap": [{"key": "y", "valueString": "z"}]}
                            ],
                        },
                    ],
                }
            }
        )
        assert op == UpdateDataModel(
            surface_id="s",
            path="/form",
            value={"name": "A", "n": 2, "ok": False, "m": {"x": {"y": "z"}}},
            merge=True,
            implicit_create=True,
        )

    def test_data_model_update_root(self) -> None:
        """``/`` and a missing path mean the whole model."""
        for payload in ({"path": "/"}, {}):
            op = both({"dataModelUpdate": {"surfaceId": "s", "contents": [], **payload}})
            assert isinstance(op, UpdateDataModel)
            assert op.path == ""

    def test_bad_contents_entries_dropped(self) -> None:
        """Entries without a key or a typed value are dropped with warnings."""
        op = both(
            {
                "dataModelUpdate": {
                    "surfaceId": "s",
                    "contents": [
                        {"key": "a"},
                        {"valueString": "x"},
                        3,
                        {"key": "b", "valueMap": 1},
                        {"key": "c", "valueString": "ok"},
                    ],
                }
            }
        )
        assert isinstance(op, UpdateDataModel)
        assert op.value == {"c": "ok"}
        assert [w.code for w in op.warnings] == ["op.bad_contents"] * 4

    def test_dot_entry_sets_primitive(self) -> None:
        """A single ``.`` entry sets a primitive at the path itself."""
        op = both(
            {
                "dataModelUpdate": {
                    "surfaceId": "s",
                    "path": "/a",
                    "contents": [{"key": ".", "valueNumber": 3}],
                }
            }
        )
        assert op == UpdateDataModel(surface_id="s", path="/a", value=3, implicit_create=True)

    def test_contents_not_a_list(self) -> None:
        """contents must be a list."""
        error({"dataModelUpdate": {"surfaceId": "s", "contents": {"a": 1}}}, "op.malformed")

    def test_begin_rendering(self) -> None:
        """beginRendering carries root and catalog; styles are accepted."""
        op = both(
            {
                "beginRendering": {
                    "surfaceId": "s",
                    "root": "r",
                    "catalogId": "c",
                    "styles": {"font": "x"},
                }
            }
        )
        assert op == BeginRendering(surface_id="s", root="r", catalog_id="c")

    def test_begin_rendering_needs_root(self) -> None:
        """beginRendering without a root is malformed."""
        error({"beginRendering": {"surfaceId": "s"}}, "op.malformed")


class TestFunctions:
    CALL: ClassVar[dict[str, Any]] = {
        "call": "openUrl",
        "catalogId": "cat",
        "args": {"url": "https://x"},
    }

    def test_call_renderer_function(self) -> None:
        """callRendererFunction is carried with its call and optional surfaceId."""
        op = both(
            v10("callRendererFunction", functionCallId="f", callFunction=self.CALL, surfaceId="s")
        )
        assert op == CallRendererFunction(function_call_id="f", call=self.CALL, surface_id="s")

    @pytest.mark.parametrize(
        "payload",
        [
            {"functionCallId": "f", "callFunction": {"call": "openUrl"}},
            {"functionCallId": "f"},
            {"callFunction": CALL},
            {"functionCallId": "", "callFunction": CALL},
        ],
    )
    def test_call_renderer_function_malformed(self, payload: Any) -> None:
        """callRendererFunction needs an id and a call with a catalogId."""
        error({"version": "v1.0", "callRendererFunction": payload}, "op.malformed")

    @pytest.mark.parametrize(
        ("payload", "expected"),
        [
            (
                {"functionCallId": "f", "value": None},
                AgentFunctionResponse(function_call_id="f", value=None),
            ),
            (
                {"functionCallId": "f", "value": [1]},
                AgentFunctionResponse(function_call_id="f", value=[1]),
            ),
            (
                {"functionCallId": "f", "error": {"code": "X", "message": "m"}},
                AgentFunctionResponse(function_call_id="f", error={"code": "X", "message": "m"}),
            ),
        ],
    )
    def test_agent_function_response(self, payload: Any, expected: Any) -> None:
        """agentFunctionResponse carries a value (null included) or an error."""
        assert both({"version": "v1.0", "agentFunctionResponse": payload}) == expected

    @pytest.mark.parametrize(
        "payload",
        [
            {"functionCallId": "f"},
            {"functionCallId": "f", "value": 1, "error": {"code": "X"}},
            {"functionCallId": "f", "error": "bad"},
        ],
    )
    def test_agent_function_response_malformed(self, payload: Any) -> None:
        """Exactly one of value or error (an object) is required."""
        error({"version": "v1.0", "agentFunctionResponse": payload}, "op.malformed")


#: Invalid schema test cases whose fault is catalog-level (a component prop or function
#: argument the catalog does not declare). Checking them needs the catalog's schemas,
#: which belong to conversion, not to the protocol decoder.
CATALOG_LEVEL_CASES = {
    (
        "v1_0__initial_state_validation.json",
        "Invalid: component with unexpected property on envelope",
    ),
    (
        "v1_0__call_function_message.json",
        "CallRendererFunctionMessage: Invalid args (nested object in a single value)",
    ),
}
#: v0.9-shaped messages without ``version`` are accepted leniently, so northstar-tour's
#: createSurface messages decode; its other messages are reported.
LENIENT_KEYS = {"createSurface"}


class TestSamples:
    def test_conformant_samples_decode_cleanly(self, samples_dir: Path) -> None:
        """Every conformant sample message decodes to an operation without warnings."""
        messages = [m for m in load_sample_messages(samples_dir) if m.conformant]
        assert len(messages) > 200
        for sample in messages:
            op = both(sample.message, sample.position)
            assert not isinstance(op, Diagnostic), (sample.file, sample.position, op)
            assert op.warnings == (), (sample.file, sample.position, op.warnings)

    def test_nonconformant_samples_are_reported(self, samples_dir: Path) -> None:
        """Every non-conformant sample gives an error diagnostic or decode warnings."""
        reported = 0
        for sample in load_sample_messages(samples_dir):
            if sample.conformant or (sample.file, sample.description) in CATALOG_LEVEL_CASES:
                continue
            op = both(sample.message, sample.position)
            if isinstance(op, Diagnostic):
                assert op.severity is Severity.ERROR
                reported += 1
            elif set(sample.message) & LENIENT_KEYS and "version" not in sample.message:
                assert isinstance(op, CreateSurface)
            else:
                assert op.warnings, (sample.file, sample.position, sample.description)
                reported += 1
        assert reported > 40

    def test_northstar_components_reported(self, samples_dir: Path) -> None:
        """northstar-tour's draft components (type/props) are each reported and left out."""
        samples = [
            m for m in load_sample_messages(samples_dir) if m.file == "v0_9__northstar-tour.json"
        ]
        updates = [both(m.message, m.position) for m in samples if "updateComponents" in m.message]
        assert updates
        for op in updates:
            assert isinstance(op, UpdateComponents)
            assert op.components == ()
            assert {w.code for w in op.warnings} == {"component.malformed"}


#: Entries of a component list: plainly valid ones and every kind the fast path must refuse.
COMPONENT_ENTRIES = st.one_of(
    st.builds(
        lambda i, t, extra: {"id": f"c{i}", "component": t, **extra},
        st.integers(0, 50),
        st.sampled_from(["Text", "Column", "Surface", "Button"]),
        st.dictionaries(st.sampled_from(["text", "metadata", "child"]), st.just("x"), max_size=2),
    ),
    st.sampled_from(
        [
            None,
            "Text",
            3,
            [],
            {"component": "Text"},
            {"id": "", "component": "Text"},
            {"id": "a"},
            {"id": "a", "component": ""},
            {"id": 1, "component": "Text"},
            {"id": "a", "component": ["Text"]},
            {"id": "a", "component": "Text", "metadata": {"extensions": {"ok": 1}}},
        ]
    ),
)


class TestComponentList:
    @settings(max_examples=300, deadline=None)
    @given(
        items=st.lists(COMPONENT_ENTRIES, max_size=12),
        family=st.sampled_from(["v0.9", "v1.0"]),
    )
    def test_fast_path_agrees_with_checked_path(self, items: Any, family: Any) -> None:
        """The C fast path, when it answers, gives exactly what the per-entry check gives."""
        fast = a2ui_wire._plain_components(items, strict_v10=family == "v1.0")
        checked, problems = a2ui_wire._checked_components(items, family, 0, ".c", "s")
        if fast is not None:
            assert fast == checked
            assert problems == []
        combined = a2ui_wire._components(items, family=family, index=0, where=".c", surface_id="s")
        assert combined == (checked, problems, ())

    def test_fast_path_refuses_any_bad_entry(self) -> None:
        """One bad entry among many sends the list to the checked path."""
        good = [{"id": f"c{i}", "component": "Text"} for i in range(100)]
        assert a2ui_wire._plain_components(good, strict_v10=False) is not None
        for bad in (None, {"id": "x"}, {"id": "", "component": "T"}, {"id": "x", "component": 1}):
            assert a2ui_wire._plain_components([*good, bad], strict_v10=False) is None

    def test_v10_rules_take_the_checked_path(self) -> None:
        """A v1.0 ``Surface`` type or ``metadata`` is checked entry by entry."""
        surface = [{"id": "r", "component": "Surface"}]
        meta = [{"id": "r", "component": "Text", "metadata": {}}]
        for items in (surface, meta):
            assert a2ui_wire._plain_components(items, strict_v10=True) is None
            assert a2ui_wire._plain_components(items, strict_v10=False) is not None

    def test_bad_entry_at_the_end_of_a_big_list(self) -> None:
        """A big list with one bad entry keeps the rest and names the entry's index."""
        items: list[Any] = [{"id": f"c{i}", "component": "Text"} for i in range(4000)]
        items.append({"id": "late"})
        op = both(v09("updateComponents", surfaceId="s", components=items))
        assert isinstance(op, UpdateComponents)
        assert len(op.components) == 4000
        assert [w.path for w in op.warnings] == ["$[0].updateComponents.components[4000]"]


class TestComponent:
    def test_positional_and_keyword_construction_agree(self) -> None:
        """A component is built positionally (by ``map``) or by keyword, to the same value."""
        props = {"id": "a", "component": "Text"}
        assert Component("a", "Text", props) == Component(id="a", component="Text", props=props)

    def test_not_tracked_by_the_garbage_collector(self) -> None:
        """Components stay out of the cyclic collector's lists, even holding a dict."""
        assert not gc.is_tracked(Component("a", "Text", {"id": "a"}))

    def test_frozen(self) -> None:
        """A component cannot be changed after construction."""
        component = Component("a", "Text", {})
        with pytest.raises(AttributeError):
            component.id = "b"  # type: ignore[misc]


#: Each A2UI decoding module and the package modules it may import.
