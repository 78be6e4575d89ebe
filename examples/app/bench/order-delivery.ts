import { signBody } from "@tessera/signer";
import { JSON_HEADERS } from "./bench-user.js";
import type { LoadTarget } from "./load.js";

/**
 * `POST /webhooks/orders` with a new signed `order.paid` event each time (unique event and order
 * ids): verify, claim, the effect's insert, the mark as processed.
 */
export function orderDeliveryTarget(name: string, secret: string): LoadTarget {
  let sequence = 0;
  return {
    name,
    path: "/webhooks/orders",
    method: "POST",
    headers: JSON_HEADERS,
    eachRequest: () => {
      sequence += 1;
      const body = JSON.stringify({
        id: `evt_${sequence}`,
        type: "order.paid",
        data: { order_id: `order_${sequence}`, amount: 19.99 },
      });
      return { body, headers: { "x-signature": signBody(body, secret) } };
    },
  };
}
