"""Tests for binding shapes, pointer splitting and reading decoded data."""

from __future__ import annotations

from typing import Any

import pytest

from a2ui_stream._convert.bindings import (
    MISSING,
    binding_of,
    call_of,
    field_name,
    split_pointer,
    template_of,
    walk,
)


class TestSplitPointer:
    @pytest.mark.parametrize(
        ("pointer", "segments"),
        [
            ("", ()),
            ("/", ()),
            ("/a/b", ("a", "b")),
            ("a/b", ("a", "b")),
            ("/a~1b/c~0d", ("a/b", "c~d")),
            ("/~01", ("~1",)),
            ("//x", ("", "x")),
        ],
    )
    def test_split(self, pointer: str, segments: tuple[str, ...]) -> None:
        """Absolute and relative pointers split into decoded segments (RFC 6901)."""
        assert split_pointer(pointer) == segments


DATA: Any = {"a": [{"b": 1}, {"b": None}], "m": {"0": "zero"}}


class TestWalk:
    @pytest.mark.parametrize(
        ("segments", "expected"),
        [
            ((), DATA),
            (("a", "0", "b"), 1),
            (("a", "1", "b"), None),
            (("m", "0"), "zero"),
            (("a", "2"), MISSING),
            (("a", "01"), MISSING),
            (("a", "-1"), MISSING),
            (("a", "\u0661"), MISSING),  # an Arabic-Indic digit one is no index
            (("a", "0", "b", "c"), MISSING),
            (("x",), MISSING),
        ],
    )
    def test_walk(self, segments: tuple[str, ...], expected: Any) -> None:
        """Objects by own key, arrays by canonical ASCII index; anything else is missing."""
        found = walk(DATA, segments)
        assert found is expected if expected is MISSING else found == expected

    def test_missing_root(self) -> None:
        """Reading below a missing model is missing."""
        assert walk(MISSING, ("a",)) is MISSING


class TestShapes:
    def test_binding_forms(self) -> None:
        """``{"path"}`` and ``{"@path"}`` are bindings; anything longer is not."""
        assert binding_of({"path": "/a"}) == "/a"
        assert binding_of({"@path": "b"}) == "b"
        assert binding_of({"path": "/a", "x": 1}) is None
        assert binding_of({"path": 3}) is None

    def test_call_forms(self) -> None:
        """``{"call"}`` and ``{"@call"}`` are calls unless they also bind a path."""
        assert call_of({"call": "f", "args": {"a": 1}}) == ("f", {"a": 1})
        assert call_of({"@call": "g"}) == ("g", None)
        assert call_of({"call": "f", "path": "/a"}) is None

    @pytest.mark.parametrize(
        ("children", "expected"),
        [
            ({"componentId": "t", "path": "/xs"}, ("t", "/xs")),
            ({"template": {"componentId": "t", "path": "/xs"}}, ("t", "/xs")),
            ({"template": {"componentId": "t", "dataBinding": "/xs"}}, ("t", "/xs")),
            ({"template": {"componentId": "t"}}, None),
            ({"componentId": 3, "path": "/xs"}, None),
            ({"componentId": "t", "path": "/xs", "x": 1}, None),
        ],
    )
    def test_template_forms(self, children: dict[str, Any], expected: Any) -> None:
        """The three template forms give ``(componentId, path)``; anything else ``None``."""
        assert template_of(children) == expected

    @pytest.mark.parametrize(
        ("props", "expected"),
        [
            ({"value": {"path": "/form/email"}}, "email"),
            ({"text": {"path": "/a~1b"}}, "a/b"),
            ({"value": {"path": "/"}}, None),
            ({"value": "literal", "binding": {"path": "/x"}}, None),
            ({"label": "x"}, None),
        ],
    )
    def test_field_name(self, props: dict[str, Any], expected: str | None) -> None:
        """The field name is the last segment of the first present value binding."""
        assert field_name(props) == expected
