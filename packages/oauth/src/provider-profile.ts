import { isValidEmail, normalizeEmail } from "@tessera/accounts";
import { unstorableText } from "@tessera/core";

/** Who the provider says signed in. */
export interface ProviderProfile {
  /** The provider's stable id of the account: OpenID Connect `sub`, GitHub's numeric user id. */
  readonly subject: string;
  /** The address, normalized; undefined when the provider shared none, or none valid. */
  readonly email: string | undefined;
  /** True only when the provider vouches for the address (`email_verified: true`). */
  readonly emailVerified: boolean;
}

/** OpenID Connect's limit on `sub` (Core 1.0, §2), applied to every provider. */
const MAXIMUM_SUBJECT_LENGTH = 255;

/**
 * Builds a profile from what a provider answered. Only a boolean `true` counts as verified: a
 * string "true", or a missing claim, does not.
 * @throws {Error} for an empty or overlong subject, or one holding a NUL or a lone surrogate,
 * which no database stores alike (a provider that breaks its protocol).
 */
export function providerProfile(
  subject: string,
  email: unknown,
  emailVerified: unknown,
): ProviderProfile {
  if (subject === "" || subject.length > MAXIMUM_SUBJECT_LENGTH) {
    throw new Error(`the provider's subject is empty or over ${MAXIMUM_SUBJECT_LENGTH} characters`);
  }
  const problem = unstorableText(subject);
  if (problem) throw new Error(`the provider's subject is unusable text: ${problem}`);
  const normalized = typeof email === "string" ? normalizeEmail(email) : undefined;
  return {
    subject,
    email: normalized !== undefined && isValidEmail(normalized) ? normalized : undefined,
    emailVerified: emailVerified === true,
  };
}
