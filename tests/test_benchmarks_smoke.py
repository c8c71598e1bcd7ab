"""Smoke tests of the benchmark harness: valid, deterministic inputs and a quick run."""

from __future__ import annotations

import importlib.util
import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from a2ui_stream._wire.codec import decode_event
from a2ui_stream._wire.diagnostics import Diagnostic
from a2ui_stream.a2ui import decode_operation
from a2ui_stream.events import UnknownEvent

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
SIZED = (
    "chat-mixed",
    "big-surface",
    "data-churn-cumulative",
    "data-churn-delta",
    "data-churn-all",
    "many-surfaces",
    "adversarial",
)
SCALING = ("scaling-cumulative", "scaling-delta", "scaling-append", "scaling-messages")
OP_KEYS = {"createSurface", "updateComponents", "updateDataModel", "deleteSurface"}
#: Props that name one child component, and the Tabs list whose items do.
SINGLE_CHILD = ("child", "trigger", "content")
DECODE = msgspec.json.Decoder().decode
#: Profile stages that must record calls on every sized workload, and on some only.
PROFILED_EVERYWHERE = {
    "framing + event decode",
    "reducer",
    "operation decode",
    "surface operations",
    "conversion",
}
PROFILED_BY_WORKLOAD = {
    "chat-mixed": {"data sharing"},
    "data-churn-cumulative": {"data sharing", "plan building", "plan runs"},
    "data-churn-all": {"data sharing"},
    "data-churn-delta": {"content patch (deltas)", "part diffing"},
}


def generate(tmp: Path, workload: str, *extra: str, seed: int = 7) -> bytes:
    out = tmp / f"{workload}-{seed}-{'-'.join(extra)}.jsonl"
    command = [sys.executable, str(BENCH / "workloads.py"), workload, "--seed", str(seed)]
    subprocess.run([*command, "--out", str(out), *extra], check=True)  # noqa: S603 - our script
    return out.read_bytes()


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    tmp = tmp_path_factory.mktemp("workloads")
    made = {name: generate(tmp, name, "--mb", "0.05") for name in SIZED}
    # Big enough for every structural case, small enough to skip the multi-megabyte ones.
    made["adversarial"] = generate(tmp, "adversarial", "--mb", "0.3")
    made["scaling-cumulative"] = generate(tmp, "scaling-cumulative", "--events", "3")
    made["scaling-delta"] = generate(tmp, "scaling-delta", "--factor", "10", "--events", "5")
    made["scaling-append"] = generate(tmp, "scaling-append", "--events", "5")
    made["scaling-messages"] = generate(tmp, "scaling-messages", "--events", "5")
    return made


def lines(data: bytes) -> list[bytes]:
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def operations(event: dict[str, Any]) -> list[Any] | None:
    if event["type"] != "ACTIVITY_SNAPSHOT" or event["activityType"] != "a2ui-surface":
        return None
    ops = event["content"].get("a2ui_operations")
    return ops if isinstance(ops, list) else None


def references(component: dict[str, Any]) -> list[str]:
    ids = [component[key] for key in SINGLE_CHILD if key in component]
    ids += [tab["child"] for tab in component.get("tabs", [])]
    children = component.get("children")
    if isinstance(children, list):
        ids += children
    elif isinstance(children, dict):
        ids.append(children["componentId"])
    return ids


def check_tree(components: list[dict[str, Any]]) -> None:
    by_id = {c["id"]: c for c in components}
    assert len(by_id) == len(components), "duplicate component ids"
    assert "root" in by_id
    seen: set[str] = set()
    stack = ["root"]
    while stack:
        cid = stack.pop()
        assert cid not in seen, f"{cid} reached twice: not a tree"
        seen.add(cid)
        for child in references(by_id[cid]):
            assert child in by_id, f"{cid} names missing child {child}"
            stack.append(child)


