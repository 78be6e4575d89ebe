import { resolve } from "node:path";
import { type Invocation, parseArguments, USAGE } from "./arguments.js";
import { check, generateAccounts, generateModel, type Outcome } from "./commands.js";
import { generateJob } from "./job-generator.js";
import { migrate } from "./migrate.js";
import { generateMigration } from "./migration-generator.js";
import { generateWebhook } from "./webhook-generator.js";

/** Where the command prints, and the folder it runs in. */
export interface CliEnvironment {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The environment `migrate` reads `DATABASE_URL` and `DATABASE_PATH` from (default: none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Exit codes: 0 done, 1 refused (nothing written), 2 the command line itself is wrong. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs `tessera <argv>` and returns the exit code. A refusal prints `error: <message>` and
 * `hint: <advice>` (or one JSON object with `ok`, `error`, `hint` under `--json`) and writes
 * nothing.
 */
export async function runCli(
  argv: readonly string[],
  environment: CliEnvironment,
): Promise<number> {
  const parsed = parseArguments(argv);
  if (!parsed.ok) {
    report(environment, parsed.json, { ok: false, reason: parsed.reason, hint: parsed.hint });
    return EXIT_USAGE;
  }
  const invocation = parsed.value;
  const root = resolve(environment.cwd, invocation.cwd ?? ".");
  let outcome: Outcome;
  switch (invocation.command) {
    case "help":
      environment.stdout(`${USAGE}\n`);
      return EXIT_OK;
    case "check":
      outcome = check(invocation, root);
      break;
    case "generate model":
      outcome = generateModel(invocation, root, commandLine(invocation), environment.env ?? {});
      break;
    case "generate accounts":
      outcome = generateAccounts(invocation, root, environment.env ?? {});
      break;
    case "generate migration":
      outcome = generateMigration(
        invocation,
        root,
        migrationCommandLine(invocation),
        environment.env ?? {},
      );
      break;
    case "generate webhook":
      outcome = generateWebhook(
        invocation,
        root,
        [
          "tessera generate webhook",
          invocation.webhook,
          ...(invocation.scheme ? [`--${invocation.scheme}`] : []),
        ].join(" "),
        environment.env ?? {},
      );
      break;
    case "generate job":
      outcome = generateJob(
        invocation,
        root,
        [
          "tessera generate job",
          invocation.job,
          ...invocation.declarations,
          ...(invocation.sweepEvery ? [`--sweep-every ${invocation.sweepEvery}`] : []),
        ].join(" "),
        environment.env ?? {},
      );
      break;
    case "migrate":
      outcome = await migrate(invocation, root, environment.env ?? {});
      break;
  }
  report(environment, invocation.json, outcome);
  return outcome.ok ? EXIT_OK : EXIT_REFUSED;
}

/** The command as a generated file names it: no `--cwd`, which is particular to one machine. */
function commandLine(invocation: Invocation): string {
  return [
    "tessera generate model",
    invocation.model,
    ...invocation.declarations,
    ...(invocation.table ? [`--table ${invocation.table}`] : []),
    ...(invocation.owner ? [] : ["--no-owner"]),
    ...(invocation.graphql ? ["--graphql"] : []),
    ...(invocation.htmlOnly ? ["--html-only"] : []),
    ...(invocation.dialect ? [`--dialect ${invocation.dialect}`] : []),
  ].join(" ");
}

/** `tessera generate migration` as its file names it. */
function migrationCommandLine(invocation: Invocation): string {
  return [
    "tessera generate migration",
    invocation.migration,
    ...invocation.declarations,
    ...(invocation.dialect ? [`--dialect ${invocation.dialect}`] : []),
  ].join(" ");
}

function report(environment: CliEnvironment, json: boolean, outcome: Outcome): void {
  if (json) {
    const object = outcome.ok
      ? outcome.json
      : { ok: false, error: outcome.reason, hint: outcome.hint };
    environment.stdout(`${JSON.stringify(object)}\n`);
  } else if (outcome.ok) {
    environment.stdout(`${outcome.text}\n`);
  } else {
    environment.stderr(`error: ${outcome.reason}\nhint: ${outcome.hint}\n`);
  }
}
