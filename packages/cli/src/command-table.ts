import type { CommandName } from "./invocation.js";
import type { Framework } from "./new-project-frameworks.js";

/** What is wrong with a command line, and what to write instead. */
export interface UsageProblem {
  readonly reason: string;
  readonly hint: string;
}

/** One option of the command line: how it is read, and how it is refused. */
export interface OptionRow {
  readonly type: "boolean" | "string";
  /** The one-letter spelling (`-h` for `--help`). */
  readonly short?: string | undefined;
  /** The values a string option takes; any other is `unknown <noun> `x``. */
  readonly choices?: {
    readonly values: readonly string[];
    readonly noun: string;
    readonly hint: string;
  };
  /**
   * How a command that does not take it refuses it. The reason defaults to "`<flag>` applies
   * to <the commands that take it> only".
   */
  readonly misplaced?:
    | {
        readonly reason?: string | undefined;
        readonly hint: string | ((command: CommandName) => string);
      }
    | undefined;
}

const SCHEME: OptionRow = {
  type: "boolean",
  misplaced: { hint: "it names the signature scheme of a generated webhook endpoint" },
};
const leaveItOut = (command: CommandName) => `leave it out of \`tessera ${command}\``;
const leaveThemOut = (command: CommandName) => `leave them out of \`tessera ${command}\``;
const OWNER_OPTIONS = "--table, --owner and --no-owner apply to `tessera generate model` only";
const SEE_MIGRATIONS = "run `tessera migrate --status` to see the migrations";
/** The frameworks `tessera new` writes a project for. */
const FRAMEWORKS = ["hono", "express", "fastify"] as const satisfies readonly Framework[];
const NEW_DATABASES = ["sqlite", "postgres"];

/**
 * Every option of `tessera`, by the name `node:util` `parseArgs` gives it. Misplaced options
 * are refused in this order, so the first one named is the first one here.
 */
