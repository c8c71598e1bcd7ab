"""Tests for gaps: list slots a write skipped, read and printed as JavaScript's holes.

The differential test feeds seeded hole-making writes, and components reading the holes
every way upstream's converter reads data, to the published client
(``@assistant-ui/react-generative-ui`` 0.0.16 via ``tests/node/a2ui_surfaces.mjs``) and
to ours, and compares the args byte for byte and the data models as printed.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import msgspec
import pytest
from installed_peers import run_node
from upstream_client import UpstreamClient, ours

from a2ui_stream import Limits, Processor
from a2ui_stream._convert.converter import Converter
from a2ui_stream._state.surface import Surface, apply_operations
from a2ui_stream._tree.gaps import GAP, closed, count
from a2ui_stream._tree.share import share
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.frozen import FrozenDict, FrozenList, freeze
from a2ui_stream._wire.numbers import encode_json
from a2ui_stream.a2ui import normalize_message

V09 = "v0.9"


def _create() -> dict[str, Any]:
    return {"version": V09, "createSurface": {"surfaceId": "s", "catalogId": "c"}}


def _write(path: str, value: Any) -> dict[str, Any]:
    return {"version": V09, "updateDataModel": {"surfaceId": "s", "path": path, "value": value}}


def _components(*components: dict[str, Any]) -> dict[str, Any]:
    return {"version": V09, "updateComponents": {"surfaceId": "s", "components": list(components)}}


def _events(operations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    content = {"a2ui_operations": operations}
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "ACTIVITY_SNAPSHOT", "messageId": "m", "activityType": "a2ui-surface"}
        | {"content": content},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]


def _ops(operations: list[dict[str, Any]]) -> list[Any]:
    return [normalize_message(op, index=at) for at, op in enumerate(operations)]


def _surface(operations: list[dict[str, Any]]) -> Surface:
    surfaces, _problems = apply_operations({}, _ops(operations), limits=Limits())
    return surfaces["s"]


def _args(operations: list[dict[str, Any]]) -> dict[str, Any]:
    (run,) = ours(_events(operations)).runs
    (part,) = run.parts
    parsed: dict[str, Any] = json.loads(part.args_text)
    return parsed


def _button(cid: str, context: dict[str, Any]) -> dict[str, Any]:
    action = {"name": "go", "context": context}
    return {"id": cid, "component": "Button", "label": cid, "action": action}


# -- the value ---------------------------------------------------------------------------


class TestGap:
    def test_prints_as_null(self) -> None:
        """Every encoder prints a gap as JSON.stringify prints a hole: ``null``."""
        assert msgspec.json.encode([1, GAP, {"a": [GAP]}]) == b'[1,null,{"a":[null]}]'
        assert encode_json([1.0, GAP]) == b"[1,null]"
        assert msgspec.to_builtins([GAP]) == [None]

    def test_is_not_null(self) -> None:
        """A gap is no ``None``: a diff or a shared subtree tells the two apart."""
        assert GAP is not None
        assert [GAP] != [None]
        assert not GAP
        assert repr(GAP) == "GAP"

    def test_copies_and_pickles_as_itself(self) -> None:
        """Identity survives copies and pickles, so ``is GAP`` still finds it."""
        assert copy.deepcopy([GAP])[0] is GAP
        assert pickle.loads(pickle.dumps([GAP]))[0] is GAP  # noqa: S301 - our own bytes

    def test_freezing_keeps_it(self) -> None:
        """Freezing a list keeps its gaps as they are."""
        frozen = freeze({"l": [1, GAP]})
        assert type(frozen["l"]) is FrozenList
        assert frozen["l"][1] is GAP

    def test_sharing_tells_gap_from_null(self) -> None:
        """A model re-sent with null where a gap was shares nothing of that list."""
        old = {"l": [GAP, 1], "o": {"a": 1}}
        new = {"l": [None, 1], "o": {"a": 1}}
        shared = share(old, new)
        assert shared["l"] is new["l"]
        assert shared["o"] is old["o"]
        again = {"l": [GAP, 1], "o": {"a": 1}}
        assert share(old, again) is old


class TestClosed:
    def test_drops_gaps_at_every_level(self) -> None:
        """Gaps leave lists at any depth, the lists closing up."""
        value = {"a": [1, GAP, [GAP, 2]], "b": {"c": [GAP]}}
        assert closed(value) == {"a": [1, [2]], "b": {"c": []}}

    def test_keeps_what_holds_no_gap(self) -> None:
        """A value without gaps comes back as the very object, and so do such parts."""
        inner = FrozenList([1, 2])
        value = FrozenDict({"x": inner, "y": FrozenList([GAP])})
        out = closed(value)
        assert type(out) is FrozenDict
        assert out["x"] is inner
        assert type(out["y"]) is FrozenList
        plain = {"a": [None, 1]}
        assert closed(plain) is plain


# -- the state ---------------------------------------------------------------------------


class TestSurfaceGaps:
    def test_write_past_end_opens_gaps(self) -> None:
        """A write past the end leaves gaps and marks the surface."""
        surface = _surface([_create(), _write("/l/2", "c")])
        assert surface.data_model == {"l": [GAP, GAP, "c"]}
        assert surface.gaps == 2

    def test_no_gap_no_mark(self) -> None:
        """Appends and writes within the list leave the surface unmarked."""
        surface = _surface([_create(), _write("/l/0", "a"), _write("/l/-", "b"), _write("/l/1", 1)])
        assert surface.data_model == {"l": ["a", 1]}
        assert not surface.gaps

    def test_count_follows_the_writes(self) -> None:
        """Filling a gap, writing through one, or replacing what held some counts them off."""
        ops = [_create(), _write("/l/3", "d")]
        assert _surface(ops).gaps == 3
        assert _surface([*ops, _write("/l/0", None)]).gaps == 2
        assert _surface([*ops, _write("/l/1/k", 1)]).gaps == 2
        assert _surface([*ops, _write("/l", [])]).gaps == 0
        assert _surface([*ops, _write("/", {"l": [1]})]).gaps == 0
        filled = [*ops, _write("/l/0", 0), _write("/l/1", 1), _write("/l/2", 2)]
        assert _surface(filled).gaps == 0

    @pytest.mark.parametrize("seed", range(40))
    def test_count_is_exact(self, seed: int) -> None:
        """Over random writes and deletes, the count is what the model holds."""
        rng = random.Random(seed)
        surfaces, _ = apply_operations({}, _ops([_create()]), limits=Limits())
        for _ in range(25):
            path = "/" + "/".join(
                rng.choice(["l", "m", "0", "1", "2", "3", "5", "k", "-"])
                for _ in range(rng.randint(0, 3))
            )
            path = "" if path == "/" else path
            payload: dict[str, Any] = {"surfaceId": "s", "path": path}
            if rng.random() < 0.8:
                payload["value"] = rng.choice([1, None, [], [1, 2], {"k": [3]}])
            op = {"version": V09, "updateDataModel": payload}
            surfaces, _ = apply_operations(surfaces, _ops([op]), limits=Limits())
            surface = surfaces["s"]
            assert surface.gaps == count(surface.data_model), (path, surface.data_model)

    def test_v08_write_opens_gaps(self) -> None:
        """A v0.8 ``dataModelUpdate`` into a list index past the end leaves gaps too."""
        ops: list[dict[str, Any]] = [
            {"beginRendering": {"surfaceId": "s", "root": "root"}},
            {
                "dataModelUpdate": {
                    "surfaceId": "s",
                    "path": "/l/2",
                    "contents": [{"key": "k", "valueString": "x"}],
                }
            },
        ]
        surface = _surface(ops)
        assert surface.data_model == {"l": [GAP, GAP, {"k": "x"}]}
        assert surface.gaps

    def test_size_counts_gaps(self) -> None:
        """Each gap counts as the ``null,`` it prints, so gaps cannot dodge the size limit."""
        surface = _surface([_create(), _write("/l/500", 1)])
        printed = len(msgspec.json.encode(surface.data_model))
        assert abs(surface.data_bytes - printed) <= 8
        tight = Limits(max_data_model_bytes=1000)
        ops = _ops([_create(), _write("/l/500", 1)])
        surfaces, problems = apply_operations({}, ops, limits=tight)
        assert surfaces["s"].data_model is msgspec.UNSET
        assert [p.code for p in problems] == [Code.LIMIT_DATA_MODEL_BYTES]


# -- reading ---------------------------------------------------------------------------


class TestReads:
    def test_binding_to_a_gap_is_absent(self) -> None:
        """A context key bound to a gap is left out; one bound to null stays null."""
        ops = [
            _create(),
            _write("/l/2", "c"),
            _write("/l/1", None),
            _components(_button("root", {"gap": {"path": "/l/0"}, "null": {"path": "/l/1"}})),
        ]
        assert _args(ops)["$action"]["context"] == {"null": None}

    def test_text_falls_back_past_a_gap(self) -> None:
        """A gap is not defined, so Text's ``value`` is used, as upstream's first-defined."""
        text = {"id": "root", "component": "Text", "text": {"path": "/l/0"}, "value": "fb"}
        assert _args([_create(), _write("/l/1", 1), _components(text)])["value"] == "fb"

    def test_template_keeps_the_length(self) -> None:
        """A template has an item per slot, a gap's item reading nothing."""
        root = {
            "id": "root",
            "component": "Column",
            "children": {"template": {"componentId": "b", "path": "/l"}},
        }
        ops = [
            _create(),
            _write("/l/2", "c"),
            _components(root, _button("b", {"v": {"path": "/"}})),
        ]
        items = _args(ops)["children"]
        assert [item["children"]["$action"]["context"] for item in items] == [{}, {}, {"v": "c"}]

    def test_format_string_prints_as_javascript(self) -> None:
        """``${/l}`` prints JSON.stringify's text; ``${/l/0}`` reads absent, as ``""``."""
        call = {"call": "formatString", "args": {"value": "${/l}|${/l/0}|"}}
        text = {"id": "root", "component": "Text", "text": call}
        assert (
            _args([_create(), _write("/l/2", 3), _components(text)])["value"] == "[null,null,3]||"
        )

    def test_deleted_element_is_absent(self) -> None:
        """A v0.9 delete of an array element leaves a gap: bound to it, nothing."""
        delete = {"version": V09, "updateDataModel": {"surfaceId": "s", "path": "/l/0"}}
        ops = [
            _create(),
            _write("/l", [1, 2]),
            delete,
            _components(_button("root", {"a": {"path": "/l/0"}, "l": {"path": "/l"}})),
        ]
        assert _args(ops)["$action"]["context"] == {"l": [2]}


