import type {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { isoBase64URL } from "@simplewebauthn/server/helpers";
import { loadOnFirstUse } from "@tessera/core";

/** The parts of `@simplewebauthn/server` that passkeys use. */
export interface WebAuthnLibrary {
  readonly generateRegistrationOptions: typeof generateRegistrationOptions;
  readonly verifyRegistrationResponse: typeof verifyRegistrationResponse;
  readonly generateAuthenticationOptions: typeof generateAuthenticationOptions;
  readonly verifyAuthenticationResponse: typeof verifyAuthenticationResponse;
  readonly isoBase64URL: typeof isoBase64URL;
}

/**
 * `@simplewebauthn/server` and its helpers, imported on the first passkey operation: the
 * library and its certificate parsers (@peculiar/x509, asn1) cost an app about 0.6 s of
 * start-up and 25 MiB it keeps, for pages most requests never reach. A failed import is tried
 * again by the next operation.
 */
export const loadWebAuthn: () => Promise<WebAuthnLibrary> = loadOnFirstUse(async () => {
  const [server, helpers] = await Promise.all([
    import("@simplewebauthn/server"),
    import("@simplewebauthn/server/helpers"),
  ]);
  return {
    generateRegistrationOptions: server.generateRegistrationOptions,
    verifyRegistrationResponse: server.verifyRegistrationResponse,
    generateAuthenticationOptions: server.generateAuthenticationOptions,
    verifyAuthenticationResponse: server.verifyAuthenticationResponse,
    isoBase64URL: helpers.isoBase64URL,
  };
});
