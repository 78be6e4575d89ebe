import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { waitForLine } from "../examples/app/test/support/app-process.js";
import {
  checkGithubWebhook,
  checkHtmlSignIn,
  checkJsonAccounts,
  checkOversizedBodies,
  checkPageHeaders,
  overHttp,
  type SendRequest,
} from "./support/framework-checks.js";
import { startProcessGroup } from "./support/process-group.js";

const repository = new URL("..", import.meta.url).pathname;
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const GITHUB_SECRET = "framework-examples-github-secret";

/**
 * Starts `examples/<name>` as `npm start -w examples/<name>` does (tsx on src/main.ts), on a
 * free port and a fresh SQLite file, and gives its address once it printed its ready line.
 */
async function startExample(name: string, folder: string) {
  const example = join(repository, "examples", name);
  // In a group of its own: tsx's CLI runs the example in a child process.
  const app = startProcessGroup(process.execPath, [tsxCli, join(example, "src/main.ts")], {
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
  try {
    const [, url] = await waitForLine(app.output, /listening on (http:\/\/\S+)/, 20_000);
    return { app, url: url! };
  } catch (error) {
    await app.stop();
    throw new Error(`examples/${name} did not start`, { cause: error });
  }
}

describe.each(["app", "express", "fastify", "hono"])("examples/%s", (name) => {
  let folder: string;
  let stop: () => Promise<void>;
  let send: SendRequest;
  let baseUrl: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), `tessera-${name}-`));
    const { app, url } = await startExample(name, folder);
    stop = () => app.stop();
    baseUrl = url;
    send = overHttp(url);
  }, 30_000);
  afterAll(async () => {
    await stop?.();
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
