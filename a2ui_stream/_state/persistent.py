"""Persistent maps and sequences: read-only values whose updates share what did not change.

Owns :class:`OrderedMap`, the mapping a run keeps its buckets, parts, lifecycles and
conversions in, and :class:`Vector`, the sequence a stream keeps its runs in. A run of
a long stream holds one entry per messageId and per surface, and every event makes a
new run value; with plain dicts each event copied them all, so the cost of an event
grew with the run (issue 12). Here an update costs a few steps of a hash array mapped
trie (``immutables.Map``, in C) whatever the size, old values stay valid and unchanged,
and nothing offers a way to change one in place.

Order is insertion order, as a dict's: each key carries a stamp, and the stamps index
the keys, so iteration walks the stamps and a key moved to the end takes a new one.
Stamps left unused by moves and deletions are reclaimed by renumbering once they
outnumber the entries, which keeps iteration linear in the entries.

Imports nothing of the package (the state layer's lowest module). Does no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, overload

import immutables

__all__ = [
    "EMPTY_MAP",
    "VECTOR_AT",
    "OrderedMap",
    "Vector",
    "last_items",
    "vector",
    "with_appended",
    "with_last",
]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

#: Unused stamps allowed past the number of entries before they are renumbered.
_SLACK: Final = 32
_GAP: Any = object()


class OrderedMap(Mapping[K, V]):
    """An immutable, insertion-ordered mapping with cheap updates.

    Reads are a :class:`~collections.abc.Mapping`'s (``m[key]``, ``get``, ``in``,
    ``len``, iteration in insertion order, ``reversed``); equality is a dict's (same
    keys and values, whatever the order), also against a plain dict. Updates return a
    new map and leave this one as it was: :meth:`set` keeps an existing key in its
    place, :meth:`set_last` moves it to the end, :meth:`delete` removes it. Each
    costs a few trie steps, not a copy.

    Example:
        >>> parts = OrderedMap({"a": 1}).set("b", 2).set("a", 3)
        >>> list(parts.items()), parts.set_last("a", 4).last_key()
        ([('a', 3), ('b', 2)], 'a')
    """

    # ``get`` is a slot holding the trie's own bound ``get``: read on every event (the
    # run's buckets, parts, conversions), it costs a C call, not a Python frame as well.
    __slots__ = ("_keys", "_next", "_stamps", "_values", "get")

    #: The trie type; a benchmark swaps in others to compare (``benchmarks/bench_maps.py``).
    _MAP: ClassVar[Any] = immutables.Map

    _values: immutables.Map[K, V]
    _stamps: immutables.Map[K, int]
    _keys: immutables.Map[int, K]
    _next: int

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        """Build a map from a mapping or ``(key, value)`` pairs, in their order.

        Args:
            items: the entries; a later duplicate key replaces the value in place.
        """
        pairs = dict(items.items() if isinstance(items, Mapping) else items)
        self._fill(pairs)

    def _fill(self, pairs: dict[K, V]) -> None:
        trie = self._MAP
        self._values = trie(pairs)
        self.get = self._values.get  # type: ignore[method-assign,assignment]  # the slot
        self._stamps = trie(zip(pairs, range(len(pairs)), strict=True))
        self._keys = trie(enumerate(pairs))
        self._next = len(pairs)

    @classmethod
    def _made(
        cls,
        values: immutables.Map[K, V],
        stamps: immutables.Map[K, int],
        keys: immutables.Map[int, K],
        next_stamp: int,
    ) -> OrderedMap[K, V]:
        made: OrderedMap[K, V] = cls.__new__(cls)
        made._values, made._stamps, made._keys, made._next = values, stamps, keys, next_stamp
        made.get = values.get  # type: ignore[method-assign,assignment]  # the slot
        if next_stamp > 2 * len(values) + _SLACK:
            made._fill(dict(made.items()))  # renumber: iteration stays linear
        return made

    # -- reading ------------------------------------------------------------------------

    def __getitem__(self, key: K) -> V:
        return self._values[key]

    if TYPE_CHECKING:  # at run time, the slot set when the map is made

        def get(self, key: K, default: Any = None) -> Any:
            """The value of ``key``, or ``default`` when absent."""

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[K]:
        keys = self._keys
        for stamp in range(self._next):
            key = keys.get(stamp, _GAP)
            if key is not _GAP:
                yield key

    def __reversed__(self) -> Iterator[K]:
        keys = self._keys
        for stamp in range(self._next - 1, -1, -1):
            key = keys.get(stamp, _GAP)
            if key is not _GAP:
                yield key

    def last_key(self) -> K | None:
        """The most recently inserted (or moved) key; ``None`` when empty."""
        # The last stamp given is live unless its key was deleted since: one lookup,
        # where a walk from the end makes a generator.
        key = self._keys.get(self._next - 1, _GAP)
        return next(reversed(self), None) if key is _GAP else key

    def position(self, key: K) -> int:
        """A number that orders ``key`` among the others as iteration does.

        Raises:
            KeyError: ``key`` is absent.
        """
        return self._stamps[key]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, OrderedMap):
            return self._values == other._values
        if isinstance(other, Mapping):
            return len(self) == len(other) and all(
                key in other and other[key] == value for key, value in self._values.items()
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mapping's equality, as a dict's

    def __repr__(self) -> str:
        return f"OrderedMap({dict(self.items())!r})"

    # -- updating -----------------------------------------------------------------------

    def set(self, key: K, value: V) -> OrderedMap[K, V]:
        """A map with ``key`` set to ``value``, in its place when present, else last."""
        if key in self._values:
            if self._values[key] is value:
                return self
            return self._made(self._values.set(key, value), self._stamps, self._keys, self._next)
        stamp = self._next
        return self._made(
            self._values.set(key, value),
            self._stamps.set(key, stamp),
            self._keys.set(stamp, key),
            stamp + 1,
        )

    def set_last(self, key: K, value: V) -> OrderedMap[K, V]:
        """A map with ``key`` set to ``value`` and moved to the end."""
        stamp = self._stamps.get(key)
        if stamp is not None and stamp == self._next - 1:
            return self.set(key, value)
        keys = self._keys if stamp is None else self._keys.delete(stamp)
        last = self._next
        return self._made(
            self._values.set(key, value), self._stamps.set(key, last), keys.set(last, key), last + 1
        )

    def delete(self, key: K) -> OrderedMap[K, V]:
        """A map without ``key``; this map itself when ``key`` is absent."""
        stamp = self._stamps.get(key)
        if stamp is None:
            return self
        return self._made(
            self._values.delete(key),
            self._stamps.delete(key),
            self._keys.delete(stamp),
            self._next,
        )


#: The empty map, one for every value that starts empty: a map never changes, and a
#: run or a tool-carrier record made with its maps empty then costs no map made.
EMPTY_MAP: OrderedMap[Any, Any] = OrderedMap()


class Vector(Sequence[T]):
    """An immutable sequence whose last item is replaced, or one appended, in a few steps.

    A stream keeps every run when asked to (``process --final``, ``render``, an
    archive's fold), and every event makes a new current run: as a tuple, each event
    copied all the runs before it, so 32,000 short runs took 46 s where 8,000 took
    3.6. Here the items sit in a trie by position: :meth:`set_last` and :meth:`append`
    cost a few trie steps whatever the length, and the last item, which every event
    reads, is held apart, so ``vector[-1]`` is one attribute read.

    Reads are a tuple's (indexing, negative indices, slices as tuples, ``len``,
    iteration); equality is against any sequence of equal items, a tuple included.
    """

    __slots__ = ("_earlier", "_last", "_length")

    _earlier: immutables.Map[int, T]
    _last: Any
    _length: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        """Build a vector of ``items``, in their order."""
        listed = list(items)
        self._length = len(listed)
        self._last = listed.pop() if listed else None
        self._earlier = immutables.Map(enumerate(listed))

    @classmethod
    def _made(cls, earlier: immutables.Map[int, T], last: T, length: int) -> Vector[T]:
        made: Vector[T] = cls.__new__(cls)
        made._earlier, made._last, made._length = earlier, last, length
        return made

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        length = self._length
        if type(index) is slice:
            return tuple(self[at] for at in range(*index.indices(length)))
        if index < 0:
            index += length
        if index == length - 1 and length:
            return self._last  # type: ignore[no-any-return]
        if not 0 <= index < length:
            raise IndexError("Vector index out of range")
        return self._earlier[index]

    def __iter__(self) -> Iterator[T]:
        earlier = self._earlier
        for index in range(self._length - 1):
            yield earlier[index]
        if self._length:
            yield self._last

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(other) == self._length and all(
            mine is theirs or mine == theirs for mine, theirs in zip(self, other, strict=True)
        )

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Vector({list(self)!r})"

    def set_last(self, item: T) -> Vector[T]:
        """A vector with ``item`` in place of the last item.

        Raises:
            IndexError: the vector is empty.
        """
        if not self._length:
            raise IndexError("set_last on an empty Vector")
        return self._made(self._earlier, item, self._length)

    def append(self, item: T) -> Vector[T]:
        """A vector with ``item`` after the last item."""
        length = self._length
        earlier = self._earlier.set(length - 1, self._last) if length else self._earlier
        return self._made(earlier, item, length + 1)

    def last(self, count: int) -> Vector[T]:
        """A vector of the last ``count`` items (all of them when there are fewer)."""
        return self if count >= self._length else Vector(self[self._length - count :])


def vector(items: Sequence[T]) -> Vector[T]:
    """``items`` as a :class:`Vector`: itself when it is one, else a new one."""
    return items if type(items) is Vector else Vector(items)


#: Below this many items a sequence of runs stays a tuple: copied in one C loop, and read
#: (``runs[-1]`` on every event) with no Python call; a stream keeping no past run (every
#: ``process`` but ``--final``) never holds more than one. From here on, a Vector.
VECTOR_AT: Final = 32


def with_last(items: Sequence[T], item: T) -> Sequence[T]:
    """``items`` with ``item`` in place of the last one: a tuple while short."""
    if type(items) is tuple and len(items) < VECTOR_AT:
        return (*items[:-1], item)
    return vector(items).set_last(item)


def with_appended(items: Sequence[T], item: T) -> Sequence[T]:
    """``items`` with ``item`` after the last one: a tuple while short."""
    if type(items) is tuple and len(items) < VECTOR_AT - 1:
        return (*items, item)
    return vector(items).append(item)


def last_items(items: Sequence[T], count: int) -> Sequence[T]:
    """The last ``count`` of ``items`` (all when there are fewer): a tuple while short."""
    if count < VECTOR_AT:
        return tuple(items[max(len(items) - count, 0) :])
    return vector(items).last(count)
