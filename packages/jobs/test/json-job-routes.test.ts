import type { Locale } from "@tessera/core";
import {
  type Authentication,
  localeNegotiation,
  routeRequests,
  unauthorized,
  withMiddleware,
} from "@tessera/http";
import { richTextSanitizer, sanitizeRichText } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { defineJob, jsonJobRoutes } from "../src/index.js";
import { APP_URL, setupRunner } from "./runner-setup.js";

const ADA = 1;
const BOB = 2;

/** A bearer check of two test tokens, refusing as bearerAuthentication does. */
async function authenticate(request: Request): Promise<Authentication<{ user: { id: number } }>> {
  const token = request.headers.get("authorization");
  const id = token === "Bearer ada" ? ADA : token === "Bearer bob" ? BOB : undefined;
  return id === undefined
    ? { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) }
    : { ok: true, value: { user: { id } } };
}

async function mounted(options: Parameters<typeof setupRunner>[0] = {}) {
  const setup = await setupRunner(options);
  const handle = routeRequests(jsonJobRoutes({ ...setup, authenticate }));
  /** Sends a request, in `locale` when given (as `localeNegotiation` would choose it). */
  const send = async (
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    locale?: Locale,
  ) =>
    (await handle(
      new Request(`${APP_URL}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      locale ? { locale } : {},
    ))!;
  return { ...setup, send };
}

describe("jsonJobRoutes mounted alone", () => {
  it("starts a job for the token's user: 201, submitted to the service", async () => {
    const { send, service, store } = await mounted();
    const started = await send("POST", "/api/render_jobs", "ada", { prompt: "a cat", width: 64 });
    expect(started.status).toBe(201);
    const job = await started.json();
    expect(job).toMatchObject({ id: 1, status: "submitted", prompt: "a cat", width: 64 });
    expect(service.received).toHaveLength(1);
    expect((await store.find(1))?.userId).toBe(ADA);
  });

  it("refuses a request without a token with 401 and starts nothing", async () => {
    const { send, service, store } = await mounted();
    const refused = await send("POST", "/api/render_jobs", undefined, { prompt: "x" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect((await send("GET", "/api/render_jobs")).status).toBe(401);
    expect(service.received).toEqual([]);
    expect(await store.find(1)).toBeUndefined();
  });

  it("refuses an input without its required field with 400, starting nothing", async () => {
    const { send, service } = await mounted();
    const refused = await send("POST", "/api/render_jobs", "ada", { width: 3 });
    expect(refused.status).toBe(400);
    expect(service.received).toEqual([]);
  });

  it("lists and shows only the user's own jobs; another user's job is a 404", async () => {
    const { send } = await mounted();
    await send("POST", "/api/render_jobs", "ada", { prompt: "one" });
    await send("POST", "/api/render_jobs", "ada", { prompt: "two" });
    await send("POST", "/api/render_jobs", "bob", { prompt: "bob's" });
    const first = await send("GET", "/api/render_jobs?limit=1", "ada");
    expect((await first.json()).map((job: { prompt: string }) => job.prompt)).toEqual(["two"]);
    expect(first.headers.get("link")).toBe('</api/render_jobs?limit=1&after=2>; rel="next"');
    const next = await send("GET", "/api/render_jobs?limit=1&after=2", "ada");
    expect((await next.json()).map((job: { prompt: string }) => job.prompt)).toEqual(["one"]);
    expect(next.headers.get("link")).toBeNull();
    expect((await send("GET", "/api/render_jobs/1", "ada")).status).toBe(200);
    const foreign = await send("GET", "/api/render_jobs/3", "ada");
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({
      error: { code: "not_found", message: "Not found", status: 404 },
    });
    expect((await send("GET", "/api/render_jobs/abc", "ada")).status).toBe(404);
  });

  it("answers an id past 2^53 - 1 with a 404 without asking the store for the number it rounds to", async () => {
    const { send, store } = await mounted();
    const asked: number[] = [];
    const findOwned = store.findOwned.bind(store);
    store.findOwned = (userId, id) => {
      asked.push(id);
      return findOwned(userId, id);
    };
    // Number("9999999999999999") is 1e16: another job's id, were there one.
    expect((await send("GET", "/api/render_jobs/9999999999999999", "ada")).status).toBe(404);
    expect((await send("GET", "/api/render_jobs/9007199254740991", "ada")).status).toBe(404);
    expect(asked).toEqual([9007199254740991]);
  });

  it("answers list paging out of range with the record lists' 400 messages", async () => {
    const { send } = await mounted();
    const limit = await send("GET", "/api/render_jobs?limit=101", "ada");
    expect(limit.status).toBe(400);
    expect((await limit.json()).error.message).toMatch(/limit/);
    const offset = await send("GET", "/api/render_jobs?offset=-1", "ada");
    expect(offset.status).toBe(400);
    expect((await offset.json()).error.message).toMatch(/offset/);
  });

  it("takes the service's callback at /webhooks/render/:id with its token", async () => {
    const { send, runner, store } = await mounted();
    await send("POST", "/api/render_jobs", "ada", { prompt: "x" });
    const job = (await store.find(1))!;
    const address = new URL(runner.callbackUrl(job));
    const callback = await send("POST", `${address.pathname}${address.search}`, undefined, {
      status: "done",
    });
    expect(callback.status).toBe(200);
    expect(await callback.json()).toEqual({ ok: true });
    expect((await store.find(1))?.status).toBe("done");
  });
});

describe("a long rich_text input", () => {
  // 800 KB, every element left open: what one call would sanitize in about 100 ms.
  const nested = "<b>x".repeat(200_000);

  it("is sanitized between turns of the event loop when a job starts", async () => {
    const { send, store } = await mounted({
      definition: defineJob("note", ["body:rich_text"], { richText: richTextSanitizer }),
    });
    let ticks = 0;
    let ticksWhenStored = 0;
    const create = store.create.bind(store);
    store.create = (job) => {
      ticksWhenStored = ticks;
      return create(job);
    };
    const interval = setInterval(() => ticks++, 0);
    const started = await send("POST", "/api/note_jobs", "ada", { body: nested });
    clearInterval(interval);
    expect(started.status).toBe(201);
    // Before the job was stored, the route's decode and the runner's check of the decoded
    // input each yielded between slices.
    expect(ticksWhenStored).toBeGreaterThan(2);
    expect((await store.find(1))?.input).toEqual({ body: sanitizeRichText(nested) });
  });
});

describe("jsonJobRoutes in a locale", () => {
  it("writes the locale's language headers into its answers, the 404 included", async () => {
    const { send } = await mounted();
    const body = { prompt: "a cat", width: 64 };
    const started = await send("POST", "/api/render_jobs", "ada", body, FRENCH);
    expect(languageOf(started)).toEqual(inFrench(201));
    const { id } = await started.json();
    const shown = await send("GET", `/api/render_jobs/${id}`, "ada", undefined, FRENCH);
    expect(languageOf(shown)).toEqual(inFrench(200));
    const listed = await send("GET", "/api/render_jobs", "ada", undefined, FRENCH);
    expect(languageOf(listed)).toEqual(inFrench(200));
    const missing = await send("GET", "/api/render_jobs/999", "ada", undefined, FRENCH);
    expect(languageOf(missing)).toEqual(inFrench(404));
    expect(languageOf(await send("GET", "/api/render_jobs", "ada"))).toEqual([200, null, null]);
  });
});

describe("jsonJobRoutes behind localeNegotiation", () => {
  const french = {
    "http.not_found": "Introuvable",
    "http.validation_failed": "La validation a échoué",
    "validation.blank": "doit être rempli(e)",
  };

  it("writes its 404 and its 422 in the request's language", async () => {
    const setup = await setupRunner();
    const routes = jsonJobRoutes({ ...setup, authenticate });
    const handle = routeRequests(
      withMiddleware(routes, localeNegotiation({ catalogs: { fr: french } })),
    );
    const send = async (method: string, path: string, body?: unknown) =>
      (await handle(
        new Request(`${APP_URL}${path}`, {
          method,
          headers: {
            "content-type": "application/json",
            authorization: "Bearer ada",
            "accept-language": "fr",
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      ))!;
    const missing = await send("GET", "/api/render_jobs/7");
    expect(await missing.json()).toEqual({
      error: { code: "not_found", message: "Introuvable", status: 404 },
    });
    const blank = await send("POST", "/api/render_jobs", { prompt: " " });
    expect(blank.status).toBe(422);
    expect(await blank.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "La validation a échoué",
        status: 422,
        fields: { prompt: ["doit être rempli(e)"] },
      },
    });
  });
});

describe("jsonJobRoutes' options", () => {
  it("refuses a mistake when the routes are built, naming the option", async () => {
    const setup = await setupRunner();
    expect(() => jsonJobRoutes({} as never)).toThrow(
      new TypeError(
        "jsonJobRoutes: `runner` is missing: pass `createJobRunner({ definition, … })`",
      ),
    );
    expect(() => jsonJobRoutes({ ...setup, store: {}, authenticate } as never)).toThrow(
      "jsonJobRoutes: `store` has no `findOwned` method",
    );
    expect(() => jsonJobRoutes({ ...setup } as never)).toThrow(
      "jsonJobRoutes: `authenticate` is missing",
    );
  });
});
