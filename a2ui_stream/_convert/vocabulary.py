"""The generative UI vocabulary: what each ``$type`` accepts, as data, and a validator.

Owns the prop tables of the 27 element types that ``@assistant-ui/react-generative-ui``
0.0.16 renders (``defaultGenerativeUILibrary``), written here as plain Python data so
the package needs no schema file at run time, and :func:`validate_element`, which
checks an element tree against them. The tables state the same facts as the JSON
Schemas in ``shared/reference/generative-ui-vocabulary.json``: required props, types,
enums, ranges and ``additionalProperties: false``.

Must not import: other package modules. Does no I/O, no logging.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = [
    "ALIGN_FROM_A2UI",
    "BUTTON_STYLES",
    "BUTTON_STYLE_FROM_VARIANT",
    "ELEMENT_TYPES",
    "ICON_FROM_A2UI",
    "ICON_NAMES",
    "IMAGE_SIZES",
    "JUSTIFY_FROM_A2UI",
    "RESERVED_KEYS",
    "validate_element",
]

#: A check of one prop value: returns a problem sentence, or ``None`` when valid.
_Check = Callable[[Any], "str | None"]

#: Keys of an element that are not props (vocabulary reference, element shape).
RESERVED_KEYS: Final = frozenset({"$type", "$key", "$action", "$status", "children"})

#: The 24 icon names the vocabulary's Icon draws.
ICON_NAMES: Final = (
    "sun",
    "moon",
    "cloud",
    "rain",
    "snow",
    "wind",
    "play",
    "pause",
    "check",
    "x",
    "star",
    "heart",
    "arrow-right",
    "arrow-up-right",
    "chevron-right",
    "calendar",
    "clock",
    "map-pin",
    "plane",
    "truck",
    "credit-card",
    "user",
    "search",
    "bell",
)


def _is_number(value: Any) -> bool:
    # JSON Schema "number": bool is not a number even though Python says it is an int.
    return type(value) is int or type(value) is float


def _string(value: Any) -> str | None:
    return None if type(value) is str else "must be a string"


def _boolean(value: Any) -> str | None:
    return None if type(value) is bool else "must be a boolean"


def _number(value: Any) -> str | None:
    return None if _is_number(value) else "must be a number"


def _number_0_8(value: Any) -> str | None:
    if not _is_number(value):
        return "must be a number"
    return None if 0 <= value <= 8 else "must be between 0 and 8"


def _one_of(*values: str) -> _Check:
    allowed = frozenset(values)

    def check(value: Any) -> str | None:
        if type(value) is str and value in allowed:
            return None
        return f"must be one of {', '.join(values)}"

    return check


def _either(first: _Check, second: _Check) -> _Check:
    def check(value: Any) -> str | None:
        if first(value) is None or second(value) is None:
            return None
        return f"{first(value)}, or {second(value)}"

    return check


def _string_or_number(value: Any) -> str | None:
    return None if type(value) is str or _is_number(value) else "must be a string or a number"


def _exact_object(fields: Mapping[str, _Check], required: tuple[str, ...]) -> _Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return "must be an object"
        for key in required:
            if key not in value:
                return f"needs {key!r}"
        for key, item in value.items():
            field = fields.get(key)
            if field is None:
                return f"has unknown key {key!r}"
            problem = field(item)
            if problem is not None:
                return f"{key!r} {problem}"
        return None

    return check


def _array_of(item_check: _Check) -> _Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list):
            return "must be an array"
        for index, item in enumerate(value):
            problem = item_check(item)
            if problem is not None:
                return f"item {index} {problem}"
        return None

    return check


def _action_object(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "must be an object"
    return None if type(value.get("type")) is str else "needs a string 'type'"


def _cell(value: Any) -> str | None:
    ok = type(value) is str or type(value) is bool or _is_number(value)
    return None if ok else "must be a string, number or boolean"


_SIZES6 = _one_of("sm", "md", "lg", "xl", "2xl", "3xl")
_SIZES3 = _one_of("sm", "md", "lg")
_OPTIONS = _array_of(_exact_object({"label": _string, "value": _string}, ("label", "value")))
_POINT = _exact_object({"label": _string, "value": _number}, ("value",))
_CARD_BUTTON = _exact_object({"label": _string, "$action": _action_object}, ("label",))


class _Schema:
    """One element type's props: which are required and how each is checked."""

    __slots__ = ("props", "required")

    def __init__(self, props: Mapping[str, _Check], required: tuple[str, ...] = ()) -> None:
        self.props = dict(props)
        self.required = required


