"""One conversion in progress: the walk over component references, and its limits.

Owns :class:`Run`, the state of converting one surface: the walk over component
references in upstream's order (reference converter section 1f: budget, depth, cycle,
lookup, template, whitelist), the depth and node limits and the work budget that bounds
references emitting nothing, and patching long child lists when only some children
changed. It builds a :class:`Memo` per component and reuses a previous one when
:class:`Changes` says nothing it read or reached has changed. Template expansion comes
from :class:`~a2ui_stream._convert.templates.Expander`, reading props, bindings, functions and
the warnings log from :class:`~a2ui_stream._convert.reading.Reader`; ``Run`` subclasses both.

What each component type becomes lives in :mod:`a2ui_stream._convert.elements`; the
:class:`Run` receives that table, resolved once per converter, and never branches on
component types itself.

Must not import: the element handlers, the converter front (``_convert``), the reducer,
request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import chain
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from a2ui_stream._convert.bindings import MISSING, template_of
from a2ui_stream._convert.reuse import NOWHERE, Children, Memo, Region, join, only_strings
from a2ui_stream._convert.templates import Expander
from a2ui_stream._tree.frozen import FrozenList, freeze
from a2ui_stream._wire.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from a2ui_stream._convert.reuse import Changes
    from a2ui_stream._state.surface import Surface
    from a2ui_stream._wire.a2ui import Component
    from a2ui_stream._wire.limits import Limits

__all__ = ["Handler", "Run", "Setup"]

Handler: TypeAlias = "Callable[[Run, Memo], dict[str, Any] | None]"
"""Converts one component (its memo in progress) to its element, or ``None`` to drop it."""

#: Child visits that emit nothing (missing, unknown, depth-capped) allowed per node budget.
_WORK_PER_NODE: Final = 4
#: Children lists at least this long keep :class:`Children` to be patched next time.
_MIN_CHILDREN: Final = 8
#: What a reference without a usable previous memo starts from: nothing before, no
#: region, no reads of its item, no old memo.
_NO_PREVIOUS: Final[tuple[Any, Region, Region, Memo | None]] = (None, NOWHERE, NOWHERE, None)
_WARNING: Final = Severity.WARNING


class Setup:
    """What a converter decides once and every run shares: handlers, limits, caches."""

    __slots__ = (
        "handlers",
        "max_depth",
        "max_items",
        "max_nodes",
        "max_string",
        "max_work",
        "pointers",
    )

    def __init__(self, handlers: Mapping[str, Handler], limits: Limits) -> None:
        self.handlers = dict(handlers)
        self.max_depth = limits.max_depth
        self.max_items = limits.max_template_items
        self.max_nodes = limits.max_nodes
        self.max_string = limits.max_string_length
        self.max_work = max(_WORK_PER_NODE * limits.max_nodes, 1024)
        self.pointers: dict[str, tuple[str, ...]] = {}


class Run(Expander):
    """The state of one conversion: budgets, scope, warnings, what changed since last time.

    Args:
        setup: the converter's tables and limits.
        surface: the surface to convert.
        changes: what changed since the conversion whose memos are offered for reuse,
            or ``None`` when none are.
    """

    __slots__ = (
        "changes",
        "components",
        "handlers",
        "maps",
        "max_depth",
        "max_items",
        "max_nodes",
        "max_work",
        "stopped",
        "visited",
    )

    def __init__(self, setup: Setup, surface: Surface, changes: Changes | None) -> None:
        self.handlers = setup.handlers
        self.max_depth = setup.max_depth
        self.max_items = setup.max_items
        self.max_nodes = setup.max_nodes
        self.max_string = setup.max_string
        self.max_work = setup.max_work
        self.pointers = setup.pointers
        self.changes = changes
        self.components: Mapping[str, Component] = surface.components
        self.surface_id = surface.surface_id
        self.maps = surface.version.startswith("v0.8")  # v0.8 templates also iterate maps
        self.root_value: Any = surface.data_model  # UNSET is MISSING: no model yet
        self.item: Any = MISSING
        self.last_path: tuple[str, ...] = ()
        self.nodes = 0
        self.work = 0
        self.misses = 0
        self.stopped = False
        self.visited: set[str] = set()
        self.log: list[tuple[str | None, Diagnostic]] = []

    # -- traversal ----------------------------------------------------------------------

    def root(self, root_id: str | None, prev: Memo | None) -> Memo | None:
        """Convert from the root component, reusing ``prev``'s unchanged subtrees."""
        if root_id is None:
            return None
        if root_id not in self.components:
            self.warn(
                "convert.root_missing", f'A2UI root component "{root_id}" was not found.', None
            )
            return None
        return self.visit(root_id, (), 0, prev)

    def stop(self) -> None:
        """End the traversal: every later reference is refused without a warning."""
        self.stopped = True
        self.max_work = -1

    def reserve(self, component_id: str) -> bool:
        """Take one node from the budget; on failure warn once and stop the traversal."""
        if self.nodes < self.max_nodes:
            self.nodes += 1
            return True
        self.warn(
            "convert.node_budget",
            f"A2UI node budget of {self.max_nodes} was reached.",
            component_id,
            once=True,
        )
        self.stop()
        return False

    def refuse_work(self, cid: str) -> None:
        """Refuse a reference over the work budget (warning when it is the first)."""
        if not self.stopped:
            self.warn(
                "convert.work_budget",
                "A2UI conversion stopped: too many references emitted nothing.",
                cid,
            )
            self.stop()

    def visit(self, cid: str, path: tuple[str, ...], depth: int, prev: Memo | None) -> Memo | None:
        """Convert one component reference (upstream ``convertComponent``, in its order).

        Args:
            cid: the component id referenced.
            path: the template item path in scope (``()`` at the root scope).
            depth: the depth of the reference (root 0).
            prev: the memo this reference had in the previous conversion, if any.

        Returns:
            The memo of the converted (or reused) subtree, ``None`` when it emits nothing.
        """
        self.work += 1
        if self.work > self.max_work:  # also true once the traversal has stopped
            self.refuse_work(cid)
            return None
        if depth >= self.max_depth:
            self.warn(
                "convert.depth_cap",
                f"A2UI depth cap of {self.max_depth} was reached.",
                cid,
                once=True,
            )
            return None
        if cid in self.visited:
            self.warn("convert.cycle", f'A2UI component cycle detected at "{cid}".', cid)
            return None
        comp = self.components.get(cid)
        if comp is None:
            self.warn("convert.component_missing", f'A2UI component "{cid}" was not found.', cid)
            return None
        before, region, reads, old = _NO_PREVIOUS
        if prev is not None:
            if prev.comp is comp:
                if prev.path == path:
                    if self.reusable(prev) or self.repeats(prev):
                        return prev
                    # Kids matched by position and taken whole are covered by this region
                    # (and these reads) already, so only the kids converted again need
                    # joining into it.
                    before, region, reads, old = (
                        prev.items or prev.kids,
                        prev.region,
                        prev.reads,
                        prev,
                    )
            elif prev.comp.id == cid and prev.kids is not None:
                before, region, reads, old = _changed_previous(prev, comp, path)
        children = comp.props.get("children")
        template = template_of(children) if type(children) is dict else None
        handler = None
        if template is None:
            handler = self.handlers.get(comp.component)
            if handler is None:
                # Upstream logs this at debug; but the surface loses the element (all of
                # it, at the root), so say so once per type and conversion.
                self.warn(
                    "convert.unknown_component",
                    f'The root component "{cid}" is of unknown type "{comp.component}": '
                    "the surface draws nothing."
                    if depth == 0
                    else f'Unknown A2UI component "{comp.component}" (id "{cid}") was '
                    "skipped, with its children.",
                    cid,
                    once=f"convert.unknown_component:{comp.component}",
                )
                return None
            if self.nodes >= self.max_nodes:
                self.reserve(cid)
                return None
        memo = Memo(comp, path, depth, before, region, reads)
        start_nodes, start_work, start_log = self.nodes, self.work - 1, len(self.log)
        self.visited.add(cid)
        if template is not None:
            element = self.template(memo, template)
        elif handler is not None:
            self.nodes = start_nodes + 1
            element = handler(self, memo)
            if element is not None and type(children) is list:
                out = self.children(memo, children, path, old)
                if out:  # after any single-child references the handler converted
                    first = element.get("children")
                    # Converted children are frozen elements: the list needs no walk.
                    element["children"] = FrozenList(out) if first is None else first + out
        self.visited.discard(cid)
        memo.prev = None
        # Frozen once made: the element is shared with the state, later outputs and the
        # caller, who must not be able to change them (the children are frozen already).
        memo.element = element if element is None else freeze(element)
        # A limit that stopped the traversal inside this subtree made its output depend
        # on what came before it: its complete children stay reusable; it is reused
        # only where it is entered with the same budgets (:meth:`repeats`).
        if self.stopped:
            memo.whole, memo.entry = False, (start_nodes, start_work)
        memo.count = self.nodes - start_nodes
        memo.work = self.work - start_work
        if len(self.log) > start_log:
            memo.warns = tuple(self.log[start_log:])
        return memo

    def reusable(self, prev: Memo) -> bool:
        """Take ``prev`` whole: it was not cut, it fits the budgets, nothing it used changed."""
        changes = self.changes
        if (
            changes is None
            or not prev.whole
            or self.nodes + prev.count > self.max_nodes
            or self.work - 1 + prev.work > self.max_work
            or not changes.unchanged(prev)
        ):
            return False
        self.take_whole(prev)
        return True

    def take_whole(self, prev: Memo) -> None:
        """Count ``prev``'s nodes, work and warnings, as converting it again would."""
        self.nodes += prev.count
        self.work += prev.work - 1
        if prev.warns:
            self.log.extend(prev.warns)

    def repeats(self, prev: Memo) -> bool:
        """Take a cut ``prev`` whole where converting it again would cut it the same way.

        A subtree a limit cut depends on what came before it only through the node and
        work counts it was entered with: entered with the same ones, nothing it used
        changed, it converts to the same output and stops the traversal at the same
        place. Taking it spares converting again, at every update, the part of a
        surface that runs over a budget.
        """
        changes = self.changes
        if (
            changes is None
            or prev.entry is None
            or prev.entry != (self.nodes, self.work - 1)
            or not changes.unchanged(prev)
        ):
            return False
        self.take_whole(prev)
        self.stop()
        return True

    def convert_refs(
        self, memo: Memo, refs: Sequence[Any], path: tuple[str, ...]
    ) -> list[dict[str, Any]]:
        """Convert child references of ``memo`` one level deeper; the elements they emit.

        Each child's memo joins ``memo.kids`` (its id, for a reference that emitted
        nothing), matched with the previous conversion's child at the same position
        (same component) or of the same id and item path (changed component). The
        children's regions join ``memo``'s (:func:`~a2ui_stream._convert.reuse.join`).

        Args:
            memo: the parent in progress.
            refs: the referenced ids, as given (a non-string is warned about).
            path: the item path in scope for the children.
        """
        kids = memo.kids
        if kids is None:
            kids = memo.kids = []
        prev = memo.prev
        depth = memo.depth + 1
        region = memo.region
        reads = memo.reads if path == memo.path else None  # the children read the same item
        out = []
        refused = False
        for position, cid in enumerate(refs):
            if type(cid) is not str:
                self.warn(
                    "convert.child_malformed",
                    f'Component "{memo.comp.id}" has a malformed child reference.',
                    memo.comp.id,
                )
                continue
            if self.stopped:  # refused without a word: only the reach is noted
                if not refused:  # the rest at once, unless one of them warns
                    refused = True
                    rest = refs[position:]
                    if only_strings(rest):
                        kids += rest
                        break
                kids.append(cid)
                continue
            before = None
            if prev is not None:
                if type(prev) is list:
                    if len(kids) < len(prev):
                        before = prev[len(kids)]
                        if type(before) is str:
                            before = None
                else:
                    before = prev.get((cid, path))
            kid = self.visit(cid, path, depth, before)
            if kid is None:
                kids.append(cid)  # reached, emitted nothing: it may appear later
                continue
            kids.append(kid)
            taken = type(prev) is list and kid is before  # its reads are inherited already
            if not taken:
                joined = kid.region
                if joined and joined != region:
                    region = join(region, joined) if region else joined
                joined = kid.reads
                if joined and reads is not None and joined != reads:
                    reads = join(reads, joined) if reads else joined
            if kid.element is not None:
                out.append(kid.element)
        memo.region = region
        if reads is not None:
            memo.reads = reads
        return out

    def children(
        self, memo: Memo, refs: list[Any], path: tuple[str, ...], old: Memo | None
    ) -> list[dict[str, Any]]:
        """Convert a long ``children`` list as :meth:`convert_refs` does, patching ``old``'s.

        When only data changed and ``old`` (the previous memo of this component, same
        path) has the list's :class:`Children`, only the children a change may touch
        are visited; each run of the others between two of them is taken in one step,
        as :meth:`visit` would take each of them whole (:meth:`reusable` holds for
        every one: the components are the same objects, the ancestors and depth too,
        and no change touches them): their memos, their elements, their warnings in
        order, and their node and work budget from the totals. Where a run would not
        fit the budgets, its children go through :meth:`convert_refs` one by one, which
        cuts them exactly where a fresh conversion would.

        Args:
            memo: the parent in progress, its handler done.
            refs: its ``children`` list.
            path: the item path in scope.
            old: the previous memo of the same component at the same path, if any.
        """
        if len(refs) < _MIN_CHILDREN:
            return self.convert_refs(memo, refs, path)
        entries = memo.kids
        first = memo.first = 0 if entries is None else len(entries)
        if old is None:
            return self.convert_refs(memo, refs, path)
        touched = self.touched_children(memo, refs, old)
        if touched is None:
            return self.convert_refs(memo, refs, path)
        kept: Children = old.children  # type: ignore[assignment]  # touched_children set it
        old_kids: list[Any] = old.kids  # type: ignore[assignment]  # it has the entries
        if entries is None:
            entries = memo.kids = []
        out: list[dict[str, Any]] = []
        built = kept.start()
        size = len(old_kids) - first  # the old list; any references past it were appended
        end = size - kept.tail
        start = 0
        whole = True  # whether ``built`` has an entry for every reference so far
        for index in (*touched, end):
            if index > start:  # the untouched run [start, index)
                if self.take(kept, start, index):
                    entries += old_kids[first + start : first + index]
                    out.extend(filter(None, kept.elements[start:index]))
                    built.take(kept, start, index)
                else:  # near a limit: one by one, cut exactly where a fresh run cuts
                    out += self.convert_refs(memo, refs[start:index], path)
                    built.index = None
                    whole = False
            if index == end:
                break
            out += self.convert_refs(memo, refs[index : index + 1], path)
            built.add(entries[-1], old_kids[first + index])
            start = index + 1
        if end < size:  # the references that emitted nothing at the end, in one go
            if self.stopped:  # each is refused as it was
                entries += refs[end:size]
                built.pad(size - end)
            else:
                out += self.convert_refs(memo, refs[end:size], path)
                tail = entries[first + end :]
                built.extend(tail)
                if not only_strings(tail):
                    built.index = None
        if size < len(refs):  # the appended references
            out += self.convert_refs(memo, refs[size:], path)
            added = entries[first + size :]
            built.extend(added)
            built.tail = _tail(entries, first, size - end, added)
            built.index = None  # it has no positions for them; built again when needed
        if whole:  # an entry per reference, where the index (if any) files them
            memo.children = built
        return out

    def take(self, kept: Children, start: int, stop: int) -> bool:
        """Take the budgets and warnings of ``kept``'s entries ``[start, stop)`` if they fit."""
        nodes = self.nodes + sum(kept.sizes[start:stop])
        work = self.work + sum(kept.works[start:stop])
        if nodes > self.max_nodes or work > self.max_work:
            return False
        self.nodes, self.work = nodes, work
        if kept.warned:
            self.log.extend(chain.from_iterable(kept.notes[start:stop]))
        return True

    def touched_children(self, memo: Memo, refs: list[Any], old: Memo) -> list[int] | None:
        """The positions of the children to visit when ``old``'s list can be patched.

        It can when only data changed (no change to the root, none to the item in
        scope) or the changed components can reach none of the children but through
        the entries that emitted nothing (:func:`_untouched_by_components`), ``old``
        kept an entry per reference at the same place in its kids, and a change may
        touch at most half of them; otherwise ``None``. Entries that emitted nothing
        are always touched: their warnings are kept nowhere, and an id one of them
        looked for in vain may have arrived.
        """
        changes = self.changes
        if (
            changes is None
            or changes.heads is None
            or self.stopped
            or old.first != memo.first
            or old.kids is None
        ):
            return None
        old_refs = old.comp.props.get("children")
        if (
            type(old_refs) is not list
            or len(old.kids) - old.first != len(old_refs)
            or len(old_refs) > len(refs)
        ):
            return None
        if memo.path and changes.meets(memo.path):
            return None
        entries = old.kids[old.first :]
        kept = old.children
        if kept is None:
            kept = old.children = Children.of(entries)
        if changes.mask and not _untouched_by_components(changes, memo, kept):
            return None
        appended = len(refs) - len(entries)
        end = len(entries) - kept.tail
        # The entries that emitted nothing are visited again either way: the index
        # touches them at any change, and without one it is not worth building.
        gaps = kept.gaps
        touched = (
            kept.touched(entries, changes.paths)
            if changes.paths
            else set(gaps[: bisect_left(gaps, end)])
        )
        if not old.whole and end:
            # A limit stopped the old conversion at the tail or inside the entry before
            # it; every entry before that one was converted whole (see Memo.whole).
            last = entries[end - 1]
            if type(last) is not Memo or not last.whole:
                touched.add(end - 1)
        if 2 * (len(touched) + appended) > len(refs):
            return None
        return sorted(touched)

    def child(self, memo: Memo, cid: Any) -> Any:
        """Convert one child reference of ``memo`` in its scope; its element, or ``None``."""
        out = self.convert_refs(memo, (cid,), memo.path)
        return out[0] if out else None

    def reached(self, memo: Memo, cid: str) -> None:
        """Note that ``memo``'s output depends on component ``cid`` without converting it."""
        if memo.kids is None:
            memo.kids = [cid]
        else:
            memo.kids.append(cid)

    def extras(self, memo: Memo, element: dict[str, Any], refs: Sequence[Any]) -> None:
        """Convert single-child references (``child``, ``trigger``) into ``children``."""
        if refs:
            out = self.convert_refs(memo, refs, memo.path)
            if out:
                element["children"] = out


