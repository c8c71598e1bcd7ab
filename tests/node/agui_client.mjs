// Replay AG-UI event streams through the published assistant-ui AG-UI client, headless.
//
// Our own driver; it contains no upstream code. It builds the runtime core that
// `useAgUiRuntime` wraps (`AgUiThreadRuntimeCore` of @assistant-ui/react-ag-ui) around an
// agent of ours whose `runAgent` hands each event to the client's subscriber, callback by
// event type, as @ag-ui/client does once it has the events. Each AG-UI run of a stream is
// replayed as one user turn, the way an app receives it: one `runAgent` call per run.
// The message parts are then read back from the core's message repository.
//
// stdin: one JSON object per line, {"id": any, "events": [AG-UI event objects]}.
// stdout: one JSON object per line, in input order:
//   {"id", "turns": [{"runId", "live": [{"id", "status", "parts": [{"toolCallId",
//     "toolName", "argsText"}]}]}],
//    "thread": [{"id", "parts"}]}
// where a turn's "live" messages are the assistant messages it added that no
// MESSAGES_SNAPSHOT of the turn restored: usually one; one per text messageId, since
// the client starts a new message at each; none when the client dropped it (a snapshot
// ending in an assistant message replaces the live placeholder). "thread" is every
// assistant message of the thread once the last turn ended.
// A turn starts at each RUN_STARTED event the client's own event parser accepts (one
// it refuses opens no run); events before the first such RUN_STARTED form a turn of
// their own with "runId": null, when there are any. Only tool-call parts are printed.
import { createInterface } from "node:readline";

const base = "./node_modules/@assistant-ui/react-ag-ui/dist/runtime";
const { AgUiThreadRuntimeCore } = await import(`${base}/AgUiThreadRuntimeCore.js`);
const { parseAgUiEvent } = await import(`${base}/event-parser.js`);
const { makeLogger } = await import(`${base}/logger.js`);

// RUN_STARTED -> onRunStartedEvent: the subscriber method @ag-ui/client calls per type.
const callbackName = (type) =>
  `on${type
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}Event`;

const opensRun = (event) => parseAgUiEvent(event)?.type === "RUN_STARTED";

function splitTurns(events) {
  const turns = [];
  let current = null;
  for (const event of events) {
    if (opensRun(event)) {
      current = { runId: event.runId, events: [event] };
      turns.push(current);
    } else {
      if (current === null) {
        current = { runId: null, events: [] };
        turns.push(current);
      }
      current.events.push(event);
    }
  }
  return turns;
}

function agentFor(turn) {
  return {
    threadId: "conformance",
    async runAgent(_input, subscriber) {
      for (const event of turn.events) {
        subscriber.onEvent?.({ event });
        const type = event && typeof event === "object" ? event.type : undefined;
        if (typeof type === "string") subscriber[callbackName(type)]?.({ event });
      }
      subscriber.onRunFinalized?.();
    },
    abortRun() {},
  };
}

function toolCallParts(message) {
  return message.content
    .filter((part) => part.type === "tool-call")
    .map((part) => ({ toolCallId: part.toolCallId, toolName: part.toolName, argsText: part.argsText }));
}

async function replay(events) {
  const turns = splitTurns(events);
  let core = null;
  const out = [];
  for (const [index, turn] of turns.entries()) {
    const agent = agentFor(turn);
    if (core === null) {
      core = new AgUiThreadRuntimeCore({ agent, logger: makeLogger(), showThinking: true, notifyUpdate() {} });
    } else {
      core.updateOptions({ agent, logger: makeLogger(), showThinking: true });
    }
    const before = new Set(core.getMessages().map((message) => message.id));
    try {
      await core.append({
        role: "user",
        content: [{ type: "text", text: `turn ${index}` }],
        attachments: [],
        metadata: { custom: {} },
        createdAt: new Date(0),
        // No parentId: each turn follows the thread's head, as a composer's send does
        // (null would start a new branch and hide the earlier turns).
        sourceId: null,
        runConfig: {},
        startRun: true,
      });
    } catch {
      // A RUN_ERROR makes the turn reject after its message is final; the status says so.
    }
    const restored = new Set(
      turn.events
        .filter((event) => event?.type === "MESSAGES_SNAPSHOT" && Array.isArray(event.messages))
        .flatMap((event) => event.messages.map((message) => message?.id)),
    );
    const added = core
      .getMessages()
      .filter((message) => message.role === "assistant" && !before.has(message.id));
    const live = added
      .filter((message) => !restored.has(message.id))
      .map((message) => ({ id: message.id, status: message.status, parts: toolCallParts(message) }));
    out.push({ runId: turn.runId, live });
  }
  const thread = core === null ? [] : core.getMessages().filter((message) => message.role === "assistant");
  return {
    turns: out,
    thread: thread.map((message) => ({ id: message.id, parts: toolCallParts(message) })),
  };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  let result;
  try {
    result = { id: request.id, ...(await replay(request.events)) };
  } catch (error) {
    result = { id: request.id, error: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
