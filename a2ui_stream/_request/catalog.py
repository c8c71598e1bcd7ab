"""Component catalogs: what a client can draw, and the context entry that tells the agent.

Owns :class:`Catalog` (a catalog document: id, components as JSON Schemas, optional
functions and instructions), the two A2UI basic catalogs written as this project's own
data from the protocol's property tables (``shared/reference/a2ui-protocol.md``
section 3), and :func:`catalog_context`, the schema entry upstream agents read
(``shared/reference/request-side.md`` section 2).

Must not import: state, conversion or shell modules. Does no I/O (callers read catalog
files and hand over the bytes), no logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec

from a2ui_stream._request.guide import SCHEMA_CONTEXT_DESCRIPTION
from a2ui_stream._wire.events import Context
from a2ui_stream.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "BASIC_CATALOG_IDS",
    "Catalog",
    "basic_catalog",
    "catalog_context",
]

JsonSchema = dict[str, Any]


class Catalog(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
    rename={
        "schema": "$schema",
        "id": "$id",
        "defs": "$defs",
        "catalog_id": "catalogId",
        "protocol_version": "protocolVersion",
    },
):
    """A client's component catalog, as a catalog JSON document describes it.

    Field order is the wire order: ``$schema``, ``$id``, ``$defs``, ``catalogId``,
    ``protocolVersion``, ``title``, ``description``, ``instructions``, ``components``,
    ``functions``, ``theme``; absent optional fields are left out. Unknown top-level keys
    are refused, as the catalog definition schema does. The dicts are never mutated
    after construction: treat them as read-only.

    Attributes:
        catalog_id: the catalog's identifier (conventionally a URI); never empty.
        components: component name to that component's JSON Schema.
        schema: the document's ``$schema``, if any.
        id: the document's ``$id``, if any.
        defs: the document's ``$defs``, if any.
        protocol_version: the A2UI version without a ``v`` (``"1.0"``); absent means 0.9.
        title: a human title.
        description: a human description.
        instructions: Markdown guidance for the model.
        functions: the catalog's functions (a name map in v1.0, a list in v0.9).
        theme: the v0.9 theme properties schema.
    """

    schema: str | None = None
    id: str | None = None
    defs: dict[str, Any] | None = None
    catalog_id: str
    protocol_version: str | None = None
    title: str | None = None
    description: str | None = None
    instructions: str | None = None
    components: dict[str, JsonSchema]
    functions: dict[str, Any] | list[Any] | None = None
    theme: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        """Refuse an empty catalog id, which no reader can use.

        Raises:
            UsageError: ``catalog_id`` is empty.
        """
        if not self.catalog_id:
            raise UsageError("a catalog needs a non-empty catalogId")

    @classmethod
    def from_json(cls, document: bytes | str) -> Catalog:
        """Read a catalog JSON document (the caller reads the file).

        Args:
            document: the document's bytes or text.

        Returns:
            The catalog.

        Raises:
            UsageError: the document is not JSON, or not a catalog (wrong types, no
                ``catalogId`` or ``components``, an unknown top-level key).
        """
        try:
            return _CATALOG_DECODER.decode(document)
        except msgspec.DecodeError as exc:
            raise UsageError(f"not a catalog document: {exc}") from exc

    @classmethod
    def from_dict(cls, document: Mapping[str, Any]) -> Catalog:
        """Read a catalog from an already-decoded JSON object.

        Args:
            document: the catalog document as a mapping (camelCase keys, as on disk).

        Returns:
            The catalog.

        Raises:
            UsageError: the mapping is not a catalog (see :meth:`from_json`).
        """
        try:
            return msgspec.convert(document, cls)
        except msgspec.ValidationError as exc:
            raise UsageError(f"not a catalog document: {exc}") from exc

    def to_json(self) -> bytes:
        """Serialise as compact JSON in wire key order.

        Returns:
            The catalog document's bytes; :meth:`from_json` reads them back equal.
        """
        return _ENCODER.encode(self)

    def to_dict(self) -> dict[str, Any]:
        """Return the catalog document as a fresh JSON-ready dict in wire key order.

        Returns:
            A new dict each call (its nested schemas are the catalog's own: do not
            mutate them).
        """
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result


_CATALOG_DECODER: Final = msgspec.json.Decoder(Catalog)
_ENCODER: Final = msgspec.json.Encoder()


def catalog_context(catalog: Catalog) -> Context:
    """Build the schema context entry for a catalog.

    Upstream's middleware reads ``catalogId`` from the value and the Python adapters put
    the whole value in front of the model under "Available Components".

    Args:
        catalog: the catalog the client's renderer holds.

    Returns:
        ``Context`` whose description is :data:`SCHEMA_CONTEXT_DESCRIPTION` and whose
        value is the catalog's compact JSON, ``catalogId`` and ``components`` on top.

    Raises:
        TypeError: ``catalog`` is not a :class:`Catalog` (``basic_catalog()`` gives one).
    """
    if not isinstance(catalog, Catalog):
        message = (
            f"catalog must be a Catalog (basic_catalog() gives one), not {type(catalog).__name__}"
        )
        raise TypeError(message)
    return Context(description=SCHEMA_CONTEXT_DESCRIPTION, value=catalog.to_json().decode())


# --- The basic catalogs -------------------------------------------------------------
# Written from the property tables of the A2UI basic catalog (v0.9 and v1.0; protocol
# doc section 3). Shared shapes (DynamicString, ChildList, Action...) sit once in the
# document's own `$defs` and components refer to them as `#/$defs/<Name>`: the document
# is self-contained (a model reads it as it is; a validator needs no other file) and
# about a third of the size of inlining them. The spec's own catalog files refer to an
# external common_types.json instead; a component schema here resolves against the
# whole catalog document.

BASIC_CATALOG_IDS: Final[Mapping[str, str]] = {
    "v0.9": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
    "v1.0": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
}
"""Catalog id of the basic catalog per A2UI version."""

_ICON_NAMES: Final = (
    "accountCircle",
    "add",
    "arrowBack",
    "arrowForward",
    "attachFile",
    "calendarToday",
    "call",
    "camera",
    "check",
    "close",
    "delete",
    "download",
    "edit",
    "event",
    "error",
    "fastForward",
    "favorite",
    "favoriteOff",
    "folder",
    "help",
    "home",
    "info",
    "locationOn",
    "lock",
    "lockOpen",
    "mail",
    "menu",
    "moreVert",
    "moreHoriz",
    "notificationsOff",
    "notifications",
    "pause",
    "payment",
    "person",
    "phone",
    "photo",
    "play",
    "print",
    "refresh",
    "rewind",
    "search",
    "send",
    "settings",
    "share",
    "shoppingCart",
    "skipNext",
    "skipPrevious",
    "star",
    "starHalf",
    "starOff",
    "stop",
    "upload",
    "visibility",
    "visibilityOff",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
    "warning",
)

_STRING: Final[JsonSchema] = {"type": "string"}
_BOOLEAN: Final[JsonSchema] = {"type": "boolean"}
_NUMBER: Final[JsonSchema] = {"type": "number"}


def _enum(values: str, default: str, text: str) -> JsonSchema:
    return {"description": text, "enum": values.split(), "default": default}


def _with(schema: JsonSchema, text: str) -> JsonSchema:
    return {"description": text, **schema}


def _obj(properties: JsonSchema, required: tuple[str, ...] = ()) -> JsonSchema:
    schema: JsonSchema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def _ref(name: str) -> JsonSchema:
    return {"$ref": f"#/$defs/{name}"}


class _Shapes:
    """The shared value shapes of one A2UI version: ``$defs`` plus references to them."""

    def __init__(self, version: str) -> None:
        v1 = version == "v1.0"
        if v1:
            # v1.0 bindings and calls may also be spelled with "@" keys (protocol doc section 0).
            binding: JsonSchema = {
                "type": "object",
                "properties": {"path": _STRING, "@path": _STRING},
                "minProperties": 1,
                "maxProperties": 1,
                "additionalProperties": False,
            }
            call: JsonSchema = {
                "type": "object",
                "properties": {
                    "call": _STRING,
                    "@call": _STRING,
                    "args": {"type": "object"},
                    "catalogId": _STRING,
                },
                "oneOf": [{"required": ["call"]}, {"required": ["@call"]}],
                "additionalProperties": False,
            }
        else:
            binding = _obj({"path": _STRING}, ("path",))
            call = _obj(
                {"call": _STRING, "args": {"type": "object"}, "returnType": _STRING}, ("call",)
            )
        self.binding = _ref("DataBinding")
        self.call = _ref("FunctionCall")
        self.string = _ref("DynamicString")
        self.number = _ref("DynamicNumber")
        self.boolean = _ref("DynamicBoolean")
        self.string_list = _ref("DynamicStringList")
        self.child = _ref("ComponentId")
        self.children = _ref("ChildList")
        self.action = _ref("Action")
        self.checks: JsonSchema = {"type": "array", "items": _ref("CheckRule")}
        event_props: JsonSchema = {"name": _STRING, "context": {"type": "object"}}
        if v1:
            event_props["userMessage"] = self.string
        rule = (
            _obj(
                {"condition": {"anyOf": [self.binding, self.call]}, "message": _STRING},
                ("condition",),
            )
            if v1
            else _obj({"condition": self.boolean, "message": _STRING}, ("condition", "message"))
        )
        accessibility: JsonSchema = {"label": self.string, "description": self.string}
        if v1:
            accessibility["live"] = _enum("off polite assertive", "off", "live region politeness")
            accessibility["hidden"] = self.boolean
        self.defs: JsonSchema = {
            "DataBinding": _with(
                binding, "a JSON Pointer into the data; relative inside templates"
            ),
            "FunctionCall": _with(call, "a call of a catalog function"),
            "DynamicString": {"anyOf": [_STRING, self.binding, self.call]},
            "DynamicNumber": {"anyOf": [_NUMBER, self.binding, self.call]},
            "DynamicBoolean": {"anyOf": [_BOOLEAN, self.binding, self.call]},
            "DynamicStringList": {
                "anyOf": [{"type": "array", "items": _STRING}, self.binding, self.call],
            },
            "ComponentId": {"type": "string", "description": "the id of another component"},
            "ChildList": {
                "description": "ids of the children, or a template repeated per item of a list",
                "anyOf": [
                    {"type": "array", "items": _STRING},
                    _obj({"componentId": _STRING, "path": _STRING}, ("componentId", "path")),
                ],
            },
            "Action": {
                "description": "on press: an event sent to the agent, or a local function call",
                "anyOf": [
                    _obj({"event": _obj(event_props, ("name",))}, ("event",)),
                    _obj({"functionCall": self.call}, ("functionCall",)),
                ],
            },
            "CheckRule": _with(rule, "a validation rule; a failing rule shows its message"),
            "Accessibility": _obj(accessibility),
        }
        self.common: JsonSchema = {
            "id": _STRING,
            "accessibility": _ref("Accessibility"),
            "weight": _with(_NUMBER, "flex grow inside a Row or Column"),
        }
        if v1:
            self.common["catalogId"] = _STRING
            self.common["metadata"] = {"type": "object"}


def _components(s: _Shapes, version: str) -> dict[str, JsonSchema]:
    v1 = version == "v1.0"
    justify = _enum(
        "start center end spaceAround spaceBetween spaceEvenly stretch",
        "start",
        "main-axis arrangement",
    )
    align = _enum("start center end stretch", "stretch", "cross-axis alignment")
    text_variants = "caption body" if v1 else "h1 h2 h3 h4 h5 caption body"
    icon_name: JsonSchema = {
        "anyOf": [
            {"enum": list(_ICON_NAMES)},
            _obj({"svgPath": s.string if v1 else _STRING}, ("svgPath",)),
            s.binding,
        ],
    }
    field_variants = _enum("shortText longText number obscured", "shortText", "input kind")
    text_field: JsonSchema = {"label": s.string, "value": s.string, "variant": field_variants}
    if v1:
        text_field["placeholder"] = s.string
    else:
        text_field["validationRegexp"] = _STRING
    text_field["checks"] = s.checks
    slider: JsonSchema = {
        "label": s.string,
        "min": {**_NUMBER, "default": 0},
        "max": _NUMBER,
        "value": s.number,
    }
    if v1:
        slider["steps"] = {"type": "integer", "minimum": 1, "description": "snap divisions"}
    slider["checks"] = s.checks
    video: JsonSchema = {"url": s.string}
    if v1:
        video["posterUrl"] = s.string
    table: dict[str, tuple[str, JsonSchema, tuple[str, ...]]] = {
        "Text": (
            "Text, with simple Markdown.",
            {"text": s.string, "variant": _enum(text_variants, "body", "text style")},
            ("text",),
        ),
        "Image": (
            "A picture from a URL.",
            {
                "url": s.string,
                "description": s.string,
                "fit": _enum("contain cover fill none scaleDown", "fill", "how it fills its box"),
                "variant": _enum(
                    "icon avatar smallFeature mediumFeature largeFeature header",
                    "mediumFeature",
                    "size and role",
                ),
            },
            ("url",),
        ),
        "Icon": ("A named symbol or an SVG path.", {"name": icon_name}, ("name",)),
        "Video": ("A video player.", video, ("url",)),
        "AudioPlayer": (
            "An audio player.",
            {"url": s.string, "description": s.string},
            ("url",),
        ),
        "Row": (
            "Children side by side.",
            {"children": s.children, "justify": justify, "align": align},
            ("children",),
        ),
        "Column": (
            "Children stacked top to bottom.",
            {"children": s.children, "justify": justify, "align": align},
            ("children",),
        ),
        "List": (
            "A scrolling list of children.",
            {
                "children": s.children,
                "direction": _enum("vertical horizontal", "vertical", "scroll direction"),
                "align": align,
            },
            ("children",),
        ),
        "Card": ("A framed container around one child.", {"child": s.child}, ("child",)),
        "Tabs": (
            "Tabs, each showing one child.",
            {
                "tabs": {
                    "type": "array",
                    "items": _obj({"title": s.string, "child": s.child}, ("title", "child")),
                },
            },
            ("tabs",),
        ),
        "Modal": (
            "A dialog opened by its trigger.",
            {"trigger": s.child, "content": s.child},
            ("trigger", "content"),
        ),
        "Divider": (
            "A separating line.",
            {"axis": _enum("horizontal vertical", "horizontal", "line direction")},
            (),
        ),
        "Button": (
            "A pressable button showing its child.",
            {
                "child": s.child,
                "action": s.action,
                "variant": _enum("default primary borderless", "default", "emphasis"),
                "checks": s.checks,
            },
            ("child", "action"),
        ),
        "TextField": ("A text input.", text_field, ("label",)),
        "CheckBox": (
            "A labelled checkbox.",
            {"label": s.string, "value": s.boolean, "checks": s.checks},
            ("label", "value"),
        ),
        "ChoicePicker": (
            "A choice among options.",
            {
                "label": s.string,
                "options": {
                    "type": "array",
                    "items": _obj({"label": s.string, "value": _STRING}, ("label", "value")),
                },
                "value": s.string_list,
                "variant": _enum(
                    "multipleSelection mutuallyExclusive", "mutuallyExclusive", "how many"
                ),
                "displayStyle": _enum("checkbox chips", "checkbox", "look of the options"),
                "filterable": {**_BOOLEAN, "default": False},
                "checks": s.checks,
            },
            ("options", "value"),
        ),
        "Slider": ("A numeric slider.", slider, ("max", "value")),
        "DateTimeInput": (
            "A date and/or time input; the value is ISO 8601.",
            {
                "value": s.string,
                "enableDate": {**_BOOLEAN, "default": False},
                "enableTime": {**_BOOLEAN, "default": False},
                "min": s.string,
                "max": s.string,
                "label": s.string,
                "checks": s.checks,
            },
            ("value",),
        ),
    }
    return {
        name: {
            "type": "object",
            "description": text,
            "properties": {"component": {"const": name}, **s.common, **props},
            "required": ["component", "id", *required],
            "additionalProperties": False,
        }
        for name, (text, props, required) in table.items()
    }


def basic_catalog(version: str) -> Catalog:
    """Return the A2UI basic catalog of a version: its id and its 18 components.

    Args:
        version: ``"v0.9"`` or ``"v1.0"``.

    Returns:
        A new :class:`Catalog` each call, with ``protocolVersion`` ``"1.0"`` for v1.0.

    Raises:
        UsageError: the version has no basic catalog here.
    """
    catalog_id = BASIC_CATALOG_IDS.get(version)
    if catalog_id is None:
        known = ", ".join(BASIC_CATALOG_IDS)
        raise UsageError(f"no basic catalog for A2UI version {version!r} (known: {known})")
    shapes = _Shapes(version)
    return Catalog(
        defs=shapes.defs,
        catalog_id=catalog_id,
        protocol_version="1.0" if version == "v1.0" else None,
        title=f"A2UI basic catalog ({version})",
        components=_components(shapes, version),
    )
