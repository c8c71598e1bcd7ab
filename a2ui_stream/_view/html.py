"""Elements as HTML: every ``$type`` of the generative UI vocabulary as semantic markup.

Owns one small function per element type (the table :data:`_HANDLERS`), what each prop
does (a class of the page's stylesheet, or a rule :class:`~a2ui_stream._view.css.Rules`
generates), how a Button or ListViewItem shows its ``$action``, and the placeholder for
an unknown ``$type`` or a value that is not an element.

Safe by construction, whatever the tree holds:

- every text and attribute value is escaped, attributes always double-quoted;
- no ``style`` or event-handler attribute is ever written; prop values reach CSS only
  through the grammars of :mod:`a2ui_stream._view.css`;
- Markdown goes through :mod:`a2ui_stream._view.markdown` (raw HTML off, the
  converter's URL policy);
- images load only from ``data:image/`` URLs; any other image shows its alt text and
  names its URL in a tooltip, so opening a page fetches nothing.

May import: the rest of this layer and the converter's vocabulary. Does no I/O.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeGuard

import msgspec

from a2ui_stream._convert.vocabulary import ICON_NAMES
from a2ui_stream._view.chart import chart_html
from a2ui_stream._view.css import Rules, css_color, css_length, px
from a2ui_stream._view.icons import ICONS
from a2ui_stream._view.images import image_tag
from a2ui_stream._view.markdown import markdown_html

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_DEPTH", "ElementRenderer"]

#: Deeper elements are not drawn (the converter stops at 32; this guards other trees).
MAX_DEPTH: Final = 64
#: Characters of an action's context shown on its details line (the tooltip has all).
_ACTION_CHARS: Final = 160

_JSON = msgspec.json.Encoder()


def _json(value: Any) -> str:
    try:
        return _JSON.encode(value).decode()
    except (TypeError, ValueError, OverflowError):
        return repr(value)


def _text(value: Any) -> str:
    """A prop shown as text: strings as they are, anything else as JSON."""
    return value if type(value) is str else _json(value)


# -- the renderer -------------------------------------------------------------------------

#: Types whose children are drawn after them, not inside: their HTML element cannot hold
#: other elements (a ``<p>``, a ``<button>``, an ``<input>``...).
_LEAVES: Final = frozenset(
    {
        "Header",
        "Text",
        "Caption",
        "Markdown",
        "Image",
        "Divider",
        "Fact",
        "Button",
        "Input",
        "Select",
        "RadioGroup",
        "Checkbox",
        "DatePicker",
        "Spacer",
        "Badge",
        "Table",
        "Chart",
        "Icon",
    }
)
_SIZES6: Final = frozenset({"sm", "md", "lg", "xl", "2xl", "3xl"})
_SIZES3: Final = frozenset({"sm", "md", "lg"})
_WEIGHTS: Final = frozenset({"normal", "medium", "semibold", "bold"})
_COLORS: Final = frozenset({"emphasis", "secondary", "alpha-70", "white", "white-70", "white-50"})
_ALIGN: Final = frozenset({"start", "center", "end"})
_JUSTIFY: Final = frozenset({"start", "center", "end", "between"})
_BUTTON_STYLES: Final = frozenset({"primary", "secondary", "outline", "ghost", "danger"})
_TONES: Final = frozenset({"info", "success", "warning", "danger"})
_ICON_NAMES: Final = frozenset(ICON_NAMES)
_VARIANT: Final = re.compile(r"[a-z][a-z0-9-]{0,23}\Z")
_DATE: Final = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_DATETIME: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")

_Handler: TypeAlias = "Callable[[ElementRenderer, dict[str, Any], int], None]"


def _is_number(value: Any) -> TypeGuard[float]:
    return type(value) is int or type(value) is float


def _attr(name: str, value: Any) -> str:
    return f' {name}="{escape(_text(value))}"'


class ElementRenderer:
    """Draws element trees into HTML for one page, collecting the rules they need.

    One renderer serves a whole page: style rules are shared by every tree drawn with
    it, and radio groups get names unique on the page. Not thread-safe.
    """

    __slots__ = ("_forms", "_out", "_radios", "rules")

    def __init__(self) -> None:
        """Start a page with no rules."""
        self.rules = Rules()
        self._radios = 0
        self._forms = 0
        self._out: list[str] = []

    def render(self, element: Any) -> str:
        """The HTML of one element tree (any value: a non-element shows as a placeholder).

        Args:
            element: the element tree, usually a part's args.

        Returns:
            An HTML fragment. Never raises for any JSON value.
        """
        out: list[str] = []
        self._out = out
        self.node(element, 0)
        self._out = []
        return "".join(out)

    # -- structure --------------------------------------------------------------------

    def node(self, element: Any, depth: int) -> None:
        """Append one element and its subtree."""
        if depth >= MAX_DEPTH:
            self._out.append('<p class="placeholder">Deeper elements are not shown.</p>')
            return
        if not isinstance(element, dict):
            self._out.append(
                '<p class="placeholder">Not an element: <code>'
                f"{escape(_json(element)[:200])}</code></p>"
            )
            return
        kind = element.get("$type")
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            self._unknown(element, kind, depth)
        elif kind in _LEAVES and "children" in element:
            self._out.append('<div class="with-children">')
            handler(self, element, depth)
            self._out.append('<div class="children">')
            self.children(element, depth)
            self._out.append("</div></div>")
        else:
            handler(self, element, depth)

    def children(self, element: dict[str, Any], depth: int) -> None:
        """Append an element's ``children`` (one element or a list of them)."""
        children = element.get("children")
        if isinstance(children, list):
            for child in children:
                self.node(child, depth + 1)
        elif children is not None:
            self.node(children, depth + 1)

    def _unknown(self, element: dict[str, Any], kind: Any, depth: int) -> None:
        name = f"“{escape(kind)}”" if type(kind) is str else "missing"
        self._out.append(
            f'<div class="unknown" role="note"><p class="unknown-label">Unknown element type'
            f" {name}</p>"
        )
        self.children(element, depth)
        self._out.append("</div>")

    def open(self, tag: str, classes: str, *attributes: str) -> None:
        """Append an opening tag with its classes and pre-built attributes."""
        self._out.append(f'<{tag} class="{classes}"{"".join(attributes)}>')

    def write(self, html: str) -> None:
        """Append HTML that is already safe."""
        self._out.append(html)

    def spacing(self, element: dict[str, Any], key: str, prop: str) -> str:
        """The generated class of a 0..8 spacing prop (4px a step), or ``""``."""
        value = element.get(key)
        if _is_number(value) and 0 <= value <= 8:
            return " " + self.rules.use(f"{prop}:{px(value * 4)}")
        return ""

    def action(self, action: Any) -> tuple[str, str]:
        """An ``$action`` as a details line and as the whole text, or ``("", "")``."""
        if not isinstance(action, dict):
            return "", ""
        kind = action.get("type")
        if kind == "a2ui:action":
            what, detail = _text(action.get("name")), action.get("context")
        elif kind == "a2ui:function":
            what, detail = f"{_text(action.get('call'))}()", action.get("args")
        else:
            what = _text(kind)
            detail = {k: v for k, v in action.items() if k != "type"} or None
        full = what if detail is None else f"{what} {_json(detail)}"
        shown = full if len(full) <= _ACTION_CHARS else full[: _ACTION_CHARS - 1] + "…"
        line = (
            f'<small class="action"{_attr("title", full)}><span class="action-kind">'
            f"{escape(_text(kind))}</span> <code>{escape(shown)}</code></small>"
        )
        return line, full

    def radio_name(self) -> str:
        """A radio group name unique on the page, so two groups never share a choice."""
        self._radios += 1
        return f"radio-{self._radios}"

    def form(self, element: dict[str, Any], depth: int, classes: str) -> None:
        """A form, or a group inside one (HTML drops a form nested in a form)."""
        tag = "form" if self._forms == 0 else "div"
        self.open(tag, classes)
        self._forms += 1
        try:
            self.children(element, depth)
        finally:
            self._forms -= 1
        self.write(f"</{tag}>")


