"""Every vocabulary element drawn as HTML, and what a hostile element cannot do."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from helpers import ACTION, page_of, surface, text
from html_tree import Node, parse, rules

from a2ui_stream._convert.vocabulary import ELEMENT_TYPES, validate_element
from a2ui_stream._view import html as view_html
from a2ui_stream._view.markdown import markdown_html
from a2ui_stream._view.model import Card, Note, Page, Section
from a2ui_stream._view.page import content_security_policy, render_page

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def style_of(markup: str, node: Node) -> dict[str, str]:
    """Every declaration the node's generated classes stand for."""
    generated = rules(markup)
    found: dict[str, str] = {}
    for name in sorted(node.classes):
        found.update(generated.get(name, {}))
    return found


def check_header(markup: str) -> None:
    node = surface(markup).find("h4", "header")
    assert node.text() == "Fares"
    assert "s-2xl" in node.classes


def check_text(markup: str) -> None:
    node = surface(markup).find("p", "text")
    assert node.text() == "Total: 3 items"
    assert {"s-lg", "w-bold", "c-secondary"} <= node.classes


def check_caption(markup: str) -> None:
    assert surface(markup).find("p", "caption").text() == "Prices include taxes"


def check_markdown(markup: str) -> None:
    node = surface(markup).find("div", "markdown")
    assert node.find("strong").text() == "bold"
    link = node.find("a")
    assert link.attrs["href"] == "https://example.com/a"
    assert link.attrs["rel"] == "noopener noreferrer nofollow"


def check_image(markup: str) -> None:
    node = surface(markup).find("img", "image")
    assert node.attrs["alt"] == "A beach"
    assert {"s-lg", "round", "remote"} <= node.classes
    assert (node.attrs["src"] or "").startswith("data:image/svg+xml")  # never fetched
    assert "https://img.example/beach.png" in (node.attrs["title"] or "")


def check_divider(markup: str) -> None:
    assert {"divider", "flush"} <= surface(markup).find("hr").classes


def check_fact(markup: str) -> None:
    node = surface(markup).find("dl", "fact")
    assert node.find("dt").text() == "Seat"
    assert node.find("dd").text() == "14C"


def check_button(markup: str) -> None:
    node = surface(markup).find("button")
    assert node.text() == "Book"
    assert {"danger", "block"} <= node.classes
    assert node.attrs["type"] == "submit"
    assert 'book {"flight":"TP 1351"}' in (node.attrs["title"] or "")
    line = surface(markup).find("small", "action")
    assert line.text() == 'a2ui:action book {"flight":"TP 1351"}'


def check_input(markup: str) -> None:
    field = surface(markup).find("label", "field")
    assert field.find("span", "label").text() == "Notes"
    area = field.find("textarea")
    assert (area.attrs["name"], area.attrs["placeholder"]) == ("notes", "Anything else?")


def check_select(markup: str) -> None:
    select = surface(markup).find("select")
    assert select.attrs["name"] == "size"
    options = select.find_all("option")
    assert [o.text() for o in options] == ["Pick one", "Small", "Large"]
    assert [o.attrs["value"] for o in options] == ["", "s", "l"]
    assert "disabled" in options[0].attrs
    assert surface(markup).find("span", "label").text() == "Size"


def check_radio_group(markup: str) -> None:
    group = surface(markup).find("fieldset", "radios")
    assert group.find("legend").text() == "Seat"
    assert group.attrs["data-name"] == "seat"
    radios = group.find_all("input")
    assert [r.attrs["value"] for r in radios] == ["w", "a"]
    assert ["checked" in r.attrs for r in radios] == [False, True]
    assert len({r.attrs["name"] for r in radios}) == 1


def check_checkbox(markup: str) -> None:
    box = surface(markup).find("input")
    assert (box.attrs["type"], box.attrs["name"]) == ("checkbox", "ticket")
    assert "checked" in box.attrs
    assert surface(markup).find("label", "choice").text() == "Send the ticket"


def check_date_picker(markup: str) -> None:
    field = surface(markup).find("input")
    assert field.attrs["type"] == "date"
    assert (field.attrs["value"], field.attrs["min"], field.attrs["max"]) == (
        "2026-05-01",
        "2026-01-01",
        "2026-12-31",
    )
    assert field.attrs["name"] == "day"
    assert surface(markup).find("span", "label").text() == "Day"


def check_form(markup: str) -> None:
    form = surface(markup).find("form", "form")
    assert style_of(markup, form) == {"gap": "12px"}
    assert form.find("input").attrs["name"] == "email"


