"""Elements: what each A2UI basic-catalog component becomes in the vocabulary.

Owns one handler per component type (upstream's table first, reference converter
section 2, then the rest of the basic catalog as issue 4 maps it), the key order of
every element, the repairs that keep each element valid against
:mod:`a2ui_stream._convert.vocabulary` (enum mapping, required props, dropping what cannot be
made valid), URL safety for ``src``/``url``/``openUrl``, and Button ``$action``s.
:data:`HANDLERS` is the table a converter resolves once.

Must not import: the converter front (``_convert``), the reducer, request or shell
modules. Does no I/O, no logging.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._convert import vocabulary as vocab
from a2ui_stream._convert.bindings import MISSING, call_of, field_name
from a2ui_stream._wire.diagnostics import Severity

if TYPE_CHECKING:
    from collections.abc import Mapping

    from a2ui_stream._convert.reuse import Memo
    from a2ui_stream._convert.run import Handler, Run

__all__ = ["HANDLERS", "markdown_link", "url_is_safe"]

_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f]")
_NUMBER: Final = (int, float)
#: What a media link's text escapes with a backslash, so it shows as the plain text it
#: is: what could end the text, nest a link or image, or open a code span, autolink or
#: raw HTML (which bind tighter than links in CommonMark), emphasis or strikethrough,
#: and an ``&`` that would start a character reference.
_LINK_TEXT_SPECIAL = re.compile(
    r"[\\\[\]<>`*_!~]|&(?=#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)"
)
#: Line endings in a link text: a blank line would end the paragraph, and a line could
#: start a block (a reference definition, raw HTML); a space reads the same.
_LINE_ENDING = re.compile(r"\r\n?|\n")
#: What a link destination percent-encodes: CommonMark ends a bare destination at a
#: space or control and at an unbalanced parenthesis, reads ``<`` as the start of the
#: bracketed form, and ``\`` as an escape; a browser would encode all of them too.
#: Unicode spaces and invisible format characters too: some renderers skip them as
#: whitespace before a destination, and ``\u00a0javascript:`` would become a scheme.
_DESTINATION_SPECIAL = re.compile(
    r"[\s\x00-\x20\x7f-\x9f()<>\\\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
#: An ``&`` that would start an entity or character reference, which CommonMark decodes
#: inside a destination (``javascript&#58;`` is ``javascript:``): escaped, so it stays.
_REFERENCE = re.compile(r"&(?=#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)")


def url_is_safe(url: str) -> bool:
    """Keep http(s), ``data:image/`` and relative URLs; browsers ignore controls in schemes.

    Args:
        url: the URL as given.

    Returns:
        Whether the URL may reach a browser (issue 4, "URL safety").
    """
    if url.startswith(("https://", "http://")) or ":" not in url:
        return True  # the common cases, decided without the expressions below
    cleaned = _CONTROL.sub("", url)
    match = _SCHEME.match(cleaned)
    if match is None:
        return True
    scheme = match.group(1).lower()
    if scheme in {"http", "https"}:
        return True
    return scheme == "data" and cleaned[5:].lower().startswith("image/")


def _percent(match: re.Match[str]) -> str:
    """Percent-encode a character as the UTF-8 bytes a browser would send."""
    return "".join(f"%{byte:02X}" for byte in match.group().encode())


def markdown_link(text: str, url: str) -> tuple[str, str]:
    r"""Write ``[text](url)`` so a CommonMark renderer sees exactly this text and href.

    The text's Markdown syntax is escaped and its line endings become spaces; the URL
    is percent-encoded where CommonMark would read it as syntax, and an ``&`` that
    would start a character reference is escaped. Nothing is left for the renderer to
    decode, so the href it produces is the returned one (percent-encoded further as
    browsers do anyway), and differs from ``url`` only by percent-encoding: a URL
    :func:`url_is_safe` accepts gives a safe href (an escape or character reference
    can no longer turn ``javascript\:`` into a scheme). Ordinary URLs and titles come
    out as given.

    Args:
        text: the link text, as plain text.
        url: the link target.

    Returns:
        The Markdown, and the href a CommonMark renderer makes of it.
    """
    label = _LINK_TEXT_SPECIAL.sub(r"\\\g<0>", _LINE_ENDING.sub(" ", text))
    href = _DESTINATION_SPECIAL.sub(_percent, url)
    destination = _REFERENCE.sub(r"\\&", href)
    return f"[{label}]({destination})", href


# -- shared prop helpers ---------------------------------------------------------------


def _url(run: Run, memo: Memo, value: Any, key: str) -> str | None:
    """A URL value when it is a string with a safe scheme, else ``None``."""
    if type(value) is not str:
        return None
    if not url_is_safe(value):
        run.warn(
            "convert.unsafe_url",
            f'Prop "{key}" has a URL scheme that is not allowed; it was dropped.',
            memo.comp.id,
        )
        return None
    return run.string(memo, value, key)


def _invalid(run: Run, memo: Memo, key: str, value: Any) -> None:
    """Warn that a prop value has no counterpart in the vocabulary and was dropped."""
    run.warn(
        "convert.prop_invalid",
        f'Prop "{key}" value {value!r} is not valid in the vocabulary; it was dropped.',
        memo.comp.id,
    )


def _drop(run: Run, memo: Memo, why: str, *, pending: bool) -> None:
    """Warn that an element was dropped; at debug level when its data is ``pending``."""
    run.warn(
        "convert.element_dropped",
        f'Component "{memo.comp.id}" ({memo.comp.component}) was dropped: {why}.',
        memo.comp.id,
        severity=Severity.DEBUG if pending else Severity.WARNING,
    )


def _bound(memo: Memo, value: Any, *keys: str) -> bool:
    """Whether ``value`` is ``MISSING`` only because a present prop's binding is unresolved."""
    return value is MISSING and any(key in memo.comp.props for key in keys)


