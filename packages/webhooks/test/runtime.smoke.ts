import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Webhooks = typeof import("@tessera/webhooks");

// The Standard Webhooks reference libraries' sign test.
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SIGNED_AT = 1614265330;
const VECTOR = {
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/** A Standard Webhooks signature made with WebCrypto, as another sender would. */
async function webCryptoSignature(id: string, body: string): Promise<string> {
  const secret = Uint8Array.from(atob(SECRET.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${SIGNED_AT}.${body}`)),
  );
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

export default {
  does: "verify Standard Webhooks deliveries, process each event once, refuse forged and oversized ones",
  imports: () => ["@tessera/webhooks"],
  async run({ load, check }) {
    const { createWebhookProcessor, MemoryWebhookEventStore, standardWebhookVerifier } =
      await load<Webhooks>("@tessera/webhooks");
    const clock = () => SIGNED_AT * 1000 + 10_000;
    const store = new MemoryWebhookEventStore();
    const effects: { id: string; payload: unknown; attempts: number }[] = [];
    const processor = createWebhookProcessor({
      source: "billing",
      verify: standardWebhookVerifier({ secret: SECRET, clock }),
      store,
      effect: (event) => {
        effects.push({ id: event.id, payload: event.payload, attempts: event.attempts });
      },
      maxBodyBytes: 256,
      clock,
    });
    const deliver = (id: string, body: string, signature: string) =>
      processor.handle(
        new Request("https://app.test/webhooks/billing", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "webhook-id": id,
            "webhook-timestamp": String(SIGNED_AT),
            "webhook-signature": signature,
          },
          body,
        }),
      );
    const answer = async (response: Response) => `${response.status} ${await response.text()}`;

    const first = await answer(await deliver(VECTOR.id, VECTOR.body, VECTOR.signature));
    check(first === '200 {"status":"processed"}', "a genuine delivery is processed");
    check(
      effects.length === 1 &&
        effects[0]?.id === VECTOR.id &&
        (effects[0]?.payload as { test?: number } | undefined)?.test === 2432232314 &&
        effects[0]?.attempts === 1,
      "the effect ran once with the parsed payload",
    );
    const replay = await answer(await deliver(VECTOR.id, VECTOR.body, VECTOR.signature));
    check(
      replay === '200 {"status":"duplicate"}' && effects.length === 1,
      "a replayed delivery is not processed twice",
    );
    check(store.get("billing", VECTOR.id)?.status === "processed", "the event log says processed");

    const forged = await answer(await deliver(VECTOR.id, '{"test": 1}', VECTOR.signature));
    check(
      forged === '401 {"error":{"code":"invalid_signature","message":"Unauthorized","status":401}}',
      "a changed body is refused with 401",
    );

    const body = JSON.stringify({ id: "evt_2", amount: 1200 });
    const second = await answer(
      await deliver("msg_2", body, await webCryptoSignature("msg_2", body)),
    );
    check(
      second === '200 {"status":"processed"}' && effects[1]?.id === "msg_2",
      "a WebCrypto-signed event is processed",
    );

    const large = JSON.stringify({ id: "evt_3", note: "x".repeat(300) });
    const oversized = await answer(
      await deliver("msg_3", large, await webCryptoSignature("msg_3", large)),
    );
    check(
      oversized ===
        '413 {"error":{"code":"payload_too_large","message":"Request body is too large (maximum is 256 bytes)","status":413}}',
      "an oversized body is refused with 413",
    );
    check(effects.length === 2, "refused deliveries ran no effect");
  },
} satisfies RuntimeSmoke;
