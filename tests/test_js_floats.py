"""JsFloat: the few doubles msgspec prints otherwise than JavaScript, marked where read.

:func:`js_number` marks them so that printing JSON as JavaScript does costs nothing:
these tests check the rule that picks them (a plain float always prints as JavaScript
prints it, a JsFloat never would without the hook), that a JsFloat is the float it
holds (equality, hashing, copies, pickling, immutability), and that each path a read
number takes (the converter, reuse and patches, events and history read back, the
view, the request side) keeps it or prints it as it should.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import math
import pickle
import random
import struct
from typing import Any

import msgspec
import pytest
from test_numbers import number_corpus

from a2ui_stream import Processor, Reducer, action_forwarded_props, build_run_input
from a2ui_stream import events as ev
from a2ui_stream._convert.functions import FUNCTIONS
from a2ui_stream._convert.vocabulary import validate_element
from a2ui_stream._engine.reorder import Codec
from a2ui_stream._engine.threads import ThreadResult, fold_thread
from a2ui_stream._view.html import ElementRenderer
from a2ui_stream._wire.codec import decode_event, encode_event
from a2ui_stream._wire.numbers import JsFloat, encode_json, js_number, js_text, number_text
from a2ui_stream.testing import (
    activity_snapshot,
    create_surface,
    jsonl,
    update_components,
    update_data_model,
)

_DECODE = msgspec.json.Decoder(float_hook=js_number)
#: Texts of each kind of JsFloat, as an agent might write them.
RARE = ["-0.0", "1e21", "-1.5E+300", "1.5e-6", "-1e-6", "9.999999999999999e-6"]


def _texts(count: int = 100_000, seed: int = 21) -> list[str]:
    """The corpus test_numbers compares with node, and random doubles' shortest texts."""
    rng = random.Random(seed)
    texts = number_corpus()
    while len(texts) < count:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            texts.append(repr(value))
    return texts


class TestRule:
    def test_only_js_floats_print_otherwise(self) -> None:
        """Every number js_number reads prints as JavaScript prints it (number_text, which
        test_numbers checks against node) through msgspec alone, except a JsFloat, which
        msgspec would print otherwise: the hook is needed exactly where it is called."""
        counts = {int: 0, float: 0, JsFloat: 0}
        wrong = []
        for text in _texts():
            try:
                value = _DECODE.decode(text)
            except msgspec.ValidationError:
                continue  # past a double's range: refused on input
            kind = type(value)
            counts[kind] += 1
            if kind is int and abs(value) > 2**53:
                continue  # an exact integer written so: JsonEncoder's search, below
            plain = msgspec.json.encode(value, enc_hook=float).decode()
            if (plain == number_text(value)) != (kind is not JsFloat):
                wrong.append((text, kind.__name__, plain, number_text(value)))
        assert wrong == []
        assert min(counts.values()) > 300  # each kind is really there

    def test_long_integers_are_found_and_nothing_else(self) -> None:
        """Integers past 2**53 print as their double; 16 digits in a string do not count."""
        value = _DECODE.decode(
            b'{"a":[9007199254740993,-9007199254740993,9007199254740992],'
            b'"card":"4111111111111111","b":1234567890123456,"c":"x:12345678901234567"}'
        )
        assert encode_json(value) == (
            b'{"a":[9007199254740992,-9007199254740992,9007199254740992],'
            b'"card":"4111111111111111","b":1234567890123456,"c":"x:12345678901234567"}'
        )
        plain = {"card": "4111111111111111", "b": 1234567890123456}
        assert encode_json(plain) == msgspec.json.encode(plain)


