import { describe, expect, it } from "vitest";
import {
  createRouteMatcher,
  crossSiteCheck,
  crossSiteRefusalPage,
  httpMessages,
  type Route,
  routeRequests,
  withMiddleware,
} from "../src/index.js";

const echo =
  (name: string): Route["handle"] =>
  async (_request, context) =>
    Response.json({ name, params: context.params, clientAddress: context.clientAddress });

const routes: Route[] = [
  { method: "POST", path: "/account/sessions/:id/delete", handle: echo("one") },
  { method: "POST", path: "/account/sessions/others/delete", handle: echo("others") },
  { method: "GET", path: "/api/posts/:id/:name", handle: echo("attachment") },
  { method: "GET", path: "/", handle: echo("home") },
];

describe("createRouteMatcher", () => {
  const match = createRouteMatcher(routes);

  it("prefers the route with more static segments, whatever the order", () => {
    expect(match("POST", "/account/sessions/others/delete")?.params).toEqual({});
    expect(match("POST", "/account/sessions/7/delete")?.params).toEqual({ id: "7" });
  });

  it("decodes parameters and refuses a malformed escape", () => {
    expect(match("GET", "/api/posts/1/caf%C3%A9")?.params).toEqual({ id: "1", name: "café" });
    expect(match("GET", "/api/posts/1/%E0%A4%A")).toBeUndefined();
  });

  it("matches the method, the segment count and the root", () => {
    expect(match("GET", "/account/sessions/7/delete")).toBeUndefined();
    expect(match("GET", "/api/posts/1")).toBeUndefined();
    expect(match("GET", "/")?.route.path).toBe("/");
    expect(match("HEAD", "/")?.route.path).toBe("/");
  });
});

describe("routeRequests", () => {
  const handle = routeRequests(routes);

  it("answers with the matching route and its context", async () => {
    const response = await handle(
      new Request("http://app.test/account/sessions/others/delete", { method: "POST" }),
      { clientAddress: "192.0.2.1" },
    );
    expect(await response?.json()).toEqual({
      name: "others",
      params: {},
      clientAddress: "192.0.2.1",
    });
  });

  it("gives undefined when nothing matches, and unknown for a missing address", async () => {
    expect(await handle(new Request("http://app.test/nothing"))).toBeUndefined();
    const response = await handle(new Request("http://app.test/"));
    expect((await response!.json()).clientAddress).toBe("unknown");
  });

  it("answers HEAD with the GET route's status and headers and no body", async () => {
    const response = await handle(new Request("http://app.test/", { method: "HEAD" }));
    expect(response?.status).toBe(200);
    expect(response?.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response?.text()).toBe("");
  });
});

describe("crossSiteCheck", () => {
  let ran = 0;
  const counted: Route[] = [
    {
      method: "POST",
      path: "/login",
      handle: async () => {
        ran += 1;
        return new Response("signed in");
      },
    },
    { method: "GET", path: "/login", handle: async () => new Response("form") },
  ];
  const handle = routeRequests(
    withMiddleware(counted, crossSiteCheck({ allowedOrigins: ["https://partner.example"] })),
  );
  const post = (headers: Record<string, string>) =>
    handle(new Request("https://app.example/login", { method: "POST", headers }));

  it("refuses a cross-site POST with 403 before the handler runs", async () => {
    ran = 0;
    const response = await post({ origin: "https://evil.example", host: "app.example" });
    expect(response?.status).toBe(403);
    expect((await response!.json()).error.message).toBe(
      httpMessages.english["http.cross_site_refused"],
    );
    const fetched = await post({ "sec-fetch-site": "cross-site" });
    expect(fetched?.status).toBe(403);
    expect(ran).toBe(0);
  });

  it("passes same-origin and allowed origins, and leaves GET alone", async () => {
    ran = 0;
    expect((await post({ "sec-fetch-site": "same-origin" }))?.status).toBe(200);
    expect((await post({ origin: "https://partner.example" }))?.status).toBe(200);
    expect(ran).toBe(2);
    const form = await handle(
      new Request("https://app.example/login", { headers: { "sec-fetch-site": "cross-site" } }),
    );
    expect(await form?.text()).toBe("form");
  });

  it("answers a refusal with the one its options give", async () => {
    const pages = routeRequests(
      withMiddleware(counted, crossSiteCheck({ refusal: crossSiteRefusalPage })),
    );
    const response = await pages(
      new Request("https://app.example/login", {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
      }),
    );
    expect(response?.status).toBe(403);
    expect(response?.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});
