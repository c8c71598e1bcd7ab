"""Test helper: HTML parsed into a small tree to query, with the stdlib's parser.

Builds elements the way a browser's tree builder would for the markup our pages use
(void elements close themselves; an end tag closes up to its start tag), so tests can
ask for every ``button``, an element's classes, its text, or the style rules a page's
generated classes stand for, both on our output and on Chromium's ``--dump-dom``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Node", "parse", "rules"]

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass
class Node:
    """One element: its tag, attributes, children and text pieces in order."""

    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        """The element's class names."""
        return set((self.attrs.get("class") or "").split())

    def elements(self) -> list[Node]:
        """This element and every element under it, in document order."""
        found = [self]
        for child in self.children:
            if isinstance(child, Node):
                found.extend(child.elements())
        return found

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        """Every element under (and including) this one with the tag and class given."""
        return [
            node
            for node in self.elements()
            if (tag is None or node.tag == tag) and (cls is None or cls in node.classes)
        ]

    def find(self, tag: str | None = None, cls: str | None = None) -> Node:
        """The first such element; fails the test when there is none."""
        found = self.find_all(tag, cls)
        assert found, f"no <{tag or '*'}> with class {cls!r}"
        return found[0]

    def text(self) -> str:
        """All text under this element, joined, whitespace collapsed."""
        pieces: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, Node):
                    if child.tag not in {"style", "script", "title"} or node.tag == "svg":
                        walk(child)
                else:
                    pieces.append(child)

        walk(self)
        return " ".join("".join(pieces).split())


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(markup: str) -> Node:
    """Parse an HTML document or fragment into a tree under a ``#document`` node."""
    builder = _Builder()
    builder.feed(markup)
    builder.close()
    return builder.root


_RULE = re.compile(r"\.(u\d+)\{([^}]*)\}")


def rules(markup: str) -> dict[str, dict[str, str]]:
    """The page's generated classes (``u1``...) and the declarations each stands for."""
    style = parse(markup).find("style").text()
    found = {}
    for name, body in _RULE.findall(style):
        declarations = {}
        for declaration in body.split(";"):
            key, _, value = declaration.partition(":")
            declarations[key] = value
        found[name] = declarations
    return found
