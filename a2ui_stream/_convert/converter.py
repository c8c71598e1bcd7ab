"""Conversion: an A2UI surface to the generative UI element tree of a ``present`` call.

Owns the converter's public face: :class:`Converter` (tables, limits and plans decided
once) and :class:`Conversion` (one result). Upstream's converter (assistant-ui
``convertSurfaceToUISpec``, reference converter sections 1f and 2) is reproduced key
for key wherever its output is valid; every element emitted also validates against
:mod:`a2ui_stream._convert.vocabulary`.

One snapshot, top to bottom, in :meth:`Converter.convert`:

1. A surface converted before, unchanged, gives the same conversion again.
2. A change the caller can name (``known``) from a conversion the converter made is
   applied to that conversion's element: changed data inside template items rebuilds
   those items (:meth:`~a2ui_stream._convert.plans.Plan.patch`), and components
   appended to the root's children convert just those (:func:`_appended`).
3. Otherwise :class:`~a2ui_stream._convert.plans.Plans` gives the plan of the surface's
   component set once it has been seen often enough, and the plan builds the tree from
   the data model, leaving to the walk whatever it cannot replay.
4. Otherwise :class:`~a2ui_stream._convert.walk.Walk` interprets the components,
   calling the handler of each component type (:mod:`~a2ui_stream._convert.elements`)
   with a :class:`~a2ui_stream._convert.walk.Context`.

Every path gives what the walk gives (the property tests hold them to it); data whose
lists hold gaps (:attr:`~a2ui_stream._state.surface.Surface.gaps`) has no plan.

Must not import: the reducer, events, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from functools import partial
from itertools import compress
from operator import is_not
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

import immutables
import msgspec

from a2ui_stream._convert.bindings import walk as walk_data
from a2ui_stream._convert.elements import HANDLERS
from a2ui_stream._convert.plans import NO_RUNS, ItemRuns, Plan, Plans
from a2ui_stream._convert.walk import (
    ROOT_SCOPE,
    Setup,
    Site,
    Walk,
    given_once,
    item_element,
    unknown_key,
)
from a2ui_stream._state.surface import ComponentChange, Surface
from a2ui_stream._tree.patch import DataChange
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream._wire.frozen import LISTS, FrozenDict, FrozenList, extended
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from a2ui_stream._convert.walk import Entry
    from a2ui_stream._wire.a2ui import Component

__all__ = ["Conversion", "Converter"]


_NOTHING_UNDER: Final[immutables.Map[tuple[str, ...], bool]] = immutables.Map()
_NO_SITES: Final[Mapping[tuple[str, ...], tuple[int, ...]]] = MappingProxyType({})


class Made(msgspec.Struct, frozen=True, gc=False):
    """How a conversion was made, for a later conversion of the same surface to build on.

    Attributes:
        surface: the surface converted.
        plan: the plan whose root scope built the element, or ``None``.
        nodes: the node budget the conversion used.
        work: the work budget it used.
        stopped: a budget ran out, and the walk refused every reference after it.
        log: a walk's log, for :func:`_reread` (empty when a plan made it).
        reads: what a walk read of the root model: each path once, what it gave and
            how many times it was read (``None`` when a plan made it). A persistent
            map, so that a conversion built on this one changes only what it reads anew.
        under: every path some read lies strictly under (a proper prefix of one).
        sites: a walk's templates over root model lists.
        sited: the positions in ``sites`` of the templates over each list, so that a
            change to one list costs its own templates, not all of them.
        stop: where in ``log`` the budget stopped the walk (``None`` when it did not).
        runs: the item runs of the plan's patches since its last run (see
            :meth:`~a2ui_stream._convert.plans.Plan.patch`); only a patch carries them on.
        seen: how many conversions in a row, this one included, were of the surface's
            very component set (:class:`~a2ui_stream._convert.plans.Plans` compiles a
            set converted often).
    """

    surface: Surface
    plan: Any
    nodes: int
    work: int
    stopped: bool = False
    log: tuple[Entry, ...] = ()
    reads: immutables.Map[tuple[str, ...], tuple[Any, int]] | None = None
    under: immutables.Map[tuple[str, ...], bool] = _NOTHING_UNDER
    sites: tuple[Site, ...] = ()
    sited: Mapping[tuple[str, ...], tuple[int, ...]] = _NO_SITES
    stop: int | None = None
    runs: ItemRuns = NO_RUNS
    seen: int = 1


class Conversion(msgspec.Struct, frozen=True):
    """One surface converted: the ``present`` args and what was lost on the way.

    Attributes:
        element: the root element (the ``present`` args), or ``None`` when the surface
            has nothing to show (no root, root unknown, root over a limit).
        warnings: diagnostics in depth-first order, each naming surface and component.
    """

    element: dict[str, Any] | None
    warnings: tuple[Diagnostic, ...]
    _made: Made | None = None


class Converter:
    """Converts surfaces to element trees; compiles the component sets it sees again.

    The component table and limits are resolved once here; :meth:`convert` branches
    only on data. Converting is linear in the elements emitted, whatever the input.
    The plans it keeps are a cache: a conversion's result never depends on them.
    """

    def __init__(self, *, limits: Limits = Limits()) -> None:  # noqa: B008 (immutable default)
        """Resolve tables and limits.

        Args:
            limits: the bounds to enforce; depth, template items, nodes and string length
                are used here.
        """
        self._limits = limits
        self._setup = Setup(HANDLERS, limits)
        self._plans = Plans(self._setup)

    def convert(
        self,
        surface: Surface,
        previous: Conversion | None = None,
        *,
        known: Sequence[DataChange | ComponentChange] = (),
    ) -> Conversion:
        """Convert a surface to the ``present`` args.

        Args:
            surface: the surface to convert.
            previous: an earlier conversion of the same surface by this converter: the
                same surface gives it back, and a change named in ``known`` is applied
                to its element. The result always equals a conversion without it.
            known: claims of how the data or the components changed since ``previous``
                (read off a patch or a re-sent snapshot), each checked by identity.

        Returns:
            The element tree (or ``None``) and the warnings. Never raises: an internal
            failure gives ``None`` and a ``convert.failed`` warning.
        """
        made = previous._made if previous is not None else None  # noqa: SLF001 (our own)
        if made is not None and made.surface is surface:
            return previous  # type: ignore[return-value]  # made is previous's
        if made is not None and made.surface.gaps and not surface.gaps:
            made = None  # a plan would patch what a walk made of data with gaps
        seen = 1  # conversions in a row of this very component set, this one included
        if made is not None and made.surface.components is surface.components:
            seen = made.seen + 1
        try:
            # A plan reads data as holding no gap; the walk reads a gap as absent.
            plan = None if surface.gaps else self._plans.get(surface, seen)
            paths = None if made is None else _claimed_paths(known, made.surface, surface)
            if previous is not None and made is not None and known:
                patched = self._patched(
                    surface, previous, made, plan, paths=paths, known=known, seen=seen
                )
                if patched is not None:
                    return patched
            if made is not None and made.reads is not None:
                reread = _reread(self._setup, surface, previous, made, paths, seen=seen)  # type: ignore[arg-type]
                if reread is not None:
                    return reread
            if plan is not None:
                walk = Walk(self._setup, surface)
                element = plan.run(walk)
                if element is not None:
                    return _result(element, walk, surface, plan, seen)
            walk = Walk(self._setup, surface)
            element = walk.convert(surface.root_id)
        except Exception as exc:  # noqa: BLE001 (the contract: conversion never raises)
            failure = Diagnostic(
                code=Code.CONVERT_FAILED,
                message=f"A2UI surface conversion encountered malformed input ({exc!r}).",
                surface_id=surface.surface_id,
            )
            return Conversion(element=None, warnings=(failure,))
        return _result(element, walk, surface, None, seen)

    def _patched(
        self,
        surface: Surface,
        previous: Conversion,
        made: Made,
        plan: Plan | None,
        *,
        paths: Sequence[tuple[str, ...]] | None,
        known: Sequence[DataChange | ComponentChange],
        seen: int,
    ) -> Conversion | None:
        """``previous`` with a claimed change applied, when that is exact.

        ``paths``: where a data claim in ``known`` says the data changed
        (:func:`_claimed_paths`), or ``None``; ``seen``: as :attr:`Made.seen` says.
        """
        before = made.surface
        element = previous.element
        if element is None or _basis(before) != _basis(surface):
            return None
        setup = self._setup
        if (
            paths is not None
            and plan is not None
            and (made.plan is plan or (made.plan is None and not made.stopped))
        ):
            found = plan.patch(element, (before, surface), partial(Walk, setup), paths, made.runs)
            if found is not None:
                patched, nodes, work, runs = found
                nodes += made.nodes
                work += made.work
                if nodes <= setup.max_nodes and work <= setup.max_work:
                    kept = Made(surface, plan, nodes=nodes, work=work, runs=runs, seen=seen)
                    return Conversion(patched, previous.warnings, kept)
        for claim in known:
            if (
                type(claim) is ComponentChange
                and claim.before is before.components
                and claim.after is surface.components
                and before.data_model is surface.data_model
            ):
                return _appended(self._setup, surface, previous, made, claim)
        return None


def _basis(surface: Surface) -> tuple[str, str, str | None]:
    """What a conversion depends on besides its components and data."""
    return surface.surface_id, surface.version, surface.root_id


def _result(element: Any, walk: Walk, surface: Surface, plan: Plan | None, seen: int) -> Conversion:
    if plan is not None:
        made = Made(
            surface, plan, nodes=walk.nodes, work=walk.work, stopped=walk.stopped, seen=seen
        )
    else:
        reads, under = _counted(immutables.Map(), _NOTHING_UNDER, walk.reads)
        made = Made(
            surface,
            None,
            nodes=walk.nodes,
            work=walk.work,
            stopped=walk.stopped,
            log=tuple(walk.log),
            reads=reads,
            under=under,
            sites=tuple(walk.sites),
            sited=_sited(walk.sites),
            stop=_stop_index(walk.log) if walk.stopped else None,
            seen=seen,
        )
    return Conversion(element, walk.warnings(), made)


def _sited(sites: Sequence[Site]) -> Mapping[tuple[str, ...], tuple[int, ...]]:
    """The positions of the sites over each list read, in order."""
    if not sites:
        return _NO_SITES
    found: dict[tuple[str, ...], list[int]] = {}
    for position, site in enumerate(sites):
        found.setdefault(site.read, []).append(position)
    return MappingProxyType({read: tuple(positions) for read, positions in found.items()})


def _counted(
    reads: immutables.Map[tuple[str, ...], tuple[Any, int]],
    under: immutables.Map[tuple[str, ...], bool],
    more: Iterable[tuple[tuple[str, ...], Any]],
    changed: Mapping[tuple[str, ...], Any] | None = None,
) -> tuple[immutables.Map[tuple[str, ...], tuple[Any, int]], immutables.Map[tuple[str, ...], bool]]:
    """``reads`` and ``under`` with ``more`` reads counted in and ``changed`` values set.

    Returns:
        The ``reads`` and ``under`` fields of a :class:`Made`.
    """
    counts = reads.mutate()
    prefixes = under.mutate()
    for segments, value in changed.items() if changed else ():
        counts[segments] = (value, counts[segments][1])
    for segments, value in more:
        found = counts.get(segments)
        if found is None:
            counts[segments] = (value, 1)
            for size in range(len(segments)):
                prefixes[segments[:size]] = True
        else:
            counts[segments] = (found[0], found[1] + 1)
    return counts.finish(), prefixes.finish()


def _claimed_paths(
    known: Sequence[DataChange | ComponentChange], before: Surface, surface: Surface
) -> tuple[tuple[str, ...], ...] | None:
    """The paths a claim in ``known`` says the data changed at, from one surface to the other."""
    for claim in known:
        if (
            type(claim) is DataChange
            and claim.before is before.data_model
            and claim.after is surface.data_model
        ):
            return claim.paths
    return None


#: Scalars whose equal values print alike (a float's sign of zero may not).
_SCALARS: Final = frozenset({str, int, bool})


def _same(old: Any, new: Any) -> bool:
    """Whether a read that gave ``old`` gives what converts alike when it gives ``new``."""
    return old is new or (type(old) is type(new) and type(new) in _SCALARS and old == new)


def _reread(
    setup: Setup,
    surface: Surface,
    previous: Conversion,
    made: Made,
    paths: Sequence[tuple[str, ...]] | None = None,
    *,
    seen: int,
) -> Conversion | None:
    """A walk's conversion for new data, when its reads still give what they gave.

    The element depends on the components and on what the walk read of the data: with
    the same components, a read that gives the same value again converts alike. A
    template's list read from the root model that changed only in some items (the
    others the very same objects) or grew at its end gives the same ListView with
    those items' ListViewItems converted anew, in traversal order, their warnings in
    the old items' place in the log, their nodes and work counted on top of the whole
    conversion's (a budget that could run out anywhere gives ``None``). That is how an
    agent streams a list's data, and how a dashboard's rows change. With ``paths``,
    where a claim says the data changed, only the reads above or at those paths are
    looked at again: a change costs what it touches, not what the walk read. A walk a
    budget stopped refused everything after the cut; items changed in place before
    it, each converting to exactly the nodes and work it took, leave the cut where it
    fell; anything else gives ``None``.

    Returns:
        The conversion, or ``None`` when anything else the walk read changed.
    """
    before = made.surface
    if before.components is not surface.components:
        return None
    if _basis(before) != _basis(surface) or made.reads is None:
        return None
    root = surface.data_model
    sited = made.sited
    lists: dict[tuple[str, ...], tuple[list[Any], list[Any]]] = {}
    for segments, (value, count) in _looked_at(made.reads, made.under, paths):
        now = walk_data(root, segments)
        if _same(value, now):
            continue
        templates = len(sited.get(segments, ()))
        if count != templates or type(now) not in LISTS or type(value) not in LISTS:
            return None  # read by more than its templates, or not a list's change
        cap = setup.max_items
        if len(now) < len(value) or len(value) <= cap < len(now):
            return None  # items removed, or the cap reached now
        if made.stopped and len(now) != len(value):
            return None  # items appended after the cut
        lists[segments] = (value, now)
    if not lists:
        kept = msgspec.structs.replace(made, surface=surface, seen=seen)
        return Conversion(previous.element, previous.warnings, kept)
    walk = Walk(setup, surface)
    walk.nodes, walk.work = made.nodes, made.work
    stop = made.stop
    if made.stopped and stop is None:
        return None
    log = _Log(made.log, stop)
    element: Any = previous.element
    # The templates over the changed lists, in walk order; the others keep their
    # items, and move only where the rewritten log has moved.
    sites = list(made.sites)
    after = 0  # the first site not dealt with yet
    for position in sorted(p for read in lists for p in sited[read]):
        log.move(sites, after, position)
        after = position + 1
        site = sites[position]
        found = _items_anew(log, walk, site, *lists[site.read])
        if found is None:  # its items as they were, each where the log now puts it
            sites[position] = log.moved(site)
            continue
        if not found:
            return None
        children, spans = found
        address = site.address if site.address is not None else _address(element, site.element)
        if address is None:
            return None
        listview = FrozenDict({"$type": "ListView", "children": FrozenList(children)})
        element = _put(element, address, listview)
        log.copy(site.end)
        end = len(log.out)
        sites[position] = site._replace(
            spans=tuple(spans), end=end, element=listview, address=address
        )
    log.move(sites, after, len(sites))
    log.copy(len(made.log))
    if walk.nodes > setup.max_nodes or walk.work > setup.max_work:
        return None
    changed = {segments: now for segments, (_, now) in lists.items()}
    reads, under = _counted(made.reads, made.under, walk.reads, changed)
    grew = Made(
        surface,
        None,
        nodes=walk.nodes,
        work=walk.work,
        stopped=made.stopped,
        log=tuple(log.out),
        reads=reads,
        under=under,
        sites=tuple(sites),
        sited=sited,
        # Every entry rewritten lies before the stop (an item past it is refused).
        stop=None if stop is None else stop + len(log.out) - len(made.log),
        seen=seen,
    )
    return Conversion(element, given_once(log.out), grew)


def _looked_at(
    reads: immutables.Map[tuple[str, ...], tuple[Any, int]],
    under: immutables.Map[tuple[str, ...], bool],
    paths: Sequence[tuple[str, ...]] | None,
) -> Iterable[tuple[tuple[str, ...], tuple[Any, int]]]:
    """The reads a change at ``paths`` may have changed (all of them without ``paths``).

    The reads above or at a changed path are looked up, path prefix by prefix; when
    some read lies under one, all of them are looked at.
    """
    if paths is None or any(path in under for path in paths):
        return reads.items()
    found: dict[tuple[str, ...], tuple[Any, int]] = {}
    for path in paths:
        for size in range(len(path) + 1):
            prefix = path[:size]
            read = reads.get(prefix)
            if read is not None:
                found[prefix] = read
    return found.items()


def _items_anew(
    log: _Log, walk: Walk, site: Site, old: list[Any], now: list[Any]
) -> tuple[list[Any], list[tuple[int, int, int, int]]] | tuple[()] | None:
    """A site's ListViewItems and spans with the items of ``now`` not in ``old`` anew.

    Returns:
        The children and spans; ``None`` when no item shown changed; ``()`` when an
        item cannot be converted anew alone.
    """
    children = list(site.element["children"])
    spans = list(site.spans)
    shown = min(len(now), walk.max_items)  # the items past the cap are not shown
    kept = min(len(old), shown)
    changed = list(compress(range(kept), map(is_not, old, now)))
    if not changed and kept == shown:
        return None
    if log.stop is not None and any(i >= len(spans) or spans[i][1] > log.stop for i in changed):
        return ()  # an item the budget cut, or refused
    upto = 0  # the spans before it are where the rewritten log puts them
    for position in [*changed, *range(kept, shown)]:
        log.shift(spans, upto, min(position, len(spans)))
        was = spans[position] if position < kept else (site.end, site.end, 0, 0)
        found = log.anew(walk, site, now[position], was)
        if found is None:
            return ()
        item, span = found
        if position < kept:
            children[position], spans[position] = item, span
        else:
            children.append(item)
            spans.append(span)
        upto = position + 1
    log.shift(spans, upto, min(kept, len(spans)))  # a stopped walk may have refused some
    return children, spans


class _Log:
    """A walk's log rewritten in order: old entries copied, some items' entries anew.

    ``stop``: where in the old log a budget stopped the walk, or ``None``; items are
    then converted anew only to exactly the nodes and work they took.
    """

    __slots__ = ("done", "old", "out", "stop")

    def __init__(self, old: tuple[Entry, ...], stop: int | None = None) -> None:
        self.old = old
        self.stop = stop
        self.out: list[Entry] = []
        self.done = 0  # the old entries dealt with so far

    def copy(self, end: int) -> None:
        """Copy the old entries up to ``end``."""
        self.out.extend(self.old[self.done : end])
        self.done = max(self.done, end)

    def shift(self, spans: list[tuple[int, int, int, int]], start: int, end: int) -> None:
        """Items ``start`` to ``end`` kept: their spans where the rewritten log puts them."""
        shift = len(self.out) - self.done
        if shift:
            for index in range(start, end):
                a, b, nodes, work = spans[index]
                spans[index] = (a + shift, b + shift, nodes, work)

    def move(self, sites: list[Site], start: int, end: int) -> None:
        """Sites ``start`` to ``end``, all their items kept, moved as :meth:`moved` says."""
        if len(self.out) != self.done:
            for position in range(start, end):
                sites[position] = self.moved(sites[position])

    def moved(self, site: Site) -> Site:
        """A site whose items are all kept, where the rewritten log puts them."""
        if len(self.out) == self.done:
            return site
        spans = list(site.spans)
        self.shift(spans, 0, len(spans))
        return site._replace(spans=tuple(spans), end=site.end + len(self.out) - self.done)

    def anew(
        self, walk: Walk, site: Site, value: Any, was: tuple[int, int, int, int]
    ) -> tuple[dict[str, Any], tuple[int, int, int, int]] | None:
        """Convert one item in place of the one whose span was ``was``; ``None``: cut.

        Its nodes and work are counted on top of the conversion's (the old item's
        taken off after), so a budget that runs out here could anywhere. In a walk a
        budget stopped, the old item's are taken off first, and the new item must
        take exactly as many.
        """
        self.copy(was[0])
        self.done = was[1]
        walk.log, walk.visited = [], set(site.ancestors)
        exact = self.stop is not None
        if exact:
            walk.nodes -= was[2]
            walk.work -= was[3]
        nodes, work = walk.nodes, walk.work
        if not walk.reserve(site.cid):
            return None
        kid = walk.visit(site.component_id, site.depth + 1, value)
        if walk.stopped:
            return None
        start = len(self.out)
        self.out.extend(walk.log)
        span = (start, len(self.out), walk.nodes - nodes, walk.work - work)
        if exact:
            if span[2:] != was[2:]:
                return None
        else:
            walk.nodes -= was[2]
            walk.work -= was[3]
        return item_element(kid), span


#: The warnings a budget stops a walk with.
_STOPS: Final = frozenset({Code.CONVERT_NODE_BUDGET, Code.CONVERT_WORK_BUDGET})


def _stop_index(log: Sequence[Entry]) -> int | None:
    """Where in a stopped walk's log the budget ran out, or ``None`` if it cannot be told."""
    for index, (_, diagnostic) in enumerate(log):
        if diagnostic.code in _STOPS:
            return index
    return None


