"""Hints: what a user probably meant when a command read nothing it could use.

Owns one function, :func:`hint`, that looks at the first bytes of an input that gave
rejected lines or no event at all, and names the common mistake with the command or
option that fixes it: a JSON array of events (or one pretty-printed document) where
one event per line is read, a raw A2UI message file (``render`` draws those), JSONL
read with ``--format sse`` or SSE with ``--format jsonl``. What is wrong with each line
is the diagnostics' business; a hint is about the whole input, and is given once.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from a2ui_stream._shell.render import sniff
from a2ui_stream._wire.envelope import OPERATION_KEYS

__all__ = ["hint"]

_BOM: Final = b"\xef\xbb\xbf"
_SSE_STARTS: Final = (b"data:", b"event:", b"id:", b"retry:", b":")
_DECODE = msgspec.json.Decoder()
#: A JSON string, escapes and all (an unterminated one runs to the end of the line).
_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*(?:"|$)')
#: An A2UI operation named as a key: render's sniffing calls any object without a string
#: ``type`` A2UI, but only a file that names an operation is worth sending to ``render``.
_OPERATION_KEY: Final = re.compile(
    rb'"(?:' + b"|".join(re.escape(key.encode()) for key in sorted(OPERATION_KEYS)) + rb')"\s*:'
)


def _opens_a_document(text: bytes) -> bool:
    """Whether the first line leaves an object or array open: a document goes on below.

    A line that decodes is whole; one that does not may still close every bracket it
    opens (a bad escape, a stray comma), and is then a bad line of its own, not the
    start of a pretty-printed document. Brackets inside strings do not count.
    """
    line = text.split(b"\n", 1)[0]
    try:
        _DECODE.decode(line)
    except (msgspec.DecodeError, RecursionError):
        pass
    else:
        return False
    unquoted = _STRING.sub(b"", line)
    opened = unquoted.count(b"{") + unquoted.count(b"[")
    return opened > unquoted.count(b"}") + unquoted.count(b"]")


def hint(head: bytes, *, framing: str, read: int, rejected: int, name: str) -> str | None:
    """The likely mistake behind an input that gave rejected lines or no event.

    Args:
        head: the input's first bytes (a chunk is plenty).
        framing: the ``--format`` asked for (``auto``, ``jsonl`` or ``sse``).
        read: events read.
        rejected: lines dropped whole.
        name: the input as the user named it (``-`` for standard input).

    Returns:
        One sentence saying what the input looks like and what to run instead, or
        ``None`` when nothing went wrong or the input looks like none of the mistakes.
    """
    text = head.removeprefix(_BOM).lstrip()
    if not text or not (rejected or read == 0):
        return None
    shown = "FILE" if name == "-" else name
    if framing == "sse" and text[:1] in {b"{", b"["}:
        return (
            "the input is JSON lines, not SSE: drop --format sse (auto tells them apart) "
            "or give --format jsonl"
        )
    if framing == "jsonl" and text.startswith(_SSE_STARTS):
        return "the input is SSE (data: lines): drop --format jsonl, or give --format sse"
    if text[:1] not in {b"{", b"["} or read:
        return None
    if sniff(text) == "a2ui" and _OPERATION_KEY.search(text) is not None:
        return (
            "the input holds raw A2UI messages, not AG-UI events: "
            f"`a2ui-stream render {shown}` draws them as a page and "
            f"`a2ui-stream inspect --tree {shown}` prints them"
        )
    if text[:1] == b"[":
        return (
            "the input is one JSON array; events are read one per line (JSONL) or as "
            f"SSE: `jq -c '.[]' {shown} > events.jsonl` writes them one per line"
        )
    if _opens_a_document(text):
        return (
            "the input is one JSON document over several lines; events are read one per "
            f"line (JSONL): `jq -c . {shown}` writes it on one line"
        )
    return None
