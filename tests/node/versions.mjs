// Print the versions of the packages installed beside this script, as JSON.
import { readFileSync } from "node:fs";

const names = process.argv.slice(2);
const versions = {};
for (const name of names) {
  const manifest = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8"));
  versions[name] = manifest.version;
}
process.stdout.write(JSON.stringify(versions));
