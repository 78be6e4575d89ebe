import { safeLocalPath } from "@tessera/http";

/** The kind of a flash message: `notice` for news, `alert` for a problem. */
export type FlashKind = "notice" | "alert";

/** A message shown on the next page, carried there by the session. */
export interface Flash {
  readonly kind: FlashKind;
  readonly message: string;
}

/** Flashes kept at once; a further one pushes out the oldest. */
export const MAXIMUM_FLASHES = 3;
/** Longest flash message, in characters (code points); longer ones are cut, ending with "…". */
export const MAXIMUM_FLASH_MESSAGE_LENGTH = 256;
/** Longest remembered page, in characters; a longer path is not remembered. */
export const MAXIMUM_REMEMBERED_PAGE_LENGTH = 512;
/**
 * Extra values a session holds at once: the tracked-session token and when the person last
 * proved who they are, beside a flow's own (an OAuth state, verifier and provider; a sign-in
 * waiting for its second factor).
 */
export const MAXIMUM_SESSION_VALUES = 5;
/**
 * Largest payload sealed into the cookie, in UTF-8 bytes: the cookie value is then at most 2770
 * characters, well under the 4096 bytes browsers keep for a cookie's name and value.
 */
export const MAXIMUM_PAYLOAD_BYTES = 2048;

/** A name of an extra value: lower-case snake_case, at most 32 characters. */
export const SESSION_VALUE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
/**
 * An extra value: 1 to 128 URL-safe characters (RFC 3986 unreserved), which covers random
 * tokens and PKCE verifiers and keeps the worst-case payload bounded.
 */
export const SESSION_VALUE_TEXT = /^[A-Za-z0-9._~-]{1,128}$/;

/** How long a sign-in lasts, with or without remember me: 1209600 seconds (two weeks). */
export const SESSION_LIFETIME_SECONDS = 1_209_600;

/**
 * Who is signed in, until when (epoch ms), whether the cookie outlives the browser, and for how
 * long the sign-in was made when not for {@link SESSION_LIFETIME_SECONDS}.
 */
export interface SignIn {
  readonly userId: number;
  readonly expiresAt: number;
  readonly rememberMe: boolean;
  readonly lifetimeSeconds?: number | undefined;
}

/** Whether `seconds` is a lifetime a sign-in may have: a whole 1 to two weeks. */
export function isSignInLifetime(seconds: unknown): seconds is number {
  return (
    typeof seconds === "number" &&
    Number.isSafeInteger(seconds) &&
    seconds >= 1 &&
    seconds <= SESSION_LIFETIME_SECONDS
  );
}

/** How long `signIn` lasts from its start, in milliseconds. */
export function signInLifetimeMs(signIn: SignIn): number {
  return (signIn.lifetimeSeconds ?? SESSION_LIFETIME_SECONDS) * 1000;
}

/** Everything a session holds; what is sealed into the cookie. */
export interface SessionState {
  readonly signIn: SignIn | undefined;
  readonly flashes: readonly Flash[];
  readonly page: string | undefined;
  readonly values: ReadonlyMap<string, string>;
}

/** The session of a visitor who has nothing in it. */
export const EMPTY_SESSION_STATE: SessionState = {
  signIn: undefined,
  flashes: [],
  page: undefined,
  values: new Map(),
};

/** Whether a state holds nothing, so the cookie can go. */
export function isEmptyState(state: SessionState): boolean {
  return (
    state.signIn === undefined &&
    state.flashes.length === 0 &&
    state.page === undefined &&
    state.values.size === 0
  );
}

/** A user id as stored: a positive safe integer, the primary key of `users`. */
export function isUserId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** A path fit to remember: one `safeLocalPath` accepts, and short enough for the cookie. */
export function isRememberablePage(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length <= MAXIMUM_REMEMBERED_PAGE_LENGTH &&
    safeLocalPath(value) === value
  );
}

const PAYLOAD_VERSION = 1;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

function payloadJson(state: SessionState, flashes: readonly Flash[]): string {
  const { signIn, page, values } = state;
  return JSON.stringify({
    v: PAYLOAD_VERSION,
    ...(signIn && {
      user: {
        id: signIn.userId,
        expiresAt: signIn.expiresAt,
        rememberMe: signIn.rememberMe,
        ...(signIn.lifetimeSeconds === undefined ? {} : { lifetime: signIn.lifetimeSeconds }),
      },
    }),
    ...(flashes.length > 0 && { flashes }),
    ...(page !== undefined && { page }),
    ...(values.size > 0 && { values: Object.fromEntries(values) }),
  });
}

