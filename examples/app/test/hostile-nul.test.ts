// A NUL character (`\u0000`) sent to every route of the running app that takes text. PostgreSQL
// cannot store one in a text column or a jsonb value, SQLite can; the answer must not depend
// on the engine. Text and json values holding one are refused with a 400 naming the field
// (HTML forms: the form again, as for a lone surrogate), lookups by such text find nothing,
// and nothing is written. This suite also runs on PostgreSQL (vitest.workspace.ts).
import { createHmac } from "node:crypto";
import { connect } from "node:net";
import { MemoryMailer } from "@tessera/mail";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { Browser, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const PREFIX = "Failed to deserialize the JSON body into the target type: ";
const NUL = "\u0000";
const ORDERS_SECRET = "orders-secret-for-nul-tests";
const GITHUB_SECRET = "github-secret-for-nul-tests";
const STRIPE_SECRET = "whsec_stripe_nul_secret";
const BILLING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RENDER_SECRET = "render-secret-for-nul-tests";
const SUBMITTED = { status: 202, body: '{"id":"ext-1"}' };

const mailer = new MemoryMailer();
let service: RecordingService;
let server: TestServer;
let token: string;

beforeAll(async () => {
  service = await startRecordingService(SUBMITTED);
  server = await startTestServer(
    {
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      RENDER_URL: service.url,
      RENDER_SECRET,
      ORDERS_WEBHOOK_SECRET: ORDERS_SECRET,
      GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
      STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
      BILLING_WEBHOOK_SECRET: BILLING_SECRET,
    },
    { mailer },
  );
  token = (await signUpForToken()).token;
});
afterAll(async () => {
  await server?.stop();
  await service?.close();
});

/** The 400 reason of a text or json value holding a NUL, for the field `key`. */
const nulReason = (key: string) => `${key}: invalid value: NUL character in string`;
const nulRefusal = (key: string) => ({
  status: 400,
  body: { error: { code: "bad_request", message: `${PREFIX}${nulReason(key)}`, status: 400 } },
});

let accounts = 0;
const newEmail = (label: string) => `nul.${label}.${Date.now()}.${++accounts}@example.com`;
const PASSWORD = "correct horse battery";

/** Sends JSON text as it is (so it can hold escapes JSON.stringify would not choose). */
async function sendJson(method: string, path: string, text: string, bearer?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": newClientAddress(),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: text,
  });
  const body = response.status === 204 ? null : await response.json();
  return { status: response.status, body };
}

async function signUpForToken(): Promise<{ email: string; token: string }> {
  const email = newEmail("owner");
  const credentials = JSON.stringify({ email, password: PASSWORD });
  expect((await sendJson("POST", "/api/auth/signup", credentials)).status).toBe(201);
  const issued = await sendJson("POST", "/api/auth/token", credentials);
  expect(issued.status).toBe(200);
  return { email, token: issued.body.token };
}

/**
 * Row counts of every table a refused request could have written to. Rate limit counters are
 * left out: a route counts the client's attempt before it reads the body, as it must.
 */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = [
    "users",
    "api_keys",
    "auth_tokens",
    "posts",
    "post_photo",
    "comments",
    "labels",
    "reactions",
    "notes",
    "render_jobs",
    "webhook_events",
    "paid_orders",
    "webhook_receipts",
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await server.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
    counts[table] = Number(row!.n);
  }
  return counts;
}

/** Runs `refuse` and checks that no table gained or lost a row meanwhile. */
async function writesNothing(refuse: () => Promise<void>): Promise<void> {
  const before = await rowCounts();
  await refuse();
  expect(await rowCounts()).toEqual(before);
}

