import type { User } from "@tessera/accounts";
import type { BearerAuthenticator } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/crypto";
import {
  badRequest,
  jsonError,
  notFound,
  readJsonBody,
  readListPage,
  unauthorized,
} from "@tessera/http";
import { createJobRunner, defineJob, encodeJob, type JobRunner, jobTokenKeys } from "@tessera/jobs";
import { type SqlDatabase, SqliteJobStore } from "@tessera/sqlite";
import type { AppHono } from "./accounts.js";
import type { AppConfig } from "./config.js";

/** The example app's external job: `render`, inputs `prompt:text width:integer?`. */
export const renderJob = defineJob("render", ["prompt:text", "width:integer?"]);

/** The render job wired: its runner (start, callback, sweep) and its store (owner reads). */
export interface RenderJobs {
  readonly runner: JobRunner;
  readonly store: SqliteJobStore;
}

/** The settings render jobs need and are missing, by variable name. */
export function missingRenderSettings(config: AppConfig): string[] {
  return [
    ...(config.render.url ? [] : ["RENDER_URL"]),
    ...(config.render.secret ? [] : ["RENDER_SECRET"]),
    ...(config.appUrl ? [] : ["APP_URL"]),
  ];
}

/** Render jobs, or undefined when `RENDER_URL`, `RENDER_SECRET` or `APP_URL` is unset. */
export function createRenderJobs(
  database: SqlDatabase,
  config: AppConfig,
  secretKeyBase: string,
  clock: Clock = systemClock,
): RenderJobs | undefined {
  const { url, secret, token } = config.render;
  if (!url || !secret || !config.appUrl) return undefined;
  const store = new SqliteJobStore(database, renderJob);
  const runner = createJobRunner({
    definition: renderJob,
    store,
    url,
    secret,
    bearerToken: token,
    appUrl: config.appUrl,
    tokenKeys: jobTokenKeys({ current: secretKeyBase, previous: config.secretKeyBasePrevious }),
    clock,
  });
  return { runner, store };
}

const BEARER_CHALLENGE = { "WWW-Authenticate": "Bearer" };
const POSITIVE_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Mounts the render job: `POST|GET /api/render_jobs`, `GET /api/render_jobs/{id}` (bearer,
 * owner-scoped: another user's job is a 404) and the callback `POST /webhooks/render/{id}`.
 * Without its settings each route answers 503 naming what is missing.
 */
export function mountRenderJobs(
  app: AppHono,
  jobs: RenderJobs | undefined,
  bearer: BearerAuthenticator<User>,
  config: AppConfig,
): void {
  if (!jobs) {
    const missing = missingRenderSettings(config).join(", ");
    const off = () => jsonError(503, `Render jobs are off: set ${missing} to turn them on.`);
    app.on(["GET", "POST"], "/api/render_jobs", off);
    app.get("/api/render_jobs/:id", off);
    app.post("/webhooks/render/:id", off);
    return;
  }
  const { runner, store } = jobs;
  const owner = async (request: Request) => {
    const authenticated = await bearer.authenticate(request);
    return authenticated.ok ? authenticated.value.user : undefined;
  };

  app.post("/api/render_jobs", async (c) => {
    const user = await owner(c.req.raw);
    if (!user) return unauthorized(BEARER_CHALLENGE);
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) return body.response;
    const input = renderJob.decodeInput(body.value);
    if (!input.ok) return input.response;
    return Response.json(encodeJob(await runner.start(user.id, input.value)), { status: 201 });
  });

  app.get("/api/render_jobs", async (c) => {
    const user = await owner(c.req.raw);
    if (!user) return unauthorized(BEARER_CHALLENGE);
    const page = readListPage(new URL(c.req.url));
    if (!page.ok) return badRequest(page.reason);
    return Response.json((await store.listOwned(user.id, page.value)).map(encodeJob));
  });

  app.get("/api/render_jobs/:id", async (c) => {
    const user = await owner(c.req.raw);
    if (!user) return unauthorized(BEARER_CHALLENGE);
    const id = c.req.param("id");
    const job = POSITIVE_ID.test(id) ? await store.findOwned(Number(id), user.id) : undefined;
    return job ? Response.json(encodeJob(job)) : notFound();
  });

  app.post("/webhooks/render/:id", (c) => runner.handleCallback(c.req.raw, c.req.param("id")));
}
