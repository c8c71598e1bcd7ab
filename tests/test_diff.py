"""Computing a patch (``_tree.diff``): it applies back, costs what changed, and reads JSON's
equality, not Python's."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
from helpers import json_values, pointers_into
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._tree.diff import diff, json_equal
from a2ui_stream._tree.patch import PatchError, apply_patch
from a2ui_stream._wire.frozen import extended, freeze

#: JSON values with containers wider than the diff's narrow scan, and keys to escape.
_WIDE = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text("a/~", max_size=2),
    lambda inner: (
        st.lists(inner, max_size=12)
        | st.dictionaries(st.text("ab/~", max_size=3), inner, max_size=12)
    ),
    max_leaves=40,
)


class TestDiff:
    @settings(max_examples=300, deadline=None)
    @given(json_values, json_values)
    def test_diff_applies_back(self, old: Any, new: Any) -> None:
        """Applying diff(old, new) to old gives new (object key order aside)."""
        patched = apply_patch(old, diff(old, new))
        assert msgspec.json.encode(patched, order="sorted") == msgspec.json.encode(
            new, order="sorted"
        )

    @settings(max_examples=300, deadline=None)
    @given(document=_WIDE, data=st.data())
    def test_shared_subtrees_give_the_patch_copies_give(
        self, document: Any, data: st.DataObject
    ) -> None:
        """A document and its patched copy (sharing what the patch left) diff as two copies do.

        Wide and narrow containers are scanned differently, and keys with ``/`` and
        ``~`` are escaped only when an operation is written: both ways, the same patch,
        which applies back.
        """
        current = document
        for _ in range(data.draw(st.integers(1, 4))):
            paths = pointers_into(current)
            op = data.draw(st.sampled_from(["add", "remove", "replace"]))
            target = data.draw(st.sampled_from([*paths, *(f"{p}/-" for p in paths)]))
            operation: dict[str, Any] = {"op": op, "path": target}
            if op != "remove":
                operation["value"] = data.draw(_WIDE)
            try:
                current = apply_patch(current, [operation])
            except PatchError:
                continue
        found = diff(document, current)
        assert found == diff(copy.deepcopy(document), copy.deepcopy(current))
        patched = apply_patch(document, found)
        assert msgspec.json.encode(patched, order="sorted") == msgspec.json.encode(
            current, order="sorted"
        )

    def test_a_number_becoming_a_boolean_is_replaced(self) -> None:
        """``1`` and ``true`` differ in JSON though Python finds them equal."""
        assert diff({"a": [1, 0]}, {"a": [True, 0]}) == [
            {"op": "replace", "path": "/a/0", "value": True}
        ]
        assert diff({"a": 1}, {"a": 1.0}) == []

    def test_shared_subtrees_are_not_visited(self) -> None:
        """Identical subtrees produce no operations: only the changed value is replaced."""
        shared = {"big": list(range(1000))}
        assert diff({"s": shared, "v": 1}, {"s": shared, "v": 2}) == [
            {"op": "replace", "path": "/v", "value": 2}
        ]

    @settings(max_examples=200, deadline=None)
    @given(
        st.lists(json_values, max_size=8), st.lists(st.lists(json_values, max_size=3), max_size=4)
    )
    def test_a_list_grown_from_the_old_one_diffs_as_any_list(
        self, items: list[Any], tails: list[list[Any]]
    ) -> None:
        """A list streamed by ``extended`` gives the patch a plain list of its items gives."""
        old = freeze(items)
        new = old
        for tail in tails:
            new = extended(new, freeze(tail))
        assert diff({"l": old}, {"l": new}) == diff({"l": old}, {"l": list(new)})
        assert diff(old, new) == [
            {"op": "add", "path": f"/{index}", "value": new[index]}
            for index in range(len(old), len(new))
        ]

    def test_equal_values_give_an_empty_patch(self) -> None:
        """Equal documents give no operations."""
        assert diff({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}) == []

    def test_keys_are_escaped(self) -> None:
        """Keys with / and ~ are escaped in paths."""
        assert diff({"a/b": 1}, {"a/b": 2}) == [{"op": "replace", "path": "/a~1b", "value": 2}]


class TestJsonEqual:
    def test_json_types_not_pythons(self) -> None:
        assert not json_equal(True, 1)  # noqa: FBT003 - the values compared
        assert json_equal(1, 1.0)
        assert json_equal({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]})
        assert not json_equal({"a": 1}, {"b": 1})
        assert not json_equal([1], [1, 2])

    def test_deep_values_do_not_recurse(self) -> None:
        left: Any = []
        right: Any = []
        for _ in range(5000):
            left, right = [left], [right]
        assert json_equal(left, right)


class TestWideObjects:
    def test_a_member_more_or_less_is_one_operation(self) -> None:
        """An object wider than the narrow scan, one member added, removed, changed."""
        old = freeze({f"k{i}": i for i in range(50)})
        new = dict(old)
        del new["k3"]
        new["k7"] = "seven"
        new["extra"] = [1]
        assert diff(old, freeze(new)) == [
            {"op": "remove", "path": "/k3"},
            {"op": "replace", "path": "/k7", "value": "seven"},
            {"op": "add", "path": "/extra", "value": [1]},
        ]
