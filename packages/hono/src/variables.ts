/** What the middleware of this package put on the Hono context (`c.get("clientAddress")`, …). */
export interface TesseraVariables {
  /** The client's address, from {@link clientAddress}. */
  clientAddress: string;
  /** The page's CSP nonce: read it with {@link cspNonce}, which makes it on first use. */
  cspNonce: string;
}

/**
 * The Hono environment of an app using this package's middleware. With the cookie session of
 * `@tessera/session/hono`: `Hono<{ Variables: TesseraVariables & SessionVariables }>`.
 */
export interface TesseraEnv {
  Variables: TesseraVariables;
}
