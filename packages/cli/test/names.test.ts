// Names the command takes (models, tables, fields, migrations, webhooks, jobs) that are too long
// or hold odd characters: each refused before anything is written, never a stack trace.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../src/run.js";
import { tessera } from "./support/tessera-process.js";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-names-"));
  // An app with users, so owned models and jobs get as far as writing.
  mkdirSync(join(app, "migrations"));
  writeFileSync(
    join(app, "migrations/0000_create_users.sql"),
    "CREATE TABLE users (id INTEGER PRIMARY KEY);\n",
  );
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

/** Every file and folder under the app, with the files' text: "nothing written" is this unchanged. */
function folderState(folder = app, prefix = ""): Record<string, string> {
  const state: Record<string, string> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      state[`${path}/`] = "";
      Object.assign(state, folderState(join(folder, entry.name), `${path}/`));
    } else state[path] = readFileSync(join(folder, entry.name), "utf8");
  }
  return state;
}

/** The command in-process: its exit code and what it printed. */
async function cli(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, {
    cwd: app,
    env: {},
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/** Runs `args` as text and as JSON: both refused with `reason`, nothing written either way. */
async function expectRefused(args: readonly string[], reason: string | RegExp) {
  const before = folderState();
  const text = await cli(args);
  expect(text.status).toBe(1);
  expect(text.stdout).toBe("");
  expect(text.stderr).toMatch(/^error: [^\n]*\nhint: [^\n]*\n$/);
  expect(text.stderr.split("\n")[0]!.slice("error: ".length)).toMatch(reason);
  const json = await cli([...args, "--json"]);
  expect(json.status).toBe(1);
  expect(json.stderr).toBe("");
  const object = JSON.parse(json.stdout);
  expect(Object.keys(object).sort()).toEqual(["error", "hint", "ok"]);
  expect(object).toMatchObject({ ok: false, error: reason });
  expect(folderState()).toEqual(before);
  return text.stderr;
}

const long = (length: number, char = "a") => char.repeat(length);

describe("names too long for a file name or a PostgreSQL name", () => {
  it.each([5_000, 100_000])("refuses a model name of %i characters, writing nothing", async (n) => {
    const stderr = await expectRefused(
      ["generate", "model", long(n), "title:string"],
      `model name \`${long(59)}…${long(19)}\` is too long (${n} bytes; at most 63)`,
    );
    expect(stderr).toContain(
      "hint: names become tables, columns, indexes and file names, and PostgreSQL keeps only the first 63 bytes of a name: choose a shorter one\n",
    );
  });

  it("answers the real command with one JSON object and no stack trace", async () => {
    const before = folderState();
    const run = await tessera(["generate", "model", long(100_000), "title:string", "--json"], app);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      error: `model name \`${long(59)}…${long(19)}\` is too long (100000 bytes; at most 63)`,
      hint: "names become tables, columns, indexes and file names, and PostgreSQL keeps only the first 63 bytes of a name: choose a shorter one",
    });
    expect(folderState()).toEqual(before);
  });

  const name = long(5_000, "b");
  const shown = `\`${long(59, "b")}…${long(19, "b")}\``;
  it.each([
    {
      title: "a field name to check",
      args: ["check", `${name}:string`],
      reason: `field name ${shown}`,
    },
    {
      title: "a field name",
      args: ["generate", "model", "post", `${name}:string`],
      reason: `field name ${shown}`,
    },
    {
      title: "a referenced model",
      args: ["generate", "model", "post", `author:references:${name}`],
      reason: `name ${shown} in the declaration of \`author\``,
    },
    {
      title: "an enum value",
      args: ["generate", "model", "post", `status:enum:draft,${name}`],
      reason: `name ${shown} in the declaration of \`status\``,
    },
    {
      title: "a table name",
      args: ["generate", "model", "post", "title:string", "--table", name],
      reason: `table name ${shown}`,
    },
    {
      title: "a field added by a migration",
      args: ["generate", "migration", "add_views_to_posts", `${name}:integer`],
      reason: `field name ${shown}`,
    },
    {
      title: "a webhook name",
      args: ["generate", "webhook", name],
      reason: `webhook name ${shown}`,
    },
    {
      title: "a job name",
      args: ["generate", "job", name, "prompt:text"],
      reason: `job name ${shown}`,
    },
    {
      title: "a job input",
      args: ["generate", "job", "render", `${name}:text`],
      reason: `field name ${shown}`,
    },
  ])("refuses $title of 5,000 bytes", async ({ args, reason }) => {
    await expectRefused(args, `${reason} is too long (5000 bytes; at most 63)`);
  });

  it("refuses a migration name over 200 bytes, which its file name would not hold", async () => {
    await expectRefused(
      ["generate", "migration", `add_${name}_to_posts`, "views:integer"],
      /^migration name `add_b+…b+_to_posts` is too long \(5013 bytes; at most 200\)$/,
    );
  });

  it("refuses a declaration over 4 KiB, of many short names", async () => {
    await expectRefused(
      ["generate", "model", "post", `state:enum:${"a,".repeat(3_000)}b`],
      /^declaration `state:enum:a,a,[a,]+…[a,]+b` is too long \(6012 bytes; at most 4096\)$/,
    );
  });

  it("takes a 63-byte name and refuses 64, the field's column included", async () => {
    expect(
      (await cli(["generate", "model", "post", `${long(63)}:string`, "--no-owner"])).status,
    ).toBe(0);
    expect(readFileSync(join(app, "migrations/0001_create_posts.sql"), "utf8")).toContain(
      `"${long(63)}" TEXT NOT NULL`,
    );
    await expectRefused(
      ["generate", "model", "note", `${long(64)}:string`, "--no-owner"],
      `field name \`${long(64)}\` is too long (64 bytes; at most 63)`,
    );
  });

  it("counts bytes, not characters: 32 two-byte letters are 64 bytes", async () => {
    await expectRefused(
      ["generate", "model", "post", `${long(32, "é")}:string`],
      `field name \`${long(32, "é")}\` is too long (64 bytes; at most 63)`,
    );
  });
});

