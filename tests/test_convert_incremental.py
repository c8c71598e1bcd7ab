"""Tests that incremental conversions equal fresh ones: edits of data and components."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from convert_cases import (
    CONVERTER,
    cards_of,
    catalog,
    cells,
    claims,
    codes,
    comps,
    dashboard,
    edited,
    js,
    list_items,
    planned,
    root,
    same_as_fresh,
    surface,
    tagged,
    wide,
    with_row,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._convert.converter import Conversion, Converter
from a2ui_stream._convert.walk import Walk
from a2ui_stream._state.surface import ComponentChange, Surface
from a2ui_stream._wire.limits import Limits
from a2ui_stream.a2ui import Component


class TestIncremental:
    def test_freshly_decoded_equal_data(self) -> None:
        """An equal data model decoded afresh converts to an equal tree."""
        raw, data = dashboard(5)
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        decoded = msgspec.json.decode(msgspec.json.encode(data))
        same_as_fresh(CONVERTER, msgspec.structs.replace(s, data_model=decoded), first)

    def test_one_value_changes_one_card(self) -> None:
        """Changing one card's title changes that card only."""
        raw, data = dashboard(5)
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        changed = msgspec.json.decode(msgspec.json.encode(data))
        changed["cards"][2]["title"] = "New"
        again = same_as_fresh(CONVERTER, msgspec.structs.replace(s, data_model=changed), first)
        assert first.element is not None
        assert again.element is not None
        old_cards, new_cards = first.element["children"], again.element["children"]
        assert [a == b for a, b in zip(old_cards, new_cards, strict=True)] == [
            True, True, False, True, True,
        ]  # fmt: skip

    def test_replaced_label_child_rebuilds_the_button(self) -> None:
        """A Button whose label came from a Text child sees that child replaced."""
        raw = [
            root("Row", children=["b", "d"]),
            {"id": "b", "component": "Button", "child": "l"},
            {"id": "l", "component": "Text", "text": "Old"},
            {"id": "d", "component": "Divider"},
        ]
        first = CONVERTER.convert(surface(*raw))
        raw[2] = {"id": "l", "component": "Text", "text": "New"}
        again = same_as_fresh(CONVERTER, surface(*raw), first)
        assert again.element is not None
        assert again.element["children"][0] == {"$type": "Button", "label": "New"}

    def test_component_arriving_later_is_converted(self) -> None:
        """A child that was missing appears once its component arrives."""
        raw = [root("Column", children=["a", "b"]), {"id": "a", "component": "Divider"}]
        first = CONVERTER.convert(surface(*raw))
        assert codes(first) == ["convert.component_missing"]
        again = same_as_fresh(
            CONVERTER, surface(*raw, {"id": "b", "component": "Icon", "name": "x"}), first
        )
        assert js(again.element).count('"Icon"') == 1

    def test_item_gaining_a_field_read_from_the_root_changes(self) -> None:
        """An absolute path read from the root switches to the item once the item has it."""
        raw, data = catalog(3)
        data["price"] = "root price"
        s = surface(*raw, data={**data, "items": [{"name": "a"}, {"name": "b"}]})
        first = planned(CONVERTER, s)
        assert js(first.element).count("root price") == 2
        items = [{"name": "a"}, {"name": "b", "price": "own"}]
        again = same_as_fresh(CONVERTER, edited(s, items=items), first)
        assert js(again.element).count("root price") == 1
        assert '"value":"own"' in js(again.element)

    def test_item_change_changes_only_what_read_it(self) -> None:
        """A changed value in a template item changes its readers; its siblings stay."""
        raw = [
            root("List", children={"componentId": "row", "path": "/rows"}),
            {"id": "row", "component": "Row", "children": ["name", "price"]},
            {"id": "name", "component": "Text", "text": {"path": "name/first"}},
            {"id": "price", "component": "Text", "text": {"path": "price"}},
        ]
        rows = [{"name": {"first": f"n{i}"}, "price": i} for i in range(3)]
        start = surface(*raw, data={"rows": rows})
        first = planned(CONVERTER, start)
        priced = [*rows[:1], {**rows[1], "price": 99}, *rows[2:]]
        again = same_as_fresh(CONVERTER, edited(start, rows=priced), first)
        assert cells(again)[1] == [
            {"$type": "Markdown", "value": "n1"},
            {"$type": "Markdown", "value": "99"},
        ]
        assert cells(again)[0] is cells(first)[0]
        renamed = [*priced[:1], {**priced[1], "name": {"first": "m"}}, *priced[2:]]
        last = same_as_fresh(CONVERTER, edited(start, rows=renamed), again)
        assert cells(last)[1][0] == {"$type": "Markdown", "value": "m"}

    def test_budget_limited_conversion(self) -> None:
        """An incremental conversion under an exhausted budget equals a fresh one."""
        converter = Converter(limits=Limits(max_nodes=20))
        raw, data = dashboard(6)
        s = surface(*raw, data=data)
        first = planned(converter, s)
        changed = msgspec.json.decode(msgspec.json.encode(data))
        changed["cards"][0]["items"] = []
        same_as_fresh(converter, msgspec.structs.replace(s, data_model=changed), first)

    def test_subtree_cut_by_the_budget(self) -> None:
        """A subtree the budget cuts is cut alike whatever was converted before."""
        raw = [
            root("Column", children=["list", "rest"]),
            {
                "id": "list",
                "component": "List",
                "children": {"componentId": "entry", "path": "/entries"},
            },
            {"id": "entry", "component": "Text", "text": {"path": "name"}},
            {"id": "rest", "component": "Column", "children": [f"t{i}" for i in range(30)]},
            *({"id": f"t{i}", "component": "Text", "text": f"row {i}"} for i in range(30)),
        ]
        converter = Converter(limits=Limits(max_nodes=12))
        start = surface(*raw, data={"entries": [{"name": "a"}, {"name": "b"}]})
        first = planned(converter, start)
        assert "convert.node_budget" in codes(first)
        renamed = edited(start, entries=[{"name": "c"}, {"name": "d"}])
        again = same_as_fresh(converter, renamed, first)
        # One entry fewer spends fewer nodes before the rest, which is then cut later.
        shorter = same_as_fresh(converter, edited(start, entries=[{"name": "c"}]), again)
        assert shorter.element is not None
        assert again.element is not None
        rows = shorter.element["children"][1]["children"]
        assert len(rows) > len(again.element["children"][1]["children"])

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def test_incremental_always_equals_fresh(self, data: st.DataObject) -> None:
        """Random edits of components and data: every tier gives the same result."""
        rows = data.draw(st.integers(1, 4))
        raw, model = dashboard(rows)
        limits = Limits(
            max_nodes=data.draw(st.sampled_from([5000, 25, 12])),
            max_template_items=data.draw(st.sampled_from([100, 2])),
        )
        converter = Converter(limits=limits)
        current = surface(*raw, data=model)
        previous = converter.convert(current)
        values = st.one_of(
            st.text(max_size=3), st.integers(-2, 2), st.booleans(), st.none(),
            st.sampled_from([1.0, 0.5, "https://x/a.png", "javascript:x"]),
        )  # fmt: skip
        for _ in range(data.draw(st.integers(1, 5))):
            kind = data.draw(
                st.sampled_from(["value", "grow", "component", "same", "root", "fresh"])
            )
            model = msgspec.json.decode(msgspec.json.encode(model))
            components = dict(current.components)
            i = data.draw(st.integers(0, rows - 1))
            cards = model.get("cards") if isinstance(model, dict) else None
            if kind in {"value", "grow", "root"} and not (
                isinstance(cards, list) and len(cards) > i
            ):
                model = dashboard(rows, data_seed=1)[1]
            if kind == "value":
                key = data.draw(st.sampled_from(["title", "img"]))
                model["cards"][i][key] = data.draw(values)
            elif kind == "grow":
                model["cards"][i]["items"].append({"name": data.draw(values)})
            elif kind == "component":
                cid = data.draw(st.sampled_from([f"t{i}", f"img{i}", f"bl{i}", "item", f"col{i}"]))
                new_props = dict(components[cid].props)
                choice = data.draw(st.sampled_from(["variant", "text", "children", "component"]))
                if choice == "variant":
                    new_props["variant"] = data.draw(st.sampled_from(["h1", "caption", "body"]))
                elif choice == "text":
                    new_props["text"] = data.draw(values)
                elif choice == "children":
                    new_props["children"] = [f"t{i}", "root", f"card{i}", "missing"]
                component = (
                    data.draw(st.sampled_from(["Text", "Divider", "Column", "Unknown"]))
                    if choice == "component"
                    else components[cid].component
                )
                components[cid] = Component(id=cid, component=component, props=new_props)
            elif kind == "root":
                model = {"cards": model["cards"][:1]}
            elif kind == "fresh":
                model = data.draw(st.sampled_from([{}, None, [], {"cards": {}}]))
            current = Surface(
                surface_id="s1", version="v0.9", components=components, data_model=model
            )
            previous = same_as_fresh(converter, current, previous)

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def test_incremental_equals_fresh_on_shared_data(self, data: st.DataObject) -> None:
        """Copy-on-write data edits, as the reducer makes them: every tier agrees."""
        raw, model = catalog(data.draw(st.integers(0, 6)))
        converter = Converter(
            limits=Limits(
                max_nodes=data.draw(st.sampled_from([5000, 30, 9])),
                max_template_items=data.draw(st.sampled_from([100, 3])),
            )
        )
        current = surface(*raw, data=model)
        previous = converter.convert(current)
        values = st.one_of(
            st.text(max_size=2), st.integers(-1, 1), st.booleans(), st.none(), st.just(1.0)
        )
        for _ in range(data.draw(st.integers(1, 6))):
            kind = data.draw(st.sampled_from(["field", "root", "append", "drop", "equal", "comp"]))
            items = list(model.get("items") or [])
            components = dict(current.components)
            if kind == "field" and items:
                i = data.draw(st.integers(0, len(items) - 1))
                key = data.draw(st.sampled_from(["name", "price", "title"]))
                items[i] = {**items[i], key: data.draw(values)}
            elif kind == "root":
                model = {
                    **model,
                    data.draw(st.sampled_from(["title", "price", "count"])): data.draw(values),
                }
            elif kind == "append":
                items.append({"name": data.draw(values)})
            elif kind == "drop" and items:
                del items[data.draw(st.integers(0, len(items) - 1))]
            elif kind == "equal":
                items = msgspec.json.decode(msgspec.json.encode(items))
            elif kind == "comp":
                cid = data.draw(st.sampled_from(["name", "buy", "row", "card"]))
                props = {**components[cid].props, "variant": "h1"}
                components[cid] = Component(
                    id=cid, component=components[cid].component, props=props
                )
            model = {**model, "items": items}
            current = Surface(
                surface_id="s1", version="v0.9", components=components, data_model=model
            )
            previous = same_as_fresh(converter, current, previous)


