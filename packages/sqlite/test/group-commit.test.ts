import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { type OpenSqliteOptions, openSqliteFile } from "../src/better-sqlite3.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-group-commit-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A new file with a `notes` table (and `children` whose foreign key is checked at COMMIT), its
 * WAL never checkpointed, so that its commits can be counted there; closed when the test ends.
 */
async function openNotes(options: OpenSqliteOptions = { groupCommit: true }) {
  const path = join(folder, `${crypto.randomUUID()}.db`);
  const database = openSqliteFile(path, options);
  onTestFinished(() => database.close());
  database.connection.pragma("wal_autocheckpoint = 0");
  await database.execScript(`CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
CREATE TABLE children (id INTEGER PRIMARY KEY,
  note_id INTEGER NOT NULL REFERENCES notes (id) DEFERRABLE INITIALLY DEFERRED)`);
  return { path, database };
}

/**
 * The commits SQLite has written to the file's WAL: the frames of the current WAL (their salts
 * are the header's) whose "database size after commit" is set, which only a commit's last
 * frame has.
 */
function walCommits(path: string): number {
  const wal = `${path}-wal`;
  if (!existsSync(wal)) return 0;
  const bytes = readFileSync(wal);
  if (bytes.length < 32) return 0;
  const pageSize = bytes.readUInt32BE(8);
  const salts = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  let commits = 0;
  for (let frame = 32; frame + 24 + pageSize <= bytes.length; frame += 24 + pageSize) {
    if (bytes.readUInt32BE(frame + 8) !== salts[0] || bytes.readUInt32BE(frame + 12) !== salts[1]) {
      break;
    }
    if (bytes.readUInt32BE(frame + 4) !== 0) commits++;
  }
  return commits;
}

/** The note titles on a second connection to the file, as another process reads them. */
function titlesElsewhere(path: string): string[] {
  const other = new Database(path, { readonly: true });
  try {
    return other
      .prepare("SELECT title FROM notes ORDER BY id")
      .pluck()
      .all()
      .map((title) => String(title));
  } finally {
    other.close();
  }
}

