"""Reading in a conversion: props, bindings and function calls, and the warnings log.

Owns :class:`Reader`, the part of a conversion in progress that reads: it resolves a
component's props against the data model in the right scope (template item first, then
the root model), notes each read in the memo's region so reuse knows what a subtree
depends on, evaluates basic-catalog functions, cuts strings to the limit, and keeps the
warnings in order. :class:`~a2ui_stream._convert.run.Run` builds the traversal on top of it.

Must not import: the traversal (``_run``), the element handlers, the converter front,
the reducer, request or shell modules. Does no I/O, no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._convert.bindings import MISSING, call_of, split_pointer, walk
from a2ui_stream._convert.functions import FUNCTIONS, to_text
from a2ui_stream._convert.reuse import widen
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.numbers import MAX_SAFE_INTEGER

if TYPE_CHECKING:
    from a2ui_stream._convert.reuse import Memo

__all__ = ["Reader"]

#: Pointers whose split form is kept per converter before the cache starts over.
_MAX_CACHED_POINTERS: Final = 4096
_DEBUG: Final = Severity.DEBUG
_WARNING: Final = Severity.WARNING


class _CallEnv:
    """The :class:`~a2ui_stream._convert.functions.Env` of a function called for one component."""

    __slots__ = ("memo", "run")

    def __init__(self, run: Reader, memo: Memo) -> None:
        self.run = run
        self.memo = memo

    def read(self, pointer: str) -> Any:
        return self.run.read(self.memo, pointer)

    def unsupported(self, name: str) -> None:
        self.run.unsupported(self.memo, name)


class Reader:
    """Reads props and data for one conversion and logs its warnings.

    Subclassed by :class:`~a2ui_stream._convert.run.Run`, which sets every slot in its
    ``__init__``.
    """

    __slots__ = (
        "item",
        "last_path",
        "log",
        "max_string",
        "misses",
        "pointers",
        "root_value",
        "surface_id",
    )

    item: Any
    last_path: tuple[str, ...]
    log: list[tuple[str | None, Diagnostic]]
    max_string: int
    misses: int
    pointers: dict[str, tuple[str, ...]]
    root_value: Any
    surface_id: str

    # -- warnings ---------------------------------------------------------------------

    def warn(
        self,
        code: str,
        message: str,
        component_id: str | None,
        *,
        once: bool | str = False,
        severity: Severity = _WARNING,
    ) -> None:
        """Record a diagnostic; ``once`` ones are kept only at their first occurrence.

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

    def unsupported(self, memo: Memo, name: str) -> None:
        """Warn that a function call was dropped because it is not supported."""
        self.warn(
            "convert.function_unsupported",
            f'A2UI function "{name}" is not supported; its value was dropped.',
            memo.comp.id,
        )

    # -- data ---------------------------------------------------------------------------

    def read(self, memo: Memo, pointer: str) -> Any:
        """Resolve a pointer in ``memo``'s scope, noting the read in its region.

        Relative pointers read the current item; absolute ones read the item first
        (upstream's reading) and the root model when the item lacks them (the spec's).
        Sets :attr:`last_path` to where the value was read.

        A read of the template item is noted in :attr:`Memo.reads`, relative to the
        item, so a change elsewhere in the item leaves the memo reusable.
        """
        segments = self.pointers.get(pointer)
        if segments is None:
            if len(self.pointers) >= _MAX_CACHED_POINTERS:
                self.pointers.clear()
            segments = self.pointers[pointer] = split_pointer(pointer)
        scope = memo.path
        region = memo.region
        if scope:
            # The item is read first either way: what it holds there (or lacks) counts.
            reads = memo.reads
            if not reads:
                memo.reads = (segments,)
            elif segments not in reads:
                memo.reads = widen(reads, segments)
            value = walk(self.item, segments)
            if value is MISSING and pointer[:1] == "/":
                memo.region = widen(region, segments)
                self.last_path = segments
                value = walk(self.root_value, segments)
            else:
                self.last_path = scope + segments
        else:
            if not region:
                memo.region = (segments,)
            elif segments not in region:
                memo.region = widen(region, segments)
            self.last_path = segments
            value = walk(self.root_value, segments)
        if value is MISSING:
            self.misses += 1
        return value

    def prop(self, memo: Memo, key: str) -> Any:
        """A prop's materialised value: bindings and calls resolved, ``MISSING`` if absent."""
        value = memo.comp.props.get(key, MISSING)
        kind = type(value)
        if kind is dict or kind is list:
            return self.resolve(memo, value)
        return value

    def first(self, memo: Memo, key: str, fallback: str) -> Any:
        """The first of two props whose value is defined (upstream's "first defined")."""
        props = memo.comp.props
        value = props.get(key, MISSING)
        kind = type(value)
        if kind is dict or kind is list:
            value = self.resolve(memo, value)
        if value is MISSING:
            value = props.get(fallback, MISSING)
            kind = type(value)
            if kind is dict or kind is list:
                value = self.resolve(memo, value)
        return value

    def resolve(self, memo: Memo, value: Any) -> Any:
        """Materialise a raw value: bindings and calls resolved, ``MISSING`` entries dropped."""
        kind = type(value)
        if kind is dict:
            if len(value) == 1:  # a binding, inline: nearly every dynamic value is one
                pointer = value.get("path")
                if pointer is None:
                    pointer = value.get("@path")
                if type(pointer) is str:
                    return self.read(memo, pointer)
            call = call_of(value)
            if call is not None:
                return self.call(memo, call[0], call[1])
            out = {}
            for key, item in value.items():
                resolved = self.resolve(memo, item)
                if resolved is not MISSING:
                    out[key] = resolved
            return out
        if kind is list:
            # A loop, not a comprehension: one frame per level of the prop, whose depth
            # the surface bounds (``Limits.max_data_depth``).
            items = []
            for item in value:
                resolved = self.resolve(memo, item)
                if resolved is not MISSING:
                    items.append(resolved)
            return items
        return value

    def call(self, memo: Memo, name: str, raw_args: Any) -> Any:
        """Evaluate a basic-catalog function; unsupported or failing ones warn, give ``MISSING``.

        A failure while an argument's binding was unresolved (data not arrived yet) is
        a debug diagnostic; any other failure is a warning.
        """
        function = FUNCTIONS.get(name)
        if function is None:
            self.unsupported(memo, name)
            return MISSING
        misses = self.misses
        args = self.resolve(memo, raw_args) if type(raw_args) is dict else {}
        try:
            return function(args, _CallEnv(self, memo))
        except (ValueError, TypeError, ArithmeticError) as exc:
            self.warn(
                "convert.function_failed",
                f'A2UI function "{name}" failed ({exc}); its value was dropped.',
                memo.comp.id,
                severity=_DEBUG if self.misses > misses else _WARNING,
            )
            return MISSING

    def string(self, memo: Memo, value: Any, key: str) -> str | None:
        """A string value, cut to the string limit; ``None`` when not a string."""
        if type(value) is not str:
            return None
        if len(value) > self.max_string:
            self.warn(
                "convert.string_cut",
                f'Prop "{key}" was cut to {self.max_string} characters.',
                memo.comp.id,
            )
            return value[: self.max_string]
        return value

    def text_of(self, memo: Memo, value: Any, key: str) -> str:
        """Text for a required text prop: numbers and booleans as JavaScript prints them."""
        kind = type(value)
        if kind is str and len(value) <= self.max_string:
            return str(value)
        if kind is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return self.string(memo, str(value), key) or ""
        text = to_text(value)
        if text is None or type(value) is list or type(value) is dict:
            if value is not MISSING and value is not None:
                self.warn(
                    "convert.prop_invalid",
                    f'Prop "{key}" is not text; it was left empty.',
                    memo.comp.id,
                )
            return ""
        return self.string(memo, text, key) or ""
