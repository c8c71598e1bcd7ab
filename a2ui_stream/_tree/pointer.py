"""JSON Pointer (RFC 6901) over immutable JSON trees, with A2UI's write rules.

Owns parsing pointers and the copy-on-write get/set/delete/merge the surface state
uses for ``updateDataModel``. Every write returns a new tree that shares every
untouched subtree with the old one (so an ``is`` check finds what did not change),
the containers it copied on the way frozen; nothing is ever mutated. Missing values
are ``msgspec.UNSET``, the same "absent" the rest of the package uses, so absent and
``null`` stay apart.

Write rules beyond RFC 6901 (A2UI v0.9 spec, reference a2ui-protocol §1.1; assistant-ui
reducer, reference assistant-ui-converter §1e): missing parents are created (``[]``
when the next token is an array index or ``-``, else ``{}``); a primitive in the way is
replaced by ``{}``; ``-`` appends; an index past the end leaves the slots it skips
empty, holding :data:`~a2ui_stream._tree.gaps.GAP` (JavaScript's holes: absent when read,
``null`` when printed); deleting an array element keeps the length and leaves a gap
(the spec: "set that index to undefined, length preserved"). :func:`write` and
:func:`remove` also say how many gaps they opened, for the surface's size estimate and
its count of gaps.

The ``jsonpointer`` package is not a dependency: its ``unescape`` accepts bad escapes
such as ``~2`` silently and its ``JsonPointer.set`` mutates in place, the two things
this module must not do, and the escape rules are three lines here. The tests use it
as an independent reader to check ours against.

Bad pointers raise :class:`PointerError`, which the surface module turns into a
diagnostic in one place; it never leaves the core. Imports only
:mod:`~a2ui_stream._tree.gaps` and the frozen types from the package; does no I/O, no logging.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from msgspec import UNSET, UnsetType

from a2ui_stream._tree.gaps import GAP
from a2ui_stream._wire.frozen import DICTS, LISTS, FrozenDict, FrozenList, copied, fill

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "MAX_ARRAY_GAP",
    "PointerError",
    "delete_value",
    "escape_token",
    "get",
    "merge_value",
    "parse",
    "parse_pointer",
    "remove",
    "set_value",
    "write",
]

#: How far past the end of an array a write may land. The slots skipped are gaps, one
#: list entry each; the bound keeps a hostile index ("/items/999999999") from
#: allocating a huge list before any size limit could see it.
MAX_ARRAY_GAP = 10_000

#: An array index per RFC 6901 §4: ``0`` or digits without a leading zero.
_INDEX = re.compile(r"0|[1-9][0-9]*")
#: The token that names the slot after an array's last element (RFC 6901 §4).
_APPEND = "-"
#: ``~`` not followed by ``0`` or ``1`` is an error (RFC 6901 §3).
_BAD_ESCAPE = re.compile(r"~(?![01])")


class PointerError(ValueError):
    """A pointer that is not valid JSON Pointer, or that cannot be applied to the tree."""


def parse(pointer: str, *, escapes: bool = True) -> tuple[str, ...]:
    """Split a JSON Pointer into its unescaped reference tokens.

    Args:
        pointer: ``""`` (the whole document) or a string starting with ``/``.
        escapes: refuse a ``~`` followed by neither ``0`` nor ``1`` (RFC 6901 §3);
            ``False`` keeps it as it is, as upstream's client reads a data path (a
            write to ``/~2`` sets the key ``"~2"``).

    Returns:
        The tokens, ``~1`` decoded to ``/`` and then ``~0`` to ``~`` (RFC 6901 §4 order).

    Raises:
        PointerError: the pointer does not start with ``/``, or has a bad ``~`` escape
            and ``escapes`` is true.
    """
    if not pointer:
        return ()
    if pointer[0] != "/":
        raise PointerError(f"JSON Pointer {pointer!r} must be empty or start with '/'")
    if "~" not in pointer:
        return tuple(pointer[1:].split("/"))
    if escapes and _BAD_ESCAPE.search(pointer):
        raise PointerError(f"JSON Pointer {pointer!r} has a '~' not followed by '0' or '1'")
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/"))


def parse_pointer(pointer: str) -> list[str]:
    """Split a JSON Pointer into tokens, as a list (for callers that extend it).

    Args:
        pointer: ``""`` or a string starting with ``/``.

    Returns:
        The unescaped tokens, as :func:`parse` gives them.

    Raises:
        PointerError: as :func:`parse`.
    """
    return list(parse(pointer))


def escape_token(token: str) -> str:
    """Escape one reference token for use in a pointer (``~`` first, then ``/``).

    Args:
        token: an object key or array index.

    Returns:
        The token with ``~`` as ``~0`` and ``/`` as ``~1`` (RFC 6901 §3).
    """
    return token.replace("~", "~0").replace("/", "~1")


def _index(token: str) -> int | None:
    """The array index a token names, or ``None`` when it is not one."""
    return int(token) if _INDEX.fullmatch(token) else None


def get(doc: Any, tokens: tuple[str, ...]) -> Any | UnsetType:
    """Look up the value at a parsed pointer.

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer.

    Returns:
        The value, or ``UNSET`` when any step is missing (no such key, index out of
        range or not an index, ``-``, or a primitive in the way). A gap is returned as
        :data:`~a2ui_stream._tree.gaps.GAP`: it is a slot, which a size counts.
    """
    node = doc
    for token in tokens:
        if type(node) in DICTS:
            node = node.get(token, UNSET)
        elif type(node) in LISTS:
            position = _index(token)
            if position is None or position >= len(node):
                return UNSET
            node = node[position]
        else:
            return UNSET
    return node


def set_value(doc: Any, tokens: tuple[str, ...], value: Any) -> Any:
    """Write a value at a parsed pointer, copying only the path to it.

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer; empty replaces the whole document.
        value: the value to store (shared, not copied).

    Returns:
        The new tree. Siblings along the path keep their identity.

    Raises:
        PointerError: as :func:`write`.
    """
    return write(doc, tokens, value)[0]


def write(doc: Any, tokens: tuple[str, ...], value: Any) -> tuple[Any, int]:
    """:func:`set_value`, also saying how many gaps the write opened.

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer; empty replaces the whole document.
        value: the value to store (shared, not copied: frozen, if the tree must be).

    Returns:
        The new tree, its copied containers frozen, and the number of list slots
        it skipped (each now a gap) less the gaps it wrote through (each now a
        container). The slot written is not counted: it held the value :func:`get`
        gives, gap or not.

    Raises:
        PointerError: a token that is not an index (nor ``-``) meets an array, or an
            index lands more than :data:`MAX_ARRAY_GAP` past the end.
    """
    if not tokens:
        return value, 0
    # Down the path, copying each container written through (a missing parent becomes
    # [] or {} by the token it must hold, a gap counting as missing; a primitive in the
    # way is replaced by {}, upstream's rule, reference assistant-ui-converter §1e);
    # then up, linking each copy to the one below it. A loop, not recursion: a path's
    # length is the input's.
    copies: list[tuple[FrozenList | FrozenDict, int | str]] = []
    opened = 0
    # The document itself, missing or not a container, becomes an object whatever the
    # first token (upstream's rule for the container written into); only a child missing
    # below it is made a list by an index.
    node = doc if type(doc) in LISTS or type(doc) in DICTS else {}
    for token in tokens:
        if type(node) not in LISTS and type(node) not in DICTS:
            if node is GAP:
                opened -= 1
            missing = node is UNSET or node is None or node is GAP
            node = [] if missing and _takes_index(token) else {}
        if type(node) in LISTS:
            found = len(node) if token == _APPEND else _index(token)
            if found is None:
                raise PointerError(f"token {token!r} is not an array index")
            if found - len(node) > MAX_ARRAY_GAP:
                raise PointerError(f"index {found} is too far past the array's end")
            items = FrozenList(node)  # not yet shared: filled here and on the way up
            if found >= len(items):
                skipped = found - len(items)
                if skipped:
                    list.extend(items, [GAP] * skipped)
                    opened += skipped
                list.append(items, UNSET)  # the slot written
                node = UNSET
            else:
                node = items[found]
            copies.append((items, found))
        else:
            members = FrozenDict(node)
            node = members.get(token, UNSET)
            copies.append((members, token))
    written = value
    for container, key in reversed(copies):
        fill(container, key, written)  # an int key goes with a list
        written = container
    return written, opened


def _takes_index(token: str) -> bool:
    return token == _APPEND or _index(token) is not None


def delete_value(doc: Any, tokens: tuple[str, ...]) -> Any | UnsetType:
    """Remove the value at a parsed pointer.

    An object key is removed; an array element becomes a gap, so the length and the
    other indices stay as they were (A2UI spec: "set that index to undefined, length
    preserved"). A missing target, a gap included, leaves the tree unchanged (the same
    object is returned).

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer; empty deletes the whole document.

    Returns:
        The new tree, ``UNSET`` when the whole document was deleted.
    """
    return remove(doc, tokens)[0]


def remove(doc: Any, tokens: tuple[str, ...]) -> tuple[Any | UnsetType, int]:
    """:func:`delete_value`, also saying how many gaps it opened (0 or 1).

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer; empty deletes the whole document.

    Returns:
        The new tree (``UNSET`` when the whole document was deleted), its copied
        containers frozen, and 1 when an
        array element became a gap, else 0.
    """
    if not tokens:
        return UNSET, 0
    # Find the target first: a step that misses leaves the whole tree as it was.
    path: list[tuple[Any, int | str]] = []
    node = doc
    for token in tokens:
        key: int | str | None
        if type(node) in DICTS:
            key = token if token in node else None
        elif type(node) in LISTS:
            key = _index(token)
            if key is not None and (key >= len(node) or node[key] is GAP):
                key = None
        else:
            key = None
        if key is None:
            return doc, 0
        path.append((node, key))
        node = node[key]
    parent, key = path.pop()
    if type(parent) in DICTS:
        written: Any = FrozenDict({name: item for name, item in parent.items() if name != key})
    else:
        written = copied(parent)
        fill(written, key, GAP)
    for container, step in reversed(path):
        copy = copied(container)
        fill(copy, step, written)
        written = copy
    return written, 0 if type(parent) in DICTS else 1


def merge_value(doc: Any, tokens: tuple[str, ...], values: Mapping[str, Any]) -> Any:
    """Set each key of ``values`` under the object at a parsed pointer (v0.8 ``contents``).

    Keys not named in ``values`` keep their values; a target that is not an object
    (missing, primitive, array) is replaced by an object holding just ``values``.

    Args:
        doc: the JSON tree (``UNSET`` for no document).
        tokens: the parsed pointer of the object to merge into.
        values: the keys and values to set.

    Returns:
        The new tree.

    Raises:
        PointerError: as :func:`set_value`, for the path to the target.
    """
    target: Any = get(doc, tokens)
    merged = FrozenDict({**target, **values} if type(target) in DICTS else values)
    return set_value(doc, tokens, merged)
