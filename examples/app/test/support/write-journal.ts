import { existsSync, readdirSync } from "node:fs";
import Database from "better-sqlite3";

/** How many rows one table gained, changed and lost. */
export interface TableWrites {
  insert: number;
  update: number;
  delete: number;
}

/** Every table written since the journal was last read, by name. */
export type Writes = Record<string, TableWrites>;

const JOURNAL = "fuzz_write_journal";

/**
 * Notes every row the app inserts, updates or deletes in its SQLite file, from triggers this
 * test adds to every table: nothing the app writes escapes it (whatever the statement, in
 * whichever package), and a write the app rolls back leaves no note either. Test files only:
 * it changes the schema of the database it watches.
 */
export class WriteJournal {
  readonly #database: Database.Database;
  readonly #read: Database.Statement<[], { table_name: string; operation: string; n: number }>;
  readonly #clear: Database.Statement;

  constructor(databasePath: string) {
    this.#database = new Database(databasePath);
    this.#database.pragma("busy_timeout = 5000");
    const tables = this.#database
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      )
      .all()
      .map((row) => row.name);
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
    this.#database.exec(`CREATE TABLE ${JOURNAL} (table_name TEXT NOT NULL, operation TEXT NOT NULL);
${tables
  .flatMap((table) =>
    ["insert", "update", "delete"].map(
      (operation) =>
        `CREATE TRIGGER ${quote(`${JOURNAL}_${table}_${operation}`)} AFTER ${operation.toUpperCase()}
ON ${quote(table)} BEGIN INSERT INTO ${JOURNAL} VALUES (${text(table)}, '${operation}'); END;`,
    ),
  )
  .join("\n")}`);
    this.#read = this.#database.prepare(
      `SELECT table_name, operation, count(*) AS n FROM ${JOURNAL} GROUP BY table_name, operation`,
    );
    this.#clear = this.#database.prepare(`DELETE FROM ${JOURNAL}`);
  }

  /** The writes noted since the last call, and forgets them. */
  take(): Writes {
    const writes: Writes = {};
    this.#database.transaction(() => {
      for (const row of this.#read.all()) {
        writes[row.table_name] ??= { insert: 0, update: 0, delete: 0 };
        writes[row.table_name]![row.operation as keyof TableWrites] = row.n;
      }
      this.#clear.run();
    })();
    return writes;
  }

  close(): void {
    this.#database.close();
  }
}

/** The files under `folder` (relative paths), or none when it does not exist yet. */
export function filesUnder(folder: string): Set<string> {
  if (!existsSync(folder)) return new Set();
  return new Set(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `${entry.parentPath.slice(folder.length)}/${entry.name}`),
  );
}