describe("JSON record bodies", () => {
  const post = (fields: string) => `{"title":"T","status":"draft",${fields}}`;

  it.each([
    ["string", "title", '{"title":"a\\u0000b","status":"draft"}'],
    ["rich_text", "body", post('"body":"<p>a\\u0000</p>"')],
    ["decimal", "price", post('"price":"1\\u0000"')],
    ["uuid", "external_ref", post('"external_ref":"\\u0000"')],
    ["enum", "status", '{"title":"T","status":"draft\\u0000"}'],
    ["date", "publish_on", post('"publish_on":"2024-01-01\\u0000"')],
    ["unique string", "slug", post('"slug":"s\\u0000"')],
    ["json string", "metadata", post('"metadata":"\\u0000"')],
    ["json object key", "metadata", post('"metadata":{"k\\u0000":1}')],
    ["json key nested deep", "metadata", post('"metadata":[{"a":[[{"b":{"\\u0000":true}}]]}]')],
    ["json value in a list", "metadata", post('"metadata":{"tags":["ok","x\\u0000"]}')],
  ])("refuse NUL in a %s (%s) of POST /api/posts with a 400", async (_, key, body) => {
    await writesNothing(async () => {
      expect(await sendJson("POST", "/api/posts", body, token)).toEqual(nulRefusal(key));
    });
  });

  it("refuse a lone surrogate in a json value as well: PostgreSQL's jsonb cannot hold one either", async () => {
    await writesNothing(async () => {
      expect(
        await sendJson("POST", "/api/posts", post('"metadata":{"k":"\\ud800"}'), token),
      ).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: `${PREFIX}metadata: invalid value: lone surrogate in string`,
            status: 400,
          },
        },
      });
    });
  });

  it("refuse NUL in PATCH /api/posts/{id} and leave the record as it was", async () => {
    const created = await sendJson("POST", "/api/posts", post('"metadata":{"k":"v"}'), token);
    expect(created.status).toBe(201);
    const path = `/api/posts/${created.body.id}`;
    await writesNothing(async () => {
      expect(await sendJson("PATCH", path, '{"title":"\\u0000"}', token)).toEqual(
        nulRefusal("title"),
      );
      expect(await sendJson("PATCH", path, '{"metadata":{"\\u0000":0}}', token)).toEqual(
        nulRefusal("metadata"),
      );
    });
    const shown = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await shown.json()).toMatchObject({ title: "T", metadata: { k: "v" } });
  });

  it("refuse NUL in the other models: text, a public-id model, an enum of a polymorphic pair, notes", async () => {
    const created = await sendJson("POST", "/api/posts", post('"slug":null'), token);
    await writesNothing(async () => {
      expect(
        await sendJson(
          "POST",
          "/api/comments",
          `{"post_id":${created.body.id},"body":"\\u0000"}`,
          token,
        ),
      ).toEqual(nulRefusal("body"));
      expect(await sendJson("POST", "/api/labels", '{"name":"n\\u0000"}', token)).toEqual(
        nulRefusal("name"),
      );
      expect(
        await sendJson(
          "POST",
          "/api/reactions",
          `{"target_type":"post\\u0000","target_id":${created.body.id},"kind":"like"}`,
          token,
        ),
      ).toEqual(nulRefusal("target_type"));
      expect(
        await sendJson(
          "POST",
          "/api/notes",
          '{"title":"t","pinned":false,"tags":["\\u0000"]}',
          token,
        ),
      ).toEqual(nulRefusal("tags"));
    });
  });
});

describe("uploads", () => {
  it("keep a filename without its NUL, and refuse a content type holding one as unsupported", async () => {
    const created = await sendJson("POST", "/api/posts", '{"title":"T","status":"draft"}', token);
    const upload = async (name: string, type: string) => {
      const form = new FormData();
      form.append("file", new Blob(["bytes"], { type }), name);
      const response = await fetch(`${server.url}/api/posts/${created.body.id}/photos`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: response.status, body: await response.json() };
    };
    const kept = await upload(`a${NUL}b.txt`, "text/plain");
    expect(kept.status).toBe(201);
    expect(kept.body.photo_filename).toBe("ab.txt");
    await writesNothing(async () => {
      const refused = await upload("c.txt", `text/plain${NUL}`);
      expect(refused.status).toBe(422);
      expect(refused.body.error.fields).toEqual({
        photos: [expect.stringMatching(/^has an unsupported type/)],
      });
    });
  });
});

