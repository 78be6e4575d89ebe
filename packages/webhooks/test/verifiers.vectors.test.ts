import { describe, expect, it } from "vitest";
import {
  githubSignatureVerifier,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
  type VerificationResult,
} from "../src/index.js";
import github from "./vectors/github.json" with { type: "json" };
import standard from "./vectors/standard-webhooks.json" with { type: "json" };
import stripe from "./vectors/stripe.json" with { type: "json" };
import xSignature from "./vectors/x-signature.json" with { type: "json" };

/** "ok" for a success, else the failure reason: what every vector's `expected` names. */
function outcome(result: VerificationResult): string {
  return result.ok ? "ok" : result.reason;
}

const atSeconds = (seconds: number) => () => seconds * 1000;

describe("Standard Webhooks vectors", () => {
  it.each(standard.verify)("$name → $expected", (vector) => {
    const verify = standardWebhookVerifier({
      secret: "secret" in vector ? vector.secret : standard.secret,
      clock: atSeconds(vector.nowSeconds),
    });
    const result = verify({ headers: vector.headers, body: standard.payload });
    expect(outcome(result)).toBe(vector.expected);
    if (result.ok) {
      expect(result.value).toEqual({
        eventId: standard.sign.id,
        timestamp: standard.sign.timestamp,
      });
    }
  });

  it("accepts the valid signature among wrong and v2 ones in every order", () => {
    const verify = standardWebhookVerifier({
      secret: standard.secret,
      clock: atSeconds(standard.sign.timestamp),
    });
    const others = [
      "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
      "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
      "v1,dawfeoifkpqwoekfpqoekf",
    ];
    for (const order of permutations([standard.sign.signature, ...others])) {
      const headers = {
        "webhook-id": standard.sign.id,
        "webhook-timestamp": String(standard.sign.timestamp),
        "webhook-signature": order.join(" "),
      };
      expect(outcome(verify({ headers, body: standard.payload })), order.join(" ")).toBe("ok");
      const withoutValid = order.filter((entry) => entry !== standard.sign.signature);
      const refused = verify({
        headers: { ...headers, "webhook-signature": withoutValid.join(" ") },
        body: standard.payload,
      });
      expect(outcome(refused)).toBe("signature-mismatch");
    }
  });

  it.each(standard.invalidSecrets)("refuses the secret %j when created", (secret) => {
    expect(() => standardWebhookVerifier({ secret })).toThrow(RangeError);
  });

  it("refuses a negative tolerance when created", () => {
    expect(() =>
      standardWebhookVerifier({ secret: standard.secret, toleranceSeconds: -1 }),
    ).toThrow(RangeError);
  });
});

describe("GitHub (X-Hub-Signature-256) vectors", () => {
  it.each(github.cases)("$name → $expected", (vector) => {
    const verify = githubSignatureVerifier({ secret: vector.secret });
    const headers = vector.header === null ? {} : { "x-hub-signature-256": vector.header };
    expect(outcome(verify({ headers, body: vector.payload }))).toBe(vector.expected);
  });

  it.each(["", " It's a Secret to Everybody", "It's a Secret to Everybody\n"])(
    "refuses the secret %j when created",
    (secret) => {
      expect(() => githubSignatureVerifier({ secret })).toThrow(RangeError);
    },
  );
});

describe("timestamped (Stripe) vectors", () => {
  it.each(stripe.cases)("$name → $expected", (vector) => {
    const verify = timestampedSignatureVerifier({
      secret: stripe.secret,
      toleranceSeconds: Number(vector.toleranceSeconds),
      clock: atSeconds(vector.nowSeconds),
    });
    const headers = vector.header === null ? {} : { "stripe-signature": vector.header };
    const result = verify({ headers, body: stripe.payload });
    expect(outcome(result)).toBe(vector.expected);
    if (result.ok) expect(result.value.timestamp).toBe(Number(/t=(\d+)/.exec(vector.header!)![1]));
  });

  it.each(stripe.invalidSecrets)("refuses the secret %j when created", (secret) => {
    expect(() => timestampedSignatureVerifier({ secret })).toThrow(RangeError);
  });

  it("defaults to a 300 s tolerance", () => {
    const valid = stripe.cases[0]!;
    const at = (seconds: number) =>
      timestampedSignatureVerifier({ secret: stripe.secret, clock: atSeconds(seconds) })({
        headers: { "stripe-signature": valid.header! },
        body: stripe.payload,
      });
    expect(outcome(at(valid.nowSeconds + 300))).toBe("ok");
    expect(outcome(at(valid.nowSeconds + 301))).toBe("timestamp-out-of-tolerance");
  });
});

describe("default scheme (X-Signature) vectors", () => {
  const verify = signatureHeaderVerifier({ secret: xSignature.secret });

  it.each(xSignature.cases)("$name → $expected", (vector) => {
    const headers = vector.header === null ? {} : { "x-signature": vector.header };
    expect(outcome(verify({ headers, body: vector.payload }))).toBe(vector.expected);
  });

  it("reads another header when told to", () => {
    const custom = signatureHeaderVerifier({
      secret: xSignature.secret,
      header: "X-Orders-Signature",
    });
    const header = xSignature.cases[0]!.header!;
    expect(
      outcome(custom({ headers: { "x-orders-signature": header }, body: "Hello, World!" })),
    ).toBe("ok");
    expect(outcome(custom({ headers: { "x-signature": header }, body: "Hello, World!" }))).toBe(
      "missing-header",
    );
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  );
}
