"""Tests for what the converter repairs or drops, and says so: repairs, pending data, URLs."""

from __future__ import annotations

from typing import Any

import pytest
from convert_cases import (
    CONVERTER,
    DEBUG,
    WARNING,
    codes,
    root,
    run,
    severities,
    surface,
)

from a2ui_stream._convert.converter import Converter
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.limits import Limits


class TestRepairs:
    def test_enum_without_counterpart_warns_when_not_a2ui(self) -> None:
        """A justify value that is neither A2UI's nor the vocabulary's is dropped with a warning."""
        result = run(root("Row", justify="diagonal", gap=9))
        assert result.element == {"$type": "Row"}
        assert codes(result) == ["convert.prop_invalid", "convert.prop_invalid"]

    def test_image_without_src_is_dropped(self) -> None:
        """An Image with no src cannot be valid and is dropped with a warning."""
        result = run(root("Row", children=["i"]), {"id": "i", "component": "Image"})
        assert result.element == {"$type": "Row"}
        assert codes(result) == ["convert.element_dropped"]

    def test_text_with_object_warns(self) -> None:
        """A Text bound to an object renders empty with a warning."""
        result = run(root("Text", text={"path": "/o"}), data={"o": {"a": 1}})
        assert result.element == {"$type": "Markdown", "value": ""}
        assert codes(result) == ["convert.prop_invalid"]

    def test_unmapped_icon_is_skipped_at_debug(self) -> None:
        """An icon without a counterpart is skipped with a debug diagnostic."""
        result = run(root("Row", children=["i"]), {"id": "i", "component": "Icon", "name": "home"})
        assert result.element == {"$type": "Row"}
        assert [w.severity for w in result.warnings] == [Severity.DEBUG]

    def test_unsupported_function_warns(self) -> None:
        """A function outside the supported set is dropped with a warning."""
        result = run(root("Text", text={"call": "upper", "args": {"value": "x"}}))
        assert result.element == {"$type": "Markdown", "value": ""}
        assert codes(result) == ["convert.function_unsupported"]

    def test_action_without_name_warns(self) -> None:
        """An action that cannot be used is never dropped silently."""
        result = run(root("Button", label="x", action={"event": {"context": {}}}))
        assert "$action" not in (result.element or {})
        assert codes(result) == ["convert.action_dropped"]

    def test_long_strings_are_cut(self) -> None:
        """Strings longer than the limit are cut with a warning."""
        converter = Converter(limits=Limits(max_string_length=3))
        result = converter.convert(surface(root("Text", text="abcdef")))
        assert result.element == {"$type": "Markdown", "value": "abc"}
        assert [w.code for w in result.warnings] == ["convert.string_cut"]


