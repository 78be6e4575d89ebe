import type { RawResponse } from "./raw-request.js";

/**
 * What a route's answers are: `json` routes answer errors in the envelope, `page` routes with
 * an HTML page, `graphql` in the envelope or as a GraphQL response (`{"errors": [...]}`),
 * `asset` routes serve their file (or refuse in the envelope), and `any` (a path no route has,
 * or one the URL's dot segments lead elsewhere) answers either an envelope or a page.
 */
export type AnswerKind = "json" | "page" | "graphql" | "asset" | "any";

function header(response: RawResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

const isJson = (response: RawResponse) =>
  /^application\/(?:[\w.-]+\+)?json\b/i.test(header(response, "content-type"));
const isHtml = (response: RawResponse) => /^text\/html\b/i.test(header(response, "content-type"));

function parsed(response: RawResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why `value` is not `{"error": {"code", "message", "status", ...}}` for `status`, or undefined. */
export function envelopeFault(value: unknown, status: number): string | undefined {
  if (!isObject(value) || Object.keys(value).join() !== "error") {
    return "the body is not an object with the one key `error`";
  }
  const error = value.error;
  if (!isObject(error)) return "`error` is not an object";
  if (typeof error.code !== "string" || !/^[a-z]+(_[a-z]+)*$/.test(error.code)) {
    return "`error.code` is not a snake_case word";
  }
  if (typeof error.message !== "string" || error.message.trim() === "") {
    return "`error.message` is not a non-empty string";
  }
  if (error.status !== status) return `\`error.status\` is ${String(error.status)}, not ${status}`;
  if (error.fields !== undefined) {
    const fields = error.fields;
    const wellFormed =
      isObject(fields) &&
      Object.values(fields).every(
        (messages) =>
          Array.isArray(messages) &&
          messages.length > 0 &&
          messages.every((message) => typeof message === "string" && message !== ""),
      );
    if (!wellFormed) return "`error.fields` is not an object of non-empty message lists";
  }
  return undefined;
}

function isGraphqlErrorResponse(value: unknown): boolean {
  return (
    isObject(value) &&
    Array.isArray(value.errors) &&
    value.errors.length > 0 &&
    value.errors.every((error) => isObject(error) && typeof error.message === "string")
  );
}

/** An HTML page: its content type, and a document with a body. */
function pageFault(response: RawResponse): string | undefined {
  if (!isHtml(response))
    return `Content-Type is ${JSON.stringify(header(response, "content-type"))}, not text/html`;
  const html = response.body.toString("utf8");
  if (!/^<!doctype html>/i.test(html.trimStart()) || !/<\/html>\s*$/i.test(html)) {
    return "the body is not a whole HTML document";
  }
  return undefined;
}

/**
 * Why an answer breaks its route's rules, or undefined when it keeps them. A 4xx is the JSON
 * envelope (its `status` the answer's) on a JSON route, an HTML page on a page; GraphQL answers
 * either, or a GraphQL error response. A success of a JSON route with a JSON type parses.
 */
export function answerFault(kind: AnswerKind, response: RawResponse): string | undefined {
  const { status } = response;
  if (status < 200 || status > 599) return `status ${status}`;
  if (kind === "asset" && status < 400 && status !== 200) return `status ${status} for an asset`;
  if (status >= 400) {
    // An asset's refusal (a cross-site WebSocket upgrade, say) is no page: the envelope.
    if (kind === "page" || (kind === "any" && isHtml(response))) return pageFault(response);
    if (!isJson(response)) {
      return `Content-Type is ${JSON.stringify(header(response, "content-type"))}, not JSON`;
    }
    const value = parsed(response);
    if (kind === "graphql" && isGraphqlErrorResponse(value)) return undefined;
    return envelopeFault(value, status);
  }
  if ([301, 302, 303, 307, 308].includes(status)) {
    return header(response, "location") === "" ? `a ${status} without Location` : undefined;
  }
  if (isJson(response) && response.body.byteLength > 0 && parsed(response) === undefined) {
    return "a JSON answer that does not parse";
  }
  if ((kind === "page" || kind === "any") && status === 200 && isHtml(response)) {
    return pageFault(response);
  }
  return undefined;
}

/**
 * The errors of a GraphQL answer that stand for a 500: an unexpected error
 * (`internal_error`), or an engine's own words (a stack overflow, memory).
 */
export function internalGraphqlErrors(value: unknown): unknown[] {
  if (!isObject(value) || !Array.isArray(value.errors)) return [];
  return value.errors.filter(
    (error) =>
      isObject(error) &&
      ((isObject(error.extensions) && error.extensions.code === "internal_error") ||
        /internal server error|call stack|out of memory/i.test(String(error.message))),
  );
}

/** A GraphQL answer that ran nothing: errors, and no data. */
export function ranNoGraphql(value: unknown): boolean {
  return isGraphqlErrorResponse(value) && isObject(value) && (value.data ?? null) === null;
}

/** The JSON of an answer, when it is JSON that parses. */
export function answerJson(response: RawResponse): unknown {
  return isJson(response) ? parsed(response) : undefined;
}
