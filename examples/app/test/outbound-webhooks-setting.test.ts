// OUTBOUND_WEBHOOKS: on by default; `off` leaves out users' webhook endpoints (routes and
// pages), the sender, and the events of record writes, which the app still serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { bearerTokenFor, callJsonApi } from "./support/json-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

describe("OUTBOUND_WEBHOOKS", () => {
  it("is on unless set to off, and refuses anything else", () => {
    expect(loadConfig({}).outboundWebhooks).toBe(true);
    expect(loadConfig({ OUTBOUND_WEBHOOKS: "on" }).outboundWebhooks).toBe(true);
    expect(loadConfig({ OUTBOUND_WEBHOOKS: "off" }).outboundWebhooks).toBe(false);
    expect(() => loadConfig({ OUTBOUND_WEBHOOKS: "no" })).toThrow(
      new ConfigError("OUTBOUND_WEBHOOKS is not valid: expected one of on, off"),
    );
  });
});

describe.each([
  ["on", true],
  ["off", false],
])("the app with OUTBOUND_WEBHOOKS=%s", (setting, on) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      OUTBOUND_WEBHOOKS: setting,
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    });
  });
  afterAll(() => server?.stop());

  const tokenFor = (name: string) =>
    bearerTokenFor(server.url, `${name}.${setting}@example.com`, { client: newClientAddress() });
  const messages = async () =>
    Number(
      (await server.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM webhook_messages'))[0]!.n,
    );

  it(`${on ? "serves" : "does not serve"} webhook endpoints, and creates notes either way`, async () => {
    const token = await tokenFor("subscriber");
    const endpoint = await callJsonApi(server.url, "POST", "/api/webhook_endpoints", token, {
      url: "http://127.0.0.1:9/in",
    });
    expect(endpoint.status).toBe(on ? 201 : 404);
    const listed = await callJsonApi(server.url, "GET", "/api/webhook_endpoints", token);
    expect(listed.status).toBe(on ? 200 : 404);

    const note = await callJsonApi(server.url, "POST", "/api/notes", token, { title: "Hello" });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ title: "Hello" });
    // The subscriber's note tells its endpoint, when there is one.
    expect(await messages()).toBe(on ? 1 : 0);
  });

  it("sends no event for a user with no endpoint, whose notes are written all the same", async () => {
    const token = await tokenFor("plain");
    const before = await messages();
    for (const title of ["One", "Two"]) {
      const note = await callJsonApi(server.url, "POST", "/api/notes", token, { title });
      expect(note.status).toBe(201);
    }
    const listed = await callJsonApi(server.url, "GET", "/api/notes", token);
    expect(listed.body.map((row: { title: string }) => row.title).sort()).toEqual(["One", "Two"]);
    expect(await messages()).toBe(before);
  });
});
