import type { User } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import type { Locale } from "@tessera/core";
import {
  authenticated,
  badRequest,
  bodyLimit,
  JSON_BODY_FAILURE_PREFIX,
  jsonAnswer,
  jsonError,
  NO_STORE,
  notFound,
  type Route,
  type RouteContext,
  type RouteHandler,
  rateLimit,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import type { FieldErrors, OutboundWebhooks } from "@tessera/outbound";
import type { RateLimiter } from "@tessera/ratelimit";
import type { SqlDatabase } from "@tessera/sql";
import { outboundMessages } from "./outbound-messages.js";
import { endpointFieldMessages } from "./webhook-endpoint-fields.js";
import { readEndpointBody } from "./webhook-endpoint-input.js";
import { webhookAttemptJson, webhookEndpointJson } from "./webhook-endpoint-json.js";

/**
 * The code of the 409 a create answers when the user already has `OUTBOUND_MAX_ENDPOINTS`: no
 * value of a field would pass (so not a 422), and removing an endpoint would (so not a 403).
 */
export const ENDPOINT_LIMIT_REACHED = "endpoint_limit_reached";

/** The largest endpoint body: a 2,048-character URL, a 1,000-character description, events. */
export const MAXIMUM_ENDPOINT_BODY_BYTES = 16 * 1024;

/**
 * The rate limit of the endpoint routes that change something, per user: registering or
 * changing a URL resolves its host, which a client must not make the app do without end.
 */
export const WEBHOOK_ENDPOINT_RATE_LIMIT = {
  group: "webhook_endpoints",
  limit: 30,
  windowMs: 60_000,
};

/**
 * The rate limit of replays, per user, the JSON route's and the page's together: each replay
 * is a request to every endpoint that takes the message.
 */
export const WEBHOOK_REPLAY_RATE_LIMIT = {
  group: "webhook_replays",
  limit: 10,
  windowMs: 60_000,
};

/** What the webhook endpoint routes are built from. */
export interface WebhookEndpointRoutesOptions {
  readonly outbound: OutboundWebhooks<SqlDatabase>;
  readonly bearer: BearerAuthenticator<User>;
  /** Counts the changes per user in {@link WEBHOOK_ENDPOINT_RATE_LIMIT}'s group. */
  readonly rateLimiter: RateLimiter;
  /**
   * Counts the replays per user in {@link WEBHOOK_REPLAY_RATE_LIMIT}'s group, at its limit
   * (default `rateLimiter`, at that one's limit).
   */
  readonly replayRateLimiter?: RateLimiter;
}

type BearerContext = RouteContext & { readonly user: User };

const tooLarge = (_request: Request, _context: RouteContext, maximumBytes: number) =>
  badRequest(`${JSON_BODY_FAILURE_PREFIX}the body is larger than ${maximumBytes} bytes`);

/** The package's field errors as a 422 in `locale`. */
const fieldRefusal = (fields: FieldErrors, locale: Locale | undefined) =>
  validationFailed(endpointFieldMessages(fields, locale), locale);

/**
 * The bearer JSON routes of a user's webhook endpoints (docs/routes.md): create (201 with the
 * secret, shown this once), list and show (never a secret), change, delete, rotate the secret,
 * the attempt log, and the replay of a message. Another user's endpoint or message is a 404
 * like a missing one; a URL the SSRF guard refuses is a 422 on `url`.
 */
export function webhookEndpointRoutes(options: WebhookEndpointRoutesOptions): Route[] {
  const { outbound } = options;

  async function endpointBody(request: Request, creating: boolean, locale: Locale | undefined) {
    const body = await readJsonBody(request, { maximumBytes: MAXIMUM_ENDPOINT_BODY_BYTES });
    if (!body.ok) return { ok: false as const, response: body.response };
    const read = readEndpointBody(body.value, creating, locale);
    if (read.ok) return read;
    return {
      ok: false as const,
      response:
        read.status === 400 ? badRequest(read.message) : validationFailed(read.fields, locale),
    };
  }

  const reads = {
    async list(_request, { user, locale }) {
      const endpoints = await outbound.listEndpoints(user.id);
      return jsonAnswer(endpoints.map(webhookEndpointJson), { locale });
    },

    async show(_request, { user, params, locale }) {
      const endpoint = await outbound.findEndpoint(user.id, params.id ?? "");
      return endpoint ? jsonAnswer(webhookEndpointJson(endpoint), { locale }) : notFound(locale);
    },

    async attempts(_request, { user, params, locale }) {
      const attempts = await outbound.listAttempts(user.id, params.id ?? "");
      return attempts ? jsonAnswer(attempts.map(webhookAttemptJson), { locale }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<BearerContext>>;

  const writes = {
    async create(request, { user, locale }) {
      const body = await endpointBody(request, true, locale);
      if (!body.ok) return body.response;
      const created = await outbound.createEndpoint(user.id, body.input);
      if (!created.ok && "endpointLimit" in created) {
        const message = outboundMessages.text(locale, "outbound.endpoint_limit_reached", {
          maximum: created.endpointLimit,
        });
        return jsonError(409, message, { code: ENDPOINT_LIMIT_REACHED, locale });
      }
      if (!created.ok) return fieldRefusal(created.fields, locale);
      const { endpoint, secret } = created.value;
      const answer = { ...webhookEndpointJson(endpoint), secret };
      return jsonAnswer(answer, { status: 201, locale, headers: NO_STORE });
    },

    async update(request, { user, params, locale }) {
      // Found first, so a body sent for another user's endpoint is a 404 as well.
      const id = params.id ?? "";
      if (!(await outbound.findEndpoint(user.id, id))) return notFound(locale);
      const body = await endpointBody(request, false, locale);
      if (!body.ok) return body.response;
      const updated = await outbound.updateEndpoint(user.id, id, body.input);
      if (!updated) return notFound(locale);
      if (!updated.ok) return fieldRefusal(updated.fields, locale);
      return jsonAnswer(webhookEndpointJson(updated.value), { locale });
    },

    async remove(_request, { user, params, locale }) {
      const deleted = await outbound.deleteEndpoint(user.id, params.id ?? "");
      return deleted ? new Response(null, { status: 204 }) : notFound(locale);
    },

    async rotate(_request, { user, params, locale }) {
      const rotated = await outbound.rotateSecret(user.id, params.id ?? "");
      if (!rotated) return notFound(locale);
      return jsonAnswer({ secret: rotated.secret }, { locale, headers: NO_STORE });
    },

    async replay(_request, { user, params, locale }) {
      const replayed = await outbound.replayMessage(user.id, params.id ?? "");
      if (replayed === undefined) {
        const message = outboundMessages.text(locale, "outbound.message_not_found");
        return jsonError(404, message, { locale });
      }
      const answer = {
        message_id: params.id,
        endpoints: replayed.queued,
        already_pending: replayed.alreadyPending,
      };
      return jsonAnswer(answer, { status: 202, locale });
    },
  } satisfies Record<string, RouteHandler<BearerContext>>;

  const signedIn = authenticated<{ readonly user: User }>(bearerAuthentication(options.bearer));
  const perUser = (limiter: RateLimiter, group: string) =>
    rateLimit<BearerContext>({ limiter, group, key: (_request, { user }) => `user:${user.id}` });
  const path = "/api/webhook_endpoints";
  return [
    ...withMiddleware(
      [
        { method: "GET", path, handle: reads.list },
        { method: "GET", path: `${path}/:id`, handle: reads.show },
        { method: "GET", path: `${path}/:id/attempts`, handle: reads.attempts },
      ],
      signedIn,
    ),
    ...withMiddleware(
      [
        { method: "POST", path, handle: writes.create },
        { method: "PATCH", path: `${path}/:id`, handle: writes.update },
        { method: "DELETE", path: `${path}/:id`, handle: writes.remove },
        { method: "POST", path: `${path}/:id/rotate_secret`, handle: writes.rotate },
      ],
      // The bearer first: a request without one is a 401 and counts against no one.
      signedIn,
      perUser(options.rateLimiter, WEBHOOK_ENDPOINT_RATE_LIMIT.group),
      bodyLimit<BearerContext>({ maximumBytes: MAXIMUM_ENDPOINT_BODY_BYTES, refusal: tooLarge }),
    ),
    ...withMiddleware(
      [{ method: "POST", path: "/api/webhook_messages/:id/replay", handle: writes.replay }],
      signedIn,
      perUser(options.replayRateLimiter ?? options.rateLimiter, WEBHOOK_REPLAY_RATE_LIMIT.group),
      bodyLimit<BearerContext>({ maximumBytes: MAXIMUM_ENDPOINT_BODY_BYTES, refusal: tooLarge }),
    ),
  ];
}
