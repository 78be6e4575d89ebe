import type { Locale } from "@tessera/core";
import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import {
  crossSiteCheck,
  crossSiteRefusal,
  forbidden,
  isSecured,
  jsonAnswer,
  jsonError,
  localeNegotiation,
  negotiateLocale,
  notFound,
  plainLayout,
  type Route,
  type RouteContext,
  rateLimit,
  routeRequests,
  tooManyRequests,
  unauthorized,
  validationFailed,
  withLanguageHeaders,
  withMiddleware,
} from "../src/index.js";

const context: RouteContext = { params: {}, clientAddress: "192.0.2.1" };

describe("negotiateLocale", () => {
  const available = ["en", "fr", "pt-BR"];

  it.each([
    ["fr", "fr"],
    ["FR", "fr"],
    ["fr-CA", "fr"],
    ["fr-CA,fr;q=0.9,en;q=0.8", "fr"],
    ["de,fr;q=0.5", "fr"],
    ["en;q=0.4,fr;q=0.8", "fr"],
    ["en,fr", "en"],
    ["pt-br", "pt-BR"],
    ["pt", undefined],
    ["de", undefined],
    ["*", undefined],
    ["fr;q=0", undefined],
    ["fr;q=0.000", undefined],
    ["", undefined],
    ["fr;q=2", "fr"],
    ["en;q=0.5, fr ; q=0.7", "fr"],
  ])("reads %j as %j", (header, expected) => {
    expect(negotiateLocale(header, available)).toBe(expected);
  });

  it("answers undefined without a header or without catalogs", () => {
    expect(negotiateLocale(null, available)).toBeUndefined();
    expect(negotiateLocale("fr", [])).toBeUndefined();
  });

  it("ignores malformed ranges and reads only the start of an oversized header", () => {
    expect(negotiateLocale("<script>,f r,fr-!!,fr", available)).toBe("fr");
    expect(negotiateLocale(`${"x-".repeat(100_000)}a,fr`, available)).toBeUndefined();
    expect(negotiateLocale(`${"de,".repeat(100_000)}fr`, available)).toBeUndefined();
  });
});