describe("HTML record forms", () => {
  async function signedInBrowser(): Promise<Browser> {
    const browser = new Browser(server.url);
    const signup = await browser.post("/signup", { email: newEmail("form"), password: PASSWORD });
    expect(signup.status).toBe(303);
    return browser;
  }

  it("show the form again with `is invalid` for NUL in a text value, as for a lone surrogate", async () => {
    const browser = await signedInBrowser();
    await writesNothing(async () => {
      const page = await browser.post("/posts", { title: `a${NUL}b`, status: "draft" });
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain("Title is invalid");
      const rich = await browser.post("/posts", {
        title: "ok",
        status: "draft",
        body: `<p>${NUL}</p>`,
      });
      expect(rich.status).toBe(422);
      expect(pageText(rich.html)).toContain("Body is invalid");
    });
  });

  it("answer `is not valid JSON` for a json value holding NUL, and keep an edited record", async () => {
    const browser = await signedInBrowser();
    await writesNothing(async () => {
      const page = await browser.post("/posts", {
        title: "ok",
        status: "draft",
        metadata: '{"a\\u0000":1}',
      });
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain("Metadata is not valid JSON");
    });
    const created = await browser.post("/posts", { title: "kept", status: "draft" });
    expect(created.status).toBe(303);
    const id = Number(created.location?.split("/").pop());
    const edited = await browser.post(`/posts/${id}`, { title: `x${NUL}`, status: "draft" });
    expect(edited.status).toBe(422);
    expect(pageText(edited.html)).toContain("Title is invalid");
    expect(await server.query("SELECT title FROM posts WHERE id = ?", id)).toEqual([
      { title: "kept" },
    ]);
  });

  it("refuse NUL in a text value of a multipart form (a form with a file input)", async () => {
    const browser = await signedInBrowser();
    const form = new FormData();
    form.set("title", `t${NUL}`);
    form.set("status", "draft");
    const encoded = new Response(form);
    const body = await encoded.text();
    await writesNothing(async () => {
      const refused = await fetch(`${server.url}/posts`, {
        method: "POST",
        headers: {
          "content-type": encoded.headers.get("content-type")!,
          "x-forwarded-for": browser.clientAddress,
          "sec-fetch-site": "same-origin",
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        },
        body,
      });
      expect(refused.status).toBe(422);
      expect(pageText(await refused.text())).toContain("Title is invalid");
    });
  });
});

describe("GraphQL inputs", () => {
  async function graphql(query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: await response.json() };
  }
  const badInput = (field: string, path: string) => ({
    status: 200,
    body: {
      data: null,
      errors: [
        {
          message: nulReason(field),
          locations: expect.any(Array),
          path: [path],
          extensions: { code: "bad_request", status: 400 },
        },
      ],
    },
  });

  it("refuse NUL in a variable, in a string literal of the document and in a JSON key", async () => {
    const create = "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id } }";
    await writesNothing(async () => {
      expect(await graphql(create, { input: { title: `a${NUL}`, pinned: false } })).toEqual(
        badInput("title", "createNote"),
      );
      expect(
        await graphql(
          'mutation { createNote(input: { title: "a\\u0000", pinned: false }) { id } }',
        ),
      ).toEqual(badInput("title", "createNote"));
      expect(
        await graphql(create, { input: { title: "t", pinned: false, tags: { [`k${NUL}`]: 1 } } }),
      ).toEqual(badInput("tags", "createNote"));
    });
  });

  it("find no note for an id holding NUL", async () => {
    expect(await graphql('query { note(id: "1\\u0000") { id } }')).toEqual({
      status: 200,
      body: { data: { note: null } },
    });
  });

  it("refuse NUL in an update and leave the note as it was", async () => {
    const created = await graphql(
      'mutation { createNote(input: { title: "kept", pinned: false }) { id } }',
    );
    const id = created.body.data.createNote.id as string;
    const update =
      "mutation ($id: ID!, $input: NoteUpdateInput!) { updateNote(id: $id, input: $input) { id } }";
    expect(await graphql(update, { id, input: { body: NUL } })).toEqual(
      badInput("body", "updateNote"),
    );
    expect(await server.query("SELECT title, body FROM notes WHERE id = ?", Number(id))).toEqual([
      { title: "kept", body: null },
    ]);
  });
});

