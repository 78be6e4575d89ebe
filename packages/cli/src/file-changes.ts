import { writeNewFiles } from "./app-folder.js";
import { installCommand, missingPackages } from "./app-packages.js";
import type { Outcome } from "./commands.js";
import { rewriteModule } from "./model-source.js";
import { refuseLongSqlNames } from "./name-limits.js";

/** What a generator changes in the app folder (paths relative to it), and what to tell. */
export interface FileChanges {
  /** Files to create; each must not exist yet. */
  readonly created: ReadonlyArray<readonly [path: string, content: string]>;
  /** Files the generator wrote before and now rewrites (a model module gaining fields). */
  readonly updated?: ReadonlyArray<readonly [path: string, content: string]>;
  readonly notes?: readonly string[];
}

/**
 * Makes the changes, or with `pretend` only says what they would be: `wrote`/`updated` lines
 * (`would write`/`would update`), then the notes, then the command that installs the packages
 * the new code imports and the app's package.json does not list; in JSON `written`,
 * `updated`, `notes` and `install` (the package names).
 * Refused, with nothing written, when a migration it would write names something longer than
 * PostgreSQL keeps; when a file cannot be written, the files created are removed again.
 */
export function applyFileChanges(root: string, changes: FileChanges, pretend: boolean): Outcome {
  const updated = changes.updated ?? [];
  const notes = changes.notes ?? [];
  const longName = refuseLongSqlNames(changes.created);
  if (longName) return longName;
  if (!pretend) {
    const undo = writeNewFiles(root, changes.created);
    try {
      for (const [path, content] of updated) rewriteModule(root, path, content);
    } catch (error) {
      undo();
      throw error;
    }
  }
  const install = missingPackages(root, [...changes.created, ...updated]);
  const written = changes.created.map(([path]) => path);
  const rewritten = updated.map(([path]) => path);
  return {
    ok: true,
    text: [
      ...written.map((path) => `${pretend ? "would write" : "wrote"} ${path}`),
      ...rewritten.map((path) => `${pretend ? "would update" : "updated"} ${path}`),
      ...notes.map((note) => `note: ${note}`),
      ...(install.length > 0
        ? [`install: ${installCommand(root)} ${install.join(" ")} (the new code imports them)`]
        : []),
    ].join("\n"),
    json: {
      ok: true,
      ...(pretend ? { pretend: true } : {}),
      written,
      ...(rewritten.length > 0 ? { updated: rewritten } : {}),
      ...(notes.length > 0 ? { notes } : {}),
      ...(install.length > 0 ? { install } : {}),
    },
  };
}
