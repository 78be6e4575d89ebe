import type { DeliveryState } from "./outbound-store.js";

/**
 * The {@link DeliveryState} of each endpoint that has a pending delivery (`pendingTo`, by
 * endpoint id) or attempts (endpoint id and count), once each: what both stores answer
 * `deliveryStates` with.
 */
export function deliveryStatesOf(
  pendingTo: Iterable<string | undefined>,
  attempts: Iterable<readonly [string, number]>,
): DeliveryState[] {
  const pending = new Set(pendingTo);
  const counted = new Map(attempts);
  const endpoints = new Set([...pending, ...counted.keys()]);
  endpoints.delete(undefined);
  return [...endpoints].map((endpointId) => ({
    endpointId: endpointId as string,
    pending: pending.has(endpointId),
    attempts: counted.get(endpointId as string) ?? 0,
  }));
}
