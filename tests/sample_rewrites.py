"""Test helper: A2UI sample streams rewritten out of every deliberate difference.

The samples use features the README's compatibility table lists as deliberate
differences (spec Buttons with a Text ``child``, Card ``child``, bare templates,
relative bindings, function calls, ``Icon`` and friends, ``stretch`` alignment, ...),
so upstream's client and ours differ on nearly every one of them, and a check that they
"differ only where a listed feature is used" cannot see a bug inside such a sample.
:func:`rewritten` turns each v0.9/v1.0 sample into the same screen said only in the
profile where upstream's output is valid vocabulary, one rule per table row, so the two
must agree byte for byte on what is left: layout, text, bindings, templates, actions,
incremental updates and deletes of the real samples.

The rules (README row in brackets): a Button's Text ``child`` becomes its ``label``
and any other ``child`` becomes ``children`` [Button label, Single-child refs]; a bare
``{componentId, path}`` becomes ``{"template": ...}`` [Templates]; relative paths
become absolute [Bindings]; a function call becomes a literal string [Function calls];
``action.event`` becomes ``{name, context}`` [``$action``]; types upstream does not
know become a Text naming them, ``List`` a Column, and ``Tabs`` / ``Modal`` a Column of
their parts [Icons, List, Tabs, ...]; Image gets ``alt`` [Image ``alt``], CheckBox a
``label`` [CheckBox ``label``]; ``align`` / ``justify`` outside start, center, end go
[Row/Col ``align``]; ``variant`` goes (spec Button and TextField variants) [Button
``buttonStyle``, TextField ``multiline``]; numbers in the data model become strings
[Text value]; updates that delete data go [Data deletes].
"""

from __future__ import annotations

from typing import Any

__all__ = ["rewritten"]

JSON = Any
_UNKNOWN_UPSTREAM = frozenset(
    {"Icon", "ChoicePicker", "DateTimeInput", "Slider", "Video", "AudioPlayer"}
)
_PLACES = frozenset({"start", "center", "end"})
_TEXT_VARIANTS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "caption", "body"})
#: Props dropped on both sides or spec-only: left out so only shared props remain.
_DROPPED = frozenset({"checks", "accessibility", "weight", "variant", "metadata", "axis", "fit"})


def _value(value: JSON) -> JSON:
    """A prop value with bindings made absolute and function calls made literal."""
    if isinstance(value, dict):
        if set(value) == {"path"} and isinstance(value["path"], str):
            path = value["path"]
            return {"path": path if path.startswith("/") else f"/{path}"}
        if "call" in value:
            return "fn"
        return {key: _value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_value(item) for item in value]
    return value


def _data(value: JSON) -> JSON:
    """A data model value with its numbers as strings (booleans kept)."""
    if isinstance(value, dict):
        return {key: _data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_data(item) for item in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


def _replacement(component: dict[str, JSON]) -> dict[str, JSON] | None:
    """The Column or Text standing in for a type upstream does not know, if it is one."""
    kind, cid = component["component"], component["id"]
    if kind in _UNKNOWN_UPSTREAM:
        return {"id": cid, "component": "Text", "text": kind}
    if kind == "Tabs":
        tabs = component.get("tabs") or []
        kids = [tab["child"] for tab in tabs if isinstance(tab, dict) and "child" in tab]
        return {"id": cid, "component": "Column", "children": kids}
    if kind == "Modal":
        parts = (component.get("trigger"), component.get("content"))
        return {"id": cid, "component": "Column", "children": [p for p in parts if p]}
    return None


def _component(component: dict[str, JSON], texts: dict[str, JSON]) -> dict[str, JSON]:
    """One component said in the shared profile (``texts``: each Text's ``text``)."""
    replacement = _replacement(component)
    if replacement is not None:
        return replacement
    kind = "Column" if component["component"] == "List" else component["component"]
    out: dict[str, JSON] = {"id": component["id"], "component": kind}
    out.update((k, _value(v)) for k, v in component.items() if k not in _DROPPED | set(out))
    if kind == "Text" and component.get("variant") in _TEXT_VARIANTS:
        out["variant"] = component["variant"]
    if "child" in out:
        child = out.pop("child")
        if kind == "Button":
            label = texts.get(child)
            out["label"] = label if isinstance(label, str) else "button"
        else:
            out["children"] = [child]
    children = out.get("children")
    if isinstance(children, dict) and "template" not in children:
        path = str(children.get("path", ""))
        template = {"componentId": children.get("componentId"), "path": f"/{path.lstrip('/')}"}
        out["children"] = {"template": template}
    if kind == "Image":
        out.setdefault("alt", "")
    if kind == "CheckBox":
        out.setdefault("label", "")
    for key in ("align", "justify"):
        if key in out and (out[key] not in _PLACES or (kind, key) == ("Column", "justify")):
            del out[key]
    action = out.get("action")
    if isinstance(action, dict) and isinstance(action.get("event"), dict):
        event = action["event"]
        out["action"] = {key: event[key] for key in ("name", "context") if key in event}
    elif isinstance(action, dict) and "name" not in action:
        del out["action"]
    return out


def _is_component(value: JSON) -> bool:
    return isinstance(value, dict) and isinstance(value.get("component"), str) and "id" in value


def rewritten(messages: list[JSON]) -> list[JSON]:
    """A v0.9/v1.0 sample stream in the profile both clients convert the same way.

    Args:
        messages: the sample's messages, as :func:`a2ui_samples.conformant_streams`
            gives them.

    Returns:
        New messages; the input is not changed.
    """
    bodies = [body for message in messages for body in message.values() if isinstance(body, dict)]
    texts = {
        c["id"]: c.get("text")
        for body in bodies
        for c in body.get("components") or ()
        if _is_component(c) and c["component"] == "Text"
    }
    out: list[JSON] = []
    for message in messages:
        update = message.get("updateDataModel")
        if isinstance(update, dict) and update.get("value") is None:
            continue  # a delete (value absent, or v1.0 null)
        copy: dict[str, JSON] = {}
        for key, body in message.items():
            if not isinstance(body, dict):
                copy[key] = body
                continue
            said = dict(body)
            if isinstance(said.get("components"), list):
                said["components"] = [
                    _component(c, texts) if _is_component(c) else c for c in said["components"]
                ]
            for field in ("value", "dataModel"):
                if field in said:
                    said[field] = _data(said[field])
            copy[key] = said
        out.append(copy)
    return out
