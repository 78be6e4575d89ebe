import { isHttpsRequest } from "@tessera/http";
import type { AppConfig } from "./config.js";

/**
 * The scheme the browser used, as the trusted proxy reports it in `X-Forwarded-Proto`: the entry
 * `trustProxy` places from the right, like the client address; a proxy that sets the header
 * rather than appending leaves one value, taken as it is.
 */
function forwardedProto(header: string, trustProxy: number): string {
  const entries = header.split(",").map((entry) => entry.trim().toLowerCase());
  return entries[Math.max(0, entries.length - trustProxy)] ?? "";
}

/**
 * Decides per request whether the browser reached the app over HTTPS, for the session cookie's
 * `Secure`: the request URL is `https:` (TLS ended here); or `TRUST_PROXY` is set and the trusted
 * proxy says `X-Forwarded-Proto: https`; or, in production, `APP_URL` is `https:`. Without a
 * trusted proxy the header is ignored: any client can send it.
 */
export function reachedOverHttps(config: AppConfig): (request: Request) => boolean {
  const httpsAppUrl = config.production && config.appUrl?.startsWith("https:") === true;
  return (request) => {
    if (httpsAppUrl || isHttpsRequest(request)) return true;
    if (config.trustProxy === 0) return false;
    const header = request.headers.get("x-forwarded-proto");
    return header !== null && forwardedProto(header, config.trustProxy) === "https";
  };
}
