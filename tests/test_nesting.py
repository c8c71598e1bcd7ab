"""Nesting the input decides (issue 12 §1): it is bounded, never recursed into unbounded.

A data path of 495 segments made ``Processor.feed`` raise ``RecursionError``, and every
later read of a log holding that line did the same. Here: every reproducer of that
probe, the ``max_data_depth`` limit at its boundary wherever a value enters the state
(data writes, components, patches, lifecycle content, history), the formatString
parser's nesting, the stack the deepest legal input needs, and the containment that
turns an exception inside the core into one diagnostic, live and on replay.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
import stream_cases as cases
from helpers import data_op, depth_of, nested, run_between, snapshot_line, v09_surface

from a2ui_stream import Diagnostic, Limits, MemoryLog, Processor, Reducer, replay
from a2ui_stream._convert.functions import MAX_NESTING
from a2ui_stream._engine.content import content_depth
from a2ui_stream._shell.cli import main
from a2ui_stream._state.surface import apply_operation
from a2ui_stream._tree.diff import diff
from a2ui_stream._tree.patch import PatchDepthError, apply_patch
from a2ui_stream._tree.pointer import delete_value, get, set_value
from a2ui_stream._wire import codec
from a2ui_stream._wire.events import ActivityMessage, AssistantMessage, MessagesSnapshot
from a2ui_stream._wire.numbers import js_string

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

_encode = msgspec.json.Encoder().encode
CONSOLE_SCRIPT = Path(sys.executable).parent / "a2ui-stream"
DEPTH = "limit.data_depth"
#: Where the reducer applies operations: the name a simulated bug replaces.
APPLYING = "a2ui_stream._engine.buckets"


def feed(
    lines: Iterable[bytes], limits: Limits | None = None
) -> tuple[list[Any], list[Diagnostic]]:
    processor = Processor(limits=limits)
    diffs = processor.feed(b"".join(line + b"\n" for line in lines)) + processor.close()
    return diffs, processor.take_diagnostics()


def delta(message_id: str, patch: list[dict[str, Any]]) -> bytes:
    return _encode(
        {
            "type": "ACTIVITY_DELTA",
            "messageId": message_id,
            "activityType": "a2ui-surface",
            "patch": patch,
        }
    )


class TestReproducers:
    """The probe's inputs (``../shared/bugs/repro``), rebuilt here: none raises any more."""

    @pytest.mark.parametrize("segments", [65, 494, 495, 600, 10_000, 200_000])
    def test_deep_path(self, segments: int) -> None:
        """``deep_path.py N``: a write through N path segments is skipped with a diagnostic."""
        line = snapshot_line("x", [*v09_surface("x"), data_op("x", "/a" * segments, 1)])
        outcome = run_between(line)
        assert outcome.codes == {DEPTH}
        [problem] = outcome.diagnostics
        assert f"{segments} segments" in problem.message
        assert (problem.surface_id, problem.path, problem.seq) == ("x", "$[2]", 2)

    def test_deep_path_line_of_the_probe(self) -> None:
        """``deep_path.jsonl``: the 1.5 KB line, alone, as the probe fed it."""
        line = _encode(
            {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": "m",
                "activityType": "a2ui-surface",
                "replace": True,
                "content": {
                    "a2ui_operations": [
                        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
                        data_op("s", "/a" * 600, 1),
                    ]
                },
            }
        )
        assert 1400 < len(line) < 1600
        _, diagnostics = feed([line])
        assert {d.code for d in diagnostics} == {DEPTH, "convert.root_missing"}

    @pytest.mark.parametrize(
        ("name", "expected"),
        [
            ("dm_path", {DEPTH}),
            ("binding_path", set()),
            ("delta_patch_path", {DEPTH}),
            ("delta_test_path", {"activity.patch_failed"}),
            ("template_path", {"convert.template_not_list"}),
            ("v08_dm_path", {DEPTH}),
            ("model_depth_950_steps", {DEPTH}),
            ("action_context_path", set()),
        ],
    )
    def test_recursion_variants(self, name: str, expected: set[str]) -> None:
        """``recursion_variants.py``: each of its eight streams, between two good lines."""
        path = "/a" * 600
        text = {"id": "root", "component": "Text", "text": {"path": "/a"}}
        lines: dict[str, list[bytes]] = {
            "dm_path": [snapshot_line("x", [*v09_surface("x"), data_op("x", path, 1)])],
            "binding_path": [
                snapshot_line(
                    "x",
                    v09_surface("x", [{"id": "root", "component": "Text", "text": {"path": path}}]),
                )
            ],
            "delta_patch_path": [
                snapshot_line("x", v09_surface("x")),
                delta("x", [{"op": "add", "path": "/x" + path, "value": 1}]),
            ],
            "delta_test_path": [
                snapshot_line("x", v09_surface("x")),
                delta("x", [{"op": "test", "path": "/x" + path, "value": 1}]),
            ],
            "template_path": [
                snapshot_line(
                    "x",
                    v09_surface(
                        "x",
                        [
                            {
                                "id": "root",
                                "component": "Column",
                                "children": {"componentId": "i", "path": path},
                            },
                            {"id": "i", "component": "Text", "text": "x"},
                        ],
                    ),
                )
            ],
            "v08_dm_path": [
                snapshot_line(
                    "x",
                    [
                        {
                            "surfaceUpdate": {
                                "surfaceId": "x",
                                "components": [
                                    {
                                        "id": "root",
                                        "component": {"Text": {"text": {"literalString": "x"}}},
                                    }
                                ],
                            }
                        },
                        {"beginRendering": {"surfaceId": "x", "root": "root"}},
                        {
                            "dataModelUpdate": {
                                "surfaceId": "x",
                                "path": path,
                                "contents": [{"key": "k", "valueString": "v"}],
                            }
                        },
                    ],
                )
            ],
            "model_depth_950_steps": [
                snapshot_line("x", v09_surface("x", [text], {"a": nested(900, [])})),
                snapshot_line(
                    "x",
                    [
                        *v09_surface("x", [text], {"a": nested(900, [])}),
                        data_op("x", "/a" + "/0" * 899, nested(900)),
                    ],
                ),
            ],
            "action_context_path": [
                snapshot_line(
                    "x",
                    v09_surface(
                        "x",
                        [
                            {
                                "id": "root",
                                "component": "Button",
                                "label": "b",
                                "action": {
                                    "event": {"name": "n", "context": {"k": {"path": path}}}
                                },
                            }
                        ],
                    ),
                )
            ],
        }
        outcome = run_between(lines[name])
        assert outcome.codes - {"convert.root_missing"} == expected


