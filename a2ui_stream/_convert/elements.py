"""Elements: what each A2UI basic-catalog component becomes in the vocabulary.

Owns one handler per component type (upstream's table first, reference converter
section 2, then the rest of the basic catalog as issue 4 maps it), the key order of
every element, the repairs that keep each element valid against
:mod:`a2ui_stream._convert.vocabulary` (enum mapping, required props, dropping what cannot be
made valid), and Button ``$action``s. :data:`HANDLERS` is the table a converter
resolves once.

A handler receives a :class:`~a2ui_stream._convert.walk.Context` for one component
and returns its element, or ``None`` to drop it: a dict, which the walk freezes with one
copy, so every container a handler puts in it must be frozen already (children are;
``ctx.data`` freezes what it gives; the rest is built as :class:`FrozenDict` and
:class:`FrozenList`). It reads props two ways:
``ctx.prop``/``ctx.first``/``ctx.resolve`` give values to inspect (branch on their
type or content), ``ctx.value``/``ctx.value_first``/``ctx.placed`` give values that
are only placed into the element or passed to a rule (``ctx.string``, ``ctx.text``,
``ctx.url``, ``ctx.flag``, ``ctx.number``, ``ctx.enum``), and a rule's result is only
placed, or compared with ``None`` to leave its key out (a recorded hole is present,
the walk's case when it is not). An optional prop is read only when it (or its
fallback) is present, and a scalar prop only inspected is read off ``ctx.props``
(a scalar resolves to itself): most props are absent or scalars, and a test of
``ctx.props`` costs a few percent of a call. That discipline is what lets a render
plan (:mod:`a2ui_stream._convert.plans`) record a handler once and replay it on new
data.

Must not import: the converter front, the reducer, request or shell modules. Does no
I/O, no logging.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from a2ui_stream._convert import vocabulary as vocab
from a2ui_stream._convert.bindings import MISSING, call_of, field_name
from a2ui_stream._convert.rules import url_is_safe
from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Severity
from a2ui_stream._wire.frozen import CONTAINERS, DICTS, LISTS, FrozenDict, FrozenList

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from a2ui_stream._convert.walk import Context

__all__ = ["HANDLERS", "Handler", "markdown_link", "url_is_safe"]

Handler = "Callable[[Context], dict[str, Any] | None]"
"""Converts one component to its element, or ``None`` to drop it."""

_DEBUG: Final = Severity.DEBUG
_WARNING: Final = Severity.WARNING
#: The types a raw prop value is resolved for by a call (a scalar is its own value).
_NUMBERS: Final = frozenset({int, float})

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
#: Every character the two label expressions above can match: a label holding none of
#: them is written as it is. A set's check costs a few percent of a ``sub`` on a label
#: (each ``sub`` with a template calls back into Python), and media links are on the path
#: of every Video and AudioPlayer converted.
_LABEL_CHARACTERS: Final = frozenset("\\[]<>`*_!~&\r\n")
#: The printable ASCII characters :data:`_DESTINATION_SPECIAL` matches.
_DESTINATION_ASCII: Final = frozenset(" ()<>\\")


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
    label = text
    if not _LABEL_CHARACTERS.isdisjoint(text):
        label = _LINK_TEXT_SPECIAL.sub(r"\\\g<0>", _LINE_ENDING.sub(" ", text))
    href = url
    # Printable ASCII (the usual URL) is matched only by a few characters; anything else
    # may hold a Unicode space or format character, which only the expression knows.
    if not (url.isascii() and url.isprintable() and _DESTINATION_ASCII.isdisjoint(url)):
        href = _DESTINATION_SPECIAL.sub(_percent, url)
    destination = _REFERENCE.sub(r"\\&", href) if "&" in href else href
    return f"[{label}]({destination})", href


# -- shared prop helpers ---------------------------------------------------------------


def _drop(ctx: Context, why: str, *, pending: bool) -> None:
    """Warn that an element was dropped; at debug level when its data is ``pending``."""
    ctx.warn(
        Code.CONVERT_ELEMENT_DROPPED,
        f'Component "{ctx.id}" ({ctx.component}) was dropped: {why}.',
        severity=_DEBUG if pending else _WARNING,
    )


def _bound(ctx: Context, value: Any, *keys: str) -> bool:
    """Whether ``value`` is ``MISSING`` only because a present prop's binding is unresolved."""
    return value is MISSING and any(key in ctx.props for key in keys)


