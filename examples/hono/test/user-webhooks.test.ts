// The Hono example sends webhooks to its users: an endpoint made through the JSON API receives
// the app's own event, signed (verified by the standardwebhooks library), and the page lists it.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerType } from "@hono/node-server";
import { MemoryMailer } from "@tessera/mail";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleApp } from "../src/app.js";
import { listen } from "../src/listen.js";
import { readSettings } from "../src/settings.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-example-hono-webhooks-"));
const { app, sender } = await exampleApp({
  ...readSettings(
    {
      SECRET_KEY_BASE: "example-hono-webhooks-".repeat(3),
      DATABASE_PATH: join(folder, "app.db"),
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    },
    "hono",
  ),
  mailer: new MemoryMailer(),
});
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
    response.writeHead(204).end();
  });
});
let url = "";
let server: ServerType | undefined;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const listening = await listen(app, 0, "127.0.0.1");
  server = listening.server;
  url = `http://127.0.0.1:${listening.address.port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  await new Promise((done) => receiver.close(done));
  rmSync(folder, { recursive: true, force: true });
});

async function json(method: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const answer = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("the Hono example's webhooks to its users", () => {
  it("delivers the app's event to the endpoint the user registered, signed with its secret", async () => {
    const credentials = { email: "hooks@example.com", password: "correct horse battery staple" };
    expect((await json("POST", "/api/auth/signup", credentials)).status).toBe(201);
    const token = String((await json("POST", "/api/auth/token", credentials)).body.token);
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    const endpoint = await json("POST", "/api/webhook_endpoints", { url: receiverUrl }, token);
    expect(endpoint.status).toBe(201);
    const types = await fetch(`${url}/api/webhook_event_types`);
    expect(((await types.json()) as { name: string }[]).map((type) => type.name)).toEqual([
      "greeting.sent",
    ]);

    expect((await json("POST", "/api/greetings", { text: "Hello" }, token)).status).toBe(202);
    expect((await json("POST", "/api/greetings", { text: "Hi" })).status).toBe(401);
    await sender.drain();

    expect(received).toHaveLength(1);
    const event = new Webhook(String(endpoint.body.secret)).verify(
      received[0]!.body,
      received[0]!.headers as Record<string, string>,
    );
    expect(event).toMatchObject({ type: "greeting.sent", data: { text: "Hello" } });
  });

  it("serves the endpoints' page to the signed-in user, and sends a visitor to sign in", async () => {
    const visitor = await fetch(`${url}/account/webhooks`, { redirect: "manual" });
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get("location")).toBe("/login");
  });
});
