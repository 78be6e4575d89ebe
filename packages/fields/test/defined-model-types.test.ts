// Type tests: `npm run typecheck` checks every `expectTypeOf` and `@ts-expect-error` here (the
// tsconfig covers the tests); vitest runs the run-time halves. Each refused declaration is
// checked twice with one message: the types refuse it with it, and so does parseDeclaration.

import type { StandardSchemaV1 } from "@standard-schema/spec";
import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CreateInputOf,
  type CreateValuesOf,
  type DefinedModel,
  defineModel,
  type JsonValue,
  type Model,
  parseDeclarations,
  type RecordOf,
  type UpdateInputOf,
  type UpdateValuesOf,
} from "../src/index.js";
import type { FirstRefusal } from "../src/infer/check.js";
import type { JsonPresent } from "../src/infer/columns.js";

/** The record type of one field, without `id`, `user_id` and the timestamps. */
type Columns<M extends Model> = Omit<RecordOf<M>, "id" | "user_id" | "created_at" | "updated_at">;

const POSTS =
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments";

describe("RecordOf, CreateInputOf and UpdateInputOf of the example app's posts (17 fields, one string)", () => {
  const post = defineModel("post", POSTS, { richText: richTextSanitizer });
  type Status = "draft" | "review" | "published";

  it("infers the record as encodeRecord writes it", () => {
    expectTypeOf<RecordOf<typeof post>>().toEqualTypeOf<{
      id: number;
      user_id?: number;
      title: string;
      body: string | null;
      published: boolean;
      views: number | null;
      rating: number | null;
      publish_on: string | null;
      starts_at: string | null;
      reminder_at: string | null;
      price: string | null;
      external_ref: string | null;
      metadata: JsonPresent | null;
      status: Status;
      slug: string | null;
      cover_key: string | null;
      cover_filename: string | null;
      cover_content_type: string | null;
      cover_size: number | null;
      lock_version: number;
      created_at: string;
      updated_at: string;
    }>();
  });

  it("infers the create input: required keys for required fields, no attachment or lock version", () => {
    expectTypeOf<CreateInputOf<typeof post>>().toEqualTypeOf<{
      title: string;
      body?: string | null;
      published?: boolean;
      views?: number | null;
      rating?: number | null;
      publish_on?: string | null;
      starts_at?: string | null;
      reminder_at?: string | null;
      price?: string | null;
      external_ref?: string | null;
      metadata?: JsonPresent | null;
      status: Status;
      slug?: string | null;
    }>();
  });

  it("infers the update input: every key optional, null only where it clears", () => {
    expectTypeOf<UpdateInputOf<typeof post>>().toEqualTypeOf<{
      title?: string;
      body?: string | null;
      published?: boolean;
      views?: number | null;
      rating?: number | null;
      publish_on?: string | null;
      starts_at?: string | null;
      reminder_at?: string | null;
      price?: string | null;
      external_ref?: string | null;
      metadata?: JsonPresent | null;
      status?: Status;
      slug?: string | null;
      lock_version?: number;
    }>();
  });

  it("infers the decoded columns: booleans as 0 or 1, json as its text", () => {
    expectTypeOf<CreateValuesOf<typeof post>>().toEqualTypeOf<{
      title: string;
      body: string | null;
      published: 0 | 1;
      views: number | null;
      rating: number | null;
      publish_on: string | null;
      starts_at: string | null;
      reminder_at: string | null;
      price: string | null;
      external_ref: string | null;
      metadata: string | null;
      status: Status;
      slug: string | null;
    }>();
    expectTypeOf<UpdateValuesOf<typeof post>>().toEqualTypeOf<{
      title?: string;
      body?: string | null;
      published?: 0 | 1;
      views?: number | null;
      rating?: number | null;
      publish_on?: string | null;
      starts_at?: string | null;
      reminder_at?: string | null;
      price?: string | null;
      external_ref?: string | null;
      metadata?: string | null;
      status?: Status;
      slug?: string | null;
      lock_version?: number;
    }>();
  });

  it("gives the Standard Schemas the same input and output types", () => {
    expectTypeOf<StandardSchemaV1.InferInput<typeof post.create>>().toEqualTypeOf<
      CreateInputOf<typeof post>
    >();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof post.create>>().toEqualTypeOf<
      CreateValuesOf<typeof post>
    >();
    expectTypeOf<StandardSchemaV1.InferInput<typeof post.update>>().toEqualTypeOf<
      UpdateInputOf<typeof post>
    >();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof post.update>>().toEqualTypeOf<
      UpdateValuesOf<typeof post>
    >();
  });

  it("infers the same from the array form, and from a string with line breaks", () => {
    const listed = defineModel(
      "post",
      [
        "title:string",
        "body:rich_text?",
        "published:bool",
        "views:integer?",
        "rating:float?",
        "publish_on:date?",
        "starts_at:datetime?",
        "reminder_at:time?",
        "price:decimal?",
        "external_ref:uuid?",
        "metadata:json?",
        "status:enum:draft,review,published",
        "slug:string?^",
        "cover:attachment?",
        "lock_version:integer",
        "photos:attachments",
      ],
      { richText: richTextSanitizer },
    );
    const multiline = defineModel(
      "post",
      `title:string
        views:integer?\tstatus:enum:draft,published`,
    );
    expectTypeOf<RecordOf<typeof listed>>().toEqualTypeOf<RecordOf<typeof post>>();
    expectTypeOf<CreateInputOf<typeof listed>>().toEqualTypeOf<CreateInputOf<typeof post>>();
    expectTypeOf<UpdateInputOf<typeof listed>>().toEqualTypeOf<UpdateInputOf<typeof post>>();
    expectTypeOf<Columns<typeof multiline>>().toEqualTypeOf<{
      title: string;
      views: number | null;
      status: "draft" | "published";
    }>();
    expect(listed.fields).toEqual(post.fields);
    expect(multiline.fields.map((field) => field.declaration)).toEqual([
      "title:string",
      "views:integer?",
      "status:enum:draft,published",
    ]);
  });
});

