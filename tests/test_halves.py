"""Surrogate halves split across deltas (:mod:`a2ui_stream._wire.halves`).

A JavaScript server that cuts text by length can cut an emoji between its two UTF-16
code units, and ``JSON.stringify`` writes each half as a lone escape: the client joins
them by concatenating. Here such halves at the ends of text deltas are joined again;
anything else about a lone surrogate is refused as before.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from a2ui_stream import Processor
from a2ui_stream._wire import events as ev
from a2ui_stream._wire.codec import EventDecoder
from a2ui_stream._wire.codes import Code

_EMOJI = "\U0001f600"
_ARGS = json.dumps(
    {
        "surfaceId": "s1",
        "components": [{"id": "root", "component": "Text", "text": f"hi {_EMOJI}"}],
    },
    ensure_ascii=False,
)


def _units(text: str) -> list[str]:
    """``text`` as JavaScript holds it: one string of one UTF-16 code unit per item."""
    data = text.encode("utf-16-le")
    return [data[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(data), 2)]


def _cut(text: str, at: list[int]) -> list[str]:
    """``text`` cut at code-unit positions, as ``slice`` cuts a JavaScript string."""
    units = _units(text)
    bounds = [0, *at, len(units)]
    return ["".join(units[a:b]) for a, b in itertools.pairwise(bounds)]


def _line(event: dict[str, Any]) -> bytes:
    # ensure_ascii writes a lone surrogate as its \u escape, as JSON.stringify does.
    return json.dumps(event, ensure_ascii=True).encode() + b"\n"


def _render(deltas: list[str], *, end: bool = True) -> bytes:
    events: list[dict[str, Any]] = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "render_a2ui"},
        *({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": d} for d in deltas),
    ]
    if end:
        events.append({"type": "TOOL_CALL_END", "toolCallId": "c1"})
    return b"".join(map(_line, events))


def _drawn(data: bytes, chunk: int | None = None) -> tuple[list[Any], list[str]]:
    processor = Processor()
    size = chunk or len(data)
    diffs = [d for i in range(0, len(data), size) for d in processor.feed(data[i : i + size])]
    diffs += processor.close()
    return [d.args for d in diffs if d.op != "remove"], [
        str(d.code) for d in processor.take_diagnostics()
    ]


def _emoji_at() -> int:
    return len(_units(_ARGS.split(_EMOJI)[0]))  # the high half's position


class TestJoined:
    def test_an_emoji_split_with_the_closing_brackets_draws(self) -> None:
        """The second half shares its delta with ``"}]}``: the surface draws whole."""
        deltas = _cut(_ARGS, [_emoji_at() + 1])
        assert deltas[0].endswith("\ud83d")
        assert deltas[1].startswith("\ude00")
        args, codes = _drawn(_render(deltas))
        assert args[-1] == {"$type": "Markdown", "value": f"hi {_EMOJI}"}
        assert codes == []

    @pytest.mark.parametrize("chunk", [1, 7, 64])
    def test_one_code_unit_per_delta_in_any_chunks(self, chunk: int) -> None:
        """Every delta one code unit, the bytes cut anywhere: the same drawing."""
        data = _render(_units(_ARGS))
        args, codes = _drawn(data, chunk)
        assert args[-1] == {"$type": "Markdown", "value": f"hi {_EMOJI}"}
        assert codes == []

    def test_random_cuts_draw_what_one_delta_draws(self) -> None:
        whole, _ = _drawn(_render([_ARGS]))
        rng = random.Random(12)
        for _ in range(40):
            at = sorted(rng.sample(range(1, len(_units(_ARGS))), rng.randint(1, 12)))
            assert _drawn(_render(_cut(_ARGS, at)))[0][-1] == whole[-1]

    def test_text_deltas_join_too(self) -> None:
        """A text message whose delta is a half alone: the character goes to the next."""
        events = [
            {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a\ud83d"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "\ude00"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "\ud83d"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "\ude00b"},
        ]
        decoder = EventDecoder()
        out = decoder.feed(b"".join(map(_line, events))) + decoder.close()
        deltas = [item.event.delta for item in out if isinstance(item.event, ev.TextMessageContent)]  # type: ignore[union-attr]
        assert "".join(deltas) == f"a{_EMOJI}{_EMOJI}b"
        assert all(type(item).__name__ == "Decoded" for item in out)


class TestAlone:
    def test_a_half_never_completed_is_dropped_with_a_warning(self) -> None:
        deltas = _cut(_ARGS, [_emoji_at() + 1])
        data = _render([deltas[0], deltas[1].removeprefix("\ude00")])
        args, codes = _drawn(data)
        assert args[-1] == {"$type": "Markdown", "value": "hi "}
        assert codes == [Code.EVENT_SURROGATE_HALF]

    def test_a_low_half_with_nothing_before_it_is_dropped(self) -> None:
        deltas = _cut(_ARGS, [_emoji_at()])
        data = _render([deltas[0], deltas[1].replace("\ud83d", "", 1)])
        args, codes = _drawn(data)
        assert args[-1] == {"$type": "Markdown", "value": "hi "}
        assert codes == [Code.EVENT_SURROGATE_HALF]

    def test_a_half_the_stream_ends_on_is_reported(self) -> None:
        events = [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x\ud83d"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m"},
        ]
        decoder = EventDecoder()
        out = decoder.feed(b"".join(map(_line, events)))
        assert [getattr(item, "code", None) for item in out] == [
            None,
            Code.EVENT_SURROGATE_HALF,
            None,
        ]

    def test_halves_of_other_streams_do_not_pair(self) -> None:
        events = [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x\ud83d"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "n", "delta": "\ude00y"},
        ]
        decoder = EventDecoder()
        out = decoder.feed(b"".join(map(_line, events)))
        deltas = [item.event.delta for item in out if hasattr(item, "event")]  # type: ignore[union-attr]
        assert deltas == ["x", "y"]
        assert [getattr(item, "code", None) for item in out].count(Code.EVENT_SURROGATE_HALF) == 1

    @pytest.mark.parametrize(
        "event",
        [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a\ud83db"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m\ud83d", "delta": "a"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a\ude00"},
            {"type": "STATE_SNAPSHOT", "snapshot": {"k": "\ud83d"}},
        ],
    )
    def test_other_lone_surrogates_are_refused_as_before(self, event: dict[str, Any]) -> None:
        """Inside the text, at the wrong end, or outside a delta: the line is refused."""
        out = EventDecoder().feed(_line(event))
        assert [getattr(item, "code", None) for item in out] == [Code.JSON_INVALID]


def test_the_halves_waiting_are_bounded() -> None:
    """Halves under ever new ids: past 1,024 waiting, the oldest gives way, with a word."""
    events = [
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"m{n}", "delta": "x\ud83d"}
        for n in range(1025)
    ]
    decoder = EventDecoder()
    out = decoder.feed(b"".join(map(_line, events)))
    warnings = [item for item in out if getattr(item, "code", None) == Code.EVENT_SURROGATE_HALF]
    assert [(w.line, w.message_id) for w in warnings] == [(1, None)]  # type: ignore[union-attr]
    assert len(decoder._halves._waiting) == 1024
