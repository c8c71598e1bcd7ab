"""The walk: a surface converted by interpreting its components, every check made.

Owns :class:`Walk`, one conversion on the general path: the visit of a component
reference in upstream's order (work budget, depth, cycle, lookup, template, whitelist,
node budget; reference converter section 1f), template expansion with its item cap,
the node and work budgets, and the warnings log with its once-per-conversion keys; and
:class:`Context`, what an element handler gets for one component: its props resolved
in scope (template item first, then the root model), the value rules, its children,
and a way to warn.

A render plan (:mod:`a2ui_stream._convert.plans`) runs this same walk wherever it does
not replay: a first sighting, a scope whose data is not what its plan was recorded
for, a component it could not record. It may start a visit at any depth, with the
ancestors the site has, and shares the walk's log and budgets.

Must not import: the element handlers, plans, the converter front, the reducer,
request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

import msgspec

from a2ui_stream._convert import rules
from a2ui_stream._convert.bindings import MISSING, call_of, split_pointer, template_of, walk
from a2ui_stream._convert.functions import FUNCTIONS
from a2ui_stream._tree.gaps import GAP, closed
from a2ui_stream._tree.order import js_ordered
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import CONTAINERS, DICTS, LISTS, FrozenDict, FrozenList, freeze

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from a2ui_stream._state.surface import Surface
    from a2ui_stream._wire.a2ui import Component
    from a2ui_stream._wire.limits import Limits

__all__ = [
    "ROOT_SCOPE",
    "Context",
    "Entry",
    "Setup",
    "Site",
    "Walk",
    "given_once",
    "item_element",
    "unknown_key",
]

#: The item "in scope" at the root: no template item (never a JSON value).
ROOT_SCOPE: Final = MISSING
#: Child visits that emit nothing (missing, unknown, depth-capped) allowed per node budget.
_WORK_PER_NODE: Final = 4
#: Pointers whose split form is kept per converter before the cache starts over.
_MAX_CACHED_POINTERS: Final = 4096
_DEBUG: Final = Severity.DEBUG
_WARNING: Final = Severity.WARNING
#: What a raw value resolves by a call: a scalar resolves to itself.

Entry = tuple[str | None, Diagnostic]
"""One warning as logged: its once-per-conversion key (or ``None``) and the diagnostic."""


Span = tuple[int, int, int, int]
"""One template item in a walk: where its log entries start and end, its nodes and work."""


_new_site: Final = tuple.__new__


class Site(NamedTuple):
    """A template expanded over a list of the root model, outside any template.

    What a later conversion needs to append items to its ListView when only that list
    grew (:func:`~a2ui_stream._convert.converter.Converter.convert`).

    Attributes:
        cid: the templated component.
        component_id: the component each item renders.
        depth: the templated component's depth.
        ancestors: the components being visited there, ``cid`` among them.
        read: the segments of the list's read.
        spans: each item's :data:`Span`.
        end: the length of the log when its last item was done.
        element: the ListView it emitted.
        address: the keys and indexes from the root element to it, once looked up.
    """

    cid: str
    component_id: str
    depth: int
    ancestors: frozenset[str]
    read: tuple[str, ...]
    spans: tuple[Span, ...]
    end: int
    element: dict[str, Any]
    address: tuple[Any, ...] | None = None


def given_once(log: Iterable[Entry], given: Iterable[str] = ()) -> tuple[Diagnostic, ...]:
    """A log's diagnostics in order, each once-per-conversion key kept at its first.

    Args:
        log: the entries, in order.
        given: keys already given (by the conversion a log continues): left out.
    """
    seen = set(given)
    out = []
    for key, diagnostic in log:
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        out.append(diagnostic)
    return tuple(out)


def unknown_key(component: str) -> str:
    """The once-per-conversion key of the warning about an unknown component type."""
    return f"{Code.CONVERT_UNKNOWN_COMPONENT}:{component}"


class Setup:
    """What a converter decides once and every conversion shares: handlers and limits."""

    __slots__ = (
        "handlers",
        "max_depth",
        "max_items",
        "max_nodes",
        "max_string",
        "max_work",
        "pointers",
    )

    def __init__(
        self,
        handlers: Mapping[str, Callable[[Context], dict[str, Any] | None]],
        limits: Limits,
    ) -> None:
        self.handlers = dict(handlers)
        self.max_depth = limits.max_depth
        self.max_items = limits.max_template_items
        self.max_nodes = limits.max_nodes
        self.max_string = limits.max_string_length
        self.max_work = max(_WORK_PER_NODE * limits.max_nodes, 1024)
        self.pointers: dict[str, tuple[str, ...]] = {}

    def segments(self, pointer: str) -> tuple[str, ...]:
        """A pointer's decoded segments, from a bounded cache."""
        segments = self.pointers.get(pointer)
        if segments is None:
            if len(self.pointers) >= _MAX_CACHED_POINTERS:
                self.pointers.clear()
            segments = self.pointers[pointer] = split_pointer(pointer)
        return segments


