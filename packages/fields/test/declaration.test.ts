import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import {
  type DeclarationContext,
  defineModel,
  type Field,
  parseDeclaration,
  parseDeclarations,
  RESERVED_NAMES,
} from "../src/index.js";
import vectors from "./vectors/declaration-refusals.json" with { type: "json" };

function parsed(declaration: string, context: DeclarationContext = {}): Field {
  const result = parseDeclaration(declaration, context);
  if (!result.ok) throw new Error(`${declaration}: ${result.reason}`);
  return result.value;
}

describe("refused declarations (docs/fields.md)", () => {
  it.each(vectors.cases)("$row: $declarations → $message", (vector) => {
    const result = parseDeclarations(
      vector.declarations,
      (vector.context ?? {}) as DeclarationContext,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(vector.message);
    expect(result.declaration).toBe(vector.declarations.at(-1));
    expect(result.hint.length).toBeGreaterThan(10);
    expect(result.hint).not.toBe(result.reason);
  });

  it("covers every documented refusal except the account generator's", () => {
    const rows = new Set(vectors.cases.map((vector) => vector.row));
    expect(rows.size).toBeGreaterThanOrEqual(20);
  });

  // Hints name a declaration to write instead; it must be one the parser accepts.
  it.each([
    ["title", "title:string"],
    ["published:boolean?", "published:boolean"],
    ["metadata:json^", "metadata:json"],
    ["metadata:json?^", "metadata:json?"],
    ["status:enum", "status:enum:draft,published"],
    ["cover:attachment", "cover:attachment?"],
    ["author:references:user:writer", "author:references:user:author_id"],
    ["title:string:100", "title:string"],
    ["lock_version:int", "lock_version:integer"],
    ["public_id:string", "public_id:token"],
    ["edit:attachment?", "edit_file"],
  ])("the hint for %s suggests %s", (declaration, suggestion) => {
    const result = parseDeclaration(declaration);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.hint).toContain(`\`${suggestion}\``);
    if (suggestion.includes(":")) expect(parseDeclaration(suggestion).ok).toBe(true);
  });

  it("suggests the nearest type for a typo and the snake_case form of a name", () => {
    const typo = parseDeclaration("views:integr");
    expect(!typo.ok && typo.hint).toContain("did you mean `views:integer`?");
    const camel = parseDeclaration("publishOn:date");
    expect(!camel.ok && camel.hint).toContain("`publish_on`");
    const misplaced = parseDeclaration("title?:string");
    expect(!misplaced.ok && misplaced.hint).toContain("Modifiers go after the type");
  });

  it("refuses every reserved name, exactly the documented list", () => {
    expect(RESERVED_NAMES.size).toBe(3 + 41 + 24);
    for (const name of RESERVED_NAMES) {
      const result = parseDeclaration(`${name}:string`);
      expect(!result.ok && result.reason).toBe(`field name \`${name}\` is reserved`);
    }
    for (const name of ["user", "title", "kind", "lock_version", "public_id", "status"]) {
      expect(RESERVED_NAMES.has(name)).toBe(false);
    }
  });

  it("refuses the owner column as a clash", () => {
    const result = parseDeclarations(["user:references"], { takenColumns: ["user_id"] });
    expect(!result.ok && result.reason).toBe("field `user_id` is listed twice");
    expect(!result.ok && result.hint).toContain("author:references:user");
  });

  it("refuses the package's own additions with a hint", () => {
    const cases = [
      ["target:polymorphic", "polymorphic `target` has no models"],
      ["target:polymorphic:Post,post", "invalid models `Post,post` for polymorphic `target`"],
      ["photos:attachments?", "`attachments` `photos` cannot be optional"],
      ["photos:attachments^", "`attachments` `photos` cannot be unique"],
      ["photo:attachments", "attachments name `photo` must be plural"],
      ["x:string??", "unknown field type `string??` for `x`"],
      ["post:references:post:post_id:extra", "type `references` of `post` takes no `:extra`"],
    ];
    for (const [declaration, message] of cases) {
      const result = parseDeclaration(declaration!);
      expect(!result.ok && result.reason, declaration).toBe(message);
    }
  });
});

