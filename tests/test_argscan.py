"""The scan of a render call's argument text (``_engine.argscan``), a few bytes at a time."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from a2ui_stream._engine.argscan import Scan, Tail, advance, watch

ARGS: dict[str, Any] = {
    "surfaceId": 's"1',
    "catalogId": "c",
    "components": [{"id": "root", "component": "Text", "text": "a]}\\"}],
    "data": {"rows": [{"n": 1}, {"n": [2, {"m": "}"}]}], "x": {"y": [1]}},
}
TEXT = json.dumps(ARGS).encode()


def fed(text: bytes, cuts: list[int]) -> Scan:
    """Scan ``text`` cut at ``cuts``."""
    scan, last = Scan(), 0
    for cut in [*sorted(cuts), len(text)]:
        scan = advance(scan, text[last:cut])
        last = cut
    return scan


def found(scan: Scan) -> tuple[Any, ...]:
    """What the scan found, comparable across chunkings."""
    return (
        dict(scan.strings),
        dict(scan.starts),
        scan.components_end,
        scan.data_end,
        dict(scan.data_starts),
        scan.items(b"rows"),
        scan.done,
    )


def test_what_a_whole_call_gives() -> None:
    """First strings unescaped, and the components array and data object where they lie."""
    scan = advance(Scan(), TEXT)
    assert dict(scan.strings) == {b"surfaceId": 's"1', b"catalogId": "c"}
    assert scan.components_end is not None
    start = scan.starts[b"components"][0]
    assert json.loads(scan.text(start, scan.components_end)) == ARGS["components"]
    assert scan.data_end is not None
    assert json.loads(scan.text(scan.starts[b"data"][0], scan.data_end)) == ARGS["data"]
    assert scan.done
    assert scan.size == len(TEXT)


def test_items_of_a_data_array_as_they_close() -> None:
    """Each closed object item of ``data.rows`` is readable; its end offset is exact."""
    scan = advance(Scan(), TEXT)
    items = scan.items(b"rows")
    assert items is not None
    start, count = items
    assert count == 2
    first = scan.text(start + 1, scan.item_end(b"rows", 1))
    assert json.loads(first) == {"n": 1}
    assert scan.items(b"x") is None  # an object member is no items array


def test_nothing_is_claimed_before_it_closes() -> None:
    """A string, the components and data are found only once their text is complete."""
    cut = TEXT.index(b'"c"') + 2
    early = advance(Scan(), TEXT[:cut])
    assert b"catalogId" not in early.strings
    assert early.components_end is None
    assert early.data_end is None
    assert not early.done


@pytest.mark.parametrize("seed", range(6))
def test_any_chunking_finds_the_same(seed: int) -> None:
    """The scan of deltas is the scan of the whole text, wherever the cuts fall."""
    rng = random.Random(seed)
    cuts = rng.sample(range(1, len(TEXT)), k=rng.randint(1, 40))
    assert found(fed(TEXT, cuts)) == found(advance(Scan(), TEXT))


def test_bytewise() -> None:
    """One byte at a time (escapes and multi-byte characters split) changes nothing."""
    text = json.dumps({**ARGS, "surfaceId": "é\\\u2603"}, ensure_ascii=False).encode()
    whole = advance(Scan(), text)
    assert found(fed(text, list(range(1, len(text))))) == found(whole)
    assert whole.strings[b"surfaceId"] == "é\\\u2603"


def test_states_are_values() -> None:
    """Feeding an older state again leaves the later state meaning what it meant."""
    half = advance(Scan(), TEXT[:40])
    whole = advance(half, TEXT[40:])
    other = advance(half, b'"ignored"}')
    assert found(whole) == found(advance(Scan(), TEXT))
    assert whole.text(0, 40) == TEXT[:40]
    assert other.size == 40 + len(b'"ignored"}')


def test_text_that_is_no_object_is_done_at_once() -> None:
    """An argument text that does not open an object has nothing to find."""
    scan = advance(Scan(), b'["surfaceId", "s"]')
    assert scan.done
    assert dict(scan.strings) == {}


class TestWatch:
    def after_rows(self, rest: bytes) -> tuple[Scan, Tail]:
        """A scan of a call whose ``data.rows`` has closed, then ``rest``."""
        head = b'{"data":{"rows":[{"n":1}]'
        scan = advance(Scan(), head)
        assert scan.items_closed[b"rows"] == len(head)
        return advance(scan, rest), Tail(position=scan.items_closed[b"rows"])

    def test_more_members_do_not_break_the_items(self) -> None:
        """Members after the array, objects and arrays opened and closed, keep it whole."""
        scan, tail = self.after_rows(b',"x":{"y":[1,2]},"z":"w"')
        assert not watch(tail, scan).broken

    def test_a_value_directly_in_an_array_breaks_it(self) -> None:
        """A plain value directly in a later array moves the helper's last item past it."""
        scan, tail = self.after_rows(b',"x":["a",')
        assert watch(tail, scan).broken

    def test_reading_resumes_where_it_stopped(self) -> None:
        """Watching twice over growing text reads each byte once, to the same end."""
        head = b'{"data":{"rows":[{"n":1}]'
        tail = Tail(position=len(head))
        scan = advance(Scan(), head + b',"x":[')
        first = watch(tail, scan)
        assert first.position == scan.size
        assert not first.broken
        later = advance(scan, b'"a",')
        assert watch(first, later).broken
        assert watch(first, scan) is first
