import { fail } from "@tessera/core";
import { constantTimeEqualText } from "@tessera/crypto";
import { readHeader, type WebhookDelivery } from "./delivery.js";
import { VERIFIED, type WebhookVerifier } from "./verifier.js";

/** Options of {@link tokenVerifier}: where the token is read (default: query parameter `token`). */
export interface TokenVerifierOptions {
  /** The expected token. */
  readonly token: string;
  /** Query parameter carrying the token. */
  readonly query?: string | undefined;
  /** Header carrying the token, any case. When both are set, the header is read first. */
  readonly header?: string | undefined;
}

/**
 * For providers that sign nothing and instead put a shared token in the URL or a header. The
 * comparison hashes both sides first, so it reveals neither where they differ nor the length.
 * A token authenticates the sender only, not the body: prefer a signature when one is offered.
 * @throws {RangeError} at creation for an empty token.
 */
export function tokenVerifier(options: TokenVerifierOptions): WebhookVerifier {
  if (options.token.length === 0) throw new RangeError("a webhook token must not be empty");
  const header = options.header?.toLowerCase();
  const query = options.query ?? (header === undefined ? "token" : undefined);
  return (delivery) => {
    const presented =
      (header === undefined ? undefined : readHeader(delivery.headers, header)) ||
      (query === undefined ? undefined : queryParameter(delivery, query));
    if (!presented) return fail("missing-token");
    return constantTimeEqualText(presented, options.token) ? VERIFIED : fail("token-mismatch");
  };
}

function queryParameter(delivery: WebhookDelivery, name: string): string | undefined {
  if (delivery.url === undefined) return undefined;
  // A base makes Node's path-only `request.url` parseable; only the query is read.
  const url = URL.canParse(delivery.url, "http://localhost")
    ? new URL(delivery.url, "http://localhost")
    : undefined;
  return url?.searchParams.get(name) ?? undefined;
}