def _changed_previous(
    prev: Memo, comp: Component, path: tuple[str, ...]
) -> tuple[Any, Region, Region, Memo | None]:
    """What :meth:`Run.visit` starts from when ``prev`` converted another ``comp``.

    Its kids by id and item path; or, when ``comp`` only appended children to a long
    list (a surface streamed one component at a time), its kids by position and
    ``prev`` itself, so that the list is patched as when only data changed. The old
    region and reads then cover what the old component read: that only
    over-approximates.
    """
    if prev.path == path and _extends(prev, comp):
        return prev.kids, prev.region, prev.reads, prev
    kids = prev.kids or ()
    return (
        {(k.comp.id, k.path): k for k in reversed(kids) if type(k) is Memo},
        NOWHERE,
        NOWHERE,
        None,
    )


def _extends(prev: Memo, comp: Component) -> bool:
    """Whether ``comp`` keeps ``prev``'s long ``children`` list and appends to it.

    ``prev`` converted another version of the component: of the same type, its list
    patched as :class:`Children` (:attr:`Memo.first` set), with one entry per old
    reference, all of them again at the start of the new list.
    """
    old_refs = prev.comp.props.get("children")
    refs = comp.props.get("children")
    return (
        prev.first >= 0
        and prev.comp.component == comp.component
        and type(old_refs) is list
        and type(refs) is list
        and prev.kids is not None
        and len(prev.kids) - prev.first == len(old_refs) <= len(refs)
        and refs[: len(old_refs)] == old_refs
    )


def _untouched_by_components(changes: Changes, memo: Memo, kept: Children) -> bool:
    """Whether the changed components can reach none of the children ``kept`` holds.

    Known when the changed ids are known (a claim): every one replaced is the parent
    itself, the others are new. A child reaches the parent only through a cycle, and a
    new id only through a reference that found nothing. Such a reference in the list
    itself is an entry that emitted nothing, visited again in any case (the tail, and
    the others through :attr:`Children.gaps`); deeper down it warned, and none of the
    children did.
    """
    replaced = changes.replaced
    return replaced is not None and not kept.warned and all(cid == memo.comp.id for cid in replaced)


def _tail(entries: list[Memo | str], first: int, old_tail: int, added: list[Memo | str]) -> int:
    """How many entries at the end, from ``first`` on, emitted nothing.

    The last ones are ``added``, after the ``old_tail`` entries of the old list's tail:
    a long tail (references a limit refused) is counted in one step where it holds
    only strings, not entry by entry.
    """
    index = len(entries)
    if only_strings(added):
        index -= len(added)
        if only_strings(entries[index - old_tail : index]):
            index -= old_tail
    while index > first and type(entries[index - 1]) is str:
        index -= 1
    return len(entries) - index
