// Bundled first by the dev server (never by `wrangler deploy`): Cloudflare's production runtime
// refuses WebCrypto PBKDF2 above 100,000 iterations, and miniflare's local workerd does not.
// With this, the Worker meets the same refusal here as in production, so a stored digest it
// cannot derive natively shows on this machine, not after deploying.

/** Cloudflare's limit, and the words its refusal uses. */
const PRODUCTION_LIMIT = 100_000;

const subtle = globalThis.crypto.subtle;
const localDeriveBits = subtle.deriveBits.bind(subtle);
const localDeriveKey = subtle.deriveKey.bind(subtle);

function refusal(algorithm: AlgorithmIdentifier | Pbkdf2Params): DOMException | undefined {
  if (typeof algorithm === "string" || algorithm.name.toUpperCase() !== "PBKDF2") return undefined;
  const { iterations } = algorithm as Pbkdf2Params;
  if (iterations <= PRODUCTION_LIMIT) return undefined;
  return new DOMException(
    `Pbkdf2 failed: iteration counts above ${PRODUCTION_LIMIT} are not supported (requested ${iterations}).`,
    "NotSupportedError",
  );
}

subtle.deriveBits = (algorithm, baseKey, length) => {
  const refused = refusal(algorithm);
  return refused ? Promise.reject(refused) : localDeriveBits(algorithm, baseKey, length);
};
subtle.deriveKey = (algorithm, baseKey, derivedKeyType, extractable, keyUsages) => {
  const refused = refusal(algorithm);
  return refused
    ? Promise.reject(refused)
    : localDeriveKey(algorithm, baseKey, derivedKeyType, extractable, keyUsages);
};
