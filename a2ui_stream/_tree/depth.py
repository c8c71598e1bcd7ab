"""How deeply a JSON value nests, and how many values it holds, measured without recursion.

Owns :func:`deeper_than`, the one check that keeps nesting the input decides out of the
state. Every walk of a JSON tree in the core (sharing, diffs, equality, conversion,
msgspec's own encoding) recurses once per level, so the state must never hold a tree
deeper than :attr:`~a2ui_stream.Limits.max_data_depth`; the layers that take values in
ask this function first, before anything recursive has touched the value. Also owns
:func:`size_within`, which counts the values of a tree within a budget, depth checked
on the way, so that a patch copying a subtree into itself pays for what it adds, and
:func:`text_depth_bound`, a bound read off a value's JSON text that spares the check.

Depth counts containers: a scalar nests 0 levels, ``[]`` and ``{}`` 1, ``[{"a": 1}]``
2. The first levels are walked by a short recursion, the fastest way through the small
values that are the common case (a component's props, a binding); below
:data:`_RECURSION` levels the walk goes on one level at a time, each level a few
comprehensions over its values at C speed, so it never takes more of the interpreter's
stack than that, and it stops as soon as the limit is passed.

Imports only the frozen containers of its own layer; does no I/O.
"""

from __future__ import annotations

import enum
import re
import sys
from itertools import chain
from typing import Any, Final

from a2ui_stream._wire.frozen import CONTAINERS, DICTS, LISTS

__all__ = ["Exceeded", "count_values", "deeper_than", "size_within", "text_depth_bound"]

_values = dict.values
_flatten = chain.from_iterable


def deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` arrays and objects deep.

    Args:
        value: a JSON value of dicts, lists and scalars. A subtree held in several
            places (a patch copied it) is walked once per place by the first, quick
            walk; past :data:`_VISITS` containers the level walk of :func:`size_within`
            decides instead, which walks each distinct container of a level once.
        limit: the deepest nesting allowed; 0 allows scalars only, a negative limit
            allows nothing.

    Returns:
        ``True`` when some path from the root crosses more than ``limit`` containers.
    """
    if limit < 0:
        return True
    left = _deeper(value, limit, _RECURSION, _VISITS)
    if left == _GAVE_UP:
        return size_within(value, depth=limit, nodes=_UNBOUNDED) is Exceeded.DEPTH
    return left == _DEEPER


def text_depth_bound(text: bytes, limit: int) -> int:
    """An upper bound on how deeply the values the JSON ``text`` spells nest.

    Exact up to ``limit`` levels: read off the text's brackets outside strings, where
    :func:`deeper_than` would walk the decoded value in Python, and a bound within the
    limit spares that walk. Every step is a scan in C: strings are cut out (escaped
    backslashes and quotes first, so that every quote left opens or closes one), then
    each pass deletes the innermost bracket pairs, one level a pass, ``limit + 1``
    passes at most. Text nesting deeper than that, or not JSON, gets the count of its
    opening brackets, which bounds the depth too (every container opens with one).

    Args:
        text: the JSON text of a value msgspec decoded.
        limit: the depth past which the exact figure is not needed.
    """
    opening = text.count(b"[") + text.count(b"{")
    if opening <= limit:
        return opening  # the common small value: two scans and done
    if b"\\" in text:
        text = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = text.translate(None, _NOT_MARKS)
    if marks.count(b'"') % 2:
        return opening  # not JSON: quotes do not pair
    brackets = _QUOTED.sub(b"", marks.replace(b'""', b"")).translate(_SQUARE)
    for depth in range(limit + 1):
        if not brackets:
            return depth
        brackets = brackets.replace(b"[]", b"")
    return opening


#: Every byte but the quote and the four brackets, deleted to leave the text's marks.
_NOT_MARKS: Final = bytes(set(range(256)) - set(b'"[]{}'))
#: A string's marks: the brackets it holds, between its quotes.
_QUOTED: Final = re.compile(rb'"[^"]*"')
#: Braces as square brackets: pairs of either kind are deleted alike.
_SQUARE: Final = bytes.maketrans(b"{}", b"[]")


#: Levels walked by recursion before the level-at-a-time walk takes over.
_RECURSION = 16
# The container types of a JSON value, plain and frozen; exact types, a check per value.
_DICTS, _LISTS, _CONTAINERS = DICTS, LISTS, CONTAINERS


#: Containers the recursive walk of :func:`deeper_than` visits before it gives up.
_VISITS: Final = 4096
#: What :func:`_deeper` returns when the value is deeper, and when it gave up.
_DEEPER: Final = -1
_GAVE_UP: Final = -2


def _deeper(value: Any, room: int, frames: int, visits: int) -> int:
    """Whether ``value`` needs more than ``room`` levels, recursing at most ``frames`` deep.

    Returns:
        The visits left when it does not, :data:`_DEEPER` when it does, or
        :data:`_GAVE_UP` once ``visits`` containers were walked without an answer.
    """
    kind = type(value)
    if kind in _DICTS:
        items: Any = value.values()
    elif kind in _LISTS:
        items = value
    else:
        return visits
    if room == 0:
        return _DEEPER
    visits -= 1
    if visits == 0:
        return _GAVE_UP
    if frames == 0:
        return _DEEPER if _deeper_by_levels(items, room - 1) else visits
    for item in items:
        if type(item) in _CONTAINERS:
            visits = _deeper(item, room - 1, frames - 1, visits)
            if visits < 0:
                return visits
    return visits


def _deeper_by_levels(items: Any, room: int) -> bool:
    """Whether any of ``items`` needs more than ``room`` levels, one level at a time."""
    # The items, in a list, are one level below it.
    return size_within(list(items), depth=room + 1, nodes=_UNBOUNDED) is Exceeded.DEPTH


_UNBOUNDED = sys.maxsize


class Exceeded(enum.Enum):
    """Which bound a value measured by :func:`size_within` went past."""

    DEPTH = "depth"
    NODES = "nodes"


def size_within(value: Any, *, depth: int, nodes: int) -> int | Exceeded:
    """How many values ``value`` holds, if it nests at most ``depth`` and holds at most ``nodes``.

    Values are counted as JSON writes them out: the value itself, and every member
    value and item inside it, containers and scalars alike (``{"a": [1, 2]}`` holds
    4). A subtree that appears in several places (a patch copied it) counts at each.

    The walk goes one level at a time, never recursing, and stops at the first level
    past either bound: a value far larger than the budget costs about the budget to
    refuse, whatever its size written out. A container held in several places of one
    level is walked once, with how many places it fills: a list copied into itself 20
    times holds a million values in 21 distinct lists, and costs those to count or to
    refuse, where a walk of every place would cost the million on every patch.

    Args:
        value: a JSON value of dicts, lists and scalars.
        depth: the deepest nesting allowed, as :func:`deeper_than` counts it.
        nodes: the most values allowed.

    Returns:
        The number of values, or the bound the walk went past first.
    """
    if type(value) not in _CONTAINERS:  # a scalar, as most patches write
        return Exceeded.DEPTH if depth < 0 else Exceeded.NODES if nodes < 1 else 1
    if nodes < 1:
        return Exceeded.NODES
    count = 1
    # The containers of one level, by identity: each with the places it fills there.
    level: dict[int, tuple[Any, int]] = {id(value): (value, 1)}
    dicts, containers = _DICTS, _CONTAINERS
    for levels in range(depth + 1):
        if levels == depth:
            return Exceeded.DEPTH  # a container at this level nests one more
        below: dict[int, tuple[Any, int]] = {}
        found = below.get
        for item, places in level.values():
            members: Any = item.values() if type(item) in dicts else item
            count += len(members) * places
            if count > nodes:  # before the members are walked, never after
                return Exceeded.NODES
            for member in members:
                if type(member) in containers:
                    seen = found(id(member))
                    below[id(member)] = (member, places if seen is None else seen[1] + places)
        if not below:
            return count
        level = below
    return Exceeded.DEPTH  # ``depth`` below 0


def count_values(value: Any) -> int:
    """How many values ``value`` holds, counted as :func:`size_within` counts them.

    For a value already known to be within the bounds in force (it is in the state);
    the walk is iterative all the same.
    """
    found = size_within(value, depth=_UNBOUNDED, nodes=_UNBOUNDED)
    return found if type(found) is int else _UNBOUNDED
