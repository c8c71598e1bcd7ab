"""JSON values as immutable trees: the RFC 6902 patch that turns one into another.

Owns :func:`diff`, for part updates sent as patches and for finding what changed in a
data model, and JSON's own equality (:func:`json_equal`). A diff skips any pair of
subtrees that are the same object, and passes over a wide container's unchanged
children in C, so it costs what changed rather than what exists.

Must not import: state, conversion or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_not, not_
from typing import Any

from a2ui_stream._tree.pointer import escape_token
from a2ui_stream._wire.frozen import grown_from

__all__ = ["diff", "json_equal"]

JSON = Any


def json_equal(left: JSON, right: JSON) -> bool:
    """Equality as JSON (RFC 6902 §4.6), pair by pair from a stack, never recursing.

    A patch's ``test`` compares so; a diff replaces a value it holds unequal so.
    """
    pending = [(left, right)]
    while pending:
        left, right = pending.pop()
        # JSON has no boolean/number overlap, but Python says True == 1; RFC 6902 §4.6
        # compares JSON types, so a bool only equals a bool.
        if isinstance(left, bool) or isinstance(right, bool):
            if type(left) is not type(right) or left != right:
                return False
        elif isinstance(left, dict) and isinstance(right, dict):
            if left.keys() != right.keys():
                return False
            pending.extend((value, right[key]) for key, value in left.items())
        elif isinstance(left, list) and isinstance(right, list):
            if len(left) != len(right):
                return False
            pending.extend(zip(left, right, strict=True))
        elif not (type(left) is type(right) and left == right) and not _both_numbers(left, right):
            return False
    return True


def _both_numbers(left: JSON, right: JSON) -> bool:
    return isinstance(left, int | float) and isinstance(right, int | float) and left == right


def diff(old: JSON, new: JSON) -> list[dict[str, Any]]:
    """Compute a JSON Patch that turns ``old`` into ``new``.

    Subtrees that are the same object are skipped without being read, so a diff between
    two element trees that share unchanged subtrees costs what changed. Objects are
    compared key by key; arrays position by position, with trailing additions and
    removals; anything else that differs is replaced whole.

    Args:
        old: the previous JSON value.
        new: the current JSON value.

    Returns:
        The list of operations (``add``, ``remove``, ``replace``); empty when equal.
    """
    operations: list[dict[str, Any]] = []
    _diff_into(operations, [], old, new)
    return operations


#: Containers up to this size are scanned by a Python loop: for a handful of children
#: it costs less than setting up the iterators of a scan in C.
_NARROW = 8
#: Scalars that compare as JSON compares them when both sides are of the one type.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _pointer(tokens: list[Any], last: Any = None) -> str:
    """The JSON Pointer of the path ``tokens`` (keys and indexes), and ``last`` if given.

    Built only for an operation written: the walk down keeps the tokens on a stack, so
    that a change deep in a tree costs no string at each level it passes.
    """
    steps = tokens if last is None else [*tokens, last]
    return "".join([f"/{escape_token(t)}" if type(t) is str else f"/{t}" for t in steps])


def _diff_into(operations: list[dict[str, Any]], tokens: list[Any], old: JSON, new: JSON) -> None:
    if old is new:
        return
    # Shared trees differ in a few children among many: a wide container's unchanged
    # children are passed over at C speed (``compress`` over ``is_not``), so it costs a
    # call per changed child, not a Python step per child.
    if isinstance(old, dict) and isinstance(new, dict):
        if len(old) > _NARROW:
            _diff_wide(operations, tokens, old, new)
            return
        kept = 0  # old keys still in new: when all of new's, nothing was added
        for key, value in old.items():
            after = new.get(key, _ABSENT)
            if after is _ABSENT:
                operations.append({"op": "remove", "path": _pointer(tokens, key)})
                continue
            kept += 1
            if after is not value:
                tokens.append(key)
                _diff_into(operations, tokens, value, after)
                tokens.pop()
        if kept < len(new):
            operations.extend(
                {"op": "add", "path": _pointer(tokens, key), "value": value}
                for key, value in new.items()
                if key not in old
            )
        return
    if isinstance(old, list) and isinstance(new, list):
        shared = min(len(old), len(new))
        # A list grown at its end (a streamed list) keeps every shared item: known
        # without reading them when the list was grown from the old one.
        if not (len(new) > len(old) and grown_from(new, old)):
            positions = (
                compress(range(shared), map(is_not, old, new))
                if shared > _NARROW
                else range(shared)
            )
            for index in positions:
                if old[index] is not new[index]:
                    tokens.append(index)
                    _diff_into(operations, tokens, old[index], new[index])
                    tokens.pop()
        if len(new) > shared:
            operations.extend(
                {"op": "add", "path": _pointer(tokens, index), "value": new[index]}
                for index in range(shared, len(new))
            )
        elif len(old) > shared:
            # Remove from the end so earlier indices stay valid while the patch applies.
            operations.extend(
                {"op": "remove", "path": _pointer(tokens, index)}
                for index in range(len(old) - 1, shared - 1, -1)
            )
        return
    kind = type(old)
    # Of one scalar type, Python's equality is JSON's: no need for the general compare.
    same = old == new if kind is type(new) and kind in _SCALARS else json_equal(old, new)
    if not same:
        operations.append({"op": "replace", "path": _pointer(tokens), "value": new})


def _diff_wide(
    operations: list[dict[str, Any]], tokens: list[Any], old: dict[str, Any], new: dict[str, Any]
) -> None:
    """:func:`_diff_into` for a wide object, its unchanged members passed over in C.

    The members whose value changed or left are found by ``compress`` over ``is_not``,
    the ones that came by ``compress`` over ``in``: a wide object given one member more
    (a data model growing a key at a time) costs no Python step per member. The
    operations come out in the narrow loop's order: removals and changes in the old
    order, then additions in the new.
    """
    same_keys = old.keys() == new.keys()
    values = map(new.__getitem__, old) if same_keys else map(new.get, old, repeat(_ABSENT))
    left = 0
    for key in list(compress(old, map(is_not, old.values(), values))):
        after = new.get(key, _ABSENT)
        if after is _ABSENT:
            operations.append({"op": "remove", "path": _pointer(tokens, key)})
            left += 1
            continue
        tokens.append(key)
        _diff_into(operations, tokens, old[key], after)
        tokens.pop()
    if len(new) > len(old) - left:
        operations.extend(
            {"op": "add", "path": _pointer(tokens, key), "value": new[key]}
            for key in compress(new, map(not_, map(old.__contains__, new)))
        )


_ABSENT = object()
