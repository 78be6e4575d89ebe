import type { Finding } from "./findings.js";
import type { Footprint } from "./footprint.js";

/** What installing one package alone may bring, beyond "only what it declares". */
interface InstallRule {
  /** The only packages the install may hold, when it is that strict. */
  readonly onlyPackages?: readonly string[];
  /** The only Tessera packages the install may hold. */
  readonly onlyTesseraPackages?: readonly string[];
  /** Packages the install must not hold at all. */
  readonly forbidden?: readonly string[];
}

/** An HTML sanitizer and what it is built on. */
const HTML_SANITIZERS: readonly string[] = ["sanitize-html", "htmlparser2", "@tessera/sanitizer"];

/**
 * The layout's promises to a user who installs one package: core comes alone, verifying webhooks
 * brings only core, crypto and http (`@tessera/sql`, which only its `/sql` store needs, is an
 * optional peer), the outbox brings only core (`@tessera/sql` is its `/sql` store's optional peer
 * too), outbound webhooks bring only the outbox, the signer and what they stand on (their store
 * too is an optional peer's `/sql`), organizations bring only core, crypto, http and mail (their
 * store is an optional peer's `/sql` too), and neither bearer tokens nor fields, nor accounts (which reads fields'
 * messages and codecs) bring an HTML sanitizer: not sanitize-html, not htmlparser2 (on which
 * @tessera/sanitizer is built), not @tessera/sanitizer itself. A model with rich_text is given
 * the sanitizer by the app that defines it.
 */
export const INSTALL_RULES: Readonly<Record<string, InstallRule>> = {
  "@tessera/core": { onlyPackages: ["@tessera/core"] },
  "@tessera/webhooks": {
    onlyTesseraPackages: ["@tessera/core", "@tessera/crypto", "@tessera/http", "@tessera/webhooks"],
  },
  "@tessera/outbox": { onlyTesseraPackages: ["@tessera/core", "@tessera/outbox"] },
  "@tessera/outbound": {
    onlyTesseraPackages: [
      "@tessera/core",
      "@tessera/crypto",
      "@tessera/outbound",
      "@tessera/outbox",
      "@tessera/signer",
    ],
  },
  "@tessera/organizations": {
    onlyTesseraPackages: [
      "@tessera/core",
      "@tessera/crypto",
      "@tessera/http",
      "@tessera/mail",
      "@tessera/organizations",
    ],
  },
  "@tessera/bearer": { forbidden: HTML_SANITIZERS },
  "@tessera/fields": { forbidden: HTML_SANITIZERS },
  "@tessera/accounts": { forbidden: HTML_SANITIZERS },
};

/** Findings for an install that breaks its package's rule. */
export function installContentFindings(packageName: string, footprint: Footprint): Finding[] {
  const rule = INSTALL_RULES[packageName] ?? {};
  const unexpected = footprint.packages.filter(
    (name) =>
      (rule.onlyPackages && !rule.onlyPackages.includes(name)) ||
      (rule.onlyTesseraPackages &&
        name.startsWith("@tessera/") &&
        !rule.onlyTesseraPackages.includes(name)) ||
      rule.forbidden?.includes(name),
  );
  return unexpected.map((name) => ({
    packageName,
    check: "install-contents",
    detail: `installing it alone brings ${name}`,
  }));
}
