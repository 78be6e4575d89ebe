import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type AppProcess, childrenOf, spawnApp, waitForLine } from "./support/app-process.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Each worker of a cluster compiles the app's TypeScript as it starts: slow on a busy machine.
// With a load of 18 on two cores a cluster took over 30 s to say it listens, and one process
// took 16 s to start and stop: the times here are for such a machine.
const CLUSTER_STARTUP_MS = 90_000;
const START_MS = 60_000;

/** Starts the app the way `npm start` does, in a temporary working directory. */
function startApp(environment: Record<string, string>): AppProcess {
  const folder = mkdtempSync(join(tmpdir(), "tessera-process-"));
  folders.push(folder);
  const app = spawnApp(folder, environment);
  onTestFinished(() => app.stop());
  return app;
}

describe("npm start's entry point", { timeout: START_MS }, () => {
  it("prints its address once ready, serves, and stops cleanly on SIGTERM", async () => {
    const app = startApp({ PORT: "0" });
    const [, url] = await waitForLine(app.output, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain("Stopped on SIGTERM.");
  });

  it("stops cleanly on SIGINT too", async () => {
    const app = startApp({ PORT: "0" });
    await waitForLine(app.output, /listening on/);
    app.child.kill("SIGINT");
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain("Stopped on SIGINT.");
  });

  it.each([
    ["one process", {}],
    // The workers find the port taken; the primary says so, once.
    ["WEB_CONCURRENCY=2", { WEB_CONCURRENCY: "2" }],
  ])(
    "says in one line that the port is in use, and exits 1 without a stack trace (%s)",
    async (_, environment) => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
      const { port } = holder.address() as { port: number };
      try {
        const app = startApp({ PORT: String(port), ...environment });
        expect(await app.exited).toBe(1);
        expect(app.output()).toBe(`Cannot start: port ${port} is in use\n`);
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    },
    CLUSTER_STARTUP_MS,
  );

  it("refuses to start in production without SECRET_KEY_BASE, saying why", async () => {
    const app = startApp({ PORT: "0", NODE_ENV: "production", APP_URL: "https://app.example" });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain("Cannot start: SECRET_KEY_BASE is required in production");
    expect(app.output()).not.toContain("listening");
  });

  it("refuses WEB_CONCURRENCY with an in-memory database, in one line", async () => {
    const app = startApp({ PORT: "0", WEB_CONCURRENCY: "2", DATABASE_PATH: ":memory:" });
    expect(await app.exited).toBe(1);
    expect(app.output()).toBe(
      "Cannot start: WEB_CONCURRENCY above 1 needs DATABASE_URL or a DATABASE_PATH file: each process would have a :memory: database of its own\n",
    );
  });

  it("names an unreachable PostgreSQL server by host, never printing its password", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const app = startApp({
      PORT: "0",
      DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/app`,
    });
    expect(await app.exited).toBe(1);
    expect(app.output()).toBe(
      `Cannot start: cannot use the PostgreSQL database 127.0.0.1:${port}/app: ECONNREFUSED\n`,
    );
  });
});

// One cluster for these tests, in order: starting one compiles the app in every process, the
// slowest start of the file. Its folder outlives each test (the file's afterEach would remove
// the working directory of a cluster that still starts workers).
describe("npm start's entry point with WEB_CONCURRENCY=2 on one SQLite file", () => {
  const folder = mkdtempSync(join(tmpdir(), "tessera-process-cluster-"));
  let app: AppProcess;
  let url: string;
  beforeAll(async () => {
    app = spawnApp(folder, { PORT: "0", WEB_CONCURRENCY: "2" });
    [, url = ""] = await waitForLine(
      app.output,
      /listening on (http:\/\/127\.0\.0\.1:\d+) \(2 processes\)\n/,
      CLUSTER_STARTUP_MS,
    );
  }, 2 * CLUSTER_STARTUP_MS);
  afterAll(async () => {
    await app?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it("runs the processes on one SQLite file, each serving", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(`${url}/api/health`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  it(
    "replaces a worker that dies, in its place, and keeps serving",
    async () => {
      const primary = app.child.pid!;
      const [first, second] = childrenOf(primary);
      process.kill(first!, "SIGKILL");
      await waitForLine(app.output, /Worker \d ended \(SIGKILL\); starting another\.\n/);
      await expect.poll(() => childrenOf(primary).length, { timeout: 10_000 }).toBe(2);
      expect(childrenOf(primary)).toContain(second);
      await waitForLine(app.output, /Worker \d is serving again\.\n/, CLUSTER_STARTUP_MS);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => fetch(`${url}/api/health`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    },
    2 * CLUSTER_STARTUP_MS,
  );

  it("stops them all on SIGTERM, having printed its address once", async () => {
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    expect(app.output().match(/listening on/g)).toHaveLength(1);
    expect(app.output()).toContain("Stopped on SIGTERM.");
  });
});
