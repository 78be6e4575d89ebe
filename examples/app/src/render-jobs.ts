import type { User } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/core";
import { jsonError, type Route } from "@tessera/http";
import {
  createJobRunner,
  defineJob,
  type JobRunner,
  jobTokenKeys,
  jsonJobRoutes,
} from "@tessera/jobs";
import { SqlJobStore } from "@tessera/jobs/sql";
import type { SqlDatabase } from "@tessera/sql";
import { signatureHeaderVerifier } from "@tessera/webhooks";
import type { AppConfig } from "./config.js";

/** The example app's external job: `render`, inputs `prompt:text width:integer?`. */
export const renderJob = defineJob("render", ["prompt:text", "width:integer?"]);

/** The render job wired: its runner (start, callback, sweep) and its store (owner reads). */
export interface RenderJobs {
  readonly runner: JobRunner;
  readonly store: SqlJobStore;
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
  const store = new SqlJobStore(database, renderJob);
  const runner = createJobRunner({
    definition: renderJob,
    store,
    url,
    secret,
    // The service may sign its callbacks with RENDER_SECRET instead of calling the token's address.
    verifySignature: signatureHeaderVerifier({ secret }),
    bearerToken: token,
    appUrl: config.appUrl,
    tokenKeys: jobTokenKeys({ current: secretKeyBase, previous: config.secretKeyBasePrevious }),
    clock,
  });
  return { runner, store };
}

/**
 * The render job's routes: `POST|GET /api/render_jobs`, `GET /api/render_jobs/{id}` (bearer,
 * owner-scoped) and the callback `POST /webhooks/render/{id}`. Without its settings each route
 * answers 503 naming what is missing.
 */
export function renderJobRoutes(
  jobs: RenderJobs | undefined,
  bearer: BearerAuthenticator<User>,
  config: AppConfig,
): Route[] {
  if (jobs) {
    return jsonJobRoutes({ ...jobs, authenticate: bearerAuthentication(bearer) });
  }
  const missing = missingRenderSettings(config).join(", ");
  const handle = async () => jsonError(503, `Render jobs are off: set ${missing} to turn them on.`);
  return [
    { method: "POST", path: "/api/render_jobs", handle },
    { method: "GET", path: "/api/render_jobs", handle },
    { method: "GET", path: "/api/render_jobs/:id", handle },
    { method: "POST", path: "/webhooks/render/:id", handle },
  ];
}
