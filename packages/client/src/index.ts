export type { components as AccountComponents } from "./account-api.js";
export type { RegisteredPasskey } from "./passkey-calls.js";
export type { Fetch } from "./service-call.js";
export type { SecondFactorMethod, SecondFactorStep, SignInOutcome } from "./sign-in-outcome.js";
export {
  type AccountPaths,
  type AccountUser,
  createTesseraClient,
  type SignUpInput,
  type TesseraClient,
  type TesseraClientOptions,
} from "./tessera-client.js";
export { type ErrorEnvelope, isErrorEnvelope, TesseraError } from "./tessera-error.js";
export type { TokenAnswer } from "./token-answer.js";
export { memoryTokenHolder, type TokenHolder, type TokenPair } from "./token-holder.js";
export {
  type AuthenticationResponseJSON,
  browserWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCeremonies,
} from "./webauthn-ceremonies.js";
