import { describe, expect, it, onTestFinished } from "vitest";
import { freshPostgresDatabase, postgresUrl } from "../../../test/support/postgres.js";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { openPostgres } from "../src/pg.js";

describeSqlDriverContract("pg", async () => {
  const database = await freshPostgresDatabase();
  const schema = (await database.get<{ schema: string }>("SELECT current_schema() AS schema"))!;
  return {
    database,
    second: async () => {
      const other = openPostgres(postgresUrl(schema.schema), { max: 2 });
      onTestFinished(() => other.close());
      return other;
    },
  };
});

describe("openPostgres", () => {
  it("reads BIGINT as a number while exact and as a bigint beyond 2^53", async () => {
    const database = await freshPostgresDatabase();
    expect(database.dialect).toBe("postgres");
    const row = await database.get("SELECT 5::int8 AS small, 9007199254740993::int8 AS big");
    expect(row).toEqual({ small: 5, big: 9007199254740993n });
  });

  it("lets the pool's other connections go on while a transaction holds one", async () => {
    const database = await freshPostgresDatabase();
    const answer = await database.transaction(async () => {
      const outside = await database.get<{ one: number }>("SELECT 1 AS one");
      return outside!.one;
    });
    expect(answer).toBe(1);
  });
});
