"""Tests for the converter's tiers: plans compiled and run, template patches, appends."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from convert_cases import (
    CONVERTER,
    appended,
    by_plan,
    catalog,
    codes,
    column,
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
)
from convert_rows import OUR_ROWS, UPSTREAM_ROWS
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._convert import plans
from a2ui_stream._convert.converter import Converter
from a2ui_stream._state.surface import ComponentChange
from a2ui_stream._tree.patch import DataChange
from a2ui_stream._wire.limits import Limits


class TestTiers:
    @pytest.mark.parametrize(
        ("raw", "data"),
        [(raw, data) for _, raw, data, _ in UPSTREAM_ROWS + OUR_ROWS],
        ids=[name for name, *_ in UPSTREAM_ROWS + OUR_ROWS],
    )
    def test_every_row_through_a_plan(self, raw: list[dict[str, Any]], data: Any) -> None:
        """A plan of each table row gives what the walk gives, key order and warnings too."""
        s = surface(*raw, data=msgspec.UNSET if data is None else data)
        walked = Converter().convert(s)
        found = by_plan(Converter(), s)
        if found is not None:
            assert (js(found.element), found.warnings) == (js(walked.element), walked.warnings)

    def test_a_set_seen_often_is_compiled(self) -> None:
        """The walk converts a component set the first times; then a plan does."""
        converter = Converter()
        raw, data = catalog(4)
        s = surface(*raw, data=data)
        compiled, previous = [], None
        for count in range(1, plans.COMPILE_AT + 2):
            previous = converter.convert(edited(s, count=count), previous)
            compiled.append(bool(converter._plans._plans))
        assert compiled == [False] * (plans.COMPILE_AT - 1) + [True, True]
        fresh = converter.convert(edited(s, count=0))  # no conversion to build on
        assert fresh._made is not None
        assert fresh._made.plan is not None

    def test_same_surface_gives_the_same_conversion(self) -> None:
        """Converting the same surface again returns the conversion it was given."""
        raw, data = dashboard(5)
        s = surface(*raw, data=data)
        first = CONVERTER.convert(s)
        assert CONVERTER.convert(s, first) is first

    def test_sets_differing_in_literals_share_their_code(self) -> None:
        """Two component sets that differ only in their texts compile to one source."""
        converter = Converter()
        texts, compiled = [], []
        for title in ("Shop", "Something else entirely"):
            raw, data = catalog(3)
            raw[1] = {**raw[1], "text": title}
            plan = converter._plans.build(surface(*raw, data=data))
            assert plan is not None
            texts.append(plan.source)
            compiled.append(len(converter._plans._code))
            assert title not in plan.source
        assert texts[0] == texts[1]
        assert compiled[0] == compiled[1]  # the second set compiled nothing new

    def test_a_missing_item_is_converted_by_the_walk(self) -> None:
        """An item whose data is not what the plan replays is walked, warnings in order."""
        raw, data = tagged(6)
        items = list(data["items"])
        items[2] = {**items[2], "img": "javascript:x"}  # an unsafe URL: a warning
        items[4] = {**items[4], "name": {"not": "text"}}  # not text: a warning
        s = edited(surface(*raw, data=data), items=items)
        result = same_as_fresh(CONVERTER, s, None)
        assert codes(result) == [
            "convert.unsafe_url",
            "convert.element_dropped",
            "convert.prop_invalid",
        ]

    def test_islands_are_walked_in_place(self) -> None:
        """Components a plan cannot record (calls, bound choices) are walked where they sit."""
        raw: list[dict[str, Any]] = [
            root("Column", children=["list", "count"]),
            {"id": "list", "component": "List", "children": {"componentId": "pick", "path": "/p"}},
            {
                "id": "pick",
                "component": "ChoicePicker",
                "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}],
                "value": {"path": "chosen"},
            },
            {
                "id": "count",
                "component": "Text",
                "text": {"call": "formatString", "args": {"value": "${/n} picked"}},
            },
        ]
        s = surface(*raw, data={"n": 2, "p": [{"chosen": ["a"]}, {"chosen": "b"}, {}]})
        plan = CONVERTER._plans.build(s)
        assert plan is not None
        assert "st.island(" in plan.source
        same_as_fresh(CONVERTER, s, None)
        same_as_fresh(CONVERTER, edited(s, n="x"), None)

    def test_a_run_over_budget_is_walked(self) -> None:
        """A plan's run that spends more nodes than the budget is redone by the walk."""
        converter = Converter(limits=Limits(max_nodes=12))
        raw, data = tagged(8)
        result = same_as_fresh(converter, surface(*raw, data=data), None)
        assert "convert.node_budget" in codes(result)


