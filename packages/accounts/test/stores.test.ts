// The store contracts, run against every implementation in the repository.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  accountMigrations,
  applyMigrations,
  SqliteEmailedTokenStore,
  SqliteUserStore,
} from "@tessera/sqlite";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll } from "vitest";
import { MemoryEmailedTokenStore, MemoryUserStore } from "../src/index.js";
import { describeEmailedTokenStoreContract } from "./contracts/emailed-token-store.contract.js";
import { describeUserStoreContract } from "./contracts/user-store.contract.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-account-stores-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fresh SQLite file with the account tables. */
async function sqliteFile() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  return database;
}

describeUserStoreContract("memory", async () => new MemoryUserStore());
describeUserStoreContract("SQLite", async () => new SqliteUserStore(await sqliteFile()));

describeEmailedTokenStoreContract("memory", async () => ({
  store: new MemoryEmailedTokenStore(),
  users: new MemoryUserStore(),
}));
describeEmailedTokenStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  return { store: new SqliteEmailedTokenStore(database), users: new SqliteUserStore(database) };
});