class TestConversionsBuiltOn:
    def test_each_step_converts_as_afresh(self) -> None:
        """Converting a gapped model on from earlier conversions gives a fresh conversion.

        The converter builds on the previous conversion (plans, reread, patches); with
        a gap around, or just gone, it must give what a fresh converter gives.
        """
        root = {
            "id": "root",
            "component": "Column",
            "children": {"template": {"componentId": "b", "path": "/l"}},
        }
        steps = [
            _write("/l", ["a", "b"]),
            _write("/l/4", "e"),
            _write("/l/2", None),
            _write("/l/3", "d"),
            _write("/", {"l": ["x"]}),
            _write("/l/0", "y"),
            _write("/l/3", "z"),
        ]
        converter = Converter()
        ops = _ops([_create(), _components(root, _button("b", {"v": {"path": "/"}}))])
        surfaces, _ = apply_operations({}, ops, limits=Limits())
        previous = None
        for _round in range(2):  # the second round meets a compiled plan
            for step in steps:
                surfaces, _ = apply_operations(surfaces, _ops([step]), limits=Limits())
                surface = surfaces["s"]
                previous = converter.convert(surface, previous)
                assert previous.element == Converter().convert(surface).element
                assert GAP not in json.loads(msgspec.json.encode(previous.element)).values()


