import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import { postgresSchema, sqliteFile } from "./support/databases.js";
import { testReceiver } from "./support/receiver.js";
import { webhooksOn } from "./support/senders.js";

const receiver = await testReceiver();
const MESSAGES = 60;

/**
 * Two senders, each on a connection of its own, drain one burst at once: every delivery is
 * sent exactly once (one request and one attempt per message), whichever runner claims it.
 */
async function burstThroughTwoSenders(path: string, open: () => SqlDatabase, main: SqlDatabase) {
  receiver.on(path, (_request, response) => response.writeHead(204).end());
  const time = { now: Date.now() };
  const writer = webhooksOn(main, time);
  const { endpoint } = await writer.endpointAt(1, receiver.url(path));
  const sent = new Set<string>();
  for (let index = 0; index < MESSAGES; index++) {
    sent.add((await writer.webhooks.send(main, 1, "note.created", { index })).messageId!);
  }
  const [a, b] = [open(), open()].map((connection) =>
    webhooksOn(connection, time).sender({ concurrency: 4, batch: 4 }),
  );
  const reports = await Promise.all([a!.drain(), b!.drain()]);
  expect(reports[0]!.delivered + reports[1]!.delivered).toBe(MESSAGES);
  expect(reports.every((report) => report.superseded === 0 && report.failed === 0)).toBe(true);
  const ids = receiver.receivedAt(path).map((request) => request.headers["webhook-id"]);
  expect(ids).toHaveLength(MESSAGES);
  expect(new Set(ids)).toEqual(sent);
  const attempts = (await writer.webhooks.listAttempts(1, endpoint.id, 1000)) ?? [];
  expect(attempts).toHaveLength(MESSAGES);
  expect(attempts.every((attempt) => attempt.attempt === 1 && attempt.status === "succeeded")).toBe(
    true,
  );
}

describe("two senders", () => {
  it("on one SQLite file never send one attempt twice", async () => {
    const { database, open } = await sqliteFile();
    await burstThroughTwoSenders("/burst-sqlite", open, database);
  });

  it("on one PostgreSQL database never send one attempt twice", async () => {
    const { database, open } = await postgresSchema();
    await burstThroughTwoSenders("/burst-postgres", open, database);
  });
});
