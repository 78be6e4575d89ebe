/** What {@link OutboundStore.takeDeliverySlot} is asked (times in epoch milliseconds). */
export interface DeliverySlotRequest {
  /** The endpoint's rate limit: deliveries a second, at most. */
  readonly perSecond: number;
  readonly now: number;
  /** How far ahead of `now` a slot may be taken (the sender then waits for it). */
  readonly reachMs: number;
}

/**
 * A delivery's turn at a rate-limited endpoint: `taken`, to be sent at `sendAt` (now or within
 * the reach; it may have a fraction of a millisecond), or not, to be tried again at
 * `comeBackAt`, the delivery's place in the endpoint's line.
 */
export type DeliverySlot =
  | { readonly taken: true; readonly sendAt: number }
  | { readonly taken: false; readonly comeBackAt: number };

/**
 * One endpoint's pacing, in epoch microseconds (deliveries may be less than a millisecond
 * apart): when its next slot is free, and where its line of waiting deliveries ends.
 */
export interface EndpointPacing {
  readonly nextAt: number | null;
  readonly queuedUntil: number | null;
}

/** A request in the microseconds the pacing is kept in: now, the spacing, the reach. */
export function pacingUnits(request: DeliverySlotRequest) {
  return {
    now: Math.round(request.now * 1000),
    // Rounded up: deliveries never closer together than the limit allows.
    interval: Math.ceil(1_000_000 / request.perSecond),
    reach: Math.round(request.reachMs * 1000),
  };
}

/**
 * The rule both stores keep (the SQL store in two statements, each atomic): a slot is taken
 * when the next free one is within the reach, and the next one is then one interval after it,
 * so deliveries are sent at least `1 / perSecond` apart. Otherwise the delivery joins the line:
 * it comes back when the next free slot is about to be within reach, one interval after the
 * delivery before it in the line, so the deliveries waiting come back spread out rather than
 * all at once.
 */
export function takeSlot(
  pacing: EndpointPacing,
  request: DeliverySlotRequest,
): { pacing: EndpointPacing; slot: DeliverySlot } {
  const { now, interval, reach } = pacingUnits(request);
  if (pacing.nextAt === null || pacing.nextAt <= now + reach) {
    const sendAt = Math.max(pacing.nextAt ?? now, now);
    return {
      pacing: { ...pacing, nextAt: sendAt + interval },
      slot: { taken: true, sendAt: sendAt / 1000 },
    };
  }
  const comeBack = Math.max(pacing.queuedUntil ?? 0, pacing.nextAt - reach);
  return {
    pacing: { ...pacing, queuedUntil: comeBack + interval },
    slot: { taken: false, comeBackAt: Math.ceil(comeBack / 1000) },
  };
}