describe("the example of docs/fields.md", () => {
  it("has the types the docs show", () => {
    const post = defineModel(
      "post",
      "title:string body:rich_text? views:integer? status:enum:draft,published",
      { richText: richTextSanitizer },
    );
    expectTypeOf<RecordOf<typeof post>>().toEqualTypeOf<{
      id: number;
      user_id?: number;
      title: string;
      body: string | null;
      views: number | null;
      status: "draft" | "published";
      created_at: string;
      updated_at: string;
    }>();
    expectTypeOf<CreateInputOf<typeof post>>().toEqualTypeOf<{
      title: string;
      status: "draft" | "published";
      body?: string | null;
      views?: number | null;
    }>();
    expectTypeOf<UpdateInputOf<typeof post>>().toEqualTypeOf<{
      title?: string;
      body?: string | null;
      views?: number | null;
      status?: "draft" | "published";
    }>();
  });
});

describe("every type, alias and modifier", () => {
  it("types the text-valued types as strings", () => {
    const model = defineModel(
      "thing",
      "a:string b:text c:rich_text d:date e:datetime f:time g:decimal h:uuid",
      { richText: richTextSanitizer },
    );
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      a: string;
      b: string;
      c: string;
      d: string;
      e: string;
      f: string;
      g: string;
      h: string;
    }>();
    expectTypeOf<CreateValuesOf<typeof model>>().toEqualTypeOf<Columns<typeof model>>();
  });

  it("types integer and float as numbers, boolean as boolean (0 or 1 decoded), json as its value", () => {
    const model = defineModel("thing", ["a:integer", "b:float", "c:boolean", "d:json"]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      a: number;
      b: number;
      c: boolean;
      d: JsonPresent;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{
      a: number;
      b: number;
      c?: boolean;
      d: JsonPresent;
    }>();
    expectTypeOf<CreateValuesOf<typeof model>>().toEqualTypeOf<{
      a: number;
      b: number;
      c: 0 | 1;
      d: string;
    }>();
    expectTypeOf<JsonPresent>().toEqualTypeOf<Exclude<JsonValue, null>>();
  });

  it("gives each alias the type it names", () => {
    const aliased = defineModel(
      "thing",
      "a:int b:small_int c:big_int d:double e:bool f:date_time g:jsonb",
    );
    const named = defineModel(
      "thing",
      "a:integer b:integer c:integer d:float e:boolean f:datetime g:json",
    );
    expectTypeOf<RecordOf<typeof aliased>>().toEqualTypeOf<RecordOf<typeof named>>();
    expectTypeOf<CreateInputOf<typeof aliased>>().toEqualTypeOf<CreateInputOf<typeof named>>();
    expectTypeOf<Columns<typeof aliased>>().toEqualTypeOf<{
      a: number;
      b: number;
      c: number;
      d: number;
      e: boolean;
      f: string;
      g: JsonPresent;
    }>();
  });

  it("makes `?` nullable and optional to send; `^`, `?^` and `^?` change no type", () => {
    const model = defineModel("thing", [
      "a:string",
      "b:string?",
      "c:string^",
      "d:string?^",
      "e:string^?",
    ]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      a: string;
      b: string | null;
      c: string;
      d: string | null;
      e: string | null;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{
      a: string;
      b?: string | null;
      c: string;
      d?: string | null;
      e?: string | null;
    }>();
    expectTypeOf<UpdateInputOf<typeof model>>().toEqualTypeOf<{
      a?: string;
      b?: string | null;
      c?: string;
      d?: string | null;
      e?: string | null;
    }>();
  });

  it("types an enum as the union of its values, optional or not", () => {
    const model = defineModel("thing", ["status:enum:draft,published", "mood:enum:calm,busy?"]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      status: "draft" | "published";
      mood: "calm" | "busy" | null;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{
      status: "draft" | "published";
      mood?: "calm" | "busy" | null;
    }>();
  });

  it("names a reference's column as the declaration does, in all four forms", () => {
    const model = defineModel("thing", [
      "post:references",
      "author:references:user",
      "editor:references:reviewer_id?",
      "owner:references:user:writer_id?",
    ]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      post_id: number;
      author_id: number;
      reviewer_id: number | null;
      writer_id: number | null;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{
      post_id: number;
      author_id: number;
      reviewer_id?: number | null;
      writer_id?: number | null;
    }>();
    expect(model.fields.flatMap((field) => field.columns)).toEqual([
      "post_id",
      "author_id",
      "reviewer_id",
      "writer_id",
    ]);
  });

  it("gives a polymorphic field its type and id columns", () => {
    const model = defineModel("thing", [
      "target:polymorphic:post,comment",
      "about:polymorphic:user?",
    ]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      target_type: "post" | "comment";
      target_id: number;
      about_type: "user" | null;
      about_id: number | null;
    }>();
    expectTypeOf<UpdateInputOf<typeof model>>().toEqualTypeOf<{
      target_type?: "post" | "comment";
      target_id?: number;
      about_type?: "user" | null;
      about_id?: number | null;
    }>();
  });

  it("puts an attachment's four columns in the record only, and attachments nowhere", () => {
    const model = defineModel("thing", ["title:string", "cover:attachment?", "photos:attachments"]);
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      title: string;
      cover_key: string | null;
      cover_filename: string | null;
      cover_content_type: string | null;
      cover_size: number | null;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{ title: string }>();
    expectTypeOf<UpdateInputOf<typeof model>>().toEqualTypeOf<{ title?: string }>();
    expectTypeOf<CreateValuesOf<typeof model>>().toEqualTypeOf<{ title: string }>();
  });

  it("types a required attachment's columns without null (allowed when the app has no JSON API)", () => {
    const model = defineModel("thing", ["scan:attachment"], { context: { jsonApi: false } });
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{
      scan_key: string;
      scan_filename: string;
      scan_content_type: string;
      scan_size: number;
    }>();
  });

  it("replaces `id` with the public id, made on create and never sent", () => {
    const model = defineModel("label", "public_id:token name:string");
    expectTypeOf<RecordOf<typeof model>>().toEqualTypeOf<{
      user_id?: number;
      public_id: string;
      name: string;
      created_at: string;
      updated_at: string;
    }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<UpdateInputOf<typeof model>>().toEqualTypeOf<{ name?: string }>();
    expectTypeOf<CreateValuesOf<typeof model>>().toEqualTypeOf<{
      public_id: string;
      name: string;
    }>();
  });

  it("reads the lock version in the record and takes it on update only", () => {
    const model = defineModel("thing", "title:string lock_version:integer");
    expectTypeOf<Columns<typeof model>>().toEqualTypeOf<{ title: string; lock_version: number }>();
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{ title: string }>();
    expectTypeOf<UpdateInputOf<typeof model>>().toEqualTypeOf<{
      title?: string;
      lock_version?: number;
    }>();
    expectTypeOf<UpdateValuesOf<typeof model>>().toEqualTypeOf<{
      title?: string;
      lock_version?: number;
    }>();
  });

  it("types a model without fields as id, owner and timestamps", () => {
    const model = defineModel("user", [], { table: "users" });
    expectTypeOf<RecordOf<typeof model>>().toEqualTypeOf<{
      id: number;
      user_id?: number;
      created_at: string;
      updated_at: string;
    }>();
    // biome-ignore lint/complexity/noBannedTypes: a model without fields takes an empty body
    expectTypeOf<CreateInputOf<typeof model>>().toEqualTypeOf<{}>();
  });
});

describe("declarations that are not literal", () => {
  it("fall back to loose records for a string[] and a string", () => {
    const split = defineModel("post", "title:string views:integer?".split(" "));
    const text: string = "title:string";
    const fromString = defineModel("post", text);
    for (const model of [split, fromString]) {
      expectTypeOf(model).toEqualTypeOf<DefinedModel>();
    }
    expectTypeOf<RecordOf<typeof split>>().toEqualTypeOf<Record<string, JsonValue>>();
    expectTypeOf<CreateInputOf<typeof fromString>>().toEqualTypeOf<Record<string, JsonValue>>();
    expectTypeOf<CreateValuesOf<typeof split>>().toEqualTypeOf<
      Record<string, string | number | null>
    >();
    expect(fromString.fields.map((field) => field.name)).toEqual(["title"]);
  });

  it("give a plain Model the loose types, and every defined model is a Model and a loose DefinedModel", () => {
    const model: Model = { name: "post", table: "posts", fields: [] };
    expectTypeOf<RecordOf<typeof model>>().toEqualTypeOf<Record<string, JsonValue>>();
    const post = defineModel("post", POSTS, { richText: richTextSanitizer });
    expectTypeOf(post).toExtend<Model>();
    expectTypeOf(post).toExtend<DefinedModel>();
    expectTypeOf(defineModel("c", ["post:references"])).toExtend<DefinedModel>();
  });
});

/** Checks one refused declaration: the types refuse it with `message`, and so does the run time. */
function refusedAlike<const D extends readonly string[]>(
  declarations: D,
  message: FirstRefusal<D>[1],
) {
  const parsed = parseDeclarations(declarations);
  expect(parsed.ok ? "accepted" : parsed.reason).toBe(message);
}

describe("refused declarations are compile errors with parseDeclarations' message", () => {
  it("refuses names", () => {
    refusedAlike(["Title:string"], "invalid field name `Title`");
    refusedAlike(["title__x:string"], "invalid field name `title__x`");
    refusedAlike(["title_:string"], "invalid field name `title_`");
    refusedAlike(["1title:string"], "invalid field name `1title`");
    refusedAlike(["type:string"], "field name `type` is reserved");
    refusedAlike(["id:integer"], "field name `id` is reserved");
    refusedAlike(["title"], "field `title` has no type");
    refusedAlike(["title:"], "field `title` has no type");
  });

  it("refuses types and modifiers", () => {
    refusedAlike(["title:strin"], "unknown field type `strin` for `title`");
    refusedAlike(["title:constructor"], "unknown field type `constructor` for `title`");
    refusedAlike(["title:string??"], "unknown field type `string??` for `title`");
    refusedAlike(["title:string^^"], "unknown field type `string^^` for `title`");
    refusedAlike(["title:string:x"], "type `string` of `title` takes no `:x`");
    refusedAlike(["published:bool?"], "boolean field `published` cannot be optional");
    refusedAlike(["photos:attachments?"], "`attachments` `photos` cannot be optional");
    refusedAlike(["photo:attachments"], "attachments name `photo` must be plural");
    refusedAlike(["edit:attachment?"], "attachment name `edit` clashes with a scaffold route");
    refusedAlike(["new:attachments"], "attachment name `new` clashes with a scaffold route");
  });

  it("refuses `^` where it cannot be unique, naming the type an alias stands for", () => {
    refusedAlike(["cover:attachment?^"], "`attachment` `cover` cannot be unique");
    refusedAlike(["photos:attachments^"], "`attachments` `photos` cannot be unique");
    refusedAlike(["meta:jsonb^"], "`json` `meta` cannot be unique");
    refusedAlike(["status:enum:a,b^"], "`enum` `status` cannot be unique");
    refusedAlike(["body:rich_text^?"], "`rich_text` `body` cannot be unique");
  });

  it("refuses bad enum values, polymorphic models and references", () => {
    refusedAlike(["status:enum"], "enum `status` has no values");
    refusedAlike(["status:enum:Draft,draft"], "invalid values `Draft,draft` for enum `status`");
    refusedAlike(["status:enum:a,a"], "invalid values `a,a` for enum `status`");
    refusedAlike(["status:enum:a,,b"], "invalid values `a,,b` for enum `status`");
    refusedAlike(["target:polymorphic"], "polymorphic `target` has no models");
    refusedAlike(["target:polymorphic:Post"], "invalid models `Post` for polymorphic `target`");
    refusedAlike(
      ["author:references:user:writer"],
      "invalid foreign key column `writer` for `author` (must be snake_case ending in `_id`)",
    );
    refusedAlike(["author:references:User"], "`src/models/User.ts` does not exist");
    refusedAlike(
      ["author:references:user:writer_id:x"],
      "type `references` of `author` takes no `:x`",
    );
  });

  it("refuses the special fields written any other way", () => {
    refusedAlike(["lock_version:int"], "`lock_version` must be `lock_version:integer`");
    refusedAlike(["version:lock_version"], "`lock_version` must be `lock_version:integer`");
    refusedAlike(["lock_version:integer?"], "`lock_version` must be `lock_version:integer`");
    refusedAlike(["public_id"], "a public id is `public_id:token`");
    refusedAlike(["code:token"], "a public id is `public_id:token`");
  });

  it("refuses a name or column listed twice, at the second one", () => {
    refusedAlike(["title:string", "title:text"], "field `title` is listed twice");
    refusedAlike(["cover:attachment?", "cover_key:string"], "field `cover_key` is listed twice");
    refusedAlike(["post_id:integer", "post:references"], "field `post_id` is listed twice");
    refusedAlike(
      ["target:polymorphic:post", "target_type:string"],
      "field `target_type` is listed twice",
    );
  });

  it("points the compiler at the refused declaration, in both forms", () => {
    // @ts-expect-error: unknown field type `strin` for `views`
    expect(() => defineModel("post", ["title:string", "views:strin"])).toThrow(
      "model post: unknown field type `strin` for `views`",
    );
    // @ts-expect-error: boolean field `published` cannot be optional
    expect(() => defineModel("post", "title:string published:bool?")).toThrow(
      "model post: boolean field `published` cannot be optional",
    );
    // @ts-expect-error: field `title` is listed twice
    expect(() => defineModel("post", "title:string title:text")).toThrow(
      "model post: field `title` is listed twice",
    );
    // @ts-expect-error: `json` `metadata` cannot be unique
    expect(() => defineModel("post", ["metadata:json^"])).toThrow("cannot be unique");
  });

  it("leaves the refusals that depend on the app's context to the run time", () => {
    expect(() => defineModel("post", ["cover:attachment"])).toThrow(
      "model post: attachment `cover` must be optional in a JSON API",
    );
    expect(() =>
      defineModel("post", ["author:references:user"], { context: { models: [] } }),
    ).toThrow("model post: `src/models/user.ts` does not exist");
  });
});
