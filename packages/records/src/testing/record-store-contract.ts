import { defineModel, type Model } from "@tessera/fields";
import { describe, expect, it } from "vitest";
import type { RecordStore } from "../record-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

/** The models the contract writes: files, a lock version, a unique slug, a reference, a public id. */
export const contractModels = {
  post: defineModel("post", [
    "title:string",
    "slug:string?^",
    "lock_version:integer",
    "cover:attachment?",
    "photos:attachments",
  ]),
  comment: defineModel("comment", ["post:references", "body:text"]),
  label: defineModel("label", ["public_id:token", "name:string"]),
} satisfies Record<string, Model>;

/** Stores over one fresh database holding the contract's models, and a way to make users. */
export interface RecordStoresUnderTest {
  store(model: Model): RecordStore;
  newUser(): Promise<number>;
}

/** The behaviour every `RecordStore` owes the record routes, whatever holds the rows. *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { Model } from "@tessera/fields";
 * import type { RecordStore } from "@tessera/records";
 * import { contractModels, describeRecordStoreContract } from "@tessera/records/testing";
 *
 * // Yours: a fresh database with a table for each of `contractModels`, a store of one model
 * // over it, and a user row for records to belong to.
 * declare function openMyDatabase(models: readonly Model[]): Promise<unknown>;
 * declare function myRecordStore(database: unknown, model: Model): RecordStore;
 * declare function insertMyUser(database: unknown): Promise<number>;
 *
 * describeRecordStoreContract("MyRecordStore", async () => {
 *   const database = await openMyDatabase(Object.values(contractModels));
 *   return {
 *     store: (model) => myRecordStore(database, model),
 *     newUser: () => insertMyUser(database),
 *   };
 * });
 * ```
 */
