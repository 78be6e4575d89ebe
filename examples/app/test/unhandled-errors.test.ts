import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { MemoryObjectStorage } from "@tessera/records";
import { signBody } from "@tessera/signer";
import type { SqlDatabase } from "@tessera/sql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { openAppDatabase } from "../src/database.js";
import { appMigrations } from "../src/migrations.js";

const IN_MEMORY = { databasePath: ":memory:", databaseUrl: undefined };

const ORDERS_SECRET = "orders-secret-for-error-tests";
const INTERNALS = "SQLITE_CORRUPT: database disk image is malformed at /srv/secret/app.db";
const ENVELOPE = {
  error: { code: "internal_error", message: "Internal server error", status: 500 },
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

/** The database, except that any statement on `webhook_events` fails as a broken disk would. */
function breakingWebhookEvents(database: SqlDatabase): SqlDatabase {
  const checked = (sql: string) => {
    if (sql.includes("webhook_events")) throw new Error(INTERNALS);
    return sql;
  };
  return {
    dialect: database.dialect,
    run: async (sql, params) => database.run(checked(sql), params),
    get: async (sql, params) => database.get(checked(sql), params),
    all: async (sql, params) => database.all(checked(sql), params),
    execScript: (sql) => database.execScript(sql),
    transaction: (work) => database.transaction((inside) => work(breakingWebhookEvents(inside))),
  };
}

/** The app on a fresh in-memory database, with routes that throw added, served on 127.0.0.1. */
async function serveApp(): Promise<string> {
  const database = await openAppDatabase(IN_MEMORY, appMigrations);
  cleanups.push(() => database.close());
  const app = createApp({
    config: loadConfig({ ORDERS_WEBHOOK_SECRET: ORDERS_SECRET }),
    secretKeyBase: "unhandled-error-secret-".repeat(2),
    database: breakingWebhookEvents(database),
    mailer: undefined,
    trackedSessions: undefined,
    storage: new MemoryObjectStorage(),
    renderJobs: undefined,
  });
  const thrower = () => {
    throw new Error(INTERNALS);
  };
  app.get("/api/explode", thrower);
  app.get("/explode", thrower);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () =>
      resolve(listening),
    );
  });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function read(response: Response) {
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    nosniff: response.headers.get("x-content-type-options"),
    body: await response.text(),
  };
}

describe("an unhandled error", () => {
  it("answers a JSON route with the 500 envelope, no internals, and logs the error once", async () => {
    const url = await serveApp();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await read(await fetch(`${url}/api/explode`));
    expect(answer.status).toBe(500);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual(ENVELOPE);
    expect(answer.body).not.toContain("SQLITE");
    expect(answer.body).not.toContain("at ");
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]!.at(-1))).toContain(INTERNALS);
  });

  it("answers a webhook whose store throws with the JSON envelope", async () => {
    const url = await serveApp();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const body = JSON.stringify({ id: "evt_1", type: "order.paid", data: {} });
    const answer = await read(
      await fetch(`${url}/webhooks/orders`, {
        method: "POST",
        headers: { "x-signature": signBody(body, ORDERS_SECRET) },
        body,
      }),
    );
    expect(answer).toMatchObject({
      status: 500,
      type: expect.stringMatching(/^application\/json/),
    });
    expect(JSON.parse(answer.body)).toEqual(ENVELOPE);
    expect(answer.body).not.toContain("SQLITE");
  });

  it("answers an HTML route with a plain HTML error page, or JSON when the client asked for it", async () => {
    const url = await serveApp();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const page = await read(await fetch(`${url}/explode`, { headers: { accept: "text/html" } }));
    expect(page.status).toBe(500);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.nosniff).toBe("nosniff");
    expect(page.body).toContain("<h1>Something went wrong</h1>");
    expect(page.body).not.toContain("SQLITE");
    expect(page.body).not.toContain("Internal Server Error");
    expect(logged).toHaveBeenCalledTimes(1);

    for (const headers of [
      { accept: "application/json" },
      { "content-type": "application/json" },
    ]) {
      const asked = await read(await fetch(`${url}/explode`, { headers }));
      expect([asked.status, asked.type, JSON.parse(asked.body)]).toEqual([
        500,
        expect.stringMatching(/^application\/json/),
        ENVELOPE,
      ]);
    }
  });
});
