"""Tests for the pure surface-state semantics of each operation."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from a2ui_samples import conformant_streams, load_sample_files
from msgspec import UNSET

from a2ui_stream._state.persistent import OrderedMap
from a2ui_stream._state.surface import (
    PERSISTENT_AT,
    Surface,
    Surfaces,
    apply_operation,
    apply_operations,
    with_components,
)
from a2ui_stream._tree.gaps import GAP
from a2ui_stream._tree.patch import DataChange, apply_patch
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream._wire.frozen import FrozenDict, freeze
from a2ui_stream._wire.limits import Limits
from a2ui_stream.a2ui import (
    AgentFunctionResponse,
    BeginRendering,
    CallRendererFunction,
    Component,
    CreateSurface,
    DeleteSurface,
    Operation,
    UpdateComponents,
    UpdateDataModel,
    decode_operation,
    normalize_message,
)

if TYPE_CHECKING:
    from pathlib import Path

LIMITS = Limits()


def comp(cid: str, text: str = "t") -> Component:
    props = freeze({"id": cid, "component": "Text", "text": text})  # stored frozen, as is
    return Component(id=cid, component="Text", props=props)


def run(
    ops: list[Operation | Diagnostic], surfaces: Surfaces | None = None, limits: Limits = LIMITS
) -> tuple[Surfaces, list[str]]:
    result, problems = apply_operations(surfaces or {}, ops, limits=limits)
    return result, [p.code for p in problems]


def created(*ops: Operation) -> Surfaces:
    surfaces, codes = run([CreateSurface(surface_id="s", version="v0.9"), *ops])
    assert codes == []
    return surfaces


class TestCreateSurface:
    def test_creates_empty(self) -> None:
        """createSurface makes an empty v0.9 surface rooted at ``root``."""
        surfaces = created()
        assert surfaces["s"] == Surface(surface_id="s", version="v0.9", components={})

    def test_resets_existing(self) -> None:
        """A second createSurface resets components and data."""
        surfaces = created(
            UpdateComponents(surface_id="s", components=(comp("root"),)),
            UpdateDataModel(surface_id="s", path="/a", value=1),
            CreateSurface(surface_id="s", version="v0.9", catalog_id="c"),
        )
        assert surfaces["s"] == Surface(
            surface_id="s", version="v0.9", components={}, catalog_id="c"
        )

    def test_v10_inline_data_then_components(self) -> None:
        """v1.0 inline data model and components are both applied."""
        surfaces, codes = run(
            [
                CreateSurface(
                    surface_id="s",
                    version="v1.0",
                    components=(comp("root"),),
                    data_model={"user": {"name": "J"}},
                )
            ]
        )
        assert codes == []
        assert surfaces["s"].data_model == {"user": {"name": "J"}}
        assert list(surfaces["s"].components) == ["root"]

    def test_live_surface_limit(self) -> None:
        """Creating beyond ``max_live_surfaces`` is skipped; recreating an existing one is not."""
        limits = Limits(max_live_surfaces=1)
        ops: list[Operation | Diagnostic] = [
            CreateSurface(surface_id="a", version="v0.9"),
            CreateSurface(surface_id="b", version="v0.9"),
            BeginRendering(surface_id="c", root="r"),
            UpdateDataModel(surface_id="d", path="", value=1, implicit_create=True),
            CreateSurface(surface_id="a", version="v0.9"),
        ]
        surfaces, codes = run(ops, limits=limits)
        assert list(surfaces) == ["a"]
        assert codes == ["limit.live_surfaces"] * 3


class TestUpdateComponents:
    def test_replaces_whole_by_id(self) -> None:
        """A component of the same id is replaced, not merged."""
        new = Component(id="root", component="Column", props=freeze({"children": []}))
        surfaces = created(
            UpdateComponents(surface_id="s", components=(comp("root"), comp("a"))),
            UpdateComponents(surface_id="s", components=(new,)),
        )
        assert surfaces["s"].components["root"] is new
        assert list(surfaces["s"].components) == ["root", "a"]

    def test_later_duplicate_wins(self) -> None:
        """Within one operation the later duplicate wins."""
        first, second = comp("x", "1"), comp("x", "2")
        surfaces = created(UpdateComponents(surface_id="s", components=(first, second)))
        assert surfaces["s"].components["x"] is second

    @pytest.mark.parametrize("nesting", [None, 2])
    @pytest.mark.parametrize("count", [1, 3, PERSISTENT_AT])
    def test_fresh_surface_stores_in_order(self, nesting: int | None, count: int) -> None:
        """A fresh surface's first components are stored alike, checked for depth or not."""
        listed = tuple(comp(f"c{i}") for i in range(count))
        before = created()
        after, problems = apply_operation(
            before,
            UpdateComponents(surface_id="s", components=listed),
            index=0,
            limits=LIMITS,
            nesting=nesting,
        )
        assert problems == ()
        stored = after["s"].components
        assert type(stored) is (OrderedMap if count >= PERSISTENT_AT else FrozenDict)
        assert list(stored) == [c.id for c in listed]
        assert all(stored[c.id] is c for c in listed)
        assert before["s"].components == {}

    @pytest.mark.parametrize("nesting", [None, 2])
    def test_fresh_surface_duplicates(self, nesting: int | None) -> None:
        """On a fresh surface a later duplicate wins, an equal one keeps the first object."""
        first, equal, other = comp("x"), comp("x"), comp("y")
        later = comp("y", "2")
        after, _ = apply_operation(
            created(),
            UpdateComponents(surface_id="s", components=(first, other, equal, later)),
            index=0,
            limits=LIMITS,
            nesting=nesting,
        )
        stored = after["s"].components
        assert list(stored) == ["x", "y"]
        assert stored["x"] is first
        assert stored["y"] is later

    def test_unchanged_components_keep_identity(self) -> None:
        """Untouched components, and equal re-sent ones, keep their objects."""
        a, b = comp("a"), comp("b")
        before = created(UpdateComponents(surface_id="s", components=(a, b)))
        after, _ = apply_operation(
            before,
            UpdateComponents(surface_id="s", components=(comp("a"), comp("b", "new"))),
            index=0,
            limits=LIMITS,
        )
        assert after["s"].components["a"] is a
        assert after["s"].components["b"] is not b

    def test_equal_resend_is_noop(self) -> None:
        """Re-sending equal components returns the very same mapping."""
        before = created(UpdateComponents(surface_id="s", components=(comp("a"),)))
        after, problems = apply_operation(
            before,
            UpdateComponents(surface_id="s", components=(comp("a"),)),
            index=0,
            limits=LIMITS,
        )
        assert after is before
        assert problems == ()

    def test_missing_surface(self) -> None:
        """An update to a missing surface is skipped with ``op.missing_surface``."""
        surfaces, problems = apply_operation(
            {}, UpdateComponents(surface_id="nope", components=(comp("a"),)), index=3, limits=LIMITS
        )
        assert surfaces == {}
        assert [(p.code, p.path, p.surface_id) for p in problems] == [
            ("op.missing_surface", "$[3]", "nope")
        ]

    def test_v08_implicit_create(self) -> None:
        """v0.8 updates create the surface, not yet rendered (no root)."""
        surfaces, codes = run(
            [UpdateComponents(surface_id="s", components=(comp("a"),), implicit_create=True)]
        )
        assert codes == []
        assert surfaces["s"].version == "v0.8"
        assert surfaces["s"].root_id is None

    def test_initial_data_written(self) -> None:
        """v0.8 literal-plus-path values are written to the data model."""
        surfaces, _ = run(
            [
                UpdateComponents(
                    surface_id="s",
                    components=(comp("a"),),
                    implicit_create=True,
                    initial_data=(("/f/x", True),),
                )
            ]
        )
        assert surfaces["s"].data_model == {"f": {"x": True}}

    def test_decode_warnings_passed_on(self) -> None:
        """The operation's decode warnings come out with the apply diagnostics."""
        op = normalize_message(
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [None]}},
            index=1,
        )
        assert isinstance(op, UpdateComponents)
        _, codes = run([CreateSurface(surface_id="s", version="v0.9"), op])
        assert codes == ["component.malformed"]


