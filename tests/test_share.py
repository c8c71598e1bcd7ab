"""Identity sharing (``_tree.share``): a new value reuses the old value's equal subtrees.

``share`` compares values; ``share_text`` compares their JSON texts and names the paths
that changed.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from helpers import json_values
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._tree.diff import diff
from a2ui_stream._tree.patch import apply_patch
from a2ui_stream._tree.pointer import parse
from a2ui_stream._tree.share import share, share_text
from a2ui_stream._wire.numbers import js_number


class TestShare:
    def test_equal_value_is_the_old_object(self) -> None:
        """An equal value decoded afresh comes back as the old object."""
        old = {"items": [{"n": 1}, {"n": 2}]}
        new = msgspec.json.decode(msgspec.json.encode(old))
        assert share(old, new) is old

    def test_unchanged_parts_are_reused(self) -> None:
        """Only the changed branch is new; equal siblings and items are the old objects."""
        old: dict[str, Any] = {"items": [{"n": 1}, {"n": 2}], "title": {"t": "a"}}
        new: dict[str, Any] = {"items": [{"n": 1}, {"n": 2}, {"n": 3}], "title": {"t": "b"}}
        shared = share(old, new)
        assert shared == new
        assert shared["items"][0] is old["items"][0]
        assert shared["items"][1] is old["items"][1]
        assert shared["title"] is not old["title"]

    def test_already_shared_value_is_not_copied(self) -> None:
        """A value that already shares its unchanged parts (after a patch) is returned as is."""
        old: dict[str, Any] = {"a": {"x": 1}, "b": [1, 2]}
        new = apply_patch(old, [{"op": "replace", "path": "/a/x", "value": 2}])
        assert share(old, new) is new

    @pytest.mark.parametrize(("old", "new"), [(1, True), (1, 1.0), (0.0, -0.0), ([1], [True])])
    def test_json_types_are_kept_apart(self, old: Any, new: Any) -> None:
        """Python-equal but JSON-different values are never swapped."""
        assert msgspec.json.encode(share({"v": old}, {"v": new})) == msgspec.json.encode({"v": new})

    @settings(max_examples=300, deadline=None)
    @given(json_values, json_values)
    def test_result_encodes_like_new(self, old: Any, new: Any) -> None:
        """Sharing never changes what the new value encodes to."""
        assert msgspec.json.encode(share(old, new)) == msgspec.json.encode(new)


_DECODE = msgspec.json.Decoder(float_hook=js_number).decode
texts_and_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from([1.0, 2.5])
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=25,
)


class TestShareText:
    def test_unchanged_members_and_items_are_the_old_objects(self) -> None:
        """Subtrees with the same text are the old objects; the change is named exactly."""
        old_text = msgspec.json.encode({"items": [{"n": i} for i in range(5)], "t": {"a": 1}})
        new_text = msgspec.json.encode(
            {"items": [{"n": 0}, {"n": 1}, {"n": 9}, {"n": 3}, {"n": 4}], "t": {"a": 1}}
        )
        old, new = _DECODE(old_text), _DECODE(new_text)
        shared, paths = share_text(old, old_text, new_text, _DECODE)
        assert shared == new
        assert paths == (("items", "2", "n"),)
        assert shared["t"] is old["t"]
        assert [a is b for a, b in zip(shared["items"], old["items"], strict=True)] == [
            True,
            True,
            False,
            True,
            True,
        ]

    def test_same_text_is_the_old_value(self) -> None:
        """A re-sent value with the same text comes back as the old object, with no paths."""
        text = b'{"a":[1,2,{"b":null}]}'
        old = _DECODE(text)
        assert share_text(old, text, text, _DECODE) == (old, ())

    @pytest.mark.parametrize(
        ("old_text", "new_text", "paths"),
        [
            (b'{"v":1}', b'{"v":true}', {("v",)}),
            (b'{"v":1}', b'{"v":1.0}', {("v",)}),  # same value, other text: only unshared
            (b'{"a":1,"b":2}', b'{"b":2,"a":1}', {()}),
            (b'{"a":1}', b'{"a":1,"c":3}', {("c",)}),
            (b'{"a":1,"c":3}', b'{"a":1}', {("c",)}),
            (b"[1,2]", b"[1,3,4]", {("1",), ("2",)}),
            (b'{"x":{"y":1}}', b'{"x":[1]}', {("x",)}),
        ],
    )
    def test_paths(self, old_text: bytes, new_text: bytes, paths: set[tuple[str, ...]]) -> None:
        """Changed members, items, types, key order and lengths are all named."""
        shared, found = share_text(_DECODE(old_text), old_text, new_text, _DECODE)
        assert found is not None
        assert set(found) == paths
        assert msgspec.json.encode(shared) == msgspec.json.encode(_DECODE(new_text))

    def test_only_changed_parts_are_decoded(self) -> None:
        """Bytes that do not decode (a string that is not UTF-8) fail where the text
        changed and are never read where it did not."""
        old_text = b'{"a":[1,2],"b":3}'
        with pytest.raises(msgspec.DecodeError):
            share_text(_DECODE(old_text), old_text, b'{"a":[1,2],"b":"\xff"}', _DECODE)
        # A member whose text is unchanged is taken from the old value, never decoded:
        # here its text would not decode, and the old value stands in for it.
        shared, paths = share_text(
            {"a": "kept", "b": 3}, b'{"a":"\xff","b":3}', b'{"a":"\xff","b":4}', _DECODE
        )
        assert shared == {"a": "kept", "b": 4}
        assert paths == (("b",),)

    def test_many_changes_give_no_paths(self) -> None:
        """Past 256 changed paths the value is still shared but the paths are not listed."""
        old_text = msgspec.json.encode(list(range(300)))
        new_text = msgspec.json.encode([-i - 1 for i in range(300)])
        shared, paths = share_text(_DECODE(old_text), old_text, new_text, _DECODE)
        assert paths is None
        assert shared == _DECODE(new_text)

    @settings(max_examples=400, deadline=None)
    @given(texts_and_values, texts_and_values, st.booleans())
    def test_result_is_new_and_paths_cover_every_change(
        self, old_source: Any, new_source: Any, spaced: bool
    ) -> None:
        """The result encodes like the new value, and every difference lies on a named path."""
        old_text = msgspec.json.encode(old_source)
        new_text = (
            json.dumps(new_source, indent=1).encode() if spaced else msgspec.json.encode(new_source)
        )
        old, new = _DECODE(old_text), _DECODE(new_text)
        shared, paths = share_text(old, old_text, new_text, _DECODE)
        assert msgspec.json.encode(shared) == msgspec.json.encode(new)
        assert paths is not None
        for operation in diff(old, shared):
            tokens = parse(operation["path"])
            assert any(tokens[: len(p)] == p or p[: len(tokens)] == tokens for p in paths)
