import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  VerifiedAuthenticationResponse,
} from "@simplewebauthn/server";
import { fail, ok, type Result } from "@tessera/core";
import { constantTimeEqualText, sha256Hex } from "@tessera/crypto";
import type { Passkey, PasskeyChallengeScope } from "./passkey-store.js";
import { PASSKEY_CHALLENGE_LIFETIME_MS, type Passkeys } from "./passkeys.js";
import { loadWebAuthn } from "./webauthn-library.js";
import { readWebAuthnResponse } from "./webauthn-response.js";

/**
 * The options a browser passes to `navigator.credentials.get()`, their challenge stored as its
 * digest for `scope`. With `allowed` (a second factor: the user's passkeys) the browser offers
 * those; without (sign-in by passkey alone) any passkey the authenticator keeps for the site.
 */
export async function passkeyAuthenticationOptions(
  passkeys: Passkeys,
  scope: PasskeyChallengeScope,
  allowed: readonly Passkey[] = [],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: passkeys.relyingParty.rpId,
    userVerification: "preferred",
    timeout: PASSKEY_CHALLENGE_LIFETIME_MS,
    allowCredentials: allowed.map((passkey) => ({
      id: passkey.credentialId,
      transports: [...passkey.transports],
    })),
  });
  const now = passkeys.clock();
  await passkeys.store.createChallenge(
    sha256Hex(options.challenge),
    scope,
    now + PASSKEY_CHALLENGE_LIFETIME_MS,
    now,
  );
  return options;
}

/** A verified assertion: whose passkey signed, and whether the authenticator verified them. */
export interface PasskeyAssertion {
  readonly userId: number;
  readonly userVerified: boolean;
}

/**
 * Verifies a `navigator.credentials.get()` answer: its challenge must be a live one of `scope`
 * (used up here, whatever the outcome; with `challengeId`, that one), its passkey registered
 * (to the scope's user, when it has one), its signature right and its counter moved forward.
 * Every failure is the same refusal, so a caller cannot tell an attacker which check failed.
 */
export async function verifyPasskeyAssertion(
  passkeys: Passkeys,
  response: unknown,
  scope: PasskeyChallengeScope,
  challengeId?: string,
): Promise<Result<PasskeyAssertion, "refused">> {
  const { verifyAuthenticationResponse, isoBase64URL } = await loadWebAuthn();
  const read = readWebAuthnResponse(response, isoBase64URL);
  if (!read) return fail("refused");
  const digest = sha256Hex(read.challenge);
  if (challengeId !== undefined && !constantTimeEqualText(sha256Hex(challengeId), digest)) {
    return fail("refused");
  }
  const now = passkeys.clock();
  const expiresAt = await passkeys.store.consumeChallenge(digest, scope);
  if (expiresAt === undefined || expiresAt <= now) return fail("refused");
  const passkey = await passkeys.store.findPasskey(read.credentialId);
  if (!passkey || (scope.purpose !== "sign_in" && passkey.userId !== scope.userId)) {
    return fail("refused");
  }
  const { relyingParty } = passkeys;
  let verified: VerifiedAuthenticationResponse;
  try {
    verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => constantTimeEqualText(sha256Hex(challenge), digest),
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: [...passkey.transports],
      },
      requireUserVerification: false,
    });
  } catch {
    // The library throws for a bad signature, origin, rpId or counter: all are a refusal here.
    return fail("refused");
  }
  if (!verified.verified) return fail("refused");
  const { newCounter, userVerified } = verified.authenticationInfo;
  // The library compared the counter with the one read above; the store's conditional update
  // settles a race between two assertions that both passed that check.
  if (!(await passkeys.store.usePasskey(passkey.credentialId, newCounter, now))) {
    return fail("refused");
  }
  return ok({ userId: passkey.userId, userVerified });
}
