"""Conversion: an A2UI surface to the generative UI element tree of a ``present`` call.

Owns the mapping from A2UI components to vocabulary elements, binding resolution,
basic-catalog formatting functions, templates, actions, URL safety, the
depth/template/node limits, and reuse of unchanged subtrees between conversions.
Upstream's converter (assistant-ui ``convertSurfaceToUISpec``, reference converter
sections 1f and 2) is reproduced key for key wherever its output is valid; every
element emitted here also validates against :mod:`a2ui_stream._vocabulary`.

Must not import: the reducer, events, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream import _vocabulary as vocab
from a2ui_stream._diagnostics import Diagnostic, Severity
from a2ui_stream._limits import Limits

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from a2ui_stream._surface import Surface
    from a2ui_stream.a2ui import Component

__all__ = ["Conversion", "Converter"]

_MISSING: Final = msgspec.UNSET  # JavaScript ``undefined``: absent, unlike JSON null
_NO_WARNINGS: tuple[tuple[str | None, Diagnostic], ...] = ()
_EMPTY: frozenset[Any] = frozenset()
_INDEX = re.compile(r"0|[1-9][0-9]*")
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f]")
_ENCODE = msgspec.json.Encoder().encode
#: Changed data paths past which an update is treated as a new surface (no reuse).
_MAX_CHANGED_PATHS = 256
#: Containers larger than this are compared whole, not entry by entry, when diffing.
_MAX_DIFF_FANOUT = 1024
#: Child visits that emit nothing (missing, unknown, depth-capped) allowed per node budget.
_WORK_PER_NODE = 4


class Conversion(msgspec.Struct, frozen=True):
    """One surface converted: the ``present`` args and what was lost on the way.

    Attributes:
        element: the root element (the ``present`` args), or ``None`` when the surface
            has nothing to show (no root, root unknown, root over a limit).
        warnings: diagnostics in depth-first order, each naming surface and component.
    """

    element: dict[str, Any] | None
    warnings: tuple[Diagnostic, ...]
    _memo: Any = None
    _basis: Any = None


class _Memo:
    """A converted subtree, kept so the next conversion can reuse it unchanged."""

    __slots__ = (
        "agg",
        "comp",
        "count",
        "element",
        "kids",
        "own_deps",
        "own_ids",
        "scope",
        "warns",
        "whole",
        "work",
    )

    def __init__(self, comp: Component, scope: tuple[str, ...]) -> None:
        self.comp = comp
        self.scope = scope
        self.element: dict[str, Any] | None = None
        self.count = 0
        self.work = 0
        self.whole = True
        self.warns = _NO_WARNINGS
        self.kids: dict[Any, _Memo] = {}
        self.own_deps: list[tuple[str, ...]] = []
        self.own_ids: set[str] = set()
        self.agg: (
            tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]], frozenset[str]] | None
        ) = None

    def aggregate(
        self,
    ) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]], frozenset[str]]:
        """What the whole subtree read, every prefix of that, and the components it reached.

        Computed when a later conversion first asks, then kept: a memo never changes, so
        a fresh conversion pays nothing for it and a reused subtree pays once.
        """
        agg = self.agg
        if agg is None and not self.kids and not self.own_deps:
            agg = self.agg = (_EMPTY, _EMPTY, frozenset(self.own_ids))
        elif agg is None:
            deps = self.own_deps
            own_pre = frozenset(p[:i] for p in deps for i in range(len(p) + 1))
            kids = [kid.aggregate() for kid in self.kids.values()]
            agg = (
                frozenset(deps).union(*(k[0] for k in kids)),
                own_pre.union(*(k[1] for k in kids)),
                frozenset(self.own_ids).union(*(k[2] for k in kids)),
            )
            self.agg = agg
        return agg


class _Basis:
    """What a conversion was computed from, to find what changed next time."""

    __slots__ = ("components", "data", "limits", "surface_id", "version")

    def __init__(self, surface: Surface, limits: Limits) -> None:
        self.components = surface.components
        self.data = surface.data_model
        self.surface_id = surface.surface_id
        self.version = surface.version
        self.limits = limits


class _Scope:
    """Where bindings resolve: the root model, or one template item and its location."""

    __slots__ = ("item", "path", "value")

    def __init__(self, value: Any, path: tuple[str, ...], *, item: bool) -> None:
        self.value = value
        self.path = path
        self.item = item


class _Node:
    """One component being converted: its inputs and what its subtree read and reached."""

    __slots__ = ("comp", "deps", "depth", "ids", "kids", "prev", "props", "scope", "seen")

    def __init__(self, comp: Component, scope: _Scope, depth: int, prev: _Memo | None) -> None:
        self.comp = comp
        self.props = comp.props
        self.scope = scope
        self.depth = depth
        self.prev = prev
        self.deps: list[tuple[str, ...]] = []
        self.ids: set[str] = {comp.id}
        self.kids: dict[Any, _Memo] = {}
        self.seen: dict[str, int] = {}


def _js_number(value: float) -> str:
    """Format a number the way JavaScript's ``String(n)`` does."""
    if type(value) is int:
        return str(value)
    if value != value:  # noqa: PLR0124 (NaN test)
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    if 1e-7 <= abs(value) < 1e21:
        return format(Decimal(repr(value)), "f")
    mantissa, _, exponent = repr(value).partition("e")
    sign = "-" if exponent.startswith("-") else "+"
    return f"{mantissa}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"


def _to_text(value: Any) -> str | None:
    """Interpolate a value into text as A2UI's ``formatString`` does."""
    kind = type(value)
    if kind is str:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is float:
        return _js_number(value)
    if value is None or value is _MISSING:
        return ""
    if kind is list or kind is dict:
        return _ENCODE(value).decode()
    return None


