import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { appMigrations } from "../src/migrations.js";

const NOTE = `INSERT INTO "notes" ("user_id", "title", "body", "pinned", "tags", "created_at", "updated_at")
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`;
const MESSAGE = `INSERT INTO webhook_messages (id, owner_id, event_type, payload, addressed_to, created_at)
VALUES (?, ?, ?, ?, ?, ?)`;
const ITEM = `INSERT INTO outbox_items
  (queue, idempotency_key, payload, status, attempts, run_at, fairness_key, created_at, updated_at)
VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)
ON CONFLICT (queue, idempotency_key) DO NOTHING`;
const ENDPOINT = "ep_0123456789abcdefghijklmn";

interface NoteRow {
  readonly id: number;
  readonly [column: string]: unknown;
}

/**
 * The limit of a note's create with and without its event: the same writes, hand-written on
 * bare better-sqlite3, on a file with the app's schema (every migration), in the bench's own
 * process. No HTTP, no JSON API, no store: statements prepared once, values bound in place.
 */
export class BareNoteWrites {
  readonly #folder = mkdtempSync(join(tmpdir(), "tessera-bare-writes-"));
  readonly #database = openSqliteFile(join(this.#folder, "app.db"));
  #sequence = 0;

  /** Applies the app's migrations and adds the one user whose notes are written. */
  async open(): Promise<this> {
    await applyMigrations(this.#database, appMigrations);
    this.#database.connection
      .prepare(
        `INSERT INTO users (id, email, created_at, updated_at)
VALUES (1, 'bare@example.com', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`,
      )
      .run();
    return this;
  }

  /** CPU microseconds per note written alone: its INSERT … RETURNING, committed by itself. */
  notesAlone(count: number): number {
    const note = this.#database.connection.prepare<unknown[], NoteRow>(NOTE);
    return cpuMicrosPer(count, () => this.#note(note));
  }

  /**
   * CPU microseconds per note written with its event for one endpoint, as the app writes it:
   * BEGIN IMMEDIATE, the note, the message (its JSON payload, a time-ordered id), the outbox
   * item, COMMIT.
   */
  notesWithEvents(count: number): number {
    const connection = this.#database.connection;
    const note = connection.prepare<unknown[], NoteRow>(NOTE);
    const message = connection.prepare(MESSAGE);
    const item = connection.prepare(ITEM);
    const begin = connection.prepare("BEGIN IMMEDIATE");
    const commit = connection.prepare("COMMIT");
    return cpuMicrosPer(count, () => {
      begin.run();
      const row = this.#note(note);
      const now = Date.now();
      const id = `msg_${now.toString(36).padStart(9, "0")}${String(row.id).padStart(15, "0")}`;
      const payload = JSON.stringify({ type: "note.created", data: row });
      message.run(id, 1, "note.created", payload, null, now);
      const delivery = JSON.stringify({ message_id: id, endpoint_id: ENDPOINT });
      item.run("webhook", `${id}.${ENDPOINT}`, delivery, now, "owner-1", now, now);
      commit.run();
    });
  }

  close(): void {
    this.#database.close();
    rmSync(this.#folder, { recursive: true, force: true });
  }

  #note(note: { get(...values: unknown[]): NoteRow | undefined }): NoteRow {
    this.#sequence += 1;
    const now = new Date().toISOString().slice(0, 19).replace("T", " ");
    return note.get(
      1,
      `Bench note ${this.#sequence}`,
      "A note of a few words, as a person writes one, with a tag or two.",
      0,
      JSON.stringify(["bench", `n${this.#sequence % 10}`]),
      now,
      now,
    )!;
  }
}

/** The process's CPU time (user and system) per call of `write`, over `count` calls. */
function cpuMicrosPer(count: number, write: () => void): number {
  const before = process.cpuUsage();
  for (let index = 0; index < count; index++) write();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}
