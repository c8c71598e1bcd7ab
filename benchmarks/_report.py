"""Turns measurements into ``RESULTS.md`` and the log-scale chart.

Owns the derived figures (MB/s, events/s, microseconds per snapshot, ratios, the
targets of issues 7 and 16, stage shares of a profile) and their presentation. Reads
:class:`Row` and ``_profile.Profile`` values only: it runs nothing and measures
nothing. matplotlib is imported only when a chart is asked for, with the Agg backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

    from _profile import Profile, Stage
    from peers import Result
    from workloads import Meta

__all__ = ["Environment", "Row", "chart", "markdown", "profile_section"]

_MB = 1_000_000
#: The system every ratio is taken from, and the systems it is compared with.
_OURS = "ours"
_PEERS = ("limit", "ag-ui", "a2ui-core", "assistant-ui")
#: One color per system in every panel.
_COLORS = {
    "ours": "C0",
    "ours-patch": "C9",
    "limit": "C2",
    "ag-ui": "C3",
    "a2ui-core": "C4",
    "assistant-ui": "C1",
}
#: The TypeScript client the targets of issue 16 compare with.
_CLIENT = "assistant-ui"


@dataclass(frozen=True)
class Row:
    """One system measured on one input.

    Attributes:
        mode: ``throughput``, ``scaling`` or ``memory``.
        workload: the workload name.
        result: what the child process reported.
        meta: what the generator wrote.
    """

    mode: str
    workload: str
    result: Result
    meta: Meta

    @property
    def system(self) -> str:
        """The system's name."""
        return self.result.system

    @property
    def measured(self) -> bool:
        """True when the system ran and produced timings."""
        return self.result.available and self.result.ok and self.result.seconds > 0

    @property
    def fraction(self) -> float:
        """Share of the input the system got through (below 1 when the budget ran out)."""
        return self.result.bytes / self.meta.bytes if self.meta.bytes else 0.0

    @property
    def mb_per_s(self) -> float:
        """Input megabytes per second."""
        return self.result.bytes / _MB / self.result.seconds if self.measured else math.nan

    @property
    def events_per_s(self) -> float:
        """Input lines per second, the lines counted by the generator."""
        return self.meta.events * self.fraction / self.result.seconds if self.measured else math.nan

    @property
    def us_per_snapshot(self) -> float:
        """Microseconds per ``a2ui-surface`` snapshot or activity delta, all work included."""
        snapshots = self.meta.a2ui_events * self.fraction
        return self.result.seconds / snapshots * 1e6 if self.measured and snapshots else math.nan

    @property
    def us_per_steady_event(self) -> float:
        """Microseconds per measured change after the setup bytes (scaling runs)."""
        done = self.meta.steady_events * min(
            self.result.steady_bytes / max(self.meta.bytes - self.meta.setup_bytes, 1), 1.0
        )
        return self.result.steady_seconds / done * 1e6 if self.measured and done else math.nan

    @property
    def peak_rss_mb(self) -> float:
        """Peak resident memory of the child, in MiB."""
        return self.result.peak_rss_kb / 1024 if self.result.peak_rss_kb else math.nan

    @property
    def base_rss_mb(self) -> float:
        """Resident memory after imports, before the first byte, in MiB."""
        return self.result.base_rss_kb / 1024 if self.result.base_rss_kb else math.nan


@dataclass(frozen=True)
class Environment:
    """Where and how the run happened.

    Attributes:
        command: the command line.
        machine: platform, CPU model and count.
        python: interpreter version.
        packages: distribution name to version (or "not installed").
        commit: the git commit measured.
        notes: extra lines for the header.
    """

    command: str
    machine: str
    python: str
    packages: dict[str, str]
    commit: str
    notes: list[str] = field(default_factory=list)


def _fmt(value: float, digits: int = 1) -> str:
    if math.isnan(value):
        return "-"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def _status(row: Row) -> str:
    result = row.result
    if not result.available:
        return "not available"
    if not result.ok:
        return f"crashed: {result.error}"
    notes = []
    if result.partial:
        notes.append(f"partial: {row.fraction:.0%} of input in the time budget")
    if result.failures:
        notes.append(f"{result.failures:,} failed: {result.first_failure}")
    return "; ".join(notes) or "ok"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _by(rows: list[Row], mode: str) -> dict[str, dict[str, Row]]:
    table: dict[str, dict[str, Row]] = {}
    for row in rows:
        if row.mode == mode:
            table.setdefault(row.workload, {})[row.system] = row
    return table


