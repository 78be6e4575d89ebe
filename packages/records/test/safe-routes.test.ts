import { routeRequests } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { createSessionCookies, sessionAuthentication } from "@tessera/session";
import { describe, expect, it } from "vitest";
import { htmlRecordRoutes } from "../src/html.js";
import { jsonRecordRoutes, MemoryObjectStorage } from "../src/index.js";
import { ADA, labelModel, setUpApp } from "./fixtures.js";

const sessions = createSessionCookies({
  appName: "tessera",
  secrets: { current: "a test secret key base that is long enough to use" },
});
const users = new Map([[ADA, { id: ADA, email: "ada@example.com" }]]);

/** The label pages and API as a user mounts them: the routes alone, no middleware. */
async function mounted() {
  const app = await setUpApp();
  const options = {
    model: labelModel,
    store: new SqlRecordStore(app.database, labelModel),
    storage: new MemoryObjectStorage(),
  };
  const html = htmlRecordRoutes({
    ...options,
    layout: ({ mainHtml }) => mainHtml,
    sessions,
    authenticate: sessionAuthentication(async (id: number) => users.get(id)),
  });
  const json = jsonRecordRoutes({
    ...options,
    authenticate: async () => ({ ok: false, response: new Response("no", { status: 401 }) }),
  });
  return { app, handle: routeRequests([...html, ...json]) };
}

async function adaCookie(): Promise<string> {
  const session = await sessions.read(new Request("https://app.example/"));
  session.signIn(ADA);
  return (await sessions.setCookie(session))!.split(";")[0]!;
}

function labelForm(headers: Record<string, string>) {
  return new Request("https://app.example/labels", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ name: "urgent" }),
  });
}

describe("record routes mounted with no middleware", () => {
  it("refuse a cross-site form post with 403 and write nothing", async () => {
    const { app, handle } = await mounted();
    const cookie = await adaCookie();
    const forged = await handle(
      labelForm({ cookie, origin: "https://evil.example", host: "app.example" }),
    );
    expect(forged?.status).toBe(403);
    expect(forged?.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await app.rows("labels")).toEqual([]);
  });

  it("create from the same origin for the signed-in user", async () => {
    const { app, handle } = await mounted();
    const cookie = await adaCookie();
    const created = await handle(labelForm({ cookie, "sec-fetch-site": "same-origin" }));
    expect(created?.status).toBe(303);
    expect(await app.rows("labels")).toMatchObject([{ user_id: ADA, name: "urgent" }]);
  });

  it("send a visitor to sign in, remembering the page", async () => {
    const { handle } = await mounted();
    const response = await handle(new Request("https://app.example/labels?limit=5"));
    expect(response?.status).toBe(303);
    expect(response?.headers.get("location")).toBe("/login");
    const cookie = response?.headers.getSetCookie()[0]?.split(";")[0];
    const session = await sessions.read(
      new Request("https://app.example/login", { headers: { cookie: cookie! } }),
    );
    expect(session.takeRememberedPage()).toBe("/labels?limit=5");
  });

  it("answer a refused JSON request with the authenticate's refusal, touching no store", async () => {
    const { app, handle } = await mounted();
    const response = await handle(
      new Request("https://app.example/api/labels", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"name":"x"}',
      }),
    );
    expect(response?.status).toBe(401);
    expect(await app.rows("labels")).toEqual([]);
  });
});
