"""Deltas that edit a component list, applied by what they changed (issue 12).

The oracle is the same reducer with the fast path turned off, which replays every
changed operation whole: for any stream of deltas, both must give the same diffs,
diagnostics and parts, byte for byte; and each conversion either keeps must equal a
fresh conversion of its surface, warnings included.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from invariants import conversion_problems

from a2ui_stream import events as ev
from a2ui_stream._engine import buckets as buckets_module
from a2ui_stream._engine import reducer as reducer_module
from a2ui_stream._engine.content import content_depth
from a2ui_stream._engine.deltas import Edit, component_edits, untouched_operations
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._tree.depth import count_values, deeper_than
from a2ui_stream._tree.patch import apply_patch
from a2ui_stream._wire.limits import Limits
from a2ui_stream.testing import create_surface as create
from a2ui_stream.testing import update_components as components

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2ui_stream._state.stream import StreamState

_ENCODE = msgspec.json.Encoder().encode
_LIST = "/a2ui_operations/1/updateComponents/components"


def _snapshot(entries: Sequence[dict[str, Any]]) -> ev.ActivitySnapshot:
    content = {"a2ui_operations": [create("s"), components("s", *entries)]}
    return ev.ActivitySnapshot.of(
        message_id="m", activity_type="a2ui-surface", content=content, replace=True
    )


def _delta(patch: list[dict[str, Any]]) -> ev.ActivityDelta:
    return ev.ActivityDelta(message_id="m", activity_type="a2ui-surface", patch=patch)


def _append(cid: str, text: str = "t") -> list[dict[str, Any]]:
    """Add a Text and reference it from the root: how an agent streams a list."""
    return [
        {
            "op": "add",
            "path": f"{_LIST}/-",
            "value": {"id": cid, "component": "Text", "text": text},
        },
        {"op": "add", "path": f"{_LIST}/0/children/-", "value": cid},
    ]


def _parts(state: StreamState) -> list[Any]:
    run = state.current
    return [] if run is None else [part.args for part in run.parts.values()]


def _fold(events: Sequence[ev.Event], limits: Limits) -> tuple[bytes, bytes, bytes]:
    state, diffs, diagnostics = Reducer(limits=limits).reduce_all(events)
    assert conversion_problems(state, limits) == []
    parts = _parts(state)
    patches = [diff.patch() for diff in diffs]
    return (
        _ENCODE([msgspec.to_builtins(diff) for diff in diffs]) + _ENCODE(patches),
        _ENCODE([msgspec.to_builtins(d) for d in diagnostics]),
        _ENCODE(parts),
    )


def _both(
    events: Sequence[ev.Event], monkeypatch: pytest.MonkeyPatch, limits: Limits | None = None
) -> None:
    limits = limits or Limits()
    fast = _fold(events, limits)
    with monkeypatch.context() as patched:
        patched.setattr(reducer_module, "component_edits", lambda _content, _patch: None)
        slow = _fold(events, limits)
    assert fast == slow


def _root(children: Sequence[str] = ()) -> dict[str, Any]:
    return {"id": "root", "component": "Column", "children": list(children)}


class TestComponentEdits:
    def test_appends_and_edits_inside_entries(self) -> None:
        """Appends at '-' or at the length, and edits inside entries, are read off."""
        content = {"a2ui_operations": [create("s"), components("s", _root(), _root())]}
        patch = [
            *_append("a"),
            {"op": "add", "path": f"{_LIST}/3", "value": {}},
            {"op": "replace", "path": f"{_LIST}/1/component", "value": "Row"},
            {"op": "test", "path": f"{_LIST}/1", "value": {}},
        ]
        assert component_edits(content, patch) == {
            1: Edit(frozenset({0, 1}), 2, 4, grown=frozenset({0}))
        }

    def test_an_entry_only_given_children_is_grown(self) -> None:
        """An entry whose every edit appends to its ``children`` is told apart from others."""
        content = {"a2ui_operations": [create("s"), components("s", _root(), _root())]}
        grows = {"op": "add", "path": f"{_LIST}/0/children/-", "value": "a"}
        assert component_edits(content, [*_append("a"), grows]) == {
            1: Edit(frozenset({0}), 2, 3, frozenset({0}))
        }
        for other in (
            {"op": "replace", "path": f"{_LIST}/0/component", "value": "Row"},
            {"op": "add", "path": f"{_LIST}/0/children/0", "value": "b"},  # an insertion
            {"op": "add", "path": f"{_LIST}/0/children", "value": ["b"]},  # a new list
        ):
            assert component_edits(content, [grows, other]) == {
                1: Edit(frozenset({0}), 2, 2, frozenset())
            }

    def test_moves_and_copies_inside_entries(self) -> None:
        """A move changes the entries it takes from and writes into; a copy only the latter."""
        content = {"a2ui_operations": [create("s"), components("s", _root(), _root(), _root())]}
        move = {"op": "move", "from": f"{_LIST}/0/children/0", "path": f"{_LIST}/1/children/-"}
        copy = {"op": "copy", "from": f"{_LIST}/0/children", "path": f"{_LIST}/2/children"}
        taken = {"op": "copy", "from": "/a2ui_operations/0/createSurface", "path": f"{_LIST}/2/x"}
        assert component_edits(content, [move]) == {1: Edit(frozenset({0, 1}), 3, 3)}
        assert component_edits(content, [copy, taken]) == {1: Edit(frozenset({2}), 3, 3)}

    @pytest.mark.parametrize(
        "operation",
        [
            {"op": "add", "path": f"{_LIST}/0", "value": {}},  # an insertion shifts
            {"op": "remove", "path": f"{_LIST}/0"},
            {"op": "replace", "path": _LIST, "value": []},
            {"op": "replace", "path": "/a2ui_operations/1", "value": {}},
            {"op": "move", "from": f"{_LIST}/0", "path": f"{_LIST}/1"},
            {"op": "copy", "from": f"{_LIST}/0", "path": f"{_LIST}/-"},
            {"op": "move", "from": "/a2ui_operations/0/createSurface", "path": f"{_LIST}/0/x"},
            {"op": "replace", "path": f"{_LIST}/01/id", "value": "x"},
            {"op": "replace", "path": f"{_LIST}/9/id", "value": "x"},
            {"op": "replace", "path": "/a2ui_operations/0/createSurface/surfaceId", "value": "x"},
        ],
    )
    def test_anything_else_says_nothing(self, operation: dict[str, Any]) -> None:
        content = {"a2ui_operations": [create("s"), components("s", _root(), _root())]}
        assert component_edits(content, [operation]) is None


class TestFastPathMatchesReplay:
    def test_streamed_list(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The reproducer's shape: each delta appends a component and references it."""
        events: list[ev.Event] = [_snapshot([_root()])]
        events += [_delta(_append(f"c{i}", f"t{i}")) for i in range(40)]
        _both(events, monkeypatch)

    def test_streamed_list_past_the_node_budget(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Past max_nodes the list is cut; later appends are refused the same way."""
        events: list[ev.Event] = [_snapshot([_root()])]
        events += [_delta(_append(f"c{i}")) for i in range(40)]
        _both(events, monkeypatch, Limits(max_nodes=25))

    def test_fast_path_is_taken(self) -> None:
        """After the first delta, a delta appending one entry decodes only that entry."""
        events: list[ev.Event] = [_snapshot([_root()])]
        events += [_delta(_append(f"c{i}")) for i in range(3)]
        state = Reducer().reduce_all(events).state
        run = state.current
        assert run is not None
        assert run.buckets["m"].upserts == frozenset({1})

    def test_a_streamed_list_compiles_no_render_plan(self) -> None:
        """Each append makes a new component set, converted once: none is worth a plan.

        The sets are freed one after another, and CPython gives a new set a freed one's
        id: counted by id, sightings reached the compile threshold here (issue 12).
        """
        reducer = Reducer()
        events: list[ev.Event] = [_snapshot([_root()])]
        events += [_delta(_append(f"c{i}")) for i in range(600)]
        reducer.reduce_all(events)
        assert not reducer._converter._plans._plans

    def test_missing_child_arrives_later(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A reference that found nothing, amid a long list, finds its component later.

        Appending children after it keeps its warning, reported once when it appears
        and not again after a delta the fast path does not take (a rename), and the
        delta appending the component it names draws it, as a fresh reducer does from
        the final content. Seed 1115 of :meth:`test_random_edits` found both lost.
        """
        texts = [{"id": f"c{i}", "component": "Text", "text": f"t{i}"} for i in range(9)]
        order = [*(t["id"] for t in texts[:4]), "late", *(t["id"] for t in texts[4:])]
        late = {"id": "late", "component": "Text", "text": "here"}
        patches = [
            *(_append(f"d{i}") for i in range(3)),
            [{"op": "replace", "path": f"{_LIST}/9/id", "value": "c9"}],
            [{"op": "add", "path": f"{_LIST}/-", "value": late}],
        ]
        events: list[ev.Event] = [_snapshot([_root(order), *texts])]
        events += map(_delta, patches)
        _both(events, monkeypatch)
        state, _, diagnostics = Reducer().reduce_all(events)
        missing = [d.component_id for d in diagnostics if d.code == "convert.component_missing"]
        assert missing == ["late", "c8"]
        content: Any = {"a2ui_operations": [create("s"), components("s", _root(order), *texts)]}
        for patch in patches:
            content = apply_patch(content, patch)
        whole = ev.ActivitySnapshot.of(
            message_id="m", activity_type="a2ui-surface", content=content, replace=True
        )
        assert _parts(state) == _parts(Reducer().reduce_all([whole]).state)

    @settings(max_examples=60, deadline=None)
    @example(seed=1115, count=16)  # a missing child arriving later; patched as if it read nothing
    @example(seed=34721032, count=18)  # a cycle and a missing id, node budget 8 (CI)
    @given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=40))
    def test_random_edits(self, seed: int, count: int) -> None:
        """Appends, renames, duplicates, bad entries, edits inside entries, in any order."""
        rng = random.Random(seed)
        events: list[ev.Event] = [
            _snapshot([_root(["c0"]), {"id": "c0", "component": "Text", "text": "x"}])
        ]
        length, ids = 2, ["root", "c0"]
        for step in range(count):
            patch = _random_patch(rng, step, length, ids)
            length += sum(1 for op in patch if op["path"] == f"{_LIST}/-")
            events.append(_delta(patch))
        limits = Limits(max_nodes=rng.choice([8, 30, 5000]), max_depth=rng.choice([2, 32]))
        with pytest.MonkeyPatch.context() as monkeypatch:
            _both(events, monkeypatch, limits)


