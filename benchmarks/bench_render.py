"""Benchmark the HTML view: a 4,000-component surface drawn as a page, and end to end.

Run: ``.venv/bin/python benchmarks/bench_render.py [--sections 100] [--repeat 7]``.
Prints the best of several repeats per case, as wall-clock and CPU time of this
process (CPU is the steadier figure on a shared machine):

- the element tree of ``bench_convert``'s large surface (``40 * sections`` components
  of every basic type, with bindings, templates and actions) drawn as HTML, with
  Markdown's cache emptied before each run (cold) and kept (warm);
- the whole page of that one part (its tree, its args as pretty JSON, the stylesheet
  and its hash);
- end to end as ``a2ui-stream render`` does it for an A2UI file holding the surface:
  read the messages, reduce and convert them, draw the page (under the default node
  limit, as the command runs).
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import time
from typing import TYPE_CHECKING, Any

from bench_convert import _section, _section_data, big_surface

from a2ui_stream._convert.converter import Converter
from a2ui_stream._shell import render
from a2ui_stream._view.html import ElementRenderer
from a2ui_stream._view.markdown import markdown_html
from a2ui_stream._view.model import Card, Page, Section
from a2ui_stream._view.page import render_page
from a2ui_stream._wire.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Callable


def best(label: str, fn: Callable[[], object], repeat: int, *, cold: bool = False) -> float:
    """Best wall time of ``fn`` over ``repeat`` runs; prints wall and CPU per call."""
    walls, cpus = [], []
    for _ in range(repeat):
        if cold:
            markdown_html.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
    print(f"{label:<62} {min(walls) * 1e3:8.1f} ms wall {min(cpus) * 1e3:8.1f} ms cpu")
    return min(walls)


def _count(element: Any) -> int:
    if type(element) is not dict:
        return 0
    children = element.get("children")
    kids = children if type(children) is list else [children] if children is not None else []
    return 1 + sum(_count(child) for child in kids)


def a2ui_file(sections: int) -> bytes:
    """The large surface as an A2UI v0.9 message file (a JSON array)."""
    components: list[dict[str, Any]] = [
        {"id": "root", "component": "Column", "children": [f"card{i}" for i in range(sections)]}
    ]
    for i in range(sections):
        components += _section(i)
    messages = [
        {"version": "v0.9", "createSurface": {"surfaceId": "big", "catalogId": "basic"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "big", "components": components}},
        {
            "version": "v0.9",
            "updateDataModel": {
                "surfaceId": "big",
                "path": "/",
                "value": {"s": [_section_data(i) for i in range(sections)]},
            },
        },
    ]
    return json.dumps(messages).encode()


def main() -> None:
    """Run every case and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sections", type=int, default=100, help="40 components each")
    parser.add_argument("--repeat", type=int, default=7, help="runs per case (best is kept)")
    options = parser.parse_args()
    gc.collect()
    surface = big_surface(options.sections)
    tree = Converter(limits=Limits(max_nodes=50_000)).convert(surface).element
    if tree is None:
        raise SystemExit("the benchmark surface does not convert")
    html = ElementRenderer().render(tree)
    print(
        f"surface: {len(surface.components)} components -> {_count(tree)} elements"
        f" -> {len(html) / 1e6:.2f} MB of HTML"
    )
    best(
        "element tree -> HTML, Markdown cache cold",
        lambda: ElementRenderer().render(tree),
        options.repeat,
        cold=True,
    )
    best(
        "element tree -> HTML, Markdown cache warm",
        lambda: ElementRenderer().render(tree),
        options.repeat,
    )
    page = Page(
        title="big",
        sections=(
            Section(
                title="Run 1",
                cards=(Card(surface_id="big", tool_call_id="a2ui:big", args=tree, seq=2),),
            ),
        ),
    )
    best(
        "whole page of the part (tree, args JSON, stylesheet hash)",
        lambda: render_page(page),
        options.repeat,
        cold=True,
    )

    data = a2ui_file(options.sections)

    def end_to_end() -> str:
        collected = render.collect(io.BytesIO(data))
        built = render.build_page(
            collected, "big.json", range(len(collected.state.runs)), timeline=False
        )
        return render_page(built)

    best(
        f"end to end: {len(data) / 1e6:.2f} MB A2UI file -> page (default limits)",
        end_to_end,
        options.repeat,
        cold=True,
    )


if __name__ == "__main__":
    main()
