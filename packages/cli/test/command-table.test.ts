// The command table is the one description of the command line: the parser reads it, USAGE is
// made from it, and these tests hold the two to it.
import { describe, expect, it } from "vitest";
import {
  COMMANDS,
  GLOBAL_OPTIONS,
  misplacedOption,
  OPTIONS,
  type OptionName,
  optionFlag,
} from "../src/command-table.js";
import { USAGE } from "../src/index.js";
import { parseArguments } from "../src/node.js";

const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];
const RUNNABLE = COMMANDS.filter((row) => row.name !== "help");

/** A command line `row` accepts: its name, a subject and a declaration where it takes them. */
function wordsOf(row: (typeof COMMANDS)[number]): string[] {
  return [
    ...row.name.split(" "),
    ...(row.subject ? ["things"] : []),
    ...(row.rest.kind === "declarations" ? ["title:string"] : []),
  ];
}

/**
 * A value every command that takes the option accepts: `--database sqlite` names a file to
 * `migrate` and a database kind to `new`; `new` names every framework but generates Hono only.
 */
const ACCEPTED: Partial<Record<OptionName, string>> = {
  "sweep-every": "10m",
  database: "sqlite",
  framework: "hono",
};

/** The option as the command line gives it, with a value the option takes. */
function given(name: OptionName): string[] {
  const row: { type: string; choices?: { values: readonly string[] } } = OPTIONS[name];
  if (row.type === "boolean") return [optionFlag(name)];
  return [optionFlag(name), ACCEPTED[name] ?? row.choices?.values.at(-1) ?? "x"];
}

describe("USAGE", () => {
  it("has a line for every command, naming only the options that command takes", () => {
    const lines = USAGE.split("\n");
    for (const row of RUNNABLE) {
      const own = lines.filter(
        (line) => line.startsWith(`  tessera ${row.name} `) || line === `  tessera ${row.name}`,
      );
      expect(own, row.name).toEqual(row.usage.map((line) => `  tessera ${line}`));
      expect(own.length, row.name).toBeGreaterThan(0);
      for (const name of OPTION_NAMES.filter((name) => !GLOBAL_OPTIONS.includes(name))) {
        const named = own.some(
          (line) => line.includes(`${optionFlag(name)} `) || line.includes(`${optionFlag(name)}]`),
        );
        if (!row.options.includes(name)) expect(named, `${row.name} ${name}`).toBe(false);
      }
    }
  });

  it("names every option of the table, each where it applies", () => {
    for (const name of OPTION_NAMES) expect(USAGE, name).toContain(optionFlag(name));
    // The options not on a command's line are those every command or every generator takes.
    const everyCommand = USAGE.slice(USAGE.indexOf("Options for every command:"));
    const everyGenerator = ["pretend", "install"] as const;
    for (const name of [...GLOBAL_OPTIONS, ...everyGenerator]) {
      expect(everyCommand, name).toContain(optionFlag(name));
    }
    expect(everyCommand).toContain("-h");
    for (const row of RUNNABLE) {
      const own = row.usage.join("\n");
      for (const name of row.options.filter(
        (name) => !(everyGenerator as readonly string[]).includes(name),
      )) {
        expect(own, `${row.name} ${name}`).toContain(optionFlag(name));
      }
    }
  });
});