def _labelled(ctx: Context, element: dict[str, Any], *, required: bool = False) -> None:
    """Copy ``label`` (``""`` when required and absent) and the field ``name``."""
    label = ctx.string(ctx.value("label"), "label")
    if label is not None:
        element["label"] = label
    elif required:
        element["label"] = ""
    name = field_name(ctx.props)
    if name is not None:
        element["name"] = name


def _single(ctx: Context, *keys: str) -> list[Any]:
    """The single-child references present among ``keys``, in order."""
    props = ctx.props
    found = []
    for key in keys:
        if key in props:
            found.append(props[key])  # noqa: PERF401 - a comprehension is a call of its own (3.11)
    return found


def _extras(ctx: Context, element: dict[str, Any], refs: list[Any]) -> None:
    """Convert single-child references (``child``, ``trigger``) into ``children``."""
    if refs:
        out = ctx.children(refs)
        if out:
            element["children"] = out


# -- upstream's table ------------------------------------------------------------------


def _text(ctx: Context) -> dict[str, Any] | None:
    """Text: Header for h1-h6, Caption for caption, Markdown otherwise."""
    value = ctx.value_first("text", "value")
    variant = ctx.props.get("variant")
    if type(variant) in CONTAINERS:  # bound; a scalar resolves to itself, without a call
        variant = ctx.prop("variant")
    if type(variant) is str and len(variant) == 2 and variant[0] == "h" and variant[1] in "123456":
        return {"$type": "Header", "text": ctx.text(value, "text")}
    if variant == "caption":
        return {"$type": "Caption", "value": ctx.text(value, "text")}
    return {"$type": "Markdown", "value": ctx.text(value, "text")}


def _image(ctx: Context) -> dict[str, Any] | None:
    """Image: src (safe URL, required), alt (required, ``""`` when absent), size, round."""
    raw = ctx.value_first("src", "url")
    src = ctx.url(raw, "src")
    if src is None:
        _drop(ctx, "it has no usable src", pending=_bound(ctx, raw, "src", "url"))
        return None
    props = ctx.props
    alt = None
    if "alt" in props or "altText" in props:
        alt = ctx.string(ctx.value_first("alt", "altText"), "alt")
    if alt is None and "description" in props:
        alt = ctx.string(ctx.value("description"), "alt")
    element: dict[str, Any] = {"$type": "Image", "src": src, "alt": "" if alt is None else alt}
    size = ctx.prop("size") if "size" in props else MISSING
    if (type(size) is str and size in vocab.IMAGE_SIZES) or type(size) in _NUMBERS:
        element["size"] = size
    elif size is not MISSING:
        ctx.invalid("size", size)
    if "round" in props:
        found = ctx.flag(ctx.value("round"), "round")
        if found is not None:
            element["round"] = found
    return element


def _row(ctx: Context) -> dict[str, Any] | None:
    """Row: gap, align (align/alignment), justify (justify/distribution)."""
    element: dict[str, Any] = {"$type": "Row"}
    props = ctx.props
    if "gap" in props:
        found = ctx.number(ctx.value("gap"), "gap", 0, 8)
        if found is not None:
            element["gap"] = found
    if "align" in props or "alignment" in props:
        align = ctx.enum(ctx.value_first("align", "alignment"), "align", vocab.ALIGN_FROM_A2UI)
        if align is not None:
            element["align"] = align
    if "justify" in props or "distribution" in props:
        justify = ctx.value_first("justify", "distribution")
        justify = ctx.enum(justify, "justify", vocab.JUSTIFY_FROM_A2UI)
        if justify is not None:
            element["justify"] = justify
    return element


def _column(ctx: Context) -> dict[str, Any] | None:
    """Column: Col with gap and align."""
    element: dict[str, Any] = {"$type": "Col"}
    props = ctx.props
    if "gap" in props:
        found = ctx.number(ctx.value("gap"), "gap", 0, 8)
        if found is not None:
            element["gap"] = found
    if "align" in props or "alignment" in props:
        found = ctx.enum(ctx.value_first("align", "alignment"), "align", vocab.ALIGN_FROM_A2UI)
        if found is not None:
            element["align"] = found
    return element


