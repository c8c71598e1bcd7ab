"""The systems the benchmark measures, each run alone in a child process.

Owns one runner per system, all fed the same bytes in the same 64 KiB chunks:

- ``ours``: ``a2ui_stream.Processor(keep_runs=0)``, bytes in, part diffs out
  (``ours-patch`` also renders each update as an RFC 6902 patch).
- ``limit``: ``msgspec.json.Decoder().decode`` on every line, nothing else.
- ``ag-ui``: the official AG-UI SDK (``ag-ui-protocol``): pydantic validation of
  every line into its ``Event`` union, decode only.
- ``a2ui-core``: the official A2UI processor. Lines are decoded with msgspec (the
  fastest way to hand it dicts), and every ``a2ui-surface`` snapshot is rebuilt the
  way a client must, because snapshots are cumulative: the surfaces the messageId
  made last time are deleted and the snapshot's operations applied anew. Activity
  deltas are applied to the stored content with a small RFC 6902 patcher, then the
  content is rebuilt the same way.
- ``assistant-ui``: the published TypeScript client (:data:`ASSISTANT_UI_PACKAGES`,
  installed with npm into ``.cache/peers/`` by the installer the tests use), driven by
  our script ``benchmarks/node/assistant_ui.mjs`` in a Node child of this process: it
  parses every line, rebuilds each snapshot's bucket with ``applyA2uiOperations`` and
  converts its surfaces with ``convertSurfaceToUISpec``, timing itself. Where ``node``
  or ``npm`` is missing the system reports ``available: false`` with the reason.

Run as ``python benchmarks/peers.py SYSTEM PATH`` (PATH ``-`` reads stdin); the last
stdout line is a JSON :class:`Result` with wall time and peak RSS
(``VmHWM``, this process's own high-water mark). A peer that is missing reports
``available: false``; one that raises on a snapshot has it counted in
``failures`` with the first message kept, and goes on with the next line.

Imports ``a2ui_stream`` only inside the ``ours`` runner.
"""

from __future__ import annotations

import abc
import argparse
import importlib
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import msgspec

# The peer installer lives beside the tests, which install the same peers the same way.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from peer_cache import PeerInstallError, PeerUnavailableError, install_node, place_script

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "ASSISTANT_UI_PACKAGES",
    "CHUNK_BYTES",
    "NODE_SYSTEMS",
    "RUNNERS",
    "Result",
    "Runner",
    "Unavailable",
    "install_assistant_ui",
    "main",
    "measure",
    "measure_node",
]

#: Bytes per ``read``/``feed``: a socket-sized read, the same for every system.
CHUNK_BYTES = 64 * 1024
#: The published TypeScript client (issue 16): the AG-UI adapter and the generative UI
#: package whose ``/a2ui`` subpath holds ``applyA2uiOperations`` and
#: ``convertSurfaceToUISpec``. 0.0.58 does not install (reference converter §3).
ASSISTANT_UI_PACKAGES = (
    "@assistant-ui/react-ag-ui@0.0.57",
    "@assistant-ui/react-generative-ui@0.0.16",
)
#: Systems that run in Node, each with the script of ours that drives it.
NODE_SYSTEMS = {"assistant-ui": Path(__file__).resolve().parent / "node" / "assistant_ui.mjs"}
#: Characters of a failure message kept in the result.
_MESSAGE_CHARS = 300


class Unavailable(Exception):  # noqa: N818 - a state, not an error: the system is not installed
    """The system cannot be imported here."""


class Result(msgspec.Struct, kw_only=True):
    """One system's run over one input.

    Attributes:
        system: the runner name.
        available: False when the system could not be imported.
        ok: False when the runner crashed outright (``error`` says how).
        error: why the run did not complete, or empty.
        bytes: input bytes fed.
        seconds: wall time from the first read to the last output.
        steady_bytes: bytes fed after ``--setup-bytes``.
        steady_seconds: wall time spent on those bytes.
        outputs: what the system produced: part diffs (ours), events (limit, ag-ui),
            rebuilt snapshots (a2ui-core).
        failures: lines or snapshots the system rejected or raised on.
        first_failure: the first such message.
        partial: True when the time budget ran out before the input did.
        base_rss_kb: peak RSS after imports and setup, before the first byte.
        peak_rss_kb: peak RSS at the end (``VmHWM``; ``ru_maxrss`` where there is no /proc).
    """

    system: str
    available: bool = True
    ok: bool = True
    error: str = ""
    bytes: int = 0
    seconds: float = 0.0
    steady_bytes: int = 0
    steady_seconds: float = 0.0
    outputs: int = 0
    failures: int = 0
    first_failure: str = ""
    partial: bool = False
    base_rss_kb: int = 0
    peak_rss_kb: int = 0