class TestUpdateDataModel:
    def test_root_replaces_model(self) -> None:
        """Path ``""`` replaces the whole model."""
        surfaces = created(
            UpdateDataModel(surface_id="s", path="", value={"a": 1}),
            UpdateDataModel(surface_id="s", path="", value=[2]),
        )
        assert surfaces["s"].data_model == [2]

    def test_set_with_parents(self) -> None:
        """A deep path creates its parents; ``-`` appends."""
        surfaces = created(
            UpdateDataModel(surface_id="s", path="/a/list/-", value=1),
            UpdateDataModel(surface_id="s", path="/a/list/-", value=2),
        )
        assert surfaces["s"].data_model == {"a": {"list": [1, 2]}}

    def test_null_is_stored(self) -> None:
        """A null value is stored, not deleted."""
        surfaces = created(UpdateDataModel(surface_id="s", path="/a", value=None))
        assert surfaces["s"].data_model == {"a": None}

    def test_unset_value_deletes(self) -> None:
        """An unset value deletes the key; an array slot becomes a gap (the spec's undefined)."""
        surfaces = created(
            UpdateDataModel(surface_id="s", path="", value={"a": 1, "b": [1, 2]}),
            UpdateDataModel(surface_id="s", path="/a"),
            UpdateDataModel(surface_id="s", path="/b/0"),
        )
        assert surfaces["s"].data_model == {"b": [GAP, 2]}
        assert surfaces["s"].gaps

    def test_delete_whole_model(self) -> None:
        """Deleting ``""`` leaves no model at all."""
        surfaces = created(
            UpdateDataModel(surface_id="s", path="", value={"a": 1}),
            UpdateDataModel(surface_id="s", path=""),
        )
        assert surfaces["s"].data_model is UNSET

    def test_merge(self) -> None:
        """v0.8 merge sets each key and keeps the others."""
        surfaces = created(
            UpdateDataModel(surface_id="s", path="/f", value={"a": 1, "b": 2}),
            UpdateDataModel(surface_id="s", path="/f", value={"b": 3}, merge=True),
        )
        assert surfaces["s"].data_model == {"f": {"a": 1, "b": 3}}

    def test_a_tilde_escaping_nothing_is_part_of_the_key(self) -> None:
        """``/a~2`` writes the key ``"a~2"``, as upstream's client reads a data path."""
        surfaces = created(UpdateDataModel(surface_id="s", path="/a~2/~01", value=1))
        assert surfaces["s"].data_model == {"a~2": {"~1": 1}}

    @pytest.mark.parametrize(("path", "value"), [("/list/x", 1), ("/list/01", 1)])
    def test_bad_path_skipped(self, path: str, value: Any) -> None:
        """Bad escapes and non-index tokens on arrays are skipped with ``op.bad_path``."""
        surfaces, codes = run(
            [
                CreateSurface(surface_id="s", version="v0.9"),
                UpdateDataModel(surface_id="s", path="/list", value=[0]),
                UpdateDataModel(surface_id="s", path=path, value=value),
                UpdateDataModel(surface_id="s", path="/ok", value=True),
            ]
        )
        assert codes == ["op.bad_path"]
        assert surfaces["s"].data_model == {"list": [0], "ok": True}

    def test_size_limit(self) -> None:
        """A write that would exceed ``max_data_model_bytes`` is skipped; smaller ones apply."""
        limits = Limits(max_data_model_bytes=100)
        surfaces, codes = run(
            [
                CreateSurface(surface_id="s", version="v0.9"),
                UpdateDataModel(surface_id="s", path="/a", value="x" * 50),
                UpdateDataModel(surface_id="s", path="/b", value="y" * 60),
                UpdateDataModel(surface_id="s", path="/a", value="z" * 10),
                UpdateDataModel(surface_id="s", path="/b", value="y" * 60),
            ],
            limits=limits,
        )
        assert codes == ["limit.data_model_bytes"]
        assert surfaces["s"].data_model == {"a": "z" * 10, "b": "y" * 60}

    def test_size_estimate_tracks_repeated_updates(self) -> None:
        """Replacing one value many times does not grow the estimate."""
        ops: list[Operation | Diagnostic] = [CreateSurface(surface_id="s", version="v0.9")]
        ops += [UpdateDataModel(surface_id="s", path="/n", value=i) for i in range(1000)]
        surfaces, codes = run(ops, limits=Limits(max_data_model_bytes=64))
        assert codes == []
        # An estimate: within a few bytes of the real size, not 1,000 updates' worth.
        actual = len(msgspec.json.encode(surfaces["s"].data_model))
        assert abs(surfaces["s"].data_bytes - actual) <= 4

    def test_not_json_value(self) -> None:
        """A value that is not JSON (from a Python caller) is skipped, not raised."""
        _, codes = run(
            [
                CreateSurface(surface_id="s", version="v0.9"),
                UpdateDataModel(surface_id="s", path="/a", value={"x": object()}),
            ]
        )
        assert codes == ["op.malformed"]


