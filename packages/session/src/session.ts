import type { Clock } from "@tessera/core";
import {
  EMPTY_SESSION_STATE,
  type Flash,
  type FlashKind,
  isRememberablePage,
  isSignInLifetime,
  isUserId,
  MAXIMUM_FLASH_MESSAGE_LENGTH,
  MAXIMUM_FLASHES,
  MAXIMUM_SESSION_VALUES,
  SESSION_LIFETIME_SECONDS,
  SESSION_VALUE_NAME,
  SESSION_VALUE_TEXT,
  type SessionState,
  type SignIn,
  signInLifetimeMs,
} from "./session-payload.js";

export { SESSION_LIFETIME_SECONDS };

/** Options of {@link Session.signIn}. */
export interface SignInOptions {
  /** `remember_me=1`: the cookie then outlives the browser (`Max-Age`); default false. */
  readonly rememberMe?: boolean | undefined;
  /**
   * How long the sign-in lasts, in seconds: 1 to {@link SESSION_LIFETIME_SECONDS} (the
   * default); shorter for an operator acting as a user. Renewing it starts the same lifetime
   * again.
   */
  readonly lifetimeSeconds?: number | undefined;
}

/**
 * One request's view of the cookie session. Read it with `SessionCookies.read`, change it in the
 * handler, then write it back with `SessionCookies.commit`: nothing reaches the browser until
 * then, and an unchanged session writes no `Set-Cookie`.
 */
export interface Session {
  /** The signed-in user's id; undefined when nobody is signed in or the sign-in has expired. */
  readonly userId: number | undefined;
  /** When the sign-in ends, in epoch milliseconds; undefined when nobody is signed in. */
  readonly signedInUntil: number | undefined;
  /**
   * When the user signed in (or last renewed the sign-in), in epoch milliseconds; undefined
   * when nobody is signed in. A user whose credentials changed after it is signed out.
   */
  readonly signedInAt: number | undefined;
  /** Whether the sign-in asked to be remembered (the cookie carries `Max-Age`). */
  readonly rememberMe: boolean;
  /** Whether anything changed since the session was read, so the cookie must be written. */
  readonly changed: boolean;
  /**
   * Empties the session (flashes, remembered page and extra values too) and signs `userId` in
   * for {@link SESSION_LIFETIME_SECONDS}. Take the remembered page before, flash after.
   * @throws {TypeError} when `userId` is not a positive safe integer.
   */
  signIn(userId: number, options?: SignInOptions): void;
  /**
   * Starts the current sign-in again from now, keeping everything else the session holds: for
   * the browser that changed the user's credentials, which must outlive the change that ends
   * every sign-in made before it. Does nothing when nobody is signed in.
   */
  renewSignIn(): void;
  /** Empties the session; the cookie is deleted unless something is put in it again. */
  signOut(): void;
  /**
   * Adds a message for the next page. At most {@link MAXIMUM_FLASHES} are kept (the oldest goes);
   * a message longer than {@link MAXIMUM_FLASH_MESSAGE_LENGTH} characters is cut; a message
   * already waiting is not added twice.
   */
  flash(kind: FlashKind, message: string): void;
  /** Returns the waiting flashes and removes them: call it where the page renders them. */
  takeFlashes(): Flash[];
  /**
   * Remembers where to go after sign-in. Only a path `safeLocalPath` accepts, of at most
   * {@link MAXIMUM_REMEMBERED_PAGE_LENGTH} characters, is kept; anything else forgets any page
   * remembered before and returns false.
   */
  rememberPage(path: string): boolean;
  /** Returns the remembered page (always a local path) and forgets it. */
  takeRememberedPage(): string | undefined;
  /** An extra value (an OAuth state, a PKCE verifier, a tracked-session token). */
  get(name: string): string | undefined;
  /**
   * Stores an extra value. Names match {@link SESSION_VALUE_NAME}; values are 1 to 128
   * URL-safe characters ({@link SESSION_VALUE_TEXT}), as random tokens are.
   * @throws {TypeError} for an invalid name or value; `RangeError` for a value beyond
   * {@link MAXIMUM_SESSION_VALUES}: programmer errors.
   */
  set(name: string, value: string): void;
  /** Returns an extra value and removes it: for single-use values such as an OAuth state. */
  take(name: string): string | undefined;
}

function truncateMessage(message: string): string {
  // Cut on code points, not UTF-16 units, so no emoji is split in half.
  const characters = Array.from(message);
  if (characters.length <= MAXIMUM_FLASH_MESSAGE_LENGTH) return message;
  return `${characters.slice(0, MAXIMUM_FLASH_MESSAGE_LENGTH - 1).join("")}…`;
}