class TestDepthLimit:
    """``max_data_depth`` wherever a value enters the state: the limit passes, one more does not."""

    LIMIT = 6
    LIMITS = Limits(max_data_depth=6)

    def run(self, line: bytes | list[bytes]) -> set[str]:
        return run_between(line, self.LIMITS).codes

    def test_default_is_64(self) -> None:
        """The default bound, and a path of exactly 64 segments to a scalar passes it."""
        assert Limits().max_data_depth == 64
        ok = snapshot_line("x", [*v09_surface("x"), data_op("x", "/a" * 64, 1)])
        assert run_between(ok).codes == set()
        assert run_between(ok.replace(b'"value":1', b'"value":[1]')).codes == {DEPTH}

    @pytest.mark.parametrize(("segments", "levels"), [(6, 0), (3, 3), (0, 6), (1, 5)])
    def test_write_at_the_limit(self, segments: int, levels: int) -> None:
        """Path segments and the value's nesting add up to at most the limit."""
        path = "".join(f"/k{i}" for i in range(segments))
        value = nested(levels) if segments else {"k": nested(levels - 1)}
        assert self.run(snapshot_line("x", [*v09_surface("x"), data_op("x", path, value)])) == set()
        deeper = nested(levels + 1) if segments else {"k": nested(levels)}
        assert self.run(snapshot_line("x", [*v09_surface("x"), data_op("x", path, deeper)])) == {
            DEPTH
        }

    def test_refused_write_leaves_the_model(self) -> None:
        """A write past the limit changes nothing; the writes around it apply."""
        text = {"id": "root", "component": "Text", "text": {"path": "/b"}}
        ops = [
            *v09_surface("x", [text], {"b": "kept"}),
            data_op("x", "/a", nested(6)),
            data_op("x", "/c", 1),
        ]
        outcome = run_between(snapshot_line("x", ops), self.LIMITS)
        assert outcome.codes == {DEPTH}
        assert outcome.painted("x")["value"] == "kept"

    def test_component_at_the_limit(self) -> None:
        """A component's object counts as one level; a deeper one is skipped, others apply."""
        fits = {"id": "a", "component": "Text", "text": "a", "extra": nested(5)}
        over = {"id": "b", "component": "Text", "text": "b", "extra": nested(6)}
        column = {"id": "root", "component": "Column", "children": ["a", "b"]}
        outcome = run_between(
            snapshot_line("x", v09_surface("x", [column, fits, over])), self.LIMITS
        )
        assert outcome.codes == {DEPTH, "convert.component_missing"}
        [problem] = [d for d in outcome.diagnostics if d.code == DEPTH]
        assert problem.component_id == "b"
        assert [child["value"] for child in outcome.painted("x")["children"]] == ["a"]

    def test_a_wire_operation_whose_text_bounds_it_is_not_walked(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Within the limit by its brackets alone, nothing is walked, and all of it applies."""

        def walked(value: Any, limit: int) -> bool:
            raise AssertionError(f"walked {value!r} for depth {limit}")

        monkeypatch.setattr("a2ui_stream._state.surface.deeper_than", walked)
        text = {"id": "root", "component": "Text", "text": {"path": "/a/0"}}
        ops = [*v09_surface("x", [text]), data_op("x", "/a", ["shown"])]
        outcome = run_between(snapshot_line("x", ops), self.LIMITS)
        assert outcome.codes == set()
        assert outcome.painted("x")["value"] == "shown"

    def test_brackets_in_strings_are_not_levels(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A text whose strings hold brackets past the limit nests as its values do.

        Its brackets outnumber the limit, so the bound reads the depth outside strings,
        and nothing is walked.
        """

        def walked(value: Any, limit: int) -> bool:
            raise AssertionError(f"walked {value!r} for depth {limit}")

        monkeypatch.setattr("a2ui_stream._state.surface.deeper_than", walked)
        brackets = "[{" * self.LIMIT
        text = {"id": "root", "component": "Text", "text": brackets, "extra": nested(2)}
        ops = [*v09_surface("x", [text]), data_op("x", "/a", {"b": [brackets]})]
        outcome = run_between(snapshot_line("x", ops), self.LIMITS)
        assert outcome.codes == set()
        assert outcome.painted("x")["value"] == brackets

    @pytest.mark.parametrize(
        ("closers", "openers"),
        [("]]]]", "[[[["), ("}]}]", "{[{["), ('\\"]]]]\\', '\\\\[[[[\\"'), ("]" * 12, "")],
    )
    def test_brackets_in_strings_hide_no_level(self, closers: str, openers: str) -> None:
        """Closers in one string and openers in a later one cannot lift a level off.

        Read as structure, they would close four levels before the nested value and
        open them again after it, and the value would seem four levels shallower.
        """
        over = {
            "id": "b",
            "component": "Text",
            "text": closers,
            "extra": nested(6),
            "label": openers,
        }
        column = {"id": "root", "component": "Column", "children": ["b"]}
        outcome = run_between(snapshot_line("x", v09_surface("x", [column, over])), self.LIMITS)
        assert outcome.codes == {DEPTH, "convert.component_missing"}
        [problem] = [d for d in outcome.diagnostics if d.code == DEPTH]
        assert problem.component_id == "b"

    def test_v10_inline_data_model(self) -> None:
        """createSurface's v1.0 ``dataModel`` is a write of the whole model."""
        create = {
            "version": "v1.0",
            "createSurface": {"surfaceId": "x", "catalogId": "c", "dataModel": {"a": nested(6)}},
        }
        assert DEPTH in self.run(snapshot_line("x", [create]))

    def test_v08_contents_and_components(self) -> None:
        """v0.8 merges ``contents`` under a path, and deep BoundValues are refused."""
        deep_component = {
            "id": "root",
            "component": {"Text": {"text": {"literalString": "t"}, "extra": nested(70)}},
        }
        ops = [
            {"surfaceUpdate": {"surfaceId": "x", "components": [deep_component]}},
            {"beginRendering": {"surfaceId": "x", "root": "root"}},
            {
                "dataModelUpdate": {
                    "surfaceId": "x",
                    "path": "/a/b/c/d/e/f",
                    "contents": [{"key": "k", "valueString": "v"}],
                }
            },
        ]
        outcome = run_between(snapshot_line("x", ops), self.LIMITS)
        assert outcome.codes == {DEPTH, "convert.root_missing"}
        assert len([d for d in outcome.diagnostics if d.code == DEPTH]) == 2

    def test_resent_value_deepened_at_one_leaf(self) -> None:
        """A cumulative snapshot that deepens one leaf of a re-sent value is refused there."""
        text = {"id": "root", "component": "Text", "text": {"path": "/a/0"}}
        wide = {"a": [str(i) for i in range(50)], "b": nested(5)}  # 6 levels: the limit
        deep = {**wide, "b": nested(6)}
        first = snapshot_line("x", v09_surface("x", [text], wide))
        assert (
            self.run([first, snapshot_line("x", v09_surface("x", [text], {**wide, "c": 1}))])
            == set()
        )
        outcome = run_between(
            [first, snapshot_line("x", v09_surface("x", [text], deep))], self.LIMITS
        )
        # The snapshot rebuilds the surface; the one write it carries is skipped.
        assert outcome.codes == {DEPTH}
        assert outcome.painted("x")["value"] == ""

    @pytest.mark.parametrize(
        ("patch", "fits"),
        [
            (
                [
                    {
                        "op": "add",
                        "path": "/a2ui_operations/2/updateDataModel/value/k",
                        "value": nested(6),
                    }
                ],
                True,
            ),
            (
                [
                    {
                        "op": "add",
                        "path": "/a2ui_operations/2/updateDataModel/value/k",
                        "value": nested(7),
                    }
                ],
                False,
            ),
            (
                [
                    {
                        "op": "replace",
                        "path": "/a2ui_operations/2/updateDataModel/value",
                        "value": nested(7),
                    }
                ],
                True,
            ),
            (
                [
                    {
                        "op": "replace",
                        "path": "/a2ui_operations/2/updateDataModel/value",
                        "value": nested(8),
                    }
                ],
                False,
            ),
            (
                [
                    {
                        "op": "add",
                        "path": "/a2ui_operations/2/updateDataModel/value/k" + "/0" * 7,
                        "value": 1,
                    }
                ],
                False,
            ),
        ],
    )
    def test_delta_at_the_limit(self, patch: list[dict[str, Any]], fits: bool) -> None:
        """A patch may nest content 5 levels past the limit (a component's place); no more."""
        text = {"id": "root", "component": "Text", "text": {"path": "/k"}}
        first = snapshot_line("x", v09_surface("x", [text], {"k": "v"}))
        outcome = run_between([first, delta("x", patch)], self.LIMITS)
        if fits:  # the patch applies; the data write it makes is then checked as any other
            assert outcome.codes <= {DEPTH, "convert.prop_invalid"}
            assert not any(d.path and d.path.startswith("$.patch") for d in outcome.diagnostics)
        else:
            [problem] = outcome.diagnostics
            assert (problem.code, problem.path) == (DEPTH, "$.patch[0]")

    def test_delta_copy_and_move_deeper(self) -> None:
        """``copy`` and ``move`` measure what they carry at its new place."""
        doc = {"a": nested(3), "b": {"c": {"d": {}}}}
        for op in ("copy", "move"):
            fits = apply_patch(doc, [{"op": op, "from": "/a", "path": "/b/c/x"}], max_depth=6)
            assert depth_of(fits) == 6
            with pytest.raises(PatchDepthError):
                apply_patch(doc, [{"op": op, "from": "/a", "path": "/b/c/d/x"}], max_depth=6)
            unbounded = apply_patch(doc, [{"op": op, "from": "/a", "path": "/b/c/d/x"}])
            assert depth_of(unbounded) == 7

    def test_repeated_deltas_cannot_deepen_content(self) -> None:
        """Each delta nests one level deeper; they stop at the bound, never past it."""
        text = {"id": "root", "component": "Text", "text": {"path": "/k"}}
        lines = [snapshot_line("x", v09_surface("x", [text], {"k": "v"}))]
        path = "/a2ui_operations/2/updateDataModel/value/n"
        for _ in range(40):
            lines.append(delta("x", [{"op": "add", "path": path, "value": []}]))
            path += "/0"
        processor = Processor(limits=self.LIMITS)
        processor.feed(b"".join(line + b"\n" for line in lines))
        processor.close()
        run = processor.state.current
        assert run is not None
        bucket = run.buckets["x"]
        assert depth_of(bucket.content) == content_depth(self.LIMITS)
        codes = [d.code for d in processor.take_diagnostics()]
        assert codes.count(DEPTH) >= 40 - content_depth(self.LIMITS)

    def test_lifecycle_content(self) -> None:
        """A status-only snapshot's content is bounded as a delta's content is."""

        def status(levels: int) -> bytes:
            return _encode(
                {
                    "type": "ACTIVITY_SNAPSHOT",
                    "messageId": "l",
                    "activityType": "a2ui-surface",
                    "content": {"status": "building", "progress": nested(levels)},
                }
            )

        assert self.run(status(content_depth(self.LIMITS) - 1)) == set()
        assert self.run(status(content_depth(self.LIMITS))) == {DEPTH}
        past_the_stack = status(0).replace(
            b'"progress":1', b'"progress":' + b"[" * 5000 + b"]" * 5000
        )
        assert run_between(past_the_stack).codes == {"json.too_deep"}
        near_the_stack = status(0).replace(
            b'"progress":1', b'"progress":' + b"[" * 900 + b"]" * 900
        )
        assert run_between(near_the_stack).codes == {DEPTH}

    def test_history(self) -> None:
        """MESSAGES_SNAPSHOT: deep activity content is refused, deep user text never read."""
        operations = [*v09_surface("h"), data_op("h", "/a", nested(80))]
        messages = [
            {"role": "user", "id": "u", "content": [{"type": "text", "deep": nested(900)}]},
            {"role": "assistant", "id": "a", "content": "hi"},
            {
                "role": "activity",
                "id": "act",
                "activityType": "a2ui-surface",
                "content": {"a2ui_operations": operations},
            },
        ]
        line = _encode({"type": "MESSAGES_SNAPSHOT", "messages": messages})
        outcome = run_between(line)
        assert outcome.codes == {DEPTH}

    def test_history_structs_nesting_past_the_stack(self) -> None:
        """Struct messages: an activity nesting past the interpreter's stack is skipped."""
        event = MessagesSnapshot(
            messages=[
                AssistantMessage(id="a", content="hi"),
                ActivityMessage(
                    id="d", activity_type="a2ui-surface", content={"x": nested(50_000)}
                ),
                ActivityMessage(
                    id="ok",
                    activity_type="a2ui-surface",
                    content={"a2ui_operations": v09_surface("h")},
                ),
            ]
        )
        state, _, diagnostics = Reducer().reduce(Processor().state, event)
        assert [d.code for d in diagnostics] == [DEPTH]
        assert [p.surface_id for entry in state.history for p in entry.parts] == ["h"]


class TestTextNesting:
    """formatString's expressions nest at most MAX_NESTING deep, whatever the text or data."""

    def paint(self, value: Any, data: Any = msgspec.UNSET) -> tuple[Any, set[str]]:
        text = {
            "id": "root",
            "component": "Text",
            "text": {"call": "formatString", "args": {"value": value}},
        }
        outcome = run_between(snapshot_line("f", v09_surface("f", [text], data)))
        return outcome.painted("f")["value"], outcome.codes

    def test_nesting_at_the_limit(self) -> None:
        """``${`` nested MAX_NESTING deep evaluates; one more fails with a warning."""
        fits = "${" * MAX_NESTING + "1" + "}" * MAX_NESTING
        assert self.paint(fits) == ("1", set())
        over = "${" * (MAX_NESTING + 1) + "1" + "}" * (MAX_NESTING + 1)
        assert self.paint(over) == ("", {"convert.function_failed"})

    def test_thousands_deep(self) -> None:
        """A text nesting thousands of expressions costs one warning, not the surface."""
        assert self.paint("${" * 5000 + "1" + "}" * 5000) == ("", {"convert.function_failed"})

    def test_data_that_names_itself(self) -> None:
        """A formatString whose data calls formatString on itself again stops at the bound."""
        value, codes = self.paint({"path": "/a"}, {"a": "${formatString(value: ${/a})}"})
        assert (value, codes) == ("", {"convert.function_failed"})


class TestStack:
    """The deepest input the limits let through needs a few hundred frames, not a thousand."""

    def test_everything_at_the_limit_under_a_deep_caller(self) -> None:
        """32 nested components, a context and data each at the limit, diffed: with the
        caller already 600 frames deep, nothing fails."""
        limit = Limits().max_data_depth
        comps: list[dict[str, Any]] = [
            {"id": "root" if i == 0 else f"c{i}", "component": "Column", "children": [f"c{i + 1}"]}
            for i in range(31)
        ]
        context = nested(limit - 5, {"path": "/deep"})
        comps.append(
            {
                "id": "c31",
                "component": "Button",
                "label": "b",
                "action": {"event": {"name": "n", "context": {"k": context}}},
            }
        )

        def data(leaf: int) -> dict[str, Any]:
            return {"deep": nested(limit - 1, leaf)}

        lines = [
            snapshot_line("m", v09_surface("s", comps, data(1))),
            snapshot_line("m", v09_surface("s", comps, data(2))),
            delta(
                "m",
                [
                    {
                        "op": "replace",
                        "path": "/a2ui_operations/2/updateDataModel/value/deep"
                        + "/0" * (limit - 1),
                        "value": 3,
                    }
                ],
            ),
        ]

        def run() -> list[Any]:
            diffs, diagnostics = feed(lines)
            assert diagnostics == []
            return [diff(d.previous_args, d.args) for d in diffs if d.op == "update"]

        def at(frames: int) -> list[Any]:
            return at(frames - 1) if frames else run()

        patches = at(600)
        assert [len(patch) for patch in patches] == [1, 1]
        assert patches[-1][0]["value"] == 3


class TestWalks:
    """The walks that follow a path or a value's nesting never use the stack for it."""

    def test_pointer_writes_through_long_paths(self) -> None:
        """set, get and delete through 100,000 segments work, sharing what they skip."""
        tokens = tuple(["a"] * 100_000)
        doc = set_value({"b": [1]}, tokens, 7)
        assert get(doc, tokens) == 7
        assert delete_value(doc, tokens) is not doc
        assert delete_value(doc, (*tokens, "missing")) is doc

    def test_patch_through_long_paths(self) -> None:
        """An RFC 6902 patch descends 100,000 levels and compares 100,000-deep values."""
        doc: Any = set_value({}, tuple(["a"] * 100_000), nested(100_000))
        path = "/a" * 100_000
        patched = apply_patch(doc, [{"op": "test", "path": path, "value": nested(100_000)}])
        assert patched is doc
        patched = apply_patch(doc, [{"op": "replace", "path": path, "value": 2}])
        assert get(patched, tuple(["a"] * 100_000)) == 2

    def test_string_of_a_surface_id_joins_nested_arrays_in_a_loop(self) -> None:
        """String() of a tool result's surfaceId: nested arrays as JavaScript joins them
        (checked with node), a hundred thousand levels deep without recursing."""
        cases_and_texts = [
            ([[1, 2], 3], "1,2,3"),
            ([[], 3], ",3"),
            ([None, 1], ",1"),
            ([[1, []], 2], "1,,2"),
            ([[], []], ","),
            (
                [1e21, 9007199254740993, True, "x", {"a": 1}],
                "1e+21,9007199254740992,true,x,[object Object]",
            ),
            (None, "null"),
        ]
        for value, text in cases_and_texts:
            assert js_string(value) == text
        assert js_string(nested(100_000, "a")) == "a"


def _explode_on(surface_id: str) -> Callable[..., Any]:
    """An apply_operation that raises for operations on ``surface_id``: a bug, simulated."""
    real = apply_operation

    def apply(surfaces: Any, operation: Any, **options: Any) -> Any:
        if getattr(operation, "surface_id", None) == surface_id:
            raise RecursionError("simulated")
        return real(surfaces, operation, **options)

    return apply


class TestContainment:
    """An exception inside the core on one event is one diagnostic; the rest goes on."""

    LINES = (
        _encode(cases.run_started("r")),
        snapshot_line("before", v09_surface("before")),
        snapshot_line("boom", v09_surface("boom")),
        snapshot_line("after", v09_surface("after")),
    )

    def test_reducer_contains_a_bug(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The failing event counts, changes nothing, and says what raised."""
        monkeypatch.setattr(f"{APPLYING}.apply_operation", _explode_on("boom"))
        diffs, diagnostics = feed(self.LINES)
        assert [d.surface_id for d in diffs] == ["before", "after"]
        [problem] = diagnostics
        assert (problem.code, problem.seq, problem.line) == ("core.internal_error", 2, 3)
        assert "RecursionError: simulated" in problem.message
        assert "ActivitySnapshot" in problem.message

    def test_state_is_the_one_before_the_event(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Folding the events around the bad one gives the same state, one event later."""
        monkeypatch.setattr(f"{APPLYING}.apply_operation", _explode_on("boom"))
        reducer = Reducer()
        events = [msgspec.json.decode(line) for line in self.LINES]
        decoded = [codec.event_from_mapping(event) for event in events]
        before = reducer.reduce_all(decoded[:2]).state  # type: ignore[arg-type]
        after_bad = reducer.reduce(before, decoded[2]).state  # type: ignore[arg-type]
        assert msgspec.structs.replace(after_bad, seq=before.seq) == before
        assert after_bad.seq == before.seq + 1

    def test_replay_and_resume_of_a_log_holding_it(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The event is logged like any other; replay and a resumed processor pass it too."""
        monkeypatch.setattr(f"{APPLYING}.apply_operation", _explode_on("boom"))
        log = MemoryLog()
        processor = Processor(log=log)
        live = processor.feed(b"".join(line + b"\n" for line in self.LINES)) + processor.close()
        assert len(log) == 4
        replayed = list(replay(log))
        assert [d for r in replayed for d in r.diffs] == live
        assert [d.code for r in replayed for d in r.diagnostics] == ["core.internal_error"]
        resumed = Processor(state=replayed[-1].state, log=log)
        more = resumed.feed(snapshot_line("later", v09_surface("later")) + b"\n")
        assert [d.seq for d in more] == [4]

    def test_decoder_contains_a_bug(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A line the decoder raises on is one diagnostic, with its line number."""
        real = codec._FAST  # the decoder under test

        class Exploding:
            def decode(self, data: bytes) -> Any:
                if b"boom" in data:
                    raise MemoryError("simulated")
                return real.decode(data)

        monkeypatch.setattr(codec, "_FAST", Exploding())
        diffs, diagnostics = feed(self.LINES)
        assert [d.surface_id for d in diffs] == ["before", "after"]
        [problem] = diagnostics
        assert (problem.code, problem.line) == ("core.internal_error", 3)
        assert "MemoryError: simulated" in problem.message

    def test_foreign_event_that_raises_when_dumped(self) -> None:
        """feed_events: an object whose model_dump raises costs that item, not the stream."""

        class Broken:
            def model_dump(self, **_options: Any) -> Any:
                raise ValueError("Circular reference detected")

        processor = Processor()
        run_started = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
        assert processor.feed_events([Broken(), run_started]) == []
        [problem] = processor.take_diagnostics()
        assert problem.code == "core.internal_error"
        assert "fed item Broken" in problem.message
        assert "ValueError: Circular reference detected" in problem.message
        run = processor.state.current
        assert run is not None
        assert run.run_id == "r"

    def test_cyclic_mapping_event(self) -> None:
        """feed_events: a mapping that holds itself is refused, not recursed into."""
        cyclic: dict[str, Any] = {"type": "CUSTOM", "name": "c"}
        cyclic["value"] = cyclic
        processor = Processor()
        processor.feed_events([cyclic])
        assert [d.code for d in processor.take_diagnostics()] == ["event.invalid"]

    def test_event_too_deep_to_log_is_dropped_from_both(self) -> None:
        """An event that decoded but cannot be encoded again is neither logged nor counted."""
        at_limit = None
        for levels in range(1000, 900, -1):
            line = b'{"type":"STATE_SNAPSHOT","snapshot":' + b"[" * levels + b"]" * levels + b"}"
            decoded = codec.decode_events(line + b"\n")
            if decoded and not isinstance(decoded[0], Diagnostic):
                at_limit = line
                break
        assert at_limit is not None

        def deep_caller(frames: int, run: Callable[[], Any]) -> Any:
            return deep_caller(frames - 1, run) if frames else run()

        log = MemoryLog()
        processor = Processor(log=log)
        decoded_items = processor._decoder.feed(at_limit + b"\n")  # decode here, apply deeper
        deep_caller(20, lambda: processor._consume(decoded_items))
        assert (len(log), processor.state.seq) in {(0, 0), (1, 1)}
        if len(log) == 0:
            assert [d.code for d in processor.take_diagnostics()] == ["json.too_deep"]


def console(*argv: str | Path) -> subprocess.CompletedProcess[bytes]:
    """Run the installed console script, capturing its output."""
    return subprocess.run(  # noqa: S603 - our own console script
        [CONSOLE_SCRIPT, *argv], capture_output=True, check=False
    )


class TestCommandLine:
    """A bad line between two recordings: every diff of both printed, no traceback."""

    @pytest.fixture
    def streams(self, tmp_path: Path) -> tuple[Path, bytes]:
        bad = snapshot_line("x", [*v09_surface("x"), data_op("x", "/a" * 600, 1)])
        # What the bad line must amount to: itself without the write it cannot make.
        harmless = snapshot_line("x", v09_surface("x"))
        path = tmp_path / "in.jsonl"
        path.write_bytes(cases.RECORDING + bad + b"\n" + cases.RECORDING)
        reference = Processor()
        expected = reference.feed(cases.RECORDING + harmless + b"\n" + cases.RECORDING)
        expected += reference.close()
        lines = b"".join(
            _encode(
                {
                    "seq": d.seq,
                    "runId": d.run_id,
                    "messageId": d.message_id,
                    "surfaceId": d.surface_id,
                    "op": d.op,
                    "toolCallId": d.tool_call_id,
                    "toolName": d.tool_name,
                    **({} if d.op == "remove" else {"args": d.args}),
                }
            )
            + b"\n"
            for d in expected
        )
        return path, lines

    def test_process_replay_and_inspect(self, streams: tuple[Path, bytes], tmp_path: Path) -> None:
        """The real console script: process with a log, then replay and inspect that log."""
        path, expected = streams
        log = tmp_path / "run.log.jsonl"
        process = console("process", "--log", log, path)
        assert process.returncode == 1  # limit.data_depth is an ERROR: input was dropped
        assert b"Traceback" not in process.stderr
        assert b"limit.data_depth" in process.stderr
        assert process.stdout == expected
        assert len(expected.splitlines()) == 15
        replayed = console("replay", log)
        assert (replayed.returncode, replayed.stdout) == (1, expected)
        assert b"Traceback" not in replayed.stderr
        inspected = console("inspect", log)
        assert inspected.returncode == 1
        assert b"limit.data_depth" in inspected.stdout
        assert b"Traceback" not in inspected.stderr
        strict = console("process", "--strict", path)
        assert strict.returncode == 1
        assert b"Traceback" not in strict.stderr

    def test_log_holding_an_event_the_core_raised_on(
        self,
        monkeypatch: pytest.MonkeyPatch,
        capsysbinary: pytest.CaptureFixture[bytes],
        tmp_path: Path,
    ) -> None:
        """In-process with a simulated bug: process, resume, replay and inspect all finish."""
        monkeypatch.setattr(f"{APPLYING}.apply_operation", _explode_on("boom"))
        source = tmp_path / "in.jsonl"
        source.write_bytes(b"".join(line + b"\n" for line in TestContainment.LINES))
        log = tmp_path / "run.log.jsonl"
        # core.internal_error is an ERROR: exit 1, where the new input had one
        assert main(["process", "--log", str(log), str(source)]) == 1
        first, err = capsysbinary.readouterr()
        assert b"core.internal_error" in err
        more = tmp_path / "more.jsonl"
        more.write_bytes(snapshot_line("later", v09_surface("later")) + b"\n")
        assert main(["process", "--log", str(log), str(more)]) == 0
        second, _ = capsysbinary.readouterr()
        assert [json.loads(line)["seq"] for line in second.splitlines()] == [4]
        assert main(["replay", str(log)]) == 1
        replayed, _ = capsysbinary.readouterr()
        assert replayed == first + second
        assert main(["inspect", str(log)]) == 1
        summary, _ = capsysbinary.readouterr()
        assert b"core.internal_error" in summary