class TestOtherOperations:
    def test_begin_rendering_sets_root_without_reset(self) -> None:
        """beginRendering names the root and keeps components and data."""
        surfaces, codes = run(
            [
                UpdateComponents(surface_id="s", components=(comp("r"),), implicit_create=True),
                UpdateDataModel(surface_id="s", path="/a", value=1, implicit_create=True),
                BeginRendering(surface_id="s", root="r", catalog_id="c"),
            ]
        )
        assert codes == []
        assert surfaces["s"].root_id == "r"
        assert surfaces["s"].catalog_id == "c"
        assert list(surfaces["s"].components) == ["r"]
        assert surfaces["s"].data_model == {"a": 1}

    def test_begin_rendering_creates(self) -> None:
        """beginRendering on a missing surface creates it."""
        surfaces, _ = run([BeginRendering(surface_id="s", root="r")])
        assert surfaces["s"] == Surface(surface_id="s", version="v0.8", components={}, root_id="r")

    def test_delete_surface(self) -> None:
        """deleteSurface removes; deleting a missing surface is silent."""
        surfaces, codes = run(
            [
                CreateSurface(surface_id="s", version="v0.9"),
                DeleteSurface(surface_id="s"),
                DeleteSurface(surface_id="s"),
            ]
        )
        assert surfaces == {}
        assert codes == []

    def test_function_messages_change_nothing(self) -> None:
        """Function calls and responses leave the surfaces as they were."""
        before = created()
        after, codes = run(
            [
                CallRendererFunction(function_call_id="f", call={"call": "x", "catalogId": "c"}),
                AgentFunctionResponse(function_call_id="f", value=1),
            ],
            before,
        )
        assert after is before
        assert codes == []

    def test_diagnostics_pass_through_and_rest_applies(self) -> None:
        """Decode diagnostics are passed on in order and later operations still apply."""
        bad = decode_operation(b"{", index=1)
        assert isinstance(bad, Diagnostic)
        surfaces, codes = run(
            [
                CreateSurface(surface_id="s", version="v0.9"),
                bad,
                UpdateDataModel(surface_id="x", path="", value=1),
                UpdateDataModel(surface_id="s", path="/a", value=1),
            ]
        )
        assert codes == ["op.invalid_json", "op.missing_surface"]
        assert surfaces["s"].data_model == {"a": 1}

    def test_operation_limit(self) -> None:
        """Beyond ``max_operations`` the rest is skipped with one diagnostic."""
        ops: list[Operation | Diagnostic] = [
            CreateSurface(surface_id=f"s{i}", version="v0.9") for i in range(5)
        ]
        surfaces, codes = run(ops, limits=Limits(max_operations=3))
        assert list(surfaces) == ["s0", "s1", "s2"]
        assert codes == ["limit.operations"]


