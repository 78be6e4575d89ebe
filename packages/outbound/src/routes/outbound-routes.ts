import type { Locale } from "@tessera/core";
import {
  type AttemptCounter,
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
import type { FieldErrors } from "../endpoint-input.js";
import type { OutboundWebhooks } from "../outbound-webhooks.js";
import { readEndpointBody } from "./endpoint-body.js";
import { endpointFieldMessages } from "./endpoint-field-messages.js";
import { webhookAttemptJson, webhookEndpointJson } from "./endpoint-json.js";
import type { EndpointOwner, EndpointOwnerResolver } from "./endpoint-owner.js";
import { type EventTypeDescription, eventTypeNames } from "./event-type-catalog.js";
import { outboundMessages } from "./outbound-messages.js";
import { testEventRoute } from "./test-event-route.js";

/**
 * The code of the 409 a create answers when the owner already has the most endpoints allowed:
 * no value of a field would pass (so not a 422), and removing an endpoint would (so not a 403).
 */
export const ENDPOINT_LIMIT_REACHED = "endpoint_limit_reached";

/** The largest endpoint body: a 2,048-character URL, a 1,000-character description, events. */
export const MAXIMUM_ENDPOINT_BODY_BYTES = 16 * 1024;

/**
 * The rate limit of the endpoint routes that change something, per owner: registering or
 * changing a URL resolves its host, and a test sends a request, which a client must not make
 * the app do without end.
 */
export const WEBHOOK_ENDPOINT_RATE_LIMIT = {
  group: "webhook_endpoints",
  limit: 30,
  windowMs: 60_000,
};

/**
 * The rate limit of replays, per owner, the JSON route's and the page's together: each replay
 * is a request to every endpoint that takes the message.
 */
export const WEBHOOK_REPLAY_RATE_LIMIT = {
  group: "webhook_replays",
  limit: 10,
  windowMs: 60_000,
};

/** What the webhook endpoint routes are built from. */
export interface OutboundRoutesOptions<C extends RouteContext = RouteContext> {
  readonly webhooks: OutboundWebhooks<unknown>;
  /** Whose endpoints a request acts on: `userEndpointOwner(bearerAuthentication(bearer))`. */
  readonly owner: EndpointOwnerResolver<C>;
  /** The events the app sends: what an endpoint's `events` may name, and what `test` sends. */
  readonly eventTypes: readonly EventTypeDescription[];
  /** Counts the changes per owner in {@link WEBHOOK_ENDPOINT_RATE_LIMIT}'s group. */
  readonly rateLimiter: AttemptCounter;
  /**
   * Counts the replays per owner in {@link WEBHOOK_REPLAY_RATE_LIMIT}'s group, at its limit
   * (default `rateLimiter`, at that one's limit).
   */
  readonly replayRateLimiter?: AttemptCounter | undefined;
  /**
   * What the paths start with: `/api` (the default) serves `/api/webhook_endpoints` and
   * `/api/webhook_messages/{id}/replay`; `/api/orgs/:slug` serves an organization's.
   */
  readonly basePath?: string | undefined;
}

/** A request the owner resolver let through. */
export type OwnerContext<C extends RouteContext = RouteContext> = C & {
  readonly owner: EndpointOwner;
};

const tooLarge = (_request: Request, _context: RouteContext, maximumBytes: number) =>
  badRequest(`${JSON_BODY_FAILURE_PREFIX}the body is larger than ${maximumBytes} bytes`);

/** The package's field errors as a 422 in `locale`. */
const fieldRefusal = (fields: FieldErrors, locale: Locale | undefined) =>
  validationFailed(endpointFieldMessages(fields, locale), locale);

/**
 * The JSON routes of an owner's webhook endpoints: create (201 with the secret, shown this
 * once), list and show (never a secret), change, delete, rotate the secret, the attempt log, a
 * test event, and the replay of a message. Another owner's endpoint or message is a 404 like a
 * missing one; a URL the SSRF guard refuses is a 422 on `url`.
 */
export function outboundRoutes<C extends RouteContext = RouteContext>(
  options: OutboundRoutesOptions<C>,
): Route<C>[] {
  const { webhooks } = options;
  const eventNames = eventTypeNames(options.eventTypes);

  async function endpointBody(request: Request, creating: boolean, locale: Locale | undefined) {
    const body = await readJsonBody(request, { maximumBytes: MAXIMUM_ENDPOINT_BODY_BYTES });
    if (!body.ok) return { ok: false as const, response: body.response };
    const read = readEndpointBody(body.value, creating, eventNames, locale);
    if (read.ok) return read;
    return {
      ok: false as const,
      response:
        read.status === 400 ? badRequest(read.message) : validationFailed(read.fields, locale),
    };
  }

  const reads = {
    async list(_request, { owner, locale }) {
      const endpoints = await webhooks.listEndpoints(owner.id);
      return jsonAnswer(endpoints.map(webhookEndpointJson), { locale });
    },

    async show(_request, { owner, params, locale }) {
      const endpoint = await webhooks.findEndpoint(owner.id, params.id ?? "");
      return endpoint ? jsonAnswer(webhookEndpointJson(endpoint), { locale }) : notFound(locale);
    },

    async attempts(_request, { owner, params, locale }) {
      const attempts = await webhooks.listAttempts(owner.id, params.id ?? "");
      return attempts ? jsonAnswer(attempts.map(webhookAttemptJson), { locale }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<OwnerContext<C>>>;

  const writes = {
    async create(request, { owner, locale }) {
      const body = await endpointBody(request, true, locale);
      if (!body.ok) return body.response;
      const created = await webhooks.createEndpoint(owner.id, body.input);
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

    async update(request, { owner, params, locale }) {
      // Found first, so a body sent for another owner's endpoint is a 404 as well.
      const id = params.id ?? "";
      if (!(await webhooks.findEndpoint(owner.id, id))) return notFound(locale);
      const body = await endpointBody(request, false, locale);
      if (!body.ok) return body.response;
      const updated = await webhooks.updateEndpoint(owner.id, id, body.input);
      if (!updated) return notFound(locale);
      if (!updated.ok) return fieldRefusal(updated.fields, locale);
      return jsonAnswer(webhookEndpointJson(updated.value), { locale });
    },

    async remove(_request, { owner, params, locale }) {
      const deleted = await webhooks.deleteEndpoint(owner.id, params.id ?? "");
      return deleted ? new Response(null, { status: 204 }) : notFound(locale);
    },

    async rotate(_request, { owner, params, locale }) {
      const rotated = await webhooks.rotateSecret(owner.id, params.id ?? "");
      if (!rotated) return notFound(locale);
      return jsonAnswer({ secret: rotated.secret }, { locale, headers: NO_STORE });
    },

    async replay(_request, { owner, params, locale }) {
      const replayed = await webhooks.replayMessage(owner.id, params.id ?? "");
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
  } satisfies Record<string, RouteHandler<OwnerContext<C>>>;

  const ownerOnly = authenticated<{ readonly owner: EndpointOwner }, C>(options.owner);
  const perOwner = (limiter: AttemptCounter, group: string) =>
    rateLimit<OwnerContext<C>>({
      limiter,
      group,
      key: (_request, { owner }) => owner.rateLimitKey,
    });
  const limitedBody = bodyLimit<OwnerContext<C>>({
    maximumBytes: MAXIMUM_ENDPOINT_BODY_BYTES,
    refusal: tooLarge,
  });
  const base = options.basePath ?? "/api";
  const path = `${base}/webhook_endpoints`;
  return [
    ...withMiddleware(
      [
        { method: "GET", path, handle: reads.list },
        { method: "GET", path: `${path}/:id`, handle: reads.show },
        { method: "GET", path: `${path}/:id/attempts`, handle: reads.attempts },
      ],
      ownerOnly,
    ),
    ...withMiddleware(
      [
        { method: "POST", path, handle: writes.create },
        { method: "PATCH", path: `${path}/:id`, handle: writes.update },
        { method: "DELETE", path: `${path}/:id`, handle: writes.remove },
        { method: "POST", path: `${path}/:id/rotate_secret`, handle: writes.rotate },
        {
          method: "POST",
          path: `${path}/:id/test`,
          handle: testEventRoute<OwnerContext<C>>(webhooks, options.eventTypes),
        },
      ],
      // The owner first: a request without credentials is a 401 and counts against no one.
      ownerOnly,
      perOwner(options.rateLimiter, WEBHOOK_ENDPOINT_RATE_LIMIT.group),
      limitedBody,
    ),
    ...withMiddleware(
      [{ method: "POST", path: `${base}/webhook_messages/:id/replay`, handle: writes.replay }],
      ownerOnly,
      perOwner(options.replayRateLimiter ?? options.rateLimiter, WEBHOOK_REPLAY_RATE_LIMIT.group),
      limitedBody,
    ),
  ];
}

/**
 * `GET /api/webhook_event_types`: the catalog of the events the app sends, each with the JSON
 * Schema of its `data` (`[{"name","description","schema"}]`). Public, like the OpenAPI
 * document: it says what the app sends, not what anyone received.
 */
export function webhookEventTypesRoute(eventTypes: readonly EventTypeDescription[]): Route {
  const catalog = eventTypes.map(({ name, description, schema }) => ({
    name,
    description,
    schema,
  }));
  return {
    method: "GET",
    path: "/api/webhook_event_types",
    handle: async (_request, { locale }) => jsonAnswer(catalog, { locale }),
  };
}
