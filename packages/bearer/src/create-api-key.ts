import { type Clock, systemClock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import { apiKeyJson } from "./api-key-json.js";
import { type ApiKeyNameCheck, checkApiKeyName } from "./api-key-name.js";
import type { ApiKeyJson, ApiKeyStore } from "./api-key-store.js";

/** A new key: exactly the body of the 201 answer to `POST /api/auth/keys`. */
export interface CreatedApiKey {
  /** The secret. It is shown this once: only its digest is stored. */
  readonly key: string;
  readonly api_key: ApiKeyJson;
}

/** The new key, or the `name` messages of a 422. */
export type CreateApiKeyResult =
  | { readonly ok: true; readonly value: CreatedApiKey }
  | Extract<ApiKeyNameCheck, { ok: false }>;

/**
 * Creates an API key for `userId`: a 256-bit random secret (43 URL-safe characters) of which
 * the store keeps only the SHA-256 digest. `name` is the raw request value; it is validated.
 */
export async function createApiKey(
  store: ApiKeyStore,
  input: { readonly userId: number; readonly name: unknown },
  clock: Clock = systemClock,
): Promise<CreateApiKeyResult> {
  const name = checkApiKeyName(input.name);
  if (!name.ok) return name;
  const key = randomToken();
  const record = await store.create({
    userId: input.userId,
    name: name.value,
    digest: sha256Hex(key),
    createdAt: clock(),
  });
  return { ok: true, value: { key, api_key: apiKeyJson(record) } };
}