def _gap(run: Run, memo: Memo, element: dict[str, Any], key: str = "gap") -> None:
    """Copy a number prop in the vocabulary's 0..8 range."""
    value = run.prop(memo, key)
    if type(value) in _NUMBER:
        if 0 <= value <= 8:
            element[key] = value
        else:
            _invalid(run, memo, key, value)


def _enum(
    run: Run,
    memo: Memo,
    element: dict[str, Any],
    key: str,
    *,
    table: Mapping[str, str | None],
    value: Any,
) -> None:
    """Copy a string value mapped through an A2UI-to-vocabulary table."""
    if type(value) is str:
        if value in table:
            mapped = table[value]
            if mapped is not None:
                element[key] = mapped
        else:
            _invalid(run, memo, key, value)


def _flag(run: Run, memo: Memo, element: dict[str, Any], key: str) -> None:
    """Copy a boolean prop."""
    value = run.prop(memo, key)
    if type(value) is bool:
        element[key] = value


def _single(props: Mapping[str, Any], *keys: str) -> list[Any]:
    """The single-child references present among ``keys``, in order."""
    return [props[key] for key in keys if key in props]


def _labelled(run: Run, memo: Memo, element: dict[str, Any], *, required: bool = False) -> None:
    """Copy ``label`` (``""`` when required and absent) and the field ``name``."""
    label = run.string(memo, run.prop(memo, "label"), "label")
    if label is not None:
        element["label"] = label
    elif required:
        element["label"] = ""
    name = field_name(memo.comp.props)
    if name is not None:
        element["name"] = name


# -- upstream's table ------------------------------------------------------------------


