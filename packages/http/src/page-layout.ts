/** A message shown once on the next page (`@tessera/session`'s flashes have this shape). */
export interface PageFlash {
  readonly kind: "notice" | "alert";
  readonly message: string;
}

/** What every page knows besides its own content: who is signed in and the waiting flashes. */
export interface PageContext {
  /** The signed-in user's email, for the page header; undefined for visitors. */
  readonly signedInEmail: string | undefined;
  readonly flashes: readonly PageFlash[];
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
