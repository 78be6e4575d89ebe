/**
 * Calls the app's JSON API at `baseUrl`, with a bearer token when given: answers the status
 * and the parsed body (undefined when empty), as loosely typed as `JSON.parse`'s.
 */
export async function callJsonApi(
  baseUrl: string,
  method: string,
  path: string,
  token?: string,
  json?: unknown,
) {
  const headers: Record<string, string> = {};
  if (json !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: json === undefined ? null : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Signs `email` up (unless `existing`) and answers a bearer token for it, from `client` (an
 * address of its own, so rate limits of other tests do not count).
 */
export async function bearerTokenFor(
  baseUrl: string,
  email: string,
  options: { readonly client: string; readonly existing?: boolean },
): Promise<string> {
  const credentials = { email, password: "correct horse battery" };
  const headers = { "content-type": "application/json", "x-forwarded-for": options.client };
  const paths = options.existing ? ["/api/auth/token"] : ["/api/auth/signup", "/api/auth/token"];
  let answer: Response | undefined;
  for (const path of paths) {
    answer = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(credentials),
    });
  }
  const body = (await answer!.json()) as { token?: string };
  if (!body.token) throw new Error(`no token for ${email}: ${JSON.stringify(body)}`);
  return body.token;
}
