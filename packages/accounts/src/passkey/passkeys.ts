import { type Clock, systemClock } from "@tessera/core";
import type { PasskeyStore } from "./passkey-store.js";
import type { WebAuthnRelyingParty } from "./webauthn-relying-party.js";

/** How long a WebAuthn challenge waits for its answer. */
export const PASSKEY_CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** The longest passkey name kept (a person's label such as "Work laptop"). */
export const MAXIMUM_PASSKEY_NAME_LENGTH = 100;

/** What the passkey steps work with: the store, the relying party, the clock. */
export interface Passkeys {
  readonly store: PasskeyStore;
  readonly relyingParty: WebAuthnRelyingParty;
  readonly clock: Clock;
}

/** {@link Passkeys} from a store and the relying party (see `relyingPartyOf`). */
export function passkeys(
  store: PasskeyStore,
  relyingParty: WebAuthnRelyingParty,
  clock: Clock = systemClock,
): Passkeys {
  return { store, relyingParty, clock };
}
