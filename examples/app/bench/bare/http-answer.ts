import type { ServerResponse } from "node:http";

// The headers the app's middleware puts on every answer of its JSON API (compared with curl):
// the security headers, and the language the app negotiates (English: the bench sends no
// Accept-Language, so negotiating it would always give the same answer).
const API_HEADERS: Record<string, string> = {
  "content-language": "en",
  "referrer-policy": "strict-origin-when-cross-origin",
  vary: "Accept-Language",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
};

// Webhook and health routes carry the security headers only, as the app's do.
const PLAIN_HEADERS: Record<string, string> = {
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
};

/** Whether an answer carries the app's language headers (the API) or only its security ones. */
export type HeaderSet = "api" | "plain";

/** Sends `text` as JSON with `status`, the app's headers and a Content-Length, in one write. */
export function sendJson(
  response: ServerResponse,
  status: number,
  text: string,
  headers: HeaderSet = "api",
): void {
  response.writeHead(status, {
    "content-type": "application/json",
    ...(headers === "api" ? API_HEADERS : PLAIN_HEADERS),
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** Sends the app's error envelope (`{"error":{"code","message","status"}}`) as JSON. */
export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: HeaderSet = "api",
): void {
  sendJson(response, status, JSON.stringify({ error: { code, message, status } }), headers);
}