describe("names the generators join that would be too long", () => {
  const refusedName = (name: string, file: string, bytes: number) =>
    `name \`${name}\` in \`${file}\` is too long (${bytes} bytes; at most 63)`;

  it("refuses a model whose owner index name passes 63 bytes, though the model name fits", async () => {
    const model = long(50);
    await expectRefused(
      ["generate", "model", model, "title:string"],
      refusedName(`index_${model}s_on_user_id`, `migrations/0001_create_${model}s.sql`, 68),
    );
  });

  it("refuses an attachment whose file columns pass 63 bytes", async () => {
    const field = long(55, "c");
    await expectRefused(
      ["generate", "model", "post", `${field}:attachment?`],
      refusedName(`${field}_filename`, "migrations/0001_create_posts.sql", 64),
    );
  });

  it("refuses a job whose table name passes 63 bytes", async () => {
    const job = long(60, "j");
    await expectRefused(
      ["generate", "job", job, "prompt:text"],
      refusedName(`${job}_jobs`, `migrations/0001_tessera_${job}_jobs.sql`, 65),
    );
  });

  it("refuses a rename to a long name, leaving the model module as it was", async () => {
    expect((await cli(["generate", "model", "post", "title:string", "--no-owner"])).status).toBe(0);
    const renamed = long(70, "t");
    await expectRefused(
      ["generate", "migration", `rename_title_to_${renamed}_in_posts`],
      refusedName(renamed, `migrations/0002_rename_title_to_${renamed}_in_posts.sql`, 70),
    );
  });
});

describe("names with odd characters", () => {
  const odd = [
    "pöst",
    "a/b",
    "..",
    "../x",
    " post",
    "post ",
    "po\nst",
    "po\u0000st",
    "\u202Epost",
    "\u001b[31mred",
  ];

  it.each(odd)("refuses %j in every name, printing it escaped, writing nothing", async (name) => {
    const commands: [string[], RegExp][] = [
      [["generate", "model", name, "title:string"], /^invalid model name `/],
      [["generate", "model", "post", "title:string", "--table", name], /^invalid table name `/],
      [["generate", "model", "post", `${name}:string`], /^invalid field name `/],
      [["generate", "webhook", name], /^invalid webhook name `/],
      [["generate", "job", name, "prompt:text"], /^invalid job name `/],
      [["generate", "migration", `add_views_to_${name}`, "views:integer"], /^unknown migration `/],
      [["check", `${name}:string`], /^invalid field name `/],
    ];
    for (const [args, reason] of commands) {
      const stderr = await expectRefused(args, reason);
      // Escaped, so the two lines stay two and nothing reaches the terminal as a control.
      expect([...stderr].filter((char) => char !== "\n" && /[\p{Cc}\p{Cf}]/u.test(char))).toEqual(
        [],
      );
    }
  });

  it("shows control and bidi characters as escapes", async () => {
    const run = await cli(["generate", "model", "po\u0000st\u202E\u001b[2J", "title:string"]);
    expect(run.stderr.split("\n")[0]).toBe(
      "error: invalid model name `po\\u{0}st\\u{202e}\\u{1b}[2J`",
    );
  });
});

describe("an unexpected failure", () => {
  // A file named `test` where the webhook generator makes the folder `test/webhooks`: the
  // module is written first, then the folder cannot be made.
  beforeEach(() => writeFileSync(join(app, "test"), ""));

  it("prints one line, removes the file it had written, and shows the stack only with --debug", async () => {
    const before = folderState();
    const run = await cli(["generate", "webhook", "orders"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `error: ENOTDIR: not a directory, mkdir '${join(app, "test/webhooks")}' (rerun with --debug for the stack trace)\n`,
    );
    expect(folderState()).toEqual(before);

    const json = await cli(["generate", "webhook", "orders", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      error: `ENOTDIR: not a directory, mkdir '${join(app, "test/webhooks")}'`,
      hint: "rerun with --debug for the stack trace",
    });
    expect(json.stderr).toBe("");

    const debug = await cli(["generate", "webhook", "orders", "--debug"]);
    expect(debug.stderr).toMatch(/^error: ENOTDIR[^\n]*\nError: ENOTDIR[^\n]*\n {4}at /);
    expect(folderState()).toEqual(before);
  });

  it("prints one line from the real command too", async () => {
    const run = await tessera(["generate", "webhook", "orders"], app);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `error: ENOTDIR: not a directory, mkdir '${join(app, "test/webhooks")}' (rerun with --debug for the stack trace)\n`,
    );
  });
});
