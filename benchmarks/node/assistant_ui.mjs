// Time the published assistant-ui A2UI client on one JSONL stream of AG-UI events.
//
// Usage: node assistant_ui.mjs PATH [--setup-bytes N] [--budget SECONDS]
// Run from the folder where @assistant-ui/react-generative-ui is installed. Prints one
// JSON line with the fields of benchmarks/peers.py's Result.
//
// What a client of the package does with each event, as its live aggregator does it
// (reference converter §1a-1b): every line is parsed; an a2ui-surface ACTIVITY_SNAPSHOT
// whose content holds an operation array rebuilds its messageId's bucket from scratch
// with applyA2uiOperations(new Map(), ops), and every surface of the bucket is converted
// with convertSurfaceToUISpec. replace:false on a known messageId is ignored; RUN_STARTED
// clears the buckets. An ACTIVITY_DELTA is applied to the stored content (RFC 6902,
// below) and the bucket rebuilt the same way, as a client must to draw it. Only the
// snapshot's own bucket is converted (the aggregator converts the union of all buckets
// on every snapshot, which would make many-surfaces quadratic), and the specs are not
// serialised: a2ui-stream's runner does not serialise its args either.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import {
  applyA2uiOperations,
  convertSurfaceToUISpec,
} from "@assistant-ui/react-generative-ui/a2ui";

const CHUNK_BYTES = 64 * 1024;
const MESSAGE_CHARS = 300;
const ANONYMOUS = "a2ui:anonymous";

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

function peakRssKb() {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const match = /VmHWM:\s+(\d+)/.exec(status);
    if (match) return Number(match[1]);
  } catch {
    // no /proc: fall back to getrusage
  }
  return process.resourceUsage().maxRSS;
}

const result = {
  system: "assistant-ui",
  available: true,
  ok: true,
  error: "",
  bytes: 0,
  seconds: 0,
  steady_bytes: 0,
  steady_seconds: 0,
  outputs: 0,
  failures: 0,
  first_failure: "",
  partial: false,
  base_rss_kb: 0,
  peak_rss_kb: 0,
};

function fail(error) {
  result.failures += 1;
  if (!result.first_failure) {
    result.first_failure = `${error?.name ?? "Error"}: ${error?.message ?? error}`.slice(
      0,
      MESSAGE_CHARS,
    );
  }
}

// -- RFC 6902, the operations the workloads send ---------------------------------------

function tokens(pointer) {
  if (typeof pointer !== "string" || !pointer.startsWith("/")) {
    throw new Error(`not a JSON Pointer: ${pointer}`);
  }
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function parentOf(document, pointer) {
  const keys = tokens(pointer);
  let node = document;
  for (const key of keys.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(key)] : node[key];
    if (node === null || typeof node !== "object") throw new Error(`no parent at ${pointer}`);
  }
  return [node, keys[keys.length - 1]];
}

function applyPatch(document, patch) {
  for (const op of patch) {
    const [parent, key] = parentOf(document, op.path);
    if (op.op === "replace") {
      if (!Array.isArray(parent) && !(key in parent)) throw new Error(`replace of ${op.path}`);
      parent[Array.isArray(parent) ? Number(key) : key] = op.value;
    } else if (op.op === "add") {
      if (Array.isArray(parent)) {
        parent.splice(key === "-" ? parent.length : Number(key), 0, op.value);
      } else {
        parent[key] = op.value;
      }
    } else if (op.op === "remove") {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (op.op !== "test") {
      throw new Error(`unsupported patch op ${op.op}`);
    }
  }
}

// -- the client --------------------------------------------------------------------------

const contents = new Map();

function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function rebuild(key) {
  const operations = contents.get(key)?.a2ui_operations;
  if (!Array.isArray(operations)) return; // a lifecycle snapshot: nothing to draw
  const { state } = applyA2uiOperations(new Map(), operations);
  for (const surface of state.values()) {
    const { spec } = convertSurfaceToUISpec(surface);
    if (spec !== null) result.outputs += 1;
  }
}

function consume(event) {
  if (!isRecord(event)) return;
  if (event.type === "RUN_STARTED") {
    contents.clear();
    return;
  }
  if (event.activityType !== "a2ui-surface") return;
  const key = typeof event.messageId === "string" ? event.messageId : ANONYMOUS;
  if (event.type === "ACTIVITY_SNAPSHOT") {
    if (!isRecord(event.content)) return;
    if (!Array.isArray(event.content.a2ui_operations)) return;
    if (event.replace === false && contents.has(key)) return;
    contents.set(key, event.content);
    rebuild(key);
  } else if (event.type === "ACTIVITY_DELTA") {
    const content = contents.get(key);
    if (content === undefined || !Array.isArray(event.patch)) return;
    applyPatch(content, event.patch);
    rebuild(key);
  }
}

function line(text) {
  if (!text) return;
  try {
    consume(JSON.parse(text));
  } catch (error) {
    fail(error);
  }
}

// -- the measured loop ---------------------------------------------------------------------

const path = process.argv[2];
const setupBytes = option("--setup-bytes", 0);
const budget = option("--budget", 0);
const fd = path === "-" ? 0 : openSync(path, "r");
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
let pending = [];

function feed(count) {
  let start = 0;
  for (;;) {
    const end = chunk.indexOf(10, start);
    if (end < 0 || end >= count) break;
    if (pending.length) {
      pending.push(Buffer.from(chunk.subarray(start, end)));
      line(Buffer.concat(pending).toString("utf8"));
      pending = [];
    } else {
      line(chunk.toString("utf8", start, end));
    }
    start = end + 1;
  }
  if (start < count) pending.push(Buffer.from(chunk.subarray(start, count)));
}

function read(limit) {
  try {
    return readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, limit), null);
  } catch (error) {
    if (error.code === "EAGAIN") return read(limit);
    throw error;
  }
}

result.base_rss_kb = peakRssKb();
const start = performance.now();
let steadyStart = start;
try {
  let remaining = setupBytes;
  while (remaining > 0) {
    const count = read(remaining);
    if (count === 0) break;
    feed(count);
    remaining -= count;
    result.bytes += count;
  }
  steadyStart = performance.now();
  for (;;) {
    const count = read(CHUNK_BYTES);
    if (count === 0) break;
    feed(count);
    result.bytes += count;
    if (budget && (performance.now() - start) / 1000 > budget) {
      result.partial = true;
      break;
    }
  }
  if (!result.partial && pending.length) {
    line(Buffer.concat(pending).toString("utf8"));
    pending = [];
  }
} catch (error) {
  result.ok = false;
  result.error = `${error?.name}: ${error?.message}`.slice(0, MESSAGE_CHARS);
}
const end = performance.now();
if (fd !== 0) closeSync(fd);
result.seconds = (end - start) / 1000;
result.steady_seconds = (end - steadyStart) / 1000;
result.steady_bytes = Math.max(result.bytes - setupBytes, 0);
result.peak_rss_kb = peakRssKb();
process.stdout.write(`${JSON.stringify(result)}\n`);