def check_card(markup: str) -> None:
    card = surface(markup).find("section", "card")
    assert card.find("h4", "card-title").text() == "Checkout"
    assert style_of(markup, card) == {"padding": "16px", "background": "#fafafa"}
    assert card.find("form").find("input").attrs["name"] == "email"
    footer = card.find("footer", "card-actions")
    assert [b.text() for b in footer.find_all("button")] == ["Back", "Pay"]
    assert "pay" in footer.find_all("small", "action")[-1].text()


def check_col(markup: str) -> None:
    col = surface(markup).find("div", "col")
    assert "al-end" in col.classes
    assert style_of(markup, col) == {"gap": "4px"}


def check_row(markup: str) -> None:
    row = surface(markup).find("div", "row")
    assert {"al-center", "jf-between"} <= row.classes
    assert style_of(markup, row) == {"gap": "24px"}
    assert [p.text() for p in row.find_all("p")] == ["left", "right"]


def check_spacer(markup: str) -> None:
    assert surface(markup).find("div", "spacer").attrs["aria-hidden"] == "true"


def check_badge(markup: str) -> None:
    badge = surface(markup).find("span", "badge")
    assert badge.text() == "New"
    assert "v-success" in badge.classes


def check_box(markup: str) -> None:
    box = surface(markup).find("div", "box")
    assert style_of(markup, box) == {
        "width": "120px",
        "height": "50%",
        "border-radius": "9999px",
        "background": "rgb(1, 2, 3)",
    }


def check_list_view(markup: str) -> None:
    items = surface(markup).find("ul", "list").find_all("li", "item")
    assert [i.find("p").text() for i in items] == ["one", "two"]
    assert "open" in items[1].find("small", "action").text()


def check_list_view_item(markup: str) -> None:
    item = surface(markup).find("div", "item")
    assert item.attrs["role"] == "listitem"
    assert item.text().startswith("alone")


def check_table(markup: str) -> None:
    table = surface(markup).find("table")
    assert [th.text() for th in table.find_all("th")] == ["City", "Temp", "Sunny"]
    assert [td.text() for td in table.find_all("td")] == ["Lisbon", "21.5", "true"]


def check_chart(markup: str) -> None:
    figure = surface(markup).find("figure", "chart")
    assert "bar" in figure.classes
    assert len(figure.find_all("rect")) == 4  # two series of two points, stacked
    assert style_of(markup, figure) == {"--series": "#ff0000"}
    assert [li.text() for li in figure.find_all("li")] == ["2025", "2026"]
    assert figure.find("path", "axis")
    assert "Q1 1" in (figure.find("svg").attrs["aria-label"] or "")


def check_alert(markup: str) -> None:
    alert = surface(markup).find("aside", "alert")
    assert "warning" in alert.classes
    assert alert.find("p", "alert-title").text() == "Heads up"
    assert alert.find("p", "alert-description").text() == "Gate changed"


def check_carousel(markup: str) -> None:
    carousel = surface(markup).find("div", "carousel")
    assert carousel.attrs["aria-label"] == "Photos"
    assert [s.text() for s in carousel.find_all("div", "slide")] == ["a", "b"]


def check_icon(markup: str) -> None:
    icon = surface(markup).find("svg", "icon")
    assert (icon.attrs["aria-label"], icon.find("title").text()) == ("plane", "plane")
    assert "s-lg" in icon.classes


