"""Time the run state's ordered map on four tries: the reason ``immutables`` is a dependency.

A run keeps its buckets, parts and lifecycles in an insertion-ordered mapping that every
event replaces. :class:`~a2ui_stream._state.persistent.OrderedMap` keeps three tries (values,
stamps, keys by stamp); this script swaps the trie for each candidate and times what an
event does to a run with ``n`` messageIds, the ``mids`` shape of issue 12: one new key at
the end (a part, a lifecycle), one key moved to the end (a re-sent bucket), one value
replaced in place (an updated part), and one lookup.

Candidates:

- ``immutables``: ``immutables.Map``, a hash array mapped trie in C (PEP 567's design);
- ``pyrsistent``: ``pyrsistent.pmap``, when installed (a trie of vectors in Python over C);
- ``chunked``: our own copy-on-write map, 64 dicts by hash, an update copying one;
- ``dict``: a whole dict copied per update, as the run state did before issue 12.

Usage::

    .venv/bin/python benchmarks/bench_maps.py [--sizes 1000,10000,100000] [--repeat 5]

Times are process CPU time per event (the four steps), the best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from typing import TYPE_CHECKING, Any, ClassVar

import immutables

from a2ui_stream._state.persistent import OrderedMap

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

_CLOCK = time.process_time
_CHUNKS = 64


class ChunkedMap:
    """Copy-on-write by chunks: 64 dicts chosen by hash, an update copies one of them."""

    __slots__ = ("_chunks", "_size")

    def __init__(self, items: Iterable[tuple[Any, Any]] | dict[Any, Any] = ()) -> None:
        """Spread the entries over the chunks."""
        chunks: list[dict[Any, Any]] = [{} for _ in range(_CHUNKS)]
        pairs = items.items() if isinstance(items, dict) else items
        for key, value in pairs:
            chunks[hash(key) % _CHUNKS][key] = value
        self._chunks = tuple(chunks)
        self._size = sum(map(len, chunks))

    def _with(self, index: int, chunk: dict[Any, Any], size: int) -> ChunkedMap:
        made = ChunkedMap.__new__(ChunkedMap)
        made._chunks = (  # noqa: SLF001 - our own class
            *self._chunks[:index],
            chunk,
            *self._chunks[index + 1 :],
        )
        made._size = size  # noqa: SLF001 - our own class
        return made

    def set(self, key: Any, value: Any) -> ChunkedMap:
        """A map with ``key`` set: one chunk copied."""
        index = hash(key) % _CHUNKS
        chunk = dict(self._chunks[index])
        size = self._size + (key not in chunk)
        chunk[key] = value
        return self._with(index, chunk, size)

    def delete(self, key: Any) -> ChunkedMap:
        """A map without ``key``: one chunk copied."""
        index = hash(key) % _CHUNKS
        chunk = dict(self._chunks[index])
        del chunk[key]
        return self._with(index, chunk, self._size - 1)

    def get(self, key: Any, default: Any = None) -> Any:
        """The value of ``key``, or ``default``."""
        return self._chunks[hash(key) % _CHUNKS].get(key, default)

    def __getitem__(self, key: Any) -> Any:
        """The value of ``key``."""
        return self._chunks[hash(key) % _CHUNKS][key]

    def __contains__(self, key: Any) -> bool:
        """Whether ``key`` is present."""
        return key in self._chunks[hash(key) % _CHUNKS]

    def __len__(self) -> int:
        """The number of entries."""
        return self._size

    def items(self) -> Iterator[tuple[Any, Any]]:
        """Every entry."""
        for chunk in self._chunks:
            yield from chunk.items()


class CopiedDict(dict[Any, Any]):
    """A whole dict copied per update: what ``{**run.lifecycles, key: ...}`` did."""

    def set(self, key: Any, value: Any) -> CopiedDict:
        """A copy with ``key`` set."""
        made = CopiedDict(self)
        made[key] = value
        return made

    def delete(self, key: Any) -> CopiedDict:
        """A copy without ``key``."""
        made = CopiedDict(self)
        del made[key]
        return made


class PyrsistentMap:
    """``pyrsistent.pmap`` behind the three methods the ordered map calls."""

    __slots__ = ("_map",)

    def __init__(self, items: Any = ()) -> None:
        """Build the pmap."""
        import pyrsistent  # noqa: PLC0415 - optional: only when installed

        self._map = pyrsistent.pmap(dict(items))

    def _of(self, inner: Any) -> PyrsistentMap:
        made = PyrsistentMap.__new__(PyrsistentMap)
        made._map = inner  # noqa: SLF001 - our own class
        return made

    def set(self, key: Any, value: Any) -> PyrsistentMap:
        """A map with ``key`` set."""
        return self._of(self._map.set(key, value))

    def delete(self, key: Any) -> PyrsistentMap:
        """A map without ``key``."""
        return self._of(self._map.remove(key))

    def get(self, key: Any, default: Any = None) -> Any:
        """The value of ``key``, or ``default``."""
        return self._map.get(key, default)

    def __getitem__(self, key: Any) -> Any:
        """The value of ``key``."""
        return self._map[key]

    def __contains__(self, key: Any) -> bool:
        """Whether ``key`` is present."""
        return key in self._map

    def __len__(self) -> int:
        """The number of entries."""
        return len(self._map)

    def items(self) -> Any:
        """Every entry."""
        return self._map.items()


def _ordered(trie: Callable[..., Any]) -> type[OrderedMap[str, int]]:
    class Candidate(OrderedMap[str, int]):
        _MAP: ClassVar[Any] = trie

    return Candidate


def candidates() -> dict[str, type[OrderedMap[str, int]]]:
    """The ordered map over each trie that can be imported here."""
    found = {
        "immutables": _ordered(immutables.Map),
        "chunked": _ordered(ChunkedMap),
        "dict": _ordered(CopiedDict),
    }
    if importlib.util.find_spec("pyrsistent") is not None:
        found["pyrsistent"] = _ordered(PyrsistentMap)
    return found


def per_event(kind: type[OrderedMap[str, int]], size: int, events: int) -> float:
    """CPU seconds per event on a map of ``size`` keys, over ``events`` events."""
    pmap = kind({f"m{i}": i for i in range(size)})
    started = _CLOCK()
    for i in range(events):
        pmap = pmap.set(f"new{i}", i)  # a new part or lifecycle, at the end
        pmap = pmap.set_last(f"m{(i * 7919) % size}", i)  # a re-sent bucket
        pmap = pmap.set(f"m{(i * 104729) % size}", -i)  # an updated part, in place
        pmap.get(f"m{i % size}")
    return (_CLOCK() - started) / events


def main() -> None:
    """Print µs per event for each candidate and size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'trie':<12}" + "".join(f"{f'n={size:,}':>14}" for size in sizes) + "  (µs/event)")
    for name, kind in candidates().items():
        cells = []
        for size in sizes:
            events = args.events if name != "dict" else max(20, args.events * 1000 // size)
            best = min(per_event(kind, size, events) for _ in range(args.repeat))
            cells.append(f"{best * 1e6:14.2f}")
        print(f"{name:<12}" + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
