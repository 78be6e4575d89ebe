import { writeNewFiles } from "./app-folder.js";
import type { Outcome } from "./commands.js";
import { rewriteModule } from "./model-source.js";

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
 * (`would write`/`would update`), then the notes; in JSON `written`, `updated` and `notes`.
 */
export function applyFileChanges(root: string, changes: FileChanges, pretend: boolean): Outcome {
  const updated = changes.updated ?? [];
  const notes = changes.notes ?? [];
  if (!pretend) {
    writeNewFiles(root, changes.created);
    for (const [path, content] of updated) rewriteModule(root, path, content);
  }
  const written = changes.created.map(([path]) => path);
  const rewritten = updated.map(([path]) => path);
  return {
    ok: true,
    text: [
      ...written.map((path) => `${pretend ? "would write" : "wrote"} ${path}`),
      ...rewritten.map((path) => `${pretend ? "would update" : "updated"} ${path}`),
      ...notes.map((note) => `note: ${note}`),
    ].join("\n"),
    json: {
      ok: true,
      ...(pretend ? { pretend: true } : {}),
      written,
      ...(rewritten.length > 0 ? { updated: rewritten } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    },
  };
}
