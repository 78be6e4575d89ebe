import type { Locale } from "@tessera/core";
import type { PageContext, PageFlash, PageMenu } from "@tessera/http";

/**
 * The session value that says an operator is acting as the signed-in user (accounts'
 * impersonation writes it): while it is there, every page says so.
 */
export const ACTING_OPERATOR_VALUE = "acting_operator";

/**
 * What {@link sessionPageContext} reads of a page request: its session, nonce and language,
 * and the header menus a route middleware in front of the page put in its context.
 */
export interface PageRequest {
  readonly session: { takeFlashes(): PageFlash[]; get(name: string): string | undefined };
  readonly cspNonce: string;
  readonly locale?: Locale | undefined;
  /**
   * The request's header menus (`PageContext.headerMenus`), as a route middleware of the app
   * read them for it (the organization switcher of `@tessera/organizations/routes`). A page
   * group passes its whole context, so they reach every page without the group knowing them.
   */
  readonly headerMenus?: readonly PageMenu[] | undefined;
}

/**
 * What a page of the request is written with: who is signed in (`signedInEmail`, for the
 * header) and whether an operator acts as them, the waiting flashes (taken: call it once, for
 * the page being rendered), the CSP nonce, the request's language, and its header menus (for a
 * signed-in user only: a visitor's page has none).
 */
export function sessionPageContext(
  context: PageRequest,
  signedInEmail: string | undefined,
): PageContext {
  return {
    signedInEmail,
    ...(signedInEmail !== undefined && context.session.get(ACTING_OPERATOR_VALUE) !== undefined
      ? { impersonating: true }
      : {}),
    flashes: context.session.takeFlashes(),
    cspNonce: context.cspNonce,
    ...(context.locale === undefined ? {} : { locale: context.locale }),
    ...(signedInEmail !== undefined && context.headerMenus !== undefined
      ? { headerMenus: context.headerMenus }
      : {}),
  };
}
