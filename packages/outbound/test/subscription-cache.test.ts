// The SQL store's cache of who is subscribed (`cacheSubscriptions`), on a real SQLite file with a
// second connection standing for another process: a write whose event the cache says goes
// nowhere runs without a transaction, and the check after it (`stillUnsubscribed`) must catch
// every endpoint that was subscribed when the write committed and still is, however it was
// written (this connection's store, its own SQL, another connection). On PostgreSQL there is no
// cache, and every write sends in its transaction.
import {
  OutboundWebhooks,
  outboundSecretKeys,
  type UnsubscribedOwner,
  WEBHOOK_QUEUE,
} from "@tessera/outbound";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { SqlOutbox } from "@tessera/outbox/sql";
import type { SqlDatabase } from "@tessera/sql";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { postgresSchema, sqliteFile } from "./support/databases.js";

/** A change to an owner's endpoints, and who makes it: see the property below. */
interface Change {
  readonly via: "store" | "sql" | "other";
  readonly action: "create" | "toggle" | "refilter" | "remove";
  readonly pick: number;
  readonly filter: string[];
}

const keys = outboundSecretKeys({ current: "a-test-secret-key-base-of-at-least-32-characters" });
const TYPE = "note.created";

function webhooksOn(database: SqlDatabase, cacheSubscriptions: boolean) {
  return new OutboundWebhooks({
    store: new SqlOutboundStore(database, { cacheSubscriptions }),
    outbox: new SqlOutbox(database),
    writer: database,
    secretKeys: keys,
    resolveHost: async () => ["93.184.216.34"],
  });
}

/** The database with its `all` queries counted: the reads of who is subscribed are `all`. */
function countingQueries(database: SqlDatabase) {
  const counter = { queries: 0 };
  const counted: SqlDatabase = {
    dialect: database.dialect,
    run: (sql, params) => database.run(sql, params),
    get: (sql, params) => database.get(sql, params),
    all: (sql, params) => {
      counter.queries++;
      return database.all(sql, params);
    },
    execScript: (sql) => database.execScript(sql),
    transaction: (work) => database.transaction(work),
  };
  return { counted, counter };
}

