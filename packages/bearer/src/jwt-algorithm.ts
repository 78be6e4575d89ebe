/** The signature algorithms a Tessera JWT may use: `JWT_ALGORITHM`. HS256 is the default. */
export type JwtAlgorithm = "HS256" | AsymmetricJwtAlgorithm;

/** The public-key algorithms: EdDSA over Ed25519, and ECDSA over P-256 with SHA-256. */
export type AsymmetricJwtAlgorithm = "EdDSA" | "ES256";

/** Every {@link AsymmetricJwtAlgorithm}, in the order documentation lists them. */
export const ASYMMETRIC_JWT_ALGORITHMS: readonly AsymmetricJwtAlgorithm[] = ["EdDSA", "ES256"];

/** Whether `value` names an {@link AsymmetricJwtAlgorithm}. */
export function isAsymmetricJwtAlgorithm(value: unknown): value is AsymmetricJwtAlgorithm {
  return value === "EdDSA" || value === "ES256";
}
