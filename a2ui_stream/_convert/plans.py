"""Render plans: a surface's component set compiled once, run against each data model.

Owns the Python source a recorded component set becomes, the caches of plans and of
compiled code (:class:`Plans`), and running a plan (:meth:`Plan.run`, :meth:`Plan.patch`).

The component set of a surface changes rarely and its data model on every snapshot, so
what depends only on the components is done once, as a template engine compiles a
template: :mod:`~a2ui_stream._convert.record` walks the components without data into
scopes (the root, each template's item), and each scope becomes one function here.

- All data reads of a scope come first, as plain subscripts inside one ``try``; the
  rules follow, their silent case inline or as a call with
  :class:`~a2ui_stream._convert.rules.Probe`; then the element tree, as nested displays.
  A miss, a wrong type or a rule that would warn makes the function return ``None``,
  and the walk converts that scope instead: it is where template-item-then-root
  resolution, repairs and warnings happen.
- Constant subtrees are built once. Every literal value is lifted out of the source
  into a constant of the plan's namespace; only ``repr()``'d keys and data path
  segments, element type names and our own names enter it, so the source is safe
  whatever the input, and component sets that differ only in their texts share one
  source, whose compiled code is cached.
- Depth and cycles are decided when recording. The node and work budgets are counted
  per scope (constants, added once) and checked at the end: a run over budget is
  thrown away, and the walk converts the surface, cutting it where it cuts.

Must not import: the converter front, the reducer, request or shell modules. Does no
I/O, no logging.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

import immutables

from a2ui_stream._convert import rules
from a2ui_stream._convert.bindings import MISSING
from a2ui_stream._convert.bindings import walk as walk_data
from a2ui_stream._convert.record import Hole, Island, Read, Template, Uncompilable, record
from a2ui_stream._convert.vocabulary import ELEMENT_TYPES
from a2ui_stream._tree.order import js_items, js_ordered
from a2ui_stream._wire.frozen import LISTS, FrozenDict, FrozenList, freeze

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from a2ui_stream._convert.record import Scope
    from a2ui_stream._convert.walk import Entry, Setup, Walk
    from a2ui_stream._state.surface import Surface

__all__ = ["COMPILE_AT", "Plan", "Plans"]

#: Plans kept; each holds its component set's literals and compiled functions.
_MAX_PLANS: Final = 64
#: Compiled sources kept, by source text.
_MAX_CODE: Final = 256
#: The conversion of a component set (in a row, each with new data) that compiles it.
#: Writing and compiling a plan costs several walks of the surface (``compile()`` most
#: of it, where the code of a scope is not cached yet), and a run a fraction of one: a
#: set streamed over a few snapshots, as a chat's surfaces are, is walked; a set re-sent
#: for ever with new data (a live dashboard) is compiled early in its life (measured on
#: the benchmark's workloads: chat-mixed, many-surfaces and data-churn-cumulative at 3,
#: 5, 8 and 16).
COMPILE_AT: Final = 16
#: Components past which a set is never compiled: the source would be large and
#: ``compile()`` slow, for a surface that is rarely re-sent unchanged.
_MAX_PLAN_COMPONENTS: Final = 2000


# -- source ------------------------------------------------------------------------------


def _is_index(segment: str) -> bool:
    """Whether a segment names an array index (canonical decimal, RFC 6901)."""
    return segment.isdigit() and segment.isascii() and (segment == "0" or segment[0] != "0")


def _step(var: str, segment: str) -> str:
    """The expression reading one segment from ``var``: a subscript that may raise."""
    if _is_index(segment):  # an index reads a list only; a dict is the walk's case
        return f"({var} if type({var}) in LISTS else ())[{int(segment)}]"
    return f"{var}[{segment!r}]"


#: Rules that take ``MISSING`` silently (the walk gives the same without a warning).
_TAKE_MISSING: Final = frozenset({"text", "chosen"})


#: The test of each rule's first case, which gives the value itself without a word, as
#: an expression of the value's variable: written inline, the common value costs no call
#: (a plan of a live dashboard applies a rule to every value it shows). ``H`` is
#: :data:`~a2ui_stream._convert.rules.SAFE_PREFIXES`.
_SILENT: Final = {
    "text": "type({0}) is str and len({0}) <= M",
    "url": "type({0}) is str and len({0}) <= M and ({0}.startswith(H) or ':' not in {0})",
    "link": "type({0}) is str and len({0}) <= M and ({0}.startswith(H) or ':' not in {0})",
    "first_choice": "type({0}) is str",
}

#: The recorded values that depend on data or on the walk.
_RECORDED: Final = frozenset({Hole, Island, Template})


def _constant(value: Any, known: dict[int, bool]) -> bool:
    """Whether a recorded value holds no hole, island or template: a constant subtree.

    ``known`` keeps the answers by object, so that asking at every level of a tree
    costs one visit of each node.
    """
    if isinstance(value, (dict, list)):
        found = known.get(id(value))
        if found is None:
            inner = value.values() if isinstance(value, dict) else value
            found = known[id(value)] = all([_constant(item, known) for item in inner])  # noqa: C419 - every node visited once, so that each gets its answer
        return found
    return type(value) not in _RECORDED


class _Source:
    """Writes a recorded plan: one function per scope, each compiled apart, code cached.

    Each scope's text names only its own locals, its lifted values ``k<n>`` and the
    functions of its templates' item scopes ``c<n>``, all bound in a namespace of its
    own; so one scope shape, wherever it occurs (the item of every template of one
    kind, in every surface), is one text and one compiled code object.
    Only ``repr()`` of dict keys and of data path segments (strings), element type
    names from the vocabulary, integers of array indexes and names of our own enter
    a text; every other value is a lifted constant.
    """

    def __init__(self, plans: Plans) -> None:
        self.plans = plans
        self.texts: list[str] = []
        #: The root scope's templates: each, the address of its ListView, its list's read.
        self.templates: list[tuple[Template, tuple[Any, ...]]] = []
        #: Every root model path a scope reads outside the templates' items.
        self.reads: set[tuple[str, ...]] = set()
        #: The item scopes' functions, by template.
        self.items: dict[int, Callable[..., Any]] = {}
        #: Which recorded containers are constant subtrees, by object.
        self.known: dict[int, bool] = {}

    def scope(self, scope: Scope) -> Callable[..., Any]:
        """The function of one scope, its templates' item scopes made first."""
        writer = _Scope(self, scope)
        return self.function(writer.write(), writer)

    def function(self, text: str, writer: _Scope) -> Callable[..., Any]:
        """Bind one written text (code from the cache) to its writer's constants and calls."""
        self.texts.append(text)
        namespace = dict(self.plans.namespace)
        namespace.update((f"k{i}", value) for i, value in enumerate(writer.constants))
        namespace.update((f"c{i}", function) for i, function in enumerate(writer.calls))
        # The function lands in a dict of its own, not in its globals: a function held
        # by its own globals is a cycle, which only the cyclic collector frees, and a
        # plan dropped from the cache would wait for it, constants and all.
        defined: dict[str, Any] = {}
        exec(self.plans.code(text), namespace, defined)  # noqa: S102 - our source; input only repr()'d
        function: Callable[..., Any] = defined["s"]
        return function


