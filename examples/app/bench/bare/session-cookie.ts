import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** The session cookie's name in the example app (`appName` "tessera"). */
export const SESSION_COOKIE = "_tessera_session";

/** A flash message as the session carries it. */
export interface Flash {
  readonly kind: "notice" | "alert";
  readonly message: string;
}

/** What the cookie holds, in the app's payload shape (version 1). */
export interface SessionPayload {
  v: 1;
  user?: { id: number; expiresAt: number; rememberMe: boolean };
  flashes?: Flash[];
  page?: string;
  values?: Record<string, string>;
}

const FORMAT_VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const MAXIMUM_SEALED_LENGTH = 8192;
const PAYLOAD_KEYS = new Set(["v", "user", "flashes", "page", "values"]);
const additionalData = Buffer.from(SESSION_COOKIE);

/**
 * The session cookie by hand: AES-256-GCM under the app's derived key, the cookie name as
 * additional data, `[version 1][12-byte IV][ciphertext][16-byte tag]` in base64url, holding the
 * payload JSON. `open` refuses what the app refuses (size, version, tag, shape), giving undefined.
 */
export class SessionCookieCipher {
  constructor(private readonly key: Buffer) {}

  open(sealed: string): SessionPayload | undefined {
    if (sealed.length > MAXIMUM_SEALED_LENGTH) return undefined;
    const bytes = Buffer.from(sealed, "base64url");
    if (bytes.length < 1 + IV_LENGTH + TAG_LENGTH || bytes[0] !== FORMAT_VERSION) return undefined;
    const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(1, 1 + IV_LENGTH));
    decipher.setAAD(additionalData);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_LENGTH));
    try {
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_LENGTH, bytes.length - TAG_LENGTH)),
        decipher.final(),
      ]);
      return checkedPayload(JSON.parse(plain.toString("utf8")));
    } catch {
      return undefined;
    }
  }

  seal(payload: SessionPayload): string {
    const iv = randomBytes(IV_LENGTH);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(additionalData);
    const ciphertext = Buffer.concat([
      cipher.update(JSON.stringify(payload), "utf8"),
      cipher.final(),
    ]);
    return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, ciphertext, cipher.getAuthTag()]).toString(
      "base64url",
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The payload when it has exactly the shape the app writes, else undefined. */
function checkedPayload(data: unknown): SessionPayload | undefined {
  if (!isObject(data) || data.v !== 1) return undefined;
  for (const key of Object.keys(data)) if (!PAYLOAD_KEYS.has(key)) return undefined;
  const { user, flashes, page, values } = data;
  if (user !== undefined) {
    if (!isObject(user) || Object.keys(user).length !== 3) return undefined;
    if (!Number.isSafeInteger(user.id) || (user.id as number) < 1) return undefined;
    if (!Number.isSafeInteger(user.expiresAt) || typeof user.rememberMe !== "boolean") {
      return undefined;
    }
  }
  if (flashes !== undefined) {
    if (!Array.isArray(flashes) || flashes.length === 0 || flashes.length > 3) return undefined;
    for (const flash of flashes) {
      if (!isObject(flash) || Object.keys(flash).length !== 2) return undefined;
      if (flash.kind !== "notice" && flash.kind !== "alert") return undefined;
      if (typeof flash.message !== "string" || flash.message.length > 512) return undefined;
    }
  }
  if (page !== undefined && (typeof page !== "string" || !page.startsWith("/"))) return undefined;
  if (values !== undefined) {
    if (!isObject(values)) return undefined;
    for (const value of Object.values(values)) {
      if (typeof value !== "string" || !/^[A-Za-z0-9._~-]{1,128}$/.test(value)) return undefined;
    }
  }
  return data as unknown as SessionPayload;
}

/** The value of cookie `name` in a `Cookie` header, first occurrence winning. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(/[;,]/)) {
    const equals = pair.indexOf("=");
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}
