"""Rendered pages in a real browser: headless Chromium builds what we meant, runs nothing.

Each page is made by ``a2ui-stream render`` and loaded from a file by Debian's Chromium
(see ``tests/browser.py``). The DOM it builds must be the tree we wrote (same elements,
classes and text: no parser repair moved anything), buttons and images must be there
with their labels and alt texts, a screenshot must show something, and hostile content
must neither run a script nor leave a ``javascript:`` URL in the document. Skips, with
the reason, where Chromium is absent.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

import pytest
import stream_cases as cases
from browser import CHROMIUM, MISSING, dump_dom, screenshot
from html_tree import Node, parse
from PIL import Image, ImageStat

from a2ui_stream import testing
from a2ui_stream._shell.cli import main

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)

#: Grey-level variance below which a screenshot counts as blank (a blank page is 0; a
#: page of ours is in the thousands).
BLANK_VARIANCE = 50.0
#: Samples of every version and shape: JSON arrays, wrappers and JSONL, images, lists.
SAMPLES = (
    "v0_8__kitchen-sink.json",
    "v0_8__restaurant-finder.json",
    "v0_9__13_coffee-order.json",
    "v0_9__multi_surface.json",
    "v1_0__04_weather-current.json",
    "v1_0__contact_form_example.jsonl",
)
PWNED = "document.title='pwned'"
HOSTILE_TEXTS = (
    f"<script>{PWNED}</script>",
    f'<img src=x onerror="{PWNED}">',
    f"[click](javascript:{PWNED})",
    f"[click](JaVaScRiPt:{PWNED}) <javascript:{PWNED}>",
    f"\"'></style><script>{PWNED}</script><style>",
    f'<svg onload="{PWNED}"></svg><iframe src="javascript:{PWNED}"></iframe>',
)


#: Sample files holding non-protocol entries (MANIFEST.md: composer playback ``action``
#: records): rendering them drops those with an ERROR, so the command exits 1.
WITH_FOREIGN_ENTRIES = frozenset({"v0_8__kitchen-sink.json"})


def render(tmp_path: Path, source: Path, *options: str) -> Path:
    out = tmp_path / f"{source.stem}.html"
    code = main(["render", str(source), "-o", str(out), *options])
    assert code == (1 if source.name in WITH_FOREIGN_ENTRIES else 0)
    return out


def shape(node: Node) -> list[tuple[str, frozenset[str]]]:
    """Every element under ``main`` as (tag, classes), in document order."""
    return [(n.tag, frozenset(n.classes)) for n in node.find("main").elements()]


def loaded(page: Path) -> tuple[Node, Node]:
    """Our page as written, and the document Chromium built from it."""
    return parse(page.read_text()), parse(dump_dom(page))


def assert_same_document(ours: Node, dom: Node) -> None:
    """The browser kept our tree: same elements, classes and text, and our title."""
    assert shape(dom) == shape(ours)
    assert dom.find("main").text() == ours.find("main").text()
    assert dom.find("title").text() == ours.find("title").text()


class TestPages:
    def test_bundled_recording(self, tmp_path: Path) -> None:
        """The recording's page: its texts, its one button with its action, its checkbox."""
        ours, dom = loaded(render(tmp_path, cases.RECORDING_PATH, "--all-runs", "--timeline"))
        assert_same_document(ours, dom)
        text = dom.find("main").text()
        for expected in ("Order", "$42", "Flights to Lisbon", "TP 1351", "€129", "FR 8341"):
            assert expected in text
        assert "Seat 14C confirmed" in text
        buttons = dom.find_all("button")
        assert [b.text() for b in buttons] == ["Book the first"] * 5  # the part and 4 states
        assert dom.find("small", "action").text() == 'a2ui:action book {"first":"TP 1351"}'
        (box,) = {n.attrs["name"] for n in dom.find_all("input")}
        assert box == "ticket"

    @pytest.mark.parametrize("name", SAMPLES)
    def test_samples(self, tmp_path: Path, samples_dir: Path, name: str) -> None:
        """Each sample's page is built as written: cards, buttons, images with alt text."""
        ours, dom = loaded(render(tmp_path, samples_dir / name))
        assert_same_document(ours, dom)
        titles = [h.text() for h in dom.find_all("h3")]
        assert titles == [h.text() for h in ours.find_all("h3")]
        assert titles
        assert len(dom.find_all("button")) == len(ours.find_all("button"))
        images = dom.find_all("img")
        assert [i.attrs.get("alt") for i in images] == [
            i.attrs.get("alt") for i in ours.find_all("img")
        ]
        for image in images:
            assert (image.attrs.get("src") or "").startswith("data:image/")

    def test_images_keep_their_alt_text(self, tmp_path: Path) -> None:
        """Images keep their alt text; a data: image is drawn as is, others as a stand-in."""
        dot = "data:image/png;base64," + base64.b64encode(_PNG).decode()
        messages = [
            testing.create_surface("pics"),
            testing.update_components(
                "pics",
                {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
                {
                    "id": "a",
                    "component": "Image",
                    "url": "https://img.example/bike.png",
                    "altText": "A red bicycle",
                },
                {"id": "b", "component": "Image", "url": dot, "description": "A blue dot"},
                {
                    "id": "c",
                    "component": "Text",
                    "text": "![Map of Lisbon](https://x.example/map.png)",
                },
            ),
        ]
        source = tmp_path / "pics.json"
        source.write_text(json.dumps(messages))
        ours, dom = loaded(render(tmp_path, source))
        assert_same_document(ours, dom)
        images = {i.attrs["alt"]: i.attrs.get("src") or "" for i in dom.find_all("img")}
        assert set(images) == {"A red bicycle", "A blue dot", "Map of Lisbon"}
        assert images["A blue dot"] == dot
        assert images["A red bicycle"].startswith("data:image/svg+xml;")
        assert "img.example" not in images["A red bicycle"]  # only its file name is shown

    def test_screenshot_is_not_blank(self, tmp_path: Path, samples_dir: Path) -> None:
        """A rendered sample shows something; the same check calls an empty page blank."""
        page = render(tmp_path, samples_dir / "v0_9__13_coffee-order.json")
        drawn = ImageStat.Stat(Image.open(screenshot(page, tmp_path / "page.png")).convert("L"))
        empty = tmp_path / "empty.html"
        empty.write_text("<!DOCTYPE html><html><body></body></html>")
        blank = ImageStat.Stat(Image.open(screenshot(empty, tmp_path / "empty.png")).convert("L"))
        assert blank.var[0] < BLANK_VARIANCE < drawn.var[0]


_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVQI12NgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC"
)


