// The OpenAPI document of the JSON record routes: valid OpenAPI 3.1 (checked by
// @readme/openapi-parser), the same paths and methods as jsonRecordRoutes mounts, and every
// answer the routes really give, success or refusal, valid against it (Ajv).
import { validate } from "@readme/openapi-parser";
import { defineModel } from "@tessera/fields";
import { describe, expect, it } from "vitest";
import { openApiChecker } from "../../../test/support/openapi-responses.js";
import {
  jsonRecordRoutes,
  MemoryObjectStorage,
  MemoryRecordStore,
  MemoryRecordTables,
  openApiDocument,
} from "../src/index.js";
import { ADA, fileForm, MODELS, postBody, setUpApp, testAuthentication } from "./fixtures.js";

const document = openApiDocument({ models: MODELS, info: { title: "Records", version: "1.0.0" } });
const checker = openApiChecker(document);
type Operation = { responses: Record<string, unknown>; requestBody?: unknown };
const operationOf = (path: string, method: string) =>
  (document.paths[path] as Record<string, Operation>)[method]!;

describe("openApiDocument", () => {
  it("is a valid OpenAPI 3.1 document, without warnings", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
    expect(document.openapi).toBe("3.1.0");
  });

  it("is checked by a validator that does refuse a broken copy", async () => {
    const broken = structuredClone(document) as { paths: Record<string, { parameters?: [] }> };
    delete broken.paths["/api/posts/{id}"]!.parameters;
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it("documents exactly the routes jsonRecordRoutes mounts", () => {
    const mounted = MODELS.flatMap((model) =>
      jsonRecordRoutes({
        model,
        store: new MemoryRecordStore(new MemoryRecordTables(), model),
        storage: new MemoryObjectStorage(),
        authenticate: testAuthentication,
      }).map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== "parameters")
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(mounted.sort());
  });

  it("asks for the bearer scheme everywhere and names a schema per record, body and file", () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
    });
    expect(Object.keys(document.components.schemas as object)).toEqual([
      "Error",
      "ValidationError",
      ...["Post", "PostCreate", "PostUpdate", "PostPhoto"],
      ...["Comment", "CommentCreate", "CommentUpdate"],
      ...["Label", "LabelCreate", "LabelUpdate"],
      ...["Reaction", "ReactionCreate", "ReactionUpdate"],
      ...["Tag", "TagCreate", "TagUpdate"],
    ]);
  });

  it("answers 409 only where the model has a lock_version, and names records by public id", () => {
    expect(operationOf("/api/posts/{id}", "patch").responses).toHaveProperty("409");
    expect(operationOf("/api/comments/{id}", "patch").responses).not.toHaveProperty("409");
    const labelId = (document.paths["/api/labels/{id}"] as { parameters: unknown[] }).parameters;
    expect(labelId).toEqual([
      expect.objectContaining({
        schema: expect.objectContaining({ type: "string", pattern: "^[A-Za-z0-9_-]{22}$" }),
      }),
    ]);
    expect(operationOf("/api/posts", "post").responses).toEqual({
      "201": expect.anything(),
      "400": { $ref: "#/components/responses/BadRequest" },
      "401": { $ref: "#/components/responses/Unauthorized" },
      "422": { $ref: "#/components/responses/ValidationFailed" },
    });
  });

  it("describes the body limit it is given, and keeps servers and info", () => {
    const custom = openApiDocument({
      models: [defineModel("thing", ["name:string"])],
      info: { title: "T", version: "2", description: "D" },
      servers: [{ url: "https://api.example.com" }],
      maximumJsonBytes: 1000,
    });
    expect(custom.info).toEqual({ title: "T", version: "2", description: "D" });
    expect(custom.servers).toEqual([{ url: "https://api.example.com" }]);
    expect(JSON.stringify(custom.components.responses)).toContain("larger than 1000 bytes");
    expect(Object.keys(custom.paths)).toEqual(["/api/things", "/api/things/{id}"]);
  });
});