def _list(ctx: Context) -> dict[str, Any] | None:
    """List: a Row when horizontal, else a Col."""
    if "direction" in ctx.props and ctx.prop("direction") == "horizontal":
        return _row(ctx)
    return _column(ctx)


def _card(ctx: Context) -> dict[str, Any] | None:
    """Card: title, padding, background; the spec's single ``child`` first."""
    element: dict[str, Any] = {"$type": "Card"}
    props = ctx.props
    if "title" in props:
        found = ctx.string(ctx.value("title"), "title")
        if found is not None:
            element["title"] = found
    if "padding" in props:
        found = ctx.number(ctx.value("padding"), "padding", 0, 8)
        if found is not None:
            element["padding"] = found
    if "background" in props:
        found = ctx.string(ctx.value("background"), "background")
        if found is not None:
            element["background"] = found
    if "child" in props:
        _extras(ctx, element, [props["child"]])
    return element


def _divider(ctx: Context) -> dict[str, Any] | None:
    """Divider: flush."""
    element: dict[str, Any] = {"$type": "Divider"}
    props = ctx.props
    if "flush" in props:
        found = ctx.flag(ctx.value("flush"), "flush")
        if found is not None:
            element["flush"] = found
    return element


def _button(ctx: Context) -> dict[str, Any] | None:
    """Button: label from label/text or a Text ``child``; other children as children."""
    element: dict[str, Any] = {"$type": "Button"}
    props = ctx.props
    label = ctx.string(ctx.value_first("label", "text"), "label")
    extra = [props["child"]] if "child" in props else []
    spec_style = label is None
    if label is None and extra:
        child = ctx.component_of(extra[0])
        if child is not None and child.component == "Text":
            text = child.props
            value = ctx.placed(text.get("text", MISSING))
            if value is MISSING:
                value = ctx.placed(text.get("value", MISSING))
            label = ctx.text(value, "text")
            extra = []
    element["label"] = "" if label is None else label
    style = ctx.prop("buttonStyle") if "buttonStyle" in props else MISSING
    if type(style) is str:
        if style in vocab.BUTTON_STYLES:
            element["buttonStyle"] = style
        else:
            ctx.invalid("buttonStyle", style)
    elif spec_style:
        variant = props.get("variant")
        if type(variant) in CONTAINERS:  # bound; a scalar resolves to itself
            variant = ctx.prop("variant")
        style = vocab.BUTTON_STYLE_FROM_VARIANT.get(variant) if type(variant) is str else None
        if style is not None:
            element["buttonStyle"] = style
    if "block" in props:
        found = ctx.flag(ctx.value("block"), "block")
        if found is not None:
            element["block"] = found
    if "submit" in props:
        found = ctx.flag(ctx.value("submit"), "submit")
        if found is not None:
            element["submit"] = found
    if "action" in props:
        action = _action(ctx, props["action"])
        if action is not None:
            element["$action"] = action
    if extra:
        _extras(ctx, element, extra)
    return element


def _text_field(ctx: Context) -> dict[str, Any] | None:
    """TextField: Input with placeholder, multiline, label, name."""
    element: dict[str, Any] = {"$type": "Input"}
    props = ctx.props
    if "placeholder" in props:
        found = ctx.string(ctx.value("placeholder"), "placeholder")
        if found is not None:
            element["placeholder"] = found
    multiline = ctx.prop("multiline")
    if type(multiline) is bool:
        element["multiline"] = multiline
    elif "longText" in (ctx.prop("textFieldType"), ctx.prop("variant")):
        element["multiline"] = True
    _labelled(ctx, element)
    return element


def _check_box(ctx: Context) -> dict[str, Any] | None:
    """CheckBox: Checkbox with label, name, defaultChecked (defaultChecked/value)."""
    element: dict[str, Any] = {"$type": "Checkbox"}
    props = ctx.props
    _labelled(ctx, element, required=True)
    if "defaultChecked" in props or "value" in props:
        found = ctx.flag(ctx.value_first("defaultChecked", "value"), "defaultChecked")
        if found is not None:
            element["defaultChecked"] = found
    return element


# -- the rest of the basic catalog -----------------------------------------------------