class TestWorkloads:
    @pytest.mark.parametrize("name", [*SIZED, *SCALING])
    def test_every_line_is_a_known_agui_event(self, streams: dict[str, bytes], name: str) -> None:
        """Each line decodes with the package's codec to an AG-UI event type it knows."""
        for line in lines(streams[name]):
            assert not isinstance(decode_event(line), UnknownEvent)

    @pytest.mark.parametrize("name", [*SIZED, *SCALING])
    def test_official_sdk_accepts_every_line(self, streams: dict[str, bytes], name: str) -> None:
        """Where ag-ui-protocol is installed, its pydantic models accept every line."""
        if importlib.util.find_spec("ag_ui") is None:
            return  # the optional bench extra is absent; the codec test above still ran
        from ag_ui.core import Event  # noqa: PLC0415 - optional bench dependency
        from pydantic import TypeAdapter  # noqa: PLC0415 - comes with ag-ui-protocol

        validate = TypeAdapter(Event).validate_json
        for line in lines(streams[name]):
            validate(line)

    @pytest.mark.parametrize("name", [*SIZED, "scaling-cumulative", "scaling-messages"])
    def test_a2ui_operations_are_well_formed_v09(
        self, streams: dict[str, bytes], name: str
    ) -> None:
        """Every operation is a v0.9 message with one op key that the package decodes."""
        found = 0
        for line in lines(streams[name]):
            for index, op in enumerate(operations(DECODE(line)) or ()):
                assert op["version"] == "v0.9"
                (key,) = set(op) - {"version"}
                assert key in OP_KEYS
                assert isinstance(op[key]["surfaceId"], str)
                result = decode_operation(msgspec.json.encode(op), index=index)
                assert not isinstance(result, Diagnostic), result
                found += 1
        assert found

    @pytest.mark.parametrize("name", [n for n in SIZED if n != "adversarial"])
    def test_surfaces_are_trees_rooted_at_root(self, streams: dict[str, bytes], name: str) -> None:
        """Outside the adversarial workload every component list is a tree from ``root``."""
        for line in lines(streams[name]):
            for op in operations(DECODE(line)) or ():
                if "updateComponents" in op:
                    check_tree(op["updateComponents"]["components"])

    def test_big_surface_uses_every_basic_component(self, streams: dict[str, bytes]) -> None:
        """Big surfaces carry all 18 basic components, bindings and templates."""
        kinds: set[str] = set()
        bound = templated = False
        for line in lines(streams["big-surface"]):
            for op in operations(DECODE(line)) or ():
                for component in op.get("updateComponents", {}).get("components", []):
                    kinds.add(component["component"])
                    bound = bound or any(
                        isinstance(v, dict) and set(v) == {"path"} for v in component.values()
                    )
                    templated = templated or isinstance(component.get("children"), dict)
        assert len(kinds) == 18
        assert bound
        assert templated

    def test_snapshots_follow_the_middleware_sequence(self, streams: dict[str, bytes]) -> None:
        """Per render call: building, then paints with growing rows, then the full data."""
        sequences: dict[str, list[dict[str, Any]]] = {}
        for line in lines(streams["chat-mixed"]):
            event = DECODE(line)
            if event["type"] == "ACTIVITY_SNAPSHOT":
                assert event["replace"] is True
                sequences.setdefault(event["messageId"], []).append(event["content"])
        streamed = [s for s in sequences.values() if s[0] == {"status": "building"}]
        assert streamed
        for contents in streamed:
            paints = [c["a2ui_operations"] for c in contents if "a2ui_operations" in c]
            assert all("status" in c for c in contents[: len(contents) - len(paints)])
            assert all(list(p[0]) == ["version", "createSurface"] for p in paints)
            assert all(list(p[1]) == ["version", "updateComponents"] for p in paints)
            rows = [len(p[2]["updateDataModel"]["value"]["items"]) for p in paints if len(p) > 2]
            assert rows == sorted(rows)
            assert "title" in paints[-1][2]["updateDataModel"]["value"]

    def test_deltas_replace_one_data_value(self, streams: dict[str, bytes]) -> None:
        """Delta-form churn patches one value under the snapshot's updateDataModel."""
        deltas = [DECODE(line) for line in lines(streams["data-churn-delta"])]
        deltas = [e for e in deltas if e["type"] == "ACTIVITY_DELTA"]
        assert deltas
        for event in deltas:
            (op,) = event["patch"]
            assert op["op"] == "replace"
            assert op["path"].startswith("/a2ui_operations/2/updateDataModel/value/")

    def test_all_values_churn_changes_every_value(self, streams: dict[str, bytes]) -> None:
        """Each re-sent dashboard snapshot changes every scalar of its data model."""

        def leaves(value: Any, path: str = "") -> dict[str, Any]:
            if isinstance(value, dict):
                return {
                    k: v
                    for key, inner in value.items()
                    for k, v in leaves(inner, f"{path}/{key}").items()
                }
            if isinstance(value, list):
                return {
                    k: v
                    for i, inner in enumerate(value)
                    for k, v in leaves(inner, f"{path}/{i}").items()
                }
            return {path: value}

        models: dict[str, list[Any]] = {}
        for line in lines(streams["data-churn-all"]):
            event = DECODE(line)
            for op in operations(event) or []:
                value = op.get("updateDataModel", {}).get("value")
                if isinstance(value, dict) and "title" in value:  # past the streamed paint
                    models.setdefault(event["messageId"], []).append(value)
        assert models
        for finals in models.values():
            assert len(finals) >= 3
            for before, after in itertools.pairwise(finals):
                old, new = leaves(before), leaves(after)
                assert old.keys() == new.keys()
                assert all(old[key] != new[key] for key in old), "a value did not change"

    def test_same_seed_gives_same_bytes(self, tmp_path: Path, streams: dict[str, bytes]) -> None:
        """A workload regenerated with its seed is byte-identical; another seed differs."""
        assert generate(tmp_path, "chat-mixed", "--mb", "0.05") == streams["chat-mixed"]
        assert generate(tmp_path, "chat-mixed", "--mb", "0.05", seed=8) != streams["chat-mixed"]

    def test_size_target_is_reached_and_recorded(self, tmp_path: Path) -> None:
        """The output reaches ``--mb`` and the sidecar counts what was written."""
        out = tmp_path / "many.jsonl"
        command = [sys.executable, str(BENCH / "workloads.py"), "many-surfaces", "--mb", "0.2"]
        subprocess.run([*command, "--out", str(out)], check=True)  # noqa: S603 - our script
        meta = DECODE(out.with_name("many.jsonl.meta.json").read_bytes())
        data = out.read_bytes()
        assert meta["bytes"] == len(data) >= 200_000
        assert meta["events"] == data.count(b"\n")

    def test_adversarial_hits_the_structural_limits(self, streams: dict[str, bytes]) -> None:
        """A small adversarial stream has templates past 100 rows, 5000+ nodes, unknown types."""
        sizes, rows, unknown = [], [], set()
        for line in lines(streams["adversarial"]):
            for op in operations(DECODE(line)) or ():
                components = op.get("updateComponents", {}).get("components", [])
                sizes.append(len(components))
                unknown |= {c["component"] for c in components} - {"Text", "Column", "Row"}
                value = op.get("updateDataModel", {}).get("value")
                if isinstance(value, dict) and isinstance(value.get("items"), list):
                    rows.append(len(value["items"]))
        assert max(sizes) > 5000
        assert max(rows) > 100
        assert {"FancyChart", "Map", "Hologram"} <= unknown


