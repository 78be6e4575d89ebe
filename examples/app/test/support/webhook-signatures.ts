import { createHmac } from "node:crypto";
import type { SignatureInput } from "./fuzz-case.js";

/** The secrets the fuzzed app's webhook endpoints and render job are configured with. */
export const WEBHOOK_SECRETS = {
  orders: "orders-fuzz-secret",
  github: "github-fuzz-secret",
  stripe: "whsec_stripe_fuzz_secret",
  billing: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  render: "render-fuzz-secret",
};

function hmac(key: string | Buffer, ...parts: (string | Uint8Array)[]): Buffer {
  const mac = createHmac("sha256", key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function headerValue(input: SignatureInput, name: string): string {
  return input.headers.find(([key]) => key === name)?.[1] ?? "";
}

/**
 * Fills a `{sign-...}` placeholder: the valid signature of one webhook scheme over the body as
 * sent, from the other headers as sent (Stripe's `t=`, Standard Webhooks' id and timestamp),
 * whatever hostile values those hold.
 */
export function signWebhook(name: string, input: SignatureInput): string {
  const { body } = input;
  switch (name) {
    case "sign-orders":
      return hmac(WEBHOOK_SECRETS.orders, body).toString("hex");
    case "sign-github":
      return hmac(WEBHOOK_SECRETS.github, body).toString("hex");
    case "sign-render":
      return hmac(WEBHOOK_SECRETS.render, body).toString("hex");
    case "sign-stripe": {
      const timestamp = /(?:^|,)t=([^,]*)/.exec(headerValue(input, "stripe-signature"))?.[1];
      return hmac(WEBHOOK_SECRETS.stripe, `${timestamp ?? ""}.`, body).toString("hex");
    }
    case "sign-billing": {
      const key = Buffer.from(WEBHOOK_SECRETS.billing.slice("whsec_".length), "base64");
      const id = headerValue(input, "webhook-id");
      const timestamp = headerValue(input, "webhook-timestamp");
      return hmac(key, `${id}.${timestamp}.`, body).toString("base64");
    }
    default:
      throw new Error(`no signer for {${name}}`);
  }
}
