import { readFileSync } from "node:fs";
import { cspNonce, StaticPathRouter } from "@tessera/hono";
import { withLanguageHeaders } from "@tessera/http";
import type { Outbox } from "@tessera/outbox";
import { optionalUser, sessionPageContext } from "@tessera/session";
import { cookieSession } from "@tessera/session/hono";
import { Hono } from "hono";
import type { AppHono } from "./accounts.js";
import { chooseLocale } from "./locales/shipped-catalogs.js";
import { mountMailPreview } from "./mail-preview.js";
import { mountPasskeyAssets, PASSKEY_SCRIPTS } from "./passkey-assets.js";
import { mountRichTextAssets } from "./rich-text-assets.js";
import { type AppDependencies, mountService } from "./service.js";
import { staticAssetAnswer } from "./static-asset.js";
import { renderHomePage } from "./views/home.js";

export type { AppDependencies } from "./service.js";

/** What the Node app is built from: the service's dependencies, and its mail outbox. */
export interface NodeAppDependencies extends AppDependencies {
  /** The outbox account mails go through: the mail preview reads it (outside production). */
  readonly mailOutbox?: Outbox<unknown>;
}

const stylesheet = readFileSync(new URL("../public/app.css", import.meta.url), "utf8");

/**
 * Builds the example app on Hono: the service (see service.ts) with its home page, stylesheet
 * and rich-text editor assets, which it reads from files, and its GraphQL operations compiled
 * by graphql-jit (Node may generate code; loaded with the rest of GraphQL by the first
 * operation), and the mail preview outside production. Every route
 * answers a WHATWG Request.
 */
export function createApp(dependencies: NodeAppDependencies): AppHono {
  // Static paths (/api/health, /api/auth/me) are matched from memory (see StaticPathRouter).
  const app: AppHono = new Hono({ router: new StaticPathRouter() });
  const { mailOutbox, ...serviceDependencies } = dependencies;
  const service = mountService(app, {
    loadGraphqlCompiler: async () => (await import("graphql-jit")).compileQuery,
    passkeyScripts: PASSKEY_SCRIPTS,
    ...serviceDependencies,
  });
  if (mailOutbox) {
    mountMailPreview(app, {
      outbox: mailOutbox,
      service,
      production: dependencies.config.production,
    });
  }
  app.get("/", cookieSession(service.sessions), async (context) => {
    const session = context.get("session");
    const user = await optionalUser(session, service.findUser);
    const locale = chooseLocale(context.req.raw);
    const page = renderHomePage(
      sessionPageContext({ session, cspNonce: cspNonce(context), locale }, user?.email),
    );
    return withLanguageHeaders(context.html(page), locale);
  });
  app.get("/assets/app.css", () => staticAssetAnswer(stylesheet, "text/css; charset=utf-8"));
  mountRichTextAssets(app);
  mountPasskeyAssets(app);
  return app;
}
