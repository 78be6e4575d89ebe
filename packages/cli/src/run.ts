import { resolve } from "node:path";
import { adminRole } from "./admin-role.js";
import { parseArguments } from "./arguments.js";
import { generateClient } from "./client-generator.js";
import { USAGE } from "./command-table.js";
import { check, generateAccounts, generateModel, type Outcome } from "./commands.js";
import { installRegistry } from "./install-registry.js";
import type { Invocation } from "./invocation.js";
import { generateJob } from "./job-generator.js";
import { keysRotate } from "./keys-rotate.js";
import { migrate } from "./migrate.js";
import { generateMigration } from "./migration-generator.js";
import { refuseLongNames } from "./name-limits.js";
import { newProject } from "./new-project.js";
import { printableText } from "./printable-text.js";
import { generateWebhook } from "./webhook-generator.js";

/** Where the command prints, and the folder it runs in. */
export interface CliEnvironment {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * The environment `migrate`, `admin` and `keys rotate` read `DATABASE_URL` and `DATABASE_PATH`
   * from, and `keys rotate` `JWT_ALGORITHM`, `JWT_PRIVATE_KEYS` and `SECRET_KEY_BASE`; every
   * command reads `npm_config_registry`, the registry npx ran it from, for its install lines
   * (default: none).
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Exit codes: 0 done, 1 refused (nothing written) or failed, 2 the command line itself is
 * wrong.
 */
export const EXIT_OK = 0;
/** The exit code of a refused (nothing written) or failed command. */
export const EXIT_REFUSED = 1;
/** The exit code of a wrong command line (usage printed). */
export const EXIT_USAGE = 2;

/**
 * Runs `tessera <argv>` and returns the exit code. A refusal prints `error: <message>` and
 * `hint: <advice>` (or one JSON object with `ok`, `error`, `hint` under `--json`) and writes
 * nothing. An unexpected failure (a file that cannot be written, a bug) prints one line,
 * `error: <message> (…)`, or the same JSON object; its stack trace only with `--debug`. It
 * never throws.
 *
 * @example
 * ```ts
 * import { runCli } from "@tessera/cli/node";
 *
 * const code = await runCli(["generate", "model", "post", "title:string"], {
 *   cwd: process.cwd(),
 *   stdout: (text) => process.stdout.write(text),
 *   stderr: (text) => process.stderr.write(text),
 * });
 * process.exitCode = code; // 0 written, 1 refused, 2 a wrong command line
 * ```
 */
export async function runCli(
  argv: readonly string[],
  environment: CliEnvironment,
): Promise<number> {
  try {
    return await run(argv, environment);
  } catch (error) {
    const message = oneLine(error instanceof Error ? error.message : String(error));
    const hint = "rerun with --debug for the stack trace";
    if (argv.includes("--json")) {
      report(environment, true, { ok: false, reason: message, hint });
    } else {
      environment.stderr(`error: ${printableText(message)} (${hint})\n`);
    }
    if (argv.includes("--debug")) {
      environment.stderr(`${error instanceof Error ? error.stack : String(error)}\n`);
    }
    return EXIT_REFUSED;
  }
}

/** A message on one line: Node's and the drivers' messages may hold line breaks. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, " ").trim() || "unknown error";
}

async function run(argv: readonly string[], environment: CliEnvironment): Promise<number> {
  const parsed = parseArguments(argv);
  if (!parsed.ok) {
    report(environment, parsed.json, { ok: false, reason: parsed.reason, hint: parsed.hint });
    return EXIT_USAGE;
  }
  const registry = installRegistry(environment.env ?? {});
  const invocation = registry === undefined ? parsed.value : { ...parsed.value, registry };
  const longName = refuseLongNames(invocation);
  if (longName) {
    report(environment, invocation.json, longName);
    return EXIT_REFUSED;
  }
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
      outcome = await generateAccounts(invocation, root, environment.env ?? {});
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
      outcome = await generateWebhook(
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
      outcome = await generateJob(
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
    case "generate client":
      outcome = await generateClient(invocation, root, environment.env ?? {});
      break;
    case "migrate":
      outcome = await migrate(invocation, root, environment.env ?? {});
      break;
    case "admin grant":
    case "admin revoke":
      outcome = await adminRole(invocation, root, environment.env ?? {});
      break;
    case "keys rotate":
      outcome = await keysRotate(invocation, root, environment.env ?? {});
      break;
    case "new":
      outcome = await newProject(invocation, root);
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
    ...(invocation.owner === false ? ["--no-owner"] : []),
    ...(invocation.owner === "organization" ? ["--owner organization"] : []),
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
    ...(invocation.defaultValue === undefined
      ? []
      : [`--default ${shellWord(invocation.defaultValue)}`]),
    ...(invocation.dialect ? [`--dialect ${invocation.dialect}`] : []),
  ].join(" ");
}

/**
 * A value as one word of the command line a file names: as is when it is one plain word, else
 * quoted as JSON, so no line break or quote of it can end the comment it stands in.
 */
function shellWord(value: string): string {
  return /^[A-Za-z0-9._:@%+=,/-]+$/.test(value) ? value : JSON.stringify(value);
}

function report(environment: CliEnvironment, json: boolean, outcome: Outcome): void {
  if (json) {
    const object = outcome.ok
      ? outcome.json
      : { ok: false, error: printableText(outcome.reason), hint: printableText(outcome.hint) };
    environment.stdout(`${JSON.stringify(object)}\n`);
  } else if (outcome.ok) {
    environment.stdout(`${outcome.text}\n`);
  } else {
    environment.stderr(
      `error: ${printableText(outcome.reason)}\nhint: ${printableText(outcome.hint)}\n`,
    );
  }
}
