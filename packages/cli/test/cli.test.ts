// Runs the `tessera` command (runCli, as src/cli.ts does) in temporary app folders.

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import vectors from "../../fields/test/vectors/declaration-refusals.json" with { type: "json" };
import { ACCOUNT_MIGRATIONS, appMigration } from "./support/app-migration.js";
import { tessera } from "./support/tessera-process.js";

function filesIn(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path)] = readFileSync(path, "utf8");
    }
  };
  walk(root);
  return files;
}

/** The table records' owner column references, as an app that generated accounts has it. */
function usersTable(): void {
  mkdirSync(join(app, "migrations"), { recursive: true });
  writeFileSync(
    join(app, "migrations/0000_create_users.sql"),
    "CREATE TABLE users (id INTEGER PRIMARY KEY);\n",
  );
}

function addModel(root: string, name: string): void {
  mkdirSync(join(root, "src/models"), { recursive: true });
  writeFileSync(join(root, `src/models/${name}.ts`), `export const ${name}Model = {};\n`);
}

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-cli-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

describe("every documented refused declaration", () => {
  it.each(vectors.cases)("$declarations → $message", async (vector) => {
    const context: {
      models?: string[];
      graphql?: boolean;
      jsonApi?: boolean;
      existingTable?: boolean;
    } = vector.context ?? {};
    for (const model of context.models ?? ["post", "user", "comment"]) addModel(app, model);
    const flags = [
      "--json",
      ...(context.graphql ? ["--graphql"] : []),
      ...(context.jsonApi === false ? ["--html-only"] : []),
    ];
    // Adding fields to an existing table is a `check` question; the rest go through the generator.
    const args = context.existingTable
      ? ["check", "--existing-table", ...flags, ...vector.declarations]
      : ["generate", "model", "thing", ...flags, ...vector.declarations];
    const before = filesIn(app);

    const run = await tessera(args, app);
    expect(run.status).toBe(1);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output).sort()).toEqual(["error", "hint", "ok"]);
    expect(output).toMatchObject({ ok: false, error: vector.message });
    expect(output.hint.length).toBeGreaterThan(10);
    expect(run.stderr).toBe("");
    expect(filesIn(app)).toEqual(before);
  });

  it("prints `error:` and `hint:` lines without --json, and writes nothing", async () => {
    const run = await tessera(
      ["generate", "model", "post", "title:string", "published:bool?"],
      app,
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "error: boolean field `published` cannot be optional\nhint: write `published:boolean`: a boolean that is not sent is false\n",
    );
    expect(filesIn(app)).toEqual({});
  });

  it("refuses a reference to a model without a module, naming its path", async () => {
    usersTable();
    const refused = await tessera(
      ["generate", "model", "comment", "post:references", "body:text"],
      app,
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^error: `src\/models\/post\.ts` does not exist\nhint: /);
    expect((await tessera(["generate", "model", "post", "title:string"], app)).status).toBe(0);
    expect(
      (await tessera(["generate", "model", "comment", "post:references", "body:text"], app)).status,
    ).toBe(0);
  });
});

