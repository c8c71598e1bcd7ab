// What the published converter draws for A2UI operation lists, for tests/test_holes.py.
//
// stdin: JSONL, one JSON array of A2UI operations per line.
// stdout: JSONL, one object per input line, in input order:
//   {"surfaces": {surfaceId: argsText or null}, "models": {surfaceId: JSON.stringify(model)}}
// Each line is reduced from an empty state with applyA2uiOperations and each surface is
// converted with convertSurfaceToUISpec, as the AG-UI client does for one snapshot
// (reference converter §1b); argsText is JSON.stringify of the spec, null for no spec.
// "models" prints each data model as JSON.stringify does (a missing model is omitted).
import { readFileSync } from "node:fs";
import {
  applyA2uiOperations,
  convertSurfaceToUISpec,
} from "@assistant-ui/react-generative-ui/a2ui";

const lines = readFileSync(0, "utf8").split("\n").filter((line) => line.trim() !== "");
const out = [];
for (const line of lines) {
  const { state } = applyA2uiOperations(new Map(), JSON.parse(line));
  const surfaces = {};
  const models = {};
  for (const [surfaceId, surface] of state) {
    const { spec } = convertSurfaceToUISpec(surface);
    surfaces[surfaceId] = spec === null ? null : JSON.stringify(spec);
    if (surface.dataModel !== undefined) models[surfaceId] = JSON.stringify(surface.dataModel);
  }
  out.push(JSON.stringify({ surfaces, models }));
}
process.stdout.write(out.map((line) => `${line}\n`).join(""));
