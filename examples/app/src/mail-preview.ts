import { mount } from "@tessera/hono";
import { withMiddleware } from "@tessera/http";
import { mailPreviewRoutes } from "@tessera/mail/preview";
import type { Outbox } from "@tessera/outbox";
import {
  type MaybeSessionContext,
  openSession,
  optionalUser,
  type SessionRouteContext,
  sessionPageContext,
} from "@tessera/session";
import type { AppHono } from "./accounts.js";
import type { MountedService } from "./service.js";
import { renderLayout } from "./views/layout.js";

/** What the mail preview is mounted with. */
export interface MailPreviewWiring {
  /** The outbox account mails go through. */
  readonly outbox: Outbox<unknown>;
  readonly service: MountedService;
  /** In production no preview route is mounted: the mails hold working sign-in links. */
  readonly production: boolean;
}

/**
 * The mail preview of `@tessera/mail/preview`, for development: `GET /dev/mail` lists the mails
 * of the outbox's `mail` queue (newest first), `GET /dev/mail/{key}` shows one (HTML in a
 * sandboxed frame, and text), and `GET /dev/mail.json` gives the list to end-to-end tests. Its
 * pages come in the app's layout, with the signed-in user in the header; in production nothing
 * is mounted.
 */
export function mountMailPreview(app: AppHono, wiring: MailPreviewWiring) {
  const { service } = wiring;
  const routes = mailPreviewRoutes<SessionRouteContext>({
    outbox: wiring.outbox,
    production: wiring.production,
    layout: renderLayout,
    // In English only: a page for the app's developers, not its users.
    pageContext: async (_request, context) => {
      const user = await optionalUser(context.session, service.findUser);
      return sessionPageContext(
        { session: context.session, cspNonce: context.cspNonce },
        user?.email,
      );
    },
  });
  mount(app, withMiddleware(routes, openSession<MaybeSessionContext>(service.sessions)));
}
