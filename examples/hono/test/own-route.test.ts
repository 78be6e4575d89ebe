import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleApp } from "../src/app.js";
import { readSettings } from "../src/settings.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-example-hono-"));
const { app } = await exampleApp({
  ...readSettings(
    { SECRET_KEY_BASE: "example-hono-test-".repeat(3), DATABASE_PATH: join(folder, "app.db") },
    "hono",
  ),
  mailer: new MemoryMailer(),
});
let url = "";
let server: ReturnType<typeof serve> | undefined;
beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(folder, { recursive: true, force: true });
});

describe("the Hono example's own route", () => {
  it("answers the signed-in user's email at /me, and 401 to a visitor", async () => {
    const email = `ada-${crypto.randomUUID()}@example.com`;
    const signup = await fetch(`${url}/signup`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: new URLSearchParams({ email, password: "correct horse battery staple" }),
    });
    expect(signup.status).toBe(303);
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const me = await fetch(`${url}/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.text()).toBe(email);
    const visitor = await fetch(`${url}/me`);
    expect(visitor.status).toBe(401);
    expect(await visitor.text()).toBe("Sign in first.");
  });
});
