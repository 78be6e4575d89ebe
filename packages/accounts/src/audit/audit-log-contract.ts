import { describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit-events.js";
import type { AuditLog } from "./audit-log.js";

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const DAY = 86_400_000;

function entry(type: string, userId: number | null, details = {}): AuditEntry {
  return { type, userId, actorId: null, ip: "203.0.113.9", userAgent: "Firefox", details };
}

/**
 * The behaviour every `AuditLog` owes the routes: events kept as given, listed newest first by
 * user and type with keyset paging, and deleted only by age. Call it at the top of a vitest
 * test file; each case gets its own log from the maker.
 *
 * @example
 * ```ts
 * import type { AuditLog } from "@tessera/accounts";
 * import { describeAuditLogContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty audit log, made for each test.
 * declare function openMyAuditLog(): Promise<AuditLog>;
 *
 * describeAuditLogContract("MyAuditLog", openMyAuditLog);
 * ```
 */
export function describeAuditLogContract(name: string, makeLog: () => Promise<AuditLog>) {
  describe(`AuditLog contract: ${name}`, () => {
    it("keeps each event as given and lists a user's newest first", async () => {
      const log = await makeLog();
      await log.append(entry("user.signed_up", 1, { method: "password" }), T0);
      await log.append(entry("user.signed_in", 2), T0 + 1);
      await log.append(
        { ...entry("user.signed_in", 1, { method: "password", grant: "token" }), actorId: 9 },
        T0 + 2,
      );
      const events = await log.list({ userId: 1, limit: 10 });
      expect(events.map(({ type, at }) => [type, at])).toEqual([
        ["user.signed_in", T0 + 2],
        ["user.signed_up", T0],
      ]);
      expect(events[0]).toMatchObject({
        userId: 1,
        actorId: 9,
        ip: "203.0.113.9",
        userAgent: "Firefox",
        details: { method: "password", grant: "token" },
      });
      expect(events[0]!.id).toBeGreaterThan(events[1]!.id);
    });

    it("filters by type, pages by id and offset, and keeps events of no user", async () => {
      const log = await makeLog();
      for (let index = 0; index < 5; index += 1) {
        await log.append(entry("user.sign_in_failed", null, { reason: "password" }), T0 + index);
      }
      await log.append(entry("user.deleted", 3), T0 + 9);
      const failed = await log.list({ type: "user.sign_in_failed", limit: 2 });
      expect(failed).toHaveLength(2);
      expect(failed.every((event) => event.userId === null)).toBe(true);
      const older = await log.list({
        type: "user.sign_in_failed",
        after: failed[1]!.id,
        limit: 10,
      });
      expect(older).toHaveLength(3);
      expect(older[0]!.id).toBeLessThan(failed[1]!.id);
      expect(await log.list({ type: "user.sign_in_failed", offset: 4, limit: 10 })).toHaveLength(1);
      expect((await log.list({ limit: 1 }))[0]?.type).toBe("user.deleted");
    });

    it("deletes only the events recorded before the given time", async () => {
      const log = await makeLog();
      await log.append(entry("user.signed_in", 1), T0 - 400 * DAY);
      await log.append(entry("user.signed_in", 1), T0 - 10 * DAY);
      expect(await log.deleteOlderThan(T0 - 365 * DAY)).toBe(1);
      expect(await log.list({ userId: 1, limit: 10 })).toHaveLength(1);
    });
  });
}