export function describeRecordStoreContract(
  name: string,
  makeStores: () => Promise<RecordStoresUnderTest>,
) {
  async function setUp() {
    const stores = await makeStores();
    return {
      posts: stores.store(contractModels.post),
      comments: stores.store(contractModels.comment),
      labels: stores.store(contractModels.label),
      ada: await stores.newUser(),
      bob: await stores.newUser(),
    };
  }
  const post = (title: string, slug: string | null = null) => ({ title, slug });

  describe(`RecordStore contract: ${name}`, () => {
    it("inserts with defaults and times, finds and lists only the owner's, newest first", async () => {
      const { posts, ada, bob } = await setUp();
      const first = await posts.insert(ada, post("one"), T0);
      expect(first.ok && first.row).toMatchObject({
        user_id: ada,
        title: "one",
        slug: null,
        lock_version: 0,
        cover_key: null,
        created_at: "2026-01-02 03:04:05",
        updated_at: "2026-01-02 03:04:05",
      });
      await posts.insert(ada, post("two"), T0);
      await posts.insert(ada, post("three"), T0);
      await posts.insert(bob, post("bob's"), T0);
      const titles = (rows: { title?: unknown }[]) => rows.map((row) => row.title);
      expect(titles(await posts.list(ada, { limit: 2, offset: 0 }))).toEqual(["three", "two"]);
      expect(titles(await posts.list(ada, { limit: 2, offset: 2 }))).toEqual(["one"]);
      const [three] = await posts.list(ada, { limit: 1, offset: 0 });
      const below = await posts.list(ada, { limit: 5, offset: 0, after: three!.id as number });
      expect(titles(below)).toEqual(["two", "one"]);
      expect(titles(await posts.list(bob, { limit: 5, offset: 0, after: 10 ** 9 }))).toEqual([
        "bob's",
      ]);
      const id = first.ok ? (first.row.id as number) : 0;
      expect(await posts.find(ada, { id })).toMatchObject({ title: "one" });
      expect(await posts.find(bob, { id })).toBeUndefined();
    });

    it("refuses a taken unique value, lets nulls repeat, and lets one of ten racers win", async () => {
      const { posts, ada, bob } = await setUp();
      expect((await posts.insert(ada, post("a", "hello"), T0)).ok).toBe(true);
      expect(await posts.insert(bob, post("b", "hello"), T0)).toEqual({
        ok: false,
        reason: "taken",
        columns: ["slug"],
      });
      expect((await posts.insert(ada, post("c"), T0)).ok).toBe(true);
      expect((await posts.insert(ada, post("d"), T0)).ok).toBe(true);
      const racing = await Promise.all(
        Array.from({ length: 10 }, () => posts.insert(ada, post("x", "race"), T0)),
      );
      expect(racing.filter((outcome) => outcome.ok)).toHaveLength(1);
    });

    it("refuses a reference to a missing record; exists() is scoped by owner", async () => {
      const { posts, comments, ada, bob } = await setUp();
      expect(await comments.insert(ada, { post_id: 999, body: "x" }, T0)).toEqual({
        ok: false,
        reason: "missing-reference",
      });
      const created = await posts.insert(ada, post("p"), T0);
      const id = created.ok ? (created.row.id as number) : 0;
      expect((await comments.insert(ada, { post_id: id, body: "x" }, T0)).ok).toBe(true);
      expect(await comments.exists(ada, "posts", id)).toBe(true);
      expect(await comments.exists(bob, "posts", id)).toBe(false);
      expect(await comments.exists(ada, "posts", id + 1000)).toBe(false);
    });

    it("updates with the lock version: stale refused, another owner's not found, old file key replaced", async () => {
      const { posts, ada, bob } = await setUp();
      const created = await posts.insert(ada, { ...post("p"), cover_key: "k1" }, T0);
      const id = created.ok ? (created.row.id as number) : 0;
      const updated = await posts.update(
        ada,
        { id },
        {
          values: { title: "q", cover_key: "k2" },
          lockVersion: 0,
          now: T0 + 1000,
        },
      );
      expect(updated.ok && updated.row).toMatchObject({
        title: "q",
        cover_key: "k2",
        lock_version: 1,
        updated_at: "2026-01-02 03:04:06",
      });
      expect(updated.ok && updated.replacedKeys).toEqual(["k1"]);
      expect(
        await posts.update(ada, { id }, { values: { title: "r" }, lockVersion: 0, now: T0 }),
      ).toEqual({
        ok: false,
        reason: "stale",
      });
      expect(await posts.update(bob, { id }, { values: { title: "r" }, now: T0 })).toEqual({
        ok: false,
        reason: "not-found",
      });
      expect(await posts.find(ada, { id })).toMatchObject({ title: "q", lock_version: 1 });
    });

    it("keeps files per record and owner, and a delete returns every file key once", async () => {
      const { posts, ada, bob } = await setUp();
      const created = await posts.insert(ada, { ...post("p"), cover_key: "cover" }, T0);
      const id = created.ok ? (created.row.id as number) : 0;
      const file = (key: string) => ({
        key,
        filename: `${key}.png`,
        contentType: "image/png",
        size: 3,
      });
      expect(await posts.insertFile(bob, id, "photos", file("stolen"), T0)).toBeUndefined();
      const one = await posts.insertFile(ada, id, "photos", file("p1"), T0);
      await posts.insertFile(ada, id, "photos", file("p2"), T0);
      expect(one).toMatchObject({ post_id: id, photo_key: "p1", photo_size: 3 });
      expect((await posts.listFiles(ada, id, "photos")).map((row) => row.photo_key)).toEqual([
        "p1",
        "p2",
      ]);
      expect(await posts.listFiles(bob, id, "photos")).toEqual([]);
      expect(await posts.deleteFile(bob, id, "photos", one!.id as number)).toBeUndefined();
      expect(await posts.deleteFile(ada, id, "photos", one!.id as number)).toMatchObject({
        photo_key: "p1",
      });
      const deleted = await posts.delete(ada, { id });
      expect(deleted.row).toMatchObject({ title: "p" });
      expect([...deleted.fileKeys].sort()).toEqual(["cover", "p2"]);
      expect(await posts.delete(ada, { id })).toEqual({ row: undefined, fileKeys: [] });
    });

    it("deletes every file of a record's field at once, only the owner's, leaving the record", async () => {
      const { posts, ada, bob } = await setUp();
      const idOf = async (owner: number) => {
        const created = await posts.insert(owner, post("p"), T0);
        return created.ok ? (created.row.id as number) : 0;
      };
      const [emptied, other, bobs] = [await idOf(ada), await idOf(ada), await idOf(bob)];
      const file = (key: string) => ({ key, filename: "f.png", contentType: "image/png", size: 1 });
      for (const key of ["a1", "a2", "a3"])
        await posts.insertFile(ada, emptied, "photos", file(key), T0);
      await posts.insertFile(ada, other, "photos", file("o1"), T0);
      await posts.insertFile(bob, bobs, "photos", file("b1"), T0);
      const before = await posts.find(ada, { id: emptied });

      expect(await posts.deleteFiles(bob, emptied, "photos")).toEqual([]);
      expect(await posts.listFiles(ada, emptied, "photos")).toHaveLength(3);
      const deleted = await posts.deleteFiles(ada, emptied, "photos");
      expect(deleted.map((row) => row.photo_key).sort()).toEqual(["a1", "a2", "a3"]);
      expect(deleted[0]).toMatchObject({ post_id: emptied, photo_filename: "f.png" });
      expect(await posts.listFiles(ada, emptied, "photos")).toEqual([]);
      expect(await posts.deleteFiles(ada, emptied, "photos")).toEqual([]);
      expect(await posts.find(ada, { id: emptied })).toEqual(before);
      expect((await posts.listFiles(ada, other, "photos")).map((row) => row.photo_key)).toEqual([
        "o1",
      ]);
      expect((await posts.listFiles(bob, bobs, "photos")).map((row) => row.photo_key)).toEqual([
        "b1",
      ]);
    });

    it("finds by public id within the owner", async () => {
      const { labels, ada, bob } = await setUp();
      await labels.insert(ada, { public_id: "AAAAAAAAAAAAAAAAAAAAAA", name: "urgent" }, T0);
      expect(await labels.find(ada, { publicId: "AAAAAAAAAAAAAAAAAAAAAA" })).toMatchObject({
        name: "urgent",
      });
      expect(await labels.find(bob, { publicId: "AAAAAAAAAAAAAAAAAAAAAA" })).toBeUndefined();
    });
  });
}