def _url_is_safe(url: str) -> bool:
    """Keep http(s), ``data:image/`` and relative URLs; browsers ignore controls in schemes."""
    cleaned = _CONTROL.sub("", url)
    match = _SCHEME.match(cleaned)
    if match is None:
        return True
    scheme = match.group(1).lower()
    if scheme in {"http", "https"}:
        return True
    return scheme == "data" and cleaned[5:].lower().startswith("image/")


def _binding(value: Any) -> str | None:
    """The pointer of a ``{"path"}`` or ``{"@path"}`` binding, else ``None``."""
    if type(value) is dict and len(value) == 1:
        path = value.get("path", value.get("@path"))
        if type(path) is str:
            return path
    return None


def _call(value: Any) -> tuple[str, Any] | None:
    """The function name and raw args of a ``{"call"}`` or ``{"@call"}`` value, else ``None``."""
    if type(value) is dict:
        name = value.get("call", value.get("@call"))
        if type(name) is str and ("path" not in value and "@path" not in value):
            return name, value.get("args")
    return None


def _name_of(props: Mapping[str, Any]) -> str | None:
    """Upstream's field ``name``: the last segment of the raw value binding."""
    for key in ("text", "value", "binding"):
        if key in props:
            path = _binding(props[key])
            if path is None or path in {"", "/"}:
                return None
            return path.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    return None


class Converter:
    """Converts surfaces to element trees, reusing unchanged subtrees of a previous result.

    Tables (mapping by component name, functions by name) and limits are resolved once
    here; :meth:`convert` branches only on data.
    """

    def __init__(self, *, limits: Limits = Limits()) -> None:  # noqa: B008 (immutable default)
        """Resolve tables and limits.

        Args:
            limits: the bounds to enforce; depth, template items, nodes and string length
                are used here.
        """
        self._limits = limits
        self._max_depth = limits.max_depth
        self._max_items = limits.max_template_items
        self._max_nodes = limits.max_nodes
        self._max_string = limits.max_string_length
        self._max_work = max(_WORK_PER_NODE * limits.max_nodes, 1024)
        self._segments_cache: dict[str, tuple[str, ...]] = {}
        self._mappers: dict[str, Callable[[_Run, _Node], dict[str, Any] | None]] = {
            "Text": _Run.text,
            "Image": _Run.image,
            "Row": _Run.row,
            "Column": _Run.column,
            "List": _Run.list_,
            "Card": _Run.card,
            "Divider": _Run.divider,
            "Button": _Run.button,
            "TextField": _Run.text_field,
            "CheckBox": _Run.check_box,
            "Icon": _Run.icon,
            "Tabs": _Run.tabs,
            "Modal": _Run.modal,
            "ChoicePicker": _Run.choice_picker,
            "DateTimeInput": _Run.date_time_input,
            "Slider": _Run.slider,
            "Video": _Run.media,
            "AudioPlayer": _Run.media,
        }
        self._functions: dict[str, Callable[[_Run, _Node, dict[str, Any]], Any]] = {
            "formatString": _Run.fn_format_string,
            "formatNumber": _Run.fn_format_number,
            "formatCurrency": _Run.fn_format_currency,
            "formatDate": _Run.fn_format_date,
            "pluralize": _Run.fn_pluralize,
        }

    def segments(self, path: str) -> tuple[str, ...]:
        """Split a JSON Pointer (absolute or relative) into decoded segments, cached."""
        found = self._segments_cache.get(path)
        if found is None:
            body = path.removeprefix("/")
            found = (
                ()
                if body == ""
                else tuple(s.replace("~1", "/").replace("~0", "~") for s in body.split("/"))
            )
            if len(self._segments_cache) > 4096:
                self._segments_cache.clear()
            self._segments_cache[path] = found
        return found

    def convert(self, surface: Surface, previous: Conversion | None = None) -> Conversion:
        """Convert a surface to the ``present`` args.

        Args:
            surface: the surface to convert.
            previous: an earlier conversion of the same surface by this converter; its
                unchanged subtrees are reused. The result always equals a conversion
                without it.

        Returns:
            The element tree (or ``None``) and the warnings. Never raises: an internal
            failure gives ``None`` and a ``convert.failed`` warning.
        """
        basis = _Basis(surface, self._limits)
        try:
            run = _Run(self, surface)
            if previous is not None:
                run.prepare_reuse(previous, basis)
            element = run.root()
        except Exception as exc:  # noqa: BLE001 (the contract: conversion never raises)
            failure = Diagnostic(
                code="convert.failed",
                message=f"A2UI surface conversion encountered malformed input ({exc!r}).",
                surface_id=surface.surface_id,
            )
            return Conversion(element=None, warnings=(failure,))
        return Conversion(
            element=element, warnings=run.warnings(), _memo=run.root_memo, _basis=basis
        )