#: Every ``$type`` of the vocabulary, an element using its props, and what must show.
ELEMENTS: dict[str, tuple[dict[str, Any], Callable[[str], None]]] = {
    "Header": ({"$type": "Header", "text": "Fares", "size": "2xl"}, check_header),
    "Text": (
        {
            "$type": "Text",
            "value": "Total: 3 items",
            "size": "lg",
            "weight": "bold",
            "color": "secondary",
        },
        check_text,
    ),
    "Caption": ({"$type": "Caption", "value": "Prices include taxes"}, check_caption),
    "Markdown": (
        {"$type": "Markdown", "value": "Some **bold** and [a link](https://example.com/a)."},
        check_markdown,
    ),
    "Image": (
        {
            "$type": "Image",
            "src": "https://img.example/beach.png",
            "alt": "A beach",
            "size": "lg",
            "round": True,
        },
        check_image,
    ),
    "Divider": ({"$type": "Divider", "flush": True}, check_divider),
    "Fact": ({"$type": "Fact", "label": "Seat", "value": "14C"}, check_fact),
    "Button": (
        {
            "$type": "Button",
            "label": "Book",
            "buttonStyle": "danger",
            "block": True,
            "submit": True,
            "$action": ACTION,
        },
        check_button,
    ),
    "Input": (
        {
            "$type": "Input",
            "placeholder": "Anything else?",
            "multiline": True,
            "label": "Notes",
            "name": "notes",
        },
        check_input,
    ),
    "Select": (
        {
            "$type": "Select",
            "options": [{"label": "Small", "value": "s"}, {"label": "Large", "value": "l"}],
            "placeholder": "Pick one",
            "label": "Size",
            "name": "size",
        },
        check_select,
    ),
    "RadioGroup": (
        {
            "$type": "RadioGroup",
            "options": [{"label": "Window", "value": "w"}, {"label": "Aisle", "value": "a"}],
            "name": "seat",
            "label": "Seat",
            "defaultValue": "a",
        },
        check_radio_group,
    ),
    "Checkbox": (
        {"$type": "Checkbox", "label": "Send the ticket", "name": "ticket", "defaultChecked": True},
        check_checkbox,
    ),
    "DatePicker": (
        {
            "$type": "DatePicker",
            "value": "2026-05-01",
            "min": "2026-01-01",
            "max": "2026-12-31",
            "label": "Day",
            "name": "day",
        },
        check_date_picker,
    ),
    "Form": (
        {"$type": "Form", "gap": 3, "children": [{"$type": "Input", "name": "email"}]},
        check_form,
    ),
    "Card": (
        {
            "$type": "Card",
            "title": "Checkout",
            "padding": 4,
            "background": "#fafafa",
            "asForm": True,
            "confirm": {"label": "Pay", "$action": {**ACTION, "name": "pay"}},
            "cancel": {"label": "Back"},
            "children": [{"$type": "Input", "name": "email"}],
        },
        check_card,
    ),
    "Col": ({"$type": "Col", "gap": 1, "align": "end", "children": [text("x")]}, check_col),
    "Row": (
        {
            "$type": "Row",
            "gap": 6,
            "align": "center",
            "justify": "between",
            "children": [text("left"), text("right")],
        },
        check_row,
    ),
    "Spacer": ({"$type": "Spacer"}, check_spacer),
    "Badge": ({"$type": "Badge", "value": "New", "variant": "success"}, check_badge),
    "Box": (
        {
            "$type": "Box",
            "width": 120,
            "height": "50%",
            "radius": "full",
            "background": "rgb(1, 2, 3)",
        },
        check_box,
    ),
    "ListView": (
        {
            "$type": "ListView",
            "children": [
                {"$type": "ListViewItem", "children": text("one")},
                {
                    "$type": "ListViewItem",
                    "children": [text("two")],
                    "$action": {**ACTION, "name": "open"},
                },
            ],
        },
        check_list_view,
    ),
    "ListViewItem": ({"$type": "ListViewItem", "children": [text("alone")]}, check_list_view_item),
    "Table": (
        {
            "$type": "Table",
            "columns": [{"label": "City"}, {"label": "Temp"}, {"label": "Sunny"}],
            "rows": [["Lisbon", 21.5, True]],
        },
        check_table,
    ),
    "Chart": (
        {
            "$type": "Chart",
            "variant": "bar",
            "series": [
                {
                    "label": "2025",
                    "data": [{"label": "Q1", "value": 1}, {"label": "Q2", "value": 3}],
                },
                {
                    "label": "2026",
                    "data": [{"label": "Q1", "value": 2}, {"label": "Q2", "value": 4}],
                },
            ],
            "stacked": True,
            "showAxis": True,
            "showLegend": True,
            "color": "#ff0000",
        },
        check_chart,
    ),
    "Alert": (
        {"$type": "Alert", "title": "Heads up", "description": "Gate changed", "tone": "warning"},
        check_alert,
    ),
    "Carousel": (
        {"$type": "Carousel", "label": "Photos", "children": [text("a"), text("b")]},
        check_carousel,
    ),
    "Icon": ({"$type": "Icon", "name": "plane", "size": "lg"}, check_icon),
}


#: Props a table case leaves to its own tests (a Chart draws ``series`` or ``data``).
ELSEWHERE = {"Chart": {"data"}}


def used_props(kind: str, element: dict[str, Any]) -> set[str]:
    return set(element) - {"$type", "$action", "children"} | ELSEWHERE.get(kind, set())


