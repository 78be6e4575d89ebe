import { ACCOUNT_ROUTES } from "./account-routes.js";
import { callService, type ServiceAnswer } from "./service-call.js";
import type { ServiceContext } from "./service-context.js";
import { TesseraError } from "./tessera-error.js";
import { tokenPairOf } from "./token-answer.js";
import type { PublicKeyCredentialRequestOptionsJSON } from "./webauthn-ceremonies.js";

/** A second factor the service accepts to finish a sign-in. */
export type SecondFactorMethod = "totp" | "backup_code" | "passkey";

/**
 * The second step of a sign-in whose first was right: answer it with one of `methods` within
 * five minutes. Each answer keeps the tokens and resolves, or throws a {@link TesseraError}
 * (`invalid_credentials` for a wrong code; the step may be tried again).
 */
export interface SecondFactorStep {
  /** What the account has: `totp` and `backup_code` take {@link withCode}, `passkey` {@link withPasskey}. */
  readonly methods: readonly SecondFactorMethod[];
  /** Answers with a code from the authenticator app, or one of the backup codes. */
  withCode(code: string): Promise<void>;
  /** Answers with one of the account's passkeys (a WebAuthn ceremony). */
  withPasskey(): Promise<void>;
}

/** How a sign-in ended: signed in (the tokens are held), or a second factor is due. */
export type SignInOutcome =
  | { readonly signedIn: true }
  | { readonly signedIn: false; readonly secondFactor: SecondFactorStep };

/** The 403 body of a sign-in that needs its second factor. */
interface MfaRequired {
  readonly error: { readonly code: "mfa_required" };
  readonly mfa_token: string;
  readonly methods: readonly SecondFactorMethod[];
}

function isMfaRequired(answer: ServiceAnswer): answer is ServiceAnswer & { body: MfaRequired } {
  const body = answer.body as Partial<MfaRequired> | undefined;
  return (
    answer.status === 403 &&
    body?.error?.code === "mfa_required" &&
    typeof body.mfa_token === "string"
  );
}

/**
 * What the answer of a way in means: a 200 keeps its tokens; a 403 `mfa_required` is a
 * {@link SecondFactorStep}; anything else throws its {@link TesseraError}.
 */
export async function signInOutcome(
  context: ServiceContext,
  answer: ServiceAnswer,
): Promise<SignInOutcome> {
  if (answer.status === 200) {
    await context.tokens.set(tokenPairOf(answer.body));
    return { signedIn: true };
  }
  if (isMfaRequired(answer)) {
    return { signedIn: false, secondFactor: secondFactorStep(context, answer.body) };
  }
  throw new TesseraError(answer.status, answer.body);
}

function secondFactorStep(context: ServiceContext, required: MfaRequired): SecondFactorStep {
  const { mfa_token } = required;
  const refresh = context.refresh;
  const post = (path: string, body: unknown) =>
    callService(context.fetch, context.baseUrl, "POST", path, body);

  async function finish(answer: ServiceAnswer): Promise<void> {
    if (answer.status !== 200) throw new TesseraError(answer.status, answer.body);
    await context.tokens.set(tokenPairOf(answer.body));
  }

  return {
    methods: [...required.methods],
    async withCode(code) {
      await finish(await post(ACCOUNT_ROUTES.secondFactor, { mfa_token, code, refresh }));
    },
    async withPasskey() {
      const offered = await post(ACCOUNT_ROUTES.secondFactorPasskeyOptions, { mfa_token });
      if (offered.status !== 200) throw new TesseraError(offered.status, offered.body);
      const options = offered.body as PublicKeyCredentialRequestOptionsJSON;
      const passkey = await context.webAuthn.startAuthentication(options);
      await finish(await post(ACCOUNT_ROUTES.secondFactor, { mfa_token, passkey, refresh }));
    },
  };
}
