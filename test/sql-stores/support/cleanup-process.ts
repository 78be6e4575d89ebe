import { createInterface } from "node:readline";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";

// One process of the two-process cleanup test: opens the file, says "ready", waits for one line
// on stdin (so both processes start together), deletes the sessions expired at `now`, and
// prints how many it deleted.
const [path, now] = process.argv.slice(2) as [string, string];
const database = openSqliteFile(path);
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
lines.once("line", async () => {
  const deleted = await new SqlTrackedSessionStore(database).deleteExpired(Number(now));
  process.stdout.write(`deleted ${deleted}\n`);
  lines.close();
  database.close();
});
