"""Run the whole benchmark: generate the inputs, measure every system, write the report.

Usage::

    .venv/bin/pip install -e '.[bench]'        # the peers and matplotlib, optional
    .venv/bin/python benchmarks/run.py          # full run, about --mb 30 per workload
    .venv/bin/python benchmarks/run.py --quick  # seconds-long smoke, used by CI

Four modes, all on by default (``--modes``):

- throughput: every sized workload (``workloads.py``) at ``--mb`` megabytes, each
  system in a fresh child process (``peers.py``), so peak RSS is that system's;
- scaling: the same one-value change on surfaces 1x, 10x and 100x larger, as
  cumulative snapshots and as activity deltas; and streams 10x and 100x longer that
  grow what each event works on (a list appended by deltas, a run's messageIds);
- memory: chat-mixed inputs of ``--memory-mb`` sizes (10, 100, 1000) streamed
  through each memory system, reporting peak RSS;
- profile: ``ours`` on every sized workload at ``--profile-mb`` megabytes (at most
  ``--mb``), one child each (``_profile.py``): stage times against the decode
  limit, and the functions with the most self time under ``cProfile``.

Inputs are cached under ``benchmarks/data/`` (git-ignored) and regenerated when the
generator version, size or seed changes. Writes ``RESULTS.md``, ``results.png`` and
``results.json`` to ``--out-dir`` (``benchmarks/``; ``benchmarks/out/`` with
``--quick``). A system that is not installed is reported, not fatal; ``--quick``
needs neither the peers nor matplotlib.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import math
import os
import platform
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec
import workloads
from _profile import Profile
from _report import Environment, Row, chart, markdown
from peers import ASSISTANT_UI_PACKAGES, NODE_SYSTEMS, Result, Unavailable, install_assistant_ui

__all__ = ["main"]

HERE = Path(__file__).resolve().parent
PEERS = HERE / "peers.py"
PROFILER = HERE / "_profile.py"
SYSTEMS = ("ours", "limit", "ag-ui", "a2ui-core", "assistant-ui")
#: Import names that tell whether an optional system is installed.
_PROBES = {"ag-ui": "ag_ui.core", "a2ui-core": "a2ui.core"}
#: The optional peers: quick runs start them only on :data:`_QUICK_PEER_WORKLOADS`.
_OPTIONAL = frozenset({*_PROBES, *NODE_SYSTEMS})
_PACKAGES = (
    "a2ui-stream",
    "msgspec",
    "ag-ui-protocol",
    "a2ui-core",
    "pydantic",
    "pydantic-core",
    "matplotlib",
)
#: Scaling: surface factors, and changes measured per form and factor (full run).
_FACTORS = (1, 10, 100)
_SCALING_EVENTS = {
    "scaling-cumulative": {1: 400, 10: 200, 100: 40},
    "scaling-delta": {1: 2000, 10: 2000, 100: 2000},
    # The stream itself grows 10x and 100x: per-event cost must stay flat (issue 12).
    "scaling-append": {1: 50, 10: 500, 100: 5000},
    # At most the run-wide cap (``Limits.max_run_surfaces``, 10,000): past it every new
    # surface is refused with an error, which measures the refusal, not the run's maps.
    "scaling-messages": {1: 100, 10: 1000, 100: 10000},
}
#: Scaling forms whose updates are also rendered as patches (``ours-patch``).
_PATCHED = ("scaling-delta", "scaling-append")
#: Quick runs start the slow-to-import peers only here: enough to exercise their runners.
_QUICK_PEER_WORKLOADS = ("chat-mixed", "adversarial")
_QUICK_SCALING_EVENTS = {
    "scaling-cumulative": {1: 3, 10: 2, 100: 1},
    "scaling-delta": {1: 10, 10: 10, 100: 10},
    "scaling-append": {1: 5, 10: 50, 100: 500},
    "scaling-messages": {1: 10, 10: 100, 100: 1000},
}


class _SavedRow(msgspec.Struct):
    """One measurement as kept in ``results.json``."""

    mode: str
    workload: str
    result: Result
    meta: workloads.Meta


class _Saved(msgspec.Struct):
    """Everything ``results.json`` holds: enough to redraw the report."""

    environment: Environment
    rows: list[_SavedRow]
    profiles: list[Profile] = msgspec.field(default_factory=list)


#: Why each Node system could not be installed, once asked.
_NODE_PROBLEMS: dict[str, str] = {}


def _installed(system: str) -> bool:
    if system in NODE_SYSTEMS:
        # npm installs into .cache/peers once (a lock makes parallel runs wait, not race).
        if system not in _NODE_PROBLEMS:
            try:
                install_assistant_ui()
                _NODE_PROBLEMS[system] = ""
            except Unavailable as exc:
                _NODE_PROBLEMS[system] = str(exc)
        return not _NODE_PROBLEMS[system]
    probe = _PROBES.get(system)
    if probe is None:
        return True
    try:
        return importlib.util.find_spec(probe) is not None
    except ModuleNotFoundError:
        return False


def _cached(path: Path, workload: str, **options: float) -> workloads.Meta:
    """The workload at ``path``, generated unless an up-to-date copy is there."""
    meta_file = workloads.meta_path(path)
    if path.exists() and meta_file.exists():
        meta = msgspec.json.decode(meta_file.read_bytes(), type=workloads.Meta)
        if meta.version == workloads.GENERATOR_VERSION and path.stat().st_size == meta.bytes:
            return meta
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    meta = workloads.generate_file(path, workload, **options)
    elapsed = time.perf_counter() - started
    print(f"  generated {path.name}: {meta.bytes / 1e6:.1f} MB in {elapsed:.1f} s", flush=True)
    return meta


def _child(system: str, path: Path, *, setup_bytes: int, budget: float) -> Result:
    """Measure one system on one file in a fresh interpreter."""
    command = [sys.executable, str(PEERS), system, str(path), "--setup-bytes", str(setup_bytes)]
    command += ["--budget", str(budget)]
    timeout = budget * 2 + 120
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Result(system=system, ok=False, error=f"no result within {timeout:.0f} s, killed")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return Result(system=system, ok=False, error=tail[0])
    return msgspec.json.decode(lines[-1], type=Result)


def _measure(
    mode: str,
    workload: str,
    path: Path,
    meta: workloads.Meta,
    *,
    systems: list[str],
    budget: float,
    jobs: int,
    repeat: int = 1,
) -> list[Row]:
    """Measure each system on one input, best of ``repeat``; ``jobs`` > 1 runs them side by side.

    Repeats are interleaved: each round runs every system once, so a burst of load from
    another process on a shared machine slows the systems of one round alike instead of
    every run of one system. The fastest run of each system is kept: noise only ever
    slows a run down.
    """

    def one(system: str) -> Result:
        if not _installed(system):
            hint = f"{system} not installed (pip install -e '.[bench]')"
            error = _NODE_PROBLEMS.get(system) or hint
            return Result(system=system, available=False, ok=False, error=error)
        return _child(system, path, setup_bytes=meta.setup_bytes, budget=budget)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rounds = [list(pool.map(one, systems)) for _ in range(repeat)]
    rows = [
        Row(mode, workload, min(results, key=lambda r: (not r.ok, r.seconds)), meta)
        for results in zip(*rounds, strict=True)
    ]
    for row in rows:
        print(f"  {workload:<26} {row.system:<10} {_summary(row)}", flush=True)
    return rows


def _summary(row: Row) -> str:
    if not row.result.available:
        return "not available"
    if not row.result.ok:
        return f"crashed: {row.result.error}"
    text = f"{row.mb_per_s:8.1f} MB/s  {row.peak_rss_mb:6.1f} MiB"
    if row.mode == "scaling":
        text += f"  {row.us_per_steady_event:10.1f} µs/change"
    if row.result.partial:
        text += f"  (partial {row.fraction:.0%})"
    if row.result.failures:
        text += f"  ({row.result.failures} failed)"
    return text


def _throughput(args: argparse.Namespace, systems: list[str]) -> list[Row]:
    print(f"throughput: {args.mb:g} MB per workload", flush=True)
    rows = []
    for workload in args.workloads:
        path = args.data_dir / f"{workload}-{args.mb:g}mb-s{args.seed}.jsonl"
        meta = _cached(path, workload, mb=args.mb, seed=args.seed)
        chosen = [*systems, "ours-patch"] if workload.endswith("-delta") else systems
        if args.quick and workload not in _QUICK_PEER_WORKLOADS:
            chosen = [s for s in chosen if s not in _OPTIONAL]
        rows += _measure(
            "throughput",
            workload,
            path,
            meta,
            systems=chosen,
            budget=args.budget,
            jobs=args.jobs,
            repeat=args.repeat,
        )
    return rows


def _scaling(args: argparse.Namespace, systems: list[str]) -> list[Row]:
    print("scaling: one-value changes on 1x, 10x, 100x surfaces", flush=True)
    counts = _QUICK_SCALING_EVENTS if args.quick else _SCALING_EVENTS
    if args.quick:
        # The peers' runners were exercised above; here only the code paths matter.
        systems = [s for s in systems if s not in _OPTIONAL]
    rows = []
    for workload, per_factor in counts.items():
        chosen = [*systems, "ours-patch"] if workload in _PATCHED else systems
        for factor in _FACTORS:
            events = per_factor[factor]
            path = args.data_dir / f"{workload}-x{factor}-n{events}-s{args.seed}.jsonl"
            meta = _cached(path, workload, factor=factor, events=events, seed=args.seed)
            name = f"{workload}-x{factor}"
            rows += _measure(
                "scaling",
                name,
                path,
                meta,
                systems=chosen,
                budget=args.budget,
                jobs=args.jobs,
                repeat=args.repeat,
            )
    return rows


def _memory(args: argparse.Namespace) -> list[Row]:
    print(f"memory: chat-mixed at {args.memory_mb} MB", flush=True)
    rows = []
    for size in args.memory_mb:
        # Generated once into a scratch file, streamed by each system, then deleted.
        path = args.data_dir / f"memory-chat-mixed-{size:g}mb-s{args.seed}.jsonl"
        try:
            meta = _cached(path, "chat-mixed", mb=size, seed=args.seed)
            name = f"chat-mixed-{size:g}mb"
            systems = args.memory_systems
            budget = args.memory_budget
            rows += _measure(
                "memory", name, path, meta, systems=systems, budget=budget, jobs=args.jobs
            )
        finally:
            path.unlink(missing_ok=True)
            workloads.meta_path(path).unlink(missing_ok=True)
    return rows


def _profile_child(workload: str, path: Path, *, patches: bool, budget: float) -> Profile:
    """Profile ours on one file in a fresh interpreter."""
    command = [sys.executable, str(PROFILER), workload, str(path), "--budget", str(budget)]
    command += ["--patches"] if patches else []
    system = "ours-patch" if patches else "ours"
    # Up to four passes over the input (limit, timed, the limit again, cProfile).
    timeout = budget * 4 + 120
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Profile(
            workload=workload, system=system, ok=False, error=f"no result within {timeout:.0f} s"
        )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return Profile(workload=workload, system=system, ok=False, error=tail[0])
    return msgspec.json.decode(lines[-1], type=Profile)


def _profiles(args: argparse.Namespace) -> list[Profile]:
    print(f"profile: ours at {args.profile_mb:g} MB per workload", flush=True)
    paths = {}
    for workload in args.workloads:
        path = args.data_dir / f"{workload}-{args.profile_mb:g}mb-s{args.seed}.jsonl"
        _cached(path, workload, mb=args.profile_mb, seed=args.seed)
        paths[workload] = path

    def one(workload: str) -> Profile:
        # Part diffing only runs when updates are rendered as patches, as on the delta form.
        patches = workload.endswith("-delta")
        return _profile_child(workload, paths[workload], patches=patches, budget=args.budget)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        profiles = list(pool.map(one, args.workloads))
    for found in profiles:
        if not found.ok:
            text = f"FAILED: {found.error}"
        else:
            ratio = found.seconds / found.limit_seconds if found.limit_seconds else math.nan
            text = f"{found.bytes / 1e6:6.1f} MB  {ratio:6.1f}x the decode limit (timed pass)"
            text += f"  (partial {found.bytes / found.input_bytes:.0%})" if found.partial else ""
        print(f"  {found.workload:<26} {found.system:<10} {text}", flush=True)
    return profiles


def _load(when: str) -> str:
    """The machine's load averages, for the report: others' work slows every figure."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return f"Load average {when}: unknown"
    return f"Load average {when}: {one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5, 15 min)"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _node_versions() -> dict[str, str]:
    """Node's version and the pinned npm packages, when the Node peer is installed."""
    if any(_NODE_PROBLEMS.values()) or not _NODE_PROBLEMS:
        return {}
    try:
        node = subprocess.run(
            ["node", "--version"],  # noqa: S607 - node from PATH, read-only
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {}
    return {"node": node.removeprefix("v")} | {
        spec.rsplit("@", 1)[0]: spec.rsplit("@", 1)[1] for spec in ASSISTANT_UI_PACKAGES
    }


def _commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607 - git from PATH, read-only
            capture_output=True,
            text=True,
            cwd=HERE,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],  # noqa: S607 - same
            capture_output=True,
            text=True,
            cwd=HERE,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} (uncommitted changes)" if dirty else head