class Runner(Protocol):
    """A system under measurement: fed chunks, then closed."""

    outputs: int
    failures: int
    first_failure: str

    def feed(self, chunk: bytes) -> None:
        """Consume one chunk of the stream."""

    def close(self) -> None:
        """The stream has ended."""


class _LineRunner(abc.ABC):
    """Splits chunks into JSONL lines and hands each batch to :meth:`consume`."""

    def __init__(self) -> None:
        self.outputs = 0
        self.failures = 0
        self.first_failure = ""
        self._pending: list[bytes] = []

    def feed(self, chunk: bytes) -> None:
        if b"\n" not in chunk:
            self._pending.append(chunk)
            return
        lines = chunk.split(b"\n")
        if self._pending:
            self._pending.append(lines[0])
            lines[0] = b"".join(self._pending)
            self._pending = []
        tail = lines.pop()
        if tail:
            self._pending.append(tail)
        self.consume(lines)

    def close(self) -> None:
        if self._pending:
            self.consume([b"".join(self._pending)])
            self._pending = []

    @abc.abstractmethod
    def consume(self, lines: list[bytes]) -> None:
        """Handle a batch of complete lines (some may be empty)."""

    def fail(self, exc: BaseException) -> None:
        self.failures += 1
        if not self.first_failure:
            self.first_failure = f"{type(exc).__name__}: {exc}"[:_MESSAGE_CHARS]


class _Limit(_LineRunner):
    """msgspec decoding every line to Python objects, and nothing else."""

    def __init__(self) -> None:
        super().__init__()
        self._decode = msgspec.json.Decoder().decode

    def consume(self, lines: list[bytes]) -> None:
        decode = self._decode
        for line in lines:
            if line:
                try:
                    decode(line)
                except msgspec.DecodeError as exc:
                    self.fail(exc)
                self.outputs += 1


class _AgUi(_LineRunner):
    """``ag-ui-protocol``: every line validated into its pydantic ``Event`` union."""

    def __init__(self) -> None:
        super().__init__()
        try:
            from ag_ui.core import Event  # noqa: PLC0415 - optional peer, imported on demand
            from pydantic import TypeAdapter, ValidationError  # noqa: PLC0415 - same
        except ImportError as exc:
            raise Unavailable(f"ag-ui-protocol not installed: {exc}") from exc
        self._validate = TypeAdapter(Event).validate_json
        self._error = ValidationError

    def consume(self, lines: list[bytes]) -> None:
        validate = self._validate
        for line in lines:
            if line:
                try:
                    validate(line)
                except self._error as exc:
                    self.fail(exc)
                self.outputs += 1


class _PatchError(Exception):
    """A JSON Patch operation that does not apply."""


def _parent(document: Any, pointer: str) -> tuple[Any, str]:
    """The container a pointer's last key lives in, and that key."""
    if not pointer.startswith("/"):
        raise _PatchError(f"not a JSON Pointer: {pointer!r}")
    keys = [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]
    node = document
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node, keys[-1]


def _patch_replace(document: Any, op: dict[str, Any]) -> None:
    parent, key = _parent(document, op["path"])
    if isinstance(parent, list):
        parent[int(key)] = op["value"]
    elif key in parent:
        parent[key] = op["value"]
    else:
        raise _PatchError(f"replace of a missing member {op['path']}")


def _patch_add(document: Any, op: dict[str, Any]) -> None:
    parent, key = _parent(document, op["path"])
    if isinstance(parent, list):
        parent.insert(len(parent) if key == "-" else int(key), op["value"])
    else:
        parent[key] = op["value"]


def _patch_remove(document: Any, op: dict[str, Any]) -> None:
    parent, key = _parent(document, op["path"])
    del parent[int(key) if isinstance(parent, list) else key]


_PATCH_OPS: dict[str, Callable[[Any, dict[str, Any]], None]] = {
    "replace": _patch_replace,
    "add": _patch_add,
    "remove": _patch_remove,
}


def apply_patch(document: Any, patch: list[dict[str, Any]]) -> None:
    """Apply RFC 6902 ``replace``/``add``/``remove`` operations in place.

    Args:
        document: the decoded JSON document, mutated.
        patch: the operations.

    Raises:
        _PatchError: an operation is unsupported or its target does not resolve.
    """
    for op in patch:
        apply = _PATCH_OPS.get(op.get("op", ""))
        if apply is None:
            raise _PatchError(f"unsupported patch op {op.get('op')!r}")
        try:
            apply(document, op)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise _PatchError(f"{op.get('op')} {op.get('path')}: {exc!r}") from exc


