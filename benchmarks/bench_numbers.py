"""What printing numbers as JavaScript does costs the command line's output, per line.

Feeds a workload through :class:`a2ui_stream.Processor` as ``a2ui-stream process``
does, keeps every diff line it would print, and encodes them all, in interleaved
rounds, with a reused ``msgspec.json.Encoder()`` (the floor: msgspec's own text) and
with :class:`a2ui_stream._wire.numbers.JsonEncoder` (``JSON.stringify``'s numbers).
``--against ROOT`` adds another checkout's ``JsonEncoder`` (its ``_wire/numbers.py``
loaded on its own, which imports nothing of the package), checked to write the same
bytes. Reports the best CPU time per line of each and its ratio to msgspec. The
workloads' numbers are all ones msgspec prints as JavaScript does. Usage::

    python benchmarks/bench_numbers.py [--workloads chat-mixed,big-surface] [--mb 3]
        [--rounds 40] [--against /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from a2ui_stream import Processor
from a2ui_stream._state.wire import _DiffLine
from a2ui_stream._wire.numbers import JsonEncoder

if TYPE_CHECKING:
    from collections.abc import Callable

_HERE = Path(__file__).resolve().parent


def _lines(path: Path) -> list[Any]:
    """The diff lines ``process`` prints for a workload, as the Structs it encodes."""
    processor = Processor(keep_runs=0)
    lines: list[Any] = []
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(65536), b""):
            lines.extend(
                _DiffLine(
                    seq=diff.seq,
                    run_id=diff.run_id,
                    message_id=diff.message_id,
                    surface_id=diff.surface_id,
                    op=diff.op,
                    tool_call_id=diff.tool_call_id,
                    tool_name=diff.tool_name,
                    args=diff.args,
                )
                for diff in processor.feed(chunk)
            )
            processor.take_diagnostics()
    return lines


def _other(root: Path) -> Callable[[Any], bytes]:
    spec = importlib.util.spec_from_file_location(
        "other_numbers", root / "a2ui_stream/_wire/numbers.py"
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no numbers module under {root}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    encode: Callable[[Any], bytes] = module.JsonEncoder().encode
    return encode


def _cpu(encode: Callable[[Any], bytes], lines: list[Any]) -> float:
    start = time.process_time()
    for line in lines:
        encode(line)
    return time.process_time() - start


def main() -> None:
    """Measure and print one row per workload."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", default="chat-mixed,big-surface")
    parser.add_argument("--mb", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for workload in arguments.workloads.split(","):
            path = Path(folder) / f"{workload}.jsonl"
            command = [sys.executable, str(_HERE / "workloads.py"), workload]
            command += ["--mb", str(arguments.mb), "--seed", "1", "--out", str(path)]
            subprocess.run(command, check=True)
            lines = _lines(path)
            plain = msgspec.json.Encoder().encode
            encoders = {"msgspec": plain, "JsonEncoder": JsonEncoder().encode}
            if arguments.against is not None:
                encoders["other JsonEncoder"] = _other(arguments.against)
            first = [encoders["JsonEncoder"](line) for line in lines]
            for name, encode in encoders.items():
                if name != "msgspec":
                    assert [encode(line) for line in lines] == first, name  # noqa: S101
            best = dict.fromkeys(encoders, float("inf"))
            for _ in range(arguments.rounds):
                for name, encode in encoders.items():
                    best[name] = min(best[name], _cpu(encode, lines))
            count, size = len(lines), sum(map(len, first)) / max(len(lines), 1)
            figures = ", ".join(
                f"{name} {seconds / count * 1e6:,.2f} µs ({seconds / best['msgspec']:.2f}x)"
                for name, seconds in best.items()
            )
            print(f"{workload}: {count} lines of {size / 1000:.1f} KB: {figures}")


if __name__ == "__main__":
    main()
