"""An archive of the bundled shapes, and its single-process reference fold.

Builds a directory of recordings the way archives hold them: the bundled recording,
every sized benchmark workload cut into threads of a few runs each, one thread split
over two files in a subdirectory, an SSE recording, a recording without any
``RUN_STARTED`` (named after its file), and one with bad lines. :func:`reference`
folds each thread in this process with the core alone: what every engine must give,
byte for byte.
"""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import TypeAlias

import msgspec
from stream_cases import LIFECYCLE, RECORDING, to_sse

from a2ui_stream._engine.threads import ThreadFold, ThreadResult, find_thread, thread_name
from a2ui_stream._state.wire import encode
from a2ui_stream._wire.framing import Frame, Framer

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
#: Workloads cut into threads, and the megabytes generated of each.
WORKLOADS = {
    "chat-mixed": 0.05,
    "big-surface": 0.05,
    "data-churn-cumulative": 0.05,
    "data-churn-delta": 0.05,
    "data-churn-all": 0.05,
    "many-surfaces": 0.05,
    "adversarial": 0.1,
}
#: Runs per thread when a workload is cut.
RUNS_PER_THREAD = 3
#: Lines a recording may hold that are not events: each must be reported, not crash.
BAD_LINES = (
    b'{"type":"RUN_STARTED","threadId":\n',
    b"[1, 2]\n",
    b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\xff"}\n',
    b'{"type":"RUN_STARTED","runId":""}\n',
)
ENCODE = encode  # as the sinks write: numbers as JSON.stringify does
#: An archive on disk: its root, and each file's bytes by path under it.
Archive: TypeAlias = tuple[Path, dict[str, bytes]]


def _runs(stream: bytes) -> list[bytes]:
    """A workload's stream cut at each ``RUN_STARTED``."""
    runs: list[bytes] = []
    for line in stream.splitlines(keepends=True):
        if line.startswith(b'{"type":"RUN_STARTED"') or not runs:
            runs.append(b"")
        runs[-1] += line
    return runs


def _workload(name: str, mb: float, tmp: Path) -> bytes:
    out = tmp / f"{name}.stream"
    command = [sys.executable, str(BENCH / "workloads.py"), name, "--mb", str(mb)]
    subprocess.run([*command, "--seed", "20", "--out", str(out)], check=True)  # noqa: S603
    return out.read_bytes()


def build(root: Path) -> dict[str, bytes]:
    """Write the archive under ``root``; return each file's bytes by relative path."""
    files: dict[str, bytes] = {"recording.jsonl": RECORDING}
    for name, mb in WORKLOADS.items():
        runs = _runs(_workload(name, mb, root.parent))
        for start in range(0, len(runs), RUNS_PER_THREAD):
            thread = f"{name}-{start // RUNS_PER_THREAD}"
            body = b"".join(runs[start : start + RUNS_PER_THREAD])
            files[f"{thread}.jsonl"] = body.replace(b'"thread-1"', f'"{thread}"'.encode())
    first, second = _runs(RECORDING.replace(b'"thread-1"', b'"split"'))[:2]
    files["nested/split-a.jsonl"] = first
    files["nested/deeper/split-b.jsonl"] = second
    files["lifecycle.sse"] = to_sse(LIFECYCLE.replace(b'"t1"', b'"sse-thread"'))
    anonymous = b"".join(
        line for line in RECORDING.splitlines(keepends=True) if b"RUN_STARTED" not in line
    )
    files["no-run-started.jsonl"] = anonymous
    lines = RECORDING.replace(b'"thread-1"', b'"bad-lines"').splitlines(keepends=True)
    files["bad-lines.jsonl"] = b"".join((*lines[:3], *BAD_LINES, *lines[3:]))
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return files


def frames(data: bytes) -> list[Frame]:
    framer = Framer()
    return [item for item in framer.feed(data) + framer.close() if isinstance(item, Frame)]


def threads(files: dict[str, bytes]) -> dict[str, list[str]]:
    """Each thread's files, in path order, by the archive's naming rule."""
    found: dict[str, list[str]] = defaultdict(list)
    for relative in sorted(files):
        payloads = (frame.payload for frame in frames(files[relative]))
        found[find_thread(payloads) or thread_name(relative)].append(relative)
    return dict(found)


def reference(files: dict[str, bytes]) -> dict[str, ThreadResult]:
    """Fold every thread in this process, with the core alone."""
    results: dict[str, ThreadResult] = {}
    for thread, paths in threads(files).items():
        fold = ThreadFold(thread)
        for relative in paths:
            framer = Framer()
            fold.feed_frames(framer.feed(files[relative]) + framer.close())
        results[thread] = fold.result()
    return results


def lines_by_thread(directory: Path) -> dict[str, bytes]:
    """The per-thread JSONL a job wrote, one line per thread, by thread id."""
    found: dict[str, bytes] = {}
    for path in sorted(directory.glob("threads-*.jsonl")):
        for line in path.read_bytes().splitlines():
            thread = msgspec.json.decode(line, type=ThreadResult).thread_id
            assert thread not in found, f"{thread} written twice"
            found[thread] = line
    return found
