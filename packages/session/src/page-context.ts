import type { Locale } from "@tessera/core";
import type { PageContext, PageFlash } from "@tessera/http";

/**
 * The session value that says an operator is acting as the signed-in user (accounts'
 * impersonation writes it): while it is there, every page says so.
 */
export const ACTING_OPERATOR_VALUE = "acting_operator";

/** What {@link sessionPageContext} reads of a page request: its session, nonce and language. */
export interface PageRequest {
  readonly session: { takeFlashes(): PageFlash[]; get(name: string): string | undefined };
  readonly cspNonce: string;
  readonly locale?: Locale | undefined;
}

/**
 * What a page of the request is written with: who is signed in (`signedInEmail`, for the
 * header) and whether an operator acts as them, the waiting flashes (taken: call it once, for
 * the page being rendered), the CSP nonce and the request's language.
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
  };
}