class _Scope:
    """Writes one scope's function: reads and rules inside a ``try``, then the events."""

    def __init__(self, source: _Source, scope: Scope) -> None:
        self.source = source
        self.scope = scope
        self.reads: list[str] = []  # inside the try: reads, then rules
        self.body: list[str] = []  # after it: the events, in traversal order
        self.fetched: dict[tuple[str, tuple[str, ...]], str] = {}
        self.placed: dict[int, str] = {}
        self.built: dict[int, str] = {}
        self.constants: list[Any] = []
        self._index: dict[Any, int] = {}
        self.calls: list[Callable[..., Any]] = []
        self._names = 0

    def constant(self, value: Any) -> str:
        """The name of a lifted value; equal scalars share one."""
        kind = type(value)
        scalar = kind is str or kind is int or kind is bool
        key: Any = (kind, value) if scalar else (kind, id(value))
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self.constants)
            self.constants.append(js_ordered(freeze(value)))  # a constant subtree is shared output
        return f"k{index}"

    def name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def write(self) -> str:
        """The scope's source text."""
        scope, body = self.scope, self.body
        chunk: list[Entry] = []
        for event in [*scope.events, None]:
            if type(event) is tuple:
                chunk.append(event)
                continue
            if chunk:
                body.append(f"log.extend({self.constant(tuple(chunk))})")
                chunk = []
            if type(event) is Island:
                var = self.built[id(event)] = self.name("i")
                item = "it" if scope.item else "MISSING"
                body.append(f"{var} = st.island({self.constant(event)}, {item})")
                body.append(f"if {var} is None: return st.undo(mark, n0, w0)")
            elif type(event) is Template:
                self.built[id(event)] = self.template(event)
        result = self.expr(scope.element, ())
        lines = [f"def s({'it, r, st' if scope.item else 'r, st'}):", "    try:"]
        lines += [f"        {line}" for line in self.reads or ["pass"]]
        lines += ["    except MISS:", "        return None", "    log = st.log"]
        if any(type(event) is Island for event in scope.events):
            lines.append("    mark, n0, w0 = len(log), st.nodes, st.work")
        lines.append(f"    st.nodes += {scope.nodes}; st.work += {scope.work}")
        lines += [f"    {line}" for line in body]
        lines.append(f"    return {result}")
        return "\n".join(lines) + "\n"

    def fetch(self, read: Read, *, value: bool = True, missing: bool = False) -> str:
        """The variable a read lands in, written once, prefixes shared.

        A value's read from the root model is noted for :meth:`Plan.patch`; a template's
        list is not: a change inside its items is the patch's to make. With
        ``missing`` a read that misses gives ``MISSING`` instead of missing the scope
        (data not arrived yet, for a rule that takes it silently); it shares nothing.
        """
        source, fetched = self.source, self.fetched
        if value and read.base != "item":
            source.reads.add(read.segments)
        if missing:
            alone = self.name("a")
            steps = self.chain(read, alone)
            self.reads += ["try:", *(f"    {step}" for step in steps)]
            self.reads += ["except MISS:", f"    {alone} = MISSING"]
            return alone
        key = (read.base, read.segments)
        known = fetched.get(key)
        if known is not None:
            return known
        if read.base == "both":
            var = fetched[key] = self.name("a")
            self.reads += self.chain(read, var)
            return var
        var = "it" if read.base == "item" else "r"
        for end, segment in enumerate(read.segments, 1):
            step = (read.base, read.segments[:end])
            known = fetched.get(step)
            if known is None:
                known = fetched[step] = self.name("a")
                self.reads.append(f"{known} = {_step(var, segment)}")
            var = known
        return var

    def chain(self, read: Read, var: str) -> list[str]:
        """The statements of one read into ``var``, sharing no prefix."""
        if read.base == "both":
            return [f"{var} = both(it, r, {self.constant(read.segments)})"]
        at = "it" if read.base == "item" else "r"
        return [f"{var} = {at}"] + [f"{var} = {_step(var, segment)}" for segment in read.segments]

    def hole(self, found: Hole) -> str:
        """The variable a hole's value lands in, its rules applied in order."""
        var = self.placed.get(id(found))
        if var is None:
            # Text prints a value not arrived yet as "", and a choice has nothing chosen:
            # silently, so such a read may miss without the scope missing.
            missing = found.sole and bool(found.rules) and found.rules[0][0] in _TAKE_MISSING
            var = self.fetch(found.read, missing=missing)
            for rule, (key, *args) in found.rules:
                if rule == "string":  # the common case, inline: a short string as it is
                    self.reads.append(f"if type({var}) is not str or len({var}) > M: return None")
                    continue
                out = self.name("b")
                extra = "".join(f", {self.constant(arg)}" for arg in args)
                call = f"R_{rule}(P, {var}, {self.constant(key)}{extra})"
                silent = _SILENT.get(rule)  # the rule's first case, which returns the value
                if silent is not None:
                    call = f"{var} if {silent.format(var)} else {call}"
                self.reads.append(f"{out} = {call}")
                if rule != "text":  # the others leave a prop out with None
                    self.reads.append(f"if {out} is None: return None")
                var = out
            self.placed[id(found)] = var
        return var

    def expr(self, value: Any, address: tuple[Any, ...]) -> str:
        """The expression of a recorded value at ``address`` (keys and indexes) in the element."""
        kind = type(value)
        if kind is Hole:  # a value placed as it is may be data: frozen, as output is
            return self.hole(value) if value.rules else f"FZ({self.hole(value)})"
        if kind is Template or kind is Island:
            if kind is Template and not self.scope.item:
                self.source.templates.append((value, address[:-1]))
            built = self.built[id(value)]
            return f"L({built})" if kind is Template else built
        if _constant(value, self.source.known):
            return self.constant(value)
        if isinstance(value, list):
            items = ", ".join(self.expr(v, (*address, i)) for i, v in enumerate(value))
            return f"L([{items}])"
        parts = []
        for key, inner in js_items(value):  # as the walk's data() orders an object's keys
            if type(key) is not str:
                raise Uncompilable
            if key == "$type" and type(inner) is str and inner in ELEMENT_TYPES:
                parts.append(f"'$type': {inner!r}")
            else:
                parts.append(f"{key!r}: {self.expr(inner, (*address, key))}")
        return "F({" + ", ".join(parts) + "})"

    def template(self, found: Template) -> str:
        """Write one template's expansion into the body; the name of its items' list."""
        items = self.fetch(found.read, value=self.scope.item)
        self.reads.append(f"if type({items}) not in LISTS: return None")
        function = self.source.items[id(found)] = self.source.scope(found.scope)
        item = found.scope
        inner = f"c{len(self.calls)}"
        self.calls.append(function)
        var = self.name("t")
        site = self.constant((found.cid, item.component_id, item.depth, item.ancestors))
        self.body.extend(
            [
                f"{var} = []",
                f"if len({items}) > CAP: log.append({self.constant(found.capped)})",
                f"for x in ({items} if len({items}) <= CAP else {items}[:CAP]):",
                f"    e = {inner}(x, r, st)",
                f"    {var}.append(st.list_item({site}, x) if e is None else e)",
            ]
        )
        return var


