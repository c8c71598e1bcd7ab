"""What a caller receives cannot reach back into the state (issue 12, ``mutation.py``).

A hostile caller tries to change everything it is given: every dict and list of every
diff's args and previous args, every patch and the values in it, the parts, lifecycles
and history of ``Processor.state``, the diagnostics, and what ``testing.process``
returns. Each attempt on a shared value must be refused, and the output that follows
and the final state must be byte-identical to those of a caller that touched nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
from carrier_cases import generate_case

from a2ui_stream import Processor
from a2ui_stream._wire.frozen import FrozenDict
from a2ui_stream.testing import (
    activity_snapshot,
    create_surface,
    jsonl,
    lifecycle,
    process,
    update_components,
    update_data_model,
)

RECORDING = Path(__file__).resolve().parents[1] / "examples" / "recording.jsonl"
_ENCODE = msgspec.json.Encoder().encode


def _history_stream() -> bytes:
    """A lifecycle, a delta to it, and a MESSAGES_SNAPSHOT whose history rehydrates."""
    ops = [
        create_surface("h"),
        update_components("h", {"id": "root", "component": "Text", "text": "restored"}),
    ]
    return jsonl(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            lifecycle("m1", "building", progressTokens=[1, 2]),
            {
                "type": "ACTIVITY_DELTA",
                "messageId": "m1",
                "activityType": "a2ui-surface",
                "patch": [{"op": "add", "path": "/progressTokens/-", "value": 3}],
            },
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [
                    {"id": "a1", "role": "assistant", "content": "hi"},
                    {
                        "id": "act1",
                        "role": "activity",
                        "activityType": "a2ui-surface",
                        "content": {"a2ui_operations": ops},
                    },
                ],
            },
            activity_snapshot("m1", ops),
        ]
    )


class Vandal:
    """Tries every way to change what it is handed; counts what was refused."""

    def __init__(self) -> None:
        self.refused = 0
        self.changed = 0

    def attack(self, value: Any) -> None:
        """Walk ``value`` and try to change every dict and list in it."""
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                stack.extend(node.values())
                self._try(node, [
                    lambda d: d.__setitem__("$type", "HACKED"),
                    lambda d: d.update({"x": 1}),
                    lambda d: d.setdefault("y", 1),
                    lambda d: d.pop(next(iter(d))) if d else d.clear(),
                    lambda d: d.__delitem__(next(iter(d))) if d else d.clear(),
                    lambda d: d.__ior__({"z": 1}),
                    lambda d: d.popitem() if d else d.clear(),
                    lambda d: d.clear(),
                ])  # fmt: skip
            elif isinstance(node, list):
                stack.extend(node)
                self._try(node, [
                    lambda items: items.append("HACKED"),
                    lambda items: items.extend([1]),
                    lambda items: items.insert(0, 1),
                    lambda items: items.__setitem__(0, 1) if items else items.clear(),
                    lambda items: items.__delitem__(0) if items else items.clear(),
                    lambda items: items.__iadd__([1]),
                    lambda items: items.__imul__(2),
                    lambda items: items.pop() if items else items.clear(),
                    lambda items: items.remove(items[0]) if items else items.clear(),
                    lambda items: items.sort(key=str),
                    lambda items: items.reverse(),
                    lambda items: items.clear(),
                ])  # fmt: skip

    def _try(self, node: Any, attempts: list[Any]) -> None:
        for attempt in attempts:
            try:
                attempt(node)
            except TypeError:
                self.refused += 1
            else:
                self.changed += 1

    def attack_struct(self, value: Any) -> None:
        """Try to set every field of a Struct (a diagnostic, a part, a state)."""
        for field in value.__struct_fields__:
            try:
                setattr(value, field, None)
            except AttributeError:
                self.refused += 1
            else:
                self.changed += 1


def _run(data: bytes, vandal: Vandal | None) -> tuple[list[bytes], bytes]:
    processor = Processor()
    out: list[bytes] = []
    for line in data.splitlines(keepends=True):
        for diff in processor.feed(line):
            patch = diff.patch()
            out.append(_ENCODE(msgspec.to_builtins(diff)) + _ENCODE(patch))
            if vandal is not None:
                vandal.attack_struct(diff)
                vandal.attack(diff.args)
                vandal.attack(diff.previous_args)
                for operation in patch:  # the operations are the caller's own; values not
                    vandal.attack(operation.get("value"))
                    operation["op"] = "HACKED"
                patch.append({"op": "HACKED"})
        for diagnostic in processor.take_diagnostics():
            out.append(_ENCODE(diagnostic))
            if vandal is not None:
                vandal.attack_struct(diagnostic)
        if vandal is not None:
            _attack_state(vandal, processor)
    processor.close()
    return out, _ENCODE(_state_view(processor))


def _attack_state(vandal: Vandal, processor: Processor) -> None:
    state = processor.state
    vandal.attack_struct(state)
    for run in state.runs:
        vandal.attack_struct(run)
        for part in run.parts.values():
            vandal.attack_struct(part)
            vandal.attack(part.args)
        for status in run.lifecycles.values():
            vandal.attack(status.content)
        for mapping in (run.parts, run.lifecycles, run.buckets):
            vandal.refused += _refuses(lambda m=mapping: m.__setitem__("k", None))
    for entry in state.history:
        vandal.attack_struct(entry)
        for part in entry.parts:
            vandal.attack(part.args)


def _refuses(attempt: Any) -> int:
    try:
        attempt()
    except (TypeError, AttributeError):
        return 1
    return 0


def _state_view(processor: Processor) -> Any:
    state = processor.state
    return {
        "runs": [
            {
                "parts": [msgspec.to_builtins(part) for part in run.parts.values()],
                "lifecycles": {k: msgspec.to_builtins(v) for k, v in run.lifecycles.items()},
            }
            for run in state.runs
        ],
        "history": [msgspec.to_builtins(entry) for entry in state.history],
    }


@pytest.mark.parametrize(
    "data",
    [RECORDING.read_bytes(), _history_stream()],
    ids=["recording", "history-and-lifecycle"],
)
def test_a_vandal_changes_nothing(data: bytes) -> None:
    """Every change to a received value is refused; output and state stay the same."""
    clean, clean_state = _run(data, None)
    vandal = Vandal()
    dirty, dirty_state = _run(data, vandal)
    assert vandal.changed == 0
    assert vandal.refused > 100
    assert dirty == clean
    assert dirty_state == clean_state


def test_history_lifecycles_and_parts_are_reached() -> None:
    """The second stream does give the vandal history entries and lifecycle content."""
    processor = Processor()
    processor.feed(_history_stream())
    processor.close()
    state = processor.state
    assert state.history
    assert state.history[0].parts
    run = state.current
    assert run is not None
    assert run.lifecycles["m1"].content["progressTokens"] == [1, 2, 3]
    assert isinstance(run.lifecycles["m1"].content, FrozenDict)


def test_testing_process_returns_frozen_values() -> None:
    """What testing.process returns refuses changes too."""
    capture = process(RECORDING.read_bytes(), chunk_size=100)
    vandal = Vandal()
    for diff in capture.diffs:
        vandal.attack(diff.args)
    run = capture.state.current
    assert run is not None
    for part in run.parts.values():
        vandal.attack(part.args)
    assert vandal.changed == 0
    assert vandal.refused > 0


def test_two_processors_share_nothing_mutable() -> None:
    """Args of two processors never alias, so neither could reach the other's state."""
    data = RECORDING.read_bytes()
    first, second = Processor().feed(data), Processor().feed(data)
    assert all(a.args is not b.args for a, b in zip(first, second, strict=True) if a.args)


