// The OpenAPI document against the app's route table: every JSON route the app can mount is in
// it (a route added without its description fails here), it describes no route the app does not
// mount, and an app whose settings leave routes out serves a document without them.
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { appApiDocument } from "../src/openapi.js";
import { appRoutes } from "./support/app-routes.js";

// Every setting that mounts routes: the passkeys' origin, and the render service.
const ENVIRONMENT = {
  APP_URL: "https://app.example",
  RENDER_URL: "http://127.0.0.1:9/render",
  RENDER_SECRET: "r".repeat(32),
};
const METHODS = ["get", "put", "post", "delete", "patch"];

type Document = ReturnType<typeof appApiDocument>;
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  responses?: Record<string, unknown>;
};

/** A JSON route: one a program calls (`/api/…` and GraphQL), not a page, asset or webhook. */
const isJsonRoute = (route: string) => /^[A-Z]+ (\/api\/|\/graphql$)/.test(route);

/** `METHOD /path/:param` of every operation of `document`. */
function documentedRoutes(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${template.replace(/\{([^}]+)\}/g, ":$1")}`),
  );
}

function operations(document: Document): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([key]) => METHODS.includes(key))
      .map(([method, operation]): [string, Operation] => [`${method} ${template}`, operation]),
  );
}

describe("the OpenAPI document and the route table", () => {
  it("describes every JSON route the app mounts, and no other", async () => {
    const mounted = (await appRoutes(ENVIRONMENT, { withMailer: true })).filter(isJsonRoute);
    const documented = documentedRoutes(appApiDocument());
    expect(mounted.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !mounted.includes(route))).toEqual([]);
    // The routes of every area are among them: the check above is not vacuous.
    expect(mounted).toEqual(
      expect.arrayContaining([
        "POST /api/auth/token",
        "POST /api/auth/mfa/totp",
        "POST /api/auth/passkeys/login",
        "GET /api/admin/users",
        "GET /api/orgs/:slug/projects",
        "POST /api/webhook_endpoints",
        "GET /api/render_jobs/:id",
        "POST /graphql",
      ]),
    );
  });

  it("leaves out what the app does not mount: without a mailer, the organizations", async () => {
    const mounted = await appRoutes(ENVIRONMENT);
    const served = documentedRoutes(
      appApiDocument(
        mounted.map((route) => {
          const [method, path] = route.split(" ") as [string, string];
          return { method, path };
        }),
      ),
    );
    expect(served).not.toContain("POST /api/orgs/:slug/invitations");
    expect(served).not.toContain("GET /api/webhook_endpoints");
    expect(served).toContain("POST /api/auth/token");
    expect(served.filter((route) => !mounted.includes(route))).toEqual([]);
  });

  it("names each operation once, tags it with a declared tag and documents its answers", () => {
    const document = appApiDocument();
    const declared = new Set(document.tags.map((tag) => tag.name));
    const ids = new Map<string, string[]>();
    const problems: string[] = [];
    for (const [key, operation] of operations(document)) {
      if (!operation.operationId) problems.push(`${key}: no operationId`);
      else ids.set(operation.operationId, [...(ids.get(operation.operationId) ?? []), key]);
      if (!operation.summary) problems.push(`${key}: no summary`);
      if (!operation.tags?.length) problems.push(`${key}: no tag`);
      for (const tag of operation.tags ?? []) {
        if (!declared.has(tag)) problems.push(`${key}: tag ${tag} is not declared`);
      }
      const statuses = Object.keys(operation.responses ?? {});
      if (!statuses.some((status) => status.startsWith("2"))) problems.push(`${key}: no success`);
    }
    for (const [id, keys] of ids) if (keys.length > 1) problems.push(`${id}: ${keys.join(", ")}`);
    expect(problems).toEqual([]);
  });

  it("is a valid OpenAPI 3.1 document, without warnings", async () => {
    const result = await validate(structuredClone(appApiDocument()) as never);
    expect(result).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
  });
});
