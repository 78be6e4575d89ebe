import { createHmac } from "node:crypto";
import { JSON_HEADERS } from "./bench-user.js";
import type { LoadTarget } from "./load.js";

/**
 * A Standard Webhooks delivery to `path`, new each time: a unique `webhook-id` (prefixed by
 * `name`'s target, so contenders sharing one database never send each other's ids), the current
 * timestamp, and the `v1` HMAC-SHA256 under `secret` (`whsec_<base64>`) of `{id}.{ts}.{body}`.
 */
export function standardDeliveryTarget(
  name: string,
  path: string,
  secret: string,
  extra: Partial<LoadTarget> = {},
): LoadTarget {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const prefix = createHmac("sha256", "prefix").update(name).digest("hex").slice(0, 8);
  let sequence = 0;
  return {
    name,
    path,
    method: "POST",
    headers: JSON_HEADERS,
    ...extra,
    eachRequest: () => {
      sequence += 1;
      const id = `msg_${prefix}_${sequence}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const body = JSON.stringify({ type: "invoice.paid", data: { invoice: id, amount: 1999 } });
      const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
      return {
        body,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": timestamp,
          "webhook-signature": `v1,${signature.toString("base64")}`,
        },
      };
    },
  };
}