class TestPendingData:
    """Bound data that has not arrived yet is a debug diagnostic; unusable data a warning."""

    def test_template_over_missing_data_is_debug(self) -> None:
        """A template whose path resolves to nothing (data not written yet) warns at debug."""
        result = run(
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Divider"},
            data={},
        )
        assert result.element == {"$type": "ListView", "children": []}
        assert severities(result) == [("convert.template_not_list", DEBUG)]

    def test_template_without_any_model_is_debug(self) -> None:
        """A surface with no data model yet is the same pending state."""
        result = run(
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Divider"},
        )
        assert severities(result) == [("convert.template_not_list", DEBUG)]

    @pytest.mark.parametrize("value", [{"a": 1}, "text", 3, None, True])
    def test_template_over_a_non_list_is_a_warning(self, value: Any) -> None:
        """A template whose path holds a value that is not a list warns (null included)."""
        result = run(
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Divider"},
            data={"xs": value},
        )
        assert severities(result) == [("convert.template_not_list", WARNING)]

    def test_template_recovers_when_data_arrives(self) -> None:
        """Once the list arrives the same surface converts without a diagnostic."""
        raw = (
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Divider"},
        )
        before = CONVERTER.convert(surface(*raw, data={}))
        after = CONVERTER.convert(surface(*raw, data={"xs": [1]}), before)
        assert after.warnings == ()
        assert after.element == {
            "$type": "ListView",
            "children": [{"$type": "ListViewItem", "children": {"$type": "Divider"}}],
        }

    def test_image_with_unresolved_src_is_debug(self) -> None:
        """An Image bound to a src that is not written yet is dropped at debug level."""
        result = run(
            root("Row", children=["i"]), {"id": "i", "component": "Image", "url": {"path": "/u"}}
        )
        assert result.element == {"$type": "Row"}
        assert severities(result) == [("convert.element_dropped", DEBUG)]

    def test_image_with_unusable_src_is_a_warning(self) -> None:
        """An Image bound to a src that holds a number is dropped with a warning."""
        result = run(
            root("Row", children=["i"]),
            {"id": "i", "component": "Image", "url": {"path": "/u"}},
            data={"u": 5},
        )
        assert severities(result) == [("convert.element_dropped", WARNING)]

    def test_image_without_src_is_a_warning(self) -> None:
        """An Image that names no src at all is malformed, not pending."""
        result = run(root("Row", children=["i"]), {"id": "i", "component": "Image"})
        assert severities(result) == [("convert.element_dropped", WARNING)]

    def test_media_with_unresolved_url_is_debug(self) -> None:
        """A Video bound to a url that is not written yet is dropped at debug level."""
        result = run(
            root("Row", children=["v"]), {"id": "v", "component": "Video", "url": {"path": "/v"}}
        )
        assert severities(result) == [("convert.element_dropped", DEBUG)]

    def test_media_with_unsafe_url_warns(self) -> None:
        """A Video whose bound url resolves to an unsafe scheme warns twice."""
        result = run(
            root("Row", children=["v"]),
            {"id": "v", "component": "Video", "url": {"path": "/v"}},
            data={"v": "javascript:x"},
        )
        assert severities(result) == [
            ("convert.unsafe_url", WARNING),
            ("convert.element_dropped", WARNING),
        ]

    def test_function_over_unresolved_args_is_debug(self) -> None:
        """formatNumber of a value not written yet fails at debug level."""
        call = {"call": "formatNumber", "args": {"value": {"path": "/n"}}}
        result = run(root("Text", text=call))
        assert result.element == {"$type": "Markdown", "value": ""}
        assert severities(result) == [("convert.function_failed", DEBUG)]

    def test_function_over_unusable_args_is_a_warning(self) -> None:
        """formatNumber of a string fails with a warning."""
        call = {"call": "formatNumber", "args": {"value": {"path": "/n"}}}
        result = run(root("Text", text=call), data={"n": "many"})
        assert severities(result) == [("convert.function_failed", WARNING)]

    def test_action_with_unresolved_name_is_debug(self) -> None:
        """An event whose name binding is unresolved is dropped at debug level."""
        result = run(root("Button", label="x", action={"event": {"name": {"path": "/a"}}}))
        assert result.element == {"$type": "Button", "label": "x"}
        assert severities(result) == [("convert.action_dropped", DEBUG)]

    def test_action_without_name_is_a_warning(self) -> None:
        """An event with no name at all is dropped with a warning."""
        result = run(root("Button", label="x", action={"event": {"context": {}}}))
        assert severities(result) == [("convert.action_dropped", WARNING)]

    def test_open_url_with_unresolved_url_is_debug(self) -> None:
        """An openUrl whose url binding is unresolved is dropped at debug level."""
        action = {"functionCall": {"call": "openUrl", "args": {"url": {"path": "/u"}}}}
        result = run(root("Button", label="x", action=action))
        assert severities(result) == [("convert.unsafe_url", DEBUG)]

    def test_open_url_with_null_url_is_a_warning(self) -> None:
        """An openUrl whose url is written as null is dropped with a warning."""
        action = {"functionCall": {"call": "openUrl", "args": {"url": {"path": "/u"}}}}
        result = run(root("Button", label="x", action=action), data={"u": None})
        assert severities(result) == [("convert.unsafe_url", WARNING)]


class TestUrlSafety:
    @pytest.mark.parametrize(
        "url",
        [
            "javascript:alert(1)",
            " JaVa\tScRiPt:alert(1)",
            "vbscript:x",
            "file:///etc/passwd",
            "data:text/html,x",
        ],
    )
    def test_unsafe_image_src_is_dropped(self, url: str) -> None:
        """Unsafe schemes never reach the output."""
        result = run(root("Row", children=["i"]), {"id": "i", "component": "Image", "url": url})
        assert result.element == {"$type": "Row"}
        assert "convert.unsafe_url" in codes(result)

    @pytest.mark.parametrize(
        "url", ["https://a/b.png", "http://a", "/rel.png", "rel.png", "data:image/png;base64,AA"]
    )
    def test_safe_urls_are_kept(self, url: str) -> None:
        """http(s), data:image and relative URLs are kept."""
        result = run(root("Image", url=url, alt="a"))
        assert result.element == {"$type": "Image", "src": url, "alt": "a"}

    def test_unsafe_open_url_action_is_dropped(self) -> None:
        """An openUrl action to a javascript: URL is dropped with a warning."""
        result = run(
            root(
                "Button",
                label="x",
                action={"functionCall": {"call": "openUrl", "args": {"url": "javascript:x"}}},
            )
        )
        assert result.element == {"$type": "Button", "label": "x"}
        assert codes(result) == ["convert.unsafe_url"]

    @pytest.mark.parametrize("kind", ["Video", "AudioPlayer"])
    def test_a_data_url_is_no_media_link(self, kind: str) -> None:
        """An image may be a data: URL, a link may not: followed, SVG may run script."""
        for url in ("data:image/svg+xml,<svg onload=alert(1)>", "data:image/png;base64,AA"):
            result = run(root("Row", children=["v"]), {"id": "v", "component": kind, "url": url})
            assert result.element == {"$type": "Row"}
            assert "convert.unsafe_url" in codes(result)

    def test_a_data_url_is_no_open_url_target(self) -> None:
        action = {"functionCall": {"call": "openUrl", "args": {"url": "data:image/png;base64,A"}}}
        result = run(root("Button", label="x", action=action))
        assert result.element == {"$type": "Button", "label": "x"}
        assert codes(result) == ["convert.unsafe_url"]

    def test_unsafe_video_is_dropped(self) -> None:
        """A Video with an unsafe URL is dropped."""
        result = run(
            root("Row", children=["v"]), {"id": "v", "component": "Video", "url": "javascript:x"}
        )
        assert result.element == {"$type": "Row"}
