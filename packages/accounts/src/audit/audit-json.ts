import { formatTimestamp } from "@tessera/core";
import type { AuditDetail, AuditEvent } from "./audit-events.js";

/** An audit event as the JSON routes answer it. */
export interface AuditEventJson {
  readonly id: number;
  /** `YYYY-MM-DD HH:MM:SS` in UTC, as every timestamp of the API. */
  readonly at: string;
  readonly type: string;
  readonly user_id: number | null;
  readonly actor_id: number | null;
  readonly ip: string | null;
  readonly user_agent: string | null;
  readonly details: Readonly<Record<string, AuditDetail>>;
}

/** `event` in the JSON API's words. */
export function auditEventJson(event: AuditEvent): AuditEventJson {
  return {
    id: event.id,
    at: formatTimestamp(event.at),
    type: event.type,
    user_id: event.userId,
    actor_id: event.actorId,
    ip: event.ip,
    user_agent: event.userAgent,
    details: event.details,
  };
}
