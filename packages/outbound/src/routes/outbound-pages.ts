import { type Clock, systemClock } from "@tessera/core";
import {
  type AttemptCounter,
  type Authenticate,
  attemptRateLimit,
  filledPath,
  htmlPage,
  httpMessages,
  type Layout,
  NO_STORE,
  type PageContext,
  type Route,
  type RouteMiddleware,
  readFormBody,
  retryAfter,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import {
  type HtmlRouteContext,
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageSafety,
  sessionPageContext,
} from "@tessera/session";
import type { OutboundWebhooks } from "../outbound-webhooks.js";
import { endpointFieldMessages } from "./endpoint-field-messages.js";
import type { EndpointOwner, EndpointOwnerResolver } from "./endpoint-owner.js";
import { type EventTypeDescription, eventTypeNames } from "./event-type-catalog.js";
import { outboundMessages } from "./outbound-messages.js";
import { WEBHOOK_REPLAY_RATE_LIMIT } from "./outbound-routes.js";
import { ownerRefusalPage } from "./owner-refusal-page.js";
import { type EndpointForm, renderWebhooksPage } from "./webhooks-page.js";

/** Where the page lives by default, and where every action returns. */
export const WEBHOOKS_PAGE_PATH = "/account/webhooks";

/** What the webhook pages are built from. */
export interface OutboundPagesOptions extends HtmlRouteSafety {
  readonly webhooks: OutboundWebhooks<unknown>;
  /**
   * Whose endpoints the page shows: `userEndpointOwner(sessionAuthentication(findUser))`, or an
   * organization's (`organizationOwner` of `@tessera/organizations/routes`, its `authenticate`
   * the same session one, with a `path` under `:slug`). Its redirect (to sign in) is the answer;
   * its error, a JSON envelope (a 404 to a non-member, a 403 naming the permission), is answered
   * as a page of the same status with the envelope's message; give `signedIn` (the same
   * `sessionAuthentication(findUser)`) for that page's header.
   */
  readonly owner: EndpointOwnerResolver<HtmlRouteContext>;
  /**
   * Who is signed in (`sessionAuthentication(findUser)`), asked only for the header of the page
   * an error of `owner` becomes; without it, that page has a visitor's header.
   */
  readonly signedIn?:
    | Authenticate<{ readonly user: { readonly email: string } }, HtmlRouteContext>
    | undefined;
  /** The events the app sends: the form's checkboxes. */
  readonly eventTypes: readonly EventTypeDescription[];
  /** The app's page frame. */
  readonly layout: Layout;
  /** Counts replays per owner with the JSON route's, in `WEBHOOK_REPLAY_RATE_LIMIT`'s group. */
  readonly replayRateLimiter: AttemptCounter;
  /**
   * The page's path (default {@link WEBHOOKS_PAGE_PATH}); its actions live under it. It may hold
   * parameters the owner resolver reads (`/orgs/:slug/webhooks`): the page's links, forms and
   * redirects fill them from the request's path.
   */
  readonly path?: string | undefined;
  readonly clock?: Clock | undefined;
}

type OwnerPageContext = HtmlRouteContext & { readonly owner: EndpointOwner };

const EMPTY_FORM: EndpointForm = { url: "", description: "", events: [], errors: {} };
/** The most attempts read per endpoint: the chart's 24 hours, for a page that stays fast. */
const ATTEMPTS_READ = 500;
/** The add form's largest body: a URL, a description and the event checkboxes. */
const MAXIMUM_FORM_BYTES = 16 * 1024;

/**
 * The webhooks page (`GET /account/webhooks`) and its actions (add, enable, disable, rotate,
 * remove, replay), for the owner the resolver gives: the app's layout, CSP nonces, the
 * cross-site check and the session of `pageSafety`; each action answers 303 to the page with a
 * flash, another owner's endpoint a 404 page. The resolver's refusal is a page too (see
 * {@link OutboundPagesOptions.owner}).
 */
export function outboundPages(options: OutboundPagesOptions): Route<MaybeSessionContext>[] {
  const { webhooks } = options;
  const clock = options.clock ?? systemClock;
  const pathPattern = options.path ?? WEBHOOKS_PAGE_PATH;
  /** Where this request's page is: the pattern with the request's parameters. */
  const pagePathOf = (context: OwnerPageContext) => filledPath(pathPattern, context.params);
  const eventNames = eventTypeNames(options.eventTypes);
  const text = outboundMessages.text.bind(outboundMessages);

  const pageContext = (context: OwnerPageContext): PageContext =>
    sessionPageContext(context, context.owner.signedInEmail);

  async function page(
    context: OwnerPageContext,
    status: number,
    form: EndpointForm,
    headers: Record<string, string> = {},
  ) {
    const ownerId = context.owner.id;
    const endpoints = await Promise.all(
      (await webhooks.listEndpoints(ownerId)).map(async (endpoint) => ({
        endpoint,
        attempts: (await webhooks.listAttempts(ownerId, endpoint.id, ATTEMPTS_READ)) ?? [],
      })),
    );
    const html = renderWebhooksPage({
      layout: options.layout,
      pagePath: pagePathOf(context),
      context: pageContext(context),
      endpoints,
      eventTypes: eventNames,
      form,
      now: clock(),
    });
    // The page shows a new endpoint's secret once, in a flash: no copy in any cache.
    return htmlPage(status, html, { ...NO_STORE, ...headers });
  }

  const done = (context: OwnerPageContext, message: string) => {
    context.session.flash("notice", message);
    return seeOther(pagePathOf(context));
  };
  /** Another owner's endpoint or message, or none: the page again, as a 404 with an alert. */
  const missing = (context: OwnerPageContext) => {
    context.session.flash("alert", text(context.locale, "outbound.not_found"));
    return page(context, 404, EMPTY_FORM);
  };

  const endpointAction =
    (act: (id: string, context: OwnerPageContext) => Promise<Response | undefined>) =>
    async (_request: Request, context: OwnerPageContext) => {
      const answer = await act(context.params.id ?? "", context);
      return answer ?? missing(context);
    };

  async function addEndpoint(request: Request, context: OwnerPageContext) {
    const body = await readFormBody(request, { maximumBytes: MAXIMUM_FORM_BYTES });
    if (!body.ok) {
      context.session.flash("alert", body.message);
      return page(context, 400, EMPTY_FORM);
    }
    const events = body.value.getAll("events").filter((event) => eventNames.includes(event));
    const form = {
      url: body.value.get("url") ?? "",
      description: body.value.get("description") ?? "",
      events,
    };
    const created = await webhooks.createEndpoint(context.owner.id, form);
    if (!created.ok && "endpointLimit" in created) {
      const maximum = created.endpointLimit;
      const message = text(context.locale, "outbound.endpoint_limit_reached", { maximum });
      context.session.flash("alert", message);
      return page(context, 409, { ...form, errors: {} });
    }
    if (!created.ok) {
      const errors = endpointFieldMessages(created.fields, context.locale);
      return page(context, 422, { ...form, errors });
    }
    context.session.flash("notice", text(context.locale, "outbound.added"));
    const secret = created.value.secret;
    return done(context, text(context.locale, "outbound.secret_shown_once", { secret }));
  }

  async function replay(id: string, context: OwnerPageContext) {
    const { group } = WEBHOOK_REPLAY_RATE_LIMIT;
    const keys = [context.owner.rateLimitKey];
    const wait = await attemptRateLimit(options.replayRateLimiter, group, keys);
    if (wait !== undefined) {
      context.session.flash("alert", httpMessages.text(context.locale, "http.rate_limited"));
      return page(context, 429, EMPTY_FORM, retryAfter(wait));
    }
    const replayed = await webhooks.replayMessage(context.owner.id, id);
    if (!replayed) return undefined;
    const pending = replayed.queued === 0 && replayed.alreadyPending > 0;
    return done(
      context,
      text(context.locale, pending ? "outbound.replay_pending" : "outbound.replayed"),
    );
  }

  const routes: Route<OwnerPageContext>[] = [
    {
      method: "GET",
      path: pathPattern,
      handle: (_request, context) => page(context, 200, EMPTY_FORM),
    },
    { method: "POST", path: pathPattern, handle: addEndpoint },
    ...(["enable", "disable"] as const).map((action) => ({
      method: "POST" as const,
      path: `${pathPattern}/:id/${action}`,
      handle: endpointAction(async (id, context) => {
        const enabled = action === "enable";
        const updated = await webhooks.updateEndpoint(context.owner.id, id, { enabled });
        return updated?.ok ? done(context, text(context.locale, "outbound.updated")) : undefined;
      }),
    })),
    {
      method: "POST",
      path: `${pathPattern}/:id/rotate_secret`,
      handle: endpointAction(async (id, context) => {
        const rotated = await webhooks.rotateSecret(context.owner.id, id);
        if (!rotated) return undefined;
        const secret = rotated.secret;
        return done(context, text(context.locale, "outbound.secret_shown_once", { secret }));
      }),
    },
    {
      method: "POST",
      path: `${pathPattern}/:id/delete`,
      handle: endpointAction(async (id, context) =>
        (await webhooks.deleteEndpoint(context.owner.id, id))
          ? done(context, text(context.locale, "outbound.removed"))
          : undefined,
      ),
    },
    {
      method: "POST",
      path: `${pathPattern}/messages/:id/replay`,
      handle: endpointAction(replay),
    },
  ];
  // The owner's resolver refuses for itself (a visitor is sent to sign in); its errors as pages.
  const withOwner: RouteMiddleware<HtmlRouteContext, OwnerPageContext> =
    (next) => async (request, context) => {
      const found = await options.owner(request, context);
      if (!found.ok) return ownerRefusalPage(found.response, request, context, options);
      return next(request, { ...context, ...found.value });
    };
  return withMiddleware(routes, pageSafety(options), withOwner);
}