class TestElements:
    def test_the_table_covers_the_vocabulary(self) -> None:
        """Every vocabulary type has a case, each case is valid, and each uses every prop."""
        assert set(ELEMENTS) == set(ELEMENT_TYPES)
        for kind, (element, _) in ELEMENTS.items():
            assert validate_element(element) == [], kind
            props = set(ELEMENT_TYPES[kind].props)
            used = used_props(kind, element)
            assert used == props, f"{kind} leaves out {sorted(props - used)}"

    def test_the_table_covers_the_reference_schemas(self, vocabulary_path: Path) -> None:
        """The reference schema file names the same types and props as the table."""
        schemas = json.loads(vocabulary_path.read_text())["components"]
        assert set(schemas) == set(ELEMENTS)
        for kind, (element, _) in ELEMENTS.items():
            assert used_props(kind, element) == set(schemas[kind].get("properties", {})), kind

    @pytest.mark.parametrize("kind", sorted(ELEMENTS))
    def test_each_element_and_its_props(self, kind: str) -> None:
        """The element becomes its semantic HTML and every prop takes effect."""
        element, check = ELEMENTS[kind]
        check(page_of(element))

    def test_every_element_in_one_tree(self) -> None:
        """All types nested in one tree draw together, with no placeholder among them."""
        tree = {"$type": "Col", "children": [element for element, _ in ELEMENTS.values()]}
        node = surface(page_of(tree))
        assert node.find_all(cls="unknown") == []
        assert node.find_all(cls="placeholder") == []
        assert len(node.find_all("button")) == 3  # the Button, and the Card's confirm and cancel

    def test_unknown_type_is_a_visible_placeholder(self) -> None:
        """An unknown ``$type`` is named on the page, and its children still show."""
        markup = page_of({"$type": "OrgChart", "children": [text("inside")]})
        node = surface(markup).find("div", "unknown")
        assert "“OrgChart”" in node.find("p", "unknown-label").text()
        assert node.find("p", "text").text() == "inside"

    @pytest.mark.parametrize("value", [None, 3, "text", [1], {"no": "type"}, {"$type": 5}])
    def test_values_that_are_not_elements(self, value: Any) -> None:
        """Any JSON value draws as something visible, never an exception."""
        node = surface(page_of({"$type": "Col", "children": [value]}))
        assert node.find_all(cls="placeholder") or node.find_all(cls="unknown")

    def test_children_of_a_leaf_follow_it(self) -> None:
        """A Button's children draw beside it, since a button cannot hold them."""
        markup = page_of({"$type": "Button", "label": "Go", "children": [text("under")]})
        wrap = surface(markup).find("div", "with-children")
        assert wrap.find("button").text() == "Go"
        assert wrap.find("div", "children").text() == "under"

    def test_a_form_in_a_form_is_a_group(self) -> None:
        """HTML drops a nested form, so an inner Form becomes a div."""
        markup = page_of({"$type": "Form", "children": [{"$type": "Form", "children": []}]})
        assert len(surface(markup).find_all("form")) == 1
        assert len(surface(markup).find_all(cls="form")) == 2

    def test_radio_groups_never_share_a_name(self) -> None:
        """Two groups with the same field name keep separate choices."""
        group = ELEMENTS["RadioGroup"][0]
        markup = page_of({"$type": "Col", "children": [group, group]})
        names = {i.attrs["name"] for i in surface(markup).find_all("input")}
        assert len(names) == 2

    def test_function_action(self) -> None:
        """A function-call action shows its function and arguments."""
        action = {"type": "a2ui:function", "call": "openUrl", "args": {"url": "https://a.b"}}
        markup = page_of({"$type": "Button", "label": "Open", "$action": action})
        assert (
            surface(markup)
            .find("small", "action")
            .text()
            .endswith('openUrl() {"url":"https://a.b"}')
        )

    def test_depth_is_bounded(self) -> None:
        """A tree deeper than the limit stops with a note instead of recursing on."""
        tree: dict[str, Any] = text("bottom")
        for _ in range(view_html.MAX_DEPTH + 10):
            tree = {"$type": "Col", "children": [tree]}
        node = surface(page_of(tree))
        assert "Deeper elements are not shown." in node.text()
        assert "bottom" not in node.text()

    def test_data_image_is_shown(self) -> None:
        """An image from a data: URL is the one kind the page loads."""
        src = "data:image/png;base64,iVBORw0KGgo="
        node = surface(page_of({"$type": "Image", "src": src, "alt": "dot"})).find("img")
        assert node.attrs["src"] == src
        assert "remote" not in node.classes

    def test_unknown_icon_name_is_named(self) -> None:
        """An icon the vocabulary does not have shows its name."""
        markup = page_of({"$type": "Icon", "name": "rocket"})
        assert surface(markup).find("span", "icon-unknown").text() == "icon rocket"


HOSTILE = '"><script>document.title="pwned"</script></style><img src=x onerror=alert(1)>'


