"""The page: runs, parts and their history as one self-contained, script-free HTML file.

Owns :func:`render_page`, which draws a :class:`~a2ui_stream._view.model.Page`: one
section per run and one card per part, titled with its surfaceId, with its element
tree, the warnings of its last conversion, its args as JSON and, when asked, its
timeline: every state it went through with the seq of the event (or message) that
caused it.

The page fetches nothing and runs nothing. Its Content-Security-Policy allows no script,
no connection, no frame and no form submission; images only from ``data:`` URLs; styles
only from the one ``<style>`` element, named by its SHA-256 hash, so even markup that
escaped escaping could not style or script the page.

May import: the rest of this layer. Does no I/O.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape
from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream._view.html import ElementRenderer
from a2ui_stream._view.style import STYLESHEET
from a2ui_stream._view.text import plural

if TYPE_CHECKING:
    from a2ui_stream._view.model import Card, Note, Page, Section

__all__ = ["content_security_policy", "render_page"]

_FOOTER: Final = (
    "Drawn by a2ui-stream render: no scripts, nothing fetched; remote images show their alt text."
)
#: Diagnostics listed on a page; the rest are counted.
MAX_NOTES: Final = 500

_PRETTY = msgspec.json.Encoder()


def _pretty(value: Any) -> str:
    try:
        return msgspec.json.format(_PRETTY.encode(value), indent=2).decode()
    except (TypeError, ValueError, OverflowError):
        return repr(value)


def _card(renderer: ElementRenderer, card: Card, page: Page, ids: str) -> str:
    unit = page.unit
    removed = card.removed_at is not None
    drawn = "restored from history" if card.seq is None else f"drawn by {unit} {card.seq}"
    meta = [escape(card.tool_call_id), drawn]
    badge = ""
    if removed:
        badge = f' <span class="removed-badge">removed by {unit} {card.removed_at}</span>'
        meta.append("its last state is shown")
    out = [
        f'<article class="part{" removed" if removed else ""}" aria-labelledby="{ids}">',
        f'<header class="part-header"><h3 id="{ids}">{escape(card.surface_id)}{badge}</h3>',
        f'<p class="meta">{" · ".join(meta)}</p></header>',
        f'<div class="surface">{renderer.render(card.args)}</div>',
    ]
    if card.warnings:
        out.append('<ul class="warnings">')
        out.extend(f"<li>{escape(warning)}</li>" for warning in card.warnings)
        out.append("</ul>")
    out.append(
        "<details><summary>Element tree (JSON)</summary>"
        f"<pre>{escape(_pretty(card.args))}</pre></details>"
    )
    if page.timeline and card.steps:
        count = len(card.steps)
        out.append(
            f'<details class="timeline" open><summary>Timeline: {plural(count, "state")}'
            "</summary><ol>"
        )
        for step in card.steps:
            out.append(f'<li><p class="step">{unit} {step.seq} · {escape(step.op)}</p>')
            if step.args is None:
                out.append('<p class="meta">The part was removed.</p>')
            else:
                out.append(f'<div class="surface">{renderer.render(step.args)}</div>')
            out.append("</li>")
        out.append("</ol></details>")
    out.append("</article>")
    return "".join(out)


def _section(renderer: ElementRenderer, section: Section, page: Page, index: int) -> str:
    details = " · ".join(escape(detail) for detail in section.details)
    out = [
        f'<section class="run" aria-labelledby="run-{index}">',
        f'<h2 id="run-{index}">{escape(section.title)}'
        + (f' <span class="meta">{details}</span>' if details else "")
        + "</h2>",
    ]
    if not section.cards:
        out.append('<p class="empty-run">No surface was drawn.</p>')
    else:
        out.append('<div class="parts">')
        out.extend(
            _card(renderer, card, page, f"part-{index}-{number}")
            for number, card in enumerate(section.cards, 1)
        )
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def _notes(notes: tuple[Note, ...]) -> str:
    if not notes:
        return ""
    counts: dict[str, int] = {}
    for note in notes:
        counts[note.severity] = counts.get(note.severity, 0) + 1
    summary = ", ".join(plural(count, severity) for severity, count in counts.items())
    out = [
        '<section class="diagnostics" aria-label="Diagnostics">',
        f"<details><summary>Diagnostics: {escape(summary)}</summary><ol>",
    ]
    out.extend(
        f'<li class="{"error" if n.severity == "error" else "warning"}">{escape(n.text)}</li>'
        for n in notes[:MAX_NOTES]
    )
    if len(notes) > MAX_NOTES:
        out.append(f"<li>… and {len(notes) - MAX_NOTES} more</li>")
    out.append("</ol></details></section>")
    return "".join(out)


def content_security_policy(stylesheet: str) -> str:
    """The page's policy: nothing but its one stylesheet (by hash) and inline images.

    Args:
        stylesheet: the exact text of the page's ``<style>`` element.

    Returns:
        The policy, for a ``<meta http-equiv="Content-Security-Policy">``.
    """
    digest = base64.b64encode(hashlib.sha256(stylesheet.encode()).digest()).decode()
    return (
        f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:;"
        " form-action 'none'; base-uri 'none'"
    )


def render_page(page: Page) -> str:
    """Draw a whole page.

    Args:
        page: what to show.

    Returns:
        The HTML document. The same page value always gives the same text.
    """
    renderer = ElementRenderer()
    body = "".join(
        _section(renderer, section, page, index) for index, section in enumerate(page.sections, 1)
    )
    if not page.sections:
        body = '<p class="empty-run">Nothing to show: the input drew no surface.</p>'
    stylesheet = STYLESHEET + renderer.rules.stylesheet()
    title = escape(page.title)
    return "".join(
        [
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n',
            '<meta http-equiv="Content-Security-Policy" content="',
            escape(content_security_policy(stylesheet)),
            '">\n<meta name="referrer" content="no-referrer">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f"<title>{title} · a2ui-stream render</title>\n",
            f"<style>{stylesheet}</style>\n</head>\n<body>\n",
            f'<header class="page-header"><h1>{title}</h1>',
            f'<p class="meta">{escape(page.summary)}</p>' if page.summary else "",
            "</header>\n",
            f"<main>\n{body}\n{_notes(page.notes)}</main>\n",
            f'<footer class="page-footer">{_FOOTER}</footer>\n</body></html>\n',
        ]
    )