describe("localeNegotiation", () => {
  const french = {
    "http.not_found": "Introuvable",
    "http.rate_limited": "Trop de requêtes. Réessayez plus tard.",
  };
  const notFoundRoute: Route = {
    method: "GET",
    path: "/missing",
    handle: async (_request, { locale }) => notFound(locale),
  };

  async function answer(routes: readonly Route[], init: RequestInit & { path?: string } = {}) {
    const route = routeRequests(routes);
    const request = new Request(`http://localhost${init.path ?? "/missing"}`, init);
    const response = await route(request, context);
    if (!response) throw new Error("no route");
    return response;
  }

  it("answers in the language the request asks for, with Vary and Content-Language", async () => {
    const routes = withMiddleware([notFoundRoute], localeNegotiation({ catalogs: { fr: french } }));
    const response = await answer(routes, { headers: { "Accept-Language": "fr-FR,fr;q=0.9" } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: "Introuvable", status: 404 },
    });
    expect(response.headers.get("Vary")).toBe("Accept-Language");
    expect(response.headers.get("Content-Language")).toBe("fr");
  });

  it("answers in English for an unshipped language, still saying it varies", async () => {
    const routes = withMiddleware([notFoundRoute], localeNegotiation({ catalogs: { fr: french } }));
    const response = await answer(routes, { headers: { "Accept-Language": "de" } });
    expect((await response.json()).error.message).toBe("Not found");
    expect(response.headers.get("Vary")).toBe("Accept-Language");
    expect(response.headers.get("Content-Language")).toBe("en");
  });

  it("answers in English when the client prefers English to a shipped language", async () => {
    const routes = withMiddleware([notFoundRoute], localeNegotiation({ catalogs: { fr: french } }));
    for (const header of ["en-US,fr;q=0.9", "en,fr", "fr;q=0.5,en;q=0.8"]) {
      const response = await answer(routes, { headers: { "Accept-Language": header } });
      expect((await response.json()).error.message).toBe("Not found");
      expect(response.headers.get("Content-Language")).toBe("en");
    }
    const afterGerman = await answer(routes, {
      headers: { "Accept-Language": "de,fr;q=0.5,en;q=0.1" },
    });
    expect((await afterGerman.json()).error.message).toBe("Introuvable");
  });

  it("answers in English without the middleware", async () => {
    const response = await answer([notFoundRoute], { headers: { "Accept-Language": "fr" } });
    expect((await response.json()).error.message).toBe("Not found");
    expect(response.headers.get("Vary")).toBeNull();
  });

  it("adds to a Vary the handler set, once, and keeps the handler's Content-Language", async () => {
    const routes = withMiddleware(
      [
        {
          method: "GET",
          path: "/missing",
          handle: async () =>
            new Response("x", { headers: { Vary: "Origin", "Content-Language": "de" } }),
        },
        {
          method: "GET",
          path: "/already",
          handle: async () => new Response("x", { headers: { Vary: "accept-language" } }),
        },
      ],
      localeNegotiation({ catalogs: { fr: french } }),
    );
    const first = await answer(routes, { headers: { "Accept-Language": "fr" } });
    expect(first.headers.get("Vary")).toBe("Origin, Accept-Language");
    expect(first.headers.get("Content-Language")).toBe("de");
    const second = await answer(routes, { path: "/already" });
    expect(second.headers.get("Vary")).toBe("accept-language");
  });

  it("translates the refusals of the middleware it wraps", async () => {
    const limiter = { attempt: async () => ({ allowed: false, retryAfterSeconds: 30 }) };
    const routes = withMiddleware(
      [{ method: "POST", path: "/missing", handle: async () => new Response("ok") }],
      localeNegotiation({ catalogs: { fr: french } }),
      rateLimit({ limiter, group: "test" }),
    );
    const response = await answer(routes, {
      method: "POST",
      headers: { "Accept-Language": "fr" },
    });
    expect(response.status).toBe(429);
    expect((await response.json()).error.message).toBe("Trop de requêtes. Réessayez plus tard.");
  });

  it("translates the cross-site refusal", async () => {
    const routes = withMiddleware(
      [{ method: "POST", path: "/missing", handle: async () => new Response("ok") }],
      localeNegotiation({
        catalogs: { fr: { "http.cross_site_refused": "Requête d'un autre site refusée." } },
      }),
      crossSiteCheck(),
    );
    const response = await answer(routes, {
      method: "POST",
      headers: { "Accept-Language": "fr", "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toBe("Requête d'un autre site refusée.");
  });
});

describe("withLanguageHeaders on a jsonAnswer", () => {
  const french = { tag: "fr", catalog: {} };
  const answer = (init?: ResponseInit) => jsonAnswer({ hello: "monde" }, init);

  it("adds the language headers to the security headers, keeping it marked", async () => {
    const translated = withLanguageHeaders(answer({ status: 201 }), french);
    expect(translated.status).toBe(201);
    expect(Object.fromEntries(translated.headers)).toEqual({
      "content-type": "application/json",
      "content-language": "fr",
      vary: "Accept-Language",
      "x-content-type-options": "nosniff",
      "x-frame-options": "SAMEORIGIN",
      "referrer-policy": "strict-origin-when-cross-origin",
    });
    expect(await translated.json()).toEqual({ hello: "monde" });
    expect(isSecured(translated)).toBe(true);
  });

  it("adds to a Vary the route set and keeps its Content-Language", () => {
    const translated = withLanguageHeaders(
      answer({ headers: { Vary: "Origin", "Content-Language": "de" } }),
      french,
    );
    expect(translated.headers.get("vary")).toBe("Origin, Accept-Language");
    expect(translated.headers.get("content-language")).toBe("de");
    const again = withLanguageHeaders(translated, french);
    expect(again.headers.get("vary")).toBe("Origin, Accept-Language");
  });

  it("keeps every Set-Cookie of one made with a Headers", () => {
    const cookies = new Headers([
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
    ]);
    const translated = withLanguageHeaders(jsonAnswer({}, { headers: cookies }), french);
    expect(translated.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(translated.headers.get("content-language")).toBe("fr");
    expect(translated.headers.get("vary")).toBe("Accept-Language");
  });
});

describe("jsonAnswer in a locale", () => {
  /** Counts the reads of `response.headers`: what costs @hono/node-server its fast path. */
  function countingHeaderReads(response: Response): { reads: () => number } {
    const headers = response.headers;
    let reads = 0;
    Object.defineProperty(response, "headers", {
      get: () => {
        reads += 1;
        return headers;
      },
    });
    return { reads: () => reads };
  }

  it("writes the headers withLanguageHeaders would add into the answer it makes", async () => {
    const answer = jsonAnswer({ bonjour: true }, { status: 201, locale: FRENCH });
    const addedAfterwards = withLanguageHeaders(jsonAnswer({}, { status: 201 }), FRENCH);
    expect(answer.status).toBe(201);
    expect(answer.headers.get("content-language")).toBe("fr");
    expect(Object.fromEntries(answer.headers)).toEqual(Object.fromEntries(addedAfterwards.headers));
    expect(await answer.json()).toEqual({ bonjour: true });
    expect(isSecured(answer)).toBe(true);
  });

  it("adds to the route's Vary, keeps its Content-Language and every Set-Cookie", () => {
    const plain = jsonAnswer(
      {},
      { headers: { Vary: "Origin", "Content-Language": "de" }, locale: FRENCH },
    );
    expect(plain.headers.get("vary")).toBe("Origin, Accept-Language");
    expect(plain.headers.get("content-language")).toBe("de");
    const cookies = new Headers([
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
      ["Vary", "accept-language"],
    ]);
    const listed = jsonAnswer({}, { headers: cookies, locale: FRENCH });
    expect(listed.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(listed.headers.get("vary")).toBe("accept-language");
    expect(listed.headers.get("content-language")).toBe("fr");
  });

  it("is left unread by withLanguageHeaders in that locale, and edited in another", () => {
    const answer = jsonAnswer({}, { locale: FRENCH });
    const counted = countingHeaderReads(answer);
    expect(withLanguageHeaders(answer, FRENCH)).toBe(answer);
    expect(counted.reads()).toBe(0);
    const english = withLanguageHeaders(answer, { tag: "en", catalog: {} });
    expect(counted.reads()).toBeGreaterThan(0);
    expect(english.headers.get("content-language")).toBe("fr");
    expect(english.headers.get("vary")).toBe("Accept-Language");
  });

  it("is how the error answers given a locale are made: with their language headers, left unread", () => {
    const refusals = (locale?: Locale) => [
      notFound(locale),
      validationFailed({ title: ["is required"] }, locale),
      tooManyRequests(5, locale),
      unauthorized({ "WWW-Authenticate": "Bearer" }, locale),
      jsonError(409, "Already there", { code: "conflict", ...(locale ? { locale } : {}) }),
      crossSiteRefusal(locale),
      forbidden("Not yours", "forbidden", locale),
    ];
    for (const refusal of refusals(FRENCH)) {
      const counted = countingHeaderReads(refusal);
      expect(withLanguageHeaders(refusal, FRENCH)).toBe(refusal);
      expect(counted.reads()).toBe(0);
      expect(languageOf(refusal)).toEqual(inFrench(refusal.status));
    }
    for (const refusal of refusals()) {
      expect(languageOf(refusal)).toEqual([refusal.status, null, null]);
    }
    expect(tooManyRequests(5, FRENCH).headers.get("retry-after")).toBe("5");
    expect(
      unauthorized({ "WWW-Authenticate": "Bearer" }, FRENCH).headers.get("www-authenticate"),
    ).toBe("Bearer");
  });
});

describe("plainLayout", () => {
  it("writes the page's language in <html lang>, English by default", () => {
    const page = { title: "t", mainHtml: "" };
    const base = { signedInEmail: undefined, flashes: [], cspNonce: undefined };
    expect(plainLayout({ ...page, context: base })).toContain('<html lang="en">');
    const FRENCH = { ...base, locale: { tag: "fr", catalog: {} } };
    expect(plainLayout({ ...page, context: FRENCH })).toContain('<html lang="fr">');
  });
});
