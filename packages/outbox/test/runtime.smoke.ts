import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type OutboxModule = typeof import("@tessera/outbox");

export default {
  does: "keep an item only when its transaction commits, deliver it once with its key, retry a failure on the schedule",
  imports: () => ["@tessera/outbox"],
  async run({ load, check }) {
    const { MemoryOutbox, runOutbox } = await load<OutboxModule>("@tessera/outbox");
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const clock = () => now;
    const outbox = new MemoryOutbox({ clock });
    await outbox.transaction(async (writer) => {
      await outbox.enqueue(writer, "mail", { to: "ada@example.com" }, { key: "kept" });
    });
    await outbox
      .transaction(async (writer) => {
        await outbox.enqueue(writer, "mail", { to: "bob@example.com" }, { key: "rolled-back" });
        throw new Error("roll back");
      })
      .catch(() => {});
    check((await outbox.find("mail", "rolled-back")) === undefined, "a rolled-back item is gone");
    const delivered: string[] = [];
    let failFirst = true;
    const runner = runOutbox({
      outbox,
      queue: "mail",
      clock,
      schedule: { delaysMs: [5_000], jitter: 0 },
      deliver: async (item) => {
        if (failFirst) {
          failFirst = false;
          throw new Error("provider down");
        }
        delivered.push(item.key);
      },
    });
    const first = await runner.drain();
    check(first.retried === 1 && delivered.length === 0, "a failed delivery waits for its retry");
    now += 5_000;
    await runner.drain();
    check(delivered.join() === "kept", "the item is delivered once, with its key");
    check((await outbox.find("mail", "kept"))?.status === "done", "a delivered item is done");
  },
} satisfies RuntimeSmoke;
