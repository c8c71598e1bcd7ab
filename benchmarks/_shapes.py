"""Seeded builders for A2UI v0.9 components, surfaces and their data models.

Owns the shapes the workload generators put inside ``a2ui_operations``: every
component of the basic catalog with valid props (protocol notes §3), ``{"path"}``
bindings, template child lists, and data models that the bindings resolve against.
Everything is plain JSON values (dicts, lists, strings, numbers) built from a
``random.Random`` the caller seeds, so one seed always gives the same values.

Must not import the ``a2ui_stream`` package: the benchmarks measure it, they do not
borrow from it. Does no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

__all__ = [
    "BASIC_CATALOG_ID",
    "LEAF_TYPES",
    "VERSION",
    "WORDS",
    "Surface",
    "SurfaceBuilder",
    "chat_surface",
    "create_surface",
    "item",
    "sentence",
    "update_components",
    "update_data_model",
]

#: Every op the middleware emits is v0.9 (middleware notes §2.2).
VERSION = "v0.9"
#: The v0.9 basic catalog id (protocol notes §0); ``a2ui-core`` resolves this one.
BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"

#: Words for text deltas, labels and data values; a few non-ASCII ones on purpose.
WORDS = (
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
    "order",
    "total",
    "price",
    "rating",
    "stock",
    "weather",
    "forecast",
    "flight",
    "booking",
    "seat",
    "café",
    "naïve",
    "déjà",
    "straße",
    "東京",
    "✓",
    "summary",
    "details",
    "review",
    "confirm",
    "cancel",
    "submit",
)

#: The icon names of the v0.9 basic catalog used here (a subset of the 59).
ICONS = ("star", "home", "search", "settings", "person", "mail", "info", "check", "event")
#: Leaf components: no children. Button is built separately because it needs a child.
LEAF_TYPES = (
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Divider",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
)
#: Containers the tree builder picks from, with relative weights.
CONTAINERS = (
    ("Column", 4),
    ("Row", 4),
    ("Card", 2),
    ("List", 1),
    ("Tabs", 1),
    ("Modal", 1),
    ("Button", 2),
)


def sentence(rng: random.Random, low: int, high: int) -> str:
    """A space-joined run of ``low``..``high`` words.

    Args:
        rng: the seeded source.
        low: fewest words.
        high: most words.

    Returns:
        The words joined by spaces.
    """
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def item(rng: random.Random, index: int) -> dict[str, Any]:
    """One row of a repeated list, as a template binds it (``name``, ``price``...).

    Args:
        rng: the seeded source.
        index: the row's position, used in its id.

    Returns:
        A small JSON object.
    """
    return {
        "id": f"i{index}",
        "name": sentence(rng, 1, 3).title(),
        "price": round(rng.uniform(1, 500), 2),
        "rating": rng.randint(1, 5),
        "inStock": rng.random() < 0.8,
        "image": f"https://img.example.com/{rng.randrange(10**6)}.jpg",
    }


def create_surface(surface_id: str) -> dict[str, Any]:
    """A v0.9 ``createSurface`` message.

    Args:
        surface_id: the surface to create.

    Returns:
        The message object.
    """
    return {
        "version": VERSION,
        "createSurface": {"surfaceId": surface_id, "catalogId": BASIC_CATALOG_ID},
    }


def update_components(surface_id: str, components: list[dict[str, Any]]) -> dict[str, Any]:
    """A v0.9 ``updateComponents`` message.

    Args:
        surface_id: the surface.
        components: the adjacency list.

    Returns:
        The message object.
    """
    return {
        "version": VERSION,
        "updateComponents": {"surfaceId": surface_id, "components": components},
    }


def update_data_model(surface_id: str, value: Any, path: str = "/") -> dict[str, Any]:
    """A v0.9 ``updateDataModel`` message.

    Args:
        surface_id: the surface.
        value: the value written at ``path``.
        path: a JSON Pointer; ``/`` replaces the whole model.

    Returns:
        The message object.
    """
    return {
        "version": VERSION,
        "updateDataModel": {"surfaceId": surface_id, "path": path, "value": value},
    }


@dataclass
class Surface:
    """A built surface: its adjacency list and the data model it binds to.

    Attributes:
        components: the components, ``root`` first.
        data: the data model; ``data["items"]`` is the list the first template repeats.
    """

    components: list[dict[str, Any]]
    data: dict[str, Any]


@dataclass
class SurfaceBuilder:
    """Builds a tree of ``target`` components of every basic type.

    The tree is a real tree (no cycles, every reference resolves), stays shallower
    than ``max_depth``, and its first child under ``root`` is a List whose template
    repeats ``/items``, the key the middleware streams item by item (notes §2.7b).

    Attributes:
        rng: the seeded source.
        target: about how many components to build.
        items: rows in ``/items``.
        max_depth: deepest container nesting.
    """

    rng: random.Random
    target: int
    items: int = 10
    max_depth: int = 8
    components: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    _next: int = field(default=0, init=False)

    def build(self) -> Surface:
        """Build the surface.

        Returns:
            The components (``root`` first) and the data model.
        """
        self.data = {
            "title": sentence(self.rng, 2, 5),
            "items": [item(self.rng, i) for i in range(self.items)],
            "form": {},
            "stats": {},
            "lists": {},
        }
        root: dict[str, Any] = {"id": "root", "component": "Column", "children": []}
        self.components.append(root)
        children = [self._template("/items"), self._text_bound("/title")]
        budget = max(self.target - len(self.components), 0)
        while budget > 0:
            chunk = min(budget, self.rng.randint(10, 60))
            children.append(self._subtree(chunk, 1))
            budget = self.target - len(self.components)
        root["children"] = children
        return Surface(self.components, self.data)

    def _id(self, kind: str) -> str:
        self._next += 1
        return f"{kind[:3].lower()}{self._next}"

    def _add(self, component: dict[str, Any]) -> str:
        self.components.append(component)
        return str(component["id"])

    def _subtree(self, budget: int, depth: int) -> str:
        """Build about ``budget`` components under one container; return its id."""
        if budget <= 1 or depth >= self.max_depth:
            return self._leaf()
        names = [name for name, _ in CONTAINERS]
        weights = [weight for _, weight in CONTAINERS]
        kind = self.rng.choices(names, weights)[0]
        return self._CONTAINER_BUILDERS[kind](self, budget - 1, depth)

    def _split(self, budget: int, depth: int, parts: int) -> list[str]:
        share = max(budget // parts, 1)
        children: list[str] = []
        while budget > 0 and len(children) < parts:
            used_before = len(self.components)
            children.append(self._subtree(min(share, budget), depth + 1))
            budget -= len(self.components) - used_before
        return children or [self._leaf()]

    def _row_or_column(self, kind: str, budget: int, depth: int) -> str:
        cid = self._id(kind)
        node: dict[str, Any] = {"id": cid, "component": kind}
        self._add(node)
        if self.rng.random() < 0.15:
            key = f"l{len(self.data['lists'])}"
            self.data["lists"][key] = [item(self.rng, i) for i in range(self.rng.randint(2, 8))]
            node["children"] = {"componentId": self._template_item(), "path": f"/lists/{key}"}
        else:
            node["children"] = self._split(budget, depth, self.rng.randint(2, 5))
        node["justify"] = self.rng.choice(("start", "center", "spaceBetween"))
        node["align"] = self.rng.choice(("start", "center", "stretch"))
        return cid

    def _column(self, budget: int, depth: int) -> str:
        return self._row_or_column("Column", budget, depth)

    def _row(self, budget: int, depth: int) -> str:
        return self._row_or_column("Row", budget, depth)

    def _card(self, budget: int, depth: int) -> str:
        cid = self._id("Card")
        node: dict[str, Any] = {"id": cid, "component": "Card"}
        self._add(node)
        node["child"] = self._subtree(budget, depth + 1)
        return cid

    def _list(self, budget: int, depth: int) -> str:
        cid = self._id("List")
        node: dict[str, Any] = {"id": cid, "component": "List", "direction": "vertical"}
        self._add(node)
        node["children"] = self._split(budget, depth, self.rng.randint(2, 4))
        return cid

    def _tabs(self, budget: int, depth: int) -> str:
        cid = self._id("Tabs")
        node: dict[str, Any] = {"id": cid, "component": "Tabs"}
        self._add(node)
        children = self._split(budget, depth, self.rng.randint(2, 4))
        node["tabs"] = [{"title": sentence(self.rng, 1, 2), "child": c} for c in children]
        return cid

    def _modal(self, budget: int, depth: int) -> str:
        cid = self._id("Modal")
        node: dict[str, Any] = {"id": cid, "component": "Modal"}
        self._add(node)
        node["trigger"] = self._button_with_label()
        node["content"] = self._subtree(max(budget - 2, 1), depth + 1)
        return cid

    def _button(self, budget: int, depth: int) -> str:
        del budget, depth
        return self._button_with_label()

    def _button_with_label(self) -> str:
        cid = self._id("Button")
        node: dict[str, Any] = {
            "id": cid,
            "component": "Button",
            "variant": self.rng.choice(("default", "primary", "borderless")),
            "action": {
                "event": {
                    "name": self.rng.choice(("submit", "select", "open", "confirm")),
                    "context": {"title": {"path": "/title"}},
                }
            },
        }
        self._add(node)
        node["child"] = self._add(
            {"id": self._id("Text"), "component": "Text", "text": sentence(self.rng, 1, 2)}
        )
        return cid

    def _template(self, path: str) -> str:
        cid = self._id("List")
        node: dict[str, Any] = {"id": cid, "component": "List", "direction": "vertical"}
        self._add(node)
        node["children"] = {"componentId": self._template_item(), "path": path}
        return cid

    def _template_item(self) -> str:
        """A Card > Row > [Image, Column > [Text name, Text price], Button] per row."""
        card = self._id("Card")
        row = self._id("Row")
        col = self._id("Column")
        image = self._add(
            {
                "id": self._id("Image"),
                "component": "Image",
                "url": {"path": "image"},
                "variant": "smallFeature",
            }
        )
        name = self._add(
            {
                "id": self._id("Text"),
                "component": "Text",
                "text": {"path": "name"},
                "variant": "h4",
            }
        )
        price = self._add({"id": self._id("Text"), "component": "Text", "text": {"path": "price"}})
        self._add({"id": col, "component": "Column", "children": [name, price]})
        button = self._button_with_label()
        self._add({"id": row, "component": "Row", "children": [image, col, button]})
        self._add({"id": card, "component": "Card", "child": row})
        return card

    def _text_bound(self, path: str) -> str:
        return self._add(
            {"id": self._id("Text"), "component": "Text", "text": {"path": path}, "variant": "h2"}
        )

    def _leaf(self) -> str:
        kind = self.rng.choice(LEAF_TYPES)
        cid = self._id(kind)
        return self._add({"id": cid, "component": kind, **self._LEAF_BUILDERS[kind](self, cid)})

    def _bind(self, section: str, cid: str, *, value: Any) -> dict[str, str]:
        self.data[section][cid] = value
        return {"path": f"/{section}/{cid}"}

    def _leaf_text(self, cid: str) -> dict[str, Any]:
        if self.rng.random() < 0.4:
            text: Any = self._bind("stats", cid, value=sentence(self.rng, 1, 4))
        else:
            text = sentence(self.rng, 2, 12)
        return {"text": text, "variant": self.rng.choice(("body", "caption", "h3"))}

    def _leaf_image(self, cid: str) -> dict[str, Any]:
        url = f"https://img.example.com/{cid}.png"
        return {"url": self._bind("stats", cid, value=url), "fit": "cover", "description": "image"}

    def _leaf_icon(self, cid: str) -> dict[str, Any]:
        del cid
        return {"name": self.rng.choice(ICONS)}

    def _leaf_video(self, cid: str) -> dict[str, Any]:
        return {"url": f"https://video.example.com/{cid}.mp4"}

    def _leaf_audio(self, cid: str) -> dict[str, Any]:
        return {"url": f"https://audio.example.com/{cid}.mp3", "description": "clip"}

    def _leaf_divider(self, cid: str) -> dict[str, Any]:
        del cid
        return {"axis": self.rng.choice(("horizontal", "vertical"))}

    def _leaf_text_field(self, cid: str) -> dict[str, Any]:
        return {
            "label": sentence(self.rng, 1, 3),
            "value": self._bind("form", cid, value=sentence(self.rng, 0, 3)),
            "variant": self.rng.choice(("shortText", "longText", "number")),
        }

    def _leaf_check_box(self, cid: str) -> dict[str, Any]:
        return {"label": sentence(self.rng, 1, 3), "value": self._bind("form", cid, value=False)}

    def _leaf_choice_picker(self, cid: str) -> dict[str, Any]:
        options = [{"label": w.title(), "value": w} for w in self.rng.sample(WORDS, 3)]
        return {
            "label": sentence(self.rng, 1, 2),
            "options": options,
            "value": self._bind("form", cid, value=[options[0]["value"]]),
            "variant": "mutuallyExclusive",
        }

    def _leaf_slider(self, cid: str) -> dict[str, Any]:
        return {"label": "level", "min": 0, "max": 100, "value": self._bind("form", cid, value=50)}

    def _leaf_date_time(self, cid: str) -> dict[str, Any]:
        return {
            "label": "when",
            "value": self._bind("form", cid, value="2026-01-01T09:00:00Z"),
            "enableDate": True,
            "enableTime": self.rng.random() < 0.5,
        }

    _CONTAINER_BUILDERS: ClassVar[dict[str, Callable[[SurfaceBuilder, int, int], str]]] = {
        "Column": _column,
        "Row": _row,
        "Card": _card,
        "List": _list,
        "Tabs": _tabs,
        "Modal": _modal,
        "Button": _button,
    }
    _LEAF_BUILDERS: ClassVar[dict[str, Callable[[SurfaceBuilder, str], dict[str, Any]]]] = {
        "Text": _leaf_text,
        "Image": _leaf_image,
        "Icon": _leaf_icon,
        "Video": _leaf_video,
        "AudioPlayer": _leaf_audio,
        "Divider": _leaf_divider,
        "TextField": _leaf_text_field,
        "CheckBox": _leaf_check_box,
        "ChoicePicker": _leaf_choice_picker,
        "Slider": _leaf_slider,
        "DateTimeInput": _leaf_date_time,
    }


def chat_surface(rng: random.Random) -> Surface:
    """A chat-sized surface: 10 to 40 components and 3 to 12 repeated rows.

    Args:
        rng: the seeded source.

    Returns:
        The surface.
    """
    return SurfaceBuilder(rng, rng.randint(10, 40), items=rng.randint(3, 12), max_depth=4).build()
