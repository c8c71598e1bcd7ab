"""Limits: every value checked when made, the same way from Python and the command line.

A limit outside its range used to be accepted: a negative one refused everything
silently, and a depth in the thousands let the input drive the core past the
interpreter's recursion limit. The ranges live in one table; the deepest values it
allows are run end to end here, under a stack smaller than Python's default.
"""

from __future__ import annotations

import inspect
import io
import json
import sys
from typing import TYPE_CHECKING, Any

import msgspec
import pytest

from a2ui_stream import Limits, Processor, UsageError
from a2ui_stream._shell import render
from a2ui_stream._shell.cli import main
from a2ui_stream._view.page import render_page
from a2ui_stream._view.text import page_text
from a2ui_stream._wire.limits import DEPTH_CEILING, LIMIT_RANGES, SIZE_CEILING, check_limit

if TYPE_CHECKING:
    from pathlib import Path

FIELDS = [field.name for field in msgspec.structs.fields(Limits)]


class TestRanges:
    def test_one_range_per_field(self) -> None:
        assert sorted(LIMIT_RANGES) == sorted(FIELDS)

    def test_defaults_are_within_their_ranges(self) -> None:
        defaults = Limits()
        for name, (low, high) in LIMIT_RANGES.items():
            assert low <= getattr(defaults, name) <= high, name

    @pytest.mark.parametrize("name", FIELDS)
    def test_each_end_is_allowed(self, name: str) -> None:
        low, high = LIMIT_RANGES[name]
        assert getattr(Limits(**{name: low}), name) == low
        assert getattr(Limits(**{name: high}), name) == high

    @pytest.mark.parametrize("name", FIELDS)
    @pytest.mark.parametrize("offset", ["below", "above"])
    def test_outside_is_refused_naming_field_and_range(self, name: str, offset: str) -> None:
        low, high = LIMIT_RANGES[name]
        value = low - 1 if offset == "below" else high + 1
        with pytest.raises(UsageError) as caught:
            Limits(**{name: value})
        message = str(caught.value)
        assert message.startswith(f"{name} must be an integer from {low:,} to ")
        assert message.endswith(f"not {value:,}")

    @pytest.mark.parametrize("value", [True, 5.0, "5", None])
    def test_only_integers(self, value: Any) -> None:
        with pytest.raises(UsageError, match=r"max_nodes must be an integer .*, not "):
            Limits(max_nodes=value)

    def test_depths_stop_at_the_ceiling(self) -> None:
        """A depth in the thousands is refused: past 128 the stack would bound the work."""
        for name in ("max_depth", "max_data_depth"):
            with pytest.raises(UsageError, match=f"{name} must be an integer from 1 to 128, "):
                Limits(**{name: 1000})
        with pytest.raises(UsageError, match=rf"to {SIZE_CEILING:,} \(sys\.maxsize\), not "):
            Limits(max_line_bytes=SIZE_CEILING + 1)

    def test_replace_and_decode_check_too(self) -> None:
        with pytest.raises(UsageError, match="max_operations"):
            msgspec.structs.replace(Limits(), max_operations=-1)
        with pytest.raises(msgspec.ValidationError, match="max_depth"):
            msgspec.convert({"max_depth": 0}, Limits)

    def test_the_docstring_states_the_ceiling(self) -> None:
        assert f"at most :data:`DEPTH_CEILING` ({DEPTH_CEILING})" in " ".join(
            inspect.getdoc(Limits).split()  # type: ignore[union-attr]
        )


