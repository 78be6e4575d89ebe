import type { ExecutionResult } from "graphql";
import type { Response as GraphqlHttpResponse } from "graphql-http";

/** The media types graphql-http answers GraphQL results with. */
type ResultMediaType = "application/graphql-response+json" | "application/json";

/**
 * The media type graphql-http's handler chooses for an `Accept` header, by its own rules: the
 * first entry that is `application/graphql-response+json` in UTF-8, or JSON (`application/json`,
 * `application/*`, any type) in UTF-8; none when no entry is. Only called once graphql-http
 * has accepted the request, so the header is one it already read.
 */
export function resultMediaType(accept: string | null): ResultMediaType | undefined {
  for (const entry of (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",")) {
    const [mediaType, ...parameters] = entry.split(";");
    const charset =
      parameters.find((parameter) => parameter.includes("charset=")) ?? "charset=utf-8";
    if (mediaType === "application/graphql-response+json" && charset === "charset=utf-8") {
      return "application/graphql-response+json";
    }
    if (
      (mediaType === "application/json" || mediaType === "application/*" || mediaType === "*/*") &&
      (charset === "charset=utf-8" || charset === "charset=utf8")
    ) {
      return "application/json";
    }
  }
  return undefined;
}

/**
 * The answer to an operation that succeeded, made here rather than by graphql-http, which
 * serializes every result through a replacer function (for `Error` objects among its errors).
 * A replacer makes `JSON.stringify` call back into JavaScript for each key and value: about a
 * tenth of a 50-row query's time. A result without errors holds only what GraphQL's scalars
 * serialized, so plain `JSON.stringify` gives the same text. Undefined for anything else (errors,
 * a stream), which graphql-http answers itself.
 */
export function successfulOperationAnswer(
  accept: string | null,
  result: ExecutionResult,
): GraphqlHttpResponse | undefined {
  if (result.errors !== undefined || Symbol.asyncIterator in result) return undefined;
  const mediaType = resultMediaType(accept);
  if (mediaType === undefined) return undefined;
  return [
    JSON.stringify(result),
    { status: 200, statusText: "OK", headers: { "content-type": `${mediaType}; charset=utf-8` } },
  ];
}