export const OPTIONS = {
  json: { type: "boolean" },
  cwd: { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  "sweep-every": {
    type: "string",
    misplaced: { hint: "it sets how often a generated job's sweep runs" },
  },
  pretend: {
    type: "boolean",
    misplaced: {
      reason: "--pretend applies to the generators only",
      hint: "`tessera migrate --status` lists what migrate would apply",
    },
  },
  install: {
    type: "boolean",
    misplaced: {
      reason: "--install applies to the generators only",
      hint: "`tessera new` lists every package the project needs in its package.json already",
    },
  },
  dialect: {
    type: "string",
    choices: {
      values: ["sqlite", "postgres"],
      noun: "dialect",
      hint: "write `--dialect sqlite` or `--dialect postgres`",
    },
    misplaced: {
      reason: "--dialect applies to the generators only",
      hint: "`tessera migrate` runs the files as they are written",
    },
  },
  status: {
    type: "boolean",
    misplaced: { reason: "--status applies to `tessera migrate` only", hint: SEE_MIGRATIONS },
  },
  // No `choices`: `migrate` takes a file or URL here, `new` a database kind (checked by its row).
  database: {
    type: "string",
    misplaced: {
      reason:
        "--database applies to `tessera migrate`, `tessera admin`, `tessera keys rotate` and `tessera new` only",
      hint: "`tessera migrate`, `tessera admin` and `tessera keys rotate` take `--database <file or URL>`, the database to use; `tessera new --database sqlite|postgres` the one a new app uses",
    },
  },
  framework: {
    type: "string",
    choices: {
      values: FRAMEWORKS,
      noun: "framework",
      hint: "write `--framework hono` (the default), `--framework express` or `--framework fastify`",
    },
    misplaced: { hint: leaveItOut },
  },
  "unique-scope": {
    type: "string",
    choices: {
      values: ["table", "owner"],
      noun: "unique scope",
      hint: "write `--unique-scope owner` (unique per owner) or `--unique-scope table` (the default)",
    },
    misplaced: { hint: leaveItOut },
  },
  table: { type: "string", misplaced: { reason: OWNER_OPTIONS, hint: leaveThemOut } },
  owner: {
    type: "string",
    choices: {
      values: ["user", "organization"],
      noun: "owner",
      hint: "write `--owner user` (the default: a `user_id` column) or `--owner organization` (`organization_id` and `created_by`)",
    },
    misplaced: { reason: OWNER_OPTIONS, hint: leaveThemOut },
  },
  // An option of its own, not parseArgs' negation of `--owner`: no other `--no-` option exists.
  "no-owner": { type: "boolean", misplaced: { reason: OWNER_OPTIONS, hint: leaveThemOut } },
  "existing-table": {
    type: "boolean",
    misplaced: {
      hint: (command) =>
        command === "generate model"
          ? "`generate model` creates a new table"
          : "it asks `tessera check` whether the fields may be added to a table that exists",
    },
  },
  graphql: { type: "boolean", misplaced: { hint: leaveItOut } },
  "html-only": { type: "boolean", misplaced: { hint: leaveItOut } },
  mount: {
    type: "boolean",
    misplaced: {
      hint: "it adds a generated model's routes to src/app.ts of a `tessera new` project",
    },
  },
  default: {
    type: "string",
    misplaced: {
      hint: "it gives the rows already in a table their value of a required field that `tessera generate migration add_<column>_to_<table>` adds",
    },
  },
  from: {
    type: "string",
    misplaced: { hint: "it names the OpenAPI document `tessera generate client` reads" },
  },
  out: {
    type: "string",
    misplaced: { hint: "it names the file `tessera generate client` writes" },
  },
  standard: SCHEME,
  github: SCHEME,
  stripe: SCHEME,
} as const satisfies Record<string, OptionRow>;

/** The name of an option in {@link OPTIONS}: `unique-scope` for `--unique-scope`. */
export type OptionName = keyof typeof OPTIONS;

/** The options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ["json", "cwd", "debug", "help"];

/** The words after a command's name, when it names one thing (`generate model <name>`). */
type Subject = {
  readonly key: "model" | "migration" | "webhook" | "job" | "directory" | "email";
  readonly missing: UsageProblem;
};

/** The words after the subject: field declarations, or none. */
type Rest =
  | {
      readonly kind: "declarations";
      /** The example a refusal gives, or undefined when declarations may be left out. */
      readonly example: (subject: string, values: OptionValues) => string | undefined;
    }
  | { readonly kind: "none"; readonly hint: string }
  | { readonly kind: "ignored" };

/** The values read from the command line, by option name. */
export type OptionValues = ReadonlyMap<OptionName, string | boolean>;

/** One command: its usage lines, the options it takes and the words it reads. */
export interface CommandRow {
  readonly name: CommandName;
  /** Its lines of {@link USAGE}, without the leading `tessera `. */
  readonly usage: readonly string[];
  /** The options it takes besides {@link GLOBAL_OPTIONS}. */
  readonly options: readonly OptionName[];
  readonly subject?: Subject | undefined;
  readonly rest: Rest;
  /** A refusal of options that cannot go together. */
  readonly conflict?: ((values: OptionValues) => UsageProblem | undefined) | undefined;
}

const GENERATOR: readonly OptionName[] = ["pretend", "install", "dialect"];

/** Where an organization's records are served: the routes of `organizationRecords`. */
const ORGANIZATION_ROUTES =
  "its records are served by jsonRecordRoutes and htmlRecordRoutes with `scope: organizationRecords(...)` of @tessera/organizations/routes";

/**
 * The owner options of `generate model` that cannot go together: `--owner` and `--no-owner`,
 * `--unique-scope owner` or `--mount` without an owner, and an organization's model with the
 * GraphQL module this generator does not write for one yet.
 */
function ownerConflict(values: OptionValues): UsageProblem | undefined {
  const owner = values.get("owner");
  const none = values.has("no-owner");
  if (owner !== undefined && none) {
    return {
      reason: `--owner ${owner} and --no-owner cannot go together`,
      hint: "write one: `--owner user` (the default), `--owner organization`, or `--no-owner` for a table no one owns",
    };
  }
  if (values.get("unique-scope") === "owner" && none) {
    return {
      reason: "--unique-scope owner needs the owner column",
      hint: "leave out `--no-owner`, or leave out `--unique-scope owner` for uniqueness across the table",
    };
  }
  if (values.has("mount") && none) {
    return {
      reason: "--mount: a table no one owns has no record routes to mount",
      hint: "leave out `--mount`: @tessera/records serves the records of a user or of an organization",
    };
  }
  if (owner === "organization" && values.has("graphql")) {
    return {
      reason: "--graphql: an organization's records have no GraphQL API yet",
      hint: `leave out \`--graphql\`: ${ORGANIZATION_ROUTES}`,
    };
  }
  return undefined;
}

const SCHEMES = ["standard", "github", "stripe"] as const;

/** Every command of `tessera`, in the order {@link USAGE} lists them. */
export const COMMANDS: readonly CommandRow[] = [
  {
    name: "check",
    usage: ["check <name:type>... [--graphql] [--html-only] [--existing-table]"],
    options: ["graphql", "html-only", "existing-table"],
    rest: { kind: "declarations", example: () => "tessera check title:string" },
  },
  {
    name: "generate model",
    usage: [
      "generate model <name> <name:type>... [--table <name>] [--owner user|organization] [--no-owner] [--unique-scope table|owner] [--graphql] [--html-only] [--mount] [--dialect sqlite|postgres]",
      "generate model <name> --mount",
    ],
    options: [
      ...GENERATOR,
      "table",
      "owner",
      "no-owner",
      "unique-scope",
      "graphql",
      "html-only",
      "mount",
    ],
    subject: {
      key: "model",
      missing: {
        reason: "no model name given",
        hint: "write e.g. `tessera generate model post title:string`",
      },
    },
    rest: {
      kind: "declarations",
      // `generate model post --mount` mounts the model generated before.
      example: (model, values) =>
        values.has("mount") ? undefined : `tessera generate model ${model} title:string`,
    },
    conflict: ownerConflict,
  },
  {
    name: "generate accounts",
    usage: ["generate accounts [--dialect sqlite|postgres]"],
    options: GENERATOR,
    rest: { kind: "none", hint: "`tessera generate accounts` takes no declarations" },
  },
  {
    name: "generate migration",
    usage: [
      "generate migration add_<columns>_to_<table> <name:type>... [--default <value>] [--graphql] [--html-only] [--dialect sqlite|postgres]",
      "generate migration remove_<columns>_from_<table> <field>...",
      "generate migration rename_<old>_to_<new>_in_<table>",
      "generate migration add_index_to_<table> <field>[^]",
    ],
    options: [...GENERATOR, "graphql", "html-only", "default"],
    subject: {
      key: "migration",
      missing: {
        reason: "no migration name given",
        hint: "write e.g. `tessera generate migration add_views_to_posts views:integer?`",
      },
    },
    rest: {
      kind: "declarations",
      example: (migration) =>
        migration.startsWith("rename_")
          ? undefined
          : `tessera generate migration ${migration} views:integer?`,
    },
  },
  {
    name: "generate webhook",
    usage: [
      "generate webhook <name> [--standard | --github | --stripe] [--dialect sqlite|postgres]",
    ],
    options: [...GENERATOR, ...SCHEMES],
    subject: {
      key: "webhook",
      missing: {
        reason: "no webhook name given",
        hint: "write e.g. `tessera generate webhook orders --standard`",
      },
    },
    rest: { kind: "none", hint: "`tessera generate webhook` takes one name" },
    conflict: (values) =>
      SCHEMES.filter((scheme) => values.has(scheme)).length > 1
        ? {
            reason: "choose one signature scheme",
            hint: "write one of `--standard`, `--github` or `--stripe` (or none, for `X-Signature`)",
          }
        : undefined,
  },
  {
    name: "generate job",
    usage: ["generate job <name> <name:type>... [--sweep-every 10m] [--dialect sqlite|postgres]"],
    options: [...GENERATOR, "sweep-every"],
    subject: {
      key: "job",
      missing: {
        reason: "no job name given",
        hint: "write e.g. `tessera generate job render prompt:text`",
      },
    },
    rest: { kind: "declarations", example: (job) => `tessera generate job ${job} prompt:text` },
  },
  {
    name: "generate client",
    usage: ["generate client [--from <URL or file>] [--out <file>]"],
    options: ["pretend", "from", "out"],
    rest: {
      kind: "none",
      hint: "`tessera generate client` takes no names: `--from` names the document, `--out` the file",
    },
  },
  {
    name: "migrate",
    usage: ["migrate [--database <sqlite file | postgres:// URL>] [--status]"],
    options: ["database", "status"],
    rest: {
      kind: "none",
      hint: "`tessera migrate` applies every file of migrations/; it takes no names",
    },
  },
  adminRow("grant", "makes the account an admin"),
  adminRow("revoke", "makes the admin an ordinary user again"),
  {
    name: "keys rotate",
    usage: ["keys rotate [--database <sqlite file | postgres:// URL>]"],
    options: ["database"],
    rest: {
      kind: "none",
      hint: "`tessera keys rotate` takes no names: JWT_ALGORITHM and SECRET_KEY_BASE come from the environment",
    },
  },
  {
    name: "new",
    usage: ["new <dir> [--framework hono|express|fastify] [--database sqlite|postgres]"],
    options: ["pretend", "framework", "database"],
    subject: {
      key: "directory",
      missing: { reason: "no folder given", hint: "write e.g. `tessera new my-app`" },
    },
    rest: { kind: "none", hint: "`tessera new` takes one folder" },
    conflict: (values) => {
      const database = values.get("database");
      return database !== undefined && !NEW_DATABASES.includes(String(database))
        ? {
            reason: `unknown database \`${database}\``,
            hint: "write `--database sqlite` (the default) or `--database postgres`",
          }
        : undefined;
    },
  },
  { name: "help", usage: [], options: [], rest: { kind: "ignored" } },
];

/** `admin grant` or `admin revoke`: one account's address, and the database it is in. */
function adminRow(action: "grant" | "revoke", does: string): CommandRow {
  return {
    name: `admin ${action}`,
    usage: [`admin ${action} <email> [--database <sqlite file | postgres:// URL>]`],
    options: ["database"],
    subject: {
      key: "email",
      missing: {
        reason: "no email address given",
        hint: `write the account's address, e.g. \`tessera admin ${action} ada@example.com\` (${does})`,
      },
    },
    rest: { kind: "none", hint: `\`tessera admin ${action}\` takes one email address` },
  };
}

/** How an option is written on the command line: `--no-owner`, `--json`. */
export function optionFlag(name: OptionName): string {
  return `--${name}`;
}

/** How `command` refuses the option `name`, which it does not take. */
export function misplacedOption(name: OptionName, command: CommandName): UsageProblem {
  const { misplaced }: OptionRow = OPTIONS[name];
  const takenBy = COMMANDS.filter((row) => row.options.includes(name)).map(
    (row) => `\`tessera ${row.name}\``,
  );
  const hint = misplaced?.hint ?? leaveItOut;
  return {
    reason: misplaced?.reason ?? `${optionFlag(name)} applies to ${listed(takenBy)} only`,
    hint: typeof hint === "string" ? hint : hint(command),
  };
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** What every command takes, after the command lines of {@link USAGE}. */
const EVERY_COMMAND = `Options for every command: --json (print one JSON object), --cwd <dir> (the app folder),
--debug (print the stack trace of an unexpected error), --help or -h (print this text).
The generators also take --pretend: say what would be written, and write nothing; and
--install: add the packages the new code imports to package.json (then run npm install).
Example: tessera generate model post title:string body:rich_text? status:enum:draft,published`;

/** The usage text `tessera --help` prints: the command lines of the command table, then the options every command takes. */
export const USAGE = [
  "Usage:",
  ...COMMANDS.flatMap((row) => row.usage.map((line) => `  tessera ${line}`)),
  "",
  EVERY_COMMAND,
].join("\n");
