import { writeNewFiles } from "./app-folder.js";
import { installLine, missingPackages } from "./app-packages.js";
import { listed } from "./command-table.js";
import type { Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";
import { rewriteModule } from "./model-source.js";
import { refuseLongSqlNames } from "./name-limits.js";
import { addToManifest, type PackageAdditions, packageAdditions } from "./package-additions.js";

/** What a generator changes in the app folder (paths relative to it), and what to tell. */
export interface FileChanges {
  /** Files to create; each must not exist yet. */
  readonly created: ReadonlyArray<readonly [path: string, content: string]>;
  /** Files the generator wrote before and now rewrites (a model module gaining fields). */
  readonly updated?: ReadonlyArray<readonly [path: string, content: string]> | undefined;
  readonly notes?: readonly string[] | undefined;
  /** Code for the app to add itself, printed after the notes (the lines that mount a model). */
  readonly printed?: PrintedCode | undefined;
}

/** Code a generator prints rather than writes. */
export interface PrintedCode {
  /** The lines printed. */
  readonly text: readonly string[];
  /** The file it goes into and the code itself: the packages it imports join the install line. */
  readonly file: readonly [path: string, code: string];
  /** The same in `--json` output. */
  readonly json: Readonly<Record<string, unknown>>;
}

/**
 * Makes the changes, or with `pretend` only says what they would be: `wrote`/`updated` lines
 * (`would write`/`would update`), then the notes and the printed code, then the command that
 * installs the packages the new code (printed code included) imports and the app's
 * package.json does not list; in JSON `written`, `updated`, `notes`, the printed code's keys
 * and `install` (the package names). With `install`, those packages are
 * added to package.json instead (`added`, by field; see {@link packageAdditions}), and only the
 * ones it has no range for are left to the install line.
 * Refused, with nothing written, when a migration it would write names something longer than
 * PostgreSQL keeps; when a file cannot be written, the files created are removed again.
 */
export function applyFileChanges(
  root: string,
  changes: FileChanges,
  {
    pretend,
    install: addPackages = false,
    registry,
  }: Pick<Invocation, "pretend"> & Partial<Pick<Invocation, "install" | "registry">>,
): Outcome {
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
  const files = [
    ...changes.created,
    ...updated,
    ...(changes.printed ? [changes.printed.file] : []),
  ];
  const { additions, unknown: install } = addPackages
    ? packageAdditions(root, files)
    : { additions: NO_ADDITIONS, unknown: missingPackages(root, files) };
  const added = Object.values(additions).some((field) => Object.keys(field).length > 0);
  if (added && !pretend) addToManifest(root, additions);
  const written = changes.created.map(([path]) => path);
  const rewritten = updated.map(([path]) => path);
  return {
    ok: true,
    text: [
      ...written.map((path) => `${pretend ? "would write" : "wrote"} ${path}`),
      ...rewritten.map((path) => `${pretend ? "would update" : "updated"} ${path}`),
      ...notes.map((note) => `note: ${note}`),
      ...(changes.printed?.text ?? []),
      ...(added ? additionLines(additions, pretend, root, registry) : []),
      ...(install.length > 0
        ? [`install: ${installLine(root, install, registry)} (the new code imports them)`]
        : []),
    ].join("\n"),
    json: {
      ok: true,
      ...(pretend ? { pretend: true } : {}),
      written,
      ...(rewritten.length > 0 ? { updated: rewritten } : {}),
      ...(notes.length > 0 ? { notes } : {}),
      ...changes.printed?.json,
      ...(added ? { added: additions } : {}),
      ...(install.length > 0 ? { install } : {}),
    },
  };
}

const NO_ADDITIONS: PackageAdditions = { dependencies: {}, devDependencies: {} };

/** `added x 0.1.0 and y ^4 to package.json's dependencies`, per field, then what to run next. */
function additionLines(
  additions: PackageAdditions,
  pretend: boolean,
  root: string,
  registry: string | undefined,
): string[] {
  const lines = Object.entries(additions).flatMap(([field, entries]) => {
    const names = Object.entries(entries).map(([name, range]) => `${name} ${range}`);
    return names.length === 0
      ? []
      : [`${pretend ? "would add" : "added"} ${listed(names)} to package.json's ${field}`];
  });
  return [...lines, `next: ${installLine(root, [], registry)} (nothing is installed yet)`];
}
