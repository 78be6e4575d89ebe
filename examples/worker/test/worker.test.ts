// The Worker example over HTTP, started as `npm run dev` starts it (workerd through miniflare,
// D1 and R2 kept in the folder of DATABASE_PATH): the JSON service's flows, checked by status,
// body and D1 row, as the Node app's suites check them. The dev server takes the client's
// address from the socket, as Cloudflare does, so each client is a loopback address of its own.
import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashPassword } from "@tessera/password";
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { appMigrations } from "../../app/src/migrations.js";
import { appApiDocument } from "../../app/src/openapi.js";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess, writeD1 } from "./worker-process.js";

const SECRETS = {
  ORDERS_WEBHOOK_SECRET: "orders-secret-for-tests",
  GITHUB_WEBHOOK_SECRET: "It's a Secret to Everybody",
  STRIPE_WEBHOOK_SECRET: "whsec_stripe_test_secret",
  BILLING_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  RENDER_SECRET: "render-shared-secret",
};
const PASSWORD = "correct horse battery staple";

const folder = mkdtempSync(join(tmpdir(), "tessera-worker-test-"));
const databasePath = join(folder, "app.db");
const rows = () => d1Rows(databasePath);

/** The remote render service: records each submission and answers as told. */
let renderService: RecordingService;
/** A user's webhook receiver on 127.0.0.1, which OUTBOUND_ALLOW_HOSTS lets the Worker reach. */
let webhookReceiver: RecordingService;
let worker: WorkerProcess;
let clients = 0;
/** The job the render service refused as the file started: see {@link submitRefusedJob}. */
let refusedJob: Awaited<ReturnType<typeof submitRefusedJob>>;

beforeAll(async () => {
  renderService = await startRecordingService({ status: 202, body: '{"id":"ext-1"}' });
  webhookReceiver = await startRecordingService({ status: 204, body: "" });
  worker = await startWorker({
    ...SECRETS,
    DATABASE_PATH: databasePath,
    MAIL_ADAPTER: "log",
    APP_URL: "https://app.example",
    RENDER_URL: renderService.url,
    SWEEP_INTERVAL_SECONDS: "2",
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
  });
  refusedJob = await submitRefusedJob();
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  await renderService.close();
  await webhookReceiver.close();
  rmSync(folder, { recursive: true, force: true });
});

/**
 * A loopback address of its own per caller (127.0.0.2 on), so rate limits of one test never
 * touch another's.
 */
const newClient = () => {
  const client = ++clients;
  return `127.0.${Math.floor(client / 250)}.${(client % 250) + 2}`;
};

async function call(
  path: string,
  options: {
    method?: string;
    token?: string;
    json?: unknown;
    body?: BodyInit;
    client?: string;
    headers?: Record<string, string>;
  },
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  return fetchFrom(options.client ?? newClient(), `${worker.url}${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function newUser() {
  const email = `ada.${Date.now()}.${++clients}@example.com`;
  const signup = await call("/api/auth/signup", { json: { email, password: PASSWORD } });
  expect(signup.status).toBe(201);
  const token = await call("/api/auth/token", { json: { email, password: PASSWORD } });
  return { email, token: ((await token.json()) as { token: string }).token };
}

/**
 * Submits a job while the render service refuses it, then lets the service accept again. The
 * cron trigger retries the job once its attempt is a minute old (real clock): made as the file
 * starts, with the test that waits for the retry last in the file, the file's other tests run
 * during that minute instead of before it.
 */
async function submitRefusedJob() {
  const { token } = await newUser();
  renderService.answer = { status: 500, body: "render farm on fire" };
  const created = await call("/api/render_jobs", { token, json: { prompt: "a green frog" } });
  const job = (await created.json()) as { id: number; status: string; error: string };
  renderService.answer = { status: 202, body: '{"id":"ext-2"}' };
  return { token, job };
}

describe("the Worker on D1", () => {
  it("has applied every migration of the app at its first request", async () => {
    expect((await call("/api/health", {})).status).toBe(200);
    const applied = rows()<{ id: string }>("SELECT id FROM schema_migrations ORDER BY id");
    expect(applied.map((row) => row.id)).toEqual(
      appMigrations.map((migration) => migration.id).sort(),
    );
  });
});

describe("GET /api/openapi.json", () => {
  it("serves the app's OpenAPI document, as the Node app does, of the routes it mounts", async () => {
    const response = await fetch(`${worker.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    type Document = { paths: Record<string, Record<string, unknown>>; components: unknown };
    const served = (await response.json()) as Document;
    const whole = JSON.parse(JSON.stringify(appApiDocument())) as Document;
    expect(served.components).toEqual(whole.components);
    for (const [template, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation).toEqual(whole.paths[template]?.[method]);
      }
    }
    expect(Object.keys(served.paths)).toEqual(
      expect.arrayContaining(["/api/posts/{id}", "/api/auth/token", "/api/health"]),
    );
  });
});

