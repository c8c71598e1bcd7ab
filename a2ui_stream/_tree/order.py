"""Key order: the order JavaScript gives the keys of an object, for data placed in output.

Owns :func:`js_ordered`, which puts an object's integer-like keys first, and
:func:`js_items`, the items of one object in that order.

A JavaScript object lists its own keys that are array indexes (``"0"``, ``"7"``,
``"4294967294"``: a canonical decimal integer below 2**32 - 1) first, in ascending
numeric order, and every other key after them in the order it was added. So upstream's
client, which parses the agent's JSON into objects and prints the tree with
``JSON.stringify``, prints ``{"b":1,"2":2,"a":3,"1":4}`` as ``{"1":4,"2":2,"b":1,"a":3}``.
Python dicts keep insertion order alone. The element trees' own keys are names (none is
an index), so only data that reaches an element, an action's context and a function
call's arguments, or a value printed as JSON text inside a string, needs its order
changed; the state keeps keys in the order they arrived.

Must not import anything of the package but the frozen containers. Does no I/O.
"""

from __future__ import annotations

from operator import is_not, itemgetter
from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._wire.frozen import DICTS, LISTS, FrozenDict, FrozenList

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = ["is_array_index", "js_items", "js_ordered"]

#: The largest array index (ECMAScript: an integer index below 2**32 - 1).
_MAX_INDEX: Final = 2**32 - 2
_INDEX_DIGITS: Final = len(str(_MAX_INDEX))
#: A key's first character, ``""`` for the empty key: an index begins with a digit.
_FIRST = itemgetter(slice(0, 1))


def is_array_index(key: str) -> bool:
    """Whether JavaScript treats ``key`` as an array index (canonical, below 2**32 - 1)."""
    return (
        key.isdigit()
        and key.isascii()
        and (key == "0" or key[0] != "0")
        and len(key) <= _INDEX_DIGITS  # int() of a longer run of digits costs its length
        and int(key) <= _MAX_INDEX
    )


def _index_key(key: str) -> int:
    return int(key)


def _reordered(mapping: Mapping[str, Any]) -> list[str] | None:
    """``mapping``'s keys in JavaScript's order, or ``None`` when they are in it already."""
    if not any(map(str.isdigit, map(_FIRST, mapping))):  # in C: no key starts with a digit
        return None
    indexes: list[str] = []
    names: list[str] = []
    for key in mapping:
        (indexes if is_array_index(key) else names).append(key)
    if not indexes:
        return None
    keys = [*sorted(indexes, key=_index_key), *names]
    return None if keys == list(mapping) else keys


def js_items(mapping: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    """The items of ``mapping`` in JavaScript's key order (see the module docstring)."""
    keys = _reordered(mapping)
    return mapping.items() if keys is None else [(key, mapping[key]) for key in keys]


def js_ordered(value: Any, _done: dict[int, Any] | None = None) -> Any:
    """``value`` with the keys of every object in it in JavaScript's order.

    Args:
        value: a frozen JSON value (as output is); its nesting is bounded by the data
            depth limit, so the recursion is too.
        _done: the containers seen so far in this recursion, by identity: a subtree held
            in several places is looked at once and its answer shared.

    Returns:
        ``value`` itself when every object in it is in order already (nearly always);
        otherwise a frozen copy sharing every subtree that was.
    """
    kind = type(value)
    if kind not in DICTS and kind not in LISTS:
        return value
    done: dict[int, Any] = {} if _done is None else _done
    found = done.get(id(value))
    if found is not None:
        return found
    result: Any = value
    if kind in DICTS:
        keys = _reordered(value)
        pairs = [(key, js_ordered(value[key], done)) for key in (value if keys is None else keys)]
        if keys is not None or any(map(is_not, (inner for _, inner in pairs), value.values())):
            result = FrozenDict(pairs)
    else:
        items = [js_ordered(inner, done) for inner in value]
        if any(map(is_not, items, value)):
            result = FrozenList(items)
    done[id(value)] = result
    return result