#: Every element type by ``$type``, with its props (vocabulary reference summary table).
ELEMENT_TYPES: Final[Mapping[str, _Schema]] = {
    "Header": _Schema({"text": _string, "size": _SIZES6}, ("text",)),
    "Text": _Schema(
        {
            "value": _string,
            "size": _SIZES6,
            "weight": _one_of("normal", "medium", "semibold", "bold"),
            "color": _one_of("emphasis", "secondary", "alpha-70", "white", "white-70", "white-50"),
        },
        ("value",),
    ),
    "Caption": _Schema({"value": _string}, ("value",)),
    "Markdown": _Schema({"value": _string}, ("value",)),
    "Image": _Schema(
        {"src": _string, "alt": _string, "size": _either(_SIZES3, _number), "round": _boolean},
        ("src", "alt"),
    ),
    "Divider": _Schema({"flush": _boolean}),
    "Fact": _Schema({"label": _string, "value": _string}, ("label", "value")),
    "Button": _Schema(
        {
            "label": _string,
            "buttonStyle": _one_of("primary", "secondary", "outline", "ghost", "danger"),
            "block": _boolean,
            "submit": _boolean,
        },
        ("label",),
    ),
    "Select": _Schema(
        {"options": _OPTIONS, "placeholder": _string, "label": _string, "name": _string},
        ("options",),
    ),
    "Input": _Schema(
        {"placeholder": _string, "multiline": _boolean, "label": _string, "name": _string}
    ),
    "DatePicker": _Schema(
        {"value": _string, "min": _string, "max": _string, "label": _string, "name": _string}
    ),
    "Checkbox": _Schema(
        {"label": _string, "name": _string, "defaultChecked": _boolean}, ("label",)
    ),
    "RadioGroup": _Schema(
        {"options": _OPTIONS, "name": _string, "label": _string, "defaultValue": _string},
        ("options",),
    ),
    "Form": _Schema({"gap": _number_0_8}),
    "Card": _Schema(
        {
            "title": _string,
            "padding": _number_0_8,
            "background": _string,
            "asForm": _boolean,
            "confirm": _CARD_BUTTON,
            "cancel": _CARD_BUTTON,
        }
    ),
    "Col": _Schema({"gap": _number_0_8, "align": _one_of("start", "center", "end")}),
    "Row": _Schema(
        {
            "gap": _number_0_8,
            "align": _one_of("start", "center", "end"),
            "justify": _one_of("start", "center", "end", "between"),
        }
    ),
    "Spacer": _Schema({}),
    "Badge": _Schema({"value": _string, "variant": _string}, ("value",)),
    "Box": _Schema(
        {
            "width": _string_or_number,
            "height": _string_or_number,
            "radius": _either(_one_of("full"), _number),
            "background": _string,
        }
    ),
    "ListView": _Schema({}),
    "ListViewItem": _Schema({}),
    "Table": _Schema(
        {
            "columns": _array_of(_exact_object({"label": _string}, ("label",))),
            "rows": _array_of(_array_of(_cell)),
        }
    ),
    "Chart": _Schema(
        {
            "variant": _one_of("bar", "line", "sparkline", "area"),
            "data": _array_of(_POINT),
            "series": _array_of(
                _exact_object({"label": _string, "data": _array_of(_POINT)}, ("data",))
            ),
            "stacked": _boolean,
            "showAxis": _boolean,
            "showLegend": _boolean,
            "color": _string,
        },
        ("variant",),
    ),
    "Alert": _Schema(
        {
            "title": _string,
            "description": _string,
            "tone": _one_of("info", "success", "warning", "danger"),
        }
    ),
    "Carousel": _Schema({"label": _string}),
    "Icon": _Schema({"name": _one_of(*ICON_NAMES), "size": _SIZES3}, ("name",)),
}


