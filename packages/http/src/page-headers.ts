import { parseMediaType } from "./media-type.js";
import { editResponseHeaders } from "./response-headers.js";
import { isSecured } from "./secured-responses.js";
import { SECURITY_HEADERS } from "./security-headers.js";

/** A Content-Security-Policy as its directives, each with its sources. */
export type PolicyDirectives = Readonly<Record<string, readonly string[]>>;

/** Stands for `'nonce-<this response's nonce>'` among a directive's sources. */
export const NONCE_SOURCE = "'nonce'";

/**
 * The pages' Content-Security-Policy: scripts run only with the response's nonce (not even the
 * app's own files without it: a same-origin upload could otherwise be loaded as a script);
 * styles from the app and `<style>` elements with the nonce (Trix inserts one); images also
 * from any http(s) address, as rich text may show them, and `data:` (Trix's toolbar icons);
 * no plugins, no `<base>`, and no framing at all. `form-action` is left out: Chrome applies it
 * to the redirect after a form post, which would stop the sign-in with a provider.
 */
export const DEFAULT_PAGE_POLICY: PolicyDirectives = {
  "default-src": ["'self'"],
  "script-src": [NONCE_SOURCE],
  "style-src": ["'self'", NONCE_SOURCE],
  "img-src": ["'self'", "data:", "https:", "http:"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "frame-ancestors": ["'none'"],
};

/**
 * The headers every page carries besides its policy and {@link SECURITY_HEADERS}: no powerful
 * browser feature for the page or anything it embeds, a browsing context of its own (a page
 * that opened it cannot reach it), and no framing for browsers that predate `frame-ancestors`.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Permissions-Policy":
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

/** How pages' headers differ from ours; every field is optional. */
export interface PageHeaderOptions {
  /** A whole policy instead of {@link DEFAULT_PAGE_POLICY}; {@link NONCE_SOURCE} stands for the nonce. */
  readonly policy?: PolicyDirectives | undefined;
  /**
   * Sources added to the policy's directives: `{ "img-src": ["https://images.example"] }`. A
   * directive the policy lacks is added with exactly these sources (`default-src` no longer
   * applies to it then); added to a directive that was `'none'`, they replace it.
   */
  readonly extendPolicy?: PolicyDirectives | undefined;
  /** Headers set on pages instead of ours, or besides them: `{ "Permissions-Policy": "…" }`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

// A nonce goes into a header and into HTML attributes: base64 (either alphabet) only.
const NONCE_PATTERN = /^[A-Za-z0-9+/_-]+=*$/;

/** The policy's header value: directives and sources, with {@link NONCE_SOURCE} still in it. */
function policyTemplate(options: PageHeaderOptions): string {
  const directives: Record<string, readonly string[]> = {
    ...(options.policy ?? DEFAULT_PAGE_POLICY),
  };
  for (const [name, added] of Object.entries(options.extendPolicy ?? {})) {
    const current = (directives[name] ?? []).filter((source) => source !== "'none'");
    directives[name] = [...new Set([...current, ...added])];
  }
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}

const DEFAULT_TEMPLATE = policyTemplate({});

/**
 * The Content-Security-Policy value of a page answered with `nonce`.
 * @throws {TypeError} for a nonce that is not base64: it would break out of the header.
 */
export function pagePolicy(nonce: string, options: PageHeaderOptions = {}): string {
  if (!NONCE_PATTERN.test(nonce)) throw new TypeError("a CSP nonce must be base64 text");
  const template =
    options.policy || options.extendPolicy ? policyTemplate(options) : DEFAULT_TEMPLATE;
  return template.replaceAll(NONCE_SOURCE, `'nonce-${nonce}'`);
}

function isHtml(response: Response): boolean {
  return parseMediaType(response.headers.get("content-type"))?.essence === "text/html";
}

/**
 * The security headers of a route's answer, leaving any the handler set (a token page's
 * `Referrer-Policy: no-referrer`, a download's own policy). An HTML page gets its
 * Content-Security-Policy with `nonce` (the one its `<script>` and `<meta name="csp-nonce">`
 * tags carry), {@link PAGE_HEADERS} and {@link SECURITY_HEADERS}; any other answer (JSON, a
 * redirect, a file) gets {@link SECURITY_HEADERS}. The nonce must be fresh and random for each
 * response; a function is called only when an HTML page needs one (a middleware then makes no
 * nonce for JSON). An answer made with them (`jsonAnswer`, `markSecured`) is returned as it is,
 * its headers unread. Changes the response in place when its headers are mutable, else returns
 * a copy.
 * @throws {TypeError} for a nonce that is not base64: it would break out of the header.
 */
export function withPageHeaders(
  response: Response,
  nonce: string | (() => string),
  options: PageHeaderOptions = {},
): Response {
  if (isSecured(response)) return response;
  const page = isHtml(response);
  const policy =
    page && !response.headers.has("Content-Security-Policy")
      ? pagePolicy(typeof nonce === "string" ? nonce : nonce(), options)
      : undefined;
  return editResponseHeaders(response, (headers) => {
    const set = (name: string, value: string) => {
      if (!headers.has(name)) headers.set(name, value);
    };
    if (policy !== undefined) set("Content-Security-Policy", policy);
    if (page) {
      for (const [name, value] of Object.entries({ ...PAGE_HEADERS, ...options.headers })) {
        set(name, value);
      }
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) set(name, value);
  });
}
