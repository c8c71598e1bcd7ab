"""Wire keys in either spelling: snake_case field names rewritten to AG-UI's camelCase.

Owns one rule: a mapping meant as an AG-UI event or message may spell its declared
fields as the wire does (``threadId``) or as the official Python SDK's
``model_dump()`` does by default (``thread_id``); both mean the same field. Only the
fields our wire types declare are renamed, at every level where a wire type is nested
(a run input's messages, a message's tool calls); free-form values (activity content,
state, tool arguments, forwarded props) are passed through untouched, so an
``a2ui_operations`` key inside content stays as it is.

The tables come from the msgspec Structs of :mod:`a2ui_stream._wire.events` and
:mod:`a2ui_stream._wire.messages`, read with :mod:`msgspec.inspect` once, at first
use. Imports only msgspec and those modules; does no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple, TypeAlias, get_args

import msgspec.inspect as mi

from a2ui_stream._wire.events import EXTRA_WIRE_NAME, KnownEvent
from a2ui_stream._wire.messages import Context, Message, RunAgentInput, Tool

__all__ = ["camel_keys", "camel_message", "camel_value", "dumped", "plain"]

JSON: TypeAlias = Any


class _Shape:
    """How to rename one Struct's keys: snake -> camel, and the shapes of nested fields."""

    __slots__ = ("nested", "renames")

    def __init__(self) -> None:
        self.renames: dict[str, str] = {}
        #: wire name -> how its value nests wire types (a shape, or a union by tag)
        self.nested: dict[str, _Nest] = {}


class _Nest:
    """A field whose value holds wire types: one Struct, a tagged union, or lists of them."""

    __slots__ = ("by_tag", "is_list", "shape", "tag_field")

    def __init__(
        self,
        *,
        shape: _Shape | None = None,
        tag_field: str | None = None,
        by_tag: dict[str, _Shape] | None = None,
        is_list: bool = False,
    ) -> None:
        self.shape = shape
        self.tag_field = tag_field
        self.by_tag = by_tag or {}
        self.is_list = is_list


_SHAPES: dict[type[Any], _Shape] = {}


def _shape(cls: type[Any]) -> _Shape:
    found = _SHAPES.get(cls)
    if found is not None:
        return found
    shape = _Shape()
    _SHAPES[cls] = shape  # before recursing: wire types never nest themselves, but be safe
    info = mi.type_info(cls)
    fields = info.fields if isinstance(info, mi.StructType) else ()
    for field in fields:
        if field.encode_name == EXTRA_WIRE_NAME:
            continue
        if field.name != field.encode_name:
            shape.renames[field.name] = field.encode_name
        nest = _nest(field.type)
        if nest is not None:
            shape.nested[field.encode_name] = nest
    return shape


def _nest(kind: mi.Type) -> _Nest | None:
    """The wire types a field's declared type nests, if any (free-form values: none)."""
    if isinstance(kind, mi.UnionType):
        structs = [t for t in kind.types if isinstance(t, (mi.StructType, mi.ListType))]
        lists = [t for t in structs if isinstance(t, mi.ListType)]
        if lists:
            return _nest(lists[0])
        found = [t for t in structs if isinstance(t, mi.StructType)]
        if len(found) == 1 and not found[0].tag_field:
            return _Nest(shape=_shape(found[0].cls))
        if found and found[0].tag_field:
            return _Nest(
                tag_field=found[0].tag_field,
                by_tag={str(t.tag): _shape(t.cls) for t in found},
            )
        return None
    if isinstance(kind, mi.ListType):
        inner = _nest(kind.item_type)
        if inner is None:
            return None
        inner.is_list = True
        return inner
    if isinstance(kind, mi.StructType):
        if kind.tag_field:
            return _Nest(tag_field=kind.tag_field, by_tag={str(kind.tag): _shape(kind.cls)})
        return _Nest(shape=_shape(kind.cls))
    return None


def _rename(value: JSON, shape: _Shape) -> JSON:
    if not isinstance(value, Mapping):
        return value
    renames = shape.renames
    nested = shape.nested
    out: dict[str, JSON] = {}
    for key, item in value.items():
        wire = renames.get(key, key) if type(key) is str else key
        if wire in out and wire != key:
            continue  # both spellings given: the wire spelling wins
        nest = nested.get(wire)
        out[wire] = item if nest is None else _nested(item, nest)
    return out


def _nested(value: JSON, nest: _Nest) -> JSON:
    if nest.is_list:
        if not isinstance(value, list | tuple):
            return value
        return [_one(item, nest) for item in value]
    return _one(value, nest)


def _one(value: JSON, nest: _Nest) -> JSON:
    if nest.shape is not None:
        return _rename(value, nest.shape)
    if isinstance(value, Mapping) and nest.tag_field is not None:
        # An SDK enum (``EventType.RUN_STARTED``) tags by its value.
        tag = getattr(value.get(nest.tag_field), "value", value.get(nest.tag_field))
        shape = nest.by_tag.get(tag) if isinstance(tag, str) else None
        if shape is not None:
            return _rename(value, shape)
    return value


class _Tables(NamedTuple):
    """The shapes of the wire types a caller's mapping may stand for."""

    events: _Nest
    message: _Nest
    by_type: dict[type[Any], _Shape]


@cache
def _tables() -> _Tables:
    """The shapes, read off the Structs at first use.

    ``msgspec.inspect`` resolves every annotation of every wire type to read them,
    which cost more than the rest of ``import a2ui_stream`` put together, for mappings
    only a caller's ``feed_events``, a run input or a history ever brings.
    """
    events = _Nest(
        tag_field="type",
        by_tag={str(cls.__struct_config__.tag): _shape(cls) for cls in get_args(KnownEvent)},
    )
    message = _nest(mi.type_info(Message)) or _Nest()
    by_type = {cls: _shape(cls) for cls in (RunAgentInput, Tool, Context)}
    return _Tables(events, message, by_type)


def camel_keys(event: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """An event mapping with its declared fields in wire (camelCase) spelling.

    Args:
        event: an event as a mapping, in either spelling (or a mix).

    Returns:
        The same mapping when its ``type`` is not an AG-UI 1.0 event, otherwise a
        new dict whose declared keys (at every nested wire type) are camelCase.
    """
    return _one(event, _tables().events)  # type: ignore[no-any-return]


def camel_message(message: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """A message mapping (tagged by ``role``) with its declared fields in wire spelling."""
    return _one(message, _tables().message)  # type: ignore[no-any-return]


def camel_value(value: JSON, kind: type[Any]) -> JSON:
    """A mapping meant as ``kind`` (a tool, a context entry, a run input) in wire spelling."""
    return _rename(value, _tables().by_type[kind])


def dumped(value: Any) -> Any:
    """An object of another AG-UI library as JSON-ready values, anything else as it is.

    Anything with ``model_dump`` that is not a mapping (the official SDK's pydantic
    models) is dumped as JSON with its wire aliases and without ``None`` fields, so it
    reads like the same value sent over the wire.
    """
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, Mapping):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return value


def plain(value: Any) -> Any:
    """A free-form value with every SDK object in it dumped (see :func:`dumped`).

    Mappings become dicts and tuples lists, so what goes out is JSON-ready however it
    came in; keys are kept as they are (free-form values have no wire spelling).
    """
    value = dumped(value)
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value
