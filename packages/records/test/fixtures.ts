import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import type { Locale } from "@tessera/core";
import { defineModel, type Model } from "@tessera/fields";
import { type Authentication, routeRequests, unauthorized } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { richTextSanitizer } from "@tessera/sanitizer";
import { createSessionCookies, type Session } from "@tessera/session";
// Until @tessera/sqlite's index exports the record store, the tests take it from its source.
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll } from "vitest";
import { type HtmlRecordRoutesOptions, htmlRecordRoutes } from "../src/html.js";
import { jsonRecordRoutes, MemoryObjectStorage, type RecordRoutesOptions } from "../src/index.js";
import { recordMigration } from "../src/sql.js";

// The four resources of the example app (docs/routes.md), declared exactly as written there.
export const postModel = defineModel(
  "post",
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments".split(
    " ",
  ),
  { richText: richTextSanitizer },
);
export const commentModel = defineModel("comment", ["post:references", "body:text"]);
export const labelModel = defineModel("label", [
  "public_id:token",
  "name:string^",
  "color:string?",
]);
export const reactionModel = defineModel("reaction", [
  "target:polymorphic:post,comment",
  "kind:enum:like,love",
]);
/** Not one of the app's resources: a `^` field opted into uniqueness per owner. */
export const tagModel = defineModel("tag", ["name:string^"], { uniqueScope: "owner" });
export const MODELS: readonly Model[] = [
  postModel,
  commentModel,
  labelModel,
  reactionModel,
  tagModel,
];

/** Ada (user 1) and Bob (user 2). */
export const ADA = 1;
export const BOB = 2;
const EMAILS: Record<number, string> = { [ADA]: "ada@example.com", [BOB]: "bob@example.com" };

/** The header the tests' requests name their user in, as a token would. */
export const TEST_OWNER_HEADER = "x-test-owner";

/**
 * The tests' `authenticate`: the user named in {@link TEST_OWNER_HEADER}, or the 401 a bearer
 * refusal gives. The routes' own checks are what the tests are about, not credentials.
 */
export async function testAuthentication(
  request: Request,
): Promise<Authentication<{ user: { id: number; email: string } }>> {
  const id = Number(request.headers.get(TEST_OWNER_HEADER));
  return EMAILS[id]
    ? { ok: true, value: { user: { id, email: EMAILS[id] } } }
    : { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) };
}

/** A request of `ownerId` (see {@link testAuthentication}). */
export function ownersRequest(ownerId: number, url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set(TEST_OWNER_HEADER, String(ownerId));
  return new Request(url, { ...init, headers });
}
export const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);

const folder = mkdtempSync(join(tmpdir(), "tessera-records-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

const sessions = createSessionCookies({
  appName: "records_test",
  secrets: { current: "a test secret key base that is long enough to use" },
});

/** A real SQLite file with the users and the record tables, and every route mounted. */
export async function setUpApp(
  overrides: Partial<Omit<HtmlRecordRoutesOptions, "layout" | "authenticate" | "sessions">> = {},
) {
  const database = openSqliteFile(join(folder, `records-${++files}.db`));
  await applyMigrations(database, [
    usersMigration,
    recordMigration(postModel, "0100_create_posts"),
    recordMigration(commentModel, "0101_create_comments"),
    recordMigration(labelModel, "0102_create_labels"),
    recordMigration(reactionModel, "0103_create_reactions"),
    recordMigration(tagModel, "0104_create_tags"),
  ]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  const storage = new MemoryObjectStorage();
  let now = T0;
  const clock = () => now;
  const optionsOf = (model: Model): RecordRoutesOptions => ({
    model,
    store: new SqlRecordStore(database, model),
    storage,
    clock,
    ...overrides,
  });
  const layout = ({ title, mainHtml }: { title: string; mainHtml: string }) =>
    `<!doctype html><title>${title}</title><main>${mainHtml}</main>`;
  const jsonRoutes = routeRequests(
    MODELS.flatMap((model) =>
      jsonRecordRoutes({ ...optionsOf(model), authenticate: testAuthentication }),
    ),
  );
  const htmlRoutes = routeRequests(
    MODELS.flatMap((model) =>
      htmlRecordRoutes({ ...optionsOf(model), layout, sessions, authenticate: testAuthentication }),
    ),
  );

  /**
   * Calls the route that a router would pick for the request, as `ownerId`, in `locale` when
   * given (as `localeNegotiation` would choose it, without its headers).
   */
  async function api(
    ownerId: number,
    method: string,
    path: string,
    init: RequestInit = {},
    locale?: Locale,
  ) {
    const request = ownersRequest(ownerId, `http://app.test${path}`, { method, ...init });
    const response = await jsonRoutes(request, locale ? { locale } : {});
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return response;
  }

  /** Sends a JSON body, in `locale` when given (see `api`). */
  const sendJson = (
    ownerId: number,
    method: string,
    path: string,
    body: unknown,
    locale?: Locale,
  ) =>
    api(
      ownerId,
      method,
      path,
      { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
      locale,
    );

  /** An HTML request as `ownerId`, with a real cookie session; returns it to read flashes. */
  async function page(ownerId: number, method: string, path: string, init: RequestInit = {}) {
    const request = ownersRequest(ownerId, `http://app.test${path}`, { method, ...init });
    const session: Session = await sessions.read(new Request("http://app.test/"));
    const response = await htmlRoutes(request, { session });
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return { response, session, html: await response.clone().text() };
  }

  /** Posts a form (urlencoded, or multipart when it holds a file). */
  const submit = (ownerId: number, path: string, form: URLSearchParams | FormData) =>
    page(ownerId, "POST", path, { body: form });

  return {
    database,
    storage,
    api,
    sendJson,
    page,
    submit,
    setNow: (ms: number) => {
      now = ms;
    },
    rows: (table: string) => database.all<Record<string, unknown>>(`SELECT * FROM ${table}`),
  };
}

/** A complete valid post body. */
export function postBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: "Hello", status: "draft", ...overrides };
}

/** The error envelope's parts, for assertions. */
export async function envelope(response: Response) {
  return (await response.json()) as {
    error: { message: string; status: number; fields?: Record<string, string[]> };
  };
}

/** A multipart body with one file in part `file`. */
export function fileForm(contents: string | Uint8Array, filename: string, type: string): FormData {
  const form = new FormData();
  form.append("file", new File([contents as BlobPart], filename, { type }));
  return form;
}
