import { describe, expect, it } from "vitest";
import { defineModel, encodeRecord } from "../src/index.js";

describe("encodeRecord", () => {
  const post = defineModel("post", [
    "published:bool",
    "metadata:json?",
    "cover:attachment?",
    "photos:attachments",
    "views:integer?",
  ]);

  it("writes booleans as true/false, json as its value, an attachment as four columns", () => {
    const row = {
      id: 3,
      user_id: 1,
      published: 1,
      metadata: '{"a":[1,"x"]}',
      cover_key: "k",
      cover_filename: "a.png",
      cover_content_type: "image/png",
      cover_size: 12,
      views: 5n,
      created_at: "2024-01-01 00:00:00",
      updated_at: "2024-01-02 00:00:00",
      password_digest: "never shown",
    };
    expect(encodeRecord(post.fields, row)).toEqual({
      id: 3,
      user_id: 1,
      published: true,
      metadata: { a: [1, "x"] },
      cover_key: "k",
      cover_filename: "a.png",
      cover_content_type: "image/png",
      cover_size: 12,
      views: 5,
      created_at: "2024-01-01 00:00:00",
      updated_at: "2024-01-02 00:00:00",
    });
  });

  it("writes nulls for empty columns and false for 0", () => {
    const output = encodeRecord(post.fields, {
      id: 1,
      published: 0,
      metadata: null,
      cover_key: null,
      views: null,
    });
    expect(output).toMatchObject({
      published: false,
      metadata: null,
      cover_key: null,
      cover_size: null,
      views: null,
    });
  });

  it("keeps a JSON string a string", () => {
    expect(encodeRecord(post.fields, { id: 1, published: 0, metadata: '""' }).metadata).toBe("");
  });

  it("leaves out the integer id when the model has a public id", () => {
    const label = defineModel("label", ["public_id:token", "name:string"]);
    expect(encodeRecord(label.fields, { id: 7, public_id: "p".repeat(22), name: "n" })).toEqual({
      public_id: "p".repeat(22),
      name: "n",
    });
  });
});
