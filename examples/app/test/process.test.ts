import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AppProcess, spawnApp, waitForLine } from "./support/app-process.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Starts the app the way `npm start` does, in a temporary working directory. */
function startApp(environment: Record<string, string>): AppProcess {
  const folder = mkdtempSync(join(tmpdir(), "tessera-process-"));
  folders.push(folder);
  return spawnApp(folder, environment);
}

describe("npm start's entry point", () => {
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

  it("says in one line that the port is in use, and exits 1 without a stack trace", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const app = startApp({ PORT: String(port) });
      expect(await app.exited).toBe(1);
      expect(app.output()).toBe(`Cannot start: port ${port} is in use\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("refuses to start in production without SECRET_KEY_BASE, saying why", async () => {
    const app = startApp({ PORT: "0", NODE_ENV: "production" });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain("Cannot start: SECRET_KEY_BASE is required in production");
    expect(app.output()).not.toContain("listening");
  });
});