def _icon(ctx: Context) -> dict[str, Any] | None:
    """Icon: the A2UI name mapped onto the vocabulary's; dropped when it has none."""
    name = ctx.prop("name")
    mapped = vocab.ICON_FROM_A2UI.get(name) if type(name) is str else None
    if mapped is None:
        ctx.warn(
            Code.CONVERT_ICON_UNMAPPED,
            f"Icon {name!r} has no counterpart in the vocabulary and was skipped.",
            severity=_DEBUG,
        )
        return None
    return {"$type": "Icon", "name": mapped}


def _tabs(ctx: Context) -> dict[str, Any] | None:
    """Tabs: a Col of Cards, one per tab, titled, holding the tab's child."""
    out = []
    tabs: Any = ctx.props.get("tabs")
    for tab in tabs if type(tabs) in LISTS else ():
        if type(tab) not in DICTS or not ctx.reserve():
            continue
        card: dict[str, Any] = {"$type": "Card"}
        title = ctx.string(ctx.placed(tab.get("title", "")), "title")
        if title is not None:
            card["title"] = title
        if "child" in tab:
            converted = ctx.children([tab["child"]])
            if converted:
                card["children"] = converted
        out.append(FrozenDict(card))
    element: dict[str, Any] = {"$type": "Col"}
    if out:
        element["children"] = FrozenList(out)
    return element


def _modal(ctx: Context) -> dict[str, Any] | None:
    """Modal: a Col holding its trigger followed by its content."""
    element: dict[str, Any] = {"$type": "Col"}
    _extras(ctx, element, _single(ctx, "trigger", "content"))
    return element


def _options(ctx: Context) -> list[dict[str, Any]]:
    """ChoicePicker options with a string value, labels as text; frozen."""
    options = []
    raw: Any = ctx.props.get("options")
    for option in raw if type(raw) in LISTS else ():
        if type(option) not in DICTS:
            continue
        value = option.get("value")  # scalars, as most options' are, resolve to themselves
        value = ctx.string(ctx.resolve(value) if type(value) in CONTAINERS else value, "options")
        if value is None:
            continue
        label = option.get("label")
        label = ctx.text(ctx.placed(label) if type(label) in CONTAINERS else label, "label")
        options.append(FrozenDict({"label": label, "value": value}))
    return FrozenList(options)


def _choice_picker(ctx: Context) -> dict[str, Any] | None:
    """ChoicePicker: RadioGroup when mutually exclusive, else a Col of Checkboxes."""
    options = _options(ctx)
    chosen = ctx.value_first("value", "selections")
    if "variant" in ctx.props and ctx.prop("variant") == "multipleSelection":
        element: dict[str, Any] = {"$type": "Col"}
        out: list[Any] = []
        label = ctx.string(ctx.value("label"), "label")
        if label is not None and ctx.reserve():
            out.append(FrozenDict({"$type": "Text", "value": label}))
        for option in options:
            if not ctx.reserve():
                break
            out.append(
                FrozenDict(
                    {
                        "$type": "Checkbox",
                        "label": option["label"],
                        "name": option["value"],
                        "defaultChecked": ctx.chosen(chosen, "value", option["value"]),
                    }
                )
            )
        if out:
            element["children"] = FrozenList(out)
        return element
    element = {"$type": "RadioGroup", "options": options}
    props = ctx.props
    name = field_name(props)
    if name is not None:
        element["name"] = name
    if "label" in props:
        found = ctx.string(ctx.value("label"), "label")
        if found is not None:
            element["label"] = found
    default = ctx.first_choice(chosen, "value")
    if default is not None:
        element["defaultValue"] = default
    return element


def _date_time_input(ctx: Context) -> dict[str, Any] | None:
    """DateTimeInput: DatePicker with value, min, max, label, name."""
    element: dict[str, Any] = {"$type": "DatePicker"}
    props = ctx.props
    for key in ("value", "min", "max"):
        if key in props:
            found = ctx.string(ctx.value(key), key)
            if found is not None:
                element[key] = found
    _labelled(ctx, element)
    return element


def _slider(ctx: Context) -> dict[str, Any] | None:
    """Slider: an Input with its label and field name."""
    element: dict[str, Any] = {"$type": "Input"}
    _labelled(ctx, element)
    return element


