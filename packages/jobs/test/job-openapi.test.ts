// jobOpenApi: a document built with it is a valid OpenAPI 3.1 document, and the real answers of
// jsonJobRoutes (and the bodies sent to them) conform to it, for the example app's job and for
// one with an input of most field types.
import { validate } from "@readme/openapi-parser";
import {
  type Authentication,
  mergeOpenApiParts,
  openApiErrorPart,
  routeRequests,
  unauthorized,
} from "@tessera/http";
import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import { openApiChecker } from "../../../test/support/openapi-responses.js";
import { defineJob, type JobDefinition, jobOpenApi, jsonJobRoutes } from "../src/index.js";
import { callbackContext } from "./callback-context.js";
import { APP_URL, callback, render, setupRunner } from "./runner-setup.js";

/** A job with an input of most types a job takes. */
const print = defineJob(
  "print_order",
  [
    "title:string",
    "notes:text?",
    "cover:rich_text?",
    "copies:integer",
    "pages:integer?",
    "ratio:float?",
    "duplex:boolean",
    "paper:enum:a4,letter",
    "options:json?",
    "due_on:date?",
    "due_at:datetime?",
    "slot:time?",
    "price:decimal?",
    "batch:uuid?",
  ],
  { richText: richTextSanitizer },
);

/** A document of the shared error part and both jobs, as an app would merge it. */
function jobDocument(): Record<string, unknown> {
  return mergeOpenApiParts(
    {
      openapi: "3.1.0",
      info: { title: "jobs", version: "1.0.0" },
      security: [{ bearerAuth: [] }],
      paths: {},
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    },
    [openApiErrorPart(1_048_576), jobOpenApi(render), jobOpenApi(print)],
  );
}

/** A bearer check of two test tokens, refusing as bearerAuthentication does. */
async function authenticate(request: Request): Promise<Authentication<{ user: { id: number } }>> {
  const token = request.headers.get("authorization");
  const id = token === "Bearer ada" ? 1 : token === "Bearer bob" ? 2 : undefined;
  return id === undefined
    ? { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) }
    : { ok: true, value: { user: { id } } };
}

