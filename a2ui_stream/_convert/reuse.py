"""Reuse: what a conversion remembers of each subtree, and what changed since.

Owns :class:`Memo` (one converted component: its element, budget use, warnings, and a
summary of what its subtree depends on), :class:`Expansion` (a template's items, kept so
that the next conversion can take the untouched ones in runs), :class:`Basis` (the
inputs a conversion was computed from) and :class:`Changes` (what differs between two
bases, with the checks that decide whether a memoised subtree can be reused).

A subtree's dependencies are summarised in two cheap values built while converting,
so that no later conversion has to walk the old tree:

- ``region``: a few data paths (at most :data:`MAX_REGION_PATHS`, one per top-level
  key) such that every path the subtree read outside the template item in scope lies
  at or under one of them. A changed path that is neither a prefix nor an extension of
  any of them cannot touch those reads. Several paths, not one common prefix, because a
  template item that also reads the root model (a Button whose action context reads
  ``/title``) would otherwise depend on the whole model, and every change anywhere
  would rebuild every item.
- ``reads``: the same, for the reads of the template item in scope, relative to it; a
  change inside an item touches only the subtrees that read where it lies (the price
  of a row rebuilds the price's text, not the row's image and button).
- ``mask``: a 1024-bit Bloom-style set of the component ids the subtree reached,
  computed from the memo tree the first time components change (a fresh conversion
  pays nothing for it), then kept.

Both only over-approximate. A subtree whose summary meets a change is converted again
one node at a time, each child checked with its own summary, so the imprecision costs
a node, never a wrong result.

Must not import: the converter's traversal or element modules, the reducer, request or
shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

import msgspec

from a2ui_stream._state.surface import ComponentChange
from a2ui_stream._tree.patch import DataChange

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from a2ui_stream._state.surface import Surface
    from a2ui_stream._wire.a2ui import Component
    from a2ui_stream._wire.diagnostics import Diagnostic
    from a2ui_stream._wire.limits import Limits

__all__ = [
    "EVERYWHERE",
    "MAX_REGION_PATHS",
    "NOWHERE",
    "NO_WARNINGS",
    "Basis",
    "Changes",
    "Children",
    "Expansion",
    "Memo",
    "Path",
    "Region",
    "changes_between",
    "common_prefix",
    "id_bit",
    "join",
    "mask_of",
    "only_strings",
    "widen",
]

Path: TypeAlias = "tuple[str, ...]"
"""A data path: the segments of a JSON pointer, from the root of the data model."""

Region: TypeAlias = "tuple[Path, ...]"
"""Paths covering every data read of a subtree; see :func:`widen`."""

NO_WARNINGS: tuple[tuple[str | None, Diagnostic], ...] = ()
#: The region of a subtree that read no data.
NOWHERE: Region = ()
#: The region of a subtree that may have read anything.
EVERYWHERE: Region = ((),)
#: Top-level keys a region keeps apart before it becomes :data:`EVERYWHERE`.
MAX_REGION_PATHS: Final = 6

#: Changed data paths past which an update is treated as a new surface (no reuse).
_MAX_CHANGED_PATHS: Final = 256
#: Containers larger than this are compared whole, not entry by entry, when diffing.
_MAX_DIFF_FANOUT: Final = 1024
_ENCODE = msgspec.json.Encoder().encode


# Memos never form a cycle (children are strictly deeper and references that would close
# a cycle are refused), so the collector need not track them: on the 4,000-component
# benchmark that takes about a tenth off a fresh conversion.
class Memo(msgspec.Struct, gc=False):
    """One component converted, kept so that the next conversion can reuse it.

    Attributes:
        comp: the component converted (reuse needs the very same object).
        path: the data path of the template item in scope, ``()`` at the root scope.
        depth: the component's depth (root 0).
        prev: while converting, the previous memo's ``kids`` (same component; for a
            template, its :attr:`items` when it has them) or those kids by ``(id,
            path)`` (changed component); ``None`` once done.
        region: paths covering every data path the subtree read (:func:`widen`),
            except reads of the template item in scope.
        reads: paths covering the subtree's reads of the template item in scope,
            relative to the item (``path``).
        kids: the memo of each child reference in visit order, or the referenced id
            where the reference emitted nothing (or, for a Button's label, was read
            without being converted); ``None`` when there were none.
        element: the element emitted, or ``None``.
        count: elements the subtree emitted (node budget).
        work: child references the subtree visited (work budget).
        whole: ``False`` when a limit cut the subtree, which makes it depend on what
            was converted before it; such a memo is reused only where it is entered
            with the budgets it was entered with before (:attr:`entry`).
        warns: the subtree's warnings, each with its once-per-conversion key.
        mask: :func:`mask_of` once computed, ``-1`` before.
        items: for a template, its :class:`Expansion` when every item converted whole;
            ``None`` otherwise.
        first: where the entries of its ``children`` list start in :attr:`kids` (the
            handler's own references come first), when that list is long enough to be
            worth :class:`Children`; ``-1`` otherwise.
        children: the :class:`Children` of that list, once a conversion needed them.
        entry: for a subtree a limit cut, the node and work counts when it was entered;
            ``None`` for a whole one.
    """

    comp: Component
    path: Path
    depth: int
    prev: Any = None
    region: Region = NOWHERE
    reads: Region = NOWHERE
    kids: list[Memo | str] | None = None
    element: dict[str, Any] | None = None
    count: int = 0
    work: int = 0
    whole: bool = True
    warns: tuple[tuple[str | None, Diagnostic], ...] = NO_WARNINGS
    mask: int = -1
    items: Expansion | None = None
    first: int = -1
    children: Children | None = None
    entry: tuple[int, int] | None = None


class Expansion(msgspec.Struct, gc=False, kw_only=True):
    """A template's items as one conversion left them, to be patched by the next.

    The next conversion of the same template, when only data inside some items changed,
    takes every run of untouched items whole: their memos, their ListViewItem elements
    and, from :attr:`sizes` and :attr:`works`, the node and work budget they use, which
    is exactly what taking each of them whole one by one would do.

    Usable only where every item was converted whole (no limit cut one, none emitted
    nothing), so that each item ``i`` is ``kids[i]``, a :class:`Memo` of ``comp`` at
    path ``(*base, str(i))``: :meth:`ready` checks that, once, when a patch is tried.

    Untracked by the collector, as :class:`Memo` is: it refers only to memos, lists
    and elements, never back to itself.

    Attributes:
        base: the data path of the list the items came from.
        comp: the item component (``None`` when it was missing from an empty list).
        depth: the depth of each item (the template's plus one).
        kids: the item memos, in order.
        out: their ListViewItem elements, in order.
        total: how many items there were to convert (the list's length, capped).
        sizes: per item, the nodes it used (its own reservation and its subtree's);
            ``None`` until :meth:`ready` computes them.
        works: per item, the work budget it used.
        region: covers every item's :attr:`Memo.region`.
        warned: ``True`` when some item has warnings.
    """

    base: Path
    comp: Component | None
    depth: int
    kids: list[Any]
    out: list[dict[str, Any]]
    total: int
    sizes: list[int] | None = None
    works: list[int] | None = None
    region: Region = NOWHERE
    warned: bool = False

    def ready(self) -> bool:
        """Check that every item converted whole; compute the totals and region, once.

        A fresh conversion builds its expansions without either: most are never patched.

        Returns:
            Whether the expansion can be patched.
        """
        if self.sizes is not None:
            return True
        kids = self.kids
        if len(kids) != self.total or not all(type(k) is Memo and k.whole for k in kids):
            self.kids = self.out = []  # let them go: this one is never patched
            self.total = -1
            return False
        self.sizes = [kid.count + 1 for kid in kids]
        self.works = [kid.work for kid in kids]
        region = NOWHERE
        for kid in kids:
            if kid.region:
                region = join(region, kid.region)
        self.region = region
        self.warned = any(kid.warns for kid in kids)
        return True


_Index: TypeAlias = (
    "tuple[list[int], dict[str, list[int]], dict[str, list[int]], dict[tuple[str, str], list[int]]]"
)
_Notes: TypeAlias = "tuple[tuple[str | None, Diagnostic], ...]"


class Children(msgspec.Struct, gc=False, kw_only=True):
    """A long ``children`` list as one conversion left it, to be patched by the next.

    When only data changed, the next conversion of the same component finds the
    children a change may touch through :meth:`touched` and takes every run of the
    others whole: their memos, their elements and, from :attr:`sizes` and
    :attr:`works`, the node and work budget they use, exactly as taking each of them
    whole one by one would.

    Entry ``i`` stands for the ``i``-th reference of the list (every reference is a
    string, or the entries would not line up with them): ``memo.kids[first + i]``.
    Untracked by the collector, as :class:`Memo` is.

    Attributes:
        elements: per entry, the element its memo emitted, or ``None``.
        sizes: per entry, the nodes its subtree used.
        works: per entry, the work budget it used.
        notes: per entry, its warnings.
        warned: ``True`` when some entry may have warnings.
        index: where changes can reach the entries, built by :meth:`ready` when first
            needed and kept while every entry files where it did; ``None`` otherwise.
        tail: how many entries at the end emitted nothing (after a limit stopped the
            conversion, typically); they stay out of the index, converted in one go.
        gaps: the positions, in order, of the entries that emitted nothing (tail
            included). Such a reference may have warned (a missing id, a cycle), which
            :attr:`notes` does not hold: a patch visits them again, so that their
            warnings repeat and an id that arrived since is found.
    """

    elements: list[dict[str, Any] | None]
    sizes: list[int]
    works: list[int]
    notes: list[_Notes]
    warned: bool = False
    index: _Index | None = None
    tail: int = 0
    gaps: list[int] = msgspec.field(default_factory=list)

    @classmethod
    def of(cls, entries: list[Memo | str]) -> Children:
        """The children of a list from its entries, as a conversion left them."""
        kept = cls(elements=[], sizes=[], works=[], notes=[])
        kept.extend(entries)
        tail = 0
        for kid in reversed(entries):
            if type(kid) is not str:
                break
            tail += 1
        kept.tail = tail
        return kept

    def start(self) -> Children:
        """An empty list to fill from this one and from entries converted again."""
        return Children(
            elements=[], sizes=[], works=[], notes=[], warned=self.warned,
            index=self.index, tail=self.tail,
        )  # fmt: skip

    def take(self, other: Children, start: int, stop: int) -> None:
        """Append ``other``'s entries ``[start, stop)``, taken whole."""
        self.elements += other.elements[start:stop]
        self.sizes += other.sizes[start:stop]
        self.works += other.works[start:stop]
        self.notes += other.notes[start:stop]
        gaps = other.gaps  # entry ``i`` lands at ``i`` (a list that skips one is not kept)
        self.gaps += gaps[bisect_left(gaps, start) : bisect_left(gaps, stop)]

    def add(self, kid: Memo | str, was: Memo | str) -> None:
        """Append an entry converted again; drop the index unless it files as ``was`` did."""
        if type(kid) is Memo:
            self.elements.append(kid.element)
            self.sizes.append(kid.count)
            self.works.append(kid.work)
            self.notes.append(kid.warns)
            if kid.warns:
                self.warned = True
            if kid is not was and (
                type(was) is not Memo or kid.whole is not was.whole or kid.region != was.region
            ):
                self.index = None
        else:
            self.pad(1)
            if type(was) is not str:
                self.index = None

    def pad(self, count: int) -> None:
        """Append ``count`` entries that emitted nothing."""
        self.gaps += range(len(self.elements), len(self.elements) + count)
        self.elements += [None] * count
        self.sizes += [0] * count
        self.works += [0] * count
        self.notes += [NO_WARNINGS] * count

    def extend(self, entries: Sequence[Memo | str]) -> None:
        """Append entries as converted."""
        if only_strings(entries):  # references a limit refused, typically: in one step
            self.pad(len(entries))
            return
        for kid in entries:
            self.add(kid, kid)  # filed as itself: the index (if any) stays

    def ready(self, entries: list[Memo | str]) -> _Index:
        """The index of ``entries`` (this list's memos), built once.

        Returns:
            ``(always, heads, shallow, deep)``: the positions of the entries any change
            may touch (not whole memos, regions reaching the root), then, by top-level
            key, the positions of entries with a region path under it; of those whose
            path is that key alone; and, by a path's first two segments, those whose
            path is longer. The :attr:`tail` is left out.
        """
        index = self.index
        if index is None:
            always: list[int] = []
            heads: dict[str, list[int]] = {}
            shallow: dict[str, list[int]] = {}
            deep: dict[tuple[str, str], list[int]] = {}
            for position, kid in enumerate(entries[: len(entries) - self.tail]):
                if type(kid) is not Memo or not kid.whole:
                    always.append(position)
                    continue
                for path in kid.region:
                    if not path:
                        always.append(position)
                        break
                    heads.setdefault(path[0], []).append(position)
                    if len(path) == 1:
                        shallow.setdefault(path[0], []).append(position)
                    else:
                        deep.setdefault((path[0], path[1]), []).append(position)
            index = self.index = (always, heads, shallow, deep)
        return index

    def touched(self, entries: list[Memo | str], paths: frozenset[Path]) -> set[int]:
        """The positions, before the :attr:`tail`, of the entries a change may touch.

        Args:
            entries: this list's memos.
            paths: the changed paths, none of them the root.

        Returns:
            A superset of the entries for which :meth:`Changes.unchanged` fails, when
            they share the item path in scope and it meets no change: a region path and
            a changed path, neither empty, meet only if they agree on their first
            segment and, when both are longer, on their second.
        """
        always, heads, shallow, deep = self.ready(entries)
        out = set(always)
        for path in paths:
            if len(path) == 1:
                out.update(heads.get(path[0], ()))
            else:
                out.update(shallow.get(path[0], ()))
                out.update(deep.get((path[0], path[1]), ()))
        return out


def only_strings(entries: Iterable[Any]) -> bool:
    """Whether every entry is a string (a reference that emitted nothing), checked in C."""
    return _STRINGS.issuperset(map(type, entries))


_STRINGS: Final = frozenset({str})


def id_bit(component_id: str) -> int:
    """The bit that stands for ``component_id`` in a :attr:`Memo.mask`.

    1024 bits: a 40-component card sets about 4% of them, so replacing one component
    rarely makes an unrelated card look touched (64 bits made half of them look so).
    """
    return 1 << (hash(component_id) & 1023)


def mask_of(memo: Memo) -> int:
    """:func:`id_bit` of every component id ``memo``'s subtree reached, computed once."""
    mask = memo.mask
    if mask < 0:
        mask = id_bit(memo.comp.id)
        for kid in memo.kids or ():
            mask |= mask_of(kid) if isinstance(kid, Memo) else id_bit(kid)
        memo.mask = mask
    return mask


def common_prefix(first: Path, second: Path) -> Path:
    """The longest common prefix of two paths."""
    if first is second:
        return first
    if len(second) < len(first):
        first, second = second, first
    if first == second[: len(first)]:
        return first
    index = 0
    while first[index] == second[index]:  # they differ before the end of ``first``
        index += 1
    return first[:index]


def widen(region: Region, path: Path) -> Region:
    """``region`` grown to cover ``path`` too.

    Paths under one top-level key merge into their common prefix, as sibling reads such
    as ``/s/3/title`` and ``/s/3/body`` do into ``/s/3``; paths under different keys stay
    apart, so that reading ``/title`` does not make a subtree depend on ``/items``. Past
    :data:`MAX_REGION_PATHS` keys the region becomes the whole model, ``((),)``.

    Args:
        region: the paths so far, each under a different top-level key.
        path: the path read.

    Returns:
        The region covering both (``region`` itself when it already did).
    """
    if not region:
        return (path,)
    if path in region:
        return region
    if not path:
        return EVERYWHERE
    head = path[0]
    for index, known in enumerate(region):
        if not known:
            return region
        if known[0] == head:
            merged = common_prefix(known, path)
            if len(merged) == len(known):
                return region
            return (*region[:index], merged, *region[index + 1 :])
    if len(region) < MAX_REGION_PATHS:
        return (*region, path)
    return EVERYWHERE


def join(region: Region, other: Region) -> Region:
    """A region covering both ``region`` and ``other``."""
    if not region or region is other:
        return other
    if len(other) == 1:
        return widen(region, other[0])
    for path in other:
        region = widen(region, path)
    return region


class Basis:
    """What a conversion was computed from, to find what changed next time."""

    __slots__ = ("components", "data", "limits", "surface_id", "version")

    def __init__(self, surface: Surface, limits: Limits) -> None:
        self.components = surface.components
        self.data = surface.data_model
        self.surface_id = surface.surface_id
        self.version = surface.version
        self.limits = limits


class Changes:
    """The difference between two bases, as the reuse check needs it.

    Attributes:
        mask: :func:`id_bit` of every component id added, removed or replaced.
        paths: changed data paths.
        prefixes: every prefix of every changed path, the paths included.
        lengths: the distinct lengths of the changed paths.
        heads: the top-level keys of the changed paths; ``None`` when one is the root.
        replaced: when the changed ids are known exactly (from a claim), those of them
            that had a component before (the others were added); ``None`` otherwise.
    """

    __slots__ = ("heads", "lengths", "mask", "paths", "prefixes", "replaced")

    def __init__(
        self,
        mask: int,
        paths: list[tuple[str, ...]],
        replaced: frozenset[str] | None = None,
    ) -> None:
        self.mask = mask
        self.replaced = replaced
        self.paths = frozenset(paths)
        self.prefixes = frozenset(p[:i] for p in paths for i in range(len(p) + 1))
        self.lengths = tuple(sorted({len(p) for p in paths}))
        # The top-level keys changed, or ``None`` when the whole model was replaced.
        self.heads = None if () in self.paths else frozenset(p[0] for p in paths)

    def unchanged(self, memo: Memo) -> bool:
        """Whether nothing the memo's subtree read or reached can have changed."""
        if self.mask and self.mask & mask_of(memo):
            return False
        if not self.paths:
            return True
        scope = memo.path
        if scope and self.meets(scope) and not self.misses(scope, memo.reads):
            return False
        return not any(map(self.meets, memo.region))

    def misses(self, scope: Path, reads: Region) -> bool:
        """Whether the changes that meet the item at ``scope`` all lie inside it, off ``reads``.

        Args:
            scope: a template item's data path.
            reads: paths relative to the item covering what a subtree read of it.
        """
        size = len(scope)
        for path in self.paths:
            if path[:size] == scope:
                if len(path) == size:
                    return False  # the item itself was replaced
                inner = path[size:]
                for read in reads:
                    if inner[: len(read)] == read or read[: len(inner)] == inner:
                        return False
            elif scope[: len(path)] == path:
                return False  # a container holding the item was replaced
        return True

    def items(self, base: Path, region: Region) -> set[int] | None:
        """The indexes of the items of the list at ``base`` that a change lies in.

        Args:
            base: the data path of a template's list.
            region: covers every data path the items read outside themselves.

        Returns:
            The indexes (some may lie past the list's end), or ``None`` when a change
            may touch every item: it replaced the list or a container holding it, or
            it meets ``region``. Changes elsewhere touch no item.
        """
        if self.mask or any(map(self.meets, region)):
            return None
        size = len(base)
        out: set[int] = set()
        for path in self.paths:
            if len(path) <= size:
                if path == base[: len(path)]:
                    return None
            elif path[:size] == base:
                key = path[size]
                if not key.isdigit() or str(index := int(key)) != key:
                    return None
                out.add(index)
        return out

    def meets(self, path: Path) -> bool:
        """Whether a changed path is ``path``, lies under it, or holds it."""
        heads = self.heads
        if heads is not None and path and path[0] not in heads:
            return False  # the common case: a region under another top-level key
        if path in self.prefixes:  # ``path`` is a prefix of a changed path
            return True
        size = len(path)
        paths = self.paths
        for length in self.lengths:  # a changed path is a prefix of ``path``
            if length >= size:
                return False
            if path[:length] in paths:
                return True
        return False


def changes_between(
    old: Basis, new: Basis, known: Sequence[DataChange | ComponentChange] = ()
) -> Changes | None:
    """What changed from ``old`` to ``new``; ``None`` when reuse is not safe or not worth it.

    Args:
        old: the basis of the previous conversion.
        new: the basis of this one.
        known: claims of how data or components changed (read off a patch); one that
            names exactly ``old``'s and ``new``'s data stands in for diffing them, one
            that names their components for a walk over every component.

    Returns:
        The changes, or ``None`` when the limits, surface id or version differ, or more
        than :data:`_MAX_CHANGED_PATHS` data paths changed.
    """
    if old.limits != new.limits or old.surface_id != new.surface_id:
        return None
    if old.version != new.version:
        return None
    mask = 0
    replaced = None
    if new.components is not old.components:
        edit = _claim(known, ComponentChange, old.components, new.components)
        if edit is None:
            mask = _changed_ids(old.components, new.components)
        else:
            for cid in edit.ids:
                mask |= id_bit(cid)
            replaced = frozenset(cid for cid in edit.ids if cid in old.components)
    paths: list[tuple[str, ...]] = []
    if new.data is not old.data:
        claim = _claim(known, DataChange, old.data, new.data)
        if claim is not None:
            if len(claim.paths) > _MAX_CHANGED_PATHS:
                return None
            paths.extend(claim.paths)
        elif not _diff(old.data, new.data, (), paths):
            return None
    return Changes(mask, paths, replaced)


def _claim(known: Sequence[Any], kind: type[_C], before: Any, after: Any) -> _C | None:
    """The claim of ``kind`` about exactly ``before`` and ``after``, if one was made."""
    return next(
        (c for c in known if type(c) is kind and c.before is before and c.after is after), None
    )


_C = TypeVar("_C", DataChange, ComponentChange)


def _changed_ids(before: Mapping[str, Component], after: Mapping[str, Component]) -> int:
    mask = 0
    for key, value in after.items():
        if before.get(key) is not value:
            mask |= id_bit(key)
    for key in before:
        if key not in after:
            mask |= id_bit(key)
    return mask


def _same_scalar(old: Any, new: Any) -> bool:
    if type(old) is float:
        return bool(old.hex() == new.hex())
    return bool(old == new)


def _diff(old: Any, new: Any, path: tuple[str, ...], out: list[tuple[str, ...]]) -> bool:
    """Append the paths where ``new`` differs from ``old``; ``False`` when too many.

    Equal-looking containers are confirmed by their encoded bytes, which tell ``1``,
    ``1.0`` and ``true`` apart and see key order, as the output would.
    """
    if old is new:
        return True
    kind = type(old)
    if kind is not type(new):
        out.append(path)
        return len(out) <= _MAX_CHANGED_PATHS
    if kind is dict or kind is list:
        if old == new and _ENCODE(old) == _ENCODE(new):
            return True
        if len(old) > _MAX_DIFF_FANOUT or len(new) > _MAX_DIFF_FANOUT:
            out.append(path)
            return len(out) <= _MAX_CHANGED_PATHS
        if kind is dict:
            if list(old) == list(new):  # the values line up: find the others at C speed
                for key in compress(old, map(is_not, old.values(), new.values())):
                    if not _diff(old[key], new[key], (*path, key), out):
                        return False
                return len(out) <= _MAX_CHANGED_PATHS
            common_old = [k for k in old if k in new]
            if common_old != [k for k in new if k in old]:
                out.append(path)
                return len(out) <= _MAX_CHANGED_PATHS
            out.extend((*path, k) for k in old.keys() ^ new.keys())
            for key, value in old.items():
                after = new.get(key, value)
                if after is not value and not _diff(value, after, (*path, key), out):
                    return False
        else:
            shorter = min(len(old), len(new))
            # Shared data keeps most items' identity: find the others at C speed.
            for index in compress(range(shorter), map(is_not, old, new)):
                if not _diff(old[index], new[index], (*path, str(index)), out):
                    return False
            out.extend((*path, str(i)) for i in range(shorter, max(len(old), len(new))))
        return len(out) <= _MAX_CHANGED_PATHS
    if not _same_scalar(old, new):
        out.append(path)
    return len(out) <= _MAX_CHANGED_PATHS
