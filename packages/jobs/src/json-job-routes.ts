import { requireFunctionOption, requireObjectOption } from "@tessera/core";
import { localizeFieldMessages, prepareRichText } from "@tessera/fields";
import {
  type Authenticate,
  authenticated,
  badRequest,
  jsonAnswer,
  loadListPage,
  notFound,
  pathId,
  type Route,
  type RouteContext,
  type RouteHandler,
  readJsonBody,
  readListPage,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import { encodeJob } from "./job-json.js";
import type { JobRunner } from "./job-runner.js";
import type { JobStore } from "./job-store.js";

/** What a job route's handler gets once the request is authenticated: the user it acts for. */
type JobOwnerContext = RouteContext & { readonly user: { readonly id: number } };

/** What {@link jsonJobRoutes} is built from. */
export interface JsonJobRoutesOptions {
  /** The job wired with `createJobRunner`: start and callback. */
  readonly runner: JobRunner;
  /** The same store the runner writes: the owner's reads. */
  readonly store: JobStore;
  /**
   * Who a request acts for: `bearerAuthentication(authenticator)` of @tessera/bearer. Its
   * refusal (401, `WWW-Authenticate: Bearer`) is the answer, before any store is touched.
   */
  readonly authenticate: Authenticate<{ readonly user: { readonly id: number } }>;
}

/**
 * The routes of one kind of job (table `<name>_jobs`):
 * - `POST /api/<name>_jobs`: decodes the input, starts the job, 201 with it;
 * - `GET /api/<name>_jobs?limit=&offset=`: the user's jobs, newest first, paged as record lists;
 * - `GET /api/<name>_jobs/:id`: one of the user's jobs (another user's is a 404 like a missing one);
 * - `POST /webhooks/<name>/:id?token=`: the service's callback (signed or token-checked, not
 *   authenticated as a user).
 */
export function jsonJobRoutes(options: JsonJobRoutesOptions): Route[] {
  const fn = "jsonJobRoutes";
  requireObjectOption(
    fn,
    options,
    "runner",
    ["start"],
    "pass `createJobRunner({ definition, … })`",
  );
  requireObjectOption(
    fn,
    options,
    "store",
    ["findOwned", "listOwned"],
    "pass the job store, e.g. `new SqlJobStore(database, definition)` from @tessera/jobs/sql",
  );
  requireFunctionOption(
    fn,
    options,
    "authenticate",
    "pass the bearer check, e.g. `bearer.authenticate`",
  );
  const { runner, store, authenticate } = options;
  const { definition } = runner;
  const base = `/api/${definition.table}`;

  const handlers = {
    async start(request, { user, locale }) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const richText = await prepareRichText(definition.inputs, body.value);
      const input = definition.decodeInput(body.value, richText);
      if (!input.ok) {
        // The 422's messages in the asker's language; a 400's diagnostic stays as written.
        return input.status === 422
          ? validationFailed(localizeFieldMessages(input.fields, locale), locale)
          : input.response;
      }
      const job = await runner.start(user.id, input.value);
      return jsonAnswer(encodeJob(job), { status: 201, locale });
    },

    async list(request, { user, locale }) {
      const url = new URL(request.url);
      const page = readListPage(url);
      if (!page.ok) return badRequest(page.reason);
      const { rows, headers } = await loadListPage(url, page.value, (asked) =>
        store.listOwned(user.id, asked),
      );
      return jsonAnswer(rows.map(encodeJob), { headers, locale });
    },

    async show(_request, { params, user, locale }) {
      const id = pathId(params.id);
      const job = id === undefined ? undefined : await store.findOwned(user.id, id);
      return job ? jsonAnswer(encodeJob(job), { locale }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<JobOwnerContext>>;

  return [
    ...withMiddleware(
      [
        { method: "POST", path: base, handle: handlers.start },
        { method: "GET", path: base, handle: handlers.list },
        { method: "GET", path: `${base}/:id`, handle: handlers.show },
      ],
      authenticated(authenticate),
    ),
    // Not a user's request: the callback proves itself with its signature or token.
    { method: "POST", path: `/webhooks/${definition.name}/:id`, handle: runner.handleCallback },
  ];
}
