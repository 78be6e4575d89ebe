import type { Locale } from "@tessera/core";
import { jsonError, securedAnswer } from "@tessera/http";

/** What graphql-http's handler answers: a body (or none) and the response's status and headers. */
export type GraphqlHttpAnswer = readonly [
  body: string | null,
  init: {
    readonly status: number;
    readonly statusText: string;
    readonly headers?: HeadersInit | undefined;
  },
];

/** The refusals graphql-http answers with no body, in words a client can act on. */
const BODYLESS_REFUSALS: Readonly<Record<number, string>> = {
  406: "Not acceptable: accept application/graphql-response+json or application/json",
  415: "Unsupported content type: send application/json",
};

/**
 * The response for graphql-http's answer. It answers some refusals (an `Accept` it cannot serve,
 * a JSON type other than `application/json`) with no body, or with a GraphQL error
 * response and no `Content-Type`; a client then gets the JSON it gets from every other refusal:
 * the error envelope, or the `{"errors": [...]}` marked as JSON. A result below 400 carries the
 * language headers of `locale`, when given.
 */
export function graphqlHttpResponse([body, init]: GraphqlHttpAnswer, locale?: Locale): Response {
  if (init.status < 400) {
    // A GraphQL result as JSON: made with the security headers (and the language headers, in
    // the request's locale), so no middleware reads it again.
    return securedAnswer(body, {
      status: init.status,
      ...(init.headers ? { headers: init.headers } : {}),
      locale,
    });
  }
  const headers = new Headers(init.headers);
  if (headers.has("content-type")) return new Response(body, { status: init.status, headers });
  if (body !== null && body !== "") {
    headers.set("content-type", "application/json; charset=utf-8");
    return new Response(body, { status: init.status, headers });
  }
  const message = BODYLESS_REFUSALS[init.status] ?? init.statusText;
  return jsonError(init.status, message, { headers });
}