/** The job's routes mounted alone, each request and answer checked against the document. */
async function documentedRoutes(definition: JobDefinition) {
  const setup = await setupRunner({ definition });
  const handle = routeRequests(jsonJobRoutes({ ...setup, authenticate }));
  const checker = openApiChecker(jobDocument());
  const problems: string[] = [];
  const send = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; invalidBody?: boolean } = {},
  ) => {
    if (options.body !== undefined && !options.invalidBody) {
      problems.push(...checker.requestProblems(method, path, options.body));
    }
    const response = (await handle(
      new Request(`${APP_URL}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      }),
    ))!;
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
    const body: any = text ? JSON.parse(text) : undefined;
    problems.push(...checker.responseProblems(method, path, response.status, body));
    return { status: response.status, headers: response.headers, body };
  };
  return { ...setup, send, problems };
}

describe("jobOpenApi", () => {
  it("makes a valid OpenAPI 3.1 document, without warnings", async () => {
    const result = await validate(structuredClone(jobDocument()) as never);
    expect(result).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
  });

  it("describes the three routes a user calls, and not the service's callback", () => {
    const part = jobOpenApi(render);
    expect(Object.keys(part.paths)).toEqual(["/api/render_jobs", "/api/render_jobs/{id}"]);
    const operations = Object.values(part.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => key !== "parameters")
        .map(([method, operation]) => [method, (operation as { operationId: string }).operationId]),
    );
    expect(operations).toEqual([
      ["post", "startRenderJob"],
      ["get", "listRenderJobs"],
      ["get", "getRenderJob"],
    ]);
    expect(Object.keys(part.schemas ?? {})).toEqual(["RenderJob", "RenderJobInput"]);
    const input = part.schemas?.RenderJobInput as { required: string[]; properties: object };
    expect(input.required).toEqual(["prompt"]);
    expect(Object.keys(input.properties)).toEqual(["prompt", "width"]);
  });

  it("matches what the example app's job answers: start, list, show, and each refusal", async () => {
    const { send, problems, runner, store } = await documentedRoutes(render);
    const started = await send("POST", "/api/render_jobs", {
      token: "ada",
      body: { prompt: "a red fox", width: 640 },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: "submitted", prompt: "a red fox", width: 640 });
    await send("POST", "/api/render_jobs", { token: "ada", body: { prompt: "a blue fox" } });

    // Moved to done by the service, with a result: the job still reads as documented.
    const job = (await store.find(started.body.id))!;
    const address = new URL(runner.callbackUrl(job));
    const done = await runner.handleCallback(
      callback(
        address.pathname + address.search,
        JSON.stringify({ status: "done", output: { url: "https://cdn.example/fox.png" } }),
      ),
      callbackContext(String(job.id)),
    );
    expect(done.status).toBe(200);
    const shown = await send("GET", `/api/render_jobs/${job.id}`, { token: "ada" });
    expect(shown.body).toMatchObject({ status: "done", progress: 100 });
    expect(shown.body.result).toEqual({ url: "https://cdn.example/fox.png" });

    const page = await send("GET", "/api/render_jobs?limit=1", { token: "ada" });
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("link")).toBe('</api/render_jobs?limit=1&after=2>; rel="next"');
    expect((await send("GET", "/api/render_jobs?after=2", { token: "ada" })).body).toHaveLength(1);

    for (const query of ["limit=0", "offset=-1", "after=x", "offset=1&after=1"]) {
      const refused = await send("GET", `/api/render_jobs?${query}`, { token: "ada" });
      expect(refused.status, query).toBe(400);
    }
    for (const path of ["/api/render_jobs/1", "/api/render_jobs/999", "/api/render_jobs/abc"]) {
      const missing = await send("GET", path, { token: "bob" });
      expect(missing.status, path).toBe(404);
      expect(missing.body.error.code).toBe("not_found");
    }
    for (const body of [{ width: 3 }, { prompt: 3 }, [1], { prompt: "x", width: "wide" }]) {
      const refused = await send("POST", "/api/render_jobs", {
        token: "ada",
        body,
        invalidBody: true,
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const blank = await send("POST", "/api/render_jobs", {
      token: "ada",
      body: { prompt: "  ", width: 1e20 },
      invalidBody: true,
    });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.error.fields).sort()).toEqual(["prompt", "width"]);
    for (const [method, path] of [
      ["POST", "/api/render_jobs"],
      ["GET", "/api/render_jobs"],
      ["GET", "/api/render_jobs/1"],
    ]) {
      const body = method === "POST" ? { prompt: "x" } : undefined;
      expect((await send(method!, path!, { body })).status).toBe(401);
    }
    expect(problems).toEqual([]);
  });

  it("matches a job of many input types, filled in and left out", async () => {
    const { send, problems } = await documentedRoutes(print);
    const full = {
      title: "Annual report",
      notes: "Two lines\nof notes",
      cover: "<p>Our <strong>year</strong></p>",
      copies: 3,
      pages: "120",
      ratio: 1.5,
      duplex: true,
      paper: "letter",
      options: { staple: ["top-left"], colour: false },
      due_on: "2030-02-28",
      due_at: "2030-02-28 13:05",
      slot: "09:30",
      price: "-12.50",
      batch: "0F8FAD5B-D9CB-469F-A165-70867728950E",
    };
    const filled = await send("POST", "/api/print_order_jobs", { token: "ada", body: full });
    expect(filled.status).toBe(201);
    expect(filled.body).toMatchObject({ pages: 120, duplex: true, options: full.options });
    const sparse = await send("POST", "/api/print_order_jobs", {
      token: "ada",
      body: { title: "Flyer", copies: 1, paper: "a4", pages: "", notes: null },
    });
    expect(sparse.status).toBe(201);
    expect(sparse.body).toMatchObject({ duplex: false, pages: null, notes: null, options: null });
    const listed = await send("GET", "/api/print_order_jobs", { token: "ada" });
    expect(listed.body).toHaveLength(2);

    const unknownPaper = await send("POST", "/api/print_order_jobs", {
      token: "ada",
      body: { ...full, paper: "a3" },
      invalidBody: true,
    });
    expect(unknownPaper.status).toBe(400);
    const broken = await send("POST", "/api/print_order_jobs", {
      token: "ada",
      body: { ...full, title: " ", due_on: "2030-02-30", price: "12,50", batch: "nope" },
      invalidBody: true,
    });
    expect(broken.status).toBe(422);
    expect(Object.keys(broken.body.error.fields).sort()).toEqual([
      "batch",
      "due_on",
      "price",
      "title",
    ]);
    expect(problems).toEqual([]);
  });
});
