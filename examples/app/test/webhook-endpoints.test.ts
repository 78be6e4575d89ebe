// The bearer JSON routes of users' webhook endpoints: owner scoping, secrets shown only at
// creation and rotation, the SSRF guard's 422 on `url`, and bad input answered 400 or 422.
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiChecker } from "../../../test/support/openapi-responses.js";
import { appApiDocument } from "../src/openapi.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let ada: string;
let bob: string;

/** `hooks.test` resolves to 127.0.0.1, which is not allowed here: a name pointing inside. */
const resolveHost = async (host: string) =>
  host === "hooks.test" ? ["127.0.0.1"] : ["93.184.215.14"];

beforeAll(async () => {
  server = await startTestServer({ OUTBOUND_ALLOW_HOSTS: "allowed.test" }, { resolveHost });
  ada = await tokenFor("ada");
  bob = await tokenFor("bob");
});
afterAll(() => server.stop());

async function tokenFor(name: string): Promise<string> {
  const client = newClientAddress();
  const credentials = {
    email: `${name}.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  expect((await api("POST", "/api/auth/signup", { json: credentials, client })).status).toBe(201);
  const issued = await api("POST", "/api/auth/token", { json: credentials, client });
  return issued.body.token;
}

async function api(
  method: string,
  path: string,
  options: {
    json?: unknown;
    body?: string;
    token?: string;
    client?: string;
    language?: string;
  } = {},
) {
  const headers: Record<string, string> = {};
  if (options.json !== undefined || options.body !== undefined) {
    headers["content-type"] = "application/json";
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.language) headers["accept-language"] = options.language;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body ?? (options.json === undefined ? null : JSON.stringify(options.json)),
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  // Every answer is the one the OpenAPI document describes.
  const problems = documented.responseProblems(
    method,
    new URL(response.url).pathname,
    response.status,
    body,
  );
  // The document gives the English messages; a French answer differs in its words only.
  if (!path.startsWith("/api/auth/") && !options.language)
    expect({ method, path, problems }).toEqual({ method, path, problems: [] });
  return { status: response.status, headers: response.headers, body };
}

const documented = openApiChecker(JSON.parse(JSON.stringify(appApiDocument())));

const create = (json: unknown, token = ada) =>
  api("POST", "/api/webhook_endpoints", { json, token });

const refusedUrl = {
  error: {
    code: "validation_failed",
    message: "Validation failed",
    status: 422,
    fields: { url: ["is not allowed"] },
  },
};

describe("webhook endpoints over the JSON API", () => {
  it("creates an endpoint with its secret, which no read shows again", async () => {
    const created = await create({
      url: "https://receiver.example/in",
      events: ["note.created", "note.deleted"],
      description: "CRM",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(created.body).toMatchObject({
      url: "https://receiver.example/in",
      events: ["note.created", "note.deleted"],
      description: "CRM",
      enabled: true,
      disabled_at: null,
    });
    expect(created.body.id).toMatch(/^ep_/);
    expect(created.body.secret).toMatch(/^whsec_/);
    const listed = await api("GET", "/api/webhook_endpoints", { token: ada });
    expect(listed.status).toBe(200);
    expect(listed.body.map((endpoint: { id: string }) => endpoint.id)).toContain(created.body.id);
    const shown = await api("GET", `/api/webhook_endpoints/${created.body.id}`, { token: ada });
    for (const answer of [JSON.stringify(listed.body), JSON.stringify(shown.body)]) {
      expect(answer).not.toContain("whsec_");
      expect(answer).not.toContain("secret");
    }
    // At rest it is sealed: the database holds no whsec_ either.
    const rows = await server.query<{ secret: string }>(
      "SELECT secret FROM webhook_endpoints WHERE id = ?",
      created.body.id,
    );
    expect(rows[0]!.secret).not.toContain(created.body.secret.slice(6));
  });

  it("keeps each user to their own endpoints: another's is a 404 on every route", async () => {
    const created = await create({ url: "https://receiver.example/ada" });
    const id = created.body.id;
    expect((await api("GET", "/api/webhook_endpoints", { token: bob })).body).toEqual([]);
    const paths: [string, string, unknown?][] = [
      ["GET", `/api/webhook_endpoints/${id}`],
      ["PATCH", `/api/webhook_endpoints/${id}`, { description: "mine now" }],
      ["POST", `/api/webhook_endpoints/${id}/rotate_secret`],
      ["GET", `/api/webhook_endpoints/${id}/attempts`],
      ["DELETE", `/api/webhook_endpoints/${id}`],
    ];
    for (const [method, path, json] of paths) {
      const answer = await api(method, path, { token: bob, ...(json ? { json } : {}) });
      expect({ method, path, status: answer.status, code: answer.body?.error?.code }).toEqual({
        method,
        path,
        status: 404,
        code: "not_found",
      });
    }
    const still = await api("GET", `/api/webhook_endpoints/${id}`, { token: ada });
    expect(still.body.description).toBe("");
  });

  it("asks for a bearer token", async () => {
    const answer = await api("GET", "/api/webhook_endpoints");
    expect(answer.status).toBe(401);
    expect((await create({ url: "https://receiver.example/" }, "")).status).toBe(401);
  });

  it("changes, disables, rotates and deletes an endpoint", async () => {
    const { body: endpoint } = await create({ url: "https://receiver.example/change" });
    const path = `/api/webhook_endpoints/${endpoint.id}`;
    const changed = await api("PATCH", path, {
      token: ada,
      json: { url: "https://other.example/x", events: ["note.updated"], enabled: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: "https://other.example/x",
      events: ["note.updated"],
      enabled: false,
    });
    expect(changed.body.disabled_at).toEqual(expect.any(String));
    const rotated = await api("POST", `${path}/rotate_secret`, { token: ada });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(rotated.body)).toEqual(["secret"]);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect((await api("DELETE", path, { token: ada })).status).toBe(204);
    expect((await api("GET", path, { token: ada })).status).toBe(404);
  });

  it("refuses every URL the SSRF guard refuses with a 422 on url", async () => {
    const carol = await tokenFor("carol");
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://0x7f.1/",
      "http://[::ffff:10.0.0.1]/",
      "http://[::127.0.0.1]/",
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.5/",
      "http://localhost:3000/",
      "http://hooks.test/in",
      "ftp://receiver.example/",
      "not a url",
    ]) {
      const answer = await create({ url }, carol);
      expect({ url, status: answer.status, body: answer.body }).toEqual({
        url,
        status: 422,
        body: refusedUrl,
      });
    }
    const changed = await create({ url: "https://receiver.example/later" }, carol);
    const patched = await api("PATCH", `/api/webhook_endpoints/${changed.body.id}`, {
      token: carol,
      json: { url: "http://192.168.1.1/" },
    });
    expect(patched).toMatchObject({ status: 422, body: refusedUrl });
  });

  it("refuses a URL the parser would repair, or with a user name or password, as not plain", async () => {
    const gail = await tokenFor("gail");
    for (const url of [
      "http://:@8.8.8.8/",
      "https://user:pass@receiver.example/",
      "http:/8.8.8.8",
      "http:8.8.8.8",
      "http:\\\\8.8.8.8",
      "http://8.8.\t8.8/",
    ]) {
      const answer = await create({ url }, gail);
      expect({ url, status: answer.status, fields: answer.body.error.fields }).toEqual({
        url,
        status: 422,
        fields: {
          url: ["must be written as http(s)://host/path, with no user name or password"],
        },
      });
    }
    expect((await api("GET", "/api/webhook_endpoints", { token: gail })).body).toEqual([]);
    const french = await api("POST", "/api/webhook_endpoints", {
      token: gail,
      language: "fr",
      json: { url: "http:/8.8.8.8" },
    });
    expect(french.body.error.fields).toEqual({
      url: ["doit s'écrire http(s)://hôte/chemin, sans nom d'utilisateur ni mot de passe"],
    });
  });

  it("refuses a 21st endpoint with a 409 endpoint_limit_reached, until one is removed", async () => {
    const hana = await tokenFor("hana");
    const ids: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const created = await create({ url: `https://receiver.example/${n}` }, hana);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const refused = await create({ url: "https://receiver.example/21" }, hana);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: {
          code: "endpoint_limit_reached",
          message: "You have 20 webhook endpoints, the most allowed: remove one to add another.",
          status: 409,
        },
      },
    });
    const french = await api("POST", "/api/webhook_endpoints", {
      token: hana,
      language: "fr",
      json: { url: "https://receiver.example/21" },
    });
    expect(french.body.error.message).toBe(
      "Vous avez 20 points d'accès webhook, le maximum autorisé : supprimez-en un pour en ajouter un autre.",
    );
    const rows = await server.query<{ count: number }>(
      "SELECT COUNT(*) AS count FROM webhook_endpoints WHERE url = ?",
      "https://receiver.example/21",
    );
    expect(Number(rows[0]!.count)).toBe(0);
    // Another user is not counted, and a removed endpoint makes room.
    expect((await create({ url: "https://receiver.example/21" }, bob)).status).toBe(201);
    expect((await api("DELETE", `/api/webhook_endpoints/${ids[0]}`, { token: hana })).status).toBe(
      204,
    );
    expect((await create({ url: "https://receiver.example/21" }, hana)).status).toBe(201);
  });

  it("takes a wildcard that covers one of the app's events, and lists it as given", async () => {
    const answer = await create({ url: "https://receiver.example/all-notes", events: ["note.*"] });
    expect(answer.status).toBe(201);
    expect(answer.body.events).toEqual(["note.*"]);
  });

  it("takes a host OUTBOUND_ALLOW_HOSTS names although it resolves inside", async () => {
    const answer = await create({ url: "http://allowed.test:8080/in" });
    expect(answer.status).toBe(201);
  });

  it("answers bad input with a clear 400 or 422, never a 500", async () => {
    const dave = await tokenFor("dave");
    const cases: [unknown, number, string | Record<string, string[]>][] = [
      [{ url: 42 }, 400, "url must be a string."],
      [
        { url: "https://receiver.example/", description: ["x"] },
        400,
        "description must be a string.",
      ],
      [
        { url: "https://receiver.example/", events: "note.created" },
        400,
        "events must be a list of event names.",
      ],
      [
        { url: "https://receiver.example/", events: [1] },
        400,
        "events must be a list of event names.",
      ],
      [{ url: "https://receiver.example/\u0000" }, 400, "url must not contain NUL characters."],
      [
        { url: "https://receiver.example/", description: "a\u0000b" },
        400,
        "description must not contain NUL characters.",
      ],
      [{ url: "https://receiver.example/", owner_id: 1 }, 400, "Unknown field owner_id."],
      [{ url: "https://receiver.example/", enabled: false }, 400, "Unknown field enabled."],
      [
        { url: "https://receiver.example/", events: ["note.exploded"] },
        422,
        { events: ["is not an event this app sends"] },
      ],
      [
        { url: "https://receiver.example/", events: ["order.*"] },
        422,
        { events: ["is not an event this app sends"] },
      ],
      [
        { url: "https://receiver.example/", events: ["*.created"] },
        422,
        { events: ["is not an event this app sends"] },
      ],
      [{}, 422, { url: ["can't be blank"] }],
      [
        { url: "https://receiver.example/", description: "x".repeat(1001) },
        422,
        { description: ["is too long (maximum is 1000 characters)"] },
      ],
    ];
    for (const [json, status, expected] of cases) {
      const answer = await create(json, dave);
      const got = answer.status === 422 ? answer.body.error.fields : answer.body.error.message;
      expect({ json, status: answer.status, got }).toEqual({ json, status, got: expected });
    }
    const array = await api("POST", "/api/webhook_endpoints", { token: dave, body: "[]" });
    expect(array.status).toBe(400);
    const oversized = await api("POST", "/api/webhook_endpoints", {
      token: dave,
      json: { url: `https://receiver.example/${"a".repeat(20_000)}` },
    });
    expect(oversized.status).toBe(400);
    expect(oversized.body.error.message).toBe(
      "Failed to deserialize the JSON body into the target type: the body is larger than 16384 bytes",
    );
  });

  it("answers in French to a French client", async () => {
    const fred = await tokenFor("fred");
    const answer = await api("POST", "/api/webhook_endpoints", {
      token: fred,
      language: "fr",
      json: { url: "http://10.0.0.1/", events: [] },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.fields).toEqual({ url: ["n'est pas autorisée"] });
    const typed = await api("POST", "/api/webhook_endpoints", {
      token: fred,
      language: "fr",
      json: { url: 1 },
    });
    expect(typed.body.error.message).toBe("url doit être une chaîne de caractères.");
  });

  it("limits a user's changes to 30 a minute, without counting another user's", async () => {
    const erin = await tokenFor("erin");
    // The counter's windows start on the clock's minute: all 31 changes go in one.
    await awaitWindowRoom(10_000);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      statuses.push(
        (await api("DELETE", "/api/webhook_endpoints/ep_none", { token: erin })).status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    const refused = await fetch(`${server.url}/api/webhook_endpoints/ep_none`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${erin}` },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await api("DELETE", "/api/webhook_endpoints/ep_none", { token: bob })).status).toBe(
      404,
    );
    // Reads are not counted.
    expect((await api("GET", "/api/webhook_endpoints", { token: erin })).status).toBe(200);
  });

  it("replays only the user's own messages", async () => {
    const missing = await api("POST", "/api/webhook_messages/msg_nothing/replay", { token: bob });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({
      code: "not_found",
      message: "No such webhook message.",
      status: 404,
    });
  });
});
