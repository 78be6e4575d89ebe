// model.create and model.update as Standard Schema v1, on their own and in two real consumers:
// Hono's sValidator and a tRPC procedure's input.

import { sValidator } from "@hono/standard-validator";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { initTRPC, StandardSchemaV1Error, TRPCError } from "@trpc/server";
import { Hono } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  BLANK,
  type CreateValuesOf,
  defineModel,
  type JsonValue,
  NOT_A_DATE,
  TOO_BIG,
  type UpdateValuesOf,
} from "../src/index.js";

const post = defineModel(
  "post",
  "title:string views:integer? published:bool publish_on:date? metadata:json? status:enum:draft,published cover:attachment? lock_version:integer",
);
const label = defineModel("label", ["public_id:token", "name:string"]);

/** A schema's result, asserting it came back synchronously. */
function validate<Output>(schema: StandardSchemaV1<unknown, Output>, value: unknown) {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("validate answered a promise");
  return result;
}

describe("model.create", () => {
  it("names the vendor and version 1", () => {
    expect(post.create["~standard"].version).toBe(1);
    expect(post.create["~standard"].vendor).toBe("tessera");
  });

  it("gives the decoded columns as the value", () => {
    const result = validate(post.create, {
      title: "Hello",
      views: "7",
      published: true,
      metadata: { tags: ["a"] },
      status: "draft",
      cover_key: "ignored",
    });
    expect(result).toEqual({
      value: {
        title: "Hello",
        views: 7,
        published: 1,
        publish_on: null,
        metadata: '{"tags":["a"]}',
        status: "draft",
      },
    });
  });

  it("makes the public id of a model that has one", () => {
    const result = validate(label.create, { name: "red", public_id: "sent by the client" });
    expect(result.issues).toBeUndefined();
    expect(result.issues ? undefined : result.value.public_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("reports every failing field with its 422 message and the key as the path", () => {
    const result = validate(post.create, {
      title: " ",
      views: 2 ** 53,
      publish_on: "2023-02-29",
      status: "draft",
    });
    expect(result.issues).toEqual([
      { message: BLANK, path: ["title"] },
      { message: TOO_BIG, path: ["views"] },
      { message: NOT_A_DATE, path: ["publish_on"] },
    ]);
  });

  it("reports a 400 reason as one issue, with the key it names as the path", () => {
    expect(validate(post.create, { status: "draft" }).issues).toEqual([
      { message: "missing field `title`", path: ["title"] },
    ]);
    expect(validate(post.create, { title: "x", status: "gone" }).issues).toEqual([
      {
        message: "status: unknown variant `gone`, expected one of `draft`, `published`",
        path: ["status"],
      },
    ]);
    expect(validate(post.create, { title: 5, status: "draft" }).issues).toEqual([
      { message: "title: invalid type: integer 5, expected a string", path: ["title"] },
    ]);
  });

  it("reports a body that is not a JSON object without a path", () => {
    expect(validate(post.create, [1]).issues).toEqual([
      { message: "invalid type: array, expected a JSON object" },
    ]);
    expect(validate(post.create, null).issues).toEqual([
      { message: "invalid type: null, expected a JSON object" },
    ]);
  });
});

describe("model.update", () => {
  it("gives only the columns sent, null where an optional one is cleared", () => {
    expect(validate(post.update, { views: "", title: "New" })).toEqual({
      value: { title: "New", views: null },
    });
    expect(validate(post.update, {})).toEqual({ value: {} });
  });

  it("gives a sent lock version among the columns, for the stale check", () => {
    expect(validate(post.update, { lock_version: 3, published: false })).toEqual({
      value: { published: 0, lock_version: 3 },
    });
  });

  it("reports a required field cleared as its 400", () => {
    expect(validate(post.update, { title: null }).issues).toEqual([
      { message: "title: invalid type: null, expected a string", path: ["title"] },
    ]);
  });
});

describe("a Hono route validating its body with sValidator", () => {
  const app = new Hono().post("/posts", sValidator("json", post.create), (c) => {
    const body = c.req.valid("json");
    expectTypeOf(body).toEqualTypeOf<CreateValuesOf<typeof post>>();
    return c.json({ title: body.title, views: body.views, status: body.status }, 201);
  });
  const send = (body: unknown) =>
    app.request("/posts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("hands the handler the typed, decoded body", async () => {
    const response = await send({ title: "Hello", views: 3, status: "published" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ title: "Hello", views: 3, status: "published" });
  });

  it("answers 400 with the issues", async () => {
    const response = await send({ title: "", status: "draft" });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { success: boolean; error: unknown };
    expect(answer.success).toBe(false);
    expect(answer.error).toEqual([{ message: BLANK, path: ["title"] }]);
  });

  it("lets a hook answer as Tessera's record routes do", async () => {
    const routes = new Hono().patch(
      "/posts/:id",
      sValidator("json", post.update, (result, c) => {
        if (result.success) return;
        const fields: Record<string, string[]> = {};
        for (const issue of result.error) {
          const key = String(issue.path?.[0]);
          fields[key] = [...(fields[key] ?? []), issue.message];
        }
        return c.json(
          {
            error: { code: "validation_failed", message: "Validation failed", status: 422, fields },
          },
          422,
        );
      }),
      (c) => {
        const changes = c.req.valid("json");
        expectTypeOf(changes).toEqualTypeOf<UpdateValuesOf<typeof post>>();
        return c.json({ changed: Object.keys(changes) });
      },
    );
    const patch = (body: unknown) =>
      routes.request("/posts/1", {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const refused = await patch({ title: " ", publish_on: "soon" });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: { title: [BLANK], publish_on: [NOT_A_DATE] },
      },
    });
    const accepted = await patch({ views: 4, lock_version: 2 });
    expect(await accepted.json()).toEqual({ changed: ["views", "lock_version"] });
  });
});

describe("a tRPC procedure taking the model as its input", () => {
  const t = initTRPC.create();
  const router = t.router({
    createPost: t.procedure.input(post.create).mutation(({ input }) => {
      expectTypeOf(input).toEqualTypeOf<CreateValuesOf<typeof post>>();
      return { title: input.title, published: input.published };
    }),
    updatePost: t.procedure.input(post.update).mutation(({ input }) => input),
  });
  const caller = t.createCallerFactory(router)({});

  it("passes the decoded columns to the resolver", async () => {
    expect(await caller.createPost({ title: "Hi", status: "draft", published: true })).toEqual({
      title: "Hi",
      published: 1,
    });
    expect(await caller.updatePost({ views: null, lock_version: 1 })).toEqual({
      views: null,
      lock_version: 1,
    });
  });

  it("types the caller's argument as the create input", () => {
    expectTypeOf(caller.createPost).parameter(0).toEqualTypeOf<{
      title: string;
      views?: number | null;
      published?: boolean;
      publish_on?: string | null;
      metadata?: Exclude<JsonValue, null> | null;
      status: "draft" | "published";
    }>();
  });

  it("refuses a body with a BAD_REQUEST whose cause carries the issues", async () => {
    const error = await caller.createPost({ title: "", status: "draft" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    const cause = (error as TRPCError).cause;
    expect(cause).toBeInstanceOf(StandardSchemaV1Error);
    expect((cause as StandardSchemaV1Error).issues).toEqual([{ message: BLANK, path: ["title"] }]);
  });
});
