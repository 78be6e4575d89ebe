import { hmac } from "@noble/hashes/hmac.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";

/** A synchronous SHA-256 and HMAC-SHA256 implementation. */
export interface DigestBackend {
  readonly name: "node" | "noble";
  sha256(data: Uint8Array): Uint8Array;
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array;
}

/** Pure-JS backend: runs on every runtime (Workers, Deno, browsers). */
export const nobleBackend: DigestBackend = {
  name: "noble",
  sha256: (data) => nobleSha256(data),
  hmacSha256: (key, data) => hmac(nobleSha256, key, data),
};

interface NodeCryptoSubset {
  createHash(algorithm: "sha256"): { update(data: Uint8Array): { digest(): Uint8Array } };
  createHmac(
    algorithm: "sha256",
    key: Uint8Array,
  ): { update(data: Uint8Array): { digest(): Uint8Array } };
}

/**
 * Node's native hashing, found without a static `node:` import so this package still loads on
 * every runtime. It is several times faster than pure JS for webhook-sized bodies, and WebCrypto
 * would make every HMAC asynchronous.
 */
function findNodeBackend(): DigestBackend | undefined {
  const lookup = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process?.getBuiltinModule;
  if (typeof lookup !== "function") return undefined;
  const nodeCrypto = lookup("node:crypto") as NodeCryptoSubset | undefined;
  if (!nodeCrypto) return undefined;
  const asBytes = (digest: Uint8Array) =>
    new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  return {
    name: "node",
    sha256: (data) => asBytes(nodeCrypto.createHash("sha256").update(data).digest()),
    hmacSha256: (key, data) => asBytes(nodeCrypto.createHmac("sha256", key).update(data).digest()),
  };
}

/** The backend in use: Node's native one where available, else the pure-JS one. */
export const digestBackend: DigestBackend = findNodeBackend() ?? nobleBackend;