class TestCommandLine:
    @pytest.mark.parametrize(
        ("option", "value"),
        [("--max-depth", "1000"), ("--max-data-depth", "129"), ("--max-nodes", "0")],
    )
    def test_same_message_exit_2(
        self,
        option: str,
        value: str,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """A limit option out of range is a usage error saying what ``Limits()`` says."""
        name = option.removeprefix("--").replace("-", "_")
        with pytest.raises(UsageError) as caught:
            check_limit(name, int(value))
        path = tmp_path / "in.jsonl"
        path.write_bytes(b"")
        for command in ("process", "render", "inspect"):
            assert main([command, option, value, str(path)]) == 2
            assert f"argument {option}: {caught.value}" in capsys.readouterr().err

    def test_a_suffixed_size_is_checked_after_scaling(self, tmp_path: Path) -> None:
        path = tmp_path / "in.jsonl"
        path.write_bytes(b"")
        assert main(["process", "--max-depth", "1k", str(path)]) == 2
        assert main(["process", "--max-line-bytes", "1k", str(path)]) == 0


def _deep_stream(elements: int, data: int) -> bytes:
    """Two snapshots of a surface ``elements`` Columns deep, holding data ``data`` deep.

    The data sits both in a Button's action context (copied into the element tree) and
    in the data model; the second snapshot changes its innermost value, so the diff,
    the data sharing and the conversion walk all of it.
    """

    def snapshot(leaf: str) -> str:
        value: Any = leaf
        for _ in range(data - 4):  # below the props' own levels: action, event, context
            value = {"k": value}
        components: list[dict[str, Any]] = [
            {"id": "root" if i == 0 else f"c{i}", "component": "Column", "children": [f"c{i + 1}"]}
            for i in range(elements - 2)
        ]
        action = {"event": {"name": "go", "context": {"deep": value}}}
        components += [
            {"id": f"c{elements - 2}", "component": "Button", "child": "t", "action": action},
            {"id": "t", "component": "Text", "text": leaf},
        ]
        write = {"surfaceId": "s", "path": "/m", "value": value}
        operations = [
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}},
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}},
            {"version": "v0.9", "updateDataModel": write},
        ]
        event = {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "m",
            "activityType": "a2ui-surface",
            "content": {"a2ui_operations": operations},
        }
        return json.dumps(event, separators=(",", ":"))

    return f"{snapshot('x')}\n{snapshot('y')}\n".encode()


class TestAtTheCeiling:
    def test_deepest_allowed_input_runs_on_a_small_stack(self) -> None:
        """At both depth ceilings, everything works with 600 frames above the caller's.

        Python allows 1,000; the core's claim is that the deepest input the limits let
        in needs about 530, leaving the rest to whatever calls it.
        """
        limits = Limits(max_depth=DEPTH_CEILING, max_data_depth=DEPTH_CEILING)
        data = _deep_stream(DEPTH_CEILING, DEPTH_CEILING)
        previous = sys.getrecursionlimit()
        sys.setrecursionlimit(len(inspect.stack(0)) + 600)
        try:
            processor = Processor(limits=limits)
            diffs = processor.feed(data)
            processor.close()
            patches = [diff.patch() for diff in diffs]
            encoded = msgspec.json.encode([diff.args for diff in diffs])
            collected = render.collect(io.BytesIO(data), timeline=True, limits=limits)
            page = render.build_page(collected, "deep", range(1), timeline=True)
            text = page_text(page)
            html = render_page(page)
        finally:
            sys.setrecursionlimit(previous)
        codes = {d.code for d in processor.take_diagnostics()} | {
            d.code for d in collected.diagnostics()
        }
        assert not codes & {"core.internal_error", "convert.failed", "limit.data_depth"}
        assert [diff.op for diff in diffs] == ["add", "update"]
        assert len(patches[1]) == 2  # the label and the innermost context value
        assert encoded.count(b'{"k":') == 2 * (DEPTH_CEILING - 4)
        assert text.count("Col") > 1  # the text tree stops at a depth of its own
        assert html.count('class="col') >= DEPTH_CEILING - 2  # every level drawn

    def test_one_level_more_is_refused_not_run(self) -> None:
        """Data one level past the ceiling is a limit diagnostic, not a deeper walk."""
        limits = Limits(max_depth=DEPTH_CEILING, max_data_depth=DEPTH_CEILING)
        processor = Processor(limits=limits)
        processor.feed(_deep_stream(8, DEPTH_CEILING + 2))
        processor.close()
        assert "limit.data_depth" in {d.code for d in processor.take_diagnostics()}