class _A2uiCore(_LineRunner):
    """``a2ui-core``: every a2ui-surface snapshot rebuilt by its ``MessageProcessor``."""

    def __init__(self) -> None:
        super().__init__()
        try:
            from a2ui.core import MessageProcessor  # noqa: PLC0415 - optional peer, on demand
            from a2ui.core.basic_catalog import BasicCatalog  # noqa: PLC0415 - same
        except ImportError as exc:
            raise Unavailable(f"a2ui-core not installed: {exc}") from exc
        self._decode = msgspec.json.Decoder().decode
        self._processor = MessageProcessor(catalogs=[BasicCatalog("v0.9")])
        self._contents: dict[str, Any] = {}
        self._surfaces: dict[str, list[str]] = {}
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "ACTIVITY_SNAPSHOT": self._snapshot,
            "ACTIVITY_DELTA": self._delta,
        }

    def consume(self, lines: list[bytes]) -> None:
        for line in lines:
            if not line:
                continue
            try:
                event = self._decode(line)
            except msgspec.DecodeError as exc:
                self.fail(exc)
                continue
            handler = self._handlers.get(event.get("type", "")) if isinstance(event, dict) else None
            if handler is not None and event.get("activityType") == "a2ui-surface":
                handler(event)

    def _snapshot(self, event: dict[str, Any]) -> None:
        message_id = event.get("messageId", "")
        if event.get("replace") is False and message_id in self._contents:
            return
        self._contents[message_id] = event.get("content")
        self._rebuild(message_id)

    def _delta(self, event: dict[str, Any]) -> None:
        message_id = event.get("messageId", "")
        content = self._contents.get(message_id)
        if content is None:
            return  # AG-UI clients ignore deltas for unknown messages
        try:
            apply_patch(content, event.get("patch", []))
        except _PatchError as exc:
            self.fail(exc)
            return
        self._rebuild(message_id)

    def _rebuild(self, message_id: str) -> None:
        content = self._contents[message_id]
        ops = content.get("a2ui_operations") if isinstance(content, dict) else None
        if not isinstance(ops, list):
            return  # lifecycle snapshot: nothing to render yet
        model = self._processor.model
        for surface_id in self._surfaces.pop(message_id, ()):
            if model.get_surface(surface_id) is not None:
                model.delete_surface(surface_id)
        self._surfaces[message_id] = [
            op["createSurface"].get("surfaceId", "")
            for op in ops
            if isinstance(op, dict) and isinstance(op.get("createSurface"), dict)
        ]
        try:
            self._processor.process_messages(ops)
        except Exception as exc:  # noqa: BLE001 - a peer raising on one snapshot is a result, not a stop
            self.fail(exc)
        else:
            self.outputs += 1


class _Ours:
    """``a2ui_stream.Processor``: bytes in, part diffs out.

    Runs the streaming configuration the command line uses: no event log and no past
    runs kept (``keep_runs=0``), so memory follows the live surfaces, not the input,
    and the cyclic collector tuned as ``a2ui-stream process`` tunes it
    (:func:`a2ui_stream._shell.cli.tune_collector`; each system runs in a process of
    its own, so this touches no other).
    ``ours-patch`` also renders every update as an RFC 6902 patch, as
    ``a2ui-stream process --diffs patch`` does.
    """

    def __init__(self, *, patches: bool) -> None:
        try:
            # By name, so the harness runs (and type-checks) without the package built.
            processor_type = importlib.import_module("a2ui_stream").Processor
        except (ImportError, AttributeError) as exc:
            raise Unavailable(f"a2ui_stream.Processor not available: {exc}") from exc
        self._processor: Any = processor_type(keep_runs=0)
        cli = importlib.import_module("a2ui_stream._shell.cli")
        cli.tune_collector()
        self._settle: Callable[[], None] = cli.settle_chunk  # after each chunk, as process
        self._patches = patches
        self.outputs = 0
        self.failures = 0
        self.first_failure = ""

    def _count(self, diffs: list[Any]) -> None:
        # A streaming consumer drains diagnostics as it goes (the CLI logs them after
        # every chunk); left in the processor they would grow with the input.
        self._processor.take_diagnostics()
        self.outputs += len(diffs)
        if self._patches:
            for diff in diffs:
                if diff.op == "update":
                    diff.patch()

    def feed(self, chunk: bytes) -> None:
        self._count(self._processor.feed(chunk))
        self._settle()

    def close(self) -> None:
        self._count(self._processor.close())


#: Runner factories by system name.
RUNNERS: dict[str, Callable[[], Runner]] = {
    "ours": lambda: _Ours(patches=False),
    "ours-patch": lambda: _Ours(patches=True),
    "limit": _Limit,
    "ag-ui": _AgUi,
    "a2ui-core": _A2uiCore,
}


