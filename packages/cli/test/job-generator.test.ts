// `tessera generate job`, run as the command runs (in process) in an app folder inside the repository (so
// the generated module resolves the packages); the module is then used as an app would.
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Authenticate, Route } from "@tessera/http";
import type { JobRunner } from "@tessera/jobs";
import type { SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { appMigration } from "./support/app-migration.js";
import { tessera } from "./support/tessera-process.js";

/** What the generated `src/jobs/render.ts` exports, as this test uses it. */
interface GeneratedModule {
  renderJobs(options: {
    database: SqlDatabase;
    appUrl: string;
    secretKeyBase: string;
    environment: Record<string, string>;
  }): {
    runner: JobRunner;
    routes(authenticate: Authenticate<{ readonly user: { readonly id: number } }>): Route[];
    startSweeps(): () => Promise<void>;
  };
}

const repository = fileURLToPath(new URL("../../..", import.meta.url));
const bin = join(repository, "node_modules", ".bin");
const app = mkdtempSync(join(repository, "packages/cli/test/.generated-"));
let service: RecordingService;
beforeAll(async () => {
  service = await startRecordingService({ status: 202, body: '{"id":"ext-1"}' });
});
afterAll(async () => {
  rmSync(app, { recursive: true, force: true });
  await service.close();
});

describe("tessera generate job", () => {
  it("refuses an owned job before the users table, a bad period and a bad input", async () => {
    const noUsers = await tessera(["generate", "job", "render", "prompt:text", "--json"], app);
    expect(JSON.parse(noUsers.stdout)).toMatchObject({
      ok: false,
      error: "jobs belong to users, but no migration creates the `users` table",
    });
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    const period = await tessera(
      ["generate", "job", "render", "prompt:text", "--sweep-every", "2s"],
      app,
    );
    expect(period.stderr).toBe(
      "error: invalid sweep period `2s`\nhint: write seconds, minutes or hours from 10s to 24h, e.g. `--sweep-every 10m`\n",
    );
    const input = await tessera(["generate", "job", "render", "photo:attachment", "--json"], app);
    expect(input.status).toBe(1);
    expect(JSON.parse(input.stdout).error).toMatch(/^job render: /);
    expect(
      (await tessera(["generate", "model", "x", "a:string", "--sweep-every", "1m"], app)).status,
    ).toBe(2);
  });

  it("writes the job module and its table, which migrate applies and an app runs", async () => {
    const run = await tessera(
      [
        "generate",
        "job",
        "render",
        "prompt:text",
        "width:integer?",
        "--sweep-every",
        "10m",
        "--json",
      ],
      app,
    );
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      written: ["src/jobs/render.ts", `migrations/${appMigration("tessera_render_jobs")}.sql`],
      notes: ["set RENDER_URL and RENDER_SECRET (and RENDER_TOKEN if the service wants one)"],
    });
    const module = readFileSync(join(app, "src/jobs/render.ts"), "utf8");
    expect(module).toContain("export const RENDER_SWEEP_INTERVAL_MS = 600_000;");
    expect((await tessera(["generate", "job", "render", "prompt:text"], app)).status).toBe(1);
    expect((await tessera(["migrate", "--database", "app.db"], app)).status).toBe(0);

    const database = openSqliteFile(join(app, "app.db"));
    try {
      await database.run(
        "INSERT INTO users (email, created_at, updated_at) VALUES ('ada@example.com', '2026-01-01 00:00:00', '2026-01-01 00:00:00')",
      );
      const { renderJobs } = (await import(join(app, "src/jobs/render.ts"))) as GeneratedModule;
      const jobs = renderJobs({
        database,
        appUrl: "https://app.example",
        secretKeyBase: "a secret key base of at least thirty-two characters",
        environment: {
          RENDER_URL: service.url,
          RENDER_SECRET: "render-shared-secret",
        },
      });
      const job = await jobs.runner.start(1, { prompt: "a red fox", width: 640 });
      expect(job).toMatchObject({ status: "submitted", externalId: "ext-1" });
      expect(JSON.parse(service.requests.at(-1)!.body)).toMatchObject({
        input: { prompt: "a red fox", width: 640 },
      });
      // A callback signed with RENDER_SECRET, without the token: the module wires the verifier.
      const callback = '{"status":"running","progress":20}';
      const signed = await jobs.runner.handleCallback(
        new Request(`https://app.example/webhooks/render/${job.id}`, {
          method: "POST",
          headers: {
            "x-signature": createHmac("sha256", "render-shared-secret")
              .update(callback)
              .digest("hex"),
          },
          body: callback,
        }),
        { params: { id: String(job.id) }, clientAddress: "192.0.2.1" },
      );
      expect(signed.status).toBe(200);
      expect(
        (
          await jobs.runner.handleCallback(
            new Request(`https://app.example/webhooks/render/${job.id}`, {
              method: "POST",
              headers: { "x-signature": "0".repeat(64) },
              body: callback,
            }),
            { params: { id: String(job.id) }, clientAddress: "192.0.2.1" },
          )
        ).status,
      ).toBe(401);
      expect(jobs.routes(async () => ({ ok: true, value: { user: { id: 1 } } })).length).toBe(4);
      const stop = jobs.startSweeps();
      await stop();
    } finally {
      database.close();
    }

    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ extends: "../../../../tsconfig.json", include: ["src"] }),
    );
    expect(
      execFileSync(join(bin, "tsc"), ["-p", app, "--noEmit", "--strict"], { encoding: "utf8" }),
    ).toBe("");
    execFileSync(join(bin, "biome"), ["check", join(app, "src/jobs/render.ts")], {
      cwd: repository,
    });
  }, 120_000);

  it("gives a job with rich_text inputs the sanitizer, imported from @tessera/sanitizer", async () => {
    const run = await tessera(["generate", "job", "note", "body:rich_text", "--json"], app);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true });
    const module = readFileSync(join(app, "src/jobs/note.ts"), "utf8");
    expect(module).toContain('import { richTextSanitizer } from "@tessera/sanitizer";\n');
    expect(module).toContain(
      'export const noteJob = defineJob("note", ["body:rich_text"], { richText: richTextSanitizer });',
    );
    const { noteJob } = (await import(join(app, "src/jobs/note.ts"))) as {
      noteJob: { decodeInput(body: unknown): unknown };
    };
    expect(noteJob.decodeInput({ body: '<p onclick="x()">Hi</p><script>x()</script>' })).toEqual({
      ok: true,
      value: { body: "<p>Hi</p>" },
    });
    execFileSync(join(bin, "biome"), ["check", join(app, "src/jobs/note.ts")], {
      cwd: repository,
    });
  });
});
