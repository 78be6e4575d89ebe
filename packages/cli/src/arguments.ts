import { type ParseArgsConfig, parseArgs } from "node:util";
import type { RecordOwnerKind, UniqueScope } from "@tessera/fields";
import {
  COMMANDS,
  type CommandRow,
  GLOBAL_OPTIONS,
  listed,
  misplacedOption,
  OPTIONS,
  type OptionName,
  type OptionRow,
  type OptionValues,
  optionFlag,
  type UsageProblem,
} from "./command-table.js";
import type { Invocation, UsageError } from "./invocation.js";

/** {@link OPTIONS} as parseArgs takes them. */
const PARSE_OPTIONS: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries(
  Object.entries(OPTIONS).map(([name, row]: [string, OptionRow]) => [
    name,
    { type: row.type, ...(row.short ? { short: row.short } : {}) },
  ]),
);

/** What {@link readOption} reads of one of parseArgs' option tokens. */
interface OptionToken {
  readonly name: string;
  /** As written, without any `=value`: `--no-owner`, `-h`. */
  readonly rawName: string;
  /** The argument it came from in `argv` (`-hx` gives two tokens of one index). */
  readonly index: number;
  readonly value?: string | undefined;
}

/**
 * Reads `argv` (without the node and script paths) against the command table: options may
 * stand anywhere, and a command refuses an option it does not take.
 */
export function parseArguments(
  argv: readonly string[],
): { ok: true; value: Invocation } | UsageError {
  const json = argv.includes("--json");
  const usage = (problem: UsageProblem): UsageError => ({ ok: false, ...problem, json });

  // Not strict: the tokens are checked below, so each refusal carries the command's own words
  // and a hint rather than parseArgs' message.
  const { tokens } = parseArgs({
    args: [...argv],
    options: PARSE_OPTIONS,
    strict: false,
    allowPositionals: true,
    // No negation: `--no-owner` is an option of its own, and `--no-json` an unknown one.
    tokens: true,
  });
  const words: string[] = [];
  const values = new Map<OptionName, string | boolean>();
  for (const token of tokens) {
    if (token.kind === "positional") words.push(token.value);
    // `--` would end the options; no command takes words that look like options.
    else if (token.kind === "option-terminator") return usage(unknownOption(argv[token.index]));
    else {
      const read = readOption(token, argv);
      if (!read.ok) return usage(read);
      values.set(read.name, read.value);
    }
  }

  for (const [name, value] of values) {
    const { choices }: OptionRow = OPTIONS[name];
    if (choices && !choices.values.includes(String(value))) {
      return usage({ reason: `unknown ${choices.noun} \`${value}\``, hint: choices.hint });
    }
  }
  const [first, second] = words;
  if (values.has("help") || first === undefined || first === "help") {
    return { ok: true, value: invocation("help", {}, [], values, json) };
  }
  const row = COMMANDS.find(
    (command) => command.name === [first, second].slice(0, nameLength(command)).join(" "),
  );
  if (row === undefined) {
    // `generate`, `admin`: the first word of commands of two, named with the word after it.
    const group = COMMANDS.some((command) => command.name.startsWith(`${first} `));
    const command = group ? `${first} ${second ?? ""}`.trim() : first;
    const names = COMMANDS.filter((command) => command.name !== "help").map(
      (command) => `\`${command.name}\``,
    );
    return usage({
      reason: `unknown command \`${command}\``,
      hint: `the commands are ${listed(names)}`,
    });
  }
  const misplaced = (Object.keys(OPTIONS) as OptionName[]).find(
    (name) => values.has(name) && !GLOBAL_OPTIONS.includes(name) && !row.options.includes(name),
  );
  if (misplaced) return usage(misplacedOption(misplaced, row.name));

  const read = readWords(row, words.slice(nameLength(row)), values);
  if (!read.ok) return usage(read);
  const conflict = row.conflict?.(values);
  if (conflict) return usage(conflict);
  const subject =
    row.subject && read.subject !== undefined ? { [row.subject.key]: read.subject } : {};
  return { ok: true, value: invocation(row.name, subject, read.declarations, values, json) };
}

