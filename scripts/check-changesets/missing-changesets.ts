import readChangesets from "@changesets/read";
import { workspacePackages } from "../check-packages/workspace-packages.js";
import { type ApiChange, apiChangesSinceRelease } from "./api-changes.js";
import { type Bump, covers, largerBump } from "./required-bump.js";

/** An API change without a changeset that covers it, and the bump its changesets give (if any). */
export interface MissingChangeset extends ApiChange {
  readonly given: Bump | undefined;
}

/** The largest pending bump of each package, from the changesets in `<root>/.changeset`. */
async function pendingBumps(root: string): Promise<Map<string, Bump>> {
  const pending = new Map<string, Bump>();
  for (const changeset of await readChangesets(root)) {
    for (const release of changeset.releases) {
      if (release.type === "none") continue;
      const larger = largerBump(pending.get(release.name), release.type);
      if (larger) pending.set(release.name, larger);
    }
  }
  return pending;
}

/**
 * The packages of the repository at `root` whose API changed since their last release without
 * a pending changeset of at least the bump that change needs.
 */
export async function missingChangesets(root: string): Promise<MissingChangeset[]> {
  const pending = await pendingBumps(root);
  return apiChangesSinceRelease(root, workspacePackages(root))
    .map((change) => ({ ...change, given: pending.get(change.name) }))
    .filter((change) => !covers(change.given, change.needed));
}