/**
 * The JSON sealed into the cookie. When it would pass {@link MAXIMUM_PAYLOAD_BYTES}, the oldest
 * flashes are left out until it fits. The other parts are capped so that, together, they always
 * fit (a test holds this), so a sign-in is never what gets dropped.
 */
export function encodeSessionPayload(state: SessionState): string {
  let flashes = state.flashes;
  let json = payloadJson(state, flashes);
  while (flashes.length > 0 && isOverPayloadBytes(json)) {
    flashes = flashes.slice(1);
    json = payloadJson(state, flashes);
  }
  return json;
}

/**
 * Whether `json` is over {@link MAXIMUM_PAYLOAD_BYTES} as UTF-8. A UTF-16 code unit is one to
 * three UTF-8 bytes, so the length alone answers for most payloads, which then are not encoded
 * twice (sealing encodes them again).
 */
function isOverPayloadBytes(json: string): boolean {
  if (json.length * 3 <= MAXIMUM_PAYLOAD_BYTES) return false;
  return (
    json.length > MAXIMUM_PAYLOAD_BYTES || utf8Encoder.encode(json).length > MAXIMUM_PAYLOAD_BYTES
  );
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object with exactly the required keys, plus any of the optional ones. */
function hasOnlyKeys(value: JsonObject, required: readonly string[], optional: readonly string[]) {
  const keys = Object.keys(value);
  return (
    required.every((key) => Object.hasOwn(value, key)) &&
    keys.every((key) => required.includes(key) || optional.includes(key))
  );
}

// `null` marks a part that is present but wrong: the whole payload is then refused.
function decodeSignIn(user: unknown): SignIn | null {
  const keys = ["id", "expiresAt", "rememberMe"];
  if (!isObject(user) || !hasOnlyKeys(user, keys, ["lifetime"])) return null;
  const { id, expiresAt, rememberMe, lifetime } = user;
  if (!isUserId(id) || typeof rememberMe !== "boolean") return null;
  if (typeof expiresAt !== "number" || !Number.isSafeInteger(expiresAt)) return null;
  if (lifetime === undefined) return { userId: id, expiresAt, rememberMe };
  if (!isSignInLifetime(lifetime)) return null;
  return { userId: id, expiresAt, rememberMe, lifetimeSeconds: lifetime };
}

function decodeFlash(flash: unknown): Flash | null {
  if (!isObject(flash) || !hasOnlyKeys(flash, ["kind", "message"], [])) return null;
  const { kind, message } = flash;
  if (kind !== "notice" && kind !== "alert") return null;
  if (typeof message !== "string" || [...message].length > MAXIMUM_FLASH_MESSAGE_LENGTH) {
    return null;
  }
  return { kind, message };
}

function decodeFlashes(flashes: unknown): Flash[] | null {
  if (!Array.isArray(flashes) || flashes.length === 0 || flashes.length > MAXIMUM_FLASHES) {
    return null;
  }
  const decoded = flashes.map(decodeFlash);
  return decoded.every((flash) => flash !== null) ? (decoded as Flash[]) : null;
}

function decodeValues(values: unknown): Map<string, string> | null {
  if (!isObject(values)) return null;
  const entries = Object.entries(values);
  if (entries.length === 0 || entries.length > MAXIMUM_SESSION_VALUES) return null;
  for (const [name, value] of entries) {
    if (!SESSION_VALUE_NAME.test(name)) return null;
    if (typeof value !== "string" || !SESSION_VALUE_TEXT.test(value)) return null;
  }
  return new Map(entries as [string, string][]);
}

/**
 * Reads an opened cookie payload. Anything but exactly the shape {@link encodeSessionPayload}
 * writes (invalid UTF-8 or JSON, another version, an unknown key, a value out of bounds) gives
 * `undefined`: the session is then empty, never half-read. Never throws.
 */
export function decodeSessionPayload(bytes: Uint8Array): SessionState | undefined {
  let data: unknown;
  try {
    data = JSON.parse(utf8Decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (!isObject(data) || data.v !== PAYLOAD_VERSION) return undefined;
  if (!hasOnlyKeys(data, ["v"], ["user", "flashes", "page", "values"])) return undefined;
  const signIn = data.user === undefined ? undefined : decodeSignIn(data.user);
  const flashes = data.flashes === undefined ? [] : decodeFlashes(data.flashes);
  const values = data.values === undefined ? new Map<string, string>() : decodeValues(data.values);
  const page = data.page;
  if (signIn === null || flashes === null || values === null) return undefined;
  if (page !== undefined && !isRememberablePage(page)) return undefined;
  return { signIn, flashes, page, values };
}