describe("the routes' real answers conform to the document", () => {
  it("for every record route, success and refusal", async () => {
    const app = await setUpApp();
    const problems: string[] = [];
    /** Sends a request, checks its answer (and a JSON request body), returns the answer. */
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      ownerId = ADA,
      headers: Record<string, string> = {},
    ) => {
      const response =
        body instanceof FormData
          ? await app.api(ownerId, method, path, { body })
          : body === undefined
            ? await app.api(ownerId, method, path, { headers })
            : await app.sendJson(ownerId, method, path, body);
      const text = await response.text();
      const json =
        text && response.headers.get("content-type")?.includes("json")
          ? JSON.parse(text)
          : undefined;
      problems.push(...checker.responseProblems(method, path, response.status, json));
      if (body !== undefined && !(body instanceof FormData)) {
        // The body schema is never stricter than the server, and every 400 is in it.
        const valid = checker.requestProblems(method, path, body).length === 0;
        if (!valid && response.status < 400) problems.push(`${method} ${path}: accepted, invalid`);
        if (valid && response.status === 400) problems.push(`${method} ${path}: 400, valid`);
      }
      return { status: response.status, json, headers: response.headers };
    };

    const full = postBody({
      body: "<p>Hi</p>",
      published: true,
      views: 3,
      rating: 2.5,
      publish_on: "2024-02-29",
      starts_at: "2024-02-29 13:05",
      reminder_at: "07:30",
      price: "10.50",
      external_ref: "0F8FAD5B-D9CB-469F-A165-70867728950E",
      metadata: { tags: ["a"], n: 1 },
      slug: "hello",
    });
    const created = await call("POST", "/api/posts", full);
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect((await call("POST", "/api/posts", postBody())).status).toBe(201);
    const page = await call("GET", "/api/posts?limit=1");
    expect(page.status).toBe(200);
    expect(page.headers.get("link")).toMatch(/rel="next"/);
    expect((await call("GET", `/api/posts/${id}`)).status).toBe(200);
    expect((await call("PATCH", `/api/posts/${id}`, { views: "", lock_version: 0 })).status).toBe(
      200,
    );
    expect((await call("PATCH", `/api/posts/${id}`, { lock_version: 0 })).status).toBe(409);
    expect((await call("PATCH", `/api/posts/${id}`, { title: " " })).status).toBe(422);
    expect((await call("POST", "/api/posts", { title: "x" })).status).toBe(400);
    expect((await call("GET", "/api/posts?limit=0")).status).toBe(400);
    expect((await call("GET", "/api/posts/999")).status).toBe(404);
    expect((await call("GET", "/api/posts", undefined, 99)).status).toBe(401);

    const png = fileForm(new Uint8Array([137, 80, 78, 71]), "a.png", "image/png");
    expect((await call("PUT", `/api/posts/${id}/cover`, png)).status).toBe(200);
    const cover = await call("GET", `/api/posts/${id}/cover`);
    expect(cover.status).toBe(200);
    const conditional = (headers: Record<string, string>) =>
      call("GET", `/api/posts/${id}/cover`, undefined, ADA, headers);
    expect((await conditional({ Range: "bytes=1-2" })).status).toBe(206);
    expect((await conditional({ Range: "bytes=9-" })).status).toBe(416);
    expect((await conditional({ "If-None-Match": cover.headers.get("etag")! })).status).toBe(304);
    const exe = fileForm("MZ", "a.exe", "application/x-msdownload");
    expect((await call("PUT", `/api/posts/${id}/cover`, exe)).status).toBe(422);
    expect((await call("DELETE", `/api/posts/${id}/cover`)).status).toBe(204);
    expect((await call("DELETE", `/api/posts/${id}/cover`)).status).toBe(404);
    const photo = await call("POST", `/api/posts/${id}/photos`, png);
    expect(photo.status).toBe(201);
    expect((await call("GET", `/api/posts/${id}/photos`)).status).toBe(200);
    expect((await call("GET", `/api/posts/${id}/photos/${photo.json.id}`)).status).toBe(200);
    expect((await call("DELETE", `/api/posts/${id}/photos/${photo.json.id}`)).status).toBe(204);
    expect((await call("POST", `/api/posts/${id}/photos`, png)).status).toBe(201);
    expect((await call("DELETE", `/api/posts/${id}/photos`)).status).toBe(204);
    expect((await call("DELETE", "/api/posts/999/photos")).status).toBe(404);

    const comment = await call("POST", "/api/comments", { post_id: id, body: "Nice" });
    expect(comment.status).toBe(201);
    expect((await call("POST", "/api/comments", { post_id: 999, body: "x" })).status).toBe(422);
    const label = await call("POST", "/api/labels", { name: "red", color: null });
    expect(label.status).toBe(201);
    expect((await call("GET", `/api/labels/${label.json.public_id}`)).status).toBe(200);
    const reaction = { target_type: "comment", target_id: comment.json.id, kind: "love" };
    expect((await call("POST", "/api/reactions", reaction)).status).toBe(201);
    expect((await call("POST", "/api/tags", { name: "t" })).status).toBe(201);
    expect((await call("DELETE", `/api/posts/${id}`)).status).toBe(204);

    expect(problems).toEqual([]);
    expect(checker.templateOf(`/api/posts/${id}/photos`)).toBe("/api/posts/{id}/photos");
  });

  it("and the checker does catch an answer that does not conform", () => {
    expect(checker.responseProblems("GET", "/api/posts/1", 200, { id: 1 })).not.toEqual([]);
    expect(checker.responseProblems("GET", "/api/posts/1", 418, undefined)).toEqual([
      "GET /api/posts/{id}: status 418 is not documented",
    ]);
    expect(checker.requestProblems("POST", "/api/posts", { title: 5 })).not.toEqual([]);
  });
});
