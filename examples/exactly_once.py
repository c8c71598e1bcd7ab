"""Consume ``a2ui-stream process --log`` output exactly once, across crashes.

Every diff line carries the ``seq`` of the logged event that caused it; the lines of one
event are consecutive and seqs never go down. So all a consumer has to remember is a
checkpoint: the seq of the last line it handled and how many lines with that seq it
handled. It saves the checkpoint together with what handling a line does (one
transaction), and after a crash (of the command, the consumer, or both) it runs::

    a2ui-stream process --log LOG --from SEQ INPUT

The command folds the log, writes again the diffs of the logged events from ``SEQ`` on,
then goes on with new input. The consumer drops the first lines of ``SEQ`` it counted,
and a last line without its line feed (cut by the crash: it comes again next time).

Run as a demonstration: ``python examples/exactly_once.py LOG CHECKPOINT INPUT`` prints
each new diff line once and keeps the checkpoint in the file ``CHECKPOINT``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

#: Diff lines begin with their seq (the key order is documented), so no full parse.
_SEQ = re.compile(rb'\{"seq":(\d+),')


class Checkpoint(NamedTuple):
    """How far a consumer got: ``lines`` diff lines with seq ``seq`` were handled."""

    seq: int = -1
    lines: int = 0


class Consumer:
    """Decides which printed diff lines are new, and keeps the checkpoint that says so."""

    def __init__(self, checkpoint: Checkpoint | None = None) -> None:
        """Start from a saved checkpoint, or from nothing."""
        self.checkpoint = checkpoint or Checkpoint()
        # Lines of the checkpoint's seq that --from writes again and were handled before.
        self._skip = self.checkpoint.lines

    def arguments(self) -> list[str]:
        """Return the options to add to ``process --log LOG`` for this (re)start."""
        seq = self.checkpoint.seq
        return [] if seq < 0 else ["--from", str(seq)]

    def restart(self) -> None:
        """Get ready for the output of a new run started with :meth:`arguments`."""
        self._skip = self.checkpoint.lines

    def take(self, raw: bytes) -> bytes | None:
        """Return the diff line ``raw`` if it was not handled before, else ``None``.

        The caller handles a returned line and saves :attr:`checkpoint` with it.
        """
        found = _SEQ.match(raw)
        if found is None or not raw.endswith(b"\n"):
            return None  # a line cut by a crash: printed again after the restart
        seq = int(found.group(1))
        if seq == self.checkpoint.seq and self._skip:
            self._skip -= 1
            return None
        self._skip = 0
        lines = self.checkpoint.lines + 1 if seq == self.checkpoint.seq else 1
        self.checkpoint = Checkpoint(seq, lines)
        return raw


def main(argv: list[str]) -> int:
    """Run ``process --log`` once and print each diff line not printed before."""
    log, saved, source = argv
    state = Path(saved)
    consumer = Consumer(Checkpoint(*json.loads(state.read_text())) if state.exists() else None)
    command = ["a2ui-stream", "process", "--log", log, *consumer.arguments(), source]
    with subprocess.Popen(command, stdout=subprocess.PIPE) as process:  # noqa: S603
        for raw in process.stdout or ():
            line = consumer.take(raw)
            if line is not None:
                sys.stdout.buffer.write(line)  # handling a line: here, printing it
                sys.stdout.flush()
                state.write_text(json.dumps(consumer.checkpoint))
    return process.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