def _media(ctx: Context) -> dict[str, Any] | None:
    """Video and AudioPlayer: a Markdown link to the media."""
    raw = ctx.prop("url")
    url = ctx.link(raw, "url")
    if url is None:
        _drop(ctx, "it has no usable url", pending=_bound(ctx, raw, "url"))
        return None
    title = None
    if "description" in ctx.props:
        title = ctx.string(ctx.prop("description"), "description")
    if not title:
        title = ctx.component
    # The href a renderer makes of this link is the checked URL percent-encoded, which
    # can only end a scheme early, never make one: it is as safe as the URL checked.
    markdown, _ = markdown_link(title, url)
    return {"$type": "Markdown", "value": ctx.string(markdown, "url")}


# -- actions ---------------------------------------------------------------------------


def _action(ctx: Context, raw: Any) -> dict[str, Any] | None:
    """A Button's ``$action``: a spec event, a function call, or upstream's form."""
    if type(raw) in DICTS and len(raw) == 1:
        event = raw.get("event")
        if type(event) in DICTS:  # the spec's form: nearly every Button's
            name = event.get("name")
            if type(name) in DICTS or type(name) in LISTS:  # a scalar resolves to itself
                name = ctx.resolve(name)
            return _event(ctx, name, event.get("context", MISSING))
        function = raw.get("functionCall")
        if type(function) in DICTS:
            call = call_of(function)
            if call is not None:
                name, raw_args = call
                args = ctx.resolve(raw_args) if type(raw_args) in DICTS else {}
                url = args.get("url")
                if name == "openUrl" and (
                    type(url) is not str or not url_is_safe(url, image=False)
                ):
                    pending = "url" not in args and type(raw_args) in DICTS and "url" in raw_args
                    ctx.warn(
                        Code.CONVERT_UNSAFE_URL,
                        "openUrl action has no safe URL; the action was dropped.",
                        severity=_DEBUG if pending else _WARNING,
                    )
                    return None
                return FrozenDict({"type": "a2ui:function", "call": name, "args": ctx.data(args)})
            ctx.warn(Code.CONVERT_ACTION_DROPPED, "Button action is not usable; it was dropped.")
            return None
    action = ctx.resolve(raw)
    if type(action) is str:
        return _event(ctx, action, MISSING)
    if type(action) in DICTS and type(action.get("name")) is str:
        if type(raw) in DICTS and "name" in raw:  # written out: its context resolves here
            return _event(ctx, action["name"], raw.get("context", MISSING))
        # Bound whole: the context is the data's, already resolved once with it.
        return _event(ctx, action["name"], action.get("context", MISSING), resolved=True)
    ctx.warn(Code.CONVERT_ACTION_DROPPED, "Button action is not usable; it was dropped.")
    return None


def _event(
    ctx: Context, name: Any, context: Any, *, resolved: bool = False
) -> dict[str, Any] | None:
    """An ``a2ui:action`` with its context resolved once against the data in scope.

    ``resolved``: the context is data already (an action bound whole), placed as it is.
    """
    if type(name) is not str or not name:
        ctx.warn(
            Code.CONVERT_ACTION_DROPPED,
            "Button action has no name; it was dropped.",
            severity=_DEBUG if name is MISSING else _WARNING,
        )
        return None
    action: dict[str, Any] = {
        "type": "a2ui:action",
        "name": name,
        "surfaceId": ctx.surface_id,
        "sourceComponentId": ctx.id,
    }
    if type(context) in LISTS and _keyed(context):  # v0.8: [{key, value}]
        context = {entry["key"]: entry.get("value") for entry in context}
    if context is not MISSING:
        placed = context if resolved else ctx.placed(context)
        if placed is not MISSING:
            action["context"] = ctx.data(placed)
    return FrozenDict(action)


def _keyed(context: list[Any]) -> bool:
    """Whether a list context is v0.8's ``[{key, value}]`` form, which becomes an object.

    Only a list of such entries and nothing else is; any other list is passed on as a
    list, element by element, as upstream passes every list.
    """
    return bool(context) and all(
        type(entry) in DICTS and type(entry.get("key")) is str for entry in context
    )


#: Component type to handler: upstream's table, then the rest of the basic catalog.
HANDLERS: Final[Mapping[str, Callable[[Context], dict[str, Any] | None]]] = {
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