class TestValue:
    @pytest.mark.parametrize("text", RARE)
    def test_is_the_float_it_holds(self, text: str) -> None:
        """Equal to the float and the int, the same hash, a dict key for both; arithmetic
        gives plain floats; repr and str are the float's."""
        value: Any = js_number(text)
        double = float(text)
        assert type(value) is JsFloat
        assert isinstance(value, float)
        assert value == double
        assert hash(value) == hash(double)
        assert {double: "x"}[value] == "x"
        assert math.copysign(1, value) == math.copysign(1, double)
        assert type(value + 1) is float
        assert type(-value) is float
        assert (repr(value), str(value)) == (repr(double), str(double))
        assert sorted([value, 0.5, double]) == sorted([double, 0.5, double])

    def test_negative_zero_equals_zero(self) -> None:
        """-0 compares and hashes as 0 does, as the float -0.0 does."""
        value: Any = js_number("-0.0")
        assert value == 0
        assert hash(value) == hash(0)
        assert {0: "zero"}[value] == "zero"

    @pytest.mark.parametrize("text", RARE)
    def test_copies_and_pickles_keep_it(self, text: str) -> None:
        """A copy is still a JsFloat, so it still prints as JavaScript prints it."""
        value = js_number(text)
        pickled = pickle.loads(pickle.dumps(value))  # noqa: S301 - our own bytes
        for copied in (copy.copy(value), copy.deepcopy(value), pickled):
            assert type(copied) is JsFloat
            assert math.copysign(1, copied) == math.copysign(1, value)
            assert encode_json(copied) == encode_json(value)

    def test_is_immutable(self) -> None:
        """Nothing can be attached to one: it carries nothing but the double."""
        value: Any = js_number("1e21")
        with pytest.raises(AttributeError):
            value.note = 1

    def test_hooks_refuse_anything_else_as_msgspec_does(self) -> None:
        """Another type is refused with msgspec's own words."""
        with pytest.raises(TypeError, match="Encoding objects of type object is unsupported"):
            encode_json([object()])
        with pytest.raises(TypeError, match="Encoding objects of type complex is unsupported"):
            js_text(1j)


_URL = "https://example.com/a.png"


def _surface(message_id: str, data: dict[str, Any]) -> ev.ActivitySnapshot:
    """A Row with a gap of -0.0 holding a Text showing ``formatNumber`` of ``/v``, a
    Button whose action context carries ``/doc`` and an Image of size 1.5e-6. Python's
    floats go out as msgspec writes them and are read back by js_number, as any input."""
    components: list[dict[str, Any]] = [
        {"id": "root", "component": "Row", "gap": -0.0, "children": ["t", "b", "i"]},
        {
            "id": "t",
            "component": "Text",
            "text": {"call": "formatNumber", "args": {"value": {"path": "/v"}}},
        },
        {
            "id": "b",
            "component": "Button",
            "label": "go",
            "action": {"event": {"name": "go", "context": {"doc": {"path": "/doc"}}}},
        },
        {"id": "i", "component": "Image", "url": _URL, "alt": "a", "size": 1.5e-6},
    ]
    return activity_snapshot(
        message_id,
        [create_surface("s"), update_components("s", *components), update_data_model("s", data)],
    )


_DOC = {"tiny": 1.5e-6, "huge": [1e21, {"neg": -0.0}], "plain": 0.25}