class _Run:
    """The state of one conversion: budgets, warnings, what changed, memo lookups."""

    def __init__(self, converter: Converter, surface: Surface) -> None:
        self.cv = converter
        self.surface_id = surface.surface_id
        self.components = surface.components
        data = surface.data_model
        self.root_scope = _Scope(_MISSING if data is msgspec.UNSET else data, (), item=False)
        self.maps = surface.version.startswith("v0.8")
        self.root_id = surface.root_id
        self.nodes = 0
        self.work = 0
        self.refusals = 0
        self.stopped = False
        self.visited: set[str] = set()
        self.log: list[tuple[str | None, Diagnostic]] = []
        self.prev_root: _Memo | None = None
        self.root_memo: _Memo | None = None
        self.changed_ids: set[str] = set()
        self.changed_paths: list[tuple[str, ...]] = []
        self.changed_pre: set[tuple[str, ...]] = set()

    # -- warnings ---------------------------------------------------------------------

    def warn(
        self,
        code: str,
        message: str,
        component_id: str | None,
        *,
        once: bool = False,
        severity: Severity = Severity.WARNING,
    ) -> None:
        """Record a diagnostic; ``once`` ones are kept only at their first occurrence."""
        diagnostic = Diagnostic(
            code=code,
            message=message,
            severity=severity,
            surface_id=self.surface_id,
            component_id=component_id,
        )
        self.log.append((code if once else None, diagnostic))

    def warnings(self) -> tuple[Diagnostic, ...]:
        """The log with repeated once-per-conversion warnings removed."""
        seen: set[str] = set()
        out = []
        for key, diagnostic in self.log:
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
            out.append(diagnostic)
        return tuple(out)

    # -- reuse --------------------------------------------------------------------------

    def prepare_reuse(self, previous: Conversion, basis: _Basis) -> None:
        """Work out what changed since ``previous``; leave reuse off when unsure."""
        old = previous._basis  # noqa: SLF001 (our own private memo)
        if not isinstance(old, _Basis) or previous._memo is None:  # noqa: SLF001
            return
        if (
            old.limits != basis.limits
            or old.surface_id != basis.surface_id
            or old.version != basis.version
        ):
            return
        if basis.components is not old.components:
            new, before = basis.components, old.components
            self.changed_ids = {k for k, v in new.items() if before.get(k) is not v}
            self.changed_ids.update(k for k in before if k not in new)
        if basis.data is not old.data:
            paths: list[tuple[str, ...]] = []
            if not _diff(old.data, basis.data, (), paths):
                return
            self.changed_paths = paths
            for path in paths:
                self.changed_pre.update(path[:i] for i in range(len(path)))
        self.prev_root = previous._memo  # noqa: SLF001

    def unchanged(self, memo: _Memo) -> bool:
        """Whether nothing a memoised subtree read or reached has changed."""
        deps, pre, ids = memo.aggregate()
        if self.changed_ids and not self.changed_ids.isdisjoint(ids):
            return False
        if self.changed_paths:
            if not self.changed_pre.isdisjoint(deps):
                return False
            for path in self.changed_paths:
                if path in pre:
                    return False
        return True

    # -- traversal ----------------------------------------------------------------------

    def root(self) -> dict[str, Any] | None:
        """Convert from the root component."""
        root_id = self.root_id
        if root_id is None:
            return None
        if root_id not in self.components:
            self.warn(
                "convert.root_missing", f'A2UI root component "{root_id}" was not found.', None
            )
            return None
        memo = self.visit(root_id, self.root_scope, 0, self.prev_root)
        self.root_memo = memo
        return None if memo is None else memo.element

    def reserve(self, component_id: str | None) -> bool:
        """Take one node from the budget; on failure warn once and stop the traversal."""
        if self.nodes < self.cv._max_nodes:  # noqa: SLF001
            self.nodes += 1
            return True
        self.warn(
            "convert.node_budget",
            f"A2UI node budget of {self.cv._max_nodes} was reached.",  # noqa: SLF001
            component_id,
            once=True,
        )
        self.refusals += 1
        self.stopped = True
        return False

    def visit(self, cid: str, scope: _Scope, depth: int, prev: _Memo | None) -> _Memo | None:
        """Convert one component reference (upstream ``convertComponent``, in its order)."""
        if self.stopped:
            return None
        cv = self.cv
        self.work += 1
        if self.work > cv._max_work:  # noqa: SLF001
            self.warn(
                "convert.work_budget",
                "A2UI conversion stopped: too many references emitted nothing.",
                cid,
            )
            self.refusals += 1
            self.stopped = True
            return None
        if depth >= cv._max_depth:  # noqa: SLF001
            self.warn(
                "convert.depth_cap",
                f"A2UI depth cap of {cv._max_depth} was reached.",  # noqa: SLF001
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
        if (
            prev is not None
            and prev.whole
            and prev.comp is comp
            and prev.scope == scope.path
            and self.nodes + prev.count <= cv._max_nodes  # noqa: SLF001
            and self.work - 1 + prev.work <= cv._max_work  # noqa: SLF001
            and self.unchanged(prev)
        ):
            self.nodes += prev.count
            self.work += prev.work - 1
            self.log.extend(prev.warns)
            return prev
        start_nodes, start_work = self.nodes, self.work - 1
        start_log, start_refusals = len(self.log), self.refusals
        node = _Node(comp, scope, depth, prev)
        self.visited.add(cid)
        try:
            template = _template_of(comp.props.get("children"))
            if template is not None:
                element = self.template(node, template)
            else:
                mapper = cv._mappers.get(comp.component)  # noqa: SLF001
                if mapper is None:
                    self.warn(
                        "convert.unknown_component",
                        f'Unknown A2UI component "{comp.component}" was skipped.',
                        cid,
                        severity=Severity.DEBUG,
                    )
                    return None
                element = mapper(self, node) if self.reserve(cid) else None
        finally:
            self.visited.discard(cid)
        memo = _Memo(comp, scope.path)
        memo.element = element
        # A limit that cut this subtree made its output depend on what came before it:
        # its complete children stay reusable, the subtree itself does not.
        memo.whole = self.refusals == start_refusals
        memo.count = self.nodes - start_nodes
        memo.work = self.work - start_work
        if len(self.log) > start_log:
            memo.warns = tuple(self.log[start_log:])
        memo.kids = node.kids
        memo.own_deps = node.deps
        memo.own_ids = node.ids
        return memo

    def child(self, node: _Node, cid: Any, scope: _Scope | None = None) -> dict[str, Any] | None:
        """Convert a child reference of ``node`` one level deeper, reusing its old memo."""
        if type(cid) is not str:
            self.warn(
                "convert.child_malformed",
                f'Component "{node.comp.id}" has a malformed child reference.',
                node.comp.id,
            )
            return None
        node.ids.add(cid)
        if scope is None:
            scope = node.scope
            occurrence = node.seen.get(cid, 0)
            node.seen[cid] = occurrence + 1
            key: Any = (cid, occurrence)
        else:
            key = scope.path
        prev = node.prev.kids.get(key) if node.prev is not None else None
        memo = self.visit(cid, scope, node.depth + 1, prev)
        if memo is None:
            return None
        node.kids[key] = memo
        return memo.element

    def children(self, node: _Node, element: dict[str, Any], extra: Sequence[Any] = ()) -> None:
        """Append ``children`` (the ``extra`` single-child references first), when any."""
        out = []
        for cid in extra:
            converted = self.child(node, cid)
            if converted is not None:
                out.append(converted)
        ids = node.props.get("children")
        if type(ids) is list:
            for cid in ids:
                converted = self.child(node, cid)
                if converted is not None:
                    out.append(converted)
        if out:
            element["children"] = out

    def template(self, node: _Node, template: tuple[Any, Any]) -> dict[str, Any] | None:
        """Expand a template into a ListView of ListViewItems (upstream step 4)."""
        cid = node.comp.id
        if not self.reserve(cid):
            return None
        component_id, path = template
        items = self.read(node, path) if type(path) is str else _MISSING
        out: list[Any] = []
        element = {"$type": "ListView", "children": out}
        if type(items) is list:
            entries: Any = enumerate(items)
            total = len(items)
        elif self.maps and type(items) is dict:
            entries = items.items()
            total = len(items)
        else:
            self.warn(
                "convert.template_not_list",
                f'Template on component "{cid}" did not resolve to a list.',
                cid,
            )
            return element
        cap = self.cv._max_items  # noqa: SLF001
        if total > cap:
            self.warn(
                "convert.template_cap",
                f"A2UI template expansion was capped at {cap} items.",
                cid,
                once=True,
            )
        base = self._last_path
        for count, (key, item) in enumerate(entries):
            if count >= cap or not self.reserve(cid):
                break
            scope = _Scope(item, (*base, str(key)), item=True)
            child = self.child(node, component_id, scope)
            out.append(
                {"$type": "ListViewItem"}
                if child is None
                else {"$type": "ListViewItem", "children": child}
            )
        return element

    # -- data ---------------------------------------------------------------------------

    _last_path: tuple[str, ...] = ()

    def read(self, node: _Node, pointer: str) -> Any:
        """Resolve a pointer in ``node``'s scope, recording what it read.

        Relative pointers read the current item; absolute ones read the item first
        (upstream's reading) and the root model when the item lacks them (the spec's).
        """
        segments = self.cv.segments(pointer)
        scope = node.scope
        path = (*scope.path, *segments)
        node.deps.append(path)
        value = _walk(scope.value, segments)
        self._last_path = path
        if value is _MISSING and scope.item and pointer.startswith("/"):
            node.deps.append(segments)
            value = _walk(self.root_scope.value, segments)
            self._last_path = segments
        return value

    def resolve(self, node: _Node, value: Any) -> Any:
        """Materialise a prop value: bindings and calls resolved, ``undefined`` dropped."""
        kind = type(value)
        if kind is dict:
            pointer = _binding(value)
            if pointer is not None:
                return self.read(node, pointer)
            call = _call(value)
            if call is not None:
                return self.call(node, call[0], call[1])
            out = {}
            for key, item in value.items():
                resolved = self.resolve(node, item)
                if resolved is not _MISSING:
                    out[key] = resolved
            return out
        if kind is list:
            return [r for r in (self.resolve(node, item) for item in value) if r is not _MISSING]
        return value

    def prop(self, node: _Node, *keys: str) -> Any:
        """The first of ``keys`` whose materialised value is defined (upstream "first defined")."""
        props = node.props
        for key in keys:
            if key in props:
                value = self.resolve(node, props[key])
                if value is not _MISSING:
                    return value
        return _MISSING

    def call(self, node: _Node, name: str, raw_args: Any) -> Any:
        """Evaluate a basic-catalog function; unsupported ones warn and give ``undefined``."""
        function = self.cv._functions.get(name)  # noqa: SLF001
        if function is None:
            self.warn(
                "convert.function_unsupported",
                f'A2UI function "{name}" is not supported; its value was dropped.',
                node.comp.id,
            )
            return _MISSING
        args = self.resolve(node, raw_args) if type(raw_args) is dict else {}
        try:
            return function(self, node, args)
        except (ValueError, TypeError, ArithmeticError) as exc:
            self.warn(
                "convert.function_failed",
                f'A2UI function "{name}" failed ({exc}); its value was dropped.',
                node.comp.id,
            )
            return _MISSING

    def string(self, node: _Node, value: Any, key: str) -> str | None:
        """A string prop value, cut to the string limit; ``None`` when not a string."""
        if type(value) is not str:
            return None
        if len(value) > self.cv._max_string:  # noqa: SLF001
            self.warn(
                "convert.string_cut",
                f'Prop "{key}" was cut to {self.cv._max_string} characters.',  # noqa: SLF001
                node.comp.id,
            )
            return value[: self.cv._max_string]  # noqa: SLF001
        return value

    def text_of(self, node: _Node, value: Any, key: str) -> str:
        """Display text for a required text prop: numbers and booleans as JavaScript prints them."""
        text = _to_text(value)
        if text is None or type(value) in {list, dict}:
            if value is not _MISSING and value is not None:
                self.warn(
                    "convert.prop_invalid",
                    f'Prop "{key}" is not text; it was left empty.',
                    node.comp.id,
                )
            return ""
        return self.string(node, text, key) or ""

    def url(self, node: _Node, value: Any, key: str) -> str | None:
        """A URL prop value when it is a string with a safe scheme, else ``None``."""
        if type(value) is not str:
            return None
        if not _url_is_safe(value):
            self.warn(
                "convert.unsafe_url",
                f'Prop "{key}" has a URL scheme that is not allowed; it was dropped.',
                node.comp.id,
            )
            return None
        return self.string(node, value, key)

    def invalid(self, node: _Node, key: str, value: Any) -> None:
        """Warn that a prop value has no counterpart in the vocabulary and was dropped."""
        self.warn(
            "convert.prop_invalid",
            f'Prop "{key}" value {value!r} is not valid in the vocabulary; it was dropped.',
            node.comp.id,
        )

    def drop(self, node: _Node, why: str) -> None:
        """Warn that an element was dropped because it cannot be made valid."""
        self.warn(
            "convert.element_dropped",
            f'Component "{node.comp.id}" ({node.comp.component}) was dropped: {why}.',
            node.comp.id,
        )

    # -- mappers (upstream table first, then the rest of the basic catalog) --------------

    def gap(self, node: _Node, element: dict[str, Any], key: str = "gap") -> None:
        """Copy a number prop in the vocabulary's 0..8 range."""
        value = self.prop(node, key)
        if type(value) is int or type(value) is float:
            if 0 <= value <= 8:
                element[key] = value
            else:
                self.invalid(node, key, value)

    def enum(
        self,
        node: _Node,
        element: dict[str, Any],
        key: str,
        table: Mapping[str, str | None],
        *sources: str,
    ) -> None:
        """Copy a string prop mapped through an A2UI-to-vocabulary table."""
        value = self.prop(node, *sources)
        if type(value) is str:
            if value in table:
                mapped = table[value]
                if mapped is not None:
                    element[key] = mapped
            else:
                self.invalid(node, key, value)

    def flag(self, node: _Node, element: dict[str, Any], key: str, *sources: str) -> None:
        """Copy a boolean prop."""
        value = self.prop(node, *(sources or (key,)))
        if type(value) is bool:
            element[key] = value

    def text(self, node: _Node) -> dict[str, Any] | None:
        """Text: Header for h1-h6, Caption for caption, Markdown otherwise."""
        value = self.prop(node, "text", "value")
        variant = self.prop(node, "variant")
        if (
            type(variant) is str
            and len(variant) == 2
            and variant[0] == "h"
            and variant[1] in "123456"
        ):
            element = {"$type": "Header", "text": self.text_of(node, value, "text")}
        elif variant == "caption":
            element = {"$type": "Caption", "value": self.text_of(node, value, "text")}
        else:
            element = {"$type": "Markdown", "value": self.text_of(node, value, "text")}
        self.children(node, element)
        return element

    def image(self, node: _Node) -> dict[str, Any] | None:
        """Image: src (safe URL, required), alt (required, ``""`` when absent), size, round."""
        src = self.url(node, self.prop(node, "src", "url"), "src")
        if src is None:
            self.drop(node, "it has no usable src")
            return None
        alt = self.string(node, self.prop(node, "alt", "altText"), "alt")
        if alt is None:
            alt = self.string(node, self.prop(node, "description"), "alt") or ""
        element: dict[str, Any] = {"$type": "Image", "src": src, "alt": alt}
        size = self.prop(node, "size")
        if (type(size) is str and size in vocab.IMAGE_SIZES) or type(size) in {int, float}:
            element["size"] = size
        elif size is not _MISSING:
            self.invalid(node, "size", size)
        self.flag(node, element, "round")
        self.children(node, element)
        return element

    def row(self, node: _Node) -> dict[str, Any] | None:
        """Row: gap, align (align/alignment), justify (justify/distribution)."""
        element: dict[str, Any] = {"$type": "Row"}
        self.gap(node, element)
        self.enum(node, element, "align", vocab.ALIGN_FROM_A2UI, "align", "alignment")
        self.enum(node, element, "justify", vocab.JUSTIFY_FROM_A2UI, "justify", "distribution")
        self.children(node, element)
        return element

    def column(self, node: _Node) -> dict[str, Any] | None:
        """Column: Col with gap and align."""
        element: dict[str, Any] = {"$type": "Col"}
        self.gap(node, element)
        self.enum(node, element, "align", vocab.ALIGN_FROM_A2UI, "align", "alignment")
        self.children(node, element)
        return element

    def list_(self, node: _Node) -> dict[str, Any] | None:
        """List: a Row when horizontal, else a Col."""
        if self.prop(node, "direction") == "horizontal":
            return self.row(node)
        return self.column(node)

    def card(self, node: _Node) -> dict[str, Any] | None:
        """Card: title, padding, background; the spec's single ``child`` first."""
        element: dict[str, Any] = {"$type": "Card"}
        title = self.string(node, self.prop(node, "title"), "title")
        if title is not None:
            element["title"] = title
        self.gap(node, element, "padding")
        background = self.string(node, self.prop(node, "background"), "background")
        if background is not None:
            element["background"] = background
        self.children(node, element, _single(node.props, "child"))
        return element

    def divider(self, node: _Node) -> dict[str, Any] | None:
        """Divider: flush."""
        element: dict[str, Any] = {"$type": "Divider"}
        self.flag(node, element, "flush")
        self.children(node, element)
        return element

    def button(self, node: _Node) -> dict[str, Any] | None:
        """Button: label from label/text or a Text ``child``; other children as children."""
        element: dict[str, Any] = {"$type": "Button"}
        label = self.string(node, self.prop(node, "label", "text"), "label")
        extra = _single(node.props, "child")
        spec_style = label is None
        if label is None and extra:
            child = self.components.get(extra[0]) if type(extra[0]) is str else None
            if child is not None and child.component == "Text" and extra[0] not in self.visited:
                node.ids.add(child.id)
                saved = node.props
                node.props = child.props
                label = self.text_of(node, self.prop(node, "text", "value"), "text")
                node.props = saved
                extra = []
        element["label"] = label or ""
        style = self.prop(node, "buttonStyle")
        if type(style) is str:
            if style in vocab.BUTTON_STYLES:
                element["buttonStyle"] = style
            else:
                self.invalid(node, "buttonStyle", style)
        elif spec_style:
            variant = self.prop(node, "variant")
            mapped = vocab.BUTTON_STYLE_FROM_VARIANT.get(variant) if type(variant) is str else None
            if mapped is not None:
                element["buttonStyle"] = mapped
        self.flag(node, element, "block")
        self.flag(node, element, "submit")
        action = self.action(node)
        if action is not None:
            element["$action"] = action
        self.children(node, element, extra)
        return element

    def text_field(self, node: _Node) -> dict[str, Any] | None:
        """TextField: Input with placeholder, multiline, label, name."""
        element: dict[str, Any] = {"$type": "Input"}
        placeholder = self.string(node, self.prop(node, "placeholder"), "placeholder")
        if placeholder is not None:
            element["placeholder"] = placeholder
        multiline = self.prop(node, "multiline")
        if type(multiline) is bool:
            element["multiline"] = multiline
        elif "longText" in (self.prop(node, "textFieldType"), self.prop(node, "variant")):
            element["multiline"] = True
        self.labelled(node, element)
        self.children(node, element)
        return element

    def labelled(self, node: _Node, element: dict[str, Any], *, required: bool = False) -> None:
        """Copy ``label`` (``""`` when required and absent) and the field ``name``."""
        label = self.string(node, self.prop(node, "label"), "label")
        if label is not None:
            element["label"] = label
        elif required:
            element["label"] = ""
        name = _name_of(node.props)
        if name is not None:
            element["name"] = name

    def check_box(self, node: _Node) -> dict[str, Any] | None:
        """CheckBox: Checkbox with label, name, defaultChecked (defaultChecked/value)."""
        element: dict[str, Any] = {"$type": "Checkbox"}
        self.labelled(node, element, required=True)
        self.flag(node, element, "defaultChecked", "defaultChecked", "value")
        self.children(node, element)
        return element

    def icon(self, node: _Node) -> dict[str, Any] | None:
        """Icon: the A2UI name mapped onto the vocabulary's; dropped when it has none."""
        name = self.prop(node, "name")
        mapped = vocab.ICON_FROM_A2UI.get(name) if type(name) is str else None
        if mapped is None:
            self.warn(
                "convert.icon_unmapped",
                f"Icon {name!r} has no counterpart in the vocabulary and was skipped.",
                node.comp.id,
                severity=Severity.DEBUG,
            )
            return None
        element: dict[str, Any] = {"$type": "Icon", "name": mapped}
        self.children(node, element)
        return element

    def tabs(self, node: _Node) -> dict[str, Any] | None:
        """Tabs: a Col of Cards, one per tab, titled, holding the tab's child."""
        out = []
        tabs = node.props.get("tabs")
        for tab in tabs if type(tabs) is list else ():
            if type(tab) is not dict or not self.reserve(node.comp.id):
                continue
            card: dict[str, Any] = {"$type": "Card"}
            title = self.string(node, self.resolve(node, tab.get("title", "")), "title")
            if title is not None:
                card["title"] = title
            if "child" in tab:
                converted = self.child(node, tab["child"])
                if converted is not None:
                    card["children"] = [converted]
            out.append(card)
        element: dict[str, Any] = {"$type": "Col"}
        self.children(node, element)
        if out:
            element["children"] = out + element.get("children", [])
        return element

    def modal(self, node: _Node) -> dict[str, Any] | None:
        """Modal: a Col holding its trigger followed by its content."""
        element: dict[str, Any] = {"$type": "Col"}
        self.children(node, element, _single(node.props, "trigger", "content"))
        return element

    def choice_picker(self, node: _Node) -> dict[str, Any] | None:
        """ChoicePicker: RadioGroup when mutually exclusive, else a Col of Checkboxes."""
        options = []
        raw = node.props.get("options")
        for option in raw if type(raw) is list else ():
            if type(option) is not dict:
                continue
            value = self.string(node, self.resolve(node, option.get("value")), "options")
            if value is None:
                continue
            options.append(
                {
                    "label": self.text_of(node, self.resolve(node, option.get("label")), "label"),
                    "value": value,
                }
            )
        chosen = self.prop(node, "value", "selections")
        selected = [chosen] if type(chosen) is str else chosen if type(chosen) is list else []
        if self.prop(node, "variant") == "multipleSelection":
            element: dict[str, Any] = {"$type": "Col"}
            out: list[Any] = []
            label = self.string(node, self.prop(node, "label"), "label")
            if label is not None and self.reserve(node.comp.id):
                out.append({"$type": "Text", "value": label})
            for option in options:
                if not self.reserve(node.comp.id):
                    break
                out.append(
                    {
                        "$type": "Checkbox",
                        "label": option["label"],
                        "name": option["value"],
                        "defaultChecked": option["value"] in selected,
                    }
                )
            self.children(node, element)
            if out:
                element["children"] = out + element.get("children", [])
            return element
        element = {"$type": "RadioGroup", "options": options}
        name = _name_of(node.props)
        if name is not None:
            element["name"] = name
        label = self.string(node, self.prop(node, "label"), "label")
        if label is not None:
            element["label"] = label
        first = next((s for s in selected if type(s) is str), None)
        if first is not None:
            element["defaultValue"] = first
        self.children(node, element)
        return element

    def date_time_input(self, node: _Node) -> dict[str, Any] | None:
        """DateTimeInput: DatePicker with value, min, max, label, name."""
        element: dict[str, Any] = {"$type": "DatePicker"}
        for key in ("value", "min", "max"):
            value = self.string(node, self.prop(node, key), key)
            if value is not None:
                element[key] = value
        self.labelled(node, element)
        self.children(node, element)
        return element

    def slider(self, node: _Node) -> dict[str, Any] | None:
        """Slider: an Input with its label and field name."""
        element: dict[str, Any] = {"$type": "Input"}
        self.labelled(node, element)
        self.children(node, element)
        return element

    def media(self, node: _Node) -> dict[str, Any] | None:
        """Video and AudioPlayer: a Markdown link to the media."""
        url = self.url(node, self.prop(node, "url"), "url")
        if url is None:
            self.drop(node, "it has no usable url")
            return None
        title = self.string(node, self.prop(node, "description"), "description")
        if not title:
            title = node.comp.component
        label = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        target = url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
        link = self.string(node, f"[{label}]({target})", "url")
        element: dict[str, Any] = {"$type": "Markdown", "value": link}
        self.children(node, element)
        return element

    # -- actions ------------------------------------------------------------------------

    def action(self, node: _Node) -> dict[str, Any] | None:
        """The ``$action`` of a Button: a spec event, a function call, or upstream's form."""
        props = node.props
        if "action" not in props:
            return None
        raw = props["action"]
        cid = node.comp.id
        if type(raw) is dict and len(raw) == 1 and type(raw.get("functionCall")) is dict:
            call = _call(raw["functionCall"])
            if call is not None:
                args = self.resolve(node, call[1]) if type(call[1]) is dict else {}
                url = args.get("url")
                if call[0] == "openUrl" and (type(url) is not str or not _url_is_safe(url)):
                    self.warn(
                        "convert.unsafe_url",
                        "openUrl action has no safe URL; the action was dropped.",
                        cid,
                    )
                    return None
                return {"type": "a2ui:function", "call": call[0], "args": args}
        elif type(raw) is dict and len(raw) == 1 and type(raw.get("event")) is dict:
            event = raw["event"]
            name = self.resolve(node, event.get("name"))
            context = event.get("context", _MISSING)
            return self.event(node, name, context)
        else:
            action = self.resolve(node, raw)
            if type(action) is str:
                return self.event(node, action, _MISSING)
            if type(action) is dict and type(action.get("name")) is str:
                return self.event(node, action["name"], raw.get("context", _MISSING))
        self.warn("convert.action_dropped", "Button action is not usable; it was dropped.", cid)
        return None

    def event(self, node: _Node, name: Any, context: Any) -> dict[str, Any] | None:
        """An ``a2ui:action`` with its context resolved once against the data in scope."""
        if type(name) is not str or not name:
            self.warn(
                "convert.action_dropped",
                "Button action has no name; it was dropped.",
                node.comp.id,
            )
            return None
        action: dict[str, Any] = {
            "type": "a2ui:action",
            "name": name,
            "surfaceId": self.surface_id,
            "sourceComponentId": node.comp.id,
        }
        if type(context) is list:  # v0.8: [{key, value}]
            context = {
                entry["key"]: entry.get("value")
                for entry in context
                if type(entry) is dict and type(entry.get("key")) is str
            }
        if context is not _MISSING:
            resolved = self.resolve(node, context)
            if resolved is not _MISSING:
                action["context"] = resolved
        return action

    # -- basic-catalog functions --------------------------------------------------------

    def fn_format_string(self, node: _Node, args: dict[str, Any]) -> Any:
        """``formatString``: interpolate ``${path}`` and ``${fn(arg: value)}``."""
        value = args.get("value")
        if type(value) is not str:
            raise TypeError("value must be a string")
        return _Interpolator(self, node, value).run()

    def fn_format_number(self, _node: _Node, args: dict[str, Any]) -> Any:
        """``formatNumber``: grouped digits, ``decimals`` fraction digits (default up to 3)."""
        return _format_number(args.get("value"), args.get("decimals"), args.get("grouping"))

    def fn_format_currency(self, _node: _Node, args: dict[str, Any]) -> Any:
        """``formatCurrency``: a symbol (or code) and two fraction digits by default."""
        currency = args.get("currency")
        if type(currency) is not str:
            raise TypeError("currency must be a string")
        decimals = args.get("decimals", 2)
        amount = _format_number(args.get("value"), decimals, args.get("grouping"))
        symbol = _CURRENCY_SYMBOLS.get(currency.upper(), f"{currency} ")
        if amount.startswith("-"):
            return f"-{symbol}{amount[1:]}"
        return f"{symbol}{amount}"

    def fn_format_date(self, _node: _Node, args: dict[str, Any]) -> Any:
        """``formatDate``: an ISO 8601 value through a Unicode date pattern."""
        value, pattern = args.get("value"), args.get("format")
        if type(value) is not str or type(pattern) is not str:
            raise TypeError("value and format must be strings")
        return _format_date(dt.datetime.fromisoformat(value), pattern)

    def fn_pluralize(self, _node: _Node, args: dict[str, Any]) -> Any:
        """``pluralize``: English plural categories (zero, one, other)."""
        value = args.get("value")
        if type(value) not in {int, float}:
            raise TypeError("value must be a number")
        if value == 0 and "zero" in args:
            return args["zero"]
        if value == 1 and "one" in args:
            return args["one"]
        return args.get("other", _MISSING)


_CURRENCY_SYMBOLS: Final = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}
_MONTHS: Final = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS: Final = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_DATE_TOKEN = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|.", re.DOTALL)