describe("accepted declarations", () => {
  it("resolves modifiers in either order", () => {
    expect(parsed("slug:string?^")).toMatchObject({ optional: true, unique: true });
    expect(parsed("slug:string^?")).toMatchObject({ optional: true, unique: true });
    expect(parsed("slug:string^")).toMatchObject({ optional: false, unique: true });
    expect(parsed("title:string")).toMatchObject({ optional: false, unique: false });
  });

  it.each([
    ["int", "integer"],
    ["small_int", "integer"],
    ["big_int", "integer"],
    ["double", "float"],
    ["bool", "boolean"],
    ["date_time", "datetime"],
    ["jsonb", "json"],
  ])("reads the alias %s as %s", (alias, type) => {
    expect(parsed(`x:${alias}`).type).toBe(type);
  });

  it("gives every type its columns", () => {
    expect(parsed("title:string").columns).toEqual(["title"]);
    expect(parsed("cover:attachment?").columns).toEqual([
      "cover_key",
      "cover_filename",
      "cover_content_type",
      "cover_size",
    ]);
    expect(parsed("photos:attachments").columns).toEqual([]);
    expect(parsed("target:polymorphic:post,comment")).toMatchObject({
      columns: ["target_type", "target_id"],
      args: ["post", "comment"],
    });
    expect(parsed("status:enum:draft,review,published?")).toMatchObject({
      args: ["draft", "review", "published"],
      optional: true,
    });
    expect(parsed("public_id:token")).toMatchObject({ type: "public_id", unique: true });
    expect(parsed("lock_version:integer")).toMatchObject({ type: "lock_version", unique: false });
  });

  it("reads references with an optional model and a custom `_id` column", () => {
    expect(parsed("post:references")).toMatchObject({
      columns: ["post_id"],
      args: ["post"],
      references: { model: "post", table: "posts" },
    });
    expect(parsed("author:references:user")).toMatchObject({
      columns: ["author_id"],
      references: { model: "user", table: "users" },
    });
    expect(parsed("author:references:writer_id")).toMatchObject({
      columns: ["writer_id"],
      references: { model: "author", table: "authors" },
    });
    expect(parsed("author:references:user:writer_id?")).toMatchObject({
      columns: ["writer_id"],
      optional: true,
      references: { model: "user", table: "users" },
    });
    const custom = parsed("category:references", { tableOf: () => "kinds" });
    expect(custom.references).toEqual({ model: "category", table: "kinds" });
    expect(parsed("category:references").references?.table).toBe("categories");
  });

  it("checks referenced models only when the caller lists them", () => {
    expect(parseDeclaration("post:references").ok).toBe(true);
    expect(parseDeclaration("post:references", { models: ["post"] }).ok).toBe(true);
    expect(
      parseDeclaration("target:polymorphic:post,comment", { models: ["post", "comment"] }).ok,
    ).toBe(true);
  });

  it("allows required attachments without a JSON API, and optional ones on existing tables", () => {
    expect(parseDeclaration("cover:attachment", { jsonApi: false }).ok).toBe(true);
    expect(parseDeclaration("cover:attachment?", { existingTable: true }).ok).toBe(true);
    expect(parseDeclaration("post:references?", { existingTable: true }).ok).toBe(true);
    expect(parseDeclaration("title:string", { existingTable: true }).ok).toBe(true);
  });

  it("refuses, on an existing table, a required type no row already there could be given", () => {
    const onExisting = (declaration: string) => {
      const parsed = parseDeclaration(declaration, { existingTable: true, models: ["post"] });
      return parsed.ok ? "accepted" : parsed.reason;
    };
    expect(onExisting("published_on:date")).toBe(
      "`published_on` must be optional when added to an existing table",
    );
    expect(onExisting("starts_at:datetime")).toMatch(/^`starts_at` must be optional/);
    expect(onExisting("reminder_at:time")).toMatch(/^`reminder_at` must be optional/);
    expect(onExisting("external_ref:uuid")).toMatch(/^`external_ref` must be optional/);
    expect(onExisting("public_id:token")).toMatch(/^`public_id` must be optional/);
    expect(onExisting("target:polymorphic:post")).toBe(
      "`target_type` must be optional when added to an existing table",
    );
    // These have a value for every row: '' or 0 (the generator fills it), or their default.
    for (const fine of [
      "title:string",
      "views:integer",
      "price:decimal",
      "meta:json",
      "on:boolean",
      "kind:enum:a,b",
    ]) {
      expect(onExisting(fine)).toBe("accepted");
    }
  });

  it("parses the example app's models", () => {
    const posts =
      "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments";
    const model = defineModel("post", posts.split(" "), { richText: richTextSanitizer });
    expect(model.table).toBe("posts");
    expect(model.fields.map((field) => field.type)).toEqual([
      "string",
      "rich_text",
      "boolean",
      "integer",
      "float",
      "date",
      "datetime",
      "time",
      "decimal",
      "uuid",
      "json",
      "enum",
      "string",
      "attachment",
      "lock_version",
      "attachments",
    ]);
    expect(
      defineModel("label", ["public_id:token", "name:string^", "color:string?"]).fields,
    ).toHaveLength(3);
    expect(
      defineModel("reaction", ["target:polymorphic:post,comment", "kind:enum:like,love"]).table,
    ).toBe("reactions");
  });

  it("defineModel throws on a refused declaration, naming it", () => {
    // @ts-expect-error: the types refuse it too (test/defined-model-types.test.ts)
    expect(() => defineModel("post", ["title"])).toThrow("model post: field `title` has no type");
  });
});
