"""What must hold of every output, whatever the input: shared by tests and fuzz harnesses.

Owns the output invariants of issue 8 (element depth, element count, items per
ListView, vocabulary validity, string length) as one function that returns problems
instead of asserting, so a property test, a regression test and an atheris harness can
all use it. Imports only the package; no pytest, no hypothesis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import UNSET

from a2ui_stream._vocabulary import validate_element

if TYPE_CHECKING:
    from collections.abc import Iterable

    from a2ui_stream import Limits, PartDiff, Processor

__all__ = ["element_problems", "feed_in_chunks", "output_problems", "split_points"]


def _strings(value: Any, key: str, limit: int, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        if len(value) > limit:
            out.append(f"prop {key!r} holds a string of {len(value)} characters")
    elif kind is list:
        for item in value:
            _strings(item, key, limit, out)
    elif kind is dict:
        for name, item in value.items():
            _strings(name, key, limit, out)
            _strings(item, key, limit, out)


def _walk(element: Any, depth: int, out: list[str], limits: Limits, counts: list[int]) -> None:
    counts[0] += 1
    if depth >= 2 * limits.max_depth:
        out.append(f"element at depth {depth} (limit {limits.max_depth} A2UI levels)")
    if type(element) is not dict:
        out.append(f"element is {type(element).__name__}, not an object")
        return
    for key, value in element.items():
        if key not in {"children", "$action"}:
            _strings(value, key, limits.max_string_length, out)
    children = element.get("children")
    if children is None:
        return
    kids = children if type(children) is list else [children]
    if element.get("$type") == "ListView":
        items = sum(1 for kid in kids if type(kid) is dict and kid.get("$type") == "ListViewItem")
        if items > limits.max_template_items:
            out.append(f"ListView with {items} items (limit {limits.max_template_items})")
    for kid in kids:
        _walk(kid, depth + 1, out, limits, counts)


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
        if type(diff.args) is not dict:
            out.append(f"diff {index}: {diff.op} without args")
            continue
        out.extend(f"diff {index}: {p}" for p in element_problems(diff.args, limits))
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
