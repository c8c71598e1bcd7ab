"""A2UI v0.8 payloads rewritten into v0.9 spelling.

Owns every v0.8 rule (reference a2ui-protocol §2-3, "Renames v0.8->v0.9"): unwrapping
``{"Text": {...}}`` components, ``explicitList`` children to an id list, ``literal*``
wrappers to plain values, renamed props and types, ``{name, context: [{key, value}]}``
actions, and typed ``contents`` data entries to a plain object. After this module no
stage knows v0.8 existed. It works on plain JSON values and returns plain values
(component triples, not :class:`~a2ui_stream.a2ui.Component`), so that
:mod:`a2ui_stream.a2ui`, which builds the operations, can import it and not the reverse.

Must not import :mod:`a2ui_stream.a2ui` or :mod:`a2ui_stream._wire.envelope` (import only
:mod:`a2ui_stream._wire.problems` and :mod:`a2ui_stream._wire.diagnostics`), nor state, conversion
or shell modules. Does no I/O, no logging. Never mutates its input: rewritten props are
new dicts.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from a2ui_stream._wire.codes import Code
from a2ui_stream._wire.diagnostics import Diagnostic, Severity
from a2ui_stream._wire.frozen import DICTS, LISTS
from a2ui_stream._wire.problems import bad_component, problem

__all__ = ["ComponentTriple", "Seed", "rewrite_components", "rewrite_contents"]

ComponentTriple: TypeAlias = tuple[str, str, dict[str, Any]]
"""One rewritten component: ``(id, v0.9 type name, v0.9 props)``."""

Seed: TypeAlias = tuple[str, Any]
"""An initial data model write ``(absolute pointer, value)`` found in a bound value."""

_LITERALS = ("literalString", "literalNumber", "literalBoolean", "literalArray")
_TYPE_NAMES = {"MultipleChoice": "ChoicePicker"}
_COMMON_RENAMES = {"usageHint": "variant", "distribution": "justify", "alignment": "align"}
_RENAMES: dict[str, dict[str, str]] = {
    "Modal": {"entryPointChild": "trigger", "contentChild": "content"},
    "Tabs": {"tabItems": "tabs"},
    "TextField": {"text": "value", "textFieldType": "variant"},
    "MultipleChoice": {"selections": "value", "variant": "displayStyle"},
    "Slider": {"minValue": "min", "maxValue": "max"},
    "Image": {"altText": "description"},
}
_IMAGE_FITS = {"scale-down": "scaleDown"}

_DATA_KEYS = ("valueString", "valueNumber", "valueBoolean", "valueMap")
#: Nesting of ``valueMap`` entries followed; deeper maps are dropped with a warning.
#: Same bound as the converter's element depth (upstream ``DEPTH_CAP``), and it keeps
#: hostile input from exhausting Python's recursion limit.
_MAX_DATA_DEPTH = 32
#: Nesting of a component's props rewritten; deeper values are kept as sent. The
#: default of ``Limits.max_data_depth``, which refuses such a component anyway.
_MAX_REWRITE_DEPTH = 64


def rewrite_components(
    items: list[Any], *, index: int, where: str, surface_id: str
) -> tuple[list[ComponentTriple], list[Diagnostic], tuple[Seed, ...]]:
    """Unwrap a v0.8 ``surfaceUpdate`` component list into v0.9 spelling.

    Args:
        items: the ``components`` list as received.
        index: the operation's position in its list (for diagnostics).
        where: the JSON path of the list below the operation.
        surface_id: the surface the list belongs to.

    Returns:
        The usable components in message order, the problems with the others (each
        left out), and the data writes implied by bound values that carry both a
        literal and a path ("initialise the model at path, then bind").
    """
    out: list[ComponentTriple] = []
    problems: list[Diagnostic] = []
    seeds: list[Seed] = []
    for j, item in enumerate(items):
        wrapper: Any = item.get("component") if type(item) in DICTS else None
        cid = item.get("id") if type(item) in DICTS else None
        if (
            type(cid) is str
            and cid
            and type(wrapper) in DICTS
            and len(wrapper) == 1
            and type(inner := next(iter(wrapper.values()))) in DICTS
        ):
            ctype: str = next(iter(wrapper))
            props = _props(ctype, inner, seeds)
            if "weight" in item:
                props["weight"] = item["weight"]
            out.append((cid, _TYPE_NAMES.get(ctype, ctype), props))
            continue
        problems.append(bad_component(item, "v0.8", index, f"{where}[{j}]", surface_id))
    return out, problems, tuple(seeds)


def rewrite_contents(
    entries: list[Any], *, index: int, where: str, problems: list[Diagnostic]
) -> tuple[Any, bool]:
    """Turn a v0.8 ``dataModelUpdate`` ``contents`` list into a value to write.

    Args:
        entries: the typed ``{key, valueString|valueNumber|valueBoolean|valueMap}`` list.
        index: the operation's position in its list (for diagnostics).
        where: the JSON path of the list below the operation.
        problems: receives a warning per entry left out.

    Returns:
        ``(value, merge)``: an object whose keys are set one by one under the path
        (``merge`` true), or, for a single ``"."`` entry, the primitive to set at the
        path itself (``merge`` false, as web_core v0.8 does).
    """
    value = _contents(entries, index=index, where=where, problems=problems, depth=0)
    if len(entries) == 1 and list(value) == ["."]:
        return value["."], False
    return value, True


def _props(ctype: str, inner: dict[str, Any], seeds: list[Seed]) -> dict[str, Any]:
    """Rewrite one v0.8 component's props into v0.9 names and plain values."""
    renames = _RENAMES.get(ctype, {})
    props: dict[str, Any] = {}
    for key, value in inner.items():
        if key == "children":
            new = _children(value)
        elif key == "action":
            new = _action(value, seeds)
        else:
            new = _value(value, seeds)
        props[renames.get(key) or _COMMON_RENAMES.get(key, key)] = new
    if ctype == "Button" and "primary" in props:
        if props.pop("primary") is True:
            props.setdefault("variant", "primary")
    elif ctype == "MultipleChoice":
        # v0.8 bounds the selection count; v0.9 names the two cases.
        single = props.pop("maxAllowedSelections", None) == 1
        props["variant"] = "mutuallyExclusive" if single else "multipleSelection"
    elif ctype == "Image" and props.get("fit") in _IMAGE_FITS:
        props["fit"] = _IMAGE_FITS[props["fit"]]
    return props


