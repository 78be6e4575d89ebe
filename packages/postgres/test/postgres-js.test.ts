import postgres from "postgres";
import { describe, expect, it, onTestFinished } from "vitest";
import { createPostgresSchema } from "../../../test/support/postgres.js";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { wrapPostgresJs } from "../src/postgres-js.js";

/** A postgres.js client on a new schema of the run's server, ended with the test. */
async function openClient(url: string) {
  const database = wrapPostgresJs(postgres(url, { max: 4, onnotice: () => {} }));
  onTestFinished(() => database.close());
  return database;
}

describeSqlDriverContract("postgres.js", async () => {
  const schema = await createPostgresSchema();
  onTestFinished(() => schema.drop());
  return { database: await openClient(schema.url), second: () => openClient(schema.url) };
});

describe("wrapPostgresJs", () => {
  it("reads BIGINT as a number while exact and as a bigint beyond 2^53", async () => {
    const schema = await createPostgresSchema();
    onTestFinished(() => schema.drop());
    const database = await openClient(schema.url);
    expect(database.dialect).toBe("postgres");
    expect(await database.get("SELECT 5::int8 AS small, 9007199254740993::int8 AS big")).toEqual({
      small: 5,
      big: 9007199254740993n,
    });
  });
});