def _environment(argv: list[str], notes: list[str]) -> Environment:
    cpus = os.cpu_count() or 0
    return Environment(
        command=shlex.join([".venv/bin/python", "benchmarks/run.py", *argv]),
        machine=f"{platform.platform()}, {platform.machine()}, {_cpu_model()}, {cpus} CPUs",
        python=f"{platform.python_implementation()} {platform.python_version()}",
        packages={name: _version(name) for name in _PACKAGES} | _node_versions(),
        commit=_commit(),
        notes=notes,
    )


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, help="megabytes per workload (default 30; 0.1 quick)")
    parser.add_argument("--quick", action="store_true", help="seconds-long smoke run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated")
    parser.add_argument(
        "--workloads", default=",".join(workloads.SIZED_WORKLOADS), help="comma-separated"
    )
    parser.add_argument(
        "--modes", default="throughput,scaling,memory,profile", help="comma-separated"
    )
    parser.add_argument("--budget", type=float, help="seconds per system and input (default 120)")
    parser.add_argument("--memory-mb", help="comma-separated sizes (default 10,100,1000)")
    parser.add_argument("--memory-systems", default="ours,limit", help="comma-separated")
    parser.add_argument("--memory-budget", type=float, help="seconds per memory run (default 900)")
    parser.add_argument(
        "--profile-mb",
        type=float,
        help="megabytes per profiled workload (default: --mb, at most 10)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell; the fastest is kept")
    parser.add_argument("--note", action="append", default=[], help="a line for the report header")
    parser.add_argument(
        "--from-json", type=Path, help="re-render the report from a results.json, measuring nothing"
    )
    parser.add_argument("--data-dir", type=Path, default=HERE / "data")
    parser.add_argument("--out-dir", type=Path)
    args = parser.parse_args(argv)
    quick = args.quick
    args.mb = args.mb if args.mb is not None else (0.1 if quick else 30.0)
    args.profile_mb = min(args.profile_mb if args.profile_mb is not None else 10.0, args.mb)
    args.budget = args.budget if args.budget is not None else (10.0 if quick else 120.0)
    args.memory_budget = args.memory_budget or (10.0 if quick else 900.0)
    memory = args.memory_mb or ("1" if quick else "10,100,1000")
    args.memory_mb = [float(size) for size in memory.split(",")]
    # Quick runs check that everything runs, not how fast: children may share the CPUs.
    args.jobs = (os.cpu_count() or 1) if quick else 1
    args.out_dir = args.out_dir or (HERE / "out" if quick else HERE)
    for name in ("systems", "workloads", "modes", "memory_systems"):
        setattr(args, name, [item for item in getattr(args, name).split(",") if item])
    unknown = set(args.workloads) - set(workloads.SIZED_WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads: {sorted(unknown)}")
    return args


def _write_report(
    args: argparse.Namespace, rows: list[Row], env: Environment, profiles: list[Profile]
) -> None:
    args.out_dir.mkdir(parents=True, exist_ok=True)
    text = markdown(rows, env, profiles=profiles)
    (args.out_dir / "RESULTS.md").write_text(text, encoding="utf-8")
    if importlib.util.find_spec("matplotlib") is not None:
        chart(rows, args.out_dir / "results.png")
    elif not args.quick:
        print("matplotlib not installed: no chart (pip install -e '.[bench]')", file=sys.stderr)
    print(f"wrote {args.out_dir / 'RESULTS.md'}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write the report.

    Args:
        argv: arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status: 0 when the report was written, 1 when it was written but a
        profile failed (a crash, or a stage timer that is no longer on the call path).
    """
    argv = sys.argv[1:] if argv is None else argv
    args = _parse(argv)
    if args.from_json is not None:
        saved = msgspec.json.decode(args.from_json.read_bytes(), type=_Saved)
        rows = [Row(r.mode, r.workload, r.result, r.meta) for r in saved.rows]
        _write_report(args, rows, saved.environment, saved.profiles)
        return 0
    systems = [s for s in args.systems if not (args.quick and not _installed(s))]
    skipped = sorted(set(args.systems) - set(systems))
    notes = [f"Skipped (not installed): {', '.join(skipped)}"] if skipped else []
    notes += args.note
    notes.append(_load("at the start"))
    rows = []
    if "throughput" in args.modes:
        rows += _throughput(args, systems)
    if "scaling" in args.modes:
        rows += _scaling(args, systems)
    if "memory" in args.modes:
        rows += _memory(args)
    profiles = _profiles(args) if "profile" in args.modes else []
    notes.append(_load("at the end"))
    env = _environment(argv, notes)
    saved = _Saved(
        environment=env,
        rows=[_SavedRow(r.mode, r.workload, r.result, r.meta) for r in rows],
        profiles=profiles,
    )
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "results.json").write_bytes(msgspec.json.format(msgspec.json.encode(saved)))
    _write_report(args, rows, env, profiles)
    failed = [p.workload for p in profiles if not p.ok]
    if failed:
        print(f"profile failed on {', '.join(failed)}: see RESULTS.md", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
