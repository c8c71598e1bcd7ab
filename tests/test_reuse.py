"""Tests for reuse: subtree summaries, data diffs and the reuse check."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from a2ui_stream._convert.reuse import (
    EVERYWHERE,
    MAX_REGION_PATHS,
    Basis,
    Changes,
    Expansion,
    Memo,
    changes_between,
    common_prefix,
    id_bit,
    join,
    mask_of,
    widen,
)
from a2ui_stream._state.surface import Surface
from a2ui_stream._tree.patch import DataChange
from a2ui_stream._wire.limits import Limits
from a2ui_stream.a2ui import Component


def comp(cid: str) -> Component:
    return Component(id=cid, component="Divider", props={})


def basis(data: Any, components: dict[str, Component] | None = None, **kw: Any) -> Basis:
    s = Surface(surface_id=kw.get("sid", "s"), version=kw.get("version", "v0.9"),
                components=components or {}, data_model=data)  # fmt: skip
    return Basis(s, kw.get("limits", Limits()))


class TestCommonPrefix:
    @pytest.mark.parametrize(
        ("a", "b", "expected"),
        [
            ((), ("x",), ()),
            (("s", "1"), ("s", "1", "t"), ("s", "1")),
            (("s", "1", "t"), ("s", "1"), ("s", "1")),
            (("s", "1", "t"), ("s", "2", "t"), ("s",)),
            (("a",), ("b",), ()),
            (("a", "b"), ("a", "b"), ("a", "b")),
        ],
    )
    def test_prefix(
        self, a: tuple[str, ...], b: tuple[str, ...], expected: tuple[str, ...]
    ) -> None:
        """The longest common prefix, in either argument order."""
        assert common_prefix(a, b) == expected
        assert common_prefix(b, a) == expected


class TestRegion:
    @pytest.mark.parametrize(
        ("region", "path", "expected"),
        [
            ((), ("a", "b"), (("a", "b"),)),
            ((("a",),), ("a", "b"), (("a",),)),  # already covered
            ((("a", "b"),), ("a", "b"), (("a", "b"),)),
            ((("c",), ("a", "b")), ("a",), (("c",), ("a",))),  # replaces what it covers
            ((("s", "3", "t"),), ("s", "3", "u"), (("s", "3"),)),  # one key: common prefix
            ((("a", "b"),), ("c",), (("a", "b"), ("c",))),  # kept apart, not ()
            (((),), ("x", "y"), ((),)),  # the empty path covers everything
            ((("x",),), (), ((),)),
        ],
    )
    def test_widen(
        self,
        region: tuple[tuple[str, ...], ...],
        path: tuple[str, ...],
        expected: tuple[tuple[str, ...], ...],
    ) -> None:
        """A region grows to cover a path, keeping paths under other keys apart."""
        assert widen(region, path) == expected

    def test_widen_past_the_limit_covers_everything(self) -> None:
        """Past the limit of top-level keys the region is the whole model."""
        region: tuple[tuple[str, ...], ...] = ()
        for key in range(MAX_REGION_PATHS):
            region = widen(region, (str(key), "x"))
        assert len(region) == MAX_REGION_PATHS
        assert widen(region, ("more",)) == EVERYWHERE

    def test_widen_never_loses_a_path(self) -> None:
        """Whatever the order, every path read stays at or under a region path."""
        paths = [(a, b, c) for a in "abcdefgh" for b in "xy" for c in "uv"]
        region: tuple[tuple[str, ...], ...] = ()
        for path in paths:
            region = widen(region, path)
            assert len(region) <= MAX_REGION_PATHS
            assert len({r[:1] for r in region}) == len(region)  # one path per key
        for path in paths:
            assert any(path[: len(r)] == r for r in region)

    def test_join(self) -> None:
        """Joining covers both regions; joining the same region is free."""
        first = (("a", "1"), ("t",))
        assert join((), first) is first
        assert join(first, first) is first
        assert set(join(first, (("a", "2"), ("u",)))) == {("t",), ("a",), ("u",)}


class TestChanges:
    def memo(self, region: tuple[str, ...] | None, cid: str = "x") -> Memo:
        return Memo(comp(cid), (), 0, region=() if region is None else (region,))

    @pytest.mark.parametrize(
        ("region", "reusable"),
        [
            (None, True),
            (("s", "2"), True),
            (("s", "1", "u"), True),
            (("s", "1", "t"), False),  # read exactly what changed
            (("s", "1", "t", "x"), False),  # read below what changed
            (("s", "1"), False),  # read a container holding what changed
            ((), False),
        ],
    )
    def test_region_against_a_changed_path(
        self, region: tuple[str, ...] | None, reusable: bool
    ) -> None:
        """A subtree is reusable when its region neither contains nor lies under a change."""
        changes = Changes(0, [("s", "1", "t")])
        assert changes.unchanged(self.memo(region)) is reusable

    @pytest.mark.parametrize(
        ("change", "reusable"),
        [
            (("items", "3", "price"), True),  # elsewhere in the item
            (("items", "3", "name"), False),  # what it read
            (("items", "3", "name", "first"), False),  # under what it read
            (("items", "3", "tags"), False),  # holds what it read
            (("items", "3"), False),  # the item replaced
            (("items",), False),  # the list replaced
            (("items", "4", "name"), True),  # another item
        ],
    )
    def test_item_reads_against_a_change(self, change: tuple[str, ...], reusable: bool) -> None:
        """A memo in a template item depends on what it read of its item, not on all of it."""
        memo = Memo(comp("x"), ("items", "3"), 0, reads=(("name",), ("tags", "0", "label")))
        assert Changes(0, [change]).unchanged(memo) is reusable

    def test_any_region_path_meeting_a_change_counts(self) -> None:
        """A region of several paths is touched when any of them is."""
        changes = Changes(0, [("items", "3", "name")])
        apart = Memo(comp("x"), (), 0, region=(("items", "2"), ("title",)))
        touched = Memo(comp("x"), (), 0, region=(("title",), ("items", "3")))
        assert changes.unchanged(apart)
        assert not changes.unchanged(touched)

    def test_component_change_reaches_parents(self) -> None:
        """A replaced component makes every memo that reached it unreusable."""
        leaf = self.memo(None, "leaf")
        parent = Memo(comp("p"), (), 0, kids=[leaf, "missing"])
        other = Memo(comp("o"), (), 0)
        assert not Changes(id_bit("leaf"), []).unchanged(parent)
        assert not Changes(id_bit("missing"), []).unchanged(parent)
        free = next(1 << i for i in range(1024) if not (1 << i) & mask_of(parent))
        assert Changes(free, []).unchanged(parent)
        assert mask_of(other) == id_bit("o")

    def test_same_inputs_change_nothing(self) -> None:
        """Identical bases give empty changes."""
        b = basis({"a": 1})
        changes = changes_between(b, b)
        assert changes is not None
        assert (changes.mask, changes.paths) == (0, frozenset())

    @pytest.mark.parametrize(
        ("old", "new", "paths"),
        [
            ({"v": 1}, {"v": 1.0}, {("v",)}),
            ({"v": 1}, {"v": True}, {("v",)}),
            ({"v": 0.5}, {"v": 0.5}, set()),
            ({"a": 1, "b": 2}, {"b": 2, "a": 1}, {()}),
            ({"a": 1}, {"a": 1, "b": 2}, {("b",)}),
            ({"l": [1, 2]}, {"l": [1, 3, 4]}, {("l", "1"), ("l", "2")}),
            ({"x": {"y": 1}}, {"x": [1]}, {("x",)}),
            (msgspec.UNSET, {}, {()}),
        ],
    )
    def test_data_paths(self, old: Any, new: Any, paths: set[tuple[str, ...]]) -> None:
        """Changed paths tell 1, 1.0 and true apart and see key order, as the output would."""
        changes = changes_between(basis(old), basis(new))
        assert changes is not None
        assert set(changes.paths) == paths

    def test_components_changed_by_id(self) -> None:
        """Added, removed and replaced components are in the mask; kept ones are not."""
        kept, old_b, new_b = comp("k"), comp("b"), comp("b")
        changes = changes_between(
            basis({}, {"k": kept, "b": old_b, "r": comp("r")}),
            basis({}, {"k": kept, "b": new_b, "n": comp("n")}),
        )
        assert changes is not None
        assert changes.mask == id_bit("b") | id_bit("r") | id_bit("n")

    @pytest.mark.parametrize(
        "other",
        [
            {"limits": Limits(max_nodes=3)},
            {"sid": "t"},
            {"version": "v0.8"},
        ],
    )
    def test_other_settings_refuse_reuse(self, other: dict[str, Any]) -> None:
        """Different limits, surface or version never reuse."""
        assert changes_between(basis({}), basis({}, **other)) is None

    def test_shared_subtrees_are_not_walked(self) -> None:
        """Data that keeps identity off the changed path diffs to exactly that path."""
        items = [{"name": f"n{i}", "tags": [i]} for i in range(50)]
        old = {"title": "T", "items": items}
        new_items = list(items)
        new_items[7] = {**items[7], "name": "changed"}
        changes = changes_between(basis(old), basis({**old, "items": new_items}))
        assert changes is not None
        assert set(changes.paths) == {("items", "7", "name")}

    def test_known_change_stands_in_for_the_diff(self) -> None:
        """A claim naming exactly the two data values gives its paths without a diff."""
        old = {"items": [{"name": "a"}, {"name": "b"}]}
        new = {"items": [old["items"][0], {"name": "c"}]}
        claim = DataChange(old, new, (("items", "1", "name"),))
        # Claimed paths are trusted as given: a wider one than the diff finds shows it.
        wide = DataChange(old, new, (("items",),))
        changes = changes_between(basis(old), basis(new), (claim,))
        assert changes is not None
        assert set(changes.paths) == {("items", "1", "name")}
        widened = changes_between(basis(old), basis(new), (wide,))
        assert widened is not None
        assert set(widened.paths) == {("items",)}

    def test_claim_about_other_values_is_ignored(self) -> None:
        """A claim whose values are not the bases' data is ignored; the diff decides."""
        old = {"v": 1}
        new = {"v": 2}
        stale = DataChange({"v": 1}, new, ())
        changes = changes_between(basis(old), basis(new), (stale,))
        assert changes is not None
        assert set(changes.paths) == {("v",)}

    def test_too_many_claimed_paths_refuse_reuse(self) -> None:
        """A claim of more than 256 paths counts as a new surface, as a long diff does."""
        old = {str(i): i for i in range(300)}
        new = {str(i): -i - 1 for i in range(300)}
        claim = DataChange(old, new, tuple((str(i),) for i in range(300)))
        assert changes_between(basis(old), basis(new), (claim,)) is None

    def test_too_many_changes_refuse_reuse(self) -> None:
        """Past 256 changed paths the update counts as a new surface."""
        old = {str(i): i for i in range(300)}
        new = {str(i): -i - 1 for i in range(300)}
        assert changes_between(basis(old), basis(new)) is None


