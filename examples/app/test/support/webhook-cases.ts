// The cases of the routes other services call: the four webhooks, with valid signatures over
// hostile bodies and with hostile signatures, and the render job's routes and callback.
import fc, { type Arbitrary } from "fast-check";
import { idIn, pathOf } from "./case-builders.js";
import {
  jsonObjectText,
  jsonPayload,
  type Payload,
  queryOf,
  type ValuesByKey,
} from "./fuzz-bodies.js";
import { bearerHeaders, type Header } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, listQuery } from "./fuzzed-route.js";
import { hostileJson, hostileSegment, hostileText, jsonString } from "./hostile-input.js";
import { mostly } from "./weighted-choice.js";

/** Hostile text short enough for a query string. */
const shortHostileText = hostileText.filter((text) => text.length <= 200);

/** An event's `id` in its body: a fresh string, or a number. */
const eventId = fc.oneof(fc.uuid().map(jsonString), fc.nat().map(String));
/** A header value a sender gets wrong: empty, spaced, huge, Latin-1. */
const headerText = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    "",
    " ",
    "a b",
    "__proto__",
    "%00",
    "9999999999999999",
    "-1",
    "x".repeat(8000),
    "\u00ff\u00fe",
    "évt",
  ),
);
/** A delivery id in a header: fresh mostly, hostile sometimes. */
const deliveryId = mostly(fc.uuid(), headerText);
/** The `data` of an order event: its `order_id` and `amount`, right or wrong. */
const orderData = jsonObjectText({
  order_id: fc.oneof(fc.uuid().map(jsonString), fc.nat().map(String)),
  amount: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    fc.constantFrom('"12.00"', "null", "1e400", "-0", "true"),
  ),
});
/** An event body with an `id`, a `type` and `more`. */
const eventBody = (type: Arbitrary<string>, more: ValuesByKey = {}) =>
  jsonPayload({ id: eventId, type, ...more });

/** The endpoint `/webhooks/<name>`, now and then with a query it should not care about. */
function webhook(name: string, payload: Arbitrary<Payload>, signatures: Arbitrary<Header[]>) {
  const query = mostly(fc.constant(""), queryOf({ token: shortHostileText }));
  return fuzzed(`POST /webhooks/${name}`, "json", {
    path: pathOf(`/webhooks/${name}`, {}, query),
    headers: signatures,
    payload,
  });
}
/** Signature headers: mostly the valid one (`{sign-...}`), else each of the hostile ones. */
function signatures(valid: Header[][], hostile: Header[][]): Arbitrary<Header[]> {
  return fc.oneof(
    { weight: 3 * hostile.length, arbitrary: fc.constantFrom(...valid) },
    { weight: hostile.length, arbitrary: fc.constantFrom(...hostile, []) },
  );
}

