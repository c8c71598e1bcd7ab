"""Frozen JSON containers: the element trees and values callers receive.

Owns :class:`FrozenDict` and :class:`FrozenList`, a dict and a list that refuse every
change, and :func:`freeze`, which makes a JSON value of them. What a caller gets (a
part's args, a diff's args and patch values, a lifecycle's content) is shared with the
state and with later outputs, so that unchanged subtrees cost nothing; a caller that
changed one would change what the library hands out next (issue 12). Frozen, they
still read, compare, encode (msgspec, ``json``) and validate as the dicts and lists
they are; ``msgspec.to_builtins(value)`` gives a plain copy to edit. A call that goes
past the type on purpose (``dict.__setitem__(value, ...)``, or ``value.__init__(...)``
again) is not stopped: a Python ``__init__`` guard costs about 230 ns per container made,
on every element the converter builds.

Must not import anything of the package. Does no I/O.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn
from weakref import ref

__all__ = [
    "CONTAINERS",
    "DICTS",
    "LISTS",
    "FrozenDict",
    "FrozenList",
    "copied",
    "extended",
    "fill",
    "freeze",
    "grown_from",
]


def _refuse(self: object, *_args: object, **_kwargs: object) -> NoReturn:
    name = type(self).__name__
    message = f"a {name} is immutable: it is shared with the state; copy it to edit it"
    raise TypeError(message)


class FrozenDict(dict[str, Any]):
    """A dict that refuses every change; equal to the dict with the same items."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        """Pickle and copy as a frozen dict of the same items."""
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        """A frozen value is its own copy."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        """A frozen value is its own deep copy: nothing in it can change."""
        del memo
        return self


class FrozenList(list[Any]):
    """A list that refuses every change; equal to the list with the same items."""

    # Weakly referable, so that a list grown from it can name it (:class:`_Grown`).
    __slots__ = ("__weakref__",)

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        """Pickle and copy as a frozen list of the same items."""
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        """A frozen value is its own copy."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        """A frozen value is its own deep copy: nothing in it can change."""
        del memo
        return self


class _Grown(FrozenList):
    """A frozen list made of another and more items: it knows which list it began as.

    Its first ``len(base)`` items are the base's own objects, so a diff against the base
    (:func:`grown_from`) need not compare them: a list streamed one item at a time costs
    its new items to diff, not its length. The base is held weakly, so a chain of lists
    grown one from another keeps none of the older ones alive.
    """

    __slots__ = ("_base",)

    _base: ref[FrozenList] | None


def extended(items: list[Any], more: list[Any]) -> FrozenList:
    """A frozen list of ``items`` and then ``more``, neither changed.

    An exact list is copied straight into the new one, and a frozen one sliced first,
    as :func:`copied` does: concatenating first would add a copy on the path of every
    component streamed onto a long list (2,500 items: 11.1 against 7.5 µs).
    """
    grown = _Grown(items if type(items) is list else items[:])
    list.extend(grown, more)
    grown._base = ref(items) if isinstance(items, FrozenList) else None  # noqa: SLF001
    return grown


def grown_from(new: list[Any], old: list[Any]) -> bool:
    """Whether ``new`` begins with every object of ``old``, in order, known without a scan.

    True when ``new`` was made by :func:`extended` from ``old``, or from a list made so
    from ``old``, and each of them is still alive; ``False`` says only that it is not
    known.
    """
    step: Any = new
    while type(step) is _Grown:
        base = step._base  # noqa: SLF001 - the module's own type
        step = None if base is None else base()
        if step is old:
            return True
    return False


#: The exact types of a JSON object and array here: as decoded, and frozen. Every value
#: kept in the state is frozen; a value on its way in (a decoded event, a caller's
#: argument) may be plain, so a layer that reads both tests ``type(value) in DICTS``:
#: one set lookup, where ``isinstance`` walks the class's bases.
DICTS: Final[frozenset[type]] = frozenset((dict, FrozenDict))
LISTS: Final[frozenset[type]] = frozenset((list, FrozenList, _Grown))
CONTAINERS: Final = DICTS | LISTS


def copied(container: Any) -> Any:
    """A frozen copy of a dict or list, plain or frozen, for :func:`fill` to change.

    A frozen list is sliced into a plain one first: CPython copies a list in one pass
    only from an exact list, and takes a subclass item by item through its iterator
    (4,500 items: 26.3 µs straight, 23.3 µs sliced first; 50 items: 414 against 359 ns).
    """
    if type(container) in DICTS:
        return FrozenDict(container)
    return FrozenList(container if type(container) is list else container[:])


def fill(container: Any, key: Any, value: Any) -> None:
    """Set ``container[key] = value`` in a frozen container still being built.

    For code that makes a frozen copy and changes it before anyone else can see it (a
    pointer write, a patch); once handed out, a frozen value must never be filled.
    """
    if type(container) is FrozenDict:
        dict.__setitem__(container, key, value)
    else:
        list.__setitem__(container, key, value)


#: Levels frozen by recursion before the iterative walk takes over.
_RECURSION = 32
_PLAIN = frozenset({dict, list})
#: Containers this small are scanned for children in a loop: building ``map`` for the
#: C-side test costs more than it saves below about eight items.
_FEW = 8


def freeze(value: Any, _depth: int = 0, _done: dict[int, Any] | None = None) -> Any:
    """Return ``value`` with every dict and list in it frozen.

    Containers already frozen are kept as they are, with everything in them, so
    freezing a new element whose children are frozen elements costs its own size.
    A value nested past a few levels is walked iteratively: it cannot exhaust the stack.
    A container held in several places (a patch copied a list into itself: a million
    values in 21 lists) is frozen once, and the copy shared as the value shares it.

    Args:
        value: a JSON value (dicts, lists, scalars), not changed.
        _depth: the levels of recursion above this one (its own recursion's; one
            function, not a wrapper, as each element's data costs a call less).
        _done: the containers frozen so far in this recursion, by identity; made at
            the first container met, as most values hold none.

    Returns:
        ``value`` itself when it is not an unfrozen container; otherwise a frozen copy
        sharing every frozen subtree.
    """
    kind = type(value)
    if kind is dict:
        made: Any = FrozenDict(value)
        if len(value) > _FEW and _PLAIN.isdisjoint(map(type, value.values())):  # in C
            return made
        for key, child in value.items():
            if type(child) in _PLAIN:
                if _depth >= _RECURSION:
                    return _freeze_deep(value)
                if _done is None:
                    _done = {}
                frozen = _done.get(id(child))
                if frozen is None:
                    frozen = _done[id(child)] = freeze(child, _depth + 1, _done)
                dict.__setitem__(made, key, frozen)
        return made
    if kind is list:
        made = FrozenList(value)
        if len(value) > _FEW and _PLAIN.isdisjoint(map(type, value)):
            return made
        for index, child in enumerate(value):
            if type(child) in _PLAIN:
                if _depth >= _RECURSION:
                    return _freeze_deep(value)
                if _done is None:
                    _done = {}
                frozen = _done.get(id(child))
                if frozen is None:
                    frozen = _done[id(child)] = freeze(child, _depth + 1, _done)
                list.__setitem__(made, index, frozen)
        return made
    return value


def _freeze_deep(value: Any) -> Any:
    """:func:`freeze` without recursion, for values nested deeper than it goes."""
    # Every container is listed before the containers inside it; copies are made in the
    # reverse order, so a container's children are frozen before it is.
    order: list[Any] = []
    stack = [value]
    while stack:
        node = stack.pop()
        order.append(node)
        children = node if type(node) is list else node.values()
        stack.extend(child for child in children if type(child) in _PLAIN)
    copies: dict[int, Any] = {}
    get = copies.get
    for node in reversed(order):
        if type(node) is list:
            made: Any = FrozenList([get(id(child), child) for child in node])
        else:
            made = FrozenDict({key: get(id(child), child) for key, child in node.items()})
        copies[id(node)] = made
    return copies[id(value)]
