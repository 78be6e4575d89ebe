/** A `fetch` as openapi-fetch calls it: one `Request` in, its `Response` out. */
export type Fetch = (request: Request) => Promise<Response>;

/** An answer of the service: its status and its body parsed as JSON (undefined when empty). */
export interface ServiceAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Sends `method path` to the service at `baseUrl` with `body` as JSON (when given) through
 * `fetch`, and reads the answer.
 */
export async function callService(
  fetch: Fetch,
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ServiceAnswer> {
  const request = new Request(`${baseUrl.replace(/\/+$/, "")}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await fetch(request);
  return { status: response.status, body: await readJson(response) };
}

/** The body as JSON, or undefined when it is empty or not JSON. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