def _ratio(ours: Row | None, other: Row | None) -> float:
    if ours is None or other is None or not (ours.measured and other.measured):
        return math.nan
    return ours.mb_per_s / other.mb_per_s


def _throughput(rows: list[Row]) -> list[str]:
    lines = [
        "## Throughput",
        "",
        (
            "End to end on the same bytes, one fresh process per cell. MB = 10^6 bytes; "
            "µs/snapshot divides all the time by the `a2ui-surface` snapshots and deltas."
        ),
        "",
        "| workload | MB | system | MB/s | events/s | µs/snapshot | peak RSS MiB | status |",
        "|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for workload, systems in _by(rows, "throughput").items():
        for system, row in systems.items():
            lines.append(
                f"| {workload} | {row.meta.bytes / _MB:.1f} | {system} | {_fmt(row.mb_per_s)} "
                f"| {_fmt(row.events_per_s, 0)} | {_fmt(row.us_per_snapshot)} "
                f"| {_fmt(row.peak_rss_mb)} | {_cell(_status(row))} |"
            )
    lines += ["", "### Ratios (ours ÷ system, by MB/s; above 1 means ours is faster)", ""]
    lines += ["| workload | " + " | ".join(f"ours/{p}" for p in _PEERS) + " |"]
    lines += ["|---|" + "---:|" * len(_PEERS)]
    for workload, systems in _by(rows, "throughput").items():
        ours = systems.get(_OURS)
        cells = [_fmt(_ratio(ours, systems.get(p)), 2) for p in _PEERS]
        lines.append(f"| {workload} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _scaling(rows: list[Row]) -> list[str]:
    table = _by(rows, "scaling")
    if not table:
        return []
    lines = [
        "## Scaling: the same one-value change on surfaces 1x, 10x and 100x larger",
        "",
        (
            "µs per change after the surface exists (setup excluded); growth is the cost "
            "relative to the 1x surface. `scaling-append` (deltas each appending a "
            "component to one list) and `scaling-messages` (one surface per messageId in "
            "one run) grow the stream itself 10x and 100x (50/500/5,000 deltas, "
            "100/1,000/10,000 messageIds, the last the run-wide cap on live surfaces); the "
            "target (issue 12) is µs per event flat."
        ),
        "",
        (
            "| form | factor | surface bytes | system | µs/change | growth vs 1x "
            "| peak RSS MiB | status |"
        ),
        "|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for workload, systems in table.items():
        form, factor = workload.rsplit("-x", 1)
        for system, row in systems.items():
            base = table.get(f"{form}-x1", {}).get(system)
            growth = (
                row.us_per_steady_event / base.us_per_steady_event if base is not None else math.nan
            )
            lines.append(
                f"| {form} | {factor} | {row.meta.setup_bytes:,} | {system} "
                f"| {_fmt(row.us_per_steady_event)} | {_fmt(growth, 2)} "
                f"| {_fmt(row.peak_rss_mb)} | {_cell(_status(row))} |"
            )
    return [*lines, ""]


def _memory(rows: list[Row]) -> list[str]:
    table = _by(rows, "memory")
    if not table:
        return []
    lines = [
        "## Memory: streaming ever larger chat-mixed inputs",
        "",
        "| input MB | system | peak RSS MiB | RSS after imports MiB | MB/s | status |",
        "|---:|---|---:|---:|---:|---|",
    ]
    for systems in table.values():
        for system, row in systems.items():
            lines.append(
                f"| {row.meta.bytes / _MB:,.0f} | {system} | {_fmt(row.peak_rss_mb)} "
                f"| {_fmt(row.base_rss_mb)} | {_fmt(row.mb_per_s)} | {_cell(_status(row))} |"
            )
    return [*lines, ""]


def _verdict(value: float, ok: bool) -> str:
    if math.isnan(value):
        return "not measured"
    return "met" if ok else "**missed**"


def _targets(rows: list[Row]) -> list[str]:
    throughput = _by(rows, "throughput")
    scaling = _by(rows, "scaling")
    memory = [r for r in rows if r.mode == "memory" and r.system == _OURS and r.measured]
    lines = ["## Targets (issue 7)", "", "| target | measured | verdict |", "|---|---|---|"]
    chat = throughput.get("chat-mixed", {})
    value = _ratio(chat.get(_OURS), chat.get("limit"))
    verdict = _verdict(value, value >= 0.5)
    lines.append(f"| chat-mixed ≥ 0.5 of the decode limit | {_fmt(value, 2)} | {verdict} |")
    ratios = {w: _ratio(s.get(_OURS), s.get("a2ui-core")) for w, s in throughput.items()}
    known = [v for v in ratios.values() if not math.isnan(v)]
    worst = min(known) if known else math.nan
    detail = ", ".join(f"{w} {_fmt(v, 1)}" for w, v in ratios.items())
    lines.append(
        f"| ≥ 20x a2ui-core on every A2UI workload | {_cell(detail) or '-'} "
        f"| {_verdict(worst, worst >= 20)} |"
    )
    churn = throughput.get("data-churn-cumulative", {})
    value = 1 / _ratio(churn.get(_OURS), churn.get("limit"))
    lines.append(
        "| data-churn cumulative: snapshot ≤ 1.5x its decode cost "
        f"| {_fmt(value, 2)}x | {_verdict(value, value <= 1.5)} |".replace("| -x |", "| - |")
    )
    low = scaling.get("scaling-delta-x1", {}).get("ours-patch")
    high = scaling.get("scaling-delta-x100", {}).get("ours-patch")
    value = (
        high.us_per_steady_event / low.us_per_steady_event
        if low is not None and high is not None
        else math.nan
    )
    lines.append(
        "| data-churn delta: same patch on a 100x surface < 2x the cost (patch diffs) "
        f"| {_fmt(value, 2)}x | {_verdict(value, value < 2)} |".replace("| -x |", "| - |")
    )
    if memory:
        largest = max(memory, key=lambda r: r.meta.bytes)
        smallest = min(memory, key=lambda r: r.meta.bytes)
        growth = largest.peak_rss_mb - smallest.peak_rss_mb
        value = largest.peak_rss_mb
        text = (
            f"{_fmt(value)} MiB at {largest.meta.bytes / _MB:,.0f} MB; "
            f"+{_fmt(growth)} MiB over {smallest.meta.bytes / _MB:,.0f} MB"
        )
        ok = value < 200 and largest.meta.bytes >= 10**9 and growth < 0.1 * smallest.peak_rss_mb
    else:
        value, text, ok = math.nan, "-", False
    lines.append(
        f"| peak RSS on 1 GB < 200 MiB, flat in input size | {text} | {_verdict(value, ok)} |"
    )
    return [*lines, "", *_client_targets(rows, text, value, ok)]


#: Issue 16: ours ÷ the TypeScript client by MB/s on the same bytes, at least this much.
_CLIENT_RATIOS = (
    ("chat-mixed", "chat-mixed", 2.0),
    ("all-values churn", "data-churn-all", 3.0),
    ("big-surface", "big-surface", 1.0),
    ("one-value cumulative churn", "data-churn-cumulative", 5.0),
    ("many-surfaces", "many-surfaces", 1.0),
)
#: Issue 16: µs per one-value ACTIVITY_DELTA on the 150-component surface, at most.
_DELTA_US = 10.0


def _client_targets(rows: list[Row], memory_text: str, memory: float, flat: bool) -> list[str]:
    throughput = _by(rows, "throughput")
    lines = [
        "## Targets (issue 16: against the TypeScript client)",
        "",
        "Ratios are ours ÷ `assistant-ui` by MB/s in this run; above 1 means ours is faster.",
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
    ]
    for label, workload, floor in _CLIENT_RATIOS:
        systems = throughput.get(workload, {})
        value = _ratio(systems.get(_OURS), systems.get(_CLIENT))
        lines.append(
            f"| {label} ({workload}) ≥ {floor:g}x the client | {_fmt(value, 2)}x "
            f"| {_verdict(value, value >= floor)} |".replace("| -x |", "| - |")
        )
    delta = throughput.get("data-churn-delta", {}).get(_OURS)
    value = delta.us_per_snapshot if delta is not None else math.nan
    lines.append(
        f"| one-value ACTIVITY_DELTA on the 150-component surface ≤ {_DELTA_US:g} µs, end to end "
        f"(data-churn-delta, µs/snapshot) | {_fmt(value)} µs "
        f"| {_verdict(value, value <= _DELTA_US)} |".replace("| - µs |", "| - |")
    )
    lines.append(f"| memory still flat at 1 GB | {memory_text} | {_verdict(memory, flat)} |")
    return [*lines, ""]


#: How each figure is taken, printed under the targets.
_METHOD_NOTES = (
    (
        "Every system reads the same file in 64 KiB chunks in its own fresh process; wall "
        "time covers reading, framing and all work. MB = 10^6 bytes."
    ),
    (
        "`ours`: `a2ui_stream.Processor(keep_runs=0).feed(chunk)` and `close()` (the "
        "streaming configuration `a2ui-stream process` uses, with the cyclic collector "
        "tuned as the command tunes it: `gc.freeze()` and a young-generation threshold "
        "of 100,000), counting part diffs and draining diagnostics after every chunk; "
        "`ours-patch` also renders every update as an RFC 6902 patch."
    ),
    ("`limit`: `msgspec.json.Decoder().decode` on every line, nothing else."),
    (
        "`ag-ui`: `pydantic.TypeAdapter(ag_ui.core.Event).validate_json` on every line "
        "(decode only)."
    ),
    (
        "`a2ui-core`: lines decoded with msgspec; each `a2ui-surface` snapshot is rebuilt by "
        "one `MessageProcessor` (basic v0.9 catalog): the surfaces that messageId made before"
        " are deleted and the snapshot's operations applied, since snapshots are cumulative. "
        "Deltas are applied to the stored content (RFC 6902) and rebuilt the same way. An "
        "exception on one snapshot is counted as failed and the run goes on."
    ),
    (
        "`assistant-ui`: the published TypeScript client (`@assistant-ui/react-ag-ui@0.0.57` "
        "with `@assistant-ui/react-generative-ui@0.0.16`, npm, in `.cache/peers/`) in Node, "
        "driven by `benchmarks/node/assistant_ui.mjs`: every line `JSON.parse`d; each "
        "`a2ui-surface` snapshot rebuilds its messageId's bucket from scratch with "
        "`applyA2uiOperations` and converts its surfaces with `convertSurfaceToUISpec`, as "
        "the client's aggregator does; deltas are applied to the stored content and rebuilt"
        " the same way. It converts only the snapshot's own bucket and does not serialise "
        "the specs (ours does not serialise either). The script times itself, so Node's "
        "start-up is excluded, as the interpreter's is for the others."
    ),
    (
        "Peak RSS is the child's `VmHWM` (its own high-water mark): `ru_maxrss` would inherit"
        " the harness's mark across the vfork and exec that start the child."
    ),
    (
        "A run that exceeds its time budget stops and is marked partial; its rates cover the "
        "part it processed."
    ),
)
_METHOD = ["## Method", "", *(f"- {note}" for note in _METHOD_NOTES), ""]


def markdown(rows: list[Row], env: Environment, *, profiles: Sequence[Profile] = ()) -> str:
    """The whole ``RESULTS.md``.

    Args:
        rows: every measurement of the run.
        env: the command, machine and versions.
        profiles: the profile mode's results, one per workload.

    Returns:
        Markdown text.
    """
    packages = ", ".join(f"{name} {version}" for name, version in env.packages.items())
    lines = [
        "# Benchmark results",
        "",
        "Generated by `benchmarks/run.py`; do not edit by hand.",
        "",
        f"- Command: `{env.command}`",
        f"- Machine: {env.machine}",
        f"- Python: {env.python}",
        f"- Packages: {packages}",
        f"- Commit: {env.commit}",
        *(f"- {note}" for note in env.notes),
        "",
        "![throughput per workload and system, log scale](results.png)",
        "",
        *_targets(rows),
        *_METHOD,
        *_throughput(rows),
        *_scaling(rows),
        *_memory(rows),
        *profile_section(profiles),
    ]
    return "\n".join(lines)


_PROFILE_INTRO = (
    (
        "`ours` on each workload in its own fresh process (`ours-patch` on the delta "
        "workloads, so that part diffing runs), in three passes over the same bytes: the "
        "decode limit, a timed pass, and a `cProfile` pass."
    ),
    (
        "Stage table: inclusive wall time of each stage's functions, from `perf_counter` "
        "timers installed where the caller looks them up. Indented stages run inside the "
        "stage above them and are part of its time; *rest of* a stage is its time minus "
        "its indented stages; *other* is the total minus the top-level stages (the "
        "processor loop, reading the input, draining diagnostics, the timers' own cost). "
        "x limit divides by the time `msgspec.json.Decoder().decode` takes on every line "
        "of the same bytes, measured in the same process first."
    ),
    (
        "Function table: the most self time in the separate `cProfile` pass. cProfile adds"
        " a cost to every Python call, so Python-heavy code weighs more there than in the "
        "stage table; shares are of the total self time it recorded."
    ),
)


def _stage_tree(stages: Sequence[Stage]) -> Iterator[tuple[int, str, int | None, float]]:
    """Depth, name, calls and seconds of each stage, parents first, with computed rests."""
    children: dict[str, list[Stage]] = {}
    for stage in stages:
        children.setdefault(stage.parent, []).append(stage)

    def walk(parent: str, depth: int) -> Iterator[tuple[int, str, int | None, float]]:
        for stage in children.get(parent, []):
            yield depth, stage.name, stage.calls, stage.seconds
            inner = children.get(stage.name, [])
            yield from walk(stage.name, depth + 1)
            if any(child.calls for child in inner):
                rest = stage.seconds - sum(child.seconds for child in inner)
                yield depth + 1, f"rest of {stage.name}", None, rest

    yield from walk("", 0)


def _other(found: Profile) -> float:
    """The total minus the top-level stages, which never overlap."""
    return found.seconds - sum(s.seconds for s in found.stages if not s.parent)


def _largest(found: Profile) -> tuple[str, float]:
    """The stage with the most time, other included.

    A top-level stage with parts (the reducer) is left out: every snapshot's work runs
    inside it, so naming it says nothing; its parts compete instead.
    """
    parents = {s.parent for s in found.stages}
    candidates = [(s.name, s.seconds) for s in found.stages if s.parent or s.name not in parents]
    candidates.append(("everything outside the named stages", _other(found)))
    return max(candidates, key=lambda item: item[1])


def _profile_sentence(found: Profile) -> str:
    name, seconds = _largest(found)
    share = seconds / found.seconds
    sentence = (
        f"On {found.workload}, {name} takes the most time: {share:.0%} of the total, "
        f"{_fmt(seconds / found.limit_seconds, 2)}x the decode limit, of "
        f"{_fmt(found.seconds / found.limit_seconds, 2)}x in all"
    )
    if found.hotspots and found.profiled_seconds:
        top = found.hotspots[0]
        sentence += (
            f"; the function with the most self time is `{top.function}` "
            f"({top.self_seconds / found.profiled_seconds:.0%} under cProfile)"
        )
    return sentence + "."


def _profile_tables(found: Profile) -> list[str]:
    total, limit = found.seconds, found.limit_seconds
    lines = [
        "| stage | calls | ms | share | x limit |",
        "|---|---:|---:|---:|---:|",
        f"| total ({found.system}) | | {_fmt(total * 1e3)} | 100% | {_fmt(total / limit, 2)} |",
    ]
    rows = [*_stage_tree(found.stages), (0, "other", None, _other(found))]
    idle = [name for _, name, calls, _ in rows if calls == 0]
    for depth, name, calls, seconds in rows:
        if calls == 0:
            continue
        label = "&emsp;" * depth + _cell(name)
        count = "" if calls is None else f"{calls:,}"
        lines.append(
            f"| {label} | {count} | {_fmt(seconds * 1e3)} | {seconds / total:.1%} "
            f"| {_fmt(seconds / limit, 2)} |"
        )
    lines += [f"| limit (msgspec decode) | | {_fmt(limit * 1e3)} | | 1.00 |", ""]
    if idle:
        lines += [f"Not called on this workload: {', '.join(idle)}.", ""]
    lines += ["| function (cProfile) | calls | self ms | share |", "|---|---:|---:|---:|"]
    for spot in found.hotspots:
        share = spot.self_seconds / found.profiled_seconds if found.profiled_seconds else math.nan
        lines.append(
            f"| `{_cell(spot.function)}` | {spot.calls:,} | {_fmt(spot.self_seconds * 1e3)} "
            f"| {share:.1%} |"
        )
    return [*lines, ""]


def profile_section(profiles: Sequence[Profile]) -> list[str]:
    """The "Where the time goes" section; empty when nothing was profiled.

    Args:
        profiles: one profile per workload, as the profile mode's children report them.

    Returns:
        Markdown lines.
    """
    if not profiles:
        return []
    lines = ["## Where the time goes", "", *(f"- {note}" for note in _PROFILE_INTRO), ""]
    for found in profiles:
        size = f"{found.bytes / _MB:.1f} MB"
        lines += [f"### {found.workload} ({found.system}, {size})", ""]
        if not found.ok:
            lines += [f"Profile failed: {_cell(found.error)}", ""]
            continue
        notes = []
        if found.partial:
            notes.append(f"timed pass partial: {found.bytes / found.input_bytes:.0%} of input")
        if found.profiled_partial:
            share = found.profiled_bytes / found.input_bytes
            notes.append(f"cProfile pass partial: {share:.0%} of input")
        extra = f" ({'; '.join(notes)}, time budget)" if notes else ""
        lines += [_profile_sentence(found) + extra, "", *_profile_tables(found)]
    return lines


def chart(rows: list[Row], path: Path) -> None:
    """Draw throughput per workload and system (log scale) and the scaling curves.

    Args:
        rows: every measurement of the run.
        path: where the PNG goes.
    """
    import matplotlib as mpl  # noqa: PLC0415 - optional, only when a chart is drawn

    mpl.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after choosing the backend

    throughput = _by(rows, "throughput")
    scaling = _by(rows, "scaling")
    systems = sorted({s for t in throughput.values() for s in t}, key=_system_order)
    colors = {system: _COLORS.get(system, "C7") for system in systems}
    if scaling:
        figure, (bars, curves) = plt.subplots(1, 2, figsize=(16, 5.5), width_ratios=(3, 2))
    else:
        figure, bars = plt.subplots(figsize=(11, 5.5))
    labelled: set[str] = set()
    for position, workload in enumerate(throughput):
        present = [
            s for s in systems if s in throughput[workload] and throughput[workload][s].measured
        ]
        width = 0.8 / max(len(present), 1)
        for index, system in enumerate(present):
            row = throughput[workload][system]
            bars.bar(
                position + (index - (len(present) - 1) / 2) * width,
                row.mb_per_s,
                width=width,
                color=colors[system],
                hatch="//" if row.result.partial else None,
                label=None if system in labelled else system,
            )
            labelled.add(system)
    bars.set_yscale("log")
    bars.set_xticks(range(len(throughput)), list(throughput), rotation=20, ha="right")
    bars.set_ylabel("MB/s (log scale; hatched: partial, time budget)")
    bars.set_title("Throughput, end to end")
    if labelled:
        bars.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    bars.grid(axis="y", which="both", alpha=0.3)
    if scaling:
        _draw_scaling(curves, scaling, _COLORS)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _draw_scaling(axes: Any, table: dict[str, dict[str, Row]], colors: dict[str, str]) -> None:
    series: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for workload, systems in table.items():
        form, factor = workload.rsplit("-x", 1)
        for system, row in systems.items():
            if row.measured:
                key = (system, form.removeprefix("scaling-"))
                series.setdefault(key, []).append((int(factor), row.us_per_steady_event))
    for (system, form), points in sorted(series.items(), key=lambda i: _system_order(i[0][0])):
        points.sort()
        axes.plot(
            [p[0] for p in points],
            [p[1] for p in points],
            marker="o",
            color=colors.get(system),
            linestyle="-" if form == "cumulative" else "--",
            label=f"{system} ({form})",
        )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("surface size factor")
    axes.set_ylabel("µs per one-value change (log scale)")
    axes.set_title("Scaling")
    axes.grid(which="both", alpha=0.3)
    if series:
        axes.legend(fontsize=7)


def _system_order(system: str) -> tuple[int, str]:
    order = ("ours", "ours-patch", "limit", "ag-ui", "a2ui-core", "assistant-ui")
    return (order.index(system) if system in order else len(order), system)
