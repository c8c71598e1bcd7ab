"""The converter's front (``_convert.converter``): a surface in, one conversion out.

The element trees themselves are tested row by row in test_convert.py and its
neighbours (test_convert_incremental, _limits, _repairs, _samples, _tiers); here is the
contract of :class:`Converter` and :class:`Conversion`.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from convert_cases import root, surface
from helpers import json_values
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._convert.converter import Converter, _address
from a2ui_stream._wire.limits import Limits

TEXT = root("Text", text={"path": "/name"})


def test_an_unchanged_surface_gives_its_conversion_back() -> None:
    """The very surface converted before gives the very conversion again."""
    converter = Converter()
    s = surface(TEXT, data={"name": "Ada"})
    first = converter.convert(s)
    assert converter.convert(s, first) is first


def test_previous_never_changes_the_result() -> None:
    """With or without an earlier conversion, of this surface or another, the same result."""
    converter = Converter()
    before = converter.convert(surface(TEXT, data={"name": "Ada"}))
    after = surface(TEXT, data={"name": "Grace"})
    fresh = Converter().convert(after)
    assert converter.convert(after, before) == fresh
    other = Converter().convert(surface(root("Divider")))
    assert converter.convert(after, other) == fresh
    assert fresh.element == {"$type": "Markdown", "value": "Grace"}


def test_nothing_to_show_is_no_element() -> None:
    """No root component: no element, and a warning naming the surface."""
    result = Converter().convert(surface({"id": "x", "component": "Text", "text": "t"}))
    assert result.element is None
    assert result.warnings
    assert all(w.surface_id == "s1" for w in result.warnings)


def test_the_limits_are_the_converters() -> None:
    """A converter applies the limits it was made with."""
    s = surface(root("Text", text="abcdef"))
    assert Converter().convert(s).element == {"$type": "Markdown", "value": "abcdef"}
    cut = Converter(limits=Limits(max_string_length=3)).convert(s)
    assert cut.element == {"$type": "Markdown", "value": "abc"}
    assert [w.code for w in cut.warnings] == ["convert.string_cut"]


def test_a_conversion_is_a_frozen_value() -> None:
    """Two converters give equal conversions of a surface, which cannot be changed."""
    s = surface(root("Divider"))
    first, second = Converter().convert(s), Converter().convert(s)
    assert first == second
    assert (first.element, first.warnings) == ({"$type": "Divider"}, ())
    with pytest.raises(AttributeError):
        first.element = None  # type: ignore[misc]
    assert msgspec.json.encode(first.element) == b'{"$type":"Divider"}'


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every container in ``value`` with its path, ``value`` first."""
    found = [(path, value)] if isinstance(value, dict | list) else []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        found += _containers(inner, (*path, key))
    return found


class TestAddress:
    @settings(max_examples=300, deadline=None)
    @given(tree=json_values, data=st.data())
    def test_the_path_to_the_very_object(self, tree: Any, data: st.DataObject) -> None:
        """The address of a container in a tree leads to it; an object elsewhere has none."""
        tree = [tree, {"x": [tree]}]  # equal subtrees in several places, distinct objects
        tree = msgspec.json.decode(msgspec.json.encode(tree))
        path, target = data.draw(st.sampled_from(_containers(tree)))
        found = _address(tree, target)
        assert found == path
        assert _address(tree, {"not": "there"}) is None
