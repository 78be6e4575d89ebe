import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { Migration } from "@tessera/sql";

/** Where the generator reads and writes, relative to the app folder. */
export const MODELS_FOLDER = "src/models";
export const MIGRATIONS_FOLDER = "migrations";

/** The path of a model's module, as messages show it: `src/models/<model>.ts`. */
export function modelPath(model: string): string {
  return `${MODELS_FOLDER}/${model}.ts`;
}

/** The models an app has: one per `src/models/<name>.ts`. */
export function existingModels(root: string): string[] {
  const folder = join(root, MODELS_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && file !== "index.ts")
    .map((file) => file.slice(0, -3));
}

function migrationFiles(root: string): string[] {
  const folder = join(root, MIGRATIONS_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((file) => /^\d+_.*\.sql$/.test(file));
}

/** The line that makes a migration file run with SQLite's foreign keys off (a table rebuild). */
export const FOREIGN_KEYS_OFF = "-- tessera: foreign_keys off";

/**
 * Every `migrations/NNNN_<name>.sql` of the app: its name without `.sql` as id, its text, and
 * whether it asks for foreign keys off with a {@link FOREIGN_KEYS_OFF} line.
 */
export function migrationsOf(root: string): Migration[] {
  return migrationFiles(root)
    .sort()
    .map((file) => {
      const sql = readFileSync(join(root, MIGRATIONS_FOLDER, file), "utf8");
      const off = sql.split("\n").some((line) => line.trim() === FOREIGN_KEYS_OFF);
      return { id: file.slice(0, -".sql".length), sql, ...(off ? { foreignKeys: "off" } : {}) };
    });
}

/**
 * The next migration file names, one per description, numbered on from the highest number in
 * `migrations/` (four digits).
 */
export function nextMigrationNames(root: string, descriptions: readonly string[]): string[] {
  const highest = Math.max(0, ...migrationFiles(root).map((file) => Number.parseInt(file, 10)));
  return descriptions.map(
    (description, index) =>
      `${MIGRATIONS_FOLDER}/${String(highest + 1 + index).padStart(4, "0")}_${description}.sql`,
  );
}

/** Whether any migration already creates `table` (quoted or not, with or without IF NOT EXISTS). */
export function migrationCreates(root: string, table: string): boolean {
  const escaped = table.replace(/[^a-z0-9_]/g, "");
  const creates = new RegExp(
    `create\\s+table\\s+(?:if\\s+not\\s+exists\\s+)?["\`\\[]?${escaped}["\`\\]]?\\s*\\(`,
    "i",
  );
  return migrationFiles(root).some((file) =>
    creates.test(readFileSync(join(root, MIGRATIONS_FOLDER, file), "utf8")),
  );
}

/**
 * Writes files (paths relative to `root`), creating folders. Each file must not exist yet:
 * `wx` makes a race with another writer fail instead of overwriting. All or nothing: when one
 * cannot be written, the files written before it and the folders made for them are removed,
 * and the error is thrown. Returns the same undoing, for a step after it that fails.
 */
export function writeNewFiles(
  root: string,
  files: ReadonlyArray<readonly [string, string]>,
): () => void {
  const written: string[] = [];
  const madeFolders: string[] = [];
  const undo = () => {
    for (const file of written) rmSync(file, { force: true });
    for (const folder of madeFolders.reverse()) removeEmptyFolders(folder);
  };
  try {
    for (const [path, content] of files) {
      const target = join(root, path);
      const made = mkdirSync(dirname(target), { recursive: true });
      if (made !== undefined) madeFolders.push(made);
      writeFileSync(target, content, { flag: "wx" });
      written.push(target);
    }
  } catch (error) {
    undo();
    throw error;
  }
  return undo;
}

/** Removes `folder` and the folders in it, as far as they hold no file. */
function removeEmptyFolders(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(join(folder, entry.name));
  }
  if (readdirSync(folder).length === 0) rmdirSync(folder);
}

/** Whether a file exists relative to the app folder. */
export function fileExists(root: string, path: string): boolean {
  return existsSync(join(root, path));
}