def _address(node: Any, target: Any) -> tuple[Any, ...] | None:
    """The keys and indexes from ``node`` to the very object ``target``, or ``None``.

    Depth first, one iterator per open container, the path a list: a tuple per value
    visited cost 8 ms on a 4,000-component tree (12% of big-surface's run).
    """
    if node is target:
        return ()
    path: list[Any] = []
    pending = [_members(node)]
    while pending:
        for key, inner in pending[-1]:
            if inner is target:
                return (*path, key)
            if isinstance(inner, dict | list) and inner:
                path.append(key)
                pending.append(_members(inner))
                break
        else:
            pending.pop()
            if path:
                path.pop()
    return None


def _members(node: Any) -> Iterator[tuple[Any, Any]]:
    """A container's keys or indexes with what they hold."""
    return iter(node.items()) if isinstance(node, dict) else enumerate(node)


def _put(node: Any, address: tuple[Any, ...], value: Any) -> Any:
    """``node`` with ``value`` at ``address``, each container on the way copied."""
    if not address:
        return value
    key, inner = address[0], _put(node[address[0]], address[1:], value)
    if isinstance(node, dict):
        return FrozenDict({**node, key: inner})
    items = node[:]  # a copy in C: a wide list (a root of many children) costs no loop
    items[key] = inner
    return FrozenList(items)