class TestQuickRun:
    def test_quick_run_writes_a_report(self, tmp_path: Path) -> None:
        """``run.py --quick`` exits 0 and writes RESULTS.md with every section."""
        command = [sys.executable, str(BENCH / "run.py"), "--quick"]
        command += ["--data-dir", str(tmp_path / "data"), "--out-dir", str(tmp_path / "out")]
        subprocess.run(command, check=True, capture_output=True)  # noqa: S603 - our script
        report = (tmp_path / "out" / "RESULTS.md").read_text(encoding="utf-8")
        headings = ("## Targets", "## Throughput", "## Scaling", "## Memory", "## Where the time")
        for heading in headings:
            assert heading in report
        assert "| chat-mixed | 0.1 | limit |" in report
        assert "## Targets (issue 16" in report
        if shutil.which("node") and shutil.which("npm"):  # the TypeScript client ran too
            assert "| chat-mixed | 0.1 | assistant-ui |" in report
        saved = DECODE((tmp_path / "out" / "results.json").read_bytes())
        profiles = {p["workload"]: p for p in saved["profiles"]}
        assert set(profiles) == set(SIZED)
        for workload, found in profiles.items():
            assert found["ok"], found["error"]
            assert f"### {workload} ({found['system']}," in report
            calls = {stage["name"]: stage["calls"] for stage in found["stages"]}
            expected = PROFILED_EVERYWHERE | PROFILED_BY_WORKLOAD.get(workload, set())
            assert all(calls[name] > 0 for name in expected), (workload, calls)
            assert found["hotspots"]


