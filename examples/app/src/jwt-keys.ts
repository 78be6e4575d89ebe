import { createJwtIssuer, type JwtIssuer, type KeySet, keySet } from "@tessera/bearer";
import { SqlSigningKeyStore } from "@tessera/bearer/sql";
import type { Clock } from "@tessera/core";
import type { SqlDatabase } from "@tessera/sql";
import type { AppConfig } from "./config.js";

/**
 * The signing keys of `JWT_ALGORITHM=EdDSA|ES256`: `JWT_PRIVATE_KEYS` when given, else the
 * database's (sealed under the secret key base, the first made at first start, one for every
 * process); undefined for HS256, whose key is derived from the secret key base.
 */
export async function appJwtKeys(
  config: AppConfig,
  database: SqlDatabase,
  secretKeyBase: string,
  clock?: Clock,
): Promise<KeySet | undefined> {
  if (config.jwtAlgorithm === "HS256") return undefined;
  // `SECRET_KEY_BASE_PREVIOUS` still opens the keys sealed before a rotation of the secret.
  const secrets = { current: secretKeyBase, previous: config.secretKeyBasePrevious };
  return keySet({
    algorithm: config.jwtAlgorithm,
    privateKeys: config.jwtPrivateKeys,
    store: new SqlSigningKeyStore(database, { secrets }),
    ...(clock ? { clock } : {}),
  });
}

/**
 * The bearer tokens' issuer on `keys`, with `iss` (`APP_URL`) and `aud` (`JWT_AUDIENCE`); the
 * accounts' HS256 default without keys.
 */
export function appJwtIssuer(
  config: AppConfig,
  keys: KeySet | undefined,
  clock?: Clock,
): JwtIssuer | undefined {
  if (!keys || config.jwtAlgorithm === "HS256") return undefined;
  return createJwtIssuer({
    algorithm: config.jwtAlgorithm,
    keys,
    issuer: config.appUrl,
    audience: config.jwtAudience,
    ...(clock ? { clock } : {}),
  });
}
