"""What must hold of every output, whatever the input: shared by tests and fuzz harnesses.

Owns the output invariants of issue 8 (element depth, element count, items per
ListView, vocabulary validity, string length) as one function that returns problems
instead of asserting, so a property test, a regression test and an atheris harness can
all use it. Imports only the package; no pytest, no hypothesis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import msgspec
from msgspec import UNSET

from a2ui_stream import (
    Diagnostic,
    Limits,
    MemoryLog,
    Processor,
    Reducer,
    decode_event,
    encode_event,
    replay,
)
from a2ui_stream._convert.converter import Converter
from a2ui_stream._convert.vocabulary import validate_element
from a2ui_stream._wire.codec import EventDecoder
from a2ui_stream._wire.frozen import FrozenDict, FrozenList

if TYPE_CHECKING:
    from collections.abc import Iterable

    from a2ui_stream import PartDiff, StreamState

__all__ = [
    "CONTAINED_BUGS",
    "TINY_LIMITS",
    "check_decoder_input",
    "check_pipeline_input",
    "conversion_problems",
    "element_problems",
    "feed_in_chunks",
    "output_problems",
    "split_points",
]

#: Limits small enough that fuzzed input reaches every limit's code path.
TINY_LIMITS = Limits(
    max_depth=6,
    max_template_items=5,
    max_nodes=60,
    max_line_bytes=8192,
    max_data_model_bytes=2048,
    max_operations=20,
    max_live_surfaces=3,
    max_string_length=64,
    max_data_depth=4,
    max_content_nodes=512,
)
#: Codes that mean the core caught an exception of its own: a bug, whatever the input.
CONTAINED_BUGS = frozenset({"core.internal_error", "convert.failed"})
_DEFAULT = Limits()
_SMALL_LINES = Limits(max_line_bytes=256)
_FORMATS: tuple[Literal["auto", "jsonl", "sse"], ...] = ("auto", "jsonl", "sse", "auto")
_encode = msgspec.json.Encoder().encode


def _strings(value: Any, key: str, limit: int, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        if len(value) > limit:
            out.append(f"prop {key!r} holds a string of {len(value)} characters")
    elif isinstance(value, list):  # frozen element trees are list and dict subclasses
        for item in value:
            _strings(item, key, limit, out)
    elif isinstance(value, dict):
        for name, item in value.items():
            _strings(name, key, limit, out)
            _strings(item, key, limit, out)


def _walk(element: Any, depth: int, out: list[str], limits: Limits, counts: list[int]) -> None:
    counts[0] += 1
    if depth >= 2 * limits.max_depth:
        out.append(f"element at depth {depth} (limit {limits.max_depth} A2UI levels)")
    if not isinstance(element, dict):
        out.append(f"element is {type(element).__name__}, not an object")
        return
    for key, value in element.items():
        if key not in {"children", "$action"}:
            _strings(value, key, limits.max_string_length, out)
    children = element.get("children")
    if children is None:
        return
    kids = children if isinstance(children, list) else [children]
    if element.get("$type") == "ListView":
        items = sum(
            1 for kid in kids if isinstance(kid, dict) and kid.get("$type") == "ListViewItem"
        )
        if items > limits.max_template_items:
            out.append(f"ListView with {items} items (limit {limits.max_template_items})")
    for kid in kids:
        _walk(kid, depth + 1, out, limits, counts)


def unfrozen(value: Any) -> list[str]:
    """Where ``value`` holds a dict or list a caller could change (not frozen)."""
    out: list[str] = []
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            if type(node) is not FrozenDict:
                out.append(f"a {type(node).__name__} at {where or '/'}")
            stack.extend((inner, f"{where}/{key}") for key, inner in node.items())
        elif isinstance(node, list):
            if not isinstance(node, FrozenList):
                out.append(f"a {type(node).__name__} at {where or '/'}")
            stack.extend((inner, f"{where}/{index}") for index, inner in enumerate(node))
    return out


def element_problems(element: Any, limits: Limits) -> list[str]:
    """Check one ``present`` args tree against every output bound and the vocabulary.

    Args:
        element: the root element of a part.
        limits: the limits the processor ran with.

    Returns:
        One sentence per broken invariant; empty when the tree is fine.
    """
    out: list[str] = []
    counts = [0]
    _walk(element, 0, out, limits, counts)
    if counts[0] > limits.max_nodes:
        out.append(f"{counts[0]} elements (limit {limits.max_nodes})")
    out.extend(validate_element(element))
    out.extend(unfrozen(element))
    return out


def output_problems(diffs: Iterable[PartDiff], limits: Limits) -> list[str]:
    """Check every diff's args (and previous args) with :func:`element_problems`.

    Args:
        diffs: the diffs a processor returned.
        limits: the limits it ran with.

    Returns:
        Problems, each prefixed with the diff's index.
    """
    out: list[str] = []
    for index, diff in enumerate(diffs):
        if diff.op == "remove":
            if diff.args is not UNSET:
                out.append(f"diff {index}: remove carries args")
            continue
        if not isinstance(diff.args, dict):
            out.append(f"diff {index}: {diff.op} without args")
            continue
        out.extend(f"diff {index}: {p}" for p in element_problems(diff.args, limits))
    return out


def conversion_problems(state: StreamState, limits: Limits) -> list[str]:
    """Check that what a state holds of each surface's conversion equals a fresh one.

    The converter's contract: a conversion built on an earlier one (a plan, a patch,
    appended children) gives the element and the warnings a conversion without it
    gives. A state keeps, per live surface, the part (the element) and the warnings of
    its latest conversion (``RunState.reported``); the conversions themselves are a
    cache beside the state. (The diagnostics a stream reports are not comparable so:
    they report each warning when it appears.)

    Args:
        state: a reducer's or processor's state.
        limits: the limits it ran with.

    Returns:
        One sentence per surface whose part or warnings differ; empty when all agree.
    """
    converter = Converter(limits=limits)
    out: list[str] = []
    for index, run in enumerate(state.runs):
        for surface_id, owner in run.surfaces().items():
            fresh = converter.convert(owner)
            part = run.parts.get(surface_id)
            element = None if part is None else part.args
            if _encode(element) != _encode(fresh.element):
                out.append(f"run {index}, surface {surface_id!r}: element differs from fresh")
            warnings = run.reported.get(surface_id, ())
            if warnings != fresh.warnings:
                got = [(w.code, w.component_id) for w in warnings]
                want = [(w.code, w.component_id) for w in fresh.warnings]
                out.append(f"run {index}, surface {surface_id!r}: warnings {got} != {want}")
    return out


def split_points(size: int, seed: int, count: int) -> list[int]:
    """Return sorted cut positions in ``range(size + 1)`` from a small seed, deterministically.

    Args:
        size: length of the data to cut.
        seed: any integer; equal seeds give equal cuts.
        count: how many cuts.

    Returns:
        Sorted positions (duplicates allowed: they make empty chunks).
    """
    state = (seed * 2654435761 + 1) & 0xFFFFFFFF
    cuts = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        cuts.append(state % (size + 1))
    return sorted(cuts)


def feed_in_chunks(processor: Processor, data: bytes, cuts: Iterable[int]) -> list[PartDiff]:
    """Feed ``data`` cut at ``cuts`` (sorted), then close; return every diff.

    Args:
        processor: a fresh processor.
        data: the whole stream.
        cuts: sorted cut positions.

    Returns:
        The diffs of every feed and of close, in order.
    """
    diffs: list[PartDiff] = []
    start = 0
    for cut in cuts:
        diffs.extend(processor.feed(data[start:cut]))
        start = cut
    diffs.extend(processor.feed(data[start:]))
    diffs.extend(processor.close())
    return diffs


def _pipeline(
    data: bytes, limits: Limits, cuts: list[int], log: MemoryLog | None = None
) -> tuple[bytes, bytes, object]:
    processor = Processor(limits=limits, log=log)
    diffs = feed_in_chunks(processor, data, cuts)
    problems = output_problems(diffs, limits)
    if problems:
        raise AssertionError("; ".join(problems[:5]))
    diagnostics = processor.take_diagnostics()
    bugs = [d for d in diagnostics if d.code in CONTAINED_BUGS]
    if bugs:
        raise AssertionError(f"the core contained an exception of its own: {bugs[0]}")
    return _encode(diffs), _encode(diagnostics), processor.state


def _replayed(log: MemoryLog, limits: Limits) -> tuple[bytes, object]:
    """The diffs and final state a replay of ``log`` gives."""
    reducer = Reducer(limits=limits)
    diffs: list[PartDiff] = []
    state: object = None
    for reduction in replay(log, reducer=reducer):
        diffs.extend(reduction.diffs)
        state = reduction.state
        bugs = [d for d in reduction.diagnostics if d.code in CONTAINED_BUGS]
        if bugs:
            raise AssertionError(f"replay contained an exception of its own: {bugs[0]}")
    return _encode(diffs), state


def check_pipeline_input(raw: bytes) -> None:
    """Check one pipeline fuzz input; raise ``AssertionError`` when a promise breaks.

    The first byte configures (bit 7: :data:`TINY_LIMITS`; bits 0-3: extra cuts), the
    rest is the stream. It is fed whole (with an event log) and cut at seeded positions:
    both runs must give equal diffs, diagnostics and state, every diff must pass
    :func:`output_problems`, no diagnostic may say the core caught an exception of its
    own (:data:`CONTAINED_BUGS`), and replaying the log must give the same diffs and
    state.

    Args:
        raw: the fuzz input.

    Raises:
        AssertionError: an invariant does not hold.
    """
    if not raw:
        return
    config, data = raw[0], raw[1:]
    limits = TINY_LIMITS if config & 0x80 else _DEFAULT
    log = MemoryLog()
    whole = _pipeline(data, limits, [], log)
    cut = _pipeline(data, limits, split_points(len(data), config, (config & 0x0F) + 1))
    if whole[0] != cut[0]:
        raise AssertionError("chunking changed the diffs")
    if whole[1] != cut[1]:
        raise AssertionError("chunking changed the diagnostics")
    if whole[2] != cut[2]:
        raise AssertionError("chunking changed the final state")
    diffs, state = _replayed(log, limits)
    if diffs != whole[0]:
        raise AssertionError("replaying the log changed the diffs")
    if state is not None and state != whole[2]:
        raise AssertionError("replaying the log changed the final state")


def _decoded(data: bytes, config: int, cuts: list[int]) -> list[Any]:
    decoder = EventDecoder(
        format=_FORMATS[config & 0x03],
        limits=_SMALL_LINES if config & 0x04 else _DEFAULT,
        strict=bool(config & 0x08),
    )
    out: list[Any] = []
    start = 0
    for cut in [*cuts, len(data)]:
        out.extend(decoder.feed(data[start:cut]))
        start = cut
    out.extend(decoder.close())
    return out


def check_decoder_input(raw: bytes) -> None:
    """Check one decoder fuzz input; raise ``AssertionError`` when a promise breaks.

    The first byte configures (bits 0-1: format auto, jsonl or sse; bit 2: a 256-byte
    line limit; bit 3: strict; bits 4-7: extra cuts), the rest is the stream. Decoding
    whole and cut must agree, and every event must survive encode/decode unchanged.

    Args:
        raw: the fuzz input.

    Raises:
        AssertionError: an invariant does not hold.
    """
    if not raw:
        return
    config, data = raw[0], raw[1:]
    whole = _decoded(data, config, [])
    cut = _decoded(data, config, split_points(len(data), config, (config >> 4) + 1))
    if _encode(whole) != _encode(cut):
        raise AssertionError("chunking changed the decoder's output")
    for item in whole:
        if isinstance(item, Diagnostic):
            continue
        if decode_event(encode_event(item.event)) != item.event:
            raise AssertionError(f"round trip changed {item.event!r}")