def _problems_of(element: Any, where: str, out: list[str]) -> None:
    if not isinstance(element, dict):
        out.append(f"{where}: an element must be an object")
        return
    type_name = element.get("$type")
    schema = ELEMENT_TYPES.get(type_name) if type(type_name) is str else None
    if schema is None:
        out.append(f"{where}: unknown $type {type_name!r}")
    else:
        where = f"{where}<{type_name}>"
        out.extend(
            f"{where}: missing required prop {key!r}"
            for key in schema.required
            if key not in element
        )
        for key, value in element.items():
            if key in RESERVED_KEYS:
                continue
            check = schema.props.get(key)
            if check is None:
                out.append(f"{where}: unknown prop {key!r}")
                continue
            problem = check(value)
            if problem is not None:
                out.append(f"{where}: prop {key!r} {problem}")
    if "$action" in element:
        problem = _action_object(element["$action"])
        if problem is not None:
            out.append(f"{where}: $action {problem}")
    children = element.get("children")
    if "children" not in element:
        return
    if isinstance(children, list):  # frozen elements are dict and list subclasses
        for index, child in enumerate(children):
            _problems_of(child, f"{where}.children[{index}]", out)
    else:
        _problems_of(children, f"{where}.children", out)


def validate_element(element: Any) -> list[str]:
    """Check an element tree against the vocabulary.

    Args:
        element: an element (``{"$type": ..., ...props, "children"?, "$action"?}``), with
            its whole subtree.

    Returns:
        One sentence per problem, each naming where it is (``$<Row>.children[2]<Image>``);
        empty when every element of the tree is valid.
    """
    out: list[str] = []
    _problems_of(element, "$", out)
    return out


#: A2UI basic-catalog icon names (v0.8 and v0.9/v1.0) onto the vocabulary's nearest icon.
#: Names without a counterpart are absent; vocabulary names map onto themselves.
ICON_FROM_A2UI: Final[Mapping[str, str]] = {
    **{name: name for name in ICON_NAMES},
    "accountCircle": "user",
    "arrowForward": "arrow-right",
    "calendarToday": "calendar",
    "close": "x",
    "event": "calendar",
    "favorite": "heart",
    "locationOn": "map-pin",
    "notifications": "bell",
    "payment": "credit-card",
    "person": "user",
    "schedule": "clock",
    "starHalf": "star",
}

#: A2UI ``align`` values onto Row/Col ``align``; ``None`` means valid A2UI, no counterpart.
ALIGN_FROM_A2UI: Final[Mapping[str, str | None]] = {
    "start": "start",
    "center": "center",
    "end": "end",
    "stretch": None,
    "baseline": None,
}

#: A2UI ``justify`` values onto Row ``justify``; ``None`` means valid A2UI, no counterpart.
JUSTIFY_FROM_A2UI: Final[Mapping[str, str | None]] = {
    "start": "start",
    "center": "center",
    "end": "end",
    "between": "between",
    "spaceBetween": "between",
    "spaceAround": None,
    "spaceEvenly": None,
    "stretch": None,
}

#: Button ``buttonStyle`` values the vocabulary accepts.
BUTTON_STYLES: Final = frozenset({"primary", "secondary", "outline", "ghost", "danger"})

#: A2UI Button ``variant`` onto ``buttonStyle``; ``None`` means the renderer's default.
BUTTON_STYLE_FROM_VARIANT: Final[Mapping[str, str | None]] = {
    "default": None,
    "primary": "primary",
    "borderless": "ghost",
}

#: Image ``size`` strings the vocabulary accepts (numbers are accepted too).
IMAGE_SIZES: Final = frozenset({"sm", "md", "lg"})