/** How many words name the command: 2 for `generate model`. */
function nameLength(row: CommandRow): number {
  return row.name.split(" ").length;
}

/** The refusal of an option no command takes, named as it was written. */
function unknownOption(argument: string | undefined): UsageProblem {
  return { reason: `unknown option \`${argument}\``, hint: "run `tessera --help` for the options" };
}

/** One option token checked against {@link OPTIONS}, or its refusal. */
function readOption(
  token: OptionToken,
  argv: readonly string[],
): { ok: true; name: OptionName; value: string | boolean } | ({ ok: false } & UsageProblem) {
  const unknown = { ok: false as const, ...unknownOption(argv[token.index]) };
  if (!Object.hasOwn(OPTIONS, token.name)) return unknown;
  const name = token.name as OptionName;
  const row: OptionRow = OPTIONS[name];
  const spellings = [optionFlag(name), ...(row.short ? [`-${row.short}`] : [])];
  if (!spellings.includes(token.rawName)) return unknown;
  if (row.type === "boolean") {
    return token.value === undefined ? { ok: true, name, value: true } : unknown;
  }
  if (token.value === undefined || token.value === "") {
    return {
      ok: false,
      reason: `${token.rawName} needs a value`,
      hint: row.choices?.hint ?? `write \`${token.rawName} <value>\``,
    };
  }
  return { ok: true, name, value: token.value };
}

/** The words after the command's name: its subject and declarations, or their refusal. */
function readWords(
  row: CommandRow,
  words: readonly string[],
  values: OptionValues,
):
  | { ok: true; subject?: string; declarations: readonly string[] }
  | ({ ok: false } & UsageProblem) {
  const subject = row.subject ? words[0] : undefined;
  const rest = row.subject ? words.slice(1) : words;
  if (row.subject && subject === undefined) return { ok: false, ...row.subject.missing };
  const declarations = row.rest.kind === "declarations" ? rest : [];
  if (row.rest.kind === "declarations") {
    const example = row.rest.example(subject ?? "", values);
    if (rest.length === 0 && example !== undefined) {
      return {
        ok: false,
        reason: "no field declarations given",
        hint: `list them as name:type, e.g. \`${example}\``,
      };
    }
  } else if (row.rest.kind === "none" && rest.length > 0) {
    return { ok: false, reason: `unexpected \`${rest[0]}\``, hint: row.rest.hint };
  }
  return { ok: true, ...(subject === undefined ? {} : { subject }), declarations };
}

/** The invocation the checked command line asks for. */
function invocation(
  command: Invocation["command"],
  subject: Pick<Invocation, "model" | "migration" | "webhook" | "job" | "directory" | "email">,
  declarations: readonly string[],
  values: OptionValues,
  json: boolean,
): Invocation {
  const text = (name: OptionName) => {
    const value = values.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const scheme = (["standard", "github", "stripe"] as const).find((name) => values.has(name));
  const dialect = text("dialect") as Invocation["dialect"];
  const framework = text("framework") as Invocation["framework"];
  const [defaultValue, sweepEvery, database, cwd, table, from, out] = [
    text("default"),
    text("sweep-every"),
    text("database"),
    text("cwd"),
    text("table"),
    text("from"),
    text("out"),
  ];
  return {
    command,
    ...subject,
    declarations,
    json,
    uniqueScope: (text("unique-scope") ?? "table") as UniqueScope,
    owner: values.has("no-owner") ? false : ((text("owner") ?? "user") as RecordOwnerKind),
    graphql: values.has("graphql"),
    htmlOnly: values.has("html-only"),
    existingTable: values.has("existing-table"),
    status: values.has("status"),
    pretend: values.has("pretend"),
    install: values.has("install"),
    mount: values.has("mount"),
    ...(defaultValue === undefined ? {} : { defaultValue }),
    ...(sweepEvery === undefined ? {} : { sweepEvery }),
    ...(scheme === undefined ? {} : { scheme }),
    ...(dialect === undefined ? {} : { dialect }),
    ...(framework === undefined ? {} : { framework }),
    ...(database === undefined ? {} : { database }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(table === undefined ? {} : { table }),
    ...(from === undefined ? {} : { from }),
    ...(out === undefined ? {} : { out }),
  };
}
