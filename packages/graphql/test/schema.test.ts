// The schema a model gives: names, nullability and the scalar of every field type.
import { defineModel } from "@tessera/fields";
import { MemoryObjectStorage } from "@tessera/records";
import { printSchema, printType } from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlModel, recordSchema } from "../src/index.js";
import { articleModel, noteModel, postModel } from "./fixtures.js";

// The schema is built without a database: no resolver runs here.
const store = {} as never;
const schemaOf = (...models: Parameters<typeof graphqlModel>[0][]) =>
  recordSchema(models.map((model) => ({ model, store, storage: new MemoryObjectStorage() })));

describe("the schema of a model", () => {
  it("types every note field as the declarations say, camelCase and nullable when optional", () => {
    const schema = schemaOf(postModel, noteModel);
    expect(printType(schema.getType("Note")!)).toBe(
      [
        '"""A `note` record (table `notes`) of the signed-in user."""',
        "type Note {",
        "  id: ID!",
        "  userId: ID!",
        "  title: String!",
        "  body: String",
        "  pinned: Boolean!",
        "  dueOn: String",
        "  rating: Float",
        "  wordCount: SafeInt",
        "  tags: JSON",
        "  postId: ID",
        "  createdAt: String!",
        "  updatedAt: String!",
        "}",
      ].join("\n"),
    );
    const create = printType(schema.getType("NoteCreateInput")!);
    expect(create).toContain("  title: String!\n  body: String\n  pinned: Boolean\n");
    expect(create).toContain("  wordCount: SafeInt\n  tags: JSON\n  postId: ID\n}");
    const update = printType(schema.getType("NoteUpdateInput")!);
    expect(update).toContain("  title: String\n  body: String\n  pinned: Boolean\n");
  });

  it("has the five operations per model", () => {
    const sdl = printSchema(schemaOf(postModel, noteModel));
    expect(sdl).toContain("  notes(limit: Int, offset: Int): [Note!]!\n");
    expect(sdl).toContain("  note(id: ID!): Note\n");
    expect(sdl).toContain("  createNote(input: NoteCreateInput!): Note!\n");
    expect(sdl).toContain("  updateNote(id: ID!, input: NoteUpdateInput!): Note!\n");
    expect(sdl).toContain("  deleteNote(id: ID!): Boolean!\n");
    expect(sdl).toContain("  posts(limit: Int, offset: Int): [Post!]!\n");
    expect(sdl).toMatch(/scalar SafeInt/);
    expect(sdl).toMatch(/scalar JSON/);
  });

  it("maps every other type, leaves attachments out and takes lockVersion on update only", () => {
    const schema = schemaOf(postModel, noteModel, articleModel);
    const article = printType(schema.getType("Article")!);
    for (const line of [
      "title: String!",
      "body: String",
      "published: Boolean!",
      "views: SafeInt",
      "rating: Float",
      "publishOn: String",
      "startsAt: String",
      "reminderAt: String",
      "price: String",
      "externalRef: String",
      "metadata: JSON",
      "slug: String",
      "lockVersion: Int!",
      "linkType: String",
      "linkId: ID",
    ]) {
      expect(article).toContain(`  ${line}\n`);
    }
    expect(article).not.toMatch(/cover|photo/i);
    expect(printType(schema.getType("ArticleCreateInput")!)).not.toContain("lockVersion");
    expect(printType(schema.getType("ArticleUpdateInput")!)).toContain("  lockVersion: Int\n");
  });

  it("names a two-word model in PascalCase and camelCase", () => {
    const blogEntry = defineModel("blog_entry", ["title:string"]);
    const sdl = printSchema(schemaOf(blogEntry));
    expect(sdl).toContain("  blogEntries(limit: Int, offset: Int): [BlogEntry!]!\n");
    expect(sdl).toContain("  createBlogEntry(input: BlogEntryCreateInput!): BlogEntry!\n");
  });
});

describe("an enum", () => {
  it("is a GraphQL enum of its values, which the record and both inputs share", () => {
    const task = defineModel("task", [
      "title:string",
      "stage:enum:to_do,doing,done",
      "mood:enum:calm?",
    ]);
    const schema = schemaOf(task);
    expect(printType(schema.getType("TaskStage")!)).toBe(
      [
        '"""The values of `stage` on a `task`."""',
        "enum TaskStage {",
        "  to_do",
        "  doing",
        "  done",
        "}",
      ].join("\n"),
    );
    expect(printType(schema.getType("Task")!)).toContain("  stage: TaskStage!\n  mood: TaskMood\n");
    expect(printType(schema.getType("TaskCreateInput")!)).toContain(
      "  stage: TaskStage!\n  mood: TaskMood\n",
    );
    expect(printType(schema.getType("TaskUpdateInput")!)).toContain(
      "  stage: TaskStage\n  mood: TaskMood\n",
    );
  });

  it.each(["true", "false", "null"])(
    "is refused with a value GraphQL keeps for itself: %s",
    (value) => {
      const declaration: string = `answer:enum:maybe,${value}`;
      const model = defineModel("thing", [declaration]);
      expect(() => graphqlModel(model)).toThrow(
        new Error(
          `model thing: enum \`answer\` has the value \`${value}\`, which GraphQL cannot name (rename the value, or serve the model without GraphQL)`,
        ),
      );
    },
  );
});

describe("models GraphQL cannot serve", () => {
  it("refuses public_id:token with the declaration error of --graphql", () => {
    const model = defineModel("thing", ["title:string", "public_id:token"]);
    expect(() => graphqlModel(model)).toThrow(
      new Error(
        "model thing: not supported with GraphQL (leave out `public_id:token`, or generate without GraphQL)",
      ),
    );
    expect(() => schemaOf(model)).toThrow("not supported with GraphQL");
  });

  it("refuses columns that camelCase alike, and a table named like the model", () => {
    const clash = defineModel("thing", ["a_1b:string", "a1b:string"]);
    expect(() => graphqlModel(clash)).toThrow(
      "model thing: columns `a_1b` and `a1b` are both `a1b` in GraphQL (rename one)",
    );
    const sheep = defineModel("sheep", ["name:string"], { table: "sheep" });
    expect(() => graphqlModel(sheep)).toThrow(
      "model sheep: its table `sheep` and its name give the same GraphQL query `sheep` (pass a plural table name)",
    );
  });

  it("gives a checked model back as it is, still a model", () => {
    const checked = graphqlModel(noteModel);
    expect(graphqlModel(checked)).toBe(checked);
    expect(checked.fields).toBe(noteModel.fields);
    expect(checked.graphql.create).toBe("createNote");
  });
});
