"""JSON values as immutable trees: RFC 6902 patches applied.

Owns ``apply_patch`` for ``ACTIVITY_DELTA`` events, and what a patch says of the places
it wrote (:func:`written_paths`, :class:`DataChange`). Values are JSON (dicts, lists,
scalars) never changed in place: applying copies only the containers along each
changed path, so unchanged subtrees keep their identity, and the copies and the values
written are frozen, as the state keeps them. Computing a patch is ``_tree.diff``'s;
giving a value decoded afresh the identity of the equal parts of the previous one is
``_tree.share``'s.

Shared identity has a cost of its own: a ``copy`` of a value into itself doubles the
document written out while adding one reference, so 24 copies make 16 million values
that every later walk (size checks, encoding, conversion) pays for in full. A patch
applied with a budget (:func:`apply_patch_within`) keeps count of the values the
document holds, paying for each operation what it writes and removes, and refuses an
operation that would grow it past the budget.

Must not import: state, conversion or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeAlias

from a2ui_stream._tree.depth import Exceeded, deeper_than, size_within
from a2ui_stream._tree.diff import json_equal
from a2ui_stream._tree.pointer import PointerError, parse, parse_pointer
from a2ui_stream._wire.frozen import (
    DICTS,
    copied,
    fill,
    freeze,
)

__all__ = [
    "DataChange",
    "PatchDepthError",
    "PatchError",
    "PatchSizeError",
    "apply_patch",
    "apply_patch_within",
    "outermost",
    "written_paths",
]

JSON: TypeAlias = Any
"""A decoded JSON value."""


class DataChange(NamedTuple):
    """A claim that ``after`` differs from ``before`` only at ``paths``.

    Read off a patch, it spares the later stages an identity diff of two wide trees,
    which costs a step per child of every container on the changed path. Whoever uses
    it checks ``before`` and ``after`` by identity first, so a claim about other values
    is ignored rather than trusted.

    Attributes:
        before: the value before the change.
        after: the value after it, sharing every subtree off ``paths``.
        paths: the changed locations as reference tokens, none inside another.
        kinds: for each path, ``"replace"``, ``"add"`` (absent before) or ``"remove"``
            (absent after); empty when every path was replaced.
    """

    before: JSON
    after: JSON
    paths: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...] = ()


class PatchError(ValueError):
    """A patch could not be applied; ``index`` names the failing operation."""

    def __init__(self, index: int, reason: str) -> None:
        """Record which operation failed and why.

        Args:
            index: 0-based position of the failing operation in the patch.
            reason: what was wrong, in one clause.
        """
        super().__init__(f"patch operation {index}: {reason}")
        self.index = index
        self.reason = reason


class PatchDepthError(PatchError):
    """An operation would nest the document deeper than the depth it was given."""


class PatchSizeError(PatchError):
    """An operation would make the document hold more values than it was allowed."""


def apply_patch(document: JSON, patch: Sequence[Any], *, max_depth: int | None = None) -> JSON:
    """Apply an RFC 6902 patch, returning a new document; ``document`` is not changed.

    The patch is atomic: if any operation fails, nothing is returned but the error.

    Args:
        document: the JSON value to patch.
        patch: the list of operation objects.
        max_depth: the deepest nesting a value written may reach, counted from the
            document's root with the segments of its path (``None``: no bound). Each
            operation stays within it, so repeated patches cannot nest the document
            ever deeper.

    Returns:
        The patched document, sharing every untouched subtree with ``document``; the
        containers it copied and the values it wrote are frozen.

    Raises:
        PatchDepthError: an ``add``, ``replace``, ``copy`` or ``move`` would nest deeper
            than ``max_depth``.
        PatchError: an operation is malformed, names a missing path, or a ``test`` fails.
    """
    return _apply(document, patch, _Bounds(max_depth))


def apply_patch_within(
    document: JSON,
    patch: Sequence[Any],
    *,
    nodes: int,
    max_nodes: int,
    max_depth: int | None = None,
) -> tuple[JSON, int]:
    """Apply a patch as :func:`apply_patch` does, keeping count of the values written out.

    Values are counted as :func:`~a2ui_stream._tree.depth.size_within` counts them: a
    subtree the document holds in several places (a ``copy`` put it there) counts at
    each. An operation pays for what it writes (a copied subtree is walked only as far
    as the budget left) and for what it removes or replaces; never for the rest of the
    document, so a patch costs what it changes, whatever the document's size.

    Args:
        document: the JSON value to patch.
        patch: the list of operation objects.
        nodes: how many values ``document`` holds.
        max_nodes: the most values the document may hold after each operation. An
            operation that would grow it past them fails; a document that already
            holds more (it came whole, from a snapshot) takes the operations that do
            not grow it.
        max_depth: as for :func:`apply_patch`.

    Returns:
        The patched document, and how many values it holds.

    Raises:
        PatchSizeError: an operation would grow the document past ``max_nodes``.
        PatchDepthError: see :func:`apply_patch`.
        PatchError: see :func:`apply_patch`.
    """
    bounds = _Bounds(max_depth, nodes, max_nodes)
    return _apply(document, patch, bounds), bounds.nodes


def _apply(document: JSON, patch: Sequence[Any], bounds: _Bounds) -> JSON:
    if not isinstance(patch, list | tuple):
        raise PatchError(0, "a patch must be an array of operations")
    last = len(patch) - 1
    for index, operation in enumerate(patch):
        if type(operation) not in DICTS and not isinstance(operation, Mapping):  # ABCs cost
            raise PatchError(index, "an operation must be an object")
        name = operation.get("op")
        handler = _OPERATIONS.get(name) if isinstance(name, str) else None
        if handler is None:
            raise PatchError(index, f"unknown op {name!r}")
        bounds.more = index < last
        bounds.start()
        try:
            document = handler(document, operation, bounds)
        except _TooDeepError as failure:
            raise PatchDepthError(index, str(failure)) from None
        except _TooLargeError as failure:
            raise PatchSizeError(index, str(failure)) from None
        except _OperationError as failure:
            raise PatchError(index, str(failure)) from None
        except PointerError as error:
            raise PatchError(index, f"bad pointer: {error}") from None
    return document


#: Beyond this many operations a claim costs more to check than the diff it spares.
_MAX_WRITES = 256
#: The operations that write one place, and do nothing else.
_ONE_PLACE = frozenset({"replace", "add", "remove"})


def written_paths(patch: Sequence[Any]) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """Where an applied patch wrote, and how: what a claim about its change is made of.

    ``replace``, ``add`` and ``remove`` each change one place (an ``add`` or ``remove``
    in an array shifts the items after it too, which the caller must rule out);
    ``test`` changes nothing. A ``move`` or ``copy`` touches two places, and makes the
    answer ``None``.

    Args:
        patch: a patch that :func:`apply_patch` accepted.

    Returns:
        ``(op, tokens)`` for each operation that wrote, in the patch's order; ``None``
        when one did more, or the patch is too long for a claim to pay.
    """
    if len(patch) > _MAX_WRITES:
        return None
    writes: list[tuple[str, tuple[str, ...]]] = []
    for operation in patch:
        mapping = type(operation) in DICTS or isinstance(operation, Mapping)  # ABCs cost
        name = operation.get("op") if mapping else None
        if name == "test":
            continue
        pointer = operation.get("path") if name in _ONE_PLACE else None
        if not isinstance(pointer, str):
            return None
        try:
            writes.append((str(name), parse(pointer)))
        except PointerError:
            return None
    return tuple(writes)


def outermost(paths: Iterable[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """``paths`` without any inside another (the outer one covers it), shortest first."""
    kept: list[tuple[str, ...]] = []
    for path in sorted(paths, key=len):
        if not any(path[: len(outer)] == outer for outer in kept):
            kept.append(path)
    return tuple(kept)


class _OperationError(Exception):
    """Internal: one operation failed; converted to PatchError with its index."""


class _TooDeepError(_OperationError):
    """Internal: one operation would write past the depth bound."""


class _TooLargeError(_OperationError):
    """Internal: one operation would grow the document past its values."""


_UNBOUNDED = sys.maxsize
_NESTS_PAST = "the value, written at its path, would nest past {} levels"


class _Bounds:
    """What one patch may do to its document: how deep it may write, how much it may hold.

    When ``counting`` (:func:`apply_patch_within`), ``nodes`` is kept equal to the
    values the document holds, operation by operation. ``fresh`` holds the containers
    this patch copied, by id: nothing outside the patch has seen them, so a later
    operation of the same patch changes them in place instead of copying them again.
    (Two operations appending to one list, as an agent streaming a component does,
    copy it once.)
    """

    __slots__ = ("ceiling", "counting", "fresh", "limit", "more", "nodes", "room")

    def __init__(self, room: int | None, nodes: int | None = None, limit: int = 0) -> None:
        self.room = room
        self.counting = nodes is not None
        self.nodes = nodes or 0
        self.limit = limit
        self.ceiling = limit
        self.fresh: dict[int, Any] = {}
        #: Whether another operation of the patch follows the current one.
        self.more = True

    def own(self, container: Any) -> Any:
        """``container`` to change: itself when this patch made it, else its frozen copy.

        The copy is filled through the base type's methods until the patch ends; no
        one else holds it before then.
        """
        fresh = self.fresh
        if fresh and id(container) in fresh:
            return container
        copy = copied(container)
        if self.more:  # only a later operation of this patch can find it
            fresh[id(copy)] = copy  # held, so that its id names no other container
        return copy

    def share(self) -> None:
        """Forget the containers made: a ``copy`` or ``move`` may put one in two places."""
        self.fresh.clear()

    def start(self) -> None:
        """Begin an operation: it may not leave the document larger than the limit or now."""
        self.ceiling = max(self.limit, self.nodes)

    def reach(self, tokens: Sequence[str]) -> None:
        """Refuse a write at ``tokens`` when the path alone goes past the depth.

        Asked before the path is walked: a path too long for the limit is refused as
        too deep whether or not its parents exist (a write there could only deepen
        the document), and costs its length, never a walk.
        """
        room = self.room
        if room is not None and len(tokens) > room:
            raise _TooDeepError(f"a path of {len(tokens)} segments goes past {room} levels")

    def admit(self, tokens: Sequence[str], value: JSON, *, counted: bool = True) -> None:
        """Refuse ``value`` written at ``tokens`` past the depth, or past the values left.

        The path has passed :meth:`reach`. ``counted=False``: the value is already in
        the document (a ``move``), and only its new depth is checked.
        """
        room = self.room
        if not (self.counting and counted):
            if room is not None and deeper_than(value, room - len(tokens)):
                raise _TooDeepError(_NESTS_PAST.format(room))
            return
        depth = _UNBOUNDED if room is None else room - len(tokens)
        found = size_within(value, depth=depth, nodes=self.ceiling - self.nodes)
        if found is Exceeded.DEPTH:
            raise _TooDeepError(_NESTS_PAST.format(room))
        if found is Exceeded.NODES:
            raise _TooLargeError(
                f"the value written would make the document hold more than {self.ceiling:,} values"
            )
        self.nodes += found

    def release(self, value: JSON) -> None:
        """Count out a value the operation removes or replaces."""
        if self.counting:
            found = size_within(value, depth=_UNBOUNDED, nodes=self.nodes)
            # A document holds its values: anything else is a miscount, kept safe.
            self.nodes -= found if type(found) is int else self.nodes

    def clear(self) -> None:
        """Count out the whole document, which is being replaced."""
        self.nodes = 0


def _tokens(operation: Mapping[str, Any], key: str) -> list[str]:
    pointer = operation.get(key)
    if not isinstance(pointer, str):
        raise _OperationError(f"{key!r} must be a JSON Pointer string")
    return parse_pointer(pointer)


def _value(operation: Mapping[str, Any]) -> JSON:
    if "value" not in operation:
        raise _OperationError("'value' is required")
    return freeze(operation["value"])  # kept in the document: frozen, once


def _array_index(container: list[Any], token: str, *, allow_end: bool) -> int:
    if token == "-" and allow_end:  # noqa: S105 - the RFC 6901 end-of-array token
        return len(container)
    # ``isascii``: ``isdigit`` also takes other scripts' digits (Arabic-Indic, "²"), which
    # RFC 6901's ``0`` to ``9`` are not, and ``int`` reads some and refuses others.
    if not (token.isdigit() and token.isascii()) or (len(token) > 1 and token[0] == "0"):
        raise _OperationError(f"{token!r} is not an array index")
    index = int(token)
    limit = len(container) if allow_end else len(container) - 1
    if index > limit:
        raise _OperationError(f"index {index} is out of range")
    return index


def _get(document: JSON, tokens: Sequence[str]) -> JSON:
    node = document
    for token in tokens:
        if isinstance(node, dict):
            if token not in node:
                raise _OperationError(f"member {token!r} does not exist")
            node = node[token]
        elif isinstance(node, list):
            node = node[_array_index(node, token, allow_end=False)]
        else:
            raise _OperationError(f"cannot descend into a {type(node).__name__} at {token!r}")
    return node


def _edit(
    document: JSON,
    tokens: Sequence[str],
    change: Callable[[JSON, str], JSON],
    own: Callable[[Any], Any],
) -> JSON:
    """Copy the containers along ``tokens[:-1]`` and let ``change`` rebuild the last one.

    ``own`` gives the copy of a container to change (see :meth:`_Bounds.own`). A loop,
    not recursion: the path's length is the input's to choose.
    """
    if not tokens:
        raise _OperationError("the root has no parent")
    parents: list[tuple[dict[str, Any] | list[Any], int | str]] = []
    node = document
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise _OperationError(f"member {token!r} does not exist")
            parents.append((node, token))
            node = node[token]
        elif isinstance(node, list):
            index = _array_index(node, token, allow_end=False)
            parents.append((node, index))
            node = node[index]
        else:
            raise _OperationError(f"cannot descend into a {type(node).__name__} at {token!r}")
    written = change(node, tokens[-1])
    for parent, key in reversed(parents):
        container = own(parent)
        fill(container, key, written)  # an int key goes with a list
        written = container
    return written


def _add_to(
    value: JSON, tokens: Sequence[str], bounds: _Bounds, *, counted: bool = True
) -> Callable[[JSON, str], JSON]:
    def change(parent: JSON, token: str) -> JSON:
        if isinstance(parent, dict):
            if token in parent:  # an add to an existing member replaces it
                bounds.release(parent[token])
            bounds.admit(tokens, value, counted=counted)
            copy = bounds.own(parent)
            dict.__setitem__(copy, token, value)
            return copy
        if isinstance(parent, list):
            index = _array_index(parent, token, allow_end=True)
            bounds.admit(tokens, value, counted=counted)
            items = bounds.own(parent)  # one copy, then a move of the items after ``index``
            list.insert(items, index, value)
            return items
        raise _OperationError(f"cannot add a member to a {type(parent).__name__}")

    return change


def _replace_in(value: JSON, tokens: Sequence[str], bounds: _Bounds) -> Callable[[JSON, str], JSON]:
    def change(parent: JSON, token: str) -> JSON:
        if isinstance(parent, dict):
            if token not in parent:
                raise _OperationError(f"member {token!r} does not exist")
            bounds.release(parent[token])
            bounds.admit(tokens, value)
            copy = bounds.own(parent)
            dict.__setitem__(copy, token, value)
            return copy
        if isinstance(parent, list):
            index = _array_index(parent, token, allow_end=False)
            bounds.release(parent[index])
            bounds.admit(tokens, value)
            items = bounds.own(parent)
            list.__setitem__(items, index, value)
            return items
        raise _OperationError(f"cannot replace inside a {type(parent).__name__}")

    return change


def _remove_from(bounds: _Bounds | None, own: Callable[[Any], Any]) -> Callable[[JSON, str], JSON]:
    """Remove a member or item; ``bounds``: count it out (``None``: it moves elsewhere).

    ``own`` gives the copy to change (:meth:`_Bounds.own`): a patch removing many items
    of one list (an input probe sent 25,000 ``remove .../0``) copies it once, then moves
    the items after each one down, instead of building the list anew for every remove.
    """

    def change(parent: JSON, token: str) -> JSON:
        if isinstance(parent, dict):
            if token not in parent:
                raise _OperationError(f"member {token!r} does not exist")
            if bounds is not None:
                bounds.release(parent[token])
            copy = own(parent)
            dict.__delitem__(copy, token)
            return copy
        if isinstance(parent, list):
            index = _array_index(parent, token, allow_end=False)
            if bounds is not None:
                bounds.release(parent[index])
            items = own(parent)
            list.__delitem__(items, index)
            return items
        raise _OperationError(f"cannot remove from a {type(parent).__name__}")

    return change


def _whole(document: JSON, value: JSON, bounds: _Bounds) -> JSON:
    """Write ``value`` as the whole document (an empty path): it replaces all there was."""
    del document
    bounds.clear()  # everything the document held goes: no need to count it
    bounds.admit((), value)
    return value


def _add(document: JSON, operation: Mapping[str, Any], bounds: _Bounds) -> JSON:
    tokens = _tokens(operation, "path")
    value = _value(operation)
    if not tokens:
        return _whole(document, value, bounds)
    bounds.reach(tokens)
    return _edit(document, tokens, _add_to(value, tokens, bounds), bounds.own)


def _remove(document: JSON, operation: Mapping[str, Any], bounds: _Bounds) -> JSON:
    return _edit(document, _tokens(operation, "path"), _remove_from(bounds, bounds.own), bounds.own)


def _replace(document: JSON, operation: Mapping[str, Any], bounds: _Bounds) -> JSON:
    tokens = _tokens(operation, "path")
    value = _value(operation)
    if not tokens:
        return _whole(document, value, bounds)
    bounds.reach(tokens)
    return _edit(document, tokens, _replace_in(value, tokens, bounds), bounds.own)


def _move(document: JSON, operation: Mapping[str, Any], bounds: _Bounds) -> JSON:
    source = _tokens(operation, "from")
    target = _tokens(operation, "path")
    if source == target:
        _get(document, source)
        return document
    if target[: len(source)] == source:
        raise _OperationError("cannot move a value into one of its own children")
    value = _get(document, source)
    bounds.reach(target)
    removed = _edit(document, source, _remove_from(None, bounds.own), bounds.own)
    bounds.share()
    if not target:
        # The value alone is the document now: counted afresh, it fits, being a part.
        return _whole(removed, value, bounds)
    return _edit(removed, target, _add_to(value, target, bounds, counted=False), bounds.own)


def _copy(document: JSON, operation: Mapping[str, Any], bounds: _Bounds) -> JSON:
    value = _get(document, _tokens(operation, "from"))
    target = _tokens(operation, "path")
    if not target:
        return _whole(document, value, bounds)
    bounds.reach(target)
    bounds.share()
    return _edit(document, target, _add_to(value, target, bounds), bounds.own)


def _test(document: JSON, operation: Mapping[str, Any], _bounds: _Bounds) -> JSON:
    expected = _value(operation)
    actual = _get(document, _tokens(operation, "path"))
    if not json_equal(actual, expected):
        raise _OperationError("test failed: the value differs")
    return document


_OPERATIONS: dict[str, Callable[[JSON, Mapping[str, Any], _Bounds], JSON]] = {
    "add": _add,
    "remove": _remove,
    "replace": _replace,
    "move": _move,
    "copy": _copy,
    "test": _test,
}
