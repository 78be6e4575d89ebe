/**
 * Just enough of a browser for the OAuth dance: cookies kept per host and port (paths and
 * expiry dates ignored; `Max-Age=0` deletes), redirects followed by hand so each hop can be
 * checked, and the test provider's login and consent pages filled in like a person would.
 */
export class Browser {
  readonly #cookies = new Map<string, Map<string, string>>();

  /** One request, sending this host's cookies and keeping the ones it sets; no redirects. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const jar = this.#cookies.get(target.host) ?? new Map<string, string>();
    if (jar.size > 0)
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";")[0]!;
      const name = pair.slice(0, pair.indexOf("="));
      if (/;\s*max-age=0(;|$)/i.test(setCookie)) jar.delete(name);
      else jar.set(name, pair.slice(name.length + 1));
    }
    this.#cookies.set(target.host, jar);
    return response;
  }

  /** A form POST, as a browser submits `<form method="post">`. */
  submit(url: string, fields: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  }

  /** Follows a response's `Location`, resolved against the URL that answered. */
  static location(response: Response, base: string): string {
    const location = response.headers.get("location");
    if (location === null) throw new Error(`${base} answered ${response.status} without Location`);
    return new URL(location, base).href;
  }

  /**
   * At the provider, from the authorization URL the app redirected to: signs in as `accountId`
   * and consents on the provider's pages (or cancels at the first page, with `cancel`), and
   * returns the callback URL the provider sends the browser to, without visiting it.
   */
  async authorizeAtProvider(
    authorizationUrl: string,
    appOrigin: string,
    accountId: string,
    options: { cancel?: boolean } = {},
  ): Promise<string> {
    let url = authorizationUrl;
    let response = await this.request(url);
    for (let hop = 0; hop < 20; hop++) {
      if (response.status >= 300 && response.status < 400) {
        url = Browser.location(response, url);
        if (url.startsWith(appOrigin)) return url;
        response = await this.request(url);
        continue;
      }
      const page = await response.text();
      const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1];
      if (response.status !== 200 || prompt === undefined) {
        throw new Error(`unexpected page at ${url} (${response.status}): ${page.slice(0, 300)}`);
      }
      const interaction = new URL(url).pathname;
      if (options.cancel) {
        response = await this.request(new URL(`${interaction}/abort`, url).href);
        continue;
      }
      const fields: Record<string, string> =
        prompt === "login" ? { prompt, login: accountId, password: "any" } : { prompt };
      response = await this.submit(url, fields);
    }
    throw new Error("the provider kept redirecting");
  }
}
