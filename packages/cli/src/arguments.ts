import type { UniqueScope } from "@tessera/fields";

// Hand-written rather than node:util parseArgs: Node 20's parseArgs has no `--no-<flag>`, and
// the usage errors here must carry a hint like every other refusal of the command.

/** What the command line asks for. */
export interface Invocation {
  readonly command:
    | "check"
    | "generate model"
    | "generate accounts"
    | "generate migration"
    | "generate webhook"
    | "generate job"
    | "migrate"
    | "help";
  /** The model name of `generate model`. */
  readonly model?: string;
  /** The migration name of `generate migration` (`add_views_to_posts`). */
  readonly migration?: string;
  /** The endpoint name of `generate webhook` (`orders` for `POST /webhooks/orders`). */
  readonly webhook?: string;
  /** The job name of `generate job` (`render`: table `render_jobs`, `RENDER_URL`). */
  readonly job?: string;
  /** `generate job`: how often its sweep runs (`10m`; default 5 minutes). */
  readonly sweepEvery?: string;
  /** `generate webhook`: the signature scheme (default the `X-Signature` header). */
  readonly scheme?: "standard" | "github" | "stripe";
  readonly declarations: readonly string[];
  /** Print one JSON object instead of text. */
  readonly json: boolean;
  /** The app folder (default: the current directory). */
  readonly cwd?: string;
  /** Table name of `generate model` (default: the model name's plural). */
  readonly table?: string;
  /** Add the `user_id` owner column (default true; `--no-owner` turns it off). */
  readonly owner: boolean;
  readonly graphql: boolean;
  /** No JSON API is generated: single attachments may be required. */
  readonly htmlOnly: boolean;
  /** `check` only: the fields are to be added to an existing table. */
  readonly existingTable: boolean;
  /** `generate model` only: where `^` values must be distinct (default `table`). */
  readonly uniqueScope: UniqueScope;
  /** The SQL the generators write (default: `postgres` when `DATABASE_URL` names PostgreSQL). */
  readonly dialect?: "sqlite" | "postgres";
  /** `migrate` only: the SQLite file or `postgres://` URL (default: the app's settings). */
  readonly database?: string;
  /** `migrate` only: list the migrations and where each stands, applying none. */
  readonly status: boolean;
  /** The generators: say what would be written, and write nothing. */
  readonly pretend: boolean;
}

/** A command line that cannot be run, with advice. */
export interface UsageError {
  readonly ok: false;
  readonly reason: string;
  readonly hint: string;
  /** Whether `--json` was seen, so the error is printed the way the caller asked. */
  readonly json: boolean;
}

/** The usage text `tessera --help` prints. */
export const USAGE = `Usage:
  tessera check <name:type>... [--graphql] [--html-only] [--existing-table]
  tessera generate model <name> <name:type>... [--table <name>] [--no-owner] [--unique-scope table|owner] [--graphql] [--html-only] [--dialect sqlite|postgres]
  tessera generate accounts [--dialect sqlite|postgres]
  tessera generate migration add_<columns>_to_<table> <name:type>... [--dialect sqlite|postgres]
  tessera generate migration remove_<columns>_from_<table> <field>...
  tessera generate migration rename_<old>_to_<new>_in_<table>
  tessera generate migration add_index_to_<table> <field>[^]
  tessera generate webhook <name> [--standard | --github | --stripe] [--dialect sqlite|postgres]
  tessera generate job <name> <name:type>... [--sweep-every 10m] [--dialect sqlite|postgres]
  tessera migrate [--database <sqlite file | postgres:// URL>] [--status]

Options for every command: --json (print one JSON object), --cwd <dir> (the app folder),
--debug (print the stack trace of an unexpected error).
The generators also take --pretend: say what would be written, and write nothing.
Example: tessera generate model post title:string body:rich_text? status:enum:draft,published`;

