import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type OutboxItem, runOutbox } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it, onTestFinished } from "vitest";
import { startProcessGroup } from "../../../test/support/process-group.js";
import { postgresSchema, sqliteFile } from "./support/databases.js";
import { deferred } from "./support/deferred.js";

const repository = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/claim-and-hang.ts", import.meta.url));
const TSX = import.meta.resolve("tsx/esm");
// Long enough for the child to start and claim, short enough to wait out: the real clock runs.
const LEASE_MS = 1500;
// Starting the child (tsx compiling the drivers) takes seconds on a busy machine.
const CHILD_TIMEOUT = { timeout: 60_000 };

/** Runs the fixture, waits for the item it claimed, and kills it with SIGKILL. */
async function claimInChildAndKill(engine: string, location: string): Promise<OutboxItem> {
  const group = startProcessGroup(
    process.execPath,
    ["--import", TSX, FIXTURE, engine, location, `${LEASE_MS}`],
    {
      cwd: repository,
      // tsx resolves `@tessera/*` through this repository's tsconfig paths, to its sources.
      env: { ...process.env, TSX_TSCONFIG_PATH: join(repository, "tsconfig.json") },
    },
  );
  // A child that never claims must not outlive the test that timed out waiting for it.
  onTestFinished(() => group.stop());
  const [line] = (await once(createInterface({ input: group.child.stdout }), "line")) as [string];
  group.child.kill("SIGKILL");
  expect(await group.exited).toBeNull();
  expect(group.child.signalCode).toBe("SIGKILL");
  return JSON.parse(line) as OutboxItem;
}

/** Enqueues one item, lets a child claim and die with it, and delivers it in this process. */
async function recoversAfterKill(database: SqlDatabase, engine: string, location: string) {
  const outbox = new SqlOutbox(database);
  await outbox.enqueue(database, "mail", { to: "ada@example.com" }, { key: "reset-ada" });
  const claimed = await claimInChildAndKill(engine, location);
  expect(claimed).toMatchObject({ key: "reset-ada", attempts: 1, leaseOwner: "doomed-worker" });
  expect(await outbox.find("mail", "reset-ada")).toMatchObject({
    status: "pending",
    attempts: 1,
    leaseOwner: "doomed-worker",
  });
  const delivered = deferred<OutboxItem>();
  const runner = runOutbox({
    outbox,
    queue: "mail",
    schedule: { delaysMs: [] },
    owner: "survivor",
    pollMs: 50,
    deliver: async (item) => delivered.resolve(item),
  });
  runner.start();
  const item = await delivered.promise;
  await runner.stop();
  expect(item).toMatchObject({
    key: "reset-ada",
    attempts: 2,
    leaseOwner: "survivor",
    payload: { to: "ada@example.com" },
  });
  expect(await outbox.find("mail", "reset-ada")).toMatchObject({ status: "done", attempts: 2 });
}

describe("a worker killed mid-delivery", () => {
  it(
    "leaves its item to a new runner once the lease runs out (SQLite)",
    CHILD_TIMEOUT,
    async () => {
      const { database, path } = await sqliteFile();
      await recoversAfterKill(database, "sqlite", path);
    },
  );

  it(
    "leaves its item to a new runner once the lease runs out (PostgreSQL)",
    CHILD_TIMEOUT,
    async () => {
      const { database, url } = await postgresSchema();
      await recoversAfterKill(database, "postgres", url);
    },
  );
});
