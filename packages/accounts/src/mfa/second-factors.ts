import { type Clock, systemClock } from "@tessera/core";
import type { KeyRing, SecretKeyBase } from "@tessera/crypto";
import type { SecondFactorStore } from "../second-factor-store.js";
import { backupCodeKeys } from "./backup-codes.js";
import { totpSealingKeys } from "./totp-key-sealing.js";

/** What the second-factor steps work with: the store, the keys, the clock. */
export interface SecondFactors {
  readonly store: SecondFactorStore;
  readonly totpKeys: KeyRing;
  readonly backupCodeKeys: KeyRing;
  readonly clock: Clock;
  /** The issuer an authenticator app shows next to the codes (the app's name). */
  readonly issuer: string;
}

/** {@link SecondFactors} from a store and the app's secret key base. */
export function secondFactors(
  store: SecondFactorStore,
  secretKeyBase: SecretKeyBase,
  options: { readonly issuer: string; readonly clock?: Clock | undefined },
): SecondFactors {
  return {
    store,
    totpKeys: totpSealingKeys(secretKeyBase),
    backupCodeKeys: backupCodeKeys(secretKeyBase),
    clock: options.clock ?? systemClock,
    issuer: options.issuer,
  };
}
