import type { Result } from "@tessera/core";

/** A link between a user and an account at a provider (a row of `identities`). */
export interface Identity {
  readonly id: number;
  readonly userId: number;
  /** The provider's name: `github`. */
  readonly provider: string;
  /** The provider's id of the account (`sub`); with `provider`, unique. */
  readonly subject: string;
  /** The address the provider gave when the link was made, for support; never used to sign in. */
  readonly email: string | null;
  /** Epoch milliseconds; a SQL store keeps whole seconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a link is made from. */
export interface NewIdentity {
  readonly userId: number;
  readonly provider: string;
  readonly subject: string;
  readonly email: string | null;
}

/**
 * Where links to provider accounts live. `(provider, subject)` is unique, and must stay so
 * under concurrent sign-ins (a unique index); deleting a user must delete its identities.
 */
export interface IdentityStore {
  /** The id of the user linked to that provider account, or undefined. */
  findUserId(provider: string, subject: string): Promise<number | undefined>;
  /**
   * Links the provider account to the user. A pair already linked, also by a request that won a
   * race a moment ago, is `already-linked` (never an exception), and the existing link stays.
   */
  link(identity: NewIdentity, now: number): Promise<Result<Identity, "already-linked">>;
  /** The user's identities, oldest first: for an account page that lists them. */
  listForUser(userId: number): Promise<Identity[]>;
}
