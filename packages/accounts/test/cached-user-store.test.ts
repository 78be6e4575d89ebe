// Users by id from memory: changes through the cache take effect at once; changes made by
// another process (another connection to the same file) within the stated staleness.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { CachedUserStore, type UserStore } from "../src/index.js";
import { accountMigrations, SqlUserStore } from "../src/sql.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Two processes' connections to one SQLite file; the first one's store counts its lookups. */
async function twoProcesses(maximumStalenessMs: number, clock?: () => number) {
  const folder = mkdtempSync(join(tmpdir(), "tessera-cached-users-"));
  folders.push(folder);
  const file = join(folder, "app.db");
  const here = openSqliteFile(file);
  const there = openSqliteFile(file);
  await applyMigrations(here, accountMigrations);
  const sql = new SqlUserStore(here);
  let lookups = 0;
  const counting: UserStore = {
    create: (user, now) => sql.create(user, now),
    findById: (id) => {
      lookups += 1;
      return sql.findById(id);
    },
    findByEmail: (email) => sql.findByEmail(email),
    delete: (id) => sql.delete(id),
    updatePasswordDigest: (id, digest, now) => sql.updatePasswordDigest(id, digest, now),
    confirm: (id, now) => sql.confirm(id, now),
    changeEmail: (id, email, now) => sql.changeEmail(id, email, now),
    updateColumns: (id, columns, now) => sql.updateColumns(id, columns, now),
  };
  const cached = new CachedUserStore(counting, {
    maximumStalenessMs,
    ...(clock ? { clock } : {}),
  });
  const created = await cached.create({ email: "ada@example.com", passwordDigest: "old" }, 0);
  if (!created.ok) throw new Error("not created");
  return {
    cached,
    other: new SqlUserStore(there),
    id: created.value.id,
    lookups: () => lookups,
    close() {
      here.close();
      there.close();
    },
  };
}

describe("CachedUserStore", () => {
  it("queries every time with the default staleness of 0", async () => {
    const setup = await twoProcesses(0);
    await setup.cached.findById(setup.id);
    await setup.cached.findById(setup.id);
    expect(setup.lookups()).toBe(2);
    await setup.other.delete(setup.id);
    expect(await setup.cached.findById(setup.id)).toBeUndefined();
    setup.close();
  });

  it("serves a user from memory, and its own changes at once", async () => {
    const setup = await twoProcesses(60_000);
    expect((await setup.cached.findById(setup.id))?.email).toBe("ada@example.com");
    expect((await setup.cached.findById(setup.id))?.email).toBe("ada@example.com");
    expect(setup.lookups()).toBe(1);

    await setup.cached.updatePasswordDigest(setup.id, "new", 1_000);
    expect((await setup.cached.findById(setup.id))?.passwordDigest).toBe("new");
    await setup.cached.confirm(setup.id, 2_000);
    expect((await setup.cached.findById(setup.id))?.confirmedAt).toBe(2_000);
    expect(await setup.cached.delete(setup.id)).toBe(true);
    expect(await setup.cached.findById(setup.id)).toBeUndefined();
    setup.close();
  });

  it("sees another process's delete once the staleness has passed (a moved clock)", async () => {
    let now = 10_000;
    const setup = await twoProcesses(5_000, () => now);
    await setup.cached.findById(setup.id);
    await setup.other.delete(setup.id);
    now += 4_999;
    expect((await setup.cached.findById(setup.id))?.id).toBe(setup.id);
    now += 1;
    expect(await setup.cached.findById(setup.id)).toBeUndefined();
    setup.close();
  });

  it("sees another process's delete within the staleness by the real clock", async () => {
    const setup = await twoProcesses(150);
    await setup.cached.findById(setup.id);
    await setup.other.delete(setup.id);
    const deletedAt = performance.now();
    // Served from memory right after: the other process's delete is not seen yet.
    expect((await setup.cached.findById(setup.id))?.id).toBe(setup.id);
    while ((await setup.cached.findById(setup.id)) !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(performance.now() - deletedAt).toBeLessThan(1_000);
    setup.close();
  });
});
