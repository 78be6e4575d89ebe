import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { d1Database } from "../src/d1.js";

// D1 as workerd runs it, through miniflare; each test gets a database binding of its own.
const workers: Miniflare[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.dispose()));
});

/** A fresh D1 database and a second binding to the same one. */
async function freshD1() {
  const worker = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response() }",
    compatibilityDate: "2026-07-01",
    d1Databases: ["DB"],
  });
  workers.push(worker);
  const binding = async () => d1Database(await worker.getD1Database("DB"));
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
