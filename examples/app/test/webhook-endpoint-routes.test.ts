import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { User } from "@tessera/accounts";
import { ok } from "@tessera/core";
import { routeRequests } from "@tessera/http";
import { SqlOutbox } from "@tessera/outbox/sql";
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/ratelimit";
import { afterAll, describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { loadConfig } from "../src/config.js";
import { appMigrations } from "../src/migrations.js";
import { appOutboundWebhooks } from "../src/outbound.js";
import { webhookEndpointRoutes } from "../src/webhook-endpoint-routes.js";
import { openSqliteAppDatabase } from "./support/sqlite-app-database.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-endpoint-routes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ADA: User = {
  id: 1,
  email: "ada@example.com",
  passwordDigest: "",
  confirmedAt: null,
  credentialsChangedAt: null,
  createdAt: 0,
  updatedAt: 0,
  columns: {},
};

/** The routes alone, with every request made by Ada: no middleware between them and the test. */
async function mountedAlone() {
  const path = join(folder, `${crypto.randomUUID()}.db`);
  const database = await openSqliteAppDatabase(path, appMigrations);
  const secretKeyBase = "e".repeat(64);
  const config = loadConfig({ PORT: "0", DATABASE_PATH: path, SECRET_KEY_BASE: secretKeyBase });
  const outbound = appOutboundWebhooks({
    database,
    outbox: new SqlOutbox(database),
    config,
    secretKeyBase,
  });
  const handle = routeRequests(
    webhookEndpointRoutes({
      outbound,
      bearer: {
        authenticate: async () =>
          ok({ user: ADA, credential: "jwt" as const, authentication: undefined }),
      },
      rateLimiter: createRateLimiter({ store: new MemoryRateLimitStore() }),
    }),
  );
  return async (method: string, route: string, body?: unknown) =>
    (await handle(
      new Request(`http://app.example${route}`, {
        method,
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      { locale: FRENCH },
    ))!;
}

describe("webhookEndpointRoutes in a locale", () => {
  it("write the locale's language headers into their answers, refusals included", async () => {
    const send = await mountedAlone();
    expect(languageOf(await send("GET", "/api/webhook_endpoints"))).toEqual(inFrench(200));
    expect(languageOf(await send("GET", "/api/webhook_endpoints/ep_none"))).toEqual(inFrench(404));
    expect(languageOf(await send("POST", "/api/webhook_messages/msg_none/replay"))).toEqual(
      inFrench(404),
    );
    const refused = await send("POST", "/api/webhook_endpoints", { url: "http://10.0.0.1/" });
    expect(languageOf(refused)).toEqual(inFrench(422));
  });
});