describe("tessera generate model", () => {
  it("refuses a model owned by users before any migration creates `users`", async () => {
    const run = await tessera(["generate", "model", "post", "title:string"], app);
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: records belong to users, but no migration creates the `users` table\nhint: run `tessera generate accounts` first, or pass `--no-owner` for a table no user owns\n",
    });
    expect(filesIn(app)).toEqual({});
    expect(
      (await tessera(["generate", "model", "setting", "code:string", "--no-owner"], app)).status,
    ).toBe(0);
  });

  it("writes the model module and a numbered migration that SQLite runs", async () => {
    const posts =
      "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments".split(
        " ",
      );
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    const run = await tessera(["generate", "model", "post", ...posts, "--json"], app);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      written: ["src/models/post.ts", `migrations/${appMigration("create_posts")}.sql`],
    });
    expect(Object.keys(filesIn(app)).sort()).toEqual([
      ...ACCOUNT_MIGRATIONS.map((name) => `migrations/${name}.sql`),
      `migrations/${appMigration("create_posts")}.sql`,
      "src/models/post.ts",
      "src/models/user.ts",
    ]);

    const db = new Database(join(app, "app.db"));
    for (const name of [...ACCOUNT_MIGRATIONS, appMigration("create_posts")]) {
      db.exec(readFileSync(join(app, "migrations", `${name}.sql`), "utf8"));
    }
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    expect(tables).toEqual(
      expect.arrayContaining([{ name: "post_photo" }, { name: "posts" }, { name: "users" }]),
    );
    // `^` is a unique index on the column alone: unique across the table.
    expect(
      readFileSync(join(app, `migrations/${appMigration("create_posts")}.sql`), "utf8"),
    ).toContain(
      `CREATE UNIQUE INDEX "index_posts_on_slug" ON "posts" ("slug") WHERE "slug" IS NOT NULL;`,
    );
    db.close();

    // The generated module imports @tessera/fields and gives back the declared fields.
    const module = await import(join(app, "src/models/post.ts"));
    expect(module.postModel.table).toBe("posts");
    expect(
      module.postModel.fields.map((field: { declaration: string }) => field.declaration),
    ).toEqual(posts);
    // rich_text is given the sanitizer where the model is defined.
    expect(readFileSync(join(app, "src/models/post.ts"), "utf8")).toContain(
      'import { richTextSanitizer } from "@tessera/sanitizer";\n',
    );
    const body = module.postModel.fields.find((field: { name: string }) => field.name === "body");
    expect(body.sanitizer.sanitize('<p onclick="x()">Hi</p>')).toBe("<p>Hi</p>");
    const user = await import(join(app, "src/models/user.ts"));
    expect(user.userModel).toEqual({ name: "user", table: "users", fields: [] });
  });

  it("with --graphql, writes a module whose model is checked for and named in GraphQL", async () => {
    usersTable();
    mkdirSync(join(app, "src/models"), { recursive: true });
    writeFileSync(
      join(app, "src/models/post.ts"),
      'import { defineModel } from "@tessera/fields";\nexport const postModel = defineModel("post", ["title:string"]);\n',
    );
    const declarations = ["title:string", "word_count:integer?", "post:references?"];
    const run = await tessera(["generate", "model", "note", ...declarations, "--graphql"], app);
    expect(run).toEqual({
      status: 0,
      stdout: "wrote src/models/note.ts\nwrote migrations/0001_create_notes.sql\n",
      stderr: "",
    });
    const source = readFileSync(join(app, "src/models/note.ts"), "utf8");
    expect(source).toContain('import { graphqlModel } from "@tessera/graphql";\n');
    // Printed as Biome prints it: the call fits no line, so the model goes inside, hugged.
    expect(source).toContain(
      'export const noteModel = graphqlModel(\n  defineModel("note", ["title:string", "word_count:integer?", "post:references?"], {\n    table: "notes",\n  }),\n);\n',
    );

    const module = await import(join(app, "src/models/note.ts"));
    expect(module.noteModel.table).toBe("notes");
    expect(
      module.noteModel.fields.map((field: { declaration: string }) => field.declaration),
    ).toEqual(declarations);
    expect(module.noteModel.graphql).toMatchObject({
      type: "Note",
      list: "notes",
      show: "note",
      create: "createNote",
    });
    expect(module.noteModel.graphql.output.map((column: { name: string }) => column.name)).toEqual([
      "id",
      "userId",
      "title",
      "wordCount",
      "postId",
      "createdAt",
      "updatedAt",
    ]);
    const { recordSchema } = await import("@tessera/graphql");
    const schema = recordSchema([{ model: module.noteModel, store: {} as never }]);
    expect(Object.keys(schema.getMutationType()!.getFields())).toEqual([
      "createNote",
      "updateNote",
      "deleteNote",
    ]);
  });

  it("without --graphql, writes a module that does not import @tessera/graphql", async () => {
    usersTable();
    expect((await tessera(["generate", "model", "note", "title:string"], app)).status).toBe(0);
    const source = readFileSync(join(app, "src/models/note.ts"), "utf8");
    expect(source).not.toContain("graphql");
    expect(source).toContain(
      'export const noteModel = defineModel("note", ["title:string"], { table: "notes" });\n',
    );
  });

  it("takes the next free migration number, a custom table and no owner", async () => {
    mkdirSync(join(app, "migrations"));
    writeFileSync(join(app, "migrations/0007_something.sql"), "SELECT 1;\n");
    const run = await tessera(
      ["generate", "model", "person", "name:string", "--table", "people", "--no-owner"],
      app,
    );
    expect(run).toEqual({
      status: 0,
      stdout: "wrote src/models/person.ts\nwrote migrations/0008_create_people.sql\n",
      stderr: "",
    });
    const sql = readFileSync(join(app, "migrations/0008_create_people.sql"), "utf8");
    expect(sql).toMatch(
      /^-- Generated by `tessera generate model person name:string --table people --no-owner`\.\nCREATE TABLE "people" \(/,
    );
    expect(sql).not.toContain("user_id");
  });

  it("scopes `^` to each owner with --unique-scope owner, in the migration and the module", async () => {
    usersTable();
    const run = await tessera(
      ["generate", "model", "tag", "name:string^", "note:string?", "--unique-scope", "owner"],
      app,
    );
    expect(run.status).toBe(0);
    const sql = readFileSync(join(app, "migrations/0001_create_tags.sql"), "utf8");
    expect(sql).toContain(
      `CREATE UNIQUE INDEX "index_tags_on_name" ON "tags" ("user_id", "name");`,
    );
    expect(readFileSync(join(app, "src/models/tag.ts"), "utf8")).toContain(
      `export const tagModel = defineModel("tag", ["name:string^", "note:string?"], {\n  table: "tags",\n  uniqueScope: "owner",\n});`,
    );
    const module = await import(join(app, "src/models/tag.ts"));
    expect(
      module.tagModel.fields.map((field: { uniqueScope?: string }) => field.uniqueScope),
    ).toEqual(["owner", undefined]);
  });

  it("works on the folder given by --cwd", async () => {
    usersTable();
    const other = mkdtempSync(join(tmpdir(), "tessera-elsewhere-"));
    try {
      expect(
        (await tessera(["generate", "model", "post", "title:string", "--cwd", app], other)).status,
      ).toBe(0);
      expect(Object.keys(filesIn(app)).sort()).toEqual([
        "migrations/0000_create_users.sql",
        "migrations/0001_create_posts.sql",
        "src/models/post.ts",
      ]);
      expect(filesIn(other)).toEqual({});
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses a model or table that exists, and a bad model name", async () => {
    usersTable();
    expect((await tessera(["generate", "model", "post", "title:string"], app)).status).toBe(0);
    const before = filesIn(app);
    const again = await tessera(["generate", "model", "post", "title:string", "--json"], app);
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({
      ok: false,
      error: "`src/models/post.ts` already exists",
    });
    const table = await tessera(
      ["generate", "model", "article", "title:string", "--table", "posts", "--json"],
      app,
    );
    expect(JSON.parse(table.stdout)).toMatchObject({
      error: "a migration already creates the table `posts`",
    });
    const name = await tessera(["generate", "model", "Post", "title:string", "--json"], app);
    expect(JSON.parse(name.stdout)).toMatchObject({ error: "invalid model name `Post`" });
    expect(filesIn(app)).toEqual(before);
  });
});

