import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import Database from "better-sqlite3";
import { compareContenders } from "../../../bench/compare.js";
import { createSessionCookies, signInDevice } from "../src/index.js";
import {
  SqlTrackedSessionStore,
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "../src/sql.js";

// Issue "Performance": keep the lead of a signed-in session check over better-auth's
// `getSession`, measured in the same run. Both on a SQLite file: better-auth's default looks the
// session up in its table on every call; with its cookie cache it reads a signed cookie. Ours
// opens the sealed cookie, and with tracked sessions also checks the device's row.
const folder = mkdtempSync(join(tmpdir(), "tessera-bench-session-"));
const secret = "b".repeat(64);

// better-auth, as its installation guide sets it up: email and password, better-sqlite3.
const betterAuthOf = (cookieCache: boolean) =>
  betterAuth({
    secret,
    baseURL: "http://localhost:3000",
    database: new Database(join(folder, "better-auth.db")),
    emailAndPassword: { enabled: true },
    session: cookieCache ? { cookieCache: { enabled: true, maxAge: 300 } } : {},
    telemetry: { enabled: false },
    logger: { disabled: true },
  });
const plainAuth = betterAuthOf(false);
const cachedAuth = betterAuthOf(true);
await (await getMigrations(plainAuth.options)).runMigrations();
const signedUp = await plainAuth.api.signUpEmail({
  body: { email: "bench@example.com", password: "bench password 1", name: "Bench" },
  asResponse: true,
});
const signIn = await cachedAuth.api.signInEmail({
  body: { email: "bench@example.com", password: "bench password 1" },
  asResponse: true,
});
/** The `name=value` pairs of a response's cookies, as the browser sends them back. */
const cookieHeader = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
const plainHeaders = new Headers({ cookie: cookieHeader(signedUp) });
const cachedHeaders = new Headers({ cookie: cookieHeader(signIn) });
for (const [auth, headers] of [
  [plainAuth, plainHeaders],
  [cachedAuth, cachedHeaders],
] as const) {
  if (!(await auth.api.getSession({ headers }))) throw new Error("better-auth: no session");
}

// Ours: a signed-in cookie, and one whose device is tracked in a table on the same engine.
const database = openSqliteFile(join(folder, "tessera.db"));
await database.execScript("CREATE TABLE users (id INTEGER PRIMARY KEY)");
await database.run("INSERT INTO users (id) VALUES (42)");
await applyMigrations(database, [
  userSessionsMigration,
  userSessionsExpiryIndexMigration,
  userSessionsFactorsMigration,
]);
const stateless = createSessionCookies({ appName: "tessera", secrets: { current: secret } });
const tracked = createSessionCookies({
  appName: "tessera",
  secrets: { current: secret },
  trackedSessions: new SqlTrackedSessionStore(database),
});
/** A request carrying the cookie of a sign-in through `cookies`. */
async function signedInRequest(cookies: typeof stateless): Promise<Request> {
  const login = new Request("http://localhost:3000/login");
  const session = await cookies.read(login);
  await signInDevice(cookies, login, { session, clientAddress: "127.0.0.1", params: {} }, 42);
  const cookie = (await cookies.setCookie(session))!.split(";")[0]!;
  return new Request("http://localhost:3000/posts", { headers: { cookie } });
}
const statelessRequest = await signedInRequest(stateless);
const trackedRequest = await signedInRequest(tracked);
for (const [cookies, request] of [
  [stateless, statelessRequest],
  [tracked, trackedRequest],
] as const) {
  if ((await cookies.read(request)).userId !== 42) throw new Error("ours: not signed in");
}

process.stderr.write("benchmarking session checks…\n");
const result = await compareContenders(
  "Is this request signed in? (SQLite file)",
  [
    {
      name: "better-auth getSession (session table)",
      run: () => plainAuth.api.getSession({ headers: plainHeaders }),
    },
    {
      name: "better-auth getSession (cookie cache)",
      run: () => cachedAuth.api.getSession({ headers: cachedHeaders }),
    },
    {
      name: "@tessera/session read (tracked sessions: the device's row)",
      run: () => tracked.read(trackedRequest),
    },
    { name: "@tessera/session read (cookie alone)", run: () => stateless.read(statelessRequest) },
  ],
  {
    note: `better-auth ${betterAuthVersion()} set up as its guide shows (email and password, better-sqlite3); one signed-in user. A ratio under 1.00x is faster.`,
  },
);
process.stdout.write(
  `## @tessera/session: a session check against better-auth\n\n${result.markdown}`,
);
database.close();
rmSync(folder, { recursive: true, force: true });

/** The installed better-auth's version, from the package.json beside its entry point. */
function betterAuthVersion(): string {
  const entry = createRequire(import.meta.url).resolve("better-auth");
  const root = entry.slice(0, entry.lastIndexOf("/better-auth/") + "/better-auth/".length);
  return (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { version: string }).version;
}
