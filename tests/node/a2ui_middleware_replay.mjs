// Replay recorded AG-UI runs through the real @ag-ui/a2ui-middleware and print what it emits.
//
// stdin: {"cases": [{"config": {...}, "threadId": "...", "context": [...],
//                    "middleware": true | false (default true), "messages": [...],
//                    "runs": [{"runId": "...", "events": [...]}]}]}
// stdout: {"cases": [{"runs": [[event, ...], ...], "errors": [null | "message", ...],
//                     "messages": [message, ...]}]}: the events each run's subscriber saw
// after the middleware, in order; for each run the message it failed with (the client's
// own checks, say a RUN_FINISHED while a tool call is open), or null; and the thread as
// @ag-ui/client stored it once the last run ended (`agent.messages`, starting from the
// case's "messages"). One agent per case, one runAgent() per run, so the middleware's
// per-run state starts afresh each run as it does in production. With "middleware":
// false the runs go through the client alone: a thread stored without the middleware.
// Written for a2ui-stream's differential test (tests/test_carriers_middleware.py).
import { AbstractAgent } from "@ag-ui/client";
import { A2UIMiddleware } from "@ag-ui/a2ui-middleware";
import { Observable } from "rxjs";

class ReplayAgent extends AbstractAgent {
  constructor(threadId, runs, messages) {
    super({ threadId, initialMessages: messages });
    this.recorded = new Map(runs.map((run) => [run.runId, run.events]));
  }

  run(input) {
    const events = this.recorded.get(input.runId) ?? [];
    return new Observable((subscriber) => {
      for (const event of events) subscriber.next(event);
      subscriber.complete();
    });
  }
}

async function replay(entry) {
  const agent = new ReplayAgent(entry.threadId, entry.runs, entry.messages ?? []);
  if (entry.middleware !== false) agent.use(new A2UIMiddleware(entry.config ?? {}));
  const runs = [];
  const errors = [];
  for (const run of entry.runs) {
    const seen = [];
    let error = null;
    try {
      await agent.runAgent(
        { runId: run.runId, context: entry.context ?? [], tools: [], forwardedProps: {} },
        { onEvent: ({ event }) => { seen.push(event); } },
      );
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    runs.push(seen);
    errors.push(error);
  }
  return { runs, errors, messages: agent.messages };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// The client paces every event with a timer, so cases run side by side: the wall time
// is that of the longest case, not of all of them.
const out = await Promise.all(cases.map(replay));
process.stdout.write(JSON.stringify({ cases: out }));