class TestManyComponents:
    """From ``PERSISTENT_AT`` components on, a surface keeps them in a persistent map."""

    def test_large_surface_updates_share_what_did_not_change(self) -> None:
        """An update of a large surface leaves the old mapping whole and orders as a dict."""
        count = PERSISTENT_AT + 10
        big = created(
            UpdateComponents(surface_id="s", components=tuple(comp(f"c{i}") for i in range(count)))
        )
        before = big["s"].components
        assert type(before) is OrderedMap  # not a dict copied whole at every update
        changed = comp("c3", "changed")
        after, codes = run(
            [UpdateComponents(surface_id="s", components=(changed, comp("new"), comp("c0")))], big
        )
        assert codes == []
        components = after["s"].components
        assert type(components) is OrderedMap
        assert list(components) == [f"c{i}" for i in range(count)] + ["new"]
        assert components["c3"] is changed
        assert components["c0"] is before["c0"]
        assert before["c3"] == comp("c3")
        assert "new" not in before
        assert components == {**before, "c3": changed, "new": comp("new")}

    @pytest.mark.parametrize("size", [0, 1, PERSISTENT_AT - 2, PERSISTENT_AT - 1, PERSISTENT_AT])
    def test_both_forms_store_alike(self, size: int) -> None:
        """Across the threshold, the mapping holds the same entries in the same order."""
        components: Any = {f"c{i}": comp(f"c{i}") for i in range(size)}
        for form in (components, OrderedMap(components)):
            updates = {"c0": comp("c0", "x"), "z": comp("z"), "a": comp("a")}
            stored = with_components(form, updates)
            expected = {**components, **updates}
            assert list(stored.items()) == list(expected.items())
            assert type(stored) is (
                OrderedMap
                if len(expected) >= PERSISTENT_AT or form is not components
                else FrozenDict
            )
            assert form == components  # unchanged


