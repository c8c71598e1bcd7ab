"""Sharing (``_engine.sharing``): re-sent and patched data keep the identity of what came
before, and a re-sent snapshot restarts where it changed."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream import events as ev
from a2ui_stream._engine import reducer as reducer_module
from a2ui_stream._engine import sharing
from a2ui_stream._engine.reducer import Reducer
from a2ui_stream._engine.sharing import (
    decode_shared,
    delta_changes,
    is_checkpoint,
    restart,
    share_data,
    shared_prefix,
    shared_write,
)
from a2ui_stream._state.stream import Bucket
from a2ui_stream._state.surface import Surface
from a2ui_stream._tree.patch import DataChange, apply_patch
from a2ui_stream._wire.a2ui import UpdateDataModel
from a2ui_stream.testing import create_surface, update_components

Raw = msgspec.Raw


def write(value: Any) -> msgspec.Raw:
    """An undecoded ``updateDataModel`` of ``value``, as a wire snapshot holds it."""
    return Raw(
        msgspec.json.encode(
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": value}}
        )
    )


def surface(data: Any) -> Surface:
    """A surface holding ``data``."""
    return Surface(surface_id="s", version="v0.9", components={}, data_model=data)


class TestSharedPrefix:
    def test_raw_operations_compare_by_bytes(self) -> None:
        """Undecoded operations are the same when their bytes are."""
        old = [Raw(b"1"), Raw(b"2"), Raw(b"3")]
        assert shared_prefix(old, [Raw(b"1"), Raw(b"2"), Raw(b"9")]) == 2
        assert shared_prefix(old, [Raw(b"1"), Raw(b"2")]) == 2
        assert shared_prefix(old, [Raw(b"0")]) == 0
        assert shared_prefix(old, [*old, Raw(b"4")]) == 3

    def test_decoded_operations_compare_by_identity(self) -> None:
        """After a delta, only the very same objects are shared: equal is not enough."""
        first, second = {"a": 1}, {"b": 2}
        assert shared_prefix([first, second], [first, {"b": 2}]) == 1

    def test_known_pairs_are_not_compared(self) -> None:
        """Pairs known to be shared are skipped, whatever they hold."""
        assert shared_prefix([{"a": 1}, {"b": 2}], [{"x": 0}, {"b": 2}], known=1) == 1
        assert shared_prefix([1, 2], [1, 2, 3], known=5) == 2


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, True), (64, True), (65, False), (128, True), (129, False), (1000, False), (1024, True)],
)
def test_checkpoints_are_dense_then_at_powers_of_two(count: int, expected: bool) -> None:
    """Every count up to 64, then powers of two (and the last count)."""
    assert is_checkpoint(count, 5000) is expected
    assert is_checkpoint(count, count)


class TestShareData:
    def test_equal_parts_keep_their_old_identity(self) -> None:
        """A re-sent model shares its unchanged subtrees with the old model."""
        before: dict[str, Any] = {"a": {"x": 1}, "b": [1]}
        new = {"s": surface({"a": {"x": 1}, "b": [2]})}
        shared = share_data({"s": surface(before)}, new)
        model = shared["s"].data_model
        assert model == {"a": {"x": 1}, "b": [2]}
        assert isinstance(model, dict)
        assert model["a"] is before["a"]

    def test_what_was_shared_already_is_left_alone(self) -> None:
        """Surfaces that are new, unchanged by identity, or named in ``done`` come back as is."""
        model = {"a": {"x": 1}}
        old = {"s": surface({"a": {"x": 1}})}
        new = {"s": surface(model), "t": surface({})}
        assert share_data(old, new, done={id(model)}) is new
        assert share_data({"s": new["s"]}, new) is new


class TestDeltaChanges:
    def content(self, value: Any) -> dict[str, Any]:
        return {"a2ui_operations": [{"createSurface": {}}, {"updateDataModel": {"value": value}}]}

    def test_replaced_values_are_claimed(self) -> None:
        """A replace inside a data value claims exactly that path."""
        content = self.content({"n": 1, "m": {"k": 2}})
        patch = [
            {"op": "replace", "path": "/a2ui_operations/1/updateDataModel/value/n", "value": 5}
        ]
        patched = apply_patch(content, patch)
        [claim] = delta_changes(content, patched, patch)
        assert isinstance(claim, DataChange)
        assert claim.paths == (("n",),)
        assert claim.before is content["a2ui_operations"][1]["updateDataModel"]["value"]
        assert claim.after == {"n": 5, "m": {"k": 2}}

    VALUE = "/a2ui_operations/1/updateDataModel/value"

    @pytest.mark.parametrize(
        ("patch", "paths", "kinds"),
        [
            ([{"op": "add", "path": f"{VALUE}/z", "value": 1}], (("z",),), ("add",)),
            ([{"op": "add", "path": f"{VALUE}/n", "value": 2}], (("n",),), ("replace",)),
            ([{"op": "remove", "path": f"{VALUE}/n"}], (("n",),), ("remove",)),
            ([{"op": "add", "path": f"{VALUE}/m/new", "value": 3}], (("m", "new"),), ("add",)),
            (  # inside a member added by the same patch: the outer write covers it
                [
                    {"op": "add", "path": f"{VALUE}/o", "value": []},
                    {"op": "add", "path": f"{VALUE}/o/-", "value": 1},
                ],
                (("o",),),
                ("add",),
            ),
            (
                [
                    {"op": "add", "path": f"{VALUE}/z", "value": 1},
                    {"op": "remove", "path": f"{VALUE}/z"},
                    {"op": "replace", "path": f"{VALUE}/n", "value": 9},
                ],
                (("n",),),
                ("replace",),
            ),
        ],
    )
    def test_an_objects_members_added_or_removed_are_claimed(
        self, patch: list[dict[str, Any]], paths: tuple[Any, ...], kinds: tuple[str, ...]
    ) -> None:
        """One member more or less is a change at its place alone, of the kind it is."""
        content = self.content({"n": 1, "m": {"k": 2}, "list": [1, 2]})
        patched = apply_patch(content, patch)
        [claim] = delta_changes(content, patched, patch)
        assert (claim.paths, claim.kinds) == (paths, kinds)
        assert claim.after is patched["a2ui_operations"][1]["updateDataModel"]["value"]

    @pytest.mark.parametrize(
        "patch",
        [
            [{"op": "replace", "path": "/a2ui_operations/1", "value": {"updateDataModel": {}}}],
            [{"op": "replace", "path": "/a2ui_operations/0/createSurface", "value": {}}],
            # An array's items after the place shift: only a diff finds what moved.
            [{"op": "add", "path": "/a2ui_operations/1/updateDataModel/value/list/0", "value": 0}],
            [{"op": "remove", "path": "/a2ui_operations/1/updateDataModel/value/list/0"}],
            [{"op": "move", "from": "/a2ui_operations/1/updateDataModel/value/n", "path": "/x"}],
            [  # added and removed again: nothing changed
                {"op": "add", "path": "/a2ui_operations/1/updateDataModel/value/z", "value": 1},
                {"op": "remove", "path": "/a2ui_operations/1/updateDataModel/value/z"},
            ],
            [  # a value written, then its whole operation replaced: found by a property test
                {"op": "replace", "path": "/a2ui_operations/1/updateDataModel/value/n", "value": 2},
                {
                    "op": "replace",
                    "path": "/a2ui_operations/1",
                    "value": {"updateDataModel": {"value": {"n": 3, "list": []}}},
                },
            ],
        ],
    )
    def test_anything_else_claims_nothing(self, patch: list[dict[str, Any]]) -> None:
        """Whole operations, array shifts, moves and paths outside data values say nothing."""
        content = self.content({"n": 1, "list": [1, 2]})
        assert delta_changes(content, apply_patch(content, patch), patch) == ()


_VALUE = "/a2ui_operations/2/updateDataModel/value"
_KEYS = ["a", "b", "c", "d"]


def _data_patch(rng: random.Random, step: int) -> list[dict[str, Any]]:
    """One random write inside the data value: members, nested members, list items."""
    key = rng.choice(_KEYS)
    choice = rng.randrange(8)
    if choice == 0:
        return [{"op": "add", "path": f"{_VALUE}/{key}", "value": step}]
    if choice == 1:
        return [{"op": "replace", "path": f"{_VALUE}/{key}", "value": {"x": step}}]
    if choice == 2:
        return [{"op": "remove", "path": f"{_VALUE}/{key}"}]
    if choice == 3:
        return [{"op": "add", "path": f"{_VALUE}/items/-", "value": {"label": f"i{step}"}}]
    if choice == 4:
        return [{"op": "add", "path": f"{_VALUE}/items/0", "value": {"label": f"f{step}"}}]
    if choice == 5:
        return [{"op": "remove", "path": f"{_VALUE}/items/0"}]
    if choice == 6:
        return [{"op": "add", "path": f"{_VALUE}/items/0/label", "value": f"l{step}"}]
    return [  # two writes, one inside the other's place
        {"op": "add", "path": f"{_VALUE}/{key}", "value": {}},
        {"op": "add", "path": f"{_VALUE}/{key}/x", "value": step},
    ]


def _data(content: dict[str, Any]) -> Any:
    return content["a2ui_operations"][2]["updateDataModel"]["value"]


class TestClaimsAgainstTheDiff:
    """The oracle: the same reducer with no claims, which diffs the data models instead."""

    @settings(max_examples=60, deadline=None)
    @given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=30))
    def test_random_data_writes(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        texts = [{"id": k, "component": "Text", "text": {"path": f"/{k}"}} for k in _KEYS]
        entries: list[dict[str, Any]] = [
            {"id": "root", "component": "Column", "children": [*_KEYS, "list"]},
            *texts,
            {
                "id": "list",
                "component": "List",
                "children": {"componentId": "row", "path": "/items"},
            },
            {"id": "row", "component": "Text", "text": {"path": "label"}},
        ]
        data = {"a": 1, "items": [{"label": "first"}]}
        content = {
            "a2ui_operations": [
                create_surface("s"),
                update_components("s", *entries),
                {
                    "version": "v0.9",
                    "updateDataModel": {"surfaceId": "s", "path": "/", "value": data},
                },
            ]
        }
        events: list[ev.Event] = [
            ev.ActivitySnapshot.of(
                message_id="m", activity_type="a2ui-surface", content=content, replace=True
            )
        ]
        for step in range(count):
            patch = _data_patch(rng, step)
            try:
                content = apply_patch(content, patch)
            except ValueError:
                continue  # the patch does not apply here: the stream would be refused
            events.append(
                ev.ActivityDelta(message_id="m", activity_type="a2ui-surface", patch=patch)
            )
        claimed = self._fold(events)
        assert claimed[2] == [len(msgspec.json.encode(_data(content)))]  # measured, not encoded
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(reducer_module, "delta_changes", lambda *_: ())
            assert claimed == self._fold(events)

    @staticmethod
    def _fold(events: list[ev.Event]) -> tuple[bytes, bytes, list[int]]:
        state, diffs, diagnostics = Reducer().reduce_all(events)
        run = state.runs[-1]
        sizes = [s.data_bytes for b in run.buckets.values() for s in b.surfaces.values()]
        encode = msgspec.json.encode
        return encode([msgspec.to_builtins(d) for d in diffs]), encode(diagnostics), sizes


class TestSharedWrite:
    def bucket(self, value: Any, misses: int = 0) -> Bucket:
        key = write(value)
        return Bucket(
            message_id="m",
            surfaces={},
            operation_keys=(key,),
            written={0: (value, None, misses)},
        )

    def test_a_rewritten_value_shares_what_is_unchanged(self) -> None:
        """Only the changed member is new; the claim names it."""
        before = {"keep": {"x": [1, 2]}, "n": 1}
        claims: list[DataChange] = []
        found = shared_write(write({"keep": {"x": [1, 2]}, "n": 2}), self.bucket(before), 0, claims)
        assert found is not None
        operation, _text, misses = found
        assert misses == 0
        assert operation.value == {"keep": {"x": [1, 2]}, "n": 2}
        assert operation.value["keep"] is before["keep"]
        assert [claim.paths for claim in claims] == [(("n",),)]

    def test_sharing_backs_off_while_every_value_changes(self) -> None:
        """Past too many changes sharing is tried at 1, 2, 4 ... and every 64th time."""
        before = {f"k{i}": i for i in range(100)}
        changed = {f"k{i}": -i for i in range(100)}
        tried = []
        for misses in range(200):
            claims: list[DataChange] = []
            found = shared_write(write(changed), self.bucket(before, misses), 0, claims)
            assert found is not None
            operation, _text, after = found
            assert operation.value == changed
            assert claims == []
            assert after == misses + 1
            tried.append(misses)
        # Each value is new either way; what the backoff saves is the attempt itself.
        assert [m for m in tried if sharing._tries_sharing(m)] == [
            0,
            1,
            2,
            4,
            8,
            16,
            32,
            64,
            128,
            192,
        ]

    def test_one_snapshot_of_few_changes_shares_again(self) -> None:
        """A try that finds few changes resets the count: the next snapshot shares."""
        before = {"keep": {"x": [1]}, "n": 1}
        claims: list[DataChange] = []
        found = shared_write(
            write({"keep": {"x": [1]}, "n": 2}), self.bucket(before, 64), 0, claims
        )
        assert found is not None
        assert found[2] == 0
        value: Any = found[0].value
        assert value["keep"] is before["keep"]
        skipped = shared_write(write({"keep": {"x": [1]}, "n": 2}), self.bucket(before, 3), 0, [])
        assert skipped is not None
        value = skipped[0].value
        assert value["keep"] is not before["keep"]  # decoded whole
        assert skipped[2] == 4

    def test_the_same_bytes_give_the_very_value(self) -> None:
        """A replayed operation gives back the value written last time."""
        before = {"a": 1}
        found = shared_write(write(before), self.bucket(before), 0, [])
        assert found is not None
        assert found[0].value is before

    def test_nothing_to_share_with(self) -> None:
        """No previous bucket, a position past it, or no write there: None."""
        key = write(1)
        assert shared_write(key, None, 0, []) is None
        assert shared_write(key, self.bucket(1), 1, []) is None
        empty = Bucket(message_id="m", surfaces={}, operation_keys=(key,))
        assert shared_write(key, empty, 0, []) is None

    def test_decode_shared_notes_writes(self) -> None:
        """Each data write is noted by position; a shared value's id is noted too."""
        written: dict[int, Any] = {}
        shared: set[int] = set()
        fresh = decode_shared(write([1]), 0, None, [], written, shared)
        assert isinstance(fresh, UpdateDataModel)
        assert (written[0][0], shared) == ([1], set())
        again = decode_shared(write([1]), 0, self.bucket([1]), [], written, shared)
        assert isinstance(again, UpdateDataModel)
        assert shared == {id(again.value)}


class TestRestart:
    def test_no_bucket_starts_from_nothing(self) -> None:
        """The first snapshot of a messageId starts from no surfaces."""
        assert restart(None, 3) == ([], {}, {}, set())

    def test_starts_from_the_last_checkpoint_within_the_shared_prefix(self) -> None:
        """The rebuild starts at the last checkpoint not past the shared operations."""
        points = tuple((count, {"s": surface(count)}) for count in (1, 2, 3))
        previous = Bucket(
            message_id="m",
            surfaces={},
            operation_keys=(Raw(b"1"), Raw(b"2"), Raw(b"3"), Raw(b"4")),
            checkpoints=points,
            written={0: (1, None, 0), 2: (3, None, 0)},
            upserts=frozenset({0, 2}),
        )
        checkpoints, surfaces, written, upserts = restart(previous, 2)
        assert [count for count, _ in checkpoints] == [1, 2]
        assert surfaces["s"].data_model == 2
        assert (written, upserts) == ({0: (1, None, 0)}, {0})