describe("the command table", () => {
  it.each(RUNNABLE.map((row) => [row.name, row] as const))(
    "%s takes its own options and the common ones, and refuses the others",
    (_, row) => {
      for (const name of OPTION_NAMES) {
        if (name === "help") continue;
        const result = parseArguments([...wordsOf(row), ...given(name)]);
        if (row.options.includes(name) || GLOBAL_OPTIONS.includes(name)) {
          expect(result, `${row.name} ${name}`).toMatchObject({
            ok: true,
            value: { command: row.name },
          });
        } else {
          expect(result, `${row.name} ${name}`).toEqual({
            ok: false,
            ...misplacedOption(name, row.name),
            json: false,
          });
          expect(misplacedOption(name, row.name).reason).toContain(optionFlag(name));
        }
      }
    },
  );

  it("reads --no-owner as an option of its own, and no other --no- option", () => {
    expect(parseArguments(["generate", "model", "tag", "a:string", "--no-owner"])).toMatchObject({
      ok: true,
      value: { owner: false },
    });
    expect(parseArguments(["generate", "model", "tag", "a:string"])).toMatchObject({
      ok: true,
      value: { owner: "user" },
    });
    for (const flag of ["--no-graphql", "--no-json", "--no-table", "--no-owner=yes"]) {
      expect(parseArguments(["generate", "model", "tag", "a:string", flag]), flag).toEqual({
        ok: false,
        reason: `unknown option \`${flag}\``,
        hint: "run `tessera --help` for the options",
        json: false,
      });
    }
  });

  it.each([
    [["check", "a:string", "--"], "unknown option `--`"],
    [["check", "a:string", "-hx"], "unknown option `-hx`"],
    [["check", "a:string", "-x"], "unknown option `-x`"],
    [["check", "a:string", "--cwd="], "--cwd needs a value"],
    [["check", "a:string", "--cwd", ""], "--cwd needs a value"],
    [["migrate", "--database"], "--database needs a value"],
    [["generate"], "unknown command `generate`"],
    [
      ["generate", "job", "render", "a:text", "--graphql"],
      "--graphql applies to `tessera check`, `tessera generate model` and `tessera generate migration` only",
    ],
    [["migrate", "--existing-table"], "--existing-table applies to `tessera check` only"],
    [["check", "a:string", "--github"], "--github applies to `tessera generate webhook` only"],
    [["generate", "webhook", "orders", "--github", "--stripe"], "choose one signature scheme"],
    [["generate", "webhook", "orders", "extra"], "unexpected `extra`"],
    [["generate", "job", "render"], "no field declarations given"],
    [["generate", "migration"], "no migration name given"],
  ])("refuses %j: %s", (argv, reason) => {
    expect(parseArguments(argv)).toMatchObject({ ok: false, reason });
  });

  it("asks for help with --help or -h wherever they stand, before the command is read", () => {
    for (const argv of [
      ["--help"],
      ["-h"],
      ["help"],
      ["deploy", "-h"],
      ["generate", "model", "--table", "x", "--help"],
    ]) {
      expect(parseArguments(argv), argv.join(" ")).toMatchObject({
        ok: true,
        value: { command: "help" },
      });
    }
  });

  it("takes `generate model <name> --mount` without declarations, and --default for a migration", () => {
    expect(parseArguments(["generate", "model", "post", "--mount"])).toMatchObject({
      ok: true,
      value: { command: "generate model", model: "post", declarations: [], mount: true },
    });
    expect(parseArguments(["generate", "model", "post"])).toMatchObject({
      ok: false,
      reason: "no field declarations given",
    });
    expect(
      parseArguments(["generate", "migration", "add_a_to_posts", "a:string", "--default", "x y"]),
    ).toMatchObject({ ok: true, value: { defaultValue: "x y", mount: false } });
    expect(parseArguments(["generate", "model", "post", "a:string", "--default", "x"])).toEqual({
      ok: false,
      reason: "--default applies to `tessera generate migration` only",
      hint: "it gives the rows already in a table their value of a required field that `tessera generate migration add_<column>_to_<table>` adds",
      json: false,
    });
  });

  it("takes a rename migration without declarations, and every other form with them", () => {
    expect(parseArguments(["generate", "migration", "rename_a_to_b_in_posts"])).toMatchObject({
      ok: true,
      value: {
        command: "generate migration",
        migration: "rename_a_to_b_in_posts",
        declarations: [],
      },
    });
    expect(parseArguments(["generate", "migration", "add_a_to_posts"])).toMatchObject({
      ok: false,
      hint: "list them as name:type, e.g. `tessera generate migration add_a_to_posts views:integer?`",
    });
  });
});
