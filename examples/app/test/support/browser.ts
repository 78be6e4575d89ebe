import { newClientAddress } from "./test-server.js";

/** A page or redirect as a browser would receive it (redirects are not followed). */
export interface BrowserResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  /** `Location` of a redirect, as a path. */
  readonly location: string | undefined;
}

/**
 * A minimal browser over real HTTP: a cookie jar for the session cookie, one client address
 * (sent as `X-Forwarded-For` to an app with `TRUST_PROXY=1`), same-origin form posts.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly clientAddress = newClientAddress();

  constructor(private readonly baseUrl: string) {}

  get(path: string): Promise<BrowserResponse> {
    return this.request("GET", path);
  }

  /** Posts a form as a same-origin browser page does (`Sec-Fetch-Site: same-origin`). */
  post(path: string, form: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.request("POST", path, new URLSearchParams(form).toString());
  }

  /** The session cookie's value, if the browser holds one. */
  get sessionCookie(): string | undefined {
    return this.cookies.get("_tessera_session");
  }

  async request(
    method: string,
    path: string,
    body?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<BrowserResponse> {
    const headers: Record<string, string> = {
      "x-forwarded-for": this.clientAddress,
      "sec-fetch-site": "same-origin",
      ...extraHeaders,
    };
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body ?? null,
      redirect: "manual",
    });
    for (const setCookie of response.headers.getSetCookie()) this.store(setCookie);
    const location = response.headers.get("location") ?? undefined;
    return {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location:
        location === undefined
          ? undefined
          : new URL(location, this.baseUrl).pathname + new URL(location, this.baseUrl).search,
    };
  }

  /** Follows a redirect once and returns the page it leads to. */
  async follow(response: BrowserResponse): Promise<BrowserResponse> {
    if (response.location === undefined) throw new Error(`not a redirect: ${response.status}`);
    return this.get(response.location);
  }

  private store(setCookie: string): void {
    const [pair, ...attributes] = setCookie.split(";").map((part) => part.trim());
    const separator = pair!.indexOf("=");
    const name = pair!.slice(0, separator);
    const value = pair!.slice(separator + 1);
    const expired = attributes.some(
      (attribute) => /^max-age=0$/i.test(attribute) || /^expires=Thu, 01 Jan 1970/i.test(attribute),
    );
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** The text of the page without tags and with spaces collapsed, for assertions on wording. */
export function pageText(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
}

/** The first link to `path` with a token in a mail's text: `/magic_link/<token>` and the like. */
export function linkIn(text: string, path: string): { url: string; path: string; token: string } {
  const match = text.match(new RegExp(`(https?://[^\\s/]+)(${path}/([A-Za-z0-9_-]{43}))`));
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return { url: match[1]! + match[2]!, path: match[2]!, token: match[3]! };
}
