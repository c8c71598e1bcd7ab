"""Recording: a component set walked without data, into the scopes a render plan is made of.

Owns :func:`record`: the walk of :mod:`~a2ui_stream._convert.walk` repeated without a
data model. Every check that depends on the components alone (depth, cycles, missing
and unknown components) is decided here, and each element handler runs once with a
:class:`_Recorder` for its context. A prop bound to data comes back as a :class:`Hole`,
which a handler only places or passes to a rule (:mod:`~a2ui_stream._convert.rules`);
anything else it tries with one raises, and that component becomes an :class:`Island`,
which the walk converts at run time. A template becomes a :class:`Scope` of its own,
recorded once for all its items. A scope lists, in traversal order, its static warnings,
islands and templates, and counts the nodes and work it spends.

Must not import: plans, the converter front, the reducer, request or shell modules.
Does no I/O, no logging.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from a2ui_stream._convert import rules
from a2ui_stream._convert.bindings import MISSING, call_of
from a2ui_stream._convert.walk import ROOT_SCOPE, Walk
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import DICTS, LISTS

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from a2ui_stream._convert.walk import Entry, Setup
    from a2ui_stream._state.surface import Surface
    from a2ui_stream._wire.a2ui import Component

__all__ = [
    "Hole",
    "Island",
    "Read",
    "Scope",
    "Template",
    "Uncompilable",
    "record",
]

_WARNING: Final = Severity.WARNING


class Uncompilable(Exception):  # noqa: N818 - a signal inside recording, never raised out
    """A handler looked at bound data: its component is converted by the walk."""


class Read(NamedTuple):
    """A data read a scope makes: where from and which segments.

    Attributes:
        base: ``"root"`` (the root model), ``"item"`` (the template item), or
            ``"both"`` (an absolute pointer inside a template: the item, then the root).
        segments: the decoded pointer segments.
    """

    base: str
    segments: tuple[str, ...]


class _Opaque:
    """A recorded value a handler may only place: anything else it tries with it raises.

    Truth, equality, hashing, formatting, iteration and attributes raise, and so does
    encoding it as JSON, so a handler that looks at one makes its component an island.
    """

    __slots__ = ()

    def _refuse(self, *_args: Any) -> Any:
        raise Uncompilable

    __bool__ = __eq__ = __ne__ = __hash__ = __str__ = __format__ = __len__ = _refuse
    __iter__ = __contains__ = __getitem__ = __lt__ = __gt__ = __le__ = __ge__ = _refuse


class Hole(_Opaque):
    """A value bound to data, as a recorded handler sees it: placed, or passed to rules.

    A hole stands for the present, silent case: the read succeeds and every rule
    returns a value without warning.
    """

    __slots__ = ("read", "rules", "sole")

    def __init__(
        self,
        read: Read,
        steps: tuple[tuple[str, tuple[Any, ...]], ...] = (),
        *,
        sole: bool = False,
    ) -> None:
        self.read = read
        self.rules = steps
        #: The prop's only source: a read that misses gives the handler ``MISSING``,
        #: not a fallback prop's value, so a rule silent on ``MISSING`` may take it.
        self.sole = sole

    def then(self, name: str, *args: Any) -> Hole:
        """This hole with one more rule applied."""
        return Hole(self.read, (*self.rules, (name, args)), sole=self.sole)


class Island(NamedTuple):
    """A component the walk converts at run time, with the ancestors it has here."""

    cid: str
    depth: int
    ancestors: frozenset[str]


class Template(NamedTuple):
    """A template: the list read in its scope, the scope of its items, its cap warning."""

    cid: str
    read: Read
    scope: Scope
    capped: Entry


_Event = Any  # a static warning (Entry), an Island, or a Template, in traversal order


class Scope:
    """What one scope (the root, or a template's item) needs: reads, events, budgets."""

    __slots__ = ("ancestors", "component_id", "depth", "element", "events", "item", "nodes", "work")

    def __init__(self, *, item: bool, component_id: str = "", depth: int = 0) -> None:
        self.item = item
        self.component_id = component_id
        self.depth = depth
        self.ancestors: frozenset[str] = frozenset()
        self.events: list[_Event] = []
        self.nodes = 0
        self.work = 0
        self.element: Any = None


# -- recording ---------------------------------------------------------------------------


class _Recording(Walk):
    """The walk without data: its traversal, one scope at a time, handlers recorded.

    The budgets are counted into the scope being recorded, not enforced (a run checks
    them); templates become scopes of their own; a handler that raises makes an island
    of its component, and one whose element depends on data without children a leaf.
    """

    def __init__(self, setup: Setup, surface: Surface) -> None:
        self.scope = Scope(item=False)
        super().__init__(setup, surface)
        self.max_nodes = self.max_work = sys.maxsize
        self.log = self.scope.events  # the walk warns into the scope being recorded

    @property
    def nodes(self) -> int:
        return self.scope.nodes

    @nodes.setter
    def nodes(self, count: int) -> None:
        self.scope.nodes = count

    @property
    def work(self) -> int:
        return self.scope.work

    @work.setter
    def work(self, count: int) -> None:
        self.scope.work = count

    def reading(self, pointer: str) -> Read:
        """What a binding to ``pointer`` reads in the scope being recorded."""
        segments = self.setup.segments(pointer)
        if not self.scope.item:
            return Read("root", segments)
        return Read("both" if pointer[:1] == "/" else "item", segments)

    def visit(self, cid: str, depth: int, item: Any) -> Any:
        scope = self.scope
        events, nodes, work = len(scope.events), scope.nodes, scope.work
        site = Island(cid, depth, frozenset(self.visited))
        try:
            return super().visit(cid, depth, item)
        except Exception:  # noqa: BLE001 - whatever a handler does with a hole: an island
            self.visited.discard(cid)
            del scope.events[events:]
            scope.nodes, scope.work = nodes, work  # the walk counts the island's visit
            scope.events.append(site)
            return site

    def template(self, comp: Component, template: tuple[str, str], depth: int, item: Any) -> Any:
        component_id, pointer = template
        outer = self.scope
        outer.nodes += 1
        read = self.reading(pointer)
        inner = self.scope = Scope(item=True, component_id=component_id, depth=depth + 1)
        self.log = inner.events
        inner.ancestors = frozenset(self.visited)
        inner.nodes = 1  # the ListViewItem
        try:
            kid = self.visit(component_id, depth + 1, item)
        finally:
            self.scope, self.log = outer, outer.events
        inner.element = (
            {"$type": "ListViewItem"} if kid is None else {"$type": "ListViewItem", "children": kid}
        )
        capped = Diagnostic(
            code=Code.CONVERT_TEMPLATE_CAP,
            message=f"A2UI template expansion was capped at {self.setup.max_items} items.",
            surface_id=self.surface_id,
            component_id=comp.id,
        )
        found = Template(comp.id, read, inner, (Code.CONVERT_TEMPLATE_CAP, capped))
        outer.events.append(found)
        return {"$type": "ListView", "children": found}


class _Recorder:
    """The :class:`~a2ui_stream._convert.walk.Context` of one component while recording."""

    __slots__ = ("comp", "depth", "id", "props", "recording")

    def __init__(
        self, recording: _Recording, comp: Component, depth: int, _item: Any, *_kept: Any
    ) -> None:
        self.recording = recording
        self.comp = comp
        self.id = comp.id
        self.props = comp.props
        self.depth = depth

    @property
    def component(self) -> str:
        return self.comp.component

    @property
    def surface_id(self) -> str:
        return self.recording.surface_id

    @property
    def max_string(self) -> int:
        return self.recording.setup.max_string

    def warn(
        self, code: str, message: str, *, severity: Severity = _WARNING, once: bool | str = False
    ) -> None:
        self.recording.warn(code, message, self.id, once=once, severity=severity)

    def invalid(self, key: str, value: Any) -> None:
        rules.invalid(self, key, value)

    def _materialise(self, value: Any, *, holes: bool) -> Any:
        """:meth:`Context.resolve` without data: bindings become holes, when allowed."""
        kind = type(value)
        if kind in DICTS:
            if len(value) == 1:
                pointer = value.get("path")
                if pointer is None:
                    pointer = value.get("@path")
                if type(pointer) is str:
                    if not holes:
                        raise Uncompilable
                    return Hole(self.recording.reading(pointer))
            if call_of(value) is not None:
                raise Uncompilable
            return {key: self._materialise(inner, holes=holes) for key, inner in value.items()}
        if kind in LISTS:
            return [self._materialise(inner, holes=holes) for inner in value]
        return value

    def resolve(self, value: Any) -> Any:
        return self._materialise(value, holes=False)

    def placed(self, value: Any) -> Any:
        return self._materialise(value, holes=True)

    def data(self, value: Any) -> Any:
        return value  # a plan never runs on data with gaps

    def prop(self, key: str) -> Any:
        return self.resolve(self.props.get(key, MISSING))

    def value(self, key: str) -> Any:
        found = self.placed(self.props.get(key, MISSING))
        if type(found) is Hole:
            found.sole = True
        return found

    def first(self, key: str, fallback: str) -> Any:
        value = self.prop(key)
        return self.prop(fallback) if value is MISSING else value

    def value_first(self, key: str, fallback: str) -> Any:
        value = self.value(key)
        if value is MISSING:
            return self.value(fallback)
        if type(value) is Hole and fallback in self.props:
            value.sole = False  # missing, it would give way to the fallback
        return value

    def _rule(self, name: str, value: Any, key: str, *args: Any) -> Any:
        if type(value) is Hole:
            return value.then(name, key, *args)
        return rules.RULES[name](self, value, key, *args)  # type: ignore[operator]

    def string(self, value: Any, key: str) -> Any:
        return self._rule("string", value, key)

    def text(self, value: Any, key: str) -> Any:
        return self._rule("text", value, key)

    def url(self, value: Any, key: str) -> Any:
        return self._rule("url", value, key)

    def link(self, value: Any, key: str) -> Any:
        return self._rule("link", value, key)

    def flag(self, value: Any, key: str = "") -> Any:
        return self._rule("flag", value, key)

    def number(self, value: Any, key: str, low: float, high: float) -> Any:
        return self._rule("number", value, key, low, high)

    def enum(self, value: Any, key: str, table: Mapping[str, str | None]) -> Any:
        return self._rule("enum", value, key, table)

    def chosen(self, value: Any, key: str, option: str) -> Any:
        return self._rule("chosen", value, key, option)

    def first_choice(self, value: Any, key: str) -> Any:
        return self._rule("first_choice", value, key)

    def children(self, refs: Sequence[Any]) -> list[Any]:
        return self.recording.refs(self.comp, refs, self.depth + 1, ROOT_SCOPE)

    def reserve(self) -> bool:
        return self.recording.reserve(self.id)

    def component_of(self, cid: Any) -> Component | None:
        if type(cid) is not str or cid in self.recording.visited:
            return None
        return self.recording.components.get(cid)


def record(setup: Setup, surface: Surface) -> tuple[Any, Scope]:
    """Walk a surface's components without data.

    Args:
        setup: the converter's tables and limits.
        surface: the surface; its data model is not read.

    Returns:
        The root element as recorded (a dict with holes, islands and templates in it,
        an :class:`Island`, or ``None``) and the root scope.

    Raises:
        Uncompilable: a key no plan can write.
    """
    recording = _Recording(setup, surface)
    element = recording.convert(surface.root_id)
    recording.scope.element = element
    return element, recording.scope


_Recording.context = _Recorder  # type: ignore[assignment]
