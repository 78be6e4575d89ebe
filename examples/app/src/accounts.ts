import { jsonAccountRoutes, jsonApiKeyRoutes, nameColumn, type User } from "@tessera/accounts";
import { createBearerAuthenticator, createJwtIssuer } from "@tessera/bearer";
import { createRateLimiter } from "@tessera/ratelimit";
import {
  type SqlDatabase,
  SqliteApiKeyStore,
  SqliteRateLimitStore,
  SqliteUserStore,
} from "@tessera/sqlite";
import type { Context, Hono } from "hono";
import { requestContext } from "./request-context.js";

/** What the account routes are wired from. */
export interface AccountWiring {
  readonly database: SqlDatabase;
  readonly secretKeyBase: string;
  readonly secretKeyBasePrevious: string | undefined;
  readonly trustProxy: number;
}

/** The operator columns of this app's `users` table. */
export const operatorColumns = [nameColumn];

/** Mounts the spec's JSON account routes (`/api/auth/*`) on the app. */
export function mountJsonAccountRoutes(app: Hono, wiring: AccountWiring): void {
  const users = new SqliteUserStore(
    wiring.database,
    operatorColumns.map((column) => column.name),
  );
  const apiKeys = new SqliteApiKeyStore(wiring.database);
  const jwt = createJwtIssuer({
    secrets: { current: wiring.secretKeyBase, previous: wiring.secretKeyBasePrevious },
  });
  const bearer = createBearerAuthenticator<User>({
    jwt,
    apiKeys,
    findUser: (id) => users.findById(id),
  });
  const rateLimiter = createRateLimiter({ store: new SqliteRateLimitStore(wiring.database) });
  const accounts = jsonAccountRoutes({ users, operatorColumns, tokens: jwt, bearer, rateLimiter });
  const keys = jsonApiKeyRoutes({ apiKeys, bearer });
  const context = (c: Context) => requestContext(c, wiring.trustProxy);

  app.post("/api/auth/signup", (c) => accounts.signup(c.req.raw, context(c)));
  app.post("/api/auth/token", (c) => accounts.token(c.req.raw, context(c)));
  app.get("/api/auth/me", (c) => accounts.me(c.req.raw, context(c)));
  app.delete("/api/auth/me", (c) => accounts.deleteMe(c.req.raw, context(c)));
  app.get("/api/auth/keys", (c) => keys.listKeys(c.req.raw, context(c)));
  app.post("/api/auth/keys", (c) => keys.createKey(c.req.raw, context(c)));
  app.delete("/api/auth/keys/:id", (c) => keys.deleteKey(c.req.raw, context(c), c.req.param("id")));
}