_ATOMS = (str, bytes, int, float, bool, type(None), type)


def _reachable(root: Any) -> Iterator[tuple[str, Any]]:
    """Every object reachable from ``root`` through fields, items and slots, with a path."""
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [("state", root)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _ATOMS) or callable(node) or id(node) in seen:
            continue
        if type(node).__name__ == "_Tape":
            continue  # a call's append-only text: what a state sees of it never changes
        seen.add(id(node))
        yield path, node
        if isinstance(node, msgspec.Struct):
            children: Iterable[tuple[Any, Any]] = (
                (field, getattr(node, field)) for field in node.__struct_fields__
            )
        elif isinstance(node, Mapping):
            children = [*((f"<key {k!r}>", k) for k in node), *node.items()]
        elif isinstance(node, (list, tuple, frozenset, set)):
            children = enumerate(node)
        else:
            slots = [name for cls in type(node).__mro__ for name in getattr(cls, "__slots__", ())]
            children = [(name, getattr(node, name, None)) for name in slots]
            children += list(getattr(node, "__dict__", {}).items())
        stack.extend((f"{path}.{key}", child) for key, child in children)


def _plain_containers(processor: Processor) -> list[str]:
    return [
        f"{path}: {type(node).__name__}"
        for path, node in _reachable(processor.state)
        if type(node) in (dict, list, set, bytearray)
    ]


def _delta_stream() -> bytes:
    """Data written by path, whole, merged and patched; components patched and grown."""
    ops = [
        create_surface("d"),
        update_components(
            "d",
            {"id": "root", "component": "Column", "children": ["t"]},
            {"id": "t", "component": "Text", "text": {"path": "/rows/0/name"}},
        ),
        update_data_model("d", {"rows": [{"name": "a", "tags": ["x"]}], "meta": {"n": 1}}),
        update_data_model("d", {"name": "b", "deep": [[{"k": [1]}]]}, path="/rows/1"),
        update_data_model("d", ["y", {"z": []}], path="/rows/0/tags"),
    ]
    patch = [
        {"op": "add", "path": "/a2ui_operations/-", "value": update_data_model("d", {"q": [1]})},
        {"op": "replace", "path": "/a2ui_operations/2/updateDataModel/value/meta", "value": {}},
        {"op": "copy", "from": "/a2ui_operations/2", "path": "/a2ui_operations/-"},
    ]
    return jsonl(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            activity_snapshot("m1", ops),
            {
                "type": "ACTIVITY_DELTA",
                "messageId": "m1",
                "activityType": "a2ui-surface",
                "patch": patch,
            },
            lifecycle("m2", "building", extra={"nested": [{"a": [1]}]}),
        ]
    )


def _carrier_streams() -> list[bytes]:
    return [
        jsonl([event for run in generate_case(seed)["runs"] for event in run["events"]])
        for seed in range(12)
    ]


@pytest.mark.parametrize(
    "data",
    [RECORDING.read_bytes(), _history_stream(), _delta_stream()],
    ids=["recording", "history-and-lifecycle", "deltas-and-data"],
)
def test_no_plain_container_is_reachable_from_any_state(data: bytes) -> None:
    """After every line, nothing reachable from the state is a dict or list that can change."""
    processor = Processor()
    for line in data.splitlines(keepends=True):
        processor.feed(line)
        assert _plain_containers(processor) == []
    processor.close()
    assert _plain_containers(processor) == []


def test_no_plain_container_is_reachable_after_tool_carriers() -> None:
    """Streamed render calls and tool results leave nothing changeable in the state either."""
    for data in _carrier_streams():
        processor = Processor()
        for line in data.splitlines(keepends=True):
            processor.feed(line)
            assert _plain_containers(processor) == []
        processor.close()
