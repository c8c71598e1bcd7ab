"""Frozen JSON containers (:mod:`a2ui_stream._wire.frozen`).

They refuse every change, read and encode as the dicts and lists they are, keep
frozen subtrees when freezing, copy and pickle as themselves, and freeze values of
any depth without exhausting the stack.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle
from typing import Any

import msgspec
import pytest
from helpers import nested

from a2ui_stream._wire.frozen import (
    FrozenDict,
    FrozenList,
    copied,
    extended,
    fill,
    freeze,
    grown_from,
)

DICT_CHANGES = [
    ("setitem", lambda d: d.__setitem__("a", 2)),
    ("delitem", lambda d: d.__delitem__("a")),
    ("ior", lambda d: d.__ior__({"b": 1})),
    ("clear", lambda d: d.clear()),
    ("pop", lambda d: d.pop("a")),
    ("popitem", lambda d: d.popitem()),
    ("setdefault", lambda d: d.setdefault("z", 1)),
    ("update", lambda d: d.update(z=1)),
]
LIST_CHANGES = [
    ("setitem", lambda v: v.__setitem__(0, 9)),
    ("slice", lambda v: v.__setitem__(slice(0, 1), [9])),
    ("delitem", lambda v: v.__delitem__(0)),
    ("iadd", lambda v: v.__iadd__([3])),
    ("imul", lambda v: v.__imul__(2)),
    ("append", lambda v: v.append(3)),
    ("extend", lambda v: v.extend([3])),
    ("insert", lambda v: v.insert(0, 3)),
    ("pop", lambda v: v.pop()),
    ("remove", lambda v: v.remove(1)),
    ("clear", lambda v: v.clear()),
    ("sort", lambda v: v.sort()),
    ("reverse", lambda v: v.reverse()),
]


class TestRefusals:
    @pytest.mark.parametrize(("name", "change"), DICT_CHANGES, ids=[n for n, _ in DICT_CHANGES])
    def test_dict_refuses(self, name: str, change: Any) -> None:
        frozen = freeze({"a": 1})
        with pytest.raises(TypeError, match="a FrozenDict is immutable"):
            change(frozen)
        assert frozen == {"a": 1}, name

    @pytest.mark.parametrize(("name", "change"), LIST_CHANGES, ids=[n for n, _ in LIST_CHANGES])
    def test_list_refuses(self, name: str, change: Any) -> None:
        frozen = freeze([2, 1])
        with pytest.raises(TypeError, match="a FrozenList is immutable"):
            change(frozen)
        assert frozen == [2, 1], name

    def test_augmented_assignment_leaves_the_value(self) -> None:
        frozen = freeze({"a": [1]})
        inner = frozen["a"]
        with pytest.raises(TypeError):
            inner += [2]
        assert frozen == {"a": [1]}


class TestFreeze:
    def test_reads_encodes_and_compares_as_plain_json(self) -> None:
        value = {"a": [1, {"b": [2.5, None, True]}], "c": "s"}
        frozen = freeze(value)
        assert frozen == value
        assert isinstance(frozen, dict)
        assert isinstance(frozen["a"], FrozenList)
        assert msgspec.json.encode(frozen) == msgspec.json.encode(value)
        assert json.dumps(frozen) == json.dumps(value)
        plain = msgspec.to_builtins(frozen)
        assert type(plain) is dict
        assert type(plain["a"][1]) is dict

    def test_the_input_is_not_changed(self) -> None:
        inner: dict[str, Any] = {"b": []}
        value = {"a": [1, inner]}
        freeze(value)
        assert type(value["a"]) is list
        assert value["a"][1] is inner
        assert type(inner["b"]) is list

    @pytest.mark.parametrize("scalar", [None, True, 0, 2.5, "s", ("tuple",)])
    def test_anything_else_is_returned_itself(self, scalar: object) -> None:
        assert freeze(scalar) is scalar

    def test_frozen_subtrees_are_kept(self) -> None:
        """Freezing what holds frozen values keeps them: it costs the new part only."""
        inner = freeze({"x": [1]})
        outer = freeze({"children": [inner, inner]})
        assert outer["children"][0] is inner
        assert freeze(outer) is outer

    def test_copies_stay_frozen(self) -> None:
        frozen = freeze({"a": [1]})
        assert copy.copy(frozen) is frozen
        assert copy.deepcopy(frozen) is frozen
        restored = pickle.loads(pickle.dumps(frozen))  # noqa: S301 - our own bytes
        assert restored == frozen
        assert isinstance(restored, FrozenDict)
        assert isinstance(restored["a"], FrozenList)

    def test_deep_value_does_not_exhaust_the_stack(self) -> None:
        value: dict[str, Any] = {}
        node = value
        for _ in range(5000):
            node["k"] = {}
            node = node["k"]
        assert isinstance(freeze(value), FrozenDict)

    @pytest.mark.parametrize("levels", [31, 32, 33, 34, 200])
    def test_every_level_is_frozen_either_side_of_the_recursion(self, levels: int) -> None:
        """The recursive and the iterative walk meet at a depth: no level is missed."""
        value = {"top": nested(levels, {"leaf": [1]})}
        frozen = freeze(value)
        assert frozen == value
        node: Any = frozen
        seen = 0
        while isinstance(node, dict | list):
            assert type(node) in {FrozenDict, FrozenList}, seen
            key: Any = "top" if seen == 0 else "leaf" if type(node) is FrozenDict else 0
            node = node[key]
            seen += 1
        assert seen == levels + 3

    def test_operators_give_plain_lists(self) -> None:
        frozen = freeze([1, 2])
        assert type(frozen + [3]) is list  # noqa: RUF005 - the operator is what is tested
        assert type(frozen * 2) is list


class TestExtended:
    def test_a_frozen_list_then_more_neither_changed(self) -> None:
        """``extended`` gives the items then the others, frozen, from a frozen or plain list."""
        frozen = FrozenList([1, {"a": 2}])
        more = [3]
        made = extended(frozen, more)
        assert isinstance(made, FrozenList)
        with pytest.raises(TypeError):
            made.append(4)
        assert made == [1, {"a": 2}, 3]
        assert made[1] is frozen[1]
        assert frozen == [1, {"a": 2}]
        assert more == [3]
        assert extended([], []) == []


class TestCopied:
    @pytest.mark.parametrize(
        "source",
        [
            [1, {"a": 2}],
            FrozenList([1, FrozenDict({"a": 2})]),
            extended(FrozenList([1]), [FrozenDict({"a": 2})]),
            {"k": [1], "j": 2},
            FrozenDict({"k": FrozenList([1]), "j": 2}),
        ],
        ids=["list", "frozen list", "grown list", "dict", "frozen dict"],
    )
    def test_a_frozen_copy_to_fill_leaves_the_source_alone(self, source: Any) -> None:
        """Plain or frozen in, a new frozen container of the same kind out, members shared."""
        before = copy.deepcopy(source)
        made: Any = copied(source)
        assert made is not source
        assert type(made) is (FrozenDict if isinstance(source, dict) else FrozenList)
        assert made == source
        keys: list[Any] = list(source) if isinstance(source, dict) else list(range(len(source)))
        assert all(made[key] is source[key] for key in keys)
        fill(made, keys[0], "filled")
        assert source == before
        with pytest.raises(TypeError):
            made[keys[0]] = "again"


class TestGrownFrom:
    def test_a_list_knows_the_list_it_was_grown_from(self) -> None:
        """Grown from ``base`` (directly or through a chain alive), never from an equal copy."""
        base = FrozenList(["a", "b"])
        once = extended(base, ["c"])
        twice = extended(once, ["d"])
        assert grown_from(once, base)
        assert grown_from(twice, once)
        assert grown_from(twice, base)
        assert not grown_from(once, FrozenList(["a", "b"]))  # equal, not the same object
        assert not grown_from(base, once)
        assert not grown_from(["a", "b", "c"], base)
        assert not grown_from(extended(["a", "b"], ["c"]), base)  # a plain base is not kept

    def test_the_base_is_held_weakly(self) -> None:
        """A chain of grown lists keeps none of the older ones alive."""
        base = FrozenList(list(range(3)))
        middle = extended(base, [3])
        last = extended(middle, [4])
        probe = FrozenList(list(range(4)))
        del middle
        gc.collect()
        assert grown_from(last, base) is False  # the link through ``middle`` is gone
        assert not grown_from(last, probe)
        assert last == [0, 1, 2, 3, 4]
