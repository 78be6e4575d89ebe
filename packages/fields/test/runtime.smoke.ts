import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Fields = typeof import("@tessera/fields");
type Sanitizer = typeof import("@tessera/sanitizer");

export default {
  does: "declare a model, decode a JSON create body, give the exact 400 and 422 messages",
  imports: () => ["@tessera/fields", "@tessera/sanitizer"],
  async run({ load, check }) {
    const { decodeJsonCreate, defineModel, encodeRecord, fullMessage, parseDeclaration } =
      await load<Fields>("@tessera/fields");
    const { richTextSanitizer } = await load<Sanitizer>("@tessera/sanitizer");
    const post = defineModel(
      "post",
      [
        "title:string",
        "body:rich_text?",
        "views:integer?",
        "status:enum:draft,published",
        "published_on:date?",
      ],
      { richText: richTextSanitizer },
    );
    check(post.table === "posts", "the table name is the plural");

    const valid = decodeJsonCreate(
      post.fields,
      JSON.parse(
        '{"title":"Hi","body":"<p>ok<script>alert(1)</script></p>","views":3,"status":"draft"}',
      ),
    );
    check(valid.ok, "a valid body decodes");
    const values = valid.ok ? valid.value.values : {};
    check(
      values.title === "Hi" &&
        values.body === "<p>ok</p>" &&
        values.views === 3 &&
        values.status === "draft" &&
        values.published_on === null,
      "decoded columns, rich text sanitized, missing optional is null",
    );

    const invalid = decodeJsonCreate(
      post.fields,
      JSON.parse('{"title":"  ","views":1e20,"status":"draft","published_on":"2024-02-30"}'),
    );
    check(
      !invalid.ok &&
        invalid.status === 422 &&
        JSON.stringify(invalid.fields) ===
          JSON.stringify({
            title: ["can't be blank"],
            views: ["must be less than or equal to 9007199254740991"],
            published_on: ["is not a valid date"],
          }),
      "a 422 gives every failing field with its exact message",
    );
    check(
      fullMessage("published_on", "is not a valid date") === "Published on is not a valid date",
      "full messages humanize the field name",
    );

    const unknown = decodeJsonCreate(post.fields, { title: "a", status: "x" });
    check(
      !unknown.ok &&
        unknown.status === 400 &&
        unknown.reason === "status: unknown variant `x`, expected one of `draft`, `published`",
      "an enum outside its list is a 400 in serde's words",
    );
    const missing = decodeJsonCreate(post.fields, { status: "draft" });
    check(!missing.ok && missing.reason === "missing field `title`", "a missing key is a 400");

    const refused = parseDeclaration("title");
    check(
      !refused.ok && refused.reason === "field `title` has no type",
      "a declaration without a type is refused",
    );

    const json = encodeRecord(post.fields, {
      id: 7,
      title: "Hi",
      body: null,
      views: 3,
      status: "draft",
      published_on: "2024-02-29",
    });
    check(
      json.title === "Hi" && json.published_on === "2024-02-29",
      "a stored row encodes to JSON",
    );
  },
} satisfies RuntimeSmoke;
