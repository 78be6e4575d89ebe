import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { d1Database } from "../src/d1.js";

// D1 as workerd runs it, through miniflare: one Worker per file (starting workerd costs seconds)
// with a database binding of its own per test, so each test still starts on an empty database.
const D1_BINDINGS = Array.from({ length: 40 }, (_, index) => `DB${index}`);
let worker: Miniflare | undefined;
let bindingsUsed = 0;
afterAll(async () => {
  await worker?.dispose();
});

/** A fresh D1 database and a second binding to the same one. */
async function freshD1() {
  const name = D1_BINDINGS[bindingsUsed++];
  if (name === undefined) throw new Error("more D1 databases asked for than bound");
  worker ??= new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response() }",
    compatibilityDate: "2026-07-01",
    d1Databases: D1_BINDINGS,
  });
  const shared = worker;
  const binding = async () => d1Database(await shared.getD1Database(name));
  return { database: await binding(), second: binding };
}

describeSqlDriverContract("D1", freshD1, { batchedTransactions: true, changesCountCascades: true });

describe("d1Database", () => {
  it("refuses to tell a write's changes inside a transaction, where D1 cannot know them", async () => {
    const { database } = await freshD1();
    await database.execScript("CREATE TABLE notes (body TEXT)");
    const answer = await database
      .transaction(async (transaction) => {
        const result = await transaction.run("INSERT INTO notes (body) VALUES (?)", ["a"]);
        return result.changes;
      })
      .catch((error: Error) => error.message);
    expect(answer).toMatch(/their changes are not known inside it/);
    expect(await database.all("SELECT body FROM notes")).toEqual([]);
  });

  it("binds a bigint that fits a double and refuses one that does not", async () => {
    const { database } = await freshD1();
    expect(await database.get("SELECT ? AS n", [2n ** 40n])).toEqual({ n: 2 ** 40 });
    await expect(database.get("SELECT ? AS n", [2n ** 60n])).rejects.toThrow(RangeError);
  });
});