def _format_number(value: Any, decimals: Any, grouping: Any) -> str:
    if type(value) not in {int, float}:
        raise TypeError("value must be a number")
    comma = "," if grouping is not False else ""
    if type(decimals) is int and 0 <= decimals <= 20:
        return f"{value:{comma}.{decimals}f}"
    text = f"{value:{comma}.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def _format_date(when: dt.datetime, pattern: str) -> str:
    out = []
    for match in _DATE_TOKEN.finditer(pattern):
        token = match.group(0)
        if token.startswith("'"):
            quoted = token[1:-1].replace("''", "'")
            out.append(quoted or "'")
            continue
        letter, width = token[0], len(token)
        out.append(_date_field(when, letter, width) if match.group(1) else token)
    return "".join(out)


def _date_field(when: dt.datetime, letter: str, width: int) -> str:
    month, day_name = _MONTHS[when.month - 1], _DAYS[when.weekday()]
    hour12 = when.hour % 12 or 12
    fields: dict[str, Callable[[], str]] = {
        "y": lambda: f"{when.year % 100:02d}" if width == 2 else f"{when.year:0{width}d}",
        "M": lambda: (
            month if width >= 4 else month[:3] if width == 3 else f"{when.month:0{width}d}"
        ),
        "d": lambda: f"{when.day:0{width}d}",
        "E": lambda: day_name if width >= 4 else day_name[:3],
        "h": lambda: f"{hour12:0{width}d}",
        "H": lambda: f"{when.hour:0{width}d}",
        "m": lambda: f"{when.minute:0{width}d}",
        "s": lambda: f"{when.second:0{width}d}",
        "a": lambda: "AM" if when.hour < 12 else "PM",
    }
    fields["Y"] = fields["y"]
    fields["L"] = fields["M"]
    fields["c"] = fields["E"]
    field = fields.get(letter)
    return field() if field is not None else letter * width


