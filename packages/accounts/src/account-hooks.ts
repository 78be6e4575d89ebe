import { reportHookErrorToStderr, runAfterHook } from "@tessera/core";
import type { AccountAuditEventType } from "./audit/audit-events.js";
import type { AuditRecordOptions, AuditTrail } from "./audit/audit-trail.js";
import type { OperatorColumn, OperatorColumnValue } from "./profile/operator-columns.js";
import type { User } from "./users/user.js";

/** How an account came to be: the sign-up form or API, or a first provider sign-in. */
export type SignUpMethod = "password" | "oauth";

/**
 * How a user proved who they are: a password (the login form, `POST /api/auth/token`, and the
 * sign-in that follows a sign-up form), an emailed sign-in link or code, or a provider.
 */
export type SignInMethod = "password" | "email_link" | "email_code" | "oauth" | "passkey";

// A record, not a list: a method added to the type must be added here too, or this fails to compile.
const SIGN_IN_METHODS: Readonly<Record<SignInMethod, true>> = {
  password: true,
  email_link: true,
  email_code: true,
  oauth: true,
  passkey: true,
};

/** Whether `value` names a {@link SignInMethod}: how a stored method is read back safely. */
export function isSignInMethod(value: unknown): value is SignInMethod {
  return typeof value === "string" && Object.hasOwn(SIGN_IN_METHODS, value);
}

/** What a sign-in gave the user: a cookie session (HTML) or a bearer token (JSON). */
export type SignInGrant = "session" | "token";

/**
 * The user as hooks see it: no password digest (only whether there is one) and no secret
 * operator column.
 */
export interface HookUser {
  readonly id: number;
  readonly email: string;
  readonly hasPassword: boolean;
  /** Epoch milliseconds, or null while the address is unconfirmed. */
  readonly confirmedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The operator columns not marked `secret`, by name. */
  readonly columns: Readonly<Record<string, OperatorColumnValue>>;
}

/** The request an account event happened in. */
export interface HookRequest {
  readonly request: Request;
  /** The client's address as the routes read it (`TRUST_PROXY` applied). */
  readonly clientAddress: string;
}

/** `onSignUp`'s event: the new user, how they signed up, and the request. */
export interface SignUpEvent extends HookRequest {
  readonly user: HookUser;
  readonly method: SignUpMethod;
}

/** `onSignIn`'s event: the user, how they proved it, what they were given, and the request. */
export interface SignInEvent extends HookRequest {
  readonly user: HookUser;
  readonly method: SignInMethod;
  readonly grant: SignInGrant;
}

/** `onUserDeleted`'s event: the user as they were, and the request that deleted them. */
export interface UserDeletedEvent extends HookRequest {
  readonly user: HookUser;
}

/** `beforeSignIn`'s event: who is about to be signed in, how, with what, and the request. */
export interface BeforeSignInEvent extends HookRequest {
  readonly user: HookUser;
  readonly method: SignInMethod;
  readonly grant: SignInGrant;
}

/**
 * What a deciding hook (`beforeSignIn`, `beforeUserDeleted`) answers to refuse: a code
 * (snake_case, for clients) and a message for the person, in their language (`request`'s
 * `Accept-Language` is there to read).
 */
export interface AccountRefusal {
  readonly code: string;
  readonly message: string;
}

/** What `beforeSignIn` answers to keep a user out: see {@link AccountRefusal}. */
export type SignInRefusal = AccountRefusal;

/** `onPasswordChanged`'s event: the user, whether their other sign-ins were ended, the request. */
export interface PasswordChangedEvent extends HookRequest {
  readonly user: HookUser;
  /** The change signed out every other session and token of the user. */
  readonly signedOutOthers: boolean;
}

/** `onEmailChanged`'s event: the user with the new address, the one it replaced, the request. */
export interface EmailChangedEvent extends HookRequest {
  readonly user: HookUser;
  readonly previousEmail: string;
}

/**
 * Lifecycle hooks of accounts, each run once its write committed (the user row created, the
 * session or token issued, the row deleted) and awaited before the answer. A throw goes to
 * `onHookError` and never changes the answer: the write it follows stands.
 */
export interface AccountHooks {
  /**
   * Runs before every way in grants a session or a token (after its second factor): answer a
   * {@link SignInRefusal} to refuse (a banned or suspended user), nothing to let the user in.
   * Unlike the others it decides, so a throw is not swallowed: the request fails, and nobody
   * is signed in by a veto that could not decide.
   */
  beforeSignIn?(
    event: BeforeSignInEvent,
  ): SignInRefusal | undefined | Promise<SignInRefusal | undefined>;
  /**
   * Runs before an account is deleted, once its owner confirmed it: answer an
   * {@link AccountRefusal} to keep it (the only owner of an organization, an open invoice),
   * nothing to let it go. It decides as `beforeSignIn` does: a throw fails the request and
   * deletes nothing.
   */
  beforeUserDeleted?(
    event: UserDeletedEvent,
  ): AccountRefusal | undefined | Promise<AccountRefusal | undefined>;
  onSignUp?(event: SignUpEvent): unknown;
  onSignIn?(event: SignInEvent): unknown;
  onUserDeleted?(event: UserDeletedEvent): unknown;
  /** A signed-in user changed (or first set) their password; not run for an emailed reset. */
  onPasswordChanged?(event: PasswordChangedEvent): unknown;
  /** A user's new address confirmed the change: the account now has it. */
  onEmailChanged?(event: EmailChangedEvent): unknown;
}

