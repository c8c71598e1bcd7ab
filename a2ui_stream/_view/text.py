"""The text tree: an element tree as indented lines with its key props, for a terminal.

Owns what ``a2ui-stream inspect --tree`` prints for one part: a line per element, its
``$type`` then each prop as ``key=value`` (strings and other values as JSON, so control
characters an agent wrote are shown escaped and never reach the terminal raw; long
values cut), its ``$action`` by name, and its children indented under it.

May import: :mod:`a2ui_stream._view.model`. Does no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import msgspec

if TYPE_CHECKING:
    from a2ui_stream._view.model import Page

__all__ = ["page_text", "plural", "printable", "tree_lines"]

#: Characters of one prop value shown; longer ones end with an ellipsis.
MAX_VALUE: Final = 60
#: Levels shown; deeper elements are summarised in one line.
MAX_DEPTH: Final = 64

_JSON = msgspec.json.Encoder()
#: Characters a terminal would act on: C0 and C1 controls and DEL; and those that make a
#: line read as something else: line separators and bidirectional overrides.
_CONTROLS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_RESERVED: Final = frozenset({"$type", "$key", "$action", "$status", "children"})


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one: ``"1 part"``.

    Every count a person reads goes through here, so none says "1 parts". The noun's
    plural is the noun and an ``s``: every noun this package counts forms it so.
    """
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def printable(text: str, *, keep: str = "") -> str:
    """Text with every control character shown as an escape, never sent raw.

    Args:
        text: what an agent (or a file) wrote.
        keep: controls left as they are (a newline, for text shown over several lines).
    """
    if not _CONTROLS.search(text):
        return text
    return _CONTROLS.sub(lambda match: _escape(match.group(), keep), text)


def _escape(char: str, keep: str) -> str:
    if char in keep:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _value(value: Any) -> str:
    try:
        text = _JSON.encode(value).decode()
    except (TypeError, ValueError, OverflowError):
        text = repr(value)
    return printable(text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…")


def _action(action: Any) -> str:
    if not isinstance(action, dict):
        return f"$action={_value(action)}"
    kind = action.get("type")
    if kind == "a2ui:action":
        shown = f"$action={_value(action.get('name'))}"
        if "context" in action:
            shown += f" context={_value(action['context'])}"
        return shown
    if kind == "a2ui:function":
        return f"$action={_value(action.get('call'))}() args={_value(action.get('args'))}"
    return f"$action={_value(action)}"


def _line(element: Any) -> str:
    if not isinstance(element, dict):
        return f"(not an element) {_value(element)}"
    kind = element.get("$type")
    if type(kind) is str and kind.isascii() and kind.isidentifier():
        words = [kind]
    else:
        words = [f"(type {_value(kind)})"]
    words.extend(
        f"{printable(key)}={_value(v)}" for key, v in element.items() if key not in _RESERVED
    )
    if "$action" in element:
        words.append(_action(element["$action"]))
    return " ".join(words)


def tree_lines(element: Any, indent: int = 0) -> list[str]:
    """One line per element of a tree, children indented two spaces under their parent.

    Args:
        element: the element tree (any JSON value; a non-element is shown as such).
        indent: the indentation of the root, in spaces.

    Returns:
        The lines, without line terminators.
    """
    lines: list[str] = []
    stack: list[tuple[Any, int]] = [(element, 0)]
    while stack:
        node, depth = stack.pop()
        pad = " " * (indent + 2 * depth)
        if depth >= MAX_DEPTH:
            lines.append(f"{pad}… deeper elements not shown")
            continue
        lines.append(pad + _line(node))
        children = node.get("children") if isinstance(node, dict) else None
        if children is None:
            continue
        kids = children if isinstance(children, list) else [children]
        stack.extend((child, depth + 1) for child in reversed(kids))
    return lines


def page_text(page: Page) -> str:
    """A whole page as text: each section, each part's heading, then its tree.

    Args:
        page: what to show (its timeline, if any, is not printed).

    Returns:
        The text, one line per element, ending with a line feed.
    """
    unit = page.unit
    lines = [printable(f"{page.title}: {page.summary}" if page.summary else page.title)]
    if not page.sections:
        lines.append("  nothing to show: the input drew no surface")
    for section in page.sections:
        details = f" ({', '.join(section.details)})" if section.details else ""
        lines.append(printable(f"{section.title}{details}"))
        if not section.cards:
            lines.append("  no surface was drawn")
        for card in section.cards:
            drawn = "restored from history" if card.seq is None else f"drawn by {unit} {card.seq}"
            heading = f"  surface {_value(card.surface_id)}, {drawn}"
            if card.removed_at is not None:
                lines.append(f"{heading}, removed by {unit} {card.removed_at}")
                continue
            lines.append(heading)
            lines.extend(tree_lines(card.args, indent=4))
            lines.extend(f"    ! {printable(warning)}" for warning in card.warnings)
    return "\n".join(lines) + "\n"
