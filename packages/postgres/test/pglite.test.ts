import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { wrapPglite } from "../src/pglite.js";

// Starting PGlite takes seconds (its WebAssembly): one per file, and a schema of its own per
// test, which its one connection uses until the test ends.
const pglite = wrapPglite(await PGlite.create());
afterAll(() => pglite.close());

async function openPglite() {
  const schema = `test_${crypto.randomUUID().replaceAll("-", "")}`;
  await pglite.execScript(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  onTestFinished(() => pglite.execScript(`RESET search_path; DROP SCHEMA ${schema} CASCADE`));
  return pglite;
}

// PGlite is one database in this process: a "second connection" is the same one.
describeSqlDriverContract("PGlite", async () => {
  const database = await openPglite();
  return { database, second: async () => database };
});

describe("wrapPglite", () => {
  it("speaks PostgreSQL and reads BIGINT as a number while exact", async () => {
    const database = await openPglite();
    expect(database.dialect).toBe("postgres");
    expect(await database.get("SELECT 5::int8 AS small, 9007199254740993::int8 AS big")).toEqual({
      small: 5,
      big: 9007199254740993n,
    });
  });
});

describe("placeholders on PGlite", () => {
  it("binds only the question marks PostgreSQL reads as code", async () => {
    const database = await openPglite();
    const row = await database.get(
      "SELECT E'it\\'s ?' AS escaped, /* a /* nested ? */ ? */ $t1$?$t1$ AS dollar, ? AS bound",
      ["value"],
    );
    expect(row).toEqual({ escaped: "it's ?", dollar: "?", bound: "value" });
  });
});
