import { unstorableText } from "@tessera/core";
import type { ClaimOptions, ListOptions } from "./outbox.js";

/** The longest queue name or idempotency key an outbox stores. */
export const MAX_NAME_LENGTH = 200;

/** The longest error text an item keeps: enough for a provider's message, never a whole page. */
export const MAX_ERROR_LENGTH = 2000;

/**
 * `text` as a queue name or key, checked the same on every engine (PostgreSQL refuses a NUL
 * that SQLite would keep).
 * @throws {RangeError} for empty, over-long or unstorable text.
 */
export function checkedName(
  what: "queue" | "key" | "owner" | "fairness key",
  text: string,
): string {
  if (typeof text !== "string" || text.length === 0 || text.length > MAX_NAME_LENGTH) {
    throw new RangeError(`the outbox ${what} must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  const unstorable = unstorableText(text);
  if (unstorable) throw new RangeError(`the outbox ${what} has a ${unstorable}`);
  return text;
}

/** The key given, checked, or a new random one. */
export function itemKey(key: string | undefined): string {
  return key === undefined ? crypto.randomUUID() : checkedName("key", key);
}

/**
 * `payload` as JSON text. `JSON.stringify` escapes NUL and lone surrogates, so the text is
 * storable on every engine.
 * @throws {RangeError} when the payload has no JSON form (undefined, a function, a cycle).
 */
export function payloadJson(payload: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch (error) {
    throw new RangeError(`the outbox payload is not JSON: ${(error as Error).message}`);
  }
  if (json === undefined) throw new RangeError("the outbox payload is not JSON");
  return json;
}

// Half of a surrogate pair standing alone (with `u`, a whole pair is not matched).
const LONE_SURROGATE = /\p{Surrogate}/gu;

/** An error message as an item keeps it: cut to {@link MAX_ERROR_LENGTH}, NULs replaced. */
export function storableError(error: string): string {
  const text = String(error).slice(0, MAX_ERROR_LENGTH);
  return unstorableText(text)
    ? text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD")
    : text;
}

/** @throws {RangeError} for a limit or lease that is not a positive integer, or no owner. */
export function checkClaimOptions(options: ClaimOptions): void {
  if (!Number.isInteger(options.limit) || options.limit < 1) {
    throw new RangeError("the claim limit must be a positive integer");
  }
  if (!Number.isInteger(options.leaseMs) || options.leaseMs < 1) {
    throw new RangeError("the lease must be a positive whole number of milliseconds");
  }
  checkedName("owner", options.owner);
  const excluded: unknown = options.excludeFairnessKeys;
  if (excluded !== undefined && !(Array.isArray(excluded) && excluded.every(isText))) {
    throw new RangeError("the fairness keys a claim leaves must be a list of texts");
  }
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

/** The fairness key given, checked, or null when there is none. */
export function fairnessKeyOf(key: string | undefined): string | null {
  return key === undefined ? null : checkedName("fairness key", key);
}

/** @throws {RangeError} unless `time` is a whole number of epoch milliseconds. */
export function checkedTime(time: number): number {
  if (!Number.isSafeInteger(time)) {
    throw new RangeError("an outbox time must be a whole number of epoch milliseconds");
  }
  return time;
}

/** @throws {RangeError} for a list limit that is not a positive integer. */
export function checkListOptions(options: ListOptions): void {
  if (!Number.isInteger(options?.limit) || options.limit < 1) {
    throw new RangeError("the list limit must be a positive integer");
  }
}
