"""Tests for JavaScript's key order in data placed in output (``_tree/order.py``).

Upstream's client holds the agent's objects as JavaScript objects, which list integer-like
keys first in ascending order, and prints the tree with ``JSON.stringify``: an action's
context or a formatString of an object reads in that order. The corpus is compared with
node's own ``JSON.parse`` then ``JSON.stringify``; without node that test skips.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from typing import Any

import msgspec
import pytest
from convert_cases import by_plan, js, root, surface

from a2ui_stream._convert.converter import Converter
from a2ui_stream._tree.order import is_array_index, js_items, js_ordered
from a2ui_stream._wire.frozen import FrozenDict, freeze

NODE = shutil.which("node")
_KEYS = ("0", "1", "2", "9", "10", "01", "00", "-1", "1.5", "1e3", " 1", "²", "a", "b", "", "z9")
_BOUNDARY = ("4294967294", "4294967295", "4294967296", "12345678901234567890")


def _button(context: Any) -> list[dict[str, Any]]:
    """A Column holding a Button whose action carries ``context``: one a plan can hold."""
    button = {"id": "b", "component": "Button", "label": "go"}
    return [
        root("Column", children=["b"]),
        {**button, "action": {"name": "go", "context": context}},
    ]


def _context(element: Any) -> str:
    return js(element["children"][0]["$action"]["context"])


class TestOrder:
    def test_array_index_keys(self) -> None:
        """Canonical decimal integers below 2**32 - 1 are indexes; nothing else is."""
        assert [is_array_index(k) for k in ("0", "7", "10", "4294967294")] == [True] * 4
        refused = ("", "00", "01", "-1", "1.5", "1e3", " 1", "²", "٣", "4294967295", "9" * 30)
        assert not any(is_array_index(k) for k in refused)

    def test_indexes_first_ascending_then_insertion_order(self) -> None:
        value = freeze({"b": 1, "2": 2, "a": 3, "1": 4, "01": 5, "10": 6})
        assert list(js_ordered(value)) == ["1", "2", "10", "b", "a", "01"]
        assert [key for key, _ in js_items(value)] == ["1", "2", "10", "b", "a", "01"]

    def test_nested_objects_and_lists(self) -> None:
        value = freeze({"x": {"z": 1, "10": 2, "9": 3}, "l": [{"c": 1, "3": 2}, 4]})
        assert json.dumps(js_ordered(value)) == (
            '{"x": {"9": 3, "10": 2, "z": 1}, "l": [{"3": 2, "c": 1}, 4]}'
        )

    def test_in_order_already_is_itself(self) -> None:
        """Nearly every value: no copy, the very object (and every subtree) given back."""
        value = freeze({"a": {"b": [1, {"c": 2}]}, "1x": 3, "d": {"0": 1, "1": 2, "e": 3}})
        assert js_ordered(value) is value
        moved = freeze({"keep": value["a"], "b": 1, "0": 2})
        result = js_ordered(moved)
        assert list(result) == ["0", "keep", "b"]
        assert result["keep"] is value["a"]
        assert type(result) is FrozenDict

    @pytest.mark.skipif(NODE is None, reason="node is not installed: no JavaScript to compare")
    def test_as_node_orders_them(self) -> None:
        """A seeded corpus of objects, printed as node's JSON.parse then JSON.stringify does."""
        rng = random.Random(12)
        keys = (*_KEYS, *_BOUNDARY)
        corpus = []
        for _ in range(400):
            picked = rng.sample(keys, rng.randint(0, 8))
            inner = {key: rng.randint(0, 9) for key in rng.sample(keys, 3)}
            corpus.append(
                {key: inner if rng.random() < 0.2 else index for index, key in enumerate(picked)}
            )
        texts = [json.dumps(value, separators=(",", ":")) for value in corpus]
        script = (
            "const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);"
            "for (const l of lines) console.log(JSON.stringify(JSON.parse(l)));"
        )
        assert NODE is not None
        done = subprocess.run(  # noqa: S603 - node running our own one-liner
            [NODE, "-e", script], input="\n".join(texts), capture_output=True, text=True, check=True
        )
        ours = [
            msgspec.json.encode(js_ordered(freeze(json.loads(text)))).decode() for text in texts
        ]
        assert ours == done.stdout.splitlines()


class TestInOutput:
    """What reaches an element in JavaScript's order, by the walk and by a plan alike."""

    def _both(self, raw: list[dict[str, Any]], data: Any = msgspec.UNSET) -> list[str]:
        s = surface(*raw, data=data)
        walked = Converter().convert(s)
        planned = by_plan(Converter(), s)
        assert planned is not None
        assert js(planned.element) == js(walked.element)
        return [_context(walked.element), _context(planned.element)]

    def test_a_literal_context(self) -> None:
        found = self._both(_button({"b": 1, "2": 2, "a": 3, "1": 4}))
        assert found == ['{"1":4,"2":2,"b":1,"a":3}'] * 2

    def test_a_context_bound_to_data(self) -> None:
        data = {"o": {"z": 1, "10": 2, "9": 3}}
        found = self._both(_button({"obj": {"path": "/o"}, "0": {"path": "/o/9"}}), data)
        assert found == ['{"0":3,"obj":{"9":3,"10":2,"z":1}}'] * 2

    def test_keys_past_the_largest_index_keep_their_place(self) -> None:
        found = self._both(_button({"b": 1, "4294967295": 2, "4294967294": 3}))
        assert found == ['{"4294967294":3,"b":1,"4294967295":2}'] * 2

    def test_format_string_prints_an_object_in_order(self) -> None:
        call = {"call": "formatString", "args": {"value": "${/o}"}}
        s = surface(root("Text", text=call), data={"o": {"b": 1, "3": 2, "1": 3}})
        assert Converter().convert(s).element == {
            "$type": "Markdown",
            "value": '{"1":3,"3":2,"b":1}',
        }
