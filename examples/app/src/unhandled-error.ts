import { htmlPage, jsonError, parseMediaType } from "@tessera/http";
import type { Context } from "hono";
import { renderLayout } from "./views/layout.js";

/** The 500 message: says nothing of what broke, which only the log may tell. */
export const INTERNAL_ERROR_MESSAGE = "Internal server error";

function asksForJson(request: Request): boolean {
  const path = new URL(request.url).pathname;
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/webhooks/")) return true;
  const accept = request.headers.get("accept") ?? "";
  if (/json/i.test(accept) && !/text\/html/i.test(accept)) return true;
  const essence = parseMediaType(request.headers.get("content-type"))?.essence ?? "";
  return essence === "application/json" || essence.endsWith("+json");
}

const errorPage = renderLayout({
  title: "Something went wrong",
  // The session may be what failed: the page reads nothing from it. It holds no script, so it
  // needs no nonce (it is rendered once, ahead of any request).
  context: { signedInEmail: undefined, flashes: [], cspNonce: undefined },
  mainHtml: `<h1>Something went wrong</h1>
<p>The server could not finish this request. Please try again in a moment.</p>
<p><a href="/">Back to the home page</a></p>`,
});

/**
 * Hono's `onError` for the app: logs the error (with its stack) to standard error once, and
 * answers 500 without any of it: the JSON envelope to JSON routes (`/api/*`, `/webhooks/*`) and
 * to requests that ask for or send JSON, a plain HTML page to everything else.
 */
export function answerUnhandledError(error: Error, context: Context): Response {
  const request = context.req.raw;
  console.error(`Unhandled error on ${request.method} ${new URL(request.url).pathname}:`, error);
  if (asksForJson(request)) return jsonError(500, INTERNAL_ERROR_MESSAGE);
  return htmlPage(500, errorPage);
}