class TestThroughTheLibrary:
    def test_args_hold_them_and_print_as_javascript(self) -> None:
        """The converter keeps each JsFloat as read: the gap, the bound context."""
        processor = Processor()
        (diff,) = processor.feed(jsonl([_surface("m", {"v": -0.0, "doc": _DOC})]))
        assert processor.take_diagnostics() == []
        row: Any = diff.args
        assert type(row["gap"]) is JsFloat
        assert row["children"][0] == {"$type": "Markdown", "value": "-0"}  # Intl shows -0
        context = row["children"][1]["$action"]["context"]["doc"]
        assert [type(context["tiny"]), type(context["huge"][0])] == [JsFloat, JsFloat]
        assert type(context["plain"]) is float
        assert encode_json(row) == (
            b'{"$type":"Row","gap":0,"children":[{"$type":"Markdown","value":"-0"},'
            b'{"$type":"Button","label":"go","$action":{"type":"a2ui:action","name":"go",'
            b'"surfaceId":"s","sourceComponentId":"b","context":{"doc":{"tiny":0.0000015,'
            b'"huge":[1e+21,{"neg":0}],"plain":0.25}}}},'
            b'{"$type":"Image","src":"https://example.com/a.png","alt":"a","size":0.0000015}]}'
        )
        assert type(row["children"][2]["size"]) is JsFloat
        assert validate_element(row) == []  # each is a number to the vocabulary
        # Frozen as ever; msgspec alone needs a hook for them, and gives its own text.
        with pytest.raises(TypeError, match="immutable"):
            row["gap"] = 1
        with pytest.raises(TypeError, match="JsFloat is unsupported"):
            msgspec.json.encode(row)
        copy_ = msgspec.to_builtins(row, enc_hook=float)
        assert copy_ == row
        assert type(copy_["gap"]) is float

    def test_a_repeated_snapshot_shares_everything(self) -> None:
        """The middleware re-sends a cumulative snapshot: nothing changed, no diff, and
        the state's part keeps the very same args (identity sharing is unaffected)."""
        processor = Processor()
        (first,) = processor.feed(jsonl([_surface("m", {"v": -0.0, "doc": _DOC})]))
        assert processor.feed(jsonl([_surface("m", {"v": -0.0, "doc": _DOC})])) == []
        (part,) = processor.state.runs[-1].parts.values()
        assert part.args is first.args

    def test_negative_zero_and_zero_are_told_apart(self) -> None:
        """-0 and 0 print alike in JSON but not in formatNumber: reuse and the patch see
        the change (equality is decided on msgspec's text of the float, -0.0)."""
        processor = Processor()
        processor.feed(jsonl([_surface("m", {"v": -0.0, "doc": {"n": -0.0}})]))
        (diff,) = processor.feed(jsonl([_surface("m", {"v": 0, "doc": {"n": -0.0}})]))
        args: Any = diff.args
        assert args["children"][0] == {"$type": "Markdown", "value": "0"}
        assert [op["path"] for op in diff.patch()] == ["/children/0/value"]

    def test_events_and_logs_read_back_the_same_value(self) -> None:
        """An event re-encoded (logs, replays) keeps each number's sign and kind."""
        line = b'{"type":"CUSTOM","name":"n","value":[-0.0,1e21,1.5e-6,0.5]}'
        event: Any = decode_event(line)
        assert encode_event(event) == b'{"type":"CUSTOM","name":"n","value":[-0.0,1e21,1.5e-6,0.5]}'
        again: Any = decode_event(encode_event(event))
        assert [type(item) for item in again.value] == [JsFloat, JsFloat, JsFloat, float]
        assert math.copysign(1, again.value[0]) == -1
        built = ev.ActivitySnapshot.of(
            message_id="m", activity_type="x", content={"n": again.value[:2]}
        )
        assert bytes(built.content) == b'{"n":[-0.0,1e21]}'

    def test_history_from_structs_holding_them(self) -> None:
        """Stored history handed back as Structs, content read by us: drawn as it was."""
        content = _DECODE.decode(_surface("a2ui-surface-r1", {"v": 1e21, "doc": _DOC}).content)
        messages: list[Any] = [
            ev.UserMessage(id="u1", content="draw"),
            ev.AssistantMessage(id="a1", content="here"),
            ev.ActivityMessage(id="a2ui-surface-r1", activity_type="a2ui-surface", content=content),
        ]
        state, _, diagnostics = Reducer().rehydrate(messages)
        assert diagnostics == ()
        ((part,),) = [h.parts for h in state.history]
        shown = {"$type": "Markdown", "value": "1,000,000,000,000,000,000,000"}
        assert part.args["children"][0] == shown
        assert type(part.args["gap"]) is JsFloat

    def test_archive_records_keep_them(self) -> None:
        """A thread's result crosses Beam workers as msgpack: a JsFloat stays one, so the
        result prints as ``--final`` does wherever it is decoded."""
        data = jsonl([_surface("m", {"v": -0.0, "doc": _DOC})])
        result = fold_thread("t", enumerate(data.splitlines()))
        codec = pickle.loads(pickle.dumps(Codec(ThreadResult)))  # noqa: S301 - our own bytes
        shipped = codec.decode(codec.encode(result))
        assert shipped == result
        (args,) = [part.args for run in shipped.runs for part in run.parts]
        assert type(args["gap"]) is JsFloat
        assert encode_json(shipped) == encode_json(result)
        assert b'"gap":0,' in encode_json(shipped)

    def test_the_view_draws_them_as_the_floats_they_are(self) -> None:
        """HTML: the page of a tree holding JsFloats is the page of the same tree holding
        plain floats (a number prop is a number, JSON shows msgspec's text)."""
        processor = Processor()
        (diff,) = processor.feed(jsonl([_surface("m", {"v": 1.5e-6, "doc": _DOC})]))
        ours, plain = ElementRenderer(), ElementRenderer()
        html = ours.render(diff.args)
        assert html == plain.render(msgspec.to_builtins(diff.args, enc_hook=float))
        assert ours.rules.stylesheet() == plain.rules.stylesheet()
        assert "gap:" in ours.rules.stylesheet()  # the -0 gap is a number to the page
        assert "1e21" in html
        box = {"$type": "Box", "width": js_number("-0.0"), "height": js_number("1.5e-6")}
        assert ours.render(box) == plain.render(msgspec.to_builtins(box, enc_hook=float))
        assert ours.rules.stylesheet() == plain.rules.stylesheet()
        assert "{width:" in ours.rules.stylesheet()  # lengths to the page, not dropped

    def test_a_pressed_action_is_json_ready_for_any_encoder(self) -> None:
        """The request side: the action's context and the state go out as plain floats,
        so a plain msgspec encoder (the README's) and ``to_dict`` take the run input."""
        processor = Processor()
        (diff,) = processor.feed(jsonl([_surface("m", {"v": 1.5e-6, "doc": _DOC})]))
        args: Any = diff.args
        action = args["children"][1]["$action"]
        props = action_forwarded_props(action, now=_now)
        run_input = build_run_input(
            None, thread_id="t", run_id="r", forwarded_props=props, state=diff.args, now=_now
        )
        body = msgspec.json.decode(msgspec.json.encode(run_input))
        assert json.loads(json.dumps(run_input.to_dict())) == body
        context = body["forwardedProps"]["a2uiAction"]["userAction"]["context"]
        assert context == {"doc": _DOC}
        assert body["state"]["gap"] == 0
        assert math.copysign(1, body["state"]["gap"]) == -1


