import type { User } from "@tessera/accounts";
import { type Clock, systemClock } from "@tessera/core";
import {
  attemptRateLimit,
  htmlPage,
  httpMessages,
  NO_STORE,
  type PageContext,
  type Route,
  readFormBody,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import type { OutboundWebhooks } from "@tessera/outbound";
import type { RateLimiter } from "@tessera/ratelimit";
import {
  type HtmlRouteContext,
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageSafety,
  requireUser,
} from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import { outboundMessages } from "./outbound-messages.js";
import { type EndpointForm, renderWebhooksPage } from "./views/webhooks-page.js";
import { endpointFieldMessages } from "./webhook-endpoint-fields.js";
import { APP_EVENT_TYPES } from "./webhook-endpoint-json.js";
import { WEBHOOK_REPLAY_RATE_LIMIT } from "./webhook-endpoint-routes.js";

/** Where the page lives, and where every action returns. */
export const WEBHOOKS_PATH = "/account/webhooks";

/** What the webhook pages are built from. */
export interface WebhookPagesOptions extends HtmlRouteSafety {
  readonly outbound: OutboundWebhooks<SqlDatabase>;
  readonly findUser: (id: number) => Promise<User | undefined>;
  /** Counts replays per user with the JSON route's, in `WEBHOOK_REPLAY_RATE_LIMIT`'s group. */
  readonly replayRateLimiter: RateLimiter;
  readonly clock?: Clock;
}

const EMPTY_FORM: EndpointForm = { url: "", description: "", events: [], errors: {} };
/** The most attempts read per endpoint: the chart's 24 hours, for a page that stays fast. */
const ATTEMPTS_READ = 500;

/**
 * `GET /account/webhooks` and its actions (add, enable, disable, rotate, remove, replay), for
 * the signed-in user: the app's layout, CSP nonces, the cross-site check and the session of
 * `pageSafety`; each action answers 303 to the page with a flash, another user's endpoint a
 * 404 page.
 */
export function webhookPageRoutes(options: WebhookPagesOptions): Route<MaybeSessionContext>[] {
  const { outbound } = options;
  const clock = options.clock ?? systemClock;
  const text = outboundMessages.text.bind(outboundMessages);

  function pageContext(context: HtmlRouteContext, user: User): PageContext {
    return {
      signedInEmail: user.email,
      flashes: context.session.takeFlashes(),
      cspNonce: context.cspNonce,
      ...(context.locale === undefined ? {} : { locale: context.locale }),
    };
  }

  async function page(
    context: HtmlRouteContext,
    user: User,
    status: number,
    form: EndpointForm,
    headers: Record<string, string> = {},
  ) {
    const endpoints = await Promise.all(
      (await outbound.listEndpoints(user.id)).map(async (endpoint) => ({
        endpoint,
        attempts: (await outbound.listAttempts(user.id, endpoint.id, ATTEMPTS_READ)) ?? [],
      })),
    );
    const html = renderWebhooksPage({
      context: pageContext(context, user),
      endpoints,
      eventTypes: APP_EVENT_TYPES,
      form,
      now: clock(),
    });
    // The page shows a new endpoint's secret once, in a flash: no copy in any cache.
    return htmlPage(status, html, { ...NO_STORE, ...headers });
  }

  /** Runs `act` for the signed-in user; a visitor is sent to sign in. */
  const signedIn =
    (act: (request: Request, context: HtmlRouteContext, user: User) => Promise<Response>) =>
    async (request: Request, context: HtmlRouteContext) => {
      const access = await requireUser(context.session, request, options.findUser, context.locale);
      return access.ok ? act(request, context, access.value) : access.response;
    };

  const done = (context: HtmlRouteContext, message: string) => {
    context.session.flash("notice", message);
    return seeOther(WEBHOOKS_PATH);
  };
  /** Another user's endpoint or message, or none: the page again, as a 404 with an alert. */
  const missing = (context: HtmlRouteContext, user: User) => {
    context.session.flash("alert", text(context.locale, "outbound.not_found"));
    return page(context, user, 404, EMPTY_FORM);
  };

  const endpointAction = (
    act: (user: User, id: string, context: HtmlRouteContext) => Promise<Response | undefined>,
  ) =>
    signedIn(async (_request, context, user) => {
      const answer = await act(user, context.params.id ?? "", context);
      return answer ?? missing(context, user);
    });

  const routes: Route<HtmlRouteContext>[] = [
    {
      method: "GET",
      path: WEBHOOKS_PATH,
      handle: signedIn((_request, context, user) => page(context, user, 200, EMPTY_FORM)),
    },
    {
      method: "POST",
      path: WEBHOOKS_PATH,
      handle: signedIn(async (request, context, user) => {
        const body = await readFormBody(request, { maximumBytes: 16 * 1024 });
        if (!body.ok) {
          context.session.flash("alert", body.message);
          return page(context, user, 400, EMPTY_FORM);
        }
        const events = body.value
          .getAll("events")
          .filter((event) => APP_EVENT_TYPES.includes(event));
        const form = {
          url: body.value.get("url") ?? "",
          description: body.value.get("description") ?? "",
          events,
        };
        const created = await outbound.createEndpoint(user.id, form);
        if (!created.ok && "endpointLimit" in created) {
          const maximum = created.endpointLimit;
          const message = text(context.locale, "outbound.endpoint_limit_reached", { maximum });
          context.session.flash("alert", message);
          return page(context, user, 409, { ...form, errors: {} });
        }
        if (!created.ok) {
          const errors = endpointFieldMessages(created.fields, context.locale);
          return page(context, user, 422, { ...form, errors });
        }
        context.session.flash("notice", text(context.locale, "outbound.added"));
        return done(
          context,
          text(context.locale, "outbound.secret_shown_once", { secret: created.value.secret }),
        );
      }),
    },
    ...(["enable", "disable"] as const).map((action) => ({
      method: "POST" as const,
      path: `${WEBHOOKS_PATH}/:id/${action}`,
      handle: endpointAction(async (user, id, context) => {
        const updated = await outbound.updateEndpoint(user.id, id, {
          enabled: action === "enable",
        });
        return updated?.ok ? done(context, text(context.locale, "outbound.updated")) : undefined;
      }),
    })),
    {
      method: "POST",
      path: `${WEBHOOKS_PATH}/:id/rotate_secret`,
      handle: endpointAction(async (user, id, context) => {
        const rotated = await outbound.rotateSecret(user.id, id);
        return (
          rotated &&
          done(
            context,
            text(context.locale, "outbound.secret_shown_once", { secret: rotated.secret }),
          )
        );
      }),
    },
    {
      method: "POST",
      path: `${WEBHOOKS_PATH}/:id/delete`,
      handle: endpointAction(async (user, id, context) =>
        (await outbound.deleteEndpoint(user.id, id))
          ? done(context, text(context.locale, "outbound.removed"))
          : undefined,
      ),
    },
    {
      method: "POST",
      path: `${WEBHOOKS_PATH}/messages/:id/replay`,
      handle: endpointAction(async (user, id, context) => {
        const { group } = WEBHOOK_REPLAY_RATE_LIMIT;
        const key = `user:${user.id}`;
        const wait = await attemptRateLimit(options.replayRateLimiter, group, [key]);
        if (wait !== undefined) {
          context.session.flash("alert", httpMessages.text(context.locale, "http.rate_limited"));
          return page(context, user, 429, EMPTY_FORM, { "Retry-After": String(wait) });
        }
        const replayed = await outbound.replayMessage(user.id, id);
        if (!replayed) return undefined;
        const pending = replayed.queued === 0 && replayed.alreadyPending > 0;
        return done(
          context,
          text(context.locale, pending ? "outbound.replay_pending" : "outbound.replayed"),
        );
      }),
    },
  ];
  return withMiddleware(routes, pageSafety(options));
}
