"""Where ``ours`` spends its time on one workload, measured in a child process.

Owns the profile mode's child and its result types. Run as
``python benchmarks/_profile.py WORKLOAD PATH [--patches] [--budget S]``; the last
stdout line is a JSON :class:`Profile`. Three passes over the same bytes, each with a
fresh runner from ``peers.py`` (so the configuration is exactly the ``ours`` or
``ours-patch`` system's):

1. the decode limit (``limit``), the yardstick every stage is divided by;
2. ``ours`` with a ``perf_counter`` accumulator around each stage in :data:`STAGES`,
   installed where the caller looks the name up (a module global or a class
   attribute), and removed afterwards;
3. ``ours`` under ``cProfile``, for the functions with the most self time.

A stage that must run on the workload but records no call means its wrapper is not
on the call path any more (the code moved): the profile says so in
:attr:`Profile.missing` instead of reporting a silent zero.

Reads ``a2ui_stream`` only by module name, to wrap and unwrap its functions; changes
nothing else in it.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from peers import Result, measure

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["STAGES", "Hotspot", "Profile", "Site", "Stage", "StageSpec", "main", "profile"]

#: Functions kept from the ``cProfile`` pass, by self time.
TOP_FUNCTIONS = 12


class Site(NamedTuple):
    """Where a stage's function is looked up when it is called.

    Attributes:
        module: the module that holds the name (the caller's module for a global).
        owner: the class whose attribute it is, or ``""`` for a module global.
        name: the attribute or global name.
    """

    module: str
    owner: str
    name: str


class StageSpec(NamedTuple):
    """One stage: a name, its enclosing stage, and the functions that make it up.

    Attributes:
        name: what the report calls it.
        parent: the stage it runs inside, or ``""`` for a top-level stage.
        sites: the functions whose inclusive time is the stage's time.
        required: when the stage must record calls: a key of :data:`_REQUIRED`.
    """

    name: str
    parent: str
    sites: tuple[Site, ...]
    required: str


_REDUCER = "a2ui_stream._engine.reducer"
_BUCKETS = "a2ui_stream._engine.buckets"
_SHARING = "a2ui_stream._engine.sharing"

#: The stages, parents before children. Stages with the same parent never overlap.
STAGES: tuple[StageSpec, ...] = (
    StageSpec(
        "framing + event decode",
        "",
        (
            Site("a2ui_stream._wire.codec", "EventDecoder", "feed"),
            Site("a2ui_stream._wire.codec", "EventDecoder", "close"),
        ),
        "always",
    ),
    StageSpec(
        "reducer",
        "",
        (Site(_REDUCER, "Reducer", "reduce"), Site(_REDUCER, "Reducer", "skip")),
        "always",
    ),
    StageSpec("content patch (deltas)", "reducer", (Site(_REDUCER, "", "patch_content"),), "delta"),
    StageSpec(
        "operation decode",
        "reducer",
        (Site(_SHARING, "", "decode_operation"), Site(_BUCKETS, "", "normalize_document")),
        "always",
    ),
    StageSpec("surface operations", "reducer", (Site(_BUCKETS, "", "apply_operation"),), "always"),
    StageSpec(
        "data sharing",
        "reducer",
        (Site(_SHARING, "", "shared_write"), Site(_BUCKETS, "", "share_data")),
        "resent",
    ),
    StageSpec(
        "conversion",
        "reducer",
        (Site("a2ui_stream._convert.converter", "Converter", "convert"),),
        "always",
    ),
    StageSpec(
        "plan building",
        "conversion",
        (Site("a2ui_stream._convert.plans", "Plans", "build"),),
        "planned",
    ),
    StageSpec(
        "plan runs", "conversion", (Site("a2ui_stream._convert.plans", "Plan", "run"),), "planned"
    ),
    StageSpec(
        "part diffing", "", (Site("a2ui_stream._state.stream", "_Diff", "patch"),), "patches"
    ),
)

#: Workloads that send the same surface again, so data is shared and changes detected.
_RESENDING = frozenset(
    {
        "chat-mixed",
        "big-surface",
        "data-churn-cumulative",
        "data-churn-delta",
        "data-churn-all",
        "many-surfaces",
    }
)
#: Workloads whose one component set is re-sent often enough, even at a smoke run's
#: size, to be compiled into a plan (at its ``COMPILE_AT``-th conversion). The others may
#: or may not be: chat surfaces are re-sent fewer times than that, data-churn-all and
#: the deltas only at larger sizes, and big-surface's sets are too large to compile.
_PLANNED = frozenset({"data-churn-cumulative"})
#: When a stage must record calls, by workload name and whether part diffs are patched.
_REQUIRED: dict[str, Callable[[str, bool], bool]] = {
    "always": lambda _workload, _patches: True,
    "delta": lambda workload, _patches: workload.endswith("-delta"),
    "resent": lambda workload, _patches: workload in _RESENDING,
    "planned": lambda workload, _patches: workload in _PLANNED,
    "patches": lambda _workload, patches: patches,
}


class Stage(msgspec.Struct, kw_only=True):
    """One stage's inclusive wall time in the timed pass.

    Attributes:
        name: the stage's name.
        parent: the enclosing stage's name, or ``""``.
        calls: outermost calls into the stage's functions.
        seconds: wall time inside them, nested calls of the same stage counted once.
    """

    name: str
    parent: str = ""
    calls: int = 0
    seconds: float = 0.0


class Hotspot(msgspec.Struct, kw_only=True):
    """One function from the ``cProfile`` pass.

    Attributes:
        function: ``module:function``.
        calls: calls, recursive ones included.
        self_seconds: time in the function itself, callees excluded.
    """

    function: str
    calls: int
    self_seconds: float


class Profile(msgspec.Struct, kw_only=True):
    """Where the time went on one workload.

    Attributes:
        workload: the workload name.
        system: ``ours``, or ``ours-patch`` when part diffs were rendered as patches.
        ok: False when a pass crashed, or a required stage recorded no call.
        error: why, or empty.
        missing: stages that must run on this workload but recorded no call.
        input_bytes: the size of the input file.
        bytes: bytes the timed pass got through.
        partial: True when the timed pass ran out of budget before the input did.
        seconds: wall time of the timed pass, the stage timers' own cost included.
        limit_seconds: the decode limit's wall time on the same bytes.
        stages: one entry per stage in :data:`STAGES` order.
        profiled_bytes: bytes the ``cProfile`` pass got through.
        profiled_partial: True when the ``cProfile`` pass ran out of budget.
        profiled_seconds: total self time ``cProfile`` recorded.
        hotspots: the functions with the most self time, most first.
    """

    workload: str
    system: str = "ours"
    ok: bool = True
    error: str = ""
    missing: list[str] = msgspec.field(default_factory=list)
    input_bytes: int = 0
    bytes: int = 0
    partial: bool = False
    seconds: float = 0.0
    limit_seconds: float = 0.0
    stages: list[Stage] = msgspec.field(default_factory=list)
    profiled_bytes: int = 0
    profiled_partial: bool = False
    profiled_seconds: float = 0.0
    hotspots: list[Hotspot] = msgspec.field(default_factory=list)


class _Timer:
    """Accumulates the inclusive time of the functions it wraps."""

    def __init__(self) -> None:
        self.calls = 0
        self.seconds = 0.0
        self._depth = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Return ``function`` timed into this accumulator; nested calls are counted once."""
        now = time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return function(*args, **kwargs)
            self._depth = 1
            start = now()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += now() - start
                self.calls += 1
                self._depth = 0

        return timed


def _holder(site: Site) -> Any:
    module = importlib.import_module(site.module)
    return getattr(module, site.owner) if site.owner else module


class _Installed:
    """The stage timers, installed at their sites for the length of a ``with`` block."""

    def __init__(self) -> None:
        self.timers = {spec.name: _Timer() for spec in STAGES}
        self._originals: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> dict[str, _Timer]:
        for spec in STAGES:
            timer = self.timers[spec.name]
            for site in spec.sites:
                holder = _holder(site)
                # From __dict__, not getattr: a class must get back the plain function.
                original = vars(holder).get(site.name)
                if original is None:
                    where = ".".join(filter(None, (site.module, site.owner)))
                    self.__exit__()
                    raise LookupError(f"{where} has no function {site.name}: update STAGES")
                self._originals.append((holder, site.name, original))
                setattr(holder, site.name, timer.wrap(original))
        return self.timers

    def __exit__(self, *_exc: object) -> None:
        for holder, name, original in reversed(self._originals):
            setattr(holder, name, original)
        self._originals.clear()


def _run(
    system: str, data: bytes, budget: float, profiler: cProfile.Profile | None = None
) -> Result:
    """One pass of ``system`` over ``data``; under ``profiler`` when given (the runs only)."""
    source = io.BytesIO(data)
    if profiler is None:
        result = measure(system, source, budget=budget)
    else:
        result = profiler.runcall(measure, system, source, budget=budget)
    if not result.ok:
        raise RuntimeError(f"{system}: {result.error}")
    return result


_BUILTIN_METHOD = re.compile(r"<method '(?P<name>[^']+)' of '(?P<owner>[^']+)' objects>")
_BUILTIN_FUNCTION = re.compile(r"<built-in method (?P<name>[^>]+)>")


def _function_name(filename: str, function: str, modules: dict[str, str]) -> str:
    """``module:function`` for a ``cProfile`` entry, C functions included."""
    if filename == "~":
        method = _BUILTIN_METHOD.fullmatch(function)
        if method is not None:
            owner = method["owner"]
            module, _, cls = owner.rpartition(".")
            return f"{module or 'builtins'}:{cls}.{method['name']}"
        builtin = _BUILTIN_FUNCTION.fullmatch(function)
        if builtin is not None:
            module, _, name = builtin["name"].rpartition(".")
            return f"{module or 'builtins'}:{name}"
        return f"builtins:{function}"
    return f"{modules.get(filename, Path(filename).stem)}:{function}"


def _module_files() -> dict[str, str]:
    files = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            files[path] = name
    return files


def _hotspots(profiler: cProfile.Profile) -> tuple[float, list[Hotspot]]:
    """The total self time and the functions with the most of it."""
    # pstats has no typed accessor for its table; ``stats`` maps
    # (file, line, function) to (primitive calls, calls, self s, cumulative s, callers).
    table: dict[tuple[str, int, str], tuple[Any, ...]] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in table.values())
    modules = _module_files()
    ranked = sorted(table.items(), key=lambda item: item[1][2], reverse=True)
    top = [
        Hotspot(
            function=_function_name(filename, function, modules),
            calls=int(entry[1]),
            self_seconds=float(entry[2]),
        )
        for (filename, _line, function), entry in ranked[:TOP_FUNCTIONS]
    ]
    return total, top