# -- plans -------------------------------------------------------------------------------


def _both(item: Any, root: Any, segments: tuple[str, ...]) -> Any:
    """An absolute read inside a template: the item first, then the root model."""
    value = walk_data(item, segments)
    if value is MISSING:
        value = walk_data(root, segments)
        if value is MISSING:
            raise LookupError(segments)
    return value


#: What a plan's functions may fail with: a read that misses or a rule that would warn.
_MISS: Final = (LookupError, TypeError, rules.Loud)


ItemRun: TypeAlias = "tuple[Any, list[Any], int, int]"
"""One run of a template's item scope: the ListViewItem, its log, nodes and work."""
ItemRuns: TypeAlias = "immutables.Map[tuple[int, int], tuple[Any, ItemRun]]"
"""The last run of each item :meth:`Plan.patch` rebuilt, by template and position, with
the item value it ran on."""
NO_RUNS: Final[ItemRuns] = immutables.Map()


class _Patchable(NamedTuple):
    """A root scope template, as :meth:`Plan.patch` rebuilds its items."""

    segments: tuple[str, ...]  # where its list is in the root model
    address: tuple[Any, ...]  # the keys and indexes from the root element to its ListView
    items: Callable[..., Any]  # its item scope's function


class Plan:
    """A component set compiled, bound to its literals; run against any data model.

    Attributes:
        root: the root scope's function: ``(root model, walk) -> element | None``.
        templates: the root scope's templates, for :meth:`patch`.
        reads: every root model path a value is read from outside the templates' items,
            and inside them where an absolute path may fall back to the root.
        patchable: the root scope has no island (whose reads are the walk's).
        source: the generated source text.
    """

    __slots__ = ("heads", "lists", "patchable", "reads", "root", "source", "templates")

    def __init__(
        self,
        root: Callable[..., Any],
        templates: tuple[_Patchable, ...],
        reads: frozenset[tuple[str, ...]],
        *,
        patchable: bool,
        source: str,
    ) -> None:
        self.root = root
        self.templates = templates
        self.reads = reads
        self.patchable = patchable
        self.source = source
        #: The reads and the templates' lists by their first segment, for :meth:`patch`.
        self.heads: dict[str, list[tuple[str, ...]]] = {}
        for read in reads:
            if read:
                self.heads.setdefault(read[0], []).append(read)
        self.lists: dict[str, list[int]] = {}
        for index, template in enumerate(templates):
            if not template.segments:
                self.patchable = False  # a template over the whole model
            else:
                self.lists.setdefault(template.segments[0], []).append(index)

    def run(self, walk: Walk) -> dict[str, Any] | None:
        """Run the plan into ``walk``'s log and budgets; ``None`` where the walk must redo it.

        Returns:
            The root element, or ``None`` when the root scope missed or a budget ran
            out (the caller then converts the surface with a fresh walk).
        """
        try:
            element: dict[str, Any] | None = self.root(walk.root, walk)
        except RecursionError:
            return None
        if element is None or walk.stopped:
            return None
        if walk.nodes > walk.max_nodes or walk.work > walk.max_work:
            return None
        return element

    def patch(
        self,
        element: dict[str, Any],
        surfaces: tuple[Surface, Surface],
        walk_of: Callable[[Surface], Walk],
        paths: Iterable[tuple[str, ...]],
        runs: ItemRuns = NO_RUNS,
    ) -> tuple[dict[str, Any], int, int, ItemRuns] | None:
        """A run's element for new data, rebuilding only the template items that changed.

        Exact when what changed lies inside items of root scope templates and nowhere
        else the plan reads, the changed lists keep their lengths, and each rebuilt
        item gives the warnings it gave before: the rest of the run is then what it
        was, and shared. The nodes and work change by what the items' do.

        Args:
            element: the element of a run of this plan whose root scope did not miss.
            surfaces: the surface that run was made from, and the one with the new data.
            walk_of: makes a walk of a surface, to run items in (made only as needed:
                the old surface's, when an item's last run is not known).
            paths: the data paths that changed from the one model to the other.
            runs: the item runs of the patch that made ``element``, if one did: an item
                whose value is still the one it ran on is not run again to learn what
                it gave (the rest of the model it reads is unchanged between patches).

        Returns:
            The element, the change in nodes and in work, and the item runs made, with
            ``runs``; ``None`` when the change is not one a patch gives exactly (a run
            is needed).
        """
        if not self.patchable or () in self.reads:  # no patch, or a read of the whole model
            return None
        reads, templates = self.heads, self.templates
        changed: dict[int, set[int]] = {}
        for path in paths:
            if not path:
                return None  # the whole model replaced
            for read in reads.get(path[0], ()):
                if _meets(path, read):
                    return None
            inside = None
            for index in self.lists.get(path[0], ()):
                segments = templates[index].segments
                if _meets(path, segments):
                    if len(path) <= len(segments) or inside is not None:
                        return None  # the list itself replaced, or a path in two lists
                    inside = index
            if inside is not None:
                key = path[len(templates[inside].segments)]
                if not _is_index(key):
                    return None
                changed.setdefault(inside, set()).add(int(key))
        if not changed:
            return element, 0, 0, runs
        before, surface = surfaces
        after, earlier = walk_of(surface), None
        nodes = work = 0
        for index, positions in changed.items():
            template = self.templates[index]
            old = walk_data(before.data_model, template.segments)  # as a walk reads it
            new = walk_data(after.root, template.segments)
            if type(new) not in LISTS or type(old) not in LISTS or len(new) != len(old):
                return None
            rebuilt = {}
            for position in positions:
                if position >= min(len(new), after.max_items):
                    continue  # past the cap: not shown
                last = runs.get((index, position))
                if last is not None and last[0] is old[position]:
                    was: ItemRun | None = last[1]
                else:
                    earlier = earlier or walk_of(before)
                    was = _item_run(template, old[position], earlier)
                now = _item_run(template, new[position], after)
                if was is None or now is None or was[1] != now[1]:
                    return None  # a miss, or warnings that differ
                runs = runs.set((index, position), (new[position], now))
                rebuilt[position] = now[0]
                nodes += now[2] - was[2]
                work += now[3] - was[3]
            if rebuilt:
                element = _replace(element, template.address, rebuilt)
        return element, nodes, work, runs


