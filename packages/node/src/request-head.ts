import type { IncomingMessage } from "node:http";

/** A Node request as Express and Fastify hand it over (`originalUrl` is Express's). */
export type NodeIncoming = IncomingMessage & { readonly originalUrl?: string | undefined };

/** Node's header object as `Headers`: repeated headers appended, HTTP/2 pseudo-headers left out. */
export function webHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The request's absolute URL from its path and `Host`; undefined when `Host` makes none. */
export function requestUrl(incoming: NodeIncoming): URL | undefined {
  const encrypted =
    (incoming.socket as { encrypted?: boolean | undefined } | undefined)?.encrypted === true;
  try {
    const host = incoming.headers.host ?? "localhost";
    return new URL(
      incoming.originalUrl ?? incoming.url ?? "/",
      `${encrypted ? "https" : "http"}://${host}`,
    );
  } catch {
    return undefined;
  }
}

/**
 * The WHATWG Request of a Node request's method, URL and headers, without its body (never read,
 * so a body parser mounted later still gets it): what `accounts.currentUser(toRequest(req))`
 * needs in an Express route or, with `request.raw`, a Fastify one. A `Host` that makes no URL
 * gives `http://localhost/`: the headers are what such a caller reads.
 */
export function toRequest(incoming: NodeIncoming): Request {
  const url = requestUrl(incoming) ?? new URL("http://localhost/");
  const headers = webHeaders(incoming);
  try {
    return new Request(url, { method: incoming.method ?? "GET", headers });
  } catch {
    // CONNECT, TRACE and TRACK make no WHATWG Request; their headers still say who is asking.
    return new Request(url, { method: "GET", headers });
  }
}