class TestPatch:
    def test_one_item_changed_keeps_every_other_list_item(self) -> None:
        """The untouched items' ListViewItem elements are the very same objects."""
        raw, data = tagged(40)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        items = list(data["items"])
        items[7] = {**items[7], "name": "changed"}
        again = same_as_fresh(CONVERTER, edited(s, items=items), first)
        kept = [a is b for a, b in zip(list_items(first), list_items(again), strict=True)]
        assert kept == [i != 7 for i in range(40)]

    def test_several_items_changed(self) -> None:
        """Each changed item is converted again; the others are kept, round after round."""
        raw, data = tagged(30)
        s = surface(*raw, data=data)
        previous = planned(CONVERTER, s)
        for round_ in range(3):  # patch a patched element too
            items = list(s.data_model["items"])  # type: ignore[index]
            for i in (0, 13, 14, 29):
                items[i] = {**items[i], "name": f"r{round_}", "tags": [{"t": "z"}] * round_}
            s = edited(s, items=items)
            again = same_as_fresh(CONVERTER, s, previous)
            kept = [a is b for a, b in zip(list_items(previous), list_items(again), strict=True)]
            assert kept == [i not in {0, 13, 14, 29} for i in range(30)]
            previous = again

    def test_an_item_patched_again_is_not_run_again_for_what_it_was(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The item a patch ran is remembered: patching it again runs only its new value."""
        raw, data = tagged(10)
        s = surface(*raw, data=data)
        converter = Converter()
        previous = planned(converter, s)
        values: list[Any] = []
        run = plans._item_run

        def counted(template: Any, value: Any, walk: Any) -> Any:
            values.append(value)
            return run(template, value, walk)

        monkeypatch.setattr(plans, "_item_run", counted)
        for name in ("a", "b", "c"):
            items = list(s.data_model["items"])  # type: ignore[index]
            items[3] = {**items[3], "name": name}
            s = edited(s, items=items)
            previous = same_as_fresh(converter, s, previous)
        ours = [value for value in values if isinstance(value, dict) and "tags" in value]
        # The first patch runs the old item and the new; each later one the new alone.
        assert [value["name"] for value in ours] == ["p3", "a", "b", "c"]

    def test_change_nothing_reads_keeps_the_whole_tree(self) -> None:
        """A value no scope reads changes nothing: the root element is reused."""
        raw, data = tagged(5)
        s = surface(*raw, data={**data, "other": 1})
        first = planned(CONVERTER, s)
        again = same_as_fresh(CONVERTER, edited(s, other=2), first)
        assert again.element is first.element

    def test_root_value_read_by_items_runs_the_plan(self) -> None:
        """A root path the items read changes every item: nothing is kept."""
        raw, data = tagged(12)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        again = same_as_fresh(CONVERTER, edited(s, title="New"), first)
        assert not any(a is b for a, b in zip(list_items(first), list_items(again), strict=True))
        assert js(again.element).count('"t":"New"') == 12

    def test_item_appended_and_removed(self) -> None:
        """A list that changes length is built by a run of the plan."""
        raw, data = tagged(10)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        grown = edited(s, items=[*data["items"], {"name": "new", "img": "https://x/n.png"}])
        again = same_as_fresh(CONVERTER, grown, first)
        assert len(list_items(again)) == 11
        after = same_as_fresh(CONVERTER, edited(s, items=data["items"][:6]), again)
        assert len(list_items(after)) == 6

    def test_warnings_keep_their_order(self) -> None:
        """Items that warn stay as they were; a change elsewhere keeps the warnings in place."""
        raw, data = tagged(9)
        items = [
            {**item, "img": "javascript:x"} if i % 3 == 0 else item
            for i, item in enumerate(data["items"])
        ]
        s = surface(*raw, data={**data, "items": items})
        first = planned(CONVERTER, s)
        assert codes(first).count("convert.unsafe_url") == 3
        changed = list(items)
        changed[4] = {**changed[4], "name": "other"}
        again = same_as_fresh(CONVERTER, edited(s, items=changed), first)
        assert again.warnings == first.warnings
        kept = [a is b for a, b in zip(list_items(first), list_items(again), strict=True)]
        assert kept == [i != 4 for i in range(9)]
        changed = list(changed)  # copy-on-write: the earlier surface keeps its data
        changed[4] = {**changed[4], "img": "vbscript:y"}
        worse = same_as_fresh(CONVERTER, edited(s, items=changed), again)
        assert codes(worse).count("convert.unsafe_url") == 4

    @pytest.mark.parametrize("grow", [0, 1, 2, 5])
    def test_node_budget_crossing_inside_the_template(self, grow: int) -> None:
        """An item that grows moves the node budget's cut; the result is a fresh one's."""
        raw, data = tagged(10, tags=2)
        total = js(CONVERTER.convert(surface(*raw, data=data)).element).count('"$type"')
        for max_nodes in (total - 1, total, total + 3, total - 20):
            converter = Converter(limits=Limits(max_nodes=max_nodes))
            s = surface(*raw, data=data)
            previous = planned(converter, s)
            items = list(data["items"])
            items[2] = {**items[2], "tags": [{"t": "b"}] * (2 + grow)}
            previous = same_as_fresh(converter, edited(s, items=items), previous)
            items = list(items)
            items[2] = {**items[2], "tags": []}
            same_as_fresh(converter, edited(s, items=items), previous)

    def test_item_cap_with_changes_past_it(self) -> None:
        """Changes to items past the item cap change nothing; the cap warning stays."""
        converter = Converter(limits=Limits(max_template_items=5))
        raw, data = tagged(9)
        s = surface(*raw, data=data)
        first = planned(converter, s)
        items = list(data["items"])
        items[7] = {**items[7], "name": "hidden"}
        again = same_as_fresh(converter, edited(s, items=items), first)
        assert again.element is first.element
        assert "convert.template_cap" in codes(again)

    def test_type_change_is_seen(self) -> None:
        """1, 1.0 and true are different values even where Python says they are equal."""
        raw = [
            root("List", children={"componentId": "v", "path": "/vs"}),
            {"id": "v", "component": "Text", "text": {"path": "v"}},
        ]
        s = surface(*raw, data={"vs": [{"v": 1}, {"v": 1}]})
        previous = planned(CONVERTER, s)
        for value, text in ((True, "true"), (1.5, "1.5"), (1, "1"), (1.0, "1")):
            s = edited(s, vs=[{"v": 1}, {"v": value}])
            previous = same_as_fresh(CONVERTER, s, previous)
            assert js(previous.element).endswith(f'"value":"{text}"}}}}]}}')

    def test_a_claim_about_other_data_is_ignored(self) -> None:
        """A claim whose data are not the conversion's and the surface's is not trusted."""
        raw, data = tagged(4)
        s = surface(*raw, data=data)
        first = planned(CONVERTER, s)
        other = edited(s, title="Other")
        wrong = DataChange({"title": "x"}, other.data_model, (("items", "0", "name"),))
        again = same_as_fresh(CONVERTER, other, first, known=[wrong])
        assert js(again.element).count('"t":"Other"') == 4

    @settings(max_examples=150, deadline=None)
    @given(st.data())
    def test_patching_always_equals_fresh(self, data: st.DataObject) -> None:
        """Copy-on-write item edits near every limit: patching never changes the result."""
        raw, model = tagged(data.draw(st.integers(0, 8)), tags=data.draw(st.integers(0, 2)))
        converter = Converter(
            limits=Limits(
                max_nodes=data.draw(st.sampled_from([5000, 60, 33, 12])),
                max_template_items=data.draw(st.sampled_from([100, 4])),
            )
        )
        current = surface(*raw, data=model)
        previous = planned(converter, current)
        values = st.one_of(
            st.text(max_size=2), st.integers(-1, 1), st.none(), st.just("javascript:x")
        )
        for _ in range(data.draw(st.integers(1, 6))):
            items = list(model["items"])
            kind = data.draw(st.sampled_from(["field", "tags", "root", "append", "drop", "equal"]))
            if kind in {"field", "tags"} and items:
                for i in data.draw(st.sets(st.integers(0, len(items) - 1), min_size=1)):
                    if kind == "field":
                        key = data.draw(st.sampled_from(["name", "img", "title"]))
                        items[i] = {**items[i], key: data.draw(values)}
                    else:
                        items[i] = {**items[i], "tags": [{"t": "x"}] * data.draw(st.integers(0, 4))}
            elif kind == "root":
                model = {**model, "title": data.draw(values)}
            elif kind == "append":
                items.append({"name": data.draw(values), "tags": [{"t": "n"}]})
            elif kind == "drop" and items:
                del items[data.draw(st.integers(0, len(items) - 1))]
            elif kind == "equal":
                items = msgspec.json.decode(msgspec.json.encode(items))
            model = {**model, "items": items}
            current = msgspec.structs.replace(current, data_model=model)
            previous = same_as_fresh(converter, current, previous)


class TestAppend:
    def test_appended_children_keep_the_others(self) -> None:
        """Components appended to the root's children are converted; the rest is kept."""
        s = surface(*column(20))
        previous = CONVERTER.convert(s)
        for i in range(20, 25):
            grown, change = appended(
                s, {"id": f"c{i}", "component": "Text", "text": "n"}, refs=[f"c{i}"]
            )
            again = same_as_fresh(CONVERTER, grown, previous, known=[change])
            assert previous.element is not None
            assert again.element is not None
            old, new = previous.element["children"], again.element["children"]
            assert all(a is b for a, b in zip(old, new, strict=False))
            assert len(new) == i + 1
            s, previous = grown, again

    def test_an_appended_reference_that_warns(self) -> None:
        """A reference to a component not sent yet warns, as a fresh conversion does."""
        s = surface(*column(3))
        previous = CONVERTER.convert(s)
        grown, change = appended(s, refs=["later"])
        again = same_as_fresh(CONVERTER, grown, previous, known=[change])
        assert codes(again) == ["convert.component_missing"]
        # With a warning already there, the next append is converted anew, equally.
        more, change = appended(grown, {"id": "later", "component": "Divider"}, refs=[])
        same_as_fresh(CONVERTER, more, again, known=[change])

    def test_a_replaced_component_is_converted_anew(self) -> None:
        """A change to a component other than the root is not an append."""
        s = surface(*column(3))
        previous = CONVERTER.convert(s)
        components = {**s.components, **comps({"id": "c1", "component": "Text", "text": "new"})}
        change = ComponentChange(s.components, components, frozenset({"c1"}))
        again = same_as_fresh(
            CONVERTER, msgspec.structs.replace(s, components=components), previous, known=[change]
        )
        assert '"value":"new"' in js(again.element)

    def test_appending_past_the_budget(self) -> None:
        """Appends that run past the node budget are cut as a fresh conversion cuts them."""
        converter = Converter(limits=Limits(max_nodes=6))
        s = surface(*column(4))
        previous = converter.convert(s)
        for i in range(4, 8):
            s, change = appended(
                s, {"id": f"c{i}", "component": "Text", "text": "n"}, refs=[f"c{i}"]
            )
            previous = same_as_fresh(converter, s, previous, known=[change])
        assert "convert.node_budget" in codes(previous)
