import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { accountRoutes } from "../src/index.js";
import { answerAfterFloor, MAIL_ANSWER_FLOOR_MS } from "../src/mail-answer-floor.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-mail-answers-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery staple";

/** Lets the event loop turn `turns` times (real `setImmediate`): what is not timed gets done. */
async function turnsOfTheLoop(turns = 20) {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Sends a request under a fake `setTimeout`, checks it has not answered once its work could be
 * done (`done`, or some turns of the loop), then moves the clock over the floor and returns the
 * answer.
 */
async function answeredAfterTheFloor(send: () => Promise<Response>, done: () => boolean) {
  vi.useFakeTimers({ toFake: ["setTimeout"] });
  let answered = false;
  const sending = send().finally(() => {
    answered = true;
  });
  for (let turns = 0; turns < 200 && !done(); turns++) await turnsOfTheLoop(1);
  await turnsOfTheLoop();
  expect(answered).toBe(false);
  await vi.advanceTimersByTimeAsync(MAIL_ANSWER_FLOOR_MS);
  const response = await sending;
  vi.useRealTimers();
  return response;
}

/** What of an answer must not depend on the address: its status, headers and bytes. */
async function answerSeen(response: Response, leaveOut: readonly string[] = []) {
  const headers = [...response.headers].filter(([name]) => !leaveOut.includes(name));
  return { status: response.status, headers, body: await response.text() };
}

/** The account routes on a SQLite file with one signed-up account, mails kept in memory. */
async function app() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, accountMigrations);
  const mailer = new MemoryMailer();
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    mailer,
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    // Fixed: every rate-limit answer of a test falls in one window.
    clock: () => Date.UTC(2026, 10, 27, 9, 0, 10),
  });
  const handle = routeRequests(accounts.routes);
  let clients = 0;
  const send = async (path: string, body: string, contentType: string, cookie = "") => {
    const headers = { "content-type": contentType, origin: ORIGIN, host: "app.example", cookie };
    const request = new Request(`${ORIGIN}${path}`, { method: "POST", headers, body });
    const response = await handle(request, { clientAddress: `198.51.100.${++clients}` });
    if (!response) throw new Error(`no route for POST ${path}`);
    return response;
  };
  const postJson = (path: string, body: unknown) =>
    send(path, JSON.stringify(body), "application/json");
  const postForm = (path: string, fields: Record<string, string>) =>
    send(path, String(new URLSearchParams(fields)), "application/x-www-form-urlencoded");
  /** The login page as the browser holding `response`'s session cookie sees it next. */
  const nextLoginPage = async (response: Response) => {
    const cookie = response.headers.getSetCookie()[0]!.split(";")[0]!;
    const request = new Request(`${ORIGIN}/login`, { headers: { host: "app.example", cookie } });
    return (await handle(request, { clientAddress: "198.51.100.250" }))!.text();
  };
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await postJson("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  mailer.clear();
  return { postJson, postForm, nextLoginPage, mailer, email };
}

describe("answerAfterFloor", () => {
  it("resolves with the work's value, no sooner than the floor", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    let settled = false;
    const answer = answerAfterFloor(async () => "done", 50).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toBe("done");
  });

  it("passes a failure on no sooner than the floor either", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    let settled = false;
    const answer = answerAfterFloor(() => Promise.reject(new Error("disk full")), 50);
    answer
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).rejects.toThrow("disk full");
  });
});

describe("the mail requests", () => {
  it("POST /api/auth/email_code: the same bytes and headers for a known and an unknown address, after the floor; the code goes to the account", async () => {
    const subject = await app();
    const mailed = () => subject.mailer.sent.length > 0;
    const known = await answeredAfterTheFloor(
      () => subject.postJson("/api/auth/email_code", { email: subject.email }),
      mailed,
    );
    const unknown = await answeredAfterTheFloor(
      () => subject.postJson("/api/auth/email_code", { email: "nobody@example.com" }),
      () => false,
    );
    expect(known.status).toBe(202);
    expect(await answerSeen(known)).toEqual(await answerSeen(unknown));
    expect(subject.mailer.sent.map((mail) => mail.to)).toEqual([subject.email]);
    expect(subject.mailer.last()?.text).toMatch(/\b\d{6}\b/);
  });

  it("POST /api/auth/email_code: the same 429 for a known and an unknown address over its limit", async () => {
    const subject = await app();
    const overTheLimit = async (email: string) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await subject.postJson("/api/auth/email_code", { email })).status).toBe(202);
      }
      return subject.postJson("/api/auth/email_code", { email });
    };
    const known = await overTheLimit(subject.email);
    const unknown = await overTheLimit("nobody@example.com");
    expect(known.status).toBe(429);
    expect(known.headers.get("retry-after")).toBe("50");
    expect(await answerSeen(known)).toEqual(await answerSeen(unknown));
  });

  for (const [path, subject, flash] of [
    [
      "/magic_link",
      "Your sign-in link",
      "If an account exists for that email, a sign-in link is on its way.",
    ],
    ["/passwords", "Reset your password", "If an account exists for that email"],
  ] as const) {
    it(`POST ${path}: the same answer for a known and an unknown address, after the floor; the link goes to the account`, async () => {
      const subjectApp = await app();
      const mailed = () => subjectApp.mailer.sent.length > 0;
      const known = await answeredAfterTheFloor(
        () => subjectApp.postForm(path, { email: subjectApp.email }),
        mailed,
      );
      const unknown = await answeredAfterTheFloor(
        () => subjectApp.postForm(path, { email: "nobody@example.com" }),
        () => false,
      );
      expect(known.status).toBe(303);
      expect(known.headers.get("location")).toBe("/login");
      // The session cookie is sealed afresh for every answer; what it carries is compared below.
      expect(await answerSeen(known, ["set-cookie"])).toEqual(
        await answerSeen(unknown, ["set-cookie"]),
      );
      const [knownNext, unknownNext] = [
        await subjectApp.nextLoginPage(known),
        await subjectApp.nextLoginPage(unknown),
      ];
      expect(knownNext).toContain(flash);
      expect(knownNext.replace(/nonce="[^"]*"/g, "")).toBe(
        unknownNext.replace(/nonce="[^"]*"/g, ""),
      );
      expect(subjectApp.mailer.sent.map((mail) => [mail.to, mail.subject])).toEqual([
        [subjectApp.email, subject],
      ]);
    });
  }
});
