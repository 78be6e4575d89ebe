// Header arbitraries of the fuzzing suite: credentials (bearer tokens, session cookies, forged
// ones), cross-site attempts, and content types.
import fc, { type Arbitrary } from "fast-check";
import { hostileContentType } from "./hostile-input.js";
import { mostly, seldomOtherwise } from "./weighted-choice.js";

/** One header line. */
export type Header = readonly [string, string];

/** Headers sent as given. */
const lines = (...headers: Header[]): Arbitrary<Header[]> => fc.constant(headers);

/** `Authorization` values a client gets wrong, or an attacker forges. */
const hostileAuthorization: Arbitrary<Header[]> = fc.oneof(
  lines(["authorization", "Bearer"]),
  lines(["authorization", "Bearer "]),
  lines(["authorization", "bearer {owner}"]),
  lines(["authorization", "Bearer  {owner}"]),
  lines(["authorization", "Bearer {owner} x"]),
  lines(["authorization", "Bearer {owner}."]),
  lines(["authorization", "Bearer {owner-key}="]),
  lines(["authorization", "Bearer a.b.c"]),
  // alg "none": accepted by nothing but a careless verifier.
  lines(["authorization", "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIn0."]),
  lines(["authorization", "Basic b3duZXI6cGFzcw=="]),
  lines(["authorization", `Bearer ${"A".repeat(8000)}`]),
  lines(["authorization", "Bearer \u00ff\u00fe"]),
  lines(["authorization", "Bearer {stranger}"], ["authorization", "Bearer {owner}"]),
);

/**
 * A bearer route's credentials: mostly the owner's token, sometimes a key (the owner's, or the
 * fixture organization's), another's, none.
 */
export const bearerHeaders: Arbitrary<Header[]> = mostly(
  lines(["authorization", "Bearer {owner}"]),
  lines(["authorization", "Bearer {owner-key}"]),
  lines(["authorization", "Bearer {org-key}"]),
  lines(["authorization", "Bearer {stranger}"]),
  lines(),
  hostileAuthorization,
);

/** A page's cookie: mostly the owner's signed-in session, sometimes another or none. */
export const sessionHeaders: Arbitrary<Header[]> = mostly(
  lines(["cookie", "_tessera_session={session}"]),
  lines(["cookie", "_tessera_session={spare-session}"]),
  lines(),
  lines(["cookie", "_tessera_session={session}; _tessera_session=forged"]),
);

/** The spare session only: for routes that end the session they are sent with. */
export const spareSessionHeaders: Arbitrary<Header[]> = mostly(
  lines(["cookie", "_tessera_session={spare-session}"]),
  lines(),
);

/** A cross-site attempt now and then: a foreign `Origin`, or a browser saying so. */
export const crossSiteHeaders: Arbitrary<Header[]> = seldomOtherwise(
  lines(),
  lines(["origin", "https://evil.example"]),
  lines(["origin", "null"]),
  lines(["sec-fetch-site", "cross-site"]),
  lines(["sec-fetch-site", "same-origin"], ["origin", "https://evil.example"]),
  lines(["x-forwarded-proto", "https"], ["x-forwarded-for", "not-an-address"]),
);

/** `Content-Type: usual` nine times in ten; else another, none, or it twice. */
export function contentTypeHeaders(usual: string): Arbitrary<Header[]> {
  return seldomOtherwise(
    lines(["content-type", usual]),
    hostileContentType.map((value): Header[] => [["content-type", value]]),
    lines(),
    lines(["content-type", usual], ["content-type", "text/plain"]),
  );
}
