"""How deeply a JSON value nests, measured without recursion.

Owns :func:`deeper_than`, the one check that keeps nesting the input decides out of the
state. Every walk of a JSON tree in the core (sharing, diffs, equality, conversion,
msgspec's own encoding) recurses once per level, so the state must never hold a tree
deeper than :attr:`~a2ui_stream.Limits.max_data_depth`; the layers that take values in
ask this function first, before anything recursive has touched the value.

Depth counts containers: a scalar nests 0 levels, ``[]`` and ``{}`` 1, ``[{"a": 1}]``
2. The first levels are walked by a short recursion, the fastest way through the small
values that are the common case (a component's props, a binding); below
:data:`_RECURSION` levels the walk goes on one level at a time, each level a few
comprehensions over its values at C speed, so it never takes more of the interpreter's
stack than that, and it stops as soon as the limit is passed.

Imports nothing from the package; does no I/O.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

__all__ = ["deeper_than"]

_values = dict.values
_flatten = chain.from_iterable


def deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` arrays and objects deep.

    Args:
        value: a JSON value of dicts, lists and scalars (a tree: shared subtrees are
            walked once per place they appear).
        limit: the deepest nesting allowed; 0 allows scalars only, a negative limit
            allows nothing.

    Returns:
        ``True`` when some path from the root crosses more than ``limit`` containers.
    """
    return limit < 0 or _deeper(value, limit, _RECURSION)


#: Levels walked by recursion before the level-at-a-time walk takes over.
_RECURSION = 16


def _deeper(value: Any, room: int, frames: int) -> bool:
    """Whether ``value`` needs more than ``room`` levels, recursing at most ``frames`` deep."""
    kind = type(value)
    if kind is dict:
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return False
    if room == 0:
        return True
    if frames == 0:
        return _deeper_by_levels(items, room - 1)
    for item in items:
        kind = type(item)
        if (kind is dict or kind is list) and _deeper(item, room - 1, frames - 1):
            return True
    return False


def _deeper_by_levels(items: Any, room: int) -> bool:
    """Whether any of ``items`` needs more than ``room`` levels, one level at a time."""
    level = list(items)
    # Level ``k`` holds every value below ``k`` more containers: deeper than ``room``
    # when level ``room`` still holds a container.
    for _ in range(room):
        dicts = [item for item in level if type(item) is dict]
        lists = [item for item in level if type(item) is list]
        if not dicts and not lists:
            return False
        level = [*_flatten(map(_values, dicts)), *_flatten(lists)]
    return any(type(item) is dict or type(item) is list for item in level)
