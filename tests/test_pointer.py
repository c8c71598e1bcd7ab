"""Tests for JSON Pointer parsing and copy-on-write writes."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import jsonpointer
import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec import UNSET

from a2ui_stream._tree.gaps import GAP
from a2ui_stream._tree.pointer import (
    MAX_ARRAY_GAP,
    PointerError,
    delete_value,
    escape_token,
    get,
    merge_value,
    parse,
    parse_pointer,
    remove,
    set_value,
    write,
)


class TestParse:
    def test_empty_is_whole_document(self) -> None:
        """The empty pointer has no tokens."""
        assert parse("") == ()

    def test_escapes_decode_in_rfc_order(self) -> None:
        """``~1`` becomes ``/`` before ``~0`` becomes ``~``, so ``~01`` is ``~1``."""
        assert parse("/a~1b/~0c/~01") == ("a/b", "~c", "~1")

    def test_empty_segments_are_keys(self) -> None:
        """Empty tokens are the empty-string key, including a trailing slash."""
        assert parse("//a/") == ("", "a", "")

    @pytest.mark.parametrize("pointer", ["/a~2", "/a~", "/~x/b"])
    def test_bad_escape_is_error(self, pointer: Any) -> None:
        """A ``~`` not followed by 0 or 1 is refused."""
        with pytest.raises(PointerError, match="'~'"):
            parse(pointer)

    def test_escape_round_trip(self) -> None:
        """Escaping then parsing gives back the original tokens, ``~`` and ``/`` included."""
        tokens = ["a/b", "~1", "~", "", "__proto__"]
        pointer = "".join(f"/{escape_token(t)}" for t in tokens)
        assert pointer == "/a~1b/~01/~0//__proto__"
        assert parse_pointer(pointer) == tokens

    def test_relative_pointer_is_error(self) -> None:
        """A pointer must start with ``/``."""
        with pytest.raises(PointerError, match="start with"):
            parse("a/b")


TOKENS = st.lists(st.text(alphabet="ab/~01", max_size=6), max_size=5)


class TestAgainstJsonpointer:
    """The ``jsonpointer`` package, an independent RFC 6901 reader, as the oracle."""

    @given(tokens=TOKENS)
    def test_escape_and_parse_agree(self, tokens: list[str]) -> None:
        """Tokens escaped by either side parse back the same way on both sides."""
        ours = "".join("/" + escape_token(token) for token in tokens)
        theirs = "".join("/" + jsonpointer.escape(token) for token in tokens)
        assert ours == theirs
        assert list(parse(ours)) == jsonpointer.JsonPointer(ours).parts == tokens


class TestGet:
    DOC: ClassVar[dict[str, Any]] = {"a": [10, {"b": None}], "": 1, "__proto__": {"x": 2}}

    @pytest.mark.parametrize(
        ("pointer", "expected"),
        [
            ("", DOC),
            ("/a/0", 10),
            ("/a/1/b", None),
            ("/", 1),
            ("/__proto__/x", 2),
        ],
    )
    def test_found(self, pointer: Any, expected: Any) -> None:
        """Existing values are returned, null included."""
        assert get(self.DOC, parse(pointer)) == expected

    @pytest.mark.parametrize("pointer", ["/zz", "/a/2", "/a/-", "/a/01", "/a/x", "/a/0/b"])
    def test_missing_is_unset(self, pointer: Any) -> None:
        """Missing keys, out-of-range, ``-``, leading zeros and primitives give UNSET."""
        assert get(self.DOC, parse(pointer)) is UNSET

    def test_no_document(self) -> None:
        """Looking into no document finds nothing."""
        assert get(UNSET, parse("/a")) is UNSET


class TestSetValue:
    def test_root_replaces(self) -> None:
        """An empty pointer replaces the whole document."""
        assert set_value({"a": 1}, (), [1]) == [1]

    def test_creates_object_parents(self) -> None:
        """Missing parents are objects when the next token is a key."""
        assert set_value(UNSET, parse("/a/b"), 1) == {"a": {"b": 1}}

    def test_creates_array_parents(self) -> None:
        """Missing parents are arrays when the next token is an index or ``-``."""
        assert set_value(UNSET, parse("/a/0/b"), 1) == {"a": [{"b": 1}]}
        assert set_value({}, parse("/a/-"), 1) == {"a": [1]}

    @pytest.mark.parametrize("doc", [UNSET, None, 5, "text", True])
    @pytest.mark.parametrize("pointer", ["/0", "/-", "/0/name"])
    def test_the_document_itself_becomes_an_object(self, doc: Any, pointer: str) -> None:
        """A model that is missing or no container is replaced by ``{}``, whatever the key.

        Upstream's rule for the container written into (reference converter 1e); the
        index rule is for a missing child below it. Found by a probe: ``/0`` into an
        empty model made the whole model a list, which a template over ``/`` then drew.
        """
        tokens = parse(pointer)
        expected: Any = "x"
        for token in reversed(tokens[1:]):
            expected = {token: expected}
        assert set_value(doc, tokens, "x") == {tokens[0]: expected}

    def test_null_parent_is_created(self) -> None:
        """A null intermediate is treated as missing."""
        assert set_value({"a": None}, parse("/a/0"), "x") == {"a": ["x"]}

    def test_primitive_parent_becomes_object(self) -> None:
        """A primitive in the way is replaced by an object, even before an index token."""
        assert set_value({"a": 5}, parse("/a/0"), 1) == {"a": {"0": 1}}

    def test_dash_appends(self) -> None:
        """``-`` appends to an array."""
        assert set_value({"a": [1]}, parse("/a/-"), 2) == {"a": [1, 2]}

    def test_index_past_end_leaves_gaps(self) -> None:
        """An index past the end leaves gaps (JavaScript's holes), not nulls, and counts them."""
        assert write([1], parse("/3"), 4) == ([1, GAP, GAP, 4], 2)
        assert write([1], parse("/1"), 4) == ([1, 4], 0)
        assert write({}, parse("/a/2/b"), 4) == ({"a": [GAP, GAP, {"b": 4}]}, 2)

    def test_gap_as_parent_is_missing(self) -> None:
        """Writing through a gap builds the parent a missing one would get."""
        assert set_value([GAP], parse("/0/1"), "x") == [[GAP, "x"]]
        assert set_value([GAP], parse("/0/k"), "x") == [{"k": "x"}]

    def test_gap_is_read_as_its_slot(self) -> None:
        """``get`` gives the gap itself: a slot, which the size estimate counts."""
        assert get([1, GAP], parse("/1")) is GAP
        assert get([1, GAP], parse("/1/a")) is UNSET

    def test_append_after_gaps(self) -> None:
        """``-`` appends after the gaps, as the length counts them."""
        assert set_value([GAP, GAP], parse("/-"), 1) == [GAP, GAP, 1]

    def test_huge_gap_is_refused(self) -> None:
        """An index far past the end is an error, not a huge allocation."""
        with pytest.raises(PointerError, match="too far"):
            set_value([], (str(MAX_ARRAY_GAP + 1),), 1)

    @pytest.mark.parametrize("token", ["x", "01", "-1", "1.0"])
    def test_non_index_on_array_is_error(self, token: Any) -> None:
        """Keys and leading zeros are not array indices."""
        with pytest.raises(PointerError, match="not an array index"):
            set_value({"a": [1, 2]}, ("a", token), 0)

    def test_proto_key_is_plain_key(self) -> None:
        """``__proto__`` is an ordinary key."""
        assert set_value({}, parse("/__proto__/polluted"), value=True) == {
            "__proto__": {"polluted": True}
        }

    def test_copy_on_write(self) -> None:
        """The input is unchanged and untouched siblings keep their identity."""
        doc: dict[str, Any] = {"a": {"x": [1]}, "b": {"y": 2}}
        before = copy.deepcopy(doc)
        new = set_value(doc, parse("/a/z"), 3)
        assert doc == before
        assert new == {"a": {"x": [1], "z": 3}, "b": {"y": 2}}
        assert new["b"] is doc["b"]
        assert new["a"]["x"] is doc["a"]["x"]
        assert new["a"] is not doc["a"]


class TestDeleteValue:
    def test_removes_key(self) -> None:
        """An object key is removed."""
        assert delete_value({"a": 1, "b": 2}, parse("/a")) == {"b": 2}

    def test_array_length_preserved(self) -> None:
        """Deleting an array element leaves a gap in its slot (the spec's undefined)."""
        assert delete_value({"a": [1, 2, 3]}, parse("/a/1")) == {"a": [1, GAP, 3]}
        assert remove({"a": [1, None]}, parse("/a/1")) == ({"a": [1, GAP]}, 1)
        assert remove({"a": 1}, parse("/a")) == ({}, 0)

    def test_deleting_a_gap_is_noop(self) -> None:
        """A gap is already absent: deleting it returns the same document."""
        doc = {"a": [GAP, 1]}
        assert remove(doc, parse("/a/0")) == (doc, 0)
        assert remove(doc, parse("/a/0"))[0] is doc

    def test_root_deletes_document(self) -> None:
        """Deleting the empty pointer leaves no document."""
        assert delete_value({"a": 1}, ()) is UNSET

    @pytest.mark.parametrize("pointer", ["/zz", "/a/9", "/a/x", "/b/c/d"])
    def test_missing_target_is_noop(self, pointer: Any) -> None:
        """A missing target returns the same document object."""
        doc = {"a": [1], "b": 2}
        assert delete_value(doc, parse(pointer)) is doc

    def test_siblings_shared(self) -> None:
        """Untouched siblings keep their identity and the input is unchanged."""
        doc = {"a": {"x": 1, "y": 2}, "b": [1]}
        new = delete_value(doc, parse("/a/x"))
        assert new == {"a": {"y": 2}, "b": [1]}
        assert new["b"] is doc["b"]
        assert doc == {"a": {"x": 1, "y": 2}, "b": [1]}


class TestMergeValue:
    def test_sets_each_key(self) -> None:
        """Keys not named keep their values."""
        doc = {"form": {"a": 1, "b": 2}}
        assert merge_value(doc, parse("/form"), {"b": 3, "c": 4}) == {
            "form": {"a": 1, "b": 3, "c": 4}
        }
        assert doc == {"form": {"a": 1, "b": 2}}

    def test_non_object_target_replaced(self) -> None:
        """A missing or primitive target becomes the merged object."""
        assert merge_value(UNSET, (), {"a": 1}) == {"a": 1}
        assert merge_value({"x": 5}, parse("/x"), {"a": 1}) == {"x": {"a": 1}}