describe("JSON account routes", () => {
  it("refuse NUL in the sign-up email and in the operator column `name` with a 400", async () => {
    await writesNothing(async () => {
      const email = newEmail("signup");
      expect(
        await sendJson(
          "POST",
          "/api/auth/signup",
          JSON.stringify({ email: `${NUL}${email}`, password: PASSWORD }),
        ),
      ).toEqual(nulRefusal("email"));
      expect(
        await sendJson(
          "POST",
          "/api/auth/signup",
          JSON.stringify({ email, password: PASSWORD, name: `Ada${NUL}` }),
        ),
      ).toEqual(nulRefusal("name"));
    });
  });

  it("refuse NUL in the token route's email with a 400; a NUL password is a wrong one (401)", async () => {
    const { email } = await signUpForToken();
    await writesNothing(async () => {
      expect(
        await sendJson(
          "POST",
          "/api/auth/token",
          JSON.stringify({ email: `${email}${NUL}`, password: PASSWORD }),
        ),
      ).toEqual(nulRefusal("email"));
      const wrong = await sendJson(
        "POST",
        "/api/auth/token",
        JSON.stringify({ email, password: `${NUL}${PASSWORD}` }),
      );
      expect(wrong).toEqual({
        status: 401,
        body: { error: { code: "invalid_credentials", message: "Unauthorized", status: 401 } },
      });
    });
  });

  it("take a password holding NUL: it is only hashed, never stored, on every engine alike", async () => {
    const email = newEmail("password");
    const credentials = JSON.stringify({ email, password: `pass${NUL}word` });
    expect((await sendJson("POST", "/api/auth/signup", credentials)).status).toBe(201);
    expect((await sendJson("POST", "/api/auth/token", credentials)).status).toBe(200);
  });

  it("refuse NUL in an API key's name with a 400 and create no key", async () => {
    await writesNothing(async () => {
      expect(
        await sendJson("POST", "/api/auth/keys", JSON.stringify({ name: `ci${NUL}` }), token),
      ).toEqual(nulRefusal("name"));
    });
  });

  it("answer a NUL account-deletion confirmation as a wrong password (403)", async () => {
    const owner = await signUpForToken();
    await writesNothing(async () => {
      expect(
        await sendJson("DELETE", "/api/auth/me", JSON.stringify({ password: NUL }), owner.token),
      ).toEqual({
        status: 403,
        body: {
          error: {
            code: "invalid_credentials",
            message: "The password is incorrect.",
            status: 403,
          },
        },
      });
    });
  });
});

describe("HTML account routes", () => {
  it("answer a sign-up email holding NUL with `Email is invalid`", async () => {
    const browser = new Browser(server.url);
    await writesNothing(async () => {
      const page = await browser.post("/signup", {
        email: `${newEmail("html")}${NUL}`,
        password: PASSWORD,
      });
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain("Email is invalid");
    });
  });

  it("answer a login email holding NUL as an unknown email: 422, `Invalid email or password.`", async () => {
    const { email } = await signUpForToken();
    const browser = new Browser(server.url);
    await writesNothing(async () => {
      const page = await browser.post("/login", { email: `${email}${NUL}`, password: PASSWORD });
      expect(page.status).toBe(422);
      expect(pageText(page.html)).toContain("Invalid email or password.");
    });
  });

  it.each([
    ["/magic_link", "If an account exists for that email, a sign-in link is on its way."],
    [
      "/passwords",
      "If an account exists for that email, a link to reset your password is on its way.",
    ],
  ])(
    "answer POST %s with an email holding NUL as for an unknown address, sending and counting nothing by it",
    async (path, notice) => {
      const { email } = await signUpForToken();
      const browser = new Browser(server.url);
      await server.deliverMail();
      const mails = mailer.sent.length;
      const tokens = (await rowCounts()).auth_tokens;
      const answer = await browser.post(path, { email: `${email}${NUL}` });
      expect(answer).toMatchObject({ status: 303, location: "/login" });
      expect(pageText((await browser.follow(answer)).html)).toContain(notice);
      await server.deliverMail();
      expect(mailer.sent.length).toBe(mails);
      expect(
        await server.query("SELECT key FROM rate_limit_counters WHERE key LIKE ?", `%${email}%`),
      ).toEqual([]);
      expect((await rowCounts()).auth_tokens).toBe(tokens);
    },
  );

  it("answer emailed-link tokens holding NUL as invalid links", async () => {
    const browser = new Browser(server.url);
    await writesNothing(async () => {
      expect(await browser.post("/magic_link/%00")).toMatchObject({
        status: 303,
        location: "/magic_link",
      });
      expect(await browser.post("/confirmations/a%00b")).toMatchObject({ status: 303 });
      expect(await browser.get("/passwords/%00")).toMatchObject({
        status: 303,
        location: "/passwords/new",
      });
    });
  });
});

