import { hmac } from "@noble/hashes/hmac.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { encodeHex } from "./hex.js";
import { toBytes } from "./utf8.js";

/** Input of the hash functions: bytes, or text hashed as its UTF-8 bytes. */
export type HashInput = string | Uint8Array;

/** A synchronous SHA-256 and HMAC-SHA256 implementation. */
export interface DigestBackend {
  readonly name: "node" | "noble";
  sha256(data: HashInput): Uint8Array;
  /** SHA-256 as lowercase hex. */
  sha256Hex(data: HashInput): string;
  /** HMAC of the parts one after another, as if concatenated, without concatenating them. */
  hmacSha256(key: Uint8Array, parts: readonly HashInput[]): Uint8Array;
}

/** Pure-JS backend: runs on every runtime (Workers, Deno, browsers). */
export const nobleBackend: DigestBackend = {
  name: "noble",
  sha256: (data) => nobleSha256(toBytes(data)),
  sha256Hex: (data) => encodeHex(nobleSha256(toBytes(data))),
  hmacSha256(key, parts) {
    const mac = hmac.create(nobleSha256, key);
    for (const part of parts) mac.update(toBytes(part));
    return mac.digest();
  },
};

interface NodeHash {
  update(data: HashInput): NodeHash;
  digest(): Uint8Array;
}

interface NodeCryptoSubset {
  /** One-shot hashing (Node 20.12, 21.7 and later): no Hash object per call. */
  hash?(algorithm: "sha256", data: HashInput, outputEncoding: "hex" | "buffer"): unknown;
  createHash(algorithm: "sha256"): NodeHash;
  createHmac(algorithm: "sha256", key: Uint8Array): NodeHash;
}

/**
 * Node's native hashing, found without a static `node:` import so this package still loads on
 * every runtime. It is several times faster than pure JS for webhook-sized bodies, and WebCrypto
 * would make every HMAC asynchronous.
 */
function findNodeBackend(): DigestBackend | undefined {
  const lookup = (
    globalThis as {
      process?: { getBuiltinModule?: ((id: string) => unknown) | undefined } | undefined;
    }
  ).process?.getBuiltinModule;
  if (typeof lookup !== "function") return undefined;
  const nodeCrypto = lookup("node:crypto") as NodeCryptoSubset | undefined;
  if (!nodeCrypto) return undefined;
  const asBytes = (digest: Uint8Array) =>
    new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  const { hash } = nodeCrypto;
  return {
    name: "node",
    sha256: hash
      ? (data) => asBytes(hash("sha256", data, "buffer") as Uint8Array)
      : (data) => asBytes(nodeCrypto.createHash("sha256").update(data).digest()),
    sha256Hex: hash
      ? (data) => hash("sha256", data, "hex") as string
      : (data) => encodeHex(asBytes(nodeCrypto.createHash("sha256").update(data).digest())),
    hmacSha256(key, parts) {
      // Node hashes text as UTF-8 itself, without an intermediate byte array.
      const mac = nodeCrypto.createHmac("sha256", key);
      for (const part of parts) mac.update(part);
      return asBytes(mac.digest());
    },
  };
}

/** The backend in use: Node's native one where available, else the pure-JS one. */
export const digestBackend: DigestBackend = findNodeBackend() ?? nobleBackend;