def _random_patch(
    rng: random.Random, step: int, length: int, ids: list[str]
) -> list[dict[str, Any]]:
    choice = rng.randrange(10)
    new = f"n{step}"
    if choice == 0:  # append a new component and reference it
        ids.append(new)
        return _append(new, f"t{step}")
    if choice == 1:  # reference only: an existing id, or one a later append names
        later = f"n{step + rng.randrange(1, 4)}"
        return [{"op": "add", "path": f"{_LIST}/0/children/-", "value": rng.choice([later, *ids])}]
    if choice == 2:  # append a duplicate id
        cid = rng.choice(ids)
        return [
            {
                "op": "add",
                "path": f"{_LIST}/-",
                "value": {"id": cid, "component": "Text", "text": str(step)},
            }
        ]
    if choice == 3:  # edit inside an entry
        position = rng.randrange(1, length)
        return [
            {
                "op": "replace",
                "path": f"{_LIST}/{position}/component",
                "value": rng.choice(["Text", "Divider"]),
            }
        ]
    if choice == 4:  # rename an entry
        position = rng.randrange(1, length)
        return [{"op": "replace", "path": f"{_LIST}/{position}/id", "value": new}]
    if choice == 5:  # a malformed entry
        return [{"op": "add", "path": f"{_LIST}/-", "value": {"id": new}}]
    if choice == 6:  # a cycle back to the root
        return [
            *_append(new),
            {"op": "add", "path": f"{_LIST}/{length}/children", "value": ["root"]},
        ]
    if choice == 7:  # reorder the root's children, or move a reference into another entry
        place = rng.choice(["0/children/-", "0/children/-", f"{rng.randrange(length)}/text"])
        return [
            {"op": "add", "path": f"{_LIST}/0/children/-", "value": rng.choice(ids)},
            {"op": "move", "from": f"{_LIST}/0/children/0", "path": f"{_LIST}/{place}"},
        ]
    if choice == 8:  # copy the root's children into an entry, or a reference onto them
        position = rng.randrange(length)
        return (
            [
                {
                    "op": "copy",
                    "from": f"{_LIST}/0/children",
                    "path": f"{_LIST}/{position}/children",
                }
            ]
            if rng.random() < 0.5
            else [
                {"op": "add", "path": f"{_LIST}/0/children/-", "value": rng.choice(ids)},
                {"op": "copy", "from": f"{_LIST}/0/children/0", "path": f"{_LIST}/0/children/-"},
            ]
        )
    return [
        {
            "op": "replace",
            "path": f"{_LIST}/{rng.randrange(length)}",
            "value": {"id": rng.choice(ids), "component": "Text", "text": "r"},
        }
    ]


