import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { localeNegotiation, routeRequests, withMiddleware } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, expect } from "vitest";
import { french } from "../../../examples/app/src/locales/french.js";
import { accountRoutes, type MissingMailer, missingMailer } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-email-change-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The password of every user the helpers sign up. */
export const PASSWORD = "correct horse battery staple";
/** The app's origin. */
export const ORIGIN = "https://app.example";
/** A token's shape in a mailed link. */
export const LINK = /^https:\/\/app\.example\/email_changes\/([A-Za-z0-9_-]{43})$/m;

/** How the app of {@link emailChangeApp} is set up. */
export interface EmailChangeAppOptions {
  /** `memory` (the default): a MemoryMailer; `none`: no mailer; `missing`: `missingMailer`. */
  readonly mail?: "memory" | "none" | "missing";
  /** The real clock instead of the test's, which starts at a fixed time and moves when told. */
  readonly realClock?: boolean;
  /** Answer in French a request that asks for it (`Accept-Language: fr`). */
  readonly french?: boolean;
}

/**
 * `accountRoutes` on a new SQLite file (`sqlAccountStores`, so with `email_changes`), with
 * every `onEmailChanged` recorded as `[email, previousEmail]`.
 */
export async function emailChangeApp(options: EmailChangeAppOptions = {}) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const clock = { now: Date.UTC(2026, 10, 27, 9, 0, 10) };
  const mailer = new MemoryMailer();
  const mail = options.mail ?? "memory";
  const chosenMailer: MemoryMailer | MissingMailer | undefined =
    mail === "memory" ? mailer : mail === "missing" ? missingMailer("MAIL_ADAPTER") : undefined;
  const emailChanges: [email: string, previousEmail: string][] = [];
  const stores = sqlAccountStores(database);
  const accounts = accountRoutes({
    ...stores,
    ...(chosenMailer ? { mailer: chosenMailer } : {}),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    ...(options.realClock ? {} : { clock: () => clock.now }),
    hooks: {
      onEmailChanged: ({ user, previousEmail }) => {
        emailChanges.push([user.email, previousEmail]);
      },
    },
  });
  const routes = options.french
    ? withMiddleware(accounts.routes, localeNegotiation({ catalogs: { fr: french } }))
    : accounts.routes;
  const handle = routeRequests(routes);
  const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}`;
  const send = async (request: Request, from = clientAddress) => {
    const response = await handle(request, { clientAddress: from });
    if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
    return response;
  };
  const language = options.french ? { "accept-language": "fr" } : {};
  /** A JSON request (`POST` unless told), with the bearer token when given. */
  const call = (
    path: string,
    body: unknown,
    bearer?: string,
    init: { readonly method?: string; readonly from?: string } = {},
  ) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method: init.method ?? "POST",
        headers: {
          "content-type": "application/json",
          ...language,
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        ...(init.method === "GET" ? {} : { body: JSON.stringify(body) }),
      }),
      init.from,
    );
  /** A browser: its own cookie jar, pages, and form posts (from the app's pages unless told). */
  const browser = () => {
    let cookie = "";
    const request = async (
      path: string,
      form: Record<string, string> | undefined,
      origin = ORIGIN,
    ) => {
      const headers = { origin, host: "app.example", cookie, ...language };
      const response = await send(
        new Request(`${ORIGIN}${path}`, {
          method: form ? "POST" : "GET",
          headers: form
            ? { ...headers, "content-type": "application/x-www-form-urlencoded" }
            : headers,
          ...(form ? { body: new URLSearchParams(form) } : {}),
        }),
      );
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
    const get = (path: string) => request(path, undefined);
    return {
      get,
      form: (path: string, fields: Record<string, string> = {}, origin = ORIGIN) =>
        request(path, fields, origin),
      /** The page a 303 leads to, after every further 303. */
      async follow(response: Response): Promise<string> {
        let answer = response;
        while (answer.status === 303) answer = await get(answer.headers.get("location")!);
        return answer.text();
      },
    };
  };
  /** Signs up a user with {@link PASSWORD} over JSON: the address and a fresh token. */
  const signUp = async (email = `ada-${crypto.randomUUID()}@example.com`) => {
    expect((await call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
    const token = await call("/api/auth/token", { email, password: PASSWORD });
    expect(token.status).toBe(200);
    return { email, bearer: ((await token.json()) as { token: string }).token };
  };
  /** The emails of the users, by id. */
  const emails = async () =>
    (await database.all<{ email: string }>("SELECT email FROM users ORDER BY id")).map(
      (row) => row.email,
    );
  /** The token of the newest link mailed to `to`. */
  const linkTokenTo = (to: string): string => {
    const token = LINK.exec(mailer.last(to)?.text ?? "")?.[1];
    if (!token) throw new Error(`no email change link was mailed to ${to}`);
    return token;
  };
  /** Asks, as the user of `bearer` with {@link PASSWORD}, to move to `to`: the link's token. */
  const requestChange = async (bearer: string, to: string): Promise<string> => {
    const body = { email: to, current_password: PASSWORD };
    expect((await call("/api/auth/email", body, bearer)).status).toBe(202);
    return linkTokenTo(to);
  };
  return {
    database,
    stores,
    mailer,
    emailChanges,
    clock,
    clientAddress,
    call,
    browser,
    signUp,
    emails,
    linkTokenTo,
    requestChange,
  };
}

/** An app of {@link emailChangeApp}. */
export type EmailChangeApp = Awaited<ReturnType<typeof emailChangeApp>>;

/** The JSON error body of a refusal, after checking its status. */
export async function refusal(response: Response, status: number) {
  expect(response.status).toBe(status);
  return ((await response.json()) as { error: Record<string, unknown> }).error;
}
