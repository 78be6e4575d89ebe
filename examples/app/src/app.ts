import { readFileSync } from "node:fs";
import type { Clock } from "@tessera/crypto";
import {
  clientAddress,
  cookieSession,
  crossSiteProtection,
  mount,
  securityHeaders,
} from "@tessera/hono";
import type { Mailer } from "@tessera/mail";
import type { ObjectStorage } from "@tessera/records";
import { optionalUser, type TrackedSessionStore } from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import { Hono } from "hono";
import { type AppHono, appAccounts } from "./accounts.js";
import type { AppConfig } from "./config.js";
import { reachedOverHttps } from "./https-requests.js";
import { recordRoutes } from "./records.js";
import { type RenderJobs, renderJobRoutes } from "./render-jobs.js";
import { mountRichTextAssets } from "./rich-text-assets.js";
import { answerUnhandledError } from "./unhandled-error.js";
import { renderHomePage } from "./views/home.js";
import { webhookRoutes } from "./webhooks.js";

/** What the app is built from: its settings, its open database and its mailer. */
export interface AppDependencies {
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  readonly database: SqlDatabase;
  readonly mailer: Mailer | undefined;
  /** The time source of sessions, tokens and rate limits (tests move it). */
  readonly clock?: Clock;
  /** The device list option's store, when `TRACKED_SESSIONS` is not `off`. */
  readonly trackedSessions: TrackedSessionStore | undefined;
  /** Where uploaded files go. */
  readonly storage: ObjectStorage;
  /** The render job, when its settings are there (see render-jobs.ts). */
  readonly renderJobs: RenderJobs | undefined;
}

const stylesheet = readFileSync(new URL("../public/app.css", import.meta.url), "utf8");

/** Builds the example app's routes on Hono. Every route answers a WHATWG Request. */
export function createApp(dependencies: AppDependencies): AppHono {
  const { config, database } = dependencies;
  const app: AppHono = new Hono();
  const overHttps = reachedOverHttps(config);
  const accounts = appAccounts({
    database,
    config,
    secretKeyBase: dependencies.secretKeyBase,
    mailer: dependencies.mailer,
    trackedSessions: dependencies.trackedSessions,
    overHttps,
    ...(dependencies.clock ? { clock: dependencies.clock } : {}),
  });
  const { users, bearer } = accounts;
  // Security headers go on every answer, the cross-site refusal and CORS preflights included.
  app.use(securityHeaders({ https: overHttps }));
  app.use(crossSiteProtection({ allowedOrigins: config.allowedOrigins }));
  app.use(clientAddress({ trustProxy: config.trustProxy }));
  app.use(cookieSession(accounts.sessions));
  mount(app, [
    ...accounts.routes,
    ...recordRoutes({
      database,
      storage: dependencies.storage,
      users,
      bearer,
      sessions: accounts.sessions,
      allowedOrigins: config.allowedOrigins,
      ...(dependencies.clock ? { clock: dependencies.clock } : {}),
    }),
    ...webhookRoutes(database, config),
    ...renderJobRoutes(dependencies.renderJobs, bearer, config),
  ]);

  app.get("/", async (context) => {
    const session = context.get("session");
    const user = await optionalUser(session, (id) => users.findById(id));
    return context.html(
      renderHomePage({ signedInEmail: user?.email, flashes: session.takeFlashes() }),
    );
  });
  app.get("/assets/app.css", (context) =>
    context.body(stylesheet, 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    }),
  );
  mountRichTextAssets(app);
  // A static JSON answer: liveness checks, and the baseline of the bearer benchmark.
  app.get("/api/health", (context) => context.json({ status: "ok" }));

  app.notFound((context) => context.json({ error: { message: "Not found", status: 404 } }, 404));
  app.onError(answerUnhandledError);
  return app;
}