describe("JSON accounts", () => {
  it("signs up, refuses the same email in another case, issues a token and reads the user", async () => {
    const email = `grace.${Date.now()}@example.com`;
    const created = await call("/api/auth/signup", { json: { email, password: PASSWORD } });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: number; email: string };
    expect(user).toMatchObject({ email, name: null });
    expect(user).not.toHaveProperty("password_digest");
    const again = await call("/api/auth/signup", {
      json: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: { email: ["has already been taken"] },
      },
    });
    const issued = await call("/api/auth/token", { json: { email, password: PASSWORD } });
    const token = (await issued.json()) as {
      token: string;
      token_type: string;
      expires_in: number;
    };
    expect(token).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const me = await call("/api/auth/me", { token: token.token });
    expect(await me.json()).toMatchObject({ id: user.id, email });
    const stored = rows()<{ password_digest: string }>(
      "SELECT password_digest FROM users WHERE id = ?",
      user.id,
    );
    expect(stored[0]!.password_digest).toMatch(/^pbkdf2_sha256\$100000\$/);
  });

  it("creates an API key that authenticates, lists and revokes it, then deletes the account", async () => {
    const { email, token } = await newUser();
    const created = await call("/api/auth/keys", { token, json: { name: "ci" } });
    expect(created.status).toBe(201);
    const { key, api_key } = (await created.json()) as { key: string; api_key: { id: number } };
    expect((await (await call("/api/auth/me", { token: key })).json()) as object).toMatchObject({
      email,
    });
    const listed = (await (await call("/api/auth/keys", { token })).json()) as { id: number }[];
    expect(listed.map((entry) => entry.id)).toEqual([api_key.id]);
    const digests = rows()<{ token_digest: string }>(
      "SELECT * FROM api_keys WHERE id = ?",
      api_key.id,
    );
    expect(JSON.stringify(digests)).not.toContain(key);
    expect((await call(`/api/auth/keys/${api_key.id}`, { method: "DELETE", token })).status).toBe(
      204,
    );
    expect((await call("/api/auth/me", { token: key })).status).toBe(401);
    const wrong = await call("/api/auth/me", {
      method: "DELETE",
      token,
      json: { password: "nope" },
    });
    expect(wrong.status).toBe(403);
    const deleted = await call("/api/auth/me", {
      method: "DELETE",
      token,
      json: { password: PASSWORD },
    });
    expect(deleted.status).toBe(204);
    expect(rows()("SELECT id FROM users WHERE email = ?", email)).toEqual([]);
  });

  it("refuses the 11th sign-in attempt of a minute from one address, whatever address headers it sends", async () => {
    // The local binding counts in fixed windows that start on the clock's minute.
    await awaitWindowRoom(10_000);
    const client = newClient();
    const attempts = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      // Each attempt claims another address in every header a client could use to look new.
      // The Worker reads CF-Connecting-IP, which Cloudflare sets from the connection whatever
      // the client sent, and so does the dev server (src/edge-proxy.ts).
      const spoofed = `203.0.113.${attempt + 1}`;
      attempts.push(
        await call("/api/auth/token", {
          client,
          json: { email: "nobody@example.com", password: "wrong password" },
          headers: {
            "cf-connecting-ip": spoofed,
            "x-forwarded-for": spoofed,
            "true-client-ip": spoofed,
            "x-real-ip": spoofed,
          },
        }),
      );
    }
    expect(attempts.slice(0, 10).map((response) => response.status)).toEqual(Array(10).fill(401));
    const refused = attempts[10]!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    // The binding counted them: the D1 counters were never touched.
    expect(rows()("SELECT * FROM rate_limit_counters")).toEqual([]);
  }, 40_000);

  it("prints the password reset mail with its link (MAIL_ADAPTER=log)", async () => {
    const { email } = await newUser();
    const response = await fetchFrom(newClient(), `${worker.url}/passwords`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: worker.url,
      },
      body: new URLSearchParams({ email }),
    });
    expect(response.status).toBe(303);
    await expect.poll(() => worker.output(), { timeout: 5000 }).toContain(`To: ${email}`);
    expect(worker.output()).toMatch(/https:\/\/app\.example\/passwords\/[A-Za-z0-9_-]{43}/);
  });
});