# -- against the published client -------------------------------------------------------

#: Generated streams per run; each holds a few hole-making writes and their readers.
_CASES = 60


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(["a", "b", ""])
    if roll < 0.45:
        return rng.randint(0, 9)
    if roll < 0.6:
        return None
    if roll < 0.8 or depth:
        return {"k": rng.choice(["x", "y"])}
    # A list of its own, with holes written into it later by index.
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 2))]


def _hole_writes(rng: random.Random) -> list[dict[str, Any]]:
    """Writes that leave holes in ``/l`` and ``/o/m`` and fill some of them.

    No write goes through a missing or null list element to an index (``/l/3/0``):
    upstream builds an object there and ours a list, as the spec says (README).
    """
    writes = [_write("/l", [_value(rng) for _ in range(rng.randint(0, 2))])]
    writes.append(_write("/o", {"m": [1]}))
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        index = rng.randint(0, 7)
        if roll < 0.45:
            writes.append(_write(f"/l/{index}", _value(rng)))
        elif roll < 0.6:
            writes.append(_write("/l/-", _value(rng)))
        elif roll < 0.75:
            writes.append(_write(f"/l/{index}/k", rng.choice(["p", "q"])))
        elif roll < 0.9:
            writes.append(_write(f"/o/m/{index}", _value(rng, 1)))
        else:
            slot = rng.randint(0, 2)  # a list of its own, holes written into it
            writes.append(_write(f"/l/{slot}", [1, None]))
            writes.append(_write(f"/l/{slot}/{rng.randint(2, 4)}", 5))
    return writes


