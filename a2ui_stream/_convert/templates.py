"""Templates in a conversion: a child-list template expanded into a ListView, item by item.

Owns :class:`Expander`, the part of a conversion that expands templates (upstream's
step 4): resolving the list, scoping each item, the 100-item cap, and reusing a previous
expansion when only some items changed (untouched runs of items are taken whole, with
their node and work budgets and warnings replayed in order). The traversal it calls
back into (``visit``, ``reserve``, ``reusable``) belongs to :class:`~a2ui_stream._convert.run.Run`,
which subclasses it.

Must not import: the traversal (``_run``), the element handlers, the converter front,
the reducer, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._convert.reading import Reader
from a2ui_stream._convert.reuse import Expansion, Memo, join
from a2ui_stream._tree.frozen import FrozenDict
from a2ui_stream._wire.diagnostics import Severity

if TYPE_CHECKING:
    from collections.abc import Mapping

    from a2ui_stream._convert.reuse import Changes
    from a2ui_stream._wire.a2ui import Component

__all__ = ["Expander"]

_DEBUG: Final = Severity.DEBUG
_WARNING: Final = Severity.WARNING


class Expander(Reader):
    """Expands templates for one conversion; :class:`~a2ui_stream._convert.run.Run` walks."""

    # The budgets templates spend; Run sets them in its __init__.
    __slots__ = ("nodes", "work")

    nodes: int
    work: int

    if TYPE_CHECKING:
        # Set and implemented by Run, the one subclass; declared for the type checker.
        changes: Changes | None
        components: Mapping[str, Component]
        maps: bool
        max_items: int
        max_nodes: int
        max_work: int
        visited: set[str]

        def visit(
            self, cid: str, path: tuple[str, ...], depth: int, prev: Memo | None
        ) -> Memo | None: ...

        def reserve(self, component_id: str) -> bool: ...

        def reusable(self, prev: Memo) -> bool: ...

    def template(self, memo: Memo, template: tuple[str, str]) -> dict[str, Any] | None:
        """Expand a template into a ListView of ListViewItems (upstream step 4)."""
        cid = memo.comp.id
        old = memo.prev
        if type(old) is Expansion:
            memo.prev = old.kids
        else:
            old = None
        if not self.reserve(cid):
            return None
        component_id, pointer = template
        items = self.read(memo, pointer)
        out: list[Any] = []
        element = {"$type": "ListView", "children": out}
        if type(items) is list:
            entries: Any = None
            total = len(items)
        elif self.maps and type(items) is dict:
            entries = items.items()
            total = len(items)
        else:
            # Unresolved is the normal state while an agent streams components before data.
            self.warn(
                "convert.template_not_list",
                f'Template on component "{cid}" did not resolve to a list'
                + (" (no data there yet)." if items is MISSING else "."),
                cid,
                severity=_DEBUG if items is MISSING else _WARNING,
            )
            return element
        cap = self.max_items
        if total > cap:
            self.warn(
                "convert.template_cap",
                f"A2UI template expansion was capped at {cap} items.",
                cid,
                once=True,
            )
        saved = self.item
        base = self.last_path
        count = min(total, cap)
        touched = None
        if old is not None and entries is None:
            touched = self.touched(memo, component_id, old, base, count)
        if touched is not None:
            self.patch(memo, component_id, items, touched, old, out=out)
        elif entries is not None:
            self.expand(memo, component_id, base, entries, out)
        else:
            self.expand(memo, component_id, base, enumerate(items), out)
            # Whether every item converted whole is checked only if a patch is tried.
            kids: list[Any] = memo.kids  # type: ignore[assignment]  # expand set them
            comp = self.components.get(component_id)
            memo.items = Expansion(
                base=base, comp=comp, depth=memo.depth + 1, kids=kids, out=out, total=count
            )
        self.item = saved
        return element

    def touched(
        self, memo: Memo, component_id: str, old: Expansion, base: tuple[str, ...], count: int
    ) -> list[int] | None:
        """The items to convert one by one when ``old`` can be patched, else ``None``.

        ``old`` can be patched when it expanded the same item component over the same
        list at the same depth, and what changed lies inside some items (those are
        returned, with any of the first ``count`` that ``old`` lacks) and nowhere the
        items read outside themselves (a root value every item reads touches them all).
        """
        changes = self.changes
        if (
            changes is None
            or old.base != base
            or old.depth != memo.depth + 1
            or component_id in self.visited
            or old.comp is not self.components.get(component_id)
        ):
            return None
        if not old.ready():
            return None
        indexes = changes.items(base, old.region)
        if indexes is None:
            return None
        known = len(old.kids)
        if count > known:
            indexes.update(range(known, count))
        return sorted(i for i in indexes if i < count)

    def expand(
        self,
        memo: Memo,
        component_id: str,
        base: tuple[str, ...],
        entries: Any,
        out: list[Any],
        *,
        start: int = 0,
    ) -> None:
        """Convert a template's items in their scopes, one ListViewItem each into ``out``.

        The bookkeeping of :meth:`convert_refs`, for one child per item path; an item
        whose previous memo can be taken whole skips the visit. Such a memo exists only
        where the same reference, at the same depth under the same ancestors, passed the
        visit's checks before, so only the work budget and the reuse check remain.

        Args:
            memo: the template's memo in progress; items join its ``kids``.
            component_id: the item component.
            base: the data path of the list or map expanded.
            entries: ``(key, item)`` pairs, from the item numbered ``start`` on.
            out: receives the ListViewItems.
            start: the number of the first entry (the item cap counts from 0).

        Stops early where the item cap or the node budget stops the template.
        """
        cid = memo.comp.id
        kids = memo.kids
        if kids is None:
            kids = memo.kids = []
        prev = memo.prev
        depth = memo.depth + 1
        region = memo.region
        cap = self.max_items
        same = self.components.get(component_id) if type(prev) is list else None
        if component_id in self.visited:
            same = None
        for count, (key, item) in enumerate(entries, start):
            if count >= cap or not self.reserve(cid):
                break
            self.item = item
            path = (*base, str(key))
            before = None
            if prev is not None:
                if type(prev) is list:
                    if count < len(prev) and type(prev[count]) is Memo:
                        before = prev[count]
                else:
                    before = prev.get((component_id, path))
            if before is not None and before.comp is same and before.path == path:
                self.work += 1
                if self.work <= self.max_work and self.reusable(before):
                    kids.append(before)  # its region is in the inherited one already
                    done = before.element
                    out.append(_item(done))
                    continue
                self.work -= 1
            kid = self.visit(component_id, path, depth, before)
            if kid is None:
                kids.append(component_id)
                out.append(_EMPTY_ITEM)
                continue
            kids.append(kid)
            joined = kid.region
            if joined and joined != region and (kid is not before or type(prev) is not list):
                region = join(region, joined) if region else joined
            out.append(_item(kid.element))
        memo.region = region

    def patch(
        self,
        memo: Memo,
        component_id: str,
        items: list[Any],
        touched: list[int],
        old: Expansion,
        *,
        out: list[Any],
    ) -> None:
        """Expand a template by patching ``old``: only the ``touched`` items are converted.

        Each run of untouched items between two touched ones is taken in one step, as
        :meth:`expand` would take each of them whole (:meth:`reusable` holds for every
        one, since no change touches them): their memos, their ListViewItems, their
        warnings in order, and their node and work budget from ``old``'s totals. Where a
        run would not fit the budgets, its items go one by one through :meth:`expand`,
        which cuts them exactly where a fresh conversion would.

        Args:
            memo: the template's memo in progress (``prev`` holds ``old.kids``).
            component_id: the item component.
            items: the list expanded.
            touched: the ascending indexes, below the item cap and the list's length, of
                the items a change lies in and of those ``old`` lacks.
            old: the expansion patched (:meth:`Expansion.ready` done).
            out: receives the ListViewItems.
        """
        base = old.base
        total = min(len(items), self.max_items)
        sizes: list[int] = old.sizes  # type: ignore[assignment]  # ready() set them
        works: list[int] = old.works  # type: ignore[assignment]
        old_kids, old_out = old.kids, old.out
        kids: list[Any] = []
        memo.kids = kids
        new_sizes: list[int] = []
        new_works: list[int] = []
        region, warned = old.region, old.warned
        whole = True
        start = 0
        for index in (*touched, total):
            if index > start:  # the untouched run [start, index)
                nodes = self.nodes + sum(sizes[start:index])
                work = self.work + sum(works[start:index])
                if nodes <= self.max_nodes and work <= self.max_work:
                    self.nodes, self.work = nodes, work
                    if warned:
                        for kid in old_kids[start:index]:
                            self.log.extend(kid.warns)
                    kids += old_kids[start:index]
                    out += old_out[start:index]
                    new_sizes += sizes[start:index]
                    new_works += works[start:index]
                else:  # near a limit: one by one, cut exactly where a fresh run cuts
                    whole = False
                    entries = enumerate(items[start:index], start)
                    self.expand(memo, component_id, base, entries, out, start=start)
                    if len(kids) < index:
                        return
            if index == total:
                break
            nodes, work = self.nodes, self.work
            self.expand(memo, component_id, base, ((index, items[index]),), out, start=index)
            if len(kids) == index:
                return  # the node budget ran out
            kid = kids[-1]
            if type(kid) is Memo and kid.whole:
                new_sizes.append(self.nodes - nodes)
                new_works.append(self.work - work)
                if kid.region:
                    region = join(region, kid.region)
                warned = warned or bool(kid.warns)
            else:
                whole = False
            start = index + 1
        if whole:
            memo.items = Expansion(
                base=base,
                comp=old.comp,
                depth=old.depth,
                kids=kids,
                out=out,
                total=total,
                sizes=new_sizes,
                works=new_works,
                region=region,
                warned=warned,
            )


#: The ListViewItem of an item that emitted nothing; frozen, so one serves them all.
_EMPTY_ITEM = FrozenDict({"$type": "ListViewItem"})


def _item(element: dict[str, Any] | None) -> dict[str, Any]:
    """The ListViewItem holding an item's element, frozen as the element is."""
    if element is None:
        return _EMPTY_ITEM
    return FrozenDict({"$type": "ListViewItem", "children": element})
