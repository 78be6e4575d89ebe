import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersIn, exchangeOverSocket } from "../../../test/support/socket-exchange.js";
import { loadConfig } from "../src/config.js";
import { type RunningServer, startServer } from "../src/server.js";

let folder: string;
let server: RunningServer;
let databasePath: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "tessera-app-"));
  databasePath = join(folder, "nested", "app.db");
  server = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: databasePath,
      SECRET_KEY_BASE: "t".repeat(64),
      ALLOWED_ORIGINS: "https://spa.example",
    }),
  );
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the example app skeleton", () => {
  it("serves the home page as HTML with the security headers", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("<h1>Tessera example app</h1>");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // A page: no framing at all (frame-ancestors 'none' in its policy, DENY for older browsers).
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("serves the stylesheet", async () => {
    const response = await fetch(`${server.url}/assets/app.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await response.text()).toContain(".site-header");
  });

  it("serves Trix's script and stylesheet from its npm package, which no header blocks", async () => {
    const require = createRequire(import.meta.url);
    for (const [path, file, type] of [
      ["/assets/trix.js", "trix/dist/trix.umd.min.js", "text/javascript; charset=utf-8"],
      ["/assets/trix.css", "trix/dist/trix.css", "text/css; charset=utf-8"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect([path, response.status, response.headers.get("content-type")]).toEqual([
        path,
        200,
        type,
      ]);
      expect(await response.text()).toBe(readFileSync(require.resolve(file), "utf8"));
      // nosniff needs the right type (above); a script or stylesheet gets no page policy (the
      // policy of the page that loads it applies).
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBeNull();
    }
    const script = await fetch(`${server.url}/assets/rich-text.js`);
    expect(await script.text()).toContain('addEventListener("trix-file-accept"');
  });

  it("answers unknown paths with the JSON 404 envelope", async () => {
    const response = await fetch(`${server.url}/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
  });

  it.each([
    [
      "a head over the 16 KiB Node reads",
      `GET /api/health?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
      "Request header fields too large",
    ],
    [
      "a header line without a colon",
      "GET /api/health HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n",
      400,
      "Bad request",
    ],
    ["a request line that is not HTTP", "HELLO\r\n\r\n", 400, "Bad request"],
    ["an HTTP/1.1 request without Host", "GET /api/health HTTP/1.1\r\n\r\n", 400, "Bad request"],
    ["a Host of two ports", "GET /api/health HTTP/1.1\r\nHost: x:1:2\r\n\r\n", 400, "Bad request"],
    ["an unclosed IPv6 Host", "GET /api/health HTTP/1.1\r\nHost: [::1\r\n\r\n", 400, "Bad request"],
    ["a backslash in the path", "GET /api\\health HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Bad request"],
    ["an absolute ftp: target", "GET ftp://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Bad request"],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Bad request"],
    ["GET *", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Bad request"],
  ])(
    "answers %s, which no route sees, in the JSON envelope with the security headers",
    async (_, request, status, message) => {
      const exchange = await exchangeOverSocket(server.url, { head: request });
      const [answer, ...more] = answersIn(exchange.received);
      expect([answer?.status, answer?.headers["content-type"], more]).toEqual([
        status,
        "application/json",
        [],
      ]);
      expect(answer?.headers).toMatchObject({
        "x-content-type-options": "nosniff",
        "x-frame-options": "SAMEORIGIN",
        "referrer-policy": "strict-origin-when-cross-origin",
      });
      expect(JSON.parse(answer!.body)).toEqual({
        error: { code: status === 431 ? "headers_too_large" : "bad_request", message, status },
      });
    },
  );

  it("refuses a cross-site POST to the API from a browser, names ALLOWED_ORIGINS, and lets listed origins and servers through", async () => {
    const crossSite = await fetch(`${server.url}/api/notes`, {
      method: "POST",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({
      error: {
        code: "cross_site_request",
        message: "Cross-site request refused: add this origin to ALLOWED_ORIGINS to allow it.",
        status: 403,
      },
    });
    expect(crossSite.headers.get("x-content-type-options")).toBe("nosniff");

    const listed = await fetch(`${server.url}/api/notes`, {
      method: "POST",
      headers: { origin: "https://spa.example", "sec-fetch-site": "cross-site" },
    });
    expect(listed.status).toBe(401); // passed the check; no bearer token
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://spa.example");

    const fromServer = await fetch(`${server.url}/api/notes`, { method: "POST" });
    expect(fromServer.status).toBe(401);

    const graphql = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(graphql.status).toBe(403);
  });

  it("refuses a cross-site WebSocket upgrade of a page with the cross-site 403, and serves a same-origin one", async () => {
    const { host } = new URL(server.url);
    const openPage = async (from: string) => {
      const exchange = await exchangeOverSocket(server.url, {
        head: `GET /login HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${from}\r\n\r\n`,
      });
      return answersIn(exchange.received).map((answer) => answer.status);
    };
    expect(await openPage("Sec-Fetch-Site: cross-site")).toEqual([403]);
    expect(await openPage("Origin: https://evil.example")).toEqual([403]);
    expect(await openPage("Sec-Fetch-Site: same-origin")).toEqual([200]);
    expect(await openPage(`Origin: ${server.url}`)).toEqual([200]);
  });

  it("created the SQLite file in its folder with the migrations table", () => {
    expect(existsSync(databasePath)).toBe(true);
    const database = new Database(databasePath, { readonly: true });
    const table = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    database.close();
    expect(table).toEqual({ name: "schema_migrations" });
  });
});
