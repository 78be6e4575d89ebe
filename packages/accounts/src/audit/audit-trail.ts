import { type Clock, systemClock } from "@tessera/core";
import type { HookRequest } from "../account-hooks.js";
import { type AuditDetail, auditDetails, MAXIMUM_USER_AGENT_LENGTH } from "./audit-events.js";
import type { AuditLog } from "./audit-log.js";

/** What one recording says beyond its type, subject and request. */
export interface AuditRecordOptions {
  /** Who made the change when it was not the subject (an admin). */
  readonly actorId?: number | null | undefined;
  readonly details?: Readonly<Record<string, AuditDetail>> | undefined;
}

/**
 * Records account events in an {@link AuditLog}, with the client's address and `User-Agent`
 * read from the request, and the time of `clock`.
 */
export interface AuditTrail {
  /**
   * Appends `type` about `userId` (null: no account, as for a failed sign-in to an unknown
   * address). The change it records has been made: a failing append is reported on stderr
   * (never with `details`), and the answer stays what it was.
   */
  record(
    type: string,
    userId: number | null,
    at: HookRequest,
    options?: AuditRecordOptions,
  ): Promise<void>;
  /** The log it appends to, for the activity listings. */
  readonly log: AuditLog;
}

/** An {@link AuditTrail} on `log`. */
export function auditTrail(log: AuditLog, clock: Clock = systemClock): AuditTrail {
  return {
    log,
    async record(type, userId, at, options = {}) {
      const details = auditDetails(options.details ?? {});
      const userAgent = at.request.headers.get("user-agent");
      const entry = {
        type,
        userId,
        actorId: options.actorId ?? null,
        ip: at.clientAddress === "" ? null : at.clientAddress,
        userAgent: userAgent === null ? null : userAgent.slice(0, MAXIMUM_USER_AGENT_LENGTH),
        details,
      };
      try {
        await log.append(entry, clock());
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        console.error(`Could not record the audit event ${type} of user ${userId}: ${reason}`);
      }
    },
  };
}
