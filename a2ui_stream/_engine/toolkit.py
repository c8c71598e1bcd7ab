"""The toolkit's structural check of a component list, as the middleware runs it.

Owns deciding whether a streamed ``components`` array may paint, and the errors the
lifecycle ``retrying`` shows when it may not: the checks ``@ag-ui/a2ui-toolkit`` makes
without a catalog and before the data arrives (ids present and unique, a type on every
component, child references that resolve, no reference cycle, a component ``root``),
with its codes, paths, messages and order (``shared/reference/agui-a2ui-middleware.md``
section 2.7b and 3).

Must not import: other package modules. Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["structural_errors"]


def structural_errors(components: Sequence[Any]) -> list[dict[str, str]]:
    """The toolkit's errors for a component list checked without a catalog.

    What the middleware runs before it paints a streamed tree (bindings are not
    checked at that point): ids present and unique, a type on every component,
    child references that resolve, no reference cycle, a component ``root``.

    Args:
        components: the decoded ``components`` array.

    Returns:
        ``{code, path, message}`` errors in the toolkit's order; empty when valid.
    """
    if not components:
        return [
            _error("empty_components", "components", "A2UI components must be a non-empty array")
        ]
    errors: list[dict[str, str]] = []
    ids: set[str] = set()
    for component in components:
        cid = component.get("id") if isinstance(component, dict) else None
        if isinstance(cid, str):
            if cid in ids:
                errors.append(
                    _error(
                        "duplicate_id", f"components[id={cid}]", f"Duplicate component id '{cid}'"
                    )
                )
            ids.add(cid)
    for index, component in enumerate(components):
        is_object = isinstance(component, dict)
        cid = component.get("id") if is_object else None
        kind = component.get("component") if is_object else None
        if not isinstance(cid, str) or not cid:
            message = f"Component at index {index} is missing a string 'id'"
            errors.append(_error("missing_id", f"components[{index}].id", message))
        if not isinstance(kind, str) or not kind:
            message = f"Component at index {index} is missing a string 'component' type"
            errors.append(
                _error("missing_component_type", f"components[{index}].component", message)
            )
        if is_object:
            for field, ref in _references(component):
                if ref not in ids:
                    message = f"Child reference '{ref}' does not match any component id"
                    errors.append(
                        _error("unresolved_child", f"components[{index}].{field}", message)
                    )
    for cycle in _cycles(components):
        chain = " -> ".join([*cycle, cycle[0]])
        message = f"Child reference cycle detected: {chain}"
        errors.append(_error("child_cycle", f"components[id={cycle[0]}]", message))
    if not any(isinstance(item, dict) and item.get("id") == "root" for item in components):
        errors.append(_error("no_root", "components", "No component has id 'root'"))
    return errors


def _error(code: str, path: str, message: str) -> dict[str, str]:
    return {"code": code, "path": path, "message": message}


def _refs(value: Any) -> list[str]:
    """Ids a ``child``/``children`` value names: ids, templates, or lists of them."""
    values = value if isinstance(value, list) else [value]
    found = []
    for item in values:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict) and isinstance(item.get("componentId"), str):
            found.append(item["componentId"])
    return found


def _references(component: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(field path, id)`` for each child reference of a component, in the toolkit's order."""
    found = [("child", ref) for ref in _refs(component.get("child"))]
    children = component.get("children")
    if isinstance(children, list):
        for index, item in enumerate(children):
            found.extend((f"children[{index}]", ref) for ref in _refs(item))
    else:
        found.extend(("children", ref) for ref in _refs(children))
    return found


def _utf16(text: str) -> bytes:
    """A sort key that orders strings as JavaScript's ``<`` does (by UTF-16 code unit)."""
    return text.encode("utf-16-be", "surrogatepass")


def _cycles(components: Sequence[Any]) -> list[list[str]]:
    """Each child-reference cycle once, rotated to start at its smallest id.

    A depth-first walk with an explicit stack: a deep chain from untrusted output
    must not exhaust Python's recursion.
    """
    graph: dict[str, list[str]] = {}
    for component in components:
        if isinstance(component, dict) and isinstance(component.get("id"), str):
            graph[component["id"]] = [ref for _field, ref in _references(component)]
    state: dict[str, int] = {}  # 1 on the path, 2 done
    cycles: dict[str, list[str]] = {}
    for root in graph:
        if root in state:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        path = [root]
        state[root] = 1
        while stack:
            node, index = stack[-1]
            neighbours = graph.get(node, [])
            if index >= len(neighbours):
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            stack[-1] = (node, index + 1)
            nxt = neighbours[index]
            seen = state.get(nxt, 0)
            if seen == 0:
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, 0))
            elif seen == 1:
                loop = path[path.index(nxt) :]
                smallest = min(range(len(loop)), key=lambda i: _utf16(loop[i]))
                loop = loop[smallest:] + loop[:smallest]
                cycles.setdefault(" ".join(loop), loop)
    return list(cycles.values())
