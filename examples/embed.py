"""Embed a2ui-stream in a dozen lines: bytes of an AG-UI stream in, part diffs out."""

from __future__ import annotations

import sys
from pathlib import Path

from a2ui_stream import Processor, Severity

processor = Processor()  # sans-I/O: it never reads, it is fed
with Path(sys.argv[1] if len(sys.argv) > 1 else "examples/recording.jsonl").open("rb") as stream:
    while chunk := stream.read(4096):  # any chunking gives the same output
        for diff in processor.feed(chunk):
            print(diff.op, diff.tool_call_id)
for diff in processor.close():  # a last line without its line feed ends here
    print(diff.op, diff.tool_call_id)
for diagnostic in processor.take_diagnostics():  # bad input never raises
    if diagnostic.severity is not Severity.DEBUG:  # debug ones are expected
        print(f"{diagnostic.severity.value}: {diagnostic}", file=sys.stderr)
