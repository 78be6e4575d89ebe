import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const appFolder = fileURLToPath(new URL("..", import.meta.url));
// The same command as `npm start`: the tsx CLI on src/main.ts.
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Starts the app the way `npm start` does, in a temporary working directory. */
function startApp(environment: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
} {
  const folder = mkdtempSync(join(tmpdir(), "tessera-process-"));
  folders.push(folder);
  const child = spawn(process.execPath, [tsxCli, join(appFolder, "src/main.ts")], {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: join(appFolder, "tsconfig.json"),
      ...environment,
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForLine(output: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    const match = output().match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no line matching ${pattern} in: ${output()}`);
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
