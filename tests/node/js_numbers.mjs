// What JavaScript makes of JSON numbers, for the differential tests of tests/test_numbers.py.
//
// stdin: one JSON object {"numbers": [text], "formats": [Intl options], "documents": [text]}:
// JSON number texts, Intl.NumberFormat option sets, and JSON documents.
// stdout: one JSON object {"numbers": [[String(n), format(n) for each option set]],
// "documents": [JSON.stringify(JSON.parse(document))]}, in input order. Every format is
// Intl.NumberFormat("en-US", options), as the basic catalog's formatNumber calls it.
import { readFileSync } from "node:fs";

const request = JSON.parse(readFileSync(0, "utf8"));
const formats = (request.formats ?? []).map((options) => new Intl.NumberFormat("en-US", options));
const numbers = (request.numbers ?? []).map((text) => {
  const value = JSON.parse(text);
  return [String(value), ...formats.map((format) => format.format(value))];
});
const documents = (request.documents ?? []).map((text) => JSON.stringify(JSON.parse(text)));
process.stdout.write(JSON.stringify({ numbers, documents }));
