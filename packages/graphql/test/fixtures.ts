import { usersMigration } from "@tessera/accounts/sql";
import type { Locale } from "@tessera/core";
import { defineModel, type Model } from "@tessera/fields";
import { type Authentication, routeRequests, unauthorized } from "@tessera/http";
import {
  jsonRecordRoutes,
  MemoryObjectStorage,
  type RecordRoutesOptions,
  type RecordUser,
} from "@tessera/records";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import { richTextSanitizer } from "@tessera/sanitizer";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { compileQuery } from "graphql-jit";
import { type GraphqlRoutesOptions, graphqlRoutes } from "../src/index.js";

/** The reference target. */
export const postModel = defineModel("post", ["title:string"]);
/** The example app's notes, declared as it declares them. */
export const noteModel = defineModel(
  "note",
  "title:string body:text? pinned:bool due_on:date? rating:float? word_count:integer? tags:json? post:references?".split(
    " ",
  ),
);
/** A required reference, whose id must reach the decoder as a number. */
export const commentModel = defineModel("comment", ["post:references", "body:text"]);
/** Every other type GraphQL serves, a lock version, a unique field and two kinds of files. */
export const articleModel = defineModel(
  "article",
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? slug:string?^ cover:attachment? lock_version:integer photos:attachments link:polymorphic:post,note?".split(
    " ",
  ),
  { richText: richTextSanitizer },
);

/**
 * The suites run twice: on graphql-js's interpreter, and (project `graphql-jit`) on operations
 * compiled by graphql-jit, so both executors keep one contract.
 */
export const EXECUTOR_OPTIONS: Partial<GraphqlRoutesOptions> =
  process.env.TESSERA_TEST_GRAPHQL_EXECUTOR === "graphql-jit" ? { compileQuery } : {};

/** Ada (user 1) and Bob (user 2); the tokens the tests' authenticate accepts. */
export const ADA = 1;
export const BOB = 2;
const TOKENS: Readonly<Record<string, number>> = { "ada-token": ADA, "bob-token": BOB };

/** Reads `Authorization: Bearer <token>` against the two test tokens, as a bearer check would. */
export async function authenticate(request: Request): Promise<Authentication<RecordUser>> {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
  const id = token === undefined ? undefined : TOKENS[token];
  return id === undefined
    ? { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) }
    : { ok: true, value: { user: { id } } };
}

/** A GraphQL answer: HTTP status, headers and the parsed body. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the answer has.
  readonly body: any;
}

/** How a test sends one operation. */
export interface SendOptions {
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Which operation of the document to run. */
  readonly operationName?: string;
  /** The bearer token; default Ada's; null sends none. */
  readonly token?: string | null;
  readonly accept?: string;
  /** The locale the request is answered in, as `localeNegotiation` would choose it. */
  readonly locale?: Locale;
}

/**
 * An in-memory SQLite database with users, posts, notes, articles and comments, the GraphQL API on it,
 * and the JSON routes of the same models to compare with.
 */
export async function setUp(overrides: Partial<GraphqlRoutesOptions> = {}) {
  const database = openSqliteFile(":memory:");
  const models: readonly Model[] = [postModel, noteModel, articleModel, commentModel];
  await applyMigrations(database, [
    usersMigration,
    ...models.map((model, index) => recordMigration(model, `010${index}_create_${model.table}`)),
  ]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  const storage = new MemoryObjectStorage();
  let now = Date.UTC(2025, 0, 1, 8, 0, 0);
  const optionsOf = (model: Model): RecordRoutesOptions => ({
    model,
    store: new SqlRecordStore(database, model),
    storage,
    // Each write a second later, so timestamps tell writes apart.
    clock: () => (now += 1000),
  });
  const records = models.map(optionsOf);
  const route = routeRequests(
    graphqlRoutes({ records, authenticate, ...EXECUTOR_OPTIONS, ...overrides }),
  );
  const api = {
    handle: async (request: Request, locale?: Locale) =>
      (await route(request, locale ? { locale } : {})) ?? new Response("no route", { status: 404 }),
  };

  /** Sends one operation as a client would: POST, JSON body, bearer token. */
  async function send(query: string, options: SendOptions = {}): Promise<Answer> {
    const token = options.token === undefined ? "ada-token" : options.token;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.accept) headers.accept = options.accept;
    const response = await api.handle(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers,
        body: JSON.stringify({
          query,
          variables: options.variables ?? {},
          ...(options.operationName ? { operationName: options.operationName } : {}),
        }),
      }),
      options.locale,
    );
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  }

  /** Rows of a table as SQLite holds them. */
  const rows = (sql: string, ...params: unknown[]) =>
    database.connection.prepare(sql).all(...params) as Record<string, unknown>[];

  /** The JSON record routes of a model, as Ada, to compare what both APIs store. */
  const json = (model: Model) => {
    const routes = routeRequests(
      jsonRecordRoutes({ ...records[models.indexOf(model)]!, authenticate }),
    );
    return async (method: string, path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", "Bearer ada-token");
      return (await routes(new Request(`http://localhost${path}`, { ...init, method, headers })))!;
    };
  };

  return { api, database, send, rows, json, storage };
}

/** A post of `ownerId` (the target of `postId`), straight into the table. */
export async function insertPost(
  database: Awaited<ReturnType<typeof setUp>>["database"],
  ownerId: number,
  title = "A post",
): Promise<number> {
  const row = await database.get<{ id: number }>(
    "INSERT INTO posts (user_id, title, created_at, updated_at) VALUES (?, ?, '2025-01-01 00:00:00', '2025-01-01 00:00:00') RETURNING id",
    [ownerId, title],
  );
  return row!.id;
}
