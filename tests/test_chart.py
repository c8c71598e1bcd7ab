"""Charts drawn as SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from helpers import page_of, surface

if TYPE_CHECKING:
    from html_tree import Node


def chart(**props: Any) -> Node:
    return surface(page_of({"$type": "Chart", **props})).find("figure", "chart")


POINTS = [{"label": "a", "value": 1}, {"label": "b", "value": -2}, {"label": "c", "value": 4}]


class TestChart:
    def test_data_is_one_series(self) -> None:
        """Without ``series``, ``data`` draws one series: a bar per point, no legend."""
        figure = chart(variant="bar", data=POINTS)
        assert len(figure.find_all("rect")) == 3
        assert figure.find_all("ul", "legend") == []
        labels = [t.text() for t in figure.find_all("text")]
        assert labels == ["4", "-2", "a", "b", "c"]

    def test_line_area_sparkline(self) -> None:
        """Lines are polylines, areas add a filled polygon, sparklines have no axis."""
        line = chart(variant="line", data=POINTS)
        assert len(line.find_all("polyline")) == 1
        assert line.find_all("polygon") == []
        area = chart(variant="area", data=POINTS)
        assert len(area.find_all("polygon")) == 1
        spark = chart(variant="sparkline", data=POINTS)
        assert spark.find_all("path", "axis") == []
        assert spark.find("svg").attrs["width"] == "120.0"

    def test_axis_and_legend_follow_their_flags(self) -> None:
        """``showAxis: false`` drops the axis; ``showLegend`` adds the legend."""
        figure = chart(variant="line", data=POINTS, showAxis=False, showLegend=True)
        assert figure.find_all("path", "axis") == []
        assert [li.text() for li in figure.find_all("li")] == ["values"]

    def test_stacked_lines_add_up(self) -> None:
        """Stacked series draw each on top of the ones before it."""
        series = [{"label": "x", "data": [{"value": 1}]}, {"label": "y", "data": [{"value": 1}]}]
        flat = chart(variant="line", series=series).find_all("polyline")
        stacked = chart(variant="line", series=series, stacked=True).find_all("polyline")
        assert flat[0].attrs["points"] == flat[1].attrs["points"]
        assert stacked[0].attrs["points"] != stacked[1].attrs["points"]

    @pytest.mark.parametrize("variant", [["line"], {"a": 1}, None, 3, "pie"])
    def test_a_variant_that_is_no_name_draws_bars(self, variant: Any) -> None:
        """An element handed to the page API as it is: an odd variant is the default."""
        figure = chart(variant=variant, data=POINTS)
        assert len(figure.find_all("rect")) == 3

    def test_no_usable_point(self) -> None:
        """A chart without numbers says so instead of drawing nothing."""
        figure = chart(variant="bar", data=[{"value": "x"}, 5])
        assert figure.text() == "bar chart: no data"

    @pytest.mark.parametrize("variant", ["bar", "line", "area", "sparkline"])
    @pytest.mark.parametrize("stacked", [False, True])
    def test_points_past_a_doubles_range_are_left_out(self, variant: str, stacked: bool) -> None:
        """An infinity (``1e400``, #16) or an integer past a double's range prints as
        ``null`` in args: it is left out, as a point that is not a number is, so the
        chart draws the others with finite coordinates instead of raising."""
        huge = [{"label": "x", "value": float("inf")}, {"label": "y", "value": -float("inf")}]
        huge.append({"label": "z", "value": 10**400})
        drawn = chart(variant=variant, data=[*POINTS, *huge], stacked=stacked, showAxis=True)
        assert drawn == chart(variant=variant, data=POINTS, stacked=stacked, showAxis=True)
        assert chart(variant=variant, data=huge).text() == f"{variant} chart: no data"