describe("the posts API with attachments in R2", () => {
  it("creates a post, stores its cover in R2, serves it back (whole, in part, or not modified) and removes both", async () => {
    const { token } = await newUser();
    const created = await call("/api/posts", { token, json: { title: "Hello", status: "draft" } });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { id: number };
    const form = new FormData();
    form.append("file", new File(["cover bytes"], "cover.txt", { type: "text/plain" }));
    const uploaded = await call(`/api/posts/${post.id}/cover`, {
      method: "PUT",
      token,
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { cover_key } = (await uploaded.json()) as { cover_key: string };
    expect(rows()("SELECT cover_key FROM posts WHERE id = ?", post.id)).toEqual([{ cover_key }]);
    const download = await call(`/api/posts/${post.id}/cover`, { token });
    expect(download.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await download.text()).toBe("cover bytes");
    const etag = download.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(download.headers.get("accept-ranges")).toBe("bytes");
    const cover = (headers: Record<string, string>, method = "GET") =>
      call(`/api/posts/${post.id}/cover`, { token, headers, method });
    const part = await cover({ range: "bytes=6-" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 6-10/11");
    expect(await part.text()).toBe("bytes");
    const outside = await cover({ range: "bytes=11-" });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe("bytes */11");
    const fresh = await cover({ "if-none-match": etag });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("etag")).toBe(etag);
    const head = await cover({}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("11");
    expect(await head.text()).toBe("");
    expect((await call(`/api/posts/${post.id}`, { method: "DELETE", token })).status).toBe(204);
    expect(rows()("SELECT id FROM posts WHERE id = ?", post.id)).toEqual([]);
    expect((await call(`/api/posts/${post.id}/cover`, { token })).status).toBe(404);
  });
});

describe("the four webhook endpoints", () => {
  const deliver = async (source: string, body: string, headers: Record<string, string>) => {
    const response = await fetch(`${worker.url}/webhooks/${source}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  const receipts = (source: string, id: string) =>
    rows()("SELECT event_type FROM webhook_receipts WHERE source = ? AND event_id = ?", source, id);

  it("processes each signed event once and answers a repeat duplicate", async () => {
    const stamp = Date.now();
    const order = JSON.stringify({
      id: `evt_${stamp}`,
      type: "order.paid",
      data: { order_id: `order-${stamp}`, amount: 42.5 },
    });
    const github = JSON.stringify({ action: "opened", issue: { number: 1 } });
    const stripe = JSON.stringify({ id: `evt_s_${stamp}`, type: "invoice.paid" });
    const billing = JSON.stringify({ type: "subscription.renewed", data: { plan: "pro" } });
    const seconds = Math.floor(stamp / 1000);
    const deliveries: [string, string, Record<string, string>][] = [
      ["orders", order, { "x-signature": signBody(order, SECRETS.ORDERS_WEBHOOK_SECRET) }],
      [
        "github",
        github,
        {
          "x-github-event": "issues",
          "x-github-delivery": `delivery-${stamp}`,
          "x-hub-signature-256": `sha256=${createHmac("sha256", SECRETS.GITHUB_WEBHOOK_SECRET).update(github).digest("hex")}`,
        },
      ],
      [
        "stripe",
        stripe,
        {
          "stripe-signature": `t=${seconds},v1=${createHmac("sha256", SECRETS.STRIPE_WEBHOOK_SECRET).update(`${seconds}.${stripe}`).digest("hex")}`,
        },
      ],
      [
        "billing",
        billing,
        signStandardWebhook({
          id: `msg_${stamp}`,
          body: billing,
          secret: SECRETS.BILLING_WEBHOOK_SECRET,
        }),
      ],
    ];
    for (const [source, body, headers] of deliveries) {
      expect(await deliver(source, body, headers)).toEqual({
        status: 200,
        body: { status: "processed" },
      });
      expect(await deliver(source, body, headers)).toEqual({
        status: 200,
        body: { status: "duplicate" },
      });
      expect((await deliver(source, `${body} `, headers)).status).toBe(401);
    }
    expect(
      rows()("SELECT amount FROM paid_orders WHERE order_id = ?", `order-${stamp}`),
    ).toHaveLength(1);
    expect(receipts("github", `delivery-${stamp}`)).toEqual([{ event_type: "issues" }]);
    expect(receipts("stripe", `evt_s_${stamp}`)).toEqual([{ event_type: "invoice.paid" }]);
    expect(receipts("billing", `msg_${stamp}`)).toEqual([{ event_type: "subscription.renewed" }]);
  });
});

describe("outbound webhooks", () => {
  it("delivers a note's note.created to its owner's endpoint after the answer, signed with its secret", async () => {
    const { token } = await newUser();
    const added = await call("/api/webhook_endpoints", {
      token,
      json: { url: `${new URL(webhookReceiver.url).origin}/notes-hook` },
    });
    expect(added.status).toBe(201);
    const { secret } = (await added.json()) as { secret: string };
    const created = await call("/api/notes", { token, json: { title: "From the edge" } });
    expect(created.status).toBe(201);
    const note = (await created.json()) as { id: number };
    const deliveries = () =>
      webhookReceiver.requests.filter((request) => request.path === "/notes-hook");
    // Delivered through waitUntil after the answer (the cron trigger would retry it).
    await expect.poll(() => deliveries().length, { timeout: 15_000 }).toBe(1);
    const [delivery] = deliveries();
    const event = new Webhook(secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as { type: string; data: unknown };
    expect(event.type).toBe("note.created");
    expect(event.data).toEqual(note);
    // The attempt is logged once the answer is read: shortly after the receiver got it.
    const attempts = () =>
      rows()<{ status: string; response_status: number }>(
        "SELECT status, response_status FROM webhook_attempts WHERE message_id = ?",
        delivery!.headers["webhook-id"],
      );
    await expect.poll(attempts).toEqual([{ status: "succeeded", response_status: 204 }]);
  });
});

describe("organizations", () => {
  it("creates an organization whose projects its owner writes in D1 and a stranger cannot see", async () => {
    const owner = await newUser();
    const created = await call("/api/orgs", { token: owner.token, json: { name: "Edge team" } });
    expect(created.status).toBe(201);
    const { slug, id } = (await created.json()) as { slug: string; id: number };
    const projects = `/api/orgs/${slug}/projects`;
    const made = await call(projects, {
      token: owner.token,
      json: { name: "Roadmap", status: "active" },
    });
    expect(made.status).toBe(201);
    const project = (await made.json()) as { id: number; organization_id: number };
    expect(project.organization_id).toBe(id);
    const listed = await call(projects, { token: owner.token });
    expect(((await listed.json()) as Array<{ name: string }>).map((p) => p.name)).toEqual([
      "Roadmap",
    ]);
    expect(
      rows()<{ organization_id: number; name: string }>(
        "SELECT organization_id, name FROM projects WHERE id = ?",
        project.id,
      ),
    ).toEqual([{ organization_id: id, name: "Roadmap" }]);

    const stranger = await newUser();
    for (const path of [`/api/orgs/${slug}`, projects, `${projects}/${project.id}`]) {
      expect([path, (await call(path, { token: stranger.token })).status]).toEqual([path, 404]);
    }
    const deleted = await call(`/api/orgs/${slug}`, { token: owner.token, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(rows()("SELECT id FROM projects WHERE organization_id = ?", id)).toEqual([]);
  });

  it("takes an organization's key on its projects in D1, and nowhere else", async () => {
    const owner = await newUser();
    const created = await call("/api/orgs", { token: owner.token, json: { name: "Edge keys" } });
    const { slug } = (await created.json()) as { slug: string };
    const made = await call(`/api/orgs/${slug}/keys`, {
      token: owner.token,
      json: { name: "Edge bot", role: "member" },
    });
    expect(made.status).toBe(201);
    const { key, api_key } = (await made.json()) as { key: string; api_key: { id: number } };
    const projects = `/api/orgs/${slug}/projects`;
    const project = await call(projects, { token: key, json: { name: "Bot's", status: "active" } });
    expect(project.status).toBe(201);
    expect(((await project.json()) as { created_by: number | null }).created_by).toBeNull();
    expect((await call("/api/notes", { token: key })).status).toBe(401);
    expect((await call(`/api/orgs/${slug}/members`, { token: key })).status).toBe(401);
    const revoked = await call(`/api/orgs/${slug}/keys/${api_key.id}`, {
      token: owner.token,
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    expect((await call(projects, { token: key })).status).toBe(401);
  });
});

describe("render jobs", () => {
  it("submits a signed job and follows its callbacks to done", async () => {
    const { token } = await newUser();
    const created = await call("/api/render_jobs", {
      token,
      json: { prompt: "a red fox", width: 640 },
    });
    expect(created.status).toBe(201);
    const job = (await created.json()) as { id: number; status: string };
    expect(job.status).toBe("submitted");
    const submission = renderService.requests.at(-1)!;
    expect(submission.headers["x-signature"]).toBe(
      createHmac("sha256", SECRETS.RENDER_SECRET).update(submission.body).digest("hex"),
    );
    const callback = new URL(JSON.parse(submission.body).webhook as string);
    expect(callback.origin).toBe("https://app.example");
    const report = await fetch(`${worker.url}${callback.pathname}${callback.search}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "COMPLETED", output: { url: "https://cdn.example/fox.png" } }),
    });
    expect(report.status).toBe(200);
    const done = await call(`/api/render_jobs/${job.id}`, { token });
    expect(await done.json()).toMatchObject({
      status: "done",
      progress: 100,
      result: { url: "https://cdn.example/fox.png" },
    });
  });
});

