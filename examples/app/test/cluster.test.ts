// WEB_CONCURRENCY=N on PostgreSQL: N processes share the port and the database, started the
// way `npm start` starts them, and the once-only guarantees hold across processes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { signBody } from "@tessera/signer";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createPostgresSchema, type PostgresSchema } from "../../../test/support/postgres.js";
import { appMigrations } from "../src/migrations.js";
import { type AppProcess, spawnApp, waitForLine } from "./support/app-process.js";
import { Browser, linkIn } from "./support/browser.js";

const ORDERS_SECRET = "orders-secret-for-the-cluster";
// Four workers compiling the app together did not say they listen within 45 s with a load of
// 17 on two cores: the time here is for such a machine.
const STARTUP_MS = 120_000;

interface ClusterApp {
  readonly url: string;
  readonly app: AppProcess;
  readonly schema: PostgresSchema;
  stop(): Promise<void>;
}

/** Starts `npm start` with `processes` workers on a fresh PostgreSQL schema. */
async function startCluster(processes: number): Promise<ClusterApp> {
  const schema = await createPostgresSchema();
  const folder = mkdtempSync(join(tmpdir(), "tessera-cluster-"));
  const app = spawnApp(folder, {
    PORT: "0",
    DATABASE_URL: schema.url,
    WEB_CONCURRENCY: String(processes),
    SECRET_KEY_BASE: "cluster-secret-".repeat(4),
    ORDERS_WEBHOOK_SECRET: ORDERS_SECRET,
    MAIL_ADAPTER: "log",
    TRUST_PROXY: "1",
  });
  // Each worker compiles the app's TypeScript as it starts: on a busy two-core machine, four
  // of them together take a while.
  const [, url] = await waitForLine(
    app.output,
    new RegExp(`listening on (http://127\\.0\\.0\\.1:\\d+) \\(${processes} processes\\)\\n`),
    STARTUP_MS,
  ).catch(async (error: unknown) => {
    // No one else holds the app yet to stop it: a start that fails or times out stops here.
    await app.stop();
    await schema.drop();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  return {
    url: url!,
    app,
    schema,
    async stop() {
      app.child.kill("SIGTERM");
      await app.exited;
      await app.stop();
      await schema.drop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

describe("WEB_CONCURRENCY=4 on a new PostgreSQL database", () => {
  it(
    "starts four processes together that apply each migration once, serve, and stop",
    async () => {
      const cluster = await startCluster(4);
      // Runs when the test times out too, which the finally below would only reach once the
      // requests under way ended.
      onTestFinished(() => cluster.app.stop());
      try {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => fetch(`${cluster.url}/api/health`)),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
        const ledger = await cluster.schema.database.all<{ id: string }>(
          "SELECT id FROM schema_migrations ORDER BY id",
        );
        expect(ledger.map((row) => row.id)).toEqual(appMigrations.map((m) => m.id).sort());
        expect(cluster.app.output()).not.toMatch(/already exists|Error/);
      } finally {
        cluster.app.child.kill("SIGTERM");
        expect(await cluster.app.exited).toBe(0);
        expect(cluster.app.output()).toContain("Stopped on SIGTERM.");
        await cluster.stop();
      }
    },
    2 * STARTUP_MS,
  );
});

describe("once-only across two processes on PostgreSQL", () => {
  let cluster: ClusterApp;
  beforeAll(async () => {
    cluster = await startCluster(2);
  }, STARTUP_MS + 5_000);
  afterAll(() => cluster?.stop(), 20_000);

  const post = (path: string, init: { json?: unknown; headers?: Record<string, string> }) =>
    fetch(`${cluster.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...init.headers },
      body: JSON.stringify(init.json),
    });

  it("runs the effect of thirty simultaneous identical deliveries once", async () => {
    const id = `evt_${Date.now()}`;
    const body = JSON.stringify({ id, type: "order.paid", data: { order_id: id, amount: 7 } });
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const response = await fetch(`${cluster.url}/webhooks/orders`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-signature": signBody(body, ORDERS_SECRET),
          },
          body,
        });
        return { status: response.status, body: (await response.json()) as { status?: string } };
      }),
    );
    const processed = answers.filter((answer) => answer.body.status === "processed");
    expect(processed).toHaveLength(1);
    // The others met the processed event (200, duplicate) or its live claim (409, retry later).
    for (const answer of answers.filter((answer) => answer !== processed[0])) {
      expect([
        { status: 200, body: { status: "duplicate" } },
        {
          status: 409,
          body: {
            error: {
              code: "event_in_progress",
              message: "This event is being processed; retry later.",
              status: 409,
            },
          },
        },
      ]).toContainEqual(answer);
    }
    const orders = await cluster.schema.database.all(
      "SELECT order_id FROM paid_orders WHERE event_id = ?",
      [id],
    );
    expect(orders).toEqual([{ order_id: id }]);
    const events = await cluster.schema.database.all(
      "SELECT status, attempts FROM webhook_events WHERE event_id = ?",
      [id],
    );
    expect(events).toEqual([{ status: "processed", attempts: 1 }]);
  });

  it("gives one 201 to six simultaneous sign-ups with one email in different cases", async () => {
    const email = `race-${Date.now()}@example.com`;
    const spellings = [email, email.toUpperCase(), ` ${email}`, `Race-${email.slice(5)}`];
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        post("/api/auth/signup", {
          json: { email: spellings[index % spellings.length], password: "password123" },
          headers: { "x-forwarded-for": `198.51.100.${index + 1}` },
        }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([
      201, 422, 422, 422, 422, 422,
    ]);
    const users = await cluster.schema.database.all("SELECT email FROM users WHERE email = ?", [
      email,
    ]);
    expect(users).toEqual([{ email }]);
  });

  it("signs in once when twenty requests use one emailed link at the same moment", async () => {
    const email = `link-${Date.now()}@example.com`;
    const signUp = await post("/api/auth/signup", {
      json: { email, password: "password123" },
      headers: { "x-forwarded-for": "198.51.100.50" },
    });
    expect(signUp.status).toBe(201);
    await new Browser(cluster.url).post("/magic_link", { email });
    const [, mail] = await waitForLine(
      cluster.app.output,
      new RegExp(`To: ${email.replace(".", "\\.")}[\\s\\S]*?(/magic_link/[A-Za-z0-9_-]+)`),
    );
    const link = linkIn(`http://x${mail}`, "/magic_link");
    const results = await Promise.all(
      Array.from({ length: 20 }, () => new Browser(cluster.url).post(link.path)),
    );
    const locations = results.map((result) => result.location);
    expect(locations.filter((location) => location === "/")).toHaveLength(1);
    expect(locations.filter((location) => location === "/magic_link")).toHaveLength(19);
  });

  it("counts one client's sign-in attempts across both processes: the 11th is refused", async () => {
    await awaitWindowRoom(5_000);
    const headers = { "x-forwarded-for": "198.51.100.70" };
    const attempt = () =>
      post("/api/auth/token", {
        json: { email: "nobody@example.com", password: "wrong password" },
        headers,
      }).then((response) => response.status);
    // Twenty at once: the two processes share one counter in the database, so exactly ten
    // reach the password check, wherever they land.
    const statuses = await Promise.all(Array.from({ length: 20 }, attempt));
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it("counts one account's wrong passwords across both processes, from as many addresses", async () => {
    const email = `throttled-${Date.now()}@example.com`;
    const attempt = (index: number) =>
      post("/api/auth/token", {
        json: { email, password: "wrong password" },
        headers: { "x-forwarded-for": `198.51.100.${100 + index}` },
      }).then(async (response) => ({
        status: response.status,
        code: ((await response.json()) as { error: { code: string } }).error.code,
      }));
    // Fourteen at once, each from its own address: the account's count is one row shared by
    // both processes, so exactly ten are judged and the rest wait.
    const answers = await Promise.all(Array.from({ length: 14 }, (_, index) => attempt(index)));
    expect(answers.filter((answer) => answer.code === "invalid_credentials")).toHaveLength(10);
    expect(answers.filter((answer) => answer.code === "account_throttled")).toHaveLength(4);
  });

  it("rotates one refresh token once across both processes, and a later reuse revokes its family", async () => {
    const email = `refresh-${Date.now()}@example.com`;
    const headers = { "x-forwarded-for": "198.51.100.80" };
    const password = "a passphrase for the app";
    expect((await post("/api/auth/signup", { json: { email, password }, headers })).status).toBe(
      201,
    );
    const signedIn = await post("/api/auth/token", {
      json: { email, password, refresh: true },
      headers,
    });
    const { refresh_token: first } = (await signedIn.json()) as { refresh_token: string };
    const refresh = (token: string) =>
      post("/api/auth/token/refresh", { json: { refresh_token: token }, headers }).then(
        async (response) => ({
          status: response.status,
          body: (await response.json()) as { refresh_token?: string },
        }),
      );
    // Ten at once, landing on both processes: one rotation, and every one of them gets its
    // successor (the rest within the grace).
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(first)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const successors = new Set(answers.map((answer) => answer.body.refresh_token));
    expect(successors.size).toBe(1);
    const [second] = [...successors] as [string];
    const third = await refresh(second);
    expect(third.status).toBe(200);
    // Past the grace, the first token again: the family ends, the live token with it.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect((await refresh(first)).status).toBe(401);
    expect((await refresh(third.body.refresh_token!)).status).toBe(401);
  }, 30_000);

  it("lets one of two simultaneous updates with one lock_version through", async () => {
    const email = `lock-${Date.now()}@example.com`;
    const headers = { "x-forwarded-for": "198.51.100.60" };
    await post("/api/auth/signup", { json: { email, password: "password123" }, headers });
    const token = (await (
      await post("/api/auth/token", { json: { email, password: "password123" }, headers })
    ).json()) as { token: string };
    const authorization = { authorization: `Bearer ${token.token}` };
    const created = await post("/api/posts", {
      json: { title: "Draft", published: false, status: "draft" },
      headers: authorization,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const update = (title: string) =>
      fetch(`${cluster.url}/api/posts/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", ...authorization },
        body: JSON.stringify({ title, lock_version: 0 }),
      });
    const answers = await Promise.all([update("First"), update("Second")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const rows = await cluster.schema.database.all<{ lock_version: number }>(
      "SELECT lock_version FROM posts WHERE id = ?",
      [id],
    );
    expect(rows).toEqual([{ lock_version: 1 }]);
  });
});