# -- one function per type -----------------------------------------------------------------


def _choice(value: Any, allowed: frozenset[str], prefix: str) -> str:
    return f" {prefix}{value}" if type(value) is str and value in allowed else ""


def _header(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    size = _choice(el.get("size"), _SIZES6, "s-")
    r.write(f'<h4 class="header{size}">{escape(_text(el.get("text", "")))}</h4>')


def _text_element(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    classes = (
        "text"
        + _choice(el.get("size"), _SIZES6, "s-")
        + _choice(el.get("weight"), _WEIGHTS, "w-")
        + _choice(el.get("color"), _COLORS, "c-")
    )
    r.write(f'<p class="{classes}">{escape(_text(el.get("value", "")))}</p>')


def _caption(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    r.write(f'<p class="caption">{escape(_text(el.get("value", "")))}</p>')


def _markdown(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    r.write(f'<div class="markdown">{markdown_html(_text(el.get("value", "")))}</div>')


def _image(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    src, alt, size = el.get("src"), el.get("alt"), el.get("size")
    classes = "image"
    if type(size) is str and size in _SIZES3:
        classes += f" s-{size}"
    elif _is_number(size) and 0 < size <= 4096:
        classes += " " + r.rules.use(f"width:{px(size)}")
    if el.get("round") is True:
        classes += " round"
    r.write(image_tag(src if type(src) is str else "", alt if type(alt) is str else "", classes))


def _divider(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    r.write('<hr class="divider flush">' if el.get("flush") is True else '<hr class="divider">')


def _fact(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    label, value = escape(_text(el.get("label", ""))), escape(_text(el.get("value", "")))
    r.write(f'<dl class="fact"><dt>{label}</dt><dd>{value}</dd></dl>')


def _button(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    style = el.get("buttonStyle")
    classes = "button " + (style if type(style) is str and style in _BUTTON_STYLES else "default")
    block = el.get("block") is True
    if block:
        classes += " block"
    kind = "submit" if el.get("submit") is True else "button"
    line, full = r.action(el.get("$action"))
    title = _attr("title", f"a press sends {full}") if full else ""
    r.write(
        f'<span class="button-wrap{" block" if block else ""}">'
        f'<button type="{kind}" class="{classes}"{title}>{escape(_text(el.get("label", "")))}'
        f"</button>{line}</span>"
    )


def _label(el: dict[str, Any]) -> str:
    label = el.get("label")
    return f'<span class="label">{escape(label)}</span>' if type(label) is str else ""


def _name(el: dict[str, Any]) -> str:
    name = el.get("name")
    return _attr("name", name) if type(name) is str else ""


def _input(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    placeholder = el.get("placeholder")
    extra = _name(el) + (_attr("placeholder", placeholder) if type(placeholder) is str else "")
    if el.get("multiline") is True:
        field = f'<textarea rows="3"{extra}></textarea>'
    else:
        field = f'<input type="text"{extra}>'
    r.write(f'<label class="field">{_label(el)}{field}</label>')


def _options(value: Any) -> list[tuple[str, str]]:
    options = value if isinstance(value, list) else ()
    return [
        (_text(option.get("label", "")), _text(option.get("value", "")))
        for option in options
        if isinstance(option, dict)
    ]


def _select(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    out = [f'<label class="field">{_label(el)}<select{_name(el)}>']
    placeholder = el.get("placeholder")
    if type(placeholder) is str:
        out.append(f'<option value="" disabled selected>{escape(placeholder)}</option>')
    out.extend(
        f"<option{_attr('value', value)}>{escape(label)}</option>"
        for label, value in _options(el.get("options"))
    )
    out.append("</select></label>")
    r.write("".join(out))


def _radio_group(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    label = el.get("label")
    name = el.get("name")
    out = ['<fieldset class="radios"', _attr("data-name", name) if type(name) is str else "", ">"]
    if type(label) is str:
        out.append(f"<legend>{escape(label)}</legend>")
    group = r.radio_name()
    chosen = el.get("defaultValue")
    for text, value in _options(el.get("options")):
        checked = " checked" if value == chosen else ""
        out.append(
            f'<label class="choice"><input type="radio" name="{group}"{_attr("value", value)}'
            f"{checked}>{escape(text)}</label>"
        )
    out.append("</fieldset>")
    r.write("".join(out))


def _checkbox(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    checked = " checked" if el.get("defaultChecked") is True else ""
    r.write(
        f'<label class="choice"><input type="checkbox"{_name(el)}{checked}>'
        f"{escape(_text(el.get('label', '')))}</label>"
    )


def _date_picker(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    given = [el.get(key) for key in ("value", "min", "max")]
    timed = any(type(v) is str and _DATETIME.match(v) for v in given)
    kind = "datetime-local" if timed else "date"
    extra = "".join(
        _attr(key, value)
        for key, value in zip(("value", "min", "max"), given, strict=True)
        if type(value) is str and (_DATE.match(value) or _DATETIME.match(value))
    )
    r.write(f'<label class="field">{_label(el)}<input type="{kind}"{_name(el)}{extra}></label>')


def _form(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    r.form(el, depth, "form" + r.spacing(el, "gap", "gap"))


def _card(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    classes = "card" + r.spacing(el, "padding", "padding")
    background = css_color(el.get("background"))
    if background is not None:
        classes += " " + r.rules.use(f"background:{background}")
    as_form = el.get("asForm") is True
    r.open("section", classes)
    title = el.get("title")
    if type(title) is str:
        r.write(f'<h4 class="card-title">{escape(title)}</h4>')
    if as_form:
        r.form(el, depth, "form")
    else:
        r.write('<div class="card-body">')
        r.children(el, depth)
        r.write("</div>")
    buttons = [el.get(key) for key in ("cancel", "confirm")]
    if any(isinstance(button, dict) for button in buttons):
        r.write('<footer class="card-actions">')
        for key, button in zip(("cancel", "confirm"), buttons, strict=True):
            if isinstance(button, dict):
                style = "secondary" if key == "cancel" else "primary"
                _button(
                    r,
                    {
                        "label": button.get("label", ""),
                        "buttonStyle": style,
                        **_only_action(button),
                    },
                    depth,
                )
        r.write("</footer>")
    r.write("</section>")


def _only_action(button: dict[str, Any]) -> dict[str, Any]:
    return {"$action": button["$action"]} if "$action" in button else {}


def _flex(kind: str) -> _Handler:
    def handler(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
        classes = kind + r.spacing(el, "gap", "gap") + _choice(el.get("align"), _ALIGN, "al-")
        if kind == "row":
            classes += _choice(el.get("justify"), _JUSTIFY, "jf-")
        r.open("div", classes)
        r.children(el, depth)
        r.write("</div>")

    return handler


def _spacer(r: ElementRenderer, _el: dict[str, Any], _depth: int) -> None:
    r.write('<div class="spacer" aria-hidden="true"></div>')


def _badge(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    variant = el.get("variant")
    classes = "badge"
    if type(variant) is str and _VARIANT.match(variant):
        classes += f" v-{variant}"
    r.write(f'<span class="{classes}">{escape(_text(el.get("value", "")))}</span>')


def _box(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    declarations = []
    for key in ("width", "height"):
        length = css_length(el.get(key))
        if length is not None:
            declarations.append(f"{key}:{length}")
    radius = el.get("radius")
    if radius == "full":
        declarations.append("border-radius:9999px")
    elif _is_number(radius) and 0 <= radius <= 10_000:
        declarations.append(f"border-radius:{px(radius)}")
    background = css_color(el.get("background"))
    if background is not None:
        declarations.append(f"background:{background}")
    classes = "box" + (" " + r.rules.use(";".join(declarations)) if declarations else "")
    r.open("div", classes)
    r.children(el, depth)
    r.write("</div>")


def _list_view(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    r.write('<ul class="list">')
    children = el.get("children")
    for child in children if isinstance(children, list) else [] if children is None else [children]:
        if (
            depth + 1 < MAX_DEPTH
            and isinstance(child, dict)
            and child.get("$type") == "ListViewItem"
        ):
            _item(r, child, depth + 1, "li")
        else:  # a list holds only items: wrap anything else in one
            r.write('<li class="item">')
            r.node(child, depth + 1)
            r.write("</li>")
    r.write("</ul>")


def _item(r: ElementRenderer, el: dict[str, Any], depth: int, tag: str) -> None:
    line, _ = r.action(el.get("$action"))
    r.write(f'<{tag} class="item">' if tag == "li" else '<div class="item" role="listitem">')
    r.children(el, depth)
    r.write(f"{line}</{tag}>")


def _list_view_item(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    # Outside a ListView an ``<li>`` would close an open one around it: use a div.
    _item(r, el, depth, "div")


def _table(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    out = ['<div class="table-wrap"><table>']
    columns = el.get("columns")
    if isinstance(columns, list) and columns:
        out.append("<thead><tr>")
        out.extend(
            f"<th>{escape(_text(c.get('label', '')) if isinstance(c, dict) else _text(c))}</th>"
            for c in columns
        )
        out.append("</tr></thead>")
    out.append("<tbody>")
    rows = el.get("rows")
    for row in rows if isinstance(rows, list) else ():
        cells = row if isinstance(row, list) else [row]
        out.append("<tr>" + "".join(f"<td>{escape(_text(c))}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table></div>")
    r.write("".join(out))


def _chart(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    r.write(chart_html(el, r.rules))


def _alert(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    tone = el.get("tone")
    classes = "alert " + (tone if type(tone) is str and tone in _TONES else "info")
    r.open("aside", classes, ' role="note"')
    title, description = el.get("title"), el.get("description")
    if type(title) is str:
        r.write(f'<p class="alert-title">{escape(title)}</p>')
    if type(description) is str:
        r.write(f'<p class="alert-description">{escape(description)}</p>')
    r.children(el, depth)
    r.write("</aside>")


def _carousel(r: ElementRenderer, el: dict[str, Any], depth: int) -> None:
    label = el.get("label")
    named = _attr("aria-label", label) if type(label) is str else ""
    r.open("div", "carousel", ' role="group" aria-roledescription="carousel"', named)
    if type(label) is str:
        r.write(f'<p class="carousel-label">{escape(label)}</p>')
    r.write('<div class="slides">')
    children = el.get("children")
    for child in children if isinstance(children, list) else [] if children is None else [children]:
        r.write('<div class="slide">')
        r.node(child, depth + 1)
        r.write("</div>")
    r.write("</div></div>")


def _icon(r: ElementRenderer, el: dict[str, Any], _depth: int) -> None:
    name = el.get("name")
    size = _choice(el.get("size"), _SIZES3, "s-")
    if type(name) is str and name in _ICON_NAMES:
        r.write(
            f'<svg class="icon{size}" viewBox="0 0 24 24" role="img" aria-label="{name}">'
            f"<title>{name}</title>{ICONS[name]}</svg>"
        )
    else:
        r.write(f'<span class="icon-unknown" role="img">icon {escape(_text(name))}</span>')


#: ``$type`` -> how it is drawn: every type of the vocabulary.
_HANDLERS: Final[dict[str, _Handler]] = {
    "Header": _header,
    "Text": _text_element,
    "Caption": _caption,
    "Markdown": _markdown,
    "Image": _image,
    "Divider": _divider,
    "Fact": _fact,
    "Button": _button,
    "Input": _input,
    "Select": _select,
    "RadioGroup": _radio_group,
    "Checkbox": _checkbox,
    "DatePicker": _date_picker,
    "Form": _form,
    "Card": _card,
    "Col": _flex("col"),
    "Row": _flex("row"),
    "Spacer": _spacer,
    "Badge": _badge,
    "Box": _box,
    "ListView": _list_view,
    "ListViewItem": _list_view_item,
    "Table": _table,
    "Chart": _chart,
    "Alert": _alert,
    "Carousel": _carousel,
    "Icon": _icon,
}
