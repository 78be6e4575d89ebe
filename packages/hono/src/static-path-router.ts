import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

// Hono's fastest router (RegExpRouter) refuses a static segment beside a parameter
// (`/posts/new` with `/posts/:id`), so an app with both gets its trie router, which walks the
// tree on every request: with an app of ~150 routes that was about 16 µs of `GET /api/health`,
// against 24 µs for the whole of a one-route Hono app. The paths of static routes are few and
// known once routes are added, and their match never changes: remembering it is what
// RegExpRouter's own map of static paths does.

/** Methods whose matches are remembered: a client chooses the method, the set must stay small. */
const REMEMBERED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Whether a route path has no parameter, wildcard, pattern or optional part. */
function isStaticPath(path: string): boolean {
  return !/[:*{?]/.test(path);
}

/**
 * A Hono router that answers the paths of static routes (`/api/health`, `/api/auth/me`) from
 * memory and every other path with Hono's `TrieRouter`, which it wraps: each static path's
 * match (its middleware, its handler, any parameter route it also matches) is computed once per
 * method and kept until a route is added. Only the registered static paths and the usual
 * methods are kept, so a client cannot grow the memory.
 *
 * @example
 * ```ts
 * import { StaticPathRouter } from "@tessera/hono";
 * import { Hono } from "hono";
 *
 * const app = new Hono({ router: new StaticPathRouter() });
 * ```
 */
export class StaticPathRouter<T> implements Router<T> {
  readonly name = "StaticPathRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  /** Remembered matches by method, then by path: no key is built per request. */
  readonly #matches = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    if (isStaticPath(path)) this.#staticPaths.add(path);
    // A new route may change any remembered match (a middleware for `*` changes all).
    this.#matches.clear();
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (!this.#staticPaths.has(path) || !REMEMBERED_METHODS.has(method)) {
      return this.#trie.match(method, path);
    }
    let byPath = this.#matches.get(method);
    if (byPath === undefined) {
      byPath = new Map();
      this.#matches.set(method, byPath);
    }
    let match = byPath.get(path);
    if (match === undefined) {
      match = this.#trie.match(method, path);
      byPath.set(path, match);
    }
    return match;
  }
}
