// `npm run release -- --registry <url>`: versions the packages from the pending changesets
// (each package's CHANGELOG.md written), builds them, and publishes every new version to the
// registry given, tagging each `<name>@<version>`. `--token <token>` (or NPM_TOKEN) publishes
// with that token, else with npm's login for the registry; `--skip-build` publishes the last
// build.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { release } from "./release.js";

const { values } = parseArgs({
  options: {
    registry: { type: "string" },
    token: { type: "string" },
    "skip-build": { type: "boolean", default: false },
  },
});
if (!values.registry) {
  console.error("Say where to publish: npm run release -- --registry https://registry.npmjs.org/");
  process.exit(1);
}
await release({
  root: resolve(import.meta.dirname, "..", ".."),
  registry: values.registry,
  token: values.token ?? process.env.NPM_TOKEN,
  build: !values["skip-build"],
});
