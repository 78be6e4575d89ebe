import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import { isSignInMethod, type SignInMethod } from "../account-hooks.js";
import type {
  SecondFactorChallenge,
  SecondFactorStore,
  TotpEnrolment,
} from "./second-factor-store.js";

/**
 * Creates `user_totp` (one sealed TOTP key per user), `user_backup_codes` and `mfa_challenges`
 * (keyed digests and SHA-256 digests only), all deleted with their user.
 */
export const secondFactorsMigration: Migration = {
  id: "0009_tessera_second_factors",
  sql: portableDdl(`CREATE TABLE user_totp (
  user_id INTEGER NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  sealed_key TEXT NOT NULL,
  confirmed_at TEXT,
  last_used_step INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE user_backup_codes (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  digest TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, digest)
);
CREATE TABLE mfa_challenges (
  digest TEXT NOT NULL PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  failures INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT NOT NULL
);
CREATE INDEX mfa_challenges_user_id ON mfa_challenges (user_id)`),
};

/**
 * Adds `mfa_challenges.first_factor`: the sign-in method (`password`, `email_code`, `passkey`,
 * ...) a challenge follows, so the sign-in it completes is announced as what it was. Rows
 * written before it keep NULL there.
 */
export const mfaChallengesFirstFactorMigration: Migration = {
  id: "0014_tessera_mfa_challenges_first_factor",
  sql: "ALTER TABLE mfa_challenges ADD COLUMN first_factor TEXT",
};

// A pending enrolment is replaced; a confirmed one is left alone (the WHERE of the upsert), and
// the caller learns it from `changes`.
const SAVE_PENDING = `INSERT INTO user_totp (user_id, sealed_key, confirmed_at, last_used_step, created_at)
VALUES (?, ?, NULL, NULL, ?)
ON CONFLICT (user_id) DO UPDATE SET sealed_key = excluded.sealed_key, created_at = excluded.created_at
WHERE user_totp.confirmed_at IS NULL`;
const CONFIRM =
  "UPDATE user_totp SET confirmed_at = ?, last_used_step = ? WHERE user_id = ? AND confirmed_at IS NULL";
// The replay guard: of racing requests with codes of one step, only the first moves the step on.
const USE_STEP = `UPDATE user_totp SET last_used_step = ?
WHERE user_id = ? AND confirmed_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < ?)`;

// The cap is in the WHERE: racing answers each move the count on by one, and those that find it
// at the cap (or the challenge expired) change nothing and get no row.
const COUNT_ATTEMPT = `UPDATE mfa_challenges SET failures = failures + 1
WHERE digest = ? AND failures < ? AND expires_at > ?
RETURNING user_id, first_factor, expires_at, failures`;

interface TotpRow {
  user_id: number;
  sealed_key: string;
  confirmed_at: string | null;
  last_used_step: number | null;
}

interface ChallengeRow {
  user_id: number;
  first_factor: string | null;
  expires_at: string;
  failures: number;
}

/**
 * The {@link SecondFactorStore} of `@tessera/accounts` on a {@link SqlDatabase} that has run
 * {@link secondFactorsMigration} and {@link mfaChallengesFirstFactorMigration}. Each
 * check-and-change is one statement; replacing backup codes and removing TOTP are transactions.
 */
export class SqlSecondFactorStore implements SecondFactorStore {
  constructor(private readonly database: SqlDatabase) {}

  async findTotp(userId: number): Promise<TotpEnrolment | undefined> {
    const row = await this.database.get<TotpRow>(
      "SELECT user_id, sealed_key, confirmed_at, last_used_step FROM user_totp WHERE user_id = ?",
      [userId],
    );
    return (
      row && {
        userId: row.user_id,
        sealedKey: row.sealed_key,
        confirmedAt: row.confirmed_at === null ? null : parseTimestamp(row.confirmed_at),
        lastUsedStep: row.last_used_step,
      }
    );
  }

  async savePendingTotp(userId: number, sealedKey: string, at: number): Promise<boolean> {
    const result = await this.database.run(SAVE_PENDING, [userId, sealedKey, formatTimestamp(at)]);
    return result.changes === 1;
  }