def _value(value: Any, seeds: list[Seed], depth: int = 0) -> Any:
    """Turn v0.8 BoundValues into plain literals or ``{"path"}`` bindings, recursively.

    Below :data:`_MAX_REWRITE_DEPTH` levels a value is kept as sent: the recursion stays
    short whatever the input, and a component that deep is refused by the surface's
    ``max_data_depth`` check (whose default is the same number) before anything reads it.
    """
    if type(value) in LISTS:
        if depth >= _MAX_REWRITE_DEPTH:
            return value
        return [_value(item, seeds, depth + 1) for item in value]
    if type(value) not in DICTS:
        return value
    for literal in _LITERALS:
        if literal in value:
            path = value.get("path")
            if type(path) is str:
                # Literal and path together: initialise the model, then bind (v0.8 spec).
                seeds.append((path if path.startswith("/") else f"/{path}", value[literal]))
                return {"path": path}
            return value[literal]
    if depth >= _MAX_REWRITE_DEPTH:
        return value
    return {key: _value(item, seeds, depth + 1) for key, item in value.items()}


def _children(value: Any) -> Any:
    """``{"explicitList": [...]}`` -> id list; ``dataBinding`` template -> ``path`` template.

    The template stays wrapped as ``{"template": {"componentId", "path"}}`` so the converter
    can tell a v0.8 template (item-scoped ``/name`` bindings) from a v0.9 one.
    """
    if type(value) in DICTS:
        if type(value.get("explicitList")) in LISTS:
            return value["explicitList"]
        template = value.get("template")
        if type(template) in DICTS:
            return {
                "template": {
                    "componentId": template.get("componentId"),
                    "path": template.get("dataBinding", template.get("path")),
                }
            }
    return value


def _action(value: Any, seeds: list[Seed]) -> Any:
    """``{name, context: [{key, value}]}`` -> ``{"event": {name, context: {key: value}}}``."""
    if type(value) not in DICTS or "name" not in value:
        return _value(value, seeds)
    context = value.get("context")
    event: dict[str, Any] = {"name": value["name"]}
    if type(context) in LISTS:
        event["context"] = {
            entry["key"]: _value(entry.get("value"), seeds)
            for entry in context
            if type(entry) in DICTS and type(entry.get("key")) is str
        }
    return {"event": event}


def _contents(
    entries: list[Any], *, index: int, where: str, problems: list[Diagnostic], depth: int
) -> dict[str, Any]:
    """Turn a typed ``contents`` adjacency list into a plain object."""
    out: dict[str, Any] = {}
    for j, entry in enumerate(entries):
        here = f"{where}[{j}]"
        key = entry.get("key") if type(entry) in DICTS else None
        found = next((name for name in _DATA_KEYS if name in entry), None) if key else None
        if type(key) is not str or found is None:
            problems.append(
                problem(
                    Code.OP_BAD_CONTENTS,
                    f"Data entry at {here} needs a string key and one typed value "
                    f"({', '.join(_DATA_KEYS)}); it was left out.",
                    index=index,
                    where=here,
                    severity=Severity.WARNING,
                )
            )
            continue
        value = entry[found]
        if found == "valueMap":
            if type(value) not in LISTS or depth >= _MAX_DATA_DEPTH:
                problems.append(
                    problem(
                        Code.OP_BAD_CONTENTS,
                        f"valueMap at {here} is not a list or nests too deeply; it was left out.",
                        index=index,
                        where=f"{here}.valueMap",
                        severity=Severity.WARNING,
                    )
                )
                continue
            value = _contents(
                value, index=index, where=f"{here}.valueMap", problems=problems, depth=depth + 1
            )
        out[key] = value
    return out
