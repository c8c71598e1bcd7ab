"""JSON values as immutable trees: RFC 6902 patches both ways (``_tree.patch``)."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest
from helpers import json_values, pointers_into
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._tree.depth import count_values
from a2ui_stream._tree.patch import (
    PatchDepthError,
    PatchError,
    PatchSizeError,
    apply_patch,
    apply_patch_within,
    outermost,
    written_paths,
)
from a2ui_stream._wire.frozen import freeze

DOC: dict[str, Any] = {"a": {"b": [1, 2, 3], "c": "x"}, "d": {"e": True}, "~/": 0}

# RFC 6902 appendix A style cases: (patch, expected document).
APPLY_CASES: list[tuple[list[dict[str, Any]], Any]] = [
    ([{"op": "add", "path": "/f", "value": 1}], {**DOC, "f": 1}),
    ([{"op": "add", "path": "/a/b/1", "value": 9}], {**DOC, "a": {"b": [1, 9, 2, 3], "c": "x"}}),
    ([{"op": "add", "path": "/a/b/-", "value": 4}], {**DOC, "a": {"b": [1, 2, 3, 4], "c": "x"}}),
    ([{"op": "remove", "path": "/a/b/0"}], {**DOC, "a": {"b": [2, 3], "c": "x"}}),
    ([{"op": "remove", "path": "/d"}], {"a": DOC["a"], "~/": 0}),
    ([{"op": "replace", "path": "/a/c", "value": "y"}], {**DOC, "a": {"b": [1, 2, 3], "c": "y"}}),
    ([{"op": "replace", "path": "", "value": 5}], 5),
    ([{"op": "replace", "path": "/~0~1", "value": 1}], {**DOC, "~/": 1}),
    (
        [{"op": "move", "from": "/a/c", "path": "/d/c"}],
        {"a": {"b": [1, 2, 3]}, "d": {"e": True, "c": "x"}, "~/": 0},
    ),
    ([{"op": "copy", "from": "/d", "path": "/g"}], {**DOC, "g": {"e": True}}),
    ([{"op": "test", "path": "/a/b", "value": [1, 2, 3]}], DOC),
]

FAILING: list[tuple[list[Any], str]] = [
    ([{"op": "remove", "path": "/nope"}], "does not exist"),
    ([{"op": "replace", "path": "/a/b/3", "value": 1}], "out of range"),
    ([{"op": "add", "path": "/a/b/01", "value": 1}], "not an array index"),
    # Digits of other scripts are no index (RFC 6901: 0 to 9), whether int() reads them
    # (Arabic-Indic one) or refuses them (superscript two).
    ([{"op": "replace", "path": "/a/b/\u0661", "value": 1}], "not an array index"),
    ([{"op": "replace", "path": "/a/b/\u00b2", "value": 1}], "not an array index"),
    ([{"op": "remove", "path": "/a/b/\u0661/x"}], "not an array index"),
    ([{"op": "add", "path": "/a/c/x", "value": 1}], "cannot add"),
    ([{"op": "test", "path": "/d/e", "value": 1}], "test failed"),
    ([{"op": "move", "from": "/a", "path": "/a/z"}], "own children"),
    ([{"op": "jump", "path": "/a"}], "unknown op"),
    ([{"op": "add", "path": "/x"}], "'value' is required"),
    ([{"op": "add", "path": 3, "value": 1}], "JSON Pointer"),
    (["add"], "must be an object"),
    ([{"op": "add", "path": "a", "value": 1}], "bad pointer"),
]


class TestApplyPatch:
    @pytest.mark.parametrize(("patch", "expected"), APPLY_CASES)
    def test_operations(self, patch: list[dict[str, Any]], expected: Any) -> None:
        """Each operation kind does what RFC 6902 says."""
        assert apply_patch(DOC, patch) == expected

    @pytest.mark.parametrize(("patch", "reason"), FAILING)
    def test_failures_name_the_operation(self, patch: list[Any], reason: str) -> None:
        """A failing operation raises PatchError with its index and reason."""
        with pytest.raises(PatchError, match=reason) as raised:
            apply_patch(DOC, [{"op": "test", "path": "/a/c", "value": "x"}, *patch])
        assert raised.value.index == 1

    def test_many_removes_from_one_container(self) -> None:
        """Removes in one patch change one copy (an input probe sent 25,000 of them).

        The result is frozen, the document given is untouched, and removes interleave
        with adds and moves of the same list as RFC 6902 orders them.
        """
        document = freeze({"l": list(range(10)), "o": {str(i): i for i in range(6)}})
        patch = [
            *({"op": "remove", "path": "/l/0"} for _ in range(3)),
            {"op": "add", "path": "/l/-", "value": 99},
            {"op": "remove", "path": "/l/2"},
            {"op": "move", "from": "/l/0", "path": "/l/-"},
            *({"op": "remove", "path": f"/o/{i}"} for i in (0, 2, 5)),
        ]
        result = apply_patch(document, patch)
        assert result == {"l": [4, 6, 7, 8, 9, 99, 3], "o": {"1": 1, "3": 3, "4": 4}}
        assert document == {"l": list(range(10)), "o": {str(i): i for i in range(6)}}
        assert freeze(result) is result  # frozen throughout

    def test_patch_must_be_a_list(self) -> None:
        """A patch that is not an array is refused."""
        with pytest.raises(PatchError, match="array"):
            apply_patch(DOC, {"op": "add"})  # type: ignore[arg-type]

    def test_input_is_never_changed(self) -> None:
        """Applying a patch leaves the input document as it was."""
        before = copy.deepcopy(DOC)
        apply_patch(DOC, [op for patch, _ in APPLY_CASES[:6] for op in patch])
        assert before == DOC

    def test_untouched_subtrees_keep_identity(self) -> None:
        """Only the containers along the changed path are copied."""
        patched = apply_patch(DOC, [{"op": "replace", "path": "/a/c", "value": "y"}])
        assert patched["d"] is DOC["d"]
        assert patched["a"]["b"] is DOC["a"]["b"]
        assert patched["a"] is not DOC["a"]

    def test_two_appends_to_one_list_copy_it_once(self) -> None:
        """The second operation changes the copy the first made, not the input."""
        document = {"items": [{"children": ["a"]}, 1]}
        before = copy.deepcopy(document)
        patched = apply_patch(
            document,
            [
                {"op": "add", "path": "/items/-", "value": 2},
                {"op": "add", "path": "/items/0/children/-", "value": "b"},
                {"op": "add", "path": "/items/-", "value": 3},
            ],
        )
        assert patched == {"items": [{"children": ["a", "b"]}, 1, 2, 3]}
        assert document == before

    @pytest.mark.parametrize("op", ["copy", "move"])
    def test_a_copied_container_is_not_changed_in_two_places(self, op: str) -> None:
        """After a copy puts a container the patch made in two places, an edit copies it."""
        patched = apply_patch(
            {"a": {"x": 1}, "z": {}},
            [
                {"op": "add", "path": "/a/y", "value": 2},  # /a is the patch's own now
                {"op": op, "from": "/a", "path": "/z/b"},
                {"op": "add", "path": "/z/b/w", "value": 3},
                {"op": "add", "path": "/a/v", "value": 4}
                if op == "copy"
                else {"op": "test", "path": "/z/b/w", "value": 3},
            ],
        )
        if op == "copy":
            assert patched == {"a": {"x": 1, "y": 2, "v": 4}, "z": {"b": {"x": 1, "y": 2, "w": 3}}}
        else:
            assert patched == {"z": {"b": {"x": 1, "y": 2, "w": 3}}}

    @settings(max_examples=300, deadline=None)
    @given(document=json_values, data=st.data())
    def test_a_patch_does_what_its_operations_do_one_by_one(
        self, document: Any, data: st.DataObject
    ) -> None:
        """Whole or one operation at a time, the same document, and the input unchanged.

        One operation at a time, no copy is ever changed in place; whole, later
        operations change the copies earlier ones made.
        """
        patch: list[dict[str, Any]] = []
        current = document
        for _ in range(data.draw(st.integers(1, 6))):
            paths = pointers_into(current)
            op = data.draw(st.sampled_from(["add", "remove", "replace", "move", "copy"]))
            target = data.draw(st.sampled_from([*paths, *(f"{p}/-" for p in paths)]))
            operation: dict[str, Any] = {"op": op, "path": target}
            if op in {"move", "copy"}:
                operation["from"] = data.draw(st.sampled_from(paths))
            if op in {"add", "replace"}:
                operation["value"] = data.draw(json_values)
            try:
                current = apply_patch(current, [operation])
            except PatchError:
                continue
            patch.append(operation)
        before = copy.deepcopy(document)
        values = copy.deepcopy(patch)
        whole = apply_patch(document, patch)
        assert msgspec.json.encode(whole) == msgspec.json.encode(current)
        assert msgspec.json.encode(document) == msgspec.json.encode(before)
        assert msgspec.json.encode(patch) == msgspec.json.encode(values)

    def test_test_compares_json_types(self) -> None:
        """test distinguishes true from 1, as JSON does."""
        with pytest.raises(PatchError):
            apply_patch({"x": True}, [{"op": "test", "path": "/x", "value": 1}])
        assert apply_patch({"x": 1}, [{"op": "test", "path": "/x", "value": 1.0}]) == {"x": 1}


class TestWrittenPaths:
    def test_writes_give_their_op_and_path(self) -> None:
        """Replace, add and remove give their paths as tokens; test operations give none."""
        patch = [
            {"op": "replace", "path": "/a/0/b", "value": 1},
            {"op": "test", "path": "/a", "value": []},
            {"op": "add", "path": "/c~1d", "value": 2},
            {"op": "remove", "path": "/e"},
        ]
        assert written_paths(patch) == (
            ("replace", ("a", "0", "b")),
            ("add", ("c/d",)),
            ("remove", ("e",)),
        )

    def test_paths_inside_another_are_dropped(self) -> None:
        """A path under another is covered by it, in either order."""
        assert outermost([("a", "b"), ("a",)]) == (("a",),)
        assert outermost([("a",), ("a", "b"), ("a", "b"), ("c",)]) == (("a",), ("c",))

    @pytest.mark.parametrize(
        "operation",
        [
            {"op": "move", "from": "/a/0", "path": "/b"},
            {"op": "copy", "from": "/a/0", "path": "/b"},
            {"op": "replace", "path": 7, "value": 1},
            {"op": "add", "path": "no slash", "value": 1},
            "not an operation",
        ],
    )
    def test_two_places_or_none_say_nothing(self, operation: Any) -> None:
        """Operations that touch two places, or none readable, make the answer None."""
        assert written_paths([{"op": "replace", "path": "/x", "value": 1}, operation]) is None

    def test_a_long_patch_says_nothing(self) -> None:
        """Past 256 operations the claim would cost more than the diff it spares."""
        patch = [{"op": "replace", "path": f"/{i}", "value": i} for i in range(257)]
        assert written_paths(patch) is None
        assert written_paths(patch[:256]) is not None


class TestCountedPatches:
    """``apply_patch_within``: the document's values counted as each operation goes."""

    def test_a_copy_into_itself_doubles_what_is_counted(self) -> None:
        doc, nodes = {"z": [0]}, count_values({"z": [0]})
        copy_in = [{"op": "copy", "from": "/z", "path": "/z/-"}]
        for _ in range(10):
            doc, nodes = apply_patch_within(doc, copy_in, nodes=nodes, max_nodes=10_000)
            assert nodes == count_values(doc)
        assert nodes == 2 + 2**11 - 1  # the root, "z", and the doubled list's values

    def test_past_the_limit_is_refused_naming_the_operation(self) -> None:
        doc = {"z": [0] * 50}
        patch = [
            {"op": "test", "path": "/z/0", "value": 0},
            {"op": "copy", "from": "/z", "path": "/y"},
        ]
        with pytest.raises(PatchSizeError) as caught:
            apply_patch_within(doc, patch, nodes=count_values(doc), max_nodes=100)
        assert caught.value.index == 1
        assert "more than 100 values" in str(caught.value)
        patched, nodes = apply_patch_within(doc, patch, nodes=52, max_nodes=103)
        assert nodes == 103 == count_values(patched)

    def test_a_large_copy_is_refused_after_a_walk_of_the_budget(self) -> None:
        """What is copied is walked only as far as the budget left, not written out."""
        doc: Any = [0]
        for _ in range(60):  # 2**60 values written out, 61 lists in memory
            doc = [doc, doc]
        patch = [{"op": "copy", "from": "/0", "path": "/-"}]
        with pytest.raises(PatchSizeError):
            apply_patch_within([doc], patch, nodes=2, max_nodes=1_000_000)

    def test_over_the_limit_already_takes_what_does_not_grow_it(self) -> None:
        doc = {"a": [1, 2, 3], "b": "x"}
        nodes = count_values(doc)  # 6
        shrink = [{"op": "replace", "path": "/b", "value": 7}, {"op": "remove", "path": "/a/0"}]
        patched, after = apply_patch_within(doc, shrink, nodes=nodes, max_nodes=2)
        assert after == 5 == count_values(patched)
        with pytest.raises(PatchSizeError):
            apply_patch_within(doc, [{"op": "add", "path": "/c", "value": 1}], nodes=6, max_nodes=2)

    def test_the_depth_bound_still_holds(self) -> None:
        with pytest.raises(PatchDepthError):
            apply_patch_within(
                {"a": [[0]]},
                [{"op": "copy", "from": "/a", "path": "/a/0/0"}],
                nodes=4,
                max_nodes=100,
                max_depth=3,
            )

    @pytest.mark.parametrize(
        "operation",
        [
            {"op": "add", "path": "/x/y/z/w", "value": 1},
            {"op": "replace", "path": "/x/y/z/w", "value": 1},
            {"op": "copy", "from": "/a", "path": "/x/y/z/w"},
            {"op": "move", "from": "/a", "path": "/x/y/z/w"},
        ],
        ids=lambda operation: operation["op"],
    )
    def test_a_path_past_the_depth_is_too_deep_before_it_is_walked(
        self, operation: dict[str, Any]
    ) -> None:
        """Too long for the bound, a path is refused as too deep, its parents missing or not."""
        applies = (
            lambda: apply_patch({"a": 1}, [operation], max_depth=3),
            lambda: apply_patch_within({"a": 1}, [operation], nodes=2, max_nodes=100, max_depth=3),
        )
        for apply in applies:
            with pytest.raises(PatchDepthError, match="a path of 4 segments goes past 3 levels"):
                apply()
        # Within the bound, the same missing parent is what fails.
        with pytest.raises(PatchError, match="does not exist") as missing:
            apply_patch({"a": 1}, [operation], max_depth=4)
        assert type(missing.value) is PatchError

    @settings(max_examples=300, deadline=None)
    @given(document=json_values, data=st.data(), limit=st.integers(1, 60))
    def test_count_and_refusal_follow_each_operation(
        self, document: Any, data: st.DataObject, limit: int
    ) -> None:
        """Counted or not, the same document; the count is exact; the refusal is the rule.

        The rule: an operation fails when it would leave the document holding more values
        than the limit and more than before it.
        """
        patch: list[dict[str, Any]] = []
        current = document
        for _ in range(data.draw(st.integers(1, 4))):
            paths = pointers_into(current)
            op = data.draw(st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]))
            target = data.draw(st.sampled_from([*paths, *(f"{p}/-" for p in paths)]))
            operation: dict[str, Any] = {"op": op, "path": target}
            if op in {"move", "copy"}:
                operation["from"] = data.draw(st.sampled_from(paths))
            if op in {"add", "replace", "test"}:
                operation["value"] = data.draw(json_values)
            patch.append(operation)
            try:
                current = apply_patch(current, [operation])
            except PatchError:
                break
        expected: Any
        current, nodes = document, count_values(document)
        for index, operation in enumerate(patch):
            try:
                after = apply_patch(current, [operation])
            except PatchError:
                expected = (PatchError, index)
                break
            grown = count_values(after)
            if grown > max(limit, nodes):
                expected = (PatchSizeError, index)
                break
            current, nodes = after, grown
        else:
            expected = (current, nodes)
        try:
            got: Any = apply_patch_within(
                document, patch, nodes=count_values(document), max_nodes=limit
            )
        except PatchError as error:
            got = (PatchSizeError if isinstance(error, PatchSizeError) else PatchError, error.index)
        assert got == expected
