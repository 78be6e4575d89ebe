import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import {
  createJobRunner,
  defineJob,
  encodeJob,
  type JobChange,
  type JobRecord,
  jobTokenKeys,
} from "@tessera/jobs";
import { jobTableMigration, SqlJobStore } from "@tessera/jobs/sql";
import { applyMigrations } from "@tessera/sql";
import { type BetterSqliteDatabase, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { signatureHeaderVerifier } from "@tessera/webhooks";
import { afterEach, describe, expect, it } from "vitest";

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const SERVICE_SECRET = "render service secret";

/** The example app's job: table `render_jobs`, inputs `prompt:text width:integer?`. */
const render = defineJob("render", ["prompt:text", "width:integer?"]);

/** A job with inputs whose columns are not their JSON form: booleans, json, enums, dates. */
const print = defineJob("print", [
  "day:date",
  "duplex:boolean",
  "options:json?",
  "paper:enum:a4,letter",
  "scale:float?",
]);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated SQLite file with two users; `open` adds another connection to the same file. */
async function temporaryDatabase() {
  const folder = mkdtempSync(join(tmpdir(), "tessera-jobs-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const open = (): BetterSqliteDatabase => {
    const connection = openSqliteFile(join(folder, "jobs.db"));
    cleanups.push(() => connection.close());
    return connection;
  };
  const database = open();
  expect(await applyMigrations(database, [jobTableMigration(render), usersMigration])).toEqual([
    "0001_tessera_users",
    "0005_tessera_render_jobs",
  ]);
  for (const email of ["ann@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  return { database, open, store: new SqlJobStore(database, render) };
}

describe("jobTableMigration", () => {
  it("creates <job>_jobs with the inputs as typed columns and no token column", async () => {
    const { database } = await temporaryDatabase();
    const columns = await database.all<{ name: string; type: string; notnull: number }>(
      "SELECT name, type, \"notnull\" FROM pragma_table_info('render_jobs')",
    );
    expect(columns.map((column) => [column.name, column.type, column.notnull])).toEqual([
      ["id", "INTEGER", 0],
      ["user_id", "INTEGER", 1],
      ["prompt", "TEXT", 1],
      ["width", "INTEGER", 0],
      ["status", "TEXT", 1],
      ["external_id", "TEXT", 0],
      ["progress", "INTEGER", 1],
      ["result", "TEXT", 0],
      ["error", "TEXT", 0],
      ["attempts", "INTEGER", 1],
      ["last_attempt_at", "TEXT", 1],
      ["created_at", "TEXT", 1],
      ["updated_at", "TEXT", 1],
    ]);
  });

  it("lets the database refuse a wrong type, status, progress or result", async () => {
    const { database } = await temporaryDatabase();
    const insert = (columns: string, values: string) =>
      database.run(
        `INSERT INTO render_jobs (user_id, prompt, last_attempt_at, created_at, updated_at${columns}) VALUES (1, 'p', 't', 't', 't'${values})`,
      );
    await insert("", "");
    await expect(insert(", width", ", 'wide'")).rejects.toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
    await expect(insert(", status", ", 'paused'")).rejects.toThrow(/CHECK/);
    await expect(insert(", progress", ", 101")).rejects.toThrow(/CHECK/);
    await expect(insert(", progress", ", -1")).rejects.toThrow(/CHECK/);
    await expect(insert(", result", ", '{not json'")).rejects.toThrow(/CHECK/);
    await expect(
      database.run(
        "INSERT INTO render_jobs (user_id, prompt, last_attempt_at, created_at, updated_at) VALUES (99, 'p', 't', 't', 't')",
      ),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it("builds the input columns from the fields, with their CHECKs, in a STRICT table", async () => {
    const { database } = await temporaryDatabase();
    await applyMigrations(database, [jobTableMigration(print)]);
    const columns = await database.all<{ name: string; type: string; notnull: number }>(
      "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info('print_jobs') WHERE cid BETWEEN 2 AND 6",
    );
    expect(columns).toEqual([
      { name: "day", type: "TEXT", notnull: 1, dflt_value: null },
      { name: "duplex", type: "INTEGER", notnull: 1, dflt_value: "0" },
      { name: "options", type: "TEXT", notnull: 0, dflt_value: null },
      { name: "paper", type: "TEXT", notnull: 1, dflt_value: "'a4'" },
      { name: "scale", type: "REAL", notnull: 0, dflt_value: null },
    ]);
    const insert = (column: string, value: string) =>
      database.run(
        `INSERT INTO print_jobs (user_id, day, ${column}, last_attempt_at, created_at, updated_at) VALUES (1, '2025-03-01', ${value}, 't', 't', 't')`,
      );
    await insert("duplex", "1");
    await expect(insert("duplex", "2")).rejects.toThrow(/CHECK constraint failed: duplex/);
    await expect(insert("paper", "'a3'")).rejects.toThrow(/CHECK constraint failed: paper/);
    await expect(insert("options", "'{not json'")).rejects.toThrow(/CHECK constraint failed/);
    await expect(insert("scale", "'big'")).rejects.toThrow(
      /cannot store TEXT value in REAL column/,
    );
    expect(await database.get("SELECT duplex, paper, options FROM print_jobs")).toEqual({
      duplex: 1,
      paper: "a4",
      options: null,
    });
  });

  it("quotes input names, so SQL keywords are usable, and takes another id", async () => {
    const { database } = await temporaryDatabase();
    // `@tessera/fields` refuses many keywords as names, but not every SQLite one.
    const exportJob = defineJob("export", ["column:text", "end:float"]);
    expect(jobTableMigration(exportJob, { id: "0009_exports" }).id).toBe("0009_exports");
    await applyMigrations(database, [jobTableMigration(exportJob)]);
    const store = new SqlJobStore(database, exportJob);
    const job = await store.create({ userId: 1, input: { column: "desc", end: 2.5 }, now: T0 });
    expect((await store.find(job.id))!.input).toEqual({ column: "desc", end: 2.5 });
  });
});

describe("SqlJobStore", () => {
  it("creates a queued job with its first attempt counted, and reads it back", async () => {
    const { store, database } = await temporaryDatabase();
    const job = await store.create({
      userId: 1,
      input: { prompt: "fox", width: 512 },
      now: T0 + 999,
    });
    const expected: JobRecord = {
      id: 1,
      userId: 1,
      input: { prompt: "fox", width: 512 },
      status: "queued",
      progress: 0,
      externalId: null,
      result: null,
      error: null,
      attempts: 1,
      lastAttemptAt: T0,
      createdAt: T0,
      updatedAt: T0,
    };
    expect(job).toEqual(expected);
    expect(await store.find(1)).toEqual(expected);
    expect(await store.find(2)).toBeUndefined();
    expect(await database.get("SELECT created_at, status FROM render_jobs WHERE id = 1")).toEqual({
      created_at: "2025-01-01 12:00:00",
      status: "queued",
    });
  });

  it("stores a date, boolean, json and enum input in the fields' columns and reads it back as decoded", async () => {
    const { database } = await temporaryDatabase();
    await applyMigrations(database, [jobTableMigration(print)]);
    const store = new SqlJobStore(database, print);
    const options = { staple: true, pages: [1, 3], note: null, label: "ü" };
    const decoded = print.decodeInput({
      day: "2025-03-01",
      duplex: true,
      options,
      paper: "letter",
      scale: 2,
    });
    if (!decoded.ok) throw new Error("the body should decode");
    const job = await store.create({ userId: 1, input: decoded.value, now: T0 });
    expect(job.input).toEqual({
      day: "2025-03-01",
      duplex: true,
      options,
      paper: "letter",
      scale: 2,
    });
    expect((await store.find(job.id))!.input).toEqual(decoded.value);
    expect(await database.get("SELECT day, duplex, options, paper, scale FROM print_jobs")).toEqual(
      {
        day: "2025-03-01",
        duplex: 1,
        options: '{"staple":true,"pages":[1,3],"note":null,"label":"ü"}',
        paper: "letter",
        scale: 2,
      },
    );
    expect(encodeJob(job)).toMatchObject({ id: 1, user_id: 1, duplex: true, options });

    const plain = print.decodeInput({ day: "2025-03-02", paper: "a4" });
    if (!plain.ok) throw new Error("the body should decode");
    const other = await store.create({ userId: 1, input: plain.value, now: T0 });
    expect((await store.find(other.id))!.input).toEqual({
      day: "2025-03-02",
      duplex: false,
      options: null,
      paper: "a4",
      scale: null,
    });
    await expect(
      store.create({ userId: 1, input: { ...plain.value, duplex: "yes" }, now: T0 }),
    ).rejects.toThrow(TypeError);
  });

  it("finds and lists a user's jobs only, newest first; the user's deletion takes them", async () => {
    const { store, database } = await temporaryDatabase();
    for (const [userId, prompt] of [
      [1, "a"],
      [2, "b"],
      [1, "c"],
      [1, "d"],
    ] as const) {
      await store.create({ userId, input: { prompt, width: null }, now: T0 });
    }
    expect((await store.findOwned(1, 1))!.input.prompt).toBe("a");
    expect(await store.findOwned(1, 2)).toBeUndefined();
    expect((await store.findOwned(2, 2))!.input.prompt).toBe("b");
    const prompts = async (limit: number, offset: number) =>
      (await store.listOwned(1, { limit, offset })).map((job) => job.input.prompt);
    expect(await prompts(10, 0)).toEqual(["d", "c", "a"]);
    expect(await prompts(1, 1)).toEqual(["c"]);
    await database.run("DELETE FROM users WHERE id = 1");
    expect(await store.listOwned(1, { limit: 10, offset: 0 })).toEqual([]);
    expect(await store.find(1)).toBeUndefined();
    expect(await store.find(2)).toBeDefined();
  });

  it("updates only while the job is as read: of two racing writers on two connections, one wins", async () => {
    const { store, open } = await temporaryDatabase();
    const other = new SqlJobStore(open(), render);
    const job = await store.create({ userId: 1, input: { prompt: "p", width: null }, now: T0 });
    const next = { ...job, status: "submitted" as const, externalId: "e" };
    const [first, second] = await Promise.all([
      store.update(job, next, T0 + MINUTE),
      other.update(job, { ...next, externalId: "f" }, T0 + MINUTE),
    ]);
    expect(first).toMatchObject({ status: "submitted", externalId: "e", updatedAt: T0 + MINUTE });
    expect(second).toBeUndefined();
    // A heartbeat (same status and progress) still moves updated_at, so a writer that read
    // before it loses too.
    const touched = await store.update(first!, first!, T0 + 2 * MINUTE);
    expect(touched!.updatedAt).toBe(T0 + 2 * MINUTE);
    expect(await other.update(first!, { ...first!, status: "running" }, T0 + 3 * MINUTE)).toBe(
      undefined,
    );
    expect(await store.find(job.id)).toEqual(touched);
  });

  it("claims each retry once, however many sweeps race, and counts the attempt", async () => {
    const { store, open } = await temporaryDatabase();
    const other = new SqlJobStore(open(), render);
    for (let i = 0; i < 5; i++) {
      await store.create({
        userId: 1,
        input: { prompt: `p${i}`, width: null },
        now: T0 + i * SECOND,
      });
    }
    const claim = {
      now: T0 + 5 * MINUTE,
      lastAttemptBefore: T0 + 4 * MINUTE,
      maxAttempts: 3,
      limit: 2,
    };
    const [a, b, c] = await Promise.all([
      store.claimRetries(claim),
      other.claimRetries(claim),
      store.claimRetries({ ...claim, limit: 10 }),
    ]);
    const ids = [...a!, ...b!, ...c!].map((job) => job.id).sort();
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(a!.map((job) => job.id).sort()).toEqual([1, 2]); // oldest attempt first
    for (const job of [...a!, ...b!, ...c!]) {
      expect(job).toMatchObject({ attempts: 2, lastAttemptAt: T0 + 5 * MINUTE });
    }
    // Nothing is due again until its new attempt is old enough.
    expect(await store.claimRetries({ ...claim, limit: 10 })).toEqual([]);
  });

  it("lists exhausted queued jobs and stale live ones by their times", async () => {
    const { store } = await temporaryDatabase();
    const queued = await store.create({ userId: 1, input: { prompt: "q", width: null }, now: T0 });
    const live = await store.create({ userId: 1, input: { prompt: "l", width: null }, now: T0 });
    const running = await store.update(live, { ...live, status: "running", progress: 5 }, T0);
    for (let attempt = 2; attempt <= 3; attempt++) {
      await store.claimRetries({
        now: T0,
        lastAttemptBefore: T0 + SECOND,
        maxAttempts: 3,
        limit: 10,
      });
    }
    expect((await store.find(queued.id))!.attempts).toBe(3);
    const exhausted = (before: number) =>
      store.listExhausted({ maxAttempts: 3, lastAttemptBefore: before, limit: 10 });
    expect(await exhausted(T0)).toEqual([]);
    expect((await exhausted(T0 + SECOND)).map((job) => job.id)).toEqual([queued.id]);
    expect(
      await store.claimRetries({
        now: T0,
        lastAttemptBefore: T0 + MINUTE,
        maxAttempts: 3,
        limit: 10,
      }),
    ).toEqual([]);

    expect(await store.listStale({ updatedBefore: T0, limit: 10 })).toEqual([]);
    expect(await store.listStale({ updatedBefore: T0 + SECOND, limit: 10 })).toEqual([running]);
  });
});

/** A remote render service on 127.0.0.1 that accepts jobs and records what it received. */
async function startService() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(202, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ id: `ext-${received.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`, received };
}

describe("jobs on SQLite, end to end", () => {
  async function setUp() {
    const { database, open, store } = await temporaryDatabase();
    const service = await startService();
    const time = { now: T0 };
    const changes: JobChange[] = [];
    const runnerOn = (jobStore: SqlJobStore) =>
      createJobRunner({
        definition: render,
        store: jobStore,
        url: service.url,
        secret: SERVICE_SECRET,
        verifySignature: signatureHeaderVerifier({ secret: SERVICE_SECRET }),
        appUrl: "https://app.example",
        tokenKeys: jobTokenKeys({ current: "a secret key base that is long enough to use" }),
        clock: () => time.now,
        onChange: (change) => {
          changes.push(change);
        },
      });
    return { database, open, store, service, time, changes, runner: runnerOn(store), runnerOn };
  }

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("submits, follows callbacks by token and by signature to done, and stores the row", async () => {
    const { runner, service, time, database } = await setUp();
    const job = await runner.start(2, { prompt: "a red fox", width: null });
    expect(job).toMatchObject({ status: "submitted", externalId: "ext-1" });
    const sent = JSON.parse(service.received[0]!.body);
    expect(sent).toEqual({
      id: 1,
      input: { prompt: "a red fox", width: null },
      webhook: runner.callbackUrl(job),
    });

    time.now = T0 + MINUTE;
    expect(
      (
        await runner.handleCallback(post(sent.webhook, { status: "IN_PROGRESS", progress: 40 }), {
          params: { id: "1" },
          clientAddress: "192.0.2.1",
        })
      ).status,
    ).toBe(200);
    const done = JSON.stringify({ status: "COMPLETED", output: { url: "fox.png" } });
    const signed = new Request("https://app.example/webhooks/render/1", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Signature": createHmac("sha256", SERVICE_SECRET).update(done).digest("hex"),
      },
      body: done,
    });
    time.now = T0 + 2 * MINUTE;
    expect(
      await (
        await runner.handleCallback(signed, { params: { id: "1" }, clientAddress: "192.0.2.1" })
      ).json(),
    ).toEqual({ ok: true });
    expect(await database.get("SELECT * FROM render_jobs WHERE id = 1")).toEqual({
      id: 1,
      user_id: 2,
      prompt: "a red fox",
      width: null,
      status: "done",
      external_id: "ext-1",
      progress: 100,
      result: '{"url":"fox.png"}',
      error: null,
      attempts: 1,
      last_attempt_at: "2025-01-01 12:00:00",
      created_at: "2025-01-01 12:00:00",
      updated_at: "2025-01-01 12:02:00",
    });
  });

  it("sends the service the input in its JSON form, booleans and json included", async () => {
    const { database, service, time } = await setUp();
    await applyMigrations(database, [jobTableMigration(print)]);
    const runner = createJobRunner({
      definition: print,
      store: new SqlJobStore(database, print),
      url: service.url,
      secret: SERVICE_SECRET,
      appUrl: "https://app.example",
      tokenKeys: jobTokenKeys({ current: "a secret key base that is long enough to use" }),
      clock: () => time.now,
    });
    const input = { day: "2025-03-01", duplex: true, options: { pages: [2] }, paper: "a4" };
    const job = await runner.start(1, { ...input, scale: null });
    expect(JSON.parse(service.received[0]!.body).input).toEqual({ ...input, scale: null });
    expect(encodeJob(job)).toMatchObject({ ...input, status: "submitted" });
    await expect(runner.start(1, { ...input, day: "2025-02-30" })).rejects.toThrow(
      /invalid input for job print: \{"day":\["is not a valid date"\]\}/,
    );
  });

  it("applies one of two racing callbacks from the same state, on two connections", async () => {
    const { open, runner, runnerOn, changes, store } = await setUp();
    const job = await runner.start(1, { prompt: "p", width: null });
    const second = runnerOn(new SqlJobStore(open(), render));
    changes.length = 0;
    const url = runner.callbackUrl(job);
    const answers = await Promise.all([
      runner.handleCallback(post(url, { status: "done", output: "first" }), {
        params: { id: "1" },
        clientAddress: "192.0.2.1",
      }),
      second.handleCallback(post(url, { status: "failed", error: "second" }), {
        params: { id: "1" },
        clientAddress: "192.0.2.1",
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(changes).toHaveLength(1);
    expect(await store.find(job.id)).toEqual(changes[0]!.job);
    expect(["done", "failed"]).toContain(changes[0]!.job.status);
  });

  it("fails a silent job after an hour, and keeps one that reports", async () => {
    const { runner, store, time } = await setUp();
    const silent = await runner.start(1, { prompt: "silent", width: null });
    const talking = await runner.start(1, { prompt: "talking", width: null });
    time.now = T0 + 59 * MINUTE;
    await runner.handleCallback(post(runner.callbackUrl(talking), { status: "running" }), {
      params: { id: String(talking.id) },
      clientAddress: "192.0.2.1",
    });
    time.now = T0 + 61 * MINUTE;
    expect(await runner.sweep()).toEqual({
      stale: [silent.id],
      exhausted: [],
      retried: [],
      submitted: [],
    });
    expect(await store.find(silent.id)).toMatchObject({
      status: "failed",
      error: "no news from the service for an hour",
    });
    expect((await store.find(talking.id))!.status).toBe("running");
  });
});
