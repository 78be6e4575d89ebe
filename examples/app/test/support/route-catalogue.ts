// The route catalogue of the fuzzing suite: every route of the example app in groups, what its
// answers are, and the hostile requests it gets. Values such as `{owner}` and `{post}` are
// placeholders the suite fills in when it sends a case (fixtures, time, signatures).
import fc from "fast-check";
import { htmlAccountRoutes, jsonAccountRoutes } from "./account-cases.js";
import { pathOf } from "./case-builders.js";
import { jsonPayload } from "./fuzz-bodies.js";
import { bearerHeaders, sessionHeaders } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, ignoredQuery, page } from "./fuzzed-route.js";
import { graphqlRoutes } from "./graphql-cases.js";
import { hostileSegment, jsonString } from "./hostile-input.js";
import { organizationRoutes, webhookEndpointRoutes } from "./organization-cases.js";
import {
  attachmentRoutes,
  downloadRoutes,
  htmlRecordRoutes,
  jsonRecordRoutes,
} from "./record-cases.js";
import { renderJobRoutes, webhookRoutes } from "./webhook-cases.js";

/** Methods routes have, one no route has, and one spelled in lower case. */
const methods = fc.constantFrom(
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "PROPFIND",
  "get",
);
/**
 * Paths no route has, or that lead to another route once the URL is normalized: dot segments
 * (plain and encoded), doubled and trailing slashes, encoded slashes and NUL, a request line
 * over the 16 KiB Node reads, and hostile segments strung together.
 */
const oddPath = fc.oneof(
  fc.constantFrom(
    "/api/../api/health",
    "/api/%2e%2e/api/posts",
    "//api//posts",
    "/api/posts/",
    "/posts/",
    "/POSTS",
    "/api/posts%2F1",
    "/api/posts;x=1",
    "/assets/../../package.json",
    "/assets/%2e%2e/%2e%2e/package.json",
    "/assets/app.css%00.js",
    "/api",
    "/webhooks",
    "/webhooks/unknown",
    "/%00",
    "/%ZZ",
    "/%E2%80%AE",
    `/${"a".repeat(8000)}`,
    "/api/posts/1/cover/extra/segments",
    "/posts/.",
    "/posts/..",
    `/api/posts?q=${"a".repeat(20_000)}`,
  ),
  fc
    .array(hostileSegment, { minLength: 1, maxLength: 4 })
    .map((segments) => `/${segments.join("/")}`),
);
/** The home page, the assets, the health check and the OpenAPI document. */
const otherRoutes: FuzzedRoute[] = [
  page("GET /", { path: pathOf("/", {}, ignoredQuery) }),
  ...[
    "/assets/app.css",
    "/assets/trix.js",
    "/assets/trix.css",
    "/assets/rich-text.js",
    "/assets/simplewebauthn-browser.js",
    "/assets/passkeys.js",
  ].map((path) => fuzzed(`GET ${path}`, "asset", { path: pathOf(path, {}, ignoredQuery) })),
  fuzzed("GET /api/health", "json", { path: pathOf("/api/health", {}, ignoredQuery) }),
  fuzzed("GET /api/openapi.json", "json", { path: pathOf("/api/openapi.json", {}, ignoredQuery) }),
];
/** Paths no route has (or that dot segments lead elsewhere), with any method and body. */
const unmatchedRoutes: FuzzedRoute[] = [
  fuzzed("(no route)", "any", {
    method: methods,
    path: oddPath,
    headers: fc.oneof(bearerHeaders, sessionHeaders),
    payload: jsonPayload({ title: fc.string().map(jsonString) }),
  }),
];

/** Routes fuzzed together, within one time budget. */
export interface RouteGroup {
  readonly name: string;
  readonly routes: readonly FuzzedRoute[];
  /** How many cases a run tries (in CI, with its fixed seed), unless `budgetMs` ends it. */
  readonly numRuns: number;
  /** The time after which no new case starts: a slow machine runs fewer cases. */
  readonly budgetMs: number;
}

/** Every route of the app, in groups; together well under a minute on two cores. */
export const routeGroups: readonly RouteGroup[] = [
  { name: "JSON account routes", routes: jsonAccountRoutes, numRuns: 60, budgetMs: 4_000 },
  {
    name: "HTML account pages and forms",
    routes: htmlAccountRoutes,
    numRuns: 150,
    budgetMs: 4_500,
  },
  { name: "JSON record routes", routes: jsonRecordRoutes, numRuns: 300, budgetMs: 7_000 },
  {
    name: "multipart attachment uploads and files",
    routes: attachmentRoutes,
    numRuns: 150,
    budgetMs: 4_500,
  },
  {
    name: "HTML record pages and forms",
    routes: [...htmlRecordRoutes, ...downloadRoutes],
    numRuns: 250,
    budgetMs: 6_500,
  },
  { name: "webhooks", routes: webhookRoutes, numRuns: 200, budgetMs: 4_500 },
  {
    name: "organizations and webhook endpoints",
    routes: [...organizationRoutes, ...webhookEndpointRoutes],
    numRuns: 200,
    budgetMs: 4_500,
  },
  { name: "GraphQL", routes: graphqlRoutes, numRuns: 150, budgetMs: 4_500 },
  { name: "render jobs and callbacks", routes: renderJobRoutes, numRuns: 150, budgetMs: 3_500 },
  { name: "pages, assets and health", routes: otherRoutes, numRuns: 80, budgetMs: 2_000 },
  {
    name: "paths no route has, any method",
    routes: unmatchedRoutes,
    numRuns: 100,
    budgetMs: 2_000,
  },
];