class TestSafety:
    def tree(self) -> dict[str, Any]:
        """Hostile text in every kind of place: texts, ids, labels, props, Markdown."""
        return {
            "$type": "Card",
            "title": HOSTILE,
            "background": "red}body{display:none",
            "children": [
                {"$type": "Markdown", "value": f"{HOSTILE}\n\n[x](javascript:alert(1)) <b>raw</b>"},
                {
                    "$type": "Markdown",
                    "value": "[y](JaVaScRiPt:alert(1)) ![i](javascript:alert(2))",
                },
                {"$type": "Markdown", "value": "<javascript:alert(3)> [z](data:text/html,<b>x)"},
                {"$type": "Image", "src": "javascript:alert(4)", "alt": HOSTILE},
                {"$type": "Button", "label": HOSTILE, "$action": {**ACTION, "name": HOSTILE}},
                {"$type": "Box", "width": "1px;background:url(//x)", "background": "u</style>"},
                {"$type": "Select", "options": [{"label": HOSTILE, "value": HOSTILE}]},
                {"$type": HOSTILE},
                {"$type": "Chart", "variant": "line", "data": [{"label": HOSTILE, "value": 1}]},
            ],
        }

    def page(self) -> str:
        card = Card(surface_id=HOSTILE, tool_call_id="a2ui:" + HOSTILE, args=self.tree(), seq=0)
        section = Section(title=HOSTILE, details=(HOSTILE,), cards=(card,))
        note = Note(severity="warning", text=HOSTILE)
        return render_page(Page(title=HOSTILE, summary=HOSTILE, sections=(section,), notes=(note,)))

    def test_no_markup_escapes(self) -> None:
        """No script, no event handler, no javascript: URL, one style element."""
        markup = self.page()
        tree = parse(markup)
        assert tree.find_all("script") == []
        assert len(tree.find_all("style")) == 1
        for node in tree.elements():
            assert not any(name.startswith("on") for name in node.attrs), node
            assert "style" not in node.attrs
            for name in ("href", "src", "action", "formaction"):
                assert "javascript" not in (node.attrs.get(name) or "").lower()
        assert "javascript:" not in markup.lower().replace("javascript:alert", "")
        for img in tree.find_all("img"):
            assert (img.attrs.get("src") or "").startswith("data:image/svg+xml;")

    def test_hostile_text_is_shown_as_text(self) -> None:
        """What an agent wrote is still readable: escaped, not dropped."""
        tree = parse(self.page())
        assert tree.find("h1").text() == HOSTILE
        assert tree.find("h4", "card-title").text() == HOSTILE
        assert tree.find("button").text() == HOSTILE

    def test_stylesheet_has_only_checked_values(self) -> None:
        """Free-form props that are not plain CSS values never reach the stylesheet."""
        markup = self.page()
        style = parse(markup).find("style").text()
        assert "display:none" not in style
        assert "url(" not in style
        assert "</" not in style

    def test_policy_names_the_stylesheet(self) -> None:
        """The CSP allows no script and exactly the page's stylesheet, by hash."""
        markup = self.page()
        style = re.search(r"<style>(.*?)</style>", markup, re.DOTALL)
        assert style is not None
        policies = [
            n.attrs["content"] or ""
            for n in parse(markup).find_all("meta")
            if n.attrs.get("http-equiv") == "Content-Security-Policy"
        ]
        assert policies == [content_security_policy(style.group(1))]
        assert "default-src 'none'" in policies[0]
        assert "script-src" not in policies[0]

    def test_markdown_links_follow_the_converter_policy(self) -> None:
        """Markdown keeps exactly the links url_is_safe keeps."""
        assert "href" not in markdown_html("[x](javascript:alert(1))")
        assert "href" not in markdown_html("[x](vbscript:msgbox)")
        assert 'href="https://a.b/c"' in markdown_html("[x](https://a.b/c)")
        assert 'href="relative/path"' in markdown_html("[x](relative/path)")
        # An image's data: URL is no link: an SVG document followed may run script.
        assert "href" not in markdown_html("[x](data:image/svg+xml,<svg onload=alert(1)>)")
        assert "href" not in markdown_html("[x](data:image/png;base64,AA)")
        assert 'src="data:image/png;base64,AA"' in markdown_html("![x](data:image/png;base64,AA)")
        assert "&lt;b&gt;" in markdown_html("<b>raw html</b>")

    def test_markdown_headings_sit_under_the_part(self) -> None:
        """Markdown headings start at h4, below the page's run and part headings."""
        assert markdown_html("# Title\n\n### Sub").split("\n")[:2] == [
            '<h4 class="md-h1">Title</h4>',
            '<h6 class="md-h3">Sub</h6>',
        ]