class TestImmutability:
    def test_old_state_unchanged(self) -> None:
        """Earlier Surfaces mappings and their values are unchanged by later operations."""
        first = created(
            UpdateComponents(surface_id="s", components=(comp("root"),)),
            UpdateDataModel(surface_id="s", path="", value={"a": {"b": [1]}}),
        )
        snapshot = copy.deepcopy(dict(first))
        model = first["s"].data_model
        second, _ = run(
            [
                UpdateDataModel(surface_id="s", path="/a/b/-", value=2),
                UpdateDataModel(surface_id="s", path="/c", value=3),
                UpdateComponents(surface_id="s", components=(comp("root", "changed"),)),
                CreateSurface(surface_id="t", version="v0.9"),
                DeleteSurface(surface_id="s"),
            ],
            first,
        )
        assert dict(first) == snapshot
        assert first["s"].data_model is model
        assert model == {"a": {"b": [1]}}
        assert list(second) == ["t"]

    def test_untouched_surfaces_shared(self) -> None:
        """A surface no operation touched is the same object in the new mapping."""
        before, _ = run(
            [
                CreateSurface(surface_id="a", version="v0.9"),
                CreateSurface(surface_id="b", version="v0.9"),
            ]
        )
        after, _ = apply_operation(
            before, UpdateDataModel(surface_id="b", path="/x", value=1), index=0, limits=LIMITS
        )
        assert after is not before
        assert after["a"] is before["a"]
        assert after["b"] is not before["b"]

    def test_sibling_data_shared(self) -> None:
        """A data write keeps untouched subtrees of the model by identity."""
        before = created(
            UpdateDataModel(surface_id="s", path="", value={"a": {"x": 1}, "b": {"y": 2}})
        )
        after, _ = apply_operation(
            before, UpdateDataModel(surface_id="s", path="/a/x", value=5), index=0, limits=LIMITS
        )
        new_model: Any = after["s"].data_model
        old_model: Any = before["s"].data_model
        assert new_model["b"] is old_model["b"]


