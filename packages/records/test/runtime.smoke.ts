import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Records = typeof import("@tessera/records");
type Fields = typeof import("@tessera/fields");
type Http = typeof import("@tessera/http");

export default {
  does: "create, list and refuse records over the JSON API; upload and download an attachment (to R2 on workerd)",
  imports: () => ["@tessera/records", "@tessera/fields", "@tessera/http"],
  async run({ runtime, load, check, bindings }) {
    const {
      jsonRecordRoutes,
      MemoryObjectStorage,
      MemoryRecordStore,
      MemoryRecordTables,
      R2ObjectStorage,
    } = await load<Records>("@tessera/records");
    const { defineModel } = await load<Fields>("@tessera/fields");
    const { routeRequests } = await load<Http>("@tessera/http");
    const model = defineModel("note", ["title:string", "stars:integer?", "cover:attachment?"]);
    const storage =
      runtime === "workerd"
        ? new R2ObjectStorage(
            bindings.FILES as ConstructorParameters<Records["R2ObjectStorage"]>[0],
          )
        : new MemoryObjectStorage();
    const handle = routeRequests(
      jsonRecordRoutes({
        model,
        store: new MemoryRecordStore(new MemoryRecordTables(), model),
        storage,
        authenticate: async () => ({
          ok: true,
          value: { user: { id: 1, email: "ada@example.com" } },
        }),
      }),
    );
    const send = async (method: string, path: string, body?: BodyInit, type?: string) => {
      const response = await handle(
        new Request(`https://app.example${path}`, {
          method,
          ...(body === undefined ? {} : { body }),
          ...(type ? { headers: { "content-type": type } } : {}),
        }),
      );
      check(response !== undefined, `a route answers ${method} ${path}`);
      return response!;
    };

    const created = await send(
      "POST",
      "/api/notes",
      JSON.stringify({ title: "Hello", stars: 5 }),
      "application/json",
    );
    const note = (await created.json()) as { id: number; title: string; stars: number };
    check(
      created.status === 201 && note.title === "Hello" && note.stars === 5,
      "a record is created",
    );

    const blank = await send(
      "POST",
      "/api/notes",
      JSON.stringify({ title: "" }),
      "application/json",
    );
    const envelope = (await blank.json()) as { error: { fields: Record<string, string[]> } };
    check(blank.status === 422, "an invalid record is refused with 422");
    check(envelope.error.fields.title?.[0] === "can't be blank", "a blank title can't be blank");
    const wrongType = await send(
      "POST",
      "/api/notes",
      JSON.stringify({ title: "x", stars: "many" }),
      "application/json",
    );
    check(wrongType.status === 400, "a value of the wrong JSON type is a 400");

    const form = new FormData();
    form.append("file", new File(["cover bytes"], "cover.txt", { type: "text/plain" }));
    const uploaded = await send("PUT", `/api/notes/${note.id}/cover`, form);
    const { cover_key } = (await uploaded.json()) as { cover_key: string };
    check(
      uploaded.status === 200 && typeof cover_key === "string",
      "the attachment is stored under a key",
    );
    const download = await send("GET", `/api/notes/${note.id}/cover`);
    check((await download.text()) === "cover bytes", "the attachment downloads as uploaded");
    check(
      (await storage.get(cover_key))?.contentType === "text/plain",
      "storage keeps its content type",
    );

    const listed = (await (await send("GET", "/api/notes")).json()) as { id: number }[];
    check(listed.length === 1 && listed[0]?.id === note.id, "the list holds the one record");
  },
} satisfies RuntimeSmoke;
