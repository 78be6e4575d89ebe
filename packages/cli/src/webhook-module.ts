import { camelize } from "@tessera/fields";
import { renderTemplate } from "./template.js";

/**
 * The signature schemes `generate webhook` knows, as the code the webhook templates are filled
 * in with: the verifier and its import, the route's extra options, and how the test signs.
 */
export const WEBHOOK_SCHEMES = {
  signature: {
    title: "an `X-Signature` header (hex HMAC-SHA256 of the body)",
    verifier: "signatureHeaderVerifier({ secret })",
    verifierImport: "signatureHeaderVerifier",
    testSign: `{ "x-signature": signBody(body, secret) }`,
    testSecret: `"a-shared-secret-for-tests"`,
    testImports: `import { signBody } from "@tessera/signer";`,
    eventId: `JSON.stringify({ id, type: "example.created" })`,
    routeOptions: "",
    testSetup: "",
  },
  standard: {
    title: "Standard Webhooks signatures (`webhook-id`, `webhook-timestamp`, `webhook-signature`)",
    verifier: "standardWebhookVerifier({ secret })",
    verifierImport: "standardWebhookVerifier",
    testSign: "signStandardWebhook({ id, body, secret })",
    testSecret: `"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"`,
    testImports: `import { signStandardWebhook } from "@tessera/signer";`,
    eventId: `JSON.stringify({ type: "example.created" })`,
    routeOptions: "",
    testSetup: "",
  },
  github: {
    title: "GitHub's `X-Hub-Signature-256`, each delivery named by `X-GitHub-Delivery`",
    verifier: "githubSignatureVerifier({ secret })",
    verifierImport: "githubSignatureVerifier",
    testSign: `{
      "x-hub-signature-256": \`sha256=\${signBody(body, secret)}\`,
      "x-github-delivery": id,
      "x-github-event": "issues",
    }`,
    testSecret: `"a-shared-secret-for-tests"`,
    testImports: `import { signBody } from "@tessera/signer";`,
    eventId: `JSON.stringify({ action: "opened" })`,
    routeOptions:
      '// GitHub\'s payloads carry no top-level id: each delivery is named by this header.\neventIdHeader: "X-GitHub-Delivery",',
    testSetup: "",
  },
  stripe: {
    title: "Stripe's `Stripe-Signature` (`t=<time>,v1=<hex>`, 5 minutes of tolerance)",
    verifier: "timestampedSignatureVerifier({ secret, toleranceSeconds: 300 })",
    verifierImport: "timestampedSignatureVerifier",
    testSign: `{ "stripe-signature": \`t=\${now},v1=\${signBody(\`\${now}.\${body}\`, secret)}\` }`,
    testSecret: `"whsec_a_shared_secret_for_tests"`,
    testImports: `import { signBody } from "@tessera/signer";`,
    eventId: `JSON.stringify({ id, type: "invoice.paid" })`,
    routeOptions: "",
    testSetup: "const now = Math.floor(Date.now() / 1000);",
  },
} as const;

/** One of {@link WEBHOOK_SCHEMES}. */
export type WebhookScheme = keyof typeof WEBHOOK_SCHEMES;

/** `ORDERS_WEBHOOK_SECRET` for `orders`: the variable a generated endpoint reads its secret from. */
export function webhookSecretVariable(name: string): string {
  return `${name.toUpperCase()}_WEBHOOK_SECRET`;
}

/** `orders` → `orders`, `Orders`: the names a generated endpoint's exports are made of. */
function exportNames(name: string): { camel: string; Pascal: string } {
  const camel = camelize(name);
  return { camel, Pascal: camel.charAt(0).toUpperCase() + camel.slice(1) };
}

/** The text of `src/webhooks/<name>.ts`: the route, and the effect for the app to fill in. */
export function webhookModule(name: string, scheme: WebhookScheme, command: string): string {
  const { title, verifier, verifierImport, routeOptions } = WEBHOOK_SCHEMES[scheme];
  return renderTemplate("webhook.ts", {
    command,
    name,
    ...exportNames(name),
    title,
    secretVariable: webhookSecretVariable(name),
    verifier,
    verifierImport,
    routeOptions,
  });
}

/** The text of `test/webhooks/<name>.test.ts`: the endpoint signed, replayed and forged. */
export function webhookTest(name: string, scheme: WebhookScheme, command: string): string {
  const { testSign, testSecret, testImports, testSetup, eventId } = WEBHOOK_SCHEMES[scheme];
  return renderTemplate("webhook.test.ts", {
    command,
    name,
    camel: exportNames(name).camel,
    testImports,
    testSecret,
    testSetup,
    eventId,
    testSign,
  });
}