describe("webhooks", () => {
  async function deliver(source: string, body: string, headers: Record<string, string>) {
    const response = await fetch(`${server.url}/webhooks/${source}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    return { status: response.status, body: await response.json() };
  }
  const idRefusal = {
    status: 400,
    body: {
      error: {
        code: "bad_request",
        message: `${PREFIX}invalid value for field \`id\`: NUL character in string`,
        status: 400,
      },
    },
  };

  it("refuse an event id holding NUL with a 400 and record no event", async () => {
    const body = JSON.stringify({ id: `evt${NUL}1`, type: "order.paid", data: {} });
    await writesNothing(async () => {
      expect(
        await deliver("orders", body, { "x-signature": signBody(body, ORDERS_SECRET) }),
      ).toEqual(idRefusal);
      const stripeBody = JSON.stringify({ id: NUL, type: "invoice.paid" });
      const now = Math.floor(Date.now() / 1000);
      const signature = createHmac("sha256", STRIPE_SECRET)
        .update(`${now}.${stripeBody}`)
        .digest("hex");
      expect(
        await deliver("stripe", stripeBody, { "stripe-signature": `t=${now},v1=${signature}` }),
      ).toEqual(idRefusal);
    });
  });

  it.each([
    ["billing", "webhook-id"],
    ["github", "x-github-delivery"],
  ])(
    "answer %s with a NUL in the %s header 400 before any route runs (HTTP forbids it)",
    async (source, header) => {
      const body = JSON.stringify({ type: "ping" });
      const signed =
        source === "billing"
          ? signStandardWebhook({ id: `a${NUL}b`, body, secret: BILLING_SECRET })
          : {
              "x-hub-signature-256": `sha256=${createHmac("sha256", GITHUB_SECRET).update(body).digest("hex")}`,
              "x-github-delivery": `a${NUL}b`,
            };
      expect((signed as Record<string, string>)[header]).toContain(NUL);
      await writesNothing(async () => {
        const status = await rawPost(`/webhooks/${source}`, signed, body);
        expect(status).toBe(400);
      });
    },
  );

  it("fail an order event whose order id holds NUL (500, event failed), on every engine alike", async () => {
    const id = `evt_nul_order_${Date.now()}`;
    const body = JSON.stringify({
      id,
      type: "order.paid",
      data: { order_id: `o${NUL}`, amount: 5 },
    });
    expect(await deliver("orders", body, { "x-signature": signBody(body, ORDERS_SECRET) })).toEqual(
      {
        status: 500,
        body: {
          error: { code: "effect_failed", message: "Webhook processing failed", status: 500 },
        },
      },
    );
    expect(
      await server.query("SELECT status, error FROM webhook_events WHERE event_id = ?", id),
    ).toEqual([
      {
        status: "failed",
        error: "order.paid event data.order_id is unusable text: NUL character in string",
      },
    ]);
    expect(await server.query("SELECT id FROM paid_orders WHERE event_id = ?", id)).toEqual([]);
  });

  it("record a receipt without the type when the event's type holds NUL", async () => {
    const id = `evt_nul_type_${Date.now()}`;
    const body = JSON.stringify({ id, type: `invoice${NUL}paid` });
    const now = Math.floor(Date.now() / 1000);
    const signature = createHmac("sha256", STRIPE_SECRET).update(`${now}.${body}`).digest("hex");
    expect(
      await deliver("stripe", body, { "stripe-signature": `t=${now},v1=${signature}` }),
    ).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect(
      await server.query("SELECT event_type FROM webhook_receipts WHERE event_id = ?", id),
    ).toEqual([{ event_type: null }]);
  });
});

