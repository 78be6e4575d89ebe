import type { AuditEntry, AuditEvent } from "./audit-events.js";
import type { AuditLog, AuditQuery } from "./audit-log.js";

/** The audit trail in this process's memory: for tests and single-process demos. */
export class MemoryAuditLog implements AuditLog {
  readonly #events: AuditEvent[] = [];
  #lastId = 0;

  async append(entry: AuditEntry, at: number): Promise<void> {
    this.#events.push({ ...entry, details: { ...entry.details }, id: ++this.#lastId, at });
  }

  async list(query: AuditQuery): Promise<AuditEvent[]> {
    const chosen: AuditEvent[] = [];
    let skipped = 0;
    for (let index = this.#events.length - 1; index >= 0; index -= 1) {
      const event = this.#events[index]!;
      if (query.userId !== undefined && event.userId !== query.userId) continue;
      if (query.type !== undefined && event.type !== query.type) continue;
      if (query.after !== undefined && event.id >= query.after) continue;
      if (skipped < (query.offset ?? 0)) {
        skipped += 1;
        continue;
      }
      chosen.push(event);
      if (chosen.length === query.limit) break;
    }
    return chosen;
  }

  async deleteOlderThan(before: number): Promise<number> {
    const kept = this.#events.filter((event) => event.at >= before);
    const removed = this.#events.length - kept.length;
    this.#events.splice(0, this.#events.length, ...kept);
    return removed;
  }
}