def _now() -> dt.datetime:
    return dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


class _NoEnv:
    def read(self, pointer: str) -> Any:
        raise AssertionError(pointer)

    def unsupported(self, name: str) -> None:
        raise AssertionError(name)


def test_format_functions_take_them() -> None:
    """formatNumber, formatCurrency, pluralize and formatString take a JsFloat as the
    number it is (a float subclass is no float to a ``type() is float`` test)."""
    env = _NoEnv()
    assert FUNCTIONS["formatNumber"]({"value": js_number("-0.0")}, env) == "-0"
    assert FUNCTIONS["formatNumber"]({"value": js_number("1.5e-6"), "decimals": 7}, env) == (
        "0.0000015"
    )
    dollars = FUNCTIONS["formatCurrency"]({"value": js_number("1e21"), "currency": "USD"}, env)
    assert dollars == "$1,000,000,000,000,000,000,000.00"
    assert FUNCTIONS["pluralize"]({"value": js_number("-0.0"), "zero": "none"}, env) == "none"
    text = FUNCTIONS["formatString"](
        {"value": "${/a} ${/b}"}, _Reading({"/a": js_number("1e21"), "/b": js_number("-0.0")})
    )
    assert text == "1e+21 0"


class _Reading(_NoEnv):
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def read(self, pointer: str) -> Any:
        return self.data[pointer]
