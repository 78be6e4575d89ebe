import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MINIMUM_SECRET_LENGTH, randomToken } from "@tessera/crypto";
import { type AppConfig, ConfigError, checkedSecretKeyBase } from "./config.js";

/** Where development keeps its generated secret, relative to the working directory. */
export const DEVELOPMENT_SECRET_PATH = "data/secret_key_base";

/**
 * The `SECRET_KEY_BASE` to use. Production requires it (32 characters or more). Development
 * uses it when set, else generates one once and keeps it in data/secret_key_base (mode 0600),
 * so sessions survive restarts.
 * @throws {ConfigError} when production has none, or the value is too short.
 */
export function resolveSecretKeyBase(
  config: AppConfig,
  secretPath = DEVELOPMENT_SECRET_PATH,
): string {
  if (config.secretKeyBase !== undefined) return checkedSecretKeyBase(config.secretKeyBase);
  if (config.production) {
    throw new ConfigError(
      "SECRET_KEY_BASE is required in production: set it to a random value of at least 32 characters (try: openssl rand -hex 64)",
    );
  }
  if (existsSync(secretPath)) {
    const kept = readFileSync(secretPath, "utf8").trim();
    if (kept.length >= MINIMUM_SECRET_LENGTH) return kept;
  }
  const generated = randomToken() + randomToken();
  mkdirSync(dirname(secretPath), { recursive: true });
  writeFileSync(secretPath, `${generated}\n`, { mode: 0o600 });
  return generated;
}