  async confirmTotp(
    userId: number,
    step: number,
    backupCodeDigests: readonly string[],
    at: number,
  ): Promise<boolean> {
    // Two steps, not one transaction: only the conditional UPDATE's count says whether this
    // request confirmed, and D1 tells no count inside a transaction. A crash between them leaves
    // TOTP on without backup codes, which the user (who never saw them) can generate anew.
    const confirmed = await this.database.run(CONFIRM, [formatTimestamp(at), step, userId]);
    if (confirmed.changes !== 1) return false;
    await this.replaceBackupCodes(userId, backupCodeDigests, at);
    return true;
  }

  async useTotpStep(userId: number, step: number): Promise<boolean> {
    return (await this.database.run(USE_STEP, [step, userId, step])).changes === 1;
  }

  async deleteTotp(userId: number): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run("DELETE FROM user_backup_codes WHERE user_id = ?", [userId]);
      await transaction.run("DELETE FROM user_totp WHERE user_id = ?", [userId]);
    });
  }

  async replaceBackupCodes(userId: number, digests: readonly string[], at: number): Promise<void> {
    await this.database.transaction((transaction) =>
      writeBackupCodes(transaction, userId, digests, at),
    );
  }

  async consumeBackupCode(userId: number, digests: readonly string[]): Promise<boolean> {
    if (digests.length === 0) return false;
    const placeholders = digests.map(() => "?").join(", ");
    const result = await this.database.run(
      `DELETE FROM user_backup_codes WHERE user_id = ? AND digest IN (${placeholders})`,
      [userId, ...digests],
    );
    return result.changes > 0;
  }

  async countBackupCodes(userId: number): Promise<number> {
    const row = await this.database.get<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM user_backup_codes WHERE user_id = ?",
      [userId],
    );
    return Number(row?.count ?? 0);
  }

  async createChallenge(
    digest: string,
    userId: number,
    firstFactor: SignInMethod,
    expiresAt: number,
    at: number,
  ): Promise<void> {
    await this.database.run("DELETE FROM mfa_challenges WHERE user_id = ? AND expires_at <= ?", [
      userId,
      formatTimestamp(at),
    ]);
    await this.database.run(
      "INSERT INTO mfa_challenges (digest, user_id, first_factor, failures, expires_at) VALUES (?, ?, ?, 0, ?)",
      [digest, userId, firstFactor, formatTimestamp(expiresAt)],
    );
  }

  async findChallenge(digest: string): Promise<SecondFactorChallenge | undefined> {
    return toChallenge(
      await this.database.get<ChallengeRow>(
        "SELECT user_id, first_factor, expires_at, failures FROM mfa_challenges WHERE digest = ?",
        [digest],
      ),
    );
  }

  async countChallengeAttempt(
    digest: string,
    maximum: number,
    at: number,
  ): Promise<SecondFactorChallenge | undefined> {
    return toChallenge(
      await this.database.get<ChallengeRow>(COUNT_ATTEMPT, [digest, maximum, formatTimestamp(at)]),
    );
  }

  async consumeChallenge(digest: string): Promise<SecondFactorChallenge | undefined> {
    return toChallenge(
      await this.database.get<ChallengeRow>(
        "DELETE FROM mfa_challenges WHERE digest = ? RETURNING user_id, first_factor, expires_at, failures",
        [digest],
      ),
    );
  }
}

async function writeBackupCodes(
  database: SqlDatabase,
  userId: number,
  digests: readonly string[],
  at: number,
): Promise<void> {
  await database.run("DELETE FROM user_backup_codes WHERE user_id = ?", [userId]);
  if (digests.length === 0) return;
  const createdAt = formatTimestamp(at);
  await database.run(
    `INSERT INTO user_backup_codes (user_id, digest, created_at) VALUES ${digests.map(() => "(?, ?, ?)").join(", ")}`,
    digests.flatMap((digest) => [userId, digest, createdAt]),
  );
}

function toChallenge(row: ChallengeRow | undefined): SecondFactorChallenge | undefined {
  return (
    row && {
      userId: row.user_id,
      // NULL on a row from before the column; a value this version does not know reads as
      // unknown too, rather than announcing a method the sign-in may not have been.
      firstFactor: isSignInMethod(row.first_factor) ? row.first_factor : null,
      expiresAt: parseTimestamp(row.expires_at),
      failures: Number(row.failures),
    }
  );
}
