import { openApiChecker } from "../../../../test/support/openapi-responses.js";

/** What {@link documentedApi} answers for one call. */
export interface DocumentedAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, undefined when empty. */
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as JSON.parse's
  readonly body: any;
}

/** A caller of the app's JSON API that checks every request and answer against its document. */
export interface DocumentedApi {
  /**
   * Sends `method path` with a bearer `token` and a JSON `body` when given (`headers` added),
   * and checks the body against the operation's request schema and the answer against the
   * documented status and schema; what does not conform goes in {@link problems}.
   */
  call(
    method: string,
    path: string,
    options?: {
      readonly token?: string | undefined;
      readonly body?: unknown;
      readonly headers?: Record<string, string> | undefined;
      /** A body sent on purpose against the schema (a refusal's test): not checked. */
      readonly invalidBody?: boolean | undefined;
    },
  ): Promise<DocumentedAnswer>;
  /** Every problem found so far: a test ends with `expect(api.problems).toEqual([])`. */
  readonly problems: string[];
  /** The document served at `GET /api/openapi.json`. */
  readonly document: Record<string, unknown>;
}

/**
 * A caller of the app at `baseUrl` checking its answers against the document the app serves
 * (`GET /api/openapi.json`), as a client generated from that document relies on them.
 */
export async function documentedApi(
  baseUrl: string,
  defaults: { readonly headers?: Record<string, string> | undefined } = {},
): Promise<DocumentedApi> {
  const response = await fetch(`${baseUrl}/api/openapi.json`);
  const document = (await response.json()) as Record<string, unknown>;
  const checker = openApiChecker(document);
  const problems: string[] = [];
  return {
    problems,
    document,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...defaults.headers, ...options.headers };
      if (options.body !== undefined) headers["content-type"] ??= "application/json";
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined && !options.invalidBody) {
        problems.push(...checker.requestProblems(method, path, options.body));
      }
      const answer = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
      });
      const text = await answer.text();
      const body = text ? JSON.parse(text) : undefined;
      problems.push(...checker.responseProblems(method, path, answer.status, body));
      return { status: answer.status, headers: answer.headers, body };
    },
  };
}
