// The one documented 500 of the app: /webhooks/orders, when its effect refuses an order.paid
// event (docs/routes.md, "Webhook routes"). The fuzzing suite checks such a 500 is exactly that.
import { unstorableText } from "@tessera/core";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The message the /webhooks/orders effect fails with for this body: an `order.paid` event
 * without a string or number `data.order_id`, with one that is text no database stores (a NUL,
 * a lone surrogate), or without a finite number `data.amount`, checked in the effect's order.
 * Undefined when the effect would succeed, or the body never gets that far (not JSON).
 */
export function ordersEffectFailure(body: Uint8Array): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
  const field = (value: unknown, name: string) => (isObject(value) ? value[name] : undefined);
  if (field(payload, "type") !== "order.paid") return undefined;
  const data = field(payload, "data");
  const orderId = field(data, "order_id");
  const amount = field(data, "amount");
  if (typeof orderId !== "string" && typeof orderId !== "number") {
    return "order.paid event has no data.order_id";
  }
  const unstorable = typeof orderId === "string" && unstorableText(orderId);
  if (unstorable) return `order.paid event data.order_id is unusable text: ${unstorable}`;
  if (typeof amount !== "number" || !Number.isFinite(amount)) {
    return "order.paid event data.amount is not a number";
  }
  return undefined;
}

/** The event id /webhooks/orders reads from a body it accepted: `id`, a number as its text. */
export function ordersEventId(body: Uint8Array): string {
  return String((JSON.parse(new TextDecoder().decode(body)) as { id: unknown }).id);
}