#: The context list of the Button below: what each delta of the reproducer copies.
_CONTEXT = f"{_LIST}/0/action/event/context/z"


def _copy_doubling(deltas: int) -> list[ev.Event]:
    """A Button whose action context list each delta copies into itself (issue 12 follow-up).

    Every ``copy`` adds one reference and doubles the content written out, and the
    Button's ``$action`` carries it into the drawn args: 24 deltas (5.5 KB) held 16
    million values, which every size check, conversion and encoding walked in full.
    """
    button = {
        "id": "root",
        "component": "Button",
        "child": "t",
        "action": {"event": {"name": "go", "context": {"z": [0]}}},
    }
    copy = {"op": "copy", "from": _CONTEXT, "path": f"{_CONTEXT}/-"}
    return [
        _snapshot([button, {"id": "t", "component": "Text", "text": "go"}]),
        *(_delta([copy]) for _ in range(deltas)),
    ]


class TestCopyIntoItself:
    def test_refused_past_the_content_limit_with_the_content_kept(self) -> None:
        limits = Limits(max_content_nodes=5_000)
        events = _copy_doubling(24)
        state, diffs, diagnostics = Reducer(limits=limits).reduce_all(events)
        refused = [d for d in diagnostics if d.code == "limit.content_nodes"]
        # The context list holds 2**(k+1) values after k copies: 2**12 fits in 5,000
        # with the rest of the content, 2**13 does not, nor does any delta after it.
        assert [d.seq for d in refused] == list(range(12, 25))
        assert {(d.severity.value, d.path, d.message_id) for d in refused} == {
            ("error", "$.patch[0]", "m")
        }
        assert "past the limit of 5,000 values" in refused[0].message
        bucket = state.runs[-1].buckets["m"]
        assert bucket.content_nodes == count_values(bucket.content) <= 5_000
        content: Any = bucket.content
        context = content["a2ui_operations"][1]["updateComponents"]["components"][0]
        assert count_values(context["action"]["event"]["context"]["z"]) == 2**12
        assert [d.seq for d in diffs] == list(range(12))  # nothing drawn after the refusal
        drawn: Any = diffs[-1].args
        assert count_values(drawn["$action"]["context"]["z"]) == 2**12

    def test_a_later_delta_still_applies(self) -> None:
        limits = Limits(max_content_nodes=5_000)
        rename = _delta([{"op": "replace", "path": f"{_LIST}/1/text", "value": "stop"}])
        _state, diffs, _ = Reducer(limits=limits).reduce_all([*_copy_doubling(20), rename])
        assert diffs[-1].seq == 21
        args: Any = diffs[-1].args
        assert args["label"] == "stop"

    def test_the_default_limit_stops_the_reproducer(self) -> None:
        """The 24 deltas of the report, under the default million values."""
        state, _diffs, diagnostics = Reducer().reduce_all(_copy_doubling(24))
        refused = [d.seq for d in diagnostics if d.code == "limit.content_nodes"]
        assert refused == list(range(19, 25))  # 2**20 values is past one million
        bucket = state.runs[-1].buckets["m"]
        assert bucket.content_nodes == count_values(bucket.content) < 1_000_000

    def test_lifecycle_content_is_bounded_too(self) -> None:
        status = ev.ActivitySnapshot.of(
            message_id="m",
            activity_type="a2ui-surface",
            content={"status": "building", "errors": [0]},
            replace=True,
        )
        copy = _delta([{"op": "copy", "from": "/errors", "path": "/errors/-"}])
        limits = Limits(max_content_nodes=1_000)
        state, _, diagnostics = Reducer(limits=limits).reduce_all([status, *[copy] * 12])
        assert [d.seq for d in diagnostics if d.code == "limit.content_nodes"] == [9, 10, 11, 12]
        lifecycle = state.runs[-1].lifecycles["m"]
        assert lifecycle.content_nodes == count_values(lifecycle.content)
        assert count_values(lifecycle.content["errors"]) == 2**9

    def test_lifecycle_content_cannot_nest_past_the_depth(self) -> None:
        """A lifecycle's content is kept frozen; its frozen lists count as containers.

        The depth check took a frozen list for a scalar, so copying ``/errors`` into
        ``/errors/0`` nested the content one level deeper at every delta, unbounded.
        """
        status = ev.ActivitySnapshot.of(
            message_id="m",
            activity_type="a2ui-surface",
            content={"status": "building", "errors": [0]},
            replace=True,
        )
        copy = _delta([{"op": "copy", "from": "/errors", "path": "/errors/0"}])
        limits = Limits(max_data_depth=8)
        state, _, diagnostics = Reducer(limits=limits).reduce_all([status, *[copy] * 40])
        assert "limit.data_depth" in {d.code for d in diagnostics}
        content = state.runs[-1].lifecycles["m"].content
        assert not deeper_than(content, content_depth(limits))
        assert deeper_than(content, content_depth(limits) - 1)  # filled up to the bound