#: Expected surfaces per sample stream: surfaceId -> (components, root, data checks).
EXPECTED: dict[str, dict[str, tuple[int, str | None, dict[str, Any]]]] = {
    "v0_8__00_simple-login-form.json": {
        "gallery-simple-login-form": (6, "root", {"username": "", "password": ""})
    },
    "v0_8__30_modal-sample.json": {"modal-sample-surface": (7, "root", {})},
    "v0_8__contact_list.json": {"contact-list": (11, "root-column", {})},
    "v0_8__restaurant-finder.json": {"default": (26, "root-column", {})},
    "v0_9__00_incremental.json": {"gallery-incremental": (7, "root", {})},
    "v0_9__multi_surface.json": {
        "contact-card": (34, "root", {}),
        "org-chart-view": (2, "root", {}),
    },
    "v0_9__contact_form_example.jsonl": {},
    "v1_0__00_incremental.json": {"gallery-incremental": (7, "root", {})},
    "v1_0__contact_form_example.jsonl": {},
}


class TestSamples:
    def apply_file(self, sample_name: str, samples_dir: Path) -> tuple[Surfaces, list[str]]:
        (sample,) = [f for f in load_sample_files(samples_dir) if f.name == sample_name]
        ops = [decode_operation(m.raw, index=m.position) for m in sample.messages]
        return run(ops)

    def test_every_stream_applies_cleanly(self, samples_dir: Path) -> None:
        """Every conformant sample stream applies without diagnostics; each surface has a root."""
        for sample in load_sample_files(samples_dir):
            if not sample.is_stream:
                continue
            good = [m for m in sample.messages if m.conformant]
            ops = [decode_operation(m.raw, index=m.position) for m in good]
            surfaces, codes = run(ops)
            if len(good) == len(sample.messages):
                assert codes == [], sample.name
            for surface in surfaces.values():
                assert surface.root_id in surface.components, (sample.name, surface.surface_id)

    def test_conformant_streams_helper(self, samples_dir: Path) -> None:
        """The helper lists every stream with conformant messages, playback entries dropped."""
        streams = dict(conformant_streams(samples_dir))
        assert "v0_9__northstar-tour.json" not in streams
        assert "v1_0__call_function_message.json" not in streams
        assert len(streams["v0_8__kitchen-sink.json"]) == 50
        for messages in streams.values():
            ops = [normalize_message(m, index=i) for i, m in enumerate(messages)]
            assert not any(isinstance(op, Diagnostic) for op in ops)

    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_expected_surfaces(self, name: str, samples_dir: Path) -> None:
        """Selected samples build the expected surfaces: components, root and data."""
        surfaces, _ = self.apply_file(name, samples_dir)
        assert set(surfaces) == set(EXPECTED[name])
        for sid, (count, root, data) in EXPECTED[name].items():
            surface = surfaces[sid]
            assert len(surface.components) == count
            assert surface.root_id == root
            for key, value in data.items():
                model: Any = surface.data_model
                assert model[key] == value

    def test_incremental_data(self, samples_dir: Path) -> None:
        """The v0.9 incremental sample appends a fourth restaurant at ``/restaurants/3``."""
        surfaces, _ = self.apply_file("v0_9__00_incremental.json", samples_dir)
        model: Any = surfaces["gallery-incremental"].data_model
        restaurants = model["restaurants"]
        assert [r["title"] for r in restaurants][-1] == "Spice Route"
        assert len(restaurants) == 4

    def test_v08_value_maps(self, samples_dir: Path) -> None:
        """v0.8 nested valueMaps become nested objects, merged at the root."""
        surfaces, _ = self.apply_file("v0_8__contact_list.json", samples_dir)
        model: Any = surfaces["contact-list"].data_model
        contacts = model["contacts"]
        assert contacts["contact1"]["name"] == "Alice Wonderland"
        comps = surfaces["contact-list"].components
        assert comps["item-list"].props["children"] == {
            "template": {"componentId": "item-card-template", "path": "/contacts"}
        }

    def test_kitchen_sink(self, samples_dir: Path) -> None:
        """kitchen-sink builds its 19 surfaces; its playback entry is reported as unknown."""
        surfaces, codes = self.apply_file("v0_8__kitchen-sink.json", samples_dir)
        assert len(surfaces) == 19
        assert codes == ["op.unknown"]
        assert surfaces["demo-multichoice"].components["demo-multichoice-root"].component == (
            "ChoicePicker"
        )