class _Interpolator:
    r"""``formatString``'s template language: ``${path}``, ``${fn(k: v)}``, ``\\${`` escapes."""

    def __init__(self, run: _Run, node: _Node, text: str) -> None:
        self.run_ = run
        self.node = node
        self.text = text
        self.pos = 0

    def run(self) -> str:
        text, out = self.text, []
        while self.pos < len(text):
            char = text[self.pos]
            if char == "\\" and text.startswith("${", self.pos + 1):
                out.append("${")
                self.pos += 3
            elif text.startswith("${", self.pos):
                self.pos += 2
                out.append(_to_text(self.expression("}")) or "")
                self.pos += 1
            else:
                out.append(char)
                self.pos += 1
        return "".join(out)

    def expression(self, stop: str) -> Any:
        """Parse one expression up to ``stop`` (not consumed) and evaluate it."""
        text = self.text
        self.skip_space()
        if text.startswith("${", self.pos):
            self.pos += 2
            value = self.expression("}")
            self.pos += 1
            self.skip_space()
            return value
        if self.pos < len(text) and text[self.pos] in "'\"":
            quote = text[self.pos]
            end = text.find(quote, self.pos + 1)
            if end < 0:
                raise ValueError("unterminated string in formatString")
            value = text[self.pos + 1 : end]
            self.pos = end + 1
            self.skip_space()
            return value
        start = self.pos
        while self.pos < len(text) and text[self.pos] not in stop + "(":
            self.pos += 1
        word = text[start : self.pos].strip()
        if self.pos < len(text) and text[self.pos] == "(":
            self.pos += 1
            args: dict[str, Any] = {}
            while True:
                self.skip_space()
                if text.startswith(")", self.pos):
                    self.pos += 1
                    break
                colon = text.find(":", self.pos)
                if colon < 0:
                    raise ValueError("malformed function arguments in formatString")
                key = text[self.pos : colon].strip()
                self.pos = colon + 1
                args[key] = self.expression(",)")
                if text.startswith(",", self.pos):
                    self.pos += 1
            self.skip_space()
            function = self.run_.cv._functions.get(word)  # noqa: SLF001
            if function is None:
                self.run_.warn(
                    "convert.function_unsupported",
                    f'A2UI function "{word}" is not supported; its value was dropped.',
                    self.node.comp.id,
                )
                return _MISSING
            return function(self.run_, self.node, args)
        if self.pos >= len(text):
            raise ValueError("unterminated expression in formatString")
        return _literal(word, lambda path: self.run_.read(self.node, path))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1


