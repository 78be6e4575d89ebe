/**
 * `pattern`, a route's path (`/orgs/:slug/webhooks`), with each `:name` segment replaced by
 * `params.name`, URL-encoded: the address a request of that route is at, for its page's links,
 * forms and redirects. A pattern without parameters is returned as it is.
 */
export function filledPath(
  pattern: string,
  params: Readonly<Record<string, string | undefined>>,
): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_segment, name: string) =>
    encodeURIComponent(params[name] ?? ""),
  );
}
