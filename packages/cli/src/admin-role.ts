import type { SqlDatabase } from "@tessera/sql";
import { withExistingDatabase } from "./app-database.js";
import { loadAppPackage } from "./app-packages.js";
import type { Outcome } from "./commands.js";
import type { Invocation } from "./invocation.js";

/** The audit event each change of role appends, with `details: { role }`. */
export const ROLE_CHANGED_EVENT = "user.role_changed";

type Refusal = Extract<Outcome, { ok: false }>;

function refused(reason: string, hint: string): Refusal {
  return { ok: false, reason, hint };
}

/**
 * `tessera admin grant <email>` (role `admin`) and `tessera admin revoke <email>` (role `user`)
 * on the app's database: the address normalized as @tessera/accounts does, the role set and a
 * `user.role_changed` audit event appended in one transaction. Granting an admin again (or
 * revoking a user) changes nothing and succeeds. Refused: no such account, an unconfirmed
 * address (grant only: it could be anyone's sign-up), a database without `users.role` yet, and
 * a database that cannot be used.
 */
export async function adminRole(
  invocation: Invocation,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Outcome> {
  const role = invocation.command === "admin grant" ? "admin" : "user";
  const accounts = await loadAppPackage(root, "@tessera/accounts", {
    registry: invocation.registry,
  });
  if (!accounts.ok) return accounts;
  const stores = await loadAppPackage(root, "@tessera/accounts/sql", {
    registry: invocation.registry,
  });
  if (!stores.ok) return stores;
  const { isValidEmail, normalizeEmail } = accounts.value;
  const { SqlAuditLog, SqlUserStore } = stores.value;

  const email = normalizeEmail(invocation.email ?? "");
  if (!isValidEmail(email)) {
    return refused(
      `\`${email}\` is not an email address`,
      `write the account's address, e.g. \`tessera ${invocation.command} ada@example.com\``,
    );
  }
  return withExistingDatabase(invocation, root, env, "change roles in", async (opened) => {
    const missing = await missingRoleColumn(opened.database);
    if (missing) return missing;
    const now = Date.now();
    const changed = await opened.database.transaction(async (transaction) => {
      const users = new SqlUserStore(transaction);
      const user = await users.findByEmail(email);
      if (!user) {
        return refused(
          `no account has the address \`${email}\``,
          "check the address, and that --database, DATABASE_URL or DATABASE_PATH names the app's database",
        );
      }
      if (role === "admin" && user.confirmedAt === null) {
        return refused(
          `the address \`${email}\` is not confirmed`,
          "an unconfirmed address could be anyone's sign-up: grant once its owner has followed the confirmation link",
        );
      }
      if (user.role === role) return false;
      await users.setRole(user.id, role, now);
      await new SqlAuditLog(transaction).append(
        {
          type: ROLE_CHANGED_EVENT,
          userId: user.id,
          actorId: null,
          ip: null,
          userAgent: null,
          details: { role },
        },
        now,
      );
      return true;
    });
    if (typeof changed !== "boolean") return changed;
    return roleOutcome(opened.shown, email, role, changed, adminEmailNotes(email, role, env));
  });
}

/**
 * The refusal of a database whose `users` table lacks `role` (the accounts migration
 * `usersAdministrationMigration` has not run) or that has no `users` table at all.
 */
async function missingRoleColumn(database: SqlDatabase): Promise<Refusal | undefined> {
  const columns = await usersColumns(database);
  if (columns.length === 0) {
    return refused(
      "the database has no `users` table",
      "check that --database, DATABASE_URL or DATABASE_PATH names the app's database, and that its migrations have run (start the app, or run `tessera migrate`)",
    );
  }
  if (!columns.includes("role")) {
    return refused(
      "the database has no `users.role` column yet",
      "start the app, which applies its migrations (or run them: `tessera migrate`), then run this command again",
    );
  }
  return undefined;
}

/** The column names of `users` (none when there is no such table), read from the catalog. */
async function usersColumns(database: SqlDatabase): Promise<string[]> {
  const rows = await database.all<{ name: string }>(
    database.dialect === "postgres"
      ? "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'users'"
      : "SELECT name FROM pragma_table_info('users')",
  );
  return rows.map((row) => row.name);
}

/**
 * A revoked address that `ADMIN_EMAILS` (as this command sees it) still lists: the app treats
 * a confirmed address there as an operator whatever its role.
 */
function adminEmailNotes(
  email: string,
  role: "admin" | "user",
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const listed = (env.ADMIN_EMAILS ?? "").split(",").map((entry) => entry.trim().toLowerCase());
  return role === "user" && listed.includes(email)
    ? [
        `ADMIN_EMAILS lists ${email}: an app started with that setting still treats the account as an admin`,
      ]
    : [];
}

/** What the command did, as a line (`data/app.db: ada@example.com is an admin now`) and JSON. */
function roleOutcome(
  shown: string,
  email: string,
  role: "admin" | "user",
  changed: boolean,
  notes: readonly string[],
): Outcome {
  const state =
    role === "admin"
      ? changed
        ? "is an admin now"
        : "is an admin already"
      : changed
        ? "is no longer an admin"
        : "is not an admin (nothing to revoke)";
  return {
    ok: true,
    text: [`${shown}: ${email} ${state}`, ...notes.map((note) => `note: ${note}`)].join("\n"),
    json: { ok: true, email, role, changed, ...(notes.length > 0 ? { notes: [...notes] } : {}) },
  };
}