/** The {@link Session} of `SessionCookies`: a state, replaced whole on every change. */
export class CookieSession implements Session {
  #state: SessionState;
  #changed: boolean;
  #signedInNow = false;
  readonly #clock: Clock;

  /** `changed` is true when the cookie as read must be rewritten (expired, unreadable). */
  constructor(state: SessionState, clock: Clock, changed: boolean) {
    this.#state = state;
    this.#clock = clock;
    this.#changed = changed;
  }

  /** What is to be sealed into the cookie. */
  get state(): SessionState {
    return this.#state;
  }

  get userId(): number | undefined {
    return this.#state.signIn?.userId;
  }

  get signedInUntil(): number | undefined {
    return this.#state.signIn?.expiresAt;
  }

  get signedInAt(): number | undefined {
    // A sign-in lasts its lifetime from its start, so the start is kept without a field.
    const signIn = this.#state.signIn;
    return signIn === undefined ? undefined : signIn.expiresAt - signInLifetimeMs(signIn);
  }

  get rememberMe(): boolean {
    return this.#state.signIn?.rememberMe ?? false;
  }

  get changed(): boolean {
    return this.#changed;
  }

  /** Whether the current sign-in was made on this object, that is during this request. */
  get signedInNow(): boolean {
    return this.#signedInNow;
  }

  signIn(userId: number, options: SignInOptions = {}): void {
    if (!isUserId(userId)) throw new TypeError("a user id must be a positive safe integer");
    const { lifetimeSeconds } = options;
    if (lifetimeSeconds !== undefined && !isSignInLifetime(lifetimeSeconds)) {
      throw new RangeError(`lifetimeSeconds must be 1 to ${SESSION_LIFETIME_SECONDS}`);
    }
    const signIn: SignIn = {
      userId,
      expiresAt: 0,
      rememberMe: options.rememberMe ?? false,
      ...(lifetimeSeconds === undefined ? {} : { lifetimeSeconds }),
    };
    const expiresAt = this.#clock() + signInLifetimeMs(signIn);
    this.#update({ ...EMPTY_SESSION_STATE, signIn: { ...signIn, expiresAt } });
    this.#signedInNow = true;
  }

  renewSignIn(): void {
    const signIn = this.#state.signIn;
    if (signIn === undefined) return;
    const expiresAt = this.#clock() + signInLifetimeMs(signIn);
    this.#update({ ...this.#state, signIn: { ...signIn, expiresAt } });
  }

  signOut(): void {
    this.#update(EMPTY_SESSION_STATE);
    this.#signedInNow = false;
  }

  flash(kind: FlashKind, message: string): void {
    if (kind !== "notice" && kind !== "alert") throw new TypeError(`unknown flash kind ${kind}`);
    const flash = { kind, message: truncateMessage(message) };
    const waiting = this.#state.flashes;
    if (waiting.some((each) => each.kind === flash.kind && each.message === flash.message)) return;
    this.#update({ ...this.#state, flashes: [...waiting, flash].slice(-MAXIMUM_FLASHES) });
  }

  takeFlashes(): Flash[] {
    const flashes = [...this.#state.flashes];
    if (flashes.length > 0) this.#update({ ...this.#state, flashes: [] });
    return flashes;
  }

  rememberPage(path: string): boolean {
    const page = isRememberablePage(path) ? path : undefined;
    if (page !== this.#state.page) this.#update({ ...this.#state, page });
    return page !== undefined;
  }

  takeRememberedPage(): string | undefined {
    const page = this.#state.page;
    if (page !== undefined) this.#update({ ...this.#state, page: undefined });
    return page;
  }

  get(name: string): string | undefined {
    return this.#state.values.get(name);
  }

  set(name: string, value: string): void {
    if (!SESSION_VALUE_NAME.test(name)) throw new TypeError(`invalid session value name ${name}`);
    if (!SESSION_VALUE_TEXT.test(value)) throw new TypeError(`invalid value for ${name}`);
    const values = new Map(this.#state.values);
    values.set(name, value);
    if (values.size > MAXIMUM_SESSION_VALUES) {
      throw new RangeError(`a session holds at most ${MAXIMUM_SESSION_VALUES} extra values`);
    }
    this.#update({ ...this.#state, values });
  }

  take(name: string): string | undefined {
    const value = this.#state.values.get(name);
    if (value === undefined) return undefined;
    const values = new Map(this.#state.values);
    values.delete(name);
    this.#update({ ...this.#state, values });
    return value;
  }

  #update(state: SessionState): void {
    this.#state = state;
    this.#changed = true;
  }
}
