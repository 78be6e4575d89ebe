import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

/**
 * The two WebAuthn ceremonies the passkey calls need: creating a credential from the service's
 * creation options, and signing its challenge with one. In a browser they are
 * `@simplewebauthn/browser`'s ({@link browserWebAuthn}); a native app or a test passes its own
 * (a software authenticator).
 */
export interface WebAuthnCeremonies {
  /** What `navigator.credentials.create()` answers for `options`. */
  startRegistration(
    options: PublicKeyCredentialCreationOptionsJSON,
  ): Promise<RegistrationResponseJSON>;
  /** What `navigator.credentials.get()` answers for `options`. */
  startAuthentication(
    options: PublicKeyCredentialRequestOptionsJSON,
  ): Promise<AuthenticationResponseJSON>;
}

/** The browser's own authenticators, through `@simplewebauthn/browser`. */
export const browserWebAuthn: WebAuthnCeremonies = {
  startRegistration: (optionsJSON) => startRegistration({ optionsJSON }),
  startAuthentication: (optionsJSON) => startAuthentication({ optionsJSON }),
};

export type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
};
