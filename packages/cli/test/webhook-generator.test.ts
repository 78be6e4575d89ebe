// `tessera generate webhook`, run as the command runs (in process) in an app folder inside the repository
// (so the generated code resolves the packages): the generated tests then run, the generated
// code type-checks strictly and passes Biome.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tessera } from "./support/tessera-process.js";

const repository = fileURLToPath(new URL("../../..", import.meta.url));
const bin = join(repository, "node_modules", ".bin");
const app = mkdtempSync(join(repository, "packages/cli/test/.generated-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

const SCHEMES: [name: string, flags: string[]][] = [
  ["orders", []],
  ["billing", ["--standard"]],
  ["github", ["--github"]],
  ["stripe_events", ["--stripe"]],
];

describe("tessera generate webhook", () => {
  it("writes the endpoint, its test and the event log's migrations once", async () => {
    const first = await tessera(["generate", "webhook", "orders", "--json"], app);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      ok: true,
      written: [
        "src/webhooks/orders.ts",
        "test/webhooks/orders.test.ts",
        "migrations/0001_tessera_webhook_events.sql",
        "migrations/0002_tessera_webhook_events_retention.sql",
      ],
      notes: [
        "set ORDERS_WEBHOOK_SECRET to the sender's signing secret",
        "mount it: ordersWebhookRoute({ store: new SqlWebhookEventStore(database), secret: process.env.ORDERS_WEBHOOK_SECRET })",
      ],
    });
    for (const [name, flags] of SCHEMES.slice(1)) {
      const run = await tessera(["generate", "webhook", name, ...flags, "--json"], app);
      expect(JSON.parse(run.stdout).written).toEqual([
        `src/webhooks/${name}.ts`,
        `test/webhooks/${name}.test.ts`,
      ]);
    }
    expect(readFileSync(join(app, "src/webhooks/github.ts"), "utf8")).toContain(
      'eventIdHeader: "X-GitHub-Delivery"',
    );
    const again = await tessera(["generate", "webhook", "orders", "--json"], app);
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout).error).toBe("`src/webhooks/orders.ts` already exists");
    expect(
      (await tessera(["generate", "webhook", "orders", "--github", "--stripe"], app)).status,
    ).toBe(2);
  });

  it("generates code whose tests pass, that type-checks strictly and that Biome accepts", () => {
    // The generated tests, run by vitest with the packages resolved to their sources.
    writeFileSync(
      join(app, "vitest.config.ts"),
      `export default {
  resolve: {
    alias: [
      { find: /^@tessera\\/([^/]+)$/, replacement: ${JSON.stringify(`${repository}packages`)} + "/$1/src/index.ts" },
      { find: /^@tessera\\/([^/]+)\\/(.+)$/, replacement: ${JSON.stringify(`${repository}packages`)} + "/$1/src/$2.ts" },
    ],
  },
};
`,
    );
    const tests = execFileSync(join(bin, "vitest"), ["run", "--root", app, "--reporter", "json"], {
      cwd: app,
      encoding: "utf8",
    });
    const report = JSON.parse(tests) as { numPassedTests: number; numFailedTests: number };
    expect(report).toMatchObject({ numPassedTests: SCHEMES.length, numFailedTests: 0 });

    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ extends: "../../../../tsconfig.json", include: ["src", "test"] }),
    );
    expect(
      execFileSync(join(bin, "tsc"), ["-p", app, "--noEmit", "--strict"], { encoding: "utf8" }),
    ).toBe("");
    const generated = [
      ...readdirSync(join(app, "src/webhooks")).map((file) => join(app, "src/webhooks", file)),
      ...readdirSync(join(app, "test/webhooks")).map((file) => join(app, "test/webhooks", file)),
    ];
    execFileSync(join(bin, "biome"), ["check", ...generated], {
      cwd: repository,
      encoding: "utf8",
    });
  }, 120_000);
});
