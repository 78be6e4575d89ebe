import type { Locale } from "@tessera/core";
import { jsonAnswer } from "@tessera/http";

/**
 * The body of a granted bearer token: `{ token, token_type: "Bearer", expires_in }`, with the
 * language headers of the request's `locale` when it has one.
 */
export function tokenAnswer(
  issued: { readonly token: string; readonly expiresIn: number },
  locale?: Locale,
): Response {
  const body = { token: issued.token, token_type: "Bearer", expires_in: issued.expiresIn };
  return jsonAnswer(body, { locale });
}
