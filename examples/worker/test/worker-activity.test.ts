// The audit trail on the Worker (issue 48), over JSON in workerd through `npm run dev`: a
// sign-up, a failed sign-in and a sign-in are rows of D1's `audit_events`, with the client's
// address as the edge gives it, and `GET /api/auth/activity` answers them to their user, newest
// first, and to nobody without a token.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchFrom } from "./loopback-client.js";
import { d1Rows, startWorker, type WorkerProcess } from "./worker-process.js";

const PASSWORD = "correct horse battery staple";

const folder = mkdtempSync(join(tmpdir(), "tessera-worker-activity-"));
const databasePath = join(folder, "app.db");

let worker: WorkerProcess;
let clients = 0;

beforeAll(async () => {
  worker = await startWorker({ DATABASE_PATH: databasePath, MAIL_ADAPTER: "log" });
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A JSON call from `client` (a loopback address: the edge reads it from the socket). */
async function call(
  client: string,
  path: string,
  options: { readonly token?: string; readonly json?: unknown } = {},
) {
  const headers: Record<string, string> = { "user-agent": "WorkerActivityTest/1.0" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const answer = await fetchFrom(client, `${worker.url}${path}`, {
    method: options.json === undefined ? "GET" : "POST",
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

interface AuditRow {
  readonly type: string;
  readonly user_id: number | null;
  readonly actor_id: number | null;
  readonly ip: string | null;
  readonly user_agent: string | null;
  readonly details: string;
}

describe("the audit trail on the Worker", () => {
  it("records a sign-up and a failed sign-in in D1 and answers them at GET /api/auth/activity", async () => {
    const email = `activity.${Date.now()}@example.com`;
    const client = `127.0.4.${++clients + 1}`;
    const signup = await call(client, "/api/auth/signup", { json: { email, password: PASSWORD } });
    expect(signup.status).toBe(201);
    const id = signup.body.id as number;

    const wrong = await call(client, "/api/auth/token", {
      json: { email, password: "not the password at all" },
    });
    expect(wrong.status).toBe(401);
    // An address with no account is recorded too, with no user.
    const nobody = `nobody.${Date.now()}@example.com`;
    const unknown = await call(client, "/api/auth/token", {
      json: { email: nobody, password: PASSWORD },
    });
    expect(unknown.status).toBe(401);

    const rows = d1Rows(databasePath)<AuditRow>(
      "SELECT type, user_id, actor_id, ip, user_agent, details FROM audit_events WHERE user_id = ? ORDER BY id",
      id,
    );
    expect(rows.map((row) => ({ ...row, details: JSON.parse(row.details) }))).toEqual([
      {
        type: "user.signed_up",
        user_id: id,
        actor_id: null,
        ip: client,
        user_agent: "WorkerActivityTest/1.0",
        details: { method: "password" },
      },
      {
        type: "user.sign_in_failed",
        user_id: id,
        actor_id: null,
        ip: client,
        user_agent: "WorkerActivityTest/1.0",
        details: { method: "password", reason: "wrong_password" },
      },
    ]);
    const anonymous = d1Rows(databasePath)<{ details: string }>(
      "SELECT details FROM audit_events WHERE type = 'user.sign_in_failed' AND user_id IS NULL",
    );
    expect(anonymous.map((row) => JSON.parse(row.details))).toEqual([
      { method: "password", reason: "wrong_password" },
    ]);
    // Neither password reaches the trail.
    const everything = JSON.stringify(d1Rows(databasePath)("SELECT * FROM audit_events"));
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain("not the password at all");

    const issued = await call(client, "/api/auth/token", { json: { email, password: PASSWORD } });
    expect(issued.status).toBe(200);
    const activity = await call(client, "/api/auth/activity", { token: issued.body.token });
    expect(activity.status).toBe(200);
    expect(
      activity.body.map((event: Record<string, unknown>) => [
        event.type,
        event.user_id,
        event.ip,
        event.details,
      ]),
    ).toEqual([
      ["user.signed_in", id, client, { method: "password", grant: "token" }],
      ["user.sign_in_failed", id, client, { method: "password", reason: "wrong_password" }],
      ["user.signed_up", id, client, { method: "password" }],
    ]);
    expect(activity.body[0].at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const withoutToken = await call(client, "/api/auth/activity");
    expect(withoutToken.status).toBe(401);
  });
});