/** `POST /webhooks/{orders,github,stripe,billing}`. */
export const webhookRoutes: FuzzedRoute[] = [
  webhook(
    "orders",
    eventBody(fc.constantFrom('"order.paid"', '"order.refunded"'), { data: orderData }),
    signatures(
      [[["x-signature", "{sign-orders}"]], [["x-signature", "sha256={sign-orders}"]]],
      [
        [["x-signature", ""]],
        [["x-signature", "sha256="]],
        [["x-signature", "0".repeat(64)]],
        [["x-signature", "{sign-orders}00"]],
        [["x-signature", "{sign-orders}, {sign-orders}"]],
        [["x-signature", "x".repeat(10_000)]],
        [
          ["x-signature", "junk"],
          ["x-signature", "{sign-orders}"],
        ],
      ],
    ),
  ),
  webhook(
    "github",
    jsonPayload({ action: hostileJson, repository: hostileJson }),
    fc
      .tuple(
        signatures(
          [[["x-hub-signature-256", "sha256={sign-github}"]]],
          [
            [["x-hub-signature-256", "{sign-github}"]],
            [["x-hub-signature-256", "sha1={sign-github}"]],
            [["x-hub-signature-256", "sha256="]],
            [["x-hub-signature-256", "sha256=zz"]],
          ],
        ),
        deliveryId,
        fc.constantFrom("issues", "push", "", "\u00ff"),
      )
      .map(([signature, delivery, event]): Header[] => [
        ...signature,
        ["x-github-delivery", delivery],
        ["x-github-event", event],
      ]),
  ),
  webhook(
    "stripe",
    eventBody(fc.constantFrom('"invoice.paid"', '"charge.failed"')),
    signatures(
      [
        [["stripe-signature", "t={now},v1={sign-stripe}"]],
        [["stripe-signature", "t={now},v1={sign-stripe},v1=00"]],
      ],
      [
        [["stripe-signature", "t={stale},v1={sign-stripe}"]],
        [["stripe-signature", "t={future},v1={sign-stripe}"]],
        [["stripe-signature", "v1={sign-stripe}"]],
        [["stripe-signature", "t=abc,v1={sign-stripe}"]],
        [["stripe-signature", "t=1e3,v1={sign-stripe}"]],
        [["stripe-signature", "t={now}"]],
        [["stripe-signature", "t=99999999999999999999,v1={sign-stripe}"]],
        [["stripe-signature", ",,,="]],
      ],
    ),
  ),
  webhook(
    "billing",
    jsonPayload({ type: fc.constantFrom('"invoice.paid"', '"x"') }),
    fc
      .tuple(
        deliveryId,
        fc.oneof(
          { weight: 6, arbitrary: fc.constant("{now}") },
          { weight: 1, arbitrary: fc.constantFrom("{stale}", "{future}", "abc", "-1", "1e3", "") },
        ),
        signatures(
          [
            [["webhook-signature", "v1,{sign-billing}"]],
            [["webhook-signature", "v1,AAAA v1,{sign-billing}"]],
          ],
          [
            [["webhook-signature", "v1,"]],
            [["webhook-signature", "v2,{sign-billing}"]],
            [["webhook-signature", "v1,!!!!"]],
            [["webhook-signature", "{sign-billing}"]],
          ],
        ),
      )
      .map(([id, timestamp, signature]): Header[] => [
        ["webhook-id", id],
        ["webhook-timestamp", timestamp],
        ...signature,
      ]),
  ),
];

/** The render job of the fixtures, or a hostile id. */
const jobId = idIn(["{job}"], hostileSegment);
/** `/api/render_jobs` and the service's callback `POST /webhooks/render/:id`. */
export const renderJobRoutes: FuzzedRoute[] = [
  fuzzed("POST /api/render_jobs", "json", {
    path: pathOf("/api/render_jobs"),
    headers: bearerHeaders,
    payload: jsonPayload({
      prompt: fc.string().map(jsonString),
      width: fc.constantFrom("640", "0", "-1", "1e400", '"640"', "9007199254740993"),
    }),
  }),
  fuzzed("GET /api/render_jobs", "json", {
    path: pathOf("/api/render_jobs", {}, listQuery),
    headers: bearerHeaders,
  }),
  fuzzed("GET /api/render_jobs/:id", "json", {
    path: pathOf("/api/render_jobs/:id", { id: jobId }),
    headers: bearerHeaders,
  }),
  fuzzed("POST /webhooks/render/:id", "json", {
    path: pathOf(
      "/webhooks/render/:id",
      { id: jobId },
      fc.oneof(
        { weight: 4, arbitrary: fc.constant("?token={job-token}") },
        { weight: 1, arbitrary: queryOf({ token: shortHostileText }) },
        { weight: 1, arbitrary: fc.constant("?token={job-token}&token=x") },
      ),
    ),
    // The token alone mostly; a valid signature, or a wrong one, now and then.
    headers: mostly(
      fc.constant<Header[]>([]),
      fc.constant<Header[]>([["x-signature", "{sign-render}"]]),
      fc.constant<Header[]>([["x-signature", "0".repeat(64)]]),
    ),
    payload: jsonPayload({
      status: fc
        .constantFrom(
          "running",
          "done",
          "failed",
          "IN_PROGRESS",
          "COMPLETED",
          "CANCELLED",
          "bogus",
          "",
        )
        .map(jsonString),
      progress: fc.constantFrom("0", "50", "100", "-1", "101", "1e400", '"50"', "50.5"),
      output: hostileJson,
      result: hostileJson,
      error: hostileText.map(jsonString),
    }),
  }),
];
