// Two instances of the app on one PostgreSQL database, each with its own webhook sender, as two
// hosts behind a load balancer would run: the outbox's leases give each delivery to one of them.
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
const received: { id: string; body: string; headers: Record<string, string> }[] = [];

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