class Walk:
    """One conversion by interpretation: budgets, ancestors, warnings.

    Args:
        setup: the converter's tables and limits.
        surface: the surface to convert.
    """

    __slots__ = (
        "components",
        "gaps",
        "handlers",
        "log",
        "maps",
        "max_depth",
        "max_items",
        "max_nodes",
        "max_string",
        "max_work",
        "misses",
        "nodes",
        "pointers",
        "reads",
        "root",
        "setup",
        "sites",
        "stopped",
        "surface_id",
        "visited",
        "work",
    )

    #: The class of the context each handler gets, set once below.
    context: ClassVar[type[Context]]

    def __init__(self, setup: Setup, surface: Surface) -> None:
        self.setup = setup
        self.handlers = setup.handlers
        self.max_depth = setup.max_depth
        self.max_items = setup.max_items
        self.max_nodes = setup.max_nodes
        self.max_string = setup.max_string
        self.max_work = setup.max_work
        self.pointers = setup.pointers  # cleared in place when full: always the cache
        self.components: Mapping[str, Component] = surface.components
        self.surface_id = surface.surface_id
        self.maps = surface.version.startswith("v0.8")  # v0.8 templates also iterate maps
        self.root: Any = surface.data_model  # UNSET is MISSING: no model yet
        self.gaps = surface.gaps  # how many gaps its lists hold (read as MISSING)
        self.nodes = 0
        self.work = 0
        self.misses = 0
        self.stopped = False
        self.visited: set[str] = set()
        self.log: list[Entry] = []
        #: Every read of the root model, in order: its segments and what it gave.
        self.reads: list[tuple[tuple[str, ...], Any]] = []
        #: The templates expanded over a list outside any template, in order.
        self.sites: list[Site] = []

    # -- warnings -----------------------------------------------------------------------

    def warn(
        self,
        code: str,
        message: str,
        component_id: str | None,
        *,
        once: bool | str = False,
        severity: Severity = _WARNING,
    ) -> None:
        """Log a diagnostic; ``once`` ones are kept only at their first occurrence.

        ``once`` may name what counts as the same occurrence (a code and a type, say);
        ``True`` means the code.
        """
        diagnostic = Diagnostic(
            code=code,
            message=message,
            severity=severity,
            surface_id=self.surface_id,
            component_id=component_id,
        )
        self.log.append((code if once is True else once or None, diagnostic))

    def warnings(self, given: Iterable[str] = ()) -> tuple[Diagnostic, ...]:
        """The log in order, repeated once-per-conversion warnings removed.

        Args:
            given: the once-per-conversion keys of warnings already given (by the
                conversion this one continues): they are not given again.
        """
        return given_once(self.log, given)

    # -- traversal ----------------------------------------------------------------------

    def convert(self, root_id: str | None) -> dict[str, Any] | None:
        """Convert from the root component; the root element or ``None``."""
        if root_id is None:
            return None
        if root_id not in self.components:
            self.warn(
                Code.CONVERT_ROOT_MISSING, f'A2UI root component "{root_id}" was not found.', None
            )
            return None
        return self.visit(root_id, 0, ROOT_SCOPE)

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
            Code.CONVERT_NODE_BUDGET,
            f"A2UI node budget of {self.max_nodes} was reached.",
            component_id,
            once=True,
        )
        self.stop()
        return False

    def visit(self, cid: str, depth: int, item: Any) -> dict[str, Any] | None:
        """Convert one component reference (upstream ``convertComponent``, in its order).

        Args:
            cid: the component id referenced.
            depth: the depth of the reference (root 0).
            item: the template item in scope, :data:`ROOT_SCOPE` outside templates.

        Returns:
            The element, or ``None`` when the reference emits nothing.
        """
        work = self.work = self.work + 1
        if work > self.max_work:  # also true once the traversal has stopped
            if not self.stopped:
                self.warn(
                    Code.CONVERT_WORK_BUDGET,
                    "A2UI conversion stopped: too many references emitted nothing.",
                    cid,
                )
                self.stop()
            return None
        if depth >= self.max_depth:
            self.warn(
                Code.CONVERT_DEPTH_CAP,
                f"A2UI depth cap of {self.max_depth} was reached.",
                cid,
                once=True,
            )
            return None
        visited = self.visited
        if cid in visited:
            self.warn(Code.CONVERT_CYCLE, f'A2UI component cycle detected at "{cid}".', cid)
            return None
        comp = self.components.get(cid)
        if comp is None:
            self.warn(Code.CONVERT_COMPONENT_MISSING, f'A2UI component "{cid}" was not found.', cid)
            return None
        props = comp.props
        children: Any = props.get("children")
        if type(children) in DICTS:
            template = template_of(children)
            if template is not None:
                visited.add(cid)
                element = self.template(comp, template, depth, item)
                visited.discard(cid)
                return element
        handler = self.handlers.get(comp.component)
        if handler is None:
            # Upstream logs this at debug; but the surface loses the element (all of
            # it, at the root), so say so once per type and conversion.
            self.warn(
                Code.CONVERT_UNKNOWN_COMPONENT,
                f'The root component "{cid}" is of unknown type "{comp.component}": '
                "the surface draws nothing."
                if depth == 0
                else f'Unknown A2UI component "{comp.component}" (id "{cid}") was '
                "skipped, with its children.",
                cid,
                once=unknown_key(comp.component),
            )
            return None
        nodes = self.nodes
        if nodes >= self.max_nodes:
            self.reserve(cid)  # refused: warns once, stops the traversal
            return None
        self.nodes = nodes + 1
        visited.add(cid)
        # The element: its handler's, then its ``children`` list's.
        element = handler(self.context(self, comp, depth, item, cid, props, self.max_string))
        if element is not None:
            if type(children) in LISTS and children:
                out = self.refs(comp, children, depth + 1, item)
                if out:  # after any single-child references the handler converted
                    first = element.get("children")
                    element["children"] = out if first is None else FrozenList(first + out)
            # Frozen once made: shared with the state, later outputs and the caller, who
            # must not be able to change them. Handlers freeze every container they put
            # in an element (its children are frozen elements already): one copy.
            element = FrozenDict(element)
        visited.discard(cid)
        return element

    def refs(
        self, comp: Component, refs: Iterable[Any], depth: int, item: Any
    ) -> list[dict[str, Any]]:
        """Convert child references of ``comp`` at ``depth``; the elements they emit, frozen."""
        out = []
        for cid in refs:
            if type(cid) is not str:
                self.warn(
                    Code.CONVERT_CHILD_MALFORMED,
                    f'Component "{comp.id}" has a malformed child reference.',
                    comp.id,
                )
                continue
            if self.stopped:  # refused without a word
                continue
            element = self.visit(cid, depth, item)
            if element is not None:
                out.append(element)
        return FrozenList(out)

    def template(
        self, comp: Component, template: tuple[str, str], depth: int, item: Any
    ) -> dict[str, Any] | None:
        """Expand a template into a ListView of ListViewItems (upstream step 4)."""
        cid = comp.id
        if not self.reserve(cid):
            return None
        component_id, pointer = template
        items = self.read(pointer, item)
        out: list[Any] = []
        if type(items) in LISTS:
            entries: Iterable[Any] = items
        elif self.maps and type(items) in DICTS:
            entries = items.values()
        else:
            # Unresolved is the normal state while an agent streams components before data.
            self.warn(
                Code.CONVERT_TEMPLATE_NOT_LIST,
                f'Template on component "{cid}" did not resolve to a list'
                + (" (no data there yet)." if items is MISSING else "."),
                cid,
                severity=_DEBUG if items is MISSING else _WARNING,
            )
            return FrozenDict({"$type": "ListView", "children": FrozenList()})
        cap = self.max_items
        grows = item is ROOT_SCOPE and type(items) in LISTS
        if len(items) > cap:
            self.warn(
                Code.CONVERT_TEMPLATE_CAP,
                f"A2UI template expansion was capped at {cap} items.",
                cid,
                once=True,
            )
        ancestors = frozenset(self.visited) if grows else frozenset()
        spans: list[Span] = []
        visit, inner = self.visit, depth + 1
        for count, value in enumerate(entries):
            if count >= cap:
                break
            start, nodes, work = len(self.log), self.nodes, self.work
            if nodes < self.max_nodes:  # :meth:`reserve`, inline: one node per item
                self.nodes = nodes + 1
            elif not self.reserve(cid):
                break
            kid = visit(component_id, inner, value)
            out.append(item_element(kid))
            spans.append((start, len(self.log), self.nodes - nodes, self.work - work))
        element = FrozenDict({"$type": "ListView", "children": FrozenList(out)})
        if grows:  # the Site made by tuple.__new__: a named tuple's own __new__ is a Python call
            read, end = self.setup.segments(pointer), len(self.log)
            site = (cid, component_id, depth, ancestors, read, tuple(spans), end, element, None)
            self.sites.append(_new_site(Site, site))
        return element

    # -- visits from a render plan: a site's ancestors in place of the walk's ---------------

    def island(self, site: tuple[str, int, frozenset[str]], item: Any) -> dict[str, Any] | None:
        """Visit a component a plan could not record, at its depth and under its ancestors."""
        cid, depth, ancestors = site
        outer, self.visited = self.visited, set(ancestors)
        element = self.visit(cid, depth, item)
        self.visited = outer
        return element

    def list_item(self, site: tuple[str, str, int, frozenset[str]], value: Any) -> dict[str, Any]:
        """Convert one template item a plan's item scope missed: its ListViewItem."""
        cid, component_id, depth, ancestors = site
        if not self.reserve(cid):  # over budget: the plan's run is redone by a walk
            return item_element(None)
        outer, self.visited = self.visited, set(ancestors)
        kid = self.visit(component_id, depth, value)
        self.visited = outer
        return item_element(kid)

    def undo(self, mark: int, nodes: int, work: int) -> None:
        """Forget what a plan's scope did since ``mark``: the walk converts it instead."""
        del self.log[mark:]
        self.nodes, self.work = nodes, work

    # -- data ---------------------------------------------------------------------------

    def read(self, pointer: str, item: Any) -> Any:
        """Resolve a pointer: the template item first, then the root model when absolute.

        Relative pointers read the current item only; outside templates both read the
        root model (upstream reads the item only; the spec also reads the root).
        """
        segments = self.pointers.get(pointer)
        if segments is None:
            segments = self.setup.segments(pointer)
        if item is not ROOT_SCOPE:
            # One key of an object, as most item bindings are, read without the loop.
            if len(segments) == 1 and type(item) in DICTS:
                value = item.get(segments[0], MISSING)
            else:
                value = walk(item, segments)
            if value is not MISSING and value is not GAP:
                return value
            if pointer[:1] != "/" or not segments:  # relative, or "/" of a gap: absent
                self.misses += 1
                return MISSING
        root = self.root
        if len(segments) == 1 and type(root) in DICTS:  # a top-level key, without the loop
            value = root.get(segments[0], MISSING)
            if value is GAP:
                value = MISSING
        else:
            value = walk(root, segments)
        self.reads.append((segments, value))
        if value is MISSING:
            self.misses += 1
        return value


