import {
  htmlPage,
  jsonAnswer,
  type Layout,
  NO_STORE,
  newCspNonce,
  type PageContext,
  type PageHeaderOptions,
  type PageRouteContext,
  plainLayout,
  type Route,
  type RouteContext,
  withPageHeaders,
} from "@tessera/http";
import type { Outbox } from "@tessera/outbox";
import { MAIL_QUEUE } from "../queued-mail.js";
import {
  type MailPreviewFrame,
  renderMailListPage,
  renderMailPage,
  renderMissingMailPage,
} from "./mail-preview-pages.js";
import { previewedMail, previewedMailJson, previewedMails } from "./previewed-mail.js";

/** Where the preview is mounted by default. */
export const MAIL_PREVIEW_PATH = "/dev/mail";

/** What the mail preview's routes are built from. */
export interface MailPreviewOptions<C extends RouteContext = RouteContext> {
  /** The outbox `outboxMailer` writes to: the preview reads its `mail` queue. */
  readonly outbox: Outbox<unknown>;
  /**
   * Whether the app runs in production (`config.production`, `NODE_ENV=production`). When
   * true, no route is built at all (the list is empty), so every preview path answers the
   * app's own 404. Required, so that no call forgets it: the mails hold working sign-in,
   * confirmation and password-reset links, and anyone who can read the preview can use them.
   */
  readonly production: boolean;
  /** The app's page frame (default `plainLayout` of `@tessera/http`). */
  readonly layout?: Layout | undefined;
  /**
   * The page context of a page's request (who is signed in, the flashes, the nonce), for the
   * app's layout; `context.cspNonce` is the nonce this answer's Content-Security-Policy allows,
   * to pass on (`sessionPageContext(context, email)` of `@tessera/session` does). The answer's
   * policy carries the returned `cspNonce`. Default: a visitor's context with no flashes.
   */
  readonly pageContext?:
    | ((request: Request, context: C & PageRouteContext) => PageContext | Promise<PageContext>)
    | undefined;
  /** Where the routes live (default {@link MAIL_PREVIEW_PATH}): `/{basePath}`, `…/:key`, `….json`. */
  readonly basePath?: string | undefined;
  /** How the pages' security headers differ from `withPageHeaders`' defaults: the app's own. */
  readonly pageHeaders?: PageHeaderOptions | undefined;
}

// A path of one or more segments, without a trailing slash or a parameter.
const BASE_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * The development mail preview, for any framework: `GET /dev/mail` lists the newest mails of the
 * outbox's `mail` queue (newest first), `GET /dev/mail/{key}` shows one (its HTML part in a
 * sandboxed frame that runs no script and has an origin of its own, and its text part), and
 * `GET /dev/mail.json` gives the list to end-to-end tests. Pages come in the app's layout with
 * their own Content-Security-Policy; every answer is `Cache-Control: no-store`.
 *
 * **Outside production only.** The mails hold working sign-in, confirmation and reset links:
 * anyone who can open the preview can take over the accounts in it. The routes check no user;
 * with `production: true` none is built.
 *
 * @throws {TypeError} for a `basePath` that is not a plain path (`/dev/mail`, no trailing slash).
 *
 * @example
 * ```ts
 * import { mount } from "@tessera/hono";
 * import { mailPreviewRoutes } from "@tessera/mail/preview";
 * import { MemoryOutbox } from "@tessera/outbox";
 * import { Hono } from "hono";
 *
 * const outbox = new MemoryOutbox(); // the outbox your `outboxMailer` writes to
 * const production = process.env.NODE_ENV === "production";
 * // Outside production only: in production the list is empty and nothing is mounted.
 * const app = mount(new Hono(), mailPreviewRoutes({ outbox, production }));
 * ```
 */
export function mailPreviewRoutes<C extends RouteContext = RouteContext>(
  options: MailPreviewOptions<C>,
): Route<C>[] {
  const basePath = options.basePath ?? MAIL_PREVIEW_PATH;
  if (!BASE_PATH.test(basePath)) {
    throw new TypeError(
      `mailPreviewRoutes: \`basePath\` must be a path such as ${MAIL_PREVIEW_PATH} (no trailing slash, no parameter); got ${JSON.stringify(basePath)}`,
    );
  }
  if (options.production) return [];
  const { outbox } = options;
  const layout = options.layout ?? plainLayout;

  /** A page of the preview: in the app's frame, with its policy and no copy in any cache. */
  async function page(
    request: Request,
    context: C,
    status: number,
    render: (frame: MailPreviewFrame) => string,
  ): Promise<Response> {
    // A nonce the context already has (a page middleware in front) is the one its policy uses.
    const given = (context as Partial<PageRouteContext>).cspNonce;
    const cspNonce = typeof given === "string" ? given : newCspNonce();
    const pageContext: PageContext = options.pageContext
      ? await options.pageContext(request, { ...context, cspNonce })
      : { signedInEmail: undefined, flashes: [], cspNonce };
    const body = render({ layout, context: pageContext, basePath });
    // A page context without a nonce wrote no script tag: the policy's nonce is then one that
    // no script of the page carries.
    const policyNonce = pageContext.cspNonce ?? newCspNonce();
    return withPageHeaders(
      htmlPage(status, body, NO_STORE),
      policyNonce,
      options.pageHeaders ?? {},
    );
  }

  return [
    {
      method: "GET",
      path: `${basePath}.json`,
      handle: async () =>
        jsonAnswer((await previewedMails(outbox)).map(previewedMailJson), { headers: NO_STORE }),
    },
    {
      method: "GET",
      path: basePath,
      handle: async (request, context) => {
        const mails = await previewedMails(outbox);
        return page(request, context, 200, (frame) => renderMailListPage(mails, frame));
      },
    },
    {
      method: "GET",
      path: `${basePath}/:key`,
      handle: async (request, context) => {
        const item = await outbox.find(MAIL_QUEUE, context.params.key ?? "");
        const mail = item && previewedMail(item);
        if (!mail) return page(request, context, 404, renderMissingMailPage);
        return page(request, context, 200, (frame) => renderMailPage(mail, frame));
      },
    },
  ];
}