class TestMarginal:
    @pytest.mark.parametrize(
        ("shape", "sizes"), [("append", "5,50"), ("messages", "5,50"), ("delta", "1")]
    )
    def test_each_shape_prints_a_cost_per_size(self, shape: str, sizes: str) -> None:
        """``bench_marginal.py`` times the events after each size's setup, all accepted."""
        command = [sys.executable, str(BENCH / "bench_marginal.py"), shape, "--at", sizes]
        command += ["--count", "20", "--repeat", "1", "--patches"]
        done = subprocess.run(command, check=True, capture_output=True, text=True)  # noqa: S603
        rows = done.stdout.splitlines()
        assert [row.split(":")[0] for row in rows] == [
            f"{shape} at {int(size):>6}" for size in sizes.split(",")
        ]
        assert all("µs per event" in row for row in rows)

    @pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
    def test_instructions_are_counted_by_cachegrind(self) -> None:
        """``--instructions`` prints the instructions one event took past its setup."""
        command = [sys.executable, str(BENCH / "bench_marginal.py"), "append", "--at", "5"]
        command += ["--count", "10", "--instructions"]
        done = subprocess.run(command, check=True, capture_output=True, text=True)  # noqa: S603
        [row] = done.stdout.splitlines()
        assert row.startswith("append at      5:")
        counted = int(row.split(":")[1].split("instructions")[0].replace(",", ""))
        assert 10_000 < counted < 10_000_000  # an append delta: hundreds of thousands

    def test_instructions_need_valgrind(self, tmp_path: Path) -> None:
        """Without valgrind on the PATH, ``--instructions`` says what it needs."""
        command = [sys.executable, str(BENCH / "bench_marginal.py"), "append", "--instructions"]
        done = subprocess.run(  # noqa: S603
            command,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PATH": str(tmp_path)},
        )
        assert done.returncode != 0
        assert "needs valgrind" in done.stderr

    def test_a_size_past_the_run_cap_is_refused(self) -> None:
        """Past the run-wide cap on live surfaces the timed events would be refusals."""
        command = [sys.executable, str(BENCH / "bench_marginal.py"), "messages", "--at", "10001"]
        command += ["--count", "5", "--repeat", "1"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
        assert done.returncode != 0
        assert "refused" in done.stderr


@pytest.mark.skipif(not hasattr(os, "wait4"), reason="os.wait4 is POSIX only")
class TestCliGrowth:
    @pytest.mark.parametrize("shape", ["append", "messages"])
    def test_each_length_prints_cpu_and_peak_rss(self, shape: str) -> None:
        """``bench_cli_growth.py`` runs the command over each length and reads its usage."""
        command = [sys.executable, str(BENCH / "bench_cli_growth.py"), shape]
        done = subprocess.run(  # noqa: S603
            [*command, "--events", "20,40"], check=True, capture_output=True, text=True
        )
        first, second = done.stdout.splitlines()
        assert first.startswith(f"{shape}     20 events:")
        assert second.startswith(f"{shape}     40 events:")
        assert "µs per event past 20" in second
        rss = float(second.split("CPU")[1].split("MiB")[0])
        assert rss > 1  # a real child's peak RSS, read off wait4