const BOOLEAN_FLAGS = new Set([
  "--json",
  "--no-owner",
  "--graphql",
  "--html-only",
  "--existing-table",
  "--status",
  "--pretend",
  "--standard",
  "--github",
  "--stripe",
  "--help",
  "-h",
  "--debug",
]);
const VALUE_FLAGS = new Set([
  "--cwd",
  "--table",
  "--unique-scope",
  "--database",
  "--dialect",
  "--sweep-every",
]);
const DIALECTS: ReadonlySet<string> = new Set(["sqlite", "postgres"]);
const UNIQUE_SCOPES: ReadonlySet<string> = new Set<UniqueScope>(["table", "owner"]);

/** Reads `argv` (without the node and script paths): flags may stand anywhere. */
export function parseArguments(
  argv: readonly string[],
): { ok: true; value: Invocation } | UsageError {
  const words: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const json = argv.includes("--json");
  const usage = (reason: string, hint: string): UsageError => ({ ok: false, reason, hint, json });

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag = "", inline] = arg.startsWith("--") ? arg.split(/=(.*)/s) : [arg];
    if (BOOLEAN_FLAGS.has(flag) && inline === undefined) flags.add(flag);
    else if (VALUE_FLAGS.has(flag)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === "")
        return usage(`${flag} needs a value`, `write \`${flag} <value>\``);
      values.set(flag, value);
    } else if (arg.startsWith("-") && arg !== "-") {
      return usage(`unknown option \`${arg}\``, "run `tessera --help` for the options");
    } else words.push(arg);
  }

  const scopeWord = values.get("--unique-scope");
  if (scopeWord !== undefined && !UNIQUE_SCOPES.has(scopeWord)) {
    return usage(
      `unknown unique scope \`${scopeWord}\``,
      "write `--unique-scope owner` (unique per owner) or `--unique-scope table` (the default)",
    );
  }
  const dialectWord = values.get("--dialect");
  if (dialectWord !== undefined && !DIALECTS.has(dialectWord)) {
    return usage(
      `unknown dialect \`${dialectWord}\``,
      "write `--dialect sqlite` or `--dialect postgres`",
    );
  }
  const base = {
    json,
    uniqueScope: (scopeWord ?? "table") as UniqueScope,
    owner: !flags.has("--no-owner"),
    graphql: flags.has("--graphql"),
    htmlOnly: flags.has("--html-only"),
    existingTable: flags.has("--existing-table"),
    status: flags.has("--status"),
    pretend: flags.has("--pretend"),
    ...(values.has("--sweep-every") ? { sweepEvery: values.get("--sweep-every")! } : {}),
    ...(dialectWord ? { dialect: dialectWord as "sqlite" | "postgres" } : {}),
    ...(values.has("--database") ? { database: values.get("--database")! } : {}),
    ...(values.has("--cwd") ? { cwd: values.get("--cwd")! } : {}),
    ...(values.has("--table") ? { table: values.get("--table")! } : {}),
  };
  const [first, second, ...rest] = words;
  if (flags.has("--help") || flags.has("-h") || first === undefined || first === "help") {
    return { ok: true, value: { ...base, command: "help", declarations: [] } };
  }
  if (base.sweepEvery !== undefined && !(first === "generate" && second === "job")) {
    return usage(
      "--sweep-every applies to `tessera generate job` only",
      "it sets how often a generated job's sweep runs",
    );
  }
  if (base.pretend && first !== "generate") {
    return usage(
      "--pretend applies to the generators only",
      "`tessera migrate --status` lists what migrate would apply",
    );
  }
  if (dialectWord !== undefined && first !== "generate") {
    return usage(
      "--dialect applies to the generators only",
      "`tessera migrate` runs the files as they are written",
    );
  }
  if (first !== "migrate" && (base.status || base.database !== undefined)) {
    return usage(
      "--status and --database apply to `tessera migrate` only",
      "run `tessera migrate --status` to see the migrations",
    );
  }
  const noDeclarations = (example: string) =>
    usage("no field declarations given", `list them as name:type, e.g. \`${example}\``);

  if (first === "check") {
    const declarations = words.slice(1);
    if (declarations.length === 0) return noDeclarations("tessera check title:string");
    if (scopeWord !== undefined) {
      return usage(
        "--unique-scope applies to `tessera generate model` only",
        "leave it out of `tessera check`",
      );
    }
    if (base.table !== undefined || !base.owner) {
      return usage(
        "--table and --no-owner apply to `tessera generate model` only",
        "leave them out of `tessera check`",
      );
    }
    return { ok: true, value: { ...base, command: "check", declarations } };
  }
  if (first === "generate" && second === "model") {
    const [model, ...declarations] = rest;
    if (model === undefined)
      return usage("no model name given", "write e.g. `tessera generate model post title:string`");
    if (declarations.length === 0)
      return noDeclarations(`tessera generate model ${model} title:string`);
    if (base.existingTable) {
      return usage(
        "--existing-table applies to `tessera check` only",
        "`generate model` creates a new table",
      );
    }
    if (base.uniqueScope === "owner" && !base.owner) {
      return usage(
        "--unique-scope owner needs the owner column",
        "leave out `--no-owner`, or leave out `--unique-scope owner` for uniqueness across the table",
      );
    }
    return { ok: true, value: { ...base, command: "generate model", model, declarations } };
  }
  if (first === "generate" && second === "migration") {
    const [migration, ...declarations] = rest;
    if (migration === undefined) {
      return usage(
        "no migration name given",
        "write e.g. `tessera generate migration add_views_to_posts views:integer?`",
      );
    }
    if (declarations.length === 0 && !migration.startsWith("rename_")) {
      return noDeclarations(`tessera generate migration ${migration} views:integer?`);
    }
    return { ok: true, value: { ...base, command: "generate migration", migration, declarations } };
  }
  const schemes = (["standard", "github", "stripe"] as const).filter((scheme) =>
    flags.has(`--${scheme}`),
  );
  if (schemes.length > 0 && !(first === "generate" && second === "webhook")) {
    return usage(
      `--${schemes[0]} applies to \`tessera generate webhook\` only`,
      "it names the signature scheme of a generated webhook endpoint",
    );
  }
  if (first === "generate" && second === "job") {
    const [job, ...declarations] = rest;
    if (job === undefined) {
      return usage("no job name given", "write e.g. `tessera generate job render prompt:text`");
    }
    if (declarations.length === 0) return noDeclarations(`tessera generate job ${job} prompt:text`);
    return { ok: true, value: { ...base, command: "generate job", job, declarations } };
  }
  if (first === "generate" && second === "webhook") {
    const [webhook, ...extra] = rest;
    if (webhook === undefined) {
      return usage(
        "no webhook name given",
        "write e.g. `tessera generate webhook orders --standard`",
      );
    }
    if (extra.length > 0) {
      return usage(`unexpected \`${extra[0]}\``, "`tessera generate webhook` takes one name");
    }
    if (schemes.length > 1) {
      return usage(
        "choose one signature scheme",
        "write one of `--standard`, `--github` or `--stripe` (or none, for `X-Signature`)",
      );
    }
    return {
      ok: true,
      value: {
        ...base,
        command: "generate webhook",
        webhook,
        declarations: [],
        ...(schemes[0] ? { scheme: schemes[0] } : {}),
      },
    };
  }
  if (first === "generate" && second === "accounts") {
    if (rest.length > 0)
      return usage(
        `unexpected \`${rest[0]}\``,
        "`tessera generate accounts` takes no declarations",
      );
    return { ok: true, value: { ...base, command: "generate accounts", declarations: [] } };
  }
  if (first === "migrate") {
    if (second !== undefined) {
      return usage(
        `unexpected \`${second}\``,
        "`tessera migrate` applies every file of migrations/; it takes no names",
      );
    }
    return { ok: true, value: { ...base, command: "migrate", declarations: [] } };
  }
  const command = first === "generate" ? `generate ${second ?? ""}`.trim() : first;
  return usage(
    `unknown command \`${command}\``,
    "the commands are `check`, `generate model`, `generate accounts`, `generate migration`, `generate webhook`, `generate job` and `migrate`",
  );
}
