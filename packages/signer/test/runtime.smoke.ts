import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Signer = typeof import("@tessera/signer");

/** Lowercase hex HMAC-SHA256 by WebCrypto: the receiver's side, independent of the package. */
async function webCryptoHmacHex(secret: string, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export default {
  does: "sign bodies against X-Signature and Standard Webhooks vectors, POST one signed and verify it",
  imports: () => ["@tessera/signer"],
  async run({ load, check }) {
    const { postSignedJson, SIGNATURE_HEADER, signBody, signStandardWebhook } =
      await load<Signer>("@tessera/signer");
    // GitHub's documented example of a webhook signature.
    check(
      signBody("Hello, World!", "It's a Secret to Everybody") ===
        "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
      "X-Signature matches GitHub's vector",
    );
    // The Standard Webhooks reference libraries' sign test.
    const headers = signStandardWebhook({
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      body: '{"test": 2432232314}',
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      timestamp: 1614265330,
    });
    check(
      headers["webhook-signature"] === "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" &&
        headers["webhook-timestamp"] === "1614265330",
      "Standard Webhooks signature matches the reference vector",
    );

    const secret = "render-secret";
    let received:
      | { signature: string | null; expected: string; authorization: string | null; body: string }
      | undefined;
    const receiver = async (request: Request) => {
      const body = await request.text();
      received = {
        signature: request.headers.get(SIGNATURE_HEADER),
        expected: await webCryptoHmacHex(secret, body),
        authorization: request.headers.get("Authorization"),
        body,
      };
      return received.signature === received.expected
        ? Response.json({ id: "render-1" }, { status: 202 })
        : new Response("bad signature", { status: 401 });
    };
    const sent = await postSignedJson(
      "https://render.test/jobs",
      { id: 1, input: { text: "héllo" } },
      { secret, bearerToken: "tok", fetch: receiver },
    );
    check(
      sent.ok && sent.value.status === 202 && JSON.parse(sent.value.body).id === "render-1",
      "the receiver accepts the signed POST",
    );
    check(
      received?.body === '{"id":1,"input":{"text":"héllo"}}' &&
        received.authorization === "Bearer tok",
      "the exact JSON body and bearer token arrive",
    );
    check(received?.signature === received?.expected, "X-Signature verifies with WebCrypto");

    const wrong = await postSignedJson(
      "https://render.test/jobs",
      { id: 2 },
      { secret: "other-secret", fetch: receiver },
    );
    check(
      !wrong.ok &&
        wrong.reason === "non-2xx" &&
        wrong.status === 401 &&
        wrong.body === "bad signature",
      "a body signed with another secret is refused, reported as non-2xx",
    );
  },
} satisfies RuntimeSmoke;
