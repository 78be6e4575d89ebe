import { isAllowedOrigin } from "./allowed-origins.js";
import { editResponseHeaders } from "./response-headers.js";

/** Options of the CORS functions. */
export interface CorsOptions {
  /** Browser origins allowed cross-site, as {@link parseAllowedOrigins} reads them. */
  readonly allowedOrigins: readonly string[];
  /** Request headers a preflight allows; default `Authorization` and `Content-Type`. */
  readonly allowedHeaders?: readonly string[] | undefined;
  /**
   * Send `Access-Control-Allow-Credentials: true`, letting listed origins make cookie-carrying
   * requests and read the answers. Default false: a separate frontend authenticates with a
   * bearer token, which needs no credentials mode.
   */
  readonly allowCredentials?: boolean | undefined;
}

const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
const DEFAULT_ALLOWED_HEADERS = ["Authorization", "Content-Type"];
/** Ten minutes: long enough to spare round trips, short enough that a removed origin ends soon. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

function varyOnOrigin(headers: Headers): void {
  const current = headers.get("Vary");
  const names = current?.split(",").map((name) => name.trim().toLowerCase()) ?? [];
  if (names.includes("*") || names.includes("origin")) return;
  headers.set("Vary", current ? `${current}, Origin` : "Origin");
}

/**
 * Answers a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from a
 * listed origin with 204 and the allowing headers. Returns `undefined` for anything else,
 * including a preflight from an unlisted origin, which then gets no CORS headers at all.
 */
export function answerCorsPreflight(request: Request, options: CorsOptions): Response | undefined {
  if (request.method.toUpperCase() !== "OPTIONS") return undefined;
  if (!request.headers.has("access-control-request-method")) return undefined;
  const origin = request.headers.get("origin");
  if (origin === null || !isAllowedOrigin(origin, options.allowedOrigins)) return undefined;
  const headers = new Headers({
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": ALLOWED_METHODS,
    "Access-Control-Allow-Headers": (options.allowedHeaders ?? DEFAULT_ALLOWED_HEADERS).join(", "),
    "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  });
  if (options.allowCredentials) headers.set("Access-Control-Allow-Credentials", "true");
  return new Response(null, { status: 204, headers });
}

/**
 * Adds `Access-Control-Allow-Origin` to the response of a request from a listed origin. With
 * origins configured, every response also gets `Vary: Origin`, since it depends on the `Origin`;
 * with none, the response is returned untouched. In place when the headers are mutable, else on
 * a copy.
 */
export function withCorsHeaders(
  request: Request,
  response: Response,
  options: CorsOptions,
): Response {
  if (options.allowedOrigins.length === 0) return response;
  const origin = request.headers.get("origin");
  const listed = origin !== null && isAllowedOrigin(origin, options.allowedOrigins);
  return editResponseHeaders(response, (headers) => {
    varyOnOrigin(headers);
    if (!listed) return;
    headers.set("Access-Control-Allow-Origin", origin);
    if (options.allowCredentials) headers.set("Access-Control-Allow-Credentials", "true");
  });
}