describe("tessera generate accounts", () => {
  it("runs once", async () => {
    expect((await tessera(["generate", "accounts"], app)).stdout).toBe(
      [
        "wrote src/models/user.ts",
        ...ACCOUNT_MIGRATIONS.map((name) => `wrote migrations/${name}.sql`),
        "",
      ].join("\n"),
    );
    const before = filesIn(app);
    const again = await tessera(["generate", "accounts", "--json"], app);
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      ok: false,
      error: "this app already has a User model or a users table",
      hint: "the accounts generator runs once; change `src/models/user.ts` and add a migration instead",
    });
    expect(filesIn(app)).toEqual(before);
  });

  it("is refused when a migration already creates users, even without the model", async () => {
    mkdirSync(join(app, "migrations"));
    writeFileSync(
      join(app, "migrations/0001_init.sql"),
      'create table if not exists "users" (id integer primary key);\n',
    );
    const run = await tessera(["generate", "accounts"], app);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: this app already has a User model or a users table\nhint: /,
    );
    expect(Object.keys(filesIn(app))).toEqual(["migrations/0001_init.sql"]);
  });
});

describe("tessera check", () => {
  it("lists the resolved fields, as text or JSON", async () => {
    addModel(app, "post");
    const text = await tessera(
      ["check", "title:string", "slug:string?^", "post:references", "kind:enum:like,love"],
      app,
    );
    expect(text.status).toBe(0);
    expect(text.stdout).toBe(
      [
        "ok: 4 fields",
        "title  string                   required          columns: title",
        "slug   string                   optional, unique  columns: slug",
        "post   references post (posts)  required          columns: post_id",
        "kind   enum:like,love           required          columns: kind",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await tessera(["check", "--json", "cover:attachment?"], app)).stdout);
    expect(json).toEqual({
      ok: true,
      fields: [
        {
          name: "cover",
          type: "attachment",
          optional: true,
          unique: false,
          args: [],
          columns: ["cover_key", "cover_filename", "cover_content_type", "cover_size"],
          declaration: "cover:attachment?",
        },
      ],
    });
    expect(filesIn(app)).toEqual({ "src/models/post.ts": "export const postModel = {};\n" });
  });

  it("exits 2 on a command line it cannot run", async () => {
    const unknown = await tessera(["frobnicate", "--json"], app);
    expect(unknown.status).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      ok: false,
      error: "unknown command `frobnicate`",
    });
    expect(await tessera(["check"], app)).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("error: no field declarations given"),
    });
    expect(await tessera(["--help"], app)).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("tessera generate model"),
    });
  });
});