def profile(workload: str, data: bytes, *, patches: bool = False, budget: float = 0.0) -> Profile:
    """Profile ``ours`` on one workload's bytes: limit, timed stages, then ``cProfile``.

    Args:
        workload: the workload name; decides which stages must record calls.
        data: the whole JSONL input.
        patches: run ``ours-patch`` (part diffs rendered as RFC 6902 patches).
        budget: seconds per pass (0: no limit); a pass that hits it is marked partial.

    Returns:
        The profile; ``ok`` is False when a pass crashed or a required stage recorded
        no call.
    """
    system = "ours-patch" if patches else "ours"
    out = Profile(workload=workload, system=system, input_bytes=len(data))
    try:
        limit = _run("limit", data, budget)
        with _Installed() as timers:
            timed = _run(system, data, budget)
        if timed.bytes < limit.bytes:
            # Out of budget: the limit again, on the part that was processed.
            limit = _run("limit", data[: timed.bytes], 0.0)
        out.bytes, out.partial, out.seconds = timed.bytes, timed.partial, timed.seconds
        out.limit_seconds = limit.seconds
        out.stages = [
            Stage(
                name=spec.name,
                parent=spec.parent,
                calls=timers[spec.name].calls,
                seconds=timers[spec.name].seconds,
            )
            for spec in STAGES
        ]
        profiler = cProfile.Profile()
        profiled = _run(system, data, budget, profiler)
        out.profiled_bytes, out.profiled_partial = profiled.bytes, profiled.partial
        out.profiled_seconds, out.hotspots = _hotspots(profiler)
    except Exception as exc:  # noqa: BLE001 - a crash is reported in the profile
        out.ok, out.error = False, f"{type(exc).__name__}: {exc}"[:300]
        return out
    if not out.partial:
        out.missing = [
            spec.name
            for spec, stage in zip(STAGES, out.stages, strict=True)
            if _REQUIRED[spec.required](workload, patches) and stage.calls == 0
        ]
    if out.missing:
        out.ok = False
        out.error = (
            f"no calls recorded for {', '.join(out.missing)}: the timer is not on the call "
            "path (see STAGES in benchmarks/_profile.py)"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Child entry point: profile one workload and print the result.

    Args:
        argv: arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status: 0 whenever a profile was printed (its ``ok`` says how it went).
    """
    parser = argparse.ArgumentParser(description="Profile ours on one JSONL input.")
    parser.add_argument("workload")
    parser.add_argument("path")
    parser.add_argument("--patches", action="store_true", help="profile ours-patch")
    parser.add_argument("--budget", type=float, default=0.0, help="seconds per pass")
    args = parser.parse_args(argv)
    data = Path(args.path).read_bytes()
    result = profile(args.workload, data, patches=args.patches, budget=args.budget)
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
