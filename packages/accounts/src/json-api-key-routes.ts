import { type ApiKeyStore, apiKeyJson, createApiKey } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import {
  badRequest,
  notFound,
  pathId,
  type Route,
  type RouteHandler,
  readJsonBody,
  unauthorized,
  validationFailed,
} from "@tessera/http";
import { requireStrings } from "./json-input.js";
import type { BearerAuthentication } from "./json-routes-options.js";

/** What the API key routes are built from. */
export interface JsonApiKeyRoutesOptions {
  readonly apiKeys: ApiKeyStore;
  readonly bearer: BearerAuthentication;
  readonly clock?: Clock;
}

const BEARER_CHALLENGE = { "WWW-Authenticate": "Bearer" };

/**
 * The API key routes; every one requires a bearer token:
 * - `GET /api/auth/keys`: the bearer's keys, newest first, without secrets or digests;
 * - `POST /api/auth/keys`: 201 with `key` (the secret, shown this once) and `api_key`; 400 for
 *   a missing or non-string `name` (a malformed body); 422 for a blank or too long one;
 * - `DELETE /api/auth/keys/:id`: 204; 404 when the bearer has no key with this id (another
 *   user's key included).
 */
export function jsonApiKeyRoutes(options: JsonApiKeyRoutesOptions): Route[] {
  const handlers = {
    async listKeys(request) {
      const authenticated = await options.bearer.authenticate(request);
      if (!authenticated.ok) return unauthorized(BEARER_CHALLENGE);
      const keys = await options.apiKeys.listForUser(authenticated.value.user.id);
      return Response.json(keys.map(apiKeyJson));
    },

    async createKey(request) {
      const authenticated = await options.bearer.authenticate(request);
      if (!authenticated.ok) return unauthorized(BEARER_CHALLENGE);
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const input = requireStrings(body.value, ["name"]);
      if (!input.ok) return badRequest(input.message);
      const created = await createApiKey(
        options.apiKeys,
        { userId: authenticated.value.user.id, name: input.value.name },
        options.clock,
      );
      if (!created.ok) return validationFailed(created.fields);
      return Response.json(created.value, { status: 201 });
    },

    async deleteKey(request, context) {
      const authenticated = await options.bearer.authenticate(request);
      if (!authenticated.ok) return unauthorized(BEARER_CHALLENGE);
      const id = pathId(context.params.id);
      if (id === undefined) return notFound();
      const deleted = await options.apiKeys.deleteForUser(authenticated.value.user.id, id);
      return deleted ? new Response(null, { status: 204 }) : notFound();
    },
  } satisfies Record<string, RouteHandler>;

  return [
    { method: "GET", path: "/api/auth/keys", handle: handlers.listKeys },
    { method: "POST", path: "/api/auth/keys", handle: handlers.createKey },
    { method: "DELETE", path: "/api/auth/keys/:id", handle: handlers.deleteKey },
  ];
}
