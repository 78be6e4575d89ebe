import { camelize, SNAKE_CASE } from "@tessera/fields";
import { fileExists, migrationCreates } from "./app-folder.js";
import { loadAppPackage } from "./app-packages.js";
import { dialectOf, type GeneratorEnvironment, type Outcome } from "./commands.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { packageMigrationFiles } from "./package-migrations.js";
import { webhookModule, webhookSecretVariable, webhookTest } from "./webhook-module.js";

/**
 * `tessera generate webhook <name> [--standard | --github | --stripe]`: the endpoint module
 * (verifier, event log, the effect for the app to fill in), a test that signs, replays and
 * forges a delivery, and the `webhook_events` migrations when the app has none.
 */
export async function generateWebhook(
  invocation: Invocation,
  root: string,
  command: string,
  env: GeneratorEnvironment,
): Promise<Outcome> {
  const name = invocation.webhook ?? "";
  if (!SNAKE_CASE.test(name)) {
    return {
      ok: false,
      reason: `invalid webhook name \`${name}\``,
      hint: "webhook names are snake_case, e.g. `orders` for POST /webhooks/orders",
    };
  }
  const modulePath = `src/webhooks/${name}.ts`;
  if (fileExists(root, modulePath)) {
    return {
      ok: false,
      reason: `\`${modulePath}\` already exists`,
      hint: "choose another name, or delete the file to generate it again",
    };
  }
  const scheme = invocation.scheme ?? "signature";
  const dialect = dialectOf(invocation, env);
  const webhooks = await loadAppPackage(root, "@tessera/webhooks/sql", {
    registry: invocation.registry,
  });
  if (!webhooks.ok) return webhooks;
  const migrations = migrationCreates(root, "webhook_events")
    ? []
    : webhooks.value.webhookMigrations;
  const variable = webhookSecretVariable(name);
  return applyFileChanges(
    root,
    {
      created: [
        [modulePath, webhookModule(name, scheme, command)],
        [`test/webhooks/${name}.test.ts`, webhookTest(name, scheme, command)],
        ...packageMigrationFiles(root, migrations, dialect, command),
      ],
      notes: [
        `set ${variable} to the sender's signing secret`,
        `mount it: ${camelize(name)}WebhookRoute({ store: new SqlWebhookEventStore(database), secret: process.env.${variable} })`,
      ],
    },
    invocation,
  );
}