async function setUp() {
  const { database: connection, open } = await sqliteFile();
  const { counted: database, counter } = countingQueries(connection);
  const webhooks = webhooksOn(database, true);
  // Another process on the same file: its own connection and stores, no cache.
  const other = open();
  const elsewhere = webhooksOn(other, false);
  const endpoint = async (
    on: OutboundWebhooks<SqlDatabase>,
    ownerId: number,
    events?: string[],
  ) => {
    const created = await on.createEndpoint(ownerId, {
      url: "https://hooks.example/in",
      ...(events ? { events } : {}),
    });
    if (!created.ok) throw new Error(JSON.stringify(created));
    return created.value.endpoint.id;
  };
  /** The cache is made on first use without being waited for: this waits until it is there. */
  const warm = async () => {
    for (let turn = 0; turn < 100; turn++) {
      if (await webhooks.unsubscribed(database, 999_999, TYPE)) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error("the cache was never made");
  };
  /** The caller's write: anything committed on the connection, here an outbox item elsewhere. */
  let writes = 0;
  const write = (on: SqlDatabase = database) =>
    on.run(
      "INSERT INTO outbox_items (queue, idempotency_key, payload, run_at, created_at, updated_at) VALUES ('notes', ?, '{}', 0, 0, 0)",
      [`write-${++writes}`],
    );
  /** What RecordEventWrites does: the write alone when the word holds, else with the event. */
  const writeAndSend = async (ownerId: number, word: UnsubscribedOwner | undefined) => {
    if (!word) {
      return database.transaction(async (transaction) => {
        await write(transaction);
        return (await webhooks.send(transaction, ownerId, TYPE, { n: writes })).messageId;
      });
    }
    await write();
    if (await word.stillUnsubscribed()) return undefined;
    return database.transaction(
      async (transaction) =>
        (await webhooks.send(transaction, ownerId, TYPE, { n: writes })).messageId,
    );
  };
  const deliveries = async (messageId: string | undefined) =>
    messageId === undefined
      ? []
      : (
          await connection.all<{ payload: string }>(
            "SELECT payload FROM outbox_items WHERE queue = ? AND idempotency_key LIKE ?",
            [WEBHOOK_QUEUE, `${messageId}.%`],
          )
        )
          .map((row) => (JSON.parse(row.payload) as { endpoint_id: string }).endpoint_id)
          .sort();
  await warm();
  return {
    connection,
    database,
    counter,
    webhooks,
    other,
    elsewhere,
    endpoint,
    write,
    writeAndSend,
    deliveries,
  };
}

describe("the SQLite cache of subscriptions", () => {
  it("gives its word for an owner with no endpoint taking the type, without a query once it knows them", async () => {
    const { database, counter, webhooks, endpoint, write } = await setUp();
    await endpoint(webhooks, 1, ["user.created"]);
    const disabled = await endpoint(webhooks, 1);
    await webhooks.updateEndpoint(1, disabled, { enabled: false });

    const first = await webhooks.unsubscribed(database, 1, TYPE);
    expect(first).toBeDefined();
    const queries = counter.queries;
    for (let n = 0; n < 5; n++) {
      const word = await webhooks.unsubscribed(database, 1, TYPE);
      await write();
      expect(await word?.stillUnsubscribed()).toBe(true);
    }
    expect(counter.queries).toBe(queries);
    // A type its filter takes, or an endpoint enabled again: no word, the event is sent.
    expect(await webhooks.unsubscribed(database, 1, "user.created")).toBeUndefined();
    await webhooks.updateEndpoint(1, disabled, { enabled: true });
    expect(await webhooks.unsubscribed(database, 1, TYPE)).toBeUndefined();
  });

  it("takes back its word when another connection adds an endpoint while the write runs", async () => {
    const { database, webhooks, elsewhere, endpoint, writeAndSend, deliveries } = await setUp();
    const word = await webhooks.unsubscribed(database, 2, TYPE);
    expect(word).toBeDefined();
    const added = await endpoint(elsewhere, 2);
    const messageId = await writeAndSend(2, word);
    expect(await deliveries(messageId)).toEqual([added]);
    // Known now: the next write sends in its transaction.
    expect(await webhooks.unsubscribed(database, 2, TYPE)).toBeUndefined();
  });

  it("sees an endpoint enabled by the connection's own SQL, which no store was told of", async () => {
    const { connection, database, webhooks, endpoint, writeAndSend, deliveries } = await setUp();
    const id = await endpoint(webhooks, 3);
    await webhooks.updateEndpoint(3, id, { enabled: false });
    const word = await webhooks.unsubscribed(database, 3, TYPE);
    expect(word).toBeDefined();
    await connection.run("UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ?", [id]);
    expect(await deliveries(await writeAndSend(3, word))).toEqual([id]);
  });

  it("keeps its word through another connection's commits that subscribe no one", async () => {
    const { database, webhooks, other, elsewhere, endpoint, writeAndSend } = await setUp();
    await endpoint(elsewhere, 5);
    const word = await webhooks.unsubscribed(database, 4, TYPE);
    await other.run(
      "INSERT INTO outbox_items (queue, idempotency_key, payload, run_at, created_at, updated_at) VALUES ('mail', 'elsewhere', '{}', 0, 0, 0)",
    );
    expect(await writeAndSend(4, word)).toBeUndefined();
    expect(await database.get("SELECT id FROM webhook_messages")).toBeUndefined();
  });

  it("reads in a send's transaction the endpoints another connection added since it last looked", async () => {
    const { database, webhooks, elsewhere, endpoint, writeAndSend, deliveries } = await setUp();
    const first = await endpoint(webhooks, 6);
    expect(await deliveries(await writeAndSend(6, undefined))).toEqual([first]);
    const second = await endpoint(elsewhere, 6, [TYPE]);
    const word = await webhooks.unsubscribed(database, 6, TYPE);
    expect(word).toBeUndefined();
    expect(await deliveries(await writeAndSend(6, word))).toEqual([first, second].sort());
  });

  it("misses no endpoint subscribed both when a write commits and when it is checked, whatever changes around it", async () => {
    const setup = await setUp();
    const { database, webhooks, elsewhere, connection, writeAndSend, deliveries } = setup;
    const filters = [[], [TYPE], ["user.created"], ["note.*"]];
    // A change to the owner's endpoints, by this connection's store, its own SQL, or another
    // connection's store (another process).
    const change: fc.Arbitrary<Change> = fc.record({
      via: fc.constantFrom("store", "sql", "other"),
      action: fc.constantFrom("create", "toggle", "refilter", "remove"),
      pick: fc.nat(),
      filter: fc.constantFrom(...filters),
    });
    const changes = fc.array(change, { maxLength: 2 });
    const step = fc.record({ before: changes, during: changes, after: changes });
    let owners = 100;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const ownerId = ++owners;
        const model = new Map<string, { enabled: boolean; filter: string[] }>();
        const subscribed = () =>
          [...model]
            .filter(
              ([, e]) =>
                e.enabled &&
                (e.filter.length === 0 ||
                  e.filter.some(
                    (f) => f === TYPE || (f.endsWith(".*") && TYPE.startsWith(f.slice(0, -1))),
                  )),
            )
            .map(([id]) => id)
            .sort();
        const apply = async (list: readonly Change[]) => {
          for (const { via, action, pick, filter } of list) {
            const ids = [...model.keys()];
            const on = via === "other" ? elsewhere : webhooks;
            if (action === "create" || ids.length === 0) {
              const created = await on.createEndpoint(ownerId, {
                url: "https://hooks.example/in",
                events: filter,
              });
              if (!created.ok) throw new Error(JSON.stringify(created));
              model.set(created.value.endpoint.id, { enabled: true, filter });
              continue;
            }
            const id = ids[pick % ids.length]!;
            const endpoint = model.get(id)!;
            if (action === "remove") {
              if (via === "sql")
                await connection.run("DELETE FROM webhook_endpoints WHERE id = ?", [id]);
              else await on.deleteEndpoint(ownerId, id);
              model.delete(id);
            } else if (action === "toggle") {
              const enabled = !endpoint.enabled;
              if (via === "sql") {
                await connection.run("UPDATE webhook_endpoints SET disabled_at = ? WHERE id = ?", [
                  enabled ? null : 1,
                  id,
                ]);
              } else await on.updateEndpoint(ownerId, id, { enabled });
              endpoint.enabled = enabled;
            } else {
              if (via === "sql") {
                await connection.run("UPDATE webhook_endpoints SET event_types = ? WHERE id = ?", [
                  JSON.stringify(filter),
                  id,
                ]);
              } else await on.updateEndpoint(ownerId, id, { events: filter });
              endpoint.filter = filter;
            }
          }
        };
        for (const { before, during, after } of steps) {
          await apply(before);
          const word = await webhooks.unsubscribed(database, ownerId, TYPE);
          await apply(during);
          let atCommit: string[];
          let messageId: string | undefined;
          if (word) {
            await setup.write();
            atCommit = subscribed();
            await apply(after);
            messageId = (await word.stillUnsubscribed())
              ? undefined
              : await database.transaction(
                  async (transaction) =>
                    (await webhooks.send(transaction, ownerId, TYPE, {})).messageId,
                );
          } else {
            messageId = await writeAndSend(ownerId, undefined);
            atCommit = subscribed();
            await apply(after);
          }
          const atCheck = subscribed();
          const sent = await deliveries(messageId);
          // Every endpoint subscribed at the commit and still at the check got the event; none
          // subscribed at neither did.
          for (const id of atCommit.filter((id) => atCheck.includes(id)))
            expect(sent).toContain(id);
          for (const id of sent) expect([...atCommit, ...atCheck]).toContain(id);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("subscriptions on PostgreSQL", () => {
  it("are not cached: no word is given, and a send reads them in its transaction", async () => {
    const { database } = await postgresSchema();
    const webhooks = webhooksOn(database, true);
    const created = await webhooks.createEndpoint(1, { url: "https://hooks.example/in" });
    if (!created.ok) throw new Error(JSON.stringify(created));
    expect(await webhooks.unsubscribed(database, 2, TYPE)).toBeUndefined();
    const sent = await database.transaction((transaction) =>
      webhooks.send(transaction, 1, TYPE, { id: 1 }),
    );
    expect(sent.endpoints).toBe(1);
  });
});
