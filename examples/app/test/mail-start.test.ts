// `npm start` with mail settings it cannot use: one line naming the setting, exit 1, no secret.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { spawnApp } from "./support/app-process.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-mail-start-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `npm start`'s entry point with `environment` until it exits. */
async function start(environment: Record<string, string>) {
  const app = spawnApp(folder, { PORT: "0", DATABASE_PATH: ":memory:", ...environment });
  onTestFinished(() => app.stop());
  return { code: await app.exited, output: app.output() };
}

// Each start compiles the app's TypeScript: 15 s with a load of 18 on two cores.
describe("npm start with mail settings it cannot use", { timeout: 60_000 }, () => {
  it("names the missing key of the chosen provider in one line, never a secret given beside it", async () => {
    const secret = "aws/secret+never-printed";
    expect(
      await start({
        MAIL_ADAPTER: "ses",
        MAIL_FROM: "no-reply@app.example",
        AWS_ACCESS_KEY_ID: "AKIDNEVERPRINTED",
        AWS_SECRET_ACCESS_KEY: secret,
      }),
    ).toEqual({
      code: 1,
      output: "Cannot start: AWS_REGION is required when MAIL_ADAPTER is ses\n",
    });
  });

  it("refuses MAIL_ADAPTER=cloudflare on Node, where no send_email binding exists", async () => {
    expect(await start({ MAIL_ADAPTER: "cloudflare", MAIL_FROM: "no-reply@app.example" })).toEqual({
      code: 1,
      output:
        "Cannot start: MAIL_ADAPTER=cloudflare needs the send_email binding of a Worker; on Node use resend, postmark, ses or smtp\n",
    });
  });
});
