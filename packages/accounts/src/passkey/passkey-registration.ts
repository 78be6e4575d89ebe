import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { fail, ok, type Result } from "@tessera/core";
import { constantTimeEqualText, sha256Hex } from "@tessera/crypto";
import type { User } from "../users/user.js";
import type { Passkey } from "./passkey-store.js";
import { PASSKEY_CHALLENGE_LIFETIME_MS, type Passkeys } from "./passkeys.js";
import { loadWebAuthn } from "./webauthn-library.js";
import { readWebAuthnResponse } from "./webauthn-response.js";

/**
 * The options a browser passes to `navigator.credentials.create()` for a new passkey of `user`
 * (resident key and user verification preferred, the user's passkeys excluded); the challenge
 * is stored as its digest, for this user, for {@link PASSKEY_CHALLENGE_LIFETIME_MS}.
 */
export async function passkeyRegistrationOptions(
  passkeys: Passkeys,
  user: User,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await loadWebAuthn();
  const existing = await passkeys.store.listPasskeys(user.id);
  const options = await generateRegistrationOptions({
    rpName: passkeys.relyingParty.rpName,
    rpID: passkeys.relyingParty.rpId,
    userName: user.email,
    // A stable handle: an authenticator keeps one passkey per site and handle, so adding one
    // again on the same device replaces it there instead of piling up.
    userID: new TextEncoder().encode(`tessera-user-${user.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: [...passkey.transports],
    })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    timeout: PASSKEY_CHALLENGE_LIFETIME_MS,
  });
  const now = passkeys.clock();
  await passkeys.store.createChallenge(
    sha256Hex(options.challenge),
    { purpose: "registration", userId: user.id },
    now + PASSKEY_CHALLENGE_LIFETIME_MS,
    now,
  );
  return options;
}

/**
 * Why a registration was refused: `invalid` for a response that is not for one of the user's
 * live challenges (used, expired, another's, never issued) or does not verify; `taken` for a
 * credential already registered (to this user or another).
 */
export type PasskeyRegistrationRefusal = "invalid" | "taken";

/**
 * Verifies a `navigator.credentials.create()` answer against the user's stored challenge (used
 * up here, whatever the outcome) and the relying party, then stores the passkey as `name`.
 */
export async function registerPasskey(
  passkeys: Passkeys,
  userId: number,
  response: unknown,
  name: string,
): Promise<Result<Passkey, PasskeyRegistrationRefusal>> {
  const { verifyRegistrationResponse, isoBase64URL } = await loadWebAuthn();
  const read = readWebAuthnResponse(response, isoBase64URL);
  if (!read) return fail("invalid");
  const now = passkeys.clock();
  const digest = sha256Hex(read.challenge);
  const expiresAt = await passkeys.store.consumeChallenge(digest, {
    purpose: "registration",
    userId,
  });
  if (expiresAt === undefined || expiresAt <= now) return fail("invalid");
  const { relyingParty } = passkeys;
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: (challenge) => constantTimeEqualText(sha256Hex(challenge), digest),
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.rpId,
      requireUserVerification: false,
    });
  } catch {
    // The library throws for every malformed or mismatched response: all are a refusal here.
    return fail("invalid");
  }
  if (!verified.verified) return fail("invalid");
  const { credential } = verified.registrationInfo;
  const stored = await passkeys.store.createPasskey({
    userId,
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
    createdAt: now,
  });
  return stored ? ok(stored) : fail("taken");
}