class TestLongChildLists:
    def test_root_path_read_by_many_children(self) -> None:
        """A root value read by every fourth card changes exactly those."""
        raw, data = wide(24)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        again = same_as_fresh(CONVERTER, edited(s, title="New"), first)
        same = [a == b for a, b in zip(cards_of(first), cards_of(again), strict=True)]
        assert same == [i % 4 != 0 for i in range(24)]

    def test_warnings_keep_their_order(self) -> None:
        """Warnings of the cards come out where a fresh conversion puts them."""
        raw, data = wide(20)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        assert codes(first).count("convert.unsafe_url") == 1
        again = same_as_fresh(CONVERTER, with_row(s, 15, img="vbscript:y"), first)
        assert codes(again).count("convert.unsafe_url") == 2
        back = same_as_fresh(CONVERTER, with_row(s, 15, img="https://x/ok.png"), again)
        assert codes(back).count("convert.unsafe_url") == 1

    @pytest.mark.parametrize("grow", [0, 1, 3, 12])
    def test_node_budget_crossing(self, grow: int) -> None:
        """A card that grows moves the node budget's cut; later cards are cut exactly."""
        raw, data = wide(20)
        total = js(CONVERTER.convert(surface(*raw, data=data)).element).count('"$type"')
        for max_nodes in (total - 1, total, total + 2, total - 15, 30):
            converter = Converter(limits=Limits(max_nodes=max_nodes))
            s = surface(*raw, data=data)
            previous = planned(converter, s)
            s = edited(s, tags=[{"t": "b"}] * (1 + grow))
            previous = same_as_fresh(converter, s, previous)
            previous = same_as_fresh(converter, with_row(s, 18, name="late"), previous)
            s = edited(s, tags=[])
            previous = same_as_fresh(converter, s, previous)
            same_as_fresh(converter, with_row(s, 1, name="early"), previous)

    def test_a_claim_that_the_root_grew_builds_on_the_old_children(self) -> None:
        """Told the root only grew, the converter appends just the new references."""
        cards = [{"id": f"c{i}", "component": "Text", "text": f"c{i}"} for i in range(5)]
        s = surface(root("Column", children=["c0", "c1", "c2"]), *cards)
        previous = CONVERTER.convert(s)
        grown = root("Column", children=["c0", "c1", "c2", "c3", "c4"])
        after = {**s.components, **comps(grown)}
        change = ComponentChange(s.components, after, frozenset({"root"}), frozenset({"root"}))
        s = msgspec.structs.replace(s, components=after)
        made = same_as_fresh(CONVERTER, s, previous, [change])
        assert made.element is not None
        assert previous.element is not None
        before, after_children = previous.element["children"], made.element["children"]
        assert after_children[:3] == before
        assert after_children[0] is before[0]
        assert len(after_children) == 5

    def test_claimed_components_look_missing_children_up_again(self) -> None:
        """Under a claim of the changed ids, a reference that found nothing is visited again.

        Components streamed one at a time come with that claim (the reducer's fast
        path): appending a child to the root keeps the warnings of the references in
        the list that found nothing (a missing id, a cycle), and the component a
        missing reference names draws once it arrives (``test_deltas`` seed 1115 found
        both lost: such entries were taken whole, as if they had read nothing).
        """
        cards = [f"c{i}" for i in range(10)]
        raw = [
            root("Column", children=[*cards[:4], "late", "root", *cards[4:]]),
            *({"id": cid, "component": "Text", "text": cid} for cid in cards),
        ]
        s = surface(*raw)
        previous = CONVERTER.convert(s)
        assert codes(previous) == ["convert.component_missing", "convert.cycle"]
        grown = root("Column", children=[*raw[0]["children"], "c10"])
        added = {"id": "c10", "component": "Text", "text": "c10"}
        after = {**s.components, **comps(grown, added)}
        change = ComponentChange(s.components, after, frozenset({"root", "c10"}))
        s = msgspec.structs.replace(s, components=after)
        previous = same_as_fresh(CONVERTER, s, previous, [change])
        assert codes(previous) == ["convert.component_missing", "convert.cycle"]
        after = {**s.components, **comps({"id": "late", "component": "Text", "text": "here"})}
        change = ComponentChange(s.components, after, frozenset({"late"}))
        s = msgspec.structs.replace(s, components=after)
        arrived = same_as_fresh(CONVERTER, s, previous, [change])
        assert codes(arrived) == ["convert.cycle"]
        assert cards_of(arrived)[4] == {"$type": "Markdown", "value": "here"}

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def test_patching_children_always_equals_fresh(self, data: st.DataObject) -> None:
        """Copy-on-write edits to many children's data near every limit: always as fresh."""
        count = data.draw(st.integers(6, 24))
        raw, model = wide(count)
        converter = Converter(
            limits=Limits(
                max_nodes=data.draw(st.sampled_from([5000, 90, 41, 17])),
                max_template_items=data.draw(st.sampled_from([100, 3])),
            )
        )
        current = surface(*raw, data=model)
        previous = converter.convert(current)
        values = st.one_of(
            st.text(max_size=2), st.integers(-1, 1), st.none(), st.just("javascript:x")
        )
        for _ in range(data.draw(st.integers(1, 6))):
            kind = data.draw(st.sampled_from(["rows", "title", "tags", "other", "drop", "fresh"]))
            size = len(current.data_model["rows"])  # type: ignore[index]
            if kind == "rows" and size:
                for i in data.draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=4)):
                    key = data.draw(st.sampled_from(["name", "img"]))
                    current = with_row(current, i, **{key: data.draw(values)})
            elif kind == "title":
                current = edited(current, title=data.draw(values))
            elif kind == "tags":
                current = edited(current, tags=[{"t": "x"}] * data.draw(st.integers(0, 6)))
            elif kind == "other":
                current = edited(current, other=data.draw(values))
            elif kind == "drop" and size:
                rows = list(current.data_model["rows"])  # type: ignore[index]
                del rows[data.draw(st.integers(0, len(rows) - 1))]
                current = edited(current, rows=rows)
            else:
                decoded = msgspec.json.decode(msgspec.json.encode(current.data_model))
                current = msgspec.structs.replace(current, data_model=decoded)
            previous = same_as_fresh(converter, current, previous)