class TestTouchedItems:
    BASE = ("items",)

    @pytest.mark.parametrize(
        ("paths", "expected"),
        [
            ([("items", "3", "name")], {3}),
            ([("items", "3", "name"), ("items", "3", "t"), ("items", "10")], {3, 10}),
            ([("count",)], set()),  # elsewhere: touches no item
            ([("itemsx", "1")], set()),
            ([("items",)], None),  # the list replaced
            ([()], None),  # the whole model replaced
            ([("items", "01", "name")], None),  # not an index the list has
            ([("items", "k")], None),
            ([("title",)], None),  # a path the items read outside themselves
            ([("title", "x")], None),
        ],
    )
    def test_items(self, paths: list[tuple[str, ...]], expected: set[int] | None) -> None:
        """Changes inside items name them; changes the items may read give ``None``."""
        assert Changes(0, paths).items(self.BASE, (("title",),)) == expected

    def test_component_change_touches_every_item(self) -> None:
        """A replaced component may be any item's: nothing can be patched."""
        assert Changes(id_bit("x"), []).items(self.BASE, ()) is None

    def test_nested_base(self) -> None:
        """A template inside an item patches the inner list under its own path."""
        changes = Changes(0, [("g", "1", "xs", "4", "n"), ("g", "2", "xs", "0")])
        assert changes.items(("g", "1", "xs"), ()) == {4}


class TestExpansion:
    def test_ready_sums_each_item(self) -> None:
        """Per-item budgets, the joint region and warnings are gathered once."""
        kids = [
            Memo(comp("i"), ("items", "0"), 1, region=(("title",),), count=3, work=4),
            Memo(comp("i"), ("items", "1"), 1, region=(("top",),), count=1, work=2),
        ]
        expansion = Expansion(
            base=("items",), comp=comp("i"), depth=1, kids=kids, out=[{}, {}], total=2
        )
        assert expansion.ready()
        assert (expansion.sizes, expansion.works) == ([4, 2], [4, 2])
        assert set(expansion.region) == {("title",), ("top",)}
        assert expansion.warned is False

    @pytest.mark.parametrize("kids", [["i"], [Memo(comp("i"), ("items", "0"), 1, whole=False)], []])
    def test_incomplete_is_never_patched(self, kids: list[Any]) -> None:
        """An item that emitted nothing, was cut, or was never reached forbids patching."""
        expansion = Expansion(
            base=("items",), comp=comp("i"), depth=1, kids=kids, out=[{}], total=1
        )
        assert not expansion.ready()
        assert not expansion.ready()