def _readers(surface: Surface) -> list[dict[str, Any]]:
    """Components reading ``/l`` every way upstream reads data.

    Bound context keys, the lists whole, a template over ``/l``, and Text where
    upstream's output is valid.
    """
    model = surface.data_model
    slots = model.get("l") if isinstance(model, dict) else None
    size = len(slots) if isinstance(slots, list) else 0
    context: dict[str, Any] = {f"i{i}": {"path": f"/l/{i}"} for i in range(size + 1)}
    context |= {"list": {"path": "/l"}, "o": {"path": "/o"}, "lit": [{"path": "/l/0"}, 1]}
    context |= {"deep": {"path": "/l/0/k"}}
    kids = ["act", "tpl"]
    components = [
        _button("act", context),
        {
            "id": "tpl",
            "component": "Column",
            "children": {"template": {"componentId": "it", "path": "/l"}},
        },
        _button("it", {"it": {"path": "/"}, "k": {"path": "/k"}}),
    ]
    for i in range(size + 1):
        # Upstream's Markdown is valid only with a string value: a hole, a missing slot
        # (both fall back to ``value``) or a string.
        slot = slots[i] if i < size else GAP  # type: ignore[index]
        if slot is GAP or type(slot) is str:
            text = {"id": f"t{i}", "component": "Text", "text": {"path": f"/l/{i}"}, "value": "fb"}
            components.append(text)
            kids.append(f"t{i}")
    return [{"id": "root", "component": "Column", "children": kids}, *components]


def _generated(seed: int) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    streams = []
    for _ in range(_CASES):
        operations = [_create(), *_hole_writes(rng)]
        components = _readers(_surface(operations))
        streams.append([*operations, _components(*components)])
    return streams


@pytest.fixture(scope="module")
def upstream() -> UpstreamClient:
    return UpstreamClient.install()


def test_holes_as_upstream(upstream: UpstreamClient) -> None:
    """Hole-making writes read and print as the published client reads and prints them."""
    streams = _generated(seed=20261201)
    data = "".join(json.dumps(stream) + "\n" for stream in streams).encode()
    theirs = [
        json.loads(line)
        for line in run_node(upstream.folder, "a2ui_surfaces.mjs", data=data).splitlines()
    ]
    assert len(theirs) == len(streams)
    gapped = 0
    for stream, their in zip(streams, theirs, strict=True):
        (run,) = ours(_events(stream)).runs
        (part,) = run.parts
        assert part.args_text == their["surfaces"]["s"], json.dumps(stream)
        surface = _surface(stream)
        assert encode_json(surface.data_model).decode() == their["models"]["s"], json.dumps(stream)
        gapped += surface.gaps
    assert gapped > _CASES // 2  # the generator makes holes in most streams


def test_processor_prints_model_and_args_without_gaps() -> None:
    """What a caller gets holds no gap; the state's model prints as JSON.stringify does."""
    processor = Processor()
    for stream in _generated(seed=7)[:10]:
        processor.feed_events(_events(stream))
    processor.close()
    for run in processor.state.runs:
        for part in run.parts.values():
            assert "GAP" not in repr(part.args)
            assert msgspec.json.encode(part.args) == msgspec.json.encode(
                msgspec.to_builtins(part.args)
            )


def test_write_through_a_missing_element_differs(upstream: UpstreamClient) -> None:
    """The README row: upstream makes ``{"0": ...}`` where the spec (and ours) make a list."""
    context = {"v": {"path": "/l/3"}, "w": {"path": "/l/4"}}
    ops = [
        _create(),
        _write("/l", [1]),
        _write("/l/3/0", "x"),
        _write("/l/4", None),
        _write("/l/4/0", "y"),
        _components(_button("root", context)),
    ]
    data = (json.dumps(ops) + "\n").encode()
    (line,) = run_node(upstream.folder, "a2ui_surfaces.mjs", data=data).splitlines()
    theirs = json.loads(json.loads(line)["surfaces"]["s"])
    assert theirs["$action"]["context"] == {"v": {"0": "x"}, "w": {"0": "y"}}
    assert _args(ops)["$action"]["context"] == {"v": ["x"], "w": ["y"]}
