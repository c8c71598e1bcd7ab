"""Time ``decode_operation`` against a plain msgspec decode of the same bytes.

The floor for decoding one A2UI message is ``msgspec.json.Decoder().decode(raw)``:
bytes to plain dicts and lists in C. ``decode_operation`` must also check the
envelope, pick the version, and hand back typed operations; this script shows what
that costs on three shapes:

- ``components-4000``: one v0.9 ``updateComponents`` of about 4,000 components of every
  basic type (the big-surface case, about 400 KB);
- ``chat-triple``: the ``createSurface`` / ``updateComponents`` / ``updateDataModel``
  triple of a chat-sized surface, timed as the three calls together;
- ``data-model-big``: one ``updateDataModel`` whose value is a large object.

Each case is timed as the minimum over ``--repeat`` runs of ``--number`` calls, once with
the cyclic garbage collector enabled (as an application runs) and once disabled (the
decode cost alone). Usage::

    .venv/bin/python benchmarks/bench_operations.py [--repeat 21] [--number 0] [--seed 1]

``--number 0`` picks a call count per case so that one run takes about 50 ms. Times are
process CPU time (``time.process_time``), so other processes on a shared machine do not
inflate them; runs of the two decoders alternate for the same reason.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from typing import TYPE_CHECKING, Any

import _shapes
import msgspec

from a2ui_stream.a2ui import decode_operation

if TYPE_CHECKING:
    from collections.abc import Callable

_ENCODE = msgspec.json.Encoder().encode
_PLAIN = msgspec.json.Decoder()
#: CPU time of this process: other work on a shared machine does not count against a run.
_CLOCK = time.process_time
#: Target length of one timed run, in seconds.
_RUN_SECONDS = 0.05


def cases(seed: int) -> dict[str, list[bytes]]:
    """Build the seeded messages of each case.

    Args:
        seed: the random seed; one seed always gives the same bytes.

    Returns:
        Case name -> the encoded messages decoded together in one timed call.
    """
    rng = random.Random(seed)
    big = _shapes.SurfaceBuilder(rng, 4000, items=30).build()
    chat = _shapes.chat_surface(rng)
    data = {
        "items": [_shapes.item(rng, i) for i in range(2500)],
        "title": _shapes.sentence(rng, 3, 8),
        "form": {f"field{i}": _shapes.sentence(rng, 1, 4) for i in range(200)},
    }
    return {
        "components-4000": [_ENCODE(_shapes.update_components("s1", big.components))],
        "chat-triple": [
            _ENCODE(_shapes.create_surface("s2")),
            _ENCODE(_shapes.update_components("s2", chat.components)),
            _ENCODE(_shapes.update_data_model("s2", chat.data)),
        ],
        "data-model-big": [_ENCODE(_shapes.update_data_model("s3", data))],
    }


def _plain(messages: list[bytes]) -> Callable[[], object]:
    decode = _PLAIN.decode

    def run() -> object:
        return [decode(raw) for raw in messages]

    return run


def _operations(messages: list[bytes]) -> Callable[[], object]:
    def run() -> object:
        return [decode_operation(raw, index=i) for i, raw in enumerate(messages)]

    return run


def best(
    calls: tuple[Callable[[], object], ...], *, number: int, repeat: int, collect: bool
) -> list[float]:
    """The fastest of ``repeat`` runs of ``number`` calls of each callable, per call.

    The callables take turns run by run, so a burst of load on a shared machine hits
    them alike, and the minimum keeps the least disturbed run of each.

    Args:
        calls: the pieces of work to compare.
        number: calls per run.
        repeat: runs of each callable.
        collect: keep the cyclic garbage collector enabled while timing.

    Returns:
        Seconds per call of the fastest run, one per callable.
    """
    was_enabled = gc.isenabled()
    times: list[list[float]] = [[] for _ in calls]
    try:
        for _ in range(repeat):
            for call, spent in zip(calls, times, strict=True):
                gc.collect()
                if collect:
                    gc.enable()
                else:
                    gc.disable()
                start = _CLOCK()
                for _ in range(number):
                    call()
                spent.append((_CLOCK() - start) / number)
    finally:
        if was_enabled:
            gc.enable()
    return [min(spent) for spent in times]


def _calibrate(call: Callable[[], object]) -> int:
    call()  # warm up caches and interned strings before measuring
    start = _CLOCK()
    call()
    once = max(_CLOCK() - start, 1e-6)
    return max(int(_RUN_SECONDS / once), 1)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run every case and print a table.

    Args:
        argv: command-line arguments (``sys.argv[1:]`` when ``None``).

    Returns:
        One row per case and gc setting, as printed.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--number", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    header = f"{'case':<16}{'gc':<5}{'bytes':>9}{'msgspec µs':>13}{'operation µs':>15}{'ratio':>8}"
    print(header)
    for name, messages in cases(args.seed).items():
        size = sum(map(len, messages))
        plain, ops = _plain(messages), _operations(messages)
        number = args.number or _calibrate(ops)
        for collect in (True, False):
            base, ours = best((plain, ops), number=number, repeat=args.repeat, collect=collect)
            row = {
                "case": name,
                "gc": "on" if collect else "off",
                "bytes": size,
                "msgspec_us": base * 1e6,
                "operation_us": ours * 1e6,
                "ratio": ours / base,
            }
            rows.append(row)
            print(
                f"{name:<16}{row['gc']:<5}{size:>9}{row['msgspec_us']:>13.1f}"
                f"{row['operation_us']:>15.1f}{row['ratio']:>8.2f}"
            )
    return rows


if __name__ == "__main__":
    main()