/** The name of an account hook, as `onHookError` is told it. */
export type AccountHookName = keyof AccountHooks;

/** Options of {@link accountEvents}. */
export interface AccountEventsOptions {
  readonly hooks?: AccountHooks | undefined;
  /** Which operator columns are secret, so hooks never see them. */
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  /** Called when a hook throws (default: one line on stderr). */
  readonly onHookError?: ((error: unknown, hook: AccountHookName) => void) | undefined;
  /**
   * The audit trail: every event announced here is also recorded in it (`user.signed_up`,
   * `user.signed_in`, …), and the flows record the rest through `audited`.
   */
  readonly audit?: AuditTrail | undefined;
}

/**
 * The account events the flows announce: every route that creates, signs in, changes or deletes
 * a user calls one of these once its write committed. Build it once (`accountRoutes` does, from its
 * `hooks`) and hand it to each route group, the OAuth routes included.
 */
export interface AccountEvents {
  /** Asks `beforeSignIn` whether the user may be signed in: its refusal, or undefined. */
  mayNotSignIn(
    user: User,
    method: SignInMethod,
    grant: SignInGrant,
    at: HookRequest,
  ): Promise<SignInRefusal | undefined>;
  /** Asks `beforeUserDeleted` whether the user's account may be deleted: its refusal, or undefined. */
  mayNotDelete(user: User, at: HookRequest): Promise<AccountRefusal | undefined>;
  signedUp(user: User, method: SignUpMethod, at: HookRequest): Promise<void>;
  signedIn(user: User, method: SignInMethod, grant: SignInGrant, at: HookRequest): Promise<void>;
  userDeleted(user: User, at: HookRequest): Promise<void>;
  passwordChanged(user: User, signedOutOthers: boolean, at: HookRequest): Promise<void>;
  emailChanged(user: User, previousEmail: string, at: HookRequest): Promise<void>;
  /**
   * Records `type` about `userId` in the audit trail, for the changes no hook announces (a
   * second factor turned on, a key deleted …); nothing without a trail.
   */
  audited(
    type: AccountAuditEventType,
    userId: number | null,
    at: HookRequest,
    options?: AuditRecordOptions,
  ): Promise<void>;
}

/** Builds the {@link AccountEvents} that run `hooks`. */
export function accountEvents(options: AccountEventsOptions = {}): AccountEvents {
  const hooks = options.hooks ?? {};
  const secret = new Set(
    (options.operatorColumns ?? []).filter((column) => column.secret).map((column) => column.name),
  );
  const report = options.onHookError ?? reportHookErrorToStderr;

  const hookUser = (user: User): HookUser => ({
    id: user.id,
    email: user.email,
    hasPassword: user.passwordDigest !== "",
    confirmedAt: user.confirmedAt,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    columns: Object.fromEntries(Object.entries(user.columns).filter(([name]) => !secret.has(name))),
  });

  const run = <E>(name: AccountHookName, event: () => E) =>
    runAfterHook(hooks, name, hooks[name] as ((event: E) => unknown) | undefined, event, report);

  const audited: AccountEvents["audited"] = async (type, userId, at, recordOptions) => {
    await options.audit?.record(type, userId, at, recordOptions);
  };

  return {
    audited,
    async mayNotSignIn(user, method, grant, at) {
      const veto = hooks.beforeSignIn;
      if (!veto) return undefined;
      const refusal = await veto.call(hooks, { ...at, user: hookUser(user), method, grant });
      return refusal ?? undefined;
    },
    async mayNotDelete(user, at) {
      const veto = hooks.beforeUserDeleted;
      if (!veto) return undefined;
      return (await veto.call(hooks, { ...at, user: hookUser(user) })) ?? undefined;
    },
    async signedUp(user, method, at) {
      await audited("user.signed_up", user.id, at, { details: { method } });
      await run("onSignUp", (): SignUpEvent => ({ ...at, user: hookUser(user), method }));
    },
    async signedIn(user, method, grant, at) {
      await audited("user.signed_in", user.id, at, { details: { method, grant } });
      await run("onSignIn", (): SignInEvent => ({ ...at, user: hookUser(user), method, grant }));
    },
    async userDeleted(user, at) {
      await audited("user.deleted", user.id, at);
      await run("onUserDeleted", (): UserDeletedEvent => ({ ...at, user: hookUser(user) }));
    },
    async passwordChanged(user, signedOutOthers, at) {
      const details = { signed_out_others: signedOutOthers };
      await audited("user.password_changed", user.id, at, { details });
      await run(
        "onPasswordChanged",
        (): PasswordChangedEvent => ({ ...at, user: hookUser(user), signedOutOthers }),
      );
    },
    async emailChanged(user, previousEmail, at) {
      await audited("user.email_changed", user.id, at);
      await run(
        "onEmailChanged",
        (): EmailChangedEvent => ({ ...at, user: hookUser(user), previousEmail }),
      );
    },
  };
}
