import type { Locale } from "@tessera/core";
import type { PageContext, PageFlash } from "@tessera/http";

/** What {@link sessionPageContext} reads of a page request: its session, nonce and language. */
export interface PageRequest {
  readonly session: { takeFlashes(): PageFlash[] };
  readonly cspNonce: string;
  readonly locale?: Locale | undefined;
}

/**
 * What a page of the request is written with: who is signed in (`signedInEmail`, for the
 * header), the waiting flashes (taken: call it once, for the page being rendered), the CSP
 * nonce and the request's language.
 */
export function sessionPageContext(
  context: PageRequest,
  signedInEmail: string | undefined,
): PageContext {
  return {
    signedInEmail,
    flashes: context.session.takeFlashes(),
    cspNonce: context.cspNonce,
    ...(context.locale === undefined ? {} : { locale: context.locale }),
  };
}