// Two starts of one DATABASE_PATH, with the file edited between them as only a stopped Worker
// allows: the D1 the first start wrote is the second's, and so are digests left by a Django app.
describe("npm run dev with DATABASE_PATH, started twice", () => {
  const databasePath = join(folder, "restarted", "app.db");
  const environment = { DATABASE_PATH: databasePath, MAIL_ADAPTER: "log" };
  const stamp = Date.now();
  const emails = {
    kept: `kept.${stamp}@example.com`,
    django: `django.${stamp}@example.com`,
    beyond: `beyond.${stamp}@example.com`,
  };
  // As a Django app left them: 600,000 iterations (Django 4.2's default) and 1,200,000
  // (Django 6.0's, above the pure-JS budget of 800,000).
  let digests: { django: string; beyond: string };
  let firstOutput = "";
  let second: WorkerProcess;

  const signIn = (email: string, password: string) =>
    fetchFrom(newClient(), `${second.url}/api/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });

  beforeAll(async () => {
    const first = await startWorker(environment);
    try {
      for (const email of Object.values(emails)) {
        const signup = await fetchFrom(newClient(), `${first.url}/api/auth/signup`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        expect(signup.status).toBe(201);
      }
    } finally {
      firstOutput = first.output();
      await first.stop();
    }
    digests = {
      django: await hashPassword(PASSWORD, { iterations: 600_000 }),
      beyond: await hashPassword(PASSWORD, { iterations: 1_200_000 }),
    };
    for (const key of ["django", "beyond"] as const) {
      const changed = writeD1(
        databasePath,
        "UPDATE users SET password_digest = ? WHERE email = ?",
        digests[key],
        emails[key],
      );
      expect(changed).toBe(1);
    }
    second = await startWorker(environment);
  }, 150_000);

  afterAll(async () => {
    await second?.stop();
  });

  it("keeps D1 in DATABASE_PATH's folder: the second start signs in a user of the first", async () => {
    expect(firstOutput).toContain(`(D1 and R2 in ${join(folder, "restarted", "worker-state")})`);
    expect((await signIn(emails.kept, PASSWORD)).status).toBe(200);
  });

  // The dev server's WebCrypto refuses PBKDF2 above 100,000 iterations, as Cloudflare's does.
  it("signs in with a 600,000-iteration digest in pure JS, and refuses one above the budget as a wrong password, with a log line", async () => {
    const [beyondUser] = d1Rows(databasePath)<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      emails.beyond,
    );
    const granted = await signIn(emails.django, PASSWORD);
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ token_type: "Bearer" });
    // Kept as it is: a higher count than the Worker's 100,000 is never downgraded.
    expect(
      d1Rows(databasePath)("SELECT password_digest FROM users WHERE email = ?", emails.django),
    ).toEqual([{ password_digest: digests.django }]);
    const refused = await signIn(emails.beyond, PASSWORD);
    const wrong = await signIn(emails.beyond, "not the password");
    expect(refused.status).toBe(401);
    expect({ status: wrong.status, body: await wrong.json() }).toEqual({
      status: 401,
      body: await refused.json(),
    });
    expect(second.output()).toContain(
      `Cannot verify the password of user ${beyondUser!.id}: its digest has 1200000 iterations, above the 800000 this runtime verifies`,
    );
    expect(second.output()).not.toMatch(/iteration counts above 100000 are not supported/);
  }, 60_000);
});

describe("npm run dev", () => {
  it("keeps D1 without DATABASE_PATH in a folder of its own, removed when it stops", async () => {
    const started = await startWorker({});
    let state: string;
    try {
      const response = await fetchFrom(newClient(), `${started.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `fresh.${Date.now()}@example.com`, password: PASSWORD }),
      });
      expect(response.status).toBe(201);
      state = /D1 and R2 in ([^\s)]+)/.exec(started.output())![1]!;
      expect(state).toMatch(/[/\\]tessera-worker-[^/\\]+$/);
      expect(existsSync(state)).toBe(true);
    } finally {
      await started.stop();
    }
    // Its folder is gone: no later start can find what this one wrote.
    expect(existsSync(state)).toBe(false);
  }, 90_000);

  it("answers 500 naming the setting when SECRET_KEY_BASE is too short", async () => {
    const broken = await startWorker({ SECRET_KEY_BASE: "short" });
    try {
      const response = await fetch(`${broken.url}/api/health`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: {
          code: "internal_error",
          message:
            "Cannot start: SECRET_KEY_BASE is too short: it needs at least 32 characters (try: openssl rand -hex 64)",
          status: 500,
        },
      });
    } finally {
      await broken.stop();
    }
  }, 60_000);
});

// Last in the file: the minute this test waits for began when the file started.
describe("render jobs", () => {
  it("resubmits a refused job from the cron trigger once a minute has passed (real clock)", async () => {
    const { token, job } = refusedJob;
    expect(job).toMatchObject({
      status: "queued",
      error: "RENDER_URL answered 500: render farm on fire",
    });
    // The scheduled handler runs every 2 s here; a queued job is retried 60 s after its attempt.
    await expect
      .poll(
        async () =>
          (
            (await (await call(`/api/render_jobs/${job.id}`, { token })).json()) as {
              status: string;
            }
          ).status,
        { timeout: 75_000, interval: 1000 },
      )
      .toBe("submitted");
    // The same round runs every package's cleanup task and says what each deleted.
    expect(worker.output()).toMatch(
      /Scheduled: (mail \d+ sent, \d+ to retry, \d+ failed; )?webhooks \d+ sent, \d+ to retry, \d+ failed; 1 render jobs retried, \d+ failed; (\d+ expired tracked sessions, )?\d+ expired refresh tokens, \d+ ended rate limit windows, \d+ quiet failure streaks, \d+ old audit events, \d+ old webhook events, \d+ old outbox items, \d+ old webhook messages deleted\./,
    );
  }, 90_000);
});