#: The ListViewItem of an item that emitted nothing; frozen, so one serves them all.
_EMPTY_ITEM: Final = FrozenDict({"$type": "ListViewItem"})


def item_element(kid: dict[str, Any] | None) -> dict[str, Any]:
    """The ListViewItem of one template item: its element, or empty when it gave none."""
    return _EMPTY_ITEM if kid is None else FrozenDict({"$type": "ListViewItem", "children": kid})


class Context(msgspec.Struct, gc=False):
    """What an element handler gets for one component: props, rules, children, warnings.

    Its ``value``/``placed`` reads are the same as ``prop``/``resolve`` here; a render
    plan's recorder tells them apart (see :mod:`a2ui_stream._convert.elements`). Also the
    :class:`~a2ui_stream._convert.functions.Env` of the functions it calls. A Struct, as
    one is made per element: the walk, the component, its depth, the template item in
    scope, and the component's id and props and the string limit kept at hand; not
    tracked by the cyclic collector (``gc=False``): nothing it holds refers back to it.
    """

    walk: Walk
    comp: Component
    depth: int
    item: Any
    id: str
    props: Mapping[str, Any]
    max_string: int

    @property
    def component(self) -> str:
        """The component's type name."""
        return self.comp.component

    @property
    def surface_id(self) -> str:
        """The surface's id."""
        return self.walk.surface_id

    def warn(
        self, code: str, message: str, *, severity: Severity = _WARNING, once: bool | str = False
    ) -> None:
        """Log a diagnostic about this component."""
        self.walk.warn(code, message, self.id, once=once, severity=severity)

    invalid = rules.invalid

    def unsupported(self, name: str) -> None:
        """Warn that a function call was dropped because it is not supported."""
        self.warn(
            Code.CONVERT_FUNCTION_UNSUPPORTED,
            f'A2UI function "{name}" is not supported; its value was dropped.',
        )

    # -- props ----------------------------------------------------------------------------

    def prop(self, key: str) -> Any:
        """A prop's value with bindings and calls resolved; ``MISSING`` when absent."""
        value = self.props.get(key, MISSING)
        kind = type(value)
        if kind in CONTAINERS:
            return self.resolve(value)
        return value

    def first(self, key: str, fallback: str) -> Any:
        """The first of two props whose value is defined (upstream's "first defined")."""
        value = self.props.get(key, MISSING)
        kind = type(value)
        if kind in DICTS:
            # A ``{"path"}`` binding (nearly every bound text or URL) read without resolve.
            pointer = value.get("path") if len(value) == 1 else None
            if type(pointer) is str:
                value = self.walk.read(pointer, self.item)
            else:
                value = self.resolve(value)
        elif kind in LISTS:
            value = self.resolve(value)
        if value is MISSING:
            value = self.props.get(fallback, MISSING)
            kind = type(value)
            if kind in DICTS:
                pointer = value.get("path") if len(value) == 1 else None
                if type(pointer) is str:
                    return self.walk.read(pointer, self.item)
                return self.resolve(value)
            if kind in LISTS:
                return self.resolve(value)
        return value

    value = prop
    value_first = first

    def read(self, pointer: str) -> Any:
        """The data at ``pointer`` in this component's scope, or ``MISSING``."""
        return self.walk.read(pointer, self.item)

    def resolve(self, value: Any, done: dict[int, Any] | None = None) -> Any:
        """Materialise a raw value: bindings and calls resolved, ``MISSING`` entries dropped.

        ``done``: inner containers made so far, by identity: a list copied into itself (a
        million places, 21 lists) is made once a list, unless making it logged or read.
        """
        kind = type(value)
        if kind in DICTS:
            if len(value) == 1:  # a binding, inline: nearly every dynamic value is one
                pointer = value.get("path")
                if pointer is None:
                    pointer = value.get("@path")
                if type(pointer) is str:
                    return self.walk.read(pointer, self.item)
            if "call" in value or "@call" in value:  # what call_of looks for, tested in C
                call = call_of(value)
                if call is not None:
                    return self.call(call[0], call[1])
        elif kind not in LISTS:
            return value
        walk = self.walk
        marks = None if done is None else (len(walk.log), len(walk.reads), walk.misses)
        if done is None:  # the value itself, met once
            done = {}
        elif id(value) in done:
            return done[id(value)]
        if kind in DICTS:
            out: Any = {}
            for key, raw in value.items():
                resolved = self.resolve(raw, done) if type(raw) in CONTAINERS else raw
                if resolved is not MISSING:
                    out[key] = resolved
        else:
            # A loop, not a comprehension: a frame per level, ``max_data_depth`` at most.
            out = []
            for raw in value:
                resolved = self.resolve(raw, done) if type(raw) in CONTAINERS else raw
                if resolved is not MISSING:
                    out.append(resolved)
        if marks is not None and marks == (len(walk.log), len(walk.reads), walk.misses):
            done[id(value)] = out
        return out

    placed = resolve

    def data(self, value: Any) -> Any:
        """Data as an element carries it: frozen, without gaps, keys in JavaScript's order."""
        return js_ordered(freeze(closed(value) if self.walk.gaps else value))

    def call(self, name: str, raw_args: Any) -> Any:
        """Evaluate a basic-catalog function; unsupported or failing ones warn, give ``MISSING``.

        A failure while an argument's binding was unresolved (data not arrived yet) is
        a debug diagnostic; any other failure is a warning.
        """
        function = FUNCTIONS.get(name)
        if function is None:
            self.unsupported(name)
            return MISSING
        misses = self.walk.misses
        args = self.resolve(raw_args) if type(raw_args) in DICTS else {}
        try:
            return function(args, self)
        except (ValueError, TypeError, ArithmeticError) as exc:
            self.warn(
                Code.CONVERT_FUNCTION_FAILED,
                f'A2UI function "{name}" failed ({exc}); its value was dropped.',
                severity=_DEBUG if self.walk.misses > misses else _WARNING,
            )
            return MISSING

    string = rules.string
    text = rules.text
    url = rules.url
    link = rules.link
    flag = rules.flag
    number = rules.number
    enum = rules.enum
    chosen = rules.chosen
    first_choice = rules.first_choice

    # -- structure ------------------------------------------------------------------------

    def children(self, refs: Sequence[Any]) -> list[dict[str, Any]]:
        """Convert child references of this component; the elements they emit."""
        return self.walk.refs(self.comp, refs, self.depth + 1, self.item)

    def reserve(self) -> bool:
        """Take one node of the budget for an element the handler adds itself."""
        return self.walk.reserve(self.id)

    def component_of(self, cid: Any) -> Component | None:
        """The component a reference names, unless it is missing or an ancestor."""
        if type(cid) is not str or cid in self.walk.visited:
            return None
        return self.walk.components.get(cid)


#: What a walk hands each handler (a recording hands its own).
Walk.context = Context
