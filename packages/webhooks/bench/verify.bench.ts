import { createHmac, timingSafeEqual } from "node:crypto";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { signBody, signStandardWebhook } from "@tessera/signer";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as SvixWebhook } from "svix";
import { compareContenders } from "../../../bench/compare.js";
import {
  githubSignatureVerifier,
  signatureHeaderVerifier,
  standardWebhookVerifier,
  timestampedSignatureVerifier,
  type VerificationResult,
} from "../src/index.js";

// Every contender verifies the same genuine ~1 KB delivery (Standard Webhooks also a 64 KB one),
// given as a string (the one body type every peer accepts), with the real clock, since the peers
// read Date.now().
const body = JSON.stringify({
  id: "evt_1NG8Du2eZvKYlo2CQ1j0Mq8W",
  type: "invoice.paid",
  created: 1_700_000_000,
  data: {
    object: {
      id: "in_1NG8Du2eZvKYlo2CZ2r9pQkH",
      customer: "cus_NffrFeUfNV2Hib",
      amount_paid: 129_900,
      currency: "eur",
      lines: Array.from({ length: 6 }, (_, index) => ({
        id: `il_${index}_1NG8Du2eZvKYlo2C`,
        description: `Seat ${index + 1} × Team plan (monthly)`,
        amount: 21_650,
      })),
    },
  },
});
const bodyBytes = new TextEncoder().encode(body);
const standardSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const textSecret = "whsec_test_secret_for_the_benchmark";

function mustPass(name: string, outcome: unknown): void {
  const passed =
    typeof outcome === "object" && outcome !== null && "ok" in outcome
      ? (outcome as VerificationResult).ok
      : outcome !== false && outcome !== undefined;
  if (!passed) throw new Error(`${name} refused the genuine delivery`);
}

// Standard Webhooks, on the ~1 KB delivery and on a 64 KB one (a large event: hashing the
// body then dominates, so what is left is how each contender gets the body's bytes).
const largeBody = JSON.stringify({
  id: "evt_large",
  type: "invoice.paid",
  data: { object: { lines: "x".repeat(64 * 1024 - 80) } },
});
const reference = new StandardWebhook(standardSecret);
const svix = new SvixWebhook(standardSecret);
const ours = standardWebhookVerifier({ secret: standardSecret });

/** The Standard Webhooks contenders, each verifying `delivery` signed for it. */
function standardContenders(delivery: string) {
  const headers = {
    ...signStandardWebhook({ id: "msg_2Kb9", body: delivery, secret: standardSecret }),
  };
  const deliveryBytes = new TextEncoder().encode(delivery);
  return [
    { name: "standardwebhooks Webhook.verify", run: () => reference.verify(delivery, headers) },
    { name: "svix Webhook.verify", run: () => svix.verify(delivery, headers) },
    {
      name: "@tessera/webhooks standardWebhookVerifier",
      run: () => ours({ headers, body: delivery }),
    },
    {
      name: "@tessera/webhooks standardWebhookVerifier (Uint8Array body)",
      run: () => ours({ headers, body: deliveryBytes }),
    },
  ] as const;
}

// GitHub
const githubHeader = `sha256=${signBody(body, textSecret)}`;
const githubHeaders = { "x-hub-signature-256": githubHeader };
const github = githubSignatureVerifier({ secret: textSecret });
const githubContenders = [
  {
    name: "@octokit/webhooks-methods verify",
    run: () => octokitVerify(textSecret, body, githubHeader),
  },
  {
    name: "@tessera/webhooks githubSignatureVerifier",
    run: () => github({ headers: githubHeaders, body }),
  },
  {
    name: "@tessera/webhooks githubSignatureVerifier (Uint8Array body)",
    run: () => github({ headers: githubHeaders, body: bodyBytes }),
  },
] as const;

// Stripe-style timestamped
const stripe = new Stripe("sk_test_unused");
const stripeHeader = stripe.webhooks.generateTestHeaderString({
  payload: body,
  secret: textSecret,
});
const stripeHeaders = { "stripe-signature": stripeHeader };
const timestamped = timestampedSignatureVerifier({ secret: textSecret, toleranceSeconds: 300 });
const stripeContenders = [
  {
    name: "stripe webhooks.signature.verifyHeader",
    run: () => stripe.webhooks.signature!.verifyHeader(body, stripeHeader, textSecret, 300),
  },
  {
    name: "@tessera/webhooks timestampedSignatureVerifier",
    run: () => timestamped({ headers: stripeHeaders, body }),
  },
  {
    name: "@tessera/webhooks timestampedSignatureVerifier (Uint8Array body)",
    run: () => timestamped({ headers: stripeHeaders, body: bodyBytes }),
  },
] as const;

// Default X-Signature: no peer library implements it, so the baseline is the usual hand-written
// node:crypto check (hex only, no header parsing).
const hex = signBody(body, textSecret);
const base64 = Buffer.from(hex, "hex").toString("base64");
const xSignature = signatureHeaderVerifier({ secret: textSecret });
const handWritten = () =>
  timingSafeEqual(createHmac("sha256", textSecret).update(body).digest(), Buffer.from(hex, "hex"));
const xSignatureContenders = [
  { name: "node:crypto createHmac + timingSafeEqual", run: handWritten },
  {
    name: "@tessera/webhooks signatureHeaderVerifier (hex)",
    run: () => xSignature({ headers: { "x-signature": hex }, body }),
  },
  {
    name: "@tessera/webhooks signatureHeaderVerifier (base64)",
    run: () => xSignature({ headers: { "x-signature": base64 }, body }),
  },
] as const;

const sections: string[] = [];
for (const [title, contenders, delivery] of [
  ["Standard Webhooks verification", standardContenders(body), body],
  ["Standard Webhooks verification, 64 KB body", standardContenders(largeBody), largeBody],
  ["GitHub X-Hub-Signature-256 verification", githubContenders, body],
  ["Stripe-style t=,v1= verification", stripeContenders, body],
  ["Default X-Signature verification", xSignatureContenders, body],
] as const) {
  for (const contender of contenders) mustPass(contender.name, await contender.run());
  console.error(`webhooks: ${title}`);
  const bytes = new TextEncoder().encode(delivery).length;
  const { markdown } = await compareContenders(title, contenders, {
    note: `One genuine ${bytes.toLocaleString("en-US")}-byte delivery per iteration; the first row is the baseline (a ratio under 1.00x is faster).`,
  });
  sections.push(markdown);
}

process.stdout.write(`## @tessera/webhooks\n\n${sections.join("\n")}`);