def _literal(word: str, read: Callable[[str], Any]) -> Any:
    """A bare word in ``formatString``: a JSON literal or number, else a data path."""
    if word in {"true", "false", "null"}:
        return {"true": True, "false": False, "null": None}[word]
    try:
        return int(word)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return read(word)


def _walk(value: Any, segments: tuple[str, ...]) -> Any:
    """Read a decoded pointer: own keys of objects, canonical indices of arrays."""
    for segment in segments:
        kind = type(value)
        if kind is dict:
            value = value.get(segment, _MISSING)
        elif kind is list:
            if _INDEX.fullmatch(segment) is None:
                return _MISSING
            index = int(segment)
            if index >= len(value):
                return _MISSING
            value = value[index]
        else:
            return _MISSING
    return value


def _template_of(children: Any) -> tuple[Any, Any] | None:
    """``(componentId, path)`` of a template in any of its forms, else ``None``."""
    if type(children) is not dict:
        return None
    if len(children) == 1 and type(children.get("template")) is dict:
        inner = children["template"]
        path = inner.get("path", inner.get("dataBinding"))
        if len(inner) == 2 and type(inner.get("componentId")) is str and type(path) is str:
            return inner["componentId"], path
        return None
    if len(children) == 2 and type(children.get("componentId")) is str:
        path = children.get("path")
        if type(path) is str:
            return children["componentId"], path
    return None


def _single(props: Mapping[str, Any], *keys: str) -> list[Any]:
    """The single-child references present among ``keys``, in order."""
    return [props[key] for key in keys if key in props]


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
            if list(old) != list(new):
                common_old = [k for k in old if k in new]
                if common_old != [k for k in new if k in old]:
                    out.append(path)
                    return len(out) <= _MAX_CHANGED_PATHS
                out.extend((*path, k) for k in old.keys() ^ new.keys())
            for key, value in old.items():
                if key in new and not _diff(value, new[key], (*path, key), out):
                    return False
        else:
            shorter = min(len(old), len(new))
            for index in range(shorter):
                if not _diff(old[index], new[index], (*path, str(index)), out):
                    return False
            out.extend((*path, str(i)) for i in range(shorter, max(len(old), len(new))))
        return len(out) <= _MAX_CHANGED_PATHS
    if not _same_scalar(old, new):
        out.append(path)
    return len(out) <= _MAX_CHANGED_PATHS
