import type { Session } from "@tessera/session";

/** What the middleware of this package put on the Hono context (`c.get("session")`, …). */
export interface TesseraVariables {
  /** The cookie session, from {@link cookieSession}. */
  session: Session;
  /** The client's address, from {@link clientAddress}. */
  clientAddress: string;
  /** The page's CSP nonce: read it with {@link cspNonce}, which makes it on first use. */
  cspNonce: string;
}

/** The Hono environment of an app using every middleware of this package. */
export interface TesseraEnv {
  Variables: TesseraVariables;
}
