import { readFileSync } from "node:fs";
import type { SqlDatabase } from "@tessera/sqlite";
import { Hono } from "hono";
import { mountJsonAccountRoutes } from "./accounts.js";
import type { AppConfig } from "./config.js";
import { securityMiddleware } from "./security-middleware.js";
import { renderHomePage } from "./views/home.js";
import { mountWebhooks } from "./webhooks.js";

/** What the app is built from: its settings and its open database. */
export interface AppDependencies {
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  readonly database: SqlDatabase;
}

const stylesheet = readFileSync(new URL("../public/app.css", import.meta.url), "utf8");

/** Builds the example app's routes on Hono. Every route answers a WHATWG Request. */
export function createApp(dependencies: AppDependencies): Hono {
  const app = new Hono();
  app.use(securityMiddleware({ allowedOrigins: dependencies.config.allowedOrigins }));

  app.get("/", (context) => context.html(renderHomePage()));
  app.get("/assets/app.css", (context) =>
    context.body(stylesheet, 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    }),
  );
  // A static JSON answer: liveness checks, and the baseline of the bearer benchmark.
  app.get("/api/health", (context) => context.json({ status: "ok" }));

  mountJsonAccountRoutes(app, {
    database: dependencies.database,
    secretKeyBase: dependencies.secretKeyBase,
    secretKeyBasePrevious: dependencies.config.secretKeyBasePrevious,
    trustProxy: dependencies.config.trustProxy,
  });

  mountWebhooks(app, dependencies.database, dependencies.config);

  app.notFound((context) => context.json({ error: { message: "Not found", status: 404 } }, 404));
  return app;
}
