import { type Clock, systemClock } from "@tessera/core";
import type { KeyRing, SecretKeyBase } from "@tessera/crypto";
import type { Passkeys } from "../passkey/passkeys.js";
import { backupCodeKeys } from "./backup-codes.js";
import type { SecondFactorStore } from "./second-factor-store.js";
import { totpSealingKeys } from "./totp-key-sealing.js";

/** What the second-factor steps work with: the store, the keys, the clock. */
export interface SecondFactors {
  readonly store: SecondFactorStore;
  readonly totpKeys: KeyRing;
  readonly backupCodeKeys: KeyRing;
  readonly clock: Clock;
  /** The issuer an authenticator app shows next to the codes (the app's name). */
  readonly issuer: string;
  /** Passkeys, when on: then a passkey answers a challenge too. */
  readonly passkeys?: Passkeys | undefined;
}

/** {@link SecondFactors} from a store and the app's secret key base. */
export function secondFactors(
  store: SecondFactorStore,
  secretKeyBase: SecretKeyBase,
  options: {
    readonly issuer: string;
    readonly clock?: Clock | undefined;
    readonly passkeys?: Passkeys | undefined;
  },
): SecondFactors {
  return {
    store,
    totpKeys: totpSealingKeys(secretKeyBase),
    backupCodeKeys: backupCodeKeys(secretKeyBase),
    clock: options.clock ?? systemClock,
    issuer: options.issuer,
    passkeys: options.passkeys,
  };
}
