import type { SqlDatabase } from "@tessera/sql";
import { withExistingDatabase } from "./app-database.js";
import { loadAppPackage } from "./app-packages.js";
import type { Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";
import { signingKeySettings } from "./signing-key-settings.js";

type Refusal = Extract<Outcome, { ok: false }>;

/** How @tessera/bearer's SQL store says a stored key does not open under the secrets given. */
const UNOPENED_KEY = /^signing key \S+ (does not open|holds another kid)/;

/**
 * `tessera keys rotate`: adds a new current JWT signing key (`JWT_ALGORITHM`, EdDSA or ES256)
 * to the app's `signing_keys`, its private part sealed under `SECRET_KEY_BASE`, with
 * `rotateSigningKey` of the app's @tessera/bearer; the older keys keep verifying until their
 * tokens expire. Refused: HS256 (its key derives from the secret), `JWT_PRIVATE_KEYS` set (the
 * keys are not the database's), a missing or short secret, stored keys the secrets do not open,
 * a database without `signing_keys`, and one that cannot be used. Prints no private key.
 */
export async function keysRotate(
  invocation: Invocation,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Outcome> {
  const settings = signingKeySettings(env);
  if (!settings.ok) return settings;
  const bearer = await loadAppPackage(root, "@tessera/bearer", { registry: invocation.registry });
  if (!bearer.ok) return bearer;
  const stores = await loadAppPackage(root, "@tessera/bearer/sql", {
    registry: invocation.registry,
  });
  if (!stores.ok) return stores;
  const { KEY_SET_REFRESH_INTERVAL_MS, rotateSigningKey } = bearer.value;
  const { algorithm, secrets } = settings.value;

  return withExistingDatabase(invocation, root, env, "rotate keys in", async (opened) => {
    if (!(await hasSigningKeysTable(opened.database))) {
      return refused(
        "the database has no `signing_keys` table",
        "start the app with JWT_ALGORITHM=EdDSA or ES256, which applies its migrations (or run them: `tessera migrate`), then run this command again; check that --database, DATABASE_URL or DATABASE_PATH names the app's database",
      );
    }
    const store = new stores.value.SqlSigningKeyStore(opened.database, { secrets });
    // Read first: the stored keys must open under these secrets, or the app could not open the
    // new key either.
    let before: number;
    try {
      before = (await store.list()).length;
    } catch (error) {
      if (!(error instanceof Error && UNOPENED_KEY.test(error.message))) throw error;
      return refused(
        error.message,
        "set SECRET_KEY_BASE (and SECRET_KEY_BASE_PREVIOUS, after a change of the secret) to the values the app runs with; nothing was added",
      );
    }
    const added = await rotateSigningKey(store, algorithm);
    const { kid, alg } = added.privateJwk;
    const within = intervalText(KEY_SET_REFRESH_INTERVAL_MS);
    const previous =
      before === 0
        ? "the first key in the database"
        : "the previous keys verify until their tokens expire";
    return {
      ok: true,
      text: `${opened.shown}: added signing key ${kid} (${alg}); ${previous}; running processes sign with it within ${within}`,
      json: { ok: true, kid, alg, generation: added.generation, keys: before + 1 },
    };
  });
}

/** Whether the signing keys migration of @tessera/bearer/sql has made its table. */
async function hasSigningKeysTable(database: SqlDatabase): Promise<boolean> {
  const rows = await database.all<{ name: string }>(
    database.dialect === "postgres"
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'signing_keys'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'signing_keys'",
  );
  return rows.length > 0;
}

/** How long a key set takes to read its store again, in words: `a minute`, `30 seconds`. */
function intervalText(milliseconds: number): string {
  const seconds = Math.ceil(milliseconds / 1000);
  if (seconds === 60) return "a minute";
  return seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;
}

function refused(reason: string, hint: string): Refusal {
  return { ok: false, reason, hint };
}