class TestGrowingStreams:
    """A stream that adds one operation at a time: each costs what it adds (issue 12)."""

    COUNT = 300

    def _operation(self, index: int) -> dict[str, Any]:
        return components("s", {"id": f"t{index}", "component": "Text", "text": f"{index}"})

    def _root_operation(self) -> dict[str, Any]:
        return components("s", _root([f"t{i}" for i in range(self.COUNT)]))

    def _events(self, *, deltas: bool) -> list[ev.Event]:
        operations = [create("s"), self._root_operation()]
        events: list[ev.Event] = []
        for index in range(self.COUNT):
            operations.append(self._operation(index))
            if deltas and index:
                patch = [{"op": "add", "path": "/a2ui_operations/-", "value": operations[-1]}]
                events.append(_delta(patch))
            else:
                events.append(
                    ev.ActivitySnapshot.of(
                        message_id="m",
                        activity_type="a2ui-surface",
                        content={"a2ui_operations": list(operations)},
                        replace=True,
                    )
                )
        return events

    @pytest.mark.parametrize("deltas", [False, True], ids=["snapshots", "deltas"])
    def test_checkpoints_stay_logarithmic_and_the_result_is_whole(self, deltas: bool) -> None:
        state, _, _ = Reducer().reduce_all(self._events(deltas=deltas))
        run = state.current
        assert run is not None
        # Dense up to 64, then powers of two, the restart point and the last: about 72
        # for 302 operations, where each snapshot used to leave one more behind.
        assert len(run.buckets["m"].checkpoints) <= 64 + 9 + 2
        operations = [create("s"), self._root_operation()]
        operations.extend(self._operation(i) for i in range(self.COUNT))
        last = ev.ActivitySnapshot.of(
            message_id="m",
            activity_type="a2ui-surface",
            content={"a2ui_operations": operations},
            replace=True,
        )
        fresh, _, _ = Reducer().reduce_all([last])
        assert _parts(state) == _parts(fresh)

    def test_a_delta_read_off_its_paths_gives_what_comparing_gives(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The operations a delta left untouched, read off its paths, change no result."""
        events = self._events(deltas=True)
        mixed = [
            *events[:50],
            _delta([{"op": "replace", "path": "/a2ui_operations/5", "value": self._operation(9)}]),
            _delta([{"op": "remove", "path": "/a2ui_operations/3"}]),
            _delta([{"op": "move", "from": "/a2ui_operations/2", "path": "/a2ui_operations/-"}]),
            _delta([{"op": "add", "path": "/extra", "value": 1}]),
            *events[50:80],
        ]
        fast = _fold(mixed, Limits())
        with monkeypatch.context() as patched:
            patched.setattr(reducer_module, "untouched_operations", lambda _patch, _count: 0)
            slow = _fold(mixed, Limits())
        assert fast == slow

    @pytest.mark.parametrize(
        ("patch", "expected"),
        [
            ([{"op": "add", "path": "/a2ui_operations/-", "value": 1}], 7),
            ([{"op": "add", "path": "/a2ui_operations/3/x", "value": 1}], 3),
            ([{"op": "test", "path": "/a2ui_operations/0", "value": 1}], 7),
            ([{"op": "move", "from": "/a2ui_operations/2", "path": "/a2ui_operations/-"}], 2),
            ([{"op": "replace", "path": "/status", "value": 1}], 7),
            ([{"op": "replace", "path": "/a2ui_operations", "value": []}], 0),
            ([{"op": "replace", "path": "", "value": {}}], 0),
            ([{"op": "add", "path": "/a2ui_operations/x", "value": 1}], 0),
        ],
    )
    def test_untouched_operations(self, patch: list[dict[str, Any]], expected: int) -> None:
        assert untouched_operations(patch, 7) == expected


class TestForeignDigits:
    """A path token in another script's digits is no array index (RFC 6901: ``0``-``9``)."""

    @pytest.mark.parametrize("token", ["\u00b2", "\u0661", "\u0661\u0660"])
    def test_is_a_failed_patch_not_an_internal_error(self, token: str) -> None:
        """A superscript two made ``int()`` raise in the core; an Arabic-Indic one read as 1."""
        entries = [_root(["a"]), {"id": "a", "component": "Text", "text": "old"}]
        patch = [{"op": "replace", "path": f"{_LIST}/{token}/text", "value": "new"}]
        state, diffs, diagnostics = Reducer().reduce_all([_snapshot(entries), _delta(patch)])
        assert [d.code for d in diagnostics] == ["activity.patch_failed"]
        assert "not an array index" in diagnostics[0].message
        assert len(diffs) == 1  # the snapshot's; the delta changed nothing
        assert _parts(state)[0]["children"][0]["value"] == "old"


def _surface_ops(rng: random.Random, sid: str) -> list[dict[str, Any]]:
    """One surface of a many-surface message: created, drawn, and given data."""
    comps = [
        {"id": "root", "component": "Column", "children": ["t", "l", "b"]},
        {"id": "t", "component": "Text", "text": {"path": "/v"}},
        {"id": "l", "component": "List", "children": {"componentId": "i", "path": "/items"}},
        {"id": "i", "component": "Text", "text": {"path": "name"}},
        {
            "id": "b",
            "component": "Button",
            "label": "go",
            "action": {"name": "go", "context": {"v": {"path": "/v"}}},
        },
    ]
    data = {
        "v": rng.choice(["a", 1, None]),
        "items": [{"name": f"n{j}"} for j in range(rng.randrange(4))],
    }
    ops = [
        {"version": "v0.9", "createSurface": {"surfaceId": sid, "catalogId": "c"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": sid, "components": comps}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": sid, "path": "/", "value": data}},
    ]
    if rng.random() < 0.3:  # a later write at a path
        ops.append(
            {
                "version": "v0.9",
                "updateDataModel": {"surfaceId": sid, "path": "/v", "value": "later"},
            }
        )
    if rng.random() < 0.1:  # an operation with something to report
        ops.append(
            {"version": "v0.9", "updateDataModel": {"surfaceId": sid, "path": "v", "value": 1}}
        )
    return ops


def _many_surface_deltas(
    rng: random.Random, count: int
) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    sids = [f"s{n}" for n in range(rng.randint(2, 30))]
    ops = [op for sid in sids for op in _surface_ops(rng, sid)]
    if rng.random() < 0.3:  # a surface deleted and created again later
        sid = rng.choice(sids)
        ops += [{"version": "v0.9", "deleteSurface": {"surfaceId": sid}}, *_surface_ops(rng, sid)]
    if rng.random() < 0.1:  # out of order: writes before their surface is created
        rng.shuffle(ops)
    writes = [i for i, op in enumerate(ops) if "updateDataModel" in op]
    patches: list[list[dict[str, Any]]] = []
    for _ in range(count):
        index = rng.choice(writes)
        base = f"/a2ui_operations/{index}/updateDataModel"
        kind = rng.random()
        patch: list[dict[str, Any]]
        if kind < 0.5 and ops[index]["updateDataModel"]["path"] == "/":
            patch = [
                {
                    "op": "replace",
                    "path": f"{base}/value/v",
                    "value": rng.choice(["x", 2, {"o": 1}, None]),
                }
            ]
        elif kind < 0.7:
            patch = [
                {
                    "op": "replace",
                    "path": f"{base}/value",
                    "value": rng.choice(["y", {"v": "z"}, [1]]),
                }
            ]
        elif kind < 0.8:  # another operation's too: the general path
            other = rng.choice(writes)
            patch = [
                {"op": "replace", "path": f"{base}/value", "value": "p"},
                {
                    "op": "replace",
                    "path": f"/a2ui_operations/{other}/updateDataModel/value",
                    "value": "q",
                },
            ]
        elif kind < 0.9:  # its surfaceId: another surface's now
            patch = [{"op": "replace", "path": f"{base}/surfaceId", "value": rng.choice(sids)}]
        else:
            patch = [
                {"op": "replace", "path": f"{base}/path", "value": rng.choice(["/v", "/", "bad"])}
            ]
        patches.append(patch)
    return ops, patches


class TestOneSurfaceRebuilt:
    """A delta rewriting one surface's data replays that surface alone (found by an input
    probe: N one-value deltas on a message of N surfaces cost N cubed), as the whole
    replay would: the same diffs, parts and diagnostics (each at least once)."""

    @staticmethod
    def _run(
        events: Sequence[ev.Event], limits: Limits
    ) -> tuple[bytes, bytes, set[tuple[str, str]]]:
        state, diffs, diagnostics = Reducer(limits=limits).reduce_all(events)
        assert conversion_problems(state, limits) == []
        patches = [diff.patch() for diff in diffs]
        return (
            _ENCODE([msgspec.to_builtins(diff) for diff in diffs]) + _ENCODE(patches),
            _ENCODE(_parts(state)),
            {(d.code, d.message) for d in diagnostics},
        )

    @settings(max_examples=80, deadline=None)
    @given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=30))
    def test_as_the_whole_replay(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        ops, patches = _many_surface_deltas(rng, count)
        snapshot = ev.ActivitySnapshot.of(
            message_id="m",
            activity_type="a2ui-surface",
            content={"a2ui_operations": ops},
            replace=True,
        )
        events: list[ev.Event] = [snapshot, *map(_delta, patches)]
        limits = Limits(
            max_live_surfaces=rng.choice([3, 10_000]), max_data_model_bytes=rng.choice([60, 10**6])
        )
        alone = self._run(events, limits)
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(buckets_module, "_one_surface_rebuilt", lambda *_args: None)
            whole = self._run(events, limits)
        assert alone == whole

    def test_the_path_is_taken(self) -> None:
        """Past the first delta, the other surfaces keep their very objects."""
        rng = random.Random(5)
        ops = [op for n in range(80) for op in _surface_ops(rng, f"s{n}")[:3]]
        first = 3 * 70 + 2
        deltas = [
            [
                {
                    "op": "replace",
                    "path": f"/a2ui_operations/{first}/updateDataModel/value/v",
                    "value": v,
                }
            ]
            for v in "xyz"
        ]
        snapshot = ev.ActivitySnapshot.of(
            message_id="m",
            activity_type="a2ui-surface",
            content={"a2ui_operations": ops},
            replace=True,
        )
        reducer = Reducer()
        state = reducer.reduce_all([snapshot, _delta(deltas[0])]).state
        before = state.current.buckets["m"].surfaces  # type: ignore[union-attr]
        for patch in deltas[1:]:
            state = reducer.reduce(state, _delta(patch))[0]
        after = state.current.buckets["m"].surfaces  # type: ignore[union-attr]
        assert [sid for sid in after if after[sid] is not before[sid]] == ["s70"]
        model: Any = before["s70"].data_model
        assert after["s70"].data_model == {**model, "v": "z"}
