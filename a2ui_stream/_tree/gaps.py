"""Gaps: the slots of a data-model list that no write filled, as JavaScript's holes.

Owns :data:`GAP`, the value a list of the data model holds in a slot a write skipped
(an index written past the end, or an element deleted), :func:`closed`, which leaves
gaps out of a value placed in an element, and :func:`count`.

A JavaScript client writing ``/l/3`` into a list of one item leaves holes at 1 and 2:
they read as ``undefined`` (absent, unlike ``null``), ``JSON.stringify`` prints them as
``null``, and the length counts them (reference assistant-ui-converter §1e, §1f). So a
gap is a value of its own: ``==`` and ``is`` tell it from ``None``, so a diff, a
shared subtree or a cached read sees a gap filled with ``null`` as a change, and it is
an :class:`enum.Enum` member whose value is ``None``, so every msgspec encoder prints
it as ``null`` (a size measured, formatString's JSON text, ``to_builtins``) with no
hook, and it pickles and copies as itself. Reads turn it into "absent"
(:func:`~a2ui_stream._convert.bindings.walk`); an element never holds one
(:func:`closed`). A surface counts the gaps of its model
(:attr:`~a2ui_stream._state.surface.Surface.gaps`, kept by each write with
:func:`count` of what it replaced), so that a model without gaps pays nothing and one
whose gaps were all filled pays nothing again.

Must not import anything of the package. Does no I/O.
"""

from __future__ import annotations

import enum
from operator import is_
from typing import Any, Final

from a2ui_stream._wire.frozen import CONTAINERS, DICTS, LISTS, FrozenDict, FrozenList

__all__ = ["GAP", "closed", "count"]


class _Gap(enum.Enum):
    """The one gap value; see the module docstring."""

    GAP = None

    def __repr__(self) -> str:
        return "GAP"

    def __bool__(self) -> bool:
        """Falsy, as ``undefined`` is."""
        return False


#: A slot of a data-model list that no write filled.
GAP: Final = _Gap.GAP


def closed(value: Any, _done: dict[int, Any] | None = None) -> Any:
    """``value`` with every gap in its lists left out, the lists closing up.

    What upstream's converter does to a list it places in an action's context: it
    materialises the value element by element and drops what reads as ``undefined``
    (reference assistant-ui-converter §1f, step 7), so ``[1, hole, 3]`` becomes
    ``[1, 3]``. Containers holding no gap are kept as they are (frozen ones too); a
    container rebuilt keeps its type. A container held in several places (a patch
    copied a list into itself) is closed once, and the result shared.

    Args:
        value: a JSON value, possibly holding data-model lists; its nesting is bounded
            by the surface's data depth limit.
        _done: the containers closed so far in this recursion, by identity.

    Returns:
        ``value`` itself when it holds no gap; otherwise a copy without them.
    """
    is_list = isinstance(value, list)
    if not is_list and not isinstance(value, dict):
        return value
    done = {} if _done is None else _done
    found = done.get(id(value))
    if found is not None:
        return found
    if is_list:
        items = [closed(item, done) for item in value if item is not GAP]
        if len(items) == len(value) and all(map(is_, items, value)):
            made: Any = value
        else:
            made = items if type(value) is list else FrozenList(items)
    else:
        members = {key: closed(item, done) for key, item in value.items()}
        if all(members[key] is item for key, item in value.items()):
            made = value
        else:
            made = members if type(value) is dict else FrozenDict(members)
    done[id(value)] = made
    return made


def count(value: Any) -> int:
    """How many gaps ``value`` holds, at any depth (a gap itself counts one).

    Args:
        value: a JSON value whose nesting the surface's data depth limit bounds.

    Returns:
        The number of gaps in it.
    """
    if value is GAP:
        return 1
    kind = type(value)
    if kind in LISTS:
        return sum(count(item) for item in value if type(item) in CONTAINERS or item is GAP)
    if kind in DICTS:
        return sum(count(item) for item in value.values() if type(item) in CONTAINERS)
    return 0
