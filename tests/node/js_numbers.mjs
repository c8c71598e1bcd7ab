// For each JSON number text read from stdin (a JSON array of strings), print what
// JavaScript makes of it: String(), and Intl.NumberFormat("en-US") as formatNumber
// would call it (default: up to 3 fraction digits; with decimals; without grouping).
import { readFileSync } from "node:fs";

const texts = JSON.parse(readFileSync(0, "utf8"));
const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
const fixed = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const bare = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3, useGrouping: false });
const out = texts.map((text) => {
  const value = JSON.parse(text);
  return [String(value), plain.format(value), fixed.format(value), bare.format(value)];
});
process.stdout.write(JSON.stringify(out));