def _appended(
    setup: Setup,
    surface: Surface,
    previous: Conversion,
    made: Made,
    claim: ComponentChange,
) -> Conversion | None:
    """A conversion after components were appended to the root's children, built on.

    How an agent streams a list one component at a time. The references appended to
    the root's ``children`` are the last the walk visits, so converting just those,
    with the budgets the previous conversion left, gives the root's new tail and the
    warnings after the old ones (once a budget stopped the walk, they are refused),
    when nothing the previous conversion reached named a new component. Anything else
    (a component replaced, the root changed otherwise) gives ``None``.
    """
    before, after = made.surface.components, surface.components
    root_id = surface.root_id
    new_ids = claim.ids - {root_id}
    if root_id is None or any(cid in before for cid in new_ids):
        return None  # an existing component other than the root was replaced
    if any(
        warning.code == Code.CONVERT_COMPONENT_MISSING and warning.component_id in new_ids
        for warning in previous.warnings
    ):
        return None  # a component it looked for has arrived
    element = previous.element
    kept = Made(surface, None, nodes=made.nodes, work=made.work, stopped=made.stopped)
    if root_id not in claim.ids:  # only components nothing reaches were added
        return Conversion(element, previous.warnings, kept)
    old, new = before.get(root_id), after.get(root_id)
    if old is None or new is None or element is None or old.component != new.component:
        return None
    old_refs: Any = old.props.get("children")
    new_refs: Any = new.props.get("children")
    if type(old_refs) not in LISTS or type(new_refs) not in LISTS:
        return None
    size = len(old_refs)
    # A claim that the root only grew spares comparing its old references, one by one.
    if root_id not in claim.grown and new_refs[:size] != old_refs:
        return None
    if len(new_refs) < size or {**new.props, "children": old_refs} != old.props:
        return None
    if made.stopped:  # the walk refuses every reference after the budget ran out
        return Conversion(element, previous.warnings, kept)
    walk = Walk(setup, surface)
    walk.nodes, walk.work = made.nodes, made.work
    walk.visited.add(root_id)
    tail = walk.refs(new, new_refs[size:], 1, ROOT_SCOPE)
    if tail:
        children = extended(element.get("children", []), tail)
        element = FrozenDict({**element, "children": children})
    given = [_given(warning, before) for warning in previous.warnings]
    warnings = previous.warnings + walk.warnings(given)
    grown = Made(surface, None, nodes=walk.nodes, work=walk.work, stopped=walk.stopped)
    return Conversion(element, warnings, grown)


def _given(warning: Diagnostic, components: Mapping[str, Component]) -> str:
    """The once-per-conversion key a warning of an earlier conversion was logged under."""
    cid = warning.component_id
    if warning.code == Code.CONVERT_UNKNOWN_COMPONENT and cid is not None and cid in components:
        return unknown_key(components[cid].component)
    return warning.code
