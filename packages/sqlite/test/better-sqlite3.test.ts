import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { openSqliteFile } from "../src/better-sqlite3.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-sqlite-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A new file per test, closed when the test ends; `second` is another connection to it. */
function openFile(path = join(folder, `${crypto.randomUUID()}.db`)) {
  const database = openSqliteFile(path);
  onTestFinished(() => database.close());
  return database;
}

describeSqlDriverContract("better-sqlite3", async () => {
  const path = join(folder, `${crypto.randomUUID()}.db`);
  return { database: openFile(path), second: async () => openFile(path) };
});

describe("openSqliteFile", () => {
  it("sets WAL with synchronous NORMAL, foreign keys and a busy timeout", () => {
    const database = openSqliteFile(join(folder, "pragmas", "test.db"), { busyTimeoutMs: 1234 });
    const pragma = (name: string) => database.connection.pragma(name, { simple: true });
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(1);
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(1234);
    expect(database.dialect).toBe("sqlite");
    database.close();
  });
});
