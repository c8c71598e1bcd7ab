"""How deeply a JSON value nests, measured without recursion.

Owns :func:`deeper_than`, the one check that keeps nesting the input decides out of the
state. Every walk of a JSON tree in the core (sharing, diffs, equality, conversion,
msgspec's own encoding) recurses once per level, so the state must never hold a tree
deeper than :attr:`~a2ui_stream.Limits.max_data_depth`; the layers that take values in
ask this function first, before anything recursive has touched the value.

Depth counts containers: a scalar nests 0 levels, ``[]`` and ``{}`` 1, ``[{"a": 1}]``
2. The walk goes one level at a time, and each level is a few comprehensions that run
over the level's values at C speed, so it never uses the interpreter's stack and stops
as soon as the limit is passed.

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
    if limit < 0:
        return True
    level = [value]
    # Level ``k`` holds every value below ``k`` containers: the value is deeper than
    # ``limit`` when level ``limit`` still holds a container.
    for _ in range(limit):
        dicts = [item for item in level if type(item) is dict]
        lists = [item for item in level if type(item) is list]
        if not dicts and not lists:
            return False
        level = [*_flatten(map(_values, dicts)), *_flatten(lists)]
    return any(type(item) is dict or type(item) is list for item in level)