def _output_data(value: Any) -> Any:
    """A value placed in an element as it is: frozen, its keys in JavaScript's order."""
    return js_ordered(freeze(value))


def _item_run(template: _Patchable, value: Any, walk: Walk) -> ItemRun | None:
    """One item's ListViewItem, log, nodes and work, from a fresh state of ``walk``."""
    walk.log, walk.nodes, walk.work = [], 0, 0
    item = template.items(value, walk.root, walk)
    if item is None or walk.stopped:
        return None
    return item, walk.log, walk.nodes, walk.work


def _meets(path: tuple[str, ...], read: tuple[str, ...]) -> bool:
    """Whether a change at ``path`` can change what a read of ``read`` gives."""
    size = min(len(path), len(read))
    return path[:size] == read[:size]


def _replace(node: Any, address: tuple[Any, ...], items: dict[int, Any]) -> Any:
    """``node`` with the ListView at ``address`` holding ``items`` at their positions."""
    if not address:
        children = list(node["children"])
        for position, item in items.items():
            children[position] = item
        return FrozenDict({**node, "children": FrozenList(children)})
    key, inner = address[0], _replace(node[address[0]], address[1:], items)
    if isinstance(node, dict):
        return FrozenDict({**node, key: inner})
    return FrozenList([inner if index == key else kid for index, kid in enumerate(node)])


