"""Measuring a data model at what changed: sizes, change lists, depth."""

from __future__ import annotations

import math
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET

from a2ui_stream._state.measure import (
    MAX_REMEASURED,
    changes_between,
    encoded_size,
    nests_past,
    remeasured,
)
from a2ui_stream._tree.diff import diff
from a2ui_stream._tree.patch import DataChange, apply_patch
from a2ui_stream._tree.pointer import parse
from a2ui_stream._wire.frozen import freeze

_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=4)
_JSON_OBJECTS = st.dictionaries(
    st.text(max_size=3), _SCALARS | st.lists(_SCALARS, max_size=3), max_size=6
)


def _size(value: Any) -> int:
    return len(msgspec.json.encode(value))


def _model() -> Any:
    return freeze({"items": [{"name": f"item {i}", "n": i} for i in range(20)], "title": "t"})


class TestEncodedSize:
    def test_unset_is_nothing(self) -> None:
        assert encoded_size(UNSET) == 0

    def test_frozen_and_plain_measure_alike(self) -> None:
        plain = {"a": [1, 2, {"b": "c"}], "d": None}
        assert encoded_size(freeze(plain)) == encoded_size(plain) == _size(plain)

    @pytest.mark.parametrize("value", [object(), {"a": [object()]}])
    def test_not_json_is_none(self, value: Any) -> None:
        assert encoded_size(value) is None

    def test_non_finite_float_prints_as_null(self) -> None:
        assert encoded_size([math.inf]) == len(b"[null]")


class TestChangesBetween:
    def test_unrelated_values_are_measured_whole(self) -> None:
        # Equal in value, but no child is the same object: the diff would walk it all.
        assert changes_between(freeze({"a": [1]}), freeze({"a": [1]})) is None

    def test_a_patched_copy_yields_its_changed_paths(self) -> None:
        old = _model()
        new = apply_patch(old, [{"op": "replace", "path": "/items/4/name", "value": "x"}])
        assert changes_between(old, new) == [("replace", ("items", "4", "name"))]

    def test_a_matching_claim_is_taken_as_given(self) -> None:
        old = _model()
        new = apply_patch(old, [{"op": "replace", "path": "/title", "value": "u"}])
        claim = DataChange(old, new, (("title",), ("items", "0")))
        assert changes_between(old, new, (claim,)) == [
            ("replace", ("title",)),
            ("replace", ("items", "0")),
        ]

    def test_a_claim_about_other_values_falls_back_to_the_diff(self) -> None:
        old = _model()
        new = apply_patch(old, [{"op": "remove", "path": "/title"}])
        stale = DataChange(_model(), new, (("items",),))
        assert changes_between(old, new, (stale,)) == [("remove", ("title",))]

    def test_lists_share_by_position(self) -> None:
        shared = freeze({"k": 1})
        assert changes_between(freeze([shared, 1]), freeze([shared, 2])) == [("replace", ("1",))]
        assert changes_between(freeze([shared]), freeze({"0": shared})) is None


class TestNestsPast:
    def test_without_changes_walks_the_whole_value(self) -> None:
        deep = freeze({"a": {"b": {"c": 1}}})
        assert nests_past(deep, 2, None)
        assert not nests_past(deep, 3, None)

    def test_with_changes_walks_only_them(self) -> None:
        # The unchanged part nests past the room; it was checked when it was written.
        value = freeze({"old": {"a": {"b": {"c": 1}}}, "new": {"x": 1}})
        assert not nests_past(value, 3, [("replace", ("new",))])
        assert nests_past(value, 1, [("replace", ("new",))])

    def test_a_removal_adds_no_depth(self) -> None:
        assert not nests_past(freeze({"a": 1}), 0, [("remove", ("gone",))])


class TestRemeasured:
    @pytest.mark.parametrize(
        "patch",
        [
            [{"op": "replace", "path": "/items/3/name", "value": "a much longer name"}],
            [{"op": "add", "path": "/extra", "value": [1, 2, 3]}],
            [{"op": "remove", "path": "/title"}],
            [{"op": "remove", "path": "/items/19"}],
            [{"op": "add", "path": "/items/0/more", "value": {"deep": "er"}}],
            [{"op": "add", "path": "/items/-", "value": "last"}],
        ],
    )
    def test_follows_the_true_size(self, patch: list[dict[str, Any]]) -> None:
        old = _model()
        new = apply_patch(old, patch)
        changes = changes_between(old, new)
        assert changes is not None
        assert len(changes) <= MAX_REMEASURED
        estimate = remeasured(old, new, _size(old), changes)
        assert estimate is not None
        assert estimate == _size(new)

    @pytest.mark.parametrize(
        ("old", "patch"),
        [
            ({"a": [1]}, [{"op": "remove", "path": "/a/0"}]),  # the one item: no comma
            ({"a": []}, [{"op": "add", "path": "/a/-", "value": 1}]),
            ({"a": {}}, [{"op": "add", "path": "/a/k", "value": 1}]),
            ({"a": {"k": 1}}, [{"op": "remove", "path": "/a/k"}]),
            (
                {},
                [{"op": "add", "path": "/x", "value": 1}, {"op": "add", "path": "/y", "value": 2}],
            ),
            ({"q": 1}, [{"op": "add", "path": '/say "hi"\\n', "value": 1}]),  # escaped key
            ({"a": [1, 2]}, [{"op": "remove", "path": "/a/0"}, {"op": "remove", "path": "/a/0"}]),
        ],
    )
    def test_exact_at_the_edges(self, old: dict[str, Any], patch: list[dict[str, Any]]) -> None:
        """Commas of a container's one member, keys that are escaped, several at once."""
        before = freeze(old)
        after = apply_patch(before, patch)
        changes = [(c["op"], parse(c["path"])) for c in diff(before, after)]
        assert remeasured(before, after, _size(before), changes) == _size(after)

    @settings(max_examples=200, deadline=None)
    @given(_JSON_OBJECTS, st.lists(st.tuples(st.booleans(), st.text(max_size=3), _SCALARS)))
    def test_any_members_added_or_removed(
        self, old: dict[str, Any], steps: list[tuple[bool, str, Any]]
    ) -> None:
        before = freeze(old)
        after = dict(before)
        for remove, key, value in steps:
            if remove:
                after.pop(next(iter(after), key), None)
            else:
                after[key] = value
        changed = freeze(after)
        changes = [(c["op"], parse(c["path"])) for c in diff(before, changed)]
        assert remeasured(before, changed, _size(before), changes) == _size(changed)

    def test_a_new_value_that_is_not_json_is_none(self) -> None:
        old = freeze({"a": 1})
        assert remeasured(old, {"a": object()}, _size(old), [("replace", ("a",))]) is None

    def test_never_below_zero(self) -> None:
        old = freeze({"a": "x" * 50})
        assert remeasured(old, freeze({}), 3, [("remove", ("a",))]) == 0