def _rss_kb() -> int:
    """Peak resident memory of this process so far, in KiB.

    ``VmHWM`` first: Linux carries the parent's high-water mark into
    ``ru_maxrss`` across a vfork and exec, which is how ``subprocess`` starts
    this process, so ``ru_maxrss`` would report the harness's memory, not ours.
    """
    try:
        with Path("/proc/self/status").open("rb") as status:
            for line in status:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def measure(system: str, source: IO[bytes], *, setup_bytes: int = 0, budget: float = 0.0) -> Result:
    """Feed a whole stream to one system and time it.

    Args:
        system: a name from :data:`RUNNERS`.
        source: the JSONL stream, read in :data:`CHUNK_BYTES` pieces.
        setup_bytes: bytes fed before the steady-state clock starts.
        budget: stop after this many seconds (0: no limit) and mark the result partial.

    Returns:
        The measurements.
    """
    result = Result(system=system)
    try:
        runner = RUNNERS[system]()
    except Unavailable as exc:
        result.available, result.ok, result.error = False, False, str(exc)
        return result
    result.base_rss_kb = _rss_kb()
    read, feed, now = source.read, runner.feed, time.perf_counter
    start = steady_start = now()
    remaining = setup_bytes
    try:
        while remaining > 0:
            chunk = read(min(CHUNK_BYTES, remaining))
            if not chunk:
                break
            feed(chunk)
            remaining -= len(chunk)
            result.bytes += len(chunk)
        steady_start = now()
        while chunk := read(CHUNK_BYTES):
            feed(chunk)
            result.bytes += len(chunk)
            if budget and now() - start > budget:
                result.partial = True
                break
        if not result.partial:
            runner.close()
    except Exception as exc:  # noqa: BLE001 - a crash is reported in the result
        result.ok, result.error = False, f"{type(exc).__name__}: {exc}"[:_MESSAGE_CHARS]
    end = now()
    result.seconds = end - start
    result.steady_seconds = end - steady_start
    result.steady_bytes = max(result.bytes - setup_bytes, 0)
    result.outputs, result.failures = runner.outputs, runner.failures
    result.first_failure = runner.first_failure
    result.peak_rss_kb = _rss_kb()
    return result


def install_assistant_ui() -> Path:
    """Install the published TypeScript client into the peer cache once; return its folder.

    Raises:
        Unavailable: ``node`` or ``npm`` is not on ``PATH``, or npm failed.
    """
    try:
        return install_node("assistant-ui", ASSISTANT_UI_PACKAGES)
    except (PeerUnavailableError, PeerInstallError) as exc:
        raise Unavailable(str(exc)) from exc


def measure_node(system: str, path: str, *, setup_bytes: int = 0, budget: float = 0.0) -> Result:
    """Run a Node system's script on one input; it times itself and reports a Result.

    Args:
        system: a name from :data:`NODE_SYSTEMS`.
        path: the JSONL input, or ``-`` for this process's stdin.
        setup_bytes: bytes fed before the steady-state clock starts.
        budget: stop after this many seconds (0: no limit).

    Returns:
        The script's measurements; unavailable or crashed results say why.
    """
    try:
        folder = install_assistant_ui()
    except Unavailable as exc:
        return Result(system=system, available=False, ok=False, error=str(exc))
    script = place_script(folder, NODE_SYSTEMS[system])
    source = str(Path(path).resolve()) if path != "-" else "-"
    command = ["node", script, source, "--setup-bytes", str(setup_bytes), "--budget", str(budget)]
    stdin = sys.stdin if path == "-" else subprocess.DEVNULL
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, check=False, stdin=stdin
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return Result(system=system, ok=False, error=tail[0][:_MESSAGE_CHARS])
    return msgspec.json.decode(lines[-1], type=Result)


def main(argv: list[str] | None = None) -> int:
    """Child entry point: measure one system on one input and print the result.

    Args:
        argv: arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit status (0 also when the system is unavailable or crashed: the
        result says so).
    """
    parser = argparse.ArgumentParser(description="Measure one system on one JSONL input.")
    parser.add_argument("system", choices=sorted([*RUNNERS, *NODE_SYSTEMS]))
    parser.add_argument("path", help='the JSONL input, or "-" for stdin')
    parser.add_argument("--setup-bytes", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.0, help="seconds before stopping")
    args = parser.parse_args(argv)
    if args.system in NODE_SYSTEMS:
        result = measure_node(
            args.system, args.path, setup_bytes=args.setup_bytes, budget=args.budget
        )
    elif args.path == "-":
        result = measure(
            args.system, sys.stdin.buffer, setup_bytes=args.setup_bytes, budget=args.budget
        )
    else:
        with Path(args.path).open("rb", buffering=0) as source:
            result = measure(args.system, source, setup_bytes=args.setup_bytes, budget=args.budget)
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
