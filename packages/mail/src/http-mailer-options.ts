import { configurationError } from "@tessera/core";
import type { RetryPolicy } from "./retry-policy.js";

/** The options every HTTP mail adapter takes besides its credentials. */
export interface HttpMailerOptions {
  /** The From of every mail (the app's `MAIL_FROM`): `no-reply@app.example` or `Notes <…>`. */
  readonly from: string;
  /** Replaces the provider's URL, without the path (a proxy, or a local double in tests). */
  readonly baseUrl?: string | undefined;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Attempts, delays and the per-attempt timeout (see {@link RetryPolicy}). */
  readonly retry?: RetryPolicy | undefined;
}

/** `options.baseUrl` without a trailing slash, or `fallback`; refuses anything but http(s). */
export function resolveBaseUrl(fn: string, options: HttpMailerOptions, fallback: string): string {
  const value: unknown = options.baseUrl;
  if (value === undefined) return fallback;
  const advice = "pass the provider's URL without the path, such as http://127.0.0.1:8025";
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw configurationError(fn, "baseUrl", "is not an http: or https: URL", advice);
  }
  return (value as string).replace(/\/+$/, "");
}

/** `options.fetch`, or the global fetch looked up at each call (so test spies see it). */
export function resolveFetch(
  fn: string,
  options: HttpMailerOptions,
): (request: Request) => Promise<Response> {
  const given: unknown = options.fetch;
  if (given === undefined) return (request) => globalThis.fetch(request);
  if (typeof given !== "function") {
    throw configurationError(fn, "fetch", "is not a function", "leave it out for the global fetch");
  }
  return given as (request: Request) => Promise<Response>;
}
