import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  checkGithubWebhook,
  checkHtmlSignIn,
  checkJsonAccounts,
  checkOversizedBodies,
  checkPageHeaders,
  overHttp,
  type SendRequest,
} from "./support/framework-checks.js";

const repository = new URL("..", import.meta.url).pathname;
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const GITHUB_SECRET = "framework-examples-github-secret";

/**
 * Starts `examples/<name>` as `npm start -w examples/<name>` does (tsx on src/main.ts), on a
 * free port and a fresh SQLite file, and gives its address once it printed its ready line.
 */
async function startExample(name: string, folder: string) {
  const example = join(repository, "examples", name);
  const child = spawn(process.execPath, [tsxCli, join(example, "src/main.ts")], {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: join(example, "tsconfig.json"),
      PORT: "0",
      DATABASE_PATH: join(folder, "app.db"),
      SECRET_KEY_BASE: "framework-examples-secret-key-base-0123456789",
      MAIL_ADAPTER: "log",
      GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  for (let waited = 0; waited < 20_000; waited += 50) {
    const match = output.match(/listening on (http:\/\/\S+)/);
    if (match) return { child, url: match[1]! };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`examples/${name} did not start: ${output}`);
}

describe.each(["app", "express", "fastify", "hono"])("examples/%s", (name) => {
  let folder: string;
  let stop: () => void;
  let send: SendRequest;
  let baseUrl: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), `tessera-${name}-`));
    const { child, url } = await startExample(name, folder);
    stop = () => child.kill("SIGTERM");
    baseUrl = url;
    send = overHttp(url);
  }, 30_000);
  afterAll(() => {
    stop?.();
    rmSync(folder, { recursive: true, force: true });
  });

  it("serves the JSON account API", () => checkJsonAccounts(send));
  it("signs in with the HTML forms and refuses login CSRF", () => checkHtmlSignIn(send));
  it("verifies GitHub webhooks and keeps the event log", () =>
    checkGithubWebhook(send, GITHUB_SECRET));
  it("sends the security headers with every page", () => checkPageHeaders(send));
  it("answers a body far over a route's cap instead of resetting the connection", () =>
    checkOversizedBodies(baseUrl));
});