def without_a_whole_walk(converter: Converter, s: Surface, previous: Conversion) -> Conversion:
    """Convert ``s`` building on ``previous`` with no whole walk allowed; check it as fresh."""

    def refused(*_: Any) -> None:
        msg = "the surface was walked whole"
        raise AssertionError(msg)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Walk, "convert", refused)
        incremental = converter.convert(s, previous, known=claims(previous, s))
    fresh = Converter(limits=converter._limits).convert(s)
    assert js(incremental.element) == js(fresh.element)
    assert incremental.warnings == fresh.warnings
    return incremental


def grown(s: Surface, *new: dict[str, Any]) -> Surface:
    """``s`` with items appended to its ``/items``, the old ones the very same objects."""
    data: dict[str, Any] = s.data_model  # type: ignore[assignment]  # set by the tests
    return edited(s, items=[*data["items"], *new])


def warned_item(index: int) -> dict[str, Any]:
    """A ``tagged`` item whose image URL is refused: a warning inside the template."""
    return {"name": f"w{index}", "img": "javascript:x", "tags": [{"t": "b"}]}


class TestGrowingLists:
    """A walk's conversion built on when only a template's list changed: those items only."""

    def test_appended_items_keep_the_old_items(self) -> None:
        """The old ListViewItems are the very same objects; the new ones follow them."""
        raw, data = tagged(3)
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        again = same_as_fresh(CONVERTER, grown(s, *tagged(5)[1]["items"][3:]), first)
        old, new = list_items(first), list_items(again)
        assert len(new) == 5
        assert all(a is b for a, b in zip(old, new[:3], strict=True))

    def test_data_nothing_reads_keeps_the_tree(self) -> None:
        """A change no read of the walk meets gives the very same element."""
        raw, data = tagged(3)
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        again = same_as_fresh(CONVERTER, edited(s, unread={"x": 1}), first)
        assert again.element is first.element

    def test_warnings_of_new_items_go_where_the_template_ends(self) -> None:
        """A new item's warning comes after the old items' and before what follows."""
        raw, data = tagged(2)
        raw[0] = root("Column", children=["title", "list", "tail"])
        raw.append({"id": "tail", "component": "Image", "url": "javascript:y"})
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        s = grown(s, warned_item(0))
        again = same_as_fresh(CONVERTER, s, first)
        # A refused URL warns, and the Image without a src is dropped: two warnings each.
        assert [w.component_id for w in again.warnings] == ["img", "img", "tail", "tail"]
        third = same_as_fresh(CONVERTER, grown(s, warned_item(1)), again)
        assert [w.component_id for w in third.warnings] == [*["img"] * 4, "tail", "tail"]

    def test_changed_items_alone_convert_anew(self) -> None:
        """Items replaced (one now warning) are converted anew; the others are kept."""
        raw, data = tagged(4)
        raw[0] = root("Column", children=["title", "list", "tail"])
        raw.append({"id": "tail", "component": "Image", "url": "javascript:y"})
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        items = [{**data["items"][0], "name": "new"}, *data["items"][1:3], warned_item(0)]
        changed = same_as_fresh(CONVERTER, edited(s, items=items), first)
        assert [a is b for a, b in zip(list_items(first), list_items(changed), strict=True)] == [
            False,
            True,
            True,
            False,
        ]
        assert [w.component_id for w in changed.warnings] == ["img", "img", "tail", "tail"]
        back = same_as_fresh(CONVERTER, edited(s, items=data["items"]), changed)
        assert [w.component_id for w in back.warnings] == ["tail", "tail"]

    def test_another_read_of_the_list_converts_anew(self) -> None:
        """The list read elsewhere too: a change of it is not the template's alone."""
        raw, data = tagged(3)
        raw.append({"id": "first", "component": "Text", "text": {"path": "/items/0/name"}})
        raw[0] = root("Column", children=["title", "list", "first"])
        s = surface(*raw, data=data)
        same_as_fresh(CONVERTER, grown(s, warned_item(0)), CONVERTER.convert(s))

    def test_items_of_a_capped_list_change_in_place(self) -> None:
        """A list longer than the item cap: a shown item converts alone, a hidden one not at all."""
        converter = Converter(limits=Limits(max_template_items=4))
        raw, data = tagged(6)
        s = surface(*raw, data=data)
        first = converter.convert(s)
        items = list(data["items"])
        items[1] = {**items[1], "name": "new"}
        changed = without_a_whole_walk(converter, edited(s, items=items), first)
        assert [a is b for a, b in zip(list_items(first), list_items(changed), strict=True)] == [
            True,
            False,
            True,
            True,
        ]
        items = list(items)  # a new list: the surfaces converted keep theirs
        items[5] = {**items[5], "name": "hidden"}
        hidden = without_a_whole_walk(converter, edited(s, items=items), changed)
        assert hidden.element is changed.element

    @pytest.mark.parametrize("budget", [12, 16, 20])
    def test_items_before_a_budget_cut_change_in_place(self, budget: int) -> None:
        """A walk the node budget cut: an item before the cut, the same size, converts alone."""
        converter = Converter(limits=Limits(max_nodes=budget))
        raw, data = tagged(4)
        s = surface(*raw, data=data)
        first = converter.convert(s)
        assert first.warnings[-1].code == "convert.node_budget"
        items = list(data["items"])
        items[0] = {**items[0], "name": "new"}
        changed = without_a_whole_walk(converter, edited(s, items=items), first)
        assert list_items(changed)[0] is not list_items(first)[0]
        assert list_items(changed)[1:] == list_items(first)[1:]
        items = list(items)  # a new list: the surfaces converted keep theirs
        items[0] = {**items[0], "tags": []}  # another size moves the cut: converted anew
        same_as_fresh(converter, edited(s, items=items), changed)

    @pytest.mark.parametrize("budget", [8, 12, 16, 20])
    def test_growth_past_the_node_budget(self, budget: int) -> None:
        """Items appended past the budget are cut as a fresh conversion cuts them."""
        converter = Converter(limits=Limits(max_nodes=budget, max_template_items=6))
        raw, data = tagged(1)
        s = surface(*raw, data=data)
        previous = converter.convert(s)
        for count in range(2, 9):  # past the item cap too
            s = grown(s, *tagged(count)[1]["items"][count - 1 :])
            previous = same_as_fresh(converter, s, previous)

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def test_growth_always_equals_fresh(self, data: st.DataObject) -> None:
        """Lists grown, shrunk, edited and read elsewhere: every step equals a fresh one."""
        raw, model = tagged(data.draw(st.integers(0, 3)))
        if data.draw(st.booleans()):  # a read of the list's first item outside the list
            raw.append({"id": "first", "component": "Text", "text": {"path": "/items/0/name"}})
            raw[0] = root("Column", children=["title", "list", "first"])
        converter = Converter(
            limits=Limits(
                max_nodes=data.draw(st.sampled_from([5000, 30, 11])),
                max_template_items=data.draw(st.sampled_from([100, 4])),
            )
        )
        s = surface(*raw, data=model)
        previous = converter.convert(s)
        for _ in range(data.draw(st.integers(1, 6))):
            items = list(s.data_model["items"])  # type: ignore[index]
            kind = data.draw(st.sampled_from(["grow", "grow", "warn", "drop", "edit", "title"]))
            if kind == "grow":
                added = tagged(len(items) + 2)[1]["items"][len(items) :]
                s = grown(s, *added[: data.draw(st.integers(1, 2))])
            elif kind == "warn":
                s = grown(s, warned_item(len(items)))
            elif kind == "drop" and items:
                s = edited(s, items=items[:-1])
            elif kind == "edit" and items:
                items[0] = {**items[0], "name": data.draw(st.text(max_size=2))}
                s = edited(s, items=items)
            elif kind == "title":
                s = edited(s, title=data.draw(st.sampled_from(["Shop", "Store"])))
            previous = same_as_fresh(converter, s, previous)