def _text(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Text: Header for h1-h6, Caption for caption, Markdown otherwise."""
    value = run.first(memo, "text", "value")
    variant = run.prop(memo, "variant")
    if type(variant) is str and len(variant) == 2 and variant[0] == "h" and variant[1] in "123456":
        element = {"$type": "Header", "text": run.text_of(memo, value, "text")}
    elif variant == "caption":
        element = {"$type": "Caption", "value": run.text_of(memo, value, "text")}
    else:
        element = {"$type": "Markdown", "value": run.text_of(memo, value, "text")}
    return element


def _image(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Image: src (safe URL, required), alt (required, ``""`` when absent), size, round."""
    raw = run.first(memo, "src", "url")
    src = _url(run, memo, raw, "src")
    if src is None:
        _drop(run, memo, "it has no usable src", pending=_bound(memo, raw, "src", "url"))
        return None
    alt = run.string(memo, run.first(memo, "alt", "altText"), "alt")
    if alt is None:
        alt = run.string(memo, run.prop(memo, "description"), "alt") or ""
    element: dict[str, Any] = {"$type": "Image", "src": src, "alt": alt}
    size = run.prop(memo, "size")
    if (type(size) is str and size in vocab.IMAGE_SIZES) or type(size) in _NUMBER:
        element["size"] = size
    elif size is not MISSING:
        _invalid(run, memo, "size", size)
    _flag(run, memo, element, "round")
    return element


def _row(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Row: gap, align (align/alignment), justify (justify/distribution)."""
    element: dict[str, Any] = {"$type": "Row"}
    _gap(run, memo, element)
    align = run.first(memo, "align", "alignment")
    _enum(run, memo, element, "align", table=vocab.ALIGN_FROM_A2UI, value=align)
    justify = run.first(memo, "justify", "distribution")
    _enum(run, memo, element, "justify", table=vocab.JUSTIFY_FROM_A2UI, value=justify)
    return element


def _column(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Column: Col with gap and align."""
    element: dict[str, Any] = {"$type": "Col"}
    _gap(run, memo, element)
    align = run.first(memo, "align", "alignment")
    _enum(run, memo, element, "align", table=vocab.ALIGN_FROM_A2UI, value=align)
    return element


def _list(run: Run, memo: Memo) -> dict[str, Any] | None:
    """List: a Row when horizontal, else a Col."""
    if run.prop(memo, "direction") == "horizontal":
        return _row(run, memo)
    return _column(run, memo)


def _card(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Card: title, padding, background; the spec's single ``child`` first."""
    element: dict[str, Any] = {"$type": "Card"}
    title = run.string(memo, run.prop(memo, "title"), "title")
    if title is not None:
        element["title"] = title
    _gap(run, memo, element, "padding")
    background = run.string(memo, run.prop(memo, "background"), "background")
    if background is not None:
        element["background"] = background
    run.extras(memo, element, _single(memo.comp.props, "child"))
    return element


def _divider(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Divider: flush."""
    element: dict[str, Any] = {"$type": "Divider"}
    _flag(run, memo, element, "flush")
    return element


def _button(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Button: label from label/text or a Text ``child``; other children as children."""
    element: dict[str, Any] = {"$type": "Button"}
    label = run.string(memo, run.first(memo, "label", "text"), "label")
    extra = _single(memo.comp.props, "child")
    spec_style = label is None
    if label is None and extra:
        child = run.components.get(extra[0]) if type(extra[0]) is str else None
        if child is not None and child.component == "Text" and extra[0] not in run.visited:
            # The label is read from the child's props but belongs to this memo: the
            # child's id joins its kids so that replacing the child rebuilds the button.
            run.reached(memo, child.id)
            props = child.props
            value = run.resolve(memo, props.get("text", MISSING))
            if value is MISSING:
                value = run.resolve(memo, props.get("value", MISSING))
            label = run.text_of(memo, value, "text")
            extra = []
    element["label"] = label or ""
    style = run.prop(memo, "buttonStyle")
    if type(style) is str:
        if style in vocab.BUTTON_STYLES:
            element["buttonStyle"] = style
        else:
            _invalid(run, memo, "buttonStyle", style)
    elif spec_style:
        variant = run.prop(memo, "variant")
        mapped = vocab.BUTTON_STYLE_FROM_VARIANT.get(variant) if type(variant) is str else None
        if mapped is not None:
            element["buttonStyle"] = mapped
    _flag(run, memo, element, "block")
    _flag(run, memo, element, "submit")
    if "action" in memo.comp.props:
        action = _action(run, memo, memo.comp.props["action"])
        if action is not None:
            element["$action"] = action
    run.extras(memo, element, extra)
    return element


def _text_field(run: Run, memo: Memo) -> dict[str, Any] | None:
    """TextField: Input with placeholder, multiline, label, name."""
    element: dict[str, Any] = {"$type": "Input"}
    placeholder = run.string(memo, run.prop(memo, "placeholder"), "placeholder")
    if placeholder is not None:
        element["placeholder"] = placeholder
    multiline = run.prop(memo, "multiline")
    if type(multiline) is bool:
        element["multiline"] = multiline
    elif "longText" in (run.prop(memo, "textFieldType"), run.prop(memo, "variant")):
        element["multiline"] = True
    _labelled(run, memo, element)
    return element


def _check_box(run: Run, memo: Memo) -> dict[str, Any] | None:
    """CheckBox: Checkbox with label, name, defaultChecked (defaultChecked/value)."""
    element: dict[str, Any] = {"$type": "Checkbox"}
    _labelled(run, memo, element, required=True)
    checked = run.first(memo, "defaultChecked", "value")
    if type(checked) is bool:
        element["defaultChecked"] = checked
    return element


# -- the rest of the basic catalog -----------------------------------------------------


def _icon(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Icon: the A2UI name mapped onto the vocabulary's; dropped when it has none."""
    name = run.prop(memo, "name")
    mapped = vocab.ICON_FROM_A2UI.get(name) if type(name) is str else None
    if mapped is None:
        run.warn(
            "convert.icon_unmapped",
            f"Icon {name!r} has no counterpart in the vocabulary and was skipped.",
            memo.comp.id,
            severity=Severity.DEBUG,
        )
        return None
    element: dict[str, Any] = {"$type": "Icon", "name": mapped}
    return element


def _tabs(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Tabs: a Col of Cards, one per tab, titled, holding the tab's child."""
    out = []
    tabs = memo.comp.props.get("tabs")
    for tab in tabs if type(tabs) is list else ():
        if type(tab) is not dict or not run.reserve(memo.comp.id):
            continue
        card: dict[str, Any] = {"$type": "Card"}
        title = run.string(memo, run.resolve(memo, tab.get("title", "")), "title")
        if title is not None:
            card["title"] = title
        if "child" in tab:
            converted = run.child(memo, tab["child"])
            if converted is not None:
                card["children"] = [converted]
        out.append(card)
    element: dict[str, Any] = {"$type": "Col"}
    if out:
        element["children"] = out
    return element


def _modal(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Modal: a Col holding its trigger followed by its content."""
    element: dict[str, Any] = {"$type": "Col"}
    run.extras(memo, element, _single(memo.comp.props, "trigger", "content"))
    return element


def _options(run: Run, memo: Memo) -> list[dict[str, Any]]:
    """ChoicePicker options with a string value, labels as text."""
    options = []
    raw = memo.comp.props.get("options")
    for option in raw if type(raw) is list else ():
        if type(option) is not dict:
            continue
        value = run.string(memo, run.resolve(memo, option.get("value")), "options")
        if value is None:
            continue
        label = run.text_of(memo, run.resolve(memo, option.get("label")), "label")
        options.append({"label": label, "value": value})
    return options


def _choice_picker(run: Run, memo: Memo) -> dict[str, Any] | None:
    """ChoicePicker: RadioGroup when mutually exclusive, else a Col of Checkboxes."""
    options = _options(run, memo)
    chosen = run.first(memo, "value", "selections")
    selected = [chosen] if type(chosen) is str else chosen if type(chosen) is list else []
    if run.prop(memo, "variant") == "multipleSelection":
        element: dict[str, Any] = {"$type": "Col"}
        out: list[Any] = []
        label = run.string(memo, run.prop(memo, "label"), "label")
        if label is not None and run.reserve(memo.comp.id):
            out.append({"$type": "Text", "value": label})
        for option in options:
            if not run.reserve(memo.comp.id):
                break
            out.append(
                {
                    "$type": "Checkbox",
                    "label": option["label"],
                    "name": option["value"],
                    "defaultChecked": option["value"] in selected,
                }
            )
        if out:
            element["children"] = out
        return element
    element = {"$type": "RadioGroup", "options": options}
    name = field_name(memo.comp.props)
    if name is not None:
        element["name"] = name
    label = run.string(memo, run.prop(memo, "label"), "label")
    if label is not None:
        element["label"] = label
    first = next((s for s in selected if type(s) is str), None)
    if first is not None:
        element["defaultValue"] = first
    return element


def _date_time_input(run: Run, memo: Memo) -> dict[str, Any] | None:
    """DateTimeInput: DatePicker with value, min, max, label, name."""
    element: dict[str, Any] = {"$type": "DatePicker"}
    for key in ("value", "min", "max"):
        value = run.string(memo, run.prop(memo, key), key)
        if value is not None:
            element[key] = value
    _labelled(run, memo, element)
    return element


def _slider(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Slider: an Input with its label and field name."""
    element: dict[str, Any] = {"$type": "Input"}
    _labelled(run, memo, element)
    return element


def _media(run: Run, memo: Memo) -> dict[str, Any] | None:
    """Video and AudioPlayer: a Markdown link to the media."""
    raw = run.prop(memo, "url")
    url = _url(run, memo, raw, "url")
    if url is None:
        _drop(run, memo, "it has no usable url", pending=_bound(memo, raw, "url"))
        return None
    title = run.string(memo, run.prop(memo, "description"), "description")
    if not title:
        title = memo.comp.component
    # The href a renderer makes of this link is the checked URL percent-encoded, which
    # can only end a scheme early, never make one: it is as safe as the URL checked.
    markdown, _ = markdown_link(title, url)
    return {"$type": "Markdown", "value": run.string(memo, markdown, "url")}


# -- actions ---------------------------------------------------------------------------


def _action(run: Run, memo: Memo, raw: Any) -> dict[str, Any] | None:
    """A Button's ``$action``: a spec event, a function call, or upstream's form."""
    cid = memo.comp.id
    if type(raw) is dict and len(raw) == 1 and type(raw.get("functionCall")) is dict:
        call = call_of(raw["functionCall"])
        if call is not None:
            name, raw_args = call
            args = run.resolve(memo, raw_args) if type(raw_args) is dict else {}
            url = args.get("url")
            if name == "openUrl" and (type(url) is not str or not url_is_safe(url)):
                pending = "url" not in args and type(raw_args) is dict and "url" in raw_args
                run.warn(
                    "convert.unsafe_url",
                    "openUrl action has no safe URL; the action was dropped.",
                    cid,
                    severity=Severity.DEBUG if pending else Severity.WARNING,
                )
                return None
            return {"type": "a2ui:function", "call": name, "args": args}
    elif type(raw) is dict and len(raw) == 1 and type(raw.get("event")) is dict:
        event = raw["event"]
        name = run.resolve(memo, event.get("name"))
        return _event(run, memo, name, event.get("context", MISSING))
    else:
        action = run.resolve(memo, raw)
        if type(action) is str:
            return _event(run, memo, action, MISSING)
        if type(action) is dict and type(action.get("name")) is str:
            return _event(run, memo, action["name"], raw.get("context", MISSING))
    run.warn("convert.action_dropped", "Button action is not usable; it was dropped.", cid)
    return None


def _event(run: Run, memo: Memo, name: Any, context: Any) -> dict[str, Any] | None:
    """An ``a2ui:action`` with its context resolved once against the data in scope."""
    if type(name) is not str or not name:
        run.warn(
            "convert.action_dropped",
            "Button action has no name; it was dropped.",
            memo.comp.id,
            severity=Severity.DEBUG if name is MISSING else Severity.WARNING,
        )
        return None
    action: dict[str, Any] = {
        "type": "a2ui:action",
        "name": name,
        "surfaceId": run.surface_id,
        "sourceComponentId": memo.comp.id,
    }
    if type(context) is list:  # v0.8: [{key, value}]
        context = {
            entry["key"]: entry.get("value")
            for entry in context
            if type(entry) is dict and type(entry.get("key")) is str
        }
    if context is not MISSING:
        resolved = run.resolve(memo, context)
        if resolved is not MISSING:
            action["context"] = resolved
    return action


#: Component type to handler: upstream's table, then the rest of the basic catalog.
HANDLERS: Final[Mapping[str, Handler]] = {
    "Text": _text,
    "Image": _image,
    "Row": _row,
    "Column": _column,
    "List": _list,
    "Card": _card,
    "Divider": _divider,
    "Button": _button,
    "TextField": _text_field,
    "CheckBox": _check_box,
    "Icon": _icon,
    "Tabs": _tabs,
    "Modal": _modal,
    "ChoicePicker": _choice_picker,
    "DateTimeInput": _date_time_input,
    "Slider": _slider,
    "Video": _media,
    "AudioPlayer": _media,
}
