/**
 * AES-256-GCM with a 128-bit tag, as the sealed payloads use it: `seal` gives the ciphertext
 * followed by the tag (WebCrypto's layout), `open` takes the same and gives undefined when the
 * text is not authentic under the key.
 */
export interface AeadBackend {
  readonly name: "node" | "webcrypto";
  seal(
    key: Uint8Array,
    iv: Uint8Array,
    plaintext: Uint8Array,
    additionalData: Uint8Array,
  ): Uint8Array | Promise<Uint8Array>;
  open(
    key: Uint8Array,
    iv: Uint8Array,
    sealed: Uint8Array,
    additionalData: Uint8Array,
  ): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

const TAG_LENGTH = 16;

const importedKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

function webCryptoKey(key: Uint8Array): Promise<CryptoKey> {
  let imported = importedKeys.get(key);
  if (!imported) {
    imported = globalThis.crypto.subtle.importKey("raw", key as BufferSource, "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    importedKeys.set(key, imported);
  }
  return imported;
}

/** WebCrypto's AES-GCM parameters for one seal or open. */
function gcmParameters(iv: Uint8Array, additionalData: Uint8Array): AesGcmParams {
  return {
    name: "AES-GCM",
    iv: iv as BufferSource,
    additionalData: additionalData as BufferSource,
    tagLength: TAG_LENGTH * 8,
  };
}

/** WebCrypto's AES-GCM: every runtime has it; each call is asynchronous. */
export const webCryptoAead: AeadBackend = {
  name: "webcrypto",
  async seal(key, iv, plaintext, additionalData) {
    const sealed = await globalThis.crypto.subtle.encrypt(
      gcmParameters(iv, additionalData),
      await webCryptoKey(key),
      plaintext as BufferSource,
    );
    return new Uint8Array(sealed);
  },
  async open(key, iv, sealed, additionalData) {
    try {
      const plaintext = await globalThis.crypto.subtle.decrypt(
        gcmParameters(iv, additionalData),
        await webCryptoKey(key),
        sealed as BufferSource,
      );
      return new Uint8Array(plaintext);
    } catch {
      return undefined;
    }
  },
};

interface NodeAeadCipher {
  setAAD(data: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}

interface NodeCipherSubset {
  createSecretKey(key: Uint8Array): object;
  createCipheriv(
    algorithm: "aes-256-gcm",
    key: object,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeAeadCipher & { getAuthTag(): Uint8Array };
  createDecipheriv(
    algorithm: "aes-256-gcm",
    key: object,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeAeadCipher & { setAuthTag(tag: Uint8Array): unknown };
}

/**
 * Node's OpenSSL AES-GCM, found without a static `node:` import so this package still loads on
 * every runtime. It runs synchronously: a cookie of a few hundred bytes takes microseconds,
 * where WebCrypto's promise, resolved from Node's thread pool, costs tens.
 */
function findNodeAead(): AeadBackend | undefined {
  const lookup = (
    globalThis as {
      process?: { getBuiltinModule?: ((id: string) => unknown) | undefined } | undefined;
    }
  ).process?.getBuiltinModule;
  if (typeof lookup !== "function") return undefined;
  const nodeCrypto = lookup("node:crypto") as NodeCipherSubset | undefined;
  if (!nodeCrypto) return undefined;
  const keyObjects = new WeakMap<Uint8Array, object>();
  const keyObject = (key: Uint8Array) => {
    let object = keyObjects.get(key);
    if (!object) {
      object = nodeCrypto.createSecretKey(key);
      keyObjects.set(key, object);
    }
    return object;
  };
  const options = { authTagLength: TAG_LENGTH };
  return {
    name: "node",
    seal(key, iv, plaintext, additionalData) {
      const cipher = nodeCrypto.createCipheriv("aes-256-gcm", keyObject(key), iv, options);
      cipher.setAAD(additionalData);
      return concatenate([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    },
    open(key, iv, sealed, additionalData) {
      if (sealed.length < TAG_LENGTH) return undefined;
      const tagAt = sealed.length - TAG_LENGTH;
      try {
        const decipher = nodeCrypto.createDecipheriv("aes-256-gcm", keyObject(key), iv, options);
        decipher.setAAD(additionalData);
        decipher.setAuthTag(sealed.subarray(tagAt));
        return concatenate([decipher.update(sealed.subarray(0, tagAt)), decipher.final()]);
      } catch {
        return undefined;
      }
    },
  };
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** The AES-GCM in use: Node's synchronous one where available, else WebCrypto's. */
export const aeadBackend: AeadBackend = findNodeAead() ?? webCryptoAead;
