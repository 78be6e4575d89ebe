import type { isoBase64URL as IsoBase64URL } from "@simplewebauthn/server/helpers";

// A browser's clientDataJSON is a few hundred bytes; anything near this is not one.
const MAXIMUM_CLIENT_DATA_LENGTH = 4096;
const MAXIMUM_CREDENTIAL_ID_LENGTH = 1024;

/**
 * The parts of a WebAuthn response (registration or assertion, as JSON from the client) that
 * must be read before verifying it: the credential id, and the challenge its clientDataJSON
 * answers (to find the stored one). Undefined for anything not shaped like a response.
 * `isoBase64URL` is the library's, which the caller has loaded (see `loadWebAuthn`).
 */
export function readWebAuthnResponse(
  value: unknown,
  isoBase64URL: typeof IsoBase64URL,
): { readonly credentialId: string; readonly challenge: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, response } = value as { id?: unknown; response?: unknown };
  if (typeof id !== "string" || id.length === 0 || id.length > MAXIMUM_CREDENTIAL_ID_LENGTH) {
    return undefined;
  }
  if (typeof response !== "object" || response === null) return undefined;
  const { clientDataJSON } = response as { clientDataJSON?: unknown };
  if (typeof clientDataJSON !== "string" || clientDataJSON.length > MAXIMUM_CLIENT_DATA_LENGTH) {
    return undefined;
  }
  try {
    const clientData: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" && challenge.length > 0
      ? { credentialId: id, challenge }
      : undefined;
  } catch {
    return undefined;
  }
}