const titles = (count: number, prefix = "note") =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index}`);

describe("openSqliteFile with groupCommit", () => {
  it("commits transactions asked for together in one COMMIT, each caller with its own result", async () => {
    const { path, database } = await openNotes();
    const before = walCommits(path);
    const ids = await Promise.all(
      titles(20).map((title) =>
        database.transaction(async (transaction) => {
          const row = await transaction.get<{ id: number }>(
            "INSERT INTO notes (title) VALUES (?) RETURNING id",
            [title],
          );
          return { title, id: row!.id };
        }),
      ),
    );
    expect(walCommits(path) - before).toBe(1);
    const rows = await database.all<{ id: number; title: string }>(
      "SELECT id, title FROM notes ORDER BY id",
    );
    expect(ids).toEqual(rows);
    expect(rows.map((row) => row.title)).toEqual(titles(20));
  });

  it("commits each transaction alone without it (the default)", async () => {
    const { path, database } = await openNotes({});
    const before = walCommits(path);
    await Promise.all(
      titles(20).map((title) =>
        database.transaction((transaction) =>
          transaction.run("INSERT INTO notes (title) VALUES (?)", [title]),
        ),
      ),
    );
    expect(walCommits(path) - before).toBe(20);
    expect(titlesElsewhere(path)).toEqual(titles(20));
  });

  it("rolls back only the transaction that throws, and rejects only its caller", async () => {
    const { path, database } = await openNotes();
    const before = walCommits(path);
    const failure = new Error("note 2 failed");
    const outcomes = await Promise.allSettled(
      titles(5).map((title) =>
        database.transaction(async (transaction) => {
          await transaction.run("INSERT INTO notes (title) VALUES (?)", [title]);
          await transaction.run("INSERT INTO notes (title) VALUES (?)", [`${title} again`]);
          if (title === "note 2") throw failure;
          return title;
        }),
      ),
    );
    expect(outcomes).toEqual([
      { status: "fulfilled", value: "note 0" },
      { status: "fulfilled", value: "note 1" },
      { status: "rejected", reason: failure },
      { status: "fulfilled", value: "note 3" },
      { status: "fulfilled", value: "note 4" },
    ]);
    expect(walCommits(path) - before).toBe(1);
    expect(titlesElsewhere(path)).toEqual(
      ["note 0", "note 1", "note 3", "note 4"].flatMap((title) => [title, `${title} again`]),
    );
  });

  it("settles every caller after the shared COMMIT: another connection sees every row by then", async () => {
    const { path, database } = await openNotes();
    const seen: string[][] = [];
    await Promise.all(
      titles(8).map((title) =>
        database
          .transaction((transaction) =>
            transaction.run("INSERT INTO notes (title) VALUES (?)", [title]),
          )
          .then(() => {
            seen.push(titlesElsewhere(path));
          }),
      ),
    );
    expect(seen).toEqual(titles(8).map(() => titles(8)));
  });

  it("shows each transaction the writes of those before it in the batch", async () => {
    const { database } = await openNotes();
    const counts = await Promise.all(
      titles(4).map((title) =>
        database.transaction(async (transaction) => {
          await transaction.run("INSERT INTO notes (title) VALUES (?)", [title]);
          const row = await transaction.get<{ count: number }>(
            "SELECT count(*) AS count FROM notes",
          );
          return row!.count;
        }),
      ),
    );
    expect(counts).toEqual([1, 2, 3, 4]);
  });

  it("keeps nested transactions and scripts inside a batched one as savepoints", async () => {
    const { path, database } = await openNotes();
    const before = walCommits(path);
    await Promise.all([
      database.transaction(async (transaction) => {
        await transaction.run("INSERT INTO notes (title) VALUES ('outer')");
        await transaction
          .transaction(async (inner) => {
            await inner.run("INSERT INTO notes (title) VALUES ('inner, rolled back')");
            throw new Error("inner failed");
          })
          .catch(() => undefined);
        await transaction.transaction((inner) =>
          inner.run("INSERT INTO notes (title) VALUES ('inner, kept')"),
        );
      }),
      database.transaction(async (transaction) => {
        await transaction.execScript("INSERT INTO notes (title) VALUES ('script')");
        await transaction
          .execScript("INSERT INTO notes (title) VALUES ('script, rolled back'); SELECT nothing")
          .catch(() => undefined);
      }),
    ]);
    expect(walCommits(path) - before).toBe(1);
    expect(titlesElsewhere(path)).toEqual(["outer", "inner, kept", "script"]);
  });

  it("takes transactions asked for while the batch is open, and begins a new one past its bound", async () => {
    const { path, database } = await openNotes({ groupCommit: { maxBatchMs: 60_000 } });
    const before = walCommits(path);
    let joined!: Promise<unknown>;
    await database.transaction(async (transaction) => {
      await transaction.run("INSERT INTO notes (title) VALUES ('first')");
      // Asked for in a later turn of the event loop, while this one is open.
      joined = database.transaction((other) =>
        other.run("INSERT INTO notes (title) VALUES ('joined')"),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    await joined;
    expect(walCommits(path) - before).toBe(1);

    const bounded = await openNotes({ groupCommit: { maxTransactions: 3 } });
    const boundedBefore = walCommits(bounded.path);
    await Promise.all(
      titles(7).map((title) =>
        bounded.database.transaction((transaction) =>
          transaction.run("INSERT INTO notes (title) VALUES (?)", [title]),
        ),
      ),
    );
    expect(walCommits(bounded.path) - boundedBefore).toBe(3);
    expect(titlesElsewhere(bounded.path)).toEqual(titles(7));
    expect(titlesElsewhere(path)).toEqual(["first", "joined"]);
  });

  it("keeps statements sent after a transaction was asked for out of it, until its COMMIT", async () => {
    const { path, database } = await openNotes();
    const order: string[] = [];
    const transaction = database
      .transaction(async (inside) => {
        await inside.run("INSERT INTO notes (title) VALUES ('inside')");
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("inside done");
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const outside = database
      .run("INSERT INTO notes (title) VALUES ('outside')")
      .then(() => order.push("outside written"));
    await Promise.all([transaction, outside]);
    expect(order).toEqual(["inside done", "outside written"]);
    expect(titlesElsewhere(path)).toEqual(["outside"]);
  });

  it("rejects every caller of a batch whose COMMIT fails, and commits the next batch", async () => {
    const { path, database } = await openNotes();
    const outcomes = await Promise.allSettled([
      database.transaction((transaction) =>
        transaction.run("INSERT INTO notes (id, title) VALUES (1, 'good')"),
      ),
      // Its foreign key is deferred: checked, and refused, at COMMIT.
      database.transaction((transaction) =>
        transaction.run("INSERT INTO children (note_id) VALUES (99)"),
      ),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    for (const outcome of outcomes) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        message: expect.stringMatching(/FOREIGN KEY/),
      });
    }
    expect(titlesElsewhere(path)).toEqual([]);
    expect(database.connection.inTransaction).toBe(false);
    await database.transaction((transaction) =>
      transaction.run("INSERT INTO notes (title) VALUES ('after')"),
    );
    expect(titlesElsewhere(path)).toEqual(["after"]);
  });

  it("rejects every caller when one ends the batch's transaction itself, so none reports a lost write", async () => {
    const { path, database } = await openNotes();
    const outcomes = await Promise.allSettled([
      database.transaction((transaction) =>
        transaction.run("INSERT INTO notes (title) VALUES ('rolled back by the next one')"),
      ),
      database.transaction((transaction) => transaction.run("ROLLBACK")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({
      message: expect.stringMatching(/ended inside one of its transactions/),
    });
    expect(titlesElsewhere(path)).toEqual([]);
    await database.transaction((transaction) =>
      transaction.run("INSERT INTO notes (title) VALUES ('after')"),
    );
    expect(titlesElsewhere(path)).toEqual(["after"]);
  });

  it("rejects the batch's callers when another connection holds the write lock past the timeout", async () => {
    const { path, database } = await openNotes({ groupCommit: true, busyTimeoutMs: 30 });
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    const outcomes = await Promise.allSettled(
      titles(3).map((title) =>
        database.transaction((transaction) =>
          transaction.run("INSERT INTO notes (title) VALUES (?)", [title]),
        ),
      ),
    );
    holder.exec("ROLLBACK");
    holder.close();
    for (const outcome of outcomes) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: "SQLITE_BUSY" });
    }
    await database.transaction((transaction) =>
      transaction.run("INSERT INTO notes (title) VALUES ('after')"),
    );
    expect(titlesElsewhere(path)).toEqual(["after"]);
  });

  it("runs each transaction's work in its caller's async context", async () => {
    const { database } = await openNotes();
    const request = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ["a", "b", "c"].map((name) =>
        request.run(name, () =>
          database.transaction(async (transaction) => {
            await transaction.run("INSERT INTO notes (title) VALUES (?)", [name]);
            return request.getStore();
          }),
        ),
      ),
    );
    expect(seen).toEqual(["a", "b", "c"]);
  });
});
