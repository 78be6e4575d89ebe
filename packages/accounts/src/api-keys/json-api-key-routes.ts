import { type ApiKeyStore, apiKeyJson, createApiKey } from "@tessera/bearer";
import { type Clock, localizeFieldMessages, systemClock } from "@tessera/core";
import {
  badRequest,
  jsonAnswer,
  NO_STORE,
  notFound,
  pathId,
  type Route,
  type RouteContext,
  type RouteHandler,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import type { AccountEvents } from "../account-hooks.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { requireStrings } from "../json-input.js";
import type { BearerAuthentication } from "../json-routes-options.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import { notWhileImpersonating, recentSignInRequired } from "../sign-in/recent-sign-in-refusal.js";

/** What the API key routes are built from. */
export interface JsonApiKeyRoutesOptions {
  readonly apiKeys: ApiKeyStore;
  readonly bearer: BearerAuthentication;
  readonly clock?: Clock | undefined;
  /** The users' second factors: a new key then needs a sign-in with the second factor too. */
  readonly secondFactors?: SecondFactors | undefined;
  /** Where a key made or deleted is recorded (the audit trail); default: nowhere. */
  readonly events?: AccountEvents | undefined;
}

/**
 * The API key routes; every one requires a bearer token:
 * - `GET /api/auth/keys`: the bearer's keys, newest first, without secrets or digests;
 * - `POST /api/auth/keys`: 201 with `key` (the secret, shown this once) and `api_key`; 400 for
 *   a missing or non-string `name` (a malformed body); 422 for a blank or too long one; 403
 *   for an API key or a token without a recent, full sign-in (a key is a credential);
 * - `DELETE /api/auth/keys/:id`: 204; 404 when the bearer has no key with this id (another
 *   user's key included).
 */
export function jsonApiKeyRoutes(options: JsonApiKeyRoutesOptions): Route[] {
  const handlers = {
    async listKeys(_request, { user, locale }) {
      const keys = await options.apiKeys.listForUser(user.id);
      return jsonAnswer(keys.map(apiKeyJson), { locale });
    },

    async createKey(request, context) {
      const { user, locale } = context;
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const input = requireStrings(body.value, ["name"]);
      if (!input.ok) return badRequest(input.message);
      const created = await createApiKey(
        options.apiKeys,
        { userId: user.id, name: input.value.name },
        options.clock,
      );
      if (!created.ok)
        return validationFailed(localizeFieldMessages(created.fields, locale), locale);
      await options.events?.audited(
        "user.api_key_created",
        user.id,
        { ...context, request },
        {
          details: { api_key_id: created.value.api_key.id, name: created.value.api_key.name },
        },
      );
      return jsonAnswer(created.value, { status: 201, locale, headers: NO_STORE });
    },

    async deleteKey(request, context) {
      const { params, user, locale } = context;
      const id = pathId(params.id);
      if (id === undefined) return notFound(locale);
      const deleted = await options.apiKeys.deleteForUser(user.id, id);
      if (!deleted) return notFound(locale);
      await options.events?.audited(
        "user.api_key_deleted",
        user.id,
        { ...context, request },
        {
          details: { api_key_id: id },
        },
      );
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<RouteContext & BearerUserContext>>;

  const recent = { clock: options.clock ?? systemClock, secondFactors: options.secondFactors };
  return [
    ...withMiddleware(
      [{ method: "GET", path: "/api/auth/keys", handle: handlers.listKeys }],
      bearerUser(options.bearer),
    ),
    ...withMiddleware(
      [{ method: "DELETE", path: "/api/auth/keys/:id", handle: handlers.deleteKey }],
      bearerUser(options.bearer),
      notWhileImpersonating(),
    ),
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/keys", handle: handlers.createKey }],
      bearerUser(options.bearer),
      recentSignInRequired(recent),
    ),
  ];
}
