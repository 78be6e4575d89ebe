// Two instances of the app on one PostgreSQL database, each with its own webhook sender, as two
// hosts behind a load balancer would run: the outbox's leases give each delivery to one of them,
// an endpoint made on one receives the events of writes on the other, with its custom headers,
// its rate limit held between both senders, and a test event sent from either.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresSchema, type PostgresSchema } from "../../../test/support/postgres.js";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";

const NOTES = 40;

let schema: PostgresSchema;
let folder: string;
const servers: RunningServer[] = [];
let receiver: Server;
let receiverUrl: string;
/** Every delivery the receiver got: its `webhook-id` header and the raw request. */
const received: { id: string; body: string; headers: Record<string, string>; at: number }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = request.headers as Record<string, string>;
      received.push({
        id: headers["webhook-id"] ?? "",
        body: Buffer.concat(chunks).toString(),
        headers,
        at: performance.now(),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  schema = await createPostgresSchema();
  folder = mkdtempSync(join(tmpdir(), "tessera-webhook-senders-"));
  for (const index of [0, 1]) {
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: schema.url,
      DATABASE_PATH: join(folder, `unused-${index}.db`),
      UPLOADS_PATH: join(folder, `uploads-${index}`),
      SECRET_KEY_BASE: "two-webhook-senders-".repeat(4),
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    });
    servers.push(await startServer(config, { backgroundTasks: index === 0 }));
  }
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await schema?.drop();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

async function post(server: RunningServer, path: string, json: unknown, token?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function countOf(sql: string): Promise<number> {
  const [row] = await schema.database.all<{ count: string }>(sql);
  return Number(row!.count);
}

describe("two app instances delivering webhooks from one PostgreSQL database", () => {
  it("deliver each of 40 events once between them, with one attempt row each", async () => {
    const credentials = {
      email: `hooks.${Date.now()}@example.com`,
      password: "correct horse battery",
    };
    expect((await post(servers[0]!, "/api/auth/signup", credentials)).status).toBe(201);
    const token = (await post(servers[1]!, "/api/auth/token", credentials)).body.token as string;
    const endpoint = await post(servers[0]!, "/api/webhook_endpoints", { url: receiverUrl }, token);
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.secret as string;

    // Notes created over both instances: each writes its event in the outbox.
    const created = await Promise.all(
      Array.from({ length: NOTES }, (_, n) =>
        post(servers[n % 2]!, "/api/notes", { title: `Note ${n}` }, token),
      ),
    );
    for (const answer of created) expect(answer.status).toBe(201);
    // Both senders drain at once, racing for the same rows (their own loops run as well).
    await Promise.all(servers.map((server) => server.deliverWebhooks()));
    await expect
      .poll(() =>
        countOf(
          "SELECT count(*) AS count FROM outbox_items WHERE queue = 'webhook' AND status = 'done'",
        ),
      )
      .toBe(NOTES);

    const ids = received.map((delivery) => delivery.id);
    expect(ids).toHaveLength(NOTES);
    expect(new Set(ids).size).toBe(NOTES);
    const noteIds = received.map(
      (delivery) =>
        (new Webhook(secret).verify(delivery.body, delivery.headers) as { data: { id: number } })
          .data.id,
    );
    expect(noteIds.sort((a, b) => a - b)).toEqual(
      created.map((answer) => answer.body.id as number).sort((a, b) => a - b),
    );
    expect(await countOf("SELECT count(*) AS count FROM webhook_messages")).toBe(NOTES);
    expect(await countOf("SELECT count(*) AS count FROM webhook_attempts")).toBe(NOTES);
    expect(
      await countOf(
        "SELECT count(DISTINCT message_id) AS count FROM webhook_attempts WHERE status = 'succeeded'",
      ),
    ).toBe(NOTES);
  }, 60_000);
});

describe("an endpoint's options across two app instances", () => {
  it("carry its headers and its rate limit into every delivery, whichever instance wrote or sends", async () => {
    received.length = 0;
    const credentials = {
      email: `options.${Date.now()}@example.com`,
      password: "correct horse battery",
    };
    expect((await post(servers[1]!, "/api/auth/signup", credentials)).status).toBe(201);
    const token = (await post(servers[0]!, "/api/auth/token", credentials)).body.token as string;
    const endpoint = await post(
      servers[0]!,
      "/api/webhook_endpoints",
      { url: `${receiverUrl}?options`, headers: { "X-Tenant": "t-42" }, rate_limit: 20 },
      token,
    );
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.secret as string;
    const id = endpoint.body.id as string;

    const notes = 10;
    const created = await Promise.all(
      Array.from({ length: notes }, (_, n) =>
        post(servers[1 - (n % 2)]!, "/api/notes", { title: `Paced ${n}` }, token),
      ),
    );
    for (const answer of created) expect(answer.status).toBe(201);
    const test = await post(
      servers[1]!,
      `/api/webhook_endpoints/${id}/test`,
      { type: "note.updated" },
      token,
    );
    expect(test.status).toBe(202);
    await Promise.all(servers.map((server) => server.deliverWebhooks()));
    // Deliveries over the limit went back to the outbox, due later: the senders' loops send them.
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(notes + 1);

    expect(new Set(received.map((delivery) => delivery.id)).size).toBe(notes + 1);
    for (const delivery of received) {
      expect(delivery.headers["x-tenant"]).toBe("t-42");
      new Webhook(secret).verify(delivery.body, delivery.headers);
    }
    expect(received.map((delivery) => delivery.id)).toContain(test.body.message_id);
    // 20 a second: 11 deliveries take at least 10 intervals of 50 ms (a lower bound only).
    const times = received.map((delivery) => delivery.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(10 * 50 * 0.9);
  }, 60_000);
});
