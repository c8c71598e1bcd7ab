"""How deeply a JSON value nests (:mod:`a2ui_stream._tree.depth`).

``deeper_than(v, n)`` is ``depth(v) > n`` for every tree and every ``n``, on both sides
of the recursion's hand-over to the level-at-a-time walk, and it stops at the limit.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from helpers import depth_of, json_values, nested
from hypothesis import given
from hypothesis import strategies as st

from a2ui_stream._tree import depth
from a2ui_stream._tree.depth import (
    Exceeded,
    count_values,
    deeper_than,
    size_within,
    text_depth_bound,
)

#: Strings made of what the bound must see through: quotes, backslashes, brackets.
_TRICKY = st.text(alphabet='"\\[]{}a', max_size=6)
_TRICKY_VALUES = st.recursive(
    st.none() | st.integers(-5, 5) | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=24,
)


class TestTextDepthBound:
    @given(st.one_of(json_values, _TRICKY_VALUES), st.integers(0, 8))
    def test_never_below_the_depth_and_within_the_limit_when_it_is(
        self, value: Any, limit: int
    ) -> None:
        """A bound, whatever strings hold; within ``limit`` whenever the depth is."""
        text = msgspec.json.encode(value)
        bound = text_depth_bound(text, limit)
        assert bound >= depth_of(value)
        if depth_of(value) <= limit:
            assert bound <= limit

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            (rb'{"a":[1],"b":{}}', 2),
            (rb'[[],{"k":[{}]},[]]', 4),
            (rb'[["]]]]"],"[[[["]', 2),  # brackets inside strings are not levels
            (rb'[{"a\\":"\\"},["\\\"]]"]]', 2),  # escaped backslashes, an escaped quote
            (rb'{"\"[[[[":["\"]]]]"]}', 2),
        ],
    )
    def test_exact_past_the_opening_count(self, text: bytes, expected: int) -> None:
        """When brackets outnumber the limit, the depth outside strings is read exactly."""
        msgspec.json.decode(text)  # each case is JSON
        assert text.count(b"[") + text.count(b"{") > expected  # past the count's shortcut
        assert text_depth_bound(text, expected) == expected
        assert text_depth_bound(text, expected - 1) > expected - 1

    def test_past_the_limit_gives_the_opening_count(self) -> None:
        """Deeper than the limit, no pass beyond it: the count of opening brackets."""
        text = b"[" * 500 + b"]" * 500
        assert text_depth_bound(text, 32) == 500
        assert text_depth_bound(b'"[[{"', 0) == 0  # a string alone nests nothing
        assert text_depth_bound(b"1", 0) == 0


class TestDeeperThan:
    def test_deeper_than_matches_the_obvious_count(self) -> None:
        """On random trees, deeper_than(v, n) is depth(v) > n, for every n."""
        import random  # noqa: PLC0415 - only this test draws

        rng = random.Random(12)

        def tree(level: int) -> Any:
            roll = rng.random()
            if level > 7 or roll < 0.3:
                return rng.choice([1, "s", None, True, 2.5])
            if roll < 0.65:
                return [tree(level + 1) for _ in range(rng.randrange(4))]
            return {str(i): tree(level + 1) for i in range(rng.randrange(4))}

        for _ in range(500):
            value = tree(0)
            levels = depth_of(value)
            assert [deeper_than(value, n) for n in range(-1, 10)] == [
                levels > n for n in range(-1, 10)
            ]

    def test_deeper_than_stops_at_the_limit(self) -> None:
        """A value a million levels deep is judged in a few levels' time."""
        assert deeper_than(nested(1_000_000), 64)
        assert not deeper_than(nested(64), 64)

    @pytest.mark.parametrize(
        ("value", "levels"),
        [(1, 0), ("s", 0), (None, 0), ([], 1), ({}, 1), ([{"a": 1}], 2), ({"a": [[], {}]}, 3)],
    )
    def test_the_documented_counts(self, value: Any, levels: int) -> None:
        """A scalar nests 0 levels, ``[]`` and ``{}`` 1, ``[{"a": 1}]`` 2."""
        assert not deeper_than(value, levels)
        assert deeper_than(value, levels - 1)

    def test_a_negative_limit_allows_nothing(self) -> None:
        assert deeper_than(1, -1)
        assert deeper_than(None, -5)

    @pytest.mark.parametrize("levels", range(depth._RECURSION - 2, depth._RECURSION + 3))
    def test_at_the_hand_over_between_the_walks(self, levels: int) -> None:
        """The recursion gives way after a few levels: the count is exact either side."""
        for value in (nested(levels), nested(levels, {"k": 1}), {"k": nested(levels - 1, [])}):
            exact = depth_of(value)
            assert not deeper_than(value, exact)
            assert deeper_than(value, exact - 1)

    def test_the_deepest_branch_counts_wherever_it_is(self) -> None:
        """A deep branch after many shallow ones, past the recursion, is found."""
        deep = nested(40)
        value = {"a": [[1]] * 50, "b": [{"c": deep}]}
        assert depth_of(value) == 43
        assert deeper_than(value, 42)
        assert not deeper_than(value, 43)

    def test_other_containers_are_values(self) -> None:
        """Only dicts and lists nest: a tuple or a set is a leaf, as JSON has neither."""
        assert not deeper_than([(1, [2])], 1)
        assert not deeper_than({"a": frozenset()}, 1)


class TestSizeWithin:
    @pytest.mark.parametrize(
        ("value", "count"),
        [(1, 1), ([], 1), ({"a": [1, 2]}, 4), ([[], {}, "s"], 4), ({"a": {"b": {"c": None}}}, 4)],
    )
    def test_counts_every_value_as_json_writes_it(self, value: Any, count: int) -> None:
        assert size_within(value, depth=10, nodes=100) == count
        assert count_values(value) == count

    def test_a_shared_subtree_counts_at_each_place(self) -> None:
        shared = [1, 2]
        assert count_values({"a": shared, "b": shared}) == 7

    def test_the_bounds_are_inclusive(self) -> None:
        value = {"a": [1, 2]}  # 4 values, 2 levels
        assert size_within(value, depth=2, nodes=4) == 4
        assert size_within(value, depth=1, nodes=4) is Exceeded.DEPTH
        assert size_within(value, depth=2, nodes=3) is Exceeded.NODES

    def test_depth_agrees_with_deeper_than(self) -> None:
        for levels in (0, 1, 15, 16, 17, 200):
            value = nested(levels)
            assert size_within(value, depth=levels, nodes=10**6) == levels + 1
            assert size_within(value, depth=levels - 1, nodes=10**6) is Exceeded.DEPTH
            assert deeper_than(value, levels - 1)

    def test_a_negative_depth_allows_nothing(self) -> None:
        assert size_within(1, depth=-1, nodes=10) is Exceeded.DEPTH

    @pytest.mark.parametrize("scalar", [None, True, 0, 1.5, "", "text"])
    def test_a_scalar_is_one_value_at_no_depth(self, scalar: Any) -> None:
        """Decided before the walk: the answers the walk gives."""
        assert size_within(scalar, depth=0, nodes=1) == 1
        assert size_within(scalar, depth=0, nodes=0) is Exceeded.NODES
        assert size_within(scalar, depth=-1, nodes=0) is Exceeded.DEPTH

    def test_a_huge_value_is_refused_at_about_the_budget(self) -> None:
        """The next level's size is read from lengths before it is built."""
        wide = [list(range(100_000))]
        assert size_within(wide, depth=5, nodes=50) is Exceeded.NODES
        assert count_values(wide) == 100_002