/** A POST written on a socket, so a header can carry what fetch refuses to send: the status. */
function rawPost(path: string, headers: Record<string, string>, body: string): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (part: string) => {
      answer += part;
    });
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

describe("render jobs", () => {
  async function startJob(prompt: string) {
    return sendJson("POST", "/api/render_jobs", JSON.stringify({ prompt }), token);
  }
  function callbackPath(): string {
    const webhook = JSON.parse(service.requests.at(-1)!.body).webhook as string;
    const url = new URL(webhook);
    return url.pathname + url.search;
  }

  it("refuse NUL in a job input with a 400, submitting nothing", async () => {
    const submissions = service.requests.length;
    await writesNothing(async () => {
      expect(await startJob(`a ${NUL} fox`)).toEqual(nulRefusal("prompt"));
    });
    expect(service.requests.length).toBe(submissions);
  });

  it.each([
    ["error", { status: "failed", error: `out of ${NUL}memory` }],
    ["error", { status: "failed", error: { message: NUL } }],
    ["output", { status: "done", output: { [`url${NUL}`]: "x" } }],
    ["result", { status: "done", result: ["a", [`b${NUL}`]] }],
  ])(
    "refuse a callback whose %s holds NUL with a 400 and leave the job as it was",
    async (key, event) => {
      const started = await startJob("a calm sea");
      expect(started.status).toBe(201);
      const path = callbackPath();
      const answer = await sendJson("POST", path, JSON.stringify(event));
      expect(answer).toEqual(nulRefusal(key));
      expect(
        await server.query(
          "SELECT status, result, error FROM render_jobs WHERE id = ?",
          started.body.id,
        ),
      ).toEqual([{ status: "submitted", result: null, error: null }]);
    },
  );

  it("answer a status word holding NUL as an unknown status", async () => {
    const started = await startJob("a quiet hill");
    const answer = await sendJson("POST", callbackPath(), JSON.stringify({ status: `done${NUL}` }));
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(`unknown status done${NUL}`);
    expect(
      await server.query("SELECT status FROM render_jobs WHERE id = ?", started.body.id),
    ).toEqual([{ status: "submitted" }]);
  });

  it("keep no external id holding NUL, and store a refusal's text with U+FFFD for NUL", async () => {
    service.answer = { status: 202, body: '{"id":"ext\\u00001"}' };
    try {
      const accepted = await startJob("a dark wood");
      expect(accepted.status).toBe(201);
      expect(accepted.body).toMatchObject({ status: "submitted", external_id: null });
      service.answer = { status: 500, body: `farm${NUL}fire` };
      const refused = await startJob("a bright field");
      expect(refused.status).toBe(201);
      expect(refused.body).toMatchObject({
        status: "queued",
        error: "RENDER_URL answered 500: farm\uFFFDfire",
      });
    } finally {
      service.answer = SUBMITTED;
    }
  });
});

describe("query strings and path ids", () => {
  it.each([
    ["/api/posts?limit=%00", 400],
    ["/api/posts?after=1%00", 400],
    ["/api/posts/%00", 404],
    ["/api/posts/1%00", 404],
    ["/api/labels/%00abcdefghijklmnopqrstu", 404],
    ["/api/render_jobs/%00", 404],
    ["/api/render_jobs?offset=%00", 400],
  ])("answer GET %s with %i", async (path, status) => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(status);
  });

  it("answer DELETE of an API key or a record whose id holds NUL with 404, deleting nothing", async () => {
    await writesNothing(async () => {
      for (const path of ["/api/auth/keys/%00", "/api/posts/%00", "/api/labels/a%00"]) {
        const response = await fetch(`${server.url}${path}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(404);
      }
    });
  });
});
