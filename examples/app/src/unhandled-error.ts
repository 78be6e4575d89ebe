import type { Locale } from "@tessera/core";
import { htmlPage, jsonError, parseMediaType, withLanguageHeaders } from "@tessera/http";
import type { Context } from "hono";
import { appMessages } from "./app-messages.js";
import { chooseLocale } from "./locales/shipped-catalogs.js";
import { renderLayout, say } from "./views/layout.js";

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

const errorPages = new Map<string, string>();

/** The 500 page in `locale`, rendered once per language. */
function errorPage(locale: Locale): string {
  let page = errorPages.get(locale.tag);
  if (page === undefined) {
    // The session may be what failed: the page reads nothing from it. It holds no script, so
    // it needs no nonce.
    const context = { signedInEmail: undefined, flashes: [], cspNonce: undefined, locale };
    page = renderLayout({
      title: appMessages.text(locale, "app.error_title"),
      context,
      mainHtml: `<h1>${say(context, "app.error_title")}</h1>
<p>${say(context, "app.error_text")}</p>
<p><a href="/">${say(context, "app.error_back")}</a></p>`,
    });
    errorPages.set(locale.tag, page);
  }
  return page;
}

/**
 * Hono's `onError` for the app: logs the error (with its stack) to standard error once, and
 * answers 500 without any of it: the JSON envelope to JSON routes (`/api/*`, `/webhooks/*`) and
 * to requests that ask for or send JSON, a plain HTML page to everything else.
 */
export function answerUnhandledError(error: Error, context: Context): Response {
  const request = context.req.raw;
  console.error(`Unhandled error on ${request.method} ${new URL(request.url).pathname}:`, error);
  if (asksForJson(request)) return jsonError(500, INTERNAL_ERROR_MESSAGE);
  const locale = chooseLocale(request);
  return withLanguageHeaders(htmlPage(500, errorPage(locale)), locale);
}
