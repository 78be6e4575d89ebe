import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkGithubWebhook,
  checkHtmlSignIn,
  checkJsonAccounts,
  type SendRequest,
} from "../../../test/support/framework-checks.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-nextjs-"));
const GITHUB_SECRET = "nextjs-github-secret";
const STRIPE_SECRET = "whsec_nextjs_stripe_secret";

/** What Next.js does with the module: call the export named by the request's method. */
let send: SendRequest;

beforeAll(async () => {
  Object.assign(process.env, {
    DATABASE_PATH: join(folder, "app.db"),
    SECRET_KEY_BASE: "nextjs-example-secret-key-base-0123456789",
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
  });
  const handlers = (await import("../app/[...tessera]/route.js")) as unknown as Record<
    string,
    (request: Request) => Promise<Response>
  >;
  send = (request) => handlers[request.method]!(request);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A Stripe delivery of event `id`, signed as Stripe signs: `t=<time>,v1=<hmac of "t.body">`. */
function stripeDelivery(id: string, secret = STRIPE_SECRET, at = Date.now()) {
  const body = JSON.stringify({ id, type: "invoice.paid" });
  const timestamp = Math.floor(at / 1000);
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return new Request("http://app.test/webhooks/stripe", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": `t=${timestamp},v1=${signature}`,
    },
    body,
  });
}

describe("the Next.js catch-all route handler", () => {
  it("serves the JSON account API", () => checkJsonAccounts(send));
  it("signs in with the HTML forms and refuses login CSRF", () => checkHtmlSignIn(send));
  it("verifies GitHub webhooks and keeps the event log", () =>
    checkGithubWebhook(send, GITHUB_SECRET));

  it("verifies Stripe webhooks: signed once, replayed, forged, too old", async () => {
    const id = `evt_${randomUUID()}`;
    const first = await send(stripeDelivery(id));
    expect([first.status, (await first.json()).status]).toEqual([200, "processed"]);
    const replay = await send(stripeDelivery(id));
    expect((await replay.json()).status).toBe("duplicate");
    const forged = await send(stripeDelivery(`evt_${randomUUID()}`, "whsec_wrong"));
    expect(forged.status).toBe(401);
    const stale = await send(
      stripeDelivery(`evt_${randomUUID()}`, STRIPE_SECRET, Date.now() - 600_000),
    );
    expect(stale.status).toBe(401);
  });

  it("answers an unknown path with the JSON 404", async () => {
    const response = await send(new Request("http://app.test/nowhere"));
    expect(response.status).toBe(404);
  });
});