class TestDataSizeEstimate:
    def test_patched_model_is_measured_by_its_change(self) -> None:
        """A root write of a patched copy keeps the size estimate close to the true size."""
        model = {"items": [{"name": f"item {i}", "price": i} for i in range(200)], "title": "t"}
        surfaces, _ = apply_operations(
            {},
            [
                CreateSurface(surface_id="s", version="v0.9"),
                UpdateDataModel(surface_id="s", path="", value=model),
            ],
            limits=Limits(),
        )
        for step in range(20):
            model = apply_patch(
                model,
                [
                    {"op": "replace", "path": f"/items/{step}/name", "value": "x" * step},
                    {"op": "add", "path": f"/extra{step}", "value": [step]},
                ],
            )
            surfaces, problems = apply_operations(
                surfaces, [UpdateDataModel(surface_id="s", path="", value=model)], limits=Limits()
            )
            assert problems == ()
        true_size = len(msgspec.json.encode(model))
        assert abs(surfaces["s"].data_bytes - true_size) <= 20 * 2

    def test_known_change_measures_as_the_diff_does(self) -> None:
        """A claim read off a patch gives the same estimate a diff of the models gives."""
        model = {"items": [{"name": f"item {i}", "price": i} for i in range(50)], "title": "t"}
        create = CreateSurface(surface_id="s", version="v0.9")
        start, _ = apply_operations(
            {}, [create, UpdateDataModel(surface_id="s", path="", value=model)], limits=Limits()
        )
        patch = [
            {"op": "replace", "path": "/items/3/name", "value": "a much longer name"},
            {"op": "replace", "path": "/title", "value": 12345},
        ]
        held = start["s"].data_model  # the frozen copy the state keeps, which a patch shares
        patched = apply_patch(held, patch)
        write = UpdateDataModel(surface_id="s", path="", value=patched)

        def size_after(*known: DataChange) -> int:
            empty = {"s": Surface(surface_id="s", version="v0.9", components={})}
            surfaces, _ = apply_operation(
                empty, write, index=0, limits=Limits(), reference=start, known=known
            )
            return surfaces["s"].data_bytes

        claim = DataChange(held, patched, (("items", "3", "name"), ("title",)))
        true_size = len(msgspec.json.encode(patched))
        assert size_after(claim) == size_after() == true_size
        # The claim is taken as given: one naming only the title misses the name's growth.
        partial = DataChange(held, patched, (("title",),))
        trusted = size_after(partial)
        assert trusted < true_size

    def test_claim_about_other_values_is_ignored(self) -> None:
        """A claim whose values are not the ones written leaves the estimate to the diff."""
        model = {"items": [{"name": f"item {i}"} for i in range(50)]}
        create = CreateSurface(surface_id="s", version="v0.9")
        start, _ = apply_operations(
            {}, [create, UpdateDataModel(surface_id="s", path="", value=model)], limits=Limits()
        )
        change = {"op": "replace", "path": "/items/0/name", "value": "y" * 99}
        patched = apply_patch(model, [change])
        stale = DataChange(copy.deepcopy(model), patched, ())  # names nothing that changed
        surfaces, _ = apply_operation(
            start,
            UpdateDataModel(surface_id="s", path="", value=patched),
            index=0,
            limits=Limits(),
            reference=start,
            known=(stale,),
        )
        assert surfaces["s"].data_bytes == len(msgspec.json.encode(patched))
