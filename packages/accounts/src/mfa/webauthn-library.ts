import { loadOnFirstUse } from "@tessera/core";

/**
 * `@simplewebauthn/server` and its helpers, imported on the first passkey operation: the
 * library and its certificate parsers (@peculiar/x509, asn1) cost an app about 0.6 s of
 * start-up and 25 MiB it keeps, for pages most requests never reach. A failed import is tried
 * again by the next operation.
 */
export const loadWebAuthn = loadOnFirstUse(async () => {
  const [server, helpers] = await Promise.all([
    import("@simplewebauthn/server"),
    import("@simplewebauthn/server/helpers"),
  ]);
  return { ...server, isoBase64URL: helpers.isoBase64URL };
});
