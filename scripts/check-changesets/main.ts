// `npm run check:changesets` (CI): every package whose API report changed since its last
// release (api/<package>/*.api.md against its tag `<name>@<version>`, as `changeset publish`
// makes it; a package not released yet has none, and needs none) has a
// pending changeset of at least the bump the change needs: a removed or changed line is a
// major (a minor while 0.x), lines only added a minor (a patch while 0.x).
import { resolve } from "node:path";
import { missingChangesets } from "./missing-changesets.js";

const missing = await missingChangesets(resolve(import.meta.dirname, "..", ".."));
for (const change of missing) {
  const has = change.given ? `has a ${change.given}` : "has none";
  console.error(
    `${change.name} needs a ${change.needed} changeset (${has}): ${change.reports.join(", ")} changed since its last release`,
  );
}
if (missing.length > 0) {
  console.error("Add one with `npx changeset`, saying what changed for the package's users.");
  process.exit(1);
}
console.log("Every API change since the last release has its changeset.");
