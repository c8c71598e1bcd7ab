"""What a page shows: runs, their parts and the parts' history, as plain values.

Owns :class:`Page`, :class:`Section`, :class:`Card`, :class:`Step` and :class:`Note`,
which the shell fills from a stream and both views draw: the HTML page
(:mod:`a2ui_stream._view.page`) and the text tree (:mod:`a2ui_stream._view.text`).
Needs no optional dependency, so ``inspect --tree`` works without the ``html`` extra.

Imports nothing from the package. Does no I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["Card", "Note", "Page", "Section", "Step"]


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One state of a part in its timeline.

    Attributes:
        seq: the 0-based index of the event (or message) that caused it.
        op: ``"add"``, ``"update"`` or ``"remove"``.
        args: the element tree after it; ``None`` for a remove.
    """

    seq: int
    op: str
    args: Any = None


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One part of a run: a surface as the stream left it.

    Attributes:
        surface_id: the surface; the card's title.
        tool_call_id: the part's ``toolCallId``.
        args: the last element tree drawn (for a removed part, the one before removal).
        seq: the seq that drew ``args``; ``None`` for a part restored from history.
        removed_at: the seq that removed the part, or ``None`` when it is still there.
        warnings: what the part's last conversion warned of, one sentence each.
        steps: the timeline, oldest first (empty unless a timeline was asked for).
    """

    surface_id: str
    tool_call_id: str
    args: Any
    seq: int | None
    removed_at: int | None = None
    warnings: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()


class Section(msgspec.Struct, frozen=True, kw_only=True):
    """One run, or the surfaces restored from history.

    Attributes:
        title: the heading, such as ``"Run 2 of 3"``.
        details: what else is known, such as the run and thread ids and the status.
        cards: its parts in display order.
    """

    title: str
    details: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()


class Note(msgspec.Struct, frozen=True, kw_only=True):
    """A diagnostic of the stream, for the page's list.

    Attributes:
        severity: ``"error"``, ``"warning"`` or ``"debug"``.
        text: one line saying what, where and why.
    """

    severity: str
    text: str


class Page(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one page shows.

    Attributes:
        title: what was rendered, usually the input's file name.
        summary: one line under the title, such as ``"AG-UI recording, 2 runs"``.
        unit: what a seq counts: ``"event"`` or ``"message"``.
        sections: one per run shown.
        notes: the stream's diagnostics.
        timeline: whether cards show their steps.
    """

    title: str
    summary: str = ""
    unit: str = "event"
    sections: tuple[Section, ...] = ()
    notes: tuple[Note, ...] = ()
    timeline: bool = False
