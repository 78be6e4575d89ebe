import { fail, ok, type Result } from "@tessera/core";
import { aeadBackend } from "./aead-backend.js";
import { decodeBase64url, encodeBase64url } from "./base64.js";
import type { KeyRing } from "./key-ring.js";
import { randomBytes } from "./random.js";
import { toBytes } from "./utf8.js";

const FORMAT_VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
/** Sealed texts longer than this are refused unread: cookies are at most 4 KB anyway. */
export const MAXIMUM_SEALED_LENGTH = 8192;

// The context is nearly always the same text (a cookie name): its bytes are kept, not encoded
// again on every seal and open. Only read, never changed, by the ciphers.
let lastContext = "";
let lastContextBytes: Uint8Array = new Uint8Array(0);
function contextBytes(context: string): Uint8Array {
  if (context !== lastContext) {
    lastContextBytes = toBytes(context);
    lastContext = context;
  }
  return lastContextBytes;
}

/** Why {@link openPayload} refused a sealed text. */
export type OpenFailure = "malformed" | "not-authentic";

/**
 * Encrypts and authenticates a small payload with AES-256-GCM and a random 96-bit nonce.
 * `context` (for example the cookie name) is authenticated too, so a sealed text made for one
 * purpose is refused for another. The result is URL-safe base64, fit for a cookie value.
 *
 * @example
 * ```ts
 * import { deriveKeyRing, openPayload, sealPayload } from "@tessera/crypto";
 *
 * const keys = deriveKeyRing({ current: process.env.SECRET_KEY_BASE! }, "remember me");
 * const sealed = await sealPayload(keys.current, JSON.stringify({ user_id: 7 }), "remember_me");
 * const opened = await openPayload(keys, sealed, "remember_me"); // refused under another context
 * if (opened.ok) console.log(JSON.parse(new TextDecoder().decode(opened.value)));
 * ```
 */
export async function sealPayload(
  key: Uint8Array,
  plaintext: string | Uint8Array,
  context = "",
): Promise<string> {
  if (key.length !== 32) throw new RangeError("AES-256-GCM needs a 32-byte key");
  const iv = randomBytes(IV_LENGTH);
  const ciphertext = await aeadBackend.seal(key, iv, toBytes(plaintext), contextBytes(context));
  const sealed = new Uint8Array(1 + IV_LENGTH + ciphertext.length);
  sealed[0] = FORMAT_VERSION;
  sealed.set(iv, 1);
  sealed.set(ciphertext, 1 + IV_LENGTH);
  return encodeBase64url(sealed);
}

/**
 * Opens a text made by {@link sealPayload}, trying each key of the ring (or the one key).
 * Never throws on hostile input: a tampered, truncated, oversized or foreign text is a failure.
 */
export async function openPayload(
  keys: KeyRing | Uint8Array,
  sealed: string,
  context = "",
): Promise<Result<Uint8Array, OpenFailure>> {
  if (sealed.length > MAXIMUM_SEALED_LENGTH) return fail("malformed");
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64url(sealed);
  } catch {
    return fail("malformed");
  }
  if (bytes.length < 1 + IV_LENGTH + TAG_LENGTH || bytes[0] !== FORMAT_VERSION) {
    return fail("malformed");
  }
  const iv = bytes.subarray(1, 1 + IV_LENGTH);
  const ciphertext = bytes.subarray(1 + IV_LENGTH);
  const additionalData = contextBytes(context);
  for (const key of keys instanceof Uint8Array ? [keys] : keys.all) {
    if (key.length !== 32) throw new RangeError("AES-256-GCM needs a 32-byte key");
    // Authentication failing under this key gives undefined; the next one is tried.
    const plaintext = await aeadBackend.open(key, iv, ciphertext, additionalData);
    if (plaintext) return ok(plaintext);
  }
  return fail("not-authentic");
}
