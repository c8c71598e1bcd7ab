"""Measuring a data model as it changes: its encoded size and depth, at what changed.

Owns the estimate the data-model size limit is checked against. A write that replaces
a model sharing most of its containers with the old one (an ``ACTIVITY_DELTA`` patched
a copy of it, a value re-sent as text) is measured by the subtrees it changed, so a
one-value change costs that value, not the model; a write sharing nothing is encoded
whole.

Imports the tree layer (pointer, patch, depth) and the wire layer's frozen types.
Does no I/O.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any, Final

import msgspec
from msgspec import UNSET

from a2ui_stream._tree.depth import deeper_than
from a2ui_stream._tree.diff import diff
from a2ui_stream._tree.pointer import get, parse
from a2ui_stream._wire.frozen import DICTS, LISTS

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from a2ui_stream._tree.patch import DataChange

__all__ = ["MAX_REMEASURED", "changes_between", "encoded_size", "nests_past", "remeasured"]

_ENCODER = msgspec.json.Encoder()
#: Changed paths past which a new data model is encoded whole to measure it.
MAX_REMEASURED: Final = 8


def encoded_size(value: Any) -> int | None:
    """The encoded JSON size of a value; ``None`` when it is not JSON."""
    if value is UNSET:
        return 0
    try:
        return len(_ENCODER.encode(value))
    except (TypeError, ValueError, OverflowError):
        return None


def changes_between(
    old: Any, new: Any, known: Sequence[DataChange] = ()
) -> list[tuple[str, tuple[str, ...]]] | None:
    """Where ``new``, which replaces ``old``, differs from it: ``(op, tokens)`` pairs.

    When ``new`` shares containers with ``old`` (an ``ACTIVITY_DELTA`` patches a copy of
    the operation that wrote the model, a re-sent value is shared text against text),
    only the changed subtrees need measuring, so the cost follows the change rather
    than the model's size: where the change is ``known`` (read off the patch or the
    texts) it is taken as it is, otherwise found by a diff. ``None`` when ``new``
    shares nothing with ``old`` and must be measured whole.
    """
    for change in known:
        if change.before is old and change.after is new:
            return list(zip(change.kinds or repeat("replace"), change.paths, strict=False))
    if not _shares(old, new):
        return None
    return [(change["op"], parse(change["path"])) for change in diff(old, new)]


def nests_past(value: Any, room: int, changes: list[tuple[str, tuple[str, ...]]] | None) -> bool:
    """Whether ``value`` nests deeper than ``room``, walking only the ``changes`` if known.

    The rest of ``value`` is shared with a model the state already held, which was
    within the limit when it was written.
    """
    if changes is None:
        return deeper_than(value, room)
    return any(
        op != "remove" and deeper_than(get(value, tokens), room - len(tokens))
        for op, tokens in changes
    )


def remeasured(
    old: Any, new: Any, old_size: int, changes: Iterable[tuple[str, tuple[str, ...]]]
) -> int | None:
    """``old_size`` adjusted by the subtrees each ``(op, tokens)`` change removed or added.

    Exact: a member's key is counted as written, and the commas of each container a
    member joined or left are counted once for the container (its one member has none).
    """
    size = old_size
    parents: dict[tuple[str, ...], None] = {}
    for op, tokens in changes:
        if op != "add":
            gone = encoded_size(get(old, tokens))
            if gone is None:
                return encoded_size(new)
            size -= gone + (_key(old, tokens) if op == "remove" else 0)
        if op != "remove":
            added = encoded_size(get(new, tokens))
            if added is None:
                return None
            size += added + (_key(new, tokens) if op == "add" else 0)
        if op != "replace" and tokens:
            parents[tokens[:-1]] = None
    for parent in parents:
        size += _commas(get(new, parent)) - _commas(get(old, parent))
    return max(size, 0)


def _key(model: Any, tokens: tuple[str, ...]) -> int:
    """What a member costs beside its value and comma: in an object, its key and colon."""
    if not tokens or type(get(model, tokens[:-1])) in LISTS:
        return 0
    return len(_ENCODER.encode(tokens[-1])) + 1


def _commas(container: Any) -> int:
    return max(len(container) - 1, 0)


def _shares(old: Any, new: Any) -> bool:
    """Whether two containers hold any child in common (by identity)."""
    if type(old) in DICTS and type(new) in DICTS:
        return any(old.get(key) is value for key, value in new.items())
    if type(old) in LISTS and type(new) in LISTS:
        return any(a is b for a, b in zip(old, new, strict=False))
    return False
