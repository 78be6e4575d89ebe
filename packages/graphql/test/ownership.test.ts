// Another user's record is exactly a missing one: null in queries, absent from lists,
// not_found in mutations, and never changed.
import { describe, expect, it } from "vitest";
import { setUp } from "./fixtures.js";

const notFound = (path: string) => ({
  data: null,
  errors: [
    {
      message: "Not found",
      locations: expect.any(Array),
      path: [path],
      extensions: { code: "not_found", status: 404 },
    },
  ],
});

async function bobsNote() {
  const context = await setUp();
  const created = await context.send(
    'mutation { createNote(input: { title: "Bob\'s", tags: [1] }) { id userId } }',
    { token: "bob-token" },
  );
  expect(created.body.data.createNote.userId).toBe("2");
  await context.send('mutation { createNote(input: { title: "Ada\'s" }) { id } }');
  return { ...context, bobsId: created.body.data.createNote.id as string };
}

describe("another user's note", () => {
  it("is null in note(id) and absent from notes", async () => {
    const { send, bobsId } = await bobsNote();
    const shown = await send("query ($id: ID!) { note(id: $id) { title } }", {
      variables: { id: bobsId },
    });
    expect(shown.body).toEqual({ data: { note: null } });
    const listed = await send("{ notes { title userId } }");
    expect(listed.body).toEqual({ data: { notes: [{ title: "Ada's", userId: "1" }] } });
    const bobs = await send("{ notes { title } }", { token: "bob-token" });
    expect(bobs.body).toEqual({ data: { notes: [{ title: "Bob's" }] } });
  });

  it("is not_found for update, even with input that would not decode, and stays as it was", async () => {
    const { send, bobsId, rows } = await bobsNote();
    const before = rows("SELECT * FROM notes WHERE id = ?", Number(bobsId));
    for (const input of ['{ title: "mine" }', "{ title: null }", '{ title: "" }']) {
      const answer = await send(
        `mutation ($id: ID!) { updateNote(id: $id, input: ${input}) { id } }`,
        { variables: { id: bobsId } },
      );
      expect(answer.body).toEqual(notFound("updateNote"));
    }
    expect(rows("SELECT * FROM notes WHERE id = ?", Number(bobsId))).toEqual(before);
  });

  it("is not_found for delete and stays", async () => {
    const { send, bobsId, rows } = await bobsNote();
    const answer = await send("mutation ($id: ID!) { deleteNote(id: $id) }", {
      variables: { id: bobsId },
    });
    expect(answer.body).toEqual(notFound("deleteNote"));
    expect(rows("SELECT title FROM notes WHERE id = ?", Number(bobsId))).toEqual([
      { title: "Bob's" },
    ]);
  });
});

describe("a missing note", () => {
  it.each(["999", "0", "007", "-1", "abc", "1.5", "99999999999999999999"])(
    "answers id %s as a missing record",
    async (id) => {
      const { send } = await setUp();
      const shown = await send("query ($id: ID!) { note(id: $id) { id } }", {
        variables: { id },
      });
      expect(shown.body).toEqual({ data: { note: null } });
      const updated = await send(
        'mutation ($id: ID!) { updateNote(id: $id, input: { title: "x" }) { id } }',
        { variables: { id } },
      );
      expect(updated.body).toEqual(notFound("updateNote"));
      const deleted = await send("mutation ($id: ID!) { deleteNote(id: $id) }", {
        variables: { id },
      });
      expect(deleted.body).toEqual(notFound("deleteNote"));
    },
  );

  it("is not_found on a second delete", async () => {
    const { send } = await setUp();
    const created = await send('mutation { createNote(input: { title: "x" }) { id } }');
    const id = created.body.data.createNote.id;
    const first = await send("mutation ($id: ID!) { deleteNote(id: $id) }", { variables: { id } });
    expect(first.body).toEqual({ data: { deleteNote: true } });
    const again = await send("mutation ($id: ID!) { deleteNote(id: $id) }", { variables: { id } });
    expect(again.body).toEqual(notFound("deleteNote"));
  });
});
