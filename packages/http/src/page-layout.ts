import { html, type Locale, unsafeHtml } from "@tessera/core";
import { impersonationBanner } from "./impersonation-banner.js";

/** A message shown once on the next page (`@tessera/session`'s flashes have this shape). */
export interface PageFlash {
  readonly kind: "notice" | "alert";
  readonly message: string;
}

/** A link of a {@link PageMenu}. */
export interface PageLink {
  readonly href: string;
  /** The link's text, in the page's language (a layout escapes it). */
  readonly text: string;
  /**
   * True when the page shown is this link's or one under it (`/orgs/acme/projects` for
   * `/orgs/acme`): the layout marks it (`aria-current`).
   */
  readonly current?: boolean | undefined;
}

/**
 * A labelled list of links the page frame's header shows besides its own (an organization
 * switcher): what the app knows of the request that no single page does.
 */
export interface PageMenu {
  /** Names the menu for the layout (its place, its style): `"organizations"`. */
  readonly id: string;
  /** The menu's name, in the page's language: the layout labels it with this. */
  readonly label: string;
  readonly links: readonly PageLink[];
}

/**
 * What every page knows besides its own content: who is signed in, the waiting flashes, and
 * the nonce its scripts need.
 */
export interface PageContext {
  /** The signed-in user's email, for the page header; undefined for visitors. */
  readonly signedInEmail: string | undefined;
  /**
   * True while an operator acts as the signed-in user (impersonation): the layout then shows
   * it on every page, with a way to stop (a form posting to `/admin/impersonation/stop`).
   */
  readonly impersonating?: boolean | undefined;
  readonly flashes: readonly PageFlash[];
  /**
   * The answer's Content-Security-Policy nonce (`PageRouteContext.cspNonce`): every `<script>`
   * the layout writes carries it as `nonce="…"`, or the browser does not run it. Undefined for
   * a page rendered ahead of any request (then it must hold no script).
   */
  readonly cspNonce: string | undefined;
  /** The language the page is written in (`RouteContext.locale`), for `<html lang>`; English when absent. */
  readonly locale?: Locale | undefined;
  /**
   * Menus for the header, read for this request by a route middleware in front of the page
   * (the example app's organization switcher puts a `headerMenus` list in the request's
   * context; `sessionPageContext` of `@tessera/session` copies it here), for a signed-in user
   * only. Each is the request's own, never cached; a layout shows those it knows, or none.
   */
  readonly headerMenus?: readonly PageMenu[] | undefined;
}

/**
 * The app's page frame: wraps a page's main content in the site's layout. It renders the
 * flashes (in a live region) and the header; `mainHtml` is trusted, already escaped HTML.
 */
export type Layout = (page: {
  readonly title: string;
  readonly mainHtml: string;
  readonly context: PageContext;
}) => string;

/**
 * A bare page frame: a valid, accessible document with the flashes in live regions and the
 * content in `<main>`. For apps that have not written their own layout yet.
 */
export const plainLayout: Layout = ({ title, mainHtml, context }) => {
  const flashes = (kind: PageFlash["kind"]) =>
    context.flashes
      .filter((flash) => flash.kind === kind)
      .map((flash) => html`<p>${flash.message}</p>`);
  // The Layout contract: the page hands its main content over as HTML it has escaped.
  const main = unsafeHtml(mainHtml);
  return html`<!doctype html>
<html lang="${context.locale?.tag ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body>${impersonationBanner(context)}
<div role="status" aria-live="polite">${flashes("notice")}</div>
<div role="alert">${flashes("alert")}</div>
<main>
${main}
</main>
</body>
</html>`.toString();
};