def hostile_messages() -> list[dict[str, Any]]:
    """A surface whose ids, labels, props and Markdown all carry hostile text."""
    sid = HOSTILE_TEXTS[4]
    texts = [
        {"id": f"t{i}", "component": "Text", "text": text} for i, text in enumerate(HOSTILE_TEXTS)
    ]
    return [
        testing.create_surface(sid),
        testing.update_components(
            sid,
            {"id": "root", "component": "Card", "title": HOSTILE_TEXTS[0], "child": "col"},
            {
                "id": "col",
                "component": "Column",
                "children": [t["id"] for t in texts] + ["img", "btn", "field", "link"],
            },
            *texts,
            {
                "id": "img",
                "component": "Image",
                "url": f"javascript:{PWNED}",
                "altText": HOSTILE_TEXTS[1],
            },
            {
                "id": "btn",
                "component": "Button",
                "label": HOSTILE_TEXTS[4],
                "action": {"event": {"name": HOSTILE_TEXTS[0], "context": {"x": HOSTILE_TEXTS[1]}}},
            },
            {
                "id": "field",
                "component": "TextField",
                "label": HOSTILE_TEXTS[4],
                "placeholder": HOSTILE_TEXTS[1],
            },
            {"id": "link", "component": "Video", "url": f"javascript:{PWNED}"},
        ),
    ]


def assert_inert(dom: Node) -> None:
    """Nothing ran and nothing could: no script, no handler, no javascript: URL."""
    assert dom.find("title").text().endswith("· a2ui-stream render")
    assert "pwned" not in dom.find("title").text()
    assert dom.find_all("script") == []
    assert dom.find_all("iframe") == []
    for node in dom.elements():
        assert not any(name.lower().startswith("on") for name in node.attrs), node.tag
        for name, value in node.attrs.items():
            if name in {"href", "src", "action", "formaction", "xlink:href"}:
                assert "javascript:" not in (value or "").lower().replace(" ", "")


class TestHostile:
    def test_a2ui_file(self, tmp_path: Path) -> None:
        """Hostile A2UI messages: the page builds as written, escaped, and stays inert."""
        source = tmp_path / "hostile.json"
        source.write_text(json.dumps(hostile_messages()))
        ours, dom = loaded(render(tmp_path, source, "--timeline"))
        assert_same_document(ours, dom)
        assert_inert(dom)
        text = dom.find("main").text()
        assert f"<script>{PWNED}</script>" in text  # shown as the text the agent wrote
        assert dom.find("h3").text().startswith(HOSTILE_TEXTS[4].strip())

    def test_recording(self, tmp_path: Path) -> None:
        """The same in an AG-UI recording, hostile run and thread ids included."""
        events: list[Any] = [
            {"type": "RUN_STARTED", "threadId": HOSTILE_TEXTS[4], "runId": HOSTILE_TEXTS[0]},
            testing.activity_snapshot(HOSTILE_TEXTS[1], hostile_messages()),
            {"type": "RUN_FINISHED", "threadId": HOSTILE_TEXTS[4], "runId": HOSTILE_TEXTS[0]},
        ]
        source = tmp_path / "hostile.jsonl"
        source.write_bytes(testing.jsonl(events))
        ours, dom = loaded(render(tmp_path, source))
        assert_same_document(ours, dom)
        assert_inert(dom)
        assert HOSTILE_TEXTS[0] in dom.find("h2").text()

    def test_the_comparison_sees_a_repaired_tree(self, tmp_path: Path) -> None:
        """Control: markup the parser repairs (a form in a form) is caught by the comparison."""
        page = tmp_path / "nested.html"
        forms = '<form class="a"><form class="b"><input></form></form>'
        page.write_text(f"<!DOCTYPE html><title>t</title><main>{forms}</main>")
        with pytest.raises(AssertionError):
            assert_same_document(parse(page.read_text()), parse(dump_dom(page)))

    def test_the_probe_sees_a_script_that_runs(self, tmp_path: Path) -> None:
        """Control: the same hostile text pasted in raw does run, and the checks say so."""
        page = tmp_path / "unsafe.html"
        body = f"<main>{HOSTILE_TEXTS[0]}</main>"
        page.write_text(
            f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"
        )
        dom = parse(dump_dom(page))
        assert dom.find("title").text() == "pwned"
        with pytest.raises(AssertionError):
            assert_inert(dom)
