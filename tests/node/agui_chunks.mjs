// Expand AG-UI chunk events with the published @ag-ui/client's transformChunks.
//
// Our own driver for a2ui-stream's differential test (tests/test_chunks_client.py); it
// contains no upstream code. Each case's events are pushed one at a time into the
// client's transformChunks operator, and what comes out is recorded per input event
// (the operator expands synchronously, so everything an event causes is out before the
// next goes in). Then the source completes, and anything the operator still emits is
// recorded as the tail. The first event the operator throws on ends the case.
//
// stdin: {"cases": [[event, ...], ...]}
// stdout: {"cases": [{"groups": [[event, ...], ...], "tail": [event, ...],
//                     "error": null | {"at": index, "message": "..."}}]}
// where groups[i] holds what input event i expanded into (groups stops at the error).
import { transformChunks } from "@ag-ui/client";
import { Subject } from "rxjs";

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";

function expand(events) {
  const source = new Subject();
  const groups = [];
  let current = [];
  let error = null;
  let at = 0;
  source.pipe(transformChunks()).subscribe({
    next: (event) => current.push(event),
    error: (thrown) => {
      error = { at, message: thrown instanceof Error ? thrown.message : String(thrown) };
    },
  });
  for (; at < events.length; at++) {
    source.next(events[at]);
    if (error !== null) break;
    groups.push(current);
    current = [];
  }
  if (error === null) source.complete();
  return { groups, tail: error === null ? current : [], error };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify({ cases: cases.map(expand) }));
