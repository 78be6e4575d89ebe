import { ACCOUNT_ROUTES } from "./account-routes.js";
import { callService } from "./service-call.js";
import type { ServiceContext } from "./service-context.js";
import { type SignInOutcome, signInOutcome } from "./sign-in-outcome.js";
import { TesseraError } from "./tessera-error.js";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "./webauthn-ceremonies.js";

/** A passkey the service stored: `POST /api/auth/passkeys`' 201 body. */
export interface RegisteredPasskey {
  readonly id: number;
  readonly name: string;
  /** ISO 8601. */
  readonly created_at: string;
}

/**
 * Adds a passkey to the signed-in account: the creation options (`POST
 * /api/auth/passkeys/options`), the authenticator's new credential, then `POST
 * /api/auth/passkeys {name?, response}`. The service wants a token of a recent, full sign-in
 * (else 403 `reauthentication_required`).
 */
export async function registerPasskey(
  context: ServiceContext,
  name?: string,
): Promise<RegisteredPasskey> {
  const call = (path: string, body: unknown) =>
    callService(context.bearerFetch, context.baseUrl, "POST", path, body);
  const offered = await call(ACCOUNT_ROUTES.passkeyOptions, {});
  if (offered.status !== 200) throw new TesseraError(offered.status, offered.body);
  const options = offered.body as PublicKeyCredentialCreationOptionsJSON;
  const response = await context.webAuthn.startRegistration(options);
  const stored = await call(ACCOUNT_ROUTES.passkeys, {
    ...(name === undefined ? {} : { name }),
    response,
  });
  if (stored.status !== 201) throw new TesseraError(stored.status, stored.body);
  return stored.body as RegisteredPasskey;
}

/**
 * Signs in with a passkey, no email asked: the request options and their handle (`POST
 * /api/auth/passkeys/login/options`), the authenticator's assertion, then `POST
 * /api/auth/passkeys/login`. A passkey that did not verify its user may leave a second factor due.
 */
export async function signInWithPasskey(context: ServiceContext): Promise<SignInOutcome> {
  const call = (path: string, body: unknown) =>
    callService(context.fetch, context.baseUrl, "POST", path, body);
  const offered = await call(ACCOUNT_ROUTES.passkeyLoginOptions, {});
  if (offered.status !== 200) throw new TesseraError(offered.status, offered.body);
  const { options, challenge_id } = offered.body as {
    options: PublicKeyCredentialRequestOptionsJSON;
    challenge_id: string;
  };
  const response = await context.webAuthn.startAuthentication(options);
  const answer = await call(ACCOUNT_ROUTES.passkeyLogin, {
    challenge_id,
    response,
    refresh: context.refresh,
  });
  return signInOutcome(context, answer);
}