class Plans:
    """The plans of one converter: a plan per component set compiled, and compiled code.

    A component set is known by identity (with the surface id, version and root it
    belongs to): the reducer keeps a set's object while its components are unchanged.
    How often it was converted in a row is the converter's to count (on the
    conversions themselves, so that nothing here holds a set to tell a set seen again
    from a new one CPython gave a freed one's id); a plan holds its set, and is used
    only for that very object. Every map is bounded; forgetting only costs speed.

    Args:
        setup: the converter's tables and limits.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._plans: OrderedDict[tuple[Any, ...], tuple[Any, Plan | None]] = OrderedDict()
        self._code: OrderedDict[str, Any] = OrderedDict()
        self.namespace: dict[str, Any] = {
            "M": setup.max_string,
            "H": rules.SAFE_PREFIXES,
            "CAP": setup.max_items,
            "P": rules.Probe(setup.max_string),
            "MISS": _MISS,
            "MISSING": MISSING,
            "both": _both,
            "F": FrozenDict,
            "L": FrozenList,
            "FZ": _output_data,
            "LISTS": LISTS,
            **{f"R_{name}": rule for name, rule in rules.RULES.items()},
        }

    def get(self, surface: Surface, seen: int) -> Plan | None:
        """The plan of a surface's component set once it is worth one, else ``None``.

        Args:
            surface: the surface to convert.
            seen: how many conversions in a row, this one included, were of its very
                component set.
        """
        components = surface.components
        key = (id(components), surface.surface_id, surface.version, surface.root_id)
        built = self._plans.get(key)
        if built is not None and built[0] is components:
            self._plans.move_to_end(key)
            return built[1]
        if seen < COMPILE_AT or len(components) > _MAX_PLAN_COMPONENTS:
            return None
        plan = self.build(surface)
        self._plans[key] = (components, plan)  # a set without a plan is not tried again
        if len(self._plans) > _MAX_PLANS:
            self._plans.popitem(last=False)
        return plan

    def code(self, text: str) -> Any:
        """The compiled code of one scope's text, from the bounded cache."""
        code = self._code.get(text)
        if code is None:
            code = self._code[text] = compile(text, "<a2ui render plan>", "exec")
            if len(self._code) > _MAX_CODE:
                self._code.popitem(last=False)
        else:
            self._code.move_to_end(text)
        return code

    def build(self, surface: Surface) -> Plan | None:
        """Record, write and compile a surface's plan; ``None`` when it has none worth it."""
        try:
            element, scope = record(self.setup, surface)
            if element is None or type(element) is Island:
                return None  # nothing to show, or nothing to replay: the walk is as fast
            source = _Source(self)
            root = source.scope(scope)
        except (Uncompilable, RecursionError, SyntaxError, MemoryError, ValueError):
            return None
        templates = tuple(
            _Patchable(found.read.segments, address, source.items[id(found)])
            for found, address in source.templates
        )
        patchable = not any(type(event) is Island for event in scope.events)
        text = "\n".join(source.texts)
        return Plan(root, templates, frozenset(source.reads), patchable=patchable, source=text)
