import { richTextSanitizer } from "@tessera/sanitizer";
import { fileExists, migrationCreates } from "./app-folder.js";
import { loadAppPackage } from "./app-packages.js";
import { dialectOf, type GeneratorEnvironment, type Outcome } from "./commands.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { jobModule, sweepPeriodMs } from "./job-module.js";
import { packageMigrationFiles } from "./package-migrations.js";

/** The sweep period when `--sweep-every` is not given: the jobs package's 5 minutes. */
const DEFAULT_SWEEP = "5m";

/**
 * `tessera generate job <name> <decl>... [--sweep-every 10m]`: the job module (definition,
 * runner, routes, sweep schedule) and its table's migration.
 */
export async function generateJob(
  invocation: Invocation,
  root: string,
  command: string,
  env: GeneratorEnvironment,
): Promise<Outcome> {
  const name = invocation.job ?? "";
  const sweepText = invocation.sweepEvery ?? DEFAULT_SWEEP;
  const sweepMs = sweepPeriodMs(sweepText);
  if (sweepMs === undefined) {
    return {
      ok: false,
      reason: `invalid sweep period \`${sweepText}\``,
      hint: "write seconds, minutes or hours from 10s to 24h, e.g. `--sweep-every 10m`",
    };
  }
  const [jobs, jobsSql] = [
    await loadAppPackage(root, "@tessera/jobs", { registry: invocation.registry }),
    await loadAppPackage(root, "@tessera/jobs/sql", { registry: invocation.registry }),
  ];
  if (!jobs.ok) return jobs;
  if (!jobsSql.ok) return jobsSql;
  const { defineJob } = jobs.value;
  const { jobTableMigration } = jobsSql.value;
  let definition: ReturnType<typeof defineJob>;
  try {
    // The module it writes gives rich_text inputs this sanitizer too (see job-module.ts).
    definition = defineJob(name, invocation.declarations, { richText: richTextSanitizer });
  } catch (error) {
    // defineJob says what is wrong and how to fix it in one message: "<reason> (<hint>)".
    const [, reason = String(error), hint = "see the jobs package's README for job inputs"] =
      /^(.*?)(?: \((.*)\))?$/s.exec((error as Error).message) ?? [];
    return { ok: false, reason, hint };
  }
  const modulePath = `src/jobs/${name}.ts`;
  if (fileExists(root, modulePath) || migrationCreates(root, definition.table)) {
    return {
      ok: false,
      reason: `the app already has the job \`${name}\``,
      hint: "choose another name, or change the job's module and add a migration",
    };
  }
  if (!migrationCreates(root, "users")) {
    return {
      ok: false,
      reason: "jobs belong to users, but no migration creates the `users` table",
      hint: "run `tessera generate accounts` first",
    };
  }
  const prefix = name.toUpperCase();
  return applyFileChanges(
    root,
    {
      created: [
        [modulePath, jobModule(name, invocation.declarations, sweepMs, sweepText, command)],
        ...packageMigrationFiles(
          root,
          [jobTableMigration(definition)],
          dialectOf(invocation, env),
          command,
        ),
      ],
      notes: [
        `set ${prefix}_URL and ${prefix}_SECRET (and ${prefix}_TOKEN if the service wants one)`,
      ],
    },
    invocation,
  );
}
