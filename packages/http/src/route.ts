import type { Locale } from "@tessera/core";

/** The methods a {@link Route} answers. `HEAD` is answered by the `GET` route of the path. */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What every handler gets besides the Request; adapters fill it in. */
export interface RouteContext {
  /** Path parameters by name, from the `:name` segments of the route's path, decoded. */
  readonly params: Readonly<Record<string, string>>;
  /**
   * The client's address (see {@link @tessera/http!clientIp}): rate limits key on it. `"unknown"` when the
   * adapter cannot tell.
   */
  readonly clientAddress: string;
  /**
   * The language to write messages in, chosen by {@link @tessera/http!localeNegotiation}; English
   * when absent.
   */
  readonly locale?: Locale | undefined;
}

/** The context of a route that answers pages: the nonce of its answer's scripts. */
export interface PageRouteContext extends RouteContext {
  /**
   * This answer's Content-Security-Policy nonce (see `withPageHeaders`): the page's layout puts
   * it on every `<script>` tag, which does not run without it.
   */
  readonly cspNonce: string;
}

/** A ready handler: WHATWG Request and its context in, Response out. */
export type RouteHandler<C extends RouteContext = RouteContext> = (
  request: Request,
  context: C,
) => Promise<Response>;

/**
 * One route to mount: a method, a path with `:name` parameters (`/api/posts/:id`), and its
 * handler. Every package's `*Routes(options)` returns these; adapters mount them as they are.
 */
export interface Route<C extends RouteContext = RouteContext> {
  readonly method: RouteMethod;
  readonly path: string;
  readonly handle: RouteHandler<C>;
}

/**
 * Who a request acts for, or the ready response that refuses it (a 401 with its challenge, a
 * redirect to sign-in). Routes that need a user take an {@link Authenticate} option.
 */
export type Authentication<U> =
  | { readonly ok: true; readonly value: U }
  | { readonly ok: false; readonly response: Response };

/** Decides who a request acts for; see {@link Authentication}. */
export type Authenticate<U, C extends RouteContext = RouteContext> = (
  request: Request,
  context: C,
) => Promise<Authentication<U>>;
