/** Where an event stands in the log (docs/webhooks-and-jobs.md, "Event states"). */
export type WebhookEventStatus = "processing" | "processed" | "failed";

/** One row of the event log. Times are epoch milliseconds. */
export interface WebhookEventRecord {
  readonly source: string;
  readonly eventId: string;
  /** The raw body as received. */
  readonly payload: string;
  readonly status: WebhookEventStatus;
  /** How many deliveries have run the effect, this one included. */
  readonly attempts: number;
  /** Message of the last failure; kept after a later success, as history. */
  readonly error: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A delivery asking to run an event's effect. */
export interface WebhookEventClaim {
  readonly source: string;
  readonly eventId: string;
  /** The raw body, recorded when the event is first seen. */
  readonly payload: string;
  /** The current time, epoch milliseconds. */
  readonly now: number;
  /**
   * A `processing` event last touched before this time (epoch milliseconds) is presumed
   * abandoned by a dead invocation and may be taken over.
   */
  readonly staleBefore: number;
}

/**
 * The answer to a claim. `claimed` means this delivery must run the effect; `attempts` is its
 * number and fences the later mark, so a presumed-dead invocation cannot overwrite the result
 * of the one that took over from it. Not claimed, the event was either `processed` already (a
 * duplicate) or is still `processing` under a claim that is not yet stale; `updatedAt` (epoch
 * milliseconds, as stored) is that claim's last touch, so the caller can say when to retry.
 */
export type WebhookClaimResult =
  | { readonly claimed: true; readonly attempts: number }
  | { readonly claimed: false; readonly status: "processed" }
  | { readonly claimed: false; readonly status: "processing"; readonly updatedAt: number };

/** Identifies the claim a mark applies to. */
export interface WebhookClaimReference {
  readonly source: string;
  readonly eventId: string;
  /** The `attempts` the claim returned. */
  readonly attempts: number;
  /** The current time, epoch milliseconds. */
  readonly now: number;
}

/**
 * The event log the processor needs; `@tessera/sqlite` implements it on SQLite, and any
 * database with an atomic upsert can implement it too.
 *
 * Atomicity: `claim` is ONE atomic step (in SQL, a single `INSERT ... ON CONFLICT DO UPDATE
 * ... WHERE ... RETURNING`): it records a new event as `processing` with attempts 1, or takes
 * over an event that is `failed` or has been `processing` since before `staleBefore` (status
 * `processing`, attempts + 1, updated now), or changes nothing and answers `claimed: false`
 * with the status that stopped it. Reading that status may be a second step; an event found
 * `failed` (or gone) by it changed in between and is answered `processing` with `updatedAt`
 * set to `staleBefore`, which tells the sender to come back at once.
 * However many deliveries of one event race, at most one of them is told `claimed` per state.
 * The marks change the event only while it is still this claim's (`processing` with the same
 * `attempts`); otherwise they do nothing.
 */
export interface WebhookEventStore {
  claim(claim: WebhookEventClaim): Promise<WebhookClaimResult>;
  /** Marks the claimed event `processed`. */
  markProcessed(claim: WebhookClaimReference): Promise<void>;
  /** Marks the claimed event `failed` and stores the failure's message. */
  markFailed(claim: WebhookClaimReference & { readonly error: string }): Promise<void>;
}
